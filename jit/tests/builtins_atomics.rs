//! The C11 atomics of OpenCL C 3.0 with every memory order and every memory
//! scope the device advertises (`__opencl_c_atomic_order_acq_rel`,
//! `_seq_cst`, `__opencl_c_atomic_scope_device`, `_all_devices`): one
//! generated kernel calls each `_explicit` function once per (order, scope)
//! pair from 64 work-items, and each result is compared with what Rust
//! computes for it, naming the function, the order and the scope.
//! Built with the device's own feature set (no feature forced on here).

mod run_common;
use cranecl_jit::codegen::CodegenOptions;
use run_common::*;

const ORDERS: [&str; 5] = [
    "memory_order_relaxed",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];

const SCOPES: [&str; 5] = [
    "memory_scope_work_item",
    "memory_scope_work_group",
    "memory_scope_device",
    "memory_scope_all_svm_devices",
    "memory_scope_all_devices",
];

/// Work-items of the launch (two groups of 32).
const N: usize = 64;
/// (order, scope) pairs.
const K: usize = ORDERS.len() * SCOPES.len();

/// The statements for pair `k`: order `o`, scope `s`, failure order `f`.
fn pair_text(k: usize, o: &str, s: &str, f: &str) -> String {
    format!(
        "
    atomic_fetch_add_explicit(&ai[{k}*3+0], gid + 1, {o}, {s});
    atomic_fetch_sub_explicit(&ai[{k}*3+1], 1, {o});
    {{
        int e = atomic_load_explicit(&ai[{k}*3+2], {o}, {s});
        while (!atomic_compare_exchange_weak_explicit(&ai[{k}*3+2], &e, e + 2, {o}, {f}, {s}))
            ;
        e = 0;
        (void)atomic_compare_exchange_strong_explicit(&ai[{k}*3+2], &e, -1, {o}, {f});
    }}
    atomic_fetch_xor_explicit(&au[{k}*2+0], (uint)gid + 1u, {o}, {s});
    atomic_fetch_and_explicit(&au[{k}*2+1], ~(1u << (gid % 32)), {o}, {s});
    atomic_fetch_min_explicit(&al[{k}*2+0], (long)gid - 100, {o}, {s});
    atomic_fetch_max_explicit(&al[{k}*2+1], (long)(gid * gid), {o}, {s});
    atomic_fetch_or_explicit(&aul[{k}], 1ul << gid, {o}, {s});
    xo[{k}*64+gid] = gid % 2 ? atomic_exchange_explicit(&af[{k}], (float)gid, {o}, {s})
                              : atomic_exchange_explicit(&af[{k}], (float)gid, {o});
    atomic_store_explicit(&st[{k}*64+gid], (int)gid * 7 + {k}, {o}, {s});
    ld[{k}*64+gid] = atomic_load_explicit(&st[{k}*64+gid], {o}, {s});
    atomic_store_explicit(&sd[{k}*64+gid], (double)gid * 0.25, {o});
    ldd[{k}*64+gid] = atomic_load_explicit(&sd[{k}*64+gid], {o});
    if (!atomic_flag_test_and_set_explicit(&fl[{k}], {o}, {s}))
        atomic_fetch_add_explicit(&won[{k}], 1, memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, {o}, {s});
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, {o}, {s});
"
    )
}

fn kernel_text() -> String {
    let mut body = String::new();
    for (oi, o) in ORDERS.iter().enumerate() {
        for (si, s) in SCOPES.iter().enumerate() {
            let k = oi * SCOPES.len() + si;
            body += &pair_text(k, o, s, ORDERS[(oi + si) % ORDERS.len()]);
        }
    }
    format!(
        "kernel void t(global atomic_int *ai, global atomic_uint *au, global atomic_long *al,
                       global atomic_ulong *aul, global atomic_float *af, global float *xo,
                       global atomic_int *st, global int *ld, global atomic_double *sd,
                       global double *ldd, global atomic_flag *fl, global atomic_int *won,
                       global atomic_int *ini) {{
    size_t gid = get_global_id(0);
    atomic_init(&ini[gid], (int)gid + 5);
{body}
}}"
    )
}

