//! Host-side benchmark (not a test): cranecl against pocl in one process,
//! through one loader that sees both (`OCL_ICD_VENDORS` = a folder holding
//! both `.icd` files), platforms chosen by name. Run it as a release build:
//!
//! ```text
//! cargo run --release -p cranecl-conformance --bin bench_host
//! ```
//!
//! Figures (issue 2, "Measure"):
//! - enqueue-to-complete latency of an empty marker (enqueue, wait, release),
//!   and of markers enqueued in a batch of 1,000 then `clFinish`;
//! - latency of a blocking 4-byte `clEnqueueWriteBuffer`;
//! - `clEnqueueCopyBuffer` of 256 MiB against a plain `memcpy` of the same
//!   size on this machine, in GB/s (bytes copied per second) and as a ratio.
//!
//! `BENCH_ITERS` (default 20000) sets the latency loop length;
//! `BENCH_COPY_MIB` (default 256) the copy size, `BENCH_COPY_ROUNDS`
//! (default 7) how many alternating rounds of the three copies.

use cranecl_conformance::{assert_code, call, null, setup_both, Cl};
use opencl_sys::*;
use std::time::{Duration, Instant};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Median and mean of per-iteration times, in microseconds.
struct Stats {
    median_us: f64,
    mean_us: f64,
    min_us: f64,
}

fn stats(mut v: Vec<Duration>) -> Stats {
    v.sort();
    let n = v.len().max(1);
    let total: Duration = v.iter().sum();
    Stats {
        median_us: v.get(v.len() / 2).map_or(0.0, |d| d.as_secs_f64() * 1e6),
        mean_us: total.as_secs_f64() * 1e6 / n as f64,
        min_us: v.first().map_or(0.0, |d| d.as_secs_f64() * 1e6),
    }
}

struct Figures {
    marker: Stats,
    marker_batched_us: f64,
    write4: Stats,
    copy_gbs: f64,
}

fn measure(t: &Cl, platform_name: &str, iters: usize) -> Option<Figures> {
    let p = t.platform_named(platform_name)?;
    let mut dev: cl_device_id = null();
    assert_code!(
        call!(t; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &mut dev, null())),
        CL_SUCCESS
    );
    let props: [cl_context_properties; 3] = [CL_CONTEXT_PLATFORM as _, p as _, 0];
    let mut e = 0;
    let ctx = call!(t; clCreateContext(props.as_ptr(), 1, &dev, None, null(), &mut e));
    assert_code!(e, CL_SUCCESS, "{platform_name}: clCreateContext");
    let q = call!(t; clCreateCommandQueueWithProperties(ctx, dev, null(), &mut e));
    assert_code!(e, CL_SUCCESS, "{platform_name}: queue");

    // Empty marker: enqueue, wait, release.
    let mut marker_times = Vec::with_capacity(iters);
    for i in 0..iters + iters / 10 {
        let start = Instant::now();
        let mut ev: cl_event = null();
        assert_code!(
            call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), &mut ev)),
            CL_SUCCESS
        );
        assert_code!(call!(t; clWaitForEvents(1, &ev)), CL_SUCCESS);
        let d = start.elapsed();
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
        if i >= iters / 10 {
            marker_times.push(d);
        }
    }
    // Batched markers: 1,000 enqueued, then clFinish.
    let batch = 1000;
    let rounds = (iters / batch).max(1);
    let start = Instant::now();
    for _ in 0..rounds {
        for _ in 0..batch {
            assert_code!(
                call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), null())),
                CL_SUCCESS
            );
        }
        assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    }
    let marker_batched_us = start.elapsed().as_secs_f64() * 1e6 / (rounds * batch) as f64;

    // Blocking 4-byte write.
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let mut write_times = Vec::with_capacity(iters);
    for i in 0..iters + iters / 10 {
        let v = i as u32;
        let start = Instant::now();
        assert_code!(
            call!(t; clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 4, (&v as *const u32).cast(), 0, null(), null())),
            CL_SUCCESS
        );
        let d = start.elapsed();
        if i >= iters / 10 {
            write_times.push(d);
        }
    }
    let mut back = 0u32;
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, (&mut back as *mut u32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        back as usize,
        iters + iters / 10 - 1,
        "{platform_name}: the last write landed"
    );

    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
    Some(Figures {
        marker: stats(marker_times),
        marker_batched_us,
        write4: stats(write_times),
        copy_gbs: 0.0, // filled in by `copy_figures`
    })
}

/// One platform's context, queue and a pair of touched copy buffers.
struct CopyRig {
    ctx: cl_context,
    q: cl_command_queue,
    src: cl_mem,
    dst: cl_mem,
}

