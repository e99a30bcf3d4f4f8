#!/usr/bin/env python3
"""Replays what TFF's own clients sent to a worker (../shared/reference/tff-remote/, copied in
tests/remote/recorded/) against ctff-worker, and checks its answers; then garbage bytes in place of a request must be an
error reply after which the worker still serves.

    replay.py --worker BIN --messages DIR RECORDING... [--expect-dir DIR]

A recording is one request per `== Method` line (protobuf text format on the next line), made
against a stand-in worker whose answers were canned: its executor id and value ids (1, 2, ... in
the order of the Create* requests) are replaced here by those ctff-worker answers. Each Compute's
answer must equal the value given for it in EXPECTED (computed by hand from the recording, never
by ctff); every other request must succeed. The worker is started as TFF's client starts it
(the recorded argv, with a free port), and must exit cleanly on SIGTERM.
"""

import argparse
import os
import pathlib
import re
import signal
import subprocess
import sys

def _server_struct(v):
    """<v>@SERVER, v an int32: a struct of one element placed at SERVER."""
    return ('federated { type { placement { value { uri: "server" } } all_equal: true '
            'member { struct { element { value { tensor { dtype: DT_INT32 } } } } } } '
            f'value {{ struct {{ element {{ value {{ array {{ dtype: DT_INT32 shape {{ }} int32_list {{ value: {v} }} }} }} }} }} }} }}')


# What each recording's Compute requests must answer, in order (protobuf text format of a Value).
EXPECTED = {
    # federated_sum of [1, 2, 4] at CLIENTS: 7 at SERVER.
    "python-remote-executor.txt": [
        'federated { type { placement { value { uri: "server" } } all_equal: true '
        'member { tensor { dtype: DT_INT32 } } } '
        'value { array { dtype: DT_INT32 shape { } int32_list { value: 7 } } } }',
    ],
    # The server's merge: (a -> (acc_arg -> acc_arg[0])(a)) of <7, 7> is 7; then (x -> x).
    "composing-server-worker.txt": [
        'array { dtype: DT_INT32 shape { } int32_list { value: 7 } }',
    ],
    # federated_aggregate of [1, 2] from zero 0 with accumulate (acc, x) -> acc: 0 at SERVER.
    "composing-clients-worker-1.txt": [
        'federated { type { placement { value { uri: "server" } } all_equal: true '
        'member { tensor { dtype: DT_INT32 } } } '
        'value { array { dtype: DT_INT32 shape { } int32_list { value: 0 } } } }',
    ],
    # The same on [4].
    "composing-clients-worker-2.txt": [
        'federated { type { placement { value { uri: "server" } } all_equal: true '
        'member { tensor { dtype: DT_INT32 } } } '
        'value { array { dtype: DT_INT32 shape { } int32_list { value: 0 } } } }',
    ],
    # TFF's MergeableCompExecutionContext on a ctff-made form of sum_clients (make_mergeable_recording.py):
    # up_to_merge of [1, 2, 3] is <6>@SERVER; of [4, 5] <9>@SERVER, merge(<<6>, <9>>) is <15>,
    # after_merge(<[1, 2, 3], <15>@SERVER>) is 15@SERVER: the round's sum of [1, 2, 3, 4, 5].
    "mergeable-context-worker-1.txt": [_server_struct(6)],
    "mergeable-context-worker-2.txt": [
        _server_struct(9),
        'struct { element { value { array { dtype: DT_INT32 shape { } int32_list { value: 15 } } } } }',
        'federated { type { placement { value { uri: "server" } } all_equal: true '
        'member { tensor { dtype: DT_INT32 } } } '
        'value { array { dtype: DT_INT32 shape { } int32_list { value: 15 } } } }',
    ],
}

METHODS = ["GetExecutor", "CreateValue", "CreateCall", "CreateStruct", "CreateSelection",
           "Compute", "Dispose", "DisposeExecutor"]


def parse_recording(path):
    argv, requests = [], []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("# argv "):
            argv = eval(line[len("# argv "):], {})  # a Python list literal, as recorded
        elif line.startswith("== "):
            requests.append((line[3:].strip(), lines[i + 1] if i + 1 < len(lines) else ""))
            i += 1
        i += 1
    return argv, requests


def start_worker(binary, argv):
    args = [re.sub(r"^--port=\d+$", "--port=0", a) for a in argv]
    p = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    m = re.search(r"listening on (\S+):(\d+)", line)
    if not m:
        p.kill()
        raise SystemExit(f"replay: the worker did not start: {line!r} {p.stderr.read()!r}")
    return p, int(m.group(2))


