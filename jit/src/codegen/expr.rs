//! Expressions: [`FunctionCx::expr`] computes an rvalue, [`FunctionCx::place`]
//! locates an lvalue. The HIR has made every conversion explicit, so each arm
//! lowers exactly one construct.

use super::fx::{FunctionCx, IntCC};
use super::value::{clif_scalar, clif_type, is_aggregate, CPlace, CValue};
use crate::sema::hir::{BinOp, CastKind, Expr, ExprKind, FuncId, VarRef};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_module::Module;

impl FunctionCx<'_, '_> {
    /// Evaluate `e` to a value (an lvalue is read).
    pub(crate) fn expr(&mut self, e: &Expr) -> Result<CValue, String> {
        let outer = std::mem::replace(&mut self.cur_span, e.span);
        let r = self.expr_here(e);
        self.cur_span = outer;
        r
    }

    fn expr_here(&mut self, e: &Expr) -> Result<CValue, String> {
        if e.ty.is_error() {
            return Err("internal: an erroneous expression reached code generation".into());
        }
        if let Some((b, v)) = self.range_bound {
            if std::ptr::eq(b, e) {
                return Ok(CValue::Scalar(v));
            }
        }
        match &e.kind {
            // 42, 'a', 1.5f
            ExprKind::IntConst(v) => self.const_int(*v, &e.ty),
            ExprKind::FloatConst(f) => self.const_float(*f, &e.ty),
            // x, *p, s.f, v.xy as lvalues
            ExprKind::Var(_) | ExprKind::Deref(_) => {
                let p = self.place(e)?;
                self.read_place(&p, &e.ty)
            }
            ExprKind::Member(base, idx) => {
                if e.is_lvalue() || base.is_lvalue() {
                    let p = self.place(e)?;
                    return self.read_place(&p, &e.ty);
                }
                // f().x: a member of an rvalue record.
                let addr = self.expr(base)?.by_ref()?;
                let off = self.field_offset(&base.ty, *idx)?;
                let a = self.b.ins().iadd_imm_s(addr, off as i64);
                self.load(a, &e.ty)
            }
            ExprKind::Swizzle(base, lanes) => {
                if base.is_lvalue() {
                    let p = self.place(e)?;
                    return self.read_place(&p, &e.ty);
                }
                let v = self.expr(base)?.lanes()?;
                // `.hi`/`.odd` of a 3-vector name the undefined fourth lane:
                // it reads as the first.
                let picked = lanes
                    .iter()
                    .map(|&l| {
                        v.get(l as usize)
                            .or(v.first())
                            .copied()
                            .ok_or("swizzle of an empty vector")
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(if e.ty.is_vector() {
                    CValue::Lanes(picked)
                } else {
                    CValue::from_lanes(picked)
                })
            }
            ExprKind::Func(f) => Err(format!(
                "function '{}' used as a value",
                crate::lower::func_name(self.pcx.prog, *f)
            )),
            // -x, ~x, !x, +x
            ExprKind::Unary(op, a) => {
                let v = self.expr(a)?;
                self.unary(*op, v, &a.ty, &e.ty)
            }
            // a && b, a || b on scalars: short-circuit
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) if !e.ty.is_vector() => {
                self.short_circuit(*op == BinOp::LogAnd, a, b, &e.ty)
            }
            // a + b, a < b, ...
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                let ty = if b.ty.is_vector() && !a.ty.is_vector() {
                    &b.ty
                } else {
                    &a.ty
                };
                self.binary(*op, va, vb, ty, &b.ty, &e.ty)
            }
            // p + i, a[i]
            ExprKind::PtrAdd(a, b) => {
                let (p, i) = if a.ty.is_pointer() { (a, b) } else { (b, a) };
                let pv = self.expr(p)?.scalar()?;
                let iv = self.expr(i)?;
                let size = self.pointee_size(&p.ty);
                Ok(CValue::Scalar(self.ptr_offset(pv, iv, &i.ty, size, false)?))
            }
            // p - q
            ExprKind::PtrDiff(a, b) => {
                let x = self.expr(a)?.scalar()?;
                let y = self.expr(b)?.scalar()?;
                let d = self.b.ins().isub(x, y);
                let size = self.pointee_size(&a.ty).max(1);
                let s = self.b.ins().iconst(types::I64, size as i64);
                let q = self.b.ins().sdiv(d, s);
                Ok(CValue::Scalar(self.int_resize(
                    q,
                    types::I64,
                    clif_type(&e.ty).unwrap_or(types::I64),
                    true,
                )))
            }
            // p < q, p == NULL
            ExprKind::PtrCmp(op, a, b) => {
                let x = self.expr(a)?.scalar()?;
                let y = self.expr(b)?.scalar()?;
                let c = self.binop_scalar(*op, x, y, Scalar::ULong)?;
                Ok(CValue::Scalar(self.int_resize(
                    c,
                    types::I8,
                    clif_type(&e.ty).unwrap_or(types::I32),
                    false,
                )))
            }
            ExprKind::Assign {
                op,
                op_ty,
                lhs,
                rhs,
            } => self.assign(*op, op_ty, lhs, rhs),
            ExprKind::IncDec {
                inc,
                prefix,
                operand,
            } => self.inc_dec(*inc, *prefix, operand),
            ExprKind::Cond(c, a, b) => {
                if c.ty.is_vector() {
                    self.vector_select(c, a, b, &e.ty)
                } else {
                    self.conditional(c, a, b, &e.ty)
                }
            }
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Cast(kind, a) => self.cast(*kind, a, &e.ty),
            ExprKind::Call(f, args) => self.call(*f, args),
            ExprKind::Builtin(f, args) => self.builtin_call(f, args),
            // &x
            ExprKind::AddrOf(a) => {
                // &*p and &a[i] are p and a + i: `&a[N]` is legal, so no
                // subscript check.
                if let ExprKind::Deref(p) = &a.kind {
                    let v = self.expr(p)?;
                    // An element of an array variable whose index is known
                    // inside: an access through it needs no test
                    // (`atomic_inc(&bins[c])` with a `uchar c`).
                    if let (true, CValue::Scalar(at), ExprKind::PtrAdd(x, y)) =
                        (self.pcx.check.bounds, &v, &p.kind)
                    {
                        let (ptr, idx) = if x.ty.is_pointer() { (x, y) } else { (y, x) };
                        if let ExprKind::Cast(CastKind::ArrayToPointer, arr) = &ptr.kind {
                            if let Type::Array(_, Some(n)) = &arr.ty {
                                if super::check::rooted(arr) && self.index_known_inside(idx, *n) {
                                    let size = self.pointee_size(&ptr.ty);
                                    self.in_object.insert(*at, size);
                                }
                            }
                        }
                    }
                    return Ok(v);
                }
                let p = self.place(a)?;
                let addr = self.place_addr(&p)?;
                self.uninit_escape(addr);
                Ok(CValue::Scalar(addr))
            }
            // (float4)(a, b.xy, c)
            ExprKind::VectorLit(parts) => {
                let mut lanes = Vec::new();
                for p in parts {
                    let v = self.expr(p)?;
                    lanes.extend(v.lanes()?);
                }
                let n = e.ty.width() as usize;
                if lanes.len() == 1 && n > 1 {
                    lanes = vec![lanes[0]; n];
                }
                if lanes.len() != n {
                    return Err(format!(
                        "vector literal with {} components for a {n}-component vector",
                        lanes.len()
                    ));
                }
                Ok(CValue::Lanes(lanes))
            }
        }
    }

