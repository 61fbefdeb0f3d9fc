//! Every `clEnqueue*` command.

#![allow(non_snake_case, clippy::missing_safety_doc, unused_variables)]

use super::image_commands as ic;
use super::mem_commands as mc;
use super::prelude::*;
use crate::core::queue::Queue;
use crate::exec::{self, Kind};

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: size_t,
    size: size_t,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::read_write_buffer(
            false,
            command_queue,
            buffer,
            blocking_read,
            offset,
            size,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: size_t,
    size: size_t,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::read_write_buffer(
            true,
            command_queue,
            buffer,
            blocking_write,
            offset,
            size,
            ptr as *mut c_void,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBuffer(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: size_t,
    dst_offset: size_t,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::copy_buffer(
            command_queue,
            src_buffer,
            dst_buffer,
            src_offset,
            dst_offset,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const size_t,
    region: *const size_t,
    row_pitch: size_t,
    slice_pitch: size_t,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::read_write_image(
            false,
            command_queue,
            image,
            blocking_read,
            origin,
            region,
            row_pitch,
            slice_pitch,
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const size_t,
    region: *const size_t,
    input_row_pitch: size_t,
    input_slice_pitch: size_t,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::read_write_image(
            true,
            command_queue,
            image,
            blocking_write,
            origin,
            region,
            input_row_pitch,
            input_slice_pitch,
            ptr as *mut c_void,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyImage(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::copy_image(
            command_queue,
            src_image,
            dst_image,
            src_origin,
            dst_origin,
            region,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    command_queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const size_t,
    region: *const size_t,
    dst_offset: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::copy_image_buffer(
            true,
            command_queue,
            src_image,
            dst_buffer,
            src_origin,
            region,
            dst_offset,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::copy_image_buffer(
            false,
            command_queue,
            dst_image,
            src_buffer,
            dst_origin,
            region,
            src_offset,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: size_t,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        mc::map_buffer(
            command_queue,
            buffer,
            blocking_map,
            map_flags,
            offset,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMapImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const size_t,
    region: *const size_t,
    image_row_pitch: *mut size_t,
    image_slice_pitch: *mut size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    api_create(errcode_ret, std::ptr::null_mut(), || {
        ic::map_image(
            command_queue,
            image,
            blocking_map,
            map_flags,
            origin,
            region,
            image_row_pitch,
            image_slice_pitch,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    command_queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::unmap_mem_object(
            command_queue,
            memobj,
            mapped_ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueNativeKernel(
    command_queue: cl_command_queue,
    user_func: Option<unsafe extern "C" fn(arg1: *mut c_void)>,
    args: *mut c_void,
    cb_args: size_t,
    num_mem_objects: cl_uint,
    mem_list: *const cl_mem,
    args_mem_loc: *mut *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| mc::native_kernel(command_queue))
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMarker(
    command_queue: cl_command_queue,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = Obj::<Queue>::get(command_queue)?;
        // CL_INVALID_VALUE if event is NULL.
        check(!event.is_null(), CL_INVALID_VALUE, "event is NULL")?;
        // Waits for all commands previously enqueued in command_queue.
        exec::enqueue_command(&q, CL_COMMAND_MARKER, &[], event, false, Kind::Marker, None)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWaitForEvents(
    command_queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = Obj::<Queue>::get(command_queue)?;
        // CL_INVALID_VALUE if num_events is 0 or event_list is NULL.
        // CL_INVALID_EVENT if event objects in event_list are not valid events.
        let events = super::event::events_to_wait_for(num_events, event_list)?;
        // CL_INVALID_CONTEXT if context associated with command_queue and
        // events in event_list are not the same.
        check(
            events.iter().all(|e| Arc::ptr_eq(e.context(), q.context())),
            CL_INVALID_CONTEXT,
            "an event belongs to another context",
        )?;
        // A wait for the events before any future command: a barrier.
        let no_event = ptr::null_mut();
        exec::enqueue_command(
            &q,
            CL_COMMAND_BARRIER,
            &events,
            no_event,
            false,
            Kind::Barrier,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueBarrier(command_queue: cl_command_queue) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = Obj::<Queue>::get(command_queue)?;
        let no_event = ptr::null_mut();
        exec::enqueue_command(
            &q,
            CL_COMMAND_BARRIER,
            &[],
            no_event,
            false,
            Kind::Barrier,
            None,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueReadBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const size_t,
    host_origin: *const size_t,
    region: *const size_t,
    buffer_row_pitch: size_t,
    buffer_slice_pitch: size_t,
    host_row_pitch: size_t,
    host_slice_pitch: size_t,
    ptr: *mut c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::read_write_buffer_rect(
            false,
            command_queue,
            buffer,
            blocking_read,
            buffer_origin,
            host_origin,
            region,
            [buffer_row_pitch, buffer_slice_pitch],
            [host_row_pitch, host_slice_pitch],
            ptr,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const size_t,
    host_origin: *const size_t,
    region: *const size_t,
    buffer_row_pitch: size_t,
    buffer_slice_pitch: size_t,
    host_row_pitch: size_t,
    host_slice_pitch: size_t,
    ptr: *const c_void,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::read_write_buffer_rect(
            true,
            command_queue,
            buffer,
            blocking_write,
            buffer_origin,
            host_origin,
            region,
            [buffer_row_pitch, buffer_slice_pitch],
            [host_row_pitch, host_slice_pitch],
            ptr as *mut c_void,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    command_queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const size_t,
    dst_origin: *const size_t,
    region: *const size_t,
    src_row_pitch: size_t,
    src_slice_pitch: size_t,
    dst_row_pitch: size_t,
    dst_slice_pitch: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::copy_buffer_rect(
            command_queue,
            src_buffer,
            dst_buffer,
            src_origin,
            dst_origin,
            region,
            [src_row_pitch, src_slice_pitch],
            [dst_row_pitch, dst_slice_pitch],
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueFillBuffer(
    command_queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: size_t,
    offset: size_t,
    size: size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::fill_buffer(
            command_queue,
            buffer,
            pattern,
            pattern_size,
            offset,
            size,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueFillImage(
    command_queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const size_t,
    region: *const size_t,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        ic::fill_image(
            command_queue,
            image,
            fill_color,
            origin,
            region,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    command_queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    api_call(|| {
        mc::migrate_mem_objects(
            command_queue,
            num_mem_objects,
            mem_objects,
            flags,
            num_events_in_wait_list,
            event_wait_list,
            event,
        )
    })
}

/// `clEnqueueMarkerWithWaitList` and `clEnqueueBarrierWithWaitList`: with an
/// empty wait list, wait for every earlier command of the queue; a barrier
/// also holds back every later one.
fn marker_or_barrier(
    command_queue: cl_command_queue,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    kind: Kind,
) -> CLResult<()> {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
    let q = Obj::<Queue>::get(command_queue)?;
    // CL_INVALID_CONTEXT if context associated with command_queue and events in
    // event_wait_list are not the same. CL_INVALID_EVENT_WAIT_LIST if
    // event_wait_list is NULL and num_events_in_wait_list > 0, or
    // event_wait_list is not NULL and num_events_in_wait_list is 0, or if event
    // objects in event_wait_list are not valid events.
    let wait = exec::validate_wait_list(q.context(), num_events_in_wait_list, event_wait_list)?;
    let command_type = if kind == Kind::Barrier {
        CL_COMMAND_BARRIER
    } else {
        CL_COMMAND_MARKER
    };
    exec::enqueue_command(&q, command_type, &wait, event, false, kind, None)
}

entry_family! {
    (
        command_queue: cl_command_queue,
        num_events: cl_uint,
        wait_list: *const cl_event,
        event: *mut cl_event,
    ) -> cl_int;
    clEnqueueMarkerWithWaitList => api_call(|| {
        marker_or_barrier(command_queue, num_events, wait_list, event, Kind::Marker)
    });
    clEnqueueBarrierWithWaitList => api_call(|| {
        marker_or_barrier(command_queue, num_events, wait_list, event, Kind::Barrier)
    });
}
