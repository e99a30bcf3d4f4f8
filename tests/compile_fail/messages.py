#!/usr/bin/env python3
"""The `ctff:` messages of include/ctff/ and the compile-fail cases that expect them.

    messages.py list [<include-dir>]                  one message a line: <id> <text>
    messages.py coverage [<include-dir>] [<cases>]    every message, covered or not, and counts
    messages.py mutate <include-copy> <id> [<id>...]  corrupts messages <id> in a copy of include/

A message is a string literal, or a run of adjacent literals (C++ joins them: "ctff: a " "b"),
whose text starts with "ctff:", outside comments, including those in macros continued over
several lines. A rule sentence of core/rule_sentences.hpp in the run (CTFF_RULE_X or
CTFF_RULE_X("the value", ...)) counts as the literals it expands to. In an operator defined once
for several names (a `.def` file, included after `#define CTFF_OP <name>` and any other
`#define CTFF_OP_<X> "<text>"`), CTFF_OP_NAME counts as the name and CTFF_OP_<X> as its text: the
place is one message for each name. A message's text is the joined literals with C escapes
undone (\\" is "), which is how the compilers print it. Messages are numbered in order of their
text (the same text at several places is one message, all its places corrupted together).

A case covers a message when one of its `// expect: <text>` lines overlaps it (one contains the
other), as mutate.sh decides which cases to rerun against a corrupted message.

`mutate` inserts XX after "ctff:" and replaces every space of every literal of the message by XX
(a sentence macro's arguments included, its shared definition not), in every place the message
is written, and nothing else.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INCLUDE = os.path.normpath(os.path.join(HERE, "..", "..", "include"))


SENTENCE = re.compile(r"CTFF_(?:RULE|OP)_[A-Z0-9_]+")
STAMP = re.compile(r'((?:^#define CTFF_OP\w*[ \t]+.*\n)+)#include "ctff/([\w/]+\.def)"', re.M)


def literal_runs(src):
    """Yields runs of adjacent ordinary string literals: lists of (start, end) source spans
    (quotes included), or, for a sentence macro in the run, (start, end, name, args) with args a
    list of each argument's literal spans. Skips comments, character literals and raw strings."""
    i, n = 0, len(src)
    run = []
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            # R"delim( ... )delim": skipped whole (no message is a raw string).
            if i > 0 and src[i - 1] == "R" and (i < 2 or not (src[i - 2].isalnum() or src[i - 2] == "_")):
                m = re.match(r'"([^()\\ ]{0,16})\(', src[i:])
                if m:
                    end = src.find(")" + m.group(1) + '"', i)
                    i = n if end < 0 else end + len(m.group(1)) + 2
                    if run:
                        yield run
                        run = []
                    continue
            j = skip_literal(src, i)
            run.append((i, j))
            i = j
            continue
        if run and c == "C" and not (src[i - 1].isalnum() or src[i - 1] == "_"):
            m = SENTENCE.match(src, i)
            if m:
                j, args = sentence_args(src, m.end())
                run.append((i, j, m.group(0), args))
                i = j
                continue
        if c == "'":
            # A character literal, or a digit separator (1'000): skip the literal only.
            if i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_") and not re.match(r"[uUL8]", src[i - 1]):
                i += 1
                continue
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            if run:
                yield run
                run = []
            continue
        if c.isspace() or src.startswith("\\\n", i):
            i += 2 if c == "\\" else 1
            continue
        if run:
            yield run
            run = []
        i += 1
    if run:
        yield run


def skip_literal(src, i):
    """The end of the string literal starting at src[i] (one past its closing quote)."""
    j = i + 1
    while j < len(src) and src[j] != '"':
        j += 2 if src[j] == "\\" else 1
    return j + 1


def sentence_args(src, i):
    """After a sentence macro's name: (end, [[spans of argument 0], ...]); no list, no args."""
    j = i
    while j < len(src) and src[j].isspace():
        j += 1
    if j >= len(src) or src[j] != "(":
        return i, []
    args, cur, j = [], [], j + 1
    while j < len(src) and src[j] != ")":
        if src[j] == '"':
            e = skip_literal(src, j)
            cur.append((j, e))
            j = e
        elif src[j] == ",":
            args.append(cur)
            cur, j = [], j + 1
        else:
            j += 1
    args.append(cur)
    return j + 1, args


def sentence_macros(include_dir):
    """{name: (parameters, body tokens)} of core/rule_sentences.hpp: a token is a literal's text
    or a parameter's name."""
    path = os.path.join(include_dir, "ctff", "core", "rule_sentences.hpp")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        src = fh.read().replace("\\\n", " ")
    out = {}
    for m in re.finditer(r"^#define (CTFF_RULE_\w+)(\(([^)]*)\))?[ \t]*(.*)$", src, re.M):
        params = [p.strip() for p in m.group(3).split(",")] if m.group(2) else []
        body = [unescape(t[1:-1]) if t.startswith('"') else t
                for t in re.findall(r'"(?:[^"\\]|\\.)*"|\w+', m.group(4))]
        out[m.group(1)] = (params, body)
    return out


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "0": "\0", "?": "?"}


def unescape(body):
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), body)


