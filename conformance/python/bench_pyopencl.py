"""The benchmark kernels (conformance/bench/*.cl) driven through pyopencl, the
way pyopencl users launch them: `knl(queue, global_size, None, *args)` (a NULL
local size wherever the kernel allows one), the arguments set again by every
call, and the Event each call returns kept and waited on. cranecl and pocl
run in one process (the loader sees both through OCL_ICD_VENDORS) in
alternating rounds; the best round of each counts. Every result is checked
against numpy. A benchmark, not a test: it prints a table and fails only
when a result is wrong.

    scripts/install-deps.sh && cargo build --release -p cranecl
    target/venv/bin/python conformance/python/bench_pyopencl.py [--quick] [--rounds N] [--only a,b]

Sizes are those of the Rust bench_kernels binary (--quick: its quick sizes);
the two private-memory cases (private.cl) are this driver's own.
"""

import argparse
import math
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
BENCH = ROOT / "conformance" / "bench"


def vendors_both():
    """A vendors folder naming the built cranecl and the system's pocl."""
    so = ROOT / "target" / "release" / "libcranecl.so"
    if not so.exists():
        sys.exit(f"{so} is missing: run `cargo build --release -p cranecl` first")
    folder = ROOT / "target" / "release" / "icd-vendors" / "both"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cranecl.icd").write_text(f"{so}\n")
    pocl = pathlib.Path("/etc/OpenCL/vendors/pocl.icd")
    if pocl.exists():
        (folder / "pocl.icd").write_text(pocl.read_text())
    return folder


# The loader reads OCL_ICD_VENDORS when pyopencl first asks for platforms.
os.environ["OCL_ICD_VENDORS"] = str(vendors_both())
# numpy's OpenBLAS threads would compete with the devices' threads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

MF = cl.mem_flags
PLATFORMS = [("cranecl", "cranecl"), ("pocl", "Portable Computing Language")]


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


class Rig:
    """One platform's context, queue and program cache."""

    def __init__(self, label, platform):
        self.label = label
        self.device = platform.get_devices()[0]
        self.ctx = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.ctx)
        self.programs = {}
        self.kernels = {}

    def program(self, name):
        if name not in self.programs:
            src = (BENCH / f"{name}.cl").read_text()
            self.programs[name] = cl.Program(self.ctx, src).build()
        return self.programs[name]

    def kernel(self, program, name):
        """One Kernel object per name, reused by every case (as users keep one)."""
        if (program, name) not in self.kernels:
            self.kernels[program, name] = cl.Kernel(self.program(program), name)
        return self.kernels[program, name]

    def upload(self, array):
        return cl.Buffer(self.ctx, MF.READ_WRITE | MF.COPY_HOST_PTR, hostbuf=array)

    def buffer(self, nbytes):
        return cl.Buffer(self.ctx, MF.READ_WRITE, nbytes)

    def read(self, buf, dtype, count):
        out = np.empty(count, dtype)
        cl.enqueue_copy(self.queue, out, buf)
        return out


def close(got, want, tol, what):
    """None, or the first element where |got - want| > tol (arrays)."""
    bad = np.nonzero(np.abs(got.astype(np.float64) - want) > tol)[0]
    if len(bad) == 0:
        return None
    i = bad[0]
    return f"{what}: {len(bad)} wrong, first [{i}] got {got[i]}, expected {want[i]}"


# ---------------------------------------------------------------- the cases
# Each case is a function (rig, size) -> (run, check), where run() enqueues
# and waits as a pyopencl user would, and check() returns None or an error.


def triad(rig, quick):
    n = (4 if quick else 64) << 20
    rng = np.random.default_rng(1)
    b = rng.uniform(-1, 1, n).astype(np.float32)
    c = rng.uniform(-1, 1, n).astype(np.float32)
    s = np.float32(3.0)
    knl = rig.kernel("triad", "triad")
    ab, bb, cb = rig.buffer(4 * n), rig.upload(b), rig.upload(c)

    def run():
        knl(rig.queue, (n,), None, ab, bb, cb, s).wait()

    def check():
        want = b.astype(np.float64) + 3.0 * c
        return close(rig.read(ab, np.float32, n), want, 2.4e-7 * (np.abs(b) + 3 * np.abs(c)), "a")

    return f"{n >> 20}M floats", run, check


