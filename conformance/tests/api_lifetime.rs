//! Object lifetimes and callbacks that re-enter the API:
//! - a buffer released while a queued command still uses it stays alive
//!   until the command completes (its destructor callback runs after);
//! - a queue released with commands pending still runs them;
//! - `clFlush` alone gets queued commands to complete; `clFinish` on an
//!   out-of-order queue waits for a gated command set from another thread;
//! - callbacks may call the API: set a user event, enqueue a non-blocking
//!   command, release the event the callback is for (no deadlock, no crash).
//!
//! Waits that could hang run on a helper thread with a deadline, so a
//! deadlock fails the test instead of hanging it.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy)]
struct H<T>(T);
// SAFETY: OpenCL handles may be used from any thread.
unsafe impl<T> Send for H<T> {}

/// Runs `f` on a thread and fails if it does not finish within `secs`.
fn within<R: Send + 'static>(secs: u64, what: &str, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("{what}: no return within {secs} s (deadlock?)"))
}

fn status(t: &Cl, e: cl_event) -> cl_int {
    let mut st: cl_int = 99;
    assert_code!(
        call!(t; clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut st as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    st
}

static DESTROYED: AtomicUsize = AtomicUsize::new(0);

/// Whether the destructor callback of the buffer tagged `tag` runs within
/// five seconds.
fn destroyed_soon(tag: usize) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while DESTROYED.load(Ordering::SeqCst) & tag == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    DESTROYED.load(Ordering::SeqCst) & tag != 0
}

unsafe extern "C" fn on_destroy(_: cl_mem, tag: *mut c_void) {
    DESTROYED.fetch_or(tag as usize, Ordering::SeqCst);
}

fn released_buffer_outlives_its_command(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let n = 1 << 16;
    let data: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n, data.as_ptr() as *mut c_void, null()));
    assert!(!buf.is_null());
    let tag = if t.direct { 1 } else { 2 };
    assert_code!(
        call!(t; clSetMemObjectDestructorCallback(buf, Some(on_destroy), tag as *mut c_void)),
        CL_SUCCESS
    );
    let gate = t.user_event(ctx);
    let mut out = vec![0u8; n];
    let mut read: cl_event = null();
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_FALSE, 0, n, out.as_mut_ptr().cast(), 1, &gate, &mut read)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(
        DESTROYED.load(Ordering::SeqCst) & tag,
        0,
        "the buffer was destroyed while a queued read uses it"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &read)), CL_SUCCESS);
    assert!(
        out == data,
        "the read of the released buffer delivered its bytes"
    );
    assert!(
        destroyed_soon(tag),
        "the destructor callback ran once the read was done"
    );
    for e in [gate, read] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn released_queue_runs_its_commands(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    let gate = t.user_event(ctx);
    let data = [0x3cu8; 64];
    let mut write: cl_event = null();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 64, data.as_ptr().cast(), 1, &gate, &mut write)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    let w = H(write);
    let f = t.f.clWaitForEvents.expect("exported");
    let r = within(10, "wait for a command of a released queue", move || {
        let w = w;
        // SAFETY: the event is retained by this test until the end.
        unsafe { f(1, &w.0) }
    });
    assert_code!(r, CL_SUCCESS);
    let q2 = t.queue(ctx, 0);
    let mut out = [0u8; 64];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q2, buf, CL_TRUE, 0, 64, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(out, data);
    for e in [gate, write] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q2)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn flush_and_finish(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 1 << 20);
    let data = vec![0x77u8; 1 << 20];
    let mut write: cl_event = null();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, 1 << 20, data.as_ptr().cast(), 0, null(), &mut write)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFlush(q)), CL_SUCCESS);
    // No wait call: the flushed command completes on its own.
    let deadline = Instant::now() + Duration::from_secs(10);
    while status(t, write) != CL_COMPLETE && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        status(t, write),
        CL_COMPLETE,
        "a flushed command completes without a wait"
    );

    // clFinish on an out-of-order queue waits for a gated command whose gate
    // another thread sets.
    let ooo = t.queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let gate = t.user_event(ctx);
    let pat = 1u8;
    let mut fill: cl_event = null();
    assert_code!(
        call!(t; clEnqueueFillBuffer(ooo, buf, (&pat as *const u8).cast(), 1, 0, 64, 1, &gate, &mut fill)),
        CL_SUCCESS
    );
    let set = t.f.clSetUserEventStatus.expect("exported");
    let g = H(gate);
    let setter = std::thread::spawn(move || {
        let g = g;
        std::thread::sleep(Duration::from_millis(50));
        // SAFETY: the event is alive until the test releases it below.
        unsafe { set(g.0, CL_COMPLETE) }
    });
    let start = Instant::now();
    let finish = t.f.clFinish.expect("exported");
    let oq = H(ooo);
    let r = within(10, "clFinish with a gated command", move || {
        let oq = oq;
        // SAFETY: the queue is alive until the test releases it below.
        unsafe { finish(oq.0) }
    });
    assert_code!(r, CL_SUCCESS);
    assert!(
        start.elapsed() >= Duration::from_millis(40),
        "clFinish returned before the gated command could run"
    );
    assert_code!(setter.join().expect("setter"), CL_SUCCESS);
    assert_eq!(
        status(t, fill),
        CL_COMPLETE,
        "clFinish returned with the command complete"
    );
    for e in [write, gate, fill] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    for qq in [q, ooo] {
        assert_code!(call!(t; clReleaseCommandQueue(qq)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// What a re-entrant callback needs: the table and the objects it acts on.
struct Reentry {
    table: &'static Cl,
    next_gate: cl_event,
    queue: cl_command_queue,
    buf: cl_mem,
    value: u32,
    enqueued: std::sync::Mutex<Option<H<cl_event>>>,
}

unsafe extern "C" fn reenter(ev: cl_event, st: cl_int, user: *mut c_void) {
    // SAFETY: `user` is the `Reentry` the test keeps alive until the end.
    let r = unsafe { &*(user as *const Reentry) };
    let t = r.table;
    if st != CL_COMPLETE {
        return;
    }
    // Enqueue a non-blocking command, set another user event, and release
    // the event this callback is for (the test gave up its reference).
    let mut w: cl_event = null();
    let code = call!(t; clEnqueueWriteBuffer(r.queue, r.buf, CL_FALSE, 0, 4, (&r.value as *const u32).cast(), 0, null(), &mut w));
    if code == CL_SUCCESS {
        *r.enqueued.lock().unwrap_or_else(|p| p.into_inner()) = Some(H(w));
    }
    call!(t; clSetUserEventStatus(r.next_gate, CL_COMPLETE));
    call!(t; clReleaseEvent(ev));
}

fn reentrant_callbacks(t: &'static Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 4);
    let first = t.user_event(ctx);
    let second = t.user_event(ctx);
    let mut marker: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &first, &mut marker)),
        CL_SUCCESS
    );
    let state = Box::new(Reentry {
        table: t,
        next_gate: second,
        queue: q,
        buf,
        value: 0xfeed_f00d,
        enqueued: std::sync::Mutex::new(None),
    });
    let user = (&*state as *const Reentry) as *mut c_void;
    assert_code!(
        call!(t; clSetEventCallback(marker, CL_COMPLETE, Some(reenter), user)),
        CL_SUCCESS
    );
    // The callback now owns the marker's only user reference.
    assert_code!(
        call!(t; clSetUserEventStatus(first, CL_COMPLETE)),
        CL_SUCCESS
    );
    let wait = t.f.clWaitForEvents.expect("exported");
    let s = H(second);
    let r = within(10, "wait for the event a callback sets", move || {
        let s = s;
        // SAFETY: the event lives until the test releases it below.
        unsafe { wait(1, &s.0) }
    });
    assert_code!(r, CL_SUCCESS);
    let w = {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(h) = *state.enqueued.lock().unwrap_or_else(|p| p.into_inner()) {
                break h.0;
            }
            assert!(
                Instant::now() < deadline,
                "the callback's enqueue did not succeed"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    assert_code!(call!(t; clWaitForEvents(1, &w)), CL_SUCCESS);
    let mut out = 0u32;
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, (&mut out as *mut u32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(out, 0xfeed_f00d, "the write a callback enqueued ran");
    for e in [first, second, w] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
    drop(state);
}

/// A USE_HOST_PTR buffer: a map returns a pointer derived from host_ptr
/// (host_ptr + offset), and host_ptr holds the latest bits once the map
/// completes. A sub-buffer keeps its released parent's storage alive.
fn use_host_ptr_and_sub_buffer_lifetime(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let mut host = vec![0u8; 256];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 256, hp, null()));
    assert!(!buf.is_null());
    let data: Vec<u8> = (0..64).map(|i| 200 - i as u8).collect();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, buf, CL_TRUE, 16, 64, data.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut e = 0;
    let p = call!(t; clEnqueueMapBuffer(q, buf, CL_TRUE, CL_MAP_READ, 16, 64, 0, null(), null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_eq!(
        p as usize,
        hp as usize + 16,
        "the mapped pointer is host_ptr + offset"
    );
    // SAFETY: the map completed; host_ptr is ours and holds the latest bits.
    let seen = unsafe { std::slice::from_raw_parts(hp.cast::<u8>().add(16), 64) }.to_vec();
    assert_eq!(seen, data, "host_ptr holds the latest bits after the map");
    assert_code!(
        call!(t; clEnqueueUnmapMemObject(q, buf, p, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    drop(host);

    let mut align_bits: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(t.device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN, 4, (&mut align_bits as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    let align = (align_bits / 8) as usize;
    let parent = t.buffer(ctx, CL_MEM_READ_WRITE, 4 * align);
    let region = cl_buffer_region {
        origin: align,
        size: align,
    };
    let sub = call!(t; clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, (&region as *const cl_buffer_region).cast(), null()));
    assert!(!sub.is_null());
    assert_code!(call!(t; clReleaseMemObject(parent)), CL_SUCCESS);
    let bytes = vec![0x42u8; align];
    let mut out = vec![0u8; align];
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, align, bytes.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, sub, CL_TRUE, 0, align, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        out, bytes,
        "a sub-buffer works after its parent's last user release"
    );
    let mut assoc: cl_mem = null();
    assert_code!(
        call!(t; clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, 8, (&mut assoc as *mut cl_mem).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        assoc, parent,
        "CL_MEM_ASSOCIATED_MEMOBJECT still names the parent"
    );
    assert_code!(call!(t; clReleaseMemObject(sub)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

/// A kernel does not keep the buffers set as its arguments (test_api
/// retain_mem_object_set_kernel_arg): released, a buffer goes at once and
/// its destructor callback runs; a launch enqueued before the release keeps
/// it until the launch completes; a launch after it is `CL_INVALID_KERNEL_ARGS`
/// (the argument's value is gone).
fn kernel_argument_does_not_keep_its_buffer(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let src =
        std::ffi::CString::new("kernel void fill(global int *o) { o[get_global_id(0)] = 5; }")
            .unwrap();
    let mut sp = src.as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e));
    assert_code!(
        call!(t; clBuildProgram(p, 1, &dev, null(), None, null())),
        CL_SUCCESS
    );
    let k = call!(t; clCreateKernel(p, c"fill".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let (first, second) = if t.direct { (4usize, 8usize) } else { (16, 32) };
    let new_buffer = |tag: usize| {
        let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, null(), null()));
        assert!(!buf.is_null());
        assert_code!(
            call!(t; clSetMemObjectDestructorCallback(buf, Some(on_destroy), tag as *mut c_void)),
            CL_SUCCESS
        );
        assert_code!(
            call!(t; clSetKernelArg(k, 0, std::mem::size_of::<cl_mem>(), (&buf as *const cl_mem).cast())),
            CL_SUCCESS
        );
        buf
    };
    // Set, then released: destroyed now, though the kernel still names it.
    let buf = new_buffer(first);
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_ne!(
        DESTROYED.load(Ordering::SeqCst) & first,
        0,
        "the destructor callback ran"
    );
    let n = 16usize;
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &n, null(), 0, null(), null())),
        CL_INVALID_KERNEL_ARGS
    );
    // Enqueued behind a gate, then released: kept until the launch is done.
    let buf = new_buffer(second);
    let gate = t.user_event(ctx);
    let mut run: cl_event = null();
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &n, null(), 1, &gate, &mut run)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(
        DESTROYED.load(Ordering::SeqCst) & second,
        0,
        "destroyed under a queued launch"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &run)), CL_SUCCESS);
    assert!(destroyed_soon(second), "destroyed after the launch");
    for ev in [gate, run] {
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    kernel_argument_does_not_keep_its_buffer,
    use_host_ptr_and_sub_buffer_lifetime,
    released_buffer_outlives_its_command,
    released_queue_runs_its_commands,
    flush_and_finish,
    reentrant_callbacks,
);
