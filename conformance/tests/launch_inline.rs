//! Launches too small to hand to a command worker run on the thread that
//! finds them ready (`exec::ndrange::Launch::runs_inline`): they must still
//! keep the queue's order, wait for their events, count every launch, and a
//! launch of the same kernel that has grown must still be right.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;

const SRC: &str = "kernel void bump(global uint *counter, uint n) {
    size_t i = get_global_id(0);
    if (i < n) atomic_inc(counter);
}";

fn tiny_launches_keep_order_and_dependencies(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let mut e = 0;
    let mut src = SRC.as_ptr() as *const std::ffi::c_char;
    let len = SRC.len();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        call!(t; clBuildProgram(p, 1, &dev, null(), None, null())),
        CL_SUCCESS
    );
    let k = call!(t; clCreateKernel(p, c"bump".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 4);
    let zero = 0u32;
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 4, (&zero as *const u32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetKernelArg(k, 0, 8, (&buf as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
    let n = u32::MAX;
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 4, (&n as *const u32).cast::<c_void>())),
        CL_SUCCESS
    );
    let read = |q: cl_command_queue| -> u32 {
        let mut v = 0u32;
        assert_code!(
            call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, (&mut v as *mut u32).cast(), 0, null(), null())),
            CL_SUCCESS
        );
        v
    };
    // Many one-item launches: every one counts.
    let one = [1usize];
    for _ in 0..500 {
        assert_code!(
            call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), one.as_ptr(), null(), 0, null(), null())),
            CL_SUCCESS
        );
    }
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_eq!(read(q), 500);
    // Behind an unset user event it must not run; once set, it runs.
    let ue = t.user_event(ctx);
    let mut done: cl_event = null();
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), one.as_ptr(), null(), 1, &ue, &mut done)),
        CL_SUCCESS
    );
    let q2 = t.queue(ctx, 0);
    assert_eq!(read(q2), 500, "a launch ran before its user event was set");
    let mut status: cl_int = 0;
    assert_code!(
        call!(t; clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, (&mut status as *mut cl_int).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(status, CL_QUEUED as cl_int);
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);
    assert_code!(call!(t; clWaitForEvents(1, &done)), CL_SUCCESS);
    assert_eq!(read(q), 501);
    // The same kernel over many more items: handed off again, still right.
    let many = [1usize << 20];
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), many.as_ptr(), null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_eq!(read(q), 501 + (1 << 20));
    for obj in [done, ue] {
        assert_code!(call!(t; clReleaseEvent(obj)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseProgram(p)), CL_SUCCESS);
    for q in [q, q2] {
        assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
}

both_ways!(tiny_launches_keep_order_and_dependencies);
