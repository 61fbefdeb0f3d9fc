//! Loop-invariant loads, moved out of their loops on the Cranelift IR of a
//! finished (inlined) function: a load in a loop's header whose address does
//! not change in the loop, in a loop that writes no memory, calls nothing and
//! makes no atomic access, runs once before the loop instead of once per
//! iteration (`for (k = p[r]; k < p[r + 1]; k++)` reads `p[r + 1]` once).
//! The same for such loads anywhere in the loop that are marked `can_move`:
//! the bottom test of a rotated loop (`stmt.rs`), whose copy before the
//! loop has read the same address already. Cranelift itself moves only
//! loads of memory that never changes.
//!
//! Correct because nothing in such a loop can change the loaded memory: no
//! store, call or atomic of the work-item, and other work-items either run
//! on the same thread (a group runs on one thread; coroutines switch only in
//! calls) or would race without atomics. A header runs at every entry of
//! its loop, so the load runs (and would fault) exactly when it ran before,
//! only not again. Programs that read a `volatile` object keep every load
//! ([`reads_volatile`]).

use crate::sema::hir::Program;
use cranelift_codegen::dominator_tree::DominatorTree;
use cranelift_codegen::flowgraph::ControlFlowGraph;
use cranelift_codegen::ir::{
    Block, BlockArg, Function, Inst, InstructionData, Opcode, Value, ValueDef,
};
use cranelift_codegen::loop_analysis::{Loop, LoopAnalysis};
use std::collections::HashMap;

/// Whether any expression of `prog` reads or writes a `volatile` object
/// (its loads must all stay where they are).
pub(crate) fn reads_volatile(prog: &Program) -> bool {
    let mut found = false;
    for f in &prog.functions {
        if let Some(body) = &f.body {
            crate::lower::walk::block_exprs(body, &mut |e| found |= e.quals.volatile);
        }
    }
    found
}

/// Instructions whose result depends only on their operands: no memory, no
/// trap, no effect (a chain of them computing an address moves with it).
fn is_pure(func: &Function, inst: Inst) -> bool {
    let op = func.dfg.insts[inst].opcode();
    func.dfg.inst_results(inst).len() == 1
        && !op.can_load()
        && !op.can_store()
        && !op.can_trap()
        && !op.is_call()
        && !op.is_branch()
        && !op.is_terminator()
        && !op.other_side_effects()
}

/// Whether an instruction of a loop keeps its loads in place: it may
/// change memory (a store, a call, an atomic or a fence).
fn may_write(func: &Function, inst: Inst) -> bool {
    let op = func.dfg.insts[inst].opcode();
    op.can_store()
        || op.is_call()
        || op.other_side_effects()
        || matches!(
            op,
            Opcode::AtomicLoad
                | Opcode::AtomicStore
                | Opcode::AtomicRmw
                | Opcode::AtomicCas
                | Opcode::Fence
        )
}

