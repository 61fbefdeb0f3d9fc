//! Calls in kernels inlined in the HIR, before code generation: the
//! regions and the lanes see only the kernel's own statements.
//!
//! The regions (`regions.rs`) cut a kernel body at the barriers they see in
//! it; a barrier inside a called function (CLBlast's `Xgemm` calls
//! `XgemmBody`, whose loop holds the barriers) is out of their sight, and
//! the kernel ran as coroutines. The lanes (`lanes/`) run a call once per
//! lane, each lane's arguments apart (`MultiplyAddVector` in the GEMM's
//! inner loop); Cranelift's inliner (`inline.rs`) comes after them.
//!
//! A statement `f(args);`, `lhs = f(args);` or `T x = f(args);` (the call
//! perhaps converted) of a kernel, whose callee reaches a barrier (with
//! [`Inlining::barrier_calls`]) or has at most [`SMALL_CALLEE`]
//! expressions (with [`Inlining::small_calls`]), has no `goto`, label or
//! `return` but a last one, and no `local` variable, becomes the callee's
//! body spliced in its place: a declaration of a new local per parameter,
//! initialised with the argument (sema converted it to the parameter's
//! type; the parameter is a copy, as in a call), then the callee's
//! statements with its locals renumbered after the caller's, then the
//! statement with the value of the last `return e;` in the call's place
//! (C sequences a call's body indeterminately with the rest of the
//! expression, so evaluating it first is one of the allowed orders). The
//! inlined statements' own calls are inlined in turn (the language has no
//! recursion; [`MAX_DEPTH`] bounds it anyway). A call that does not
//! qualify stays a call: a kernel whose barrier call stays runs as
//! coroutines, as before.

use super::walk;
use crate::sema::hir::{
    Block, Expr, ExprKind, FuncId, Function, Init, LocalId, Program, Stmt, StmtKind, VarRef,
};
use crate::sema::types::AddrSpace;

/// Which calls to inline.
#[derive(Clone, Copy)]
pub(crate) struct Inlining {
    /// Calls of functions that reach a barrier (for the regions).
    pub barrier_calls: bool,
    /// Calls of other functions of at most [`SMALL_CALLEE`] expressions
    /// (for the lanes).
    pub small_calls: bool,
}

/// Largest callee (HIR expressions) inlined when it reaches no barrier.
pub const SMALL_CALLEE: usize = 400;

/// The program with calls in its kernels inlined, or `None` when no kernel
/// has one that qualifies.
pub(crate) fn inline_calls(prog: &Program, opts: Inlining) -> Option<Program> {
    let mut out: Option<Program> = None;
    for (i, f) in prog.functions.iter().enumerate() {
        if f.kernel.is_none() {
            continue;
        }
        let Some(body) = &f.body else { continue };
        let mut g = f.clone();
        let mut body = body.clone();
        if !inline_block(prog, opts, &mut g, &mut body, 0) {
            continue;
        }
        g.callees = calls(&body);
        g.body = Some(body);
        out.get_or_insert_with(|| prog.clone()).functions[i] = g;
    }
    out
}

/// Deepest chain of calls inlined into one another.
const MAX_DEPTH: u32 = 16;

/// Inline the qualifying calls of `b` into `caller` (whose locals grow),
/// the inlined statements spliced into `b`; whether any was.
fn inline_block(
    prog: &Program,
    opts: Inlining,
    caller: &mut Function,
    b: &mut Block,
    depth: u32,
) -> bool {
    let mut any = false;
    let stmts = std::mem::take(&mut b.stmts);
    for mut s in stmts {
        match expand(prog, opts, caller, &s, depth) {
            Some(v) => {
                b.stmts.extend(v);
                any = true;
            }
            None => {
                any |= inline_nested(prog, opts, caller, &mut s, depth);
                b.stmts.push(s);
            }
        }
    }
    any
}

/// Inline the calls of the statements nested in `s`.
fn inline_nested(
    prog: &Program,
    opts: Inlining,
    caller: &mut Function,
    s: &mut Stmt,
    depth: u32,
) -> bool {
    match &mut s.kind {
        StmtKind::Block(b) => inline_block(prog, opts, caller, b, depth),
        StmtKind::If(_, t, e) => {
            let a = inline_sub(prog, opts, caller, t, depth);
            let b = e
                .as_mut()
                .is_some_and(|e| inline_sub(prog, opts, caller, e, depth));
            a | b
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => inline_sub(prog, opts, caller, b, depth),
        _ => false,
    }
}

/// Inline the calls of a statement that is not in a block's list (a
/// branch, a loop body): an inlined call becomes a block.
fn inline_sub(
    prog: &Program,
    opts: Inlining,
    caller: &mut Function,
    s: &mut Stmt,
    depth: u32,
) -> bool {
    match expand(prog, opts, caller, s, depth) {
        Some(stmts) => {
            s.kind = StmtKind::Block(Block { stmts });
            true
        }
        None => inline_nested(prog, opts, caller, s, depth),
    }
}

/// The statements that replace `s` when it is a call that qualifies:
/// `f(args);`, `lhs = f(args);` or `T x = f(args);` (the call perhaps
/// converted), with the calls of the inlined body inlined in turn.
fn expand(
    prog: &Program,
    opts: Inlining,
    caller: &mut Function,
    s: &Stmt,
    depth: u32,
) -> Option<Vec<Stmt>> {
    if depth >= MAX_DEPTH {
        return None;
    }
    // `whole`: the statement is the call; otherwise its value is used.
    let ((fid, args), whole) = match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign { op: None, rhs, .. } => (call_of(rhs)?, false),
            _ => (call_of(e)?, true),
        },
        StmtKind::Decl(_, Some(Init::Expr(e))) => (call_of(e)?, false),
        _ => return None,
    };
    let args = args.clone();
    let (mut stmts, ret) = inlined(prog, opts, caller, fid, &args)?;
    match (whole, ret) {
        (true, None) => {}
        (true, Some(r)) => stmts.push(Stmt {
            kind: StmtKind::Expr(r),
            span: s.span,
        }),
        (false, None) => return None,
        (false, Some(r)) => {
            let mut s = s.clone();
            let e = match &mut s.kind {
                StmtKind::Expr(e) => match &mut e.kind {
                    ExprKind::Assign { rhs, .. } => &mut **rhs,
                    _ => return None,
                },
                StmtKind::Decl(_, Some(Init::Expr(e))) => e,
                _ => return None,
            };
            *call_slot(e) = r;
            stmts.push(s);
        }
    }
    let mut b = Block { stmts };
    inline_block(prog, opts, caller, &mut b, depth + 1);
    Some(b.stmts)
}

