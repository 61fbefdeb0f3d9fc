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
//! [`Inlining::barrier_calls`]), or (with [`Inlining::small_calls`]) has
//! at most [`SMALL_CALLEE`] expressions or is called once in the kernel's
//! tree of calls and has at most [`ONCE_CALLEE`] (hashcat's kernels call
//! the whole unrolled hash, `m01400s(w, ...)`, once: inlined, the code
//! does not grow), has no `goto`, label or `return` but a last one, and no
//! `local` variable, becomes the callee's body spliced in its place: a
//! declaration of a new local per parameter, initialised with the
//! argument (sema converted it to the parameter's type; the parameter is a
//! copy, as in a call), then the callee's statements with its locals
//! renumbered after the caller's, then the statement with the value of the
//! last `return e;` in the call's place (C sequences a call's body
//! indeterminately with the rest of the expression, so evaluating it first
//! is one of the allowed orders). The inlined statements' own calls are
//! inlined in turn (the language has no recursion; [`MAX_DEPTH`] bounds it
//! anyway). A call that does not qualify stays a call: a kernel whose
//! barrier call stays runs as coroutines, as before.
//!
//! A call inside an expression (`x = hc_rotl32(e, 26) ^ ...`) is inlined
//! when its callee is one `return e;` of at most [`SMALL_CALLEE`]
//! expressions without effects (no assignment, call or built-in that
//! writes or synchronises) and every argument is without effects too: the
//! call becomes `e` with each read of a parameter replaced by its argument
//! (an argument read more than once only when it is small and loads
//! nothing, so that the copies cost what the call did). Otherwise the lanes
//! would run the call once per lane.
//!
//! A pointer parameter bound to a private array of the caller (the
//! argument is the array itself, decayed: `f(w)` for `u32 w[16]`) that the
//! body never assigns nor takes the address of holds `&w[0]` throughout:
//! its reads become the array's decay itself and it gets no local, so
//! `p[1]` is `w[1]` and `tiles.rs` can keep the array in registers once
//! every subscript is a constant (whatever else the body does with `p`,
//! arithmetic or a call, is then done with `w` and keeps it in memory).

use crate::lower::walk;
use crate::sema::hir::{
    Block, CastKind, Expr, ExprKind, FuncId, Function, Init, LocalId, Program, Stmt, StmtKind,
    VarRef,
};
use crate::sema::types::{AddrSpace, Type};
use std::collections::HashMap;

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

/// Largest callee (HIR expressions) inlined when it reaches no barrier and
/// is called once in the kernel's tree of calls (hashcat's unrolled hashes
/// are below it; it bounds the build time of one function).
pub const ONCE_CALLEE: usize = 20_000;

/// The program with calls in its kernels inlined, or `None` when no kernel
/// has one that qualifies.
pub(crate) fn inline_calls(prog: &Program, opts: Inlining) -> Option<Program> {
    walk::rewrite_functions(prog, |i, f| {
        f.kernel.as_ref()?;
        let mut body = f.body.clone()?;
        let mut g = f.clone();
        let cx = Cx {
            prog,
            opts,
            counts: call_counts(prog, FuncId(i as u32)),
        };
        let calls_inlined = inline_block(&cx, &mut g, &mut body, 0);
        let exprs_inlined = cx.opts.small_calls && inline_block_exprs(&cx, &mut body);
        if !(calls_inlined || exprs_inlined) {
            return None;
        }
        g.callees = calls(&body);
        g.body = Some(body);
        Some(g)
    })
}

/// Deepest chain of calls inlined into one another.
const MAX_DEPTH: u32 = 16;

/// What the inlining of one kernel's calls reads.
struct Cx<'p> {
    prog: &'p Program,
    opts: Inlining,
    /// How many calls of each function the kernel's tree of calls holds
    /// (a call inside a function called twice counts twice).
    counts: HashMap<FuncId, usize>,
}

