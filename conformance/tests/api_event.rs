//! API behaviour of events, markers and barriers: `clCreateUserEvent`,
//! `clSetUserEventStatus`, `clWaitForEvents`, `clGetEventInfo`,
//! `clRetainEvent`/`clReleaseEvent`, `clSetEventCallback`,
//! `clGetEventProfilingInfo`, `clEnqueueMarkerWithWaitList`,
//! `clEnqueueBarrierWithWaitList` and the 1.1 forms (`clEnqueueMarker`,
//! `clEnqueueBarrier`, `clEnqueueWaitForEvents`): bad handles and arguments,
//! then what the calls do (status, callbacks, ordering, profiling).

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn status(t: &Cl, e: cl_event) -> cl_int {
    let mut st: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut st as *mut i32).cast(), null())),
        CL_SUCCESS
    );
    st
}

fn event_info<T: Default>(t: &Cl, e: cl_event, name: cl_event_info) -> T {
    let mut v = T::default();
    assert_code!(
        call!(t; clGetEventInfo(e, name, std::mem::size_of::<T>(), (&mut v as *mut T).cast(), null())),
        CL_SUCCESS,
        "clGetEventInfo({name:#x})"
    );
    v
}

fn user_events(t: &Cl) {
    let ctx = t.context();
    let dev = t.device();
    let mut e = 0;
    let ev = call!(t; clCreateUserEvent(null(), &mut e));
    assert!(ev.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let ev = call!(t; clCreateUserEvent(dev as cl_context, &mut e));
    assert!(ev.is_null());
    assert_code!(e, CL_INVALID_CONTEXT);
    let ue = t.user_event(ctx);
    assert_eq!(
        status(t, ue),
        CL_SUBMITTED,
        "a new user event is CL_SUBMITTED"
    );
    assert_eq!(
        event_info::<cl_command_type>(t, ue, CL_EVENT_COMMAND_TYPE),
        CL_COMMAND_USER
    );
    assert!(
        event_info::<usize>(t, ue, CL_EVENT_COMMAND_QUEUE) == 0,
        "a user event has no queue"
    );
    assert_eq!(event_info::<usize>(t, ue, CL_EVENT_CONTEXT), ctx as usize);
    assert_eq!(event_info::<cl_uint>(t, ue, CL_EVENT_REFERENCE_COUNT), 1);

    assert_code!(
        call!(t; clSetUserEventStatus(ctx as cl_event, CL_COMPLETE)),
        CL_INVALID_EVENT
    );
    assert_code!(
        call!(t; clSetUserEventStatus(ue, CL_RUNNING)),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clSetUserEventStatus(ue, CL_SUBMITTED)),
        CL_INVALID_VALUE
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, 7)), CL_INVALID_VALUE);
    assert_eq!(status(t, ue), CL_SUBMITTED, "refused calls change nothing");
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_eq!(status(t, ue), CL_COMPLETE);
    assert_code!(
        call!(t; clSetUserEventStatus(ue, CL_COMPLETE)),
        CL_INVALID_OPERATION,
        "set twice"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(ue, -5)),
        CL_INVALID_OPERATION,
        "set twice"
    );
    // A marker's event is not a user event.
    let q = t.queue(ctx, 0);
    let mut m: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), &mut m)),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetUserEventStatus(m, CL_COMPLETE)),
        CL_INVALID_EVENT,
        "a marker is not a user event"
    );
    assert_code!(call!(t; clWaitForEvents(1, &m)), CL_SUCCESS);
    let failed = t.user_event(ctx);
    assert_code!(call!(t; clSetUserEventStatus(failed, -42)), CL_SUCCESS);
    assert_eq!(
        status(t, failed),
        -42,
        "a user event keeps the error it was given"
    );
    for ev in [ue, m, failed] {
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn wait_for_events(t: &Cl) {
    let ctx = t.context();
    let ctx2 = t.context();
    let a = t.user_event(ctx);
    let b = t.user_event(ctx2);
    assert_code!(
        call!(t; clWaitForEvents(0, &a)),
        CL_INVALID_VALUE,
        "num_events 0"
    );
    assert_code!(
        call!(t; clWaitForEvents(1, null())),
        CL_INVALID_VALUE,
        "event_list NULL"
    );
    let bad = [a, ctx as cl_event];
    assert_code!(
        call!(t; clWaitForEvents(2, bad.as_ptr())),
        CL_INVALID_EVENT,
        "a context in the list"
    );
    let mixed = [a, b];
    assert_code!(
        call!(t; clWaitForEvents(2, mixed.as_ptr())),
        CL_INVALID_CONTEXT,
        "events of two contexts"
    );
    // A wait returns once every event is complete (set from another thread).
    let a_addr = a as usize;
    let setter = {
        let f = t.f.clSetUserEventStatus.expect("exported");
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            // SAFETY: the event outlives the thread (joined below).
            unsafe { f(a_addr as cl_event, CL_COMPLETE) }
        })
    };
    let start = Instant::now();
    assert_code!(call!(t; clWaitForEvents(1, &a)), CL_SUCCESS);
    assert!(
        start.elapsed() >= Duration::from_millis(40),
        "clWaitForEvents returned before the event completed"
    );
    assert_code!(setter.join().expect("setter thread"), CL_SUCCESS);
    assert_code!(call!(t; clSetUserEventStatus(b, -1)), CL_SUCCESS);
    assert_code!(
        call!(t; clWaitForEvents(1, &b)),
        CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
    );
    for ev in [a, b] {
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    for c in [ctx, ctx2] {
        assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
    }
}

