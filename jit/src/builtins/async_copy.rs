//! Async copies between global and local memory (spec 6.15.11):
//! `async_work_group_copy`, `async_work_group_strided_copy`,
//! `wait_group_events` and `prefetch`.
//!
//! On a CPU the copy is done synchronously, once per work-group: every
//! work-item calls the function with the same arguments, and the work-item
//! whose local linear id is 0 performs the whole copy (a host function).
//! `wait_group_events` is a work-group barrier (`fx.emit_barrier()`; codegen
//! runs kernels that call it with a barrier strategy), so when any
//! work-item passes it the copy is complete and visible to all. The event
//! returned is the one passed in, or a non-zero token. `prefetch` does
//! nothing.

use super::pointee;
use crate::codegen::{CValue, FunctionCx};
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::types::Type;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder};

/// Copy `n` elements of `size` bytes from `src` (every `src_stride`-th
/// element) to `dst` (every `dst_stride`-th element).
extern "C" fn strided_copy(
    dst: *mut u8,
    src: *const u8,
    n: u64,
    size: u64,
    dst_stride: u64,
    src_stride: u64,
) {
    if dst_stride == 1 && src_stride == 1 {
        // SAFETY: the kernel names n elements at both addresses (spec 6.15.11).
        unsafe { std::ptr::copy(src, dst, (n * size) as usize) };
        return;
    }
    for i in 0..n {
        // SAFETY: as above, element by element at the given strides.
        unsafe {
            std::ptr::copy(
                src.add((i * src_stride * size) as usize),
                dst.add((i * dst_stride * size) as usize),
                size as usize,
            )
        };
    }
}

/// The host functions of this module.
pub(super) fn symbols() -> Vec<(&'static str, *const u8)> {
    vec![("cranecl_strided_copy", strided_copy as *const u8)]
}

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    Some(match f.name.as_str() {
        "wait_group_events" => {
            fx.emit_barrier();
            Ok(CValue::Void)
        }
        "prefetch" => Ok(CValue::Void),
        "async_work_group_copy" | "async_work_group_strided_copy" => copy(fx, f, args, arg_tys),
        _ => return None,
    })
}

fn copy(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    let strided = f.name.ends_with("strided_copy");
    let dst = args[0].scalar()?;
    let src = args[1].scalar()?;
    let n = args[2].scalar()?;
    let elem = pointee(&arg_tys[0])?.clone();
    let size = fx.size_of(&elem);
    let one = fx.b.ins().iconst(types::I64, 1);
    // The local side is contiguous; the global side is strided.
    let to_local = matches!(&arg_tys[0], Type::Pointer(p) if p.space == crate::sema::addrspace::AddrSpace::Local);
    let (dst_stride, src_stride) = if strided {
        let s = args[3].scalar()?;
        if to_local {
            (one, s)
        } else {
            (s, one)
        }
    } else {
        (one, one)
    };
    let event = args[if strided { 4 } else { 3 }].scalar()?;
    // A literal `0` for "no event" arrives as the integer it was written as.
    let event = match fx.b.func.dfg.value_type(event) {
        types::I64 => event,
        _ => fx.b.ins().uextend(types::I64, event),
    };
    let lid_fn = BuiltinFn {
        name: "get_local_linear_id".into(),
        family: Family::WorkItem,
        ret: Type::SIZE_T,
        params: Vec::new(),
        variadic: false,
    };
    let lid = fx
        .emit_workitem(&lid_fn, &[])?
        .ok_or("internal: no local linear id")?
        .scalar()?;
    let first = fx.b.ins().icmp_imm_s(IntCC::Equal, lid, 0);
    let do_copy = fx.b.create_block();
    let done = fx.b.create_block();
    fx.b.ins().brif(first, do_copy, &[], done, &[]);
    fx.b.switch_to_block(do_copy);
    fx.b.seal_block(do_copy);
    let sz = fx.b.ins().iconst(types::I64, size as i64);
    fx.call_import(
        "cranecl_strided_copy",
        &[types::I64; 6],
        &[],
        &[dst, src, n, sz, dst_stride, src_stride],
    )?;
    fx.b.ins().jump(done, &[]);
    fx.b.switch_to_block(done);
    fx.b.seal_block(done);
    let none = fx.b.ins().icmp_imm_s(IntCC::Equal, event, 0);
    Ok(CValue::Scalar(fx.b.ins().select(none, one, event)))
}
