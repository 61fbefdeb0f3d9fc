//! The registry: which allocation an address belongs to.
//!
//! Every allocation a kernel can reach is registered while it lives: buffers
//! (ours, and the user's memory behind `CL_MEM_USE_HOST_PTR`, which we do not
//! own but whose range we know), shared virtual memory allocations, sub-buffers
//! (as children of their buffer, with their own bounds), program-scope
//! variables, and the workers' local and private arenas. A registration is a [`Registration`] value; dropping it
//! removes the entry, so an entry lives exactly as long as its owner keeps it.
//!
//! [`lookup`] answers, for an address, the innermost allocation whose data
//! *or guard region* holds it (a sub-buffer before its buffer; the smallest
//! of overlapping sub-buffers), with its arena, bounds and a label for
//! messages ("a buffer of 16384 bytes"). [`Found::describe`] turns that into
//! the words of an error message ("4 bytes past the end of a buffer of 16384
//! bytes (in its guard region)"). A fault is looked up after recovery, in
//! normal code: the signal handler only records the address.
//!
//! How: one `RwLock` over a `BTreeMap` of top-level allocations keyed by
//! (start, id) — the id keeps two registrations of one address (two
//! `USE_HOST_PTR` buffers on the same host memory) apart. A lookup walks
//! back from the greatest start at or below the address, and stops as soon
//! as an entry's start is further below the address than the largest extent
//! (data and guard) ever registered: no earlier entry can reach it. Owned
//! allocations never overlap, so an address inside one is answered by the
//! first entry looked at, O(log n). Children are a short list per entry.

use parking_lot::RwLock;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// The address space an allocation serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arena {
    Global,
    Constant,
    Local,
    Private,
}

/// What an allocation is, for messages (sizes are the entry's own bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A buffer's data store that we allocated.
    Buffer,
    /// A `CL_MEM_USE_HOST_PTR` buffer: the user's memory.
    HostBuffer,
    /// A shared virtual memory allocation (`clSVMAlloc`).
    Svm,
    /// A sub-buffer starting `origin` bytes into a buffer of `parent_size`.
    SubBuffer { origin: usize, parent_size: usize },
    /// A program's program-scope variables (global and constant).
    ProgramScope,
    /// A worker thread's local arena (work-group local memory).
    LocalArena,
    /// A worker thread's private arena (work-item frames).
    PrivateArena,
    /// A stack work-items run on: a thread's that runs work-groups, or a
    /// coroutine's (private memory of the work-items).
    Stack,
}

impl Kind {
    /// The address space this kind of allocation serves.
    pub fn arena(self) -> Arena {
        match self {
            Kind::Buffer
            | Kind::HostBuffer
            | Kind::Svm
            | Kind::SubBuffer { .. }
            | Kind::ProgramScope => Arena::Global,
            Kind::LocalArena => Arena::Local,
            Kind::PrivateArena | Kind::Stack => Arena::Private,
        }
    }
}

/// One registered allocation.
#[derive(Clone, Debug)]
struct Entry {
    start: usize,
    len: usize,
    guard: usize,
    kind: Kind,
    /// Sub-buffers: (id, start, len, kind).
    children: Vec<(u64, usize, usize, Kind)>,
}

struct Table {
    map: BTreeMap<(usize, u64), Entry>,
    /// The largest `len + guard` ever registered (never decreases).
    reach: usize,
}

static TABLE: RwLock<Table> = RwLock::new(Table {
    map: BTreeMap::new(),
    reach: 0,
});
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A live registration; dropping it removes the entry.
#[derive(Debug)]
pub struct Registration {
    key: (usize, u64),
    /// The key of the parent entry, for a child.
    parent: Option<(usize, u64)>,
}

/// Register `len` bytes at `start`, followed by `guard` bytes of guard
/// region (0 if none), as `kind`.
pub fn register(kind: Kind, start: usize, len: usize, guard: usize) -> Registration {
    let key = (start, NEXT_ID.fetch_add(1, Ordering::Relaxed));
    let mut t = TABLE.write();
    t.reach = t.reach.max(len.saturating_add(guard));
    t.map.insert(
        key,
        Entry {
            start,
            len,
            guard,
            kind,
            children: Vec::new(),
        },
    );
    Registration { key, parent: None }
}

