//! The lanes' loads and stores: one vector access for consecutive
//! elements, per-lane accesses otherwise (whole vectors: `transpose.rs`),
//! checked mode's tests of the lanes together, assignments.

use super::*;
use crate::lower::lane_memory::path_root;
use crate::lower::walk::array_subscript;

impl LaneCx {
    /// Store packed `v` at `base` (consecutive 4-byte elements, lane 0's
    /// first): one vector store per register, each checked as its four
    /// lanes' access.
    fn store_packed(fx: &mut FunctionCx<'_, '_>, base: Value, v: Pk) {
        for (r, x) in v.regs().iter().enumerate() {
            let at = fx.checked_addr_lanes(base, true, Some(*x), r * PER_REG);
            fx.b.ins().store(crate::codegen::value::flags(), *x, at, 0);
        }
    }

    /// Load packed `vt` at `base` (consecutive 4-byte elements): one
    /// vector load per register.
    fn load_packed(fx: &mut FunctionCx<'_, '_>, base: Value, vt: types::Type) -> Pk {
        let regs: Vec<Value> = (0..fx.regs)
            .map(|r| {
                let at = fx.checked_addr_lanes(base, false, None, r * PER_REG);
                fx.b.ins().load(vt, crate::codegen::value::flags(), at, 0)
            })
            .collect();
        Pk::of(&regs)
    }

    /// Store `new` (of type `ty`) at each lane's address.
    pub(super) fn store_lval(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: LVal,
        ty: &Type,
        new: &LVal,
        kept: Option<Value>,
    ) -> Result<(), String> {
        if let (LVal::Aff { base, step: 4 }, Some(vt)) = (&addr, packed_type(ty)) {
            if matches!(new, LVal::Vec(_) | LVal::Uni(_)) {
                let v = Self::pack(fx, new, vt).ok_or(FALLBACK)?;
                let Some(all) = self.all_active(fx) else {
                    Self::store_packed(fx, *base, v);
                    return Ok(());
                };
                // Masked: vector stores when every lane takes part.
                let (part, join) = Self::whole_or_part(fx, all);
                Self::store_packed(fx, *base, v);
                fx.b.ins().jump(join, &[]);
                fx.b.seal_block(part);
                fx.b.switch_to_block(part);
                self.store_lanes(fx, &addr, ty, new, None)?;
                fx.b.ins().jump(join, &[]);
                fx.b.seal_block(join);
                fx.b.switch_to_block(join);
                return Ok(());
            }
        }
        if self.store_whole(fx, &addr, ty, new)? {
            return Ok(());
        }
        self.store_lanes(fx, &addr, ty, new, kept)
    }

