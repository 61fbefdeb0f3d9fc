"""pyopencl's kernel generators on cranecl, each result compared with numpy:
ElementwiseKernel, ReductionKernel, GenericScanKernel (and the inclusive and
exclusive scan kernels built on it), pyopencl.array arithmetic, reductions and
comparisons, pyopencl.clmath, and the Philox generator of pyopencl.clrandom.

pyopencl caches program binaries on disk and reloads them with
clCreateProgramWithBinary on a platform it does not know to cache sources
itself (pocl is one it knows; cranecl is not), so a second run of this file
runs every kernel from a reloaded binary; test_binary_cache_reload checks
that path directly, with a cache folder of its own.

Run by conformance/tests/python.rs like test_buffers.py, with the platform
chosen by the substring in CRANECL_PLATFORM (default "cranecl"); the same
file on pocl ("Portable Computing Language") checks the tests themselves.
"""

import os

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
import pyopencl.clrandom as clrandom
import pytest
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel

PLATFORM = os.environ.get("CRANECL_PLATFORM", "cranecl")

# Set by conformance/tests/python_kernels.rs on its second run over a warm
# cache: every program must then come from a reloaded binary.
EXPECT_CACHED = os.environ.get("CRANECL_PYOPENCL_EXPECT_CACHED") == "1"

# Sizes that are not multiples of any work-group size, and a large one.
SIZES = [1, 1000, 100003]


@pytest.fixture(scope="module")
def ctx():
    platforms = [p for p in cl.get_platforms() if PLATFORM in p.name]
    assert platforms, "no platform named %r among %r" % (
        PLATFORM, [p.name for p in cl.get_platforms()])
    return cl.Context(platforms[0].get_devices())


@pytest.fixture(scope="module")
def queue(ctx):
    return cl.CommandQueue(ctx)


@pytest.fixture(autouse=True)
def programs_from_binary_cache(monkeypatch):
    """With CRANECL_PYOPENCL_EXPECT_CACHED=1, fails any build through
    pyopencl's binary cache that was not a cache hit (a miss, or a cached
    binary that failed to build and was silently rebuilt from source)."""
    if not EXPECT_CACHED:
        return
    import pyopencl.cache as cache
    real = cache.create_built_program_from_source_cached

    def checked(ctx, src, options_bytes, devices=None, cache_dir=None, include_path=None):
        prg, was_cached = real(ctx, src, options_bytes, devices, cache_dir, include_path)
        if cache_dir is None:
            head = (src if isinstance(src, str) else src.decode())[:300]
            assert was_cached, "built from source, not reloaded from the cache:\n" + head
        return prg, was_cached

    monkeypatch.setattr(cache, "create_built_program_from_source_cached", checked)


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------- elementwise

@pytest.mark.parametrize("n", SIZES)
def test_elementwise_linear_combination(ctx, queue, n):
    lin = ElementwiseKernel(
        ctx,
        "float a, __global const float *x, float b, __global const float *y, __global float *z",
        "z[i] = a * x[i] + b * y[i]",
        "lin_comb")
    r = rng(n)
    x = r.standard_normal(n).astype(np.float32)
    y = r.standard_normal(n).astype(np.float32)
    x_d, y_d = cla.to_device(queue, x), cla.to_device(queue, y)
    z_d = cla.empty_like(x_d)
    lin(np.float32(2.5), x_d, np.float32(-0.75), y_d, z_d)
    want = np.float32(2.5) * x + np.float32(-0.75) * y
    np.testing.assert_allclose(z_d.get(), want, rtol=1e-6, atol=1e-6)


def test_elementwise_integer_ops_and_preamble(ctx, queue):
    k = ElementwiseKernel(
        ctx,
        "__global const uint *x, __global const uint *y, __global uint *out",
        "out[i] = mix_bits(x[i], y[i]) + (x[i] > y[i] ? x[i] - y[i] : y[i] % 7u)",
        "int_ops",
        preamble="""
        uint mix_bits(uint a, uint b)
        {
            return (a ^ (b << 3)) + (a >> 5) * 3u;
        }
        """)
    r = rng(7)
    n = 50001
    x = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    y = r.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    out = cla.empty(queue, n, np.uint32)
    k(cla.to_device(queue, x), cla.to_device(queue, y), out)
    with np.errstate(over="ignore"):
        mix = (x ^ (y << np.uint32(3))) + (x >> np.uint32(5)) * np.uint32(3)
        want = mix + np.where(x > y, x - y, y % np.uint32(7))
    np.testing.assert_array_equal(out.get(), want.astype(np.uint32))


