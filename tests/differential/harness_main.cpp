// Runs the registered programs (all, or the seeds given as arguments) and prints, per program,
// its outputs as hex, compile time (ct) and run time (rt), whether protobuf parses the bytes, and
// whether the parsed computation is well formed (names bound before use, types consistent).
// A run-time trace that throws prints `rt.error`. The driver (run.py) compares everything.
#include <federated_language/proto/computation.pb.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include <ctff/read.hpp>

#include "harness.hpp"

namespace ctff_diff {

std::vector<program>& registry() {
  static std::vector<program> r;
  return r;
}

int runtime_int() {
  static volatile int one = 1;
  return one;
}

}  // namespace ctff_diff

namespace {

void hex(const char* label, const std::string& s) {
  static const char digits[] = "0123456789abcdef";
  std::string h;
  h.reserve(s.size() * 2);
  for (unsigned char c : s) {
    h.push_back(digits[c >> 4]);
    h.push_back(digits[c & 15]);
  }
  std::printf("%s %s\n", label, h.c_str());
}

using federated_language::Computation;
using federated_language::Type;

bool same(const Type& a, const Type& b) { return a.SerializeAsString() == b.SerializeAsString(); }

// Checks what protobuf cannot: every Reference names an enclosing Lambda parameter or an earlier
// Block local and has its type, and every node's type follows from its children's as Python builds
// it (Call: the function's result; Selection: the source's element; Struct: its elements' types and
// names; Block: its result's; Lambda: (parameter -> result)). Returns "" or the first problem.
class checker {
 public:
  std::string run(const Computation& c) {
    check(c, "root");
    return problem_;
  }

 private:
  struct binding {
    std::string name;
    const Type* type;
  };
  std::vector<binding> scope_;
  std::string problem_;

  void fail(const std::string& path, const std::string& what) {
    if (problem_.empty()) problem_ = path + ": " + what;
  }
  void check(const Computation& c, const std::string& path) {
    if (!problem_.empty()) return;
    switch (c.computation_case()) {
      case Computation::kReference: {
        for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
          if (it->name == c.reference().name()) {
            if (!same(*it->type, c.type())) fail(path, "reference " + it->name + " has another type");
            return;
          }
        }
        fail(path, "reference " + c.reference().name() + " is not bound here");
        return;
      }
      case Computation::kLambda: {
        const auto& l = c.lambda();
        if (!c.type().has_function()) return fail(path, "lambda without a function type");
        if (!same(c.type().function().result(), l.result().type()))
          fail(path, "lambda result type differs from its function type's");
        const bool param = !l.parameter_name().empty();
        if (param != c.type().function().has_parameter())
          fail(path, "lambda parameter name and function type disagree");
        if (param) scope_.push_back({l.parameter_name(), &c.type().function().parameter()});
        check(l.result(), path + "/lambda");
        if (param) scope_.pop_back();
        return;
      }
      case Computation::kBlock: {
        const auto& b = c.block();
        const std::size_t mark = scope_.size();
        for (int i = 0; i < b.local_size(); ++i) {
          check(b.local(i).value(), path + "/local " + b.local(i).name());
          scope_.push_back({b.local(i).name(), &b.local(i).value().type()});
        }
        check(b.result(), path + "/result");
        if (!same(c.type(), b.result().type())) fail(path, "block type differs from its result's");
        scope_.resize(mark);
        return;
      }
      case Computation::kCall: {
        const auto& k = c.call();
        check(k.function(), path + "/fn");
        if (k.has_argument()) check(k.argument(), path + "/arg");
        if (!k.function().type().has_function()) return fail(path, "call of a non-function");
        if (!same(c.type(), k.function().type().function().result()))
          fail(path, "call type differs from the function's result type");
        if (k.has_argument() != k.function().type().function().has_parameter())
          fail(path, "call argument present/absent against the function type");
        return;
      }
      case Computation::kStruct: {
        const auto& s = c.struct_();
        if (!c.type().has_struct_() || c.type().struct_().element_size() != s.element_size())
          return fail(path, "struct type does not match its elements");
        for (int i = 0; i < s.element_size(); ++i) {
          check(s.element(i).value(), path + "/" + std::to_string(i));
          const auto& te = c.type().struct_().element(i);
          if (te.name() != s.element(i).name() || !same(te.value(), s.element(i).value().type()))
            fail(path, "struct element " + std::to_string(i) + " type or name differs");
        }
        return;
      }
      case Computation::kSelection: {
        const auto& s = c.selection();
        check(s.source(), path + "/src");
        const auto& st = s.source().type();
        if (!st.has_struct_() || s.index() < 0 || s.index() >= st.struct_().element_size())
          return fail(path, "selection index outside the source struct");
        if (!same(c.type(), st.struct_().element(s.index()).value()))
          fail(path, "selection type differs from the element's");
        return;
      }
      default:
        return;  // leaves: intrinsic, literal, data, placement, tensorflow, xla
    }
  }
};

