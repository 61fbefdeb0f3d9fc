//! Small records in one integer: a private struct or union variable whose
//! fields are all integers, at most 8 bytes in all, that its function only
//! declares without an initialiser, assigns field by field in statements of
//! their own, and reads field by field, becomes one unsigned integer
//! variable (`uint` up to 4 bytes, `ulong` up to 8). A field read is a
//! shift and a mask of it, a field assignment clears the field's bits and
//! ors the new ones in (the fields' bytes where the record's layout puts
//! them, little-endian as the device is).
//!
//! hashcat takes its 64-bit words apart and puts them together through
//! such a union (`vconv64_t`: a `u64`, two `u32`, four `u16`, eight `u8`).
//! Codegen gives a record memory (a stack slot), and the lanes refuse a
//! private record that differs between work-items; as one integer it lives
//! in a register, and SHA-512's kernels run in the lanes.
//!
//! Anything else done with the variable (its address, a whole-record copy
//! or initialiser, an assignment whose value is used, a compound
//! assignment) keeps it a record. Checked mode keeps records as written (its
//! `uninit` check follows their bytes).

use super::walk::{
    children, children_mut, own_exprs, own_exprs_mut, rewrite_functions, sub_stmts, sub_stmts_mut,
};
use crate::sema::hir::{
    BinOp, Block, CastKind, Expr, ExprKind, Function, Init, LocalId, Program, Stmt, StmtKind,
    ValueCat, VarRef,
};
use crate::sema::types::{AddrSpace, Records, Scalar, Type};
use std::collections::HashMap;

/// Most bytes of a record this pass puts in one integer.
pub const MAX_BYTES: u64 = 8;

/// The program with its functions' small records as integers, or `None`
/// when no function has one.
pub(crate) fn promote(prog: &Program) -> Option<Program> {
    rewrite_functions(prog, |_, f| promote_function(&prog.records, f))
}

/// Every field of `ty` (a record) is an integer, or a record of integers,
/// with no bit-field, and it fits in [`MAX_BYTES`].
fn integer_record(records: &Records, ty: &Type) -> bool {
    fn fields_ok(records: &Records, ty: &Type) -> bool {
        match ty {
            Type::Scalar(s) => s.is_integer() && *s != Scalar::Bool,
            Type::Record(id) => {
                let def = records.get(*id);
                def.complete
                    && def
                        .fields
                        .iter()
                        .all(|f| f.bits.is_none() && fields_ok(records, &f.ty))
            }
            _ => false,
        }
    }
    matches!(ty, Type::Record(_))
        && records.size_of(ty).is_some_and(|n| n > 0 && n <= MAX_BYTES)
        && fields_ok(records, ty)
}

/// The variable, byte offset and type of the field an lvalue chain of
/// members designates (`v.v32.a`), when it is an integer field of a local.
fn field_of(records: &Records, e: &Expr) -> Option<(u32, u64, Scalar)> {
    fn chain(records: &Records, e: &Expr) -> Option<(u32, u64, Type)> {
        match &e.kind {
            ExprKind::Var(VarRef::Local(l)) => Some((l.0, 0, e.ty.clone())),
            ExprKind::Member(base, i) => {
                let (l, off, ty) = chain(records, base)?;
                let Type::Record(id) = ty else { return None };
                let f = records.get(id).fields.get(*i)?;
                Some((l, off + f.offset, f.ty.clone()))
            }
            _ => None,
        }
    }
    match chain(records, e)? {
        (l, off, Type::Scalar(s)) if s.is_integer() && s != Scalar::Bool => Some((l, off, s)),
        _ => None,
    }
}

/// Drops from `cands` every candidate `e` uses other than by a field read.
fn scan_expr(records: &Records, e: &Expr, cands: &mut HashMap<u32, Type>) {
    match &e.kind {
        ExprKind::Cast(CastKind::LvalueToRvalue, inner)
            if field_of(records, inner).is_some_and(|(l, ..)| cands.contains_key(&l)) => {}
        ExprKind::Var(VarRef::Local(l)) => {
            cands.remove(&l.0);
        }
        _ => children(e, &mut |c| scan_expr(records, c, cands)),
    }
}

/// A statement `v.f = e;` of a candidate: the field and `e`.
fn field_assignment<'s>(records: &Records, s: &'s Stmt) -> Option<((u32, u64, Scalar), &'s Expr)> {
    let StmtKind::Expr(Expr {
        kind: ExprKind::Assign {
            op: None, lhs, rhs, ..
        },
        ..
    }) = &s.kind
    else {
        return None;
    };
    Some((field_of(records, lhs)?, rhs))
}

fn scan_stmt(records: &Records, s: &Stmt, cands: &mut HashMap<u32, Type>) {
    match &s.kind {
        StmtKind::Decl(l, None) if cands.contains_key(&l.0) => {}
        StmtKind::Decl(l, Some(_)) => {
            cands.remove(&l.0);
            own_exprs(s, &mut |e| scan_expr(records, e, cands));
        }
        _ => match field_assignment(records, s) {
            Some(((l, ..), rhs)) if cands.contains_key(&l) => scan_expr(records, rhs, cands),
            _ => own_exprs(s, &mut |e| scan_expr(records, e, cands)),
        },
    }
    sub_stmts(s, &mut |t| scan_stmt(records, t, cands));
}

