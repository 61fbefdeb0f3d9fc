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
//! With `races` or `uninit`, local memory and the global memory a launch
//! may write (buffers bound to a pointer that is not `const`, program-scope
//! variables) are followed in a *shadow*: per 4-byte granule, the *tag* of
//! its last write and of its last read (or of several readers). A tag holds
//! a *serial*, the source site and the work-item: every launch takes a
//! serial when it starts and every group a run of them, one more per
//! barrier it passes (an *epoch*), so a tag says whether an access was made
//! before this launch, by this group before its last barrier, by this
//! work-item since then, or by another work-item or group. Serials only
//! grow, so shadows are never cleared. Generated code updates the shadow
//! inline and calls here only when a tag needs a look (`cell_access` is
//! the whole rule): two work-items touching a granule in one epoch, one of
//! them writing, race (a write of the value already there does not count
//! unless `races-strict`); global memory touched by two groups of a launch,
//! one writing, races (groups run in no defined order: which pair is seen
//! first depends on the order they ran in); a read of local memory the
//! group has not written is uninitialised, reported when that work-item
//! then writes the value to global memory (so a value read and thrown away
//! is not an error). Accesses of part of a granule are followed per byte
//! here. Atomics never race.
//!
//! With `barriers`, under the region strategy (`codegen/regions.rs`) every
//! decision that leads to a barrier is compared across the work-items
//! ([`cranecl_check_region_divergence`]) and a barrier reached while some
//! work-items returned is reported ([`cranecl_check_region_barrier`], which
//! also starts the next epoch); under the coroutine runtime every work-item
//! records the site of the barrier it waits at, and after each round all
//! unfinished items must wait at the same barrier, and either all or none
//! have finished.
//!
//! Generated code calls the access and index slow paths through
//! register-preserving trampolines ([`preserving`]), and passes the
//! work-item (`me`: local linear id + 1, or `me0 << 16 | 0xFFFF` for an
//! access the lanes make once for four work-items).
//!
//! A report names what happened, the object and the offset, the kernel, the
//! work-items, and the site (`<source>:LINE:COL`, the line and a caret);
//! reports of the same kind at the same site(s) are merged with a count, and
//! at most `CRANECL_MAX_ERRORS` (default 16) distinct ones are kept per
//! command. The API layer fails a command that produced any.

use super::{GroupState, ItemState};
use std::collections::HashMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
    /// An image read or write (`read_image*`, `write_image*`): its
    /// coordinates checked against the image ([`cranecl_check_image`]).
    Image,
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
    /// The lanes' access of four consecutive 4-byte elements: granule `k`
    /// is the work-item `me + k`'s.
    pub lanes: bool,
    /// A compound assignment's read (`x op= ...`): tested as a read, but
    /// its work-item's write that follows, not a read tag, records it (as
    /// the generated fast path does, so that a report does not depend on
    /// which path an access took).
    pub read_for_write: bool,
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
    /// The shadow `races` follows the object in (global memory a launch
    /// may write); for a sub-buffer, its buffer's.
    pub shadow: Option<std::sync::Arc<Shadow>>,
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
    /// A kernel's read of a `CL_MEM_WRITE_ONLY` image or write of a
    /// `CL_MEM_READ_ONLY` one.
    ImageAccess,
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

/// What a launch's checks know of the kernel and what it may touch: the
/// same for every launch of a kernel whose arguments name the same objects,
/// so the kernel keeps one and its launches share it (`Arc`).
#[derive(Debug)]
pub struct LaunchObjects {
    pub kernel: String,
    /// Buffers and program-scope variables.
    pub objects: Vec<Object>,
    /// Offsets in the local arena.
    pub local_objects: Vec<Object>,
    /// Fine-grain system SVM: an access to memory that no allocation of the
    /// registry owns (the host's `malloc` memory a kernel was given) is not
    /// checked; memory the registry knows is checked as before.
    pub system_memory: bool,
    /// The launch's image arguments (`bounds`).
    pub images: Vec<ImageArg>,
}

/// One launch's checks: its objects, the program's sites, the reports.
pub struct LaunchCheck {
    pub checks: Checks,
    of: std::sync::Arc<LaunchObjects>,
    max_errors: usize,
    reports: Mutex<Reports>,
    /// The launch's serial, taken when its first group starts: every tag
    /// of a group of this launch is above it (a shadow tag below it was
    /// left by an earlier command).
    serial: AtomicU64,
    /// Each group's first serial and its linear id (to name the other
    /// group of a race), in shards by worker thread: every group of a
    /// launch adds itself when it starts, and one lock for all of them was
    /// contended by every thread (a tenth of a checked reduction's time on
    /// 16 threads); shards by linear id still moved each shard between the
    /// cores (a launch of 2M one-item groups: 11.5x its unchecked time
    /// under `races` on 16 threads). Made when a launch's groups do not fit
    /// `first_serials`.
    groups: std::sync::OnceLock<Box<GroupShards>>,
    /// The same by linear id (the first serial + 1; 0: not started), made
    /// at the launch's first group when it has at most
    /// `GROUP_TABLE_LIMIT` groups: one plain store per group, where the
    /// log's lock and unlock were half of the checked set-up of a group of
    /// one work-item. Larger launches use `groups`.
    first_serials: std::sync::OnceLock<Option<Box<[AtomicU64]>>>,
    /// Release operations on global memory: per address, the value the last
    /// one left there and the serial ranges it publishes
    /// (`cranecl_check_sync`); made at the launch's first.
    releases: std::sync::OnceLock<Box<ReleaseShards>>,
    id: u64,
}

/// An image argument of a launch, as `bounds` checks and names it.
#[derive(Clone, Debug)]
pub struct ImageArg {
    /// The address of its `ImageDesc` (what generated code passes).
    pub desc: u64,
    /// `image argument 'im' (a 2D image of 16 x 8 pixels)`.
    pub name: String,
    /// Created with `CL_MEM_WRITE_ONLY`: a kernel's read is undefined.
    pub write_only: bool,
    /// Created with `CL_MEM_READ_ONLY`: a kernel's write is undefined.
    pub read_only: bool,
}

/// The shards of a launch's log of groups (`LaunchCheck::groups`).
const GROUP_SHARDS: usize = 32;
type GroupShards = [Mutex<Vec<(u64, u64)>>; GROUP_SHARDS];

/// The most groups of a launch `LaunchCheck::first_serials` takes (64 MiB).
const GROUP_TABLE_LIMIT: u64 = 1 << 23;

/// This thread's shard of `LaunchCheck::groups` (threads numbered as they
/// first ask).
fn group_shard() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local!(static SHARD: usize = NEXT.fetch_add(1, Ordering::Relaxed) % GROUP_SHARDS);
    SHARD.with(|s| *s)
}

/// The release map's shards (by address: operations on one word share one).
const RELEASE_SHARDS: usize = 64;
type ReleaseShards = [Mutex<HashMap<u64, Release>>; RELEASE_SHARDS];

/// What a release operation published: the value it left at its address
/// (an acquire that reads it synchronises with it) and the serials of the
/// accesses ordered before it — its group's, from the group's first serial
/// to its current one, and those the group had acquired itself.
struct Release {
    value: u64,
    ranges: Vec<(u64, u64)>,
}

