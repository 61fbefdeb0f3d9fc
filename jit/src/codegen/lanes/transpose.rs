//! The lanes' accesses of whole vectors (`float4`, `int8`, `uint2`...):
//! each lane's vector moved by vector loads and stores, and each four
//! lanes' vectors (those of one register of the packed form) transposed to
//! and from the packed form of a vector value (one packed value per
//! component, [`LVal::VecN`]) by shuffles, instead of a scalar access and
//! an insert or extract per component and lane.
//!
//! Four components at a time: four lanes' `[x y z w]` rows are a 4x4
//! matrix whose transpose is their register of the packed `x`, `y`, `z` and
//! `w`; two rounds of interleaves (32-bit, then 64-bit halves) transpose
//! it, and the same eight interleaves take it back. Two components: each
//! lane's 8 bytes, two lanes to a register, or two loads for four lanes
//! when their vectors are consecutive (`float2 p[i]`); one shuffle each
//! picks the `x`s and the `y`s. Each lane still touches its
//! own vector's bytes only, in the order of the lanes, so the accesses are
//! the per-lane ones; only outside checked mode (whose tests are per
//! component), masked loops (a masked-off lane's address is a dummy) and
//! scheduled programs (their lanes go in a drawn order).

use super::*;
use crate::codegen::value::flags;
use cranelift_codegen::packed_option::ReservedValue;

impl LaneCx {
    /// The packed type and component count of a whole-vector access of
    /// `ty` at `addr`, when it is done by vector accesses and shuffles;
    /// otherwise why not (`None`: no packed form, nothing to say).
    fn whole_vector(
        &self,
        fx: &FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<(types::Type, usize), Option<&'static str>> {
        let (vt, n) = packed_components(ty).ok_or(None)?;
        if !matches!(addr, LVal::Aff { .. } | LVal::Lanes(_)) {
            return Err(None);
        }
        if self.masked() {
            return Err(Some("in a loop the work-items leave at different times"));
        }
        if fx.checks_memory() {
            return Err(Some("checked mode tests each component"));
        }
        if fx.pcx.schedule.is_some() {
            return Err(Some("the lanes go in a drawn order"));
        }
        if n % 4 != 0 && n != 2 {
            return Err(Some("three components"));
        }
        Ok((vt, n))
    }

    /// `CRANECL_EXPLAIN`: a vector of `ty` moved component by component
    /// in each lane, and why.
    fn note_components(fx: &FunctionCx<'_, '_>, ty: &Type, why: Option<&str>, what: &str) {
        if let Some(why) = why {
            let ty = ty.display(&fx.pcx.prog.records);
            let what = format!("{ty} {what} component by component per lane ({why})");
            Self::note(fx, fx.cur_span, &what);
        }
    }

    /// Each lane's address.
    fn lane_addresses(fx: &mut FunctionCx<'_, '_>, addr: &LVal) -> Result<Vec<Value>, String> {
        (0..fx.step_lanes())
            .map(|k| Self::lane(fx, addr, k).scalar())
            .collect()
    }

