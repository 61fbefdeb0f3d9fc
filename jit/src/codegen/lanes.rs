//! Four work-items per step ("lanes"), SIMD across work-items: the work-item
//! loops of a group entry (and of each region piece between barriers, see
//! `regions.rs`) walk each row of the group (dimension 0) four work-items at
//! a time, then finish the row one at a time with the ordinary body.
//!
//! Work-items between barriers are unordered, so a step may run its four
//! items statement by statement. Each value of the step is one of:
//! - *uniform* ([`LVal::Uni`]): the same in every lane, computed once by the
//!   ordinary code generator (uniform locals keep their ordinary places);
//! - *affine* ([`LVal::Aff`]): `base + lane * step`, how `get_global_id(0)`
//!   and the addresses built from it look; `a[i]` for the four lanes is then
//!   one address and constant offsets, or one vector access;
//! - *packed* ([`LVal::Vec`], [`LVal::VecN`]): a `float`, `int` or `uint` of
//!   each lane in one 128-bit register (vectors of them one register per
//!   component), for arithmetic, comparisons and the common built-ins;
//! - *per lane* ([`LVal::Lanes`]): four values, each computed by the ordinary
//!   operations (`binary`, `convert`, the built-in library).
//!
//! Which locals vary between lanes is decided before any code is emitted
//! ([`plan`]): a local varies when a value written to it varies, or when it
//! is written under a condition that varies. Control flow on a uniform
//! condition is ordinary control flow. An `if` on a varying condition runs
//! its arms as a whole when all four lanes agree; when they disagree, the
//! step hands its four items to the one-at-a-time code if it has not yet
//! written memory, and otherwise runs the `if` once per lane ("serially",
//! with each lane's places standing in for the locals). A loop the lanes
//! leave at different times runs *masked* (while any lane is in it; lanes
//! out of it keep their values and touch only a dummy), unless its memory
//! accesses differ between lanes, then serially. Statements whose effects
//! belong to each work-item (atomics, `printf`, calls of user functions) and
//! `switch` run serially too. Image reads and writes are taken apart like
//! other built-ins: one host call for the four work-items of a step.
//!
//! A kernel this cannot express (`goto`, varying aggregates or locals whose
//! address is taken, a `return` inside serial code after a write) gets no
//! [`plan`] or fails its build here, and the caller compiles the plain
//! one-item-per-step entry instead (after a try with serial loops, when a
//! masked loop was what failed).
//!
//! Lane values of an `int` index widened to a pointer offset are assumed not
//! to cross the `int` overflow boundary within one step (four consecutive
//! work-items); only a kernel indexing with `int` past 2^31 items, whose
//! indices are already wrong, could tell.

use super::fx::FunctionCx;
use super::group::Geometry;
use super::value::{clif_scalar, clif_type, is_aggregate, CPlace, CValue};
use crate::runtime::offsets as o;
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::hir::{
    BinOp, Block as HBlock, CastKind, Expr, ExprKind, Function, Init, Stmt, StmtKind, UnOp, VarRef,
};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{
    condcodes::FloatCC, condcodes::IntCC, types, Block, InstBuilder, Value,
};
use std::collections::HashMap;

/// Work-items per step.
pub(crate) const LANES: usize = 4;

/// How an entry runs its work-item loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// One work-item per step.
    None,
    /// Four per step; loops the lanes leave at different times once per lane.
    Lanes,
    /// Four per step; such loops masked.
    Masked,
}

impl Plan {
    /// What an entry built with this plan uses.
    pub(crate) fn used(&self) -> Use {
        if self.masked_loops {
            Use::Masked
        } else {
            Use::Lanes
        }
    }
}

/// A value of a four-lane step.
#[derive(Clone, Debug)]
pub(crate) enum LVal {
    /// The same in every lane.
    Uni(CValue),
    /// An integer or pointer: lane `k` holds `base + k * step` (wrapping).
    Aff { base: Value, step: i64 },
    /// One value per lane.
    Lanes(Vec<CValue>),
    /// A `float`, `int` or `uint` of each lane, packed in one 128-bit
    /// vector (lane `k` in element `k`).
    Vec(Value),
    /// A vector of `float`, `int` or `uint` of each lane: one packed
    /// register per component (component `c` of lane `k` in element `k` of
    /// the `c`th).
    VecN(Vec<Value>),
}

/// The packed type of a scalar type that has one.
pub(crate) fn packed_type(ty: &Type) -> Option<types::Type> {
    match ty {
        Type::Scalar(Scalar::Float) => Some(types::F32X4),
        Type::Scalar(Scalar::Int | Scalar::UInt) => Some(types::I32X4),
        _ => None,
    }
}

/// The packed type of each component of a vector type that has one, and
/// the component count.
pub(crate) fn packed_components(ty: &Type) -> Option<(types::Type, usize)> {
    match ty {
        Type::Vector(s, n) => packed_type(&Type::Scalar(*s)).map(|t| (t, *n as usize)),
        _ => None,
    }
}

/// Where a varying local lives: a place per lane, or packed variables (one,
/// or one per component of a vector).
#[derive(Clone)]
pub(crate) enum Slot {
    Lanes(Vec<CPlace>),
    Packed(cranelift_frontend::Variable),
    PackedN(Vec<cranelift_frontend::Variable>),
}

/// What the analysis decided about a kernel's locals.
#[derive(Clone)]
pub(crate) struct Plan {
    /// The local's value may differ between the lanes of a step.
    varying: Vec<bool>,
    /// Written only by its declaration.
    single: Vec<bool>,
    /// A kernel-scope `local` variable: memory the group shares, never a
    /// register of a lane (writing it writes memory).
    shared: Vec<bool>,
    /// Loops the lanes would leave at different times run with a mask of
    /// active lanes (otherwise once per lane).
    pub(crate) masked_loops: bool,
    /// ... those whose memory accesses differ between lanes too.
    masked_memory: bool,
}

// ------------------------------------------------------------ analysis

/// The local an lvalue designates (whole or in part).
fn root_local(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Var(VarRef::Local(l)) => Some(l.0),
        ExprKind::Member(a, _) | ExprKind::Swizzle(a, _) => root_local(a),
        _ => None,
    }
}

/// A built-in whose effects or result belong to each work-item: run once
/// per lane, never once for the step.
fn per_item_builtin(b: &BuiltinFn) -> bool {
    matches!(
        b.family,
        Family::Atomic
            | Family::AtomicC11
            | Family::Printf
            | Family::AsyncCopy
            | Family::WorkGroup
            | Family::SubGroup
            | Family::Sync
    )
}

/// `read_image*` and `write_image*`: once per lane in their results (each
/// lane's own texel) and effects, but called once for the four lanes
/// (`builtins::image::emit_lanes`), so a statement with one is taken apart
/// like any other.
fn image_access(b: &BuiltinFn) -> bool {
    b.family == Family::Image
        && (b.name.starts_with("read_image") || b.name.starts_with("write_image"))
}

/// A work-item function whose answer differs between the lanes of a row.
fn varying_workitem(b: &BuiltinFn, args: &[Expr]) -> bool {
    if b.family != Family::WorkItem {
        return false;
    }
    match b.name.as_str() {
        "get_global_linear_id" | "get_local_linear_id" => true,
        // Consecutive linear ids: lanes of a step may straddle sub-groups.
        "get_sub_group_id" | "get_sub_group_local_id" | "get_sub_group_size" => true,
        "get_global_id" | "get_local_id" => match args.first().map(const_dim) {
            Some(Some(d)) => d == 0,
            _ => true,
        },
        _ => false,
    }
}

fn const_dim(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntConst(v) => Some(*v),
        ExprKind::Cast(_, a) => const_dim(a),
        _ => None,
    }
}

/// `e` contains something that must run once per work-item.
fn needs_serial(e: &Expr) -> bool {
    let mut out = false;
    super::walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Call(..) => out = true,
        ExprKind::Builtin(b, _) if per_item_builtin(b) => out = true,
        _ => {}
    });
    out
}

/// `e` writes memory (not counting the kernel's own variables).
fn writes_memory(e: &Expr, shared: &[bool]) -> bool {
    let mut out = needs_serial(e);
    super::walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Assign { lhs, .. } | ExprKind::IncDec { operand: lhs, .. }
            if root_local(lhs).is_none_or(|l| shared[l as usize]) =>
        {
            out = true
        }
        ExprKind::Builtin(b, _)
            if (b.family == Family::VectorLoadStore && b.name.starts_with("vstore"))
                || (b.family == Family::Image && b.name.starts_with("write_image")) =>
        {
            out = true
        }
        _ => {}
    });
    out
}

/// Safe to evaluate for a lane that would not have evaluated it: no memory
/// access, no division, no effect.
fn speculable(e: &Expr) -> bool {
    let mut ok = true;
    super::walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Deref(_)
        | ExprKind::Call(..)
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Builtin(..)
        | ExprKind::Binary(BinOp::Div | BinOp::Rem, ..) => ok = false,
        _ => {}
    });
    ok
}

/// An error of a lanes build that is a refusal (a construct the lanes do
/// not express; the caller falls back to one work-item per step), not a
/// bug of the lanes. Refusals are the errors starting with `lanes: `
/// ([`FALLBACK`], [`NOT_MASKABLE`]).
fn is_refusal(e: &str) -> bool {
    e.starts_with("lanes: ")
}

/// The step an entry was built with, and why.
pub(crate) struct Choice {
    /// `Use::None`: the caller builds the one-item-per-step entry.
    pub used: Use,
    /// Each faster way refused, and why.
    pub refused: Vec<String>,
    /// The lanes build's notes (`explain.rs`).
    pub notes: Vec<String>,
}

/// Choose the step of an entry and build it: four work-items per step with
/// `f`'s plan (divergent loops masked, then once per lane) when the lanes
/// are on and the kernel allows them. `refuse`: the caller's own reason to
/// run one work-item per step. An error of a lanes build that is not a
/// refusal is a bug of the lanes: debug builds fail with it, release builds
/// fall back (and `CRANECL_EXPLAIN` names it).
pub(crate) fn choose(
    pcx: &super::ProgramCx<'_>,
    f: &Function,
    refuse: Option<String>,
    mut build: impl FnMut(Plan) -> Result<(), String>,
) -> Result<Choice, String> {
    let mut choice = Choice {
        used: Use::None,
        refused: Vec::new(),
        notes: Vec::new(),
    };
    let plan = if !pcx.lanes {
        Err("the lanes are off (-cl-opt-disable or CRANECL_LANES=0)".to_string())
    } else if let Some(why) = one_item_per_step(pcx, f) {
        Err(why.to_string())
    } else if let Some(why) = refuse {
        Err(why)
    } else {
        plan(f, pcx.masked_memory_loops).and_then(|p| match p.lane_memory_loop(f) {
            Some(s) => Err(super::explain::note_at(
                pcx.sources.as_deref(),
                s.span,
                "a loop the work-items leave at different times touches memory at their own \
                 addresses: the lanes would run it once per lane, slower than one work-item per step",
            )),
            None => Ok(p),
        })
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(why) => {
            choice.refused.push(format!("4 work-items per step: {why}"));
            return Ok(choice);
        }
    };
    for p in [plan.clone(), plan.unmasked()] {
        let used = p.used();
        pcx.lane_notes.borrow_mut().clear();
        match build(p) {
            Ok(()) => {
                choice.used = used;
                choice.notes = std::mem::take(&mut *pcx.lane_notes.borrow_mut());
                return Ok(choice);
            }
            Err(e) if is_refusal(&e) => {
                let how = if used == Use::Masked {
                    "4 work-items per step with divergent loops masked"
                } else {
                    "4 work-items per step"
                };
                let why = e.trim_start_matches("lanes: ");
                choice.refused.push(format!("{how}: {why}"));
            }
            Err(e) if cfg!(debug_assertions) => {
                return Err(format!(
                    "internal error of the lanes (a bug of cranecl): {e}"
                ))
            }
            Err(e) => choice.refused.push(format!(
                "4 work-items per step: internal error of the lanes (a bug of cranecl): {e}"
            )),
        }
    }
    Ok(choice)
}

impl Plan {
    /// The same plan with varying loops run once per lane.
    pub(crate) fn unmasked(&self) -> Plan {
        Plan {
            masked_loops: false,
            ..self.clone()
        }
    }

