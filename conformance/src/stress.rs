//! The stress workload: many host threads, each with its own in-order and
//! out-of-order queue on one shared context, enqueue mixed buffer commands
//! tied by cross-queue and cross-thread event dependencies and gated by user
//! events. It runs against any function table ([`Cl`]): in-process (the
//! `cranecl` rlib's own dispatch table, where the test can count live
//! objects) or through the loader.
//!
//! Per thread and round `r` (five commands and one user event):
//! 1. `fill(qa, X, r)` after the round's user event and the previous
//!    round's copy (in-order queue; the wait crosses to `qb`);
//! 2. `copy(qb, X -> Y[r])` after (1) and after the latest fill another
//!    thread published (out-of-order queue: cross-queue, cross-thread);
//! 3. `marker(qb)` after (2);
//! 4. `read(qa, X -> host_a[r])`, non-blocking, with a completion callback;
//! 5. `write(qb, host_z[r] -> Z[r])` after (3).
//!
//! The round's user event is set only after all five are enqueued. Every
//! 16 rounds a barrier goes to `qb` and both queues are flushed. At the end
//! every value proves an order: `host_a[r] == r` (the read ran after fill
//! `r` and before fill `r + 1`: in-order), `Y[r] == r` (the copy waited for
//! its fill), `Z[r] == r ^ 0x5555` (the write ran), and one callback per
//! read fired.

use crate::{assert_code, call, code_name, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a run did.
#[derive(Debug)]
pub struct Report {
    pub threads: usize,
    pub rounds: usize,
    /// Commands enqueued (user events not counted).
    pub commands: usize,
    pub user_events: usize,
    pub elapsed: Duration,
}

/// A handle that may cross threads (OpenCL handles are thread-safe).
#[derive(Clone, Copy)]
struct H<T>(T);
// SAFETY: OpenCL objects may be used from any host thread (the spec makes
// every API call thread-safe except clSetKernelArg on one kernel).
unsafe impl<T> Send for H<T> {}
// SAFETY: as above.
unsafe impl<T> Sync for H<T> {}

static READ_CALLBACKS: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" fn count_read(_: cl_event, status: cl_int, _: *mut c_void) {
    if status == CL_COMPLETE {
        READ_CALLBACKS.fetch_add(1, Ordering::SeqCst);
    }
}

/// Runs the workload and checks every value; panics (a test failure) with
/// the first wrong code or byte.
pub fn run(t: &Cl, threads: usize, rounds: usize) -> Report {
    let start = Instant::now();
    let ctx = t.context();
    let callbacks_before = READ_CALLBACKS.load(Ordering::SeqCst);
    // The latest fill event each thread published (retained by the slot).
    let published: Vec<Mutex<H<cl_event>>> = (0..threads).map(|_| Mutex::new(H(null()))).collect();
    let ctx_h = H(ctx);

    std::thread::scope(|s| {
        for me in 0..threads {
            let published = &published;
            s.spawn(move || {
                let h = ctx_h;
                worker(t, h.0, me, rounds, published)
            });
        }
    });

    for slot in &published {
        let ev = slot.lock().unwrap_or_else(|p| p.into_inner()).0;
        if !ev.is_null() {
            assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
        }
    }
    // Callbacks may run on the executor just after the wait returns.
    let want = threads * rounds;
    let deadline = Instant::now() + Duration::from_secs(10);
    while READ_CALLBACKS.load(Ordering::SeqCst) - callbacks_before < want
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(
        READ_CALLBACKS.load(Ordering::SeqCst) - callbacks_before,
        want,
        "one CL_COMPLETE callback per read"
    );
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
    Report {
        threads,
        rounds,
        commands: threads * (rounds * 5 + rounds / 16),
        user_events: threads * rounds,
        elapsed: start.elapsed(),
    }
}

