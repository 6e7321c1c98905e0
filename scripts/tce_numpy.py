"""A numpy evaluator of tc's tensor-expression language (docs/TCELanguage.md):
the reference that scripts/run-program.py compares tcc's programs with. It is
written apart from the C++ importer (lib/Frontend) on purpose, and assumes a
program the importer accepts (it checks little)."""
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tc_blocks  # noqa: E402  (the block-sparse file layout's helpers)

TOKEN = re.compile(r"\s*(?:(#|//)[^\n]*|(\+=|[\[\](){},;:=+*/-])|"
                   r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*))")


def diis_coefficients(b):
    """tc's DIIS coefficients (lib/Runtime/Diis.cpp, docs/Derivations.md D41):
    the bordered system [B -1; -1 0] [c; lambda] = [0; -1] in c' = D^1/2 c
    (overlaps normalized to a unit diagonal, the border scaled to a largest
    entry of 1), by Gaussian elimination with partial pivoting; None when a
    pivot is below 1e-12 (errors dependent in a way DIIS cannot use), a
    coefficient exceeds 1e4 in size (a combination that cancels nearly equal
    errors: rounding would decide it) or an error is zero."""
    m = len(b)
    if not all(b[k][k] > 0 and np.isfinite(b[k][k]) for k in range(m)):
        return None
    scale = [1 / np.sqrt(b[k][k]) for k in range(m)]
    border = max(scale)
    n = m + 1
    a = [[0.0] * n for _ in range(n)]
    x = [0.0] * n
    for k in range(m):
        for l in range(m):
            a[k][l] = b[k][l] * scale[k] * scale[l]
        a[k][m] = a[m][k] = -scale[k] / border
    x[m] = -1 / border
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if not abs(a[pivot][col]) > 1e-12:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        x[col], x[pivot] = x[pivot], x[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            for l in range(col, n):
                a[r][l] -= f * a[col][l]
            x[r] -= f * x[col]
    for r in range(n - 1, -1, -1):
        x[r] = (x[r] - sum(a[r][l] * x[l] for l in range(r + 1, n))) / a[r][r]
    c = [x[k] * scale[k] for k in range(m)]
    total = sum(c)
    if not (abs(total) > 0 and np.isfinite(total)):
        return None
    c = [v / total for v in c]
    if not all(abs(v) <= 1e4 for v in c):
        return None
    return c


def diis_amplification(b, c):
    """How much an extrapolation with coefficients `c` from overlaps `b` can
    magnify rounding: the condition number of the normalized bordered system
    (a perturbation of the overlaps moves c by that much, relatively) times
    sum |c_k| (the entries' own rounding, combined)."""
    m = len(b)
    d = [1 / np.sqrt(b[k][k]) for k in range(m)]
    a = np.zeros((m + 1, m + 1))
    for k in range(m):
        for l in range(m):
            a[k][l] = b[k][l] * d[k] * d[l]
        a[k][m] = a[m][k] = -1.0
    cond = float(np.linalg.cond(a))
    return (cond if np.isfinite(cond) else 1e300) * float(sum(abs(v) for v in c))


def extrapolate(env, carried, start, history, length):
    """One DIIS step after an iteration: record the carried tensors' values
    and their change, and from two entries on replace them by the
    extrapolation of the last `length`. Returns its diis_amplification (1:
    none)."""
    values = np.concatenate([env[t].ravel() for t in carried])
    history.append((values, values - start))
    if len(history) > length:
        history.pop(0)
    if len(history) < 2:
        return 1.0
    b = [[float(np.dot(e1, e2)) for _, e2 in history] for _, e1 in history]
    c = diis_coefficients(b)
    if c is None:
        return 1.0
    nxt = sum(ck * v for ck, (v, _) in zip(c, history))
    at = 0
    for t in carried:
        n = env[t].size
        env[t] = nxt[at:at + n].reshape(env[t].shape)
        at += n
    return diis_amplification(b, c)


def tokens(text):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"cannot read {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.group(2):
            out.append(m.group(2))
        elif m.group(3):
            out.append(float(m.group(3)))
        elif m.group(4):
            out.append(m.group(4))
    return out


class Program:
    """ranges {name: extent}, index_range {index: range}, tensors {name: (role,
    indices, dtype)} for inputs and outputs, statements [(target, indices,
    accumulate, terms)] with terms [(coefficient, [(i, j) swaps], [(tensor,
    indices)])]."""

    def __init__(self, text):
        self.name, self.ranges, self.index_range, self.tensors = "tce", {}, {}, {}
        self.segments, self.presence = {}, {}  # block-sparse ranges and tensors
        self.restricted = set()  # tensors declared `restricted` (spin restriction)
        self.diis_amplification = 1.0  # evaluate's: the largest of a DIIS step
        self.declared_pairs = {}  # per tensor, its (dimension, dimension, antisymmetric)
        self.flips = {}  # per range with `flip [...]`, its segments' spin partners
        self.labels = {}  # per labelled range, its segments' symmetry labels
        self.charges = {}  # per charged range, its segments' charges
        self.statements, self.loops, self.iterations = [], [], []
        self.reciprocals = set()  # statements `X = 1 / (...)`, by position
        t, self.t, self.at = tokens(text), None, 0
        self.t = t
        while self.at < len(t):
            word = t[self.at]
            nxt = t[self.at + 1] if self.at + 1 < len(t) else None
            if word == "program" and nxt != "[":
                self.name = t[self.at + 1]
                self.at += 3
            elif word == "range" and nxt != "[":
                name = t[self.at + 1]
                self.ranges[name] = int(t[self.at + 3])
                self.at += 4
                if self.peek() == ":":  # `: segments [n, ...]`
                    self.at += 2
                    self.segments[name] = [int(x) for x in self.int_list()]
                    if self.peek() == "labels":  # `labels [l, ...]`
                        self.at += 1
                        self.labels[name] = [int(x) for x in self.int_list()]
                    if self.peek() == "charges":  # `charges [c, ...]`
                        self.at += 1
                        self.charges[name] = self.signed_list()
                    if self.peek() == "flip":  # `flip [p, ...]`: spin partners
                        self.at += 1
                        self.flips[name] = [int(x) for x in self.int_list()]
                self.expect(";")
            elif word == "index" and nxt != "[":
                self.at += 1
                names = [self.take()]
                while self.peek() == ",":
                    self.take()
                    names.append(self.take())
                self.expect(":")
                r = self.take()
                self.expect(";")
                for n in names:
                    self.index_range[n] = r
            elif word in ("input", "output") and nxt != "[":
                self.at += 1
                decls = [self.ref()]
                while self.peek() == ",":
                    self.take()
                    decls.append(self.ref())
                dtype, presence, restricted, named_pairs = np.float64, None, False, []
                if self.peek() == ":":
                    self.take()
                    while self.peek() != ";":
                        x = self.take()
                        if x in ("f32", "f64"):
                            dtype = np.float32 if x == "f32" else np.float64
                        elif x == "symmetry":
                            presence = ("symmetry", int(self.take()), None)
                        elif x == "charge":  # `charge Q signs [+, -, ...]`
                            total = self.signed()
                            self.expect("signs")
                            self.expect("[")
                            signs = []
                            while self.peek() != "]":
                                sign = self.take()
                                if sign != ",":
                                    signs.append(1 if sign == "+" else -1)
                            self.take()
                            presence = ("symmetry", presence[1] if presence else None,
                                        (total, signs))
                        elif x == "restricted":  # one of each spin-flipped pair stored
                            restricted = True
                        elif x in ("antisymmetric", "symmetric"):  # `[a, b] [i, j]`
                            while self.peek() == "[":
                                self.take()
                                one = self.take()
                                self.expect(",")
                                two = self.take()
                                self.expect("]")
                                named_pairs.append((one, two, x == "antisymmetric"))
                        elif x == "blocks" and self.peek() == "all":
                            self.take()
                            presence = ("all",)
                        elif x == "blocks":
                            self.expect("[")
                            listed = [self.int_list()]
                            while self.take() == ",":
                                listed.append(self.int_list())
                            presence = ("list", [[int(i) for i in b] for b in listed])
                self.expect(";")
                for name, idx in decls:
                    self.tensors[name] = (word, idx, dtype)
                    if presence is not None:
                        self.presence[name] = presence
                    if restricted:
                        self.restricted.add(name)
                    if named_pairs:
                        dims = [tuple(sorted((idx.index(p), idx.index(q)))) + (anti,)
                                for p, q, anti in named_pairs]
                        self.declared_pairs[name] = sorted(dims)
            elif word == "iterate" and nxt != "[":
                self.loop()
            else:
                self.statement()

    def loop(self):
        """`iterate (max N until E converges to TOL | N) [diis N] { statements }`."""
        self.take()
        converge, tolerance = None, 0.0
        if self.peek() == "max":
            self.take()
            count = int(self.take())
            self.take()  # until
            converge = self.take()
            self.take()  # converges
            self.take()  # to
            tolerance = float(self.take())
        else:
            count = int(self.take())
        diis = 0
        if self.peek() == "diis":
            self.take()
            diis = int(self.take())
        self.expect("{")
        first = len(self.statements)
        while self.peek() != "}":
            self.statement()
        self.take()
        self.loops.append((count, converge, tolerance, first, len(self.statements) - first,
                           diis))

    def carried(self, first, count):
        """The tensors a loop carries: assigned in it, and read before they
        are assigned in an iteration (in order of first read, as tc's)."""
        body = self.statements[first:first + count]
        in_loop = {st[0] for st in body}
        assigned, out = set(), []
        for target, _, accumulate, terms in body:
            reads = [f[0] for _, _, factors in terms for f in factors]
            reads += [target] if accumulate else []
            for t in reads:
                if t in in_loop and t not in assigned and t not in out:
                    out.append(t)
            assigned.add(target)
        return out

    def live_loops(self):
        """Per loop, whether the outputs depend on a value it computes (the
        compiler removes a loop they do not): liveness by tensor name,
        backwards from the outputs, a loop's body to a fixed point."""
        needed = set(self.outputs())
        live = [False] * len(self.loops)

        def visit(statement):
            target, _, accumulate, terms = statement
            if target not in needed:
                return False
            if not accumulate:
                needed.discard(target)
            for _, _, factors in terms:
                needed.update(f[0] for f in factors)
            return True

        s = len(self.statements)
        while s > 0:
            loop = next((k for k, l in enumerate(self.loops) if l[3] + l[4] == s), None)
            if loop is None:
                s -= 1
                visit(self.statements[s])
                continue
            first, count = self.loops[loop][3], self.loops[loop][4]
            while True:  # what one iteration needs, the one before needs too
                before = set(needed)
                for st in reversed(self.statements[first:first + count]):
                    live[loop] |= visit(st)
                needed |= before
                if needed == before:
                    break
            s = first
        return live

    def peek(self):
        return self.t[self.at] if self.at < len(self.t) else None

    def take(self):
        self.at += 1
        return self.t[self.at - 1]

    def expect(self, s):
        if self.take() != s:
            raise ValueError(f"expected {s!r} near token {self.at}")

    def signed(self):
        """An integer with an optional '-'."""
        negative = self.peek() == "-"
        if negative:
            self.take()
        value = int(self.take())
        return -value if negative else value

    def signed_list(self):
        """'[' signed (',' signed)* ']'."""
        self.expect("[")
        out = [self.signed()]
        while self.take() == ",":
            out.append(self.signed())
        return out

    def int_list(self):
        """'[' n (',' n)* ']' or '[' ']'."""
        self.expect("[")
        out = []
        while self.peek() != "]":
            x = self.take()
            if x != ",":
                out.append(x)
        self.take()
        return out

    def ref(self):
        name = self.take()
        self.expect("[")
        idx = []
        while self.peek() != "]":
            x = self.take()
            if x != ",":
                idx.append(x)
        self.take()
        return name, idx

    def statement(self):
        target, idx = self.ref()
        accumulate = self.take() == "+="
        # `1 / (terms)` or `1 / X[...]`: the reciprocal of the value.
        reciprocal = self.peek() == 1.0 and self.t[self.at + 1] == "/"
        if reciprocal:
            self.at += 2
            if self.peek() == "(":
                self.take()
        terms, sign = [], 1.0
        if self.peek() in ("+", "-"):
            sign = -1.0 if self.take() == "-" else 1.0
        while True:
            coef, swaps, factors = sign, [], []
            while self.peek() not in ("+", "-", ";", ")"):
                x = self.take()
                if x == "*":
                    continue
                if isinstance(x, float):
                    coef *= x
                elif x == "P" and self.peek() == "(":
                    self.take()
                    pair = []
                    while self.peek() != ")":
                        y = self.take()
                        if y == ",":
                            continue
                        pair += [y] if y in self.index_range else list(y)
                    self.take()
                    swaps.append(tuple(pair))
                elif x == "sum" and self.peek() == "[":
                    while self.take() != "]":
                        pass
                else:
                    self.at -= 1
                    factors.append(self.ref())
            terms.append((coef, swaps, factors))
            if self.peek() == ")":
                self.take()
            if self.take() == ";":
                break
            sign = -1.0 if self.t[self.at - 1] == "-" else 1.0
        self.statements.append((target, idx, accumulate, terms))
        if reciprocal:
            self.reciprocals.add(len(self.statements) - 1)

    def shape(self, indices):
        return tuple(self.ranges[self.index_range[i]] for i in indices)

    def tensor_segments(self, name):
        """Per dimension of a declared tensor, its range's segment lengths."""
        return [self.segments[self.index_range[i]] for i in self.tensors[name][1]]

    def flip(self, name):
        """A restricted tensor's spin flip (per dimension, each segment's
        partner: equal length and label, opposite charge); None otherwise."""
        if name not in self.restricted:
            return None
        ranges = [self.index_range[i] for i in self.tensors[name][1]]
        return [self.flips[r] if r in self.flips else
                tc_blocks.partners(self.segments[r],
                                   self.charges.get(r, [0] * len(self.segments[r])),
                                   self.labels.get(r)) for r in ranges]

    def pairs(self, name):
        """A declared tensor's pair symmetries, (dimension, dimension,
        antisymmetric) each, by first dimension; None without."""
        return self.declared_pairs.get(name)

    def blocks(self, name):
        """The stored blocks of a declared block-sparse tensor, row-major (a
        restricted one: one of each spin-flipped pair; one with pairs: one of
        each set they relate); None for a dense one."""
        blocks = self.present_blocks(name)
        return None if blocks is None else tc_blocks.stored(blocks, self.flip(name),
                                                            self.pairs(name))

    def present_blocks(self, name):
        """The present blocks of a declared block-sparse tensor, row-major;
        None for a dense one."""
        p = self.presence.get(name)
        if p is None:
            return None
        segs = self.tensor_segments(name)
        if p[0] == "all":
            return tc_blocks.all_blocks(segs)
        if p[0] == "symmetry":
            ranges = [self.index_range[i] for i in self.tensors[name][1]]
            blocks = (tc_blocks.all_blocks(segs) if p[1] is None else
                      tc_blocks.symmetric(segs, p[1], [self.labels.get(r) for r in ranges]))
            if p[2] is not None:  # and the signed charges sum to the total
                charges = [self.charges.get(r, [0] * len(self.segments[r])) for r in ranges]
                blocks = tc_blocks.charged(blocks, charges, p[2][1], p[2][0])
            return blocks
        return sorted(p[1])

    def mask(self, name, value, magnitude=False):
        """`value` with the blocks `name` does not have present set to zero,
        equal to its spin flip when it is restricted and (anti)symmetric in
        its pairs."""
        blocks = self.present_blocks(name)
        if blocks is None:
            return value
        segments = self.tensor_segments(name)
        # Magnitudes are averaged as if every pair were symmetric: an
        # antisymmetric average of magnitudes would cancel them.
        pairs = self.pairs(name)
        if magnitude and pairs:
            pairs = [(p, q, False) for p, q, _ in pairs]
        return tc_blocks.symmetrize(tc_blocks.mask(value, segments, blocks), segments,
                                    self.flip(name), pairs)

    def inputs(self):
        return {n: (idx, dt) for n, (role, idx, dt) in self.tensors.items() if role == "input"}

    def outputs(self):
        return {n: (idx, dt) for n, (role, idx, dt) in self.tensors.items() if role == "output"}

    def reciprocal_operands(self):
        """The tensors the statements `X = 1 / (...)` read."""
        return {name for k in self.reciprocals for _, _, factors in self.statements[k][3]
                for name, _ in factors}

    def evaluate(self, inputs, magnitude=False):
        """Every output's value (in f64) given the inputs' arrays (evaluate
        the values before their magnitudes: loops take their counts). With
        magnitude, every input, coefficient and antisymmetrizer's sign taken
        positive: the size of the terms a value sums, against which rounding
        is measured (an antisymmetrized sum can cancel to zero)."""
        env = {n: np.asarray(v, dtype=np.float64) for n, v in inputs.items()}
        if magnitude:
            env = {n: np.abs(v) for n, v in env.items()}
        letters = {}
        for i in self.index_range:
            letters[i] = chr(ord("a") + len(letters)) if len(letters) < 26 else \
                chr(ord("A") + len(letters) - 26)
        # A loop repeats its statements until its scalar changes by less
        # than the tolerance (or its count ran); the magnitudes run as many
        # iterations as the values did.
        counts = list(self.iterations) if magnitude else []
        if not magnitude:
            self.iterations = []
            # The largest rounding magnification of a DIIS step in this run:
            # tc sums the same overlaps in another order.
            self.diis_amplification = 1.0
        s = 0
        while s < len(self.statements):
            loop = next((l for l in self.loops if l[3] == s), None)
            if loop is None:
                self.run_statement(env, letters, magnitude, s)
                s += 1
                continue
            most, converge, tolerance, first, count, diis = loop
            runs = counts.pop(0) if magnitude else most
            previous = None
            carried = self.carried(first, count)
            history = []
            for k in range(1, runs + 1):
                start = np.concatenate([env[t].ravel() for t in carried]) if carried else None
                for st in range(first, first + count):
                    self.run_statement(env, letters, magnitude, st)
                if magnitude:
                    continue
                if converge is not None:
                    value = float(env[converge])
                    if previous is not None and abs(value - previous) < tolerance:
                        break
                    previous = value
                if diis and k < runs:
                    self.diis_amplification = max(
                        self.diis_amplification, extrapolate(env, carried, start, history, diis))
            if not magnitude:
                self.iterations.append(k)
            s = first + count
        return {n: env[n] for n in self.outputs()}

    def run_statement(self, env, letters, magnitude, k):
        """Statement k's value into env."""
        for target, idx, accumulate, terms in [self.statements[k]]:
            value = None
            for coef, swaps, factors in terms:
                # A target index no factor has broadcasts the term: a vector
                # of ones over it joins the product.
                present = {i for f in factors for i in f[1]}
                ones = [i for i in idx if i not in present]
                spec = ",".join("".join(letters[i] for i in f[1]) for f in factors)
                spec += "".join("," + letters[i] for i in ones)
                spec += "->" + "".join(letters[i] for i in idx)
                operands = [env[f[0]] for f in factors]
                operands += [np.ones(self.ranges[self.index_range[i]]) for i in ones]
                # Intermediates may exceed the inputs (numpy's default limit
                # would evaluate a long product as one loop nest).
                v = (abs(coef) if magnitude else coef) * np.einsum(
                    spec, *operands, optimize=("greedy", 1e12))
                # P(ij) t = t - t with i and j exchanged; the rightmost P acts first.
                for i, j in reversed(swaps):
                    swapped = np.swapaxes(v, idx.index(i), idx.index(j))
                    v = v + swapped if magnitude else v - swapped
                value = v if value is None else value + v
            if k in self.reciprocals:
                # X = 1 / (...). A zero stays zero: the absent blocks of a
                # block-sparse tensor, which the program does not store.
                # (Magnitudes: the reciprocal of the terms' magnitude.)
                with np.errstate(divide="ignore"):
                    value = np.where(value != 0, 1 / np.where(value != 0, value, 1), 0)
            if accumulate and target in env:
                env[target] = env[target] + value
            else:
                env[target] = np.array(value, dtype=np.float64)
            # A block-sparse tensor keeps only its blocks (an intermediate's
            # are those its terms can fill, so it needs no mask).
            if target in self.tensors:
                env[target] = self.mask(target, env[target], magnitude)
