//! The function context: everything needed while one HIR function is being
//! lowered — the Cranelift builder, the module (to call other functions),
//! where each local variable lives, and the targets of `break`, `continue`,
//! `goto` and `case`.
//!
//! Locals: a scalar or vector whose address is never taken becomes Cranelift
//! variables (one per lane); anything else (arrays, records, `&x`) gets a
//! stack slot; kernel-scope `local` variables live at fixed offsets in the
//! work-group's local arena.
//!
//! Block discipline: after every terminator the context opens a fresh,
//! sealed, unreachable block, so statements after `return`/`break`/`goto`
//! still have somewhere to go; [`FunctionCx::enter`] falls through into a
//! block by jumping to it when the current block is still open.

use super::value::{clif_scalar, clif_type, is_aggregate, CPlace, CValue};
use super::{abi, ProgramCx};
use crate::lower::walk;
use crate::runtime::offsets;
use crate::sema::addrspace::AddrSpace;
use crate::sema::hir::{Function, Stmt};
use crate::sema::types::{Records, Type};
use cranelift_codegen::ir::{
    self, types, AbiParam, Block, InstBuilder, StackSlotData, StackSlotKind, Value,
};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use std::collections::HashMap;

/// Largest private object (variable or temporary) a function may have.
pub const MAX_PRIVATE_OBJECT: u64 = 16 << 20;

/// The alignment Cranelift keeps the native stack at (x86-64 System V).
const STACK_ALIGN: u64 = 16;

