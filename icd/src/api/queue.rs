//! Command queues: creation (legacy and with properties), info, `clFlush`, `clFinish`.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateCommandQueue")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainCommandQueue(command_queue: cl_command_queue) -> cl_int {
    api_call(|| pending("clRetainCommandQueue"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandQueue(command_queue: cl_command_queue) -> cl_int {
    api_call(|| pending("clReleaseCommandQueue"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetCommandQueueInfo(
    command_queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetCommandQueueInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetCommandQueueProperty(
    command_queue: cl_command_queue,
    properties: cl_command_queue_properties,
    enable: cl_bool,
    old_properties: *mut cl_command_queue_properties,
) -> cl_int {
    api_call(|| pending("clSetCommandQueueProperty"))
}

#[no_mangle]
pub unsafe extern "C" fn clFlush(command_queue: cl_command_queue) -> cl_int {
    api_call(|| pending("clFlush"))
}

#[no_mangle]
pub unsafe extern "C" fn clFinish(command_queue: cl_command_queue) -> cl_int {
    api_call(|| pending("clFinish"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateCommandQueueWithProperties")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    command_queue: cl_command_queue,
) -> cl_int {
    api_call(|| pending("clSetDefaultDeviceCommandQueue"))
}
