//! The one aligned host allocation type every arena is made of.
//!
//! An [`Allocation`] is `size` bytes (never 0) aligned to a power of two,
//! owned and freed on drop. Creating one is fallible: a size the system
//! cannot give returns `None`, never aborts the process. Three kinds:
//!
//! - [`Allocation::zeroed`]: zero bytes from the heap. We ask the system
//!   allocator for `size + align - 16` bytes with its natural alignment and
//!   zeroed (`calloc`), then round the pointer up to `align`. A directly
//!   over-aligned zeroed request would make the allocator `memset` the whole
//!   block, touching every page of a large block at creation; `calloc`
//!   returns fresh pages for large blocks, already zero, committed only when
//!   first touched.
//! - [`Allocation::uninit`]: bytes of unspecified content from the heap (an
//!   over-aligned `malloc`), for arenas whose users write before they read.
//! - [`Allocation::guarded`]: zero bytes from their own `mmap`, followed by
//!   an inaccessible guard region (`PROT_NONE`, `MAP_NORESERVE`: address
//!   space only, no memory, no commit charge). The data is placed at the
//!   *end* of its pages (its start rounded down to `align`), so that the
//!   first byte past the end lies in the guard region whenever the size is a
//!   multiple of `align`, and otherwise at most `align - 1` bytes of slack
//!   away. Pages are fresh, hence zero, and committed only when touched.
//!   The mapping is made inaccessible first and only the data pages are
//!   then opened for reading and writing (two system calls; `munmap` on
//!   drop).
//!
//! - [`Allocation::huge_zeroed`]: zero bytes from their own `mmap`, aligned
//!   to 2 MiB and marked `MADV_HUGEPAGE`, so that where the system's
//!   transparent huge pages are on `madvise` (Debian's default) the bytes
//!   come in 2 MiB pages as they are first touched: for large tables read
//!   and written all over (checked mode's shadows), where 4 KiB pages
//!   would each cost a TLB miss.
//!
//!   Colouring: the guard is lengthened by 0 to 15 pages, in turn. `mmap`
//!   places each new mapping just below the previous one, so buffers of one
//!   size with guards of one size would start at addresses equal in their
//!   low 29 bits or so (a 256 MiB buffer and its 256 MiB guard: 512 MiB
//!   apart), and streams over them share TLB sets and cache-line address
//!   bits: a host triad loop over three such 256 MiB buffers measured 23–25
//!   GB/s against 28–37 GB/s for `calloc` blocks (whose headers make
//!   neighbours differ by a page) on the AMD EPYC VM we develop on; with
//!   guards of 1, 2 and 3 extra pages, 28–36 GB/s, as `calloc`.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator's natural alignment, which `calloc` honours.
const NATURAL_ALIGN: usize = 16;
/// Guards are lengthened by `0..COLOURS` pages, in turn.
const COLOURS: usize = 16;
/// The colour of the next guarded allocation.
static NEXT_COLOUR: AtomicUsize = AtomicUsize::new(0);

/// Where an allocation's memory came from, and how to give it back.
enum Backing {
    /// The system allocator: `raw` was returned for `layout`.
    Heap { raw: NonNull<u8>, layout: Layout },
    /// Our own mapping of `len` bytes at `map`; what follows the data is
    /// the inaccessible guard region.
    Mapped { map: NonNull<u8>, len: usize },
    /// Our own mapping of `len` bytes at `map`, all accessible, no guard.
    Huge { map: NonNull<u8>, len: usize },
}

/// A fresh private anonymous mapping of `len` bytes (`MAP_NORESERVE`) with
/// protection `prot`, where the system chooses; `None` if it refuses.
fn anonymous_map(len: usize, prot: libc::c_int) -> Option<NonNull<u8>> {
    // SAFETY: a fresh anonymous mapping; the system chooses the address.
    let map = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            prot,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if map == libc::MAP_FAILED {
        return None;
    }
    NonNull::new(map as *mut u8)
}

/// The alignment and page size of [`Allocation::huge_zeroed`].
pub const HUGE_PAGE: usize = 2 << 20;

/// One aligned host allocation (see the module comment).
pub struct Allocation {
    /// The first byte, aligned as requested.
    data: NonNull<u8>,
    size: usize,
    backing: Backing,
}

// SAFETY: the allocation is plain memory owned by this value; sharing the
// pointer between threads is what buffers and arenas do, and synchronising
// accesses to the bytes is the user's job (OpenCL commands are ordered by
// events; a worker's arenas are only used by that worker).
unsafe impl Send for Allocation {}
// SAFETY: as above; `&Allocation` only exposes the pointer and sizes.
unsafe impl Sync for Allocation {}

/// The system page size.
pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

