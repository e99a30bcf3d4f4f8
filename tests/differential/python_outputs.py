#!/usr/bin/env python3
"""Writes Python's outputs for a seeded set of generated programs (tests/differential/python/*.jsonl).

Each program of gen.py has a Python twin (gen.python_twin). This script writes the twins of the
programs of one profile into PROGRAM.py files, runs them through a federated_language 0.5.3
reference runner that lives OUTSIDE this repository (given by path; nothing of it is committed),
and writes one JSON line per program: the seed, a hash of the generated C++ program and of its
twin (so that run.py can tell a changed generator from a ctff defect), Python's type string, the
compact, formatted and structural texts, and the serialized Computation (hex).

    python3 tests/differential/python_outputs.py --runner /work/pyref/run.py \\
        --python /usr/bin/python3 --profile depth2 --seed 1 --count 200 --max-depth 2 \\
        --out tests/differential/python/depth2.jsonl

The runner is called as `PYTHON RUNNER PROGRAM.py` with PYREF_NUMPY_PRINT=native in the
environment; PROGRAM.py defines `comps = [(name, computation), ...]`, and the runner prints, for
each, `===== BEGIN name =====`, the sections `----- type -----`, `compact`, `formatted`,
`structural`, `hex`, then `===== END name =====` (README.md, "Python's outputs").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import gen  # noqa: E402

SECTIONS = ["type", "compact", "formatted", "structural", "hex"]


def program_file(entries):
    """PROGRAM.py for [(seed, twin source)]: every twin traced in its own try; a twin that raises
    is reported on stdout (`===== ERROR pN: ... =====`) and left out."""
    out = [gen.PY_PRELUDE, "import sys as _sys", "import traceback as _traceback", ""]
    for seed, twin in entries:
        out.append(twin)
    out.append("comps = []")
    out.append("for _name, _build in [" + ", ".join(f"('p{s}', _p{s})" for s, _ in entries) + "]:")
    out.append("  try:")
    out.append("    _c = _build()")
    out.append("    _bb.ComputationBuildingBlock.from_proto(_c.to_proto()).structural_representation()")
    out.append("    comps.append((_name, _c))")
    out.append("  except Exception as _e:  # pylint: disable=broad-except")
    out.append("    _msg = ''.join(_traceback.format_exception_only(type(_e), _e)).strip().replace('\\n', ' | ')")
    out.append("    print(f'===== ERROR {_name}: {_msg} =====', flush=True)")
    return "\n".join(out) + "\n"


def parse(stdout):
    """{name: {section: text}} and {name: error} from the runner's output."""
    res, errs = {}, {}
    cur, sec, buf = None, None, []
    for line in stdout.split("\n"):
        if line.startswith("===== ERROR ") and line.endswith(" ====="):
            name, _, msg = line[len("===== ERROR "):-len(" =====")].partition(": ")
            errs[name] = msg
        elif line.startswith("===== BEGIN ") and line.endswith(" ====="):
            cur, sec, buf = line[len("===== BEGIN "):-len(" =====")], None, []
            res[cur] = {}
        elif cur is not None and line == f"===== END {cur} =====":
            if sec is not None:
                res[cur][sec] = "\n".join(buf)
            cur = None
        elif cur is not None and line.startswith("----- ") and line.endswith(" -----") and \
                line[6:-6] in SECTIONS:
            if sec is not None:
                res[cur][sec] = "\n".join(buf)
            sec, buf = line[6:-6], []
        elif cur is not None:
            buf.append(line)
    return res, errs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True, help="the reference runner (run.py of a local "
                    "federated_language 0.5.3 install, outside this repository)")
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python that runs it")
    ap.add_argument("--profile", required=True, help="name written in the file's header")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--max-depth", type=int, required=True)
    ap.add_argument("--bucket", action="store_true", help="the known-divergence bucket's programs")
    ap.add_argument("--round", action="store_true", help="federated rounds (gen.py --round)")
    ap.add_argument("--chunk", type=int, default=50, help="programs per PROGRAM.py")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    opts = {"max_depth": args.max_depth}
    if args.bucket:
        opts["bucket"] = True
    if args.round:
        opts["round"] = True
    progs = []
    for seed in range(args.seed, args.seed + args.count):
        p = gen.program(seed, opts)
        progs.append((seed, p.emit(f"p{seed}"), gen.python_twin(p, f"_p{seed}")))
    env = dict(os.environ, PYREF_NUMPY_PRINT="native")
    versions = subprocess.run(
        [args.python, "-c", "import numpy, sys; print(numpy.__version__, sys.version.split()[0])"],
        capture_output=True, text=True, check=True).stdout.split()
    header = {"profile": args.profile, "seed": args.seed, "count": args.count, "max_depth": args.max_depth,
              "bucket": args.bucket, "federated_language": "0.5.3", "numpy": versions[0],
              "python": versions[1], "numpy_print": "native"}
    if args.round:
        header["round"] = True
    lines = [json.dumps(header, sort_keys=True)]
    n_ok = n_err = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(0, len(progs), args.chunk):
            chunk = progs[k:k + args.chunk]
            f = Path(tmp) / f"programs{k}.py"
            f.write_text(program_file([(s, twin) for s, _, twin in chunk]))
            r = subprocess.run([args.python, args.runner, str(f)], capture_output=True, text=True, env=env)
            if r.returncode != 0:
                sys.exit(f"the runner failed on {f}:\n{r.stderr[-3000:]}")
            res, errs = parse(r.stdout)
            for seed, src, twin in chunk:
                rec = {"seed": seed, "program_sha": gen.program_hash(src, twin)}
                name = f"p{seed}"
                if name in res:
                    out = res[name]
                    missing = [s for s in SECTIONS if s not in out]
                    if missing:
                        sys.exit(f"{name}: sections {missing} missing in the runner's output")
                    rec.update({s: out[s] for s in SECTIONS})
                    n_ok += 1
                else:
                    rec["python_error"] = errs.get(name, "no output")
                    n_err += 1
                lines.append(json.dumps(rec, sort_keys=True))
            print(f"  {min(k + args.chunk, len(progs))}/{len(progs)} programs", file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"{args.out}: {n_ok} programs traced by Python, {n_err} raised", file=sys.stderr)


if __name__ == "__main__":
    main()