/// Register `len` bytes at `start` inside `parent`'s allocation as `kind`
/// (a sub-buffer). Registering a child of a child makes a sibling.
pub fn register_child(parent: &Registration, kind: Kind, start: usize, len: usize) -> Registration {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let pkey = parent.parent.unwrap_or(parent.key);
    if let Some(e) = TABLE.write().map.get_mut(&pkey) {
        e.children.push((id, start, len, kind));
    }
    Registration {
        key: (start, id),
        parent: Some(pkey),
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut t = TABLE.write();
        match self.parent {
            None => {
                t.map.remove(&self.key);
            }
            Some(p) => {
                if let Some(e) = t.map.get_mut(&p) {
                    e.children.retain(|c| c.0 != self.key.1);
                }
            }
        }
    }
}

/// The allocation an address belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    pub start: usize,
    pub len: usize,
    /// Bytes of guard region after the data (0: none).
    pub guard: usize,
}

/// The innermost live allocation whose data or guard region holds `addr`.
pub fn lookup(addr: usize) -> Option<Found> {
    let t = TABLE.read();
    for (&(start, _), e) in t.map.range(..=(addr, u64::MAX)).rev() {
        if addr - start < e.len.saturating_add(e.guard) {
            return Some(innermost(e, addr));
        }
        if addr - start >= t.reach {
            break;
        }
    }
    None
}

/// `e` or the smallest of its children that holds `addr`.
fn innermost(e: &Entry, addr: usize) -> Found {
    let child = e
        .children
        .iter()
        .filter(|&&(_, s, l, _)| s <= addr && addr - s < l)
        .min_by_key(|c| c.2);
    match child {
        Some(&(_, start, len, kind)) => Found {
            kind,
            start,
            len,
            guard: 0,
        },
        None => Found {
            kind: e.kind,
            start: e.start,
            len: e.len,
            guard: e.guard,
        },
    }
}

impl Found {
    /// The arena of the allocation.
    pub fn arena(&self) -> Arena {
        self.kind.arena()
    }

    /// Where `addr` lies in this allocation, in words for a message: "at
    /// byte 12 of a buffer of 16384 bytes", "just past the end of …",
    /// "4 bytes past the end of a buffer of 16384 bytes (in its guard
    /// region)".
    pub fn describe(&self, addr: usize) -> String {
        let end = self.start + self.len;
        let label = Label(self);
        if addr < end {
            return format!("at byte {} of {label}", addr - self.start);
        }
        let guard = if self.guard > 0 {
            " (in its guard region)"
        } else {
            ""
        };
        match addr - end {
            0 => format!("just past the end of {label}{guard}"),
            d => format!("{d} bytes past the end of {label}{guard}"),
        }
    }
}

/// The short label of an allocation ("a buffer of 16384 bytes").
struct Label<'a>(&'a Found);

