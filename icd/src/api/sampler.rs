//! Samplers: `clCreateSampler`, `clCreateSamplerWithProperties`, retain,
//! release and `clGetSamplerInfo`. A sampler is its three settings
//! (`core::objects::Sampler`); a kernel argument passes their `CLK_*` bits.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::Context;
use crate::core::device::device;
use crate::core::objects::Sampler;

const ADDRESSING_MODES: [cl_addressing_mode; 5] = [
    CL_ADDRESS_NONE,
    CL_ADDRESS_CLAMP_TO_EDGE,
    CL_ADDRESS_CLAMP,
    CL_ADDRESS_REPEAT,
    CL_ADDRESS_MIRRORED_REPEAT,
];

fn create_sampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    properties: Option<Vec<cl_sampler_properties>>,
) -> CLResult<cl_sampler> {
    let context = Obj::<Context>::get(context)?;
    // CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or
    // a combination of these arguments are not valid.
    check(
        normalized_coords == CL_TRUE || normalized_coords == CL_FALSE,
        CL_INVALID_VALUE,
        "normalized_coords is neither CL_TRUE nor CL_FALSE",
    )?;
    check(
        ADDRESSING_MODES.contains(&addressing_mode),
        CL_INVALID_VALUE,
        &format!("addressing_mode {addressing_mode:#x} is not an addressing mode"),
    )?;
    check(
        filter_mode == CL_FILTER_NEAREST || filter_mode == CL_FILTER_LINEAR,
        CL_INVALID_VALUE,
        &format!("filter_mode {filter_mode:#x} is not a filter mode"),
    )?;
    // CL_INVALID_OPERATION if images are not supported by any device
    // associated with context.
    check(
        device().image_support(),
        CL_INVALID_OPERATION,
        "no device in the context supports images",
    )?;
    let s = Obj::new(Sampler {
        context,
        normalized_coords: normalized_coords == CL_TRUE,
        addressing_mode,
        filter_mode,
        properties,
    });
    Ok(Obj::into_handle(s))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_sampler(
            context,
            normalized_coords,
            addressing_mode,
            filter_mode,
            None,
        )
    })
}

fn create_with_properties(
    context: cl_context,
    props: *const cl_sampler_properties,
) -> CLResult<cl_sampler> {
    Obj::<Context>::get(context)?;
    // The defaults: normalized coordinates, CL_ADDRESS_CLAMP, nearest.
    let (mut norm, mut addr, mut filter) = (CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    let mut list = None;
    if !props.is_null() {
        let mut seen = Vec::new();
        let mut v = Vec::new();
        let mut i = 0;
        loop {
            // SAFETY: a non-NULL list is zero-terminated (the API's contract).
            let name = unsafe { props.add(i).read_unaligned() };
            v.push(name);
            if name == 0 {
                break;
            }
            // SAFETY: every name is followed by its value.
            let value = unsafe { props.add(i + 1).read_unaligned() };
            v.push(value);
            i += 2;
            // CL_INVALID_VALUE if the property name in sampler_properties is
            // not a supported property name, if the value specified for a
            // supported property name is not valid, or if the same property
            // name is specified more than once.
            check(
                !seen.contains(&name),
                CL_INVALID_VALUE,
                &format!("sampler property {name:#x} given twice"),
            )?;
            seen.push(name);
            match name as cl_uint {
                CL_SAMPLER_NORMALIZED_COORDS => norm = value as cl_bool,
                CL_SAMPLER_ADDRESSING_MODE => addr = value as cl_addressing_mode,
                CL_SAMPLER_FILTER_MODE => filter = value as cl_filter_mode,
                _ => {
                    return err(
                        CL_INVALID_VALUE,
                        format!("unsupported sampler property {name:#x}"),
                    )
                }
            }
        }
        list = Some(v);
    }
    create_sampler(context, norm, addr, filter, list)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    sampler_properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_with_properties(context, sampler_properties)
    })
}

// CL_INVALID_SAMPLER if sampler is not a valid sampler object.

#[no_mangle]
pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| Obj::<Sampler>::retain(sampler))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    api_call(|| Obj::<Sampler>::release(sampler).map(drop))
}

fn sampler_info(sampler: cl_sampler, param: cl_sampler_info, out: InfoOut) -> CLResult<()> {
    let s = Obj::<Sampler>::get(sampler)?;
    match param {
        CL_SAMPLER_REFERENCE_COUNT => out.value::<cl_uint>(s.ref_count()),
        CL_SAMPLER_CONTEXT => out.value(Obj::handle(&s.context)),
        CL_SAMPLER_NORMALIZED_COORDS => out.boolean(s.normalized_coords),
        CL_SAMPLER_ADDRESSING_MODE => out.value::<cl_addressing_mode>(s.addressing_mode),
        CL_SAMPLER_FILTER_MODE => out.value::<cl_filter_mode>(s.filter_mode),
        CL_SAMPLER_PROPERTIES => out.slice(s.properties.as_deref().unwrap_or(&[])),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown cl_sampler_info {param:#x}"),
        ),
    }
}

info_entry_points! {
    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info) = sampler_info;
}
