//! Running one work-group of a compiled kernel.
//!
//! Generated code sees two `#[repr(C)]` records: the [`GroupState`] (the
//! geometry of the group, copied from the executor's
//! [`WorkGroupCtx`] with every per-dimension
//! array padded to four entries, so that `get_global_id(dim)` is one load at
//! index `min(dim, 3)` and dimensions at or above `work_dim` answer the
//! spec's defaults: size 1, id 0, offset 0) and one [`ItemState`] per
//! work-item (its local id, the group, the coroutine it runs in and the
//! bounds of its private stack).
//!
//! Two strategies run a group:
//! - without barriers the kernel's generated *group entry* loops over the
//!   local ids itself (one call from here per group);
//! - with barriers each work-item runs the kernel's *item entry* as a
//!   stackful coroutine (corosensei) on a pooled stack; `barrier()` calls
//!   [`cranecl_barrier`], which suspends the coroutine. The group is resumed
//!   in rounds — every unfinished item once per round — until all return, so
//!   items that skip a barrier (undefined behaviour in OpenCL) cannot
//!   deadlock the host and every coroutine runs to completion (no forced
//!   unwinding through generated frames).
//!
//! Generated code is always called through [`fault::call`], so that a fault
//! in it (a bad pointer, a stack overflow) abandons the group and the run
//! returns a [`KernelFault`] (x86_64), or is reported before the process
//! dies (see [`fault`]; `run_work_group` tells it which kernel and group run
//! on the thread). After a fault in a coroutine group the other items are
//! never resumed: their suspended stacks, which hold only generated frames
//! and `cranecl_barrier`, are reset, not unwound.
//!
//! Stacks are kept in a per-thread pool so that a launch does not map
//! memory per group; each has a guard page below it (corosensei's
//! `DefaultStack`), so an overflow faults instead of overwriting memory.

pub mod check;
pub mod fault;
pub mod fp_env;
pub mod groups;
pub mod schedule;

use crate::launch::{KernelFault, WorkGroupCtx};
use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::cell::RefCell;
use std::ffi::c_void;

/// Bytes of stack per work-item coroutine (private arrays live there).
pub const ITEM_STACK_SIZE: usize = 256 * 1024;
/// On the calling thread's stack, private memory is taken to be this many
/// bytes below the runtime's frame: private data is limited to 1 MiB (see
/// `codegen::MAX_PRIVATE_ON_THREAD_STACK`) plus the frames of generated code.
const THREAD_PRIVATE_WINDOW: u64 = 2 << 20;
/// Most stacks one thread keeps for reuse.
const POOL_LIMIT: usize = 4096;

/// The group's geometry as generated code reads it. Index 3 of every array
/// holds the value for an out-of-range dimension.
#[repr(C)]
#[derive(Debug, Default)]
pub struct GroupState {
    pub global_size: [u64; 4],
    pub global_offset: [u64; 4],
    pub local_size: [u64; 4],
    pub enqueued_local_size: [u64; 4],
    pub num_groups: [u64; 4],
    pub group_id: [u64; 4],
    /// A row of work-groups of one work-item run in one call
    /// (`lower::one_item_groups`): the step under way, as the offset of
    /// its first group from `group_id[0]`, with the number of groups the
    /// step runs together above it ([`ROW_STEP_ITEMS_SHIFT`]) when it runs
    /// several. 0 otherwise. Right after
    /// `group_id`: the fault handler reads it through the same pointer.
    /// Generated code writes it (an atomic for that, read relaxed).
    pub row_step: std::sync::atomic::AtomicU64,
    /// 1 while the call runs a row of work-groups of one work-item, 0
    /// otherwise: only then does generated code write `row_step` (a kernel
    /// that needs no rewrite for rows shares its group entry with them, and
    /// a store per step costs a streaming kernel an eighth of its
    /// bandwidth: the store waits in order behind the step's own).
    pub in_row: u64,
    pub work_dim: u64,
    /// Address of the group's local arena.
    pub local_mem: u64,
    pub local_mem_size: u64,
    /// Checked mode: this thread's `check::CheckState` (0 when unchecked).
    pub check: u64,
    /// Checked mode: the per-site cache of the fast path (`check.rs`).
    pub check_cache: u64,
    /// Checked `races`/`uninit`: the group's current serial (one more per
    /// barrier it has passed) and its first serial (`check.rs`).
    pub check_serial: std::sync::atomic::AtomicU64,
    pub check_base: u64,
    /// Schedule fuzzing: this group's `schedule::GroupOrder` (0: the usual
    /// order).
    pub schedule: u64,
    /// A run of groups (`groups.rs`): the groups left to run, this one
    /// included, and the size of the last group of each dimension.
    pub run_left: u64,
    pub last_local_size: [u64; 4],
}