/// The context of one function being compiled.
pub struct FunctionCx<'a, 'p> {
    pub b: FunctionBuilder<'a>,
    pub module: &'a mut JITModule,
    pub(crate) pcx: &'a ProgramCx<'p>,
    pub func: &'p Function,
    /// The `ItemState` pointer every function receives first.
    pub item: Value,
    /// Where a vector or record result is written.
    pub(crate) sret: Option<Value>,
    pub(crate) locals: Vec<CPlace>,
    pub(crate) labels: HashMap<String, Block>,
    /// Innermost last: (break target, continue target).
    pub(crate) breaks: Vec<Block>,
    pub(crate) continues: Vec<Block>,
    /// The `goto`s of this function taken under a condition that depends
    /// on other work-items (`lower::progress::waiting_gotos`), found at the
    /// first `goto`.
    pub(crate) waiting_gotos: Option<std::collections::HashSet<*const Stmt>>,
    /// Blocks of the `case`/`default` statements of the switches being compiled.
    pub(crate) cases: HashMap<*const Stmt, Block>,
    /// The current block ends in a terminator.
    filled: bool,
    /// The last unreachable block opened after a terminator.
    dead: Option<Block>,
    /// In a group entry: where `return` goes (the next work-item).
    pub(crate) return_to: Option<Block>,
    /// In a group entry: the local ids (loop counters) and
    /// `group_id * enqueued_local_size + global_offset` of each dimension.
    pub(crate) inline_ids: Option<([Value; 3], [Value; 3])>,
    /// Work-item loops store the local ids in the `ItemState` (for callees,
    /// built-ins and work-item functions of a run-time dimension).
    pub(crate) store_item_ids: bool,
    /// Region strategy: the current work-item's "has returned" flag.
    pub(crate) region_done: Option<Value>,
    /// The expression being compiled (checked mode names it in reports).
    pub(crate) cur_span: crate::source::Span,
    /// Region strategy, checked uninit: the flags of the piece's frame
    /// locals and where they go back in the frame.
    pub(crate) region_flags: Vec<(cranelift_frontend::Variable, Value)>,
    /// Checked races/uninit: the work-item's local linear id + 1 inside a
    /// group entry's work-item loop (elsewhere it is loaded).
    pub(crate) check_me: Option<Value>,
    /// Checked races/uninit in the lanes: the step's first work-item's
    /// local linear id + 1 (lane `k`'s is this + `k`).
    pub(crate) lanes_me0: Option<Value>,
    /// Checked races/uninit in the lanes, a compound assignment: the
    /// verdict of its read (the write's tags stored already when true) and
    /// the write's site, which the read made (`FunctionCx::tracked_lanes`).
    pub(crate) kept_tracked: Option<(Value, u32)>,
    /// Blocks entered only from one earlier block's test, each to that
    /// block (the join of `bounds_lanes`' two paths): what was computed
    /// there is available here (`FunctionCx::made_before`).
    pub(crate) joined_from: HashMap<cranelift_codegen::ir::Block, cranelift_codegen::ir::Block>,
    /// Checked races/uninit in the lanes: the next `tracked_lanes` takes
    /// this test of the same four places by an earlier access of the step
    /// (its `outside` and the entry it tested against) instead of its own
    /// ...
    pub(crate) lanes_reuse: Option<(Value, i32)>,
    /// ... and the test the last `tracked_lanes` made, for later ones.
    pub(crate) lanes_tested: Option<(Value, i32)>,
    /// Checked `bounds` in a lanes step: the item's local id is lane 0's,
    /// and reports name lane `k` relative to it (`lane_me`).
    pub(crate) lanes_rel: bool,
    /// The next site is a lanes access (one granule per lane).
    pub(crate) site_lanes: bool,
    /// Loads and stores go unchecked: checked already
    /// (`FunctionCx::checked_lanes`) or the code generator's own
    /// (`FunctionCx::unchecked`).
    pub(crate) prechecked: bool,
    /// `bounds` alone, a compound assignment's read of its place: the
    /// address whose read check to keep, and what the check found (the
    /// address, the size, the fast path's `ok`); its write reuses it
    /// (`FunctionCx::read_keeping_check`).
    pub(crate) keep_read: Option<Value>,
    pub(crate) kept_ok: super::check::Kept,
    /// Checked `bounds`: addresses from which an access of at most this
    /// many bytes cannot leave its object (an element of an array variable
    /// whose subscripts were checked: `check::rooted`); their accesses
    /// need no test.
    pub(crate) in_object: HashMap<Value, u64>,
    /// The same for the lanes: the first lane's address of elements `step`
    /// apart (the element size), every lane's inside its object.
    pub(crate) in_object_lanes: std::collections::HashSet<Value>,
    /// The 128-bit registers of each packed value of the lanes step being
    /// emitted (`lanes::Plan::regs`): four work-items per register.
    pub(crate) regs: usize,
    /// Checked `bounds`: the counted loops being compiled, innermost last:
    /// a local and the range `[lo, hi)` its value lies in
    /// (`walk::counted_loop`).
    pub(crate) counted: Vec<(u32, i128, i128)>,
    /// Checked `bounds`: array subscripts whose index does not change in the
    /// loop being compiled and was found inside before it (by the index
    /// expression; `LaneCx::invariant_inside`).
    pub(crate) invariant_inside: std::collections::HashSet<*const crate::sema::hir::Expr>,
    /// Checked `bounds`: the addresses of a loop condition's loads, computed
    /// and tested once before the loop (`walk::invariant_cond_loads`), by
    /// the pointer expression they dereference.
    pub(crate) hoisted_addrs: HashMap<*const crate::sema::hir::Expr, Value>,
    /// Checked `bounds`: the `p + k` addresses of a loop's copy whose range
    /// of `p[k]` accesses was tested before it (`check::range_precheck`):
    /// their accesses need no test.
    pub(crate) range_proven: std::collections::HashSet<*const crate::sema::hir::Expr>,
    /// The bound `b` of that loop's condition `k < b` and its value, read
    /// before the loop (the body writes no memory and no local `b` reads).
    pub(crate) range_bound: Option<(*const crate::sema::hir::Expr, Value)>,
    /// Region strategy, checked races/uninit: the piece being compiled is
    /// alone in its barrier interval and writes no local memory, so its
    /// reads of local memory need no read tag (`check.rs`, `full_read`).
    pub(crate) local_read_only: bool,
    /// Checked mode, inside a region piece: the group state, its site
    /// cache, its current serial and its first serial, loaded once
    /// (`FunctionCx::load_check_state`).
    pub(crate) check_state: Option<[Value; 4]>,
    /// Checked races/uninit: the reads being compiled are a compound
    /// assignment's (or an increment's) whose write to the same place
    /// follows (`FunctionCx::read_for_write`).
    pub(crate) reading_for_write: bool,
    /// Region strategy, checked barriers: the first barriers the next
    /// decision leads to (when true, when false).
    pub(crate) diverge: Option<(Option<crate::source::Span>, Option<crate::source::Span>)>,
    /// Checked `uninit`: the private variables followed (`uninit.rs`).
    pub(crate) uninit: super::uninit::Tracking,
}

