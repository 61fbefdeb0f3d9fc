//! Walks over the HIR that the analyses, the HIR passes and codegen need
//! before any code is emitted: which locals have their address taken (they
//! need memory), which kernels reach a barrier (they need a barrier
//! strategy), which are declared without an initialiser (checked `uninit`
//! follows them).

use crate::sema::builtins::Family;
use crate::sema::hir::{
    Block, CastKind, Expr, ExprKind, FuncId, Function, Init, Program, Stmt, StmtKind, VarRef,
};
use std::collections::HashSet;

/// Call `f` on every expression of `s`, outermost first.
pub fn stmt_exprs<'e>(s: &'e Stmt, f: &mut dyn FnMut(&'e Expr)) {
    match &s.kind {
        StmtKind::Decl(_, Some(init)) => init_exprs(init, f),
        StmtKind::Decl(_, None)
        | StmtKind::Goto(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Empty => {}
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr_tree(e, f),
        StmtKind::Return(None) => {}
        StmtKind::Block(b) => block_exprs(b, f),
        StmtKind::If(c, t, e) => {
            expr_tree(c, f);
            stmt_exprs(t, f);
            if let Some(e) = e {
                stmt_exprs(e, f);
            }
        }
        StmtKind::While(c, body) | StmtKind::DoWhile(body, c) | StmtKind::Switch(c, body) => {
            expr_tree(c, f);
            stmt_exprs(body, f);
        }
        StmtKind::For(init, c, step, body) => {
            if let Some(i) = init {
                stmt_exprs(i, f);
            }
            for e in [c, step].into_iter().flatten() {
                expr_tree(e, f);
            }
            stmt_exprs(body, f);
        }
        StmtKind::Case(_, s) | StmtKind::Default(s) | StmtKind::Label(_, s) => stmt_exprs(s, f),
    }
}

pub fn block_exprs<'e>(b: &'e Block, f: &mut dyn FnMut(&'e Expr)) {
    for s in &b.stmts {
        stmt_exprs(s, f);
    }
}

fn init_exprs<'e>(i: &'e Init, f: &mut dyn FnMut(&'e Expr)) {
    match i {
        Init::Expr(e) => expr_tree(e, f),
        Init::Array(v) | Init::Struct(v) => v.iter().for_each(|i| init_exprs(i, f)),
        Init::Union(_, i) => init_exprs(i, f),
        Init::Zero => {}
    }
}

/// `e` and every sub-expression.
pub fn expr_tree<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    f(e);
    match &e.kind {
        ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Var(_) | ExprKind::Func(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Member(a, _)
        | ExprKind::Swizzle(a, _)
        | ExprKind::IncDec { operand: a, .. } => expr_tree(a, f),
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::PtrCmp(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            expr_tree(a, f);
            expr_tree(b, f);
        }
        ExprKind::Cond(a, b, c) => {
            expr_tree(a, f);
            expr_tree(b, f);
            expr_tree(c, f);
        }
        ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::VectorLit(args) => {
            args.iter().for_each(|a| expr_tree(a, f))
        }
    }
}

/// The local variable an lvalue designates the whole or a part of.
fn root_local(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Var(VarRef::Local(l)) => Some(l.0),
        ExprKind::Member(a, _) | ExprKind::Swizzle(a, _) => root_local(a),
        _ => None,
    }
}

/// Locals whose address is taken (`&x`, `&x.f`, or an array decaying).
pub fn address_taken_locals(f: &Function) -> HashSet<u32> {
    let mut set = HashSet::new();
    if let Some(b) = &f.body {
        block_exprs(b, &mut |e| {
            if let ExprKind::AddrOf(a) | ExprKind::Cast(CastKind::ArrayToPointer, a) = &e.kind {
                if let Some(l) = root_local(a) {
                    set.insert(l);
                }
            }
        });
    }
    set
}

/// Whether the built-in synchronises the work-group (or a sub-group).
pub fn is_barrier(name: &str, family: Family) -> bool {
    matches!(name, "barrier" | "work_group_barrier" | "wait_group_events")
        || matches!(family, Family::WorkGroup | Family::SubGroup)
}

/// Whether `f` (or a function it calls) reaches a barrier.
pub fn uses_barrier(prog: &Program, f: FuncId) -> bool {
    reaches_builtin(prog, f, &|b| is_barrier(&b.name, b.family))
}

/// Whether `f` (or a function it calls) reaches a work-group collective
/// built-in (which needs the group scratch).
pub fn uses_collectives(prog: &Program, f: FuncId) -> bool {
    reaches_builtin(prog, f, &|b| {
        matches!(b.family, Family::WorkGroup | Family::SubGroup)
    })
}

