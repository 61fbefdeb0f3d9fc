//! Command queues: creation (legacy and with properties), info, `clFlush`,
//! `clFinish`. The object is `core::queue`; running commands is `exec`.
//!
//! Host queues only: the device offers no on-device queues, so
//! `CL_QUEUE_ON_DEVICE` is a valid property the device does not support.
//! Every command is submitted to the device when it is enqueued, so
//! `clFlush` (and the implicit flush of a release) has nothing left to do.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::context::read_properties;
use super::prelude::*;
use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::queue::Queue;
use crate::exec;

/// The `CL_QUEUE_PROPERTIES` bits a host queue on our device supports.
const SUPPORTED: cl_command_queue_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

type ContextAndDevice = (Arc<Obj<Context>>, Arc<Obj<Device>>);

/// The context and device of a new queue.
fn context_and_device(context: cl_context, device: cl_device_id) -> CLResult<ContextAndDevice> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = Obj::<Context>::get(context)?;
    // CL_INVALID_DEVICE if device is not a valid device or is not associated
    // with context.
    let dev = Obj::<Device>::get(device)?;
    check(
        ctx.has_device(&dev),
        CL_INVALID_DEVICE,
        "device is not in the context",
    )?;
    Ok((ctx, dev))
}

/// Check a `CL_QUEUE_PROPERTIES` bit-field (and whether CL_QUEUE_SIZE was
/// given): CL_INVALID_VALUE if not valid, CL_INVALID_QUEUE_PROPERTIES if
/// valid but not supported by the device.
fn check_queue_bits(bits: cl_command_queue_properties, size_given: bool) -> CLResult<()> {
    let known = SUPPORTED | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
    check(
        bits & !known == 0,
        CL_INVALID_VALUE,
        "unknown CL_QUEUE_PROPERTIES bits",
    )?;
    let on_device = bits & CL_QUEUE_ON_DEVICE != 0;
    // If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    // must also be set.
    check(
        !on_device || bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0,
        CL_INVALID_VALUE,
        "CL_QUEUE_ON_DEVICE without CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE",
    )?;
    // CL_QUEUE_ON_DEVICE_DEFAULT can only be used with CL_QUEUE_ON_DEVICE.
    check(
        on_device || bits & CL_QUEUE_ON_DEVICE_DEFAULT == 0,
        CL_INVALID_VALUE,
        "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE",
    )?;
    // CL_QUEUE_SIZE can only be specified if CL_QUEUE_ON_DEVICE is set.
    check(
        on_device || !size_given,
        CL_INVALID_VALUE,
        "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE",
    )?;
    // CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid
    // but are not supported by device: no on-device queues.
    check(
        !on_device,
        CL_INVALID_QUEUE_PROPERTIES,
        "the device has no on-device queues",
    )
}

fn create_queue_with_properties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
) -> CLResult<cl_command_queue> {
    let (ctx, dev) = context_and_device(context, device)?;
    // CL_INVALID_VALUE if values specified in properties are not valid.
    let list = read_properties(properties);
    let mut bits = 0;
    let mut size_given = false;
    let mut seen = Vec::new();
    for pair in list.chunks_exact(2) {
        let (name, value) = (pair[0], pair[1]);
        check(
            !seen.contains(&name),
            CL_INVALID_VALUE,
            "a queue property is given twice",
        )?;
        seen.push(name);
        match cl_uint::try_from(name).unwrap_or(0) {
            CL_QUEUE_PROPERTIES => bits = value,
            CL_QUEUE_SIZE => size_given = true,
            _ => {
                return err(
                    CL_INVALID_VALUE,
                    format!("unsupported queue property 0x{name:x}"),
                )
            }
        }
    }
    check_queue_bits(bits, size_given)?;
    Ok(Obj::into_handle(Queue::new(ctx, dev, bits, list)))
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    api_create(errcode_ret, ptr::null_mut(), || {
        create_queue_with_properties(context, device, properties)
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    api_create(errcode_ret, ptr::null_mut(), || {
        let (ctx, dev) = context_and_device(context, device)?;
        // Only the properties of the legacy table can be used, otherwise the
        // value is considered not valid: CL_INVALID_VALUE.
        check(
            properties & !SUPPORTED == 0,
            CL_INVALID_VALUE,
            "properties has bits clCreateCommandQueue does not know",
        )?;
        Ok(Obj::into_handle(Queue::new(
            ctx,
            dev,
            properties,
            Vec::new(),
        )))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clRetainCommandQueue(command_queue: cl_command_queue) -> cl_int {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
    api_call(|| Obj::<Queue>::retain(command_queue))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseCommandQueue(command_queue: cl_command_queue) -> cl_int {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
    // The implicit flush has nothing to do (commands are submitted when
    // enqueued); commands still running hold the queue alive.
    api_call(|| {
        let (queue, last) = Obj::<Queue>::release(command_queue)?;
        if last {
            queue.released();
        }
        Ok(())
    })
}

fn queue_info(queue: cl_command_queue, param: cl_command_queue_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
    let q = Obj::<Queue>::get(queue)?;
    match param {
        CL_QUEUE_CONTEXT => out.value(Obj::handle(q.context())),
        CL_QUEUE_DEVICE => out.value(Obj::handle(q.device())),
        CL_QUEUE_REFERENCE_COUNT => out.value::<cl_uint>(q.ref_count()),
        CL_QUEUE_PROPERTIES => out.value::<cl_command_queue_properties>(q.properties()),
        CL_QUEUE_PROPERTIES_ARRAY => out.slice(q.properties_array()),
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid
        // command-queue for param_name: CL_QUEUE_SIZE needs a device queue.
        CL_QUEUE_SIZE => err(
            CL_INVALID_COMMAND_QUEUE,
            "CL_QUEUE_SIZE is only for device queues",
        ),
        // No default device queue.
        CL_QUEUE_DEVICE_DEFAULT => out.value::<cl_command_queue>(ptr::null_mut()),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(CL_INVALID_VALUE, format!("unknown queue info 0x{param:x}")),
    }
}

info_entry_points! {
    fn clGetCommandQueueInfo(
        command_queue: cl_command_queue,
        param_name: cl_command_queue_info,
    ) = queue_info;
}

#[no_mangle]
pub unsafe extern "C" fn clSetCommandQueueProperty(
    command_queue: cl_command_queue,
    properties: cl_command_queue_properties,
    enable: cl_bool,
    old_properties: *mut cl_command_queue_properties,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue.
        Obj::<Queue>::get(command_queue)?;
        let _ = (properties, enable, old_properties);
        // CL_INVALID_OPERATION if no devices in the context associated with
        // command_queue support modifying the properties of a command-queue
        // (required only of OpenCL 1.0 devices; ours is 3.0).
        err(
            CL_INVALID_OPERATION,
            "the device does not support changing queue properties",
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clFlush(command_queue: cl_command_queue) -> cl_int {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
    // command-queue. Commands are issued to the device as they are enqueued.
    api_call(|| Obj::<Queue>::get(command_queue).map(drop))
}

#[no_mangle]
pub unsafe extern "C" fn clFinish(command_queue: cl_command_queue) -> cl_int {
    api_call(|| {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host
        // command-queue.
        let q = Obj::<Queue>::get(command_queue)?;
        // Blocks until all previously queued commands have completed.
        exec::finish(&q);
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    command_queue: cl_command_queue,
) -> cl_int {
    api_call(|| {
        context_and_device(context, device)?;
        let _ = command_queue;
        // CL_INVALID_OPERATION if device does not support a replaceable
        // default on-device queue.
        err(CL_INVALID_OPERATION, "the device has no on-device queues")
    })
}
