//! Semantic analysis: the AST in, the typed HIR ([`hir::Program`]) out.
//!
//! One `Checker` walks the translation unit once, in order, as C requires:
//! types come from specifiers and declarators (`typespec.rs`), declarations
//! enter scopes (`decl.rs`, `scope.rs`), functions and kernels are declared
//! and defined (`func.rs`), bodies are checked statement by statement
//! (`stmt.rs`), expressions get types, value categories and explicit
//! conversions (`expr.rs`, `ops.rs`, `member.rs`, `conv.rs`), initialisers
//! are laid out element by element (`init.rs`, `compound.rs`), constant
//! expressions are folded (`consteval.rs`) and calls are resolved to one
//! function or built-in overload (`call.rs`, `builtins/`). The address-space
//! rules of the OpenCL C specification (`addrspace.rs`) are enforced where
//! each construct is checked; messages follow clang's wording, with the
//! spec's rule as a note.
//!
//! Errors are collected in the [`Diagnostics`] sink; a failed expression gets
//! the poison type [`types::Type::Error`], which every check accepts silently,
//! so one mistake gives one diagnostic. What is optional in OpenCL C 3.0
//! (generic address space, program-scope globals, fp64, images...) is read
//! from `features.rs` by [`SemaOptions::for_std`].
#![forbid(unsafe_code)]

pub mod addrspace;
pub mod builtins;
mod call;
mod compound;
mod consteval;
mod conv;
mod decl;
mod expr;
mod func;
pub mod hir;
mod init;
mod member;
mod ops;
mod scope;
mod stmt;
pub mod types;
mod typespec;

use crate::diag::Diagnostics;
use crate::features;
use crate::options::ClStd;
use crate::parse::ast;
use crate::source::{SourceMap, Span};
use addrspace::AddrSpace;
use builtins::BuiltinEnv;
use hir::{FuncId, Function, Program};
use scope::Scopes;
use std::collections::HashMap;

/// What the language version and the device allow.
#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// OpenCL C version times 10: 10, 11, 12, 20, 30.
    pub version: u32,
    /// `double` (cl_khr_fp64 / `__opencl_c_fp64`).
    pub fp64: bool,
    /// `half` arithmetic (cl_khr_fp16).
    pub fp16: bool,
    /// The generic address space (2.0, or 3.0 with `__opencl_c_generic_address_space`).
    pub generic_address_space: bool,
    /// Program-scope `global` variables and `static` locals (2.0, or 3.0 with
    /// `__opencl_c_program_scope_global_variables`).
    pub program_scope_globals: bool,
    /// Work-group collective functions (2.0, or 3.0 with the feature).
    pub work_group_collectives: bool,
    /// Sub-group functions (2.0 and later with `cl_khr_subgroups`, or 3.0
    /// with `__opencl_c_subgroups`).
    pub sub_groups: bool,
    /// Image types (1.x with images; 3.0 with `__opencl_c_images`).
    pub images: bool,
    /// `read_write` images (2.0, or 3.0 with `__opencl_c_read_write_images`).
    pub read_write_images: bool,
    /// Writes to 3D images (`cl_khr_3d_image_writes`, 3.0: `__opencl_c_3d_image_writes`).
    pub image3d_writes: bool,
    /// Extensions the device advertises.
    pub extensions: Vec<String>,
    /// `-cl-single-precision-constant`: unsuffixed floating constants are `float`.
    pub single_precision_constant: bool,
}

