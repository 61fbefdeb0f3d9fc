//! The lanes' value model: uniform, affine, packed and per-lane values
//! ([`LVal`]), taken apart per lane, packed, converted, and combined by
//! binary operators (packed where an instruction exists).

use super::*;

/// `op` has one instruction on values packed as `vt`.
pub(super) fn packed_op_exists(op: BinOp, vt: types::Type) -> bool {
    let float = vt == types::F32X4;
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => true,
        BinOp::Div => float,
        BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => !float,
        _ => false,
    }
}

/// `x op y` on packed values (an operation [`packed_op_exists`] accepts).
pub(super) fn packed_op(fx: &mut FunctionCx<'_, '_>, op: BinOp, x: Pk, y: Pk) -> Pk {
    let float = x.ty(fx) == types::F32X4;
    x.zip(y, fx, |fx, x, y| {
        let ins = fx.b.ins();
        match (op, float) {
            (BinOp::Add, true) => ins.fadd(x, y),
            (BinOp::Sub, true) => ins.fsub(x, y),
            (BinOp::Mul, true) => ins.fmul(x, y),
            (BinOp::Div, true) => ins.fdiv(x, y),
            (BinOp::Add, false) => ins.iadd(x, y),
            (BinOp::Sub, false) => ins.isub(x, y),
            (BinOp::Mul, false) => ins.imul(x, y),
            (BinOp::BitAnd, _) => ins.band(x, y),
            (BinOp::BitOr, _) => ins.bor(x, y),
            _ => ins.bxor(x, y),
        }
    })
}