MANDEL_ITER = 256


def mandel_counts(cr, ci, kind):
    """Escape counts with the kernel's operations in its order: "plain"
    (float32), "fused" (float32, 2*zr*zi + ci as one multiply-add, done in
    float64 and rounded once) or "wide" (float64). Only live pixels iterate."""
    dt = np.float64 if kind == "wide" else np.float32
    cr, ci = cr.astype(dt), ci.astype(dt)
    n = np.zeros(cr.shape, np.uint32)
    idx = np.arange(cr.size)
    zr, zi = np.zeros_like(cr), np.zeros_like(ci)
    for _ in range(MANDEL_ITER):
        zr2, zi2 = zr * zr, zi * zi
        live = zr2 + zi2 <= 4.0
        idx, zr, zi, zr2, zi2, cr, ci = (a[live] for a in (idx, zr, zi, zr2, zi2, cr, ci))
        if idx.size == 0:
            break
        t = zr2 - zi2 + cr
        if kind == "fused":
            zi = (2.0 * zr.astype(np.float64) * zi + ci).astype(np.float32)
        else:
            zi = dt(2.0) * zr * zi + ci
        zr = t
        n[idx] += 1
    return n


def mandel_reference(w, h):
    xs = np.float32(-2.25) + np.arange(w, dtype=np.float32) * np.float32(3.0 / w)
    ys = np.float32(-1.25) + np.arange(h, dtype=np.float32) * np.float32(2.5 / h)
    cr, ci = (a.ravel() for a in np.meshgrid(xs, ys))
    return [mandel_counts(cr, ci, kind) for kind in ("plain", "fused", "wide")]


def mandelbrot(rig, quick):
    w = h = 512 if quick else 2048
    knl = rig.kernel("mandelbrot", "mandelbrot")
    out = rig.buffer(4 * w * h)
    args = (np.float32(-2.25), np.float32(-1.25), np.float32(3.0 / w), np.float32(2.5 / h))

    def run():
        knl(rig.queue, (w, h), None, out, *args, np.uint32(MANDEL_ITER)).wait()

    def check():
        if ("mandel", w) not in REFS:
            REFS["mandel", w] = mandel_reference(w, h)
        plain, fused, wide = REFS["mandel", w]
        got = rig.read(out, np.uint32, w * h)
        # Near the set's edge the count is chaotic: a contracted multiply-add
        # (OpenCL C allows one) changes it. As bench_kernels does, a differing
        # pixel is explained when it matches the fused or the float64 count,
        # or those disagree with the plain one; unexplained ones are wrong,
        # and so are more than 1% explained ones.
        differ = got != plain
        unsure = (fused != plain) | (wide != plain)
        explained = differ & ((got == fused) | (got == wide) | unsure) & (got <= MANDEL_ITER)
        bad = np.nonzero(differ & ~explained)[0]
        if len(bad):
            i = bad[0]
            return f"{len(bad)} pixels wrong, first {i}: got {got[i]}, expected {plain[i]}"
        if explained.sum() > w * h // 100:
            return f"{explained.sum()} boundary pixels differ"
        return None

    return f"{w}x{h}, {MANDEL_ITER} iter", run, check


REFS = {}
NBODY_LOCAL = 64


