//! The lanes' statements: blocks, declarations, `if`s (whole or per
//! lane), loops (uniform, masked or per lane).

use super::*;

/// Instructions made between two stores of `LaneCx::interleave`: a
/// register's stretch of about half as many stays well inside the core's
/// scheduler beside the other's, and fewer stores cost less (an MD5-like
/// chain: 1.38x the speed of no stores at 64, 1.32x with a store at every
/// write, 1.1x at 400).
const INTERLEAVE_EVERY: usize = 64;

/// `LaneCx::interleave` stores only in functions with at most this many
/// packed locals written more than once (values carried along, as a
/// hash's state): interleaved, both registers' values are live at once,
/// and more than the 16 vector registers hold spill (hashcat's SHA-256,
/// 29 such locals: 1.7x slower with the stores; its MD5, 14: 1.3x faster).
const INTERLEAVE_MAX_CARRIED: usize = 16;

impl LaneCx {
    /// Statements for the whole step.
    pub(crate) fn stmts(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        stmts: &[&Stmt],
    ) -> Result<(), String> {
        for s in stmts {
            self.stmt(fx, s)?;
        }
        Ok(())
    }

    /// The truth of `c` (uniform across the group by the spec's rule for
    /// conditions around barriers) as the last lane computes it.
    /// Each lane's truth of `c`.
    pub(crate) fn truths(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        c: &Expr,
    ) -> Result<Vec<Value>, String> {
        let v = self.expr(fx, c)?;
        (0..fx.step_lanes())
            .map(|k| {
                let x = Self::lane(fx, &v, k);
                fx.truth(&x, &c.ty)
            })
            .collect()
    }

    pub(crate) fn last_truth(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        c: &Expr,
    ) -> Result<Value, String> {
        let v = self.expr(fx, c)?;
        let x = Self::lane(fx, &v, fx.step_lanes() - 1);
        fx.truth(&x, &c.ty)
    }

    // -------------------------------------------------------- statements

    pub(crate) fn block(&mut self, fx: &mut FunctionCx<'_, '_>, b: &HBlock) -> Result<(), String> {
        for s in &b.stmts {
            self.stmt(fx, s)?;
        }
        Ok(())
    }

    pub(super) fn stmt(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        let was_pure = self.pure;
        let r = self.stmt_inner(fx, s);
        self.pure = was_pure && !self.plan.stmt_writes(s);
        r
    }