#[test]
fn every_order_and_scope_computes_the_right_values() {
    let p = build(&kernel_text());
    let mut ai = vec![0i32; K * 3];
    let mut au: Vec<u32> = (0..K * 2)
        .map(|i| if i % 2 == 1 { u32::MAX } else { 0 })
        .collect();
    let mut al = vec![0i64; K * 2];
    let mut aul = vec![0u64; K];
    let mut af = vec![-1f32; K];
    let mut xo = vec![0f32; K * N];
    let mut st = vec![0i32; K * N];
    let mut ld = vec![0i32; K * N];
    let mut sd = vec![0f64; K * N];
    let mut ldd = vec![0f64; K * N];
    let mut fl = vec![0i32; K];
    let mut won = vec![0i32; K];
    let mut ini = vec![0i32; N];
    run(
        &p,
        "t",
        &mut [
            buf(&mut ai),
            buf(&mut au),
            buf(&mut al),
            buf(&mut aul),
            buf(&mut af),
            buf(&mut xo),
            buf(&mut st),
            buf(&mut ld),
            buf(&mut sd),
            buf(&mut ldd),
            buf(&mut fl),
            buf(&mut won),
            buf(&mut ini),
        ],
        &[N as u64],
        &[32],
    );
    let xor_all = (1..=N as u32).fold(0, |a, b| a ^ b);
    for (oi, o) in ORDERS.iter().enumerate() {
        for (si, s) in SCOPES.iter().enumerate() {
            let k = oi * SCOPES.len() + si;
            let at = format!("{o}, {s}");
            let sum: i32 = (1..=N as i32).sum();
            assert_eq!(ai[k * 3], sum, "atomic_fetch_add_explicit({at})");
            assert_eq!(ai[k * 3 + 1], -(N as i32), "atomic_fetch_sub_explicit({o})");
            assert_eq!(
                ai[k * 3 + 2],
                2 * N as i32,
                "atomic_compare_exchange_weak_explicit loop ({at}); the strong one must fail"
            );
            assert_eq!(au[k * 2], xor_all, "atomic_fetch_xor_explicit({at})");
            assert_eq!(au[k * 2 + 1], 0, "atomic_fetch_and_explicit({at})");
            assert_eq!(al[k * 2], -100, "atomic_fetch_min_explicit({at})");
            let max = ((N - 1) * (N - 1)) as i64;
            assert_eq!(al[k * 2 + 1], max, "atomic_fetch_max_explicit({at})");
            assert_eq!(aul[k], u64::MAX, "atomic_fetch_or_explicit({at})");
            // The values exchanged out, with the one left, are the initial
            // -1 and each work-item's own, once each, in any order.
            let mut seen: Vec<f32> = xo[k * N..(k + 1) * N].to_vec();
            seen.push(af[k]);
            seen.sort_by(f32::total_cmp);
            let want: Vec<f32> = (-1..N as i32).map(|v| v as f32).collect();
            assert_eq!(
                seen, want,
                "atomic_exchange_explicit({at}): old values and the last"
            );
            for g in 0..N {
                let want = g as i32 * 7 + k as i32;
                assert_eq!(st[k * N + g], want, "atomic_store_explicit({at}) item {g}");
                assert_eq!(ld[k * N + g], want, "atomic_load_explicit({at}) item {g}");
                assert_eq!(
                    sd[k * N + g],
                    g as f64 * 0.25,
                    "double store ({o}) item {g}"
                );
                assert_eq!(
                    ldd[k * N + g],
                    g as f64 * 0.25,
                    "double load ({o}) item {g}"
                );
            }
            assert_eq!(fl[k], 1, "atomic_flag_test_and_set_explicit({at}) sets");
            assert_eq!(won[k], 1, "one work-item found the flag clear ({at})");
        }
    }
    for (g, v) in ini.iter().enumerate() {
        assert_eq!(*v, g as i32 + 5, "atomic_init item {g}");
    }
}

/// Under OpenCL C 3.0 the features are predefined macros, and the
/// functions with implicit order and scope (seq_cst, device) exist; in 2.0
/// `memory_scope_all_devices` does not (its 3.0 name), as in clang-14.
#[test]
fn feature_macros_and_implicit_forms() {
    let src = "
#if !defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_order_seq_cst)
#error orders
#endif
#if !defined(__opencl_c_atomic_scope_device) || !defined(__opencl_c_atomic_scope_all_devices)
#error scopes
#endif
global atomic_int counter = ATOMIC_VAR_INIT(3);
global atomic_flag flag = ATOMIC_FLAG_INIT;
kernel void t(global int *o) {
    atomic_fetch_add(&counter, 2);
    o[get_global_id(0) + 2] = atomic_flag_test_and_set(&flag);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_all_devices);
    if (get_global_id(0) == 0) { o[0] = atomic_load(&counter); o[1] = memory_scope_all_devices; }
}";
    let p = build(src);
    let mut o = vec![-1i32; 2 + 8];
    run(&p, "t", &mut [buf(&mut o)], &[8], &[8]);
    assert_eq!(
        o[0],
        3 + 2 * 8,
        "ATOMIC_VAR_INIT(3) then eight atomic_fetch_add"
    );
    assert_eq!(
        o[1], 3,
        "memory_scope_all_devices is memory_scope_all_svm_devices"
    );
    let set = o[2..].iter().filter(|&&v| v == 1).count();
    assert_eq!(
        set, 7,
        "exactly one atomic_flag_test_and_set found it clear: {o:?}"
    );

    let cl20 = "kernel void t(global int *o) { o[0] = memory_scope_all_devices; }";
    let opts = cranecl_jit::options::BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let out = cranecl_jit::frontend::compile(cl20, "t.cl", &opts, &[]);
    assert!(
        !out.success,
        "memory_scope_all_devices is OpenCL C 3.0's name"
    );
    assert!(out.log.contains("memory_scope_all_devices"), "{}", out.log);
}

