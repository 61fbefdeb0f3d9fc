//! Work-groups of one work-item, several per step. A kernel launched with a
//! local size of (1, 1, 1) — hashcat and OpenMM on a CPU device, and naive
//! host code — gives the lanes nothing to pack inside a group. But distinct
//! work-groups are unordered as the work-items of one group between
//! barriers are, so a row of consecutive groups (dimension 0) can run as the
//! work-items of one loop, eight or four per step (as the lanes choose for
//! the kernel).
//!
//! [`variant`] rewrites a kernel so that each work-item of such a loop
//! answers the work-item functions (spec 6.15.1) as the only work-item of
//! its own group:
//! - `get_local_id(d)` and `get_local_linear_id()` are 0;
//! - `get_local_size(d)` and `get_enqueued_local_size(d)` are 1;
//! - `get_group_id(0)` is `get_global_id(0) - get_global_offset(0)`;
//! - a barrier statement (a group of one has nobody to wait for) is removed.
//!
//! The runtime calls the variant's group entry for each row segment with
//! the segment's first group id and its length as the local size of
//! dimension 0, the enqueued local size still 1, so `get_global_id(0)` (the
//! group's base plus the loop counter), the group counts and every other
//! dimension's ids read the launch's own values
//! (`CompiledProgram::run_work_groups`).
//!
//! A kernel whose answers this cannot rewrite gets no variant: a dimension
//! that is not a constant, local memory (each group's own), work-group and
//! sub-group functions and async copies, and a call of a function that
//! reaches a work-item function other than the global ones and the group
//! counts, or a barrier (it would read the row's geometry).

use crate::lower::walk;
use crate::sema::addrspace::AddrSpace;
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::hir::{BinOp, Block, Expr, ExprKind, Function, Program, Stmt, StmtKind};
use crate::sema::types::Type;

/// The work-item functions whose answer is the same in a group of one and
/// in the row the variant runs (the row's `GroupState` holds the launch's
/// sizes and group counts).
fn global_query(name: &str) -> bool {
    matches!(
        name,
        "get_global_id"
            | "get_global_size"
            | "get_num_groups"
            | "get_global_offset"
            | "get_global_linear_id"
            | "get_work_dim"
    )
}

/// `f`, rewritten to run each of its work-items as a group of one (see the
/// module comment): `None` when nothing changes (the kernel's own group
/// entry serves), or why it cannot be.
pub(crate) fn variant(prog: &Program, f: &Function) -> Result<Option<Function>, String> {
    let kernel = f.kernel.as_ref().ok_or("not a kernel")?;
    if kernel
        .attrs
        .reqd_work_group_size
        .is_some_and(|s| s != [1, 1, 1])
    {
        return Err("its reqd_work_group_size is not (1, 1, 1)".into());
    }
    if f.locals.iter().any(|l| l.space == AddrSpace::Local)
        || f.params
            .iter()
            .any(|p| matches!(p.ty, Type::Pointer(_)) && p.space == AddrSpace::Local)
    {
        return Err("it uses local memory (each group's own)".into());
    }
    let mut g = f.clone();
    let body = g.body.as_mut().ok_or("no body")?;
    let mut result = Ok(false);
    let mut changed = drop_barriers(body);
    for s in &mut body.stmts {
        walk::stmt_exprs_mut(s, &mut |e| {
            if let Ok(c) = result {
                result = rewrite(prog, e).map(|d| c | d);
            }
        });
    }
    changed |= result?;
    Ok(changed.then_some(g))
}

/// Remove the barrier statements of `b` (and of its nested statements);
/// whether there was one.
fn drop_barriers(b: &mut Block) -> bool {
    let mut dropped = false;
    for s in &mut b.stmts {
        drop_barrier(s, &mut dropped);
    }
    dropped
}

fn drop_barrier(s: &mut Stmt, dropped: &mut bool) {
    if let StmtKind::Expr(e) = &s.kind {
        if let ExprKind::Builtin(b, _) = &e.kind {
            if matches!(b.name.as_str(), "barrier" | "work_group_barrier") {
                s.kind = StmtKind::Block(Block::default());
                *dropped = true;
                return;
            }
        }
    }
    walk::sub_stmts_mut(s, &mut |t| drop_barrier(t, dropped));
}

/// Whether a call of `b` in a function the kernel calls would see the row
/// instead of the work-item's group.
fn group_specific(b: &BuiltinFn) -> bool {
    match b.family {
        Family::WorkItem => !global_query(&b.name),
        Family::AsyncCopy => b.name != "prefetch",
        _ => walk::is_barrier(&b.name, b.family),
    }
}

/// Rewrite `e` and its operands (innermost first); whether it changed.
fn rewrite(prog: &Program, e: &mut Expr) -> Result<bool, String> {
    let mut result = Ok(false);
    walk::children_mut(e, &mut |c| {
        if let Ok(changed) = result {
            result = rewrite(prog, c).map(|d| changed | d);
        }
    });
    let changed = result?;
    let new = match &e.kind {
        ExprKind::Call(g, _) => {
            if walk::reaches_builtin(prog, *g, &group_specific) {
                return Err(format!(
                    "function '{}' asks for the group's geometry or synchronises it",
                    super::func_name(prog, *g)
                ));
            }
            None
        }
        ExprKind::Builtin(b, args) => match b.family {
            Family::WorkItem => work_item(b, args, e)?,
            Family::WorkGroup | Family::SubGroup => {
                return Err(format!("it calls '{}'", b.name));
            }
            Family::AsyncCopy if b.name != "prefetch" => {
                return Err(format!("it calls '{}'", b.name));
            }
            _ if walk::is_barrier(&b.name, b.family) => {
                return Err(format!("'{}' is not a statement of its own", b.name));
            }
            _ => None,
        },
        _ => None,
    };
    let rewritten = new.is_some();
    if let Some(kind) = new {
        e.kind = kind;
    }
    Ok(changed || rewritten)
}

/// The answer of work-item function `b` (called with `args`, as `e`) in a
/// group of one, when it differs from the row's.
fn work_item(b: &BuiltinFn, args: &[Expr], e: &Expr) -> Result<Option<ExprKind>, String> {
    if global_query(&b.name) {
        return Ok(None);
    }
    let dim = match args.first() {
        Some(a) => Some(walk::int_value(a).ok_or_else(|| {
            format!(
                "'{}' is asked for a dimension that is not a constant",
                b.name
            )
        })?),
        None => None,
    };
    let query = |name: &str, d: &Expr| {
        let mut g = b.clone();
        g.name = name.to_string();
        Expr::rvalue(
            ExprKind::Builtin(Box::new(g), vec![d.clone()]),
            e.ty.clone(),
            e.span,
        )
    };
    Ok(Some(match (b.name.as_str(), dim) {
        ("get_local_id" | "get_local_linear_id", _) => ExprKind::IntConst(0),
        ("get_local_size" | "get_enqueued_local_size", _) => ExprKind::IntConst(1),
        ("get_group_id", Some(0)) => ExprKind::Binary(
            BinOp::Sub,
            Box::new(query("get_global_id", &args[0])),
            Box::new(query("get_global_offset", &args[0])),
        ),
        // The row's group id in the other dimensions is the group's own.
        ("get_group_id", Some(_)) => return Ok(None),
        _ => return Err(format!("it calls '{}'", b.name)),
    }))
}
