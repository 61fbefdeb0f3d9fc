//! Reporting a run-time fault in generated code (a bad pointer, a stack
//! overflow, a trap) instead of letting the host process die silently.
//!
//! What happens:
//! - On the first work-group a process runs, [`enter`] installs one
//!   process-wide handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE
//!   (`SA_SIGINFO | SA_ONSTACK`), remembering the dispositions it replaces.
//!   Nothing is installed at library load: a host that never launches a
//!   kernel keeps its handlers untouched.
//! - The first time a thread runs a work-group it claims a slot (keyed by
//!   its kernel thread id) in a fixed static table, and, if it has no
//!   alternate signal stack yet, maps one of its own (64 KiB above a guard
//!   page) so that a stack overflow can still be reported. A thread that
//!   already has an alternate stack (the host's, or Rust's) keeps it. Both
//!   are given back when the thread exits.
//! - Around every work-group [`enter`] marks the slot "running": kernel name
//!   and group id. Work-item coroutine stacks come from corosensei's
//!   `DefaultStack`, which has a guard page below, so an overflow there
//!   faults instead of overwriting memory.
//! - The handler finds the faulting thread's slot by scanning the table for
//!   its thread id (no thread-local access: in a `dlopen`ed library that may
//!   allocate). If the slot says a kernel is running and the signal is a
//!   real fault (not sent by `kill`), it writes one line to fd 2 —
//!   `cranecl: kernel 'NAME' crashed: invalid memory access at 0x… (work-group
//!   (x,y,z)); the host program is stopped` — formatted into a buffer on the
//!   signal stack with `write(2)` only (no allocation, no lock), then puts
//!   back the disposition it replaced and returns: the faulting instruction
//!   runs again and faults under the host's own handler, or the default
//!   action (the process dies of the same signal, with its core dump).
//! - Outside a kernel the handler chains to the replaced disposition as if
//!   it were not there: it calls the host's handler, or restores the
//!   default and lets the fault happen again.
//!
//! Why not recover: returning an error from `run_work_group` would mean
//! leaving generated frames (on the thread stack or a coroutine stack)
//! without running what is above them, with the group's memory in an
//! unknown state. A clear report is what this module guarantees; a fault in
//! generated code stops the process.
//!
//! Limits: Linux on x86_64 and aarch64 only (elsewhere [`enter`] does
//! nothing); at most [`MAX_THREADS`] threads at once are reported (the
//! others die as before); a frame of generated code larger than a guard page
//! could skip it (Cranelift does not probe the stack here), which is why the
//! compiler bounds private memory; after a report the other threads' kernels
//! run without the handler (the process is stopping).

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

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.slot {
            imp::leave(s);
        }
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod imp {
    use super::MAX_THREADS;
    use libc::{c_int, c_void, siginfo_t};
    use std::cell::UnsafeCell;
    use std::mem::MaybeUninit;
    use std::sync::atomic::{
        compiler_fence, AtomicBool, AtomicI32, AtomicPtr, AtomicU64, AtomicUsize, Ordering,
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
    }

    static SLOTS: [Slot; MAX_THREADS] = [const {
        Slot {
            tid: AtomicI32::new(0),
            running: AtomicBool::new(false),
            name: AtomicPtr::new(std::ptr::null_mut()),
            name_len: AtomicUsize::new(0),
            group: [const { AtomicU64::new(0) }; 3],
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

    thread_local! {
        static THREAD: ThreadSetup = ThreadSetup::new();
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

    fn install() {
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
        slot.running.store(true, Ordering::Relaxed);
        // The handler runs on this thread: keep the stores before the kernel.
        compiler_fence(Ordering::SeqCst);
        Some(s)
    }

    pub fn leave(s: usize) {
        compiler_fence(Ordering::SeqCst);
        SLOTS[s].running.store(false, Ordering::Relaxed);
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
        let overflow = addr <= sp.saturating_add(4096) && addr.saturating_add(OVERFLOW_REACH) >= sp;
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
        for (d, g) in slot.group.iter().enumerate() {
            if d > 0 {
                line.push(b",");
            }
            line.dec(g.load(Ordering::Relaxed));
        }
        line.push(b")); the host program is stopped\n");
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
}