def nbody(rig, quick):
    n = 4096 if quick else 16384
    rng = np.random.default_rng(3)
    pos = np.zeros((n, 4), np.float32)
    pos[:, :3] = rng.uniform(-1, 1, (n, 3))
    pos[:, 3] = rng.uniform(0.1, 1.0, n) / n
    vel = np.zeros((n, 4), np.float32)
    vel[:, :3] = rng.uniform(-0.1, 0.1, (n, 3))
    dt, eps2 = np.float32(0.01), np.float32(0.01)
    knl = rig.kernel("nbody", "nbody")
    pb, vb = rig.upload(pos), rig.upload(vel)
    npb, nvb = rig.buffer(16 * n), rig.buffer(16 * n)
    tile = cl.LocalMemory(16 * NBODY_LOCAL)

    def run():
        # The tile size is the local size: this kernel needs one given.
        knl(rig.queue, (n,), (NBODY_LOCAL,), pb, vb, npb, nvb, tile, np.uint32(n), dt, eps2).wait()

    def check():
        got_p = rig.read(npb, np.float32, 4 * n).reshape(n, 4)
        got_v = rig.read(nvb, np.float32, 4 * n).reshape(n, 4)
        p64 = pos.astype(np.float64)
        for i in np.linspace(0, n - 1, 256).astype(int):
            d = p64[:, :3] - p64[i, :3]
            r2 = (d * d).sum(1) + float(eps2)
            s = p64[:, 3] / (r2 * np.sqrt(r2))
            acc = (s[:, None] * d).sum(0)
            scale = float(dt) * np.abs(s[:, None] * d).sum() + 1.0
            v = vel[i, :3] + float(dt) * acc
            p = p64[i, :3] + float(dt) * v
            tol = 1e-5 * scale
            if np.abs(got_v[i, :3] - v).max() > tol or np.abs(got_p[i, :3] - p).max() > tol:
                return f"body {i}: got pos {got_p[i]}, vel {got_v[i]}; expected {p}, {v}"
        return None

    return f"{n} bodies, local {NBODY_LOCAL}", run, check


def sgemm(rig, quick):
    n = 256 if quick else 1024
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    knl = rig.kernel("sgemm", "sgemm")
    ab, bb, cb = rig.upload(a), rig.upload(b), rig.buffer(4 * n * n)

    def run():
        # 16x16 tiles in the kernel: the local size is part of its contract.
        knl(rig.queue, (n, n), (16, 16), ab, bb, cb, np.uint32(n)).wait()

    def check():
        got = rig.read(cb, np.float32, n * n).reshape(n, n)
        r = rng.integers(0, n, 2048)
        c = rng.integers(0, n, 2048)
        want = np.einsum("ij,ji->i", a[r].astype(np.float64), b[:, c].astype(np.float64))
        tol = 1e-5 * np.einsum("ij,ji->i", np.abs(a[r]).astype(np.float64), np.abs(b[:, c])) + 1e-6
        return close(got[r, c], want, tol, "C (2048 sampled)")

    return f"{n}^3, 16x16 tiles", run, check


LOCAL, BLOCK = 256, 512


