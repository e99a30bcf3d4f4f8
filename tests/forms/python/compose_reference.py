import sys
import tff_reference
from tff_reference import forms, form_utils
import federated_language
from federated_language.proto import computation_pb2
from federated_language.computation import computation_impl
from federated_language.context_stack import context_stack_impl
from federated_language.compiler import building_blocks
d = sys.argv[1]; out = sys.argv[2]
def load(p):
    c = computation_pb2.Computation(); c.ParseFromString(open(p, 'rb').read())
    return computation_impl.ConcreteComputation(computation_proto=c, context_stack=context_stack_impl.context_stack)
for name in sys.argv[3:]:
    parts = [load(f'{d}/{name}.{p}.binpb') for p in ['server_prepare','server_to_client_broadcast','client_work','client_to_server_aggregation','server_result']]
    rnd = load(f'{d}/{name}.binpb')
    daf = forms.DistributeAggregateForm(rnd.type_signature, *parts)
    comp = form_utils.get_computation_for_distribute_aggregate_form(daf)
    open(f'{out}/{name}.composed.binpb','wb').write(comp.to_proto().SerializeToString(deterministic=True))
    print(name, 'ok')
