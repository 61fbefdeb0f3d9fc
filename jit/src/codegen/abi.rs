//! Calling convention, kernel argument blocks and kernel entries.
//!
//! Every generated function takes `(item: i64, [sret: i64,] params…)`:
//! scalars and pointers by value, vectors as one parameter per lane,
//! structs and unions as the address of a copy the callee may not keep.
//! Results: scalars and pointers in a register, vectors and records through
//! `sret`.
//!
//! A kernel also gets two entries with the runtime's `EntryFn` signature
//! `(item, args)`: the *group entry* unpacks the argument block once and
//! loops over every local id of the group (z, y, x), calling the kernel for
//! each work-item; the *item entry* unpacks the arguments and calls the
//! kernel once (the coroutine strategy runs it per work-item). The argument
//! block holds each parameter at its natural alignment, in order, as
//! [`ArgInfo`] records.

use super::value::{clif_scalar, clif_type, flags, is_aggregate};
use super::{ProgramCx, MAX_WORK_GROUP_SIZE};
use crate::launch::{ArgInfo, ArgKind, KernelInfo};
use crate::lower::walk;
use crate::runtime::offsets;
use crate::sema::addrspace::AddrSpace;
use crate::sema::hir::{FuncId, Function};
use crate::sema::types::{Access, Records, Type};
use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{Linkage, Module};

// cl_kernel_arg_address_qualifier, cl_kernel_arg_access_qualifier and
// cl_kernel_arg_type_qualifier values (cl.h).
const ADDRESS_GLOBAL: u32 = 0x119B;
const ADDRESS_LOCAL: u32 = 0x119C;
const ADDRESS_CONSTANT: u32 = 0x119D;
const ADDRESS_PRIVATE: u32 = 0x119E;
const ACCESS_READ_ONLY: u32 = 0x11A0;
const ACCESS_WRITE_ONLY: u32 = 0x11A1;
const ACCESS_READ_WRITE: u32 = 0x11A2;
const ACCESS_NONE: u32 = 0x11A3;
const TYPE_CONST: u64 = 1 << 0;
const TYPE_RESTRICT: u64 = 1 << 1;
const TYPE_VOLATILE: u64 = 1 << 2;

/// Vector and record results are returned through a hidden pointer.
pub fn returns_via_sret(ret: &Type) -> bool {
    ret.is_vector() || is_aggregate(ret)
}

/// How many Cranelift parameters a parameter of type `ty` takes.
pub fn param_count(ty: &Type) -> usize {
    match ty {
        Type::Vector(_, n) => *n as usize,
        _ => 1,
    }
}

fn param_types(ty: &Type) -> Result<Vec<types::Type>, String> {
    Ok(match ty {
        Type::Vector(s, n) => vec![clif_scalar(*s); *n as usize],
        t if is_aggregate(t) => vec![types::I64],
        t => vec![clif_type(t).ok_or_else(|| format!("parameter of unsupported type {t:?}"))?],
    })
}

/// The Cranelift signature of a HIR function.
pub fn signature(
    module: &JITModule,
    _records: &Records,
    f: &Function,
) -> Result<Signature, String> {
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    if returns_via_sret(&f.ret) {
        sig.params.push(AbiParam::new(types::I64));
    } else if !f.ret.is_void() {
        let t =
            clif_type(&f.ret).ok_or_else(|| format!("'{}' returns an unsupported type", f.name))?;
        sig.returns.push(AbiParam::new(t));
    }
    for p in &f.params {
        for t in param_types(&p.ty)? {
            sig.params.push(AbiParam::new(t));
        }
    }
    Ok(sig)
}

/// Bytes of group-shared scratch at the start of the local arena of a
/// kernel that reaches a work-group collective built-in (one 8-byte slot
/// per work-item of the largest group). A kernel that reaches a sub-group
/// function has [`SUB_GROUP_TAGS_SIZE`] more after them.
pub const GROUP_SCRATCH_SIZE: u64 = 8 * MAX_WORK_GROUP_SIZE;

/// Bytes after the group scratch of a kernel that reaches a sub-group
/// function: the 32-bit call tags of the sub-group collectives, one per
/// work-item (`builtins/subgroup.rs`).
pub const SUB_GROUP_TAGS_SIZE: u64 = 4 * MAX_WORK_GROUP_SIZE;