    pub(super) fn stmt_inner(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
    ) -> Result<(), String> {
        if self.masked() {
            return self.masked_stmt(fx, s);
        }
        let is_loop = matches!(
            s.kind,
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..)
        );
        if self.plan.serial(s) {
            let why = if !is_loop {
                "per-work-item effects: an atomic, printf, a call, or a switch"
            } else if self.loop_needs_serial(s) {
                "a loop whose condition or step has per-work-item effects"
            } else if self.plan.masked_loops {
                Self::note(
                    fx,
                    s.span,
                    "masked (work-items leave this loop at different times)",
                );
                return self.masked_loop(fx, s);
            } else {
                "a loop work-items leave at different times (its masked form was refused)"
            };
            return self.serial_stmt(fx, s, why);
        }
        let mut varies = false;
        crate::lower::walk::stmt_exprs(s, &mut |e| varies |= self.plan.varies(e));
        let declares_varying = {
            let mut d = Vec::new();
            collect_decls(s, &mut d);
            d.iter().any(|l| self.plan.varying[*l as usize])
        };
        if !varies && !declares_varying {
            // Uniform through and through: once for the step. (`return`,
            // `break` and `continue` go where the step's own control flow
            // says.)
            return fx.stmt(s);
        }
        match &s.kind {
            StmtKind::Decl(l, init) => self.decl(fx, l.0, init.as_ref()),
            StmtKind::Expr(e) => self.expr(fx, e).map(|_| ()),
            StmtKind::Block(b) => self.block(fx, b),
            StmtKind::Empty => Ok(()),
            StmtKind::If(c, t, e) => self.if_stmt(fx, s, c, t, e.as_deref()),
            StmtKind::While(c, body) => {
                let (head, body_b, end) = (
                    fx.b.create_block(),
                    fx.b.create_block(),
                    fx.b.create_block(),
                );
                self.loop_entry(s);
                fx.enter(head);
                fx.cond_branch(c, body_b, end)?;
                fx.enter(body_b);
                self.in_loop(fx, end, head, |lc, fx| lc.stmt(fx, body))?;
                fx.jump(head);
                fx.enter(end);
                Ok(())
            }
            StmtKind::DoWhile(body, c) => {
                let (body_b, cond_b, end) = (
                    fx.b.create_block(),
                    fx.b.create_block(),
                    fx.b.create_block(),
                );
                self.loop_entry(s);
                fx.enter(body_b);
                self.in_loop(fx, end, cond_b, |lc, fx| lc.stmt(fx, body))?;
                fx.enter(cond_b);
                fx.cond_branch(c, body_b, end)?;
                fx.enter(end);
                Ok(())
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.stmt(fx, i)?;
                }
                let Some((inside, keys)) =
                    self.invariant_inside(fx, c.as_ref(), step.as_ref(), body)?
                else {
                    return self.for_loop(fx, s);
                };
                // Checked `bounds`: a copy of the loop without the tests of
                // the subscripts it does not change when they were found
                // inside, the checked loop when not.
                fx.versions(inside, |fx, fast| {
                    if fast {
                        fx.invariant_inside.extend(keys.iter().copied());
                    }
                    let r = self.for_loop(fx, s);
                    for k in &keys {
                        fx.invariant_inside.remove(k);
                    }
                    r
                })
            }
            // Under a condition every lane agrees on (varying ones are
            // caught by `if_stmt`): the step's own control flow.
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => fx.stmt(s),
            _ => self.serial_stmt(fx, s, "a statement the lanes do not take apart"),
        }
    }

    /// A loop whose own condition, initialiser or step needs per-item
    /// effects (then it runs once per lane).
    pub(super) fn loop_needs_serial(&self, s: &Stmt) -> bool {
        match &s.kind {
            StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => self.plan.needs_serial(c),
            StmtKind::For(init, c, step, _) => {
                c.as_ref().is_some_and(|c| self.plan.needs_serial(c))
                    || step.as_ref().is_some_and(|e| self.plan.needs_serial(e))
                    || init.as_ref().is_some_and(|i| self.plan.serial(i))
            }
            _ => true,
        }
    }

    /// A statement inside a masked loop.
    pub(super) fn masked_stmt(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
    ) -> Result<(), String> {
        match &s.kind {
            StmtKind::Decl(l, init) => {
                if self.plan.varying[l.0 as usize] {
                    self.decl(fx, l.0, init.as_ref())
                } else if init.as_ref().is_none_or(|i| !self.plan.init_varies(i)) {
                    fx.stmt(s)
                } else {
                    Err(NOT_MASKABLE.into())
                }
            }
            StmtKind::Expr(e) => self.expr(fx, e).map(|_| ()),
            StmtKind::Block(b) => {
                for s in &b.stmts {
                    self.masked_stmt(fx, s)?;
                }
                Ok(())
            }
            StmtKind::Empty => Ok(()),
            StmtKind::If(c, t, e) => {
                if !self.plan.varies(c) && !self.plan.needs_serial(c) {
                    let (then_b, else_b, end) = (
                        fx.b.create_block(),
                        fx.b.create_block(),
                        fx.b.create_block(),
                    );
                    fx.cond_branch(c, then_b, else_b)?;
                    fx.enter(then_b);
                    self.masked_stmt(fx, t)?;
                    fx.jump(end);
                    fx.enter(else_b);
                    if let Some(e) = e {
                        self.masked_stmt(fx, e)?;
                    }
                    fx.enter(end);
                    return Ok(());
                }
                let v = self.expr(fx, c)?;
                let yes = Self::truth_mask(fx, &v, &c.ty)?;
                let no = yes.map(fx, |fx, y| fx.b.ins().bnot(y));
                self.masked_arm(fx, yes, t)?;
                if let Some(e) = e {
                    self.masked_arm(fx, no, e)?;
                }
                Ok(())
            }
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For(..) => {
                self.masked_loop(fx, s)
            }
            StmtKind::Break | StmtKind::Continue => {
                let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
                let f = self.masks.last().ok_or(NOT_MASKABLE)?;
                let (la, ia) = (f.loop_active, f.iter_active);
                let off = m.map(fx, |fx, m| fx.b.ins().bnot(m));
                let i = ia.get(fx).zip(off, fx, |fx, i, o| fx.b.ins().band(i, o));
                ia.set(fx, i);
                if matches!(s.kind, StmtKind::Break) {
                    let l = la.get(fx).zip(off, fx, |fx, l, o| fx.b.ins().band(l, o));
                    la.set(fx, l);
                }
                Ok(())
            }
            _ => Err(NOT_MASKABLE.into()),
        }
    }

    /// One arm of a varying `if` in a masked loop: skipped when no active
    /// lane takes it.
    pub(super) fn masked_arm(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Pk,
        arm: &Stmt,
    ) -> Result<(), String> {
        self.masks.last_mut().ok_or(NOT_MASKABLE)?.conds.push(cond);
        let m = self.cur_mask(fx).ok_or(NOT_MASKABLE)?;
        let any = Self::any(fx, m);
        let (run, after) = (fx.b.create_block(), fx.b.create_block());
        fx.b.ins().brif(any, run, &[], after, &[]);
        fx.terminated();
        fx.enter(run);
        let r = self.masked_stmt(fx, arm);
        fx.jump(after);
        fx.enter(after);
        if let Some(f) = self.masks.last_mut() {
            f.conds.pop();
        }
        r
    }

    /// A loop the lanes leave at different times: it runs while any lane
    /// is in it; a lane out of the loop (its condition false, or `break`)
    /// or out of the iteration (`continue`) is masked off: its variables
    /// keep their values, its loads read a dummy, its stores go there.
    pub(super) fn masked_loop(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
    ) -> Result<(), String> {
        let (init, cond, step, body, post_test) = match &s.kind {
            StmtKind::While(c, b) => (None, Some(c), None, &**b, false),
            StmtKind::DoWhile(b, c) => (None, Some(c), None, &**b, true),
            StmtKind::For(i, c, st, b) => (i.as_deref(), c.as_ref(), st.as_ref(), &**b, false),
            _ => return Err(NOT_MASKABLE.into()),
        };
        if let Some(i) = init {
            self.stmt(fx, i)?;
        }
        let entry = match self.cur_mask(fx) {
            Some(m) => m,
            None => {
                let ones = fx.b.ins().iconst(types::I32, -1);
                Pk::splat(fx, types::I32X4, ones)
            }
        };
        let la = PkVar::declare(fx, types::I32X4);
        let ia = PkVar::declare(fx, types::I32X4);
        la.set(fx, entry);
        ia.set(fx, entry);
        self.masks.push(MaskFrame {
            loop_active: la,
            iter_active: ia,
            conds: Vec::new(),
        });
        let r = self.masked_loop_blocks(fx, cond, step, body, post_test, la, ia);
        self.masks.pop();
        r
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn masked_loop_blocks(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
        post_test: bool,
        la: PkVar,
        ia: PkVar,
    ) -> Result<(), String> {
        let (head, body_b, latch, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        // The test: lanes whose condition is false leave; on when any is left.
        let test = |lc: &mut Self, fx: &mut FunctionCx<'_, '_>| -> Result<(), String> {
            if let Some(c) = cond {
                let v = lc.expr(fx, c)?;
                let t = Self::truth_mask(fx, &v, &c.ty)?;
                let a = la.get(fx).zip(t, fx, |fx, a, t| fx.b.ins().band(a, t));
                la.set(fx, a);
            }
            let m = la.get(fx);
            ia.set(fx, m);
            let any = Self::any(fx, m);
            fx.b.ins().brif(any, body_b, &[], end, &[]);
            fx.terminated();
            Ok(())
        };
        if post_test {
            fx.jump(body_b);
        } else {
            fx.jump(head);
            fx.enter(head);
            test(self, fx)?;
        }
        fx.enter(body_b);
        self.masked_stmt(fx, body)?;
        fx.jump(latch);
        fx.enter(latch);
        // Lanes that ended the iteration by `continue` are back for the step.
        let a = la.get(fx);
        ia.set(fx, a);
        if let Some(st) = step {
            self.expr(fx, st)?;
        }
        if post_test {
            test(self, fx)?;
        } else {
            fx.jump(head);
        }
        fx.enter(end);
        Ok(())
    }

    /// A loop body runs again after its own writes.
    /// A `for` loop `s` after its initialiser.
    pub(super) fn for_loop(&mut self, fx: &mut FunctionCx<'_, '_>, s: &Stmt) -> Result<(), String> {
        let StmtKind::For(init, c, step, body) = &s.kind else {
            return Err("internal: not a for loop".into());
        };
        let (head, body_b, step_b, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        self.loop_entry(s);
        fx.enter(head);
        match c {
            Some(c) => fx.cond_branch(c, body_b, end)?,
            None => fx.jump(body_b),
        }
        fx.enter(body_b);
        let counted = fx.counted_loop(init.as_deref(), c.as_ref(), step.as_ref(), body);
        fx.with_counted(counted, |fx| {
            self.in_loop(fx, end, step_b, |lc, fx| lc.stmt(fx, body))
        })?;
        fx.enter(step_b);
        if let Some(st) = step {
            self.expr(fx, st)?;
        }
        fx.jump(head);
        fx.enter(end);
        Ok(())
    }

    /// Checked `bounds`, before a loop: whether the index of each array
    /// subscript of its body that the loop does not change
    /// (`walk::invariant_subscripts`) lies inside its array in all
    /// lanes, tested here once and silently (the loop's checked copy
    /// reports what it touches), with those index expressions. `None` when
    /// there is no such subscript.
    pub(super) fn invariant_inside(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> Result<Option<(Value, Vec<*const Expr>)>, String> {
        let subs = fx.invariant_subscripts(cond, step, body);
        if subs.is_empty() {
            return Ok(None);
        }
        let mut all = fx.b.ins().iconst(types::I8, 1);
        for (idx, n) in &subs {
            let v = self.expr(fx, idx)?;
            let signed = idx.ty.elem().is_none_or(|s| s.is_signed());
            for k in 0..fx.step_lanes() {
                let x = Self::lane(fx, &v, k).scalar()?;
                let t = fx.b.func.dfg.value_type(x);
                let x = fx.int_resize(x, t, types::I64, signed);
                let ok = fx.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, x, *n as i64);
                all = fx.b.ins().band(all, ok);
            }
        }
        Ok(Some((
            all,
            subs.iter().map(|(i, _)| *i as *const Expr).collect(),
        )))
    }

    pub(super) fn loop_entry(&mut self, s: &Stmt) {
        if self.plan.stmt_writes(s) {
            self.pure = false;
        }
    }

    pub(super) fn in_loop(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        brk: Block,
        cont: Block,
        f: impl FnOnce(&mut Self, &mut FunctionCx<'_, '_>) -> Result<(), String>,
    ) -> Result<(), String> {
        fx.breaks.push(brk);
        fx.continues.push(cont);
        let r = f(self, fx);
        fx.breaks.pop();
        fx.continues.pop();
        r
    }

    pub(super) fn decl(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        init: Option<&Init>,
    ) -> Result<(), String> {
        let ty = Self::local_ty(fx, l);
        let Some(init) = init else { return Ok(()) };
        let Init::Expr(e) = init else {
            return Err(FALLBACK.into());
        };
        let v = self.expr(fx, e)?;
        let v = self.convert(fx, v, &e.ty, &ty)?;
        // A vector of a packable type is packed once, here.
        let v = match (packed_components(&ty), &v) {
            (Some((vt, n)), LVal::Lanes(_)) => match Self::pack_n(fx, &v, vt, n) {
                Some(c) => LVal::VecN(c),
                None => v,
            },
            _ => v,
        };
        if self.plan.single[l as usize] && !self.vars.contains_key(&l) {
            self.copies.remove(&l);
            self.bound.insert(l, v);
            return Ok(());
        }
        self.write_local(fx, l, &ty, &v)?;
        if self.plan.single[l as usize] && self.masks.is_empty() && matches!(v, LVal::Aff { .. }) {
            // A region piece's frame local written once here (`uint lid =
            // get_local_id(0)`): stored to its slot for the later pieces,
            // and read in this one as the affine value it is (its accesses
            // one address and constant offsets, not one per lane).
            self.copies.remove(&l);
            self.bound.insert(l, v);
        }
        Ok(())
    }

    pub(super) fn write_local(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        ty: &Type,
        v: &LVal,
    ) -> Result<(), String> {
        let blended;
        let v = match self.cur_mask(fx) {
            Some(m) => {
                let e = Expr::rvalue(
                    ExprKind::Var(VarRef::Local(crate::sema::hir::LocalId(l))),
                    ty.clone(),
                    fx.func.locals[l as usize].span,
                );
                let old = self.read(fx, &e)?;
                blended = Self::blend(fx, m, v, &old)?;
                &blended
            }
            None => v,
        };
        match self.slot(fx, l)? {
            Slot::Packed(var) => {
                let vt = packed_type(ty).ok_or(FALLBACK)?;
                let x = Self::pack(fx, v, vt).ok_or(FALLBACK)?;
                var.set(fx, x);
                self.interleave(fx, &[x]);
            }
            Slot::PackedN(vars) => {
                let (vt, n) = packed_components(ty).ok_or(FALLBACK)?;
                let xs = Self::pack_n(fx, v, vt, n).ok_or(FALLBACK)?;
                for (var, x) in vars.iter().zip(&xs) {
                    var.set(fx, *x);
                }
                self.interleave(fx, &xs);
            }
            Slot::Lanes(places) => {
                for (k, p) in places.iter().enumerate() {
                    let x = Self::lane(fx, v, k);
                    fx.write_place(p, ty, &x)?;
                }
            }
        }
        Ok(())
    }

    /// Keep the registers of packed values interleaved in the machine
    /// code: Cranelift places a pure instruction where its value is first
    /// needed, in the order of the instructions with effects, so two
    /// registers' chains (a hash's rounds) needed only at the end would come
    /// out one whole chain after the other, too far apart for the core to
    /// overlap them. A store of each register of a value written to a
    /// packed local (to a slot nobody reads; the stores take no arithmetic
    /// port), once [`INTERLEAVE_EVERY`] instructions were made since the
    /// last, makes the work of every register come out together in short
    /// stretches, register after register (where it does not make values
    /// spill: [`INTERLEAVE_MAX_CARRIED`]).
    fn interleave(&mut self, fx: &mut FunctionCx<'_, '_>, xs: &[Pk]) {
        if fx.regs < 2 {
            return;
        }
        let plan = &self.plan;
        let on = *self.interleaving.get_or_insert_with(|| {
            let carried = fx.func.locals.iter().enumerate().filter(|(l, local)| {
                plan.varying[*l] && !plan.single[*l] && packed_type(&local.ty).is_some()
            });
            carried.count() <= INTERLEAVE_MAX_CARRIED
        });
        let now = fx.b.func.dfg.num_insts();
        if !on || now < self.interleaved_at + INTERLEAVE_EVERY {
            return;
        }
        self.interleaved_at = now;
        let slot = *self.sink.get_or_insert_with(|| {
            fx.b.create_sized_stack_slot(cranelift_codegen::ir::StackSlotData::new(
                cranelift_codegen::ir::StackSlotKind::ExplicitSlot,
                16 * MAX_REGS as u32,
                4,
            ))
        });
        for x in xs {
            for (r, v) in x.regs().iter().enumerate() {
                fx.b.ins().stack_store(types::I64, *v, slot, 16 * r as i32);
            }
        }
    }

    /// `if (c)`: a uniform `c` is an ordinary branch; a varying one runs an
    /// arm for the whole step when the lanes agree.
    pub(super) fn if_stmt(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
        c: &Expr,
        t: &Stmt,
        e: Option<&Stmt>,
    ) -> Result<(), String> {
        let (then_b, else_b, end) = (
            fx.b.create_block(),
            fx.b.create_block(),
            fx.b.create_block(),
        );
        if !self.plan.varies(c) {
            fx.cond_branch(c, then_b, else_b)?;
        } else {
            let v = self.expr(fx, c)?;
            let (all, any) = if matches!(v, LVal::Vec(_)) {
                // A packed condition: its mask, tested whole.
                let m = Self::truth_mask(fx, &v, &c.ty)?;
                (m.all_true(fx), m.any_true(fx))
            } else {
                let mut all = None;
                let mut any = None;
                for k in 0..fx.step_lanes() {
                    let x = Self::lane(fx, &v, k);
                    let t = fx.truth(&x, &c.ty)?;
                    all = Some(all.map_or(t, |a| fx.b.ins().band(a, t)));
                    any = Some(any.map_or(t, |a| fx.b.ins().bor(a, t)));
                }
                (all.ok_or(FALLBACK)?, any.ok_or(FALLBACK)?)
            };
            let (mixed, not_all) = (fx.b.create_block(), fx.b.create_block());
            fx.b.ins().brif(all, then_b, &[], not_all, &[]);
            fx.terminated();
            fx.enter(not_all);
            fx.b.ins().brif(any, mixed, &[], else_b, &[]);
            fx.terminated();
            fx.enter(mixed);
            if self.pure {
                Self::note(
                    fx,
                    s.span,
                    &format!(
                        "when the {} work-items of a step disagree here, they run one at a time",
                        fx.step_lanes()
                    ),
                );
                // Nothing written yet: the step's items start over one at a time.
                let x0 = self.ids[0];
                let lanes = fx.step_lanes() as i64;
                let end_x = fx.b.ins().iadd_imm_s(x0, lanes);
                fx.b.ins().jump(self.chunk, &[x0.into(), end_x.into()]);
                fx.terminated();
            } else {
                self.serial_stmt(fx, s, "an if work-items disagree on, after a write")?;
                fx.jump(end);
            }
        }
        let was_pure = self.pure;
        fx.enter(then_b);
        self.stmt(fx, t)?;
        fx.jump(end);
        self.pure = was_pure;
        fx.enter(else_b);
        if let Some(e) = e {
            self.stmt(fx, e)?;
        }
        fx.enter(end);
        Ok(())
    }

    // -------------------------------------------------------- expressions
}
