//! Checked mode (`CRANECL_CHECK`): what generated code calls when an access
//! needs a closer look, and the reports a launch collects.
//!
//! Compiled in checked mode (`CodegenOptions::check`), every load and store
//! has a *site*: a number naming its kind (read or write), its size and its
//! source location, rendered once at build time in the build log's format.
//! The fast path is inline: each site caches the bounds `[lo, hi)` of the
//! object it last touched in a per-thread table (`GroupState::check_cache`);
//! an access inside them goes on. Anything else calls
//! [`cranecl_check_access`], which finds the object holding the address
//! among the launch's objects (its buffer arguments with their own bounds —
//! a sub-buffer's, not its parent's —, the program-scope variables one by
//! one, the group's kernel-scope `local` variables and each `local`
//! argument, the work-item's private memory), fills the site's cache, and
//! when none holds the whole access reports it and redirects it to a
//! per-thread scratch block, so the bad write lands nowhere and the bad read
//! returns zero. A subscript of an array object (`a[i]` with `a` declared
//! `T a[N]`) is also checked against `N` ([`cranecl_check_index`]), which
//! is how overruns of private arrays and of one variable into the next are
//! caught.
//!
//! With `races` or `uninit` every access of local and global memory takes the
//! slow path, which keeps a shadow cell per byte: the last writer (work-item
//! and *epoch* — the number of barriers the group has passed) and the last
//! reader. Two work-items touching a byte in one epoch, one of them writing,
//! race (a write of the value already there does not count unless
//! `races-strict`); a read of local memory no work-item of the group wrote is
//! uninitialised, reported when that work-item then writes global memory
//! (so a value read and thrown away is not an error). Local memory is tracked per group, global memory per group
//! and between the groups of a launch (a byte written by one group and
//! touched by another races: groups of a launch are unordered). Atomics never
//! take this path, so they never race.
//!
//! With `barriers` every work-item records the site of the barrier it waits
//! at; after each round of the coroutine runtime all unfinished items must
//! wait at the same barrier, and either all or none have finished.
//!
//! A report names what happened, the object and the offset, the kernel, the
//! work-items, and the site (`<source>:LINE:COL`, the line and a caret);
//! reports of the same kind at the same site(s) are merged with a count, and
//! at most `CRANECL_MAX_ERRORS` (default 16) distinct ones are kept per
//! command. The API layer fails a command that produced any.

use super::{GroupState, ItemState};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The checks a context asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    pub bounds: bool,
    pub barriers: bool,
    pub races: bool,
    /// Same-value writes race too.
    pub races_strict: bool,
    pub uninit: bool,
    pub api: bool,
}

impl Checks {
    /// Parse a `CRANECL_CHECK` value: a comma list of `bounds`, `barriers`,
    /// `races`, `races-strict`, `uninit`, `api`, or `all` (every one but
    /// `races-strict`); empty or `none`: no check.
    pub fn parse(s: &str) -> Result<Checks, String> {
        let mut c = Checks::default();
        for word in s.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "all" => {
                    c = Checks {
                        bounds: true,
                        barriers: true,
                        races: true,
                        uninit: true,
                        api: true,
                        ..c
                    }
                }
                "none" | "0" => {}
                "bounds" => c.bounds = true,
                "barriers" => c.barriers = true,
                "races" => c.races = true,
                "races-strict" => {
                    c.races = true;
                    c.races_strict = true
                }
                "uninit" => c.uninit = true,
                "api" => c.api = true,
                other => {
                    return Err(format!(
                        "unknown check '{other}' (known: bounds, barriers, races, races-strict, uninit, api, all)"
                    ))
                }
            }
        }
        Ok(c)
    }

    /// The checks `CRANECL_CHECK` asks for; an unknown word is reported on
    /// stderr once and ignored.
    pub fn from_env() -> Checks {
        let Ok(v) = std::env::var("CRANECL_CHECK") else {
            return Checks::default();
        };
        Checks::parse(&v).unwrap_or_else(|e| {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| eprintln!("cranecl: CRANECL_CHECK: {e}"));
            let known = v
                .split(',')
                .filter(|w| Checks::parse(w).is_ok())
                .collect::<Vec<_>>()
                .join(",");
            Checks::parse(&known).unwrap_or_default()
        })
    }

    /// Whether any check changes the generated code.
    pub fn any_code(&self) -> bool {
        self.bounds || self.barriers || self.races || self.uninit
    }

    /// Whether accesses of local and global memory always take the slow path.
    pub fn tracks(&self) -> bool {
        self.races || self.uninit
    }
}