/// Move the loop-invariant loads of every loop of `func` that writes no
/// memory to the loop's preheader; returns how many loads moved.
pub(crate) fn hoist_invariant_loads(func: &mut Function) -> usize {
    let cfg = ControlFlowGraph::with_function(func);
    let domtree = DominatorTree::with_function(func, &cfg);
    let mut loops = LoopAnalysis::new();
    loops.compute(func, &cfg, &domtree);
    let blocks: Vec<Block> = func.layout.blocks().collect();
    // Innermost loops first: a load moved out of an inner loop's header
    // lands in its preheader, which may be an outer loop's header.
    let mut order: Vec<Loop> = loops.loops().collect();
    order.sort_by_key(|&lp| std::cmp::Reverse(loop_depth(&loops, lp)));
    let mut moved = 0;
    for lp in order {
        let header = loops.loop_header(lp);
        let body: Vec<Block> = blocks
            .iter()
            .copied()
            .filter(|&b| loops.is_in_loop(b, lp))
            .collect();
        if body
            .iter()
            .any(|&b| func.layout.block_insts(b).any(|i| may_write(func, i)))
        {
            continue;
        }
        // The one block that enters the loop, by an unconditional jump.
        let mut entries = cfg
            .pred_iter(header)
            .filter(|p| !loops.is_in_loop(p.block, lp));
        let (Some(pre), None) = (entries.next(), entries.next()) else {
            continue;
        };
        if func.dfg.insts[pre.inst].opcode() != Opcode::Jump {
            continue;
        }
        let fixed = fixed_params(func, &cfg, &loops, lp, pre.inst);
        let in_loop = |func: &Function, v: Value| match func.dfg.value_def(v) {
            ValueDef::Result(i, _) => func
                .layout
                .inst_block(i)
                .is_some_and(|b| loops.is_in_loop(b, lp)),
            ValueDef::Param(b, _) => loops.is_in_loop(b, lp),
            _ => true,
        };
        // The header's loads, and loads marked `can_move` anywhere in the
        // loop (the bottom test of a rotated loop, `stmt.rs`), in order.
        let loads: Vec<Inst> = std::iter::once(header)
            .chain(body.iter().copied().filter(|&b| b != header))
            .flat_map(|b| func.layout.block_insts(b).map(move |i| (b, i)))
            .filter(|&(b, i)| match func.dfg.insts[i] {
                InstructionData::Load { flags, .. } => {
                    func.dfg.insts[i].opcode().can_load()
                        && (b == header || func.dfg.mem_flags[flags].can_move())
                }
                _ => false,
            })
            .map(|(_, i)| i)
            .collect();
        for load in loads {
            let addr = func.dfg.inst_args(load)[0];
            let mut chain = Vec::new();
            if invariant(func, addr, &in_loop, &fixed, &mut chain, 0) {
                chain.push(load);
                for i in chain {
                    func.layout.remove_inst(i);
                    func.layout.insert_inst(i, pre.inst);
                    // The header's unchanged parameters become the values
                    // the loop is entered with.
                    let args: Vec<Value> = func
                        .dfg
                        .inst_args(i)
                        .iter()
                        .map(|&a| {
                            let a = func.dfg.resolve_aliases(a);
                            fixed.get(&a).copied().unwrap_or(a)
                        })
                        .collect();
                    func.dfg.inst_args_mut(i).copy_from_slice(&args);
                }
                moved += 1;
            }
        }
    }
    moved
}

fn loop_depth(loops: &LoopAnalysis, lp: Loop) -> usize {
    let mut depth = 0;
    let mut cur = loops.loop_parent(lp);
    while let Some(p) = cur {
        depth += 1;
        cur = loops.loop_parent(p);
    }
    depth
}

/// The header's parameters that every iteration passes back unchanged
/// (the frontend threads values through loops so), each with the value the
/// entering jump `enter` gives it.
fn fixed_params(
    func: &Function,
    cfg: &ControlFlowGraph,
    loops: &LoopAnalysis,
    lp: Loop,
    enter: Inst,
) -> HashMap<Value, Value> {
    let header = loops.loop_header(lp);
    let params = func.dfg.block_params(header);
    let arg = |call: &cranelift_codegen::ir::BlockCall, i: usize| match call
        .args(&func.dfg.value_lists)
        .nth(i)
    {
        Some(BlockArg::Value(v)) => Some(func.dfg.resolve_aliases(v)),
        _ => None,
    };
    let calls = |inst: Inst| {
        func.dfg.insts[inst]
            .branch_destination(&func.dfg.jump_tables, &func.dfg.exception_tables)
            .iter()
            .filter(|c| c.block(&func.dfg.value_lists) == header)
            .copied()
            .collect::<Vec<_>>()
    };
    let entry = calls(enter);
    let back: Vec<_> = cfg
        .pred_iter(header)
        .filter(|p| loops.is_in_loop(p.block, lp))
        .flat_map(|p| calls(p.inst))
        .collect();
    let mut fixed = HashMap::new();
    for (i, &p) in params.iter().enumerate() {
        let (Some(call), 1) = (entry.first(), entry.len()) else {
            break;
        };
        if back.iter().all(|c| arg(c, i) == Some(p)) {
            if let Some(v) = arg(call, i) {
                fixed.insert(p, v);
            }
        }
    }
    fixed
}

/// Whether `v` has the same value at every iteration: defined outside the
/// loop, a header parameter in `fixed`, or computed in the loop by pure
/// instructions from such values (those are appended to `chain`, operands
/// first, each once).
fn invariant(
    func: &Function,
    v: Value,
    in_loop: &dyn Fn(&Function, Value) -> bool,
    fixed: &HashMap<Value, Value>,
    chain: &mut Vec<Inst>,
    depth: usize,
) -> bool {
    let v = func.dfg.resolve_aliases(v);
    if !in_loop(func, v) || fixed.contains_key(&v) {
        return true;
    }
    let ValueDef::Result(inst, _) = func.dfg.value_def(v) else {
        return false;
    };
    if depth > 16 || !is_pure(func, inst) {
        return false;
    }
    if chain.contains(&inst) {
        return true;
    }
    let start = chain.len();
    for &a in func.dfg.inst_args(inst) {
        if !invariant(func, a, in_loop, fixed, chain, depth + 1) {
            chain.truncate(start);
            return false;
        }
    }
    chain.push(inst);
    true
}

