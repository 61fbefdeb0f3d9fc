//! The lanes' expressions: operators, work-item functions, built-ins,
//! subscripts and pointer arithmetic (affine where it stays affine).

use super::*;

impl LaneCx {
    pub(super) fn expr(&mut self, fx: &mut FunctionCx<'_, '_>, e: &Expr) -> Result<LVal, String> {
        // Checked mode names the expression being compiled.
        let outer = std::mem::replace(&mut fx.cur_span, e.span);
        let r = self.expr_here(fx, e);
        fx.cur_span = outer;
        r
    }

    pub(super) fn expr_here(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        e: &Expr,
    ) -> Result<LVal, String> {
        if !self.plan.varies(e) && !self.plan.needs_serial(e) {
            return Ok(LVal::Uni(fx.expr(e)?));
        }
        if self.plan.needs_serial(e) {
            return self.serial_expr(fx, e);
        }
        match &e.kind {
            ExprKind::Cast(CastKind::LvalueToRvalue, a) => self.read(fx, a),
            ExprKind::Cast(
                CastKind::NoOp | CastKind::Bitcast | CastKind::ToGeneric | CastKind::FromGeneric,
                a,
            ) => self.expr(fx, a),
            ExprKind::Cast(
                CastKind::IntToInt
                | CastKind::IntToFloat
                | CastKind::FloatToInt
                | CastKind::FloatToFloat
                | CastKind::VectorSplat
                | CastKind::PointerToInt
                | CastKind::IntToPointer,
                a,
            ) => {
                let v = self.expr(fx, a)?;
                self.convert(fx, v, &a.ty, &e.ty)
            }
            ExprKind::Builtin(f, args) if f.family == Family::WorkItem => {
                self.workitem(fx, f, args, e)
            }
            ExprKind::Builtin(f, args) => self.builtin(fx, f, args),
            ExprKind::Unary(op, a) => {
                let v = self.expr(fx, a)?;
                if let (UnOp::Neg, LVal::Aff { base, step }) = (op, &v) {
                    if a.ty.is_integer() {
                        let base = fx.b.ins().ineg(*base);
                        return Ok(LVal::Aff {
                            base,
                            step: step.wrapping_neg(),
                        });
                    }
                }
                let mut out = Vec::with_capacity(fx.step_lanes());
                for k in 0..fx.step_lanes() {
                    let x = Self::lane(fx, &v, k);
                    out.push(fx.unary(*op, x, &a.ty, &e.ty)?);
                }
                Ok(LVal::Lanes(out))
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b)
                if !e.ty.is_vector()
                    && speculable(b)
                    && matches!(e.ty, Type::Scalar(Scalar::Int)) =>
            {
                // Both sides for every lane (the right one cannot fault or
                // write), combined as masks: int 0/1 per lane.
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                let ma = Self::truth_mask(fx, &va, &a.ty)?;
                let mb = Self::truth_mask(fx, &vb, &b.ty)?;
                let m = ma.zip(mb, fx, |fx, a, b| {
                    if *op == BinOp::LogAnd {
                        fx.b.ins().band(a, b)
                    } else {
                        fx.b.ins().bor(a, b)
                    }
                });
                Ok(LVal::Vec(Self::mask_to_int(fx, m)))
            }
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, _) if !e.ty.is_vector() => {
                self.serial_expr(fx, e)
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                let ty = if b.ty.is_vector() && !a.ty.is_vector() {
                    &b.ty
                } else {
                    &a.ty
                };
                let r = Self::binop(fx, *op, &va, &vb, ty, &b.ty, &e.ty)?;
                if a.ty == e.ty && b.ty == e.ty && fx.pcx.check.bounds {
                    self.rising_binop(fx, *op, (&va, &vb), &e.ty, &r);
                }
                Ok(r)
            }
            ExprKind::PtrAdd(a, b) => {
                let (p, i) = if a.ty.is_pointer() { (a, b) } else { (b, a) };
                let pv = self.expr(fx, p)?;
                let iv = self.expr(fx, i)?;
                let (iv, inside) = self.checked_subscript(fx, p, iv, i)?;
                let size = fx.pointee_size(&p.ty);
                let r = self.ptr_add(fx, pv, iv, &i.ty, size)?;
                if inside && crate::codegen::check::subscripted_array(p).is_some() {
                    // An element of an array variable, every lane's index
                    // checked (or known inside).
                    match &r {
                        LVal::Uni(CValue::Scalar(a)) => {
                            fx.in_object.insert(*a, size);
                        }
                        LVal::Aff { base, step } if *step == size as i64 => {
                            fx.in_object_lanes.insert(*base);
                        }
                        LVal::Lanes(v) => {
                            for x in v {
                                if let CValue::Scalar(a) = x {
                                    fx.in_object.insert(*a, size);
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Ok(r)
            }
            ExprKind::Assign {
                op,
                op_ty,
                lhs,
                rhs,
            } => self.assign(fx, *op, op_ty, lhs, rhs, e),
            ExprKind::Cond(c, a, b) if !c.ty.is_vector() && speculable(a) && speculable(b) => {
                let vc = self.expr(fx, c)?;
                let va = self.expr(fx, a)?;
                let vb = self.expr(fx, b)?;
                if let Some(v) = Self::packed_cond(fx, (&vc, &c.ty), &va, &vb, &e.ty)? {
                    return Ok(v);
                }
                let mut out = Vec::with_capacity(fx.step_lanes());
                for k in 0..fx.step_lanes() {
                    let x = Self::lane(fx, &vc, k);
                    let t = fx.truth(&x, &c.ty)?;
                    let (x, y) = (Self::lane(fx, &va, k), Self::lane(fx, &vb, k));
                    match Self::select_lane(fx, t, x, y) {
                        Some(v) => out.push(v),
                        None => return self.serial_expr(fx, e),
                    }
                }
                Ok(LVal::Lanes(out))
            }
            ExprKind::Comma(a, b) => {
                self.expr(fx, a)?;
                self.expr(fx, b)
            }
            ExprKind::Swizzle(base, lanes) if !base.is_lvalue() => {
                let v = self.expr(fx, base)?;
                match Self::swizzle(&v, lanes, &e.ty) {
                    Some(v) => Ok(v),
                    None => self.serial_expr(fx, e),
                }
            }
            ExprKind::VectorLit(parts) if packed_components(&e.ty).is_some() => {
                let (vt, n) = packed_components(&e.ty).ok_or(FALLBACK)?;
                let mut comps = Vec::with_capacity(n);
                for part in parts {
                    let v = self.expr(fx, part)?;
                    match (&part.ty, v) {
                        (Type::Vector(_, m), v) => match Self::pack_n(fx, &v, vt, *m as usize) {
                            Some(c) => comps.extend(c),
                            None => return self.serial_expr(fx, e),
                        },
                        (_, v) => match Self::pack(fx, &v, vt) {
                            Some(c) => comps.push(c),
                            None => return self.serial_expr(fx, e),
                        },
                    }
                }
                if comps.len() == 1 && n > 1 {
                    comps = vec![comps[0]; n];
                }
                if comps.len() != n {
                    return self.serial_expr(fx, e);
                }
                Ok(LVal::VecN(comps))
            }
            ExprKind::IncDec {
                inc,
                prefix,
                operand,
            } => self.inc_dec(fx, *inc, *prefix, operand, e),
            ExprKind::AddrOf(a) if matches!(a.kind, ExprKind::Deref(_)) => {
                let ExprKind::Deref(p) = &a.kind else {
                    unreachable!()
                };
                self.expr(fx, p)
            }
            _ => self.serial_expr(fx, e),
        }
    }

    /// `c ? a : b` with both arms evaluated: uniform when all three are; a
    /// packed `float`/`int`/`uint` result chosen by one `select` (a uniform
    /// condition) or by a mask of the packed condition's lanes; `None`
    /// otherwise (the caller selects per lane).
    fn packed_cond(
        fx: &mut FunctionCx<'_, '_>,
        (vc, cty): (&LVal, &Type),
        va: &LVal,
        vb: &LVal,
        ty: &Type,
    ) -> Result<Option<LVal>, String> {
        // A condition known when the kernel is built (an inlined function's
        // parameter given a literal: CLBlast's `XgemmDirect(..., 1, 0, ...)`
        // passing `a_transpose`, read as the literal, `lower/constants.rs`)
        // picks its arm here, so an affine arm stays affine whatever the
        // other one is.
        if let LVal::Uni(CValue::Scalar(c)) = vc {
            if cty.is_integer() {
                if let Some(k) = fx.const_of(*c) {
                    return Ok(Some(if k != 0 { va.clone() } else { vb.clone() }));
                }
            }
        }
        if let (LVal::Uni(c), LVal::Uni(CValue::Scalar(x)), LVal::Uni(CValue::Scalar(y))) =
            (vc, va, vb)
        {
            let t = fx.truth(c, cty)?;
            return Ok(Some(LVal::Uni(CValue::Scalar(
                fx.b.ins().select(t, *x, *y),
            ))));
        }
        // Two affine arms of one step under a condition the lanes share
        // (CLBlast's `a_transpose ? mg + kwg : mg + group * WGD`): still
        // affine, its base chosen, so the address it makes stays one
        // contiguous access.
        if let (LVal::Uni(c), LVal::Aff { base: x, step: sx }, LVal::Aff { base: y, step: sy }) =
            (vc, va, vb)
        {
            if sx == sy && fx.b.func.dfg.value_type(*x) == fx.b.func.dfg.value_type(*y) {
                let t = fx.truth(c, cty)?;
                return Ok(Some(LVal::Aff {
                    base: fx.b.ins().select(t, *x, *y),
                    step: *sx,
                }));
            }
        }
        let Some(vt) = packed_type(ty) else {
            return Ok(None);
        };
        let (Some(x), Some(y)) = (Self::pack(fx, va, vt), Self::pack(fx, vb, vt)) else {
            return Ok(None);
        };
        if let LVal::Uni(c) = vc {
            let t = fx.truth(c, cty)?;
            return Ok(Some(LVal::Vec(
                x.zip(y, fx, |fx, x, y| fx.b.ins().select(t, x, y)),
            )));
        }
        let Some(ct) = packed_type(cty) else {
            return Ok(None);
        };
        let Some(cv) = Self::pack(fx, vc, ct) else {
            return Ok(None);
        };
        let m = if ct == types::F32X4 {
            let z = fx.b.ins().f32const(0.0);
            let z = fx.b.ins().splat(ct, z);
            cv.map(fx, |fx, c| fx.b.ins().fcmp(FloatCC::NotEqual, c, z))
        } else {
            let z = fx.b.ins().iconst(types::I32, 0);
            let z = fx.b.ins().splat(ct, z);
            cv.map(fx, |fx, c| fx.b.ins().icmp(IntCC::NotEqual, c, z))
        };
        Self::blend(fx, m, &LVal::Vec(x), &LVal::Vec(y)).map(Some)
    }

    /// Checked `bounds`: the index `iv` of a subscript of an array object
    /// (`p` is the array turned pointer) checked against its length, as the
    /// ordinary code generator does (`expr.rs`, `checked_subscript`): once
    /// for a uniform index, at the first and last lane for an affine one
    /// (a last lane outside moves the lanes to start at element 0), per lane
    /// otherwise. Also whether every lane's element then lies in the array
    /// (false where no subscript of an array is checked).
    pub(super) fn checked_subscript(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        p: &Expr,
        iv: LVal,
        i: &Expr,
    ) -> Result<(LVal, bool), String> {
        let ity = &i.ty;
        let ExprKind::Cast(CastKind::ArrayToPointer, arr) = &p.kind else {
            return Ok((iv, false));
        };
        let (true, crate::sema::types::Type::Array(_, Some(n))) = (fx.pcx.check.bounds, &arr.ty)
        else {
            return Ok((iv, false));
        };
        let n = *n;
        if fx.index_known_inside(i, n) {
            return Ok((iv, true));
        }
        let signed = ity.elem().is_none_or(|s| s.is_signed());
        let wide = |fx: &mut FunctionCx<'_, '_>, v: Value| {
            let t = fx.b.func.dfg.value_type(v);
            fx.int_resize(v, t, types::I64, signed)
        };
        let outer = std::mem::replace(&mut fx.cur_span, arr.span);
        let r = match iv {
            LVal::Uni(CValue::Scalar(x)) => {
                let x = wide(fx, x);
                // A uniform index: lane 0's work-item names it.
                let saved = at_lane(fx, 0);
                let c = fx.checked_index(x, n);
                fx.check_me = saved;
                Ok((LVal::Uni(CValue::Scalar(c)), true))
            }
            // Lanes that cannot all lie in the array whatever their first
            // element (an array shorter than the step) go lane by lane:
            // each one outside reports and reads element 0 as alone.
            LVal::Aff { base, step }
                if step <= 0
                    || step
                        .checked_mul(fx.step_lanes() as i64 - 1)
                        .is_some_and(|s| (s as u64) < n) =>
            {
                let first = wide(fx, base);
                let span = step * (fx.step_lanes() as i64 - 1);
                let last = fx.b.ins().iadd_imm_s(first, span);
                let saved = at_lane(fx, fx.step_lanes() - 1);
                let last_checked = fx.checked_index(last, n);
                fx.check_me = saved;
                let saved = at_lane(fx, 0);
                let first_checked = fx.checked_index(first, n);
                fx.check_me = saved;
                let kept = fx.b.ins().icmp(IntCC::Equal, last_checked, last);
                let zero = fx.b.ins().iconst(types::I64, 0);
                let base = fx.b.ins().select(kept, first_checked, zero);
                let span = step.checked_mul(fx.step_lanes() as i64 - 1);
                let inside = step > 0 && span.is_some_and(|s| (s as u64) < n);
                Ok((LVal::Aff { base, step }, inside))
            }
            iv => {
                let mut out = Vec::with_capacity(fx.step_lanes());
                for k in 0..fx.step_lanes() {
                    let x = Self::lane(fx, &iv, k).scalar()?;
                    let x = wide(fx, x);
                    let saved = at_lane(fx, k);
                    out.push(CValue::Scalar(fx.checked_index(x, n)));
                    fx.check_me = saved;
                }
                Ok((LVal::Lanes(out), true))
            }
        };
        fx.cur_span = outer;
        r
    }

    /// `p + i` for the lanes (`i` of type `ity`, elements of `size` bytes).
    /// Under checked `bounds` alone, a place computed before from the same
    /// values and still available is given again (the same values), so
    /// that its test's verdict can be reused (`bounds_access`).
    pub(super) fn ptr_add(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        p: LVal,
        i: LVal,
        ity: &Type,
        size: u64,
    ) -> Result<LVal, String> {
        let what = format!("+ {ity:?} {size}");
        let (p2, i2) = (p.clone(), i.clone());
        self.remembered(fx, what, &[&p2, &i2], |lc, fx| {
            lc.ptr_add_new(fx, p, i, ity, size)
        })
    }

    fn ptr_add_new(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        p: LVal,
        i: LVal,
        ity: &Type,
        size: u64,
    ) -> Result<LVal, String> {
        let widen = |fx: &mut FunctionCx<'_, '_>, v: Value| -> Value {
            let t = fx.b.func.dfg.value_type(v);
            let signed = ity.elem().is_none_or(|s| s.is_signed());
            let w = fx.int_resize(v, t, types::I64, signed);
            if size == 1 {
                w
            } else {
                fx.b.ins().imul_imm_s(w, size as i64)
            }
        };
        let affine_part = |v: &LVal| match v {
            LVal::Uni(CValue::Scalar(x)) => Some((*x, 0i64)),
            LVal::Aff { base, step } => Some((*base, *step)),
            _ => None,
        };
        if let (Some((pb, ps)), Some((ib, is))) = (affine_part(&p), affine_part(&i)) {
            let off = widen(fx, ib);
            let base = fx.b.ins().iadd(pb, off);
            let step = ps.wrapping_add(is.wrapping_mul(size as i64));
            return Ok(if step == 0 {
                LVal::Uni(CValue::Scalar(base))
            } else {
                LVal::Aff { base, step }
            });
        }
        let mut out = Vec::with_capacity(fx.step_lanes());
        for k in 0..fx.step_lanes() {
            let pk = Self::lane(fx, &p, k).scalar()?;
            let ik = Self::lane(fx, &i, k).scalar()?;
            let off = widen(fx, ik);
            out.push(CValue::Scalar(fx.b.ins().iadd(pk, off)));
        }
        let r = LVal::Lanes(out);
        // Rising elements (widened as their type is) of a rising pointer.
        let signed = ity.elem().is_none_or(|s| s.is_signed());
        if fx.pcx.check.bounds && self.is_rising(fx, &p, false) && self.is_rising(fx, &i, signed) {
            self.mark_rising(fx, &r, false);
        }
        Ok(r)
    }

    pub(super) fn workitem(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        args: &[Expr],
        e: &Expr,
    ) -> Result<LVal, String> {
        let dim0 = args.first().map(const_dim) == Some(Some(0));
        match f.name.as_str() {
            "get_global_id" if dim0 => {
                let base = fx.b.ins().iadd(self.bases[0], self.ids[0]);
                Ok(LVal::Aff { base, step: 1 })
            }
            "get_local_id" if dim0 => Ok(LVal::Aff {
                base: self.ids[0],
                step: 1,
            }),
            "get_global_linear_id" | "get_local_linear_id" => {
                // Lane 0's answer from the ordinary code, then +1 per lane.
                let old = fx.inline_ids.replace((self.ids, self.bases));
                let v = fx.expr(e);
                fx.inline_ids = old;
                Ok(LVal::Aff {
                    base: v?.scalar()?,
                    step: 1,
                })
            }
            _ => self.serial_expr(fx, e),
        }
    }

    pub(super) fn builtin(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        args: &[Expr],
    ) -> Result<LVal, String> {
        if self.masked()
            && (per_item_builtin(f)
                || image_access(f)
                || f.params.iter().any(|p| p.is_pointer())
                || matches!(f.family, Family::VectorLoadStore | Family::AddressSpace))
        {
            return Err(NOT_MASKABLE.into());
        }
        let mut vals = Vec::with_capacity(args.len());
        let mut tys = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.expr(fx, a)?;
            match f.params.get(i) {
                Some(p) if !is_aggregate(p) && !p.is_error() && p.is_arithmetic() => {
                    vals.push(self.convert(fx, v, &a.ty, p)?);
                    tys.push(p.clone());
                }
                _ => {
                    vals.push(v);
                    tys.push(a.ty.clone());
                }
            }
        }
        if image_access(f) {
            if let Some(r) = crate::builtins::image::emit_lanes(fx, f, &vals, &tys) {
                return r;
            }
        }
        if let Some(v) = Self::packed_half(fx, f, &vals) {
            return Ok(v);
        }
        // Integer `min`, `max` and `clamp` (the larger, then the smaller)
        // of rising values rise.
        let rises = fx.pcx.check.bounds
            && matches!(f.name.as_str(), "min" | "max" | "clamp")
            && matches!(tys.first(), Some(t @ Type::Scalar(s)) if s.is_integer() && f.ret == *t
                && tys.iter().all(|u| u == t))
            && vals
                .iter()
                .all(|v| self.is_rising(fx, v, f.ret.elem().is_some_and(|s| s.is_signed())));
        let signed = f.ret.elem().is_some_and(|s| s.is_signed());
        if let Some(v) = Self::packed_builtin(fx, f, &vals, &tys) {
            let v = LVal::Vec(v);
            if rises {
                self.mark_rising(fx, &v, signed);
            }
            return Ok(v);
        }
        if let ([LVal::Vec(x)], Some(Type::Scalar(Scalar::Float)), Type::Scalar(Scalar::Float)) =
            (&vals[..], tys.first(), &f.ret)
        {
            if let Some(v) = value::packed_float_unary(fx, &f.name, *x) {
                return Ok(LVal::Vec(v));
            }
        }
        // Vectors of packed components, all of the built-in's own type
        // (`rotate` and `bitselect` of hashcat's `u32x`): the same formulas
        // per component.
        if let (Some((vt, n)), Some(elem), true) = (
            packed_components(&f.ret),
            f.ret.elem(),
            tys.iter().all(|t| *t == f.ret),
        ) {
            let et = Type::Scalar(elem);
            let scalar_fn = BuiltinFn {
                ret: et.clone(),
                params: vec![et.clone(); f.params.len()],
                ..f.clone()
            };
            let etys = vec![et; tys.len()];
            let refs: Vec<&LVal> = vals.iter().collect();
            let float = vt == types::F32X4;
            let v = value::per_component(fx, &refs, n, |fx, c| match c {
                [LVal::Vec(x)] if float => value::packed_float_unary(fx, &f.name, *x),
                _ => Self::packed_builtin(fx, &scalar_fn, c, &etys),
            });
            if let Some(v) = v {
                return Ok(v);
            }
        }
        if f.family == Family::VectorLoadStore {
            // A memory access taken apart, as `serial_expr` says of others.
            if let Some(a) = args.first() {
                Self::note(
                    fx,
                    a.span,
                    &format!("once per lane (no packed form of this {} here)", f.name),
                );
            }
        }
        let mut out = vec![CValue::Void; fx.step_lanes()];
        for k in fx.lane_order() {
            let lane: Vec<CValue> = vals.iter().map(|v| Self::lane(fx, v, k)).collect();
            let saved = at_lane(fx, k);
            let r = crate::builtins::emit_builtin(fx, f, &lane, &tys);
            fx.check_me = saved;
            out[k] = r?;
        }
        let v = LVal::Lanes(out);
        if rises {
            self.mark_rising(fx, &v, signed);
        }
        Ok(v)
    }

    /// `vload_half`, and `vstore_half`/`vstore_half_rte` of `float`s, at
    /// the lanes' consecutive offsets from one pointer: one 8-byte access
    /// per register of four lanes, and the conversion (`codegen/half.rs`)
    /// on four lanes at once. Not under checked mode, whose checks follow each lane's access.
    fn packed_half(fx: &mut FunctionCx<'_, '_>, f: &BuiltinFn, vals: &[LVal]) -> Option<LVal> {
        if fx.checks_memory() {
            return None;
        }
        let flags = crate::codegen::value::flags();
        let at = |fx: &mut FunctionCx<'_, '_>, base: Value, p: &CValue| {
            let p = p.scalar().ok()?;
            let off = fx.b.ins().ishl_imm_s(base, 1);
            Some(fx.b.ins().iadd(p, off))
        };
        match (f.name.as_str(), vals) {
            ("vload_half", [LVal::Aff { base, step: 1 }, LVal::Uni(p)])
                if f.ret == Type::Scalar(Scalar::Float) =>
            {
                let addr = at(fx, *base, p)?;
                let h: Vec<Value> = (0..fx.regs)
                    .map(|r| fx.b.ins().uload16x4(flags, addr, 8 * r as i32))
                    .collect();
                let h = Pk::of(&h);
                Some(LVal::Vec(h.map(fx, |fx, h| fx.half_bits_to_float(h))))
            }
            ("vstore_half" | "vstore_half_rte", [x, LVal::Aff { base, step: 1 }, LVal::Uni(p)])
                if f.params.first() == Some(&Type::Scalar(Scalar::Float)) =>
            {
                let x = Self::pack(fx, x, types::F32X4)?;
                let addr = at(fx, *base, p)?;
                for (r, x) in x.regs().iter().enumerate() {
                    let h = fx.float_to_half_bits_rte(*x);
                    // Half bits are at most 0xffff: the unsigned narrowing is exact.
                    let h = fx.b.ins().unarrow(h, h);
                    let le = cranelift_codegen::ir::MemFlagsData::new()
                        .with_endianness(cranelift_codegen::ir::Endianness::Little);
                    let h = fx.b.ins().bitcast(types::I64X2, le, h);
                    let four = fx.b.ins().extractlane(h, 0);
                    fx.b.ins().store(flags, four, addr, 8 * r as i32);
                }
                Some(LVal::Lanes(vec![CValue::Void; fx.step_lanes()]))
            }
            _ => None,
        }
    }

    /// `x++`, `--x`, ... on a varying local or memory.
    pub(super) fn inc_dec(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        inc: bool,
        prefix: bool,
        operand: &Expr,
        e: &Expr,
    ) -> Result<LVal, String> {
        let ty = operand.ty.clone();
        let arithmetic = ty.is_scalar() && !matches!(ty, Type::Scalar(Scalar::Bool | Scalar::Half));
        if !(arithmetic || ty.is_pointer()) {
            return self.serial_expr(fx, e);
        }
        let target = match &operand.kind {
            _ if self.in_lane_memory(operand) => Some(self.lane_mem_addr(fx, operand)?),
            ExprKind::Var(VarRef::Local(l)) if self.plan.varying[l.0 as usize] => None,
            ExprKind::Deref(p) => Some(self.expr(fx, p)?),
            _ => return self.serial_expr(fx, e),
        };
        let old = match &target {
            None => self.read(fx, operand)?,
            Some(a) => fx.read_for_write(|fx| self.load(fx, a, &ty))?,
        };
        let new = if ty.is_pointer() {
            let long = Type::Scalar(Scalar::Long);
            let one = fx.const_int(if inc { 1 } else { -1 }, &long)?;
            let size = fx.pointee_size(&ty);
            self.ptr_add(fx, old.clone(), LVal::Uni(one), &long, size)?
        } else {
            let one = LVal::Uni(fx.const_int(1, &ty)?);
            let op = if inc { BinOp::Add } else { BinOp::Sub };
            Self::binop(fx, op, &old, &one, &ty, &ty, &ty)?
        };
        match target {
            None => {
                let ExprKind::Var(VarRef::Local(l)) = &operand.kind else {
                    return Err(FALLBACK.into());
                };
                self.bound.remove(&l.0);
                self.write_local(fx, l.0, &ty, &new)?;
            }
            Some(addr) => self.store_lval(fx, addr, &ty, &new, None)?,
        }
        Ok(if prefix { new } else { old })
    }
}
