#!/usr/bin/env python3
"""Where a CI run's time went: the costliest build steps and tests of one build tree.

    ci_costs.py <build-dir> [--top N] [--out FILE]

Reads <build-dir>/.ninja_log (the Ninja generator's record of every build step, its start and end
in ms; of a step run several times, the last run counts) and <build-dir>/ctest-junit.xml (ctest
--output-junit: each test's time), and prints two tables: the N costliest build steps (objects,
precompiled headers, links) and the N costliest tests, with the totals. With --out the tables are
appended to FILE too (tools/test.sh: build/ci-costs.md, one section per tree). Prints nothing but
a note for a file that is missing (a tree whose build or tests did not run).
"""
import argparse
import pathlib
import sys
import xml.etree.ElementTree as ET


def build_steps(tree: pathlib.Path):
    """{output: seconds} of the last run of each step in .ninja_log (format v5 and later)."""
    log = tree / ".ninja_log"
    if not log.exists():
        return None
    runs = {}  # output -> ((start, end, command hash), seconds): a step's last run
    for line in log.read_text().splitlines():
        if line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) < 5:
            continue
        start, end, output, command = int(parts[0]), int(parts[1]), parts[3], parts[4]
        runs[output] = ((start, end, command), (end - start) / 1000.0)
    # A step with several outputs is logged once per output (same times, same command): counted
    # once, under its first output.
    steps, seen = {}, set()
    for output, (key, seconds) in runs.items():
        if key not in seen:
            seen.add(key)
            steps[output] = seconds
    return steps


def test_times(tree: pathlib.Path):
    """{test name: seconds} from ctest's JUnit file."""
    junit = tree / "ctest-junit.xml"
    if not junit.exists():
        return None
    times = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        times[case.get("name")] = float(case.get("time") or 0.0)
    return times


def table(title, items, top):
    total = sum(items.values())
    lines = [f"{title}: {len(items)}, {total:.0f} s summed (two ran at a time: -j2)"]
    for name, secs in sorted(items.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {secs:8.1f} s  {100 * secs / total if total else 0:5.1f} %  {name}")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", type=pathlib.Path)
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--out", type=pathlib.Path)
    args = ap.parse_args()
    lines = [f"## {args.tree.name} ({args.tree})"]
    steps = build_steps(args.tree)
    lines += table("build steps", steps, args.top) if steps else ["build steps: no .ninja_log"]
    tests = test_times(args.tree)
    lines += table("tests", tests, args.top) if tests else ["tests: no ctest-junit.xml"]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        with open(args.out, "a") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
