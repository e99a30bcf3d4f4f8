"""Writes tests/forms/goldens/: TFF's DistributeAggregateForm conversion of the rounds in rounds.py.

Run (after tests/forms/python/setup_reference.sh has built /work/pyref-tff):

  cd tests/forms/python
  PYTHONPATH=/work/pyref-tff:/work/pyref/site PYTHONDONTWRITEBYTECODE=1 \
      /usr/bin/python3 make_goldens.py [--out ../goldens] [--only NAME ...]

For each round NAME that TFF converts, it writes (see ../goldens/README.md):
  NAME.binpb, NAME.compact.txt, NAME.type.txt          the round as federated_language serializes it
  NAME.P.binpb, NAME.P.compact.txt, NAME.P.type.txt    each part P of the form, renamed in preorder
  NAME.summary.txt                                     the form's summary lines
  NAME.stage.NN-what.compact.txt                       the conversion's intermediate results
For each round TFF refuses: NAME.binpb, NAME.compact.txt, NAME.type.txt, NAME.rejected.txt (and
the stages reached). index.tsv lists the rounds: name, converted or `rejected: <exception>`, what.
differential.tsv: TFF's verdict on each Python-made program of tests/differential/python/.

protobuf's C++ runtime may log `Proto type 'tensorflow.GraphDef' not found` (INFO, on stderr) when
federated_language compares two equal opaque functions (their Any payload cannot be unpacked
here); it changes nothing.

A full run (no --only) also removes the files of rounds no longer listed (README.md is kept).

The intermediate results are captured by wrapping, at run time, the functions form_utils.py calls
(through proxies of the modules it refers to); TFF's files are not changed.
"""
import argparse
import os
import re
import sys
import traceback

import tff_reference  # pylint: disable=g-bad-import-order  (installs the stand-ins first)

import federated_language as fl
from federated_language.compiler import building_blocks
from federated_language.proto import computation_pb2 as pb

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import rounds  # pylint: disable=g-import-not-at-top

form_utils = tff_reference.form_utils

PARTS = ('server_prepare', 'server_to_client_broadcast', 'client_work',
         'client_to_server_aggregation', 'server_result')

# --------------------------------------------------------------------------------------------
# Preorder renaming (the rule is stated in ../goldens/README.md).


class UnboundReference(ValueError):
  pass


def rename_preorder(proto, free_ok=False):
  """A copy of the Computation proto with every bound variable renamed _v1, _v2, ... in preorder.

  A reference with no binder is an error, unless free_ok: then each free name becomes _u1, _u2,
  ... in the order the walk first meets it (only used for the stages of rejected rounds).
  """
  out = pb.Computation()
  out.CopyFrom(proto)
  counter = [0]
  free = {}

  def fresh():
    counter[0] += 1
    return f'_v{counter[0]}'

  def walk(comp, scope):
    kind = comp.WhichOneof('computation')
    if kind == 'reference':
      name = comp.reference.name
      if name in scope:
        comp.reference.name = scope[name]
      elif free_ok:
        comp.reference.name = free.setdefault(name, f'_u{len(free) + 1}')
      else:
        raise UnboundReference(name)
    elif kind == 'lambda':
      lam = getattr(comp, 'lambda')
      if lam.parameter_name:
        new = fresh()
        inner = dict(scope)
        inner[lam.parameter_name] = new
        lam.parameter_name = new
        walk(lam.result, inner)
      else:
        walk(lam.result, scope)
    elif kind == 'block':
      inner = dict(scope)
      for local in comp.block.local:
        new = fresh()
        walk(local.value, inner)
        inner = dict(inner)
        inner[local.name] = new
        local.name = new
      walk(comp.block.result, inner)
    elif kind == 'call':
      walk(comp.call.function, scope)
      if comp.call.HasField('argument'):
        walk(comp.call.argument, scope)
    elif kind == 'selection':
      walk(comp.selection.source, scope)
    elif kind == 'struct':
      for element in comp.struct.element:
        walk(element.value, scope)
    # data, intrinsic, placement, tensorflow, xla, literal: no variables.

  walk(out, {})
  return out


def bytes_of(proto):
  return proto.SerializeToString(deterministic=True)


def compact_of(proto):
  return building_blocks.ComputationBuildingBlock.from_proto(proto).compact_representation()


def type_of(proto):
  return str(building_blocks.ComputationBuildingBlock.from_proto(proto).type_signature)


# --------------------------------------------------------------------------------------------
# Instrumentation: proxies of the modules form_utils.py refers to.


