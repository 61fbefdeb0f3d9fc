//! Checked mode in generated code: the sites and their inline fast paths.
//!
//! A site ([`runtime::check::Site`]) is made for every checked load, store,
//! array subscript and barrier, with the location of the expression being
//! compiled (`FunctionCx::cur_span`) rendered as the build log renders it.
//! A load or store of `size` bytes at `a` becomes
//!
//! ```text
//!   cache = item->group->check_cache
//!   if (a - cache[site].lo <= cache[site].span) goto go(a)   // unsigned
//!   go(cranecl_check_access(item, a, site, value))
//! ```
//!
//! (`span` = the object's size less the access's) so an access inside the
//! object this site last touched costs two loads, a subtraction and a
//! compare. Under `bounds` alone, the lanes' accesses at their own
//! addresses (gathers, masked lanes) are tested together against lane 0's
//! site's object with one branch (`checked_lanes`), and the write of a
//! compound assignment reuses its read's compare (`read_keeping_check`).
//! Under `races`/`uninit` the cache entry also gives the
//! object's shadow: its cells are read and updated inline (`shadow_fast_path`;
//! a read's common cases, all granules with one branch, in `quick_read`)
//! and the runtime is called only when a tag needs a look. A
//! subscript `a[i]` of an array object of `N` elements compares `i` (as
//! unsigned) with `N` and calls `cranecl_check_index` when it is outside,
//! which reports and answers 0. The region strategy's saves and restores
//! of a work-item's locals in its frame are not checked (`unchecked`):
//! they are the code generator's own. See `runtime/check.rs` for the slow
//! paths.

use super::fx::FunctionCx;
use crate::runtime::check::{self, Site, SiteKind};
use crate::runtime::offsets;
use crate::sema::hir::{CastKind, Expr, ExprKind};
use crate::sema::types::Type;
use cranelift_codegen::ir::{condcodes::IntCC, types, BlockArg, InstBuilder, Value};

/// A compound assignment's kept read check: the address, the size and the
/// fast path's `ok` (`FunctionCx::read_keeping_check`).
pub(crate) type Kept = Option<(Value, u64, Value)>;

/// The lanes' accesses emitted at the addresses given (by the caller
/// of `FunctionCx::bounds_lanes`), answering what they read.
pub(crate) type LanesAccess<'a, F> = dyn FnMut(&mut F, &[Value]) -> Result<Vec<Value>, String> + 'a;

/// What `FunctionCx::bounds_lanes` answers: the values read and the fast
/// path's verdict, `None` where it does not apply.
type Joined = Result<Option<(Vec<Value>, Option<Value>)>, String>;

/// Bytes of a site's entry in the cache (`runtime::check::CacheEntry`).
const ENTRY: i64 = 64;

/// A site's write and read thresholds for `FunctionCx::cells_serials`:
/// two scalars, or the vector `lim_vector` loads.
#[derive(Clone, Copy)]
enum Lim {
    Scalars(Value, Value),
    Vector(Value),
}

#[cfg(target_arch = "x86_64")]
const PRESERVING_ACCESS: Option<*const u8> =
    Some(check::preserving::cranecl_check_access_preserving as *const u8);
#[cfg(target_arch = "x86_64")]
const PRESERVING_INDEX: Option<*const u8> =
    Some(check::preserving::cranecl_check_index_preserving as *const u8);
#[cfg(target_arch = "x86_64")]
const PRESERVING_FULL: Option<*const u8> =
    Some(check::preserving::cranecl_check_full_preserving as *const u8);
#[cfg(not(target_arch = "x86_64"))]
const PRESERVING_ACCESS: Option<*const u8> = None;
#[cfg(not(target_arch = "x86_64"))]
const PRESERVING_FULL: Option<*const u8> = None;
#[cfg(not(target_arch = "x86_64"))]
const PRESERVING_INDEX: Option<*const u8> = None;

/// Whether lvalue `e` is a variable or part of one reached without
/// following a pointer: the variable, a member of it, an element of one of
/// its arrays (`v.m[i][j]`, each subscript checked against its array's
/// length under `bounds`). Such an element lies inside the variable.
pub(crate) fn rooted(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) => true,
        ExprKind::Member(b, _) => b.is_lvalue() && rooted(b),
        ExprKind::Deref(p) => match &p.kind {
            ExprKind::PtrAdd(x, y) => {
                let ptr = if x.ty.is_pointer() { x } else { y };
                subscripted_array(ptr).is_some()
            }
            _ => false,
        },
        _ => false,
    }
}

/// The array variable (or part of one, `rooted`) whose decay is `p`, when
/// its length is known.
pub(crate) fn subscripted_array(p: &Expr) -> Option<&Expr> {
    match &p.kind {
        ExprKind::Cast(CastKind::ArrayToPointer, a)
            if matches!(a.ty, Type::Array(_, Some(_))) && rooted(a) =>
        {
            Some(a)
        }
        _ => None,
    }
}

impl FunctionCx<'_, '_> {
    /// Whether loads and stores are checked.
    pub(crate) fn checks_memory(&self) -> bool {
        let c = self.pcx.check;
        c.bounds || c.tracks()
    }

