//! Expressions (C99 6.5, OpenCL C 3.0 spec 6.3–6.5): names, literals,
//! operators, casts, vector literals, swizzles, `sizeof`/`vec_step`, member
//! access. Calls are in `call.rs`. Each arm is commented with the syntax it
//! handles; a failure reports once and yields the poison type.
#![forbid(unsafe_code)]

use super::addrspace::{explicit_cast, AddrSpace};
use super::conv::{cast, promote, scalar_cast_kind};
use super::hir::{CastKind, Expr, ExprKind, GlobalId, UnOp, ValueCat, VarRef};
use super::scope::Symbol;
use super::types::{Pointee, Quals, Scalar, Type};
use super::Checker;
use crate::parse::ast::{self, FloatSuffix, UnaryOp};
use crate::source::Span;
use std::sync::Arc;

pub(super) fn lvalue(kind: ExprKind, ty: Type, space: AddrSpace, quals: Quals, span: Span) -> Expr {
    Expr {
        kind,
        ty,
        cat: ValueCat::LValue,
        space,
        quals,
        span,
    }
}

/// The bytes a string literal stands for. The lexer hands escapes of 0x80
/// and above as the chars U+0080..U+00FF (a `String` cannot hold a lone
/// byte), so those become one byte each; other characters are UTF-8.
pub(super) fn literal_bytes(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    for c in s.chars() {
        match u8::try_from(u32::from(c)) {
            Ok(b) => out.push(b),
            Err(_) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

impl Checker<'_> {
    /// Check an expression; the result may be an lvalue.
    pub fn expr(&mut self, e: &ast::Expr) -> Expr {
        let span = e.span;
        match &e.kind {
            // x
            ast::ExprKind::Ident(name) => self.ident(name, span),
            // 42, 0x10u, 7L
            ast::ExprKind::IntLit(l) => self.int_literal(l, span),
            // 1.0f, 2.5, 1h
            ast::ExprKind::FloatLit(l) => self.float_literal(l, span),
            // 'a'
            ast::ExprKind::CharLit(c) => Expr::int(c.value as i128, Type::INT, span),
            // "text": a constant-space array (spec 6.7.3)
            ast::ExprKind::StringLit(s) => self.string_literal(s, span),
            ast::ExprKind::Unary { op, operand } => self.unary(*op, operand, span),
            ast::ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span),
            ast::ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, span),
            ast::ExprKind::Conditional { cond, then, else_ } => {
                self.conditional(cond, then, else_, span)
            }
            ast::ExprKind::Cast { ty, expr } => self.cast_expr(ty, expr, span),
            ast::ExprKind::VectorLiteral { ty, elems } => self.vector_literal(ty, elems, span),
            // (struct S){ .x = 1 }
            ast::ExprKind::CompoundLiteral { ty, init } => self.compound_literal(ty, init, span),
            // sizeof x
            ast::ExprKind::SizeofExpr(x) => {
                let x = self.expr(x);
                let ty = x.ty.clone();
                self.sizeof(&ty, span)
            }
            // sizeof(T)
            ast::ExprKind::SizeofType(t) => {
                let ty = self.type_name(t).ty;
                self.sizeof(&ty, span)
            }
            ast::ExprKind::AlignofType(t) => {
                let ty = self.type_name(t).ty;
                self.alignof(&ty, span)
            }
            ast::ExprKind::AlignofExpr(x) => {
                let x = self.expr(x);
                let ty = x.ty.clone();
                self.alignof(&ty, span)
            }
            // vec_step(x), vec_step(float3) == 4 (spec 6.4.6)
            ast::ExprKind::VecStepExpr(x) => {
                let x = self.expr(x);
                let ty = x.ty.clone();
                self.vec_step(&ty, span)
            }
            ast::ExprKind::VecStepType(t) => {
                let ty = self.type_name(t).ty;
                self.vec_step(&ty, span)
            }
            ast::ExprKind::Call { callee, args } => self.call(callee, args, span),
            // a[i] is *(a + i)
            ast::ExprKind::Index { base, index } => self.index(base, index, span),
            // s.f, p->f, v.xyz
            ast::ExprKind::Member {
                base,
                member,
                arrow,
            } => self.member(base, member, *arrow, span),
        }
    }

    /// Check an expression used as a value.
    pub fn value(&mut self, e: &ast::Expr) -> Expr {
        let x = self.expr(e);
        if let Type::Function(_) = x.ty {
            self.error(
                e.span,
                "function designator used as a value (function pointers are not allowed in OpenCL)",
            );
            return Expr::error(e.span);
        }
        self.rvalue(x)
    }

    fn ident(&mut self, name: &str, span: Span) -> Expr {
        match self.scopes.lookup(name).cloned() {
            Some(Symbol::Var {
                var,
                ty,
                space,
                quals,
            }) => lvalue(ExprKind::Var(var), ty, space, quals, span),
            Some(Symbol::Func(id)) => {
                let f = self.prog.function(id);
                let sig = super::types::FnSig {
                    ret: f.ret.clone(),
                    params: f.params.iter().map(|p| p.ty.clone()).collect(),
                    variadic: false,
                };
                Expr::rvalue(ExprKind::Func(id), Type::Function(Arc::new(sig)), span)
            }
            Some(Symbol::EnumConst(v, s)) => Expr::int(v, Type::Scalar(s), span),
            Some(Symbol::Typedef { .. }) => {
                self.error(
                    span,
                    format!("unexpected type name '{name}': expected expression"),
                );
                Expr::error(span)
            }
            None if name == "true" || name == "false" => {
                Expr::int((name == "true") as i128, Type::BOOL, span)
            }
            None => {
                self.error(span, format!("use of undeclared identifier '{name}'"));
                Expr::error(span)
            }
        }
    }

    /// The type of an integer constant (C99 6.4.4.1): the first of the list
    /// for its suffix and radix that can represent the value.
    fn int_literal(&mut self, l: &ast::IntLiteral, span: Span) -> Expr {
        let v = l.value;
        let decimal = l.radix == 10;
        let cands: &[Scalar] = match (l.unsigned, l.long > 0, decimal) {
            (false, false, true) => &[Scalar::Int, Scalar::Long],
            (false, false, false) => &[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong],
            (true, false, _) => &[Scalar::UInt, Scalar::ULong],
            (false, true, true) => &[Scalar::Long],
            (false, true, false) => &[Scalar::Long, Scalar::ULong],
            (true, true, _) => &[Scalar::ULong],
        };

        let fits = |s: &Scalar| {
            let bits = s.size() * 8 - u64::from(s.is_signed());
            bits >= 64 || v < (1u64 << bits)
        };
        let s = match cands.iter().find(|s| fits(s)) {
            Some(s) => *s,
            None => {
                if decimal && !l.unsigned {
                    self.warning(span, "integer literal is too large to be represented in a signed integer type, interpreting as unsigned");
                }
                Scalar::ULong
            }
        };
        Expr::int(i128::from(v), Type::Scalar(s), span)
    }

    fn float_literal(&mut self, l: &ast::FloatLiteral, span: Span) -> Expr {
        let (s, v) = match l.suffix {
            FloatSuffix::F => (Scalar::Float, f64::from(l.value_f32)),
            FloatSuffix::H => {
                if !self.opts.fp16 {
                    self.error(span, "half precision constant requires cl_khr_fp16");
                    return Expr::error(span);
                }
                (Scalar::Half, l.value)
            }
            // `1.0L`: clang takes it as a double constant (there is no long double).
            FloatSuffix::None | FloatSuffix::L if self.opts.single_precision_constant => {
                (Scalar::Float, f64::from(l.value_f32))
            }
            FloatSuffix::None | FloatSuffix::L if !self.opts.fp64 => {
                let what = if self.opts.version >= 30 {
                    "cl_khr_fp64 and __opencl_c_fp64"
                } else {
                    "cl_khr_fp64"
                };
                self.warning(
                    span,
                    format!(
                        "double precision constant requires {what}, casting to single precision"
                    ),
                );
                (Scalar::Float, f64::from(l.value_f32))
            }
            FloatSuffix::None | FloatSuffix::L => (Scalar::Double, l.value),
        };
        Expr::rvalue(ExprKind::FloatConst(v), Type::Scalar(s), span)
    }

    /// A string literal is an anonymous `constant char[n]` global.
    fn string_literal(&mut self, s: &str, span: Span) -> Expr {
        let bytes: Vec<u8> = literal_bytes(s)
            .into_iter()
            .chain(std::iter::once(0))
            .collect();
        let ty = Type::Array(Arc::new(Type::CHAR), Some(bytes.len() as u64));
        let gid = match self.strings.get(s) {
            Some(g) => *g,
            None => {
                let g = GlobalId(self.prog.globals.len() as u32);
                self.prog.globals.push(super::hir::Global {
                    name: format!(".str.{}", self.strings.len()),
                    ty: ty.clone(),
                    space: AddrSpace::Constant,
                    quals: Quals::CONST,
                    is_static: true,
                    init: Some(super::hir::ConstInit {
                        bytes,
                        relocs: Vec::new(),
                    }),
                    span,
                });
                self.strings.insert(s.to_string(), g);
                g
            }
        };
        lvalue(
            ExprKind::Var(VarRef::Global(gid)),
            ty,
            AddrSpace::Constant,
            Quals::CONST,
            span,
        )
    }

    pub fn sizeof(&mut self, ty: &Type, span: Span) -> Expr {
        if ty.is_error() {
            return Expr::error(span);
        }
        match self.prog.records.size_of(ty) {
            Some(n) => Expr::int(i128::from(n), Type::SIZE_T, span),
            None => {
                let msg = if ty.is_void() {
                    "invalid application of 'sizeof' to a void type".to_string()
                } else {
                    format!(
                        "invalid application of 'sizeof' to an incomplete type {}",
                        self.ty_str(ty)
                    )
                };
                self.error(span, msg);
                Expr::error(span)
            }
        }
    }

    fn alignof(&mut self, ty: &Type, span: Span) -> Expr {
        if ty.is_error() {
            return Expr::error(span);
        }
        let a = self.prog.records.align_of(ty);
        Expr::int(i128::from(a), Type::SIZE_T, span)
    }

    fn vec_step(&mut self, ty: &Type, span: Span) -> Expr {
        let n = match ty {
            Type::Vector(_, n) => super::types::vector_storage_width(*n),
            Type::Scalar(_) => 1,
            Type::Error => return Expr::error(span),
            _ => {
                let msg = format!(
                    "'vec_step' requires built-in scalar or vector type, {} invalid",
                    self.ty_str(ty)
                );
                self.error(span, msg);
                return Expr::error(span);
            }
        };
        Expr::int(i128::from(n), Type::INT, span)
    }

    pub fn mark_address_taken(&mut self, e: &Expr) {
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Var(VarRef::Local(id)) => {
                    if let Some(fx) = self.fx.as_mut() {
                        if let Some(l) = fx.func.locals.get_mut(id.0 as usize) {
                            l.address_taken = true;
                        }
                    }
                    return;
                }
                ExprKind::Member(b, _) | ExprKind::Swizzle(b, _) => cur = b,
                _ => return,
            }
        }
    }

    fn unary(&mut self, op: UnaryOp, operand: &ast::Expr, span: Span) -> Expr {
        match op {
            // *p
            UnaryOp::Deref => {
                let p = self.value(operand);
                self.deref(p, span)
            }
            // &x
            UnaryOp::AddrOf => {
                let x = self.expr(operand);
                if x.ty.is_error() {
                    return x;
                }
                if let ExprKind::Swizzle(..) = x.kind {
                    self.error(span, "address of vector element requested");
                    return Expr::error(span);
                }
                if let Type::Function(_) = x.ty {
                    self.error(
                        span,
                        "taking the address of a function is not allowed in OpenCL",
                    );
                    return Expr::error(span);
                }
                if !x.is_lvalue() {
                    let msg = format!(
                        "cannot take the address of an rvalue of type {}",
                        self.ty_str(&x.ty)
                    );
                    self.error(span, msg);
                    return Expr::error(span);
                }
                self.mark_address_taken(&x);
                let ty = Type::Pointer(Arc::new(Pointee {
                    ty: x.ty.clone(),
                    space: x.space,
                    quals: x.quals,
                }));
                Expr::rvalue(ExprKind::AddrOf(Box::new(x)), ty, span)
            }
            // ++x, x--
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let x = self.expr(operand);
                if x.ty.is_error() {
                    return x;
                }
                if !self.check_modifiable(&x, span) {
                    return Expr::error(span);
                }
                // clang: scalars, pointers and integer vectors (not float vectors).
                if !(x.ty.is_scalar()
                    || x.ty.is_pointer()
                    || (x.ty.is_vector() && x.ty.is_integer_like()))
                {
                    let what = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                        "increment"
                    } else {
                        "decrement"
                    };
                    let msg = format!("cannot {what} value of type {}", self.ty_str(&x.ty));
                    self.error(span, msg);
                    return Expr::error(span);
                }
                let ty = x.ty.clone();
                let inc = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
                let prefix = matches!(op, UnaryOp::PreInc | UnaryOp::PreDec);
                Expr::rvalue(
                    ExprKind::IncDec {
                        inc,
                        prefix,
                        operand: Box::new(x),
                    },
                    ty,
                    span,
                )
            }
            UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => {
                let x = self.value(operand);
                if x.ty.is_error() {
                    return x;
                }
                let ok = if op == UnaryOp::BitNot {
                    x.ty.is_integer_like()
                } else {
                    x.ty.is_arithmetic()
                };
                if !ok || !self.half_ok(&x.ty, span) {
                    if ok {
                        return Expr::error(span);
                    }
                    let msg = format!(
                        "invalid argument type {} to unary expression",
                        self.ty_str(&x.ty)
                    );
                    self.error(span, msg);
                    return Expr::error(span);
                }
                let ty = match &x.ty {
                    Type::Scalar(s) => Type::Scalar(promote(*s)),
                    t => t.clone(),
                };
                let x = self.arith_convert(x, &ty);
                let uop = match op {
                    UnaryOp::Plus => UnOp::Plus,
                    UnaryOp::Minus => UnOp::Neg,
                    _ => UnOp::BitNot,
                };
                Expr::rvalue(ExprKind::Unary(uop, Box::new(x)), ty, span)
            }
            // !x: int, or a signed vector of -1/0 (spec 6.3.h)
            UnaryOp::Not => {
                let x = self.value(operand);
                if x.ty.is_error() {
                    return x;
                }
                if !(x.ty.is_arithmetic() || x.ty.is_pointer()) {
                    let msg = format!(
                        "invalid argument type {} to unary expression",
                        self.ty_str(&x.ty)
                    );
                    self.error(span, msg);
                    return Expr::error(span);
                }
                let ty = Self::bool_result(&x.ty);
                Expr::rvalue(ExprKind::Unary(UnOp::LogNot, Box::new(x)), ty, span)
            }
        }
    }

    /// `half` arithmetic needs cl_khr_fp16 (pointers to half do not).
    pub fn half_ok(&mut self, ty: &Type, span: Span) -> bool {
        if ty.elem() == Some(Scalar::Half) && !self.opts.fp16 {
            self.error(
                span,
                "arithmetic on type 'half' requires the cl_khr_fp16 extension",
            );
            return false;
        }
        true
    }

    pub fn deref(&mut self, p: Expr, span: Span) -> Expr {
        match &p.ty {
            Type::Pointer(pt) => {
                if pt.ty.is_void() {
                    self.error(span, "dereferencing a 'void *' pointer is not allowed");
                    return Expr::error(span);
                }
                let (ty, space, quals) = (pt.ty.clone(), pt.space, pt.quals);
                lvalue(ExprKind::Deref(Box::new(p)), ty, space, quals, span)
            }
            Type::Error => p,
            _ => {
                let msg = format!(
                    "indirection requires pointer operand ({} invalid)",
                    self.ty_str(&p.ty)
                );
                self.error(span, msg);
                Expr::error(span)
            }
        }
    }

    /// An lvalue that may be assigned: not const, not in constant space
    /// (spec 6.7.3: "writing to such a variable results in a compile-time error").
    pub fn check_modifiable(&mut self, x: &Expr, span: Span) -> bool {
        if x.ty.is_error() {
            return false;
        }
        if matches!(x.ty, Type::Image(..) | Type::Sampler) {
            let msg = format!(
                "invalid operands to binary expression ({} and {})",
                self.ty_str(&x.ty),
                self.ty_str(&x.ty)
            );
            self.error(span, msg);
            return false;
        }
        if x.ty.elem() == Some(Scalar::Half) && !self.opts.fp16 {
            self.error(span, "assigning directly to pointer to type 'half' requires cl_khr_fp16. Use vector data store builtin functions instead");
            return false;
        }
        if !x.is_lvalue() {
            self.error(span, "expression is not assignable");
            return false;
        }
        if x.ty.is_array() {
            let msg = format!("array type {} is not assignable", self.ty_str(&x.ty));
            self.error(span, msg);
            return false;
        }
        if x.space == AddrSpace::Constant {
            self.error(span, "read-only variable is not assignable: objects in the constant address space are read-only");
            return false;
        }
        if x.quals.konst {
            let msg = match &x.kind {
                ExprKind::Var(_) => {
                    "cannot assign to variable with const-qualified type".to_string()
                }
                _ => "read-only variable is not assignable (the object is const-qualified)"
                    .to_string(),
            };
            self.error(span, msg);
            return false;
        }
        if let ExprKind::Swizzle(_, lanes) = &x.kind {
            let mut seen = [false; 16];
            for &l in lanes {
                if seen[l as usize % 16] {
                    self.error(
                        span,
                        "vector is not assignable (contains duplicate components)",
                    );
                    return false;
                }
                seen[l as usize % 16] = true;
            }
        }
        true
    }

    fn cast_expr(&mut self, t: &ast::TypeName, e: &ast::Expr, span: Span) -> Expr {
        let qt = self.type_name(t);
        let x = self.value(e);
        self.explicit_cast(x, qt.ty, span)
    }

    pub fn explicit_cast(&mut self, x: Expr, to: Type, span: Span) -> Expr {
        if x.ty.is_error() || to.is_error() {
            return Expr::error(span);
        }
        // (half)x makes a half value: that needs cl_khr_fp16.
        if to.is_arithmetic() && !self.half_ok(&to, span) {
            return Expr::error(span);
        }
        // (event_t)0: no event.
        if to == Type::Event && x.ty.is_integer() && self.is_null_constant(&x) {
            return Expr {
                span,
                ..cast(x, CastKind::NullToPointer, Type::Event)
            };
        }
        let from = x.ty.clone();
        let bad = |c: &mut Self| {
            let what = if from.is_vector() || to.is_vector() {
                "vector type "
            } else {
                ""
            };
            let msg = format!(
                "invalid conversion between {what}{} and {}: use convert_<type>() or as_<type>()",
                c.ty_str(&from),
                c.ty_str(&to)
            );
            c.error(span, msg);
            Expr::error(span)
        };
        let e = match (&from, &to) {
            // (void)x
            (_, Type::Void) => cast(x, CastKind::ToVoid, Type::Void),
            _ if from == to => cast(x, CastKind::NoOp, to.clone()),
            (Type::Scalar(a), Type::Scalar(b)) => cast(x, scalar_cast_kind(*a, *b), to.clone()),
            // (float4)1.0f: convert, then replicate (spec 6.2.2)
            (Type::Scalar(_), Type::Vector(..)) => self.arith_convert(x, &to),
            // (int4)f4 is illegal: use convert_int4 (spec 6.2.2)
            (Type::Vector(..), Type::Vector(..) | Type::Scalar(_)) | (Type::Scalar(_), _)
                if !to.is_pointer() =>
            {
                return bad(self)
            }
            // (global int *)p: address-space rules (spec 6.7.1)
            (Type::Pointer(p), Type::Pointer(q)) => {
                if let Err(err) = explicit_cast(p.space, q.space) {
                    let msg = format!(
                        "casting {} to type {} changes address space of pointer",
                        self.ty_str(&from),
                        self.ty_str(&to)
                    );
                    self.error(span, msg);
                    self.note(span, err.message(p.space, q.space, true));
                    return Expr::error(span);
                }
                let kind = match (p.space, q.space) {
                    (a, b) if a == b => CastKind::Bitcast,
                    (_, AddrSpace::Generic) => CastKind::ToGeneric,
                    _ => CastKind::FromGeneric,
                };
                if kind == CastKind::Bitcast {
                    cast(x, kind, to.clone())
                } else {
                    let mid = Type::Pointer(Arc::new(Pointee {
                        ty: p.ty.clone(),
                        space: q.space,
                        quals: p.quals,
                    }));
                    let x = cast(x, kind, mid);
                    cast(x, CastKind::Bitcast, to.clone())
                }
            }
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                cast(x, CastKind::PointerToInt, to.clone())
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                if self.is_null_constant(&x) {
                    cast(x, CastKind::NullToPointer, to.clone())
                } else {
                    cast(x, CastKind::IntToPointer, to.clone())
                }
            }
            _ => {
                let msg = format!(
                    "used type {} where arithmetic or pointer type is required",
                    self.ty_str(&to)
                );
                self.error(span, msg);
                return Expr::error(span);
            }
        };
        Expr { span, ..e }
    }

    // (float4)(a, b.xy, c): parts are scalars or vectors; lanes must add up (spec 6.1.6)
    fn vector_literal(&mut self, t: &ast::TypeName, elems: &[ast::Expr], span: Span) -> Expr {
        let ty = self.type_name(t).ty;
        let parts: Vec<Expr> = elems.iter().map(|e| self.value(e)).collect();
        if ty.is_error() || parts.iter().any(|p| p.ty.is_error()) {
            return Expr::error(span);
        }
        let Type::Vector(elem, n) = ty else {
            // `(int)(x)` parsed as a vector literal of a non-vector typedef.
            if let [one] = parts.as_slice() {
                return self.explicit_cast(one.clone(), ty, span);
            }
            self.error(span, "vector literal of a non-vector type");
            return Expr::error(span);
        };
        if !self.half_ok(&ty, span) {
            return Expr::error(span);
        }
        // (float4)(x): a single scalar is converted and replicated.
        if let [one] = parts.as_slice() {
            if one.ty.is_scalar() {
                let e = self.arith_convert(one.clone(), &ty);
                return Expr { span, ..e };
            }
        }
        let mut lanes = 0u32;
        let mut out = Vec::new();
        for p in parts {
            match &p.ty {
                Type::Scalar(_) => {
                    lanes += 1;
                    let e = self.arith_convert(p, &Type::Scalar(elem));
                    out.push(e);
                }
                Type::Vector(e, m) if *e == elem => {
                    lanes += u32::from(*m);
                    out.push(p);
                }
                _ => {
                    let msg = format!(
                        "invalid operand of type {} in vector literal of type {}",
                        self.ty_str(&p.ty),
                        self.ty_str(&ty)
                    );
                    self.error(p.span, msg);
                    return Expr::error(span);
                }
            }
        }
        if lanes != u32::from(n) {
            let msg = if lanes < u32::from(n) {
                format!("too few elements in vector initialization (expected {n} elements, have {lanes})")
            } else {
                format!(
                    "excess elements in vector initializer (expected {n} elements, have {lanes})"
                )
            };
            self.error(span, msg);
            return Expr::error(span);
        }
        Expr::rvalue(ExprKind::VectorLit(out), ty, span)
    }

    // a[i]
}
