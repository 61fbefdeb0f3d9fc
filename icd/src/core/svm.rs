//! Shared virtual memory: the SVM allocations of a context (`clSVMAlloc`),
//! and how an address is found in them.
//!
//! Host and device share one address space, so an SVM pointer is a plain
//! host address that kernels use as it is. Each allocation is a
//! [`SvmAllocation`] of the memory crate (registered there, so faults and
//! generic pointers know it) held by `Arc`: the context's table holds one
//! reference until `clSVMFree`, and every command that uses the allocation
//! (a kernel with an SVM argument or `CL_KERNEL_EXEC_INFO_SVM_PTRS`, an SVM
//! copy, fill or map) holds another until it completes, so a `clSVMFree`
//! that the program issues too early frees nothing under a running command.
//!
//! What each capability means here: coarse-grain buffer, fine-grain buffer
//! and SVM atomics hold for every allocation (the host and the kernels touch
//! the same bytes, and kernel atomics are the host's instructions on them);
//! fine-grain system holds because a kernel's global pointer is any host
//! address, `malloc`'s included.

use cranecl_jit::runtime::check::Shadow;
use cranecl_memory::SvmAllocation;
use opencl_sys::*;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

/// `CL_DEVICE_SVM_CAPABILITIES`: every kind, each true on a CPU.
pub const CAPABILITIES: cl_device_svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
    | CL_DEVICE_SVM_ATOMICS;

/// The default alignment (`alignment` 0): the largest data type, `long16`.
pub const DEFAULT_ALIGN: usize = 128;
/// The largest alignment `clSVMAlloc` gives (the spec asks for up to 128;
/// page and huge-page alignments are common requests, so up to 1 MiB).
pub const MAX_ALIGN: usize = 1 << 20;

/// One `clSVMAlloc` allocation.
pub struct Svm {
    pub flags: cl_svm_mem_flags,
    store: SvmAllocation,
    /// Checked `races`: the shadow of the allocation (made at the first
    /// checked launch that may touch it).
    race_shadow: OnceLock<Arc<Shadow>>,
}

impl Svm {
    /// The SVM pointer (the first byte).
    pub fn base(&self) -> usize {
        self.store.as_ptr() as usize
    }

    pub fn size(&self) -> usize {
        self.store.len()
    }

    /// Whether `[addr, addr + len)` lies inside the allocation.
    pub fn holds(&self, addr: usize, len: usize) -> bool {
        addr >= self.base()
            && addr
                .checked_add(len)
                .is_some_and(|end| end <= self.base() + self.size())
    }

    pub fn race_shadow(&self) -> Arc<Shadow> {
        self.race_shadow
            .get_or_init(|| Arc::new(Shadow::new(self.base() as u64, self.size() as u64)))
            .clone()
    }
}

/// A context's live SVM allocations, by address.
#[derive(Default)]
pub struct SvmTable {
    map: Mutex<BTreeMap<usize, Arc<Svm>>>,
    /// Changes at every allocation and free (checked mode keeps a kernel's
    /// objects while it stays the same).
    generation: std::sync::atomic::AtomicU64,
}

impl SvmTable {
    /// A new allocation of `size` bytes aligned to `align`; `None` when the
    /// system has no memory for it.
    pub fn alloc(&self, flags: cl_svm_mem_flags, size: usize, align: usize) -> Option<usize> {
        let store = SvmAllocation::new(size, align)?;
        let svm = Arc::new(Svm {
            flags,
            store,
            race_shadow: OnceLock::new(),
        });
        let base = svm.base();
        self.map.lock().insert(base, svm);
        self.bump();
        Some(base)
    }

    /// `clSVMFree`: forget the allocation that starts at `ptr` (its memory
    /// goes when the last command using it completes). False if none does.
    pub fn free(&self, ptr: usize) -> bool {
        let gone = self.map.lock().remove(&ptr).is_some();
        self.bump();
        gone
    }

    fn bump(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// What changes whenever the set of allocations does.
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The allocation holding the byte at `addr`.
    pub fn find(&self, addr: usize) -> Option<Arc<Svm>> {
        let map = self.map.lock();
        let (_, svm) = map.range(..=addr).next_back()?;
        svm.holds(addr, 1).then(|| svm.clone())
    }

    /// The allocation that starts exactly at `ptr` (a pointer `clSVMAlloc`
    /// returned).
    pub fn starting_at(&self, ptr: usize) -> Option<Arc<Svm>> {
        self.map.lock().get(&ptr).cloned()
    }

    /// Every live allocation.
    pub fn all(&self) -> Vec<Arc<Svm>> {
        self.map.lock().values().cloned().collect()
    }
}
