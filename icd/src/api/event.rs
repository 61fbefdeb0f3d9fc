//! Events: wait, info, profiling, callbacks, user events. The object is
//! `core::event`; waiting and running are `exec`.

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::prelude::*;
use crate::core::context::{Context, UserData};
use crate::core::event::{Event, EventCallbackFn};
use crate::core::handle::HandleList;
use crate::exec;

/// The `num_events` / `event_list` of `clWaitForEvents` and
/// `clEnqueueWaitForEvents`, never empty.
pub(crate) fn events_to_wait_for(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> CLResult<HandleList<Event>> {
    // CL_INVALID_VALUE if num_events is zero or event_list is NULL.
    check(
        num_events != 0 && !event_list.is_null(),
        CL_INVALID_VALUE,
        "no events to wait for",
    )?;
    // CL_INVALID_EVENT if event objects specified in event_list are not valid
    // event objects.
    Obj::<Event>::get_list(event_list, num_events as usize)
}

fn wait_for_events(num_events: cl_uint, event_list: *const cl_event) -> CLResult<()> {
    let events = events_to_wait_for(num_events, event_list)?;
    // CL_INVALID_CONTEXT if events specified in event_list do not belong to
    // the same context.
    let Some(first) = events.first().map(|e| e.context()) else {
        return Ok(());
    };
    check(
        events.iter().all(|e| Arc::ptr_eq(e.context(), first)),
        CL_INVALID_CONTEXT,
        "the events belong to different contexts",
    )?;
    let mut failed = false;
    for e in &events {
        failed |= exec::wait_for(e) < 0;
    }
    // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of
    // any of the events in event_list is a negative integer value.
    // (The failure was reported where it happened: the code alone.)
    if failed {
        return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.into());
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    api_call(|| wait_for_events(num_events, event_list))
}

fn event_info(event: cl_event, param: cl_event_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_EVENT if event is a not a valid event object.
    let e = Obj::<Event>::get(event)?;
    match param {
        // For user event objects, a NULL value is returned.
        CL_EVENT_COMMAND_QUEUE => {
            out.value::<cl_command_queue>(e.queue().map_or(ptr::null_mut(), Obj::handle))
        }
        CL_EVENT_CONTEXT => out.value::<cl_context>(Obj::handle(e.context())),
        CL_EVENT_COMMAND_TYPE => out.value::<cl_command_type>(e.command_type()),
        CL_EVENT_COMMAND_EXECUTION_STATUS => out.value::<cl_int>(e.status()),
        CL_EVENT_REFERENCE_COUNT => out.value::<cl_uint>(e.ref_count()),
        // CL_INVALID_VALUE if param_name is not one of the supported values.
        _ => err(CL_INVALID_VALUE, format!("unknown event info 0x{param:x}")),
    }
}

info_entry_points! {
    fn clGetEventInfo(event: cl_event, param_name: cl_event_info) = event_info;
    fn clGetEventProfilingInfo(event: cl_event, param_name: cl_profiling_info) = profiling_info;
}

#[no_mangle]
pub unsafe extern "C" fn clRetainEvent(event: cl_event) -> cl_int {
    // CL_INVALID_EVENT if event is not a valid event object.
    api_call(|| Obj::<Event>::retain(event))
}

#[no_mangle]
pub unsafe extern "C" fn clReleaseEvent(event: cl_event) -> cl_int {
    // CL_INVALID_EVENT if event is not a valid event object. A command still
    // pending keeps its event alive (the executor holds it); a complete one
    // is deleted (its handle invalid; its queue may keep the object to
    // reuse: `Queue::spent_event`).
    api_call(|| {
        let (event, last) = Obj::<Event>::release(event)?;
        if last && event.is_complete() {
            event.unregister();
        }
        Ok(())
    })
}

fn profiling_info(event: cl_event, param: cl_profiling_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_EVENT if event is a not a valid event object.
    let e = Obj::<Event>::get(event)?;
    let known = [
        CL_PROFILING_COMMAND_QUEUED,
        CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ];
    // CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is
    // not set for the command-queue, if the execution status of the command
    // identified by event is not CL_COMPLETE or if event is a user event object.
    let time = e.profiling_time(CL_PROFILING_COMMAND_QUEUED);
    if time.is_none() {
        return err(
            CL_PROFILING_INFO_NOT_AVAILABLE,
            "no profiling information for this event",
        );
    }
    // CL_INVALID_VALUE if param_name is not one of the supported values.
    check(
        known.contains(&param),
        CL_INVALID_VALUE,
        "unknown profiling info",
    )?;
    match e.profiling_time(param) {
        Some(t) => out.value::<cl_ulong>(t),
        None => err(
            CL_PROFILING_INFO_NOT_AVAILABLE,
            "no profiling information for this event",
        ),
    }
}

#[no_mangle]
pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: Option<EventCallbackFn>,
    user_data: *mut c_void,
) -> cl_int {
    api_call(|| {
        // CL_INVALID_EVENT if event is not a valid event object.
        let e = Obj::<Event>::get(event)?;
        // CL_INVALID_VALUE if pfn_event_notify is NULL or if
        // command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or
        // CL_COMPLETE.
        let Some(f) = pfn_notify else {
            return err(CL_INVALID_VALUE, "pfn_notify is NULL");
        };
        check(
            matches!(
                command_exec_callback_type,
                CL_SUBMITTED | CL_RUNNING | CL_COMPLETE
            ),
            CL_INVALID_VALUE,
            "command_exec_callback_type must be CL_SUBMITTED, CL_RUNNING or CL_COMPLETE",
        )?;
        Event::add_callback(&e, command_exec_callback_type, f, UserData(user_data));
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateUserEvent(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    api_create(errcode_ret, ptr::null_mut(), || {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = Obj::<Context>::get(context)?;
        Ok(Obj::into_handle(Event::new_user(&ctx)))
    })
}

#[no_mangle]
pub unsafe extern "C" fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
    api_call(|| {
        // CL_INVALID_EVENT if event is not a valid user event object.
        let e = Obj::<Event>::get(event)?;
        check(e.is_user(), CL_INVALID_EVENT, "not a user event")?;
        // CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a
        // negative integer value.
        check(
            execution_status <= CL_COMPLETE,
            CL_INVALID_VALUE,
            "execution_status must be CL_COMPLETE or negative",
        )?;
        // CL_INVALID_OPERATION if the execution_status for event has already
        // been changed by a previous call to clSetUserEventStatus.
        exec::set_user_status(&e, execution_status)
    })
}
