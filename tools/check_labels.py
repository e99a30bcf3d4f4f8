#!/usr/bin/env python3
"""Checks that a ctest run ran and passed at least one test of every expected label.

    check_labels.py BUILD_DIR JUNIT LABEL...

JUNIT is the file `ctest --output-junit` wrote for the run; the labels of its tests are read from
`ctest --show-only=json-v1` in BUILD_DIR. A test counts when it ran and passed (not skipped,
disabled or failed). Prints each label's count; exits 1 if a label has none (tools/test.sh: a
suite whose tests vanished, e.g. left unregistered by the configure, fails).
"""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    build_dir, junit, expected = argv[1], argv[2], argv[3:]
    info = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                          capture_output=True, text=True, check=True).stdout
    labels = {}
    for test in json.loads(info)["tests"]:
        labels[test["name"]] = next((p["value"] for p in test.get("properties", [])
                                     if p["name"] == "LABELS"), [])
    passed = [case.get("name") for case in ET.parse(junit).getroot().iter("testcase")
              if case.get("status") == "run" and case.find("failure") is None
              and case.find("skipped") is None]
    missing = []
    for label in expected:
        count = sum(1 for name in passed if label in labels.get(name, []))
        print(f"  label {label}: {count} tests passed")
        if count == 0:
            missing.append(label)
    if missing:
        print(f"check_labels.py: no test of label(s) {' '.join(missing)} ran in {build_dir}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
