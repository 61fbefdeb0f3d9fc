//! The byte movers behind the buffer commands, and the geometry they check:
//! linear copies, rectangular (`*Rect`) copies, pattern fills, and the
//! overlap tests of `CL_MEM_COPY_OVERLAP`.
//!
//! Geometry is pure arithmetic on user numbers, so every step is checked
//! (`checked_add`, `checked_mul`): an overflowing offset is a
//! `CL_INVALID_VALUE`, never a wrapped pointer. The movers take raw pointers
//! that the command layer derived from validated regions; they are `unsafe`
//! and say what they need.
//!
//! A large linear copy is split across a few scoped threads (half the compute
//! units, at most 8): on a server one core cannot saturate memory bandwidth,
//! and the spawn cost (tens of microseconds) is nothing beside a copy of many
//! megabytes. On a 2-core machine the copy stays on one thread: measured
//! there, a second thread gained nothing.

use crate::error::{err, CLResult};
use opencl_sys::CL_INVALID_VALUE;

/// A pointer moved into a command's work closure. The command layer keeps the
/// memory alive (an `Arc` of the buffer, or the user's promise for host
/// pointers) until the command completes.
#[derive(Clone, Copy)]
pub struct SendPtr(*mut u8);

// SAFETY: it is only an address; the command that carries it to a worker
// thread holds what keeps the memory valid, and the OpenCL program orders
// accesses to the bytes with events.
unsafe impl Send for SendPtr {}
// SAFETY: as for `Send`; shared, it is only read (a command-buffer's
// recorded command keeps it for every replay).
unsafe impl Sync for SendPtr {}

impl SendPtr {
    pub fn new(p: *mut u8) -> Self {
        SendPtr(p)
    }
    pub fn from_const(p: *const u8) -> Self {
        SendPtr(p as *mut u8)
    }
    /// The address (a method, so that closures capture the whole `SendPtr`).
    pub fn get(self) -> *mut u8 {
        self.0
    }
}

/// `offset .. offset + size` within `len` bytes, overflow-safe.
pub fn in_bounds(offset: usize, size: usize, len: usize) -> bool {
    offset.checked_add(size).is_some_and(|end| end <= len)
}

/// Whether `[a, a + n)` and `[b, b + m)` share a byte.
pub fn ranges_overlap(a: usize, n: usize, b: usize, m: usize) -> bool {
    a < b.saturating_add(m) && b < a.saturating_add(n)
}

/// One side of a rectangular transfer, with its pitches resolved (0 given
/// means tightly packed) and its origin turned into a byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectSide {
    /// Byte offset of the origin: `z * slice_pitch + y * row_pitch + x`.
    pub offset: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    /// One past the last byte touched: `offset + (d-1)*slice_pitch +
    /// (h-1)*row_pitch + w`.
    pub end: usize,
}

/// Check a rectangle's `region` (each element > 0).
pub fn check_region(region: [usize; 3]) -> CLResult<()> {
    if region.contains(&0) {
        return err(CL_INVALID_VALUE, "a region element is 0");
    }
    Ok(())
}