impl LaunchCheck {
    /// The checks of a launch of `of`'s kernel. Made when the launch is
    /// enqueued; `CRANECL_MAX_ERRORS` is read once, by a process's first.
    pub fn new(checks: Checks, of: std::sync::Arc<LaunchObjects>) -> LaunchCheck {
        static IDS: AtomicU64 = AtomicU64::new(1);
        static MAX_ERRORS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let max_errors = *MAX_ERRORS.get_or_init(|| {
            std::env::var("CRANECL_MAX_ERRORS")
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(16usize)
                .max(1)
        });
        LaunchCheck {
            checks,
            of,
            max_errors,
            reports: Mutex::new(Reports::default()),
            serial: AtomicU64::new(0),
            groups: std::sync::OnceLock::new(),
            first_serials: std::sync::OnceLock::new(),
            releases: std::sync::OnceLock::new(),
            id: IDS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The reports so far, one text each (empty: the launch is clean).
    pub fn reports(&self) -> Vec<String> {
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

    /// The launch's serial (taken by the first caller).
    fn serial(&self) -> u64 {
        let s = self.serial.load(Ordering::Relaxed);
        if s != 0 {
            return s;
        }
        let mine = NEXT_SERIAL.fetch_add(1, Ordering::Relaxed);
        match self
            .serial
            .compare_exchange(0, mine, Ordering::Relaxed, Ordering::Relaxed)
        {
            Ok(_) => mine,
            Err(other) => other,
        }
    }

    /// Group `group_linear` of `groups` starts with serial `base`.
    #[inline]
    fn log_group(&self, group_linear: u64, base: u64, groups: u64) {
        // The common case, once the table is made: one store.
        if let Some(Some(slot)) = self
            .first_serials
            .get()
            .map(|t| t.as_ref().and_then(|t| t.get(group_linear as usize)))
        {
            slot.store(base + 1, Ordering::Relaxed);
            return;
        }
        self.log_group_first(group_linear, base, groups);
    }

    /// `log_group` making the table, or past it (a launch of more groups
    /// than the table takes: the shards).
    #[inline(never)]
    fn log_group_first(&self, group_linear: u64, base: u64, groups: u64) {
        let table = self.first_serials.get_or_init(|| {
            (groups <= GROUP_TABLE_LIMIT).then(|| {
                // Zeroed pages from the allocator, touched as groups start.
                let zeros = vec![0u64; groups as usize].into_boxed_slice();
                // SAFETY: AtomicU64 has the same size, alignment and bit
                // validity as u64; the box's ownership moves.
                unsafe { Box::from_raw(Box::into_raw(zeros) as *mut [AtomicU64]) }
            })
        });
        match table.as_ref().and_then(|t| t.get(group_linear as usize)) {
            Some(slot) => slot.store(base + 1, Ordering::Relaxed),
            None => self
                .groups
                .get_or_init(|| Box::new(std::array::from_fn(|_| Mutex::new(Vec::new()))))
                [group_shard()]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((base, group_linear)),
        }
    }

    /// The linear id of the group whose serials include `serial`.
    fn group_of(&self, serial: u64) -> Option<u64> {
        let table = self.first_serials.get().and_then(Option::as_ref);
        let in_table = table.into_iter().flat_map(|t| {
            t.iter().enumerate().filter_map(|(g, b)| {
                // 0: not started.
                let b = b.load(Ordering::Relaxed).checked_sub(1)?;
                (b <= serial).then_some((b, g as u64))
            })
        });
        let in_shards = self
            .groups
            .get()
            .into_iter()
            .flat_map(|g| g.iter())
            .filter_map(|shard| {
                let g = shard.lock().unwrap_or_else(|p| p.into_inner());
                g.iter()
                    .filter(|(b, _)| *b <= serial)
                    .max_by_key(|(b, _)| *b)
                    .copied()
            });
        in_table
            .chain(in_shards)
            .max_by_key(|&(b, _)| b)
            .map(|(_, id)| id)
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

/// Serials: every launch takes one, every group a run of them (its first
/// serial, then one more per barrier it passes), so that a tag says which
/// launch, group and barrier interval (*epoch*) an access was made in.
/// They only grow: shadows are never cleared, an old tag is simply below
/// the current launch's serial.
static NEXT_SERIAL: AtomicU64 = AtomicU64::new(1);
/// Serials are 32 bits of a tag; past this, races and uninit stop.
const SERIAL_LIMIT: u64 = (1 << 32) - (1 << 20);

/// A shadow *tag*: serial (bits 32..64), site (16..32; `0xFFFF`: not
/// named), work-item (0..16: local linear id + 1; 0xFFFF: several,
/// 0xFFFE: an atomic operation).
fn tag(serial: u64, site: u32, me: u64) -> u64 {
    (serial << 32) | (u64::from(site.min(0xFFFF)) << 16) | (me & 0xFFFF)
}
const SEVERAL: u64 = 0xFFFF;
const ATOMIC: u64 = 0xFFFE;
/// A `me` of checked `bounds` in the lanes: lane `k` (the low bits) of the
/// step whose lane 0's local id the work-item's state holds.
pub const LANE_OF_ITEM: u64 = 1 << 62;
/// A granule whose bytes are followed one by one (in `Shadow::split`).
const SPLIT: u64 = u64::MAX;
fn serial_of(t: u64) -> u64 {
    t >> 32
}
fn item_of(t: u64) -> u64 {
    t & 0xFFFF
}
fn site_of(t: u64) -> u32 {
    ((t >> 16) & 0xFFFF) as u32
}

/// The shadow of an object followed by `races`/`uninit`: per 4-byte
/// granule, the tag of its last write and of its last read (or
/// `SEVERAL` readers). Generated code reads and updates it inline (see
/// `codegen/check.rs`); granules accessed in parts are followed per byte
/// here.
pub struct Shadow {
    /// Two `u64`s per granule, zero to start with (no access): in huge
    /// pages when large (a buffer's shadow is four times its size, read
    /// and written all over; with 4 KiB pages each new page of it costs
    /// a TLB miss).
    cells: cranecl_memory::Allocation,
    /// The number of `u64`s in `cells`.
    words: usize,
    /// The address of granule 0 (4-aligned).
    base: u64,
    split: Mutex<HashMap<u64, [[u64; 2]; 4]>>,
}

impl std::fmt::Debug for Shadow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shadow")
            .field("base", &self.base)
            .field("words", &self.words)
            .finish()
    }
}

/// Shadows of this many bytes or more come in huge pages.
const HUGE_SHADOW: usize = 4 * cranecl_memory::alloc::HUGE_PAGE;

impl Shadow {
    /// A shadow for `len` bytes at `base`.
    ///
    /// # Panics
    /// When the system has no memory for it (as a `Vec` would abort).
    pub fn new(base: u64, len: u64) -> Shadow {
        let granules = len.div_ceil(4) as usize + 1;
        let words = granules * 2;
        let bytes = words * 8;
        let cells = if bytes >= HUGE_SHADOW {
            cranecl_memory::Allocation::huge_zeroed(bytes)
        } else {
            cranecl_memory::Allocation::zeroed(bytes, 16)
        };
        let cells = cells.unwrap_or_else(|| {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::from_size_align(bytes, 16)
                    .unwrap_or(std::alloc::Layout::new::<u64>()),
            )
        });
        Shadow {
            cells,
            words,
            base: base & !3,
            split: Mutex::new(HashMap::new()),
        }
    }

    /// What generated code adds to `addr << 2` to find `addr`'s cell.
    fn delta(&self) -> u64 {
        (self.cells.as_ptr() as u64).wrapping_sub(self.base.wrapping_mul(4))
    }

    /// Granule `addr`'s cell: write tag, read tag.
    fn cell(&self, addr: u64) -> Option<[&AtomicU64; 2]> {
        let g = (addr.checked_sub(self.base)? / 4) as usize;
        if 2 * g + 1 >= self.words {
            return None;
        }
        let words = self.cells.as_ptr() as *mut u64;
        // SAFETY: `2 * g + 1 < words`: both are aligned u64s of this
        // shadow's allocation, which lives as long as `self`; generated
        // code also reads and writes them with plain 8-byte accesses.
        Some(unsafe {
            [
                AtomicU64::from_ptr(words.add(2 * g)),
                AtomicU64::from_ptr(words.add(2 * g + 1)),
            ]
        })
    }
}

/// Who accesses, as the shadow sees it.
#[derive(Clone, Copy)]
struct Who<'a> {
    tag: u64,
    /// The group's current and first serial.
    serial: u64,
    base: u64,
    /// The launch's serial; `None` for local memory (which lives as long
    /// as the group).
    launch: Option<u64>,
    /// Serial ranges of other groups' accesses ordered before this one by
    /// a release its group acquired (`cranecl_check_sync`).
    acquired: &'a [(u64, u64)],
    /// A compound assignment's read: leaves the read tags as they are.
    read_for_write: bool,
}

impl Who<'_> {
    fn mine(&self, t: u64) -> bool {
        serial_of(t) == self.serial && item_of(t) == item_of(self.tag)
    }
    /// Made by this group before its last barrier, or by this work-item
    /// since then.
    fn ordered(&self, t: u64) -> bool {
        let s = serial_of(t);
        (s >= self.base && s < self.serial)
            || self.mine(t)
            || self.acquired.iter().any(|&(lo, hi)| (lo..=hi).contains(&s))
    }
    fn my_group(&self, t: u64) -> bool {
        let s = serial_of(t);
        s >= self.base && s <= self.serial
    }
    /// Made before this launch, or by no one (global memory; local memory
    /// has no before).
    fn before(&self, t: u64) -> bool {
        self.launch.is_some_and(|l| serial_of(t) < l)
    }
}

/// What an access met in the shadow.
#[derive(Clone, Copy)]
enum Met {
    /// A conflicting access: its tag, whether it wrote.
    Race(u64, bool),
    /// Local memory the group has not written.
    Uninit,
}