    /// Locate the lvalue `e`.
    pub(crate) fn place(&mut self, e: &Expr) -> Result<CPlace, String> {
        let outer = std::mem::replace(&mut self.cur_span, e.span);
        let r = self.place_here(e);
        self.cur_span = outer;
        r
    }

    fn place_here(&mut self, e: &Expr) -> Result<CPlace, String> {
        match &e.kind {
            ExprKind::Var(VarRef::Local(l)) => self
                .locals
                .get(l.0 as usize)
                .cloned()
                .ok_or_else(|| "unknown local variable".into()),
            ExprKind::Var(VarRef::Global(g)) => {
                let addr = *self
                    .pcx
                    .global_addrs
                    .get(g.0 as usize)
                    .ok_or("unknown program-scope variable")?;
                Ok(CPlace::Addr(self.b.ins().iconst(types::I64, addr as i64)))
            }
            ExprKind::Deref(p) => {
                if let Some(&a) = self.hoisted_addrs.get(&(&**p as *const Expr)) {
                    return Ok(CPlace::Addr(a));
                }
                if self.pcx.check.bounds || self.pcx.check.uninit {
                    if let Some(a) = self.checked_subscript(p)? {
                        return Ok(CPlace::Addr(a));
                    }
                }
                let a = self.expr(p)?.scalar()?;
                if self.range_proven.contains(&(&**p as *const Expr)) {
                    let size = self.pointee_size(&p.ty);
                    self.in_object.insert(a, size);
                }
                Ok(CPlace::Addr(a))
            }
            ExprKind::Member(base, idx) => {
                let addr = if base.is_lvalue() {
                    let p = self.place(base)?;
                    self.place_addr(&p)?
                } else {
                    self.expr(base)?.by_ref()?
                };
                let off = self.field_offset(&base.ty, *idx)?;
                let field = self.b.ins().iadd_imm_s(addr, off as i64);
                self.uninit_derive(addr, field);
                Ok(CPlace::Addr(field))
            }
            ExprKind::Swizzle(base, lanes) => {
                let p = self.place(base)?;
                Ok(CPlace::Lanes(Box::new(p), lanes.clone()))
            }
            ExprKind::Comma(a, b) => {
                self.expr(a)?;
                self.place(b)
            }
            _ if is_aggregate(&e.ty) => Ok(CPlace::Addr(self.expr(e)?.by_ref()?)),
            _ => Err("internal: expected an lvalue".into()),
        }
    }

