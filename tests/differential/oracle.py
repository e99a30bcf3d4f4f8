#!/usr/bin/env python3
"""The independent oracle of the differential test: evaluates a generated program (gen.py) from
the generator's own representation of it -- the evaluator nodes every expression carries, never
the Computation ctff traced -- with the semantics of the reference page of issue 27 (execution.md §3), on
seeded random arguments (§5's JSON), and compares what `ctff-run` prints with the result.

Stdlib only. Values: a tensor is gen.Ten (dtype, shape, row-major elements), a struct a tuple of
values (names come from the static type), a federated value an Fv (placement, all_equal,
members), a sequence an Sq, a function an Fn_ (a computation of the program, a helper lambda).

Arithmetic is exact in the dtype: integers wrap (two's complement); float32 results of + * / are
computed as doubles and rounded once to float32 (correct: double has more than 2*24+2 bits);
float64 is Python's float. Complex products and quotients, the means of complex values, and
min/max ties of +0.0 and -0.0 have no single right answer in the reference (Annex G recovery of
infinities, Smith's vs the textbook quotient, which zero std::min keeps): a run that meets one is
*loose* and its floats are compared with a tolerance (README.md).

    oracle.py --seed 17 [--max-depth 2] [--clients 3]   the program, its argument and expectation
"""

from __future__ import annotations

import argparse
import json
import math
import random
import struct as _struct
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen  # noqa: E402
from gen import Fed, Fn, Seq, Struct, Ten, Tensor  # noqa: E402

INTS, FLOATS, COMPLEX = gen.INTS, gen.FLOATS, gen.COMPLEX
INT_RANGE = gen.INT_RANGE
INF = float("inf")
NAN = float("nan")
F32_MAX = 3.4028234663852886e38
F64_MAX = 1.7976931348623157e308


class ExecError(Exception):
    """The program's run is an execution error (ctff-run exit 1)."""


class Indeterminate(Exception):
    """The reference page leaves the outcome open (e.g. zeros of a shape with unknown dimensions):
    the run is not compared."""


# ---------------------------------------------------------------------------------------------
# Values


class Fv:
    """A federated value: placement "C"/"S", all_equal, members (one when all_equal)."""
    __slots__ = ("placement", "all_equal", "members")

    def __init__(self, placement, all_equal, members):
        self.placement = placement
        self.all_equal = all_equal
        self.members = list(members)

    def __repr__(self):
        return f"Fv({self.placement}, {'all_equal' if self.all_equal else ''}, {self.members!r})"


class Sq:
    """A sequence value."""
    __slots__ = ("elems",)

    def __init__(self, elems):
        self.elems = list(elems)

    def __repr__(self):
        return f"Sq({self.elems!r})"


class Fn_:
    """A function value: a computation of the program (cid) or a helper lambda."""
    __slots__ = ("cid", "helper")

    def __init__(self, cid=None, helper=None):
        self.cid = cid
        self.helper = helper


# ---------------------------------------------------------------------------------------------
# Scalar arithmetic in a dtype