/// One access of one granule (or byte) `cell` = [write tag, read tag]:
/// returns the new cell and what the access met.
fn cell_access(
    cell: [u64; 2],
    write: bool,
    who: &Who,
    same_value: bool,
    strict: bool,
) -> ([u64; 2], Option<Met>) {
    let [w, r] = cell;
    let mut met = None;
    let atomic = item_of(w) == ATOMIC && who.my_group(w);
    if !(who.before(w) || who.ordered(w) || atomic) {
        if who.launch.is_none() && !who.my_group(w) {
            // Local memory another group (or nobody) left.
            if !write {
                met = Some(Met::Uninit);
            }
        } else if !(write && same_value && !strict) {
            met = Some(Met::Race(w, true));
        }
    }
    if write {
        let free = who.before(r) || who.ordered(r) || (who.launch.is_none() && !who.my_group(r));
        if !free && met.is_none() {
            met = Some(Met::Race(r, false));
        }
        return ([who.tag, r], met);
    }
    if who.read_for_write {
        return ([w, r], met);
    }
    let r2 = if who.mine(r) || (serial_of(r) == who.serial && item_of(r) == SEVERAL) {
        r
    } else if serial_of(r) == who.serial {
        r | SEVERAL
    } else if who.before(r) || who.ordered(r) || who.launch.is_none() {
        who.tag
    } else {
        // Read by another group of this launch: by several.
        (who.launch.unwrap_or(0) << 32) | SEVERAL
    };
    ([w, r2], met)
}

/// A byte's or granule's history read through `shadow` for the access
/// `[addr, addr + size)`: the first thing met, if any.
#[allow(clippy::too_many_arguments)]
fn shadow_access(
    shadow: &Shadow,
    addr: u64,
    size: u64,
    write: bool,
    atomic: bool,
    who: &Who,
    same_value: bool,
    strict: bool,
) -> Option<Met> {
    let mut met = None;
    let end = addr + size;
    let mut g = addr & !3;
    while g < end {
        let (b0, b1) = (addr.max(g) - g, end.min(g + 4) - g);
        let Some([cw, cr]) = shadow.cell(g) else {
            g += 4;
            continue;
        };
        let cell = [cw.load(Ordering::Relaxed), cr.load(Ordering::Relaxed)];
        let one = |c: [u64; 2], met: &mut Option<Met>| -> [u64; 2] {
            if atomic {
                // Written (never uninitialised afterwards) and never racing.
                return [tag(who.serial, 0xFFFF, ATOMIC), c[1]];
            }
            let (c2, m) = cell_access(c, write, who, same_value, strict);
            if met.is_none() {
                *met = m;
            }
            c2
        };
        if cell[0] != SPLIT && b0 == 0 && b1 == 4 {
            let c2 = one(cell, &mut met);
            if c2[0] != cell[0] {
                cw.store(c2[0], Ordering::Relaxed);
            }
            if c2[1] != cell[1] {
                cr.store(c2[1], Ordering::Relaxed);
            }
        } else {
            let mut split = shadow.split.lock().unwrap_or_else(|p| p.into_inner());
            let bytes = split.entry(g).or_insert([cell; 4]);
            for b in &mut bytes[b0 as usize..b1 as usize] {
                *b = one(*b, &mut met);
            }
            cw.store(SPLIT, Ordering::Relaxed);
            cr.store(SPLIT, Ordering::Relaxed);
        }
        g += 4;
    }
    met
}

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

/// A site's entry in the fast path's cache (`GroupState::check_cache`):
/// the object it last touched, `[lo, hi)`, with `span` = `hi - lo - size`
/// (so that `addr - lo <= span`, unsigned, is the whole bounds test); for a
/// followed object the shadow's delta, and the serials below which a write
/// tag (`xw`) and a read tag (`xr`) need no look (see `codegen/check.rs`).
#[derive(Clone, Copy)]
#[repr(C)]
pub struct CacheEntry {
    lo: u64,
    span: u64,
    delta: u64,
    xw: u64,
    xr: u64,
    /// The read tag of several groups (global memory; 1 for local memory:
    /// no tag).
    many: u64,
    hi: u64,
    /// Local memory: the group's first serial when the object is wholly
    /// written by that group (`cranecl_check_full`), that with bit 63 set
    /// when it was not.
    full: u64,
}

// Generated code reads the entry at these offsets (`codegen/check.rs`),
// `xw` and `xr` together as one 16-byte vector.
const _: () = {
    use std::mem::offset_of;
    assert!(std::mem::size_of::<CacheEntry>() == 64);
    assert!(offset_of!(CacheEntry, lo) == 0 && offset_of!(CacheEntry, span) == 8);
    assert!(offset_of!(CacheEntry, delta) == 16 && offset_of!(CacheEntry, xw) == 24);
    assert!(offset_of!(CacheEntry, xr) == 32 && offset_of!(CacheEntry, many) == 40);
};

impl Default for CacheEntry {
    /// An entry no address passes (but a non-canonical one, which faults).
    fn default() -> CacheEntry {
        CacheEntry {
            lo: 1 << 63,
            span: 0,
            delta: 0,
            xw: 0,
            xr: 0,
            many: 0,
            hi: 0,
            full: 0,
        }
    }
}

impl CacheEntry {
    fn new(lo: u64, hi: u64, size: u64) -> CacheEntry {
        CacheEntry {
            lo,
            span: (hi - lo).saturating_sub(size),
            hi,
            ..CacheEntry::default()
        }
    }
}

/// One thread's checking state while it runs groups of a launch. Generated
/// code reaches it through `GroupState::check`.
pub struct CheckState {
    cache: Vec<CacheEntry>,
    sites: *const Site,
    nsites: usize,
    launch: *const LaunchCheck,
    launch_id: u64,
    local_lo: u64,
    local_hi: u64,
    /// The argument block (by-value struct arguments are read from it).
    args: [u64; 2],
    local_shadow: Option<Shadow>,
    /// This thread's run of serials: next free, end.
    serials: [u64; 2],
    /// The group's linear id in the launch (as the executor numbers them).
    group_linear: u64,
    /// Serials the last group used, and the barriers this one has passed.
    last_use: u64,
    epochs: u64,
    /// Work-items (+1) that read uninitialised local memory: the site,
    /// address and value of each such read (a few).
    tainted: HashMap<u64, Vec<(u32, u64, u64)>>,
    /// The serial ranges this group's acquires made ordered before it.
    acquired: Vec<(u64, u64)>,
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
    f: impl FnOnce(&mut GroupState) -> R,
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
            local_shadow: None,
            serials: [0, 0],
            group_linear: 0,
            last_use: 0,
            epochs: 0,
            tainted: HashMap::new(),
            acquired: Vec::new(),
            scratch: Box::new([0; SCRATCH / 16]),
        })
    });
    let local_lo = group.local_mem;
    let local_hi = group.local_mem + group.local_mem_size;
    if st.launch_id != launch.id
        || st.cache.len() != sites.len().max(1)
        || (st.local_lo, st.local_hi) != (local_lo, local_hi)
    {
        st.cache.clear();
        st.cache.resize(sites.len().max(1), CacheEntry::default());
        st.launch_id = launch.id;
    }
    st.sites = sites.as_ptr();
    st.nsites = sites.len();
    st.launch = launch;
    st.local_lo = local_lo;
    st.local_hi = local_hi;
    st.group_linear = group_linear;
    st.args = [
        args.as_ptr() as u64,
        args.as_ptr() as u64 + args.len() as u64,
    ];
    if launch.checks.tracks() {
        begin_group(st.as_mut(), launch, sites, group, group_linear);
    }
    group.check = &mut *st as *mut CheckState as u64;
    group.check_cache = st.cache.as_mut_ptr() as u64;
    let r = f(group);
    if launch.checks.tracks() {
        end_group(&mut st, group);
    }
    st.launch = std::ptr::null();
    STATE.with(|s| *s.borrow_mut() = Some(st));
    r
}

/// `races`/`uninit`: set up group `group_linear` of `launch` on this
/// thread (`with_state`, and `between_groups` in a run): its serials, its
/// entry in the launch's log of groups, and for a group with local memory
/// the rest (`begin_group_local`). A run of one-item groups passes here
/// once per group: the common case stays short.
#[inline]
fn begin_group(
    st: &mut CheckState,
    launch: &LaunchCheck,
    sites: &[Site],
    group: &mut GroupState,
    group_linear: u64,
) {
    // This group's serials: from the thread's run when it was taken
    // during this launch and has room for as many barriers as the last
    // group passed (and some), else a new run.
    let need = 2 * st.last_use + 16;
    if st.serials[0] <= launch.serial() || st.serials[1] - st.serials[0] < need {
        new_serials(st, need);
    }
    let base = st.serials[0];
    st.epochs = 0;
    group.check_base = base;
    group.check_serial.store(base, Ordering::Relaxed);
    let groups: u64 = group.num_groups[..3].iter().product();
    launch.log_group(group_linear, base, groups);
    if group.local_mem_size != 0 || base >= SERIAL_LIMIT {
        begin_group_local(st, launch, sites, group, base);
    }
    // (Clearing an empty map still sweeps its table.)
    if !st.tainted.is_empty() {
        st.tainted.clear();
    }
    if !st.acquired.is_empty() {
        st.acquired.clear();
    }
}

