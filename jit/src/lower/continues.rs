//! Guarded `continue`s turned into `if`s, before code generation.
//!
//! A loop body whose statement is `if (c) continue;` skips the rest of the
//! body when `c` holds: the same as running the rest under `if (!c)`. The
//! lanes (`lanes/`) take a `continue` under a condition that differs
//! between work-items for work-items leaving the loop at different times,
//! and run the whole loop once per lane, or one work-item per step when it
//! touches memory at per-lane addresses; as an `if`, every work-item makes
//! the same trips and only the rest of the body diverges. hashcat's
//! hashes test the digest's last word before the last rounds,
//! `if (MATCHES_NONE_VS (h, d_rev)) continue;`, inside the loop over the
//! candidates.
//!
//! Each statement `if (c) continue;` (no `else`; the `continue` perhaps in
//! a block of its own) at the top level of a `for`, `while` or `do` body
//! with a scalar integer condition becomes `if (!c) { rest }`, `rest` the
//! statements after it in the body, themselves rewritten in turn. A body
//! whose rest holds a label, `case` or `default` stays (a jump could
//! enter it). Nested loops
//! are rewritten too. Checked mode keeps the program as written.

use crate::sema::hir::{Block, Expr, ExprKind, Program, Stmt, StmtKind, UnOp};
use crate::sema::types::{Scalar, Type};

/// The program with its guarded `continue`s rewritten, or `None` when it
/// has none.
pub(crate) fn rewrite(prog: &Program) -> Option<Program> {
    crate::lower::walk::rewrite_statements(prog, |s| rewrite_stmt(s, false))
}

/// Rewrite the loops in `s` (`in_loop_body`: `s` is a loop's body); whether
/// any changed.
fn rewrite_stmt(s: &mut Stmt, in_loop_body: bool) -> bool {
    let mut changed = false;
    match &mut s.kind {
        StmtKind::Block(b) => {
            for t in &mut b.stmts {
                changed |= rewrite_stmt(t, false);
            }
            if in_loop_body {
                changed |= guard_rest(&mut b.stmts);
            }
        }
        StmtKind::If(_, t, e) => {
            changed |= rewrite_stmt(t, false);
            if let Some(e) = e {
                changed |= rewrite_stmt(e, false);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) => {
            changed |= rewrite_stmt(b, true);
        }
        StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => changed |= rewrite_stmt(b, false),
        _ => {}
    }
    changed
}

/// Turn the first `if (c) continue;` of a loop body's statements into
/// `if (!c) { rest }`, the rest guarded in turn; whether one was.
fn guard_rest(stmts: &mut Vec<Stmt>) -> bool {
    let Some(i) = stmts.iter().position(|s| guarded_continue(s).is_some()) else {
        return false;
    };
    if stmts[i + 1..].iter().any(crate::lower::walk::jumps_into) {
        return false;
    }
    let mut rest: Vec<Stmt> = stmts.drain(i + 1..).collect();
    guard_rest(&mut rest);
    let s = stmts.pop().expect("the guarded continue");
    let StmtKind::If(c, ..) = s.kind else {
        unreachable!("guarded_continue accepted it")
    };
    let ty = Type::Scalar(Scalar::Int);
    let not = Expr::rvalue(ExprKind::Unary(UnOp::LogNot, Box::new(c)), ty, s.span);
    let rest = Stmt {
        kind: StmtKind::Block(Block { stmts: rest }),
        span: s.span,
    };
    stmts.push(Stmt {
        kind: StmtKind::If(not, Box::new(rest), None),
        span: s.span,
    });
    true
}

/// The condition of `if (c) continue;` (or `if (c) { continue; }`), when
/// it is a scalar integer.
fn guarded_continue(s: &Stmt) -> Option<&Expr> {
    let StmtKind::If(c, t, None) = &s.kind else {
        return None;
    };
    let only_continue = match &t.kind {
        StmtKind::Continue => true,
        StmtKind::Block(b) => matches!(
            &b.stmts[..],
            [Stmt {
                kind: StmtKind::Continue,
                ..
            }]
        ),
        _ => false,
    };
    let integer = matches!(c.ty, Type::Scalar(s) if s.is_integer() || s == Scalar::Bool);
    (only_continue && integer).then_some(c)
}
