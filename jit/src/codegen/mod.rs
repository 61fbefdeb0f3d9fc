//! Code generation: the typed HIR to native code through Cranelift, and the
//! lifetime of the generated code.
//!
//! [`compile`] runs the HIR rewrites of `lower/`, lays out the
//! program-scope variables in one arena (their initialisers applied,
//! addresses of other variables relocated), compiles every function
//! callees first (`fx.rs` holds the function context, `value.rs` the
//! value/place model, `expr.rs`/`stmt.rs`/`num.rs` the lowering,
//! `workitem.rs` the work-item functions and barriers, `inline.rs` inlines
//! small callees, `uninit.rs` follows uninitialised private variables in
//! checked mode), then gives each kernel one entry with the
//! runtime's `(item, args)` signature, by the strategy `lower` chose from
//! its barriers (`lower::plan_strategy`):
//! - none: a *group entry* with the kernel body inlined in a loop nest over
//!   the work-items (`group.rs`);
//! - barriers the region analysis accepts: a *region entry*, one work-item
//!   loop per stretch between barriers, values crossing barriers in
//!   per-item frames (`regions.rs`, the plan `lower/regions.rs`);
//! - any other barrier: an *item entry* run as one coroutine per work-item
//!   by `runtime/` (`abi.rs`).
//!
//! Group and region entries run their work-item loops eight (or four)
//! work-items per step where the kernel allows it (`lanes/`, SIMD across
//! work-items). The kernel's `Entry` records its strategy and step with its
//! function.
//!
//! The result, a [`CompiledProgram`], owns the module and the arena; only
//! finalized function pointers are shared between threads.
//!
//! Calling convention of generated functions: `(item: *mut ItemState,
//! [sret: *mut T,] params…)`. Scalars and pointers pass by value, vectors as
//! their lanes, structs and unions as the address of a copy; vector and
//! record results are written through the hidden `sret` pointer.

mod abi;
mod check;
mod expr;
mod fx;
mod group;
mod half;
mod hoist;
mod inline;
mod lanes;
mod num;
mod regions;
mod schedule;
mod stmt;
mod uninit;
mod value;
mod workitem;

pub use abi::GROUP_SCRATCH_SIZE;
pub use fx::FunctionCx;
pub(crate) use lanes::{LVal, LaneCx, Pk, MAX_LANES, MAX_REGS};
pub use value::{CPlace, CValue};
// The value model's facts about HIR types that the analyses of `lower/`
// ask (which types a register holds, which live in memory).
pub(crate) use value::{clif_type, is_aggregate};

use crate::launch::{KernelFault, KernelInfo};
use crate::lower;
pub use crate::lower::{Explanation, Step, Strategy};
use crate::runtime::check::{Checks, LaunchCheck, Site};
use crate::runtime::{self, EntryFn, GroupState};
use crate::sema::addrspace::AddrSpace;
use crate::sema::hir::{self, Program};
use crate::source::SourceMap;
use cranecl_memory::ProgramArena;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Module};
use std::sync::Arc;
use std::sync::Mutex;

/// Largest work-group a kernel runs with (coroutine stacks bound it).
pub const MAX_WORK_GROUP_SIZE: u64 = 1024;

/// Private memory a kernel without barriers may use on the calling thread's
/// stack (executor threads need a stack of at least 2 MiB).
pub const MAX_PRIVATE_ON_THREAD_STACK: u64 = 1 << 20;
/// Stack kept free for the frames of generated code and the runtime.
const PRIVATE_STACK_RESERVE: u64 = 64 << 10;

/// Largest program-scope variable (`CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE`
/// must not exceed it).
pub const MAX_PROGRAM_VARIABLE_SIZE: u64 = 1 << 30;

/// How to compile.
#[derive(Clone, Debug)]
pub struct CodegenOptions {
    /// `opt_level=speed` (otherwise `none`, for `-cl-opt-disable`).
    pub optimize: bool,
    /// Run the Cranelift verifier on every function.
    pub verify: bool,
    /// Cut kernels with barriers into regions where that is provably
    /// correct (otherwise, and when false, work-items are coroutines);
    /// `CRANECL_REGIONS=0` turns it off.
    pub barrier_regions: bool,
    /// Functions with more Cranelift instructions than this are compiled
    /// with the single-pass register allocator. 50,000: hashcat's SHA-256
    /// kernel (24.7k) gets the backtracking allocator — 1.7x its speed on
    /// the 2-core EPYC (1.6–1.8 → 2.9–3.1 MH/s), hashcat's start unchanged
    /// (9.5 s); at 20,000 19k of its 31k instructions touched the stack.
    pub regalloc_budget: usize,
    /// Run kernels without barriers several work-items per step where the
    /// body allows it (`lanes/`); `CRANECL_LANES=0` turns it off.
    pub lanes: bool,
    /// The work-items per step of every lanes entry, 4 or 8
    /// (`CRANECL_LANES=4` or `8`); `None`: chosen per kernel
    /// (`lanes::step_regs`).
    pub step_lanes: Option<usize>,
    /// Also build, per kernel, an entry for rows of work-groups of one
    /// work-item, eight groups per step (`one_item_groups.rs`);
    /// `CRANECL_GROUPS_OF_ONE=0` turns it off.
    pub groups_of_one: bool,
    /// Also run masked the divergent loops that access memory at
    /// addresses that differ between lanes (slower than once per lane on
    /// gathers; for tests of the masked accesses).
    pub masked_memory_loops: bool,
    /// Checked mode (`CRANECL_CHECK`): checked accesses, subscripts and
    /// barriers; kernels then run one work-item per step (no lanes) and
    /// barrier kernels as coroutines.
    pub check: Checks,
    /// The sources, so that checked mode can name a site's line.
    pub sources: Option<Arc<SourceMap>>,
    /// Note, for [`CompiledProgram::explanations`], where the lanes run
    /// something once per lane or masked (with `sources`, at its line).
    pub explain: bool,
    /// Schedule fuzzing (`CRANECL_SCHEDULE`): loops over work-items run
    /// them in the order `runtime::schedule` gives, and the lanes of a step
    /// that run one after another in an order drawn from it (see there).
    pub schedule: Option<runtime::schedule::Schedule>,
    /// `-cl-denorms-are-zero`: work-groups run with denormals flushed
    /// (`runtime/fp_env.rs`).
    pub denorms_are_zero: bool,
    /// Contract `a * b + c` into one fused multiply-add where the host has
    /// the instruction and no `#pragma OPENCL FP_CONTRACT OFF` says
    /// otherwise (`lower/contract.rs`); `CRANECL_FP_CONTRACT=0` turns it
    /// off.
    pub fp_contract: bool,
}

