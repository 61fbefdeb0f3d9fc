//! Lanes run one after another: each lane's places for the varying
//! locals, statements and expressions emitted once per lane.

use super::*;

impl LaneCx {
    /// Storage for varying local `l`.
    pub(super) fn slot(&mut self, fx: &mut FunctionCx<'_, '_>, l: u32) -> Result<Slot, String> {
        if self.plan.lane_memory[l as usize] {
            // Interleaved copies have no place of their own per lane: the
            // ordinary code (a statement run once per lane) cannot reach
            // them.
            return Err(FALLBACK.into());
        }
        if let Some(s) = self.vars.get(&l) {
            return Ok(s.clone());
        }
        let ty = Self::local_ty(fx, l);
        let slot = match (packed_type(&ty), packed_components(&ty)) {
            (Some(vt), _) => Slot::Packed(PkVar::declare(fx, vt)),
            (_, Some((vt, n))) => Slot::PackedN((0..n).map(|_| PkVar::declare(fx, vt)).collect()),
            _ => Slot::Lanes(Self::new_places(fx, &ty)?),
        };
        self.vars.insert(l, slot.clone());
        Ok(slot)
    }

    /// The place lane `k` uses for varying local `l` in serial code, and
    /// the packed variables to write it back to afterwards (one per
    /// component; none when it has places of its own). A packed value is
    /// taken from `start` (the packed variables before the first lane ran)
    /// where it is there: lane `k` does not change the other lanes' values,
    /// and reading the current one would make each lane wait for the lanes
    /// before it (their results inserted into the same register).
    pub(super) fn lane_place(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
        k: usize,
        start: &[(PkVar, Pk)],
    ) -> Result<(CPlace, Vec<PkVar>), String> {
        let ty = Self::local_ty(fx, l);
        let bound = if self.vars.contains_key(&l) {
            None
        } else {
            self.bound.get(&l).cloned()
        };
        let (value, back) = match bound {
            Some(v) => (Self::lane(fx, &v, k), Vec::new()),
            None => match self.slot(fx, l)? {
                Slot::Lanes(p) => return Ok((p[k].clone(), Vec::new())),
                Slot::Packed(var) => {
                    let v = Self::at_start(fx, start, var);
                    let x = v.lane(fx, k);
                    (CValue::Scalar(x), vec![var])
                }
                Slot::PackedN(vars) => {
                    let xs = vars
                        .iter()
                        .map(|var| {
                            let v = Self::at_start(fx, start, *var);
                            v.lane(fx, k)
                        })
                        .collect();
                    (CValue::Lanes(xs), vars)
                }
            },
        };
        if let std::collections::hash_map::Entry::Vacant(e) = self.copies.entry(l) {
            e.insert(Self::new_places(fx, &ty)?);
        }
        let p = self.copies[&l][k].clone();
        fx.write_place(&p, &ty, &value)?;
        Ok((p, back))
    }

    /// Packed variable `var` as `start` holds it, else as it is now.
    pub(super) fn at_start(fx: &mut FunctionCx<'_, '_>, start: &[(PkVar, Pk)], var: PkVar) -> Pk {
        match start.iter().find(|(v, _)| *v == var) {
            Some(&(_, x)) => x,
            None => var.get(fx),
        }
    }

    /// Run `emit` once per lane with that lane's places for the varying
    /// locals `uses` mentions and that lane's work-item ids.
    pub(super) fn per_lane<T>(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        uses: &[u32],
        mut emit: impl FnMut(&mut FunctionCx<'_, '_>) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut out: Vec<Option<T>> = (0..fx.step_lanes()).map(|_| None).collect();
        let mut start = Vec::new();
        for &l in uses {
            if self.vars.contains_key(&l) || !self.bound.contains_key(&l) {
                let vars = match self.slot(fx, l)? {
                    Slot::Packed(var) => vec![var],
                    Slot::PackedN(vars) => vars,
                    Slot::Lanes(_) => Vec::new(),
                };
                for var in vars {
                    start.push((var, var.get(fx)));
                }
            }
        }
        // Each lane's own local id goes to the item here (below), so its
        // reports name the item as it is, not relative to lane 0.
        let rel = std::mem::replace(&mut fx.lanes_rel, false);
        for k in fx.lane_order() {
            let mut saved = Vec::new();
            for &l in uses {
                let (p, back) = self.lane_place(fx, l, k, &start)?;
                let old = std::mem::replace(&mut fx.locals[l as usize], p.clone());
                saved.push((l, old, p, back));
            }
            let x = fx.b.ins().iadd_imm_s(self.ids[0], k as i64);
            if fx.store_item_ids {
                fx.b.ins()
                    .store(crate::codegen::value::flags(), x, fx.item, o::ITEM_LOCAL_ID);
            }
            let ids = [x, self.ids[1], self.ids[2]];
            let old = fx.inline_ids.replace((ids, self.bases));
            let saved_me = at_lane(fx, k);
            if let Some(me) = fx.check_me.filter(|_| fx.lanes_me0.is_some()) {
                // Functions it calls name the work-item by the field.
                fx.b.ins().store(
                    crate::codegen::value::flags(),
                    me,
                    fx.item,
                    o::ITEM_CHECK_ME,
                );
            }
            let r = emit(fx);
            fx.check_me = saved_me;
            fx.inline_ids = old;
            for (l, old, p, back) in saved {
                fx.locals[l as usize] = old;
                if !back.is_empty() {
                    // What this lane left in its copy goes back into the
                    // packed variables.
                    let ty = Self::local_ty(fx, l);
                    let xs = fx.read_place(&p, &ty)?.lanes()?;
                    for (var, x) in back.iter().zip(xs) {
                        let v = var.get(fx).insert(fx, x, k);
                        var.set(fx, v);
                    }
                }
            }
            out[k] = Some(r?);
        }
        if rel {
            fx.lanes_rel = true;
            fx.b.ins().store(
                crate::codegen::value::flags(),
                self.ids[0],
                fx.item,
                o::ITEM_LOCAL_ID,
            );
        }
        out.into_iter()
            .map(|r| r.ok_or_else(|| "internal: a lane not run".to_string()))
            .collect()
    }

