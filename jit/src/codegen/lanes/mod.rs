//! Eight or four work-items per step ("lanes"), SIMD across work-items: the
//! work-item loops of a group entry (and of each region piece between
//! barriers, see `regions.rs`) walk each row of the group (dimension 0)
//! that many work-items at a time, then finish the row one at a time with
//! the ordinary body. Eight ([`MAX_LANES`]) unless the kernel's hot values
//! are mostly per lane ([`step_regs`]).
//!
//! Work-items between barriers are unordered, so a step may run its
//! items statement by statement. Each value of the step is one of:
//! - *uniform* ([`LVal::Uni`]): the same in every lane, computed once by the
//!   ordinary code generator (uniform locals keep their ordinary places);
//! - *affine* ([`LVal::Aff`]): `base + lane * step`, how `get_global_id(0)`
//!   and the addresses built from it look; `a[i]` for the lanes is then
//!   one address and constant offsets, or vector accesses;
//! - *packed* ([`LVal::Vec`], [`LVal::VecN`]): a `float`, `int` or `uint` of
//!   each lane in two (or one) 128-bit registers ([`Pk`], four lanes to a
//!   register; vectors of them one such value per component), for
//!   arithmetic, comparisons and the common built-ins. Cranelift has no
//!   wider vectors on x86-64; the registers' instruction chains are
//!   independent, so the core runs them side by side (a long dependent
//!   chain, such as a hash's rounds, no longer waits on itself alone);
//! - *per lane* ([`LVal::Lanes`]): one value per lane, each computed by the
//!   ordinary operations (`binary`, `convert`, the built-in library).
//!
//! Which locals vary between lanes is decided before any code is emitted
//! (`lower/divergence.rs`, [`plan`]): a local varies when a value written
//! to it varies, or when it is written under a condition that varies.
//! Control flow on a uniform condition is ordinary control flow; the
//! condition of an `if` or loop around a barrier is uniform whatever it
//! reads (the spec has the whole group reach a barrier or none,
//! `divergence::synchronises`). An `if` on a varying condition runs its
//! arms as a whole when all lanes agree; when they disagree, the step
//! hands its items to the one-at-a-time code if it has not yet written
//! memory, and otherwise runs the `if` once per lane ("serially", with each
//! lane's places standing in for the locals). A loop the lanes leave at
//! different times runs *masked* (while any lane is in it; lanes out of it
//! keep their values and touch only a dummy), unless its memory accesses
//! differ between lanes, then serially. Statements whose effects belong to
//! each work-item (atomics, `printf`, calls of user functions other than
//! pure ones, `divergence::pure_functions`) and `switch` run serially too.
//! Image reads and writes are taken apart like other built-ins: one host
//! call for each four work-items of a step.
//!
//! A kernel this cannot express (`goto`, varying aggregates or locals whose
//! address is taken, a `return` inside serial code after a write) gets no
//! [`plan`] or fails its build here, and the caller compiles the plain
//! one-item-per-step entry instead (after a try with serial loops, when a
//! masked loop was what failed).
//!
//! Lane values of an `int` index widened to a pointer offset are assumed not
//! to cross the `int` overflow boundary within one step (eight or four
//! consecutive work-items); only a kernel indexing with `int` past 2^31
//! items, whose indices are already wrong, could tell.

use super::fx::FunctionCx;
use super::group::Geometry;
use super::value::{clif_scalar, clif_type, is_aggregate, CPlace, CValue};
use crate::runtime::offsets as o;
use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::hir::{
    BinOp, Block as HBlock, CastKind, Expr, ExprKind, Function, Init, Stmt, StmtKind, UnOp, VarRef,
};
use crate::sema::types::{Scalar, Type};
use cranelift_codegen::ir::{
    condcodes::FloatCC, condcodes::IntCC, types, Block, InstBuilder, Value,
};
use cranelift_codegen::packed_option::ReservedValue;
use std::collections::HashMap;

mod expr;
mod masks;
mod mem;
mod serial;
mod stmt;
mod transpose;
mod value;

pub(crate) use crate::lower::divergence::Plan;
use crate::lower::divergence::{
    collect_decls, const_dim, contains, image_access, per_item_builtin, plan, speculable,
    stmt_tree_exprs,
};
use crate::lower::Step;

/// The most 128-bit registers per packed value.
pub(crate) const MAX_REGS: usize = 2;

/// Lanes per 128-bit register (32-bit elements).
pub(crate) const PER_REG: usize = 4;

/// The most work-items per step.
pub(crate) const MAX_LANES: usize = MAX_REGS * PER_REG;

/// A packed value: the step's registers (`FunctionCx::regs`, at most
/// [`MAX_REGS`]) of the same type, lanes `4r..4r+4` in register `r`. Their
/// instruction chains are independent, so the core runs them side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pk {
    r: [Value; MAX_REGS],
    n: usize,
}

