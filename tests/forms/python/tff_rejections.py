#!/usr/bin/env python3
"""TFF's DistributeAggregateForm constructor on the altered forms of forms_deploy_test.cpp
(forms_validate) that are swaps of parts or of the round's type: TFF rejects each, as ctff's
validator does (the rule ctff names is the label). Prints one line per case (tff_rejections.txt
holds the output).

  PYTHONPATH=/work/pyref-tff:/work/pyref/site PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 \\
      tests/forms/python/tff_rejections.py tests/forms/goldens
"""
import sys
import tff_reference
from tff_reference import forms
from federated_language.proto import computation_pb2
from federated_language.computation import computation_impl
from federated_language.context_stack import context_stack_impl
d = sys.argv[1]
P = ['server_prepare','server_to_client_broadcast','client_work','client_to_server_aggregation','server_result']
def load(p):
    c = computation_pb2.Computation(); c.ParseFromString(open(p, 'rb').read())
    return computation_impl.ConcreteComputation(computation_proto=c, context_stack=context_stack_impl.context_stack)
def form(name): return {p: load(f'{d}/{name}.{p}.binpb') for p in P}
def rnd(name): return load(f'{d}/{name}.binpb').type_signature
good, other = form('fedavg'), form('secure_sum_bitwidth_literal')
def attempt(label, parts, t=rnd('fedavg')):
    try:
        forms.DistributeAggregateForm(t, *[parts[p] for p in P]); print(label, 'ACCEPTED')
    except Exception as e:
        print(label, 'rejected:', type(e).__name__, str(e).splitlines()[0][:150])
def swap(base, **kw): x = dict(base); x.update(kw); return x
attempt('golden', good)
attempt('parameter_pair', swap(good, client_work=good['server_prepare']))
attempt('result_pair', swap(good, server_prepare=good['server_to_client_broadcast']))
attempt('intrinsic_block', swap(good, server_to_client_broadcast=good['client_work']))
attempt('broadcast_only', swap(good, server_to_client_broadcast=good['client_to_server_aggregation']))
attempt('aggregation_only', swap(good, client_to_server_aggregation=good['server_result']))
attempt('broadcast_input', swap(good, server_to_client_broadcast=other['server_to_client_broadcast']))
attempt('broadcast_output', swap(good, client_work=other['client_work']))
attempt('aggregation_input', swap(good, client_to_server_aggregation=other['client_to_server_aggregation']))
attempt('aggregation_output', swap(good, server_result=other['server_result']))
attempt('server_state (round)', good, rnd('analytics'))
attempt('client_data (round)', good, rnd('broadcast_unused'))
attempt('server_output (round)', good, rnd('fedeval'))
attempt('round_type', good, rnd('one_parameter'))
x = dict(good); x['server_prepare'], x['server_result'] = good['server_result'], good['server_prepare']
attempt('swap prepare/result', x)
