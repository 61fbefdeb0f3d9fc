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
//! are dealt from an atomic counter in contiguous chunks that shrink as the
//! launch goes (guided self-scheduling: a quarter of a thread's share of the
//! groups left, down to single groups), so groups of very different costs
//! still leave every thread busy to the end: the calling thread runs groups
//! one at a time and, once the time they took says the rest is worth it,
//! calls helpers from the pool (one per pool thread but one: the caller is a
//! worker too, and no core gets two); everyone then takes chunks until none
//! is left, and the caller returns when every group is done. Each thread owns one local arena (`LOCAL_MEM_SIZE`
//! bytes, 128-aligned, allocated on its first launch that needs local memory
//! and reused afterwards: `cranecl_memory::local`), so a group never
//! allocates.
//!
//! The pool is the device's own (not rayon's global one, which the host
//! application may use), started on the first launch that needs it, with
//! one thread per compute unit of the queue's device (the root device's:
//! `crate::core::device::compute_units()`, `CRANECL_THREADS` overrides; a
//! sub-device's: its share) and stacks large enough for the private memory
//! the compiler allows on a thread stack. A launch never runs more groups at
//! once than its device has compute units (the caller and the pool's
//! threads but one). A sub-device whose host CPUs are known keeps its
//! threads on them, and its groups run only there (the caller does not
//! take any).
//!
//! Under schedule fuzzing (`CRANECL_SCHEDULE`) a launch runs its groups
//! one after another on one thread (a pool thread when the kernel's
//! private memory needs one), in the order `runtime::schedule` gives for
//! the launch's number in its context, each group with its `GroupOrder`.
//!
//! A fault in any group (a `KernelFault` from the compiled code, or a panic)
//! stops the launch at the next group and fails the command with
//! `CL_OUT_OF_RESOURCES`; the message names the kernel and the group and is
//! printed on stderr and sent to the context's notify callback (by the event
//! layer). The host process never crashes on a kernel's behalf.

use crate::core::device::{Device, LOCAL_MEM_SIZE};
use crate::core::handle::Obj;
use crate::core::mem::Mem;
use crate::core::program::Executable;
use crate::error::{CLResult, ClError};
use cranecl_jit::launch::WorkGroupCtx;
use cranecl_jit::runtime::check::LaunchCheck;
use cranecl_jit::runtime::groups::GroupWalk;
use cranecl_jit::runtime::schedule::{self, GroupOrder, Schedule};
use opencl_sys::CL_OUT_OF_RESOURCES;
use parking_lot::{Condvar, Mutex};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
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
/// Work left (estimated from the groups the calling thread ran so far)
/// below which the calling thread goes on alone.
const HELPERS_WORTH: Duration = Duration::from_micros(40);
/// A launch whose kernel's latest launch took less than this runs on the
/// thread that finds it ready: a hand-off to a command worker costs about
/// as much (measured on 16 cores: 10,000 tiny launches then one `clFinish`,
/// 2.7-2.9 us per launch handed off, about 1 us run where enqueued).
const INLINE_LAUNCH: Duration = Duration::from_micros(5);

/// A captured kernel launch.
pub struct Launch {
    /// The queue's device: its pool runs the groups.
    pub device: Arc<Obj<Device>>,
    pub exe: Arc<Executable>,
    pub kernel: usize,
    pub block: crate::core::kernel::ArgBlock,
    /// Kept alive until the launch is dropped (after the command completes).
    pub keep: crate::core::kernel::KeptMems,
    /// The SVM allocations it reaches, kept alive the same way.
    pub keep_svm: Vec<Arc<crate::core::svm::Svm>>,
    pub work_dim: u32,
    pub global_size: [u64; 3],
    pub global_offset: [u64; 3],
    pub local_size: [u64; 3],
    /// Bytes of the local arena the kernel needs (locals and local arguments).
    pub local_mem_size: u64,
    /// Checked mode: the launch's objects and reports.
    pub check: Option<Arc<LaunchCheck>>,
    /// Schedule fuzzing: the context's schedule and this launch's number.
    pub schedule: Option<(Schedule, u64)>,
}

