//! Checked `uninit` for private variables: a read of a variable declared
//! without an initialiser, before the work-item wrote it, is reported at the
//! read (`runtime::check::cranecl_check_uninit_private`).
//!
//! Only variables declared without an initialiser (`int x;`, `float a[8];`,
//! `struct S s;`) are followed; parameters and initialised variables are
//! written by definition. Their "written" state is cleared once when the
//! work-item's turn starts (a function's entry; the top of a group entry's
//! work-item loop), never at the declaration: a variable declared in a loop
//! and written in an earlier iteration reads what that iteration left, as
//! every C compiler's code does, and is not reported.
//!
//! - A variable in registers (`CPlace::Var`: a scalar, pointer or vector
//!   whose address is never taken) has an `i8` Cranelift variable per lane
//!   beside it: 0 at the work-item's start, 1 after any write of the lane
//!   (assignment, compound assignment, `++`, a swizzle store). A read tests
//!   the lanes it reads (`v.y` only lane 1, `v` every lane) and branches to
//!   a cold report. The flag is an SSA value whose 0 and 1 are each one
//!   value defined at entry, so a read that every path reaches after a
//!   write sees that 1 once the blocks are sealed and its test vanishes
//!   (skipped here when the builder already knows it, otherwise folded by
//!   Cranelift): measured, a loop of scalar and `if`-assigned variables
//!   compiles to the same machine code as without the check.
//! - A variable in memory (arrays, structs and unions, variables whose
//!   address is taken) of at most [`MAX_SHADOW`] bytes has a shadow in the
//!   frame: one byte per byte of the object, 1 once written. The addresses
//!   codegen derives from the variable itself — `x`, `s.f`, `a[i]`, `a[i][j]`,
//!   `s.v.x` — are remembered (`roots`: address value → variable), and a
//!   load or store through such an address tests or sets the shadow bytes
//!   it covers (an index outside the object tests and sets an always-written
//!   sink instead, so the shadow is never overrun). Storing a whole struct
//!   marks all of it written; reading a whole struct (a copy, an argument)
//!   is not tested.
//! - Where the variable's address escapes (`&x`, `&a[i]`, `&s.f`, an array
//!   decaying to a pointer that is not subscripted at once: `f(a)`,
//!   `vstore4(v, 0, a)`, `int *p = a`), all of it counts as written from
//!   then on: what is written through pointers is not followed, so a
//!   variable written by a function it is passed to is never reported.
//!
//! The lanes never run with `uninit`. Under the region strategy a variable
//! used in one piece is followed as above (its flags cleared at each
//! work-item's turn of the piece); one kept in the work-item's frame across
//! pieces has its flags in the frame too (`regions.rs`: loaded with the
//! variable, stored back after the piece, cleared when the group starts),
//! unless it lives in memory there (arrays, address-taken variables: not
//! followed under regions).

use super::fx::{FunctionCx, IntCC};
use super::value::{flags, CPlace};
use crate::runtime::check::{self, SiteKind};
use crate::sema::hir::Function;
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::Variable;
use std::collections::HashMap;

/// Largest variable in memory given a shadow (bytes); larger ones are not
/// followed (their shadow would be cleared for every work-item).
pub(crate) const MAX_SHADOW: u64 = 4096;

/// The shadow of one variable in memory.
#[derive(Clone, Copy)]
struct Shadow {
    local: u32,
    /// The variable's address and its shadow's (both defined at entry).
    base: Value,
    shadow: Value,
    size: u64,
}

/// What a function follows for `uninit` (empty when the check is off).
#[derive(Default)]
pub(crate) struct Tracking {
    /// Each followed register variable's lane: its flag and its local.
    flags: HashMap<usize, (Variable, u32)>,
    /// Followed variables in memory, in local order.
    shadows: Vec<Shadow>,
    /// Addresses derived from a followed variable in memory: the index of
    /// its shadow.
    roots: HashMap<Value, usize>,
    /// Eight always-written bytes: what an access outside its variable tests.
    sink: Option<Value>,
    /// The flags' 0 and 1, defined once at entry: a flag that every path
    /// sets is then one value, its block parameters vanish when the blocks
    /// are sealed, and Cranelift folds the test.
    consts: Option<(Value, Value)>,
}

/// `0x0101…01` of `bytes` bytes (1, 2, 4 or 8).
fn ones(bytes: u64) -> i64 {
    (0..bytes).fold(0i64, |acc, _| (acc << 8) | 1)
}

fn int_of(bytes: u64) -> Option<types::Type> {
    match bytes {
        1 => Some(types::I8),
        2 => Some(types::I16),
        4 => Some(types::I32),
        8 => Some(types::I64),
        _ => None,
    }
}

