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

/// The most array element slots one declaration's initialiser may allocate
/// (a designator beyond this is refused rather than allocating a slot per
/// element).
const MAX_INIT_SLOTS: usize = 1 << 22;

impl Checker<'_> {
    /// Check an initialiser for an object of type `ty`; returns the type
    /// completed (`int a[] = {1, 2}` → `int[2]`) and the initialiser.
    pub fn initializer(&mut self, ty: &Type, init: &ast::Initializer) -> (Type, Init) {
        let mut budget = MAX_INIT_SLOTS;
        self.init_in(ty, init, &mut budget)
    }

    /// `initializer` with `budget`: the array slots this declaration's
    /// initialiser may still allocate (shared by all its nested lists, so
    /// many designators into big sub-arrays cannot exhaust memory).
    fn init_in(&mut self, ty: &Type, init: &ast::Initializer, budget: &mut usize) -> (Type, Init) {
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
                        let walk = Walk {
                            top: true,
                            skip: 0,
                            prior: Init::Zero,
                        };
                        let r = self.fill(ty, items, &mut pos, walk, budget);
                        if pos < items.len() {
                            self.warning(items[pos].span, "excess elements in initializer");
                        }
                        r
                    }
                    Type::Vector(elem, n) => {
                        let (elem, n) = (*elem, *n);
                        let mut parts = Vec::new();
                        for it in items {
                            if !it.designators.is_empty() {
                                // Reported, then the value still counts (clang-14).
                                let msg = format!(
                                    "designator in initializer for scalar type {}",
                                    self.ty_str(&Type::Scalar(elem))
                                );
                                self.error(it.span, msg);
                            }
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
                    // global atomic_int x = {1};
                    Type::Atomic(_) | Type::AtomicFlag => {
                        let msg = format!("illegal initializer type {}", self.ty_str(ty));
                        self.error(*span, msg);
                        (ty.clone(), Init::Zero)
                    }
                    _ => match items.first() {
                        Some(first) => {
                            if items.len() > 1 {
                                self.warning(
                                    items[1].span,
                                    "excess elements in scalar initializer",
                                );
                            }
                            self.init_in(ty, &first.init, budget)
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
        // An atomic object is initialised (non-atomically) from a value of
        // its type, as C11 6.7.9 allows (`atomic_int x = ATOMIC_VAR_INIT(1)`).
        let v = match ty {
            Type::Atomic(s) => self.assign_convert(v, &Type::Scalar(*s), Ctx::Init),
            Type::AtomicFlag => self.assign_convert(v, &Type::INT, Ctx::Init),
            _ => self.assign_convert(v, ty, Ctx::Init),
        };
        (ty.clone(), Init::Expr(v))
    }

    /// Fill an array or record from `items[*pos..]` (C99 6.7.8p17-20).
    /// `top`: this is the object's own braced list, so every designator is
    /// read from its first; else a brace-elided or designated sub-object,
    /// which stops when full or at the next item that starts a designation
    /// (that one belongs to the enclosing braced list). `skip`: how many of
    /// `items[*pos]`'s designators the enclosing objects have already
    /// applied; the next one, if any, names the element of this object where
    /// filling starts. `prior`: what earlier items wrote here (a later
    /// brace-elided designation overrides only the elements it reaches).
    fn fill(
        &mut self,
        ty: &Type,
        items: &[ast::InitItem],
        pos: &mut usize,
        walk: Walk,
        budget: &mut usize,
    ) -> (Type, Init) {
        let Walk { top, skip, prior } = walk;
        match ty {
            Type::Array(elem, len) => {
                let elem = (**elem).clone();
                let mut slots: Vec<Init> = match prior {
                    Init::Array(v) => v,
                    _ => Vec::new(),
                };
                let mut idx: u64 = 0;
                let mut first = true;
                while *pos < items.len() {
                    let it = &items[*pos];
                    let here = if first { skip } else { 0 };
                    first = false;
                    let mut used = here;
                    if let Some(d) = it.designators.get(here) {
                        if !top && here == 0 {
                            break;
                        }
                        used += 1;
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
                    let grow = (i + 1).saturating_sub(slots.len());
                    if i >= MAX_INIT_SLOTS || grow > *budget {
                        self.error(it.span, format!("array initializer element {i} is beyond what cranecl initialises element by element ({MAX_INIT_SLOTS} in one initializer)"));
                        *pos = items.len();
                        break;
                    }
                    if grow > 0 {
                        *budget -= grow;
                        slots.resize_with(i + 1, || Init::Zero);
                    }
                    let before = *pos;
                    let prior = std::mem::replace(&mut slots[i], Init::Zero);
                    slots[i] = self.item(&elem, items, pos, (used, prior), budget);
                    if !self.progressed(items, before, pos) {
                        break;
                    }
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
                let mut slots: Vec<Init> = match prior {
                    Init::Struct(v) if !is_union && v.len() == fields.len() => v,
                    _ => fields.iter().map(|_| Init::Zero).collect(),
                };
                let mut fi = 0usize;
                let mut union_member = None;
                let mut first = true;
                while *pos < items.len() {
                    let it = &items[*pos];
                    let here = if first { skip } else { 0 };
                    first = false;
                    let mut used = here;
                    if let Some(d) = it.designators.get(here) {
                        if !top && here == 0 {
                            break;
                        }
                        used += 1;
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
                    let before = *pos;
                    let prior = std::mem::replace(&mut slots[fi], Init::Zero);
                    slots[fi] = self.item(&fty, items, pos, (used, prior), budget);
                    if !self.progressed(items, before, pos) {
                        break;
                    }
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
                let before = *pos;
                let init = self.item(ty, items, pos, (skip, prior), budget);
                self.progressed(items, before, pos);
                (ty.clone(), init)
            }
        }
    }

    /// The progress guard of every loop over initialiser items: an element
    /// that consumed no item (an aggregate with nothing to initialise, such
    /// as an empty or incomplete struct, reached by brace elision) is an
    /// error, and the walk stops at the end of the list rather than loop.
    fn progressed(&mut self, items: &[ast::InitItem], before: usize, pos: &mut usize) -> bool {
        if *pos > before {
            return true;
        }
        if let Some(it) = items.get(before) {
            self.error(
                it.span,
                "initializer for aggregate with no elements requires explicit braces",
            );
        }
        *pos = items.len();
        false
    }

    /// One element of type `ty` from `items[*pos]`, whose first `skip`
    /// designators the enclosing objects have applied: the rest of the
    /// designation (`[1].x = `), a nested braced list, an expression of the
    /// element's type, or the start of a brace-elided sub-aggregate, which
    /// goes on with the items that follow (C99 6.7.8p20). `prior`: what
    /// earlier items wrote to this element.
    fn item(
        &mut self,
        ty: &Type,
        items: &[ast::InitItem],
        pos: &mut usize,
        (skip, prior): (usize, Init),
        budget: &mut usize,
    ) -> Init {
        let it = &items[*pos];
        let aggregate = matches!(ty, Type::Array(..) | Type::Record(_));
        if let Some(d) = it.designators.get(skip) {
            if aggregate {
                return self
                    .fill(
                        ty,
                        items,
                        pos,
                        Walk {
                            top: false,
                            skip,
                            prior,
                        },
                        budget,
                    )
                    .1;
            }
            let msg = match d {
                ast::Designator::Index(_) => "array designator cannot initialize non-array type",
                ast::Designator::Member(_) => {
                    "field designator cannot initialize a non-struct, non-union type"
                }
            };
            self.error(it.span, msg);
            *pos += 1;
            return prior;
        }
        match &it.init {
            ast::Initializer::List(..) => {
                *pos += 1;
                self.init_in(ty, &it.init, budget).1
            }
            ast::Initializer::Expr(e) => {
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
                    return self
                        .fill(
                            ty,
                            items,
                            pos,
                            Walk {
                                top: false,
                                skip,
                                prior,
                            },
                            budget,
                        )
                        .1;
                }
                *pos += 1;
                self.init_expr(ty, e).1
            }
        }
    }
}

/// How `fill` walks one object (see there).
struct Walk {
    top: bool,
    skip: usize,
    prior: Init,
}