/// Whether `f` (or a function it calls) reaches a sub-group barrier or
/// collective: sub-groups may take different paths to them, which regions
/// (run by every work-item of the group in turn) cannot follow.
pub fn uses_sub_group_sync(prog: &Program, f: FuncId) -> bool {
    reaches_builtin(prog, f, &|b| b.family == Family::SubGroup)
}

/// Whether `f` or a function it calls has a built-in call that `pred` accepts.
pub fn reaches_builtin(
    prog: &Program,
    f: FuncId,
    pred: &dyn Fn(&crate::sema::builtins::BuiltinFn) -> bool,
) -> bool {
    reachable(prog, f).into_iter().any(|func| {
        let mut found = false;
        if let Some(body) = &func.body {
            block_exprs(body, &mut |e| {
                if let ExprKind::Builtin(b, _) = &e.kind {
                    found = found || pred(b);
                }
            });
        }
        found
    })
}

/// `f` and every function it calls, directly or through others (the calls
/// its body makes now, after the HIR passes), each once, `f` first.
pub fn reachable(prog: &Program, f: FuncId) -> Vec<&Function> {
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    let mut out = Vec::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(func) = prog.functions.get(id.0 as usize) else {
            continue;
        };
        if let Some(body) = &func.body {
            block_exprs(body, &mut |e| {
                if let ExprKind::Call(c, _) = &e.kind {
                    stack.push(*c);
                }
            });
        }
        out.push(func);
    }
    out
}

/// Bytes of private memory a work-item of `f` may need in memory: every
/// private array, record or address-taken variable of `f` and of every
/// function it reaches (an over-estimate: frames are summed, not maximised).
pub fn private_bytes(prog: &Program, f: FuncId) -> u64 {
    let mut seen = HashSet::new();
    let mut stack = vec![f];
    let mut total = 0u64;
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(func) = prog.functions.get(id.0 as usize) else {
            continue;
        };
        let addressed = address_taken_locals(func);
        for (i, l) in func.locals.iter().enumerate() {
            let in_memory = matches!(
                l.ty,
                crate::sema::types::Type::Record(_) | crate::sema::types::Type::Array(..)
            ) || l.address_taken
                || addressed.contains(&(i as u32));
            if l.space == crate::sema::addrspace::AddrSpace::Private && in_memory {
                total = total.saturating_add(prog.records.size_of(&l.ty).unwrap_or(0));
            }
        }
        stack.extend(func.callees.iter().copied());
    }
    total
}

/// Locals written (assigned, incremented) or whose address escapes.
pub fn written_locals(f: &Function) -> HashSet<u32> {
    fn root(e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Var(VarRef::Local(l)) => Some(l.0),
            ExprKind::Member(a, _) | ExprKind::Swizzle(a, _) => root(a),
            _ => None,
        }
    }
    let mut set = HashSet::new();
    if let Some(b) = &f.body {
        block_exprs(b, &mut |e| match &e.kind {
            ExprKind::Assign { lhs: a, .. }
            | ExprKind::IncDec { operand: a, .. }
            | ExprKind::AddrOf(a) => {
                if let Some(l) = root(a) {
                    set.insert(l);
                }
            }
            ExprKind::Cast(CastKind::ArrayToPointer, a) => {
                if let Some(l) = root(a) {
                    set.insert(l);
                }
            }
            _ => {}
        });
    }
    set
}

/// Whether the work-items' local ids must be stored in the `ItemState`:
/// a function call (whose body may ask for them), a built-in of the
/// library, or a work-item function with a dimension that is not a constant.
pub fn needs_item_ids(f: &Function) -> bool {
    let mut needed = false;
    if let Some(b) = &f.body {
        block_exprs(b, &mut |e| match &e.kind {
            ExprKind::Call(..) => needed = true,
            ExprKind::Builtin(b, args) if b.family == Family::WorkItem => {
                let constant = |a: &Expr| match &a.kind {
                    ExprKind::IntConst(_) => true,
                    ExprKind::Cast(_, inner) => matches!(inner.kind, ExprKind::IntConst(_)),
                    _ => false,
                };
                if !args.iter().all(constant) {
                    needed = true;
                }
            }
            ExprKind::Builtin(b, _) if b.family != Family::Sync => needed = true,
            _ => {}
        });
    }
    needed
}

