//! Which identifiers are keywords, and which name OpenCL's built-in types.
//!
//! The preprocessor hands keywords over as identifiers; the parser asks here.
//! Keywords (C99's, OpenCL's qualifiers with and without `__`, GNU spellings
//! such as `__inline__`) can never be identifiers. Built-in type names
//! (`uint`, `float4`, `size_t`, `image2d_t`, `atomic_int`) are not keywords:
//! they are looked up like typedef names, so a local declaration may shadow
//! them.
#![forbid(unsafe_code)]

use super::ast::{
    AccessQualifier, AddressSpace, FunctionSpecifier, OpaqueType, ScalarType, StorageClass,
    TypeQualifier, TypeSpecifier,
};

/// Whether `s` is one of C99's and OpenCL C's keywords, never identifiers
/// (a `match`: the compiler compares lengths first, then bytes).
fn is_base_keyword(s: &str) -> bool {
    matches!(
        s,
        "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "_Bool"
            | "_Complex"
            | "_Imaginary"
            | "_Alignof"
            | "_Static_assert"
            | "__alignof__"
            | "__alignof"
            | "__attribute__"
            | "__attribute"
            | "__inline"
            | "__inline__"
            | "__const"
            | "__const__"
            | "__restrict"
            | "__restrict__"
            | "__volatile"
            | "__volatile__"
            | "__signed"
            | "__signed__"
            | "bool"
            | "half"
            | "vec_step"
            | "kernel"
            | "__kernel"
            | "global"
            | "__global"
            | "local"
            | "__local"
            | "constant"
            | "__constant"
            | "private"
            | "__private"
            | "read_only"
            | "__read_only"
            | "write_only"
            | "__write_only"
            | "read_write"
            | "__read_write"
            | "uniform"
    )
}

/// Keywords only from OpenCL C 2.0 on.
const KEYWORDS_CL20: &[&str] = &["generic", "__generic", "pipe"];

/// Whether `s` is a reserved word for OpenCL C `version` (100..300).
pub fn is_keyword(s: &str, version: u32) -> bool {
    is_base_keyword(s) || (version >= 200 && KEYWORDS_CL20.contains(&s))
}

pub fn storage_class(s: &str) -> Option<StorageClass> {
    Some(match s {
        "typedef" => StorageClass::Typedef,
        "extern" => StorageClass::Extern,
        "static" => StorageClass::Static,
        "auto" => StorageClass::Auto,
        "register" => StorageClass::Register,
        _ => return None,
    })
}

pub fn function_specifier(s: &str) -> Option<FunctionSpecifier> {
    Some(match s {
        "kernel" | "__kernel" => FunctionSpecifier::Kernel,
        "inline" | "__inline" | "__inline__" => FunctionSpecifier::Inline,
        _ => return None,
    })
}

/// Type qualifiers, address spaces and access qualifiers (`pipe` is handled
/// by the parser: it is a qualifier only before a type).
pub fn type_qualifier(s: &str, version: u32) -> Option<TypeQualifier> {
    use TypeQualifier as Q;
    Some(match s {
        "const" | "__const" | "__const__" => Q::Const,
        "volatile" | "__volatile" | "__volatile__" => Q::Volatile,
        "restrict" | "__restrict" | "__restrict__" => Q::Restrict,
        "global" | "__global" => Q::AddressSpace(AddressSpace::Global),
        "local" | "__local" => Q::AddressSpace(AddressSpace::Local),
        "constant" | "__constant" => Q::AddressSpace(AddressSpace::Constant),
        "private" | "__private" => Q::AddressSpace(AddressSpace::Private),
        "generic" | "__generic" if version >= 200 => Q::AddressSpace(AddressSpace::Generic),
        "read_only" | "__read_only" => Q::Access(AccessQualifier::ReadOnly),
        "write_only" | "__write_only" => Q::Access(AccessQualifier::WriteOnly),
        "read_write" | "__read_write" => Q::Access(AccessQualifier::ReadWrite),
        _ => return None,
    })
}

/// Type specifiers that are keywords (`int`, `half`, `unsigned`...).
pub fn keyword_type_specifier(s: &str) -> Option<TypeSpecifier> {
    use TypeSpecifier::*;
    Some(match s {
        "void" => Void,
        "char" => Char,
        "short" => Short,
        "int" => Int,
        "long" => Long,
        "float" => Float,
        "double" => Double,
        "half" => Half,
        "bool" | "_Bool" => Bool,
        "signed" | "__signed" | "__signed__" => Signed,
        "unsigned" => Unsigned,
        _ => return None,
    })
}

