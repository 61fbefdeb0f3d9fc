//! Memory objects: buffers, sub-buffers, info, destructor callbacks; pipes
//! (the device does not support them: the spec's errors for that case).
//! Images are created in `image`.
//!
//! Each entry point checks its arguments in the order the spec lists the
//! errors, the spec's sentence above each check, then asks `core::mem` for
//! the object.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::{Context, UserData};
use crate::core::device::{device, MEM_BASE_ADDR_ALIGN};
use crate::core::mem::{
    Mem, MemDestructorFn, Store, ACCESS_FLAGS, HOST_ACCESS_FLAGS, HOST_PTR_FLAGS,
};

/// Every flag the memory-flags table defines. `CL_MEM_KERNEL_READ_AND_WRITE`
/// is in the table, so a memory object may be created with it; it asks for
/// nothing there ("only used by clGetSupportedImageFormats"; to create a
/// memory object that kernels read and write, `CL_MEM_READ_WRITE`, the
/// default), is in no mutually exclusive group, and is kept in
/// `CL_MEM_FLAGS` as given. Rusticl accepts it likewise, and piglit's
/// `clCreateBuffer` test passes it with every other flag.
const MEM_FLAGS: cl_mem_flags =
    ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE;

/// A memory object that an object of `context` (a queue's command, a
/// kernel's argument) uses; `what` names it in messages.
pub(crate) fn mem_in_context(
    context: &Arc<Obj<Context>>,
    memobj: cl_mem,
    what: &str,
) -> CLResult<Arc<Obj<Mem>>> {
    // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
    let mem = Obj::<Mem>::get(memobj)
        .map_err(|e| ClError::new(e.code, format!("{what}: {}", e.message)))?;
    // CL_INVALID_CONTEXT if the context associated with memobj is not the one
    // of the object using it.
    if !Arc::ptr_eq(mem.context(), context) {
        return err(
            CL_INVALID_CONTEXT,
            format!("{what} belongs to another context"),
        );
    }
    Ok(mem)
}

/// More than one bit of `set` is in `flags`.
fn several(flags: cl_mem_flags, set: cl_mem_flags) -> bool {
    (flags & set).count_ones() > 1
}

/// The rules of the memory-flags table: known bits only, and the mutually
/// exclusive groups.
pub(crate) fn check_mem_flags(flags: cl_mem_flags) -> CLResult<()> {
    // CL_INVALID_VALUE if values specified in flags are not valid as defined
    // in the Memory Flags table.
    check(
        flags & !MEM_FLAGS == 0,
        CL_INVALID_VALUE,
        "unknown bits in flags",
    )?;
    // CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY and CL_MEM_READ_ONLY are mutually exclusive.
    check(
        !several(flags, ACCESS_FLAGS),
        CL_INVALID_VALUE,
        "READ_WRITE, WRITE_ONLY and READ_ONLY are mutually exclusive",
    )?;
    // CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR are each mutually
    // exclusive with CL_MEM_USE_HOST_PTR.
    check(
        !(flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0),
        CL_INVALID_VALUE,
        "USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR",
    )?;
    // CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY and CL_MEM_HOST_NO_ACCESS
    // are mutually exclusive.
    check(
        !several(flags, HOST_ACCESS_FLAGS),
        CL_INVALID_VALUE,
        "HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS are mutually exclusive",
    )
}

/// The `properties` of `clCreate*WithProperties`: OpenCL 3.0 defines no
/// property for memory objects, so only NULL or an empty list is valid.
/// Returns the list to answer `CL_MEM_PROPERTIES` with.
pub(crate) fn mem_properties(
    properties: *const cl_mem_properties,
) -> CLResult<Option<Vec<cl_mem_properties>>> {
    if properties.is_null() {
        return Ok(None);
    }
    // SAFETY: a non-NULL list has at least its terminating 0 (the spec's
    // contract); we read only the first entry.
    let first = unsafe { properties.read() };
    // CL_INVALID_PROPERTY if a property name in properties is not a supported
    // property name.
    if first != 0 {
        return err(
            CL_INVALID_PROPERTY,
            format!("unsupported memory property {first:#x}"),
        );
    }
    Ok(Some(vec![0]))
}

