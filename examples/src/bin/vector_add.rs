//! The "hello world" of kernels: add two vectors of 1M floats on the cranecl
//! device (found by name through the system's OpenCL loader), read the sum
//! back and check every element against the host's sum. Prints `OK` and
//! exits 0 when all match; otherwise the error (with the build log when the
//! program does not build) and exits 1.
//!
//! Run it with `scripts/run.sh`, or after `scripts/install-user.sh` with the
//! `OCL_ICD_VENDORS` it prints.

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_uint, CL_BLOCKING};
use std::process::ExitCode;

const SOURCE: &str = r#"
kernel void vector_add(global const float *a, global const float *b,
                       global float *c, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
"#;

const N: usize = 1 << 20;

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

fn run() -> Result<(), String> {
    let device = cranecl_device()?;
    println!("device: {}", device.name().unwrap_or_default());
    let context = Context::from_device(&device).map_err(|e| format!("clCreateContext: {e}"))?;
    let queue = CommandQueue::create_default_with_properties(&context, 0, 0)
        .map_err(|e| format!("clCreateCommandQueueWithProperties: {e}"))?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .map_err(|e| format!("clBuildProgram: {e}"))?;
    let kernel =
        Kernel::create(&program, "vector_add").map_err(|e| format!("clCreateKernel: {e}"))?;

    let a: Vec<f32> = (0..N).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..N).map(|i| 1.0 / (1.0 + i as f32)).collect();
    // SAFETY (the unsafe calls below): the host slices outlive the commands
    // that read or write them (every transfer is blocking, the kernel is
    // complete before the blocking read returns), and the kernel's
    // arguments match its parameters' types.
    let make =
        |flags, n| unsafe { Buffer::<f32>::create(&context, flags, n, std::ptr::null_mut()) };
    let mut a_buf = make(CL_MEM_READ_ONLY, N).map_err(|e| format!("clCreateBuffer: {e}"))?;
    let mut b_buf = make(CL_MEM_READ_ONLY, N).map_err(|e| format!("clCreateBuffer: {e}"))?;
    let c_buf = make(CL_MEM_WRITE_ONLY, N).map_err(|e| format!("clCreateBuffer: {e}"))?;
    unsafe {
        queue
            .enqueue_write_buffer(&mut a_buf, CL_BLOCKING, 0, &a, &[])
            .map_err(|e| format!("clEnqueueWriteBuffer: {e}"))?;
        queue
            .enqueue_write_buffer(&mut b_buf, CL_BLOCKING, 0, &b, &[])
            .map_err(|e| format!("clEnqueueWriteBuffer: {e}"))?;
        let n = N as cl_uint;
        for (i, arg) in [
            kernel.set_arg(0, &a_buf),
            kernel.set_arg(1, &b_buf),
            kernel.set_arg(2, &c_buf),
            kernel.set_arg(3, &n),
        ]
        .into_iter()
        .enumerate()
        {
            arg.map_err(|e| format!("clSetKernelArg({i}): {e}"))?;
        }
        queue
            .enqueue_nd_range_kernel(
                kernel.get(),
                1,
                std::ptr::null(),
                [N].as_ptr(),
                std::ptr::null(),
                &[],
            )
            .map_err(|e| format!("clEnqueueNDRangeKernel: {e}"))?;
    }
    let mut c = vec![0.0f32; N];
    unsafe { queue.enqueue_read_buffer(&c_buf, CL_BLOCKING, 0, &mut c, &[]) }
        .map_err(|e| format!("clEnqueueReadBuffer: {e}"))?;

    let wrong: Vec<usize> = (0..N).filter(|&i| c[i] != a[i] + b[i]).collect();
    if let Some(&i) = wrong.first() {
        return Err(format!(
            "{} of {N} sums wrong; first at index {i}: {} + {} gave {}, expected {}",
            wrong.len(),
            a[i],
            b[i],
            c[i],
            a[i] + b[i]
        ));
    }
    println!("added {N} floats; every sum matches the host's");
    println!("OK");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vector_add: {e}");
            ExitCode::FAILURE
        }
    }
}