def r32(x):
    """x (a double) rounded to float32."""
    if x != x or x in (INF, -INF):
        return x
    try:
        return _struct.unpack("<f", _struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def int_to_float(n, dtype):
    """An integer converted to float32/float64, rounded to nearest even once."""
    if dtype == "float64" or abs(n) < 2 ** 53:
        f = float(n)  # correctly rounded
        return f if dtype == "float64" else r32(f)
    sign = -1 if n < 0 else 1
    m = abs(n)
    e = m.bit_length() - 24
    q, rem = divmod(m, 1 << e)
    half = 1 << (e - 1)
    if rem > half or (rem == half and q & 1):
        q += 1
    return sign * math.ldexp(float(q), e)


def fdiv(a, b):
    """IEEE double division (Python raises on a zero divisor)."""
    if b == 0.0:
        if a != a or a == 0.0:
            return NAN
        return math.copysign(INF, math.copysign(1.0, a) * math.copysign(1.0, b))
    return a / b


class Ctx:
    """One run: the program, the number of clients, and whether it was loose."""

    def __init__(self, prog, n, typer):
        self.prog = prog
        self.n = n
        self.typer = typer
        self.loose = set()  # why the run is compared with a tolerance
        self.comps = {c.cid: c for c in prog.comps}
        self.comps[prog.main.cid] = prog.main
        self.calls = 0

    # --- scalars -------------------------------------------------------------------------------

    def cplx(self, dtype, re, im):
        return complex(r32(re), r32(im)) if dtype == "complex64" else complex(re, im)

    def arith(self, op, dtype, a, b):
        if dtype in ("bool", "str"):
            raise ExecError(f"generic operator on {dtype}")
        if dtype in INTS:
            if op == "+":
                return gen.wrap_int(dtype, a + b)
            if op == "*":
                return gen.wrap_int(dtype, a * b)
            if b == 0:
                raise ExecError("integer division by zero")
            q = abs(a) // abs(b)
            return gen.wrap_int(dtype, q if (a < 0) == (b < 0) else -q)
        if dtype in FLOATS:
            rnd = r32 if dtype == "float32" else float
            if op == "+":
                return rnd(a + b)
            if op == "*":
                return rnd(a * b)
            return rnd(fdiv(a, b))
        # complex
        f32 = dtype == "complex64"
        rnd = r32 if f32 else float
        if op == "+":
            return self.cplx(dtype, a.real + b.real, a.imag + b.imag)
        self.loose.add("complex " + ("product" if op == "*" else "quotient"))
        if op == "*":
            re = rnd(rnd(a.real * b.real) - rnd(a.imag * b.imag))
            im = rnd(rnd(a.real * b.imag) + rnd(a.imag * b.real))
            return complex(re, im)
        try:
            q = a / b
        except ZeroDivisionError:
            q = complex(NAN, NAN)
        except OverflowError:
            q = complex(NAN, NAN)
        return self.cplx(dtype, q.real, q.imag)

    def cast(self, x, src, dst):
        """An element of dtype src as dtype dst (weights of a weighted mean, N of a mean)."""
        if src == dst:
            return x
        if dst in FLOATS:
            if src in INTS:
                return int_to_float(x, dst)
            return r32(x) if dst == "float32" else float(x)
        if dst in COMPLEX:
            re = int_to_float(x, "float32" if dst == "complex64" else "float64") if src in INTS else \
                (r32(x) if dst == "complex64" else float(x))
            return complex(re, 0.0)
        raise AssertionError((src, dst))

    # --- tensors and structs -------------------------------------------------------------------

    def pointwise(self, f, a, b):
        """f(leaf_a, leaf_b) over two values of one type (tensors / structs)."""
        if isinstance(a, Ten):
            if a.shape != b.shape:
                raise Indeterminate(f"operands of shapes {a.shape} and {b.shape}")
            return f(a, b)
        assert isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b), (a, b)
        return tuple(self.pointwise(f, x, y) for x, y in zip(a, b))

    def generic(self, op, a, b):
        def leaf(x, y):
            if x.dtype in ("bool", "str") or y.dtype in ("bool", "str"):  # by dtype, even when empty
                raise ExecError(f"generic operator on {x.dtype}")
            return Ten(x.dtype, x.shape, [self.arith(op, x.dtype, p, q) for p, q in zip(x.data, y.data)])
        return self.pointwise(leaf, a, b)

    def filled(self, t, element, what):
        """A value of type t (tensors / structs of them) with every element element(dtype)."""
        if isinstance(t, Tensor):
            if any(d < 0 for d in t.shape):
                raise Indeterminate(f"{what} of {gen.type_str(t)} (unknown dimensions)")
            return Ten(t.dtype, t.shape, [element(t.dtype)] * math.prod(t.shape))
        if isinstance(t, Struct):
            return tuple(self.filled(e, element, what) for _, e in t.elems)
        raise AssertionError(t)

    def zeros(self, t, what="zeros"):
        def z(dtype):
            if dtype == "bool":
                return False
            if dtype == "str":
                return b""
            if dtype in INTS:
                return 0
            if dtype in FLOATS:
                return 0.0
            return complex(0.0, 0.0)
        return self.filled(t, z, what)

    def add(self, a, b):
        return self.generic("+", a, b)

    # --- federated values ----------------------------------------------------------------------

    def as_fed(self, v):
        """An operand of a federated operator: a federated value, or a struct of them (zipped)."""
        if isinstance(v, Fv):
            return v
        if isinstance(v, tuple):
            return self.zip(v)
        raise AssertionError(f"not federated: {v!r}")

    def clients(self, fv):
        """The N members of a CLIENTS value (an all_equal one replicated)."""
        assert fv.placement == "C"
        if fv.all_equal:
            return [fv.members[0]] * self.n
        if len(fv.members) != self.n:
            raise AssertionError(f"{len(fv.members)} members for {self.n} clients")
        return fv.members

    def server(self, fv):
        assert fv.placement == "S", fv
        return fv.members[0]

    def map_clients(self, fv, f):
        """f per client (not all_equal); an all_equal value is mapped N times (once computed:
        f is deterministic, and is not called at all when N = 0)."""
        if fv.all_equal:
            if self.n == 0:
                return Fv("C", False, [])
            m = f(fv.members[0])
            return Fv("C", False, [m] * self.n)
        return Fv("C", False, [f(m) for m in self.clients(fv)])

    def map_fed(self, fv, f):
        if fv.placement == "S":
            return Fv("S", True, [f(self.server(fv))])
        return self.map_clients(fv, f)

    def zip(self, s):
        """A (nested) struct of federated values of one placement -> one federated struct."""
        leaves = []

        def collect(v):
            if isinstance(v, Fv):
                leaves.append(v)
            elif isinstance(v, tuple):
                for x in v:
                    collect(x)
            else:
                raise AssertionError(f"zip of a non-federated leaf {v!r}")
        collect(s)
        ps = {x.placement for x in leaves}
        assert len(ps) == 1, s
        p = ps.pop()

        def build(v, pick):
            if isinstance(v, Fv):
                return pick(v)
            return tuple(build(x, pick) for x in v)
        if p == "S":
            return Fv("S", True, [build(s, lambda f: f.members[0])])
        if all(x.all_equal for x in leaves):
            return Fv("C", True, [build(s, lambda f: f.members[0])])
        return Fv("C", False, [build(s, lambda f, i=i: self.clients(f)[i]) for i in range(self.n)])

    def select(self, v, i):
        if isinstance(v, Fv):
            return Fv(v.placement, v.all_equal, [m[i] for m in v.members])
        assert isinstance(v, tuple), v
        return v[i]

    # --- aggregations ---------------------------------------------------------------------------

    def fold_sum(self, t, xs, what):
        acc = self.zeros(t, what)
        for x in xs:
            acc = self.add(acc, x)
        return acc

    def mean(self, t, xs):
        if not xs:
            return self.filled(t, lambda d: NAN if d in FLOATS else complex(NAN, NAN), "mean")
        s = self.fold_sum(t, xs, "mean")
        n = len(xs)

        def leaf(a):
            if a.dtype in COMPLEX:
                self.loose.add("complex mean")
            d = self.cast(n, "int64", a.dtype)
            return Ten(a.dtype, a.shape, [self.arith("/", a.dtype, x, d) for x in a.data])
        return self.leafwise(leaf, s)

    def weighted_mean(self, t, xs, ws, wdtype):
        if not xs:
            return self.filled(t, lambda d: NAN if d in FLOATS else complex(NAN, NAN), "weighted mean")
        wsum = 0 if wdtype in INTS else 0.0
        for w in ws:
            wsum = self.arith("+", wdtype, wsum, w.data[0])
        acc = self.zeros(t, "weighted mean")
        for x, w in zip(xs, ws):
            def scaled(a, w=w):
                if a.dtype in COMPLEX:
                    self.loose.add("complex weighted mean")
                c = self.cast(w.data[0], wdtype, a.dtype)
                return Ten(a.dtype, a.shape, [self.arith("*", a.dtype, e, c) for e in a.data])
            acc = self.add(acc, self.leafwise(scaled, x))

        def div(a):
            c = self.cast(wsum, wdtype, a.dtype)
            return Ten(a.dtype, a.shape, [self.arith("/", a.dtype, e, c) for e in a.data])
        return self.leafwise(div, acc)

    def leafwise(self, f, v):
        if isinstance(v, Ten):
            return f(v)
        return tuple(self.leafwise(f, x) for x in v)

    def minmax(self, t, xs, is_min):
        def start(d):
            if d in INTS:
                lo, hi = INT_RANGE[d]
                return hi if is_min else lo
            big = F32_MAX if d == "float32" else F64_MAX
            return big if is_min else -big
        acc = self.filled(t, start, "min" if is_min else "max")

        def pick(a, b):
            if a.dtype in FLOATS:
                out = []
                for p, q in zip(a.data, b.data):
                    if p != p or q != q:
                        out.append(NAN)
                    elif p == q:
                        if math.copysign(1, p) != math.copysign(1, q):
                            self.loose.add("min/max of +0.0 and -0.0")
                        out.append(p)
                    else:
                        out.append(min(p, q) if is_min else max(p, q))
                return Ten(a.dtype, a.shape, out)
            return Ten(a.dtype, a.shape, [min(p, q) if is_min else max(p, q) for p, q in zip(a.data, b.data)])
        for x in xs:
            acc = self.pointwise(pick, acc, x)
        return acc

    def secure_sum(self, t, xs, bound, bitwidth):
        def bounds(tt, b):
            """Per leaf of tt: the inclusive upper bound."""
            if isinstance(tt, Struct):
                return tuple(bounds(e, b[i] if isinstance(b, tuple) else b) for i, (_, e) in enumerate(tt.elems))
            x = b.data[0] if isinstance(b, Ten) else b
            if bitwidth:
                if not 1 <= x <= 62:
                    raise ExecError(f"federated_secure_sum_bitwidth: bitwidth {x} outside [1, 62]")
                return (1 << x) - 1
            return x
        bs = bounds(t, bound)

        def check(v, b):
            if isinstance(v, Ten):
                for e in v.data:
                    if not 0 <= e <= b:
                        raise ExecError(f"secure sum: {e} outside [0, {b}]")
            else:
                for x, y in zip(v, b):
                    check(x, y)
        for x in xs:
            check(x, bs)
        return self.fold_sum(t, xs, "secure sum")

    # --- evaluation -----------------------------------------------------------------------------

    def call(self, fn, arg):
        """Calls a function value (Fn_) or a computation id with arg (None: no argument)."""
        self.calls += 1
        if self.calls > 200000:
            raise Indeterminate("too many calls")
        if isinstance(fn, Fn_) and fn.helper is not None:
            _, hname, hp, stmts, ret = fn.helper
            env = {hp: arg}
            self.run_stmts(stmts, env)
            return self.ev(ret, env)
        cid = fn.cid if isinstance(fn, Fn_) else fn
        c = self.comps[cid]
        env = {}
        if len(c.lambda_params) == 1:
            env[c.lambda_params[0]] = arg
        elif c.lambda_params:
            assert isinstance(arg, tuple) and len(arg) == len(c.lambda_params), (cid, arg)
            for lp, x in zip(c.lambda_params, arg):
                env[lp] = x
        else:
            assert arg is None, (cid, arg)
        self.run_stmts(c.stmts, env)
        return self.ev(c.ret, env)

    def run_stmts(self, stmts, env):
        for s in stmts:
            k = s[0]
            if k == "let":
                env[s[1]] = self.ev(s[2], env)
            elif k == "do":
                self.ev(s[1], env)
            elif k == "unpack":
                v = self.ev(s[2], env)
                for i, name in enumerate(s[1]):
                    env[name] = self.select(v, i)
            elif k == "helper":
                env[s[1]] = Fn_(helper=s)
            else:
                raise AssertionError(s)

    def member(self, node):
        """The member type of an operand of a federated operator (its static type)."""
        return gen.as_federated(self.typer.types[id(node)]).member

    def fn_value(self, node, env):
        if node[0] == "comp":
            return Fn_(cid=node[1])
        v = self.ev(node, env)
        if not isinstance(v, Fn_):
            raise AssertionError(f"not a function: {node!r}")
        return v

    def ev(self, node, env):
        if node is None:
            raise AssertionError("an expression without an evaluator node (gen.py)")
        k = node[0]
        if k == "lit":
            return node[1]
        if k == "var":
            return env[node[1]]
        if k == "comp":
            return Fn_(cid=node[1])
        if k == "struct":
            return tuple(self.ev(x, env) for x in node[1])
        if k == "sel":
            return self.select(self.ev(node[1], env), node[2])
        if k == "call":
            arg = self.ev(node[2], env) if node[2] is not None else None
            return self.call(node[1], arg)
        if k == "fcall":
            f = self.fn_value(node[1], env)
            arg = self.ev(node[2], env) if node[2] is not None else None
            return self.call(f, arg)
        if k == "hcall":
            arg = self.ev(node[2], env)
            return self.call(env[node[1]], arg)
        if k == "zero":
            return self.zeros(node[1], "generic_zero")
        if k == "generic":
            a = self.ev(node[2], env)
            b = self.ev(node[3], env)
            return self.generic(node[1], a, b)
        if k == "value":
            return Fv(node[2], True, [self.ev(node[1], env)])
        if k == "bcast":
            return Fv("C", True, [self.server(self.as_fed(self.ev(node[1], env)))])
        if k == "map":
            f = self.fn_value(node[1], env)
            v = self.as_fed(self.ev(node[2], env))
            kind = node[3]
            if kind == "AE":
                assert v.placement == "C" and v.all_equal
                return Fv("C", True, [self.call(f, v.members[0])])
            if kind == "S":
                return Fv("S", True, [self.call(f, self.server(v))])
            return self.map_clients(v, lambda m: self.call(f, m))
        if k == "eval":
            f = self.fn_value(node[1], env)
            if node[2] == "S":
                return Fv("S", True, [self.call(f, None)])
            return Fv("C", False, [self.call(f, None) for _ in range(self.n)])
        if k in ("sum", "mean", "min", "max"):
            xs = self.clients(self.as_fed(self.ev(node[1], env)))
            t = self.member(node[1])
            if k == "sum":
                r = self.fold_sum(t, xs, "federated_sum")
            elif k == "mean":
                r = self.mean(t, xs)
            else:
                r = self.minmax(t, xs, k == "min")
            return Fv("S", True, [r])
        if k == "wmean":
            xs = self.clients(self.as_fed(self.ev(node[1], env)))
            ws = self.clients(self.as_fed(self.ev(node[2], env)))
            return Fv("S", True, [self.weighted_mean(self.member(node[1]), xs, ws, node[4])])
        if k == "secure":
            xs = self.clients(self.as_fed(self.ev(node[1], env)))
            return Fv("S", True, [self.secure_sum(self.member(node[1]), xs, node[2], node[3])])
        if k == "agg":
            xs = self.clients(self.as_fed(self.ev(node[1], env)))
            acc = self.ev(node[2], env)
            for x in xs:
                acc = self.call(node[3], (acc, x))
            return Fv("S", True, [self.call(node[4], acc)])
        if k == "zip":
            return self.zip(self.ev(node[1], env))
        if k == "seqsum":
            s = self.ev(node[1], env)
            st = self.typer.types[id(node[1])]
            t = st.member.elem if isinstance(st, Fed) else st.elem
            f = lambda q: self.fold_sum(t, q.elems, "sequence_sum")  # noqa: E731
            return self.map_fed(s, f) if isinstance(s, Fv) else f(s)
        if k == "seqreduce":
            s = self.ev(node[1], env)
            z = self.ev(node[2], env)

            def red(q, zero):
                acc = zero
                for e in q.elems:
                    acc = self.call(node[3], (acc, e))
                return acc
            if isinstance(s, Fv):
                if s.placement == "S":
                    return Fv("S", True, [red(self.server(s), self.server(z))])
                zm = z.members[0]
                assert z.all_equal
                return self.map_clients(s, lambda q: red(q, zm))
            return red(s, z)
        if k == "seqmap":
            f = self.fn_value(node[1], env)
            s = self.ev(node[2], env)
            g = lambda q: Sq([self.call(f, e) for e in q.elems])  # noqa: E731
            return self.map_fed(s, g) if isinstance(s, Fv) else g(s)
        raise AssertionError(f"unknown node {k}")


