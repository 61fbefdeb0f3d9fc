//! Samplers. The device has no image support (`CL_DEVICE_IMAGE_SUPPORT` is
//! false), so no sampler can be created: creation answers the spec's error
//! for that case, and every sampler handle is invalid.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::Context;
use crate::core::objects::Sampler;

fn no_samplers(context: cl_context) -> CLResult<cl_sampler> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Obj::<Context>::get(context)?;
    // CL_INVALID_OPERATION if images are not supported by any device
    // associated with context.
    err(
        CL_INVALID_OPERATION,
        "no device in the context supports images",
    )
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    _normalized_coords: cl_bool,
    _addressing_mode: cl_addressing_mode,
    _filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, ptr::null_mut(), || no_samplers(context))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    _sampler_properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, ptr::null_mut(), || no_samplers(context))
}

// CL_INVALID_SAMPLER if sampler is not a valid sampler object: `Obj::get`
// answers it for every handle, since no sampler exists.

#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| Obj::<Sampler>::retain(sampler))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| Obj::<Sampler>::release(sampler).map(drop))
}

fn sampler_info(sampler: cl_sampler, _param: cl_sampler_info, _out: InfoOut) -> CLResult<()> {
    Obj::<Sampler>::get(sampler).map(drop)
}

info_entry_points! {
    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info) = sampler_info;
}
