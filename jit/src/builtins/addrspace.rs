//! The address-space functions of the generic address space (spec
//! 6.15.13): `to_global`, `to_local`, `to_private` and `get_fence`.
//!
//! Every pointer is a host address, so a generic pointer is classified by
//! range: first, inline, the current work-group's local arena
//! (`fx.local_range()`) and the current work-item's private memory
//! (`fx.private_ranges()`: its stack and its frame arena); an address in
//! neither is asked of the memory registry (`runtime::cranecl_address_space`:
//! buffers and program-scope variables are global, any group's local arena
//! local, the rest — other work-items' stacks — private). A conversion to
//! the wrong space gives NULL (and NULL stays NULL); `get_fence` answers
//! `CLK_LOCAL_MEM_FENCE` for local addresses and `CLK_GLOBAL_MEM_FENCE`
//! otherwise.

use crate::codegen::{CValue, FunctionCx};
use crate::runtime::{SPACE_GLOBAL, SPACE_LOCAL, SPACE_PRIVATE};
use crate::sema::builtins::BuiltinFn;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

/// `CLK_LOCAL_MEM_FENCE` and `CLK_GLOBAL_MEM_FENCE` (as sema declares them).
const LOCAL_FENCE: i64 = 1;
const GLOBAL_FENCE: i64 = 2;

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    let p = match args.first().map(CValue::scalar) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Some(Err(e)),
        None => return None,
    };
    let zero = fx.b.ins().iconst(types::I64, 0);
    let own_local = is_local(fx, p);
    let own_private = is_private(fx, p);
    let r = match f.name.as_str() {
        "to_local" => {
            let l = space_is(fx, p, own_local, own_private, SPACE_LOCAL);
            fx.b.ins().select(l, p, zero)
        }
        "to_private" => {
            let pr = space_is(fx, p, own_private, own_local, SPACE_PRIVATE);
            fx.b.ins().select(pr, p, zero)
        }
        "to_global" => {
            let own = fx.b.ins().bor(own_local, own_private);
            let never = fx.b.ins().iconst(types::I8, 0);
            let g = space_is(fx, p, never, own, SPACE_GLOBAL);
            fx.b.ins().select(g, p, zero)
        }
        "get_fence" => {
            let l = space_is(fx, p, own_local, own_private, SPACE_LOCAL);
            let lf = fx.b.ins().iconst(types::I32, LOCAL_FENCE);
            let gf = fx.b.ins().iconst(types::I32, GLOBAL_FENCE);
            fx.b.ins().select(l, lf, gf)
        }
        _ => return None,
    };
    Some(Ok(CValue::Scalar(r)))
}

/// Whether `p` is a non-NULL address in `space`: true when `yes` (the
/// inline range test that proves it), false when `no` (one that rules it
/// out) or `p` is NULL, else the registry's answer (a call, only then).
fn space_is(fx: &mut FunctionCx<'_, '_>, p: Value, yes: Value, no: Value, space: u32) -> Value {
    let (ask, done) = (fx.b.create_block(), fx.b.create_block());
    fx.b.append_block_param(done, types::I8);
    let null = fx.b.ins().icmp_imm_s(IntCC::Equal, p, 0);
    let settled = fx.b.ins().bor(yes, no);
    let settled = fx.b.ins().bor(settled, null);
    let known = fx.b.ins().band_not(yes, null);
    fx.b.ins().brif(settled, done, &[known.into()], ask, &[]);
    fx.terminated();
    fx.enter(ask);
    let f = crate::runtime::cranecl_address_space as *const u8;
    let r = fx.call_host(f, &[types::I64], &[types::I32], &[p])[0];
    let is = fx.b.ins().icmp_imm_s(IntCC::Equal, r, i64::from(space));
    fx.b.ins().jump(done, &[is.into()]);
    fx.terminated();
    fx.enter(done);
    fx.b.block_params(done)[0]
}

fn in_range(fx: &mut FunctionCx<'_, '_>, p: Value, (lo, hi): (Value, Value)) -> Value {
    let a = fx.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, p, lo);
    let b = fx.b.ins().icmp(IntCC::UnsignedLessThan, p, hi);
    fx.b.ins().band(a, b)
}

fn is_local(fx: &mut FunctionCx<'_, '_>, p: Value) -> Value {
    let r = fx.local_range();
    in_range(fx, p, r)
}

fn is_private(fx: &mut FunctionCx<'_, '_>, p: Value) -> Value {
    let [r0, r1] = fx.private_ranges();
    let a = in_range(fx, p, r0);
    let b = in_range(fx, p, r1);
    fx.b.ins().bor(a, b)
}
