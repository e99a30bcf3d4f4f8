// The sentences of the operators' rules, each written once. A C++20 static_assert message must be
// one string literal, so an operator's diagnostic is put together by the preprocessor from its
// name and the rule's sentence (string literals side by side are one literal):
//
//   CTFF_DIAGNOSE(report<labeled<"value", T>>::shown,
//                 "ctff: federated_sum: " CTFF_RULE_PLACED_AT("the value", "CLIENTS"));
//
// (A computed message, P2741, could take both from a table; g++-12 and clang-16 have none.)
#pragma once

// Placement and federated values.
#define CTFF_RULE_FEDERATED(what) what " must be federated, or a struct of federated values to zip"
#define CTFF_RULE_PLACED_AT(what, where) what " must be placed at " where
#define CTFF_RULE_ALL_EQUAL(what) what " must be equal at all locations (all_equal)"
#define CTFF_RULE_SEQUENCE(what) what " must be a sequence or a federated sequence"
#define CTFF_RULE_SERVER_SEQUENCE_ALL_EQUAL \
  "a federated sequence placed at SERVER must be equal at all locations (all_equal)"

// Functions passed to an operator.
#define CTFF_RULE_FUNCTION(what) what " must be a computation or a function-typed value"
#define CTFF_RULE_FUNCTIONS(what) what " must be computations or function-typed values"
#define CTFF_RULE_TAKES_PARAMETER(what) what " must take a parameter"
#define CTFF_RULE_MAPPING_PARAMETER \
  "the mapping function's parameter type is not assignable from the value's member type"
#define CTFF_RULE_MAPPING_RESULT \
  "the mapping function's result must not contain federated or function types"
#define CTFF_RULE_ACCUMULATE_TYPE \
  "accumulate must have type (<U,T> -> U), with T the member type of the value"

// Member and element types.
#define CTFF_RULE_NUMERIC_STRUCTURE(what) \
  what " must be a structure of numeric tensors (not bool or str)"
#define CTFF_RULE_INTEGER_STRUCTURE(what) what " must be a structure of integers"
#define CTFF_RULE_FLOATING_OR_COMPLEX(what) \
  what " must consist of floating-point or complex tensors"
#define CTFF_RULE_INTEGER_OR_FLOATING(what) \
  what " must consist of integer or floating-point tensors"
#define CTFF_RULE_FULLY_DEFINED(what) "the tensor shapes of " what " must be fully defined"
#define CTFF_RULE_TENSOR_OPERANDS "both operands must be tensors or structs of tensors"
#define CTFF_RULE_NO_SUCH_OPERATOR(what)                                                    \
  "federated_language has no " what " intrinsic; its operators are +, * and / (generic_plus, " \
  "generic_multiply, generic_divide): compute it in a TensorFlow computation or add/multiply by " \
  "a constant"

// federated_select and federated_secure_select.
#define CTFF_RULE_SELECT_KEYS "the keys must be an int32 tensor of rank 1 and known size"
#define CTFF_RULE_SELECT_MAX_KEY "max_key must be an int32 placed at SERVER"
#define CTFF_RULE_SELECT_SERVER_VAL \
  "server_val must be placed at SERVER, equal at all locations (all_equal)"
#define CTFF_RULE_SELECT_FN_PARAMETER                                                       \
  "select_fn must be a function whose parameter is assignable from <S,int32>, S the member " \
  "type of server_val"
#define CTFF_RULE_SELECT_FN_RESULT \
  "select_fn's result must not contain federated, function or sequence types"
#define CTFF_RULE_SELECT_SIGNATURE                                             \
  "the types are no instance of (<{Ks}@CLIENTS,int32@SERVER,T@SERVER,(<T,int32> -> U)> -> " \
  "{U*}@CLIENTS)"

// Names.
#define CTFF_RULE_PYTHON_NAME                                                                 \
  "the name must be a Python identifier and not a keyword (Python names a computation after " \
  "its function)"

// Operators defined once for several names. Operators whose rules differ only by the operator's
// name (federated_min / federated_max, ...) are written once, in a `.def` file next to the header
// that includes it once per name, after `#define CTFF_OP <name>` (and any other CTFF_OP_<X> the
// file names); the file undefines them at its end. The messages stay one literal each, as above:
//
//   "ctff: " CTFF_OP_NAME ": " CTFF_RULE_PLACED_AT("the value", "CLIENTS")
//
// (A macro defining the operator would put every diagnostic inside a macro expansion, which g++
// reports with a note per message.)
#define CTFF_OP_NAME CTFF_OP_STRING_(CTFF_OP)
#define CTFF_OP_STRING_(name) CTFF_OP_STRING2_(name)
#define CTFF_OP_STRING2_(name) #name
