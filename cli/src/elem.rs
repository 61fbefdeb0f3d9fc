//! The element types of Oclgrind's simulation format (`char` … `double`):
//! their sizes, the default for a kernel parameter's type, and reading one
//! value (decimal, or hexadecimal under `hex` or with a `0x` prefix).

/// The element types of Oclgrind's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
}

pub const ELEM_NAMES: &str = "char, uchar, short, ushort, int, uint, long, ulong, float, double";

impl Elem {
    const ALL: [(Elem, &'static str); 10] = [
        (Elem::Char, "char"),
        (Elem::UChar, "uchar"),
        (Elem::Short, "short"),
        (Elem::UShort, "ushort"),
        (Elem::Int, "int"),
        (Elem::UInt, "uint"),
        (Elem::Long, "long"),
        (Elem::ULong, "ulong"),
        (Elem::Float, "float"),
        (Elem::Double, "double"),
    ];

    pub fn from_name(s: &str) -> Option<Elem> {
        Self::ALL.iter().find(|(_, n)| *n == s).map(|(e, _)| *e)
    }

    /// The default for an argument of OpenCL C type `type_name` (`float*`,
    /// `uint4`): the element type it starts with; `void*` is bytes.
    pub fn for_type_name(type_name: &str) -> Option<Elem> {
        if type_name.starts_with("void*") {
            return Some(Elem::UChar);
        }
        Self::ALL
            .iter()
            .find(|(_, n)| {
                type_name.starts_with(n)
                    && !type_name[n.len()..]
                        .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            })
            .map(|(e, _)| *e)
    }

    pub fn size(self) -> usize {
        match self {
            Elem::Char | Elem::UChar => 1,
            Elem::Short | Elem::UShort => 2,
            Elem::Int | Elem::UInt | Elem::Float => 4,
            Elem::Long | Elem::ULong | Elem::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::Float | Elem::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Elem::Char | Elem::Short | Elem::Int | Elem::Long)
    }

    /// One value's bytes (little-endian). Integers are decimal, or
    /// hexadecimal under `hex` or with a `0x` prefix; a value must fit the
    /// type as signed or unsigned.
    pub fn parse(self, text: &str, hex: bool) -> Result<Vec<u8>, String> {
        let bad = || format!("invalid {} value '{text}'", self.name());
        if self.is_float() {
            return match self {
                Elem::Float => text.parse::<f32>().map(|v| v.to_le_bytes().to_vec()),
                _ => text.parse::<f64>().map(|v| v.to_le_bytes().to_vec()),
            }
            .map_err(|_| bad());
        }
        let v = parse_int(text, hex).ok_or_else(bad)?;
        let bits = 8 * self.size() as u32;
        let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
        if v < lo || v > hi {
            return Err(format!("{} value '{text}' out of range", self.name()));
        }
        Ok(v.to_le_bytes()[..self.size()].to_vec())
    }

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, n)| n)
    }
}

/// An integer in decimal, or hexadecimal (`hex`, or a `0x` prefix).
pub fn parse_int(text: &str, hex: bool) -> Option<i128> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (radix, digits) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(d) => (16, d),
        None if hex => (16, t),
        None => (10, t),
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let v = i128::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}