impl Allocation {
    /// `size` zero bytes aligned to `align` (a power of two), or `None` if
    /// `size` is 0, `align` is not a power of two, or the system has no memory.
    pub fn zeroed(size: usize, align: usize) -> Option<Allocation> {
        if size == 0 || !align.is_power_of_two() {
            return None;
        }
        let pad = align.saturating_sub(NATURAL_ALIGN);
        let total = size.checked_add(pad)?;
        let layout = Layout::from_size_align(total, NATURAL_ALIGN.min(align)).ok()?;
        // SAFETY: `layout` has a non-zero size (size > 0).
        let raw = NonNull::new(unsafe { alloc::alloc_zeroed(layout) })?;
        let misalign = (raw.as_ptr() as usize).wrapping_neg() & (align - 1);
        // `misalign < align` and is a multiple of the natural alignment, so it
        // is at most `pad`: the aligned block of `size` bytes lies inside.
        // SAFETY: `misalign <= pad`, so `raw + misalign` is within the block.
        let data = unsafe { NonNull::new_unchecked(raw.as_ptr().add(misalign)) };
        Some(Allocation {
            data,
            size,
            backing: Backing::Heap { raw, layout },
        })
    }

    /// `size` bytes of unspecified content aligned to `align`; `None` as for
    /// [`Allocation::zeroed`].
    pub fn uninit(size: usize, align: usize) -> Option<Allocation> {
        if size == 0 {
            return None;
        }
        let layout = Layout::from_size_align(size, align).ok()?;
        // SAFETY: `layout` has a non-zero size.
        let raw = NonNull::new(unsafe { alloc::alloc(layout) })?;
        Some(Allocation {
            data: raw,
            size,
            backing: Backing::Heap { raw, layout },
        })
    }

    /// `size` zero bytes aligned to `align`, in a mapping of their own
    /// followed by at least `guard` inaccessible bytes (rounded up to
    /// pages, plus the colour's 0 to 15 pages); `None` as for
    /// [`Allocation::zeroed`], or if the system refuses the mapping.
    pub fn guarded(size: usize, align: usize, guard: usize) -> Option<Allocation> {
        if size == 0 || !align.is_power_of_two() {
            return None;
        }
        let page = page_size();
        // Room to round the start down to `align` without leaving the
        // mapping when `align` exceeds a page.
        let data_len = size
            .checked_add(align.saturating_sub(page))?
            .checked_next_multiple_of(page)?;
        let colour = NEXT_COLOUR.fetch_add(1, Ordering::Relaxed) % COLOURS;
        let guard = guard
            .checked_next_multiple_of(page)?
            .checked_add(colour * page)?;
        let len = data_len.checked_add(guard)?;
        if len > isize::MAX as usize {
            return None;
        }
        let map = anonymous_map(len, libc::PROT_NONE)?.as_ptr() as *mut libc::c_void;
        // SAFETY: the first `data_len` bytes are part of the mapping above.
        if unsafe { libc::mprotect(map, data_len, libc::PROT_READ | libc::PROT_WRITE) } != 0 {
            // SAFETY: our own mapping, not yet shared.
            unsafe { libc::munmap(map, len) };
            return None;
        }
        let map = NonNull::new(map as *mut u8)?;
        let start = (map.as_ptr() as usize + data_len - size) & !(align - 1);
        // SAFETY: `start >= map` (the extra `align - page` bytes cover the
        // rounding) and `start + size <= map + data_len`.
        let data =
            unsafe { NonNull::new_unchecked(map.as_ptr().add(start - map.as_ptr() as usize)) };
        Some(Allocation {
            data,
            size,
            backing: Backing::Mapped { map, len },
        })
    }

