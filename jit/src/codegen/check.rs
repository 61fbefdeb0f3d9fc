//! Checked mode in generated code: the sites and their inline fast paths.
//!
//! A site ([`runtime::check::Site`]) is made for every checked load, store,
//! array subscript and barrier, with the location of the expression being
//! compiled (`FunctionCx::cur_span`) rendered as the build log renders it.
//! A load or store of `size` bytes at `a` becomes
//!
//! ```text
//!   cache = item->group->check_cache
//!   if (a >= cache[site].lo && a + size <= cache[site].hi) goto go(a)
//!   go(cranecl_check_access(item, a, site, value))
//! ```
//!
//! so an access inside the object this site last touched costs two loads and
//! two compares; memory that `races`/`uninit` follow is never cached, so its
//! accesses always call the runtime. A
//! subscript `a[i]` of an array object of `N` elements compares `i` (as
//! unsigned) with `N` and calls `cranecl_check_index` when it is outside,
//! which reports and answers 0. See `runtime/check.rs` for the slow paths.

use super::fx::FunctionCx;
use crate::runtime::check::{self, Site, SiteKind};
use crate::runtime::offsets;
use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};

impl FunctionCx<'_, '_> {
    /// Whether loads and stores are checked.
    pub(crate) fn checks_memory(&self) -> bool {
        let c = self.pcx.check;
        c.bounds || c.tracks()
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
        if !self.checks_memory() || size == 0 {
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

    /// The fast path and the slow call for one site of `kind` at `a`.
    fn checked_site(&mut self, a: Value, size: u64, kind: SiteKind, value: Option<Value>) -> Value {
        let site = self.site(kind, size, 0, value.is_some());
        let bits = match value {
            Some(v) => self.value_bits(v),
            None => self.b.ins().iconst(types::I64, 0),
        };
        let item = self.item;
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let f = check::cranecl_check_access as *const u8;
        let group = self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            item,
            offsets::ITEM_GROUP,
        );
        let cache = self.b.ins().load(
            types::I64,
            super::value::group_flags(),
            group,
            offsets::GROUP_CHECK_CACHE,
        );
        let at = (site as i64 * 16) as i32;
        let lo = self
            .b
            .ins()
            .load(types::I64, super::value::flags(), cache, at);
        let hi = self
            .b
            .ins()
            .load(types::I64, super::value::flags(), cache, at + 8);
        let end = self.b.ins().iadd_imm_s(a, size as i64);
        let c1 = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, a, lo);
        let c2 = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, hi);
        let c3 = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, end, a);
        let ok = self.b.ins().band(c1, c2);
        let ok = self.b.ins().band(ok, c3);
        let slow = self.b.create_block();
        let go = self.b.create_block();
        self.b.append_block_param(go, types::I64);
        self.b.ins().brif(ok, go, &[a.into()], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let r = self.call_host(
            f,
            &[types::I64, types::I64, types::I32, types::I64],
            &[types::I64],
            &[item, a, site_v, bits],
        );
        self.b.ins().jump(go, &[r[0].into()]);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
        self.b.block_params(go)[0]
    }

    /// The address an atomic operation on `size` bytes at `p` must use: a
    /// bounds check only (atomics take part in no race or uninit tracking).
    pub(crate) fn checked_atomic(&mut self, p: Value, size: u64) -> Value {
        if !self.checks_memory() {
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
        let slow = self.b.create_block();
        let go = self.b.create_block();
        self.b.append_block_param(go, types::I64);
        self.b.ins().brif(ok, go, &[index.into()], slow, &[]);
        self.b.seal_block(slow);
        self.b.switch_to_block(slow);
        self.b.set_cold_block(slow);
        let item = self.item;
        let site_v = self.b.ins().iconst(types::I32, i64::from(site));
        let f = check::cranecl_check_index as *const u8;
        let r = self.call_host(
            f,
            &[types::I64, types::I64, types::I32],
            &[types::I64],
            &[item, index, site_v],
        );
        self.b.ins().jump(go, &[r[0].into()]);
        self.b.seal_block(go);
        self.b.switch_to_block(go);
        self.b.block_params(go)[0]
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