    /// Checked mode: `a[i]` of an array object `T a[N]` (the address `p` is
    /// `a + i` with `a` decayed): the address with `i` checked against `N`
    /// (`bounds`), and known to lie in `a` (`uninit`: the subscript is not an
    /// escape of `a`'s address). `None` when `p` is not such a subscript.
    fn checked_subscript(&mut self, p: &Expr) -> Result<Option<Value>, String> {
        let ExprKind::PtrAdd(x, y) = &p.kind else {
            return Ok(None);
        };
        let (ptr, idx) = if x.ty.is_pointer() { (x, y) } else { (y, x) };
        let ExprKind::Cast(CastKind::ArrayToPointer, arr) = &ptr.kind else {
            return Ok(None);
        };
        let Type::Array(_, Some(n)) = &arr.ty else {
            return Ok(None);
        };
        let n = *n;
        // `ArrayToPointer` of `arr` without the escape.
        let outer = std::mem::replace(&mut self.cur_span, ptr.span);
        let base = self.place(arr).and_then(|pl| self.place_addr(&pl));
        self.cur_span = outer;
        let base = base?;
        let iv = self.expr(idx)?.scalar()?;
        let it = self.b.func.dfg.value_type(iv);
        let signed = idx.ty.elem().is_none_or(|s| s.is_signed());
        let wide = self.int_resize(iv, it, types::I64, signed);
        let checked = if self.pcx.check.bounds && !self.index_known_inside(idx, n) {
            let outer = std::mem::replace(&mut self.cur_span, arr.span);
            let checked = self.checked_index(wide, n);
            self.cur_span = outer;
            checked
        } else {
            wide
        };
        let size = self.pointee_size(&ptr.ty);
        let scaled = if size == 1 {
            checked
        } else {
            self.b.ins().imul_imm_s(checked, size as i64)
        };
        let elem = self.b.ins().iadd(base, scaled);
        self.uninit_derive(base, elem);
        if self.pcx.check.bounds && super::check::rooted(arr) {
            self.in_object.insert(elem, size);
        }
        Ok(Some(elem))
    }

    pub(crate) fn field_offset(&self, record: &Type, idx: usize) -> Result<u64, String> {
        let Type::Record(id) = record else {
            return Err("member of a non-record".into());
        };
        let def = self.records().get(*id);
        def.fields
            .get(idx)
            .map(|f| f.offset)
            .ok_or_else(|| "member index out of range".into())
    }

    pub(crate) fn pointee_size(&self, ptr: &Type) -> u64 {
        match ptr.pointee() {
            Some(p) if p.ty.is_void() => 1,
            Some(p) => self.size_of(&p.ty),
            None => 1,
        }
    }

    /// `p ± i * size` with `i` of integer type `ity`.
    fn ptr_offset(
        &mut self,
        p: Value,
        i: CValue,
        ity: &Type,
        size: u64,
        negate: bool,
    ) -> Result<Value, String> {
        let iv = i.scalar()?;
        let it = self.b.func.dfg.value_type(iv);
        let signed = ity.elem().is_none_or(|s| s.is_signed());
        let wide = self.int_resize(iv, it, types::I64, signed);
        let scaled = if size == 1 {
            wide
        } else {
            self.b.ins().imul_imm_s(wide, size as i64)
        };
        Ok(if negate {
            self.b.ins().isub(p, scaled)
        } else {
            self.b.ins().iadd(p, scaled)
        })
    }