/// Component `c` of `v`, a value of a vector type whose components pack
/// (a uniform scalar stands for every component).
pub(super) fn component(v: &LVal, c: usize) -> Option<LVal> {
    Some(match v {
        LVal::VecN(cs) => LVal::Vec(*cs.get(c)?),
        LVal::Uni(CValue::Lanes(l)) => LVal::Uni(CValue::Scalar(*l.get(c)?)),
        LVal::Uni(CValue::Scalar(x)) => LVal::Uni(CValue::Scalar(*x)),
        LVal::Lanes(ls) => LVal::Lanes(
            ls.iter()
                .map(|l| match l {
                    CValue::Lanes(xs) => xs.get(c).map(|x| CValue::Scalar(*x)),
                    CValue::Scalar(x) => Some(CValue::Scalar(*x)),
                    _ => None,
                })
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

/// An operation on vectors of `n` packed components, one of them packed
/// ([`LVal::VecN`]), done component by component: `op` is given the
/// operands' component `c` and answers a packed register, or `None` when
/// it has no packed form (then so has the whole).
pub(super) fn per_component(
    fx: &mut FunctionCx<'_, '_>,
    vals: &[&LVal],
    n: usize,
    mut op: impl FnMut(&mut FunctionCx<'_, '_>, &[LVal]) -> Option<Pk>,
) -> Option<LVal> {
    if !vals.iter().any(|v| matches!(v, LVal::VecN(_))) {
        return None;
    }
    let mut out = Vec::with_capacity(n);
    for c in 0..n {
        let parts: Vec<LVal> = vals
            .iter()
            .map(|v| component(v, c))
            .collect::<Option<_>>()?;
        out.push(op(fx, &parts)?);
    }
    Some(LVal::VecN(out))
}

/// `sqrt`, `rsqrt`, `fabs` and `exp` of packed `float`s: the library's own
/// formulas, four lanes to a register.
pub(super) fn packed_float_unary(fx: &mut FunctionCx<'_, '_>, name: &str, x: Pk) -> Option<Pk> {
    if !matches!(
        name,
        "sqrt" | "rsqrt" | "fabs" | "exp" | "native_exp" | "half_exp"
    ) {
        return None;
    }
    Some(x.map(fx, |fx, x| match name {
        "sqrt" => fx.b.ins().sqrt(x),
        "rsqrt" => {
            let r = fx.b.ins().sqrt(x);
            let one = fx.b.ins().f32const(1.0);
            let one = fx.b.ins().splat(types::F32X4, one);
            fx.b.ins().fdiv(one, r)
        }
        "fabs" => fx.b.ins().fabs(x),
        _ => crate::builtins::packed::exp_f32(fx, x),
    }))
}

impl LaneCx {
    pub(super) fn new_places(
        fx: &mut FunctionCx<'_, '_>,
        ty: &Type,
    ) -> Result<Vec<CPlace>, String> {
        let (t, n) = match ty {
            Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
            t => (clif_type(t).ok_or(FALLBACK)?, 1),
        };
        Ok((0..fx.step_lanes())
            .map(|_| CPlace::Var((0..n).map(|_| fx.b.declare_var(t)).collect()))
            .collect())
    }

    pub(super) fn local_ty<'p>(fx: &FunctionCx<'_, 'p>, l: u32) -> Type {
        fx.func.locals[l as usize].ty.clone()
    }

    /// Lane `k` of `v`.
    pub(crate) fn lane(fx: &mut FunctionCx<'_, '_>, v: &LVal, k: usize) -> CValue {
        match v {
            LVal::Uni(c) => c.clone(),
            LVal::Aff { base, step } => CValue::Scalar(if k == 0 {
                *base
            } else {
                fx.b.ins().iadd_imm_s(*base, step * k as i64)
            }),
            LVal::Lanes(l) => l[k].clone(),
            LVal::Vec(v) => CValue::Scalar(v.lane(fx, k)),
            LVal::VecN(c) => CValue::Lanes(c.iter().map(|v| v.lane(fx, k)).collect()),
        }
    }

    /// `v` (of a vector type of `n` components packed as `vt`) as one
    /// packed register per component, when it can be.
    pub(super) fn pack_n(
        fx: &mut FunctionCx<'_, '_>,
        v: &LVal,
        vt: types::Type,
        n: usize,
    ) -> Option<Vec<Pk>> {
        let lane_t = vt.lane_type();
        match v {
            LVal::VecN(c) if c.len() == n => Some(c.clone()),
            LVal::Uni(CValue::Lanes(l)) if l.len() == n => l
                .iter()
                .map(|x| (fx.b.func.dfg.value_type(*x) == lane_t).then(|| Pk::splat(fx, vt, *x)))
                .collect(),
            LVal::Lanes(ls) if ls.len() == fx.step_lanes() => {
                let mut comps: Vec<Pk> = Vec::with_capacity(n);
                for c in 0..n {
                    let mut xs = Vec::with_capacity(fx.step_lanes());
                    for l in ls {
                        let CValue::Lanes(cs) = l else { return None };
                        let x = *cs.get(c)?;
                        if fx.b.func.dfg.value_type(x) != lane_t {
                            return None;
                        }
                        xs.push(x);
                    }
                    comps.push(Pk::from_lanes(fx, vt, &xs));
                }
                Some(comps)
            }
            _ => None,
        }
    }

    /// `v` packed as `vt`, when it can be.
    pub(super) fn pack(fx: &mut FunctionCx<'_, '_>, v: &LVal, vt: types::Type) -> Option<Pk> {
        let lane_t = vt.lane_type();
        let scalar = |fx: &FunctionCx<'_, '_>, c: &CValue| match c {
            CValue::Scalar(x) if fx.b.func.dfg.value_type(*x) == lane_t => Some(*x),
            _ => None,
        };
        Some(match v {
            LVal::VecN(_) => return None,
            LVal::Vec(x) => *x,
            LVal::Uni(c) => {
                let x = scalar(fx, c)?;
                Pk::splat(fx, vt, x)
            }
            LVal::Aff { base, step } => {
                if lane_t != types::I32 || fx.b.func.dfg.value_type(*base) != types::I32 {
                    return None;
                }
                let b = fx.b.ins().splat(vt, *base);
                let regs: Vec<Value> = (0..fx.regs)
                    .map(|r| {
                        let bytes: Vec<u8> = (0..PER_REG as i64)
                            .flat_map(|j| {
                                let k = (r * PER_REG) as i64 + j;
                                (step.wrapping_mul(k) as i32).to_le_bytes()
                            })
                            .collect();
                        let c = fx.b.func.dfg.constants.insert(bytes.into());
                        let offsets = fx.b.ins().vconst(vt, c);
                        fx.b.ins().iadd(b, offsets)
                    })
                    .collect();
                Pk::of(&regs)
            }
            LVal::Lanes(l) => {
                let xs: Vec<Value> = l
                    .iter()
                    .map(|c| scalar(fx, c))
                    .collect::<Option<Vec<_>>>()?;
                if xs.len() != fx.step_lanes() {
                    return None;
                }
                Pk::from_lanes(fx, vt, &xs)
            }
        })
    }

    /// `a op b` over the step: affine where it stays affine, packed where
    /// an operand is packed and the operation has a packed form, else per lane.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn binop(
        fx: &mut FunctionCx<'_, '_>,
        op: BinOp,
        a: &LVal,
        b: &LVal,
        ty: &Type,
        rhs_ty: &Type,
        res_ty: &Type,
    ) -> Result<LVal, String> {
        if let Some(v) = Self::affine(fx, op, a, b, ty, rhs_ty, res_ty) {
            return Ok(v);
        }
        if let Some(v) = Self::packed_shift(fx, op, a, b, ty, res_ty) {
            return Ok(v);
        }
        // A vector shifted by counts the lanes share (hashcat's `u32x`
        // rotations): one packed shift per component.
        if let (BinOp::Shl | BinOp::Shr, Some((_, n)), Some(elem), true) =
            (op, packed_components(ty), ty.elem(), ty == res_ty)
        {
            let et = Type::Scalar(elem);
            let shifted = per_component(fx, &[a, b], n, |fx, c| {
                match Self::packed_shift(fx, op, &c[0], &c[1], &et, &et)? {
                    LVal::Vec(x) => Some(x),
                    _ => None,
                }
            });
            if let Some(v) = shifted {
                return Ok(v);
            }
        }
        if let (Some((vt, n)), true) = (
            packed_components(ty),
            ty == rhs_ty
                && ty == res_ty
                && (matches!(a, LVal::VecN(_) | LVal::Lanes(_))
                    || matches!(b, LVal::VecN(_) | LVal::Lanes(_))),
        ) {
            let packed = packed_op_exists(op, vt)
                .then(|| Some((Self::pack_n(fx, a, vt, n)?, Self::pack_n(fx, b, vt, n)?)))
                .flatten();
            if let Some((xs, ys)) = packed {
                let out = xs
                    .into_iter()
                    .zip(ys)
                    .map(|(x, y)| packed_op(fx, op, x, y))
                    .collect();
                return Ok(LVal::VecN(out));
            }
        }
        let any_packed = matches!(a, LVal::Vec(_)) || matches!(b, LVal::Vec(_));
        if let (true, Some(vt), Some(elem)) = (
            any_packed && ty == rhs_ty && matches!(res_ty, Type::Scalar(Scalar::Int)),
            packed_type(ty),
            ty.elem(),
        ) {
            // A comparison of packed values: int 0/1 per lane, packed.
            let fcc = match op {
                BinOp::Lt => Some((
                    FloatCC::LessThan,
                    IntCC::SignedLessThan,
                    IntCC::UnsignedLessThan,
                )),
                BinOp::Gt => Some((
                    FloatCC::GreaterThan,
                    IntCC::SignedGreaterThan,
                    IntCC::UnsignedGreaterThan,
                )),
                BinOp::Le => Some((
                    FloatCC::LessThanOrEqual,
                    IntCC::SignedLessThanOrEqual,
                    IntCC::UnsignedLessThanOrEqual,
                )),
                BinOp::Ge => Some((
                    FloatCC::GreaterThanOrEqual,
                    IntCC::SignedGreaterThanOrEqual,
                    IntCC::UnsignedGreaterThanOrEqual,
                )),
                BinOp::Eq => Some((FloatCC::Equal, IntCC::Equal, IntCC::Equal)),
                BinOp::Ne => Some((FloatCC::NotEqual, IntCC::NotEqual, IntCC::NotEqual)),
                _ => None,
            };
            if let (Some((f, si, ui)), Some(x), Some(y)) =
                (fcc, Self::pack(fx, a, vt), Self::pack(fx, b, vt))
            {
                let m = x.zip(y, fx, |fx, x, y| {
                    if vt == types::F32X4 {
                        fx.b.ins().fcmp(f, x, y)
                    } else if elem.is_signed() {
                        fx.b.ins().icmp(si, x, y)
                    } else {
                        fx.b.ins().icmp(ui, x, y)
                    }
                });
                return Ok(LVal::Vec(Self::mask_to_int(fx, m)));
            }
        }
        if let (true, Some(vt)) = (any_packed && ty == rhs_ty && ty == res_ty, packed_type(ty)) {
            let packed = packed_op_exists(op, vt)
                .then(|| Some((Self::pack(fx, a, vt)?, Self::pack(fx, b, vt)?)))
                .flatten();
            if let Some((x, y)) = packed {
                return Ok(LVal::Vec(packed_op(fx, op, x, y)));
            }
        }
        let mut out = Vec::with_capacity(fx.step_lanes());
        for k in 0..fx.step_lanes() {
            let x = Self::lane(fx, a, k);
            let y = Self::lane(fx, b, k);
            out.push(fx.binary(op, x, y, ty, rhs_ty, res_ty)?);
        }
        Ok(LVal::Lanes(out))
    }

    /// `a << n` or `a >> n` of packed `int`s or `uint`s by a count the
    /// lanes share (hashcat's rotations, `(a << n) | (a >> (32 - n))`): one
    /// packed shift, which takes the count modulo the lane's width as
    /// OpenCL C does (6.3.j).
    fn packed_shift(
        fx: &mut FunctionCx<'_, '_>,
        op: BinOp,
        a: &LVal,
        b: &LVal,
        ty: &Type,
        res_ty: &Type,
    ) -> Option<LVal> {
        let (BinOp::Shl | BinOp::Shr, LVal::Uni(CValue::Scalar(n)), LVal::Vec(_) | LVal::Lanes(_)) =
            (op, b, a)
        else {
            return None;
        };
        let vt = packed_type(ty).filter(|&vt| vt == types::I32X4 && ty == res_ty)?;
        let x = Self::pack(fx, a, vt)?;
        let signed = matches!(ty, Type::Scalar(Scalar::Int));
        Some(LVal::Vec(x.map(fx, |fx, x| {
            let ins = fx.b.ins();
            match (op, signed) {
                (BinOp::Shl, _) => ins.ishl(x, *n),
                (_, true) => ins.sshr(x, *n),
                _ => ins.ushr(x, *n),
            }
        })))
    }

    pub(super) fn convert(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        v: LVal,
        from: &Type,
        to: &Type,
    ) -> Result<LVal, String> {
        if from == to || is_aggregate(to) {
            return Ok(v);
        }
        if !matches!(v, LVal::Lanes(_) | LVal::Vec(_)) {
            return self.convert_new(fx, v, from, to);
        }
        // A conversion per lane: the same values again where they are
        // available (a place named twice, `LaneCx::remembered`).
        let what = format!("{from:?} -> {to:?}");
        let v2 = v.clone();
        let r = self.remembered(fx, what, &[&v2], |lc, fx| lc.convert_new(fx, v, from, to))?;
        // An integer widened as its signedness says keeps its order.
        if let (Type::Scalar(f), Type::Scalar(t)) = (from, to) {
            let keeps = f.is_integer()
                && t.is_integer()
                && *f != Scalar::Bool
                && f.is_signed() == t.is_signed()
                && t.size() >= f.size();
            if keeps && fx.pcx.check.bounds && self.is_rising(fx, &v2, f.is_signed()) {
                self.mark_rising(fx, &r, f.is_signed());
            }
        }
        Ok(r)
    }

    fn convert_new(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        v: LVal,
        from: &Type,
        to: &Type,
    ) -> Result<LVal, String> {
        if let (LVal::Vec(x), Type::Vector(_, n)) = (&v, to) {
            if packed_components(to).is_some() && from.elem() == to.elem() {
                // A scalar splatted to a vector: the same register per component.
                return Ok(LVal::VecN(vec![*x; *n as usize]));
            }
        }
        if let LVal::Vec(x) = v {
            match (from, to) {
                // The same bits.
                (
                    Type::Scalar(Scalar::Int | Scalar::UInt),
                    Type::Scalar(Scalar::Int | Scalar::UInt),
                ) => return Ok(LVal::Vec(x)),
                (Type::Scalar(Scalar::Int), Type::Scalar(Scalar::Float)) => {
                    return Ok(LVal::Vec(
                        x.map(fx, |fx, x| fx.b.ins().fcvt_from_sint(types::F32X4, x)),
                    ))
                }
                _ => {}
            }
        }
        match v {
            LVal::Uni(c) => Ok(LVal::Uni(fx.convert(c, from, to)?)),
            LVal::Aff { base, step }
                if (from.is_integer() || from.is_pointer())
                    && (to.is_integer() || to.is_pointer())
                    && !matches!(to, Type::Scalar(Scalar::Bool)) =>
            {
                // Wrapping narrows keep the lanes' spacing; widening
                // assumes no lane crosses the overflow boundary (module doc).
                let base = fx.convert(CValue::Scalar(base), from, to)?.scalar()?;
                Ok(LVal::Aff { base, step })
            }
            v => {
                let mut out = Vec::with_capacity(fx.step_lanes());
                for k in 0..fx.step_lanes() {
                    let x = Self::lane(fx, &v, k);
                    out.push(fx.convert(x, from, to)?);
                }
                Ok(LVal::Lanes(out))
            }
        }
    }

    /// `a op b` on affine and uniform integers, when it stays affine.
    pub(super) fn affine(
        fx: &mut FunctionCx<'_, '_>,
        op: BinOp,
        a: &LVal,
        b: &LVal,
        ty: &Type,
        rhs_ty: &Type,
        res_ty: &Type,
    ) -> Option<LVal> {
        if !ty.is_integer()
            || ty.is_vector()
            || res_ty != ty
            || rhs_ty != ty
            || matches!(ty, Type::Scalar(Scalar::Bool))
        {
            return None;
        }
        let uni = |v: &LVal| match v {
            LVal::Uni(CValue::Scalar(x)) => Some(*x),
            _ => None,
        };
        match (op, a, b) {
            (BinOp::Add, LVal::Aff { base, step }, o)
            | (BinOp::Add, o, LVal::Aff { base, step }) => match o {
                LVal::Aff { base: b2, step: s2 } => Some(LVal::Aff {
                    base: fx.b.ins().iadd(*base, *b2),
                    step: step.wrapping_add(*s2),
                }),
                o => uni(o).map(|u| LVal::Aff {
                    base: fx.b.ins().iadd(*base, u),
                    step: *step,
                }),
            },
            (BinOp::Sub, LVal::Aff { base, step }, o) => match o {
                LVal::Aff { base: b2, step: s2 } => Some(LVal::Aff {
                    base: fx.b.ins().isub(*base, *b2),
                    step: step.wrapping_sub(*s2),
                }),
                o => uni(o).map(|u| LVal::Aff {
                    base: fx.b.ins().isub(*base, u),
                    step: *step,
                }),
            },
            (BinOp::Sub, o, LVal::Aff { base, step }) => uni(o).map(|u| LVal::Aff {
                base: fx.b.ins().isub(u, *base),
                step: step.wrapping_neg(),
            }),
            (BinOp::Mul, LVal::Aff { base, step }, o)
            | (BinOp::Mul, o, LVal::Aff { base, step }) => {
                let c = fx.const_of(uni(o)?)?;
                Some(LVal::Aff {
                    base: fx.b.ins().imul_imm_s(*base, c),
                    step: step.wrapping_mul(c),
                })
            }
            _ => None,
        }
    }

    /// Components `lanes` of packed vector `v` (the fourth of a 3-vector
    /// reads as the first, as in the ordinary code generator).
    pub(super) fn swizzle(v: &LVal, lanes: &[u8], ty: &Type) -> Option<LVal> {
        let LVal::VecN(c) = v else { return None };
        let picked: Vec<Pk> = lanes
            .iter()
            .map(|&l| c.get(l as usize).or(c.first()).copied())
            .collect::<Option<_>>()?;
        Some(if ty.is_vector() {
            LVal::VecN(picked)
        } else {
            LVal::Vec(*picked.first()?)
        })
    }

    /// `mad`, `fma`, `min`, `max`, `fmin`, `fmax` and `clamp` of scalar
    /// `float`/`int`/`uint` arguments, one of them packed, and `rotate`
    /// (by a count the lanes share) and `bitselect` of `int`/`uint`: the
    /// library's own formulas, four lanes to a register (`None`: not one
    /// of those).
    pub(super) fn packed_builtin(
        fx: &mut FunctionCx<'_, '_>,
        f: &BuiltinFn,
        vals: &[LVal],
        tys: &[Type],
    ) -> Option<Pk> {
        let ty = tys.first()?;
        let vt = packed_type(ty)?;
        if f.ret != *ty
            || tys.iter().any(|t| t != ty)
            || !vals
                .iter()
                .any(|v| matches!(v, LVal::Vec(_) | LVal::Aff { .. }))
        {
            return None;
        }
        let float = vt == types::F32X4;
        let signed = ty.elem().is_some_and(|e| e.is_signed());
        let name = f.name.as_str();
        match (name, vals) {
            // Each lane's bits rotated by a count all lanes share: two
            // packed shifts by it (the count modulo 32, spec 6.15.3).
            ("rotate", [x, LVal::Uni(n)]) if !float => {
                let x = Self::pack(fx, x, vt)?;
                let n = n.scalar().ok()?;
                let counts = match fx.const_of(n) {
                    // A constant count (hashcat's): two shifts by
                    // immediates, no count moved into a vector register.
                    Some(c) => Err(c),
                    None => {
                        let n = fx.b.ins().band_imm_u(n, 31);
                        let m = fx.b.ins().ineg(n);
                        let m = fx.b.ins().band_imm_u(m, 31);
                        Ok((n, m))
                    }
                };
                return Some(x.map(fx, |fx, x| {
                    let (left, right) = match counts {
                        Err(c) => (
                            fx.b.ins().ishl_imm_s(x, c & 31),
                            fx.b.ins().ushr_imm_s(x, c.wrapping_neg() & 31),
                        ),
                        Ok((n, m)) => (fx.b.ins().ishl(x, n), fx.b.ins().ushr(x, m)),
                    };
                    fx.b.ins().bor(left, right)
                }));
            }
            // Each bit from `b` where `c`'s is set, else from `a`.
            ("bitselect", [a, b, c]) if !float => {
                let a = Self::pack(fx, a, vt)?;
                let b = Self::pack(fx, b, vt)?;
                let c = Self::pack(fx, c, vt)?;
                return Some(c.zip3(b, a, fx, |fx, c, b, a| fx.b.ins().bitselect(c, b, a)));
            }
            _ => {}
        }
        let known = match (name, vals.len()) {
            ("mad", 3) => float,
            // One rounding, as the scalar code's `fma` (an instruction
            // there too where the host has one; packed only then: without
            // it Cranelift calls the C library per element).
            ("fma", 3) => float && crate::codegen::host_has_fma(),
            ("fmin" | "fmax", 2) => float,
            ("min" | "max", 2) | ("clamp", 3) => true,
            _ => false,
        };
        if !known {
            return None;
        }
        let xs: Vec<Pk> = vals
            .iter()
            .map(|v| Self::pack(fx, v, vt))
            .collect::<Option<_>>()?;
        // The library's own min/max, on packed values.
        let minmax = |fx: &mut FunctionCx<'_, '_>, x: Value, y: Value, max: bool| {
            if float {
                crate::builtins::math::fmin_fmax(fx, x, y, max)
            } else {
                crate::builtins::integer::minmax(fx, signed, x, y, max)
            }
        };
        let third = *xs.get(2).unwrap_or(&xs[0]);
        Some(xs[0].zip3(xs[1], third, fx, |fx, x, y, z| match name {
            "mad" => crate::builtins::math::mad(fx, x, y, z),
            "fma" => fx.b.ins().fma(x, y, z),
            "max" | "fmax" => minmax(fx, x, y, true),
            "min" | "fmin" => minmax(fx, x, y, false),
            _ => {
                let m = minmax(fx, x, y, true);
                minmax(fx, m, z, false)
            }
        }))
    }
}