def test_elementwise_double(ctx, queue):
    dev = ctx.devices[0]
    if "cl_khr_fp64" not in dev.extensions:
        pytest.skip("the device has no cl_khr_fp64")
    k = ElementwiseKernel(ctx, "__global double *x", "x[i] = x[i] * x[i] + 1.0 / 3.0", "dsq")
    x = rng(3).standard_normal(1000)
    x_d = cla.to_device(queue, x)
    k(x_d)
    np.testing.assert_allclose(x_d.get(), x * x + 1.0 / 3.0, rtol=1e-15)


# ------------------------------------------------------------------ reduction

@pytest.mark.parametrize("n", SIZES)
def test_reduction_dot(ctx, queue, n):
    dot = ReductionKernel(
        ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
        arguments="__global const float *x, __global const float *y")
    r = rng(100 + n)
    x = r.random(n, dtype=np.float32)
    y = r.random(n, dtype=np.float32)
    got = dot(cla.to_device(queue, x), cla.to_device(queue, y)).get()
    want = np.dot(x.astype(np.float64), y.astype(np.float64))
    assert got == pytest.approx(want, rel=1e-4)


def test_reduction_max_int(ctx, queue):
    kmax = ReductionKernel(
        ctx, np.int32, neutral="INT_MIN", reduce_expr="max(a, b)",
        map_expr="x[i]", arguments="__global const int *x")
    x = rng(5).integers(-10**9, 10**9, 77777, dtype=np.int32)
    assert kmax(cla.to_device(queue, x)).get() == x.max()


def test_reduction_count_matching(ctx, queue):
    count = ReductionKernel(
        ctx, np.uint32, neutral="0", reduce_expr="a+b",
        map_expr="(x[i] % 3 == 0) ? 1 : 0", arguments="__global const uint *x")
    x = np.arange(100000, dtype=np.uint32) * np.uint32(7)
    assert count(cla.to_device(queue, x)).get() == int(np.count_nonzero(x % 3 == 0))


# ----------------------------------------------------------------------- scan

@pytest.mark.parametrize("n", SIZES + [2**20 + 5])
def test_generic_scan_inclusive_prefix_sum(ctx, queue, n):
    knl = GenericScanKernel(
        ctx, np.int32,
        arguments="__global const int *ary, __global int *out",
        input_expr="ary[i]",
        scan_expr="a+b", neutral="0",
        output_statement="out[i] = item;")
    x = rng(n).integers(-1000, 1000, n, dtype=np.int32)
    x_d = cla.to_device(queue, x)
    out = cla.empty_like(x_d)
    knl(x_d, out)
    np.testing.assert_array_equal(out.get(), np.cumsum(x, dtype=np.int32))


def test_generic_scan_exclusive_and_segment_free_max(ctx, queue):
    # Exclusive running maximum, written through prev_item.
    knl = GenericScanKernel(
        ctx, np.int32,
        arguments="__global const int *ary, __global int *out",
        input_expr="ary[i]",
        scan_expr="max(a, b)", neutral="INT_MIN",
        output_statement="out[i] = prev_item;")
    n = 30001
    x = rng(11).integers(-10**6, 10**6, n, dtype=np.int32)
    x_d = cla.to_device(queue, x)
    out = cla.empty_like(x_d)
    knl(x_d, out)
    want = np.empty_like(x)
    want[0] = np.iinfo(np.int32).min
    want[1:] = np.maximum.accumulate(x)[:-1]
    np.testing.assert_array_equal(out.get(), want)