# ---------------------------------------------------------------------------------------------
# Static types of the nodes (what ctff's trace gives them: the generator's own types are looser
# where an operator's result is written with the wanted type, e.g. a make_struct of an all_equal
# value where {T}@CLIENTS was wanted)


class Typer:
    """Types every node of a program from the declared parameter types, bottom up."""

    def __init__(self, prog):
        self.prog = prog
        self.comps = {c.cid: c for c in prog.comps}
        self.comps[prog.main.cid] = prog.main
        self.types = {}     # id(node) -> type
        self.results = {}   # cid -> result type
        self.keep = []      # the nodes typed (their ids stay valid)
        self.result(prog.main.cid)

    def result(self, cid):
        if cid in self.results:
            return self.results[cid]
        c = self.comps[cid]
        tenv = {}
        if len(c.lambda_params) == 1:
            tenv[c.lambda_params[0]] = c.param_type
        else:
            for lp, (_, t) in zip(c.lambda_params, c.params):
                tenv[lp] = t
        self.stmts(c.stmts, tenv)
        r = self.ty(c.ret, tenv)
        self.results[cid] = r
        return r

    def fn_type(self, cid):
        return Fn(self.comps[cid].param_type, self.result(cid))

    def stmts(self, stmts, tenv):
        for s in stmts:
            if s[0] == "let":
                tenv[s[1]] = self.ty(s[2], tenv)
            elif s[0] == "do":
                self.ty(s[1], tenv)
            elif s[0] == "unpack":
                t = self.ty(s[2], tenv)
                for i, name in enumerate(s[1]):
                    tenv[name] = self.elem(t, i)
            elif s[0] == "helper":
                tenv[s[1]] = ("helper", s)

    @staticmethod
    def elem(t, i):
        if isinstance(t, Fed):
            e = t.member.elems[i][1]
            return Fed(e, t.placement, t.all_equal or t.placement == "S")
        return t.elems[i][1]

    def ty(self, node, tenv):
        t = self._ty(node, tenv)
        self.types[id(node)] = t
        self.keep.append(node)
        return t

    def _ty(self, node, tenv):
        k = node[0]
        if k == "lit":
            return literal_type(node[1])
        if k == "var":
            return tenv[node[1]]
        if k == "comp":
            return self.fn_type(node[1])
        if k == "struct":
            ts = [self.ty(x, tenv) for x in node[1]]
            names = node[2] if len(node) > 2 and node[2] else [None] * len(ts)
            return Struct(tuple(zip(names, ts)))
        if k == "sel":
            return self.elem(self.ty(node[1], tenv), node[2])
        if k == "call":
            if node[2] is not None:
                self.ty(node[2], tenv)
            return self.result(node[1])
        if k == "fcall":
            f = self.ty(node[1], tenv)
            if node[2] is not None:
                self.ty(node[2], tenv)
            return f.result
        if k == "hcall":
            _, hname, hp, stmts, ret = tenv[node[1]][1]
            henv = {hp: self.ty(node[2], tenv)}
            self.stmts(stmts, henv)
            return self.ty(ret, henv)
        if k == "zero":
            return node[1]
        if k == "generic":
            a = self.ty(node[2], tenv)
            self.ty(node[3], tenv)
            return a
        if k == "value":
            return Fed(self.ty(node[1], tenv), node[2], True)
        if k == "bcast":
            return Fed(self.fed(node[1], tenv).member, "C", True)
        if k == "map":
            r = self.fnres(node[1], tenv)
            self.fed(node[2], tenv)
            return {"S": Fed(r, "S", True), "C": Fed(r, "C", False), "AE": Fed(r, "C", True)}[node[3]]
        if k == "eval":
            return Fed(self.fnres(node[1], tenv), node[2], node[2] == "S")
        if k in ("sum", "mean", "min", "max", "secure"):
            return Fed(self.fed(node[1], tenv).member, "S", True)
        if k == "wmean":
            self.fed(node[2], tenv)
            return Fed(self.fed(node[1], tenv).member, "S", True)
        if k == "agg":
            self.fed(node[1], tenv)
            self.ty(node[2], tenv)
            self.result(node[3])
            return Fed(self.result(node[4]), "S", True)
        if k == "zip":
            t = self.ty(node[1], tenv)
            return gen.zip_result(t)
        if k == "seqsum":
            t = self.ty(node[1], tenv)
            if isinstance(t, Fed):
                return Fed(t.member.elem, t.placement, t.placement == "S")
            return t.elem
        if k == "seqreduce":
            t = self.ty(node[1], tenv)
            z = self.ty(node[2], tenv)
            r = self.result(node[3])
            if isinstance(t, Fed):
                return Fed(r, t.placement, t.placement == "S")
            return r
        if k == "seqmap":
            r = self.fnres(node[1], tenv)
            t = self.ty(node[2], tenv)
            if isinstance(t, Fed):
                return Fed(Seq(r), t.placement, t.placement == "S")
            return Seq(r)
        raise AssertionError(f"unknown node {k}")

    def fed(self, node, tenv):
        t = self.ty(node, tenv)
        f = gen.as_federated(t)
        assert f is not None, (node, t)
        return f

    def fnres(self, node, tenv):
        t = self.ty(node, tenv)
        return t.result


