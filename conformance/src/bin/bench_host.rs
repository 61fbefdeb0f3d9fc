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
//!   size on this machine, in GB/s (bytes copied per second) and as a ratio;
//! - kernel launches as users make them (issue 9): a NULL local size, both
//!   arguments set with `clSetKernelArg` before each enqueue, an event
//!   returned by each enqueue and released; a stream of 10,000 launches then
//!   one `clFinish` (us per launch), and launch-then-wait (`clWaitForEvents`
//!   on each launch's event; median and mean us), best of alternating rounds.
//!
//! `BENCH_ITERS` (default 20000) sets the latency loop length;
//! `BENCH_COPY_MIB` (default 256) the copy size, `BENCH_COPY_ROUNDS`
//! (default 7) how many alternating rounds of the three copies;
//! `BENCH_LAUNCHES` (default 10000) the launch stream's length and
//! `BENCH_LAUNCH_ROUNDS` (default 5) its rounds. `--launches` measures the
//! launches alone.

use cranecl_conformance::{assert_code, call, null, setup_both, Cl};
use opencl_sys::*;
use std::ffi::CString;
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

/// The first device of the platform named so, a context on it and an
/// in-order queue (`None`: no such platform).
fn open(t: &Cl, platform_name: &str) -> Option<(cl_device_id, cl_context, cl_command_queue)> {
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
    Some((dev, ctx, q))
}

fn measure(t: &Cl, platform_name: &str, iters: usize) -> Option<Figures> {
    let (_, ctx, q) = open(t, platform_name)?;
    let mut e = 0;

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

/// The launched kernel: one work-item of 64 adds `by` to a counter, so the
/// sum after the run says every launch ran.
const BUMP_CL: &str = "kernel void bump(global uint *counter, uint by) {
    if (get_global_id(0) == 0) counter[0] += by;
}";
/// Work-items per launch (the local size is left to the platform).
const BUMP_ITEMS: usize = 64;

/// One platform's context, queue, kernel and counter for the launch figures.
struct LaunchRig {
    name: &'static str,
    ctx: cl_context,
    q: cl_command_queue,
    prog: cl_program,
    k: cl_kernel,
    counter: cl_mem,
    /// Launches made so far (what the counter must read).
    launched: u32,
}

fn launch_rig(t: &Cl, platform_name: &str, name: &'static str) -> Option<LaunchRig> {
    let (dev, ctx, q) = open(t, platform_name)?;
    let mut e = 0;
    let src = CString::new(BUMP_CL).expect("no NUL in the source");
    let mut ptr = src.as_ptr();
    let len = BUMP_CL.len();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut ptr, &len, &mut e));
    assert_code!(e, CL_SUCCESS, "{name}: clCreateProgramWithSource");
    assert_code!(
        call!(t; clBuildProgram(prog, 1, &dev, null(), None, null())),
        CL_SUCCESS,
        "{name}: clBuildProgram"
    );
    let kname = CString::new("bump").expect("no NUL");
    let k = call!(t; clCreateKernel(prog, kname.as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS, "{name}: clCreateKernel");
    let counter = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let zero = 0u32;
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, counter, CL_TRUE, 0, 4, (&zero as *const u32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    Some(LaunchRig {
        name,
        ctx,
        q,
        prog,
        k,
        counter,
        launched: 0,
    })
}

/// One launch as a user makes it: both arguments set, a NULL local size, an
/// event returned. The caller waits for and releases the event.
fn user_launch(t: &Cl, r: &mut LaunchRig) -> cl_event {
    let by = 1u32;
    assert_code!(
        call!(t; clSetKernelArg(r.k, 0, std::mem::size_of::<cl_mem>(), (&r.counter as *const cl_mem).cast())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetKernelArg(r.k, 1, 4, (&by as *const u32).cast())),
        CL_SUCCESS
    );
    let global = BUMP_ITEMS;
    let mut ev: cl_event = null();
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(r.q, r.k, 1, null(), &global, null(), 0, null(), &mut ev)),
        CL_SUCCESS,
        "{}: clEnqueueNDRangeKernel",
        r.name
    );
    r.launched += 1;
    ev
}

/// `n` launches, each event released at once, then one `clFinish`: the
/// wall time per launch.
fn launch_stream(t: &Cl, r: &mut LaunchRig, n: usize) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        let ev = user_launch(t, r);
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    assert_code!(call!(t; clFinish(r.q)), CL_SUCCESS);
    start.elapsed() / n as u32
}

