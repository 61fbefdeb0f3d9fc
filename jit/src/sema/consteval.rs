//! Constant folding of HIR expressions: integer constant expressions (array
//! sizes, case labels, enumerators, attribute arguments) and the initialisers
//! of program-scope and static variables, which become bytes plus
//! relocations (an address of another global plus an offset) — C99 6.6.
#![forbid(unsafe_code)]

use super::hir::{BinOp, CastKind, ConstInit, Expr, ExprKind, GlobalId, Init, Reloc, UnOp, VarRef};
use super::types::{Scalar, Type};
use super::Checker;

/// The largest offset at which a non-zero initialiser byte is stored.
const MAX_INIT_BYTES: usize = 1 << 30;

/// A folded value.
#[derive(Clone, Debug, PartialEq)]
pub enum CVal {
    Int(i128),
    Float(f64),
    /// The address of a global plus a byte offset.
    Addr(GlobalId, i64),
    Vector(Vec<CVal>),
}

/// Reduce an integer to the range of a scalar type (wraparound).
pub fn wrap(v: i128, s: Scalar) -> i128 {
    if s == Scalar::Bool {
        return (v != 0) as i128;
    }
    let bits = s.size() * 8;
    let m = v & ((1i128 << bits) - 1);
    if s.is_signed() && m >> (bits - 1) & 1 == 1 {
        m - (1i128 << bits)
    } else {
        m
    }
}

fn round_float(v: f64, s: Scalar) -> f64 {
    match s {
        Scalar::Float => v as f32 as f64,
        Scalar::Half => f64::from(crate::builtins::host::from_half(f64_to_half(v))),
        _ => v,
    }
}