def reduce(rig, quick):
    n = (1 if quick else 16) << 20
    host = np.random.default_rng(6).uniform(0, 1, n).astype(np.float32)
    groups = [n // BLOCK]
    while groups[-1] >= BLOCK and groups[-1] % BLOCK == 0:
        groups.append(groups[-1] // BLOCK)
    knl = rig.kernel("reduce", "reduce_sum")
    inb = rig.upload(host)
    partials = [rig.buffer(4 * g) for g in groups]
    scratch = cl.LocalMemory(4 * LOCAL)

    def run():
        src, evt = inb, None
        for g, dst in zip(groups, partials):
            evt = knl(rig.queue, (g * LOCAL,), (LOCAL,), src, dst, scratch)
            src = dst
        evt.wait()

    def check():
        got = rig.read(partials[0], np.float32, groups[0])
        want = host.reshape(-1, BLOCK).astype(np.float64).sum(1)
        err = close(got, want, 1e-5 * np.abs(want) + 1e-6, "first-level partial sums")
        if err:
            return err
        total = rig.read(partials[-1], np.float32, groups[-1]).astype(np.float64).sum()
        want = host.astype(np.float64).sum()
        return None if abs(total - want) <= 1e-5 * want else f"total {total}, expected {want}"

    return f"{n >> 20}M floats, {len(groups)} launches", run, check


def scan(rig, quick):
    n = (1 if quick else 16) << 20
    data = np.random.default_rng(7).integers(0, 2**32, n, dtype=np.uint32)
    counts = [n]
    while counts[-1] > BLOCK:
        counts.append(-(-(counts[-1] // BLOCK) // BLOCK) * BLOCK)
    blocks, offsets = rig.kernel("scan", "scan_blocks"), rig.kernel("scan", "add_offsets")
    inb = rig.upload(data)
    bufs = [rig.buffer(4 * c) for c in counts] + [rig.buffer(4)]
    tmp = cl.LocalMemory(4 * BLOCK)

    def run():
        evt = None
        for lvl, c in enumerate(counts):
            src = inb if lvl == 0 else bufs[lvl]
            evt = blocks(rig.queue, (c // BLOCK * LOCAL,), (LOCAL,), src, bufs[lvl], bufs[lvl + 1], tmp)
        for lvl in reversed(range(len(counts) - 1)):
            evt = offsets(rig.queue, (counts[lvl] // BLOCK * LOCAL,), (LOCAL,), bufs[lvl], bufs[lvl + 1])
        evt.wait()

    def check():
        got = rig.read(bufs[0], np.uint32, n)
        want = np.cumsum(data, dtype=np.uint32)
        bad = np.nonzero(got != want)[0]
        return None if len(bad) == 0 else f"{len(bad)} wrong, first [{bad[0]}]: {got[bad[0]]} vs {want[bad[0]]}"

    return f"{n >> 20}M uints, {2 * len(counts) - 1} launches", run, check


def histogram(rig, quick):
    n = (4 if quick else 64) << 20
    per_group = 1 << 16
    v = np.random.default_rng(8).integers(0, 2**32, n, dtype=np.uint32)
    data = (((v & 0xFFFF) * (v >> 16)) >> 24).astype(np.uint8)
    knl = rig.kernel("histogram", "histogram256")
    db, hist = rig.upload(data), rig.buffer(4 * 256)
    zeros = np.zeros(256, np.uint32)

    def run():
        cl.enqueue_copy(rig.queue, hist, zeros)
        # The group count is the data's split: the local size is given.
        knl(rig.queue, (n // per_group * LOCAL,), (LOCAL,), db, np.uint32(per_group), hist).wait()

    def check():
        got = rig.read(hist, np.uint32, 256)
        want = np.bincount(data, minlength=256)
        return None if (got == want).all() else f"bins differ: first {np.nonzero(got != want)[0][0]}"

    return f"{n >> 20}M bytes, local atomics", run, check


def spmv(rig, quick):
    rows = 1 << (16 if quick else 20)
    rng = np.random.default_rng(9)
    lengths = rng.integers(8, 25, rows)
    row_ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.uint32)
    nnz = int(row_ptr[-1])
    col = rng.integers(0, rows, nnz, dtype=np.uint32)
    val = rng.uniform(-1, 1, nnz).astype(np.float32)
    x = rng.uniform(-1, 1, rows).astype(np.float32)
    knl = rig.kernel("spmv", "spmv_csr")
    bufs = [rig.upload(a) for a in (row_ptr, col, val, x)]
    y = rig.buffer(4 * rows)

    def run():
        knl(rig.queue, (rows,), None, np.uint32(rows), *bufs, y).wait()

    def check():
        t = val.astype(np.float64) * x[col]
        want = np.add.reduceat(t, row_ptr[:-1].astype(np.int64))
        scale = np.add.reduceat(np.abs(t), row_ptr[:-1].astype(np.int64))
        return close(rig.read(y, np.float32, rows), want, 1e-6 * scale + 1e-7, "y")

    return f"{rows >> 10}K rows, {nnz} nonzeros", run, check


def private_table(rig, quick):
    n = (1 if quick else 4) << 20
    rng = np.random.default_rng(11)
    data = rng.integers(0, 1 << 30, 1 << 20, dtype=np.uint32)
    knl = rig.kernel("private", "private_table")
    inb, out = rig.upload(data), rig.buffer(4 * n)

    def run():
        knl(rig.queue, (n,), None, out, inb).wait()

    def check():
        g = np.arange(n, dtype=np.int64)
        acc = np.zeros((n, 16))
        mag = np.zeros(n)
        for i in range(32):
            v = data[(g * 7 + i * 13) & 0xFFFFF].astype(np.int64)
            x = (v >> 4).astype(np.float32).astype(np.float64) * 0.001
            np.add.at(acc, (g, v & 15), x)
            mag += x
        want = acc @ np.arange(1, 17, dtype=np.float64)
        return close(rig.read(out, np.float32, n), want, 1e-5 * 16 * mag, "out")

    return f"{n >> 20}M items, float[16]", run, check


def private_records(rig, quick):
    n = (1 if quick else 4) << 20
    rng = np.random.default_rng(12)
    pts = rng.uniform(-1, 1, (1 << 20, 4)).astype(np.float32)
    knl = rig.kernel("private", "private_records")
    inb, out = rig.upload(pts), rig.buffer(4 * n)

    def run():
        knl(rig.queue, (n,), None, out, inb).wait()

    def check():
        g = np.arange(n)
        p = [pts[(g + i) & 0xFFFFF].astype(np.float64) for i in range(4)]
        want = np.zeros(n)
        mag = np.zeros(n)
        for a in p:
            for b in p:
                d = a[:, :3] - b[:, :3]
                t = np.sqrt((d * d).sum(axis=1) + 1.0) * b[:, 3]
                want += t
                mag += np.abs(t)
        return close(rig.read(out, np.float32, n), want, 1e-5 * mag + 1e-6, "out")

    return f"{n >> 20}M items, struct[4]", run, check


def conv5x5(rig, quick):
    w = h = 1024 if quick else 4096
    rng = np.random.default_rng(5)
    img = rng.uniform(0, 1, (h, w)).astype(np.float32)
    filt = rng.uniform(-1, 1, 25).astype(np.float32)
    knl = rig.kernel("conv5x5", "conv5x5")
    ib, ob = rig.upload(img), rig.buffer(4 * w * h)
    fb = cl.Buffer(rig.ctx, MF.READ_ONLY | MF.COPY_HOST_PTR, hostbuf=filt)

    def run():
        knl(rig.queue, (w, h), None, ib, ob, fb).wait()

    def check():
        pad = np.pad(img.astype(np.float64), 2, mode="edge")
        want = np.zeros((h, w))
        scale = np.zeros((h, w))
        for dy in range(5):
            for dx in range(5):
                t = filt[dy * 5 + dx] * pad[dy : dy + h, dx : dx + w]
                want += t
                scale += np.abs(t)
        got = rig.read(ob, np.float32, w * h)
        return close(got, want.ravel(), 1e-6 * scale.ravel() + 1e-7, "out")

    return f"{w}x{h}, constant filter", run, check


def resample(rig, quick):
    """bench/resample.cl: a bilinear resample of an RGBA8 image (normalized
    coordinates, clamp to edge, linear filter) to a float4 image."""
    w, h, ow, oh = (1024, 1024, 768, 768) if quick else (4096, 4096, 3072, 3072)
    rng = np.random.default_rng(9)
    yy, xx = np.mgrid[0:h, 0:w]
    chan = np.arange(4)
    wave = np.sin(xx[..., None] * 0.011 + yy[..., None] * 0.007 + chan)
    src = np.clip(np.round(128 + 100 * wave + rng.uniform(-12, 12, (h, w, 4))), 0, 255)
    src = src.astype(np.uint8)
    knl = rig.kernel("resample", "resample")
    rgba8 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.UNORM_INT8)
    f32x4 = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
    si = cl.create_image(rig.ctx, MF.READ_ONLY | MF.COPY_HOST_PTR, rgba8, shape=(w, h), hostbuf=src)
    di = cl.create_image(rig.ctx, MF.WRITE_ONLY, f32x4, shape=(ow, oh))

    def run():
        knl(rig.queue, (ow, oh), None, si, di).wait()

    def axis(out, size):
        # The kernel's coordinate in float, then the spec's linear filter.
        s = (np.arange(out, dtype=np.float32) + np.float32(0.5)) / np.float32(out)
        u = (s * np.float32(size)).astype(np.float64) - 0.5
        i0 = np.floor(u)
        a = u - i0
        return (np.clip(i0, 0, size - 1).astype(int), np.clip(i0 + 1, 0, size - 1).astype(int), a)

    def check():
        got = np.empty((oh, ow, 4), np.float32)
        cl.enqueue_copy(rig.queue, got, di, origin=(0, 0), region=(ow, oh))
        i0, i1, a = axis(ow, w)
        j0, j1, b = axis(oh, h)
        t = src.astype(np.float64) / 255.0
        a = a[None, :, None]
        for r in range(0, oh, 256):
            rows = slice(r, min(r + 256, oh))
            bb = b[rows, None, None]
            r0, r1 = t[j0[rows]], t[j1[rows]]
            want = ((1 - a) * (1 - bb) * r0[:, i0] + a * (1 - bb) * r0[:, i1]
                    + (1 - a) * bb * r1[:, i0] + a * bb * r1[:, i1])
            bad = close(got[rows].ravel(), want.ravel(), 2e-3, f"rows {r}..")
            if bad:
                return bad
        return None

    return f"{w}x{h} RGBA8 -> {ow}x{oh} bilinear", run, check


def launches(wait_each):
    def case(rig, quick):
        count = 1000 if quick else (2000 if wait_each else 10000)
        knl = rig.kernel("tiny", "tiny")
        counter = rig.buffer(4)
        zero = np.zeros(1, np.uint32)

        def run():
            cl.enqueue_copy(rig.queue, counter, zero)
            evt = None
            for _ in range(count):
                evt = knl(rig.queue, (1,), None, counter)
                if wait_each:
                    evt.wait()
            evt.wait()

        def check():
            got = rig.read(counter, np.uint32, 1)[0]
            return None if got == count else f"counter {got} after {count} launches"

        how = "launch, wait" if wait_each else "launches, 1 wait"
        return f"{count} x ({how})" if wait_each else f"{count} {how}", run, check

    return case


CASES = [
    ("triad", triad),
    ("mandelbrot", mandelbrot),
    ("nbody", nbody),
    ("sgemm", sgemm),
    ("reduce", reduce),
    ("scan", scan),
    ("histogram", histogram),
    ("spmv", spmv),
    ("conv5x5", conv5x5),
    ("resample", resample),
    ("priv_table", private_table),
    ("priv_recs", private_records),
    ("launch", launches(False)),
    ("launch+wait", launches(True)),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="bench_kernels' quick sizes")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (best counts)")
    ap.add_argument("--only", help="comma list of cases")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None

    rigs = []
    for label, name in PLATFORMS:
        found = [p for p in cl.get_platforms() if name in p.name]
        if not found:
            sys.exit(f"platform {name!r} not found (OCL_ICD_VENDORS={os.environ['OCL_ICD_VENDORS']})")
        rigs.append(Rig(label, found[0]))
    print(f"# pyopencl {cl.VERSION_TEXT}, CPU: {cpu_model()}, {os.cpu_count()} logical cores")
    for r in rigs:
        print(f"# {r.label}: {r.device.platform.version} / {r.device.name}, {r.device.max_compute_units} compute units")
    print(f"# best of {args.rounds} alternating rounds (after one warm-up run each); wall time "
          "from the first enqueue to the last event's wait; timings on a shared machine are noisy")
    print(f"{'kernel':12} {'size':34} {'cranecl ms':>11} {'pocl ms':>10} {'cl/pocl':>8} {'speedup':>8}  check")

    speedups, wrong = [], False
    for name, case in CASES:
        if only and name not in only:
            continue
        runs = []
        for rig in rigs:
            size, run, check = case(rig, args.quick)
            run()  # warm-up (and the run the check reads)
            runs.append((run, check))
        best = [math.inf] * len(rigs)
        for _ in range(args.rounds):
            for i, (run, _) in enumerate(runs):
                t0 = time.perf_counter()
                run()
                best[i] = min(best[i], time.perf_counter() - t0)
        verdicts = [check() for _, check in runs]
        ok = all(v is None for v in verdicts)
        wrong |= not ok
        ratio = best[0] / best[1]
        if ok:
            speedups.append(1 / ratio)
        note = "ok" if ok else "; ".join(f"{r.label} WRONG: {v}" for r, v in zip(rigs, verdicts) if v)
        print(f"{name:12} {size:34} {best[0] * 1e3:11.3f} {best[1] * 1e3:10.3f} "
              f"{ratio:7.2f}x {1 / ratio:7.2f}x  {note}", flush=True)
    if speedups:
        geo = math.exp(sum(map(math.log, speedups)) / len(speedups))
        print(f"geometric mean of cranecl's speed relative to pocl (pocl time / cranecl time) "
              f"over {len(speedups)} checked kernels: {geo:.2f}x")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