/// Private variables of `f` declared without an initialiser (`int x;`).
pub fn uninitialised_locals(f: &Function) -> HashSet<u32> {
    fn visit(s: &Stmt, f: &Function, out: &mut HashSet<u32>) {
        match &s.kind {
            StmtKind::Decl(l, None) => {
                let private = f
                    .locals
                    .get(l.0 as usize)
                    .is_some_and(|v| v.space == crate::sema::addrspace::AddrSpace::Private);
                if private {
                    out.insert(l.0);
                }
            }
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| visit(s, f, out)),
            StmtKind::If(_, t, e) => {
                visit(t, f, out);
                if let Some(e) = e {
                    visit(e, f, out);
                }
            }
            StmtKind::For(init, _, _, body) => {
                if let Some(i) = init {
                    visit(i, f, out);
                }
                visit(body, f, out);
            }
            StmtKind::While(_, b)
            | StmtKind::DoWhile(b, _)
            | StmtKind::Switch(_, b)
            | StmtKind::Case(_, b)
            | StmtKind::Default(b)
            | StmtKind::Label(_, b) => visit(b, f, out),
            _ => {}
        }
    }
    let mut out = HashSet::new();
    if let Some(b) = &f.body {
        b.stmts.iter().for_each(|s| visit(s, f, &mut out));
    }
    out
}

/// A counted loop `for (l = c0; l < c1; step)` with `step` `l++`, `++l` or
/// `l += c` (`c > 0`), or `l <= c1 - 1`: the local `l` and the range
/// `[c0, c1)` its value lies in throughout the body, when the body never
/// writes `l`, `l`'s address is never taken, nothing jumps into the body
/// (no label or `case` in it) and the step cannot wrap past the type's
/// largest value. Checked `bounds` needs no test of a subscript `a[l]` of
/// an array of at least `c1` elements there.
pub fn counted_loop(
    f: &Function,
    init: Option<&Stmt>,
    cond: Option<&Expr>,
    step: Option<&Expr>,
    body: &Stmt,
) -> Option<(u32, i128, i128)> {
    use crate::sema::hir::BinOp;
    use crate::sema::types::Type;
    let (l, c0) = match &init?.kind {
        StmtKind::Decl(l, Some(Init::Expr(e))) => (l.0, int_value(e)?),
        StmtKind::Expr(Expr {
            kind: ExprKind::Assign {
                op: None, lhs, rhs, ..
            },
            ..
        }) => (local_var(lhs)?, int_value(rhs)?),
        _ => return None,
    };
    let local = f.locals.get(l as usize)?;
    if local.space != crate::sema::addrspace::AddrSpace::Private || local.address_taken {
        return None;
    }
    let Type::Scalar(s) = local.ty.clone() else {
        return None;
    };
    if !s.is_integer() {
        return None;
    }
    let bits = 8 * s.size() as u32;
    let max: i128 = if s.is_signed() {
        (1i128 << (bits - 1)) - 1
    } else {
        (1i128 << bits) - 1
    };
    let min: i128 = if s.is_signed() {
        -(1i128 << (bits - 1))
    } else {
        0
    };
    let c1 = match &cond?.kind {
        ExprKind::Binary(BinOp::Lt, a, b) if read_of(a) == Some(l) => int_value(b)?,
        ExprKind::Binary(BinOp::Le, a, b) if read_of(a) == Some(l) => int_value(b)? + 1,
        _ => return None,
    };
    let inc = match &step?.kind {
        ExprKind::IncDec {
            inc: true, operand, ..
        } if local_var(operand) == Some(l) => 1,
        ExprKind::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
            ..
        } if local_var(lhs) == Some(l) => int_value(rhs)?,
        _ => return None,
    };
    if inc <= 0 || c0 < min || c1 > max || c1 - 1 + inc > max {
        return None;
    }
    let mut clean = true;
    stmt_exprs(body, &mut |e| match &e.kind {
        ExprKind::Assign { lhs: a, .. } | ExprKind::IncDec { operand: a, .. }
            if root_local(a) == Some(l) =>
        {
            clean = false
        }
        _ => {}
    });
    clean &= !jumps_into(body) && !address_taken_locals(f).contains(&l);
    clean.then_some((l, c0, c1))
}

/// Whether `s` holds a label, `case` or `default` (a jump may enter it).
pub fn jumps_into(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Label(..) | StmtKind::Case(..) | StmtKind::Default(..) => true,
        StmtKind::Block(b) => b.stmts.iter().any(jumps_into),
        StmtKind::If(_, t, e) => jumps_into(t) || e.as_deref().is_some_and(jumps_into),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) => {
            jumps_into(b)
        }
        // A switch's own cases are its business, a label inside is not.
        StmtKind::Switch(_, b) => has_label(b),
        _ => false,
    }
}

