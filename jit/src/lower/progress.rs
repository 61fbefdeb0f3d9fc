//! Independent forward progress: which loops may wait for another
//! work-item.
//!
//! A work-item that waits in a loop for another one to act can only learn
//! of that act through memory the other writes, and the memory model lets
//! it read such memory without a data race only through an atomic
//! operation (or, by custom, a `volatile` object). So a loop *observes*
//! other work-items when its condition, step or body uses the result of an
//! atomic built-in, reads a `volatile` object, or calls a function of the
//! program that does; an atomic whose result is dropped (`atomic_inc(&n);`,
//! a histogram's counting) tells the loop nothing. Nor does a loop that
//! retries a compare-and-exchange with an expectation it takes afresh on
//! every pass (`do old = *p; while (atomic_cmpxchg(p, old, f(old)) !=
//! old)`, a float added atomically): it repeats only when another
//! work-item's exchange succeeded in between, which none of its group can
//! while it runs, so it never waits for one (lock-free, where a spin lock
//! `while (atomic_cmpxchg(l, 0, 1) != 0)` expects a constant and waits). A
//! backward `goto` is a loop too: a function that observes makes each of
//! its `goto`s count.
//!
//! A kernel with such a loop runs as coroutines (`plan_strategy`), and the
//! loop lets the other work-items of its group run once in a while
//! (`codegen/stmt.rs`, `runtime::cranecl_progress`): a sub-group that waits
//! for another never keeps it from running, which is what
//! `CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS` promises (and
//! `cl_khr_subgroups` requires).

use super::walk;
use crate::sema::builtins::Family;
use crate::sema::hir::{
    BinOp, Block, CastKind, Expr, ExprKind, FuncId, Program, Stmt, StmtKind, UnOp, VarRef,
};
use crate::sema::types::Type;
use std::collections::HashSet;

/// Whether the loop `for (; c; step) body` (or a `while`/`do` loop, without
/// a step) may wait for another work-item.
pub fn loop_observes(prog: &Program, c: Option<&Expr>, step: Option<&Expr>, body: &Stmt) -> bool {
    if c.is_some_and(|c| retries(c, body)) {
        return false;
    }
    let seen = &mut HashSet::new();
    c.is_some_and(|c| observes(prog, c, true, seen))
        || step.is_some_and(|s| observes(prog, s, false, seen))
        || stmt_observes(prog, body, seen)
}

/// Whether a function body observes other work-items anywhere (then each
/// of its `goto`s may close a loop that waits).
pub fn body_observes(prog: &Program, body: &Block) -> bool {
    let seen = &mut HashSet::new();
    body.stmts.iter().any(|s| stmt_observes(prog, s, seen))
}

/// Whether kernel `f`, or a function it calls, has a loop (or a `goto`)
/// that may wait for another work-item.
pub fn may_wait(prog: &Program, f: FuncId) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(body) = prog
            .functions
            .get(id.0 as usize)
            .and_then(|f| f.body.as_ref())
        else {
            continue;
        };
        let (mut waits, mut gotos) = (false, false);
        for s in &body.stmts {
            each_stmt(s, &mut |s| match &s.kind {
                StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                    waits |= loop_observes(prog, Some(c), None, b)
                }
                StmtKind::For(_, c, step, b) => {
                    waits |= loop_observes(prog, c.as_ref(), step.as_ref(), b)
                }
                StmtKind::Goto(_) => gotos = true,
                _ => {}
            });
        }
        if waits || (gotos && body_observes(prog, body)) {
            return true;
        }
        walk::block_exprs(body, &mut |e| {
            if let ExprKind::Call(c, _) = &e.kind {
                stack.push(*c);
            }
        });
    }
    false
}

/// `s` and every statement nested in it.
fn each_stmt(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    f(s);
    walk::sub_stmts(s, &mut |t| each_stmt(t, f));
}

/// Whether `s` (with its nested statements) observes other work-items.
fn stmt_observes(prog: &Program, s: &Stmt, seen: &mut HashSet<FuncId>) -> bool {
    let mut found = false;
    match &s.kind {
        // A retry loop ends without waiting (a loop nested in it is
        // judged on its own).
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) if retries(c, b) => return false,
        StmtKind::For(_, Some(c), _, b) if retries(c, b) => return false,
        // An expression statement's value is dropped, and so is a `for`'s step.
        StmtKind::Expr(e) => found = observes(prog, e, false, seen),
        StmtKind::For(_, c, step, _) => {
            found = c.as_ref().is_some_and(|c| observes(prog, c, true, seen))
                || step
                    .as_ref()
                    .is_some_and(|e| observes(prog, e, false, seen))
        }
        _ => walk::own_exprs(s, &mut |e| found = found || observes(prog, e, true, seen)),
    }
    walk::sub_stmts(s, &mut |t| found = found || stmt_observes(prog, t, seen));
    found
}