/// The element types a vector name may start with, by spelling.
const VECTOR_ELEMENTS: &[(&str, ScalarType)] = &[
    ("char", ScalarType::Char),
    ("uchar", ScalarType::UChar),
    ("short", ScalarType::Short),
    ("ushort", ScalarType::UShort),
    ("int", ScalarType::Int),
    ("uint", ScalarType::UInt),
    ("long", ScalarType::Long),
    ("ulong", ScalarType::ULong),
    ("half", ScalarType::Half),
    ("float", ScalarType::Float),
    ("double", ScalarType::Double),
];

const OPAQUE: &[OpaqueType] = &[
    OpaqueType::Image1d,
    OpaqueType::Image1dArray,
    OpaqueType::Image1dBuffer,
    OpaqueType::Image2d,
    OpaqueType::Image2dArray,
    OpaqueType::Image2dDepth,
    OpaqueType::Image2dArrayDepth,
    OpaqueType::Image3d,
    OpaqueType::Sampler,
    OpaqueType::Event,
    OpaqueType::ClkEvent,
    OpaqueType::Queue,
    OpaqueType::NdRange,
    OpaqueType::ReserveId,
    OpaqueType::AtomicFlag,
];

/// OpenCL's built-in type names that are not keywords: `uchar`, `uint`,
/// `size_t`..., vector names, opaque types and atomic types.
pub fn builtin_type_name(s: &str) -> Option<TypeSpecifier> {
    if let Some(t) = scalar_name(s) {
        return Some(TypeSpecifier::Scalar(t));
    }
    if let Some(o) = OPAQUE.iter().find(|o| o.name() == s) {
        return Some(TypeSpecifier::Opaque(*o));
    }
    if let Some(rest) = s.strip_prefix("atomic_") {
        let t = match rest {
            "int" => ScalarType::Int,
            "uint" => ScalarType::UInt,
            "long" => ScalarType::Long,
            "ulong" => ScalarType::ULong,
            "float" => ScalarType::Float,
            "double" => ScalarType::Double,
            _ => scalar_name(rest)?,
        };
        return Some(TypeSpecifier::Atomic(t));
    }
    // A vector name: element spelling followed by 2, 3, 4, 8 or 16.
    let digits = s.find(|c: char| c.is_ascii_digit())?;
    let (elem, width) = s.split_at(digits);
    let width = match width {
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    let (_, t) = VECTOR_ELEMENTS.iter().find(|(n, _)| *n == elem)?;
    Some(TypeSpecifier::Vector(*t, width))
}

/// `uchar ushort uint ulong size_t ptrdiff_t intptr_t uintptr_t`.
fn scalar_name(s: &str) -> Option<ScalarType> {
    Some(match s {
        "uchar" => ScalarType::UChar,
        "ushort" => ScalarType::UShort,
        "uint" => ScalarType::UInt,
        "ulong" => ScalarType::ULong,
        "size_t" => ScalarType::SizeT,
        "ptrdiff_t" => ScalarType::PtrdiffT,
        "intptr_t" => ScalarType::IntptrT,
        "uintptr_t" => ScalarType::UintptrT,
        _ => return None,
    })
}

/// Attribute names the OpenCL C and GNU dialects define (after removing a
/// surrounding `__`). Others are reported as unknown and kept in the AST.
pub const KNOWN_ATTRIBUTES: &[&str] = &[
    "reqd_work_group_size",
    "work_group_size_hint",
    "vec_type_hint",
    "intel_reqd_sub_group_size",
    "aligned",
    "packed",
    "endian",
    "nosvm",
    "opencl_unroll_hint",
    "always_inline",
    "noinline",
    "const",
    "pure",
    "overloadable",
    "unused",
    "used",
    "deprecated",
    "noreturn",
    "weak",
    "visibility",
    "convergent",
    "warn_unused_result",
    "nodebug",
    "section",
    "format",
    "cold",
    "hot",
    "flatten",
    "malloc",
    "artificial",
    "gnu_inline",
    "may_alias",
    "transparent_union",
    "nonnull",
    "returns_nonnull",
    "nothrow",
    "leaf",
    "optnone",
    "minsize",
    "noduplicate",
    "ext_vector_type",
    "vector_size",
    "mode",
    "address_space",
    "fallthrough",
];
