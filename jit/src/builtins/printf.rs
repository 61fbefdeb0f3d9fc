//! `printf` (spec 6.15.14).
//!
//! Generated code packs the variadic arguments into 64-bit slots on the
//! stack, one per scalar and one per vector lane: integers extended by
//! their signedness, `half` and `float` promoted to `double` (as C's default argument
//! promotions do), pointers as addresses. The host function
//! `cranecl_printf(format, slots, count)` then walks the format string,
//! formats each conversion with the C library's `snprintf` (so flags,
//! width, precision, `%a`, `%g` … are exactly C99's), handles OpenCL's
//! vector specifier (`%v4hlf`: lanes joined by commas) and length modifiers
//! (`hh`, `h`, `hl`, `l`), and writes the whole result to stdout at once,
//! under stdout's lock, so one call's output is never interleaved with
//! another's. It returns 0, or -1 when the format is invalid or names more
//! arguments than were passed.

use super::{clif, elem};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use std::ffi::{c_char, c_int, CStr};
use std::io::Write;

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    args: &[CValue],
    arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some(emit_printf(fx, args, arg_tys))
}

fn emit_printf(
    fx: &mut FunctionCx<'_, '_>,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    let fmt = args.first().ok_or("printf without a format")?.scalar()?;
    let mut slots: Vec<Value> = Vec::new();
    for (v, ty) in args.iter().zip(arg_tys).skip(1) {
        match (v, ty) {
            (CValue::Ref(a), _) => slots.push(*a),
            (CValue::Void, _) => return Err("void value passed to printf".into()),
            (v, Type::Scalar(_) | Type::Vector(..)) => {
                let s = elem(ty)?;
                for l in v.lanes()? {
                    slots.push(slot(fx, l, s));
                }
            }
            (v, _) => {
                let x = v.scalar()?;
                let x = match fx.b.func.dfg.value_type(x) {
                    types::I64 => x,
                    t if t.is_int() => fx.b.ins().uextend(types::I64, x),
                    _ => fx.b.ins().bitcast(types::I64, super::mem(), x),
                };
                slots.push(x);
            }
        }
    }
    let area = fx.stack_temp(8 * slots.len().max(1) as u64, 8);
    for (i, s) in slots.iter().enumerate() {
        fx.b.ins().store(super::mem(), *s, area, (i * 8) as i32);
    }
    let n = fx.b.ins().iconst(types::I64, slots.len() as i64);
    let r = fx.call_import(
        "cranecl_printf",
        &[types::I64, types::I64, types::I64],
        &[types::I32],
        &[fmt, area, n],
    )?;
    Ok(CValue::Scalar(
        *r.first().ok_or("internal: printf returned nothing")?,
    ))
}

/// One lane as a 64-bit slot.
fn slot(fx: &mut FunctionCx<'_, '_>, v: Value, s: Scalar) -> Value {
    match s {
        Scalar::Float => {
            let d = fx.b.ins().fpromote(types::F64, v);
            fx.b.ins().bitcast(types::I64, super::mem(), d)
        }
        Scalar::Half => {
            let f = fx.half_to_float(v);
            slot(fx, f, Scalar::Float)
        }
        Scalar::Double => fx.b.ins().bitcast(types::I64, super::mem(), v),
        Scalar::Long | Scalar::ULong => v,
        s if s.is_signed() && s != Scalar::Bool && clif(s) != types::I64 => {
            fx.b.ins().sextend(types::I64, v)
        }
        _ => fx.b.ins().uextend(types::I64, v),
    }
}

/// The host functions of this module.
pub fn symbols() -> Vec<(&'static str, *const u8)> {
    vec![("cranecl_printf", cranecl_printf as *const u8)]
}

extern "C" {
    fn snprintf(buf: *mut c_char, size: usize, fmt: *const c_char, ...) -> c_int;
}

/// An argument for one C conversion.
enum CArg {
    Int(i64),
    Float(f64),
    Ptr(u64),
}

