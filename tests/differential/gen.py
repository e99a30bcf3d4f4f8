#!/usr/bin/env python3
"""Seeded generator of random well-typed ctff programs (C++ source). Stdlib only.

A *program* is a set of computations: callees (mapping functions, aggregation operators, functions
called inside a trace) and one main computation. Each program is emitted twice:
  * at compile time: captureless lambdas -> ctff::computation_t, outputs are constant expressions;
  * at run time: the same bodies in lambdas that capture a run-time int (and, in some programs, the
    run-time callees by reference), so everything is traced at run time.
The generator keeps a model of TFF types and of ctff's type rules (docs/intrinsics.md) so that every
program compiles, plus the binding rules that C++ cannot follow (README.md, "Generator rules").

    gen.py --seed 17                 print program 17 as a standalone C++ TU
    gen.py --seed 17 --body          print only its computations (what a batch TU contains)
"""

from __future__ import annotations

import argparse
import zlib
import random
import struct as _struct
from dataclasses import dataclass, field
from typing import Optional

# ---------------------------------------------------------------------------------------------
# TFF types



def brace_tuples(code):
    """`std::tuple(a, b)` -> `std::tuple{a, b}` everywhere in code (outside string and character
    literals). For a value no ctff operation consumes (a variable's initializer, a dead statement):
    g++'s generated code evaluates parenthesized arguments right to left, and if no ctff operation
    sees the elements together their order cannot be restored (docs/design.md, binding order)."""
    out, stack, i, n = [], [], 0, len(code)
    while i < n:
        c = code[i]
        if c in "\"'":
            j = i + 1
            while j < n and code[j] != c:
                j += 2 if code[j] == "\\" else 1
            out.append(code[i:j + 1])
            i = j + 1
            continue
        if code.startswith("std::tuple(", i):
            out.append("std::tuple{")
            stack.append(True)
            i += len("std::tuple(")
            continue
        if c == "(":
            stack.append(False)
        elif c == ")" and stack:
            if stack.pop():
                c = "}"
        out.append(c)
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class Tensor:
    dtype: str
    shape: tuple = ()  # ints; -1 is an unknown dimension


@dataclass(frozen=True)
class Struct:
    elems: tuple  # ((name or None, type), ...)


@dataclass(frozen=True)
class Fed:
    member: object
    placement: str  # "C" or "S"
    all_equal: bool


@dataclass(frozen=True)
class Seq:
    elem: object


@dataclass(frozen=True)
class Fn:
    param: object  # None: no parameter
    result: object


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float32", "float64"]
COMPLEX = ["complex64", "complex128"]
DTYPES = INTS + FLOATS + COMPLEX + ["bool", "str"]

CXX_SCALAR = {
    "bool": "bool", "int8": "std::int8_t", "int16": "std::int16_t", "int32": "std::int32_t",
    "int64": "std::int64_t", "uint8": "std::uint8_t", "uint16": "std::uint16_t",
    "uint32": "std::uint32_t", "uint64": "std::uint64_t", "float32": "float", "float64": "double",
    "complex64": "std::complex<float>", "complex128": "std::complex<double>",
    "str": "std::string_view",
}
CTFF_DTYPE = {d: "ctff::dtype::" + d for d in DTYPES}
CTFF_DTYPE["bool"] = "ctff::dtype::bool_"

I32 = Tensor("int32")
F32 = Tensor("float32")


# Values, as the evaluator of generated programs (oracle.py) holds them: a tensor is a Ten, a
# struct a tuple of values (names come from the static type), federated values and sequences are
# oracle.Fv / oracle.Sq.
class Ten:
    """A tensor value: dtype, concrete shape, row-major elements (bool, int, float already rounded
    to the dtype, complex, bytes)."""
    __slots__ = ("dtype", "shape", "data")

    def __init__(self, dtype, shape, data):
        self.dtype = dtype
        self.shape = tuple(shape)
        self.data = list(data)

    def __repr__(self):
        return f"Ten({self.dtype}, {self.shape}, {self.data if len(self.data) < 8 else self.data[:8] + ['...']})"


def wrap_int(dtype, v):
    """v wrapped to dtype's range (two's complement)."""
    lo, hi = INT_RANGE[dtype]
    span = hi - lo + 1
    return (v - lo) % span + lo


def is_tensor(t):
    return isinstance(t, Tensor)


def tensors_only(t):
    if isinstance(t, Tensor):
        return True
    if isinstance(t, Struct):
        return all(tensors_only(e) for _, e in t.elems)
    return False


def leaves(t):
    if isinstance(t, Tensor):
        yield t
    elif isinstance(t, Struct):
        for _, e in t.elems:
            yield from leaves(e)


def all_leaves(t, pred):
    return tensors_only(t) and all(pred(l) for l in leaves(t))


def fully_defined(t):
    return all_leaves(t, lambda l: all(d >= 0 for d in l.shape))


def sum_ok(t):
    return all_leaves(t, lambda l: l.dtype in INTS + FLOATS + COMPLEX) and fully_defined(t)


def mean_ok(t):
    return all_leaves(t, lambda l: l.dtype in FLOATS + COMPLEX)


def minmax_ok(t):
    return all_leaves(t, lambda l: l.dtype in INTS + FLOATS)


def ints_ok(t):
    return all_leaves(t, lambda l: l.dtype in INTS)


def has_placed(t):
    """Contains federated or function types (not allowed in federated_value / mapped results)."""
    if isinstance(t, (Fed, Fn)):
        return True
    if isinstance(t, Struct):
        return any(has_placed(e) for _, e in t.elems)
    if isinstance(t, Seq):
        return has_placed(t.elem)
    return False


def unplaced_value_type(t):
    """A type a computation may map to / place: tensors and structs of them."""
    return tensors_only(t)


def assignable(target, source):
    """Python's Type.is_assignable_from (enough of it for the generated programs)."""
    if isinstance(target, Tensor):
        return (isinstance(source, Tensor) and source.dtype == target.dtype
                and len(source.shape) == len(target.shape)
                and all(t == -1 or t == s for t, s in zip(target.shape, source.shape)))
    if isinstance(target, Struct):
        if not isinstance(source, Struct) or len(source.elems) != len(target.elems):
            return False
        return all((sn is None or sn == tn) and assignable(te, se)
                   for (tn, te), (sn, se) in zip(target.elems, source.elems))
    if isinstance(target, Fed):
        return (isinstance(source, Fed) and source.placement == target.placement
                and (not target.all_equal or source.all_equal)
                and assignable(target.member, source.member))
    if isinstance(target, Seq):
        return isinstance(source, Seq) and assignable(target.elem, source.elem)
    if isinstance(target, Fn):
        if not isinstance(source, Fn):
            return False
        if (target.param is None) != (source.param is None):
            return False
        if target.param is not None and not assignable(source.param, target.param):
            return False
        return assignable(target.result, source.result)
    return False


def strip_fed(t):
    if isinstance(t, Fed):
        return t.member
    if isinstance(t, Struct):
        return Struct(tuple((n, strip_fed(e)) for n, e in t.elems))
    return t


def zip_info(t):
    """(all leaves federated, set of placements) of a struct to zip."""
    if isinstance(t, Fed):
        return True, {t.placement}
    if isinstance(t, Struct):
        ok, ps = True, set()
        for _, e in t.elems:
            o, p = zip_info(e)
            ok = ok and o
            ps |= p
        return ok, ps
    return False, set()


def zippable(t):
    if not isinstance(t, Struct):
        return False
    ok, ps = zip_info(t)
    return ok and len(ps) == 1


def zip_result(t):
    _, ps = zip_info(t)
    p = next(iter(ps))
    return Fed(strip_fed(t), p, p == "S")


def as_federated(t):
    """The federated type an operand has for an operator (implicit zip), or None."""
    if isinstance(t, Fed):
        return t
    if zippable(t):
        return zip_result(t)
    return None


def type_str(t):
    """TFF notation (for comments in the generated source)."""
    if isinstance(t, Tensor):
        dims = "".join("[" + ",".join("?" if d < 0 else str(d) for d in t.shape) + "]") if t.shape else ""
        return t.dtype + dims
    if isinstance(t, Struct):
        return "<" + ",".join((n + "=" if n else "") + type_str(e) for n, e in t.elems) + ">"
    if isinstance(t, Fed):
        p = "CLIENTS" if t.placement == "C" else "SERVER"
        if t.placement == "C" and not t.all_equal:
            return "{" + type_str(t.member) + "}@" + p
        return type_str(t.member) + "@" + p
    if isinstance(t, Seq):
        return type_str(t.elem) + "*"
    if isinstance(t, Fn):
        return "(" + (type_str(t.param) if t.param is not None else "") + " -> " + type_str(t.result) + ")"
    raise TypeError(t)


# ---------------------------------------------------------------------------------------------
# C++ spellings of types


def cxx_type(t, rng=None):
    """A C++ spelling of TFF type t (randomised among equivalent spellings when rng is given)."""
    if isinstance(t, Tensor):
        if any(d < 0 for d in t.shape) or (rng and t.shape and rng.random() < 0.15):
            dims = "".join(", " + ("ctff::unknown_dim" if d < 0 else str(d)) for d in t.shape)
            return f"ctff::tensor<{CTFF_DTYPE[t.dtype]}{dims}>"
        s = CXX_SCALAR[t.dtype]
        for d in reversed(t.shape):
            s = f"std::array<{s}, {d}>"
        return s
    if isinstance(t, Struct):
        named = any(n for n, _ in t.elems)
        if not named and rng and rng.random() < 0.4:
            return "std::tuple<" + ", ".join(cxx_type(e, rng) for _, e in t.elems) + ">"
        parts = []
        for n, e in t.elems:
            parts.append(f'ctff::field<"{n}", {cxx_type(e, rng)}>' if n else cxx_type(e, rng))
        return "ctff::struct_<" + ", ".join(parts) + ">"
    if isinstance(t, Fed):
        m = cxx_type(t.member, rng)
        if t.placement == "S":
            return f"ctff::at_server<{m}>"
        return f"ctff::at_clients<{m}, ctff::all_equal>" if t.all_equal else f"ctff::at_clients<{m}>"
    if isinstance(t, Seq):
        return f"ctff::sequence<{cxx_type(t.elem, rng)}>"
    if isinstance(t, Fn):
        p = "void" if t.param is None else cxx_type(t.param, rng)
        return f"ctff::function<{p}, {cxx_type(t.result, rng)}>"
    raise TypeError(t)


# ---------------------------------------------------------------------------------------------
# Literals


def c_string(bs: bytes) -> str:
    out = []
    for b in bs:
        ch = chr(b)
        # ASCII only: a byte >= 0x80 written as its Latin-1 character ('Ã' for 0xc3) would be
        # encoded in UTF-8 by the compiler (two bytes), not as the byte itself.
        if b < 0x80 and (ch.isalnum() or ch in " _-+.,:;!?()[]{}<>=/|~^&*%$#@`'"):
            out.append(ch)
        else:
            out.append("\\%03o" % b)  # octal: never swallows the next character
    return '"' + "".join(out) + '"'


STRINGS = [b"", b"a", b"nul\x00inside", b"hello", b"hello world", b"it's", b'say "hi"', b"back\\slash", b"new\nline",
           b"tab\there", b"\x01\x02", b"caf\xc3\xa9", b"\xff\xfe", b"x" * 130, b"0123456789" * 30,
           b"'\"", b"TFF", b"b'x'"]