    fn varies(&self, e: &Expr) -> bool {
        let mut out = false;
        super::walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Var(VarRef::Local(l)) if self.varying[l.0 as usize] => out = true,
            ExprKind::Builtin(b, args)
                if per_item_builtin(b) || image_access(b) || varying_workitem(b, args) =>
            {
                out = true
            }
            ExprKind::Call(..) => out = true,
            _ => {}
        });
        out
    }

    fn init_varies(&self, i: &Init) -> bool {
        match i {
            Init::Expr(e) => self.varies(e) || needs_serial(e),
            Init::Array(v) | Init::Struct(v) => v.iter().any(|i| self.init_varies(i)),
            Init::Union(_, i) => self.init_varies(i),
            Init::Zero => false,
        }
    }

    /// The statement runs once per lane (it is not taken apart).
    fn serial(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Decl(_, Some(Init::Expr(e))) | StmtKind::Expr(e) => needs_serial(e),
            StmtKind::Decl(_, Some(_)) => true,
            StmtKind::Return(Some(e)) => needs_serial(e),
            StmtKind::If(c, ..) => needs_serial(c),
            StmtKind::While(c, body) | StmtKind::DoWhile(body, c) => {
                self.varies(c) || needs_serial(c) || self.escapes_divergent(body)
            }
            StmtKind::For(init, c, step, body) => {
                c.as_ref()
                    .is_some_and(|c| self.varies(c) || needs_serial(c))
                    || step.as_ref().is_some_and(needs_serial)
                    || init.as_ref().is_some_and(|i| self.serial(i))
                    || self.escapes_divergent(body)
            }
            StmtKind::Switch(..) => true,
            _ => false,
        }
    }

    /// `s` reads or writes memory at addresses that differ between lanes: a
    /// loop like that, masked, costs a select per lane on top of each access,
    /// and once per lane (measured on CSR SpMV: 3.9x slower masked than per
    /// lane) is the better of the two.
    fn touches_lane_memory(&self, s: &Stmt) -> bool {
        let mut out = false;
        stmt_tree_exprs(s, &mut |e| {
            if let ExprKind::Deref(p) = &e.kind {
                out |= self.varies(p);
            }
        });
        out
    }

    /// A loop the lanes would run once per lane because the work-items
    /// leave it at different times and it touches memory at their own
    /// addresses (CSR SpMV's row loop). One work-item per step runs such a
    /// loop as fast and the rest of the kernel without the lanes' per-lane
    /// hand-overs: SpMV, 1M rows, 2-core EPYC: 52 -> 28 ms unchecked,
    /// 73 -> 37 ms under `bounds`, 225 -> 108 ms under `all`.
    fn lane_memory_loop<'f>(&self, f: &'f Function) -> Option<&'f Stmt> {
        if self.masked_memory {
            return None;
        }
        let body = f.body.as_ref()?;
        body.stmts.iter().find_map(|s| {
            find_stmt(s, &|s| {
                matches!(
                    s.kind,
                    StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..)
                ) && self.serial(s)
                    && self.touches_lane_memory(s)
            })
        })
    }

    /// A `break`/`continue` of this loop under a varying condition (the
    /// lanes would leave the loop at different times).
    fn escapes_divergent(&self, body: &Stmt) -> bool {
        fn walk(p: &Plan, s: &Stmt, divergent: bool) -> bool {
            match &s.kind {
                StmtKind::Break | StmtKind::Continue => divergent,
                StmtKind::Block(b) => b.stmts.iter().any(|s| walk(p, s, divergent)),
                StmtKind::If(c, t, e) => {
                    let d = divergent || p.varies(c);
                    walk(p, t, d) || e.as_ref().is_some_and(|e| walk(p, e, d))
                }
                StmtKind::Label(_, s) | StmtKind::Case(_, s) | StmtKind::Default(s) => {
                    walk(p, s, divergent)
                }
                // A nested loop or switch owns its own break/continue
                // (a `continue` inside a switch is ours, conservatively).
                StmtKind::Switch(_, b) => contains(b, &|k| matches!(k, StmtKind::Continue)),
                _ => false,
            }
        }
        walk(self, body, false)
    }

    /// Mark the locals `s` writes with varying values; true if any changed.
    fn mark(&mut self, s: &Stmt, under: bool) -> bool {
        let mut changed = false;
        let serial = self.serial(s);
        let under = under || serial;
        match &s.kind {
            StmtKind::Decl(l, init)
                if under || init.as_ref().is_some_and(|i| self.init_varies(i)) =>
            {
                changed |= self.set(l.0);
            }
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => changed |= self.mark_expr(e, under),
            StmtKind::Block(b) => {
                for s in &b.stmts {
                    changed |= self.mark(s, under);
                }
            }
            StmtKind::If(c, t, e) => {
                changed |= self.mark_expr(c, under);
                let u = under || self.varies(c);
                changed |= self.mark(t, u);
                if let Some(e) = e {
                    changed |= self.mark(e, u);
                }
            }
            StmtKind::While(c, body) | StmtKind::DoWhile(body, c) => {
                changed |= self.mark_expr(c, under);
                changed |= self.mark(body, under);
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    changed |= self.mark(i, under);
                }
                for e in c.iter().chain(step.iter()) {
                    changed |= self.mark_expr(e, under);
                }
                changed |= self.mark(body, under);
            }
            StmtKind::Switch(c, body) => {
                changed |= self.mark_expr(c, true);
                changed |= self.mark(body, true);
            }
            StmtKind::Case(_, s) | StmtKind::Default(s) | StmtKind::Label(_, s) => {
                changed |= self.mark(s, under)
            }
            _ => {}
        }
        changed
    }

    fn mark_expr(&mut self, e: &Expr, under: bool) -> bool {
        let mut targets = Vec::new();
        super::walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Assign { lhs, rhs, .. } => {
                if let Some(l) = root_local(lhs).filter(|l| !self.shared[*l as usize]) {
                    targets.push((l, self.varies(rhs) || needs_serial(rhs)));
                }
            }
            ExprKind::IncDec { operand, .. } => {
                if let Some(l) = root_local(operand).filter(|l| !self.shared[*l as usize]) {
                    targets.push((l, false));
                }
            }
            _ => {}
        });
        let mut changed = false;
        for (l, varying_value) in targets {
            if under || varying_value {
                changed |= self.set(l);
            }
        }
        changed
    }

    fn set(&mut self, l: u32) -> bool {
        if self.shared[l as usize] {
            return false;
        }
        let v = &mut self.varying[l as usize];
        let changed = !*v;
        *v = true;
        changed
    }
}

fn contains(s: &Stmt, pred: &dyn Fn(&StmtKind) -> bool) -> bool {
    find_stmt(s, &|s| pred(&s.kind)).is_some()
}

/// The first statement of `s`'s tree (`s` itself first) that `pred` holds of.
fn find_stmt<'s>(s: &'s Stmt, pred: &dyn Fn(&Stmt) -> bool) -> Option<&'s Stmt> {
    if pred(s) {
        return Some(s);
    }
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().find_map(|s| find_stmt(s, pred)),
        StmtKind::If(_, t, e) => {
            find_stmt(t, pred).or_else(|| e.as_ref().and_then(|e| find_stmt(e, pred)))
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch(_, b) => {
            find_stmt(b, pred)
        }
        StmtKind::For(i, _, _, b) => i
            .as_ref()
            .and_then(|i| find_stmt(i, pred))
            .or_else(|| find_stmt(b, pred)),
        StmtKind::Case(_, s) | StmtKind::Default(s) | StmtKind::Label(_, s) => find_stmt(s, pred),
        _ => None,
    }
}

/// `s` writes memory anywhere inside.
fn stmt_writes(s: &Stmt, shared: &[bool]) -> bool {
    let mut out = false;
    super::walk::stmt_exprs(s, &mut |e| out |= writes_memory(e, shared));
    out
}

/// Every expression of `s` (nested statements included).
fn stmt_tree_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    super::walk::stmt_exprs(s, &mut |e| super::walk::expr_tree(e, f));
}

/// Decide the lanes of `f`'s locals; `Err(why)` when the kernel must run
/// one work-item per step.
pub(crate) fn plan(f: &Function, masked_memory: bool) -> Result<Plan, String> {
    let body = f.body.as_ref().ok_or("the kernel has no body")?;
    let n = f.locals.len();
    let mut plan = Plan {
        varying: vec![false; n],
        single: vec![true; n],
        shared: f
            .locals
            .iter()
            .map(|l| l.space == crate::sema::addrspace::AddrSpace::Local)
            .collect(),
        masked_loops: true,
        masked_memory,
    };
    let mut has_goto = false;
    for s in &body.stmts {
        has_goto |= contains(s, &|k| matches!(k, StmtKind::Goto(_) | StmtKind::Label(..)));
        stmt_tree_exprs(s, &mut |e| match &e.kind {
            ExprKind::Assign { lhs: x, .. } | ExprKind::IncDec { operand: x, .. } => {
                if let Some(l) = root_local(x) {
                    plan.single[l as usize] = false;
                }
            }
            _ => {}
        });
    }
    if has_goto {
        return Err("the kernel uses goto".into());
    }
    let top = Stmt {
        kind: StmtKind::Block(body.clone()),
        span: f.span,
    };
    while plan.mark(&top, false) {}
    let addressed = super::walk::address_taken_locals(f);
    let written = super::walk::written_locals(f);
    for (i, l) in f.locals.iter().enumerate() {
        if l.space == crate::sema::addrspace::AddrSpace::Local {
            // Shared by the group: one place serves every lane.
            continue;
        }
        // Private memory (arrays, records, variables whose address is
        // taken) is written through pointers the analysis does not follow:
        // each lane would need its own copy.
        let in_memory = is_aggregate(&l.ty) || l.address_taken || addressed.contains(&(i as u32));
        let param = i < f.params.len();
        let unwritten_param = param && !written.contains(&(i as u32));
        if in_memory && !unwritten_param {
            let what = if l.ty.is_array() {
                "private array"
            } else if is_aggregate(&l.ty) {
                "private struct or union"
            } else {
                "private variable whose address is taken"
            };
            return Err(format!(
                "{what} '{}' would need a copy per work-item in memory",
                l.name
            ));
        }
        if plan.varying[i] && param {
            return Err(format!(
                "parameter '{}' is assigned a value that differs between work-items",
                l.name
            ));
        }
        if plan.varying[i] && !(l.ty.is_vector() || clif_type(&l.ty).is_some()) {
            return Err(format!(
                "'{}' differs between work-items and its type has no per-lane form",
                l.name
            ));
        }
    }
    Ok(plan)
}

/// `op` has one instruction on values packed as `vt`.
fn packed_op_exists(op: BinOp, vt: types::Type) -> bool {
    let float = vt == types::F32X4;
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => true,
        BinOp::Div => float,
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => !float,
        _ => false,
    }
}

/// `x op y` on packed values (an operation [`packed_op_exists`] accepts).
fn packed_op(fx: &mut FunctionCx<'_, '_>, op: BinOp, x: Value, y: Value) -> Value {
    let float = fx.b.func.dfg.value_type(x) == types::F32X4;
    let ins = fx.b.ins();
    match (op, float) {
        (BinOp::Add, true) => ins.fadd(x, y),
        (BinOp::Sub, true) => ins.fsub(x, y),
        (BinOp::Mul, true) => ins.fmul(x, y),
        (BinOp::Div, true) => ins.fdiv(x, y),
        (BinOp::Add, false) => ins.iadd(x, y),
        (BinOp::Sub, false) => ins.isub(x, y),
        (BinOp::Mul, false) => ins.imul(x, y),
        (BinOp::BitAnd, _) => ins.band(x, y),
        (BinOp::BitOr, _) => ins.bor(x, y),
        _ => ins.bxor(x, y),
    }
}

// ------------------------------------------------------------ emission

/// The state of one lanes entry while its step body is emitted.
pub(crate) struct LaneCx {
    plan: Plan,
    /// Local id x of lane 0, the other local ids, the per-dimension bases.
    ids: [Value; 3],
    bases: [Value; 3],
    /// Varying locals written only by a declaration emitted for the whole step.
    bound: HashMap<u32, LVal>,
    /// Varying locals with their own storage.
    vars: HashMap<u32, Slot>,
    /// Per-lane copies of bound values, for serial code.
    copies: HashMap<u32, Vec<CPlace>>,
    /// Nothing has written memory since the step began.
    pure: bool,
    /// The one-at-a-time code for items `[x, end)`: `(x, end)` parameters.
    chunk: Block,
    /// Masked loops being emitted, innermost last.
    masks: Vec<MaskFrame>,
    /// 64 writable bytes a masked-off lane loads from and stores to.
    dummy: Value,
    /// Checked `bounds` alone: the read of a compound assignment keeps the
    /// lanes' addresses its test found inside (`lane_addrs`), for the
    /// write to use without a second test.
    keep_lanes: bool,
    kept_ok: Option<Value>,
}

/// A loop run with a mask of active lanes: `i32x4` values, a lane all
/// ones when active, zero when not.
struct MaskFrame {
    /// Lanes still in the loop (cleared by `break` and the condition).
    loop_active: cranelift_frontend::Variable,
    /// Lanes still in this iteration (cleared by `continue` too).
    iter_active: cranelift_frontend::Variable,
    /// Conditions of the varying `if`s around the current point.
    conds: Vec<Value>,
}

/// A construct a masked loop cannot run (the entry is made again with
/// such loops run once per lane).
pub(crate) const NOT_MASKABLE: &str = "lanes: a loop cannot run masked";

/// `e` is free of memory accesses, calls and assignments (safe to evaluate
/// for a lane that is masked off).
fn register_only(e: &Expr) -> bool {
    let mut ok = true;
    super::walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Deref(_)
        | ExprKind::Call(..)
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::AddrOf(_) => ok = false,
        ExprKind::Builtin(b, _)
            if per_item_builtin(b)
                || image_access(b)
                || b.params.iter().any(|p| p.is_pointer())
                || matches!(b.family, Family::VectorLoadStore | Family::AddressSpace) =>
        {
            ok = false
        }
        _ => {}
    });
    ok
}

/// Why a lanes entry cannot be made (the caller falls back).
pub(crate) const FALLBACK: &str = "lanes: fall back to one work-item per step";

impl LaneCx {
    pub(crate) fn new(
        plan: Plan,
        ids: [Value; 3],
        bases: [Value; 3],
        chunk: Block,
        dummy: Value,
    ) -> Self {
        LaneCx {
            plan,
            ids,
            bases,
            bound: HashMap::new(),
            vars: HashMap::new(),
            copies: HashMap::new(),
            pure: true,
            chunk,
            masks: Vec::new(),
            dummy,
            keep_lanes: false,
            kept_ok: None,
        }
    }

    fn masked(&self) -> bool {
        !self.masks.is_empty()
    }

    /// The lanes active at this point of a masked loop (`None` outside one).
    fn cur_mask(&self, fx: &mut FunctionCx<'_, '_>) -> Option<Value> {
        let f = self.masks.last()?;
        let mut m = fx.b.use_var(f.iter_active);
        for c in &f.conds {
            m = fx.b.ins().band(m, *c);
        }
        Some(m)
    }

    fn any(fx: &mut FunctionCx<'_, '_>, m: Value) -> Value {
        fx.b.ins().vany_true(m)
    }

    /// Lane `k` of a mask as an i8 0/1.
    fn mask_lane(fx: &mut FunctionCx<'_, '_>, m: Value, k: usize) -> Value {
        let x = fx.b.ins().extractlane(m, k as u8);
        fx.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
    }