/// A new run of serials for this thread, at least `need` long.
#[cold]
fn new_serials(st: &mut CheckState, need: u64) {
    let len = need.max(256);
    let b = NEXT_SERIAL.fetch_add(len, Ordering::Relaxed);
    st.serials = [b, b + len];
}

/// `begin_group` for a group with local memory, or once serials ran out
/// (`base` at `SERIAL_LIMIT` or past it: every entry emptied, so that the
/// runtime sees each access and follows none): the local shadow and the
/// cache's local thresholds, the local arena poisoned for `uninit`.
#[inline(never)]
fn begin_group_local(
    st: &mut CheckState,
    launch: &LaunchCheck,
    sites: &[Site],
    group: &mut GroupState,
    base: u64,
) {
    let (local_lo, local_hi) = (st.local_lo, st.local_hi);
    let live = base < SERIAL_LIMIT;
    let size = group.local_mem_size;
    if st
        .local_shadow
        .as_ref()
        .is_none_or(|s| s.base != local_lo || (s.words as u64 / 2) * 4 < size + 4)
    {
        st.local_shadow = Some(Shadow::new(local_lo, size));
        st.cache.iter_mut().for_each(|c| *c = CacheEntry::default());
    }
    // Local entries of the cache: the thresholds follow the group.
    for (i, c) in st.cache.iter_mut().enumerate() {
        if c.delta != 0 && c.lo >= local_lo && c.hi <= local_hi && c.hi > c.lo {
            let write = sites.get(i).is_some_and(|s| s.kind == SiteKind::Write);
            c.xw = if write { base } else { 0 };
            c.xr = base;
        }
        if !live {
            *c = CacheEntry::default();
        }
    }
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

/// `races`/`uninit`: the group that ran gives back the serials it did
/// not use.
fn end_group(st: &mut CheckState, group: &GroupState) {
    let last = group.check_serial.load(Ordering::Relaxed);
    st.last_use = st.epochs + 1;
    st.serials[0] = last + 1;
}

/// Between two groups of a run (`runtime::groups`, the state already
/// moved on to the next group in linear order): under `races`/`uninit`,
/// the last group ends and the next begins as `with_state` does for one.
///
/// # Safety
/// `group` is the run's `GroupState`, inside `with_state` (its `check` is
/// this thread's state, with the launch set).
pub unsafe extern "C" fn between_groups(group: *mut GroupState) {
    // SAFETY: the caller's contract.
    let group = unsafe { &mut *group };
    if group.check == 0 {
        return;
    }
    // SAFETY: `check` points at this thread's state while the run goes on.
    let st = unsafe { &mut *(group.check as *mut CheckState) };
    // SAFETY: `launch` is set while the run goes on.
    let launch = unsafe { &*st.launch };
    if !launch.checks.tracks() {
        return;
    }
    end_group(st, group);
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let linear = st.group_linear + 1;
    st.group_linear = linear;
    begin_group(st, launch, sites, group, linear);
}

fn header(site: &Site, message: &str) -> String {
    format!("{}: error: {message}\n{}", site.location, site.snippet)
}

fn note(site: &Site, message: &str) -> String {
    format!("{}: note: {message}\n{}", site.location, site.snippet)
}

/// The work-item's ids, as reports print them.
fn ids(item: &ItemState, g: &GroupState) -> String {
    ids_at(&item.local_id[..3], g)
}

/// The ids of the work-item with local id `local`.
fn ids_at(local: &[u64], g: &GroupState) -> String {
    let gid: [u64; 3] = std::array::from_fn(|d| {
        g.group_id[d] * g.enqueued_local_size[d] + local[d] + g.global_offset[d]
    });
    format!(
        "global id ({}), local id ({}), group id ({})",
        id_list(&gid, g),
        id_list(local, g),
        id_list(&g.group_id, g)
    )
}

/// [`ids`] of the work-item whose local linear id + 1 is `me` (the lanes
/// run four per `ItemState`), or of `item` when `me` names none.
fn ids_me(item: &ItemState, g: &GroupState, me: u64) -> String {
    if me & LANE_OF_ITEM != 0 {
        let l = &item.local_id;
        return ids_at(&[l[0] + (me & 0xFF), l[1], l[2]], g);
    }
    let me = match me & 0xFFFF {
        SEVERAL => me >> 16,
        m => m,
    };
    if me == 0 || me >= ATOMIC {
        return ids(item, g);
    }
    let l = me - 1;
    let (lx, ly) = (g.local_size[0].max(1), g.local_size[1].max(1));
    ids_at(&[l % lx, (l / lx) % ly, l / (lx * ly)], g)
}

/// Where `addr` is, relative to the nearest object (for messages).
fn describe_addr(local_lo: u64, launch: &LaunchCheck, addr: u64, size: Option<u64>) -> String {
    let size = size.unwrap_or(1);
    let objects = launch.of.objects.iter().map(|o| (o.lo, o.hi, o)).chain(
        launch
            .of
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

/// Which shadow follows an object.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    No,
    /// `launch.of.objects[i]`'s.
    Object(usize),
    Local,
}

/// The object holding `[addr, addr + size)`: its bounds, space and shadow.
fn find(
    st: &CheckState,
    item: &ItemState,
    addr: u64,
    size: u64,
) -> Option<(u64, u64, Space, Follow)> {
    let end = addr.checked_add(size)?;
    let inside = |lo: u64, hi: u64| addr >= lo && end <= hi;
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    for (i, o) in launch.of.objects.iter().enumerate() {
        if inside(o.lo, o.hi) {
            let f = if o.shadow.is_some() {
                Follow::Object(i)
            } else {
                Follow::No
            };
            return Some((o.lo, o.hi, o.space, f));
        }
    }
    for o in &launch.of.local_objects {
        let (lo, hi) = (st.local_lo + o.lo, st.local_lo + o.hi);
        if inside(lo, hi) {
            return Some((lo, hi, Space::Local, Follow::Local));
        }
    }
    if inside(st.args[0], st.args[1]) {
        return Some((st.args[0], st.args[1], Space::Private, Follow::No));
    }
    if inside(item.private_lo, item.private_hi) {
        return Some((item.private_lo, item.private_hi, Space::Private, Follow::No));
    }
    if item.arena_hi > item.arena_lo && inside(item.arena_lo, item.arena_hi) {
        return Some((item.arena_lo, item.arena_hi, Space::Private, Follow::No));
    }
    // Fine-grain system SVM: the host's own memory, whose bounds nobody
    // knows, is the program's business.
    if launch.of.system_memory
        && cranecl_memory::registry::lookup(addr as usize).is_none()
        && cranecl_memory::registry::lookup((end - 1) as usize).is_none()
    {
        return Some((addr, end, Space::Global, Follow::No));
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
    me: u64,
    value2: u64,
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
        Some((lo, hi, space, follow)) => {
            let follow = if launch.checks.tracks() && group.check_base < SERIAL_LIMIT {
                follow
            } else {
                Follow::No
            };
            let follow = match follow {
                // Global memory is followed for races only.
                Follow::Object(_) if !launch.checks.races => Follow::No,
                f => f,
            };
            // A work-item that read uninitialised local memory: its global
            // writes are compared with what it read, here.
            let tainted_write = launch.checks.uninit
                && !st.tainted.is_empty()
                && space == Space::Global
                && s.kind == SiteKind::Write;
            let plain = CacheEntry::new(lo, hi, size);
            let entry = match follow {
                Follow::No => Some(plain),
                Follow::Object(i) => launch.of.objects[i].shadow.as_ref().map(|sh| CacheEntry {
                    delta: sh.delta(),
                    xw: launch.serial(),
                    xr: launch.serial(),
                    many: (launch.serial() << 32) | SEVERAL,
                    ..plain
                }),
                Follow::Local => st.local_shadow.as_ref().map(|sh| CacheEntry {
                    delta: sh.delta(),
                    xw: if s.kind == SiteKind::Write {
                        group.check_base
                    } else {
                        0
                    },
                    xr: group.check_base,
                    many: 1,
                    ..plain
                }),
            };
            if let Some(c) = st.cache.get_mut(site as usize) {
                *c = if tainted_write {
                    CacheEntry::default()
                } else {
                    entry.unwrap_or_default()
                };
            }
            if follow != Follow::No {
                track(
                    st, launch, sites, item, group, addr, site, space, follow, value, me,
                );
            }
            if tainted_write {
                uninit_write(st, launch, sites, item, group, site, [value, value2], me);
            }
            addr
        }
        None => {
            let kind = if write {
                Kind::InvalidWrite
            } else {
                Kind::InvalidRead
            };
            // The lanes' access of four work-items' 4-byte elements: the
            // report names the first work-item whose own element is
            // outside, and its 4 bytes (as the work-item wrote them).
            let (addr, size, me) = match (s.lanes, me) {
                (true, m) if m != 0 => (0..4u64)
                    .map(|k| (addr + 4 * k, 4, m + k))
                    .find(|&(a, n, _)| find(st, item, a, n).is_none())
                    .unwrap_or((addr, size, m)),
                _ => (addr, size, me),
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
                let _ = writeln!(
                    t,
                    "  kernel '{}', {}",
                    launch.of.kernel,
                    ids_me(item, group, me)
                );
                t
            });
            st.scratch.fill(0);
            st.scratch.as_ptr() as u64
        }
    }
}

/// Checked `bounds`' test of a whole loop's accesses `p[k]` before the loop
/// (`codegen/check.rs`, `range_precheck`): whether `[lo, hi)` lies inside
/// one object the kernel may access; when it does, `site`'s cache names
/// that object, so the next test passes inline. Reports nothing: when the
/// range is not inside, the loop's checked copy runs and reports the
/// accesses it makes.
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_range(
    item: *mut ItemState,
    lo: u64,
    hi: u64,
    site: u32,
) -> u64 {
    // SAFETY: the caller's contract, as `cranecl_check_access`'s.
    let (item, st) = unsafe {
        let item = &*item;
        (item, &mut *((*item.group).check as *mut CheckState))
    };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let Some(s) = sites.get(site as usize) else {
        return 0;
    };
    let size = u64::from(s.size);
    if hi < lo || hi - lo < size {
        return 0;
    }
    match find(st, item, lo, hi - lo) {
        Some((olo, ohi, _, _)) => {
            if let Some(c) = st.cache.get_mut(site as usize) {
                *c = CacheEntry::new(olo, ohi, size);
            }
            1
        }
        None => 0,
    }
}

/// Race and uninit bookkeeping for one in-bounds access of a followed
/// object (`follow`), in its shadow.
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
    follow: Follow,
    value: u64,
    me: u64,
) {
    let s = &sites[site as usize];
    let serial = group.check_serial.load(Ordering::Relaxed);
    let acquired = st.acquired.clone();
    let who = Who {
        tag: tag(serial, site, me),
        serial,
        base: group.check_base,
        launch: (space != Space::Local).then(|| launch.serial()),
        acquired: &acquired,
        read_for_write: s.read_for_write,
    };
    let write = s.kind == SiteKind::Write;
    let atomic = s.kind == SiteKind::Atomic;
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
    let shadow = match follow {
        Follow::Object(i) => launch.of.objects[i].shadow.as_deref(),
        Follow::Local => st.local_shadow.as_ref(),
        Follow::No => None,
    };
    let Some(shadow) = shadow else {
        return;
    };
    let met = if s.lanes {
        // Granule k is lane k's work-item's (an uninitialised read taints
        // that work-item with its 4 bytes).
        let mut met = None;
        let mut taints = Vec::new();
        for k in 0..u64::from(s.size) / 4 {
            let who = Who {
                tag: tag(serial, site, me + k),
                ..who
            };
            let m = shadow_access(
                shadow,
                addr + 4 * k,
                4,
                write,
                atomic,
                &who,
                false,
                launch.checks.races_strict,
            );
            match m {
                Some(Met::Uninit) if launch.checks.uninit => taints.push(k),
                m => met = met.or(m),
            }
        }
        for k in taints {
            taint(
                st,
                &[me + k],
                site,
                addr + 4 * k,
                read_bits(addr + 4 * k, 4),
            );
        }
        met
    } else {
        shadow_access(
            shadow,
            addr,
            u64::from(s.size),
            write,
            atomic,
            &who,
            same_value,
            launch.checks.races_strict,
        )
    };
    match met {
        // An uninitialised read is reported when the work-item that made
        // it then writes what it read, unchanged, to global memory (local
        // memory starts filled with a poison pattern, so such a value is
        // recognisable): a value read and thrown away (a scan's padding
        // lanes) is not an error. Values computed from it are not followed.
        Some(Met::Uninit) if launch.checks.uninit && s.size <= 8 => {
            let items = items_of(me);
            taint(st, &items, site, addr, read_bits(addr, s.size));
        }
        Some(Met::Race(other, other_wrote)) if launch.checks.races => {
            report_race(
                st,
                launch,
                sites,
                item,
                group,
                addr,
                site,
                space,
                &who,
                other,
                other_wrote,
            );
        }
        None | Some(_) => {}
    }
}

