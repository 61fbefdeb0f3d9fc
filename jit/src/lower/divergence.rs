//! The lanes' divergence analysis: which locals and expressions vary
//! between the work-items of a step, which statements run serially
//! (once per lane), which loops run masked ([`plan`]), decided before any
//! code is emitted. `codegen/lanes/` emits a step by the [`Plan`].
//!
//! A local varies when a value written to it varies, or when it is written
//! under a condition that varies; a work-item query varies in dimension 0
//! (consecutive lanes are consecutive work-items of a row). The conditions
//! of `if`s and loops around a barrier are uniform whatever they read
//! ([`synchronises`]), and calls of pure functions ([`pure_functions`]) are
//! the same in every lane whose arguments are. A kernel whose locals the
//! lanes cannot hold (`goto`, varying aggregates or locals whose address is
//! taken, varying parameters) gets `Err(why)` from [`plan`].

use super::{walk, Step};
use crate::codegen::{clif_type, is_aggregate};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::hir::{
    BinOp, Expr, ExprKind, FuncId, Function, Init, Program, Stmt, StmtKind, VarRef,
};
use crate::sema::types::Type;

/// What the analysis decided about a kernel's locals.
#[derive(Clone)]
pub(crate) struct Plan {
    /// The local's value may differ between the lanes of a step.
    pub(crate) varying: Vec<bool>,
    /// Written only by its declaration.
    pub(crate) single: Vec<bool>,
    /// A kernel-scope `local` variable: memory the group shares, never a
    /// register of a lane (writing it writes memory).
    shared: Vec<bool>,
    /// A private array or struct each lane has its own copy of, the
    /// copies interleaved (`lane_memory.rs`): varying, written as memory is.
    pub(crate) lane_memory: Vec<bool>,
    /// Loops the lanes would leave at different times run with a mask of
    /// active lanes (otherwise once per lane).
    pub(crate) masked_loops: bool,
    /// ... those whose memory accesses differ between lanes too.
    masked_memory: bool,
    /// By function: its calls are the same in every lane whose arguments
    /// are ([`pure_functions`]).
    pure: Vec<bool>,
    /// The 128-bit registers of each packed value, four work-items each
    /// (`lanes::step_regs` chooses).
    pub(crate) regs: usize,
}

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
pub(crate) fn per_item_builtin(b: &BuiltinFn) -> bool {
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
/// lane's own texel) and effects, but called once for each four lanes
/// (`builtins::image::emit_lanes`), so a statement with one is taken apart
/// like any other.
pub(crate) fn image_access(b: &BuiltinFn) -> bool {
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

pub(crate) fn const_dim(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntConst(v) => Some(*v),
        ExprKind::Cast(_, a) => const_dim(a),
        _ => None,
    }
}

impl Plan {
    /// `e` contains something that must run once per work-item.
    pub(crate) fn needs_serial(&self, e: &Expr) -> bool {
        let mut out = false;
        walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Call(g, _) if !self.pure_call(*g) => out = true,
            ExprKind::Builtin(b, _) if per_item_builtin(b) => out = true,
            _ => {}
        });
        out
    }

    /// A call of `g` is the same in every lane whose arguments are
    /// ([`pure_functions`]).
    fn pure_call(&self, g: FuncId) -> bool {
        self.pure.get(g.0 as usize).copied().unwrap_or(false)
    }

    /// `e` writes memory (not counting the kernel's own variables).
    pub(crate) fn writes_memory(&self, e: &Expr) -> bool {
        let mut out = self.needs_serial(e);
        walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Assign { lhs, .. } | ExprKind::IncDec { operand: lhs, .. }
                if root_local(lhs)
                    .is_none_or(|l| self.shared[l as usize] || self.lane_memory[l as usize]) =>
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
}

