//! Types from declaration specifiers and declarators (C99 6.7.2, 6.7.5):
//! combining `unsigned long`, typedef names, structs/unions with their layout,
//! enums, and the pointer/array/function derivations with the address space
//! written at each level (spec 6.7: the qualifier before a `*` names the
//! pointee's space, one after it the pointer object's).
#![forbid(unsafe_code)]

use super::addrspace::AddrSpace;
use super::decl::{ast_scalar, ast_space, Declared, ParamInfo, QualType};
use super::scope::{Symbol, Tag};
use super::types::{Access, FnSig, ImageKind, Pointee, Quals, Scalar, Type};
use super::Checker;
use crate::parse::ast::{self, StorageClass, TypeQualifier, TypeSpecifier as TS};
use crate::source::Span;
use std::collections::HashMap;
use std::sync::Arc;

impl Checker<'_> {
    /// `size_t`, `ptrdiff_t`, `intptr_t`, `uintptr_t` or `bool` written as
    /// the type, directly or through typedefs (they cannot be kernel
    /// parameters: their size differs between host and device).
    pub fn kernel_forbidden_of(&self, specs: &ast::DeclSpecifiers) -> Option<&'static str> {
        specs.type_specs.iter().find_map(|t| match &t.node {
            TS::Scalar(
                s @ (ast::ScalarType::SizeT
                | ast::ScalarType::PtrdiffT
                | ast::ScalarType::IntptrT
                | ast::ScalarType::UintptrT),
            ) => Some(s.name()),
            TS::Bool => Some("bool"),
            TS::TypedefName(n) => self.forbidden_typedefs.get(n.as_str()).copied(),
            _ => None,
        })
    }

    /// An address-space qualifier as written; `generic` exists only with the
    /// generic address space (2.0, or 3.0 with the feature).
    fn space_qualifier(&mut self, s: ast::AddressSpace, span: Span) -> AddrSpace {
        let s = ast_space(s);
        if s == AddrSpace::Generic && !self.opts.generic_address_space {
            let v = self.opts.version;
            self.error(
                span,
                format!(
                    "OpenCL C version {}.{} does not support the 'generic' type qualifier",
                    v / 10,
                    v % 10
                ),
            );
        }
        s
    }

    // ---- Types from specifiers -------------------------------------------

    /// Combine the type specifiers (C99 6.7.2) and qualifiers of a declaration.
    pub fn base_type(&mut self, specs: &ast::DeclSpecifiers) -> QualType {
        let mut quals = Quals::NONE;
        let mut space = None;
        let mut access = None;
        for q in &specs.qualifiers {
            match q.node {
                TypeQualifier::Const => quals.konst = true,
                TypeQualifier::Volatile => quals.volatile = true,
                TypeQualifier::Restrict => quals.restrict = true,
                TypeQualifier::AddressSpace(s) => {
                    let s = self.space_qualifier(s, q.span);
                    if space.is_some_and(|o| o != s) {
                        self.error(q.span, "multiple address spaces specified for type");
                    }
                    space = Some(s);
                }
                TypeQualifier::Access(a) => {
                    access = Some(match a {
                        ast::AccessQualifier::ReadOnly => Access::ReadOnly,
                        ast::AccessQualifier::WriteOnly => Access::WriteOnly,
                        ast::AccessQualifier::ReadWrite => Access::ReadWrite,
                    });
                    if a == ast::AccessQualifier::ReadWrite {
                        if self.opts.version < 20 {
                            self.error(
                                q.span,
                                "access qualifier read_write is not supported before OpenCL C 2.0",
                            );
                        } else if !self.opts.read_write_images {
                            self.error(q.span, "access qualifier read_write requires __opencl_c_read_write_images support");
                        }
                    }
                }
                TypeQualifier::Pipe => {
                    self.error(q.span, "pipes are not supported");
                }
            }
        }
        let ty = self.specifier_type(specs, &mut space, &mut quals);
        let ty = match (ty, access) {
            (
                Type::Image(ImageKind::Image3d, _),
                Some(a @ (Access::WriteOnly | Access::ReadWrite)),
            ) if !self.opts.image3d_writes => {
                let what = if self.opts.version >= 30 {
                    "cl_khr_3d_image_writes and __opencl_c_3d_image_writes"
                } else {
                    "cl_khr_3d_image_writes"
                };
                let sp = specs.span;
                self.error(
                    sp,
                    format!(
                        "use of type '__{} image3d_t' requires {what} support",
                        a.name()
                    ),
                );
                Type::Error
            }
            (Type::Image(k, _), a) => Type::Image(k, a.unwrap_or_default()),
            (t, _) => t,
        };
        QualType {
            ty,
            space,
            quals,
            access,
        }
    }

    fn specifier_type(
        &mut self,
        specs: &ast::DeclSpecifiers,
        space: &mut Option<AddrSpace>,
        quals: &mut Quals,
    ) -> Type {
        let (mut signed, mut unsigned, mut longs) = (false, false, 0);
        let mut base: Option<Type> = None;
        let mut base_span = specs.span;
        let mut int_kw = false;
        let span = specs.span;
        for ts in &specs.type_specs {
            let t = match &ts.node {
                TS::Signed => {
                    signed = true;
                    continue;
                }
                TS::Unsigned => {
                    unsigned = true;
                    continue;
                }
                TS::Long => {
                    longs += 1;
                    continue;
                }
                TS::Int => {
                    int_kw = true;
                    continue;
                }
                TS::Void => Type::Void,
                TS::Char => Type::CHAR,
                TS::Short => Type::Scalar(Scalar::Short),
                TS::Float => Type::FLOAT,
                TS::Double => Type::DOUBLE,
                TS::Half => Type::Scalar(Scalar::Half),
                TS::Bool => Type::BOOL,
                TS::Scalar(s) => Type::Scalar(ast_scalar(*s)),
                TS::Vector(s, n) => Type::Vector(ast_scalar(*s), *n),
                TS::Opaque(o) => self.opaque_type(*o, ts.span),
                TS::Atomic(s) => {
                    if self.opts.version < 20 {
                        self.error(ts.span, "atomic types require OpenCL C 2.0 or later");
                        Type::Error
                    } else {
                        let e = ast_scalar(*s);
                        let has = |n: &str| self.opts.extensions.iter().any(|x| x == n);
                        let int64 = has("cl_khr_int64_base_atomics")
                            && has("cl_khr_int64_extended_atomics");
                        if e.size() == 8 && (!int64 || (e == Scalar::Double && !self.opts.fp64)) {
                            self.error(ts.span, format!("unknown type name 'atomic_{}': 64-bit atomic types need cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics", s.name()));
                            Type::Error
                        } else {
                            Type::Atomic(e)
                        }
                    }
                }
                TS::Struct(s) => self.struct_spec(s),
                TS::Enum(e) => self.enum_spec(e),
                TS::TypedefName(n) => match self.scopes.lookup(n) {
                    Some(Symbol::Typedef {
                        ty,
                        space: s,
                        quals: q,
                    }) => {
                        let (ty, s, q) = (ty.clone(), *s, *q);
                        if space.is_none() {
                            *space = s;
                        }
                        *quals = quals.union(q);
                        ty
                    }
                    _ => {
                        self.error(ts.span, format!("unknown type name '{n}'"));
                        Type::Error
                    }
                },
                TS::Invalid => Type::Error,
            };
            if base.is_some() {
                self.error(ts.span, "cannot combine with previous type specifier");
                return Type::Error;
            }
            base = Some(t);
            base_span = ts.span;
        }
        let ty = match base {
            Some(Type::Scalar(Scalar::Char)) if unsigned => Type::Scalar(Scalar::UChar),
            Some(Type::Scalar(Scalar::Short)) if unsigned => Type::Scalar(Scalar::UShort),
            Some(t) => {
                if (signed || unsigned || longs > 0 || int_kw)
                    && !matches!(t, Type::Scalar(Scalar::Char | Scalar::Short))
                {
                    if longs > 0 && t == Type::DOUBLE {
                        self.error(span, "'long double' is not supported in OpenCL");
                    } else {
                        self.error(span, "cannot combine with previous type specifier");
                    }
                    return Type::Error;
                }
                t
            }
            None => {
                let s = match longs {
                    0 => Scalar::Int,
                    1 => Scalar::Long,
                    // Reserved (spec 6.1.4). clang-14 accepts it as a 128-bit
                    // type, which cranecl does not have.
                    _ => {
                        self.error(span, "'long long' is a reserved data type in OpenCL C");
                        return Type::Error;
                    }
                };
                if !signed && !unsigned && !int_kw && longs == 0 {
                    if !specs.type_specs.is_empty() {
                        return Type::Error;
                    }
                    self.warning(span, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                    return Type::INT;
                }
                Type::Scalar(if unsigned { s.to_unsigned() } else { s })
            }
        };
        if signed && unsigned {
            self.error(span, "'signed' and 'unsigned' cannot be combined");
        }
        self.gate_type(&ty, base_span)
    }

    /// `double` needs fp64; `half` values need fp16 (pointers to half are
    /// allowed for `vload_half`, so this is checked where values are made).
    pub fn gate_type(&mut self, ty: &Type, span: Span) -> Type {
        if ty.mentions(Scalar::Double) && !self.opts.fp64 {
            let what = if self.opts.version >= 30 {
                "cl_khr_fp64 and __opencl_c_fp64"
            } else {
                "cl_khr_fp64"
            };
            self.error(
                span,
                format!("use of type 'double' requires {what} support"),
            );
            return Type::Error;
        }
        ty.clone()
    }

    fn opaque_type(&mut self, o: ast::OpaqueType, span: Span) -> Type {
        use ast::OpaqueType as O;
        match o {
            O::Sampler if !self.opts.images => {
                self.error(
                    span,
                    "use of type 'sampler_t' requires __opencl_c_images support",
                );
                Type::Error
            }
            O::Sampler => Type::Sampler,
            O::Event => Type::Event,
            O::AtomicFlag if self.opts.version >= 20 => Type::AtomicFlag,
            _ => match ImageKind::from_name(o.name()) {
                Some(k) => {
                    if !self.opts.images {
                        self.error(
                            span,
                            format!(
                                "use of type '{}' requires __opencl_c_images support",
                                o.name()
                            ),
                        );
                        return Type::Error;
                    }
                    Type::Image(k, Access::ReadOnly)
                }
                None => {
                    self.error(span, format!("type '{}' is not supported", o.name()));
                    Type::Error
                }
            },
        }
    }

    /// `struct S { ... }`, `union U`, `struct S` (reference or forward).
    fn struct_spec(&mut self, s: &ast::StructSpec) -> Type {
        let is_union = s.kind == ast::StructKind::Union;
        let tag = s.name.as_ref().map(|n| n.node.clone());
        let existing = tag.as_deref().and_then(|t| {
            if s.fields.is_some() {
                self.scopes.lookup_tag_current(t)
            } else {
                self.scopes.lookup_tag(t)
            }
        });
        let id = match existing {
            Some(Tag::Record(id)) if self.prog.records.get(id).is_union == is_union => {
                if s.fields.is_some() && self.prog.records.get(id).complete {
                    self.error(
                        s.span,
                        format!("redefinition of '{}'", tag.as_deref().unwrap_or("")),
                    );
                    return Type::Record(id);
                }
                id
            }
            Some(_) => {
                self.error(
                    s.span,
                    format!(
                        "use of '{}' with tag type that does not match previous declaration",
                        tag.as_deref().unwrap_or("")
                    ),
                );
                return Type::Error;
            }
            None => {
                let id = self.prog.records.declare(tag.clone(), is_union);
                if let Some(t) = &tag {
                    self.scopes.insert_tag(t, Tag::Record(id));
                }
                id
            }
        };
        let Some(fields) = &s.fields else {
            return Type::Record(id);
        };
        let mut laid = Vec::new();
        let mut consts = Vec::new();
        let mut seen: HashMap<String, Span> = HashMap::new();
        for fd in fields {
            let base = self.base_type(&fd.specs);
            if fd.declarators.is_empty() {
                // Anonymous struct/union member.
                laid.push((None, base.ty, None));
                consts.push(base.quals.konst);
                continue;
            }
            for d in &fd.declarators {
                let (name, ty, span, space) = match &d.declarator {
                    Some(decl) => {
                        let dd = self.declarator(base.clone(), decl, false);
                        (
                            decl.name_str().map(str::to_string),
                            dd.qt.ty,
                            decl.span,
                            dd.qt.space,
                        )
                    }
                    None => (None, base.ty.clone(), d.span, base.space),
                };
                if space.is_some() {
                    self.error(span, "field may not be qualified with an address space");
                }
                if d.bit_width.is_some() {
                    self.error(span, "bit-fields are not supported in OpenCL");
                }
                if ty.is_opaque() {
                    self.error(
                        span,
                        format!(
                            "the '{}' type cannot be used to declare a structure or union field",
                            ty.display(&self.prog.records)
                        ),
                    );
                }
                if let Type::Record(r) = &ty {
                    if !self.prog.records.get(*r).complete {
                        self.error(
                            span,
                            format!("field has incomplete type {}", self.ty_str(&ty)),
                        );
                    }
                }
                if matches!(ty, Type::Function(_)) {
                    self.error(span, "field declared as a function");
                }
                let bits = d.bit_width.as_ref().and_then(|w| {
                    let e = self.expr(w);
                    self.const_int(&e).map(|v| v as u32)
                });
                if let Some(n) = &name {
                    if seen.insert(n.clone(), span).is_some() {
                        self.error(span, format!("duplicate member '{n}'"));
                    }
                }
                laid.push((name, ty, bits));
                consts.push(base.quals.konst);
            }
        }
        let packed = s.attributes.iter().any(|a| a.name.node == "packed");
        let mut align = 1;
        for a in &s.attributes {
            if a.name.node == "aligned" {
                align = match a.args.first() {
                    Some(ast::AttributeArg::Expr(e)) => {
                        let e = self.expr(e);
                        self.const_int(&e).map(|v| v as u64).unwrap_or(1)
                    }
                    _ => 16,
                };
            }
        }
        self.prog.records.complete(id, laid, packed, align);
        if let Some(def) = self.prog.records.defs.get_mut(id.0 as usize) {
            for (f, k) in def.fields.iter_mut().zip(consts) {
                f.konst = k;
            }
        }
        Type::Record(id)
    }

    /// `enum E { A, B = 3 }`. The enumeration's type is the first of
    /// `int` (some value negative) or `unsigned int`, then `long` or
    /// `unsigned long`, that holds every value; an enumerator is an `int`
    /// constant when its value fits, else of the enumeration's type (what
    /// clang does, extending C99 6.7.2.2 as GCC does).
    fn enum_spec(&mut self, e: &ast::EnumSpec) -> Type {
        if let Some(n) = &e.name {
            let clash = if e.enumerators.is_some() {
                self.scopes.lookup_tag_current(&n.node)
            } else {
                self.scopes.lookup_tag(&n.node)
            };
            match clash {
                Some(Tag::Record(_)) => {
                    self.error(
                        n.span,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            n.node
                        ),
                    );
                    return Type::Error;
                }
                Some(Tag::Enum(s)) if e.enumerators.is_none() => return Type::Scalar(s),
                _ => {}
            }
            if e.enumerators.is_none() {
                // A forward reference (an extension): `int` until defined.
                self.scopes.insert_tag(&n.node, Tag::Enum(Scalar::Int));
                return Type::INT;
            }
        }
        let Some(list) = &e.enumerators else {
            return Type::INT;
        };
        let mut next: i128 = 0;
        let mut values = Vec::with_capacity(list.len());
        for en in list {
            if let Some(v) = &en.value {
                let x = self.expr(v);
                match self.const_ice(&x) {
                    Some(v) => next = v,
                    None if x.ty.is_error() => {}
                    None => self.error(v.span, "expression is not an integer constant expression"),
                }
            }
            if let Some((_, prev)) = self.scopes.lookup_current(&en.name.node) {
                let prev = *prev;
                self.error(
                    en.name.span,
                    format!("redefinition of enumerator '{}'", en.name.node),
                );
                self.note(prev, "previous definition is here");
            }
            // Until the list ends, a value past `int` has the type of the
            // smallest of `long`/`unsigned long` that holds it.
            let provisional = enum_const_type(
                next,
                if next < 0 {
                    Scalar::Long
                } else {
                    Scalar::ULong
                },
            );
            self.scopes.insert(
                &en.name.node,
                Symbol::EnumConst(next, provisional),
                en.name.span,
            );
            values.push((&en.name, next));
            next += 1;
        }
        let min = values.iter().map(|v| v.1).min().unwrap_or(0);
        let max = values.iter().map(|v| v.1).max().unwrap_or(0);
        let underlying = if min < 0 {
            if min >= i128::from(i32::MIN) && max <= i128::from(i32::MAX) {
                Some(Scalar::Int)
            } else if min >= i128::from(i64::MIN) && max <= i128::from(i64::MAX) {
                Some(Scalar::Long)
            } else {
                None
            }
        } else if max <= i128::from(u32::MAX) {
            Some(Scalar::UInt)
        } else if max <= i128::from(u64::MAX) {
            Some(Scalar::ULong)
        } else {
            None
        };
        let underlying = underlying.unwrap_or_else(|| {
            let (name, v) = values.iter().find(|(_, v)| *v > i128::from(i64::MAX) || *v < i128::from(i64::MIN)).copied().unwrap_or(values[0]);
            self.error(
                name.span,
                format!("enumerator value {v} of '{}' does not fit in any integer type of the enumeration", name.node),
            );
            Scalar::Long
        });
        for (name, v) in values {
            self.scopes.insert(
                &name.node,
                Symbol::EnumConst(v, enum_const_type(v, underlying)),
                name.span,
            );
        }
        if let Some(n) = &e.name {
            self.scopes.insert_tag(&n.node, Tag::Enum(underlying));
        }
        Type::Scalar(underlying)
    }

    // ---- Declarators -------------------------------------------------------

    /// Apply a declarator's derivations to a base type. `is_param`: arrays
    /// and functions adjust to pointers (C99 6.7.5.3).
    pub fn declarator(&mut self, base: QualType, d: &ast::Declarator, is_param: bool) -> Declared {
        let mut cur = base;
        let mut params = Vec::new();
        let default_space = self.opts.default_pointee_space();
        for (i, der) in d.derived.iter().enumerate().rev() {
            match der {
                ast::DerivedDeclarator::Pointer(p) => {
                    if cur.quals.restrict && !cur.ty.is_pointer() && !cur.ty.is_error() {
                        let msg = format!(
                            "restrict requires a pointer or reference ({} is invalid)",
                            self.ty_str(&cur.ty)
                        );
                        self.error(p.span, msg);
                    }
                    match &cur.ty {
                        Type::Function(_) => {
                            self.error(p.span, "pointers to functions are not allowed in OpenCL")
                        }
                        Type::Image(..) | Type::Sampler => {
                            let msg = format!(
                                "pointer to type '{}' is invalid in OpenCL",
                                cur.ty.display(&self.prog.records)
                            );
                            self.error(p.span, msg);
                        }
                        _ => {}
                    }
                    let pointee = Pointee {
                        ty: cur.ty,
                        space: cur.space.unwrap_or(default_space),
                        quals: cur.quals,
                    };
                    let mut q = QualType {
                        ty: Type::Pointer(Arc::new(pointee)),
                        space: None,
                        quals: Quals::NONE,
                        access: None,
                    };
                    for qual in &p.qualifiers {
                        match qual.node {
                            TypeQualifier::Const => q.quals.konst = true,
                            TypeQualifier::Volatile => q.quals.volatile = true,
                            TypeQualifier::Restrict => q.quals.restrict = true,
                            TypeQualifier::AddressSpace(s) => {
                                q.space = Some(self.space_qualifier(s, qual.span))
                            }
                            _ => {}
                        }
                    }
                    cur = q;
                }
                ast::DerivedDeclarator::Array(a) => {
                    if let Type::Function(_) = cur.ty {
                        let n = d.name_str().unwrap_or("type name");
                        self.error(a.span, format!("'{n}' declared as array of functions"));
                        cur.ty = Type::Error;
                    }
                    let len = a.size.as_ref().and_then(|s| {
                        let e = self.expr(s);
                        if e.ty.is_error() {
                            return None;
                        }
                        match self.const_int(&e) {
                            Some(v) if v > 0 => Some(v as u64),
                            Some(v) if v < 0 => {
                                self.error(s.span, "array size is negative");
                                None
                            }
                            Some(_) => Some(0),
                            None => {
                                self.error(
                                    s.span,
                                    "variable length arrays are not supported in OpenCL",
                                );
                                None
                            }
                        }
                    });
                    if cur.ty.is_void() {
                        self.error(a.span, "array has incomplete element type 'void'");
                        cur.ty = Type::Error;
                    }
                    cur.ty = Type::Array(Arc::new(cur.ty), len);
                    if i == 0 && is_param {
                        // `int a[]` as a parameter is `int *a`.
                        let elem = cur.ty.array_elem().cloned().unwrap_or(Type::Error);
                        // The array would be a private object, so its pointer points to
                        // private memory even where `int *` means generic (clang).
                        cur.ty =
                            Type::ptr(elem, cur.space.unwrap_or(AddrSpace::Private), cur.quals);
                        cur.space = None;
                        cur.quals = Quals::NONE;
                    }
                }
                ast::DerivedDeclarator::Function(f) => {
                    match &cur.ty {
                        Type::Array(..) => {
                            let msg = format!(
                                "function cannot return array type {}",
                                self.ty_str(&cur.ty)
                            );
                            self.error(f.span, msg);
                            cur.ty = Type::Error;
                        }
                        Type::Function(_) => {
                            self.error(f.span, "function cannot return function type");
                            cur.ty = Type::Error;
                        }
                        Type::Image(..) | Type::Sampler => {
                            let msg = format!(
                                "declaring function return value of type {} is not allowed",
                                self.ty_str(&cur.ty)
                            );
                            self.error(f.span, msg);
                            cur.ty = Type::Error;
                        }
                        _ => {}
                    }
                    if let Some(s) = cur.space {
                        let _ = s;
                        self.error(
                            f.span,
                            "return value cannot be qualified with address space",
                        );
                        cur.space = None;
                    }
                    if f.variadic {
                        self.error(
                            d.span,
                            "invalid prototype, variadic arguments are not allowed in OpenCL",
                        );
                    }
                    params = self.params(f);
                    let sig = FnSig {
                        ret: cur.ty,
                        params: params.iter().map(|p| p.qt.ty.clone()).collect(),
                        variadic: false,
                    };
                    cur = QualType {
                        ty: Type::Function(Arc::new(sig)),
                        space: None,
                        quals: Quals::NONE,
                        access: None,
                    };
                }
            }
        }
        if cur.quals.restrict && !cur.ty.is_pointer() && !cur.ty.is_error() && !cur.ty.is_array() {
            let msg = format!(
                "restrict requires a pointer or reference ({} is invalid)",
                self.ty_str(&cur.ty)
            );
            self.error(d.span, msg);
        }
        Declared { qt: cur, params }
    }

    fn params(&mut self, f: &ast::FunctionDeclarator) -> Vec<ParamInfo> {
        let mut out = Vec::new();
        for p in &f.params {
            let base = self.base_type(&p.specs);
            let forbidden = if p.declarator.derived.is_empty() {
                self.kernel_forbidden_of(&p.specs)
            } else {
                None
            };
            let d = self.declarator(base, &p.declarator, true);
            if d.qt.ty.is_void() && p.declarator.name.is_none() && f.params.len() == 1 {
                break; // `(void)`
            }
            if d.qt.ty.is_void() {
                self.error(p.span, "argument may not have 'void' type");
            }
            let mut qt = d.qt;
            if let Type::Function(_) = &qt.ty {
                qt.ty = Type::ptr(qt.ty.clone(), AddrSpace::Private, Quals::NONE);
            }
            let type_name = written_type_name(&p.specs, &p.declarator)
                .unwrap_or_else(|| self.arg_type_name(&qt.ty));
            out.push(ParamInfo {
                name: p.declarator.name_str().map(str::to_string),
                qt,
                type_name,
                kernel_forbidden: forbidden,
                // Diagnostics about a parameter point at its name, as clang's do.
                span: p.declarator.name.as_ref().map_or(p.span, |n| n.span),
            });
        }
        out
    }

    /// The type name `clGetKernelArgInfo` reports: no address space, `*`
    /// after the pointee (`float4*`, `uint`, `struct S*`).
    fn arg_type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Pointer(p) => format!("{}*", self.arg_type_name(&p.ty)),
            Type::Image(k, _) => k.name().to_string(),
            t => t.display(&self.prog.records).to_string(),
        }
    }

    /// `typedef`/`extern`/`static`: at most one storage class.
    pub fn check_storage(&mut self, specs: &ast::DeclSpecifiers) -> Option<StorageClass> {
        if specs.storage.len() > 1 {
            self.error(
                specs.storage[1].span,
                "cannot combine with previous storage class specifier",
            );
        }
        let s = specs.storage.first()?;
        if matches!(s.node, StorageClass::Auto | StorageClass::Register) {
            let kw = if s.node == StorageClass::Auto {
                "auto"
            } else {
                "register"
            };
            let v = self.opts.version;
            self.error(
                s.span,
                format!(
                    "OpenCL C version {}.{} does not support the '{kw}' storage class specifier",
                    v / 10,
                    v % 10
                ),
            );
        }
        Some(s.node)
    }

    /// A type name (casts, sizeof).
    pub fn type_name(&mut self, t: &ast::TypeName) -> QualType {
        let base = self.base_type(&t.specs);
        self.declarator(base, &t.declarator, false).qt
    }
}

