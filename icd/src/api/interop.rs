//! Graphics-API sharing (OpenGL, Direct3D 10/11, DX9 media surfaces, EGL).
//!
//! cranecl offers none of these extensions, so no context is ever created from
//! a GL/D3D/EGL context and no memory object ever shares one. Each entry point
//! validates its handles like any other and then gives the error the
//! extension's specification lists for that case.

#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments)]

use super::prelude::*;
use crate::core::mem::Mem;
use crate::core::objects::{Context, Queue};

/// The context was not created from a GL/D3D/EGL context (none ever is).
fn no_sharing_context<T>(context: cl_context) -> CLResult<T> {
    Obj::<Context>::get(context)?;
    err(
        CL_INVALID_CONTEXT,
        "the context was not created for graphics-API sharing",
    )
}

/// An object (memory object or event) made from a graphics-API object:
/// NULL, and `errcode_ret` from [`no_sharing_context`].
///
/// # Safety
/// `errcode_ret` is NULL or points at a writable `cl_int`.
unsafe fn from_shared<T>(context: cl_context, errcode_ret: *mut cl_int) -> *mut T {
    // SAFETY: the caller's promise above, passed on.
    unsafe { api_create(errcode_ret, ptr::null_mut(), || no_sharing_context(context)) }
}

/// Acquire/release commands: the queue's context has no sharing.
fn no_sharing_queue<T>(queue: cl_command_queue) -> CLResult<T> {
    Obj::<Queue>::get(queue)?;
    err(
        CL_INVALID_CONTEXT,
        "the queue's context was not created for graphics-API sharing",
    )
}

/// Object queries: no memory object is backed by a GL object.
fn no_gl_object<T>(memobj: cl_mem) -> CLResult<T> {
    Obj::<Mem>::get(memobj)?;
    err(CL_INVALID_GL_OBJECT, "the memory object has no GL object")
}

