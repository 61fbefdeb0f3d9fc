//! The value and place model (after rustc_codegen_cranelift's CValue/CPlace):
//! every expression produces a [`CValue`], every lvalue a [`CPlace`], and
//! loads and stores between them are written once, here.
//!
//! Representation of OpenCL C types in Cranelift:
//! - `bool`, `char`, `uchar` → `i8` (`bool` holds 0 or 1); `short`, `ushort`
//!   and `half` (its bits; arithmetic in `half.rs`) → `i16`; `int`, `uint` → `i32`; `long`,
//!   `ulong`, `size_t` and every pointer → `i64`; `float` → `f32`; `double` → `f64`.
//! - vectors → one value per lane (`CValue::Lanes`); in memory the lanes lie
//!   at element-size strides (a 3-vector occupies the storage of a 4-vector).
//! - structs, unions, arrays → always in memory: `CValue::Ref(address)`.

use super::fx::FunctionCx;
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::Variable;

/// An rvalue.
#[derive(Clone, Debug)]
pub enum CValue {
    /// No value (`void`).
    Void,
    /// A scalar or a pointer.
    Scalar(Value),
    /// A vector, one value per lane.
    Lanes(Vec<Value>),
    /// A struct, union or array, at this address (not to be written through).
    Ref(Value),
}

/// An lvalue.
#[derive(Clone, Debug)]
pub enum CPlace {
    /// A variable whose address is never taken: one Cranelift variable for a
    /// scalar or pointer, one per lane for a vector.
    Var(Vec<Variable>),
    /// Memory at this address.
    Addr(Value),
    /// Some lanes of a vector place (`v.zx`), in this order.
    Lanes(Box<CPlace>, Vec<u8>),
}

impl CValue {
    /// The single value of a scalar or pointer.
    pub fn scalar(&self) -> Result<Value, String> {
        match self {
            CValue::Scalar(v) => Ok(*v),
            CValue::Lanes(l) if l.len() == 1 => Ok(l[0]),
            other => Err(format!(
                "internal: expected a scalar value, found {other:?}"
            )),
        }
    }
    /// The lanes of a vector (a scalar is one lane).
    pub fn lanes(&self) -> Result<Vec<Value>, String> {
        match self {
            CValue::Scalar(v) => Ok(vec![*v]),
            CValue::Lanes(l) => Ok(l.clone()),
            other => Err(format!(
                "internal: expected a vector value, found {other:?}"
            )),
        }
    }
    /// The address of an aggregate.
    pub fn by_ref(&self) -> Result<Value, String> {
        match self {
            CValue::Ref(a) => Ok(*a),
            other => Err(format!("internal: expected an aggregate, found {other:?}")),
        }
    }
    /// A value from lanes: a vector, or a scalar when there is one lane.
    pub fn from_lanes(mut lanes: Vec<Value>) -> CValue {
        if lanes.len() == 1 {
            CValue::Scalar(lanes.remove(0))
        } else {
            CValue::Lanes(lanes)
        }
    }
}

/// The Cranelift type of a scalar.
pub fn clif_scalar(s: Scalar) -> types::Type {
    match s {
        Scalar::Bool | Scalar::Char | Scalar::UChar => types::I8,
        Scalar::Short | Scalar::UShort | Scalar::Half => types::I16,
        Scalar::Int | Scalar::UInt => types::I32,
        Scalar::Long | Scalar::ULong => types::I64,
        Scalar::Float => types::F32,
        Scalar::Double => types::F64,
    }
}

/// The Cranelift type of a value held in one register (scalars, pointers,
/// and the element of a vector); `None` for aggregates and `void`.
pub fn clif_type(ty: &Type) -> Option<types::Type> {
    match ty {
        Type::Scalar(s) | Type::Vector(s, _) | Type::Atomic(s) => Some(clif_scalar(*s)),
        Type::Pointer(_) | Type::Event | Type::Image(..) => Some(types::I64),
        Type::Sampler | Type::AtomicFlag => Some(types::I32),
        _ => None,
    }
}

/// Whether values of `ty` live in memory (structs, unions, arrays).
pub fn is_aggregate(ty: &Type) -> bool {
    matches!(ty, Type::Record(_) | Type::Array(..))
}

pub(crate) fn flags() -> MemFlagsData {
    MemFlagsData::new()
}

/// Flags for loads of the runtime's `GroupState` and of
/// `ItemState::group`: memory the runtime owns, aligned, valid and unchanged
/// for the whole call of a generated function. With `can_move` Cranelift
/// merges repeated loads and places each at its uses (so the geometry a
/// group entry loads at its start is reloaded in the work-item loop: a few
/// L1 loads per item, measured harmless, while the lower register pressure
/// speeds up region entries). Never use these for memory a kernel can reach
/// through a pointer of its own.
pub(crate) fn group_flags() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_aligned()
        .with_readonly()
        .with_can_move()
}

