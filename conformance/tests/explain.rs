//! `CRANECL_EXPLAIN=1` (set in this process before its first build): each
//! build's log, as `clGetProgramBuildInfo` returns it, names every kernel's
//! work-group strategy and step, why a faster one was refused, and where
//! the chosen step runs something once per lane or masked, at the line.
//! Checked on the benchmark kernels (`conformance/bench/`) and on kernels
//! made to be refused each faster way.

use cranecl_conformance::{call, cl, info_string, null, workspace_root, Cl};
use opencl_sys::*;
use std::ffi::CString;
use std::sync::Once;

fn t() -> &'static Cl {
    static ENV: Once = Once::new();
    ENV.call_once(|| std::env::set_var("CRANECL_EXPLAIN", "1"));
    cl()
}

/// The build log of `src` (which must build).
fn log_of(src: &str) -> String {
    let t = t();
    let (ctx, dev) = (t.context(), t.device());
    let text = CString::new(src).unwrap();
    let mut sp = text.as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e));
    assert_eq!(e, CL_SUCCESS);
    let r = call!(t; clBuildProgram(p, 1, &dev, null(), None, null()));
    let log = info_string(
        |s, v, rr| call!(t; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, s, v, rr)),
    )
    .unwrap();
    assert_eq!(r, CL_SUCCESS, "{log}");
    call!(t; clReleaseProgram(p));
    call!(t; clReleaseContext(ctx));
    log
}

fn bench(name: &str) -> String {
    let path = workspace_root().join("conformance/bench").join(name);
    log_of(&std::fs::read_to_string(&path).unwrap())
}

#[track_caller]
fn has(log: &str, line: &str) {
    assert!(
        log.lines().any(|l| l.trim() == line),
        "missing line\n  {line}\nin the log:\n{log}"
    );
}

#[test]
fn benchmark_kernels_name_their_strategy_and_step() {
    let loop4 =
        "loop over the work-items (no barrier); 8 work-items per step (divergent loops masked)";
    let regions4 =
        "regions (the body cut at its barriers); 8 work-items per step (divergent loops masked)";
    has(
        &bench("triad.cl"),
        &format!("note: kernel 'triad': {loop4}"),
    );
    has(
        &bench("sgemm.cl"),
        &format!("note: kernel 'sgemm': {regions4}"),
    );
    has(
        &bench("nbody.cl"),
        &format!("note: kernel 'nbody': {regions4}"),
    );
    let m = bench("mandelbrot.cl");
    has(&m, &format!("note: kernel 'mandelbrot': {loop4}"));
    assert!(
        m.contains("masked (work-items leave this loop at different times): `while (n < max_iter)"),
        "{m}"
    );
    // SpMV's row loop: per-row trip counts and gathers, which the lanes
    // would run once per lane: one work-item per step, with the reason.
    let s = bench("spmv.cl");
    has(
        &s,
        "note: kernel 'spmv_csr': loop over the work-items (no barrier); one work-item per step",
    );
    has(
        &s,
        "not faster because 8 work-items per step: <source>:10:5: a loop the work-items leave \
         at different times touches memory at their own addresses: the lanes would run it once \
         per lane, slower than one work-item per step: \
         `for (uint k = row_ptr[r]; k < row_ptr[r + 1]; k++) sum +=...`",
    );
}

#[test]
fn refusals_are_named() {
    // A private array written whole by its initialiser: one work-item
    // per step. The same array filled element by element: a copy per
    // lane, noted where it is declared.
    let log = log_of(
        "kernel void acc(global float *out) {
            float a[4] = { 0.0f, 1.0f, 2.0f, 3.0f };
            out[get_global_id(0)] = a[get_global_id(0) % 4];
        }",
    );
    has(
        &log,
        "note: kernel 'acc': loop over the work-items (no barrier); one work-item per step",
    );
    has(
        &log,
        "not faster because 8 work-items per step: private array 'a' would need a copy per \
         work-item in memory",
    );
    let log = log_of(
        "kernel void acc(global float *out) {
            float a[4];
            for (int i = 0; i < 4; i++) a[i] = i;
            out[get_global_id(0)] = a[get_global_id(0) % 4];
        }",
    );
    has(
        &log,
        "note: kernel 'acc': loop over the work-items (no barrier); 8 work-items per step \
         (divergent loops masked)",
    );
    has(
        &log,
        "<source>:2:19: private 'a': a copy per lane, the lanes' copies of each element side by \
         side: `a`",
    );
    // A barrier inside a switch: coroutines.
    let log = log_of(
        "kernel void sw(global int *out, int k) {
            local int t[64];
            switch (k) {
            case 0:
                t[get_local_id(0)] = 1;
                barrier(CLK_LOCAL_MEM_FENCE);
                out[get_global_id(0)] = t[63 - get_local_id(0)];
                break;
            default:
                out[get_global_id(0)] = 0;
            }
        }",
    );
    has(
        &log,
        "note: kernel 'sw': coroutines (one stack per work-item, switched at barriers and in loops that wait); one work-item per step",
    );
    has(
        &log,
        "not faster because regions: a barrier inside a switch (only if, loops and blocks are cut)",
    );
    // A loop that waits for another work-item: coroutines, at its line.
    let log = log_of(
        "kernel void relay(global int *turn, global int *order) {
            int l = get_local_id(0), n = get_local_size(0);
            while (atomic_add(turn, 0) != n - 1 - l)
                ;
            order[get_global_id(0)] = atomic_inc(turn);
        }",
    );
    has(
        &log,
        "note: kernel 'relay': coroutines (one stack per work-item, switched at barriers and in loops that wait); one work-item per step",
    );
    has(
        &log,
        "not faster because regions: <source>:3:13: a loop may wait for another work-item (an \
         atomic's result or a volatile read decides it): coroutines that let the others run in \
         it, so that sub-groups make independent forward progress: `while (atomic_add(turn, 0) \
         != n - 1 - l) ;`",
    );
    // A barrier in a called function that cannot be inlined (a return
    // before its end): coroutines, and the reason names it.
    let log = log_of(
        "void sync(local int *t) {
            t[get_local_id(0)] = 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (t[0] == 2) return;
            t[get_local_id(0)] = 3;
        }
        kernel void callee(global int *o) {
            local int t[64];
            sync(t);
            o[get_global_id(0)] = t[63 - get_local_id(0)];
        }",
    );
    has(
        &log,
        "not faster because regions: a barrier inside a called function that is not inlined \
         (`hir_inline.rs`: a call inside an expression, a return before the callee's end, a goto, \
         a label or a local variable in it, or checked mode)",
    );
    // An update of a long2's component (no packed form of long): computed
    // once per lane, with its place. (A float4's components are packed.)
    let log = log_of(
        "kernel void l2(global long2 *p) {
            long2 v = p[get_global_id(0)];
            v.x += 1;
            p[get_global_id(0)] = v;
        }",
    );
    has(
        &log,
        "<source>:3:13: once per lane (no packed form of this long): `v.x += 1`",
    );
}