impl Pk {
    /// A packed value of registers `regs`.
    pub(crate) fn of(regs: &[Value]) -> Pk {
        let mut r = [Value::reserved_value(); MAX_REGS];
        r[..regs.len()].copy_from_slice(regs);
        Pk { r, n: regs.len() }
    }

    /// The registers, lanes `4r..4r+4` in the `r`th.
    pub(crate) fn regs(&self) -> &[Value] {
        &self.r[..self.n]
    }

    /// The same register for every lane group of the step.
    pub(crate) fn all(fx: &FunctionCx<'_, '_>, x: Value) -> Pk {
        Pk::of(&[x; MAX_REGS][..fx.regs])
    }

    /// `x` (of `vt`'s lane type) in every lane.
    pub(crate) fn splat(fx: &mut FunctionCx<'_, '_>, vt: types::Type, x: Value) -> Pk {
        let v = fx.b.ins().splat(vt, x);
        Pk::all(fx, v)
    }

    /// The registers' type.
    pub(crate) fn ty(self, fx: &FunctionCx<'_, '_>) -> types::Type {
        fx.b.func.dfg.value_type(self.r[0])
    }

    /// `f` of each register.
    pub(crate) fn map(
        mut self,
        fx: &mut FunctionCx<'_, '_>,
        mut f: impl FnMut(&mut FunctionCx<'_, '_>, Value) -> Value,
    ) -> Pk {
        for x in &mut self.r[..self.n] {
            *x = f(fx, *x);
        }
        self
    }

    /// `f` of each register, when it has one for every register.
    pub(crate) fn try_map(
        mut self,
        fx: &mut FunctionCx<'_, '_>,
        mut f: impl FnMut(&mut FunctionCx<'_, '_>, Value) -> Option<Value>,
    ) -> Option<Pk> {
        for x in &mut self.r[..self.n] {
            *x = f(fx, *x)?;
        }
        Some(self)
    }

    /// `f` of the registers of `self` and `o`, pairwise.
    pub(crate) fn zip(
        mut self,
        o: Pk,
        fx: &mut FunctionCx<'_, '_>,
        mut f: impl FnMut(&mut FunctionCx<'_, '_>, Value, Value) -> Value,
    ) -> Pk {
        for (r, x) in self.r[..self.n].iter_mut().enumerate() {
            *x = f(fx, *x, o.r[r]);
        }
        self
    }

    /// `f` of the registers of `self`, `a` and `b`, three by three.
    pub(crate) fn zip3(
        mut self,
        a: Pk,
        b: Pk,
        fx: &mut FunctionCx<'_, '_>,
        mut f: impl FnMut(&mut FunctionCx<'_, '_>, Value, Value, Value) -> Value,
    ) -> Pk {
        for (r, x) in self.r[..self.n].iter_mut().enumerate() {
            *x = f(fx, *x, a.r[r], b.r[r]);
        }
        self
    }

    /// Lane `k`'s element.
    pub(crate) fn lane(self, fx: &mut FunctionCx<'_, '_>, k: usize) -> Value {
        fx.b.ins()
            .extractlane(self.r[k / PER_REG], (k % PER_REG) as u8)
    }

    /// Lane `k`'s element replaced by `x`.
    pub(crate) fn insert(mut self, fx: &mut FunctionCx<'_, '_>, x: Value, k: usize) -> Pk {
        let r = k / PER_REG;
        self.r[r] = fx.b.ins().insertlane(self.r[r], x, (k % PER_REG) as u8);
        self
    }

    /// Each lane's element of `xs` (one per lane of the step, of `vt`'s
    /// lane type).
    pub(crate) fn from_lanes(fx: &mut FunctionCx<'_, '_>, vt: types::Type, xs: &[Value]) -> Pk {
        let regs: Vec<Value> = xs
            .chunks(PER_REG)
            .map(|quad| {
                let mut v = fx.b.ins().splat(vt, quad[0]);
                for (j, x) in quad.iter().enumerate().skip(1) {
                    v = fx.b.ins().insertlane(v, *x, j as u8);
                }
                v
            })
            .collect();
        Pk::of(&regs)
    }

    /// Whether any lane of mask `self` is set (an `i8`).
    pub(crate) fn any_true(self, fx: &mut FunctionCx<'_, '_>) -> Value {
        let mut m = self.r[0];
        for x in &self.regs()[1..] {
            m = fx.b.ins().bor(m, *x);
        }
        fx.b.ins().vany_true(m)
    }

    /// Whether every lane of mask `self` is set (an `i8`).
    pub(crate) fn all_true(self, fx: &mut FunctionCx<'_, '_>) -> Value {
        let mut m = self.r[0];
        for x in &self.regs()[1..] {
            m = fx.b.ins().band(m, *x);
        }
        fx.b.ins().vall_true(m)
    }
}

/// The variables of a packed local, one per register of the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PkVar {
    v: [cranelift_frontend::Variable; MAX_REGS],
    n: usize,
}

