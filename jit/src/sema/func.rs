//! Functions (C99 6.9.1, OpenCL C spec 6.9 and 6.11): declarations and
//! redeclarations, definitions with their parameters and bodies, the kernel
//! rules (void return, parameters in global/local/constant, forbidden
//! parameter types) and kernel attributes (`reqd_work_group_size`, ...).
#![forbid(unsafe_code)]

use super::addrspace::AddrSpace;
use super::decl::ParamInfo;
use super::hir::{self, FuncId, LocalId, VarRef};
use super::scope::Symbol;
use super::types::{FnSig, Quals, Scalar, Type};
use super::{Checker, FnCtx};
use crate::parse::ast::{self, StorageClass};
use crate::source::Span;
use std::collections::HashMap;
use std::sync::Arc;

fn name_span_of(f: &ast::FunctionDef) -> Span {
    f.declarator.name.as_ref().map_or(f.span, |n| n.span)
}

impl Checker<'_> {
    // ---- Functions ---------------------------------------------------------

    /// Declare (or re-declare) a function by name; its id.
    pub fn declare_function(
        &mut self,
        name: &str,
        sig: &Arc<FnSig>,
        span: Span,
        overloadable: bool,
    ) -> FuncId {
        let existing = self.overloads.get(name).cloned().unwrap_or_default();
        for &id in &existing {
            let known = Type::Function(Arc::new(self.signature_of(id)));
            if self.same_type(&known, &Type::Function(sig.clone())) {
                // Declared in an earlier unit: visible in this one now.
                if self.scopes.lookup(name).is_none() {
                    self.scopes
                        .insert_global(name, Symbol::Func(existing[0]), span);
                }
                return id;
            }
        }
        if let Some(&first) = existing.first() {
            if !overloadable && !sig.ret.is_error() && !sig.params.iter().any(Type::is_error) {
                let prev = self.prog.function(first).span;
                self.error(span, format!("conflicting types for '{name}'"));
                self.note(prev, "previous declaration is here");
                return first;
            }
            if !overloadable {
                return first;
            }
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
        if existing.is_empty() || self.scopes.lookup(name).is_none() {
            let first = existing.first().copied().unwrap_or(id);
            self.scopes.insert_global(name, Symbol::Func(first), span);
        }
        self.overloads.entry(name.to_string()).or_default().push(id);
        id
    }

    /// A declared function's type.
    pub fn signature_of(&self, id: FuncId) -> FnSig {
        let f = self.prog.function(id);
        FnSig {
            ret: f.ret.clone(),
            params: f.params.iter().map(|p| p.ty.clone()).collect(),
            variadic: false,
        }
    }

    fn is_builtin_name(&self, name: &str) -> bool {
        !matches!(
            super::builtins::resolve(name, &[], &self.env),
            super::builtins::Resolution::NotBuiltin
        )
    }

    /// Whether a struct (or a nested one) has a pointer field.
    fn record_has_bool(&self, r: super::types::RecordId, depth: u32) -> bool {
        depth < 64
            && self.prog.records.get(r).fields.iter().any(|f| {
                let mut t = &f.ty;
                while let Type::Array(e, _) = t {
                    t = e;
                }
                match t {
                    Type::Scalar(Scalar::Bool) => true,
                    Type::Record(inner) => self.record_has_bool(*inner, depth + 1),
                    _ => false,
                }
            })
    }

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
        let storage = self.check_storage(&f.specs);
        if is_kernel && name == "main" {
            self.error(name_span_of(f), "kernel cannot be called 'main'");
        }
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
        let overloadable = f
            .specs
            .attributes
            .iter()
            .chain(f.declarator.attributes.iter())
            .any(|a| a.name.node == "overloadable");
        let def_key = format!(
            "{name}{}",
            Type::Function(sig.clone()).display(&self.prog.records)
        );
        let text = self
            .sources
            .map(|sm| sm.snippet(f.span).to_string())
            .unwrap_or_default();
        let name_span = f.declarator.name.as_ref().map_or(f.span, |n| n.span);
        if let Some((prev, unit, prev_text)) = self.defined.get(&def_key).cloned() {
            if unit != self.unit && prev_text == text && storage != Some(StorageClass::Static) {
                // The same definition in two units of a link (a header both
                // include): one function, now visible here too.
                self.declare_function(&name, &sig, name_span, overloadable);
                return;
            }
            self.error(name_span, format!("redefinition of '{name}'"));
            self.note(prev, "previous definition is here");
            return;
        }
        self.defined
            .insert(def_key.clone(), (name_span, self.unit, text));
        let id = self.declare_function(&name, &sig, name_span, overloadable);
        if storage == Some(StorageClass::Static) {
            self.unit_statics.push((name.clone(), id, def_key));
        }
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
                // Image arguments are global memory objects (spec 6.13.14).
                Type::Image(..) => (AddrSpace::Global, p.qt.quals),
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
            switch_types: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
        });
        let body = self.block_items(&f.body, false);
        if !sig.ret.is_void() && !sig.ret.is_error() && super::stmt::block_may_complete(&body) {
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
                if matches!(pt.ty, Type::Pointer(_)) && self.opts.version < 20 {
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
            Type::Record(r) if self.record_has_bool(*r, 0) => {
                let msg = format!(
                    "{} cannot be used as the type of a kernel parameter (it contains a bool)",
                    self.ty_str(&p.qt.ty)
                );
                self.error(p.span, msg)
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
}
