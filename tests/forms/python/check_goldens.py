"""Checks tests/forms/goldens/: every .binpb parses, and reads back as its compact and type texts.

  PYTHONPATH=/work/pyref/site /usr/bin/python3 check_goldens.py [--goldens DIR] [--inspect CTFF_INSPECT]

For each NAME.binpb (the inputs and the parts): it parses as a federated_language.Computation
(computation_pb2), serializes back to the same bytes, and federated_language prints it as
NAME.compact.txt and NAME.type.txt; parts (and stage texts) contain no name outside _v1, _v2, ...
With --inspect, ctff-inspect must accept the file (--check prints `ok`) and print the same compact
and type texts. Prints one line per problem; exit 1 if any.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

from federated_language.compiler import building_blocks
from federated_language.proto import computation_pb2 as pb

HERE = os.path.dirname(os.path.abspath(__file__))


def read(path):
  with open(path) as f:
    return f.read().rstrip('\n')


def variable_names(comp):
  """Names of the Lambda parameters, Block locals and References in a Computation proto."""
  names = []
  kind = comp.WhichOneof('computation')
  if kind == 'reference':
    names.append(comp.reference.name)
  elif kind == 'lambda':
    lam = getattr(comp, 'lambda')
    if lam.parameter_name:
      names.append(lam.parameter_name)
    names += variable_names(lam.result)
  elif kind == 'block':
    for local in comp.block.local:
      names.append(local.name)
      names += variable_names(local.value)
    names += variable_names(comp.block.result)
  elif kind == 'call':
    names += variable_names(comp.call.function)
    if comp.call.HasField('argument'):
      names += variable_names(comp.call.argument)
  elif kind == 'selection':
    names += variable_names(comp.selection.source)
  elif kind == 'struct':
    for element in comp.struct.element:
      names += variable_names(element.value)
  return names


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument('--goldens', default=os.path.join(HERE, '..', 'goldens'))
  parser.add_argument('--inspect')
  args = parser.parse_args()
  problems = []
  files = sorted(glob.glob(os.path.join(args.goldens, '*.binpb')))
  for path in files:
    base = path[:-len('.binpb')]
    name = os.path.basename(base)
    with open(path, 'rb') as f:
      data = f.read()
    proto = pb.Computation()
    proto.ParseFromString(data)
    if proto.SerializeToString(deterministic=True) != data:
      problems.append(f'{name}: bytes do not re-serialize identically')
    bb = building_blocks.ComputationBuildingBlock.from_proto(proto)
    if bb.compact_representation() != read(base + '.compact.txt'):
      problems.append(f'{name}: compact text differs')
    if str(bb.type_signature) != read(base + '.type.txt'):
      problems.append(f'{name}: type text differs')
    if '.' in name:  # a part: every variable renamed
      bad = sorted(n for n in variable_names(proto) if not re.fullmatch(r'_v[1-9][0-9]*', n))
      if bad:
        problems.append(f'{name}: variables not renamed: {bad}')
    if args.inspect:
      run = lambda *flags: subprocess.run([args.inspect, *flags, path], capture_output=True,
                                          text=True)
      check = run('--check')
      if check.returncode != 0 or check.stdout.strip() != 'ok':
        problems.append(f'{name}: ctff-inspect --check: {check.stdout.strip()} '
                        f'{check.stderr.strip()}')
      compact = run('--compact')
      if compact.stdout.rstrip('\n') != read(base + '.compact.txt'):
        problems.append(f'{name}: ctff-inspect --compact differs')
      typ = run('--type')
      if typ.stdout.rstrip('\n') != read(base + '.type.txt'):
        problems.append(f'{name}: ctff-inspect --type differs')
  for problem in problems:
    print(problem)
  print(f'{len(files)} files checked, {len(problems)} problems')
  sys.exit(1 if problems else 0)


if __name__ == '__main__':
  main()
