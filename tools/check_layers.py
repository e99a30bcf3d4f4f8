#!/usr/bin/env python3
"""Checks the layering of include/ctff and the header paths that comments name.

    check_layers.py [ROOT]          check (ROOT: the source tree, default: this script's ../)
    check_layers.py --picture       print the layering as docs/design.md shows it

Reads every header under include/ctff (Python's standard library only) and checks:

1. Layers. Each header belongs to a row of LAYERS (its folder under include/ctff, or the umbrella
   header itself); it may include headers of its own row and of the rows its row lists, nothing
   else. A header in no row is an error (a new folder needs a row). The rows form no cycle.
2. Third-party headers. `#include <a/...>` (a path with a slash) only where the row lists the
   prefix: protobuf (<google/protobuf/...>, generated <federated_language/....pb.h>) only under
   proto/ (and remote/, with gRPC's), Boost only in reflect/ and run/, nlohmann/json only in
   run/. A `.pb.h` anywhere else
   is an error whatever its prefix.
3. No include cycle between headers (a header included at the bottom of another that it includes
   itself).
4. Comments. A header path a comment names (`trace/fault.hpp`, `ctff/read.hpp`) exists; a symbol
   named next to it, `(trace/convert.hpp: restore_order)`, `(trace/build.hpp, `poisoned`)`,
   `(core/sink.hpp back_sink)` or `` `restore_order` (trace/convert.hpp) ``, occurs in that header.
   docs/design.md is read the same way.
5. URIs. The intrinsic table, types/signatures.hpp, is the only header that writes an intrinsic's
   URI as a string literal ("federated_map"); every other header asks the table's rows
   (types/intrinsic_facts.hpp) or writes `row::federated_sum::uri` (docs/design.md, "Adding an
   intrinsic"). Tests, tools and docs may write them.
6. docs/design.md shows this layering: the block between `<!-- layers -->` and
   `<!-- /layers -->` is what `--picture` prints.

Departures from the layering that the code has today are listed in KNOWN_INCLUDES and
KNOWN_CYCLES, each with its reason; they are reported as such on every run (never silently), and
one that no longer occurs is an error (delete its row). Exits 1 on any error.
"""

import pathlib
import re
import sys

# ---------------------------------------------------------------------------------------------
# The layering (docs/design.md, "Architecture"). One row per folder of include/ctff (and per
# umbrella header): the rows whose headers it may include, besides its own, and the third-party
# include prefixes it may use. Standard headers (no slash) are allowed everywhere.
LAYERS = {
    # folder        may include                                 third-party prefixes
    "core":        ((),                                          ()),
    "types":       (("core",),                                   ()),
    "reflect":     (("core", "types"),                           ("boost/pfr/", "boost/hana/")),
    "numpy":       (("core", "types"),                           ()),
    "ast":         (("core", "types", "numpy"),                  ()),
    "trace":       (("core", "types", "reflect", "ast", "numpy"), ()),
    "intrinsics":  (("core", "types", "trace"),                  ()),
    "read":        (("core", "types", "ast", "numpy"),           ()),
    "import":      (("core", "types", "trace", "read"),          ()),
    "run":         (("core", "types", "reflect", "numpy", "read"), ("boost/pfr/", "nlohmann/")),
    "proto":       (("core", "types", "read", "import"),         ("google/protobuf/", "federated_language/")),
    "remote":      (("core", "types", "read", "run"),            ("grpcpp/", "federated_language/", "tensorflow_federated/",
                                                                  "google/protobuf/")),  # (Data's Any: StringValue)
    "forms":       (("core", "types", "read", "run"),            ()),
    # umbrella headers
    "ctff.hpp":    (("types", "reflect", "trace", "intrinsics"), ()),
    "read.hpp":    (("read",),                                   ()),
    "run.hpp":     (("run",),                                    ()),
    "proto.hpp":   (("ctff.hpp", "proto"),                       ()),
    "remote.hpp":  (("remote",),                                 ()),
    "forms.hpp":   (("forms",),                                  ()),
}

# Includes that break the layering today, each (from, to, why). Reported on every run.
KNOWN_INCLUDES = [
]

# Include cycles between headers today, each (header, header, why). Reported on every run.
KNOWN_CYCLES = [
]

FOLDERS = [k for k in LAYERS if not k.endswith(".hpp")]
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# A header path in a comment: a layer folder and a file, or an umbrella header (ctff/ required).
PATH_RE = (r"(?:(?:include/)?ctff/)?(?:" + "|".join(FOLDERS) + r")/[A-Za-z0-9_/]+\.hpp"
           r"|(?:include/)?ctff/(?:" + "|".join(k[:-4] for k in LAYERS if k.endswith(".hpp")) + r")\.hpp")
SYM = r"`?[A-Za-z_][A-Za-z0-9_]*(?:::~?[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?`?"
# `(path: sym)`, `(path, sym)`, `(path sym)`, `(path: a, b)`: the symbols run up to the `)`.
AFTER_RE = re.compile(r"(?P<path>" + PATH_RE + r")`?(?::\d+(?:-\d+)?)?(?P<syms>(?:[:,]?\s+" + SYM
                      + r")(?:,\s+" + SYM + r")*)\)")
