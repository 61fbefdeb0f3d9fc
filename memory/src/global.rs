//! The global arena: buffers' data stores and programs' program-scope
//! variables.
//!
//! A buffer's data store is one [`HostAllocation`]: `size` bytes aligned to
//! the device's `CL_DEVICE_MEM_BASE_ADDR_ALIGN`, zero-initialised, committed
//! only when touched, freed on drop. Creation is fallible: a size the system
//! cannot give returns `None`, never aborts the process (the API turns it
//! into `CL_MEM_OBJECT_ALLOCATION_FAILURE`). The live buffer allocations are
//! counted (number and bytes) so that tests can check that released buffers
//! leave nothing behind.
//!
//! Guard regions: a buffer of at least [`GUARD_THRESHOLD`] bytes gets a
//! mapping of its own whose data ends where an inaccessible guard region of
//! [`guard_size`] bytes begins (see `alloc.rs`), so that a kernel that runs
//! off the end faults — and the fault is reported with the buffer's name —
//! instead of corrupting a neighbour or the host's memory.
//!
//! - Guard size: `max(64 MiB, the buffer's size)`. `mmap` places consecutive
//!   mappings next to each other (each new one just below the previous), so
//!   what lies past buffer B's guard is usually buffer A. A one-element or
//!   one-page overrun is caught by any guard; a wrong stride or a wrong
//!   buffer's index goes further, typically up to about the buffer's own
//!   size (an index range doubled) or a few rows of an image-sized array.
//!   64 MiB covers those for buffers up to 64 MiB, and guard = size for
//!   larger ones. The guard is `PROT_NONE | MAP_NORESERVE` address space: no
//!   memory, no commit charge, and 64 MiB × 65,530 mappings (the kernel's
//!   default `vm.max_map_count`, which runs out first, 2 per buffer) is
//!   4 TiB of the 128 TiB user address space.
//! - Small buffers: below [`GUARD_THRESHOLD`] = 128 KiB a buffer keeps the
//!   heap (`calloc`). Measured on an AMD EPYC VM (2 cores) with
//!   `cargo run --release -p cranecl-memory --example alloc_cost`, create,
//!   touch one byte and free one allocation, and resident memory per live
//!   allocation:
//!
//!   | size    | calloc           | guarded mapping  |
//!   |---------|------------------|------------------|
//!   | 64 B    | 0.07 µs, 0.2 KiB | 17 µs, 4 KiB     |
//!   | 4 KiB   | 0.16 µs, 4 KiB   | 15 µs, 4 KiB     |
//!   | 64 KiB  | 0.8 µs, 47 KiB   | 13 µs, 4 KiB     |
//!   | 256 KiB | 3.1 µs, 136 KiB  | 15 µs, 4 KiB     |
//!   | 1 MiB   | 18 µs, 136 KiB   | 14 µs, 4 KiB     |
//!
//!   A mapping costs about 7 µs of system calls (mmap, mprotect, munmap)
//!   plus a page fault (about 5 µs here) for the first touch, whatever the
//!   size; the 64 MiB guard adds about 2 µs. For small buffers that would
//!   multiply the cost of a create/release by 20 to 200. 128 KiB is glibc's
//!   default `M_MMAP_THRESHOLD`: from there `calloc` itself serves a fresh
//!   block with its own mapping (until its dynamic threshold rises after a
//!   free, which is why 256 KiB measures 3 µs above), so a guarded mapping
//!   costs one more system call than the allocator's own, and from 1 MiB on
//!   it is no slower at all. Small buffers therefore have no guard; checked
//!   mode (issue 8 part 3) is the tool for finding where they are overrun.
//! - Red zones: a small buffer is followed by [`RED_ZONE`] zero bytes of its
//!   own allocation, so that a kernel running a little past its end writes
//!   there, not into the allocator's bookkeeping of the next heap block (a
//!   piglit test whose kernels write 64 bytes past 72-byte buffers made the
//!   host abort later in `free()`, "invalid next size"). The launch checks
//!   the red zones of its buffer arguments when it ends
//!   ([`HostAllocation::overrun`]): a changed one is reported and cleared.
//!   256 bytes is two `double16`s or 64 `float`s. A launch reads only the
//!   first [`RED_ZONE_HEAD`] bytes (a kernel running past the end writes the
//!   bytes right after it; the whole zone cost about 3% of a 1 µs launch
//!   with one buffer argument); the whole zone is read when the buffer is
//!   released.
//!
//!   Through the API (a C loop of `clCreateBuffer` + `clReleaseMemObject`,
//!   through the loader, same machine, before → after guards): 64 B and
//!   4 KiB 0.3 → 0.4 µs, 64 KiB 1.2 µs both (the registry costs under
//!   0.1 µs); 128 KiB 1.8 → 7 µs, 256 KiB 3.5 → 9.5 µs, 1 MiB 18.5 → 7.3 µs.
//!   With a 1-byte write before the release (first touch): 128 KiB 2 →
//!   15–20 µs, 256 KiB 3.9 → 15 µs, 1 MiB 18 → 14–18 µs. Between 128 KiB
//!   and 1 MiB glibc recycles freed blocks from its heap once its dynamic
//!   threshold has risen, warm and without page faults, which a fresh
//!   mapping cannot match; a program that creates and releases such
//!   buffers in a loop pays about 5–15 µs per buffer for the guard. We
//!   accept that for the protection of every buffer from 128 KiB up; 1 MiB
//!   is the threshold to choose if that cost ever matters more.
//!
//! Program-scope variables: one [`ProgramArena`] per program, zeroed,
//! 128-byte aligned, registered as "the program-scope variables".