impl PkVar {
    pub(crate) fn declare(fx: &mut FunctionCx<'_, '_>, vt: types::Type) -> PkVar {
        let first = fx.b.declare_var(vt);
        let mut v = [first; MAX_REGS];
        for x in &mut v[1..fx.regs] {
            *x = fx.b.declare_var(vt);
        }
        PkVar { v, n: fx.regs }
    }

    pub(crate) fn get(self, fx: &mut FunctionCx<'_, '_>) -> Pk {
        let mut r = [Value::reserved_value(); MAX_REGS];
        for (x, v) in r.iter_mut().zip(&self.v[..self.n]) {
            *x = fx.b.use_var(*v);
        }
        Pk { r, n: self.n }
    }

    pub(crate) fn set(self, fx: &mut FunctionCx<'_, '_>, x: Pk) {
        for (v, x) in self.v[..self.n].iter().zip(x.regs()) {
            fx.b.def_var(*v, *x);
        }
    }
}

/// A value of a step.
#[derive(Clone, Debug)]
pub(crate) enum LVal {
    /// The same in every lane.
    Uni(CValue),
    /// An integer or pointer: lane `k` holds `base + k * step` (wrapping).
    Aff { base: Value, step: i64 },
    /// One value per lane.
    Lanes(Vec<CValue>),
    /// A `float`, `int` or `uint` of each lane, packed ([`Pk`]: lane `k`
    /// in element `k % 4` of register `k / 4`).
    Vec(Pk),
    /// A vector of `float`, `int` or `uint` of each lane: one packed
    /// value per component (component `c` of lane `k` in lane `k` of the
    /// `c`th).
    VecN(Vec<Pk>),
}

/// The packed type of a scalar type that has one.
pub(crate) fn packed_type(ty: &Type) -> Option<types::Type> {
    match ty {
        Type::Scalar(Scalar::Float) => Some(types::F32X4),
        Type::Scalar(Scalar::Int | Scalar::UInt) => Some(types::I32X4),
        _ => None,
    }
}

/// The packed type of each component of a vector type that has one, and
/// the component count.
pub(crate) fn packed_components(ty: &Type) -> Option<(types::Type, usize)> {
    match ty {
        Type::Vector(s, n) => packed_type(&Type::Scalar(*s)).map(|t| (t, *n as usize)),
        _ => None,
    }
}

/// Where a varying local lives: a place per lane, or packed variables (one,
/// or one per component of a vector).
#[derive(Clone)]
pub(crate) enum Slot {
    Lanes(Vec<CPlace>),
    Packed(PkVar),
    PackedN(Vec<PkVar>),
}

/// An error of a lanes build that is a refusal (a construct the lanes do
/// not express; the caller falls back to one work-item per step), not a
/// bug of the lanes. Refusals are the errors starting with `lanes: `
/// ([`FALLBACK`], [`NOT_MASKABLE`]).
fn is_refusal(e: &str) -> bool {
    e.starts_with("lanes: ")
}

/// The step an entry was built with, and why.
pub(crate) struct Choice {
    /// `Step::One`: the caller builds the one-item-per-step entry.
    pub step: Step,
    /// The work-items of a step (1 with `Step::One`).
    pub items: usize,
    /// Each faster way refused, and why.
    pub refused: Vec<String>,
    /// The lanes build's notes (`explain.rs`).
    pub notes: Vec<String>,
}

/// The registers of each packed value of `f`'s steps, and why fewer than
/// [`MAX_REGS`]: `CodegenOptions::step_lanes` when set, else one (four
/// work-items per step) when more of the varying locals written after their
/// declaration (a hash's state and message words, a loop's accumulators)
/// have no packed form (`long`, `ulong`, `double`, ...: one value per lane)
/// than have one. Four lanes of such values already run four chains side
/// by side; eight only double the step's code (hashcat's SHA-512 kernel,
/// `ulong` words: 5.6 MH/s at eight, 7.3 at four on the 2-core Xeon).
/// Checked mode keeps eight, whatever `CRANECL_LANES` says (its reports
/// name a step's work-items so).
fn step_regs(pcx: &super::ProgramCx<'_>, f: &Function, plan: &Plan) -> (usize, Option<String>) {
    if pcx.check.any_code() {
        return (MAX_REGS, None);
    }
    if let Some(n) = pcx.step_lanes {
        let regs = n / PER_REG;
        let why = (regs < MAX_REGS).then(|| format!("CRANECL_LANES={n}"));
        return (regs, why);
    }
    let (mut packed, mut per_lane) = (0, 0);
    for (l, local) in f.locals.iter().enumerate() {
        if !plan.varying[l] || plan.single[l] || is_aggregate(&local.ty) {
            continue;
        }
        if packed_type(&local.ty).is_some() || packed_components(&local.ty).is_some() {
            packed += 1;
        } else {
            per_lane += 1;
        }
    }
    if per_lane > packed {
        let why = format!(
            "{per_lane} of the {} varying variables written after their declaration have no \
             packed form (64-bit and others run per lane): four work-items already run such \
             values side by side, eight would only double the code",
            per_lane + packed
        );
        (1, Some(why))
    } else {
        (MAX_REGS, None)
    }
}