/// The calls of each function in the tree of calls under `f`.
fn call_counts(prog: &Program, f: FuncId) -> HashMap<FuncId, usize> {
    // Each function's own tree, once (the language has no recursion; a
    // function being counted counts as calling nothing).
    fn tree(
        prog: &Program,
        f: FuncId,
        memo: &mut HashMap<FuncId, HashMap<FuncId, usize>>,
    ) -> HashMap<FuncId, usize> {
        if let Some(t) = memo.get(&f) {
            return t.clone();
        }
        memo.insert(f, HashMap::new());
        let mut direct = Vec::new();
        if let Some(body) = prog
            .functions
            .get(f.0 as usize)
            .and_then(|g| g.body.as_ref())
        {
            walk::block_exprs(body, &mut |e| {
                if let ExprKind::Call(g, _) = &e.kind {
                    direct.push(*g);
                }
            });
        }
        let mut out: HashMap<FuncId, usize> = HashMap::new();
        for g in direct {
            *out.entry(g).or_default() += 1;
            for (h, n) in tree(prog, g, memo) {
                let c = out.entry(h).or_default();
                *c = c.saturating_add(n);
            }
        }
        memo.insert(f, out.clone());
        out
    }
    tree(prog, f, &mut HashMap::new())
}

/// Inline the qualifying calls of `b` into `caller` (whose locals grow),
/// the inlined statements spliced into `b`; whether any was.
fn inline_block(cx: &Cx, caller: &mut Function, b: &mut Block, depth: u32) -> bool {
    let mut any = false;
    let stmts = std::mem::take(&mut b.stmts);
    for mut s in stmts {
        match expand(cx, caller, &s, depth) {
            Some(v) => {
                b.stmts.extend(v);
                any = true;
            }
            None => {
                any |= inline_nested(cx, caller, &mut s, depth);
                b.stmts.push(s);
            }
        }
    }
    any
}

