//! The local arena: work-group local memory, one arena per worker thread.
//!
//! Each thread that runs work-groups owns one arena (uninitialised, 128-byte
//! aligned, registered as "the local memory of a work-group"), allocated on
//! its first launch that needs local memory and reused by every later group
//! it runs, so that running a group never allocates. The arena is as large
//! as the device's `CL_DEVICE_LOCAL_MEM_SIZE` (the caller's `capacity`);
//! a group uses its first `needed` bytes. Freed when the thread exits.

use crate::alloc::Allocation;
use crate::registry::{self, Kind, Registration};
use std::cell::RefCell;

/// Alignment of the local arena (the largest alignment of any OpenCL type).
pub const ALIGN: usize = 128;

struct Arena {
    /// Dropped first: the entry goes before the memory.
    _registered: Registration,
    alloc: Allocation,
}

thread_local! {
    static ARENA: RefCell<Option<Arena>> = const { RefCell::new(None) };
}

/// Run `f` with the address of this thread's local arena of `capacity`
/// bytes; 0 if `needed` is 0, or if the arena cannot be allocated (the
/// compiled code then reports the missing memory).
pub fn with_arena<R>(capacity: usize, needed: u64, f: impl FnOnce(usize) -> R) -> R {
    if needed == 0 {
        return f(0);
    }
    ARENA.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|a| a.alloc.len() < capacity) {
            *slot = None;
            *slot = Allocation::uninit(capacity, ALIGN).map(|alloc| Arena {
                _registered: registry::register(
                    Kind::LocalArena,
                    alloc.as_ptr() as usize,
                    alloc.len(),
                    0,
                ),
                alloc,
            });
        }
        f(slot.as_ref().map_or(0, |a| a.alloc.as_ptr() as usize))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_arena_per_thread_reused_and_registered() {
        assert_eq!(with_arena(4096, 0, |p| p), 0, "no local memory needed");
        let first = with_arena(4096, 16, |p| p);
        assert_ne!(first, 0);
        assert_eq!(first % ALIGN, 0);
        assert_eq!(with_arena(4096, 4096, |p| p), first, "reused");
        let f = registry::lookup(first + 4095).expect("registered");
        assert_eq!((f.kind, f.start, f.len), (Kind::LocalArena, first, 4096));
        let other = std::thread::spawn(|| with_arena(4096, 16, |p| p)).join();
        assert_ne!(other.expect("thread"), first, "each thread has its own");
        let bigger = with_arena(8192, 16, |p| p);
        assert!(registry::lookup(bigger + 8191).is_some_and(|f| f.len == 8192));
    }
}
