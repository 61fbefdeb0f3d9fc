//! Shared virtual memory allocations (`clSVMAlloc`): a data store like a
//! buffer's ([`HostAllocation`]: zeroed, aligned, guarded from
//! [`GUARD_THRESHOLD`](crate::global::GUARD_THRESHOLD) bytes up), registered
//! as [`Kind::Svm`] while it lives, so that a generic pointer into it is
//! global memory (`to_global`, `get_fence`) and a fault in or just past it
//! names the allocation. Host and kernels share one address space, so the
//! pointer the host gets is the pointer kernels use.

use crate::global::HostAllocation;
use crate::registry::{self, Kind, Registration};

/// One SVM allocation: its memory and its registry entry.
pub struct SvmAllocation {
    /// Dropped first: the entry goes before the memory.
    _registered: Registration,
    store: HostAllocation,
}

impl SvmAllocation {
    /// `size` zero bytes aligned to `align` (a power of two); `None` as for
    /// [`HostAllocation::zeroed`].
    pub fn new(size: usize, align: usize) -> Option<SvmAllocation> {
        let store = HostAllocation::zeroed(size, align)?;
        let _registered = registry::register(
            Kind::Svm,
            store.as_ptr() as usize,
            store.len(),
            store.guard_len(),
        );
        Some(SvmAllocation { _registered, store })
    }

    /// The first byte (the SVM pointer).
    pub fn as_ptr(&self) -> *mut u8 {
        self.store.as_ptr()
    }

    /// The size in bytes (never 0).
    pub fn len(&self) -> usize {
        self.store.len()
    }

    /// Always false: an allocation has at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Arena;

    #[test]
    fn registered_as_global_svm_while_it_lives() {
        for (size, align) in [(64usize, 128usize), (256 << 10, 4096)] {
            let a = SvmAllocation::new(size, align).expect("allocation");
            let s = a.as_ptr() as usize;
            assert_eq!(s % align, 0);
            let f = registry::lookup(s + size - 1).expect("registered");
            assert_eq!((f.kind, f.start, f.len), (Kind::Svm, s, size));
            assert_eq!(f.arena(), Arena::Global);
            assert_eq!(
                f.describe(s + 8),
                format!("at byte 8 of an SVM allocation of {size} bytes")
            );
            drop(a);
            assert!(registry::lookup(s).is_none_or(|f| (f.kind, f.start) != (Kind::Svm, s)));
        }
        assert!(SvmAllocation::new(0, 128).is_none());
        assert!(SvmAllocation::new(64, 3).is_none());
    }
}
