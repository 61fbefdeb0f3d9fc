//! Numeric and character constants: from a pp-number's or char constant's
//! spelling to a value (C99 6.4.4, OpenCL C 6.1.1 for `h`/`H` half suffixes).
//!
//! A pp-number is classified as floating when it has a `.`, or an exponent
//! (`e` in decimal, `p` in hexadecimal); otherwise it is an integer. The digits
//! are read greedily, and what follows is the suffix, which must be one C
//! allows (`u`, `l`, `ul`, `ll`, `ull` in any order and case for integers;
//! `f`, `h`, `l` for floats). Errors are reported in clang's words and a
//! usable value is still returned, so parsing goes on.
#![forbid(unsafe_code)]

use super::ast::{CharLiteral, ExprKind, FloatLiteral, FloatSuffix, IntLiteral};
use crate::diag::Diagnostics;
use crate::source::Span;

/// Where in a literal a diagnostic points: at a byte of the spelling when
/// the span is the literal's own text, else (a macro's expansion) at the span.
#[derive(Clone, Copy)]
struct At {
    span: Span,
    exact: bool,
}

impl At {
    fn new(spelling: &str, span: Span) -> At {
        At {
            span,
            exact: (span.hi.saturating_sub(span.lo)) as usize == spelling.len(),
        }
    }
    /// The byte `offset` into the spelling.
    fn at(self, offset: usize) -> Span {
        if !self.exact {
            return self.span;
        }
        let lo = self.span.lo + offset as u32;
        Span::new(self.span.file, lo, (lo + 1).min(self.span.hi.max(lo)))
    }
}

/// Interpret a pp-number.
pub fn number(spelling: &str, span: Span, diags: &mut Diagnostics) -> ExprKind {
    let at = At::new(spelling, span);
    let lower = spelling.to_ascii_lowercase();
    let hex = lower.starts_with("0x");
    let is_float = if hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if is_float {
        ExprKind::FloatLit(float(spelling, hex, at, diags))
    } else {
        ExprKind::IntLit(integer(spelling, at, diags))
    }
}

fn integer(spelling: &str, at: At, diags: &mut Diagnostics) -> IntLiteral {
    let span = at.span;
    let b = spelling.as_bytes();
    let (radix, start) = if b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'x' {
        (16, 2)
    } else if b.len() > 1 && b[0] == b'0' && (b[1] | 0x20) == b'b' {
        (2, 2)
    } else if b.first() == Some(&b'0') {
        (8, 1)
    } else {
        (10, 0)
    };
    // Octal constants read all decimal digits so `08` is one error, not a
    // suffix error.
    let digit_ok = |c: u8| match radix {
        16 => c.is_ascii_hexdigit(),
        2 => c == b'0' || c == b'1',
        _ => c.is_ascii_digit(),
    };
    let end = start
        + b[start..]
            .iter()
            .position(|&c| !digit_ok(c))
            .unwrap_or(b.len() - start);
    let digits = &spelling[start..end];
    let suffix = &spelling[end..];
    let mut lit = IntLiteral {
        spelling: spelling.to_string(),
        value: 0,
        radix,
        unsigned: false,
        long: 0,
    };
    if (radix == 16 || radix == 2) && digits.is_empty() {
        diags.error(
            at.at(1),
            format!("invalid suffix '{}' on integer constant", &spelling[1..]),
        );
        return lit;
    }
    if radix == 8 {
        if let Some(i) = digits.bytes().position(|c| c >= b'8') {
            let bad = digits.as_bytes()[i];
            diags.error(
                at.at(start + i),
                format!("invalid digit '{}' in octal constant", bad as char),
            );
            return lit;
        }
    }
    match int_suffix(suffix) {
        Some((unsigned, long)) => {
            lit.unsigned = unsigned;
            lit.long = long;
        }
        None => {
            diags.error(
                at.at(end),
                format!("invalid suffix '{suffix}' on integer constant"),
            );
        }
    }
    let mut value: u64 = 0;
    for c in digits.bytes() {
        let d = (c as char).to_digit(16).unwrap_or(0) as u64;
        match value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d))
        {
            Some(v) => value = v,
            None => {
                diags.error(
                    span,
                    "integer literal is too large to be represented in any integer type",
                );
                lit.value = u64::MAX;
                return lit;
            }
        }
    }
    lit.value = value;
    lit
}

/// `(unsigned, long count)` of a valid integer suffix.
fn int_suffix(s: &str) -> Option<(bool, u8)> {
    let (unsigned, rest) = if let Some(r) = s.strip_prefix(['u', 'U']) {
        (true, r)
    } else if let Some(r) = s.strip_suffix(['u', 'U']) {
        (true, r)
    } else {
        (false, s)
    };
    let long = match rest {
        "" => 0,
        "l" | "L" => 1,
        "ll" | "LL" => 2,
        _ => return None,
    };
    Some((unsigned, long))
}

