//! Work-group collective functions (spec 6.15.16): `work_group_all`,
//! `work_group_any`, `work_group_broadcast`, `work_group_reduce_<op>` and
//! `work_group_scan_{inclusive,exclusive}_<op>` for `add`, `min`, `max`.
//!
//! Every work-item of the group calls the function (spec requirement), so
//! each one stores its operand (as 64 bits) in its slot of the group's
//! scratch area (`fx.group_scratch()`, one 8-byte slot per work-item at
//! the start of the local arena), waits at a barrier, computes its own
//! answer from the table with a host function (`cranecl_wg_get`), and
//! waits at a second barrier so that the next collective cannot overwrite
//! the table before everyone has read it. Codegen runs kernels that call these functions
//! with a barrier strategy (`walk::is_barrier` covers the family). Sums are
//! taken in local-linear-id order, so results are deterministic (`half`
//! sums rounded to half at each step, as half additions in that order).
//!
//! The sub-group functions (`subgroup.rs`) share the slot encoding and
//! the element kinds ([`Kind`]) of this module.

use super::{clif, elem};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Element kinds of the table: how the 64-bit slots are read.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    /// An integer of `bits` bits, sign- or zero-extended in its slot.
    Int {
        signed: bool,
        bits: u32,
    },
    F32,
    F64,
    /// `half` bits, each sum rounded to half (cl_khr_fp16).
    F16,
}

/// The operations of the reductions and scans, by code.
pub(super) const OP_ADD: u32 = 0;
pub(super) const OP_MIN: u32 = 1;
pub(super) const OP_MAX: u32 = 2;
pub(super) const OP_MUL: u32 = 3;
pub(super) const OP_AND: u32 = 4;
pub(super) const OP_OR: u32 = 5;
pub(super) const OP_XOR: u32 = 6;
pub(super) const OP_LOGICAL_AND: u32 = 7;
pub(super) const OP_LOGICAL_OR: u32 = 8;
pub(super) const OP_LOGICAL_XOR: u32 = 9;

/// The code of an operation's name (`add`, `logical_xor`).
pub(super) fn op_code(name: &str) -> Option<u32> {
    Some(match name {
        "add" => OP_ADD,
        "min" => OP_MIN,
        "max" => OP_MAX,
        "mul" => OP_MUL,
        "and" => OP_AND,
        "or" => OP_OR,
        "xor" => OP_XOR,
        "logical_and" => OP_LOGICAL_AND,
        "logical_or" => OP_LOGICAL_OR,
        "logical_xor" => OP_LOGICAL_XOR,
        _ => return None,
    })
}