impl FunctionCx<'_, '_> {
    /// After `setup_locals`: follow the variables of `f` declared without an
    /// initialiser (when `uninit` is checked).
    pub(crate) fn uninit_setup(&mut self, f: &Function) {
        if !self.pcx.check.uninit {
            return;
        }
        let declared = crate::lower::walk::uninitialised_locals(f);
        let mut ids: Vec<u32> = declared.into_iter().collect();
        ids.sort_unstable();
        for l in ids {
            let Some(place) = self.locals.get(l as usize).cloned() else {
                continue;
            };
            match place {
                CPlace::Var(vars) => {
                    for v in vars {
                        let flag = self.b.declare_var(types::I8);
                        self.uninit.flags.insert(v.index(), (flag, l));
                    }
                }
                CPlace::Addr(base) => {
                    let size = self.size_of(&f.locals[l as usize].ty);
                    if size == 0 || size > MAX_SHADOW {
                        continue;
                    }
                    let shadow = self.stack_temp(size, 8);
                    self.uninit.roots.insert(base, self.uninit.shadows.len());
                    self.uninit.shadows.push(Shadow {
                        local: l,
                        base,
                        shadow,
                        size,
                    });
                }
                CPlace::Lanes(..) => {}
            }
        }
        if !self.uninit.flags.is_empty() {
            let zero = self.b.ins().iconst(types::I8, 0);
            let one = self.b.ins().iconst(types::I8, 1);
            self.uninit.consts = Some((zero, one));
        }
        if !self.uninit.shadows.is_empty() {
            let sink = self.stack_temp(8, 8);
            let all = self.b.ins().iconst(types::I64, ones(8));
            self.b.ins().store(flags(), all, sink, 0);
            self.uninit.sink = Some(sink);
        }
    }

    /// Region strategy: follow `v`, a lane of local `l` loaded from a frame
    /// in this piece, whose flag is `written` (from the frame); the flag's
    /// variable (to store back), or `None` when nothing is followed.
    pub(crate) fn uninit_follow_lane(
        &mut self,
        v: Variable,
        l: u32,
        written: Value,
    ) -> Option<Variable> {
        self.uninit.consts?;
        let flag = self.b.declare_var(types::I8);
        self.b.def_var(flag, written);
        self.uninit.flags.insert(v.index(), (flag, l));
        Some(flag)
    }

    /// The start of a work-item's turn: nothing followed is written yet.
    pub(crate) fn uninit_clear(&mut self) {
        let mut vars: Vec<Variable> = self.uninit.flags.values().map(|(f, _)| *f).collect();
        vars.sort_unstable_by_key(|v| v.index());
        if let Some((zero, _)) = self.uninit.consts {
            for flag in vars {
                self.b.def_var(flag, zero);
            }
        }
        for s in self.uninit.shadows.clone() {
            self.memset(s.shadow, 0, s.size);
        }
    }

    /// A write of the register variable lane `v`.
    pub(crate) fn uninit_var_written(&mut self, v: Variable) {
        if let (Some(&(flag, _)), Some((_, one))) =
            (self.uninit.flags.get(&v.index()), self.uninit.consts)
        {
            self.b.def_var(flag, one);
        }
    }

    /// A read of register variable lanes (`lane`: the one component read,
    /// `None`: the whole variable).
    pub(crate) fn uninit_var_read(&mut self, vars: &[Variable], lane: Option<usize>) {
        let mut oks = Vec::new();
        let mut local = None;
        for v in vars {
            if let Some(&(flag, l)) = self.uninit.flags.get(&v.index()) {
                oks.push(self.b.use_var(flag));
                local = Some(l);
            }
        }
        let Some(l) = local else { return };
        let what = match lane {
            Some(_) if self.func.locals[l as usize].ty.is_vector() => self.uninit_what(l),
            _ => format!("private variable '{}'", self.func.locals[l as usize].name),
        };
        self.uninit_report_unless(oks, l, what);
    }

    /// `to` is an address inside the variable `from` is (a member, an
    /// element).
    pub(crate) fn uninit_derive(&mut self, from: Value, to: Value) {
        if let Some(&s) = self.uninit.roots.get(&from) {
            self.uninit.roots.insert(to, s);
        }
    }

    /// The address `addr` of a followed variable escapes: all of it counts
    /// as written.
    pub(crate) fn uninit_escape(&mut self, addr: Value) {
        if let Some(&i) = self.uninit.roots.get(&addr) {
            let s = self.uninit.shadows[i];
            self.memset_ones(s.shadow, s.size);
        }
    }

