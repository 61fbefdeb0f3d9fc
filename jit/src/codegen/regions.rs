//! The region entry of a kernel with barriers: the plan of
//! `lower/regions.rs` (the body cut at its barriers into pieces) emitted as
//! one function that runs a whole work-group.
//!
//! Each piece is a loop over the work-items of the group (the group
//! entry's loop nest), or eight or four per step in the lanes (`lanes/`) where the
//! kernel allows them; a piece the plan runs once per group is run once.
//! Inside a piece a frame local is loaded into Cranelift variables at the
//! start of each work-item's turn and stored back at the end if the piece
//! writes it (unless its address is taken, then it is used in place in the
//! work-item's frame, `ItemState::arena`). A control node around barriers
//! branches on the decision of the last work-item that ran its condition;
//! checked `barriers` compares the decisions of all work-items there and
//! counts the epochs at each barrier.

use super::fx::{define, FunctionCx};
use super::group::{finish_entry, start_entry, Geometry};
use super::value::{clif_scalar, clif_type, flags, CPlace, CValue};
use super::{abi, ProgramCx};
use crate::launch::ArgInfo;
use crate::lower::regions::{
    barrier_span, first_barrier, group_updates, guarded_by_local_id0, varying_decisions,
    writes_local_memory, Node, Plan,
};
use crate::lower::Step;
use crate::runtime::check::{self, SiteKind};
use crate::runtime::offsets as o;
use crate::sema::hir::{Expr, Function, Stmt, StmtKind};
use crate::sema::types::Type;
use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;

/// Per-entry state of the region emitter.
struct Emitter<'p, 'a> {
    plan: &'p Plan<'a>,
    /// Pieces run several work-items per step (`lanes/`) when the kernel
    /// allows it.
    lanes: Option<super::lanes::Plan>,
    geo: Geometry,
    arena: Value,
    /// (break, continue) targets of the loops around barriers, innermost last.
    targets: std::cell::RefCell<Vec<(cranelift_codegen::ir::Block, cranelift_codegen::ir::Block)>>,
}

impl FunctionCx<'_, '_> {
    /// Start a work-item's turn in `piece`: point its frame locals at its
    /// frame, loading promotable ones into fresh variables.
    fn enter_piece(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        lin: Option<Value>,
    ) -> (Vec<(u32, Value)>, Value) {
        let base = match lin {
            Some(lin) => {
                let off = self.b.ins().imul_imm_s(lin, em.plan.frame_size as i64);
                self.b.ins().iadd(em.arena, off)
            }
            None => em.arena,
        };
        let mut promoted = Vec::new();
        self.region_flags.clear();
        let mut used: Vec<u32> = em.plan.uses[piece]
            .iter()
            .copied()
            .filter(|l| em.plan.frame.contains_key(l))
            .collect();
        used.sort_unstable();
        for l in used {
            // A uniform local has one copy, in the first work-item's frame.
            let at = if em.plan.uniform.contains(&l) {
                em.arena
            } else {
                base
            };
            let addr = self.b.ins().iadd_imm_s(at, em.plan.frame[&l] as i64);
            let ty = self.func.locals[l as usize].ty.clone();
            let promotable = !em.plan.addressed.contains(&l)
                && (ty.is_vector() || clif_type(&ty).is_some())
                && !ty.is_array();
            if !promotable {
                self.locals[l as usize] = CPlace::Addr(addr);
                continue;
            }
            let (t, n) = match &ty {
                Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
                t => (clif_type(t).unwrap_or(types::I64), 1),
            };
            let vars: Vec<Variable> = (0..n).map(|_| self.b.declare_var(t)).collect();
            let place = CPlace::Var(vars.clone());
            if !em.plan.declares(piece, l) {
                if let Ok(v) = self.load_frame(addr, &ty) {
                    let _ = self.write_place(&place, &ty, &v);
                }
            }
            if let Some(&off) = em
                .plan
                .uninit_flags
                .get(&l)
                .filter(|_| !em.plan.uniform.contains(&l))
            {
                for (k, var) in vars.iter().enumerate() {
                    let fa = self.b.ins().iadd_imm_s(at, (off + k as u64) as i64);
                    let w = self.b.ins().load(types::I8, flags(), fa, 0);
                    if let Some(flag) = self.uninit_follow_lane(*var, l, w) {
                        self.region_flags.push((flag, fa));
                    }
                }
            }
            self.locals[l as usize] = place;
            if em.plan.writes[piece].contains(&l) {
                promoted.push((l, addr));
            }
        }
        (promoted, base)
    }

