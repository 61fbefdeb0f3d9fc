//! Register tiles: small private arrays indexed by constants become one
//! variable per element.
//!
//! Tuned kernels (CLBlast's GEMM) keep each work-item's tiles in small
//! private arrays (`float4 cpm[8]`) and index them only with the variables
//! of loops whose bounds are constants (`#pragma unroll` loops), so that a
//! compiler that unrolls them finds every subscript constant and keeps the
//! elements in registers. Codegen gives an array memory (a stack slot, or a
//! slice of the work-item's frame in the regions): every access is a load
//! or a store, and the lanes refuse a varying array. This pass rewrites a
//! function's HIR before code generation:
//!
//! 1. a `for (int i = C0; i < C1; i += C2)` loop (constants, at most
//!    [`MAX_TRIPS`] trips, `i` written only by its step, no `break`,
//!    `continue` or label of its own) whose variable appears in a
//!    subscript of a candidate array is unrolled: its body once per value
//!    of `i`, each read of `i` replaced by the value and the integer
//!    arithmetic on constants folded (`(_ni*2 + 1)*1 + _mi` → `3`);
//! 2. a candidate array — private, not a parameter, at most [`MAX_ELEMS`]
//!    scalar or vector elements — whose every use is a subscript by a
//!    constant within its bounds (not under `&`), declared in a block,
//!    becomes one local per element, which codegen keeps in Cranelift
//!    variables (and the lanes in lane values).
//!
//! A function where no array can be promoted is left as it was: the
//! unrolling is for the promotion only. Checked mode keeps the arrays (its
//! checks follow the memory accesses).

use crate::lower::walk::{
    children, children_mut, own_exprs, own_exprs_mut, stmt_exprs_mut, sub_stmts_mut,
};
use crate::sema::hir::{BinOp, CastKind};
use crate::sema::hir::{
    Block, Expr, ExprKind, Function, Init, Local, LocalId, Program, Stmt, StmtKind, ValueCat,
    VarRef,
};
use crate::sema::types::{AddrSpace, Scalar, Type};
use std::collections::{HashMap, HashSet};

/// Most trips of a loop this pass unrolls.
pub const MAX_TRIPS: i128 = 16;
/// Most elements of an array this pass promotes.
pub const MAX_ELEMS: u64 = 64;
/// Most HIR nodes (statements and expressions) of an unrolled loop.
const MAX_NODES: usize = 8192;

/// The program with its functions' register tiles promoted, or `None`
/// when no function has one.
pub(crate) fn promote(prog: &Program) -> Option<Program> {
    crate::lower::walk::rewrite_functions(prog, |_, f| promote_function(f))
}

/// `f` with its tiles promoted, or `None` when it has none.
fn promote_function(f: &Function) -> Option<Function> {
    let body = f.body.as_ref()?;
    let candidates: HashMap<u32, u64> = f
        .locals
        .iter()
        .enumerate()
        .skip(f.params.len())
        .filter_map(|(i, l)| Some((i as u32, candidate_len(l)?)))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let mut body = body.clone();
    for s in &mut body.stmts {
        unroll_stmt(s, &candidates);
    }
    let mut bad = HashSet::new();
    for s in &body.stmts {
        check_stmt(s, &candidates, &mut bad, true);
    }
    let promoted: Vec<u32> = {
        let mut v: Vec<u32> = candidates
            .keys()
            .copied()
            .filter(|a| !bad.contains(a))
            .collect();
        v.sort_unstable();
        v
    };
    if promoted.is_empty() {
        return None;
    }
    let mut g = f.clone();
    // Each promoted array's elements: element 0 takes the array's own id
    // (so that no local is left without a use, which the lanes would
    // still count as an array), the others new locals at the end.
    let mut elems: HashMap<u32, Promoted> = HashMap::new();
    for &a in &promoted {
        let l = &f.locals[a as usize];
        let elem = l.ty.array_elem().cloned().unwrap_or(Type::Error);
        let local = |k: u64| Local {
            name: format!("{}[{k}]", l.name),
            ty: elem.clone(),
            space: AddrSpace::Private,
            quals: l.quals,
            address_taken: false,
            span: l.span,
        };
        let mut ids = vec![LocalId(a)];
        for k in 1..candidates[&a] {
            g.locals.push(local(k));
            ids.push(LocalId(g.locals.len() as u32 - 1));
        }
        g.locals[a as usize] = local(0);
        elems.insert(a, Promoted { elem, ids });
    }
    rewrite_block(&mut body, &elems);
    g.body = Some(body);
    Some(g)
}

