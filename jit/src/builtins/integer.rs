//! Integer functions (spec 6.15.3) for every integer type, scalar and
//! vector, lane by lane in inline Cranelift IR.
//!
//! Narrow operations that need more bits (saturating arithmetic, `mul_hi`,
//! `hadd`) widen to 64 bits; the 64-bit cases use overflow tests on the
//! wrapped result, `umulhi`/`smulhi`, or a host function (`mad_sat`).
//! `clz`, `ctz` and `popcount` on 8/16-bit lanes work on a zero-extended
//! 32-bit value. cl_khr_extended_bit_ops: `bit_reverse` is Cranelift's
//! `bitrev`; the bitfield functions shift and mask in 64 bits.

use super::{clif, elem, map_lanes};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Scalar;
use cranelift_codegen::ir::condcodes::IntCC;
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
    let ret = &f.ret;
    let sg = s.is_signed();
    let t = clif(s);
    let bits = t.bits();
    let r = match f.name.as_str() {
        "abs" => map_lanes(fx, ret, args, |fx, a| {
            Ok(if sg {
                let n = fx.b.ins().ineg(a[0]);
                let neg = fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, a[0], 0);
                fx.b.ins().select(neg, n, a[0])
            } else {
                a[0]
            })
        }),
        "abs_diff" => map_lanes(fx, ret, args, |fx, a| {
            let gt = fx.b.ins().icmp(cc(sg, Cmp::Gt), a[0], a[1]);
            let d1 = fx.b.ins().isub(a[0], a[1]);
            let d2 = fx.b.ins().isub(a[1], a[0]);
            Ok(fx.b.ins().select(gt, d1, d2))
        }),
        "max" => map_lanes(fx, ret, args, |fx, a| Ok(minmax(fx, sg, a[0], a[1], true))),
        "min" => map_lanes(fx, ret, args, |fx, a| Ok(minmax(fx, sg, a[0], a[1], false))),
        "clamp" => map_lanes(fx, ret, args, |fx, a| {
            let m = minmax(fx, sg, a[0], a[1], true);
            Ok(minmax(fx, sg, m, a[2], false))
        }),
        "add_sat" | "sub_sat" => {
            let add = f.name == "add_sat";
            map_lanes(fx, ret, args, |fx, a| {
                Ok(add_sub_sat(fx, s, a[0], a[1], add))
            })
        }
        "hadd" | "rhadd" => {
            let round = f.name == "rhadd";
            map_lanes(fx, ret, args, |fx, a| {
                // (x >> 1) + (y >> 1) + ((x & y) & 1), or (x | y) & 1 rounded.
                let hx = shr1(fx, sg, a[0]);
                let hy = shr1(fx, sg, a[1]);
                let c = if round {
                    fx.b.ins().bor(a[0], a[1])
                } else {
                    fx.b.ins().band(a[0], a[1])
                };
                let c = fx.b.ins().band_imm_s(c, 1);
                let h = fx.b.ins().iadd(hx, hy);
                Ok(fx.b.ins().iadd(h, c))
            })
        }
        "mul_hi" => map_lanes(fx, ret, args, |fx, a| Ok(mul_hi(fx, s, a[0], a[1]))),
        "mad_hi" => map_lanes(fx, ret, args, |fx, a| {
            let h = mul_hi(fx, s, a[0], a[1]);
            Ok(fx.b.ins().iadd(h, a[2]))
        }),
        "mad_sat" => map_lanes(fx, ret, args, |fx, a| mad_sat(fx, s, a[0], a[1], a[2])),
        "mul24" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().imul(a[0], a[1]))),
        "mad24" => map_lanes(fx, ret, args, |fx, a| {
            let m = fx.b.ins().imul(a[0], a[1]);
            Ok(fx.b.ins().iadd(m, a[2]))
        }),
        "rotate" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().rotl(a[0], a[1]))),
        "clz" | "ctz" | "popcount" => {
            let name = f.name.clone();
            map_lanes(fx, ret, args, |fx, a| {
                let x = a[0];
                if bits >= 32 {
                    return Ok(match name.as_str() {
                        "clz" => fx.b.ins().clz(x),
                        "ctz" => fx.b.ins().ctz(x),
                        _ => fx.b.ins().popcnt(x),
                    });
                }
                let w = fx.b.ins().uextend(types::I32, x);
                let r = match name.as_str() {
                    "clz" => {
                        let c = fx.b.ins().clz(w);
                        fx.b.ins().iadd_imm_s(c, -(32 - i64::from(bits)))
                    }
                    "ctz" => {
                        let guard = fx.b.ins().bor_imm_s(w, 1i64 << bits);
                        fx.b.ins().ctz(guard)
                    }
                    _ => fx.b.ins().popcnt(w),
                };
                Ok(fx.b.ins().ireduce(t, r))
            })
        }
        "upsample" => {
            let wt = clif(wide(s));
            map_lanes(fx, ret, args, |fx, a| {
                let hi = if sg {
                    fx.b.ins().sextend(wt, a[0])
                } else {
                    fx.b.ins().uextend(wt, a[0])
                };
                let lo = fx.b.ins().uextend(wt, a[1]);
                let hi = fx.b.ins().ishl_imm_s(hi, i64::from(bits));
                Ok(fx.b.ins().bor(hi, lo))
            })
        }
        "bit_reverse" => map_lanes(fx, ret, args, |fx, a| Ok(fx.b.ins().bitrev(a[0]))),
        "bitfield_insert" | "bitfield_extract_signed" | "bitfield_extract_unsigned" => {
            let name = f.name.clone();
            map_lanes(fx, ret, args, |fx, a| Ok(bitfield(fx, &name, t, a)))
        }
        _ => return None,
    };
    Some(r)
}