impl FunctionCx<'_, '_> {
    pub fn size_of(&self, ty: &Type) -> u64 {
        self.records().size_of(ty).unwrap_or(0)
    }
    pub fn align_of(&self, ty: &Type) -> u64 {
        self.records().align_of(ty)
    }

    /// A load of a work-item's frame (the region strategy's own copy of a
    /// local, always valid memory): unchecked and without a trap, so that
    /// Cranelift drops it where the piece never reads the value (a local
    /// the piece declares, `uint lid = get_local_id(0)`).
    pub(crate) fn load_frame(&mut self, addr: Value, ty: &Type) -> Result<CValue, String> {
        let fl = flags().with_notrap();
        match ty {
            Type::Vector(s, n) => {
                let t = clif_scalar(*s);
                let step = s.size() as i32;
                let lanes = (0..*n as i32)
                    .map(|i| self.b.ins().load(t, fl, addr, i * step))
                    .collect();
                Ok(CValue::Lanes(lanes))
            }
            t => match clif_type(t) {
                Some(ct) if !is_aggregate(t) => {
                    Ok(CValue::Scalar(self.b.ins().load(ct, fl, addr, 0)))
                }
                _ => self.unchecked(|fx| fx.load(addr, t)),
            },
        }
    }

    /// Read a value of type `ty` stored at `addr`.
    pub fn load(&mut self, addr: Value, ty: &Type) -> Result<CValue, String> {
        match ty {
            Type::Void => Ok(CValue::Void),
            Type::Vector(s, n) => {
                let t = clif_scalar(*s);
                let step = s.size() as i32;
                let oks = (0..*n as i32)
                    .filter_map(|i| self.uninit_mem(addr, i64::from(i * step), s.size(), false))
                    .collect();
                self.uninit_mem_read(oks);
                let lanes = (0..*n as i32)
                    .map(|i| {
                        let (a, off) = self.checked_addr(addr, i * step, s.size(), false, None);
                        self.b.ins().load(t, flags(), a, off)
                    })
                    .collect();
                Ok(CValue::Lanes(lanes))
            }
            t if is_aggregate(t) => Ok(CValue::Ref(addr)),
            t => {
                let ct =
                    clif_type(t).ok_or_else(|| format!("cannot load a value of type {t:?}"))?;
                let ok = self.uninit_mem(addr, 0, u64::from(ct.bytes()), false);
                self.uninit_mem_read(ok.into_iter().collect());
                let (a, off) = self.checked_addr(addr, 0, u64::from(ct.bytes()), false, None);
                Ok(CValue::Scalar(self.b.ins().load(ct, flags(), a, off)))
            }
        }
    }

    /// Write `val` of type `ty` to `addr`.
    pub fn store(&mut self, addr: Value, ty: &Type, val: &CValue) -> Result<(), String> {
        match (ty, val) {
            (Type::Void, _) => Ok(()),
            (Type::Vector(s, _), v) => {
                let step = s.size() as i32;
                for (i, l) in v.lanes()?.into_iter().enumerate() {
                    self.uninit_mem(addr, i as i64 * i64::from(step), s.size(), true);
                    let (a, off) =
                        self.checked_addr(addr, i as i32 * step, s.size(), true, Some(l));
                    self.b.ins().store(flags(), l, a, off);
                }
                Ok(())
            }
            (t, v) if is_aggregate(t) => {
                let src = v.by_ref()?;
                let size = self.size_of(t);
                self.uninit_mem(addr, 0, size, true);
                let (src, _) = self.checked_addr(src, 0, size, false, None);
                let (dst, _) = self.checked_addr(addr, 0, size, true, None);
                self.memmove(dst, src, size);
                Ok(())
            }
            (_, v) => {
                let x = v.scalar()?;
                let size = u64::from(self.b.func.dfg.value_type(x).bytes());
                self.uninit_mem(addr, 0, size, true);
                let (a, off) = self.checked_addr(addr, 0, size, true, Some(x));
                self.b.ins().store(flags(), x, a, off);
                Ok(())
            }
        }
    }

    /// Read a place.
    pub fn read_place(&mut self, place: &CPlace, ty: &Type) -> Result<CValue, String> {
        match place {
            CPlace::Var(vars) => {
                self.uninit_var_read(vars, None);
                let lanes: Vec<Value> = vars.iter().map(|v| self.b.use_var(*v)).collect();
                Ok(if ty.is_vector() {
                    CValue::Lanes(lanes)
                } else {
                    CValue::from_lanes(lanes)
                })
            }
            CPlace::Addr(a) => self.load(*a, ty),
            CPlace::Lanes(..) => {
                let n = ty.width() as usize;
                let lanes = (0..n)
                    .map(|i| self.read_lane(place, ty, i))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(CValue::from_lanes(lanes))
            }
        }
    }

