//! The launch path as users take it allocates nothing: a stream of launches
//! with a NULL local size, the kernel's arguments set before each one and
//! an event returned by each (and released), counted by a global allocator
//! that counts every allocation of this process (its worker threads too).

mod common;
mod program_common;

use common::*;
use program_common::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// `System`, counting its allocations.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed to `System` unchanged; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's block and layout, as `GlobalAlloc::realloc` requires.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's block and layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One launch as pyopencl makes it: arguments set, a NULL local size, an
/// event returned; the event is released `keep` launches later (the user
/// holds a few).
fn launch(q: cl_command_queue, k: cl_kernel, m: cl_mem, n: u32) -> cl_event {
    enqueue(q, k, m, n, n as usize)
}

/// `k(m, n)` over `global` work-items with a NULL local size, its arguments
/// set first; the command's event.
fn enqueue(q: cl_command_queue, k: cl_kernel, m: cl_mem, n: u32, global: usize) -> cl_event {
    assert_eq!(set_mem_arg(k, 0, m), CL_SUCCESS);
    assert_eq!(set_arg(k, 1, n), CL_SUCCESS);
    let g = [global];
    let mut ev = ptr::null_mut();
    // SAFETY: one global size, NULL offset and local size, an event out-pointer.
    let rc = unsafe {
        clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            g.as_ptr(),
            ptr::null(),
            0,
            ptr::null(),
            &mut ev,
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    ev
}

/// Allocations made by `launches` runs of `one` after two warm-up rounds
/// (the pool's threads, the kernel's launch plan, the queue's lists).
fn counted(launches: u32, mut one: impl FnMut()) -> u64 {
    let mut counted = 0;
    for _ in 0..3 {
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for _ in 0..launches {
            one();
        }
        counted = ALLOCATIONS.load(Ordering::Relaxed) - before;
    }
    counted
}

#[test]
fn launches_with_events_allocate_nothing() {
    // One compute unit (read on the first call, below): a launch runs on the
    // thread that finds it ready, never handed to a second thread (a
    // hand-off allocates, and whether a launch is worth one depends on how
    // fast this machine runs it at the moment).
    // The only test of this process: no other thread reads the environment.
    std::env::set_var("CRANECL_THREADS", "1");
    let ctx = context();
    let mut units: cl_uint = 0;
    // SAFETY: a cl_uint out-pointer of the right size.
    let rc = unsafe {
        clGetDeviceInfo(
            device(),
            CL_DEVICE_MAX_COMPUTE_UNITS,
            4,
            (&mut units as *mut cl_uint).cast(),
            ptr::null_mut(),
        )
    };
    assert_eq!((rc, units), (CL_SUCCESS, 1));
    let p = source(
        ctx,
        &["kernel void k(global int *p, uint n) {
              size_t i = get_global_id(0);
              if (i < n) p[i] += 1;
              if (i == 0) p[n] = get_num_groups(0);
          }"],
    );
    assert_eq!(build(p, ""), CL_SUCCESS, "{}", build_log(p));
    let k = kernel(p, "k");
    let n = 512u32;
    let m = buffer(ctx, (n as usize + 1) * 4);
    let q = queue(ctx, 0);
    write(q, m, &vec![0i32; n as usize + 1]);
    let launches = 2_000;
    // A stream: the user holds the latest few events, waiting for the
    // oldest before releasing it (so at most that many are in flight).
    let mut held = std::collections::VecDeque::new();
    let stream = counted(launches, || {
        held.push_back(launch(q, k, m, n));
        if held.len() > 8 {
            let ev = held.pop_front().unwrap();
            assert_eq!(wait(&[ev]), CL_SUCCESS);
            release_event(ev);
        }
    });
    finish(q);
    for ev in held.drain(..) {
        assert_eq!(status(ev), CL_COMPLETE);
        release_event(ev);
    }
    // Each launch waited for, then its event released.
    let waited = counted(launches, || {
        let ev = launch(q, k, m, n);
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
    });
    let v: Vec<i32> = read(q, m, n as usize + 1);
    let each = 6 * launches as i32;
    assert!(v[..n as usize].iter().all(|&x| x == each), "{:?}", &v[..4]);
    // Several groups: the launches took the path that deals groups out.
    assert!(v[n as usize] > 1, "{} work-groups", v[n as usize]);
    // One per launch would be 2,000. On a quiet machine there are none; on
    // one loaded far past its cores (the debug build, three of these tests
    // and two busy loops on two cores) up to a few dozen were seen (not
    // traced; likely a thread preempted while it still held a finished
    // command's event, which keeps that spare from being reused).
    let most = launches as u64 / 10;
    assert!(
        stream < most,
        "{stream} allocations in {launches} launches in a stream"
    );
    assert!(
        waited < most,
        "{waited} allocations in {launches} launches waited for"
    );
    // Groups slow enough that the launch looks worth helpers after its
    // first group: with one compute unit there is none to call, and the
    // caller goes on alone with the deal still on its stack.
    let slow = source(
        ctx,
        &["kernel void slow(global float *p, uint n) {
              size_t i = get_global_id(0);
              float a = p[i];
              for (uint j = 0; j < n; j++)
                  a = a * 0.999f + 1.0f;
              p[i] = a;
              if (i == 0) p[get_global_size(0)] = (float)get_num_groups(0);
          }"],
    );
    assert_eq!(build(slow, ""), CL_SUCCESS, "{}", build_log(slow));
    let ks = kernel(slow, "slow");
    let items = 512usize;
    let ms = buffer(ctx, (items + 1) * 4);
    write(q, ms, &vec![0f32; items + 1]);
    let slow_launches = 100;
    let alone = counted(slow_launches, || {
        let ev = enqueue(q, ks, ms, 4_000, items);
        assert_eq!(wait(&[ev]), CL_SUCCESS);
        release_event(ev);
    });
    let v: Vec<f32> = read(q, ms, items + 1);
    assert!(v[items] > 1.0, "{} work-groups", v[items]);
    // (Each work-item's value approaches 1000 from below.)
    assert!(
        v[..items].iter().all(|&x| x > 990.0 && x < 1000.5),
        "{:?}",
        &v[..4]
    );
    assert!(
        alone < slow_launches as u64 / 10,
        "{alone} allocations in {slow_launches} launches of slow groups on one compute unit"
    );
    release_mem(ms);
    release_kernel(ks);
    release_program(slow);
    release_mem(m);
    release_kernel(k);
    release_queue(q);
    release_program(p);
    release_context(ctx);
}