def float_value(rng, f32):
    r = rng.random()
    pool = [0.0, -0.0, -0.0, 0.0, 1.0, -1.0, 0.5, 0.25, 0.1, 2.5, 3.0, 1e-5, 1e-4, 1e16, 1e17, 123456.789, 1e-3,
            1.5, 100.0, 0.3333333333333333, 2.0 / 3.0, 65504.0, 1e10]
    if r < 0.55:
        v = rng.choice(pool)
    elif r < 0.62:
        v = rng.choice([float("inf"), float("-inf")])
    elif r < 0.7:
        v = rng.choice([3.4028234663852886e38, 1.401298464324817e-45, 1.1754943508222875e-38,
                        -3.4028234663852886e38] if f32 else
                       [1.7976931348623157e308, 5e-324, 2.2250738585072014e-308])
    else:
        # Random bit pattern, no nan.
        while True:
            if f32:
                v = _struct.unpack("<f", _struct.pack("<I", rng.getrandbits(32)))[0]
            else:
                v = _struct.unpack("<d", _struct.pack("<Q", rng.getrandbits(64)))[0]
            if v == v:
                break
        if rng.random() < 0.5:  # a "human" magnitude
            v = round(rng.uniform(-1000, 1000), rng.randint(0, 6))
    if f32:
        v = _struct.unpack("<f", _struct.pack("<f", v))[0] if v == v and abs(v) != float("inf") else v
    return v


def float_literal(rng, v, f32):
    suffix = "f" if f32 else ""
    ty = "float" if f32 else "double"
    if v == float("inf"):
        return f"std::numeric_limits<{ty}>::infinity()"
    if v == float("-inf"):
        return f"-std::numeric_limits<{ty}>::infinity()"
    if rng.random() < 0.5 or (f32 and abs(v) > 0 and abs(v) < 1.2e-38):
        return v.hex() + suffix  # exact
    s = repr(v)
    if "e" not in s and "." not in s and "inf" not in s:
        s += ".0"
    return s + suffix