/// What a site does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SiteKind {
    Read,
    Write,
    /// `a[i]` of an array object of `len` elements.
    Index,
    Barrier,
    /// An atomic operation: checked for bounds, never tracked.
    Atomic,
}

/// One checked place of the program.
#[derive(Clone, Debug)]
pub struct Site {
    pub kind: SiteKind,
    /// Bytes accessed (reads and writes).
    pub size: u32,
    /// Array length (index sites).
    pub len: u64,
    /// The written value is passed to the slow path (scalar stores).
    pub value_known: bool,
    /// `<source>:LINE:COL`.
    pub location: String,
    /// The source line and a caret under the column.
    pub snippet: String,
    /// The source text of the expression (index sites: the array).
    pub text: String,
}

/// Address spaces, as reports name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Constant,
    Local,
    Private,
}

impl Space {
    fn as_str(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Constant => "constant",
            Space::Local => "local",
            Space::Private => "private",
        }
    }
}

/// An object a launch may touch: `[lo, hi)` (absolute for global and
/// constant objects, offsets into the local arena for local ones).
#[derive(Clone, Debug)]
pub struct Object {
    pub lo: u64,
    pub hi: u64,
    pub space: Space,
    /// `buffer argument 'out' (4096 bytes)`, `program-scope variable 'g'`.
    pub name: String,
}

/// What a report is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    InvalidRead,
    InvalidWrite,
    Index,
    Race,
    Divergence,
    Uninit,
}

struct Report {
    text: String,
    count: u64,
}

#[derive(Default)]
struct Reports {
    list: Vec<Report>,
    index: HashMap<(Kind, u32, u32), usize>,
    dropped: u64,
}

/// One launch's checks: its objects, the program's sites, the reports.
pub struct LaunchCheck {
    pub checks: Checks,
    kernel: String,
    objects: Vec<Object>,
    local_objects: Vec<Object>,
    max_errors: usize,
    reports: Mutex<Reports>,
    /// Global memory between groups: each group's read and write extents.
    extents: Mutex<Vec<Extent>>,
    /// The program's sites (set by the first group; the program outlives
    /// the launch): address and length.
    sites: Mutex<(usize, usize)>,
    id: u64,
}