impl Checker<'_> {
    /// The value of an integer constant expression.
    pub fn const_int(&self, e: &Expr) -> Option<i128> {
        match self.eval(e)? {
            CVal::Int(v) if e.ty.is_integer() => Some(v),
            _ => None,
        }
    }

    /// The value of an integer constant expression in C's strict sense
    /// (C99 6.6p6: integer operands only; a floating constant only as the
    /// immediate operand of a cast to an integer type; no variables) — for
    /// `case` labels, enumerators and `_Static_assert`.
    pub fn const_ice(&self, e: &Expr) -> Option<i128> {
        if is_ice(e) {
            self.const_int(e)
        } else {
            None
        }
    }

    /// Fold an expression; `None` when it is not constant.
    pub fn eval(&self, e: &Expr) -> Option<CVal> {
        let elem = e.ty.elem();
        Some(match &e.kind {
            ExprKind::IntConst(v) => CVal::Int(*v),
            ExprKind::FloatConst(v) => CVal::Float(*v),
            ExprKind::Cast(kind, inner) => return self.eval_cast(*kind, inner, &e.ty),
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                match (op, v, elem?) {
                    (UnOp::Plus, v, _) => v,
                    (UnOp::Neg, CVal::Int(v), s) => CVal::Int(wrap(-v, s)),
                    (UnOp::Neg, CVal::Float(v), _) => CVal::Float(-v),
                    (UnOp::BitNot, CVal::Int(v), s) => CVal::Int(wrap(!v, s)),
                    (UnOp::LogNot, CVal::Int(v), _) => CVal::Int((v == 0) as i128),
                    (UnOp::LogNot, CVal::Float(v), _) => CVal::Int((v == 0.0) as i128),
                    _ => return None,
                }
            }
            ExprKind::Binary(op, l, r) => {
                let s = l.ty.elem()?;
                let (a, b) = (self.eval(l)?, self.eval(r)?);
                match (a, b) {
                    (CVal::Int(a), CVal::Int(b)) => CVal::Int(int_binop(*op, a, b, s, elem?)?),
                    (CVal::Float(a), CVal::Float(b)) => float_binop(*op, a, b, s)?,
                    _ => return None,
                }
            }
            ExprKind::Cond(c, a, b) => {
                let c = match self.eval(c)? {
                    CVal::Int(v) => v != 0,
                    CVal::Float(v) => v != 0.0,
                    CVal::Addr(..) => true,
                    CVal::Vector(_) => return None,
                };
                return self.eval(if c { a } else { b });
            }
            ExprKind::Comma(..) => return None,
            ExprKind::AddrOf(x) => return self.eval_addr(x),
            ExprKind::PtrAdd(p, i) => {
                let CVal::Addr(g, off) = self.eval(p)? else {
                    return None;
                };
                let CVal::Int(i) = self.eval(i)? else {
                    return None;
                };
                let size = self.prog.records.size_of(&e.ty.pointee()?.ty)? as i64;
                CVal::Addr(
                    g,
                    off.checked_add(i64::try_from(i).ok()?.checked_mul(size)?)?,
                )
            }
            ExprKind::VectorLit(parts) => {
                let mut lanes = Vec::new();
                for p in parts {
                    match self.eval(p)? {
                        CVal::Vector(v) => lanes.extend(v),
                        v => lanes.push(v),
                    }
                }
                CVal::Vector(lanes)
            }
            _ => return None,
        })
    }

    fn eval_cast(&self, kind: CastKind, inner: &Expr, to: &Type) -> Option<CVal> {
        if kind == CastKind::ArrayToPointer {
            return self.eval_addr(inner);
        }
        if kind == CastKind::LvalueToRvalue {
            // Reading a const program-scope object with a constant
            // initialiser (`constant int b = a + 1;`), as clang folds it.
            return self.read_const_global(inner);
        }
        let v = self.eval(inner)?;
        let to_elem = to.elem();
        Some(match (kind, v) {
            (CastKind::NullToPointer, _) => CVal::Int(0),
            (CastKind::IntToPointer, CVal::Int(v)) => CVal::Int(v),
            (
                CastKind::Bitcast | CastKind::ToGeneric | CastKind::FromGeneric | CastKind::NoOp,
                v,
            ) => v,
            (CastKind::PointerToInt, CVal::Int(v)) => CVal::Int(wrap(v, to_elem?)),
            (CastKind::IntToInt, CVal::Int(v)) => CVal::Int(match to_elem {
                Some(s) => wrap(v, s),
                None => v, // sampler_t
            }),
            (CastKind::IntToFloat, CVal::Int(v)) => CVal::Float(round_float(v as f64, to_elem?)),
            (CastKind::FloatToInt, CVal::Float(v)) => {
                let s = to_elem?;
                if s == Scalar::Bool {
                    CVal::Int((v != 0.0) as i128)
                } else {
                    CVal::Int(wrap(v.trunc() as i128, s))
                }
            }
            (CastKind::FloatToFloat, CVal::Float(v)) => CVal::Float(round_float(v, to_elem?)),
            (
                CastKind::IntToInt
                | CastKind::IntToFloat
                | CastKind::FloatToInt
                | CastKind::FloatToFloat,
                CVal::Vector(lanes),
            ) => {
                let s = to_elem?;
                CVal::Vector(
                    lanes
                        .into_iter()
                        .map(|l| convert_lane(l, s))
                        .collect::<Option<_>>()?,
                )
            }
            (CastKind::VectorSplat, v) => {
                let v = convert_lane(v, to_elem?)?;
                CVal::Vector(vec![v; to.width() as usize])
            }
            _ => return None,
        })
    }

    fn read_const_global(&self, lv: &Expr) -> Option<CVal> {
        let CVal::Addr(g, off) = self.eval_addr(lv)? else {
            return None;
        };
        let glob = self.prog.globals.get(g.0 as usize)?;
        if !glob.quals.konst {
            return None;
        }
        let init = glob.init.as_ref()?;
        let s = lv.ty.elem().filter(|_| lv.ty.is_scalar())?;
        let n = s.size() as usize;
        let o = usize::try_from(off).ok()?;
        if init
            .relocs
            .iter()
            .any(|r| (r.offset as usize) < o + n && o < r.offset as usize + 8)
        {
            return None;
        }
        let b = init.bytes.get(o..o + n)?;
        let mut buf = [0u8; 8];
        buf[..n].copy_from_slice(b);
        let raw = u64::from_le_bytes(buf);
        Some(match s {
            Scalar::Float => CVal::Float(f64::from(f32::from_bits(raw as u32))),
            Scalar::Double => CVal::Float(f64::from_bits(raw)),
            Scalar::Half => CVal::Float(f64::from(crate::builtins::host::from_half(raw as u16))),
            s => CVal::Int(wrap(i128::from(raw), s)),
        })
    }

    /// The address of an lvalue made of globals, members and constant indices.
    fn eval_addr(&self, e: &Expr) -> Option<CVal> {
        match &e.kind {
            ExprKind::Var(VarRef::Global(g)) => Some(CVal::Addr(*g, 0)),
            ExprKind::Deref(p) => self.eval(p),
            ExprKind::Member(base, i) => {
                let CVal::Addr(g, off) = self.eval_addr(base)? else {
                    return None;
                };
                let Type::Record(r) = &base.ty else {
                    return None;
                };
                let f = self.prog.records.get(*r).fields.get(*i)?;
                Some(CVal::Addr(
                    g,
                    off.checked_add(i64::try_from(f.offset).ok()?)?,
                ))
            }
            _ => None,
        }
    }

    /// Serialise a global's initialiser; reports non-constant elements.
    pub fn fold_global_init(&mut self, ty: &Type, init: &Init) -> Option<ConstInit> {
        self.prog.records.size_of(ty)?;
        let mut out = ConstInit {
            bytes: Vec::new(),
            relocs: Vec::new(),
        };
        if self.write_init(ty, init, 0, &mut out) {
            Some(out)
        } else {
            None
        }
    }

    fn write_init(&mut self, ty: &Type, init: &Init, off: u64, out: &mut ConstInit) -> bool {
        match init {
            Init::Zero => true,
            Init::Expr(e) => {
                if e.ty.is_error() {
                    return false;
                }
                match self.eval(e) {
                    Some(v) => {
                        let ok = write_val(ty, &v, off, out);
                        if !ok {
                            self.error(
                                e.span,
                                "initializer element is not a compile-time constant",
                            );
                        }
                        ok
                    }
                    None => {
                        self.error(e.span, "initializer element is not a compile-time constant");
                        false
                    }
                }
            }
            Init::Array(items) => {
                let Some(elem) = ty.array_elem() else {
                    return false;
                };
                let esize = self.prog.records.size_of(elem).unwrap_or(0);
                let elem = elem.clone();
                items
                    .iter()
                    .enumerate()
                    .all(|(i, it)| self.write_init(&elem, it, off + i as u64 * esize, out))
            }
            Init::Struct(items) => {
                let Type::Record(r) = ty else { return false };
                let fields: Vec<_> = self
                    .prog
                    .records
                    .get(*r)
                    .fields
                    .iter()
                    .map(|f| (f.ty.clone(), f.offset))
                    .collect();
                items
                    .iter()
                    .zip(fields)
                    .all(|(it, (t, o))| self.write_init(&t, it, off + o, out))
            }
            Init::Union(i, it) => {
                let Type::Record(r) = ty else { return false };
                let Some(f) = self.prog.records.get(*r).fields.get(*i) else {
                    return false;
                };
                let (t, o) = (f.ty.clone(), f.offset);
                self.write_init(&t, it, off + o, out)
            }
        }
    }
}

