//! Released and forged handles, straight to the ICD (no loader: a loader
//! reads a handle's dispatch pointer before the ICD sees it, so a released
//! handle through a loader is undefined behaviour there). Every object type
//! is created, released, then used: the call answers the type's
//! `CL_INVALID_*` code. A pointer to zeros, and a forged object that starts
//! with our real dispatch-table pointer but was never handed out, are refused
//! the same way (programs, kernels and samplers: api_program_kernel.rs).
//! One test function, so no other test of this process can
//! reuse a freed address in between.

use cranecl_conformance::{assert_code, call, direct, null};
use opencl_sys::*;
use std::ffi::c_void;

#[test]
fn released_and_forged_handles() {
    let t = direct();
    let p = t.platform();
    let dev = t.device();

    // Forged handles: zeros, and a copy of a real header.
    let zeros: Box<[u64; 16]> = Box::new([0; 16]);
    // SAFETY: a platform handle points at an object whose first word is the
    // dispatch-table pointer (the ICD contract).
    let dispatch = unsafe { *(p as *const usize) };
    let mut forged: Box<[usize; 16]> = Box::new([0; 16]);
    forged[0] = dispatch;
    for (what, h) in [
        ("zeros", zeros.as_ptr() as *mut c_void),
        ("forged header", forged.as_mut_ptr().cast()),
    ] {
        let mut v: cl_uint = 0;
        let vp = (&mut v as *mut u32).cast();
        assert_code!(
            call!(t; clGetPlatformInfo(h.cast(), CL_PLATFORM_NAME, 0, null(), &mut 0)),
            CL_INVALID_PLATFORM,
            "{what}"
        );
        assert_code!(
            call!(t; clGetDeviceInfo(h.cast(), CL_DEVICE_NAME, 0, null(), &mut 0)),
            CL_INVALID_DEVICE,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainContext(h.cast())),
            CL_INVALID_CONTEXT,
            "{what}"
        );
        assert_code!(
            call!(t; clGetContextInfo(h.cast(), CL_CONTEXT_REFERENCE_COUNT, 4, vp, null())),
            CL_INVALID_CONTEXT,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainCommandQueue(h.cast())),
            CL_INVALID_COMMAND_QUEUE,
            "{what}"
        );
        assert_code!(
            call!(t; clFinish(h.cast())),
            CL_INVALID_COMMAND_QUEUE,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainMemObject(h.cast())),
            CL_INVALID_MEM_OBJECT,
            "{what}"
        );
        assert_code!(
            call!(t; clRetainEvent(h.cast())),
            CL_INVALID_EVENT,
            "{what}"
        );
        assert_code!(
            call!(t; clWaitForEvents(1, &(h as cl_event))),
            CL_INVALID_EVENT,
            "{what}"
        );
        let mut e = 0;
        let c = call!(t; clCreateContext(null(), 1, &(h as cl_device_id), None, null(), &mut e));
        assert!(c.is_null());
        assert_code!(
            e,
            CL_INVALID_DEVICE,
            "{what} as a device in clCreateContext"
        );
    }

    // Released objects.
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let buf = t.buffer(ctx, CL_MEM_READ_WRITE, 256);
    let ue = t.user_event(ctx);
    let mut marker: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 0, null(), &mut marker)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clWaitForEvents(1, &marker)), CL_SUCCESS);
    assert_code!(call!(t; clSetUserEventStatus(ue, CL_COMPLETE)), CL_SUCCESS);

    // A second context stays alive so allocations keep happening elsewhere.
    let keep = t.context();
    let keep_q = t.queue(keep, 0);

    assert_code!(call!(t; clReleaseEvent(marker)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseEvent(ue)), CL_SUCCESS);
    let mut st: cl_int = 0;
    let stp = (&mut st as *mut i32).cast();
    assert_code!(
        call!(t; clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, stp, null())),
        CL_INVALID_EVENT,
        "a released marker event"
    );
    assert_code!(
        call!(t; clGetEventInfo(ue, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, stp, null())),
        CL_INVALID_EVENT,
        "a released user event"
    );
    assert_code!(
        call!(t; clReleaseEvent(ue)),
        CL_INVALID_EVENT,
        "a second release"
    );
    assert_code!(
        call!(t; clSetUserEventStatus(ue, CL_COMPLETE)),
        CL_INVALID_EVENT
    );
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &ue, null())),
        CL_INVALID_EVENT_WAIT_LIST,
        "a released event in a wait list"
    );

    // Released before its command completes: invalid once it has (the
    // queue keeps its latest events to reuse; that must not show).
    let gate = t.user_event(ctx);
    let mut gated: cl_event = null();
    assert_code!(
        call!(t; clEnqueueMarkerWithWaitList(q, 1, &gate, &mut gated)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clReleaseEvent(gated)), CL_SUCCESS);
    assert_code!(
        call!(t; clSetUserEventStatus(gate, CL_COMPLETE)),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
    assert_code!(
        call!(t; clGetEventInfo(gated, CL_EVENT_COMMAND_EXECUTION_STATUS, 4, stp, null())),
        CL_INVALID_EVENT,
        "an event released before its command completed"
    );
    assert_code!(call!(t; clReleaseEvent(gate)), CL_SUCCESS);

    assert_code!(call!(t; clReleaseMemObject(buf)), CL_SUCCESS);
    let mut sz = 0usize;
    assert_code!(
        call!(t; clGetMemObjectInfo(buf, CL_MEM_SIZE, 8, (&mut sz as *mut usize).cast(), null())),
        CL_INVALID_MEM_OBJECT,
        "a released buffer"
    );
    let mut host = [0u8; 16];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 16, host.as_mut_ptr().cast(), 0, null(), null())),
        CL_INVALID_MEM_OBJECT,
        "a read of a released buffer"
    );
    assert_code!(
        call!(t; clReleaseMemObject(buf)),
        CL_INVALID_MEM_OBJECT,
        "a second release"
    );

    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(
        call!(t; clFinish(q)),
        CL_INVALID_COMMAND_QUEUE,
        "a released queue"
    );
    assert_code!(call!(t; clFlush(q)), CL_INVALID_COMMAND_QUEUE);
    assert_code!(
        call!(t; clReleaseCommandQueue(q)),
        CL_INVALID_COMMAND_QUEUE,
        "a second release"
    );

    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
    let mut v: cl_uint = 0;
    assert_code!(
        call!(t; clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, 4, (&mut v as *mut u32).cast(), null())),
        CL_INVALID_CONTEXT,
        "a released context"
    );
    let mut e = 0;
    let b = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16, null(), &mut e));
    assert!(b.is_null());
    assert_code!(
        e,
        CL_INVALID_CONTEXT,
        "clCreateBuffer on a released context"
    );
    assert_code!(
        call!(t; clReleaseContext(ctx)),
        CL_INVALID_CONTEXT,
        "a second release"
    );

    // Objects kept alive by a dependent: the context lives while its queue
    // does, and the queue still works after the user's context release.
    let mut e = 0;
    let b = call!(t; clCreateBuffer(keep, CL_MEM_READ_WRITE, 16, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(keep)), CL_SUCCESS);
    let data = [9u8; 16];
    assert_code!(
        call!(t; clEnqueueWriteBuffer(keep_q, b, CL_TRUE, 0, 16, data.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS,
        "a queue and buffer outlive the user's last context reference"
    );
    // The queue's context, as a query gives it, may be retained again
    // (pyopencl's `CommandQueue(create_some_context())` does so).
    let mut got: cl_context = null();
    assert_code!(
        call!(t; clGetCommandQueueInfo(keep_q, CL_QUEUE_CONTEXT, std::mem::size_of::<cl_context>(), (&mut got as *mut cl_context).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(got, keep);
    assert_code!(
        call!(t; clRetainContext(got)),
        CL_SUCCESS,
        "retaining the live context of a queue after the user's last release"
    );
    let b2 = call!(t; clCreateBuffer(got, CL_MEM_READ_WRITE, 16, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(b2)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseContext(got)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(b)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseCommandQueue(keep_q)), CL_SUCCESS);
    // The device and platform are not reference counted away.
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_NAME, 0, null(), &mut sz)),
        CL_SUCCESS
    );
}