/// Format one conversion with the C library (`spec` is a complete C
/// conversion specification such as `%-8.3lld`).
fn c_format(spec: &str, arg: CArg) -> Option<String> {
    let cspec = std::ffi::CString::new(spec).ok()?;
    let mut buf = vec![0u8; 512];
    loop {
        let p = buf.as_mut_ptr() as *mut c_char;
        // SAFETY: `cspec` has exactly one conversion, built by `format`
        // below to match the type of the single argument passed.
        let n = unsafe {
            match arg {
                CArg::Int(v) => snprintf(p, buf.len(), cspec.as_ptr(), v as std::ffi::c_longlong),
                CArg::Float(v) => snprintf(p, buf.len(), cspec.as_ptr(), v),
                CArg::Ptr(v) => snprintf(p, buf.len(), cspec.as_ptr(), v as *const u8),
            }
        };
        if n < 0 {
            return None;
        }
        if (n as usize) < buf.len() {
            buf.truncate(n as usize);
            return String::from_utf8(buf).ok();
        }
        buf = vec![0u8; n as usize + 1];
    }
}

/// Format `fmt` with the argument slots; `None` for an invalid format or
/// too few arguments.
pub fn format(fmt: &[u8], slots: &[u64]) -> Option<String> {
    let mut out = String::new();
    let mut next = slots.iter().copied();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            let start = i;
            while i < fmt.len() && fmt[i] != b'%' {
                i += 1;
            }
            out.push_str(&String::from_utf8_lossy(&fmt[start..i]));
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push('%');
            i += 1;
            continue;
        }
        // flags, width, precision
        let start = i;
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            i += 1;
        }
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
        }
        let flags_width_prec = std::str::from_utf8(&fmt[start..i]).ok()?.to_string();
        // vector specifier
        let mut lanes = 1usize;
        if fmt.get(i) == Some(&b'v') {
            i += 1;
            let s = i;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                i += 1;
            }
            lanes = std::str::from_utf8(&fmt[s..i]).ok()?.parse().ok()?;
            if ![2, 3, 4, 8, 16].contains(&lanes) {
                return None;
            }
        }
        // length modifier
        let rest = &fmt[i..];
        let (bits, len) = if rest.starts_with(b"hh") {
            (8, 2)
        } else if rest.starts_with(b"hl") {
            (32, 2)
        } else if rest.starts_with(b"h") {
            (16, 1)
        } else if rest.starts_with(b"l") {
            (64, 1)
        } else {
            (32, 0)
        };
        if len == 2 && rest.starts_with(b"hl") && lanes == 1 {
            return None; // hl only with a vector specifier
        }
        i += len;
        let conv = *fmt.get(i)?;
        i += 1;
        let mut pieces = Vec::with_capacity(lanes);
        for _ in 0..lanes {
            let v = next.next()?;
            let piece = match conv {
                b'd' | b'i' => {
                    let x = sign_extend(v, bits);
                    c_format(&format!("%{flags_width_prec}lld"), CArg::Int(x))?
                }
                b'u' | b'o' | b'x' | b'X' => {
                    let x = if bits == 64 {
                        v
                    } else {
                        v & ((1u64 << bits) - 1)
                    };
                    c_format(
                        &format!("%{flags_width_prec}ll{}", conv as char),
                        CArg::Int(x as i64),
                    )?
                }
                b'c' => c_format(&format!("%{flags_width_prec}c"), CArg::Int(v as u8 as i64))?,
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => c_format(
                    &format!("%{flags_width_prec}{}", conv as char),
                    CArg::Float(f64::from_bits(v)),
                )?,
                b's' => {
                    if v == 0 {
                        c_format(&format!("%{flags_width_prec}s"), CArg::Ptr(0))?
                    } else {
                        c_format(&format!("%{flags_width_prec}s"), CArg::Ptr(v))?
                    }
                }
                b'p' => c_format(&format!("%{flags_width_prec}p"), CArg::Ptr(v))?,
                _ => return None,
            };
            pieces.push(piece);
        }
        if conv == b's' && lanes != 1 {
            return None;
        }
        out.push_str(&pieces.join(","));
    }
    Some(out)
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let sh = 64 - bits;
        ((v << sh) as i64) >> sh
    }
}

/// The printf host function: format and write to stdout in one piece.
extern "C" fn cranecl_printf(fmt: *const c_char, slots: *const u64, n: u64) -> i32 {
    if fmt.is_null() {
        return -1;
    }
    // SAFETY: the format is a NUL-terminated string in constant memory
    // (spec 6.15.14.2); `slots` holds `n` values written by generated code.
    let (f, s) = unsafe {
        (
            CStr::from_ptr(fmt).to_bytes(),
            std::slice::from_raw_parts(slots, n as usize),
        )
    };
    let Some(text) = format(f, s) else {
        return -1;
    };
    let mut out = std::io::stdout().lock();
    if out.write_all(text.as_bytes()).is_err() || out.flush().is_err() {
        return -1;
    }
    0
}