fn create_buffer(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> CLResult<cl_mem> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let context = Obj::<Context>::get(context)?;
    // CL_INVALID_PROPERTY if a property name in properties is not a supported
    // property name, ...
    let properties = mem_properties(properties)?;
    // CL_INVALID_VALUE if values specified in flags are not valid.
    check_mem_flags(flags)?;
    // CL_INVALID_BUFFER_SIZE if size is zero, or if size is greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context.
    check(size != 0, CL_INVALID_BUFFER_SIZE, "size is 0")?;
    check(
        size as u64 <= device().max_mem_alloc_size(),
        CL_INVALID_BUFFER_SIZE,
        "size is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
    )?;
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags, or if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    check(
        wants_ptr != host_ptr.is_null(),
        CL_INVALID_HOST_PTR,
        if wants_ptr {
            "host_ptr is NULL with USE_HOST_PTR or COPY_HOST_PTR"
        } else {
            "host_ptr given without USE_HOST_PTR or COPY_HOST_PTR"
        },
    )?;
    // CL_INVALID_BUFFER_SIZE if CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
    // is set in flags, and host_ptr is a pointer returned by clSVMAlloc, and
    // size is greater than the size passed to clSVMAlloc (a pointer inside
    // an allocation: the bytes from there to its end).
    if let Some(svm) = wants_ptr
        .then(|| context.svm().find(host_ptr as usize))
        .flatten()
    {
        check(
            svm.holds(host_ptr as usize, size),
            CL_INVALID_BUFFER_SIZE,
            &format!(
                "size {size} runs past the end of the SVM allocation host_ptr points into ({} bytes)",
                svm.size()
            ),
        )?;
    }
    let store = if flags & CL_MEM_USE_HOST_PTR != 0 {
        Store::Use(host_ptr as *mut u8)
    } else if flags & CL_MEM_COPY_HOST_PTR != 0 {
        Store::CopyFrom(host_ptr as *const u8)
    } else {
        Store::Alloc
    };
    // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate
    // memory for the buffer object (from `new_buffer`).
    // SAFETY: the spec makes the user guarantee `size` bytes at host_ptr,
    // readable for COPY_HOST_PTR, and usable for the buffer's life for
    // USE_HOST_PTR.
    let mem = unsafe { Mem::new_buffer(context, flags, size, store, properties)? };
    Ok(Obj::into_handle(mem))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: size_t,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_buffer(context, ptr::null(), flags, size, host_ptr)
    })
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
    api_create(errcode_ret, ptr::null_mut(), || {
        create_buffer(context, properties, flags, size, host_ptr)
    })
}

/// The flags of a sub-buffer: the given ones, checked against the parent's,
/// with the parent's access, host-pointer and host-access flags inherited
/// where none is given.
fn sub_buffer_flags(parent: cl_mem_flags, flags: cl_mem_flags) -> CLResult<cl_mem_flags> {
    check_mem_flags(flags)?;
    // CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags
    // specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was
    // created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
    // CL_MEM_WRITE_ONLY.
    let conflicts = [
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY),
        (CL_MEM_READ_ONLY, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY),
        // CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY
        // and flags specify CL_MEM_HOST_READ_ONLY, or with
        // CL_MEM_HOST_READ_ONLY and flags specify CL_MEM_HOST_WRITE_ONLY, or
        // with CL_MEM_HOST_NO_ACCESS and flags specify CL_MEM_HOST_READ_ONLY
        // or CL_MEM_HOST_WRITE_ONLY.
        (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY),
        (CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY),
        (
            CL_MEM_HOST_NO_ACCESS,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
        ),
    ];
    for (had, forbidden) in conflicts {
        check(
            !(parent & had != 0 && flags & forbidden != 0),
            CL_INVALID_VALUE,
            "flags conflict with the parent buffer's",
        )?;
    }
    // CL_INVALID_VALUE if flags specifies CL_MEM_USE_HOST_PTR or
    // CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR.
    check(
        flags & HOST_PTR_FLAGS == 0,
        CL_INVALID_VALUE,
        "host pointer flags cannot be given to a sub-buffer",
    )?;
    let inherit = |group: cl_mem_flags| {
        if flags & group != 0 {
            flags & group
        } else {
            parent & group
        }
    };
    Ok(inherit(ACCESS_FLAGS) | (parent & HOST_PTR_FLAGS) | inherit(HOST_ACCESS_FLAGS))
}