    /// Store `new` at each lane's address, lane by lane. `kept`: the
    /// verdict of the test of the same addresses by the read of a compound
    /// assignment (the write then tests nothing more when it held).
    pub(super) fn store_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
        new: &LVal,
        kept: Option<Value>,
    ) -> Result<(), String> {
        let order = fx.lane_order();
        let mut store = |fx: &mut FunctionCx<'_, '_>, addrs: &[Value]| {
            for &k in &order {
                let a = *addrs.get(k).ok_or(FALLBACK)?;
                let v = Self::lane(fx, new, k);
                let saved = at_lane(fx, k);
                let r = fx.store(a, ty, &v);
                fx.check_me = saved;
                r?;
            }
            Ok(Vec::new())
        };
        if self
            .bounds_access(fx, addr, ty, Some(new), kept, &mut store)?
            .is_some()
        {
            return Ok(());
        }
        let (addrs, prechecked) = self.lane_addrs(fx, addr, ty, Some(new), kept)?;
        let saved = std::mem::replace(&mut fx.prechecked, prechecked);
        let r = store(fx, &addrs);
        fx.prechecked = saved;
        r.map(|_| ())
    }

    /// `a` is a scalar of a private object the lanes keep interleaved
    /// (`Plan::lane_memory`; the object whole has no place here).
    pub(super) fn in_lane_memory(&self, a: &Expr) -> bool {
        matches!(a.ty, Type::Scalar(_))
            && path_root(a).is_some_and(|l| self.plan.lane_memory[l as usize])
    }

    /// The lanes' addresses of `a`, a 4-byte scalar of an interleaved
    /// private object (`lower/lane_memory.rs`). The step's copies share
    /// one stack slot: byte `4j` of the object (its `j`th scalar) of lane
    /// `k` is at `4 * (j * lanes + k)`, so the lanes' copies of a scalar
    /// are consecutive, and one the lanes reach at the same offset is one
    /// vector access (affine, step 4).
    pub(super) fn lane_mem_addr(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        a: &Expr,
    ) -> Result<LVal, String> {
        let (l, off) = self.lane_mem_offset(fx, a)?;
        let lanes = fx.step_lanes() as u64;
        let ty = Self::local_ty(fx, l);
        let size = fx.size_of(&ty);
        let slot = match self.lane_copies.get(&l) {
            Some(s) => *s,
            None => {
                let local = &fx.func.locals[l as usize];
                Self::note(
                    fx,
                    local.span,
                    &format!(
                        "private '{}': a copy per lane, the lanes' copies of each element side by side",
                        local.name
                    ),
                );
                let s = fx.b.create_sized_stack_slot(lane_copies_slot(size * lanes));
                self.lane_copies.insert(l, s);
                s
            }
        };
        let base = fx.b.ins().stack_addr(types::I64, slot, 0);
        let l64 = lanes as i64;
        Ok(match off {
            LVal::Uni(CValue::Scalar(o)) => {
                let o = fx.b.ins().imul_imm_s(o, l64);
                LVal::Aff {
                    base: fx.b.ins().iadd(base, o),
                    step: 4,
                }
            }
            LVal::Aff { base: o, step } => {
                let o = fx.b.ins().imul_imm_s(o, l64);
                LVal::Aff {
                    base: fx.b.ins().iadd(base, o),
                    step: step * l64 + 4,
                }
            }
            other => {
                let mut out = Vec::with_capacity(lanes as usize);
                for k in 0..lanes as usize {
                    let o = Self::lane(fx, &other, k).scalar()?;
                    let o = fx.b.ins().imul_imm_s(o, l64);
                    let at = fx.b.ins().iadd(base, o);
                    out.push(CValue::Scalar(fx.b.ins().iadd_imm_s(at, 4 * k as i64)));
                }
                LVal::Lanes(out)
            }
        })
    }

    /// The object access path `a` designates (`lane_memory::path_root`)
    /// and the byte offset in it, per lane (a 64-bit value).
    fn lane_mem_offset(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        a: &Expr,
    ) -> Result<(u32, LVal), String> {
        match &a.kind {
            ExprKind::Var(VarRef::Local(l)) => Ok((
                l.0,
                LVal::Uni(CValue::Scalar(fx.b.ins().iconst(types::I64, 0))),
            )),
            ExprKind::Member(b, idx) => {
                let (l, o) = self.lane_mem_offset(fx, b)?;
                let field = fx.field_offset(&b.ty, *idx)? as i64;
                let long = Type::Scalar(Scalar::Long);
                let d = LVal::Uni(fx.const_int(field as i128, &long)?);
                Ok((l, self.ptr_add(fx, o, d, &long, 1)?))
            }
            ExprKind::Deref(p) => {
                let (arr, idx) = array_subscript(p).ok_or(FALLBACK)?;
                let (l, o) = self.lane_mem_offset(fx, arr)?;
                let i = self.expr(fx, idx)?;
                let size = fx.size_of(&a.ty);
                Ok((l, self.ptr_add(fx, o, i, &idx.ty, size)?))
            }
            _ => Err(FALLBACK.into()),
        }
    }

    /// Read the lvalue `a`.
    pub(super) fn read(&mut self, fx: &mut FunctionCx<'_, '_>, a: &Expr) -> Result<LVal, String> {
        if self.in_lane_memory(a) {
            let addr = self.lane_mem_addr(fx, a)?;
            return self.load(fx, &addr, &a.ty);
        }
        match &a.kind {
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => {
                let l = l.0;
                if let Some(v) = self.bound.get(&l) {
                    return Ok(v.clone());
                }
                let ty = Self::local_ty(fx, l);
                match self.slot(fx, l)? {
                    Slot::Packed(var) => Ok(LVal::Vec(var.get(fx))),
                    Slot::PackedN(vars) => Ok(LVal::VecN(vars.iter().map(|v| v.get(fx)).collect())),
                    Slot::Lanes(places) => {
                        let mut out = Vec::with_capacity(fx.step_lanes());
                        for p in &places {
                            out.push(fx.read_place(p, &ty)?);
                        }
                        Ok(LVal::Lanes(out))
                    }
                }
            }
            ExprKind::Deref(p) => {
                let pv = self.expr(fx, p)?;
                self.load(fx, &pv, &a.ty)
            }
            ExprKind::Swizzle(base, lanes) if self.plan.varies(base) && base.is_lvalue() => {
                let v = self.read(fx, base)?;
                match Self::swizzle(&v, lanes, &a.ty) {
                    Some(v) => Ok(v),
                    None => {
                        let uses = self.uses_expr(a);
                        if self.masked() && !register_only(a) {
                            return Err(NOT_MASKABLE.into());
                        }
                        Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| {
                            let p = fx.place(a)?;
                            fx.read_place(&p, &a.ty)
                        })?))
                    }
                }
            }
            _ => {
                let uses = self.uses_expr(a);
                Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| {
                    let p = fx.place(a)?;
                    fx.read_place(&p, &a.ty)
                })?))
            }
        }
    }

    pub(super) fn load(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<LVal, String> {
        if let LVal::Uni(a) = addr {
            return Ok(LVal::Uni(fx.load(a.scalar()?, ty)?));
        }
        if let (LVal::Aff { base, step: 4 }, Some(vt)) = (addr, packed_type(ty)) {
            // Consecutive elements: one unaligned vector load per register.
            let Some(all) = self.all_active(fx) else {
                return Ok(LVal::Vec(Self::load_packed(fx, *base, vt)));
            };
            // Masked: the vector loads when every lane takes part, else
            // lane by lane (a masked-off lane may not read its address).
            let (part, join) = Self::whole_or_part(fx, all);
            for _ in 0..fx.regs {
                fx.b.append_block_param(join, vt);
            }
            let v = Self::load_packed(fx, *base, vt);
            let args: Vec<_> = v.regs().iter().map(|x| (*x).into()).collect();
            fx.b.ins().jump(join, &args);
            fx.b.seal_block(part);
            fx.b.switch_to_block(part);
            let lanes = self.load_lanes(fx, addr, ty)?;
            let v = Self::pack(fx, &lanes, vt).ok_or(FALLBACK)?;
            let args: Vec<_> = v.regs().iter().map(|x| (*x).into()).collect();
            fx.b.ins().jump(join, &args);
            fx.b.seal_block(join);
            fx.b.switch_to_block(join);
            let params = fx.b.block_params(join).to_vec();
            return Ok(LVal::Vec(Pk::of(&params)));
        }
        if let Some(v) = self.load_whole(fx, addr, ty)? {
            return Ok(v);
        }
        self.load_lanes(fx, addr, ty)
    }

    /// Load `ty` at each lane's address, lane by lane.
    pub(super) fn load_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<LVal, String> {
        // A masked-off lane reads the dummy (its address may be past the
        // end of a buffer).
        let mut load = |fx: &mut FunctionCx<'_, '_>, addrs: &[Value]| {
            let mut out = Vec::with_capacity(fx.step_lanes());
            for (k, &a) in addrs.iter().enumerate() {
                let saved = at_lane(fx, k);
                let r = fx.load(a, ty).and_then(|v| v.scalar());
                fx.check_me = saved;
                out.push(r?);
            }
            Ok(out)
        };
        if let Some(out) = self.bounds_access(fx, addr, ty, None, None, &mut load)? {
            return Ok(LVal::Lanes(out.into_iter().map(CValue::Scalar).collect()));
        }
        let (addrs, prechecked) = self.lane_addrs(fx, addr, ty, None, None)?;
        let mut out = Vec::with_capacity(fx.step_lanes());
        for (k, a) in addrs.into_iter().enumerate() {
            let saved = at_lane(fx, k);
            fx.prechecked = prechecked;
            let r = fx.load(a, ty);
            fx.prechecked = false;
            fx.check_me = saved;
            out.push(r?);
        }
        Ok(LVal::Lanes(out))
    }

    /// Each lane's address of an access of `ty` at `addr` (a masked-off
    /// lane's: the dummy), and which lanes take part (in a masked loop).
    fn raw_lane_addrs(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
    ) -> Result<(Vec<Value>, Option<Vec<Value>>), String> {
        Ok(if self.masked() {
            let addrs = self.masked_addrs(fx, addr, ty)?;
            let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
            let active: Vec<Value> = (0..fx.step_lanes())
                .map(|k| Self::mask_lane(fx, m, k))
                .collect();
            (addrs, Some(active))
        } else {
            let addrs = (0..fx.step_lanes())
                .map(|k| Self::lane(fx, addr, k).scalar())
                .collect::<Result<Vec<_>, _>>()?;
            (addrs, None)
        })
    }

    /// What a store writes in each lane, as scalars.
    fn lane_values(
        fx: &mut FunctionCx<'_, '_>,
        new: Option<&LVal>,
    ) -> Result<Option<Vec<Value>>, String> {
        new.map(|n| {
            (0..fx.step_lanes())
                .map(|k| Self::lane(fx, n, k).scalar())
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()
    }

    /// Checked `bounds` alone: the lanes' scalar accesses of `ty` at
    /// `addr`, tested together and emitted by `access` on the fast and the
    /// cold path (`FunctionCx::bounds_lanes`); what they read, or `None`
    /// where that does not apply. `new` and `known_ok` as in `lane_addrs`.
    pub(super) fn bounds_access<'f, 'p>(
        &mut self,
        fx: &mut FunctionCx<'f, 'p>,
        addr: &LVal,
        ty: &Type,
        new: Option<&LVal>,
        known_ok: Option<Value>,
        access: &mut crate::codegen::check::LanesAccess<'_, FunctionCx<'f, 'p>>,
    ) -> Result<Option<Vec<Value>>, String> {
        let c = fx.pcx.check;
        if !matches!(ty, Type::Scalar(_) | Type::Pointer(_))
            || !c.bounds
            || c.tracks()
            || fx.prechecked
        {
            return Ok(None);
        }
        let (addrs, active) = self.raw_lane_addrs(fx, addr, ty)?;
        let values = Self::lane_values(fx, new)?;
        let size = fx.size_of(ty);
        let (monotone, _) = lane_shape(addr, active.is_some(), size);
        // Addresses that rise lane by lane (`clamp`ed indices): in one
        // object when the first and the last are.
        let monotone = monotone || active.is_none() && self.is_rising(fx, addr, false);
        // Lanes at increasing places: the bytes they span from lane 0's.
        let range = match addr {
            LVal::Aff { step, .. } if monotone && *step > 0 => (*step as u64)
                .checked_mul(fx.step_lanes() as u64 - 1)
                .map(|s| s + size),
            LVal::Uni(_) if monotone => Some(size),
            _ => None,
        };
        // A place this step tested already (its verdict available here),
        // for an access no larger: the same answer.
        let key = if active.is_none() {
            lval_key(fx, addr)
        } else {
            None
        };
        let known_ok = known_ok.or_else(|| {
            let k = key.as_ref()?;
            self.verdicts
                .iter()
                .rev()
                .find(|(vk, n, _, b)| vk == k && *n >= size && fx.made_before(*b))
                .map(|v| v.2)
        });
        let r = fx.bounds_lanes(
            &addrs,
            active.as_deref(),
            size,
            values.as_deref(),
            monotone,
            range,
            known_ok,
            access,
        )?;
        Ok(match r {
            Some((out, ok)) => {
                if let (Some(k), Some(ok), Some(b)) = (key, ok, fx.b.current_block()) {
                    self.verdicts.push((k, size, ok, b));
                }
                if self.keep_lanes {
                    self.kept_ok = ok;
                }
                Some(out)
            }
            // Not checked at all (no site): the accesses as they are.
            None => None,
        })
    }

    /// Each lane's address of an access of `ty` at `addr` (a masked-off
    /// lane's: the dummy), and whether they were checked at once already
    /// (`FunctionCx::checked_lanes`: `races`/`uninit`), so that the
    /// accesses go with `prechecked`. `new`: what a store writes;
    /// `known_ok`: the verdict of an earlier test of the same addresses.
    pub(super) fn lane_addrs(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        addr: &LVal,
        ty: &Type,
        new: Option<&LVal>,
        known_ok: Option<Value>,
    ) -> Result<(Vec<Value>, bool), String> {
        let (addrs, active) = self.raw_lane_addrs(fx, addr, ty)?;
        if !matches!(ty, Type::Scalar(_) | Type::Pointer(_)) || !fx.checks_memory() {
            return Ok((addrs, false));
        }
        let values = Self::lane_values(fx, new)?;
        let size = fx.size_of(ty);
        let (_, distinct) = lane_shape(addr, active.is_some(), size);
        let step = match addr {
            LVal::Aff { step, .. } if active.is_none() => Some(*step),
            _ => None,
        };
        // Places an earlier access of this step tested (its test available
        // here), for an access no larger: that test stands.
        let key = if active.is_none() && fx.pcx.check.tracks() {
            lval_key(fx, addr)
        } else {
            None
        };
        fx.lanes_reuse = key.as_ref().and_then(|k| {
            self.tracked
                .iter()
                .rev()
                .find(|(vk, n, _, _, b)| vk == k && *n >= size && fx.made_before(*b))
                .map(|t| (t.2, t.3))
        });
        fx.lanes_tested = None;
        let checked = fx.checked_lanes(
            &addrs,
            active.as_deref(),
            size,
            new.is_some(),
            values.as_deref(),
            (distinct, step),
            known_ok,
        );
        fx.lanes_reuse = None;
        if let (Some(k), Some((outside, at)), Some(b)) =
            (key, fx.lanes_tested.take(), fx.b.current_block())
        {
            self.tracked.push((k, size, outside, at, b));
        }
        Ok(match checked {
            Some((a, ok)) => {
                if self.keep_lanes {
                    self.kept_ok = ok;
                }
                (a, true)
            }
            None => (addrs, false),
        })
    }

    pub(super) fn assign(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        op: Option<BinOp>,
        op_ty: &Type,
        lhs: &Expr,
        rhs: &Expr,
        e: &Expr,
    ) -> Result<LVal, String> {
        if is_aggregate(&lhs.ty) || lhs.ty.is_pointer() && op.is_some() {
            return self.serial_expr(fx, e);
        }
        // Where the value goes: a varying local, or memory.
        enum Target<'e> {
            Local(u32),
            Mem(LVal),
            /// Components of a varying local vector packed per component
            /// (`cvec.x += a * b`): the other components are kept.
            Components(u32, &'e Expr, &'e [u8]),
        }
        let target = match &lhs.kind {
            _ if self.in_lane_memory(lhs) => Target::Mem(self.lane_mem_addr(fx, lhs)?),
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => {
                Target::Local(l.0)
            }
            ExprKind::Deref(p) => Target::Mem(self.expr(fx, p)?),
            ExprKind::Swizzle(base, sel) => match &base.kind {
                ExprKind::Var(VarRef::Local(l))
                    if self.plan.varying[l.0 as usize] && packed_components(&base.ty).is_some() =>
                {
                    Target::Components(l.0, base, sel)
                }
                _ => return self.serial_expr(fx, e),
            },
            _ => return self.serial_expr(fx, e),
        };
        let mut kept = None;
        let new = match op {
            None => {
                let v = self.expr(fx, rhs)?;
                self.convert(fx, v, &rhs.ty, &lhs.ty)?
            }
            Some(op) => {
                let old = match &target {
                    Target::Local(_) | Target::Components(..) => self.read(fx, lhs)?,
                    Target::Mem(a) => {
                        // Not the packed access's: its lanes' part is a
                        // branch of its own (and has its own reuse).
                        self.keep_lanes = !matches!(
                            (a, packed_type(&lhs.ty)),
                            (LVal::Aff { step: 4, .. }, Some(_))
                        );
                        let r = fx.read_for_write(|fx| self.load(fx, a, &lhs.ty));
                        self.keep_lanes = false;
                        kept = self.kept_ok.take();
                        r?
                    }
                };
                let a = self.convert(fx, old, &lhs.ty, op_ty)?;
                let b = self.expr(fx, rhs)?;
                let shift = matches!(op, BinOp::Shl | BinOp::Shr);
                if shift && op_ty.is_vector() && !rhs.ty.is_vector() {
                    return self.serial_expr(fx, e);
                }
                let (b, bty) = if shift {
                    (b, rhs.ty.clone())
                } else {
                    (self.convert(fx, b, &rhs.ty, op_ty)?, op_ty.clone())
                };
                let r = Self::binop(fx, op, &a, &b, op_ty, &bty, op_ty)?;
                self.convert(fx, r, op_ty, &lhs.ty)?
            }
        };
        match target {
            Target::Local(l) => {
                self.bound.remove(&l);
                self.write_local(fx, l, &lhs.ty, &new)?
            }
            Target::Mem(addr) => self.store_lval(fx, addr, &lhs.ty, &new, kept)?,
            Target::Components(l, base, sel) => {
                let (vt, n) = packed_components(&base.ty).ok_or(FALLBACK)?;
                let whole = self.read(fx, base)?;
                let mut comps = Self::pack_n(fx, &whole, vt, n).ok_or(FALLBACK)?;
                let parts = if sel.len() == 1 {
                    vec![Self::pack(fx, &new, vt).ok_or(FALLBACK)?]
                } else {
                    Self::pack_n(fx, &new, vt, sel.len()).ok_or(FALLBACK)?
                };
                for (&c, x) in sel.iter().zip(parts) {
                    comps[c as usize] = x;
                }
                self.bound.remove(&l);
                self.write_local(fx, l, &base.ty, &LVal::VecN(comps))?
            }
        }
        Ok(new)
    }
}

/// Whether the lanes of an access of `size` bytes at `addr` are
/// *monotone* (all active at `base + k * step`: in one object when the
/// first and the last are) and *distinct* (all active, at least an access
/// apart: no two at one place).
fn lane_shape(addr: &LVal, masked: bool, size: u64) -> (bool, bool) {
    let monotone = !masked
        && match addr {
            LVal::Aff { step, .. } => step.unsigned_abs() < 1 << 32,
            LVal::Uni(_) => true,
            _ => false,
        };
    let distinct = !masked && matches!(addr, LVal::Aff { step, .. } if step.unsigned_abs() >= size);
    (monotone, distinct)
}

/// A stack slot of `size` bytes, 16-byte aligned (a vector access of the
/// lanes' copies is unaligned-safe; the alignment keeps it in one line).
fn lane_copies_slot(size: u64) -> cranelift_codegen::ir::StackSlotData {
    cranelift_codegen::ir::StackSlotData::new(
        cranelift_codegen::ir::StackSlotKind::ExplicitSlot,
        size as u32,
        4,
    )
}