/// A message passed between work-items with a release store and an
/// acquire load (and with release/acquire fences around relaxed atomics):
/// the data written before the release is what the acquirer reads.
#[test]
fn message_passing_release_acquire() {
    let src = "
kernel void t(global int *data, global atomic_int *flag, global int *seen, global atomic_int *ticket) {
    size_t g = get_group_id(0), l = get_local_id(0), n = get_num_groups(0);
    if (l == 0) {
        data[g] = (int)g * 10 + 1;
        atomic_store_explicit(&flag[g], 1, memory_order_release, memory_scope_device);
        // The last group to arrive reads every other group's message.
        if (atomic_fetch_add_explicit(ticket, 1, memory_order_acq_rel, memory_scope_device) == (int)n - 1) {
            for (size_t h = 0; h < n; h++) {
                while (atomic_load_explicit(&flag[h], memory_order_acquire, memory_scope_device) == 0)
                    ;
                seen[h] = data[h];
            }
        }
    }
}";
    let p = build(src);
    let groups = 16usize;
    let mut data = vec![0i32; groups];
    let mut flag = vec![0i32; groups];
    let mut seen = vec![0i32; groups];
    let mut ticket = vec![0i32];
    run(
        &p,
        "t",
        &mut [
            buf(&mut data),
            buf(&mut flag),
            buf(&mut seen),
            buf(&mut ticket),
        ],
        &[(groups * 4) as u64],
        &[4],
    );
    for (g, v) in seen.iter().enumerate() {
        assert_eq!(*v, g as i32 * 10 + 1, "message of group {g}");
    }
    assert_eq!(ticket[0], groups as i32);
}

/// Atomics that need be indivisible only within one work-group — on `local`
/// objects, and `_explicit` forms of `memory_scope_work_group` on global
/// ones — are plain loads and stores (the group runs on one host thread):
/// loops of them from every work-item of a group keep every value, under
/// each strategy (regions, coroutines, the lanes and one item per step);
/// through a generic pointer, local or global as it points at run time.
const GROUP_ATOMICS: &str = "
void bits(local atomic_int *w, int t, int iters, global int *errs) {
    int bad = 0, m = 1 << (t % 32);
    for (int i = 0; i < iters; i++) {
        if (atomic_fetch_or(&w[t / 32], m) & m) bad++;
        if (!(atomic_fetch_and_explicit(&w[t / 32], ~m, memory_order_acq_rel) & m)) bad++;
    }
    errs[t] = bad;
}
kernel void loc(global int *r, global int *fin, global int *errs, local atomic_int *l,
                local atomic_int *w, local int *c, int iters) {
    int t = get_local_id(0), n = get_local_size(0);
    if (t == 0) {
        atomic_init(&l[0], -1);
        for (int k = 1; k < 5; k++) atomic_init(&l[k], 0);
        for (int b = 0; b < (n + 31) / 32; b++) atomic_init(&w[b], 0);
        c[0] = 0; c[1] = 1000; c[2] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = atomic_exchange(&l[0], t);
    for (int i = 0; i < iters; i++)
        v = atomic_exchange_explicit(&l[0], v, memory_order_seq_cst, memory_scope_work_group);
    r[t] = v;
    for (int i = 0; i < iters; i++) {
        int e = atomic_load(&l[1]);
        while (!atomic_compare_exchange_weak(&l[1], &e, e + 1))
            ;
        e = -1 - t; // never the count
        if (atomic_compare_exchange_strong(&l[1], &e, 0)) errs[n + t] = 1;
    }
    bits(w, t, iters, errs);
    atomic_fetch_add(&l[2], t);
    atomic_fetch_max(&l[3], t * 3);
    atomic_fetch_sub_explicit(&l[4], t, memory_order_relaxed);
    atomic_inc(&c[0]);
    atomic_min(&c[1], t + 7);
    atomic_add(&c[2], 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) {
        for (int k = 0; k < 5; k++) fin[k] = atomic_load(&l[k]);
        for (int k = 0; k < 3; k++) fin[5 + k] = c[k];
    }
}
int chain(atomic_int *d, int t, int iters) {
    int v = atomic_exchange(d, t);
    for (int i = 0; i < iters; i++)
        v = atomic_exchange_explicit(d, v, memory_order_acq_rel);
    return v;
}
kernel void gen(global atomic_int *g, global int *r, local atomic_int *l, global int *fin, int iters) {
    int t = get_local_id(0), n = get_local_size(0);
    if (t == 0) atomic_init(&l[0], -1);
    barrier(CLK_LOCAL_MEM_FENCE);
    r[t] = chain(&l[0], t, iters);
    r[n + t] = chain(&g[0], t, iters);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) fin[0] = atomic_load(&l[0]);
}
kernel void wg(global atomic_int *g, global int *r, global int *errs, int iters) {
    int t = get_global_id(0);
    int v = atomic_exchange_explicit(&g[0], t, memory_order_relaxed, memory_scope_work_group);
    for (int i = 0; i < iters; i++)
        v = atomic_exchange_explicit(&g[0], v, memory_order_acquire, memory_scope_work_group);
    r[t] = v;
    int bad = 0, m = 1 << (t % 32);
    for (int i = 0; i < iters; i++) {
        if (atomic_fetch_or_explicit(&g[2 + t / 32], m, memory_order_release, memory_scope_work_group) & m) bad++;
        if (!(atomic_fetch_xor_explicit(&g[2 + t / 32], m, memory_order_relaxed, memory_scope_work_group) & m)) bad++;
        int e = atomic_load_explicit(&g[1], memory_order_relaxed, memory_scope_work_group);
        while (!atomic_compare_exchange_strong_explicit(&g[1], &e, e + 1, memory_order_acq_rel,
                                                        memory_order_relaxed, memory_scope_work_group))
            ;
    }
    errs[t] = bad;
}";

