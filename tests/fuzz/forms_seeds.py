#!/usr/bin/env python3
"""Writes the seeds of ctff_fuzz_forms (tests/fuzz/corpus/forms) from tests/forms/goldens: for
each round TFF converted, its five parts in fuzz_forms.cpp's input format (each part a varint
length and its bytes, in the form's order), then the round itself; the same without the round;
and every golden round (converted or refused) behind a zero byte, the input that asks for a split;
then the same for the differential generator's rounds (tests/differential/python/rounds.jsonl,
TFF's parts in generated_rounds.jsonl). Each file is named by the SHA-1 of its bytes.

    forms_seeds.py [OUT_DIR]          (default: tests/fuzz/corpus/forms)
"""

import hashlib
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
GOLDENS = HERE.parent / "forms" / "goldens"
ROUNDS = HERE.parent / "differential" / "python" / "rounds.jsonl"
PARTS = ["server_prepare", "server_to_client_broadcast", "client_work",
         "client_to_server_aggregation", "server_result"]


def varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def main(argv):
    out = pathlib.Path(argv[1]) if len(argv) > 1 else HERE / "corpus" / "forms"
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for first in sorted(GOLDENS.glob("*.server_prepare.binpb")):
        name = first.name[: -len(".server_prepare.binpb")]
        form = b"".join(varint(len(b)) + b for b in
                        ((GOLDENS / f"{name}.{p}.binpb").read_bytes() for p in PARTS))
        for seed in (form, form + (GOLDENS / f"{name}.binpb").read_bytes()):
            (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
            written += 1
    for round_file in sorted(GOLDENS.glob("*.binpb")):
        if "." in round_file.name[: -len(".binpb")]:
            continue  # a part (NAME.PART.binpb), not a round
        seed = b"\0" + round_file.read_bytes()
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        written += 1
    programs = [json.loads(l) for l in ROUNDS.read_text().splitlines()[1:]]
    verdicts = [json.loads(l) for l in (GOLDENS / "generated_rounds.jsonl").read_text().splitlines()[1:]]
    for program, verdict in zip(programs, verdicts):
        round_bytes = bytes.fromhex(program["hex"])
        seeds = [b"\0" + round_bytes]
        if "parts" in verdict:
            form = b"".join(varint(len(b)) + b for b in (bytes.fromhex(verdict["parts"][p]) for p in PARTS))
            seeds += [form, form + round_bytes]
        for seed in seeds:
            (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
            written += 1
    print(f"{written} seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