impl<'a, 'p> FunctionCx<'a, 'p> {
    pub fn records(&self) -> &'p Records {
        &self.pcx.prog.records
    }

    /// Emit an integer constant of type `t` (the value is truncated to `t`).
    pub fn iconst(&mut self, t: types::Type, v: i128) -> Value {
        let bits = t.bits();
        let masked = if bits >= 64 {
            v as i64
        } else {
            ((v as u64) & ((1u64 << bits) - 1)) as i64
        };
        self.b.ins().iconst(t, masked)
    }

    /// Switch to `block`, falling through from the current one if it is open.
    pub fn enter(&mut self, block: Block) {
        // A dead block opened by `terminated` that received no code needs no jump.
        let cur = self.b.current_block();
        let dead_and_empty = cur.is_some()
            && cur == self.dead
            && cur.is_some_and(|c| !self.b.func.layout.is_block_inserted(c));
        if !self.filled && !dead_and_empty {
            self.b.ins().jump(block, &[]);
        }
        self.b.switch_to_block(block);
        self.filled = false;
    }

    /// After a terminator: continue in a fresh unreachable block.
    pub fn terminated(&mut self) {
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
        self.b.seal_block(dead);
        self.dead = Some(dead);
        self.filled = false;
    }

    /// Two copies of the code `emit` makes, the first (`emit(fx, true)`)
    /// run when `cond` holds, the second (`emit(fx, false)`) when not; both
    /// continue in one block (checked mode's loop copies without tests).
    pub(crate) fn versions(
        &mut self,
        cond: Value,
        mut emit: impl FnMut(&mut Self, bool) -> Result<(), String>,
    ) -> Result<(), String> {
        let (fast, slow, end) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(cond, fast, &[], slow, &[]);
        self.terminated();
        self.enter(fast);
        emit(self, true)?;
        self.jump(end);
        self.enter(slow);
        emit(self, false)?;
        self.enter(end);
        Ok(())
    }

    /// `jump block` and continue in a dead block.
    pub fn jump(&mut self, block: Block) {
        self.b.ins().jump(block, &[]);
        self.terminated();
    }

    /// A stack temporary of `size` bytes for a variable or a value.
    pub fn try_stack_temp(&mut self, size: u64, align: u64) -> Result<Value, String> {
        if size > MAX_PRIVATE_OBJECT {
            return Err(format!(
                "a private object of {size} bytes is larger than the {MAX_PRIVATE_OBJECT} bytes supported"
            ));
        }
        Ok(self.stack_temp(size, align))
    }

    /// A stack temporary for a built-in: `size` must be a small, known
    /// size (at most [`MAX_PRIVATE_OBJECT`]; larger requests are capped).
    /// Alignments above the stack's 16 bytes (`int16`, `long8`, a struct
    /// with a `short16`: up to 128) are made at run time: the slot is
    /// larger by `align - 16` and its address rounded up.
    pub fn stack_temp(&mut self, size: u64, align: u64) -> Value {
        let align = align.clamp(1, 128).next_power_of_two();
        let size = size.clamp(1, MAX_PRIVATE_OBJECT);
        let (extra, shift) = if align > STACK_ALIGN {
            (align - STACK_ALIGN, STACK_ALIGN.trailing_zeros() as u8)
        } else {
            (0, align.trailing_zeros() as u8)
        };
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (size + extra) as u32,
            shift,
        ));
        let addr = self.b.ins().stack_addr(types::I64, slot, 0);
        if extra == 0 {
            return addr;
        }
        let up = self.b.ins().iadd_imm_s(addr, (align - 1) as i64);
        self.b.ins().band_imm_s(up, -(align as i64))
    }

    /// Call a host function by address.
    pub fn call_host(
        &mut self,
        addr: *const u8,
        params: &[types::Type],
        rets: &[types::Type],
        args: &[Value],
    ) -> Vec<Value> {
        self.call_host_as(None, addr, params, rets, args)
    }

    /// [`Self::call_host`] of a function that changes no register
    /// (Cranelift's `preserve_all`, which returns nothing in registers;
    /// `runtime::check::preserving`).
    pub fn call_host_preserving(
        &mut self,
        addr: *const u8,
        params: &[types::Type],
        args: &[Value],
    ) {
        let conv = cranelift_codegen::isa::CallConv::PreserveAll;
        self.call_host_as(Some(conv), addr, params, &[], args);
    }

    fn call_host_as(
        &mut self,
        conv: Option<cranelift_codegen::isa::CallConv>,
        addr: *const u8,
        params: &[types::Type],
        rets: &[types::Type],
        args: &[Value],
    ) -> Vec<Value> {
        let mut sig = self.module.make_signature();
        if let Some(conv) = conv {
            sig.call_conv = conv;
        }
        sig.params.extend(params.iter().map(|t| AbiParam::new(*t)));
        sig.returns.extend(rets.iter().map(|t| AbiParam::new(*t)));
        let sref = self.b.import_signature(sig);
        let callee = self.b.ins().iconst(types::I64, addr as i64);
        let inst = self.b.ins().call_indirect(sref, callee, args);
        self.b.inst_results(inst).to_vec()
    }

    /// Call a host function registered by name (`builtins::host_symbols`).
    pub fn call_import(
        &mut self,
        name: &str,
        params: &[types::Type],
        rets: &[types::Type],
        args: &[Value],
    ) -> Result<Vec<Value>, String> {
        let mut sig = self.module.make_signature();
        sig.params.extend(params.iter().map(|t| AbiParam::new(*t)));
        sig.returns.extend(rets.iter().map(|t| AbiParam::new(*t)));
        let id = self
            .module
            .declare_function(name, cranelift_module::Linkage::Import, &sig)
            .map_err(|e| format!("declaring '{name}': {e}"))?;
        let fref = self.module.declare_func_in_func(id, self.b.func);
        let inst = self.b.ins().call(fref, args);
        Ok(self.b.inst_results(inst).to_vec())
    }

    /// Copy `size` bytes (the ranges may overlap).
    pub fn memmove(&mut self, dst: Value, src: Value, size: u64) {
        if size == 0 {
            return;
        }
        if size <= 64 && size.is_multiple_of(8) {
            // Loads first, then stores: correct for overlapping ranges.
            let vals: Vec<Value> = (0..size / 8)
                .map(|i| {
                    self.b
                        .ins()
                        .load(types::I64, super::value::flags(), src, (i * 8) as i32)
                })
                .collect();
            for (i, v) in vals.into_iter().enumerate() {
                self.b
                    .ins()
                    .store(super::value::flags(), v, dst, (i * 8) as i32);
            }
            return;
        }
        let n = self.b.ins().iconst(types::I64, size as i64);
        let f = crate::runtime::cranecl_memmove as *const u8;
        self.call_host(
            f,
            &[types::I64, types::I64, types::I64],
            &[],
            &[dst, src, n],
        );
    }

    /// Fill `size` bytes with `byte`.
    pub fn memset(&mut self, dst: Value, byte: u8, size: u64) {
        if size == 0 {
            return;
        }
        if byte == 0 && size <= 64 && size.is_multiple_of(8) {
            let z = self.b.ins().iconst(types::I64, 0);
            for i in 0..size / 8 {
                self.b
                    .ins()
                    .store(super::value::flags(), z, dst, (i * 8) as i32);
            }
            return;
        }
        let v = self.b.ins().iconst(types::I32, i64::from(byte));
        let n = self.b.ins().iconst(types::I64, size as i64);
        let f = crate::runtime::cranecl_memset as *const u8;
        self.call_host(f, &[types::I64, types::I32, types::I64], &[], &[dst, v, n]);
    }

    /// The address of the work-item's `GroupState`.
    pub(crate) fn group_ptr(&mut self) -> Value {
        self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            self.item,
            offsets::ITEM_GROUP,
        )
    }

    /// Load a field of the `GroupState` of this item.
    pub(crate) fn group_field(&mut self, offset: i32) -> Value {
        let g = self.group_ptr();
        self.b
            .ins()
            .load(types::I64, super::value::group_flags(), g, offset)
    }

    /// Return from the function with `val` (already of the return type).
    pub(crate) fn emit_return(&mut self, val: Option<CValue>) -> Result<(), String> {
        let ret = self.func.ret.clone();
        if let Some(next) = self.return_to {
            if let Some(flag) = self.region_done {
                let one = self.b.ins().iconst(types::I8, 1);
                self.b.ins().store(super::value::flags(), one, flag, 0);
            }
            self.jump(next);
            return Ok(());
        }
        match (self.sret, val) {
            (Some(p), Some(v)) => {
                self.store(p, &ret, &v)?;
                self.b.ins().return_(&[]);
            }
            (None, Some(CValue::Scalar(v))) => {
                self.b.ins().return_(&[v]);
            }
            _ if ret.is_void() || self.sret.is_some() => {
                // Falling off the end (of a function returning a vector or
                // record too: undefined, the caller reads whatever is there).
                self.b.ins().return_(&[]);
            }
            _ => {
                // Falling off the end of a non-void function: undefined, return zero.
                let z = self.zero(&ret)?.scalar()?;
                self.b.ins().return_(&[z]);
            }
        }
        self.terminated();
        Ok(())
    }
}