use crate::alloc::Allocation;
use crate::registry::{self, Kind, Registration};
use std::sync::atomic::{AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// Buffers of at least this many bytes get a guard region.
pub const GUARD_THRESHOLD: usize = 128 << 10;
/// The smallest guard region.
pub const MIN_GUARD: usize = 64 << 20;
/// Zero bytes after the data of a buffer below [`GUARD_THRESHOLD`].
pub const RED_ZONE: usize = 256;
/// The bytes of a red zone a launch looks at (the whole zone is looked at
/// when the buffer goes).
pub const RED_ZONE_HEAD: usize = 32;

/// The guard region after a guarded buffer of `size` bytes.
pub fn guard_size(size: usize) -> usize {
    size.max(MIN_GUARD)
}

/// Number of `HostAllocation`s alive in this process.
pub fn live_allocations() -> usize {
    LIVE.load(Ordering::Acquire)
}

/// Bytes held by live `HostAllocation`s (requested sizes).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Acquire)
}

/// One buffer's data store: zero-initialised, aligned, guarded when large,
/// followed by a red zone when small.
pub struct HostAllocation {
    alloc: Allocation,
    /// The data's size (the allocation holds `len + red_zone` bytes).
    len: usize,
    /// [`RED_ZONE`] for a small buffer, else 0.
    red_zone: usize,
}

impl HostAllocation {
    /// `size` zero bytes aligned to `align` (a power of two), followed by a
    /// guard region from [`GUARD_THRESHOLD`] bytes on and by a red zone
    /// below; `None` if `size` is 0, `align` is not a power of two, or the
    /// system has no memory.
    pub fn zeroed(size: usize, align: usize) -> Option<HostAllocation> {
        let (alloc, red_zone) = if size >= GUARD_THRESHOLD {
            (Allocation::guarded(size, align, guard_size(size))?, 0)
        } else if size == 0 {
            return None;
        } else {
            (Allocation::zeroed(size + RED_ZONE, align)?, RED_ZONE)
        };
        LIVE.fetch_add(1, Ordering::AcqRel);
        LIVE_BYTES.fetch_add(size, Ordering::AcqRel);
        Some(HostAllocation {
            alloc,
            len: size,
            red_zone,
        })
    }

    /// The first byte (aligned as requested).
    pub fn as_ptr(&self) -> *mut u8 {
        self.alloc.as_ptr()
    }

    /// The size in bytes (never 0).
    pub fn len(&self) -> usize {
        self.len
    }

    /// How far past the end something wrote into the red zone: the offset
    /// from the end of the last changed byte, plus one; `None` if the red
    /// zone is as it was made (or there is none). With `head_only`, only the
    /// first [`RED_ZONE_HEAD`] bytes are looked at first (what a launch
    /// checks: a kernel running past the end writes the bytes right after
    /// it), and the rest only if they changed. Reads are volatile: a kernel
    /// still running may write there.
    pub fn overrun(&self, head_only: bool) -> Option<usize> {
        let base = self.as_ptr();
        let zone = if head_only {
            self.red_zone.min(RED_ZONE_HEAD)
        } else {
            self.red_zone
        };
        let (start, end) = (self.len, self.len + zone);
        // Fast path: the 8-byte words wholly inside the red zone (the
        // allocation is at least 8-aligned), and the bytes at either end.
        let (words_from, words_to) = (start.next_multiple_of(8).min(end), end & !7);
        // SAFETY: every offset read lies in `start..end`, inside the
        // allocation; the words are 8-aligned.
        let changed = unsafe {
            let byte = |k: usize| base.add(k).read_volatile();
            let mut any = (start..words_from).fold(0, |a, k| a | byte(k));
            any |= (words_to.max(words_from)..end).fold(0, |a, k| a | byte(k));
            let words = (words_from..words_to)
                .step_by(8)
                .fold(0u64, |a, k| a | base.add(k).cast::<u64>().read_volatile());
            any != 0 || words != 0
        };
        if !changed {
            return None;
        }
        let end = self.len + self.red_zone;
        // SAFETY: as above.
        (start..end)
            .rev()
            .find(|&k| unsafe { base.add(k).read_volatile() } != 0)
            .map(|k| k - start + 1)
    }

    /// Zero the red zone again (after an [`overrun`](Self::overrun) was
    /// reported).
    pub fn clear_overrun(&self) {
        // SAFETY: the red zone is `red_zone` bytes of the allocation.
        unsafe { std::ptr::write_bytes(self.as_ptr().add(self.len), 0, self.red_zone) };
    }