impl SemaOptions {
    /// The options for a `-cl-std` with what `features.rs` says the device
    /// advertises: turning a feature on there enables it here.
    pub fn for_std(std: ClStd) -> SemaOptions {
        let has_feature = |n: &str| features::opencl_c_features().any(|f| f.name == n);
        let has_ext = |n: &str| features::extensions().any(|f| f.name == n);
        let version = std.version() / 10;
        let cl20 = version == 20;
        let cl30 = version == 30;
        SemaOptions {
            version,
            fp64: if cl30 {
                has_feature("__opencl_c_fp64")
            } else {
                has_ext("cl_khr_fp64")
            },
            // The device's support; the front end also requires the unit's
            // `#pragma OPENCL EXTENSION cl_khr_fp16 : enable` (frontend.rs).
            fp16: if cl30 {
                has_feature("__opencl_c_fp16")
            } else {
                has_ext("cl_khr_fp16")
            },
            generic_address_space: cl20
                || (cl30 && has_feature("__opencl_c_generic_address_space")),
            program_scope_globals: cl20
                || (cl30 && has_feature("__opencl_c_program_scope_global_variables")),
            work_group_collectives: cl20
                || (cl30 && has_feature("__opencl_c_work_group_collective_functions")),
            sub_groups: (version >= 20 && has_ext("cl_khr_subgroups"))
                || (cl30 && has_feature("__opencl_c_subgroups")),
            images: !cl30 || has_feature("__opencl_c_images"),
            read_write_images: cl20 || (cl30 && has_feature("__opencl_c_read_write_images")),
            image3d_writes: has_ext("cl_khr_3d_image_writes")
                && (!cl30 || has_feature("__opencl_c_3d_image_writes")),
            extensions: features::extensions().map(|e| e.name.to_string()).collect(),
            single_precision_constant: false,
        }
    }

    fn builtin_env(&self) -> BuiltinEnv {
        BuiltinEnv {
            version: self.version,
            fp64: self.fp64,
            fp16: self.fp16,
            generic: self.generic_address_space,
            wg_collective: self.work_group_collectives,
            sub_groups: self.sub_groups,
            extensions: self.extensions.clone(),
        }
    }

    /// Where a pointer with no address space on its pointee points: the
    /// generic space where it exists, else private (spec 6.7.1).
    pub fn default_pointee_space(&self) -> AddrSpace {
        if self.generic_address_space {
            AddrSpace::Generic
        } else {
            AddrSpace::Private
        }
    }
}

/// Check a translation unit. The program is complete even after errors
/// (poisoned parts have `Type::Error`); callers look at `diags` first.
///
/// The checker recurses on the tree (as deep as the parser allows, 4096), so
/// it runs on a thread of its own with a large stack, like the parser.
pub fn check(tu: &ast::TranslationUnit, opts: &SemaOptions, diags: &mut Diagnostics) -> Program {
    check_with_sources(tu, opts, diags, None)
}

/// [`check`], with the source text at hand so diagnostics can point at an
/// operator (`a + b`: the `+`) the way clang does; the front end uses this.
pub fn check_with_sources(
    tu: &ast::TranslationUnit,
    opts: &SemaOptions,
    diags: &mut Diagnostics,
    sources: Option<&SourceMap>,
) -> Program {
    check_units(std::slice::from_ref(tu), opts, diags, sources)
}

/// Check several translation units into one program, as a linker joins
/// them (`clLinkProgram`): each unit has its own file scope (tags, typedefs,
/// `static` functions and variables); functions and variables with external
/// linkage are one object across units, their types compared as compatible
/// types across units are (C99 6.2.7: a structure of one tag and the same
/// members is the same type in two units).
pub fn check_units(
    tus: &[ast::TranslationUnit],
    opts: &SemaOptions,
    diags: &mut Diagnostics,
    sources: Option<&SourceMap>,
) -> Program {
    let mut result = None;
    let mut sink = Some(&mut *diags);
    std::thread::scope(|s| {
        let _ = std::thread::Builder::new()
            .name("cranecl-sema".into())
            .stack_size(SEMA_STACK)
            .spawn_scoped(s, || {
                if let Some(d) = sink.take() {
                    result = Some(check_here(tus, opts, d, sources));
                }
            });
    });
    match (result, sink) {
        (Some(p), _) => p,
        // No thread could be started: check on the caller's stack.
        (None, Some(d)) => check_here(tus, opts, d, sources),
        (None, None) => Program::default(),
    }
}

/// The stack the checker runs on (reserved, not committed, until used).
const SEMA_STACK: usize = 256 << 20;

fn check_here(
    tus: &[ast::TranslationUnit],
    opts: &SemaOptions,
    diags: &mut Diagnostics,
    sources: Option<&SourceMap>,
) -> Program {
    let mut c = Checker::new(opts, diags);
    c.sources = sources;
    for (i, tu) in tus.iter().enumerate() {
        if i > 0 {
            c.next_unit();
        }
        for item in &tu.items {
            match item {
                ast::ExternalDecl::Function(f) => c.function_def(f),
                ast::ExternalDecl::Declaration(d) => c.file_declaration(d),
                ast::ExternalDecl::StaticAssert(s) => c.static_assert(s),
            }
        }
    }
    c.finish()
}