impl<'a, 'p> FunctionCx<'a, 'p> {
    /// A context for `f` whose entry block has the signature's parameters
    /// (returned) and is current.
    pub(crate) fn new(
        b: FunctionBuilder<'a>,
        module: &'a mut JITModule,
        pcx: &'a ProgramCx<'p>,
        f: &'p Function,
    ) -> (Self, Vec<Value>) {
        let mut fx = FunctionCx {
            b,
            module,
            pcx,
            func: f,
            item: Value::from_u32(0),
            sret: None,
            locals: Vec::new(),
            labels: HashMap::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            waiting_gotos: None,
            cases: HashMap::new(),
            filled: false,
            dead: None,
            return_to: None,
            inline_ids: None,
            store_item_ids: true,
            region_done: None,
            cur_span: f.span,
            diverge: None,
            check_me: None,
            lanes_me0: None,
            kept_tracked: None,
            joined_from: HashMap::new(),
            lanes_reuse: None,
            lanes_tested: None,
            lanes_rel: false,
            site_lanes: false,
            prechecked: false,
            keep_read: None,
            kept_ok: None,
            in_object: HashMap::new(),
            in_object_lanes: Default::default(),
            regs: super::lanes::MAX_REGS,
            counted: Vec::new(),
            invariant_inside: Default::default(),
            hoisted_addrs: HashMap::new(),
            range_proven: Default::default(),
            range_bound: None,
            local_read_only: false,
            check_state: None,
            reading_for_write: false,
            region_flags: Vec::new(),
            uninit: Default::default(),
        };
        let entry = fx.b.create_block();
        fx.b.append_block_params_for_function_params(entry);
        fx.b.switch_to_block(entry);
        fx.b.seal_block(entry);
        fx.b.ensure_inserted_block();
        let params = fx.b.block_params(entry).to_vec();
        fx.item = params[0];
        (fx, params)
    }

