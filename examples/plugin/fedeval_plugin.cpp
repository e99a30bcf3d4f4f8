// A ctff-run plugin binding the TensorFlow block of a Python-made federated evaluation round
// (tests/goldens/python/benchmark_programs.py: fedeval_round, whose client evaluation is the
// opaque computation comp#48c066fe) to a C++ client evaluation, so that the round runs from the
// command line with no Python and no TensorFlow:
//
//   ctff-run tests/goldens/python/benchmark_programs/fedeval_round.binpb
//       --bind fedeval_plugin.so ARG.json
//
// The evaluation is a linear model's: logits = x * weights + bias for each example; the loss is
// the squared error of the logits against the one-hot label, the accuracy the share of examples
// whose largest logit (the first, on a tie) is the label's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <ctff/ctff.hpp>
#include <ctff/run/plugin.hpp>

namespace {

// The computation's types, declared as Python declared them: with the same graph and bindings,
// ctff makes the same Computation, hence the same key (comp#48c066fe): binding it by the object
// checks the C++ function against its type at compile time.
struct model_t {
  ctff::tensor<ctff::dtype::float32, 784, 10> weights;
  ctff::tensor<ctff::dtype::float32, 10> bias;
};
struct batch_t {
  ctff::tensor<ctff::dtype::float32, ctff::unknown_dim, 784> x;
  ctff::tensor<ctff::dtype::int32, ctff::unknown_dim> y;
};
struct eval_metrics {
  float loss;
  float accuracy;
  std::int32_t num_examples;
};
struct client_eval_output {
  eval_metrics metrics;
  float weight;
};

inline constexpr char client_eval_graph[] = "\x0a\x0c\x0a\x04" "eval\x12\x04NoOp";

constexpr auto client_eval = ctff::tensorflow_computation<ctff::function<
    ctff::struct_<ctff::field<"model", model_t>, ctff::field<"dataset", ctff::sequence<batch_t>>>,
    client_eval_output>>(
    client_eval_graph,
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("weights:0"), ctff::tf_tensor("bias:0")),
                    ctff::tf_sequence("dataset:0")),
    ctff::tf_struct(ctff::tf_struct(ctff::tf_tensor("loss:0"), ctff::tf_tensor("accuracy:0"),
                                    ctff::tf_tensor("num_examples:0")),
                    ctff::tf_tensor("weight:0")));

// The C++ values the binding takes (ctff/run/convert.hpp: a tensor as nested std::arrays, a `?`
// dimension and a sequence as std::vector). A batch and the input are tuples, positional: an
// aggregate's member names are read through its own TFF type, which a std::vector member lacks.
struct model_values {
  std::array<std::array<float, 10>, 784> weights;
  std::array<float, 10> bias;
};
using batch_values = std::tuple<std::vector<std::array<float, 784>>, std::vector<std::int32_t>>;  // x, y
using eval_input = std::tuple<model_values, std::vector<batch_values>>;                          // model, dataset

// Called once per client, on ctff-run's worker threads: no shared state.
client_eval_output evaluate(const eval_input& in) {
  float loss = 0;
  std::int32_t correct = 0, n = 0;
  const auto& [model, dataset] = in;
  for (const auto& [x, y] : dataset) {
    if (x.size() != y.size())
      throw std::invalid_argument("a batch of " + std::to_string(x.size()) + " examples and " +
                                  std::to_string(y.size()) + " labels");
    for (std::size_t e = 0; e != x.size(); ++e) {
      const std::int32_t label = y[e];
      if (label < 0 || label >= 10) throw std::out_of_range("label " + std::to_string(label) + " is not a class 0-9");
      std::array<float, 10> logits = model.bias;
      for (std::size_t i = 0; i != 784; ++i)
        if (const float xi = x[e][i]; xi != 0)
          for (std::size_t j = 0; j != 10; ++j) logits[j] += xi * model.weights[i][j];
      std::size_t best = 0;
      for (std::size_t j = 0; j != 10; ++j) {
        const float d = logits[j] - (static_cast<std::int32_t>(j) == label ? 1.0f : 0.0f);
        loss += d * d;
        if (logits[j] > logits[best]) best = j;
      }
      correct += static_cast<std::int32_t>(best) == label;
      ++n;
    }
  }
  const float count = static_cast<float>(n);
  return {{n ? loss / count : 0.0f, n ? static_cast<float>(correct) / count : 0.0f, n}, count};
}

}  // namespace

CTFF_PLUGIN(registry) { registry.bind(client_eval, evaluate); }
