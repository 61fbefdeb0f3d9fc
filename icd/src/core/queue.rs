//! Command queues: the context and device a queue belongs to, its properties,
//! and the order its commands must keep.
//!
//! A queue does not run anything itself (that is `exec`'s job); it remembers
//! which earlier commands a new one must wait for:
//! - in-order: the previous command (`last`);
//! - out-of-order: the last barrier, and for a marker or barrier with an empty
//!   wait list every command still outstanding.
//!
//! It holds those commands by `Weak` (a command holds its queue by `Arc`, so a
//! strong link back would be a cycle); a command that is not complete is always
//! kept alive by whatever will complete it (a dependency's list of dependents,
//! the worker pool, a thread running it), so a dead `Weak` means "done".
//!
//! It also keeps its latest command events (`spare`), strongly: the oldest,
//! once nobody else holds it (complete, released by the user), becomes the
//! next command's event in the same allocation, so a stream of launches with
//! an event each allocates nothing for them. That is a cycle (each holds the
//! queue), broken when the user's last reference to the queue goes
//! ([`Queue::released`]).

use super::context::Context;
use super::device::Device;
use super::event::Event;
use super::handle::Obj;
use opencl_sys::*;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::{Arc, Weak};

/// Command events a queue keeps for reuse: the oldest is looked at when a
/// command is enqueued and there are this many.
const SPARE_EVENTS: usize = 16;

/// While the oldest is still held (commands queued ahead of the worker, or
/// events the user keeps), the spares grow up to this many (about 140 KB),
/// so a stream that runs that far ahead still allocates nothing.
const MAX_SPARE_EVENTS: usize = 256;

pub struct Queue {
    context: Arc<Obj<Context>>,
    device: Arc<Obj<Device>>,
    /// `CL_QUEUE_PROPERTIES`.
    properties: cl_command_queue_properties,
    /// `CL_QUEUE_PROPERTIES_ARRAY`: the list as given, terminating 0 included;
    /// empty for the legacy call or a NULL list.
    properties_array: Vec<cl_queue_properties>,
    order: Mutex<Order>,
}
crate::cl_object!(
    Queue,
    cl_command_queue,
    CL_INVALID_COMMAND_QUEUE,
    "command queue",
    true
);

#[derive(Default)]
struct Order {
    /// The most recent command (in-order dependency, and what `clFinish` waits for).
    last: Option<Weak<Obj<Event>>>,
    /// The most recent barrier (out-of-order: every later command waits for it).
    barrier: Option<Weak<Obj<Event>>>,
    /// Commands enqueued and perhaps not complete (pruned as it grows).
    outstanding: Vec<Weak<Obj<Event>>>,
    /// Length of `outstanding` after the last pruning.
    pruned_len: usize,
    /// The latest command events, oldest first (see the module comment).
    spare: VecDeque<Arc<Obj<Event>>>,
}

/// The earlier commands of its queue a command waits for
/// ([`Queue::sequence`]): in order, only the one before it, held without
/// a list (a launch in a stream allocates nothing for it).
#[derive(Default)]
pub struct Earlier {
    last: Option<Arc<Obj<Event>>>,
    others: Vec<Arc<Obj<Event>>>,
}

impl Earlier {
    pub fn iter(&self) -> impl Iterator<Item = &Arc<Obj<Event>>> {
        self.last.iter().chain(&self.others)
    }
}

/// How a new command relates to the earlier commands of its queue.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Sequence {
    /// An ordinary command.
    Command,
    /// A marker: with an empty wait list it waits for every earlier command.
    Marker,
    /// A barrier: as a marker, and every later command waits for it.
    Barrier,
}

impl Queue {
    pub fn new(
        context: Arc<Obj<Context>>,
        device: Arc<Obj<Device>>,
        properties: cl_command_queue_properties,
        properties_array: Vec<cl_queue_properties>,
    ) -> Arc<Obj<Queue>> {
        Obj::new(Queue {
            context,
            device,
            properties,
            properties_array,
            order: Mutex::new(Order::default()),
        })
    }

    /// The oldest spare event when there are enough and nobody else
    /// seems to hold it (the caller makes sure: [`Obj::unused_mut`]), or
    /// when there are too many.
    pub fn spent_event(&self) -> Option<Arc<Obj<Event>>> {
        let mut o = self.order.lock();
        let take = match o.spare.front() {
            Some(old) if o.spare.len() >= SPARE_EVENTS => {
                o.spare.len() >= MAX_SPARE_EVENTS || Obj::unused(old)
            }
            _ => false,
        };
        take.then(|| o.spare.pop_front()).flatten()
    }

    /// The user's last reference went: the spare events, which hold the
    /// queue, are let go (commands still running hold their own events).
    pub fn released(&self) {
        let spare = std::mem::take(&mut self.order.lock().spare);
        drop(spare);
    }