    /// Move incoming parameter values (flattened as the ABI passes them)
    /// into the parameters' places.
    pub(crate) fn bind_params(&mut self, vals: &[Value]) -> Result<(), String> {
        self.bind_params_where(vals, &|_| true, None)
    }

    /// Bind the parameters `bind` selects. With `alias_unwritten`, a struct
    /// parameter the body never writes (nor takes the address of) is used in
    /// place at the incoming address instead of being copied.
    pub(crate) fn bind_params_where(
        &mut self,
        vals: &[Value],
        bind: &dyn Fn(u32) -> bool,
        alias_unwritten: Option<&std::collections::HashSet<u32>>,
    ) -> Result<(), String> {
        let f = self.func;
        let mut next = 0;
        for p in &f.params {
            let n = abi::param_count(&p.ty);
            let vs = vals
                .get(next..next + n)
                .ok_or("internal: parameter count")?;
            next += n;
            let l = p.local.0;
            if !bind(l) {
                continue;
            }
            let v = if is_aggregate(&p.ty) {
                if alias_unwritten.is_some_and(|w| !w.contains(&l)) {
                    self.locals[l as usize] = CPlace::Addr(vs[0]);
                    continue;
                }
                CValue::Ref(vs[0])
            } else if p.ty.is_vector() {
                CValue::Lanes(vs.to_vec())
            } else {
                CValue::Scalar(vs[0])
            };
            let place = self.locals[l as usize].clone();
            self.write_place(&place, &p.ty, &v)?;
        }
        Ok(())
    }
}

