//! The abstract syntax tree of OpenCL C (C99 + OpenCL C 3.0), as the parser
//! builds it and sema reads it.
//!
//! The tree keeps what was *written*, with a [`Span`] on every node sema may
//! report on; it decides nothing about types. In particular:
//!
//! - Declaration specifiers are kept as a list, in source order
//!   ([`DeclSpecifiers`]): `unsigned long long` is three [`TypeSpecifier`]s and
//!   sema combines them (and reports `long double float`).
//! - OpenCL's built-in type names (`uint`, `float4`, `size_t`, `image2d_t`,
//!   `atomic_int`, ...) are recognised by the parser and given structured
//!   specifiers ([`TypeSpecifier::Scalar`], [`TypeSpecifier::Vector`],
//!   [`TypeSpecifier::Opaque`], [`TypeSpecifier::Atomic`]). They behave like
//!   predefined typedef names: a local declaration may shadow them. The few
//!   built-in names that are typedefs of enums or integers in the OpenCL C
//!   headers ([`PREDEFINED_TYPEDEFS`]: `cl_mem_fence_flags`, `memory_order`, ...)
//!   come out as [`TypeSpecifier::TypedefName`]; sema declares them.
//! - A declarator lists its derivations in *reading order from the name*
//!   ([`Declarator::derived`]): `int *a[3]` is "a is [array 3] of [pointer] to
//!   int", so sema builds the type by wrapping the base type with the derived
//!   list walked back to front.
//! - Swizzles (`v.xyz`, `v.s01`, `v.hi`) are plain [`ExprKind::Member`] accesses;
//!   sema interprets them on vector operands.
//! - `(float4)(a, b, c, d)` is an [`ExprKind::VectorLiteral`] whenever the cast
//!   type is syntactically a vector type (a vector type name, or a typedef of
//!   one with no pointer/array derivation) and the operand is a parenthesised
//!   list; `(float4)(x)` is then a one-element vector literal too.
//! - Nothing here is an error node: the parser reports syntax errors and drops
//!   what it could not parse, except [`TypeSpecifier::Invalid`] (an unknown type
//!   name already reported; sema should give it the poison type silently).
#![forbid(unsafe_code)]

use crate::source::{Span, Spanned};

/// A whole program after preprocessing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub items: Vec<ExternalDecl>,
}

/// What may appear at file scope.
#[derive(Clone, Debug, PartialEq)]
pub enum ExternalDecl {
    /// `kernel void f(global int *p) { ... }`
    Function(FunctionDef),
    /// `constant int N = 4;`, `typedef struct { int x; } S;`, prototypes.
    Declaration(Declaration),
    /// `_Static_assert(sizeof(int) == 4, "msg");`
    StaticAssert(StaticAssert),
}

/// A function definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Return type specifiers, storage class, `kernel`/`inline`, attributes
    /// written before the name (`__attribute__((reqd_work_group_size(8,1,1)))`).
    pub specs: DeclSpecifiers,
    /// The name and derivations; its first [`DerivedDeclarator`] is the
    /// [`DerivedDeclarator::Function`] with the parameters (after any pointers
    /// of the return type: `int *f(void)` is [Function, Pointer]).
    /// Attributes written between the `)` and the body are in
    /// [`Declarator::attributes`].
    pub declarator: Declarator,
    pub body: Block,
    /// From the first specifier to the closing brace.
    pub span: Span,
}

impl FunctionDef {
    /// The function's name.
    pub fn name(&self) -> &str {
        self.declarator
            .name
            .as_ref()
            .map(|n| n.node.as_str())
            .unwrap_or("")
    }
    /// The parameter list of the function declarator, if the declarator is one.
    pub fn params(&self) -> Option<&FunctionDeclarator> {
        match self.declarator.derived.first() {
            Some(DerivedDeclarator::Function(f)) => Some(f),
            _ => None,
        }
    }
}

/// `_Static_assert(cond, "message");` (C11; clang accepts it in OpenCL C).
#[derive(Clone, Debug, PartialEq)]
pub struct StaticAssert {
    pub cond: Expr,
    /// The message, if one was given (C2x allows leaving it out).
    pub message: Option<Spanned<String>>,
    pub span: Span,
}

