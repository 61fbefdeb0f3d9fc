//! Statements: declarations with initialisers, and all of C's control flow.
//!
//! Loops push their `break` and `continue` blocks; a `switch` pre-assigns a
//! block to each of its `case`/`default` statements (found by walking its
//! body without entering nested switches), dispatches with Cranelift's
//! `Switch`, and then lowers the body in order so that cases fall through.
//! Labels get blocks on first mention, so `goto` may jump forward or back.

use super::fx::FunctionCx;
use super::value::{CPlace, CValue};
use crate::sema::hir::{Block, Init, LocalId, Stmt, StmtKind};
use crate::sema::types::Type;
use cranelift_codegen::ir::{self, InstBuilder};
use cranelift_frontend::Switch;

impl FunctionCx<'_, '_> {
    pub(crate) fn block(&mut self, b: &Block) -> Result<(), String> {
        for s in &b.stmts {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn label_block(&mut self, name: &str) -> ir::Block {
        if let Some(b) = self.labels.get(name) {
            return *b;
        }
        let b = self.b.create_block();
        self.labels.insert(name.to_string(), b);
        b
    }

    pub(crate) fn stmt(&mut self, s: &Stmt) -> Result<(), String> {
        match &s.kind {
            StmtKind::Decl(l, init) => self.decl(*l, init.as_ref()),
            StmtKind::Expr(e) => self.expr(e).map(|_| ()),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Empty => Ok(()),
            // if (c) t else e
            StmtKind::If(c, t, e) => {
                let (then_b, else_b, end) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.cond_branch(c, then_b, else_b)?;
                self.enter(then_b);
                self.stmt(t)?;
                self.jump(end);
                self.enter(else_b);
                if let Some(e) = e {
                    self.stmt(e)?;
                }
                self.enter(end);
                Ok(())
            }
            // while (c) body, as `if (c) do body while (c);`
            StmtKind::While(c, body) if self.rotates(c) => {
                let (pre, body_b, cont, end) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.cond_branch(c, pre, end)?;
                self.enter(pre);
                self.jump(body_b);
                self.enter(body_b);
                let waits = self.loop_waits(Some(c), None, body);
                self.in_loop(end, cont, |fx| fx.loop_body(waits, body))?;
                self.enter(cont);
                self.bottom_test(c, body_b, end)?;
                self.enter(end);
                Ok(())
            }
            // while (c) body
            StmtKind::While(c, body) => {
                let (head, body_b, end) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.enter(head);
                self.cond_branch(c, body_b, end)?;
                self.enter(body_b);
                let waits = self.loop_waits(Some(c), None, body);
                self.in_loop(end, head, |fx| fx.loop_body(waits, body))?;
                self.jump(head);
                self.enter(end);
                Ok(())
            }
            // do body while (c);
            StmtKind::DoWhile(body, c) => {
                let (body_b, cont, end) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.enter(body_b);
                let waits = self.loop_waits(Some(c), None, body);
                self.in_loop(end, cont, |fx| fx.loop_body(waits, body))?;
                self.enter(cont);
                self.cond_branch(c, body_b, end)?;
                self.enter(end);
                Ok(())
            }
            // for (init; c; step) body
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                let hoisted = self.hoist_cond_checks(c.as_ref(), step.as_ref(), body)?;
                let counted = self.counted_loop(init.as_deref(), c.as_ref(), step.as_ref(), body);
                match self.invariant_inside(c.as_ref(), step.as_ref(), body)? {
                    // Checked `bounds`: a copy of the loop without the tests
                    // of the subscripts it does not change when they were
                    // found inside, the checked loop when not.
                    Some((inside, keys)) => self.versions(inside, |fx, fast| {
                        if fast {
                            fx.invariant_inside.extend(keys.iter().copied());
                        }
                        let r = fx.for_versions(c.as_ref(), step.as_ref(), body, counted);
                        for k in &keys {
                            fx.invariant_inside.remove(k);
                        }
                        r
                    })?,
                    None => self.for_versions(c.as_ref(), step.as_ref(), body, counted)?,
                }
                for p in hoisted {
                    self.hoisted_addrs.remove(&p);
                }
                Ok(())
            }
            StmtKind::Switch(c, body) => self.switch(c, body),
            StmtKind::Case(_, inner) | StmtKind::Default(inner) => {
                let key = s as *const Stmt;
                let b = *self.cases.get(&key).ok_or("'case' outside a switch")?;
                self.enter(b);
                self.stmt(inner)
            }
            StmtKind::Label(name, inner) => {
                let b = self.label_block(name);
                self.enter(b);
                self.stmt(inner)
            }
            StmtKind::Goto(name) => {
                let b = self.label_block(name);
                // A `goto` taken under a condition that depends on what
                // other work-items did may close a loop that waits: it is a
                // pass as a loop's is.
                let (prog, func) = (self.pcx.prog, self.func);
                if self
                    .waiting_gotos
                    .get_or_insert_with(|| crate::lower::progress::waiting_gotos(prog, func))
                    .contains(&(s as *const Stmt))
                {
                    self.emit_progress_point();
                }
                self.jump(b);
                Ok(())
            }
            StmtKind::Break => {
                let b = *self
                    .breaks
                    .last()
                    .ok_or("'break' outside a loop or switch")?;
                self.jump(b);
                Ok(())
            }
            StmtKind::Continue => {
                let b = *self.continues.last().ok_or("'continue' outside a loop")?;
                self.jump(b);
                Ok(())
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => {
                        let v = self.expr(e)?;
                        let ret = self.func.ret.clone();
                        Some(self.convert(v, &e.ty, &ret)?)
                    }
                    None => None,
                };
                self.emit_return(v)
            }
        }
    }

