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
//! The sub-group functions (`__opencl_c_subgroups`: `sub_group_barrier`,
//! `sub_group_all`/`any`/`broadcast`/`reduce_<op>`/`scan_*_<op>`) work the
//! same way over the slots of one sub-group (`SUB_GROUP_SIZE` consecutive
//! local linear ids), waiting at sub-group barriers
//! (`cranecl_sub_group_barrier`): only the work-items of the sub-group meet
//! there, so sub-groups may take different paths. Kernels that reach them
//! run as coroutines, whose scheduler releases a sub-group barrier once every
//! unfinished work-item of the sub-group waits at one.

use super::{clif, elem};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// Element kinds of the table: how the 64-bit slots are read.
#[derive(Clone, Copy)]
enum Kind {
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// `half` bits, each sum rounded to half (cl_khr_fp16).
    F16,
}

impl Kind {
    fn from_code(c: u32) -> Kind {
        match c {
            0 => Kind::I32,
            1 => Kind::U32,
            2 => Kind::I64,
            3 => Kind::U64,
            4 => Kind::F32,
            6 => Kind::F16,
            _ => Kind::F64,
        }
    }
    /// Combine two slots by `op` (0 add, 1 min, 2 max).
    fn combine(self, op: u32, a: u64, b: u64) -> u64 {
        macro_rules! by {
            ($t:ty, $from:expr, $to:expr, $add:expr) => {{
                let (x, y): ($t, $t) = ($from(a), $from(b));
                $to(match op {
                    0 => $add(x, y),
                    1 => {
                        if y < x {
                            y
                        } else {
                            x
                        }
                    }
                    _ => {
                        if y > x {
                            y
                        } else {
                            x
                        }
                    }
                })
            }};
        }
        match self {
            Kind::I32 => by!(
                i32,
                |v| v as i32,
                |r: i32| r as u32 as u64,
                i32::wrapping_add
            ),
            Kind::U32 => by!(u32, |v| v as u32, |r: u32| u64::from(r), u32::wrapping_add),
            Kind::I64 => by!(i64, |v| v as i64, |r: i64| r as u64, i64::wrapping_add),
            Kind::U64 => by!(u64, |v| v, |r: u64| r, u64::wrapping_add),
            Kind::F32 => by!(
                f32,
                |v| f32::from_bits(v as u32),
                |r: f32| u64::from(r.to_bits()),
                |x: f32, y: f32| x + y
            ),
            Kind::F64 => by!(
                f64,
                f64::from_bits,
                |r: f64| r.to_bits(),
                |x: f64, y: f64| x + y
            ),
            // Compared and added as float (exact), each sum rounded to half
            // once (float's sum of two halves rounded again is the half sum).
            Kind::F16 => by!(
                f32,
                |v: u64| super::host::from_half(v as u16),
                |r: f32| u64::from(super::host::to_half(f64::from(r), 0)),
                |x: f32, y: f32| super::host::from_half(super::host::to_half(f64::from(x + y), 0))
            ),
        }
    }
    /// The identity of `op` (0 add, 1 min, 2 max).
    fn identity(self, op: u32) -> u64 {
        match (self, op) {
            (_, 0) => match self {
                Kind::F32 => u64::from(0f32.to_bits()),
                _ => 0,
            },
            (Kind::I32, 1) => i32::MAX as u32 as u64,
            (Kind::I32, _) => i32::MIN as u32 as u64,
            (Kind::U32, 1) => u64::from(u32::MAX),
            (Kind::U32, _) => 0,
            (Kind::I64, 1) => i64::MAX as u64,
            (Kind::I64, _) => i64::MIN as u64,
            (Kind::U64, 1) => u64::MAX,
            (Kind::U64, _) => 0,
            (Kind::F32, 1) => u64::from(f32::INFINITY.to_bits()),
            (Kind::F32, _) => u64::from(f32::NEG_INFINITY.to_bits()),
            (Kind::F64, 1) => f64::INFINITY.to_bits(),
            (Kind::F64, _) => f64::NEG_INFINITY.to_bits(),
            (Kind::F16, 1) => 0x7c00,
            (Kind::F16, _) => 0xfc00,
        }
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

fn workitem(fx: &mut FunctionCx<'_, '_>, name: &str, dim: Option<u32>) -> Result<Value, String> {
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
            let op = match o {
                "add" => 0,
                "min" => 1,
                "max" => 2,
                _ => return None,
            };
            (what, op)
        }
    };
    Some(collective(fx, f, args, what, op, Scope::WorkGroup))
}

