//! Helpers shared by the integration tests: they call the `extern "C"` entry
//! points of the rlib directly (no loader involved).

#![allow(dead_code)]

pub use cranecl::api::*;
pub use opencl_sys::*;
pub use std::ffi::c_void;
pub use std::ptr;

/// Our one device.
pub fn device() -> cl_device_id {
    let mut d = ptr::null_mut();
    // SAFETY: valid out-pointers.
    let rc = unsafe {
        clGetDeviceIDs(
            ptr::null_mut(),
            CL_DEVICE_TYPE_CPU,
            1,
            &mut d,
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    d
}

/// A context on our device, no properties, no callback.
pub fn context() -> cl_context {
    let d = device();
    let mut rc = 0;
    // SAFETY: one valid device handle.
    let c = unsafe { clCreateContext(ptr::null(), 1, &d, None, ptr::null_mut(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    c
}

/// A queue with the given `CL_QUEUE_PROPERTIES` bits.
pub fn queue(ctx: cl_context, bits: cl_command_queue_properties) -> cl_command_queue {
    let props = [CL_QUEUE_PROPERTIES as cl_queue_properties, bits, 0];
    let mut rc = 0;
    // SAFETY: valid handles and a terminated properties list.
    let q = unsafe { clCreateCommandQueueWithProperties(ctx, device(), props.as_ptr(), &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    q
}

pub fn user_event(ctx: cl_context) -> cl_event {
    let mut rc = 0;
    // SAFETY: valid context.
    let e = unsafe { clCreateUserEvent(ctx, &mut rc) };
    assert_eq!(rc, CL_SUCCESS);
    e
}

/// A marker waiting for `wait` (all earlier commands if empty).
pub fn marker(q: cl_command_queue, wait: &[cl_event]) -> cl_event {
    let mut e = ptr::null_mut();
    let list = if wait.is_empty() {
        ptr::null()
    } else {
        wait.as_ptr()
    };
    // SAFETY: valid queue, wait list of `wait.len()` events.
    let rc = unsafe { clEnqueueMarkerWithWaitList(q, wait.len() as cl_uint, list, &mut e) };
    assert_eq!(rc, CL_SUCCESS);
    e
}

/// A barrier waiting for `wait` (all earlier commands if empty).
pub fn barrier(q: cl_command_queue, wait: &[cl_event]) -> cl_event {
    let mut e = ptr::null_mut();
    let list = if wait.is_empty() {
        ptr::null()
    } else {
        wait.as_ptr()
    };
    // SAFETY: as for `marker`.
    let rc = unsafe { clEnqueueBarrierWithWaitList(q, wait.len() as cl_uint, list, &mut e) };
    assert_eq!(rc, CL_SUCCESS);
    e
}

pub fn status(e: cl_event) -> cl_int {
    let mut s: cl_int = 99;
    // SAFETY: a cl_int-sized answer into `s`.
    let rc = unsafe {
        clGetEventInfo(
            e,
            CL_EVENT_COMMAND_EXECUTION_STATUS,
            std::mem::size_of::<cl_int>(),
            &mut s as *mut cl_int as *mut c_void,
            ptr::null_mut(),
        )
    };
    assert_eq!(rc, CL_SUCCESS);
    s
}

pub fn wait(events: &[cl_event]) -> cl_int {
    // SAFETY: a list of `events.len()` handles.
    unsafe { clWaitForEvents(events.len() as cl_uint, events.as_ptr()) }
}

pub fn set_status(e: cl_event, s: cl_int) -> cl_int {
    // SAFETY: plain call.
    unsafe { clSetUserEventStatus(e, s) }
}

pub fn release_event(e: cl_event) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseEvent(e) }, CL_SUCCESS);
}

pub fn release_queue(q: cl_command_queue) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseCommandQueue(q) }, CL_SUCCESS);
}

pub fn release_context(c: cl_context) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clReleaseContext(c) }, CL_SUCCESS);
}

pub fn finish(q: cl_command_queue) {
    // SAFETY: plain call.
    assert_eq!(unsafe { clFinish(q) }, CL_SUCCESS);
}
