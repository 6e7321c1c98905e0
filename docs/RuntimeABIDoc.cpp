//===- RuntimeABIDoc.cpp - docs/RuntimeABI.md from the ABI's declarations -===//
//
// tc-runtime-abi-doc DOC OUT: writes DOC to OUT with its two generated
// sections replaced: the function list from RuntimeFunctions.def and the
// description layouts (every field and part, in order) from
// DescriptorFields.def.
// tc-runtime-abi-doc --check DOC: every tc_rt_* prototype in DOC's C code
// blocks must be RuntimeFunctions.def's; prints each disagreement and exits 1.
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

/// A generated section: the lines between a line starting with `begin` and
/// the line `end`.
struct Section {
  const char *begin, *end;
  std::string (*text)();
};

std::string functionList() {
  std::string out = "| C prototype | what it does |\n|---|---|\n";
  for (const tc_rt::FunctionDecl &decl : tc_rt::functionDecls())
    out += "| `" + tc_rt::prototype(decl) + "` | " + decl.doc + " |\n";
  return out;
}

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// One entry of a layout as the documentation shows it.
struct Entry {
  std::string name;  ///< rank_a, grid[grid_rank], dims[rank]: (extent, ...)
  std::string where; ///< its offset, or "variable"
  std::string type, doc;
};
struct Layout {
  std::string record, cxx; ///< tc_rt_<record>_*, tc_rt::<Cxx>Fields
  std::vector<Entry> entries;
  std::vector<std::string> fieldNames; ///< its fixed fields, for the records holding it
};

/// The layouts of DescriptorFields.def, with every length expression written
/// in the names of the entries it reads: d[TC_RT_ARRAY_GRID_RANK] is
/// grid_rank, d[TC_RT_CONTRACT_RANK + x] rank[x], d[tc_rt_array_num_summed(d)]
/// num_summed.
std::vector<Layout> layouts() {
  std::vector<Layout> out;
  std::map<std::string, std::string> names;        // TC_RT_<PREFIX>_<NAME> -> name
  std::map<std::string, std::string> countParts;   // tc_rt_<record>_<part> -> part
  std::map<std::string, std::string> memberFields; // Member -> "(a, b, ...)"
  auto spell = [&](std::string e) {
    static const std::regex read(R"(d\[(\w+)(\(d\)| \+ x)?\])");
    std::string spelled;
    std::smatch m;
    while (std::regex_search(e, m, read)) {
      const std::map<std::string, std::string> &table = m[2] == "(d)" ? countParts : names;
      auto it = table.find(m[1]);
      spelled += m.prefix().str() +
                 (it == table.end() ? m[0].str() : it->second + (m[2] == " + x" ? "[x]" : ""));
      e = m.suffix().str();
    }
    return spelled + e;
  };
  auto fields = [](const Layout &l) {
    std::string list;
    for (const std::string &f : l.fieldNames)
      list += (list.empty() ? "" : ", ") + f;
    return "(" + list + ")";
  };
#define TC_RT_RECORD(Record, record, PREFIX) out.push_back({#record, #Record, {}, {}});
#define TC_RT_FIELD(PREFIX, NAME, offset, Type, accessor, doc)                                     \
  names["TC_RT_" #PREFIX "_" #NAME] = lower(#NAME);                                                \
  out.back().fieldNames.push_back(lower(#NAME));                                                   \
  out.back().entries.push_back({lower(#NAME), std::to_string(offset), #Type, doc});
#define TC_RT_FIELDS(PREFIX, NAME, offset, count, Type, accessor, doc)                             \
  names["TC_RT_" #PREFIX "_" #NAME] = lower(#NAME);                                                \
  for (int x = 0; x < (count); ++x) {                                                              \
    std::string name = lower(#NAME) + "_" + char('a' + x);                                         \
    out.back().fieldNames.push_back(name);                                                         \
    out.back().entries.push_back({name, std::to_string((offset) + x), #Type, doc});                \
  }
#define TC_RT_END(record, PREFIX, NAME, offset) names["TC_RT_" #PREFIX "_" #NAME] = lower(#NAME);
#define TC_RT_COUNT(record, part, accessor, prev, doc)                                             \
  countParts["tc_rt_" #record "_" #part] = #part;                                                  \
  out.back().entries.push_back({#part, "variable", "int64_t", doc});
#define TC_RT_LIST(record, part, accessor, prev, count, doc)                                       \
  out.back().entries.push_back({#part "[" + spell(#count) + "]", "variable", "int64_t", doc});
#define TC_RT_RECORDS(record, part, accessor, prev, count, Member, width, doc)                     \
  out.back().entries.push_back(                                                                    \
      {#part "[" + spell(#count) + "]: " + memberFields[#Member], "variable", #Member, doc});
#define TC_RT_ENTRIES(record, part, accessor, prev, count, width, doc)                             \
  out.back().entries.push_back(                                                                    \
      {#part "[" + spell(#count) + "][" + spell(#width) + "]", "variable", "int64_t", doc});
#define TC_RT_LISTS(record, part, accessor, prev, count, length, doc)                              \
  out.back().entries.push_back(                                                                    \
      {#part "[" + spell(#count) + "][" + spell(#length) + "]", "variable", "int64_t", doc});
#define TC_RT_SIZE(record, last) memberFields[out.back().cxx] = fields(out.back());
#include "TC/Runtime/DescriptorFields.def"
  return out;
}

std::string layoutTable() {
  std::string out = "| description | entry | offset | type | meaning |\n|---|---|---|---|---|\n";
  for (const Layout &l : layouts()) {
    std::string layout;
    for (const Entry &e : l.entries)
      layout += (layout.empty() ? "" : ", ") + e.name;
    out += "| **" + l.record + "** (`tc_rt::" + l.cxx + "Fields`) | `[" + layout + "]` | | | |\n";
    for (const Entry &e : l.entries)
      out += "| | `" + e.name + "` | " + e.where + " | `" + e.type + "` | " + e.doc + " |\n";
  }
  return out;
}

const Section kSections[] = {
    {"<!-- Generated from include/TC/Runtime/RuntimeFunctions.def",
     "<!-- End of the generated list. -->", functionList},
    {"<!-- Generated from include/TC/Runtime/DescriptorFields.def",
     "<!-- End of the generated layouts. -->", layoutTable},
};

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
  const Section *in = nullptr;
  std::vector<const Section *> found;
  for (std::string line; std::getline(doc, line);) {
    for (const Section &section : kSections)
      if (!in && line.rfind(section.begin, 0) == 0) {
        out << line << "\n" << section.text();
        in = &section;
        found.push_back(in);
      }
    if (in && line == in->end)
      in = nullptr;
    if (!in)
      out << line << "\n";
  }
  if (in || found.size() != std::size(kSections)) {
    std::cerr << "tc-runtime-abi-doc: the document lacks a generated section or its end:";
    for (const Section &section : kSections)
      std::cerr << "\n  '" << section.begin << "' ... '" << section.end << "'";
    std::cerr << "\n";
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
    return checkPrototypes(lines) ? 1 : 0;
  }
  // Written only when complete, so a failed run leaves no half document.
  std::ostringstream text;
  if (generate(doc, text) != 0)
    return 1;
  std::ofstream(argv[2]) << text.str();
  return 0;
}