/// cl_khr_extended_bit_ops' bitfields, computed in 64 bits: `a` is
/// (base, offset, count) or (base, insert, offset, count) of one lane of
/// type `t`. A count of 0 gives `base` (insert) or 0 (extract); an offset
/// and count beyond the lane's bits are undefined by the spec.
fn bitfield(fx: &mut FunctionCx<'_, '_>, name: &str, t: types::Type, a: &[Value]) -> Value {
    let i64t = types::I64;
    let widen = |fx: &mut FunctionCx<'_, '_>, v: Value| {
        if fx.b.func.dfg.value_type(v) == i64t {
            v
        } else {
            fx.b.ins().uextend(i64t, v)
        }
    };
    let insert = name == "bitfield_insert";
    let (off, cnt) = if insert { (a[2], a[3]) } else { (a[1], a[2]) };
    let base = widen(fx, a[0]);
    let off = widen(fx, off);
    let cnt = widen(fx, cnt);
    let zero_count = fx.b.ins().icmp_imm_u(IntCC::Equal, cnt, 0);
    // The low `cnt` bits set (all 64 for 64; 0 is chosen apart).
    let ones = fx.b.ins().iconst(i64t, -1);
    let sixty_four = fx.b.ins().iconst(i64t, 64);
    let rest = fx.b.ins().isub(sixty_four, cnt);
    let mask = fx.b.ins().ushr(ones, rest);
    let r = match name {
        "bitfield_insert" => {
            let ins = widen(fx, a[1]);
            let field = fx.b.ins().band(ins, mask);
            let field = fx.b.ins().ishl(field, off);
            let hole = fx.b.ins().ishl(mask, off);
            let kept = fx.b.ins().band_not(base, hole);
            let r = fx.b.ins().bor(kept, field);
            fx.b.ins().select(zero_count, base, r)
        }
        "bitfield_extract_unsigned" => {
            let v = fx.b.ins().ushr(base, off);
            let v = fx.b.ins().band(v, mask);
            let zero = fx.b.ins().iconst(i64t, 0);
            fx.b.ins().select(zero_count, zero, v)
        }
        _ => {
            // Bit off+cnt-1 to the top, then back down with its sign.
            let up = fx.b.ins().isub(rest, off);
            let v = fx.b.ins().ishl(base, up);
            let v = fx.b.ins().sshr(v, rest);
            let zero = fx.b.ins().iconst(i64t, 0);
            fx.b.ins().select(zero_count, zero, v)
        }
    };
    if t == i64t {
        r
    } else {
        fx.b.ins().ireduce(t, r)
    }
}

#[derive(Clone, Copy)]
enum Cmp {
    Gt,
    Lt,
}

fn cc(signed: bool, c: Cmp) -> IntCC {
    match (signed, c) {
        (true, Cmp::Gt) => IntCC::SignedGreaterThan,
        (false, Cmp::Gt) => IntCC::UnsignedGreaterThan,
        (true, Cmp::Lt) => IntCC::SignedLessThan,
        (false, Cmp::Lt) => IntCC::UnsignedLessThan,
    }
}

/// The integer type twice as wide (`upsample`).
fn wide(s: Scalar) -> Scalar {
    match s {
        Scalar::Char => Scalar::Short,
        Scalar::UChar => Scalar::UShort,
        Scalar::Short => Scalar::Int,
        Scalar::UShort => Scalar::UInt,
        Scalar::Int => Scalar::Long,
        _ => Scalar::ULong,
    }
}

/// Integer `min`/`max` (scalars, or values packed in a vector).
pub(crate) fn minmax(
    fx: &mut FunctionCx<'_, '_>,
    sg: bool,
    x: Value,
    y: Value,
    max: bool,
) -> Value {
    let c =
        fx.b.ins()
            .icmp(cc(sg, if max { Cmp::Gt } else { Cmp::Lt }), x, y);
    super::select_cmp(fx, c, x, y)
}

fn shr1(fx: &mut FunctionCx<'_, '_>, sg: bool, x: Value) -> Value {
    if sg {
        fx.b.ins().sshr_imm_s(x, 1)
    } else {
        fx.b.ins().ushr_imm_s(x, 1)
    }
}

