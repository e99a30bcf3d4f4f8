// libFuzzer target over ctff/forms, the one forms fuzzer: the splitter, the validator and the
// composition. An input is either
//   * a round: a zero byte, then a Computation (a form never starts so: its first part would be
//     empty). It is split (ctff::to_distribute_aggregate_form); a form the splitter makes is
//     validated against the round's type and composed, and each part is checked as below; or
//   * five parts and an optional round: each part a varint length and that many bytes (a length
//     past the end takes what is left), in the order server_prepare, server_to_client_broadcast,
//     client_work, client_to_server_aggregation, server_result; the rest, if any, is the round
//     whose type the form must fit. The form is validated (with and without the round's type)
//     and, when it validates, composed; the round, if it reads, is split as above too.
// Seeds: forms_seeds.py (corpus/forms: TFF's forms with and without their rounds, and every
// golden round behind a zero byte).
// Invariants checked besides "no crash, no leak, no undefined behaviour, no unbounded memory":
//   * the only exceptions are ctff::read_error (reading) and ctff::form_error with a rule name
//     (splitting, validating, composing);
//   * validate throws exactly when form_errors finds an error, and that error first;
//   * a form that validates composes, and its composition reads back and passes the checker;
//   * every part of a split is a Lambda that the checker accepts, renaming
//     it in preorder twice changes nothing, and the split form passes the validator with the
//     round's type (the splitter and the validator agree, federated_aggregate's functions
//     included).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <ctff/forms.hpp>
#include <ctff/read.hpp>

namespace {

// The next varint at p (at most 10 bytes); 0 past the end.
std::size_t varint(const std::uint8_t*& p, const std::uint8_t* end) {
  std::uint64_t v = 0;
  for (int shift = 0; p != end && shift < 64; shift += 7) {
    const std::uint8_t b = *p++;
    v |= std::uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) break;
  }
  return static_cast<std::size_t>(v);
}

void check_composition(const ctff::computation_tree& c) {
  if (!ctff::check(c, 1).empty()) std::abort();
  if (ctff::serialize(ctff::read_computation(ctff::serialize(c), {.max_depth = 100000})) != ctff::serialize(c))
    std::abort();
}

// validate(f[, round]) against form_errors(f[, round]); composes a form that validates. True
// when it validates.
bool validate_and_compose(const ctff::distribute_aggregate_form& f, const ctff::type_desc* round) {
  const std::vector<ctff::form_error> errors = round ? ctff::form_errors(f, *round) : ctff::form_errors(f);
  if (errors.size() > 100) std::abort();
  std::optional<ctff::form_error> thrown;
  try {
    if (round)
      ctff::validate(f, *round);
    else
      ctff::validate(f);
  } catch (const ctff::form_error& e) {
    thrown = e;
  }
  if (thrown.has_value() != !errors.empty()) std::abort();
  if (thrown && std::string(thrown->what()) != errors.front().what()) std::abort();
  if (thrown) return false;
  check_composition(round ? ctff::from_distribute_aggregate_form(f, *round) : ctff::from_distribute_aggregate_form(f));
  return true;
}

// The round split; what it makes must be a form of it.
void split(const ctff::computation_tree& round) {
  ctff::distribute_aggregate_form f;
  try {
    f = ctff::to_distribute_aggregate_form(round);
  } catch (const ctff::form_error& e) {
    if (e.rule().empty()) std::abort();
    return;
  }
  for (const auto& part : f.parts()) {
    const ctff::computation_tree* p = part.tree;
    if (p->nodes[p->root].kind != ctff::block_kind::lambda) std::abort();
    if (!ctff::check(*p, 1).empty()) std::abort();
    const auto r = ctff::rename_variables_in_preorder(*p);
    if (ctff::serialize(ctff::rename_variables_in_preorder(r)) != ctff::serialize(r)) std::abort();
  }
  // (The splitter accepted the round, so it has a type.)
  const ctff::type_desc round_type = round.type_of(round.root);
  if (!validate_and_compose(f, &round_type)) std::abort();
  validate_and_compose(f, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* p = data;
  const std::uint8_t* const end = data + size;
  if (p != end && *p == 0) {
    ctff::computation_tree round;
    try {
      round = ctff::read_computation(ctff::byte_view(p + 1, size - 1));
    } catch (const ctff::read_error&) {
      return 0;
    }
    split(round);
    return 0;
  }
  ctff::read_limits limits;
  limits.max_depth = 300;
  ctff::computation_tree parts[5];
  try {
    for (ctff::computation_tree& part : parts) {
      std::size_t n = varint(p, end);
      if (n > static_cast<std::size_t>(end - p)) n = static_cast<std::size_t>(end - p);
      part = ctff::read_computation(ctff::byte_view(p, n), limits);
      p += n;
    }
  } catch (const ctff::read_error&) {
    return 0;
  }
  ctff::distribute_aggregate_form f{std::move(parts[0]), std::move(parts[1]), std::move(parts[2]),
                                    std::move(parts[3]), std::move(parts[4])};
  validate_and_compose(f, nullptr);

  if (p != end) {
    ctff::computation_tree round;
    try {
      round = ctff::read_computation(ctff::byte_view(p, static_cast<std::size_t>(end - p)), limits);
    } catch (const ctff::read_error&) {
      return 0;
    }
    if (round.has_type(round.root)) {
      const ctff::type_desc round_type = round.type_of(round.root);
      validate_and_compose(f, &round_type);
    }
    split(round);
  }
  return 0;
}