void print(const char* which, const ctff_diff::outputs& o) {
  std::string l(which);
  hex((l + ".bytes").c_str(), o.bytes);
  hex((l + ".compact").c_str(), o.compact);
  hex((l + ".formatted").c_str(), o.formatted);
  if (o.has_structural) hex((l + ".structural").c_str(), o.structural);
  hex((l + ".type").c_str(), o.type);
  federated_language::Computation c;
  const bool parsed = c.ParseFromString(o.bytes);
  // A parse that succeeds must also give the same bytes back (no unknown or misplaced fields).
  const bool round_trip = parsed && c.SerializeAsString() == o.bytes;
  std::printf("%s.parse %s\n", which, !parsed ? "fail" : round_trip ? "ok" : "reserialized-differs");
  if (parsed) {
    std::string problem = checker().run(c);
    if (problem.empty()) {  // and ctff's own reader and checker (ctff/read.hpp)
      try {
        const ctff::computation_tree t = ctff::read_computation(o.bytes);
        if (ctff::serialize(t) != o.bytes) problem = "ctff's reader does not write the bytes back";
        ctff::check_or_throw(t);
      } catch (const std::exception& e) {
        problem = std::string("ctff: ") + e.what();
        std::replace(problem.begin(), problem.end(), '\n', ' ');
      }
    }
    std::printf("%s.check %s\n", which, problem.empty() ? "ok" : problem.c_str());
  }
}

// Runs a variant that may throw (a run-time trace) and prints its outputs or `<which>.error`.
void run_and_print(const char* which, void (*variant)(ctff_diff::outputs&)) {
  ctff_diff::outputs o;
  try {
    variant(o);
    print(which, o);
  } catch (const std::exception& e) {
    std::printf("%s.error %s\n", which, e.what());
  } catch (...) {
    std::printf("%s.error (unknown exception)\n", which);
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto& progs = ctff_diff::registry();
  std::sort(progs.begin(), progs.end(),
            [](const auto& a, const auto& b) { return a.seed < b.seed; });
  std::vector<std::uint64_t> only;
  for (int i = 1; i < argc; ++i) only.push_back(std::strtoull(argv[i], nullptr, 10));
  for (const auto& p : progs) {
    if (!only.empty() && std::find(only.begin(), only.end(), p.seed) == only.end()) continue;
    std::printf("program %llu\n", static_cast<unsigned long long>(p.seed));
    std::fflush(stdout);
    ctff_diff::outputs ct;
    p.ct(ct);
    print("ct", ct);
    std::fflush(stdout);
    run_and_print("rt", p.rt);
    if (p.inner) run_and_print("inner", p.inner);
    if (p.rt_inner) run_and_print("rtinner", p.rt_inner);
    std::printf("end\n");
    std::fflush(stdout);
  }
  return 0;
}