impl Kind {
    /// The kind's code passed to the host, for an element type.
    pub(super) fn code_of(s: Scalar) -> Option<u32> {
        Some(match s {
            Scalar::Int => 0,
            Scalar::UInt => 1,
            Scalar::Long => 2,
            Scalar::ULong => 3,
            Scalar::Float => 4,
            Scalar::Double => 5,
            Scalar::Half => 6,
            Scalar::Char => 7,
            Scalar::UChar => 8,
            Scalar::Short => 9,
            Scalar::UShort => 10,
            _ => return None,
        })
    }
    pub(super) fn from_code(c: u32) -> Kind {
        let int = |signed, bits| Kind::Int { signed, bits };
        match c {
            0 => int(true, 32),
            1 => int(false, 32),
            2 => int(true, 64),
            3 => int(false, 64),
            4 => Kind::F32,
            6 => Kind::F16,
            7 => int(true, 8),
            8 => int(false, 8),
            9 => int(true, 16),
            10 => int(false, 16),
            _ => Kind::F64,
        }
    }
    /// Whether two slots hold equal values (floats compared as numbers).
    pub(super) fn equal(self, a: u64, b: u64) -> bool {
        match self {
            Kind::Int { signed, bits } => int_value(a, signed, bits) == int_value(b, signed, bits),
            Kind::F32 => f32::from_bits(a as u32) == f32::from_bits(b as u32),
            Kind::F64 => f64::from_bits(a) == f64::from_bits(b),
            Kind::F16 => super::host::from_half(a as u16) == super::host::from_half(b as u16),
        }
    }
    /// Combine two slots by `op` (an `OP_*` code).
    pub(super) fn combine(self, op: u32, a: u64, b: u64) -> u64 {
        macro_rules! float {
            ($x:expr, $y:expr) => {{
                let (x, y) = ($x, $y);
                match op {
                    OP_MIN => {
                        if y < x {
                            y
                        } else {
                            x
                        }
                    }
                    OP_MAX => {
                        if y > x {
                            y
                        } else {
                            x
                        }
                    }
                    OP_MUL => x * y,
                    _ => x + y,
                }
            }};
        }
        match self {
            Kind::Int { signed, bits } => {
                let (x, y) = (int_value(a, signed, bits), int_value(b, signed, bits));
                let (lx, ly) = (x != 0, y != 0);
                let r = match op {
                    OP_ADD => x.wrapping_add(y),
                    OP_MIN => x.min(y),
                    OP_MAX => x.max(y),
                    OP_MUL => x.wrapping_mul(y),
                    OP_AND => x & y,
                    OP_OR => x | y,
                    OP_XOR => x ^ y,
                    OP_LOGICAL_AND => i128::from(lx && ly),
                    OP_LOGICAL_OR => i128::from(lx || ly),
                    _ => i128::from(lx != ly),
                };
                r as u64
            }
            Kind::F32 => {
                u64::from(float!(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits())
            }
            Kind::F64 => float!(f64::from_bits(a), f64::from_bits(b)).to_bits(),
            // Compared, added and multiplied as float (exact), each result
            // rounded to half once.
            Kind::F16 => {
                let r = float!(
                    super::host::from_half(a as u16),
                    super::host::from_half(b as u16)
                );
                u64::from(super::host::to_half(f64::from(r), 0))
            }
        }
    }
    /// The identity of `op` (an `OP_*` code).
    pub(super) fn identity(self, op: u32) -> u64 {
        match self {
            Kind::Int { signed, bits } => {
                let (lo, hi) = if signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                let r = match op {
                    OP_MIN => hi,
                    OP_MAX => lo,
                    OP_MUL | OP_LOGICAL_AND => 1,
                    OP_AND => -1,
                    _ => 0,
                };
                r as u64
            }
            Kind::F32 => u64::from(
                match op {
                    OP_MIN => f32::INFINITY,
                    OP_MAX => f32::NEG_INFINITY,
                    OP_MUL => 1.0,
                    _ => 0.0,
                }
                .to_bits(),
            ),
            Kind::F64 => match op {
                OP_MIN => f64::INFINITY,
                OP_MAX => f64::NEG_INFINITY,
                OP_MUL => 1.0,
                _ => 0.0,
            }
            .to_bits(),
            Kind::F16 => match op {
                OP_MIN => 0x7c00,
                OP_MAX => 0xfc00,
                OP_MUL => 0x3c00,
                _ => 0,
            },
        }
    }
}

/// An integer slot's value: its low `bits` bits, sign- or zero-extended.
fn int_value(v: u64, signed: bool, bits: u32) -> i128 {
    let shift = 64 - bits;
    if signed {
        i128::from(((v << shift) as i64) >> shift)
    } else {
        i128::from((v << shift) >> shift)
    }
}

/// `what`: 0 reduce, 1 inclusive scan, 2 exclusive scan, 3 all, 4 any,
/// 5 broadcast (from item `arg`); `op`: 0 add, 1 min, 2 max.
extern "C" fn wg_get(
    table: *const u64,
    n: u64,
    lid: u64,
    what: u32,
    op: u32,
    kind: u32,
    arg: u64,
) -> u64 {
    let kind = Kind::from_code(kind);
    {
        // SAFETY: generated code passes the group's scratch area, whose
        // first `n` (the group's size) slots every work-item has written.
        let v = unsafe { std::slice::from_raw_parts(table, n as usize) };
        let upto = match what {
            1 => (lid as usize + 1).min(v.len()),
            2 => (lid as usize).min(v.len()),
            _ => v.len(),
        };
        match what {
            3 => u64::from(v.iter().all(|x| *x as u32 != 0)),
            4 => u64::from(v.iter().any(|x| *x as u32 != 0)),
            5 => v.get(arg as usize).copied().unwrap_or(0),
            _ => v[..upto]
                .iter()
                .fold(kind.identity(op), |acc, x| kind.combine(op, acc, *x)),
        }
    }
}

/// The host functions of this module.
pub(super) fn symbols() -> Vec<(&'static str, *const u8)> {
    vec![("cranecl_wg_get", wg_get as *const u8)]
}

pub(super) fn workitem(
    fx: &mut FunctionCx<'_, '_>,
    name: &str,
    dim: Option<u32>,
) -> Result<Value, String> {
    let f = BuiltinFn {
        name: name.into(),
        family: Family::WorkItem,
        ret: Type::SIZE_T,
        params: dim.iter().map(|_| Type::UINT).collect(),
        variadic: false,
    };
    let args: Vec<CValue> = dim
        .iter()
        .map(|d| CValue::Scalar(fx.b.ins().iconst(types::I32, i64::from(*d))))
        .collect();
    fx.emit_workitem(&f, &args)?
        .ok_or_else(|| format!("internal: no {name}"))?
        .scalar()
}

/// The work-group's size (the product of the local sizes).
pub(super) fn group_size(fx: &mut FunctionCx<'_, '_>) -> Result<[Value; 3], String> {
    let sizes = [0, 1, 2]
        .map(|d| workitem(fx, "get_local_size", Some(d)))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let n01 = fx.b.ins().imul(sizes[0], sizes[1]);
    let n = fx.b.ins().imul(n01, sizes[2]);
    Ok([sizes[0], n01, n])
}

/// A scalar as the 64 bits of its slot: integers sign- or zero-extended,
/// floating-point values by their bits.
pub(super) fn to_slot(fx: &mut FunctionCx<'_, '_>, s: Scalar, x: Value) -> Value {
    match s {
        Scalar::Float => {
            let i = fx.b.ins().bitcast(types::I32, super::mem(), x);
            fx.b.ins().uextend(types::I64, i)
        }
        Scalar::Double => fx.b.ins().bitcast(types::I64, super::mem(), x),
        Scalar::Int | Scalar::Short | Scalar::Char => fx.b.ins().sextend(types::I64, x),
        Scalar::UInt | Scalar::UShort | Scalar::UChar | Scalar::Half => {
            fx.b.ins().uextend(types::I64, x)
        }
        _ => x,
    }
}

/// The scalar of type `s` a slot's 64 bits hold.
pub(super) fn from_slot(fx: &mut FunctionCx<'_, '_>, s: Scalar, r: Value) -> Value {
    let t = clif(s);
    match s {
        Scalar::Float => {
            let i = fx.b.ins().ireduce(types::I32, r);
            fx.b.ins().bitcast(t, super::mem(), i)
        }
        Scalar::Double => fx.b.ins().bitcast(t, super::mem(), r),
        _ if t == types::I64 => r,
        _ => fx.b.ins().ireduce(t, r),
    }
}

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let rest = f.name.strip_prefix("work_group_")?;
    let (what, op) = match rest {
        "all" => (3, 0),
        "any" => (4, 0),
        "broadcast" => (5, 0),
        _ => {
            let (w, o) = rest.rsplit_once('_')?;
            let what = match w {
                "reduce" => 0,
                "scan_inclusive" => 1,
                "scan_exclusive" => 2,
                _ => return None,
            };
            (what, i64::from(op_code(o)?))
        }
    };
    Some(collective(fx, f, args, what, op))
}

