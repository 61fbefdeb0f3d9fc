//! Compound literals (C99 6.5.2.5): `(struct S){ .x = 1 }`, `(int[]){ 5, 6 }`.
//!
//! Inside a function a compound literal is an unnamed automatic object. It
//! becomes a hidden local, filled by assignments in the order the
//! initialiser lists them, so the HIR needs no new node:
//! `*((tmp.f0 = a, tmp.f1 = b, ...), &tmp)` — an lvalue, evaluated where the
//! literal is written.
#![forbid(unsafe_code)]

use super::conv::cast;
use super::decl::QualType;
use super::hir::{CastKind, Expr, ExprKind, Init};
use super::types::{AddrSpace, Pointee, Scalar, Type};
use super::Checker;
use crate::parse::ast;
use crate::source::Span;
use std::sync::Arc;

/// The most elements a compound literal is zero-filled with, one store each.
const MAX_ZERO_STORES: u64 = 1 << 12;

impl Checker<'_> {
    // (T){ init }
    pub(super) fn compound_literal(
        &mut self,
        t: &ast::TypeName,
        items: &[ast::InitItem],
        span: Span,
    ) -> Expr {
        let qt = self.type_name(t);
        if qt.ty.is_error() {
            return Expr::error(span);
        }
        if self.fx.is_none() {
            self.error(span, "compound literals at program scope are not supported");
            return Expr::error(span);
        }
        let list = ast::Initializer::List(items.to_vec(), span);
        let (ty, init) = self.initializer(&qt.ty, &list);
        let n = self.fx.as_ref().map_or(0, |f| f.func.locals.len());
        let local = QualType {
            ty: ty.clone(),
            space: None,
            quals: qt.quals,
            access: None,
        };
        let id = self.add_local(&format!(".compound.{n}"), span, &local, AddrSpace::Private);
        if let Some(fx) = self.fx.as_mut() {
            if let Some(l) = fx.func.locals.get_mut(id.0 as usize) {
                l.address_taken = true;
            }
        }
        let var = Expr {
            kind: ExprKind::Var(super::hir::VarRef::Local(id)),
            ty: ty.clone(),
            cat: super::hir::ValueCat::LValue,
            space: AddrSpace::Private,
            quals: super::types::Quals::NONE,
            span,
        };
        let mut assigns = Vec::new();
        self.init_assigns(var.clone(), &ty, &init, &mut assigns);
        let ptr_ty = Type::Pointer(Arc::new(Pointee {
            ty: ty.clone(),
            space: AddrSpace::Private,
            quals: qt.quals,
        }));
        let mut e = Expr::rvalue(ExprKind::AddrOf(Box::new(var)), ptr_ty, span);
        for a in assigns.into_iter().rev() {
            let t = e.ty.clone();
            e = Expr::rvalue(ExprKind::Comma(Box::new(a), Box::new(e)), t, span);
        }
        let mut d = self.deref(e, span);
        d.quals = qt.quals;
        d
    }

    /// Assignments that store `init` into the object `lv` of type `ty`.
    fn init_assigns(&mut self, lv: Expr, ty: &Type, init: &Init, out: &mut Vec<Expr>) {
        let span = lv.span;
        match init {
            Init::Expr(e) => out.push(assign(lv, e.clone(), ty)),
            Init::Zero => match ty {
                Type::Scalar(s) => {
                    let z = if s.is_float() {
                        Expr::rvalue(ExprKind::FloatConst(0.0), ty.clone(), span)
                    } else {
                        Expr::int(0, ty.clone(), span)
                    };
                    out.push(assign(lv, z, ty));
                }
                Type::Vector(s, _) => {
                    let z = Expr::int(0, Type::Scalar(*s), span);
                    let z = if s.is_float() {
                        cast(z, CastKind::IntToFloat, Type::Scalar(*s))
                    } else {
                        z
                    };
                    let z = cast(z, CastKind::VectorSplat, ty.clone());
                    out.push(assign(lv, z, ty));
                }
                Type::Pointer(_) => {
                    let z = cast(
                        Expr::int(0, Type::INT, span),
                        CastKind::NullToPointer,
                        ty.clone(),
                    );
                    out.push(assign(lv, z, ty));
                }
                Type::Array(e, Some(n)) => {
                    if *n > MAX_ZERO_STORES {
                        self.error(span, "compound literal too large to initialise");
                        return;
                    }
                    let e = (**e).clone();
                    for i in 0..*n {
                        let el = self.element(&lv, &e, i);
                        self.init_assigns(el, &e, &Init::Zero, out);
                    }
                }
                Type::Record(r) => {
                    let def = self.prog.records.get(*r);
                    let fields: Vec<Type> = if def.is_union {
                        def.fields
                            .first()
                            .map(|f| f.ty.clone())
                            .into_iter()
                            .collect()
                    } else {
                        def.fields.iter().map(|f| f.ty.clone()).collect()
                    };
                    for (i, ft) in fields.iter().enumerate() {
                        let m = member(&lv, i, ft);
                        self.init_assigns(m, ft, &Init::Zero, out);
                    }
                }
                _ => {}
            },
            Init::Array(items) => {
                let Some(e) = ty.array_elem().cloned() else {
                    return;
                };
                for (i, it) in items.iter().enumerate() {
                    let el = self.element(&lv, &e, i as u64);
                    self.init_assigns(el, &e, it, out);
                }
                // The elements not listed are zero.
                if let Type::Array(_, Some(n)) = ty {
                    let rest = n.saturating_sub(items.len() as u64);
                    if rest > MAX_ZERO_STORES {
                        self.error(span, "compound literal too large to initialise");
                        return;
                    }
                    for i in items.len() as u64..*n {
                        let el = self.element(&lv, &e, i);
                        self.init_assigns(el, &e, &Init::Zero, out);
                    }
                }
            }
            Init::Struct(items) => {
                let Type::Record(r) = ty else { return };
                let fields: Vec<Type> = self
                    .prog
                    .records
                    .get(*r)
                    .fields
                    .iter()
                    .map(|f| f.ty.clone())
                    .collect();
                for (i, (it, ft)) in items.iter().zip(&fields).enumerate() {
                    let m = member(&lv, i, ft);
                    self.init_assigns(m, ft, it, out);
                }
            }
            Init::Union(i, it) => {
                let Type::Record(r) = ty else { return };
                let Some(ft) = self
                    .prog
                    .records
                    .get(*r)
                    .fields
                    .get(*i)
                    .map(|f| f.ty.clone())
                else {
                    return;
                };
                let m = member(&lv, *i, &ft);
                self.init_assigns(m, &ft, it, out);
            }
        }
    }

    /// `lv[i]` for an array lvalue.
    fn element(&mut self, lv: &Expr, elem: &Type, i: u64) -> Expr {
        let p = self.rvalue(lv.clone());
        let ptr_ty = Type::ptr(elem.clone(), lv.space, lv.quals);
        let p = Expr {
            ty: ptr_ty.clone(),
            ..p
        };
        let idx = Expr::int(i128::from(i), Type::Scalar(Scalar::Long), lv.span);
        let sum = Expr::rvalue(
            ExprKind::PtrAdd(Box::new(p), Box::new(idx)),
            ptr_ty,
            lv.span,
        );
        self.deref(sum, lv.span)
    }
}

fn member(lv: &Expr, i: usize, ty: &Type) -> Expr {
    Expr {
        kind: ExprKind::Member(Box::new(lv.clone()), i),
        ty: ty.clone(),
        ..lv.clone()
    }
}

fn assign(lhs: Expr, rhs: Expr, ty: &Type) -> Expr {
    let span = lhs.span;
    Expr::rvalue(
        ExprKind::Assign {
            op: None,
            op_ty: ty.clone(),
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        ty.clone(),
        span,
    )
}
