//! Lowering's analyses and choices: what the compiler learns about a
//! kernel's HIR, and how it rewrites it, before any Cranelift IR is
//! emitted; and how each kernel's work-group strategy and step are named
//! and explained.
//!
//! `codegen/` emits the code; this module only reads and rewrites the HIR:
//! - `walk.rs`, the HIR visitor every analysis and pass uses (expressions
//!   of a statement, sub-expressions, which locals are written or have
//!   their address taken, which functions reach a barrier, loops' ranges);
//! - `divergence.rs`, the lanes' analysis: which locals and statements vary
//!   between the work-items of a step, which loops run masked;
//!   `lane_memory.rs`, which private arrays and structs the lanes may keep
//!   interleaved, a copy per lane;
//! - `regions.rs`, the region strategy's plan: a kernel body cut at its
//!   barriers into pieces, the frame of each work-item, the locals uniform
//!   across the group and the pieces that run once per group;
//! - the rewrites of the HIR that run before code generation (`rewrite`),
//!   in this order: `a * b + c` contracted to `fma` (`contract.rs`), calls
//!   in kernels inlined (`hir_inline.rs`: barrier calls
//!   for the regions, small and once-called functions for the lanes),
//!   locals that hold one integer constant read as it (`constants.rs`),
//!   guarded `continue`s as `if`s (`continues.rs`), register tiles
//!   (`tiles.rs`), small records as one integer (`small_records.rs`); and,
//!   per kernel, its variant for work-groups of one
//!   work-item (`one_item_groups.rs`);
//! - which loops may wait for another work-item (`progress.rs`: their
//!   kernels run as coroutines that let the others run in them);
//! - the choice of each kernel's work-group strategy (`plan_strategy`:
//!   coroutines for a kernel that may wait, else a loop without barriers,
//!   else the regions' plan, else coroutines);
//!   its step is chosen as its entry is built (`codegen/lanes/`, `choose`:
//!   a lanes build can still refuse), and codegen records both in the
//!   kernel's entry;
//! - `explain.rs`, the [`Strategy`] and [`Step`] a kernel runs with and the
//!   [`Explanation`] of why (`CRANECL_EXPLAIN`).

mod constants;
mod continues;
mod contract;
pub(crate) mod divergence;
pub mod explain;
mod hir_inline;
pub(crate) mod lane_memory;
pub(crate) mod one_item_groups;
pub(crate) mod progress;
pub(crate) mod regions;
mod small_records;
mod tiles;
pub(crate) mod walk;

pub use explain::{Explanation, Step, Strategy};
pub(crate) use hir_inline::Inlining;

use crate::sema::hir::{FuncId, Function, Program};

/// Which rewrites of the HIR run before code generation (none in checked
/// mode, whose reports name the program as written: its functions, its
/// arrays' accesses).
#[derive(Clone, Copy)]
pub(crate) struct Rewrites {
    /// Which calls in kernels to inline.
    pub inline: Inlining,
    /// Guarded `continue`s as `if`s, register tiles and small records.
    pub optimize: bool,
    /// `a * b + c` as one fused multiply-add (`contract.rs`; in checked
    /// mode too, so that it computes the values the kernel computes
    /// unchecked).
    pub contract: bool,
}

/// `prog` with the rewrites `r` asks for applied, or `None` when none of
/// them changed anything.
pub(crate) fn rewrite(prog: &Program, r: Rewrites) -> Option<Program> {
    let mut out = r.contract.then(|| contract::rewrite(prog)).flatten();
    if r.inline.barrier_calls || r.inline.small_calls {
        if let Some(p) = hir_inline::inline_calls(out.as_ref().unwrap_or(prog), r.inline) {
            out = Some(p);
        }
    }
    if r.optimize {
        for pass in [
            constants::propagate,
            continues::rewrite,
            tiles::promote,
            small_records::promote,
        ] {
            if let Some(p) = pass(out.as_ref().unwrap_or(prog)) {
                out = Some(p);
            }
        }
    }
    out
}

/// The HIR function `id` (for messages).
pub(crate) fn func_name(prog: &Program, id: FuncId) -> &str {
    prog.functions
        .get(id.0 as usize)
        .map_or("?", |f| f.name.as_str())
}

/// A kernel's work-group strategy, chosen once from its HIR, with what its
/// code generation needs.
pub(crate) enum Planned<'p> {
    /// No barrier: one loop over the work-items.
    Loop,
    /// Barriers the region plan cuts (boxed: a plan is large).
    Regions(Box<regions::Plan<'p>>),
    /// Barriers the regions do not take, and why.
    Coroutines(String),
}

/// Choose the strategy of kernel `fid` (`f`): coroutines when a loop may
/// wait for another work-item (`waiting`: why, `progress::waiting_note`),
/// else a loop without
/// barriers, else the regions where `barrier_regions` is on and the plan
/// accepts the body (`follow_uninit`: checked `uninit` keeps flags in the
/// frames), else coroutines.
pub(crate) fn plan_strategy<'p>(
    prog: &'p Program,
    fid: FuncId,
    f: &'p Function,
    uses_barriers: bool,
    barrier_regions: bool,
    follow_uninit: bool,
    waiting: Option<String>,
) -> Planned<'p> {
    if let Some(why) = waiting {
        return Planned::Coroutines(why);
    }
    if !uses_barriers {
        return Planned::Loop;
    }
    let plan = if walk::uses_sub_group_sync(prog, fid) {
        Err("sub-group barriers and collectives run as coroutines \
             (sub-groups may take different paths to them)"
            .to_string())
    } else if barrier_regions {
        regions::plan(prog, f, follow_uninit)
    } else {
        Err("the region strategy is off".to_string())
    };
    match plan {
        Ok(plan) => Planned::Regions(Box::new(plan)),
        Err(why) => Planned::Coroutines(why),
    }
}