def literal_type(v):
    if isinstance(v, Ten):
        return Tensor(v.dtype, v.shape)
    return Struct(tuple((None, literal_type(x)) for x in v))


# ---------------------------------------------------------------------------------------------
# Arguments (execution.md §5)


def has_fn(t):
    if isinstance(t, Fn):
        return True
    if isinstance(t, Struct):
        return any(has_fn(e) for _, e in t.elems)
    if isinstance(t, Fed):
        return has_fn(t.member)
    if isinstance(t, Seq):
        return has_fn(t.elem)
    return False


ARG_STRINGS = ["", "a", "hello", "TFF", "caf\u00e9", "x y", "\u00e9t\u00e9", "quote\"d", "nul\u0000in", "\u4e2d"]


class ArgGen:
    """A seeded random argument of a type: (JSON value, evaluator value). Integers mostly small
    and non-negative (secure sums, divisors); floats mostly short decimals, now and then -0.0,
    inf, nan, a random float32/float64."""

    def __init__(self, rng, n, unknown_len):
        self.rng = rng
        self.n = n
        self.unknown_len = unknown_len

    def scalar(self, dtype):
        rng = self.rng
        if dtype == "bool":
            b = rng.random() < 0.5
            return b, b
        if dtype == "str":
            s = rng.choice(ARG_STRINGS)
            return s, s.encode()
        if dtype in INTS:
            lo, hi = INT_RANGE[dtype]
            r = rng.random()
            if r < 0.8:
                v = rng.randint(max(lo, 0), min(hi, 9))
            elif r < 0.9:
                v = rng.randint(max(lo, -9), min(hi, 9))
            elif r < 0.95:
                v = rng.choice([lo, hi])
            else:
                v = rng.randint(lo, hi)
            return v, v
        if dtype in FLOATS:
            v = self.float_(dtype == "float32")
            return float_json(v), v
        f32 = dtype == "complex64"
        re, im = self.float_(f32), self.float_(f32)
        return [float_json(re), float_json(im)], complex(re, im)

    def float_(self, f32):
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            v = rng.choice([0.0, 1.0, 2.0, 3.0, -1.0, 0.5, 0.25, 1.5, 10.0, 100.0, -2.5, 7.0])
        elif r < 0.85:
            v = round(rng.uniform(-100, 100), rng.randint(0, 3))
        elif r < 0.9:
            v = rng.choice([-0.0, 0.1, 1e-3, 1e30, 65504.0])
        elif r < 0.93:
            v = rng.choice([INF, -INF, NAN])
        elif f32:
            while True:
                v = _struct.unpack("<f", _struct.pack("<I", rng.getrandbits(32)))[0]
                if v == v:
                    break
        else:
            while True:
                v = _struct.unpack("<d", _struct.pack("<Q", rng.getrandbits(64)))[0]
                if v == v:
                    break
        return r32(v) if f32 else v

    def value(self, t):
        rng = self.rng
        if isinstance(t, Tensor):
            shape = tuple(self.unknown_len if d < 0 else d for d in t.shape)
            flat = [self.scalar(t.dtype) for _ in range(math.prod(shape))]
            js = [j for j, _ in flat]

            def nest(shape, items):
                if not shape:
                    return items[0]
                if len(shape) == 1:
                    return list(items)
                step = math.prod(shape[1:])
                return [nest(shape[1:], items[i * step:(i + 1) * step]) for i in range(shape[0])]
            return nest(shape, js) if shape else js[0], Ten(t.dtype, shape, [v for _, v in flat])
        if isinstance(t, Struct):
            parts = [self.value(e) for _, e in t.elems]
            named = t.elems and all(n for n, _ in t.elems)
            js = {n: j for (n, _), (j, _) in zip(t.elems, parts)} if named else [j for j, _ in parts]
            return js, tuple(v for _, v in parts)
        if isinstance(t, Fed):
            if t.placement == "C" and not t.all_equal:
                parts = [self.value(t.member) for _ in range(self.n)]
                return [j for j, _ in parts], Fv("C", False, [v for _, v in parts])
            j, v = self.value(t.member)
            return j, Fv(t.placement, True, [v])
        if isinstance(t, Seq):
            parts = [self.value(t.elem) for _ in range(rng.choice([0, 1, 2, 2, 3, 4]))]
            return [j for j, _ in parts], Sq([v for _, v in parts])
        if isinstance(t, Fn):
            return None, None  # not expressible: bad input
        raise TypeError(t)