    /// The mask of the lanes where `v` (of type `ty`) is true.
    fn truth_mask(fx: &mut FunctionCx<'_, '_>, v: &LVal, ty: &Type) -> Result<Value, String> {
        if let LVal::Vec(x) = v {
            if let Some(m) = Self::mask_behind(fx, *x) {
                return Ok(m);
            }
            let vt = fx.b.func.dfg.value_type(*x);
            return Ok(if vt == types::F32X4 {
                let z = fx.b.ins().f32const(0.0);
                let z = fx.b.ins().splat(vt, z);
                fx.b.ins().fcmp(FloatCC::NotEqual, *x, z)
            } else {
                let z = fx.b.ins().iconst(types::I32, 0);
                let z = fx.b.ins().splat(vt, z);
                fx.b.ins().icmp(IntCC::NotEqual, *x, z)
            });
        }
        let mut m = None;
        for k in 0..LANES {
            let x = Self::lane(fx, v, k);
            let t = fx.truth(&x, ty)?;
            let t = fx.b.ins().uextend(types::I32, t);
            let t = fx.b.ins().ineg(t);
            m = Some(match m {
                None => fx.b.ins().splat(types::I32X4, t),
                Some(m) => fx.b.ins().insertlane(m, t, k as u8),
            });
        }
        m.ok_or_else(|| FALLBACK.into())
    }