impl GroupState {
    /// Copy the executor's context, replacing dimensions at or above
    /// `work_dim` by the spec's defaults.
    pub fn from_ctx(ctx: &WorkGroupCtx) -> GroupState {
        let dims = (ctx.work_dim as usize).min(3);
        // Element by element (a copy of `dims` elements is a call of memcpy,
        // six per work-group).
        let pad = |a: &[u64; 3], default: u64| -> [u64; 4] {
            std::array::from_fn(|d| if d < dims { a[d] } else { default })
        };
        GroupState {
            global_size: pad(&ctx.global_size, 1),
            global_offset: pad(&ctx.global_offset, 0),
            local_size: pad(&ctx.local_size, 1),
            enqueued_local_size: pad(&ctx.enqueued_local_size, 1),
            num_groups: pad(&ctx.num_groups, 1),
            group_id: pad(&ctx.group_id, 0),
            row_step: std::sync::atomic::AtomicU64::new(0),
            in_row: 0,
            work_dim: u64::from(ctx.work_dim),
            local_mem: ctx.local_mem as u64,
            local_mem_size: ctx.local_mem_size,
            check: 0,
            check_cache: 0,
            check_serial: std::sync::atomic::AtomicU64::new(0),
            check_base: 0,
            schedule: 0,
            run_left: 1,
            last_local_size: pad(&ctx.local_size, 1),
        }
    }
    /// Work-items in the group (saturating: absurd sizes stay absurd).
    pub fn items(&self) -> u64 {
        self.local_size[0]
            .saturating_mul(self.local_size[1])
            .saturating_mul(self.local_size[2])
    }
}

/// In `GroupState::row_step`: the number of groups the step runs together
/// (0 for one) is stored shifted by this, above the offset.
pub const ROW_STEP_ITEMS_SHIFT: u32 = 56;

/// The group a fault in a row step happened in (`row_step` read from the
/// `GroupState`): the step's first group, and how many more ran with it.
pub fn row_step_group(group_id: [u64; 3], row_step: u64) -> ([u64; 3], u64) {
    let items = row_step >> ROW_STEP_ITEMS_SHIFT;
    let first = group_id[0].wrapping_add(row_step & ((1 << ROW_STEP_ITEMS_SHIFT) - 1));
    ([first, group_id[1], group_id[2]], items.saturating_sub(1))
}