    /// End a work-item's turn: store promoted locals back to its frame.
    fn leave_piece(&mut self, promoted: &[(u32, Value)]) -> Result<(), String> {
        for (flag, at) in std::mem::take(&mut self.region_flags) {
            let w = self.b.use_var(flag);
            self.b.ins().store(flags(), w, at, 0);
        }
        for &(l, addr) in promoted {
            let ty = self.func.locals[l as usize].ty.clone();
            let place = self.locals[l as usize].clone();
            let v = match &place {
                // Saved as it is (not a read of the program's: checked
                // uninit tests nothing here).
                CPlace::Var(vars) => {
                    let lanes: Vec<Value> = vars.iter().map(|v| self.b.use_var(*v)).collect();
                    if ty.is_vector() {
                        CValue::Lanes(lanes)
                    } else {
                        CValue::from_lanes(lanes)
                    }
                }
                _ => self.unchecked(|fx| fx.read_place(&place, &ty))?,
            };
            self.unchecked(|fx| fx.store(addr, &ty, &v))?;
        }
        Ok(())
    }

    /// Run `stmts` (and `cond`, whose truth is returned as the last work-item
    /// saw it) for every work-item.
    fn piece_loop(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        // Checked mode: the group's state, its site cache, serial and first
        // serial do not change inside a piece (no barrier in it): loaded
        // once here for all its work-items.
        let saved = self.check_state.take();
        if self.checks_memory() {
            self.check_state = Some(self.load_check_state());
        }
        let r = self.piece_loop_inner(em, piece, stmts, cond);
        self.check_state = saved;
        r
    }

    /// Run `stmts` of `piece` once for the group (in the first work-item's
    /// frame, where uniform locals live).
    fn group_once(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
    ) -> Result<(), String> {
        if stmts.is_empty() {
            return Ok(());
        }
        let (promoted, _) = self.enter_piece(em, piece, None);
        for s in stmts {
            self.stmt(s)?;
        }
        self.leave_piece(&promoted)
    }

    fn piece_loop_inner(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        // The decision defaults to false: when every work-item has returned,
        // loops end and conditional barriers are skipped.
        if em.plan.once.get(piece).copied().unwrap_or(false) {
            // Every work-item would compute (and store) the same values.
            let (promoted, _) = self.enter_piece(em, piece, None);
            for s in stmts {
                self.stmt(s)?;
            }
            let d = match cond {
                Some(c) => {
                    let v = self.expr(c)?;
                    Some(self.truth(&v, &c.ty)?)
                }
                None => None,
            };
            self.leave_piece(&promoted)?;
            return Ok(d);
        }
        let (pre, post) = group_updates(stmts, &em.plan.uniform_or_shared());
        if cond.is_none() && pre + post > 0 {
            // Updates of uniform locals once for the group, around the
            // work-items' loop over the rest.
            let (first, rest) = stmts.split_at(pre);
            let (middle, last) = rest.split_at(rest.len() - post);
            self.group_once(em, piece, first)?;
            if !middle.is_empty() {
                self.piece_loop_inner(em, piece, middle, None)?;
            }
            self.group_once(em, piece, last)?;
            return Ok(None);
        }
        if let (None, None, Some((bound, then))) = (
            cond,
            em.plan.done_offset,
            guarded_by_local_id0(stmts, em.plan),
        ) {
            // Rows end at the bound: the items past it would only test it.
            let (_, _) = self.enter_piece(em, piece, None);
            let v = self.expr(bound)?.scalar()?;
            let t = self.b.func.dfg.value_type(v);
            let signed = bound.ty.elem().is_some_and(|s| s.is_signed());
            let v = self.int_resize(v, t, types::I64, signed);
            let v = if signed {
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().smax(v, zero)
            } else {
                v
            };
            let end = self.b.ins().umin(v, em.geo.sizes[0]);
            match &em.lanes {
                // Eight at a time while eight are below the bound: the
                // condition holds for every lane, so `then` runs unmasked.
                Some(lanes) if self.pcx.schedule.is_none() => {
                    self.lanes_item_loop_to(
                        em.geo,
                        Some(end),
                        lanes.clone(),
                        |fx, lc, lin0| {
                            let back = fx.enter_piece_lanes(em, piece, lc, lin0)?;
                            lc.stmts(fx, &[then])?;
                            fx.leave_piece_lanes(lc, &back)
                        },
                        |fx, _, lin| {
                            let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                            fx.stmt(then)?;
                            fx.leave_piece(&promoted)
                        },
                    )?;
                }
                _ => self.item_loop_to(em.geo, Some(end), |fx, _, lin, _| {
                    let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                    fx.stmt(then)?;
                    fx.leave_piece(&promoted)
                })?,
            }
            return Ok(None);
        }
        if let Some(lanes) = &em.lanes {
            return self.piece_loop_lanes(em, lanes, piece, stmts, cond);
        }
        let decision = cond.map(|_| self.b.declare_var(types::I8));
        if let Some(d) = decision {
            let no = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(d, no);
        }
        let (diverge, agree) = self.decision_agreement(cond.is_some());
        self.item_loop(em.geo, |fx, _, lin, next| {
            fx.uninit_clear();
            let (promoted, base) = fx.enter_piece(em, piece, Some(lin));
            if let Some(off) = em.plan.done_offset {
                // A work-item that returned skips the rest of the kernel.
                let done = fx.b.ins().load(types::I8, flags(), base, off as i32);
                let go = fx.b.create_block();
                fx.b.ins().brif(done, next, &[], go, &[]);
                fx.terminated();
                fx.enter(go);
                fx.region_done = Some(fx.b.ins().iadd_imm_s(base, off as i64));
                fx.return_to = Some(next);
            }
            for s in stmts {
                fx.stmt(s)?;
            }
            fx.region_done = None;
            fx.return_to = None;
            if let (Some(c), Some(d)) = (cond, decision) {
                let v = fx.expr(c)?;
                let t = fx.truth(&v, &c.ty)?;
                fx.b.def_var(d, t);
                if let Some(vars) = agree {
                    fx.note_decision(vars, t, lin);
                }
            }
            fx.leave_piece(&promoted)
        })?;
        if let (Some(vars), Some(sites)) = (agree, diverge) {
            self.check_decisions(vars, sites);
        }
        Ok(decision.map(|d| self.b.use_var(d)))
    }