fn collective(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    what: i64,
    op: i64,
) -> Result<CValue, String> {
    let s = elem(&f.ret)?;
    let kind = Kind::code_of(s).ok_or_else(|| super::unsupported(f))?;
    let x = args
        .first()
        .ok_or("internal: collective without operand")?
        .scalar()?;
    let bits = to_slot(fx, s, x);
    let scratch = fx.group_scratch();
    let lid = workitem(fx, "get_local_linear_id", None)?;
    let [size0, n01, n] = group_size(fx)?;
    let off = fx.b.ins().imul_imm_s(lid, 8);
    let slot = fx.b.ins().iadd(scratch, off);
    // broadcast(x, lx[, ly[, lz]]): the source item's linear id.
    let arg = if what == 5 {
        let ids: Vec<Value> = args[1..]
            .iter()
            .map(|a| a.scalar())
            .collect::<Result<_, _>>()?;
        let mut lin = ids[0];
        if let Some(y) = ids.get(1) {
            let t = fx.b.ins().imul(*y, size0);
            lin = fx.b.ins().iadd(lin, t);
        }
        if let Some(z) = ids.get(2) {
            let t = fx.b.ins().imul(*z, n01);
            lin = fx.b.ins().iadd(lin, t);
        }
        lin
    } else {
        fx.b.ins().iconst(types::I64, 0)
    };
    fx.b.ins().store(super::mem(), bits, slot, 0);
    fx.emit_barrier();
    let w = fx.b.ins().iconst(types::I32, what);
    let o = fx.b.ins().iconst(types::I32, op);
    let k = fx.b.ins().iconst(types::I32, i64::from(kind));
    let r = super::math::host(
        fx,
        "cranecl_wg_get",
        &[
            types::I64,
            types::I64,
            types::I64,
            types::I32,
            types::I32,
            types::I32,
            types::I64,
        ],
        types::I64,
        &[scratch, n, lid, w, o, k, arg],
    )?;
    fx.emit_barrier();
    Ok(CValue::Scalar(from_slot(fx, s, r)))
}