/// `values` and `last` hold `-1` and every id below `n` once.
fn assert_exchange_chain(values: &[i32], last: i32, n: usize, what: &str) {
    let mut all: Vec<i32> = values[..n].to_vec();
    all.push(last);
    all.sort_unstable();
    let want: Vec<i32> = (-1..n as i32).collect();
    assert_eq!(
        all, want,
        "{what}: the exchanged values are not a permutation"
    );
}

#[test]
fn work_group_atomics_in_loops_keep_every_value() {
    let cgs = [
        ("regions, lanes", CodegenOptions::default()),
        (
            "coroutines",
            CodegenOptions {
                barrier_regions: false,
                ..CodegenOptions::default()
            },
        ),
        (
            "one item per step",
            CodegenOptions {
                lanes: false,
                ..CodegenOptions::default()
            },
        ),
    ];
    let iters = 41;
    for (what, cg) in &cgs {
        let p = build_cg(GROUP_ATOMICS, cg);
        for n in [64usize, 62] {
            let mut r = vec![0i32; n];
            let mut fin = vec![0i32; 8];
            let mut errs = vec![0i32; 2 * n];
            let words = n.div_ceil(32) as u64;
            run(
                &p,
                "loc",
                &mut [
                    buf(&mut r),
                    buf(&mut fin),
                    buf(&mut errs),
                    Arg::Local(5 * 4),
                    Arg::Local(words * 4),
                    Arg::Local(3 * 4),
                    val(iters),
                ],
                &[n as u64],
                &[n as u64],
            );
            let what = format!("local, {what}, {n} work-items");
            assert_exchange_chain(&r, fin[0], n, &what);
            let ids: i32 = (0..n as i32).sum();
            assert_eq!(
                fin[1],
                (n as i32) * iters,
                "{what}: compare-exchange increments"
            );
            assert!(
                errs.iter().all(|&e| e == 0),
                "{what}: lost or/and updates: {errs:?}"
            );
            assert_eq!(fin[2], ids, "{what}: fetch_add");
            assert_eq!(fin[3], 3 * (n as i32 - 1), "{what}: fetch_max");
            assert_eq!(fin[4], -ids, "{what}: fetch_sub");
            assert_eq!(
                fin[5..],
                [n as i32, 7, 2 * n as i32],
                "{what}: atomic_inc/min/add"
            );

            let mut g = vec![0i32; 2 + n.div_ceil(32)];
            g[0] = -1;
            let mut r = vec![0i32; n];
            let mut errs = vec![0i32; n];
            run(
                &p,
                "wg",
                &mut [buf(&mut g), buf(&mut r), buf(&mut errs), val(iters)],
                &[n as u64],
                &[n as u64],
            );
            let what = what.replace("local", "global, work-group scope");
            assert_exchange_chain(&r, g[0], n, &what);
            assert_eq!(
                g[1],
                (n as i32) * iters,
                "{what}: compare-exchange increments"
            );
            assert!(
                errs.iter().all(|&e| e == 0),
                "{what}: lost or/xor updates: {errs:?}"
            );
            assert!(
                g[2..].iter().all(|&w| w == 0),
                "{what}: bits left set: {g:?}"
            );
        }
    }
}
