//! A run-time fault in generated code (a bad pointer, a stack overflow, a
//! trap): the work-group is abandoned and the command fails where that is
//! safe; otherwise the fault is reported before the process dies. Never a
//! silent death of the host.
//!
//! Set-up:
//! - On the first work-group a process runs, [`enter`] installs one
//!   process-wide handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE
//!   (`SA_SIGINFO | SA_ONSTACK`), remembering the dispositions it replaces,
//!   and notes the executable segments of every object loaded then (the
//!   program, this library, libc, libm…: all code a kernel can reach that is
//!   not generated). Nothing is installed at library load: a host that never
//!   launches a kernel keeps its handlers untouched.
//! - The first time a thread runs a work-group it claims a slot (keyed by
//!   its kernel thread id) in a fixed static table, and, if it has no
//!   alternate signal stack, maps one of its own (64 KiB above a guard
//!   page) so that a stack overflow can still be handled. A thread that
//!   already has an alternate stack (the host's, or Rust's) keeps it. Both
//!   are given back when the thread exits.
//! - Around every work-group [`enter`] marks the slot "running" (kernel name,
//!   group id). The runtime calls generated code through [`call`], which
//!   records a [`Checkpoint`] (return address, stack pointer, callee-saved
//!   registers), [`arm`]ed in the slot while that code runs (a child of
//!   `fork` re-keys the slots to its own thread). Work-item coroutine stacks come
//!   from corosensei's `DefaultStack`, which has a guard page below, so an
//!   overflow there faults instead of overwriting memory.
//!
//! In the handler (async-signal-safe: no allocation, no lock, no
//! thread-local access, which may allocate in a `dlopen`ed library), the
//! thread's slot is found by scanning the table for its thread id. Then:
//! - *Recovery* (x86_64): the thread runs a kernel, a checkpoint is armed,
//!   the faulting instruction is not in any object noted at set-up (so it is
//!   generated code, and every frame between it and the checkpoint is
//!   generated code too, or the runtime's loop over a run of groups in
//!   `groups.rs`, which owns nothing: generated code calls only host
//!   functions that return before it goes on), and the faulting stack
//!   pointer lies on the checkpoint's stack. The handler records the fault
//!   in the slot, disarms the checkpoint and edits the saved context so that
//!   returning from the handler resumes as if [`call`] had returned
//!   "faulted". Generated frames are discarded; they own nothing (no
//!   destructors, no locks). The runtime then stops the group (other
//!   work-items of a coroutine group are never resumed and their suspended
//!   stacks are reset, which is sound because only generated frames and
//!   `cranecl_barrier` lie on them), and
//!   `run_work_group` returns a `KernelFault`, so the command fails with a CL
//!   error and the message names the kernel and the group. The handler
//!   also records whether a page fault was a read or a write (bit 1 of the
//!   x86 error code in the ucontext); [`Fault::message`], in normal code
//!   after recovery, looks the address up in the memory registry and names
//!   the allocation and the offset ("just past the end of a buffer of 16384
//!   bytes (in its guard region)").
//! - *Report*: any other fault while a kernel runs (in a host function a
//!   kernel called, in the runtime, or on another architecture) writes one
//!   line to fd 2 with `write(2)` from a buffer on the signal stack —
//!   `cranecl: kernel 'NAME' crashed: invalid memory access at 0x… (work-group
//!   (x,y,z)); the host program is stopped` — then puts back the disposition
//!   it replaced and returns: the faulting instruction runs again and faults
//!   under the host's own handler or the default action (the process dies
//!   of the same signal, with its core dump). Host code may hold locks or
//!   half-updated state there, so leaving it would not be safe.
//! - *Outside a kernel* the handler chains to the replaced disposition as if
//!   it were not there: it calls the host's handler, or restores the default
//!   and lets the fault happen again.
//!
//! Limits: Linux only, recovery on x86_64 only (aarch64 reports); at most
//! [`MAX_THREADS`] threads at once are covered (the others die as before); a
//! frame of generated code larger than a guard page could skip it (Cranelift
//! does not probe the stack here), which is why the compiler bounds private
//! memory; a process with CET shadow stacks enabled would need them
//! adjusted too (Rust binaries do not enable them); after a report the other
//! threads run without the handler (the process is stopping); a fault in a
//! host function called by a kernel (an aggregate copy through a bad
//! pointer reaches `memmove`) is reported, not recovered; a host that
//! installs its own handler after the first launch sees kernel faults first
//! (and recovers them only if it chains to ours).

use super::{EntryFn, ItemState};
use std::marker::PhantomData;

/// Threads that can be running kernels at once with a report on a fault.
pub const MAX_THREADS: usize = 1024;