    /// `size` zero bytes aligned to [`HUGE_PAGE`] in a mapping of their
    /// own, asked to be backed by huge pages (`MADV_HUGEPAGE`; where the
    /// system gives none, ordinary pages); `None` as for
    /// [`Allocation::zeroed`], or if the system refuses the mapping.
    pub fn huge_zeroed(size: usize) -> Option<Allocation> {
        if size == 0 {
            return None;
        }
        let data_len = size.checked_next_multiple_of(HUGE_PAGE)?;
        let len = data_len.checked_add(HUGE_PAGE)?;
        if len > isize::MAX as usize {
            return None;
        }
        let map = anonymous_map(len, libc::PROT_READ | libc::PROT_WRITE)?;
        let start = (map.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        // SAFETY: `start - map < HUGE_PAGE`, so `[start, start + data_len)`
        // lies inside the mapping of `data_len + HUGE_PAGE` bytes.
        let data =
            unsafe { NonNull::new_unchecked(map.as_ptr().add(start - map.as_ptr() as usize)) };
        // A hint: without transparent huge pages it fails and changes
        // nothing.
        // SAFETY: `[data, data + data_len)` is part of our mapping.
        unsafe {
            libc::madvise(
                data.as_ptr() as *mut libc::c_void,
                data_len,
                libc::MADV_HUGEPAGE,
            )
        };
        Some(Allocation {
            data,
            size,
            backing: Backing::Huge { map, len },
        })
    }

    /// The first byte (aligned as requested).
    pub fn as_ptr(&self) -> *mut u8 {
        self.data.as_ptr()
    }

    /// The size in bytes (never 0).
    pub fn len(&self) -> usize {
        self.size
    }

    /// Always false: an allocation has at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bytes from the end of the data to the end of the guard region (the
    /// slack before the guard included); 0 without a guard region.
    pub fn guard_len(&self) -> usize {
        match self.backing {
            Backing::Heap { .. } | Backing::Huge { .. } => 0,
            Backing::Mapped { map, len } => {
                map.as_ptr() as usize + len - (self.data.as_ptr() as usize + self.size)
            }
        }
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        match self.backing {
            // SAFETY: `raw` was returned by the allocator for `layout` and
            // is freed once, here.
            Backing::Heap { raw, layout } => unsafe { alloc::dealloc(raw.as_ptr(), layout) },
            Backing::Mapped { map, len } | Backing::Huge { map, len } => {
                // SAFETY: our own mapping of `len` bytes, unmapped once, here.
                unsafe { libc::munmap(map.as_ptr() as *mut libc::c_void, len) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: &Allocation, size: usize, align: usize, zero: bool) {
        assert_eq!(a.as_ptr() as usize % align, 0, "size {size} align {align}");
        assert_eq!(a.len(), size);
        // SAFETY: `a` owns `size` readable bytes.
        let bytes = unsafe { std::slice::from_raw_parts(a.as_ptr(), size) };
        if zero {
            assert!(bytes.iter().all(|&b| b == 0), "size {size}: not zeroed");
        }
        // SAFETY: the first and last bytes are inside the allocation.
        unsafe {
            a.as_ptr().write(0xCD);
            a.as_ptr().add(size - 1).write(0xAB);
        }
    }

    #[test]
    fn huge_allocations_are_aligned_zeroed_and_writable() {
        for &size in &[1, 4096, HUGE_PAGE + 8, 3 * HUGE_PAGE] {
            let a = Allocation::huge_zeroed(size).expect("huge_zeroed");
            check(&a, size, HUGE_PAGE, true);
            assert_eq!(a.guard_len(), 0);
        }
        assert!(Allocation::huge_zeroed(0).is_none());
    }

    #[test]
    fn every_kind_is_aligned_and_writable() {
        for &(size, align) in &[(1, 128), (4096, 128), (1 << 20, 128), (100, 4096), (7, 8)] {
            check(
                &Allocation::zeroed(size, align).expect("zeroed"),
                size,
                align,
                true,
            );
            check(
                &Allocation::uninit(size, align).expect("uninit"),
                size,
                align,
                false,
            );
            let g = Allocation::guarded(size, align, 1 << 20).expect("guarded");
            check(&g, size, align, true);
            assert!(
                g.guard_len() >= 1 << 20,
                "size {size}: guard {}",
                g.guard_len()
            );
            assert!(
                g.guard_len() < (1 << 20) + COLOURS * page_size() + align,
                "size {size}: slack too large"
            );
        }
        let wide = Allocation::guarded(5000, 1 << 16, 0).expect("64 KiB aligned");
        assert!((wide.as_ptr() as usize).is_multiple_of(1 << 16));
    }

    #[test]
    fn guarded_data_ends_at_the_guard() {
        let page = page_size();
        let a = Allocation::guarded(16384, 128, 4096).expect("guarded");
        let end = a.as_ptr() as usize + 16384;
        assert_eq!(end % page, 0, "a multiple of the alignment leaves no slack");
        let b = Allocation::guarded(100, 128, 4096).expect("guarded");
        let end = b.as_ptr() as usize + 100;
        assert_eq!(
            page - end % page,
            28,
            "100 bytes end 28 bytes before the guard"
        );
    }

    #[test]
    fn neighbours_of_one_size_differ_in_their_page_bits() {
        let size = 1 << 20;
        let all: Vec<Allocation> = (0..4)
            .map(|_| Allocation::guarded(size, 128, size).expect("guarded"))
            .collect();
        let colours: std::collections::HashSet<usize> = all
            .iter()
            .map(|a| (a.as_ptr() as usize / page_size()) % COLOURS)
            .collect();
        assert!(colours.len() > 1, "four mappings share one page colour");
    }

    #[test]
    fn impossible_sizes_fail_without_aborting() {
        for f in [Allocation::zeroed, Allocation::uninit] {
            assert!(f(0, 128).is_none());
            assert!(f(16, 3).is_none());
            assert!(f(usize::MAX, 128).is_none());
            assert!(f(usize::MAX / 2, 128).is_none());
        }
        assert!(Allocation::zeroed(1 << 62, 128).is_none());
        assert!(Allocation::guarded(0, 128, 4096).is_none());
        assert!(Allocation::guarded(16, 3, 4096).is_none());
        assert!(Allocation::guarded(usize::MAX, 128, 4096).is_none());
        assert!(Allocation::guarded(1 << 20, 128, usize::MAX).is_none());
        assert!(Allocation::guarded(1 << 62, 128, 1 << 62).is_none());
    }
}
