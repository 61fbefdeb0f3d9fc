//! Declarations: types from specifiers and declarators, typedefs, structs,
//! unions and enums, functions (kernels with their parameters and
//! attributes), program-scope and block-scope variables, and where each may
//! live (OpenCL C 3.0 spec 6.7, 6.9, 6.11).
#![forbid(unsafe_code)]

use super::addrspace::AddrSpace;
use super::hir::{self, FuncId, GlobalId, LocalId, VarRef};
use super::scope::{Symbol, Tag};
use super::types::{Access, FnSig, ImageKind, Pointee, Quals, Scalar, Type};
use super::{Checker, FnCtx};
use crate::parse::ast::{self, StorageClass, TypeQualifier, TypeSpecifier as TS};
use crate::source::Span;
use std::collections::HashMap;
use std::rc::Rc;

/// A type with the address space and qualifiers written on the object.
#[derive(Clone, Debug)]
pub struct QualType {
    pub ty: Type,
    pub space: Option<AddrSpace>,
    pub quals: Quals,
    pub access: Option<Access>,
}

/// What a declarator declared, besides its type: the parameter names of a
/// function declarator (for definitions).
pub struct Declared {
    pub qt: QualType,
    pub params: Vec<ParamInfo>,
}

#[derive(Clone)]
pub struct ParamInfo {
    pub name: Option<String>,
    pub qt: QualType,
    pub type_name: String,
    /// The parameter was written with one of `size_t`, `ptrdiff_t`,
    /// `intptr_t`, `uintptr_t`, `bool`, `half` directly (kernel args may not).
    pub kernel_forbidden: Option<&'static str>,
    pub span: Span,
}

pub fn ast_space(s: ast::AddressSpace) -> AddrSpace {
    match s {
        ast::AddressSpace::Global => AddrSpace::Global,
        ast::AddressSpace::Local => AddrSpace::Local,
        ast::AddressSpace::Constant => AddrSpace::Constant,
        ast::AddressSpace::Private => AddrSpace::Private,
        ast::AddressSpace::Generic => AddrSpace::Generic,
    }
}

fn ast_scalar(s: ast::ScalarType) -> Scalar {
    use ast::ScalarType as A;
    match s {
        A::Bool => Scalar::Bool,
        A::Char => Scalar::Char,
        A::UChar => Scalar::UChar,
        A::Short => Scalar::Short,
        A::UShort => Scalar::UShort,
        A::Int => Scalar::Int,
        A::UInt => Scalar::UInt,
        A::Long | A::PtrdiffT | A::IntptrT => Scalar::Long,
        A::ULong | A::SizeT | A::UintptrT => Scalar::ULong,
        A::Half => Scalar::Half,
        A::Float => Scalar::Float,
        A::Double => Scalar::Double,
    }
}