/// One work-item as generated code sees it (every function gets a pointer to it).
#[repr(C)]
#[derive(Debug)]
pub struct ItemState {
    pub group: *const GroupState,
    /// Index 3 is always 0.
    pub local_id: [u64; 4],
    /// The coroutine's `Yielder<(), ()>`, or null when the group runs as a loop.
    pub yielder: *const c_void,
    /// Bounds of this item's private stack (`to_private` classifies by them).
    pub private_lo: u64,
    pub private_hi: u64,
    /// Region strategy: the group's private arena (one frame per work-item,
    /// holding the private variables that live across barriers); an
    /// address in `[arena_lo, arena_hi)` is private too.
    pub arena: u64,
    pub arena_lo: u64,
    pub arena_hi: u64,
    /// Checked barriers: the site of the barrier this item waits at.
    pub barrier_site: u64,
    /// Checked `races`/`uninit`: the local linear id + 1 (group loops store
    /// it with the ids).
    pub check_me: u64,
    /// Checked mode: where a slow path called through a register-preserving
    /// trampoline leaves its result (`check::preserving`).
    pub check_ret: u64,
    /// Coroutines: 1 while this item waits at a sub-group barrier, 0 at a
    /// work-group barrier (or running).
    pub sub_group_wait: u64,
    /// The calls this item is in, of functions that reach a sub-group
    /// collective, hashed (0 in the kernel itself): a collective's tag
    /// mixes it in, so one function called from two places is two calls
    /// (`builtins/subgroup.rs`).
    pub sub_group_path: u64,
    /// Coroutines: the passes this item has made through loops that may
    /// wait for another work-item (`cranecl_progress`) ...
    pub progress_passes: u64,
    /// ... and 1 while it has let the others run from one.
    pub progress_wait: u64,
}

impl ItemState {
    fn new(group: &GroupState) -> ItemState {
        ItemState {
            group,
            local_id: [0; 4],
            yielder: std::ptr::null(),
            private_lo: 0,
            private_hi: 0,
            arena: 0,
            arena_lo: 0,
            arena_hi: 0,
            barrier_site: 0,
            check_me: 0,
            check_ret: 0,
            sub_group_wait: 0,
            sub_group_path: 0,
            progress_passes: 0,
            progress_wait: 0,
        }
    }
}

/// Byte offsets generated code uses.
pub mod offsets {
    use super::{GroupState, ItemState};
    use std::mem::offset_of;
    pub const GROUP_GLOBAL_SIZE: i32 = offset_of!(GroupState, global_size) as i32;
    pub const GROUP_GLOBAL_OFFSET: i32 = offset_of!(GroupState, global_offset) as i32;
    pub const GROUP_LOCAL_SIZE: i32 = offset_of!(GroupState, local_size) as i32;
    pub const GROUP_ENQUEUED_LOCAL_SIZE: i32 = offset_of!(GroupState, enqueued_local_size) as i32;
    pub const GROUP_NUM_GROUPS: i32 = offset_of!(GroupState, num_groups) as i32;
    pub const GROUP_GROUP_ID: i32 = offset_of!(GroupState, group_id) as i32;
    pub const GROUP_ROW_STEP: i32 = offset_of!(GroupState, row_step) as i32;
    // The fault handler finds `row_step` as the fifth word from `group_id`.
    const _: () = assert!(GROUP_ROW_STEP == GROUP_GROUP_ID + 32);
    pub const GROUP_IN_ROW: i32 = offset_of!(GroupState, in_row) as i32;
    pub const GROUP_WORK_DIM: i32 = offset_of!(GroupState, work_dim) as i32;
    pub const GROUP_LOCAL_MEM: i32 = offset_of!(GroupState, local_mem) as i32;
    pub const GROUP_LOCAL_MEM_SIZE: i32 = offset_of!(GroupState, local_mem_size) as i32;
    pub const ITEM_GROUP: i32 = offset_of!(ItemState, group) as i32;
    pub const ITEM_LOCAL_ID: i32 = offset_of!(ItemState, local_id) as i32;
    pub const ITEM_PRIVATE_LO: i32 = offset_of!(ItemState, private_lo) as i32;
    pub const ITEM_PRIVATE_HI: i32 = offset_of!(ItemState, private_hi) as i32;
    pub const ITEM_ARENA: i32 = offset_of!(ItemState, arena) as i32;
    pub const ITEM_ARENA_LO: i32 = offset_of!(ItemState, arena_lo) as i32;
    pub const ITEM_ARENA_HI: i32 = offset_of!(ItemState, arena_hi) as i32;
    pub const ITEM_BARRIER_SITE: i32 = offset_of!(ItemState, barrier_site) as i32;
    pub const GROUP_CHECK_CACHE: i32 = offset_of!(GroupState, check_cache) as i32;
    pub const GROUP_CHECK_SERIAL: i32 = offset_of!(GroupState, check_serial) as i32;
    pub const GROUP_CHECK_BASE: i32 = offset_of!(GroupState, check_base) as i32;
    pub const ITEM_CHECK_ME: i32 = offset_of!(ItemState, check_me) as i32;
    pub const ITEM_CHECK_RET: i32 = offset_of!(ItemState, check_ret) as i32;
    pub const ITEM_SUB_GROUP_PATH: i32 = offset_of!(ItemState, sub_group_path) as i32;
}