/// What is being checked inside a function body.
pub(crate) struct FnCtx {
    #[allow(dead_code)] // for diagnostics that name the current function
    pub id: FuncId,
    pub is_kernel: bool,
    pub ret: types::Type,
    pub func: Function,
    /// Nesting depth of blocks (0: the body's outermost block).
    pub block_depth: u32,
    pub loop_depth: u32,
    pub switch_depth: u32,
    /// The `case` values of each enclosing `switch`, innermost last.
    pub cases: Vec<Vec<(i128, Span)>>,
    /// The promoted type of each enclosing `switch`'s condition, and its
    /// type before promotion (for the overflow warning).
    pub switch_types: Vec<(types::Scalar, types::Scalar)>,
    pub labels: HashMap<String, Span>,
    pub gotos: Vec<(String, Span)>,
}

pub(crate) struct Checker<'a> {
    pub opts: &'a SemaOptions,
    pub env: BuiltinEnv,
    pub diags: &'a mut Diagnostics,
    pub prog: Program,
    pub scopes: Scopes,
    pub fx: Option<FnCtx>,
    /// Names of defined functions and globals, for redefinition checks.
    /// Each: where, in which unit (`check_units`), and the definition's
    /// text (an identical definition in a later unit is the same one).
    pub defined: HashMap<String, (Span, usize, String)>,
    /// The translation unit being checked (0 for the first).
    pub unit: usize,
    /// The first record id of this unit (those below are earlier units').
    pub unit_first_record: usize,
    /// Every function declared under a name (several only with
    /// `__attribute__((overloadable))`).
    pub overloads: HashMap<String, Vec<FuncId>>,
    /// Typedef names standing for a type kernels may not take (`size_t`).
    pub forbidden_typedefs: HashMap<String, &'static str>,
    /// Counter for string-literal globals.
    pub strings: HashMap<String, hir::GlobalId>,
    /// The program text, for operator positions in diagnostics.
    pub sources: Option<&'a SourceMap>,
    /// While checking `T x = e;`: the name `x`, where clang reports a bad
    /// conversion of `e`.
    pub init_site: Option<Span>,
    /// The name being declared while its initialiser is checked.
    pub decl_name: Option<Span>,
    /// `static` functions of the unit being checked: name, id and their
    /// key in `defined` (forgotten when the next unit starts).
    pub unit_statics: Vec<(String, FuncId, String)>,
    /// Program-scope variables with external linkage, by name
    /// (`check_units`).
    pub externals: HashMap<String, hir::GlobalId>,
}

impl<'a> Checker<'a> {
    fn new(opts: &'a SemaOptions, diags: &'a mut Diagnostics) -> Self {
        let mut c = Checker {
            opts,
            env: opts.builtin_env(),
            diags,
            prog: Program::default(),
            scopes: Scopes::new(),
            fx: None,
            defined: HashMap::new(),
            unit: 0,
            unit_first_record: 0,
            overloads: HashMap::new(),
            forbidden_typedefs: HashMap::new(),
            strings: HashMap::new(),
            sources: None,
            init_site: None,
            decl_name: None,
            unit_statics: Vec::new(),
            externals: HashMap::new(),
        };
        c.declare_predefined();
        c
    }

    /// Start the next translation unit: a fresh file scope; this unit's
    /// `static` functions are no longer visible or defined.
    fn next_unit(&mut self) {
        for (name, id, key) in std::mem::take(&mut self.unit_statics) {
            if let Some(ids) = self.overloads.get_mut(&name) {
                ids.retain(|&x| x != id);
                if ids.is_empty() {
                    self.overloads.remove(&name);
                }
            }
            self.defined.remove(&key);
        }
        self.scopes = Scopes::new();
        self.declare_predefined();
        self.unit += 1;
        self.unit_first_record = self.prog.records.defs.len();
    }