/// A declaration: specifiers and zero or more declarators
/// (`global float *a, b[4] = {0};`, `struct S { int x; };`).
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    pub specs: DeclSpecifiers,
    pub declarators: Vec<InitDeclarator>,
    /// From the first specifier to the `;`.
    pub span: Span,
}

/// One declarator of a declaration with its optional initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
    pub span: Span,
}

/// Declaration specifiers, each in source order with its span.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct DeclSpecifiers {
    /// `typedef extern static auto register` (more than one is sema's error).
    pub storage: Vec<Spanned<StorageClass>>,
    /// `int`, `unsigned`, `float4`, `struct S {...}`, typedef names...
    pub type_specs: Vec<Spanned<TypeSpecifier>>,
    /// `const volatile restrict`, address spaces, access qualifiers, `pipe`.
    pub qualifiers: Vec<Spanned<TypeQualifier>>,
    /// `kernel`/`__kernel`, `inline`.
    pub functions: Vec<Spanned<FunctionSpecifier>>,
    /// `__attribute__((...))` written among the specifiers.
    pub attributes: Vec<Attribute>,
    /// Covers all specifiers (empty span at the next token if there were none).
    pub span: Span,
}

impl DeclSpecifiers {
    /// The address-space qualifiers written, in order.
    pub fn address_spaces(&self) -> impl Iterator<Item = &Spanned<TypeQualifier>> {
        self.qualifiers
            .iter()
            .filter(|q| matches!(q.node, TypeQualifier::AddressSpace(_)))
    }
    /// Whether a `typedef` storage class is present.
    pub fn is_typedef(&self) -> bool {
        self.storage.iter().any(|s| s.node == StorageClass::Typedef)
    }
    /// Whether `kernel`/`__kernel` is present.
    pub fn is_kernel(&self) -> bool {
        self.functions
            .iter()
            .any(|s| s.node == FunctionSpecifier::Kernel)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionSpecifier {
    /// `kernel`, `__kernel`
    Kernel,
    /// `inline`, `__inline`, `__inline__`
    Inline,
}

/// OpenCL address spaces (`__global` and `global` are the same qualifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    Global,
    Local,
    Constant,
    Private,
    /// `__generic`/`generic` (OpenCL C 2.0 and later).
    Generic,
}

/// Image and pipe access qualifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessQualifier {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeQualifier {
    Const,
    Volatile,
    Restrict,
    AddressSpace(AddressSpace),
    /// `read_only`, `__write_only`...
    Access(AccessQualifier),
    /// `pipe` (OpenCL C 2.0: `read_only pipe int p`).
    Pipe,
}

/// The scalar types OpenCL names; also the element types of vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
    SizeT,
    PtrdiffT,
    IntptrT,
    UintptrT,
}

impl ScalarType {
    /// The OpenCL spelling (`uint`, `size_t`).
    pub fn name(self) -> &'static str {
        use ScalarType::*;
        match self {
            Bool => "bool",
            Char => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            Half => "half",
            Float => "float",
            Double => "double",
            SizeT => "size_t",
            PtrdiffT => "ptrdiff_t",
            IntptrT => "intptr_t",
            UintptrT => "uintptr_t",
        }
    }
}

/// OpenCL's opaque built-in types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpaqueType {
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image2dDepth,
    Image2dArrayDepth,
    Image3d,
    Sampler,
    Event,
    /// `clk_event_t` (device-side enqueue)
    ClkEvent,
    /// `queue_t`
    Queue,
    /// `ndrange_t`
    NdRange,
    /// `reserve_id_t`
    ReserveId,
    /// `atomic_flag`
    AtomicFlag,
}

impl OpaqueType {
    /// The OpenCL spelling (`image2d_t`).
    pub fn name(self) -> &'static str {
        use OpaqueType::*;
        match self {
            Image1d => "image1d_t",
            Image1dArray => "image1d_array_t",
            Image1dBuffer => "image1d_buffer_t",
            Image2d => "image2d_t",
            Image2dArray => "image2d_array_t",
            Image2dDepth => "image2d_depth_t",
            Image2dArrayDepth => "image2d_array_depth_t",
            Image3d => "image3d_t",
            Sampler => "sampler_t",
            Event => "event_t",
            ClkEvent => "clk_event_t",
            Queue => "queue_t",
            NdRange => "ndrange_t",
            ReserveId => "reserve_id_t",
            AtomicFlag => "atomic_flag",
        }
    }
}