    /// Checked barriers: the work-items must agree on a decision that leads
    /// to a barrier. The barriers the next decision leads to, and the
    /// variables [`Self::note_decision`] keeps.
    #[allow(clippy::type_complexity)]
    fn decision_agreement(
        &mut self,
        decides: bool,
    ) -> (
        Option<(Option<crate::source::Span>, Option<crate::source::Span>)>,
        Option<[Variable; 3]>,
    ) {
        let diverge = self
            .diverge
            .take()
            .filter(|_| self.pcx.check.barriers && decides);
        let agree = diverge.map(|_| {
            let vars: [Variable; 3] = std::array::from_fn(|_| self.b.declare_var(types::I64));
            let none = self.b.ins().iconst(types::I64, -1);
            for v in vars {
                self.b.def_var(v, none);
            }
            vars
        });
        (diverge, agree)
    }

    /// Checked barriers: remember the first live work-item's decision `t`
    /// (`vars[0]`, its linear id in `vars[1]`) and the first that differs
    /// (`vars[2]`).
    fn note_decision(&mut self, vars: [Variable; 3], t: Value, lin: Value) {
        let t = self.b.ins().uextend(types::I64, t);
        let first = self.b.use_var(vars[0]);
        let first_lin = self.b.use_var(vars[1]);
        let other = self.b.use_var(vars[2]);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, first, -1);
        let first2 = self.b.ins().select(none, t, first);
        let first_lin2 = self.b.ins().select(none, lin, first_lin);
        let differs = self.b.ins().icmp(IntCC::NotEqual, t, first);
        let unset = self.b.ins().icmp_imm_s(IntCC::Equal, other, -1);
        let take = self.b.ins().band(differs, unset);
        let not_none = self.b.ins().bnot(none);
        let take = self.b.ins().band(take, not_none);
        let other2 = self.b.ins().select(take, lin, other);
        self.b.def_var(vars[0], first2);
        self.b.def_var(vars[1], first_lin2);
        self.b.def_var(vars[2], other2);
    }

    /// Checked barriers, after a decision's piece: when two work-items
    /// decided differently, report the divergence at the barrier the first
    /// one goes to (`sites`: the first barrier where the decision is true,
    /// and where it is false).
    fn check_decisions(
        &mut self,
        vars: [Variable; 3],
        sites: (Option<crate::source::Span>, Option<crate::source::Span>),
    ) {
        let site_of = |fx: &mut Self, s: Option<crate::source::Span>| -> i64 {
            match s {
                Some(span) => {
                    let saved = fx.cur_span;
                    fx.cur_span = span;
                    let id = fx.site(SiteKind::Barrier, 0, 0, false);
                    fx.cur_span = saved;
                    i64::from(id)
                }
                None => -1,
            }
        };
        let (on_true, on_false) = (site_of(self, sites.0), site_of(self, sites.1));
        let other = self.b.use_var(vars[2]);
        let mixed = self.b.ins().icmp_imm_s(IntCC::NotEqual, other, -1);
        let report = self.b.create_block();
        let after = self.b.create_block();
        self.b.ins().brif(mixed, report, &[], after, &[]);
        self.b.seal_block(report);
        self.b.switch_to_block(report);
        self.b.set_cold_block(report);
        let first = self.b.use_var(vars[0]);
        let first_lin = self.b.use_var(vars[1]);
        let st = self.b.ins().iconst(types::I64, on_true);
        let sf = self.b.ins().iconst(types::I64, on_false);
        let item = self.item;
        let f = check::cranecl_check_region_divergence as *const u8;
        self.call_host(
            f,
            &[types::I64; 6],
            &[],
            &[item, first, first_lin, other, st, sf],
        );
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
    }

    /// A barrier of the region strategy, checked: a new epoch (`races`,
    /// `uninit`), and with `barriers` every work-item must be live here.
    fn checked_region_barrier(&mut self, em: &Emitter<'_, '_>, s: &Stmt) {
        let c = self.pcx.check;
        if !(c.barriers || c.tracks()) {
            return;
        }
        let saved = self.cur_span;
        self.cur_span = barrier_span(s);
        let site = if c.barriers {
            i64::from(self.site(SiteKind::Barrier, 0, 0, false))
        } else {
            -1
        };
        self.cur_span = saved;
        let done = match em.plan.done_offset {
            Some(off) if c.barriers => off as i64,
            _ => -1,
        };
        let item = self.item;
        let site = self.b.ins().iconst(types::I64, site);
        let frame = self.b.ins().iconst(types::I64, em.plan.frame_size as i64);
        let done = self.b.ins().iconst(types::I64, done);
        let f = check::cranecl_check_region_barrier as *const u8;
        self.call_host(f, &[types::I64; 4], &[], &[item, site, frame, done]);
    }

    /// [`Self::piece_loop`] several work-items per step (`lanes/`): each
    /// lane's frame locals are loaded at the start of the step and stored
    /// back at its end; the rest of a row runs one item at a time.
    fn piece_loop_lanes(
        &mut self,
        em: &Emitter<'_, '_>,
        lanes: &super::lanes::Plan,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        let decision = cond.map(|_| self.b.declare_var(types::I8));
        if let Some(d) = decision {
            let no = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(d, no);
        }
        let (diverge, agree) = self.decision_agreement(cond.is_some());
        self.lanes_item_loop(
            em.geo,
            lanes.clone(),
            |fx, lc, lin0| {
                let back = fx.enter_piece_lanes(em, piece, lc, lin0)?;
                lc.stmts(fx, stmts)?;
                if let (Some(c), Some(d)) = (cond, decision) {
                    let t = match agree {
                        Some(vars) => {
                            let ts = lc.truths(fx, c)?;
                            for (k, t) in ts.iter().enumerate() {
                                let lin = fx.b.ins().iadd_imm_s(lin0, k as i64);
                                fx.note_decision(vars, *t, lin);
                            }
                            *ts.last().ok_or("internal: no lanes")?
                        }
                        None => lc.last_truth(fx, c)?,
                    };
                    fx.b.def_var(d, t);
                }
                fx.leave_piece_lanes(lc, &back)
            },
            |fx, _, lin| {
                let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                for s in stmts {
                    fx.stmt(s)?;
                }
                if let (Some(c), Some(d)) = (cond, decision) {
                    let v = fx.expr(c)?;
                    let t = fx.truth(&v, &c.ty)?;
                    fx.b.def_var(d, t);
                    if let Some(vars) = agree {
                        fx.note_decision(vars, t, lin);
                    }
                }
                fx.leave_piece(&promoted)
            },
        )?;
        if let (Some(vars), Some(sites)) = (agree, diverge) {
            self.check_decisions(vars, sites);
        }
        Ok(decision.map(|d| self.b.use_var(d)))
    }

    /// Load the frame locals of `piece` for the lanes of a step whose
    /// first work-item has linear index `lin0`: a local varying between the
    /// lanes gets one value per lane, any other one value (from the group's
    /// copy for a group-uniform local, else from the first lane's frame).
    /// Returns what to store back afterwards.
    fn enter_piece_lanes(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        lc: &mut super::lanes::LaneCx,
        lin0: Value,
    ) -> Result<Vec<(u32, bool, Vec<Value>)>, String> {
        use super::lanes::{packed_type, Pk, PkVar, Slot};
        let fs = em.plan.frame_size as i64;
        let bases: Vec<Value> = (0..self.step_lanes() as i64)
            .map(|k| {
                let lin = self.b.ins().iadd_imm_s(lin0, k);
                let off = self.b.ins().imul_imm_s(lin, fs);
                self.b.ins().iadd(em.arena, off)
            })
            .collect();
        let mut used: Vec<u32> = em.plan.uses[piece]
            .union(&em.plan.writes[piece])
            .copied()
            .filter(|l| em.plan.frame.contains_key(l))
            .collect();
        used.sort_unstable();
        used.dedup();
        let mut back = Vec::new();
        for l in used {
            let off = em.plan.frame[&l] as i64;
            let ty = self.func.locals[l as usize].ty.clone();
            let written = em.plan.writes[piece].contains(&l);
            let scalar_place = |fx: &mut Self, ty: &Type| -> CPlace {
                let (t, n) = match ty {
                    Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
                    t => (clif_type(t).unwrap_or(types::I64), 1),
                };
                CPlace::Var((0..n).map(|_| fx.b.declare_var(t)).collect())
            };
            if em.plan.uniform.contains(&l) || !lc.varies_local(l) {
                // One value: the group's copy, or the first lane's (the
                // lanes of a step agree on it).
                let group_copy = em.plan.uniform.contains(&l);
                let at = if group_copy { em.arena } else { bases[0] };
                let addr = self.b.ins().iadd_imm_s(at, off);
                let place = scalar_place(self, &ty);
                if !em.plan.declares(piece, l) {
                    let v = self.load_frame(addr, &ty)?;
                    self.write_place(&place, &ty, &v)?;
                }
                self.locals[l as usize] = place;
                if written {
                    let addrs = if group_copy {
                        vec![addr]
                    } else {
                        bases
                            .iter()
                            .map(|b| self.b.ins().iadd_imm_s(*b, off))
                            .collect()
                    };
                    back.push((l, false, addrs));
                }
                continue;
            }
            if em.plan.local_id0.contains(&l) && !written {
                // A copy of `get_local_id(0)`: the lanes of a step are
                // consecutive work-items of a row, so lane k's value is
                // lane 0's + k (an affine value: packed accesses).
                let addr = self.b.ins().iadd_imm_s(bases[0], off);
                let v = self.load_frame(addr, &ty)?.scalar()?;
                lc.preset_value(l, super::lanes::LVal::Aff { base: v, step: 1 });
                continue;
            }
            let addrs: Vec<Value> = bases
                .iter()
                .map(|b| self.b.ins().iadd_imm_s(*b, off))
                .collect();
            if em.plan.declares(piece, l) {
                // Its declaration makes its storage (`LaneCx::decl`).
                back.push((l, true, addrs));
                continue;
            }
            let mut vals = Vec::with_capacity(self.step_lanes());
            for a in &addrs {
                vals.push(self.load_frame(*a, &ty)?);
            }
            let slot = match (packed_type(&ty), super::lanes::packed_components(&ty)) {
                (None, Some((vt, n))) => {
                    // One packed register per component.
                    let mut vars = Vec::with_capacity(n);
                    for c in 0..n {
                        let mut xs = Vec::with_capacity(self.step_lanes());
                        for val in &vals {
                            xs.push(*val.lanes()?.get(c).ok_or("internal: vector lanes")?);
                        }
                        let v = Pk::from_lanes(self, vt, &xs);
                        let var = PkVar::declare(self, vt);
                        var.set(self, v);
                        vars.push(var);
                    }
                    Slot::PackedN(vars)
                }
                (Some(vt), _) => {
                    let xs: Vec<Value> =
                        vals.iter().map(|v| v.scalar()).collect::<Result<_, _>>()?;
                    let v = Pk::from_lanes(self, vt, &xs);
                    let var = PkVar::declare(self, vt);
                    var.set(self, v);
                    Slot::Packed(var)
                }
                (None, None) => {
                    let mut places = Vec::with_capacity(self.step_lanes());
                    for v in &vals {
                        let p = scalar_place(self, &ty);
                        self.write_place(&p, &ty, v)?;
                        places.push(p);
                    }
                    Slot::Lanes(places)
                }
            };
            lc.preset(l, slot);
            if written {
                back.push((l, true, addrs));
            }
        }
        Ok(back)
    }

    /// Store what a step's piece wrote to its frame locals.
    fn leave_piece_lanes(
        &mut self,
        lc: &mut super::lanes::LaneCx,
        back: &[(u32, bool, Vec<Value>)],
    ) -> Result<(), String> {
        for (l, per_lane, addrs) in back {
            let ty = self.func.locals[*l as usize].ty.clone();
            if *per_lane {
                let vals = lc.local_lanes(self, *l)?;
                for (a, v) in addrs.iter().zip(&vals) {
                    self.unchecked(|fx| fx.store(*a, &ty, v))?;
                }
            } else {
                let place = self.locals[*l as usize].clone();
                let v = self.unchecked(|fx| fx.read_place(&place, &ty))?;
                for a in addrs {
                    self.unchecked(|fx| fx.store(*a, &ty, &v))?;
                }
            }
        }
        Ok(())
    }

    fn emit_nodes(&mut self, em: &Emitter<'_, '_>, nodes: &[Node<'_>]) -> Result<(), String> {
        for (i, n) in nodes.iter().enumerate() {
            match n {
                Node::Break | Node::Continue => {
                    let (brk, cont) = *em
                        .targets
                        .borrow()
                        .last()
                        .ok_or("internal: break outside a loop")?;
                    self.jump(if matches!(n, Node::Break) { brk } else { cont });
                }
                Node::Barrier(s) => self.checked_region_barrier(em, s),
                Node::Region(id, stmts) => {
                    // Checked races/uninit: a piece that is the whole of
                    // its barrier interval and writes no local memory
                    // reads local memory no other work-item writes then.
                    let alone = i > 0
                        && matches!(nodes[i - 1], Node::Barrier(_))
                        && matches!(nodes.get(i + 1), Some(Node::Barrier(_)));
                    self.local_read_only =
                        alone && self.pcx.check.tracks() && !writes_local_memory(self.func, stmts);
                    let r = self.piece_loop(em, *id, stmts, None);
                    self.local_read_only = false;
                    r?;
                }
                Node::If(id, c, t, e) => {
                    self.diverge = Some((first_barrier(t), first_barrier(e)));
                    let d = self
                        .piece_loop(em, *id, &[], Some(c))?
                        .ok_or("internal: no decision")?;
                    let (tb, eb, end) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().brif(d, tb, &[], eb, &[]);
                    self.terminated();
                    self.enter(tb);
                    self.emit_nodes(em, t)?;
                    self.jump(end);
                    self.enter(eb);
                    self.emit_nodes(em, e)?;
                    self.enter(end);
                }
                Node::Loop {
                    init,
                    cond,
                    step,
                    body,
                    post_test,
                } => {
                    if let Some((id, s)) = init {
                        self.piece_loop(em, *id, &[*s], None)?;
                    }
                    let (head, body_b, cont, end) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    let test = |fx: &mut Self| -> Result<(), String> {
                        match cond {
                            Some((id, c)) => {
                                fx.diverge = Some((first_barrier(body), None));
                                let d = fx
                                    .piece_loop(em, *id, &[], Some(c))?
                                    .ok_or("internal: no decision")?;
                                fx.b.ins().brif(d, body_b, &[], end, &[]);
                                fx.terminated();
                            }
                            None => fx.jump(body_b),
                        }
                        Ok(())
                    };
                    if *post_test {
                        self.enter(body_b);
                    } else {
                        self.enter(head);
                        test(self)?;
                        self.enter(body_b);
                    }
                    em.targets.borrow_mut().push((end, cont));
                    let r = self.emit_nodes(em, body);
                    em.targets.borrow_mut().pop();
                    r?;
                    self.enter(cont);
                    if let Some((id, st)) = step {
                        let st: &Expr = st;
                        let s = Stmt {
                            kind: StmtKind::Expr(st.clone()),
                            span: st.span,
                        };
                        self.piece_loop(em, *id, &[&s], None)?;
                    }
                    if *post_test {
                        test(self)?;
                    } else {
                        self.jump(head);
                    }
                    self.enter(end);
                }
            }
        }
        Ok(())
    }
}