/// The element count of a private array of scalars or vectors small enough
/// to promote.
fn candidate_len(l: &Local) -> Option<u64> {
    let Type::Array(elem, Some(n)) = &l.ty else {
        return None;
    };
    let scalar_or_vector = matches!(
        **elem,
        Type::Scalar(s) | Type::Vector(s, _) if s != Scalar::Bool && s != Scalar::Half
    );
    (l.space == AddrSpace::Private && scalar_or_vector && *n > 0 && *n <= MAX_ELEMS).then_some(*n)
}

/// `a[k]`'s array and subscript expression, when `e` is a subscript of a
/// local array (`Deref(PtrAdd(ArrayToPointer(a), k))`).
fn subscript(e: &Expr) -> Option<(u32, &Expr)> {
    let ExprKind::Deref(p) = &e.kind else {
        return None;
    };
    let ExprKind::PtrAdd(base, idx) = &p.kind else {
        return None;
    };
    let ExprKind::Cast(CastKind::ArrayToPointer, a) = &base.kind else {
        return None;
    };
    let ExprKind::Var(VarRef::Local(l)) = &a.kind else {
        return None;
    };
    Some((l.0, idx))
}

// ---- 1. unrolling ----

/// Unroll the loops of `s` (innermost first) that index a candidate.
fn unroll_stmt(s: &mut Stmt, candidates: &HashMap<u32, u64>) {
    match &mut s.kind {
        StmtKind::Block(b) => b.stmts.iter_mut().for_each(|s| unroll_stmt(s, candidates)),
        StmtKind::If(_, t, e) => {
            unroll_stmt(t, candidates);
            if let Some(e) = e {
                unroll_stmt(e, candidates);
            }
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => unroll_stmt(b, candidates),
        StmtKind::For(_, _, _, body) => unroll_stmt(body, candidates),
        _ => return,
    }
    if let Some(copies) = unrolled(s, candidates) {
        s.kind = StmtKind::Block(Block { stmts: copies });
    }
}

/// The copies of the body of the `for` loop `s`, one per value of its
/// variable, when the loop qualifies (see the module comment).
fn unrolled(s: &Stmt, candidates: &HashMap<u32, u64>) -> Option<Vec<Stmt>> {
    let StmtKind::For(Some(init), Some(cond), Some(step), body) = &s.kind else {
        return None;
    };
    // `int i = C0` (sema wraps a declaration in a block).
    let decl = match &init.kind {
        StmtKind::Block(b) if b.stmts.len() == 1 => &b.stmts[0],
        _ => &**init,
    };
    let StmtKind::Decl(var, Some(Init::Expr(start))) = &decl.kind else {
        return None;
    };
    let Type::Scalar(vs) = var_type(s, *var)? else {
        return None;
    };
    if !vs.is_integer() || vs == Scalar::Bool {
        return None;
    }
    let start = const_int(start)?;
    let (op, bound) = loop_test(cond, *var)?;
    let stride = loop_step(step, *var)?;
    let mut values = Vec::new();
    let mut v = start;
    while compare(op, v, bound)? {
        if values.len() as i128 >= MAX_TRIPS || !fits(v, vs) {
            return None;
        }
        values.push(v);
        v += stride;
    }
    if values.is_empty()
        || !indexes_candidate(body, var.0, candidates)
        || writes_or_escapes(body, var.0)
        || own_jumps(body, true)
        || size(body).saturating_mul(values.len()) > MAX_NODES
    {
        return None;
    }
    let mut copies = Vec::with_capacity(values.len());
    for v in values {
        let mut c = (**body).clone();
        substitute_stmt(&mut c, var.0, v);
        if mentions(&c, var.0) {
            return None;
        }
        copies.push(c);
    }
    Some(copies)
}

/// The type of the loop variable `var` (its declaration's initialiser is
/// converted to it; the test reads it).
fn var_type(s: &Stmt, var: LocalId) -> Option<Type> {
    let StmtKind::For(_, Some(cond), _, _) = &s.kind else {
        return None;
    };
    let mut ty = None;
    walk_expr(cond, &mut |e| {
        if let ExprKind::Cast(CastKind::LvalueToRvalue, a) = &e.kind {
            if matches!(a.kind, ExprKind::Var(VarRef::Local(l)) if l == var) {
                ty = Some(e.ty.clone());
            }
        }
    });
    ty
}

/// `i < N` (or `<=`, `>`, `>=`, `!=`) with `i` the loop variable (read,
/// perhaps converted) and `N` constant.
fn loop_test(cond: &Expr, var: LocalId) -> Option<(BinOp, i128)> {
    let ExprKind::Binary(op, l, r) = &cond.kind else {
        return None;
    };
    if !matches!(
        op,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne
    ) {
        return None;
    }
    let mut inner = &**l;
    while let ExprKind::Cast(CastKind::IntToInt, a) = &inner.kind {
        // Only conversions that keep every value of the variable.
        let (Type::Scalar(to), Type::Scalar(from)) = (&inner.ty, &a.ty) else {
            return None;
        };
        let (to_bits, from_bits) = (int_bits(&inner.ty)?, int_bits(&a.ty)?);
        let keeps = match (from.is_signed(), to.is_signed()) {
            (true, true) | (false, false) => to_bits >= from_bits,
            (false, true) => to_bits > from_bits,
            (true, false) => false,
        };
        if !keeps {
            return None;
        }
        inner = a;
    }
    is_read_of(inner, var).then_some(())?;
    Some((*op, const_int(r)?))
}

/// `i++`, `++i`, `i--`, `--i`, `i += C`, `i -= C`: the stride.
fn loop_step(step: &Expr, var: LocalId) -> Option<i128> {
    match &step.kind {
        ExprKind::IncDec { inc, operand, .. } if is_var(operand, var) => {
            Some(if *inc { 1 } else { -1 })
        }
        ExprKind::Assign {
            op: Some(op @ (BinOp::Add | BinOp::Sub)),
            lhs,
            rhs,
            ..
        } if is_var(lhs, var) => {
            let c = const_int(rhs)?;
            Some(if *op == BinOp::Add { c } else { -c })
        }
        _ => None,
    }
    .filter(|&s| s != 0)
}

fn compare(op: BinOp, a: i128, b: i128) -> Option<bool> {
    Some(match op {
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        BinOp::Ne => a != b,
        _ => return None,
    })
}

fn is_var(e: &Expr, var: LocalId) -> bool {
    matches!(e.kind, ExprKind::Var(VarRef::Local(l)) if l == var)
}

fn is_read_of(e: &Expr, var: LocalId) -> bool {
    matches!(&e.kind, ExprKind::Cast(CastKind::LvalueToRvalue, a) if is_var(a, var))
}

/// Whether a subscript of a candidate array in `s` reads `var`.
fn indexes_candidate(s: &Stmt, var: u32, candidates: &HashMap<u32, u64>) -> bool {
    let mut found = false;
    crate::lower::walk::stmt_exprs(s, &mut |e| {
        if let Some((a, idx)) = subscript(e) {
            if candidates.contains_key(&a) {
                walk_expr(idx, &mut |x| {
                    found |= matches!(x.kind, ExprKind::Var(VarRef::Local(l)) if l.0 == var)
                });
            }
        }
    });
    found
}

/// Whether `s` assigns, increments or takes the address of `var`.
fn writes_or_escapes(s: &Stmt, var: u32) -> bool {
    let mut found = false;
    let is = |e: &Expr| matches!(e.kind, ExprKind::Var(VarRef::Local(l)) if l.0 == var);
    crate::lower::walk::stmt_exprs(s, &mut |e| match &e.kind {
        ExprKind::Assign { lhs: a, .. }
        | ExprKind::IncDec { operand: a, .. }
        | ExprKind::AddrOf(a) => found |= is(a),
        _ => {}
    });
    found
}

/// Whether `s` has a `break` or `continue` that would leave or restart the
/// loop whose body it is (`top`: not inside a nested loop), or any label
/// or `goto` (copies would repeat the label).
fn own_jumps(s: &Stmt, top: bool) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => top,
        StmtKind::Goto(_) | StmtKind::Label(..) => true,
        StmtKind::Block(b) => b.stmts.iter().any(|s| own_jumps(s, top)),
        StmtKind::If(_, t, e) => {
            own_jumps(t, top) || e.as_deref().is_some_and(|e| own_jumps(e, top))
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) => {
            own_jumps(b, false)
        }
        // A `break` in a switch leaves the switch, a `continue` the loop:
        // either way, keep the loop.
        StmtKind::Switch(_, b) | StmtKind::Case(_, b) | StmtKind::Default(b) => own_jumps(b, top),
        _ => false,
    }
}

