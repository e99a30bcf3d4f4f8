"""ctff_remote: federated_language computations run on ctff workers, from Python without
TensorFlow.

    import federated_language, numpy as np, ctff_remote

    ctx = ctff_remote.execution_context(["127.0.0.1:8000"])   # or several: a local controller
    federated_language.framework.set_default_context(ctx)

    @federated_language.federated_computation(
        federated_language.FederatedType(np.int32, federated_language.CLIENTS))
    def total(x):
      return federated_language.federated_sum(x)

    total([1, 2, 3])  # np.int32(6), computed by the worker (N = 3 clients, from the list)

Needs grpcio, protobuf and numpy, and the messages ctff's build generates (target
ctff_remote_python): see ctff_remote._protos for where they are looked for (proto_path=, the
environment variable CTFF_REMOTE_PROTO_PATH, an installed location). federated_language itself
is optional: without it, `ExecutionContext.invoke(computation, arg)` runs Computation messages
(or their serialized bytes). docs/distributed.md, "Python", has the whole story.
"""

from ctff_remote._protos import ENV as PROTO_PATH_ENV
from ctff_remote._protos import ProtoNotFoundError
from ctff_remote._protos import load as load_protos
from ctff_remote._protos import set_proto_path
from ctff_remote.context import ExecutionContext
from ctff_remote.context import RemoteError
from ctff_remote.context import TapEvent
from ctff_remote.context import execution_context
from ctff_remote.context import start_controller
from ctff_remote.context import start_worker
from ctff_remote.values import ConversionError
from ctff_remote.values import Data
from ctff_remote.values import from_value
from ctff_remote.values import infer_clients
from ctff_remote.values import to_value

__all__ = [
    "ConversionError", "Data", "ExecutionContext", "PROTO_PATH_ENV", "ProtoNotFoundError", "RemoteError",
    "execution_context", "from_value", "infer_clients", "load_protos", "set_proto_path",
    "start_controller", "start_worker", "TapEvent", "to_value",
]