def float_json(v):
    if v != v:
        return "nan"
    if v in (INF, -INF):
        return "inf" if v > 0 else "-inf"
    return v


# ---------------------------------------------------------------------------------------------
# Expected results


class Expect:
    """What ctff-run must do: exit (0/1/2), the value (exit 0), the argument JSON text (None: no
    argument), loose reasons, or why the run is not compared (indeterminate)."""

    def __init__(self, n):
        self.n = n
        self.exit = None
        self.value = None
        self.type = None
        self.arg_json = None
        self.arg_value = None
        self.loose = set()
        self.indeterminate = None
        self.detail = ""

    def expected_text(self):
        if self.indeterminate:
            return f"(not compared: {self.indeterminate})"
        if self.exit != 0:
            return f"exit {self.exit} ({self.detail})"
        return json.dumps(to_json(self.type, self.value, self.n), ensure_ascii=False)


def evaluate(prog, n, arg_seed, avoid_errors=True):
    """The expected outcome of running prog's main computation for n clients on a seeded argument.
    With avoid_errors, up to four arguments are tried and the first that runs without an execution
    error is taken, except for one (seed, N) in four, which keeps the first argument whatever it
    gives (so argument-dependent errors stay in the mix)."""
    rng0 = random.Random(arg_seed)
    keep_first = not avoid_errors or rng0.random() < 0.25
    best = None
    for attempt in range(1 if keep_first else 4):
        ex = evaluate_once(prog, n, random.Random(f"{arg_seed}/{attempt}"))
        if best is None:
            best = ex
        if ex.exit != 1:
            return ex
    return best


def typer_of(prog):
    if getattr(prog, "_typer", None) is None:
        prog._typer = Typer(prog)
    return prog._typer


