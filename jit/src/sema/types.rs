//! OpenCL C types: scalars, vectors, pointers with address spaces, arrays,
//! records (structs and unions) with C layout, functions, the opaque types
//! (images, samplers, events) and the poison type `Error`.
//!
//! A [`Type`] is a small value (`Arc` inside, so programs can move between threads) compared structurally; records are
//! named by a [`RecordId`] into the [`Records`] table that also computes their
//! layout. `size_t`, `ptrdiff_t`, `intptr_t` and `uintptr_t` are the 64-bit
//! integer types of the spir64 target (spec 6.1.1). Sizes and alignments follow
//! spec 6.1.5: a vector's alignment is its size, and a 3-component vector has
//! the size and alignment of the 4-component one.
#![forbid(unsafe_code)]

use std::fmt;
use std::sync::Arc;

pub use super::addrspace::AddrSpace;

/// Built-in scalar types (spec 6.1.1). Enums are represented by `Int`/`UInt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
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
}

impl Scalar {
    /// Every scalar type usable as a vector element, in rank order.
    pub const VECTOR_ELEMS: [Scalar; 11] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Half,
        Scalar::Float,
        Scalar::Double,
    ];
    pub const SIZE_T: Scalar = Scalar::ULong;
    pub const PTRDIFF_T: Scalar = Scalar::Long;

    pub fn size(self) -> u64 {
        use Scalar::*;
        match self {
            Bool | Char | UChar => 1,
            Short | UShort | Half => 2,
            Int | UInt | Float => 4,
            Long | ULong | Double => 8,
        }
    }
    pub fn is_integer(self) -> bool {
        !self.is_float()
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }
    pub fn is_signed(self) -> bool {
        use Scalar::*;
        matches!(self, Char | Short | Int | Long | Half | Float | Double)
    }
    /// The integer conversion rank (C99 6.3.1.1), floats above all integers.
    pub fn rank(self) -> u8 {
        use Scalar::*;
        match self {
            Bool => 0,
            Char | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            Half => 5,
            Float => 6,
            Double => 7,
        }
    }
    pub fn to_unsigned(self) -> Scalar {
        use Scalar::*;
        match self {
            Char => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            Half => UShort,
            Float => UInt,
            Double => ULong,
            s => s,
        }
    }
    pub fn to_signed(self) -> Scalar {
        use Scalar::*;
        match self {
            UChar => Char,
            UShort | Half => Short,
            UInt | Float => Int,
            ULong | Double => Long,
            Bool => Char,
            s => s,
        }
    }
    /// The OpenCL C spelling (`uchar`, `ulong`).
    pub fn name(self) -> &'static str {
        use Scalar::*;
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
        }
    }
    /// Parse a scalar type name as used in `convert_<type>` / `as_<type>`.
    pub fn from_name(s: &str) -> Option<Scalar> {
        use Scalar::*;
        Some(match s {
            "bool" => Bool,
            "char" => Char,
            "uchar" => UChar,
            "short" => Short,
            "ushort" => UShort,
            "int" => Int,
            "uint" => UInt,
            "long" => Long,
            "ulong" => ULong,
            "half" => Half,
            "float" => Float,
            "double" => Double,
            _ => return None,
        })
    }
    /// Parse `float4`, `uchar16`, `int` into (element, width); width 1 = scalar.
    pub fn parse_gentype(s: &str) -> Option<(Scalar, u8)> {
        let digits = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let name = &s[..s.len() - digits.len()];
        let elem = Scalar::from_name(name)?;
        if digits.is_empty() {
            return Some((elem, 1));
        }
        let n: u8 = digits.parse().ok()?;
        if !is_vector_width(n) || elem == Scalar::Bool {
            return None;
        }
        Some((elem, n))
    }
}

/// Vector widths OpenCL C allows (spec 6.1.2).
pub fn is_vector_width(n: u8) -> bool {
    matches!(n, 2 | 3 | 4 | 8 | 16)
}

/// Type qualifiers other than the address space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Quals {
    pub konst: bool,
    pub volatile: bool,
    pub restrict: bool,
}

impl Quals {
    pub const NONE: Quals = Quals {
        konst: false,
        volatile: false,
        restrict: false,
    };
    pub const CONST: Quals = Quals {
        konst: true,
        volatile: false,
        restrict: false,
    };
    pub fn union(self, o: Quals) -> Quals {
        Quals {
            konst: self.konst || o.konst,
            volatile: self.volatile || o.volatile,
            restrict: self.restrict || o.restrict,
        }
    }
    /// `self` has every qualifier `o` has.
    pub fn contains(self, o: Quals) -> bool {
        (self.konst || !o.konst) && (self.volatile || !o.volatile)
    }
}

/// What a pointer points to: a type, its address space and qualifiers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointee {
    pub ty: Type,
    pub space: AddrSpace,
    pub quals: Quals,
}

