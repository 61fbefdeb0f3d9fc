//! Operators (C99 6.5.5–6.5.17, spec 6.3): arithmetic with the usual
//! conversions extended to vectors, shifts, comparisons and logical operators
//! (vector results are signed -1/0 masks), pointer arithmetic and comparison
//! across address spaces, assignment and compound assignment, `?:`.
#![forbid(unsafe_code)]

use super::conv::{cast, promote, Ctx};
use super::hir::{BinOp, CastKind, Expr, ExprKind, UnOp};
use super::types::{Pointee, Type};
use super::Checker;
use crate::parse::ast::{self, BinaryOp};
use crate::source::Span;
use std::sync::Arc;

impl Checker<'_> {
    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Expr {
        if op == BinaryOp::Comma {
            let l = self.value(lhs);
            let r = self.value(rhs);
            let ty = r.ty.clone();
            return Expr::rvalue(ExprKind::Comma(Box::new(l), Box::new(r)), ty, span);
        }
        let l = self.value(lhs);
        let r = self.value(rhs);
        self.binary_values(op, l, r, span)
    }

    pub fn binop(op: BinaryOp) -> BinOp {
        match op {
            BinaryOp::Mul => BinOp::Mul,
            BinaryOp::Div => BinOp::Div,
            BinaryOp::Rem => BinOp::Rem,
            BinaryOp::Add => BinOp::Add,
            BinaryOp::Sub => BinOp::Sub,
            BinaryOp::Shl => BinOp::Shl,
            BinaryOp::Shr => BinOp::Shr,
            BinaryOp::Lt => BinOp::Lt,
            BinaryOp::Gt => BinOp::Gt,
            BinaryOp::Le => BinOp::Le,
            BinaryOp::Ge => BinOp::Ge,
            BinaryOp::Eq => BinOp::Eq,
            BinaryOp::Ne => BinOp::Ne,
            BinaryOp::BitAnd => BinOp::BitAnd,
            BinaryOp::BitXor => BinOp::BitXor,
            BinaryOp::BitOr => BinOp::BitOr,
            BinaryOp::LogAnd | BinaryOp::Comma => BinOp::LogAnd,
            BinaryOp::LogOr => BinOp::LogOr,
        }
    }

    /// `l op r` on rvalues; also the operation of `l op= r`.
    pub fn binary_values(&mut self, op: BinaryOp, l: Expr, r: Expr, span: Span) -> Expr {
        // Diagnostics point at the operator, as clang's do.
        let at = self.op_span(l.span, r.span, span);
        if l.ty.is_error() || r.ty.is_error() {
            return Expr::error(span);
        }
        let bop = Self::binop(op);
        use BinaryOp as B;
        // Pointer arithmetic and comparison (C99 6.5.6, 6.5.8, 6.5.9).
        if l.ty.is_pointer() || r.ty.is_pointer() {
            return self.pointer_binary(op, l, r, span);
        }
        if !self.half_ok(&l.ty, span) || !self.half_ok(&r.ty, span) {
            return Expr::error(span);
        }
        let invalid = |c: &mut Self, l: &Expr, r: &Expr| {
            let msg = format!(
                "invalid operands to binary expression ({} and {})",
                c.ty_str(&l.ty),
                c.ty_str(&r.ty)
            );
            c.error(at, msg);
            Expr::error(span)
        };
        if !l.ty.is_arithmetic() || !r.ty.is_arithmetic() {
            return invalid(self, &l, &r);
        }
        match op {
            // a << b: the type of the promoted left operand (spec 6.3.j)
            B::Shl | B::Shr => {
                if !l.ty.is_integer_like() || !r.ty.is_integer_like() {
                    return invalid(self, &l, &r);
                }
                let ty = match &l.ty {
                    Type::Scalar(s) => Type::Scalar(promote(*s)),
                    t => t.clone(),
                };
                if r.ty.is_vector() && (!ty.is_vector() || r.ty.width() != ty.width()) {
                    return invalid(self, &l, &r);
                }
                let rt = match (&ty, &r.ty) {
                    (Type::Vector(e, n), Type::Scalar(_)) => Type::Vector(*e, *n),
                    (_, Type::Scalar(s)) => Type::Scalar(promote(*s)),
                    (_, t) => t.clone(),
                };
                let l = self.arith_convert(l, &ty);
                let r = self.arith_convert(r, &rt);
                Expr::rvalue(ExprKind::Binary(bop, Box::new(l), Box::new(r)), ty, span)
            }
            // a && b on scalars: short-circuit, int result
            B::LogAnd | B::LogOr if !l.ty.is_vector() && !r.ty.is_vector() => Expr::rvalue(
                ExprKind::Binary(bop, Box::new(l), Box::new(r)),
                Type::INT,
                span,
            ),
            _ => {
                let Some((l, r, ty)) = self.usual_arith(l, r, op.as_str(), at) else {
                    return Expr::error(span);
                };
                if matches!(op, B::Div | B::Rem) && ty.is_integer() && self.const_int(&r) == Some(0)
                {
                    let what = if op == B::Div {
                        "division"
                    } else {
                        "remainder"
                    };
                    self.warning(r.span, format!("{what} by zero is undefined"));
                }
                match op {
                    B::Rem | B::BitAnd | B::BitOr | B::BitXor if !ty.is_integer_like() => {
                        invalid(self, &l, &r)
                    }
                    B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne | B::LogAnd | B::LogOr => {
                        let rt = Self::bool_result(&ty);
                        Expr::rvalue(ExprKind::Binary(bop, Box::new(l), Box::new(r)), rt, span)
                    }
                    _ => Expr::rvalue(ExprKind::Binary(bop, Box::new(l), Box::new(r)), ty, span),
                }
            }
        }
    }

    pub(super) fn pointer_binary(&mut self, op: BinaryOp, l: Expr, r: Expr, span: Span) -> Expr {
        let at = self.op_span(l.span, r.span, span);
        use BinaryOp as B;
        let invalid = |c: &mut Self, l: &Expr, r: &Expr| {
            let msg = format!(
                "invalid operands to binary expression ({} and {})",
                c.ty_str(&l.ty),
                c.ty_str(&r.ty)
            );
            c.error(at, msg);
            Expr::error(span)
        };
        match op {
            // p + i, i + p, p - i
            B::Add | B::Sub
                if l.ty.is_pointer() && r.ty.is_integer()
                    || (op == B::Add && r.ty.is_pointer() && l.ty.is_integer()) =>
            {
                let (p, i) = if l.ty.is_pointer() { (l, r) } else { (r, l) };
                // void *p + n steps bytes (GNU C, as clang accepts): done on char *.
                if let Some(pt) = p.ty.pointee().filter(|pt| pt.ty.is_void()) {
                    let vp = p.ty.clone();
                    let cp = Type::ptr(Type::CHAR, pt.space, pt.quals);
                    let p = cast(p, CastKind::Bitcast, cp);
                    let sum = self.pointer_binary(op, p, i, span);
                    return cast(sum, CastKind::Bitcast, vp);
                }
                if let Some(pt) = p.ty.pointee() {
                    if self.prog.records.size_of(&pt.ty).is_none() && !pt.ty.is_error() {
                        let msg = format!(
                            "arithmetic on a pointer to an incomplete type {}",
                            self.ty_str(&pt.ty)
                        );
                        self.error(at, msg);
                        return Expr::error(span);
                    }
                }
                let ty = p.ty.clone();
                let i = self.arith_convert(i, &Type::LONG);
                let i = if op == B::Sub {
                    Expr::rvalue(ExprKind::Unary(UnOp::Neg, Box::new(i)), Type::LONG, span)
                } else {
                    i
                };
                Expr::rvalue(ExprKind::PtrAdd(Box::new(p), Box::new(i)), ty, span)
            }
            // p - q
            B::Sub if l.ty.is_pointer() && r.ty.is_pointer() => {
                let (Some(a), Some(b)) = (l.ty.pointee(), r.ty.pointee()) else {
                    return invalid(self, &l, &r);
                };
                if a.ty != b.ty
                    || (a.space != b.space
                        && super::addrspace::implicit_conversion(a.space, b.space).is_err()
                        && super::addrspace::implicit_conversion(b.space, a.space).is_err())
                {
                    return invalid(self, &l, &r);
                }
                Expr::rvalue(
                    ExprKind::PtrDiff(Box::new(l), Box::new(r)),
                    Type::LONG,
                    span,
                )
            }
            // p < q, p == 0
            B::Lt | B::Gt | B::Le | B::Ge | B::Eq | B::Ne => {
                let (l, r) = if l.ty.is_pointer() && self.is_null_constant(&r) {
                    let t = l.ty.clone();
                    (l, cast(r, CastKind::NullToPointer, t))
                } else if r.ty.is_pointer() && self.is_null_constant(&l) {
                    let t = r.ty.clone();
                    (cast(l, CastKind::NullToPointer, t), r)
                } else if l.ty.is_pointer() && r.ty.is_pointer() {
                    let (a, b) = (l.ty.pointee().cloned(), r.ty.pointee().cloned());
                    let (Some(a), Some(b)) = (a, b) else {
                        return invalid(self, &l, &r);
                    };
                    if a.space != b.space {
                        // One side must convert to the other (generic).
                        if super::addrspace::implicit_conversion(a.space, b.space).is_ok() {
                            let t = r.ty.clone();
                            (self.assign_convert(l, &t, Ctx::Init), r)
                        } else if super::addrspace::implicit_conversion(b.space, a.space).is_ok() {
                            let t = l.ty.clone();
                            let r = self.assign_convert(r, &t, Ctx::Init);
                            (l, r)
                        } else {
                            let msg = format!("comparison between ({} and {}) which are pointers to non-overlapping address spaces", self.ty_str(&l.ty), self.ty_str(&r.ty));
                            self.error(at, msg);
                            return Expr::error(span);
                        }
                    } else {
                        (l, r)
                    }
                } else if l.ty.is_pointer() && self.is_null_constant(&r) {
                    let t = l.ty.clone();
                    (l, cast(r, CastKind::NullToPointer, t))
                } else if r.ty.is_pointer() && self.is_null_constant(&l) {
                    let t = r.ty.clone();
                    (cast(l, CastKind::NullToPointer, t), r)
                } else if l.ty.is_integer() || r.ty.is_integer() {
                    // p == 1: C accepts it with a warning.
                    let msg = format!(
                        "comparison between pointer and integer ({} and {})",
                        self.ty_str(&l.ty),
                        self.ty_str(&r.ty)
                    );
                    self.warning(span, msg);
                    if l.ty.is_pointer() {
                        let t = l.ty.clone();
                        (l, cast(r, CastKind::IntToPointer, t))
                    } else {
                        let t = r.ty.clone();
                        (cast(l, CastKind::IntToPointer, t), r)
                    }
                } else {
                    return invalid(self, &l, &r);
                };
                Expr::rvalue(
                    ExprKind::PtrCmp(Self::binop(op), Box::new(l), Box::new(r)),
                    Type::INT,
                    span,
                )
            }
            // p && q
            B::LogAnd | B::LogOr if l.ty.is_c_scalar() && r.ty.is_c_scalar() => Expr::rvalue(
                ExprKind::Binary(Self::binop(op), Box::new(l), Box::new(r)),
                Type::INT,
                span,
            ),
            _ => invalid(self, &l, &r),
        }
    }

    // a = b, a += b
    pub(super) fn assign(
        &mut self,
        op: Option<BinaryOp>,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Expr {
        let l = self.expr(lhs);
        let r = self.value(rhs);
        if l.ty.is_error() || r.ty.is_error() {
            return Expr::error(span);
        }
        let at = self.op_span(lhs.span, rhs.span, span);
        if !self.check_modifiable(&l, at) {
            return Expr::error(span);
        }
        let ty = l.ty.clone();
        match op {
            None => {
                self.init_site = Some(at);
                let r = self.assign_convert(r, &ty, Ctx::Assign);
                self.init_site = None;
                Expr::rvalue(
                    ExprKind::Assign {
                        op: None,
                        op_ty: ty.clone(),
                        lhs: Box::new(l),
                        rhs: Box::new(r),
                    },
                    ty,
                    span,
                )
            }
            Some(op) => {
                // The operation as `l op r` on l's value, then back to l's type.
                let lv = self.rvalue(l.clone());
                let res = self.binary_values(op, lv, r, span);
                if res.ty.is_error() {
                    return res;
                }
                let mut bop = Self::binop(op);
                let (op_ty, rhs) = match res.kind {
                    ExprKind::Binary(_, _, r) => (res.ty.clone(), *r),
                    // p -= n is p += (-n): the count is already negated.
                    ExprKind::PtrAdd(_, i) => {
                        bop = BinOp::Add;
                        (ty.clone(), *i)
                    }
                    _ => {
                        self.error(at, "invalid compound assignment");
                        return Expr::error(span);
                    }
                };
                if ty.is_vector() != op_ty.is_vector()
                    || (ty.is_vector() && op_ty.width() != ty.width())
                    || (ty.is_vector() && op_ty != ty)
                {
                    let msg = format!(
                        "assigning to {} from incompatible type {}",
                        self.ty_str(&ty),
                        self.ty_str(&op_ty)
                    );
                    self.error(at, msg);
                    return Expr::error(span);
                }
                Expr::rvalue(
                    ExprKind::Assign {
                        op: Some(bop),
                        op_ty,
                        lhs: Box::new(l),
                        rhs: Box::new(rhs),
                    },
                    ty,
                    span,
                )
            }
        }
    }

    // c ? a : b
    pub(super) fn conditional(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        else_: &ast::Expr,
        span: Span,
    ) -> Expr {
        let c = self.value(cond);
        let a = self.value(then);
        let b = self.value(else_);
        let at = self.op_span(cond.span, then.span, span);
        if c.ty.is_error() || a.ty.is_error() || b.ty.is_error() {
            return Expr::error(span);
        }
        // Vector condition: element-wise select (spec 6.3.i).
        if c.ty.is_vector() {
            if !c.ty.is_integer_like() {
                self.error(c.span, "used type where integer vector is required");
                return Expr::error(span);
            }
            let (a, b, ty) = match (&a.ty, &b.ty) {
                // Two scalar arms: their common type, unpromoted.
                (Type::Scalar(x), Type::Scalar(y))
                    if a.ty.is_arithmetic() && b.ty.is_arithmetic() =>
                {
                    let ty = Type::Scalar(super::conv::common_scalar_unpromoted(*x, *y));
                    (a, b, ty)
                }
                _ => match self.usual_arith(a, b, "?:", at) {
                    Some(x) => x,
                    None => return Expr::error(span),
                },
            };
            // Scalar arms are splatted to the condition's width.
            let (a, b, ty) = match &ty {
                Type::Scalar(s) => {
                    let vt = Type::Vector(*s, c.ty.width());
                    let a = self.arith_convert(a, &vt);
                    let b = self.arith_convert(b, &vt);
                    (a, b, vt)
                }
                _ => (a, b, ty),
            };
            if ty.width() != c.ty.width() {
                let msg = format!("vector condition type {} and result type {} do not have the same number of elements", self.ty_str(&c.ty), self.ty_str(&ty));
                self.error(at, msg);
                return Expr::error(span);
            }
            if ty.elem().map(|s| s.size()) != c.ty.elem().map(|s| s.size()) {
                let msg = format!("vector condition type {} and result type {} do not have elements of the same size", self.ty_str(&c.ty), self.ty_str(&ty));
                self.error(at, msg);
                return Expr::error(span);
            }
            return Expr::rvalue(
                ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                ty,
                span,
            );
        }
        let c = self.condition(c);
        let (a, b, ty) = if a.ty.is_arithmetic() && b.ty.is_arithmetic() {
            match self.usual_arith(a, b, "?:", at) {
                Some(x) => x,
                None => return Expr::error(span),
            }
        } else if a.ty == b.ty {
            let t = a.ty.clone();
            (a, b, t)
        } else if a.ty.is_pointer() && self.is_null_constant(&b) {
            let t = a.ty.clone();
            let b = cast(b, CastKind::NullToPointer, t.clone());
            (a, b, t)
        } else if b.ty.is_pointer() && self.is_null_constant(&a) {
            let t = b.ty.clone();
            let a = cast(a, CastKind::NullToPointer, t.clone());
            (a, b, t)
        } else if (a.ty.is_pointer() && b.ty.is_integer())
            || (b.ty.is_pointer() && a.ty.is_integer())
        {
            // c ? p : 1 — C accepts it with a warning; the result is the pointer.
            let msg = format!(
                "pointer/integer type mismatch in conditional expression ({} and {})",
                self.ty_str(&a.ty),
                self.ty_str(&b.ty)
            );
            self.warning(at, msg);
            let t = if a.ty.is_pointer() {
                a.ty.clone()
            } else {
                b.ty.clone()
            };
            let a = if a.ty.is_pointer() {
                a
            } else {
                cast(a, CastKind::IntToPointer, t.clone())
            };
            let b = if b.ty.is_pointer() {
                b
            } else {
                cast(b, CastKind::IntToPointer, t.clone())
            };
            (a, b, t)
        } else if let (Some(p), Some(q)) = (a.ty.pointee().cloned(), b.ty.pointee().cloned()) {
            // Pointers into different spaces meet in generic, if both convert.
            let space = if p.space == q.space {
                p.space
            } else if super::addrspace::implicit_conversion(p.space, q.space).is_ok() {
                q.space
            } else if super::addrspace::implicit_conversion(q.space, p.space).is_ok() {
                p.space
            } else {
                let msg = format!("conditional operator with the second and third operands of type ({} and {}) which are pointers to non-overlapping address spaces", self.ty_str(&a.ty), self.ty_str(&b.ty));
                self.error(at, msg);
                return Expr::error(span);
            };
            let ty = if p.ty == q.ty || q.ty.is_void() {
                p.ty.clone()
            } else if p.ty.is_void() {
                q.ty.clone()
            } else {
                self.warning(span, "pointer type mismatch in conditional expression");
                Type::Void
            };
            let t = Type::Pointer(Arc::new(Pointee {
                ty,
                space,
                quals: p.quals.union(q.quals),
            }));
            let a = self.assign_convert(a, &t, Ctx::Init);
            let b = self.assign_convert(b, &t, Ctx::Init);
            (a, b, t)
        } else {
            let msg = format!(
                "incompatible operand types ({} and {})",
                self.ty_str(&a.ty),
                self.ty_str(&b.ty)
            );
            self.error(at, msg);
            return Expr::error(span);
        };
        Expr::rvalue(
            ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            ty,
            span,
        )
    }

    // (T)e
}
