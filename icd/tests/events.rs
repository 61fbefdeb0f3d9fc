//! Events and the executor, through the C entry points of the rlib: user
//! events gating commands across queues, failure propagation, callbacks,
//! out-of-order queues and barriers, clFinish, profiling, many threads.

mod common;
use common::*;
use cranecl::core::handle::Obj;
use cranecl::core::queue::Queue;
use cranecl::error::ClError;
use cranecl::exec;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Enqueue a Rust closure as a command (what buffer commands do).
fn command(
    q: cl_command_queue,
    wait: &[cl_event],
    blocking: bool,
    work: impl FnOnce() -> Result<(), ClError> + Send + 'static,
) -> Result<cl_event, cl_int> {
    let queue = Obj::<Queue>::get(q).map_err(|e| e.code)?;
    let mut ev = ptr::null_mut();
    let list = if wait.is_empty() {
        ptr::null()
    } else {
        wait.as_ptr()
    };
    exec::enqueue(
        &queue,
        CL_COMMAND_USER,
        wait.len() as cl_uint,
        list,
        &mut ev,
        blocking,
        exec::Work::call(work),
    )
    .map_err(|e| e.code)?;
    Ok(ev)
}

#[test]
fn user_event_gates_commands_across_two_queues() {
    let ctx = context();
    let (qa, qb) = (queue(ctx, 0), queue(ctx, 0));
    let gate = user_event(ctx);
    assert_eq!(status(gate), CL_SUBMITTED);
    let log = Arc::new(Mutex::new(Vec::new()));
    let l1 = log.clone();
    let a = command(qa, &[gate], false, move || {
        l1.lock().unwrap().push("a");
        Ok(())
    })
    .unwrap();
    let l2 = log.clone();
    let b = command(qb, &[a], false, move || {
        l2.lock().unwrap().push("b");
        Ok(())
    })
    .unwrap();
    let m = marker(qb, &[]);
    std::thread::sleep(Duration::from_millis(20));
    assert!(log.lock().unwrap().is_empty(), "ran before the gate opened");
    for e in [a, b, m] {
        assert_eq!(status(e), CL_QUEUED);
    }
    assert_eq!(set_status(gate, CL_COMPLETE), CL_SUCCESS);
    assert_eq!(wait(&[m]), CL_SUCCESS);
    assert_eq!(status(b), CL_COMPLETE);
    assert_eq!(*log.lock().unwrap(), vec!["a", "b"]);
    // Setting a user event twice is CL_INVALID_OPERATION.
    assert_eq!(set_status(gate, CL_COMPLETE), CL_INVALID_OPERATION);
    for e in [gate, a, b, m] {
        release_event(e);
    }
    release_queue(qa);
    release_queue(qb);
    release_context(ctx);
}

