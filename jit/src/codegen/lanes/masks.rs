//! The lanes' masks: the active lanes of a masked loop or arm, blends of
//! lane values, the addresses a masked-off lane uses (a dummy).

use super::*;

impl LaneCx {
    pub(super) fn masked(&self) -> bool {
        !self.masks.is_empty()
    }

    /// The lanes active at this point of a masked loop (`None` outside one).
    pub(super) fn cur_mask(&self, fx: &mut FunctionCx<'_, '_>) -> Option<Pk> {
        let f = self.masks.last()?;
        let mut m = f.iter_active.get(fx);
        for c in &f.conds {
            m = m.zip(*c, fx, |fx, m, c| fx.b.ins().band(m, c));
        }
        Some(m)
    }

    pub(super) fn any(fx: &mut FunctionCx<'_, '_>, m: Pk) -> Value {
        m.any_true(fx)
    }

    /// Lane `k` of a mask as an i8 0/1.
    pub(super) fn mask_lane(fx: &mut FunctionCx<'_, '_>, m: Pk, k: usize) -> Value {
        let x = m.lane(fx, k);
        fx.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
    }

    /// A mask as `int` 0/1 per lane (packed).
    pub(super) fn mask_to_int(fx: &mut FunctionCx<'_, '_>, m: Pk) -> Pk {
        let one = fx.b.ins().iconst(types::I32, 1);
        let one = fx.b.ins().splat(types::I32X4, one);
        m.map(fx, |fx, m| fx.b.ins().band(m, one))
    }

    /// The mask of the lanes where `v` (of type `ty`) is true.
    pub(super) fn truth_mask(
        fx: &mut FunctionCx<'_, '_>,
        v: &LVal,
        ty: &Type,
    ) -> Result<Pk, String> {
        if let LVal::Vec(x) = v {
            if let Some(m) = x.try_map(fx, |fx, r| Self::mask_behind(fx, r)) {
                return Ok(m);
            }
            let vt = x.ty(fx);
            return Ok(if vt == types::F32X4 {
                let z = fx.b.ins().f32const(0.0);
                let z = fx.b.ins().splat(vt, z);
                x.map(fx, |fx, x| fx.b.ins().fcmp(FloatCC::NotEqual, x, z))
            } else {
                let z = fx.b.ins().iconst(types::I32, 0);
                let z = fx.b.ins().splat(vt, z);
                x.map(fx, |fx, x| fx.b.ins().icmp(IntCC::NotEqual, x, z))
            });
        }
        let mut ts = Vec::with_capacity(fx.step_lanes());
        for k in 0..fx.step_lanes() {
            let x = Self::lane(fx, v, k);
            let t = fx.truth(&x, ty)?;
            let t = fx.b.ins().uextend(types::I32, t);
            ts.push(fx.b.ins().ineg(t));
        }
        Ok(Pk::from_lanes(fx, types::I32X4, &ts))
    }