    /// The loop of `for (...; c; step) body` after its initialiser; under
    /// checked `bounds`, a loop whose `p[k]` accesses are tested together
    /// before it runs a copy without their tests when they are all inside.
    fn for_versions(
        &mut self,
        c: Option<&crate::sema::hir::Expr>,
        step: Option<&crate::sema::hir::Expr>,
        body: &Stmt,
        counted: Option<(u32, i128, i128)>,
    ) -> Result<(), String> {
        let Some(rl) = self.range_loop(c, step, body) else {
            return self.for_loop(c, step, body, counted);
        };
        let (proven, bound) = self.range_precheck(&rl)?;
        self.versions(proven, |fx, fast| {
            if !fast {
                return fx.for_loop(c, step, body, counted);
            }
            let outer = (fx.range_proven.clone(), fx.range_bound);
            fx.range_proven
                .extend(rl.ptrs.iter().flat_map(|(_, _, uses)| uses.iter().copied()));
            fx.range_bound = Some((rl.bound as *const _, bound));
            let r = fx.for_loop(c, step, body, counted);
            (fx.range_proven, fx.range_bound) = outer;
            r
        })
    }

    /// The loop of `for (...; c; step) body` after its initialiser, from
    /// the current block to the block after it (`counted`: its counter's
    /// range, `Self::counted_loop`).
    fn for_loop(
        &mut self,
        c: Option<&crate::sema::hir::Expr>,
        step: Option<&crate::sema::hir::Expr>,
        body: &Stmt,
        counted: Option<(u32, i128, i128)>,
    ) -> Result<(), String> {
        let (head, body_b, cont, end) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // A condition cheap to repeat is tested before the loop and
        // at its bottom (`if (c) do body; step; while (c);`): one
        // branch per iteration, not a jump back to the test too.
        let rotated = c.filter(|c| self.rotates(c));
        if let Some(c) = rotated {
            self.cond_branch(c, head, end)?;
            self.enter(head);
            self.jump(body_b);
        } else {
            self.enter(head);
            match c {
                Some(c) => self.cond_branch(c, body_b, end)?,
                None => self.jump(body_b),
            }
        }
        self.enter(body_b);
        let waits = self.loop_waits(c, step, body);
        self.with_counted(counted, |fx| {
            fx.in_loop(end, cont, |fx| fx.loop_body(waits, body))
        })?;
        self.enter(cont);
        if let Some(st) = step {
            self.expr(st)?;
        }
        match rotated {
            Some(c) => self.bottom_test(c, body_b, end)?,
            None => self.jump(head),
        }
        self.enter(end);
        Ok(())
    }

    /// Whether a loop condition is tested twice in the code, before the
    /// loop and at its bottom: when optimizing, for small conditions that
    /// call no function of the program (in checked mode each copy has its
    /// own sites, at the same place).
    fn rotates(&self, c: &crate::sema::hir::Expr) -> bool {
        use crate::sema::hir::ExprKind;
        if !self.pcx.inline {
            return false;
        }
        let (mut nodes, mut calls) = (0, false);
        crate::lower::walk::expr_tree(c, &mut |e| {
            nodes += 1;
            calls |= matches!(e.kind, ExprKind::Call(..));
        });
        nodes <= 24 && !calls
    }

