#!/usr/bin/env python3
"""ctff-run --workers end to end, over ctff-worker processes on 127.0.0.1 (ctest, label remote).

    workers_e2e.py goldens      --worker W --run R --cmake CMAKE --test-run test_run.cmake \\
                                --goldens DIR --data DIR --example-plugin SO --plugins DIR --work DIR
    workers_e2e.py differential --worker W --run R --run-py run.py --python-outputs depth2.jsonl --work DIR
    workers_e2e.py faults       --worker W --run R --data DIR --plugins DIR --work DIR

With --aggregate-on-workers, goldens (K = 3) and differential (N = 3, 5) run with ctff-run
--aggregate-on-workers: integers as before, floats within the regrouping of sums.

goldens: for K = 1, 2 and 4 workers, tools/ctff_run/test_run.cmake with -DWORKERS=...: every case
  of it that succeeds runs with --workers and must print the hand-computed line (one source of
  expectations: that script).
differential: the 200 depth-2 programs of the differential test (Python's bytes,
  tests/differential/run.py --exec-only) at N = 0, 1, 3, 5 over K = 3 workers, compared with the
  oracle by run.py's own check.
faults: tools/ctff_run/testdata/map_tensorflow.textproto (federated_map of comp#7b000c3) with the
  controller binding doubling.so (x -> 2x) and the workers sleeping.so (x -> x after x ms), so
  that a result of x, not 2x, shows the work ran on the workers: a worker killed (SIGKILL) during
  its call and a gRPC server that never answers (their slices run on another worker: failover),
  a worker that does not answer within --deadline with --retries 0, a process that accepts TCP
  connections and never speaks HTTP/2, a worker down at the start, all workers down. Each must
  end within its bound (never a hang), with the right result or exit status 1 and a message
  naming the worker. And a second ctff-worker on the port of a
  running one exits 2 (it cannot listen), rather than sharing the port.

Exit status 0 when every check passes; the failures are listed otherwise.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

failures: list[str] = []


def log(*a):
    print(*a, flush=True)


def fail(what: str):
    failures.append(what)
    log("FAIL: " + what)


class Worker:
    """A ctff-worker on 127.0.0.1, a free port; its address once it printed it."""

    def __init__(self, binary, binds=(), env=None, ready_within=30.0):
        cmd = [binary, "--port=0", *[f"--bind={b}" for b in binds]]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env={**os.environ, **(env or {})})
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        line, by = b"", time.time() + ready_within
        while not line.endswith(b"\n"):
            left = by - time.time()
            if left <= 0 or not sel.select(left):
                self.stop()
                raise RuntimeError(f"{' '.join(cmd)}: not listening within {ready_within} s")
            chunk = os.read(self.proc.stdout.fileno(), 1)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace")
                self.stop()
                raise RuntimeError(f"{' '.join(cmd)}: exited before listening: {err}")
            line += chunk
        text = line.decode().strip()
        prefix = "ctff-worker: listening on "
        if not text.startswith(prefix):
            self.stop()
            raise RuntimeError(f"{' '.join(cmd)}: printed `{text}`")
        self.address = text[len(prefix):]

    def kill(self):
        self.proc.kill()
        self.proc.wait()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        for f in (self.proc.stdout, self.proc.stderr):
            f.close()


class Workers:
    """K workers, stopped (SIGTERM, then SIGKILL) however the block ends."""

    def __init__(self, binary, k, binds=(), env=None):
        self.binary, self.k, self.binds, self.env = binary, k, binds, env
        self.all: list[Worker] = []

    def __enter__(self):
        try:
            for _ in range(self.k):
                self.all.append(Worker(self.binary, self.binds, self.env))
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        # SIGTERM to all at once; a worker still running a call that its client gave up (the
        # sleeping binding) ends only when the call does: SIGKILL after a grace period.
        for w in self.all:
            if w.proc.poll() is None:
                w.proc.terminate()
        by = time.time() + 3
        for w in self.all:
            try:
                w.proc.wait(timeout=max(0.0, by - time.time()))
            except subprocess.TimeoutExpired:
                w.kill()
            w.stop()

    @property
    def addresses(self):
        return [w.address for w in self.all]


def run(cmd, timeout, stdin=None):
    """(exit status or None when it had to be killed, stdout, stderr, seconds)."""
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=stdin)
        return r.returncode, r.stdout, r.stderr, time.time() - t0
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return None, out, err, time.time() - t0


# --- goldens -----------------------------------------------------------------------------------

def all_up(ws, what):
    """Every worker still up: none crashed on what it was sent."""
    for w in ws.all:
        if w.proc.poll() is not None:
            fail(f"{what}: worker {w.address} exited with {w.proc.returncode}")


def goldens(a):
    # --aggregate-on-workers: the same hand-computed lines through 3 workers that keep the
    # clients' results and aggregate them (the goldens' float sums are exact in any grouping).
    for k in ((3,) if a.aggregate_on_workers else (1, 2, 4)):
        # The workers bind what the per-client functions of the cases call: fedeval_round's
        # comp#48c066fe (the example plugin), and comp#7b000c3 (doubling.so, as the controller).
        with Workers(a.worker, k, binds=[a.example_plugin, str(Path(a.plugins) / "doubling.so")]) as ws:
            workers = ",".join(ws.addresses)
            cmd = [a.cmake, f"-DRUN={a.run}", f"-DGOLDENS={a.goldens}", f"-DDATA={a.data}",
                   f"-DWORK={Path(a.work) / f'goldens_k{k}'}", f"-DEXAMPLE_PLUGIN={a.example_plugin}",
                   f"-DPLUGINS={a.plugins}", f"-DWORKERS={workers}",
                   f"-DAGGREGATE_ON_WORKERS={'ON' if a.aggregate_on_workers else 'OFF'}", "-P", a.test_run]
            rc, out, err, dt = run(cmd, timeout=600)
            status = [l for l in (out + err).splitlines() if "cases passed" in l or "cases failed" in l]
            log(f"goldens, K = {k}: {status[-1].strip() if status else '(no summary)'} ({dt:.1f} s)")
            if rc != 0:
                fail(f"test_run.cmake with {k} workers ({workers}): exit {rc}\n{out}{err}")
            all_up(ws, f"goldens, K = {k}")


# --- differential --------------------------------------------------------------------------------

def differential(a):
    with Workers(a.worker, 3) as ws:
        workers = ",".join(ws.addresses)
        # --aggregate-on-workers: N = 3 and 5 (the runs whose clients 3 workers split), floats
        # compared within the regrouping of their sums (run.py --regrouped).
        extra = (["--clients", "3,5", "--regrouped", "--ctff-run-arg=--aggregate-on-workers"]
                 if a.aggregate_on_workers else ["--clients", "0,1,3,5"])
        cmd = [sys.executable, a.run_py, "--exec-only", "--python-outputs", a.python_outputs,
               "--ctff-run", a.run, "--jobs", str(a.jobs), *extra,
               "--work", str(Path(a.work) / "differential"),
               f"--ctff-run-arg=--workers={workers}", "--ctff-run-arg=--deadline=60"]
        log("differential: " + " ".join(cmd))
        rc, out, err, dt = run(cmd, timeout=1800)
        log(out.rstrip())
        if err.strip():
            log(err.rstrip())
        log(f"differential over 3 workers: exit {rc} ({dt:.1f} s)")
        if rc != 0:
            fail(f"run.py --exec-only over {workers}: exit {rc}")
        all_up(ws, "differential")


# --- faults ------------------------------------------------------------------------------------

class SilentTcp:
    """Accepts TCP connections and never sends a byte (no HTTP/2, no gRPC)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns = []
        self.stopping = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stopping:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)

    def close(self):
        self.stopping = True
        for c in self.conns:
            c.close()
        self.sock.close()