/// Image types (spec 6.13.14); `Access` is the `read_only`/`write_only`/
/// `read_write` qualifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageKind {
    Image1d,
    Image1dArray,
    Image1dBuffer,
    Image2d,
    Image2dArray,
    Image2dDepth,
    Image2dArrayDepth,
    Image3d,
}

impl ImageKind {
    pub fn from_name(s: &str) -> Option<ImageKind> {
        use ImageKind::*;
        Some(match s {
            "image1d_t" => Image1d,
            "image1d_array_t" => Image1dArray,
            "image1d_buffer_t" => Image1dBuffer,
            "image2d_t" => Image2d,
            "image2d_array_t" => Image2dArray,
            "image2d_depth_t" => Image2dDepth,
            "image2d_array_depth_t" => Image2dArrayDepth,
            "image3d_t" => Image3d,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        use ImageKind::*;
        match self {
            Image1d => "image1d_t",
            Image1dArray => "image1d_array_t",
            Image1dBuffer => "image1d_buffer_t",
            Image2d => "image2d_t",
            Image2dArray => "image2d_array_t",
            Image2dDepth => "image2d_depth_t",
            Image2dArrayDepth => "image2d_array_depth_t",
            Image3d => "image3d_t",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Access {
    #[default]
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::ReadOnly => "read_only",
            Access::WriteOnly => "write_only",
            Access::ReadWrite => "read_write",
        }
    }
}

/// Index of a struct or union in [`Records`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecordId(pub u32);

/// A function type: return type, parameter types, variadic (`printf` only).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnSig {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// A vector of 2, 3, 4, 8 or 16 elements.
    Vector(Scalar, u8),
    Pointer(Arc<Pointee>),
    /// Element type and length (`None`: `[]`, incomplete).
    Array(Arc<Type>, Option<u64>),
    Record(RecordId),
    Function(Arc<FnSig>),
    Image(ImageKind, Access),
    Sampler,
    Event,
    /// `atomic_int`, `atomic_float`, ... (OpenCL C 2.0 atomics).
    Atomic(Scalar),
    AtomicFlag,
    /// The poison type: an expression that already produced a diagnostic.
    Error,
}

impl Type {
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const INT: Type = Type::Scalar(Scalar::Int);
    pub const UINT: Type = Type::Scalar(Scalar::UInt);
    pub const LONG: Type = Type::Scalar(Scalar::Long);
    pub const ULONG: Type = Type::Scalar(Scalar::ULong);
    pub const FLOAT: Type = Type::Scalar(Scalar::Float);
    pub const DOUBLE: Type = Type::Scalar(Scalar::Double);
    pub const SIZE_T: Type = Type::Scalar(Scalar::SIZE_T);
    pub const CHAR: Type = Type::Scalar(Scalar::Char);

    pub fn ptr(ty: Type, space: AddrSpace, quals: Quals) -> Type {
        Type::Pointer(Arc::new(Pointee { ty, space, quals }))
    }
    pub fn vec_or_scalar(e: Scalar, n: u8) -> Type {
        if n <= 1 {
            Type::Scalar(e)
        } else {
            Type::Vector(e, n)
        }
    }
    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }
    pub fn is_void(&self) -> bool {
        matches!(self, Type::Void)
    }
    pub fn is_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }
    pub fn is_array(&self) -> bool {
        matches!(self, Type::Array(..))
    }
    pub fn is_record(&self) -> bool {
        matches!(self, Type::Record(_))
    }
    pub fn is_function(&self) -> bool {
        matches!(self, Type::Function(_))
    }
    /// Scalar arithmetic or vector types (operands of `+`).
    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..))
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Scalar(s) if s.is_integer())
    }
    /// Scalar or vector with integer elements.
    pub fn is_integer_like(&self) -> bool {
        self.elem().is_some_and(Scalar::is_integer)
    }
    /// Scalar or vector with floating elements.
    pub fn is_float_like(&self) -> bool {
        self.elem().is_some_and(Scalar::is_float)
    }
    /// Scalar types in C's sense (arithmetic or pointer): conditions, `!`.
    pub fn is_c_scalar(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Pointer(_))
    }
    /// Opaque types that cannot be program-scope variables or struct fields.
    pub fn is_opaque(&self) -> bool {
        matches!(self, Type::Image(..) | Type::Sampler | Type::Event)
    }
    /// Element type of a scalar or vector.
    pub fn elem(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }
    /// Number of components: 1 for scalars.
    pub fn width(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }
    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }
    pub fn array_elem(&self) -> Option<&Type> {
        match self {
            Type::Array(e, _) => Some(e),
            _ => None,
        }
    }
    /// Whether any component of this type is `double` (or `half`).
    pub fn mentions(&self, s: Scalar) -> bool {
        match self {
            Type::Scalar(e) | Type::Vector(e, _) => *e == s,
            Type::Array(e, _) => e.mentions(s),
            _ => false,
        }
    }
}

