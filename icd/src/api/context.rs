//! Contexts: `clCreateContext[FromType]`, reference counting, `clGetContextInfo`,
//! destructor callbacks.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: Option<
        unsafe extern "C" fn(
            errinfo: *const c_char,
            private_info: *const c_void,
            cb: size_t,
            user_data: *mut c_void,
        ),
    >,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateContext")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Option<
        unsafe extern "C" fn(
            errinfo: *const c_char,
            private_info: *const c_void,
            cb: size_t,
            user_data: *mut c_void,
        ),
    >,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateContextFromType")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainContext(context: cl_context) -> cl_int {
    api_call(|| pending("clRetainContext"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseContext(context: cl_context) -> cl_int {
    api_call(|| pending("clReleaseContext"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetContextInfo(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetContextInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: Option<unsafe extern "C" fn(context: cl_context, user_data: *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clSetContextDestructorCallback"))
}