impl RectSide {
    /// Resolve one side: `what` names it in messages ("buffer", "host",
    /// "src", "dst"). The rules are the same for every `*Rect` command:
    /// - row pitch 0 means `region[0]`; otherwise it must be ≥ `region[0]`;
    /// - slice pitch 0 means `region[1] * row_pitch`; otherwise it must be
    ///   ≥ that and a multiple of the row pitch.
    pub fn new(
        what: &str,
        origin: [usize; 3],
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> CLResult<RectSide> {
        let overflow = || err(CL_INVALID_VALUE, format!("{what} rectangle overflows"));
        let [w, h, d] = region;
        if row_pitch != 0 && row_pitch < w {
            return err(
                CL_INVALID_VALUE,
                format!("{what}_row_pitch {row_pitch} is less than region[0] {w}"),
            );
        }
        let row_pitch = if row_pitch == 0 { w } else { row_pitch };
        let Some(plane) = h.checked_mul(row_pitch) else {
            return overflow();
        };
        if slice_pitch != 0 && slice_pitch < plane {
            return err(
                CL_INVALID_VALUE,
                format!("{what}_slice_pitch {slice_pitch} is less than region[1] * row pitch"),
            );
        }
        if slice_pitch != 0 && !slice_pitch.is_multiple_of(row_pitch) {
            return err(
                CL_INVALID_VALUE,
                format!("{what}_slice_pitch {slice_pitch} is not a multiple of the row pitch"),
            );
        }
        let slice_pitch = if slice_pitch == 0 { plane } else { slice_pitch };
        let offset = linear(origin, row_pitch, slice_pitch, 1);
        let extent = linear([w, h, d], row_pitch, slice_pitch, 0);
        match offset.zip(extent).and_then(|(o, e)| o.checked_add(e)) {
            Some(end) => Ok(RectSide {
                offset: offset.unwrap_or(0),
                row_pitch,
                slice_pitch,
                end,
            }),
            None => overflow(),
        }
    }

    /// Byte offset of row `y` of slice `z`.
    fn row(&self, y: usize, z: usize) -> usize {
        self.offset + z * self.slice_pitch + y * self.row_pitch
    }
}

/// `p[2] * slice + p[1] * row + p[0]`, or for an extent (`origin == 0`)
/// `(p[2]-1) * slice + (p[1]-1) * row + p[0]`; `None` on overflow.
fn linear(p: [usize; 3], row: usize, slice: usize, origin: usize) -> Option<usize> {
    let (y, z) = if origin == 1 {
        (p[1], p[2])
    } else {
        (p[1].checked_sub(1)?, p[2].checked_sub(1)?)
    };
    z.checked_mul(slice)?
        .checked_add(y.checked_mul(row)?)?
        .checked_add(p[0])
}

/// Whether two rectangles of the same `region`, in one address space (offsets
/// of the same data store), share a byte. Rows of one rectangle are disjoint
/// and increasing (the pitch rules guarantee it), so for each row of `a` a
/// binary search finds the only rows of `b` it could touch.
pub fn rects_overlap(a: &RectSide, b: &RectSide, region: [usize; 3]) -> bool {
    let [w, h, d] = region;
    if !ranges_overlap(a.offset, a.end - a.offset, b.offset, b.end - b.offset) {
        return false;
    }
    let rows = h * d;
    let b_row = |k: usize| b.row(k % h, k / h);
    for k in 0..rows {
        let start = a.row(k % h, k / h);
        // The last row of `b` that starts before this row of `a` ends.
        let (mut lo, mut hi) = (0, rows);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if b_row(mid) < start + w {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo > 0 && b_row(lo - 1) + w > start {
            return true;
        }
    }
    false
}

/// Bytes above which a linear copy is split across threads.
const PARALLEL_COPY_MIN: usize = 32 << 20;
/// At most this many threads for one copy.
const MAX_COPY_THREADS: usize = 8;

/// Threads for one large copy: half the compute units (memory bandwidth
/// saturates well before every core copies, and the program has work of its
/// own), at most `MAX_COPY_THREADS`.
fn copy_threads() -> usize {
    let units = crate::core::device::compute_units() as usize;
    (units / 2).clamp(1, MAX_COPY_THREADS)
}

/// Copy `len` bytes from `src` to `dst` (regions may overlap only if equal).
///
/// # Safety
/// `src` readable and `dst` writable for `len` bytes for the whole call.
pub unsafe fn copy(dst: *mut u8, src: *const u8, len: usize) {
    if len == 0 || std::ptr::eq(dst, src) {
        return;
    }
    let threads =
        if len >= PARALLEL_COPY_MIN && !ranges_overlap(src as usize, len, dst as usize, len) {
            copy_threads()
        } else {
            1
        };
    // SAFETY: the caller's contract; several threads only without overlap.
    unsafe { copy_split(dst, src, len, threads) }
}

/// `copy` on `threads` threads (1: `memmove` on this thread).
///
/// # Safety
/// As `copy`; with more than one thread the regions must not overlap.
unsafe fn copy_split(dst: *mut u8, src: *const u8, len: usize, threads: usize) {
    if threads <= 1 {
        // SAFETY: the caller's contract; `copy` tolerates overlap.
        unsafe { std::ptr::copy(src, dst, len) };
        return;
    }
    // Chunks of whole pages, the last one taking the rest.
    let chunk = (len / threads + 4095) & !4095;
    let (src, dst) = (SendPtr::from_const(src), SendPtr::new(dst));
    let copy_chunk = move |start: usize| {
        let n = chunk.min(len - start);
        // SAFETY: `start < len` and `start + n <= len`; no overlap.
        unsafe { std::ptr::copy_nonoverlapping(src.get().add(start), dst.get().add(start), n) }
    };
    std::thread::scope(|s| {
        for start in (chunk..len).step_by(chunk) {
            let spawned = std::thread::Builder::new().spawn_scoped(s, move || copy_chunk(start));
            if spawned.is_err() {
                // No thread to be had: copy that chunk here.
                copy_chunk(start);
            }
        }
        copy_chunk(0);
    });
}

/// Copy a rectangle of `region` bytes/rows/slices between two sides.
///
/// # Safety
/// `src` (`dst`) readable (writable) over `[offset, end)` of its side; the two
/// rectangles do not overlap (they may be the same bytes).
pub unsafe fn copy_rect(
    dst: *mut u8,
    dst_side: &RectSide,
    src: *const u8,
    src_side: &RectSide,
    region: [usize; 3],
) {
    let [w, h, d] = region;
    for z in 0..d {
        for y in 0..h {
            // SAFETY: each row lies within `[offset, end)` of its side.
            unsafe { std::ptr::copy(src.add(src_side.row(y, z)), dst.add(dst_side.row(y, z)), w) };
        }
    }
}

/// The largest fill pattern (`cl_double16`, `cl_long16`): 128 bytes.
pub const MAX_PATTERN: usize = 128;

/// A fill pattern carried by value in the command (no allocation).
#[derive(Clone, Copy)]
pub struct Pattern {
    bytes: [u8; MAX_PATTERN],
    len: usize,
}

impl Pattern {
    /// Check `pattern_size` (a power of two, 1 ..= 128) and copy the pattern.
    ///
    /// # Safety
    /// `pattern` readable for `size` bytes if `size` passes the check.
    pub unsafe fn new(pattern: *const u8, size: usize) -> CLResult<Pattern> {
        if size == 0 || !size.is_power_of_two() || size > MAX_PATTERN {
            return err(
                CL_INVALID_VALUE,
                format!("pattern_size {size} is not a power of two from 1 to {MAX_PATTERN}"),
            );
        }
        let mut bytes = [0; MAX_PATTERN];
        // SAFETY: the caller's contract; `size <= MAX_PATTERN`.
        unsafe { std::ptr::copy_nonoverlapping(pattern, bytes.as_mut_ptr(), size) };
        Ok(Pattern { bytes, len: size })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Fill `size` bytes at `dst` (a multiple of the pattern size): one copy
    /// of the pattern, then the filled prefix doubled until it covers the
    /// region (log2 large copies instead of `size / len` tiny ones).
    ///
    /// # Safety
    /// `dst` writable for `size` bytes.
    pub unsafe fn fill(&self, dst: *mut u8, size: usize) {
        if size == 0 {
            return;
        }
        if self.len == 1 {
            // SAFETY: the caller's contract.
            unsafe { std::ptr::write_bytes(dst, self.bytes[0], size) };
            return;
        }
        let first = self.len.min(size);
        // SAFETY: `first <= size`.
        unsafe { std::ptr::copy_nonoverlapping(self.bytes.as_ptr(), dst, first) };
        let mut done = first;
        while done < size {
            // Doubling stops at 1 MiB blocks, which stay in cache.
            let n = done.min(size - done).min(1 << 20);
            // SAFETY: `[0, done)` is filled and `[done, done + n)` is inside
            // the region; they are disjoint; `done` stays a multiple of `len`.
            unsafe { std::ptr::copy_nonoverlapping(dst, dst.add(done), n) };
            done += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(origin: [usize; 3], region: [usize; 3], rp: usize, sp: usize) -> RectSide {
        RectSide::new("t", origin, region, rp, sp).expect("valid rect")
    }

    #[test]
    fn pitches_resolve_and_bounds_are_exact() {
        let s = side([1, 2, 3], [4, 5, 6], 0, 0);
        assert_eq!((s.row_pitch, s.slice_pitch), (4, 20));
        assert_eq!(s.offset, 3 * 20 + 2 * 4 + 1);
        assert_eq!(s.end, s.offset + 5 * 20 + 4 * 4 + 4);
        assert!(RectSide::new("t", [0; 3], [4, 1, 1], 3, 0).is_err());
        assert!(RectSide::new("t", [0; 3], [4, 2, 1], 4, 7).is_err());
        assert!(RectSide::new("t", [0; 3], [4, 2, 1], 5, 12).is_err());
        assert!(RectSide::new("t", [usize::MAX, 0, 0], [4, 1, 1], 0, 0).is_err());
        assert!(RectSide::new("t", [0, usize::MAX / 2, 0], [4, 1, 1], 8, 0).is_err());
    }

    /// Byte sets of both rectangles, compared by brute force.
    fn brute_overlap(a: &RectSide, b: &RectSide, region: [usize; 3]) -> bool {
        let bytes = |s: &RectSide| {
            let mut v = std::collections::HashSet::new();
            for z in 0..region[2] {
                for y in 0..region[1] {
                    for x in 0..region[0] {
                        v.insert(s.row(y, z) + x);
                    }
                }
            }
            v
        };
        !bytes(a).is_disjoint(&bytes(b))
    }

    #[test]
    fn rect_overlap_matches_brute_force() {
        let region = [3, 2, 2];
        for ox in 0..8 {
            for oy in 0..3 {
                for oz in 0..2 {
                    let a = side([0, 0, 0], region, 8, 24);
                    let b = side([ox, oy, oz], region, 8, 24);
                    assert_eq!(
                        rects_overlap(&a, &b, region),
                        brute_overlap(&a, &b, region),
                        "origin {ox},{oy},{oz}"
                    );
                    let c = side([ox, oy, oz], region, 5, 15);
                    assert_eq!(rects_overlap(&a, &c, region), brute_overlap(&a, &c, region));
                    assert_eq!(rects_overlap(&c, &a, region), brute_overlap(&c, &a, region));
                }
            }
        }
    }

    #[test]
    fn fill_repeats_every_pattern_size() {
        for len in [1usize, 2, 4, 8, 16, 32, 64, 128] {
            let pattern: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37) ^ 0x5A).collect();
            // SAFETY: `pattern` has `len` bytes.
            let p = unsafe { Pattern::new(pattern.as_ptr(), len) }.expect("valid size");
            let size = len * 1000;
            let mut buf = vec![0u8; size + 16];
            // SAFETY: `buf` has room for `size` bytes after 8.
            unsafe { p.fill(buf.as_mut_ptr().add(8), size) };
            assert!(buf[..8].iter().all(|&b| b == 0));
            assert!(buf[8 + size..].iter().all(|&b| b == 0));
            for (i, &b) in buf[8..8 + size].iter().enumerate() {
                assert_eq!(b, pattern[i % len], "len {len} byte {i}");
            }
        }
        for bad in [0usize, 3, 256, 12] {
            // SAFETY: a rejected size reads nothing; 256 bytes would be read
            // only if accepted, and the array has them.
            let r = unsafe { Pattern::new([0u8; 256].as_ptr(), bad) };
            assert!(r.is_err(), "size {bad}");
        }
    }

    #[test]
    fn parallel_copy_copies_every_byte() {
        let len = (3 << 20) + 12345;
        let src: Vec<u8> = (0..len).map(|i| (i * 7 + i / 4096) as u8).collect();
        for threads in [1, 2, 3, 8] {
            let mut dst = vec![0u8; len];
            // SAFETY: both vectors have `len` bytes and do not overlap.
            unsafe { copy_split(dst.as_mut_ptr(), src.as_ptr(), len, threads) };
            assert!(src == dst, "{threads} threads");
        }
    }
}