/// A field of a struct or union with its byte offset.
#[derive(Clone, Debug)]
pub struct Field {
    pub name: Option<String>,
    pub ty: Type,
    pub offset: u64,
    /// Bit-field width, where one was written.
    pub bits: Option<u32>,
    /// Declared `const` (the member is not assignable).
    pub konst: bool,
}

/// A struct or union: its tag, fields and layout.
#[derive(Clone, Debug)]
pub struct RecordDef {
    pub tag: Option<String>,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// The body has been seen (`struct S;` alone is incomplete).
    pub complete: bool,
}

impl RecordDef {
    pub fn field(&self, name: &str) -> Option<(usize, &Field)> {
        self.fields
            .iter()
            .enumerate()
            .find(|(_, f)| f.name.as_deref() == Some(name))
    }
}

/// The table of every struct and union of a program.
#[derive(Clone, Debug, Default)]
pub struct Records {
    pub defs: Vec<RecordDef>,
}

impl Records {
    pub fn get(&self, id: RecordId) -> &RecordDef {
        &self.defs[id.0 as usize]
    }
    pub fn declare(&mut self, tag: Option<String>, is_union: bool) -> RecordId {
        self.defs.push(RecordDef {
            tag,
            is_union,
            fields: Vec::new(),
            size: 0,
            align: 1,
            complete: false,
        });
        RecordId(self.defs.len() as u32 - 1)
    }

    /// Lay out the fields in declaration order (C99 6.7.2.1): each field at
    /// the next offset aligned to its alignment (`packed`: alignment 1), the
    /// size rounded up to the record's alignment (raised by `aligned(n)`).
    /// Bit-fields are given storage units of their declared type.
    pub fn complete(
        &mut self,
        id: RecordId,
        fields: Vec<(Option<String>, Type, Option<u32>)>,
        packed: bool,
        min_align: u64,
    ) {
        let is_union = self.get(id).is_union;
        let mut laid = Vec::with_capacity(fields.len());
        let (mut offset, mut size, mut align) = (0u64, 0u64, min_align.max(1));
        let mut bit_pos: Option<(u64, u64, u64)> = None; // (unit offset, unit size, bits used)
        for (name, ty, bits) in fields {
            let fsize = self.size_of(&ty).unwrap_or(0);
            let falign = if packed { 1 } else { self.align_of(&ty) };
            align = align.max(falign);
            if is_union {
                size = size.max(fsize);
                laid.push(Field {
                    name,
                    ty,
                    offset: 0,
                    bits,
                    konst: false,
                });
                continue;
            }
            if let Some(w) = bits {
                let w = u64::from(w);
                if let Some((uo, us, used)) = bit_pos {
                    if us == fsize && used + w <= us * 8 && w > 0 {
                        bit_pos = Some((uo, us, used + w));
                        laid.push(Field {
                            name,
                            ty,
                            offset: uo,
                            bits,
                            konst: false,
                        });
                        continue;
                    }
                }
                offset = align_up(offset, falign);
                bit_pos = Some((offset, fsize, w));
                laid.push(Field {
                    name,
                    ty,
                    offset,
                    bits,
                    konst: false,
                });
                offset = offset.saturating_add(fsize);
                continue;
            }
            bit_pos = None;
            offset = align_up(offset, falign);
            laid.push(Field {
                name,
                ty,
                offset,
                bits,
                konst: false,
            });
            offset = offset.saturating_add(fsize);
        }
        if !is_union {
            size = offset;
        }
        let def = &mut self.defs[id.0 as usize];
        def.fields = laid;
        def.align = align;
        def.size = align_up(size, align);
        def.complete = true;
    }

    /// `sizeof`; `None` for incomplete and function types.
    pub fn size_of(&self, ty: &Type) -> Option<u64> {
        Some(match ty {
            Type::Void | Type::Function(_) | Type::Error => return None,
            Type::Scalar(s) => s.size(),
            Type::Vector(s, n) => s.size() * vector_storage_width(*n),
            Type::Pointer(_) | Type::Image(..) | Type::Event => 8,
            Type::Sampler => 4,
            Type::Atomic(s) => s.size(),
            Type::AtomicFlag => 4,
            Type::Array(e, n) => self.size_of(e)?.checked_mul((*n)?)?,
            Type::Record(id) => {
                let d = self.get(*id);
                if !d.complete {
                    return None;
                }
                d.size
            }
        })
    }

    /// Alignment in bytes (a vector aligns to its size).
    pub fn align_of(&self, ty: &Type) -> u64 {
        match ty {
            Type::Array(e, _) => self.align_of(e),
            Type::Record(id) => self.get(*id).align,
            t => self.size_of(t).unwrap_or(1).max(1),
        }
    }
}

