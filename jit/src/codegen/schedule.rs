//! The loops over a group's work-items under schedule fuzzing
//! (`CRANECL_SCHEDULE`; the orders and the table are `runtime::schedule`'s).
//!
//! Emitted only for programs built in a scheduled context (`ProgramCx::
//! schedule`), in place of the z/y/x loop nest of `group.rs` and the rows of
//! `lanes/`: one loop over `k` that asks the runtime for the interval's
//! table (`cranecl_schedule_units`, once per loop), reads unit
//! `table[1 + k]` (x, y, z and a step bit packed, `runtime::schedule::unit`),
//! unpacks the ids with shifts and masks, and runs the unit: one work-item
//! through the same body the nest runs, or under the lanes a step of four
//! (`lanes_step`, the same blocks of four consecutive x as unscheduled, so
//! affine ids and vector accesses hold) whose lanes may still fall back to
//! one at a time. Row tails of the lanes are single units. A region piece
//! whose rows end early (`x_end`) skips the units past the end.
//!
//! Where the four lanes of a step run one after another (`lanes/`:
//! per-lane statements, stores of four lanes to addresses that may
//! coincide, per-lane built-ins such as atomics), their order is drawn at
//! build time ([`FunctionCx::lane_order`]) from the schedule and the
//! place: fixed per place and program, not per step.

use super::fx::FunctionCx;
use super::group::Geometry;
use super::lanes::{LaneCx, Plan};
use super::value::flags;
use crate::runtime::offsets as o;
use crate::runtime::schedule::{cranecl_schedule_units, ID_BITS};
use cranelift_codegen::ir::{condcodes::IntCC, types, Block, InstBuilder, Value};

/// The blocks of a scheduled loop over units.
struct ScheduleLoop {
    k: Value,
    head: Block,
    latch: Block,
    exit: Block,
}

