"""The project's kernel tests: plain pyopencl, nothing cranecl-specific.
In CI they run on cranecl with CRANECL_CHECK=all and CRANECL_SCHEDULE=shuffle,
so an out-of-bounds access, a race or a missing barrier fails the test."""
from pathlib import Path

import numpy as np
import pyopencl as cl
import pytest

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


@pytest.fixture(scope="module")
def queue():
    ctx = cl.create_some_context(interactive=False)
    return cl.CommandQueue(ctx)


def build(queue, name):
    return cl.Program(queue.context, (KERNELS / name).read_text()).build()


def test_saxpy(queue):
    n = 10_000
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    y = np.random.default_rng(2).random(n, dtype=np.float32)
    mf = cl.mem_flags
    dx = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    dy = cl.Buffer(queue.context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    build(queue, "saxpy.cl").saxpy(queue, (n,), None, np.float32(2.5), dx, dy)
    out = np.empty_like(y)
    cl.enqueue_copy(queue, out, dy)
    np.testing.assert_allclose(out, 2.5 * x + y, rtol=1e-6)


def test_block_sum(queue):
    groups, size = 64, 128
    data = np.random.default_rng(3).random(groups * size, dtype=np.float32)
    mf = cl.mem_flags
    din = cl.Buffer(queue.context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    dpart = cl.Buffer(queue.context, mf.WRITE_ONLY, groups * 4)
    prg = build(queue, "block_sum.cl")
    prg.block_sum(queue, (groups * size,), (size,), din, dpart, cl.LocalMemory(size * 4))
    part = np.empty(groups, dtype=np.float32)
    cl.enqueue_copy(queue, part, dpart)
    np.testing.assert_allclose(part, data.reshape(groups, size).sum(axis=1), rtol=1e-5)
