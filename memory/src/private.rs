//! The private arena: the frames of the work-items of a work-group run by
//! the region strategy (what each work-item keeps across a barrier), one
//! arena per worker thread.
//!
//! The arena grows (zeroed, 128-byte aligned, at least doubling) to the
//! largest group's need and is reused by every later group the thread runs;
//! frames are written before they are read, so nothing is cleared between
//! groups. It is registered as "the private frames of a work-group". Freed
//! when the thread exits. (Coroutine stacks, the other per-work-item
//! memory, are corosensei's guarded stacks, pooled by the runtime, which
//! registers them as [`Kind::Stack`].)
//!
//! Also here: [`register_thread_stack`], the stack of a thread that runs
//! work-groups, registered as [`Kind::Stack`] while the thread lives, so
//! that an address on any such stack is known to be private memory.

use crate::alloc::Allocation;
use crate::registry::{self, Kind, Registration};
use std::cell::RefCell;

/// Alignment of the frames (their size is a multiple of their alignment,
/// at most 128).
pub const ALIGN: usize = 128;

struct Arena {
    /// Dropped first: the entry goes before the memory.
    _registered: Registration,
    alloc: Allocation,
}

thread_local! {
    static ARENA: RefCell<Option<Arena>> = const { RefCell::new(None) };
    static THREAD_STACK: RefCell<Option<Registration>> = const { RefCell::new(None) };
}

/// Register the calling thread's stack as [`Kind::Stack`] (once per
/// thread; the entry goes when the thread exits). Cheap after the first
/// call: one thread-local test.
pub fn register_thread_stack() {
    THREAD_STACK.with(|cell| {
        if cell.borrow().is_some() {
            return;
        }
        if let Some((lo, len)) = thread_stack() {
            *cell.borrow_mut() = Some(registry::register(Kind::Stack, lo, len, 0));
        }
    });
}

/// The calling thread's stack: its lowest address and length.
fn thread_stack() -> Option<(usize, usize)> {
    // SAFETY: `attr` is initialised by pthread_getattr_np before it is read
    // and destroyed once; the out-pointers are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return None;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let r = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        (r == 0 && !addr.is_null()).then_some((addr as usize, size))
    }
}

/// Run `f` with the address of this thread's private arena, grown to at
/// least `bytes` bytes; `None` if it cannot grow (out of memory).
pub fn with_frames<R>(bytes: usize, f: impl FnOnce(u64) -> R) -> Option<R> {
    ARENA.with(|cell| {
        let mut slot = cell.borrow_mut();
        let have = slot.as_ref().map_or(0, |a| a.alloc.len());
        if have < bytes.max(1) {
            let size = bytes.max(have.saturating_mul(2)).max(ALIGN);
            *slot = None;
            let alloc = Allocation::zeroed(size, ALIGN)?;
            *slot = Some(Arena {
                _registered: registry::register(
                    Kind::PrivateArena,
                    alloc.as_ptr() as usize,
                    alloc.len(),
                    0,
                ),
                alloc,
            });
        }
        slot.as_ref().map(|a| f(a.alloc.as_ptr() as u64))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_grow_and_are_reused() {
        let a = with_frames(1000, |p| p).expect("arena");
        assert_eq!(a % ALIGN as u64, 0);
        assert_eq!(with_frames(10, |p| p), Some(a), "a smaller group reuses it");
        let f = registry::lookup(a as usize + 999).expect("registered");
        assert_eq!((f.kind, f.start), (Kind::PrivateArena, a as usize));
        let b = with_frames(1 << 20, |p| p).expect("grown");
        assert!(registry::lookup(b as usize + (1 << 20) - 1).is_some_and(|f| f.start == b as usize));
        assert!(
            with_frames(usize::MAX / 2, |p| p).is_none(),
            "out of memory is an answer"
        );
    }

    #[test]
    fn thread_stacks_are_registered_while_their_thread_lives() {
        let on_stack = std::thread::spawn(|| {
            register_thread_stack();
            register_thread_stack();
            let x = 7u64;
            let at = std::hint::black_box(&x) as *const u64 as usize;
            let f = registry::lookup(at).expect("registered");
            assert_eq!(f.kind, Kind::Stack);
            assert!(f.start <= at && at < f.start + f.len);
            at
        })
        .join()
        .unwrap();
        assert!(
            registry::lookup(on_stack).is_none_or(|f| f.kind != Kind::Stack),
            "gone with its thread"
        );
    }
}