    /// The mask a packed comparison's 0/1 result was made from
    /// (`band(mask, splat(1))`), to test it without converting back.
    fn mask_behind(fx: &FunctionCx<'_, '_>, x: Value) -> Option<Value> {
        use cranelift_codegen::ir::{InstructionData, Opcode};
        let dfg = &fx.b.func.dfg;
        let inst = dfg.value_def(x).inst()?;
        let InstructionData::Binary {
            opcode: Opcode::Band,
            args: [m, one],
        } = dfg.insts[inst]
        else {
            return None;
        };
        // A mask: a vector comparison, or `band`/`bor` of masks.
        fn is_mask(dfg: &cranelift_codegen::ir::DataFlowGraph, v: Value, depth: u32) -> bool {
            let Some(i) = dfg.value_def(v).inst() else {
                return false;
            };
            match dfg.insts[i].opcode() {
                Opcode::Icmp | Opcode::Fcmp => true,
                Opcode::Band | Opcode::Bor if depth > 0 => {
                    dfg.inst_args(i).iter().all(|a| is_mask(dfg, *a, depth - 1))
                }
                _ => false,
            }
        }
        let one_inst = dfg.value_def(one).inst()?;
        let splat_of_one = dfg.insts[one_inst].opcode() == Opcode::Splat
            && dfg.inst_args(one_inst).first().is_some_and(|a| {
                dfg.value_def(*a).inst().is_some_and(|i| {
                    matches!(dfg.insts[i], InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } if imm.bits() == 1)
                })
            });
        (splat_of_one && is_mask(dfg, m, 4)).then_some(m)
    }

    /// `v` where the lane is active, `old` elsewhere.
    fn blend(fx: &mut FunctionCx<'_, '_>, m: Value, v: &LVal, old: &LVal) -> Result<LVal, String> {
        // Packed: the mask's bits choose (the mask seen as the values' type).
        let select = |fx: &mut FunctionCx<'_, '_>, x: Value, y: Value| {
            let vt = fx.b.func.dfg.value_type(x);
            let mv = if vt == types::I32X4 {
                m
            } else {
                fx.b.ins()
                    .bitcast(vt, cranelift_codegen::ir::MemFlagsData::new(), m)
            };
            fx.b.ins().bitselect(mv, x, y)
        };
        if let (LVal::Vec(x), LVal::Vec(y)) = (v, old) {
            return Ok(LVal::Vec(select(fx, *x, *y)));
        }
        if let (LVal::VecN(xs), LVal::VecN(ys)) = (v, old) {
            let out = xs.iter().zip(ys).map(|(x, y)| select(fx, *x, *y)).collect();
            return Ok(LVal::VecN(out));
        }
        let mut out = Vec::with_capacity(LANES);
        for k in 0..LANES {
            let mk = Self::mask_lane(fx, m, k);
            let (x, y) = (Self::lane(fx, v, k), Self::lane(fx, old, k));
            out.push(Self::select_lane(fx, mk, x, y).ok_or(NOT_MASKABLE)?);
        }
        Ok(LVal::Lanes(out))
    }

    /// One lane's `t ? x : y` (`t` an i8 0/1) of a scalar or vector value.
    fn select_lane(fx: &mut FunctionCx<'_, '_>, t: Value, x: CValue, y: CValue) -> Option<CValue> {
        Some(match (x, y) {
            (CValue::Scalar(x), CValue::Scalar(y)) => CValue::Scalar(fx.b.ins().select(t, x, y)),
            (CValue::Lanes(x), CValue::Lanes(y)) => CValue::Lanes(
                x.iter()
                    .zip(&y)
                    .map(|(x, y)| fx.b.ins().select(t, *x, *y))
                    .collect(),
            ),
            _ => return None,
        })
    }

    /// Each lane's address, a masked-off lane's replaced by the dummy.
    fn masked_addrs(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<Vec<Value>, String> {
        if fx.size_of(ty) > 64 {
            return Err(NOT_MASKABLE.into());
        }
        let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
        let mut out = Vec::with_capacity(LANES);
        for k in 0..LANES {
            let mk = Self::mask_lane(fx, m, k);
            let a = Self::lane(fx, addr, k).scalar()?;
            out.push(fx.b.ins().select(mk, a, self.dummy));
        }
        Ok(out)
    }

    fn new_places(fx: &mut FunctionCx<'_, '_>, ty: &Type) -> Result<Vec<CPlace>, String> {
        let (t, n) = match ty {
            Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
            t => (clif_type(t).ok_or(FALLBACK)?, 1),
        };
        Ok((0..LANES)
            .map(|_| CPlace::Var((0..n).map(|_| fx.b.declare_var(t)).collect()))
            .collect())
    }

    fn local_ty<'p>(fx: &FunctionCx<'_, 'p>, l: u32) -> Type {
        fx.func.locals[l as usize].ty.clone()
    }

    /// Lane `k` of `v`.
    pub(crate) fn lane(fx: &mut FunctionCx<'_, '_>, v: &LVal, k: usize) -> CValue {
        match v {
            LVal::Uni(c) => c.clone(),
            LVal::Aff { base, step } => CValue::Scalar(if k == 0 {
                *base
            } else {
                fx.b.ins().iadd_imm_s(*base, step * k as i64)
            }),
            LVal::Lanes(l) => l[k].clone(),
            LVal::Vec(v) => CValue::Scalar(fx.b.ins().extractlane(*v, k as u8)),
            LVal::VecN(c) => CValue::Lanes(
                c.iter()
                    .map(|v| fx.b.ins().extractlane(*v, k as u8))
                    .collect(),
            ),
        }
    }

    /// `v` (of a vector type of `n` components packed as `vt`) as one
    /// packed register per component, when it can be.
    fn pack_n(
        fx: &mut FunctionCx<'_, '_>,
        v: &LVal,
        vt: types::Type,
        n: usize,
    ) -> Option<Vec<Value>> {
        let lane_t = vt.lane_type();
        match v {
            LVal::VecN(c) if c.len() == n => Some(c.clone()),
            LVal::Uni(CValue::Lanes(l)) if l.len() == n => l
                .iter()
                .map(|x| (fx.b.func.dfg.value_type(*x) == lane_t).then(|| fx.b.ins().splat(vt, *x)))
                .collect(),
            LVal::Lanes(ls) => {
                let mut comps: Vec<Value> = Vec::with_capacity(n);
                for c in 0..n {
                    let mut acc: Option<Value> = None;
                    for (k, l) in ls.iter().enumerate() {
                        let CValue::Lanes(xs) = l else { return None };
                        let x = *xs.get(c)?;
                        if fx.b.func.dfg.value_type(x) != lane_t {
                            return None;
                        }
                        acc = Some(match acc {
                            None => fx.b.ins().splat(vt, x),
                            Some(a) => fx.b.ins().insertlane(a, x, k as u8),
                        });
                    }
                    comps.push(acc?);
                }
                Some(comps)
            }
            _ => None,
        }
    }

    /// `v` packed as `vt`, when it can be.
    fn pack(fx: &mut FunctionCx<'_, '_>, v: &LVal, vt: types::Type) -> Option<Value> {
        let lane_t = vt.lane_type();
        let scalar = |fx: &FunctionCx<'_, '_>, c: &CValue| match c {
            CValue::Scalar(x) if fx.b.func.dfg.value_type(*x) == lane_t => Some(*x),
            _ => None,
        };
        Some(match v {
            LVal::VecN(_) => return None,
            LVal::Vec(x) => *x,
            LVal::Uni(c) => {
                let x = scalar(fx, c)?;
                fx.b.ins().splat(vt, x)
            }
            LVal::Aff { base, step } => {
                if lane_t != types::I32 || fx.b.func.dfg.value_type(*base) != types::I32 {
                    return None;
                }
                let bytes: Vec<u8> = (0..LANES as i64)
                    .flat_map(|k| (step.wrapping_mul(k) as i32).to_le_bytes())
                    .collect();
                let c = fx.b.func.dfg.constants.insert(bytes.into());
                let offsets = fx.b.ins().vconst(vt, c);
                let b = fx.b.ins().splat(vt, *base);
                fx.b.ins().iadd(b, offsets)
            }
            LVal::Lanes(l) => {
                let xs: Vec<Value> = l
                    .iter()
                    .map(|c| scalar(fx, c))
                    .collect::<Option<Vec<_>>>()?;
                let mut v = fx.b.ins().splat(vt, xs[0]);
                for (k, x) in xs.iter().enumerate().skip(1) {
                    v = fx.b.ins().insertlane(v, *x, k as u8);
                }
                v
            }
        })
    }

    /// `a op b` over the step: affine where it stays affine, packed where
    /// an operand is packed and the operation has a packed form, else per lane.
    #[allow(clippy::too_many_arguments)]
    fn binop(
        fx: &mut FunctionCx<'_, '_>,
        op: BinOp,
        a: &LVal,
        b: &LVal,
        ty: &Type,
        rhs_ty: &Type,
        res_ty: &Type,
    ) -> Result<LVal, String> {
        if let Some(v) = Self::affine(fx, op, a, b, ty, rhs_ty, res_ty) {
            return Ok(v);
        }
        if let (Some((vt, n)), true) = (
            packed_components(ty),
            ty == rhs_ty
                && ty == res_ty
                && (matches!(a, LVal::VecN(_) | LVal::Lanes(_))
                    || matches!(b, LVal::VecN(_) | LVal::Lanes(_))),
        ) {
            let packed = packed_op_exists(op, vt)
                .then(|| Some((Self::pack_n(fx, a, vt, n)?, Self::pack_n(fx, b, vt, n)?)))
                .flatten();
            if let Some((xs, ys)) = packed {
                let out = xs
                    .into_iter()
                    .zip(ys)
                    .map(|(x, y)| packed_op(fx, op, x, y))
                    .collect();
                return Ok(LVal::VecN(out));
            }
        }
        let any_packed = matches!(a, LVal::Vec(_)) || matches!(b, LVal::Vec(_));
        if let (true, Some(vt), Some(elem)) = (
            any_packed && ty == rhs_ty && matches!(res_ty, Type::Scalar(Scalar::Int)),
            packed_type(ty),
            ty.elem(),
        ) {
            // A comparison of packed values: int 0/1 per lane, packed.
            let fcc = match op {
                BinOp::Lt => Some((
                    FloatCC::LessThan,
                    IntCC::SignedLessThan,
                    IntCC::UnsignedLessThan,
                )),
                BinOp::Gt => Some((
                    FloatCC::GreaterThan,
                    IntCC::SignedGreaterThan,
                    IntCC::UnsignedGreaterThan,
                )),
                BinOp::Le => Some((
                    FloatCC::LessThanOrEqual,
                    IntCC::SignedLessThanOrEqual,
                    IntCC::UnsignedLessThanOrEqual,
                )),
                BinOp::Ge => Some((
                    FloatCC::GreaterThanOrEqual,
                    IntCC::SignedGreaterThanOrEqual,
                    IntCC::UnsignedGreaterThanOrEqual,
                )),
                BinOp::Eq => Some((FloatCC::Equal, IntCC::Equal, IntCC::Equal)),
                BinOp::Ne => Some((FloatCC::NotEqual, IntCC::NotEqual, IntCC::NotEqual)),
                _ => None,
            };
            if let (Some((f, si, ui)), Some(x), Some(y)) =
                (fcc, Self::pack(fx, a, vt), Self::pack(fx, b, vt))
            {
                let m = if vt == types::F32X4 {
                    fx.b.ins().fcmp(f, x, y)
                } else if elem.is_signed() {
                    fx.b.ins().icmp(si, x, y)
                } else {
                    fx.b.ins().icmp(ui, x, y)
                };
                let one = fx.b.ins().iconst(types::I32, 1);
                let one = fx.b.ins().splat(types::I32X4, one);
                return Ok(LVal::Vec(fx.b.ins().band(m, one)));
            }
        }
        if let (true, Some(vt)) = (any_packed && ty == rhs_ty && ty == res_ty, packed_type(ty)) {
            let packed = packed_op_exists(op, vt)
                .then(|| Some((Self::pack(fx, a, vt)?, Self::pack(fx, b, vt)?)))
                .flatten();
            if let Some((x, y)) = packed {
                return Ok(LVal::Vec(packed_op(fx, op, x, y)));
            }
        }
        let mut out = Vec::with_capacity(LANES);
        for k in 0..LANES {
            let x = Self::lane(fx, a, k);
            let y = Self::lane(fx, b, k);
            out.push(fx.binary(op, x, y, ty, rhs_ty, res_ty)?);
        }
        Ok(LVal::Lanes(out))
    }

    /// Storage for varying local `l`.
    fn slot(&mut self, fx: &mut FunctionCx<'_, '_>, l: u32) -> Result<Slot, String> {
        if let Some(s) = self.vars.get(&l) {
            return Ok(s.clone());
        }
        let ty = Self::local_ty(fx, l);
        let slot = match (packed_type(&ty), packed_components(&ty)) {
            (Some(vt), _) => Slot::Packed(fx.b.declare_var(vt)),
            (_, Some((vt, n))) => Slot::PackedN((0..n).map(|_| fx.b.declare_var(vt)).collect()),
            _ => Slot::Lanes(Self::new_places(fx, &ty)?),
        };
        self.vars.insert(l, slot.clone());
        Ok(slot)
    }

    /// The place lane `k` uses for varying local `l` in serial code, and
    /// the packed variables to write it back to afterwards (one per
    /// component; none when it has places of its own). A packed value is
    /// taken from `start` (the packed variables before the first lane ran)
    /// where it is there: lane `k` does not change the other lanes' values,
    /// and reading the current one would make each lane wait for the lanes
    /// before it (their results inserted into the same register).
    fn lane_place(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        k: usize,
        start: &[(cranelift_frontend::Variable, Value)],
    ) -> Result<(CPlace, Vec<cranelift_frontend::Variable>), String> {
        let ty = Self::local_ty(fx, l);
        let bound = if self.vars.contains_key(&l) {
            None
        } else {
            self.bound.get(&l).cloned()
        };
        let (value, back) = match bound {
            Some(v) => (Self::lane(fx, &v, k), Vec::new()),
            None => match self.slot(fx, l)? {
                Slot::Lanes(p) => return Ok((p[k].clone(), Vec::new())),
                Slot::Packed(var) => {
                    let v = Self::at_start(fx, start, var);
                    let x = fx.b.ins().extractlane(v, k as u8);
                    (CValue::Scalar(x), vec![var])
                }
                Slot::PackedN(vars) => {
                    let xs = vars
                        .iter()
                        .map(|var| {
                            let v = Self::at_start(fx, start, *var);
                            fx.b.ins().extractlane(v, k as u8)
                        })
                        .collect();
                    (CValue::Lanes(xs), vars)
                }
            },
        };
        if let std::collections::hash_map::Entry::Vacant(e) = self.copies.entry(l) {
            e.insert(Self::new_places(fx, &ty)?);
        }
        let p = self.copies[&l][k].clone();
        fx.write_place(&p, &ty, &value)?;
        Ok((p, back))
    }

    /// Packed variable `var` as `start` holds it, else as it is now.
    fn at_start(
        fx: &mut FunctionCx<'_, '_>,
        start: &[(cranelift_frontend::Variable, Value)],
        var: cranelift_frontend::Variable,
    ) -> Value {
        match start.iter().find(|(v, _)| *v == var) {
            Some(&(_, x)) => x,
            None => fx.b.use_var(var),
        }
    }

    /// Run `emit` once per lane with that lane's places for the varying
    /// locals `uses` mentions and that lane's work-item ids.
    fn per_lane<T>(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        uses: &[u32],
        mut emit: impl FnMut(&mut FunctionCx<'_, '_>) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut out: Vec<Option<T>> = (0..LANES).map(|_| None).collect();
        let mut start = Vec::new();
        for &l in uses {
            if self.vars.contains_key(&l) || !self.bound.contains_key(&l) {
                let vars = match self.slot(fx, l)? {
                    Slot::Packed(var) => vec![var],
                    Slot::PackedN(vars) => vars,
                    Slot::Lanes(_) => Vec::new(),
                };
                for var in vars {
                    start.push((var, fx.b.use_var(var)));
                }
            }
        }
        // Each lane's own local id goes to the item here (below), so its
        // reports name the item as it is, not relative to lane 0.
        let rel = std::mem::replace(&mut fx.lanes_rel, false);
        for k in fx.lane_order() {
            let mut saved = Vec::new();
            for &l in uses {
                let (p, back) = self.lane_place(fx, l, k, &start)?;
                let old = std::mem::replace(&mut fx.locals[l as usize], p.clone());
                saved.push((l, old, p, back));
            }
            let x = fx.b.ins().iadd_imm_s(self.ids[0], k as i64);
            if fx.store_item_ids {
                fx.b.ins()
                    .store(super::value::flags(), x, fx.item, o::ITEM_LOCAL_ID);
            }
            let ids = [x, self.ids[1], self.ids[2]];
            let old = fx.inline_ids.replace((ids, self.bases));
            let saved_me = at_lane(fx, k);
            if let Some(me) = fx.check_me.filter(|_| fx.lanes_me0.is_some()) {
                // Functions it calls name the work-item by the field.
                fx.b.ins()
                    .store(super::value::flags(), me, fx.item, o::ITEM_CHECK_ME);
            }
            let r = emit(fx);
            fx.check_me = saved_me;
            fx.inline_ids = old;
            for (l, old, p, back) in saved {
                fx.locals[l as usize] = old;
                if !back.is_empty() {
                    // What this lane left in its copy goes back into the
                    // packed variables.
                    let ty = Self::local_ty(fx, l);
                    let xs = fx.read_place(&p, &ty)?.lanes()?;
                    for (var, x) in back.iter().zip(xs) {
                        let v = fx.b.use_var(*var);
                        let v = fx.b.ins().insertlane(v, x, k as u8);
                        fx.b.def_var(*var, v);
                    }
                }
            }
            out[k] = Some(r?);
        }
        if rel {
            fx.lanes_rel = true;
            fx.b.ins().store(
                super::value::flags(),
                self.ids[0],
                fx.item,
                o::ITEM_LOCAL_ID,
            );
        }
        out.into_iter()
            .map(|r| r.ok_or_else(|| "internal: a lane not run".to_string()))
            .collect()
    }

    /// The varying locals `s` mentions.
    fn uses_stmt(&self, s: &Stmt) -> Vec<u32> {
        let mut v = Vec::new();
        stmt_tree_exprs(s, &mut |e| self.collect_uses(e, &mut v));
        if let StmtKind::Decl(l, _) = &s.kind {
            v.push(l.0);
        }
        let mut decls = Vec::new();
        collect_decls(s, &mut decls);
        v.extend(decls.into_iter().filter(|l| self.plan.varying[*l as usize]));
        v.sort_unstable();
        v.dedup();
        v.retain(|l| self.plan.varying[*l as usize]);
        v
    }

    fn uses_expr(&self, e: &Expr) -> Vec<u32> {
        let mut v = Vec::new();
        super::walk::expr_tree(e, &mut |x| self.collect_uses(x, &mut v));
        v.sort_unstable();
        v.dedup();
        v
    }

    fn collect_uses(&self, e: &Expr, v: &mut Vec<u32>) {
        if let ExprKind::Var(VarRef::Local(l)) = &e.kind {
            if self.plan.varying[l.0 as usize] {
                v.push(l.0);
            }
        }
    }

    /// `CRANECL_EXPLAIN`: note `what` happens at `span` (once per place).
    fn note(fx: &FunctionCx<'_, '_>, span: crate::source::Span, what: &str) {
        if !fx.pcx.explain {
            return;
        }
        let n = super::explain::note_at(fx.pcx.sources.as_deref(), span, what);
        let mut notes = fx.pcx.lane_notes.borrow_mut();
        if notes.len() < super::explain::MAX_NOTES && !notes.contains(&n) {
            notes.push(n);
        }
    }

    /// A whole statement once per lane (`why`, for `CRANECL_EXPLAIN`).
    fn serial_stmt(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
        why: &str,
    ) -> Result<(), String> {
        if self.masked() {
            return Err(NOT_MASKABLE.into());
        }
        if contains(s, &|k| matches!(k, StmtKind::Return(_))) {
            // A lane's return would end the other lanes' turns too.
            return Err(FALLBACK.into());
        }
        Self::note(fx, s.span, &format!("once per lane ({why})"));
        let uses = self.uses_stmt(s);
        self.per_lane(fx, &uses, |fx| fx.stmt(s))?;
        Ok(())
    }

    /// A whole expression once per lane.
    fn serial_expr(&mut self, fx: &mut FunctionCx<'_, '_>, e: &Expr) -> Result<LVal, String> {
        if self.masked() && !register_only(e) {
            return Err(NOT_MASKABLE.into());
        }
        Self::note(
            fx,
            e.span,
            &format!(
                "once per lane (no packed form of this {})",
                e.ty.display(&fx.pcx.prog.records)
            ),
        );
        let uses = self.uses_expr(e);
        Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| fx.expr(e))?))
    }

    // -------------------------------------------- for the region strategy

    /// The local varies between the lanes of a step.
    pub(crate) fn varies_local(&self, l: u32) -> bool {
        self.plan.varying[l as usize]
    }

    /// Give varying local `l` this storage (a region piece loads it from
    /// each lane's frame).
    pub(crate) fn preset(&mut self, l: u32, slot: Slot) {
        self.bound.remove(&l);
        self.vars.insert(l, slot);
    }

    /// Give varying local `l`, never written, this value for the step (a
    /// region piece's copy of `get_local_id(0)`: lane 0's, then +1 per lane).
    pub(crate) fn preset_value(&mut self, l: u32, v: LVal) {
        self.vars.remove(&l);
        self.bound.insert(l, v);
    }

    /// Each lane's value of varying local `l`.
    pub(crate) fn local_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
    ) -> Result<Vec<CValue>, String> {
        let ty = Self::local_ty(fx, l);
        let v = match self.bound.get(&l).cloned() {
            Some(v) if !self.vars.contains_key(&l) => v,
            _ => {
                let e = Expr::rvalue(
                    ExprKind::Var(VarRef::Local(crate::sema::hir::LocalId(l))),
                    ty,
                    fx.func.locals[l as usize].span,
                );
                self.read(fx, &e)?
            }
        };
        Ok((0..LANES).map(|k| Self::lane(fx, &v, k)).collect())
    }

    /// Statements for the whole step.
    pub(crate) fn stmts(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        stmts: &[&Stmt],
    ) -> Result<(), String> {
        for s in stmts {
            self.stmt(fx, s)?;
        }
        Ok(())
    }

    /// The truth of `c` (uniform across the group by the spec's rule for
    /// conditions around barriers) as the last lane computes it.
    /// Each lane's truth of `c`.
    pub(crate) fn truths(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        c: &Expr,
    ) -> Result<Vec<Value>, String> {
        let v = self.expr(fx, c)?;
        (0..LANES)
            .map(|k| {
                let x = Self::lane(fx, &v, k);
                fx.truth(&x, &c.ty)
            })
            .collect()
    }

    pub(crate) fn last_truth(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        c: &Expr,
    ) -> Result<Value, String> {
        let v = self.expr(fx, c)?;
        let x = Self::lane(fx, &v, LANES - 1);
        fx.truth(&x, &c.ty)
    }

    // -------------------------------------------------------- statements

    pub(crate) fn block(&mut self, fx: &mut FunctionCx<'_, '_>, b: &HBlock) -> Result<(), String> {
        for s in &b.stmts {
            self.stmt(fx, s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        let was_pure = self.pure;
        let r = self.stmt_inner(fx, s);
        self.pure = was_pure && !stmt_writes(s, &self.plan.shared);
        r
    }

    fn stmt_inner(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        if self.masked() {
            return self.masked_stmt(fx, s);
        }
        let is_loop = matches!(
            s.kind,
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..)
        );
        if self.plan.serial(s) {
            let why = if !is_loop {
                "per-work-item effects: an atomic, printf, a call, or a switch"
            } else if self.loop_needs_serial(s) {
                "a loop whose condition or step has per-work-item effects"
            } else if self.plan.masked_loops {
                Self::note(
                    fx,
                    s.span,
                    "masked (work-items leave this loop at different times)",
                );
                return self.masked_loop(fx, s);
            } else {
                "a loop work-items leave at different times (its masked form was refused)"
            };
            return self.serial_stmt(fx, s, why);
        }
        let mut varies = false;
        super::walk::stmt_exprs(s, &mut |e| varies |= self.plan.varies(e));
        let declares_varying = {
            let mut d = Vec::new();
            collect_decls(s, &mut d);
            d.iter().any(|l| self.plan.varying[*l as usize])
        };
        if !varies && !declares_varying {
            // Uniform through and through: once for the step. (`return`,
            // `break` and `continue` go where the step's own control flow
            // says.)
            return fx.stmt(s);
        }
        match &s.kind {
            StmtKind::Decl(l, init) => self.decl(fx, l.0, init.as_ref()),
            StmtKind::Expr(e) => self.expr(fx, e).map(|_| ()),
            StmtKind::Block(b) => self.block(fx, b),
            StmtKind::Empty => Ok(()),
            StmtKind::If(c, t, e) => self.if_stmt(fx, s, c, t, e.as_deref()),
            StmtKind::While(c, body) => {
                let (head, body_b, end) = (
                    fx.b.create_block(),
                    fx.b.create_block(),
                    fx.b.create_block(),
                );
                self.loop_entry(s);
                fx.enter(head);
                fx.cond_branch(c, body_b, end)?;
                fx.enter(body_b);
                self.in_loop(fx, end, head, |lc, fx| lc.stmt(fx, body))?;
                fx.jump(head);
                fx.enter(end);
                Ok(())
            }
            StmtKind::DoWhile(body, c) => {
                let (body_b, cond_b, end) = (
                    fx.b.create_block(),
                    fx.b.create_block(),
                    fx.b.create_block(),
                );
                self.loop_entry(s);
                fx.enter(body_b);
                self.in_loop(fx, end, cond_b, |lc, fx| lc.stmt(fx, body))?;
                fx.enter(cond_b);
                fx.cond_branch(c, body_b, end)?;
                fx.enter(end);
                Ok(())
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.stmt(fx, i)?;
                }
                let Some((inside, keys)) =
                    self.invariant_inside(fx, c.as_ref(), step.as_ref(), body)?
                else {
                    return self.for_loop(fx, s);
                };
                // Checked `bounds`: a copy of the loop without the tests of
                // the subscripts it does not change when they were found
                // inside, the checked loop when not.
                fx.versions(inside, |fx, fast| {
                    if fast {
                        fx.invariant_inside.extend(keys.iter().copied());
                    }
                    let r = self.for_loop(fx, s);
                    for k in &keys {
                        fx.invariant_inside.remove(k);
                    }
                    r
                })
            }
            // Under a condition every lane agrees on (varying ones are
            // caught by `if_stmt`): the step's own control flow.
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => fx.stmt(s),
            _ => self.serial_stmt(fx, s, "a statement the lanes do not take apart"),
        }
    }

    /// A loop whose own condition, initialiser or step needs per-item
    /// effects (then it runs once per lane).
    fn loop_needs_serial(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => needs_serial(c),
            StmtKind::For(init, c, step, _) => {
                c.as_ref().is_some_and(needs_serial)
                    || step.as_ref().is_some_and(needs_serial)
                    || init.as_ref().is_some_and(|i| self.plan.serial(i))
            }
            _ => true,
        }
    }

    /// A statement inside a masked loop.
    fn masked_stmt(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        match &s.kind {
            StmtKind::Decl(l, init) => {
                if self.plan.varying[l.0 as usize] {
                    self.decl(fx, l.0, init.as_ref())
                } else if init.as_ref().is_none_or(|i| !self.plan.init_varies(i)) {
                    fx.stmt(s)
                } else {
                    Err(NOT_MASKABLE.into())
                }
            }
            StmtKind::Expr(e) => self.expr(fx, e).map(|_| ()),
            StmtKind::Block(b) => {
                for s in &b.stmts {
                    self.masked_stmt(fx, s)?;
                }
                Ok(())
            }
            StmtKind::Empty => Ok(()),
            StmtKind::If(c, t, e) => {
                if !self.plan.varies(c) && !needs_serial(c) {
                    let (then_b, else_b, end) = (
                        fx.b.create_block(),
                        fx.b.create_block(),
                        fx.b.create_block(),
                    );
                    fx.cond_branch(c, then_b, else_b)?;
                    fx.enter(then_b);
                    self.masked_stmt(fx, t)?;
                    fx.jump(end);
                    fx.enter(else_b);
                    if let Some(e) = e {
                        self.masked_stmt(fx, e)?;
                    }
                    fx.enter(end);
                    return Ok(());
                }
                let v = self.expr(fx, c)?;
                let yes = Self::truth_mask(fx, &v, &c.ty)?;
                let no = fx.b.ins().bnot(yes);
                self.masked_arm(fx, yes, t)?;
                if let Some(e) = e {
                    self.masked_arm(fx, no, e)?;
                }
                Ok(())
            }
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..) => {
                self.masked_loop(fx, s)
            }
            StmtKind::Break | StmtKind::Continue => {
                let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
                let f = self.masks.last().ok_or(NOT_MASKABLE)?;
                let (la, ia) = (f.loop_active, f.iter_active);
                let off = fx.b.ins().bnot(m);
                let i = fx.b.use_var(ia);
                let i = fx.b.ins().band(i, off);
                fx.b.def_var(ia, i);
                if matches!(s.kind, StmtKind::Break) {
                    let l = fx.b.use_var(la);
                    let l = fx.b.ins().band(l, off);
                    fx.b.def_var(la, l);
                }
                Ok(())
            }
            _ => Err(NOT_MASKABLE.into()),
        }
    }

    /// One arm of a varying `if` in a masked loop: skipped when no active
    /// lane takes it.
    fn masked_arm(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Value,
        arm: &Stmt,
    ) -> Result<(), String> {
        self.masks.last_mut().ok_or(NOT_MASKABLE)?.conds.push(cond);
        let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
        let any = Self::any(fx, m);
        let (run, after) = (fx.b.create_block(), fx.b.create_block());
        fx.b.ins().brif(any, run, &[], after, &[]);
        fx.terminated();
        fx.enter(run);
        let r = self.masked_stmt(fx, arm);
        fx.jump(after);
        fx.enter(after);
        if let Some(f) = self.masks.last_mut() {
            f.conds.pop();
        }
        r
    }

    /// A loop the lanes leave at different times: it runs while any lane
    /// is in it; a lane out of the loop (its condition false, or `break`)
    /// or out of the iteration (`continue`) is masked off: its variables
    /// keep their values, its loads read a dummy, its stores go there.
    fn masked_loop(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        let (init, cond, step, body, post_test) = match &s.kind {
            StmtKind::While(c, b) => (None, Some(c), None, &**b, false),
            StmtKind::DoWhile(b, c) => (None, Some(c), None, &**b, true),
            StmtKind::For(i, c, st, b) => (i.as_deref(), c.as_ref(), st.as_ref(), &**b, false),
            _ => return Err(NOT_MASKABLE.into()),
        };
        if let Some(i) = init {
            self.stmt(fx, i)?;
        }
        let entry = match self.cur_mask(fx) {
            Some(m) => m,
            None => {
                let ones = fx.b.ins().iconst(types::I32, -1);
                fx.b.ins().splat(types::I32X4, ones)
            }
        };
        let la = fx.b.declare_var(types::I32X4);
        let ia = fx.b.declare_var(types::I32X4);
        fx.b.def_var(la, entry);
        fx.b.def_var(ia, entry);
        self.masks.push(MaskFrame {
            loop_active: la,
            iter_active: ia,
            conds: Vec::new(),
        });
        let r = self.masked_loop_blocks(fx, cond, step, body, post_test, la, ia);
        self.masks.pop();
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn masked_loop_blocks(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        post_test: bool,
        la: cranelift_frontend::Variable,
        ia: cranelift_frontend::Variable,
    ) -> Result<(), String> {
        let (head, body_b, latch, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        // The test: lanes whose condition is false leave; on when any is left.
        let test = |lc: &mut Self, fx: &mut FunctionCx<'_, '_>| -> Result<(), String> {
            if let Some(c) = cond {
                let v = lc.expr(fx, c)?;
                let t = Self::truth_mask(fx, &v, &c.ty)?;
                let a = fx.b.use_var(la);
                let a = fx.b.ins().band(a, t);
                fx.b.def_var(la, a);
            }
            let m = fx.b.use_var(la);
            fx.b.def_var(ia, m);
            let any = Self::any(fx, m);
            fx.b.ins().brif(any, body_b, &[], end, &[]);
            fx.terminated();
            Ok(())
        };
        if post_test {
            fx.jump(body_b);
        } else {
            fx.jump(head);
            fx.enter(head);
            test(self, fx)?;
        }
        fx.enter(body_b);
        self.masked_stmt(fx, body)?;
        fx.jump(latch);
        fx.enter(latch);
        // Lanes that ended the iteration by `continue` are back for the step.
        let a = fx.b.use_var(la);
        fx.b.def_var(ia, a);
        if let Some(st) = step {
            self.expr(fx, st)?;
        }
        if post_test {
            test(self, fx)?;
        } else {
            fx.jump(head);
        }
        fx.enter(end);
        Ok(())
    }

    /// A loop body runs again after its own writes.
    /// A `for` loop `s` after its initialiser.
    fn for_loop(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        let StmtKind::For(init, c, step, body) = &s.kind else {
            return Err("internal: not a for loop".into());
        };
        let (head, body_b, step_b, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        self.loop_entry(s);
        fx.enter(head);
        match c {
            Some(c) => fx.cond_branch(c, body_b, end)?,
            None => fx.jump(body_b),
        }
        fx.enter(body_b);
        let counted = fx.counted_loop(init.as_deref(), c.as_ref(), step.as_ref(), body);
        fx.with_counted(counted, |fx| {
            self.in_loop(fx, end, step_b, |lc, fx| lc.stmt(fx, body))
        })?;
        fx.enter(step_b);
        if let Some(st) = step {
            self.expr(fx, st)?;
        }
        fx.jump(head);
        fx.enter(end);
        Ok(())
    }

    /// Checked `bounds`, before a loop: whether the index of each array
    /// subscript of its body that the loop does not change
    /// (`walk::invariant_subscripts`) lies inside its array in all four
    /// lanes, tested here once and silently (the loop's checked copy
    /// reports what it touches), with those index expressions. `None` when
    /// there is no such subscript.
    fn invariant_inside(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Result<Option<(Value, Vec<*const Expr>)>, String> {
        let subs = fx.invariant_subscripts(cond, step, body);
        if subs.is_empty() {
            return Ok(None);
        }
        let mut all = fx.b.ins().iconst(types::I8, 1);
        for (idx, n) in &subs {
            let v = self.expr(fx, idx)?;
            let signed = idx.ty.elem().is_none_or(|s| s.is_signed());
            for k in 0..LANES {
                let x = Self::lane(fx, &v, k).scalar()?;
                let t = fx.b.func.dfg.value_type(x);
                let x = fx.int_resize(x, t, types::I64, signed);
                let ok = fx.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, x, *n as i64);
                all = fx.b.ins().band(all, ok);
            }
        }
        Ok(Some((
            all,
            subs.iter().map(|(i, _)| *i as *const Expr).collect(),
        )))
    }

    fn loop_entry(&mut self, s: &Stmt) {
        if stmt_writes(s, &self.plan.shared) {
            self.pure = false;
        }
    }

    fn in_loop(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        brk: Block,
        cont: Block,
        f: impl FnOnce(&mut Self, &mut FunctionCx<'_, '_>) -> Result<(), String>,
    ) -> Result<(), String> {
        fx.breaks.push(brk);
        fx.continues.push(cont);
        let r = f(self, fx);
        fx.breaks.pop();
        fx.continues.pop();
        r
    }

    fn decl(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        init: Option<&Init>,
    ) -> Result<(), String> {
        let ty = Self::local_ty(fx, l);
        let Some(init) = init else { return Ok(()) };
        let Init::Expr(e) = init else {
            return Err(FALLBACK.into());
        };
        let v = self.expr(fx, e)?;
        let v = self.convert(fx, v, &e.ty, &ty)?;
        // A vector of a packable type is packed once, here.
        let v = match (packed_components(&ty), &v) {
            (Some((vt, n)), LVal::Lanes(_)) => match Self::pack_n(fx, &v, vt, n) {
                Some(c) => LVal::VecN(c),
                None => v,
            },
            _ => v,
        };
        if self.plan.single[l as usize] && !self.vars.contains_key(&l) {
            self.copies.remove(&l);
            self.bound.insert(l, v);
            return Ok(());
        }
        self.write_local(fx, l, &ty, &v)
    }

    fn write_local(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        ty: &Type,
        v: &LVal,
    ) -> Result<(), String> {
        let blended;
        let v = match self.cur_mask(fx) {
            Some(m) => {
                let e = Expr::rvalue(
                    ExprKind::Var(VarRef::Local(crate::sema::hir::LocalId(l))),
                    ty.clone(),
                    fx.func.locals[l as usize].span,
                );
                let old = self.read(fx, &e)?;
                blended = Self::blend(fx, m, v, &old)?;
                &blended
            }
            None => v,
        };
        match self.slot(fx, l)? {
            Slot::Packed(var) => {
                let vt = packed_type(ty).ok_or(FALLBACK)?;
                let x = Self::pack(fx, v, vt).ok_or(FALLBACK)?;
                fx.b.def_var(var, x);
            }
            Slot::PackedN(vars) => {
                let (vt, n) = packed_components(ty).ok_or(FALLBACK)?;
                let xs = Self::pack_n(fx, v, vt, n).ok_or(FALLBACK)?;
                for (var, x) in vars.iter().zip(xs) {
                    fx.b.def_var(*var, x);
                }
            }
            Slot::Lanes(places) => {
                for (k, p) in places.iter().enumerate() {
                    let x = Self::lane(fx, v, k);
                    fx.write_place(p, ty, &x)?;
                }
            }
        }
        Ok(())
    }

    /// `if (c)`: a uniform `c` is an ordinary branch; a varying one runs an
    /// arm for the whole step when the lanes agree.
    fn if_stmt(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
        c: &Expr,
        t: &Stmt,
        e: Option<&Stmt>,
    ) -> Result<(), String> {
        let (then_b, else_b, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        if !self.plan.varies(c) {
            fx.cond_branch(c, then_b, else_b)?;
        } else {
            let v = self.expr(fx, c)?;
            let mut all = None;
            let mut any = None;
            for k in 0..LANES {
                let x = Self::lane(fx, &v, k);
                let t = fx.truth(&x, &c.ty)?;
                all = Some(all.map_or(t, |a| fx.b.ins().band(a, t)));
                any = Some(any.map_or(t, |a| fx.b.ins().bor(a, t)));
            }
            let (all, any) = (all.ok_or(FALLBACK)?, any.ok_or(FALLBACK)?);
            let (mixed, not_all) = (fx.b.create_block(), fx.b.create_block());
            fx.b.ins().brif(all, then_b, &[], not_all, &[]);
            fx.terminated();
            fx.enter(not_all);
            fx.b.ins().brif(any, mixed, &[], else_b, &[]);
            fx.terminated();
            fx.enter(mixed);
            if self.pure {
                Self::note(
                    fx,
                    s.span,
                    "when the 4 work-items of a step disagree here, they run one at a time",
                );
                // Nothing written yet: these four items start over one at a time.
                let x0 = self.ids[0];
                let end_x = fx.b.ins().iadd_imm_s(x0, LANES as i64);
                fx.b.ins().jump(self.chunk, &[x0.into(), end_x.into()]);
                fx.terminated();
            } else {
                self.serial_stmt(fx, s, "an if work-items disagree on, after a write")?;
                fx.jump(end);
            }
        }
        let was_pure = self.pure;
        fx.enter(then_b);
        self.stmt(fx, t)?;
        fx.jump(end);
        self.pure = was_pure;
        fx.enter(else_b);
        if let Some(e) = e {
            self.stmt(fx, e)?;
        }
        fx.enter(end);
        Ok(())
    }

    // -------------------------------------------------------- expressions

    fn convert(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        v: LVal,
        from: &Type,
        to: &Type,
    ) -> Result<LVal, String> {
        if from == to || is_aggregate(to) {
            return Ok(v);
        }
        if let (LVal::Vec(x), Type::Vector(_, n)) = (&v, to) {
            if packed_components(to).is_some() && from.elem() == to.elem() {
                // A scalar splatted to a vector: the same register per component.
                return Ok(LVal::VecN(vec![*x; *n as usize]));
            }
        }
        if let LVal::Vec(x) = v {
            match (from, to) {
                // The same bits.
                (
                    Type::Scalar(Scalar::Int | Scalar::UInt),
                    Type::Scalar(Scalar::Int | Scalar::UInt),
                ) => return Ok(LVal::Vec(x)),
                (Type::Scalar(Scalar::Int), Type::Scalar(Scalar::Float)) => {
                    return Ok(LVal::Vec(fx.b.ins().fcvt_from_sint(types::F32X4, x)))
                }
                _ => {}
            }
        }
        match v {
            LVal::Uni(c) => Ok(LVal::Uni(fx.convert(c, from, to)?)),
            LVal::Aff { base, step }
                if (from.is_integer() || from.is_pointer())
                    && (to.is_integer() || to.is_pointer())
                    && !matches!(to, Type::Scalar(Scalar::Bool)) =>
            {
                // Wrapping narrows keep the lanes' spacing; widening
                // assumes no lane crosses the overflow boundary (module doc).
                let base = fx.convert(CValue::Scalar(base), from, to)?.scalar()?;
                Ok(LVal::Aff { base, step })
            }
            v => {
                let mut out = Vec::with_capacity(LANES);
                for k in 0..LANES {
                    let x = Self::lane(fx, &v, k);
                    out.push(fx.convert(x, from, to)?);
                }
                Ok(LVal::Lanes(out))
            }
        }
    }

    fn expr(&mut self, fx: &mut FunctionCx<'_, '_>, e: &Expr) -> Result<LVal, String> {
        // Checked mode names the expression being compiled.
        let outer = std::mem::replace(&mut fx.cur_span, e.span);
        let r = self.expr_here(fx, e);
        fx.cur_span = outer;
        r
    }

    fn expr_here(&mut self, fx: &mut FunctionCx<'_, '_>, e: &Expr) -> Result<LVal, String> {
        if !self.plan.varies(e) && !needs_serial(e) {
            return Ok(LVal::Uni(fx.expr(e)?));
        }
        if needs_serial(e) {
            return self.serial_expr(fx, e);
        }
        match &e.kind {
            ExprKind::Cast(CastKind::LvalueToRvalue, a) => self.read(fx, a),
            ExprKind::Cast(
                CastKind::NoOp | CastKind::Bitcast | CastKind::ToGeneric | CastKind::FromGeneric,
                a,
            ) => self.expr(fx, a),
            ExprKind::Cast(
                CastKind::IntToInt
                | CastKind::IntToFloat
                | CastKind::FloatToInt
                | CastKind::FloatToFloat
                | CastKind::VectorSplat
                | CastKind::PointerToInt
                | CastKind::IntToPointer,
                a,
            ) => {
                let v = self.expr(fx, a)?;
                self.convert(fx, v, &a.ty, &e.ty)
            }
            ExprKind::Builtin(f, args) if f.family == Family::WorkItem => {
                self.workitem(fx, f, args, e)
            }
            ExprKind::Builtin(f, args) => self.builtin(fx, f, args),
            ExprKind::Unary(op, a) => {
                let v = self.expr(fx, a)?;
                if let (UnOp::Neg, LVal::Aff { base, step }) = (op, &v) {
                    if a.ty.is_integer() {
                        let base = fx.b.ins().ineg(*base);
                        return Ok(LVal::Aff {
                            base,
                            step: step.wrapping_neg(),
                        });
                    }
                }
                let mut out = Vec::with_capacity(LANES);
                for k in 0..LANES {
                    let x = Self::lane(fx, &v, k);
                    out.push(fx.unary(*op, x, &a.ty, &e.ty)?);
                }
                Ok(LVal::Lanes(out))
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b)
                if !e.ty.is_vector()
                    && speculable(b)
                    && matches!(e.ty, Type::Scalar(Scalar::Int)) =>
            {
                // Both sides for every lane (the right one cannot fault or
                // write), combined as masks: int 0/1 per lane.
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                let ma = Self::truth_mask(fx, &va, &a.ty)?;
                let mb = Self::truth_mask(fx, &vb, &b.ty)?;
                let m = if *op == BinOp::LogAnd {
                    fx.b.ins().band(ma, mb)
                } else {
                    fx.b.ins().bor(ma, mb)
                };
                let one = fx.b.ins().iconst(types::I32, 1);
                let one = fx.b.ins().splat(types::I32X4, one);
                Ok(LVal::Vec(fx.b.ins().band(m, one)))
            }
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, _) if !e.ty.is_vector() => {
                self.serial_expr(fx, e)
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                let ty = if b.ty.is_vector() && !a.ty.is_vector() {
                    &b.ty
                } else {
                    &a.ty
                };
                Self::binop(fx, *op, &va, &vb, ty, &b.ty, &e.ty)
            }
            ExprKind::PtrAdd(a, b) => {
                let (p, i) = if a.ty.is_pointer() { (a, b) } else { (b, a) };
                let pv = self.expr(fx, p)?;
                let iv = self.expr(fx, i)?;
                let (iv, inside) = self.checked_subscript(fx, p, iv, i)?;
                let size = fx.pointee_size(&p.ty);
                let r = self.ptr_add(fx, pv, iv, &i.ty, size)?;
                if inside && super::check::subscripted_array(p).is_some() {
                    // An element of an array variable, every lane's index
                    // checked (or known inside).
                    match &r {
                        LVal::Uni(CValue::Scalar(a)) => {
                            fx.in_object.insert(*a, size);
                        }
                        LVal::Aff { base, step } if *step == size as i64 => {
                            fx.in_object_lanes.insert(*base);
                        }
                        LVal::Lanes(v) => {
                            for x in v {
                                if let CValue::Scalar(a) = x {
                                    fx.in_object.insert(*a, size);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Ok(r)
            }
            ExprKind::Assign {
                op,
                op_ty,
                lhs,
                rhs,
            } => self.assign(fx, *op, op_ty, lhs, rhs, e),
            ExprKind::Cond(c, a, b) if !c.ty.is_vector() && speculable(a) && speculable(b) => {
                let vc = self.expr(fx, c)?;
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                let mut out = Vec::with_capacity(LANES);
                for k in 0..LANES {
                    let x = Self::lane(fx, &vc, k);
                    let t = fx.truth(&x, &c.ty)?;
                    let (x, y) = (Self::lane(fx, &va, k), Self::lane(fx, &vb, k));
                    match Self::select_lane(fx, t, x, y) {
                        Some(v) => out.push(v),
                        None => return self.serial_expr(fx, e),
                    }
                }
                Ok(LVal::Lanes(out))
            }
            ExprKind::Comma(a, b) => {
                self.expr(fx, a)?;
                self.expr(fx, b)
            }
            ExprKind::Swizzle(base, lanes) if !base.is_lvalue() => {
                let v = self.expr(fx, base)?;
                match Self::swizzle(&v, lanes, &e.ty) {
                    Some(v) => Ok(v),
                    None => self.serial_expr(fx, e),
                }
            }
            ExprKind::VectorLit(parts) if packed_components(&e.ty).is_some() => {
                let (vt, n) = packed_components(&e.ty).ok_or(FALLBACK)?;
                let mut comps = Vec::with_capacity(n);
                for part in parts {
                    let v = self.expr(fx, part)?;
                    match (&part.ty, v) {
                        (Type::Vector(_, m), v) => match Self::pack_n(fx, &v, vt, *m as usize) {
                            Some(c) => comps.extend(c),
                            None => return self.serial_expr(fx, e),
                        },
                        (_, v) => match Self::pack(fx, &v, vt) {
                            Some(c) => comps.push(c),
                            None => return self.serial_expr(fx, e),
                        },
                    }
                }
                if comps.len() == 1 && n > 1 {
                    comps = vec![comps[0]; n];
                }
                if comps.len() != n {
                    return self.serial_expr(fx, e);
                }
                Ok(LVal::VecN(comps))
            }
            ExprKind::IncDec {
                inc,
                prefix,
                operand,
            } => self.inc_dec(fx, *inc, *prefix, operand, e),
            ExprKind::AddrOf(a) if matches!(a.kind, ExprKind::Deref(_)) => {
                let ExprKind::Deref(p) = &a.kind else {
                    unreachable!()
                };
                self.expr(fx, p)
            }
            _ => self.serial_expr(fx, e),
        }
    }

    /// `a op b` on affine and uniform integers, when it stays affine.
    fn affine(
        fx: &mut FunctionCx<'_, '_>,
        op: BinOp,
        a: &LVal,
        b: &LVal,
        ty: &Type,
        rhs_ty: &Type,
        res_ty: &Type,
    ) -> Option<LVal> {
        if !ty.is_integer()
            || ty.is_vector()
            || res_ty != ty
            || rhs_ty != ty
            || matches!(ty, Type::Scalar(Scalar::Bool))
        {
            return None;
        }
        let uni = |v: &LVal| match v {
            LVal::Uni(CValue::Scalar(x)) => Some(*x),
            _ => None,
        };
        match (op, a, b) {
            (BinOp::Add, LVal::Aff { base, step }, o)
            | (BinOp::Add, o, LVal::Aff { base, step }) => match o {
                LVal::Aff { base: b2, step: s2 } => Some(LVal::Aff {
                    base: fx.b.ins().iadd(*base, *b2),
                    step: step.wrapping_add(*s2),
                }),
                o => uni(o).map(|u| LVal::Aff {
                    base: fx.b.ins().iadd(*base, u),
                    step: *step,
                }),
            },
            (BinOp::Sub, LVal::Aff { base, step }, o) => match o {
                LVal::Aff { base: b2, step: s2 } => Some(LVal::Aff {
                    base: fx.b.ins().isub(*base, *b2),
                    step: step.wrapping_sub(*s2),
                }),
                o => uni(o).map(|u| LVal::Aff {
                    base: fx.b.ins().isub(*base, u),
                    step: *step,
                }),
            },
            (BinOp::Sub, o, LVal::Aff { base, step }) => uni(o).map(|u| LVal::Aff {
                base: fx.b.ins().isub(u, *base),
                step: step.wrapping_neg(),
            }),
            (BinOp::Mul, LVal::Aff { base, step }, o)
            | (BinOp::Mul, o, LVal::Aff { base, step }) => {
                let c = fx.const_of(uni(o)?)?;
                Some(LVal::Aff {
                    base: fx.b.ins().imul_imm_s(*base, c),
                    step: step.wrapping_mul(c),
                })
            }
            _ => None,
        }
    }

    /// Checked `bounds`: the index `iv` of a subscript of an array object
    /// (`p` is the array turned pointer) checked against its length, as the
    /// ordinary code generator does (`expr.rs`, `checked_subscript`): once
    /// for a uniform index, at the first and last lane for an affine one
    /// (a last lane outside moves the lanes to start at element 0), per lane
    /// otherwise. Also whether every lane's element then lies in the array
    /// (false where no subscript of an array is checked).
    fn checked_subscript(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        p: &Expr,
        iv: LVal,
        i: &Expr,
    ) -> Result<(LVal, bool), String> {
        let ity = &i.ty;
        let ExprKind::Cast(CastKind::ArrayToPointer, arr) = &p.kind else {
            return Ok((iv, false));
        };
        let (true, crate::sema::types::Type::Array(_, Some(n))) = (fx.pcx.check.bounds, &arr.ty)
        else {
            return Ok((iv, false));
        };
        let n = *n;
        if fx.index_known_inside(i, n) {
            return Ok((iv, true));
        }
        let signed = ity.elem().is_none_or(|s| s.is_signed());
        let wide = |fx: &mut FunctionCx<'_, '_>, v: Value| {
            let t = fx.b.func.dfg.value_type(v);
            fx.int_resize(v, t, types::I64, signed)
        };
        let outer = std::mem::replace(&mut fx.cur_span, arr.span);
        let r = match iv {
            LVal::Uni(CValue::Scalar(x)) => {
                let x = wide(fx, x);
                // A uniform index: lane 0's work-item names it.
                let saved = at_lane(fx, 0);
                let c = fx.checked_index(x, n);
                fx.check_me = saved;
                Ok((LVal::Uni(CValue::Scalar(c)), true))
            }
            LVal::Aff { base, step } => {
                let first = wide(fx, base);
                let last = fx.b.ins().iadd_imm_s(first, step * (LANES as i64 - 1));
                let saved = at_lane(fx, LANES - 1);
                let last_checked = fx.checked_index(last, n);
                fx.check_me = saved;
                let saved = at_lane(fx, 0);
                let first_checked = fx.checked_index(first, n);
                fx.check_me = saved;
                let kept = fx.b.ins().icmp(IntCC::Equal, last_checked, last);
                let zero = fx.b.ins().iconst(types::I64, 0);
                let base = fx.b.ins().select(kept, first_checked, zero);
                let span = step.checked_mul(LANES as i64 - 1);
                let inside = step > 0 && span.is_some_and(|s| (s as u64) < n);
                Ok((LVal::Aff { base, step }, inside))
            }
            iv => {
                let mut out = Vec::with_capacity(LANES);
                for k in 0..LANES {
                    let x = Self::lane(fx, &iv, k).scalar()?;
                    let x = wide(fx, x);
                    let saved = at_lane(fx, k);
                    out.push(CValue::Scalar(fx.checked_index(x, n)));
                    fx.check_me = saved;
                }
                Ok((LVal::Lanes(out), true))
            }
        };
        fx.cur_span = outer;
        r
    }

    fn ptr_add(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        p: LVal,
        i: LVal,
        ity: &Type,
        size: u64,
    ) -> Result<LVal, String> {
        let widen = |fx: &mut FunctionCx<'_, '_>, v: Value| -> Value {
            let t = fx.b.func.dfg.value_type(v);
            let signed = ity.elem().is_none_or(|s| s.is_signed());
            let w = fx.int_resize(v, t, types::I64, signed);
            if size == 1 {
                w
            } else {
                fx.b.ins().imul_imm_s(w, size as i64)
            }
        };
        let affine_part = |v: &LVal| match v {
            LVal::Uni(CValue::Scalar(x)) => Some((*x, 0i64)),
            LVal::Aff { base, step } => Some((*base, *step)),
            _ => None,
        };
        if let (Some((pb, ps)), Some((ib, is))) = (affine_part(&p), affine_part(&i)) {
            let off = widen(fx, ib);
            let base = fx.b.ins().iadd(pb, off);
            let step = ps.wrapping_add(is.wrapping_mul(size as i64));
            return Ok(if step == 0 {
                LVal::Uni(CValue::Scalar(base))
            } else {
                LVal::Aff { base, step }
            });
        }
        let mut out = Vec::with_capacity(LANES);
        for k in 0..LANES {
            let pk = Self::lane(fx, &p, k).scalar()?;
            let ik = Self::lane(fx, &i, k).scalar()?;
            let off = widen(fx, ik);
            out.push(CValue::Scalar(fx.b.ins().iadd(pk, off)));
        }
        Ok(LVal::Lanes(out))
    }

    fn workitem(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        args: &[Expr],
        e: &Expr,
    ) -> Result<LVal, String> {
        let dim0 = args.first().map(const_dim) == Some(Some(0));
        match f.name.as_str() {
            "get_global_id" if dim0 => {
                let base = fx.b.ins().iadd(self.bases[0], self.ids[0]);
                Ok(LVal::Aff { base, step: 1 })
            }
            "get_local_id" if dim0 => Ok(LVal::Aff {
                base: self.ids[0],
                step: 1,
            }),
            "get_global_linear_id" | "get_local_linear_id" => {
                // Lane 0's answer from the ordinary code, then +1 per lane.
                let old = fx.inline_ids.replace((self.ids, self.bases));
                let v = fx.expr(e);
                fx.inline_ids = old;
                Ok(LVal::Aff {
                    base: v?.scalar()?,
                    step: 1,
                })
            }
            _ => self.serial_expr(fx, e),
        }
    }

    fn builtin(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        args: &[Expr],
    ) -> Result<LVal, String> {
        if self.masked()
            && (per_item_builtin(f)
                || image_access(f)
                || f.params.iter().any(|p| p.is_pointer())
                || matches!(f.family, Family::VectorLoadStore | Family::AddressSpace))
        {
            return Err(NOT_MASKABLE.into());
        }
        let mut vals = Vec::with_capacity(args.len());
        let mut tys = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.expr(fx, a)?;
            match f.params.get(i) {
                Some(p) if !is_aggregate(p) && !p.is_error() && p.is_arithmetic() => {
                    vals.push(self.convert(fx, v, &a.ty, p)?);
                    tys.push(p.clone());
                }
                _ => {
                    vals.push(v);
                    tys.push(a.ty.clone());
                }
            }
        }
        if image_access(f) {
            if let Some(r) = crate::builtins::image::emit_lanes(fx, f, &vals, &tys) {
                return r;
            }
        }
        if let Some(v) = Self::packed_builtin(fx, f, &vals, &tys) {
            return Ok(LVal::Vec(v));
        }
        if let ([LVal::Vec(x)], Some(Type::Scalar(Scalar::Float))) = (&vals[..], tys.first()) {
            // The library's own formulas, four lanes at once.
            let packed = match f.name.as_str() {
                "sqrt" => Some(fx.b.ins().sqrt(*x)),
                "rsqrt" => {
                    let r = fx.b.ins().sqrt(*x);
                    let one = fx.b.ins().f32const(1.0);
                    let one = fx.b.ins().splat(types::F32X4, one);
                    Some(fx.b.ins().fdiv(one, r))
                }
                "fabs" => Some(fx.b.ins().fabs(*x)),
                "exp" | "native_exp" | "half_exp" => {
                    Some(crate::builtins::packed::exp_f32x4(fx, *x))
                }
                _ => None,
            };
            if let (Some(v), Type::Scalar(Scalar::Float)) = (packed, &f.ret) {
                return Ok(LVal::Vec(v));
            }
        }
        let mut out = vec![CValue::Void; LANES];
        for k in fx.lane_order() {
            let lane: Vec<CValue> = vals.iter().map(|v| Self::lane(fx, v, k)).collect();
            let saved = at_lane(fx, k);
            let r = crate::builtins::emit_builtin(fx, f, &lane, &tys);
            fx.check_me = saved;
            out[k] = r?;
        }
        Ok(LVal::Lanes(out))
    }

    /// Components `lanes` of packed vector `v` (the fourth of a 3-vector
    /// reads as the first, as in the ordinary code generator).
    fn swizzle(v: &LVal, lanes: &[u8], ty: &Type) -> Option<LVal> {
        let LVal::VecN(c) = v else { return None };
        let picked: Vec<Value> = lanes
            .iter()
            .map(|&l| c.get(l as usize).or(c.first()).copied())
            .collect::<Option<_>>()?;
        Some(if ty.is_vector() {
            LVal::VecN(picked)
        } else {
            LVal::Vec(*picked.first()?)
        })
    }

    /// `x++`, `--x`, ... on a varying local or memory.
    fn inc_dec(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        inc: bool,
        prefix: bool,
        operand: &Expr,
        e: &Expr,
    ) -> Result<LVal, String> {
        let ty = operand.ty.clone();
        let arithmetic = ty.is_scalar() && !matches!(ty, Type::Scalar(Scalar::Bool | Scalar::Half));
        if !(arithmetic || ty.is_pointer()) {
            return self.serial_expr(fx, e);
        }
        let target = match &operand.kind {
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => None,
            ExprKind::Deref(p) => Some(self.expr(fx, p)?),
            _ => return self.serial_expr(fx, e),
        };
        let old = match &target {
            None => self.read(fx, operand)?,
            Some(a) => fx.read_for_write(|fx| self.load(fx, a, &ty))?,
        };
        let new = if ty.is_pointer() {
            let long = Type::Scalar(Scalar::Long);
            let one = fx.const_int(if inc { 1 } else { -1 }, &long)?;
            let size = fx.pointee_size(&ty);
            self.ptr_add(fx, old.clone(), LVal::Uni(one), &long, size)?
        } else {
            let one = LVal::Uni(fx.const_int(1, &ty)?);
            let op = if inc { BinOp::Add } else { BinOp::Sub };
            Self::binop(fx, op, &old, &one, &ty, &ty, &ty)?
        };
        match target {
            None => {
                let ExprKind::Var(VarRef::Local(l)) = &operand.kind else {
                    return Err(FALLBACK.into());
                };
                self.bound.remove(&l.0);
                self.write_local(fx, l.0, &ty, &new)?;
            }
            Some(addr) => self.store_lval(fx, addr, &ty, &new, None)?,
        }
        Ok(if prefix { new } else { old })
    }

    /// Store `new` (of type `ty`) at each lane's address.
    fn store_lval(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: LVal,
        ty: &Type,
        new: &LVal,
        kept: Option<Value>,
    ) -> Result<(), String> {
        if let (LVal::Aff { base, step: 4 }, Some(vt)) = (&addr, packed_type(ty)) {
            if matches!(new, LVal::Vec(_) | LVal::Uni(_)) {
                let v = Self::pack(fx, new, vt).ok_or(FALLBACK)?;
                let Some(all) = self.all_active(fx) else {
                    let base = fx.checked_addr_lanes(*base, true, Some(v));
                    fx.b.ins().store(super::value::flags(), v, base, 0);
                    return Ok(());
                };
                // Masked: one vector store when every lane takes part.
                let (part, join) = Self::whole_or_part(fx, all);
                let b = fx.checked_addr_lanes(*base, true, Some(v));
                fx.b.ins().store(super::value::flags(), v, b, 0);
                fx.b.ins().jump(join, &[]);
                fx.b.seal_block(part);
                fx.b.switch_to_block(part);
                self.store_lanes(fx, &addr, ty, new, None)?;
                fx.b.ins().jump(join, &[]);
                fx.b.seal_block(join);
                fx.b.switch_to_block(join);
                return Ok(());
            }
        }
        self.store_lanes(fx, &addr, ty, new, kept)
    }

    /// Store `new` at each lane's address, lane by lane. `kept`: the
    /// verdict of the test of the same addresses by the read of a compound
    /// assignment (the write then tests nothing more when it held).
    fn store_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
        new: &LVal,
        kept: Option<Value>,
    ) -> Result<(), String> {
        let (addrs, prechecked) = self.lane_addrs(fx, addr, ty, Some(new), kept)?;
        for k in fx.lane_order() {
            let a = *addrs.get(k).ok_or(FALLBACK)?;
            let v = Self::lane(fx, new, k);
            let saved = at_lane(fx, k);
            fx.prechecked = prechecked;
            let r = fx.store(a, ty, &v);
            fx.prechecked = false;
            fx.check_me = saved;
            r?;
        }
        Ok(())
    }

    /// Inside a masked loop or arm: whether every lane is active now (an
    /// `i8`); `None` outside one.
    fn all_active(&self, fx: &mut FunctionCx<'_, '_>) -> Option<Value> {
        let m = self.cur_mask(fx)?;
        Some(fx.b.ins().vall_true(m))
    }

    /// Branch on `all` to a new block (made current) for the whole step,
    /// or to the returned `part` block; both end at the returned `join`.
    fn whole_or_part(
        fx: &mut FunctionCx<'_, '_>,
        all: Value,
    ) -> (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block) {
        let whole = fx.b.create_block();
        let part = fx.b.create_block();
        let join = fx.b.create_block();
        fx.b.ins().brif(all, whole, &[], part, &[]);
        fx.b.seal_block(whole);
        fx.b.switch_to_block(whole);
        (part, join)
    }

    /// `mad`, `min`, `max`, `fmin`, `fmax` and `clamp` of scalar
    /// `float`/`int`/`uint` arguments, one of them packed: the library's own
    /// formulas, four lanes at once (`None`: not one of those).
    fn packed_builtin(
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        vals: &[LVal],
        tys: &[Type],
    ) -> Option<Value> {
        let ty = tys.first()?;
        let vt = packed_type(ty)?;
        if f.ret != *ty
            || tys.iter().any(|t| t != ty)
            || !vals
                .iter()
                .any(|v| matches!(v, LVal::Vec(_) | LVal::Aff { .. }))
        {
            return None;
        }
        let float = vt == types::F32X4;
        let signed = ty.elem().is_some_and(|e| e.is_signed());
        let name = f.name.as_str();
        let known = match (name, vals.len()) {
            ("mad", 3) => float,
            ("fmin" | "fmax", 2) => float,
            ("min" | "max", 2) | ("clamp", 3) => true,
            _ => false,
        };
        if !known {
            return None;
        }
        let xs: Vec<Value> = vals
            .iter()
            .map(|v| Self::pack(fx, v, vt))
            .collect::<Option<_>>()?;
        // The library's own min/max, on packed values.
        let minmax = |fx: &mut FunctionCx<'_, '_>, x: Value, y: Value, max: bool| {
            if float {
                crate::builtins::math::fmin_fmax(fx, x, y, max)
            } else {
                crate::builtins::integer::minmax(fx, signed, x, y, max)
            }
        };
        Some(match name {
            "mad" => {
                let m = fx.b.ins().fmul(xs[0], xs[1]);
                fx.b.ins().fadd(m, xs[2])
            }
            "max" | "fmax" => minmax(fx, xs[0], xs[1], true),
            "min" | "fmin" => minmax(fx, xs[0], xs[1], false),
            _ => {
                let m = minmax(fx, xs[0], xs[1], true);
                minmax(fx, m, xs[2], false)
            }
        })
    }

    /// Read the lvalue `a`.
    fn read(&mut self, fx: &mut FunctionCx<'_, '_>, a: &Expr) -> Result<LVal, String> {
        match &a.kind {
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => {
                let l = l.0;
                if let Some(v) = self.bound.get(&l) {
                    return Ok(v.clone());
                }
                let ty = Self::local_ty(fx, l);
                match self.slot(fx, l)? {
                    Slot::Packed(var) => Ok(LVal::Vec(fx.b.use_var(var))),
                    Slot::PackedN(vars) => {
                        Ok(LVal::VecN(vars.iter().map(|v| fx.b.use_var(*v)).collect()))
                    }
                    Slot::Lanes(places) => {
                        let mut out = Vec::with_capacity(LANES);
                        for p in &places {
                            out.push(fx.read_place(p, &ty)?);
                        }
                        Ok(LVal::Lanes(out))
                    }
                }
            }
            ExprKind::Deref(p) => {
                let pv = self.expr(fx, p)?;
                self.load(fx, &pv, &a.ty)
            }
            ExprKind::Swizzle(base, lanes) if self.plan.varies(base) && base.is_lvalue() => {
                let v = self.read(fx, base)?;
                match Self::swizzle(&v, lanes, &a.ty) {
                    Some(v) => Ok(v),
                    None => {
                        let uses = self.uses_expr(a);
                        if self.masked() && !register_only(a) {
                            return Err(NOT_MASKABLE.into());
                        }
                        Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| {
                            let p = fx.place(a)?;
                            fx.read_place(&p, &a.ty)
                        })?))
                    }
                }
            }
            _ => {
                let uses = self.uses_expr(a);
                Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| {
                    let p = fx.place(a)?;
                    fx.read_place(&p, &a.ty)
                })?))
            }
        }
    }

    fn load(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<LVal, String> {
        if let LVal::Uni(a) = addr {
            return Ok(LVal::Uni(fx.load(a.scalar()?, ty)?));
        }
        if let (LVal::Aff { base, step: 4 }, Some(vt)) = (addr, packed_type(ty)) {
            // Four consecutive elements: one unaligned vector load.
            let Some(all) = self.all_active(fx) else {
                let base = fx.checked_addr_lanes(*base, false, None);
                let v = fx.b.ins().load(vt, super::value::flags(), base, 0);
                return Ok(LVal::Vec(v));
            };
            // Masked: the vector load when every lane takes part, else
            // lane by lane (a masked-off lane may not read its address).
            let (part, join) = Self::whole_or_part(fx, all);
            fx.b.append_block_param(join, vt);
            let b = fx.checked_addr_lanes(*base, false, None);
            let v = fx.b.ins().load(vt, super::value::flags(), b, 0);
            fx.b.ins().jump(join, &[v.into()]);
            fx.b.seal_block(part);
            fx.b.switch_to_block(part);
            let lanes = self.load_lanes(fx, addr, ty)?;
            let v = Self::pack(fx, &lanes, vt).ok_or(FALLBACK)?;
            fx.b.ins().jump(join, &[v.into()]);
            fx.b.seal_block(join);
            fx.b.switch_to_block(join);
            return Ok(LVal::Vec(fx.b.block_params(join)[0]));
        }
        self.load_lanes(fx, addr, ty)
    }

    /// Load `ty` at each lane's address, lane by lane.
    fn load_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<LVal, String> {
        // A masked-off lane reads the dummy (its address may be past the
        // end of a buffer).
        let (addrs, prechecked) = self.lane_addrs(fx, addr, ty, None, None)?;
        let mut out = Vec::with_capacity(LANES);
        for (k, a) in addrs.into_iter().enumerate() {
            let saved = at_lane(fx, k);
            fx.prechecked = prechecked;
            let r = fx.load(a, ty);
            fx.prechecked = false;
            fx.check_me = saved;
            out.push(r?);
        }
        Ok(LVal::Lanes(out))
    }

    /// Each lane's address of an access of `ty` at `addr` (a masked-off
    /// lane's: the dummy), and whether they were checked at once already
    /// (`FunctionCx::checked_lanes`: scalar accesses under `bounds` alone),
    /// so that the accesses go with `prechecked`. `new`: what a store
    /// writes; `known_ok`: the verdict of an earlier test of the same
    /// addresses (`FunctionCx::checked_lanes`).
    fn lane_addrs(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
        new: Option<&LVal>,
        known_ok: Option<Value>,
    ) -> Result<(Vec<Value>, bool), String> {
        let (addrs, active) = if self.masked() {
            let addrs = self.masked_addrs(fx, addr, ty)?;
            let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
            let active: Vec<Value> = (0..LANES).map(|k| Self::mask_lane(fx, m, k)).collect();
            (addrs, Some(active))
        } else {
            let addrs = (0..LANES)
                .map(|k| Self::lane(fx, addr, k).scalar())
                .collect::<Result<Vec<_>, _>>()?;
            (addrs, None)
        };
        if !matches!(ty, Type::Scalar(_) | Type::Pointer(_)) || !fx.checks_memory() {
            return Ok((addrs, false));
        }
        let values = match new {
            Some(n) => Some(
                (0..LANES)
                    .map(|k| Self::lane(fx, n, k).scalar())
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            None => None,
        };
        let size = fx.size_of(ty);
        // Lanes at `base + k * step` lie in one object when the first and
        // the last do.
        let monotone = active.is_none()
            && match addr {
                LVal::Aff { step, .. } => step.unsigned_abs() < 1 << 32,
                LVal::Uni(_) => true,
                _ => false,
            };
        Ok(
            match fx.checked_lanes(
                &addrs,
                active.as_deref(),
                size,
                new.is_some(),
                values.as_deref(),
                monotone,
                known_ok,
            ) {
                Some((a, ok)) => {
                    if self.keep_lanes {
                        self.kept_ok = ok;
                    }
                    (a, true)
                }
                None => (addrs, false),
            },
        )
    }

    fn assign(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        op: Option<BinOp>,
        op_ty: &Type,
        lhs: &Expr,
        rhs: &Expr,
        e: &Expr,
    ) -> Result<LVal, String> {
        if is_aggregate(&lhs.ty) || lhs.ty.is_pointer() && op.is_some() {
            return self.serial_expr(fx, e);
        }
        // Where the value goes: a varying local, or memory.
        enum Target {
            Local(u32),
            Mem(LVal),
        }
        let target = match &lhs.kind {
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => {
                Target::Local(l.0)
            }
            ExprKind::Deref(p) => Target::Mem(self.expr(fx, p)?),
            _ => return self.serial_expr(fx, e),
        };
        let mut kept = None;
        let new = match op {
            None => {
                let v = self.expr(fx, rhs)?;
                self.convert(fx, v, &rhs.ty, &lhs.ty)?
            }
            Some(op) => {
                let old = match &target {
                    Target::Local(_) => self.read(fx, lhs)?,
                    Target::Mem(a) => {
                        // Not the packed access's: its lanes' part is a
                        // branch of its own (and has its own reuse).
                        self.keep_lanes = !matches!(
                            (a, packed_type(&lhs.ty)),
                            (LVal::Aff { step: 4, .. }, Some(_))
                        );
                        let r = fx.read_for_write(|fx| self.load(fx, a, &lhs.ty));
                        self.keep_lanes = false;
                        kept = self.kept_ok.take();
                        r?
                    }
                };
                let a = self.convert(fx, old, &lhs.ty, op_ty)?;
                let b = self.expr(fx, rhs)?;
                let shift = matches!(op, BinOp::Shl | BinOp::Shr);
                if shift && op_ty.is_vector() && !rhs.ty.is_vector() {
                    return self.serial_expr(fx, e);
                }
                let (b, bty) = if shift {
                    (b, rhs.ty.clone())
                } else {
                    (self.convert(fx, b, &rhs.ty, op_ty)?, op_ty.clone())
                };
                let r = Self::binop(fx, op, &a, &b, op_ty, &bty, op_ty)?;
                self.convert(fx, r, op_ty, &lhs.ty)?
            }
        };
        match target {
            Target::Local(l) => {
                self.bound.remove(&l);
                self.write_local(fx, l, &lhs.ty, &new)?
            }
            Target::Mem(addr) => self.store_lval(fx, addr, &lhs.ty, &new, kept)?,
        }
        Ok(new)
    }
}

/// Locals declared anywhere in `s`.
fn collect_decls(s: &Stmt, out: &mut Vec<u32>) {
    match &s.kind {
        StmtKind::Decl(l, _) => out.push(l.0),
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| collect_decls(s, out)),
        StmtKind::If(_, t, e) => {
            collect_decls(t, out);
            if let Some(e) = e {
                collect_decls(e, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch(_, b) => {
            collect_decls(b, out)
        }
        StmtKind::For(i, _, _, b) => {
            if let Some(i) = i {
                collect_decls(i, out);
            }
            collect_decls(b, out);
        }
        StmtKind::Case(_, s) | StmtKind::Default(s) | StmtKind::Label(_, s) => {
            collect_decls(s, out)
        }
        _ => {}
    }
}

impl FunctionCx<'_, '_> {
    /// The header of a loop over dimension `d` (counter `id`, a parameter
    /// of `header`): on to `next` (its counter from 0) while `id < size`,
    /// else to `out`; the id is stored for callees when they need it.
    fn row_header(
        &mut self,
        header: Block,
        id: Value,
        size: Value,
        out: Block,
        d: i32,
        next: Block,
    ) {
        self.enter(header);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, id, size);
        let body = self.b.create_block();
        self.b.ins().brif(more, body, &[], out, &[]);
        self.terminated();
        self.enter(body);
        if self.store_item_ids {
            let item = self.item;
            self.b
                .ins()
                .store(super::value::flags(), id, item, o::ITEM_LOCAL_ID + 8 * d);
        }
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(next, &[zero.into()]);
        self.terminated();
    }

    /// `(z * ly + y) * lx + x`.
    fn linear_index(&mut self, geo: &Geometry, ids: [Value; 3]) -> Value {
        let zy = self.b.ins().imul(ids[2], geo.sizes[1]);
        let zy = self.b.ins().iadd(zy, ids[1]);
        let row = self.b.ins().imul(zy, geo.sizes[0]);
        self.b.ins().iadd(row, ids[0])
    }

    /// The group's work-items: each row (z, y) four at a time while four
    /// remain, then one at a time; a step whose lanes disagree before
    /// anything is written also runs one at a time (`chunk`).
    pub(crate) fn lanes_item_loop(
        &mut self,
        geo: Geometry,
        plan: Plan,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.pcx.schedule.is_some() {
            return self.scheduled_lanes_loop(geo, plan, lanes_body, item_body);
        }
        self.lanes_item_loop_to(geo, None, plan, lanes_body, item_body)
    }

    /// `lanes_item_loop` over the items whose local id x is below `x_end`
    /// in each row (`None`: the whole row; at most the row's size), in
    /// order (not for schedule fuzzing).
    pub(crate) fn lanes_item_loop_to(
        &mut self,
        geo: Geometry,
        x_end: Option<Value>,
        plan: Plan,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        let row_end = x_end.unwrap_or(geo.sizes[0]);
        let i64t = types::I64;
        let exit = self.b.create_block();
        let hz = self.b.create_block();
        let hy = self.b.create_block();
        let hv = self.b.create_block();
        let vbody = self.b.create_block();
        let hs = self.b.create_block();
        let sbody = self.b.create_block();
        let snext = self.b.create_block();
        let latch_y = self.b.create_block();
        let latch_z = self.b.create_block();
        let z = self.b.append_block_param(hz, i64t);
        let y = self.b.append_block_param(hy, i64t);
        let xv = self.b.append_block_param(hv, i64t);
        let xs = self.b.append_block_param(hs, i64t);
        let end = self.b.append_block_param(hs, i64t);
        let zero = self.b.ins().iconst(i64t, 0);
        self.b.ins().jump(hz, &[zero.into()]);
        self.terminated();
        // z rows, then y rows
        self.row_header(hz, z, geo.sizes[2], exit, 2, hy);
        self.row_header(hy, y, geo.sizes[1], latch_z, 1, hv);
        // four at a time: x + 4 <= size
        self.enter(hv);
        let x4 = self.b.ins().iadd_imm_s(xv, LANES as i64);
        let fits = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, x4, row_end);
        self.b
            .ins()
            .brif(fits, vbody, &[], hs, &[xv.into(), row_end.into()]);
        self.terminated();
        self.enter(vbody);
        self.lanes_step(geo, plan, [xv, y, z], hs, lanes_body)?;
        let x4 = self.b.ins().iadd_imm_s(xv, LANES as i64);
        self.b.ins().jump(hv, &[x4.into()]);
        self.terminated();
        // one at a time over [xs, end)
        self.enter(hs);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, end);
        let done = self.b.create_block();
        self.b.ins().brif(more, sbody, &[], done, &[]);
        self.terminated();
        self.enter(done);
        let row_left = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, row_end);
        self.b.ins().brif(row_left, hv, &[xs.into()], latch_y, &[]);
        self.terminated();
        self.enter(sbody);
        self.lanes_single(geo, [xs, y, z], snext, item_body)?;
        let x1 = self.b.ins().iadd_imm_s(xs, 1);
        self.b.ins().jump(hs, &[x1.into(), end.into()]);
        self.terminated();
        // latches
        self.enter(latch_y);
        let y1 = self.b.ins().iadd_imm_s(y, 1);
        self.b.ins().jump(hy, &[y1.into()]);
        self.terminated();
        self.enter(latch_z);
        let z1 = self.b.ins().iadd_imm_s(z, 1);
        self.b.ins().jump(hz, &[z1.into()]);
        self.terminated();
        self.enter(exit);
        Ok(())
    }

    /// One step of four work-items from `ids` (x a multiple of four, four
    /// left in the row); `chunk` runs them one at a time instead. Ends in
    /// the block after the step.
    pub(crate) fn lanes_step(
        &mut self,
        geo: Geometry,
        plan: Plan,
        ids: [Value; 3],
        chunk: Block,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        let next_step = self.b.create_block();
        let dummy = self.stack_temp(64, 64);
        let mut lc = LaneCx::new(plan, ids, geo.bases, chunk, dummy);
        let saved_ret = self.return_to.replace(next_step);
        let saved_ids = self.inline_ids.replace((ids, geo.bases));
        let lin0 = self.linear_index(&geo, ids);
        let saved_me = (self.check_me, self.lanes_me0);
        let saved_rel = self.lanes_rel;
        if self.pcx.check.tracks() {
            // Checked races/uninit: an access made once for the step is the
            // four work-items' (several); lanes name their own.
            let me0 = self.b.ins().iadd_imm_s(lin0, 1);
            self.lanes_me0 = Some(me0);
            let several = self.b.ins().ishl_imm_u(me0, 16);
            self.check_me = Some(self.b.ins().bor_imm_u(several, 0xFFFF));
        } else if self.checks_memory() && self.store_item_ids {
            // Checked `bounds`: reports name lane k as the item's local id
            // (lane 0's, stored per step) + k, a constant: no value of the
            // step stays live for the slow paths.
            let item = self.item;
            self.b
                .ins()
                .store(super::value::flags(), ids[0], item, o::ITEM_LOCAL_ID);
            self.lanes_rel = true;
        }
        let r = lanes_body(self, &mut lc, lin0);
        self.lanes_rel = saved_rel;
        (self.check_me, self.lanes_me0) = saved_me;
        self.inline_ids = saved_ids;
        self.return_to = saved_ret;
        r?;
        self.jump(next_step);
        self.enter(next_step);
        Ok(())
    }

    /// One work-item (`ids`) of a lanes loop run alone; `next` follows
    /// its turn (a `return` jumps there). Ends in `next`.
    pub(crate) fn lanes_single(
        &mut self,
        geo: Geometry,
        ids: [Value; 3],
        next: Block,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        let item = self.item;
        if self.store_item_ids {
            self.b
                .ins()
                .store(super::value::flags(), ids[0], item, o::ITEM_LOCAL_ID);
        }
        let saved_ids = self.inline_ids.replace((ids, geo.bases));
        let lin = self.linear_index(&geo, ids);
        let saved_me = self.check_me;
        if self.pcx.check.tracks() {
            let me = self.b.ins().iadd_imm_s(lin, 1);
            self.b
                .ins()
                .store(super::value::flags(), me, item, o::ITEM_CHECK_ME);
            self.check_me = Some(me);
        }
        let r = item_body(self, next, lin);
        self.check_me = saved_me;
        self.inline_ids = saved_ids;
        r?;
        self.jump(next);
        self.enter(next);
        Ok(())
    }
}

