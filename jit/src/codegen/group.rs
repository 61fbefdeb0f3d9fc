//! The group entry of a kernel without barriers: the kernel body inlined in
//! a loop nest over the work-items of the group (z, y, x), so running a group
//! costs one call from the runtime and no call per work-item.
//!
//! The loop counters are the local ids; the work-item functions read them
//! (and `group_id * enqueued_local_size + global_offset`, computed once per
//! group) from registers when the dimension is a constant. The ids are also
//! stored in the `ItemState` for functions the kernel calls. A `return` in the
//! body continues with the next work-item.

use super::fx::{define, setup_locals, FunctionCx};
use super::value::flags;
use super::{abi, ProgramCx};
use crate::launch::ArgInfo;
use crate::runtime::offsets as o;
use crate::sema::hir::Function;
use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;

#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_group_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    index: usize,
    args: &[ArgInfo],
) -> Result<cranelift_module::FuncId, String> {
    let body = f
        .body
        .as_ref()
        .ok_or_else(|| format!("kernel '{}' has no body", f.name))?;
    let id = abi::declare_entry(module, f, index, "group")?;
    ctx.clear();
    ctx.func.signature = cranelift_module::Module::declarations(module)
        .get_function_decl(id)
        .signature
        .clone();
    let b = FunctionBuilder::new(&mut ctx.func, fbc);
    let (mut fx, params) = FunctionCx::new(b, module, pcx, f);
    let item = fx.item;
    let vals = abi::unpack_args(&mut fx.b, item, params[1], f, args)?;
    setup_locals(&mut fx, f)?;

    // The group's geometry, once.
    let g = fx.b.ins().load(types::I64, flags(), item, o::ITEM_GROUP);
    let mut sizes = [item; 3];
    let mut bases = [item; 3];
    for d in 0..3 {
        let at = 8 * d as i32;
        sizes[d] =
            fx.b.ins()
                .load(types::I64, flags(), g, o::GROUP_LOCAL_SIZE + at);
        let gid =
            fx.b.ins()
                .load(types::I64, flags(), g, o::GROUP_GROUP_ID + at);
        let els =
            fx.b.ins()
                .load(types::I64, flags(), g, o::GROUP_ENQUEUED_LOCAL_SIZE + at);
        let off =
            fx.b.ins()
                .load(types::I64, flags(), g, o::GROUP_GLOBAL_OFFSET + at);
        let first = fx.b.ins().imul(gid, els);
        bases[d] = fx.b.ins().iadd(first, off);
    }

    // for z { for y { for x { body } } }
    let exit = fx.b.create_block();
    let headers = [
        fx.b.create_block(),
        fx.b.create_block(),
        fx.b.create_block(),
    ];
    let latches = [
        fx.b.create_block(),
        fx.b.create_block(),
        fx.b.create_block(),
    ];
    let ids: Vec<Value> = headers
        .iter()
        .map(|h| fx.b.append_block_param(*h, types::I64))
        .collect();
    let zero = fx.b.ins().iconst(types::I64, 0);
    fx.b.ins().jump(headers[2], &[zero.into()]);
    fx.terminated();
    for d in (0..3).rev() {
        fx.enter(headers[d]);
        let more = fx.b.ins().icmp(IntCC::UnsignedLessThan, ids[d], sizes[d]);
        let body_block = fx.b.create_block();
        let out = if d == 2 { exit } else { latches[d + 1] };
        fx.b.ins().brif(more, body_block, &[], out, &[]);
        fx.terminated();
        fx.enter(body_block);
        fx.b.ins()
            .store(flags(), ids[d], item, o::ITEM_LOCAL_ID + 8 * d as i32);
        if d > 0 {
            let zero = fx.b.ins().iconst(types::I64, 0);
            fx.b.ins().jump(headers[d - 1], &[zero.into()]);
            fx.terminated();
        }
    }
    fx.return_to = Some(latches[0]);
    fx.inline_ids = Some(([ids[0], ids[1], ids[2]], bases));
    fx.bind_params(&vals)?;
    fx.block(body)?;
    fx.jump(latches[0]);
    for d in 0..3 {
        fx.enter(latches[d]);
        let next = fx.b.ins().iadd_imm_s(ids[d], 1);
        fx.b.ins().jump(headers[d], &[next.into()]);
        fx.terminated();
    }
    fx.enter(exit);
    fx.b.ins().return_(&[]);
    fx.terminated();
    fx.b.seal_all_blocks();
    fx.b.finalize(pcx.config);
    define(module, pcx, ctx, &f.name, id)?;
    Ok(id)
}