/// `sub_group_barrier` and the sub-group collectives.
pub(super) fn emit_sub_group(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let rest = f.name.strip_prefix("sub_group_")?;
    let (what, op) = match rest {
        "barrier" => {
            fx.b.ins().fence();
            fx.emit_sub_group_barrier();
            fx.b.ins().fence();
            return Some(Ok(CValue::Void));
        }
        "all" => (3, 0),
        "any" => (4, 0),
        "broadcast" => (5, 0),
        _ => {
            let (w, o) = rest.rsplit_once('_')?;
            (
                match w {
                    "reduce" => 0,
                    "scan_inclusive" => 1,
                    "scan_exclusive" => 2,
                    _ => return None,
                },
                match o {
                    "add" => 0,
                    "min" => 1,
                    "max" => 2,
                    _ => return None,
                },
            )
        }
    };
    Some(collective(fx, f, args, what, op, Scope::SubGroup))
}

/// Which work-items a collective combines.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    WorkGroup,
    SubGroup,
}

fn wait(fx: &mut FunctionCx<'_, '_>, scope: Scope) {
    match scope {
        Scope::WorkGroup => fx.emit_barrier(),
        Scope::SubGroup => fx.emit_sub_group_barrier(),
    }
}

fn collective(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    what: i64,
    op: i64,
    scope: Scope,
) -> Result<CValue, String> {
    let s = elem(&f.ret)?;
    let kind = match s {
        Scalar::Int => 0,
        Scalar::UInt => 1,
        Scalar::Long => 2,
        Scalar::ULong => 3,
        Scalar::Float => 4,
        Scalar::Double => 5,
        Scalar::Half => 6,
        _ => return Err(super::unsupported(f)),
    };
    let t = clif(s);
    let x = args
        .first()
        .ok_or("internal: collective without operand")?
        .scalar()?;
    let bits = match s {
        Scalar::Float => {
            let i = fx.b.ins().bitcast(types::I32, super::mem(), x);
            fx.b.ins().uextend(types::I64, i)
        }
        Scalar::Double => fx.b.ins().bitcast(types::I64, super::mem(), x),
        Scalar::Int => fx.b.ins().sextend(types::I64, x),
        Scalar::UInt | Scalar::Half => fx.b.ins().uextend(types::I64, x),
        _ => x,
    };
    let scratch = fx.group_scratch();
    let lid = workitem(fx, "get_local_linear_id", None)?;
    let sizes = [0, 1, 2]
        .map(|d| workitem(fx, "get_local_size", Some(d)))
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let n01 = fx.b.ins().imul(sizes[0], sizes[1]);
    let n = fx.b.ins().imul(n01, sizes[2]);
    let off = fx.b.ins().imul_imm_s(lid, 8);
    let slot = fx.b.ins().iadd(scratch, off);
    // The table this item reads: the group's slots, or its sub-group's;
    // `me` is its index there, `count` the table's length.
    let (table, count, me, arg) = match scope {
        Scope::WorkGroup => {
            // broadcast(x, lx[, ly[, lz]]): the source item's linear id.
            let arg = if what == 5 {
                let ids: Vec<Value> = args[1..]
                    .iter()
                    .map(|a| a.scalar())
                    .collect::<Result<_, _>>()?;
                let mut lin = ids[0];
                if let Some(y) = ids.get(1) {
                    let t = fx.b.ins().imul(*y, sizes[0]);
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
            (scratch, n, lid, arg)
        }
        Scope::SubGroup => {
            let width = i64::from(crate::launch::SUB_GROUP_SIZE);
            let me = fx.b.ins().urem_imm_u(lid, width);
            let first = fx.b.ins().isub(lid, me);
            let first_off = fx.b.ins().imul_imm_s(first, 8);
            let table = fx.b.ins().iadd(scratch, first_off);
            let left = fx.b.ins().isub(n, first);
            let w = fx.b.ins().iconst(types::I64, width);
            let count = fx.b.ins().umin(left, w);
            // sub_group_broadcast(x, sub_group_local_id): a uint.
            let arg = if what == 5 {
                let id = args
                    .get(1)
                    .ok_or("internal: broadcast without id")?
                    .scalar()?;
                fx.b.ins().uextend(types::I64, id)
            } else {
                fx.b.ins().iconst(types::I64, 0)
            };
            (table, count, me, arg)
        }
    };
    fx.b.ins().store(super::mem(), bits, slot, 0);
    wait(fx, scope);
    let w = fx.b.ins().iconst(types::I32, what);
    let o = fx.b.ins().iconst(types::I32, op);
    let k = fx.b.ins().iconst(types::I32, kind);
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
        &[table, count, me, w, o, k, arg],
    )?;
    wait(fx, scope);
    let v = match s {
        Scalar::Float => {
            let i = fx.b.ins().ireduce(types::I32, r);
            fx.b.ins().bitcast(t, super::mem(), i)
        }
        Scalar::Double => fx.b.ins().bitcast(t, super::mem(), r),
        Scalar::Int | Scalar::UInt | Scalar::Half => fx.b.ins().ireduce(t, r),
        _ => r,
    };
    Ok(CValue::Scalar(v))
}
