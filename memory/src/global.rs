//! The global arena: host allocations that hold buffer contents.
//!
//! A buffer's data store is one `HostAllocation`: `size` bytes aligned to the
//! device's `CL_DEVICE_MEM_BASE_ADDR_ALIGN`, zero-initialised, freed on drop.
//! Allocation is fallible: a size the system cannot give returns `None`, never
//! aborts the process (the API turns it into `CL_MEM_OBJECT_ALLOCATION_FAILURE`).
//!
//! How: we ask the system allocator for `size + align` bytes with its natural
//! alignment and zeroed (`calloc`), then round the pointer up to `align`. A
//! directly over-aligned zeroed request would make the allocator `memset` the
//! whole block, touching every page of a large buffer at creation; `calloc`
//! returns fresh pages for large blocks, already zero, committed only when
//! first touched.
//!
//! The live allocations are counted (number and bytes) so that tests can check
//! that released buffers leave nothing behind.

use std::alloc::{self, Layout};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// Number of `HostAllocation`s alive in this process.
pub fn live_allocations() -> usize {
    LIVE.load(Ordering::Acquire)
}

/// Bytes held by live `HostAllocation`s (requested sizes).
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Acquire)
}

/// The system allocator's natural alignment, which `calloc` honours.
const NATURAL_ALIGN: usize = 16;

/// One zero-initialised, aligned host allocation.
pub struct HostAllocation {
    /// What the allocator returned (freed with `layout`).
    raw: NonNull<u8>,
    layout: Layout,
    /// `raw` rounded up to the requested alignment.
    data: NonNull<u8>,
    size: usize,
}

// SAFETY: the allocation is plain memory owned by this value; sharing the
// pointer between threads is what buffers do, and synchronising accesses to
// the bytes is the OpenCL program's job (commands are ordered by events).
unsafe impl Send for HostAllocation {}
// SAFETY: as above; `&HostAllocation` only exposes the pointer and the size.
unsafe impl Sync for HostAllocation {}

impl HostAllocation {
    /// `size` zero bytes aligned to `align` (a power of two), or `None` if
    /// `size` is 0, `align` is not a power of two, or the system has no memory.
    pub fn zeroed(size: usize, align: usize) -> Option<HostAllocation> {
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
        LIVE.fetch_add(1, Ordering::AcqRel);
        LIVE_BYTES.fetch_add(size, Ordering::AcqRel);
        Some(HostAllocation {
            raw,
            layout,
            data,
            size,
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
}

impl Drop for HostAllocation {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::AcqRel);
        LIVE_BYTES.fetch_sub(self.size, Ordering::AcqRel);
        // SAFETY: `raw` was returned by `alloc_zeroed(self.layout)` and is
        // freed once, here.
        unsafe { alloc::dealloc(self.raw.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn impossible_sizes_fail_without_aborting() {
        assert!(HostAllocation::zeroed(0, 128).is_none());
        assert!(HostAllocation::zeroed(16, 3).is_none());
        assert!(HostAllocation::zeroed(usize::MAX, 128).is_none());
        assert!(HostAllocation::zeroed(usize::MAX / 2, 128).is_none());
        assert!(HostAllocation::zeroed(1 << 62, 128).is_none());
    }
}
