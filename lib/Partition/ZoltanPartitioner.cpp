//===- ZoltanPartitioner.cpp - Zoltan's PHG behind tc's partitioner -------===//
#include "TC/Partition/ZoltanPartitioner.h"
#include "TC/Analysis/Partitioners.h"

#include <mpi.h>
#include <zoltan.h>

#include <cstdlib>
#include <string>

using namespace mlir::tc;

namespace {

/// What Zoltan's callbacks read: the hypergraph, its vertex weights and the
/// fixed parts.
struct Query {
  const Hypergraph *h;
  std::vector<float> weights;
  std::vector<int> fixedVertices, fixedParts;
};

int numObjects(void *data, int *ierr) {
  *ierr = ZOLTAN_OK;
  return static_cast<Query *>(data)->h->numVertices();
}

void objectList(void *data, int, int, ZOLTAN_ID_PTR global, ZOLTAN_ID_PTR local, int,
                float *weights, int *ierr) {
  const Query &q = *static_cast<Query *>(data);
  for (int v = 0; v < q.h->numVertices(); ++v) {
    global[v] = static_cast<ZOLTAN_ID_TYPE>(v);
    local[v] = static_cast<ZOLTAN_ID_TYPE>(v);
    weights[v] = q.weights[v];
  }
  *ierr = ZOLTAN_OK;
}

void hypergraphSize(void *data, int *lists, int *pins, int *format, int *ierr) {
  const Hypergraph &h = *static_cast<Query *>(data)->h;
  *lists = h.numNets();
  *pins = 0;
  for (const std::vector<int> &net : h.netPins)
    *pins += static_cast<int>(net.size());
  *format = ZOLTAN_COMPRESSED_EDGE;
  *ierr = ZOLTAN_OK;
}

void hypergraphPins(void *data, int, int lists, int, int, ZOLTAN_ID_PTR netIds, int *starts,
                    ZOLTAN_ID_PTR pins, int *ierr) {
  const Hypergraph &h = *static_cast<Query *>(data)->h;
  int p = 0;
  for (int j = 0; j < lists; ++j) {
    netIds[j] = static_cast<ZOLTAN_ID_TYPE>(j);
    starts[j] = p;
    for (int v : h.netPins[j])
      pins[p++] = static_cast<ZOLTAN_ID_TYPE>(v);
  }
  *ierr = ZOLTAN_OK;
}

void netWeightSize(void *data, int *count, int *ierr) {
  *count = static_cast<Query *>(data)->h->numNets();
  *ierr = ZOLTAN_OK;
}

void netWeights(void *data, int, int, int count, int, ZOLTAN_ID_PTR netIds, ZOLTAN_ID_PTR,
                float *weights, int *ierr) {
  const Hypergraph &h = *static_cast<Query *>(data)->h;
  for (int j = 0; j < count; ++j) {
    netIds[j] = static_cast<ZOLTAN_ID_TYPE>(j);
    weights[j] = static_cast<float>(h.netCost[j]);
  }
  *ierr = ZOLTAN_OK;
}

int numFixed(void *data, int *ierr) {
  *ierr = ZOLTAN_OK;
  return static_cast<int>(static_cast<Query *>(data)->fixedVertices.size());
}

void fixedList(void *data, int count, int, ZOLTAN_ID_PTR ids, int *parts, int *ierr) {
  const Query &q = *static_cast<Query *>(data);
  for (int i = 0; i < count; ++i) {
    ids[i] = static_cast<ZOLTAN_ID_TYPE>(q.fixedVertices[i]);
    parts[i] = q.fixedParts[i];
  }
  *ierr = ZOLTAN_OK;
}

/// MPI for Zoltan: the caller's, else a singleton started here and finalized
/// at exit.
bool ensureMpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    return true;
  if (MPI_Init(nullptr, nullptr) != MPI_SUCCESS)
    return false;
  std::atexit([] {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      MPI_Finalize();
  });
  return true;
}

} // namespace

