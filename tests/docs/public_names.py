#!/usr/bin/env python3
"""The public names of include/ctff, and a check that docs/reference.md documents each of them.

A public name is one declared at namespace scope in namespace ctff or a namespace nested in it
other than `detail` (ctff::literals names are listed as `literals::operator""_c`, ...): classes,
class templates, aliases, concepts, functions, operators and variables. Specializations
(`struct tff_type_of<T>`), qualified definitions (`value<T>::operator[]`) and declarations outside
namespace ctff (`std::tuple_size<...>`) declare no new name.

Usage:
  public_names.py list INCLUDE_DIR                 print `header: name` lines
  public_names.py check INCLUDE_DIR REFERENCE_MD   exit 1 unless every public name has an entry in
                                                   the table of its header, and every entry names a
                                                   public name of that header

docs/reference.md: one `## <ctff/path/header.hpp>` section per header with public names, and a
table whose first column is the name in backquotes (several names may share a row, separated by
commas or spaces: `` `at_server`, `at_clients` ``).
"""
import pathlib
import re
import sys

IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def strip_source(text):
    """Removes comments, preprocessor lines and the contents of string and char literals."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    i += 1
                i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # a string or char literal (a ' between digits is a digit separator)
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            at_line_start = False
            continue
        out.append(c)
        if c == "\n":
            at_line_start = True
        elif not c.isspace():
            at_line_start = False
        i += 1
    return "".join(out)


def skip_balanced(s, i, open_c, close_c):
    depth = 0
    while i < len(s):
        if s[i] == open_c:
            depth += 1
        elif s[i] == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def declared_name(head):
    """The name a namespace-scope declaration introduces, or None."""
    s = " ".join(head.split())
    # leading template parameter lists and requires-clauses
    while True:
        if s.startswith("template"):
            j = s.find("<")
            s = s[skip_balanced(s, j, "<", ">"):].strip()
        elif s.startswith("requires"):
            rest = s[len("requires"):].lstrip()
            if rest.startswith("("):
                s = rest[skip_balanced(rest, 0, "(", ")"):].strip()
            else:  # requires some_concept<...>
                m = IDENT.match(rest)
                j = m.end() if m else 0
                if rest[j:j + 1] == "<":
                    j = skip_balanced(rest, j, "<", ">")
                s = rest[j:].strip()
        else:
            break
    if not s or s.startswith(("static_assert", "using namespace", "namespace", "extern template")):
        return None
    m = re.match(r"using\s+([A-Za-z_]\w*)\s*=", s)
    if m:
        return m.group(1)
    m = re.match(r"using\s+([\w:]+)\s*$", s)
    if m:
        return m.group(1).split("::")[-1]
    m = re.match(r"(?:\w+\s+)*concept\s+(\w+)", s)
    if m:
        return m.group(1)
    m = re.match(r"(?:(?:inline|constexpr|extern)\s+)*(?:struct|class|union|enum\s+class|enum\s+struct|enum)"
                 r"\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)(.*)$", s)
    if m:
        name, rest = m.group(1), m.group(2).lstrip()
        return None if rest.startswith("<") else name  # a specialization
    # a function, operator or variable: the identifier before the first top-level `(`, `=` or `{`
    depth = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "<" and depth == 0 and re.search(r"operator\s*$", s[:i]) is None:
            # template arguments (not the operator< itself)
            if re.search(r"[\w>]\s*$", s[:i]):
                i = skip_balanced(s, i, "<", ">")
                continue
        if c in "(={" and depth == 0:
            before = s[:i].rstrip()
            m = re.search(r"(operator\s*(?:\"\"\s*\w+|\(\)|\[\]|[^\s\w(]+|\w+))\s*$", before)
            if m and before[:m.start()].rstrip().endswith("::"):
                return None  # a member defined outside its class
            if m:
                return re.sub(r"\s+", "", m.group(1)).replace('operator""', 'operator""')
            if before.endswith(">"):
                return None  # a variable template specialization: name<args> = ...
            m = re.search(r"([\w:~]+)\s*$", before)
            if not m:
                return None
            name = m.group(1)
            if "::" in name:
                return None  # a qualified definition of something declared elsewhere
            return name
        i += 1
    m = re.search(r"([A-Za-z_]\w*)\s*$", s)  # a variable without initializer
    return m.group(1) if m else None


STAMP = re.compile(r'^#define CTFF_OP[ \t]+(\w+)[ \t]*\n(?:#define .*\n)*#include "ctff/([\w/]+\.def)"', re.M)


def with_stamps(path):
    """The header's text with each operator defined once for several names (core/rule_sentences.hpp:
    `#define CTFF_OP <name>`, then `#include "ctff/<file>.def"`) spelled out for that name."""
    text = path.read_text()

    def stamp(m):
        include_dir = next(p for p in path.parents if (p / "ctff").is_dir())
        body = (include_dir / "ctff" / m.group(2)).read_text()
        return re.sub(r"\bCTFF_OP\b", m.group(1), body)

    return STAMP.sub(stamp, text)


def public_names(path):
    text = strip_source(with_stamps(path))
    names = []
    stack = []  # ("ns", [names]) for `namespace a::b {`, or ("block", None)
    head = ""
    recorded = False
    continues = False  # the statement goes on after a block (an initializer)

    def namespaces():
        return [part for kind, parts in stack for part in parts] if all(
            kind == "ns" for kind, _ in stack) else None

    def public():
        ns = namespaces()
        return bool(ns) and ns[0] == "ctff" and "detail" not in ns

    def qualifier():
        return "".join(x + "::" for x in namespaces()[1:])

    def record():
        nonlocal recorded
        if not recorded and public():
            name = declared_name(head)
            if name:
                names.append(qualifier() + name)
        recorded = True

    parens = 0  # inside ( ) of a namespace-scope declaration: braces there are initializers
    for c in text:
        at_ns = all(kind == "ns" for kind, _ in stack)
        if at_ns and c in "()":
            parens += 1 if c == "(" else -1
        if at_ns and parens > 0:
            head += c
            continue
        if c == "{":
            if at_ns:
                m = re.fullmatch(r"\s*(?:inline\s+)?namespace\s+([\w:]*)\s*", head)
                if m:
                    stack.append(("ns", m.group(1).split("::")))
                    head, recorded = "", False
                    continue
                record()
                flat = head
                while True:  # drop parenthesized parts (default arguments) and comparisons
                    nxt = re.sub(r"\([^()]*\)", "", flat)
                    if nxt == flat:
                        break
                    flat = nxt
                flat = re.sub(r"template\s*<[^<>]*>", "", flat)  # default template arguments
                continues = "=" in re.sub(r"(<=|>=|==|!=|operator\s*\S+)", "", flat)
            stack.append(("block", None))
            continue
        if c == "}":
            if stack:
                kind, _ = stack.pop()
            if all(kind == "ns" for kind, _ in stack):
                if kind == "ns":
                    head, recorded, continues = "", False, False
                elif not continues:
                    head, recorded = "", False
            continue
        if not at_ns:
            continue
        if c == ";":
            record()
            head, recorded, continues = "", False, False
            continue
        head += c
    return names


def collect(include_dir):
    include_dir = pathlib.Path(include_dir)
    result = {}
    for path in sorted(include_dir.rglob("*.hpp")):
        rel = path.relative_to(include_dir).as_posix()
        seen = []
        for name in public_names(path):
            if name not in seen:
                seen.append(name)
        if seen:
            result[rel] = seen
    return result


def documented(reference):
    """{header: set of names in the first column of its table}"""
    sections = {}
    current = None
    for line in pathlib.Path(reference).read_text().splitlines():
        if line.startswith("#"):
            m = re.match(r"##\s+`?<?([\w/]+\.hpp)>?`?\s*$", line)
            current = sections.setdefault(m.group(1), set()) if m else None
            continue
        if current is not None and line.startswith("|"):
            cells = line.split("|")
            if len(cells) > 2:
                for name in re.findall(r"`([^`]+)`", cells[1]):
                    name = name.replace("ctff::", "")
                    if not name.startswith("operator"):  # `operator<<` is a name, not arguments
                        name = name.split("<")[0]
                    current.add(name.strip())
    return sections


SAMPLE = r"""
#pragma once
// namespace ctff { struct in_a_comment {}; }
namespace ctff {
namespace detail {
template <class T> struct hidden {};
constexpr int hidden_fn() { return 1; }
}  // namespace detail
template <class T> struct shown { int f() { return 0; } };
template <> struct shown<int> {};
using alias = shown<int>;
template <class T> concept a_concept = true;
enum class colour { red };
inline constexpr int a_variable = 3;
template <class T> inline constexpr bool a_trait = false;
template <class T> inline constexpr bool a_trait<T*> = true;
template <class A, class B>
  requires(a_concept<A>)
constexpr auto a_function(const A& a, const B& b = {}) { return a + b; }
constexpr int after_default = 2;
template <class D = void> constexpr bool deferred(int x) { return x; }
constexpr int after_deferred = 4;
inline constexpr auto from_lambda = [] { return 1; }();
template <class T> constexpr auto shown<T>::member() const {}
constexpr auto operator+(colour a, colour b) { return a; }
const char* s = "namespace ctff { int in_a_string; }";
namespace literals { constexpr auto operator""_q(unsigned long long) { return 1; } }
}  // namespace ctff
namespace ctff::detail { int hidden_too; }
namespace ctff { inline std::string a_string(int x) { return {}; } }
template <> struct std::tuple_size<ctff::alias> {};
"""
SAMPLE_NAMES = ["shown", "alias", "a_concept", "colour", "a_variable", "a_trait", "a_function",
                "after_default", "deferred", "after_deferred", "from_lambda", "operator+", "s", 'literals::operator""_q',
                "a_string"]


def selftest():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = pathlib.Path(d) / "sample.hpp"
        path.write_text(SAMPLE)
        found = public_names(path)
    if found != SAMPLE_NAMES:
        print(f"public_names: found {found}\nexpected {SAMPLE_NAMES}")
        return 1
    print(f"public_names: the {len(found)} names of the sample header")
    return 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "selftest":
        return selftest()
    if len(argv) >= 3 and argv[1] == "list":
        for header, names in collect(argv[2]).items():
            for name in names:
                print(f"{header}: {name}")
        return 0
    if len(argv) >= 4 and argv[1] == "check":
        public = collect(argv[2])
        docs = documented(argv[3])
        errors = []
        for header, names in public.items():
            entries = docs.get(header, set())
            for name in names:
                if name not in entries:
                    errors.append(f"{header}: public name `{name}` has no entry in the table of "
                                  f"{header} in {argv[3]}")
        for header, entries in docs.items():
            if not (pathlib.Path(argv[2]) / header).exists():
                # documented ahead of the header (another change adds it): not an error
                print(f"note: {argv[3]} documents {header}, which does not exist")
                continue
            for name in sorted(entries - set(public.get(header, []))):
                errors.append(f"{argv[3]}: `{name}` under {header} is not a public name declared "
                              f"there")
        for e in errors:
            print(e)
        total = sum(len(v) for v in public.values())
        print(f"{total} public names in {len(public)} headers; {len(errors)} problem(s)")
        return 1 if errors else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
