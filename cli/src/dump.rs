//! Buffers printed after the launch, in the text Oclgrind's `oclgrind-kernel`
//! prints (so its expected outputs carry over):
//!
//! ```text
//!
//! Argument 'out': 16 bytes
//!   out[0] = 1.5
//!   out[1] = 0x000000ff        (under `hex`: zero-padded to the type's width)
//!
//! ```
//!
//! Floating-point values are printed as C++ streams print them by default
//! (`%g`, six significant digits); `char`s as numbers. The same text is the
//! expectation format of `--expect`: [`Expectations`] reads `NAME[I] = V`
//! lines (headers, blank lines and `#` comments are skipped) and
//! [`Expectations::check`] compares each with the buffer, integers exactly
//! and floating-point values within a relative tolerance.

use crate::diag::{Diag, Loc};
use crate::elem::{parse_int, Elem};
use std::fmt::Write;

/// Element `i` of `bytes` (little-endian) as the dump prints it.
pub fn format_elem(elem: Elem, bytes: &[u8], i: usize, hex: bool) -> String {
    let b = &bytes[i * elem.size()..(i + 1) * elem.size()];
    let mut raw = [0u8; 8];
    raw[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(raw);
    let text = match elem {
        Elem::Float => format_g(f64::from(f32::from_bits(u as u32))),
        Elem::Double => format_g(f64::from_bits(u)),
        _ if hex => {
            // C++ prints a char promoted to int, and a negative value as
            // the unsigned pattern of its (promoted) type.
            let v = signed_value(elem, u);
            let pattern = match elem {
                Elem::Char | Elem::UChar | Elem::Int | Elem::UInt => v as i32 as u32 as u64,
                Elem::Short | Elem::UShort => v as i16 as u16 as u64,
                _ => u,
            };
            format!("{pattern:x}")
        }
        _ => signed_value(elem, u).to_string(),
    };
    if hex {
        format!("0x{text:0>width$}", width = 2 * elem.size())
    } else {
        text
    }
}

/// The value of an integer element: signed types sign-extended.
fn signed_value(elem: Elem, u: u64) -> i128 {
    let bits = 8 * elem.size() as u32;
    if elem.is_signed() {
        let shift = 64 - bits;
        i128::from(((u << shift) as i64) >> shift)
    } else {
        i128::from(u)
    }
}

/// `printf("%g")`: six significant digits, trailing zeros removed,
/// scientific notation below 1e-4 and from 1e6.
pub fn format_g(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.into();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.into();
    }
    const P: i32 = 6;
    let sci = format!("{:.*e}", (P - 1) as usize, v);
    let (mantissa, exp) = sci.split_once('e').expect("{:e} writes an exponent");
    let x: i32 = exp.parse().expect("the exponent is an integer");
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if !(-4..P).contains(&x) {
        let sign = if x < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa), x.abs())
    } else {
        trim(&format!("{:.*}", (P - 1 - x) as usize, v))
    }
}

/// The dump of one buffer, as `oclgrind-kernel` prints it.
pub fn dump_text(name: &str, elem: Elem, hex: bool, bytes: &[u8]) -> String {
    let mut out = format!("\nArgument '{name}': {} bytes\n", bytes.len());
    for i in 0..bytes.len() / elem.size() {
        let _ = writeln!(out, "  {name}[{i}] = {}", format_elem(elem, bytes, i, hex));
    }
    out.push('\n');
    out
}

/// One expected value: `name[index] = text`, and where it was written.
pub struct Expected {
    pub name: String,
    pub index: usize,
    pub text: String,
    /// The value's place (a mismatch points there).
    pub at: Loc,
    /// The name's place (an unknown name or index points there).
    pub name_at: Loc,
}

pub struct Expectations(pub Vec<Expected>);

/// A buffer as read back after the launch.
pub struct Buffer<'a> {
    pub name: &'a str,
    pub elem: Elem,
    pub hex: bool,
    pub bytes: &'a [u8],
}

impl Expectations {
    /// Reads an expectation file (the dump format).
    pub fn parse(file: &str, text: &str) -> Result<Expectations, Diag> {
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let content = line.split('#').next().unwrap_or("");
            let t = content.trim();
            let at = |col: usize, width: usize| Loc {
                file: file.to_string(),
                line: Some(n + 1),
                col: col + 1,
                text: line.to_string(),
                width,
            };
            if t.is_empty() || (t.starts_with("Argument '") && t.ends_with(" bytes")) {
                continue;
            }
            let indent = content.len() - content.trim_start().len();
            let parsed = t.split_once('=').and_then(|(lhs, rhs)| {
                let (name, idx) = lhs.trim().strip_suffix(']')?.split_once('[')?;
                let index = idx.trim().parse().ok()?;
                let value = rhs.trim();
                (!name.is_empty() && !value.is_empty())
                    .then(|| (name.trim().to_string(), index, value.to_string()))
            });
            let Some((name, index, value)) = parsed else {
                return Err(Diag::at(
                    &at(indent, t.len()),
                    "expected NAME[INDEX] = VALUE",
                ));
            };
            let col = line.rfind(&value).unwrap_or(indent);
            let name_at = at(indent, t.find('=').unwrap_or(1));
            out.push(Expected {
                name,
                index,
                text: value.clone(),
                at: at(col, value.len()),
                name_at,
            });
        }
        Ok(Expectations(out))
    }

    /// Compares each expectation with the buffers: `Err` for an
    /// expectation that names no buffer or an element past its end (bad
    /// input), else the mismatches (empty: every expectation held).
    pub fn check(&self, buffers: &[Buffer], tolerance: f64) -> Result<Vec<Diag>, Diag> {
        let mut mismatches = Vec::new();
        for e in &self.0 {
            let Some(b) = buffers.iter().find(|b| b.name == e.name) else {
                let names: Vec<&str> = buffers.iter().map(|b| b.name).collect();
                return Err(
                    Diag::at(&e.name_at, format!("no buffer argument named '{}'", e.name))
                        .note(format!("buffer arguments: {}", names.join(", "))),
                );
            };
            let count = b.bytes.len() / b.elem.size();
            if e.index >= count {
                return Err(Diag::at(
                    &e.name_at,
                    format!(
                        "'{}' has {count} elements; index {} is past its end",
                        e.name, e.index
                    ),
                ));
            }
            let got = format_elem(b.elem, b.bytes, e.index, b.hex);
            if !matches(b, e.index, &got, &e.text, tolerance) {
                mismatches.push(Diag::at(
                    &e.at,
                    format!("{}[{}] = {got}, expected {}", e.name, e.index, e.text),
                ));
            }
        }
        Ok(mismatches)
    }
}

