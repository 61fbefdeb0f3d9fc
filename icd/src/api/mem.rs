//! Memory objects: buffers, sub-buffers, info, destructor callbacks; images and
//! pipes (not supported by the device: the spec's errors).

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateBuffer")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: size_t,
    image_height: size_t,
    image_row_pitch: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateImage2D")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_width: size_t,
    image_height: size_t,
    image_depth: size_t,
    image_row_pitch: size_t,
    image_slice_pitch: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateImage3D")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainMemObject(memobj: cl_mem) -> cl_int {
    api_call(|| pending("clRetainMemObject"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseMemObject(memobj: cl_mem) -> cl_int {
    api_call(|| pending("clReleaseMemObject"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    api_call(|| pending("clGetSupportedImageFormats"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetMemObjectInfo(
    memobj: cl_mem,
    param_name: cl_mem_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetMemObjectInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetImageInfo(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetImageInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateSubBuffer")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    memobj: cl_mem,
    pfn_notify: Option<unsafe extern "C" fn(memobj: cl_mem, user_data: *mut c_void)>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| pending("clSetMemObjectDestructorCallback"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateImage")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreatePipe(
    context: cl_context,
    flags: cl_mem_flags,
    pipe_packet_size: cl_uint,
    pipe_max_packets: cl_uint,
    properties: *const cl_pipe_properties,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreatePipe")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetPipeInfo(
    pipe: cl_mem,
    param_name: cl_pipe_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetPipeInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateBufferWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateBufferWithProperties")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    image_format: *const cl_image_format,
    image_desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateImageWithProperties")
    })
}
