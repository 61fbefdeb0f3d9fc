//! Conversions made explicit: lvalue reads, array decay, the usual
//! arithmetic conversions extended to vectors (spec 6.4), and assignment
//! conversions with their address-space rules (spec 6.7.9 / seeds).
#![forbid(unsafe_code)]

use super::addrspace::{implicit_conversion, AddrSpace, SpaceError};
use super::hir::{CastKind, Expr, ExprKind, ValueCat};
use super::types::{Pointee, Scalar, Type};
use super::Checker;
use crate::source::Span;
use std::sync::Arc;

/// Where an implicit conversion happens, for messages.
#[derive(Clone, Copy, Debug)]
pub enum Ctx<'s> {
    Init,
    Assign,
    Return,
    /// Argument `index` of a call to `name`.
    Arg(&'s str, usize),
}

impl Ctx<'_> {
    fn verb(self) -> &'static str {
        match self {
            Ctx::Init => "initializing",
            Ctx::Assign => "assigning to",
            Ctx::Return => "returning",
            Ctx::Arg(..) => "passing",
        }
    }
}

/// The kind of cast between two arithmetic scalar types.
pub fn scalar_cast_kind(from: Scalar, to: Scalar) -> CastKind {
    match (from.is_float(), to.is_float()) {
        _ if from == to => CastKind::NoOp,
        (false, false) => CastKind::IntToInt,
        (false, true) => CastKind::IntToFloat,
        (true, false) => CastKind::FloatToInt,
        (true, true) => CastKind::FloatToFloat,
    }
}

pub fn cast(e: Expr, kind: CastKind, ty: Type) -> Expr {
    let span = e.span;
    if kind == CastKind::NoOp && e.ty == ty && e.cat == ValueCat::RValue {
        return e;
    }
    Expr::rvalue(ExprKind::Cast(kind, Box::new(e)), ty, span)
}

/// The integer promotions (C99 6.3.1.1): ranks below `int` become `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::Int.rank() {
        Scalar::Int
    } else {
        s
    }
}

/// The common type of two arithmetic scalars (C99 6.3.1.8).
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    common_of(promote(a), promote(b))
}

/// The common type of two scalar arms of a `?:` with a vector condition:
/// the usual arithmetic conversions without the integer promotions, so
/// `char2 c ? char a : char b` is a `char2` (what clang does).
pub fn common_scalar_unpromoted(a: Scalar, b: Scalar) -> Scalar {
    common_of(a, b)
}

fn common_of(a: Scalar, b: Scalar) -> Scalar {
    match (a.is_float(), b.is_float()) {
        (true, true) => return if a.rank() >= b.rank() { a } else { b },
        (true, false) => return a,
        (false, true) => return b,
        (false, false) => {}
    }
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.size() > u.size() {
        s
    } else {
        s.to_unsigned()
    }
}

fn nested_spaces_differ(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Pointer(x), Type::Pointer(y)) => {
            x.space != y.space || nested_spaces_differ(&x.ty, &y.ty)
        }
        _ => false,
    }
}

