//! cranecl's first example: find the cranecl platform through the system's
//! OpenCL loader, describe its device, and round-trip data through buffers
//! (write, copy on the device, fill, read back), checking every byte.
//!
//! Run it with `scripts/run.sh` (which builds cranecl and points the loader at
//! it), or after `scripts/install-user.sh` with the `OCL_ICD_VENDORS` it prints.

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::types::{CL_BLOCKING, CL_NON_BLOCKING};
use std::process::ExitCode;

fn run() -> Result<(), String> {
    let platforms = get_platforms().map_err(|e| format!("no OpenCL platform: {e}"))?;
    let platform = platforms
        .into_iter()
        .find(|p| p.name().map(|n| n.contains("cranecl")).unwrap_or(false))
        .ok_or("the loader found no cranecl platform (is OCL_ICD_VENDORS set?)")?;
    println!(
        "platform: {} ({})",
        platform.name().unwrap_or_default(),
        platform.version().unwrap_or_default()
    );
    let device_id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)
        .map_err(|e| format!("clGetDeviceIDs: {e}"))?
        .first()
        .ok_or("no device")?;
    let device = Device::new(device_id);
    println!(
        "device:   {} — {} compute units, {} MiB global memory, {} KiB local memory",
        device.name().unwrap_or_default(),
        device.max_compute_units().unwrap_or(0),
        device.global_mem_size().unwrap_or(0) >> 20,
        device.local_mem_size().unwrap_or(0) >> 10
    );

    let context = Context::from_device(&device).map_err(|e| format!("clCreateContext: {e}"))?;
    let queue =
        CommandQueue::create_default_with_properties(&context, CL_QUEUE_PROFILING_ENABLE, 0)
            .map_err(|e| format!("clCreateCommandQueueWithProperties: {e}"))?;

    const N: usize = 1 << 20;
    let input: Vec<u32> = (0..N as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    // SAFETY (all the unsafe calls below): the host slices outlive the
    // commands, which are all complete when `finish` returns.
    let mut a =
        unsafe { Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
            .map_err(|e| format!("clCreateBuffer: {e}"))?;
    let mut b =
        unsafe { Buffer::<u32>::create(&context, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
            .map_err(|e| format!("clCreateBuffer: {e}"))?;
    let write = unsafe { queue.enqueue_write_buffer(&mut a, CL_NON_BLOCKING, 0, &input, &[]) }
        .map_err(|e| format!("clEnqueueWriteBuffer: {e}"))?;
    let copy = unsafe { queue.enqueue_copy_buffer(&a, &mut b, 0, 0, N * 4, &[write.get()]) }
        .map_err(|e| format!("clEnqueueCopyBuffer: {e}"))?;
    let mut output = vec![0u32; N];
    unsafe { queue.enqueue_read_buffer(&b, CL_BLOCKING, 0, &mut output, &[copy.get()]) }
        .map_err(|e| format!("clEnqueueReadBuffer: {e}"))?;
    queue.finish().map_err(|e| format!("clFinish: {e}"))?;

    if let Some(i) = (0..N).find(|&i| output[i] != input[i]) {
        return Err(format!("mismatch at {i}: {} != {}", output[i], input[i]));
    }
    let ns = copy
        .profiling_command_end()
        .unwrap_or(0)
        .saturating_sub(copy.profiling_command_start().unwrap_or(0));
    println!(
        "buffers:  wrote, copied and read back {} MiB; every byte matches",
        (N * 4) >> 20
    );
    if ns > 0 {
        println!(
            "copy:     {:.2} GB/s (device profiling)",
            (N * 4) as f64 / ns as f64
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hello: {e}");
            ExitCode::FAILURE
        }
    }
}