/// Work-items `items` read uninitialised local memory at `addr` (`bits`):
/// their global writes of that value are reported (`uninit_write`).
fn taint(st: &mut CheckState, items: &[u64], site: u32, addr: u64, bits: u64) {
    if st.tainted.is_empty() {
        // From now on in this group global writes take the slow path.
        st.cache.iter_mut().for_each(|c| *c = CacheEntry::default());
    }
    for &me in items {
        let taints = st.tainted.entry(me).or_default();
        if taints.len() < 8 && !taints.iter().any(|t| t.2 == bits) {
            taints.push((site, addr, bits));
        }
    }
}

/// A global write by a work-item that read uninitialised local memory: a
/// report when it writes a value it read.
#[allow(clippy::too_many_arguments)]
fn uninit_write(
    st: &CheckState,
    launch: &LaunchCheck,
    sites: &[Site],
    item: &ItemState,
    group: &GroupState,
    site: u32,
    values: [u64; 2],
    me: u64,
) {
    let s = &sites[site as usize];
    if !s.value_known {
        return;
    }
    // A lanes store: lane k's 4-byte value is work-item me + k's.
    let writes: Vec<(u64, u64, u64)> = if s.lanes {
        (0..4u64)
            .map(|k| {
                let v = values[(k / 2) as usize] >> (32 * (k % 2));
                (me + k, v & 0xFFFF_FFFF, 0xFFFF_FFFF)
            })
            .collect()
    } else {
        let mask = if s.size >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * s.size)) - 1
        };
        vec![(me & 0xFFFF, values[0], mask)]
    };
    for (me, value, mask) in writes {
        let hit = st
            .tainted
            .get(&me)
            .and_then(|ts| ts.iter().find(|t| t.2 & mask == value & mask).copied());
        let Some((read_site, read_addr, _)) = hit else {
            continue;
        };
        let r = &sites[read_site as usize];
        let obj = describe_addr(st.local_lo, launch, read_addr, Some(u64::from(r.size)));
        launch.report(Kind::Uninit, (canonical(sites, read_site), 0), || {
            let mut t = header(
                r,
                &format!(
                    "read of {} bytes of uninitialised local memory {obj}: no work-item of the group has written it",
                    r.size
                ),
            );
            let _ = writeln!(t, "  kernel '{}', {}", launch.of.kernel, ids_me(item, group, me));
            t.push_str(&note(s, "the work-item writes the value it read to global memory here"));
            t
        });
    }
}

/// The first site at `site`'s place: reports merge by place (the lanes
/// make a site per lane for one source access).
fn canonical(sites: &[Site], site: u32) -> u32 {
    let Some(s) = sites.get(site as usize) else {
        return site;
    };
    sites
        .iter()
        .position(|x| x.location == s.location && x.kind == s.kind)
        .map_or(site, |i| i as u32)
}

/// The work-items (local linear id + 1) an access was made for: one, or
/// those of a lanes step (`me0 << 16 | SEVERAL`: an access the lanes make
/// once for all of them; checked mode's steps have the most work-items,
/// `lanes::step_regs`).
fn items_of(me: u64) -> Vec<u64> {
    let me0 = me >> 16;
    if me & 0xFFFF == SEVERAL && me0 != 0 {
        (me0..me0 + crate::codegen::MAX_LANES as u64).collect()
    } else {
        vec![me & 0xFFFF]
    }
}