impl Checker<'_> {
    /// `cl_mem_fence_flags`, `memory_order`, `memory_scope` and their
    /// enumerators (from the standard headers' typedefs and enums).
    pub(super) fn declare_predefined(&mut self) {
        let sp = Span::default();
        for name in ast::PREDEFINED_TYPEDEFS {
            let ty = if *name == "cl_mem_fence_flags" {
                Type::UINT
            } else {
                Type::INT
            };
            self.scopes.insert(
                name,
                Symbol::Typedef {
                    ty,
                    space: None,
                    quals: Quals::NONE,
                },
                sp,
            );
        }
        // The header constants, in case the preprocessor has not defined
        // them as macros (a macro, when defined, replaces them first).
        let clk: &[(&str, i128)] = &[
            ("CLK_LOCAL_MEM_FENCE", 1),
            ("CLK_GLOBAL_MEM_FENCE", 2),
            ("CLK_IMAGE_MEM_FENCE", 4),
            ("CLK_ADDRESS_NONE", 0),
            ("CLK_ADDRESS_CLAMP_TO_EDGE", 2),
            ("CLK_ADDRESS_CLAMP", 4),
            ("CLK_ADDRESS_REPEAT", 6),
            ("CLK_ADDRESS_MIRRORED_REPEAT", 8),
            ("CLK_NORMALIZED_COORDS_FALSE", 0),
            ("CLK_NORMALIZED_COORDS_TRUE", 1),
            ("CLK_FILTER_NEAREST", 0x10),
            ("CLK_FILTER_LINEAR", 0x20),
        ];
        for (n, v) in clk {
            self.scopes.insert(n, Symbol::EnumConst(*v), sp);
        }
        if self.opts.version >= 20 {
            let consts: &[(&str, i128)] = &[
                ("memory_order_relaxed", 0),
                ("memory_order_acquire", 2),
                ("memory_order_release", 3),
                ("memory_order_acq_rel", 4),
                ("memory_order_seq_cst", 5),
                ("memory_scope_work_item", 4),
                ("memory_scope_work_group", 1),
                ("memory_scope_device", 2),
                ("memory_scope_all_svm_devices", 3),
                ("memory_scope_all_devices", 3),
            ];
            for (n, v) in consts {
                self.scopes.insert(n, Symbol::EnumConst(*v), sp);
            }
        }
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
                    let s = ast_space(s);
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
                        Type::Atomic(ast_scalar(*s))
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
                    _ => {
                        self.error(span, "'long long' is not supported in OpenCL");
                        return Type::Error;
                    }
                };
                if !signed && !unsigned && !int_kw && longs == 0 {
                    if !specs.type_specs.is_empty() {
                        return Type::Error;
                    }
                    self.error(span, "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
                    return Type::INT;
                }
                Type::Scalar(if unsigned { s.to_unsigned() } else { s })
            }
        };
        if signed && unsigned {
            self.error(span, "'signed' and 'unsigned' cannot be combined");
        }
        self.gate_type(&ty, span)
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
        let mut seen: HashMap<String, Span> = HashMap::new();
        for fd in fields {
            let base = self.base_type(&fd.specs);
            if fd.declarators.is_empty() {
                // Anonymous struct/union member.
                laid.push((None, base.ty, None));
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
        Type::Record(id)
    }

    /// `enum E { A, B = 3 }`: enumerators are `int` constants.
    fn enum_spec(&mut self, e: &ast::EnumSpec) -> Type {
        if let Some(n) = &e.name {
            if e.enumerators.is_none() && self.scopes.lookup_tag(&n.node).is_none() {
                self.scopes.insert_tag(&n.node, Tag::Enum);
            }
        }
        if let Some(list) = &e.enumerators {
            if let Some(n) = &e.name {
                self.scopes.insert_tag(&n.node, Tag::Enum);
            }
            let mut next: i128 = 0;
            for en in list {
                if let Some(v) = &en.value {
                    let x = self.expr(v);
                    match self.const_int(&x) {
                        Some(v) => next = v,
                        None if x.ty.is_error() => {}
                        None => {
                            self.error(v.span, "expression is not an integer constant expression")
                        }
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
                self.scopes
                    .insert(&en.name.node, Symbol::EnumConst(next), en.name.span);
                next += 1;
            }
        }
        Type::INT
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
                        ty: Type::Pointer(Rc::new(pointee)),
                        space: None,
                        quals: Quals::NONE,
                        access: None,
                    };
                    for qual in &p.qualifiers {
                        match qual.node {
                            TypeQualifier::Const => q.quals.konst = true,
                            TypeQualifier::Volatile => q.quals.volatile = true,
                            TypeQualifier::Restrict => q.quals.restrict = true,
                            TypeQualifier::AddressSpace(s) => q.space = Some(ast_space(s)),
                            _ => {}
                        }
                    }
                    cur = q;
                }
                ast::DerivedDeclarator::Array(a) => {
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
                    cur.ty = Type::Array(Rc::new(cur.ty), len);
                    if i == 0 && is_param {
                        // `int a[]` as a parameter is `int *a`.
                        let elem = cur.ty.array_elem().cloned().unwrap_or(Type::Error);
                        cur.ty = Type::ptr(elem, cur.space.unwrap_or(default_space), cur.quals);
                        cur.space = None;
                        cur.quals = Quals::NONE;
                    }
                }
                ast::DerivedDeclarator::Function(f) => {
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
                        ty: Type::Function(Rc::new(sig)),
                        space: None,
                        quals: Quals::NONE,
                        access: None,
                    };
                }
            }
        }
        Declared { qt: cur, params }
    }

    fn params(&mut self, f: &ast::FunctionDeclarator) -> Vec<ParamInfo> {
        let mut out = Vec::new();
        for p in &f.params {
            let base = self.base_type(&p.specs);
            let forbidden = if p.declarator.derived.is_empty() {
                p.specs.type_specs.iter().find_map(|t| match &t.node {
                    TS::Scalar(
                        s @ (ast::ScalarType::SizeT
                        | ast::ScalarType::PtrdiffT
                        | ast::ScalarType::IntptrT
                        | ast::ScalarType::UintptrT),
                    ) => Some(s.name()),
                    TS::Bool => Some("bool"),
                    _ => None,
                })
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
            let type_name = self.arg_type_name(&qt.ty);
            out.push(ParamInfo {
                name: p.declarator.name_str().map(str::to_string),
                qt,
                type_name,
                kernel_forbidden: forbidden,
                span: p.span,
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

    // ---- Functions ---------------------------------------------------------

    /// Declare (or re-declare) a function by name; its id.
    fn declare_function(&mut self, name: &str, sig: &Rc<FnSig>, span: Span) -> FuncId {
        if let Some(Symbol::Func(id)) = self.scopes.lookup(name) {
            let id = *id;
            let f = self.prog.function(id);
            let old = FnSig {
                ret: f.ret.clone(),
                params: f.params.iter().map(|p| p.ty.clone()).collect(),
                variadic: false,
            };
            if old != **sig && !sig.ret.is_error() && !sig.params.iter().any(Type::is_error) {
                let prev = f.span;
                self.error(span, format!("conflicting types for '{name}'"));
                self.note(prev, "previous declaration is here");
            }
            return id;
        }
        if self.is_builtin_name(name) {
            // Redeclaring a built-in: allowed by clang only as overloads; we
            // let the user's function shadow it.
        }
        let id = FuncId(self.prog.functions.len() as u32);
        self.prog.functions.push(hir::Function {
            name: name.to_string(),
            ret: sig.ret.clone(),
            params: sig
                .params
                .iter()
                .enumerate()
                .map(|(i, t)| hir::Param {
                    name: String::new(),
                    ty: t.clone(),
                    space: AddrSpace::Private,
                    access: None,
                    type_quals: Quals::NONE,
                    type_name: String::new(),
                    local: LocalId(i as u32),
                    span,
                })
                .collect(),
            locals: Vec::new(),
            kernel: None,
            body: None,
            callees: Vec::new(),
            span,
        });
        self.scopes.insert_global(name, Symbol::Func(id), span);
        id
    }

    fn is_builtin_name(&self, name: &str) -> bool {
        !matches!(
            super::builtins::resolve(name, &[], &self.env),
            super::builtins::Resolution::NotBuiltin
        )
    }

    /// Whether a struct (or a nested one) has a pointer field.
    fn record_has_pointer(&self, r: super::types::RecordId, depth: u32) -> bool {
        depth < 64
            && self.prog.records.get(r).fields.iter().any(|f| {
                let mut t = &f.ty;
                while let Type::Array(e, _) = t {
                    t = e;
                }
                match t {
                    Type::Pointer(_) => true,
                    Type::Record(inner) => self.record_has_pointer(*inner, depth + 1),
                    _ => false,
                }
            })
    }

    /// `kernel void f(global int *p) { ... }`, `int g(int x) { ... }`.
    pub fn function_def(&mut self, f: &ast::FunctionDef) {
        let base = self.base_type(&f.specs);
        let is_kernel = f.specs.is_kernel();
        let name = f.name().to_string();
        let d = self.declarator(base, &f.declarator, false);
        let Type::Function(sig) = d.qt.ty.clone() else {
            self.error(f.declarator.span, "expected a function declarator");
            return;
        };
        let storage = self.check_storage(&f.specs, true);
        if is_kernel && storage == Some(StorageClass::Static) {
            self.error(f.specs.span, "kernel functions cannot be declared static");
        }
        if !is_kernel {
            for a in f
                .specs
                .attributes
                .iter()
                .chain(f.declarator.attributes.iter())
            {
                let n = a.name.node.as_str();
                if matches!(
                    n,
                    "reqd_work_group_size" | "work_group_size_hint" | "vec_type_hint"
                ) {
                    self.error(
                        a.span,
                        format!("'{n}' attribute only applies to kernel functions"),
                    );
                }
            }
        }
        if is_kernel && !sig.ret.is_void() && !sig.ret.is_error() {
            self.error(f.declarator.span, "kernel must have void return type");
        }
        if let Some(prev) = self.defined.get(&name).copied() {
            self.error(
                f.declarator.name.as_ref().map_or(f.span, |n| n.span),
                format!("redefinition of '{name}'"),
            );
            self.note(prev, "previous definition is here");
            return;
        }
        let name_span = f.declarator.name.as_ref().map_or(f.span, |n| n.span);
        self.defined.insert(name.clone(), name_span);
        let id = self.declare_function(&name, &sig, name_span);
        let mut func = hir::Function {
            name: name.clone(),
            ret: sig.ret.clone(),
            params: Vec::new(),
            locals: Vec::new(),
            kernel: None,
            body: None,
            callees: Vec::new(),
            span: name_span,
        };
        self.scopes.push();
        for (i, p) in d.params.iter().enumerate() {
            let pname = p.name.clone().unwrap_or_default();
            let ty = p.qt.ty.clone();
            if is_kernel {
                self.check_kernel_param(p);
            } else if let Some(s) = p.qt.space.filter(|s| *s != AddrSpace::Private) {
                let _ = s;
                self.error(
                    p.span,
                    "parameter may not be qualified with an address space",
                );
            }
            let (space, type_quals) = match &ty {
                Type::Pointer(pt) => (
                    pt.space,
                    Quals {
                        restrict: p.qt.quals.restrict,
                        ..pt.quals
                    },
                ),
                _ => (AddrSpace::Private, p.qt.quals),
            };
            func.params.push(hir::Param {
                name: pname.clone(),
                ty: ty.clone(),
                space,
                access: if matches!(ty, Type::Image(..)) {
                    Some(p.qt.access.unwrap_or_default())
                } else {
                    p.qt.access
                },
                type_quals,
                type_name: p.type_name.clone(),
                local: LocalId(i as u32),
                span: p.span,
            });
            func.locals.push(hir::Local {
                name: pname.clone(),
                ty: ty.clone(),
                space: AddrSpace::Private,
                quals: p.qt.quals,
                address_taken: false,
                span: p.span,
            });
            if !pname.is_empty() {
                if self.scopes.lookup_current(&pname).is_some() {
                    self.error(p.span, format!("redefinition of parameter '{pname}'"));
                }
                self.scopes.insert(
                    &pname,
                    Symbol::Var {
                        var: VarRef::Local(LocalId(i as u32)),
                        ty,
                        space: AddrSpace::Private,
                        quals: p.qt.quals,
                    },
                    p.span,
                );
            }
        }
        if is_kernel {
            func.kernel = Some(self.kernel_attrs(f));
        }
        self.fx = Some(FnCtx {
            id,
            is_kernel,
            ret: sig.ret.clone(),
            func,
            block_depth: 0,
            loop_depth: 0,
            switch_depth: 0,
            cases: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
        });
        let body = self.block_items(&f.body, false);
        if !sig.ret.is_void()
            && !sig.ret.is_error()
            && !matches!(
                body.stmts.last(),
                Some(hir::Stmt {
                    kind: hir::StmtKind::Return(_),
                    ..
                })
            )
            && name != "main"
        {
            let end = Span::new(
                f.body.span.file,
                f.body.span.hi.saturating_sub(1),
                f.body.span.hi,
            );
            self.warning(
                end,
                format!("non-void function '{name}' does not return a value in all control paths"),
            );
        }
        self.scopes.pop();
        let Some(mut fx) = self.fx.take() else { return };
        for (label, span) in std::mem::take(&mut fx.gotos) {
            if !fx.labels.contains_key(&label) {
                self.error(span, format!("use of undeclared label '{label}'"));
            }
        }
        fx.func.body = Some(body);
        self.prog.functions[id.0 as usize] = fx.func;
    }

    /// Kernel parameter rules (spec 6.9): pointers point to global, local or
    /// constant; no `bool`, `size_t`, `ptrdiff_t`, `intptr_t`, `uintptr_t`,
    /// `half` (without fp16), `event_t`.
    fn check_kernel_param(&mut self, p: &ParamInfo) {
        match &p.qt.ty {
            Type::Pointer(pt) => {
                if !matches!(
                    pt.space,
                    AddrSpace::Global | AddrSpace::Local | AddrSpace::Constant
                ) {
                    self.error(p.span, "pointer arguments to kernel functions must reside in '__global', '__constant' or '__local' address space");
                }
                if matches!(pt.ty, Type::Pointer(_)) {
                    self.error(
                        p.span,
                        "kernel parameter cannot be declared as a pointer to a pointer",
                    );
                }
            }
            Type::Event => self.error(
                p.span,
                "'event_t' cannot be used as the type of a kernel parameter",
            ),
            Type::Record(r) if self.record_has_pointer(*r, 0) => {
                self.error(p.span, "struct kernel parameters may not contain pointers")
            }
            Type::Scalar(Scalar::Half) if !self.opts.fp16 => self.error(
                p.span,
                "declaring function parameter of type 'half' is not allowed; did you forget * ?",
            ),
            _ => {
                if let Some(n) = p.kernel_forbidden {
                    self.error(
                        p.span,
                        format!("'{n}' cannot be used as the type of a kernel parameter"),
                    );
                }
            }
        }
        if let Some(s) = p.qt.space.filter(|s| *s != AddrSpace::Private) {
            let _ = s;
            self.error(
                p.span,
                "parameter may not be qualified with an address space",
            );
        }
    }

    /// `__attribute__((reqd_work_group_size(X, Y, Z)))` and friends (spec 6.11.2).
    fn kernel_attrs(&mut self, f: &ast::FunctionDef) -> hir::KernelInfo {
        let mut attrs = hir::KernelAttrs::default();
        let mut text = Vec::new();
        let all: Vec<&ast::Attribute> = f
            .specs
            .attributes
            .iter()
            .chain(f.declarator.attributes.iter())
            .collect();
        for a in all {
            match a.name.node.as_str() {
                n @ ("reqd_work_group_size" | "work_group_size_hint") => {
                    let mut dims = [1u64; 3];
                    if a.args.len() != 3 {
                        self.error(
                            a.span,
                            format!("'{n}' attribute requires exactly 3 arguments"),
                        );
                        continue;
                    }
                    for (i, arg) in a.args.iter().enumerate() {
                        if let ast::AttributeArg::Expr(e) = arg {
                            let x = self.expr(e);
                            match self.const_int(&x) {
                                Some(v) if v > 0 => dims[i] = v as u64,
                                _ => self.error(e.span, format!("'{n}' attribute requires a positive integral compile time constant expression")),
                            }
                        }
                    }
                    text.push(format!("{n}({},{},{})", dims[0], dims[1], dims[2]));
                    if n == "reqd_work_group_size" {
                        attrs.reqd_work_group_size = Some(dims);
                    } else {
                        attrs.work_group_size_hint = Some(dims);
                    }
                }
                "vec_type_hint" => {
                    if let Some(ast::AttributeArg::Type(t)) = a.args.first() {
                        let qt = self.type_name(t);
                        let s = qt.ty.display(&self.prog.records).to_string();
                        text.push(format!("vec_type_hint({s})"));
                        attrs.vec_type_hint = Some(s);
                    }
                }
                _ => {}
            }
        }
        hir::KernelInfo {
            attrs,
            attr_string: text.join(" "),
        }
    }

    /// `typedef`/`extern`/`static`: at most one storage class.
    fn check_storage(&mut self, specs: &ast::DeclSpecifiers, is_fn: bool) -> Option<StorageClass> {
        if specs.storage.len() > 1 {
            self.error(
                specs.storage[1].span,
                "cannot combine with previous storage class specifier",
            );
        }
        let s = specs.storage.first()?;
        if matches!(s.node, StorageClass::Auto | StorageClass::Register)
            && self.scopes.at_file_scope()
            && !is_fn
        {
            self.error(s.span, "illegal storage class on file-scoped variable");
        }
        Some(s.node)
    }

    /// A type name (casts, sizeof).
    pub fn type_name(&mut self, t: &ast::TypeName) -> QualType {
        let base = self.base_type(&t.specs);
        self.declarator(base, &t.declarator, false).qt
    }

    // ---- Variables ---------------------------------------------------------

    /// A declaration at file scope: typedefs, prototypes, program-scope variables.
    pub fn file_declaration(&mut self, d: &ast::Declaration) {
        let storage = self.check_storage(&d.specs, false);
        let base = self.base_type(&d.specs);
        for id in &d.declarators {
            let Some(name) = id.declarator.name.as_ref() else {
                continue;
            };
            let dd = self.declarator(base.clone(), &id.declarator, false);
            if storage == Some(StorageClass::Typedef) {
                self.declare_typedef(&name.node, dd.qt, name.span);
                continue;
            }
            if let Type::Function(sig) = &dd.qt.ty {
                if d.specs.is_kernel() && !sig.ret.is_void() {
                    self.error(id.declarator.span, "kernel must have void return type");
                }
                self.declare_function(&name.node, sig, name.span);
                continue;
            }
            self.program_scope_var(&name.node, name.span, dd.qt, storage, id.init.as_ref());
        }
    }

    fn declare_typedef(&mut self, name: &str, qt: QualType, span: Span) {
        if let Some((Symbol::Typedef { ty, .. }, _)) = self.scopes.lookup_current(name) {
            if *ty == qt.ty {
                return;
            }
            self.error(
                span,
                format!("typedef redefinition with different types for '{name}'"),
            );
            return;
        }
        self.scopes.insert(
            name,
            Symbol::Typedef {
                ty: qt.ty,
                space: qt.space,
                quals: qt.quals,
            },
            span,
        );
    }

    /// Program-scope variables (spec 6.7.1): in `constant`, or `global` where
    /// program-scope globals exist (OpenCL C 2.0, or 3.0 with the feature).
    fn program_scope_var(
        &mut self,
        name: &str,
        span: Span,
        qt: QualType,
        storage: Option<StorageClass>,
        init: Option<&ast::Initializer>,
    ) {
        let is_extern = storage == Some(StorageClass::Extern);
        let space = match qt.space {
            Some(AddrSpace::Constant) => AddrSpace::Constant,
            Some(AddrSpace::Global) | None if self.opts.program_scope_globals => AddrSpace::Global,
            Some(AddrSpace::Global) | None => {
                self.error(
                    span,
                    self.program_scope_message(
                        "program scope variable must reside in constant address space",
                    ),
                );
                AddrSpace::Global
            }
            Some(_) => {
                let msg = if self.opts.program_scope_globals {
                    "program scope variable must reside in global or constant address space"
                        .to_string()
                } else {
                    self.program_scope_message(
                        "program scope variable must reside in constant address space",
                    )
                };
                self.error(span, msg);
                AddrSpace::Global
            }
        };
        self.check_storable(&qt.ty, span, true);
        if space == AddrSpace::Constant && init.is_none() && !is_extern {
            self.error(
                span,
                "variable in constant address space must be initialized",
            );
        }
        let gid = self.define_global(
            name,
            span,
            &qt,
            space,
            storage == Some(StorageClass::Static),
            init,
        );
        let _ = gid;
    }

    /// The message for a rule that a feature would lift, saying so under 3.0.
    pub fn program_scope_message(&self, base: &str) -> String {
        if self.opts.version >= 30 {
            format!("{base} (the __opencl_c_program_scope_global_variables feature is not supported by this device)")
        } else {
            base.to_string()
        }
    }

    /// Images, events (and samplers outside constant) cannot be program-scope
    /// variables (spec 6.13.14, 6.13.15); `half` values need fp16; `void` objects.
    fn check_storable(&mut self, ty: &Type, span: Span, program_scope: bool) {
        let base = match ty {
            Type::Array(e, _) => e,
            t => t,
        };
        match base {
            Type::Image(..) | Type::Event if program_scope => self.error(
                span,
                format!(
                    "the '{}' type cannot be used to declare a program scope variable",
                    base.display(&self.prog.records)
                ),
            ),
            Type::Void => self.error(span, "variable has incomplete type 'void'"),
            Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _) if !self.opts.fp16 => {
                self.error(span, "declaring variable of type 'half' is not allowed")
            }
            Type::Record(r) if !self.prog.records.get(*r).complete => self.error(
                span,
                format!("variable has incomplete type {}", self.ty_str(base)),
            ),
            _ => {}
        }
    }

    /// Create (or complete) a global and bind its name in the current scope.
    pub fn define_global(
        &mut self,
        name: &str,
        span: Span,
        qt: &QualType,
        space: AddrSpace,
        is_static: bool,
        init: Option<&ast::Initializer>,
    ) -> GlobalId {
        let mut ty = qt.ty.clone();
        let prev = match self.scopes.lookup_current(name) {
            Some((
                Symbol::Var {
                    var: VarRef::Global(g),
                    ..
                },
                _,
            )) => Some(*g),
            Some((_, prev)) => {
                let prev = *prev;
                self.error(
                    span,
                    format!("redefinition of '{name}' as different kind of symbol"),
                );
                self.note(prev, "previous definition is here");
                None
            }
            None => None,
        };
        let hinit = init.map(|i| {
            let (t, init) = self.initializer(&ty, i);
            ty = t;
            init
        });
        let const_init = hinit.as_ref().and_then(|i| self.fold_global_init(&ty, i));
        if let Some(g) = prev {
            let old = self.prog.globals[g.0 as usize].clone();
            if old.init.is_some() && const_init.is_some() {
                self.error(span, format!("redefinition of '{name}'"));
                self.note(old.span, "previous definition is here");
            } else if old.ty != ty
                && !matches!((&old.ty, &ty), (Type::Array(a, None), Type::Array(b, _)) | (Type::Array(a, _), Type::Array(b, None)) if a == b)
            {
                self.error(
                    span,
                    format!("redefinition of '{name}' with a different type"),
                );
            } else if const_init.is_some() {
                let gm = &mut self.prog.globals[g.0 as usize];
                gm.init = const_init;
                gm.ty = ty;
            }
            return g;
        }
        let quals = if space == AddrSpace::Constant {
            qt.quals.union(Quals::CONST)
        } else {
            qt.quals
        };
        let gid = GlobalId(self.prog.globals.len() as u32);
        self.prog.globals.push(hir::Global {
            name: name.to_string(),
            ty: ty.clone(),
            space,
            quals,
            is_static,
            init: const_init,
            span,
        });
        self.scopes.insert(
            name,
            Symbol::Var {
                var: VarRef::Global(gid),
                ty,
                space,
                quals,
            },
            span,
        );
        gid
    }

    /// A declaration inside a function body; the statements it becomes.
    pub fn local_declaration(&mut self, d: &ast::Declaration) -> Vec<hir::Stmt> {
        let storage = self.check_storage(&d.specs, false);
        let base = self.base_type(&d.specs);
        let mut out = Vec::new();
        for id in &d.declarators {
            let Some(name) = id.declarator.name.as_ref() else {
                continue;
            };
            let dd = self.declarator(base.clone(), &id.declarator, false);
            if storage == Some(StorageClass::Typedef) {
                self.declare_typedef(&name.node, dd.qt, name.span);
                continue;
            }
            if let Type::Function(sig) = &dd.qt.ty {
                self.declare_function(&name.node, sig, name.span);
                continue;
            }
            if let Some(s) = self.local_var(&name.node, name.span, dd.qt, storage, id.init.as_ref())
            {
                out.push(s);
            }
        }
        out
    }

    fn local_var(
        &mut self,
        name: &str,
        span: Span,
        qt: QualType,
        storage: Option<StorageClass>,
        init: Option<&ast::Initializer>,
    ) -> Option<hir::Stmt> {
        let (is_kernel, depth, fname) = match &self.fx {
            Some(fx) => (fx.is_kernel, fx.block_depth, fx.func.name.clone()),
            None => (false, 0, String::new()),
        };
        if let Some((_, prev)) = self.scopes.lookup_current(name) {
            let prev = *prev;
            self.error(span, format!("redefinition of '{name}'"));
            self.note(prev, "previous definition is here");
            return None;
        }
        let gname = format!("{fname}.{name}");
        // static int x;  — a function-scope static lives in global (or constant) memory.
        if storage == Some(StorageClass::Static) {
            let space = match qt.space {
                Some(AddrSpace::Constant) => AddrSpace::Constant,
                Some(AddrSpace::Global) | None if self.opts.program_scope_globals => {
                    AddrSpace::Global
                }
                Some(AddrSpace::Global) | None => {
                    if self.opts.version < 20 {
                        self.error(
                            span,
                            "variables in function scope cannot be declared static (a static variable needs the global address space of OpenCL C 2.0)",
                        );
                    } else {
                        self.error(
                            span,
                            self.program_scope_message(
                                "static local variable must reside in constant address space",
                            ),
                        );
                    }
                    AddrSpace::Global
                }
                Some(_) => {
                    self.error(
                        span,
                        "static local variable must reside in global or constant address space",
                    );
                    AddrSpace::Global
                }
            };
            self.check_storable(&qt.ty, span, true);
            if space == AddrSpace::Constant && init.is_none() {
                self.error(
                    span,
                    "variable in constant address space must be initialized",
                );
            }
            self.define_global_local_name(name, &gname, span, &qt, space, init);
            return None;
        }
        match qt.space {
            // local float a;  — kernel outermost scope only, never initialised.
            Some(AddrSpace::Local) => {
                if !is_kernel {
                    self.error(
                        span,
                        "non-kernel function variable cannot be declared in local address space",
                    );
                } else if depth > 0 {
                    self.error(span, "variables in the local address space can only be declared in the outermost scope of a kernel function");
                }
                if let Some(i) = init {
                    self.error(i.span(), "'__local' variable cannot have an initializer");
                }
                if matches!(qt.ty, Type::Image(..) | Type::Sampler | Type::Event) {
                    let msg = format!("the '{}' type cannot be used to declare a variable in the local address space", qt.ty.display(&self.prog.records));
                    self.error(span, msg);
                }
                self.check_storable(&qt.ty, span, false);
                let id = self.add_local(name, span, &qt, AddrSpace::Local);
                let _ = id;
                None
            }
            // constant int t[] = {...};  — kernel scope, initialised with constants.
            Some(AddrSpace::Constant) => {
                if !is_kernel {
                    self.error(
                        span,
                        "non-kernel function variable cannot be declared in constant address space",
                    );
                }
                if init.is_none() {
                    self.error(
                        span,
                        "variable in constant address space must be initialized",
                    );
                }
                self.check_storable(&qt.ty, span, false);
                self.define_global_local_name(name, &gname, span, &qt, AddrSpace::Constant, init);
                None
            }
            Some(AddrSpace::Global) => {
                self.error(
                    span,
                    "function scope variable cannot be declared in global address space",
                );
                self.add_local(name, span, &qt, AddrSpace::Private);
                None
            }
            Some(AddrSpace::Generic) => {
                self.error(
                    span,
                    "automatic variable qualified with an invalid address space",
                );
                self.add_local(name, span, &qt, AddrSpace::Private);
                None
            }
            _ => {
                self.check_storable(&qt.ty, span, false);
                let mut qt = qt;
                let init = init.map(|i| {
                    let (t, init) = self.initializer(&qt.ty, i);
                    qt.ty = t;
                    init
                });
                if let Type::Array(_, None) = qt.ty {
                    self.error(span, "definition of variable with array type needs an explicit size or an initializer");
                }

                let id = self.add_local(name, span, &qt, AddrSpace::Private);
                Some(hir::Stmt {
                    kind: hir::StmtKind::Decl(id, init),
                    span,
                })
            }
        }
    }

    /// A function-scope `static` or `constant` variable: a global under a
    /// unique name, bound under its own name in the current scope.
    fn define_global_local_name(
        &mut self,
        name: &str,
        gname: &str,
        span: Span,
        qt: &QualType,
        space: AddrSpace,
        init: Option<&ast::Initializer>,
    ) {
        let g = self.define_global(gname, span, qt, space, true, init);
        let gl = &self.prog.globals[g.0 as usize];
        let sym = Symbol::Var {
            var: VarRef::Global(g),
            ty: gl.ty.clone(),
            space: gl.space,
            quals: gl.quals,
        };
        self.scopes.insert(name, sym, span);
    }

    fn add_local(&mut self, name: &str, span: Span, qt: &QualType, space: AddrSpace) -> LocalId {
        let Some(fx) = self.fx.as_mut() else {
            return LocalId(0);
        };
        let id = LocalId(fx.func.locals.len() as u32);
        fx.func.locals.push(hir::Local {
            name: name.to_string(),
            ty: qt.ty.clone(),
            space,
            quals: qt.quals,
            address_taken: qt.ty.is_array() || space == AddrSpace::Local,
            span,
        });
        self.scopes.insert(
            name,
            Symbol::Var {
                var: VarRef::Local(id),
                ty: qt.ty.clone(),
                space,
                quals: qt.quals,
            },
            span,
        );
        id
    }
}