    /// Load a vector of `ty` at each lane's address, packed per component;
    /// `None` where [`Self::whole_vector`] does not apply.
    pub(super) fn load_whole(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<Option<LVal>, String> {
        let (vt, n) = match self.whole_vector(fx, addr, ty) {
            Ok(shape) => shape,
            Err(why) => {
                Self::note_components(fx, ty, why, "read");
                return Ok(None);
            }
        };
        let addrs = Self::lane_addresses(fx, addr)?;
        let consecutive = matches!(addr, LVal::Aff { step: 8, .. });
        // Component `c`'s register `r`.
        let mut regs = vec![vec![Value::reserved_value(); fx.regs]; n];
        for r in 0..fx.regs {
            let addrs = &addrs[r * PER_REG..(r + 1) * PER_REG];
            if n == 2 {
                let (lo, hi) = if consecutive {
                    // Lanes 0 and 1 of these four in the first 16 bytes,
                    // 2 and 3 in the next.
                    let lo = fx.b.ins().load(vt, flags(), addrs[0], 0);
                    let hi = fx.b.ins().load(vt, flags(), addrs[0], 16);
                    (lo, hi)
                } else {
                    // Each lane's 8 bytes, two lanes to a register.
                    let v: Vec<Value> = addrs
                        .iter()
                        .map(|a| {
                            let x = fx.b.ins().load(types::F64, flags(), *a, 0);
                            fx.b.ins().scalar_to_vector(types::F64X2, x)
                        })
                        .collect();
                    (
                        shuffle32(fx, vt, v[0], v[1], [0, 1, 4, 5]),
                        shuffle32(fx, vt, v[2], v[3], [0, 1, 4, 5]),
                    )
                };
                regs[0][r] = shuffle32(fx, vt, lo, hi, [0, 2, 4, 6]);
                regs[1][r] = shuffle32(fx, vt, lo, hi, [1, 3, 5, 7]);
                continue;
            }
            for quad in 0..n / 4 {
                let at = 16 * quad as i32;
                let rows: Vec<Value> = addrs
                    .iter()
                    .map(|a| fx.b.ins().load(vt, flags(), *a, at))
                    .collect();
                let t = transpose4(fx, vt, [rows[0], rows[1], rows[2], rows[3]]);
                for (c, x) in t.into_iter().enumerate() {
                    regs[4 * quad + c][r] = x;
                }
            }
        }
        Ok(Some(LVal::VecN(regs.iter().map(|c| Pk::of(c)).collect())))
    }

    /// Store `new`, a vector of `ty` packed per component, at each lane's
    /// address, lane 0 first; false (nothing stored) where
    /// [`Self::whole_vector`] does not apply or `new` is not packed.
    pub(super) fn store_whole(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
        new: &LVal,
    ) -> Result<bool, String> {
        let LVal::VecN(comps) = new else {
            return Ok(false);
        };
        let (vt, n) = match self.whole_vector(fx, addr, ty) {
            Ok(shape) if comps.len() == shape.1 => shape,
            Ok(_) => return Ok(false),
            Err(why) => {
                Self::note_components(fx, ty, why, "written");
                return Ok(false);
            }
        };
        let addrs = Self::lane_addresses(fx, addr)?;
        if n == 2 {
            let le = cranelift_codegen::ir::MemFlagsData::new()
                .with_endianness(cranelift_codegen::ir::Endianness::Little);
            for r in 0..fx.regs {
                let (x, y) = (comps[0].regs()[r], comps[1].regs()[r]);
                let lo = shuffle32(fx, vt, x, y, [0, 4, 1, 5]);
                let hi = shuffle32(fx, vt, x, y, [2, 6, 3, 7]);
                let addrs = &addrs[r * PER_REG..(r + 1) * PER_REG];
                if matches!(addr, LVal::Aff { step: 8, .. }) {
                    fx.b.ins().store(flags(), lo, addrs[0], 0);
                    fx.b.ins().store(flags(), hi, addrs[0], 16);
                    continue;
                }
                for (k, a) in addrs.iter().enumerate() {
                    let pair = fx.b.ins().bitcast(types::F64X2, le, [lo, hi][k / 2]);
                    let x = fx.b.ins().extractlane(pair, (k % 2) as u8);
                    fx.b.ins().store(flags(), x, *a, 0);
                }
            }
            return Ok(true);
        }
        // Each register's four lanes' rows, per quad of components.
        let mut rows: Vec<Vec<[Value; 4]>> = Vec::with_capacity(fx.regs);
        for r in 0..fx.regs {
            rows.push(
                comps
                    .chunks(4)
                    .map(|c| {
                        transpose4(
                            fx,
                            vt,
                            [
                                c[0].regs()[r],
                                c[1].regs()[r],
                                c[2].regs()[r],
                                c[3].regs()[r],
                            ],
                        )
                    })
                    .collect(),
            );
        }
        // Lane by lane, as the per-lane stores go.
        for (k, a) in addrs.iter().enumerate() {
            for (q, quad) in rows[k / PER_REG].iter().enumerate() {
                fx.b.ins()
                    .store(flags(), quad[k % PER_REG], *a, 16 * q as i32);
            }
        }
        Ok(true)
    }
}

/// The 4x4 transpose of four `vt` vectors (32-bit elements): element `k` of
/// the `c`th result is element `c` of the `k`th row.
fn transpose4(fx: &mut FunctionCx<'_, '_>, vt: types::Type, r: [Value; 4]) -> [Value; 4] {
    // [r0.0 r1.0 r0.1 r1.1], [r2.0 r3.0 r2.1 r3.1], and the same of .2, .3.
    let t0 = shuffle32(fx, vt, r[0], r[1], [0, 4, 1, 5]);
    let t1 = shuffle32(fx, vt, r[2], r[3], [0, 4, 1, 5]);
    let t2 = shuffle32(fx, vt, r[0], r[1], [2, 6, 3, 7]);
    let t3 = shuffle32(fx, vt, r[2], r[3], [2, 6, 3, 7]);
    [
        shuffle32(fx, vt, t0, t1, [0, 1, 4, 5]),
        shuffle32(fx, vt, t0, t1, [2, 3, 6, 7]),
        shuffle32(fx, vt, t2, t3, [0, 1, 4, 5]),
        shuffle32(fx, vt, t2, t3, [2, 3, 6, 7]),
    ]
}

/// Four 32-bit elements picked from `a` (0-3) and `b` (4-7), as `vt` (`a`
/// and `b` of any 128-bit type).
fn shuffle32(
    fx: &mut FunctionCx<'_, '_>,
    vt: types::Type,
    a: Value,
    b: Value,
    pick: [u8; 4],
) -> Value {
    let le = cranelift_codegen::ir::MemFlagsData::new()
        .with_endianness(cranelift_codegen::ir::Endianness::Little);
    let mut bytes16 = |v: Value| {
        if fx.b.func.dfg.value_type(v) == types::I8X16 {
            v
        } else {
            fx.b.ins().bitcast(types::I8X16, le, v)
        }
    };
    let (ab, bb) = (bytes16(a), bytes16(b));
    let bytes = pick.iter().flat_map(|&e| (4 * e)..(4 * e + 4)).collect();
    let mask = fx.shuffle_mask(bytes);
    let v = fx.b.ins().shuffle(ab, bb, mask);
    fx.b.ins().bitcast(vt, le, v)
}
