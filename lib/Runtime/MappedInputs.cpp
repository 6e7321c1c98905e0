//===- MappedInputs.cpp - input blocks mapped from their files ------------===//
//
// Reading an input copies it out of the page cache into fresh memory, whose
// every page costs a first touch: on these VMs about 0.5 ms per MB in 4 KiB
// pages and still a few tenths of a second for the 164 MB a rank holds of the
// CCD's Vvvvv in huge pages (bench/README.md), more than the copy. When a
// rank's block of a read-only input is one contiguous range of the file
// (rows of the first dimension, the others whole, stored in the file's
// order, no padding: ArrayEntryPoints.cpp decides from the layout), the
// block is mapped from the file instead: the page cache's pages are used
// where they are. The mapping is private and writable, so a write, which a
// read-only array never makes, would change a copy and never the file. The
// bytes count as read, as the plan predicts a load's. Anything else is read
// as before (Hdf5IO.cpp).
//
//===----------------------------------------------------------------------===//
#include "MappedInputs.h"
#include "BufferPool.h"
#include "Context.h"
#include "DistArray.h"
#include "Element.h"
#include "KeptTensors.h"

#include <hdf5.h>

#include <cstdint>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

namespace tc_rt {
namespace {

/// Blocks mapped whose arrays have not been created yet.
std::unordered_set<const void *> &unclaimed() {
  static std::unordered_set<const void *> blocks;
  return blocks;
}

/// Whether two paths name one file (false if either does not exist).
bool sameFile(const std::string &a, const std::string &b) {
  struct stat sa, sb;
  return !a.empty() && !b.empty() && ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/// The byte offset in `path` of dataset `name` when the file stores it as one
/// contiguous range of native `elem` elements of extents `extents`; -1 else.
int64_t contiguousOffset(const std::string &path, const std::string &name, tc_rt_elem elem,
                         const Shape &extents) {
  const hid_t file = openInputFile(path);
  if (file < 0)
    return -1;
  int64_t offset = -1;
  hid_t ds = -1;
  H5E_BEGIN_TRY { ds = H5Dopen2(file, name.c_str(), H5P_DEFAULT); }
  H5E_END_TRY;
  if (ds >= 0) {
    const hid_t type = H5Dget_type(ds), plist = H5Dget_create_plist(ds);
    const hid_t native = elem == TC_RT_F32 ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
    const haddr_t at = H5Dget_offset(ds);
    if (extentsOf(ds) == extents && H5Tequal(type, native) > 0 &&
        H5Pget_layout(plist) == H5D_CONTIGUOUS && H5Pget_external_count(plist) == 0 &&
        at != HADDR_UNDEF && at <= static_cast<haddr_t>(INT64_MAX))
      offset = static_cast<int64_t>(at);
    H5Pclose(plist);
    H5Tclose(type);
    H5Dclose(ds);
  }
  H5Fclose(file);
  return offset;
}

} // namespace

void *mapInputBlock(const std::string &name, tc_rt_elem elem, const Shape &fileExtents,
                    int64_t firstElement, int64_t bytes) {
  const Context &c = ctx();
  // Below a pooled buffer's size a read costs less than a mapping's calls.
  if (firstElement < 0 || bytes < static_cast<int64_t>(kPooledBytes) || isKept(name) ||
      c.storedIntermediates.count(name))
    return nullptr;
  auto in = c.options.inputs.find(name);
  if (in == c.options.inputs.end() || sameFile(in->second, c.options.output))
    return nullptr;
  const int64_t offset = contiguousOffset(in->second, name, elem, fileExtents);
  if (offset < 0)
    return nullptr;
  const int64_t first = offset + firstElement * elementBytes(elem);
  const int64_t page = ::sysconf(_SC_PAGESIZE);
  const int64_t base = first / page * page;
  if (first % elementBytes(elem) != 0) // its elements would be misaligned
    return nullptr;
  const int fd = ::open(in->second.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return nullptr;
  struct stat st;
  void *map = MAP_FAILED;
  const size_t length = static_cast<size_t>(first - base + bytes);
  if (::fstat(fd, &st) == 0 && st.st_size >= first + bytes) // beyond the end would fault
    map = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_POPULATE, fd, base);
  ::close(fd);
  if (map == MAP_FAILED)
    return nullptr;
  void *block =
      adoptMapping(map, length, static_cast<size_t>(first - base), static_cast<size_t>(bytes));
  unclaimed().insert(block);
  return block;
}

bool takeMappedBlock(const void *storage) { return unclaimed().erase(storage) > 0; }

} // namespace tc_rt