/// Choose the step of an entry and build it: [`MAX_LANES`] or four
/// work-items per step ([`step_regs`]) with `f`'s plan (divergent loops
/// masked, then once per lane) when the lanes are on and the kernel allows
/// them. `refuse`: the caller's own reason to run one work-item per step;
/// `copies`: private arrays and structs may have a copy per lane (not in a
/// region piece).
/// An error of a lanes build that is not a refusal is a bug of the lanes:
/// debug builds fail with it, release builds fall back (and
/// `CRANECL_EXPLAIN` names it).
pub(crate) fn choose(
    pcx: &super::ProgramCx<'_>,
    f: &Function,
    refuse: Option<String>,
    copies: bool,
    mut build: impl FnMut(Plan) -> Result<(), String>,
) -> Result<Choice, String> {
    let mut choice = Choice {
        step: Step::One,
        items: 1,
        refused: Vec::new(),
        notes: Vec::new(),
    };
    let plan = if !pcx.lanes {
        Err("the lanes are off (-cl-opt-disable or CRANECL_LANES=0)".to_string())
    } else if let Some(why) = one_item_per_step(pcx, f) {
        Err(why.to_string())
    } else if let Some(why) = refuse {
        Err(why)
    } else {
        plan(pcx.prog, f, pcx.masked_memory_loops, pcx.check.any_code(), copies).and_then(|p| match p.lane_memory_loop(f) {
            Some(s) => Err(crate::lower::explain::note_at(
                pcx.sources.as_deref(),
                s.span,
                "a loop the work-items leave at different times touches memory at their own \
                 addresses: the lanes would run it once per lane, slower than one work-item per step",
            )),
            None => Ok(p),
        })
    };
    let mut plan = match plan {
        Ok(plan) => plan,
        Err(why) => {
            choice
                .refused
                .push(format!("{MAX_LANES} work-items per step: {why}"));
            return Ok(choice);
        }
    };
    let (regs, narrower) = step_regs(pcx, f, &plan);
    plan.regs = regs;
    let lanes = regs * PER_REG;
    for p in [plan.clone(), plan.unmasked()] {
        let step = p.step();
        pcx.lane_notes.borrow_mut().clear();
        match build(p) {
            Ok(()) => {
                choice.step = step;
                choice.items = lanes;
                if let Some(why) = narrower {
                    choice
                        .refused
                        .push(format!("{MAX_LANES} work-items per step: {why}"));
                }
                choice.notes = std::mem::take(&mut *pcx.lane_notes.borrow_mut());
                return Ok(choice);
            }
            Err(e) if is_refusal(&e) => {
                let how = if step == Step::Masked {
                    format!("{lanes} work-items per step with divergent loops masked")
                } else {
                    format!("{lanes} work-items per step")
                };
                let why = e.trim_start_matches("lanes: ");
                choice.refused.push(format!("{how}: {why}"));
            }
            Err(e) if cfg!(debug_assertions) => {
                return Err(format!(
                    "internal error of the lanes (a bug of cranecl): {e}"
                ))
            }
            Err(e) => choice.refused.push(format!(
                "{lanes} work-items per step: internal error of the lanes (a bug of cranecl): {e}"
            )),
        }
    }
    Ok(choice)
}

// ------------------------------------------------------------ emission

