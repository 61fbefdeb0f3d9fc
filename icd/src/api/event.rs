//! Events: wait, info, profiling, callbacks, user events.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    api_call(|| pending("clWaitForEvents"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetEventInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clRetainEvent(event: cl_event) -> cl_int {
    api_call(|| pending("clRetainEvent"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseEvent(event: cl_event) -> cl_int {
    api_call(|| pending("clReleaseEvent"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetEventProfilingInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<
        unsafe extern "C" fn(event: cl_event, event_command_status: cl_int, user_data: *mut c_void),
    >,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clSetEventCallback"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateUserEvent(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateUserEvent")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
    api_call(|| pending("clSetUserEventStatus"))
}