impl Checker<'_> {
    /// Use an expression as a value: decay arrays, read lvalues.
    pub fn rvalue(&mut self, e: Expr) -> Expr {
        if e.cat == ValueCat::RValue {
            return e;
        }
        match &e.ty {
            Type::Array(elem, _) => {
                let p = Type::Pointer(Arc::new(Pointee {
                    ty: (**elem).clone(),
                    space: e.space,
                    quals: e.quals,
                }));
                self.mark_address_taken(&e);
                cast(e, CastKind::ArrayToPointer, p)
            }
            Type::Function(_) => e,
            t => {
                // Without cl_khr_fp16 a half is only moved by vload_half/vstore_half.
                if t.elem() == Some(Scalar::Half) && !self.opts.fp16 {
                    let msg = format!(
                        "loading directly from pointer to type {} requires cl_khr_fp16. Use vector data load builtin functions instead",
                        self.ty_str(t)
                    );
                    self.error(e.span, msg);
                    return Expr::error(e.span);
                }
                let t = t.clone();
                cast(e, CastKind::LvalueToRvalue, t)
            }
        }
    }

    /// Convert an arithmetic rvalue to another arithmetic type (no checks).
    pub fn arith_convert(&mut self, e: Expr, to: &Type) -> Expr {
        if e.ty == *to || e.ty.is_error() || to.is_error() {
            return e;
        }
        match (&e.ty, to) {
            (Type::Scalar(a), Type::Scalar(b)) => {
                let k = scalar_cast_kind(*a, *b);
                cast(e, k, to.clone())
            }
            (Type::Scalar(a), Type::Vector(b, _)) => {
                let (a, b) = (*a, *b);
                let e = if a != b {
                    let k = scalar_cast_kind(a, b);
                    cast(e, k, Type::Scalar(b))
                } else {
                    e
                };
                cast(e, CastKind::VectorSplat, to.clone())
            }
            (Type::Vector(a, n), Type::Vector(b, m)) if n == m => {
                let k = scalar_cast_kind(*a, *b);
                cast(e, k, to.clone())
            }
            (Type::Pointer(_), Type::Scalar(_)) => cast(e, CastKind::PointerToInt, to.clone()),
            _ => cast(e, CastKind::NoOp, to.clone()),
        }
    }

    /// `0`, `(void *)0`: a null pointer constant (C99 6.3.2.3).
    pub fn is_null_constant(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::IntConst(0) => e.ty.is_integer(),
            ExprKind::Cast(
                CastKind::Bitcast | CastKind::IntToPointer | CastKind::NullToPointer,
                inner,
            ) => {
                matches!(&e.ty, Type::Pointer(p) if p.ty.is_void()) && self.is_null_constant(inner)
            }
            ExprKind::Cast(CastKind::IntToInt, inner) => {
                e.ty.is_integer() && self.is_null_constant(inner)
            }
            _ => {
                e.ty.is_integer()
                    && self.const_ice(e) == Some(0)
                    && !matches!(e.kind, ExprKind::Var(_))
            }
        }
    }

    /// Implicit conversion of an rvalue as by assignment (C99 6.5.16.1),
    /// with OpenCL's rules: no implicit conversion between vector types, a
    /// scalar splats to a vector, pointers keep to their address space or
    /// become generic.
    pub fn assign_convert(&mut self, e: Expr, to: &Type, ctx: Ctx) -> Expr {
        // Where a bad conversion is reported: clang's place (the variable's
        // name for `T x = e;`, the `=` of an assignment), else the expression.
        let site = self.init_site.take();
        // (Compatible types of two linked units, C99 6.2.7, have one layout.)
        if e.ty.is_error() || to.is_error() || e.ty == *to || self.same_type(&e.ty, to) {
            return e;
        }
        let span = site.unwrap_or(e.span);
        match (&e.ty, to) {
            (Type::Scalar(from), Type::Scalar(into)) => {
                self.warn_constant_conversion(&e, *from, *into);
                self.arith_convert(e, to)
            }
            (Type::Scalar(_), Type::Vector(..)) => self.arith_convert(e, to),
            (Type::Scalar(s), Type::Event) if s.is_integer() && self.is_null_constant(&e) => {
                cast(e, CastKind::NullToPointer, Type::Event)
            }
            // constant sampler_t s = CLK_NORMALIZED_COORDS_FALSE | ...;
            (Type::Scalar(s), Type::Sampler) if s.is_integer() => {
                cast(e, CastKind::IntToInt, Type::Sampler)
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                cast(e, CastKind::PointerToInt, to.clone())
            }
            // `global int *p = NULL;`: a null pointer constant converts to
            // a pointer of any address space (`(void *)0` is a pointer to
            // private or generic memory, which would not).
            (Type::Pointer(_), Type::Pointer(_)) if self.is_null_constant(&e) => {
                cast(e, CastKind::NullToPointer, to.clone())
            }
            (Type::Pointer(p), Type::Pointer(q)) => {
                let (p, q) = (p.clone(), q.clone());
                self.pointer_convert(e, &p, &q, to, ctx, span)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                if self.is_null_constant(&e) {
                    return cast(e, CastKind::NullToPointer, to.clone());
                }
                let msg = format!(
                    "incompatible integer to pointer conversion {} {} from {}",
                    ctx.verb(),
                    self.ty_str(to),
                    self.ty_str(&e.ty)
                );
                self.warning(span, msg);
                cast(e, CastKind::IntToPointer, to.clone())
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                let msg = format!(
                    "incompatible pointer to integer conversion {} {} from {}",
                    ctx.verb(),
                    self.ty_str(to),
                    self.ty_str(&e.ty)
                );
                self.warning(span, msg);
                cast(e, CastKind::PointerToInt, to.clone())
            }
            _ => {
                let msg = match ctx {
                    Ctx::Arg(name, i) => format!(
                        "passing {} to parameter {} of '{name}' of incompatible type {}",
                        self.ty_str(&e.ty),
                        i + 1,
                        self.ty_str(to)
                    ),
                    Ctx::Return => format!(
                        "returning {} from a function with incompatible result type {}",
                        self.ty_str(&e.ty),
                        self.ty_str(to)
                    ),
                    _ => format!(
                        "{} {} with an expression of incompatible type {}",
                        ctx.verb(),
                        self.ty_str(to),
                        self.ty_str(&e.ty)
                    ),
                };
                self.error(span, msg);
                Expr::error(span)
            }
        }
    }

    /// clang's `-Wconstant-conversion`: an integer constant converted to a
    /// narrower integer type that cannot hold it. A value that fits the
    /// width when read as unsigned (`uchar c = -1`, `int x = 0x80000000`)
    /// is not warned about, as clang does not; a signed value converted to
    /// a signed type must fit its range.
    fn warn_constant_conversion(&mut self, e: &Expr, from: Scalar, into: Scalar) {
        if !from.is_integer() || !into.is_integer() || into == Scalar::Bool {
            return;
        }
        let Some(v) = self.const_ice(e) else { return };
        let bits = into.size() * 8;
        let fits = if !from.is_signed() {
            v < 1i128 << bits
        } else if into.is_signed() {
            -(1i128 << (bits - 1)) <= v && v < 1i128 << (bits - 1)
        } else {
            -(1i128 << (bits - 1)) <= v && v < 1i128 << bits
        };
        if fits {
            return;
        }
        // The value the conversion gives: the low `bits` bits, read in
        // `into`'s signedness.
        let low = v & ((1i128 << bits) - 1);
        let result = if into.is_signed() && low >= 1i128 << (bits - 1) {
            low - (1i128 << bits)
        } else {
            low
        };
        let msg = format!(
            "implicit conversion from {} to {} changes value from {v} to {result}",
            self.ty_str(&e.ty),
            self.ty_str(&Type::Scalar(into))
        );
        self.warning(e.span, msg);
    }

    /// Pointer to pointer: the address-space rule first (an error), then
    /// pointee compatibility and qualifiers (warnings, as in C).
    fn pointer_convert(
        &mut self,
        e: Expr,
        p: &Pointee,
        q: &Pointee,
        to: &Type,
        ctx: Ctx,
        span: Span,
    ) -> Expr {
        if let Err(err) = implicit_conversion(p.space, q.space) {
            self.space_error(span, err, &e.ty, to, ctx);
            return Expr::error(span);
        }
        // `int **pp = &g` with `global int *g`: the spaces of the inner
        // pointers must match exactly (no implicit conversion inside).
        if nested_spaces_differ(&p.ty, &q.ty) {
            let msg = format!(
                "{} {} with an expression of type {} changes address space of nested pointer",
                ctx.verb(),
                self.ty_str(to),
                self.ty_str(&e.ty)
            );
            self.error(span, msg);
            return Expr::error(span);
        }
        let compatible =
            p.ty == q.ty || p.ty.is_void() || q.ty.is_void() || p.ty.is_error() || q.ty.is_error();
        if !compatible {
            let msg = format!(
                "incompatible pointer types {} {} with an expression of type {}",
                ctx.verb(),
                self.ty_str(to),
                self.ty_str(&e.ty)
            );
            self.warning(span, msg);
        } else if !q.quals.contains(p.quals) {
            let msg = format!(
                "{} {} with an expression of type {} discards qualifiers",
                ctx.verb(),
                self.ty_str(to),
                self.ty_str(&e.ty)
            );
            self.warning(span, msg);
        }
        if p.space != q.space {
            // A named space to generic (spec 6.7.1: implicit, never from constant).
            let mid = Type::Pointer(Arc::new(Pointee {
                ty: p.ty.clone(),
                space: AddrSpace::Generic,
                quals: p.quals,
            }));
            let e = cast(e, CastKind::ToGeneric, mid);
            return cast(e, CastKind::Bitcast, to.clone());
        }
        cast(e, CastKind::Bitcast, to.clone())
    }

    /// Report a refused address-space conversion: clang's sentence, then
    /// the spec's rule as a note.
    pub fn space_error(&mut self, span: Span, err: SpaceError, from: &Type, to: &Type, ctx: Ctx) {
        let (fs, ts) = match (from, to) {
            (Type::Pointer(p), Type::Pointer(q)) => (p.space, q.space),
            _ => (AddrSpace::Private, AddrSpace::Private),
        };
        let msg = match ctx {
            Ctx::Arg(name, i) => format!(
                "passing {} to parameter {} of '{name}' of type {} changes address space of pointer",
                self.ty_str(from),
                i + 1,
                self.ty_str(to)
            ),
            _ => format!("{} {} with an expression of type {} changes address space of pointer", ctx.verb(), self.ty_str(to), self.ty_str(from)),
        };
        self.error(span, msg);
        self.note(span, err.message(fs, ts, false));
        if ts == AddrSpace::Private
            && !self.opts.generic_address_space
            && fs != AddrSpace::Private
            && self.opts.version >= 30
        {
            self.note(span, "pointers without an address space point to the private address space: the generic address space needs the __opencl_c_generic_address_space feature, which this device does not support");
        }
    }

    /// The usual arithmetic conversions for a binary operator, extended to
    /// vectors (spec 6.4.2 / 6.3): vector op vector needs equal types; a
    /// scalar is converted to the vector's element type and splatted, which
    /// is an error when the scalar has greater rank than the element.
    pub fn usual_arith(
        &mut self,
        l: Expr,
        r: Expr,
        op: &str,
        span: Span,
    ) -> Option<(Expr, Expr, Type)> {
        let (lt, rt) = (l.ty.clone(), r.ty.clone());
        let ty = match (&lt, &rt) {
            (Type::Scalar(a), Type::Scalar(b)) => Type::Scalar(common_scalar(*a, *b)),
            (Type::Vector(..), Type::Vector(..)) => {
                if lt != rt {
                    let msg = if lt.width() != rt.width() {
                        format!(
                            "cannot convert between vector values of different size ({} and {})",
                            self.ty_str(&lt),
                            self.ty_str(&rt)
                        )
                    } else {
                        format!(
                            "invalid operands to binary expression ({} and {})",
                            self.ty_str(&lt),
                            self.ty_str(&rt)
                        )
                    };
                    self.error(span, msg);
                    return None;
                }
                lt.clone()
            }
            (Type::Vector(e, _), Type::Scalar(s)) | (Type::Scalar(s), Type::Vector(e, _)) => {
                if !self.scalar_fits_vector(*s, *e) {
                    let (v, sc) = if lt.is_vector() {
                        (&lt, &rt)
                    } else {
                        (&rt, &lt)
                    };
                    let msg = format!("scalar operand type has greater rank than the type of the vector element. ({} and {})", self.ty_str(v), self.ty_str(sc));
                    self.error(span, msg);
                    return None;
                }
                if lt.is_vector() {
                    lt.clone()
                } else {
                    rt.clone()
                }
            }
            _ => {
                let msg = format!(
                    "invalid operands to binary expression ({} and {})",
                    self.ty_str(&lt),
                    self.ty_str(&rt)
                );
                let _ = op;
                self.error(span, msg);
                return None;
            }
        };
        let l = self.arith_convert(l, &ty);
        let r = self.arith_convert(r, &ty);
        Some((l, r, ty))
    }

    /// May scalar `s` be implicitly converted to vector element `e`?
    pub fn scalar_fits_vector(&self, s: Scalar, e: Scalar) -> bool {
        match (s.is_float(), e.is_float()) {
            (false, true) => true,
            (true, false) => false,
            (true, true) => s.rank() <= e.rank(),
            (false, false) => {
                s.rank() < e.rank() || (s.rank() == e.rank() && (s.is_signed() || !e.is_signed()))
            }
        }
    }

    /// The result type of a comparison or logical operator: `int` for
    /// scalars, a vector of signed integers of the element size for vectors.
    pub fn bool_result(ty: &Type) -> Type {
        match ty {
            Type::Vector(e, n) => {
                let s = match e.size() {
                    1 => Scalar::Char,
                    2 => Scalar::Short,
                    4 => Scalar::Int,
                    _ => Scalar::Long,
                };
                Type::Vector(s, *n)
            }
            _ => Type::INT,
        }
    }

    /// Scalar condition (`if`, `while`, `?:`, `!`, `&&`): arithmetic or pointer.
    pub fn condition(&mut self, e: Expr) -> Expr {
        let at = e.span;
        self.condition_at(e, at)
    }

    /// A statement's condition; a bad one is reported at `at` (the
    /// statement's keyword, where clang reports it).
    pub fn condition_at(&mut self, e: Expr, at: Span) -> Expr {
        let e = self.rvalue(e);
        if e.ty.is_error() || e.ty.is_c_scalar() {
            return e;
        }
        let msg = format!(
            "statement requires expression of scalar type ({} invalid)",
            self.ty_str(&e.ty)
        );
        self.error(at, msg);
        Expr::error(e.span)
    }
}