fn has_label(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Label(..) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_label),
        StmtKind::If(_, t, e) => has_label(t) || e.as_deref().is_some_and(has_label),
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b) => has_label(b),
        _ => false,
    }
}

/// The local variable `e` names.
fn local_var(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Var(VarRef::Local(l)) => Some(l.0),
        _ => None,
    }
}

/// The local whose value `e` is: its read, possibly converted to a wider
/// integer type (which holds each non-negative value of the local's).
pub fn read_of(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Cast(CastKind::LvalueToRvalue, a) => local_var(a),
        ExprKind::Cast(CastKind::IntToInt, a) if widening(&a.ty, &e.ty) => read_of(a),
        _ => local_var(e),
    }
}

/// An integer conversion that keeps every value of `from` (or every
/// non-negative one, for a signed `from` going to a wider unsigned type).
fn widening(from: &crate::sema::types::Type, to: &crate::sema::types::Type) -> bool {
    use crate::sema::types::Type;
    match (from, to) {
        (Type::Scalar(a), Type::Scalar(b)) if a.is_integer() && b.is_integer() => {
            b.size() > a.size() || (b.size() == a.size() && a.is_signed() == b.is_signed())
        }
        _ => false,
    }
}

/// The values integer expression `e` can take, from its types alone: an
/// unsigned type narrower than 32 bits holds `[0, 2^bits)`, and a widening
/// conversion keeps its operand's values (`bins[c]` with a `uchar c`).
pub fn type_range(e: &Expr) -> Option<(i128, i128)> {
    use crate::sema::types::Type;
    let own = |t: &Type| match t {
        Type::Scalar(s) if s.is_integer() && !s.is_signed() && s.size() < 4 => {
            Some((0, 1i128 << (8 * s.size())))
        }
        _ => None,
    };
    match (&e.kind, &e.ty) {
        (ExprKind::Cast(CastKind::IntToInt, a), Type::Scalar(to)) => match &a.ty {
            Type::Scalar(from)
                if to.size() >= from.size() && (to.is_signed() || !from.is_signed()) =>
            {
                type_range(a).or_else(|| own(&e.ty))
            }
            _ => own(&e.ty),
        },
        _ => own(&e.ty),
    }
}

/// `a[i]`'s address `a + i` (or `i + a`) with `a` an array that decays:
/// `(a, i)`.
pub fn array_subscript(p: &Expr) -> Option<(&Expr, &Expr)> {
    let ExprKind::PtrAdd(x, y) = &p.kind else {
        return None;
    };
    let (ptr, idx) = if x.ty.is_pointer() { (x, y) } else { (y, x) };
    match &ptr.kind {
        ExprKind::Cast(CastKind::ArrayToPointer, a) => Some((a, idx)),
        _ => None,
    }
}

/// The value of an integer constant expression as the front end leaves it
/// (a constant, possibly converted).
pub fn int_value(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::IntConst(v) => Some(*v),
        ExprKind::Cast(CastKind::IntToInt, a) => {
            let v = int_value(a)?;
            // Only values every integer type of 32 bits or more holds.
            (0..=i128::from(i32::MAX)).contains(&v).then_some(v)
        }
        _ => None,
    }
}

/// The loads of a `for` loop's condition whose address is the same at every
/// evaluation: `*p` (a subscript `a[i]` too) as a direct operand of the
/// condition's comparison (so it is read at every evaluation, the first
/// included, never skipped by `&&`, `||` or `?:`), with `p` built only from
/// constants and locals that neither the loop (condition, step, body) writes
/// nor anyone takes the address of. Returns the `p`s. Checked `bounds` tests
/// such an address once before the loop: the loads themselves still happen
/// at every evaluation.
pub fn invariant_cond_loads<'e>(
    f: &Function,
    cond: &'e Expr,
    step: Option<&Expr>,
    body: &Stmt,
) -> Vec<&'e Expr> {
    use crate::sema::hir::BinOp;
    let ExprKind::Binary(
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne,
        a,
        b,
    ) = &cond.kind
    else {
        return Vec::new();
    };
    let mut written = HashSet::new();
    let mut note = |e: &Expr| {
        if let ExprKind::Assign { lhs: x, .. } | ExprKind::IncDec { operand: x, .. } = &e.kind {
            if let Some(l) = root_local(x) {
                written.insert(l);
            }
        }
    };
    stmt_exprs(body, &mut note);
    expr_tree(cond, &mut note);
    if let Some(s) = step {
        expr_tree(s, &mut note);
    }
    let addressed = address_taken_locals(f);
    let invariant = |p: &Expr| {
        built_from(p, &|l| {
            f.locals.get(l as usize).is_some_and(|v| {
                v.space == crate::sema::addrspace::AddrSpace::Private && !v.address_taken
            }) && !written.contains(&l)
                && !addressed.contains(&l)
        })
    };
    let mut out = Vec::new();
    for side in [a, b] {
        let e = value_of(side);
        if let ExprKind::Deref(p) = &e.kind {
            if invariant(p) && crate::sema::types::Type::is_scalar(&e.ty) {
                out.push(&**p);
            }
        }
    }
    out
}