/// A generated entry: `(item, argument block)`.
pub type EntryFn = unsafe extern "C" fn(*mut ItemState, *const u8);

/// `barrier()` / `work_group_barrier()`: suspend this work-item until every
/// other one of the group has reached a barrier or finished.
///
/// # Safety
/// `item` is the `ItemState` generated code was given.
pub unsafe extern "C" fn cranecl_barrier(item: *mut ItemState) {
    // SAFETY: generated code passes the item it was called with; `yielder`
    // is either null (loop strategy: a barrier is a no-op because the group
    // has one item) or the live Yielder of the coroutine running this code.
    unsafe {
        let y = (*item).yielder as *const Yielder<(), ()>;
        if !y.is_null() {
            (*y).suspend(());
        }
    }
}

/// `sub_group_barrier()` (and the waits of a sub-group collective): suspend
/// this work-item until every other unfinished one of its sub-group has
/// reached a sub-group barrier (see [`run_coroutines`]).
///
/// # Safety
/// `item` is the `ItemState` generated code was given.
pub unsafe extern "C" fn cranecl_sub_group_barrier(item: *mut ItemState) {
    // SAFETY: as `cranecl_barrier`; a group run as a loop has one item, so
    // the sub-group barrier is a no-op there.
    unsafe {
        let y = (*item).yielder as *const Yielder<(), ()>;
        if !y.is_null() {
            (*item).sub_group_wait = 1;
            (*y).suspend(());
            (*item).sub_group_wait = 0;
        }
    }
}

/// How many passes through loops that may wait for another work-item a
/// coroutine makes before it lets the others run: often enough that a
/// waiting one costs little, rarely enough that a lock-free retry loop
/// (`atomic_cmpxchg` until it succeeds) seldom switches.
const PROGRESS_PERIOD: u64 = 16;

/// A pass through a loop that may wait for another work-item
/// (`lower/progress.rs`): every [`PROGRESS_PERIOD`] passes, a coroutine
/// lets the other work-items of its group run before it goes on, without
/// waiting at any barrier (see [`run_coroutines`]). So a sub-group that
/// waits for another in a loop never keeps it from running: independent
/// forward progress.
///
/// # Safety
/// `item` is the `ItemState` generated code was given.
pub unsafe extern "C" fn cranecl_progress(item: *mut ItemState) {
    // SAFETY: as `cranecl_barrier`; a group run as a loop has one item,
    // which has no other to wait for.
    unsafe {
        let y = (*item).yielder as *const Yielder<(), ()>;
        if y.is_null() {
            return;
        }
        (*item).progress_passes += 1;
        if (*item).progress_passes.is_multiple_of(PROGRESS_PERIOD) {
            (*item).progress_wait = 1;
            (*y).suspend(());
            (*item).progress_wait = 0;
        }
    }
}

/// `memmove` for aggregate copies in generated code.
///
/// # Safety
/// Both ranges are valid for `n` bytes.
pub unsafe extern "C" fn cranecl_memmove(dst: *mut u8, src: *const u8, n: u64) {
    // SAFETY: generated code copies between objects it knows to be `n` bytes.
    unsafe { std::ptr::copy(src, dst, n as usize) }
}

