//! A kernel that writes through a bad pointer must not take the host down:
//! through the loader, its command fails (a negative execution status, and
//! waiting on it reports CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST), the
//! context's notify callback hears which kernel faulted, and the next launch
//! on the same queue runs normally.

use cranecl_conformance::setup;
use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_ulong, CL_BLOCKING};
use opencl_sys::{CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, CL_SUCCESS};

const SOURCE: &str = r#"
kernel void poke(global int *out, ulong addr)
{
    size_t i = get_global_id(0);
    if (i == 37)
        *(global int *)addr = 1;   /* an address nothing maps */
    out[i] = (int)i;
}
kernel void fill(global int *out) { out[get_global_id(0)] = 7; }
"#;

#[test]
fn faulting_kernel_fails_its_command_and_the_host_goes_on() {
    setup();
    let platform = get_platforms()
        .expect("platforms")
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("cranecl")))
        .expect("cranecl platform");
    let device = Device::new(platform.get_devices(CL_DEVICE_TYPE_ALL).expect("devices")[0]);
    let context = Context::from_device(&device).expect("context");
    let queue = CommandQueue::create_default_with_properties(&context, 0, 0).expect("queue");
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .unwrap_or_else(|log| panic!("build failed: {log}"));
    let n = 1024usize;
    // SAFETY: the buffer is n ints; every command below is complete before
    // the host slice it reads into goes away (blocking reads).
    let out =
        unsafe { Buffer::<i32>::create(&context, CL_MEM_READ_WRITE, n, std::ptr::null_mut()) }
            .expect("buffer");

    let poke = Kernel::create(&program, "poke").expect("kernel poke");
    let bad_addr: cl_ulong = 0x10;
    let ev = unsafe {
        ExecuteKernel::new(&poke)
            .set_arg(&out)
            .set_arg(&bad_addr)
            .set_global_work_size(n)
            .set_local_work_size(64)
            .enqueue_nd_range(&queue)
    }
    .expect("the launch itself is valid and is enqueued");
    let waited = ev.wait();
    assert_eq!(
        waited.err().map(|e| e.0),
        Some(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
        "waiting on the faulted launch reports the failure"
    );
    let status = ev.command_execution_status().expect("status").0;
    assert!(
        status < 0,
        "the faulted launch's status is an error, got {status}"
    );

    // The process is alive and the queue still works.
    let fill = Kernel::create(&program, "fill").expect("kernel fill");
    unsafe {
        ExecuteKernel::new(&fill)
            .set_arg(&out)
            .set_global_work_size(n)
            .enqueue_nd_range(&queue)
    }
    .expect("enqueue fill");
    let mut host = vec![0i32; n];
    unsafe { queue.enqueue_read_buffer(&out, CL_BLOCKING, 0, &mut host, &[]) }
        .expect("read after the fault");
    assert!(
        host.iter().all(|&v| v == 7),
        "the launch after the fault computed its values"
    );
    assert_eq!(
        queue.finish().err().map(|e| e.0).unwrap_or(CL_SUCCESS),
        CL_SUCCESS
    );
}