def evaluate_once(prog, n, rng):
    ex = Expect(n)
    main = prog.main
    pt = main.param_type
    typer = typer_of(prog)
    ex.type = typer.results[main.cid]
    unknown_len = rng.choice([0, 1, 2, 3])
    ag = ArgGen(rng, n, unknown_len)
    arg = None
    if pt is not None:
        js, arg = ag.value(pt)
        ex.arg_json = json.dumps(js, ensure_ascii=False)
        ex.arg_value = arg
        if has_fn(pt):
            ex.exit = 2
            ex.detail = "a function argument is not expressible in JSON"
            return ex
    ctx = Ctx(prog, n, typer)
    try:
        v = ctx.call(main.cid, arg)
        ex.exit = 0
        ex.value = v
    except ExecError as e:
        ex.exit = 1
        ex.detail = str(e)
    except Indeterminate as e:
        ex.indeterminate = str(e)
    except RecursionError:
        ex.indeterminate = "too deep for the oracle"
    ex.loose = ctx.loose
    return ex


def to_json(t, v, n):
    """A value of static type t as execution.md §5's JSON (Python objects; floats as floats or
    "nan"/"inf"/"-inf"; complex as [re, im]; strings decoded from UTF-8, invalid bytes U+FFFD)."""
    if isinstance(t, Tensor):
        def el(x):
            if t.dtype in FLOATS:
                return float_json(x)
            if t.dtype in COMPLEX:
                return [float_json(x.real), float_json(x.imag)]
            if t.dtype == "str":
                return x.decode("utf-8", "replace")
            return x
        items = [el(x) for x in v.data]
        shape = v.shape
        if not shape:
            return items[0]

        def nest(shape, items):
            if len(shape) == 1:
                return list(items)
            step = math.prod(shape[1:])
            return [nest(shape[1:], items[i * step:(i + 1) * step]) for i in range(shape[0])]
        return nest(shape, items)
    if isinstance(t, Struct):
        named = t.elems and all(nm for nm, _ in t.elems)
        if named:
            return {nm: to_json(e, x, n) for (nm, e), x in zip(t.elems, v)}
        return [to_json(e, x, n) for (_, e), x in zip(t.elems, v)]
    if isinstance(t, Fed):
        if t.placement == "C" and not t.all_equal:
            ms = [v.members[0]] * n if v.all_equal else v.members
            return [to_json(t.member, m, n) for m in ms]
        assert v.all_equal and len(v.members) == 1, ("an all_equal type with a value that is not", t, v)
        return to_json(t.member, v.members[0], n)
    if isinstance(t, Seq):
        return [to_json(t.elem, e, n) for e in v.elems]
    raise TypeError(t)


def from_json(t, js, n):
    """The evaluator's value of argument JSON js (json.loads) for type t: the inverse of ArgGen
    (a self-check of the argument encoding, and what a stub ctff-run uses)."""
    if isinstance(t, Tensor):
        flat = []

        def walk(x, depth):
            if depth == len(t.shape):
                flat.append(x)
                return 0
            assert isinstance(x, list), (t, js)
            for y in x:
                walk(y, depth + 1)
            return len(x)
        shape = []
        x = js
        for _ in t.shape:
            if x is None:
                break
            shape.append(len(x))
            x = x[0] if x else None
        walk(js, 0)
        shape = tuple(shape) + tuple(max(d, 0) for d in t.shape[len(shape):])

        def el(x):
            if t.dtype in FLOATS:
                v = float(x)
                return r32(v) if t.dtype == "float32" else v
            if t.dtype in COMPLEX:
                re, im = float(x[0]), float(x[1])
                return complex(r32(re), r32(im)) if t.dtype == "complex64" else complex(re, im)
            if t.dtype == "str":
                return x.encode()
            return x
        return Ten(t.dtype, shape, [el(x) for x in flat])
    if isinstance(t, Struct):
        if isinstance(js, dict):
            return tuple(from_json(e, js[nm], n) for nm, e in t.elems)
        return tuple(from_json(e, x, n) for (_, e), x in zip(t.elems, js))
    if isinstance(t, Fed):
        if t.placement == "C" and not t.all_equal:
            assert len(js) == n, (t, js, n)
            return Fv("C", False, [from_json(t.member, x, n) for x in js])
        return Fv(t.placement, True, [from_json(t.member, js, n)])
    if isinstance(t, Seq):
        return Sq([from_json(t.elem, x, n) for x in js])
    raise TypeError(t)


def same_value(a, b):
    """Two evaluator values equal (floats bitwise-equal up to NaN payloads)."""
    if isinstance(a, Ten):
        return isinstance(b, Ten) and a.dtype == b.dtype and a.shape == b.shape and \
            len(a.data) == len(b.data) and all(_same_el(x, y) for x, y in zip(a.data, b.data))
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, Fv):
        return isinstance(b, Fv) and (a.placement, a.all_equal) == (b.placement, b.all_equal) and \
            len(a.members) == len(b.members) and all(same_value(x, y) for x, y in zip(a.members, b.members))
    if isinstance(a, Sq):
        return isinstance(b, Sq) and len(a.elems) == len(b.elems) and \
            all(same_value(x, y) for x, y in zip(a.elems, b.elems))
    return a is b


def _same_el(x, y):
    if isinstance(x, complex):
        return _same_el(x.real, y.real) and _same_el(x.imag, y.imag)
    if isinstance(x, float):
        return (x != x and y != y) or (x == y and math.copysign(1, x) == math.copysign(1, y))
    return type(x) is type(y) and x == y


def float_text(x):
    """A double as std::to_chars writes it (shortest round trip): nan/inf as strings."""
    if x != x:
        return '"nan"'
    if x in (INF, -INF):
        return '"inf"' if x > 0 else '"-inf"'
    r = repr(x)
    if r.endswith(".0"):
        r = r[:-2]
    return r


def result_text(t, v, n):
    """The one-line JSON a conforming ctff-run prints for value v of type t (used by the tests of
    this file; the comparison itself parses what ctff-run prints)."""
    def dump(j):
        if isinstance(j, float):
            return float_text(j)
        if j in ("nan", "inf", "-inf") and isinstance(j, str):
            return json.dumps(j)
        if isinstance(j, list):
            return "[" + ",".join(dump(x) for x in j) + "]"
        if isinstance(j, dict):
            return "{" + ",".join(json.dumps(k) + ":" + dump(x) for k, x in j.items()) + "}"
        return json.dumps(j, ensure_ascii=False)
    return dump(to_json(t, v, n))


# ---------------------------------------------------------------------------------------------
# Comparing ctff-run's output


