//! The typed HIR: what semantic analysis hands to lowering and codegen.
//!
//! Everything here is resolved: every expression carries its type and value
//! category; implicit conversions are explicit [`CastKind`] nodes (an lvalue
//! read is `Cast(LvalueToRvalue)`, array decay is `Cast(ArrayToPointer)`);
//! `a[i]` is `Deref(a + i)` and `p->f` is `Member(Deref(p), f)`; swizzles are
//! lane lists; built-in calls name one concrete overload; `sizeof`, `vec_step`
//! and integer constant expressions are folded to constants. String literals
//! are anonymous constant-space globals. Codegen never re-resolves anything.
#![forbid(unsafe_code)]

use super::builtins::BuiltinFn;
use super::types::{Access, AddrSpace, Quals, Records, Type};
use crate::source::{FileId, Span};
use std::collections::HashMap;

/// Index into [`Program::globals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);
/// Index into [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FuncId(pub u32);
/// Index into [`Function::locals`] (parameters come first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalId(pub u32);

/// A checked translation unit.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub records: Records,
    /// Program-scope variables, function-scope `static`/`constant` variables
    /// and string literals, with their constant-folded initialisers.
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// Where `#pragma OPENCL FP_CONTRACT` lets floating-point expressions
    /// be contracted (on everywhere when no pragma turns it off).
    pub fp_contract: FpContract,
}

/// The state of `#pragma OPENCL FP_CONTRACT` over a program's text, as
/// C99 §7.12.2 scopes it (OpenCL C follows C99 here): from a pragma to the
/// next one, or to the end of the compound statement it is in (after which
/// the state before that statement comes back), or at file scope to the end
/// of the unit. On where no pragma says otherwise.
#[derive(Clone, Debug, Default)]
pub struct FpContract {
    /// The state at each token of the units that have such pragmas, keyed
    /// by where the token is in the user's text (a macro's tokens: where
    /// the macro was invoked).
    pub at: HashMap<(FileId, u32), bool>,
    /// Some pragma turns contraction off: a position not in `at` is then
    /// taken as off (never contracting is always allowed).
    pub any_off: bool,
}

impl FpContract {
    /// Whether an expression that starts at `span` may be contracted.
    pub fn on_at(&self, span: Span) -> bool {
        !self.any_off || self.at.get(&(span.file, span.lo)).copied().unwrap_or(false)
    }
}

impl Program {
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kernel.is_some() && f.body.is_some())
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
}

#[derive(Clone, Debug)]
pub struct Global {
    /// Source name; string literals and function-scope statics get a
    /// unique name (`.str.0`, `func.var`).
    pub name: String,
    pub ty: Type,
    /// `Global` or `Constant`.
    pub space: AddrSpace,
    pub quals: Quals,
    /// `static` (internal linkage).
    pub is_static: bool,
    /// `None`: zero-initialised (or an `extern` declaration).
    pub init: Option<ConstInit>,
    pub span: Span,
}

/// A constant-folded initialiser: the object's bytes (little-endian, layout
/// as [`Records`] computes; bytes past the end of `bytes` are zero, so a
/// huge mostly-zero array costs nothing) and the places where an address is
/// to be added.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConstInit {
    pub bytes: Vec<u8>,
    pub relocs: Vec<Reloc>,
}

/// At `offset` in the object, store (8 bytes) the address of `target` plus `addend`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reloc {
    pub offset: u64,
    pub target: GlobalId,
    pub addend: i64,
}

/// Kernel attributes (spec 6.11.2).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelAttrs {
    pub reqd_work_group_size: Option<[u64; 3]>,
    pub work_group_size_hint: Option<[u64; 3]>,
    /// The type named by `vec_type_hint(T)`, as written.
    pub vec_type_hint: Option<String>,
}

#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub attrs: KernelAttrs,
    /// The `__attribute__` text for `CL_KERNEL_ATTRIBUTES`.
    pub attr_string: String,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    /// For pointer parameters: the pointee's space (`global float *a` →
    /// `Global`); otherwise `Private`.
    pub space: AddrSpace,
    /// Access qualifier of image parameters (and pipes).
    pub access: Option<Access>,
    /// The pointee's qualifiers (`const`, `volatile`, `restrict` of the pointer).
    pub type_quals: Quals,
    /// Type name as `clGetKernelArgInfo` reports it (`float4*`, `uint`, `image2d_t`).
    pub type_name: String,
    pub local: LocalId,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    /// `Private` for ordinary variables and parameters; `Local` for kernel-scope
    /// `local` variables (allocated per work-group by codegen).
    pub space: AddrSpace,
    pub quals: Quals,
    /// Its address is taken (`&x`, or an array): it needs memory, not a register.
    pub address_taken: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub ret: Type,
    pub params: Vec<Param>,
    /// Parameters first (`params[i].local == LocalId(i)`), then every
    /// block-scope variable of the body.
    pub locals: Vec<Local>,
    /// `Some` for `kernel` functions.
    pub kernel: Option<KernelInfo>,
    /// `None` for a declaration without a definition.
    pub body: Option<Block>,
    /// Functions this one calls (for the recursion check and for codegen order).
    pub callees: Vec<FuncId>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `int x = e;` — `init` is `None` for an uninitialised variable.
    Decl(LocalId, Option<Init>),
    Expr(Expr),
    Block(Block),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    /// `for (init; cond; step) body`; `init` is a statement (decl or expr).
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    /// The controlling expression (promoted) and the body; `case` labels are
    /// [`StmtKind::Case`] statements inside it.
    Switch(Expr, Box<Stmt>),
    /// `case V:` (value folded, converted to the switch type).
    Case(i128, Box<Stmt>),
    Default(Box<Stmt>),
    Label(String, Box<Stmt>),
    Goto(String),
    Break,
    Continue,
    Return(Option<Expr>),
    Empty,
}