/// `n` times: launch, wait for its event, release it. Per-launch times.
fn launch_wait(t: &Cl, r: &mut LaunchRig, n: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let start = Instant::now();
        let ev = user_launch(t, r);
        assert_code!(call!(t; clWaitForEvents(1, &ev)), CL_SUCCESS);
        times.push(start.elapsed());
        assert_code!(call!(t; clReleaseEvent(ev)), CL_SUCCESS);
    }
    times
}

/// Reads the counter (it must equal the launches made) and releases all.
fn drop_launch_rig(t: &Cl, r: LaunchRig) {
    let mut got = 0u32;
    assert_code!(
        call!(t; clEnqueueReadBuffer(r.q, r.counter, CL_TRUE, 0, 4, (&mut got as *mut u32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(got, r.launched, "{}: every launch ran once", r.name);
    assert_code!(call!(t; clReleaseMemObject(r.counter)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(r.k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(r.prog)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(r.q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(r.ctx)), CL_SUCCESS);
}

/// A platform's launch figures: best stream us/launch, and the
/// launch-then-wait round with the lowest median (its median and mean).
struct LaunchFigures {
    stream_us: f64,
    wait: Stats,
}

/// The launch figures of cranecl and (if present) pocl, measured in
/// alternating rounds after a warm-up of each.
fn launch_figures(t: &Cl, n: usize, rounds: usize) -> Vec<(&'static str, LaunchFigures)> {
    let mut rigs: Vec<LaunchRig> = [
        ("cranecl", "cranecl"),
        ("Portable Computing Language", "pocl"),
    ]
    .into_iter()
    .filter_map(|(platform, name)| launch_rig(t, platform, name))
    .collect();
    let waits = (n / 5).max(1);
    let mut best: Vec<Option<LaunchFigures>> = rigs.iter().map(|_| None).collect();
    for r in rigs.iter_mut() {
        launch_stream(t, r, n / 10 + 1);
        launch_wait(t, r, waits / 10 + 1);
    }
    for _ in 0..rounds {
        for (r, b) in rigs.iter_mut().zip(best.iter_mut()) {
            let stream_us = launch_stream(t, r, n).as_secs_f64() * 1e6;
            let wait = stats(launch_wait(t, r, waits));
            let b = b.get_or_insert(LaunchFigures {
                stream_us,
                wait: Stats {
                    median_us: f64::MAX,
                    mean_us: f64::MAX,
                    min_us: f64::MAX,
                },
            });
            b.stream_us = b.stream_us.min(stream_us);
            if wait.median_us < b.wait.median_us {
                b.wait = wait;
            }
        }
    }
    let names: Vec<_> = rigs.iter().map(|r| r.name).collect();
    rigs.into_iter().for_each(|r| drop_launch_rig(t, r));
    names
        .into_iter()
        .zip(best)
        .filter_map(|(n, b)| Some((n, b?)))
        .collect()
}

fn print_launches(n: usize, rounds: usize, figures: &[(&'static str, LaunchFigures)]) {
    println!(
        "\nlaunches as users make them: {BUMP_ITEMS} work-items, NULL local size, 2 args set per launch, event per launch (best of {rounds} alternating rounds)"
    );
    for (name, f) in figures {
        println!(
            "{name:8} stream of {n} + clFinish: {:6.2} us/launch | launch-then-wait: median {:6.2} us  mean {:6.2} us  min {:6.2} us",
            f.stream_us, f.wait.median_us, f.wait.mean_us, f.wait.min_us
        );
    }
    if let [(_, ours), (_, pocl)] = figures {
        println!(
            "launch stream pocl / cranecl:       {:5.2}x  (cranecl goal <= 1 us: {:.2} us)",
            pocl.stream_us / ours.stream_us,
            ours.stream_us
        );
        println!(
            "launch+wait pocl / cranecl:         {:5.2}x  (cranecl goal <= 2 us: {:.2} us)",
            pocl.wait.median_us / ours.wait.median_us,
            ours.wait.median_us
        );
    }
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
    let launches = env_usize("BENCH_LAUNCHES", 10_000);
    let launch_rounds = env_usize("BENCH_LAUNCH_ROUNDS", 5);
    let launch = launch_figures(t, launches, launch_rounds);
    if std::env::args().any(|a| a == "--launches") {
        print_launches(launches, launch_rounds, &launch);
        return;
    }
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
    print_launches(launches, launch_rounds, &launch);
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