/// The device's pool: one thread per compute unit; a sub-device's threads
/// kept on its CPUs when they are known.
fn pool(device: &Device) -> Option<&rayon::ThreadPool> {
    device.pool(|| {
        let pinned = (!device.is_root())
            .then(|| device.cpus().map(<[usize]>::to_vec))
            .flatten();
        let tag = if device.is_root() { "" } else { "sub-" };
        let mut b = rayon::ThreadPoolBuilder::new()
            .num_threads(device.compute_units() as usize)
            .stack_size(WORKER_STACK)
            .thread_name(move |i| format!("cranecl-{tag}ndrange-{i}"));
        if let Some(cpus) = pinned {
            b = b.start_handler(move |_| crate::core::partition::pin_current_thread(&cpus));
        }
        b.build().ok()
    })
}

/// Run `f` with this thread's local arena (0 if none is needed, or if it
/// cannot be allocated: the compiled code then reports the missing memory).
fn with_arena<R>(needed: u64, f: impl FnOnce(usize) -> R) -> R {
    cranecl_memory::local::with_arena(LOCAL_MEM_SIZE as usize, needed, f)
}

impl Launch {
    fn num_groups(&self) -> [u64; 3] {
        let mut n = [1u64; 3];
        for (d, n) in n.iter_mut().enumerate() {
            *n = self.global_size[d].div_ceil(self.local_size[d].max(1));
        }
        n
    }

    /// The launch's geometry, for any of its groups (`group_id` and
    /// `local_size` are each group's own: `run_work_groups` fills them in).
    fn geometry(&self, groups: &[u64; 3], arena: usize) -> WorkGroupCtx {
        WorkGroupCtx {
            work_dim: self.work_dim,
            global_size: self.global_size,
            global_offset: self.global_offset,
            local_size: self.local_size,
            enqueued_local_size: self.local_size,
            num_groups: *groups,
            group_id: [0; 3],
            local_mem: arena,
            local_mem_size: if arena == 0 { 0 } else { self.local_mem_size },
        }
    }

    /// Run the work-groups of linear ids `range`, one after another, with
    /// the local arena at `arena`, stopping at the first that fails.
    fn run_range(
        &self,
        range: std::ops::Range<u64>,
        groups: &[u64; 3],
        arena: usize,
    ) -> Result<(), String> {
        let ctx = self.geometry(groups, arena);
        let r = catch_unwind(AssertUnwindSafe(|| {
            self.exe.code.run_work_groups(
                self.kernel,
                &self.block,
                &ctx,
                range.clone(),
                self.check.as_deref(),
            )
        }));
        match r {
            Ok(Ok(())) => Ok(()),
            Ok(Err((group_id, fault))) => {
                Err(format!("work-group {group_id:?}: {}", fault.message))
            }
            Err(_) => Err(format!(
                "work-groups {}..{} (linear ids): internal error: the kernel's run panicked",
                range.start, range.end
            )),
        }
    }