impl Default for CodegenOptions {
    fn default() -> Self {
        CodegenOptions {
            optimize: true,
            verify: cfg!(debug_assertions),
            barrier_regions: std::env::var_os("CRANECL_REGIONS").is_none_or(|v| v != "0"),
            regalloc_budget: 50_000,
            lanes: std::env::var_os("CRANECL_LANES").is_none_or(|v| v != "0"),
            step_lanes: match std::env::var("CRANECL_LANES").as_deref() {
                Ok("4") => Some(4),
                Ok("8") => Some(8),
                _ => None,
            },
            groups_of_one: std::env::var_os("CRANECL_GROUPS_OF_ONE").is_none_or(|v| v != "0"),
            masked_memory_loops: false,
            check: Checks::default(),
            sources: None,
            explain: false,
            schedule: None,
            denorms_are_zero: false,
            fp_contract: std::env::var_os("CRANECL_FP_CONTRACT").is_none_or(|v| v != "0"),
        }
    }
}

/// The entry of one kernel: the strategy and step it was built with and
/// the function that runs a group by them — under `Loop` the group entry
/// (a loop over the work-items), under `Regions` the region entry, under
/// `Coroutines` the item entry (one work-item, run as a coroutine). `F` is
/// the function's module id while the program is compiled, then its
/// finalized code.
#[derive(Clone, Copy)]
struct Entry<F = EntryFn> {
    strategy: Strategy,
    step: Step,
    /// The work-items of a step (1 with `Step::One`).
    items: usize,
    func: F,
    /// `Regions`: the size of each work-item's frame (0 otherwise).
    frame_size: u64,
}

impl<F> Entry<F> {
    fn new(strategy: Strategy, choice: &lanes::Choice, func: F, frame_size: u64) -> Self {
        Entry {
            strategy,
            step: choice.step,
            items: choice.items,
            func,
            frame_size,
        }
    }

    /// The same entry with its function `f(func)`.
    fn map<G>(self, f: impl FnOnce(F) -> G) -> Entry<G> {
        Entry {
            strategy: self.strategy,
            step: self.step,
            items: self.items,
            func: f(self.func),
            frame_size: self.frame_size,
        }
    }
}

/// A program compiled to native code.
pub struct CompiledProgram {
    /// Only touched in `Drop` (JITModule is `Send`, not `Sync`).
    module: Mutex<Option<JITModule>>,
    kernels: Vec<KernelInfo>,
    entries: Vec<Entry>,
    /// Each kernel's entry for a row of work-groups of one work-item, several
    /// groups per step (`one_item_groups.rs`), where it has one, and how
    /// many groups a step runs.
    groups_of_one: Vec<Option<(EntryFn, usize)>>,
    arena: ProgramArena,
    /// Checked `races`: the shadow of `arena` (made at first use).
    variable_shadow: std::sync::OnceLock<std::sync::Arc<runtime::check::Shadow>>,
    global_variable_total_size: u64,
    /// Checked mode: the checks compiled in and every site.
    checks: Checks,
    sites: Vec<Site>,
    /// Each program-scope variable: address, size, name, `constant`.
    variables: Vec<(u64, u64, String, bool)>,
    /// Each kernel's strategy and step, and why (`CRANECL_EXPLAIN`).
    explanations: Vec<Explanation>,
    /// `-cl-denorms-are-zero` (`runtime/fp_env.rs`).
    flush_denormals: bool,
}

// SAFETY: after `compile` the code and the arena are only read or written by
// generated code (the arena's program-scope variables are shared by kernels as
// the OpenCL memory model allows); the module sits behind a mutex.
unsafe impl Send for CompiledProgram {}
// SAFETY: as above; `run_work_group` takes `&self` and mutates nothing of it.
unsafe impl Sync for CompiledProgram {}

impl Drop for CompiledProgram {
    fn drop(&mut self) {
        let module = match self.module.get_mut() {
            Ok(m) => m.take(),
            Err(p) => p.into_inner().take(),
        };
        if let Some(m) = module {
            // SAFETY: no function pointer of this module outlives `self`.
            unsafe { m.free_memory() }
        }
    }
}

impl std::fmt::Debug for CompiledProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledProgram")
            .field("kernels", &self.kernels)
            .finish()
    }
}

impl CompiledProgram {
    pub fn kernels(&self) -> &[KernelInfo] {
        &self.kernels
    }

