//! `cl_khr_command_buffer` (0.9.8): creating, recording, finalizing,
//! enqueuing and querying command-buffers (`core::command_buffer` holds
//! them). Found through `clGetExtensionFunctionAddressForPlatform`.
//!
//! Each `clCommand*KHR` makes the checks every recording entry point shares
//! ([`recording`]: the command-buffer, a NULL queue, the Recording state, no
//! properties, no mutable handle), then the checks of its `clEnqueue*` twin
//! with the command-buffer's queue in place of the queue — the same function
//! that builds that command's work (`mem_commands`, `image_commands`, `svm`,
//! `ndrange`) —, then the sync-point wait list, and records the work.
//!
//! On a device without image support no memory object is an image, so the
//! image commands answer `CL_INVALID_MEM_OBJECT`.

#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments)]

use super::image_commands as ic;
use super::mem::mem_in_context;
use super::mem_commands as mc;
use super::ndrange::{kernel_accesses, launch_kernel, plan_launch};
use super::prelude::*;
use crate::core::command_buffer::{self, CommandBuffer};
use crate::core::mem::Mem;
use crate::core::queue::Queue;
use crate::exec::api_check::{Access, Usage};
use crate::exec::{self, Kind, Replay};

/// The queue properties a command-buffer may be enqueued with
/// (`CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR`): the
/// enqueue is one command of the queue, so every host queue property.
pub const SUPPORTED_QUEUE_PROPERTIES: cl_command_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
/// `CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR`: none.
pub const REQUIRED_QUEUE_PROPERTIES: cl_command_queue_properties = 0;
/// `CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR`: recorded kernels may call
/// `printf` (a recorded launch is the same launch); no device-side enqueue
/// (the device has none); simultaneous use is `cl_khr_command_buffer_mutable_dispatch`'s
/// capability, not offered.
pub const CAPABILITIES: cl_device_command_buffer_capabilities_khr =
    CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR;

/// A queue with `properties` may run a command-buffer: nothing outside
/// the supported properties, everything required.
#[allow(clippy::bad_bit_mask)] // REQUIRED_QUEUE_PROPERTIES is 0 today.
fn queue_fits(properties: cl_command_queue_properties) -> bool {
    properties & !SUPPORTED_QUEUE_PROPERTIES == 0
        && properties & REQUIRED_QUEUE_PROPERTIES == REQUIRED_QUEUE_PROPERTIES
}

/// `cl_command_buffer_flags_khr` bits the layered extensions define, which
/// this device does not support (CL_INVALID_PROPERTY, not CL_INVALID_VALUE).
const LAYERED_FLAGS: cl_command_buffer_flags_khr = CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR
    | CL_COMMAND_BUFFER_MUTABLE_KHR
    | CL_COMMAND_BUFFER_DEVICE_SIDE_SYNC_KHR;

/// The properties of `clCreateCommandBufferKHR`, as given (empty for NULL).
fn create_properties(
    properties: *const cl_command_buffer_properties_khr,
) -> CLResult<Vec<cl_command_buffer_properties_khr>> {
    let mut list = Vec::new();
    if properties.is_null() {
        return Ok(list);
    }
    let mut seen_flags = false;
    for i in (0..).step_by(2) {
        // SAFETY: a non-NULL list is 0-terminated, a name before each value.
        let name = unsafe { properties.add(i).read() };
        list.push(name);
        if name == 0 {
            break;
        }
        // SAFETY: as above: a value follows every name.
        let value = unsafe { properties.add(i + 1).read() };
        list.push(value);
        match name {
            CL_COMMAND_BUFFER_FLAGS_KHR => {
                // CL_INVALID_VALUE if the same property name is specified
                // more than once.
                check(
                    !seen_flags,
                    CL_INVALID_VALUE,
                    "CL_COMMAND_BUFFER_FLAGS_KHR is given twice",
                )?;
                seen_flags = true;
                // CL_INVALID_VALUE if values specified in properties are
                // not valid.
                check(
                    value & !LAYERED_FLAGS == 0,
                    CL_INVALID_VALUE,
                    &format!("unknown bits in CL_COMMAND_BUFFER_FLAGS_KHR 0x{value:x}"),
                )?;
                // CL_INVALID_PROPERTY if values specified in properties are
                // valid but are not supported by all the devices.
                check(
                    value == 0,
                    CL_INVALID_PROPERTY,
                    &format!(
                        "CL_COMMAND_BUFFER_FLAGS_KHR 0x{value:x}: simultaneous use, mutable and device-side sync command-buffers are not supported"
                    ),
                )?;
            }
            _ => {
                return err(
                    CL_INVALID_VALUE,
                    format!("unknown command-buffer property 0x{name:x}"),
                )
            }
        }
    }
    Ok(list)
}