    /// The varying locals `s` mentions.
    pub(super) fn uses_stmt(&self, s: &Stmt) -> Vec<u32> {
        let mut v = Vec::new();
        stmt_tree_exprs(s, &mut |e| self.collect_uses(e, &mut v));
        if let StmtKind::Decl(l, _) = &s.kind {
            v.push(l.0);
        }
        let mut decls = Vec::new();
        collect_decls(s, &mut decls);
        v.extend(decls.into_iter().filter(|l| self.plan.varying[*l as usize]));
        v.sort_unstable();
        v.dedup();
        v.retain(|l| self.plan.varying[*l as usize]);
        v
    }

    pub(super) fn uses_expr(&self, e: &Expr) -> Vec<u32> {
        let mut v = Vec::new();
        crate::lower::walk::expr_tree(e, &mut |x| self.collect_uses(x, &mut v));
        v.sort_unstable();
        v.dedup();
        v
    }

    pub(super) fn collect_uses(&self, e: &Expr, v: &mut Vec<u32>) {
        if let ExprKind::Var(VarRef::Local(l)) = &e.kind {
            if self.plan.varying[l.0 as usize] {
                v.push(l.0);
            }
        }
    }

    /// `CRANECL_EXPLAIN`: note `what` happens at `span` (once per place).
    pub(super) fn note(fx: &FunctionCx<'_, '_>, span: crate::source::Span, what: &str) {
        if !fx.pcx.explain {
            return;
        }
        let n = crate::lower::explain::note_at(fx.pcx.sources.as_deref(), span, what);
        let mut notes = fx.pcx.lane_notes.borrow_mut();
        if notes.len() < crate::lower::explain::MAX_NOTES && !notes.contains(&n) {
            notes.push(n);
        }
    }

    /// A whole statement once per lane (`why`, for `CRANECL_EXPLAIN`).
    pub(super) fn serial_stmt(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        s: &Stmt,
        why: &str,
    ) -> Result<(), String> {
        if self.masked() {
            return Err(NOT_MASKABLE.into());
        }
        if contains(s, &|k| matches!(k, StmtKind::Return(_))) {
            // A lane's return would end the other lanes' turns too.
            return Err(FALLBACK.into());
        }
        Self::note(fx, s.span, &format!("once per lane ({why})"));
        let uses = self.uses_stmt(s);
        self.per_lane(fx, &uses, |fx| fx.stmt(s))?;
        Ok(())
    }

    /// A whole expression once per lane.
    pub(super) fn serial_expr(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        e: &Expr,
    ) -> Result<LVal, String> {
        if self.masked() && !register_only(e) {
            return Err(NOT_MASKABLE.into());
        }
        Self::note(
            fx,
            e.span,
            &format!(
                "once per lane (no packed form of this {})",
                e.ty.display(&fx.pcx.prog.records)
            ),
        );
        let uses = self.uses_expr(e);
        Ok(LVal::Lanes(self.per_lane(fx, &uses, |fx| fx.expr(e))?))
    }

    // -------------------------------------------- for the region strategy

    /// The local varies between the lanes of a step.
    pub(crate) fn varies_local(&self, l: u32) -> bool {
        self.plan.varying[l as usize]
    }

    /// Give varying local `l` this storage (a region piece loads it from
    /// each lane's frame).
    pub(crate) fn preset(&mut self, l: u32, slot: Slot) {
        self.bound.remove(&l);
        self.vars.insert(l, slot);
    }

    /// Give varying local `l`, never written, this value for the step (a
    /// region piece's copy of `get_local_id(0)`: lane 0's, then +1 per lane).
    pub(crate) fn preset_value(&mut self, l: u32, v: LVal) {
        self.vars.remove(&l);
        self.bound.insert(l, v);
    }

    /// Each lane's value of varying local `l`.
    pub(crate) fn local_lanes(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        l: u32,
    ) -> Result<Vec<CValue>, String> {
        let ty = Self::local_ty(fx, l);
        let v = match self.bound.get(&l).cloned() {
            Some(v) if !self.vars.contains_key(&l) => v,
            _ => {
                let e = Expr::rvalue(
                    ExprKind::Var(VarRef::Local(crate::sema::hir::LocalId(l))),
                    ty,
                    fx.func.locals[l as usize].span,
                );
                self.read(fx, &e)?
            }
        };
        Ok((0..fx.step_lanes())
            .map(|k| Self::lane(fx, &v, k))
            .collect())
    }
}