impl LaunchCheck {
    /// `objects`: buffers and program-scope variables; `local_objects`:
    /// offsets in the local arena.
    pub fn new(
        checks: Checks,
        kernel: &str,
        objects: Vec<Object>,
        local_objects: Vec<Object>,
    ) -> LaunchCheck {
        static IDS: AtomicU64 = AtomicU64::new(1);
        let max_errors = std::env::var("CRANECL_MAX_ERRORS")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(16usize)
            .max(1);
        LaunchCheck {
            checks,
            kernel: kernel.to_string(),
            objects,
            local_objects,
            max_errors,
            reports: Mutex::new(Reports::default()),
            extents: Mutex::new(Vec::new()),
            sites: Mutex::new((0, 0)),
            id: IDS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The reports so far, one text each (empty: the launch is clean).
    pub fn reports(&self) -> Vec<String> {
        self.between_groups();
        let r = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        let mut out: Vec<String> = r
            .list
            .iter()
            .map(|rep| {
                if rep.count > 1 {
                    format!(
                        "{}note: reported {} times at this place in this command\n",
                        rep.text, rep.count
                    )
                } else {
                    rep.text.clone()
                }
            })
            .collect();
        if r.dropped > 0 {
            out.push(format!(
                "cranecl: {} more errors not shown (CRANECL_MAX_ERRORS={})\n",
                r.dropped, self.max_errors
            ));
        }
        out
    }

    /// After every group: the extents of global memory that two groups
    /// touched, one of them writing, race (groups of a launch are
    /// unordered). Sorted by start, swept with the extents still open.
    fn between_groups(&self) {
        let mut log = std::mem::take(&mut *self.extents.lock().unwrap_or_else(|p| p.into_inner()));
        if log.is_empty() {
            return;
        }
        let (ptr, len) = *self.sites.lock().unwrap_or_else(|p| p.into_inner());
        if ptr == 0 {
            return;
        }
        // SAFETY: set by `with_state` from the program's site table; the
        // program outlives its launches.
        let sites = unsafe { std::slice::from_raw_parts(ptr as *const Site, len) };
        log.sort_unstable_by_key(|e| e.lo);
        let mut active: Vec<usize> = Vec::new();
        for i in 0..log.len() {
            let x = log[i];
            active.retain(|&j| log[j].hi > x.lo);
            for &j in active.iter().take(64) {
                let y = log[j];
                if y.group == x.group || !(x.write || y.write) {
                    continue;
                }
                let (w, o) = if x.write { (x, y) } else { (y, x) };
                let (Some(ws), Some(os)) = (sites.get(w.site as usize), sites.get(o.site as usize))
                else {
                    continue;
                };
                let lo = x.lo.max(y.lo);
                let obj = describe_addr(0, self, lo, None);
                let what = if o.write { "write" } else { "read" };
                self.report(Kind::Race, (w.site.min(o.site), w.site.max(o.site)), || {
                    let mut t = header(
                        ws,
                        &format!(
                            "data race in global memory between work-groups: a write here by work-group {} and a {what} by work-group {} at {} (the groups of a launch run in no defined order); {obj}",
                            w.group, o.group, os.location
                        ),
                    );
                    let _ = writeln!(t, "  kernel '{}', work-groups {} and {} (linear ids)", self.kernel, w.group, o.group);
                    t.push_str(&note(os, &format!("the other {what} is here")));
                    t
                });
            }
            active.push(i);
        }
    }

    fn report(&self, kind: Kind, sites: (u32, u32), make: impl FnOnce() -> String) {
        let mut r = self.reports.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&i) = r.index.get(&(kind, sites.0, sites.1)) {
            r.list[i].count += 1;
            return;
        }
        if r.list.len() >= self.max_errors {
            r.dropped += 1;
            return;
        }
        let text = make();
        let i = r.list.len();
        r.list.push(Report { text, count: 1 });
        r.index.insert((kind, sites.0, sites.1), i);
    }
}

/// One work-item's access of global memory (`races`), coalesced with the
/// item's previous one when they are adjacent.
#[derive(Clone, Copy)]
struct Access {
    lo: u64,
    hi: u64,
    item: u32,
    epoch: u32,
    site: u32,
    write: bool,
    /// A write of the value already there.
    same_value: bool,
    /// Order within the group.
    seq: u64,
}

/// A group's read or write extent of global memory.
#[derive(Clone, Copy)]
struct Extent {
    lo: u64,
    hi: u64,
    group: u64,
    write: bool,
    /// The site of the group's latest access in it.
    site: u32,
}

/// A byte's history in the current group (race and uninit tracking).
#[derive(Clone, Copy, Default)]
struct Cell {
    /// Work-item (local linear id + 1) that last wrote; 0: never written.
    w_item: u32,
    w_epoch: u32,
    w_site: u32,
    /// Last reader (+1), `MANY` for several in one epoch; 0: none.
    r_item: u32,
    r_epoch: u32,
    r_site: u32,
}

const MANY: u32 = u32::MAX;
/// The writer of a byte last written by an atomic operation.
const ATOMIC: u32 = u32::MAX - 1;
/// What local memory holds before a work-item writes it (checked `uninit`).
const POISON: u8 = 0xA5;

/// The `size` (at most 8) bytes at `addr`, little-endian.
fn read_bits(addr: u64, size: u32) -> u64 {
    let mut b = [0u8; 8];
    // SAFETY: the caller checked that `[addr, addr + size)` lies inside a
    // live object.
    unsafe {
        std::ptr::copy_nonoverlapping(addr as *const u8, b.as_mut_ptr(), size.min(8) as usize)
    };
    u64::from_le_bytes(b)
}
/// Bytes of the block bad accesses are redirected to (the widest access
/// generated code makes, a `long16`/`double16`, is 128).
const SCRATCH: usize = 256;

/// One thread's checking state while it runs groups of a launch. Generated
/// code reaches it through `GroupState::check`.
pub struct CheckState {
    /// `[lo, hi)` per site.
    cache: Vec<[u64; 2]>,
    sites: *const Site,
    nsites: usize,
    launch: *const LaunchCheck,
    launch_id: u64,
    local_lo: u64,
    local_hi: u64,
    /// The argument block (by-value struct arguments are read from it).
    args: [u64; 2],
    /// Barriers passed by the group.
    pub epoch: u32,
    group_linear: u64,
    local: Vec<Cell>,
    /// Global accesses of the group (`races`).
    glog: Vec<Access>,
    seq: u64,
    /// Work-items (+1) that read uninitialised local memory: the site,
    /// address and value of each such read (a few).
    tainted: HashMap<u32, Vec<(u32, u64, u64)>>,
    scratch: Box<[u128; SCRATCH / 16]>,
}

thread_local! {
    static STATE: std::cell::RefCell<Option<Box<CheckState>>> = const { std::cell::RefCell::new(None) };
}

/// Run `f` with this thread's state set up for a group of `launch`
/// (`group`'s `check` and `check_cache` point at it while `f` runs).
pub fn with_state<R>(
    launch: &LaunchCheck,
    sites: &[Site],
    args: &[u8],
    group: &mut GroupState,
    group_linear: u64,
    f: impl FnOnce(&GroupState) -> R,
) -> R {
    let mut st = STATE.with(|s| s.borrow_mut().take()).unwrap_or_else(|| {
        Box::new(CheckState {
            cache: Vec::new(),
            sites: std::ptr::null(),
            nsites: 0,
            launch: std::ptr::null(),
            launch_id: 0,
            local_lo: 0,
            local_hi: 0,
            args: [0, 0],
            epoch: 0,
            group_linear: 0,
            local: Vec::new(),
            glog: Vec::new(),
            seq: 0,
            tainted: HashMap::new(),
            scratch: Box::new([0; SCRATCH / 16]),
        })
    });
    if st.launch_id != launch.id || st.cache.len() != sites.len().max(1) {
        st.cache.clear();
        st.cache.resize(sites.len().max(1), [0, 0]);
        st.launch_id = launch.id;
    }
    st.sites = sites.as_ptr();
    st.nsites = sites.len();
    st.launch = launch;
    st.local_lo = group.local_mem;
    st.local_hi = group.local_mem + group.local_mem_size;
    st.epoch = 0;
    st.args = [
        args.as_ptr() as u64,
        args.as_ptr() as u64 + args.len() as u64,
    ];
    st.group_linear = group_linear;
    if launch.checks.tracks() {
        st.local.clear();
        st.local
            .resize(group.local_mem_size as usize, Cell::default());
        st.glog.clear();
        st.tainted.clear();
        if launch.checks.uninit && group.local_mem != 0 {
            // SAFETY: the group's local arena holds `local_mem_size` bytes,
            // whose contents are undefined until the kernel writes them.
            unsafe {
                std::ptr::write_bytes(
                    group.local_mem as *mut u8,
                    POISON,
                    group.local_mem_size as usize,
                )
            };
        }
    }
    group.check = &mut *st as *mut CheckState as u64;
    group.check_cache = st.cache.as_mut_ptr() as u64;
    let r = f(group);
    if launch.checks.races {
        *launch.sites.lock().unwrap_or_else(|p| p.into_inner()) =
            (sites.as_ptr() as usize, sites.len());
        finish_group(&mut st, launch, sites, group_linear);
    }
    st.launch = std::ptr::null();
    STATE.with(|s| *s.borrow_mut() = Some(st));
    r
}

/// After a group: races on global memory between its work-items (same
/// epoch, overlapping, one writing), then its extents for the launch.
fn finish_group(st: &mut CheckState, launch: &LaunchCheck, sites: &[Site], group: u64) {
    let mut log = std::mem::take(&mut st.glog);
    log.sort_unstable_by_key(|a| (a.lo, a.seq));
    let mut active: Vec<usize> = Vec::new();
    for i in 0..log.len() {
        let x = log[i];
        active.retain(|&j| log[j].hi > x.lo);
        for &j in active.iter().take(64) {
            let y = log[j];
            if y.item == x.item || y.epoch != x.epoch || !(x.write || y.write) {
                continue;
            }
            let (first, second) = if y.seq < x.seq { (y, x) } else { (x, y) };
            if first.write && second.write && second.same_value && !launch.checks.races_strict {
                continue;
            }
            let (Some(s2), Some(s1)) = (
                sites.get(second.site as usize),
                sites.get(first.site as usize),
            ) else {
                continue;
            };
            let what = |w: bool| if w { "write" } else { "read" };
            let obj = describe_addr(st.local_lo, launch, x.lo.max(y.lo), None);
            launch.report(Kind::Race, (first.site.min(second.site), first.site.max(second.site)), || {
                let mut t = header(
                    s2,
                    &format!(
                        "data race in global memory: {} here by local linear id {} and a {} by local linear id {} at {} with no barrier between; {obj}",
                        what(second.write),
                        second.item - 1,
                        what(first.write),
                        first.item - 1,
                        s1.location
                    ),
                );
                let _ = writeln!(t, "  kernel '{}', work-group {group} (linear id)", launch.kernel);
                t.push_str(&note(s1, &format!("the other {} is here", what(first.write))));
                t
            });
        }
        active.push(i);
    }
    // The group's extents: reads and writes each merged where they touch.
    let mut extents: Vec<Extent> = Vec::new();
    for write in [false, true] {
        let mut cur: Option<(Extent, u64)> = None;
        for a in log.iter().filter(|a| a.write == write) {
            match &mut cur {
                Some((e, seq)) if a.lo <= e.hi => {
                    e.hi = e.hi.max(a.hi);
                    if a.seq > *seq {
                        e.site = a.site;
                        *seq = a.seq;
                    }
                }
                _ => {
                    if let Some((e, _)) = cur.take() {
                        extents.push(e);
                    }
                    cur = Some((
                        Extent {
                            lo: a.lo,
                            hi: a.hi,
                            group,
                            write,
                            site: a.site,
                        },
                        a.seq,
                    ));
                }
            }
        }
        if let Some((e, _)) = cur {
            extents.push(e);
        }
    }
    if !extents.is_empty() {
        launch
            .extents
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend(extents);
    }
    log.clear();
    st.glog = log;
}

fn header(site: &Site, message: &str) -> String {
    format!("{}: error: {message}\n{}", site.location, site.snippet)
}

fn note(site: &Site, message: &str) -> String {
    format!("{}: note: {message}\n{}", site.location, site.snippet)
}

/// The work-item's ids, as reports print them.
fn ids(item: &ItemState, g: &GroupState) -> String {
    let gid: [u64; 3] = std::array::from_fn(|d| {
        g.group_id[d] * g.enqueued_local_size[d] + item.local_id[d] + g.global_offset[d]
    });
    let dims = (g.work_dim as usize).clamp(1, 3);
    let f = |a: &[u64]| {
        a[..dims]
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "global id ({}), local id ({}), group id ({})",
        f(&gid),
        f(&item.local_id[..3]),
        f(&g.group_id[..3])
    )
}

fn linear_local(item: &ItemState, g: &GroupState) -> u32 {
    (item.local_id[0] + g.local_size[0] * (item.local_id[1] + g.local_size[1] * item.local_id[2]))
        as u32
}

/// Where `addr` is, relative to the nearest object (for messages).
fn describe_addr(local_lo: u64, launch: &LaunchCheck, addr: u64, size: Option<u64>) -> String {
    let size = size.unwrap_or(1);
    let objects = launch.objects.iter().map(|o| (o.lo, o.hi, o)).chain(
        launch
            .local_objects
            .iter()
            .map(|o| (local_lo + o.lo, local_lo + o.hi, o)),
    );
    let mut best: Option<(u64, String)> = None;
    for (lo, hi, o) in objects {
        let name = if o.name.starts_with(o.space.as_str()) {
            o.name.clone()
        } else {
            format!("{} {}", o.space.as_str(), o.name)
        };
        let (dist, text) = if addr >= lo && addr < hi {
            if addr + size > hi {
                (
                    0,
                    format!(
                        "at offset {} of {name}, {} of the {size} bytes past its end",
                        addr - lo,
                        addr + size - hi,
                    ),
                )
            } else {
                (0, format!("at offset {} of {name}", addr - lo))
            }
        } else if addr == hi {
            (
                1,
                format!("at offset {} of {name}, just past its end", addr - lo),
            )
        } else if addr > hi {
            (
                addr - hi + 1,
                format!(
                    "at offset {} of {name}, {} bytes past its end",
                    addr - lo,
                    addr - hi
                ),
            )
        } else {
            (
                lo - addr,
                format!("at offset -{} of {name}, before its start", lo - addr),
            )
        };
        if best.as_ref().is_none_or(|(d, _)| dist < *d) {
            best = Some((dist, text));
        }
    }
    match best {
        Some((d, t)) if d < 1 << 30 => t,
        _ => format!("address 0x{addr:x} is in no object the kernel may access"),
    }
}

/// The object holding `[addr, addr + size)`: its bounds and space.
fn find(st: &CheckState, item: &ItemState, addr: u64, size: u64) -> Option<(u64, u64, Space)> {
    let end = addr.checked_add(size)?;
    let inside = |lo: u64, hi: u64| addr >= lo && end <= hi;
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    for o in &launch.objects {
        if inside(o.lo, o.hi) {
            return Some((o.lo, o.hi, o.space));
        }
    }
    for o in &launch.local_objects {
        let (lo, hi) = (st.local_lo + o.lo, st.local_lo + o.hi);
        if inside(lo, hi) {
            return Some((lo, hi, Space::Local));
        }
    }
    if inside(st.args[0], st.args[1]) {
        return Some((st.args[0], st.args[1], Space::Private));
    }
    if inside(item.private_lo, item.private_hi) {
        return Some((item.private_lo, item.private_hi, Space::Private));
    }
    if item.arena_hi > item.arena_lo && inside(item.arena_lo, item.arena_hi) {
        return Some((item.arena_lo, item.arena_hi, Space::Private));
    }
    None
}

/// The slow path of a checked load or store at `addr` (`site`'s size):
/// returns `addr`, or a scratch address when the access is out of bounds.
///
/// # Safety
/// `item` is the `ItemState` generated code was given, in a group run by
/// [`with_state`].
pub unsafe extern "C" fn cranecl_check_access(
    item: *mut ItemState,
    addr: u64,
    site: u32,
    value: u64,
) -> u64 {
    // SAFETY: the caller's contract: `item` and its group are live, the
    // group's `check` points at this thread's state, set by `with_state`.
    let (item, group, st) = unsafe {
        let item = &*item;
        let group = &*item.group;
        (item, group, &mut *(group.check as *mut CheckState))
    };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let Some(s) = sites.get(site as usize) else {
        return addr;
    };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    let size = u64::from(s.size);
    let write = matches!(s.kind, SiteKind::Write | SiteKind::Atomic);
    match find(st, item, addr, size) {
        Some((lo, hi, space)) => {
            // Local memory is followed for races and uninit, global memory
            // for races (and for uninit only when a work-item that read
            // uninitialised memory writes it); the rest is cached.
            let tracked = match space {
                _ if s.kind == SiteKind::Atomic => false,
                Space::Local => launch.checks.tracks(),
                Space::Global => {
                    launch.checks.races || (launch.checks.uninit && !st.tainted.is_empty())
                }
                _ => false,
            };
            if s.kind == SiteKind::Atomic && space == Space::Local && launch.checks.tracks() {
                // Written (never uninitialised afterwards), by no one in
                // particular: an atomic never races.
                let off = (addr - st.local_lo) as usize;
                let end = (off + size as usize).min(st.local.len());
                for c in st.local.get_mut(off..end).into_iter().flatten() {
                    c.w_item = ATOMIC;
                    c.w_epoch = st.epoch;
                }
            } else if !tracked {
                if let Some(c) = st.cache.get_mut(site as usize) {
                    *c = [lo, hi];
                }
            } else {
                track(st, launch, sites, item, group, addr, site, space, value);
            }
            addr
        }
        None => {
            let kind = if write {
                Kind::InvalidWrite
            } else {
                Kind::InvalidRead
            };
            let what = describe_addr(st.local_lo, launch, addr, Some(size));
            launch.report(kind, (site, 0), || {
                let mut t = header(
                    s,
                    &format!(
                        "invalid {} of {size} bytes {what} (address 0x{addr:x})",
                        if write { "write" } else { "read" }
                    ),
                );
                let _ = writeln!(t, "  kernel '{}', {}", launch.kernel, ids(item, group));
                t
            });
            st.scratch.fill(0);
            st.scratch.as_ptr() as u64
        }
    }
}

/// Race and uninit bookkeeping for one in-bounds access of local or global
/// memory.
#[allow(clippy::too_many_arguments)]
fn track(
    st: &mut CheckState,
    launch: &LaunchCheck,
    sites: &[Site],
    item: &ItemState,
    group: &GroupState,
    addr: u64,
    site: u32,
    space: Space,
    value: u64,
) {
    let s = &sites[site as usize];
    let me = linear_local(item, group) + 1;
    let epoch = st.epoch;
    let write = s.kind == SiteKind::Write;
    // A write of the value already in memory is harmless unless strict.
    let same_value = write && s.value_known && s.size <= 8 && {
        let mut old = [0u8; 8];
        // SAFETY: `[addr, addr + size)` lies inside a live object (checked by
        // the caller) and the write has not happened yet.
        unsafe {
            std::ptr::copy_nonoverlapping(addr as *const u8, old.as_mut_ptr(), s.size as usize)
        };
        old[..s.size as usize] == value.to_le_bytes()[..s.size as usize]
    };
    let mut race: Option<(u32, bool, u32)> = None;
    let mut uninit = false;
    if space == Space::Global && launch.checks.races {
        // Global accesses are logged as extents, compared when the group ends.
        let hi = addr + u64::from(s.size);
        st.seq += 1;
        let seq = st.seq;
        match st.glog.last_mut() {
            Some(a)
                if a.item == me
                    && a.epoch == epoch
                    && a.site == site
                    && a.write == write
                    && a.hi == addr =>
            {
                a.hi = hi;
                a.same_value &= same_value;
            }
            _ => st.glog.push(Access {
                lo: addr,
                hi,
                item: me,
                epoch,
                site,
                write,
                same_value,
                seq,
            }),
        }
    }
    let bytes = if space == Space::Local {
        u64::from(s.size)
    } else {
        0
    };
    for b in 0..bytes {
        let Some(cell) = st.local.get_mut((addr + b - st.local_lo) as usize) else {
            continue;
        };
        if write {
            if launch.checks.races {
                if cell.w_item != 0
                    && cell.w_item != ATOMIC
                    && cell.w_epoch == epoch
                    && cell.w_item != me
                {
                    if !same_value || launch.checks.races_strict {
                        race.get_or_insert((cell.w_site, true, cell.w_item - 1));
                    }
                } else if cell.r_item != 0 && cell.r_epoch == epoch && cell.r_item != me {
                    let other = if cell.r_item == MANY {
                        u32::MAX
                    } else {
                        cell.r_item - 1
                    };
                    race.get_or_insert((cell.r_site, false, other));
                }
            }
            cell.w_item = me;
            cell.w_epoch = epoch;
            cell.w_site = site;
        } else {
            if launch.checks.races
                && cell.w_item != 0
                && cell.w_item != ATOMIC
                && cell.w_epoch == epoch
                && cell.w_item != me
            {
                race.get_or_insert((cell.w_site, true, cell.w_item - 1));
            }
            if cell.w_item == 0 && space == Space::Local {
                uninit = true;
            }
            if cell.r_item != 0 && cell.r_epoch == epoch && cell.r_item != me {
                cell.r_item = MANY;
            } else {
                cell.r_item = me;
            }
            cell.r_epoch = epoch;
            cell.r_site = site;
        }
    }
    // An uninitialised read is reported when the work-item that made it
    // then writes what it read, unchanged, to global memory (local memory
    // starts filled with a poison pattern, so such a value is
    // recognisable): a value read and thrown away (a scan's padding lanes)
    // is not an error. Values computed from it are not followed.
    if uninit && launch.checks.uninit && s.size <= 8 {
        let bits = read_bits(addr, s.size);
        if st.tainted.is_empty() {
            // From now on in this group global writes take the slow path.
            st.cache.iter_mut().for_each(|c| *c = [0, 0]);
        }
        let taints = st.tainted.entry(me).or_default();
        if taints.len() < 8 && !taints.iter().any(|t| t.2 == bits) {
            taints.push((site, addr, bits));
        }
    }
    if write && space == Space::Global && launch.checks.uninit && s.value_known {
        let mask = if s.size >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * s.size)) - 1
        };
        let hit = st
            .tainted
            .get(&me)
            .and_then(|ts| ts.iter().find(|t| t.2 & mask == value & mask).copied());
        if let Some((read_site, read_addr, _)) = hit {
            let r = &sites[read_site as usize];
            let obj = describe_addr(st.local_lo, launch, read_addr, Some(u64::from(r.size)));
            launch.report(Kind::Uninit, (read_site, 0), || {
                let mut t = header(
                    r,
                    &format!(
                        "read of {} bytes of uninitialised local memory {obj}: no work-item of the group has written it",
                        r.size
                    ),
                );
                let _ = writeln!(t, "  kernel '{}', {}", launch.kernel, ids(item, group));
                t.push_str(&note(s, "the work-item writes the value it read to global memory here"));
                t
            });
        }
    }
    if let Some((other_site, other_wrote, other_item)) = race {
        let Some(o) = sites.get(other_site as usize) else {
            return;
        };
        let obj = describe_addr(st.local_lo, launch, addr, Some(u64::from(s.size)));
        let what = |w: bool| if w { "write" } else { "read" };
        let other = if other_item == u32::MAX {
            "several work-items".to_string()
        } else {
            format!("local linear id {other_item}")
        };
        let key = (site.min(other_site), site.max(other_site));
        launch.report(Kind::Race, key, || {
            let mut t = header(
                s,
                &format!(
                    "data race in {} memory: {} of {} bytes here and a {} by {other} at {} with no barrier between; {obj}",
                    space.as_str(),
                    what(write),
                    s.size,
                    what(other_wrote),
                    o.location
                ),
            );
            let _ = writeln!(t, "  kernel '{}', {}", launch.kernel, ids(item, group));
            t.push_str(&note(o, &format!("the other {} is here", what(other_wrote))));
            t
        });
    }
}

