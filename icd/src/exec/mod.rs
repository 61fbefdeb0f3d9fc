//! The executor: how an enqueued command becomes an event, waits for its
//! dependencies and runs.
//!
//! `enqueue` is what every `clEnqueue*` calls once its own arguments are
//! checked. It makes the event, links it to its dependencies (the wait list,
//! and what the queue's order adds, see `core::queue`), and submits it. From
//! then on everything is event-driven (`core::event`): a completing command
//! hands back the dependents it made ready, and `schedule` disposes of them:
//! - a cheap command (marker, barrier, a command whose dependency failed) runs
//!   at once on the thread that found it ready;
//! - a command a host thread is blocked on is run by that thread;
//! - anything else goes to the device's worker pool (`pool`), a few threads
//!   started on first need (loading the library starts none).
//!
//! A blocking enqueue whose command is ready at once runs it on the caller's
//! thread: no hand-off, which is what keeps a small blocking write within a
//! couple of microseconds. Kernel launches run their NDRange on a separate
//! rayon pool from inside a command's work; the command workers are not rayon
//! threads.

pub mod api_check;
pub mod ndrange;
pub mod pool;

use crate::core::context::Context;
use crate::core::event::{Disposition, Event};
use crate::core::handle::{HandleList, Obj};
use crate::core::queue::{Queue, Sequence};
use crate::error::{err, CLResult, ClError};
use opencl_sys::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// What a command does when it runs. An `Err` fails the command: its event's
/// status becomes the (negative) code and the message goes to the context's
/// notify callback.
// The launch is inline on purpose: the event holding it is allocated
// anyway, and a box per launch is what this saves.
#[allow(clippy::large_enum_variant)]
pub enum Work {
    /// A kernel launch, held in the command itself: a launch allocates no
    /// closure.
    Launch(ndrange::Launch),
    /// Anything else.
    Call(Box<dyn FnOnce() -> CLResult<()> + Send + 'static>),
}

impl Work {
    /// The work that calls `f`.
    pub fn call(f: impl FnOnce() -> CLResult<()> + Send + 'static) -> Work {
        Work::Call(Box::new(f))
    }

    /// Do it.
    pub fn run(self) -> CLResult<()> {
        match self {
            Work::Launch(launch) => launch.run(),
            Work::Call(f) => f(),
        }
    }
}

/// A command's work that may run more than once: what a command-buffer
/// records (`core::command_buffer`) and replays on each enqueue. The buffer
/// commands and launches build one of these and a queue runs it once.
pub type Replay = Arc<dyn Fn() -> CLResult<()> + Send + Sync + 'static>;

/// How a command is run and ordered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Ordinary command: runs on a worker (or on a blocked caller).
    Command,
    /// A command whose work takes well under a microsecond (a few-byte copy):
    /// run by whichever thread finds it ready, never handed off.
    Small,
    /// `clEnqueueMarker*`: no work; with an empty wait list it waits for every
    /// earlier command of the queue.
    Marker,
    /// `clEnqueueBarrier*`: as a marker, and every later command waits for it.
    Barrier,
}

/// Validate an event wait list against the queue's context.
///
/// CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
/// num_events_in_wait_list > 0, or event_wait_list is not NULL and
/// num_events_in_wait_list is 0, or if event objects in event_wait_list are
/// not valid events. CL_INVALID_CONTEXT if the context of the queue and of the
/// events differ.
pub fn validate_wait_list(
    context: &Arc<Obj<Context>>,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
) -> CLResult<HandleList<Event>> {
    if event_wait_list.is_null() != (num_events_in_wait_list == 0) {
        return err(
            CL_INVALID_EVENT_WAIT_LIST,
            "event_wait_list and num_events_in_wait_list disagree",
        );
    }
    let events = Obj::<Event>::get_list(event_wait_list, num_events_in_wait_list as usize)
        .map_err(|e| ClError::new(CL_INVALID_EVENT_WAIT_LIST, e.message))?;
    if events.iter().any(|e| !Arc::ptr_eq(e.context(), context)) {
        return err(
            CL_INVALID_CONTEXT,
            "an event in the wait list belongs to another context",
        );
    }
    Ok(events)
}

/// Enqueue a command: validate the wait list, make the event, schedule `work`,
/// write `*event` (one user reference) if `event` is not NULL, and if
/// `blocking` wait for completion (an error if it or a dependency failed).
#[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
pub fn enqueue(
    queue: &Arc<Obj<Queue>>,
    command_type: cl_command_type,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
    blocking: bool,
    work: Work,
) -> CLResult<()> {
    let wait = validate_wait_list(queue.context(), num_events_in_wait_list, event_wait_list)?;
    enqueue_command(
        queue,
        command_type,
        &wait,
        event,
        blocking,
        Kind::Command,
        Some(work),
    )
}

/// `enqueue` with the wait list already validated (`validate_wait_list`) and
/// the kind of command chosen. `event` is the user's out-pointer, passed
/// through from the entry point: NULL or a writable `cl_event` (the spec's
/// contract for every `clEnqueue*`).
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn enqueue_command(
    queue: &Arc<Obj<Queue>>,
    command_type: cl_command_type,
    wait: &[Arc<Obj<Event>>],
    event: *mut cl_event,
    blocking: bool,
    kind: Kind,
    work: Option<Work>,
) -> CLResult<()> {
    enqueue_using(
        queue,
        command_type,
        wait,
        event,
        blocking,
        kind,
        work,
        Vec::new(),
    )
}

