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
//! thread (no hand-off: what keeps tiny launches cheap). Otherwise the ids
//! are cut into chunks (about eight per pool thread) dealt from an atomic
//! counter: the calling thread takes the first chunk and, if the time it took
//! says the rest is worth it, calls helpers from the pool (one per thread);
//! everyone then takes chunks until none is left, and the caller returns when
//! every chunk is done. Each thread owns one local arena (`LOCAL_MEM_SIZE`
//! bytes, 128-aligned, allocated on its first launch that needs local memory
//! and reused afterwards: `cranecl_memory::local`), so a group never
//! allocates.
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
use cranecl_jit::runtime::check::LaunchCheck;
use opencl_sys::CL_OUT_OF_RESOURCES;
use parking_lot::{Condvar, Mutex};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The execution status of a command whose kernel checked mode reported
/// (`CRANECL_CHECK`): `CL_OUT_OF_RESOURCES`, what a GPU driver answers for a
/// kernel that accessed memory it must not; the reports say what happened.
pub const CHECK_FAILED: i32 = CL_OUT_OF_RESOURCES;

/// Stack of each pool thread: room for the private memory the compiler lets
/// a kernel keep on the thread stack, and the runtime's own frames.
const WORKER_STACK: usize = 4 << 20;
/// A single-group launch runs on the calling thread only if its private
/// memory is at most this (the caller's stack size is not ours to know).
const INLINE_PRIVATE_LIMIT: u64 = 256 << 10;
/// Chunks per pool thread.
const CHUNKS_PER_THREAD: u64 = 8;
/// Work (estimated from the first chunk) below which the calling thread
/// runs the whole launch alone.
const HELPERS_WORTH: Duration = Duration::from_micros(40);
/// A launch whose kernel's latest launch took less than this runs on the
/// thread that finds it ready: a hand-off to a command worker costs about
/// as much (measured on 16 cores: 10,000 tiny launches then one `clFinish`,
/// 2.7-2.9 us per launch handed off, about 1 us run where enqueued).
const INLINE_LAUNCH: Duration = Duration::from_micros(5);

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
    /// Checked mode: the launch's objects and reports.
    pub check: Option<Arc<LaunchCheck>>,
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

/// Run `f` with this thread's local arena (0 if none is needed, or if it
/// cannot be allocated: the compiled code then reports the missing memory).
fn with_arena<R>(needed: u64, f: impl FnOnce(usize) -> R) -> R {
    cranecl_memory::local::with_arena(LOCAL_MEM_SIZE as usize, needed, f)
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
            linear / groups[0].saturating_mul(groups[1]),
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
            self.exe.code.run_work_group_checked(
                self.kernel,
                &self.block,
                &ctx,
                self.check.as_deref(),
                linear,
            )
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
    pub fn run(self) -> CLResult<()> {
        let start = Instant::now();
        let kernel = self.kernel;
        let exe = self.exe.clone();
        let items = self.global_size.iter().product::<u64>();
        let r = self.run_groups();
        if let Some(last) = exe.last_run.get(kernel) {
            let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            last.items.store(items, Ordering::Relaxed);
            last.nanos.store(ns, Ordering::Relaxed);
        }
        r
    }

    /// Whether a launch of `items` work-items of this kernel may run on
    /// whichever thread finds it ready (no hand-off to a command worker):
    /// its latest launch, of at least as many items, took under
    /// [`INLINE_LAUNCH`]. Commands may run at any time after they are
    /// enqueued, so this changes only which thread runs it.
    pub fn runs_inline(exe: &Executable, kernel: usize, items: u64) -> bool {
        exe.last_run.get(kernel).is_some_and(|last| {
            last.nanos.load(Ordering::Relaxed) <= INLINE_LAUNCH.as_nanos() as u64
                && items <= last.items.load(Ordering::Relaxed)
        })
    }

    fn run_groups(self) -> CLResult<()> {
        let groups = self.num_groups();
        let total = groups[0]
            .saturating_mul(groups[1])
            .saturating_mul(groups[2]);
        if total == 0 {
            return Ok(());
        }
        let info = self.exe.code.kernels().get(self.kernel);
        let inline_ok =
            info.is_some_and(|k| k.uses_barriers || k.private_mem_size <= INLINE_PRIVATE_LIMIT);
        let name = self.name().to_string();
        let check = self.check.clone();
        let result = match pool() {
            Some(pool) if total > 1 || !inline_ok => {
                Deal::run(self, pool, total, groups, inline_ok)
            }
            _ => with_arena(self.local_mem_size, |arena| {
                (0..total).try_for_each(|g| self.run_group(g, &groups, arena))
            }),
        };
        let reports = check.map(|c| c.reports()).unwrap_or_default();
        if !reports.is_empty() {
            // Checked mode: the command fails; every report is on stderr
            // and, joined, in the message the context's callback receives.
            let mut message = format!(
                "kernel '{name}' failed checked mode ({} error{}):\n",
                reports.len(),
                if reports.len() == 1 { "" } else { "s" }
            );
            for r in &reports {
                message.push_str(r);
            }
            if let Err(m) = &result {
                message.push_str(&format!("and then: {m}\n"));
            }
            eprint!("cranecl: {message}");
            return Err(ClError::new(CHECK_FAILED, message));
        }
        result.map_err(|m| {
            let message = format!("kernel '{name}' failed: {m}");
            eprintln!("cranecl: {message}");
            ClError::new(CL_OUT_OF_RESOURCES, message)
        })
    }
}