class Recorder:
  """Collects stages and tracks which wrapped step is running."""

  def __init__(self):
    self.reset()

  def reset(self):
    self.stages = []          # (label, building block)
    self.active = []          # names of the wrapped steps entered and not yet left
    self.completed = []       # names of the wrapped steps that returned
    self.split_count = 0
    self.uniquified = None
    self.broadcast_split_input = None
    self.first_split_after = None

  def add(self, label, bb):
    self.stages.append((label, bb))


REC = Recorder()


def wrapped(step, fn, on_result=None, on_args=None):
  def call(*args, **kwargs):
    REC.active.append(step)
    if on_args is not None:
      on_args(*args, **kwargs)
    result = fn(*args, **kwargs)
    REC.active.pop()
    REC.completed.append(step)
    if on_result is not None:
      on_result(result, *args, **kwargs)
    return result
  return call


class Proxy:
  """A module stand-in for form_utils' globals: delegates, except the attributes given."""

  def __init__(self, target, **overrides):
    self._target = target
    self.__dict__.update(overrides)

  def __getattr__(self, name):
    return getattr(self._target, name)


def _on_call_dominant(result, comp):
  REC.add('01-call_dominant', result)


def _on_uniquify(result, comp, *args, **kwargs):
  REC.uniquified = result[0]
  REC.add('02-uniquified', result[0])


def _on_split_args(comp, *args, **kwargs):
  REC.split_count += 1
  if REC.split_count == 1:
    if comp is not REC.uniquified:
      REC.add('03-injected_broadcast', comp)
  elif REC.split_count == 2:
    if comp is not REC.first_split_after:
      REC.add('09-split2_input_without_injected_result', comp)


def _on_split(result, comp, *args, **kwargs):
  before, intrinsic, after = result
  if REC.split_count == 1:
    REC.first_split_after = after
    REC.add('04-split1_before', before)
    REC.add('05-split1_intrinsic', intrinsic)
    REC.add('06-split1_after', after)
  else:
    REC.add('10-split2_before', before)
    REC.add('11-split2_intrinsic', intrinsic)
    REC.add('12-split2_after', after)


def _on_no_unbound(result, comp, *args, **kwargs):
  # form_utils calls this only at the end of _unnest_lambda_parameter, on its result:
  # first for server_prepare, then for server_to_client_broadcast.
  label = ('07-unnested_server_prepare' if not any(
      l.startswith('07-') for l, _ in REC.stages) else '08-unnested_server_to_client_broadcast')
  REC.add(label, comp)


def _on_select_output(result, comp, *args, **kwargs):
  REC.add('13-client_work_selected_output', result)


def _on_subparameters(result, comp, *args, **kwargs):
  REC.add('14-server_result_of_some_subparameters', result)


def install_instrumentation():
  real_fw = fl.framework
  framework = Proxy(
      real_fw,
      check_broadcast_not_dependent_on_aggregate=wrapped(
          'check_broadcast_not_dependent_on_aggregate',
          real_fw.check_broadcast_not_dependent_on_aggregate),
      check_contains_no_unbound_references=wrapped(
          '_unnest_lambda_parameter (check_contains_no_unbound_references)',
          real_fw.check_contains_no_unbound_references, on_result=_on_no_unbound),
      select_output_from_lambda=wrapped(
          'select_output_from_lambda', real_fw.select_output_from_lambda,
          on_result=_on_select_output),
  )
  form_utils.federated_language = Proxy(fl, framework=framework)
  tt = tff_reference.tree_transformations
  form_utils.tree_transformations = Proxy(
      tt,
      uniquify_reference_names=wrapped('uniquify_reference_names', tt.uniquify_reference_names,
                                       on_result=_on_uniquify),
      as_function_of_some_subparameters=wrapped(
          'as_function_of_some_subparameters', tt.as_function_of_some_subparameters,
          on_result=_on_subparameters),
      replace_selections=wrapped('_unnest_lambda_parameter (replace_selections)',
                                 tt.replace_selections),
  )
  tr = tff_reference.transformations
  form_utils.transformations = Proxy(
      tr,
      divisive_force_align_and_split_by_intrinsics=wrapped(
          'divisive_force_align_and_split_by_intrinsics',
          tr.divisive_force_align_and_split_by_intrinsics,
          on_args=_on_split_args, on_result=_on_split),
  )
  form_utils._replace_lambda_body_with_call_dominant_form = wrapped(  # pylint: disable=protected-access
      '_replace_lambda_body_with_call_dominant_form',
      form_utils._replace_lambda_body_with_call_dominant_form,  # pylint: disable=protected-access
      on_result=_on_call_dominant)
  forms = tff_reference.forms
  form_utils.forms = Proxy(forms, DistributeAggregateForm=wrapped(
      'DistributeAggregateForm (the form\'s checks)', forms.DistributeAggregateForm))