/// The state of one lanes entry while its step body is emitted.
pub(crate) struct LaneCx {
    plan: Plan,
    /// Local id x of lane 0, the other local ids, the per-dimension bases.
    ids: [Value; 3],
    bases: [Value; 3],
    /// Varying locals written only by a declaration emitted for the whole step.
    bound: HashMap<u32, LVal>,
    /// Varying locals with their own storage.
    vars: HashMap<u32, Slot>,
    /// Per-lane copies of bound values, for serial code.
    copies: HashMap<u32, Vec<CPlace>>,
    /// Nothing has written memory since the step began.
    pure: bool,
    /// The one-at-a-time code for items `[x, end)`: `(x, end)` parameters.
    chunk: Block,
    /// Masked loops being emitted, innermost last.
    masks: Vec<MaskFrame>,
    /// 64 writable bytes a masked-off lane loads from and stores to.
    dummy: Value,
    /// Checked `bounds` alone: the read of a compound assignment keeps the
    /// lanes' addresses its test found inside (`lane_addrs`), for the
    /// write to use without a second test.
    keep_lanes: bool,
    kept_ok: Option<Value>,
    /// Checked mode: the lanes' places already computed (`p + i`
    /// by `ptr_add`, and the conversions of their indices by `convert`:
    /// what was done, to what, the result and the block it was made in),
    /// so that a place named again is the same values ...
    places: Vec<(String, Vec<u32>, LVal, Block)>,
    /// ... and the verdicts of the tests of those places (`bounds_access`:
    /// the place, the access's size, the verdict and where it is
    /// available), which a later access of the same place takes as known.
    verdicts: Vec<(Vec<u32>, u64, Value, Block)>,
    /// Checked races/uninit: the tests of such places (`lane_addrs`: the
    /// place, the access's size, its `outside`, the entry tested against
    /// and where the test is available).
    tracked: Vec<(Vec<u32>, u64, Value, i32, Block)>,
    /// Integer and pointer values (`lval_key`) whose lanes never decrease
    /// from the first lane to the last, with the signedness they were compared in
    /// (`LaneCx::is_rising`).
    rising: HashMap<Vec<u32>, bool>,
    /// Where `LaneCx::interleave` stores (made on first use).
    sink: Option<cranelift_codegen::ir::StackSlot>,
    /// The function's instruction count at its last store.
    interleaved_at: usize,
    /// Whether it stores at all (decided at its first call).
    interleaving: Option<bool>,
    /// The stack slots of the interleaved copies of private objects
    /// (`Plan::lane_memory`), made on first use.
    lane_copies: HashMap<u32, cranelift_codegen::ir::StackSlot>,
}

impl LaneCx {
    /// Checked mode: `make`'s result for `what` of `args`, the one made
    /// before when it is available here (`LaneCx::places`).
    fn remembered(
        &mut self,
        fx: &mut FunctionCx<'_, '_>,
        what: String,
        args: &[&LVal],
        make: impl FnOnce(&mut Self, &mut FunctionCx<'_, '_>) -> Result<LVal, String>,
    ) -> Result<LVal, String> {
        let c = fx.pcx.check;
        let mut key = Vec::new();
        for a in args {
            match lval_key(fx, a) {
                Some(k) if c.bounds || c.tracks() => {
                    key.extend(k);
                    key.push(u32::MAX);
                }
                _ => return make(self, fx),
            }
        }
        let known = self
            .places
            .iter()
            .rev()
            .find(|(w, k, _, b)| *w == what && *k == key && fx.made_before(*b))
            .map(|p| p.2.clone());
        if let Some(v) = known {
            return Ok(v);
        }
        let v = make(self, fx)?;
        if let Some(b) = fx.b.current_block() {
            self.places.push((what, key, v.clone(), b));
        }
        Ok(v)
    }
}

impl LaneCx {
    /// Whether the lanes of integer or pointer value `v` never decrease
    /// from the first lane to the last, compared as `signed` says: a uniform value,
    /// an affine one of step 0 or more (under the affine model's
    /// assumption that no lane crosses the overflow boundary), and what
    /// [`Self::mark_rising`] recorded. An access whose lanes' addresses
    /// rise lies in one object when its first and last lanes do
    /// (`bounds_access`): `clamp(x + dx, 0, w - 1)` in a convolution.
    pub(super) fn is_rising(&self, fx: &FunctionCx<'_, '_>, v: &LVal, signed: bool) -> bool {
        match v {
            LVal::Uni(CValue::Scalar(_)) => true,
            LVal::Aff { step, .. } => (0..1 << 32).contains(step),
            _ => lval_key(fx, v).is_some_and(|k| self.rising.get(&k) == Some(&signed)),
        }
    }

    /// Record that `v`'s lanes never decrease (as `signed` compares them).
    pub(super) fn mark_rising(&mut self, fx: &FunctionCx<'_, '_>, v: &LVal, signed: bool) {
        if let (LVal::Vec(_) | LVal::Lanes(_), Some(k)) = (v, lval_key(fx, v)) {
            self.rising.insert(k, signed);
        }
    }

    /// Records the result `r` of integer operator `op` on `a` and `b` (of
    /// scalar type `ty`, as the result) as rising when it does: a sum of
    /// rising values, a rising value less a uniform one, a rising value
    /// times a non-negative constant.
    pub(super) fn rising_binop(
        &mut self,
        fx: &FunctionCx<'_, '_>,
        op: BinOp,
        (a, b): (&LVal, &LVal),
        ty: &Type,
        r: &LVal,
    ) {
        let Type::Scalar(s) = ty else { return };
        if !s.is_integer() || *s == Scalar::Bool {
            return;
        }
        let signed = s.is_signed();
        let uni = |v: &LVal| matches!(v, LVal::Uni(CValue::Scalar(_)));
        let small = |v: &LVal| match v {
            LVal::Uni(CValue::Scalar(x)) => {
                fx.const_of(*x).is_some_and(|c| (0..1 << 31).contains(&c))
            }
            _ => false,
        };
        let rises = match op {
            BinOp::Add => self.is_rising(fx, a, signed) && self.is_rising(fx, b, signed),
            BinOp::Sub => self.is_rising(fx, a, signed) && uni(b),
            BinOp::Mul => {
                self.is_rising(fx, a, signed) && small(b)
                    || small(a) && self.is_rising(fx, b, signed)
            }
            _ => false,
        };
        if rises {
            self.mark_rising(fx, r, signed);
        }
    }
}

