#!/usr/bin/env python3
"""Checks that ctff's compile-time traces still compile under -fsanitize=address,undefined.

    sanitize_syntax.py <build-dir> [--jobs N]

<build-dir> is a configured and built tree with CMAKE_EXPORT_COMPILE_COMMANDS=ON (tools/test.sh:
build/gcc). Every translation unit of the unit tests (as the build merges them: tests/unity.py),
the examples, ctff-inspect, ctff-split and ctff-run is compiled again with its own command plus
-fsyntax-only -fsanitize=address,undefined -fno-sanitize-recover=all. -fsyntax-only is enough: the constant evaluation, where the sanitizers
can make an expression non-constant (g++ -fsanitize=undefined: comparing a static object's
address with a null pointer), is done by the front end. tools/test.sh uses it for g++, whose
sanitizer suite (build and run) the clang builds cover at run time. Exits non-zero if a TU fails.
"""
import argparse
import concurrent.futures
import json
import pathlib
import shlex
import subprocess
import sys
import time

FLAGS = ["-fsyntax-only", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
PARTS = ("tests/unit/", "examples/", "tools/ctff_inspect/", "tools/ctff_split/", "tools/ctff_run/")


def syntax_command(entry):
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):  # no object file, no dependency file
            skip = True
        elif a not in ("-c", "-MD", "-MMD"):
            out.append(a)
    return out[:1] + FLAGS + out[1:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", type=pathlib.Path)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    root = pathlib.Path(__file__).resolve().parent.parent
    with open(args.build_dir / "compile_commands.json") as f:
        entries = json.load(f)
    units = []
    for e in entries:
        path = pathlib.Path(e["directory"], e["file"]).resolve()
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else ""
        build = args.build_dir.resolve()
        if not rel and path.is_relative_to(build / "tests/unity"):  # the merged unit tests
            rel = path.relative_to(build).as_posix()
        if rel.startswith(PARTS) or rel.startswith("tests/unity/"):
            units.append((rel, e))
    if not units:
        print(f"sanitize_syntax: no unit test or example in {args.build_dir}/compile_commands.json")
        return 1

    def run(unit):
        rel, e = unit
        t0 = time.monotonic()
        p = subprocess.run(syntax_command(e), cwd=e["directory"], capture_output=True, text=True)
        return rel, p.returncode, time.monotonic() - t0, p.stdout + p.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for rel, rc, seconds, output in pool.map(run, sorted(units)):
            print(f"{'ok  ' if rc == 0 else 'FAIL'} {rel} ({seconds:.1f} s)", flush=True)
            if rc != 0:
                failed += 1
                print(output, end="")
    print(f"sanitize_syntax: {len(units) - failed} of {len(units)} translation units compile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
