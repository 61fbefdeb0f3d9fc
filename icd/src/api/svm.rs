//! Shared virtual memory entry points: `clSVMAlloc`, `clSVMFree`,
//! `clSetKernelArgSVMPointer` and the SVM commands (`clEnqueueSVMFree`,
//! `Memcpy`, `MemFill`, `Map`, `Unmap`, `MigrateMem`); `clSetKernelExecInfo`
//! is with the other kernel calls in `kernel`.
//!
//! Host and device share one address space (`core::svm`), so no command
//! moves data between copies: a copy or fill touches the bytes themselves,
//! and map, unmap and migrate only order (they are events like the others,
//! with wait lists, and hold the allocations they name until they complete).
//! Each command checks its arguments in the order of the spec's error list,
//! then becomes a work closure for `exec`, as the buffer commands do.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::{Context, UserData};
use crate::core::device::device;
use crate::core::kernel::{ArgValue, Kernel};
use crate::core::queue::Queue;
use crate::core::svm::{self, Svm};
use crate::core::transfer::{self, ranges_overlap, Pattern, SendPtr};
use crate::exec::{self, validate_wait_list, Kind, Replay};
use cranecl_jit::launch::ArgKind;

/// Transfers up to this many bytes run inline (as the buffer commands').
const SMALL_TRANSFER: usize = 64 << 10;

fn kind_for(bytes: usize) -> Kind {
    if bytes <= SMALL_TRANSFER {
        Kind::Small
    } else {
        Kind::Command
    }
}

fn svm_alloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> CLResult<*mut c_void> {
    // clSVMAlloc will fail if context is not a valid context (no device of
    // ours lacks SVM).
    let ctx = Obj::<Context>::get(context)?;
    // ... if values specified in flags do not follow the rules of the SVM
    // Memory Flags table, or are not valid: READ_WRITE, WRITE_ONLY and
    // READ_ONLY are mutually exclusive.
    let access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    let known = access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    check(
        flags & !known == 0,
        CL_INVALID_VALUE,
        &format!("unknown bits in clSVMAlloc flags {flags:#x}"),
    )?;
    check(
        (flags & access).count_ones() <= 1,
        CL_INVALID_VALUE,
        "READ_WRITE, WRITE_ONLY and READ_ONLY are mutually exclusive",
    )?;
    // ... if flags does not contain CL_MEM_SVM_FINE_GRAIN_BUFFER but does
    // contain CL_MEM_SVM_ATOMICS.
    check(
        flags & CL_MEM_SVM_ATOMICS == 0 || flags & CL_MEM_SVM_FINE_GRAIN_BUFFER != 0,
        CL_INVALID_VALUE,
        "CL_MEM_SVM_ATOMICS needs CL_MEM_SVM_FINE_GRAIN_BUFFER",
    )?;
    // ... if size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE.
    check(size != 0, CL_INVALID_BUFFER_SIZE, "size is 0")?;
    check(
        size as u64 <= device().max_mem_alloc_size(),
        CL_INVALID_BUFFER_SIZE,
        "size is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE",
    )?;
    // ... if alignment is not a power of two or the implementation cannot
    // support it (0: the largest data type, long16).
    let align = alignment as usize;
    check(
        align == 0 || (align.is_power_of_two() && align <= svm::MAX_ALIGN),
        CL_INVALID_VALUE,
        &format!(
            "alignment {align} is not a power of two up to {}",
            svm::MAX_ALIGN
        ),
    )?;
    // ... if there was a failure to allocate resources.
    match ctx.svm().alloc(flags, size, align.max(svm::DEFAULT_ALIGN)) {
        Some(p) => Ok(p as *mut c_void),
        None => err(
            CL_OUT_OF_HOST_MEMORY,
            format!("cannot allocate {size} bytes of SVM"),
        ),
    }
}