/// Whether evaluating `e` observes other work-items; `used`: whether its
/// value is used (an atomic's result that is dropped observes nothing).
/// `seen` holds the functions already looked into (each is looked into
/// once: a second call of one adds nothing).
fn observes(prog: &Program, e: &Expr, used: bool, seen: &mut HashSet<FuncId>) -> bool {
    let here = match &e.kind {
        ExprKind::Builtin(b, _) => {
            used && matches!(b.family, Family::Atomic | Family::AtomicC11) && e.ty != Type::Void
        }
        ExprKind::Cast(CastKind::LvalueToRvalue, a) => a.quals.volatile,
        // A compound assignment or an increment reads its object first.
        ExprKind::Assign {
            op: Some(_), lhs, ..
        } => lhs.quals.volatile,
        ExprKind::IncDec { operand, .. } => operand.quals.volatile,
        ExprKind::Call(f, _) => {
            seen.insert(*f)
                && prog
                    .functions
                    .get(f.0 as usize)
                    .and_then(|f| f.body.as_ref())
                    .is_some_and(|b| b.stmts.iter().any(|s| stmt_observes(prog, s, seen)))
        }
        _ => false,
    };
    if here {
        return true;
    }
    match &e.kind {
        ExprKind::Cast(CastKind::ToVoid, a) => observes(prog, a, false, seen),
        ExprKind::Comma(a, b) => observes(prog, a, false, seen) || observes(prog, b, used, seen),
        _ => {
            let mut found = false;
            walk::children(e, &mut |c| found = found || observes(prog, c, true, seen));
            found
        }
    }
}

/// Whether a loop with condition `c` retries a compare-and-exchange until
/// it succeeds, with an expectation `e` it takes afresh on every pass:
/// `atomic_cmpxchg(p, e, d) != e` (either side; `atom_cmpxchg` too) where
/// the body assigns `e`, and never a constant; or
/// `!atomic_compare_exchange_*(p, &e, ...)`, which writes the value it
/// found into `e`, where the body assigns `e` no constant.
fn retries(c: &Expr, body: &Stmt) -> bool {
    let c = bare(c);
    let (e, found_writes) = match &c.kind {
        ExprKind::Binary(BinOp::Ne, a, b) => {
            let (a, b) = (bare(a), bare(b));
            let (cas, other) = if is_cmpxchg(a) { (a, b) } else { (b, a) };
            let ExprKind::Builtin(f, args) = &cas.kind else {
                return false;
            };
            if !matches!(f.name.as_str(), "atomic_cmpxchg" | "atom_cmpxchg") || args.len() != 3 {
                return false;
            }
            match (place(&args[1]), place(other)) {
                (Some(x), Some(y)) if x == y => (x, false),
                _ => return false,
            }
        }
        ExprKind::Unary(UnOp::LogNot, a) => {
            let ExprKind::Builtin(f, args) = &bare(a).kind else {
                return false;
            };
            if !f.name.starts_with("atomic_compare_exchange_") || args.len() < 3 {
                return false;
            }
            match &bare(&args[1]).kind {
                ExprKind::AddrOf(x) => match place(x) {
                    Some(x) => (x, true),
                    None => return false,
                },
                _ => return false,
            }
        }
        _ => return false,
    };
    // The assignments of the body to `e`'s variable (any part of it).
    let (mut fresh, mut constant) = (found_writes, false);
    walk::stmt_exprs(body, &mut |x| match &x.kind {
        ExprKind::Assign { lhs, rhs, .. } if place(lhs).is_some_and(|p| p.0 == e.0) => {
            let r = bare(rhs);
            if walk::int_value(r).is_some() || matches!(r.kind, ExprKind::FloatConst(_)) {
                constant = true;
            } else {
                fresh = true;
            }
        }
        ExprKind::IncDec { operand, .. } if place(operand).is_some_and(|p| p.0 == e.0) => {
            fresh = true
        }
        _ => {}
    });
    fresh && !constant
}

/// Whether `e` is a call of `atomic_cmpxchg`/`atom_cmpxchg`.
fn is_cmpxchg(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Builtin(f, _) if f.name.ends_with("_cmpxchg"))
}

/// `e` without the conversions around it (reads, integer and pointer
/// casts).
fn bare(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(
            CastKind::LvalueToRvalue
            | CastKind::IntToInt
            | CastKind::NoOp
            | CastKind::Bitcast
            | CastKind::ToGeneric,
            a,
        ) => bare(a),
        _ => e,
    }
}

/// A private variable or a member of one, as (the variable, the members
/// from it outwards).
fn place(e: &Expr) -> Option<(u32, Vec<usize>)> {
    match &bare(e).kind {
        ExprKind::Var(VarRef::Local(l)) => Some((l.0, Vec::new())),
        ExprKind::Member(a, m) => place(a).map(|(l, mut path)| {
            path.push(*m);
            (l, path)
        }),
        _ => None,
    }
}