INT_RANGE = {
    "int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1),
    "int64": (-2**63, 2**63 - 1), "uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}


def int_literal(rng, dtype):
    """(C++ code, value) of a random integer of dtype."""
    lo, hi = INT_RANGE[dtype]
    r = rng.random()
    if r < 0.5:
        v = rng.randint(max(lo, -20), min(hi, 20))
    elif r < 0.7:
        v = rng.choice([lo, hi, 0, 1])
    else:
        v = rng.randint(lo, hi)
    if dtype == "int64" and v == lo:
        return "(-9223372036854775807ll - 1)", v
    if dtype == "int32" and v == lo:
        return "(-2147483647 - 1)", v
    if dtype == "uint64":
        return f"{v}ull", v
    if dtype == "int64":
        return f"{v}ll", v
    if dtype == "uint32":
        return f"{v}u", v
    return str(v), v


def scalar_code(rng, dtype, in_array):
    """C++ code of one scalar of dtype (inside a std::array initializer when in_array)."""
    return scalar_literal(rng, dtype, in_array)[0]


def scalar_literal(rng, dtype, in_array):
    """(C++ code, value) of one scalar of dtype: the value as the evaluator (oracle.py) holds an
    element (bool, int, float rounded to the dtype, complex, bytes)."""
    if dtype == "bool":
        c = rng.choice(["true", "false"])
        return c, c == "true"
    if dtype in INTS:
        v, x = int_literal(rng, dtype)
        if in_array or (dtype == "int32" and rng.random() < 0.6):
            return v, x
        return (f"{CXX_SCALAR[dtype]}{{{v}}}" if not v.startswith("(") else
                f"static_cast<{CXX_SCALAR[dtype]}>{v}"), x
    if dtype in FLOATS:
        f32 = dtype == "float32"
        x = float_value(rng, f32)
        return float_literal(rng, x, f32), x
    if dtype in COMPLEX:
        f32 = dtype == "complex64"
        xr = float_value(rng, f32)
        re = float_literal(rng, xr, f32)
        xi = float_value(rng, f32)
        im = float_literal(rng, xi, f32)
        return f"{CXX_SCALAR[dtype]}{{{re}, {im}}}", complex(xr, xi)
    if dtype == "str":
        s = rng.choice(STRINGS)
        if b"\x00" in s:
            return f"std::string_view{{{c_string(s)}, {len(s)}}}", s
        if not in_array and rng.random() < 0.3:
            return c_string(s), s  # a char array
        return f"std::string_view{{{c_string(s)}}}", s
    raise ValueError(dtype)


def literal_code(rng, t):
    """A C++ constant of type t (a tensor or a struct of tensors, unnamed structs only)."""
    return literal(rng, t)[0]


def literal(rng, t):
    """(C++ code, value) of a constant of type t: a Ten, or a tuple of values for a struct."""
    if isinstance(t, Tensor):
        if not t.shape:
            c, x = scalar_literal(rng, t.dtype, False)
            return c, Ten(t.dtype, (), [x])
        data = []

        def arr(shape):
            inner = CXX_SCALAR[t.dtype]
            for d in reversed(shape[1:]):
                inner = f"std::array<{inner}, {d}>"
            if len(shape) == 1:
                elems = []
                for _ in range(shape[0]):
                    c, x = scalar_literal(rng, t.dtype, True)
                    elems.append(c)
                    data.append(x)
            else:
                elems = [arr(shape[1:]) for _ in range(shape[0])]
            return f"std::array<{inner}, {shape[0]}>{{{', '.join(elems)}}}"

        if t.shape == (1001,):
            start = rng.randint(-5, 5)
            # harness.hpp: a[i] = static_cast<T>(start + i % 97)
            vals = [start + i % 97 for i in range(1001)]
            if t.dtype in INTS:
                vals = [wrap_int(t.dtype, v) for v in vals]
            else:
                vals = [float(v) for v in vals]
            return f"ctff_diff::ramp<{CXX_SCALAR[t.dtype]}, {t.shape[0]}>({start})", Ten(t.dtype, t.shape, vals)
        code = arr(t.shape)
        return code, Ten(t.dtype, t.shape, data)
    if isinstance(t, Struct):
        if not t.elems:
            return "std::tuple<>{}", ()
        parts = [literal(rng, e) for _, e in t.elems]
        return "std::tuple{" + ", ".join(c for c, _ in parts) + "}", tuple(v for _, v in parts)
    raise TypeError(t)


def literal_ok(t):
    """Whether a C++ constant can have type t: tensors of known shape, unnamed structs of them."""
    if isinstance(t, Tensor):
        return all(d >= 0 for d in t.shape)
    if isinstance(t, Struct):
        return all(n is None and literal_ok(e) for n, e in t.elems)
    return False


# ---------------------------------------------------------------------------------------------
# Expressions


@dataclass
class Expr:
    code: str
    type: object
    traced: bool = True   # a ctff::value (false: a C++ constant, a tuple, a computation)
    param: bool = False   # depends on a parameter of the computation being traced
    binds: bool = False   # evaluating it records a binding
    var: bool = False     # a named variable
    callees: frozenset = frozenset()  # computations referenced
    loose: bool = False   # an untraced struct holding a constant-only value with bindings (rule 6)
    ev: object = None     # what it computes: a node of the evaluator (oracle.py, "Nodes")


class NoGen(Exception):
    pass


def E(code, type_, *parts, traced=True, binds=None, var=False, callees=(), ev=None):
    """An expression built from parts; ev: the evaluator's node of what it computes."""
    p = any(x.param for x in parts)
    b = any(x.binds for x in parts) if binds is None else binds
    cs = frozenset(callees)
    for x in parts:
        cs |= x.callees
    loose = not traced and any(x.loose or (x.traced and not x.param and x.binds) for x in parts)
    return Expr(code, type_, traced, p, b, var, cs, loose, ev)


def var_expr(name, t, param):
    """A named variable (a lambda parameter, a local, a structured binding)."""
    return Expr(name, t, True, param, False, True, ev=("var", name))


# ---------------------------------------------------------------------------------------------
# Programs


@dataclass
class Comp:
    cid: str            # C++ object name: c0, c1, ...
    name: str           # the computation's name
    params: list        # [(arg name or None, type)]
    whole: bool         # the lambda takes a struct parameter whole
    body: list          # lines of the lambda body
    result: object
    callees: frozenset  # cids used by the body
    lambda_params: list
    stmts: list = None  # the body as evaluator statements (oracle.py), parallel to body
    ret: object = None  # the evaluator node of the returned value

    @property
    def param_type(self):
        if not self.params:
            return None
        if len(self.params) == 1:
            return self.params[0][1]
        return Struct(tuple((n, t) for n, t in self.params))

    @property
    def fn_type(self):
        return Fn(self.param_type, self.result)


NAMES = ["f", "g", "comp", "add", "mapped", "agg", "x", "reduce_fn", "zz_top", "a1", "_under",
         "CamelCase", "fn_with_a_rather_long_name_that_goes_on_and_on_to_make_symbols_long_"
         "enough_to_need_two_byte_lengths_in_the_wire_format_of_references"]
ARG_NAMES = ["x", "y", "z", "a", "b", "alpha", "beta", "w", "v", "k", "long_parameter_name"]
FIELD_NAMES = ["a", "b", "c", "x", "y", "u", "t", "val", "w"]


# The known-divergence bucket's kinds of programs (README.md): rule 4 broken by `auto t =
# std::tuple(x, y)` (and every `std::tuple(...)` kept), by `pair_up(x, y)`; rule 3 (dead results in
# helpers); rule 5 (a dead result followed by anything).
BUCKET_KINDS = ["tuple", "pair", "helper", "dead"]


class Program:
    def __init__(self, seed: int, opts=None):
        self.seed = seed
        self.rng = random.Random(seed)
        self.opts = opts or {}
        # Levels of nested computations (3: a callee's callee's callee). Fewer make smaller,
        # cheaper programs (the CI profile).
        self.max_depth = self.opts.get("max_depth", 3)
        self.comps: list[Comp] = []
        self.counter = 0
        self.comp_depth = 0
        self.main: Optional[Comp] = None
        self.rt_callees = self.rng.random() < 0.5
        # The known-divergence bucket (README.md, rules 3-5): the program also has the shapes the
        # rules leave out; shapes counts them (a bucket program has at least one).
        self.bucket = bool(self.opts.get("bucket"))
        # One kind of shape per bucket program (by seed), so that the counts tell the rules apart.
        self.bucket_kind = self.opts.get("bucket_kind") if self.bucket else None
        self.shapes = []

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    # --- random types -------------------------------------------------------------------------

    def rand_dtype(self, pred=None):
        rng = self.rng
        while True:
            r = rng.random()
            if r < 0.33:
                d = "int32"
            elif r < 0.55:
                d = "float32"
            elif r < 0.6:
                d = "str"
            else:
                d = rng.choice(DTYPES)
            if pred is None or pred(d):
                return d

    def rand_shape(self, dtype):
        r = self.rng.random()
        if r < 0.78:
            return ()
        if r < 0.93:
            return (self.rng.choice([0, 1, 2, 3, 4]),)
        if r < 0.995 or dtype not in INTS + FLOATS:
            return (self.rng.choice([1, 2]), self.rng.choice([2, 3]))
        return (1001,)  # numpy summarises arrays above 1000 elements

    def rand_tensor(self, pred=None, unknown=False):
        d = self.rand_dtype(pred)
        t = Tensor(d, self.rand_shape(d))
        if unknown and t.shape and self.rng.random() < 0.7:
            t = Tensor(t.dtype, tuple(-1 if self.rng.random() < 0.5 else d for d in t.shape))
        return t

    def rand_unplaced(self, depth=1, pred=None, named=None):
        """A tensor or a struct of tensors whose leaves satisfy pred(dtype)."""
        if depth <= 0 or self.rng.random() < 0.65:
            return self.rand_tensor(pred)
        n = self.rng.choice([0, 1, 2, 2, 3]) if pred is None else self.rng.choice([1, 2, 2, 3])
        is_named = self.rng.random() < 0.45 if named is None else named
        names = self.rng.sample(FIELD_NAMES, n)
        return Struct(tuple((names[i] if is_named else None, self.rand_unplaced(depth - 1, pred))
                            for i in range(n)))

    def rand_param_type(self):
        r = self.rng.random()
        if r < 0.3:
            return Fed(self.rand_unplaced(1), "C", self.rng.random() < 0.2)
        if r < 0.5:
            return Fed(self.rand_unplaced(1), "S", True)
        if r < 0.75:
            t = self.rand_unplaced(1)
            if isinstance(t, Tensor) and self.rng.random() < 0.25:
                while not t.shape:
                    t = self.rand_tensor()
                t = Tensor(t.dtype, tuple(-1 if self.rng.random() < 0.6 else d for d in t.shape))
            return t
        if r < 0.82:
            return Seq(self.rand_unplaced(1))
        if r < 0.88:
            return Fed(Seq(self.rand_unplaced(0)), "C", False)
        if r < 0.93:
            return Fn(self.rand_unplaced(0), self.rand_unplaced(0))
        # A struct of federated values (zippable).
        p = self.rng.choice(["C", "S"])
        n = self.rng.choice([2, 3])
        return Struct(tuple((None, Fed(self.rand_unplaced(0), p, p == "S")) for _ in range(n)))

    # --- computations -------------------------------------------------------------------------

    def find_callee(self, pred):
        cands = [c for c in self.comps if pred(c)]
        return self.rng.choice(cands) if cands else None

    def new_comp(self, param_types, result=None, *, main=False, require_result_param=False,
                 named=None, arg_names=None):
        """Generates a computation; result: the exact result type wanted (None: any)."""
        rng = self.rng
        cid = "m" if main else self.fresh("c")
        name = rng.choice(NAMES) if rng.random() < 0.7 else "comp_" + cid
        n = len(param_types)
        if named is None:
            named = n > 1 and rng.random() < 0.6
        if arg_names is None:
            arg_names = rng.sample(ARG_NAMES, n) if named else [None] * n
        params = list(zip(arg_names, param_types))
        whole = n > 1 and rng.random() < 0.3
        self.comp_depth += 1
        try:
            scope = Scope(self, is_main=main)
            lambda_params = []
            if n == 1:
                lp = self.fresh("p")
                lambda_params = [lp]
                scope.add_param(lp, param_types[0])
            elif whole:
                lp = self.fresh("arg")
                lambda_params = [lp]
                pt = Struct(tuple(params))
                scope.add_param(lp, pt)
            else:
                for t in param_types:
                    lp = self.fresh("p")
                    lambda_params.append(lp)
                    scope.add_param(lp, t)
            body, rtype = scope.gen_body(result, require_result_param)
        finally:
            self.comp_depth -= 1
        c = Comp(cid, name, params, whole, body, rtype, frozenset(scope.callees), lambda_params,
                 scope.stmts, scope.ret)
        if main:
            self.main = c
        else:
            self.comps.append(c)
        return c

    def callee_for(self, param, result, *, exact_param=False, allow_new=True):
        """A computation of type (param -> result): reused or new. param None: parameterless."""
        def fits(c):
            if (c.param_type is None) != (param is None):
                return False
            if param is not None and not (c.param_type == param if exact_param else
                                          assignable(c.param_type, param)):
                return False
            return c.result == result if result is not None else True
        c = self.find_callee(fits) if self.rng.random() < 0.35 else None
        if c is not None:
            return c
        if not allow_new or self.comp_depth >= self.max_depth:
            raise NoGen()
        if param is None:
            ps = []
        elif isinstance(param, Struct) and len(param.elems) > 1 and self.rng.random() < 0.5:
            # Several parameters (named after the struct's names when it has them all).
            names = [n for n, _ in param.elems]
            if all(names) or not any(names):
                return self.new_comp([t for _, t in param.elems], result,
                                     arg_names=names if all(names) else None, named=False)
            ps = [param]
        else:
            ps = [param]
        return self.new_comp(ps, result)

    # --- emission -----------------------------------------------------------------------------

    def generate(self):
        rng = self.rng
        if self.opts.get("round"):
            # A federated round, the type a DistributeAggregateForm splits (docs/forms.md):
            # (<S@SERVER, {D}@CLIENTS> -> <S@SERVER, X@SERVER>), the new state of the state's type.
            s, d, x = (self.rand_unplaced(1) for _ in range(3))
            state = Fed(s, "S", True)
            result = Struct(((None, state), (None, Fed(x, "S", True))))
            self.new_comp([state, Fed(d, "C", False)], result, main=True, require_result_param=True)
            return self
        n = rng.choice([0, 1, 1, 2, 2, 2, 3])
        if self.opts.get("params") is not None:
            n = self.opts["params"]
        ptypes = [self.rand_param_type() for _ in range(n)]
        self.new_comp(ptypes, main=True)
        if self.bucket and not self.shapes:
            raise NoGen()  # a bucket program without its bucket shape: the next attempt
        return self

    def braces(self, code):
        """brace_tuples (rule 4), except in the bucket, which keeps `std::tuple(...)` and counts it."""
        if self.bucket_kind != "tuple":
            return brace_tuples(code)
        if brace_tuples(code) != code:
            self.shapes.append("rule 4: std::tuple(...) no operation consumes")
        return code

    def comp_decl(self, c: Comp, rt: bool):
        tparams = [f'"{c.name}"']
        for n, t in c.params:
            ct = cxx_type(t, self.rng_types)
            tparams.append(f'ctff::arg<"{n}", {ct}>' if n else ct)
        if rt:
            caps = ["k"] + (["&" + x for x in sorted(c.callees)] if self.rt_callees else [])
            cap = ", ".join(caps)
        else:
            cap = ""
        lam_params = ", ".join("auto " + p for p in c.lambda_params)
        lines = [f"ctff::computation<{', '.join(tparams)}>([{cap}]({lam_params}) {{"]
        if rt:
            lines.append("  static_cast<void>(k);")
        lines += ["  " + l for l in c.body]
        lines.append("})")
        return lines

    def emit(self, ns: str):
        """The program as C++ inside namespace ns, with ct_outputs()/rt_outputs() functions."""
        out = [f"// seed {self.seed}: {self.main.name} : {type_str(self.main.fn_type)}",
               f"namespace {ns} {{"]
        ct_lines = []
        for c in self.comps + [self.main]:
            self.rng_types = random.Random(zlib.crc32(f"{self.seed}/{c.cid}/ct".encode()))
            decl = self.comp_decl(c, rt=False)
            decl[0] = f"constexpr auto {c.cid} = " + decl[0]
            decl[-1] += ";"
            ct_lines += decl
        out += ct_lines
        out.append(f"static_assert(ctff_diff::evaluated({self.main.cid}));")
        out.append("void ct_outputs(ctff_diff::outputs& o) { ctff_diff::fill(o, " + self.main.cid + "); }")
        out.append("void rt_outputs(ctff_diff::outputs& o) {")
        out.append("  const int k = ctff_diff::runtime_int();")
        for c in (self.comps if self.rt_callees else []) + [self.main]:
            self.rng_types = random.Random(zlib.crc32(f"{self.seed}/{c.cid}/rt".encode()))
            decl = self.comp_decl(c, rt=True)
            decl[0] = f"const auto {c.cid} = " + decl[0]
            decl[-1] += ";"
            out += ["  " + l for l in decl]
        out.append(f"  ctff_diff::fill(o, {self.main.cid});")
        out.append("}")
        inner = "nullptr"
        names = [c.name for c in self.comps + [self.main]]
        if self.rt_callees and self.comps and len(set(names)) == len(names):
            # The callees made inside the compile-time main computation, as run-time computations
            # (their lambdas capture): the trace traces them in place (trace/computation.hpp). With
            # distinct names only: a callee defined inside main and named like main (or like
            # another callee) is traced by Python as name_1, unlike the callee defined outside.
            self.rng_types = random.Random(zlib.crc32(f"{self.seed}/{self.main.cid}/ct".encode()))
            decl = self.comp_decl(self.main, rt=False)
            callees = ["  int k = ctff_diff::constant_int();"]  # (at run time: the captured k)
            for c in self.comps:
                self.rng_types = random.Random(zlib.crc32(f"{self.seed}/{c.cid}/rt".encode()))
                d = self.comp_decl(c, rt=True)
                d[0] = f"const auto {c.cid} = " + d[0]
                d[-1] += ";"
                callees += ["  " + l for l in d]
            decl = [f"constexpr auto inner_main = " + decl[0]] + callees + decl[1:]
            decl[-1] += ";"
            out += decl
            out.append("static_assert(ctff_diff::evaluated(inner_main));")
            out.append("void inner_outputs(ctff_diff::outputs& o) { ctff_diff::fill(o, inner_main); }")
            inner = "&inner_outputs"
            # The same at run time: each callee is traced when made, as a child of the main
            # computation's run-time trace, and embedded as it is.
            self.rng_types = random.Random(zlib.crc32(f"{self.seed}/{self.main.cid}/ct".encode()))
            decl = self.comp_decl(self.main, rt=False)
            assert "([](" in decl[0]
            decl[0] = "  const auto rt_inner_main = " + decl[0].replace("([](", "([k](", 1)
            out.append("void rt_inner_outputs(ctff_diff::outputs& o) {")
            out.append("  const int k = ctff_diff::runtime_int();")
            out += [decl[0]] + ["  " + l for l in callees[1:]] + ["  " + l for l in decl[1:]]
            out[-1] += ";"
            out.append("  ctff_diff::fill(o, rt_inner_main);")
            out.append("}")
            rt_inner = "&rt_inner_outputs"
        else:
            rt_inner = "nullptr"
        out.append(f"const bool registered = ctff_diff::add({{{self.seed}ull, &ct_outputs, &rt_outputs, {inner}, {rt_inner}}});")
        out.append(f"}}  // namespace {ns}")
        return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Bodies


class Scope:
    """One lambda body being generated: its variables and statements."""

    def __init__(self, prog: Program, is_main=False, helper=False, parent=None):
        self.prog = prog
        self.rng = prog.rng
        self.vars: list[Expr] = []
        self.lines: list[str] = []
        self.stmts: list = []  # the evaluator's statements of the lines (oracle.py)
        self.ret = None        # the evaluator's node of the result
        self.helper = helper
        self.is_main = is_main
        self.has_params = False
        self.bound = False          # a binding has been recorded in this body
        self.trace_bound = False    # a parameter-derived binding has been recorded (the trace has one)
        self.callees = set()
        self.parent = parent
        self.pending_const: Optional[Expr] = None  # a named constant-only value to consume next
        self.exact_result = False

    def add_param(self, name, t):
        self.has_params = True
        self.vars.append(var_expr(name, t, True))

    def note(self, e: Expr):
        for c in e.callees:
            self.callees.add(c)

    # --- statements ---------------------------------------------------------------------------

    def gen_body(self, result, require_result_param):
        rng = self.rng
        # A body with an exact result type never names constant-only values (the result must
        # consume them, which an exact type does not always allow).
        self.exact_result = result is not None
        depth = 2 if self.prog.comp_depth <= 1 else 1
        nstmts = rng.choice([0, 1, 2, 3, 4]) if self.prog.comp_depth <= 1 else rng.choice([0, 0, 1, 2])
        for _ in range(nstmts):
            try:
                self.gen_statement(depth)
            except NoGen:
                pass
        e = None
        if self.pending_const is not None:
            # The last named constant-only value is consumed by the result.
            v = self.pending_const
            self.pending_const = None
            if rng.random() < 0.6:
                e = v
            else:
                for _ in range(20):
                    try:
                        e = self.consume(v)
                        break
                    except NoGen:
                        continue
                else:
                    e = v
        for _ in range(30):
            if e is not None:
                break
            try:
                if result is not None:
                    e = self.gen(result, depth,
                                 req_param=(require_result_param or self.trace_bound) and self.has_params)
                else:
                    e = self.gen_result(depth)
            except NoGen:
                continue
            if self.trace_bound and e.traced and not e.param and e.binds:
                # `return v;` and `return expr;` look alike to the trace: a constant-only value with
                # bindings returned after other calls is rule 2 (README).
                e = None
        if e is None:
            if result is None or not literal_ok(result):
                raise NoGen()
            c, x = literal(rng, result)
            e = Expr(c, result, traced=False, ev=("lit", x))
        self.note(e)
        self.lines.append(f"return {e.code};")
        self.ret = e.ev
        return self.lines, e.type

    def gen_result(self, depth):
        rng = self.rng
        r = rng.random()
        want_param = self.has_params and (rng.random() < 0.85 or self.trace_bound)
        if r < 0.55:
            return self.gen(self.rand_target(), depth, req_param=want_param)
        n = rng.choice([0, 1, 2, 3]) if r < 0.97 else 0
        parts = [self.gen(self.rand_target(), depth - 1, req_param=want_param and i == 0) for i in range(n)]
        if not parts and rng.random() < 0.5:
            c, x = literal(rng, Struct(()))
            return Expr(c, Struct(()), traced=False, ev=("lit", x))
        named = parts and rng.random() < 0.5
        if named:
            names = rng.sample(FIELD_NAMES, len(parts))
            t = Struct(tuple((nm, p.type) for nm, p in zip(names, parts)))
            code = "ctff::make_struct<" + ", ".join(f'"{x}"' for x in names) + ">(" + \
                ", ".join(p.code for p in parts) + ")"
            return E(code, t, *parts, ev=("struct", [p.ev for p in parts], names))
        t = Struct(tuple((None, p.type) for p in parts))
        form = rng.choice(["std::tuple{%s}", "std::tuple(%s)", "ctff::make_struct(%s)"]) if parts else \
            "ctff::make_struct(%s)"
        return E(form % ", ".join(p.code for p in parts), t, *parts, traced=form.startswith("ctff"),
                 ev=("struct", [p.ev for p in parts]))

    def gen_statement(self, depth):
        rng = self.rng
        if self.pending_const is not None:
            self.flush_pending()
            return
        r = rng.random()
        kind = self.prog.bucket_kind
        if kind in ("tuple", "pair") and self.has_params and not self.helper and rng.random() < 0.35:
            if self.bucket_statement(depth, kind):
                return
        if kind == "helper" and not self.helper and self.prog.comp_depth <= 1 and rng.random() < 0.5:
            try:
                self.gen_helper_use(depth)
                return
            except NoGen:
                pass
        if kind == "dead" and r >= 0.12 and rng.random() < 0.3:
            r = 0.0
        seal = self.sealing_call() if r < 0.12 and self.has_params and not self.helper else None
        if seal is not None:
            # A dead result: a parameter-derived call whose value is unused (body top level only).
            # A ctff operation (traced): it consumes every operand, so a constant-only value
            # inside it is used (rule 1); a bare std::tuple would leave it unused.
            e = self.gen(self.rand_target(), depth, req_param=True, req_bind=True, traced=True)
            self.note(e)
            code = e.code[1:-1] if e.code.startswith("(") and e.code.endswith(")") else e.code
            self.lines.append(f"{self.prog.braces(code)};")
            self.stmts.append(("do", e.ev))
            self.bound = self.trace_bound = True
            # Rule 5: the next binding is a named call of variables only. Arguments g++ evaluates
            # right to left later cannot be told from a helper's unused result otherwise.
            if kind == "dead" and rng.random() < 0.7:
                self.prog.shapes.append("rule 5: a dead result not followed by a named call")
                return
            self.name_value(seal)
            return
        if r < 0.2 and not self.helper and self.prog.comp_depth <= 1:
            self.gen_helper_use(depth)
            return
        if r < 0.26:
            # Structured bindings of a struct variable.
            svars = [v for v in self.vars if self.struct_of(v.type) is not None and
                     self.struct_of(v.type).elems and (v.param or not self.has_params)]
            if svars:
                v = rng.choice(svars)
                st = self.struct_of(v.type)
                names = [self.prog.fresh("s") for _ in st.elems]
                self.lines.append(f"auto [{', '.join(names)}] = {v.code};")
                self.stmts.append(("unpack", names, v.ev))
                for nm, (_, et) in zip(names, st.elems):
                    t = et if not isinstance(v.type, Fed) else self.fed_get_type(v.type, et)
                    self.vars.append(var_expr(nm, t, v.param))
                return
        want_param = self.has_params and (rng.random() < 0.9 or self.trace_bound)
        e = self.gen(self.rand_target(), depth, req_param=want_param)
        if not e.traced:
            raise NoGen()
        self.name_value(e)

    def bucket_statement(self, depth, kind):
        """The bucket's shapes of rule 4 (README.md), with two parameter-derived calls x and y that
        no ctff operation sees together: `auto t = std::tuple(x, y);` (its elements used later
        through selections), or a helper of two parameters returning make_struct of them, called
        as `pair_up(x, y)`. Returns whether a statement was written."""
        rng = self.rng
        try:
            x = self.gen(self.rand_target(), depth - 1, req_param=True, req_bind=True, traced=True)
            y = self.gen(self.rand_target(), depth - 1, req_param=True, req_bind=True, traced=True)
        except NoGen:
            return False
        self.note(x)
        self.note(y)
        t = Struct(((None, x.type), (None, y.type)))
        name = self.prog.fresh("v")
        if kind == "tuple":
            self.lines.append(f"auto {name} = std::tuple({x.code}, {y.code});")
            self.stmts.append(("let", name, ("struct", [x.ev, y.ev])))
            self.prog.shapes.append("rule 4: auto t = std::tuple(x, y)")
            v = var_expr(name, t, True)
            v.traced = False
            v.std_tuple = True
        else:
            hname = self.prog.fresh("pair_up")
            a, b = self.prog.fresh("x"), self.prog.fresh("y")
            cap = "&" if self.prog.rt_callees else ""
            self.lines.append(f"auto {hname} = [{cap}](auto {a}, auto {b}) {{ return ctff::make_struct({a}, {b}); }};")
            self.stmts.append(("helper2", hname, [a, b], [], ("struct", [("var", a), ("var", b)])))
            self.lines.append(f"auto {name} = {hname}({x.code}, {y.code});")
            self.stmts.append(("let", name, ("hcall2", hname, [x.ev, y.ev])))
            self.prog.shapes.append("rule 4: pair_up(x, y) returning make_struct(x, y)")
            v = var_expr(name, t, True)
        self.vars.append(v)
        self.bound = self.trace_bound = True
        return True

    def sealing_call(self):
        """A call of one parameter-derived variable (one binding, no temporaries), or None."""
        for v in self.rng.sample(self.vars, len(self.vars)):
            if not (v.param and v.traced):
                continue
            t = v.type
            if isinstance(t, Fed) and t.placement == "S":
                return E(f"ctff::federated_broadcast({v.code})", Fed(t.member, "C", True), v, binds=True,
                         ev=("bcast", v.ev))
            if unplaced_value_type(t):
                return E(f"ctff::federated_value({v.code}, ctff::SERVER)", Fed(t, "S", True), v,
                         binds=True, ev=("value", v.ev, "S"))
        return None

    def name_value(self, e):
        const_only = not e.param
        if const_only:
            # Rule 2: a named constant-only value only where nothing else is bound before its first
            # use; it is consumed by the next statement (or the result).
            if self.helper or self.exact_result or self.trace_bound or self.pending_const is not None:
                raise NoGen()
        name = self.prog.fresh("v")
        self.note(e)
        self.lines.append(f"auto {name} = {self.prog.braces(e.code)};")
        self.stmts.append(("let", name, e.ev))
        v = var_expr(name, e.type, e.param)
        self.vars.append(v)
        if e.binds:
            self.bound = True
            self.trace_bound |= e.param
        if const_only:
            self.pending_const = v

    def flush_pending(self):
        """Names an operation that consumes the pending constant-only value, nothing else bound."""
        v = self.pending_const
        self.pending_const = None
        for _ in range(20):
            try:
                e = self.consume(v)
            except NoGen:
                continue
            name = self.prog.fresh("v")
            self.note(e)
            self.lines.append(f"auto {name} = {self.prog.braces(e.code)};")
            self.stmts.append(("let", name, e.ev))
            w = var_expr(name, e.type, e.param)
            self.vars.append(w)
            self.bound = True
            self.trace_bound |= e.param
            if not e.param:
                self.pending_const = w  # still constant-only: the next statement consumes it
            return
        raise AssertionError("could not consume " + v.code + " : " + type_str(v.type))

    def consume(self, v):
        """An operation binding a call that takes v directly, other operands binding nothing."""
        rng = self.rng
        t = v.type
        ops = []
        if isinstance(t, Fed):
            m = t.member
            if t.placement == "S":
                ops.append(lambda: E(f"ctff::federated_broadcast({v.code})", Fed(m, "C", True), v, binds=True,
                                     ev=("bcast", v.ev)))
            else:
                if sum_ok(m):
                    ops.append(lambda: E(f"ctff::federated_sum({v.code})", Fed(m, "S", True), v, binds=True,
                                         ev=("sum", v.ev, m)))
                if minmax_ok(m):
                    ops.append(lambda: E(f"ctff::federated_max({v.code})", Fed(m, "S", True), v, binds=True,
                                         ev=("max", v.ev, m)))
            if unplaced_value_type(m):
                ops.append(lambda: self.op_map(None, 0, False, operand=v))
            others = [x for x in self.vars if isinstance(x.type, Fed) and x.type.placement == t.placement
                      and x is not v]
            if others:
                def z():
                    o = rng.choice(others)
                    a, b = (v, o) if rng.random() < 0.5 else (o, v)
                    st = Struct(((None, a.type), (None, b.type)))
                    return E(f"ctff::federated_zip({a.code}, {b.code})", zip_result(st), a, b, binds=True,
                             ev=("zip", ("struct", [a.ev, b.ev])))
                ops.append(z)
        elif tensors_only(t):
            if not isinstance(t, Struct) or t.elems:
                def place():
                    p = rng.choice(["S", "C"])
                    where = "SERVER" if p == "S" else "CLIENTS"
                    return E(f"ctff::federated_value({v.code}, ctff::{where})", Fed(t, p, True), v, binds=True,
                             ev=("value", v.ev, p))
                ops.append(place)
                def self_op():
                    op = rng.choice(['+', '*'])
                    return E(f"({v.code} {op} {v.code})", t, v, binds=True, ev=("generic", op, v.ev, v.ev))
                ops.append(self_op)
        if not ops or rng.random() < 0.1:
            ops.append(lambda: self.call_with(v))
        return rng.choice(ops)()

    # --- helpers ------------------------------------------------------------------------------

    def gen_helper_use(self, depth):
        """auto h = [](auto a) { auto s = ...; auto t = ...; return t; }; then uses of h."""
        rng = self.rng
        args = [v for v in self.vars if v.param and not isinstance(v.type, Fn)]
        if not args:
            raise NoGen()
        arg = rng.choice(args)
        h = Scope(self.prog, helper=True, parent=self)
        h.exact_result = False
        hp = self.prog.fresh("a")
        h.add_param(hp, arg.type)
        for _ in range(rng.choice([1, 2, 2, 3])):
            try:
                e = h.gen(h.rand_target(), 1, req_param=True)
                if self.prog.bucket_kind == "helper" and e.binds and rng.random() < 0.7:
                    # Rule 3 (bucket): a dead result inside a helper.
                    h.note(e)
                    code = e.code[1:-1] if e.code.startswith("(") and e.code.endswith(")") else e.code
                    h.lines.append(f"{code};")
                    h.stmts.append(("do", e.ev))
                    h.bound = True
                    self.prog.shapes.append("rule 3: a dead result inside a helper")
                elif e.traced:
                    h.name_value(e)
            except NoGen:
                pass
        last = [v for v in h.vars if v.param and v.code != hp]
        if len(last) > 1:
            # Every named local is used (rule 3): an unused call in a helper and an unused result
            # before the helper's call look alike when g++ evaluates arguments right to left.
            ret = E("ctff::make_struct(" + ", ".join(v.code for v in last) + ")",
                    Struct(tuple((None, v.type) for v in last)), *last, ev=("struct", [v.ev for v in last]))
        elif last:
            ret = last[0]
        else:
            ret = h.gen(h.rand_target(), 1, req_param=True)
        if ret.loose:
            # Rule 6: the helper's result may never meet a ctff operation; a std::tuple would leave
            # its constant-only element unused. ctff::make_struct consumes it at once.
            assert ret.code.startswith(("std::tuple{", "std::tuple(")), ret.code
            inner = ret.code[len("std::tuple("):-1]
            ret = Expr(f"ctff::make_struct({inner})", ret.type, True, ret.param, ret.binds, False,
                       ret.callees, ev=ret.ev)
        h.note(ret)
        hname = self.prog.fresh("h")
        cap = "&" if h.callees and self.prog.rt_callees else ""
        body = " ".join(h.lines + [f"return {ret.code};"])
        self.lines.append(f"auto {hname} = [{cap}](auto {hp}) {{ {body} }};")
        self.stmts.append(("helper", hname, hp, h.stmts, ret.ev))
        self.callees |= h.callees
        helper = Helper(hname, arg.type, ret.type, frozenset(h.callees), h.bound or ret.binds)
        self.helpers.append(helper)
        # Used at once; it stays available as an argument of later expressions.
        e = self.use_helper(helper, arg)
        if e.binds:
            self.name_value(e)
        else:
            self.lines.append(f"static_cast<void>({e.code});")
            self.stmts.append(("do", e.ev))

    @property
    def helpers(self):
        if not hasattr(self, "_helpers"):
            self._helpers = []
        return self._helpers

    # --- targets ------------------------------------------------------------------------------

    def rand_target(self):
        """A type to produce, mostly one related to the values at hand."""
        rng = self.rng
        if self.vars and rng.random() < 0.75:
            v = rng.choice(self.vars)
            t = v.type
            if isinstance(t, Fn):
                t = t.result
            if isinstance(t, Seq):
                return t.elem if rng.random() < 0.5 else Seq(t.elem)
            if isinstance(t, Fed):
                m = t.member
                if isinstance(m, Seq):
                    return rng.choice([Fed(m.elem, t.placement, t.placement == "S"), t])
                choices = [Fed(m, "S", True), Fed(m, "C", False), Fed(m, "C", True), m]
                st = self.struct_of(t)
                if st is not None and st.elems:
                    e = rng.choice(st.elems)[1]
                    choices.append(self.fed_get_type(t, e))
                return rng.choice(choices)
            if isinstance(t, Struct):
                if t.elems and rng.random() < 0.5:
                    e = rng.choice(t.elems)[1]
                    return e
                if tensors_only(t):
                    return rng.choice([t, Fed(t, "S", True), Fed(t, "C", False)])
                return t
            return rng.choice([t, Fed(t, "S", True), Fed(t, "C", True), Fed(t, "C", False)])
        u = self.prog.rand_unplaced(1)
        return rng.choice([u, Fed(u, "S", True), Fed(u, "C", False), Fed(u, "C", True)])

    @staticmethod
    def struct_of(t):
        if isinstance(t, Struct):
            return t
        if isinstance(t, Fed) and isinstance(t.member, Struct):
            return t.member
        return None

    @staticmethod
    def fed_get_type(t, e):
        if t.placement == "S":
            return Fed(e, "S", True)
        return Fed(e, "C", t.all_equal)

    # --- expressions --------------------------------------------------------------------------

    def gen(self, T, depth, req_param=False, req_bind=False, nobind=False, traced=False):
        """An expression whose type is assignable to T (exactly T for unplaced types)."""
        rng = self.rng
        cands = self.producers(T, depth, req_param, req_bind, nobind, traced)
        if not cands:
            raise NoGen()
        total = sum(w for w, _ in cands)
        tried = 0
        while cands and tried < 6:
            tried += 1
            x = rng.uniform(0, total)
            for i, (w, f) in enumerate(cands):
                x -= w
                if x <= 0:
                    break
            w, f = cands.pop(i)
            total -= w
            try:
                e = f()
            except NoGen:
                continue
            if req_param and not e.param:
                continue
            if req_bind and not e.binds:
                continue
            if nobind and e.binds:
                continue
            if traced and not e.traced:
                continue
            if not self.fits(T, e.type):
                raise AssertionError(f"generated {type_str(e.type)} for {type_str(T)}: {e.code}")
            return e
        raise NoGen()

    @staticmethod
    def fits(T, t):
        """Whether a produced t may stand where T is wanted: federated parts assignable (an
        all_equal value where {T}@CLIENTS is wanted), everything else exact."""
        if isinstance(T, Fed):
            return assignable(T, t)
        if isinstance(T, Struct):
            return (isinstance(t, Struct) and len(t.elems) == len(T.elems)
                    and all(tn == sn and Scope.fits(te, se) for (tn, te), (sn, se) in zip(T.elems, t.elems)))
        return t == T

    def producers(self, T, depth, req_param, req_bind, nobind, traced):
        rng = self.rng
        P = []
        # Variables.
        for v in self.vars:
            if self.fits(T, v.type) and (v.param or not req_param) and not req_bind:
                P.append((6.0, lambda v=v: v))
        # Helpers taking a variable.
        if not nobind:
            for h in self.helpers:
                if self.fits(T, h.result):
                    args = [v for v in self.vars if v.type == h.param and v.param]
                    if args:
                        P.append((8.0, lambda h=h, args=args: self.use_helper(h, rng.choice(args))))
        sub = depth - 1
        if isinstance(T, (Tensor, Struct)) and tensors_only(T):
            if not req_param and not req_bind and not traced and literal_ok(T):
                P.append((1.5 if depth > 0 else 4.0, lambda: self.literal_expr(T)))
            if isinstance(T, Struct) and (depth > 0 or nobind):
                P.append((2.0, lambda: self.op_make_struct(T, max(sub, 0), req_param, nobind)))
            if depth > 0 and not nobind:
                P.append((2.5, lambda: self.op_generic(T, sub, req_param)))
                P.append((1.0, lambda: self.op_call(T, sub, req_param)))
                P.append((1.0, lambda: self.op_seq_to_unplaced(T, sub, req_param)))
                if not req_param and not req_bind and rng.random() < 0.3:
                    P.append((0.15, lambda: Expr(f"ctff::generic_zero<{cxx_type(T, rng)}>()", T, ev=("zero", T))))
            P.append((1.5, lambda: self.op_select(T, max(sub, 0), req_param, nobind)))
            if depth <= 0 and traced and not req_param and not nobind:
                P.append((0.3, lambda: Expr(f"ctff::generic_zero<{cxx_type(T, rng)}>()", T, ev=("zero", T))))
                if literal_ok(T) and not (isinstance(T, Struct) and not T.elems):
                    # A traced constant: a struct of the constant made with make_struct.
                    P.append((0.7, lambda: self.traced_constant(T)))
        elif isinstance(T, Struct):
            if depth > 0 or nobind:
                P.append((3.0, lambda: self.op_make_struct(T, max(sub, 0), req_param, nobind)))
            P.append((1.0, lambda: self.op_select(T, max(sub, 0), req_param, nobind)))
            if depth > 0 and not nobind:
                P.append((0.5, lambda: self.op_call(T, sub, req_param)))
        elif isinstance(T, Fed):
            P.append((1.0, lambda: self.op_select(T, max(sub, 0), req_param, nobind)))
            if not nobind:
                m = T.member
                if depth > 0:
                    P += self.fed_producers(T, sub, req_param)
                elif not req_param and unplaced_value_type(m) and literal_ok(m) and \
                        (T.placement == "C" or True):
                    # Depth exhausted: place a constant.
                    where = "CLIENTS" if T.placement == "C" else "SERVER"
                    def place_constant():
                        c, x = literal(rng, m)
                        return E(f"ctff::federated_value({c}, ctff::{where})", Fed(m, T.placement, True),
                                 binds=True, ev=("value", ("lit", x), T.placement))
                    P.append((1.0, place_constant))
        elif isinstance(T, Seq):
            if depth > 0 and not nobind:
                P.append((2.0, lambda: self.op_seq_map(T, sub, req_param)))
                P.append((0.5, lambda: self.op_call(T, sub, req_param)))
        elif isinstance(T, Fn):
            pass
        return P

    def fed_producers(self, T, d, req_param):
        rng = self.rng
        m, p = T.member, T.placement
        P = []
        if isinstance(m, Seq):
            P.append((2.0, lambda: self.op_seq_map(T, d, req_param)))
            return P
        if unplaced_value_type(m):
            where = "CLIENTS" if p == "C" else "SERVER"
            def place():
                x = self.gen(m, d, req_param)
                return E(f"ctff::federated_value({x.code}, ctff::{where})", Fed(m, p, True), x, binds=True,
                         ev=("value", x.ev, p))
            P.append((1.5, place))
            P.append((2.0, lambda: self.op_map(T, d, req_param)))
            if not req_param:
                P.append((0.7, lambda: self.op_eval(T, d)))
            P.append((0.8, lambda: self.op_seq_fed(T, d, req_param)))
        if p == "C" and T.all_equal is not None:
            def bc():
                x = self.fed_operand(Fed(m, "S", True), d, req_param)
                return E(f"ctff::federated_broadcast({x.code})", Fed(m, "C", True), x, binds=True,
                         ev=("bcast", x.ev))
            P.append((2.0, bc))
        if p == "S":
            if sum_ok(m):
                P.append((2.0, lambda: self.op_agg("federated_sum", T, d, req_param)))
            if mean_ok(m):
                P.append((1.0, lambda: self.op_agg("federated_mean", T, d, req_param)))
                P.append((0.7, lambda: self.op_weighted_mean(T, d, req_param)))
            if minmax_ok(m):
                P.append((0.7, lambda: self.op_agg("federated_min", T, d, req_param)))
                P.append((0.7, lambda: self.op_agg("federated_max", T, d, req_param)))
            if ints_ok(m) and (not isinstance(m, Struct) or m.elems):
                P.append((1.6, lambda: self.op_secure(T, d, req_param)))
            if unplaced_value_type(m):
                P.append((0.8, lambda: self.op_aggregate(T, d, req_param)))
        if isinstance(m, Struct) and m.elems:
            P.append((2.5, lambda: self.op_zip(T, d, req_param)))
        P.append((0.6, lambda: self.op_call(T, d, req_param)))
        return P

    # --- operators ----------------------------------------------------------------------------

    def fed_operand(self, T, d, req_param):
        """An operand for an operator expecting T (federated): a value, or a struct to zip."""
        rng = self.rng
        m = T.member
        if isinstance(m, Struct) and m.elems and rng.random() < 0.2 and \
                not (T.placement == "C" and T.all_equal):
            parts = []
            k = rng.randrange(len(m.elems))
            for i, (n, e) in enumerate(m.elems):
                et = Fed(e, T.placement, T.placement == "S" or rng.random() < 0.3)
                parts.append(self.gen(et, d, req_param and i == k))
            if any(n for n, _ in m.elems):
                code = "ctff::make_struct<" + ", ".join(f'"{n}"' for n, _ in m.elems) + ">(" + \
                    ", ".join(x.code for x in parts) + ")"
                st = Struct(tuple((n, x.type) for (n, _), x in zip(m.elems, parts)))
                return E(code, st, *parts, ev=("struct", [x.ev for x in parts], [n for n, _ in m.elems]))
            code = rng.choice(["std::tuple{%s}", "ctff::make_struct(%s)"]) % ", ".join(x.code for x in parts)
            return E(code, Struct(tuple((None, x.type) for x in parts)), *parts,
                     traced=code.startswith("ctff"), ev=("struct", [x.ev for x in parts]))
        return self.gen(T, d, req_param)

    def use_helper(self, h, arg):
        return E(f"{h.name}({arg.code})", h.result, arg, binds=h.binds, callees=h.callees,
                 ev=("hcall", h.name, arg.ev))

    def op_make_struct(self, T, d, req_param, nobind):
        rng = self.rng
        if not T.elems:
            if req_param:
                raise NoGen()
            if rng.random() < 0.5:
                return Expr("std::tuple<>{}", T, traced=False, ev=("struct", []))
            return Expr("ctff::make_struct()", T, ev=("struct", []))
        k = rng.randrange(len(T.elems))
        parts = [self.gen(e, d, req_param and i == k, nobind=nobind) for i, (_, e) in enumerate(T.elems)]
        named = any(n for n, _ in T.elems)
        if named:
            if not all(n for n, _ in T.elems):
                raise NoGen()  # partly named structs only come from parameters
            code = "ctff::make_struct<" + ", ".join(f'"{n}"' for n, _ in T.elems) + ">(" + \
                ", ".join(x.code for x in parts) + ")"
            return E(code, T, *parts, ev=("struct", [x.ev for x in parts], [n for n, _ in T.elems]))
        ev = ("struct", [x.ev for x in parts])
        if all(not x.traced for x in parts) or rng.random() < 0.5:
            form = rng.choice(["std::tuple{%s}", "std::tuple(%s)"]) if len(parts) != 1 else "std::tuple{%s}"
            return E(form % ", ".join(x.code for x in parts), T, *parts, traced=False, ev=ev)
        return E("ctff::make_struct(" + ", ".join(x.code for x in parts) + ")", T, *parts, ev=ev)

    def op_select(self, T, d, req_param, nobind):
        """get<i>/get<"name">/v[i_c] of a struct variable that has an element of type T."""
        rng = self.rng
        cands = []
        for v in self.vars:
            if req_param and not v.param:
                continue
            st = self.struct_of(v.type)
            if st is None:
                continue
            if isinstance(v.type, Fed) and not isinstance(T, Fed):
                continue
            for i, (n, e) in enumerate(st.elems):
                t = self.fed_get_type(v.type, e) if isinstance(v.type, Fed) else e
                if self.fits(T, t):
                    cands.append((v, i, n, t))
        if not cands:
            raise NoGen()
        v, i, n, t = rng.choice(cands)
        r = rng.random()
        if getattr(v, "std_tuple", False):
            code = f"std::get<{i}>({v.code})"  # the bucket's `auto t = std::tuple(x, y);`
        elif n and r < 0.4:
            code = f'ctff::get<"{n}">({v.code})'
        elif r < 0.8:
            code = f"ctff::get<{i}>({v.code})"
        elif n and r < 0.9:
            code = f'{v.code}["{n}"_f]'
        else:
            code = f"{v.code}[{i}_c]"
        return E(code, t, v, ev=("sel", v.ev, i))

    def traced_constant(self, T):
        """A traced value made of constants only, binding nothing: get<0>(make_struct(c))."""
        c, x = literal(self.rng, T)
        return Expr(f"ctff::get<0>(ctff::make_struct({c}))", T, ev=("lit", x))

    def literal_expr(self, T):
        c, x = literal(self.rng, T)
        return Expr(c, T, traced=False, ev=("lit", x))

    def op_generic(self, T, d, req_param):
        rng = self.rng
        op = rng.choice(["+", "+", "*", "/"])
        left_first = rng.random() < 0.5
        a = self.gen(T, d, req_param, traced=True)
        b = self.gen(T, d, False)
        x, y = (a, b) if left_first else (b, a)
        return E(f"({x.code} {op} {y.code})", T, x, y, binds=True, ev=("generic", op, x.ev, y.ev))

    def call_with(self, v):
        """A call of a computation (or function value) taking v."""
        c = self.prog.callee_for(v.type, None)
        self.callees.add(c.cid)
        return E(f"{c.cid}({v.code})", c.result, v, binds=True, callees={c.cid}, ev=("call", c.cid, v.ev))

    def op_call(self, T, d, req_param):
        """A call of a computation returning T: fn(x), fn(a, b), fn(), or a function value."""
        rng = self.rng
        prog = self.prog
        # Function-typed variables.
        fvars = [v for v in self.vars if isinstance(v.type, Fn) and v.type.result == T]
        if fvars and rng.random() < 0.5:
            f = rng.choice(fvars)
            if f.type.param is None:
                return E(f"{f.code}()", T, f, binds=True, ev=("fcall", f.ev, None))
            x = self.gen(f.type.param, d, req_param=False)
            return E(f"{f.code}({x.code})", T, f, x, binds=True, ev=("fcall", f.ev, x.ev))
        if isinstance(T, Fed) and T.placement == "C" and T.all_equal:
            raise NoGen()  # keep callee results exact
        # A parameter type from the values at hand.
        pool = [v for v in self.vars if not isinstance(v.type, Fn) and (v.param or not req_param)]
        r = rng.random()
        if not pool or r < 0.15:
            if req_param:
                raise NoGen()
            c = prog.callee_for(None, T)
            self.callees.add(c.cid)
            return E(f"{c.cid}()", T, binds=True, callees={c.cid}, ev=("call", c.cid, None))
        if r < 0.35 and len(pool) >= 2:
            a, b = rng.sample(pool, 2)
            c = prog.callee_for(Struct(((None, a.type), (None, b.type))), T)
            self.callees.add(c.cid)
            ev = ("call", c.cid, ("struct", [a.ev, b.ev]))
            if len(c.params) == 2 and rng.random() < 0.7:
                # Two arguments: Python packs them into a struct named like the parameter.
                return E(f"{c.cid}({a.code}, {b.code})", T, a, b, binds=True, callees={c.cid},
                         ev=ev + ("args",))
            form = rng.choice(["std::tuple{%s}", "ctff::make_struct(%s)"])
            return E(f"{c.cid}({form % (a.code + ', ' + b.code)})", T, a, b, binds=True, callees={c.cid}, ev=ev)
        x = rng.choice(pool)
        c = prog.callee_for(x.type, T)
        self.callees.add(c.cid)
        return E(f"{c.cid}({x.code})", T, x, binds=True, callees={c.cid}, ev=("call", c.cid, x.ev))

    def mapping_fn(self, param, result):
        fvars = [v for v in self.vars if isinstance(v.type, Fn) and v.type.param is not None
                 and (param is None) == (v.type.param is None) and assignable(v.type.param, param)
                 and (result is None or v.type.result == result) and unplaced_value_type(v.type.result)]
        if fvars and self.rng.random() < 0.6:
            return self.rng.choice(fvars)
        c = self.prog.callee_for(param, result)
        self.callees.add(c.cid)
        return Expr(c.cid, c.fn_type, traced=False, callees=frozenset({c.cid}), ev=("comp", c.cid))

    def op_map(self, T, d, req_param, operand=None):
        """federated_map(fn, v) / federated_map_all_equal(fn, v) producing T (or, with operand,
        mapping that operand with a new function)."""
        rng = self.rng
        if operand is not None:
            v = operand
            vt = as_federated(v.type)
            fn = self.mapping_fn(vt.member, None)
            R = fn.type.result
            if not unplaced_value_type(R):
                raise NoGen()
            if vt.placement == "S":
                return E(f"ctff::federated_map({fn.code}, {v.code})", Fed(R, "S", True), fn, v, binds=True,
                         ev=("map", fn.ev, v.ev, "S"))
            if vt.all_equal and rng.random() < 0.4:
                return E(f"ctff::federated_map_all_equal({fn.code}, {v.code})", Fed(R, "C", True), fn, v,
                         binds=True, ev=("map", fn.ev, v.ev, "AE"))
            return E(f"ctff::federated_map({fn.code}, {v.code})", Fed(R, "C", False), fn, v, binds=True,
                     ev=("map", fn.ev, v.ev, "C"))
        R = T.member
        if not unplaced_value_type(R):
            raise NoGen()
        src_m = self.source_member(T.placement)
        if T.placement == "C" and T.all_equal:
            v = self.gen(Fed(src_m, "C", True), d, req_param)
            fn = self.mapping_fn(src_m, R)
            return E(f"ctff::federated_map_all_equal({fn.code}, {v.code})", T, fn, v, binds=True,
                     ev=("map", fn.ev, v.ev, "AE"))
        if T.placement == "S":
            v = self.fed_operand(Fed(src_m, "S", True), d, req_param)
        else:
            v = self.fed_operand(Fed(src_m, "C", False), d, req_param)
        vt = as_federated(v.type)
        fn = self.mapping_fn(vt.member, R)
        return E(f"ctff::federated_map({fn.code}, {v.code})", Fed(R, T.placement, T.placement == "S"), fn, v,
                 binds=True, ev=("map", fn.ev, v.ev, T.placement))

    def source_member(self, placement):
        """A member type to map from: one of the federated values at hand, or random."""
        rng = self.rng
        ms = [v.type.member for v in self.vars if isinstance(v.type, Fed) and v.type.placement == placement
              and unplaced_value_type(v.type.member)]
        if ms and rng.random() < 0.8:
            return rng.choice(ms)
        return self.prog.rand_unplaced(1)

    def op_eval(self, T, d):
        if T.placement == "C" and T.all_equal:
            raise NoGen()
        fn = self.mapping_fn(None, T.member)
        where = "CLIENTS" if T.placement == "C" else "SERVER"
        t = Fed(T.member, T.placement, T.placement == "S")
        return E(f"ctff::federated_eval({fn.code}, ctff::{where})", t, fn, binds=True,
                 ev=("eval", fn.ev, T.placement))

    def op_agg(self, op, T, d, req_param):
        v = self.fed_operand(Fed(T.member, "C", False), d, req_param)
        kind = {"federated_sum": "sum", "federated_mean": "mean", "federated_min": "min",
                "federated_max": "max"}[op]
        return E(f"ctff::{op}({v.code})", T, v, binds=True, ev=(kind, v.ev, T.member))

    def op_weighted_mean(self, T, d, req_param):
        rng = self.rng
        v = self.fed_operand(Fed(T.member, "C", False), d, req_param)
        wt = Tensor(rng.choice(["float32", "int32", "float64", "int64", "uint8"]))
        w = self.gen(Fed(wt, "C", False), d, False)
        return E(f"ctff::federated_mean({v.code}, {w.code})", T, v, w, binds=True,
                 ev=("wmean", v.ev, w.ev, T.member, wt.dtype))

    def bound_code(self, m):
        """(C++ code, value, Python code) of a secure-sum bound for member type m: the value an int
        (one bound for every leaf) or a tuple shaped like m."""
        rng = self.rng

        def scalar():
            d = rng.choice(INTS)
            c, x = scalar_literal(rng, d, False)
            return c, x, py_scalar(d, x)
        if isinstance(m, Struct) and rng.random() < 0.5:
            def rep(t):
                if isinstance(t, Struct):
                    parts = [rep(e) for _, e in t.elems]
                    vals = tuple(v for _, v, _ in parts)
                    if any(n for n, _ in t.elems):
                        return "ctff::make_struct<" + ", ".join(f'"{n}"' for n, _ in t.elems) + ">(" + \
                            ", ".join(c for c, _, _ in parts) + ")", vals, \
                            py_struct([p for _, _, p in parts], [n for n, _ in t.elems])
                    return "std::tuple{" + ", ".join(c for c, _, _ in parts) + "}", vals, \
                        py_struct([p for _, _, p in parts])
                return scalar()
            return rep(m)
        return scalar()

    def op_secure(self, T, d, req_param):
        rng = self.rng
        v = self.fed_operand(Fed(T.member, "C", False), d, req_param)
        op = rng.choice(["federated_secure_sum", "federated_secure_sum_bitwidth"])
        b, bv, bpy = self.bound_code(T.member)
        return E(f"ctff::{op}({v.code}, {b})", T, v, binds=True,
                 ev=("secure", v.ev, bv, op.endswith("bitwidth"), T.member, bpy))

    def op_aggregate(self, T, d, req_param):
        rng = self.rng
        vm = self.source_member("C")
        v = self.fed_operand(Fed(vm, "C", False), d, req_param)
        vm = as_federated(v.type).member
        U = self.prog.rand_unplaced(1) if rng.random() < 0.5 else vm
        if not literal_ok(U) and rng.random() < 0.5:
            raise NoGen()
        zero = self.gen(U, 0, False)
        prog = self.prog
        named = rng.random() < 0.4
        acc = prog.find_callee(lambda c: c.param_type is not None and isinstance(c.param_type, Struct)
                               and len(c.params) == 2 and c.params[0][1] == U and c.params[1][1] == vm
                               and c.result == U) if rng.random() < 0.3 else None
        if acc is None:
            if prog.comp_depth >= prog.max_depth:
                raise NoGen()
            acc = prog.new_comp([U, vm], U, named=named)
        mrg = prog.find_callee(lambda c: len(c.params) == 2 and c.params[0][1] == U and c.params[1][1] == U
                               and c.result == U) if rng.random() < 0.4 else None
        if mrg is None:
            mrg = prog.new_comp([U, U], U, named=rng.random() < 0.4)
        rep = prog.callee_for(U, T.member, exact_param=True)
        for c in (acc, mrg, rep):
            self.callees.add(c.cid)
        return E(f"ctff::federated_aggregate({v.code}, {zero.code}, {acc.cid}, {mrg.cid}, {rep.cid})", T, v, zero,
                 binds=True, callees={acc.cid, mrg.cid, rep.cid}, ev=("agg", v.ev, zero.ev, acc.cid, rep.cid, mrg.cid))

    def op_zip(self, T, d, req_param):
        rng = self.rng
        m = T.member
        p = T.placement
        if p == "C" and T.all_equal:
            raise NoGen()
        # Nested struct of federated values with m's names.
        k = rng.randrange(len(m.elems))

        def build(st, rp):
            parts = []
            kk = rng.randrange(len(st.elems)) if st.elems else -1
            for i, (n, e) in enumerate(st.elems):
                if isinstance(e, Struct) and e.elems and rng.random() < 0.3:
                    parts.append(build(e, rp and i == kk))
                else:
                    parts.append(self.gen(Fed(e, p, p == "S" or rng.random() < 0.3), d, rp and i == kk))
            if any(n for n, _ in st.elems):
                code = "ctff::make_struct<" + ", ".join(f'"{n}"' for n, _ in st.elems) + ">(" + \
                    ", ".join(x.code for x in parts) + ")"
                return E(code, Struct(tuple((n, x.type) for (n, _), x in zip(st.elems, parts))), *parts,
                         ev=("struct", [x.ev for x in parts], [n for n, _ in st.elems]))
            code = rng.choice(["std::tuple{%s}", "std::tuple(%s)", "ctff::make_struct(%s)"]) % \
                ", ".join(x.code for x in parts)
            return E(code, Struct(tuple((None, x.type) for x in parts)), *parts, traced=code.startswith("ctff"),
                     ev=("struct", [x.ev for x in parts]))

        del k
        s = build(m, req_param)
        if not any(n for n, _ in m.elems) and len(m.elems) >= 2 and rng.random() < 0.4 and \
                not s.code.startswith("ctff::make_struct<"):
            inner = s.code[s.code.index("{") + 1:-1] if s.code.startswith("std::tuple{") else None
            if inner is not None:
                return E(f"ctff::federated_zip({inner})", zip_result(s.type), s, binds=True, ev=("zip", s.ev))
        return E(f"ctff::federated_zip({s.code})", zip_result(s.type), s, binds=True, ev=("zip", s.ev))

    def seq_vars(self, pred):
        return [v for v in self.vars if pred(v.type)]

    def op_seq_to_unplaced(self, T, d, req_param):
        """sequence_sum(s) or sequence_reduce(s, zero, op) of an unplaced sequence variable."""
        rng = self.rng
        seqs = [v for v in self.vars if isinstance(v.type, Seq) and (v.param or not req_param)]
        if not seqs:
            raise NoGen()
        s = rng.choice(seqs)
        E_ = s.type.elem
        if E_ == T and sum_ok(E_) and rng.random() < 0.5:
            return E(f"ctff::sequence_sum({s.code})", T, s, binds=True, ev=("seqsum", s.ev, E_))
        zero = self.gen(T, 0, False)
        op = self.prog.find_callee(lambda c: len(c.params) == 2 and c.params[0][1] == T and
                                   c.params[1][1] == E_ and c.result == T) if rng.random() < 0.3 else None
        if op is None:
            if self.prog.comp_depth >= self.prog.max_depth:
                raise NoGen()
            op = self.prog.new_comp([T, E_], T, named=rng.random() < 0.4)
        self.callees.add(op.cid)
        return E(f"ctff::sequence_reduce({s.code}, {zero.code}, {op.cid})", T, s, zero, binds=True,
                 callees={op.cid}, ev=("seqreduce", s.ev, zero.ev, op.cid))

    def op_seq_fed(self, T, d, req_param):
        """sequence_sum / sequence_reduce of a federated sequence variable, giving T."""
        rng = self.rng
        seqs = [v for v in self.vars if isinstance(v.type, Fed) and isinstance(v.type.member, Seq)
                and v.type.placement == T.placement and (v.param or not req_param)]
        if not seqs:
            raise NoGen()
        s = rng.choice(seqs)
        E_ = s.type.member.elem
        res = Fed(T.member, T.placement, T.placement == "S")
        if not self.fits(T, res):
            raise NoGen()
        if E_ == T.member and sum_ok(E_) and rng.random() < 0.5:
            return E(f"ctff::sequence_sum({s.code})", res, s, binds=True, ev=("seqsum", s.ev, E_))
        U = T.member
        if not literal_ok(U):
            raise NoGen()
        where = "CLIENTS" if T.placement == "C" else "SERVER"
        zc, zx = literal(rng, U)
        zero = E(f"ctff::federated_value({zc}, ctff::{where})", Fed(U, T.placement, True),
                 binds=True, ev=("value", ("lit", zx), T.placement))
        op = self.prog.find_callee(lambda c: len(c.params) == 2 and c.params[0][1] == U and
                                   c.params[1][1] == E_ and c.result == U) if rng.random() < 0.3 else None
        if op is None:
            if self.prog.comp_depth >= self.prog.max_depth:
                raise NoGen()
            op = self.prog.new_comp([U, E_], U, named=rng.random() < 0.4)
        self.callees.add(op.cid)
        return E(f"ctff::sequence_reduce({s.code}, {zero.code}, {op.cid})", res, s, zero, binds=True,
                 callees={op.cid}, ev=("seqreduce", s.ev, zero.ev, op.cid))

    def op_seq_map(self, T, d, req_param):
        """sequence_map(fn, s) giving T = R* or {R*}@P."""
        rng = self.rng
        if isinstance(T, Seq):
            seqs = [v for v in self.vars if isinstance(v.type, Seq) and (v.param or not req_param)]
            R = T.elem
            res = lambda: T  # noqa: E731
        else:
            if not isinstance(T.member, Seq):
                raise NoGen()
            seqs = [v for v in self.vars if isinstance(v.type, Fed) and isinstance(v.type.member, Seq)
                    and v.type.placement == T.placement and (v.param or not req_param)]
            R = T.member.elem
            res = lambda: Fed(Seq(R), T.placement, T.placement == "S")  # noqa: E731
        if not seqs or not unplaced_value_type(R):
            raise NoGen()
        s = rng.choice(seqs)
        E_ = s.type.elem if isinstance(s.type, Seq) else s.type.member.elem
        fn = self.mapping_fn(E_, R)
        t = res()
        if not self.fits(T, t):
            raise NoGen()
        return E(f"ctff::sequence_map({fn.code}, {s.code})", t, fn, s, binds=True, ev=("seqmap", fn.ev, s.ev))


@dataclass
class Helper:
    name: str
    param: object
    result: object
    callees: frozenset
    binds: bool


# ---------------------------------------------------------------------------------------------
# The Python twin of a program (federated_language 0.5.3): the same computations written with
# Python's API, from the evaluator's nodes (Comp.stmts, Comp.ret), which keep the order in which
# the C++ text makes every call. Python binds calls in the order it makes them (left to right);
# every ctff variant must give the same Computation. Run by a reference runner outside the
# repository (README.md, "Python's outputs").

PY_NP = {"bool": "bool_", "str": "str_"}


def py_float(v):
    if v != v:
        return "float('nan')"
    if v in (float("inf"), float("-inf")):
        return f"float('{v}')"
    return repr(v)


def py_elem(dtype, x):
    """A Python value of one element (inside an array)."""
    if dtype == "bool":
        return "True" if x else "False"
    if dtype in INTS:
        return str(x)
    if dtype in FLOATS:
        return py_float(x)
    if dtype in COMPLEX:
        return f"complex({py_float(x.real)}, {py_float(x.imag)})"
    if dtype == "str":
        return repr(bytes(x))
    raise ValueError(dtype)


def py_scalar(dtype, x):
    """A numpy scalar of dtype (a str is passed as bytes: federated_language keeps them as is)."""
    if dtype == "str":
        return repr(bytes(x))
    return f"_np.{PY_NP.get(dtype, dtype)}({py_elem(dtype, x)})"


def py_struct(parts, names=None):
    if names and any(names):
        return "_od([" + ", ".join(f"({n!r}, {p})" for n, p in zip(names, parts)) + "])"
    return "(" + "".join(p + ", " for p in parts).rstrip(" ") + ")"


def py_literal(v):
    """The Python constant of an evaluator value (a Ten or a tuple of them)."""
    if isinstance(v, tuple):
        return py_struct([py_literal(x) for x in v])
    if not v.shape:
        return py_scalar(v.dtype, v.data[0])
    dt = "_np.bytes_" if v.dtype == "str" else "_np." + PY_NP.get(v.dtype, v.dtype)
    elems = ", ".join(py_elem(v.dtype, x) for x in v.data)
    return f"_np.array([{elems}], dtype={dt}).reshape({tuple(v.shape)!r})"


def py_type(t):
    if isinstance(t, Tensor):
        dt = "_np." + PY_NP.get(t.dtype, t.dtype)
        if not t.shape:
            return f"_fl.TensorType({dt})"
        shape = "(" + "".join(("None" if d < 0 else str(d)) + ", " for d in t.shape).rstrip(" ") + ")"
        return f"_fl.TensorType({dt}, {shape})"
    if isinstance(t, Struct):
        return "_fl.StructType([" + ", ".join(
            f"({n!r}, {py_type(e)})" if n else py_type(e) for n, e in t.elems) + "])"
    if isinstance(t, Fed):
        p = "_fl.CLIENTS" if t.placement == "C" else "_fl.SERVER"
        return f"_fl.FederatedType({py_type(t.member)}, {p}, {t.all_equal})"
    if isinstance(t, Seq):
        return f"_fl.SequenceType({py_type(t.elem)})"
    if isinstance(t, Fn):
        return f"_fl.FunctionType({'None' if t.param is None else py_type(t.param)}, {py_type(t.result)})"
    raise TypeError(t)


PY_PRELUDE = '''"""Python twins of programs of tests/differential/gen.py (federated_language 0.5.3)."""
import collections as _collections

import numpy as _np

import federated_language as _fl
from federated_language.compiler import building_blocks as _bb
from federated_language.context_stack import context_stack_impl as _cs
from federated_language.federated_context import federated_computation_context as _fcc
from federated_language.federated_context import intrinsics as _I
from federated_language.federated_context import value_impl as _vi


def _od(items):
  return _collections.OrderedDict(items)


def _sel(v, i):
  """ctff::get<i>(v): an element of a Python container (by position) or of a Value."""
  if isinstance(v, dict):
    return list(v.values())[i]
  return v[i]


def _unpack(v, n):
  return tuple(_sel(v, i) for i in range(n))


def _generic(uri, x, y):
  """a + b, a * b, a / b: Call(Intrinsic(uri, (<T,T> -> T)), <a,b>), T the type of a, bound."""
  arg = _vi.to_value((x, y), type_spec=None)
  t = arg.type_signature[0]
  fn = _bb.Intrinsic(uri, _fl.FunctionType(_fl.StructType([t, t]), t))
  return _vi.Value(_I._bind_comp_as_reference(_bb.Call(fn, arg.comp)))  # pylint: disable=protected-access


def _use(name, make, defined):
  """A computation used inside a trace: made anew there (make()) when a trace of the stack has
  its name (Python then names it name_1, ...), as ctff does; else the one defined outside."""
  ctx = _cs.context_stack.current
  names = set()
  while isinstance(ctx, _fcc.FederatedComputationContext):
    names.add(ctx.name)
    ctx = ctx.parent
  return make() if name in names else defined


def _zero(t):
  """generic_zero<T>(): the inline Intrinsic('generic_zero', T)."""
  return _vi.Value(_bb.Intrinsic('generic_zero', t))
'''

GENERIC_URI = {"+": "generic_plus", "*": "generic_multiply", "/": "generic_divide"}
AGG_FN = {"sum": "federated_sum", "mean": "federated_mean", "min": "federated_min", "max": "federated_max"}


def py_place(p):
    return "_fl.CLIENTS" if p == "C" else "_fl.SERVER"


def py_expr(node, cref):
    """Python of an evaluator node; cref(cid): the Python expression of a computation."""
    k = node[0]

    def x(n):
        return py_expr(n, cref)
    if k == "lit":
        return py_literal(node[1])
    if k == "var":
        return node[1]
    if k == "comp":
        return cref(node[1])
    if k == "struct":
        return py_struct([x(e) for e in node[1]], node[2] if len(node) > 2 else None)
    if k == "sel":
        return f"_sel({x(node[1])}, {node[2]})"
    if k == "call":
        if node[2] is None:
            return f"{cref(node[1])}()"
        if len(node) > 3 and node[3] == "args":
            assert node[2][0] == "struct"
            return f"{cref(node[1])}({', '.join(x(e) for e in node[2][1])})"
        return f"{cref(node[1])}({x(node[2])})"
    if k == "fcall":
        return f"{x(node[1])}({'' if node[2] is None else x(node[2])})"
    if k == "hcall":
        return f"{node[1]}({x(node[2])})"
    if k == "hcall2":
        return f"{node[1]}({', '.join(x(a) for a in node[2])})"
    if k == "zero":
        return f"_zero({py_type(node[1])})"
    if k == "generic":
        return f"_generic({GENERIC_URI[node[1]]!r}, {x(node[2])}, {x(node[3])})"
    if k == "value":
        return f"_I.federated_value({x(node[1])}, {py_place(node[2])})"
    if k == "bcast":
        return f"_I.federated_broadcast({x(node[1])})"
    if k == "map":
        fn = "federated_map_all_equal" if node[3] == "AE" else "federated_map"
        return f"_I.{fn}({x(node[1])}, {x(node[2])})"
    if k == "eval":
        return f"_I.federated_eval({x(node[1])}, {py_place(node[2])})"
    if k in AGG_FN:
        return f"_I.{AGG_FN[k]}({x(node[1])})"
    if k == "wmean":
        return f"_I.federated_mean({x(node[1])}, {x(node[2])})"
    if k == "secure":
        fn = "federated_secure_sum_bitwidth" if node[3] else "federated_secure_sum"
        return f"_I.{fn}({x(node[1])}, {node[5]})"
    if k == "agg":
        return f"_I.federated_aggregate({x(node[1])}, {x(node[2])}, {cref(node[3])}, {cref(node[5])}, {cref(node[4])})"
    if k == "zip":
        return f"_I.federated_zip({x(node[1])})"
    if k == "seqsum":
        return f"_I.sequence_sum({x(node[1])})"
    if k == "seqreduce":
        return f"_I.sequence_reduce({x(node[1])}, {x(node[2])}, {cref(node[3])})"
    if k == "seqmap":
        return f"_I.sequence_map({x(node[1])}, {x(node[2])})"
    raise AssertionError(f"unknown node {k}")


def py_stmts(stmts, indent, cref):
    out = []
    for s in stmts:
        if s[0] == "let":
            out.append(f"{indent}{s[1]} = {py_expr(s[2], cref)}")
        elif s[0] == "do":
            out.append(f"{indent}{py_expr(s[1], cref)}")
        elif s[0] == "unpack":
            out.append(f"{indent}{', '.join(s[1])}, = _unpack({py_expr(s[2], cref)}, {len(s[1])})")
        elif s[0] in ("helper", "helper2"):
            _, hname, hp, hstmts, hret = s
            out.append(f"{indent}def {hname}({hp if isinstance(hp, str) else ', '.join(hp)}):")
            out += py_stmts(hstmts, indent + "  ", cref)
            out.append(f"{indent}  return {py_expr(hret, cref)}")
        else:
            raise AssertionError(s)
    return out


def py_comp(c, indent, cref):
    """A computation as Python: a function `_mk_<cid>()` that defines and traces it (a function named
    c.name), and `<cid> = _mk_<cid>()`, the computation traced where the program defines it."""
    fn = f"_fn_{c.cid}"
    lines = [f"def _mk_{c.cid}():"]
    n = len(c.params)
    if n == 0:
        lines.append(f"  def {fn}():")
        types = []
    elif n == 1 or c.whole:
        lines.append(f"  def {fn}({c.lambda_params[0]}):")
        types = [py_type(c.param_type)]
    elif all(a for a, _ in c.params):
        # Named parameters: Python names the struct after the function's parameters.
        lines.append(f"  def {fn}({', '.join(a for a, _ in c.params)}):")
        lines += [f"    {lp} = {a}" for lp, (a, _) in zip(c.lambda_params, c.params)]
        types = [py_type(t) for _, t in c.params]
    else:
        # Unnamed parameters taken one by one: the elements of the one struct parameter.
        lines.append(f"  def {fn}(_arg):")
        lines += [f"    {lp} = _arg[{i}]" for i, lp in enumerate(c.lambda_params)]
        types = [py_type(c.param_type)]
    lines += py_stmts(c.stmts, "    ", cref)
    lines.append(f"    return {py_expr(c.ret, cref)}")
    lines.append(f"  {fn}.__name__ = {c.name!r}")
    lines.append(f"  return _fl.federated_computation({', '.join([fn] + types)})")
    lines.append(f"{c.cid} = _mk_{c.cid}()")
    return [indent + l for l in lines]


def program_hash(cxx, twin):
    """What the committed Python outputs were made from (python/*.jsonl): the program's C++ text
    and its twin's."""
    import hashlib
    return hashlib.sha256(cxx.encode() + b"\0" + twin.encode()).hexdigest()[:20]


def python_twin(p, name):
    """Python source of a function `name()` that traces the program (every computation, callees
    first) and returns its main computation."""
    names = {c.cid: c.name for c in p.comps + [p.main]}

    def cref(cid):
        # ctff renames a computation used inside a trace of its own name (or inside a trace
        # nested in one of that name) name_1, name_2, ..., as if it were defined inside that
        # trace's function (docs/design.md, "Name clashes"): the twin does define it there then.
        return f"_use({names[cid]!r}, _mk_{cid}, {cid})"
    out = [f"def {name}():"]
    for c in p.comps + [p.main]:
        out += py_comp(c, "  ", cref)
    out.append(f"  return {p.main.cid}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------


def program(seed, opts=None):
    if opts and opts.get("bucket"):
        opts = dict(opts, bucket_kind=BUCKET_KINDS[seed % len(BUCKET_KINDS)])
    for attempt in range(50):
        p = Program(seed * 1000 + attempt if attempt else seed, opts)
        p.seed = seed
        try:
            p.generate()
            return p
        except NoGen:
            continue
    raise RuntimeError(f"seed {seed}: no program")


PRELUDE = """// Generated by tests/differential/gen.py; do not edit.
#include "harness.hpp"
using namespace ctff::literals;
"""


def standalone(seed):
    p = program(seed)
    return PRELUDE + p.emit(f"p{seed}") + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=1, help="programs seed..seed+count-1 in one TU")
    ap.add_argument("--max-depth", type=int, default=3, help="levels of nested computations")
    ap.add_argument("--bucket", action="store_true",
                    help="a program of the known-divergence bucket (README.md, rules 3-5)")
    ap.add_argument("--round", action="store_true",
                    help="a federated round: (<S@SERVER, {D}@CLIENTS> -> <S@SERVER, X@SERVER>)")
    ap.add_argument("--python", action="store_true", help="print the programs' Python twins instead")
    args = ap.parse_args()
    opts = {"max_depth": args.max_depth}
    if args.bucket:
        opts["bucket"] = True
    if args.round:
        opts["round"] = True
    if args.python:
        out = [PY_PRELUDE]
        for s in range(args.seed, args.seed + args.count):
            out.append(python_twin(program(s, opts), f"_p{s}"))
        out.append("comps = [" + ", ".join(f"('p{s}', _p{s}())" for s in range(args.seed, args.seed + args.count)) + "]")
        print("\n".join(out))
        return
    out = [PRELUDE]
    for s in range(args.seed, args.seed + args.count):
        out.append(program(s, opts).emit(f"p{s}"))
    print("\n".join(out))


if __name__ == "__main__":
    main()