    /// Each kernel's work-group strategy and step, and why faster ones
    /// were refused (in the order of [`Self::kernels`]).
    pub fn explanations(&self) -> &[Explanation] {
        &self.explanations
    }
    /// Index of the kernel named `name`.
    pub fn kernel_index(&self, name: &str) -> Option<usize> {
        self.kernels.iter().position(|k| k.name == name)
    }
    /// Bytes of program-scope variables in the global address space
    /// (`CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`).
    pub fn global_variable_total_size(&self) -> u64 {
        self.global_variable_total_size
    }
    /// How groups of `kernel` run: `"loop"` (no barriers), `"lanes"` (no
    /// barriers, several work-items per step), `"regions"` or `"coroutines"`
    /// (tests and diagnostics).
    pub fn strategy(&self, kernel: usize) -> &'static str {
        match self.entries.get(kernel).map(|e| (e.strategy, e.step)) {
            Some((Strategy::Loop, Step::One)) => "loop",
            Some((Strategy::Loop, _)) => "lanes",
            Some((Strategy::Regions, _)) => "regions",
            Some((Strategy::Coroutines, _)) => "coroutines",
            None => "none",
        }
    }

    /// Whether `kernel`'s work-item loops run several work-items per step
    /// (`lanes/`; tests and diagnostics).
    pub fn lanes(&self, kernel: usize) -> bool {
        self.step(kernel) != Step::One
    }

    /// How many work-items a step of `kernel`'s work-item loops runs
    /// (tests and diagnostics).
    pub fn items_per_step(&self, kernel: usize) -> usize {
        self.entries.get(kernel).map_or(1, |e| e.items)
    }

    /// Whether `kernel`'s loops that the lanes leave at different times run
    /// masked (tests and diagnostics).
    pub fn masked_loops(&self, kernel: usize) -> bool {
        self.step(kernel) == Step::Masked
    }

    /// Whether `kernel` runs rows of work-groups of one work-item several per step
    /// (`one_item_groups.rs`; tests and diagnostics).
    pub fn groups_of_one_in_lanes(&self, kernel: usize) -> bool {
        matches!(self.groups_of_one.get(kernel), Some(Some(_)))
    }

    fn step(&self, kernel: usize) -> Step {
        self.entries.get(kernel).map_or(Step::One, |e| e.step)
    }

    /// Address of the program-scope variable arena (tests and debuggers).
    pub fn global_arena(&self) -> *const u8 {
        self.arena.as_ptr()
    }

    /// Run every work-item of one work-group of `kernel`. `args` is the
    /// argument block laid out as `kernels()[kernel].args` says; `ctx.local_mem`
    /// points to at least `ctx.local_mem_size` bytes. Safe to call from many
    /// threads at once for different groups.
    pub fn run_work_group(
        &self,
        kernel: usize,
        args: &[u8],
        ctx: &crate::launch::WorkGroupCtx,
    ) -> Result<(), KernelFault> {
        self.run_work_group_checked(kernel, args, ctx, None, 0, None)
    }

    /// The checks this program was compiled with.
    pub fn checks(&self) -> Checks {
        self.checks
    }

    /// Address and size of each program-scope variable, with its name and
    /// whether it is `constant` (checked mode's objects).
    pub fn program_variables(&self) -> Vec<(u64, u64, String, bool)> {
        self.variables.clone()
    }

    /// Checked `races`: the shadow of the program-scope variables.
    pub fn variable_shadow(&self) -> std::sync::Arc<runtime::check::Shadow> {
        self.variable_shadow
            .get_or_init(|| {
                std::sync::Arc::new(runtime::check::Shadow::new(
                    self.arena.as_ptr() as u64,
                    self.arena.len() as u64,
                ))
            })
            .clone()
    }

    /// [`Self::run_work_group`], with checked mode's reports going to
    /// `check` (`group_linear`: the group's linear id in the launch) and,
    /// under schedule fuzzing, the group's `order`.
    pub fn run_work_group_checked(
        &self,
        kernel: usize,
        args: &[u8],
        ctx: &crate::launch::WorkGroupCtx,
        check: Option<&LaunchCheck>,
        group_linear: u64,
        order: Option<&runtime::schedule::GroupOrder>,
    ) -> Result<(), KernelFault> {
        let (info, e) = self.runnable(kernel, args, ctx)?;
        let mut group = GroupState::from_ctx(ctx);
        group.schedule = order.map_or(0, |o| o as *const _ as u64);
        let items = group.items();
        Self::group_fits(info, items)?;
        // A fault in generated code from here on is reported with the
        // kernel's name and group (runtime/fault.rs).
        let _running = runtime::fault::enter(&info.name, ctx.group_id);
        let _fp = runtime::fp_env::FlushDenormals::new(self.flush_denormals);
        match check {
            Some(launch) if self.checks.any_code() => runtime::check::with_state(
                launch,
                &self.sites,
                args,
                &mut group,
                group_linear,
                |g| Self::run_entry(*e, args, g, items),
            ),
            _ => Self::run_entry(*e, args, &group, items),
        }
    }

    /// Run the work-groups of linear ids `groups` (dimension 0 fastest) of
    /// a launch whose geometry `ctx` gives (its `group_id` and `local_size`
    /// are not read: each group's come from its linear id), one after
    /// another on this thread, with checked mode's reports going to
    /// `check`. The first group that fails stops the run; its id comes back
    /// with the fault. Groups whose entry runs them in one call (no
    /// barriers, or one work-item each) are set up once for the run
    /// (`runtime::groups`; checked, the run is inside one `with_state`, and
    /// `races`/`uninit` set each group up between calls); the others as
    /// [`Self::run_work_group_checked`] one by one.
    pub fn run_work_groups(
        &self,
        kernel: usize,
        args: &[u8],
        ctx: &crate::launch::WorkGroupCtx,
        groups: std::ops::Range<u64>,
        check: Option<&LaunchCheck>,
    ) -> Result<(), ([u64; 3], KernelFault)> {
        let checked = check.is_some() && self.checks.any_code();
        match self.groups_of_one.get(kernel) {
            // Rows of at least a step of groups of one work-item.
            Some(&Some((f, items)))
                if !checked
                    && ctx.enqueued_local_size == [1; 3]
                    && ctx.num_groups[0] >= items as u64 =>
            {
                return self.run_rows_of_groups(kernel, f, args, ctx, groups);
            }
            _ => {}
        }
        let mut walk = runtime::groups::GroupWalk::new(ctx, groups.start);
        let count = groups.end.saturating_sub(groups.start);
        // `races`/`uninit` set up each group of a run between its calls
        // (its serials, `check::between_groups`); `barriers` has nothing to
        // find in groups that run in one call (no barrier, or one work-item).
        let between = check
            .is_some_and(|c| checked && c.checks.tracks())
            .then_some(runtime::check::between_groups as unsafe extern "C" fn(*mut GroupState));
        let one_call = match self.entries.get(kernel) {
            Some(e) if e.strategy == Strategy::Loop => Some(e.func),
            Some(e) if e.strategy == Strategy::Coroutines && ctx.enqueued_local_size == [1; 3] => {
                Some(e.func)
            }
            _ => None,
        };
        match one_call {
            // One group: as any group (no run to set up).
            Some(f) if count > 1 => {
                // The largest group of the launch answers for every group.
                let largest = crate::launch::WorkGroupCtx {
                    local_size: ctx.enqueued_local_size,
                    group_id: walk.id(),
                    ..*ctx
                };
                let first = |m| (walk.id(), m);
                let (info, _) = self.runnable(kernel, args, &largest).map_err(first)?;
                let mut group = GroupState::from_ctx(&largest);
                Self::group_fits(info, group.items()).map_err(first)?;
                let running = runtime::fault::enter(&info.name, walk.id());
                let _fp = runtime::fp_env::FlushDenormals::new(self.flush_denormals);
                // SAFETY: `f` is this kernel's entry, which runs a group in
                // one call; the block and the geometry were checked above.
                let go = |group: &mut GroupState| unsafe {
                    runtime::groups::run_loop_groups(
                        f,
                        args.as_ptr(),
                        group,
                        &walk,
                        count,
                        &running,
                        between,
                    )
                };
                match check {
                    // `bounds`: the run's groups share one set-up of the
                    // thread's checking state (its cache of objects).
                    Some(launch) if checked => runtime::check::with_state(
                        launch,
                        &self.sites,
                        args,
                        &mut group,
                        groups.start,
                        go,
                    ),
                    _ => go(&mut group),
                }
            }
            _ => groups.into_iter().try_for_each(|linear| {
                let one = crate::launch::WorkGroupCtx {
                    local_size: walk.local_size(),
                    group_id: walk.id(),
                    ..*ctx
                };
                walk.advance();
                self.run_work_group_checked(kernel, args, &one, check, linear, None)
                    .map_err(|f| (one.group_id, f))
            }),
        }
    }

    /// [`Self::run_work_groups`] for a launch of work-groups of one
    /// work-item with `f`, the kernel's entry for them: each row segment of
    /// the run (consecutive groups of dimension 0) in one call, with the
    /// segment's first group id and its length as the local size of
    /// dimension 0 (`one_item_groups.rs`). A fault names the first group
    /// of the step it happened in (`GroupState::row_step`), and says so
    /// when more ran with it.
    fn run_rows_of_groups(
        &self,
        kernel: usize,
        f: EntryFn,
        args: &[u8],
        ctx: &crate::launch::WorkGroupCtx,
        groups: std::ops::Range<u64>,
    ) -> Result<(), ([u64; 3], KernelFault)> {
        let mut walk = runtime::groups::GroupWalk::new(ctx, groups.start);
        let one = crate::launch::WorkGroupCtx {
            local_size: [1; 3],
            group_id: walk.id(),
            ..*ctx
        };
        let (info, _) = self
            .runnable(kernel, args, &one)
            .map_err(|m| (one.group_id, m))?;
        let mut group = GroupState::from_ctx(&one);
        group.in_row = 1;
        let dims = (ctx.work_dim as usize).min(3);
        let mut left = groups.end.saturating_sub(groups.start);
        while left > 0 {
            let id = walk.id();
            let n = left.min(ctx.num_groups[0].saturating_sub(id[0])).max(1);
            group.group_id[..dims].copy_from_slice(&id[..dims]);
            group.local_size[0] = n;
            *group.row_step.get_mut() = 0;
            let running = runtime::fault::enter(&info.name, id);
            let _fp = runtime::fp_env::FlushDenormals::new(self.flush_denormals);
            // SAFETY: `group` outlives `running`.
            unsafe { running.follow_row(group.group_id.as_ptr()) };
            // SAFETY: `f` is this kernel's entry for rows of groups of one
            // work-item; the block and the geometry were checked above.
            let r = unsafe { runtime::run_loop(f, args.as_ptr(), &group) };
            drop(running);
            if let Err(mut e) = r {
                let (at, more) = runtime::row_step_group(id, *group.row_step.get_mut());
                if more > 0 {
                    e.message.push_str(&format!(
                        " (or in one of the {more} work-groups after it, run in the same step)"
                    ));
                }
                return Err((at, e));
            }
            walk.advance_in_row(n);
            left -= n;
        }
        Ok(())
    }

    /// The kernel's facts and entry, if `args` and `ctx` suit it (the
    /// checks every group passes before it runs).
    fn runnable(
        &self,
        kernel: usize,
        args: &[u8],
        ctx: &crate::launch::WorkGroupCtx,
    ) -> Result<(&KernelInfo, &Entry), KernelFault> {
        let fault = |m: String| Err(KernelFault { message: m });
        let (Some(info), Some(e)) = (self.kernels.get(kernel), self.entries.get(kernel)) else {
            return fault(format!("no kernel number {kernel}"));
        };
        if (args.len() as u64) < u64::from(info.args_size) {
            return fault(format!(
                "argument block of {} bytes, kernel '{}' needs {}",
                args.len(),
                info.name,
                info.args_size
            ));
        }
        if ctx.local_mem_size < info.local_mem_size
            || (info.local_mem_size > 0 && ctx.local_mem == 0)
        {
            return fault(format!(
                "kernel '{}' needs {} bytes of local memory",
                info.name, info.local_mem_size
            ));
        }
        if !(1..=3).contains(&ctx.work_dim) {
            return fault(format!("work_dim {} out of range", ctx.work_dim));
        }
        // Private memory lives on the native stack: refuse what cannot fit
        // rather than overflow it.
        let stack = match e.strategy {
            Strategy::Coroutines => runtime::ITEM_STACK_SIZE as u64,
            Strategy::Loop | Strategy::Regions => MAX_PRIVATE_ON_THREAD_STACK,
        };
        if info.private_mem_size + PRIVATE_STACK_RESERVE > stack {
            return fault(format!(
                "kernel '{}' needs {} bytes of private memory per work-item; at most {} are supported",
                info.name,
                info.private_mem_size,
                stack - PRIVATE_STACK_RESERVE
            ));
        }
        Ok((info, e))
    }

    /// Whether a group of `items` work-items may run `info`'s kernel.
    fn group_fits(info: &KernelInfo, items: u64) -> Result<(), KernelFault> {
        if items == 0 || items > info.max_work_group_size {
            return Err(KernelFault {
                message: format!("work-group of {items} items for kernel '{}'", info.name),
            });
        }
        Ok(())
    }

    fn run_entry(e: Entry, args: &[u8], group: &GroupState, items: u64) -> Result<(), KernelFault> {
        let f = e.func;
        match e.strategy {
            // SAFETY (all arms): the entry was generated for this kernel's
            // argument block, whose size was checked above.
            Strategy::Loop => unsafe { runtime::run_loop(f, args.as_ptr(), group) },
            // One work-item: its barriers have nobody to wait for.
            Strategy::Coroutines if items == 1 => unsafe {
                runtime::run_loop(f, args.as_ptr(), group)
            },
            Strategy::Coroutines => unsafe { runtime::run_coroutines(f, args.as_ptr(), group) },
            Strategy::Regions => unsafe {
                runtime::run_regions(f, args.as_ptr(), group, e.frame_size)
            },
        }
    }
}

