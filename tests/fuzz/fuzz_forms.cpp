// libFuzzer target over ctff/forms: five Computations (and optionally a round) from arbitrary
// bytes, validated and composed. Input: five parts, each a varint length and that many bytes (a
// length past the end takes what is left), in the order server_prepare,
// server_to_client_broadcast, client_work, client_to_server_aggregation, server_result; the rest,
// if any, is the round whose type the form must fit. Seeds: forms_seeds.py (corpus/forms).
// Invariants checked besides "no crash, no leak, no undefined behaviour, no unbounded memory":
//   * the only exceptions are ctff::read_error (reading) and ctff::form_error (validating,
//     composing);
//   * validate throws exactly when form_errors finds an error, and that error first;
//   * a form that validates composes, and its composition reads back and passes the checker
//     (but for federated_secure_modular_sum, which the checker does not know).
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
  for (const ctff::check_error& e : ctff::check(c))
    if (e.problem != "unknown intrinsic `federated_secure_modular_sum`") std::abort();
  if (ctff::serialize(ctff::read_computation(ctff::serialize(c), {.max_depth = 100000})) != ctff::serialize(c))
    std::abort();
}

// validate(f[, round]) against form_errors(f[, round]); composes a form that validates.
void validate_and_compose(const ctff::distribute_aggregate_form& f, const ctff::type_desc* round) {
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
  if (thrown) return;
  check_composition(round ? ctff::from_distribute_aggregate_form(f, *round) : ctff::from_distribute_aggregate_form(f));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::uint8_t* p = data;
  const std::uint8_t* const end = data + size;
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
    // The splitter (issue 46, ctff::to_distribute_aggregate_form) joins here after its merge:
    // split `round`, expect a form_error or a form that validates against round_type, and
    // compose it.
  }
  return 0;
}
