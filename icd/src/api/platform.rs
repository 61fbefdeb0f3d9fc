//! Platform queries and the ICD entry points the loader itself calls:
//! `clGetPlatformIDs`, `clIcdGetPlatformIDsKHR`, `clGetPlatformInfo`,
//! `clGetExtensionFunctionAddress[ForPlatform]`, compiler unloading and timers.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::device::{device, Device};
use crate::core::platform::{self, platform, Platform};
use cranecl_jit::features;

fn get_platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> CLResult<()> {
    // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL
    // or if both num_platforms and platforms are NULL.
    let out = ListOut::new(num_entries, platforms, num_platforms)?;
    out.one(Obj::handle(platform()));
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    api_call(|| get_platform_ids(num_entries, platforms, num_platforms))
}

/// `cl_khr_icd`: what the loader calls to enumerate our platforms.
#[no_mangle]
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    // CL_PLATFORM_NOT_FOUND_KHR is for when no platform is found; we always have one.
    api_call(|| get_platform_ids(num_entries, platforms, num_platforms))
}

/// A NULL platform means ours (the spec leaves it to the implementation).
pub fn platform_or_default(p: cl_platform_id) -> CLResult<Arc<Obj<Platform>>> {
    if p.is_null() {
        Ok(platform().clone())
    } else {
        Obj::get(p)
    }
}

fn platform_info(p: cl_platform_id, param: cl_platform_info, out: InfoOut) -> CLResult<()> {
    platform_or_default(p)?;
    // A profile without fp64 takes cl_khr_fp64 from the platform's list too
    // (it names the extensions every device has).
    crate::core::device::config();
    let ext_versions: Vec<cl_name_version> = features::extensions().map(name_version).collect();
    match param {
        CL_PLATFORM_PROFILE => out.string(platform::PROFILE),
        CL_PLATFORM_VERSION => out.string(platform::VERSION_STRING),
        CL_PLATFORM_NUMERIC_VERSION => out.value::<cl_version>(features::cl_make_version(3, 0, 0)),
        CL_PLATFORM_NAME => out.string(platform::NAME),
        CL_PLATFORM_VENDOR => out.string(platform::VENDOR),
        CL_PLATFORM_EXTENSIONS => out.string(&features::extension_string()),
        CL_PLATFORM_EXTENSIONS_WITH_VERSION => out.slice(&ext_versions),
        // Resolution of the host timer in nanoseconds.
        CL_PLATFORM_HOST_TIMER_RESOLUTION => out.value::<cl_ulong>(1),
        CL_PLATFORM_ICD_SUFFIX_KHR => out.string(platform::ICD_SUFFIX),
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown platform info 0x{param:x}"),
        ),
    }
}

/// A `cl_name_version` from a features-table entry.
pub fn name_version(nv: &features::NameVersion) -> cl_name_version {
    let mut name = [0u8; CL_NAME_VERSION_MAX_NAME_SIZE];
    for (d, s) in name
        .iter_mut()
        .zip(nv.name.bytes().take(CL_NAME_VERSION_MAX_NAME_SIZE - 1))
    {
        *d = s;
    }
    cl_name_version {
        version: nv.version,
        name,
    }
}

info_entry_points! {
    fn clGetPlatformInfo(platform: cl_platform_id, param_name: cl_platform_info) = platform_info;
}

#[no_mangle]
pub unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    // A hint; our compiler holds no resources to give back.
    CL_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn clUnloadPlatformCompiler(platform: cl_platform_id) -> cl_int {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    api_call(|| Obj::<Platform>::get(platform).map(drop))
}