/// Inline the calls of the statements nested in `s`.
fn inline_nested(cx: &Cx, caller: &mut Function, s: &mut Stmt, depth: u32) -> bool {
    match &mut s.kind {
        StmtKind::Block(b) => inline_block(cx, caller, b, depth),
        StmtKind::If(_, t, e) => {
            let a = inline_sub(cx, caller, t, depth);
            let b = e.as_mut().is_some_and(|e| inline_sub(cx, caller, e, depth));
            a | b
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => inline_sub(cx, caller, b, depth),
        _ => false,
    }
}

/// Inline the calls of a statement that is not in a block's list (a
/// branch, a loop body): an inlined call becomes a block.
fn inline_sub(cx: &Cx, caller: &mut Function, s: &mut Stmt, depth: u32) -> bool {
    match expand(cx, caller, s, depth) {
        Some(stmts) => {
            s.kind = StmtKind::Block(Block { stmts });
            true
        }
        None => inline_nested(cx, caller, s, depth),
    }
}

/// The statements that replace `s` when it is a call that qualifies:
/// `f(args);`, `lhs = f(args);` or `T x = f(args);` (the call perhaps
/// converted), with the calls of the inlined body inlined in turn.
fn expand(cx: &Cx, caller: &mut Function, s: &Stmt, depth: u32) -> Option<Vec<Stmt>> {
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
    let (mut stmts, ret) = inlined(cx, caller, fid, &args)?;
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
    inline_block(cx, caller, &mut b, depth + 1);
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
/// declaration per parameter initialised with its argument (but for the
/// parameters bound to an array, [`bind_arrays`]), the body's statements
/// with the callee's locals renumbered after the caller's (whose locals
/// grow), and the value of a last `return e;`.
fn inlined(
    cx: &Cx,
    caller: &mut Function,
    fid: FuncId,
    args: &[Expr],
) -> Option<(Vec<Stmt>, Option<Expr>)> {
    let callee = cx.prog.functions.get(fid.0 as usize)?;
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
        && if walk::uses_barrier(cx.prog, fid) {
            cx.opts.barrier_calls
        } else {
            let size = expr_count(body);
            let once = cx.counts.get(&fid).is_some_and(|&c| c == 1);
            cx.opts.small_calls && (size <= SMALL_CALLEE || once && size <= ONCE_CALLEE)
        };
    if !qualifies {
        return None;
    }
    let base = caller.locals.len() as u32;
    caller.locals.extend(callee.locals.iter().cloned());
    let mut stmts = Vec::new();
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
    let mut decls = Vec::new();
    for (p, a) in callee.params.iter().zip(args) {
        let param = base + p.local.0;
        if !bind_array(caller, param, a, &mut stmts, &mut ret) {
            decls.push(Stmt {
                kind: StmtKind::Decl(LocalId(param), Some(Init::Expr(a.clone()))),
                span: a.span,
            });
        }
    }
    decls.extend(stmts);
    Some((decls, ret))
}

/// When the argument `a` is a private array of the caller, decayed
/// (perhaps converted to the parameter's qualifiers or to the generic
/// space), and the inlined body (`stmts`, `ret`) neither assigns the
/// parameter `param` nor takes its address: replace its every read by the
/// array's decay, and say so (the parameter then needs no declaration).
fn bind_array(
    caller: &Function,
    param: u32,
    a: &Expr,
    stmts: &mut [Stmt],
    ret: &mut Option<Expr>,
) -> bool {
    let Some(decay) = array_decay(caller, a) else {
        return false;
    };
    let mut fixed = true;
    let mut visit = |e: &Expr| {
        if let ExprKind::Assign { lhs: x, .. }
        | ExprKind::IncDec { operand: x, .. }
        | ExprKind::AddrOf(x) = &e.kind
        {
            fixed &= !is_local(x, param);
        }
    };
    for s in stmts.iter() {
        walk::stmt_exprs(s, &mut visit);
    }
    if let Some(r) = ret {
        walk::expr_tree(r, &mut visit);
    }
    if !fixed {
        return false;
    }
    let mut left = false;
    let mut bind = |e: &mut Expr| bind_reads(e, param, decay, &mut left);
    for s in stmts.iter_mut() {
        walk::stmt_exprs_mut(s, &mut bind);
    }
    if let Some(r) = ret {
        bind(r);
    }
    // Every use of an lvalue parameter is a read, an assignment or `&`.
    debug_assert!(!left, "parameter {param} used other than read");
    true
}

/// The decay of a private array of `caller` that `a` is, perhaps behind
/// conversions that keep the pointer's value (qualifiers, generic space).
fn array_decay<'a>(caller: &Function, a: &'a Expr) -> Option<&'a Expr> {
    let mut e = a;
    while let ExprKind::Cast(CastKind::NoOp | CastKind::ToGeneric | CastKind::Bitcast, inner) =
        &e.kind
    {
        // A conversion to another pointee would read the array as another
        // type.
        if pointee(&e.ty)? != pointee(&inner.ty)? {
            return None;
        }
        e = inner;
    }
    let ExprKind::Cast(CastKind::ArrayToPointer, arr) = &e.kind else {
        return None;
    };
    let ExprKind::Var(VarRef::Local(l)) = arr.kind else {
        return None;
    };
    let local = caller.locals.get(l.0 as usize)?;
    (local.space == AddrSpace::Private && local.ty.is_array()).then_some(e)
}

/// The unqualified pointee of a pointer type.
fn pointee(t: &Type) -> Option<&Type> {
    match t {
        Type::Pointer(p) => Some(&p.ty),
        _ => None,
    }
}

fn is_local(e: &Expr, l: u32) -> bool {
    matches!(e.kind, ExprKind::Var(VarRef::Local(x)) if x.0 == l)
}

/// Replace the reads of `param` in `e` by `decay`; `left`: a use that is
/// not a read was seen.
fn bind_reads(e: &mut Expr, param: u32, decay: &Expr, left: &mut bool) {
    if let ExprKind::Cast(CastKind::LvalueToRvalue, x) = &e.kind {
        if is_local(x, param) {
            let span = e.span;
            *e = decay.clone();
            e.span = span;
            return;
        }
    }
    *left |= is_local(e, param);
    walk::children_mut(e, &mut |c| bind_reads(c, param, decay, left));
}