/// The program-wide facts every function context reads.
pub(crate) struct ProgramCx<'p> {
    pub prog: &'p Program,
    /// The module's id of each HIR function with a body.
    pub func_ids: Vec<Option<cranelift_module::FuncId>>,
    /// Address of each program-scope variable in the arena.
    pub global_addrs: Vec<u64>,
    pub config: cranelift_codegen::isa::TargetFrontendConfig,
    pub regalloc_budget: usize,
    pub barrier_regions: bool,
    /// Move loads that do not change in a loop out of it (`hoist.rs`).
    pub hoist_loads: bool,
    /// Function bodies kept for inlining (callees are compiled first).
    pub bodies: std::cell::RefCell<inline::Bodies>,
    /// Inline small functions into their callers.
    pub inline: bool,
    /// Try lanes group entries (`lanes/`).
    pub lanes: bool,
    /// `CodegenOptions::step_lanes`.
    pub step_lanes: Option<usize>,
    /// `CodegenOptions::masked_memory_loops`.
    pub masked_memory_loops: bool,
    /// `CodegenOptions::groups_of_one`.
    pub groups_of_one: bool,
    /// The same target with the single-pass register allocator.
    pub single_pass_isa: cranelift_codegen::isa::OwnedTargetIsa,
    /// Checked mode.
    pub check: Checks,
    pub sources: Option<Arc<SourceMap>>,
    /// Checked mode's sites, in order.
    pub sites: std::cell::RefCell<Vec<Site>>,
    /// Each kernel's strategy and step, and why (in kernel order).
    pub explanations: Vec<Explanation>,
    /// `CodegenOptions::explain`: the lanes note what runs slower.
    pub explain: bool,
    /// The notes of the lanes build under way (`explain.rs`).
    pub lane_notes: std::cell::RefCell<Vec<String>>,
    /// `CodegenOptions::schedule`.
    pub schedule: Option<runtime::schedule::Schedule>,
    /// Places where the lanes run one after another so far (each draws its
    /// order of the lanes from the schedule).
    pub lane_orders: std::cell::Cell<u64>,
    /// `CRANECL_PERF_MAP`: each defined function's id, name and code size,
    /// for `perf`'s map of JIT code (`write_perf_map`).
    pub perf_map: Option<std::cell::RefCell<Vec<(cranelift_module::FuncId, String, usize)>>>,
}

