//! Kernel objects: create, arguments, info, work-group info.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateKernel(
    program: cl_program,
    kernel_name: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateKernel")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainKernel(kernel: cl_kernel) -> cl_int {
    api_call(|| pending("clRetainKernel"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
    api_call(|| pending("clReleaseKernel"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: size_t,
    arg_value: *const c_void,
) -> cl_int {
    api_call(|| pending("clSetKernelArg"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetKernelInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetKernelWorkGroupInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelArgInfo(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetKernelArgInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: size_t,
    param_value: *const c_void,
) -> cl_int {
    api_call(|| pending("clSetKernelExecInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelSubGroupInfoKHR(
    in_kernel: cl_kernel,
    in_device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: size_t,
    input_value: *const c_void,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetKernelSubGroupInfoKHR"))
}

#[no_mangle]
pub unsafe extern "C" fn clCloneKernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCloneKernel")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: size_t,
    input_value: *const c_void,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetKernelSubGroupInfo"))
}