/// Compile the region entry of a kernel with barriers.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_region_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    index: usize,
    args: &[ArgInfo],
    plan: &Plan<'_>,
) -> Result<(cranelift_module::FuncId, super::lanes::Choice), String> {
    let id = abi::declare_entry(module, f, index, "regions")?;
    let refuse = if plan.done_offset.is_some() {
        Some(
            "a return in the kernel's body (pieces follow finished work-items one at a time)"
                .into(),
        )
    } else if pcx.check.barriers && varying_decisions(&plan.nodes, &plan.once) {
        Some("checked barriers compare decisions that differ between work-items".into())
    } else {
        None
    };
    // Pieces several work-items per step; anything the lanes cannot express
    // falls back to one work-item per step.
    let choice = super::lanes::choose(pcx, f, refuse, false, |lanes| {
        let mut lanes_fbc = FunctionBuilderContext::new();
        region_entry_body(
            module,
            pcx,
            ctx,
            &mut lanes_fbc,
            f,
            id,
            args,
            plan,
            Some(lanes),
        )
    })?;
    if choice.step == Step::One {
        region_entry_body(module, pcx, ctx, fbc, f, id, args, plan, None)?;
    }
    define(module, pcx, ctx, &f.name, id)?;
    Ok((id, choice))
}

/// The body of a region entry (declared as `id`).
#[allow(clippy::too_many_arguments)]
fn region_entry_body(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    id: cranelift_module::FuncId,
    args: &[ArgInfo],
    plan: &Plan<'_>,
    lanes: Option<super::lanes::Plan>,
) -> Result<(), String> {
    let (mut fx, vals) = start_entry(module, pcx, ctx, fbc, f, id, args)?;
    let geo = fx.load_geometry();
    let item = fx.item;
    let arena = fx.b.ins().load(types::I64, flags(), item, o::ITEM_ARENA);
    let em = Emitter {
        plan,
        lanes,
        geo,
        arena,
        targets: Default::default(),
    };
    // Shared parameters once; written ones into every work-item's frame.
    let mut next = 0;
    let mut per_item = Vec::new();
    for p in &f.params {
        let n = abi::param_count(&p.ty);
        let vs = vals
            .get(next..next + n)
            .ok_or("internal: parameter count")?
            .to_vec();
        next += n;
        let v = if super::value::is_aggregate(&p.ty) {
            CValue::Ref(vs[0])
        } else if p.ty.is_vector() {
            CValue::Lanes(vs)
        } else {
            CValue::Scalar(vs[0])
        };
        if let Some(off) = plan.frame.get(&p.local.0) {
            per_item.push((*off, p.ty.clone(), v));
        } else {
            let place = fx.locals[p.local.0 as usize].clone();
            fx.write_place(&place, &p.ty, &v)?;
        }
    }
    if !per_item.is_empty() || plan.done_offset.is_some() || !plan.uninit_flags.is_empty() {
        let frame_size = plan.frame_size as i64;
        fx.item_loop(geo, |fx, _, lin, _| {
            let off = fx.b.ins().imul_imm_s(lin, frame_size);
            let base = fx.b.ins().iadd(arena, off);
            for (l, off) in &plan.uninit_flags {
                let n = match &f.locals[*l as usize].ty {
                    Type::Vector(_, n) => u64::from(*n),
                    _ => 1,
                };
                let zero = fx.b.ins().iconst(types::I8, 0);
                for k in 0..n {
                    fx.b.ins().store(flags(), zero, base, (off + k) as i32);
                }
            }
            if let Some(off) = plan.done_offset {
                let zero = fx.b.ins().iconst(types::I8, 0);
                fx.b.ins().store(flags(), zero, base, off as i32);
            }
            for (o, ty, v) in &per_item {
                let a = fx.b.ins().iadd_imm_s(base, *o as i64);
                fx.unchecked(|fx| fx.store(a, ty, v))?;
            }
            Ok(())
        })?;
    }
    fx.emit_nodes(&em, &plan.nodes)?;
    finish_entry(fx)
}