#[test]
fn failure_propagates_through_wait_lists_only() {
    let ctx = context();
    let q = queue(ctx, 0);
    let gate = user_event(ctx);
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let a = command(q, &[gate], false, move || {
        r.fetch_add(1, Ordering::SeqCst);
        Ok(())
    })
    .unwrap();
    let b = marker(q, &[a]);
    // Next in the same in-order queue, no wait list: ordered, not failed.
    let r = ran.clone();
    let c = command(q, &[], false, move || {
        r.fetch_add(10, Ordering::SeqCst);
        Ok(())
    })
    .unwrap();
    assert_eq!(set_status(gate, -77), CL_SUCCESS);
    assert_eq!(wait(&[c]), CL_SUCCESS);
    assert_eq!(status(gate), -77);
    assert_eq!(status(a), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(status(b), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(
        ran.load(Ordering::SeqCst),
        10,
        "a failed command's work ran"
    );
    assert_eq!(wait(&[c, b]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    // A blocking command behind a failed event reports the failure.
    assert_eq!(
        command(q, &[b], true, || Ok(())).err(),
        Some(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    );
    for e in [gate, a, b, c] {
        release_event(e);
    }
    release_queue(q);
    release_context(ctx);
}

#[test]
fn failing_work_sets_its_error_and_notifies_the_context() {
    static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());
    unsafe extern "C" fn note(
        msg: *const std::ffi::c_char,
        _: *const c_void,
        _: usize,
        _: *mut c_void,
    ) {
        // SAFETY: the implementation passes a NUL-terminated string.
        let s = unsafe { std::ffi::CStr::from_ptr(msg) }
            .to_string_lossy()
            .into_owned();
        NOTES.lock().unwrap().push(s);
    }
    let d = device();
    let mut rc = 0;
    // SAFETY: valid device, a callback with the right signature.
    let ctx = unsafe { clCreateContext(ptr::null(), 1, &d, Some(note), ptr::null_mut(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    let q = queue(ctx, 0);
    let a = command(q, &[], false, || {
        Err(ClError::new(CL_OUT_OF_RESOURCES, "boom 42"))
    })
    .unwrap();
    let b = marker(q, &[a]);
    assert_eq!(wait(&[a]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(status(a), CL_OUT_OF_RESOURCES);
    assert_eq!(wait(&[b]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert!(NOTES.lock().unwrap().iter().any(|m| m.contains("boom 42")));
    // A panicking work closure fails its command; nothing crosses into C.
    let p = command(q, &[], false, || panic!("test panic")).unwrap();
    assert!(wait(&[p]) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST && status(p) < 0);
    for e in [a, b, p] {
        release_event(e);
    }
    release_queue(q);
    release_context(ctx);
}

/// (event, status) pairs the callback saw, tagged by user data.
static CALLS: Mutex<Vec<(usize, cl_int)>> = Mutex::new(Vec::new());
unsafe extern "C" fn record(_: cl_event, status: cl_int, data: *mut c_void) {
    CALLS.lock().unwrap().push((data as usize, status));
}

fn calls_for(tag: usize) -> Vec<cl_int> {
    CALLS
        .lock()
        .unwrap()
        .iter()
        .filter(|c| c.0 == tag)
        .map(|c| c.1)
        .collect()
}

#[test]
fn callbacks_fire_once_per_status_in_order() {
    let ctx = context();
    let q = queue(ctx, 0);
    let gate = user_event(ctx);
    let m = marker(q, &[gate]);
    let tag = 1000;
    for on in [CL_COMPLETE, CL_RUNNING, CL_SUBMITTED] {
        // SAFETY: valid event and callback.
        assert_eq!(
            unsafe { clSetEventCallback(m, on, Some(record), tag as *mut c_void) },
            CL_SUCCESS
        );
    }
    // Behind an unset user event a command stays QUEUED.
    assert_eq!(status(m), CL_QUEUED);
    assert!(calls_for(tag).is_empty());
    set_status(gate, CL_COMPLETE);
    assert_eq!(wait(&[m]), CL_SUCCESS);
    assert_eq!(calls_for(tag), vec![CL_SUBMITTED, CL_RUNNING, CL_COMPLETE]);
    // Registered after completion: called at once, with the registered status.
    // SAFETY: as above.
    unsafe { clSetEventCallback(m, CL_RUNNING, Some(record), (tag + 1) as *mut c_void) };
    assert_eq!(calls_for(tag + 1), vec![CL_RUNNING]);
    // Bad arguments.
    // SAFETY: as above.
    unsafe {
        assert_eq!(
            clSetEventCallback(m, CL_QUEUED, Some(record), ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clSetEventCallback(m, CL_COMPLETE, None, ptr::null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(
            clSetEventCallback(ptr::null_mut(), CL_COMPLETE, Some(record), ptr::null_mut()),
            CL_INVALID_EVENT
        );
    }
    release_event(m);
    release_event(gate);
    release_queue(q);
    release_context(ctx);
}

#[test]
fn callbacks_on_failure_all_get_the_error() {
    let ctx = context();
    let gate = user_event(ctx);
    let tag = 2000;
    for on in [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE] {
        // SAFETY: valid event and callback.
        unsafe { clSetEventCallback(gate, on, Some(record), tag as *mut c_void) };
    }
    // A user event starts SUBMITTED: that one fired already.
    assert_eq!(calls_for(tag), vec![CL_SUBMITTED]);
    let q = queue(ctx, 0);
    let m = marker(q, &[gate]);
    for on in [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE] {
        // SAFETY: valid event and callback.
        unsafe { clSetEventCallback(m, on, Some(record), (tag + 1) as *mut c_void) };
    }
    set_status(gate, -5);
    assert_eq!(calls_for(tag), vec![CL_SUBMITTED, -5, -5]);
    // The command behind it was never submitted: every callback gets the error.
    let failed = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    assert_eq!(calls_for(tag + 1), vec![failed, failed, failed]);
    release_event(m);
    release_queue(q);
    release_event(gate);
    release_context(ctx);
}

#[test]
fn out_of_order_queue_and_barrier() {
    let ctx = context();
    let q = queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let (g1, g2) = (user_event(ctx), user_event(ctx));
    let a = marker(q, &[g1]);
    // Out of order: a later independent command completes first.
    let free = command(q, &[], false, || Ok(())).unwrap();
    assert_eq!(wait(&[free]), CL_SUCCESS);
    assert!(status(a) > CL_COMPLETE);
    // A marker with no wait list waits for everything earlier.
    let all = marker(q, &[]);
    let bar = barrier(q, &[g2]);
    // After the barrier, even an independent command waits for it.
    let after = command(q, &[], false, || Ok(())).unwrap();
    std::thread::sleep(Duration::from_millis(10));
    assert!(status(all) > CL_COMPLETE && status(after) > CL_COMPLETE);
    set_status(g2, CL_COMPLETE);
    assert_eq!(wait(&[bar]), CL_SUCCESS);
    assert_eq!(wait(&[after]), CL_SUCCESS);
    assert!(status(all) > CL_COMPLETE, "the marker must wait for a");
    set_status(g1, CL_COMPLETE);
    assert_eq!(wait(&[all]), CL_SUCCESS);
    for e in [g1, g2, a, free, all, bar, after] {
        release_event(e);
    }
    release_queue(q);
    release_context(ctx);
}

#[test]
fn finish_blocks_until_everything_completes() {
    for bits in [0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE] {
        let ctx = context();
        let q = queue(ctx, bits);
        let gate = user_event(ctx);
        let done = Arc::new(AtomicUsize::new(0));
        for _ in 0..20 {
            let d = done.clone();
            let e = command(q, &[gate], false, move || {
                std::thread::sleep(Duration::from_micros(200));
                d.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
            .unwrap();
            release_event(e);
        }
        let g = gate as usize;
        let opener = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            set_status(g as cl_event, CL_COMPLETE);
        });
        finish(q);
        assert_eq!(done.load(Ordering::SeqCst), 20);
        opener.join().unwrap();
        release_event(gate);
        release_queue(q);
        release_context(ctx);
    }
}

#[test]
fn non_blocking_command_returns_before_its_work_runs() {
    let ctx = context();
    let q = queue(ctx, 0);
    let (tx, rx) = std::sync::mpsc::channel::<()>();
    // The work waits for the caller: if enqueue ran it inline, this would hang.
    let e = command(q, &[], false, move || {
        rx.recv()
            .map_err(|_| ClError::new(CL_OUT_OF_RESOURCES, "channel"))
    })
    .unwrap();
    tx.send(()).unwrap();
    assert_eq!(wait(&[e]), CL_SUCCESS);
    release_event(e);
    release_queue(q);
    release_context(ctx);
}

#[test]
fn profiling_timestamps() {
    let ctx = context();
    let q = queue(ctx, CL_QUEUE_PROFILING_ENABLE);
    let e = command(q, &[], true, || {
        std::thread::sleep(Duration::from_millis(2));
        Ok(())
    })
    .unwrap();
    let get = |e: cl_event, p: cl_profiling_info| {
        let mut t: cl_ulong = 0;
        // SAFETY: a cl_ulong-sized answer.
        let rc = unsafe {
            clGetEventProfilingInfo(e, p, 8, &mut t as *mut _ as *mut c_void, ptr::null_mut())
        };
        (rc, t)
    };
    let times: Vec<cl_ulong> = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ]
    .iter()
    .map(|&p| {
        let (rc, t) = get(e, p);
        assert_eq!(rc, CL_SUCCESS);
        t
    })
    .collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    assert!(times[3] - times[2] >= 2_000_000, "{times:?}");
    assert_eq!(get(e, 0x1234).0, CL_INVALID_VALUE);
    // No profiling on the queue; a user event; not complete.
    let q0 = queue(ctx, 0);
    let m = marker(q0, &[]);
    wait(&[m]);
    assert_eq!(
        get(m, CL_PROFILING_COMMAND_START).0,
        CL_PROFILING_INFO_NOT_AVAILABLE
    );
    let u = user_event(ctx);
    assert_eq!(
        get(u, CL_PROFILING_COMMAND_START).0,
        CL_PROFILING_INFO_NOT_AVAILABLE
    );
    let pending = marker(q, &[u]);
    assert_eq!(
        get(pending, CL_PROFILING_COMMAND_QUEUED).0,
        CL_PROFILING_INFO_NOT_AVAILABLE
    );
    set_status(u, CL_COMPLETE);
    wait(&[pending]);
    assert_eq!(get(pending, CL_PROFILING_COMMAND_QUEUED).0, CL_SUCCESS);
    for ev in [e, m, u, pending] {
        release_event(ev);
    }
    release_queue(q);
    release_queue(q0);
    release_context(ctx);
}

#[test]
fn event_info_and_wait_list_errors() {
    let ctx = context();
    let other = context();
    let q = queue(ctx, 0);
    let m = marker(q, &[]);
    wait(&[m]);
    let info = |e: cl_event, p: cl_event_info| {
        let mut v = [0usize; 2];
        let mut size = 0;
        // SAFETY: 16 bytes of room.
        let rc = unsafe { clGetEventInfo(e, p, 16, v.as_mut_ptr() as *mut c_void, &mut size) };
        (rc, v[0], size)
    };
    assert_eq!(info(m, CL_EVENT_COMMAND_QUEUE), (CL_SUCCESS, q as usize, 8));
    assert_eq!(info(m, CL_EVENT_CONTEXT), (CL_SUCCESS, ctx as usize, 8));
    assert_eq!(
        info(m, CL_EVENT_COMMAND_TYPE),
        (CL_SUCCESS, CL_COMMAND_MARKER as usize, 4)
    );
    assert_eq!(info(m, CL_EVENT_REFERENCE_COUNT), (CL_SUCCESS, 1, 4));
    assert_eq!(info(m, 0xdead).0, CL_INVALID_VALUE);
    let u = user_event(other);
    assert_eq!(info(u, CL_EVENT_COMMAND_QUEUE), (CL_SUCCESS, 0, 8));
    assert_eq!(info(u, CL_EVENT_COMMAND_TYPE).1, CL_COMMAND_USER as usize);
    // Wait-list errors of an enqueue.
    let mut e = ptr::null_mut();
    // SAFETY: the calls below pass deliberately bad lists, never dereferenced
    // beyond what they say.
    unsafe {
        assert_eq!(
            clEnqueueMarkerWithWaitList(q, 1, ptr::null(), &mut e),
            CL_INVALID_EVENT_WAIT_LIST
        );
        assert_eq!(
            clEnqueueMarkerWithWaitList(q, 0, &m, &mut e),
            CL_INVALID_EVENT_WAIT_LIST
        );
        let bogus = [q as cl_event];
        assert_eq!(
            clEnqueueBarrierWithWaitList(q, 1, bogus.as_ptr(), &mut e),
            CL_INVALID_EVENT_WAIT_LIST
        );
        assert_eq!(
            clEnqueueMarkerWithWaitList(q, 1, &u, &mut e),
            CL_INVALID_CONTEXT
        );
        assert_eq!(
            clEnqueueMarkerWithWaitList(ptr::null_mut(), 0, ptr::null(), &mut e),
            CL_INVALID_COMMAND_QUEUE
        );
        assert_eq!(clEnqueueMarker(q, ptr::null_mut()), CL_INVALID_VALUE);
        assert_eq!(clEnqueueWaitForEvents(q, 0, ptr::null()), CL_INVALID_VALUE);
        assert_eq!(clEnqueueWaitForEvents(q, 1, &u), CL_INVALID_CONTEXT);
        assert_eq!(clEnqueueWaitForEvents(q, 1, &m), CL_SUCCESS);
        assert_eq!(clEnqueueBarrier(q), CL_SUCCESS);
        assert_eq!(clWaitForEvents(0, &m), CL_INVALID_VALUE);
        assert_eq!(clWaitForEvents(1, ptr::null()), CL_INVALID_VALUE);
        assert_eq!(clWaitForEvents(2, [m, u].as_ptr()), CL_INVALID_CONTEXT);
        assert_eq!(clWaitForEvents(1, bogus.as_ptr()), CL_INVALID_EVENT);
        assert_eq!(clSetUserEventStatus(m, CL_COMPLETE), CL_INVALID_EVENT);
        assert_eq!(clSetUserEventStatus(u, CL_SUBMITTED), CL_INVALID_VALUE);
    }
    set_status(u, CL_COMPLETE);
    finish(q);
    release_event(m);
    // Retain and release pair up on a live event.
    // SAFETY: plain calls.
    unsafe {
        assert_eq!(clRetainEvent(u), CL_SUCCESS);
        assert_eq!(clReleaseEvent(u), CL_SUCCESS);
    }
    release_event(u);
    release_queue(q);
    release_context(ctx);
    release_context(other);
}

/// 8 threads, each with its own in-order and out-of-order queues, enqueue
/// markers and small commands whose wait lists reach into the other threads'
/// queues and into user events; every command runs once, and each in-order
/// queue runs its commands in order.
#[test]
fn eight_threads_with_cross_queue_dependencies() {
    const THREADS: usize = 8;
    const PER_THREAD: usize = 10_000;
    let ctx = context();
    let queues: Vec<(usize, usize)> = (0..THREADS)
        .map(|_| {
            (
                queue(ctx, 0) as usize,
                queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) as usize,
            )
        })
        .collect();
    // Each thread publishes its most recent event here for others to wait on.
    let latest: Arc<Vec<Mutex<Option<usize>>>> =
        Arc::new((0..THREADS).map(|_| Mutex::new(None)).collect());
    let ran = Arc::new(AtomicUsize::new(0));
    let gate = user_event(ctx) as usize;
    let ctx_handle = ctx as usize;
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (inq, ooq) = queues[t];
            let (latest, ran) = (latest.clone(), ran.clone());
            std::thread::spawn(move || {
                let order = Arc::new(AtomicUsize::new(0));
                let mut mine = Vec::new();
                let mut own_gate = None;
                for i in 0..PER_THREAD {
                    let mut wait_on = Vec::new();
                    // Another thread's latest event (no event is released
                    // before every thread is done).
                    if let Some(e) = *latest[(t + 1 + i % (THREADS - 1)) % THREADS]
                        .lock()
                        .unwrap()
                    {
                        wait_on.push(e as cl_event);
                    }
                    if i == 0 {
                        wait_on.push(gate as cl_event);
                    }
                    // Mid-stream, a gate of this thread's own holds a command
                    // (and its in-order followers) for a hundred enqueues.
                    if i == PER_THREAD / 2 {
                        let g = user_event(ctx_handle as cl_context);
                        own_gate = Some(g);
                        wait_on.push(g);
                    }
                    if i == PER_THREAD / 2 + 100 {
                        if let Some(g) = own_gate.take() {
                            assert_eq!(set_status(g, CL_COMPLETE), CL_SUCCESS);
                            release_event(g);
                        }
                    }
                    let (q, in_order) = if i % 3 == 0 {
                        (ooq, false)
                    } else {
                        (inq, true)
                    };
                    let (o, r) = (order.clone(), ran.clone());
                    // Some blocking commands, but none while a thread's own
                    // gate may be closed (it opens it itself, later).
                    let gated = (PER_THREAD / 2..=PER_THREAD / 2 + 100).contains(&i);
                    let blocking = i % 50 == 7 && !gated;
                    let e = match i % 4 {
                        0 => marker(q as cl_command_queue, &wait_on),
                        1 if !in_order => barrier(q as cl_command_queue, &wait_on),
                        _ => command(q as cl_command_queue, &wait_on, blocking, move || {
                            if in_order {
                                // In-order commands of this thread run in order.
                                let prev = o.fetch_max(i, Ordering::SeqCst);
                                assert!(prev <= i, "in-order command {i} ran after {prev}");
                            }
                            r.fetch_add(1, Ordering::SeqCst);
                            Ok(())
                        })
                        .unwrap(),
                    };
                    // Publish e with a reference of its own; `mine` collects
                    // every reference this thread holds, released at the end.
                    // SAFETY: plain retain of a valid event.
                    unsafe { clRetainEvent(e) };
                    if let Some(old) = latest[t].lock().unwrap().replace(e as usize) {
                        mine.push(old);
                    }
                    mine.push(e as usize);
                }
                mine
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(5));
    set_status(gate as cl_event, CL_COMPLETE);
    let all: Vec<Vec<usize>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for &(a, b) in &queues {
        finish(a as cl_command_queue);
        finish(b as cl_command_queue);
    }
    for list in &all {
        let evs: Vec<cl_event> = list.iter().map(|&e| e as cl_event).collect();
        assert_eq!(wait(&evs), CL_SUCCESS);
    }
    let commands: usize = (0..PER_THREAD)
        .filter(|i| i % 4 >= 2 || (i % 4 == 1 && i % 3 != 0))
        .count();
    assert_eq!(ran.load(Ordering::SeqCst), commands * THREADS);
    for list in all {
        for e in list {
            release_event(e as cl_event);
        }
    }
    for slot in latest.iter() {
        if let Some(e) = slot.lock().unwrap().take() {
            release_event(e as cl_event);
        }
    }
    release_event(gate as cl_event);
    for (a, b) in queues {
        release_queue(a as cl_command_queue);
        release_queue(b as cl_command_queue);
    }
    release_context(ctx);
}

/// Work that never runs is dropped with no lock of ours held: what it owns
/// may call back into the API from its destructor (as a memory object's
/// destructor callback does), even on the very event of its command.
#[test]
fn dropping_unrun_work_may_call_the_api() {
    struct CallsBack(Arc<Mutex<usize>>);
    impl Drop for CallsBack {
        fn drop(&mut self) {
            let e = *self.0.lock().unwrap() as cl_event;
            // SAFETY: `e` is the (live) event of the command owning us.
            let rc =
                unsafe { clSetEventCallback(e, CL_COMPLETE, Some(record), 3000 as *mut c_void) };
            assert_eq!(rc, CL_SUCCESS);
        }
    }
    let ctx = context();
    let q = queue(ctx, 0);
    let gate = user_event(ctx);
    let cell = Arc::new(Mutex::new(0));
    let guard = CallsBack(cell.clone());
    let e = command(q, &[gate], false, move || {
        drop(guard);
        Ok(())
    })
    .unwrap();
    *cell.lock().unwrap() = e as usize;
    // The failure reaches the command on this thread, inside this call.
    set_status(gate, -1);
    assert_eq!(wait(&[e]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_eq!(
        calls_for(3000),
        vec![CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST]
    );
    release_event(e);
    release_event(gate);
    release_queue(q);
    release_context(ctx);
}
