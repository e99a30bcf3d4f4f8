// ctff-inspect: read a federated_language.Computation (binary or protobuf text format) and show
// it: its type, Python's compact / formatted / structural forms, protobuf text format, a Graphviz
// graph, or the checker's verdict.
//
//   ctff-inspect [--type|--compact|--formatted|--structural|--textproto|--dot|--paths|--check]... FILE
//
// FILE `-` is standard input. Without an option: the type, then the formatted form. Several
// options print their outputs in the order given. Exit status: 0 done (and valid, with --check);
// 1 --check found errors (printed one per line); 2 unreadable or malformed input, or bad usage.
#include <federated_language/proto/computation.pb.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <ctff/read.hpp>

#include "../common/computation_file.hpp"

namespace {

constexpr const char* usage =
    "usage: ctff-inspect [--type|--compact|--formatted|--structural|--textproto|--dot|--paths|--check]... FILE\n"
    "  FILE is a federated_language.Computation, binary (.binpb) or protobuf text format; - reads\n"
    "  standard input. Default: --type --formatted.\n"
    "  --type        the type, as federated_language prints it\n"
    "  --compact     compact_representation()\n"
    "  --formatted   formatted_representation()\n"
    "  --structural  structural_representation()\n"
    "  --textproto   the message in protobuf text format\n"
    "  --dot         a Graphviz graph of the tree (render: dot -Tsvg)\n"
    "  --paths       every building block but the root, one per line: its path, what it is, its type\n"
    "                (tab-separated; the paths ctff-run --tap and --taps take)\n"
    "  --check       `ok` (exit 0), or the checker's errors, one per line (exit 1)\n"
    "Exit status: 0 ok, 1 --check found errors, 2 unreadable input or bad usage.\n";

using ctff_tools::binary_of;
using ctff_tools::input_error;
using ctff_tools::slurp;


std::string dot_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\l";
      continue;
    }
    out += c;
  }
  return out;
}

// What building block i is, in a word: like the structural form (intrinsics by URI).
std::string label(const ctff::computation_tree& t, std::uint32_t i) {
  const ctff::block_node& n = t.node(i);
  switch (n.kind) {
    case ctff::block_kind::reference: return "Ref(" + std::string(t.text(i)) + ")";
    case ctff::block_kind::selection: return "Sel(" + std::to_string(n.index) + ")";
    case ctff::block_kind::struct_: return "Struct";
    case ctff::block_kind::call: return "Call";
    case ctff::block_kind::lambda: return "Lambda(" + (t.text(i).empty() ? std::string("None") : std::string(t.text(i))) + ")";
    case ctff::block_kind::block: return "Block";
    case ctff::block_kind::intrinsic: return std::string(t.text(i));
    case ctff::block_kind::placement: return "Placement(" + std::string(t.text(i)) + ")";
    default: return ctff::compact(t, i);
  }
}

// --paths: path, label and type of every building block under the root, in preorder.
std::string paths(const ctff::computation_tree& t) {
  const ctff::block_paths where(t);
  std::string out;
  for (std::uint32_t i : where.preorder(t.root)) {
    if (i == t.root) continue;
    const ctff::block_node& n = t.node(i);
    out += where.path(i) + "\t" + label(t, i) + "\t" + (n.type != ctff::no_index ? t.type_string(i) : "") + "\n";
  }
  return out;
}

