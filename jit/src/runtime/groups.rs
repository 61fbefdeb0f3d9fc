//! Running a run of work-groups of one launch on one thread, set up once.
//!
//! Setting up a work-group costs more than a small group's work: the
//! checks of the argument block and the geometry, the copy of the
//! executor's context into a [`GroupState`], the thread's fault slot
//! marked running, a checkpoint armed, the thread's stack registered, an
//! [`ItemState`] made — about a thousand instructions,
//! where a group of one work-item that writes one value runs a hundred. A launch of many small
//! groups (a local size of 1, as naive host code writes it) spent most of
//! its time there.
//!
//! So the executor hands a thread a *run* of groups (a chunk of linear
//! ids, `CompiledProgram::run_work_groups`), and for a kernel whose entry
//! runs a whole group in one call (a group entry, or an item entry when
//! every group has one work-item) [`run_loop_groups`] does that set-up once
//! for the run, and calls [`run_groups`] once through the fault checkpoint.
//! That loop calls the entry once per group and between calls moves the
//! `GroupState` on to the next group: an odometer over the group ids
//! (dimension 0 fastest, no division) and each group's size (smaller in the
//! last group of a dimension). The run's first group ([`GroupWalk`] finds
//! it: three divisions per run), the number of groups and the last groups'
//! sizes are in the `GroupState` it starts from.
//!
//! A fault in the entry abandons the rest of the run: recovery returns to
//! the checkpoint, discarding the entry's frames and [`run_groups`]'s,
//! which holds only addresses and counters (no destructor, no lock: as
//! safe to drop as a generated frame). The `GroupState` then holds the
//! faulting group's id, which the result names, and which the thread's
//! fault slot follows while the run goes on (so a fault that is reported
//! rather than recovered names its group too).
//!
//! Everything else — region and coroutine groups, checked mode (whose
//! per-group state `check::with_state` sets up), schedule fuzzing, a
//! single group — runs group by group as before.

use super::{fault, EntryFn, GroupState, ItemState};
use crate::launch::{KernelFault, WorkGroupCtx};

/// The groups of a launch from one linear id on, in linear order
/// (dimension 0 fastest): each group's id and size.
#[derive(Clone, Copy, Debug)]
pub struct GroupWalk {
    id: [u64; 3],
    /// The current group's size.
    size: [u64; 3],
    num_groups: [u64; 3],
    /// The size of every group but the last of a dimension (the enqueued
    /// local size), and of the last.
    full: [u64; 3],
    last: [u64; 3],
}

impl GroupWalk {
    /// The walk of `ctx`'s launch (its `num_groups`, `global_size` and
    /// `enqueued_local_size`) starting at the group of linear id `first`.
    pub fn new(ctx: &WorkGroupCtx, first: u64) -> GroupWalk {
        let n = ctx.num_groups.map(|n| n.max(1));
        let full = ctx.enqueued_local_size;
        // The last group of a dimension whose global size is not a multiple
        // of the local size is smaller.
        let last = std::array::from_fn(|d| {
            let start = (n[d] - 1).saturating_mul(full[d]);
            ctx.global_size[d].saturating_sub(start).min(full[d])
        });
        // Three divisions, once per walk.
        let id = [
            first % n[0],
            (first / n[0]) % n[1],
            first / n[0].saturating_mul(n[1]),
        ];
        let mut walk = GroupWalk {
            id,
            size: full,
            num_groups: n,
            full,
            last,
        };
        (0..3).for_each(|d| walk.resize(d));
        walk
    }

    /// The current group's id.
    pub fn id(&self) -> [u64; 3] {
        self.id
    }

    /// The current group's size: the enqueued local size, less in the last
    /// group of a dimension whose global size is not a multiple of it.
    pub fn local_size(&self) -> [u64; 3] {
        self.size
    }

    /// The size of the last group of each dimension.
    pub fn last_local_size(&self) -> [u64; 3] {
        self.last
    }

    fn resize(&mut self, d: usize) {
        self.size[d] = if self.id[d] + 1 == self.num_groups[d] {
            self.last[d]
        } else {
            self.full[d]
        };
    }

    /// Move on by `n` (at least one) groups that lie in the current row
    /// (dimension 0) from the current one.
    pub fn advance_in_row(&mut self, n: u64) {
        self.id[0] += n.max(1) - 1;
        self.advance();
    }