/// Whether element `i` of `b` (printed `got`) is the expected `want`.
fn matches(b: &Buffer, i: usize, got: &str, want: &str, tolerance: f64) -> bool {
    if got == want {
        return true;
    }
    let sz = b.elem.size();
    let mut raw = [0u8; 8];
    raw[..sz].copy_from_slice(&b.bytes[i * sz..(i + 1) * sz]);
    let u = u64::from_le_bytes(raw);
    if b.elem.is_float() {
        let Ok(w) = want.parse::<f64>() else {
            return false;
        };
        let g = if b.elem == Elem::Float {
            f64::from(f32::from_bits(u as u32))
        } else {
            f64::from_bits(u)
        };
        if g.is_nan() || w.is_nan() {
            return g.is_nan() && w.is_nan();
        }
        if g.is_infinite() || w.is_infinite() {
            return g == w;
        }
        return (g - w).abs() <= tolerance * w.abs().max(1.0);
    }
    // An integer matches as its signed value or its bit pattern.
    let Some(w) = parse_int(want, b.hex) else {
        return false;
    };
    w == signed_value(b.elem, u) || w == i128::from(u)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_percent_g() {
        let cases = [
            (0.5, "0.5"),
            (1.0, "1"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (1.23456789, "1.23457"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-2.5e-10, "-2.5e-10"),
            (123456789.0, "1.23457e+08"),
            (999999.4, "999999"),
            (-0.0, "-0"),
            (f64::INFINITY, "inf"),
        ];
        for (v, want) in cases {
            assert_eq!(format_g(v), want, "format_g({v})");
        }
    }

    #[test]
    fn integers_print_signed_and_hex_as_cpp_does() {
        let c = [0xffu8, 7];
        assert_eq!(format_elem(Elem::Char, &c, 0, false), "-1");
        assert_eq!(format_elem(Elem::UChar, &c, 0, false), "255");
        assert_eq!(format_elem(Elem::UChar, &c, 1, true), "0x07");
        assert_eq!(format_elem(Elem::Char, &c, 0, true), "0xffffffff");
        let i = 255i32.to_le_bytes();
        assert_eq!(format_elem(Elem::Int, &i, 0, true), "0x000000ff");
        let s = (-2i16).to_le_bytes();
        assert_eq!(format_elem(Elem::Short, &s, 0, false), "-2");
        assert_eq!(format_elem(Elem::Short, &s, 0, true), "0xfffe");
    }

    #[test]
    fn the_dump_is_an_expectation_file() {
        let bytes: Vec<u8> = [1.0f32, 2.5, 1e-7]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let text = dump_text("out", Elem::Float, false, &bytes);
        assert_eq!(
            text,
            "\nArgument 'out': 12 bytes\n  out[0] = 1\n  out[1] = 2.5\n  out[2] = 1e-07\n\n"
        );
        let e = Expectations::parse("e.txt", &text).unwrap();
        let b = [Buffer {
            name: "out",
            elem: Elem::Float,
            hex: false,
            bytes: &bytes,
        }];
        assert!(e.check(&b, 1e-6).unwrap().is_empty());
        let e = Expectations::parse("e.txt", "out[1] = 2.50001 # close\nout[2] = 0\n").unwrap();
        assert!(e.check(&b, 1e-5).unwrap().is_empty());
        let m = e.check(&b, 1e-9).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].loc.as_ref().unwrap().col, 10);
        assert!(m[0].message.contains("out[1] = 2.5, expected 2.50001"));
        assert!(Expectations::parse("e.txt", "out[1] 2\n").is_err());
        let e = Expectations::parse("e.txt", "in[0] = 1\n").unwrap();
        assert!(e
            .check(&b, 0.0)
            .unwrap_err()
            .message
            .contains("no buffer argument named 'in'"));
        let e = Expectations::parse("e.txt", "out[3] = 1\n").unwrap();
        assert!(e
            .check(&b, 0.0)
            .unwrap_err()
            .message
            .contains("past its end"));
        let ints = (-1i32).to_le_bytes();
        let b = [Buffer {
            name: "x",
            elem: Elem::Int,
            hex: false,
            bytes: &ints,
        }];
        for ok in ["-1", "0xffffffff"] {
            let e = Expectations::parse("e.txt", &format!("x[0] = {ok}")).unwrap();
            assert!(e.check(&b, 0.0).unwrap().is_empty(), "{ok}");
        }
        let e = Expectations::parse("e.txt", "x[0] = 1").unwrap();
        assert_eq!(e.check(&b, 0.5).unwrap().len(), 1);
    }
}
