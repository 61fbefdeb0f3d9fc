//! Buffer-command figures: `clEnqueueCopyBuffer` bandwidth against a plain
//! `memcpy` of the same size, and the end-to-end cost of a 4-byte blocking
//! write. Calls the entry points of the rlib directly (no loader).
//!
//! `cargo run --release -p cranecl --example mem_bench [MiB]`

use cranecl::api::*;
use opencl_sys::*;
use std::ffi::c_void;
use std::ptr;
use std::time::Instant;

fn check(rc: cl_int, what: &str) {
    assert_eq!(rc, CL_SUCCESS, "{what}");
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let size = mib << 20;
    let reps = 15;

    // Plain memcpy between two prefaulted host blocks, alternated with the
    // command so that both see the same machine noise.
    let src = vec![1u8; size];
    let mut dst = vec![2u8; size];
    let mut memcpy_s = Vec::new();
    let mut copy_s = Vec::new();

    // SAFETY: every call below gets valid handles and pointers.
    unsafe {
        let mut dev = ptr::null_mut();
        check(
            clGetDeviceIDs(
                ptr::null_mut(),
                CL_DEVICE_TYPE_CPU,
                1,
                &mut dev,
                ptr::null_mut(),
            ),
            "device",
        );
        let mut rc = 0;
        let ctx = clCreateContext(ptr::null(), 1, &dev, None, ptr::null_mut(), &mut rc);
        check(rc, "context");
        let q = clCreateCommandQueueWithProperties(ctx, dev, ptr::null(), &mut rc);
        check(rc, "queue");
        let a = clCreateBuffer(ctx, 0, size, ptr::null_mut(), &mut rc);
        check(rc, "buffer a");
        let b = clCreateBuffer(ctx, 0, size, ptr::null_mut(), &mut rc);
        check(rc, "buffer b");
        // Prefault both, as the memcpy baseline's blocks are.
        for (m, v) in [(a, 1u8), (b, 2u8)] {
            check(
                clEnqueueFillBuffer(
                    q,
                    m,
                    &v as *const u8 as _,
                    1,
                    0,
                    size,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                ),
                "fill",
            );
        }
        check(clFinish(q), "finish");
        for _ in 0..reps {
            let t = Instant::now();
            ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr(), size);
            memcpy_s.push(t.elapsed().as_secs_f64());
            std::hint::black_box(&mut dst);
            let t = Instant::now();
            check(
                clEnqueueCopyBuffer(q, a, b, 0, 0, size, 0, ptr::null(), ptr::null_mut()),
                "copy",
            );
            check(clFinish(q), "finish");
            copy_s.push(t.elapsed().as_secs_f64());
        }
        drop((src, dst));
        let gbs = |s: f64| size as f64 / s / 1e9;
        let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let (bm, bc) = (best(&memcpy_s), best(&copy_s));
        let (m, c) = (median(memcpy_s), median(copy_s));
        println!(
            "copy {mib} MiB, median of {reps}: memcpy {:.2} GB/s, clEnqueueCopyBuffer {:.2} GB/s: {:.0}% of memcpy",
            gbs(m),
            gbs(c),
            100.0 * m / c
        );
        println!(
            "copy {mib} MiB, best of {reps}: memcpy {:.2} GB/s, clEnqueueCopyBuffer {:.2} GB/s: {:.0}% of memcpy",
            gbs(bm),
            gbs(bc),
            100.0 * bm / bc
        );

        // A 4-byte blocking write, end to end.
        let word = [7u8; 4];
        let n = 200_000;
        for _ in 0..1000 {
            clEnqueueWriteBuffer(
                q,
                a,
                CL_TRUE,
                0,
                4,
                word.as_ptr() as *const c_void,
                0,
                ptr::null(),
                ptr::null_mut(),
            );
        }
        let t = Instant::now();
        for i in 0..n {
            check(
                clEnqueueWriteBuffer(
                    q,
                    a,
                    CL_TRUE,
                    (i % 1024) * 4,
                    4,
                    word.as_ptr() as *const c_void,
                    0,
                    ptr::null(),
                    ptr::null_mut(),
                ),
                "write",
            );
        }
        let per = t.elapsed().as_secs_f64() / n as f64;
        println!(
            "4-byte blocking write: {:.0} ns per call ({n} calls)",
            per * 1e9
        );

        // A 4-byte non-blocking write with an event, waited on.
        let t = Instant::now();
        let m2 = 50_000;
        for _ in 0..m2 {
            let mut ev = ptr::null_mut();
            check(
                clEnqueueWriteBuffer(
                    q,
                    a,
                    CL_FALSE,
                    0,
                    4,
                    word.as_ptr() as *const c_void,
                    0,
                    ptr::null(),
                    &mut ev,
                ),
                "write",
            );
            check(clWaitForEvents(1, &ev), "wait");
            check(clReleaseEvent(ev), "release event");
        }
        let per = t.elapsed().as_secs_f64() / m2 as f64;
        println!(
            "4-byte non-blocking write + event + wait + release: {:.0} ns",
            per * 1e9
        );

        clReleaseMemObject(a);
        clReleaseMemObject(b);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}