/// The address space of an address that is not in the calling work-item's
/// own local or private memory (the generic address space's `to_global`,
/// `to_local`, `to_private` and `get_fence`, spec 6.15.13): what the memory
/// registry says of it — [`SPACE_LOCAL`] for any work-group's local arena,
/// [`SPACE_PRIVATE`] for any work-item's stack or frames (the stacks of the
/// threads that run work-groups and the coroutine stacks are registered) —
/// and [`SPACE_GLOBAL`] for the rest (buffers, program-scope variables).
/// A pointer another work-item stored (a racy but common test pattern)
/// is so classified by where it points, not by who asks.
pub extern "C" fn cranecl_address_space(addr: u64) -> u32 {
    use cranecl_memory::registry::{lookup, Arena};
    match lookup(addr as usize).map(|f| f.arena()) {
        Some(Arena::Local) => SPACE_LOCAL,
        Some(Arena::Private) => SPACE_PRIVATE,
        // Memory we do not know (the host's, SVM) is global.
        Some(Arena::Global | Arena::Constant) | None => SPACE_GLOBAL,
    }
}

/// [`cranecl_address_space`]'s answers.
pub const SPACE_GLOBAL: u32 = 0;
pub const SPACE_LOCAL: u32 = 1;
pub const SPACE_PRIVATE: u32 = 2;

/// `memset` for zero-initialisation in generated code.
///
/// # Safety
/// `dst` is valid for `n` bytes.
pub unsafe extern "C" fn cranecl_memset(dst: *mut u8, val: u32, n: u64) {
    // SAFETY: generated code fills an object it knows to be `n` bytes.
    unsafe { std::ptr::write_bytes(dst, val as u8, n as usize) }
}

/// A pooled stack whose top is moved down by a few cache lines, different
/// for neighbouring work-items, so that the hot tops of many coroutine stacks
/// (all 256 KiB-aligned) do not fall into the same cache sets.
struct ItemStack {
    inner: PooledStack,
    offset: usize,
}

/// A coroutine stack and its registry entry ([`cranecl_memory::registry::Kind::Stack`]:
/// an address on it is private memory).
struct PooledStack {
    stack: DefaultStack,
    _registered: cranecl_memory::registry::Registration,
}

// SAFETY: the base stays inside the inner stack (offset < 4 KiB, far less
// than its size), 16-byte aligned; the limit and guard page are the inner
// stack's.
unsafe impl Stack for ItemStack {
    fn base(&self) -> corosensei::stack::StackPointer {
        let b = self.inner.stack.base().get() - self.offset;
        corosensei::stack::StackPointer::new(b).unwrap_or(self.inner.stack.base())
    }
    fn limit(&self) -> corosensei::stack::StackPointer {
        self.inner.stack.limit()
    }
}

thread_local! {
    static STACKS: RefCell<Vec<PooledStack>> = const { RefCell::new(Vec::new()) };
}

fn take_stack() -> Result<PooledStack, KernelFault> {
    if let Some(s) = STACKS.with(|p| p.borrow_mut().pop()) {
        return Ok(s);
    }
    let stack = DefaultStack::new(ITEM_STACK_SIZE).map_err(|e| KernelFault {
        message: format!("cannot allocate a work-item stack: {e}"),
    })?;
    let lo = stack.limit().get();
    let registered = cranecl_memory::registry::register(
        cranecl_memory::registry::Kind::Stack,
        lo,
        stack.base().get() - lo,
        0,
    );
    Ok(PooledStack {
        stack,
        _registered: registered,
    })
}

fn give_stack(s: PooledStack) {
    STACKS.with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < POOL_LIMIT {
            p.push(s);
        }
    });
}

/// A fault in generated code that abandoned the group.
fn abandoned(f: fault::Fault) -> KernelFault {
    KernelFault {
        message: f.message(),
    }
}

/// An item of `group` run on the calling thread's stack, whose private
/// range is an approximation generous enough for `to_private` (the frames
/// of generated code lie below the runtime's).
#[inline(always)]
fn thread_item(group: &GroupState) -> ItemState {
    let mut item = ItemState::new(group);
    let here = &item as *const ItemState as u64;
    item.private_lo = here.saturating_sub(THREAD_PRIVATE_WINDOW);
    item.private_hi = here + 4096;
    item
}

