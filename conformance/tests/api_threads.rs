//! Calls from many host threads at once on shared objects: reference counts
//! stay exact under concurrent retain/release, objects created and destroyed
//! concurrently stay valid for their owners, one in-order queue shared by
//! eight threads runs every blocking command with the right data, and waits
//! from many threads on one user event all return when it is set. Also the
//! NULL outputs every call accepts (`errcode_ret`, `param_value`,
//! `param_value_size_ret`, `event`).

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
struct H<T>(T);
// SAFETY: OpenCL handles may be used from any thread.
unsafe impl<T> Send for H<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for H<T> {}

const THREADS: usize = 8;

fn refcounts_under_contention(t: &Cl) {
    let ctx = t.context();
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    let q = t.queue(ctx, 0);
    let ue = t.user_event(ctx);
    let objs = H((ctx, buf, q, ue));
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(move || {
                let o = objs;
                let (ctx, buf, q, ue) = o.0;
                for _ in 0..2000 {
                    assert_code!(call!(t; clRetainContext(ctx)), CL_SUCCESS);
                    assert_code!(call!(t; clRetainMemObject(buf)), CL_SUCCESS);
                    assert_code!(call!(t; clRetainCommandQueue(q)), CL_SUCCESS);
                    assert_code!(call!(t; clRetainEvent(ue)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
                }
            });
        }
    });
    let count = |f: &dyn Fn(*mut cl_uint) -> cl_int| {
        let mut v: cl_uint = 0;
        assert_code!(f(&mut v), CL_SUCCESS);
        v
    };
    assert_eq!(
        count(
            &|v| call!(t; clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, 4, v.cast(), null()))
        ),
        1
    );
    assert_eq!(
        count(&|v| call!(t; clGetMemObjectInfo(buf, CL_MEM_REFERENCE_COUNT, 4, v.cast(), null()))),
        1
    );
    assert_eq!(
        count(
            &|v| call!(t; clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, 4, v.cast(), null()))
        ),
        1
    );
    assert_eq!(
        count(&|v| call!(t; clGetEventInfo(ue, CL_EVENT_REFERENCE_COUNT, 4, v.cast(), null()))),
        1
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn concurrent_create_destroy(t: &Cl) {
    std::thread::scope(|s| {
        for me in 0..THREADS {
            s.spawn(move || {
                for round in 0..50 {
                    let ctx = t.context();
                    let q = t.queue(ctx, if round % 2 == 0 { 0 } else { CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE });
                    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 4096);
                    let data = vec![(me * 50 + round) as u8; 4096];
                    let mut out = vec![0u8; 4096];
                    assert_code!(call!(t; clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 4096, data.as_ptr().cast(), 0, null(), null())), CL_SUCCESS);
                    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
                    assert_code!(call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4096, out.as_mut_ptr().cast(), 0, null(), null())), CL_SUCCESS);
                    assert_eq!(out, data, "thread {me} round {round}");
                    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
                    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
                }
            });
        }
    });
}

fn shared_in_order_queue(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let per = 4096usize;
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, per * THREADS);
    let h = H((q, buf));
    std::thread::scope(|s| {
        for me in 0..THREADS {
            s.spawn(move || {
                let hh = h;
                let (q, buf) = hh.0;
                for round in 0..200u32 {
                    let v = (me as u32) << 24 | round;
                    let data = vec![v; per / 4];
                    let mut out = vec![0u32; per / 4];
                    assert_code!(call!(t; clEnqueueWriteBuffer(q, buf, CL_TRUE, me * per, per, data.as_ptr().cast(), 0, null(), null())), CL_SUCCESS);
                    assert_code!(call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, me * per, per, out.as_mut_ptr().cast(), 0, null(), null())), CL_SUCCESS);
                    assert_eq!(out, data, "thread {me} round {round}: its slice of the shared buffer");
                }
            });
        }
    });
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn many_waiters_one_event(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let ue = t.user_event(ctx);
    let mut marker: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &ue, &mut marker)),
        CL_SUCCESS
    );
    let h = H((ue, marker));
    let start = Instant::now();
    std::thread::scope(|s| {
        for i in 0..THREADS {
            s.spawn(move || {
                let hh = h;
                let (ue, marker) = hh.0;
                let e = if i % 2 == 0 { ue } else { marker };
                assert_code!(call!(t; clWaitForEvents(1, &e)), CL_SUCCESS);
                assert!(
                    start.elapsed() >= Duration::from_millis(40),
                    "a wait returned before the event was set"
                );
            });
        }
        std::thread::sleep(Duration::from_millis(50));
        assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    });
    for e in [ue, marker] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// `errcode_ret`, `param_value`, `param_value_size_ret` and `event` may be
/// NULL: the call still succeeds and writes nothing there.
fn null_outputs(t: &Cl) {
    let dev = t.device();
    let ctx = call!(t; clCreateContext(null(), 1, &dev, None, null(), null()));
    assert!(!ctx.is_null(), "clCreateContext with errcode_ret NULL");
    let q = call!(t; clCreateCommandQueueWithProperties(ctx, dev, null(), null()));
    assert!(
        !q.is_null(),
        "clCreateCommandQueueWithProperties with errcode_ret NULL"
    );
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, null(), null()));
    assert!(!buf.is_null(), "clCreateBuffer with errcode_ret NULL");
    let ue = call!(t; clCreateUserEvent(ctx, null()));
    assert!(!ue.is_null(), "clCreateUserEvent with errcode_ret NULL");
    let region = cl_buffer_region {
        origin: 0,
        size: 16,
    };
    let sub = call!(t; clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, (&region as *const cl_buffer_region).cast(), null()));
    assert!(!sub.is_null(), "clCreateSubBuffer with errcode_ret NULL");
    // A failing create with errcode_ret NULL returns NULL and does not crash.
    let bad = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, null(), null()));
    assert!(bad.is_null());
    // Info with both outputs NULL.
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_NAME, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clGetMemObjectInfo(buf, CL_MEM_SIZE, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clGetEventInfo(ue, CL_EVENT_COMMAND_TYPE, 0, null(), null())),
        CL_SUCCESS
    );
    // A large param_value_size is fine; the size written back is the true one.
    let mut big = [0u8; 1024];
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetMemObjectInfo(buf, CL_MEM_SIZE, big.len(), big.as_mut_ptr().cast(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(size, std::mem::size_of::<usize>());
    assert_eq!(
        usize::from_ne_bytes(big[..8].try_into().expect("8 bytes")),
        64
    );
    // Commands with event NULL.
    let data = [1u8; 16];
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, 16, data.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueBarrierWithWaitList(q, 0, null(), null())),
        CL_SUCCESS
    );
    let mut e = 0;
    let p = call!(t; clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 0, 16, 0, null(), null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    // SAFETY: a successful blocking map of 16 bytes.
    assert_eq!(
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), 16) },
        &data,
        "the sub-buffer write shows in the parent"
    );
    assert_code!(
        call!(t; clEnqueueUnmapMemObject(q, buf, p, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    for m in [sub, buf] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    refcounts_under_contention,
    concurrent_create_destroy,
    shared_in_order_queue,
    many_waiters_one_event,
    null_outputs,
);