/// `enqueue_command` for a command that uses buffers (`accesses`: what
/// checked mode's `api` check looks at; empty unless the context asked for
/// it).
///
/// A blocking command that fails makes the call return an error: the spec
/// names `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` for a failed wait
/// list and nothing for the command's own failure, so that returns the
/// command's own status (checked mode: `CL_OUT_OF_RESOURCES`, in the error
/// list of every `clEnqueue*`).
#[allow(clippy::not_unsafe_ptr_arg_deref, clippy::too_many_arguments)]
pub fn enqueue_using(
    queue: &Arc<Obj<Queue>>,
    command_type: cl_command_type,
    wait: &[Arc<Obj<Event>>],
    event: *mut cl_event,
    blocking: bool,
    kind: Kind,
    work: Option<Work>,
    accesses: Vec<api_check::Access>,
) -> CLResult<()> {
    let inline = kind != Kind::Command;
    let ev = Event::new_command(queue, command_type, work, inline);
    let sequence = match kind {
        Kind::Command | Kind::Small => Sequence::Command,
        Kind::Marker => Sequence::Marker,
        Kind::Barrier => Sequence::Barrier,
    };
    for dep in wait {
        Event::add_dependency(&ev, dep, true);
    }
    let ordered = queue.sequence(&ev, sequence, !wait.is_empty());
    for dep in ordered.iter() {
        Event::add_dependency(&ev, dep, false);
    }
    if queue.context().checks().api {
        let deps: Vec<_> = wait.iter().chain(ordered.iter()).cloned().collect();
        api_check::enqueued(&ev, command_type, &deps, accesses);
    }
    drop(ordered);
    if !event.is_null() {
        // SAFETY: a non-NULL `event` points at a cl_event the caller owns.
        unsafe { event.write(Obj::retained_handle(&ev)) };
    }
    if Event::submit(&ev) {
        if blocking {
            // Ready now and the caller would only wait: run it right here.
            Event::mark_ready(&ev);
            let mut ready = Vec::new();
            run(&ev, &mut ready);
            schedule(ready);
        } else {
            schedule_one(&ev);
        }
    }
    if blocking {
        let status = wait_for(&ev);
        // The failure was reported where it happened (a fault, a checked-
        // mode report): the code alone, no second message.
        if status < 0 {
            return Err(status.into());
        }
    }
    Ok(())
}

/// Dispose of commands that just became ready (see the module comment).
pub fn schedule(mut ready: Vec<Arc<Obj<Event>>>) {
    while let Some(ev) = ready.pop() {
        dispose(ev, &mut ready);
    }
}

/// `schedule` of one command (no list to allocate on the common path).
fn schedule_one(ev: &Arc<Obj<Event>>) {
    let mut ready = Vec::new();
    match Event::mark_ready(ev) {
        Disposition::Inline => run(ev, &mut ready),
        Disposition::Waiter => {}
        Disposition::Pool => pool::submit(ev.clone()),
    }
    schedule(ready);
}

fn dispose(ev: Arc<Obj<Event>>, ready: &mut Vec<Arc<Obj<Event>>>) {
    match Event::mark_ready(&ev) {
        Disposition::Inline => run(&ev, ready),
        Disposition::Waiter => {}
        Disposition::Pool => pool::submit(ev),
    }
}

/// Run a ready command on this thread if nobody has claimed it; dependents it
/// makes ready are pushed onto `ready`. A panic in the work fails the command.
pub fn run(ev: &Arc<Obj<Event>>, ready: &mut Vec<Arc<Obj<Event>>>) {
    let Some(work) = Event::start(ev, ready) else {
        return;
    };
    let result = match work {
        None => Ok(()),
        Some(work) => catch_unwind(AssertUnwindSafe(|| work.run())).unwrap_or_else(|_| {
            Err(ClError::new(
                CL_OUT_OF_RESOURCES,
                "internal error: a command panicked (please report)",
            ))
        }),
    };
    Event::finish(ev, result, ready);
}

/// Block until `ev` completes (running it here if it is ready and unclaimed);
/// returns its final status.
pub fn wait_for(ev: &Arc<Obj<Event>>) -> cl_int {
    Event::wait(ev, |e| {
        let mut ready = Vec::new();
        run(e, &mut ready);
        schedule(ready);
    })
}

/// `clFinish`: block until every command enqueued so far has completed.
pub fn finish(queue: &Queue) {
    // Commands enqueued while we wait are not ours to wait for; one pass over
    // those outstanding now suffices (each is complete when we move on).
    for ev in queue.unfinished() {
        wait_for(&ev);
    }
}

/// `clSetUserEventStatus`.
pub fn set_user_status(ev: &Arc<Obj<Event>>, status: cl_int) -> CLResult<()> {
    let mut ready = Vec::new();
    Event::set_user_status(ev, status, &mut ready)?;
    schedule(ready);
    Ok(())
}