/// Run a group whose kernel has no barrier (or a group of one item): the
/// group entry loops over the local ids.
///
/// # Safety
/// `entry` is a group entry generated for a kernel whose argument block is `args`.
pub unsafe fn run_loop(
    entry: EntryFn,
    args: *const u8,
    group: &GroupState,
) -> Result<(), KernelFault> {
    cranecl_memory::private::register_thread_stack();
    let mut item = thread_item(group);
    // SAFETY: the caller guarantees `entry` matches `args`; `item` outlives the call.
    unsafe { fault::call_armed(entry, &mut item, args) }.map_err(abandoned)
}

/// Run a group with barriers cut into regions: the entry loops over the
/// work-items once per region, keeping what lives across barriers in one
/// `frame_size`-byte frame per work-item.
///
/// # Safety
/// `entry` is a region entry generated for a kernel whose argument block is
/// `args` and whose frames are `frame_size` bytes.
pub unsafe fn run_regions(
    entry: EntryFn,
    args: *const u8,
    group: &GroupState,
    frame_size: u64,
) -> Result<(), KernelFault> {
    cranecl_memory::private::register_thread_stack();
    let bytes = (group.items() * frame_size) as usize;
    let run = |base: u64| {
        let mut item = thread_item(group);
        item.arena = base;
        item.arena_lo = base;
        item.arena_hi = base + bytes as u64;
        // SAFETY: the private arena holds `bytes` bytes from `base`,
        // 128-byte aligned (frame sizes are multiples of their alignment, at
        // most 128); the caller guarantees `entry` matches `args`.
        unsafe { fault::call_armed(entry, &mut item, args) }.map_err(abandoned)
    };
    cranecl_memory::private::with_frames(bytes, run).unwrap_or_else(|| {
        Err(KernelFault {
            message: format!("cannot allocate {bytes} bytes of work-item frames"),
        })
    })
}

