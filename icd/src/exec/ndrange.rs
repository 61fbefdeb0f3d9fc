//! Running an NDRange: a kernel launch's work-groups dealt to the device's
//! rayon pool.
//!
//! A [`Launch`] is everything `clEnqueueNDRangeKernel` captured: the
//! executable (an `Arc`, so the code outlives a rebuild or release of the
//! program), the kernel, the argument block and the memory objects it points
//! into (kept alive until the command completes), and the geometry.
//!
//! [`Launch::run`] is the command's work. Work-groups are numbered linearly
//! (dimension 0 fastest); a launch of a single group runs on the calling
//! thread (no hand-off: what keeps tiny launches cheap); otherwise the ids are
//! cut into chunks (about eight per worker, for balance) and the chunks are
//! spread over the pool with `par_iter`. Each worker thread owns one local
//! arena (`LOCAL_MEM_SIZE` bytes, 128-aligned, allocated on its first launch
//! that needs local memory and reused afterwards), so a group never allocates.
//!
//! The pool is the device's own (not rayon's global one, which the host
//! application may use), started on the first launch that needs it, with
//! `crate::core::device::compute_units()` threads (`CRANECL_THREADS`
//! overrides) and stacks large enough for the private memory the compiler
//! allows on a thread stack.
//!
//! A fault in any group (a `KernelFault` from the compiled code, or a panic)
//! stops the launch at the next group and fails the command with
//! `CL_OUT_OF_RESOURCES`; the message names the kernel and the group and is
//! printed on stderr and sent to the context's notify callback (by the event
//! layer). The host process never crashes on a kernel's behalf.

use crate::core::device::{compute_units, LOCAL_MEM_SIZE};
use crate::core::handle::Obj;
use crate::core::mem::Mem;
use crate::core::program::Executable;
use crate::error::{CLResult, ClError};
use cranecl_jit::launch::WorkGroupCtx;
use opencl_sys::CL_OUT_OF_RESOURCES;
use parking_lot::Mutex;
use rayon::prelude::*;
use std::alloc::Layout;
use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Stack of each pool thread: room for the private memory the compiler lets
/// a kernel keep on the thread stack, and the runtime's own frames.
const WORKER_STACK: usize = 4 << 20;
/// A single-group launch runs on the calling thread only if its private
/// memory is at most this (the caller's stack size is not ours to know).
const INLINE_PRIVATE_LIMIT: u64 = 256 << 10;
/// Chunks per pool thread.
const CHUNKS_PER_THREAD: u64 = 8;

/// A captured kernel launch.
pub struct Launch {
    pub exe: Arc<Executable>,
    pub kernel: usize,
    pub block: Vec<u8>,
    /// Kept alive until the launch is dropped (after the command completes).
    pub keep: Vec<Arc<Obj<Mem>>>,
    pub work_dim: u32,
    pub global_size: [u64; 3],
    pub global_offset: [u64; 3],
    pub local_size: [u64; 3],
    /// Bytes of the local arena the kernel needs (locals and local arguments).
    pub local_mem_size: u64,
}

fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(compute_units() as usize)
            .stack_size(WORKER_STACK)
            .thread_name(|i| format!("cranecl-ndrange-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// A worker's local arena.
struct Arena {
    ptr: *mut u8,
    layout: Layout,
}

impl Drop for Arena {
    fn drop(&mut self) {
        // SAFETY: allocated in `with_arena` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

thread_local! {
    static ARENA: RefCell<Option<Arena>> = const { RefCell::new(None) };
}

/// Run `f` with this thread's local arena (0 if none is needed, or if it
/// cannot be allocated: the compiled code then reports the missing memory).
fn with_arena<R>(needed: u64, f: impl FnOnce(usize) -> R) -> R {
    if needed == 0 {
        return f(0);
    }
    ARENA.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            if let Ok(layout) = Layout::from_size_align(LOCAL_MEM_SIZE as usize, 128) {
                // SAFETY: the layout has a non-zero size.
                let ptr = unsafe { std::alloc::alloc(layout) };
                if !ptr.is_null() {
                    *slot = Some(Arena { ptr, layout });
                }
            }
        }
        f(slot.as_ref().map_or(0, |a| a.ptr as usize))
    })
}

impl Launch {
    fn name(&self) -> &str {
        self.exe
            .code
            .kernels()
            .get(self.kernel)
            .map_or("?", |k| k.name.as_str())
    }

    fn num_groups(&self) -> [u64; 3] {
        let mut n = [1u64; 3];
        for (d, n) in n.iter_mut().enumerate() {
            *n = self.global_size[d].div_ceil(self.local_size[d].max(1));
        }
        n
    }

    /// Run one work-group (by linear id) with the local arena at `arena`.
    fn run_group(&self, linear: u64, groups: &[u64; 3], arena: usize) -> Result<(), String> {
        let group_id = [
            linear % groups[0],
            (linear / groups[0]) % groups[1],
            linear / (groups[0] * groups[1]),
        ];
        let mut local_size = self.local_size;
        for d in 0..3 {
            local_size[d] =
                (self.global_size[d] - group_id[d] * self.local_size[d]).min(self.local_size[d]);
        }
        let ctx = WorkGroupCtx {
            work_dim: self.work_dim,
            global_size: self.global_size,
            global_offset: self.global_offset,
            local_size,
            enqueued_local_size: self.local_size,
            num_groups: *groups,
            group_id,
            local_mem: arena,
            local_mem_size: if arena == 0 { 0 } else { self.local_mem_size },
        };
        let r = catch_unwind(AssertUnwindSafe(|| {
            self.exe.code.run_work_group(self.kernel, &self.block, &ctx)
        }));
        match r {
            Ok(Ok(())) => Ok(()),
            Ok(Err(fault)) => Err(format!("work-group {group_id:?}: {}", fault.message)),
            Err(_) => Err(format!(
                "work-group {group_id:?}: internal error: the kernel's run panicked"
            )),
        }
    }

    /// The command's work: run every work-group.
    pub fn run(&self) -> CLResult<()> {
        let groups = self.num_groups();
        let total = groups[0] * groups[1] * groups[2];
        if total == 0 {
            return Ok(());
        }
        let info = self.exe.code.kernels().get(self.kernel);
        let inline_ok =
            info.is_some_and(|k| k.uses_barriers || k.private_mem_size <= INLINE_PRIVATE_LIMIT);
        let result = match pool() {
            Some(pool) if total > 1 || !inline_ok => self.run_parallel(pool, total, &groups),
            _ => with_arena(self.local_mem_size, |arena| {
                (0..total).try_for_each(|g| self.run_group(g, &groups, arena))
            }),
        };
        result.map_err(|m| {
            let message = format!("kernel '{}' failed: {m}", self.name());
            eprintln!("cranecl: {message}");
            ClError::new(CL_OUT_OF_RESOURCES, message)
        })
    }

    fn run_parallel(
        &self,
        pool: &rayon::ThreadPool,
        total: u64,
        groups: &[u64; 3],
    ) -> Result<(), String> {
        let threads = pool.current_num_threads().max(1) as u64;
        let chunk = total.div_ceil((threads * CHUNKS_PER_THREAD).min(total));
        let chunks = total.div_ceil(chunk);
        let failed = AtomicBool::new(false);
        let first_fault: Mutex<Option<String>> = Mutex::new(None);
        pool.install(|| {
            (0..chunks).into_par_iter().for_each(|c| {
                with_arena(self.local_mem_size, |arena| {
                    for g in c * chunk..((c + 1) * chunk).min(total) {
                        if failed.load(Ordering::Relaxed) {
                            return;
                        }
                        if let Err(m) = self.run_group(g, groups, arena) {
                            failed.store(true, Ordering::Relaxed);
                            first_fault.lock().get_or_insert(m);
                            return;
                        }
                    }
                })
            })
        });
        match first_fault.into_inner() {
            Some(m) => Err(m),
            None => Ok(()),
        }
    }
}