    pub fn context(&self) -> &Arc<Obj<Context>> {
        &self.context
    }

    pub fn device(&self) -> &Arc<Obj<Device>> {
        &self.device
    }

    pub fn properties(&self) -> cl_command_queue_properties {
        self.properties
    }

    pub fn properties_array(&self) -> &[cl_queue_properties] {
        &self.properties_array
    }

    pub fn out_of_order(&self) -> bool {
        self.properties() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0
    }

    pub fn profiling(&self) -> bool {
        self.properties() & CL_QUEUE_PROFILING_ENABLE != 0
    }

    /// Record `event` as this queue's newest command and return the earlier
    /// commands it must wait for. `has_wait_list`: the command's own wait list
    /// is not empty (a marker or barrier with one waits only for it).
    pub fn sequence(
        &self,
        event: &Arc<Obj<Event>>,
        kind: Sequence,
        has_wait_list: bool,
    ) -> Earlier {
        // Every event upgraded under the lock is dropped after it: dropping
        // the last reference to an event may drop a command's work, and with
        // it a memory object whose destructor calls the user back.
        let mut found = Earlier::default();
        let mut o = self.order.lock();
        let ordered = !self.out_of_order();
        if ordered {
            found.last = o.last.as_ref().and_then(Weak::upgrade);
        } else {
            let found = &mut found.others;
            if kind != Sequence::Command && !has_wait_list {
                found.extend(o.outstanding.iter().filter_map(Weak::upgrade));
                found.extend(o.last.as_ref().and_then(Weak::upgrade));
            }
            found.extend(o.barrier.as_ref().and_then(Weak::upgrade));
        }
        o.spare.push_back(event.clone());
        let weak = Arc::downgrade(event);
        if kind == Sequence::Barrier {
            o.barrier = Some(weak.clone());
            if !has_wait_list {
                // Everything earlier is covered by the barrier itself.
                o.outstanding.clear();
                o.pruned_len = 0;
            }
        }
        // In order, `last` stands for every earlier command (each waited for
        // the one before it); out of order each must be remembered.
        if let Some(prev) = o.last.replace(weak) {
            if !ordered {
                o.outstanding.push(prev);
            }
        }
        let mut pruned = Vec::new();
        if o.outstanding.len() > 64 && o.outstanding.len() > 2 * o.pruned_len {
            o.outstanding.retain(|w| match w.upgrade() {
                Some(e) if !e.is_complete() => {
                    pruned.push(e);
                    true
                }
                Some(e) => {
                    pruned.push(e);
                    false
                }
                None => false,
            });
            o.pruned_len = o.outstanding.len();
        }
        drop(o);
        drop(pruned);
        found.last = found.last.filter(|e| !e.is_complete());
        found.others.retain(|e| !e.is_complete());
        found
    }

    /// Every command of this queue that may not be complete yet (`clFinish`).
    pub fn unfinished(&self) -> Vec<Arc<Obj<Event>>> {
        let o = self.order.lock();
        let mut found: Vec<Arc<Obj<Event>>> = o
            .outstanding
            .iter()
            .chain(o.last.iter())
            .chain(o.barrier.iter())
            .filter_map(Weak::upgrade)
            .collect();
        drop(o);
        // (Filtered after the lock is released: see `sequence`.)
        found.retain(|e| !e.is_complete());
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::device::device;

    fn outstanding(q: &Queue) -> usize {
        q.order.lock().outstanding.len()
    }

    /// An out-of-order queue forgets completed commands as it goes: its list
    /// stays bounded however many commands pass through it.
    #[test]
    fn outstanding_list_is_pruned() {
        let ctx = Context::new(vec![device().clone()], Vec::new(), false, None);
        let q = Queue::new(
            ctx,
            device().clone(),
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            Vec::new(),
        );
        let mut most = 0;
        for _ in 0..10_000 {
            crate::exec::enqueue_command(
                &q,
                CL_COMMAND_MARKER,
                &[],
                std::ptr::null_mut(),
                false,
                crate::exec::Kind::Small,
                None,
            )
            .unwrap();
            most = most.max(outstanding(&q));
        }
        assert!(most <= 130, "outstanding grew to {most}");
        // An in-order queue needs only its last command.
        let q = Queue::new(q.context().clone(), device().clone(), 0, Vec::new());
        for _ in 0..100 {
            crate::exec::enqueue_command(
                &q,
                CL_COMMAND_MARKER,
                &[],
                std::ptr::null_mut(),
                false,
                crate::exec::Kind::Marker,
                None,
            )
            .unwrap();
        }
        assert_eq!(outstanding(&q), 0);
        assert!(q.unfinished().is_empty());
    }
}