    /// Always false: an allocation has at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bytes after the data that fault when touched (slack included); 0 for
    /// a small buffer.
    pub fn guard_len(&self) -> usize {
        self.alloc.guard_len()
    }
}

impl Drop for HostAllocation {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::AcqRel);
        LIVE_BYTES.fetch_sub(self.len, Ordering::AcqRel);
    }
}

/// A program's program-scope variables (global and constant): zeroed,
/// 128-byte aligned, registered while the program lives.
pub struct ProgramArena {
    /// Dropped first: the entry goes before the memory.
    _registered: Registration,
    alloc: Allocation,
}

impl ProgramArena {
    /// An arena of `size` bytes (at least 1).
    pub fn new(size: usize) -> Result<ProgramArena, String> {
        let alloc = Allocation::zeroed(size.max(1), 128)
            .ok_or("out of memory for program-scope variables")?;
        let _registered =
            registry::register(Kind::ProgramScope, alloc.as_ptr() as usize, alloc.len(), 0);
        Ok(ProgramArena { _registered, alloc })
    }

    /// The first byte.
    pub fn as_ptr(&self) -> *mut u8 {
        self.alloc.as_ptr()
    }

    /// The size in bytes (at least 1).
    pub fn len(&self) -> usize {
        self.alloc.len()
    }

    /// Always false: an arena has at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_buffers_report_writes_into_their_red_zone() {
        for size in [1usize, 7, 8, 72, 100, 4096] {
            let a = HostAllocation::zeroed(size, 128).expect("small allocation");
            assert_eq!(a.len(), size);
            // SAFETY: the data's own last byte.
            unsafe { a.as_ptr().add(size - 1).write(0xFF) };
            assert_eq!(
                a.overrun(false),
                None,
                "size {size}: the data is not the red zone"
            );
            for past in [1, 2, 8, 9, 64, RED_ZONE - 1, RED_ZONE] {
                // SAFETY: `past <= RED_ZONE`: the red zone's byte `past - 1`.
                unsafe { a.as_ptr().add(size + past - 1).write(0x5A) };
                assert_eq!(
                    a.overrun(false),
                    Some(past),
                    "size {size}, {past} past the end"
                );
                let seen_at_launch = (past <= RED_ZONE_HEAD).then_some(past);
                assert_eq!(a.overrun(true), seen_at_launch, "size {size}, {past} past");
                a.clear_overrun();
                assert_eq!(a.overrun(false), None);
            }
        }
        // A guarded buffer has no red zone (its guard faults instead).
        let big = HostAllocation::zeroed(GUARD_THRESHOLD, 128).expect("allocation");
        assert_eq!(big.overrun(false), None);
    }

    #[test]
    fn aligned_zeroed_and_counted() {
        let before = live_allocations();
        for &(size, align) in &[(1, 128), (4096, 128), (1 << 20, 128), (100, 4096), (7, 8)] {
            let a = HostAllocation::zeroed(size, align).expect("small allocation");
            assert_eq!(a.as_ptr() as usize % align, 0, "size {size} align {align}");
            assert_eq!(a.len(), size);
            // SAFETY: `a` owns `size` readable bytes.
            let bytes = unsafe { std::slice::from_raw_parts(a.as_ptr(), size) };
            assert!(bytes.iter().all(|&b| b == 0));
            // SAFETY: the last byte is inside the allocation.
            unsafe { a.as_ptr().add(size - 1).write(0xAB) };
            assert!(live_allocations() > before);
        }
    }

    #[test]
    fn large_buffers_are_guarded_small_ones_are_not() {
        let small = HostAllocation::zeroed(GUARD_THRESHOLD - 1, 128).expect("small");
        assert_eq!(small.guard_len(), 0);
        let large = HostAllocation::zeroed(GUARD_THRESHOLD, 128).expect("large");
        assert!(large.guard_len() >= MIN_GUARD);
        let huge = HostAllocation::zeroed(100 << 20, 128).expect("100 MiB of address space");
        assert!(huge.guard_len() >= 100 << 20);
    }

    #[test]
    fn impossible_sizes_fail_without_aborting() {
        assert!(HostAllocation::zeroed(0, 128).is_none());
        assert!(HostAllocation::zeroed(16, 3).is_none());
        assert!(HostAllocation::zeroed(usize::MAX, 128).is_none());
        assert!(HostAllocation::zeroed(usize::MAX / 2, 128).is_none());
        assert!(HostAllocation::zeroed(1 << 62, 128).is_none());
    }

    #[test]
    fn program_arena_is_registered_while_it_lives() {
        let a = ProgramArena::new(0).expect("arena");
        let s = a.as_ptr() as usize;
        assert_eq!(a.len(), 1);
        let f = registry::lookup(s).expect("registered");
        assert_eq!((f.kind, f.start), (Kind::ProgramScope, s));
        drop(a);
        // The freed bytes may be reused by another test's buffer at once.
        let gone = registry::lookup(s).is_none_or(|f| (f.kind, f.start) != (Kind::ProgramScope, s));
        assert!(gone, "the entry went with the arena");
    }
}
