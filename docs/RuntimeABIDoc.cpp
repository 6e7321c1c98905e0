//===- RuntimeABIDoc.cpp - docs/RuntimeABI.md against RuntimeFunctions.def -===//
//
// tc-runtime-abi-doc DOC OUT: writes DOC to OUT with its function list (the
// lines between the two markers below) generated from RuntimeFunctions.def.
// tc-runtime-abi-doc --check DOC: every tc_rt_* prototype in DOC's C code
// blocks must be RuntimeFunctions.def's, and every record of
// DescriptorFields.def must appear with its fixed fields in order, as a
// layout's start `[rank, root_only, ...` or, repeated, as `(a, b, ..., step)`;
// prints each disagreement and exits 1.
//
//===----------------------------------------------------------------------===//
#include "TC/Runtime/Descriptors.h"
#include "TC/Runtime/RuntimeFunctions.h"

#include <cctype>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

namespace {

const char *const kBegin = "<!-- Generated from include/TC/Runtime/RuntimeFunctions.def";
const char *const kEnd = "<!-- End of the generated list. -->";

std::string functionList() {
  std::string out = "| C prototype | what it does |\n|---|---|\n";
  for (const tc_rt::FunctionDecl &decl : tc_rt::functionDecls())
    out += "| `" + tc_rt::prototype(decl) + "` | " + decl.doc + " |\n";
  return out;
}

/// Whitespace kept only between two identifier characters, so that
/// `void *buf` and `void* buf` compare equal.
std::string normalize(const std::string &s) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty() && word(out.back()) && word(c))
      out += ' ';
    out += c;
    space = false;
  }
  return out;
}

/// A record's fixed fields as the documentation names them: ON_DISK is
/// on_disk, a field per operand RANK is rank_a, rank_b, rank_c.
struct Record {
  std::string name;
  bool repeated; ///< its length is its last offset, not a variable part's start
  std::vector<std::string> fields;
};

std::vector<Record> records() {
  auto lower = [](std::string s) {
    for (char &c : s)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::vector<Record> out;
#define TC_RT_RECORD(Record, record, PREFIX) out.push_back({#record, false, {}});
#define TC_RT_FIELD(PREFIX, NAME, offset, Type, accessor, doc) out.back().fields.push_back(lower(#NAME));
#define TC_RT_FIELDS(PREFIX, NAME, offset, count, Type, accessor, doc)                             \
  for (int x = 0; x < (count); ++x)                                                                \
    out.back().fields.push_back(lower(#NAME) + "_" + char('a' + x));
#define TC_RT_END(PREFIX, NAME, offset) out.back().repeated = std::string(#NAME) == "FIELDS";
#include "TC/Runtime/DescriptorFields.def"
  return out;
}

int checkLayouts(const std::string &doc) {
  int wrong = 0;
  for (const Record &r : records()) {
    std::string list;
    for (const std::string &f : r.fields)
      list += (list.empty() ? "" : ", ") + f;
    std::string written = r.repeated ? "(" + list + ")" : "[" + list + ", ";
    if (doc.find(written) == std::string::npos) {
      std::cout << "the " << r.name << " layout is not written `" << written
                << "` as DescriptorFields.def declares\n";
      ++wrong;
    }
  }
  std::cout << records().size() << " layouts checked, " << wrong << " wrong\n";
  return wrong;
}

int checkPrototypes(std::istream &doc) {
  std::map<std::string, std::string> declared;
  for (const tc_rt::FunctionDecl &decl : tc_rt::functionDecls())
    declared[decl.name] = tc_rt::prototype(decl);
  const std::regex prototype(R"(^\s*([A-Za-z_][\w\s]*\*?\s*)(tc_rt_\w+)\s*\(([^)]*)\)\s*;)");
  int wrong = 0, checked = 0, lineNo = 0;
  bool inC = false;
  for (std::string line; std::getline(doc, line);) {
    ++lineNo;
    if (line.rfind("```", 0) == 0) {
      inC = !inC && line == "```c";
      continue;
    }
    std::smatch m;
    if (!inC || !std::regex_search(line, m, prototype))
      continue;
    ++checked;
    auto it = declared.find(m[2]);
    std::string written = normalize(m[1].str() + m[2].str() + "(" + m[3].str() + ")");
    if (it == declared.end()) {
      std::cout << "line " << lineNo << ": " << m[2] << " is not in RuntimeFunctions.def\n";
      ++wrong;
    } else if (written != normalize(it->second)) {
      std::cout << "line " << lineNo << ": " << written << "\n  RuntimeFunctions.def: "
                << it->second << "\n";
      ++wrong;
    }
  }
  std::cout << checked << " prototypes checked, " << wrong << " wrong\n";
  return wrong;
}

int generate(std::istream &doc, std::ostream &out) {
  bool inList = false, found = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind(kBegin, 0) == 0) {
      out << line << "\n" << functionList();
      inList = found = true;
      continue;
    }
    if (line == kEnd)
      inList = false;
    if (!inList)
      out << line << "\n";
  }
  if (!found || inList) {
    std::cerr << "tc-runtime-abi-doc: the document has no '" << kBegin << "' ... '" << kEnd
              << "' section\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: tc-runtime-abi-doc DOC OUT | --check DOC\n";
    return 2;
  }
  const bool check = std::string(argv[1]) == "--check";
  std::ifstream doc(argv[check ? 2 : 1]);
  if (!doc) {
    std::cerr << "tc-runtime-abi-doc: cannot read " << argv[check ? 2 : 1] << "\n";
    return 1;
  }
  if (check) {
    std::ostringstream text;
    text << doc.rdbuf();
    std::istringstream lines(text.str());
    int wrong = checkPrototypes(lines);
    wrong += checkLayouts(text.str());
    return wrong ? 1 : 0;
  }
  // Written only when complete, so a failed run leaves no half document.
  std::ostringstream text;
  if (generate(doc, text) != 0)
    return 1;
  std::ofstream(argv[2]) << text.str();
  return 0;
}