impl FunctionCx<'_, '_> {
    /// The order in which to emit the lanes of a step where they run
    /// one after another (per-lane statements, stores of the lanes,
    /// per-lane built-ins such as atomics): `0, 1, ...` unscheduled, else
    /// drawn at build time from the schedule and the place's number in the
    /// program (the same in every step that runs the place).
    pub(crate) fn lane_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.step_lanes()).collect();
        if let Some(s) = self.pcx.schedule {
            let place = self.pcx.lane_orders.get();
            self.pcx.lane_orders.set(place + 1);
            let p = s.permutation(self.step_lanes() as u64, &[u64::MAX - 1, place]);
            for (k, o) in order.iter_mut().enumerate() {
                *o = p.at(k as u64) as usize;
            }
        }
        order
    }

    /// The runtime's table for this loop: its address and the number of units.
    fn schedule_table(&mut self, lanes: bool) -> (Value, Value) {
        let item = self.item;
        let items = if lanes { self.step_lanes() as i64 } else { 0 };
        let l = self.b.ins().iconst(types::I64, items);
        let f = cranecl_schedule_units as *const u8;
        let t = self.call_host(f, &[types::I64; 2], &[types::I64], &[item, l])[0];
        let n = self.b.ins().load(types::I64, flags(), t, 0);
        (t, n)
    }

    /// Opens `for k in 0..n`: the current block is the body, which has
    /// the unit's table entry; [`Self::schedule_loop_end`] closes it.
    fn schedule_loop_head(&mut self, t: Value, n: Value) -> (ScheduleLoop, Value) {
        let head = self.b.create_block();
        let run = self.b.create_block();
        let l = ScheduleLoop {
            k: self.b.append_block_param(head, types::I64),
            head,
            latch: self.b.create_block(),
            exit: self.b.create_block(),
        };
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(head, &[zero.into()]);
        self.terminated();
        self.enter(head);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, l.k, n);
        self.b.ins().brif(more, run, &[], l.exit, &[]);
        self.terminated();
        self.enter(run);
        let at = self.b.ins().ishl_imm_s(l.k, 3);
        let at = self.b.ins().iadd(t, at);
        let e = self.b.ins().load(types::I64, flags(), at, 8);
        (l, e)
    }

    /// The latch (`k + 1`), then continue after the loop.
    fn schedule_loop_end(&mut self, l: ScheduleLoop) {
        self.enter(l.latch);
        let k1 = self.b.ins().iadd_imm_s(l.k, 1);
        self.b.ins().jump(l.head, &[k1.into()]);
        self.terminated();
        self.enter(l.exit);
    }

    /// x, y and z of table entry `e` (`runtime::schedule::unit`), its
    /// linear id and its step bit; the ids are stored in the `ItemState`
    /// when called functions read them (x only if `store_x`).
    fn unit_ids(&mut self, geo: &Geometry, e: Value, store_x: bool) -> ([Value; 3], Value, Value) {
        let mask = (1i64 << ID_BITS) - 1;
        let step = self.b.ins().band_imm_s(e, 1);
        let mut ids = [e; 3];
        for (d, id) in ids.iter_mut().enumerate() {
            let v = self
                .b
                .ins()
                .ushr_imm_s(e, 1 + i64::from(ID_BITS) * d as i64);
            *id = self.b.ins().band_imm_s(v, mask);
        }
        if self.store_item_ids {
            let item = self.item;
            let first = if store_x { 0 } else { 1 };
            for (d, id) in ids.iter().enumerate().skip(first) {
                self.b
                    .ins()
                    .store(flags(), *id, item, o::ITEM_LOCAL_ID + 8 * d as i32);
            }
        }
        let zy = self.b.ins().imul(ids[2], geo.sizes[1]);
        let zy = self.b.ins().iadd(zy, ids[1]);
        let row = self.b.ins().imul(zy, geo.sizes[0]);
        let lin = self.b.ins().iadd(row, ids[0]);
        (ids, lin, step)
    }

    /// `group.rs`'s `item_loop_to` in the scheduled order.
    pub(crate) fn scheduled_item_loop(
        &mut self,
        geo: Geometry,
        x_end: Option<Value>,
        body: impl FnOnce(&mut Self, [Value; 3], Value, Block) -> Result<(), String>,
    ) -> Result<(), String> {
        let (t, n) = self.schedule_table(false);
        let (l, e) = self.schedule_loop_head(t, n);
        let latch = l.latch;
        let (ids, lin, _) = self.unit_ids(&geo, e, true);
        if let Some(end) = x_end {
            let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, ids[0], end);
            let go = self.b.create_block();
            self.b.ins().brif(inside, go, &[], latch, &[]);
            self.terminated();
            self.enter(go);
        }
        let saved = self.inline_ids.replace((ids, geo.bases));
        let saved_me = self.check_me;
        if self.store_item_ids && self.pcx.check.tracks() {
            let me = self.b.ins().iadd_imm_s(lin, 1);
            self.b.ins().store(flags(), me, self.item, o::ITEM_CHECK_ME);
            self.check_me = Some(me);
        }
        let r = body(self, ids, lin, latch);
        self.check_me = saved_me;
        self.inline_ids = saved;
        r?;
        self.schedule_loop_end(l);
        Ok(())
    }

    /// `lanes/`'s `lanes_item_loop` in the scheduled order: steps of four
    /// and single work-items (row tails) as units.
    pub(crate) fn scheduled_lanes_loop(
        &mut self,
        geo: Geometry,
        plan: Plan,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        let i64t = types::I64;
        let (t, n) = self.schedule_table(true);
        let (l, e) = self.schedule_loop_head(t, n);
        let latch = l.latch;
        let ([x, y, z], _, step) = self.unit_ids(&geo, e, false);
        let vbody = self.b.create_block();
        // One at a time over [xs, end): a row tail's item, or a step's four
        // when its lanes disagree.
        let hs = self.b.create_block();
        let xs = self.b.append_block_param(hs, i64t);
        let end = self.b.append_block_param(hs, i64t);
        let sbody = self.b.create_block();
        let snext = self.b.create_block();
        let x1 = self.b.ins().iadd_imm_s(x, 1);
        self.b
            .ins()
            .brif(step, vbody, &[], hs, &[x.into(), x1.into()]);
        self.terminated();
        self.enter(vbody);
        self.lanes_step(geo, plan, [x, y, z], hs, lanes_body)?;
        self.jump(latch);
        self.enter(hs);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, end);
        self.b.ins().brif(more, sbody, &[], latch, &[]);
        self.terminated();
        self.enter(sbody);
        self.lanes_single(geo, [xs, y, z], snext, item_body)?;
        let xs1 = self.b.ins().iadd_imm_s(xs, 1);
        self.b.ins().jump(hs, &[xs1.into(), end.into()]);
        self.terminated();
        self.schedule_loop_end(l);
        Ok(())
    }
}