/// Report a race between this access and the one tagged `other`.
#[allow(clippy::too_many_arguments)]
fn report_race(
    st: &CheckState,
    launch: &LaunchCheck,
    sites: &[Site],
    item: &ItemState,
    group: &GroupState,
    addr: u64,
    site: u32,
    space: Space,
    who: &Who,
    other: u64,
    other_wrote: bool,
) {
    let s = &sites[site as usize];
    let write = s.kind == SiteKind::Write;
    let other_site = site_of(other);
    let o = sites.get(other_site as usize);
    let obj = describe_addr(st.local_lo, launch, addr, Some(u64::from(s.size)));
    let what = |w: bool| if w { "write" } else { "read" };
    if who.my_group(other) {
        let name = |t: u64| {
            if item_of(t) == SEVERAL {
                "several work-items".to_string()
            } else {
                format!("local linear id {}", item_of(t).saturating_sub(1))
            }
        };
        // The report stands at the write (when one of the two reads), so
        // that the order the work-items ran in does not move it.
        let flip = other_wrote && !write && o.is_some();
        let (here, there, here_write, there_write, by) = match o {
            Some(o) if flip => (o, Some(s), true, false, who.tag),
            _ => (s, o, write, other_wrote, other),
        };
        let there_loc = there.map_or("an unnamed place", |t| t.location.as_str());
        let key = (canonical(sites, site), canonical(sites, other_site));
        let key = (key.0.min(key.1), key.0.max(key.1));
        launch.report(Kind::Race, key, || {
            let mut t = header(
                here,
                &format!(
                    "data race in {} memory: {} of {} bytes here and a {} by {} at {there_loc} with no barrier between; {obj}",
                    space.as_str(),
                    what(here_write),
                    here.size,
                    what(there_write),
                    name(by),
                ),
            );
            // The work-item whose access stands here: the writer's when
            // the report moved to the other access.
            let here_me = if flip { other } else { who.tag };
            let _ = writeln!(t, "  kernel '{}', {}", launch.of.kernel, ids_me(item, group, item_of(here_me)));
            if let Some(there) = there {
                t.push_str(&note(there, &format!("the other {} is here", what(there_write))));
            }
            t
        });
        return;
    }
    // Between groups the report stands at the write (the same whichever
    // group ran first).
    let mine = st.group_linear;
    let theirs = if item_of(other) == SEVERAL && !other_wrote {
        None
    } else {
        launch.group_of(serial_of(other))
    };
    let name = |g: Option<u64>| {
        g.map_or("other work-groups".to_string(), |g| {
            format!("work-group {g}")
        })
    };
    let (ws, wg, os, og, o_write) = if other_wrote && !write {
        (o, theirs, Some(s), Some(mine), false)
    } else {
        (Some(s), Some(mine), o, theirs, other_wrote)
    };
    let Some(ws) = ws else {
        return;
    };
    let os_loc = os.map_or("an unnamed place", |o| o.location.as_str());
    let (a, b) = if other_wrote && !write {
        (other_site, site)
    } else {
        (site, other_site)
    };
    let (a, b) = (canonical(sites, a), canonical(sites, b));
    launch.report(Kind::Race, (a, b), || {
        let mut t = header(
            ws,
            &format!(
                "data race in global memory between work-groups: a write here by {} and a {} by {} at {os_loc} (the groups of a launch run in no defined order); {obj}",
                name(wg),
                what(o_write),
                name(og),
            ),
        );
        let _ = writeln!(t, "  kernel '{}', {}", launch.of.kernel, ids_me(item, group, item_of(who.tag)));
        if let Some(os) = os {
            t.push_str(&note(os, &format!("the other {} is here", what(o_write))));
        }
        t
    });
}

/// The slow path of `a[i]` on an array object: `index` is outside
/// `[0, len)`; report it and return 0 (the access goes to the first element).
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_index(
    item: *mut ItemState,
    index: i64,
    site: u32,
    me: u64,
) -> i64 {
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
    launch.report(Kind::Index, (canonical(sites, site), 0), || {
        let mut t = header(
            s,
            &format!(
                "index {index} is outside the bounds of the array '{}' of {} elements",
                s.text, s.len
            ),
        );
        let _ = writeln!(
            t,
            "  kernel '{}', {}",
            launch.of.kernel,
            ids_me(item, group, me)
        );
        t
    });
    0
}

/// [`cranecl_check_image`]'s access: a write (else a read).
pub const IMAGE_WRITE: u32 = 1;
/// A read with a sampler (its bits are the sampler's).
pub const IMAGE_SAMPLER: u32 = 2;
/// Float coordinates (else int).
pub const IMAGE_FLOAT_COORDS: u32 = 4;

/// What an image is, as reports name it: `a 2D image of 16 x 8 pixels`.
fn image_geometry(d: &cranecl_memory::image::ImageDesc) -> String {
    use cranecl_memory::image::image_type::*;
    let (w, h, dd, a) = (d.width, d.height, d.depth, d.array_size);
    match d.image_type {
        IMAGE1D => format!("a 1D image of {w} pixels"),
        IMAGE1D_BUFFER => format!("a 1D image buffer of {w} pixels"),
        IMAGE1D_ARRAY => format!("a 1D image array of {w} pixels x {a} layers"),
        IMAGE2D => format!("a 2D image of {w} x {h} pixels"),
        IMAGE2D_ARRAY => format!("a 2D image array of {w} x {h} pixels x {a} layers"),
        _ => format!("a 3D image of {w} x {h} x {dd} pixels"),
    }
}

/// The lanes' quick test before [`cranecl_check_image`]: whether the image
/// accesses of four work-items (lane `k`'s coordinates `coords[c][k]`,
/// component by component) would all pass it — the image's flags allow the
/// access and every lane's coordinates are inside or defined by the
/// sampler. Reports nothing; when it answers false the caller checks lane
/// by lane (and those calls report).
///
/// # Safety
/// As [`cranecl_check_image`].
pub unsafe fn image_lanes_clean(
    item: *mut ItemState,
    img: &cranecl_memory::image::ImageDesc,
    access: u32,
    sampler_bits: u32,
    coords: &[[u32; 4]; 4],
) -> bool {
    use cranecl_memory::image;
    let write = access & IMAGE_WRITE != 0;
    // SAFETY: as in `cranecl_check_access`.
    let st = unsafe { &*((*(*item).group).check as *const CheckState) };
    if st.launch.is_null() {
        return true;
    }
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    let forbidden = launch
        .of
        .images
        .iter()
        .find(|a| a.desc == img as *const image::ImageDesc as u64)
        .is_some_and(|a| if write { a.read_only } else { a.write_only });
    if forbidden {
        return false;
    }
    (0..4).all(|k| {
        let c = [coords[0][k], coords[1][k], coords[2][k], coords[3][k]];
        if write {
            image::write_outside(img, c.map(|v| v as i32)).is_none()
        } else {
            image::read_outside(
                img,
                access & IMAGE_SAMPLER != 0,
                sampler_bits,
                access & IMAGE_FLOAT_COORDS != 0,
                c,
            )
            .is_none()
        }
    })
}

/// Checked `bounds` of one image access by the work-item (`me`, as
/// [`cranecl_check_access`]) at `site`: a read of an image created
/// `CL_MEM_WRITE_ONLY` or a write of one created `CL_MEM_READ_ONLY`
/// (undefined, says the API's memory flags table), and a coordinate where
/// the spec leaves the access undefined (`image::read_outside`,
/// `image::write_outside`) are reported. Answers whether the access may go
/// on: after a report the read gives zeros and the write is dropped.
///
/// # Safety
/// As [`cranecl_check_access`]; `img` is the descriptor of an image
/// argument of the launch.
pub unsafe fn cranecl_check_image(
    item: *mut ItemState,
    site: u32,
    me: u64,
    img: &cranecl_memory::image::ImageDesc,
    access: u32,
    sampler_bits: u32,
    coord: [u32; 4],
) -> bool {
    use cranecl_memory::image;
    let write = access & IMAGE_WRITE != 0;
    let sampler = access & IMAGE_SAMPLER != 0;
    let float_coords = access & IMAGE_FLOAT_COORDS != 0;
    // SAFETY: as in `cranecl_check_access`.
    let (item, group, st) = unsafe {
        let item = &*item;
        let group = &*item.group;
        (item, group, &*(group.check as *const CheckState))
    };
    if st.launch.is_null() {
        return true;
    }
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    let arg = launch
        .of
        .images
        .iter()
        .find(|a| a.desc == img as *const image::ImageDesc as u64);
    let forbidden = arg.is_some_and(|a| if write { a.read_only } else { a.write_only });
    let outside = if write {
        image::write_outside(img, coord.map(|c| c as i32))
    } else {
        image::read_outside(img, sampler, sampler_bits, float_coords, coord)
    };
    if !forbidden && outside.is_none() {
        return true;
    }
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let Some(s) = sites.get(site as usize) else {
        return false;
    };
    let name = format!(
        "{} ({})",
        arg.map_or("an image", |a| a.name.as_str()),
        image_geometry(img)
    );
    let verb = if write {
        "invalid write to"
    } else {
        "invalid read of"
    };
    let (n, layer_at) = image::coord_layout(img);
    let used: Vec<usize> = (0..n).chain(layer_at).collect();
    let show = |k: usize| {
        if float_coords {
            format!("{:?}", f32::from_bits(coord[k]))
        } else {
            (coord[k] as i32).to_string()
        }
    };
    let at = used.iter().map(|&k| show(k)).collect::<Vec<_>>().join(", ");
    let place = if used.len() > 1 {
        format!("({at})")
    } else {
        at
    };
    let (kind, message) = if forbidden {
        let flag = if write {
            "CL_MEM_READ_ONLY"
        } else {
            "CL_MEM_WRITE_ONLY"
        };
        (
            Kind::ImageAccess,
            format!(
                "{verb} {name} at {place}: the image was created with {flag}, so a kernel's {} is undefined",
                if write { "write" } else { "read" }
            ),
        )
    } else {
        let k = outside.unwrap_or(0);
        let e = img.extent();
        let (axis, size) = if Some(k) == layer_at {
            ("the layer".to_string(), e[2])
        } else {
            (["x", "y", "z"][k.min(2)].to_string(), e[k.min(2)])
        };
        let how = if write {
            String::new()
        } else if sampler {
            " with a CLK_ADDRESS_NONE sampler".to_string()
        } else {
            " without a sampler".to_string()
        };
        let why = if float_coords && !f32::from_bits(coord[k]).is_finite() {
            format!("{axis} is {}, which the spec leaves undefined", show(k))
        } else if float_coords && sampler_bits & image::sampler::NORMALIZED_COORDS_TRUE != 0 {
            let u = f32::from_bits(coord[k]) * size as f32;
            format!("{axis} is {u:?} in pixels, outside [0, {size})")
        } else if float_coords {
            format!("{axis} is outside [0, {size})")
        } else {
            format!("{axis} is outside [0, {}]", size as i64 - 1)
        };
        let kind = if write {
            Kind::InvalidWrite
        } else {
            Kind::InvalidRead
        };
        let how = if float_coords && !f32::from_bits(coord[k]).is_finite() {
            String::new()
        } else {
            how
        };
        (kind, format!("{verb} {name} at {place}{how}: {why}"))
    };
    launch.report(kind, (canonical(sites, site), 0), || {
        let mut t = header(s, &message);
        let _ = writeln!(
            t,
            "  kernel '{}', {}",
            launch.of.kernel,
            ids_me(item, group, me)
        );
        t
    });
    false
}