# `sym` (path), sym_with_underscore (path), a::b (path).
BEFORE_RE = re.compile(r"(?P<sym>`[A-Za-z_][A-Za-z0-9_:~]*(?:\(\))?`|[A-Za-z_][A-Za-z0-9]*"
                       r"(?:_[A-Za-z0-9]+|::~?[A-Za-z_][A-Za-z0-9_]*)+)"
                       r",?\s+\(?`?(?P<path>" + PATH_RE + r")`?[),:;]")
BARE_PATH_RE = re.compile(r"(?<![A-Za-z0-9_/.-])(?:" + PATH_RE + r")(?![A-Za-z0-9_/])")


URI_ROW_RE = re.compile(r'intrinsic_row<"(\w+)"')
STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def row_of(rel: str) -> str | None:
    """The LAYERS row of a header path relative to include/ctff."""
    if "/" not in rel:
        return rel if rel in LAYERS else None
    folder = rel.split("/", 1)[0]
    return folder if folder in LAYERS else None


def comment_text(lines: list[str]) -> list[tuple[int, str]]:
    """The `//` comments of a C++ file (outside string and character literals), as runs of
    consecutive comment lines joined by spaces: (first line number, text)."""
    runs = []
    current = None
    for no, line in enumerate(lines, 1):
        text = None
        quote = None
        i = 0
        while i < len(line):
            ch = line[i]
            if quote:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = None
            elif ch in "\"'":
                # A digit separator (1'000) is no character literal.
                if not (ch == "'" and i and line[i - 1].isalnum()):
                    quote = ch
            elif line.startswith("//", i):
                text = line[i + 2:].strip()
                break
            i += 1
        if text is None:
            current = None
            continue
        whole_line = line.lstrip().startswith("//")
        if whole_line and current is not None:
            current[1] += " " + text
        else:
            current = [no, text]
            runs.append(current)
        if not whole_line:
            current = None  # a trailing comment stands alone
    return [(no, text) for no, text in runs]


def resolve(path: str) -> str:
    """A header path as named in a comment -> relative to include/ctff."""
    for prefix in ("include/", "ctff/"):
        if path.startswith(prefix):
            path = path[len(prefix):]
    return path


def symbol_in(sym: str, text: str) -> bool:
    name = sym.strip("`")
    if name.endswith("()"):
        name = name[:-2]
    last = name.split("::")[-1].lstrip("~")
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(last) + r"(?![A-Za-z0-9_])", text) is not None


def check_comments(where: str, runs, headers: dict[str, str], errors: list[str]) -> int:
    """Checks the header paths and symbols of one file's comments; returns how many symbols."""
    named = 0
    for no, text in runs:
        for m in BARE_PATH_RE.finditer(text):
            if resolve(m.group(0)) not in headers:
                errors.append(f"{where}:{no}: a comment names {m.group(0)}, which does not exist")
        pairs = []
        for m in AFTER_RE.finditer(text):
            for sym in re.findall(SYM, m.group("syms")):
                pairs.append((m.group("path"), sym))
        for m in BEFORE_RE.finditer(text):
            pairs.append((m.group("path"), m.group("sym")))
        for path, sym in pairs:
            header = headers.get(resolve(path))
            if header is None:
                continue  # reported above
            named += 1
            if not symbol_in(sym, header):
                errors.append(f"{where}:{no}: a comment names {sym.strip('`')} next to {path}, "
                              f"which has no such name")
    return named