/// Extension functions found by name: only extension entry points, never
/// core ones (the spec forbids using this for core functions).
fn extension_function(name: *const c_char) -> *mut c_void {
    use super::command_buffer as cb;
    if name.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: a non-NULL `func_name` is a NUL-terminated string (the spec's contract).
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    match name.to_bytes() {
        b"clIcdGetPlatformIDsKHR" => clIcdGetPlatformIDsKHR as *mut c_void,
        b"clGetKernelSubGroupInfoKHR" => super::kernel::clGetKernelSubGroupInfoKHR as *mut c_void,
        b"clGetKernelSuggestedLocalWorkSizeKHR" => {
            super::ndrange::clGetKernelSuggestedLocalWorkSizeKHR as *mut c_void
        }
        // cl_khr_command_buffer
        b"clCreateCommandBufferKHR" => cb::clCreateCommandBufferKHR as *mut c_void,
        b"clFinalizeCommandBufferKHR" => cb::clFinalizeCommandBufferKHR as *mut c_void,
        b"clRetainCommandBufferKHR" => cb::clRetainCommandBufferKHR as *mut c_void,
        b"clReleaseCommandBufferKHR" => cb::clReleaseCommandBufferKHR as *mut c_void,
        b"clEnqueueCommandBufferKHR" => cb::clEnqueueCommandBufferKHR as *mut c_void,
        b"clCommandBarrierWithWaitListKHR" => cb::clCommandBarrierWithWaitListKHR as *mut c_void,
        b"clCommandCopyBufferKHR" => cb::clCommandCopyBufferKHR as *mut c_void,
        b"clCommandCopyBufferRectKHR" => cb::clCommandCopyBufferRectKHR as *mut c_void,
        b"clCommandCopyBufferToImageKHR" => cb::clCommandCopyBufferToImageKHR as *mut c_void,
        b"clCommandCopyImageToBufferKHR" => cb::clCommandCopyImageToBufferKHR as *mut c_void,
        b"clCommandCopyImageKHR" => cb::clCommandCopyImageKHR as *mut c_void,
        b"clCommandFillBufferKHR" => cb::clCommandFillBufferKHR as *mut c_void,
        b"clCommandFillImageKHR" => cb::clCommandFillImageKHR as *mut c_void,
        b"clCommandNDRangeKernelKHR" => cb::clCommandNDRangeKernelKHR as *mut c_void,
        b"clCommandSVMMemcpyKHR" => cb::clCommandSVMMemcpyKHR as *mut c_void,
        b"clCommandSVMMemFillKHR" => cb::clCommandSVMMemFillKHR as *mut c_void,
        b"clGetCommandBufferInfoKHR" => cb::clGetCommandBufferInfoKHR as *mut c_void,
        _ => ptr::null_mut(),
    }
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    extension_function(func_name)
}

#[no_mangle]
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    // NULL if platform is not a valid platform: NULL is none here (unlike
    // clGetPlatformInfo's, where the spec leaves NULL to the implementation).
    if platform.is_null() || Obj::<Platform>::get(platform).is_err() {
        return ptr::null_mut();
    }
    extension_function(func_name)
}

fn write_timer(p: *mut cl_ulong, v: u64) {
    // SAFETY: checked non-NULL by the caller; points at a cl_ulong.
    unsafe { p.write(v) }
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceAndHostTimer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_DEVICE if device is not a valid device.
        Obj::<Device>::get(device)?;
        // CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL.
        check(
            !device_timestamp.is_null() && !host_timestamp.is_null(),
            CL_INVALID_VALUE,
            "NULL timestamp",
        )?;
        // The device is the host: one clock serves both.
        let t = platform::now_ns();
        write_timer(device_timestamp, t);
        write_timer(host_timestamp, t);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetHostTimer(
    device: cl_device_id,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    api_call(|| {
        Obj::<Device>::get(device)?;
        check(
            !host_timestamp.is_null(),
            CL_INVALID_VALUE,
            "host_timestamp is NULL",
        )?;
        write_timer(host_timestamp, platform::now_ns());
        Ok(())
    })
}

/// The device handle, for other modules.
pub fn the_device() -> cl_device_id {
    Obj::handle(device())
}