/// A loop `for (...; k < b; k++)` (or `k += 1`, or `k += s` with `s` built
/// like `b` and `k` of at most 32 bits) whose body reads or writes elements
/// `p[k]` (or `p[x + k]` with a 64-bit `x` built like `b`) through pointers
/// `p` that do not change in it: checked `bounds` tests the whole range
/// `p[first k] .. p[b - 1]` of each such access once before the loop
/// (`FunctionCx::range_precheck`; with a step `s`, the elements the loop
/// reaches lie in it when `1 <= s` and `k` cannot wrap) and runs a copy of
/// the loop without those tests when it lies inside one object.
/// The loop qualifies when `k` is a private integer local nobody takes the
/// address of and the body does not write; the body stores only to such
/// locals (so no memory the bound reads changes), calls no function and no
/// built-in that writes memory or synchronises, holds no loop (only
/// innermost loops are copied) and no label; `b` is built from constants,
/// locals the body does not write, and at most one load at its top (a load
/// `walk::invariant_cond_loads` hoists).
pub struct RangeLoop<'e> {
    /// The counter `k`.
    pub var: u32,
    /// `b`, of `k`'s type.
    pub bound: &'e Expr,
    /// `s` of `k += s`, `None` for a step of one.
    pub step: Option<&'e Expr>,
    /// Each pointer `p` (built from constants and locals the body does not
    /// write), the `x` of `p[x + k]` if any, and the `p + k` address
    /// expressions of its accesses.
    pub ptrs: Vec<RangePtr<'e>>,
}

/// A pointer of a [`RangeLoop`], the offset its accesses add to `k`, and
/// those accesses.
pub type RangePtr<'e> = (&'e Expr, Option<&'e Expr>, Vec<*const Expr>);

/// The expression nodes a loop body may have to be copied by
/// [`range_loop`].
const RANGE_LOOP_NODES: usize = 400;