def replay(binary, recording, messages):
    import grpc
    from google.protobuf import text_format
    from tensorflow_federated.proto.v0 import executor_pb2 as pb

    argv, requests = parse_recording(recording)
    expected = list(EXPECTED[recording.name])
    proc, port = start_worker(binary, argv)
    failures = []
    try:
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        grpc.channel_ready_future(channel).result(timeout=10)
        stubs = {m: channel.unary_unary(f"/tensorflow_federated.v0.ExecutorGroup/{m}",
                                        request_serializer=lambda r: r.SerializeToString(),
                                        response_deserializer=getattr(pb, m + "Response").FromString)
                 for m in METHODS}
        executor_id = None
        ids = []  # ids ctff-worker gave, in the order the canned worker numbered them

        def mapped(ref):
            k = int(ref.id)
            if not 1 <= k <= len(ids):
                raise SystemExit(f"replay: {recording.name}: the recording uses value {k} before it exists")
            ref.id = ids[k - 1]

        for n, (method, text) in enumerate(requests):
            request = getattr(pb, method + "Request")()
            text_format.Parse(text, request)
            if method != "GetExecutor":
                request.executor.id = executor_id
            singular = {f.name for f in request.DESCRIPTOR.fields if f.label != f.LABEL_REPEATED}
            for field in ("function_ref", "argument_ref", "source_ref", "value_ref"):
                if field in singular and request.HasField(field):
                    mapped(getattr(request, field))
            if method == "CreateStruct":
                for e in request.element:
                    mapped(e.value_ref)
            if method == "Dispose":
                for r in request.value_ref:
                    mapped(r)
            try:
                response = stubs[method](request, timeout=30)
            except grpc.RpcError as e:
                failures.append(f"{recording.name}: request {n + 1} ({method}): {e.code().name}: {e.details()}")
                break
            if method == "GetExecutor":
                executor_id = response.executor.id
            elif method.startswith("Create"):
                ids.append(response.value_ref.id)
            elif method == "Compute":
                want = pb.Value()
                text_format.Parse(expected.pop(0), want)
                if response.value != want:
                    failures.append(f"{recording.name}: Compute {n + 1}: got {text_format.MessageToString(response.value, as_one_line=True)}; "
                                    f"expected {text_format.MessageToString(want, as_one_line=True)}")
        if not failures and expected:
            failures.append(f"{recording.name}: {len(expected)} Compute answers never asked for")
        if not failures:
            # The executor ends with its last hold; a request after it is FAILED_PRECONDITION.
            stubs["DisposeExecutor"](pb.DisposeExecutorRequest(executor=pb.ExecutorId(id=executor_id)), timeout=10)
            try:
                stubs["Compute"](pb.ComputeRequest(executor=pb.ExecutorId(id=executor_id),
                                                   value_ref=pb.ValueRef(id=ids[0])), timeout=10)
                failures.append(f"{recording.name}: Compute after DisposeExecutor succeeded")
            except grpc.RpcError as e:
                if e.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    failures.append(f"{recording.name}: after DisposeExecutor: {e.code().name}, not FAILED_PRECONDITION")
        if not failures:
            # Garbage bytes in place of a request: an error reply, and the worker goes on.
            raw = channel.unary_unary("/tensorflow_federated.v0.ExecutorGroup/CreateValue",
                                      request_serializer=lambda b: b, response_deserializer=lambda b: b)
            for junk in (b"\xff\xff\xff\xff", b"\x0a\xff\xff\xff\xff\x0f", bytes(range(256)) * 64):
                try:
                    raw(junk, timeout=10)
                    failures.append(f"{recording.name}: garbage bytes {junk[:8]!r}... were accepted")
                except grpc.RpcError as e:
                    if e.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN):
                        failures.append(f"{recording.name}: garbage bytes: {e.code().name}: {e.details()}")
            r = stubs["GetExecutor"](text_format.Parse('cardinalities { placement { uri: "clients" } cardinality: 1 }',
                                                       pb.GetExecutorRequest()), timeout=10)
            if not r.executor.id:
                failures.append(f"{recording.name}: no executor after garbage requests")
        channel.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            rc = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            rc = "hung on SIGTERM"
        if rc != 0:
            failures.append(f"{recording.name}: the worker exited with {rc}: {proc.stderr.read()}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", required=True)
    ap.add_argument("--messages", required=True, help="the directory of the generated *_pb2.py")
    ap.add_argument("recordings", nargs="+")
    args = ap.parse_args()
    sys.path.insert(0, args.messages)
    failures = []
    for r in args.recordings:
        f = replay(args.worker, pathlib.Path(r), args.messages)
        print(f"{pathlib.Path(r).name}: {'ok' if not f else 'FAILED'}")
        failures += f
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
