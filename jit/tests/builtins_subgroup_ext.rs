//! The sub-group extensions (`cl_khr_subgroup_extended_types`,
//! `_non_uniform_vote`, `_non_uniform_arithmetic`, `_clustered_reduce`,
//! `_shuffle`, `_shuffle_relative`, `_rotate`, `_ballot`): each function's
//! values checked against a reference computed here from the definition (a
//! sub-group is four consecutive local linear ids), in groups whose last
//! sub-group is partial, and for the non-uniform functions with some
//! work-items of each sub-group inactive — also with two branches calling
//! collectives at once, and in shuffled schedules.

mod run_common;
use cranecl_jit::runtime::schedule::Schedule;
use run_common::*;

const WIDTH: usize = 4;
/// Groups of 7 (sub-groups of 4 and 3), the last group of 2.
const N: usize = 30;
const L: usize = 7;

/// For item `i`: its sub-group's global ids and its sub-group local id.
fn sub_group_of(i: usize) -> (Vec<usize>, usize) {
    let lo = i / L * L;
    let hi = (lo + L).min(N);
    let lin = i - lo;
    let first = lo + lin / WIDTH * WIDTH;
    ((first..(first + WIDTH).min(hi)).collect(), lin % WIDTH)
}

fn run_1d(src: &str, kernel: &str, args: &mut [Arg<'_>], schedule: Option<&str>) {
    let p = build(src);
    assert_eq!(p.strategy(0), "coroutines");
    match schedule {
        Some(s) => {
            let s = Schedule::parse(s).unwrap().unwrap();
            run_scheduled(&p, kernel, args, &[N as u64], &[L as u64], s)
        }
        None => run(&p, kernel, args, &[N as u64], &[L as u64]),
    }
}

/// Assert `got[i * names.len() + k] == want(i)[k]` for every item, naming
/// the expression `names[k]` on failure.
fn check<T: PartialEq + std::fmt::Debug>(
    got: &[T],
    names: &[&str],
    how: &str,
    want: impl Fn(usize) -> Vec<Option<T>>,
) {
    for i in 0..N {
        for (k, w) in want(i).into_iter().enumerate() {
            if let Some(w) = w {
                assert_eq!(
                    got[i * names.len() + k],
                    w,
                    "{how}: {} at item {i}",
                    names[k]
                );
            }
        }
    }
}

#[test]
fn extended_types_reduce_scan_and_identities() {
    // char: sums wrap at 8 bits; the exclusive scans' first items get the
    // identities CHAR_MAX / CHAR_MIN (min, max) and 0 (add).
    let src = "
    kernel void k(global const char *x, global char *o, global ushort *u) {
        size_t i = get_global_id(0);
        char v = x[i];
        o[i * 5 + 0] = sub_group_reduce_add(v);
        o[i * 5 + 1] = sub_group_scan_inclusive_min(v);
        o[i * 5 + 2] = sub_group_scan_exclusive_add(v);
        o[i * 5 + 3] = sub_group_scan_exclusive_min(v);
        o[i * 5 + 4] = sub_group_scan_exclusive_max(v);
        ushort w = (ushort)(i * 9000);
        u[i * 3 + 0] = sub_group_reduce_max(w);
        u[i * 3 + 1] = sub_group_scan_exclusive_min(w);
        u[i * 3 + 2] = sub_group_broadcast(w, 1);
    }";
    let mut x: Vec<i8> = (0..N).map(|i| ((i * 53) % 256) as u8 as i8).collect();
    let mut o = vec![0i8; N * 5];
    let mut u = vec![0u16; N * 3];
    run_1d(src, "k", &mut [buf(&mut x), buf(&mut o), buf(&mut u)], None);
    let names = [
        "reduce_add",
        "scan_inclusive_min",
        "scan_exclusive_add",
        "scan_exclusive_min",
        "scan_exclusive_max",
    ];
    check(&o, &names, "char", |i| {
        let (sg, me) = sub_group_of(i);
        let v: Vec<i8> = sg.iter().map(|g| x[*g]).collect();
        vec![
            Some(v.iter().fold(0i8, |a, b| a.wrapping_add(*b))),
            Some(*v[..=me].iter().min().unwrap()),
            Some(v[..me].iter().fold(0i8, |a, b| a.wrapping_add(*b))),
            Some(v[..me].iter().copied().min().unwrap_or(i8::MAX)),
            Some(v[..me].iter().copied().max().unwrap_or(i8::MIN)),
        ]
    });
    check(
        &u,
        &["reduce_max", "scan_exclusive_min", "broadcast(w, 1)"],
        "ushort",
        |i| {
            let (sg, me) = sub_group_of(i);
            let v: Vec<u16> = sg.iter().map(|g| (*g * 9000) as u16).collect();
            vec![
                Some(*v.iter().max().unwrap()),
                Some(v[..me].iter().copied().min().unwrap_or(u16::MAX)),
                // A sub-group of one item has no item 1 (undefined): not checked.
                v.get(1).copied(),
            ]
        },
    );
}

#[test]
fn extended_types_vector_broadcasts() {
    let src = "
    kernel void k(global int *o, global double *d, global uchar *c) {
        size_t i = get_global_id(0);
        int3 v = (int3)((int)i, (int)i * 10, -(int)i);
        vstore3(sub_group_broadcast(v, 2), i, o);
        double4 w = (double4)(i + 0.5, i * 2.0, -1.0 * i, 7.0);
        vstore4(sub_group_broadcast(w, 0), i, d);
        uchar16 b = (uchar16)((uchar)i) + (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        vstore16(sub_group_broadcast(b, get_sub_group_size() - 1), i, c);
    }";
    let mut o = vec![0i32; N * 3];
    let mut d = vec![0f64; N * 4];
    let mut c = vec![0u8; N * 16];
    run_1d(
        src,
        "k",
        &mut [buf(&mut o), buf(&mut d), buf(&mut c)],
        Some("shuffle:5"),
    );
    check(&o, &["x", "y", "z"], "int3 from item 2", |i| {
        let (sg, _) = sub_group_of(i);
        match sg.get(2) {
            Some(&s) => vec![Some(s as i32), Some(s as i32 * 10), Some(-(s as i32))],
            None => vec![None; 3],
        }
    });
    check(&d, &["x", "y", "z", "w"], "double4 from item 0", |i| {
        let s = sub_group_of(i).0[0] as f64;
        vec![Some(s + 0.5), Some(s * 2.0), Some(-s), Some(7.0)]
    });
    let names: Vec<String> = (0..16).map(|k| format!("s{k:x}")).collect();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    check(&c, &names, "uchar16 from the last item", |i| {
        let s = *sub_group_of(i).0.last().unwrap();
        (0..16).map(|k| Some((s + k) as u8)).collect()
    });
}

/// The inactive items of the non-uniform tests: item `i` is active when
/// its sub-group local id is not 1 and it is not item 5 of its group.
const ACTIVE: &str = "(get_sub_group_local_id() != 1 && get_local_id(0) != 5)";

fn active(i: usize) -> bool {
    i % L % WIDTH != 1 && i % L != 5
}

/// The active items of `i`'s sub-group, and `i`'s place among them.
fn active_of(i: usize) -> Vec<usize> {
    sub_group_of(i)
        .0
        .into_iter()
        .filter(|g| active(*g))
        .collect()
}

#[test]
fn non_uniform_vote_in_a_branch() {
    let src = format!(
        "
    kernel void k(global const int *x, global int *o) {{
        size_t i = get_global_id(0);
        int v = x[i];
        if ({ACTIVE}) {{
            o[i * 5 + 0] = sub_group_elect();
            o[i * 5 + 1] = sub_group_non_uniform_all(v > 0);
            o[i * 5 + 2] = sub_group_non_uniform_any(v == 3);
            o[i * 5 + 3] = sub_group_non_uniform_all_equal(v);
            o[i * 5 + 4] = sub_group_non_uniform_all_equal((float)(v / 100));
        }} else {{
            o[i * 5 + 0] = 7;
        }}
    }}"
    );
    let mut x: Vec<i32> = (0..N as i32).map(|i| (i * 7) % 5).collect();
    let mut o = vec![-1i32; N * 5];
    for schedule in [None, Some("reverse"), Some("shuffle:2")] {
        run_1d(&src, "k", &mut [buf(&mut x), buf(&mut o)], schedule);
        let names = [
            "elect",
            "all(v > 0)",
            "any(v == 3)",
            "all_equal(v)",
            "all_equal((float)(v / 100))",
        ];
        check(&o, &names, &format!("{schedule:?}"), |i| {
            if !active(i) {
                return vec![Some(7), None, None, None, None];
            }
            let a = active_of(i);
            let v: Vec<i32> = a.iter().map(|g| x[*g]).collect();
            vec![
                Some(i32::from(a[0] == i)),
                Some(i32::from(v.iter().all(|v| *v > 0))),
                Some(i32::from(v.contains(&3))),
                Some(i32::from(v.iter().all(|w| *w == x[i]))),
                Some(1),
            ]
        });
    }
}

#[test]
fn non_uniform_arithmetic_in_a_branch() {
    let src = format!(
        "
    kernel void k(global const int *x, global int *o, global float *f) {{
        size_t i = get_global_id(0);
        int v = x[i];
        if ({ACTIVE}) {{
            o[i * 8 + 0] = sub_group_non_uniform_reduce_add(v);
            o[i * 8 + 1] = sub_group_non_uniform_reduce_mul(v);
            o[i * 8 + 2] = sub_group_non_uniform_scan_inclusive_and(v);
            o[i * 8 + 3] = sub_group_non_uniform_scan_exclusive_or(v);
            o[i * 8 + 4] = sub_group_non_uniform_reduce_xor(v);
            o[i * 8 + 5] = sub_group_non_uniform_scan_exclusive_mul(v);
            o[i * 8 + 6] = sub_group_non_uniform_reduce_logical_and(v & 1);
            o[i * 8 + 7] = sub_group_non_uniform_scan_inclusive_logical_xor(v & 2);
            f[i] = sub_group_non_uniform_scan_inclusive_max((float)v * 0.5f);
        }}
    }}"
    );
    let mut x: Vec<i32> = (0..N as i32).map(|i| (i * 13) % 11 - 3).collect();
    let mut o = vec![0i32; N * 8];
    let mut f = vec![0f32; N];
    run_1d(
        &src,
        "k",
        &mut [buf(&mut x), buf(&mut o), buf(&mut f)],
        None,
    );
    let names = [
        "reduce_add",
        "reduce_mul",
        "scan_inclusive_and",
        "scan_exclusive_or",
        "reduce_xor",
        "scan_exclusive_mul",
        "reduce_logical_and(v & 1)",
        "scan_inclusive_logical_xor(v & 2)",
    ];
    check(&o, &names, "int", |i| {
        if !active(i) {
            return vec![Some(0); 8];
        }
        let a = active_of(i);
        let me = a.iter().position(|g| *g == i).unwrap();
        let v: Vec<i32> = a.iter().map(|g| x[*g]).collect();
        vec![
            Some(v.iter().sum()),
            Some(v.iter().product()),
            Some(v[..=me].iter().fold(-1, |a, b| a & b)),
            Some(v[..me].iter().fold(0, |a, b| a | b)),
            Some(v.iter().fold(0, |a, b| a ^ b)),
            Some(v[..me].iter().product()),
            Some(i32::from(v.iter().all(|v| v & 1 != 0))),
            Some(i32::from(
                v[..=me].iter().filter(|v| *v & 2 != 0).count() % 2 == 1,
            )),
        ]
    });
    check(&f, &["scan_inclusive_max"], "float", |i| {
        if !active(i) {
            return vec![Some(0.0)];
        }
        let a = active_of(i);
        let me = a.iter().position(|g| *g == i).unwrap();
        let m = a[..=me]
            .iter()
            .map(|g| x[*g] as f32 * 0.5)
            .fold(f32::NEG_INFINITY, f32::max);
        vec![Some(m)]
    });
}

/// Both sides of an `if` call a collective in the same round: each side
/// combines only its own work-items.
#[test]
fn two_branches_do_not_mix() {
    let src = "
    kernel void k(global int *o) {
        int i = (int)get_global_id(0);
        if (get_sub_group_local_id() % 2 == 0)
            o[i] = sub_group_non_uniform_reduce_add(i);
        else
            o[i] = sub_group_non_uniform_reduce_mul(i) + 1000;
    }";
    let mut o = vec![0i32; N];
    for schedule in [None, Some("interleave"), Some("shuffle:9")] {
        run_1d(src, "k", &mut [buf(&mut o)], schedule);
        check(&o, &["reduce"], &format!("{schedule:?}"), |i| {
            let (sg, me) = sub_group_of(i);
            let side: Vec<i32> = sg
                .iter()
                .enumerate()
                .filter(|(k, _)| k % 2 == me % 2)
                .map(|(_, g)| *g as i32)
                .collect();
            vec![Some(if me % 2 == 0 {
                side.iter().sum()
            } else {
                side.iter().product::<i32>() + 1000
            })]
        });
    }
}

#[test]
fn clustered_reduce() {
    let src = "
    kernel void k(global const long *x, global long *o) {
        size_t i = get_global_id(0);
        long v = x[i];
        o[i * 4 + 0] = sub_group_clustered_reduce_add(v, 1);
        o[i * 4 + 1] = sub_group_clustered_reduce_max(v, 2);
        o[i * 4 + 2] = sub_group_clustered_reduce_or(v, 2);
        o[i * 4 + 3] = sub_group_clustered_reduce_mul(v, 4);
    }";
    let mut x: Vec<i64> = (0..N as i64)
        .map(|i| (i * 17) % 9 - 4 + (i << 33))
        .collect();
    let mut o = vec![0i64; N * 4];
    run_1d(src, "k", &mut [buf(&mut x), buf(&mut o)], None);
    let names = [
        "clustered_reduce_add(v, 1)",
        "clustered_reduce_max(v, 2)",
        "clustered_reduce_or(v, 2)",
        "clustered_reduce_mul(v, 4)",
    ];
    check(&o, &names, "long", |i| {
        let (sg, me) = sub_group_of(i);
        let cluster = |c: usize| -> Vec<i64> {
            let base = me / c * c;
            sg.iter().skip(base).take(c).map(|g| x[*g]).collect()
        };
        vec![
            Some(x[i]),
            cluster(2).into_iter().max(),
            Some(cluster(2).into_iter().fold(0, |a, b| a | b)),
            Some(cluster(4).into_iter().fold(1i64, |a, b| a.wrapping_mul(b))),
        ]
    });
}

#[test]
fn shuffles_and_rotates() {
    let src = "
    kernel void k(global float *o, global short *s) {
        size_t i = get_global_id(0);
        uint me = get_sub_group_local_id();
        float v = (float)i * 1.5f;
        o[i * 4 + 0] = sub_group_shuffle(v, (me + 1) % get_sub_group_size());
        o[i * 4 + 1] = sub_group_shuffle_xor(v, 3);
        o[i * 4 + 2] = sub_group_shuffle_up(v, 1);
        o[i * 4 + 3] = sub_group_shuffle_down(v, 2);
        short w = (short)(i * 1000);
        s[i * 2 + 0] = sub_group_rotate(w, 3);
        s[i * 2 + 1] = sub_group_clustered_rotate(w, 1, 2);
    }";
    let mut o = vec![-1f32; N * 4];
    let mut s = vec![0i16; N * 2];
    run_1d(src, "k", &mut [buf(&mut o), buf(&mut s)], Some("shuffle:4"));
    // An index outside the sub-group is undefined: not checked.
    let at = |sg: &[usize], k: Option<usize>| k.and_then(|k| sg.get(k)).map(|g| *g as f32 * 1.5);
    check(
        &o,
        &[
            "shuffle((me + 1) % size)",
            "shuffle_xor(3)",
            "shuffle_up(1)",
            "shuffle_down(2)",
        ],
        "float",
        |i| {
            let (sg, me) = sub_group_of(i);
            vec![
                at(&sg, Some((me + 1) % sg.len())),
                at(&sg, Some(me ^ 3)),
                at(&sg, me.checked_sub(1)),
                at(&sg, Some(me + 2)),
            ]
        },
    );
    check(
        &s,
        &["rotate(w, 3)", "clustered_rotate(w, 1, 2)"],
        "short",
        |i| {
            let (sg, me) = sub_group_of(i);
            let w = |k: usize| sg.get(k).map(|g| (*g * 1000) as i16);
            vec![w((me + 3) % WIDTH), w(me / 2 * 2 + (me + 1) % 2)]
        },
    );
}

#[test]
fn ballot_in_a_branch() {
    let src = format!(
        "
    kernel void k(global const int *x, global uint *o) {{
        size_t i = get_global_id(0);
        int v = x[i];
        uint4 b = (uint4)(0);
        if ({ACTIVE}) {{
            b = sub_group_ballot(v > 2);
            o[i * 12 + 1] = sub_group_non_uniform_broadcast((uint)v, 3);
            o[i * 12 + 2] = sub_group_broadcast_first((uint)v * 3);
        }}
        o[i * 12 + 0] = b.x | b.y | b.z | b.w;
        o[i * 12 + 3] = sub_group_inverse_ballot(b);
        o[i * 12 + 4] = sub_group_ballot_bit_extract(b, 2);
        o[i * 12 + 5] = sub_group_ballot_bit_count(b);
        o[i * 12 + 6] = sub_group_ballot_inclusive_scan(b);
        o[i * 12 + 7] = sub_group_ballot_exclusive_scan(b);
        o[i * 12 + 8] = b.x ? sub_group_ballot_find_lsb(b) : 99;
        o[i * 12 + 9] = b.x ? sub_group_ballot_find_msb(b) : 99;
        o[i * 12 + 10] = get_sub_group_ge_mask().x | get_sub_group_ge_mask().y << 8;
        o[i * 12 + 11] = get_sub_group_lt_mask().x | get_sub_group_eq_mask().x << 8;
    }}"
    );
    let mut x: Vec<i32> = (0..N as i32).map(|i| (i * 7) % 6).collect();
    let mut o = vec![0u32; N * 12];
    run_1d(&src, "k", &mut [buf(&mut x), buf(&mut o)], None);
    let names = [
        "ballot(v > 2)",
        "non_uniform_broadcast(v, 3)",
        "broadcast_first(v * 3)",
        "inverse_ballot",
        "bit_extract(b, 2)",
        "bit_count",
        "inclusive_scan",
        "exclusive_scan",
        "find_lsb",
        "find_msb",
        "ge_mask",
        "lt_mask | eq_mask << 8",
    ];
    check(&o, &names, "ballot", |i| {
        let (sg, me) = sub_group_of(i);
        let max = WIDTH.min(L) as u32;
        let a = active_of(i);
        let mask: u32 = if active(i) {
            sg.iter()
                .enumerate()
                .filter(|(_, g)| active(**g) && x[**g] > 2)
                .fold(0, |m, (k, _)| m | 1 << k)
        } else {
            0
        };
        let me = me as u32;
        let below = |k: u32| (1u32 << k) - 1;
        let group = mask & below(max);
        vec![
            Some(mask),
            // Item 3 of the sub-group, when it is active.
            if active(i) {
                sg.get(3).filter(|g| active(**g)).map(|g| x[*g] as u32)
            } else {
                None
            },
            if active(i) {
                Some(x[a[0]] as u32 * 3)
            } else {
                None
            },
            Some(mask >> me & 1),
            Some(mask >> 2 & 1),
            Some(group.count_ones()),
            Some((mask & below(me + 1)).count_ones()),
            Some((mask & below(me)).count_ones()),
            Some(if mask != 0 {
                group.trailing_zeros()
            } else {
                99
            }),
            Some(if mask != 0 {
                31 - group.leading_zeros()
            } else {
                99
            }),
            Some(below(max) & !below(me)),
            Some(below(me) | (1 << me) << 8),
        ]
    });
}

/// The extensions' macros are defined for OpenCL C 3.0 (with
/// `__opencl_c_subgroups`), and their functions are not declared for
/// OpenCL C 1.2, which has no sub-groups.
#[test]
fn macros_and_declarations() {
    let src = "
    #if !defined(cl_khr_subgroup_extended_types) || !defined(cl_khr_subgroup_non_uniform_vote) \\
     || !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_non_uniform_arithmetic) \\
     || !defined(cl_khr_subgroup_shuffle) || !defined(cl_khr_subgroup_shuffle_relative) \\
     || !defined(cl_khr_subgroup_clustered_reduce) || !defined(cl_khr_subgroup_rotate)
    #error missing macros
    #endif
    kernel void k(global uint *o) {
        o[get_global_id(0)] = sub_group_shuffle(get_sub_group_local_id() * 2, 3);
    }";
    let p = build(src);
    let mut o = vec![0u32; 6];
    run(&p, "k", &mut [buf(&mut o)], &[6], &[6]);
    assert_eq!(o[..4], [6, 6, 6, 6]);
    let opts = cranecl_jit::options::BuildOptions::parse("-cl-std=CL1.2").unwrap();
    let k12 = "kernel void k(global int *o) { o[0] = sub_group_elect(); }";
    let out = cranecl_jit::frontend::compile(k12, "test.cl", &opts, &[]);
    assert!(!out.success, "OpenCL C 1.2 has no sub-groups");
    assert!(out.log.contains("sub_group_elect"), "{}", out.log);
}

/// `sub_group_rotate` wraps at the maximum sub-group size: 3 in groups of 3.
#[test]
fn rotate_wraps_at_the_maximum_sub_group_size() {
    let src = "
    kernel void k(global int *o) {
        int i = (int)get_global_id(0);
        o[i] = sub_group_rotate(i * 10 + 1, 1);
    }";
    let p = build(src);
    let mut o = vec![-1i32; 6];
    run(&p, "k", &mut [buf(&mut o)], &[6], &[3]);
    assert_eq!(
        o,
        [11, 21, 1, 41, 51, 31],
        "rotate(i * 10 + 1, 1) in groups of 3"
    );
}

/// One function calling a collective, called from both sides of an `if`:
/// each side combines its own work-items (the call path is part of the
/// tag).
#[test]
fn one_function_called_from_two_branches() {
    let src = "
    int f(int v) { return sub_group_non_uniform_reduce_add(v); }
    int g(int v) { return f(v) * 2; }
    kernel void k(global int *o) {
        int i = (int)get_global_id(0);
        if (get_sub_group_local_id() % 2 == 0)
            o[i] = f(i);
        else
            o[i] = g(i) + 1000;
    }";
    let mut o = vec![-1i32; N];
    for schedule in [None, Some("shuffle:8")] {
        run_1d(src, "k", &mut [buf(&mut o)], schedule);
        check(&o, &["f or g"], &format!("{schedule:?}"), |i| {
            let (sg, me) = sub_group_of(i);
            let side: i32 = sg
                .iter()
                .enumerate()
                .filter(|(k, _)| k % 2 == me % 2)
                .map(|(_, g)| *g as i32)
                .sum();
            vec![Some(if me % 2 == 0 { side } else { side * 2 + 1000 })]
        });
    }
}