/// Marks this thread as running `kernel`'s work-group `group_id` until the
/// returned guard drops. Installs the handler on the first call in the
/// process and sets the thread up on its first call.
pub fn enter(kernel: &str, group_id: [u64; 3]) -> Running<'_> {
    Running {
        slot: imp::enter(kernel, group_id),
        _name: PhantomData,
    }
}

/// A work-group being run on this thread (see [`enter`]).
pub struct Running<'a> {
    slot: Option<usize>,
    /// The slot points at the kernel's name: it must outlive the guard.
    _name: PhantomData<&'a str>,
}

impl Running<'_> {
    /// A run of groups entered once (`runtime::groups`): the id of the
    /// group running is the three `u64`s at `group_id` (the run's
    /// `GroupState`, which generated code moves on), until the guard drops
    /// or this is called again (null: the id given to [`enter`]). A report
    /// names that group.
    ///
    /// # Safety
    /// `group_id` is null or readable for three `u64`s while it is followed.
    pub unsafe fn follow_group(&self, group_id: *const u64) {
        if let Some(s) = self.slot {
            imp::follow_group(s, group_id, false);
        }
    }

    /// A row of work-groups of one work-item run in one call
    /// (`lower::one_item_groups`): as [`Self::follow_group`], the group
    /// running being the row's step under way (`GroupState::row_step`,
    /// `runtime::row_step_group`).
    ///
    /// # Safety
    /// `group_id` is the `group_id` of a `GroupState` that outlives the
    /// guard (or until this or `follow_group` is called again).
    pub unsafe fn follow_row(&self, group_id: *const u64) {
        if let Some(s) = self.slot {
            imp::follow_group(s, group_id, true);
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.slot {
            imp::leave(s);
        }
    }
}

/// Where a faulting call of generated code resumes: the return address and
/// stack pointer of [`call`]'s caller and its callee-saved registers.
#[repr(C)]
#[derive(Debug, Default)]
pub struct Checkpoint {
    regs: [u64; 8],
}

/// A fault in generated code that abandoned a call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fault {
    pub signal: i32,
    /// The faulting address (the instruction's, for SIGILL and SIGFPE).
    pub addr: usize,
    /// Close below the stack pointer: the stack ran out.
    pub stack_overflow: bool,
    /// For a page fault: whether the access was a write (`None`: unknown).
    pub write: Option<bool>,
}

impl Fault {
    /// What happened, in the user's words, with the allocation the address
    /// belongs to when the registry knows it ("invalid write at 0x… in
    /// generated code, just past the end of a buffer of 16384 bytes (in its
    /// guard region)"). Called after recovery, in normal code: the handler
    /// only records the address.
    pub fn message(&self) -> String {
        let what = match self.signal {
            libc::SIGSEGV if self.stack_overflow => {
                "stack overflow (private memory and call frames outgrew the work-item's stack)"
            }
            libc::SIGSEGV => match self.write {
                Some(true) => "invalid write",
                Some(false) => "invalid read",
                None => "invalid memory access",
            },
            libc::SIGBUS => "invalid memory access (bus error)",
            libc::SIGILL => "trap (illegal instruction)",
            _ => "arithmetic exception (integer division by zero or overflow)",
        };
        let data_fault =
            matches!(self.signal, libc::SIGSEGV | libc::SIGBUS) && !self.stack_overflow;
        let place = cranecl_memory::registry::lookup(self.addr)
            .filter(|_| data_fault)
            .map(|f| format!(", {}", f.describe(self.addr)))
            .unwrap_or_default();
        format!(
            "{what} at {:#x} in generated code{place}; the work-group was abandoned",
            self.addr
        )
    }
}

/// Make `cp` the recovery point of the kernel this thread runs (the
/// coroutine runtime arms each work-item's checkpoint before resuming it).
pub fn arm(cp: *mut Checkpoint) {
    imp::arm(cp)
}

/// No recovery point until the next [`arm`].
pub fn disarm() {
    imp::arm(std::ptr::null_mut())
}

/// Call `entry(item, args)`, recording the checkpoint `cp`. Returns the
/// fault if one in generated code abandoned the call (`cp` must be armed
/// while generated code runs; [`call_armed`] does both).
///
/// # Safety
/// `entry` may be called with `item` and `args`; `cp` is valid until return.
pub unsafe fn call(
    cp: *mut Checkpoint,
    entry: EntryFn,
    item: *mut ItemState,
    args: *const u8,
) -> Result<(), Fault> {
    // SAFETY: per the function's contract.
    unsafe { imp::call(cp, entry, item, args) }
}