fn is_ice(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntConst(_) => e.ty.is_integer(),
        ExprKind::Cast(CastKind::FloatToInt, inner) => {
            matches!(inner.kind, ExprKind::FloatConst(_))
        }
        ExprKind::Cast(CastKind::LvalueToRvalue, _) => false,
        ExprKind::Cast(_, inner) | ExprKind::Unary(_, inner) => e.ty.is_integer() && is_ice(inner),
        ExprKind::Binary(_, l, r) => e.ty.is_integer() && is_ice(l) && is_ice(r),
        ExprKind::Cond(c, a, b) => is_ice(c) && is_ice(a) && is_ice(b),
        _ => false,
    }
}

fn convert_lane(v: CVal, s: Scalar) -> Option<CVal> {
    Some(match (v, s.is_float()) {
        (CVal::Int(v), false) => CVal::Int(wrap(v, s)),
        (CVal::Int(v), true) => CVal::Float(round_float(v as f64, s)),
        (CVal::Float(v), false) => CVal::Int(wrap(v.trunc() as i128, s)),
        (CVal::Float(v), true) => CVal::Float(round_float(v, s)),
        _ => return None,
    })
}

fn write_scalar(s: Scalar, v: &CVal, off: u64, out: &mut ConstInit) -> bool {
    let n = s.size() as usize;
    let bytes: Vec<u8> = match (v, s) {
        (CVal::Int(v), s) if s.is_integer() => v.to_le_bytes()[..n].to_vec(),
        (CVal::Float(v), Scalar::Float) => (*v as f32).to_le_bytes().to_vec(),
        (CVal::Float(v), Scalar::Double) => v.to_le_bytes().to_vec(),
        (CVal::Float(v), Scalar::Half) => f64_to_half(*v).to_le_bytes().to_vec(),
        (CVal::Int(v), s) => return write_scalar(s, &CVal::Float(*v as f64), off, out),
        (CVal::Float(v), s) => return write_scalar(s, &CVal::Int(v.trunc() as i128), off, out),
        _ => return false,
    };
    // Only what is written is stored; the bytes before it that were never
    // written are zero.
    let Ok(o) = usize::try_from(off) else {
        return false;
    };
    if bytes.iter().all(|b| *b == 0) {
        return true;
    }
    if out.bytes.len() < o + n {
        if o + n > MAX_INIT_BYTES {
            return false;
        }
        out.bytes.resize(o + n, 0);
    }
    out.bytes[o..o + n].copy_from_slice(&bytes);
    true
}

