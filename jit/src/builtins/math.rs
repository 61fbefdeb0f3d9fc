//! Math functions (spec 6.15.2) on `float` and `double` scalars and vectors,
//! lane by lane.
//!
//! Inline Cranelift instructions where they have the spec's semantics:
//! `fabs`, `ceil`, `floor`, `trunc`, `rint` (`nearest`), `sqrt` (correctly
//! rounded, as the device advertises), `copysign`, `fma`; `fmin`/`fmax`
//! return the other operand when one is a NaN (Cranelift's propagate NaNs,
//! so the NaN cases are selected around them). Everything else calls a host
//! function of `host.rs` (`cranecl_<name>_f` / `cranecl_<name>_d`), but
//! `float` `exp`, inline as the lanes compute it (`packed.rs`).
//! `half_*` and `native_*` variants are the full-precision functions.

use super::host::math_symbol;
use super::{clif, elem, map_lanes, mem, unsupported};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Host functions taking and returning one value of the element type.
const HOST_UNARY: &[&str] = &[
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt", "cos",
    "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "lgamma", "log", "log2",
    "log10", "log1p", "logb", "round", "sin", "sinh", "sinpi", "tan", "tanh", "tanpi", "tgamma",
];

/// Host functions of two values of the element type.
const HOST_BINARY: &[&str] = &[
    "atan2",
    "atan2pi",
    "fdim",
    "fmod",
    "hypot",
    "pow",
    "powr",
    "remainder",
    "nextafter",
];

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let s = match f.params.first().map(elem) {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Some(Err(e)),
        None => return Some(Err(unsupported(f))),
    };
    // `nan(uintn)` takes an integer; its result says the float type.
    let s = if f.name == "nan" {
        match elem(&f.ret) {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        }
    } else {
        s
    };
    if !matches!(s, Scalar::Float | Scalar::Double) {
        return Some(Err(format!(
            "the built-in function '{}' is not supported yet for half",
            f.name
        )));
    }
    let name = f
        .name
        .strip_prefix("native_")
        .or_else(|| f.name.strip_prefix("half_"))
        .unwrap_or(&f.name);
    let double = s == Scalar::Double;
    let t = clif(s);
    let ret = &f.ret;
    let r = match name {
        "fabs" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().fabs(a[0]))),
        "ceil" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().ceil(a[0]))),
        "floor" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().floor(a[0]))),
        "trunc" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().trunc(a[0]))),
        "rint" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().nearest(a[0]))),
        "sqrt" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().sqrt(a[0]))),
        "rsqrt" => map_lanes(fx, ret, args, |fx, a| {
            let r = fx.b.ins().sqrt(a[0]);
            let one = fconst(fx, t, 1.0);
            Ok(fx.b.ins().fdiv(one, r))
        }),
        "recip" => map_lanes(fx, ret, args, |fx, a| {
            let one = fconst(fx, t, 1.0);
            Ok(fx.b.ins().fdiv(one, a[0]))
        }),
        "divide" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().fdiv(a[0], a[1]))),
        "copysign" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().fcopysign(a[0], a[1]))),
        "fma" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().fma(a[0], a[1], a[2]))),
        "mad" => map_lanes(fx, ret, args, |fx, a| Ok(mad(fx, a[0], a[1], a[2]))),
        "fmin" => map_lanes(fx, ret, args, |fx, a| Ok(fmin_fmax(fx, a[0], a[1], false))),
        "fmax" => map_lanes(fx, ret, args, |fx, a| Ok(fmin_fmax(fx, a[0], a[1], true))),
        "maxmag" | "minmag" => {
            let max = name == "maxmag";
            map_lanes(fx, ret, args, |fx, a| {
                let (x, y) = (a[0], a[1]);
                let ax = fx.b.ins().fabs(x);
                let ay = fx.b.ins().fabs(y);
                let (cx, cy) = if max {
                    (FloatCC::GreaterThan, FloatCC::LessThan)
                } else {
                    (FloatCC::LessThan, FloatCC::GreaterThan)
                };
                let pick_x = fx.b.ins().fcmp(cx, ax, ay);
                let pick_y = fx.b.ins().fcmp(cy, ax, ay);
                let m = fmin_fmax(fx, x, y, max);
                let r = fx.b.ins().select(pick_y, y, m);
                Ok(fx.b.ins().select(pick_x, x, r))
            })
        }
        "nan" => map_lanes(fx, ret, args, |fx, a| {
            let (it, quiet, mask) = if double {
                (
                    types::I64,
                    0x7ff8_0000_0000_0000u64 as i64,
                    0x0007_ffff_ffff_ffff,
                )
            } else {
                (types::I32, 0x7fc0_0000, 0x003f_ffff)
            };
            let code = fx.b.ins().band_imm_s(a[0], mask);
            let bits = fx.b.ins().bor_imm_s(code, quiet);
            debug_assert_eq!(fx.b.func.dfg.value_type(bits), it);
            Ok(fx.b.ins().bitcast(t, mem(), bits))
        }),
        // Inline, and the same instructions as the lanes' packed `exp`.
        "exp" if !double => map_lanes(fx, ret, args, |fx, a| Ok(super::packed::exp_f32(fx, a[0]))),
        n if HOST_UNARY.contains(&n) => {
            let sym = math_symbol(n, double);
            map_lanes(fx, ret, args, |fx, a| host(fx, &sym, &[t], t, &[a[0]]))
        }
        n if HOST_BINARY.contains(&n) => {
            let sym = math_symbol(n, double);
            map_lanes(fx, ret, args, |fx, a| {
                host(fx, &sym, &[t, t], t, &[a[0], a[1]])
            })
        }
        "pown" | "rootn" | "ldexp" => {
            let sym = math_symbol(name, double);
            map_lanes(fx, ret, args, |fx, a| {
                host(fx, &sym, &[t, types::I32], t, &[a[0], a[1]])
            })
        }
        "ilogb" => {
            let sym = math_symbol(name, double);
            map_lanes(fx, ret, args, |fx, a| {
                host(fx, &sym, &[t], types::I32, &[a[0]])
            })
        }
        "frexp" | "lgamma_r" | "fract" | "modf" | "sincos" => {
            let stride = if matches!(name, "frexp" | "lgamma_r") {
                4
            } else {
                s.size() as i64
            };
            with_out_ptr(fx, f, args, 1, stride, name, double, t)
        }
        "remquo" => with_out_ptr(fx, f, args, 2, 4, name, double, t),
        _ => return None,
    };
    Some(r)
}