/// `clSVMAlloc`: the allocation's pointer, or NULL on any error (the words
/// reach the context's notify callback, and stderr with `CRANECL_LOG=1`).
#[no_mangle]
pub unsafe extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: size_t,
    alignment: cl_uint,
) -> *mut c_void {
    // SAFETY: no errcode_ret: a NULL out-pointer.
    unsafe {
        api_create(ptr::null_mut(), ptr::null_mut(), || {
            svm_alloc(context, flags, size, alignment)
        })
    }
}

#[no_mangle]
pub unsafe extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    api_call(|| {
        // If a NULL pointer is passed in svm_pointer, no action occurs.
        if svm_pointer.is_null() {
            return Ok(());
        }
        let ctx = Obj::<Context>::get(context)?;
        // svm_pointer must be the value returned by a call to clSVMAlloc
        // (anything else is undefined: nothing is freed, and the words say
        // why).
        check(
            ctx.svm().free(svm_pointer as usize),
            CL_INVALID_VALUE,
            &format!("clSVMFree: {svm_pointer:?} was not returned by clSVMAlloc in this context"),
        )
    });
}

fn set_kernel_arg_svm_pointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> CLResult<()> {
    // CL_INVALID_KERNEL if kernel is not a valid kernel object.
    let k = Obj::<Kernel>::get(kernel)?;
    // CL_INVALID_ARG_INDEX if arg_index is not a valid argument index.
    let i = arg_index as usize;
    let Some(arg) = k.info().args.get(i) else {
        return err(
            CL_INVALID_ARG_INDEX,
            format!(
                "argument index {arg_index}, kernel '{}' has {} arguments",
                k.info().name,
                k.info().args.len()
            ),
        );
    };
    // CL_INVALID_ARG_VALUE if arg_value specified is not a valid value: the
    // SVM pointer can only be used for arguments that are declared to be a
    // pointer to global or constant memory. Any address is valid there
    // (fine-grain system SVM), NULL included.
    check(
        matches!(arg.kind, ArgKind::GlobalPtr | ArgKind::ConstantPtr),
        CL_INVALID_ARG_VALUE,
        &format!(
            "argument {i} ('{}' of type {}) is not a pointer to global or constant memory",
            arg.name, arg.type_name
        ),
    )?;
    k.set_arg(i, ArgValue::Svm(arg_value as usize));
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> cl_int {
    api_call(|| set_kernel_arg_svm_pointer(kernel, arg_index, arg_value))
}

/// The `pfn_free_func` of `clEnqueueSVMFree`.
pub type SvmFreeFn = unsafe extern "C" fn(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    user_data: *mut c_void,
);

/// CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
/// command-queue. (CL_INVALID_OPERATION if the device does not support SVM:
/// it does.)
fn queue(command_queue: cl_command_queue) -> CLResult<Arc<Obj<Queue>>> {
    Obj::get(command_queue)
}

/// The SVM allocation of the queue's context that holds `[ptr, ptr + size)`
/// (kept by the command), or none when `ptr` lies outside them all (the
/// host's own memory: fine-grain system SVM). A range that starts in an
/// allocation and runs past its end is CL_INVALID_VALUE: the bytes past it
/// are not the program's (the buffer commands' rule for their regions).
fn svm_range(q: &Queue, ptr: usize, size: usize, what: &str) -> CLResult<Option<Arc<Svm>>> {
    let Some(s) = q.context().svm().find(ptr) else {
        return Ok(None);
    };
    check(
        s.holds(ptr, size),
        CL_INVALID_VALUE,
        &format!(
            "{what}: {size} bytes at byte {} of an SVM allocation of {} bytes run past its end",
            ptr - s.base(),
            s.size()
        ),
    )?;
    Ok(Some(s))
}

/// Enqueue an SVM command whose work is `work`.
#[allow(clippy::too_many_arguments)]
fn enqueue(
    q: &Arc<Obj<Queue>>,
    command_type: cl_command_type,
    wait: &[Arc<Obj<crate::core::event::Event>>],
    event: *mut cl_event,
    blocking: cl_bool,
    kind: Kind,
    work: impl FnOnce() -> CLResult<()> + Send + 'static,
) -> CLResult<()> {
    exec::enqueue_command(
        q,
        command_type,
        wait,
        event,
        blocking != CL_FALSE,
        kind,
        Some(exec::Work::call(work)),
    )
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_free(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<SvmFreeFn>,
    user_data: *mut c_void,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
    // non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0.
    check(
        (num_svm_pointers == 0) == svm_pointers.is_null(),
        CL_INVALID_VALUE,
        "svm_pointers and num_svm_pointers disagree",
    )?;
    let ptrs: Vec<usize> = if svm_pointers.is_null() {
        Vec::new()
    } else {
        // SAFETY: the user gave num_svm_pointers pointers (the spec's
        // contract); copied now, the user may reuse the array at return.
        unsafe { std::slice::from_raw_parts(svm_pointers, num_svm_pointers as usize) }
            .iter()
            .map(|&p| p as usize)
            .collect()
    };
    // If pfn_free_func is NULL, all pointers must be allocated using
    // clSVMAlloc (the spec names no code; CL_INVALID_VALUE, as for a bad
    // pointer argument, rather than freeing what is not ours).
    if pfn_free_func.is_none() {
        if let Some(p) = ptrs
            .iter()
            .find(|&&p| p != 0 && q.context().svm().starting_at(p).is_none())
        {
            return err(
                CL_INVALID_VALUE,
                format!(
                    "{:#x} was not returned by clSVMAlloc in this context, and no pfn_free_func frees it",
                    p
                ),
            );
        }
    }
    let wait = validate_wait_list(q.context(), num_events, wait_list)?;
    let ctx = q.context().clone();
    let handle = UserData(Obj::handle(&q));
    let data = UserData(user_data);
    enqueue(
        &q,
        CL_COMMAND_SVM_FREE,
        &wait,
        event,
        CL_FALSE,
        Kind::Command,
        move || {
            // Whole values into the closure (not their raw-pointer fields).
            let (handle, data) = (handle, data);
            match pfn_free_func {
                Some(f) => {
                    let mut list: Vec<*mut c_void> =
                        ptrs.iter().map(|&p| p as *mut c_void).collect();
                    let list_ptr = if list.is_empty() {
                        ptr::null_mut()
                    } else {
                        list.as_mut_ptr()
                    };
                    // SAFETY: the user's callback with the spec's signature:
                    // the queue (alive: its command runs), our copy of the
                    // pointers, and the user's data.
                    unsafe {
                        f(
                            handle.0 as cl_command_queue,
                            list.len() as cl_uint,
                            list_ptr,
                            data.0,
                        )
                    };
                }
                None => {
                    for p in ptrs.into_iter().filter(|&p| p != 0) {
                        ctx.svm().free(p);
                    }
                }
            }
            Ok(())
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMFree(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    pfn_free_func: Option<SvmFreeFn>,
    user_data: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_svm_free(
            command_queue,
            num_svm_pointers,
            svm_pointers,
            pfn_free_func,
            user_data,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_memcpy(
    command_queue: cl_command_queue,
    blocking: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let work = svm_memcpy_work(&q, dst_ptr, src_ptr, size)?;
    let wait = validate_wait_list(q.context(), num_events, wait_list)?;
    enqueue(
        &q,
        CL_COMMAND_SVM_MEMCPY,
        &wait,
        event,
        blocking,
        kind_for(size),
        move || work(),
    )
}

/// The checks of `clEnqueueSVMMemcpy` on its values, and the copy (for a
/// queue of `q`'s context, or `clCommandSVMMemcpyKHR`).
pub fn svm_memcpy_work(
    q: &Queue,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
) -> CLResult<Replay> {
    // CL_INVALID_VALUE if dst_ptr or src_ptr is NULL.
    check(!dst_ptr.is_null(), CL_INVALID_VALUE, "dst_ptr is NULL")?;
    check(!src_ptr.is_null(), CL_INVALID_VALUE, "src_ptr is NULL")?;
    let (dst, src) = (dst_ptr as usize, src_ptr as usize);
    let keep = [
        svm_range(q, dst, size, "dst_ptr")?,
        svm_range(q, src, size, "src_ptr")?,
    ];
    // CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and
    // size result in an overlapping copy.
    check(
        !ranges_overlap(dst, size, src, size),
        CL_MEM_COPY_OVERLAP,
        "the source and destination regions overlap",
    )?;
    let (d, s) = (
        SendPtr::new(dst_ptr as *mut u8),
        SendPtr::from_const(src_ptr as *const u8),
    );
    Ok(Arc::new(move || {
        // SAFETY: the regions are within their SVM allocations (kept
        // alive by `keep`) or the user's memory, which the user keeps
        // valid until the command completes; they do not overlap.
        unsafe { transfer::copy(d.get(), s.get(), size) };
        let _ = &keep;
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMemcpy(
    command_queue: cl_command_queue,
    blocking_copy: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_svm_memcpy(
            command_queue,
            blocking_copy,
            dst_ptr,
            src_ptr,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_mem_fill(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    let work = svm_mem_fill_work(&q, svm_ptr, pattern, pattern_size, size)?;
    let wait = validate_wait_list(q.context(), num_events, wait_list)?;
    enqueue(
        &q,
        CL_COMMAND_SVM_MEMFILL,
        &wait,
        event,
        CL_FALSE,
        kind_for(size),
        move || work(),
    )
}

/// The checks of `clEnqueueSVMMemFill` on its values, and the fill (for a
/// queue of `q`'s context, or `clCommandSVMMemFillKHR`). The pattern is
/// copied now.
pub fn svm_mem_fill_work(
    q: &Queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
) -> CLResult<Replay> {
    // CL_INVALID_VALUE if svm_ptr is NULL.
    check(!svm_ptr.is_null(), CL_INVALID_VALUE, "svm_ptr is NULL")?;
    // CL_INVALID_VALUE if pattern is NULL.
    check(!pattern.is_null(), CL_INVALID_VALUE, "pattern is NULL")?;
    // CL_INVALID_VALUE if pattern_size is zero, not a power of two, or
    // greater than 128.
    // SAFETY: the user gave pattern_size readable bytes at pattern; copied
    // now (the user may reuse it at return).
    let pat = unsafe { Pattern::new(pattern as *const u8, pattern_size)? };
    // CL_INVALID_VALUE if svm_ptr is not aligned to pattern_size bytes.
    check(
        (svm_ptr as usize).is_multiple_of(pattern_size),
        CL_INVALID_VALUE,
        &format!("svm_ptr is not aligned to pattern_size ({pattern_size} bytes)"),
    )?;
    // CL_INVALID_VALUE if size is not a multiple of pattern_size.
    check(
        size.is_multiple_of(pattern_size),
        CL_INVALID_VALUE,
        &format!("size {size} is not a multiple of pattern_size {pattern_size}"),
    )?;
    let keep = svm_range(q, svm_ptr as usize, size, "svm_ptr")?;
    let dst = SendPtr::new(svm_ptr as *mut u8);
    Ok(Arc::new(move || {
        // SAFETY: the region is within its SVM allocation (kept alive)
        // or the user's memory, valid until the command completes.
        unsafe { pat.fill(dst.get(), size) };
        let _ = &keep;
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMemFill(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: size_t,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_svm_mem_fill(
            command_queue,
            svm_ptr,
            pattern,
            pattern_size,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_map(
    command_queue: cl_command_queue,
    blocking: cl_bool,
    flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    // CL_INVALID_VALUE if svm_ptr is NULL, if size is zero, or if values
    // specified in map_flags are not valid.
    check(!svm_ptr.is_null(), CL_INVALID_VALUE, "svm_ptr is NULL")?;
    check(size != 0, CL_INVALID_VALUE, "size is 0")?;
    let all = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    check(
        flags & !all == 0,
        CL_INVALID_VALUE,
        "unknown bits in map_flags",
    )?;
    // CL_MAP_READ or CL_MAP_WRITE and CL_MAP_WRITE_INVALIDATE_REGION are
    // mutually exclusive.
    check(
        !(flags & CL_MAP_WRITE_INVALIDATE_REGION != 0 && flags & (CL_MAP_READ | CL_MAP_WRITE) != 0),
        CL_INVALID_VALUE,
        "CL_MAP_WRITE_INVALIDATE_REGION excludes CL_MAP_READ and CL_MAP_WRITE",
    )?;
    let keep = svm_range(&q, svm_ptr as usize, size, "svm_ptr")?;
    let wait = validate_wait_list(q.context(), num_events, wait_list)?;
    // The region is already the host's (one address space): the command
    // only orders.
    enqueue(
        &q,
        CL_COMMAND_SVM_MAP,
        &wait,
        event,
        blocking,
        Kind::Small,
        move || {
            drop(keep);
            Ok(())
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMap(
    command_queue: cl_command_queue,
    blocking_map: cl_bool,
    flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_svm_map(
            command_queue,
            blocking_map,
            flags,
            svm_ptr,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMUnmap(
    command_queue: cl_command_queue,
    svm_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        let q = queue(command_queue)?;
        // CL_INVALID_VALUE if svm_ptr is NULL.
        check(!svm_ptr.is_null(), CL_INVALID_VALUE, "svm_ptr is NULL")?;
        let keep = q.context().svm().find(svm_ptr as usize);
        let wait = validate_wait_list(q.context(), num_events_in_wait_list, event_wait_list)?;
        enqueue(
            &q,
            CL_COMMAND_SVM_UNMAP,
            &wait,
            event,
            CL_FALSE,
            Kind::Small,
            move || {
                drop(keep);
                Ok(())
            },
        )
    })
}

#[allow(clippy::too_many_arguments)]
fn enqueue_svm_migrate_mem(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *const c_void,
    sizes: *const usize,
    flags: cl_mem_migration_flags,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    let q = queue(command_queue)?;
    // CL_INVALID_VALUE if num_svm_pointers is zero or svm_pointers is NULL.
    check(
        num_svm_pointers != 0 && !svm_pointers.is_null(),
        CL_INVALID_VALUE,
        "no SVM pointers",
    )?;
    // CL_INVALID_VALUE if flags is not zero and is not a valid combination
    // of the Memory Migration Flags.
    check(
        flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) == 0,
        CL_INVALID_VALUE,
        "unknown bits in flags",
    )?;
    let n = num_svm_pointers as usize;
    // SAFETY: the user gave n pointers, and n sizes if sizes is not NULL.
    let ptrs = unsafe { std::slice::from_raw_parts(svm_pointers, n) };
    let sizes = if sizes.is_null() {
        None
    } else {
        // SAFETY: as above.
        Some(unsafe { std::slice::from_raw_parts(sizes, n) })
    };
    // CL_INVALID_VALUE if sizes[i] is non-zero and the range described by
    // svm_pointers[i] and sizes[i] is not contained within an SVM
    // allocation returned by clSVMAlloc. (With no size, each pointer must
    // still be within one: its whole allocation is migrated.)
    let mut keep = Vec::with_capacity(n);
    for (i, &p) in ptrs.iter().enumerate() {
        let size = sizes.map_or(0, |s| s[i]);
        match q.context().svm().find(p as usize) {
            Some(s) if s.holds(p as usize, size.max(1)) => keep.push(s),
            _ => {
                return err(
                    CL_INVALID_VALUE,
                    format!("svm_pointers[{i}] (with {size} bytes) is not within an SVM allocation of this context"),
                )
            }
        }
    }
    let wait = validate_wait_list(q.context(), num_events, wait_list)?;
    // The device's memory is the host's: the command only orders.
    enqueue(
        &q,
        CL_COMMAND_SVM_MIGRATE_MEM,
        &wait,
        event,
        CL_FALSE,
        Kind::Small,
        move || {
            drop(keep);
            Ok(())
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
    command_queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *const c_void,
    sizes: *const size_t,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_svm_migrate_mem(
            command_queue,
            num_svm_pointers,
            svm_pointers,
            sizes,
            flags,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}