fn write_val(ty: &Type, v: &CVal, off: u64, out: &mut ConstInit) -> bool {
    match (ty, v) {
        (Type::Pointer(_), CVal::Addr(g, a)) => {
            out.relocs.push(Reloc {
                offset: off,
                target: *g,
                addend: *a,
            });
            true
        }
        (Type::Pointer(_), CVal::Int(v)) => write_scalar(Scalar::ULong, &CVal::Int(*v), off, out),
        (Type::Scalar(s), v) if !matches!(v, CVal::Addr(..) | CVal::Vector(_)) => {
            write_scalar(*s, v, off, out)
        }
        (Type::Vector(s, _), CVal::Vector(lanes)) => lanes
            .iter()
            .enumerate()
            .all(|(i, l)| write_scalar(*s, l, off + i as u64 * s.size(), out)),
        (Type::Sampler, CVal::Int(v)) => write_scalar(Scalar::UInt, &CVal::Int(*v), off, out),
        // `global atomic_int x = ATOMIC_VAR_INIT(1);`: the value's bytes.
        (Type::Atomic(s), v) if !matches!(v, CVal::Addr(..) | CVal::Vector(_)) => {
            write_scalar(*s, v, off, out)
        }
        (Type::AtomicFlag, CVal::Int(v)) => write_scalar(Scalar::Int, &CVal::Int(*v), off, out),
        _ => false,
    }
}

/// `v` rounded to IEEE half (round to nearest even, straight from the
/// double: rounding through float first could round twice).
fn f64_to_half(v: f64) -> u16 {
    crate::builtins::host::to_half(v, 0)
}

fn int_binop(op: BinOp, a: i128, b: i128, s: Scalar, res: Scalar) -> Option<i128> {
    let bits = s.size() as u32 * 8;
    let v = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a.checked_mul(b)?,
        BinOp::Div => {
            if b == 0 {
                return None;
            }
            a / b
        }
        BinOp::Rem => {
            if b == 0 {
                return None;
            }
            a % b
        }
        // OpenCL: the shift count is taken modulo the width (spec 6.3.j).
        BinOp::Shl => a << (b.rem_euclid(bits as i128)),
        BinOp::Shr => {
            let n = b.rem_euclid(bits as i128);
            if s.is_signed() {
                a >> n
            } else {
                (a & ((1i128 << bits) - 1)) >> n
            }
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Lt => (a < b) as i128,
        BinOp::Gt => (a > b) as i128,
        BinOp::Le => (a <= b) as i128,
        BinOp::Ge => (a >= b) as i128,
        BinOp::Eq => (a == b) as i128,
        BinOp::Ne => (a != b) as i128,
        BinOp::LogAnd => (a != 0 && b != 0) as i128,
        BinOp::LogOr => (a != 0 || b != 0) as i128,
    };
    Some(wrap(v, res))
}

fn float_binop(op: BinOp, a: f64, b: f64, s: Scalar) -> Option<CVal> {
    let f = |v: f64| CVal::Float(round_float(v, s));
    let i = |c: bool| CVal::Int(c as i128);
    Some(match op {
        BinOp::Add => f(a + b),
        BinOp::Sub => f(a - b),
        BinOp::Mul => f(a * b),
        BinOp::Div => f(a / b),
        BinOp::Lt => i(a < b),
        BinOp::Gt => i(a > b),
        BinOp::Le => i(a <= b),
        BinOp::Ge => i(a >= b),
        BinOp::Eq => i(a == b),
        BinOp::Ne => i(a != b),
        BinOp::LogAnd => i(a != 0.0 && b != 0.0),
        BinOp::LogOr => i(a != 0.0 || b != 0.0),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_follows_twos_complement() {
        assert_eq!(wrap(256, Scalar::UChar), 0);
        assert_eq!(wrap(255, Scalar::Char), -1);
        assert_eq!(wrap(-1, Scalar::UInt), 0xffff_ffff);
    }

    #[test]
    fn half_rounding() {
        assert_eq!(f64_to_half(1.0), 0x3c00);
        assert_eq!(f64_to_half(-2.0), 0xc000);
        assert_eq!(f64_to_half(65504.0), 0x7bff);
        assert_eq!(f64_to_half(1e6), 0x7c00);
        // 1 + 2^-11 + 2^-40 is just above the tie between 1 and 1 + 2^-10:
        // it rounds up, where rounding to float first makes it the tie (even: 1).
        assert_eq!(f64_to_half(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
    }
}