/// Checked races/uninit: lane `k`'s work-item for the accesses emitted next
/// (`FunctionCx::lanes_me0` + `k`); returns what to restore. Nothing changes
/// outside the lanes' steps or without those checks.
fn at_lane(fx: &mut FunctionCx<'_, '_>, k: usize) -> Option<Value> {
    let saved = fx.check_me;
    if let Some(me0) = fx.lanes_me0 {
        fx.check_me = Some(fx.b.ins().iadd_imm_s(me0, k as i64));
    } else if fx.lanes_rel {
        fx.check_me = Some(fx.lane_me(k));
    }
    saved
}

/// Why checked mode keeps `f` at one work-item per step, if it does: `uninit`
/// following private variables of `f` (declared without an initialiser:
/// their flags live in one work-item's code), or `races-strict` (the lanes
/// make a uniform store once for four work-items, which hides same-value
/// writes).
pub(crate) fn one_item_per_step(pcx: &super::ProgramCx<'_>, f: &Function) -> Option<&'static str> {
    if pcx.check.races_strict {
        Some("checked races-strict follows each work-item's writes one at a time")
    } else if pcx.check.uninit && !super::walk::uninitialised_locals(f).is_empty() {
        Some("checked uninit follows private variables declared without a value")
    } else {
        None
    }
}