/// Offsets of kernel-scope `local` variables in the local arena (by local
/// index) and the arena's used size; they start after the group scratch
/// when the kernel needs one.
pub fn local_layout(prog: &crate::sema::hir::Program, f: &Function) -> (Vec<Option<u64>>, u64) {
    let records = &prog.records;
    let fid = prog.functions.iter().position(|g| std::ptr::eq(g, f));
    let scratch =
        f.kernel.is_some() && fid.is_some_and(|i| walk::uses_collectives(prog, FuncId(i as u32)));
    let tags = scratch && fid.is_some_and(|i| walk::uses_sub_group_sync(prog, FuncId(i as u32)));
    let mut off = match (scratch, tags) {
        (true, true) => GROUP_SCRATCH_SIZE + SUB_GROUP_TAGS_SIZE,
        (true, false) => GROUP_SCRATCH_SIZE,
        _ => 0,
    };
    let offs = f
        .locals
        .iter()
        .map(|l| {
            if l.space != AddrSpace::Local || f.kernel.is_none() {
                return None;
            }
            off = off.next_multiple_of(records.align_of(&l.ty).max(1));
            let at = off;
            off += records.size_of(&l.ty).unwrap_or(0);
            Some(at)
        })
        .collect();
    (offs, off)
}

fn arg_info(records: &Records, p: &crate::sema::hir::Param, offset: &mut u32) -> ArgInfo {
    let (kind, size, align) = match &p.ty {
        Type::Pointer(_) => {
            let k = match p.space {
                AddrSpace::Global => ArgKind::GlobalPtr,
                AddrSpace::Constant => ArgKind::ConstantPtr,
                AddrSpace::Local => ArgKind::LocalPtr,
                _ => ArgKind::Unsupported,
            };
            (k, 8, 8)
        }
        Type::Image(..) => (ArgKind::Image, 8, 8),
        Type::Sampler => (ArgKind::Sampler, 4, 4),
        Type::Event | Type::Error => (ArgKind::Unsupported, 8, 8),
        t => {
            let size = records.size_of(t).unwrap_or(0) as u32;
            let align = records.align_of(t).max(1) as u32;
            (ArgKind::Value { size, align }, size, align)
        }
    };
    let at = offset.next_multiple_of(align);
    *offset = at + size;
    let address_qualifier = match (&p.ty, p.space) {
        (Type::Pointer(_), AddrSpace::Global) => ADDRESS_GLOBAL,
        (Type::Pointer(_), AddrSpace::Local) => ADDRESS_LOCAL,
        (Type::Pointer(_), AddrSpace::Constant) => ADDRESS_CONSTANT,
        // Image objects are always allocated from the global address space
        // (OpenCL C, "Global"); the Khronos CTS expects global for them.
        (Type::Image(..), _) => ADDRESS_GLOBAL,
        _ => ADDRESS_PRIVATE,
    };
    let access_qualifier = match (&p.ty, p.access) {
        (Type::Image(..), Some(Access::ReadOnly) | None) => ACCESS_READ_ONLY,
        (Type::Image(..), Some(Access::WriteOnly)) => ACCESS_WRITE_ONLY,
        (Type::Image(..), Some(Access::ReadWrite)) => ACCESS_READ_WRITE,
        _ => ACCESS_NONE,
    };
    let mut type_qualifier = 0;
    if p.ty.is_pointer() {
        if p.type_quals.konst || p.space == AddrSpace::Constant {
            type_qualifier |= TYPE_CONST;
        }
        if p.type_quals.restrict {
            type_qualifier |= TYPE_RESTRICT;
        }
        if p.type_quals.volatile {
            type_qualifier |= TYPE_VOLATILE;
        }
    }
    ArgInfo {
        kind,
        offset: at,
        name: p.name.clone(),
        type_name: p.type_name.clone(),
        address_qualifier,
        access_qualifier,
        type_qualifier,
    }
}

/// The kernel's `KernelInfo`; `may_wait`: whether a loop of it may wait
/// for another work-item (`lower::progress::waiting_loop`).
pub(crate) fn kernel_info(
    pcx: &ProgramCx<'_>,
    fid: FuncId,
    f: &Function,
    may_wait: bool,
) -> KernelInfo {
    let records = &pcx.prog.records;
    let mut offset = 0u32;
    let args: Vec<ArgInfo> = f
        .params
        .iter()
        .map(|p| arg_info(records, p, &mut offset))
        .collect();
    let args_size = offset.next_multiple_of(8);
    let (_, local_mem_size) = local_layout(pcx.prog, f);
    let private_mem_size = walk::private_bytes(pcx.prog, fid);
    let attrs = f
        .kernel
        .as_ref()
        .map(|k| k.attrs.clone())
        .unwrap_or_default();
    let max_work_group_size = attrs.reqd_work_group_size.map_or(MAX_WORK_GROUP_SIZE, |r| {
        (r[0] * r[1] * r[2]).min(MAX_WORK_GROUP_SIZE)
    });
    KernelInfo {
        name: f.name.clone(),
        args,
        args_size,
        local_mem_size,
        private_mem_size,
        reqd_work_group_size: attrs.reqd_work_group_size,
        work_group_size_hint: attrs.work_group_size_hint,
        vec_type_hint: attrs.vec_type_hint.clone(),
        attributes: f
            .kernel
            .as_ref()
            .map(|k| k.attr_string.clone())
            .unwrap_or_default(),
        uses_barriers: walk::uses_barrier(pcx.prog, fid),
        may_wait,
        max_work_group_size,
    }
}