    /// `a` and `b` are the same type, or compatible types of two units: a
    /// structure or union of one tag (or none) whose members have the same
    /// names and (so compared) types (C99 6.2.7p1). Two records of the unit
    /// being checked are compatible only if they are one.
    pub fn same_type(&self, a: &types::Type, b: &types::Type) -> bool {
        use types::Type as T;
        fn go(c: &Checker<'_>, a: &T, b: &T, depth: u32) -> bool {
            if a == b {
                return true;
            }
            if depth > 32 {
                return false;
            }
            match (a, b) {
                (T::Record(x), T::Record(y)) => {
                    let this_unit = c.unit_first_record as u32;
                    if x.0 >= this_unit && y.0 >= this_unit {
                        return false;
                    }
                    let (x, y) = (c.prog.records.get(*x), c.prog.records.get(*y));
                    x.tag == y.tag
                        && x.is_union == y.is_union
                        && x.complete == y.complete
                        && x.fields.len() == y.fields.len()
                        && x.fields.iter().zip(&y.fields).all(|(f, g)| {
                            f.name == g.name && f.bits == g.bits && go(c, &f.ty, &g.ty, depth + 1)
                        })
                }
                (T::Pointer(p), T::Pointer(q)) => {
                    p.space == q.space && p.quals == q.quals && go(c, &p.ty, &q.ty, depth + 1)
                }
                (T::Array(x, n), T::Array(y, m)) => n == m && go(c, x, y, depth + 1),
                (T::Function(f), T::Function(g)) => {
                    f.variadic == g.variadic
                        && f.params.len() == g.params.len()
                        && go(c, &f.ret, &g.ret, depth + 1)
                        && f.params
                            .iter()
                            .zip(&g.params)
                            .all(|(x, y)| go(c, x, y, depth + 1))
                }
                _ => false,
            }
        }
        go(self, a, b, 0)
    }

    fn finish(self) -> Program {
        self.prog
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.error(span, msg);
    }
    pub fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.warning(span, msg);
    }
    pub fn note(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.note(span, msg);
    }

    /// The operator written between two operands (`a + b`: the `+`): the
    /// first token after `lhs` that is not blank or a comment. Without the
    /// source text (or across files/macros), the whole expression.
    pub fn op_span(&self, lhs: Span, rhs: Span, whole: Span) -> Span {
        let Some(file) = self.sources.and_then(|sm| sm.get(lhs.file)) else {
            return whole;
        };
        if lhs.file != rhs.file || lhs.hi > rhs.lo {
            return whole;
        }
        let Some(gap) = file.text.get(lhs.hi as usize..rhs.lo as usize) else {
            return whole;
        };
        let b = gap.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b' ' | b'\t' | b'\n' | b'\r' | b')' | b']' => i += 1,
                b'/' if b.get(i + 1) == Some(&b'*') => {
                    i = gap[i + 2..].find("*/").map_or(b.len(), |j| i + 2 + j + 2);
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    i = gap[i..].find('\n').map_or(b.len(), |j| i + j + 1);
                }
                _ => break,
            }
        }
        if i >= b.len() {
            return whole;
        }
        let mut j = i;
        while j < b.len()
            && !b[j].is_ascii_whitespace()
            && !b[j].is_ascii_alphanumeric()
            && b[j] != b'('
            && b[j] != b'_'
        {
            j += 1;
        }
        let lo = lhs.hi + i as u32;
        Span::new(lhs.file, lo, lhs.hi + j.max(i + 1) as u32)
    }

    /// A type for messages: `'__global int *'`.
    pub fn ty_str(&self, t: &types::Type) -> String {
        format!("'{}'", t.display(&self.prog.records))
    }

    /// `_Static_assert(cond, "msg");`
    pub fn static_assert(&mut self, s: &ast::StaticAssert) {
        let e = self.expr(&s.cond);
        match self.const_ice(&e) {
            Some(0) => {
                let msg = s
                    .message
                    .as_ref()
                    .map(|m| format!(" \"{}\"", m.node))
                    .unwrap_or_default();
                self.error(s.span, format!("static_assert failed{msg}"));
            }
            Some(_) => {}
            None if e.ty.is_error() => {}
            None => self.error(
                s.cond.span,
                "static_assert expression is not an integral constant expression",
            ),
        }
    }
}
