//! A kernel that faults at run time: a bad pointer in generated code fails
//! the work-group with a message (the host goes on, and the same program
//! runs again); a fault the runtime cannot leave safely (here: in a host
//! function on a work-item's stack) is reported on stderr with the kernel's
//! name and group before the process dies of the same signal; a fault
//! outside kernels is left to the host.
//!
//! Crashing cases run in a child process: the test re-runs this test binary
//! on itself with `CRANECL_FAULT_CASE` set, and the child, seeing it, crashes.

mod run_common;
use run_common::*;

use cranecl_jit::codegen::{CodegenOptions, CompiledProgram};
use cranecl_jit::runtime::{self, fault, GroupState, ItemState};
use std::os::unix::process::ExitStatusExt;
use std::process::Command;

const CASE: &str = "CRANECL_FAULT_CASE";

/// In the child: true. In the parent: runs the child for `test` and
/// returns (stderr, exit code, signal).
fn child(test: &str) -> Result<(String, Option<i32>, Option<i32>), ()> {
    if std::env::var(CASE).as_deref() == Ok(test) {
        return Err(());
    }
    let exe = std::env::current_exe().expect("test binary path");
    let out = Command::new(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CASE, test)
        .output()
        .expect("spawn the child test");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    Ok((stderr, out.status.code(), out.status.signal()))
}

/// A kernel that writes through the address `bad` in work-group 2 only.
const BAD_STORE: &str = "kernel void scribble(global int *out, ulong bad) {
    if (get_group_id(0) == 2) *(global int *)bad = 1;
    out[get_global_id(0)] = 1;
}";

/// Behave like a C host: default dispositions, no alternate signal stack.
fn like_a_c_host() {
    // SAFETY: plain system calls on zeroed C records.
    unsafe {
        for sig in [libc::SIGSEGV, libc::SIGBUS] {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(sig, &dfl, std::ptr::null_mut());
        }
        let off = libc::stack_t {
            ss_sp: std::ptr::null_mut(),
            ss_flags: libc::SS_DISABLE,
            ss_size: 0,
        };
        libc::sigaltstack(&off, std::ptr::null_mut());
    }
}

fn assert_report(stderr: &str, signal: Option<i32>, what: &str, group: &str) {
    let want = format!("cranecl: kernel '{what}' crashed: ");
    let line = stderr
        .lines()
        .find(|l| l.starts_with(&want))
        .unwrap_or_else(|| panic!("no report in the child's stderr:\n{stderr}"));
    assert!(
        line.ends_with(&format!(
            "(work-group {group}); the host program is stopped"
        )),
        "{line}"
    );
    assert_eq!(signal, Some(libc::SIGSEGV), "stderr:\n{stderr}");
    assert_eq!(
        stderr.matches("cranecl: kernel").count(),
        1,
        "one report:\n{stderr}"
    );
}

fn bad_store(
    p: &CompiledProgram,
    kernel: &str,
    bad: u64,
    global: &[u64],
    local: &[u64],
) -> (Result<(), String>, Vec<i32>) {
    let n = global.iter().product::<u64>() as usize;
    let mut out = vec![0i32; n];
    let r = try_run(
        p,
        kernel,
        &mut [buf(&mut out), val(bad)],
        global,
        local,
        &[0, 0, 0],
    );
    (r, out)
}

/// The fault's message, and the same program run again with a good address.
fn assert_abandoned_then_runs_again(
    p: &CompiledProgram,
    kernel: &str,
    global: &[u64],
    local: &[u64],
    bad: u64,
) -> Vec<i32> {
    let (r, out) = bad_store(p, kernel, bad, global, local);
    let message = r.expect_err("the bad store must fail the group");
    assert_eq!(
        message,
        format!("invalid write at {bad:#x} in generated code; the work-group was abandoned")
    );
    let mut scratch = 0i32;
    let good = &mut scratch as *mut i32 as u64;
    let (again, all) = bad_store(p, kernel, good, global, local);
    assert_eq!(again, Ok(()));
    assert!(all.iter().all(|&v| v == 1), "{all:?}");
    out
}

#[test]
fn bad_pointer_in_a_loop_kernel_fails_its_group() {
    // Four work-items per step (the default) and one.
    let plain = cranecl_jit::codegen::CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    for (p, strategy) in [
        (build(BAD_STORE), "lanes"),
        (build_cg(BAD_STORE, &plain), "loop"),
    ] {
        assert_eq!(p.strategy(0), strategy);
        let out = assert_abandoned_then_runs_again(&p, "scribble", &[64], &[16], 0x10);
        // Groups before the faulting one ran to the end; the faulting one
        // stopped at its first item (the store comes first).
        assert_eq!(out[..32], [1; 32], "{strategy}");
        assert_eq!(out[32..], [0; 32], "{strategy}");
    }
}