fn create_sub_buffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    create_type: cl_buffer_create_type,
    create_info: *const c_void,
) -> CLResult<cl_mem> {
    // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a
    // sub-buffer object.
    let parent = Obj::<Mem>::get(buffer)?;
    check(
        parent.parent().is_none(),
        CL_INVALID_MEM_OBJECT,
        "buffer is a sub-buffer",
    )?;
    let flags = sub_buffer_flags(parent.flags(), flags)?;
    // CL_INVALID_VALUE if the value specified in buffer_create_type is not valid.
    check(
        create_type == CL_BUFFER_CREATE_TYPE_REGION,
        CL_INVALID_VALUE,
        "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION",
    )?;
    // CL_INVALID_VALUE if buffer_create_info is NULL.
    check(
        !create_info.is_null(),
        CL_INVALID_VALUE,
        "buffer_create_info is NULL",
    )?;
    // SAFETY: for CL_BUFFER_CREATE_TYPE_REGION, a non-NULL buffer_create_info
    // points at a cl_buffer_region (the spec's contract); read unaligned in
    // case the caller's struct is packed.
    let region = unsafe { (create_info as *const cl_buffer_region).read_unaligned() };
    // CL_INVALID_VALUE if the region specified by the cl_buffer_region
    // structure passed in buffer_create_info is out of bounds in buffer.
    let end = region.origin.checked_add(region.size);
    check(
        end.is_some_and(|end| end <= parent.size()),
        CL_INVALID_VALUE,
        "the region is out of bounds of the buffer",
    )?;
    // CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region
    // structure passed in buffer_create_info is zero.
    check(region.size != 0, CL_INVALID_BUFFER_SIZE, "region size is 0")?;
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context
    // associated with buffer for which the origin field of the
    // cl_buffer_region structure passed in buffer_create_info is aligned to
    // the CL_DEVICE_MEM_BASE_ADDR_ALIGN value.
    if region.origin % MEM_BASE_ADDR_ALIGN != 0 {
        return err(
            CL_MISALIGNED_SUB_BUFFER_OFFSET,
            format!(
                "origin {} is not a multiple of {MEM_BASE_ADDR_ALIGN} bytes",
                region.origin
            ),
        );
    }
    let sub = Mem::new_sub_buffer(&parent, flags, region.origin, region.size);
    Ok(Obj::into_handle(sub))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    buffer_create_type: cl_buffer_create_type,
    buffer_create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_sub_buffer(buffer, flags, buffer_create_type, buffer_create_info)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainMemObject(memobj: cl_mem) -> cl_int {
    // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
    api_call(|| Obj::<Mem>::retain(memobj))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseMemObject(memobj: cl_mem) -> cl_int {
    // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object. The
    // object is freed (destructor callbacks, then its store) when the last
    // internal reference, held by a command or a sub-buffer, goes too.
    api_call(|| Obj::<Mem>::release(memobj).map(drop))
}

fn mem_object_info(memobj: cl_mem, param: cl_mem_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object.
    let mem = Obj::<Mem>::get(memobj)?;
    match param {
        CL_MEM_TYPE => out.value::<cl_mem_object_type>(
            mem.image().map_or(CL_MEM_OBJECT_BUFFER, |i| i.image_type),
        ),
        CL_MEM_FLAGS => out.value::<cl_mem_flags>(mem.flags()),
        CL_MEM_SIZE => out.value::<usize>(mem.size()),
        CL_MEM_HOST_PTR => out.value(mem.host_ptr()),
        CL_MEM_MAP_COUNT => out.value::<cl_uint>(mem.map_count()),
        CL_MEM_REFERENCE_COUNT => out.value::<cl_uint>(mem.ref_count()),
        CL_MEM_CONTEXT => out.value(Obj::handle(mem.context())),
        // A 1D image buffer's is its buffer (its store is a window on the
        // buffer's root, at offset 0 of the buffer).
        CL_MEM_ASSOCIATED_MEMOBJECT => out.value(
            mem.image()
                .and_then(|i| i.buffer.as_ref())
                .or(mem.parent())
                .map_or(ptr::null_mut(), Obj::handle),
        ),
        CL_MEM_OFFSET => out.value::<usize>(if mem.image().is_some() {
            0
        } else {
            mem.offset()
        }),
        // CL_TRUE if memobj is a buffer object (or a sub-buffer of one)
        // that was created with CL_MEM_USE_HOST_PTR on an SVM pointer.
        CL_MEM_USES_SVM_POINTER => {
            let root = mem.root();
            out.boolean(
                root.flags() & CL_MEM_USE_HOST_PTR != 0
                    && mem.context().svm().find(root.host_ptr() as usize).is_some(),
            )
        }
        CL_MEM_PROPERTIES => out.slice(mem.properties().unwrap_or(&[])),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(CL_INVALID_VALUE, format!("unknown cl_mem_info {param:#x}")),
    }
}

info_entry_points! {
    fn clGetMemObjectInfo(memobj: cl_mem, param_name: cl_mem_info) = mem_object_info;
}

#[no_mangle]
pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    memobj: cl_mem,
    pfn_notify: Option<MemDestructorFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
        let mem = Obj::<Mem>::get(memobj)?;
        // CL_INVALID_VALUE if pfn_notify is NULL.
        let Some(f) = pfn_notify else {
            return err(CL_INVALID_VALUE, "pfn_notify is NULL");
        };
        mem.add_destructor(f, UserData(user_data));
        Ok(())
    })
}

// ---------------------------------------------------------------------------
// Pipes: not supported by the device (CL_DEVICE_PIPE_SUPPORT is false).

#[no_mangle]
pub unsafe extern "C" fn clCreatePipe(
    context: cl_context,
    _flags: cl_mem_flags,
    _pipe_packet_size: cl_uint,
    _pipe_max_packets: cl_uint,
    _properties: *const cl_pipe_properties,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    api_create(errcode_ret, ptr::null_mut(), || {
        // CL_INVALID_CONTEXT if context is not a valid context.
        Obj::<Context>::get(context)?;
        // CL_INVALID_OPERATION if no devices in context support pipes.
        err(
            CL_INVALID_OPERATION,
            "no device in the context supports pipes",
        )
    })
}

fn pipe_info(pipe: cl_mem, _param: cl_pipe_info, _out: InfoOut) -> CLResult<()> {
    // CL_INVALID_MEM_OBJECT if pipe is not a valid pipe object: every memory
    // object here is a buffer.
    Obj::<Mem>::get(pipe)?;
    err(CL_INVALID_MEM_OBJECT, "not a pipe object")
}

info_entry_points! {
    fn clGetPipeInfo(pipe: cl_mem, param_name: cl_pipe_info) = pipe_info;
}
