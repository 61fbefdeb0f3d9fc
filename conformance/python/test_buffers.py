"""pyopencl on cranecl: a context found by platform name, buffers round-tripped
with enqueue_copy (blocking and non-blocking, the latter waited on through
events), buffer-to-buffer copies, fills and queue ordering.

Run by conformance/tests/python.rs (`python -m pytest conformance/python`)
with OCL_ICD_VENDORS naming the cranecl vendors folder. The platform is
chosen by the substring in CRANECL_PLATFORM (default "cranecl"), so the same
file can be pointed at pocl to check the tests themselves.
"""

import os

import numpy as np
import pyopencl as cl
import pytest

PLATFORM = os.environ.get("CRANECL_PLATFORM", "cranecl")


@pytest.fixture(scope="module")
def ctx():
    platforms = [p for p in cl.get_platforms() if PLATFORM in p.name]
    assert platforms, "no platform named %r among %r" % (
        PLATFORM, [p.name for p in cl.get_platforms()])
    devices = platforms[0].get_devices(cl.device_type.CPU)
    assert len(devices) == 1
    return cl.Context(devices)


@pytest.fixture
def queue(ctx):
    return cl.CommandQueue(ctx)


def test_context_device(ctx):
    (dev,) = ctx.devices
    assert PLATFORM in dev.platform.name
    assert dev.type == cl.device_type.CPU
    assert ctx.get_info(cl.context_info.NUM_DEVICES) == 1


def test_round_trip_blocking(ctx, queue):
    host = np.arange(10000, dtype=np.int32) * 3 - 7
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    cl.enqueue_copy(queue, buf, host)
    out = np.zeros_like(host)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, host)


def test_copy_host_ptr(ctx, queue):
    host = np.linspace(-1.0, 1.0, 4097, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
    out = np.empty_like(host)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, host)


def test_round_trip_non_blocking_through_events(ctx):
    queue = cl.CommandQueue(ctx)
    host = np.random.default_rng(1).integers(0, 256, size=1 << 20, dtype=np.uint8)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    ev_w = cl.enqueue_copy(queue, buf, host, is_blocking=False)
    out = np.zeros_like(host)
    ev_r = cl.enqueue_copy(queue, out, buf, is_blocking=False, wait_for=[ev_w])
    ev_r.wait()
    assert ev_w.command_execution_status == cl.command_execution_status.COMPLETE
    assert ev_r.command_execution_status == cl.command_execution_status.COMPLETE
    assert ev_r.command_type == cl.command_type.READ_BUFFER
    np.testing.assert_array_equal(out, host)


def test_non_blocking_across_queues(ctx):
    q1 = cl.CommandQueue(ctx)
    q2 = cl.CommandQueue(
        ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    host = (np.arange(65536, dtype=np.uint32) * 2654435761).astype(np.uint32)
    a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    gate = cl.UserEvent(ctx)
    ev1 = cl.enqueue_copy(q1, a, host, is_blocking=False, wait_for=[gate])
    ev2 = cl.enqueue_copy(q2, b, a, wait_for=[ev1])
    out = np.zeros_like(host)
    ev3 = cl.enqueue_copy(q1, out, b, is_blocking=False, wait_for=[ev2])
    assert ev1.command_execution_status != cl.command_execution_status.COMPLETE
    assert ev3.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    cl.wait_for_events([ev3])
    np.testing.assert_array_equal(out, host)


def test_copy_out_of_bounds_is_rejected(ctx, queue):
    a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096)
    with pytest.raises(cl.LogicError) as info:
        cl.enqueue_copy(queue, b, a, byte_count=1000, src_offset=0, dst_offset=3500)
    assert info.value.code == cl.status_code.INVALID_VALUE


def test_buffer_to_buffer_copy(ctx, queue):
    src = np.arange(8192, dtype=np.uint16)
    a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=src)
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, src.nbytes)
    cl.enqueue_fill_buffer(queue, b, np.uint16(0xBEEF), 0, src.nbytes)
    cl.enqueue_copy(queue, b, a, byte_count=2000, src_offset=100, dst_offset=3000)
    out = np.empty_like(src)
    cl.enqueue_copy(queue, out, b)
    want = np.full_like(src, 0xBEEF)
    want.view(np.uint8)[3000:5000] = src.view(np.uint8)[100:2100]
    np.testing.assert_array_equal(out, want)


def test_map_round_trip(ctx, queue):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1024 * 4)
    arr, _ev = cl.enqueue_map_buffer(
        queue, buf, cl.map_flags.WRITE_INVALIDATE_REGION, 0, (1024,), np.float32)
    arr[:] = np.arange(1024, dtype=np.float32) / 8
    arr.base.release(queue)
    out = np.empty(1024, dtype=np.float32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, np.arange(1024, dtype=np.float32) / 8)


def test_in_order_queue_orders_non_blocking_writes(ctx, queue):
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4 * 256)
    hosts = [np.full(256, i, dtype=np.int32) for i in range(20)]
    for h in hosts:
        cl.enqueue_copy(queue, buf, h, is_blocking=False)
    out = np.empty(256, dtype=np.int32)
    cl.enqueue_copy(queue, out, buf)
    np.testing.assert_array_equal(out, hosts[-1])


def test_rect_copies(ctx, queue):
    # A 64x16 byte image in a buffer; copy a 10x5 block out to the host, and
    # buffer-to-buffer into another layout.
    src = (np.arange(64 * 16, dtype=np.uint32) % 251).astype(np.uint8)
    a = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=src)
    host = np.zeros((5, 10), dtype=np.uint8)
    cl.enqueue_copy(queue, host, a, buffer_origin=(3, 2), host_origin=(0, 0),
                    region=(10, 5), buffer_pitches=(64,), host_pitches=(10,))
    np.testing.assert_array_equal(host, src.reshape(16, 64)[2:7, 3:13])
    b = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 32 * 8)
    cl.enqueue_fill_buffer(queue, b, np.uint8(0), 0, 32 * 8)
    cl.enqueue_copy(queue, b, a, src_origin=(3, 2), dst_origin=(1, 1), region=(10, 5),
                    src_pitches=(64,), dst_pitches=(32,))
    out = np.empty(32 * 8, dtype=np.uint8)
    cl.enqueue_copy(queue, out, b)
    want = np.zeros((8, 32), dtype=np.uint8)
    want[1:6, 1:11] = src.reshape(16, 64)[2:7, 3:13]
    np.testing.assert_array_equal(out.reshape(8, 32), want)


def test_profiling_and_markers(ctx):
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    host = np.ones(1 << 16, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    ev = cl.enqueue_copy(queue, buf, host, is_blocking=False)
    marker = cl.enqueue_marker(queue, wait_for=[ev])
    marker.wait()
    assert ev.command_execution_status == cl.command_execution_status.COMPLETE
    assert ev.profile.queued <= ev.profile.submit <= ev.profile.start <= ev.profile.end
    cl.enqueue_barrier(queue)
    queue.finish()


def test_user_event_failure_propagates(ctx):
    queue = cl.CommandQueue(ctx)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
    gate = cl.UserEvent(ctx)
    host = np.zeros(16, dtype=np.int32)
    ev = cl.enqueue_copy(queue, buf, host, is_blocking=False, wait_for=[gate])
    gate.set_status(-1)
    with pytest.raises(cl.RuntimeError):
        ev.wait()
    assert ev.command_execution_status < 0