    pub(crate) fn const_int(&mut self, v: i128, ty: &Type) -> Result<CValue, String> {
        Ok(match ty {
            Type::Scalar(s) if s.is_float() => return self.const_float(v as f64, ty),
            Type::Scalar(Scalar::Bool) => {
                CValue::Scalar(self.b.ins().iconst(types::I8, i64::from(v != 0)))
            }
            Type::Scalar(s) => CValue::Scalar(self.iconst(clif_scalar(*s), v)),
            Type::Vector(s, n) => {
                let x = self.const_int(v, &Type::Scalar(*s))?.scalar()?;
                CValue::Lanes(vec![x; *n as usize])
            }
            Type::Void => CValue::Void,
            t => CValue::Scalar(self.iconst(clif_type(t).unwrap_or(types::I64), v)),
        })
    }

    fn const_float(&mut self, f: f64, ty: &Type) -> Result<CValue, String> {
        Ok(match ty {
            Type::Scalar(Scalar::Float) => CValue::Scalar(self.b.ins().f32const(f as f32)),
            Type::Scalar(Scalar::Double) => CValue::Scalar(self.b.ins().f64const(f)),
            Type::Scalar(Scalar::Half) => {
                let bits = crate::builtins::host::to_half(f, 0);
                CValue::Scalar(self.b.ins().iconst(types::I16, i64::from(bits)))
            }
            Type::Scalar(_) => return self.const_int(f as i128, ty),
            Type::Vector(s, n) => {
                let x = self.const_float(f, &Type::Scalar(*s))?.scalar()?;
                CValue::Lanes(vec![x; *n as usize])
            }
            t => return Err(format!("floating constant of type {t:?}")),
        })
    }

    /// `a && b` / `a || b`: `b` only runs when it decides the result.
    fn short_circuit(
        &mut self,
        and: bool,
        a: &Expr,
        b: &Expr,
        ty: &Type,
    ) -> Result<CValue, String> {
        let t = clif_type(ty).unwrap_or(types::I32);
        let (rhs_b, end) = (self.b.create_block(), self.b.create_block());
        let res = self.b.append_block_param(end, t);
        let va = self.expr(a)?;
        let ca = self.truth(&va, &a.ty)?;
        let short = self.b.ins().iconst(t, i64::from(!and));
        if and {
            self.b.ins().brif(ca, rhs_b, &[], end, &[short.into()]);
        } else {
            self.b.ins().brif(ca, end, &[short.into()], rhs_b, &[]);
        }
        self.terminated();
        self.enter(rhs_b);
        let vb = self.expr(b)?;
        let cb = self.truth(&vb, &b.ty)?;
        let r = self.int_resize(cb, types::I8, t, false);
        self.b.ins().jump(end, &[r.into()]);
        self.terminated();
        self.enter(end);
        Ok(CValue::Scalar(res))
    }