def stampings(include_dir):
    """{path of a .def file: [{CTFF_OP_NAME: name, CTFF_OP_<X>: text, ...} for each #include]}."""
    out = {}
    for path in headers(include_dir):
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        for m in STAMP.finditer(src):
            values = {}
            for d in re.finditer(r"^#define (CTFF_OP\w*)[ \t]+(.*?)[ \t]*$", m.group(1), re.M):
                name, value = d.group(1), d.group(2)
                if name == "CTFF_OP":
                    values["CTFF_OP_NAME"] = value
                else:
                    values[name] = "".join(unescape(t[1:-1])
                                           for t in re.findall(r'"(?:[^"\\]|\\.)*"', value))
            out.setdefault(os.path.join(include_dir, "ctff", m.group(2)), []).append(values)
    return out


def headers(include_dir):
    """The files below include/ctff that hold code: headers and .def files."""
    root = os.path.join(include_dir, "ctff")
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if f.endswith((".hpp", ".h", ".def")):
                yield os.path.join(dirpath, f)


def run_text(src, run, macros, stamp):
    """The text a run of literals and sentence macros joins to (stamp: a .def's CTFF_OP_ values)."""
    out = []
    for item in run:
        if len(item) == 2:
            out.append(unescape(src[item[0] + 1:item[1] - 1]))
            continue
        if item[2] in stamp:
            out.append(stamp[item[2]])
            continue
        params, body = macros.get(item[2], ([], ["?" + item[2]]))
        values = {p: "".join(unescape(src[a + 1:b - 1]) for a, b in arg)
                  for p, arg in zip(params, item[3])}
        out.extend(values.get(t, t) if t in params else t for t in body)
    return "".join(out)


def find_messages(include_dir):
    """{text: [(path, run), ...]} for every ctff: message."""
    found = {}
    macros = sentence_macros(include_dir)
    stamps = stampings(include_dir)
    for path in headers(include_dir):
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        for run in literal_runs(src):
            if len(run[0]) != 2:
                continue
            for stamp in stamps.get(path, [{}]) if path.endswith(".def") else [{}]:
                text = run_text(src, run, macros, stamp)
                # The bare prefix ("ctff: " + a run-time text) names no rule: every case shows
                # the prefix, so corrupting one such literal could never be caught.
                if text.startswith("ctff:") and text[len("ctff:"):].strip():
                    found.setdefault(text, []).append((path, run))
    return found


def numbered(include_dir):
    found = find_messages(include_dir)
    return [(i, t, found[t]) for i, t in enumerate(sorted(found))]


def case_expects(cases_dir):
    out = {}
    for f in sorted(os.listdir(cases_dir)):
        if not f.endswith(".cpp"):
            continue
        texts = []
        with open(os.path.join(cases_dir, f), encoding="utf-8") as fh:
            for line in fh:
                m = re.match(r"\s*//\s*expect:\s*(.*?)\s*$", line)
                if m and m.group(1):
                    texts.append(m.group(1))
        out[f] = texts
    return out


def covering(text, expects):
    return [c for c, ts in expects.items() if any(t in text or text in t for t in ts)]


def one_line(text):
    return text.replace("\n", "\\n")


def main(argv):
    if len(argv) < 2 or argv[1] not in ("list", "coverage", "mutate"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "list":
        include_dir = argv[2] if len(argv) > 2 else DEFAULT_INCLUDE
        for i, text, _ in numbered(include_dir):
            print(i, one_line(text))
        return 0
    if cmd == "coverage":
        include_dir = argv[2] if len(argv) > 2 else DEFAULT_INCLUDE
        cases_dir = argv[3] if len(argv) > 3 else HERE
        expects = case_expects(cases_dir)
        messages = numbered(include_dir)
        covered = 0
        for i, text, places in messages:
            cases = covering(text, expects)
            covered += bool(cases)
            where = ", ".join(sorted({os.path.relpath(p, include_dir) for p, _ in places}))
            status = "covered  " if cases else "UNCOVERED"
            print(f"{status} [{where}] {one_line(text)}")
            if cases:
                print("          by " + " ".join(cases))
        print(f"messages.py: {len(messages)} ctff: messages, {covered} covered by a compile-fail "
              f"case, {len(messages) - covered} not")
        return 0
    # mutate
    if len(argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    copy = argv[2]
    wanted = {int(a) for a in argv[3:]}
    edits = {}  # path -> {(start, end): replacement} (a .def's place is several messages' place)
    for i, text, places in numbered(copy):
        if i not in wanted:
            continue
        for path, run in places:
            with open(path, encoding="utf-8") as fh:
                src = fh.read()
            spans = [s for item in run
                     for s in ([item] if len(item) == 2 else [x for arg in item[3] for x in arg])]
            for k, (a, b) in enumerate(spans):
                body = src[a + 1:b - 1].replace(" ", "XX")
                if k == 0:
                    body = body.replace("ctff:", "ctff:XX", 1)
                edits.setdefault(path, {})[(a, b)] = '"' + body + '"'
    for path, es in edits.items():
        with open(path, encoding="utf-8") as fh:
            src = fh.read()
        for (a, b), rep in sorted(es.items(), reverse=True):
            src = src[:a] + rep + src[b:]
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(src)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