    /// Schedule fuzzing: run one work-group (by linear id) with its `order`.
    fn run_scheduled_group(
        &self,
        linear: u64,
        groups: &[u64; 3],
        arena: usize,
        order: &GroupOrder,
    ) -> Result<(), String> {
        let launch = self.geometry(groups, arena);
        let walk = GroupWalk::new(&launch, linear);
        let group_id = walk.id();
        let ctx = WorkGroupCtx {
            local_size: walk.local_size(),
            group_id,
            ..launch
        };
        let r = catch_unwind(AssertUnwindSafe(|| {
            self.exe.code.run_work_group_checked(
                self.kernel,
                &self.block,
                &ctx,
                self.check.as_deref(),
                linear,
                Some(order),
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

    /// The command's work: run every work-group. A launch of one group
    /// that may run on this thread (most small launches) runs through
    /// borrows of the launch: no reference counted on the way.
    pub fn run(self) -> CLResult<()> {
        let items = self.global_size.iter().product::<u64>();
        // Timed when its duration may change where the next launch runs
        // (`runs_inline`): not for 7 of 8 launches known to be short.
        let timed = self
            .exe
            .last_run
            .get(self.kernel)
            .is_some_and(|last| last.due(items, INLINE_LAUNCH.as_nanos() as u64))
            .then(Instant::now);
        let groups = self.num_groups();
        let total = groups[0]
            .saturating_mul(groups[1])
            .saturating_mul(groups[2]);
        let info = self.exe.code.kernels().get(self.kernel);
        // A sub-device on known CPUs runs its groups on its own threads only.
        let pinned = !self.device.is_root() && self.device.cpus().is_some();
        let inline_ok = !pinned
            && info.is_some_and(|k| {
                k.uses_barriers || k.may_wait || k.private_mem_size <= INLINE_PRIVATE_LIMIT
            });
        if total == 0 {
            Ok(())
        } else if self.schedule.is_some() {
            let result = self.run_scheduled(total, groups, inline_ok);
            self.conclude(result, items, timed)
        } else if total == 1 && inline_ok {
            let result = with_arena(self.local_mem_size, |arena| {
                self.run_range(0..1, &groups, arena)
            });
            self.conclude(result, items, timed)
        } else {
            // The deal takes the launch: what the end needs is kept here
            // (the memory objects too, alive until the groups are done).
            let (exe, check, device) = (self.exe.clone(), self.check.clone(), self.device.clone());
            let kernel = self.kernel;
            let mut this = self;
            let keep = std::mem::take(&mut this.keep);
            let block = this.block.clone();
            let result = match pool(&device) {
                Some(pool) => Deal::run(this, pool, total, groups, inline_ok),
                None => with_arena(this.local_mem_size, |arena| {
                    this.run_range(0..total, &groups, arena)
                }),
            };
            let args = Args {
                keep: &keep,
                block: &block,
            };
            conclude(&exe, kernel, check.as_deref(), args, result, items, timed)
        }
    }

    /// [`conclude`] for a launch that still holds its executable.
    fn conclude(
        &self,
        result: Result<(), String>,
        items: u64,
        timed: Option<Instant>,
    ) -> CLResult<()> {
        let args = Args {
            keep: &self.keep,
            block: &self.block,
        };
        conclude(
            &self.exe,
            self.kernel,
            self.check.as_deref(),
            args,
            result,
            items,
            timed,
        )
    }

    /// Whether a launch of `items` work-items of this kernel may run on
    /// whichever thread finds it ready (no hand-off to a command worker):
    /// one of its latest two launches took under `INLINE_LAUNCH`, and the
    /// latest had at least as many items. Commands may run at any time after they are
    /// enqueued, so this changes only which thread runs it.
    pub fn runs_inline(exe: &Executable, kernel: usize, items: u64) -> bool {
        exe.last_run
            .get(kernel)
            .is_some_and(|last| last.short(items, INLINE_LAUNCH.as_nanos() as u64))
    }

    /// Schedule fuzzing: every group, one after another in the schedule's
    /// order, on the calling thread (or one pool thread, for kernels whose
    /// private memory needs its stack).
    fn run_scheduled(&self, total: u64, groups: [u64; 3], inline_ok: bool) -> Result<(), String> {
        let Some((sched, launch)) = self.schedule else {
            return Ok(());
        };
        let order = schedule::group_order(sched, launch, total);
        let run = || {
            with_arena(self.local_mem_size, |arena| {
                (0..total).try_for_each(|k| {
                    let g = order.at(k);
                    let group = GroupOrder::new(sched, launch, g);
                    self.run_scheduled_group(g, &groups, arena, &group)
                })
            })
        };
        match pool(&self.device) {
            Some(pool) if !inline_ok => pool.install(run),
            _ => run(),
        }
    }
}

/// A launch's memory objects and argument block, for [`conclude`].
struct Args<'a> {
    keep: &'a [Arc<Obj<Mem>>],
    block: &'a [u8],
}

/// The end of a launch of `exe`'s kernel `kernel`: its duration recorded
/// (`timed`: when it started, if it was to be timed), the red zones of its
/// buffers looked at ([`report_overruns`], outside checked mode, which
/// reports each access itself), and its result made the command's (checked
/// mode's reports fail it).
fn conclude(
    exe: &Executable,
    kernel: usize,
    check: Option<&LaunchCheck>,
    args: Args<'_>,
    result: Result<(), String>,
    items: u64,
    timed: Option<Instant>,
) -> CLResult<()> {
    if let (Some(last), Some(start)) = (exe.last_run.get(kernel), timed) {
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        last.record(items, ns);
    }
    if check.is_none() {
        report_overruns(exe, kernel, &args);
    }
    // The kernel's name, for a failure's message.
    let name = || {
        exe.code
            .kernels()
            .get(kernel)
            .map_or("?", |k| k.name.as_str())
            .to_string()
    };
    let reports = check.map(|c| c.reports()).unwrap_or_default();
    if !reports.is_empty() {
        // Checked mode: the command fails; every report is on stderr
        // and, joined, in the message the context's callback receives.
        let mut message = format!(
            "kernel '{}' failed checked mode ({} error{}):\n",
            name(),
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
        let message = format!("kernel '{}' failed: {m}", name());
        eprintln!("cranecl: {message}");
        ClError::new(CL_OUT_OF_RESOURCES, message)
    })
}

/// A kernel that wrote past the end of a small buffer argument (into the
/// red zone after it, `cranecl_memory::global`): the command ran to its end
/// and is not failed, since its results are all there (a large buffer's
/// guard faults and fails the command instead, because the group stops
/// there). Each such buffer is named on stderr and to its context's notify
/// callback, with how far the write went, and its red zone is cleared. A
/// red zone found changed here may have been written by another command
/// running at the same time with the same buffer; the message says where it
/// was found.
fn report_overruns(exe: &Executable, kernel: usize, args: &Args<'_>) {
    for m in args.keep {
        let Some(past) = m.overrun(true) else {
            continue;
        };
        m.clear_overrun();
        let info = exe.code.kernels().get(kernel);
        let kernel_name = info.map_or("?", |k| k.name.as_str());
        // The argument that points at this object, by its address.
        let base = (m.base() as u64).to_le_bytes();
        let arg = info.and_then(|k| {
            k.args.iter().find(|a| {
                let at = a.offset as usize;
                args.block.get(at..at + 8) == Some(&base[..])
            })
        });
        let what = match arg {
            Some(a) => format!("buffer argument '{}'", a.name),
            None => "a buffer argument".to_string(),
        };
        let size = match m.parent() {
            Some(p) => format!("a sub-buffer of a buffer of {} bytes", p.size()),
            None => format!("{} bytes", m.size()),
        };
        let message = format!(
            "kernel '{kernel_name}' wrote past the end of its {what} ({size}): \
             bytes up to {past} past the end were changed, found when the launch \
             ended; the command completed (memory further on may have been changed \
             too); CRANECL_CHECK=bounds reports each access"
        );
        eprintln!("cranecl: {message}");
        m.context().notify(&message);
    }
}

/// A launch being dealt out. Group ids are handed out from `next` in
/// contiguous chunks (neighbouring groups often share data) of shrinking
/// size: a take gets `1 / (GUIDED_SHARE x threads)` of the groups still
/// left, at least one. Early chunks are large (few atomic operations), the
/// last ones single groups, so however unevenly the groups cost (a
/// mandelbrot's rows), the threads run out of work at nearly the same time.
///
/// The calling thread starts alone, one group at a time, and calls helpers
/// (one per pool thread but one: the caller is the last worker) once the
/// groups left look worth a hand-off by what its own groups took so far; a
/// launch that is all cheap groups never wakes the pool. The caller returns
/// once every group is done (a helper that wakes late finds nothing left and
/// only drops its reference), so a small launch never waits for a sleeping
/// pool thread. Until it calls helpers the deal lives on the caller's
/// stack: a launch that ends alone allocates nothing.
struct Deal {
    launch: Launch,
    groups: [u64; 3],
    total: u64,
    /// Threads that may take chunks (the pool's, or the pool's and the caller).
    threads: u64,
    next: AtomicU64,
    done: AtomicU64,
    failed: AtomicBool,
    fault: Mutex<Option<String>>,
    finished: Mutex<bool>,
    all_done: Condvar,
}

/// A take gets this fraction of a thread's fair share of the groups left:
/// a chunk whose groups cost up to `GUIDED_SHARE` times the average of those
/// left still ends before the other threads run dry.
const GUIDED_SHARE: u64 = 4;

impl Deal {
    fn run(
        launch: Launch,
        pool: &rayon::ThreadPool,
        total: u64,
        groups: [u64; 3],
        caller_works: bool,
    ) -> Result<(), String> {
        let pool_threads = pool.current_num_threads().max(1) as u64;
        let deal = Deal {
            launch,
            groups,
            total,
            threads: pool_threads,
            next: AtomicU64::new(0),
            done: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            fault: Mutex::new(None),
            finished: Mutex::new(false),
            all_done: Condvar::new(),
        };
        let deal = if caller_works {
            // A kernel with much private memory on the thread stack runs on
            // the pool only (whose stacks are known to be large enough).
            // The caller starts alone with the deal on its own stack: a
            // launch of cheap groups ends here, having allocated nothing.
            let arena_size = deal.launch.local_mem_size;
            if !with_arena(arena_size, |arena| deal.work_alone(arena)) {
                return deal.outcome();
            }
            let helpers = pool_threads.saturating_sub(1).min(deal.left());
            if helpers == 0 {
                // No other thread to hand to (a pool of one): on alone.
                with_arena(arena_size, |arena| deal.work_chunks(arena));
                return deal.outcome();
            }
            // Shared from here: helpers may hold it after the caller
            // returns (one that wakes late finds nothing left).
            let deal = Arc::new(deal);
            deal.call_helpers(pool, helpers);
            with_arena(arena_size, |arena| deal.work_chunks(arena));
            deal
        } else {
            let deal = Arc::new(deal);
            deal.call_helpers(pool, pool_threads.min(total));
            deal
        };
        let mut fin = deal.finished.lock();
        while !*fin {
            deal.all_done.wait(&mut fin);
        }
        drop(fin);
        deal.outcome()
    }

    /// The first fault of a finished launch, if any.
    fn outcome(&self) -> Result<(), String> {
        match self.fault.lock().take() {
            Some(m) => Err(m),
            None => Ok(()),
        }
    }

    fn call_helpers(self: &Arc<Self>, pool: &rayon::ThreadPool, helpers: u64) {
        for _ in 0..helpers {
            let d = self.clone();
            pool.spawn(move || with_arena(d.launch.local_mem_size, |arena| d.work_chunks(arena)));
        }
    }

    /// Groups not yet handed out.
    fn left(&self) -> u64 {
        self.total.saturating_sub(self.next.load(Ordering::Relaxed))
    }

    /// The caller's start: one group at a time until none is left (false)
    /// or the groups left, at the average time of those it ran, would take
    /// longer than [`HELPERS_WORTH`] (true: call helpers).
    fn work_alone(&self, arena: usize) -> bool {
        let start = Instant::now();
        let mut ran = 0u64;
        while let Some(one) = self.take_chunk(1) {
            self.run_chunk(one, arena);
            ran += 1;
            let left = self.left();
            if left == 0 {
                return false;
            }
            let per_group = start.elapsed() / u32::try_from(ran).unwrap_or(u32::MAX);
            if per_group.saturating_mul(u32::try_from(left).unwrap_or(u32::MAX)) > HELPERS_WORTH {
                return true;
            }
        }
        false
    }

    /// Takes a chunk of at most `max` groups: the guided share of those
    /// left (see [`GUIDED_SHARE`]), at least one.
    fn take_chunk(&self, max: u64) -> Option<std::ops::Range<u64>> {
        let mut first = self.next.load(Ordering::Relaxed);
        loop {
            if first >= self.total {
                return None;
            }
            let left = self.total - first;
            let n = (left / (GUIDED_SHARE * self.threads)).clamp(1, max);
            match self.next.compare_exchange_weak(
                first,
                first + n,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(first..first + n),
                Err(now) => first = now,
            }
        }
    }

    /// Take chunks until none is left.
    fn work_chunks(&self, arena: usize) {
        while let Some(chunk) = self.take_chunk(u64::MAX) {
            self.run_chunk(chunk, arena);
        }
    }

    /// Run a chunk's groups (none once a group of the launch failed) and
    /// count them done; the last to finish wakes the caller.
    fn run_chunk(&self, chunk: std::ops::Range<u64>, arena: usize) {
        let n = chunk.end - chunk.start;
        if !self.failed.load(Ordering::Relaxed) {
            if let Err(m) = self.launch.run_range(chunk, &self.groups, arena) {
                self.failed.store(true, Ordering::Relaxed);
                self.fault.lock().get_or_insert(m);
            }
        }
        if self.done.fetch_add(n, Ordering::AcqRel) + n == self.total {
            *self.finished.lock() = true;
            self.all_done.notify_all();
        }
    }
}