fn worker(t: &Cl, ctx: cl_context, me: usize, rounds: usize, published: &[Mutex<H<cl_event>>]) {
    let qa = t.queue(ctx, 0);
    let qb = t.queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let x = t.buffer(ctx, CL_MEM_READ_WRITE, 4);
    let y = t.buffer(ctx, CL_MEM_READ_WRITE, rounds * 4);
    let z = t.buffer(ctx, CL_MEM_READ_WRITE, rounds * 4);
    let mut host_a = vec![u32::MAX; rounds];
    let host_z: Vec<u32> = (0..rounds as u32).map(|r| r ^ 0x5555).collect();
    let mut keep: Vec<cl_event> = Vec::with_capacity(rounds);
    let neighbour = (me + 1) % published.len();
    // The previous round's copy: the next fill of X waits for it.
    let mut prev_copy: cl_event = null();

    for r in 0..rounds {
        let ue = t.user_event(ctx);
        let val = r as u32;
        let mut fill: cl_event = null();
        let gate = if prev_copy.is_null() {
            vec![ue]
        } else {
            vec![ue, prev_copy]
        };
        assert_code!(
            call!(t; clEnqueueFillBuffer(qa, x, (&val as *const u32).cast(), 4, 0, 4, gate.len() as cl_uint, gate.as_ptr(), &mut fill)),
            CL_SUCCESS,
            "thread {me} round {r}: fill"
        );
        if !prev_copy.is_null() {
            assert_code!(call!(t; clReleaseEvent(prev_copy)), CL_SUCCESS);
        }
        // The neighbour's latest fill, retained while we use it.
        let theirs = {
            let slot = published[neighbour]
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if !slot.0.is_null() {
                assert_code!(call!(t; clRetainEvent(slot.0)), CL_SUCCESS);
            }
            slot.0
        };
        let mut deps = vec![fill];
        if !theirs.is_null() {
            deps.push(theirs);
        }
        let mut copy: cl_event = null();
        assert_code!(
            call!(t; clEnqueueCopyBuffer(qb, x, y, 0, r * 4, 4, deps.len() as cl_uint, deps.as_ptr(), &mut copy)),
            CL_SUCCESS,
            "thread {me} round {r}: copy"
        );
        if !theirs.is_null() {
            assert_code!(call!(t; clReleaseEvent(theirs)), CL_SUCCESS);
        }
        let mut marker: cl_event = null();
        assert_code!(
            call!(t; clEnqueueMarkerWithWaitList(qb, 1, &copy, &mut marker)),
            CL_SUCCESS
        );
        let mut read: cl_event = null();
        assert_code!(
            call!(t; clEnqueueReadBuffer(qa, x, CL_FALSE, 0, 4, (&mut host_a[r] as *mut u32).cast(), 0, null(), &mut read)),
            CL_SUCCESS,
            "thread {me} round {r}: read"
        );
        assert_code!(
            call!(t; clSetEventCallback(read, CL_COMPLETE, Some(count_read), null())),
            CL_SUCCESS
        );
        let mut write: cl_event = null();
        assert_code!(
            call!(t; clEnqueueWriteBuffer(qb, z, CL_FALSE, r * 4, 4, (&host_z[r] as *const u32).cast(), 1, &marker, &mut write)),
            CL_SUCCESS,
            "thread {me} round {r}: write"
        );
        // Publish our fill for the neighbour (the slot keeps a reference).
        assert_code!(call!(t; clRetainEvent(fill)), CL_SUCCESS);
        let old = std::mem::replace(
            &mut published[me].lock().unwrap_or_else(|p| p.into_inner()).0,
            fill,
        );
        if !old.is_null() {
            assert_code!(call!(t; clReleaseEvent(old)), CL_SUCCESS);
        }
        assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
        prev_copy = copy;
        for e in [ue, fill, marker, read] {
            assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
        }
        keep.push(write);
        if r % 16 == 15 {
            assert_code!(
                call!(t; clEnqueueBarrierWithWaitList(qb, 0, null(), null())),
                CL_SUCCESS
            );
            assert_code!(call!(t; clFlush(qa)), CL_SUCCESS);
            assert_code!(call!(t; clFlush(qb)), CL_SUCCESS);
        }
    }
    if !prev_copy.is_null() {
        assert_code!(call!(t; clReleaseEvent(prev_copy)), CL_SUCCESS);
    }
    let r = call!(t; clWaitForEvents(keep.len() as cl_uint, keep.as_ptr()));
    assert!(
        r == CL_SUCCESS,
        "thread {me}: clWaitForEvents: {r} ({})",
        code_name(r)
    );
    assert_code!(call!(t; clFinish(qa)), CL_SUCCESS);
    assert_code!(call!(t; clFinish(qb)), CL_SUCCESS);
    for (i, e) in keep.iter().enumerate() {
        let mut st: cl_int = 1;
        assert_code!(
            call!(t; clGetEventInfo(*e, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut st as *mut i32).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(st, CL_COMPLETE, "thread {me}: write {i} after clFinish");
        assert_code!(call!(t; clReleaseEvent(*e)), CL_SUCCESS);
    }
    for (r, v) in host_a.iter().enumerate() {
        assert_eq!(
            *v, r as u32,
            "thread {me}: read {r} saw fill {v} (in-order queue out of order)"
        );
    }
    let mut out = vec![0u32; rounds];
    assert_code!(
        call!(t; clEnqueueReadBuffer(qa, y, CL_TRUE, 0, rounds * 4, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    for (r, v) in out.iter().enumerate() {
        assert_eq!(
            *v, r as u32,
            "thread {me}: copy {r} did not wait for its fill"
        );
    }
    assert_code!(
        call!(t; clEnqueueReadBuffer(qa, z, CL_TRUE, 0, rounds * 4, out.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(out, host_z, "thread {me}: the writes to Z");
    for m in [x, y, z] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    for q in [qa, qb] {
        assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    }
}