std::vector<int> ZoltanPartitioner::partition(const Hypergraph &h,
                                              const PartitionRequest &request) {
  lastError.clear();
  if (h.numVertices() == 0)
    return {};
  if (request.parts == 1)
    return std::vector<int>(h.numVertices(), 0);
  if (!ensureMpi()) {
    lastError = "MPI could not be initialized for Zoltan";
    return {};
  }
  float version = 0;
  if (Zoltan_Initialize(0, nullptr, &version) != ZOLTAN_OK) {
    lastError = "Zoltan_Initialize failed";
    return {};
  }
  Query q{&h, {}, {}, {}};
  q.weights.assign(h.numVertices(), 0);
  if (request.balanceNetCost) {
    for (int j = 0; j < h.numNets(); ++j)
      for (int v : h.netPins[j])
        q.weights[v] += static_cast<float>(h.netCost[j] / h.netPins[j].size());
  } else {
    for (int v = 0; v < h.numVertices(); ++v)
      q.weights[v] = static_cast<float>(h.vertexWeight[v]);
  }
  for (int v = 0; v < static_cast<int>(request.fixed.size()); ++v)
    if (request.fixed[v] >= 0) {
      q.fixedVertices.push_back(v);
      q.fixedParts.push_back(request.fixed[v]);
    }

  Zoltan_Struct *z = Zoltan_Create(MPI_COMM_SELF);
  auto set = [&](const char *name, const std::string &value) {
    Zoltan_Set_Param(z, name, value.c_str());
  };
  set("DEBUG_LEVEL", "0");
  set("LB_METHOD", "HYPERGRAPH");
  set("HYPERGRAPH_PACKAGE", "PHG");
  set("LB_APPROACH", "PARTITION");
  set("NUM_GLOBAL_PARTS", std::to_string(request.parts));
  set("RETURN_LISTS", "PARTS");
  set("OBJ_WEIGHT_DIM", "1");
  set("EDGE_WEIGHT_DIM", "1");
  set("IMBALANCE_TOL", std::to_string(1.0 + request.imbalance));
  set("PHG_CUT_OBJECTIVE",
      request.metric == CutMetric::Connectivity ? "CONNECTIVITY" : "HYPEREDGES");
  set("PHG_EDGE_SIZE_THRESHOLD", "1.0"); // keep every net, however many pins
  set("PHG_RANDOMIZE_INPUT", "0");
  set("SEED", "20071");
  Zoltan_Set_Num_Obj_Fn(z, numObjects, &q);
  Zoltan_Set_Obj_List_Fn(z, objectList, &q);
  Zoltan_Set_HG_Size_CS_Fn(z, hypergraphSize, &q);
  Zoltan_Set_HG_CS_Fn(z, hypergraphPins, &q);
  Zoltan_Set_HG_Size_Edge_Wts_Fn(z, netWeightSize, &q);
  Zoltan_Set_HG_Edge_Wts_Fn(z, netWeights, &q);
  if (!q.fixedVertices.empty()) {
    Zoltan_Set_Num_Fixed_Obj_Fn(z, numFixed, &q);
    Zoltan_Set_Fixed_Obj_List_Fn(z, fixedList, &q);
  }

  int changes = 0, gidEntries = 0, lidEntries = 0, numImport = 0, numExport = 0;
  ZOLTAN_ID_PTR importGids = nullptr, importLids = nullptr, exportGids = nullptr,
                exportLids = nullptr;
  int *importProcs = nullptr, *importParts = nullptr, *exportProcs = nullptr,
      *exportParts = nullptr;
  int rc = Zoltan_LB_Partition(z, &changes, &gidEntries, &lidEntries, &numImport, &importGids,
                               &importLids, &importProcs, &importParts, &numExport,
                               &exportGids, &exportLids, &exportProcs, &exportParts);
  std::vector<int> part;
  if (rc == ZOLTAN_OK || rc == ZOLTAN_WARN) {
    // With RETURN_LISTS=PARTS every object is in the export list.
    part.assign(h.numVertices(), 0);
    for (int i = 0; i < numExport; ++i)
      part[exportLids[i]] = exportParts[i];
  } else {
    lastError = "Zoltan_LB_Partition returned " + std::to_string(rc);
  }
  Zoltan_LB_Free_Part(&importGids, &importLids, &importProcs, &importParts);
  Zoltan_LB_Free_Part(&exportGids, &exportLids, &exportProcs, &exportParts);
  Zoltan_Destroy(&z);
  return part;
}

void mlir::tc::registerZoltanPartitioner() {
  registerHypergraphPartitioner("zoltan", [] { return std::make_unique<ZoltanPartitioner>(); });
}