/// Inline the calls of `b`'s expressions whose callee is one `return e;`
/// (see the module comment); whether any was.
fn inline_block_exprs(cx: &Cx, b: &mut Block) -> bool {
    let mut any = false;
    for s in &mut b.stmts {
        walk::stmt_exprs_mut(s, &mut |e| any |= inline_expr(cx, e, 0));
    }
    any
}

/// Inline the qualifying calls in `e` (its operands first); whether any was.
fn inline_expr(cx: &Cx, e: &mut Expr, depth: u32) -> bool {
    let mut any = false;
    walk::children_mut(e, &mut |c| any |= inline_expr(cx, c, depth));
    if depth >= MAX_DEPTH {
        return any;
    }
    let ExprKind::Call(fid, args) = &e.kind else {
        return any;
    };
    let Some(mut r) = expression_body(cx.prog, *fid, args) else {
        return any;
    };
    inline_expr(cx, &mut r, depth + 1);
    *e = r;
    true
}

/// Most expressions of an argument copied into each read of its parameter.
const COPIED_ARG: usize = 16;

/// The value of the call `fid(args)` as one expression, when the callee is
/// one `return e;` without effects and the arguments qualify.
fn expression_body(prog: &Program, fid: FuncId, args: &[Expr]) -> Option<Expr> {
    let callee = prog.functions.get(fid.0 as usize)?;
    let [Stmt {
        kind: StmtKind::Return(Some(ret)),
        ..
    }] = &callee.body.as_ref()?.stmts[..]
    else {
        return None;
    };
    let n = callee.params.len();
    if args.len() != n
        || callee.locals.len() != n
        || !(ret.ty.is_scalar() || ret.ty.is_vector())
        || !pure(ret)
        || !args.iter().all(pure)
        || expr_count_of(ret) > SMALL_CALLEE
    {
        return None;
    }
    // Each parameter only read, and how often.
    let mut reads = vec![0usize; n];
    let mut other_use = false;
    count_reads(ret, &mut reads, &mut other_use);
    if other_use {
        return None;
    }
    let cheap = |a: &Expr| {
        let mut loads = false;
        walk::expr_tree(a, &mut |x| loads |= matches!(x.kind, ExprKind::Deref(_)));
        !loads && expr_count_of(a) <= COPIED_ARG
    };
    if reads.iter().zip(args).any(|(&r, a)| r > 1 && !cheap(a)) {
        return None;
    }
    let mut e = ret.clone();
    substitute_params(&mut e, args);
    Some(e)
}

/// `e` has no effect: no assignment, increment, call, or built-in that
/// does more than read.
fn pure(e: &Expr) -> bool {
    let mut ok = true;
    walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Assign { .. } | ExprKind::IncDec { .. } | ExprKind::Call(..) => ok = false,
        ExprKind::Builtin(b, _) => ok &= walk::reads_only(b),
        _ => {}
    });
    ok
}

/// Count the reads of each parameter (`LocalId(i)`, `i < reads.len()`) in
/// `e`; `other`: a parameter used other than read.
fn count_reads(e: &Expr, reads: &mut [usize], other: &mut bool) {
    if let ExprKind::Cast(CastKind::LvalueToRvalue, x) = &e.kind {
        if let ExprKind::Var(VarRef::Local(l)) = x.kind {
            if let Some(r) = reads.get_mut(l.0 as usize) {
                *r += 1;
                return;
            }
        }
    }
    if let ExprKind::Var(VarRef::Local(l)) = e.kind {
        *other |= (l.0 as usize) < reads.len();
    }
    walk::children(e, &mut |c| count_reads(c, reads, other));
}

/// Replace each read of parameter `i` in `e` by `args[i]`.
fn substitute_params(e: &mut Expr, args: &[Expr]) {
    if let ExprKind::Cast(CastKind::LvalueToRvalue, x) = &e.kind {
        if let ExprKind::Var(VarRef::Local(l)) = x.kind {
            if let Some(a) = args.get(l.0 as usize) {
                *e = a.clone();
                return;
            }
        }
    }
    walk::children_mut(e, &mut |c| substitute_params(c, args));
}

fn expr_count_of(e: &Expr) -> usize {
    let mut n = 0;
    walk::expr_tree(e, &mut |_| n += 1);
    n
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
