//! The group entry of a kernel without barriers: the kernel body inlined in
//! a loop nest over the work-items of the group (z, y, x), so running a group
//! costs one call from the runtime and no call per work-item.
//!
//! The loop counters are the local ids; the work-item functions read them
//! (and `group_id * enqueued_local_size + global_offset`, computed once per
//! group) from registers when the dimension is a constant. The ids are also
//! stored in the `ItemState` for functions the kernel calls. A `return` in the
//! body continues with the next work-item. `regions.rs` reuses the loop nest
//! for each region between barriers.

use super::fx::{define, setup_locals, FunctionCx};
use super::value::{flags, group_flags};
use super::{abi, lanes, ProgramCx};
use crate::launch::ArgInfo;
use crate::lower::{walk, Step};
use crate::runtime::offsets as o;
use crate::sema::hir::Function;
use cranelift_codegen::ir::{condcodes::IntCC, types, Block, InstBuilder, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;

/// The group's geometry, loaded once at entry.
#[derive(Clone, Copy)]
pub(crate) struct Geometry {
    pub sizes: [Value; 3],
    /// `group_id * enqueued_local_size + global_offset` per dimension.
    pub bases: [Value; 3],
}

impl FunctionCx<'_, '_> {
    pub(crate) fn load_geometry(&mut self) -> Geometry {
        let item = self.item;
        let g = self.group_ptr();
        let mut sizes = [item; 3];
        let mut bases = [item; 3];
        for d in 0..3 {
            let at = 8 * d as i32;
            sizes[d] = self
                .b
                .ins()
                .load(types::I64, group_flags(), g, o::GROUP_LOCAL_SIZE + at);
            let gid = self
                .b
                .ins()
                .load(types::I64, group_flags(), g, o::GROUP_GROUP_ID + at);
            let els = self.b.ins().load(
                types::I64,
                group_flags(),
                g,
                o::GROUP_ENQUEUED_LOCAL_SIZE + at,
            );
            let off = self
                .b
                .ins()
                .load(types::I64, group_flags(), g, o::GROUP_GLOBAL_OFFSET + at);
            let first = self.b.ins().imul(gid, els);
            bases[d] = self.b.ins().iadd(first, off);
        }
        Geometry { sizes, bases }
    }

    /// `for z { for y { for x { body } } }` over the group's work-items.
    /// `body` runs with the ids in `inline_ids` and the work-item's linear
    /// index (`(z * ly + y) * lx + x`, a counter carried by the loop, not
    /// recomputed per item); it may jump to the block it is given to continue
    /// with the next work-item.
    pub(crate) fn item_loop(
        &mut self,
        geo: Geometry,
        body: impl FnOnce(&mut Self, [Value; 3], Value, Block) -> Result<(), String>,
    ) -> Result<(), String> {
        self.item_loop_to(geo, None, body)
    }

    /// [`Self::item_loop`], with each row (dimension 0) ending at `x_end`
    /// when given (at most the group's size): the linear index is then
    /// computed from the ids.
    pub(crate) fn item_loop_to(
        &mut self,
        geo: Geometry,
        x_end: Option<Value>,
        body: impl FnOnce(&mut Self, [Value; 3], Value, Block) -> Result<(), String>,
    ) -> Result<(), String> {
        if self.pcx.schedule.is_some() {
            return self.scheduled_item_loop(geo, x_end, body);
        }
        let item = self.item;
        let exit = self.b.create_block();
        let headers = [
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        ];
        let latches = [
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        ];
        let ids: Vec<Value> = headers
            .iter()
            .map(|h| self.b.append_block_param(*h, types::I64))
            .collect();
        let zero = self.b.ins().iconst(types::I64, 0);
        // Items run in linear order and every item's turn ends at the
        // innermost latch, so counting there gives the linear index.
        let linear = self.b.declare_var(types::I64);
        self.b.def_var(linear, zero);
        self.b.ins().jump(headers[2], &[zero.into()]);
        self.terminated();
        for d in (0..3).rev() {
            self.enter(headers[d]);
            let end = match (d, x_end) {
                (0, Some(x)) => x,
                _ => geo.sizes[d],
            };
            let more = self.b.ins().icmp(IntCC::UnsignedLessThan, ids[d], end);
            let body_block = self.b.create_block();
            let out = if d == 2 { exit } else { latches[d + 1] };
            self.b.ins().brif(more, body_block, &[], out, &[]);
            self.terminated();
            self.enter(body_block);
            if self.store_item_ids {
                self.b
                    .ins()
                    .store(flags(), ids[d], item, o::ITEM_LOCAL_ID + 8 * d as i32);
            }
            if d > 0 {
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().jump(headers[d - 1], &[zero.into()]);
                self.terminated();
            }
        }
        let ids = [ids[0], ids[1], ids[2]];
        let saved = self.inline_ids.replace((ids, geo.bases));
        let lin = if x_end.is_some() {
            let zy = self.b.ins().imul(ids[2], geo.sizes[1]);
            let zy = self.b.ins().iadd(zy, ids[1]);
            let row = self.b.ins().imul(zy, geo.sizes[0]);
            self.b.ins().iadd(row, ids[0])
        } else {
            self.b.use_var(linear)
        };
        let saved_me = self.check_me;
        if self.store_item_ids && self.pcx.check.tracks() {
            // Checked races and uninit name the work-item by this (the
            // loop's accesses use the value, called functions the field).
            let me = self.b.ins().iadd_imm_s(lin, 1);
            self.b.ins().store(flags(), me, item, o::ITEM_CHECK_ME);
            self.check_me = Some(me);
        }
        let r = body(self, ids, lin, latches[0]);
        self.check_me = saved_me;
        self.inline_ids = saved;
        r?;
        self.jump(latches[0]);
        for d in 0..3 {
            self.enter(latches[d]);
            if d == 0 {
                let lin = self.b.use_var(linear);
                let lin = self.b.ins().iadd_imm_s(lin, 1);
                self.b.def_var(linear, lin);
            }
            let next = self.b.ins().iadd_imm_s(ids[d], 1);
            self.b.ins().jump(headers[d], &[next.into()]);
            self.terminated();
        }
        self.enter(exit);
        Ok(())
    }
}

/// Declare and start an entry `(item, args)` for kernel `f`: returns the
/// context (locals set up) and the unpacked argument values.
pub(crate) fn start_entry<'a, 'p>(
    module: &'a mut JITModule,
    pcx: &'a ProgramCx<'p>,
    ctx: &'a mut Context,
    fbc: &'a mut FunctionBuilderContext,
    f: &'p Function,
    id: cranelift_module::FuncId,
    args: &[ArgInfo],
) -> Result<(FunctionCx<'a, 'p>, Vec<Value>), String> {
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
    fx.store_item_ids = walk::needs_item_ids(f) || pcx.check.any_code();
    Ok((fx, vals))
}

/// Return, seal and define an entry.
pub(crate) fn finish_entry(mut fx: FunctionCx<'_, '_>) -> Result<(), String> {
    fx.b.ins().return_(&[]);
    fx.terminated();
    fx.b.seal_all_blocks();
    fx.b.finalize(fx.pcx.config);
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_group_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    index: usize,
    args: &[ArgInfo],
) -> Result<(cranelift_module::FuncId, lanes::Choice), String> {
    let body = f
        .body
        .as_ref()
        .ok_or_else(|| format!("kernel '{}' has no body", f.name))?;
    let id = abi::declare_entry(module, f, index, "group")?;
    let choice = lanes::choose(pcx, f, None, true, |plan| {
        let mut lanes_fbc = FunctionBuilderContext::new();
        lanes_entry(module, pcx, ctx, &mut lanes_fbc, f, id, args, plan)
    })?;
    if choice.step != Step::One {
        define(module, pcx, ctx, &f.name, id)?;
        return Ok((id, choice));
    }
    {
        let (mut fx, vals) = start_entry(module, pcx, ctx, fbc, f, id, args)?;
        let geo = fx.load_geometry();
        // Parameters the body never writes are bound once for the group
        // (structs in place in the argument block); the others per item.
        let written = walk::written_locals(f);
        fx.bind_params_where(&vals, &|l| !written.contains(&l), Some(&written))?;
        fx.item_loop(geo, |fx, _, _, next| {
            fx.return_to = Some(next);
            fx.uninit_clear();
            fx.bind_params_where(&vals, &|l| written.contains(&l), None)?;
            fx.block(body)
        })?;
        finish_entry(fx)?;
    }
    define(module, pcx, ctx, &f.name, id)?;
    Ok((id, choice))
}

/// The group entry of `f`'s variant for work-groups of one work-item
/// (`one_item_groups.rs`): a row of groups, several per step (their
/// number returned with the entry). `Err`: why the lanes refused it (then it is not defined: one group per step is what
/// the kernel's own entry does).
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_one_item_groups_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    f: &Function,
    index: usize,
    args: &[ArgInfo],
) -> Result<Result<(cranelift_module::FuncId, usize), String>, String> {
    let id = abi::declare_entry(module, f, index, "groups")?;
    let choice = lanes::choose(pcx, f, None, true, |plan| {
        let mut lanes_fbc = FunctionBuilderContext::new();
        lanes_entry(module, pcx, ctx, &mut lanes_fbc, f, id, args, plan)
    })?;
    if choice.step == Step::One {
        return Ok(Err(choice.refused.join("; ")));
    }
    define(module, pcx, ctx, &f.name, id)?;
    Ok(Ok((id, choice.items)))
}

/// The group entry running rows several work-items per step (`lanes/`).
#[allow(clippy::too_many_arguments)]
fn lanes_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    id: cranelift_module::FuncId,
    args: &[ArgInfo],
    plan: lanes::Plan,
) -> Result<(), String> {
    let body = f.body.as_ref().ok_or("no body")?;
    let (mut fx, vals) = start_entry(module, pcx, ctx, fbc, f, id, args)?;
    let geo = fx.load_geometry();
    let written = walk::written_locals(f);
    fx.bind_params_where(&vals, &|l| !written.contains(&l), Some(&written))?;
    fx.lanes_item_loop(
        geo,
        plan,
        |fx, lc, _| {
            fx.bind_params_where(&vals, &|l| written.contains(&l), None)?;
            lc.block(fx, body)
        },
        |fx, next, _| {
            fx.return_to = Some(next);
            fx.bind_params_where(&vals, &|l| written.contains(&l), None)?;
            fx.block(body)
        },
    )?;
    finish_entry(fx)
}