/// A float constant of type `t`.
pub(super) fn fconst(fx: &mut FunctionCx<'_, '_>, t: types::Type, v: f64) -> Value {
    if t == types::F64 {
        fx.b.ins().f64const(v)
    } else {
        fx.b.ins().f32const(v as f32)
    }
}

/// `mad(x, y, z)` (scalars or packed): one fused multiply-add where the host
/// has the instruction (the spec leaves how `x * y` is rounded to the
/// implementation, `mad` being meant for speed), else a product and a sum.
pub(crate) fn mad(fx: &mut FunctionCx<'_, '_>, x: Value, y: Value, z: Value) -> Value {
    if crate::codegen::host_has_fma() {
        fx.b.ins().fma(x, y, z)
    } else {
        let m = fx.b.ins().fmul(x, y);
        fx.b.ins().fadd(m, z)
    }
}

/// OpenCL `fmin`/`fmax`: a NaN operand gives the other operand (scalars,
/// or values packed in a vector).
pub(crate) fn fmin_fmax(fx: &mut FunctionCx<'_, '_>, x: Value, y: Value, max: bool) -> Value {
    let m = if max {
        fx.b.ins().fmax(x, y)
    } else {
        fx.b.ins().fmin(x, y)
    };
    let xn = fx.b.ins().fcmp(FloatCC::Unordered, x, x);
    let yn = fx.b.ins().fcmp(FloatCC::Unordered, y, y);
    let r = super::select_cmp(fx, yn, x, m);
    super::select_cmp(fx, xn, y, r)
}

/// Call a registered host function returning one value.
pub(super) fn host(
    fx: &mut FunctionCx<'_, '_>,
    sym: &str,
    params: &[types::Type],
    ret: types::Type,
    args: &[Value],
) -> Result<Value, String> {
    let r = fx.call_import(sym, params, &[ret], args)?;
    r.first()
        .copied()
        .ok_or_else(|| format!("internal: {sym} returned nothing"))
}

/// Functions whose last parameter is a pointer to per-lane outputs: the host
/// function of lane `i` receives `ptr + i * stride`.
#[allow(clippy::too_many_arguments)]
fn with_out_ptr(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    ptr_index: usize,
    stride: i64,
    name: &str,
    double: bool,
    t: types::Type,
) -> Result<CValue, String> {
    let sym = math_symbol(name, double);
    let p = args
        .get(ptr_index)
        .ok_or("internal: missing pointer argument")?
        .scalar()?;
    let vals: Vec<&CValue> = args[..ptr_index].iter().collect();
    let n = f.ret.width() as usize;
    let cols = vals
        .iter()
        .map(|v| super::lanes(v, n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let addr = fx.b.ins().iadd_imm_s(p, i as i64 * stride);
        let mut call_args: Vec<Value> = cols.iter().map(|c| c[i]).collect();
        let mut params = vec![t; call_args.len()];
        call_args.push(addr);
        params.push(types::I64);
        out.push(host(fx, &sym, &params, t, &call_args)?);
    }
    Ok(super::result(&f.ret, out))
}