#[test]
fn bad_pointer_in_a_region_kernel_fails_its_group() {
    let p = build(
        "kernel void halves(global int *out, ulong bad) {
            out[get_global_id(0)] = 1;
            barrier(CLK_GLOBAL_MEM_FENCE);
            if (get_group_id(0) == 1 && get_local_id(0) == 5) *(global int *)bad = 2;
        }",
    );
    assert_eq!(p.strategy(0), "regions");
    let out = assert_abandoned_then_runs_again(&p, "halves", &[48], &[16], 0x40);
    assert_eq!(out[..32], [1; 32]);
    assert_eq!(out[32..], [0; 16]);
}

#[test]
fn bad_pointer_in_a_coroutine_work_item_fails_its_group() {
    let cg = CodegenOptions {
        barrier_regions: false,
        ..CodegenOptions::default()
    };
    let p = build_cg(
        "kernel void meet(global int *out, ulong bad) {
            out[get_global_id(0) + get_global_id(1) * get_global_size(0)] = 1;
            barrier(CLK_GLOBAL_MEM_FENCE);
            if (get_group_id(1) == 1 && get_local_id(0) == 3) *(global int *)bad = 2;
            barrier(CLK_GLOBAL_MEM_FENCE);
        }",
        &cg,
    );
    assert_eq!(p.strategy(0), "coroutines");
    // Twice: the stacks of the abandoned group go back to the pool and
    // serve the next run.
    for _ in 0..2 {
        let out = assert_abandoned_then_runs_again(&p, "meet", &[8, 8], &[4, 4], 0xdead0);
        assert_eq!(out[..32], [1; 32]);
    }
}

#[test]
fn bad_pointer_in_a_c_like_host_fails_its_group() {
    let Ok((stderr, code, _)) = child("bad_pointer_in_a_c_like_host_fails_its_group") else {
        like_a_c_host();
        let (r, _) = bad_store(&build(BAD_STORE), "scribble", 0x10, &[64], &[16]);
        eprintln!("child: {r:?}");
        std::process::exit(0);
    };
    assert!(
        stderr.contains("child: Err(\"invalid write at 0x10 in generated code"),
        "{stderr}"
    );
    assert_eq!(code, Some(0), "{stderr}");
}

/// A work-item entry that recurses until its stack runs out.
unsafe extern "C" fn deep(_item: *mut ItemState, depth: *const u8) {
    let frame = [depth as u64; 512];
    let next = std::hint::black_box(depth.wrapping_add(1));
    if !next.is_null() {
        // SAFETY: recursion only; the guard page stops it long before
        // `next` wraps to null.
        unsafe { deep(_item, next) };
    }
    std::hint::black_box(&frame);
}

#[test]
fn coroutine_stack_overflow_is_reported() {
    let Ok((stderr, _, signal)) = child("coroutine_stack_overflow_is_reported") else {
        like_a_c_host();
        run_deep();
        std::process::exit(0);
    };
    assert_report(&stderr, signal, "deep", "(5,0,0)");
    assert!(stderr.contains("crashed: stack overflow"), "{stderr}");
}

#[test]
fn fault_outside_kernels_is_left_to_the_default_action() {
    let Ok((stderr, _, signal)) = child("fault_outside_kernels_is_left_to_the_default_action")
    else {
        like_a_c_host();
        let mut out = vec![0i32; 64];
        // A kernel that runs well installs the handler.
        let p = build(BAD_STORE);
        run(
            &p,
            "scribble",
            &mut [buf(&mut out), val(0u64)],
            &[32],
            &[16],
        );
        assert_eq!(out[..32], [1; 32]);
        // SAFETY: none: the point is to crash the host outside a kernel.
        unsafe { std::ptr::write_volatile(std::hint::black_box(0x18 as *mut i32), 1) };
        std::process::exit(0);
    };
    assert!(!stderr.contains("cranecl:"), "{stderr}");
    assert_eq!(signal, Some(libc::SIGSEGV), "{stderr}");
}

extern "C" fn host_handler(_sig: libc::c_int, info: *mut libc::siginfo_t, _ctx: *mut libc::c_void) {
    let msg = b"host handler: fault at ";
    // SAFETY: the kernel passes a valid siginfo; write(2) and _exit are
    // async-signal-safe.
    unsafe {
        libc::write(2, msg.as_ptr().cast(), msg.len());
        let addr = (*info).si_addr() as usize;
        let digits = format_dec(addr);
        libc::write(2, digits.0.as_ptr().cast(), digits.1);
        libc::write(2, b"\n".as_ptr().cast(), 1);
        libc::_exit(42);
    }
}