/// What identifies lanes value `v` (its values, after aliases), for the
/// memos of `LaneCx::places` and `LaneCx::verdicts`.
fn lval_key(fx: &FunctionCx<'_, '_>, v: &LVal) -> Option<Vec<u32>> {
    let id = |x: Value| fx.b.func.dfg.resolve_aliases(x).as_u32();
    Some(match v {
        LVal::Uni(CValue::Scalar(x)) => vec![0, id(*x)],
        LVal::Aff { base, step } => vec![1, id(*base), *step as u32, (*step >> 32) as u32],
        LVal::Vec(x) => {
            let mut k = vec![2];
            k.extend(x.regs().iter().map(|r| id(*r)));
            k
        }
        LVal::Lanes(xs) => {
            let mut k = vec![3];
            for x in xs {
                match x {
                    CValue::Scalar(x) => k.push(id(*x)),
                    _ => return None,
                }
            }
            k
        }
        _ => return None,
    })
}

/// A loop run with a mask of active lanes: packed `i32x4` registers, a
/// lane all ones when active, zero when not.
struct MaskFrame {
    /// Lanes still in the loop (cleared by `break` and the condition).
    loop_active: PkVar,
    /// Lanes still in this iteration (cleared by `continue` too).
    iter_active: PkVar,
    /// Conditions of the varying `if`s around the current point.
    conds: Vec<Pk>,
}

/// A construct a masked loop cannot run (the entry is made again with
/// such loops run once per lane).
pub(crate) const NOT_MASKABLE: &str = "lanes: a loop cannot run masked";

/// `e` is free of memory accesses, calls and assignments (safe to evaluate
/// for a lane that is masked off).
fn register_only(e: &Expr) -> bool {
    let mut ok = true;
    crate::lower::walk::expr_tree(e, &mut |x| match &x.kind {
        ExprKind::Deref(_)
        | ExprKind::Call(..)
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::AddrOf(_) => ok = false,
        ExprKind::Builtin(b, _)
            if per_item_builtin(b)
                || image_access(b)
                || b.params.iter().any(|p| p.is_pointer())
                || matches!(b.family, Family::VectorLoadStore | Family::AddressSpace) =>
        {
            ok = false
        }
        _ => {}
    });
    ok
}

/// Why a lanes entry cannot be made (the caller falls back).
pub(crate) const FALLBACK: &str = "lanes: fall back to one work-item per step";

impl LaneCx {
    pub(crate) fn new(
        plan: Plan,
        ids: [Value; 3],
        bases: [Value; 3],
        chunk: Block,
        dummy: Value,
    ) -> Self {
        LaneCx {
            plan,
            ids,
            bases,
            bound: HashMap::new(),
            vars: HashMap::new(),
            copies: HashMap::new(),
            pure: true,
            chunk,
            masks: Vec::new(),
            dummy,
            keep_lanes: false,
            kept_ok: None,
            places: Vec::new(),
            verdicts: Vec::new(),
            tracked: Vec::new(),
            rising: HashMap::new(),
            sink: None,
            interleaved_at: 0,
            interleaving: None,
            lane_copies: HashMap::new(),
        }
    }
}

impl FunctionCx<'_, '_> {
    /// The work-items of the lanes step being emitted.
    pub(crate) fn step_lanes(&self) -> usize {
        self.regs * PER_REG
    }

