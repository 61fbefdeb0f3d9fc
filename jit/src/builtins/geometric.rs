//! Geometric functions (spec 6.15.5) on `float`/`double` vectors of 1–4
//! lanes, inline: `dot`, `cross`, `length`, `distance`, `normalize` and the
//! `fast_` variants (the same functions).
//!
//! `length` and `normalize` must not overflow or underflow in the
//! intermediate sum of squares: `float` sums in `double` (where neither can
//! happen for float inputs); `double` scales by the largest magnitude first.
//! `normalize` follows the spec's special cases: a zero vector is returned
//! as is, and when a lane is infinite the infinite lanes become ±1 and the
//! others ±0 before normalising.

use super::math::fconst;
use super::{clif, elem, lanes, result};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let s = match f.params.first().map(elem) {
        Some(Ok(s)) => s,
        Some(Err(e)) => return Some(Err(e)),
        None => return None,
    };
    if !matches!(s, Scalar::Float | Scalar::Double) {
        return Some(Err(format!(
            "the built-in function '{}' is not supported yet for half",
            f.name
        )));
    }
    let name = f.name.strip_prefix("fast_").unwrap_or(&f.name);
    Some(emit_geo(fx, f, name, s, args))
}

fn emit_geo(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    name: &str,
    s: Scalar,
    args: &[CValue],
) -> Result<CValue, String> {
    let n = f.params[0].width() as usize;
    let a = lanes(&args[0], n)?;
    let b = match args.get(1) {
        Some(v) => lanes(v, n)?,
        None => Vec::new(),
    };
    let double = s == Scalar::Double;
    Ok(match name {
        "dot" => {
            let mut acc = fx.b.ins().fmul(a[0], b[0]);
            for i in 1..n {
                let p = fx.b.ins().fmul(a[i], b[i]);
                acc = fx.b.ins().fadd(acc, p);
            }
            CValue::Scalar(acc)
        }
        "cross" => {
            let m = |fx: &mut FunctionCx<'_, '_>, i: usize, j: usize| {
                let p = fx.b.ins().fmul(a[i], b[j]);
                let q = fx.b.ins().fmul(a[j], b[i]);
                fx.b.ins().fsub(p, q)
            };
            let mut out = vec![m(fx, 1, 2), m(fx, 2, 0), m(fx, 0, 1)];
            if n == 4 {
                out.push(fconst(fx, clif(s), 0.0));
            }
            result(&f.ret, out)
        }
        "length" => CValue::Scalar(length(fx, &a, double)),
        "distance" => {
            let d: Vec<Value> = a
                .iter()
                .zip(&b)
                .map(|(x, y)| fx.b.ins().fsub(*x, *y))
                .collect();
            CValue::Scalar(length(fx, &d, double))
        }
        "normalize" => result(&f.ret, normalize(fx, &a, double)),
        _ => return Err(super::unsupported(f)),
    })
}

/// The Euclidean length of the lanes, without intermediate overflow.
fn length(fx: &mut FunctionCx<'_, '_>, x: &[Value], double: bool) -> Value {
    if !double {
        let w: Vec<Value> = x
            .iter()
            .map(|v| fx.b.ins().fpromote(types::F64, *v))
            .collect();
        let ss = sum_squares(fx, &w);
        let r = fx.b.ins().sqrt(ss);
        return fx.b.ins().fdemote(types::F32, r);
    }
    // m * sqrt(sum (x_i / m)^2), m the largest magnitude.
    let m = max_abs(fx, x);
    let scaled: Vec<Value> = x.iter().map(|v| fx.b.ins().fdiv(*v, m)).collect();
    let ss = sum_squares(fx, &scaled);
    let r = fx.b.ins().sqrt(ss);
    let r = fx.b.ins().fmul(r, m);
    let zero = fx.b.ins().f64const(0.0);
    let inf = fx.b.ins().f64const(f64::INFINITY);
    let is_zero = fx.b.ins().fcmp(FloatCC::Equal, m, zero);
    let is_inf = fx.b.ins().fcmp(FloatCC::Equal, m, inf);
    let r = fx.b.ins().select(is_zero, zero, r);
    fx.b.ins().select(is_inf, inf, r)
}

fn sum_squares(fx: &mut FunctionCx<'_, '_>, x: &[Value]) -> Value {
    let mut acc = fx.b.ins().fmul(x[0], x[0]);
    for v in &x[1..] {
        acc = fx.b.ins().fma(*v, *v, acc);
    }
    acc
}

fn max_abs(fx: &mut FunctionCx<'_, '_>, x: &[Value]) -> Value {
    let mut m = fx.b.ins().fabs(x[0]);
    for v in &x[1..] {
        let a = fx.b.ins().fabs(*v);
        // A NaN lane makes the whole result NaN (Cranelift's fmax propagates).
        m = fx.b.ins().fmax(m, a);
    }
    m
}

fn normalize(fx: &mut FunctionCx<'_, '_>, x: &[Value], double: bool) -> Vec<Value> {
    let t = if double { types::F64 } else { types::F32 };
    // Infinite lanes → ±1, the others ±0, when any lane is infinite.
    let inf = fconst(fx, t, f64::INFINITY);
    let one = fconst(fx, t, 1.0);
    let zero = fconst(fx, t, 0.0);
    let mut any_inf = None;
    let mut repl = Vec::new();
    for v in x {
        let a = fx.b.ins().fabs(*v);
        let is_inf = fx.b.ins().fcmp(FloatCC::Equal, a, inf);
        let o = fx.b.ins().fcopysign(one, *v);
        let z = fx.b.ins().fcopysign(zero, *v);
        repl.push(fx.b.ins().select(is_inf, o, z));
        any_inf = Some(match any_inf {
            None => is_inf,
            Some(p) => fx.b.ins().bor(p, is_inf),
        });
    }
    let Some(any_inf) = any_inf else {
        return Vec::new();
    };
    let x: Vec<Value> = x
        .iter()
        .zip(repl)
        .map(|(v, r)| fx.b.ins().select(any_inf, r, *v))
        .collect();
    if !double {
        let w: Vec<Value> = x
            .iter()
            .map(|v| fx.b.ins().fpromote(types::F64, *v))
            .collect();
        let ss = sum_squares(fx, &w);
        let len = fx.b.ins().sqrt(ss);
        let dzero = fx.b.ins().f64const(0.0);
        let is_zero = fx.b.ins().fcmp(FloatCC::Equal, len, dzero);
        return x
            .iter()
            .zip(w)
            .map(|(v, wv)| {
                let q = fx.b.ins().fdiv(wv, len);
                let q = fx.b.ins().fdemote(types::F32, q);
                fx.b.ins().select(is_zero, *v, q)
            })
            .collect();
    }
    let m = max_abs(fx, &x);
    let scaled: Vec<Value> = x.iter().map(|v| fx.b.ins().fdiv(*v, m)).collect();
    let ss = sum_squares(fx, &scaled);
    let len = fx.b.ins().sqrt(ss);
    let is_zero = fx.b.ins().fcmp(FloatCC::Equal, m, zero);
    x.iter()
        .zip(scaled)
        .map(|(v, sv)| {
            let q = fx.b.ins().fdiv(sv, len);
            fx.b.ins().select(is_zero, *v, q)
        })
        .collect()
}
