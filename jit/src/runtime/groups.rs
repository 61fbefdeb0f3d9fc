//! Running a run of work-groups of one launch on one thread, set up once.
//!
//! Setting up a work-group costs more than a small group's work: the
//! checks of the argument block and the geometry, the copy of the
//! executor's context into a [`GroupState`], the thread's fault slot
//! marked running, a checkpoint armed, the thread's stack registered, an
//! [`ItemState`](super::ItemState) made — about a thousand instructions,
//! where a group of one work-item that writes one value runs a hundred. A launch of many small
//! groups (a local size of 1, as naive host code writes it) spent most of
//! its time there.
//!
//! So the executor hands a thread a *run* of groups (a chunk of linear
//! ids, `CompiledProgram::run_work_groups`), and for an entry that runs a
//! whole group in one call (a group entry, or an item entry when every
//! group has one work-item) [`run_loop_groups`] does that set-up once for
//! the run. Per group it only moves to the next id ([`GroupWalk`]: an
//! odometer, dimension 0 fastest, no division), writes the group's id and
//! size into the one `GroupState`, tells the fault slot which group runs
//! (so a report still names it), resets the item and calls the entry
//! through the checkpoint armed for the whole run. Between two calls only
//! this module's code runs, which the fault handler never recovers (it is
//! not generated code), so leaving the checkpoint armed there changes
//! nothing. The first fault stops the run and names its group.
//!
//! Everything else — region and coroutine groups, checked mode (whose
//! per-group state `check::with_state` sets up), schedule fuzzing — runs
//! group by group as before.

use super::{fault, EntryFn, GroupState};
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

    fn resize(&mut self, d: usize) {
        self.size[d] = if self.id[d] + 1 == self.num_groups[d] {
            self.last[d]
        } else {
            self.full[d]
        };
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

/// Run `count` groups from `walk` on, each by one call of `entry` (a group
/// entry, or an item entry whose groups have one work-item); `group` holds
/// the launch's geometry, and each group's id and size are written into it
/// (the dimensions below `work_dim`: the others keep the spec's defaults).
/// The first fault stops the run: it is returned with its group's id.
///
/// # Safety
/// `entry` is such an entry generated for a kernel whose argument block is
/// `args`; `group` was checked for it (`run_work_group_checked`'s checks);
/// the caller holds `running` (this thread's fault slot) for the run.
pub unsafe fn run_loop_groups(
    entry: EntryFn,
    args: *const u8,
    group: &mut GroupState,
    walk: &mut GroupWalk,
    count: u64,
    running: &fault::Running<'_>,
) -> Result<(), ([u64; 3], KernelFault)> {
    cranecl_memory::private::register_thread_stack();
    let dims = (group.work_dim as usize).min(3);
    let mut cp = fault::Checkpoint::default();
    fault::arm(&mut cp);
    let mut item = super::thread_item(group);
    let mut result = Ok(());
    for _ in 0..count {
        let (id, size) = (walk.id(), walk.local_size());
        // Element by element (a slice copy is a call of memcpy).
        for d in 0..3 {
            if d < dims {
                group.group_id[d] = id[d];
                group.local_size[d] = size[d];
            }
        }
        running.set_group(id);
        // What generated code changes in its item: the ids it loops over,
        // the path of calls (restored on return: set again to be sure).
        item.local_id = [0; 4];
        item.sub_group_path = 0;
        item.group = group;
        // SAFETY: the caller guarantees `entry` matches `args`; `item` and
        // `group` outlive the call; `cp` is armed and outlives it.
        if let Err(f) = unsafe { fault::call(&mut cp, entry, &mut item, args) } {
            result = Err((id, super::abandoned(f)));
            break;
        }
        walk.advance();
    }
    fault::disarm();
    result
}
