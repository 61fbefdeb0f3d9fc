//! Single-precision matrix multiply, C = A * B, of two 1024 x 1024 matrices
//! on the cranecl device, with the classic tiled kernel: each 16 x 16
//! work-group stages 16 x 16 tiles of A and B through local memory, with a
//! barrier before and after each tile's products. Prints the kernel's time
//! (best of a few runs, from the event's profiling times) in GFLOP/s, and
//! checks a sample of C's entries against the host's double-precision
//! products.
//!
//! ```text
//! sgemm [n]      (n a multiple of 16, default 1024)
//! ```

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_uint, CL_BLOCKING};
use std::process::ExitCode;
use std::time::Instant;

const SOURCE: &str = r#"
#define TS 16
kernel void sgemm(global const float *A, global const float *B, global float *C, uint n)
{
    local float As[TS][TS];
    local float Bs[TS][TS];
    uint col = get_global_id(0);
    uint row = get_global_id(1);
    uint lc = get_local_id(0);
    uint lr = get_local_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TS) {
        As[lr][lc] = A[row * n + t + lc];
        Bs[lr][lc] = B[(t + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
"#;

const TILE: usize = 16;
const RUNS: usize = 3;

/// The first device of the platform whose name contains `cranecl`.
fn cranecl_device() -> Result<Device, String> {
    let platform = get_platforms()
        .map_err(|e| format!("no OpenCL platform: {e}"))?
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("cranecl")))
        .ok_or("the loader found no cranecl platform (is OCL_ICD_VENDORS set?)")?;
    let id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)
        .map_err(|e| format!("clGetDeviceIDs: {e}"))?
        .first()
        .ok_or("the cranecl platform has no device")?;
    Ok(Device::new(id))
}

/// A deterministic matrix with entries in [-1, 1).
fn matrix(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n * n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

fn run() -> Result<(), String> {
    let n: usize = match std::env::args().nth(1) {
        Some(a) => a.parse().map_err(|_| format!("n = {a}: not a number"))?,
        None => 1024,
    };
    if n == 0 || !n.is_multiple_of(TILE) || n > 8192 {
        return Err(format!("n = {n}: must be a multiple of {TILE} up to 8192"));
    }
    let device = cranecl_device()?;
    println!("device: {}", device.name().unwrap_or_default());
    let context = Context::from_device(&device).map_err(|e| format!("clCreateContext: {e}"))?;
    let queue =
        CommandQueue::create_default_with_properties(&context, CL_QUEUE_PROFILING_ENABLE, 0)
            .map_err(|e| format!("clCreateCommandQueueWithProperties: {e}"))?;
    let build_start = Instant::now();
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .map_err(|e| format!("clBuildProgram: {e}"))?;
    let build = build_start.elapsed();
    let kernel = Kernel::create(&program, "sgemm").map_err(|e| format!("clCreateKernel: {e}"))?;

    let (a, b) = (matrix(n, 1), matrix(n, 2));
    // SAFETY (the unsafe calls below): the kernel's arguments match its
    // parameters' types; the host vectors outlive the blocking transfers.
    let make =
        |flags| unsafe { Buffer::<f32>::create(&context, flags, n * n, std::ptr::null_mut()) };
    let mut a_buf = make(CL_MEM_READ_ONLY).map_err(|e| format!("clCreateBuffer: {e}"))?;
    let mut b_buf = make(CL_MEM_READ_ONLY).map_err(|e| format!("clCreateBuffer: {e}"))?;
    let c_buf = make(CL_MEM_WRITE_ONLY).map_err(|e| format!("clCreateBuffer: {e}"))?;
    let mut best_ns = u64::MAX;
    unsafe {
        queue
            .enqueue_write_buffer(&mut a_buf, CL_BLOCKING, 0, &a, &[])
            .map_err(|e| format!("clEnqueueWriteBuffer: {e}"))?;
        queue
            .enqueue_write_buffer(&mut b_buf, CL_BLOCKING, 0, &b, &[])
            .map_err(|e| format!("clEnqueueWriteBuffer: {e}"))?;
        let nn = n as cl_uint;
        for (i, arg) in [
            kernel.set_arg(0, &a_buf),
            kernel.set_arg(1, &b_buf),
            kernel.set_arg(2, &c_buf),
            kernel.set_arg(3, &nn),
        ]
        .into_iter()
        .enumerate()
        {
            arg.map_err(|e| format!("clSetKernelArg({i}): {e}"))?;
        }
        for _ in 0..RUNS {
            let ev = queue
                .enqueue_nd_range_kernel(
                    kernel.get(),
                    2,
                    std::ptr::null(),
                    [n, n].as_ptr(),
                    [TILE, TILE].as_ptr(),
                    &[],
                )
                .map_err(|e| format!("clEnqueueNDRangeKernel: {e}"))?;
            ev.wait().map_err(|e| format!("clWaitForEvents: {e}"))?;
            let start = ev
                .profiling_command_start()
                .map_err(|e| format!("profiling: {e}"))?;
            let end = ev
                .profiling_command_end()
                .map_err(|e| format!("profiling: {e}"))?;
            best_ns = best_ns.min(end.saturating_sub(start).max(1));
        }
    }
    let mut c = vec![0.0f32; n * n];
    unsafe { queue.enqueue_read_buffer(&c_buf, CL_BLOCKING, 0, &mut c, &[]) }
        .map_err(|e| format!("clEnqueueReadBuffer: {e}"))?;

    // Check 1,000 entries spread over C (corners included) in double precision.
    let samples = 1000;
    for s in 0..samples {
        let i = s * (n * n - 1) / (samples - 1);
        let (r, col) = (i / n, i % n);
        let (mut want, mut scale) = (0.0f64, 0.0f64);
        for k in 0..n {
            let t = a[r * n + k] as f64 * b[k * n + col] as f64;
            want += t;
            scale += t.abs();
        }
        let got = c[r * n + col] as f64;
        let tol = 1e-5 * scale + 1e-6;
        if (got - want).abs().is_nan() || (got - want).abs() > tol {
            return Err(format!(
                "C[{r}][{col}] = {got}, expected {want} (tolerance {tol:.2e})"
            ));
        }
    }
    let flops = 2.0 * (n * n * n) as f64;
    println!(
        "sgemm {n}x{n}x{n}, {TILE}x{TILE} local tiles: {:.3} ms (best of {RUNS}) = {:.2} GFLOP/s; build {:.1} ms; {samples} sampled entries match the host",
        best_ns as f64 / 1e6,
        flops / best_ns as f64,
        build.as_secs_f64() * 1e3
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sgemm: {e}");
            ExitCode::FAILURE
        }
    }
}
