// ctff-split: split a federated round into TFF's DistributeAggregateForm and write its five parts,
// each a Computation of its own, into a directory (docs/forms_deploy.md); with --mergeable, into
// TFF's MergeableCompForm (up_to_merge, merge, after_merge: docs/distributed.md, "Subrounds").
//
//   ctff-split [--rename] [--mergeable] COMP OUTDIR
//
// COMP is a federated_language.Computation, binary or protobuf text format (`-`: standard input),
// of type (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,X@SERVER>). For each part P it writes P.binpb,
// P.type.txt, P.compact.txt and P.formatted.txt, then summary.txt (TFF's summary lines), and
// prints the summary. Nothing is written unless the whole split succeeds (the splitter's parts
// pass the form validator with the round's type, renamed or not).
// Exit status: 0 written; 1 the round cannot be split (the rule, where, and why); 2 bad input:
// unreadable COMP, bytes that are not a Computation, one ctff's checker refuses, an OUTDIR that
// cannot be made or written, or bad usage.
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

#include "../common/computation_file.hpp"

namespace {

constexpr const char* usage =
    "usage: ctff-split [--rename] [--mergeable] COMP OUTDIR\n"
    "  Splits the round COMP (a federated_language.Computation, binary or protobuf text format;\n"
    "  - reads standard input), of type (<S@SERVER,{D}@CLIENTS> -> <S@SERVER,X@SERVER>), into TFF's\n"
    "  DistributeAggregateForm and writes, into OUTDIR (made if missing), for each part P of\n"
    "  server_prepare, server_to_client_broadcast, client_work, client_to_server_aggregation and\n"
    "  server_result: P.binpb, P.type.txt, P.compact.txt, P.formatted.txt; then summary.txt\n"
    "  (`name: type`, TFF's summary), which it also prints.\n"
    "  --rename  variables renamed _v1, _v2, ... in preorder in every part (as the goldens of\n"
    "            tests/forms/goldens are, to compare with TFF's output)\n"
    "  --mergeable  split COMP, any computation with one logical aggregation, into TFF's\n"
    "            MergeableCompForm instead: up_to_merge, merge and after_merge, each written as\n"
    "            above, and summary.txt (the same layout)\n"
    "Exit status: 0 written, 1 the round cannot be split (the rule is printed), 2 bad input\n"
    "(unreadable or invalid COMP, OUTDIR not writable) or bad usage.\n";

using ctff_tools::binary_of;
using ctff_tools::input_error;
using ctff_tools::slurp;

// A round the splitter refuses: exit status 1.
struct cannot_split {
  std::string message;
};

void write_file(const std::filesystem::path& p, const std::string& content) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(content.data(), static_cast<std::streamsize>(content.size()));
  f.close();
  if (!f) throw input_error{"cannot write " + p.string()};
}

// What a refusal says: the rule, where, and why; a computation the checker refuses is bad input.
[[noreturn]] void refused(const std::string& file, const ctff::form_error& e) {
  if (e.rule() == "valid_computation")
    throw input_error{file + ": not a valid computation: " + (e.path().empty() ? "(top level)" : e.path()) + ": " +
                      e.problem()};
  throw cannot_split{e.rule() + (e.path().empty() ? "" : " at " + e.path()) + ": " + e.problem()};
}

// Each part P as P.binpb, P.type.txt, P.compact.txt, P.formatted.txt, then summary.txt, printed.
template <class Form>
void write_form(const Form& form, const std::filesystem::path& outdir) {
  std::error_code ec;
  std::filesystem::create_directories(outdir, ec);
  if (!std::filesystem::is_directory(outdir))
    throw input_error{"cannot make the directory " + outdir.string() + (ec ? ": " + ec.message() : "")};
  for (const auto& [name, tree] : form.parts()) {
    const std::string base(name);
    write_file(outdir / (base + ".binpb"), ctff::serialize(*tree));
    write_file(outdir / (base + ".type.txt"), ctff::type_string(*tree) + "\n");
    write_file(outdir / (base + ".compact.txt"), ctff::compact(*tree) + "\n");
    write_file(outdir / (base + ".formatted.txt"), ctff::formatted(*tree) + "\n");
  }
  const std::string summary = ctff::form_summary(form);
  write_file(outdir / "summary.txt", summary);
  std::cout << summary;
}

// The round split by `split` (a refusal thrown as refused() says), renamed if asked, written. The
// splitter checked the parts against the round; renamed, `errors` checks them again before
// anything is written (a failure would be a bug).
template <class Split, class Errors>
void split_and_write(const std::string& file, const std::filesystem::path& outdir, bool rename, Split split,
                     Errors errors) {
  decltype(split()) form;
  try {
    form = split();
  } catch (const ctff::form_error& e) {
    refused(file, e);
  }
  if (rename) {
    for (const auto& [name, tree] : form.parts()) *tree = ctff::rename_variables_in_preorder(std::move(*tree));
    if (const auto e = errors(form); !e.empty())
      throw cannot_split{"internal: the renamed parts fail the form's rules: " + std::string(e.front().what())};
  }
  write_form(form, outdir);
}

}  // namespace

int main(int argc, char** argv) {
  bool rename = false, mergeable = false;
  std::vector<std::string> positional;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      return 0;
    }
    if (a == "--rename") {
      rename = true;
    } else if (a == "--mergeable") {
      mergeable = true;
    } else if (a.size() > 1 && a[0] == '-') {
      std::cerr << "ctff-split: unknown option " << a << "\n" << usage;
      return 2;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() != 2) {
    std::cerr << "ctff-split: expected COMP and OUTDIR\n" << usage;
    return 2;
  }
  const std::string& file = positional[0];
  const std::filesystem::path outdir = positional[1];

  try {
    const ctff::computation_tree round = ctff::read_computation(binary_of(file, slurp(file)));
    if (mergeable)
      split_and_write(file, outdir, rename, [&] { return ctff::to_mergeable_comp_form(round); },
                      [&](const auto& f) { return ctff::mergeable_form_errors(f, round, 1); });
    else
      split_and_write(file, outdir, rename, [&] { return ctff::to_distribute_aggregate_form(round); },
                      [&](const auto& f) { return ctff::form_errors(f, round.type_of(round.root), 1); });
    return 0;
  } catch (const cannot_split& e) {
    std::cerr << "ctff-split: cannot split: " << e.message << "\n";
    return 1;
  } catch (const input_error& e) {
    std::cerr << "ctff-split: " << e.message << "\n";
  } catch (const std::bad_alloc&) {
    std::cerr << "ctff-split: " << file << ": out of memory\n";
  } catch (const std::exception& e) {
    std::cerr << "ctff-split: " << file << ": " << e.what() << "\n";
  }
  return 2;
}