/// Built-in type names of OpenCL C that are typedefs (of integers or enums) in
/// the standard headers. The parser treats them as typedef names
/// ([`TypeSpecifier::TypedefName`]); sema must declare them.
pub const PREDEFINED_TYPEDEFS: &[&str] = &[
    "cl_mem_fence_flags",
    "memory_order",
    "memory_scope",
    "kernel_enqueue_flags_t",
    "clk_profiling_info",
];

#[derive(Clone, Debug, PartialEq)]
pub enum TypeSpecifier {
    Void,
    /// `char` (signedness is sema's: `signed`/`unsigned` are separate specifiers)
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
    /// `half`
    Half,
    /// `bool`, `_Bool`
    Bool,
    Signed,
    Unsigned,
    /// OpenCL's scalar names that are not C keywords: `uchar ushort uint ulong
    /// size_t ptrdiff_t intptr_t uintptr_t` (never Bool/Char/Int/... : those
    /// keywords have their own variants).
    Scalar(ScalarType),
    /// `float4`, `uchar16`, `half3`: element type and width (2, 3, 4, 8, 16).
    Vector(ScalarType, u8),
    /// `image2d_t`, `sampler_t`, `event_t`...
    Opaque(OpaqueType),
    /// `atomic_int`, `atomic_uint`, `atomic_long`, `atomic_ulong`,
    /// `atomic_float`, `atomic_double`, `atomic_intptr_t`, `atomic_uintptr_t`,
    /// `atomic_size_t`, `atomic_ptrdiff_t` (`atomic_flag` is opaque).
    Atomic(ScalarType),
    /// `struct ...` or `union ...`
    Struct(StructSpec),
    Enum(EnumSpec),
    /// A name declared with `typedef` (or one of [`PREDEFINED_TYPEDEFS`]).
    TypedefName(String),
    /// An unknown type name the parser already reported.
    Invalid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructKind {
    Struct,
    Union,
}

/// `struct tag { fields }`, `union tag`, `struct { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructSpec {
    pub kind: StructKind,
    pub name: Option<Spanned<String>>,
    /// `None` for a reference or forward declaration (`struct S *p;`),
    /// `Some` (maybe empty) when a body `{ ... }` was written.
    pub fields: Option<Vec<FieldDecl>>,
    /// Attributes after the keyword and after the closing brace
    /// (`struct __attribute__((packed)) S {...}`, `} __attribute__((aligned(8)))`).
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

/// One member declaration: `int a, b : 3;`, `struct { int x; };` (anonymous).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub specs: DeclSpecifiers,
    /// Empty for an anonymous struct/union member.
    pub declarators: Vec<FieldDeclarator>,
    pub span: Span,
}

/// A member declarator: a name, a bit-field width, or both (`int : 0;` has no
/// declarator).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDeclarator {
    pub declarator: Option<Declarator>,
    pub bit_width: Option<Expr>,
    pub span: Span,
}

/// `enum tag { A, B = 3 }`, `enum tag`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    pub name: Option<Spanned<String>>,
    /// `None` for a reference (`enum E e;`).
    pub enumerators: Option<Vec<Enumerator>>,
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Enumerator {
    pub name: Spanned<String>,
    pub value: Option<Expr>,
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

/// A declarator: an optional name (none: abstract, as in casts, `sizeof` and
/// unnamed parameters) and its derivations.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Option<Spanned<String>>,
    /// In reading order from the name outward: `int *a[3]` is
    /// `[Array(3), Pointer]` ("array of 3 pointers to int"); `int (*f)(int)`
    /// is `[Pointer, Function]`; `int **p` is `[Pointer(outer), Pointer(inner)]`
    /// where the first entry holds the qualifiers written nearest the name
    /// (`int * const * volatile p`: `[Pointer{volatile}, Pointer{const}]`).
    pub derived: Vec<DerivedDeclarator>,
    /// Attributes written after the declarator (`int x __attribute__((aligned(16)))`,
    /// `void f(void) __attribute__((overloadable))`) or inside it.
    pub attributes: Vec<Attribute>,
    /// The declarator's text (the name's span for a plain name; an empty
    /// span where the declarator is abstract and empty).
    pub span: Span,
}

