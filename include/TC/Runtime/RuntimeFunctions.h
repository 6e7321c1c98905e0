//===- RuntimeFunctions.h - the runtime's entry points as data --*- C++ -*-===//
//
// RuntimeFunctions.def read into C++: an enum naming every tc_rt_* function
// and a table of their declarations (result and parameter kinds, names, C
// types, one-line docs), for the compiler to declare and check its calls and
// for the generated documentation. No MLIR here; the MLIR types of the kinds
// are the conversion's (lib/Conversion/TCToRuntime/RuntimeCalls.h).
//
//===----------------------------------------------------------------------===//
#ifndef TC_RUNTIME_RUNTIMEFUNCTIONS_H
#define TC_RUNTIME_RUNTIMEFUNCTIONS_H

#include "TC/Runtime/Runtime.h"

#include <string>
#include <vector>

namespace tc_rt {

/// Every runtime entry point, by its C name.
enum class Function : unsigned {
#define TC_RT_FUNCTION(name, result, params, doc) name,
#define TC_RT_ARG(kind, name)
#define TC_RT_NO_ARGS
#include "TC/Runtime/RuntimeFunctions.def"
};

/// The parameter kinds of RuntimeFunctions.def.
enum class Kind { Void, Handle, Buffer, Descriptor, Offsets, String, Doubles, I64, F64 };

struct Param {
  Kind kind;
  const char *cType; ///< as Runtime.h spells it
  const char *name;
};

struct FunctionDecl {
  const char *name;
  Kind result;
  const char *cResult;
  std::vector<Param> params;
  const char *doc; ///< one line
};

#define TC_RT_STRINGIFY_(...) #__VA_ARGS__
#define TC_RT_STRINGIFY(...) TC_RT_STRINGIFY_(__VA_ARGS__)
#define TC_RT_BRACED(...) {__VA_ARGS__}

/// Every declaration, in the order of RuntimeFunctions.def (the enum's).
inline const std::vector<FunctionDecl> &functionDecls() {
  static const std::vector<FunctionDecl> decls = {
#define TC_RT_FUNCTION(name, result, params, doc)                                                  \
  FunctionDecl{#name, Kind::result, TC_RT_STRINGIFY(TC_RT_CTYPE_##result),                         \
               std::vector<Param> TC_RT_BRACED params, doc},
#define TC_RT_ARG(kind, name) Param{Kind::kind, TC_RT_STRINGIFY(TC_RT_CTYPE_##kind), #name}
#define TC_RT_NO_ARGS
#include "TC/Runtime/RuntimeFunctions.def"
  };
  return decls;
}

#undef TC_RT_BRACED
#undef TC_RT_STRINGIFY
#undef TC_RT_STRINGIFY_

inline const FunctionDecl &declaration(Function f) {
  return functionDecls()[static_cast<unsigned>(f)];
}

/// The C prototype, as Runtime.h declares it: `void tc_rt_wait(void *request)`.
inline std::string prototype(const FunctionDecl &decl) {
  auto typed = [](std::string type, const char *name) {
    return type.back() == '*' ? type + name : type + " " + name;
  };
  std::string out = typed(decl.cResult, decl.name) + "(";
  for (size_t i = 0; i < decl.params.size(); ++i)
    out += (i ? ", " : "") + typed(decl.params[i].cType, decl.params[i].name);
  return out + (decl.params.empty() ? "void)" : ")");
}

} // namespace tc_rt

#endif // TC_RUNTIME_RUNTIMEFUNCTIONS_H