    /// The mask a packed comparison's 0/1 result was made from
    /// (`band(mask, splat(1))`), to test it without converting back.
    pub(super) fn mask_behind(fx: &FunctionCx<'_, '_>, x: Value) -> Option<Value> {
        use cranelift_codegen::ir::{InstructionData, Opcode};
        let dfg = &fx.b.func.dfg;
        let inst = dfg.value_def(x).inst()?;
        let InstructionData::Binary {
            opcode: Opcode::Band,
            args: [m, one],
        } = dfg.insts[inst]
        else {
            return None;
        };
        // A mask: a vector comparison, or `band`/`bor` of masks.
        fn is_mask(dfg: &cranelift_codegen::ir::DataFlowGraph, v: Value, depth: u32) -> bool {
            let Some(i) = dfg.value_def(v).inst() else {
                return false;
            };
            match dfg.insts[i].opcode() {
                Opcode::Icmp | Opcode::Fcmp => true,
                Opcode::Band | Opcode::Bor if depth > 0 => {
                    dfg.inst_args(i).iter().all(|a| is_mask(dfg, *a, depth - 1))
                }
                _ => false,
            }
        }
        let one_inst = dfg.value_def(one).inst()?;
        let splat_of_one = dfg.insts[one_inst].opcode() == Opcode::Splat
            && dfg.inst_args(one_inst).first().is_some_and(|a| {
                dfg.value_def(*a).inst().is_some_and(|i| {
                    matches!(dfg.insts[i], InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } if imm.bits() == 1)
                })
            });
        (splat_of_one && is_mask(dfg, m, 4)).then_some(m)
    }

    /// `v` where the lane is active, `old` elsewhere.
    pub(super) fn blend(
        fx: &mut FunctionCx<'_, '_>,
        m: Pk,
        v: &LVal,
        old: &LVal,
    ) -> Result<LVal, String> {
        // Packed: the mask's bits choose (the mask seen as the values' type).
        let select = |fx: &mut FunctionCx<'_, '_>, x: Pk, y: Pk| {
            let vt = x.ty(fx);
            let mv = if vt == types::I32X4 {
                m
            } else {
                m.map(fx, |fx, m| {
                    fx.b.ins()
                        .bitcast(vt, cranelift_codegen::ir::MemFlagsData::new(), m)
                })
            };
            mv.zip3(x, y, fx, |fx, m, x, y| fx.b.ins().bitselect(m, x, y))
        };
        if let (LVal::Vec(x), LVal::Vec(y)) = (v, old) {
            return Ok(LVal::Vec(select(fx, *x, *y)));
        }
        if let (LVal::VecN(xs), LVal::VecN(ys)) = (v, old) {
            let out = xs.iter().zip(ys).map(|(x, y)| select(fx, *x, *y)).collect();
            return Ok(LVal::VecN(out));
        }
        let mut out = Vec::with_capacity(fx.step_lanes());
        for k in 0..fx.step_lanes() {
            let mk = Self::mask_lane(fx, m, k);
            let (x, y) = (Self::lane(fx, v, k), Self::lane(fx, old, k));
            out.push(Self::select_lane(fx, mk, x, y).ok_or(NOT_MASKABLE)?);
        }
        Ok(LVal::Lanes(out))
    }

    /// One lane's `t ? x : y` (`t` an i8 0/1) of a scalar or vector value.
    pub(super) fn select_lane(
        fx: &mut FunctionCx<'_, '_>,
        t: Value,
        x: CValue,
        y: CValue,
    ) -> Option<CValue> {
        Some(match (x, y) {
            (CValue::Scalar(x), CValue::Scalar(y)) => CValue::Scalar(fx.b.ins().select(t, x, y)),
            (CValue::Lanes(x), CValue::Lanes(y)) => CValue::Lanes(
                x.iter()
                    .zip(&y)
                    .map(|(x, y)| fx.b.ins().select(t, *x, *y))
                    .collect(),
            ),
            _ => return None,
        })
    }

    /// Each lane's address, a masked-off lane's replaced by the dummy.
    pub(super) fn masked_addrs(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<Vec<Value>, String> {
        if fx.size_of(ty) > 64 {
            return Err(NOT_MASKABLE.into());
        }
        let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
        let mut out = Vec::with_capacity(fx.step_lanes());
        for k in 0..fx.step_lanes() {
            let mk = Self::mask_lane(fx, m, k);
            let a = Self::lane(fx, addr, k).scalar()?;
            out.push(fx.b.ins().select(mk, a, self.dummy));
        }
        Ok(out)
    }

    /// Inside a masked loop or arm: whether every lane is active now (an
    /// `i8`); `None` outside one.
    pub(super) fn all_active(&self, fx: &mut FunctionCx<'_, '_>) -> Option<Value> {
        let m = self.cur_mask(fx)?;
        Some(m.all_true(fx))
    }

    /// Branch on `all` to a new block (made current) for the whole step,
    /// or to the returned `part` block; both end at the returned `join`.
    pub(super) fn whole_or_part(
        fx: &mut FunctionCx<'_, '_>,
        all: Value,
    ) -> (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block) {
        let whole = fx.b.create_block();
        let part = fx.b.create_block();
        let join = fx.b.create_block();
        fx.b.ins().brif(all, whole, &[], part, &[]);
        fx.b.seal_block(whole);
        fx.b.switch_to_block(whole);
        (part, join)
    }
}