/// `f` with its small records as integers, or `None` when it has none.
fn promote_function(records: &Records, f: &Function) -> Option<Function> {
    let body = f.body.as_ref()?;
    let mut cands: HashMap<u32, Type> = f
        .locals
        .iter()
        .enumerate()
        .skip(f.params.len())
        .filter(|(_, l)| {
            l.space == AddrSpace::Private && !l.address_taken && integer_record(records, &l.ty)
        })
        .map(|(i, l)| {
            let wide = records.size_of(&l.ty).is_some_and(|n| n > 4);
            (i as u32, if wide { Type::ULONG } else { Type::UINT })
        })
        .collect();
    if cands.is_empty() {
        return None;
    }
    for s in &body.stmts {
        scan_stmt(records, s, &mut cands);
    }
    if cands.is_empty() {
        return None;
    }
    let mut g = f.clone();
    for (l, ty) in &cands {
        g.locals[*l as usize].ty = ty.clone();
    }
    let rw = Rewrite {
        records,
        cands: &cands,
    };
    let mut out = Block {
        stmts: body.stmts.clone(),
    };
    out.stmts.iter_mut().for_each(|s| rw.stmt(s));
    g.body = Some(out);
    Some(g)
}

struct Rewrite<'a> {
    records: &'a Records,
    cands: &'a HashMap<u32, Type>,
}

impl Rewrite<'_> {
    fn stmt(&self, s: &mut Stmt) {
        let span = s.span;
        if let StmtKind::Decl(l, None) = &s.kind {
            if let Some(ty) = self.cands.get(&l.0) {
                // Zero, so that assigning one field leaves defined bits.
                s.kind = StmtKind::Decl(*l, Some(Init::Expr(Expr::int(0, ty.clone(), span))));
                return;
            }
        }
        if let Some(((l, off, field), rhs)) = field_assignment(self.records, s) {
            if let Some(ty) = self.cands.get(&l) {
                let mut rhs = rhs.clone();
                self.expr(&mut rhs);
                let value = self.insert(l, ty, off, field, rhs, span);
                let lhs = var(l, ty, span);
                s.kind = StmtKind::Expr(Expr::rvalue(
                    ExprKind::Assign {
                        op: None,
                        op_ty: ty.clone(),
                        lhs: Box::new(lhs),
                        rhs: Box::new(value),
                    },
                    ty.clone(),
                    span,
                ));
                return;
            }
        }
        own_exprs_mut(s, &mut |e| self.expr(e));
        sub_stmts_mut(s, &mut |t| self.stmt(t));
    }

    fn expr(&self, e: &mut Expr) {
        if let ExprKind::Cast(CastKind::LvalueToRvalue, inner) = &e.kind {
            if let Some((l, off, field)) = field_of(self.records, inner) {
                if let Some(ty) = self.cands.get(&l) {
                    *e = self.extract(l, ty, off, field, e.span);
                    return;
                }
            }
        }
        children_mut(e, &mut |c| self.expr(c));
    }

    /// Field `field` at byte `off` of variable `l` (of type `ty`).
    fn extract(
        &self,
        l: u32,
        ty: &Type,
        off: u64,
        field: Scalar,
        span: crate::source::Span,
    ) -> Expr {
        let whole = read(l, ty, span);
        let shifted = binary(
            BinOp::Shr,
            whole,
            Expr::int(8 * off as i128, ty.clone(), span),
        );
        let masked = binary(
            BinOp::BitAnd,
            shifted,
            Expr::int(mask(field), ty.clone(), span),
        );
        cast(masked, Type::Scalar(field))
    }

    /// Variable `l` with field `field` at byte `off` replaced by `value`.
    fn insert(
        &self,
        l: u32,
        ty: &Type,
        off: u64,
        field: Scalar,
        value: Expr,
        span: crate::source::Span,
    ) -> Expr {
        let bits = cast(value, ty.clone());
        let bits = binary(
            BinOp::BitAnd,
            bits,
            Expr::int(mask(field), ty.clone(), span),
        );
        let bits = binary(
            BinOp::Shl,
            bits,
            Expr::int(8 * off as i128, ty.clone(), span),
        );
        let width = if *ty == Type::ULONG { 64 } else { 32 };
        let keep = !(mask(field) << (8 * off)) & ((1i128 << width) - 1);
        let kept = binary(
            BinOp::BitAnd,
            read(l, ty, span),
            Expr::int(keep, ty.clone(), span),
        );
        binary(BinOp::BitOr, kept, bits)
    }
}

/// The bits of a field of type `s`.
fn mask(s: Scalar) -> i128 {
    (1i128 << (8 * s.size())) - 1
}

fn var(l: u32, ty: &Type, span: crate::source::Span) -> Expr {
    Expr {
        kind: ExprKind::Var(VarRef::Local(LocalId(l))),
        ty: ty.clone(),
        cat: ValueCat::LValue,
        space: AddrSpace::Private,
        quals: crate::sema::types::Quals::NONE,
        span,
    }
}

fn read(l: u32, ty: &Type, span: crate::source::Span) -> Expr {
    Expr::rvalue(
        ExprKind::Cast(CastKind::LvalueToRvalue, Box::new(var(l, ty, span))),
        ty.clone(),
        span,
    )
}

fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
    let (ty, span) = (a.ty.clone(), a.span);
    Expr::rvalue(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, span)
}

fn cast(e: Expr, to: Type) -> Expr {
    if e.ty == to {
        return e;
    }
    let span = e.span;
    Expr::rvalue(ExprKind::Cast(CastKind::IntToInt, Box::new(e)), to, span)
}