    /// The group state, its cache of checked sites, its current serial and
    /// its first serial, loaded here (`FunctionCx::check_state`).
    pub(crate) fn load_check_state(&mut self) -> [Value; 4] {
        let (group, cache) = self.check_cache();
        let fl = super::value::flags();
        let serial = self
            .b
            .ins()
            .load(types::I64, fl, group, offsets::GROUP_CHECK_SERIAL);
        let base = self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            group,
            offsets::GROUP_CHECK_BASE,
        );
        [group, cache, serial, base]
    }

    /// The group's current serial and first serial.
    fn serial_and_base(&mut self, group: Value) -> (Value, Value) {
        if let Some([_, _, serial, base]) = self.check_state {
            return (serial, base);
        }
        let fl = super::value::flags();
        let serial = self
            .b
            .ins()
            .load(types::I64, fl, group, offsets::GROUP_CHECK_SERIAL);
        let base = self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            group,
            offsets::GROUP_CHECK_BASE,
        );
        (serial, base)
    }

    /// The group state and its cache of checked sites (`GROUP_CHECK_CACHE`).
    fn check_cache(&mut self) -> (Value, Value) {
        if let Some([group, cache, _, _]) = self.check_state {
            return (group, cache);
        }
        let group = self.group_ptr();
        let cache = self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            group,
            offsets::GROUP_CHECK_CACHE,
        );
        (group, cache)
    }

    /// A new site at the current expression.
    pub(crate) fn site(&mut self, kind: SiteKind, size: u64, len: u64, value_known: bool) -> u32 {
        let span = self.cur_span;
        let (location, snippet, text) = match self.pcx.sources.as_deref().and_then(|sm| {
            let file = sm.get(span.file)?;
            let (line, col) = file.line_col(span.lo);
            let (name, presumed) = file.presumed(span.lo);
            let src = file.line_text(line).to_string();
            let prefix: String = src
                .chars()
                .take(col.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            let text = sm.snippet(span).to_string();
            Some((
                format!("{name}:{presumed}:{col}"),
                format!("{src}\n{prefix}^\n"),
                text,
            ))
        }) {
            Some(t) => t,
            None => (
                format!("<kernel '{}'>", self.func.name),
                String::new(),
                String::new(),
            ),
        };
        let mut sites = self.pcx.sites.borrow_mut();
        sites.push(Site {
            kind,
            size: size as u32,
            len,
            lanes: self.site_lanes,
            read_for_write: kind == SiteKind::Read && self.reading_for_write,
            value_known,
            location,
            snippet,
            text,
        });
        (sites.len() - 1) as u32
    }

    /// The address a load (`write` false) or store of `size` bytes at
    /// `addr + offset` must use: `addr + offset` itself when unchecked.
    /// `value` is the scalar being stored (for same-value writes).
    pub(crate) fn checked_addr(
        &mut self,
        addr: Value,
        offset: i32,
        size: u64,
        write: bool,
        value: Option<Value>,
    ) -> (Value, i32) {
        if !self.checks_memory() || size == 0 || self.prechecked {
            return (addr, offset);
        }
        if self.proven_inside(addr, offset, size) {
            return (addr, offset);
        }
        let a = if offset == 0 {
            addr
        } else {
            self.b.ins().iadd_imm_s(addr, i64::from(offset))
        };
        let kind = if write {
            SiteKind::Write
        } else {
            SiteKind::Read
        };
        (self.checked_site(a, size, kind, value), 0)
    }

    /// The access of lanes `first..first + 4` of consecutive 4-byte
    /// elements from `base` (lane 0's), one per lane: the address of lane
    /// `first`'s, checked as one 16-byte access, its granule `k` followed as
    /// lane `first + k`'s work-item's (`FunctionCx::lanes_me0` + `first` +
    /// `k`).
    pub(crate) fn checked_addr_lanes(
        &mut self,
        base: Value,
        write: bool,
        value: Option<Value>,
        first: usize,
    ) -> Value {
        let addr = if first == 0 {
            base
        } else {
            self.b.ins().iadd_imm_s(base, 4 * first as i64)
        };
        if !self.checks_memory() {
            return addr;
        }
        if self.in_object_lanes.contains(&base) {
            // Every lane's element lies in the checked array.
            self.in_object_lanes.insert(addr);
            if self.pcx.check.bounds && !self.pcx.check.tracks() {
                return addr;
            }
        }
        let saved = self.check_me;
        if let Some(me0) = self.lanes_me0 {
            self.check_me = Some(self.b.ins().iadd_imm_s(me0, first as i64));
        } else if self.lanes_rel {
            self.check_me = Some(self.lane_me(first));
        }
        self.site_lanes = true;
        let kind = if write {
            SiteKind::Write
        } else {
            SiteKind::Read
        };
        let a = self.checked_site(addr, 16, kind, value);
        self.site_lanes = false;
        self.check_me = saved;
        a
    }

    /// Whether the subscript `idx` of an array of `n` elements is known to
    /// be inside: a constant, a value of a narrow unsigned type that fits
    /// (`walk::type_range`), the counter of a counted loop being compiled
    /// whose range fits (`walk::counted_loop`), or an index the loop being
    /// compiled does not change, tested before it (`invariant_inside`).
    pub(crate) fn index_known_inside(&self, idx: &Expr, n: u64) -> bool {
        let inside = |lo: i128, hi: i128| lo >= 0 && hi <= i128::from(n);
        if self.invariant_inside.contains(&(idx as *const Expr)) {
            return true;
        }
        if let Some(v) = crate::lower::walk::int_value(idx) {
            return inside(v, v + 1);
        }
        if crate::lower::walk::type_range(idx).is_some_and(|(lo, hi)| inside(lo, hi)) {
            return true;
        }
        crate::lower::walk::read_of(idx).is_some_and(|l| {
            self.counted
                .iter()
                .rev()
                .find(|c| c.0 == l)
                .is_some_and(|&(_, lo, hi)| inside(lo, hi))
        })
    }

    /// Checked `bounds`: the array subscripts of a loop's body whose index
    /// the loop does not change (`walk::invariant_subscripts`) and that are
    /// not known inside yet, to be tested once before the loop. Under
    /// `uninit`, only indices built from variables declared with a value
    /// (the test before the loop reads them, and the loop may not).
    pub(crate) fn invariant_subscripts<'e>(
        &self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &'e crate::sema::hir::Stmt,
    ) -> Vec<(&'e Expr, u64)> {
        if !self.pcx.check.bounds {
            return Vec::new();
        }
        let unset = if self.pcx.check.uninit {
            crate::lower::walk::uninitialised_locals(self.func)
        } else {
            Default::default()
        };
        crate::lower::walk::invariant_subscripts(self.func, cond, step, body)
            .into_iter()
            .filter(|(i, n)| !self.index_known_inside(i, *n))
            .filter(|(i, _)| {
                let mut reads_unset = false;
                crate::lower::walk::expr_tree(i, &mut |e| {
                    if let crate::sema::hir::ExprKind::Var(crate::sema::hir::VarRef::Local(l)) =
                        &e.kind
                    {
                        reads_unset |= unset.contains(&l.0);
                    }
                });
                !reads_unset
            })
            .collect()
    }

    /// The scalar code's test of `invariant_subscripts` before a loop:
    /// whether every such index lies inside its array (silently), with the
    /// index expressions. `None` when there is no such subscript.
    pub(crate) fn invariant_inside(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &crate::sema::hir::Stmt,
    ) -> Result<Option<(Value, Vec<*const Expr>)>, String> {
        let subs = self.invariant_subscripts(cond, step, body);
        if subs.is_empty() {
            return Ok(None);
        }
        let mut all = self.b.ins().iconst(types::I8, 1);
        for (idx, n) in &subs {
            let x = self.expr(idx)?.scalar()?;
            let signed = idx.ty.elem().is_none_or(|s| s.is_signed());
            let t = self.b.func.dfg.value_type(x);
            let x = self.int_resize(x, t, types::I64, signed);
            let ok = self
                .b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThan, x, *n as i64);
            all = self.b.ins().band(all, ok);
        }
        Ok(Some((
            all,
            subs.iter().map(|(i, _)| *i as *const Expr).collect(),
        )))
    }

    /// Compile `body` of a `for` loop, its counter's range known inside
    /// when it is a counted loop (checked `bounds` only).
    pub(crate) fn with_counted<R>(
        &mut self,
        loop_: Option<(u32, i128, i128)>,
        body: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let n = self.counted.len();
        if let Some(c) = loop_ {
            self.counted.push(c);
        }
        let r = body(self);
        self.counted.truncate(n);
        r
    }

    /// The counted loop of `for (init; cond; step) body`, under `bounds`.
    pub(crate) fn counted_loop(
        &self,
        init: Option<&crate::sema::hir::Stmt>,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &crate::sema::hir::Stmt,
    ) -> Option<(u32, i128, i128)> {
        if !self.pcx.check.bounds {
            return None;
        }
        crate::lower::walk::counted_loop(self.func, init, cond, step, body)
    }

    /// Checked `bounds` alone: the loads of a `for` condition at the same
    /// address every time (`walk::invariant_cond_loads`) have their address
    /// computed and tested here, before the loop (the condition reads them
    /// at least once), and used as tested at every evaluation. Returns the
    /// keys to forget after the loop.
    pub(crate) fn hoist_cond_checks(
        &mut self,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &crate::sema::hir::Stmt,
    ) -> Result<Vec<*const Expr>, String> {
        let Some(cond) = cond else {
            return Ok(Vec::new());
        };
        if !self.pcx.check.bounds || self.pcx.check.tracks() || self.prechecked {
            return Ok(Vec::new());
        }
        let mut keys = Vec::new();
        for p in crate::lower::walk::invariant_cond_loads(self.func, cond, step, body) {
            let outer = std::mem::replace(&mut self.cur_span, p.span);
            let a = self.expr(p).and_then(|v| v.scalar());
            let a = match a {
                Ok(a) => a,
                Err(e) => {
                    self.cur_span = outer;
                    return Err(e);
                }
            };
            let size = self.pointee_size(&p.ty);
            let (a, _) = self.checked_addr(a, 0, size, false, None);
            self.cur_span = outer;
            self.in_object.insert(a, size);
            self.hoisted_addrs.insert(p as *const Expr, a);
            keys.push(p as *const Expr);
        }
        Ok(keys)
    }

    /// Checked `bounds` alone: the loop of `for (init; cond; step) body`
    /// whose `p[k]` accesses can be tested before it (`walk::range_loop`).
    pub(crate) fn range_loop<'e>(
        &self,
        cond: Option<&'e Expr>,
        step: Option<&'e Expr>,
        body: &'e crate::sema::hir::Stmt,
    ) -> Option<crate::lower::walk::RangeLoop<'e>> {
        if !self.pcx.check.bounds || self.pcx.check.tracks() || self.prechecked {
            return None;
        }
        let rl = crate::lower::walk::range_loop(self.func, cond, step, body)?;
        // The bound's load, if any, is the one `hoist_cond_checks` tested:
        // reading it again here reports nothing of its own.
        let mut hoisted = true;
        crate::lower::walk::expr_tree(rl.bound, &mut |e| {
            if let ExprKind::Deref(p) = &e.kind {
                hoisted &= self.hoisted_addrs.contains_key(&(&**p as *const Expr));
            }
        });
        hoisted.then_some(rl)
    }

    /// Before a [`Self::range_loop`] (after its initialiser): whether every
    /// access `p[k]` the loop may make, `k` from its value now up to the
    /// bound, lies inside the object holding `p[k]`'s first element (true
    /// too when the loop makes none), tested silently: an inline test of
    /// the first and last elements against a site's cache of its own, the
    /// runtime (`cranecl_check_range`) when the cache does not hold the
    /// object. The caller runs the loop's copy without those tests when it
    /// is true, the checked copy when not. The range's element count is
    /// held below 2^40 so that no address computation wraps. Also returns
    /// the bound's value (the loop's copy without tests compares with it).
    pub(crate) fn range_precheck(
        &mut self,
        rl: &crate::lower::walk::RangeLoop<'_>,
    ) -> Result<(Value, Value), String> {
        let kty = self
            .func
            .locals
            .get(rl.var as usize)
            .map(|l| l.ty.clone())
            .ok_or("unknown loop counter")?;
        let signed = kty.elem().is_some_and(|s| s.is_signed());
        let kplace = self
            .locals
            .get(rl.var as usize)
            .cloned()
            .ok_or("unknown loop counter")?;
        let a0 = self.read_place(&kplace, &kty)?.scalar()?;
        let b0 = self.expr(rl.bound)?.scalar()?;
        let t = self.b.func.dfg.value_type(a0);
        let lt = if signed {
            IntCC::SignedLessThan
        } else {
            IntCC::UnsignedLessThan
        };
        let nonempty = self.b.ins().icmp(lt, a0, b0);
        let (test, slow, done) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(done, types::I8);
        let yes = self.b.ins().iconst(types::I8, 1);
        self.b.ins().brif(nonempty, test, &[], done, &[yes.into()]);
        self.b.seal_block(test);
        self.b.switch_to_block(test);
        let a64 = self.int_resize(a0, t, types::I64, signed);
        let b64 = self.int_resize(b0, t, types::I64, signed);
        let count = self.b.ins().isub(b64, a64);
        let mut few = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, count, 1 << 40);
        if let Some(s) = rl.step {
            // `k += s` reaches only elements of the range when it moves
            // forward and cannot wrap: 1 <= s <= MAX - b (k of 32 bits at
            // most, so these hold exactly in 64 bits).
            let sv = self.expr(s)?.scalar()?;
            let s64 = self.int_resize(sv, t, types::I64, signed);
            let max = match kty.elem() {
                Some(e) if e.is_signed() => (1i64 << (8 * e.size() - 1)) - 1,
                Some(e) => (1i64 << (8 * e.size())) - 1,
                None => 0,
            };
            let forward = self
                .b
                .ins()
                .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, s64, 1);
            let room = self.b.ins().iconst(types::I64, max);
            let room = self.b.ins().isub(room, b64);
            let no_wrap = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, s64, room);
            few = self.b.ins().band(few, forward);
            few = self.b.ins().band(few, no_wrap);
        }
        let mut all = few;
        let (_, cache) = self.check_cache();
        let mut ranges = Vec::new();
        for (p, offset, _) in &rl.ptrs {
            let size = self.pointee_size(&p.ty);
            let outer = std::mem::replace(&mut self.cur_span, p.span);
            let pv = self.expr(p).and_then(|v| v.scalar());
            let site = self.site(SiteKind::Read, size, 0, false);
            self.cur_span = outer;
            let mut pv = pv?;
            if let Some(x) = offset {
                // `p[x + k]`: the range of `(p + x)[k]`.
                let xv = self.expr(x)?.scalar()?;
                let off = self.b.ins().imul_imm_s(xv, size as i64);
                pv = self.b.ins().iadd(pv, off);
            }
            let off = self.b.ins().imul_imm_s(a64, size as i64);
            let first = self.b.ins().iadd(pv, off);
            let last_k = self.b.ins().iadd_imm_s(b64, -1);
            let off = self.b.ins().imul_imm_s(last_k, size as i64);
            let last = self.b.ins().iadd(pv, off);
            let at = (site as i64 * ENTRY) as i32;
            let fl = super::value::flags();
            let lo = self.b.ins().load(types::I64, fl, cache, at);
            let span = self.b.ins().load(types::I64, fl, cache, at + 8);
            for x in [first, last] {
                let d = self.b.ins().isub(x, lo);
                let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, d, span);
                all = self.b.ins().band(all, ok);
            }
            ranges.push((first, last, size, site));
        }
        self.b.ins().brif(all, done, &[yes.into()], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let mut r = few;
        let item = self.item;
        for (first, last, size, site) in ranges {
            let hi = self.b.ins().iadd_imm_s(last, size as i64);
            let site_v = self.b.ins().iconst(types::I32, i64::from(site));
            let got = self.call_host(
                check::cranecl_check_range as *const u8,
                &[types::I64, types::I64, types::I64, types::I32],
                &[types::I64],
                &[item, first, hi, site_v],
            )[0];
            let inside = self.b.ins().icmp_imm_u(IntCC::NotEqual, got, 0);
            r = self.b.ins().band(r, inside);
        }
        self.b.ins().jump(done, &[r.into()]);
        self.b.seal_block(done);
        self.b.switch_to_block(done);
        Ok((self.b.block_params(done)[0], b0))
    }

    /// Under `bounds` alone: whether an access of `size` bytes at `addr +
    /// offset` is known to stay inside its object (`FunctionCx::in_object`).
    /// `races`/`uninit` test every access: their fast path needs the
    /// object's shadow from the site's cache.
    fn proven_inside(&self, addr: Value, offset: i32, size: u64) -> bool {
        self.pcx.check.bounds
            && !self.pcx.check.tracks()
            && offset >= 0
            && self
                .in_object
                .get(&addr)
                .is_some_and(|&n| offset as u64 + size <= n)
    }

    /// `f` with its loads and stores unchecked: the code generator's own
    /// accesses (a region frame's saved locals), or ones checked already.
    pub(crate) fn unchecked<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.prechecked;
        self.prechecked = true;
        let r = f(self);
        self.prechecked = saved;
        r
    }

    /// A compound assignment's (`x op= y`, `x++`) read of `place`, which
    /// returns with the read's check when the write can reuse it: under
    /// `bounds` alone, a scalar at an address (`write_reusing_check`).
    pub(crate) fn read_keeping_check(
        &mut self,
        place: &super::value::CPlace,
        ty: &crate::sema::types::Type,
    ) -> (Result<super::value::CValue, String>, Kept) {
        let keep = match place {
            super::value::CPlace::Addr(a)
                if self.pcx.check.bounds
                    && !self.pcx.check.tracks()
                    && !self.prechecked
                    && super::value::clif_type(ty).is_some()
                    && !ty.is_vector() =>
            {
                Some(*a)
            }
            _ => None,
        };
        let saved = (self.keep_read, self.kept_ok.take());
        self.keep_read = keep;
        let r = self.read_for_write(|fx| fx.read_place(place, ty));
        let kept = self.kept_ok.take();
        (self.keep_read, self.kept_ok) = saved;
        (r, kept)
    }

    /// `f`, the read of a compound assignment (`x op= y`, `x++`) whose write
    /// to the same place follows in the same work-item: under
    /// `races`/`uninit` its reads test the write tags only and leave the read
    /// tags as they are. The write will test them: another work-item's read
    /// of the granule in this interval, before or after, is a race with
    /// that write (its read tag is there, or the write tag it meets is), so
    /// this read's own tag would add nothing.
    pub(crate) fn read_for_write<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.reading_for_write;
        self.reading_for_write = self.pcx.check.tracks();
        let r = f(self);
        self.reading_for_write = saved;
        r
    }

    /// Write `v` to `place` after `read_keeping_check`: its write's check
    /// is the read's when the read found the address inside its object
    /// (the slow path, and its report, when not).
    pub(crate) fn write_reusing_check(
        &mut self,
        place: &super::value::CPlace,
        ty: &crate::sema::types::Type,
        v: &super::value::CValue,
        kept: Kept,
    ) -> Result<(), String> {
        let saved = std::mem::replace(&mut self.kept_ok, kept);
        let saved_keep = self.keep_read.take();
        let r = self.write_place(place, ty, v);
        self.kept_ok = saved;
        self.keep_read = saved_keep;
        r
    }

    /// `races`/`uninit`: the lanes' accesses at their own addresses
    /// (`tracked_lanes`; `shape`: whether no two lanes share a place, and
    /// the lanes' affine step, if they have one); `None` without those
    /// checks.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn checked_lanes(
        &mut self,
        addrs: &[Value],
        active: Option<&[Value]>,
        size: u64,
        write: bool,
        values: Option<&[Value]>,
        shape: (bool, Option<i64>),
        known_ok: Option<Value>,
    ) -> Option<(Vec<Value>, Option<Value>)> {
        if !self.pcx.check.tracks() {
            return None;
        }
        self.tracked_lanes(addrs, active, size, write, values, shape, known_ok)
    }

    /// `bounds` without the shadow: the lanes' scalar accesses of
    /// `size` bytes, lane `k`'s at `addrs[k]` (`active[k]`, where given:
    /// whether lane `k` takes part; an inactive lane's address is the lanes'
    /// dummy and is not tested), checked at once: each lane has its own site
    /// as before, and the fast path tests every active lane against the
    /// object lane 0's site last touched (one load of its bounds, a
    /// subtraction and a compare per lane, one branch). `access` emits the
    /// accesses (given the addresses, returning what they read): once
    /// on the fast path at `addrs`, once on the cold path at the addresses
    /// the runtime answers, where every lane takes its own site's slow path,
    /// lane 0's last so that its cache names lane 0's object (a masked-off
    /// lane 0's: the first active lane's). The two join with what was read:
    /// no address lives across the test. Returns that, or `None` where this
    /// does not apply (nothing checked, or `races`/`uninit`, whose fast
    /// path tags each lane's granules). `monotone`: all lanes active at
    /// `base + k * step`, so the fast path tests the first and the last;
    /// `range`: with `step` > 0, the bytes from lane 0's address to the
    /// end of the last lane's access (`(lanes - 1) * step + size`), tested as one access
    /// at lane 0's address against a site of that size of its own (one
    /// compare; a miss asks the runtime silently whether the range lies
    /// in one object, `cranecl_check_range`, which then fills the site's
    /// entry, before each lane takes its own slow path).
    /// Also the fast path's verdict (an `i8`), which a later access of the
    /// same addresses may pass as `known_ok` to take its branch without
    /// testing again (a compound assignment's write after its read).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn bounds_lanes(
        &mut self,
        addrs: &[Value],
        active: Option<&[Value]>,
        size: u64,
        values: Option<&[Value]>,
        monotone: bool,
        range: Option<u64>,
        known_ok: Option<Value>,
        access: &mut LanesAccess<'_, Self>,
    ) -> Joined {
        if !self.pcx.check.bounds || self.pcx.check.tracks() || self.prechecked || size == 0 {
            return Ok(None);
        }
        let run = |fx: &mut Self, a: &[Value], access: &mut LanesAccess<'_, Self>| {
            let saved = std::mem::replace(&mut fx.prechecked, true);
            let r = access(fx, a);
            fx.prechecked = saved;
            r
        };
        if active.is_none() && addrs.iter().all(|&a| self.proven_inside(a, 0, size)) {
            return Ok(Some((run(self, addrs, access)?, None)));
        }
        let kind = if values.is_some() {
            SiteKind::Write
        } else {
            SiteKind::Read
        };
        let sites: Vec<u32> = (0..addrs.len())
            .map(|_| self.site(kind, size, 0, values.is_some()))
            .collect();
        let (_, cache) = self.check_cache();
        let at = (sites[0] as i64 * ENTRY) as i32;
        let fl = super::value::flags();
        let range = range.filter(|&r| {
            known_ok.is_none()
                && active.is_none()
                && addrs.len() == self.step_lanes()
                && r <= u64::from(u32::MAX)
        });
        if let Some(r) = range {
            let rsite = self.site(kind, r, 0, false);
            let at_r = (rsite as i64 * ENTRY) as i32;
            let lo = self.b.ins().load(types::I64, fl, cache, at_r);
            let span = self.b.ins().load(types::I64, fl, cache, at_r + 8);
            let off = self.b.ins().isub(addrs[0], lo);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, off, span);
            let (fast, slow, join) = (
                self.b.create_block(),
                self.b.create_block(),
                self.b.create_block(),
            );
            if let Some(here) = self.b.current_block() {
                self.joined_from.insert(join, here);
            }
            self.b.ins().brif(ok, fast, &[], slow, &[]);
            return self.lanes_split(
                addrs,
                active,
                (&sites, cache),
                values,
                (fast, slow, join),
                (ok, Some((r, rsite))),
                access,
            );
        }
        let mut all: Option<Value> = known_ok;
        let (lo, span) = if known_ok.is_none() {
            let lo = self.b.ins().load(types::I64, fl, cache, at);
            let span = self.b.ins().load(types::I64, fl, cache, at + 8);
            (lo, span)
        } else {
            (cache, cache)
        };
        let last = addrs.len() - 1;
        // Four lanes anywhere: one vector test (eight: each lane's test).
        let vector = known_ok.is_none() && !monotone && active.is_none() && addrs.len() == 4;
        if vector {
            let (_, _, past) = self.lanes_past(addrs, lo, span);
            let outside = self.b.ins().vany_true(past);
            all = Some(self.b.ins().icmp_imm_u(IntCC::Equal, outside, 0));
        }
        for (k, &a) in addrs.iter().enumerate() {
            if vector || known_ok.is_some() || monotone && k != 0 && k != last {
                continue;
            }
            let off = self.b.ins().isub(a, lo);
            let off = match active {
                Some(m) => {
                    let z = self.b.ins().iconst(types::I64, 0);
                    self.b.ins().select(m[k], off, z)
                }
                None => off,
            };
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, off, span);
            all = Some(match all {
                Some(x) => self.b.ins().band(x, ok),
                None => ok,
            });
        }
        let Some(all) = all else {
            return Ok(None);
        };
        let (fast, slow, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        if let Some(here) = self.b.current_block() {
            self.joined_from.insert(join, here);
        }
        self.b.ins().brif(all, fast, &[], slow, &[]);
        self.lanes_split(
            addrs,
            active,
            (&sites, cache),
            values,
            (fast, slow, join),
            (all, None),
            access,
        )
    }

    /// Whether the values made in `block` are available at the current
    /// point: it is this block, or one the joins (`joined_from`) lead back
    /// to.
    pub(crate) fn made_before(&self, block: cranelift_codegen::ir::Block) -> bool {
        let mut cur = self.b.current_block();
        while let Some(c) = cur {
            if c == block {
                return true;
            }
            cur = self.joined_from.get(&c).copied();
        }
        false
    }

    /// The two sides of `bounds_lanes`' test, once its branch to `fast`
    /// or `slow` is emitted: the accesses on each, joined in `join`.
    #[allow(clippy::too_many_arguments)]
    fn lanes_split(
        &mut self,
        addrs: &[Value],
        active: Option<&[Value]>,
        (sites, cache): (&[u32], Value),
        values: Option<&[Value]>,
        (fast, slow, join): (
            cranelift_codegen::ir::Block,
            cranelift_codegen::ir::Block,
            cranelift_codegen::ir::Block,
        ),
        (all, retry): (Value, Option<(u64, u32)>),
        access: &mut LanesAccess<'_, Self>,
    ) -> Joined {
        let run = |fx: &mut Self, a: &[Value], access: &mut LanesAccess<'_, Self>| {
            let saved = std::mem::replace(&mut fx.prechecked, true);
            let r = access(fx, a);
            fx.prechecked = saved;
            r
        };
        let item = self.item;
        let at = (sites[0] as i64 * ENTRY) as i32;
        self.b.seal_block(fast);
        self.b.switch_to_block(fast);
        let got = run(self, addrs, access)?;
        for &v in &got {
            let t = self.b.func.dfg.value_type(v);
            self.b.append_block_param(join, t);
        }
        let args: Vec<BlockArg> = got.iter().map(|&v| v.into()).collect();
        self.b.ins().jump(join, &args);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        if let Some((r, rsite)) = retry {
            // The range's site missed: whether the range lies in one object
            // (the runtime then fills the site's entry), silently; if so,
            // the accesses as on the fast path.
            let hi = self.b.ins().iadd_imm_s(addrs[0], r as i64);
            let site_v = self.b.ins().iconst(types::I32, i64::from(rsite));
            let got = self.call_host(
                check::cranecl_check_range as *const u8,
                &[types::I64, types::I64, types::I64, types::I32],
                &[types::I64],
                &[item, addrs[0], hi, site_v],
            )[0];
            let (again, each) = (self.b.create_block(), self.b.create_block());
            self.b.ins().brif(got, again, &[], each, &[]);
            self.b.seal_block(again);
            self.b.switch_to_block(again);
            self.b.set_cold_block(again);
            let vals = run(self, addrs, access)?;
            let args: Vec<BlockArg> = vals.iter().map(|&v| v.into()).collect();
            self.b.ins().jump(join, &args);
            self.b.seal_block(each);
            self.b.switch_to_block(each);
            self.b.set_cold_block(each);
        }
        let zero = self.b.ins().iconst(types::I64, 0);
        let mut out = vec![zero; addrs.len()];
        for k in (0..addrs.len()).rev() {
            let bits = match values {
                Some(v) => self.value_bits(v[k]),
                None => zero,
            };
            let me = match self.lanes_me0 {
                Some(me0) => self.b.ins().iadd_imm_s(me0, k as i64),
                None if self.lanes_rel => self.lane_me(k),
                None => self.current_me(),
            };
            let site_v = self.b.ins().iconst(types::I32, i64::from(sites[k]));
            out[k] = self.check_access_slow([item, addrs[k], site_v, bits, me, zero]);
        }
        if let Some(m) = active {
            // A masked-off lane 0 was looked up at the dummy: its site
            // takes the object of the first active lane instead, so that
            // the next steps' fast path tests against that one.
            let fl = super::value::flags();
            let entry =
                |fx: &mut Self, k: usize| fx.b.ins().iadd_imm_s(cache, sites[k] as i64 * ENTRY);
            let last = addrs.len() - 1;
            let mut src = entry(self, last);
            for k in (1..last).rev() {
                let e = entry(self, k);
                src = self.b.ins().select(m[k], e, src);
            }
            let lo_s = self.b.ins().load(types::I64, fl, src, 0);
            let span_s = self.b.ins().load(types::I64, fl, src, 8);
            let lo_0 = self.b.ins().load(types::I64, fl, cache, at);
            let span_0 = self.b.ins().load(types::I64, fl, cache, at + 8);
            let lo = self.b.ins().select(m[0], lo_0, lo_s);
            let span = self.b.ins().select(m[0], span_0, span_s);
            self.b.ins().store(fl, lo, cache, at);
            self.b.ins().store(fl, span, cache, at + 8);
        }
        let got = run(self, &out, access)?;
        let args: Vec<BlockArg> = got.iter().map(|&v| v.into()).collect();
        self.b.ins().jump(join, &args);
        self.b.seal_block(join);
        self.b.switch_to_block(join);
        Ok(Some((self.b.block_params(join).to_vec(), Some(all))))
    }

    /// Four lanes' addresses as two vectors (lanes 0, 1 and 2, 3), and
    /// which lanes lie past `[lo, lo + span]` (all ones): the bounds test
    /// of four places at once.
    ///
    /// The test is `a < lo || a > lo + span` in signed compares (SSE4.2 has
    /// no unsigned 64-bit vector compare: an unsigned one costs two XORs
    /// with the sign bit more per half). It is the unsigned test because
    /// every entry's `lo` and `lo + span` lie in `[0, 2^63)` (user-space
    /// addresses), so an address of `2^63` or more, negative as signed, is
    /// below `lo`; the empty entry (`lo` = `2^63`, span 0) passes only the
    /// non-canonical `2^63`, as the unsigned test does.
    fn lanes_past(&mut self, addrs: &[Value], lo: Value, span: Value) -> (Value, Value, Value) {
        let pair = |fx: &mut Self, x: Value, y: Value| {
            let v = fx.b.ins().scalar_to_vector(types::I64X2, x);
            fx.b.ins().insertlane(v, y, 1)
        };
        let v01 = pair(self, addrs[0], addrs[1]);
        let v23 = pair(self, addrs[2], addrs[3]);
        let end = self.b.ins().iadd(lo, span);
        let lo_v = self.b.ins().splat(types::I64X2, lo);
        let end_v = self.b.ins().splat(types::I64X2, end);
        let past = |fx: &mut Self, v: Value| {
            let below = fx.b.ins().icmp(IntCC::SignedGreaterThan, lo_v, v);
            let above = fx.b.ins().icmp(IntCC::SignedGreaterThan, v, end_v);
            fx.b.ins().bor(below, above)
        };
        let (p01, p23) = (past(self, v01), past(self, v23));
        let bad = self.b.ins().bor(p01, p23);
        (v01, v23, bad)
    }

    /// `races`/`uninit`: four lanes' accesses of 4 bytes at their own
    /// addresses (a gather or a scatter), all lanes active (a step of
    /// eight lanes goes lane by lane). Tested together
    /// first: all inside the object lane 0's site last touched, aligned,
    /// and (a followed object) their cells' serials needing no look
    /// (`serials_ok`), each lane's granule then tagged as its work-item's
    /// (`lanes_me0` + k). Otherwise each lane goes its own way
    /// (`checked_site`, with its own site). `None` where this does not
    /// apply (masked lanes, other sizes, outside the lanes' steps): the
    /// caller checks lane by lane.
    #[allow(clippy::too_many_arguments)]
    fn tracked_lanes(
        &mut self,
        addrs: &[Value],
        active: Option<&[Value]>,
        size: u64,
        write: bool,
        values: Option<&[Value]>,
        (distinct, step): (bool, Option<i64>),
        known_ok: Option<Value>,
    ) -> Option<(Vec<Value>, Option<Value>)> {
        let me0 = self.lanes_me0?;
        if active.is_some() || size != 4 || self.prechecked || addrs.len() != 4 {
            return None;
        }
        let kind = if write {
            SiteKind::Write
        } else {
            SiteKind::Read
        };
        let for_write = !write && self.reading_for_write;
        // The write of a compound assignment whose read stored its tags.
        // (Left in place for any other access: the right-hand side's come
        // between the read and the write.)
        let stored = match (self.kept_tracked, known_ok) {
            (Some((v, wsite)), Some(k)) if write && v == k => {
                self.kept_tracked = None;
                Some((k, wsite))
            }
            _ => None,
        };
        let site = match stored {
            Some((_, wsite)) => wsite,
            None => self.site(kind, size, 0, values.is_some()),
        };
        let (group, cache) = self.check_cache();
        let at = (site as i64 * ENTRY) as i32;
        let fl = super::value::flags();
        let reuse = self.lanes_reuse.take();
        if let (Some((outside, at_then)), None) = (reuse, stored) {
            // The same four places, found inside the object of the entry
            // at `at_then`, aligned and apart by an earlier access of this
            // step: that test stands (its entry gives the shadow).
            let same: Vec<BlockArg> = addrs.iter().map(|&a| a.into()).collect();
            let go = self.b.create_block();
            for _ in addrs {
                self.b.append_block_param(go, types::I64);
            }
            self.lanes_tested = Some((outside, at_then));
            return self.tracked_lanes_tail(
                addrs,
                (size, write, values),
                (site, for_write),
                (me0, group, cache, at_then),
                (outside, go, same),
            );
        }
        let lo = self.b.ins().load(types::I64, fl, cache, at);
        let span = self.b.ins().load(types::I64, fl, cache, at + 8);
        // Each inside the object, all aligned, in one test: lanes an
        // affine step apart, a multiple of the granule, are inside when the
        // first and the last are, and aligned when the first is (scalar
        // compares); other lanes in vectors (`lanes_past`).
        let affine = step.filter(|s| *s % 4 == 0 && *s != 0);
        let (vectors, inside) = match affine {
            Some(_) => {
                let last = addrs[addrs.len() - 1];
                let off0 = self.b.ins().isub(addrs[0], lo);
                let off3 = self.b.ins().isub(last, lo);
                let in0 = self
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedLessThanOrEqual, off0, span);
                let in3 = self
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedLessThanOrEqual, off3, span);
                (None, Some(self.b.ins().band(in0, in3)))
            }
            None => (Some(self.lanes_past(addrs, lo, span)), None),
        };
        let same: Vec<BlockArg> = addrs.iter().map(|&a| a.into()).collect();
        let go = self.b.create_block();
        for _ in addrs {
            self.b.append_block_param(go, types::I64);
        }
        if let Some((ok, _)) = stored {
            // Its read found the same addresses aligned, one granule
            // each, and stored this write's tags: only the write site's
            // own object is tested (an entry emptied, as after a read of
            // uninitialised local memory, sends it the whole way).
            let inside = match (inside, vectors) {
                (Some(i), _) => i,
                (None, Some((_, _, bad))) => {
                    let outside = self.b.ins().vany_true(bad);
                    self.b.ins().icmp_imm_u(IntCC::Equal, outside, 0)
                }
                (None, None) => return None,
            };
            let skip = self.b.ins().band(ok, inside);
            let full = self.b.create_block();
            self.b.ins().brif(skip, go, &same, full, &[]);
            self.b.seal_block(full);
            self.b.switch_to_block(full);
        }
        if let (None, Some(inside)) = (vectors, inside) {
            // Affine: lane 0 aligned, and no two lanes at one granule.
            let low = self.b.ins().band_imm_u(addrs[0], 3);
            let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, low, 0);
            let ok = self.b.ins().band(inside, aligned);
            let outside = self.b.ins().icmp_imm_u(IntCC::Equal, ok, 0);
            if stored.is_none() {
                self.lanes_tested = Some((outside, at));
            }
            return self.tracked_lanes_tail(
                addrs,
                (size, write, values),
                (site, for_write),
                (me0, group, cache, at),
                (outside, go, same),
            );
        }
        let (v01, v23, mut bad) = vectors?;
        // A misaligned lane leaves its low bits set in `bad`.
        let low = self.b.ins().bor(v01, v23);
        let three = self.b.ins().iconst(types::I64, 3);
        let three = self.b.ins().splat(types::I64X2, three);
        let low = self.b.ins().band(low, three);
        bad = self.b.ins().bor(bad, low);
        if !distinct {
            // Two lanes at one granule (`tile[2 * (l / 2)]`): the cells are
            // read before any lane's tag is stored, so the SIMD test would
            // see neither lane's access; the runtime takes them one by one.
            // Pairs (0, 2) and (1, 3), (0, 3) and (1, 2), (0, 1) and (2, 3).
            let lanes64 = |fx: &mut Self, x: Value, y: Value, pick: [u8; 2]| {
                let le = cranelift_codegen::ir::MemFlagsData::new()
                    .with_endianness(cranelift_codegen::ir::Endianness::Little);
                let xb = fx.b.ins().bitcast(types::I8X16, le, x);
                let yb = fx.b.ins().bitcast(types::I8X16, le, y);
                let bytes = pick.iter().flat_map(|&q| (8 * q)..(8 * q + 8)).collect();
                let mask = fx.shuffle_mask(bytes);
                let v = fx.b.ins().shuffle(xb, yb, mask);
                fx.b.ins().bitcast(types::I64X2, le, v)
            };
            // Lanes of (x, y) by index: 0, 1 are x's, 2, 3 are y's.
            let v32 = lanes64(self, v23, v23, [1, 0]);
            let v02 = lanes64(self, v01, v23, [0, 2]);
            let v13 = lanes64(self, v01, v23, [1, 3]);
            let e1 = self.b.ins().icmp(IntCC::Equal, v01, v23);
            let e2 = self.b.ins().icmp(IntCC::Equal, v01, v32);
            let e3 = self.b.ins().icmp(IntCC::Equal, v02, v13);
            let e = self.b.ins().bor(e1, e2);
            let e = self.b.ins().bor(e, e3);
            bad = self.b.ins().bor(bad, e);
        }
        let outside = self.b.ins().vany_true(bad);
        if stored.is_none() {
            self.lanes_tested = Some((outside, at));
        }
        self.tracked_lanes_tail(
            addrs,
            (size, write, values),
            (site, for_write),
            (me0, group, cache, at),
            (outside, go, same),
        )
    }

    /// The rest of `tracked_lanes` once `outside` (an `i8`: some lane
    /// outside, misaligned or sharing a granule) is known: the followed
    /// object's cells looked at and tagged, or each lane's own way; `go`
    /// takes the addresses (`same`: the fast path's).
    #[allow(clippy::type_complexity)]
    fn tracked_lanes_tail(
        &mut self,
        addrs: &[Value],
        (size, write, values): (u64, bool, Option<&[Value]>),
        (site, for_write): (u32, bool),
        (me0, group, cache, at): (Value, Value, Value, i32),
        (outside, go, same): (Value, cranelift_codegen::ir::Block, Vec<BlockArg>),
    ) -> Option<(Vec<Value>, Option<Value>)> {
        let fl = super::value::flags();
        if self.lanes_tested.is_some() {
            // Every way to `go` starts here: what was made here is there.
            if let Some(here) = self.b.current_block() {
                self.joined_from.insert(go, here);
            }
        }
        let (inside_b, followed, tag, each) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        // A compound assignment's read tells its write whether it stored
        // the write's tags (1) or left the write to test them (0).
        let merge = for_write.then(|| {
            self.b.append_block_param(go, types::I8);
            let wsite = self.site(SiteKind::Write, size, 0, true);
            let one = self.b.ins().iconst(types::I8, 1);
            let zero = self.b.ins().iconst(types::I8, 0);
            (wsite, one, zero)
        });
        let with = |v: &[BlockArg], flag: Option<Value>| -> Vec<BlockArg> {
            let mut v = v.to_vec();
            v.extend(flag.map(BlockArg::from));
            v
        };
        let (same_ok, same_no) = (
            with(&same, merge.map(|m| m.1)),
            with(&same, merge.map(|m| m.2)),
        );
        self.b.ins().brif(outside, each, &[], inside_b, &[]);
        self.b.seal_block(inside_b);
        self.b.switch_to_block(inside_b);
        let delta = self.b.ins().load(types::I64, fl, cache, at + 16);
        // (An object this site does not follow stores no tags: a compound
        // assignment's write then tests its own.)
        self.b.ins().brif(delta, followed, &[], go, &same_no);
        self.b.seal_block(followed);
        self.b.switch_to_block(followed);
        let sh: Vec<Value> = addrs
            .iter()
            .map(|&a| {
                let x = self.b.ins().ishl_imm_u(a, 2);
                self.b.ins().iadd(x, delta)
            })
            .collect();
        let (serial, base) = self.serial_and_base(group);
        let cells: Vec<_> = sh.iter().map(|&p| (p, 0)).collect();
        let mes = self.me_pairs(me0);
        // Each lane's tag (in this block: the stores and the kept read's
        // test both use them). A work-item's number (at most
        // MAX_WORK_GROUP_SIZE + 3) fits the tag's low 16 bits, so lane
        // k's tag is lane 0's + k.
        const _: () = assert!(super::MAX_WORK_GROUP_SIZE + 3 <= 0xFFFF);
        let hi = self.b.ins().ishl_imm_u(serial, 32);
        let t = self
            .b
            .ins()
            .bor_imm_u(hi, i64::from(site.min(0xFFFF)) << 16);
        let t0 = self.b.ins().bor(t, me0);
        let tags: Vec<Value> = (0..sh.len())
            .map(|k| match k {
                0 => t0,
                _ => self.b.ins().iadd_imm_s(t0, k as i64),
            })
            .collect();
        // The site's two thresholds as one vector, loaded at once from the
        // entry, where they lie side by side.
        let lim = Lim::Vector(self.lim_vector(cache, at + 24));
        // A compound assignment's read tests what its write would (the read
        // site's thresholds also send a write tag from before the group to
        // the runtime: local memory never written) and then stores the
        // write's tags; when that needs a look, the write tags alone as a
        // read, and the write tests the rest itself.
        let read = !write && !for_write;
        let kept_b = if read || for_write {
            self.b.create_block()
        } else {
            each
        };
        let cells_at = (cells.as_slice(), mes, lim, base, serial);
        self.cells_branch(cells_at, true, (kept_b, &[]), (tag, &[]));
        self.b.seal_block(tag);
        self.b.switch_to_block(tag);
        let (slot, tags) = match merge {
            Some((wsite, ..)) => {
                let t = self
                    .b
                    .ins()
                    .bor_imm_u(hi, i64::from(wsite.min(0xFFFF)) << 16);
                let t0 = self.b.ins().bor(t, me0);
                let wtags: Vec<Value> = (0..sh.len())
                    .map(|k| self.b.ins().iadd_imm_s(t0, k as i64))
                    .collect();
                (0, wtags)
            }
            None => (if write { 0 } else { 8 }, tags),
        };
        for (&p, &tk) in sh.iter().zip(&tags) {
            self.b.ins().store(fl, tk, p, slot);
        }
        self.b.ins().jump(go, &same_ok);
        if for_write {
            self.b.seal_block(kept_b);
            self.b.switch_to_block(kept_b);
            self.cells_branch(cells_at, false, (each, &[]), (go, &same_no));
        }
        let kept = kept_b;
        if read {
            // A read whose read tags say so already (this work-item's,
            // several work-items' of this epoch, several groups'): its
            // write tags tested alone, and no store (`read_tag_keeps`).
            self.b.seal_block(kept);
            self.b.switch_to_block(kept);
            let read_tags = self.b.create_block();
            self.cells_branch(cells_at, false, (each, &[]), (read_tags, &[]));
            self.b.seal_block(read_tags);
            self.b.switch_to_block(read_tags);
            let many = self.b.ins().load(types::I64, fl, cache, at + 40);
            let mut keep = self.b.ins().iconst(types::I8, 1);
            for (&p, &tk) in sh.iter().zip(&tags) {
                let r = self.b.ins().load(types::I64, fl, p, 8);
                let k = self.read_tag_keeps(r, tk, serial, many);
                keep = self.b.ins().band(keep, k);
            }
            self.b.ins().brif(keep, go, &same, each, &[]);
        }
        self.b.seal_block(each);
        self.b.switch_to_block(each);
        self.b.set_cold_block(each);
        let item = self.item;
        let zero = self.b.ins().iconst(types::I64, 0);
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let mut out = Vec::with_capacity(addrs.len());
        for (k, &a) in addrs.iter().enumerate() {
            let bits = match values {
                Some(v) => self.value_bits(v[k]),
                None => zero,
            };
            let me = self.b.ins().iadd_imm_s(me0, k as i64);
            let r = self.check_access_slow([item, a, site_v, bits, me, zero]);
            if let (true, Some(v)) = (write, values) {
                // The lanes run in order: the next lane's test must find
                // this lane's value there (a write of the value already in
                // memory is no race without `races-strict`), as it would
                // one work-item at a time. The caller stores it again.
                self.b.ins().store(super::value::flags(), v[k], r, 0);
            }
            out.push(r.into());
        }
        let out = with(&out, merge.map(|m| m.2));
        self.b.ins().jump(go, &out);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
        let params = self.b.block_params(go).to_vec();
        Some(match merge {
            Some((wsite, ..)) => {
                let ok = params[addrs.len()];
                self.kept_tracked = Some((ok, wsite));
                (params[..addrs.len()].to_vec(), Some(ok))
            }
            None => (params, None),
        })
    }

    /// The fast path and the slow call for one site of `kind` at `a`.
    fn checked_site(&mut self, a: Value, size: u64, kind: SiteKind, value: Option<Value>) -> Value {
        let site = self.site(kind, size, 0, value.is_some());
        let (bits, bits2) = match value {
            Some(v) if self.b.func.dfg.value_type(v).is_vector() => {
                let w = self.b.ins().bitcast(
                    types::I64X2,
                    cranelift_codegen::ir::MemFlagsData::new()
                        .with_endianness(cranelift_codegen::ir::Endianness::Little),
                    v,
                );
                (
                    self.b.ins().extractlane(w, 0),
                    self.b.ins().extractlane(w, 1),
                )
            }
            Some(v) => (self.value_bits(v), self.b.ins().iconst(types::I64, 0)),
            None => {
                let z = self.b.ins().iconst(types::I64, 0);
                (z, z)
            }
        };
        let item = self.item;
        let (group, cache) = self.check_cache();
        let at = (site as i64 * ENTRY) as i32;
        let slow = self.b.create_block();
        let go = self.b.create_block();
        self.b.append_block_param(go, types::I64);
        if kind == SiteKind::Read && self.local_read_only && self.in_named_variable(a, size) {
            self.full_first(a, group, cache, at, go);
        }
        let kept = match self.kept_ok {
            Some((ka, ksize, ok))
                if kind == SiteKind::Write
                    && ka == a
                    && ksize == size
                    && !self.pcx.check.tracks() =>
            {
                Some(ok)
            }
            _ => None,
        };
        let ok = match kept {
            // The write of a compound assignment whose read found its
            // address inside the object: inside too.
            Some(ok) => ok,
            None => {
                let fl = super::value::flags();
                let lo = self.b.ins().load(types::I64, fl, cache, at);
                let span = self.b.ins().load(types::I64, fl, cache, at + 8);
                let off = self.b.ins().isub(a, lo);
                self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, off, span)
            }
        };
        if kind == SiteKind::Read && self.keep_read == Some(a) {
            self.kept_ok = Some((a, size, ok));
        }
        if self.pcx.check.tracks() {
            let inside = self.b.create_block();
            self.b.ins().brif(ok, inside, &[], slow, &[]);
            self.b.seal_block(inside);
            self.b.switch_to_block(inside);
            self.shadow_fast_path(a, size, kind, site, group, cache, at, go, slow);
        } else {
            self.b.ins().brif(ok, go, &[a.into()], slow, &[]);
        }
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let me = self.current_me();
        let r = self.check_access_slow([item, a, site_v, bits, me, bits2]);
        self.b.ins().jump(go, &[r.into()]);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
        self.b.block_params(go)[0]
    }

    /// `races`/`uninit`, inside the object the site's cache names: an
    /// unfollowed object (delta 0) goes on; a followed one has its shadow
    /// cells read and updated inline when the access is whole granules
    /// (4, 8, 12 or 16 aligned bytes) and the cells show nothing to look at
    /// (`runtime/check.rs`, `cell_access`, is the full rule: this is its
    /// common cases); anything else takes the slow path. Ends the block.
    #[allow(clippy::too_many_arguments)]
    fn shadow_fast_path(
        &mut self,
        a: Value,
        size: u64,
        kind: SiteKind,
        site: u32,
        group: Value,
        cache: Value,
        at: i32,
        go: cranelift_codegen::ir::Block,
        slow: cranelift_codegen::ir::Block,
    ) {
        let fl = super::value::flags();
        let delta = self.b.ins().load(types::I64, fl, cache, at + 16);
        let inline = size.is_multiple_of(4)
            && size <= 16
            && matches!(kind, SiteKind::Read | SiteKind::Write | SiteKind::Atomic);
        if !inline {
            self.b.ins().brif(delta, slow, &[], go, &[a.into()]);
            return;
        }
        let followed = self.b.create_block();
        self.b.ins().brif(delta, followed, &[], go, &[a.into()]);
        self.b.seal_block(followed);
        self.b.switch_to_block(followed);
        if kind == SiteKind::Read && self.local_read_only {
            self.full_read(a, site, group, cache, at, go);
        }
        let aligned = self.b.create_block();
        let low = self.b.ins().band_imm_u(a, 3);
        self.b.ins().brif(low, slow, &[], aligned, &[]);
        self.b.seal_block(aligned);
        self.b.switch_to_block(aligned);
        let sh = self.b.ins().ishl_imm_u(a, 2);
        let sh = self.b.ins().iadd(sh, delta);
        let (serial, base) = self.serial_and_base(group);
        let item = self.item;
        let me = self.current_me();
        let _ = item;
        let xr = self.b.ins().load(types::I64, fl, cache, at + 32);
        let hi = self.b.ins().ishl_imm_u(serial, 32);
        let t = self
            .b
            .ins()
            .bor_imm_u(hi, i64::from(site.min(0xFFFF)) << 16);
        // A uniform access of the lanes passes `me0 << 16 | SEVERAL`.
        let me_low = self.b.ins().band_imm_u(me, 0xFFFF);
        let t = self.b.ins().bor(t, me_low);
        let lanes = self.pcx.sites.borrow()[site as usize].lanes;
        let for_write = kind == SiteKind::Read && self.reading_for_write;
        if size >= 8 && kind != SiteKind::Atomic {
            // Several granules: their serials tested together first.
            let xw = self.b.ins().load(types::I64, fl, cache, at + 24);
            let n = (size / 4) as i32;
            let look = self.serials_look(sh, n, !for_write, [xw, xr, base, serial]);
            let simple = self.b.create_block();
            let each = self.b.create_block();
            self.b.ins().brif(look, each, &[], simple, &[]);
            self.b.seal_block(simple);
            self.b.switch_to_block(simple);
            if !for_write {
                // The write's tag, or the read's over an older one (as
                // `read_tag` makes it).
                let slot = if kind == SiteKind::Write { 0 } else { 8 };
                for k in 0..n {
                    let tk = if lanes && k > 0 {
                        self.b.ins().iadd_imm_s(t, i64::from(k))
                    } else {
                        t
                    };
                    self.b.ins().store(fl, tk, sh, 16 * k + slot);
                }
            }
            self.b.ins().jump(go, &[a.into()]);
            self.b.seal_block(each);
            self.b.switch_to_block(each);
        }
        if kind == SiteKind::Read && !for_write {
            self.quick_read(sh, size, t, lanes, [xr, base, serial], go, a);
        }
        // Loaded after the one-branch read, which needs neither.
        let xw = self.b.ins().load(types::I64, fl, cache, at + 24);
        let many = self.b.ins().load(types::I64, fl, cache, at + 40);
        for k in 0..(size / 4) as i32 {
            // A lanes access: granule k is lane k's work-item's.
            let t = if lanes && k > 0 {
                self.b.ins().iadd_imm_s(t, i64::from(k))
            } else {
                t
            };
            let w = self.b.ins().load(types::I64, fl, sh, 16 * k);
            let next = self.b.create_block();
            if kind == SiteKind::Atomic {
                // Local memory written by an atomic counts as written; one
                // the group wrote before needs no mark.
                let ws = self.b.ins().ushr_imm_u(w, 32);
                let ok = self
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedGreaterThanOrEqual, ws, base);
                self.b.ins().brif(ok, next, &[], slow, &[]);
            } else if kind == SiteKind::Write {
                let r = self.b.ins().load(types::I64, fl, sh, 16 * k + 8);
                // Most writes find both tags from before (an earlier
                // command, or for local memory an earlier group): two
                // compares; the rest take the whole test.
                let ws = self.b.ins().ushr_imm_u(w, 32);
                let rs = self.b.ins().ushr_imm_u(r, 32);
                let w_old = self.b.ins().icmp(IntCC::UnsignedLessThan, ws, xw);
                let r_old = self.b.ins().icmp(IntCC::UnsignedLessThan, rs, xr);
                let old = self.b.ins().band(w_old, r_old);
                let store = self.b.create_block();
                let full = self.b.create_block();
                self.b.ins().brif(old, store, &[], full, &[]);
                self.b.seal_block(full);
                self.b.switch_to_block(full);
                let ok_w = self.tag_ok(w, t, xw, base, serial);
                let ok_r = self.tag_ok(r, t, xr, base, serial);
                let ok = self.b.ins().band(ok_w, ok_r);
                self.b.ins().brif(ok, store, &[], slow, &[]);
                self.b.seal_block(store);
                self.b.switch_to_block(store);
                self.b.ins().store(fl, t, sh, 16 * k);
                self.b.ins().jump(next, &[]);
            } else if for_write {
                // The write that follows tests the read tag.
                let ok_w = self.tag_ok(w, t, xw, base, serial);
                self.b.ins().brif(ok_w, next, &[], slow, &[]);
            } else {
                let ok_w = self.tag_ok(w, t, xw, base, serial);
                let r = self.b.ins().load(types::I64, fl, sh, 16 * k + 8);
                let read = self.b.create_block();
                self.b.ins().brif(ok_w, read, &[], slow, &[]);
                self.b.seal_block(read);
                self.b.switch_to_block(read);
                // Most reads find the read tag saying so already.
                let keep = self.read_tag_keeps(r, t, serial, many);
                let update = self.b.create_block();
                self.b.ins().brif(keep, next, &[], update, &[]);
                self.b.seal_block(update);
                self.b.switch_to_block(update);
                let r2 = self.read_tag(r, t, xr, base, serial, many);
                self.b.ins().store(fl, r2, sh, 16 * k + 8);
                self.b.ins().jump(next, &[]);
            }
            self.b.seal_block(next);
            self.b.switch_to_block(next);
        }
        self.b.ins().jump(go, &[a.into()]);
    }

    /// Whether an access of `size` bytes at `a` is an element of an array
    /// variable whose subscripts were tested (`FunctionCx::in_object`,
    /// filled under `bounds`): its site touches that one variable only, so
    /// the site's cache entry names it once filled.
    fn in_named_variable(&self, a: Value, size: u64) -> bool {
        self.in_object.get(&a).is_some_and(|&n| size <= n)
            || (self.site_lanes && self.in_object_lanes.contains(&a))
    }

    /// `full_read`'s one compare made first, before the cache entry's
    /// bounds and shadow tests, for a read of a named variable's element
    /// (`in_named_variable`) in a piece alone in its interval that writes no
    /// local memory (a tiled SGEMM's inner product loop): the site's entry
    /// can name no other object, and a `full` equal to this group's first
    /// serial says that object is local memory this group wrote whole
    /// (`cranecl_check_full`; a refilled entry starts at 0). Goes on in a
    /// new block otherwise.
    fn full_first(
        &mut self,
        a: Value,
        group: Value,
        cache: Value,
        at: i32,
        go: cranelift_codegen::ir::Block,
    ) {
        let full = self
            .b
            .ins()
            .load(types::I64, super::value::flags(), cache, at + 56);
        let (_, base) = self.serial_and_base(group);
        let is_full = self.b.ins().icmp(IntCC::Equal, full, base);
        let other = self.b.create_block();
        self.b.ins().brif(is_full, go, &[a.into()], other, &[]);
        self.b.seal_block(other);
        self.b.switch_to_block(other);
    }

    /// A read in a piece alone in its barrier interval that writes no local
    /// memory (`FunctionCx::local_read_only`): when the site's object is
    /// local memory this group wrote whole (its cache entry's `full` is the
    /// group's first serial), nothing to look at (`cranecl_check_full`);
    /// when not known yet, asks the runtime once per group. Continues in a
    /// new block (the ordinary read) otherwise.
    fn full_read(
        &mut self,
        a: Value,
        site: u32,
        group: Value,
        cache: Value,
        at: i32,
        go: cranelift_codegen::ir::Block,
    ) {
        let fl = super::value::flags();
        let full = self.b.ins().load(types::I64, fl, cache, at + 56);
        let (_, base) = self.serial_and_base(group);
        let is_full = self.b.ins().icmp(IntCC::Equal, full, base);
        let known = self.b.create_block();
        self.b.ins().brif(is_full, go, &[a.into()], known, &[]);
        self.b.seal_block(known);
        self.b.switch_to_block(known);
        let x = self.b.ins().bxor(full, base);
        let asked = self
            .b
            .ins()
            .icmp_imm_u(IntCC::Equal, x, check::NOT_FULL as i64);
        let ask = self.b.create_block();
        let ordinary = self.b.create_block();
        self.b.ins().brif(asked, ordinary, &[], ask, &[]);
        self.b.seal_block(ask);
        self.b.switch_to_block(ask);
        self.b.set_cold_block(ask);
        let item = self.item;
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        self.call_slow(
            check::cranecl_check_full as *const u8,
            PRESERVING_FULL,
            &[types::I64, types::I32],
            &[item, site_v],
        );
        self.b.ins().jump(ordinary, &[]);
        self.b.seal_block(ordinary);
        self.b.switch_to_block(ordinary);
    }

    /// A read's common case, all its granules at once: each written by
    /// this group before its last barrier (local memory a group fills, then
    /// reads: tiles, scratch), and read already as this read would leave it
    /// (by this work-item or by several, in this epoch: one branch to `go`)
    /// or last read before this epoch (its read tag becomes this read's
    /// tag, as `read_tag` makes it). Otherwise continues in a new block (the
    /// granule-by-granule test). `lims`: the site's read threshold, the
    /// group's first serial and its current one.
    #[allow(clippy::too_many_arguments)]
    fn quick_read(
        &mut self,
        sh: Value,
        size: u64,
        t: Value,
        lanes: bool,
        lims: [Value; 3],
        go: cranelift_codegen::ir::Block,
        a: Value,
    ) {
        let [xr, base, serial] = lims;
        let fl = super::value::flags();
        let m = 0xFFFF_FFFF_0000_FFFFu64 as i64;
        let width = self.b.ins().isub(serial, base);
        let now = self.b.ins().ishl_imm_u(serial, 32);
        let several = self.b.ins().bor_imm_u(now, 0xFFFF);
        let mut ok_all: Option<Value> = None;
        let mut keep_all: Option<Value> = None;
        let mut news = Vec::new();
        for k in 0..(size / 4) as i32 {
            let tk = if lanes && k > 0 {
                self.b.ins().iadd_imm_s(t, i64::from(k))
            } else {
                t
            };
            let w = self.b.ins().load(types::I64, fl, sh, 16 * k);
            let r = self.b.ins().load(types::I64, fl, sh, 16 * k + 8);
            let ws = self.b.ins().ushr_imm_u(w, 32);
            let d = self.b.ins().isub(ws, base);
            let earlier = self.b.ins().icmp(IntCC::UnsignedLessThan, d, width);
            let rm = self.b.ins().band_imm_u(r, m);
            let tm = self.b.ins().band_imm_u(tk, m);
            let mine = self.b.ins().icmp(IntCC::Equal, rm, tm);
            let sev = self.b.ins().icmp(IntCC::Equal, rm, several);
            let keep = self.b.ins().bor(mine, sev);
            let rs = self.b.ins().ushr_imm_u(r, 32);
            let below = self.b.ins().icmp(IntCC::UnsignedLessThan, rs, xr);
            let dr = self.b.ins().isub(rs, base);
            let group_before = self.b.ins().icmp(IntCC::UnsignedLessThan, dr, width);
            let older = self.b.ins().bor(below, group_before);
            let fine = self.b.ins().bor(keep, older);
            let ok = self.b.ins().band(earlier, fine);
            ok_all = Some(match ok_all {
                Some(x) => self.b.ins().band(x, ok),
                None => ok,
            });
            keep_all = Some(match keep_all {
                Some(x) => self.b.ins().band(x, keep),
                None => keep,
            });
            news.push(self.b.ins().select(keep, r, tk));
        }
        let (Some(ok_all), Some(keep_all)) = (ok_all, keep_all) else {
            return;
        };
        let quick = self.b.create_block();
        let update = self.b.create_block();
        let full = self.b.create_block();
        self.b.ins().brif(ok_all, quick, &[], full, &[]);
        self.b.seal_block(quick);
        self.b.switch_to_block(quick);
        self.b.ins().brif(keep_all, go, &[a.into()], update, &[]);
        self.b.seal_block(update);
        self.b.switch_to_block(update);
        for (k, r2) in news.into_iter().enumerate() {
            self.b.ins().store(fl, r2, sh, 16 * k as i32 + 8);
        }
        self.b.ins().jump(go, &[a.into()]);
        self.b.seal_block(full);
        self.b.switch_to_block(full);
    }

    /// Whether any cell of the `n` granules at `sh` (2 to 4) needs a look
    /// (an `i8`, nonzero if so), by the tags' serials alone, four tags per
    /// SIMD compare: none does when each write tag (and each read tag when
    /// `read_tags`) is below its threshold (`lims`: the site's write and
    /// read thresholds, the group's first serial and its current one) or
    /// this group's before its last barrier. That is `tag_ok` without its
    /// this-work-item case (the granule-by-granule test after it still
    /// finds that one): a read after the barrier that follows the write, a
    /// write over older tags.
    fn serials_look(&mut self, sh: Value, n: i32, read_tags: bool, lims: [Value; 4]) -> Value {
        let at: Vec<_> = (0..n).map(|k| (sh, 16 * k)).collect();
        let [xw, xr, base, serial] = lims;
        let (_, look) = self.cells_serials(&at, Lim::Scalars(xw, xr), read_tags, base, serial);
        look
    }

    /// The site's thresholds at `cache + at` (a cache entry's `xw` and
    /// `xr`, 8 bytes each, serials below 2^32) as the `I32X4` `(xw, xr,
    /// xw, xr)` that `cells_serials` compares two cells' tags with: one load
    /// and one shuffle.
    fn lim_vector(&mut self, cache: Value, at: i32) -> Value {
        let fl = super::value::flags();
        let v = self.b.ins().load(types::I8X16, fl, cache, at);
        let bytes: Vec<u8> = [0u8, 8, 0, 8].iter().flat_map(|&b| b..b + 4).collect();
        let mask = self.shuffle_mask(bytes);
        let v = self.b.ins().shuffle(v, v, mask);
        let le = cranelift_codegen::ir::MemFlagsData::new()
            .with_endianness(cranelift_codegen::ir::Endianness::Little);
        self.b.ins().bitcast(types::I32X4, le, v)
    }

    /// The lanes' cells `at` (their work-items `mes`, as `me_pairs` makes
    /// them): to `look` when some tag needs a look, else to `ok`, as
    /// `serials_look` tests them, a tag of that work-item in this epoch
    /// (`same_item`) needing no look either. That case is tested only when
    /// the serials alone send a tag to a look (a tag of another epoch or
    /// group is the usual case): two branches, no join.
    #[allow(clippy::type_complexity)]
    fn cells_branch(
        &mut self,
        (at, mes, lim, base, serial): (&[(Value, i32)], [Value; 2], Lim, Value, Value),
        read_tags: bool,
        look: (cranelift_codegen::ir::Block, &[BlockArg]),
        ok: (cranelift_codegen::ir::Block, &[BlockArg]),
    ) {
        let (pairs, first) = self.cells_serials(at, lim, read_tags, base, serial);
        let refine = self.b.create_block();
        self.b.ins().brif(first, refine, &[], ok.0, ok.1);
        self.b.seal_block(refine);
        self.b.switch_to_block(refine);
        let le = cranelift_codegen::ir::MemFlagsData::new()
            .with_endianness(cranelift_codegen::ir::Endianness::Little);
        let lows = self.cell_halves(0);
        let serial32 = self.b.ins().ireduce(types::I32, serial);
        let now = self.b.ins().splat(types::I32X4, serial32);
        let low16 = self.b.ins().iconst(types::I32, 0xFFFF);
        let low16 = self.b.ins().splat(types::I32X4, low16);
        let looks: Vec<Value> = pairs
            .iter()
            .map(|&(a, b, k, v, look)| {
                let w = self.b.ins().shuffle(a, b, lows);
                let w = self.b.ins().bitcast(types::I32X4, le, w);
                let w = self.b.ins().band(w, low16);
                let same = self.b.ins().icmp(IntCC::Equal, w, mes[k / 2]);
                let now_ = self.b.ins().icmp(IntCC::Equal, v, now);
                let mine = self.b.ins().band(same, now_);
                self.b.ins().band_not(look, mine)
            })
            .collect();
        let any = self.vany_of(&looks);
        self.b.ins().brif(any, look.0, look.1, ok.0, ok.1);
    }

    /// Whether any of the `I32X4` masks `looks` has a lane set (an `i8`).
    fn vany_of(&mut self, looks: &[Value]) -> Value {
        let mut look = looks[0];
        for &more in &looks[1..] {
            look = self.b.ins().bor(look, more);
        }
        self.b.ins().vany_true(look)
    }

    /// `serials_look` for the cells at `at` (their site's thresholds as
    /// `lim` gives them): the cells loaded, per pair of them (the two cells, the
    /// first's index, their tags' serials, which of those need a look by
    /// the serials alone), and whether any does (an `i8`).
    #[allow(clippy::type_complexity)]
    fn cells_serials(
        &mut self,
        at: &[(Value, i32)],
        lim: Lim,
        read_tags: bool,
        base: Value,
        serial: Value,
    ) -> (Vec<(Value, Value, usize, Value, Value)>, Value) {
        let fl = super::value::flags();
        let cells: Vec<Value> = at
            .iter()
            .map(|&(p, off)| self.b.ins().load(types::I8X16, fl, p, off))
            .collect();
        // Lanes (w, r) of two cells: their tags' serials (high halves).
        let mask = self.cell_halves(4);
        let narrow = |fx: &mut Self, v: Value| fx.b.ins().ireduce(types::I32, v);
        let (base32, serial32) = (narrow(self, base), narrow(self, serial));
        let lim = match lim {
            Lim::Vector(v) if read_tags => v,
            Lim::Vector(v) => {
                // Read tags never need a look: their threshold all ones.
                let bytes: Vec<u8> = [0u32, u32::MAX, 0, u32::MAX]
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect();
                let c = self
                    .b
                    .func
                    .dfg
                    .constants
                    .insert(cranelift_codegen::ir::ConstantData::from(bytes));
                let ones = self.b.ins().vconst(types::I32X4, c);
                self.b.ins().bor(v, ones)
            }
            Lim::Scalars(xw, xr) => {
                let (xw, xr) = (narrow(self, xw), narrow(self, xr));
                let all = self.b.ins().iconst(types::I32, -1);
                let lr = if read_tags { xr } else { all };
                let lim = self.b.ins().splat(types::I32X4, xw);
                let lim = self.b.ins().insertlane(lim, lr, 1);
                self.b.ins().insertlane(lim, lr, 3)
            }
        };
        let base_v = self.b.ins().splat(types::I32X4, base32);
        let width = self.b.ins().isub(serial32, base32);
        let width = self.b.ins().splat(types::I32X4, width);
        let le = cranelift_codegen::ir::MemFlagsData::new()
            .with_endianness(cranelift_codegen::ir::Endianness::Little);
        // `x >= y` (unsigned) as `umax(x, y) == x`: two instructions.
        let at_least = |fx: &mut Self, x: Value, y: Value| {
            let m = fx.b.ins().umax(x, y);
            fx.b.ins().icmp(IntCC::Equal, m, x)
        };
        // Per pair of cells: their serials and which of their tags need a
        // look by the serials alone.
        let pairs: Vec<_> = (0..cells.len())
            .step_by(2)
            .map(|k| {
                let j = (k + 1).min(cells.len() - 1);
                let (a, b) = (cells[k], cells[j]);
                let v = self.b.ins().shuffle(a, b, mask);
                let v = self.b.ins().bitcast(types::I32X4, le, v);
                let not_below = at_least(self, v, lim);
                let d = self.b.ins().isub(v, base_v);
                let not_group = at_least(self, d, width);
                (a, b, k, v, self.b.ins().band(not_below, not_group))
            })
            .collect();
        let looks: Vec<Value> = pairs.iter().map(|p| p.4).collect();
        let first = self.vany_of(&looks);
        (pairs, first)
    }

    /// The shuffle that takes the write and read tags' low (`at` 0) or high
    /// (`at` 4) 32-bit halves of two 16-byte shadow cells into one vector:
    /// (w, r) of the first cell, then of the second.
    fn cell_halves(&mut self, at: u8) -> cranelift_codegen::ir::Immediate {
        let bytes: Vec<u8> = [0u8, 8, 16, 24]
            .iter()
            .flat_map(|&b| (b + at)..(b + at + 4))
            .collect();
        self.shuffle_mask(bytes)
    }

    /// A `shuffle`'s byte selection (0-15 the first operand's, 16-31 the
    /// second's).
    pub(crate) fn shuffle_mask(&mut self, bytes: Vec<u8>) -> cranelift_codegen::ir::Immediate {
        self.b
            .func
            .dfg
            .immediates
            .push(cranelift_codegen::ir::ConstantData::from(bytes))
    }

    /// The step's four work-items (`me0` + k) as two `I32X4` vectors: lanes
    /// 0 and 1 each twice, then lanes 2 and 3 (one per tag half of two
    /// shadow cells, as `cells_branch` compares them).
    pub(crate) fn me_pairs(&mut self, me0: Value) -> [Value; 2] {
        let me = self.b.ins().ireduce(types::I32, me0);
        let me = self.b.ins().splat(types::I32X4, me);
        [[0u32, 0, 1, 1], [2, 2, 3, 3]].map(|ks| {
            let bytes: Vec<u8> = ks.iter().flat_map(|k| k.to_le_bytes()).collect();
            let c = self
                .b
                .func
                .dfg
                .constants
                .insert(cranelift_codegen::ir::ConstantData::from(bytes));
            let c = self.b.ins().vconst(types::I32X4, c);
            self.b.ins().iadd(me, c)
        })
    }

    /// The work-item's local linear id + 1 for the shadow (`me0 << 16 |
    /// 0xFFFF` for an access the lanes make once for a step's work-items).
    /// Checked `bounds` in the lanes (`lanes_rel`): lane `k` of the step,
    /// for reports (`runtime::check::LANE_OF_ITEM`).
    pub(crate) fn lane_me(&mut self, k: usize) -> Value {
        let me = check::LANE_OF_ITEM | k as u64;
        self.b.ins().iconst(types::I64, me as i64)
    }

    pub(crate) fn current_me(&mut self) -> Value {
        match self.check_me {
            Some(me) => me,
            None => {
                let item = self.item;
                self.b.ins().load(
                    types::I64,
                    super::value::flags(),
                    item,
                    offsets::ITEM_CHECK_ME,
                )
            }
        }
    }

    /// Whether tag `x` needs no look from the access tagged `t`: below the
    /// threshold `lim`, or this group's before its last barrier, or this
    /// work-item's since then.
    fn tag_ok(&mut self, x: Value, t: Value, lim: Value, base: Value, serial: Value) -> Value {
        let xs = self.b.ins().ushr_imm_u(x, 32);
        let below = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, lim);
        let from_base = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, xs, base);
        let earlier = self.b.ins().icmp(IntCC::UnsignedLessThan, xs, serial);
        let mine = self.same_item(x, t);
        let now = self.b.ins().bor(earlier, mine);
        let group = self.b.ins().band(from_base, now);
        self.b.ins().bor(below, group)
    }

    /// Whether tags `x` and `t` are one work-item's in one epoch (the site
    /// bits aside).
    fn same_item(&mut self, x: Value, t: Value) -> Value {
        let d = self.b.ins().bxor(x, t);
        let d = self.b.ins().band_imm_u(d, 0xFFFF_FFFF_0000_FFFFu64 as i64);
        self.b.ins().icmp_imm_u(IntCC::Equal, d, 0)
    }

    /// Whether read tag `r` already says what a read tagged `t` would make
    /// it say: this work-item, several of this epoch, or several groups.
    fn read_tag_keeps(&mut self, r: Value, t: Value, serial: Value, many: Value) -> Value {
        let mine = self.same_item(r, t);
        let now = self.b.ins().ishl_imm_u(serial, 32);
        let several = self.b.ins().bor_imm_u(now, 0xFFFF);
        let masked = self.b.ins().band_imm_u(r, 0xFFFF_FFFF_0000_FFFFu64 as i64);
        let several_now = self.b.ins().icmp(IntCC::Equal, masked, several);
        let is_many = self.b.ins().icmp(IntCC::Equal, r, many);
        let keep = self.b.ins().bor(mine, several_now);
        self.b.ins().bor(keep, is_many)
    }

    /// The read tag after a read tagged `t` of a cell whose read tag `r`
    /// does not say so already (its write tag needed no look): several of
    /// this epoch when another work-item read in it, `t` over an older tag,
    /// else (another group's) several groups (`many`).
    fn read_tag(
        &mut self,
        r: Value,
        t: Value,
        xr: Value,
        base: Value,
        serial: Value,
        many: Value,
    ) -> Value {
        let rs = self.b.ins().ushr_imm_u(r, 32);
        let same_epoch = self.b.ins().icmp(IntCC::Equal, rs, serial);
        let below = self.b.ins().icmp(IntCC::UnsignedLessThan, rs, xr);
        let from_base = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, rs, base);
        let earlier = self.b.ins().icmp(IntCC::UnsignedLessThan, rs, serial);
        let older = self.b.ins().band(from_base, earlier);
        let older = self.b.ins().bor(below, older);
        let r_several = self.b.ins().bor_imm_u(r, 0xFFFF);
        let v = self.b.ins().select(older, t, many);
        self.b.ins().select(same_epoch, r_several, v)
    }

    /// The slow path of a checked access: `cranecl_check_access(item,
    /// addr, site, value bits, work-item, high value bits)`, the address to
    /// use.
    fn check_access_slow(&mut self, args: [Value; 6]) -> Value {
        self.call_slow(
            check::cranecl_check_access as *const u8,
            PRESERVING_ACCESS,
            &[
                types::I64,
                types::I64,
                types::I32,
                types::I64,
                types::I64,
                types::I64,
            ],
            &args,
        )[0]
    }

    /// A slow path's call (`f`, returning an `i64`): through its
    /// register-preserving trampoline where there is one.
    fn call_slow(
        &mut self,
        f: *const u8,
        preserving: Option<*const u8>,
        params: &[types::Type],
        args: &[Value],
    ) -> Vec<Value> {
        match preserving {
            Some(p) => {
                self.call_host_preserving(p, params, args);
                let item = self.item;
                vec![self.b.ins().load(
                    types::I64,
                    super::value::flags(),
                    item,
                    offsets::ITEM_CHECK_RET,
                )]
            }
            None => self.call_host(f, params, &[types::I64], args),
        }
    }

    /// The address an atomic operation on `size` bytes at `p` must use: a
    /// bounds check only (atomics take part in no race or uninit tracking).
    pub(crate) fn checked_atomic(&mut self, p: Value, size: u64) -> Value {
        if !self.checks_memory() || self.proven_inside(p, 0, size) {
            return p;
        }
        self.checked_site(p, size, SiteKind::Atomic, None)
    }

    /// `v`'s bits zero-extended to 64 (integers, floats, pointers).
    fn value_bits(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        let int = match t {
            types::F32 => {
                self.b
                    .ins()
                    .bitcast(types::I32, cranelift_codegen::ir::MemFlagsData::new(), v)
            }
            types::F64 => {
                self.b
                    .ins()
                    .bitcast(types::I64, cranelift_codegen::ir::MemFlagsData::new(), v)
            }
            _ => v,
        };
        let it = self.b.func.dfg.value_type(int);
        if it == types::I64 {
            int
        } else if it.is_int() {
            self.b.ins().uextend(types::I64, int)
        } else {
            self.b.ins().iconst(types::I64, 0)
        }
    }

    /// `index` (an `i64`) checked against an array of `len` elements: the
    /// index itself when inside, otherwise 0 after a report.
    pub(crate) fn checked_index(&mut self, index: Value, len: u64) -> Value {
        let site = self.site(SiteKind::Index, 0, len, false);
        let ok = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, index, len as i64);
        // The runtime redirects a bad index to element 0: the index to use
        // is this select, a pure value (Cranelift hoists it out of a loop
        // where the index does not change), not the slow path's answer.
        let zero = self.b.ins().iconst(types::I64, 0);
        let safe = self.b.ins().select(ok, index, zero);
        let slow = self.b.create_block();
        let go = self.b.create_block();
        self.b.ins().brif(ok, go, &[], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let item = self.item;
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let me = self.current_me();
        self.call_slow(
            check::cranecl_check_index as *const u8,
            PRESERVING_INDEX,
            &[types::I64, types::I64, types::I32, types::I64],
            &[item, index, site_v, me],
        );
        self.b.ins().jump(go, &[]);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
        safe
    }

    /// Checked barriers: record this barrier's site in the item before it waits.
    pub(crate) fn mark_barrier_site(&mut self) {
        if !self.pcx.check.barriers {
            return;
        }
        let site = self.site(SiteKind::Barrier, 0, 0, false);
        let v = self.b.ins().iconst(types::I64, i64::from(site));
        let item = self.item;
        self.b
            .ins()
            .store(super::value::flags(), v, item, offsets::ITEM_BARRIER_SITE);
    }
}