/// Declare an entry `(item, args)` of kernel `f`.
pub(crate) fn declare_entry(
    module: &mut JITModule,
    f: &Function,
    index: usize,
    kind: &str,
) -> Result<cranelift_module::FuncId, String> {
    let mut sig = module.make_signature();
    sig.params.push(AbiParam::new(types::I64));
    sig.params.push(AbiParam::new(types::I64));
    module
        .declare_function(
            &format!("__cl{index}_{kind}_{}", f.name),
            Linkage::Local,
            &sig,
        )
        .map_err(|e| format!("declaring the entry of '{}': {e}", f.name))
}

/// Load the kernel's arguments from the argument block `block`, flattened
/// as the calling convention passes them.
pub(crate) fn unpack_args(
    b: &mut FunctionBuilder<'_>,
    item: Value,
    block: Value,
    f: &Function,
    args: &[ArgInfo],
) -> Result<Vec<Value>, String> {
    let mut vals = Vec::new();
    let mut local_mem = None;
    for (p, a) in f.params.iter().zip(args) {
        let off = a.offset as i32;
        match a.kind {
            ArgKind::GlobalPtr | ArgKind::ConstantPtr | ArgKind::Image => {
                vals.push(b.ins().load(types::I64, flags(), block, off))
            }
            ArgKind::Sampler => vals.push(b.ins().load(types::I32, flags(), block, off)),
            ArgKind::LocalPtr => {
                let base = *local_mem.get_or_insert_with(|| {
                    let g = b.ins().load(types::I64, flags(), item, offsets::ITEM_GROUP);
                    b.ins()
                        .load(types::I64, flags(), g, offsets::GROUP_LOCAL_MEM)
                });
                let o = b.ins().load(types::I64, flags(), block, off);
                vals.push(b.ins().iadd(base, o));
            }
            ArgKind::Value { .. } if is_aggregate(&p.ty) => {
                vals.push(b.ins().iadd_imm_s(block, i64::from(off)))
            }
            ArgKind::Value { .. } => match &p.ty {
                Type::Vector(s, n) => {
                    let t = clif_scalar(*s);
                    for i in 0..*n as i32 {
                        vals.push(b.ins().load(t, flags(), block, off + i * s.size() as i32));
                    }
                }
                t => {
                    let ct = clif_type(t).ok_or("unsupported kernel argument type")?;
                    vals.push(b.ins().load(ct, flags(), block, off));
                }
            },
            ArgKind::Unsupported => {
                for t in param_types(&p.ty)? {
                    vals.push(if t.is_int() {
                        b.ins().iconst(t, 0)
                    } else {
                        b.ins().f64const(0.0)
                    });
                }
            }
        }
    }
    Ok(vals)
}

/// The item entry: unpack the arguments and call the kernel once.
#[allow(clippy::too_many_arguments)]
pub(crate) fn item_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    index: usize,
    kernel_id: cranelift_module::FuncId,
    args: &[ArgInfo],
) -> Result<cranelift_module::FuncId, String> {
    let id = declare_entry(module, f, index, "item")?;
    ctx.clear();
    ctx.func.signature = module
        .declarations()
        .get_function_decl(id)
        .signature
        .clone();
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let kernel = module.declare_func_in_func(kernel_id, b.func);
    let start = b.create_block();
    b.append_block_params_for_function_params(start);
    b.switch_to_block(start);
    let (item, block) = (b.block_params(start)[0], b.block_params(start)[1]);
    let mut call_args = vec![item];
    call_args.extend(unpack_args(&mut b, item, block, f, args)?);
    b.ins().call(kernel, &call_args);
    b.ins().return_(&[]);
    b.seal_all_blocks();
    b.finalize(pcx.config);
    super::fx::define(module, pcx, ctx, &f.name, id)?;
    Ok(id)
}