    /// The test at the bottom of a rotated loop. Its loads are marked
    /// `can_move`: the same test ran before the loop, so a load whose
    /// address the loop does not change may run before the loop without a
    /// fault the program would not have had (`hoist.rs` moves such loads
    /// out of loops that write no memory). Not when memory accesses are
    /// checked: there the test's loads include the site cache's and the
    /// shadow's, which the runtime and the test itself change.
    fn bottom_test(
        &mut self,
        c: &crate::sema::hir::Expr,
        t: ir::Block,
        f: ir::Block,
    ) -> Result<(), String> {
        let first = self.b.func.dfg.num_insts();
        self.cond_branch(c, t, f)?;
        if self.checks_memory() {
            return Ok(());
        }
        let dfg = &mut self.b.func.dfg;
        for i in first..dfg.num_insts() {
            let inst = ir::Inst::from_u32(i as u32);
            if let ir::InstructionData::Load { flags, .. } = &mut dfg.insts[inst] {
                let moved = dfg.mem_flags[*flags].with_can_move();
                *flags = dfg.mem_flags.insert_unchecked(moved);
            }
        }
        Ok(())
    }

    /// Whether the loop may wait for another work-item
    /// (`lower/progress.rs`): then each pass through it lets the others run
    /// now and then.
    fn loop_waits(
        &self,
        c: Option<&crate::sema::hir::Expr>,
        step: Option<&crate::sema::hir::Expr>,
        body: &Stmt,
    ) -> bool {
        crate::lower::progress::loop_waits(self.pcx.prog, self.func, c, step, body)
    }

    /// A loop's body, after a pass point where the loop may wait.
    fn loop_body(&mut self, waits: bool, body: &Stmt) -> Result<(), String> {
        if waits {
            self.emit_progress_point();
        }
        self.stmt(body)
    }