/// Define a finished function in the module. Functions above the
/// instruction budget are compiled with the single-pass register allocator
/// (the backtracking one is superlinear on large branchy functions).
/// `CRANECL_DUMP_CLIF` prints each function's Cranelift IR to stderr,
/// `CRANECL_DUMP_ASM` its machine code (after register allocation).
pub(crate) fn define(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    name: &str,
    id: cranelift_module::FuncId,
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Debug| format!("compiling '{name}': {e:?}");
    if pcx.inline {
        let bodies = pcx.bodies.borrow();
        ctx.inline(&*bodies).map_err(|e| err(&e))?;
    }
    if pcx.hoist_loads {
        super::hoist::hoist_invariant_loads(&mut ctx.func);
    }
    if pcx.inline {
        super::hoist::exits_first(&mut ctx.func);
    }
    if pcx.inline {
        super::hoist::fold_zero_extending_loads(&mut ctx.func);
    }
    if std::env::var_os("CRANECL_DUMP_CLIF").is_some() {
        eprintln!("{}", ctx.func.display());
    }
    if pcx.inline && ctx.func.dfg.num_insts() <= super::inline::INLINE_BUDGET {
        pcx.bodies
            .borrow_mut()
            .map
            .insert(id.as_u32(), ctx.func.clone());
    }
    let dump_asm = std::env::var_os("CRANECL_DUMP_ASM").is_some();
    if dump_asm {
        ctx.set_disasm(true);
    }
    if ctx.func.dfg.num_insts() <= pcx.regalloc_budget {
        let r = module.define_function(id, ctx).map_err(|e| err(&e));
        if let (Some(map), Some(code)) = (&pcx.perf_map, ctx.compiled_code()) {
            let size = code.code_info().total_size as usize;
            map.borrow_mut().push((id, name.to_string(), size));
        }
        if dump_asm {
            if let Some(vcode) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
                eprintln!("; {name}\n{vcode}");
            }
        }
        return r;
    }
    let isa = &*pcx.single_pass_isa;
    let mut ctrl = cranelift_codegen::control::ControlPlane::default();
    let code = ctx.compile(isa, &mut ctrl).map_err(|e| err(&e.inner))?;
    if dump_asm {
        if let Some(vcode) = code.vcode.as_ref() {
            eprintln!("; {name}\n{vcode}");
        }
    }
    let align = u64::from(code.buffer.alignment);
    let bytes = code.code_buffer().to_vec();
    if let Some(map) = &pcx.perf_map {
        map.borrow_mut().push((id, name.to_string(), bytes.len()));
    }
    let mach_relocs = code.buffer.relocs().to_vec();
    let relocs: Vec<cranelift_module::ModuleReloc> = mach_relocs
        .iter()
        .map(|r| cranelift_module::ModuleReloc::from_mach_reloc(r, &ctx.func, id))
        .collect();
    module
        .define_function_bytes(id, align, &bytes, &relocs)
        .map_err(|e| err(&e))
}

/// Compile the body of `f` into the module as `id`.
pub(crate) fn compile_function(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    id: cranelift_module::FuncId,
) -> Result<(), String> {
    let Some(body) = &f.body else { return Ok(()) };
    ctx.clear();
    ctx.func.signature = abi::signature(module, &pcx.prog.records, f)?;
    let b = FunctionBuilder::new(&mut ctx.func, fbc);
    let (mut fx, params) = FunctionCx::new(b, module, pcx, f);
    let mut next = 1;
    if abi::returns_via_sret(&f.ret) {
        fx.sret = Some(params[1]);
        next = 2;
    }
    setup_locals(&mut fx, f)?;
    fx.bind_params(&params[next..])?;
    fx.uninit_clear();
    fx.block(body)?;
    fx.emit_return(None)?;
    fx.b.seal_all_blocks();
    fx.b.finalize(pcx.config);
    define(module, pcx, ctx, &f.name, id)
}

/// Decide where every local lives.
pub(crate) fn setup_locals(fx: &mut FunctionCx<'_, '_>, f: &Function) -> Result<(), String> {
    let addressed = walk::address_taken_locals(f);
    let local_offsets = abi::local_layout(fx.pcx.prog, f).0;
    let mut local_base = None;
    for (i, l) in f.locals.iter().enumerate() {
        let place = if l.space == AddrSpace::Local {
            let Some(off) = local_offsets[i] else {
                return Err(format!(
                    "'local' variable '{}' outside a kernel function",
                    l.name
                ));
            };
            let base = match local_base {
                Some(b) => b,
                None => {
                    let b = fx.group_field(offsets::GROUP_LOCAL_MEM);
                    local_base = Some(b);
                    b
                }
            };
            CPlace::Addr(fx.b.ins().iadd_imm_s(base, off as i64))
        } else if is_aggregate(&l.ty) || l.address_taken || addressed.contains(&(i as u32)) {
            let size = fx.size_of(&l.ty);
            let align = fx.align_of(&l.ty);
            CPlace::Addr(fx.try_stack_temp(size, align)?)
        } else {
            let (t, n) = match &l.ty {
                Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
                t => (
                    clif_type(t)
                        .ok_or_else(|| format!("variable '{}' of unsupported type", l.name))?,
                    1,
                ),
            };
            CPlace::Var((0..n).map(|_| fx.b.declare_var(t)).collect())
        };
        fx.locals.push(place);
    }
    fx.uninit_setup(f);
    Ok(())
}

pub(crate) use ir::condcodes::{FloatCC, IntCC};