/// `CRANECL_PERF_MAP` set: append the finished functions' addresses, sizes
/// and names to `/tmp/perf-PID.map`, the file `perf report` reads to name
/// JIT code (the kernel's name for its entries, the source's names for its
/// functions). `CRANECL_PERF_MAP=code` also writes each function's machine
/// code to `/tmp/cranecl-PID-ADDR.bin` (for `objdump -b binary`).
fn write_perf_map(module: &JITModule, funcs: &[(cranelift_module::FuncId, String, usize)]) {
    use std::io::Write;
    let path = format!("/tmp/perf-{}.map", std::process::id());
    let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    else {
        return;
    };
    for (id, name, size) in funcs {
        let at = module.get_finalized_function(*id) as usize;
        let _ = writeln!(f, "{at:x} {size:x} cranecl:{name}");
        if std::env::var_os("CRANECL_PERF_MAP").is_some_and(|v| v == "code") {
            // SAFETY: the module's finalized code of `size` bytes at `at`.
            let code = unsafe { std::slice::from_raw_parts(at as *const u8, *size) };
            let file = format!("/tmp/cranecl-{}-{at:x}.bin", std::process::id());
            let _ = std::fs::write(file, code);
        }
    }
}

fn make_isa(
    opts: &CodegenOptions,
    single_pass: bool,
) -> Result<cranelift_codegen::isa::OwnedTargetIsa, String> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| format!("cranelift setting {k}: {e}"))
    };
    set(
        &mut flags,
        "opt_level",
        if opts.optimize { "speed" } else { "none" },
    )?;
    set(
        &mut flags,
        "enable_verifier",
        if opts.verify { "true" } else { "false" },
    )?;
    set(&mut flags, "is_pic", "false")?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    // Probe large frames page by page, so a frame bigger than a guard page
    // faults on the guard (and is reported) instead of jumping past it.
    set(&mut flags, "enable_probestack", "true")?;
    set(&mut flags, "probestack_strategy", "inline")?;
    if single_pass {
        set(&mut flags, "regalloc_algorithm", "single_pass")?;
    }
    let isa_builder =
        cranelift_native::builder().map_err(|e| format!("no native code generator: {e}"))?;
    isa_builder
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("cranelift ISA: {e}"))
}