    /// The header of a loop over dimension `d` (counter `id`, a parameter
    /// of `header`): on to `next` (its counter from 0) while `id < size`,
    /// else to `out`; the id is stored for callees when they need it.
    fn row_header(
        &mut self,
        header: Block,
        id: Value,
        size: Value,
        out: Block,
        d: i32,
        next: Block,
    ) {
        self.enter(header);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, id, size);
        let body = self.b.create_block();
        self.b.ins().brif(more, body, &[], out, &[]);
        self.terminated();
        self.enter(body);
        if self.store_item_ids {
            let item = self.item;
            self.b
                .ins()
                .store(super::value::flags(), id, item, o::ITEM_LOCAL_ID + 8 * d);
        }
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(next, &[zero.into()]);
        self.terminated();
    }

    /// Store where the step is in its row (`x`, and whether it runs
    /// several work-items): a fault in a row of work-groups of one
    /// work-item is reported with it (`GroupState::row_step`; nobody reads
    /// it otherwise, so it is stored only while a row runs).
    fn store_row_step(&mut self, x: Value, lanes: bool) {
        if self.pcx.check.any_code() {
            return;
        }
        let items = self.step_lanes() as i64;
        let v = if lanes {
            self.b
                .ins()
                .bor_imm_u(x, items << crate::runtime::ROW_STEP_ITEMS_SHIFT)
        } else {
            x
        };
        // Only in a row (`GroupState::in_row`, loaded once: the load is
        // read-only, so it leaves the loop); a branch that always goes the
        // same way costs less than the store, and with the store's block
        // cold (placed after the function's other blocks) it is not taken
        // outside rows.
        let in_row = self.group_field(o::GROUP_IN_ROW);
        let (store, done) = (self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(store);
        self.b.ins().brif(in_row, store, &[], done, &[]);
        self.terminated();
        self.enter(store);
        let g = self.group_ptr();
        self.b
            .ins()
            .store(super::value::flags(), v, g, o::GROUP_ROW_STEP);
        self.jump(done);
        self.enter(done);
    }

    /// `(z * ly + y) * lx + x`.
    fn linear_index(&mut self, geo: &Geometry, ids: [Value; 3]) -> Value {
        let zy = self.b.ins().imul(ids[2], geo.sizes[1]);
        let zy = self.b.ins().iadd(zy, ids[1]);
        let row = self.b.ins().imul(zy, geo.sizes[0]);
        self.b.ins().iadd(row, ids[0])
    }

    /// The group's work-items: each row (z, y) a step's at a time while
    /// that many remain, then one at a time; a step whose lanes disagree before
    /// anything is written also runs one at a time (`chunk`).
    pub(crate) fn lanes_item_loop(
        &mut self,
        geo: Geometry,
        plan: Plan,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        self.regs = plan.regs;
        if self.pcx.schedule.is_some() {
            return self.scheduled_lanes_loop(geo, plan, lanes_body, item_body);
        }
        self.lanes_item_loop_to(geo, None, plan, lanes_body, item_body)
    }

    /// `lanes_item_loop` over the items whose local id x is below `x_end`
    /// in each row (`None`: the whole row; at most the row's size), in
    /// order (not for schedule fuzzing).
    pub(crate) fn lanes_item_loop_to(
        &mut self,
        geo: Geometry,
        x_end: Option<Value>,
        plan: Plan,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        self.regs = plan.regs;
        let row_end = x_end.unwrap_or(geo.sizes[0]);
        let i64t = types::I64;
        let exit = self.b.create_block();
        let hz = self.b.create_block();
        let hy = self.b.create_block();
        let hv = self.b.create_block();
        let vbody = self.b.create_block();
        let hs = self.b.create_block();
        let sbody = self.b.create_block();
        let snext = self.b.create_block();
        let latch_y = self.b.create_block();
        let latch_z = self.b.create_block();
        let z = self.b.append_block_param(hz, i64t);
        let y = self.b.append_block_param(hy, i64t);
        let xv = self.b.append_block_param(hv, i64t);
        let xs = self.b.append_block_param(hs, i64t);
        let end = self.b.append_block_param(hs, i64t);
        let zero = self.b.ins().iconst(i64t, 0);
        self.b.ins().jump(hz, &[zero.into()]);
        self.terminated();
        // z rows, then y rows
        self.row_header(hz, z, geo.sizes[2], exit, 2, hy);
        self.row_header(hy, y, geo.sizes[1], latch_z, 1, hv);
        // A step's at a time: x + lanes <= size
        self.enter(hv);
        let lanes = self.step_lanes() as i64;
        let x4 = self.b.ins().iadd_imm_s(xv, lanes);
        // The one-at-a-time path named first: Cranelift lays out a branch's
        // second target after it, so the step falls through into its body
        // and only the row's last few work-items take the jump.
        let short = self.b.ins().icmp(IntCC::UnsignedGreaterThan, x4, row_end);
        self.b
            .ins()
            .brif(short, hs, &[xv.into(), row_end.into()], vbody, &[]);
        self.terminated();
        self.enter(vbody);
        self.lanes_step(geo, plan, [xv, y, z], hs, lanes_body)?;
        let x4 = self.b.ins().iadd_imm_s(xv, lanes);
        self.b.ins().jump(hv, &[x4.into()]);
        self.terminated();
        // one at a time over [xs, end)
        self.enter(hs);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, end);
        let done = self.b.create_block();
        self.b.ins().brif(more, sbody, &[], done, &[]);
        self.terminated();
        self.enter(done);
        let row_left = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, row_end);
        self.b.ins().brif(row_left, hv, &[xs.into()], latch_y, &[]);
        self.terminated();
        self.enter(sbody);
        self.lanes_single(geo, [xs, y, z], snext, item_body)?;
        let x1 = self.b.ins().iadd_imm_s(xs, 1);
        self.b.ins().jump(hs, &[x1.into(), end.into()]);
        self.terminated();
        // latches
        self.enter(latch_y);
        let y1 = self.b.ins().iadd_imm_s(y, 1);
        self.b.ins().jump(hy, &[y1.into()]);
        self.terminated();
        self.enter(latch_z);
        let z1 = self.b.ins().iadd_imm_s(z, 1);
        self.b.ins().jump(hz, &[z1.into()]);
        self.terminated();
        self.enter(exit);
        Ok(())
    }

    /// One step of the plan's work-items from `ids` (that many left in the
    /// row); `chunk` runs them one at a time instead. Ends in
    /// the block after the step.
    pub(crate) fn lanes_step(
        &mut self,
        geo: Geometry,
        plan: Plan,
        ids: [Value; 3],
        chunk: Block,
        lanes_body: impl FnOnce(&mut Self, &mut LaneCx, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        self.regs = plan.regs;
        let next_step = self.b.create_block();
        self.store_row_step(ids[0], true);
        let dummy = self.stack_temp(64, 64);
        let mut lc = LaneCx::new(plan, ids, geo.bases, chunk, dummy);
        let saved_ret = self.return_to.replace(next_step);
        let saved_ids = self.inline_ids.replace((ids, geo.bases));
        let lin0 = self.linear_index(&geo, ids);
        let saved_me = (self.check_me, self.lanes_me0);
        let saved_rel = self.lanes_rel;
        if self.pcx.check.tracks() {
            // Checked races/uninit: an access made once for the step is the
            // step's work-items' (several); lanes name their own.
            let me0 = self.b.ins().iadd_imm_s(lin0, 1);
            self.lanes_me0 = Some(me0);
            let several = self.b.ins().ishl_imm_u(me0, 16);
            self.check_me = Some(self.b.ins().bor_imm_u(several, 0xFFFF));
        } else if self.checks_memory() && self.store_item_ids {
            // Checked `bounds`: reports name lane k as the item's local id
            // (lane 0's, stored per step) + k, a constant: no value of the
            // step stays live for the slow paths.
            let item = self.item;
            self.b
                .ins()
                .store(super::value::flags(), ids[0], item, o::ITEM_LOCAL_ID);
            self.lanes_rel = true;
        }
        let r = lanes_body(self, &mut lc, lin0);
        self.lanes_rel = saved_rel;
        (self.check_me, self.lanes_me0) = saved_me;
        self.inline_ids = saved_ids;
        self.return_to = saved_ret;
        r?;
        self.jump(next_step);
        self.enter(next_step);
        Ok(())
    }

    /// One work-item (`ids`) of a lanes loop run alone; `next` follows
    /// its turn (a `return` jumps there). Ends in `next`.
    pub(crate) fn lanes_single(
        &mut self,
        geo: Geometry,
        ids: [Value; 3],
        next: Block,
        item_body: impl FnOnce(&mut Self, Block, Value) -> Result<(), String>,
    ) -> Result<(), String> {
        let item = self.item;
        if self.store_item_ids {
            self.b
                .ins()
                .store(super::value::flags(), ids[0], item, o::ITEM_LOCAL_ID);
        }
        self.store_row_step(ids[0], false);
        let saved_ids = self.inline_ids.replace((ids, geo.bases));
        let lin = self.linear_index(&geo, ids);
        let saved_me = self.check_me;
        if self.pcx.check.tracks() {
            let me = self.b.ins().iadd_imm_s(lin, 1);
            self.b
                .ins()
                .store(super::value::flags(), me, item, o::ITEM_CHECK_ME);
            self.check_me = Some(me);
        }
        let r = item_body(self, next, lin);
        self.check_me = saved_me;
        self.inline_ids = saved_ids;
        r?;
        self.jump(next);
        self.enter(next);
        Ok(())
    }
}