pub fn range_loop<'e>(
    f: &Function,
    cond: Option<&'e Expr>,
    step: Option<&'e Expr>,
    body: &'e Stmt,
) -> Option<RangeLoop<'e>> {
    use crate::sema::hir::{BinOp, CastKind};
    use crate::sema::types::Type;
    let ExprKind::Binary(BinOp::Lt, a, bound) = &cond?.kind else {
        return None;
    };
    let ExprKind::Cast(CastKind::LvalueToRvalue, kv) = &a.kind else {
        return None;
    };
    let k = local_var(kv)?;
    let local = f.locals.get(k as usize)?;
    let addressed = address_taken_locals(f);
    let plain = |l: u32| {
        f.locals.get(l as usize).is_some_and(|v| {
            v.space == crate::sema::addrspace::AddrSpace::Private && !v.address_taken
        }) && !addressed.contains(&l)
    };
    if !plain(k) || local.ty != a.ty || bound.ty != a.ty {
        return None;
    }
    let Type::Scalar(s) = &local.ty else {
        return None;
    };
    if !s.is_integer() {
        return None;
    }
    // The step: one, or an `s` checked below.
    let by: Option<&'e Expr> = match &step?.kind {
        ExprKind::IncDec {
            inc: true, operand, ..
        } if local_var(operand) == Some(k) => None,
        ExprKind::Assign {
            op: Some(BinOp::Add),
            lhs,
            rhs,
            ..
        } if local_var(lhs) == Some(k) => match int_value(rhs) {
            Some(1) => None,
            _ if rhs.ty == local.ty && s.size() <= 4 => Some(&**rhs),
            _ => return None,
        },
        _ => return None,
    };
    if jumps_into(body) || has_loop(body) {
        return None;
    }
    // What the body writes: private locals, never `k`; memory (stores,
    // atomics, `vstore`) only when the bound reads none.
    let (mut written, mut pure, mut stores, mut nodes) = (HashSet::new(), true, false, 0usize);
    stmt_exprs(body, &mut |e| {
        nodes += 1;
        match &e.kind {
            ExprKind::Assign { lhs: x, .. } | ExprKind::IncDec { operand: x, .. } => {
                match root_local(x) {
                    Some(l) if plain(l) && l != k => {
                        written.insert(l);
                    }
                    Some(l) if l == k || plain(l) => pure = false,
                    _ => stores = true,
                }
            }
            ExprKind::Call(..) => pure = false,
            ExprKind::Builtin(b, _) if reads_only(b) => {}
            ExprKind::Builtin(b, _)
                if matches!(
                    b.family,
                    crate::sema::builtins::Family::Atomic
                        | crate::sema::builtins::Family::AtomicC11
                ) || b.name.starts_with("vstore") =>
            {
                stores = true
            }
            ExprKind::Builtin(..) => pure = false,
            _ => {}
        }
    });
    let loads_bound = matches!(value_of(bound).kind, ExprKind::Deref(_));
    if !pure || stores && loads_bound || nodes > RANGE_LOOP_NODES {
        return None;
    }
    // Built from constants and locals the body leaves alone.
    let invariant = |p: &Expr| built_from(p, &|l| plain(l) && !written.contains(&l));
    let bound_ok = match &value_of(bound).kind {
        ExprKind::Deref(p) => invariant(p),
        _ => invariant(bound),
    };
    if !bound_ok || by.is_some_and(|s| !invariant(s) || read_of(s) == Some(k)) {
        return None;
    }
    // `x + k` of a 64-bit `x` built like the bound (no wrap), or `k`.
    let offset_of = |idx: &'e Expr| -> Option<Option<&'e Expr>> {
        if read_of(idx) == Some(k) {
            return Some(None);
        }
        let wide = |e: &Expr| matches!(&e.ty, Type::Scalar(t) if t.is_integer() && t.size() == 8);
        // A 64-bit sum, perhaps converted to the other 64-bit type.
        let idx = match &idx.kind {
            ExprKind::Cast(CastKind::IntToInt, a) if wide(idx) && wide(a) => &**a,
            _ => idx,
        };
        let ExprKind::Binary(BinOp::Add, x, y) = &idx.kind else {
            return None;
        };
        let wide = wide(idx);
        let (x, y) = if read_of(y) == Some(k) {
            (x, y)
        } else {
            (y, x)
        };
        (wide && read_of(y) == Some(k) && invariant(x) && read_of(x) != Some(k))
            .then_some(Some(&**x))
    };
    let mut ptrs: Vec<RangePtr<'e>> = Vec::new();
    stmt_exprs(body, &mut |e: &'e Expr| {
        let ExprKind::Deref(p) = &e.kind else {
            return;
        };
        let ExprKind::PtrAdd(x, y) = &p.kind else {
            return;
        };
        let (ptr, idx) = if x.ty.is_pointer() { (x, y) } else { (y, x) };
        let Some(offset) = offset_of(idx) else {
            return;
        };
        if !invariant(ptr) {
            return;
        }
        let key = |q: &Expr| match &q.kind {
            ExprKind::Cast(CastKind::LvalueToRvalue, v) => local_var(v),
            _ => None,
        };
        let p_at = &**p as *const Expr;
        match ptrs.iter_mut().find(|(q, o, _)| {
            o.is_none() && offset.is_none() && key(q).is_some() && key(q) == key(ptr)
        }) {
            Some((_, _, uses)) => uses.push(p_at),
            None => ptrs.push((&**ptr, offset, vec![p_at])),
        }
    });
    (!ptrs.is_empty()).then_some(RangeLoop {
        var: k,
        bound,
        step: by,
        ptrs,
    })
}

/// The array subscripts `a[i]` of a loop's `body` (`a` an array of `n`
/// elements) whose index is built from constants and locals that the loop
/// (`cond`, `step`, `body`) never writes and whose address nobody takes:
/// the same at every iteration. Each index expression once, with `n`. None
/// for a body that holds a loop (each loop level would copy the next) or
/// jumps into itself.
pub fn invariant_subscripts<'e>(
    f: &Function,
    cond: Option<&Expr>,
    step: Option<&Expr>,
    body: &'e Stmt,
) -> Vec<(&'e Expr, u64)> {
    use crate::sema::types::Type;
    if has_loop(body) || jumps_into(body) {
        return Vec::new();
    }
    let addressed = address_taken_locals(f);
    let mut written = HashSet::new();
    let mut note = |e: &Expr| match &e.kind {
        ExprKind::Assign { lhs: x, .. } | ExprKind::IncDec { operand: x, .. } => {
            if let Some(l) = root_local(x) {
                written.insert(l);
            }
        }
        _ => {}
    };
    stmt_exprs(body, &mut |e| expr_tree(e, &mut note));
    for e in cond.into_iter().chain(step) {
        expr_tree(e, &mut note);
    }
    declared_locals(body, &mut written);
    let invariant = |l: u32| {
        !written.contains(&l)
            && !addressed.contains(&l)
            && f.locals.get(l as usize).is_some_and(|v| {
                v.space == crate::sema::addrspace::AddrSpace::Private && !v.address_taken
            })
    };
    let mut out: Vec<(&'e Expr, u64)> = Vec::new();
    stmt_exprs(body, &mut |e: &'e Expr| {
        expr_tree(e, &mut |e: &'e Expr| {
            let Some((arr, idx)) = array_subscript(e) else {
                return;
            };
            let Type::Array(_, Some(n)) = &arr.ty else {
                return;
            };
            if idx.ty.is_integer()
                && int_value(idx).is_none()
                && built_from(idx, &invariant)
                && !out.iter().any(|(i, _)| std::ptr::eq(*i, idx))
            {
                out.push((idx, *n));
            }
        })
    });
    out
}