fn copy_rig(t: &Cl, platform_name: &str, bytes: usize) -> Option<CopyRig> {
    let p = t.platform_named(platform_name)?;
    let mut dev: cl_device_id = null();
    assert_code!(
        call!(t; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &mut dev, null())),
        CL_SUCCESS
    );
    let props: [cl_context_properties; 3] = [CL_CONTEXT_PLATFORM as _, p as _, 0];
    let mut e = 0;
    let ctx = call!(t; clCreateContext(props.as_ptr(), 1, &dev, None, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let q = call!(t; clCreateCommandQueueWithProperties(ctx, dev, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let src = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, null(), &mut e));
    assert_code!(e, CL_SUCCESS, "{platform_name}: {bytes}-byte buffer");
    let dst = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    // Touch both (first-touch page faults are not the copy's cost).
    let pat = 0x5a5a_5a5au32;
    for m in [src, dst] {
        assert_code!(
            call!(t; clEnqueueFillBuffer(q, m, (&pat as *const u32).cast(), 4, 0, bytes, 0, null(), null())),
            CL_SUCCESS
        );
    }
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    Some(CopyRig { ctx, q, src, dst })
}

fn time_copy(t: &Cl, r: &CopyRig, bytes: usize) -> Duration {
    let start = Instant::now();
    assert_code!(
        call!(t; clEnqueueCopyBuffer(r.q, r.src, r.dst, 0, 0, bytes, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(r.q)), CL_SUCCESS);
    start.elapsed()
}

fn drop_rig(t: &Cl, r: CopyRig) {
    for m in [r.src, r.dst] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(r.q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(r.ctx)), CL_SUCCESS);
}

/// Copy bandwidth in GB/s (bytes copied per second, best of `rounds`):
/// cranecl, pocl (if present) and a plain memcpy between two touched host
/// buffers, measured in alternation so a busy machine slows all alike.
fn copy_figures(t: &Cl, bytes: usize, rounds: usize) -> (f64, Option<f64>, f64) {
    let ours = copy_rig(t, "cranecl", bytes).expect("the loader lists cranecl");
    let pocl = copy_rig(t, "Portable Computing Language", bytes);
    let host_src = vec![0x5au8; bytes];
    let mut host_dst = vec![0xa5u8; bytes];
    let (mut best_ours, mut best_pocl, mut best_memcpy) =
        (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        best_ours = best_ours.min(time_copy(t, &ours, bytes));
        if let Some(p) = &pocl {
            best_pocl = best_pocl.min(time_copy(t, p, bytes));
        }
        let start = Instant::now();
        host_dst.copy_from_slice(&host_src);
        std::hint::black_box(&mut host_dst);
        best_memcpy = best_memcpy.min(start.elapsed());
    }
    assert_eq!(host_dst[bytes / 2], 0x5a);
    let gbs = |d: Duration| bytes as f64 / d.as_secs_f64() / 1e9;
    drop_rig(t, ours);
    let pocl_gbs = pocl.map(|p| {
        drop_rig(t, p);
        gbs(best_pocl)
    });
    (gbs(best_ours), pocl_gbs, gbs(best_memcpy))
}

fn print(name: &str, f: &Figures) {
    println!(
        "{name:8} marker enqueue->complete: median {:6.2} us  mean {:6.2} us  min {:6.2} us | batched x1000 + clFinish: {:6.2} us/marker",
        f.marker.median_us, f.marker.mean_us, f.marker.min_us, f.marker_batched_us
    );
    println!(
        "{name:8} 4-byte blocking write:     median {:6.2} us  mean {:6.2} us  min {:6.2} us",
        f.write4.median_us, f.write4.mean_us, f.write4.min_us
    );
    println!(
        "{name:8} clEnqueueCopyBuffer:       {:6.2} GB/s",
        f.copy_gbs
    );
}

fn main() {
    if cfg!(debug_assertions) {
        eprintln!("bench_host: a debug build; run with --release for figures that mean anything");
    }
    let iters = env_usize("BENCH_ITERS", 20_000);
    let copy_mib = env_usize("BENCH_COPY_MIB", 256);
    let copy_bytes = copy_mib << 20;
    let vendors = setup_both();
    println!("loader vendors folder: {}", vendors.display());
    let t = cranecl_conformance::cl();
    let mut ours = measure(t, "cranecl", iters).expect("the loader lists cranecl");
    let mut pocl = measure(t, "Portable Computing Language", iters);
    let rounds = env_usize("BENCH_COPY_ROUNDS", 7);
    let (ours_copy, pocl_copy, memcpy) = copy_figures(t, copy_bytes, rounds);
    ours.copy_gbs = ours_copy;
    if let (Some(p), Some(c)) = (pocl.as_mut(), pocl_copy) {
        p.copy_gbs = c;
    }

    println!("\n{iters} iterations per latency figure; copy of {copy_mib} MiB (best of {rounds}, alternating)");
    print("cranecl", &ours);
    match &pocl {
        Some(p) => print("pocl", p),
        None => println!("pocl     not installed: no peer figures"),
    }
    println!("memcpy   {copy_mib} MiB:                {memcpy:6.2} GB/s");
    println!("\nratios");
    println!(
        "cranecl copy / memcpy:              {:5.1}%  (goal >= 90%)",
        100.0 * ours.copy_gbs / memcpy
    );
    println!(
        "cranecl marker median vs goal 1 us: {:5.2} us",
        ours.marker.median_us
    );
    println!(
        "cranecl write4 median vs goal 2 us: {:5.2} us",
        ours.write4.median_us
    );
    if let Some(p) = &pocl {
        println!(
            "marker latency pocl / cranecl:      {:5.2}x",
            p.marker.median_us / ours.marker.median_us
        );
        println!(
            "batched marker pocl / cranecl:      {:5.2}x",
            p.marker_batched_us / ours.marker_batched_us
        );
        println!(
            "write4 latency pocl / cranecl:      {:5.2}x",
            p.write4.median_us / ours.write4.median_us
        );
        println!(
            "copy GB/s cranecl / pocl:           {:5.2}x",
            ours.copy_gbs / p.copy_gbs
        );
    }
}