/// Checked races/uninit: lane `k`'s work-item for the accesses emitted next
/// (`FunctionCx::lanes_me0` + `k`); returns what to restore. Nothing changes
/// outside the lanes' steps or without those checks.
fn at_lane(fx: &mut FunctionCx<'_, '_>, k: usize) -> Option<Value> {
    let saved = fx.check_me;
    if let Some(me0) = fx.lanes_me0 {
        fx.check_me = Some(fx.b.ins().iadd_imm_s(me0, k as i64));
    } else if fx.lanes_rel {
        fx.check_me = Some(fx.lane_me(k));
    }
    saved
}

/// Why checked mode keeps `f` at one work-item per step, if it does: `uninit`
/// following private variables of `f` (declared without an initialiser:
/// their flags live in one work-item's code), or `races-strict` (the lanes
/// make a uniform store once for a step's work-items, which hides
/// same-value writes).
pub(crate) fn one_item_per_step(pcx: &super::ProgramCx<'_>, f: &Function) -> Option<&'static str> {
    if pcx.check.races_strict {
        Some("checked races-strict follows each work-item's writes one at a time")
    } else if pcx.check.uninit && !crate::lower::walk::uninitialised_locals(f).is_empty() {
        Some("checked uninit follows private variables declared without a value")
    } else {
        None
    }
}