    /// A load (`write` false) or store of `size` bytes at `addr + offset`:
    /// when `addr` lies in a followed variable, its shadow is set, or
    /// tested and `ok` is the `i8` truth of "written" (`None` otherwise).
    pub(crate) fn uninit_mem(
        &mut self,
        addr: Value,
        offset: i64,
        size: u64,
        write: bool,
    ) -> Option<(Value, u32)> {
        let &i = self.uninit.roots.get(&addr)?;
        let s = self.uninit.shadows[i];
        if size == 0 || size > s.size {
            return None;
        }
        let at = self.b.ins().iadd_imm_s(addr, offset);
        let off = self.b.ins().isub(at, s.base);
        let inside =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, off, (s.size - size) as i64);
        let Some(t) = int_of(size) else {
            // A whole struct or array stored: mark its bytes (none when the
            // place lies outside the variable).
            let here = self.b.ins().iadd(s.shadow, off);
            let n = self.b.ins().iconst(types::I64, size as i64);
            let zero = self.b.ins().iconst(types::I64, 0);
            let n = self.b.ins().select(inside, n, zero);
            let one = self.b.ins().iconst(types::I32, 1);
            let f = crate::runtime::cranecl_memset as *const u8;
            self.call_host(
                f,
                &[types::I64, types::I32, types::I64],
                &[],
                &[here, one, n],
            );
            return None;
        };
        let here = self.b.ins().iadd(s.shadow, off);
        let sink = self.uninit.sink?;
        let sa = self.b.ins().select(inside, here, sink);
        let all = self.b.ins().iconst(t, ones(size));
        if write {
            self.b.ins().store(flags(), all, sa, 0);
            return None;
        }
        let got = self.b.ins().load(t, flags(), sa, 0);
        let ok = self.b.ins().icmp(IntCC::Equal, got, all);
        Some((ok, s.local))
    }

    /// The read of a place in memory whose shadow tests gave `oks`: report
    /// unless all are true. `what` is the expression read.
    pub(crate) fn uninit_mem_read(&mut self, oks: Vec<(Value, u32)>) {
        let Some(&(_, l)) = oks.first() else { return };
        let what = self.uninit_what(l);
        let oks = oks.into_iter().map(|(v, _)| v).collect();
        self.uninit_report_unless(oks, l, what);
    }

    /// What a read of local `l` at the current expression reads, for the
    /// report: `private variable 'x'`, `'a[i]' of private variable 'a'`.
    fn uninit_what(&self, l: u32) -> String {
        let name = &self.func.locals[l as usize].name;
        let text = self
            .pcx
            .sources
            .as_deref()
            .and_then(|sm| {
                sm.get(self.cur_span.file)
                    .map(|_| sm.snippet(self.cur_span))
            })
            .unwrap_or("")
            .trim();
        if text.is_empty() || text == name {
            format!("private variable '{name}'")
        } else {
            format!("'{text}' of private variable '{name}'")
        }
    }

    /// Report (`what`, declared as local `l`) unless every flag of `oks` is
    /// nonzero.
    fn uninit_report_unless(&mut self, oks: Vec<Value>, l: u32, what: String) {
        if oks
            .iter()
            .all(|v| self.const_of(*v).is_some_and(|c| c != 0))
        {
            return;
        }
        let mut ok = oks[0];
        for v in &oks[1..] {
            ok = self.b.ins().band(ok, *v);
        }
        let site = self.site(SiteKind::Read, 0, 0, false);
        let decl_span = self.func.locals[l as usize].span;
        let outer = std::mem::replace(&mut self.cur_span, decl_span);
        let decl = self.site(SiteKind::Read, 0, 0, false);
        self.cur_span = outer;
        {
            let mut sites = self.pcx.sites.borrow_mut();
            sites[site as usize].text = what;
            sites[decl as usize].text = self.func.locals[l as usize].name.clone();
        }
        let slow = self.b.create_block();
        let go = self.b.create_block();
        self.b.ins().brif(ok, go, &[], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let item = self.item;
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let decl_v = self.b.ins().iconst(types::I32, i64::from(decl));
        let f = check::cranecl_check_uninit_private as *const u8;
        self.call_host(
            f,
            &[types::I64, types::I32, types::I32],
            &[],
            &[item, site_v, decl_v],
        );
        self.b.ins().jump(go, &[]);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
    }

    /// Fill `size` bytes at `dst` with 1.
    fn memset_ones(&mut self, dst: Value, size: u64) {
        let v = self.b.ins().iconst(types::I32, 1);
        let n = self.b.ins().iconst(types::I64, size as i64);
        let f = crate::runtime::cranecl_memset as *const u8;
        self.call_host(f, &[types::I64, types::I32, types::I64], &[], &[dst, v, n]);
    }
}