/// The locals `s` declares (nested statements included).
fn declared_locals(s: &Stmt, out: &mut HashSet<u32>) {
    match &s.kind {
        StmtKind::Decl(l, _) => {
            out.insert(l.0);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| declared_locals(s, out)),
        StmtKind::If(_, t, e) => {
            declared_locals(t, out);
            if let Some(e) = e {
                declared_locals(e, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Switch(_, b) => {
            declared_locals(b, out)
        }
        StmtKind::For(i, _, _, b) => {
            if let Some(i) = i {
                declared_locals(i, out);
            }
            declared_locals(b, out);
        }
        StmtKind::Case(_, b) | StmtKind::Default(b) | StmtKind::Label(_, b) => {
            declared_locals(b, out)
        }
        _ => {}
    }
}

/// Whether `p` is built only from constants, arithmetic, pointer additions,
/// value-keeping casts and locals `local` accepts (no load, no call).
fn built_from(p: &Expr, local: &dyn Fn(u32) -> bool) -> bool {
    let mut ok = true;
    expr_tree(p, &mut |e| match &e.kind {
        ExprKind::IntConst(_) | ExprKind::Binary(..) | ExprKind::PtrAdd(..) => {}
        ExprKind::Cast(CastKind::LvalueToRvalue | CastKind::IntToInt | CastKind::Bitcast, _) => {}
        ExprKind::Var(VarRef::Local(l)) => ok &= local(l.0),
        _ => ok = false,
    });
    ok
}

/// `e` without the reads and integer conversions around it.
fn value_of(mut e: &Expr) -> &Expr {
    while let ExprKind::Cast(CastKind::LvalueToRvalue | CastKind::IntToInt, x) = &e.kind {
        e = x;
    }
    e
}

/// Whether `s` holds a loop.
fn has_loop(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_loop),
        StmtKind::If(_, t, e) => has_loop(t) || e.as_deref().is_some_and(has_loop),
        StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => has_loop(b),
        _ => false,
    }
}

/// A built-in that neither writes memory nor synchronises: it only reads
/// its arguments (`vload*` reads through its pointer).
pub fn reads_only(b: &crate::sema::builtins::BuiltinFn) -> bool {
    use crate::sema::builtins::Family;
    match b.family {
        Family::WorkItem
        | Family::Integer
        | Family::Common
        | Family::Geometric
        | Family::Relational
        | Family::Convert { .. }
        | Family::Reinterpret
        | Family::Shuffle => true,
        Family::Math => !b.params.iter().any(|t| t.is_pointer()),
        Family::VectorLoadStore => b.name.starts_with("vload"),
        _ => false,
    }
}

// ---- mutable walks (the HIR rewrites of `tiles.rs` and `hir_inline.rs`) ----

/// The direct sub-expressions of `e`.
pub fn children(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    match &e.kind {
        ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Var(_) | ExprKind::Func(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Member(a, _)
        | ExprKind::Swizzle(a, _)
        | ExprKind::IncDec { operand: a, .. } => f(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::PtrCmp(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            f(a);
            f(b);
        }
        ExprKind::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::VectorLit(args) => {
            args.iter().for_each(f)
        }
    }
}

/// The direct sub-expressions of `e`, to change.
pub fn children_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    match &mut e.kind {
        ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Var(_) | ExprKind::Func(_) => {}
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Member(a, _)
        | ExprKind::Swizzle(a, _)
        | ExprKind::IncDec { operand: a, .. } => f(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::PtrCmp(_, a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::Assign { lhs: a, rhs: b, .. } => {
            f(a);
            f(b);
        }
        ExprKind::Cond(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::VectorLit(args) => {
            args.iter_mut().for_each(f)
        }
    }
}

/// The root expressions a statement holds itself (not its nested
/// statements'): a declaration's initialisers, conditions, a `for`'s test
/// and step, an expression statement, a returned value.
pub fn own_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Decl(_, Some(i)) => init_roots(i, f),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => f(c),
        StmtKind::Switch(c, _) => f(c),
        StmtKind::For(_, c, step, _) => [c, step].into_iter().flatten().for_each(f),
        _ => {}
    }
}

pub fn init_roots(i: &Init, f: &mut dyn FnMut(&Expr)) {
    match i {
        Init::Expr(e) => f(e),
        Init::Array(v) | Init::Struct(v) => v.iter().for_each(|i| init_roots(i, f)),
        Init::Union(_, i) => init_roots(i, f),
        Init::Zero => {}
    }
}

pub fn own_exprs_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    match &mut s.kind {
        StmtKind::Decl(_, Some(i)) => init_roots_mut(i, f),
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => f(c),
        StmtKind::Switch(c, _) => f(c),
        StmtKind::For(_, c, step, _) => [c, step].into_iter().flatten().for_each(f),
        _ => {}
    }
}

pub fn init_roots_mut(i: &mut Init, f: &mut dyn FnMut(&mut Expr)) {
    match i {
        Init::Expr(e) => f(e),
        Init::Array(v) | Init::Struct(v) => v.iter_mut().for_each(|i| init_roots_mut(i, f)),
        Init::Union(_, i) => init_roots_mut(i, f),
        Init::Zero => {}
    }
}

/// The program with each function `rewrite` returns a new version of
/// (given the function's index and itself) replaced, or `None` when it
/// returns none: the shape of the HIR passes that change a few functions
/// (`hir_inline`, `tiles`, `continues`), which copy the program only once
/// something changed.
pub fn rewrite_functions(
    prog: &Program,
    mut rewrite: impl FnMut(usize, &Function) -> Option<Function>,
) -> Option<Program> {
    let mut out: Option<Program> = None;
    for (i, f) in prog.functions.iter().enumerate() {
        if let Some(g) = rewrite(i, f) {
            out.get_or_insert_with(|| prog.clone()).functions[i] = g;
        }
    }
    out
}

/// [`rewrite_functions`] for a pass that rewrites each top-level statement
/// of a body in place (`rewrite` says whether it changed it): a function
/// is replaced when one of its statements changed (`continues`,
/// `contract`).
pub fn rewrite_statements(
    prog: &Program,
    mut rewrite: impl FnMut(&mut Stmt) -> bool,
) -> Option<Program> {
    rewrite_functions(prog, |_, f| {
        let mut body = f.body.clone()?;
        let mut changed = false;
        for s in &mut body.stmts {
            changed |= rewrite(s);
        }
        changed.then(|| Function {
            body: Some(body),
            ..f.clone()
        })
    })
}

/// `f` on each statement nested directly in the statement kind `kind`, in
/// order (a block's list, the arms of an `if`, a `for`'s first clause and
/// body, a loop's or label's body); `$iter` walks a block's list (`iter` or
/// `iter_mut`, as `kind` is borrowed).
macro_rules! each_sub_stmt {
    ($kind:expr, $f:ident, $iter:ident) => {
        match $kind {
            StmtKind::Block(b) => b.stmts.$iter().for_each($f),
            StmtKind::If(_, t, e) => {
                $f(t);
                if let Some(e) = e {
                    $f(e);
                }
            }
            StmtKind::For(init, _, _, b) => {
                if let Some(i) = init {
                    $f(i);
                }
                $f(b);
            }
            StmtKind::While(_, b)
            | StmtKind::DoWhile(b, _)
            | StmtKind::Switch(_, b)
            | StmtKind::Case(_, b)
            | StmtKind::Default(b)
            | StmtKind::Label(_, b) => $f(b),
            _ => {}
        }
    };
}

/// The statements nested directly in `s` (see `each_sub_stmt!`).
pub fn sub_stmts(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    each_sub_stmt!(&s.kind, f, iter)
}

/// The statements nested directly in `s`, to change.
pub fn sub_stmts_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Stmt)) {
    each_sub_stmt!(&mut s.kind, f, iter_mut)
}

/// Every root expression of `s` and its nested statements, to change.
pub fn stmt_exprs_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut Expr)) {
    sub_stmts_mut(s, &mut |t| stmt_exprs_mut(t, f));
    own_exprs_mut(s, f);
}