/// A launch being dealt out: chunks of work-group ids are taken in order
/// from `next` by the calling thread and by helpers on the pool; the caller
/// returns once every chunk is done (a helper that wakes late finds nothing
/// left and only drops its reference), so a small launch never waits for a
/// sleeping pool thread to wake.
struct Deal {
    launch: Launch,
    groups: [u64; 3],
    total: u64,
    chunk: u64,
    chunks: u64,
    next: AtomicU64,
    done: AtomicU64,
    failed: AtomicBool,
    fault: Mutex<Option<String>>,
    finished: Mutex<bool>,
    all_done: Condvar,
}

impl Deal {
    fn run(
        launch: Launch,
        pool: &rayon::ThreadPool,
        total: u64,
        groups: [u64; 3],
        caller_works: bool,
    ) -> Result<(), String> {
        let threads = pool.current_num_threads().max(1) as u64;
        let chunk = total.div_ceil((threads * CHUNKS_PER_THREAD).min(total));
        let chunks = total.div_ceil(chunk);
        let deal = Arc::new(Deal {
            launch,
            groups,
            total,
            chunk,
            chunks,
            next: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            fault: Mutex::new(None),
            finished: Mutex::new(false),
            all_done: Condvar::new(),
        });
        // The caller takes the first chunk; helpers (one per pool thread, no
        // more than the chunks left) are called only if the rest looks worth
        // a hand-off: waking a thread costs more than a few tiny groups. A
        // kernel with much private memory on the thread stack runs on the
        // pool only (whose stacks are known to be large enough).
        let left = if caller_works {
            let start = Instant::now();
            deal.work_chunks(1);
            let left = chunks.saturating_sub(deal.next.load(Ordering::Relaxed));
            let estimate = start
                .elapsed()
                .saturating_mul(u32::try_from(left).unwrap_or(u32::MAX));
            if estimate > HELPERS_WORTH {
                left
            } else {
                0
            }
        } else {
            chunks
        };
        for _ in 0..threads.min(left) {
            let d = deal.clone();
            pool.spawn(move || d.work_chunks(u64::MAX));
        }
        if caller_works {
            deal.work_chunks(u64::MAX);
        }
        let mut fin = deal.finished.lock();
        while !*fin {
            deal.all_done.wait(&mut fin);
        }
        drop(fin);
        let fault = deal.fault.lock().take();
        match fault {
            Some(m) => Err(m),
            None => Ok(()),
        }
    }

    /// Take up to `n` chunks, fewer if none is left.
    fn work_chunks(&self, n: u64) {
        with_arena(self.launch.local_mem_size, |arena| {
            for _ in 0..n {
                let c = self.next.fetch_add(1, Ordering::Relaxed);
                if c >= self.chunks {
                    return;
                }
                if !self.failed.load(Ordering::Relaxed) {
                    for g in c * self.chunk..((c + 1) * self.chunk).min(self.total) {
                        if let Err(m) = self.launch.run_group(g, &self.groups, arena) {
                            self.failed.store(true, Ordering::Relaxed);
                            self.fault.lock().get_or_insert(m);
                            break;
                        }
                    }
                }
                if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.chunks {
                    *self.finished.lock() = true;
                    self.all_done.notify_all();
                }
            }
        })
    }
}