/// Statements and expressions in `s`.
fn size(s: &Stmt) -> usize {
    let mut n = 0;
    count_stmts(s, &mut n);
    crate::lower::walk::stmt_exprs(s, &mut |_| n += 1);
    n
}

fn count_stmts(s: &Stmt, n: &mut usize) {
    *n += 1;
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| count_stmts(s, n)),
        StmtKind::If(_, t, e) => {
            count_stmts(t, n);
            if let Some(e) = e {
                count_stmts(e, n);
            }
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => count_stmts(b, n),
        _ => {}
    }
}

/// Whether `var` still appears in `s`.
fn mentions(s: &Stmt, var: u32) -> bool {
    let mut found = matches!(&s.kind, StmtKind::Decl(l, _) if l.0 == var);
    crate::lower::walk::stmt_exprs(s, &mut |e| {
        found |= matches!(e.kind, ExprKind::Var(VarRef::Local(l)) if l.0 == var)
    });
    found
}

/// Replace each read of `var` in `s` by `value`, then fold.
fn substitute_stmt(s: &mut Stmt, var: u32, value: i128) {
    stmt_exprs_mut(s, &mut |e| substitute(e, var, value));
}

fn substitute(e: &mut Expr, var: u32, value: i128) {
    if let ExprKind::Cast(CastKind::LvalueToRvalue, a) = &e.kind {
        if matches!(a.kind, ExprKind::Var(VarRef::Local(l)) if l.0 == var) {
            e.kind = ExprKind::IntConst(value);
            e.cat = ValueCat::RValue;
            return;
        }
    }
    children_mut(e, &mut |c| substitute(c, var, value));
    fold(e);
}