fn float(spelling: &str, hex: bool, at: At, diags: &mut Diagnostics) -> FloatLiteral {
    let (mantissa_end, value, value_f32) = if hex {
        hex_float(spelling, at, diags)
    } else {
        decimal_float(spelling, at, diags)
    };
    let suffix_text = &spelling[mantissa_end..];
    let suffix = match suffix_text {
        "" => FloatSuffix::None,
        "f" | "F" => FloatSuffix::F,
        "h" | "H" => FloatSuffix::H,
        "l" | "L" => FloatSuffix::L,
        _ => {
            diags.error(
                at.at(mantissa_end),
                format!("invalid suffix '{suffix_text}' on floating constant"),
            );
            FloatSuffix::None
        }
    };
    FloatLiteral {
        spelling: spelling.to_string(),
        value,
        value_f32,
        suffix,
    }
}

/// Decimal float: digits, optional `.digits`, optional exponent. Returns the
/// end of the numeric part and its value as f64 and f32.
fn decimal_float(s: &str, at: At, diags: &mut Diagnostics) -> (usize, f64, f32) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut seen_dot = false;
    while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'.' && !seen_dot)) {
        seen_dot |= b[i] == b'.';
        i += 1;
    }
    if i < b.len() && (b[i] | 0x20) == b'e' {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let digits_start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == digits_start {
            diags.error(at.at(i), "exponent has no digits");
            return (b.len(), 0.0, 0.0);
        }
        i = j;
    }
    let text = &s[..i];
    // Rust's parser accepts `1.`, `.5` and `1.e3` like C.
    let value = text.parse::<f64>().unwrap_or(0.0);
    let value_f32 = text.parse::<f32>().unwrap_or(0.0);
    (i, value, value_f32)
}

/// Hex float `0x` hexdigits [`.` hexdigits] `p` [sign] digits.
fn hex_float(s: &str, at: At, diags: &mut Diagnostics) -> (usize, f64, f32) {
    let b = s.as_bytes();
    let mut i = 2;
    let mut mant: u64 = 0;
    let mut exp: i64 = 0;
    let mut seen_dot = false;
    let mut any_digit = false;
    while i < b.len() {
        let c = b[i];
        if c == b'.' && !seen_dot {
            seen_dot = true;
        } else if let Some(d) = (c as char).to_digit(16) {
            any_digit = true;
            if mant >> 60 == 0 {
                mant = mant * 16 + d as u64;
                if seen_dot {
                    exp -= 4;
                }
            } else {
                // Beyond 60 bits: the digit only shifts the scale (and a
                // non-zero one is sticky for rounding).
                mant |= (d != 0) as u64;
                if !seen_dot {
                    exp += 4;
                }
            }
        } else {
            break;
        }
        i += 1;
    }
    if !any_digit {
        diags.error(at.at(2), "invalid suffix on hexadecimal floating constant");
        return (b.len(), 0.0, 0.0);
    }
    if i >= b.len() || (b[i] | 0x20) != b'p' {
        diags.error(
            at.at(i),
            "hexadecimal floating constant requires an exponent",
        );
        return (i, 0.0, 0.0);
    }
    let mut j = i + 1;
    let neg = j < b.len() && b[j] == b'-';
    if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
        j += 1;
    }
    let digits_start = j;
    let mut e: i64 = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        e = (e * 10 + (b[j] - b'0') as i64).min(100_000);
        j += 1;
    }
    if j == digits_start {
        diags.error(at.at(i), "exponent has no digits");
        return (b.len(), 0.0, 0.0);
    }
    let total = exp + if neg { -e } else { e };
    (
        j,
        scale(mant as f64, total),
        scale(mant as f32 as f64, total) as f32,
    )
}

/// `m * 2^e` without overflow in the exponent arithmetic.
fn scale(m: f64, e: i64) -> f64 {
    let mut v = m;
    let mut e = e.clamp(-3000, 3000);
    while e > 0 {
        let step = e.min(1000);
        v *= 2f64.powi(step as i32);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(1000);
        v /= 2f64.powi(step as i32);
        e += step;
    }
    v
}

/// Interpret a character constant (quotes included, as the lexer keeps it).
pub fn character(spelling: &str, span: Span, diags: &mut Diagnostics) -> CharLiteral {
    let inner = spelling
        .strip_prefix(['L', 'u', 'U'])
        .unwrap_or(spelling)
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or("");
    // The lexer already checked the escapes and reported an empty constant.
    let bytes = unescape(inner);
    let value = match bytes.len() {
        0 => 0,
        // A char is signed in OpenCL C.
        1 => bytes[0] as i8 as i32,
        _ => {
            diags.warning(span, "multi-character character constant");
            bytes
                .iter()
                .fold(0i32, |v, &c| v.wrapping_shl(8) | c as i32)
        }
    };
    CharLiteral {
        spelling: spelling.to_string(),
        value,
    }
}

/// The bytes a character constant's body denotes, escapes processed (the
/// lexer has diagnosed bad escapes; here they get a best-effort value).
fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            break;
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v as u8
            }
            b'x' => {
                let mut v: u32 = 0;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v
                        .saturating_mul(16)
                        .saturating_add((b[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                }
                v as u8
            }
            // `\\ \' \" \?` and unknown escapes stand for the character.
            _ => c,
        };
        out.push(v);
    }
    out
}