class SilentGrpc:
    """A gRPC server that accepts every call and never answers it (until closed)."""

    def __init__(self):
        import grpc  # the interpreter of the remote tests has grpcio (CTFF_GRPC_PYTHON)
        self.release = threading.Event()
        release = self.release

        class Handler(grpc.GenericRpcHandler):
            def service(self, details):
                def never(request, context):
                    release.wait()
                    context.abort(grpc.StatusCode.UNAVAILABLE, "shutting down")
                return grpc.unary_unary_rpc_method_handler(never)

        self.server = grpc.server(cf.ThreadPoolExecutor(max_workers=8))
        self.server.add_generic_rpc_handlers((Handler(),))
        port = self.server.add_insecure_port("127.0.0.1:0")
        self.server.start()
        self.address = f"127.0.0.1:{port}"

    def close(self):
        self.release.set()
        self.server.stop(0)


def closed_port():
    """An address nothing listens on (a port just freed)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"127.0.0.1:{port}"


def faults(a):
    comp = str(Path(a.data) / "map_tensorflow.textproto")
    plugins = Path(a.plugins)
    doubling, sleeping = str(plugins / "doubling.so"), str(plugins / "sleeping.so")
    work = Path(a.work) / "faults"
    work.mkdir(parents=True, exist_ok=True)
    mark = work / "sleeping.mark"

    def arg(name, values):
        f = work / f"{name}.json"
        f.write_text("[" + ",".join(map(str, values)) + "]\n")
        return str(f)

    def ctff_run(workers, argfile, deadline, extra=()):
        return [a.run, comp, "--bind", doubling, "--workers", ",".join(workers), "--deadline", str(deadline),
                *extra, argfile]

    def expect(name, r, rc, stdout=None, stderr_has=(), within=None):
        got_rc, out, err, dt = r
        log(f"faults: {name}: exit {got_rc}, {dt:.1f} s; stdout {out.strip()!r}; stderr {err.strip()[:300]!r}")
        if got_rc is None:
            return fail(f"{name}: ctff-run did not end (killed after {dt:.0f} s)\nstderr: {err}")
        if got_rc != rc:
            return fail(f"{name}: exit {got_rc}, expected {rc}\nstdout: {out}\nstderr: {err}")
        if stdout is not None and out.strip() != stdout:
            fail(f"{name}: printed {out.strip()!r}, expected {stdout!r}")
        for s in stderr_has:
            if s not in err:
                fail(f"{name}: standard error lacks {s!r}: {err!r}")
        if rc != 0 and out:
            fail(f"{name}: exit {rc} with output {out!r}")
        if rc == 0:  # nothing on standard error but the lines expected (a sanitizer's report, ...)
            extra = [l for l in err.splitlines() if l.strip() and not any(s in l for s in stderr_has)]
            if extra:
                fail(f"{name}: unexpected standard error: {extra[:5]}")
        if within is not None and dt > within:
            fail(f"{name}: took {dt:.1f} s, more than {within} s")

    env = {"CTFF_SLEEPING_MARK": str(mark)}
    with Workers(a.worker, 1) as ws:
        # A second ctff-worker on the port the first listens on exits 2 (gRPC's SO_REUSEPORT
        # would have let it start and take some of the first one's calls).
        port = ws.addresses[0].rsplit(":", 1)[1]
        r = run([a.worker, f"--port={port}"], 10)
        log(f"faults: a second worker on port {port}: exit {r[0]}, {r[3]:.1f} s; stderr {r[2].strip()!r}")
        if r[0] != 2 or "cannot listen on" not in r[2]:
            fail(f"a second worker on port {port}: exit {r[0]}, expected 2 (cannot listen)\n"
                 f"stdout: {r[1]}\nstderr: {r[2]}")
    with Workers(a.worker, 3, binds=[sleeping], env=env) as ws:
        addrs = ws.addresses
        # The work runs on the workers: their binding (x -> x), not the controller's (x -> 2x).
        expect("3 workers, 5 clients", run(ctff_run(addrs, arg("five", [1, 2, 3, 4, 5]), 30), 30),
               0, "[1,2,3,4,5]", within=20)
        # Slow answers within the deadline are waited for.
        expect("slow but within the deadline", run(ctff_run(addrs, arg("slow", [300, 600, 900]), 30), 30),
               0, "[300,600,900]", within=20)
        # A worker that does not answer within the deadline: the second (clients: one each). With
        # --retries 0 no other is tried: the run fails, naming it.
        expect("a worker slower than --deadline 2, --retries 0",
               run(ctff_run(addrs, arg("late", [1, 30000, 1]), 2, ["--retries", "0"]), 30),
               1, stderr_has=(f"worker {addrs[1]}", "DEADLINE_EXCEEDED", "no retries left"), within=12)

    with Workers(a.worker, 3, binds=[sleeping]) as ws:
        # --progress with workers: lines as the work goes (a slice in tenths), each naming the
        # call and the worker its last clients came from; 60 clients of 300 ms, 3 s in all (ctff-run
        # reports once the run has taken a second).
        addrs = ws.addresses
        cmd = ctff_run(addrs, arg("progress", [300] * 60), 30, ["--progress"])
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = [(time.time() - t0, l) for l in p.stderr]
        out = p.stdout.read()
        p.wait()
        end = time.time() - t0
        log(f"faults: --progress over 3 workers: exit {p.returncode}, {end:.1f} s, {len(lines)} lines")
        if p.returncode != 0 or out.strip() != "[" + ",".join(["300"] * 60) + "]":
            fail(f"--progress over workers: exit {p.returncode}, stdout {out!r}")
        named = [l for _, l in lines if re.search(r"federated_map at lambda\.result \(call 1 of 1\): \d+ of 60 "
                                                 r"clients \(the last from worker 127\.0\.0\.1:\d+\)", l)]
        if len(named) != len(lines) or not named or "60 of 60" not in named[-1]:
            fail(f"--progress over workers: lines not naming the call and worker: {[l for _, l in lines][:5]}")
        elif lines[0][0] > end - 0.4:
            fail(f"--progress over workers: the first line came at {lines[0][0]:.2f} s of {end:.2f} s: "
                 "not as the work went")
        elif len({l.rsplit('worker ', 1)[1] for l in named}) != 3:
            fail(f"--progress over workers: not every worker named: {named}")

    with Workers(a.worker, 3, binds=[sleeping], env=env) as ws:
        addrs = ws.addresses
        # A worker killed while it runs its clients' work: the second, once its call is under way.
        # Its slice runs again on the next worker (failover): the same result.
        mark.unlink(missing_ok=True)
        cmd = ctff_run(addrs, arg("killed", [1, 3000, 1]), 60)
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while not mark.exists() and time.time() - t0 < 30 and p.poll() is None:
            time.sleep(0.05)
        if not mark.exists():
            fail("killed mid-run: the call never started on the worker")
        ws.all[1].kill()
        try:
            out, err = p.communicate(timeout=30)
            r = (p.returncode, out, err, time.time() - t0)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            r = (None, out, err, time.time() - t0)
        expect("a worker killed (SIGKILL) mid-run: its slice run again elsewhere", r, 0, "[1,3000,1]", within=20)
        # The same controller set again: the killed one is down at the start, left out.
        expect("a worker down at the start (killed before)",
               run(ctff_run(addrs, arg("three", [1, 2, 3]), 2), 30),
               0, "[1,2,3]", stderr_has=(f"ctff-run: worker {addrs[1]} is not reachable; left out",), within=15)

    with Workers(a.worker, 2, binds=[sleeping]) as ws:
        w0, w1 = ws.addresses
        down = closed_port()
        expect("a worker down at the start (nothing listening)",
               run(ctff_run([w0, down, w1], arg("three", [1, 2, 3]), 2), 30),
               0, "[1,2,3]", stderr_has=(f"ctff-run: worker {down} is not reachable; left out",), within=15)
        silent = SilentTcp()
        try:
            expect("a process that accepts TCP connections and never answers",
                   run(ctff_run([w0, silent.address, w1], arg("three", [1, 2, 3]), 2), 30),
                   0, "[1,2,3]", stderr_has=(f"ctff-run: worker {silent.address} is not reachable; left out",),
                   within=15)
        finally:
            silent.close()
        hung = SilentGrpc()
        try:
            # Its slice, after the deadline, runs on the next worker.
            expect("a gRPC server that never answers",
                   run(ctff_run([w0, hung.address, w1], arg("three", [1, 2, 3]), 2), 30),
                   0, "[1,2,3]", within=15)
        finally:
            hung.close()

    downs = [closed_port(), closed_port()]
    expect("all workers down", run(ctff_run(downs, arg("three", [1, 2, 3]), 2), 30),
           1, stderr_has=("no worker could be reached", *downs), within=12)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("part", choices=["goldens", "differential", "faults"], nargs="+")
    ap.add_argument("--worker", required=True, help="ctff-worker")
    ap.add_argument("--run", required=True, help="ctff-run")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--cmake", help="cmake (goldens)")
    ap.add_argument("--test-run", help="tools/ctff_run/test_run.cmake (goldens)")
    ap.add_argument("--goldens", help="tests/goldens (goldens)")
    ap.add_argument("--data", help="tools/ctff_run/testdata (goldens, faults)")
    ap.add_argument("--example-plugin", help="fedeval_plugin.so (goldens)")
    ap.add_argument("--plugins", help="the directory of doubling.so and sleeping.so (goldens, faults)")
    ap.add_argument("--run-py", help="tests/differential/run.py (differential)")
    ap.add_argument("--python-outputs", help="tests/differential/python/depth2.jsonl (differential)")
    ap.add_argument("--jobs", type=int, default=2, help="ctff-run processes at once (differential)")
    ap.add_argument("--aggregate-on-workers", action="store_true",
                    help="goldens and differential with ctff-run --aggregate-on-workers (3 workers)")
    a = ap.parse_args()
    Path(a.work).mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # ctest's timeout: the workers are stopped
    t0 = time.time()
    for part in a.part:
        t = time.time()
        {"goldens": goldens, "differential": differential, "faults": faults}[part](a)
        log(f"{part}: {time.time() - t:.1f} s")
    if failures:
        log(f"workers_e2e: {len(failures)} failures ({time.time() - t0:.1f} s)")
        return 1
    log(f"workers_e2e: {', '.join(a.part)} passed ({time.time() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