// Graphviz: one node per building block, labelled like the structural form (intrinsics by URI)
// with its type; values placed at CLIENTS and SERVER filled in two colours; edges named by role.
std::string dot(const ctff::computation_tree& t) {
  std::string out = "digraph computation {\n  node [shape=box, fontname=\"monospace\", style=filled, fillcolor=white];\n";
  for (std::uint32_t i = 0; i != t.nodes.size(); ++i) {
    const ctff::block_node& n = t.node(i);
    const std::string label = ::label(t, i);
    std::string type;
    std::string fill = "white";
    if (n.type != ctff::no_index) {
      type = t.type_string(i);
      const ctff::type_node& tn = t.types.node(n.type);
      if (tn.kind == ctff::type_kind::federated)
        fill = tn.where == ctff::placement_kind::clients ? "lightblue" : "lightsalmon";
    }
    if (n.kind == ctff::block_kind::intrinsic) fill = "khaki";
    out += "  n" + std::to_string(i) + " [label=\"" + dot_escape(label) + "\\n" + dot_escape(type) + "\", fillcolor=" +
           fill + (n.kind == ctff::block_kind::intrinsic ? ", shape=ellipse" : "") + "];\n";
    auto edge = [&](std::uint32_t to, const std::string& role) {
      out += "  n" + std::to_string(i) + " -> n" + std::to_string(to) + " [label=\"" + dot_escape(role) + "\"];\n";
    };
    switch (n.kind) {
      case ctff::block_kind::selection: edge(n.a, "source"); break;
      case ctff::block_kind::call:
        edge(n.a, "function");
        if (n.b != ctff::no_index) edge(n.b, "argument");
        break;
      case ctff::block_kind::lambda: edge(n.a, "result"); break;
      case ctff::block_kind::block:
        for (std::uint32_t k = 0; k != n.count; ++k) edge(t.elem(i, k).value, std::string(t.name(t.elem(i, k))));
        edge(n.a, "result");
        break;
      case ctff::block_kind::struct_:
        for (std::uint32_t k = 0; k != n.count; ++k) {
          const auto name = t.name(t.elem(i, k));
          edge(t.elem(i, k).value, "[" + std::to_string(k) + "]" + (name.empty() ? "" : " " + std::string(name)));
        }
        break;
      default: break;
    }
  }
  out += "}\n";
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> what;
  std::string file;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    if (a == "--type" || a == "--compact" || a == "--formatted" || a == "--structural" || a == "--textproto" ||
        a == "--dot" || a == "--paths" || a == "--check") {
      what.push_back(a);
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      std::cerr << "ctff-inspect: unknown option " << a << "\n" << usage;
      return 2;
    } else if (!file.empty()) {
      std::cerr << "ctff-inspect: one FILE only\n" << usage;
      return 2;
    } else {
      file = a;
    }
  }
  if (file.empty()) {
    std::cerr << usage;
    return 2;
  }
  if (what.empty()) what = {"--type", "--formatted"};

  try {
    const std::string bytes = binary_of(file, slurp(file));
    const ctff::computation_tree t = ctff::read_computation(bytes);
    int status = 0;
    for (const std::string& w : what) {
      if (w == "--type") {
        std::cout << ctff::type_string(t) << "\n";
      } else if (w == "--compact") {
        std::cout << ctff::compact(t) << "\n";
      } else if (w == "--formatted") {
        std::cout << ctff::formatted(t) << "\n";
      } else if (w == "--structural") {
        std::cout << ctff::structural(t) << "\n";
      } else if (w == "--dot") {
        std::cout << dot(t);
      } else if (w == "--paths") {
        std::cout << paths(t);
      } else if (w == "--textproto") {
        federated_language::Computation m;
        if (!m.ParseFromString(bytes))
          throw input_error{file + ": protobuf cannot parse it (nesting deeper than protobuf's limit of 100?)"};
        std::string text;
        google::protobuf::TextFormat::PrintToString(m, &text);
        std::cout << text;
      } else if (w == "--check") {
        const auto errors = ctff::check(t);
        if (errors.empty()) {
          std::cout << "ok\n";
        } else {
          for (const auto& e : errors) std::cout << e.message() << "\n";
          status = 1;
        }
      }
    }
    return status;
  } catch (const input_error& e) {
    std::cerr << "ctff-inspect: " << e.message << "\n";
  } catch (const ctff::read_error& e) {
    std::cerr << "ctff-inspect: " << file << ": " << e.what() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "ctff-inspect: " << file << ": " << e.what() << "\n";
  }
  return 2;
}