/// Run a group with barriers: one coroutine per work-item.
///
/// # Safety
/// `entry` is an item entry generated for a kernel whose argument block is `args`.
pub unsafe fn run_coroutines(
    entry: EntryFn,
    args: *const u8,
    group: &GroupState,
) -> Result<(), KernelFault> {
    let n = group.items() as usize;
    // Boxed so that the addresses handed to the coroutines never move.
    let mut items: Box<[ItemState]> = (0..n).map(|_| ItemState::new(group)).collect();
    // Each work-item's recovery point (armed while it runs).
    let mut checkpoints: Box<[fault::Checkpoint]> =
        (0..n).map(|_| fault::Checkpoint::default()).collect();
    // A coroutine returns the fault that abandoned it, if any.
    type ItemCoroutine = Coroutine<(), (), Option<fault::Fault>, ItemStack>;
    let mut coros: Vec<ItemCoroutine> = Vec::with_capacity(n);
    let [lx, ly, _] = [
        group.local_size[0],
        group.local_size[1],
        group.local_size[2],
    ];
    let mut fault = None;
    for (i, (item, cp)) in items.iter_mut().zip(checkpoints.iter_mut()).enumerate() {
        let i = i as u64;
        item.local_id = [i % lx, (i / lx) % ly, i / (lx * ly), 0];
        item.check_me = i + 1;
        let stack = match take_stack() {
            Ok(s) => ItemStack {
                inner: s,
                offset: (i as usize % 61) * 64,
            },
            Err(e) => {
                fault = Some(e);
                break;
            }
        };
        item.private_lo = stack.limit().get() as u64;
        item.private_hi = stack.base().get() as u64;
        let item_ptr = item as *mut ItemState as usize;
        let cp_ptr = cp as *mut fault::Checkpoint as usize;
        let args_addr = args as usize;
        coros.push(Coroutine::with_stack(
            stack,
            move |y: &Yielder<(), ()>, ()| {
                let item = item_ptr as *mut ItemState;
                // SAFETY: `items` and `checkpoints` outlive every coroutine
                // (they all finish or are reset before this function
                // returns), and the yielder lives as long as this closure runs.
                unsafe {
                    (*item).yielder = y as *const Yielder<(), ()> as *const c_void;
                    fault::call(
                        cp_ptr as *mut fault::Checkpoint,
                        entry,
                        item,
                        args_addr as *const u8,
                    )
                    .err()
                }
            },
        ));
    }
    if let Some(f) = fault {
        // None of them has started: dropping them only drops the closures.
        drop(coros);
        return Err(f);
    }
    // Rounds: resume every item that may run, until none is left or one
    // was abandoned by a fault. An item that yields waits at a work-group
    // barrier or at a sub-group barrier (`ItemState::sub_group_wait`), or
    // lets the others run from a loop that may wait for one of them
    // (`ItemState::progress_wait`: it stays ready). After each round, a
    // sub-group whose unfinished items all wait at a sub-group barrier goes
    // on; when no sub-group can, and every unfinished item waits at a
    // barrier, all of them go on (a work-group barrier — or items that wait
    // at different kinds of barrier, undefined behaviour: they go on rather
    // than hang the host). Without sub-group barriers this resumes every
    // unfinished item once per round.
    let mut failed = None;
    let mut ready = vec![true; coros.len()];
    let width = crate::launch::SUB_GROUP_SIZE as usize;
    // SAFETY: `schedule` is 0 or the group's `GroupOrder`, alive while it runs.
    let order = unsafe { (group.schedule as *const schedule::GroupOrder).as_ref() };
    'rounds: loop {
        // Schedule fuzzing: each round resumes the items in a new order.
        let round = order.map(|o| {
            let mut r: Vec<u64> = (0..coros.len() as u64).collect();
            o.order(&mut r);
            r
        });
        for k in 0..coros.len() {
            let i = round.as_ref().map_or(k, |r| r[k] as usize);
            let (c, cp) = (&mut coros[i], &mut checkpoints[i]);
            if c.done() || !ready[i] {
                continue;
            }
            fault::arm(cp);
            match c.resume(()) {
                CoroutineResult::Yield(()) => ready[i] = items[i].progress_wait == 1,
                CoroutineResult::Return(None) => {}
                CoroutineResult::Return(Some(f)) => {
                    failed = Some(f);
                    break 'rounds;
                }
            }
        }
        let waiting: Vec<usize> = (0..coros.len()).filter(|i| !coros[*i].done()).collect();
        if waiting.is_empty() {
            break;
        }
        let mut any = false;
        for first in (0..coros.len()).step_by(width) {
            let members = first..(first + width).min(coros.len());
            let mut live = members.clone().filter(|i| !coros[*i].done()).peekable();
            if live.peek().is_some() && live.all(|i| items[i].sub_group_wait == 1) {
                members.for_each(|i| ready[i] = true);
                any = true;
            }
        }
        if any {
            check::sub_group_round(group);
        } else if waiting.iter().any(|&i| items[i].progress_wait == 1) {
            // Some item still runs a loop that waits: the others keep
            // waiting at their barriers until it arrives at one too.
        } else {
            if group.check != 0 {
                let done: Vec<bool> = coros.iter().map(|c| c.done()).collect();
                check::barrier_round(group, &items, &done);
            }
            waiting.into_iter().for_each(|i| ready[i] = true);
        }
    }
    fault::disarm();
    if failed.is_some() {
        for c in coros.iter_mut().filter(|c| !c.done()) {
            // SAFETY: generated code is never resumed after a fault in its
            // group. A suspended item's stack holds only frames of generated
            // code, `cranecl_barrier`, the Yielder's switch and this
            // module's closure (plain addresses): nothing with a destructor.
            unsafe { c.force_reset() };
        }
    }
    for c in coros {
        give_stack(c.into_stack().inner);
    }
    drop(items);
    drop(checkpoints);
    failed.map_or(Ok(()), |f| Err(abandoned(f)))
}
