"""pyopencl's shared virtual memory on cranecl: the device's SVM capabilities,
fine-grain arrays (`cl.fsvm_empty`) written by a kernel and read directly,
coarse-grain arrays (`cl.csvm_empty`) through `cl.SVM(...).map_rw`, a plain
numpy array passed as fine-grain system SVM, `enqueue_copy` between SVM and
host arrays, `enqueue_svm_memfill` and `enqueue_svm_migrate_mem` with
events, and an array on a `cl.SVMAllocation` with a buffer on top of it
(`CL_MEM_USES_SVM_POINTER`).

Run by conformance/tests/python.rs with the platform chosen by CRANECL_PLATFORM
(the same file on pocl checks the tests; a capability the platform lacks
skips the test that needs it).
"""

import os

import numpy as np
import pyopencl as cl
import pytest

PLATFORM = os.environ.get("CRANECL_PLATFORM", "cranecl")

SOURCE = """
kernel void scale(global float *p, float k) {
    size_t i = get_global_id(0);
    p[i] = p[i] * k + (float)i;
}
kernel void twice(global int *p) { p[get_global_id(0)] *= 2; }
"""

caps = cl.device_svm_capabilities


@pytest.fixture(scope="module")
def ctx():
    platforms = [p for p in cl.get_platforms() if PLATFORM in p.name]
    assert platforms, "no platform named %r" % PLATFORM
    (dev,) = platforms[0].get_devices(cl.device_type.CPU)
    return cl.Context([dev])


@pytest.fixture
def queue(ctx):
    return cl.CommandQueue(ctx)


@pytest.fixture(scope="module")
def prg(ctx):
    return cl.Program(ctx, SOURCE).build()


def need(ctx, bit):
    if not ctx.devices[0].svm_capabilities & bit:
        pytest.skip("the device lacks SVM capability %#x" % bit)


def test_capabilities(ctx):
    if PLATFORM != "cranecl":
        pytest.skip("cranecl's own answer")
    c = ctx.devices[0].svm_capabilities
    assert c == (caps.COARSE_GRAIN_BUFFER | caps.FINE_GRAIN_BUFFER
                 | caps.FINE_GRAIN_SYSTEM | caps.ATOMICS)


def test_fine_grain_kernel_writes_host_reads(ctx, queue, prg):
    need(ctx, caps.FINE_GRAIN_BUFFER)
    n = 5000
    ary = cl.fsvm_empty(ctx, n, np.float32, alignment=64)
    ary[:] = np.arange(n, dtype=np.float32)
    cl.Kernel(prg, "scale")(queue, (n,), None, cl.SVM(ary), np.float32(2.0))
    queue.finish()
    want = np.arange(n, dtype=np.float32) * 3
    np.testing.assert_array_equal(ary, want)


def test_coarse_grain_through_map(ctx, queue, prg):
    need(ctx, caps.COARSE_GRAIN_BUFFER)
    n = 1000
    ary = cl.csvm_empty(ctx, n, np.int32)
    with cl.SVM(ary).map_rw(queue) as host:
        host[:] = np.arange(n, dtype=np.int32) - 500
    cl.Kernel(prg, "twice")(queue, (n,), None, cl.SVM(ary))
    with cl.SVM(ary).map_ro(queue) as host:
        np.testing.assert_array_equal(host, (np.arange(n) - 500) * 2)


def test_numpy_array_as_system_svm(ctx, queue, prg):
    need(ctx, caps.FINE_GRAIN_SYSTEM)
    host = np.ones(300, dtype=np.float32)
    cl.Kernel(prg, "scale")(queue, host.shape, None, cl.SVM(host), np.float32(4.0))
    queue.finish()
    np.testing.assert_array_equal(host, 4 + np.arange(300, dtype=np.float32))


def test_copy_fill_and_migrate(ctx, queue):
    need(ctx, caps.COARSE_GRAIN_BUFFER)
    n = 4096
    a = cl.csvm_empty(ctx, n, np.int32)
    b = cl.csvm_empty(ctx, n, np.int32)
    fill = cl.enqueue_svm_memfill(queue, cl.SVM(a), np.array([7, -3], dtype=np.int32))
    copy = cl.enqueue_copy(queue, cl.SVM(b), cl.SVM(a), wait_for=[fill])
    out = np.zeros(n, dtype=np.int32)
    cl.enqueue_copy(queue, out, cl.SVM(b), wait_for=[copy])
    np.testing.assert_array_equal(out, np.tile([7, -3], n // 2))
    src = np.arange(n, dtype=np.int32)
    cl.enqueue_copy(queue, cl.SVM(a), src)
    ev = cl.enqueue_svm_migrate_mem(queue, [cl.SVM(a), cl.SVM(b)],
                                    cl.mem_migration_flags.HOST)
    ev.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    with cl.SVM(a).map_ro(queue) as host:
        np.testing.assert_array_equal(host, src)


def test_svm_allocation_and_a_buffer_on_it(ctx, queue, prg):
    need(ctx, caps.FINE_GRAIN_BUFFER)
    n = 256
    flags = cl.svm_mem_flags.READ_WRITE | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER
    ary = cl.svm_empty(ctx, flags, n, np.int32, alignment=128)
    assert isinstance(ary.base, cl.SVMAllocation)
    ary[:] = np.arange(n, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.USE_HOST_PTR, hostbuf=ary)
    assert buf.get_info(cl.mem_info.USES_SVM_POINTER)
    cl.Kernel(prg, "twice")(queue, (n,), None, buf)
    queue.finish()
    np.testing.assert_array_equal(ary, np.arange(n) * 2)
    buf.release()
    ary.base.release()
