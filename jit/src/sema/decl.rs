//! Declarations: types from specifiers and declarators, typedefs, structs,
//! unions and enums, functions (kernels with their parameters and
//! attributes), program-scope and block-scope variables, and where each may
//! live (OpenCL C 3.0 spec 6.7, 6.9, 6.11).
#![forbid(unsafe_code)]

use super::addrspace::AddrSpace;
use super::hir::{self, GlobalId, LocalId, VarRef};
use super::scope::Symbol;
use super::types::{Access, Quals, Scalar, Type};
use super::Checker;
use crate::parse::ast::{self, StorageClass};
use crate::source::Span;

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

pub fn ast_scalar(s: ast::ScalarType) -> Scalar {
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
            // get_image_channel_order / get_image_channel_data_type answers:
            // the API's CL_* values.
            ("CLK_R", 0x10B0),
            ("CLK_A", 0x10B1),
            ("CLK_RG", 0x10B2),
            ("CLK_RA", 0x10B3),
            ("CLK_RGB", 0x10B4),
            ("CLK_RGBA", 0x10B5),
            ("CLK_BGRA", 0x10B6),
            ("CLK_ARGB", 0x10B7),
            ("CLK_INTENSITY", 0x10B8),
            ("CLK_LUMINANCE", 0x10B9),
            ("CLK_Rx", 0x10BA),
            ("CLK_RGx", 0x10BB),
            ("CLK_RGBx", 0x10BC),
            ("CLK_DEPTH", 0x10BD),
            ("CLK_sRGB", 0x10BF),
            ("CLK_sRGBx", 0x10C0),
            ("CLK_sRGBA", 0x10C1),
            ("CLK_sBGRA", 0x10C2),
            ("CLK_ABGR", 0x10C3),
            ("CLK_SNORM_INT8", 0x10D0),
            ("CLK_SNORM_INT16", 0x10D1),
            ("CLK_UNORM_INT8", 0x10D2),
            ("CLK_UNORM_INT16", 0x10D3),
            ("CLK_UNORM_SHORT_565", 0x10D4),
            ("CLK_UNORM_SHORT_555", 0x10D5),
            ("CLK_UNORM_INT_101010", 0x10D6),
            ("CLK_SIGNED_INT8", 0x10D7),
            ("CLK_SIGNED_INT16", 0x10D8),
            ("CLK_SIGNED_INT32", 0x10D9),
            ("CLK_UNSIGNED_INT8", 0x10DA),
            ("CLK_UNSIGNED_INT16", 0x10DB),
            ("CLK_UNSIGNED_INT32", 0x10DC),
            ("CLK_HALF_FLOAT", 0x10DD),
            ("CLK_FLOAT", 0x10DE),
            ("CLK_UNORM_INT_101010_2", 0x10E0),
        ];
        for (n, v) in clk {
            self.scopes
                .insert(n, Symbol::EnumConst(*v, Scalar::Int), sp);
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
            ];
            for (n, v) in consts {
                self.scopes
                    .insert(n, Symbol::EnumConst(*v, Scalar::Int), sp);
            }
            // With sub-groups (`cl_khr_subgroups`, `__opencl_c_subgroups`):
            // a value of its own beside the others above.
            if self.opts.sub_groups {
                self.scopes.insert(
                    "memory_scope_sub_group",
                    Symbol::EnumConst(5, Scalar::Int),
                    sp,
                );
            }
        }
        // OpenCL C 3.0's new name for `memory_scope_all_svm_devices`.
        if self.opts.version >= 30 {
            self.scopes.insert(
                "memory_scope_all_devices",
                Symbol::EnumConst(3, Scalar::Int),
                sp,
            );
        }
    }

    // ---- Variables ---------------------------------------------------------

    /// A declaration at file scope: typedefs, prototypes, program-scope variables.
    pub fn file_declaration(&mut self, d: &ast::Declaration) {
        let storage = self.check_storage(&d.specs);
        let base = self.base_type(&d.specs);
        for id in &d.declarators {
            let Some(name) = id.declarator.name.as_ref() else {
                continue;
            };
            let dd = self.declarator(base.clone(), &id.declarator, false);
            if storage == Some(StorageClass::Typedef) {
                if id.declarator.derived.is_empty() {
                    if let Some(f) = self.kernel_forbidden_of(&d.specs) {
                        self.forbidden_typedefs.insert(name.node.clone(), f);
                    }
                }
                self.declare_typedef(&name.node, dd.qt, name.span);
                continue;
            }
            if let Type::Function(sig) = &dd.qt.ty {
                if d.specs.is_kernel() && !sig.ret.is_void() {
                    self.error(id.declarator.span, "kernel must have void return type");
                }
                let overloadable = d
                    .specs
                    .attributes
                    .iter()
                    .chain(id.declarator.attributes.iter())
                    .any(|a| a.name.node == "overloadable");
                self.declare_function(&name.node, sig, name.span, overloadable);
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
            // sampler_t s = ...;  — a program-scope sampler is a constant
            // (spec 6.13.14.1) and must be written `const` (clang).
            None if qt.ty == Type::Sampler => {
                if !qt.quals.konst {
                    self.error(
                        span,
                        "global sampler requires a const or constant address space qualifier",
                    );
                }
                AddrSpace::Constant
            }
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
        // `extern constant struct bar x;` declares without defining: the
        // type may still be incomplete (C99 6.7p7 asks completeness only of
        // definitions).
        let incomplete = matches!(&qt.ty, Type::Record(r) if !self.prog.records.get(*r).complete);
        if !(is_extern && incomplete) {
            self.check_storable(&qt.ty, span, true);
        }
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
        // An object with external linkage that an earlier unit of this link
        // declared (`check_units`): the same object.
        let other_unit = match prev {
            None if !is_static => self.externals.get(name).copied(),
            _ => None,
        };
        let prev = prev.or(other_unit);
        let quals = if space == AddrSpace::Constant {
            qt.quals.union(Quals::CONST)
        } else {
            qt.quals
        };
        // The name is in scope from the end of its declarator, so the
        // initialiser may use it (`global N n0 = { &n0, 3 };`, C99 6.2.1p7).
        let fresh = prev.is_none().then(|| {
            let gid = GlobalId(self.prog.globals.len() as u32);
            self.prog.globals.push(hir::Global {
                name: name.to_string(),
                ty: ty.clone(),
                space,
                quals,
                is_static,
                init: None,
                span,
            });
            let sym = Symbol::Var {
                var: VarRef::Global(gid),
                ty: ty.clone(),
                space,
                quals,
            };
            self.scopes.insert(name, sym, span);
            gid
        });
        let hinit = init.map(|i| {
            self.decl_name = Some(span);
            let (t, init) = self.initializer(&ty, i);
            ty = t;
            init
        });
        let const_init = hinit.as_ref().and_then(|i| self.fold_global_init(&ty, i));
        if let Some(g) = prev {
            let old = self.prog.globals[g.0 as usize].clone();
            // Two units of a link defining one `constant` object alike (a
            // header both include) define it once; a writable one defined
            // twice is two definitions.
            let same_definition =
                other_unit.is_some() && space == AddrSpace::Constant && old.init == const_init;
            if old.init.is_some() && const_init.is_some() && !same_definition {
                self.error(span, format!("redefinition of '{name}'"));
                self.note(old.span, "previous definition is here");
            } else if !self.same_type(&old.ty, &ty)
                && !matches!((&old.ty, &ty), (Type::Array(a, None), Type::Array(b, _)) | (Type::Array(a, _), Type::Array(b, None)) if self.same_type(a, b))
            {
                self.error(
                    span,
                    format!("redefinition of '{name}' with a different type"),
                );
            } else if const_init.is_some() {
                let gm = &mut self.prog.globals[g.0 as usize];
                gm.init = const_init;
                gm.ty = ty.clone();
            }
            if other_unit.is_some() {
                // This unit names the object with its own (compatible) type.
                let sym = Symbol::Var {
                    var: VarRef::Global(g),
                    ty,
                    space,
                    quals,
                };
                self.scopes.insert(name, sym, span);
            }
            return g;
        }
        let Some(gid) = fresh else {
            return GlobalId(0);
        };
        if let Some(g) = self.prog.globals.get_mut(gid.0 as usize) {
            g.ty = ty.clone();
            g.init = const_init;
        }
        if !is_static {
            self.externals.insert(name.to_string(), gid);
        }
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
        let storage = self.check_storage(&d.specs);
        let base = self.base_type(&d.specs);
        let mut out = Vec::new();
        for id in &d.declarators {
            let Some(name) = id.declarator.name.as_ref() else {
                continue;
            };
            let dd = self.declarator(base.clone(), &id.declarator, false);
            if storage == Some(StorageClass::Typedef) {
                if id.declarator.derived.is_empty() {
                    if let Some(f) = self.kernel_forbidden_of(&d.specs) {
                        self.forbidden_typedefs.insert(name.node.clone(), f);
                    }
                }
                self.declare_typedef(&name.node, dd.qt, name.span);
                continue;
            }
            if let Type::Function(sig) = &dd.qt.ty {
                let overloadable = d
                    .specs
                    .attributes
                    .iter()
                    .chain(id.declarator.attributes.iter())
                    .any(|a| a.name.node == "overloadable");
                self.declare_function(&name.node, sig, name.span, overloadable);
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
        // extern int e;  — refers to a program-scope variable.
        if storage == Some(StorageClass::Extern) {
            let space = qt.space.unwrap_or(if self.opts.program_scope_globals {
                AddrSpace::Global
            } else {
                AddrSpace::Private
            });
            let ok = space == AddrSpace::Constant
                || (self.opts.program_scope_globals && space == AddrSpace::Global);
            if !ok {
                self.error(
                    span,
                    "extern variable must reside in constant address space",
                );
            }
            if init.is_some() {
                self.error(span, "'extern' variable cannot have an initializer");
            }
            if let Some(
                sym @ Symbol::Var {
                    var: VarRef::Global(_),
                    ..
                },
            ) = self.scopes.lookup(name).cloned()
            {
                self.scopes.insert(name, sym, span);
                return None;
            }
            let space = if ok { space } else { AddrSpace::Global };
            self.define_global(name, span, &qt, space, false, None);
            return None;
        }
        // static int x;  — a function-scope static lives in global (or constant) memory.
        if storage == Some(StorageClass::Static) {
            let space = match qt.space {
                // OpenCL C 1.x has no function-scope statics at all.
                _ if self.opts.version < 20 => {
                    self.error(span, "variables in function scope cannot be declared static (a static variable needs the global address space of OpenCL C 2.0)");
                    AddrSpace::Global
                }
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
                } else if depth > 0 {
                    self.error(span, "variables in the constant address space can only be declared in the outermost scope of a kernel function");
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
                    // kernel void k() { atomic_int a = 0; }
                    if let (Type::Atomic(_) | Type::AtomicFlag, ast::Initializer::Expr(e)) =
                        (&qt.ty, i)
                    {
                        self.error(
                            e.span,
                            "atomic variable can be initialized to a variable only in global address space",
                        );
                    }
                    self.decl_name = Some(span);
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

    pub(super) fn add_local(
        &mut self,
        name: &str,
        span: Span,
        qt: &QualType,
        space: AddrSpace,
    ) -> LocalId {
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
