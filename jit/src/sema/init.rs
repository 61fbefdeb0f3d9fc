//! Initialisers (C99 6.7.8): expressions, braced lists with brace elision
//! and designators (`.f = `, `[i] = `), string literals for `char` arrays,
//! vector initialisation from lists. The result has one entry per element
//! or field, so codegen and constant folding never re-interpret the list.
#![forbid(unsafe_code)]

use super::conv::Ctx;
use super::hir::{Expr, ExprKind, Init};
use super::types::{Scalar, Type};
use super::Checker;
use crate::parse::ast;
use crate::source::Span;
use std::sync::Arc;

/// The most array elements an initialiser may name one by one (a designator
/// beyond this is refused rather than allocating a slot per element).
const MAX_INIT_SLOTS: usize = 1 << 24;

impl Checker<'_> {
    /// Check an initialiser for an object of type `ty`; returns the type
    /// completed (`int a[] = {1, 2}` → `int[2]`) and the initialiser.
    pub fn initializer(&mut self, ty: &Type, init: &ast::Initializer) -> (Type, Init) {
        match init {
            ast::Initializer::Expr(e) => {
                let name = self.decl_name.take();
                self.init_expr_at(ty, e, name)
            }
            ast::Initializer::List(items, span) => {
                self.decl_name = None;
                if ty.is_error() {
                    return (Type::Error, Init::Zero);
                }
                match ty {
                    Type::Array(..) | Type::Record(_) => {
                        let mut pos = 0;
                        let r = self.fill(ty, items, &mut pos, true);
                        if pos < items.len() {
                            self.warning(items[pos].span, "excess elements in initializer");
                        }
                        r
                    }
                    Type::Vector(elem, n) => {
                        let (elem, n) = (*elem, *n);
                        let mut parts = Vec::new();
                        for it in items {
                            if let ast::Initializer::Expr(e) = &it.init {
                                let v = self.value(e);
                                parts.push(self.assign_convert(v, &Type::Scalar(elem), Ctx::Init));
                            }
                        }
                        if parts.len() > usize::from(n) {
                            self.error(*span, "excess elements in vector initializer");
                        }
                        if parts.len() < usize::from(n) {
                            let msg = format!("too few elements in vector initialization (expected {n} elements, have {})", parts.len());
                            self.error(*span, msg);
                        }
                        while parts.len() < usize::from(n) {
                            parts.push(Expr::int(0, Type::Scalar(elem), *span));
                        }
                        parts.truncate(usize::from(n));
                        let e = Expr::rvalue(ExprKind::VectorLit(parts), ty.clone(), *span);
                        (ty.clone(), Init::Expr(e))
                    }
                    _ => match items.first() {
                        Some(first) => {
                            if items.len() > 1 {
                                self.warning(
                                    items[1].span,
                                    "excess elements in scalar initializer",
                                );
                            }
                            self.initializer(ty, &first.init)
                        }
                        None => {
                            self.error(*span, "scalar initializer cannot be empty");
                            (ty.clone(), Init::Zero)
                        }
                    },
                }
            }
        }
    }

    fn init_expr(&mut self, ty: &Type, e: &ast::Expr) -> (Type, Init) {
        self.init_expr_at(ty, e, None)
    }

    /// `site`: where a bad conversion is reported (the declared name).
    fn init_expr_at(&mut self, ty: &Type, e: &ast::Expr, site: Option<Span>) -> (Type, Init) {
        // char s[] = "abc";
        if let (Type::Array(elem, len), ast::ExprKind::StringLit(s)) = (ty, &e.kind) {
            if matches!(**elem, Type::Scalar(Scalar::Char | Scalar::UChar)) {
                let mut bytes: Vec<u8> = super::expr::literal_bytes(s);
                let n = len.unwrap_or(bytes.len() as u64 + 1);
                if bytes.len() as u64 > n {
                    self.warning(e.span, "initializer-string for char array is too long");
                }
                // The characters and the terminating zero, as far as they fit;
                // the rest of the array is zero (not listed).
                bytes.push(0);
                bytes.truncate(usize::try_from(n).unwrap_or(usize::MAX));
                let signed = matches!(**elem, Type::Scalar(Scalar::Char));
                let items = bytes
                    .iter()
                    .map(|b| {
                        let v = if signed {
                            i128::from(*b as i8)
                        } else {
                            i128::from(*b)
                        };
                        Init::Expr(Expr::int(v, (**elem).clone(), e.span))
                    })
                    .collect();
                return (Type::Array(elem.clone(), Some(n)), Init::Array(items));
            }
        }
        let v = self.value(e);
        if ty.is_array() && !v.ty.is_error() {
            self.error(e.span, "array initializer must be an initializer list");
            return (ty.clone(), Init::Zero);
        }
        self.init_site = site;
        let v = self.assign_convert(v, ty, Ctx::Init);
        (ty.clone(), Init::Expr(v))
    }

    /// Fill an array or record from `items[*pos..]`. `top`: this is the
    /// object's own braced list (else a brace-elided sub-object, which stops
    /// when full or at a designator).
    fn fill(
        &mut self,
        ty: &Type,
        items: &[ast::InitItem],
        pos: &mut usize,
        top: bool,
    ) -> (Type, Init) {
        match ty {
            Type::Array(elem, len) => {
                let elem = (**elem).clone();
                let mut slots: Vec<Init> = Vec::new();
                let mut idx: u64 = 0;
                while *pos < items.len() {
                    let it = &items[*pos];
                    if let Some(d) = it.designators.first() {
                        if !top {
                            break;
                        }
                        let ast::Designator::Index(ie) = d else {
                            self.error(
                                it.span,
                                "field designator cannot initialize a non-struct, non-union type",
                            );
                            *pos += 1;
                            continue;
                        };
                        let x = self.expr(ie);
                        match self.const_int(&x) {
                            Some(v) if v >= 0 && len.is_none_or(|l| (v as u64) < l) => {
                                idx = v as u64
                            }
                            _ => {
                                self.error(
                                    ie.span,
                                    "array designator index is out of bounds or not constant",
                                );
                                *pos += 1;
                                continue;
                            }
                        }
                    } else if len.is_some_and(|l| idx >= l) {
                        if top {
                            self.warning(it.span, "excess elements in array initializer");
                            *pos = items.len();
                        }
                        break;
                    }
                    let i = idx as usize;
                    if i >= MAX_INIT_SLOTS {
                        self.error(it.span, format!("array designator index {i} is beyond what cranecl initialises element by element ({MAX_INIT_SLOTS})"));
                        *pos = items.len();
                        break;
                    }
                    let init = self.item(&elem, items, pos);
                    if slots.len() <= i {
                        slots.resize_with(i + 1, || Init::Zero);
                    }
                    slots[i] = init;
                    idx += 1;
                    if !top && len.is_some_and(|l| idx >= l) {
                        break;
                    }
                }
                // Elements after the last one written are zero: not stored,
                // so `int a[1 << 30] = {1}` costs one slot (hir::Init::Array).
                let n = len.unwrap_or(slots.len() as u64);
                (Type::Array(Arc::new(elem), Some(n)), Init::Array(slots))
            }
            Type::Record(r) => {
                let r = *r;
                let def = self.prog.records.get(r);
                let is_union = def.is_union;
                let fields: Vec<(Option<String>, Type, bool)> = def
                    .fields
                    .iter()
                    .map(|f| (f.name.clone(), f.ty.clone(), f.bits.is_some()))
                    .collect();
                let mut slots: Vec<Init> = fields.iter().map(|_| Init::Zero).collect();
                let mut fi = 0usize;
                let mut union_member = None;
                while *pos < items.len() {
                    let it = &items[*pos];
                    if let Some(d) = it.designators.first() {
                        if !top {
                            break;
                        }
                        let ast::Designator::Member(m) = d else {
                            self.error(
                                it.span,
                                "array designator cannot initialize non-array type",
                            );
                            *pos += 1;
                            continue;
                        };
                        match fields
                            .iter()
                            .position(|f| f.0.as_deref() == Some(m.node.as_str()))
                        {
                            Some(i) => fi = i,
                            None => {
                                let msg = format!(
                                    "field designator '{}' does not refer to any field in type {}",
                                    m.node,
                                    self.ty_str(ty)
                                );
                                self.error(m.span, msg);
                                *pos += 1;
                                continue;
                            }
                        }
                    } else {
                        while fi < fields.len() && fields[fi].0.is_none() && fields[fi].2 {
                            fi += 1; // unnamed bit-fields take no initialiser
                        }
                        if fi >= fields.len() || (is_union && union_member.is_some()) {
                            if top {
                                self.warning(
                                    it.span,
                                    format!(
                                        "excess elements in {} initializer",
                                        if is_union { "union" } else { "struct" }
                                    ),
                                );
                                *pos = items.len();
                            }
                            break;
                        }
                    }
                    let fty = fields[fi].1.clone();
                    slots[fi] = self.item(&fty, items, pos);
                    union_member = Some(fi);
                    fi += 1;
                    if !top && (fi >= fields.len() || is_union) {
                        break;
                    }
                }
                if is_union {
                    let m = union_member.unwrap_or(0);
                    let init = if slots.is_empty() {
                        Init::Zero
                    } else {
                        std::mem::replace(&mut slots[m], Init::Zero)
                    };
                    return (ty.clone(), Init::Union(m, Box::new(init)));
                }
                (ty.clone(), Init::Struct(slots))
            }
            _ => {
                let init = self.item(ty, items, pos);
                (ty.clone(), init)
            }
        }
    }

    /// One element: a nested list, an expression of the element's type, or
    /// the start of a brace-elided sub-aggregate. Nested designators
    /// (`.a.b = 1`) initialise the path they name.
    fn item(&mut self, ty: &Type, items: &[ast::InitItem], pos: &mut usize) -> Init {
        let it = &items[*pos];
        if it.designators.len() > 1 {
            *pos += 1;
            let rest = ast::InitItem {
                designators: it.designators[1..].to_vec(),
                init: it.init.clone(),
                span: it.span,
            };
            let list = ast::Initializer::List(vec![rest], it.span);
            return self.initializer(ty, &list).1;
        }
        match &it.init {
            ast::Initializer::List(..) => {
                *pos += 1;
                self.initializer(ty, &it.init).1
            }
            ast::Initializer::Expr(e) => {
                let aggregate = matches!(ty, Type::Array(..) | Type::Record(_));
                let is_string = matches!(e.kind, ast::ExprKind::StringLit(_)) && ty.is_array();
                if aggregate && !is_string {
                    // Peek: a whole struct value initialises the struct itself.
                    if let Type::Record(_) = ty {
                        let v = self.expr(e);
                        if v.ty == *ty {
                            *pos += 1;
                            let v = self.rvalue(v);
                            return Init::Expr(v);
                        }
                    }
                    // Brace elision (C99 6.7.8p20).
                    return self.fill(ty, items, pos, false).1;
                }
                *pos += 1;
                self.init_expr(ty, e).1
            }
        }
    }
}