/// [`call`] with a checkpoint of its own, armed for the call.
///
/// # Safety
/// As [`call`].
pub unsafe fn call_armed(
    entry: EntryFn,
    item: *mut ItemState,
    args: *const u8,
) -> Result<(), Fault> {
    let mut cp = Checkpoint::default();
    arm(&mut cp);
    // SAFETY: per the function's contract; `cp` outlives the call.
    let r = unsafe { call(&mut cp, entry, item, args) };
    disarm();
    r
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod imp {
    use super::{Checkpoint, EntryFn, Fault, ItemState, MAX_THREADS};
    use libc::{c_int, c_void, siginfo_t};
    use std::cell::{Cell, UnsafeCell};
    use std::mem::MaybeUninit;
    use std::sync::atomic::{
        compiler_fence, AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize,
        Ordering,
    };
    use std::sync::Once;

    /// The signals the handler takes.
    const SIGNALS: [c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];
    /// Size of the alternate signal stack a thread without one is given.
    const ALT_STACK_SIZE: usize = 64 << 10;
    /// A fault this close below (or a page above) the stack pointer is
    /// taken to be a stack overflow.
    const OVERFLOW_REACH: usize = 64 << 10;

    /// What the handler knows of one thread. Only that thread writes it
    /// (except `tid`, claimed by compare-and-swap), and the handler reads it
    /// on the same thread, so relaxed atomics with compiler fences suffice.
    #[repr(C, align(64))]
    struct Slot {
        /// Kernel thread id of the owner; 0 when free.
        tid: AtomicI32,
        running: AtomicBool,
        name: AtomicPtr<u8>,
        name_len: AtomicUsize,
        group: [AtomicU64; 3],
        /// When not null, the group's id is the three `u64`s here instead.
        group_at: AtomicPtr<u64>,
        /// `group_at` is a row's (`Running::follow_row`).
        row: AtomicBool,
        /// The armed checkpoint (null: none).
        jmp: AtomicPtr<Checkpoint>,
        /// The last fault recovered from, for [`call`] to return.
        fault_sig: AtomicI32,
        fault_addr: AtomicUsize,
        fault_overflow: AtomicBool,
        /// The access of the last page fault: 0 unknown, 1 read, 2 write.
        fault_access: AtomicU8,
    }

    static SLOTS: [Slot; MAX_THREADS] = [const {
        Slot {
            tid: AtomicI32::new(0),
            running: AtomicBool::new(false),
            name: AtomicPtr::new(std::ptr::null_mut()),
            name_len: AtomicUsize::new(0),
            group: [const { AtomicU64::new(0) }; 3],
            group_at: AtomicPtr::new(std::ptr::null_mut()),
            row: AtomicBool::new(false),
            jmp: AtomicPtr::new(std::ptr::null_mut()),
            fault_sig: AtomicI32::new(0),
            fault_addr: AtomicUsize::new(0),
            fault_overflow: AtomicBool::new(false),
            fault_access: AtomicU8::new(0),
        }
    }; MAX_THREADS];

    /// The dispositions replaced by the handler, in `SIGNALS` order.
    struct Previous(UnsafeCell<[MaybeUninit<libc::sigaction>; 4]>);
    // SAFETY: written once inside `INSTALL` before any handler is installed,
    // only read afterwards.
    unsafe impl Sync for Previous {}
    static PREVIOUS: Previous = Previous(UnsafeCell::new([MaybeUninit::uninit(); 4]));
    static INSTALL: Once = Once::new();

    /// This thread's slot and alternate stack, given back at thread exit.
    struct ThreadSetup {
        slot: Option<usize>,
        /// `(mapping, length)` when the alternate stack is ours.
        alt_stack: Option<(*mut c_void, usize)>,
    }

    /// Executable segments of the objects loaded when the handler was
    /// installed: `[start, end)` pairs, `CODE_LEN` of them.
    static CODE: [[AtomicUsize; 2]; 2048] = [const { [const { AtomicUsize::new(0) }; 2] }; 2048];
    static CODE_LEN: AtomicUsize = AtomicUsize::new(0);
    /// False when `CODE` could not hold them all: never recover then.
    static CODE_COMPLETE: AtomicBool = AtomicBool::new(false);

    thread_local! {
        static THREAD: ThreadSetup = ThreadSetup::new();
        /// The slot of the work-group running on this thread (`usize::MAX`: none).
        static CURRENT: Cell<usize> = const { Cell::new(usize::MAX) };
        /// `THREAD`'s slot, readable without setting the thread up.
        static MY_SLOT: Cell<usize> = const { Cell::new(usize::MAX) };
    }

    fn gettid() -> i32 {
        // SAFETY: gettid takes no arguments and cannot fail.
        unsafe { libc::syscall(libc::SYS_gettid) as i32 }
    }

    fn page_size() -> usize {
        // SAFETY: sysconf has no preconditions.
        let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if p > 0 {
            p as usize
        } else {
            4096
        }
    }

    impl ThreadSetup {
        fn new() -> ThreadSetup {
            let tid = gettid();
            let slot = SLOTS.iter().position(|s| {
                s.tid
                    .compare_exchange(0, tid, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
            });
            if let Some(s) = slot {
                let _ = MY_SLOT.try_with(|c| c.set(s));
            }
            ThreadSetup {
                slot,
                alt_stack: slot.and_then(|_| alt_stack()),
            }
        }
    }

    impl Drop for ThreadSetup {
        fn drop(&mut self) {
            if let Some((map, len)) = self.alt_stack {
                let page = page_size();
                // SAFETY: `map` is our mapping of `len` bytes; the alternate
                // stack is switched off first if it is still ours (we are
                // not running on it: this is not a signal handler).
                unsafe {
                    let mut cur: libc::stack_t = std::mem::zeroed();
                    if libc::sigaltstack(std::ptr::null(), &mut cur) == 0
                        && cur.ss_sp == (map as *mut u8).add(page) as *mut c_void
                    {
                        let off = libc::stack_t {
                            ss_sp: std::ptr::null_mut(),
                            ss_flags: libc::SS_DISABLE,
                            ss_size: 0,
                        };
                        libc::sigaltstack(&off, std::ptr::null_mut());
                    }
                    libc::munmap(map, len);
                }
            }
            if let Some(s) = self.slot {
                let _ = MY_SLOT.try_with(|c| c.set(usize::MAX));
                SLOTS[s].running.store(false, Ordering::Relaxed);
                SLOTS[s].tid.store(0, Ordering::Release);
            }
        }
    }

    /// Give this thread an alternate signal stack unless it has one.
    fn alt_stack() -> Option<(*mut c_void, usize)> {
        let page = page_size();
        let len = ALT_STACK_SIZE + page;
        // SAFETY: plain system calls on memory this function maps.
        unsafe {
            let mut cur: libc::stack_t = std::mem::zeroed();
            if libc::sigaltstack(std::ptr::null(), &mut cur) != 0
                || cur.ss_flags & libc::SS_DISABLE == 0
            {
                return None;
            }
            let map = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if map == libc::MAP_FAILED {
                return None;
            }
            let stack = (map as *mut u8).add(page) as *mut c_void;
            let new = libc::stack_t {
                ss_sp: stack,
                ss_flags: 0,
                ss_size: ALT_STACK_SIZE,
            };
            if libc::mprotect(stack, ALT_STACK_SIZE, libc::PROT_READ | libc::PROT_WRITE) != 0
                || libc::sigaltstack(&new, std::ptr::null_mut()) != 0
            {
                libc::munmap(map, len);
                return None;
            }
            Some((map, len))
        }
    }

    /// `dl_iterate_phdr` callback: note every executable segment.
    unsafe extern "C" fn note_object(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        _data: *mut c_void,
    ) -> c_int {
        // SAFETY: the loader passes a valid record whose program headers
        // are `dlpi_phnum` entries at `dlpi_phdr`.
        let (base, phdrs) = unsafe {
            let info = &*info;
            let phdrs: &[libc::Elf64_Phdr] = if info.dlpi_phdr.is_null() {
                &[]
            } else {
                std::slice::from_raw_parts(info.dlpi_phdr, usize::from(info.dlpi_phnum))
            };
            (info.dlpi_addr as usize, phdrs)
        };
        for ph in phdrs {
            if ph.p_type != libc::PT_LOAD || ph.p_flags & libc::PF_X == 0 {
                continue;
            }
            let n = CODE_LEN.load(Ordering::Relaxed);
            let Some(entry) = CODE.get(n) else {
                CODE_COMPLETE.store(false, Ordering::Relaxed);
                return 1;
            };
            let start = base.wrapping_add(ph.p_vaddr as usize);
            entry[0].store(start, Ordering::Relaxed);
            entry[1].store(start.wrapping_add(ph.p_memsz as usize), Ordering::Relaxed);
            CODE_LEN.store(n + 1, Ordering::Relaxed);
        }
        0
    }

    /// Whether `pc` lies in an object loaded when the handler was installed
    /// (async-signal-safe). True when unsure.
    fn in_loaded_object(pc: usize) -> bool {
        if !CODE_COMPLETE.load(Ordering::Acquire) {
            return true;
        }
        let n = CODE_LEN.load(Ordering::Relaxed).min(CODE.len());
        CODE[..n].iter().any(|[start, end]| {
            (start.load(Ordering::Relaxed)..end.load(Ordering::Relaxed)).contains(&pc)
        })
    }

    /// In the child of a `fork`, the other threads' slots name threads that
    /// do not exist there (and whose ids may be reused): free them, and
    /// give the forking thread's slot its new id.
    extern "C" fn after_fork_in_child() {
        for s in &SLOTS {
            s.running.store(false, Ordering::Relaxed);
            s.jmp.store(std::ptr::null_mut(), Ordering::Relaxed);
            s.tid.store(0, Ordering::Relaxed);
        }
        if let Some(slot) = MY_SLOT
            .try_with(|c| c.get())
            .ok()
            .and_then(|s| SLOTS.get(s))
        {
            slot.tid.store(gettid(), Ordering::Release);
        }
    }

    fn install() {
        // SAFETY: registers a function that only touches this module's state.
        unsafe { libc::pthread_atfork(None, None, Some(after_fork_in_child)) };
        CODE_COMPLETE.store(true, Ordering::Relaxed);
        // SAFETY: the callback only reads the records it is given.
        unsafe { libc::dl_iterate_phdr(Some(note_object), std::ptr::null_mut()) };
        // Publish the list before the handler can read it.
        if CODE_COMPLETE.load(Ordering::Relaxed) {
            CODE_COMPLETE.store(true, Ordering::Release);
        }
        // SAFETY: `PREVIOUS` is only written here, once, before the handler
        // (its only reader) is installed; the sigaction records are
        // zero-initialised C structs.
        unsafe {
            let prev = &mut *PREVIOUS.0.get();
            for (i, &sig) in SIGNALS.iter().enumerate() {
                let mut old: libc::sigaction = std::mem::zeroed();
                libc::sigaction(sig, std::ptr::null(), &mut old);
                prev[i] = MaybeUninit::new(old);
            }
            for &sig in &SIGNALS {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = handler as *const () as usize;
                act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                for &s in &SIGNALS {
                    libc::sigaddset(&mut act.sa_mask, s);
                }
                libc::sigaction(sig, &act, std::ptr::null_mut());
            }
        }
    }

    pub fn enter(kernel: &str, group_id: [u64; 3]) -> Option<usize> {
        INSTALL.call_once(install);
        let s = THREAD.try_with(|t| t.slot).ok().flatten()?;
        let slot = &SLOTS[s];
        slot.name
            .store(kernel.as_ptr() as *mut u8, Ordering::Relaxed);
        slot.name_len.store(kernel.len(), Ordering::Relaxed);
        for (g, &v) in slot.group.iter().zip(&group_id) {
            g.store(v, Ordering::Relaxed);
        }
        slot.group_at.store(std::ptr::null_mut(), Ordering::Relaxed);
        slot.jmp.store(std::ptr::null_mut(), Ordering::Relaxed);
        slot.running.store(true, Ordering::Relaxed);
        // The handler runs on this thread: keep the stores before the kernel.
        compiler_fence(Ordering::SeqCst);
        let _ = CURRENT.try_with(|c| c.set(s));
        Some(s)
    }

    pub fn follow_group(s: usize, group_id: *const u64, row: bool) {
        SLOTS[s]
            .group_at
            .store(group_id as *mut u64, Ordering::Relaxed);
        SLOTS[s].row.store(row, Ordering::Relaxed);
        // The handler runs on this thread: keep the store before the kernel.
        compiler_fence(Ordering::SeqCst);
    }

    pub fn leave(s: usize) {
        compiler_fence(Ordering::SeqCst);
        SLOTS[s].running.store(false, Ordering::Relaxed);
        SLOTS[s].jmp.store(std::ptr::null_mut(), Ordering::Relaxed);
        SLOTS[s]
            .group_at
            .store(std::ptr::null_mut(), Ordering::Relaxed);
        let _ = CURRENT.try_with(|c| c.set(usize::MAX));
    }

    fn current() -> Option<&'static Slot> {
        CURRENT
            .try_with(|c| c.get())
            .ok()
            .and_then(|s| SLOTS.get(s))
    }

    pub fn arm(cp: *mut Checkpoint) {
        if let Some(slot) = current() {
            slot.jmp.store(cp, Ordering::Relaxed);
            compiler_fence(Ordering::SeqCst);
        }
    }

    /// # Safety
    /// As `fault::call`.
    pub unsafe fn call(
        cp: *mut Checkpoint,
        entry: EntryFn,
        item: *mut ItemState,
        args: *const u8,
    ) -> Result<(), Fault> {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: per the contract; the handler resumes this call only
            // as a return with the callee-saved registers it had.
            let faulted = unsafe { x86::call_guarded(cp, entry, item, args) };
            compiler_fence(Ordering::SeqCst);
            if faulted == 0 {
                return Ok(());
            }
            match current() {
                // Unreachable: only a thread with a slot is resumed here.
                None => Err(Fault {
                    signal: libc::SIGSEGV,
                    addr: 0,
                    stack_overflow: false,
                    write: None,
                }),
                Some(slot) => Err(Fault {
                    signal: slot.fault_sig.load(Ordering::Relaxed),
                    addr: slot.fault_addr.load(Ordering::Relaxed),
                    stack_overflow: slot.fault_overflow.load(Ordering::Relaxed),
                    write: match slot.fault_access.load(Ordering::Relaxed) {
                        1 => Some(false),
                        2 => Some(true),
                        _ => None,
                    },
                }),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = cp;
            // SAFETY: per the contract.
            unsafe { entry(item, args) };
            Ok(())
        }
    }

    #[cfg(target_arch = "x86_64")]
    mod x86 {
        use super::{Checkpoint, EntryFn, ItemState};

        /// Record the checkpoint (return address, stack pointer after the
        /// return, rbx, rbp, r12–r15) and call `entry(item, args)`; returns
        /// 0. The fault handler "returns" from here with 1 instead, by
        /// loading the checkpoint into the interrupted context.
        ///
        /// # Safety
        /// `cp` is valid for writes; `entry` may be called with its arguments.
        #[unsafe(naked)]
        pub unsafe extern "C" fn call_guarded(
            cp: *mut Checkpoint,
            entry: EntryFn,
            item: *mut ItemState,
            args: *const u8,
        ) -> u32 {
            core::arch::naked_asm!(
                "mov rax, [rsp]",
                "mov [rdi], rax",
                "lea rax, [rsp + 8]",
                "mov [rdi + 8], rax",
                "mov [rdi + 16], rbx",
                "mov [rdi + 24], rbp",
                "mov [rdi + 32], r12",
                "mov [rdi + 40], r13",
                "mov [rdi + 48], r14",
                "mov [rdi + 56], r15",
                // Keep the stack 16-byte aligned at the call.
                "sub rsp, 8",
                "mov rax, rsi",
                "mov rdi, rdx",
                "mov rsi, rcx",
                "call rax",
                "add rsp, 8",
                "xor eax, eax",
                "ret",
            )
        }
    }

    /// Stack distance within which the faulting stack pointer counts as on
    /// the checkpoint's stack (thread stacks are a few MiB).
    #[cfg(target_arch = "x86_64")]
    const SAME_STACK: u64 = 64 << 20;

    /// Resume at the slot's checkpoint if the fault is in generated code
    /// on the checkpoint's stack (see the module comment). Async-signal-safe.
    ///
    /// # Safety
    /// `ctx` is the handler's `ucontext_t`.
    #[cfg(target_arch = "x86_64")]
    unsafe fn recover(slot: &Slot, ctx: *mut c_void, sig: c_int, addr: usize) -> bool {
        let cp = slot.jmp.load(Ordering::Relaxed);
        if cp.is_null() {
            return false;
        }
        // SAFETY: an armed checkpoint outlives its arming (the runtime
        // disarms before it goes), and `ctx` is the kernel's ucontext.
        unsafe {
            let regs = (*cp).regs;
            let g = &mut (*(ctx as *mut libc::ucontext_t)).uc_mcontext.gregs;
            let pc = g[libc::REG_RIP as usize] as usize;
            let sp = g[libc::REG_RSP as usize] as u64;
            let on_stack = sp < regs[1] && regs[1] - sp <= SAME_STACK;
            if regs[0] == 0 || !on_stack || in_loaded_object(pc) {
                return false;
            }
            slot.fault_sig.store(sig, Ordering::Relaxed);
            slot.fault_addr.store(addr, Ordering::Relaxed);
            slot.fault_overflow.store(
                sig == libc::SIGSEGV && near_stack(addr, sp as usize),
                Ordering::Relaxed,
            );
            slot.fault_access.store(
                page_fault_access(sig, g[libc::REG_ERR as usize]),
                Ordering::Relaxed,
            );
            slot.jmp.store(std::ptr::null_mut(), Ordering::Relaxed);
            let set = |g: &mut [i64; 23], r: c_int, v: u64| g[r as usize] = v as i64;
            set(g, libc::REG_RIP, regs[0]);
            set(g, libc::REG_RSP, regs[1]);
            set(g, libc::REG_RBX, regs[2]);
            set(g, libc::REG_RBP, regs[3]);
            set(g, libc::REG_R12, regs[4]);
            set(g, libc::REG_R13, regs[5]);
            set(g, libc::REG_R14, regs[6]);
            set(g, libc::REG_R15, regs[7]);
            set(g, libc::REG_RAX, 1);
            // The ABI wants the direction flag clear at a return.
            g[libc::REG_EFL as usize] &= !0x400;
        }
        true
    }

    /// The access of a page fault from its x86 error code (`REG_ERR`): 2 for
    /// a write (bit 1), 1 for a read; 0 (unknown) unless the code is a
    /// user-mode page fault's (bit 2), e.g. for a general protection fault
    /// on a non-canonical address, whose code is 0.
    #[cfg(target_arch = "x86_64")]
    fn page_fault_access(sig: c_int, err: i64) -> u8 {
        match (sig == libc::SIGSEGV, err & 4 != 0, err & 2 != 0) {
            (true, true, true) => 2,
            (true, true, false) => 1,
            _ => 0,
        }
    }

    /// A fault this close to the stack pointer is a stack overflow.
    fn near_stack(addr: usize, sp: usize) -> bool {
        addr <= sp.saturating_add(4096) && addr.saturating_add(OVERFLOW_REACH) >= sp
    }

    /// A line built without allocating.
    struct Line {
        buf: [u8; 512],
        len: usize,
    }

    impl Line {
        fn push(&mut self, bytes: &[u8]) {
            let n = bytes.len().min(self.buf.len() - self.len);
            self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
            self.len += n;
        }
        fn hex(&mut self, v: usize) {
            let mut digits = [0u8; 16];
            let mut i = digits.len();
            let mut v = v;
            loop {
                i -= 1;
                digits[i] = b"0123456789abcdef"[v & 15];
                v >>= 4;
                if v == 0 {
                    break;
                }
            }
            self.push(b"0x");
            self.push(&digits[i..]);
        }
        fn dec(&mut self, v: u64) {
            let mut digits = [0u8; 20];
            let mut i = digits.len();
            let mut v = v;
            loop {
                i -= 1;
                digits[i] = b'0' + (v % 10) as u8;
                v /= 10;
                if v == 0 {
                    break;
                }
            }
            self.push(&digits[i..]);
        }
        /// `write(2)` the whole line to stderr.
        fn write(&self) {
            let mut done = 0;
            while done < self.len {
                // SAFETY: the range lies inside `buf`.
                let n = unsafe {
                    libc::write(
                        2,
                        self.buf[done..].as_ptr() as *const c_void,
                        self.len - done,
                    )
                };
                if n > 0 {
                    done += n as usize;
                } else if n < 0 && errno() == libc::EINTR {
                    continue;
                } else {
                    break;
                }
            }
        }
    }

    fn errno() -> c_int {
        // SAFETY: the thread's errno location is always valid.
        unsafe { *libc::__errno_location() }
    }

    fn set_errno(v: c_int) {
        // SAFETY: as in `errno`.
        unsafe { *libc::__errno_location() = v }
    }

    /// The stack pointer at the fault.
    ///
    /// # Safety
    /// `ctx` is the `ucontext_t` the kernel passed to the handler.
    unsafe fn fault_sp(ctx: *mut c_void) -> usize {
        let uc = ctx as *const libc::ucontext_t;
        // SAFETY: per the function's contract.
        unsafe {
            #[cfg(target_arch = "x86_64")]
            {
                (*uc).uc_mcontext.gregs[libc::REG_RSP as usize] as usize
            }
            #[cfg(target_arch = "aarch64")]
            {
                (*uc).uc_mcontext.sp as usize
            }
        }
    }

    /// The running slot of the calling thread, if any (async-signal-safe).
    fn running_slot() -> Option<&'static Slot> {
        let tid = gettid();
        SLOTS
            .iter()
            .find(|s| s.tid.load(Ordering::Relaxed) == tid)
            .filter(|s| s.running.load(Ordering::Relaxed))
    }

    extern "C" fn handler(sig: c_int, info: *mut siginfo_t, ctx: *mut c_void) {
        let saved_errno = errno();
        let Some(i) = SIGNALS.iter().position(|&s| s == sig) else {
            return;
        };
        // SAFETY: the kernel passes a valid siginfo; `PREVIOUS` was written
        // before this handler was installed.
        let (code, addr, prev) = unsafe {
            (
                (*info).si_code,
                (*info).si_addr() as usize,
                (*PREVIOUS.0.get())[i].assume_init_ref(),
            )
        };
        // si_code <= 0: sent by kill/raise/sigqueue, not a fault of this thread.
        let slot = if code > 0 { running_slot() } else { None };
        match slot {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `ctx` is the kernel's ucontext.
            Some(slot) if unsafe { recover(slot, ctx, sig, addr) } => {}
            Some(slot) => {
                // SAFETY: the kernel passed a valid ucontext.
                let sp = unsafe { fault_sp(ctx) };
                report(slot, sig, addr, sp);
                // SAFETY: restoring a disposition read by sigaction.
                unsafe { libc::sigaction(sig, prev, std::ptr::null_mut()) };
                // Returning runs the faulting instruction again, now under
                // the previous disposition.
            }
            // SAFETY: forwarding the kernel's own arguments.
            None => unsafe { chain(sig, info, ctx, prev) },
        }
        set_errno(saved_errno);
    }

    /// Write the report of a fault in the kernel `slot` is running.
    fn report(slot: &Slot, sig: c_int, addr: usize, sp: usize) {
        let mut line = Line {
            buf: [0; 512],
            len: 0,
        };
        line.push(b"cranecl: kernel '");
        let name = slot.name.load(Ordering::Relaxed);
        let len = slot.name_len.load(Ordering::Relaxed).min(200);
        if !name.is_null() {
            // SAFETY: `enter` stored a `&str` that outlives the `Running` guard,
            // and `running` is only true while that guard lives.
            line.push(unsafe { std::slice::from_raw_parts(name, len) });
        }
        line.push(b"' crashed: ");
        let overflow = near_stack(addr, sp);
        match sig {
            libc::SIGSEGV if overflow => line.push(
                b"stack overflow (private memory and call frames outgrew the work-item's stack) at ",
            ),
            libc::SIGSEGV => line.push(b"invalid memory access at "),
            libc::SIGBUS => line.push(b"invalid memory access (bus error) at "),
            libc::SIGILL => line.push(b"trap (illegal instruction) at "),
            _ => line.push(b"arithmetic exception (integer division by zero or overflow) at "),
        }
        line.hex(addr);
        line.push(b" (work-group (");
        let at = slot.group_at.load(Ordering::Relaxed);
        let mut id: [u64; 3] = std::array::from_fn(|d| {
            if at.is_null() {
                slot.group[d].load(Ordering::Relaxed)
            } else {
                // SAFETY: a followed id is readable while it is followed
                // (`follow_group`), and only this thread writes it.
                unsafe { at.add(d).read_volatile() }
            }
        });
        let mut more = 0;
        if !at.is_null() && slot.row.load(Ordering::Relaxed) {
            // SAFETY: a followed row's `GroupState::row_step`, the fifth
            // word from its `group_id` (`follow_row`).
            let step = unsafe { at.add(4).read_volatile() };
            (id, more) = crate::runtime::row_step_group(id, step);
        }
        for (d, g) in id.iter().enumerate() {
            if d > 0 {
                line.push(b",");
            }
            line.dec(*g);
        }
        line.push(b")");
        if more > 0 {
            line.push(b" or one of the ");
            line.dec(more);
            line.push(b" after it, run in the same step");
        }
        line.push(b"); the host program is stopped\n");
        line.write();
    }

    /// Hand a signal that is not a kernel's fault to the disposition the
    /// handler replaced.
    ///
    /// # Safety
    /// The arguments are the handler's own; `prev` was read by sigaction.
    unsafe fn chain(sig: c_int, info: *mut siginfo_t, ctx: *mut c_void, prev: &libc::sigaction) {
        let h = prev.sa_sigaction;
        let synchronous = unsafe { (*info).si_code } > 0;
        // SAFETY (block): system calls on valid records; `h` is a handler
        // the host installed with these flags.
        unsafe {
            if h == libc::SIG_DFL || (h == libc::SIG_IGN && synchronous) {
                // The default action (the kernel does the same for an ignored
                // fault): restore it; a fault happens again on return, a
                // sent signal is raised again (pending until we return).
                libc::sigaction(sig, prev, std::ptr::null_mut());
                if h == libc::SIG_IGN {
                    let mut dfl: libc::sigaction = std::mem::zeroed();
                    dfl.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(sig, &dfl, std::ptr::null_mut());
                }
                if !synchronous {
                    libc::raise(sig);
                }
                return;
            }
            if h == libc::SIG_IGN {
                return;
            }
            // The host's handler, with the mask it asked for.
            let mut old_mask: libc::sigset_t = std::mem::zeroed();
            libc::pthread_sigmask(libc::SIG_BLOCK, &prev.sa_mask, &mut old_mask);
            if prev.sa_flags & libc::SA_RESETHAND != 0 {
                let mut dfl: libc::sigaction = std::mem::zeroed();
                dfl.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &dfl, std::ptr::null_mut());
            }
            if prev.sa_flags & libc::SA_SIGINFO != 0 {
                let f: extern "C" fn(c_int, *mut siginfo_t, *mut c_void) = std::mem::transmute(h);
                f(sig, info, ctx);
            } else {
                let f: extern "C" fn(c_int) = std::mem::transmute(h);
                f(sig);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old_mask, std::ptr::null_mut());
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod imp {
    pub fn enter(_kernel: &str, _group_id: [u64; 3]) -> Option<usize> {
        None
    }
    pub fn leave(_s: usize) {}
    pub fn follow_group(_s: usize, _group_id: *const u64, _row: bool) {}
    pub fn arm(_cp: *mut super::Checkpoint) {}
    /// # Safety
    /// As `fault::call`.
    pub unsafe fn call(
        _cp: *mut super::Checkpoint,
        entry: super::EntryFn,
        item: *mut super::ItemState,
        args: *const u8,
    ) -> Result<(), super::Fault> {
        // SAFETY: per the contract.
        unsafe { entry(item, args) };
        Ok(())
    }
}
