//! Command-buffers (`cl_khr_command_buffer`, version 0.9.8): a list of
//! commands recorded once and run again on every `clEnqueueCommandBufferKHR`.
//!
//! A recorded command is the very work a queue would run: the buffer and SVM
//! commands and kernel launches build it as an `exec::Replay` (a closure that
//! may run more than once) after the same checks as their `clEnqueue*` forms,
//! and the command-buffer keeps it with what it needs alive (the memory
//! objects, the SVM allocations, a copy of the kernel with its arguments as
//! they were when recorded). There is no second copy or launch here.
//!
//! Synchronization-points are the commands' positions: the command recorded
//! n-th (from 1) is sync-point n, so a wait list is valid when every entry is
//! between 1 and the number of commands recorded so far. A command can only
//! wait for commands recorded before it, and a barrier for every earlier one,
//! so the recording order is an order in which every command's dependencies
//! come first. An enqueue is one command of its queue
//! (`CL_COMMAND_COMMAND_BUFFER_KHR`, ordered by the queue and the wait list as
//! any other) whose work runs the recorded commands one after another in
//! that order on the command's worker; the first that fails fails the
//! enqueue with its status. Each kernel launch still spreads its work-groups
//! over the device's threads.
//!
//! States: recording until `clFinalizeCommandBufferKHR`, executable after
//! (0.9.8 has no pending state: enqueuing a command-buffer whose earlier
//! enqueue has not completed is allowed, and each runs its own copy of the
//! arguments).

use super::context::Context;
use super::handle::Obj;
use super::queue::Queue;
use crate::error::{err, CLResult};
use crate::exec::api_check::Access;
use crate::exec::Replay;
use opencl_sys::*;
use parking_lot::Mutex;
use std::sync::Arc;

pub struct CommandBuffer {
    /// The queues given at creation (one: no `cl_khr_command_buffer_multi_device`).
    queues: Vec<Arc<Obj<Queue>>>,
    /// `CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR`: as given, the terminating 0
    /// included; empty for NULL.
    properties: Vec<cl_command_buffer_properties_khr>,
    state: Mutex<State>,
    uses: Uses,
}
crate::cl_object!(
    CommandBuffer,
    cl_command_buffer_khr,
    CL_INVALID_COMMAND_BUFFER_KHR,
    "command-buffer"
);

enum State {
    Recording(Vec<Replay>),
    Executable(Arc<[Replay]>),
}

/// Checked mode (`api`): the buffers the recorded commands use, which every
/// enqueue declares as its own (empty without `api`).
type Uses = Mutex<Vec<Access>>;

impl CommandBuffer {
    pub fn new(
        queues: Vec<Arc<Obj<Queue>>>,
        properties: Vec<cl_command_buffer_properties_khr>,
    ) -> Arc<Obj<CommandBuffer>> {
        Obj::new(CommandBuffer {
            queues,
            properties,
            state: Mutex::new(State::Recording(Vec::new())),
            uses: Mutex::new(Vec::new()),
        })
    }

    pub fn queues(&self) -> &[Arc<Obj<Queue>>] {
        &self.queues
    }

    /// The queue commands are recorded to (the only one).
    pub fn queue(&self) -> &Arc<Obj<Queue>> {
        &self.queues[0]
    }

    pub fn context(&self) -> &Arc<Obj<Context>> {
        self.queue().context()
    }

    pub fn properties(&self) -> &[cl_command_buffer_properties_khr] {
        &self.properties
    }

    /// `CL_COMMAND_BUFFER_STATE_KHR`.
    pub fn state(&self) -> cl_command_buffer_state_khr {
        match *self.state.lock() {
            State::Recording(_) => CL_COMMAND_BUFFER_STATE_RECORDING_KHR,
            State::Executable(_) => CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR,
        }
    }

    /// CL_INVALID_OPERATION if command_buffer has been finalized (the first
    /// check of every recording entry point after the handles).
    pub fn check_recording(&self) -> CLResult<()> {
        match *self.state.lock() {
            State::Recording(_) => Ok(()),
            State::Executable(_) => err(
                CL_INVALID_OPERATION,
                "the command-buffer has been finalized; no command can be recorded to it",
            ),
        }
    }

    /// CL_INVALID_SYNC_POINT_WAIT_LIST_KHR if synchronization-point objects
    /// in sync_point_wait_list are not valid synchronization-points: not a
    /// command recorded to this command-buffer before.
    pub fn check_sync_points(&self, points: &[cl_sync_point_khr]) -> CLResult<()> {
        let recorded = match &*self.state.lock() {
            State::Recording(c) => c.len(),
            State::Executable(c) => c.len(),
        };
        match points.iter().find(|&&p| p == 0 || p as usize > recorded) {
            Some(p) => err(
                CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                format!(
                    "sync-point {p} is not a command of this command-buffer ({recorded} recorded)"
                ),
            ),
            None => Ok(()),
        }
    }

    /// Append a command whose checks all passed; returns its sync-point.
    /// CL_INVALID_OPERATION if the command-buffer was finalized meanwhile;
    /// CL_OUT_OF_RESOURCES past `cl_uint`'s sync-points.
    /// `accesses`: checked mode's (`api`) buffer uses of the command.
    pub fn record(&self, work: Replay, accesses: Vec<Access>) -> CLResult<cl_sync_point_khr> {
        let mut st = self.state.lock();
        let State::Recording(commands) = &mut *st else {
            drop(st);
            return self.check_recording().map(|()| 0);
        };
        let Ok(point) = cl_sync_point_khr::try_from(commands.len() + 1) else {
            return err(
                CL_OUT_OF_RESOURCES,
                "the command-buffer holds as many commands as sync-points can name",
            );
        };
        commands.push(work);
        self.uses.lock().extend(accesses);
        Ok(point)
    }

    /// `clFinalizeCommandBufferKHR`: CL_INVALID_OPERATION if command_buffer
    /// is not in the Recording state.
    pub fn finalize(&self) -> CLResult<()> {
        let mut st = self.state.lock();
        match &mut *st {
            State::Recording(commands) => {
                let commands: Arc<[Replay]> = std::mem::take(commands).into();
                *st = State::Executable(commands);
                Ok(())
            }
            State::Executable(_) => err(
                CL_INVALID_OPERATION,
                "the command-buffer is already finalized",
            ),
        }
    }

    /// The recorded commands, in order, once finalized (CL_INVALID_OPERATION
    /// if command_buffer is not in the Executable state).
    pub fn executable(&self) -> CLResult<Arc<[Replay]>> {
        match &*self.state.lock() {
            State::Executable(c) => Ok(c.clone()),
            State::Recording(_) => err(
                CL_INVALID_OPERATION,
                "the command-buffer is not finalized (clFinalizeCommandBufferKHR)",
            ),
        }
    }
}

impl CommandBuffer {
    /// Checked mode (`api`): the buffer uses of every recorded command.
    pub fn accesses(&self) -> Vec<Access> {
        self.uses.lock().clone()
    }
}

/// The work of one enqueue: the commands in recording order, stopping at
/// the first that fails.
pub fn run_all(commands: &[Replay]) -> CLResult<()> {
    commands.iter().try_for_each(|c| c())
}