/// Safe to evaluate for a lane that would not have evaluated it: no memory
/// access, no division that can trap, no effect. The work-item queries
/// (`get_group_id(0)`, ...) only read the geometry; a division by a
/// constant other than 0 and -1 cannot trap (CLBlast's `kwg / VWMD`), nor
/// can a floating-point one.
pub(crate) fn speculable(e: &Expr) -> bool {
    let mut ok = true;
    walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Builtin(f, _) if f.family == Family::WorkItem && f.name.starts_with("get_") => {}
        ExprKind::Binary(BinOp::Div | BinOp::Rem, _, d)
            if !x.ty.is_integer_like()
                || matches!(d.kind, ExprKind::IntConst(c) if c != 0 && c != -1) => {}
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

impl Plan {
    /// The step an entry built with this plan runs.
    pub(crate) fn step(&self) -> Step {
        if self.masked_loops {
            Step::Masked
        } else {
            Step::Lanes
        }
    }

    /// The same plan with varying loops run once per lane.
    pub(crate) fn unmasked(&self) -> Plan {
        Plan {
            masked_loops: false,
            ..self.clone()
        }
    }

    pub(crate) fn varies(&self, e: &Expr) -> bool {
        let mut out = false;
        walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Var(VarRef::Local(l)) if self.varying[l.0 as usize] => out = true,
            ExprKind::Builtin(b, args)
                if per_item_builtin(b) || image_access(b) || varying_workitem(b, args) =>
            {
                out = true
            }
            ExprKind::Call(g, _) if !self.pure_call(*g) => out = true,
            _ => {}
        });
        out
    }

    pub(crate) fn init_varies(&self, i: &Init) -> bool {
        match i {
            Init::Expr(e) => self.varies(e) || self.needs_serial(e),
            Init::Array(v) | Init::Struct(v) => v.iter().any(|i| self.init_varies(i)),
            Init::Union(_, i) => self.init_varies(i),
            Init::Zero => false,
        }
    }

    /// The statement runs once per lane (it is not taken apart).
    pub(crate) fn serial(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::Decl(_, Some(Init::Expr(e))) | StmtKind::Expr(e) => self.needs_serial(e),
            StmtKind::Decl(_, Some(_)) => true,
            StmtKind::Return(Some(e)) => self.needs_serial(e),
            StmtKind::If(c, ..) => self.needs_serial(c),
            StmtKind::While(c, body) | StmtKind::DoWhile(body, c) => {
                self.needs_serial(c) || self.diverges(c, body)
            }
            StmtKind::For(init, c, step, body) => {
                c.as_ref().is_some_and(|c| self.needs_serial(c))
                    || step.as_ref().is_some_and(|e| self.needs_serial(e))
                    || init.as_ref().is_some_and(|i| self.serial(i))
                    || (c.as_ref().is_some_and(|c| self.varies(c)) && !synchronises(body))
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
    pub(crate) fn touches_lane_memory(&self, s: &Stmt) -> bool {
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
    pub(crate) fn lane_memory_loop<'f>(&self, f: &'f Function) -> Option<&'f Stmt> {
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

    /// The lanes may leave a `while`/`do` loop with condition `c` and body
    /// `body` at different times.
    fn diverges(&self, c: &Expr, body: &Stmt) -> bool {
        (self.varies(c) && !synchronises(body)) || self.escapes_divergent(body)
    }

    /// A `break`/`continue` of this loop under a varying condition (the
    /// lanes would leave the loop at different times). In a loop around a
    /// barrier every `break` and `continue` is reached by all work-items or
    /// none (as the barrier is), whatever the conditions say.
    pub(crate) fn escapes_divergent(&self, body: &Stmt) -> bool {
        fn walk(p: &Plan, s: &Stmt, divergent: bool) -> bool {
            match &s.kind {
                StmtKind::Break | StmtKind::Continue => divergent,
                StmtKind::Block(b) => b.stmts.iter().any(|s| walk(p, s, divergent)),
                StmtKind::If(c, t, e) => {
                    let d = divergent || (p.varies(c) && !synchronises(s));
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
        !synchronises(body) && walk(self, body, false)
    }

    /// `s` writes memory anywhere inside.
    pub(crate) fn stmt_writes(&self, s: &Stmt) -> bool {
        let mut out = false;
        walk::stmt_exprs(s, &mut |e| out |= self.writes_memory(e));
        out
    }

    /// Mark the locals `s` writes with varying values; true if any changed.
    fn mark(&mut self, s: &Stmt, under: bool) -> bool {
        let mut changed = false;
        let serial = self.serial(s);
        let under = under || serial;
        if let StmtKind::Decl(_, Some(init)) = &s.kind {
            // Assignments inside the initialiser (`uint x = (t = a ^ b) ^ c;`).
            walk::init_roots(init, &mut |e| changed |= self.mark_expr(e, under));
        }
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
                let u = under || (self.varies(c) && !synchronises(s));
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
        walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Assign { lhs, rhs, .. } => {
                if let Some(l) = root_local(lhs).filter(|l| !self.shared[*l as usize]) {
                    targets.push((l, self.varies(rhs) || self.needs_serial(rhs)));
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

/// `s` reaches a work-group barrier or collective. The spec requires every
/// work-item of a group to reach such a call, or none (in a loop, in every
/// iteration), so the conditions of the `if`s and loops around one are the
/// same for the whole group whatever they read: the regions branch on one
/// work-item's decision (`regions.rs`), and the lanes need not take them as
/// varying (a local written under one varies only by its value).
pub(crate) fn synchronises(s: &Stmt) -> bool {
    let mut found = false;
    stmt_tree_exprs(s, &mut |e| {
        if let ExprKind::Builtin(b, _) = &e.kind {
            // Sub-groups may take different paths to theirs.
            found |= walk::is_barrier(&b.name, b.family) && b.family != Family::SubGroup;
        }
    });
    found
}

pub(crate) fn contains(s: &Stmt, pred: &dyn Fn(&StmtKind) -> bool) -> bool {
    find_stmt(s, &|s| pred(&s.kind)).is_some()
}

/// The first statement of `s`'s tree (`s` itself first) that `pred` holds of.
pub(crate) fn find_stmt<'s>(s: &'s Stmt, pred: &dyn Fn(&Stmt) -> bool) -> Option<&'s Stmt> {
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

/// Every expression of `s` (nested statements included).
pub(crate) fn stmt_tree_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    walk::stmt_exprs(s, &mut |e| walk::expr_tree(e, f));
}

/// The functions whose calls are the same in every lane whose arguments are
/// (CLBlast's `GetGroupID0()`, `return get_group_id(0);`): parameters and
/// result scalars or vectors; a body that reads no memory, writes only its
/// own variables, asks no work-item function that differs between lanes,
/// calls only such functions and no built-in with per-item effects or a
/// pointer. A call of one runs once for the step (uniform arguments) or as
/// an expression per lane, where other calls make their whole statement
/// run once per lane. Outside checked mode only (its reports follow the
/// work-item each call runs for).
pub(crate) fn pure_functions(prog: &Program, checked: bool) -> Vec<bool> {
    let value = |t: &Type| t.is_vector() || matches!(t, Type::Scalar(_));
    let mut pure: Vec<bool> = prog
        .functions
        .iter()
        .map(|g| {
            !checked && g.body.is_some() && value(&g.ret) && g.params.iter().all(|p| value(&p.ty))
        })
        .collect();
    loop {
        let mut changed = false;
        for (i, g) in prog.functions.iter().enumerate() {
            if !pure[i] {
                continue;
            }
            let mut ok = true;
            let body = g.body.as_ref().map_or(&[][..], |b| &b.stmts[..]);
            for st in body {
                stmt_tree_exprs(st, &mut |e| match &e.kind {
                    ExprKind::Deref(_) | ExprKind::AddrOf(_) => ok = false,
                    ExprKind::Var(v) if !matches!(v, VarRef::Local(_)) => ok = false,
                    ExprKind::Assign { lhs: x, .. } | ExprKind::IncDec { operand: x, .. } => {
                        ok &= root_local(x).is_some()
                    }
                    ExprKind::Call(h, _) => ok &= pure[h.0 as usize],
                    ExprKind::Builtin(b, args) => {
                        ok &= !(per_item_builtin(b)
                            || image_access(b)
                            || varying_workitem(b, args)
                            || walk::is_barrier(&b.name, b.family)
                            || b.params.iter().any(|p| p.is_pointer())
                            || matches!(b.family, Family::VectorLoadStore | Family::AddressSpace))
                    }
                    _ => {}
                });
            }
            if !ok {
                pure[i] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

/// Decide the lanes of `f`'s locals; `Err(why)` when the kernel must run
/// one work-item per step. `masked_memory`: also run masked the divergent
/// loops that touch memory at per-lane addresses
/// (`CodegenOptions::masked_memory_loops`); `checked`: checked mode
/// compiles checks into the code (no call is pure then); `copies`: private
/// arrays and structs may have an interleaved copy per lane
/// (`lane_memory.rs`; a step runs its work-items from start to end, as it
/// does in a loop without barriers, not in a region piece).
pub(crate) fn plan(
    prog: &Program,
    f: &Function,
    masked_memory: bool,
    checked: bool,
    copies: bool,
) -> Result<Plan, String> {
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
        lane_memory: if copies && !checked {
            super::lane_memory::interleavable(prog, f)
        } else {
            vec![false; n]
        },
        pure: pure_functions(prog, checked),
        regs: crate::codegen::MAX_REGS,
    };
    for i in 0..n {
        if plan.lane_memory[i] {
            // Each lane's own, written through subscripts: never one value.
            plan.varying[i] = true;
            plan.single[i] = false;
        }
    }
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
    let addressed = walk::address_taken_locals(f);
    let written = walk::written_locals(f);
    for (i, l) in f.locals.iter().enumerate() {
        if l.space == crate::sema::addrspace::AddrSpace::Local || plan.lane_memory[i] {
            // Shared by the group (one place serves every lane), or a copy
            // per lane.
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

/// Locals declared anywhere in `s`.
pub(crate) fn collect_decls(s: &Stmt, out: &mut Vec<u32>) {
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