def picture() -> str:
    """The layering as docs/design.md shows it: one line per row, one arrow per allowed row."""
    out = ["```"]
    width = max(len(k) for k in LAYERS)
    for row, (deps, third) in LAYERS.items():
        arrow = " ".join(deps) if deps else "(nothing)"
        extra = f"   + <{'>, <'.join(p + '...' for p in third)}>" if third else ""
        out.append(f"{row:<{width}} -> {arrow}{extra}")
    out.append("```")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if "--picture" in argv[1:]:
        print(picture())
        return 0
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = pathlib.Path(args[0]) if args else pathlib.Path(__file__).resolve().parent.parent
    base = root / "include" / "ctff"
    # (.def: an operator defined once for several names, core/rule_sentences.hpp)
    files = sorted(p for p in base.rglob("*") if p.suffix in (".hpp", ".h", ".def"))
    headers = {p.relative_to(base).as_posix(): p.read_text(encoding="utf-8") for p in files}
    errors: list[str] = []
    notes: list[str] = []

    # The table itself: known rows only, no cycle.
    for row, (deps, _) in LAYERS.items():
        for d in deps:
            if d not in LAYERS:
                errors.append(f"LAYERS: {row} lists {d}, which is no row")

    def reaches(a: str, b: str, seen=None) -> bool:
        seen = seen or set()
        for d in LAYERS.get(a, ((), ()))[0]:
            if d == b or (d not in seen and (seen.add(d) or reaches(d, b, seen))):
                return True
        return False

    for row in LAYERS:
        if reaches(row, row):
            errors.append(f"LAYERS: {row} reaches itself (the layers must not form a cycle)")

    graph: dict[str, list[str]] = {}
    used_known = set()
    n_includes = 0
    for rel, text in headers.items():
        row = row_of(rel)
        if row is None:
            errors.append(f"include/ctff/{rel}: in no row of LAYERS (add its folder to the table)")
            continue
        deps, third = LAYERS[row]
        graph[rel] = []
        for no, line in enumerate(text.splitlines(), 1):
            m = INCLUDE_RE.match(line)
            if not m:
                continue
            target = m.group(2)
            where = f"include/ctff/{rel}:{no}"
            if target.endswith(".pb.h") and row not in ("proto", "remote"):
                errors.append(f"{where}: includes the generated protobuf header <{target}> "
                              f"outside proto/")
                continue
            if target.startswith("ctff/"):
                n_includes += 1
                to = target[len("ctff/"):]
                if to not in headers:
                    errors.append(f"{where}: includes {target}, which does not exist")
                    continue
                graph[rel].append(to)
                to_row = row_of(to)
                if to_row == row or to_row in deps:
                    continue
                known = next((k for k in KNOWN_INCLUDES if k[0] == rel and k[1] == to), None)
                if known:
                    used_known.add((rel, to))
                    notes.append(f"known exception: {rel} includes {to} ({row} -> {to_row}): "
                                 f"{known[2]}")
                else:
                    errors.append(f"{where}: {row}/ may not include {to} ({to_row}); "
                                  f"{row} may include: {', '.join(deps) or 'nothing'}")
            elif m.group(1) == "<" and "/" in target:
                if not any(target.startswith(p) for p in third):
                    errors.append(f"{where}: {row} may not include <{target}> (its third-party "
                                  f"prefixes: {', '.join(third) or 'none'})")
            elif m.group(1) == '"':
                errors.append(f'{where}: "{target}": ctff includes its own headers as '
                              f'"ctff/..." and others as <...>')

    for rel, to, _ in KNOWN_INCLUDES:
        if (rel, to) not in used_known:
            errors.append(f"KNOWN_INCLUDES: {rel} no longer includes {to} across layers: "
                          f"delete the row")

    # Header-level cycles: every strongly connected component of more than one header.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack = set()
    components = []

    def strong(v: str) -> None:  # Tarjan's algorithm (the graph is small: recursion is fine)
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, []):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strong(v)
    used_cycles = set()
    for comp in components:
        known = [k for k in KNOWN_CYCLES if sorted(k[:2]) == comp]
        if known:
            used_cycles.add(known[0][:2])
            notes.append(f"known exception: include cycle {' <-> '.join(comp)}: {known[0][2]}")
        else:
            errors.append(f"include cycle between {', '.join(comp)}")
    for a, b, _ in KNOWN_CYCLES:
        if (a, b) not in used_cycles:
            errors.append(f"KNOWN_CYCLES: {a} and {b} no longer form a cycle: delete the row")

    # URIs: string literals of the table's URIs only in the table.
    table = "types/signatures.hpp"
    uris = set(URI_ROW_RE.findall(headers.get(table, "")))
    if not uris:
        errors.append(f"include/ctff/{table}: no intrinsic_row<\"uri\", ...> rows found")
    for rel, text in headers.items():
        if rel == table:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for lit in STRING_RE.findall(line):
                if lit in uris:
                    errors.append(f'include/ctff/{rel}:{no}: the URI literal "{lit}" outside '
                                  f"{table} (ask the row: types/intrinsic_facts.hpp)")

    # Comments: header paths and the symbols named next to them.
    named = 0
    for rel, text in headers.items():
        named += check_comments(f"include/ctff/{rel}", comment_text(text.splitlines()), headers,
                                errors)
    design = root / "docs" / "design.md"
    if design.exists():
        doc = design.read_text(encoding="utf-8")
        runs = []  # paragraphs: consecutive non-empty lines joined
        for no, line in enumerate(doc.splitlines(), 1):
            if not line.strip():
                runs.append(None)
            elif runs and runs[-1] is not None:
                runs[-1] = (runs[-1][0], runs[-1][1] + " " + line.strip())
            else:
                runs.append((no, line.strip()))
        runs = [r for r in runs if r is not None]
        named += check_comments("docs/design.md", runs, headers, errors)
        block = re.search(r"<!-- layers -->\n(.*?)\n<!-- /layers -->", doc, re.S)
        if not block:
            errors.append("docs/design.md: no <!-- layers --> ... <!-- /layers --> block")
        elif block.group(1).strip() != picture():
            errors.append("docs/design.md: the <!-- layers --> block is not what "
                          "`tools/check_layers.py --picture` prints (the table changed?)")

    for n in notes:
        print(n)
    for e in errors:
        print(f"error: {e}")
    print(f"check_layers.py: {len(headers)} headers, {n_includes} ctff includes, "
          f"{named} symbols named in comments, {len(notes)} known exceptions, "
          f"{len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