fn make_module(opts: &CodegenOptions) -> Result<JITModule, String> {
    let isa = make_isa(opts, false)?;
    let mut jb = JITBuilder::with_isa(isa, default_libcall_names());
    for (name, ptr) in crate::builtins::host_symbols() {
        jb.symbol(name, ptr);
    }
    Ok(JITModule::new(jb))
}

/// Lay out the program-scope variables; returns (offsets, total size).
fn layout_globals(prog: &Program) -> (Vec<u64>, u64) {
    let mut off = 0u64;
    let offs = prog
        .globals
        .iter()
        .map(|g| {
            let align = prog.records.align_of(&g.ty).max(1);
            off = off.next_multiple_of(align);
            let at = off;
            off += prog.records.size_of(&g.ty).unwrap_or(0);
            at
        })
        .collect();
    (offs, off)
}

/// Copy initialisers into the arena and apply their relocations.
fn init_globals(prog: &Program, arena: &ProgramArena, offs: &[u64]) -> Result<(), String> {
    let base = arena.as_ptr() as u64;
    let size = arena.len() as u64;
    for (g, &off) in prog.globals.iter().zip(offs) {
        let Some(init) = &g.init else { continue };
        let gsize = prog.records.size_of(&g.ty).unwrap_or(0);
        let n = (init.bytes.len() as u64).min(gsize);
        if off + n > size {
            return Err(format!("initialiser of '{}' does not fit", g.name));
        }
        // SAFETY: `off + n` lies inside the arena (checked above) and the
        // source slice has at least `n` bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(
                init.bytes.as_ptr(),
                arena.as_ptr().add(off as usize),
                n as usize,
            )
        };
        for r in &init.relocs {
            let Some(&target) = offs.get(r.target.0 as usize) else {
                return Err(format!(
                    "initialiser of '{}' names an unknown variable",
                    g.name
                ));
            };
            let value = (base + target).wrapping_add_signed(r.addend);
            if r.offset + 8 > gsize || off + r.offset + 8 > size {
                return Err(format!("relocation outside '{}'", g.name));
            }
            // SAFETY: the 8 bytes lie inside this variable (checked above).
            unsafe {
                std::ptr::write_unaligned(
                    arena.as_ptr().add((off + r.offset) as usize) as *mut u64,
                    value,
                )
            };
        }
    }
    Ok(())
}