/// The type name as written, for `CL_KERNEL_ARG_TYPE_NAME`: typedef names
/// kept (`myfloat4*`), OpenCL spellings for C keywords (`unsigned int` is
/// `uint`), one `*` per pointer (or array parameter) level, no qualifiers.
/// `None` where the declarator is not a plain pointer/array chain.
fn written_type_name(specs: &ast::DeclSpecifiers, d: &ast::Declarator) -> Option<String> {
    let mut unsigned = false;
    let mut longs = 0;
    let mut base: Option<String> = None;
    for ts in &specs.type_specs {
        let name = match &ts.node {
            TS::Unsigned => {
                unsigned = true;
                continue;
            }
            TS::Signed | TS::Int => continue,
            TS::Long => {
                longs += 1;
                continue;
            }
            TS::Void => "void".to_string(),
            TS::Char => "char".to_string(),
            TS::Short => "short".to_string(),
            TS::Float => "float".to_string(),
            TS::Double => "double".to_string(),
            TS::Half => "half".to_string(),
            TS::Bool => "bool".to_string(),
            TS::Scalar(s) => s.name().to_string(),
            TS::Vector(s, n) => format!("{}{n}", s.name()),
            TS::Opaque(o) => o.name().to_string(),
            TS::Atomic(s) => format!("atomic_{}", s.name()),
            TS::TypedefName(n) => n.clone(),
            TS::Struct(s) => {
                let kw = if s.kind == ast::StructKind::Union {
                    "union"
                } else {
                    "struct"
                };
                format!("{kw} {}", s.name.as_ref()?.node)
            }
            TS::Enum(e) => format!("enum {}", e.name.as_ref()?.node),
            TS::Invalid => return None,
        };
        base = Some(name);
    }
    let mut base = match base {
        Some(b) => b,
        None if longs > 0 => "long".to_string(),
        None => "int".to_string(),
    };
    if unsigned && matches!(base.as_str(), "char" | "short" | "int" | "long") {
        base.insert(0, 'u');
    } else if longs > 0 && base == "int" {
        base = "long".to_string();
    }
    let mut stars = 0;
    for der in &d.derived {
        match der {
            ast::DerivedDeclarator::Pointer(_) | ast::DerivedDeclarator::Array(_) => stars += 1,
            ast::DerivedDeclarator::Function(_) => return None,
        }
    }
    Some(format!("{base}{}", "*".repeat(stars)))
}

/// The type of an enumeration constant of value `v`: `int` when it fits,
/// else `underlying` (the enumeration's type).
fn enum_const_type(v: i128, underlying: Scalar) -> Scalar {
    if i32::try_from(v).is_ok() {
        Scalar::Int
    } else {
        underlying
    }
}