/// The slow path of `a[i]` on an array object: `index` is outside
/// `[0, len)`; report it and return 0 (the access goes to the first element).
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_index(item: *mut ItemState, index: i64, site: u32) -> i64 {
    // SAFETY: as in `cranecl_check_access`.
    let (item, group, st) = unsafe {
        let item = &*item;
        let group = &*item.group;
        (item, group, &*(group.check as *const CheckState))
    };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let Some(s) = sites.get(site as usize) else {
        return 0;
    };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    launch.report(Kind::Index, (site, 0), || {
        let mut t = header(
            s,
            &format!(
                "index {index} is outside the bounds of the array '{}' of {} elements",
                s.text, s.len
            ),
        );
        let _ = writeln!(t, "  kernel '{}', {}", launch.kernel, ids(item, group));
        t
    });
    0
}

/// After a round of a coroutine group: every unfinished work-item waits at
/// a barrier (its site in `barrier_site`); `done[i]` says which finished.
/// Reports divergence and returns whether the group may go on.
pub fn barrier_round(group: &GroupState, items: &[ItemState], done: &[bool]) -> bool {
    if group.check == 0 {
        return true;
    }
    // SAFETY: `check` points at this thread's state while the group runs.
    let st = unsafe { &mut *(group.check as *mut CheckState) };
    st.epoch += 1;
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    if !launch.checks.barriers {
        return true;
    }
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let waiting: Vec<(usize, u32)> = items
        .iter()
        .enumerate()
        .filter(|(i, _)| !done[*i])
        .map(|(i, it)| (i, it.barrier_site as u32))
        .collect();
    let Some(&(first, site)) = waiting.first() else {
        return true;
    };
    let Some(s) = sites.get(site as usize) else {
        return true;
    };
    let finished = done.iter().position(|&d| d);
    let other = waiting.iter().find(|(_, b)| *b != site).copied();
    let (message, other_site) = match (other, finished) {
        (Some((j, b)), _) => {
            let o = sites.get(b as usize);
            (
                format!(
                    "barrier divergence: work-items of a group wait at different barriers: local linear id {first} here, local linear id {j} at {}",
                    o.map_or("?", |o| o.location.as_str())
                ),
                (o.cloned(), b),
            )
        }
        (None, Some(j)) => (
            format!(
                "barrier divergence: not every work-item of the group reaches this barrier: local linear id {first} waits here ({} of {} work-items), local linear id {j} has returned",
                waiting.len(),
                items.len()
            ),
            (None, 0),
        ),
        (None, None) => return true,
    };
    launch.report(Kind::Divergence, (site, other_site.1), || {
        let mut t = header(s, &message);
        let _ = writeln!(
            t,
            "  kernel '{}', {}",
            launch.kernel,
            ids(&items[first], group)
        );
        if let Some(o) = &other_site.0 {
            t.push_str(&note(o, "the other barrier is here"));
        }
        t
    });
    false
}

/// Checked `uninit` (`codegen/uninit.rs`): the read at `site` of a private
/// variable, or of bytes of one, that this work-item has not written;
/// `decl` is the variable's declaration. The site's `text` names what was
/// read, the declaration's the variable.
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_uninit_private(item: *mut ItemState, site: u32, decl: u32) {
    // SAFETY: as in `cranecl_check_access`.
    let (item, group) = unsafe {
        let item = &*item;
        (item, &*item.group)
    };
    if group.check == 0 {
        return;
    }
    // SAFETY: `check` points at this thread's state while the group runs.
    let st = unsafe { &*(group.check as *const CheckState) };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let (Some(s), Some(d)) = (sites.get(site as usize), sites.get(decl as usize)) else {
        return;
    };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    launch.report(Kind::Uninit, (site, 0), || {
        let mut t = header(
            s,
            &format!("read of {} before this work-item wrote it", s.text),
        );
        let _ = writeln!(t, "  kernel '{}', {}", launch.kernel, ids(item, group));
        t.push_str(&note(
            d,
            &format!("'{}' is declared here without an initialiser", d.text),
        ));
        t
    });
}