def test_inclusive_and_exclusive_scan_kernels(ctx, queue):
    x = rng(13).integers(0, 100, 65537).astype(np.uint32)
    inc = InclusiveScanKernel(ctx, np.uint32, "a+b", "0")
    exc = ExclusiveScanKernel(ctx, np.uint32, "a+b", "0")
    a_d = cla.to_device(queue, x)
    inc(a_d)
    np.testing.assert_array_equal(a_d.get(), np.cumsum(x, dtype=np.uint32))
    b_d = cla.to_device(queue, x)
    exc(b_d)
    want = np.concatenate(([0], np.cumsum(x, dtype=np.uint32)[:-1])).astype(np.uint32)
    np.testing.assert_array_equal(b_d.get(), want)


def test_stream_compaction_with_scan(ctx, queue):
    # The scan's classic use: keep the even values, in order.
    from pyopencl.algorithm import copy_if
    x = rng(17).integers(0, 1000, 20000, dtype=np.int32)
    x_d = cla.to_device(queue, x)
    out, count, _ = copy_if(x_d, "ary[i] % 2 == 0")
    n = int(count.get())
    np.testing.assert_array_equal(out.get()[:n], x[x % 2 == 0])


# --------------------------------------------------------------------- arrays

def test_array_arithmetic(ctx, queue):
    r = rng(21)
    n = 12345
    a = r.standard_normal(n).astype(np.float32)
    b = (r.random(n, dtype=np.float32) + 0.5)
    a_d, b_d = cla.to_device(queue, a), cla.to_device(queue, b)
    np.testing.assert_allclose((a_d + b_d).get(), a + b, rtol=1e-6)
    np.testing.assert_allclose((a_d - b_d).get(), a - b, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose((a_d * b_d).get(), a * b, rtol=1e-6)
    np.testing.assert_allclose((a_d / b_d).get(), a / b, rtol=3e-6)
    np.testing.assert_allclose((2.5 * a_d + 1).get(), np.float32(2.5) * a + 1, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose((-a_d).get(), -a)
    np.testing.assert_allclose(abs(a_d).get(), np.abs(a))
    np.testing.assert_allclose((a_d ** 2).get(), a ** 2, rtol=1e-5)
    c_d = a_d.copy()
    c_d += b_d
    c_d *= 3
    np.testing.assert_allclose(c_d.get(), (a + b) * 3, rtol=1e-5, atol=1e-6)


def test_array_integer_arithmetic(ctx, queue):
    a = np.arange(-500, 500, dtype=np.int32)
    b = (np.arange(1000, dtype=np.int32) % 13) + 1
    a_d, b_d = cla.to_device(queue, a), cla.to_device(queue, b)
    np.testing.assert_array_equal((a_d + b_d).get(), a + b)
    np.testing.assert_array_equal((a_d * b_d).get(), a * b)
    np.testing.assert_array_equal((a_d & 0xff).get(), a & 0xff)
    np.testing.assert_array_equal((a_d | b_d).get(), a | b)


def test_array_reductions(ctx, queue):
    r = rng(23)
    a = r.random(200003, dtype=np.float32)
    b = r.random(200003, dtype=np.float32)
    a_d, b_d = cla.to_device(queue, a), cla.to_device(queue, b)
    assert cla.sum(a_d).get() == pytest.approx(a.astype(np.float64).sum(), rel=1e-5)
    assert cla.dot(a_d, b_d).get() == pytest.approx(
        np.dot(a.astype(np.float64), b.astype(np.float64)), rel=1e-5)
    assert cla.max(a_d).get() == a.max()
    assert cla.min(a_d).get() == a.min()
    i = np.arange(1, 100001, dtype=np.int64)
    assert cla.sum(cla.to_device(queue, i)).get() == i.sum()


def test_array_comparisons(ctx, queue):
    r = rng(29)
    a = r.integers(0, 10, 5000).astype(np.float32)
    b = r.integers(0, 10, 5000).astype(np.float32)
    a_d, b_d = cla.to_device(queue, a), cla.to_device(queue, b)
    np.testing.assert_array_equal((a_d < b_d).get().astype(bool), a < b)
    np.testing.assert_array_equal((a_d == b_d).get().astype(bool), a == b)
    np.testing.assert_array_equal((a_d >= 5).get().astype(bool), a >= 5)
    np.testing.assert_array_equal(cla.maximum(a_d, b_d).get(), np.maximum(a, b))
    np.testing.assert_array_equal(cla.if_positive(a_d - b_d, a_d, b_d).get(),
                                  np.where(a - b > 0, a, b))


def test_array_constructors_and_slices(ctx, queue):
    a_d = cla.arange(queue, 0, 1000, 1, dtype=np.float32)
    np.testing.assert_array_equal(a_d.get(), np.arange(1000, dtype=np.float32))
    z = cla.zeros(queue, 777, np.int32)
    z.fill(42)
    np.testing.assert_array_equal(z.get(), np.full(777, 42, np.int32))
    np.testing.assert_array_equal((a_d[100:200] * 2).get(), np.arange(100, 200, dtype=np.float32) * 2)


def test_clmath(ctx, queue):
    x = np.linspace(0.01, 10.0, 10007, dtype=np.float32)
    x_d = cla.to_device(queue, x)
    # OpenCL C's limits: sqrt 3 ulp, exp/log/sin/cos 3-4 ulp.
    np.testing.assert_allclose(clmath.sqrt(x_d).get(), np.sqrt(x), rtol=4e-7)
    np.testing.assert_allclose(clmath.exp(x_d).get(), np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(clmath.log(x_d).get(), np.log(x), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(clmath.sin(x_d).get(), np.sin(x), atol=1e-6)
    np.testing.assert_allclose(clmath.cos(x_d).get(), np.cos(x), atol=1e-6)


# --------------------------------------------------------------------- random

def test_clrandom_philox(ctx, queue):
    n = 1 << 20
    g1 = clrandom.PhiloxGenerator(ctx, seed=1234)
    g2 = clrandom.PhiloxGenerator(ctx, seed=1234)
    u1 = g1.uniform(queue, n, np.float32).get()
    u2 = g2.uniform(queue, n, np.float32).get()
    # Deterministic for a seed, in [0, 1), and uniform: each tenth of the
    # range holds n/10 values within 1% (about 30 standard deviations).
    np.testing.assert_array_equal(u1, u2)
    assert u1.min() >= 0.0 and u1.max() < 1.0
    counts, _ = np.histogram(u1, bins=10, range=(0.0, 1.0))
    assert np.all(np.abs(counts - n / 10) < n / 1000), counts
    normal = g1.normal(queue, n, np.float32, mu=0.0, sigma=1.0).get()
    assert abs(normal.mean()) < 0.01 and abs(normal.std() - 1.0) < 0.01


# --------------------------------------------------------------- binary reload

RELOAD_SRC = """
__kernel void twice_plus(__global const int *x, __global int *y, int k)
{
    int i = get_global_id(0);
    y[i] = 2 * x[i] + k;
}
"""


def run_twice_plus(ctx, queue, prg):
    x = np.arange(-1000, 1000, dtype=np.int32)
    x_d = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=x)
    y_d = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, x.nbytes)
    prg.twice_plus(queue, x.shape, None, x_d, y_d, np.int32(5))
    y = np.empty_like(x)
    cl.enqueue_copy(queue, y, y_d)
    np.testing.assert_array_equal(y, 2 * x + 5)


def test_binary_cache_reload(ctx, queue, tmp_path):
    # First build: a cache miss that stores the binary; second: on a platform
    # pyopencl does not trust to cache sources, a reload of that binary.
    first = cl.Program(ctx, RELOAD_SRC).build(cache_dir=str(tmp_path))
    run_twice_plus(ctx, queue, first)
    second = cl.Program(ctx, RELOAD_SRC).build(cache_dir=str(tmp_path))
    from pyopencl.characterize import has_src_build_cache
    if not has_src_build_cache(ctx.devices[0]):
        assert second._build_duration_info[1], second._build_duration_info
        assert any(tmp_path.iterdir()), "nothing stored in the cache folder"
    run_twice_plus(ctx, queue, second)


def test_program_from_binary(ctx, queue):
    src = cl.Program(ctx, RELOAD_SRC).build()
    (binary,) = src.get_info(cl.program_info.BINARIES)
    assert len(binary) > 0
    again = cl.Program(ctx, ctx.devices, [binary]).build()
    assert again.get_info(cl.program_info.KERNEL_NAMES) == "twice_plus"
    run_twice_plus(ctx, queue, again)