/// Fold `uextend.i64 (load.i32 p)` into `uload32 p` where the extension
/// follows the load at once and is its only use (a 32-bit load clears the
/// upper half already: an index loaded from memory needs no second move).
/// Returns how many loads were folded.
pub(crate) fn fold_zero_extending_loads(func: &mut Function) -> usize {
    let mut uses: HashMap<Value, u32> = HashMap::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            for v in func.dfg.inst_values(inst) {
                *uses.entry(func.dfg.resolve_aliases(v)).or_default() += 1;
            }
        }
    }
    let mut folds = Vec::new();
    for block in func.layout.blocks() {
        for inst in func.layout.block_insts(block) {
            if func.dfg.insts[inst].opcode() != Opcode::Uextend
                || func.dfg.ctrl_typevar(inst) != cranelift_codegen::ir::types::I64
            {
                continue;
            }
            let x = func.dfg.resolve_aliases(func.dfg.inst_args(inst)[0]);
            let ValueDef::Result(load, 0) = func.dfg.value_def(x) else {
                continue;
            };
            if let InstructionData::Load {
                opcode: Opcode::Load,
                flags,
                arg,
                offset,
            } = func.dfg.insts[load]
            {
                if func.dfg.value_type(x) == cranelift_codegen::ir::types::I32
                    && func.layout.next_inst(load) == Some(inst)
                    && uses.get(&x) == Some(&1)
                {
                    folds.push((inst, load, func.dfg.mem_flags[flags], arg, offset));
                }
            }
        }
    }
    for &(inst, load, flags, addr, offset) in &folds {
        use cranelift_codegen::ir::InstBuilder;
        func.replace(inst).uload32(flags, addr, offset);
        func.layout.remove_inst(load);
    }
    folds.len()
}

/// Turn each loop's conditional exits `brif c, stay, leave` into
/// `brif !c, leave, stay` (the comparison inverted in place of `c`'s).
/// Cranelift's egraph hoists loop-invariant values while it walks the
/// dominator tree, whose children come in the CFG's reverse postorder;
/// with the staying block first among a branch's successors that order
/// visits the block outside the loop first, which drops the loop from the
/// walk's loop stack, and the loop's own blocks then get the invariant
/// values recomputed inside (the lanes' geometry, `y * w`, in every
/// iteration of a convolution's inner loop). With the leaving block first
/// the loop's blocks come first. Returns how many branches turned.
pub(crate) fn exits_first(func: &mut Function) -> usize {
    use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
    use cranelift_codegen::ir::InstBuilder;
    let cfg = ControlFlowGraph::with_function(func);
    let domtree = DominatorTree::with_function(func, &cfg);
    let mut loops = LoopAnalysis::new();
    loops.compute(func, &cfg, &domtree);
    let blocks: Vec<Block> = func.layout.blocks().collect();
    let mut turned = 0;
    for b in blocks {
        let Some(lp) = loops.innermost_loop(b) else {
            continue;
        };
        let Some(term) = func.layout.last_inst(b) else {
            continue;
        };
        let InstructionData::Brif {
            arg,
            blocks: [stay, leave],
            ..
        } = func.dfg.insts[term]
        else {
            continue;
        };
        let (s, l) = (
            stay.block(&func.dfg.value_lists),
            leave.block(&func.dfg.value_lists),
        );
        if !loops.is_in_loop(s, lp) || loops.is_in_loop(l, lp) {
            continue;
        }
        let c = func.dfg.resolve_aliases(arg);
        let inverted = {
            let mut pos = cranelift_codegen::cursor::FuncCursor::new(func).at_inst(term);
            use cranelift_codegen::cursor::Cursor;
            match pos.func.dfg.value_def(c) {
                ValueDef::Result(i, 0) => match pos.func.dfg.insts[i] {
                    InstructionData::IntCompare { cond, args, .. } => {
                        pos.ins().icmp(cond.complement(), args[0], args[1])
                    }
                    InstructionData::FloatCompare { cond, args, .. } => {
                        pos.ins().fcmp(cond.complement(), args[0], args[1])
                    }
                    _ => pos.ins().icmp_imm_u(IntCC::Equal, c, 0),
                },
                _ => pos.ins().icmp_imm_u(IntCC::Equal, c, 0),
            }
        };
        if let InstructionData::Brif { arg, blocks, .. } = &mut func.dfg.insts[term] {
            *arg = inverted;
            blocks.swap(0, 1);
        }
        turned += 1;
    }
    turned
}
