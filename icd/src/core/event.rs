//! Events: the state of one command (or user event) and the graph edges that
//! make a command run when its dependencies complete.
//!
//! Status moves QUEUED → SUBMITTED → RUNNING → COMPLETE, or to a negative
//! error code. A command is SUBMITTED when its dependencies are done and it
//! is handed to the executor (so one behind an unset user event stays QUEUED). Internally a command is also in one *phase*: `Waiting` (some
//! dependency not complete), `Ready` (handed to the executor, not started),
//! `Running`, `Done`. The edges are counted, not polled: an event keeps the
//! number of its dependencies not yet complete (`pending`, plus one guard held
//! while it is being enqueued), and each dependency keeps a list of its
//! dependents; the dependency's completion decrements their counts and returns
//! the ones that became ready, which `exec` then runs or hands to a worker.
//!
//! A dependency from a wait list propagates failure: if it ends with a
//! negative status, the dependent fails with
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` and its work never runs.
//! An implicit dependency (the previous command of an in-order queue, a
//! barrier) only orders.
//!
//! Host threads wait on the event's condition variable. User callbacks
//! (`clSetEventCallback`) are collected under the lock and called after it is
//! released, so they may call back into the API.

use super::context::{Context, UserData};
use super::handle::Obj;
use super::platform::now_ns;
use super::queue::Queue;
use crate::error::{CLResult, ClError};
use crate::exec::Work;
use opencl_sys::*;
use parking_lot::{Condvar, Mutex, MutexGuard};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Arc;

/// The `pfn_notify` of `clSetEventCallback`.
pub type EventCallbackFn =
    unsafe extern "C" fn(event: cl_event, event_command_status: cl_int, user_data: *mut c_void);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    Waiting,
    Ready,
    Running,
    Done,
}

/// What to do with a command that just became ready.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Disposition {
    /// Run it now on this thread (cheap, or failed without running).
    Inline,
    /// A host thread blocked on it will run it.
    Waiter,
    /// Hand it to the worker pool.
    Pool,
}

/// Profiling timestamps, in the order of `CL_PROFILING_COMMAND_*`.
const QUEUED: usize = 0;
const SUBMIT: usize = 1;
const START: usize = 2;
const END: usize = 3;

struct State {
    phase: Phase,
    work: Option<Work>,
    /// Events waiting for this one, and whether our failure fails them.
    /// Inline up to two (an in-order queue's next command, a waiter).
    dependents: smallvec::SmallVec<[(Arc<Obj<Event>>, bool); 2]>,
    /// Callbacks not yet called: (status they wait for, function, user data).
    callbacks: Vec<(cl_int, EventCallbackFn, UserData)>,
    /// Host threads blocked in `wait`.
    waiters: u32,
    times: [u64; 4],
}

/// What an event belongs to: a command's queue (and through it the
/// queue's context), or a user event's context. One reference counted per
/// event, not two.
enum Owner {
    Queue(Arc<Obj<Queue>>),
    Context(Arc<Obj<Context>>),
}

pub struct Event {
    owner: Owner,
    command_type: cl_command_type,
    profiling: bool,
    /// Cheap enough to run on whichever thread finds it ready.
    inline: bool,
    /// `CL_EVENT_COMMAND_EXECUTION_STATUS`; written under `state`'s lock,
    /// readable without it.
    status: AtomicI32,
    /// Dependencies not complete yet, plus the enqueue guard.
    pending: AtomicUsize,
    /// A wait-list dependency failed.
    dependency_failed: AtomicBool,
    /// Checked mode (`api`): when enqueued, the command waited (through its
    /// dependencies) for a user event the host had not set yet.
    host_gated: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
}
crate::cl_object!(Event, cl_event, CL_INVALID_EVENT, "event", true, remembered: false);

impl Event {
    fn build(
        owner: Owner,
        command_type: cl_command_type,
        status: cl_int,
        work: Option<Work>,
        inline: bool,
    ) -> Event {
        let profiling = matches!(&owner, Owner::Queue(q) if q.profiling());
        let mut times = [0; 4];
        if profiling {
            times[QUEUED] = now_ns();
        }
        Event {
            owner,
            command_type,
            profiling,
            inline,
            status: AtomicI32::new(status),
            pending: AtomicUsize::new(1),
            dependency_failed: AtomicBool::new(false),
            host_gated: AtomicBool::new(false),
            state: Mutex::new(State {
                phase: Phase::Waiting,
                work,
                dependents: smallvec::SmallVec::new(),
                callbacks: Vec::new(),
                waiters: 0,
                times,
            }),
            changed: Condvar::new(),
        }
    }

    /// A command in `queue`, QUEUED, held back by the enqueue guard until
    /// `submit`. `inline`: cheap enough to run on any thread that finds it
    /// ready. Registered when a handle to it is made (most command events
    /// never reach the user). Made in the allocation of the queue's oldest
    /// spent event where nobody holds that any more ([`Queue::spent_event`]).
    pub fn new_command(
        queue: &Arc<Obj<Queue>>,
        command_type: cl_command_type,
        work: Option<Work>,
        inline: bool,
    ) -> Arc<Obj<Event>> {
        let fresh = |work| {
            Obj::new_unregistered(Event::build(
                Owner::Queue(queue.clone()),
                command_type,
                CL_QUEUED,
                work,
                inline,
            ))
        };
        // The old event's contents are dropped here, outside the queue's lock.
        match queue.spent_event() {
            Some(mut old) => match Obj::unused_mut(&mut old) {
                Some(event) => {
                    event.renew(command_type, work, inline);
                    old
                }
                None => fresh(work),
            },
            None => fresh(work),
        }
    }

    /// A spent command event of its queue made a new command's: what
    /// [`Event::build`] sets, field by field (the owner, and with it
    /// `profiling`, stay: the spares are their queue's).
    fn renew(&mut self, command_type: cl_command_type, work: Option<Work>, inline: bool) {
        self.command_type = command_type;
        self.inline = inline;
        *self.status.get_mut() = CL_QUEUED;
        *self.pending.get_mut() = 1;
        *self.dependency_failed.get_mut() = false;
        *self.host_gated.get_mut() = false;
        let profiling = self.profiling;
        let st = self.state.get_mut();
        st.phase = Phase::Waiting;
        st.work = work;
        st.dependents.clear();
        st.callbacks.clear();
        st.waiters = 0;
        st.times = [0; 4];
        if profiling {
            st.times[QUEUED] = now_ns();
        }
    }

    /// `clCreateUserEvent`: SUBMITTED until `clSetUserEventStatus`.
    pub fn new_user(context: &Arc<Obj<Context>>) -> Arc<Obj<Event>> {
        Obj::new_unregistered(Event::build(
            Owner::Context(context.clone()),
            CL_COMMAND_USER,
            CL_SUBMITTED,
            None,
            false,
        ))
    }

    pub fn context(&self) -> &Arc<Obj<Context>> {
        match &self.owner {
            Owner::Queue(q) => q.context(),
            Owner::Context(c) => c,
        }
    }

    /// The queue of a command; `None` for a user event.
    pub fn queue(&self) -> Option<&Arc<Obj<Queue>>> {
        match &self.owner {
            Owner::Queue(q) => Some(q),
            Owner::Context(_) => None,
        }
    }

    pub fn command_type(&self) -> cl_command_type {
        self.command_type
    }

    pub fn is_user(&self) -> bool {
        matches!(self.owner, Owner::Context(_))
    }

    /// `CL_EVENT_COMMAND_EXECUTION_STATUS`.
    pub fn status(&self) -> cl_int {
        self.status.load(Ordering::Acquire)
    }

    /// Complete or failed: nothing more will happen to it.
    pub fn is_complete(&self) -> bool {
        self.status() <= CL_COMPLETE
    }

    /// Checked mode (`api`): whether the command waited, when it was
    /// enqueued, for a user event not set yet (see `exec::api_check`).
    pub fn host_gated(&self) -> bool {
        self.host_gated.load(Ordering::Acquire)
    }

    /// Checked mode (`api`): record `host_gated`. Only before `submit`.
    pub fn set_host_gated(&self, gated: bool) {
        self.host_gated.store(gated, Ordering::Release);
    }

    /// Replace the work of a command not submitted yet; returns the old one.
    /// (Checked mode fails a command by giving it a work that fails.)
    pub fn replace_work(&self, work: Work) -> Option<Work> {
        self.state.lock().work.replace(work)
    }

    /// Wrap the work of a command not submitted yet (checked mode checks
    /// some commands when they begin execution).
    pub fn wrap_work(&self, f: impl FnOnce(Work) -> Work) {
        let mut st = self.state.lock();
        if let Some(work) = st.work.take() {
            st.work = Some(f(work));
        }
    }

    /// The commands waiting for this one now (empty once it is complete).
    pub fn dependents(&self) -> Vec<Arc<Obj<Event>>> {
        let st = self.state.lock();
        st.dependents.iter().map(|(e, _)| e.clone()).collect()
    }

    /// Make `this` wait for `dep`. Only before `submit`.
    pub fn add_dependency(this: &Arc<Obj<Event>>, dep: &Arc<Obj<Event>>, propagate: bool) {
        let mut st = dep.state.lock();
        let status = dep.status();
        if status <= CL_COMPLETE {
            if status < 0 && propagate {
                this.dependency_failed.store(true, Ordering::Release);
            }
        } else {
            this.pending.fetch_add(1, Ordering::AcqRel);
            st.dependents.push((this.clone(), propagate));
        }
    }

    /// The command is fully enqueued: the enqueue guard is dropped. True if
    /// it is ready to run now.
    pub fn submit(this: &Arc<Obj<Event>>) -> bool {
        this.dependency_done()
    }

    /// One dependency completed (or the guard dropped): true if none is left.
    pub fn dependency_done(&self) -> bool {
        self.pending.fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// The command is ready (every dependency done): it is SUBMITTED to the
    /// device now; say who runs it. (Until then it stays QUEUED, as the
    /// conformance tests expect of a command behind an unset user event.)
    pub fn mark_ready(this: &Arc<Obj<Event>>) -> Disposition {
        let mut st = this.state.lock();
        st.phase = Phase::Ready;
        if this.dependency_failed.load(Ordering::Acquire) {
            // Never submitted: it fails at once (QUEUED → the error).
            return Disposition::Inline;
        }
        if this.profiling {
            st.times[SUBMIT] = now_ns();
        }
        let fired = this.set_status(&mut st, CL_SUBMITTED);
        let disposition = if this.inline {
            Disposition::Inline
        } else if st.waiters > 0 {
            Disposition::Waiter
        } else {
            Disposition::Pool
        };
        drop(st);
        Event::call_back(this, fired);
        if disposition == Disposition::Waiter {
            // The waiters were parked when we saw them under the lock, so
            // this wakes them; they run the command (SUBMITTED callbacks
            // first, as above).
            this.changed.notify_all();
        }
        disposition
    }

    /// Claim a ready command to run it: RUNNING, and its work. `None` if it is
    /// not ready or someone else claimed it. `Some(None)` for a command with no
    /// work (a marker); a command whose dependency failed is failed here and
    /// gives `None` (its dependents are pushed onto `ready`).
    pub fn start(this: &Arc<Obj<Event>>, ready: &mut Vec<Arc<Obj<Event>>>) -> Option<Option<Work>> {
        let mut st = this.state.lock();
        if st.phase != Phase::Ready {
            return None;
        }
        if this.dependency_failed.load(Ordering::Acquire) {
            st.phase = Phase::Running;
            drop(st);
            Event::finish(
                this,
                Err(ClError::new(
                    CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                    "a command in the wait list failed",
                )),
                ready,
            );
            return None;
        }
        st.phase = Phase::Running;
        if this.profiling {
            st.times[START] = now_ns();
        }
        let work = st.work.take();
        let fired = this.set_status(&mut st, CL_RUNNING);
        drop(st);
        Event::call_back(this, fired);
        Some(work)
    }

    /// The command ended with `result`: COMPLETE or its error. Wakes waiters,
    /// calls callbacks, and pushes the dependents that became ready.
    pub fn finish(this: &Arc<Obj<Event>>, result: CLResult<()>, ready: &mut Vec<Arc<Obj<Event>>>) {
        let status = match &result {
            Ok(()) => CL_COMPLETE,
            Err(e) if e.code < 0 => e.code,
            Err(_) => CL_OUT_OF_RESOURCES,
        };
        // A command's own failure is reported to the context's callback (a
        // failure passed on from a dependency was reported there already)
        // before its status changes, so a host that waits for the event has
        // every message once the wait returns. No lock is held: the callback
        // may call into the API.
        if let Err(e) = &result {
            if e.code != CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
                && !e.message.is_empty()
                && this.state.lock().phase != Phase::Done
            {
                this.context().notify(&e.message);
            }
        }
        let (fired, dependents, unrun) = {
            let mut st = this.state.lock();
            if st.phase == Phase::Done {
                return;
            }
            st.phase = Phase::Done;
            if this.profiling {
                st.times[END] = now_ns();
            }
            let fired = this.set_status(&mut st, status);
            if st.waiters > 0 {
                this.changed.notify_all();
            }
            (fired, std::mem::take(&mut st.dependents), st.work.take())
        };
        // Work that never ran (a dependency failed) is dropped with no lock
        // held: it may hold the last reference to a memory object whose
        // destructor callback calls into the API.
        drop(unrun);
        Event::call_back(this, fired);
        // Complete and released by the user: the spec deletes it now, so
        // its handle is invalid, though its queue may keep the object.
        if this.ref_count() == 0 {
            this.unregister();
        }
        for (dep, propagate) in dependents {
            if status < 0 && propagate {
                dep.dependency_failed.store(true, Ordering::Release);
            }
            if dep.dependency_done() {
                ready.push(dep);
            }
        }
    }

    /// `clSetUserEventStatus`: CL_INVALID_OPERATION if already set.
    pub fn set_user_status(
        this: &Arc<Obj<Event>>,
        status: cl_int,
        ready: &mut Vec<Arc<Obj<Event>>>,
    ) -> CLResult<()> {
        {
            let mut st = this.state.lock();
            if st.phase != Phase::Waiting {
                return Err(ClError::new(
                    CL_INVALID_OPERATION,
                    "the user event's status was already set",
                ));
            }
            st.phase = Phase::Running;
        }
        let result = if status == CL_COMPLETE {
            Ok(())
        } else {
            Err(ClError::new(status, ""))
        };
        Event::finish(this, result, ready);
        Ok(())
    }

    /// Set the status (lock held) and take the callbacks it fires.
    fn set_status(
        &self,
        st: &mut MutexGuard<'_, State>,
        status: cl_int,
    ) -> Vec<(cl_int, EventCallbackFn, UserData)> {
        self.status.store(status, Ordering::Release);
        if st.callbacks.is_empty() {
            return Vec::new();
        }
        let (mut fired, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut st.callbacks)
            .into_iter()
            .partition(|&(on, _, _)| status < 0 || status <= on);
        st.callbacks = kept;
        // SUBMITTED before RUNNING before COMPLETE; registration order within.
        fired.sort_by_key(|&(on, _, _)| std::cmp::Reverse(on));
        if status < 0 {
            for f in &mut fired {
                f.0 = status;
            }
        }
        fired
    }

    /// Call fired callbacks (no lock held). A callback gets the status it
    /// was registered for, or the error status.
    fn call_back(this: &Arc<Obj<Event>>, fired: Vec<(cl_int, EventCallbackFn, UserData)>) {
        for (status, f, data) in fired {
            // SAFETY: the user's callback with the spec's signature; the event
            // is alive (we hold `this`) for the duration of the call.
            unsafe { f(Obj::handle(this), status, data.0) };
        }
    }

    /// `clSetEventCallback`: called once the status reaches `on` (now, on this
    /// thread, if it already has).
    pub fn add_callback(this: &Arc<Obj<Event>>, on: cl_int, f: EventCallbackFn, data: UserData) {
        let now = {
            let mut st = this.state.lock();
            let status = this.status();
            if status < 0 {
                Some(status)
            } else if status <= on {
                Some(on)
            } else {
                st.callbacks.push((on, f, data));
                None
            }
        };
        if let Some(status) = now {
            Event::call_back(this, vec![(status, f, data)]);
        }
    }

    /// Block until complete or failed; returns the final status. If the
    /// command is ready and nobody runs it yet, `run` is called to run it on
    /// this thread (it returns having started nothing if someone else won).
    pub fn wait(this: &Arc<Obj<Event>>, mut run: impl FnMut(&Arc<Obj<Event>>)) -> cl_int {
        let mut st = this.state.lock();
        loop {
            let status = this.status();
            if status <= CL_COMPLETE {
                return status;
            }
            if st.phase == Phase::Ready {
                drop(st);
                run(this);
                st = this.state.lock();
                continue;
            }
            st.waiters += 1;
            this.changed.wait(&mut st);
            st.waiters -= 1;
        }
    }

    /// `clGetEventProfilingInfo`: the timestamp, or `None` when the spec says
    /// CL_PROFILING_INFO_NOT_AVAILABLE (no profiling, user event, not complete).
    pub fn profiling_time(&self, param: cl_profiling_info) -> Option<u64> {
        if !self.profiling || self.status() != CL_COMPLETE {
            return None;
        }
        let t = self.state.lock().times;
        match param {
            CL_PROFILING_COMMAND_QUEUED => Some(t[QUEUED]),
            CL_PROFILING_COMMAND_SUBMIT => Some(t[SUBMIT]),
            CL_PROFILING_COMMAND_START => Some(t[START]),
            CL_PROFILING_COMMAND_END | CL_PROFILING_COMMAND_COMPLETE => Some(t[END]),
            _ => None,
        }
    }
}

impl Drop for Event {
    /// Drop chains of never-completed dependents (behind a user event that
    /// was released unset) iteratively, not by recursion.
    fn drop(&mut self) {
        let mut chain = std::mem::take(&mut self.state.get_mut().dependents);
        while let Some((e, _)) = chain.pop() {
            if Arc::strong_count(&e) == 1 {
                chain.append(&mut e.state.lock().dependents);
            }
        }
    }
}
