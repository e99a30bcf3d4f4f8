#!/usr/bin/env python3
"""Differential test driver: generates programs (gen.py), builds them with every compiler given,
runs them, and compares, per program, the four byte strings (compile time / run time x each
compiler) plus the printed forms; every byte string must parse with protobuf.

    run.py --compiler g++-12 --compiler clang++-16 --count 300 --seed 1 \\
           --ctff-include include --proto-include build/gcc/proto/gen \\
           --proto-lib build/gcc/proto/libctff_proto.a --work build/gcc/differential \\
           --cache build/differential-cache

Objects are cached by content (program source, the ctff headers it reaches, compiler and flags) in
--cache, so a second build tree that runs the same test with the same compilers only links and
runs. Exit status:
0 when every program agrees everywhere, 1 otherwise (the failing programs are listed with their
seed; their standalone sources are written to WORK/failures/).

With --ctff-run PATH, every program's main computation is also executed by that `ctff-run` on
seeded random arguments for N = 0, 1 and 3 clients (--clients) and the result compared with the
one the oracle (oracle.py) computes from the generator's own representation of the program:
exit status (0 result, 1 execution error, 2 bad input) and the JSON value, floats exactly.
The files of each run are kept in WORK/exec/. Each --ctff-run-arg ARG (repeatable; written
--ctff-run-arg=ARG when ARG starts with -) is appended to every ctff-run command, e.g.
--ctff-run-arg=--workers=127.0.0.1:5001,127.0.0.1:5002 runs the per-client work on workers.

With --exec-only (no --compiler, no C++ compiler needed), only the execution check runs, on the
programs of --python-outputs: their bytes are Python's serialized Computations (which the
differential test checks are ctff's bytes too), and a record the generator no longer makes
(stale) fails as it does in the full run:

    run.py --exec-only --python-outputs tests/differential/python/depth2.jsonl \
           --ctff-run build/gcc/tools/ctff_run/ctff-run --clients 0,1,3,5 --work /tmp/exec

--shard K/N takes the programs K, K+N, ... of the whole run in seed order; --rotate N takes shard
K/N with K the source tree's commit hash modulo N (CI: tools/test.sh, --rotate 2 of the default
512 programs), so that a sequence of commits covers them all. The log's first line names the shard.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen  # noqa: E402
import oracle  # noqa: E402

COMMON_FLAGS = ["-std=c++20", "-O0", "-g0", "-Wall", "-Wextra", "-Wpedantic"]
GNU_FLAGS = ["-fconstexpr-ops-limit=1073741824", "-fconstexpr-loop-limit=16777216"]
CLANG_FLAGS = ["-fconstexpr-steps=268435456"]


def log(*a):
    print(*a, flush=True)


class Compiler:
    def __init__(self, path, extra_flags):
        self.path = path
        v = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
        self.version = v.splitlines()[0]
        self.clang = "clang" in v.lower()
        self.name = os.path.basename(path)
        self.flags = COMMON_FLAGS + (CLANG_FLAGS if self.clang else GNU_FLAGS) + extra_flags


def sha(*parts) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


CTFF_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](ctff/[^>"]+)[>"]', re.M)


def headers_hash(include: Path, sources) -> str:
    """A hash of the ctff headers the sources reach (their #include closure in include/, every
    #include counted, conditional or not): a header no program reaches (ctff/run/json.hpp, say)
    changes no object, so a one-header change recompiles only the programs it can change."""
    seen, todo = set(), []
    for src in sources:
        todo += CTFF_INCLUDE.findall(Path(src).read_text())
    while todo:
        rel = todo.pop()
        if rel in seen or not (include / rel).is_file():
            continue
        seen.add(rel)
        todo += CTFF_INCLUDE.findall((include / rel).read_text())
    h = hashlib.sha256()
    for rel in sorted(seen):
        h.update(rel.encode())
        h.update((include / rel).read_bytes())
    return h.hexdigest()[:24]


class Batch:
    def __init__(self, index, programs):
        self.index = index
        self.programs = programs  # [(seed, source)]

    def source(self, excluded):
        out = [gen.PRELUDE]
        ranges = []  # (first line, last line, seed)
        line = gen.PRELUDE.count("\n") + 1
        for seed, src in self.programs:
            if seed in excluded:
                continue
            n = src.count("\n") + 1
            ranges.append((line, line + n - 1, seed))
            out.append(src)
            line += n
        return "\n".join(out) + "\n", ranges


CONTEXT = re.compile(r"^In file included from|^\s+from |^[^\s:]+: In |"
                     r"^[^\s:]+:\d+:\d+:\s+(required|in .constexpr|recursively)")


def diagnostics(stderr):
    """Groups compiler output into diagnostics: [(kind, lines)], kind 'error' or 'warning'. g++ puts
    the instantiation context before the message, clang puts it in notes after it."""
    groups, pending, cur = [], [], None
    main = re.compile(r": (?:fatal )?(error|warning):")
    for l in stderr.splitlines():
        m = main.search(l)
        if m and ": note:" not in l:
            cur = (m.group(1), pending + [l])
            groups.append(cur)
            pending = []
        elif CONTEXT.match(l):
            cur = None
            pending.append(l)
        elif cur is not None:  # notes and source excerpts
            cur[1].append(l)
        else:
            pending.append(l)
    return groups


def message(lines):
    """The main line of a diagnostic, plus the ctff: message a failed constant evaluation shows
    only in a source excerpt or note."""
    main = next((l for l in lines if re.search(r": (?:fatal )?(error|warning):", l) and ": note:" not in l), "")
    main = main.strip()
    if "ctff: " not in main:
        # A ctff: error raised during constant evaluation: the message is in the source there.
        m = re.match(r"(/\S+\.hpp):(\d+):", main)
        if m and os.path.exists(m.group(1)):
            src = Path(m.group(1)).read_text().splitlines()[int(m.group(2)) - 1:int(m.group(2)) + 4]
            text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', " ".join(src)))
            if "ctff: " in text:
                main += "  [" + text[text.index("ctff: "):] + "]"
    if "ctff: " not in main:
        # A trace refused during constant evaluation (trace_error): the message is its argument,
        # in g++'s "in 'constexpr' expansion" lines or clang's "in call to" notes.
        for l in lines:
            m = re.search(r'trace_error(?:<[^>(]*>)?\((?:\(\(const char\*\)|&)"(ctff: (?:[^"\\]|\\.)*)"', l)
            if m:
                main += "  [" + m.group(1).replace("\\'", "'") + "]"
                break
    if "ctff: " not in main and "constant expression" in main:
        # clang names the cause of a failed constant evaluation in the first note.
        skip = ("in call to", "instantiation", "requested here", "declared here", "expanded from",
                "while ", "in 'constexpr' expansion", "required from", "skipping", "initializer of")
        for l in lines:
            if ": note:" in l and not any(k in l for k in skip):
                main += "  [note: " + l.split(": note:", 1)[1].strip() + "]"
                break
    return shorten(main)[:700]


def shorten(text):
    """Template argument lists collapsed: ctff's type names run to kilobytes."""
    out, depth = [], 0
    for ch in text:
        if ch == "<":
            depth += 1
            if depth == 1:
                out.append("<")
            elif depth == 2:
                out.append("...")
            continue
        if ch == ">" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(">")
            continue
        if depth <= 1:
            out.append(ch)
    return "".join(out)


def seeds_named(lines, tu_name, ranges):
    """The seeds whose lines a diagnostic names. Any batch's name counts (a cached log names the
    unit as the run that compiled it did: another index, another directory)."""
    seeds = set()
    del tu_name
    pat = re.compile(r"/(?:batch\d+|single\d+)\.cpp:(\d+)(?::\d+)?")
    for l in lines:
        for m in pat.finditer(l):
            n = int(m.group(1))
            for a, b, s in ranges:
                if a <= n <= b:
                    seeds.add(s)
    return seeds


def trace_rule_messages():
    """The ctff: messages of the trace's binding-order rules (trace/fault.hpp): a compile-time trace
    keeps these failures and reports them with a static_assert, not as a type rule."""
    text = (Path(__file__).resolve().parents[2] / "include/ctff/trace/fault.hpp").read_text()
    out = []
    for m in re.finditer(r"#define CTFF_\w+_MESSAGE((?:\s*\\?\s*\"(?:[^\"\\]|\\.)*\")+)", text):
        out.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
    return out


TRACE_RULES = trace_rule_messages()


def classify(msg):
    if "ctff:" in msg and "static assert" in msg:
        if any(r[:60] in msg for r in TRACE_RULES):
            return "trace rule"
        return "type rule (generator bug?)"
    if "[ctff:" in msg:
        return "trace rule"
    return "compile error"


class Driver:
    def __init__(self, args):
        self.args = args
        self.shard = getattr(args, "shard_spec", (0, 1, ""))
        self.work = Path(args.work).resolve()
        self.work.mkdir(parents=True, exist_ok=True)
        self.cache = Path(args.cache).resolve() if args.cache else self.work / "cache"
        self.cache.mkdir(parents=True, exist_ok=True)
        self.compilers = [Compiler(c, args.flag or []) for c in args.compiler or []]
        if not args.exec_only:
            self.include = Path(args.ctff_include).resolve()
            self.headers_hash = headers_hash(self.include, [HERE / "harness.hpp", HERE / "harness_main.cpp"])
        else:
            self.headers_hash = ""
        self.harness_hash = sha((HERE / "harness.hpp").read_bytes())  # harness_main.cpp: its own text
        self.failures = defaultdict(list)  # seed -> [(kind, detail)]
        self.sources = {}
        self.programs = {}  # seed -> gen.Program (the oracle evaluates it)
        self.timing = Counter()
        self.exec_stats = Counter()
        self.compiled = {}
        self.python = {}        # seed -> Python's outputs (python/*.jsonl)
        self.python_file = {}   # seed -> (file, header)
        self.bucket = set()     # seeds of the known-divergence bucket
        self.bucket_stats = Counter()  # (compiler, variant, outcome) -> programs
        self.bucket_seeds = defaultdict(list)  # (compiler, variant, outcome) -> seeds
        self.bucket_refused = set()  # bucket programs whose compile-time trace was refused
        self.python_stats = Counter()

    def fail(self, seed, kind, detail):
        self.failures[seed].append((kind, detail))

    # --- compiling ----------------------------------------------------------------------------

    def compile(self, comp: Compiler, src_text: str, tag: str, extra_includes=()):
        """Compiles src_text; returns (object path or None, stderr). Cached by content."""
        # The compiler by its name and version, not its path: `g++-12` and CMake's `/usr/bin/g++-12`
        # share the cache.
        key = sha(comp.name, comp.version, comp.flags, self.headers_hash, self.harness_hash, src_text,
                  *extra_includes)
        obj = self.cache / f"{comp.name}-{key}.o"
        log_file = self.cache / f"{comp.name}-{key}.log"
        if obj.exists():
            os.utime(obj)  # in use: kept by prune()
            if log_file.exists():
                os.utime(log_file)
            return obj, log_file.read_text() if log_file.exists() else ""
        if log_file.exists() and not obj.exists() and (self.cache / f"{comp.name}-{key}.failed").exists():
            return None, log_file.read_text()
        srcdir = self.work / "src" / comp.name
        srcdir.mkdir(parents=True, exist_ok=True)
        src = srcdir / f"{tag}.cpp"
        src.write_text(src_text)
        tmp = obj.with_suffix(f".tmp{os.getpid()}")
        cmd = [comp.path, *comp.flags, f"-I{self.include}", f"-I{HERE}",
               *[f"-I{i}" for i in extra_includes], "-c", str(src), "-o", str(tmp)]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.timing[f"compile {comp.name}"] += time.time() - t0
        log_file.write_text(r.stderr)
        if r.returncode != 0:
            (self.cache / f"{comp.name}-{key}.failed").write_text("")
            tmp.unlink(missing_ok=True)
            return None, r.stderr
        tmp.replace(obj)
        return obj, r.stderr

    def compile_batch(self, comp: Compiler, batch: Batch):
        """Compiles a batch, dropping programs that fail to compile; returns (object, seeds)."""
        excluded = set()
        tag = f"batch{batch.index}"
        for _ in range(4):
            text, ranges = batch.source(excluded)
            if not ranges:
                return None, []
            obj, err = self.compile(comp, text, tag)
            diags = diagnostics(err)
            for kind, lines in diags:
                if kind == "warning" and any("/include/ctff/" in l for l in lines[-1:] + [message(lines)]):
                    for s in seeds_named(lines, tag + ".cpp", ranges) or {r[2] for r in ranges}:
                        self.fail(s, f"warning in ctff ({comp.name})", message(lines))
            if obj is not None:
                return obj, [r[2] for r in ranges]
            bad = set()
            for kind, lines in diags:
                if kind != "error":
                    continue
                msg = message(lines)
                for s in seeds_named(lines, tag + ".cpp", ranges) - excluded:
                    if s not in bad:
                        self.compile_failure(s, comp, msg)
                    bad.add(s)
            if not bad:
                break
            excluded |= bad
        # Not attributable (or still failing): compile the remaining programs one by one.
        objs, good = [], []
        text, ranges = batch.source(excluded)
        for a, b, s in ranges:
            one = Batch(batch.index, [(s, dict(batch.programs)[s])])
            t, rr = one.source(set())
            o, e = self.compile(comp, t, f"single{s}")
            if o is None:
                msgs = [message(ls) for k, ls in diagnostics(e) if k == "error"] or [e.strip()[-300:]]
                self.compile_failure(s, comp, msgs[0])
            else:
                objs.append(o)
                good.append(s)
        return objs, good

    def compile_failure(self, seed, comp, msg):
        """A program that does not compile fails, except a bucket program whose compile-time trace
        ctff refused (a `ctff:` trace rule: Python's order cannot be known): counted as the
        compile-time variant's trace_failure (its run-time variants are not built)."""
        kind = classify(msg)
        if seed in self.bucket and kind == "trace rule":
            self.bucket_stats[(comp.name, "ct", "trace_failure")] += 1
            self.bucket_seeds[(comp.name, "ct", "trace_failure")].append(seed)
            self.bucket_refused.add(seed)
            return
        self.fail(seed, f"{kind} ({comp.name})", msg)

    def prune(self, days=3):
        """Drops cache entries unused for some days (every header change makes new ones)."""
        limit = time.time() - days * 86400
        for f in self.cache.iterdir():
            try:
                if f.stat().st_mtime < limit:
                    f.unlink()
            except OSError:
                pass

    def harness_obj(self, comp):
        text = (HERE / "harness_main.cpp").read_text()
        pb = Path(self.args.proto_include) / "federated_language/proto/computation.pb.h"
        obj, err = self.compile(comp, text + f"\n// {sha(pb.read_bytes())}\n", "harness_main",
                                extra_includes=(str(Path(self.args.proto_include).resolve()),))
        if obj is None:
            raise SystemExit(f"harness_main.cpp does not compile with {comp.name}:\n{err}")
        return obj

    def link(self, comp, objs, out):
        cmd = [comp.path, *map(str, objs), str(Path(self.args.proto_lib).resolve()), "-lprotobuf", "-pthread",
               "-o", str(out)]
        t0 = time.time()
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.timing[f"link {comp.name}"] += time.time() - t0
        if r.returncode != 0:
            raise SystemExit(f"link failed ({comp.name}):\n{r.stderr}")

    # --- running ------------------------------------------------------------------------------

    def run_exe(self, comp, exe, seeds):
        """Runs exe on seeds; returns {seed: {field: value}}. A crash fails that program only."""
        results = {}
        todo = list(seeds)
        t0 = time.time()
        while todo:
            r = subprocess.run([str(exe), *map(str, todo)], capture_output=True, text=True,
                               timeout=self.args.timeout)
            cur = None
            for l in r.stdout.splitlines():
                if l.startswith("program "):
                    cur = int(l.split()[1])
                    results[cur] = {}
                elif l == "end":
                    results[cur]["done"] = True
                    cur = None
                elif cur is not None:
                    k, _, v = l.partition(" ")
                    results[cur][k] = v
            if r.returncode == 0:
                break
            crashed = cur
            if crashed is None:
                for s in todo:
                    self.fail(s, f"crash ({comp.name})", f"exit {r.returncode}: {r.stderr[-400:]}")
                break
            self.fail(crashed, f"crash ({comp.name})", f"exit {r.returncode}: {r.stderr.strip()[-600:]}")
            results.pop(crashed, None)
            todo = todo[todo.index(crashed) + 1:]
        self.timing[f"run {comp.name}"] += time.time() - t0
        return results

    # --- main ---------------------------------------------------------------------------------

    def load_python(self):
        """The committed Python outputs (--python-outputs): their programs join the run (the
        file's header names the generator's options), and each is compared with Python's."""
        main = {s: {"max_depth": self.args.max_depth} for s in range(self.args.seed, self.args.seed + self.args.count)}
        self.opts = dict(main)
        for f in self.args.python_outputs or []:
            lines = Path(f).read_text().splitlines()
            head = json.loads(lines[0])
            opts = {"max_depth": head["max_depth"]}
            if head.get("bucket"):
                opts["bucket"] = True
            if head.get("round"):
                opts["round"] = True
            every = 1 if head.get("bucket") else max(1, self.args.python_every)
            for l in lines[1::every]:
                rec = json.loads(l)
                seed = rec["seed"]
                if seed in self.opts and self.opts[seed] != opts:
                    raise SystemExit(f"{f}: seed {seed} is also a program of other options {self.opts[seed]}")
                self.opts[seed] = opts
                self.python[seed] = rec
                self.python_file[seed] = (f, head)
                if opts.get("bucket"):
                    self.bucket.add(seed)
        self.take_shard()

    def take_shard(self):
        """--shard k/n or --rotate n: of the programs in seed order, every n-th from the k-th."""
        k, n, by = self.shard
        if n <= 1:
            return
        keep = set(sorted(self.opts)[k::n])
        self.opts = {s: o for s, o in self.opts.items() if s in keep}
        self.python = {s: r for s, r in self.python.items() if s in keep}
        self.python_file = {s: f for s, f in self.python_file.items() if s in keep}
        self.bucket = {s for s in self.bucket if s in keep}
        log(f"differential: shard {k}/{n} ({by}): {len(keep)} programs; all of them: "
            f"`--shard i/{n}` for i in 0..{n - 1}, or no --shard/--rotate")

    def generate(self):
        t0 = time.time()
        progs = []
        self.load_python()
        for seed in sorted(self.opts):
            try:
                p = gen.program(seed, self.opts[seed])
                src = p.emit(f"p{seed}")
            except Exception as e:  # a generator bug: report it, keep going
                self.fail(seed, "generator error", repr(e))
                continue
            self.sources[seed] = src
            self.programs[seed] = p
            progs.append((seed, src))
        b = self.args.batch
        self.batches = [Batch(i, progs[k:k + b]) for i, k in enumerate(range(0, len(progs), b))]
        self.timing["generate"] += time.time() - t0

    def run_exec_only(self):
        """--exec-only: the execution check alone, on Python's bytes of the --python-outputs
        programs (no compiler)."""
        t_start = time.time()
        self.generate()
        log(f"differential (execution only): {len(self.sources)} programs of --python-outputs, "
            f"ctff-run {' '.join([self.args.ctff_run] + list(self.args.ctff_run_arg or []))}")
        chosen = {}
        for seed in sorted(self.sources):
            if seed not in self.python:
                self.fail(seed, "no Python outputs", "--exec-only runs the programs of --python-outputs only")
            elif "python_error" in self.python[seed]:
                self.python_stats["python raised"] += 1  # no bytes to run (the full run reports it)
            elif not self.python_stale(seed):
                chosen[seed] = self.python[seed]["hex"]
        self.execute_bytes(chosen)
        self.report(time.time() - t_start, 0)
        return 0 if not self.failures else 1

    def run(self):
        a = self.args
        if a.exec_only:
            return self.run_exec_only()
        t_start = time.time()
        self.generate()
        extra = len(self.sources) - len([s for s in self.sources if a.seed <= s < a.seed + a.count])
        rng = f"seeds {a.seed}..{a.seed + a.count - 1}" if a.count else "no seed range"
        log(f"differential: {len(self.sources)} programs ({rng}"
            + (f", and {extra} more of --python-outputs" if extra else "") + "), "
            f"{len(self.batches)} batches, compilers: {', '.join(c.name for c in self.compilers)}")
        objs = {c.name: {} for c in self.compilers}
        seeds_ok = {c.name: {} for c in self.compilers}
        jobs = [(c, b) for b in self.batches for c in self.compilers]
        with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            hfut = {c.name: ex.submit(self.harness_obj, c) for c in self.compilers}
            futs = {ex.submit(self.compile_batch, c, b): (c, b) for c, b in jobs}
            done = 0
            for f in cf.as_completed(futs):
                c, b = futs[f]
                obj, seeds = f.result()
                objs[c.name][b.index] = obj
                seeds_ok[c.name][b.index] = seeds
                done += 1
                if a.verbose or done % max(1, len(jobs) // 10) == 0:
                    log(f"  compiled {done}/{len(jobs)} ({time.time() - t_start:.0f} s)")
            harness = {n: f.result() for n, f in hfut.items()}
        t_compiled = time.time()
        results = {}
        for c in self.compilers:
            exe = self.work / f"differential-{c.name}"
            os_ = [harness[c.name]]
            for o in objs[c.name].values():
                os_ += o if isinstance(o, list) else [o] if o is not None else []
            self.link(c, os_, exe)
            seeds = sorted(s for ss in seeds_ok[c.name].values() for s in ss)
            self.compiled[c.name] = set(seeds)
            results[c.name] = self.run_exe(c, exe, seeds)
        self.compare(results)
        if a.ctff_run:
            self.execute(results)
        self.prune()
        self.report(time.time() - t_start, t_compiled - t_start)
        return 0 if not self.failures else 1

    def compare(self, results):
        names = [c.name for c in self.compilers]
        fields = ["bytes", "compact", "formatted", "structural", "type"]
        for seed in sorted(self.sources):
            if seed in self.python:
                self.compare_python(seed, results)
            bucket = seed in self.bucket  # run-time variants may throw or differ: counted
            outs = {}
            for n in names:
                if seed not in self.compiled[n]:
                    continue  # its compile error is reported
                r = results[n].get(seed)
                if r is None or "done" not in r:
                    if not any(k.startswith("crash") for k, _ in self.failures.get(seed, [])):
                        self.fail(seed, f"missing output ({n})", "no output")
                    continue
                for w in ("rt", "inner", "rtinner"):
                    if f"{w}.error" in r and not (bucket and w != "inner"):
                        self.fail(seed, f"run-time trace threw ({n}, {w})", r[f"{w}.error"])
                for w in ("ct", "rt", "inner", "rtinner"):
                    p = r.get(f"{w}.parse")
                    if p is not None and p != "ok":
                        self.fail(seed, f"{w} bytes do not parse ({n})", p)
                    k = r.get(f"{w}.check")
                    if k is not None and k != "ok":
                        self.fail(seed, f"{w} computation malformed ({n})", k)
                    for f in fields:
                        if f"{w}.{f}" in r:
                            outs[(n, w, f)] = r[f"{w}.{f}"]
            for f in fields:
                vals = {(n, w): v for (n, w, ff), v in outs.items() if ff == f
                        and not (bucket and w in ("rt", "rtinner"))}
                if len(set(vals.values())) > 1:
                    groups = defaultdict(list)
                    for k, v in vals.items():
                        groups[v].append(f"{k[1]}/{k[0]}")
                    desc = " vs ".join("+".join(g) for g in groups.values())
                    texts = {}
                    if f != "bytes":
                        for v, g in groups.items():
                            texts["+".join(g)] = bytes.fromhex(v).decode("utf-8", "replace")
                    else:
                        for (n, w), v in vals.items():
                            texts[f"{w}/{n}"] = bytes.fromhex(outs.get((n, w, "compact"), "")).decode(
                                "utf-8", "replace")
                    self.fail(seed, f"{f} differ", desc + "".join(f"\n      {k}: {t}" for k, t in texts.items()))

    # --- Python's outputs ----------------------------------------------------------------------

    PY_FIELDS = ["bytes", "compact", "formatted", "structural", "type"]

    def python_stale(self, seed):
        """True (and a failure) when the generator no longer makes the program whose Python outputs
        the record of `seed` holds."""
        rec = self.python[seed]
        f, head = self.python_file[seed]
        p = self.programs[seed]
        sha = gen.program_hash(self.sources[seed], gen.python_twin(p, f"_p{seed}"))
        if rec["program_sha"] == sha:
            return False
        self.python_stats["stale"] += 1
        self.fail(seed, "Python outputs stale", (
            f"the generator no longer makes the program {f} was made from: regenerate the "
            f"Python outputs (README.md, \"Python's outputs\"; profile {head['profile']})"))
        return True

    def compare_python(self, seed, results):
        """Every variant of every compiler against Python's committed outputs. Bucket programs
        (rules 3-5 left out of the ordinary ones): compile-time variants must agree, run-time ones
        are counted per compiler and variant: agree / trace_failure / silent difference."""
        rec = self.python[seed]
        if self.python_stale(seed):
            return
        bucket = seed in self.bucket
        if "python_error" in rec:
            self.python_stats["python raised"] += 1
            return self.fail(seed, "Python raised (ctff compiled it)", rec["python_error"])
        want = {"bytes": rec["hex"]}
        for k in ("compact", "formatted", "structural", "type"):
            want[k] = rec[k].encode().hex()
        checked = False
        for c in self.compilers:
            n = c.name
            if seed not in self.compiled[n]:
                continue
            r = results[n].get(seed)
            if r is None or "done" not in r:
                continue
            for w in ("ct", "inner", "rt", "rtinner"):
                compile_time = w in ("ct", "inner")
                if f"{w}.error" in r:
                    if bucket and not compile_time:
                        self.bucket_stats[(n, w, "trace_failure")] += 1
                        self.bucket_seeds[(n, w, "trace_failure")].append(seed)
                    continue  # reported by compare() (or counted)
                if f"{w}.bytes" not in r:
                    continue
                checked = True
                diff = [k for k in self.PY_FIELDS if f"{w}.{k}" in r and r[f"{w}.{k}"] != want[k]]
                if bucket and not compile_time:
                    self.bucket_stats[(n, w, "silent difference" if diff else "agrees with Python")] += 1
                    if diff:
                        self.bucket_seeds[(n, w, "silent difference")].append(seed)
                    continue
                if bucket:
                    self.bucket_stats[(n, w, "silent difference" if diff else "agrees with Python")] += 1
                if diff:
                    k = diff[0]
                    if k == "bytes":
                        a, b = bytes.fromhex(want["bytes"]), bytes.fromhex(r[f"{w}.bytes"])
                        at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
                        got = bytes.fromhex(r.get(f"{w}.compact", "")).decode("utf-8", "replace")
                        exp = rec["compact"]
                        what = (f"bytes differ from byte {at} on (Python {len(a)} bytes, ctff {len(b)}); "
                                "compact texts")
                    else:
                        got = bytes.fromhex(r[f"{w}.{k}"]).decode("utf-8", "replace")
                        exp = rec[k]
                        what = k
                    self.fail(seed, f"differs from Python ({n}, {w}: {', '.join(diff)})",
                              f"{what}:\n      Python: {exp}\n      ctff:   {got}")
        if checked and not bucket:
            self.python_stats["compared"] += 1
        elif checked:
            self.python_stats["bucket compared"] += 1

    # --- executing (the oracle) -------------------------------------------------------------

    def execute(self, results):
        """Runs every program's main computation with ctff-run for each N and compares with the
        oracle. The bytes are the compile-time bytes of the first compiler that printed them (every
        variant's are compared above)."""
        chosen = {}
        for seed in sorted(self.sources):
            for c in self.compilers:
                r = results.get(c.name, {}).get(seed)
                if r and "ct.bytes" in r:
                    chosen[seed] = r["ct.bytes"]
                    break
        self.execute_bytes(chosen)

    def execute_bytes(self, chosen):
        """execute() on {seed: hex bytes of its main computation}; seeds left out did not compile or
        crashed (reported already)."""
        t0 = time.time()
        ctff_run = str(Path(self.args.ctff_run).resolve())
        edir = self.work / "exec"
        if edir.exists():
            shutil.rmtree(edir)
        edir.mkdir(parents=True)
        jobs = []
        for seed in sorted(self.sources):
            hexbytes = chosen.get(seed)
            if hexbytes is None:
                continue  # did not compile or crashed: reported already
            if seed in self.bucket:
                continue  # the bucket is about binding order (and the oracle has no pair_up helpers)
            comp = edir / f"p{seed}.binpb"
            comp.write_bytes(bytes.fromhex(hexbytes))
            self.exec_stats["programs executed"] += 1
            for n in self.args.clients:
                try:
                    ex = oracle.evaluate(self.programs[seed], n, oracle.arg_seed(seed, n))
                except Exception as e:  # an oracle bug: report it, keep going
                    self.fail(seed, f"oracle error (N={n})", repr(e))
                    continue
                argfile = None
                if ex.arg_json is not None:
                    argfile = edir / f"p{seed}.n{n}.json"
                    argfile.write_text(ex.arg_json + "\n")
                jobs.append((seed, n, comp, argfile, ex))
        with cf.ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            outs = list(pool.map(lambda j: self.run_ctff_run(ctff_run, *j[:4]), jobs))
        for (seed, n, comp, argfile, ex), (rc, out, err) in zip(jobs, outs):
            self.check_run(seed, n, argfile, ex, rc, out, err)
        self.timing["execute"] += time.time() - t0

    def run_ctff_run(self, ctff_run, seed, n, comp, argfile):
        cmd = ([ctff_run, str(comp), "--clients", str(n)] + ([str(argfile)] if argfile else [])
               + list(self.args.ctff_run_arg or []))
        try:
            r = subprocess.run(cmd, capture_output=True, timeout=self.args.exec_timeout)
        except subprocess.TimeoutExpired:
            return None, "", f"timed out after {self.args.exec_timeout} s"
        return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")

    def check_run(self, seed, n, argfile, ex, rc, out, err):
        st = self.exec_stats
        st["runs"] += 1
        arg = "no argument" if argfile is None else f"argument {ex.arg_json if len(ex.arg_json) < 300 else ex.arg_json[:300] + '...'} ({argfile.name})"
        got_err = err.strip().splitlines()[-1][:300] if err.strip() else ""

        def differ(what, expected, got):
            st["disagreements"] += 1
            self.fail(seed, f"execution differs (N={n})",
                      f"{what}\n      {arg}\n      expected: {expected}\n      got: {got}")
        if rc is None or rc not in (0, 1, 2):
            st["crashes"] += 1
            return differ("ctff-run did not exit with 0, 1 or 2", ex.expected_text(),
                          f"exit {rc}: {got_err}")
        if ex.indeterminate:
            st["not compared"] += 1
            return
        if ex.exit != 0:
            st["expected execution errors" if ex.exit == 1 else "expected bad input"] += 1
            if rc != ex.exit:
                return differ("exit status", ex.expected_text(),
                              f"exit {rc}: " + (out.strip()[:300] if rc == 0 else got_err))
            return
        if rc != 0:
            return differ("exit status", ex.expected_text(), f"exit {rc}: {got_err}")
        text = out.strip()
        if "\n" in text:
            return differ("output is not one line", ex.expected_text(), text[:300])
        try:
            got = oracle.parse_output(text)
        except ValueError as e:
            return differ(f"output is not JSON ({e})", ex.expected_text(), text[:300])
        # --regrouped (ctff-run --aggregate-on-workers): float sums regrouped by worker, floats
        # compared with the loose tolerance; integers, strings and structure still exactly.
        d = oracle.compare(oracle.to_json(ex.type, ex.value, n), got, bool(ex.loose) or self.args.regrouped)
        st["results compared"] += 1
        if ex.loose:
            st["loose"] += 1
        if d:
            return differ(f"value: {d}" + (f" [loose: {', '.join(sorted(ex.loose))}]" if ex.loose else ""),
                          ex.expected_text()[:600], text[:600])

    def report(self, total, compile_time):
        n = len(self.sources) + sum(1 for s in self.failures if s not in self.sources)
        bad = len(self.failures)
        kinds = Counter(k for fs in self.failures.values() for k in {kk for kk, _ in fs})
        fdir = self.work / "failures"
        if fdir.exists():
            shutil.rmtree(fdir)
        if self.failures:
            fdir.mkdir(parents=True)
            for seed in sorted(self.failures):
                if seed in self.sources:
                    (fdir / f"p{seed}.cpp").write_text(gen.PRELUDE + self.sources[seed] + "\n")
            log(f"differential: FAILURES in {bad} of {n} programs:")
            shown = 0
            for seed in sorted(self.failures):
                if shown >= self.args.show:
                    log(f"  ... and {bad - shown} more")
                    break
                shown += 1
                for kind, detail in self.failures[seed]:
                    log(f"  seed {seed}: {kind}: {detail}")
                if seed in self.sources:
                    log(f"    source: {fdir / f'p{seed}.cpp'} (gen.py --seed {seed} --max-depth {self.args.max_depth})")
            log("  by kind: " + ", ".join(f"{k}: {v}" for k, v in sorted(kinds.items())))
        tm = ", ".join(f"{k} {v:.0f} s" for k, v in sorted(self.timing.items()))
        if self.python and not self.args.exec_only:
            ps = self.python_stats
            nb = len([s for s in self.python if s not in self.bucket])
            log(f"Python (federated_language 0.5.3, --python-outputs): {ps['compared']} of {nb} programs compared "
                f"with every variant ({ps['stale']} stale, {ps['python raised']} raised in Python)")
        if self.bucket:
            log(f"known-divergence bucket (README.md, rules 3-5): {len(self.bucket)} programs, "
                f"{self.python_stats['bucket compared']} compared with Python, {len(self.bucket_refused)} "
                "refused by the compile-time trace (a ctff: trace rule; counted as ct trace_failure, "
                "not built); per compiler and variant (agrees with Python / trace_failure / silent difference):")
            for c in self.compilers:
                for w in ("ct", "inner", "rt", "rtinner"):
                    st = [self.bucket_stats[(c.name, w, o)] for o in
                          ("agrees with Python", "trace_failure", "silent difference")]
                    if any(st):
                        log(f"  {c.name:12} {w:8} {st[0]:4} / {st[1]:4} / {st[2]:4}")
            shapes = Counter()
            for seed in self.bucket:
                if seed in self.programs:
                    shapes.update(set(self.programs[seed].shapes))
            if shapes:
                log("  programs with each shape: " + "; ".join(f"{k}: {v}" for k, v in sorted(shapes.items())))
            for (cn, w, o), seeds in sorted(self.bucket_seeds.items()):
                bys = Counter()
                for seed in seeds:
                    bys.update(set(self.programs[seed].shapes))
                log(f"  {o} ({cn}, {w}): seeds {' '.join(map(str, sorted(seeds)))}; their shapes: "
                    + "; ".join(f"{k}: {v}" for k, v in sorted(bys.items())))
        if self.args.ctff_run:
            st = self.exec_stats
            log(f"execution (ctff-run, N in {{{', '.join(map(str, self.args.clients))}}}): "
                f"{st['programs executed']} programs, {st['runs']} runs, {st['results compared']} results compared "
                f"({st['loose']} with a tolerance), {st['expected execution errors']} expected execution errors, "
                f"{st['expected bad input']} expected bad input, {st['not compared']} not compared; "
                f"{st['disagreements']} disagreements")
        else:
            log("execution: skipped (no --ctff-run)")
        if self.args.exec_only:
            log(f"differential (execution only): {n - bad}/{n} programs agree with the oracle; "
                f"{total:.0f} s wall (cpu: {tm})")
            return
        log(f"differential: {n - bad}/{n} programs agree "
            f"({len(self.compilers)} compilers x compile/run time, inner callees); {total:.0f} s wall "
            f"(compiling {compile_time:.0f} s; cpu: {tm})")


def shard_of(args, ap):
    """(k, n, chosen by) of --shard / --rotate; (0, 1, "") for the whole run."""
    if args.shard and args.rotate:
        ap.error("--shard and --rotate exclude each other")
    if args.shard:
        try:
            k, n = (int(x) for x in args.shard.split("/"))
        except ValueError:
            ap.error(f"--shard {args.shard}: expected K/N")
        if not 0 <= k < n:
            ap.error(f"--shard {args.shard}: K must be in 0..N-1")
        return k, n, "--shard"
    if args.rotate > 1:
        r = subprocess.run(["git", "-C", str(HERE), "rev-parse", "HEAD"], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            head = r.stdout.strip()
            return int(head[:7], 16) % args.rotate, args.rotate, f"commit {head[:12]}"
        day = int(time.time()) // 86400
        return day % args.rotate, args.rotate, f"day {time.strftime('%Y-%m-%d', time.gmtime())}"
    return 0, 1, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compiler", action="append", help="a C++ compiler (repeat; required but with --exec-only)")
    ap.add_argument("--seed", type=int, default=1, help="first program seed")
    ap.add_argument("--count", type=int, default=None,
                    help="number of programs (default 300; with --exec-only 0: the --python-outputs programs)")
    ap.add_argument("--batch", type=int, default=12, help="programs per translation unit")
    ap.add_argument("--max-depth", type=int, default=3,
                    help="levels of nested computations (gen.py; CI uses 2: smaller programs)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ctff-include", help="the include directory (required but with --exec-only)")
    ap.add_argument("--proto-include", help="directory of the generated *.pb.h (required but with --exec-only)")
    ap.add_argument("--proto-lib", help="libctff_proto.a (required but with --exec-only)")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("--cache", help="object cache, may be shared between build trees")
    ap.add_argument("--flag", action="append", help="extra compiler flag (repeat)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--show", type=int, default=40, help="failing programs to print")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--ctff-run", help="a ctff-run executable: execute every program and compare with the "
                    "oracle (oracle.py); without it the execution check is skipped")
    ap.add_argument("--clients", type=lambda s: [int(x) for x in s.split(",")], default=[0, 1, 3],
                    help="numbers of clients of the execution check (default 0,1,3)")
    ap.add_argument("--exec-timeout", type=int, default=120, help="seconds per ctff-run")
    ap.add_argument("--ctff-run-arg", action="append", metavar="ARG",
                    help="appended to every ctff-run command (repeat; --ctff-run-arg=--workers=... when ARG "
                    "starts with -)")
    ap.add_argument("--regrouped", action="store_true",
                    help="floats compared with the loose tolerance (ctff-run --aggregate-on-workers regroups sums)")
    ap.add_argument("--exec-only", action="store_true",
                    help="only execute the --python-outputs programs (their bytes are Python's) with --ctff-run "
                    "and compare with the oracle: no compiler, no --compiler/--ctff-include/--proto-*")
    ap.add_argument("--python-outputs", action="append",
                    help="Python's outputs of a seeded set of programs (python/*.jsonl, repeat): the "
                    "programs join the run and every variant is compared with Python")
    ap.add_argument("--python-every", type=int, default=1,
                    help="of the --python-outputs files' programs, take every K-th (the first of each "
                    "K) but all of the known-divergence bucket's (a shorter run)")
    ap.add_argument("--shard", metavar="K/N",
                    help="only the programs K, K+N, K+2N, ... in seed order (of all the run would take)")
    ap.add_argument("--rotate", type=int, metavar="N", default=0,
                    help="--shard K/N with K chosen by the source tree's commit (its hash modulo N; the "
                    "day where it is not a git checkout), as compile_fail's mutation run chooses: a "
                    "sequence of commits covers every program")
    args = ap.parse_args()
    args.shard_spec = shard_of(args, ap)
    if args.exec_only:
        bad = [f for f in ("compiler", "ctff_include", "proto_include", "proto_lib") if getattr(args, f)]
        if bad:
            ap.error("--exec-only compiles nothing: no " + ", ".join("--" + f.replace("_", "-") for f in bad))
        if not args.ctff_run or not args.python_outputs:
            ap.error("--exec-only needs --ctff-run and --python-outputs")
        if args.count is None:
            args.count = 0
    else:
        missing = [f for f in ("compiler", "ctff_include", "proto_include", "proto_lib") if not getattr(args, f)]
        if missing:
            ap.error("the following arguments are required: " + ", ".join("--" + f.replace("_", "-") for f in missing))
        if args.count is None:
            args.count = 300
    sys.exit(Driver(args).run())


if __name__ == "__main__":
    main()
