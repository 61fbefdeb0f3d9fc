//! Samplers (the device has no image support: the spec's errors).

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::prelude::*;

#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateSampler")
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| pending("clRetainSampler"))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| pending("clReleaseSampler"))
}

#[no_mangle]
pub unsafe extern "C" fn clGetSamplerInfo(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: size_t,
    param_value: *mut c_void,
    param_value_size_ret: *mut size_t,
) -> cl_int {
    api_call(|| pending("clGetSamplerInfo"))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        pending("clCreateSamplerWithProperties")
    })
}
