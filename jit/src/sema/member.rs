//! Subscripts, member access and swizzles (spec 6.1.7): `a[i]` as `*(a + i)`,
//! `s.f` / `p->f` through anonymous members, `v.xyzw` / `v.s01` / `v.lo`
//! resolved to lane lists (lvalues when the vector is one and no lane repeats).
#![forbid(unsafe_code)]

use super::conv::cast;
use super::hir::{CastKind, Expr, ExprKind};
use super::types::{is_vector_width, Scalar, Type};
use super::Checker;
use crate::parse::ast::{self, BinaryOp};
use crate::source::Span;

impl Checker<'_> {
    pub(super) fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> Expr {
        let b = self.expr(base);
        // v[i] on a vector: constant lane (clang's extension)
        if b.ty.is_vector() {
            let i = self.value(index);
            let n = b.ty.width();
            return match self.const_int(&i) {
                Some(k) if k >= 0 && (k as u8) < n => self.swizzle_of(b, vec![k as u8], span),
                Some(_) => {
                    self.error(index.span, "vector index out of range");
                    Expr::error(span)
                }
                // v[i], i not constant: *((elem *)&v + i), on an lvalue vector.
                None if i.ty.is_integer() && b.is_lvalue() => {
                    let elem = b.ty.elem().unwrap_or(Scalar::Int);
                    self.mark_address_taken(&b);
                    let (space, quals) = (b.space, b.quals);
                    let vp = Type::ptr(b.ty.clone(), space, quals);
                    let addr = Expr::rvalue(ExprKind::AddrOf(Box::new(b)), vp, span);
                    let ep = Type::ptr(Type::Scalar(elem), space, quals);
                    let p = cast(addr, CastKind::Bitcast, ep);
                    let sum = self.pointer_binary(BinaryOp::Add, p, i, span);
                    self.deref(sum, span)
                }
                None if i.ty.is_integer() => {
                    self.error(index.span, "a vector value that is not a variable may only be subscripted with a constant index");
                    Expr::error(span)
                }
                None => {
                    self.error(index.span, "array subscript is not an integer");
                    Expr::error(span)
                }
            };
        }
        let b = self.rvalue(b);
        let i = self.value(index);
        if b.ty.is_error() || i.ty.is_error() {
            return Expr::error(span);
        }
        let (p, i) = if b.ty.is_pointer() { (b, i) } else { (i, b) };
        if p.ty.is_pointer() && !i.ty.is_integer() {
            self.error(index.span, "array subscript is not an integer");
            return Expr::error(span);
        }
        if !p.ty.is_pointer() || !i.ty.is_integer() {
            self.error(
                span,
                "subscripted value is not an array, pointer, or vector",
            );
            return Expr::error(span);
        }
        let sum = self.pointer_binary(BinaryOp::Add, p, i, span);
        if sum.ty.is_error() {
            return sum;
        }
        self.deref(sum, span)
    }

    fn swizzle_of(&mut self, base: Expr, lanes: Vec<u8>, span: Span) -> Expr {
        let elem = base.ty.elem().unwrap_or(Scalar::Int);
        let ty = Type::vec_or_scalar(elem, lanes.len() as u8);
        let cat = base.cat;
        let (space, quals) = (base.space, base.quals);
        Expr {
            kind: ExprKind::Swizzle(Box::new(base), lanes),
            ty,
            cat,
            space,
            quals,
            span,
        }
    }

    // s.f, p->f, v.xyz / v.s01 / v.lo (spec 6.1.7)
    pub(super) fn member(
        &mut self,
        base: &ast::Expr,
        member: &crate::source::Spanned<String>,
        arrow: bool,
        span: Span,
    ) -> Expr {
        let mut b = self.expr(base);
        if b.ty.is_error() {
            return b;
        }
        // Diagnostics point at the `.` or `->`, as clang's do.
        let at = self.op_span(base.span, member.span, member.span);
        if arrow {
            let p = self.rvalue(b);
            if !matches!(&p.ty, Type::Pointer(pt) if pt.ty.is_record()) {
                let msg = format!(
                    "member reference type {} is not a pointer to a structure or union",
                    self.ty_str(&p.ty)
                );
                self.error(at, msg);
                return Expr::error(span);
            }
            b = self.deref(p, span);
        }
        match &b.ty {
            Type::Record(r) => {
                let r = *r;
                match self.find_field(r, &member.node) {
                    Some(path) => {
                        let mut cur = b;
                        for i in path {
                            let f = &self
                                .prog
                                .records
                                .get(match &cur.ty {
                                    Type::Record(r) => *r,
                                    _ => r,
                                })
                                .fields[i];
                            let ty = f.ty.clone();
                            let (cat, space) = (cur.cat, cur.space);
                            let mut quals = cur.quals;
                            quals.konst |= f.konst;
                            cur = Expr {
                                kind: ExprKind::Member(Box::new(cur), i),
                                ty,
                                cat,
                                space,
                                quals,
                                span,
                            };
                        }
                        cur
                    }
                    None => {
                        let msg = format!(
                            "no member named '{}' in {}",
                            member.node,
                            self.ty_str(&b.ty)
                        );
                        self.error(at, msg);
                        Expr::error(span)
                    }
                }
            }
            Type::Vector(_, n) => {
                let n = *n;
                match self.swizzle_lanes(&member.node, n, at, &b.ty) {
                    Some(lanes) => self.swizzle_of(b, lanes, span),
                    None => Expr::error(span),
                }
            }
            _ => {
                let msg = format!(
                    "member reference base type {} is not a structure or union",
                    self.ty_str(&b.ty)
                );
                self.error(at, msg);
                Expr::error(span)
            }
        }
    }

    /// The field indices leading to `name`, through anonymous members.
    fn find_field(&self, r: super::types::RecordId, name: &str) -> Option<Vec<usize>> {
        let def = self.prog.records.get(r);
        for (i, f) in def.fields.iter().enumerate() {
            if f.name.as_deref() == Some(name) {
                return Some(vec![i]);
            }
            if f.name.is_none() {
                if let Type::Record(inner) = f.ty {
                    if let Some(mut p) = self.find_field(inner, name) {
                        p.insert(0, i);
                        return Some(p);
                    }
                }
            }
        }
        None
    }

    /// Lanes named by a swizzle: `xyzw`/`rgba` (first four), `s0`–`sF`,
    /// `lo`, `hi`, `even`, `odd`.
    fn swizzle_lanes(&mut self, name: &str, n: u8, span: Span, ty: &Type) -> Option<Vec<u8>> {
        let storage = if n == 3 { 4 } else { n };
        let lanes: Vec<u8> = match name {
            "lo" => (0..storage / 2).collect(),
            "hi" => (storage / 2..storage).collect(),
            "even" => (0..storage).step_by(2).collect(),
            "odd" => (1..storage).step_by(2).collect(),
            _ if name.starts_with(['s', 'S']) && name.len() > 1 => {
                let mut v = Vec::new();
                for c in name[1..].chars() {
                    let Some(d) = c.to_digit(16) else {
                        self.error(span, format!("illegal vector component name '{c}'"));
                        return None;
                    };
                    v.push(d as u8);
                }
                v
            }
            _ => {
                let xyzw = name.chars().all(|c| "xyzw".contains(c));
                let rgba = name.chars().all(|c| "rgba".contains(c));
                if !xyzw && !rgba {
                    let bad = name
                        .chars()
                        .find(|c| !"xyzwrgba".contains(*c))
                        .unwrap_or('?');
                    self.error(span, format!("illegal vector component name '{bad}'"));
                    return None;
                }
                let set = if xyzw { "xyzw" } else { "rgba" };
                name.chars()
                    .map(|c| set.find(c).unwrap_or(0) as u8)
                    .collect()
            }
        };
        let lo_hi = matches!(name, "lo" | "hi" | "even" | "odd");
        if lanes.iter().any(|&l| l >= n) && !(lo_hi && n == 3) {
            let msg = format!("vector component access exceeds type {}", self.ty_str(ty));
            self.error(span, msg);
            return None;
        }
        let w = lanes.len() as u8;
        if w != 1 && !is_vector_width(w) {
            self.error(span, format!("vector swizzle of length {w} is invalid"));
            return None;
        }
        Some(lanes)
    }
}
