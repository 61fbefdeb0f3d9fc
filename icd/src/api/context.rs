//! Contexts: `clCreateContext[FromType]`, reference counting, `clGetContextInfo`,
//! destructor callbacks. The object itself is `core::context`.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::device::{check_device_found, check_device_type};
use super::platform::platform_or_default;
use super::prelude::*;
use crate::core::context::{Context, DestructorFn, NotifyFn, UserData};
use crate::core::device::{device, Device};

/// A user's zero-terminated properties list (name, value pairs), copied with
/// its terminating 0; empty for NULL. CL_INVALID_VALUE-free: a property list
/// is trusted to be terminated, as the spec requires.
pub(crate) fn read_properties<T: Copy + PartialEq + Default>(list: *const T) -> Vec<T> {
    let mut out = Vec::new();
    if list.is_null() {
        return out;
    }
    let zero = T::default();
    let mut i = 0;
    loop {
        // SAFETY: the spec requires a list of name/value pairs terminated by a
        // 0 name; we read names and values up to that terminator.
        let name = unsafe { list.add(i).read() };
        out.push(name);
        if name == zero {
            return out;
        }
        // SAFETY: as above: every non-zero name is followed by its value.
        out.push(unsafe { list.add(i + 1).read() });
        i += 2;
    }
}

/// What a context's properties say.
struct ContextProperties {
    list: Vec<cl_context_properties>,
    interop_user_sync: bool,
}

fn parse_context_properties(
    properties: *const cl_context_properties,
) -> CLResult<ContextProperties> {
    let list = read_properties(properties);
    let mut seen = Vec::new();
    let mut interop_user_sync = false;
    for pair in list.chunks_exact(2) {
        let (name, value) = (pair[0], pair[1]);
        // CL_INVALID_PROPERTY if the same property name is specified more than once.
        if seen.contains(&name) {
            return err(
                CL_INVALID_PROPERTY,
                format!("context property 0x{name:x} given twice"),
            );
        }
        seen.push(name);
        match name {
            // CL_INVALID_PLATFORM if the platform specified in properties is
            // not a valid platform.
            CL_CONTEXT_PLATFORM => {
                Obj::<crate::core::platform::Platform>::get(value as cl_platform_id)?;
            }
            // CL_INVALID_PROPERTY if the value specified for a supported
            // property name is not valid.
            CL_CONTEXT_INTEROP_USER_SYNC => {
                check(
                    value == CL_TRUE as isize || value == CL_FALSE as isize,
                    CL_INVALID_PROPERTY,
                    "CL_CONTEXT_INTEROP_USER_SYNC must be CL_TRUE or CL_FALSE",
                )?;
                interop_user_sync = value == CL_TRUE as isize;
            }
            // CL_INVALID_PROPERTY if a context property name in properties is
            // not a supported property name.
            _ => {
                return err(
                    CL_INVALID_PROPERTY,
                    format!("unsupported context property 0x{name:x}"),
                )
            }
        }
    }
    Ok(ContextProperties {
        list,
        interop_user_sync,
    })
}

/// CL_INVALID_VALUE if pfn_notify is NULL and user_data is not NULL.
fn notify_callback(
    pfn_notify: Option<NotifyFn>,
    user_data: *mut c_void,
) -> CLResult<Option<(NotifyFn, UserData)>> {
    check(
        pfn_notify.is_some() || user_data.is_null(),
        CL_INVALID_VALUE,
        "user_data given without pfn_notify",
    )?;
    Ok(pfn_notify.map(|f| (f, UserData(user_data))))
}

fn create_context(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: Option<NotifyFn>,
    user_data: *mut c_void,
) -> CLResult<cl_context> {
    let props = parse_context_properties(properties)?;
    // CL_INVALID_VALUE if devices is NULL.
    check(!devices.is_null(), CL_INVALID_VALUE, "devices is NULL")?;
    // CL_INVALID_VALUE if num_devices is equal to zero.
    check(num_devices != 0, CL_INVALID_VALUE, "num_devices is 0")?;
    let notify = notify_callback(pfn_notify, user_data)?;
    // CL_INVALID_DEVICE if any device in devices is not a valid device.
    let mut list: Vec<Arc<Obj<Device>>> = Vec::new();
    for d in Obj::<Device>::get_list(devices, num_devices as usize)? {
        // Duplicate devices specified in devices are ignored.
        if !list.iter().any(|x| Arc::ptr_eq(x, &d)) {
            list.push(d);
        }
    }
    let ctx = Context::new(list, props.list, props.interop_user_sync, notify);
    Ok(Obj::into_handle(ctx))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    devices: *const cl_device_id,
    pfn_notify: Option<NotifyFn>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_context(properties, num_devices, devices, pfn_notify, user_data)
    })
}

fn create_context_from_type(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Option<NotifyFn>,
    user_data: *mut c_void,
) -> CLResult<cl_context> {
    let props = parse_context_properties(properties)?;
    // CL_INVALID_PLATFORM if no platform is specified in properties and no
    // platform could be selected: ours is always selected.
    platform_or_default(ptr::null_mut())?;
    let notify = notify_callback(pfn_notify, user_data)?;
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    check_device_type(device_type)?;
    // CL_DEVICE_NOT_FOUND if no devices that match device_type and property
    // values specified in properties were found.
    check_device_found(device_type)?;
    let ctx = Context::new(
        vec![device().clone()],
        props.list,
        props.interop_user_sync,
        notify,
    );
    Ok(Obj::into_handle(ctx))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: Option<NotifyFn>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_context_from_type(properties, device_type, pfn_notify, user_data)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainContext(context: cl_context) -> cl_int {
    // CL_INVALID_CONTEXT if context is not a valid OpenCL context.
    api_call(|| Obj::<Context>::retain(context))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseContext(context: cl_context) -> cl_int {
    // CL_INVALID_CONTEXT if context is not a valid OpenCL context. The
    // context is deleted (destructor callbacks run) when the last `Arc` goes:
    // the user's and those of every object attached to it.
    api_call(|| Obj::<Context>::release(context).map(drop))
}

fn context_info(context: cl_context, param: cl_context_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = Obj::<Context>::get(context)?;
    let devices: Vec<cl_device_id> = ctx.devices().iter().map(Obj::handle).collect();
    match param {
        CL_CONTEXT_REFERENCE_COUNT => out.value::<cl_uint>(ctx.ref_count()),
        CL_CONTEXT_NUM_DEVICES => out.value::<cl_uint>(devices.len() as cl_uint),
        CL_CONTEXT_DEVICES => out.slice(&devices),
        // The list as given, or size 0 if it was NULL.
        CL_CONTEXT_PROPERTIES => out.slice(ctx.properties()),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown context info 0x{param:x}"),
        ),
    }
}

info_entry_points! {
    fn clGetContextInfo(context: cl_context, param_name: cl_context_info) = context_info;
}

#[no_mangle]
pub unsafe extern "C" fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: Option<DestructorFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = Obj::<Context>::get(context)?;
        // CL_INVALID_VALUE if pfn_notify is NULL.
        let Some(f) = pfn_notify else {
            return err(CL_INVALID_VALUE, "pfn_notify is NULL");
        };
        ctx.add_destructor(f, UserData(user_data));
        Ok(())
    })
}