/// `v` rounded up to a multiple of `a`, saturating (a huge struct from a
/// fuzzer must not overflow).
fn align_up(v: u64, a: u64) -> u64 {
    v.checked_next_multiple_of(a.max(1)).unwrap_or(u64::MAX)
}

/// A 3-component vector is stored like a 4-component one (spec 6.1.5).
pub fn vector_storage_width(n: u8) -> u64 {
    if n == 3 {
        4
    } else {
        u64::from(n)
    }
}

/// Display with records named by tag: needs the table.
pub struct TypeDisplay<'a> {
    pub ty: &'a Type,
    pub records: &'a Records,
}

impl Type {
    pub fn display<'a>(&'a self, records: &'a Records) -> TypeDisplay<'a> {
        TypeDisplay { ty: self, records }
    }
}

impl fmt::Display for TypeDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self.ty, self.records, "")
    }
}

fn write_type(f: &mut fmt::Formatter<'_>, ty: &Type, r: &Records, suffix: &str) -> fmt::Result {
    match ty {
        Type::Void => write!(f, "void{suffix}"),
        Type::Scalar(s) => write!(f, "{}{suffix}", s.name()),
        Type::Vector(s, n) => write!(f, "{}{n}{suffix}", s.name()),
        Type::Pointer(p) => {
            let mut pre = String::new();
            if let Some(kw) = p.space.keyword() {
                pre.push_str(kw);
                pre.push(' ');
            }
            if p.quals.konst {
                pre.push_str("const ");
            }
            if p.quals.volatile {
                pre.push_str("volatile ");
            }
            write!(f, "{pre}")?;
            let inner = if matches!(p.ty, Type::Array(..) | Type::Function(_)) {
                format!("(*){suffix}")
            } else {
                format!(" *{suffix}")
            };
            write_type(f, &p.ty, r, &inner)
        }
        Type::Array(e, n) => {
            let dim = n.map(|n| n.to_string()).unwrap_or_default();
            write_type(f, e, r, &format!("{suffix}[{dim}]"))
        }
        Type::Record(id) => {
            let d = r.get(*id);
            let kw = if d.is_union { "union" } else { "struct" };
            match &d.tag {
                Some(t) => write!(f, "{kw} {t}{suffix}"),
                None => write!(f, "{kw} (anonymous){suffix}"),
            }
        }
        Type::Function(sig) => {
            write_type(f, &sig.ret, r, "")?;
            write!(f, " {suffix}(")?;
            for (i, p) in sig.params.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write_type(f, p, r, "")?;
            }
            if sig.variadic {
                write!(f, ", ...")?;
            }
            write!(f, ")")
        }
        Type::Image(k, a) => write!(f, "{} {}{suffix}", a.name(), k.name()),
        Type::Sampler => write!(f, "sampler_t{suffix}"),
        Type::Event => write!(f, "event_t{suffix}"),
        Type::Atomic(s) => write!(f, "atomic_{}{suffix}", s.name()),
        Type::AtomicFlag => write!(f, "atomic_flag{suffix}"),
        Type::Error => write!(f, "<error>{suffix}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vector_sizes_follow_spec_6_1_5() {
        let r = Records::default();
        assert_eq!(r.size_of(&Type::Vector(Scalar::Float, 3)), Some(16));
        assert_eq!(r.align_of(&Type::Vector(Scalar::Float, 3)), 16);
        assert_eq!(r.size_of(&Type::Vector(Scalar::Char, 16)), Some(16));
        assert_eq!(r.size_of(&Type::Vector(Scalar::Double, 8)), Some(64));
    }

    #[test]
    fn struct_layout_pads_like_c() {
        let mut r = Records::default();
        let id = r.declare(Some("s".into()), false);
        r.complete(
            id,
            vec![
                (Some("c".into()), Type::CHAR, None),
                (Some("f".into()), Type::Vector(Scalar::Float, 4), None),
                (Some("i".into()), Type::INT, None),
            ],
            false,
            1,
        );
        let d = r.get(id);
        assert_eq!(d.fields[1].offset, 16);
        assert_eq!(d.fields[2].offset, 32);
        assert_eq!(d.size, 48);
        let u = r.declare(Some("u".into()), true);
        r.complete(
            u,
            vec![
                (Some("c".into()), Type::CHAR, None),
                (Some("l".into()), Type::LONG, None),
            ],
            false,
            1,
        );
        assert_eq!(r.get(u).size, 8);
    }

    #[test]
    fn gentype_names_parse() {
        assert_eq!(Scalar::parse_gentype("float4"), Some((Scalar::Float, 4)));
        assert_eq!(Scalar::parse_gentype("uchar"), Some((Scalar::UChar, 1)));
        assert_eq!(Scalar::parse_gentype("int5"), None);
    }
}
