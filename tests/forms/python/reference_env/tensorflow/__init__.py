"""Stand-in for the `tensorflow` package: enough to import TFF's form_utils.py, nothing more.

Written for ctff; contains no TensorFlow code. When `form_utils.py` is imported it builds
`tf.compat.v1.ConfigProto()` and assigns `graph_options.rewrite_options.<field> = <AGGRESSIVE>`
(a Grappler configuration for the MapReduceForm and BroadcastForm paths; the
DistributeAggregateForm path never reads it), and it names `tf.compat.v1.ConfigProto` in
function signatures. Here `ConfigProto()` is an attribute bag: reading an unknown attribute gives
a new bag, assigning one stores it. Any other attribute of `tensorflow` raises StandInReached,
so a use on the conversion path would show up as an error, not as a silent wrong value.
"""
import types


class StandInReached(RuntimeError):
  """A part of TensorFlow the stand-in does not offer was used."""


class _Bag:

  def __init__(self, path):
    object.__setattr__(self, '_path', path)

  def __getattr__(self, name):
    if name.startswith('__'):
      raise AttributeError(name)
    bag = _Bag(f'{self._path}.{name}')
    object.__setattr__(self, name, bag)
    return bag

  def __repr__(self):
    return f'<tensorflow stand-in {self._path}>'


class ConfigProto(_Bag):

  def __init__(self):
    super().__init__('ConfigProto')


compat = types.SimpleNamespace(v1=types.SimpleNamespace(ConfigProto=ConfigProto))

# Every other attribute read from this module, in order (tff_reference reports them).
READS = []


def __getattr__(name):
  if name.startswith('__'):
    raise AttributeError(name)
  READS.append(f'tensorflow.{name}')
  raise StandInReached(f'tensorflow stand-in: tensorflow.{name} is not available')