/// Compile a checked program to native code.
pub fn compile(program: &Program, opts: &CodegenOptions) -> Result<CompiledProgram, String> {
    let mut module = make_module(opts)?;
    // Checked mode keeps the program as written: its reports name the
    // functions and follow the arrays' accesses.
    let c = &opts.check;
    let checked = c.bounds || c.barriers || c.races || c.races_strict || c.uninit;
    let rewritten = lower::rewrite(
        program,
        lower::Rewrites {
            inline: lower::Inlining {
                barrier_calls: opts.barrier_regions && !checked,
                small_calls: opts.optimize && !checked,
            },
            optimize: opts.optimize && !checked,
            contract: opts.fp_contract && host_has_fma(),
        },
    );
    let program = rewritten.as_ref().unwrap_or(program);
    for g in &program.globals {
        let size = program.records.size_of(&g.ty).unwrap_or(0);
        if size > MAX_PROGRAM_VARIABLE_SIZE {
            return Err(format!(
                "program-scope variable '{}' is {size} bytes; at most {MAX_PROGRAM_VARIABLE_SIZE} are supported",
                g.name
            ));
        }
    }
    let (offs, total) = layout_globals(program);
    let size = usize::try_from(total).map_err(|_| "program-scope variables are too large")?;
    let arena = ProgramArena::new(size)?;
    init_globals(program, &arena, &offs)?;
    let global_variable_total_size = program
        .globals
        .iter()
        .filter(|g| g.space == AddrSpace::Global)
        .map(|g| program.records.size_of(&g.ty).unwrap_or(0))
        .sum();
    let mut pcx = ProgramCx {
        prog: program,
        func_ids: Vec::new(),
        global_addrs: offs.iter().map(|o| arena.as_ptr() as u64 + o).collect(),
        config: module.target_config(),
        regalloc_budget: opts.regalloc_budget,
        barrier_regions: opts.barrier_regions,
        hoist_loads: opts.optimize
            && !(opts.check.bounds || opts.check.tracks())
            && !hoist::reads_volatile(program),
        bodies: Default::default(),
        inline: opts.optimize,
        // Checks run in the lanes too: a packed access is checked as one
        // (its granules followed as the lanes' work-items'), decisions
        // compared lane by lane.
        lanes: opts.optimize && opts.lanes,
        step_lanes: opts.step_lanes,
        groups_of_one: opts.groups_of_one,
        masked_memory_loops: opts.masked_memory_loops,
        single_pass_isa: make_isa(opts, true)?,
        check: opts.check,
        sources: opts.sources.clone(),
        sites: Default::default(),
        explanations: Vec::new(),
        explain: opts.explain,
        lane_notes: Default::default(),
        schedule: opts.schedule,
        lane_orders: Default::default(),
        perf_map: std::env::var_os("CRANECL_PERF_MAP").map(|_| Default::default()),
    };
    let result = compile_into(&mut module, &mut pcx);
    match result {
        Ok((kernels, ids, groups_of_one)) => {
            if let Err(e) = module.finalize_definitions() {
                // SAFETY: nothing points into the module yet.
                unsafe { module.free_memory() };
                return Err(format!("cannot finalize code: {e}"));
            }
            if let Some(map) = &pcx.perf_map {
                write_perf_map(&module, &map.borrow());
            }
            // SAFETY: entries are generated with the `EntryFn` signature.
            let entry_fn = |id| unsafe {
                std::mem::transmute::<*const u8, EntryFn>(module.get_finalized_function(id))
            };
            let groups_of_one = groups_of_one
                .iter()
                .map(|g| g.map(|(id, items)| (entry_fn(id), items)))
                .collect();
            let entries = ids.iter().map(|e| e.map(entry_fn)).collect();
            let variables = program
                .globals
                .iter()
                .zip(&offs)
                .map(|(g, o)| {
                    (
                        arena.as_ptr() as u64 + o,
                        program.records.size_of(&g.ty).unwrap_or(0),
                        g.name.clone(),
                        g.space == AddrSpace::Constant,
                    )
                })
                .collect();
            Ok(CompiledProgram {
                module: Mutex::new(Some(module)),
                kernels,
                entries,
                groups_of_one,
                arena,
                variable_shadow: std::sync::OnceLock::new(),
                global_variable_total_size,
                checks: opts.check,
                sites: pcx.sites.into_inner(),
                variables,
                explanations: pcx.explanations,
                flush_denormals: opts.denorms_are_zero,
            })
        }
        Err(e) => {
            // SAFETY: nothing points into the module.
            unsafe { module.free_memory() };
            Err(e)
        }
    }
}

/// Each kernel's facts, entry, and entry for rows of work-groups of one
/// work-item.
type Compiled = (
    Vec<KernelInfo>,
    Vec<Entry<cranelift_module::FuncId>>,
    Vec<Option<(cranelift_module::FuncId, usize)>>,
);