/// Fold `e` when it is integer arithmetic or a conversion on constants
/// whose result the type holds (signed overflow and division by zero are
/// left alone).
fn fold(e: &mut Expr) {
    let Type::Scalar(s) = e.ty else { return };
    if !s.is_integer() || s == Scalar::Bool {
        return;
    }
    let v = match &e.kind {
        ExprKind::Cast(CastKind::IntToInt, a) => match (&a.kind, &a.ty) {
            (ExprKind::IntConst(v), Type::Scalar(f)) if f.is_integer() && *f != Scalar::Bool => {
                Some(wrap(*v, s))
            }
            _ => None,
        },
        ExprKind::Binary(op, a, b) => match (&a.kind, &b.kind) {
            (ExprKind::IntConst(x), ExprKind::IntConst(y)) => arith(*op, *x, *y, s),
            _ => None,
        },
        _ => None,
    };
    if let Some(v) = v {
        e.kind = ExprKind::IntConst(v);
    }
}

/// `x op y` in the integer type `s` (both operands already of it).
fn arith(op: BinOp, x: i128, y: i128, s: Scalar) -> Option<i128> {
    let bits = (s.size() * 8) as u32;
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.checked_mul(y)?,
        BinOp::Div if y != 0 => x / y,
        BinOp::Rem if y != 0 => x % y,
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        // OpenCL C 6.3.j: the shift count is taken modulo the width.
        BinOp::Shl => x.checked_shl((y.rem_euclid(bits as i128)) as u32)?,
        BinOp::Shr => x >> (y.rem_euclid(bits as i128)) as u32,
        _ => return None,
    };
    if s.is_signed() {
        fits(r, s).then_some(r)
    } else {
        Some(wrap(r, s))
    }
}

/// Whether the integer type `s` holds `v`.
fn fits(v: i128, s: Scalar) -> bool {
    wrap(v, s) == v
}

/// `v` converted to the integer type `s` (modulo its width).
fn wrap(v: i128, s: Scalar) -> i128 {
    let bits = s.size() * 8;
    let m = v.rem_euclid(1i128 << bits);
    if s.is_signed() && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}

fn int_bits(t: &Type) -> Option<u64> {
    match t {
        Type::Scalar(s) if s.is_integer() && *s != Scalar::Bool => Some(s.size() * 8),
        _ => None,
    }
}

/// The value of an integer constant expression (after folding).
fn const_int(e: &Expr) -> Option<i128> {
    let mut e = e.clone();
    fold_tree(&mut e);
    match e.kind {
        ExprKind::IntConst(v) if int_bits(&e.ty).is_some() => Some(v),
        _ => None,
    }
}

fn fold_tree(e: &mut Expr) {
    children_mut(e, &mut fold_tree);
    fold(e);
}

// ---- 2. promotion ----

