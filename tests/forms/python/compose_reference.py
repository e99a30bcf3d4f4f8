#!/usr/bin/env python3
"""TFF's composition of each form in tests/forms/goldens, for ctff's from_distribute_aggregate_form.

For every round NAME that has its five parts (NAME.server_prepare.binpb, ...), builds TFF's
DistributeAggregateForm from the parts and the round's type, composes it with TFF's
form_utils.get_computation_for_distribute_aggregate_form, and writes the result's proto
(SerializeToString(deterministic=True)) to OUT/NAME.binpb. tests/unit/forms_deploy_test.cpp
(forms_validate) compares ctff's composition with these bytes.

  sh tests/forms/python/setup_reference.sh   # /work/pyref-tff, as for the goldens
  PYTHONPATH=/work/pyref-tff:/work/pyref/site PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 \\
      tests/forms/python/compose_reference.py tests/forms/goldens tests/forms/composed
"""
import pathlib
import sys

import tff_reference  # pylint: disable=g-bad-import-order  (installs the stand-ins first)
from tff_reference import form_utils
from tff_reference import forms
from federated_language.computation import computation_impl
from federated_language.context_stack import context_stack_impl
from federated_language.proto import computation_pb2

PARTS = ['server_prepare', 'server_to_client_broadcast', 'client_work',
         'client_to_server_aggregation', 'server_result']


def load(path):
  proto = computation_pb2.Computation()
  proto.ParseFromString(path.read_bytes())
  return computation_impl.ConcreteComputation(
      computation_proto=proto, context_stack=context_stack_impl.context_stack)


def main(argv):
  goldens, out = pathlib.Path(argv[1]), pathlib.Path(argv[2])
  out.mkdir(parents=True, exist_ok=True)
  for first in sorted(goldens.glob('*.server_prepare.binpb')):
    name = first.name[:-len('.server_prepare.binpb')]
    parts = [load(goldens / f'{name}.{p}.binpb') for p in PARTS]
    round_type = load(goldens / f'{name}.binpb').type_signature
    daf = forms.DistributeAggregateForm(round_type, *parts)
    composed = form_utils.get_computation_for_distribute_aggregate_form(daf)
    (out / f'{name}.binpb').write_bytes(composed.to_proto().SerializeToString(deterministic=True))
    print(name)
  return 0


if __name__ == '__main__':
  sys.exit(main(sys.argv))
