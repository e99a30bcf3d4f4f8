#!/usr/bin/env python3
"""The expected result of the FedAvg round (tests/forms/goldens/fedavg.binpb) bound by
examples/plugin/fedavg_plugin.cpp, computed without ctff: Python's standard library only.

  python3 fedavg_expected.py fedavg_arg.json      prints the line ctff-run must print

Everything is float32, one operation at a time: each +, -, * and / is done in double and rounded
to float32 (f32), which gives the correctly rounded float32 result (a double holds more than twice
float32's 24 bits, so the double rounding cannot change it). The order of operations is the one
written in fedavg_plugin.cpp (C++ evaluates a + b + c as (a + b) + c, each step in float32) and,
for the round, the one TFF's definition gives:

  federated_weighted_mean(v, w) = (sum over clients, in order, of v_i * w_i) / (sum of w_i)

each product rounded, the sums accumulated from 0 in client order, one float32 division. The
output is ctff-run's JSON: each float32 widened to double and printed as repr() prints it
(Python's shortest round-trip form, which ctff-run's std::to_chars also gives for these values).
"""
import json
import struct
import sys

LEARNING_RATE = 0.1
EPOCHS = 2


def f32(x):
  return struct.unpack('<f', struct.pack('<f', x))[0]


def add(a, b):
  return f32(a + b)


def sub(a, b):
  return f32(a - b)


def mul(a, b):
  return f32(a * b)


def div(a, b):
  return f32(a / b)


def client_update(model, data):
  """SGD on half the squared error, one step per example, EPOCHS passes."""
  w0, w1, b = model
  lr = f32(LEARNING_RATE)
  loss = 0.0
  for _ in range(EPOCHS):
    for (x0, x1), y in data:
      err = sub(add(add(mul(w0, x0), mul(w1, x1)), b), y)
      loss = add(loss, mul(mul(0.5, err), err))
      step = mul(lr, err)
      w0 = sub(w0, mul(step, x0))
      w1 = sub(w1, mul(step, x1))
      b = sub(b, step)
  n = f32(len(data))
  mean_loss = div(loss, mul(f32(EPOCHS), n)) if data else 0.0
  return (sub(w0, model[0]), sub(w1, model[1]), sub(b, model[2])), n, mean_loss


def weighted_mean(values, weights):
  num = [0.0] * len(values[0])
  den = 0.0
  for v, w in zip(values, weights):
    num = [add(acc, mul(x, w)) for acc, x in zip(num, v)]
    den = add(den, w)
  return [div(x, den) for x in num]


def main():
  with open(sys.argv[1]) as f:
    arg = json.load(f)
  model = (f32(arg['model']['weights'][0]), f32(arg['model']['weights'][1]), f32(arg['model']['bias']))
  clients = [[((f32(e['x'][0]), f32(e['x'][1])), f32(e['y'])) for e in c] for c in arg['data']]
  updates = [client_update(model, data) for data in clients]
  weights = [u[1] for u in updates]
  delta = weighted_mean([u[0] for u in updates], weights)
  (loss,) = weighted_mean([(u[2],) for u in updates], weights)
  new = [add(m, d) for m, d in zip(model, delta)]
  print('[{"weights":[%r,%r],"bias":%r},%r]' % (new[0], new[1], new[2], loss))


if __name__ == '__main__':
  main()