    fn in_loop(
        &mut self,
        brk: ir::Block,
        cont: ir::Block,
        f: impl FnOnce(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        self.breaks.push(brk);
        self.continues.push(cont);
        let r = f(self);
        self.breaks.pop();
        self.continues.pop();
        r
    }

    /// Branch on a C condition. `&&`, `||` and `!` become branches and a
    /// scalar comparison is branched on directly, without materialising
    /// their `int` values.
    pub(crate) fn cond_branch(
        &mut self,
        c: &crate::sema::hir::Expr,
        t: ir::Block,
        f: ir::Block,
    ) -> Result<(), String> {
        use crate::sema::hir::{BinOp, ExprKind, UnOp};
        let scalar = |e: &crate::sema::hir::Expr| !e.ty.is_vector();
        match &c.kind {
            // a && b
            ExprKind::Binary(BinOp::LogAnd, a, b) if scalar(c) => {
                let mid = self.b.create_block();
                self.cond_branch(a, mid, f)?;
                self.enter(mid);
                return self.cond_branch(b, t, f);
            }
            // a || b
            ExprKind::Binary(BinOp::LogOr, a, b) if scalar(c) => {
                let mid = self.b.create_block();
                self.cond_branch(a, t, mid)?;
                self.enter(mid);
                return self.cond_branch(b, t, f);
            }
            // !a
            ExprKind::Unary(UnOp::LogNot, a) if scalar(c) && scalar(a) => {
                return self.cond_branch(a, f, t)
            }
            // a < b
            ExprKind::Binary(op, a, b)
                if scalar(c)
                    && scalar(a)
                    && super::num::is_comparison(*op)
                    && a.ty == b.ty
                    && a.ty.is_scalar() =>
            {
                let elem = a.ty.elem().ok_or("comparison of a non-arithmetic type")?;
                let x = self.expr(a)?.scalar()?;
                let y = self.expr(b)?.scalar()?;
                let r = self.binop_scalar(*op, x, y, elem)?;
                self.b.ins().brif(r, t, &[], f, &[]);
                self.terminated();
                return Ok(());
            }
            _ => {}
        }
        let v = self.expr(c)?;
        let x = self.truth(&v, &c.ty)?;
        self.b.ins().brif(x, t, &[], f, &[]);
        self.terminated();
        Ok(())
    }

    // switch (c) { case 1: ...; default: ... }
    fn switch(&mut self, c: &crate::sema::hir::Expr, body: &Stmt) -> Result<(), String> {
        let v = self.expr(c)?.scalar()?;
        let bits = self.b.func.dfg.value_type(v).bits();
        let signed = c.ty.elem().is_some_and(|s| s.is_signed());
        let end = self.b.create_block();
        let mut cases = Vec::new();
        collect_cases(body, &mut cases);
        let mut sw = Switch::new();
        let mut default = end;
        let mut seen = std::collections::HashSet::new();
        for (stmt, value) in cases {
            let blk = self.b.create_block();
            self.cases.insert(stmt, blk);
            match value {
                Some(v) => {
                    // The value as the switch type's bit pattern (zero-extended).
                    let mask = if bits >= 128 {
                        u128::MAX
                    } else {
                        (1u128 << bits) - 1
                    };
                    let key = (v as u128) & mask;
                    if seen.insert(key) {
                        sw.set_entry(key, blk);
                    }
                }
                None => default = blk,
            }
        }
        let _ = signed;
        sw.emit(&mut self.b, v, default);
        self.terminated();
        self.breaks.push(end);
        let r = self.stmt(body);
        self.breaks.pop();
        r?;
        self.enter(end);
        Ok(())
    }

    /// `T x = init;`
    fn decl(&mut self, l: LocalId, init: Option<&Init>) -> Result<(), String> {
        let Some(init) = init else { return Ok(()) };
        let place = self
            .locals
            .get(l.0 as usize)
            .cloned()
            .ok_or("unknown local variable")?;
        let ty = self.func.locals[l.0 as usize].ty.clone();
        self.init_place(&place, &ty, init)
    }

    fn init_place(&mut self, place: &CPlace, ty: &Type, init: &Init) -> Result<(), String> {
        match init {
            Init::Expr(e) => {
                let v = self.expr(e)?;
                let v = if super::value::is_aggregate(ty) {
                    v
                } else {
                    self.convert(v, &e.ty, ty)?
                };
                self.write_place(place, ty, &v)
            }
            Init::Zero => {
                let z = self.zero_for_place(place, ty)?;
                match z {
                    Some(z) => self.write_place(place, ty, &z),
                    None => Ok(()),
                }
            }
            Init::Array(items) => {
                let addr = self.place_addr(place)?;
                let elem = ty
                    .array_elem()
                    .cloned()
                    .ok_or("array initialiser for a non-array")?;
                let esize = self.size_of(&elem);
                // sema lists elements up to the last one written; the rest are zero.
                if let Type::Array(_, Some(n)) = ty {
                    let listed = items.len() as u64;
                    if *n > listed {
                        let a = self.b.ins().iadd_imm_s(addr, (listed * esize) as i64);
                        self.memset(a, 0, (*n - listed) * esize);
                    }
                }
                for (i, it) in items.iter().enumerate() {
                    let a = self.b.ins().iadd_imm_s(addr, (i as u64 * esize) as i64);
                    self.init_place(&CPlace::Addr(a), &elem, it)?;
                }
                Ok(())
            }
            Init::Struct(fields) => {
                let addr = self.place_addr(place)?;
                let Type::Record(id) = ty else {
                    return Err("struct initialiser for a non-struct".into());
                };
                let def = self.records().get(*id);
                for (f, it) in def.fields.iter().zip(fields) {
                    let a = self.b.ins().iadd_imm_s(addr, f.offset as i64);
                    self.init_place(&CPlace::Addr(a), &f.ty, it)?;
                }
                Ok(())
            }
            Init::Union(idx, it) => {
                let addr = self.place_addr(place)?;
                let size = self.size_of(ty);
                self.memset(addr, 0, size);
                let Type::Record(id) = ty else {
                    return Err("union initialiser for a non-union".into());
                };
                let f = self
                    .records()
                    .get(*id)
                    .fields
                    .get(*idx)
                    .ok_or("union member out of range")?;
                let fty = f.ty.clone();
                let a = self.b.ins().iadd_imm_s(addr, f.offset as i64);
                self.init_place(&CPlace::Addr(a), &fty, it)
            }
        }
    }

    /// The zero to store for `Init::Zero` (aggregates in memory are cleared here).
    fn zero_for_place(&mut self, place: &CPlace, ty: &Type) -> Result<Option<CValue>, String> {
        if super::value::is_aggregate(ty) {
            if let CPlace::Addr(a) = place {
                let size = self.size_of(ty);
                self.memset(*a, 0, size);
            }
            return Ok(None);
        }
        self.zero(ty).map(Some)
    }
}

/// The `case`/`default` statements of one switch body, with their values.
fn collect_cases(s: &Stmt, out: &mut Vec<(*const Stmt, Option<i128>)>) {
    match &s.kind {
        StmtKind::Case(v, inner) => {
            out.push((s as *const Stmt, Some(*v)));
            collect_cases(inner, out);
        }
        StmtKind::Default(inner) => {
            out.push((s as *const Stmt, None));
            collect_cases(inner, out);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| collect_cases(s, out)),
        StmtKind::If(_, t, e) => {
            collect_cases(t, out);
            if let Some(e) = e {
                collect_cases(e, out);
            }
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Label(_, b) => collect_cases(b, out),
        StmtKind::Switch(..) => {}
        _ => {}
    }
}