    /// Write a place.
    pub fn write_place(&mut self, place: &CPlace, ty: &Type, val: &CValue) -> Result<(), String> {
        match place {
            CPlace::Var(vars) => {
                let lanes = val.lanes()?;
                if lanes.len() != vars.len() {
                    return Err("internal: lane count mismatch in assignment".into());
                }
                for (v, l) in vars.iter().zip(lanes) {
                    self.b.def_var(*v, l);
                    self.uninit_var_written(*v);
                }
                Ok(())
            }
            CPlace::Addr(a) => self.store(*a, ty, val),
            CPlace::Lanes(..) => {
                for (i, l) in val.lanes()?.into_iter().enumerate() {
                    self.write_lane(place, ty, i, l)?;
                }
                Ok(())
            }
        }
    }

    /// Lane `i` of a vector place whose element type is `ty`'s.
    fn read_lane(&mut self, place: &CPlace, ty: &Type, i: usize) -> Result<Value, String> {
        match place {
            // The undefined fourth lane of a 3-vector reads as the first.
            CPlace::Var(vars) => {
                let v = *vars
                    .get(i)
                    .or(vars.first())
                    .ok_or("internal: lane of an empty vector")?;
                self.uninit_var_read(&[v], Some(i.min(vars.len() - 1)));
                Ok(self.b.use_var(v))
            }
            CPlace::Addr(a) => {
                let s = ty.elem().ok_or("internal: lane of a non-vector")?;
                let ok = self.uninit_mem(*a, (i as u64 * s.size()) as i64, s.size(), false);
                self.uninit_mem_read(ok.into_iter().collect());
                let (a, off) =
                    self.checked_addr(*a, (i as u64 * s.size()) as i32, s.size(), false, None);
                Ok(self.b.ins().load(clif_scalar(s), flags(), a, off))
            }
            CPlace::Lanes(base, sel) => {
                let j = *sel.get(i).ok_or("internal: swizzle lane out of range")? as usize;
                self.read_lane(base, ty, j)
            }
        }
    }

    fn write_lane(&mut self, place: &CPlace, ty: &Type, i: usize, v: Value) -> Result<(), String> {
        match place {
            CPlace::Var(vars) => {
                // Writes to the undefined fourth lane of a 3-vector vanish.
                if let Some(var) = vars.get(i) {
                    self.b.def_var(*var, v);
                    self.uninit_var_written(*var);
                }
                Ok(())
            }
            CPlace::Addr(a) => {
                let s = ty.elem().ok_or("internal: lane of a non-vector")?;
                self.uninit_mem(*a, (i as u64 * s.size()) as i64, s.size(), true);
                let (a, off) =
                    self.checked_addr(*a, (i as u64 * s.size()) as i32, s.size(), true, Some(v));
                self.b.ins().store(flags(), v, a, off);
                Ok(())
            }
            CPlace::Lanes(base, sel) => {
                let j = *sel.get(i).ok_or("internal: swizzle lane out of range")? as usize;
                self.write_lane(base, ty, j, v)
            }
        }
    }

    /// The address of a place in memory.
    pub fn place_addr(&mut self, place: &CPlace) -> Result<Value, String> {
        match place {
            CPlace::Addr(a) => Ok(*a),
            CPlace::Lanes(base, sel) => {
                // `&v.s1` is illegal; `v.s1` of a vector in memory as an
                // address is only used for single lanes reached by pointers.
                let _ = (base, sel);
                Err("cannot take the address of a vector component".into())
            }
            CPlace::Var(_) => Err("internal: address of a register variable".into()),
        }
    }

    /// A zero of type `ty` (aggregates: a zeroed stack temporary).
    pub fn zero(&mut self, ty: &Type) -> Result<CValue, String> {
        Ok(match ty {
            Type::Void => CValue::Void,
            Type::Vector(s, n) => {
                let z = self.zero_scalar(clif_scalar(*s));
                CValue::Lanes(vec![z; *n as usize])
            }
            t if is_aggregate(t) => {
                let size = self.size_of(t);
                let align = self.align_of(t);
                let a = self.try_stack_temp(size, align)?;
                self.memset(a, 0, size);
                CValue::Ref(a)
            }
            t => {
                let ct = clif_type(t).unwrap_or(types::I64);
                CValue::Scalar(self.zero_scalar(ct))
            }
        })
    }

    pub fn zero_scalar(&mut self, t: types::Type) -> Value {
        match t {
            types::F32 => self.b.ins().f32const(0.0),
            types::F64 => self.b.ins().f64const(0.0),
            t => self.b.ins().iconst(t, 0),
        }
    }
}