# --------------------------------------------------------------------------------------------
# Output.


WRITTEN = set()


def write(path, data):
  WRITTEN.add(os.path.abspath(path))
  mode = 'wb' if isinstance(data, bytes) else 'w'
  with open(path, mode) as f:
    f.write(data if isinstance(data, bytes) or data.endswith('\n') else data + '\n')


def write_input(out, name, comp):
  proto = comp.to_proto()
  write(os.path.join(out, f'{name}.binpb'), bytes_of(proto))
  write(os.path.join(out, f'{name}.compact.txt'), compact_of(proto))
  write(os.path.join(out, f'{name}.type.txt'), type_of(proto))


def raise_chain(tb):
  """The frames of TFF's and federated_language's sources in the traceback, outermost first."""
  chain = []
  for frame in traceback.extract_tb(tb):
    path = frame.filename
    for root in ('/tensorflow_federated/', '/federated_language/'):
      if root in path:
        chain.append(f'{path[path.index(root) + 1:]}:{frame.lineno}: {frame.name}')
  return chain


# TFF's generated variable names: an underscore, three lowercase letters, a number (`_var1` from
# uniquify_reference_names, random prefixes such as `_pgl1` elsewhere).
GENERATED_NAME = re.compile(r'\b_[a-z]{3}[0-9]+\b')


def normalize_message(text):
  """Replaces TFF's generated names in an error message by <n1>, <n2>, ... in order of appearance."""
  names = {}

  def sub(match):
    return names.setdefault(match.group(0), f'<n{len(names) + 1}>')

  return GENERATED_NAME.sub(sub, text)


def convert(out, name, comp):
  REC.reset()
  write_input(out, name, comp)
  form = form_utils.get_distribute_aggregate_form_for_computation(comp)
  lines = []
  form.summary(print_fn=lines.append)
  write(os.path.join(out, f'{name}.summary.txt'), '\n'.join(lines))
  for part in PARTS:
    proto = rename_preorder(getattr(form, part).to_proto())
    write(os.path.join(out, f'{name}.{part}.binpb'), bytes_of(proto))
    write(os.path.join(out, f'{name}.{part}.compact.txt'), compact_of(proto))
    write(os.path.join(out, f'{name}.{part}.type.txt'), type_of(proto))
  write_stages(out, name)


def write_stages(out, name, free_ok=False):
  for label, bb in REC.stages:
    proto = rename_preorder(bb.to_proto(), free_ok)
    write(os.path.join(out, f'{name}.stage.{label}.compact.txt'), compact_of(proto))


def reject(out, name, comp):
  REC.reset()
  write_input(out, name, comp)
  try:
    form_utils.get_distribute_aggregate_form_for_computation(comp)
  except Exception as e:  # pylint: disable=broad-except
    if isinstance(e, tff_reference.StandInReached):
      raise
    if REC.active:
      step = REC.active[-1]
    elif REC.completed:
      step = f'get_distribute_aggregate_form_for_computation, after {REC.completed[-1]}'
    else:
      step = 'get_distribute_aggregate_form_for_computation, its checks before any transformation'
    write_stages(out, name, free_ok=True)
    cls = type(e)
    text = (f'{cls.__module__}.{cls.__qualname__}\n'
            f'message: {normalize_message(str(e))}\n'
            f'step: {step}\n'
            'raised through:\n' + ''.join(f'  {line}\n' for line in raise_chain(e.__traceback__)))
    write(os.path.join(out, f'{name}.rejected.txt'), text)
    return cls.__name__
  raise AssertionError(f'{name}: TFF converted a round listed as rejected')


DIFFERENTIAL = os.path.join(HERE, '..', '..', 'differential', 'python')
# The TFF commit of the reference (setup_reference.sh writes it), recorded with the generated rounds.
with open(os.path.join(os.path.dirname(os.path.abspath(tff_reference.__file__)), 'TFF_COMMIT')) as _f:
  TFF_COMMIT = _f.read().strip()[:8]



