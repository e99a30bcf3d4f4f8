#!/usr/bin/env python3
"""Writes tests/remote/recorded/mergeable-context-worker-{1,2}.txt: the requests TFF's
MergeableCompExecutionContext (tensorflow_federated/python/core/impl/execution_contexts/
mergeable_comp_execution_context.py) sends to two workers, one async remote context each, when it
runs a ctff-made MergeableCompForm of tests/goldens/sum_clients.binpb (`ctff-split --mergeable`)
on [1, 2, 3, 4, 5] with num_subrounds=2.

federated_language and TFF do not install here (no pip, no Debian package), so this is not a
capture: it follows the context's source step by step, each invoke written as TFF's remote
context writes one (tests/remote/recorded/python-remote-executor.txt, recorded from TFF):
GetExecutor with the argument's cardinalities, CreateValue of the argument, CreateValue of the
computation, CreateCall, Compute.
  _split_value_into_subrounds: ceil(5/2) = 3 clients, then 2: [1, 2, 3] and [4, 5];
  _invoke_merge_in_async_pool: up_to_merge of [1, 2, 3] on worker 1, of [4, 5] on worker 2; the
    first to finish is kept, merge(<first, second>) runs on the context that finished second
    (worker 2 here: it has the last up_to_merge);
  after_merge's result (int32@SERVER) holds no CLIENTS value: once, on the merge's context, with
    arg_list[0] ([1, 2, 3]) and the merged value.

    make_mergeable_recording.py --split CTFF_SPLIT --messages DIR --out DIR
"""

import argparse
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", required=True)
    ap.add_argument("--messages", required=True)
    ap.add_argument("--out", default=str(HERE / "recorded"))
    args = ap.parse_args()
    sys.path.insert(0, args.messages)
    from google.protobuf import text_format
    from federated_language.proto import computation_pb2

    with tempfile.TemporaryDirectory() as d:
        subprocess.run([args.split, "--mergeable", "--rename", str(HERE.parent / "goldens" / "sum_clients.binpb"), d],
                       check=True, stdout=subprocess.DEVNULL)
        parts = {}
        for p in ("up_to_merge", "merge", "after_merge"):
            c = computation_pb2.Computation()
            c.ParseFromString((pathlib.Path(d) / f"{p}.binpb").read_bytes())
            parts[p] = "computation { " + text_format.MessageToString(c, as_one_line=True) + " }"

    def i32(v):
        return f"array {{ dtype: DT_INT32 shape {{ }} int32_list {{ value: {v} }} }}"

    def clients(vs):
        members = " ".join(f"value {{ {i32(v)} }}" for v in vs)
        return ('federated { type { placement { value { uri: "clients" } } member { tensor { dtype: DT_INT32 } } } '
                + members + " }")

    merged_type = 'type { placement { value { uri: "server" } } all_equal: true member { struct { element { value { tensor { dtype: DT_INT32 } } } } } }'

    def at_server_struct(v):
        return f"federated {{ {merged_type} value {{ struct {{ element {{ value {{ {i32(v)} }} }} }} }} }}"

    def invoke(lines, cardinality, arg, comp, first_id):
        card = f'cardinalities {{ placement {{ uri: "clients" }} cardinality: {cardinality} }}' if cardinality is not None else ""
        lines += ["== GetExecutor", card,
                  "== CreateValue", f"value {{ {arg} }}",
                  "== CreateValue", f"value {{ {parts[comp]} }}",
                  "== CreateCall", f'function_ref {{ id: "{first_id + 1}" }} argument_ref {{ id: "{first_id}" }}',
                  "== Compute", f'value_ref {{ id: "{first_id + 2}" }}']

    argv = "# argv ['--port=0']"
    w1 = [argv]
    invoke(w1, 3, clients([1, 2, 3]), "up_to_merge", 1)
    w2 = [argv]
    invoke(w2, 2, clients([4, 5]), "up_to_merge", 1)
    pair = ("struct { element { value { struct { element { value { " + i32(6) + " } } } } } "
            "element { value { struct { element { value { " + i32(9) + " } } } } } }")
    invoke(w2, None, pair, "merge", 4)
    after_arg = ("struct { element { value { " + clients([1, 2, 3]) + " } } element { value { "
                 + at_server_struct(15) + " } } }")
    invoke(w2, 3, after_arg, "after_merge", 7)
    out = pathlib.Path(args.out)
    header = "# Synthesized by tests/remote/make_mergeable_recording.py from TFF's MergeableCompExecutionContext (not captured)"
    (out / "mergeable-context-worker-1.txt").write_text("\n".join([header] + w1) + "\n")
    (out / "mergeable-context-worker-2.txt").write_text("\n".join([header] + w2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