/// A new epoch: the group's next serial, from a new run of serials when
/// its run is used up (the serials in between then count as the group's
/// own earlier ones: a race with them may go unseen, none is invented).
fn next_epoch(st: &mut CheckState, group: &GroupState) {
    st.epochs += 1;
    let serial = group.check_serial.load(Ordering::Relaxed) + 1;
    if serial < st.serials[1] {
        group.check_serial.store(serial, Ordering::Relaxed);
        return;
    }
    let len = (2 * st.epochs).clamp(256, 1 << 16);
    let b = NEXT_SERIAL.fetch_add(len, Ordering::Relaxed);
    st.serials = [b, b + len];
    group.check_serial.store(b, Ordering::Relaxed);
}

/// Sub-groups released from a sub-group barrier (coroutines): a new epoch
/// for the whole group, so that the work-items of a sub-group see each
/// other's accesses before the barrier as ordered. Accesses of two other
/// sub-groups on either side of it then count as ordered too: such a race
/// may go unseen, none is invented.
pub fn sub_group_round(group: &GroupState) {
    if group.check == 0 {
        return;
    }
    // SAFETY: `check` points at this thread's state while the group runs.
    let st = unsafe { &mut *(group.check as *mut CheckState) };
    next_epoch(st, group);
}

/// A barrier of a group run by the region strategy (every work-item has
/// reached it): a new epoch.
///
/// # Safety
/// `item` is the `ItemState` generated code was given, in a group run by
/// [`with_state`].
pub unsafe extern "C" fn cranecl_check_barrier(item: *mut ItemState) {
    // SAFETY: the caller's contract.
    let (group, st) = unsafe {
        let group = &*(*item).group;
        (group, &mut *(group.check as *mut CheckState))
    };
    next_epoch(st, group);
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
    next_epoch(st, group);
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
            launch.of.kernel,
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
        let _ = writeln!(t, "  kernel '{}', {}", launch.of.kernel, ids(item, group));
        t.push_str(&note(
            d,
            &format!("'{}' is declared here without an initialiser", d.text),
        ));
        t
    });
}

/// A barrier of a group run by the region strategy, which every live
/// work-item has reached: a new epoch (`races`, `uninit`); with `barriers`
/// (`site` ≥ 0) and a kernel that may return early (`done` ≥ 0: where a
/// work-item's "returned" flag is in its `frame`-byte frame), every
/// work-item must be live here.
///
/// # Safety
/// `item` is the `ItemState` generated code was given, in a group run by
/// [`with_state`], whose private arena holds the group's frames.
pub unsafe extern "C" fn cranecl_check_region_barrier(
    item: *mut ItemState,
    site: i64,
    frame: i64,
    done: i64,
) {
    // SAFETY: the caller's contract.
    let (item, group) = unsafe { (&*item, &*(*item).group) };
    if group.check == 0 {
        return;
    }
    // SAFETY: `check` points at this thread's state while the group runs.
    let st = unsafe { &mut *(group.check as *mut CheckState) };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    if launch.checks.tracks() {
        next_epoch(st, group);
    }
    if site < 0 || done < 0 || frame <= 0 {
        return;
    }
    let n = group.items();
    let returned = |i: u64| {
        let at = item.arena + i * frame as u64 + done as u64;
        if at >= item.arena_hi {
            return false;
        }
        // SAFETY: the frames of the group's `n` work-items lie in the
        // private arena `[arena_lo, arena_hi)`; checked above.
        unsafe { *(at as *const u8) != 0 }
    };
    let first_done = (0..n).find(|&i| returned(i));
    let first_live = (0..n).find(|&i| !returned(i));
    let (Some(d), Some(l)) = (first_done, first_live) else {
        return;
    };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let Some(s) = sites.get(site as usize) else {
        return;
    };
    let live = (0..n).filter(|&i| !returned(i)).count();
    launch.report(Kind::Divergence, (site as u32, u32::MAX), || {
        let mut t = header(
            s,
            &format!(
                "barrier divergence: not every work-item of the group reaches this barrier: local linear id {l} waits here ({live} of {n} work-items), local linear id {d} has returned"
            ),
        );
        let _ = writeln!(t, "  kernel '{}', group id ({})", launch.of.kernel, group_ids(group));
        t
    });
}

/// A decision of the region strategy that leads to a barrier, on which two
/// work-items of a group disagree: the first (`first_lin`) decided `first`,
/// `other_lin` the opposite; `site_true`/`site_false` are the first
/// barriers each way (-1: none).
///
/// # Safety
/// As [`cranecl_check_region_barrier`].
pub unsafe extern "C" fn cranecl_check_region_divergence(
    item: *mut ItemState,
    first: i64,
    first_lin: i64,
    other_lin: i64,
    site_true: i64,
    site_false: i64,
) {
    // SAFETY: the caller's contract.
    let group = unsafe { &*(*item).group };
    if group.check == 0 {
        return;
    }
    // SAFETY: `check` points at this thread's state while the group runs.
    let st = unsafe { &*(group.check as *const CheckState) };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    // SAFETY: set by `with_state` from the program's live site table.
    let sites = unsafe { std::slice::from_raw_parts(st.sites, st.nsites) };
    let (mine, theirs) = if first != 0 {
        (site_true, site_false)
    } else {
        (site_false, site_true)
    };
    let site = |s: i64| usize::try_from(s).ok().and_then(|s| sites.get(s));
    let (here, there, message) = match (site(mine), site(theirs)) {
        (Some(h), Some(o)) => (
            (h, mine),
            Some((o, theirs)),
            format!(
                "barrier divergence: work-items of a group wait at different barriers: local linear id {first_lin} here, local linear id {other_lin} at {}",
                o.location
            ),
        ),
        (Some(h), None) => (
            (h, mine),
            None,
            format!(
                "barrier divergence: not every work-item of the group reaches this barrier: local linear id {first_lin} waits here, local linear id {other_lin} does not"
            ),
        ),
        (None, Some(o)) => (
            (o, theirs),
            None,
            format!(
                "barrier divergence: not every work-item of the group reaches this barrier: local linear id {other_lin} waits here, local linear id {first_lin} does not"
            ),
        ),
        (None, None) => return,
    };
    let key = (here.1 as u32, there.map_or(u32::MAX, |t| t.1 as u32));
    launch.report(Kind::Divergence, key, || {
        let mut t = header(here.0, &message);
        let _ = writeln!(
            t,
            "  kernel '{}', group id ({})",
            launch.of.kernel,
            group_ids(group)
        );
        if let Some((o, _)) = there {
            t.push_str(&note(o, "the other barrier is here"));
        }
        t
    });
}

fn group_ids(g: &GroupState) -> String {
    id_list(&g.group_id, g)
}