fn create_command_buffer(
    num_queues: cl_uint,
    queues: *const cl_command_queue,
    properties: *const cl_command_buffer_properties_khr,
) -> CLResult<cl_command_buffer_khr> {
    // CL_INVALID_VALUE if the cl_khr_command_buffer_multi_device extension
    // is not supported and num_queues is not one.
    check(
        num_queues == 1,
        CL_INVALID_VALUE,
        &format!("num_queues is {num_queues}; it must be 1"),
    )?;
    // CL_INVALID_VALUE if queues is NULL.
    check(!queues.is_null(), CL_INVALID_VALUE, "queues is NULL")?;
    // CL_INVALID_COMMAND_QUEUE if any command-queue in queues is not a valid
    // command-queue. (CL_INVALID_CONTEXT if they do not share a context:
    // there is one.)
    let queues = Obj::<Queue>::get_list(queues, 1)?;
    let properties = create_properties(properties)?;
    Ok(Obj::into_handle(CommandBuffer::new(
        queues.into_vec(),
        properties,
    )))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandBufferKHR(
    num_queues: cl_uint,
    queues: *const cl_command_queue,
    properties: *const cl_command_buffer_properties_khr,
    errcode_ret: *mut cl_int,
) -> cl_command_buffer_khr {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_command_buffer(num_queues, queues, properties)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainCommandBufferKHR(command_buffer: cl_command_buffer_khr) -> cl_int {
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer.
    api_call(|| Obj::<CommandBuffer>::retain(command_buffer))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandBufferKHR(
    command_buffer: cl_command_buffer_khr,
) -> cl_int {
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer. An enqueue still pending holds the commands it runs.
    api_call(|| Obj::<CommandBuffer>::release(command_buffer).map(drop))
}

#[no_mangle]
pub unsafe extern "C" fn clFinalizeCommandBufferKHR(
    command_buffer: cl_command_buffer_khr,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
        // command-buffer.
        let cb = Obj::<CommandBuffer>::get(command_buffer)?;
        // CL_INVALID_OPERATION if command_buffer is not in the Recording state.
        cb.finalize()
    })
}

fn enqueue_command_buffer(
    num_queues: cl_uint,
    queues: *mut cl_command_queue,
    command_buffer: cl_command_buffer_khr,
    num_events: cl_uint,
    wait_list: *const cl_event,
    event: *mut cl_event,
) -> CLResult<()> {
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer.
    let cb = Obj::<CommandBuffer>::get(command_buffer)?;
    // CL_INVALID_OPERATION if command_buffer is not in the Executable state.
    let commands = cb.executable()?;
    // CL_INVALID_VALUE if queues is NULL and num_queues is > 0, or queues is
    // not NULL and num_queues is 0.
    check(
        queues.is_null() == (num_queues == 0),
        CL_INVALID_VALUE,
        "queues and num_queues disagree",
    )?;
    let q = if queues.is_null() {
        cb.queue().clone()
    } else {
        // CL_INVALID_VALUE if num_queues is > 0 and not the same value as
        // num_queues set on command_buffer creation.
        check(
            num_queues as usize == cb.queues().len(),
            CL_INVALID_VALUE,
            &format!(
                "num_queues is {num_queues}; the command-buffer was created with {}",
                cb.queues().len()
            ),
        )?;
        // CL_INVALID_COMMAND_QUEUE if any element of queues is not a valid
        // command-queue.
        let q = Obj::<Queue>::get_list(queues as *const cl_command_queue, 1)?.remove(0);
        // CL_INCOMPATIBLE_COMMAND_QUEUE_KHR if the properties of any
        // command-queue in queues contains a property not specified by
        // CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR, or does not
        // contain those of CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR.
        check(
            queue_fits(q.properties()),
            CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
            &format!(
                "the queue's properties 0x{:x} are not ones a command-buffer runs on",
                q.properties()
            ),
        )?;
        // CL_INVALID_DEVICE if any element of queues does not have the same
        // device as the command-queue set on command_buffer creation at the
        // same list index.
        check(
            Arc::ptr_eq(q.device(), cb.queue().device()),
            CL_INVALID_DEVICE,
            "the queue's device is not the device of the command-buffer's queue",
        )?;
        // CL_INVALID_CONTEXT if any element of queues does not have the same
        // context as the command-queue set on command_buffer creation.
        check(
            Arc::ptr_eq(q.context(), cb.context()),
            CL_INVALID_CONTEXT,
            "the queue's context is not the command-buffer's",
        )?;
        q
    };
    // CL_INVALID_CONTEXT if context associated with command_buffer and events
    // in event_wait_list are not the same. CL_INVALID_EVENT_WAIT_LIST ...
    let wait = exec::validate_wait_list(cb.context(), num_events, wait_list)?;
    let work = exec::Work::call(move || command_buffer::run_all(&commands));
    // Checked mode (`api`): the enqueue uses every buffer its commands use.
    let accesses = if q.context().checks().api {
        cb.accesses()
    } else {
        Vec::new()
    };
    exec::enqueue_using(
        &q,
        CL_COMMAND_COMMAND_BUFFER_KHR,
        &wait,
        event,
        false,
        Kind::Command,
        Some(work),
        accesses,
    )
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCommandBufferKHR(
    num_queues: cl_uint,
    queues: *mut cl_command_queue,
    command_buffer: cl_command_buffer_khr,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        enqueue_command_buffer(
            num_queues,
            queues,
            command_buffer,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// The checks every `clCommand*KHR` starts with, in the spec's order: the
/// command-buffer, the queue (NULL), the Recording state, the properties
/// (none are defined), the mutable handle (NULL).
fn recording(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> CLResult<Arc<Obj<CommandBuffer>>> {
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer.
    let cb = Obj::<CommandBuffer>::get(command_buffer)?;
    // CL_INVALID_COMMAND_QUEUE if the cl_khr_command_buffer_multi_device
    // extension is not supported and command_queue is not NULL.
    check(
        command_queue.is_null(),
        CL_INVALID_COMMAND_QUEUE,
        "command_queue must be NULL (commands go to the command-buffer's queue)",
    )?;
    // CL_INVALID_OPERATION if command_buffer has been finalized.
    cb.check_recording()?;
    // CL_INVALID_VALUE if values specified in properties are not valid: the
    // extension defines none, so only an empty list is.
    // SAFETY: a non-NULL list is 0-terminated; its first entry is readable.
    let first = (!properties.is_null()).then(|| unsafe { properties.read() });
    check(
        first.unwrap_or(0) == 0,
        CL_INVALID_VALUE,
        "no command property is defined",
    )?;
    // CL_INVALID_VALUE if mutable_handle is not NULL.
    check(
        mutable_handle.is_null(),
        CL_INVALID_VALUE,
        "mutable_handle must be NULL (cl_khr_command_buffer_mutable_dispatch is not supported)",
    )?;
    Ok(cb)
}

/// The end of every `clCommand*KHR`: the sync-point wait list
/// (CL_INVALID_SYNC_POINT_WAIT_LIST_KHR), then the command is recorded (with
/// the buffers it uses, for checked mode's `api` rule) and its sync-point
/// written.
fn record(
    cb: &CommandBuffer,
    work: Replay,
    accesses: Vec<Access>,
    num_sync_points: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
) -> CLResult<()> {
    // CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if sync_point_wait_list is NULL
    // and num_sync_points_in_wait_list is > 0, or sync_point_wait_list is not
    // NULL and num_sync_points_in_wait_list is 0, or if synchronization-point
    // objects in sync_point_wait_list are not valid synchronization-points.
    check(
        sync_point_wait_list.is_null() == (num_sync_points == 0),
        CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
        "sync_point_wait_list and num_sync_points_in_wait_list disagree",
    )?;
    let points = if sync_point_wait_list.is_null() {
        &[][..]
    } else {
        // SAFETY: a non-NULL list holds num_sync_points sync-points (the
        // API's contract).
        unsafe { std::slice::from_raw_parts(sync_point_wait_list, num_sync_points as usize) }
    };
    cb.check_sync_points(points)?;
    let point = cb.record(work, accesses)?;
    if !sync_point.is_null() {
        // SAFETY: a non-NULL sync_point points at a cl_sync_point_khr.
        unsafe { sync_point.write(point) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clCommandBarrierWithWaitListKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        // The commands run in recording order, so a barrier (on its wait
        // list, or on every earlier command) is already kept: it does nothing.
        let work: Replay = Arc::new(|| Ok(()));
        record(
            &cb,
            work,
            Vec::new(),
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

/// Checked mode (`api`): the buffers a recorded command uses (none
/// collected without `api`).
struct Uses {
    list: Vec<Access>,
    /// The context checks the `api` rule.
    on: bool,
}

impl Uses {
    fn of(cb: &CommandBuffer) -> Uses {
        Uses {
            list: Vec::new(),
            on: cb.context().checks().api,
        }
    }

    fn add(
        mut self,
        mem: &Arc<Obj<Mem>>,
        offset: usize,
        size: usize,
        usage: Usage,
        what: &str,
    ) -> Uses {
        if self.on {
            self.list.push(Access {
                mem: mem.clone(),
                offset,
                size,
                usage,
                what: what.into(),
            });
        }
        self
    }
}

/// A memory object of the command-buffer's context: CL_INVALID_MEM_OBJECT,
/// or CL_INVALID_CONTEXT if the context associated with command_buffer and
/// the buffer is not the same.
fn buffer_of(
    cb: &CommandBuffer,
    mem: cl_mem,
    what: &str,
) -> CLResult<Arc<Obj<crate::core::mem::Mem>>> {
    let m = mem_in_context(cb.context(), mem, what)?;
    if m.image().is_some() {
        return err(
            CL_INVALID_MEM_OBJECT,
            format!("{what} is an image, not a buffer object"),
        );
    }
    Ok(m)
}

#[no_mangle]
pub unsafe extern "C" fn clCommandCopyBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: size_t,
    dst_offset: size_t,
    size: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let src = buffer_of(&cb, src_buffer, "src_buffer")?;
        let dst = buffer_of(&cb, dst_buffer, "dst_buffer")?;
        let work = mc::copy_buffer_work(&src, &dst, src_offset, dst_offset, size)?;
        let uses = Uses::of(&cb)
            .add(&src, src_offset, size, Usage::Read, "source")
            .add(&dst, dst_offset, size, Usage::Write, "destination");
        record(
            &cb,
            work,
            uses.list,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandCopyBufferRectKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    src_row_pitch: size_t,
    src_slice_pitch: size_t,
    dst_row_pitch: size_t,
    dst_slice_pitch: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let src = buffer_of(&cb, src_buffer, "src_buffer")?;
        let dst = buffer_of(&cb, dst_buffer, "dst_buffer")?;
        let (work, r) = mc::copy_buffer_rect_work(
            &src,
            &dst,
            src_origin,
            dst_origin,
            region,
            [src_row_pitch, src_slice_pitch],
            [dst_row_pitch, dst_slice_pitch],
        )?;
        let [(a, a_size), (b, b_size)] = r.spans();
        let uses = Uses::of(&cb)
            .add(&src, a, a_size, Usage::Read, "source")
            .add(&dst, b, b_size, Usage::Write, "destination");
        record(
            &cb,
            work,
            uses.list,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandFillBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: size_t,
    offset: size_t,
    size: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let mem = buffer_of(&cb, buffer, "buffer")?;
        let work = mc::fill_buffer_work(&mem, pattern, pattern_size, offset, size)?;
        let uses = Uses::of(&cb).add(&mem, offset, size, Usage::Write, "");
        record(
            &cb,
            work,
            uses.list,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

/// An image of the command-buffer's context: CL_INVALID_MEM_OBJECT if it
/// is not a valid image object, CL_INVALID_CONTEXT if its context is not
/// the command-buffer's.
fn image_of(cb: &CommandBuffer, mem: cl_mem, what: &str) -> CLResult<Arc<Obj<Mem>>> {
    let m = mem_in_context(cb.context(), mem, what)?;
    if m.image().is_none() {
        return err(
            CL_INVALID_MEM_OBJECT,
            format!("{what} is not an image object"),
        );
    }
    Ok(m)
}

/// Record an image command whose checks passed, with the spans it uses.
fn record_image(
    cb: &CommandBuffer,
    w: ic::ImageWork,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
) -> CLResult<()> {
    let uses = w.spans.iter().fold(Uses::of(cb), |u, s| {
        u.add(&s.mem, s.offset, s.len, s.usage, s.what)
    });
    record(
        cb,
        w.work,
        uses.list,
        num_sync_points_in_wait_list,
        sync_point_wait_list,
        sync_point,
    )
}

#[no_mangle]
pub unsafe extern "C" fn clCommandCopyBufferToImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let buf = buffer_of(&cb, src_buffer, "src_buffer")?;
        let im = image_of(&cb, dst_image, "dst_image")?;
        let w = ic::copy_image_buffer_work(false, &im, &buf, dst_origin, region, src_offset)?;
        record_image(
            &cb,
            w,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandCopyImageToBufferKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const size_t,
    region: *const size_t,
    dst_offset: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let im = image_of(&cb, src_image, "src_image")?;
        let buf = buffer_of(&cb, dst_buffer, "dst_buffer")?;
        let w = ic::copy_image_buffer_work(true, &im, &buf, src_origin, region, dst_offset)?;
        record_image(
            &cb,
            w,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandCopyImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let src = image_of(&cb, src_image, "src_image")?;
        let dst = image_of(&cb, dst_image, "dst_image")?;
        let w = ic::copy_image_work(&src, &dst, src_origin, dst_origin, region)?;
        record_image(
            &cb,
            w,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandFillImageKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const size_t,
    region: *const size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let im = image_of(&cb, image, "image")?;
        let w = ic::fill_image_work(&im, fill_color, origin, region)?;
        record_image(
            &cb,
            w,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandSVMMemcpyKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let work = super::svm::svm_memcpy_work(cb.queue(), dst_ptr, src_ptr, size)?;
        record(
            &cb,
            work,
            Vec::new(),
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCommandSVMMemFillKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: size_t,
    size: size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let work = super::svm::svm_mem_fill_work(cb.queue(), svm_ptr, pattern, pattern_size, size)?;
        record(
            &cb,
            work,
            Vec::new(),
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

/// `clCommandNDRangeKernelKHR`: the launch is checked as
/// `clEnqueueNDRangeKernel` checks it, and the kernel's state is captured
/// now: a copy of the kernel (`clCloneKernel`'s) keeps the argument values
/// and execution information, so a later `clSetKernelArg` changes nothing
/// recorded; each replay builds its argument block from the copy (with its
/// own checked-mode state), and the memory objects the arguments name are
/// kept alive with the command.
fn command_ndrange_kernel(
    cb: &CommandBuffer,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    local_work_size: *const size_t,
) -> CLResult<(Replay, Vec<Access>)> {
    let q = cb.queue();
    // CL_INVALID_KERNEL, CL_INVALID_CONTEXT if the context associated with
    // command_buffer and kernel is not the same, CL_INVALID_KERNEL_ARGS,
    // CL_INVALID_WORK_DIMENSION.
    let k = launch_kernel(q, kernel, work_dim)?;
    // The rest of clEnqueueNDRangeKernel's list: offsets, sizes, sub-buffer
    // alignment, local and constant memory.
    let (plan, captured) = plan_launch(
        q,
        &k,
        work_dim,
        global_work_offset,
        global_work_size,
        local_work_size,
    )?;
    if plan.is_empty() {
        return Ok((Arc::new(|| Ok(())), Vec::new()));
    }
    let uses = if q.context().checks().api {
        kernel_accesses(&k)
    } else {
        Vec::new()
    };
    let copy = k.clone_kernel();
    let keep = (captured.keep, captured.keep_svm);
    let context = q.context().clone();
    let work: Replay = Arc::new(move || {
        let _ = &keep;
        let launch = plan.launch(&copy, copy.capture()?, context.schedule_launch());
        launch.run()
    });
    Ok((work, uses))
}

#[no_mangle]
pub unsafe extern "C" fn clCommandNDRangeKernelKHR(
    command_buffer: cl_command_buffer_khr,
    command_queue: cl_command_queue,
    properties: *const cl_command_properties_khr,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const size_t,
    global_work_size: *const size_t,
    local_work_size: *const size_t,
    num_sync_points_in_wait_list: cl_uint,
    sync_point_wait_list: *const cl_sync_point_khr,
    sync_point: *mut cl_sync_point_khr,
    mutable_handle: *mut cl_mutable_command_khr,
) -> cl_int {
    api_call(|| {
        let cb = recording(command_buffer, command_queue, properties, mutable_handle)?;
        let (work, uses) = command_ndrange_kernel(
            &cb,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
        )?;
        record(
            &cb,
            work,
            uses,
            num_sync_points_in_wait_list,
            sync_point_wait_list,
            sync_point,
        )
    })
}

fn command_buffer_info(
    command_buffer: cl_command_buffer_khr,
    param: cl_command_buffer_info_khr,
    out: InfoOut,
) -> CLResult<()> {
    // CL_INVALID_COMMAND_BUFFER_KHR if command_buffer is not a valid
    // command-buffer.
    let cb = Obj::<CommandBuffer>::get(command_buffer)?;
    match param {
        CL_COMMAND_BUFFER_QUEUES_KHR => {
            let queues: Vec<cl_command_queue> = cb.queues().iter().map(Obj::handle).collect();
            out.slice(&queues)
        }
        CL_COMMAND_BUFFER_NUM_QUEUES_KHR => out.value::<cl_uint>(cb.queues().len() as cl_uint),
        CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR => out.value::<cl_uint>(cb.ref_count()),
        CL_COMMAND_BUFFER_STATE_KHR => out.value::<cl_command_buffer_state_khr>(cb.state()),
        // Created with NULL properties: no properties (size 0), which the
        // spec allows.
        CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR => out.slice(cb.properties()),
        CL_COMMAND_BUFFER_CONTEXT_KHR => out.value(Obj::handle(cb.context())),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(
            CL_INVALID_VALUE,
            format!("unknown command-buffer info 0x{param:x}"),
        ),
    }
}

info_entry_points! {
    fn clGetCommandBufferInfoKHR(
        command_buffer: cl_command_buffer_khr,
        param_name: cl_command_buffer_info_khr,
    ) = command_buffer_info;
}