    /// `c ? a : b` with a scalar condition: only the chosen arm runs.
    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, ty: &Type) -> Result<CValue, String> {
        let (ta, tb, end) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        let param_tys: Vec<types::Type> = match ty {
            Type::Void => vec![],
            Type::Vector(s, n) => vec![clif_scalar(*s); *n as usize],
            t if is_aggregate(t) => vec![types::I64],
            t => vec![clif_type(t).ok_or("conditional of unsupported type")?],
        };
        let params: Vec<Value> = param_tys
            .iter()
            .map(|t| self.b.append_block_param(end, *t))
            .collect();
        self.cond_branch(c, ta, tb)?;
        for (blk, arm) in [(ta, a), (tb, b)] {
            self.enter(blk);
            let v = self.expr(arm)?;
            let v = if is_aggregate(ty) || ty.is_void() {
                v
            } else {
                self.convert(v, &arm.ty, ty)?
            };
            let vals: Vec<Value> = match v {
                CValue::Void => vec![],
                CValue::Scalar(x) | CValue::Ref(x) => vec![x],
                CValue::Lanes(l) => l,
            };
            if vals.len() != params.len() {
                return Err("internal: arms of '?:' differ in shape".into());
            }
            let args: Vec<_> = vals.into_iter().map(Into::into).collect();
            self.b.ins().jump(end, &args);
            self.terminated();
        }
        self.enter(end);
        Ok(match ty {
            Type::Void => CValue::Void,
            Type::Vector(..) => CValue::Lanes(params),
            t if is_aggregate(t) => CValue::Ref(params[0]),
            _ => CValue::Scalar(params[0]),
        })
    }

    /// `c ? a : b` with a vector condition: lane `i` is `a[i]` where the
    /// most significant bit of `c[i]` is set (spec 6.3.i, as `select`).
    fn vector_select(&mut self, c: &Expr, a: &Expr, b: &Expr, ty: &Type) -> Result<CValue, String> {
        let vc = self.expr(c)?.lanes()?;
        let va = self.expr(a)?;
        let va = self.convert(va, &a.ty, ty)?.lanes()?;
        let vb = self.expr(b)?;
        let vb = self.convert(vb, &b.ty, ty)?.lanes()?;
        let mut out = Vec::new();
        for ((x, y), m) in va.into_iter().zip(vb).zip(vc) {
            let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, m, 0);
            out.push(self.b.ins().select(neg, x, y));
        }
        Ok(CValue::Lanes(out))
    }

    fn cast(&mut self, kind: CastKind, a: &Expr, to: &Type) -> Result<CValue, String> {
        use CastKind::*;
        match kind {
            LvalueToRvalue => {
                let p = self.place(a)?;
                self.read_place(&p, &a.ty)
            }
            ArrayToPointer => {
                let p = self.place(a)?;
                let addr = self.place_addr(&p)?;
                self.uninit_escape(addr);
                Ok(CValue::Scalar(addr))
            }
            FunctionToPointer => Err("function pointers are not supported".into()),
            NullToPointer => {
                self.expr(a)?;
                Ok(CValue::Scalar(self.b.ins().iconst(types::I64, 0)))
            }
            ToVoid => {
                // `(void)x;` (an unused variable silenced) reads nothing.
                let var = match &a.kind {
                    ExprKind::Cast(LvalueToRvalue, v) => v,
                    _ => a,
                };
                if !matches!(var.kind, ExprKind::Var(VarRef::Local(_))) {
                    self.expr(a)?;
                }
                Ok(CValue::Void)
            }
            NoOp | Bitcast | ToGeneric | FromGeneric => self.expr(a),
            IntToInt | IntToFloat | FloatToInt | FloatToFloat | VectorSplat | PointerToInt
            | IntToPointer => {
                let v = self.expr(a)?;
                self.convert(v, &a.ty, to)
            }
        }
    }

    /// `a = b`, `a op= b`.
    fn assign(
        &mut self,
        op: Option<BinOp>,
        op_ty: &Type,
        lhs: &Expr,
        rhs: &Expr,
    ) -> Result<CValue, String> {
        let place = self.place(lhs)?;
        let Some(op) = op else {
            let v = self.expr(rhs)?;
            let v = if is_aggregate(&lhs.ty) {
                v
            } else {
                self.convert(v, &rhs.ty, &lhs.ty)?
            };
            self.write_place(&place, &lhs.ty, &v)?;
            return Ok(v);
        };
        let outer = std::mem::replace(&mut self.cur_span, lhs.span);
        let (old, kept) = self.read_keeping_check(&place, &lhs.ty);
        self.cur_span = outer;
        let old = old?;
        let new = if lhs.ty.is_pointer() {
            // p += i, p -= i
            let iv = self.expr(rhs)?;
            let size = self.pointee_size(&lhs.ty);
            CValue::Scalar(self.ptr_offset(old.scalar()?, iv, &rhs.ty, size, op == BinOp::Sub)?)
        } else {
            let a = self.convert(old, &lhs.ty, op_ty)?;
            let b = self.expr(rhs)?;
            let shift = matches!(op, BinOp::Shl | BinOp::Shr);
            let (b, bty) = if shift {
                (b, rhs.ty.clone())
            } else {
                (self.convert(b, &rhs.ty, op_ty)?, op_ty.clone())
            };
            let b = if shift && op_ty.is_vector() && !bty.is_vector() {
                let n = op_ty.width() as usize;
                CValue::Lanes(vec![b.scalar()?; n])
            } else {
                b
            };
            let r = self.binary(op, a, b, op_ty, &bty, op_ty)?;
            self.convert(r, op_ty, &lhs.ty)?
        };
        self.write_reusing_check(&place, &lhs.ty, &new, kept)?;
        Ok(new)
    }

    /// `++x`, `x--`, ...
    fn inc_dec(&mut self, inc: bool, prefix: bool, operand: &Expr) -> Result<CValue, String> {
        let place = self.place(operand)?;
        let ty = operand.ty.clone();
        let outer = std::mem::replace(&mut self.cur_span, operand.span);
        let (old, kept) = self.read_keeping_check(&place, &ty);
        self.cur_span = outer;
        let old = old?;
        let new = if ty.is_pointer() {
            let p = old.scalar()?;
            let size = self.pointee_size(&ty) as i64;
            CValue::Scalar(self.b.ins().iadd_imm_s(p, if inc { size } else { -size }))
        } else {
            let s = ty.elem().ok_or("'++' on a non-arithmetic value")?;
            let one = self.const_int(1, &Type::Scalar(s))?.scalar()?;
            let op = if inc { BinOp::Add } else { BinOp::Sub };
            let mut lanes = Vec::new();
            for x in old.lanes()? {
                lanes.push(if s == Scalar::Bool {
                    // bool++ is 1; bool-- flips.
                    if inc {
                        one
                    } else {
                        self.b.ins().bxor_imm_s(x, 1)
                    }
                } else {
                    self.binop_scalar(op, x, one, s)?
                });
            }
            if ty.is_vector() {
                CValue::Lanes(lanes)
            } else {
                CValue::from_lanes(lanes)
            }
        };
        self.write_reusing_check(&place, &ty, &new, kept)?;
        Ok(if prefix { new } else { old })
    }

    /// A call of a user function.
    fn call(&mut self, f: FuncId, args: &[Expr]) -> Result<CValue, String> {
        let prog = self.pcx.prog;
        let callee = prog
            .functions
            .get(f.0 as usize)
            .ok_or("call of an unknown function")?;
        let id = self.pcx.func_ids[f.0 as usize]
            .ok_or_else(|| format!("function '{}' is declared but never defined", callee.name))?;
        let fref = self.module.declare_func_in_func(id, self.b.func);
        let mut call_args = vec![self.item];
        let sret = if super::abi::returns_via_sret(&callee.ret) {
            let size = self.size_of(&callee.ret);
            let align = self.align_of(&callee.ret);
            let slot = self.try_stack_temp(size, align)?;
            call_args.push(slot);
            Some(slot)
        } else {
            None
        };
        for (a, p) in args.iter().zip(&callee.params) {
            let v = self.expr(a)?;
            let v = if is_aggregate(&p.ty) {
                v
            } else {
                self.convert(v, &a.ty, &p.ty)?
            };
            match v {
                CValue::Scalar(x) | CValue::Ref(x) => call_args.push(x),
                CValue::Lanes(l) => call_args.extend(l),
                CValue::Void => return Err("void value passed as an argument".into()),
            }
        }
        // A function that reaches a sub-group collective: the item's call
        // path names this call site while it runs (`builtins/subgroup.rs`).
        let path = crate::lower::walk::uses_sub_group_sync(prog, f)
            .then(|| crate::builtins::enter_sub_group_call(self));
        let inst = self.b.ins().call(fref, &call_args);
        if let Some(old) = path {
            crate::builtins::leave_sub_group_call(self, old);
        }
        if let Some(slot) = sret {
            return self.load(slot, &callee.ret);
        }
        Ok(match self.b.inst_results(inst).first() {
            Some(v) => CValue::Scalar(*v),
            None => CValue::Void,
        })
    }

    /// A call of a built-in: arguments converted to the overload's
    /// parameter types, then the work-item functions here or the library.
    fn builtin_call(
        &mut self,
        f: &crate::sema::builtins::BuiltinFn,
        args: &[Expr],
    ) -> Result<CValue, String> {
        let mut vals = Vec::with_capacity(args.len());
        let mut tys = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let v = self.expr(a)?;
            match f.params.get(i) {
                Some(p) if !is_aggregate(p) && !p.is_error() && p.is_arithmetic() => {
                    vals.push(self.convert(v, &a.ty, p)?);
                    tys.push(p.clone());
                }
                _ => {
                    vals.push(v);
                    tys.push(a.ty.clone());
                }
            }
        }
        if let Some(v) = self.emit_workitem(f, &vals)? {
            return Ok(v);
        }
        crate::builtins::emit_builtin(self, f, &vals, &tys)
    }
}