/// `a`'s first `work_dim` entries, as reports print ids.
fn id_list(a: &[u64], g: &GroupState) -> String {
    let dims = (g.work_dim as usize).clamp(1, 3);
    a[..dims]
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// `cranecl_check_sync`'s kinds of atomic operation.
pub const SYNC_STORE: u64 = 0;
pub const SYNC_LOAD: u64 = 1;
pub const SYNC_RMW: u64 = 2;

/// Checked races, after an atomic operation of `kind` on global memory at
/// `addr` with memory order `order` (OpenCL C's `memory_order` values):
/// `old` is the value it read (loads, read-modify-writes), `new` the value
/// it left (stores, read-modify-writes). A release (or acq_rel, seq_cst)
/// store or read-modify-write publishes its group's accesses so far, and
/// those the group acquired; an acquire load or read-modify-write that
/// reads the value a release left (or a later read-modify-write of its
/// release sequence) makes them ordered before this group's later accesses,
/// so message passing between work-groups is no race (inside a group it is
/// not followed). A plain store ends the release sequence. Returns 0.
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_sync(
    item: *mut ItemState,
    addr: u64,
    order: u64,
    kind: u64,
    old: u64,
    new: u64,
) -> u64 {
    // SAFETY: as in `cranecl_check_access`.
    let (group, st) = unsafe {
        let group = &*(*item).group;
        (group, &mut *(group.check as *mut CheckState))
    };
    // SAFETY: `launch` is set while the group runs.
    let launch = unsafe { &*st.launch };
    if !launch.checks.races || group.check_base >= SERIAL_LIMIT {
        return 0;
    }
    // memory_order_consume 1, acquire 2, release 3, acq_rel 4, seq_cst 5.
    let acquire = kind != SYNC_STORE && matches!(order, 1 | 2 | 4 | 5);
    let release = kind != SYNC_LOAD && matches!(order, 3..=5);
    let shards = launch
        .releases
        .get_or_init(|| Box::new(std::array::from_fn(|_| Mutex::new(HashMap::new()))));
    let shard = &shards[(addr as usize >> 2) % RELEASE_SHARDS];
    let mut releases = shard.lock().unwrap_or_else(|p| p.into_inner());
    if acquire {
        if let Some(r) = releases.get(&addr).filter(|r| r.value == old) {
            // Between work-groups only: inside a group the epochs order
            // (and a range of its own would hide its races).
            for &range in &r.ranges {
                let own = (range.0..=range.1).contains(&group.check_base);
                if !own && !st.acquired.contains(&range) {
                    st.acquired.push(range);
                }
            }
        }
    }
    if release {
        let serial = group.check_serial.load(Ordering::Relaxed);
        let mut ranges = vec![(group.check_base, serial)];
        ranges.extend(st.acquired.iter().copied());
        releases.insert(addr, Release { value: new, ranges });
    } else if kind == SYNC_RMW {
        // A read-modify-write continues the release sequence.
        if let Some(r) = releases.get_mut(&addr) {
            r.value = new;
        }
    } else if kind == SYNC_STORE {
        releases.remove(&addr);
    }
    0
}

/// Bit of `CacheEntry::full` saying the object was not wholly written.
pub const NOT_FULL: u64 = 1 << 63;
/// Objects larger than this are not looked at whole.
const FULL_SCAN_LIMIT: u64 = 64 << 10;

/// Checked races/uninit, a read of local memory in a piece that is alone in
/// its barrier interval and writes no local memory (`codegen/regions.rs`):
/// whether the object `site`'s cache entry names was wholly written by this
/// group — each granule's write tag this group's, none followed by byte.
/// If so its entry's `full` becomes the group's first serial and the
/// site's reads of it in such pieces need no look until the group ends: no
/// work-item writes it in their interval, so a read races with nothing and
/// needs no read tag, and a granule the group wrote stays written. Else
/// `full` gets `NOT_FULL` too (not asked again in this group). Returns 0.
///
/// # Safety
/// As [`cranecl_check_access`].
pub unsafe extern "C" fn cranecl_check_full(item: *mut ItemState, site: u32) -> u64 {
    // SAFETY: as in `cranecl_check_access`.
    let (group, st) = unsafe {
        let group = &*(*item).group;
        (group, &mut *(group.check as *mut CheckState))
    };
    let base = group.check_base;
    let (local_lo, local_hi) = (st.local_lo, st.local_hi);
    let Some(shadow) = st.local_shadow.as_ref() else {
        return 0;
    };
    let Some(c) = st.cache.get(site as usize).copied() else {
        return 0;
    };
    let local = c.delta != 0 && c.lo >= local_lo && c.hi <= local_hi && c.hi > c.lo;
    let whole = local
        && c.lo % 4 == 0
        && c.hi % 4 == 0
        && c.hi - c.lo <= FULL_SCAN_LIMIT
        && (c.lo..c.hi).step_by(4).all(|g| {
            shadow.cell(g).is_some_and(|[w, _]| {
                let w = w.load(Ordering::Relaxed);
                w != SPLIT && serial_of(w) >= base
            })
        });
    if let Some(e) = st.cache.get_mut(site as usize) {
        e.full = if whole { base } else { base | NOT_FULL };
    }
    0
}

/// The fast paths' calls of [`cranecl_check_access`] and
/// [`cranecl_check_index`] go through these (x86-64): they save every
/// register the System V convention lets a callee change and leave the
/// result in `ItemState::check_ret`, so generated code calls them with
/// Cranelift's `preserve_all` convention (no register changes, no result in
/// one) and keeps its values in registers across the (cold) call instead of
/// spilling them around every access.
#[cfg(target_arch = "x86_64")]
pub mod preserving {
    extern "C" {
        pub fn cranecl_check_access_preserving();
        pub fn cranecl_check_index_preserving();
        pub fn cranecl_check_full_preserving();
    }

    macro_rules! trampoline {
        ($name:literal, $target:path) => {
            std::arch::global_asm!(
                concat!(".globl ", $name),
                concat!(".type ", $name, ",@function"),
                concat!($name, ":"),
                "push rbp",
                "mov rbp, rsp",
                "push rax",
                "push rcx",
                "push rdx",
                "push rsi",
                "push rdi",
                "push r8",
                "push r9",
                "push r10",
                "push r11",
                "sub rsp, 264",
                "movdqu [rsp + 0], xmm0",
                "movdqu [rsp + 16], xmm1",
                "movdqu [rsp + 32], xmm2",
                "movdqu [rsp + 48], xmm3",
                "movdqu [rsp + 64], xmm4",
                "movdqu [rsp + 80], xmm5",
                "movdqu [rsp + 96], xmm6",
                "movdqu [rsp + 112], xmm7",
                "movdqu [rsp + 128], xmm8",
                "movdqu [rsp + 144], xmm9",
                "movdqu [rsp + 160], xmm10",
                "movdqu [rsp + 176], xmm11",
                "movdqu [rsp + 192], xmm12",
                "movdqu [rsp + 208], xmm13",
                "movdqu [rsp + 224], xmm14",
                "movdqu [rsp + 240], xmm15",
                "call {target}",
                // The result goes to the item's `check_ret` (`preserve_all`
                // calls return nothing in registers).
                "mov rdi, [rbp - 40]",
                "mov [rdi + {ret}], rax",
                "movdqu xmm0, [rsp + 0]",
                "movdqu xmm1, [rsp + 16]",
                "movdqu xmm2, [rsp + 32]",
                "movdqu xmm3, [rsp + 48]",
                "movdqu xmm4, [rsp + 64]",
                "movdqu xmm5, [rsp + 80]",
                "movdqu xmm6, [rsp + 96]",
                "movdqu xmm7, [rsp + 112]",
                "movdqu xmm8, [rsp + 128]",
                "movdqu xmm9, [rsp + 144]",
                "movdqu xmm10, [rsp + 160]",
                "movdqu xmm11, [rsp + 176]",
                "movdqu xmm12, [rsp + 192]",
                "movdqu xmm13, [rsp + 208]",
                "movdqu xmm14, [rsp + 224]",
                "movdqu xmm15, [rsp + 240]",
                "add rsp, 264",
                "pop r11",
                "pop r10",
                "pop r9",
                "pop r8",
                "pop rdi",
                "pop rsi",
                "pop rdx",
                "pop rcx",
                "pop rax",
                "pop rbp",
                "ret",
                concat!(".size ", $name, ", . - ", $name),
                target = sym $target,
                ret = const crate::runtime::offsets::ITEM_CHECK_RET,
            );
        };
    }
    trampoline!(
        "cranecl_check_access_preserving",
        super::cranecl_check_access
    );
    trampoline!("cranecl_check_index_preserving", super::cranecl_check_index);
    trampoline!("cranecl_check_full_preserving", super::cranecl_check_full);
}