impl fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = self.0.len;
        match self.0.kind {
            Kind::Buffer => write!(f, "a buffer of {len} bytes"),
            Kind::HostBuffer => write!(
                f,
                "a buffer of {len} bytes (the host's memory, CL_MEM_USE_HOST_PTR)"
            ),
            Kind::Svm => write!(f, "an SVM allocation of {len} bytes"),
            Kind::SubBuffer {
                origin,
                parent_size,
            } => write!(
                f,
                "sub-buffer [{origin}, {}) of a buffer of {parent_size} bytes",
                origin + len
            ),
            Kind::ProgramScope => write!(f, "the program-scope variables ({len} bytes)"),
            Kind::LocalArena => write!(f, "the local memory of a work-group ({len} bytes)"),
            Kind::PrivateArena => write!(f, "the private frames of a work-group ({len} bytes)"),
            Kind::Stack => write!(f, "a work-item stack ({len} bytes)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Allocation;

    /// A real allocation (so that no other test can register the same
    /// addresses), registered as a buffer with `guard` bytes of guard.
    fn buffer(len: usize, guard: usize) -> (Allocation, Registration) {
        let a = Allocation::zeroed(len + guard, 128).expect("allocation");
        let r = register(Kind::Buffer, a.as_ptr() as usize, len, guard);
        (a, r)
    }

    #[test]
    fn first_last_and_past_the_end() {
        let (a, _r) = buffer(16384, 0);
        let s = a.as_ptr() as usize;
        let hit = |addr| lookup(addr).map(|f| (f.kind, f.start, f.len));
        assert_eq!(hit(s), Some((Kind::Buffer, s, 16384)), "first byte");
        assert_eq!(hit(s + 16383), Some((Kind::Buffer, s, 16384)), "last byte");
        assert_ne!(hit(s + 16384).map(|f| f.1), Some(s), "one past the end");
        assert_eq!(
            lookup(s + 12).unwrap().describe(s + 12),
            "at byte 12 of a buffer of 16384 bytes"
        );
    }

    #[test]
    fn the_guard_region_belongs_to_its_buffer() {
        let (a, _r) = buffer(16384, 4096);
        let s = a.as_ptr() as usize;
        let f = lookup(s + 16384 + 4).expect("in the guard");
        assert_eq!((f.start, f.len, f.arena()), (s, 16384, Arena::Global));
        assert_eq!(
            f.describe(s + 16384 + 4),
            "4 bytes past the end of a buffer of 16384 bytes (in its guard region)"
        );
        assert_eq!(
            f.describe(s + 16384),
            "just past the end of a buffer of 16384 bytes (in its guard region)"
        );
        assert_ne!(
            lookup(s + 16384 + 4096).map(|f| f.start),
            Some(s),
            "past the guard"
        );
    }

    #[test]
    fn the_innermost_sub_buffer_wins() {
        let (a, r) = buffer(16384, 0);
        let s = a.as_ptr() as usize;
        let sub = |origin, len| {
            let kind = Kind::SubBuffer {
                origin,
                parent_size: 16384,
            };
            register_child(&r, kind, s + origin, len)
        };
        let wide = sub(0, 8192);
        let narrow = sub(4096, 4096);
        let at = |off| lookup(s + off).map(|f| f.describe(s + off));
        assert_eq!(
            at(5000).as_deref(),
            Some("at byte 904 of sub-buffer [4096, 8192) of a buffer of 16384 bytes")
        );
        assert_eq!(
            at(100).as_deref(),
            Some("at byte 100 of sub-buffer [0, 8192) of a buffer of 16384 bytes")
        );
        assert_eq!(
            at(9000).as_deref(),
            Some("at byte 9000 of a buffer of 16384 bytes")
        );
        drop(narrow);
        assert_eq!(
            at(5000).as_deref(),
            Some("at byte 5000 of sub-buffer [0, 8192) of a buffer of 16384 bytes")
        );
        drop(wide);
        assert_eq!(
            at(5000).as_deref(),
            Some("at byte 5000 of a buffer of 16384 bytes")
        );
    }

    #[test]
    fn released_buffers_are_gone() {
        let (a, r) = buffer(4096, 0);
        let s = a.as_ptr() as usize;
        assert!(lookup(s + 10).is_some_and(|f| f.start == s));
        drop(r);
        assert!(lookup(s + 10).is_none_or(|f| f.start != s));
    }

    #[test]
    fn host_buffers_on_the_same_memory_are_both_registered() {
        let a = Allocation::zeroed(1024, 128).expect("allocation");
        let s = a.as_ptr() as usize;
        let one = register(Kind::HostBuffer, s, 1024, 0);
        let two = register(Kind::HostBuffer, s, 512, 0);
        assert!(
            lookup(s + 800).is_some_and(|f| f.len == 1024),
            "only the first reaches 800"
        );
        drop(one);
        assert!(lookup(s + 800).is_none_or(|f| f.start != s));
        assert!(lookup(s + 100).is_some_and(|f| f.len == 512));
        drop(two);
    }

    #[test]
    fn concurrent_registration() {
        let threads: Vec<_> = (0..8)
            .map(|t| {
                std::thread::spawn(move || {
                    for i in 0..200 {
                        let len = 64 + 16 * ((t + i) % 7);
                        let (a, r) = buffer(len, 0);
                        let s = a.as_ptr() as usize;
                        let f = lookup(s + len - 1).expect("registered");
                        assert_eq!((f.start, f.len), (s, len), "thread {t} round {i}");
                        drop(r);
                        assert!(lookup(s).is_none_or(|f| f.start != s));
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("no thread failed");
        }
    }
}