fn compile_into(module: &mut JITModule, pcx: &mut ProgramCx<'_>) -> Result<Compiled, String> {
    let prog = pcx.prog;
    if let Some(f) = recursive_function(prog) {
        return Err(format!(
            "recursion is not supported in OpenCL C: function '{}' calls itself",
            lower::func_name(prog, hir::FuncId(f as u32))
        ));
    }
    let called: std::collections::HashSet<u32> = prog
        .functions
        .iter()
        .flat_map(|f| f.callees.iter().map(|c| c.0))
        .collect();
    let kernels: Vec<(hir::FuncId, KernelInfo, lower::Planned<'_>)> = prog
        .kernels()
        .map(|(fid, f)| {
            // Where it may wait for another work-item (once: the launch
            // and the strategy both need it).
            let waiting = lower::progress::waiting_loop(prog, fid);
            let info = abi::kernel_info(pcx, fid, f, waiting.is_some());
            let planned = lower::plan_strategy(
                prog,
                fid,
                f,
                info.uses_barriers,
                pcx.barrier_regions,
                pcx.check.uninit,
                waiting.map(|at| lower::progress::waiting_note(pcx.sources.as_deref(), at)),
            );
            (fid, info, planned)
        })
        .collect();
    // A kernel is compiled as a function of its own only when something
    // calls it, or when it runs as coroutines (barriers without a plan).
    let standalone = |i: usize| {
        let f = &prog.functions[i];
        let coroutine_kernel = kernels
            .iter()
            .any(|(k, _, p)| k.0 as usize == i && matches!(p, lower::Planned::Coroutines(_)));
        f.kernel.is_none() || coroutine_kernel || called.contains(&(i as u32))
    };
    for (i, f) in prog.functions.iter().enumerate() {
        if f.body.is_none() || !standalone(i) {
            pcx.func_ids.push(None);
            continue;
        }
        let sig = abi::signature(module, &prog.records, f)?;
        let id = module
            .declare_function(
                &format!("__cl{i}_{}", f.name),
                cranelift_module::Linkage::Local,
                &sig,
            )
            .map_err(|e| format!("declaring '{}': {e}", f.name))?;
        pcx.func_ids.push(Some(id));
    }
    let mut ctx = module.make_context();
    let mut fbc = cranelift_frontend::FunctionBuilderContext::new();
    // Callees before callers, so that their bodies can be inlined.
    for i in callees_first(prog) {
        let Some(id) = pcx.func_ids[i] else { continue };
        fx::compile_function(module, pcx, &mut ctx, &mut fbc, &prog.functions[i], id)?;
    }
    let mut infos = Vec::new();
    let mut ids = Vec::new();
    let mut groups_of_one = Vec::new();
    for (fid, info, planned) in kernels {
        let i = fid.0 as usize;
        let f = &prog.functions[i];
        let (entry, choice) = match planned {
            lower::Planned::Regions(plan) => {
                let (id, c) = regions::compile_region_entry(
                    module, pcx, &mut ctx, &mut fbc, f, i, &info.args, &plan,
                )?;
                (Entry::new(Strategy::Regions, &c, id, plan.frame_size), c)
            }
            lower::Planned::Coroutines(why) => {
                let kernel_id = pcx.func_ids[i]
                    .ok_or_else(|| format!("kernel '{}' was not compiled", f.name))?;
                let id =
                    abi::item_entry(module, pcx, &mut ctx, &mut fbc, f, i, kernel_id, &info.args)?;
                let c = lanes::Choice {
                    step: Step::One,
                    items: 1,
                    refused: vec![
                        format!("regions: {why}"),
                        format!(
                            "{} work-items per step: coroutines run one work-item at a time",
                            lanes::MAX_LANES
                        ),
                    ],
                    notes: Vec::new(),
                };
                (Entry::new(Strategy::Coroutines, &c, id, 0), c)
            }
            lower::Planned::Loop => {
                let (id, c) =
                    group::compile_group_entry(module, pcx, &mut ctx, &mut fbc, f, i, &info.args)?;
                (Entry::new(Strategy::Loop, &c, id, 0), c)
            }
        };
        let lanes::Choice { refused, notes, .. } = choice;
        let rows = if !pcx.lanes {
            Err("the lanes are off".to_string())
        } else if !pcx.groups_of_one {
            Err("CRANECL_GROUPS_OF_ONE=0".to_string())
        } else if pcx.check.any_code() {
            Err("checked mode runs each group on its own (its reports name it)".to_string())
        } else if pcx.schedule.is_some() {
            Err("schedule fuzzing runs each group on its own".to_string())
        } else {
            match lower::one_item_groups::variant(prog, f) {
                Ok(Some(v)) => {
                    group::compile_one_item_groups_entry(module, pcx, &mut ctx, &v, i, &info.args)?
                }
                // Nothing to rewrite: the kernel's own group entry, when
                // it runs several work-items per step.
                Ok(None) if entry.strategy == Strategy::Loop && entry.step != Step::One => {
                    Ok((entry.func, entry.items))
                }
                Ok(None) => Err(refused.join("; ")),
                Err(why) => Err(why),
            }
        };
        groups_of_one.push(rows.as_ref().ok().copied());
        pcx.explanations.push(Explanation {
            kernel: info.name.clone(),
            strategy: entry.strategy,
            step: entry.step,
            items_per_step: entry.items,
            refused,
            notes,
            groups_of_one: rows.map(|(_, items)| items),
        });
        infos.push(info);
        ids.push(entry);
    }
    Ok((infos, ids, groups_of_one))
}

/// A function on a cycle of the call graph, if there is one.
fn recursive_function(prog: &Program) -> Option<usize> {
    // 0: unvisited, 1: on the DFS stack, 2: done.
    fn visit(prog: &Program, i: usize, state: &mut [u8]) -> Option<usize> {
        match state[i] {
            1 => return Some(i),
            2 => return None,
            _ => {}
        }
        state[i] = 1;
        for c in &prog.functions[i].callees {
            let c = c.0 as usize;
            if c < prog.functions.len() {
                if let Some(r) = visit(prog, c, state) {
                    return Some(r);
                }
            }
        }
        state[i] = 2;
        None
    }
    let mut state = vec![0u8; prog.functions.len()];
    (0..prog.functions.len()).find_map(|i| visit(prog, i, &mut state))
}

/// Function indices in post-order of the call graph (cycles, which the
/// language forbids, are cut anywhere).
fn callees_first(prog: &Program) -> Vec<usize> {
    fn visit(prog: &Program, i: usize, seen: &mut [bool], out: &mut Vec<usize>) {
        if seen[i] {
            return;
        }
        seen[i] = true;
        for c in &prog.functions[i].callees {
            if (c.0 as usize) < prog.functions.len() {
                visit(prog, c.0 as usize, seen, out);
            }
        }
        out.push(i);
    }
    let mut seen = vec![false; prog.functions.len()];
    let mut out = Vec::new();
    for i in 0..prog.functions.len() {
        visit(prog, i, &mut seen, &mut out);
    }
    out
}

/// Whether the host has fused multiply-add instructions (Cranelift's native
/// ISA enables them when it does; without them its `fma` is a call of the
/// C library's, and packed `fma` has no lowering at all).
pub fn host_has_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        cfg!(target_arch = "aarch64")
    }
}
