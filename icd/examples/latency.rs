//! Enqueue-to-complete latency of the executor (issue 2's "Measure" list),
//! calling the entry points of the rlib directly (no loader):
//! - an empty marker: enqueue, wait for its event, release it;
//! - an empty marker without an event, then clFinish;
//! - a 4-byte blocking write;
//! - an in-order chain of commands run by the worker pool, per command.
//!
//! Run: `cargo run --release -p cranecl --example latency`.

use cranecl::api::*;
use cranecl::core::handle::Obj;
use cranecl::core::queue::Queue;
use cranecl::exec;
use opencl_sys::*;
use std::ffi::c_void;
use std::ptr;
use std::time::Instant;

/// Batches of `BATCH` runs; the figure is the fastest batch's mean, so that
/// time the OS gave to other processes (this is a shared 2-core machine)
/// does not count; the overall mean is printed alongside.
const BATCHES: u32 = 2000;
const BATCH: u32 = 100;

/// (fastest batch mean, overall mean) in nanoseconds per run of `f`.
fn measure(mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..BATCH * 100 {
        f();
    }
    let mut best = f64::MAX;
    let start = Instant::now();
    for _ in 0..BATCHES {
        let t = Instant::now();
        for _ in 0..BATCH {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / BATCH as f64);
    }
    let mean = start.elapsed().as_nanos() as f64 / (BATCHES * BATCH) as f64;
    (best, mean)
}

fn report(what: &str, (best, mean): (f64, f64)) {
    println!("{what:<42} {best:>6.0} ns (mean {mean:.0} ns)");
}

fn main() {
    // SAFETY: every call gets valid handles and out-pointers.
    unsafe {
        let mut d = ptr::null_mut();
        clGetDeviceIDs(
            ptr::null_mut(),
            CL_DEVICE_TYPE_CPU,
            1,
            &mut d,
            ptr::null_mut(),
        );
        let mut rc = 0;
        let ctx = clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut rc);
        let q = clCreateCommandQueueWithProperties(ctx, d, ptr::null(), &mut rc);
        assert_eq!(rc, CL_SUCCESS);

        let marker = measure(|| {
            let mut e = ptr::null_mut();
            clEnqueueMarkerWithWaitList(q, 0, ptr::null(), &mut e);
            clWaitForEvents(1, &e);
            clReleaseEvent(e);
        });
        report("empty marker, enqueue + wait + release:", marker);

        let finish = measure(|| {
            clEnqueueMarkerWithWaitList(q, 0, ptr::null(), ptr::null_mut());
            clFinish(q);
        });
        report("empty marker without event + clFinish:", finish);

        let buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, ptr::null_mut(), &mut rc);
        if rc == CL_SUCCESS {
            let value = 7u32;
            let mut status = CL_SUCCESS;
            let write = measure(|| {
                status |= clEnqueueWriteBuffer(
                    q,
                    buf,
                    CL_TRUE,
                    0,
                    4,
                    &value as *const u32 as *const c_void,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                );
            });
            if status == CL_SUCCESS {
                report("4-byte blocking write:", write);
            } else {
                println!("4-byte blocking write: error {status}");
            }
            clReleaseMemObject(buf);
        } else {
            println!("4-byte blocking write: clCreateBuffer answered {rc}");
        }
        // A chain of commands with (trivial) work on an in-order queue, held
        // by a user event and then released: the executor's hand-off cost
        // per command when commands run on the worker pool.
        let queue = Obj::<Queue>::get(q).expect("a valid queue");
        let chain = 10_000;
        let mut best = f64::MAX;
        for _ in 0..10 {
            let gate = clCreateUserEvent(ctx, &mut rc);
            for i in 0..chain {
                let wait: &[cl_event] = if i == 0 {
                    std::slice::from_ref(&gate)
                } else {
                    &[]
                };
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
                    ptr::null_mut(),
                    false,
                    exec::Work::call(|| Ok(())),
                )
                .expect("enqueue");
            }
            let start = Instant::now();
            clSetUserEventStatus(gate, CL_COMPLETE);
            clFinish(q);
            best = best.min(start.elapsed().as_nanos() as f64 / chain as f64);
            clReleaseEvent(gate);
        }
        println!(
            "{:<42} {best:>6.0} ns",
            "in-order chain of worker commands, each:"
        );
        drop(queue);

        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