/// The callee and arguments of `e` when it is a call, perhaps converted.
fn call_of(e: &Expr) -> Option<(FuncId, &Vec<Expr>)> {
    match &e.kind {
        ExprKind::Call(f, args) => Some((*f, args)),
        ExprKind::Cast(_, c) => match &c.kind {
            ExprKind::Call(f, args) => Some((*f, args)),
            _ => None,
        },
        _ => None,
    }
}

/// The call in `e` (which [`call_of`] accepted).
fn call_slot(e: &mut Expr) -> &mut Expr {
    match e.kind {
        ExprKind::Cast(_, ref mut c) => c,
        _ => e,
    }
}

/// The callee `fid`'s body for a call with `args`, when it qualifies: a
/// declaration per parameter initialised with its argument, the body's
/// statements with the callee's locals renumbered after the caller's (whose
/// locals grow), and the value of a last `return e;`.
fn inlined(
    prog: &Program,
    opts: Inlining,
    caller: &mut Function,
    fid: FuncId,
    args: &[Expr],
) -> Option<(Vec<Stmt>, Option<Expr>)> {
    let callee = prog.functions.get(fid.0 as usize)?;
    let body = callee.body.as_ref()?;
    let n = body.stmts.len();
    let last_return = |i: usize, s: &Stmt| i + 1 == n && matches!(s.kind, StmtKind::Return(_));
    let qualifies = args.len() == callee.params.len()
        && !callee.locals.iter().any(|l| l.space == AddrSpace::Local)
        && body
            .stmts
            .iter()
            .enumerate()
            .all(|(i, s)| last_return(i, s) || inlinable(s))
        && if walk::uses_barrier(prog, fid) {
            opts.barrier_calls
        } else {
            opts.small_calls && expr_count(body) <= SMALL_CALLEE
        };
    if !qualifies {
        return None;
    }
    let base = caller.locals.len() as u32;
    caller.locals.extend(callee.locals.iter().cloned());
    let mut stmts: Vec<Stmt> = callee
        .params
        .iter()
        .zip(args)
        .map(|(p, a)| Stmt {
            kind: StmtKind::Decl(LocalId(base + p.local.0), Some(Init::Expr(a.clone()))),
            span: a.span,
        })
        .collect();
    let mut ret = None;
    for (i, s) in body.stmts.iter().enumerate() {
        let mut s = s.clone();
        renumber(&mut s, base);
        if last_return(i, &s) {
            if let StmtKind::Return(r) = s.kind {
                ret = r;
            }
            continue;
        }
        stmts.push(s);
    }
    Some((stmts, ret))
}

fn expr_count(b: &Block) -> usize {
    let mut n = 0;
    walk::block_exprs(b, &mut |_| n += 1);
    n
}

/// Whether `s` can be inlined: no `goto`, label or `return` (the body's
/// last statement may be a `return;`, which the caller drops).
fn inlinable(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Goto(_) | StmtKind::Label(..) | StmtKind::Return(_) => false,
        StmtKind::Block(b) => b.stmts.iter().all(inlinable),
        StmtKind::If(_, t, e) => inlinable(t) && e.as_deref().is_none_or(inlinable),
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b) => inlinable(b),
        _ => true,
    }
}

/// Add `base` to every local of `s` (declarations and uses).
fn renumber(s: &mut Stmt, base: u32) {
    renumber_decls(s, base);
    walk::stmt_exprs_mut(s, &mut |e| renumber_expr(e, base));
}

fn renumber_decls(s: &mut Stmt, base: u32) {
    if let StmtKind::Decl(l, _) = &mut s.kind {
        l.0 += base;
    }
    walk::sub_stmts_mut(s, &mut |t| renumber_decls(t, base));
}

fn renumber_expr(e: &mut Expr, base: u32) {
    if let ExprKind::Var(VarRef::Local(l)) = &mut e.kind {
        l.0 += base;
    }
    walk::children_mut(e, &mut |c| renumber_expr(c, base));
}

/// The functions `b` calls, each once, in order.
fn calls(b: &Block) -> Vec<FuncId> {
    let mut out = Vec::new();
    walk::block_exprs(b, &mut |e| {
        if let ExprKind::Call(f, _) = &e.kind {
            if !out.contains(f) {
                out.push(*f);
            }
        }
    });
    out
}