impl Declarator {
    /// The declared name, if any.
    pub fn name_str(&self) -> Option<&str> {
        self.name.as_ref().map(|n| n.node.as_str())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum DerivedDeclarator {
    /// `*` with the qualifiers written after it (`* const global`) and
    /// attributes.
    Pointer(PointerDeclarator),
    /// `[N]`, `[]`, `[static N]` (parameter), `[const N]`.
    Array(ArrayDeclarator),
    /// `(params)`
    Function(FunctionDeclarator),
}

#[derive(Clone, Debug, PartialEq)]
pub struct PointerDeclarator {
    pub qualifiers: Vec<Spanned<TypeQualifier>>,
    pub attributes: Vec<Attribute>,
    /// The `*` and its qualifiers.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDeclarator {
    /// `None` for `[]` (unsized).
    pub size: Option<Box<Expr>>,
    pub qualifiers: Vec<Spanned<TypeQualifier>>,
    /// `[static N]` in a parameter.
    pub is_static: bool,
    /// From `[` to `]`.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDeclarator {
    /// The parameters as written; `(void)` gives an empty list with
    /// `no_prototype == false`.
    pub params: Vec<ParamDecl>,
    /// `, ...` was written.
    pub variadic: bool,
    /// `()`: no parameter list at all (C's unprototyped function; OpenCL
    /// treats it like `(void)`).
    pub no_prototype: bool,
    /// From `(` to `)`.
    pub span: Span,
}

/// One parameter: `global const float *restrict in`, `int`, `float4 v[]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamDecl {
    pub specs: DeclSpecifiers,
    /// Possibly abstract (no name).
    pub declarator: Declarator,
    pub span: Span,
}

/// A type name: in casts, `sizeof(T)`, `vec_step(T)`, compound literals and
/// attribute arguments (`vec_type_hint(float4)`).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeName {
    pub specs: DeclSpecifiers,
    /// An abstract declarator (`name` is `None`).
    pub declarator: Declarator,
    pub span: Span,
}

/// `__attribute__((name))`, `__attribute__((name(args)))`. One per name: a
/// list `__attribute__((a, b(1)))` gives two.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// The name with GNU's optional surrounding `__` removed
    /// (`__aligned__` → `aligned`), and the span of the name as written.
    pub name: Spanned<String>,
    /// The arguments; empty when none or `()` were written.
    pub args: Vec<AttributeArg>,
    /// From the name to the closing `)` of its arguments.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttributeArg {
    /// An expression: `reqd_work_group_size(16, 1, 1)`, `aligned(8)`,
    /// `endian(host)` (an identifier is an [`ExprKind::Ident`]).
    Expr(Expr),
    /// A type name: `vec_type_hint(float4)`.
    Type(TypeName),
}

/// An initializer: an expression or a braced list.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Box<Expr>),
    /// `{ 1, .x = 2, [3] = 4, { 5, 6 } }` with the span of the braces.
    List(Vec<InitItem>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

/// One element of an initializer list, with its designators
/// (`.a[2].b = 1` has three).
#[derive(Clone, Debug, PartialEq)]
pub struct InitItem {
    pub designators: Vec<Designator>,
    pub init: Initializer,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Designator {
    /// `.name`
    Member(Spanned<String>),
    /// `[index]`
    Index(Expr),
}

/// `{ declarations and statements }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub items: Vec<BlockItem>,
    /// From `{` to `}`.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BlockItem {
    Declaration(Declaration),
    Statement(Stmt),
    StaticAssert(StaticAssert),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// Statement attributes written before it
    /// (`__attribute__((opencl_unroll_hint(4))) for (...)`).
    pub attributes: Vec<Attribute>,
    pub span: Span,
}

// `For` holds its declaration inline; statements are few next to
// expressions, so the size is not worth a box (and the shape is stable API).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `label: stmt`
    Labeled {
        label: Spanned<String>,
        stmt: Box<Stmt>,
    },
    /// `case value: stmt`
    Case {
        value: Expr,
        stmt: Box<Stmt>,
    },
    /// `default: stmt`
    Default(Box<Stmt>),
    /// `{ ... }`
    Compound(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        else_: Option<Box<Stmt>>,
    },
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<ForInit>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Goto(Spanned<String>),
    Continue,
    Break,
    Return(Option<Expr>),
    /// `expr;`
    Expr(Expr),
    /// `;`
    Null,
}