/// The minimum and maximum of an integer type, as i128.
pub(super) fn range(s: Scalar) -> (i128, i128) {
    let bits = s.size() * 8;
    if s.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn add_sub_sat(fx: &mut FunctionCx<'_, '_>, s: Scalar, x: Value, y: Value, add: bool) -> Value {
    let t = clif(s);
    let sg = s.is_signed();
    if t.bits() < 64 {
        // Exact in 64 bits, then clamped.
        let ext = |fx: &mut FunctionCx<'_, '_>, v| {
            if sg {
                fx.b.ins().sextend(types::I64, v)
            } else {
                fx.b.ins().uextend(types::I64, v)
            }
        };
        let (wx, wy) = (ext(fx, x), ext(fx, y));
        let r = if add {
            fx.b.ins().iadd(wx, wy)
        } else {
            fx.b.ins().isub(wx, wy)
        };
        let (lo, hi) = range(s);
        let lo = fx.b.ins().iconst(types::I64, lo as i64);
        let hi = fx.b.ins().iconst(types::I64, hi as i64);
        let r = minmax(fx, true, r, lo, true);
        let r = minmax(fx, true, r, hi, false);
        return fx.b.ins().ireduce(t, r);
    }
    let r = if add {
        fx.b.ins().iadd(x, y)
    } else {
        fx.b.ins().isub(x, y)
    };
    if !sg {
        return if add {
            // Overflow iff r < x.
            let o = fx.b.ins().icmp(IntCC::UnsignedLessThan, r, x);
            let max = fx.b.ins().iconst(t, -1);
            fx.b.ins().select(o, max, r)
        } else {
            let o = fx.b.ins().icmp(IntCC::UnsignedLessThan, x, y);
            let zero = fx.b.ins().iconst(t, 0);
            fx.b.ins().select(o, zero, r)
        };
    }
    // Signed: overflow iff the operands' signs make it possible and r's
    // sign differs from x's.
    let xr = fx.b.ins().bxor(x, r);
    let o = if add {
        let yr = fx.b.ins().bxor(y, r);
        fx.b.ins().band(xr, yr)
    } else {
        let xy = fx.b.ins().bxor(x, y);
        fx.b.ins().band(xy, xr)
    };
    let o = fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
    let xneg = fx.b.ins().icmp_imm_s(IntCC::SignedLessThan, x, 0);
    let min = fx.b.ins().iconst(t, i64::MIN);
    let max = fx.b.ins().iconst(t, i64::MAX);
    let sat = fx.b.ins().select(xneg, min, max);
    fx.b.ins().select(o, sat, r)
}

fn mul_hi(fx: &mut FunctionCx<'_, '_>, s: Scalar, x: Value, y: Value) -> Value {
    let t = clif(s);
    let sg = s.is_signed();
    if t.bits() == 64 {
        return if sg {
            fx.b.ins().smulhi(x, y)
        } else {
            fx.b.ins().umulhi(x, y)
        };
    }
    let (wx, wy) = if sg {
        (
            fx.b.ins().sextend(types::I64, x),
            fx.b.ins().sextend(types::I64, y),
        )
    } else {
        (
            fx.b.ins().uextend(types::I64, x),
            fx.b.ins().uextend(types::I64, y),
        )
    };
    let p = fx.b.ins().imul(wx, wy);
    let h = fx.b.ins().sshr_imm_s(p, i64::from(t.bits()));
    fx.b.ins().ireduce(t, h)
}

fn mad_sat(
    fx: &mut FunctionCx<'_, '_>,
    s: Scalar,
    a: Value,
    b: Value,
    c: Value,
) -> Result<Value, String> {
    let t = clif(s);
    let sg = s.is_signed();
    if t.bits() == 64 {
        let sym = if sg {
            "cranecl_mad_sat_i64"
        } else {
            "cranecl_mad_sat_u64"
        };
        return super::math::host(fx, sym, &[t, t, t], t, &[a, b, c]);
    }
    let ext = |fx: &mut FunctionCx<'_, '_>, v| {
        if sg {
            fx.b.ins().sextend(types::I64, v)
        } else {
            fx.b.ins().uextend(types::I64, v)
        }
    };
    let (wa, wb, wc) = (ext(fx, a), ext(fx, b), ext(fx, c));
    let p = fx.b.ins().imul(wa, wb);
    // Signed: |a b| <= 2^62, so a b + c fits; unsigned 32-bit: a b + c <
    // 2^64 fits as unsigned.
    let r = fx.b.ins().iadd(p, wc);
    let (lo, hi) = range(s);
    let hi_v = fx.b.ins().iconst(types::I64, hi as i64);
    let r = if sg {
        let lo_v = fx.b.ins().iconst(types::I64, lo as i64);
        let r = minmax(fx, true, r, lo_v, true);
        minmax(fx, true, r, hi_v, false)
    } else {
        minmax(fx, false, r, hi_v, false)
    };
    Ok(fx.b.ins().ireduce(t, r))
}
