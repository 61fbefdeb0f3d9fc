//! Vector data loads and stores (spec 6.15.7): `vload<n>`, `vstore<n>`,
//! `vload_half[<n>]`, `vloada_half<n>`, `vstore_half[<n>][_<rounding>]`,
//! `vstorea_half<n>[_<rounding>]`, from and to any address space.
//!
//! `vload<n>(offset, p)` reads `n` elements at `p + offset * n` (no
//! alignment beyond the element's is assumed: the loads carry no `aligned`
//! flag). The `half` forms convert between the 16-bit storage format and
//! `float`/`double` with host functions (exact for loads; stores round by
//! the suffix, round-to-nearest-even by default); the `vloada`/`vstorea`
//! forms of 3 lanes step by 4 elements.

use super::{clif, elem, lanes, mem, result};
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Type;
use cranelift_codegen::ir::{types, InstBuilder, Value};

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    _arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some(emit_ls(fx, f, args))
}

fn emit_ls(fx: &mut FunctionCx<'_, '_>, f: &BuiltinFn, args: &[CValue]) -> Result<CValue, String> {
    let name = f.name.as_str();
    let load = name.starts_with("vload");
    let aligned = name.starts_with("vloada") || name.starts_with("vstorea");
    let half = name.contains("_half");
    let rounding = if name.ends_with("_rtz") {
        1
    } else if name.ends_with("_rtp") {
        2
    } else if name.ends_with("_rtn") {
        3
    } else {
        0
    };
    // The vector (load result or stored data) and its width.
    let vty = if load { &f.ret } else { &f.params[0] };
    let n = vty.width() as usize;
    let s = elem(vty)?;
    let (offset, ptr) = if load {
        (args[0].scalar()?, args[1].scalar()?)
    } else {
        (args[1].scalar()?, args[2].scalar()?)
    };
    let esize: i64 = if half { 2 } else { s.size() as i64 };
    let step = if aligned && n == 3 { 4 } else { n as i64 };
    let off = fx.b.ins().imul_imm_s(offset, step * esize);
    let base = fx.b.ins().iadd(ptr, off);
    // Checked mode: the whole vector's bytes at once.
    let (base, _) = fx.checked_addr(base, 0, n as u64 * esize as u64, !load, None);
    if load {
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let at = (i as i64 * esize) as i32;
            if half {
                let h = fx.b.ins().load(types::I16, mem(), base, at);
                out.push(fx.half_to_float(h));
            } else {
                out.push(fx.b.ins().load(clif(s), mem(), base, at));
            }
        }
        return Ok(result(&f.ret, out));
    }
    let data: Vec<Value> = lanes(&args[0], n)?;
    for (i, v) in data.into_iter().enumerate() {
        let at = (i as i64 * esize) as i32;
        if half {
            let h = fx.float_to_half(v, rounding);
            fx.b.ins().store(mem(), h, base, at);
        } else {
            fx.b.ins().store(mem(), v, base, at);
        }
    }
    Ok(CValue::Void)
}