class Num:
    """A JSON number as its text (so that -0, 1e400 and 2^64-1 survive parsing)."""
    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def parse_output(text):
    return json.loads(text, parse_int=Num, parse_float=Num, parse_constant=lambda c: Num(c))


def compare(expected, got, loose, path="result"):
    """expected: to_json's value; got: parse_output's. Returns None or the first difference."""
    if isinstance(expected, bool):
        return None if got is expected else f"{path}: expected {json.dumps(expected)}, got {show(got)}"
    if isinstance(expected, int):
        if not isinstance(got, Num) or not _is_int_text(got.text) or int(got.text) != expected:
            return f"{path}: expected {expected}, got {show(got)}"
        return None
    if isinstance(expected, float) or expected in ("nan", "inf", "-inf") and not isinstance(got, str):
        return compare_float(expected, got, loose, path)
    if isinstance(expected, str):
        if expected in ("nan", "inf", "-inf") and isinstance(got, str) and got == expected:
            return None
        if got != expected:
            return f"{path}: expected {json.dumps(expected, ensure_ascii=False)}, got {show(got)}"
        return None
    if isinstance(expected, list):
        if not isinstance(got, list) or len(got) != len(expected):
            return f"{path}: expected a list of {len(expected)}, got {show(got)}"
        for i, (e, g) in enumerate(zip(expected, got)):
            d = compare(e, g, loose, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(expected, dict):
        if not isinstance(got, dict) or list(got) != list(expected):
            return f"{path}: expected an object with keys {list(expected)}, got {show(got)}"
        for k in expected:
            d = compare(expected[k], got[k], loose, f"{path}.{k}")
            if d:
                return d
        return None
    raise TypeError(expected)


def _is_int_text(t):
    return t.lstrip("-").isdigit()


def compare_float(expected, got, loose, path):
    """Floats exactly (value and sign of zero), unless the run is loose."""
    e = float(expected) if isinstance(expected, str) else expected
    if isinstance(got, str) and got in ("nan", "inf", "-inf"):
        g = float(got)
    elif isinstance(got, Num):
        try:
            g = float(got.text)
        except ValueError:
            return f"{path}: expected {show_float(e)}, got {got.text}"
        if g in (INF, -INF) or got.text.lower() in ("nan", "-nan", "infinity", "-infinity"):
            return f"{path}: expected {show_float(e)}, got the number {got.text} (nan/inf must be strings)"
    else:
        return f"{path}: expected {show_float(e)}, got {show(got)}"
    if e != e and g != g:
        return None
    if e == g and (e != 0 or math.copysign(1, e) == math.copysign(1, g)):
        if isinstance(got, Num) and sig_digits(got.text) != sig_digits(repr(e)):
            return f"{path}: {got.text} is {show_float(e)}, but not its shortest round-trip spelling"
        return None
    if loose:
        if e == g:  # zeros of either sign
            return None
        if e == e and g == g and math.isfinite(e) and math.isfinite(g) and \
                abs(e - g) <= 1e-5 * max(abs(e), abs(g)) + 1e-30:
            return None
        if e != e or g != g or not math.isfinite(e) or not math.isfinite(g):
            return None  # an Annex G / quotient formula choice
    return f"{path}: expected {show_float(e)}, got {show(got)}"


def sig_digits(text):
    """The significant digits of a decimal number's text ("-1.50e+3" -> "15")."""
    m = text.lstrip("+-").lower().split("e")[0].replace(".", "")
    return m.strip("0") or "0"


def show_float(x):
    return float_json(x) if not isinstance(float_json(x), float) else repr(x)


def show(g):
    if isinstance(g, Num):
        return g.text
    try:
        return json.dumps(g, default=repr, ensure_ascii=False)[:200]
    except TypeError:
        return repr(g)[:200]


def self_test():
    """Hand-computed cases of the arithmetic and the aggregations (execution.md §3)."""
    prog = gen.program(1, {"max_depth": 2})
    c = Ctx(prog, 3, typer_of(prog))
    i32 = lambda *xs: Ten("int32", (len(xs),) if len(xs) != 1 else (), list(xs))  # noqa: E731
    f32 = lambda x: Ten("float32", (), [r32(x)])  # noqa: E731
    checks = []

    def eq(what, got, want):
        ok = same_value(got, want) if isinstance(want, (Ten, tuple)) else \
            (got == want or (got != got and want != want))
        checks.append((what, ok, got, want))
    # integers: wrap, truncation toward zero, INT_MIN / -1
    eq("int32 wrap +", c.arith("+", "int32", 2 ** 31 - 1, 1), -2 ** 31)
    eq("int8 wrap *", c.arith("*", "int8", 100, 3), 44)
    eq("uint8 wrap +", c.arith("+", "uint8", 200, 100), 44)
    eq("-7 / 2", c.arith("/", "int32", -7, 2), -3)
    eq("7 / -2", c.arith("/", "int32", 7, -2), -3)
    eq("INT_MIN / -1", c.arith("/", "int32", -2 ** 31, -1), -2 ** 31)
    eq("uint64 max * 2", c.arith("*", "uint64", 2 ** 64 - 1, 2), 2 ** 64 - 2)
    try:
        c.arith("/", "int64", 5, 0)
        checks.append(("int / 0 is an error", False, "no error", "ExecError"))
    except ExecError:
        pass
    # floats: float32 rounding, division by zero, overflow
    eq("float32 0.1 + 0.2", c.arith("+", "float32", r32(0.1), r32(0.2)), 0.30000001192092896)
    eq("float32 1 / 3", c.arith("/", "float32", 1.0, 3.0), 0.3333333432674408)
    eq("float32 1e30 * 1e30", c.arith("*", "float32", r32(1e30), r32(1e30)), INF)
    eq("float32 FLT_MAX + 1e31 (rounds to FLT_MAX)", c.arith("+", "float32", F32_MAX, r32(1e31)), F32_MAX)
    eq("-1 / +0.0", c.arith("/", "float64", -1.0, 0.0), -INF)
    eq("1 / -0.0", c.arith("/", "float64", 1.0, -0.0), -INF)
    eq("0 / 0", c.arith("/", "float32", 0.0, 0.0), NAN)
    # (as a double first, 2^62 + 2^38 + 1 would be a tie and round to even: 2^62)
    eq("int64 2^62+2^38+1 -> float32 (one rounding)", int_to_float(2 ** 62 + 2 ** 38 + 1, "float32"),
       float(2 ** 62 + 2 ** 39))
    eq("int64 2^55+2^31+1 -> float32", int_to_float(2 ** 55 + 2 ** 31 + 1, "float32"), float(2 ** 55 + 2 ** 32))
    # aggregations at N = 3
    xs = [i32(3, -1), i32(1, 5), i32(2, 2)]
    eq("sum", c.fold_sum(Tensor("int32", (2,)), xs, "sum"), i32(6, 6))
    eq("min", c.minmax(Tensor("int32", (2,)), xs, True), i32(1, -1))
    eq("max", c.minmax(Tensor("int32", (2,)), xs, False), i32(3, 5))
    eq("min N=0", c.minmax(Tensor("int32", (2,)), [], True), i32(2 ** 31 - 1, 2 ** 31 - 1))
    eq("max float32 N=0", c.minmax(Tensor("float32"), [], False), f32(-F32_MAX))
    eq("max with nan", c.minmax(Tensor("float32"), [f32(1.0), f32(NAN), f32(2.0)], False), f32(NAN))
    eq("mean float32", c.mean(Tensor("float32"), [f32(1.0), f32(2.0), f32(2.0)]), f32(5.0 / 3.0))
    eq("mean N=0", c.mean(Tensor("float32"), []), f32(NAN))
    ws = [Ten("uint8", (), [200]), Ten("uint8", (), [100]), Ten("uint8", (), [0])]
    eq("weighted mean, uint8 weights summed in uint8 (300 -> 44)",
       c.weighted_mean(Tensor("float32"), [f32(1.0), f32(3.0), f32(7.0)], ws, "uint8"), f32(500.0 / 44.0))
    eq("secure sum in bounds", c.secure_sum(Tensor("int32", (2,)), xs[1:], 5, False), i32(3, 7))
    for bound, bitwidth, vals in ((4, False, xs[1:]), (2, True, xs[1:]), (5, False, xs), (0, True, []),
                                  (63, True, [])):
        try:
            c.secure_sum(Tensor("int32", (2,)), vals, bound, bitwidth)
            checks.append((f"secure sum bound {bound} bitwidth={bitwidth} is an error", False, "no error",
                           "ExecError"))
        except ExecError:
            pass
    eq("secure sum N=0 with a negative bound", c.secure_sum(Tensor("int32"), [], -3, False), i32(0))
    # zip of all_equal and not
    z = c.zip((Fv("C", True, [i32(1)]), Fv("C", False, [i32(2), i32(3), i32(4)])))
    eq("zip", tuple(z.members), ((i32(1), i32(2)), (i32(1), i32(3)), (i32(1), i32(4))))
    # output text
    eq("float32 0.1 as text", float_text(r32(0.1)), "0.10000000149011612")
    eq("-0.0 as text", float_text(-0.0), "-0")
    eq("compare: 1 is 1.0", compare(1.0, parse_output("1"), False), None)
    eq("compare: -0 is -0.0", compare(-0.0, parse_output("-0"), False), None)
    eq("compare: 0 is not -0.0", compare(-0.0, parse_output("0"), False) is not None, True)
    eq("compare: 1e+30", compare(1e30, parse_output("1e+30"), False), None)
    eq("compare: %.17g is not the shortest", compare(0.1, parse_output("0.10000000000000001"), False) is not None,
       True)
    eq("compare: int as 3.0", compare(3, parse_output("3.0"), False) is not None, True)
    eq("compare: uint64 max", compare(2 ** 64 - 1, parse_output("18446744073709551615"), False), None)
    eq("compare: nan string", compare("nan", parse_output('"nan"'), False), None)
    bad = [x for x in checks if not x[1]]
    for what, _, got, want in bad:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
    print(f"oracle self-test: {len(checks) - len(bad)}/{len(checks)} checks pass")
    return (1 if bad else 0) | self_check_programs(range(1, 201), 2)


def self_check_programs(seeds, max_depth):
    """Evaluates the programs at N = 0, 1, 3: no internal error, the argument JSON reads back to the
    argument's value, the expected result written as ctff-run would write it compares equal."""
    problems = 0
    outcomes = {}
    for seed in seeds:
        prog = gen.program(seed, {"max_depth": max_depth})
        for n in (0, 1, 3):
            try:
                ex = evaluate(prog, n, arg_seed(seed, n))
                kind = "not compared" if ex.indeterminate else f"exit {ex.exit}"
                outcomes[kind] = outcomes.get(kind, 0) + 1
                if ex.arg_json is not None and ex.exit != 2:
                    back = from_json(prog.main.param_type, json.loads(ex.arg_json), n)
                    assert same_value(back, ex.arg_value), "the argument JSON does not read back"
                if ex.exit == 0 and not ex.indeterminate:
                    d = compare(to_json(ex.type, ex.value, n), parse_output(result_text(ex.type, ex.value, n)), False)
                    assert d is None, d
            except Exception as e:  # noqa: BLE001
                problems += 1
                print(f"FAIL seed {seed}, N={n}: {e!r}")
    print(f"oracle self-check of seeds {seeds.start}..{seeds.stop - 1} (depth {max_depth}) at N = 0, 1, 3: "
          + ", ".join(f"{v} {k}" for k, v in sorted(outcomes.items())) + f"; {problems} problems")
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--self-test", action="store_true", help="check the arithmetic on hand-computed cases")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--max-depth", type=int, default=3)
    ap.add_argument("--clients", type=int, action="append", help="N (repeat; default 0, 1, 3)")
    ap.add_argument("--source", action="store_true", help="print the program's C++ too")
    args = ap.parse_args()
    if args.self_test:
        sys.exit(self_test())
    if args.seed is None:
        ap.error("--seed or --self-test")
    prog = gen.program(args.seed, {"max_depth": args.max_depth})
    if args.source:
        print(prog.emit(f"p{args.seed}"))
    print(f"// {prog.main.name} : {gen.type_str(prog.main.fn_type)}")
    for n in args.clients or [0, 1, 3]:
        ex = evaluate(prog, n, arg_seed(args.seed, n))
        print(f"N={n} arg={ex.arg_json} -> {ex.expected_text()}" + (f"  [loose: {', '.join(sorted(ex.loose))}]"
                                                                     if ex.loose else ""))


def arg_seed(seed, n):
    """The seed of the argument of program seed at n clients."""
    return f"ctff-run/{seed}/{n}"


if __name__ == "__main__":
    main()
