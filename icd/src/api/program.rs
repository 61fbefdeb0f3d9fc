//! Program objects: create from source/binary, build, compile, link, info.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *mut *const c_char,
    lengths: *const size_t,
    errcode_ret: *mut cl_int,
) -> cl_program {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateProgramWithSource")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const size_t,
    binaries: *mut *const ::core::ffi::c_uchar,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateProgramWithBinary")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainProgram(program: cl_program) -> cl_int {
    api_call(|| pending("clRetainProgram"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseProgram(program: cl_program) -> cl_int {
    api_call(|| pending("clReleaseProgram"))
}

#[no_mangle]
pub unsafe extern "C" fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clBuildProgram"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetProgramInfo(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetProgramInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetProgramBuildInfo(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetProgramBuildInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    api_call(|| pending("clCreateKernelsInProgram"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    kernel_names: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_program {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateProgramWithBuiltInKernels")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *mut *const c_char,
    pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clCompileProgram"))
}

#[no_mangle]
pub unsafe extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clLinkProgram")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: size_t,
    errcode_ret: *mut cl_int,
) -> cl_program {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateProgramWithIL")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramReleaseCallback(
    program: cl_program,
    pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clSetProgramReleaseCallback"))
}

#[no_mangle]
pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: size_t,
    spec_value: *const c_void,
) -> cl_int {
    api_call(|| pending("clSetProgramSpecializationConstant"))
}