fn event_handles(t: &Cl) {
    let ctx = t.context();
    let not_ev = ctx as cl_event;
    assert_code!(call!(t; clRetainEvent(null())), CL_INVALID_EVENT);
    assert_code!(call!(t; clReleaseEvent(null())), CL_INVALID_EVENT);
    assert_code!(call!(t; clRetainEvent(not_ev)), CL_INVALID_EVENT);
    assert_code!(call!(t; clReleaseEvent(not_ev)), CL_INVALID_EVENT);
    let mut v: cl_int = 0;
    let vp = (&mut v as *mut i32).cast();
    assert_code!(
        call!(t; clGetEventInfo(not_ev, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, vp, null())),
        CL_INVALID_EVENT
    );
    let ue = t.user_event(ctx);
    assert_code!(
        call!(t; clGetEventInfo(ue, 0x7fff_ffff, 4, vp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetEventInfo(ue, CL_EVENT_COMMAND_EXECUTION_STATUS, 2, vp, null())),
        CL_INVALID_VALUE
    );
    assert_code!(call!(t; clRetainEvent(ue)), CL_SUCCESS);
    assert_eq!(event_info::<cl_uint>(t, ue, CL_EVENT_REFERENCE_COUNT), 2);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    assert_eq!(event_info::<cl_uint>(t, ue, CL_EVENT_REFERENCE_COUNT), 1);
    let mut ts: cl_ulong = 0;
    assert_code!(
        call!(t; clGetEventProfilingInfo(not_ev, CL_PROFILING_COMMAND_END, 8, (&mut ts as *mut u64).cast(), null())),
        CL_INVALID_EVENT
    );
    assert_code!(
        call!(t; clGetEventProfilingInfo(ue, CL_PROFILING_COMMAND_END, 8, (&mut ts as *mut u64).cast(), null())),
        CL_PROFILING_INFO_NOT_AVAILABLE,
        "profiling of a user event"
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

static CALLBACKS: Mutex<Vec<(usize, cl_int, cl_int)>> = Mutex::new(Vec::new());

/// Records (tag, status given, status the event reports inside the callback).
unsafe extern "C" fn record(ev: cl_event, st: cl_int, user_data: *mut c_void) {
    let tag = user_data as usize;
    // The table the test uses is not reachable from here; the direct table
    // answers for every handle of ours.
    let mut now: cl_int = 0;
    if let Some(f) = cranecl_conformance::direct().f.clGetEventInfo {
        // SAFETY: `ev` is the live event the callback is for.
        unsafe {
            f(
                ev,
                CL_EVENT_COMMAND_EXECUTION_STATUS,
                4,
                (&mut now as *mut i32).cast(),
                null(),
            )
        };
    }
    CALLBACKS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push((tag, st, now));
}

fn callbacks_for(range: std::ops::Range<usize>, want: usize) -> Vec<(usize, cl_int, cl_int)> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let got: Vec<_> = CALLBACKS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .copied()
            .filter(|c| range.contains(&c.0))
            .collect();
        if got.len() >= want || Instant::now() > deadline {
            return got;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn event_callbacks(t: &Cl) {
    // `record` queries through the direct table: load it before any callback.
    let _ = cranecl_conformance::direct();
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let ue = t.user_event(ctx);
    assert_code!(
        call!(t; clSetEventCallback(ctx as cl_event, CL_COMPLETE, Some(record), null())),
        CL_INVALID_EVENT
    );
    assert_code!(
        call!(t; clSetEventCallback(ue, CL_COMPLETE, None, null())),
        CL_INVALID_VALUE,
        "pfn NULL"
    );
    assert_code!(
        call!(t; clSetEventCallback(ue, CL_QUEUED, Some(record), null())),
        CL_INVALID_VALUE,
        "CL_QUEUED"
    );
    assert_code!(
        call!(t; clSetEventCallback(ue, 17, Some(record), null())),
        CL_INVALID_VALUE,
        "an unknown status"
    );
    let base = if t.direct { 100 } else { 200 };
    // A marker gated by the user event: callbacks for the three statuses.
    let mut m: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &ue, &mut m)),
        CL_SUCCESS
    );
    for (i, st) in [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE]
        .into_iter()
        .enumerate()
    {
        assert_code!(
            call!(t; clSetEventCallback(m, st, Some(record), (base + i) as *mut c_void)),
            CL_SUCCESS
        );
    }
    assert_code!(call!(t; clFlush(q)), CL_SUCCESS);
    std::thread::sleep(Duration::from_millis(20));
    assert!(
        callbacks_for(base + 2..base + 3, 0).is_empty(),
        "the COMPLETE callback ran before the gate was set"
    );
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clWaitForEvents(1, &m)), CL_SUCCESS);
    let got = callbacks_for(base..base + 3, 3);
    assert_eq!(got.len(), 3, "one callback per status: {got:?}");
    for (tag, given, now) in &got {
        let want = [CL_SUBMITTED, CL_RUNNING, CL_COMPLETE][tag - base];
        assert_eq!(*given, want, "callback {tag} is given its status");
        assert!(
            *now <= want,
            "callback {tag}: the event reports {now}, at least as far as {want}"
        );
    }
    // A callback registered after completion still runs, with CL_COMPLETE.
    assert_code!(
        call!(t; clSetEventCallback(m, CL_COMPLETE, Some(record), (base + 3) as *mut c_void)),
        CL_SUCCESS
    );
    let late = callbacks_for(base + 3..base + 4, 1);
    assert_eq!(
        late.iter().map(|c| c.1).collect::<Vec<_>>(),
        vec![CL_COMPLETE],
        "late callback"
    );
    // A failed command's callbacks get its negative status.
    let gate = t.user_event(ctx);
    let mut f: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &gate, &mut f)),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetEventCallback(f, CL_COMPLETE, Some(record), (base + 4) as *mut c_void)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clSetUserEventStatus(gate, -77)), CL_SUCCESS);
    let failed = callbacks_for(base + 4..base + 5, 1);
    assert_eq!(
        failed.len(),
        1,
        "the COMPLETE callback of a failed command runs"
    );
    assert!(
        failed[0].1 < 0,
        "and is given a negative status: {}",
        failed[0].1
    );
    for ev in [ue, m, gate, f] {
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn profiling(t: &Cl) {
    let ctx = t.context();
    let plain = t.queue(ctx, 0);
    let prof = t.queue(ctx, CL_QUEUE_PROFILING_ENABLE);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 4096);
    let data = vec![7u8; 4096];
    let mut e1: cl_event = null();
    let mut e2: cl_event = null();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(plain, buf, CL_TRUE, 0, 4096, data.as_ptr().cast(), 0, null(), &mut e1)),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueWriteBuffer(prof, buf, CL_TRUE, 0, 4096, data.as_ptr().cast(), 0, null(), &mut e2)),
        CL_SUCCESS
    );
    let get = |e: cl_event, name: cl_profiling_info| {
        let mut v: cl_ulong = 0;
        (
            call!(t; clGetEventProfilingInfo(e, name, 8, (&mut v as *mut u64).cast(), null())),
            v,
        )
    };
    assert_code!(
        get(e1, CL_PROFILING_COMMAND_START).0,
        CL_PROFILING_INFO_NOT_AVAILABLE,
        "queue without profiling"
    );
    assert_code!(
        get(e2, 0x7fff).0,
        CL_INVALID_VALUE,
        "an unknown profiling query"
    );
    let mut small: u32 = 0;
    assert_code!(
        call!(t; clGetEventProfilingInfo(e2, CL_PROFILING_COMMAND_START, 4, (&mut small as *mut u32).cast(), null())),
        CL_INVALID_VALUE,
        "a cl_ulong into 4 bytes"
    );
    let names = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ];
    let mut prev = 0;
    for n in names {
        let (r, v) = get(e2, n);
        assert_code!(r, CL_SUCCESS, "profiling {n:#x}");
        assert!(v >= prev && v > 0, "profiling {n:#x} = {v} follows {prev}");
        prev = v;
    }
    for ev in [e1, e2] {
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    for q in [plain, prof] {
        assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

fn markers_and_barriers(t: &Cl) {
    let ctx = t.context();
    let ctx2 = t.context();
    let q = t.queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    let other = t.user_event(ctx2);
    let ue = t.user_event(ctx);
    let mut ev: cl_event = null();
    for barrier in [false, true] {
        let f = |q: cl_command_queue, n: cl_uint, l: *const cl_event, e: *mut cl_event| {
            if barrier {
                call!(t; clEnqueueBarrierWithWaitList(q, n, l, e))
            } else {
                call!(t; clEnqueueMarkerWithWaitList(q, n, l, e))
            }
        };
        let w = if barrier { "barrier" } else { "marker" };
        assert_code!(
            f(null(), 0, null(), &mut ev),
            CL_INVALID_COMMAND_QUEUE,
            "{w}"
        );
        assert_code!(
            f(ctx as _, 0, null(), &mut ev),
            CL_INVALID_COMMAND_QUEUE,
            "{w}"
        );
        assert_code!(
            f(q, 1, null(), &mut ev),
            CL_INVALID_EVENT_WAIT_LIST,
            "{w}: NULL list"
        );
        assert_code!(
            f(q, 0, &ue, &mut ev),
            CL_INVALID_EVENT_WAIT_LIST,
            "{w}: 0 events with a list"
        );
        let not_ev = ctx as cl_event;
        assert_code!(
            f(q, 1, &not_ev, &mut ev),
            CL_INVALID_EVENT_WAIT_LIST,
            "{w}: a context in the list"
        );
        assert_code!(
            f(q, 1, &other, &mut ev),
            CL_INVALID_CONTEXT,
            "{w}: an event of another context"
        );
    }
    // Legacy forms.
    assert_code!(
        call!(t; clEnqueueMarker(q, null())),
        CL_INVALID_VALUE,
        "clEnqueueMarker without an event"
    );
    assert_code!(
        call!(t; clEnqueueMarker(ctx as _, &mut ev)),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueBarrier(ctx as _)),
        CL_INVALID_COMMAND_QUEUE
    );
    assert_code!(
        call!(t; clEnqueueWaitForEvents(q, 0, &ue)),
        CL_INVALID_VALUE,
        "clEnqueueWaitForEvents of 0 events"
    );
    assert_code!(
        call!(t; clEnqueueWaitForEvents(q, 1, null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clEnqueueWaitForEvents(q, 1, &other)),
        CL_INVALID_CONTEXT
    );
    assert_code!(
        call!(t; clEnqueueWaitForEvents(ctx as _, 1, &ue)),
        CL_INVALID_COMMAND_QUEUE
    );

    // Behaviour on an out-of-order queue: a marker without a wait list waits
    // for every earlier command; a barrier holds back every later one.
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 64);
    let pat = 0xabu8;
    let mut fill: cl_event = null();
    assert_code!(
        call!(t; clEnqueueFillBuffer(q, buf, (&pat as *const u8).cast(), 1, 0, 64, 1, &ue, &mut fill)),
        CL_SUCCESS
    );
    let mut marker: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), &mut marker)),
        CL_SUCCESS
    );
    assert_eq!(
        event_info::<cl_command_type>(t, marker, CL_EVENT_COMMAND_TYPE),
        CL_COMMAND_MARKER
    );
    let mut barrier: cl_event = null();
    assert_code!(
        call!(t; clEnqueueBarrierWithWaitList(q, 0, null(), &mut barrier)),
        CL_SUCCESS
    );
    assert_eq!(
        event_info::<cl_command_type>(t, barrier, CL_EVENT_COMMAND_TYPE),
        CL_COMMAND_BARRIER
    );
    let mut out = [0u8; 64];
    let mut read: cl_event = null();
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_FALSE, 0, 64, out.as_mut_ptr().cast(), 0, null(), &mut read)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFlush(q)), CL_SUCCESS);
    std::thread::sleep(Duration::from_millis(30));
    for (name, e) in [
        ("marker", marker),
        ("barrier", barrier),
        ("read after the barrier", read),
    ] {
        assert_ne!(
            status(t, e),
            CL_COMPLETE,
            "{name} completed while an earlier command waits on a user event"
        );
    }
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clWaitForEvents(1, &read)), CL_SUCCESS);
    assert_eq!(out, [pat; 64], "the read after the barrier sees the fill");
    assert_eq!(status(t, marker), CL_COMPLETE);
    assert_eq!(
        event_info::<usize>(t, read, CL_EVENT_COMMAND_QUEUE),
        q as usize
    );
    let mut legacy: cl_event = null();
    assert_code!(call!(t; clEnqueueMarker(q, &mut legacy)), CL_SUCCESS);
    assert_code!(call!(t; clEnqueueBarrier(q)), CL_SUCCESS);
    assert_code!(call!(t; clEnqueueWaitForEvents(q, 1, &legacy)), CL_SUCCESS);
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_eq!(status(t, legacy), CL_COMPLETE);
    assert_code!(
        call!(t; clSetUserEventStatus(other, CL_COMPLETE)),
        CL_SUCCESS
    );
    for e in [fill, marker, barrier, read, legacy, ue, other] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    for c in [ctx, ctx2] {
        assert_code!(call!(t; clReleaseContext(c)), CL_SUCCESS);
    }
}

/// A non-blocking read returns at once and completes later.
fn asynchronous_commands(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 1 << 20);
    let gate = t.user_event(ctx);
    let data: Vec<u8> = (0..1usize << 20).map(|i| (i % 251) as u8).collect();
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 1 << 20, data.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = vec![0u8; 1 << 20];
    let mut read: cl_event = null();
    let start = Instant::now();
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_FALSE, 0, 1 << 20, out.as_mut_ptr().cast(), 1, &gate, &mut read)),
        CL_SUCCESS
    );
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "a non-blocking read returned at once"
    );
    let st = status(t, read);
    assert!(
        st == CL_QUEUED || st == CL_SUBMITTED,
        "the gated read is queued or submitted: {st}"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_eq!(
        status(t, read),
        CL_COMPLETE,
        "clFinish completes every command"
    );
    assert!(out == data, "the read delivered the buffer's bytes");
    for e in [gate, read] {
        assert_code!(call!(t; clReleaseEvent(e)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(
    user_events,
    wait_for_events,
    event_handles,
    event_callbacks,
    profiling,
    markers_and_barriers,
    asynchronous_commands,
);