/// An initialiser of a local variable, one entry per element/field.
#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    /// Array elements from the first; the elements after the last one
    /// listed are zero (`int a[100] = {1}` lists one), as are `Zero` ones.
    Array(Vec<Init>),
    /// Struct fields, one per field.
    Struct(Vec<Init>),
    /// The initialised member of a union.
    Union(usize, Box<Init>),
    Zero,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueCat {
    LValue,
    RValue,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub cat: ValueCat,
    /// For lvalues: the address space and qualifiers of the object.
    pub space: AddrSpace,
    pub quals: Quals,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `~x`
    BitNot,
    /// `!x` (result `int`, or a vector of signed integers: -1 / 0)
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    /// `&&`, `||`: short-circuit for scalars; element-wise for vectors.
    LogAnd,
    LogOr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// Read the value of an lvalue.
    LvalueToRvalue,
    /// `T[n]` → `T *` (same address space).
    ArrayToPointer,
    /// Function designator → pointer (only for calls).
    FunctionToPointer,
    /// Integer ↔ integer of another width/signedness (incl. to `bool`: `!= 0`).
    IntToInt,
    IntToFloat,
    FloatToInt,
    FloatToFloat,
    /// Scalar → vector: convert to the element type, then replicate.
    VectorSplat,
    /// Explicit vector ↔ vector conversion of the same width is illegal
    /// in OpenCL; this is only `(int4)(x)` same-type no-ops.
    NoOp,
    /// Pointer → `bool`/integer (`if (p)`, `(ulong)p`).
    PointerToInt,
    IntToPointer,
    /// Pointer → pointer in the same address space (`(char *)p`).
    Bitcast,
    /// A named-space pointer → generic pointer.
    ToGeneric,
    /// Generic → named-space pointer (explicit casts only).
    FromGeneric,
    /// Null pointer constant → pointer.
    NullToPointer,
    /// Arithmetic → `void` (`(void)x`).
    ToVoid,
}

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarRef {
    Local(LocalId),
    Global(GlobalId),
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Integer constant of the expression's type, value sign- or zero-extended.
    IntConst(i128),
    FloatConst(f64),
    /// A variable (an lvalue).
    Var(VarRef),
    /// A function designator (the callee of a call).
    Func(FuncId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Pointer ± integer, in units of the pointee (`p + i`, `a[i]`'s address).
    PtrAdd(Box<Expr>, Box<Expr>),
    /// Pointer − pointer, in elements (`ptrdiff_t`).
    PtrDiff(Box<Expr>, Box<Expr>),
    /// Pointer comparison (`<`, `==`, ...); both sides same pointer type.
    PtrCmp(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b`, or `a op= b` with the operation done in `op_ty` (the usual
    /// arithmetic conversions' type) and converted back to `a`'s type. For a
    /// pointer `a`, `op` is `Add` and `rhs` the element count as a `long`
    /// (negated for `-=`).
    Assign {
        op: Option<BinOp>,
        op_ty: Type,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `++x`, `x++`, `--x`, `x--` (pointers step by the pointee).
    IncDec {
        inc: bool,
        prefix: bool,
        operand: Box<Expr>,
    },
    /// `c ? a : b` (vector `c`: element-wise select, both arms evaluated).
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Cast(CastKind, Box<Expr>),
    Call(FuncId, Vec<Expr>),
    Builtin(Box<BuiltinFn>, Vec<Expr>),
    /// `*p` (an lvalue in the pointee's space).
    Deref(Box<Expr>),
    /// `&x`
    AddrOf(Box<Expr>),
    /// Field `index` of a struct/union lvalue or rvalue.
    Member(Box<Expr>, usize),
    /// `v.xz`: the lanes selected; an lvalue when `v` is and no lane repeats.
    Swizzle(Box<Expr>, Vec<u8>),

    /// `(float4)(a, b.xy, c)`: the parts, each scalar (element type) or a
    /// vector of the element type, lanes concatenated.
    VectorLit(Vec<Expr>),
}

impl Expr {
    pub fn is_lvalue(&self) -> bool {
        self.cat == ValueCat::LValue
    }
    /// A constant of type `ty` with value `v`.
    pub fn int(v: i128, ty: Type, span: Span) -> Expr {
        Expr::rvalue(ExprKind::IntConst(v), ty, span)
    }
    pub fn rvalue(kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr {
            kind,
            ty,
            cat: ValueCat::RValue,
            space: AddrSpace::Private,
            quals: Quals::NONE,
            span,
        }
    }
    /// The poison expression.
    pub fn error(span: Span) -> Expr {
        Expr::rvalue(ExprKind::IntConst(0), Type::Error, span)
    }
}