/// Mark in `bad` every candidate used other than by a constant subscript
/// within bounds, or declared other than as a statement of a block
/// (`in_block`).
fn check_stmt(s: &Stmt, candidates: &HashMap<u32, u64>, bad: &mut HashSet<u32>, in_block: bool) {
    match &s.kind {
        StmtKind::Decl(l, init) if candidates.contains_key(&l.0) => {
            let simple = match init {
                None | Some(Init::Zero) => true,
                Some(Init::Array(items)) => items
                    .iter()
                    .all(|i| matches!(i, Init::Expr(_) | Init::Zero)),
                Some(_) => false,
            };
            if !in_block || !simple {
                bad.insert(l.0);
            }
        }
        StmtKind::Block(b) => {
            for s in &b.stmts {
                check_stmt(s, candidates, bad, true);
            }
            return;
        }
        StmtKind::If(_, t, e) => {
            check_stmt(t, candidates, bad, false);
            if let Some(e) = e {
                check_stmt(e, candidates, bad, false);
            }
        }
        StmtKind::For(init, _, _, b) => {
            if let Some(i) = init {
                check_stmt(i, candidates, bad, false);
            }
            check_stmt(b, candidates, bad, false);
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => check_stmt(b, candidates, bad, false),
        _ => {}
    }
    // The statement's own expressions (not those of nested statements,
    // visited above).
    own_exprs(s, &mut |e| check_expr(e, candidates, bad));
}

fn check_expr(e: &Expr, candidates: &HashMap<u32, u64>, bad: &mut HashSet<u32>) {
    if let Some((a, idx)) = subscript(e) {
        if let Some(&n) = candidates.get(&a) {
            if !const_int(idx).is_some_and(|k| (0..n as i128).contains(&k)) {
                bad.insert(a);
            }
            check_expr(idx, candidates, bad);
            return;
        }
    }
    match &e.kind {
        ExprKind::Var(VarRef::Local(l)) => {
            if candidates.contains_key(&l.0) {
                bad.insert(l.0);
            }
        }
        ExprKind::AddrOf(a) => {
            if let Some((arr, _)) = subscript(a) {
                bad.insert(arr);
            }
            check_expr(a, candidates, bad);
        }
        _ => children(e, &mut |c| check_expr(c, candidates, bad)),
    }
}

/// A promoted array: its element type and the locals of its elements.
struct Promoted {
    elem: Type,
    ids: Vec<LocalId>,
}

/// The initialiser of a zero `elem` (a scalar or a vector), as an
/// expression: the lanes take `Init::Zero` one lane at a time.
fn zero(elem: &Type, span: crate::source::Span) -> Init {
    let scalar = |s: Scalar| {
        let ty = Type::Scalar(s);
        if s.is_float() {
            Expr::rvalue(ExprKind::FloatConst(0.0), ty, span)
        } else {
            Expr::int(0, ty, span)
        }
    };
    Init::Expr(match elem {
        Type::Vector(s, _) => Expr::rvalue(
            ExprKind::Cast(CastKind::VectorSplat, Box::new(scalar(*s))),
            elem.clone(),
            span,
        ),
        Type::Scalar(s) => scalar(*s),
        _ => return Init::Zero,
    })
}

/// Replace the promoted arrays' declarations and subscripts in `b`.
fn rewrite_block(b: &mut Block, elems: &HashMap<u32, Promoted>) {
    let stmts = std::mem::take(&mut b.stmts);
    for mut s in stmts {
        if let StmtKind::Decl(l, init) = &s.kind {
            if let Some(p) = elems.get(&l.0) {
                for (k, id) in p.ids.iter().enumerate() {
                    let init = match init {
                        None => None,
                        Some(Init::Array(items)) => Some(match items.get(k) {
                            Some(Init::Expr(e)) => Init::Expr(e.clone()),
                            _ => zero(&p.elem, s.span),
                        }),
                        Some(_) => Some(zero(&p.elem, s.span)),
                    };
                    let mut d = Stmt {
                        kind: StmtKind::Decl(*id, init),
                        span: s.span,
                    };
                    own_exprs_mut(&mut d, &mut |e| rewrite_expr(e, elems));
                    b.stmts.push(d);
                }
                continue;
            }
        }
        rewrite_stmt(&mut s, elems);
        b.stmts.push(s);
    }
}

fn rewrite_stmt(s: &mut Stmt, elems: &HashMap<u32, Promoted>) {
    if let StmtKind::Block(b) = &mut s.kind {
        return rewrite_block(b, elems);
    }
    sub_stmts_mut(s, &mut |t| rewrite_stmt(t, elems));
    own_exprs_mut(s, &mut |e| rewrite_expr(e, elems));
}

fn rewrite_expr(e: &mut Expr, elems: &HashMap<u32, Promoted>) {
    if let Some((a, idx)) = subscript(e) {
        if let (Some(p), Some(k)) = (elems.get(&a), const_int(idx)) {
            let id = p.ids[k as usize];
            e.kind = ExprKind::Var(VarRef::Local(id));
            e.cat = ValueCat::LValue;
            e.space = AddrSpace::Private;
            return;
        }
    }
    children_mut(e, &mut |c| rewrite_expr(c, elems));
}

// ---- traversal ----

fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    crate::lower::walk::expr_tree(e, &mut |x| f(x));
}