def tff_verdict(record):
  """TFF's conversion of a program of tests/differential/python/*.jsonl: (form or None, verdict:
  `converted` or the exception class, the step, the message's first line normalized)."""
  proto = pb.Computation.FromString(bytes.fromhex(record['hex']))
  comp = fl.framework.ConcreteComputation.from_proto(proto)
  REC.reset()
  try:
    return form_utils.get_distribute_aggregate_form_for_computation(comp), 'converted', '-', '-'
  except Exception as e:  # pylint: disable=broad-except
    if isinstance(e, tff_reference.StandInReached):
      raise
    step = REC.active[-1] if REC.active else (
        f'after {REC.completed[-1]}' if REC.completed else 'checks before any transformation')
    return None, type(e).__name__, step, normalize_message(str(e)).split('\n')[0]


def differential(out):
  """TFF's verdict on every Python-made program of the differential tests (tests/differential/
  python/*.jsonl): differential.tsv, one line per program (file, seed, converted or the exception
  class, the step, the first line of the message with generated names normalized). Returns
  rounds.jsonl's [(record, tff_verdict(record))], for generated()."""
  import json  # pylint: disable=g-import-not-at-top
  lines = ['file\tseed\tTFF\tstep\tmessage']
  rounds = []
  for filename in ('depth2.jsonl', 'depth3.jsonl', 'bucket.jsonl', 'rounds.jsonl'):
    with open(os.path.join(DIFFERENTIAL, filename)) as f:
      for line in f:
        record = json.loads(line)
        if 'hex' not in record:
          continue
        result = tff_verdict(record)
        if filename == 'rounds.jsonl':
          rounds.append((record, result))
        _, verdict, step, message = result
        lines.append(f'{filename}\t{record["seed"]}\t{verdict}\t{step}\t{message}')
  write(os.path.join(out, 'differential.tsv'), '\n'.join(lines))
  return rounds


def generated(out, rounds):
  """TFF's conversion of the differential generator's rounds (tests/differential/python/
  rounds.jsonl, gen.py --round; `rounds` as differential() returns them): generated_rounds.jsonl,
  a header line, then per program its seed, TFF's verdict (`converted` or the exception class), the
  step and the message's first line (as in differential.tsv), and for a converted round its
  summary lines and the five parts renamed in preorder, as hex."""
  import json  # pylint: disable=g-import-not-at-top
  with open(os.path.join(DIFFERENTIAL, 'rounds.jsonl')) as f:
    head = json.loads(f.readline())
  out_lines = [json.dumps({'from': 'rounds.jsonl', 'seed': head['seed'], 'count': head['count'],
                           'tff_commit': TFF_COMMIT}, sort_keys=True)]
  for record, (form, verdict, step, message) in rounds:
    result = {'seed': record['seed'], 'tff': verdict}
    if form is None:
      result.update(step=step, message=message)
    else:
      summary = []
      form.summary(print_fn=summary.append)
      result['summary'] = '\n'.join(summary)
      result['parts'] = {part: bytes_of(rename_preorder(getattr(form, part).to_proto())).hex()
                         for part in PARTS}
    out_lines.append(json.dumps(result, sort_keys=True))
  write(os.path.join(out, 'generated_rounds.jsonl'), '\n'.join(out_lines) + '\n')


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument('--out', default=os.path.join(HERE, '..', 'goldens'))
  parser.add_argument('--only', nargs='*')
  args = parser.parse_args()
  os.makedirs(args.out, exist_ok=True)
  install_instrumentation()
  index = ['name\tTFF\twhat']
  for name, what, comp in rounds.ROUNDS:
    if not args.only or name in args.only:
      convert(args.out, name, comp)
      print('converted', name)
      index.append(f'{name}\tconverted\t{what}')
  for name, what, comp in rounds.REJECTIONS:
    if not args.only or name in args.only:
      error = reject(args.out, name, comp)
      print('rejected ', name)
      index.append(f'{name}\trejected: {error}\t{what}')
  if not args.only:
    write(os.path.join(args.out, 'index.tsv'), '\n'.join(index))
    generated(args.out, differential(args.out))
    for entry in sorted(os.listdir(args.out)):  # files of rounds no longer listed
      path = os.path.abspath(os.path.join(args.out, entry))
      if entry != 'README.md' and os.path.isfile(path) and path not in WRITTEN:
        os.remove(path)
        print('removed', entry)
  if tff_reference.STAND_IN_READS:
    print('stand-ins reached:', tff_reference.STAND_IN_READS)
    sys.exit(1)


if __name__ == '__main__':
  main()