/// Device lookups by D3D/DX9 object, checked in the extension's order:
/// CL_INVALID_PLATFORM; CL_INVALID_VALUE if the source/adapter type or the
/// device set is not a valid value, or num_entries is 0 and devices is not
/// NULL, or both devices and num_devices are NULL; then CL_DEVICE_NOT_FOUND,
/// since no device corresponds to a Direct3D object.
fn no_d3d_device<T>(
    platform: cl_platform_id,
    source_ok: bool,
    set_ok: bool,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> CLResult<T> {
    super::platform::platform_or_default(platform)?;
    check(
        source_ok,
        CL_INVALID_VALUE,
        "invalid Direct3D device source or adapter type",
    )?;
    check(set_ok, CL_INVALID_VALUE, "invalid device set")?;
    ListOut::new(num_entries, devices, num_devices)?;
    err(
        CL_DEVICE_NOT_FOUND,
        "no device corresponds to the Direct3D object",
    )
}

/// `clGetGLObjectInfo` and `clGetGLTextureInfo`.
fn gl_object_info<P>(memobj: cl_mem, _param: P, _out: InfoOut) -> CLResult<()> {
    no_gl_object(memobj)
}

/// `clGetGLContextInfoKHR`: no context is ever shared with GL.
fn gl_context_info(
    _properties: *const cl_context_properties,
    _param: cl_gl_context_info,
    _out: InfoOut,
) -> CLResult<()> {
    err(CL_INVALID_OPERATION, "cl_khr_gl_sharing is not supported")
}

// Objects from a GL/D3D/DX9/EGL object: the context has no sharing.
entry_family! {
    (context: cl_context, flags: cl_mem_flags, object: cl_GLuint, errcode_ret: *mut cl_int)
        -> cl_mem;
    clCreateFromGLBuffer => from_shared(context, errcode_ret);
    clCreateFromGLRenderbuffer => from_shared(context, errcode_ret);
}

entry_family! {
    (
        context: cl_context,
        flags: cl_mem_flags,
        target: cl_GLenum,
        miplevel: cl_GLint,
        texture: cl_GLuint,
        errcode_ret: *mut cl_int,
    ) -> cl_mem;
    clCreateFromGLTexture => from_shared(context, errcode_ret);
    clCreateFromGLTexture2D => from_shared(context, errcode_ret);
    clCreateFromGLTexture3D => from_shared(context, errcode_ret);
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D10BufferKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D10Buffer_ptr,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D10Texture2DKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D10Texture2D_ptr,
    _subresource: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D10Texture3DKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D10Texture3D_ptr,
    _subresource: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D11BufferKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D11Buffer_ptr,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D11Texture2DKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D11Texture2D_ptr,
    _subresource: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromD3D11Texture3DKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _resource: ID3D11Texture3D_ptr,
    _subresource: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromDX9MediaSurfaceKHR(
    context: cl_context,
    _flags: cl_mem_flags,
    _adapter_type: cl_dx9_media_adapter_type_khr,
    _surface_info: *mut c_void,
    _plane: cl_uint,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateFromEGLImageKHR(
    context: cl_context,
    _egldisplay: CLeglDisplayKHR,
    _eglimage: CLeglImageKHR,
    _flags: cl_mem_flags,
    _properties: *const cl_egl_image_properties_khr,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    from_shared(context, errcode_ret)
}

// Events from a GL or EGL sync object: the context has no sharing.
#[no_mangle]
pub unsafe extern "C" fn clCreateEventFromGLsyncKHR(
    context: cl_context,
    _sync: cl_GLsync,
    errcode_ret: *mut cl_int,
) -> cl_event {
    from_shared(context, errcode_ret)
}

#[no_mangle]
pub unsafe extern "C" fn clCreateEventFromEGLSyncKHR(
    context: cl_context,
    _sync: CLeglSyncKHR,
    _display: CLeglDisplayKHR,
    errcode_ret: *mut cl_int,
) -> cl_event {
    from_shared(context, errcode_ret)
}

info_entry_points! {
    fn clGetGLTextureInfo(memobj: cl_mem, param_name: cl_gl_texture_info) = gl_object_info;
    fn clGetGLContextInfoKHR(
        properties: *const cl_context_properties,
        param_name: cl_gl_context_info,
    ) = gl_context_info;
}

#[no_mangle]
pub unsafe extern "C" fn clGetGLObjectInfo(
    memobj: cl_mem,
    _gl_object_type: *mut cl_gl_object_type,
    _gl_object_name: *mut cl_GLuint,
) -> cl_int {
    api_call(|| no_gl_object(memobj))
}

// The acquire and release commands of every sharing extension: one
// signature, and the queue's context has no sharing.
entry_family! {
    (
        command_queue: cl_command_queue,
        num_objects: cl_uint,
        mem_objects: *const cl_mem,
        num_events_in_wait_list: cl_uint,
        event_wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int;
    clEnqueueAcquireGLObjects => api_call(|| no_sharing_queue(command_queue));
    clEnqueueReleaseGLObjects => api_call(|| no_sharing_queue(command_queue));
    clEnqueueAcquireD3D10ObjectsKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueReleaseD3D10ObjectsKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueAcquireD3D11ObjectsKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueReleaseD3D11ObjectsKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueAcquireDX9MediaSurfacesKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueReleaseDX9MediaSurfacesKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueAcquireEGLObjectsKHR => api_call(|| no_sharing_queue(command_queue));
    clEnqueueReleaseEGLObjectsKHR => api_call(|| no_sharing_queue(command_queue));
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDsFromD3D10KHR(
    platform: cl_platform_id,
    d3d_device_source: cl_d3d10_device_source_khr,
    _d3d_object: *mut c_void,
    d3d_device_set: cl_d3d10_device_set_khr,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    let source_ok = [CL_D3D10_DEVICE_KHR, CL_D3D10_DXGI_ADAPTER_KHR].contains(&d3d_device_source);
    let set_ok = [
        CL_PREFERRED_DEVICES_FOR_D3D10_KHR,
        CL_ALL_DEVICES_FOR_D3D10_KHR,
    ]
    .contains(&d3d_device_set);
    api_call(|| {
        no_d3d_device(
            platform,
            source_ok,
            set_ok,
            num_entries,
            devices,
            num_devices,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDsFromD3D11KHR(
    platform: cl_platform_id,
    d3d_device_source: cl_d3d11_device_source_khr,
    _d3d_object: *mut c_void,
    d3d_device_set: cl_d3d11_device_set_khr,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    let source_ok = [CL_D3D11_DEVICE_KHR, CL_D3D11_DXGI_ADAPTER_KHR].contains(&d3d_device_source);
    let set_ok = [
        CL_PREFERRED_DEVICES_FOR_D3D11_KHR,
        CL_ALL_DEVICES_FOR_D3D11_KHR,
    ]
    .contains(&d3d_device_set);
    api_call(|| {
        no_d3d_device(
            platform,
            source_ok,
            set_ok,
            num_entries,
            devices,
            num_devices,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDsFromDX9MediaAdapterKHR(
    platform: cl_platform_id,
    num_media_adapters: cl_uint,
    media_adapter_type: *mut cl_dx9_media_adapter_type_khr,
    media_adapters: *mut c_void,
    media_adapter_set: cl_dx9_media_adapter_set_khr,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    // CL_INVALID_VALUE if num_media_adapters is 0, media_adapter_type or
    // media_adapters is NULL, or a media_adapter_type value is not valid.
    let types_ok = num_media_adapters > 0
        && !media_adapter_type.is_null()
        && !media_adapters.is_null()
        // SAFETY: num_media_adapters entries at a non-NULL media_adapter_type
        // (the extension's contract with the caller).
        && unsafe { std::slice::from_raw_parts(media_adapter_type, num_media_adapters as usize) }
            .iter()
            .all(|t| [CL_ADAPTER_D3D9_KHR, CL_ADAPTER_D3D9EX_KHR, CL_ADAPTER_DXVA_KHR].contains(t));
    let set_ok = [
        CL_PREFERRED_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR,
        CL_ALL_DEVICES_FOR_DX9_MEDIA_ADAPTER_KHR,
    ]
    .contains(&media_adapter_set);
    api_call(|| {
        no_d3d_device(
            platform,
            types_ok,
            set_ok,
            num_entries,
            devices,
            num_devices,
        )
    })
}