/// Decimal digits of `v` without allocating: (buffer, length).
fn format_dec(mut v: usize) -> ([u8; 20], usize) {
    let mut tmp = [0u8; 20];
    let mut n = 0;
    loop {
        tmp[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let mut out = [0u8; 20];
    for i in 0..n {
        out[i] = tmp[n - 1 - i];
    }
    (out, n)
}

fn install_host_handler() {
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = host_handler as *const () as usize;
        act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut act.sa_mask);
        libc::sigaction(libc::SIGSEGV, &act, std::ptr::null_mut());
    }
}

#[test]
fn host_handler_still_sees_its_own_faults() {
    let Ok((stderr, code, _)) = child("host_handler_still_sees_its_own_faults") else {
        install_host_handler();
        let mut out = vec![0i32; 64];
        let p = build(BAD_STORE);
        run(
            &p,
            "scribble",
            &mut [buf(&mut out), val(0u64)],
            &[32],
            &[16],
        );
        // SAFETY: none: the point is to crash the host outside a kernel.
        unsafe { std::ptr::write_volatile(std::hint::black_box(0x18 as *mut i32), 1) };
        std::process::exit(0);
    };
    assert!(!stderr.contains("cranecl:"), "{stderr}");
    assert!(stderr.contains("host handler: fault at 24\n"), "{stderr}");
    assert_eq!(code, Some(42), "{stderr}");
}

/// Run `deep` as a two-item coroutine group marked as kernel `deep`, group (5,0,0).
fn run_deep() {
    let group = GroupState {
        local_size: [2, 1, 1, 1],
        group_id: [5, 0, 0, 0],
        ..GroupState::default()
    };
    let _running = fault::enter("deep", [5, 0, 0]);
    // SAFETY: `deep` ignores its argument block.
    let _ = unsafe { runtime::run_coroutines(deep, std::ptr::null(), &group) };
}

#[test]
fn host_handler_runs_after_a_kernel_report() {
    let Ok((stderr, code, _)) = child("host_handler_runs_after_a_kernel_report") else {
        install_host_handler();
        run_deep();
        std::process::exit(0);
    };
    let report = stderr
        .find("cranecl: kernel 'deep' crashed: stack overflow")
        .unwrap_or_else(|| panic!("no report:\n{stderr}"));
    let host = stderr
        .find("host handler: fault at ")
        .unwrap_or_else(|| panic!("host handler not run:\n{stderr}"));
    assert!(report < host, "{stderr}");
    assert_eq!(code, Some(42), "{stderr}");
}

#[test]
fn threads_that_exit_give_their_slot_back() {
    let Ok((stderr, _, signal)) = child("threads_that_exit_give_their_slot_back") else {
        let p = build(BAD_STORE);
        // More threads than the table has slots, one after another.
        for _ in 0..fault::MAX_THREADS + 64 {
            std::thread::scope(|s| {
                s.spawn(|| {
                    let mut out = vec![0i32; 16];
                    run(
                        &p,
                        "scribble",
                        &mut [buf(&mut out), val(0u64)],
                        &[16],
                        &[16],
                    );
                });
            });
        }
        std::thread::scope(|s| {
            s.spawn(|| {
                let (r, _) = bad_store(&p, "scribble", 0x10, &[64], &[16]);
                eprintln!("child: {r:?}");
            });
        });
        std::process::exit(0);
    };
    assert!(
        stderr.contains("child: Err(\"invalid write at 0x10 in generated code"),
        "{stderr}"
    );
    assert_eq!(signal, None, "{stderr}");
}

#[test]
fn a_forked_child_still_fails_only_the_group() {
    let Ok((stderr, code, _)) = child("a_forked_child_still_fails_only_the_group") else {
        let p = build(BAD_STORE);
        let (r, _) = bad_store(&p, "scribble", 0x10, &[16], &[16]);
        assert_eq!(r, Ok(()));
        // SAFETY: the child only runs a kernel on this thread and exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            let (r, _) = bad_store(&p, "scribble", 0x20, &[64], &[16]);
            eprintln!("forked: {r:?}");
            // SAFETY: ends the forked child without running the parent's
            // exit handlers twice.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        std::process::exit(if status == 0 { 0 } else { 1 });
    };
    assert!(
        stderr.contains("forked: Err(\"invalid write at 0x20 in generated code"),
        "{stderr}"
    );
    assert_eq!(code, Some(0), "{stderr}");
}