    /// Move to the next group in linear order.
    pub fn advance(&mut self) {
        self.id[0] += 1;
        if self.id[0] == self.num_groups[0] {
            self.id[0] = 0;
            self.id[1] += 1;
            if self.id[1] == self.num_groups[1] {
                self.id[1] = 0;
                self.id[2] += 1;
                self.resize(2);
            }
            self.resize(1);
        }
        self.resize(0);
    }
}

/// What [`run_groups`] runs: passed as its argument block.
#[repr(C)]
struct Run {
    entry: EntryFn,
    args: *const u8,
    /// Called between two groups, the state moved on to the next
    /// (checked mode's per-group set-up, `check::between_groups`).
    between: Option<unsafe extern "C" fn(*mut GroupState)>,
}

/// Run `count` (at least one) groups from `walk` on, each by one call of
/// `entry` (see the module comment); `group` holds the launch's geometry.
/// The first fault stops the run: it is returned with its group's id.
///
/// # Safety
/// `entry` runs a whole group in one call (a group entry, or an item entry
/// of groups of one work-item) of a kernel whose argument block is `args`;
/// `group` was checked for it (`run_work_group_checked`'s checks, with the
/// largest group of the launch); the caller holds `running` (this thread's
/// fault slot) for the run.
pub unsafe fn run_loop_groups(
    entry: EntryFn,
    args: *const u8,
    group: &mut GroupState,
    walk: &GroupWalk,
    count: u64,
    running: &fault::Running<'_>,
    between: Option<unsafe extern "C" fn(*mut GroupState)>,
) -> Result<(), ([u64; 3], KernelFault)> {
    cranecl_memory::private::register_thread_stack();
    let dims = (group.work_dim as usize).min(3);
    let (id, size, last) = (walk.id(), walk.local_size(), walk.last_local_size());
    // The dimensions below `work_dim`: the others keep the spec's defaults.
    group.group_id[..dims].copy_from_slice(&id[..dims]);
    group.local_size[..dims].copy_from_slice(&size[..dims]);
    group.last_local_size[..dims].copy_from_slice(&last[..dims]);
    group.run_left = count.max(1);
    let mut item = super::thread_item(group);
    // The run writes the group (a pointer from `&mut`).
    let group: *mut GroupState = group;
    item.group = group;
    let run = Run {
        entry,
        args,
        between,
    };
    // SAFETY: `group` outlives the run, and the slot stops following it
    // below, before it goes.
    unsafe { running.follow_group(std::ptr::addr_of!((*group).group_id).cast()) };
    // SAFETY: `run_groups` calls `entry` as the caller allows; `item`, the
    // group it points to and `run` outlive the call.
    let r = unsafe { fault::call_armed(run_groups, &mut item, &run as *const Run as *const u8) };
    // SAFETY: null: the slot goes back to the id `enter` gave it.
    unsafe { running.follow_group(std::ptr::null()) };
    r.map_err(|f| {
        // SAFETY: the run is over; the group is ours again.
        let at = unsafe { (*group).group_id };
        ([at[0], at[1], at[2]], super::abandoned(f))
    })
}

/// The run: `entry` once per group, `run_left` groups from the one in the
/// item's `GroupState` on, the state moved on between calls. Nothing here
/// can panic or owns anything: a fault in the entry discards this frame.
///
/// # Safety
/// `run` points to a [`Run`]; `item` to an `ItemState` whose group was set
/// up by [`run_loop_groups`] and may be written through it.
unsafe extern "C" fn run_groups(item: *mut ItemState, run: *const u8) {
    // SAFETY: per the function's contract; the entry may read the group
    // (through `item`) but does not keep a reference to it across calls.
    unsafe {
        let run = &*(run as *const Run);
        let group = (*item).group as *mut GroupState;
        let mut left = (*group).run_left;
        loop {
            (run.entry)(item, run.args);
            left = left.wrapping_sub(1);
            if left == 0 {
                return;
            }
            next_group(&mut *group);
            if let Some(f) = run.between {
                f(group);
            }
        }
    }
}

/// Move `g` on to the next group in linear order (dimension 0 fastest),
/// with its size. A run never goes past the launch's last group, so the
/// last dimension never wraps.
fn next_group(g: &mut GroupState) {
    for d in 0..3 {
        let id = g.group_id[d].wrapping_add(1);
        let wraps = d < 2 && id == g.num_groups[d];
        let id = if wraps { 0 } else { id };
        g.group_id[d] = id;
        g.local_size[d] = if id.wrapping_add(1) == g.num_groups[d] {
            g.last_local_size[d]
        } else {
            g.enqueued_local_size[d]
        };
        if !wraps {
            return;
        }
    }
}