/// The first clause of a `for`.
#[derive(Clone, Debug, PartialEq)]
pub enum ForInit {
    Expr(Expr),
    Declaration(Declaration),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A name: variable, function, enumerator (or swizzle-free identifier).
    Ident(String),
    IntLit(IntLiteral),
    FloatLit(FloatLiteral),
    CharLit(CharLiteral),
    /// Adjacent string literals, concatenated.
    StringLit(String),
    /// `-x`, `!x`, `*p`, `&x`, `++x`, `x++`...
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    /// `a + b`, `a && b`, `a, b`...
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a = b` (`op == None`) or `a += b` (`op == Some(Add)`).
    Assign {
        op: Option<BinaryOp>,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `c ? a : b`
    Conditional {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    /// `(T)e`
    Cast {
        ty: Box<TypeName>,
        expr: Box<Expr>,
    },
    /// `(float4)(a, b, c, d)`, `(int2)(x)`, `(float8)(v4, 1.0f, f3)`.
    VectorLiteral {
        ty: Box<TypeName>,
        elems: Vec<Expr>,
    },
    /// `(struct S){ .x = 1 }`
    CompoundLiteral {
        ty: Box<TypeName>,
        init: Vec<InitItem>,
    },
    /// `sizeof e`
    SizeofExpr(Box<Expr>),
    /// `sizeof(T)`
    SizeofType(Box<TypeName>),
    /// `_Alignof(T)`, `__alignof__(T)`
    AlignofType(Box<TypeName>),
    /// `__alignof__ e` (GNU)
    AlignofExpr(Box<Expr>),
    /// `vec_step e`
    VecStepExpr(Box<Expr>),
    /// `vec_step(T)`
    VecStepType(Box<TypeName>),
    /// `f(args)`
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `a[i]`
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `s.m`, `p->m`, and swizzles `v.xy`, `v.s3`, `v.hi`.
    Member {
        base: Box<Expr>,
        member: Spanned<String>,
        arrow: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `+x`
    Plus,
    /// `-x`
    Minus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `*p`
    Deref,
    /// `&x`
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

impl UnaryOp {
    /// The operator's spelling (`x++` and `++x` both `"++"`).
    pub fn as_str(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Plus => "+",
            Minus => "-",
            Not => "!",
            BitNot => "~",
            Deref => "*",
            AddrOf => "&",
            PreInc | PostInc => "++",
            PreDec | PostDec => "--",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
    /// `a, b`
    Comma,
}

impl BinaryOp {
    /// The operator's spelling.
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
            Comma => ",",
        }
    }
}

/// An integer constant: its spelling and value (the type is sema's, from the
/// value, radix and suffix, C99 6.4.4.1).
#[derive(Clone, Debug, PartialEq)]
pub struct IntLiteral {
    pub spelling: String,
    /// The value; a literal too large for 64 bits was reported and holds
    /// `u64::MAX`.
    pub value: u64,
    /// 8, 10 or 16 (2 for the `0b` extension clang also accepts).
    pub radix: u32,
    /// `u`/`U` was written.
    pub unsigned: bool,
    /// `l` (1) or `ll` (2) was written; 0 without.
    pub long: u8,
}

/// A floating constant's suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// none: `double`
    None,
    /// `f`/`F`: `float`
    F,
    /// `h`/`H`: `half`
    H,
    /// `l`/`L`: `long double` (not in OpenCL: sema rejects)
    L,
}

/// A floating constant: spelling, suffix and value.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatLiteral {
    pub spelling: String,
    /// The value rounded once to `f64` (hex floats exactly when they fit).
    pub value: f64,
    /// The value rounded once to `f32` (use this for `f` literals and for
    /// `-cl-single-precision-constant`, not `value as f32`).
    pub value_f32: f32,
    pub suffix: FloatSuffix,
}

/// A character constant: spelling and value as C gives it (type `int`; a
/// single character's value is that of a `char`, which is signed in OpenCL,
/// so `'\xff'` is -1).
#[derive(Clone, Debug, PartialEq)]
pub struct CharLiteral {
    pub spelling: String,
    pub value: i32,
}
