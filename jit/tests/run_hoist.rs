//! Loads of a loop's condition that do not change in the loop are read once
//! before it, loops test their condition at the bottom, and 32-bit loads
//! widened at once are one instruction (`codegen/hoist.rs`, `stmt.rs`);
//! loads the loop can change are read at every test. Every kernel runs with
//! the lanes on and off, in groups that leave rows with a remainder, and its
//! results are checked against the host.

mod run_common;
use cranecl_jit::codegen::CodegenOptions;
use run_common::*;

fn programs(src: &str) -> [cranecl_jit::codegen::CompiledProgram; 2] {
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    [
        build_cg(src, &CodegenOptions::default()),
        build_cg(src, &off),
    ]
}

const LOCALS: [u64; 3] = [1, 7, 64];

/// Compressed rows of `rows` rows, 0 to 9 entries each.
fn csr(rows: usize) -> (Vec<u32>, Vec<u32>, Vec<f32>) {
    let mut ptr = vec![0u32];
    let (mut col, mut vals) = (Vec::new(), Vec::new());
    for r in 0..rows {
        for j in 0..(r * 7 + 3) % 10 {
            col.push(((r * 13 + j * 5) % rows) as u32);
            vals.push((j as f32) - 0.25 * (r % 5) as f32);
        }
        ptr.push(col.len() as u32);
    }
    (ptr, col, vals)
}

#[test]
fn spmv_rows_of_different_lengths() {
    let src = "kernel void spmv(uint rows, global const uint *row_ptr, global const uint *col,
                     global const float *val, global const float *x, global float *y) {
        size_t r = get_global_id(0);
        if (r >= rows)
            return;
        float sum = 0.0f;
        for (uint k = row_ptr[r]; k < row_ptr[r + 1]; k++)
            sum += val[k] * x[col[k]];
        y[r] = sum;
    }";
    let rows = 203;
    let (ptr, col, vals) = csr(rows);
    let x: Vec<f32> = (0..rows).map(|i| (i % 11) as f32 * 0.5).collect();
    let want: Vec<f32> = (0..rows)
        .map(|r| {
            (ptr[r]..ptr[r + 1]).fold(0.0f32, |s, k| {
                s + vals[k as usize] * x[col[k as usize] as usize]
            })
        })
        .collect();
    for p in programs(src) {
        for l in LOCALS {
            let (mut p2, mut c2, mut v2, mut x2) =
                (ptr.clone(), col.clone(), vals.clone(), x.clone());
            let mut y = vec![-1f32; rows];
            run(
                &p,
                "spmv",
                &mut [
                    val(rows as u32),
                    buf(&mut p2),
                    buf(&mut c2),
                    buf(&mut v2),
                    buf(&mut x2),
                    buf(&mut y),
                ],
                &[rows as u64 + 3],
                &[l],
            );
            assert_eq!(y, want, "local {l}");
        }
    }
}

#[test]
fn nested_rows_per_work_item() {
    // The inner condition's address changes with the outer loop's `j`:
    // read once per inner loop, not once per work-item.
    let src =
        "kernel void k(global const uint *ptr, global const uint *v, global uint *out, uint per) {
        uint i = get_global_id(0);
        uint s = 0;
        for (uint j = i * per; j < i * per + per; j++)
            for (uint k = ptr[j]; k < ptr[j + 1]; k++)
                s += v[k] * (j + 1);
        out[i] = s;
    }";
    let (items, per) = (37usize, 3usize);
    let (ptr, col, _) = csr(items * per);
    let want: Vec<u32> = (0..items)
        .map(|i| {
            (i * per..i * per + per)
                .map(|j| {
                    (ptr[j]..ptr[j + 1])
                        .map(|k| col[k as usize] * (j as u32 + 1))
                        .sum::<u32>()
                })
                .sum()
        })
        .collect();
    for p in programs(src) {
        for l in LOCALS {
            let (mut p2, mut c2) = (ptr.clone(), col.clone());
            let mut out = vec![0u32; items];
            run(
                &p,
                "k",
                &mut [buf(&mut p2), buf(&mut c2), buf(&mut out), val(per as u32)],
                &[items as u64],
                &[l],
            );
            assert_eq!(out, want, "local {l}");
        }
    }
}

#[test]
fn bound_stored_in_the_loop_is_read_again() {
    // Each iteration lowers the bound the condition reads: it meets the
    // counter halfway.
    let src = "kernel void k(global int *bound, global int *count) {
        size_t i = get_global_id(0);
        int n = 0;
        for (int k = 0; k < bound[i]; k++) {
            bound[i] -= 1;
            n++;
        }
        count[i] = n;
    }";
    let items = 29;
    for p in programs(src) {
        for l in LOCALS {
            let mut bound: Vec<i32> = (0..items).map(|i| 2 * i + (i % 3)).collect();
            let mut count = vec![-1i32; items as usize];
            run(
                &p,
                "k",
                &mut [buf(&mut bound), buf(&mut count)],
                &[items as u64],
                &[l],
            );
            for i in 0..items {
                let b = 2 * i + (i % 3);
                assert_eq!(count[i as usize], (b + 1) / 2, "count[{i}] local {l}");
                assert_eq!(bound[i as usize], b - (b + 1) / 2, "bound[{i}] local {l}");
            }
        }
    }
}

#[test]
fn bound_changed_by_an_atomic_is_read_again() {
    let src = "kernel void k(global int *bound, global int *count) {
        size_t i = get_global_id(0);
        int n = 0;
        while (n < bound[i]) {
            atomic_dec(&bound[i]);
            n++;
        }
        count[i] = n;
    }";
    let items = 21;
    for p in programs(src) {
        for l in LOCALS {
            let mut bound: Vec<i32> = (0..items).map(|i| 3 * i).collect();
            let mut count = vec![-1i32; items as usize];
            run(
                &p,
                "k",
                &mut [buf(&mut bound), buf(&mut count)],
                &[items as u64],
                &[l],
            );
            for i in 0..items {
                let b = 3 * i;
                assert_eq!(count[i as usize], (b + 1) / 2, "count[{i}] local {l}");
            }
        }
    }
}

#[test]
fn address_that_moves_in_the_loop_is_read_at_every_test() {
    // A string length: the condition's address is the loop's counter.
    let src = "kernel void k(global const uchar *s, global const uint *start, global uint *len) {
        size_t i = get_global_id(0);
        uint k = start[i];
        while (s[k] != 0)
            k++;
        len[i] = k - start[i];
    }";
    let mut s = Vec::new();
    let mut start = Vec::new();
    let mut want = Vec::new();
    for i in 0..23u32 {
        start.push(s.len() as u32);
        let n = (i * 5) % 9;
        s.extend((0..n).map(|j| b'a' + j as u8));
        s.push(0);
        want.push(n);
    }
    for p in programs(src) {
        for l in LOCALS {
            let (mut s2, mut st2) = (s.clone(), start.clone());
            let mut len = vec![0u32; want.len()];
            run(
                &p,
                "k",
                &mut [buf(&mut s2), buf(&mut st2), buf(&mut len)],
                &[want.len() as u64],
                &[l],
            );
            assert_eq!(len, want, "local {l}");
        }
    }
}

#[test]
fn rotated_loops_test_as_often_as_written() {
    // Conditions with side effects count their evaluations; `continue`
    // goes to the step and the test; loops that never run; `&&` tests.
    let src = "kernel void k(global const int *n, global int *out) {
        size_t i = get_global_id(0);
        int m = n[i];
        int tests = 0, sum = 0;
        for (int k = 0; (tests++, k < m); k++) {
            if (k % 3 == 1)
                continue;
            sum += k;
        }
        int w = 0, wt = 0;
        while (wt++ < m && w < 5) {
            w++;
            if (w == 4)
                continue;
            sum += 100;
        }
        int d = m;
        while (d > 0) {
            if (d == 7)
                break;
            d--;
        }
        out[4 * i] = tests;
        out[4 * i + 1] = sum;
        out[4 * i + 2] = wt;
        out[4 * i + 3] = d;
    }";
    let items = 19usize;
    let n: Vec<i32> = (0..items as i32).map(|i| (i * 5) % 11).collect();
    let want: Vec<i32> = n
        .iter()
        .flat_map(|&m| {
            let mut sum: i32 = (0..m).filter(|k| k % 3 != 1).sum();
            let (mut w, mut wt) = (0, 0);
            loop {
                let go = wt < m;
                wt += 1;
                if !(go && w < 5) {
                    break;
                }
                w += 1;
                if w != 4 {
                    sum += 100;
                }
            }
            let d = if m >= 7 { 7 } else { 0 };
            [m + 1, sum, wt, d]
        })
        .collect();
    for p in programs(src) {
        for l in LOCALS {
            let mut n2 = n.clone();
            let mut out = vec![-1i32; 4 * items];
            run(
                &p,
                "k",
                &mut [buf(&mut n2), buf(&mut out)],
                &[items as u64],
                &[l],
            );
            assert_eq!(out, want, "local {l}");
        }
    }
}

#[test]
fn early_exit_before_a_bound_that_is_out_of_reach() {
    // The bound is read only while `k` is below the length; a rotated
    // loop's hoisted bottom test must not read `lim[j]` for items that
    // never test it (their j is out of the buffer).
    let src = "kernel void k(global const int *lim, global int *out, int len) {
        int i = get_global_id(0);
        int j = i < len ? i : 1 << 28;
        int k = 0;
        if (i < len)
            for (k = 0; k < lim[j]; k++)
                out[i] += 2;
        out[i] += k;
    }";
    let len = 10usize;
    let items = 16usize;
    let lim: Vec<i32> = (0..len as i32).map(|i| i % 4).collect();
    for p in programs(src) {
        for l in [1u64, 4, 16] {
            let mut lim2 = lim.clone();
            let mut out = vec![0i32; items];
            run(
                &p,
                "k",
                &mut [buf(&mut lim2), buf(&mut out), val(len as i32)],
                &[items as u64],
                &[l],
            );
            for i in 0..items {
                let want = if i < len { 3 * lim[i] } else { 0 };
                assert_eq!(out[i], want, "out[{i}] local {l}");
            }
        }
    }
}

#[test]
fn zero_extended_loads_keep_their_value() {
    // `(ulong)u[i]` and an index loaded from memory: 32-bit loads widened
    // in one instruction (`hoist::fold_zero_extending_loads`); values with
    // the top bit set stay positive, a value used twice is loaded once.
    let src = "kernel void k(global const uint *u, global const float *x, global ulong *wide,
                         global float *picked, global uint *twice) {
        size_t i = get_global_id(0);
        wide[i] = (ulong)u[i];
        picked[i] = x[u[i] & 15u];
        uint t = u[i];
        twice[i] = t + (uint)((ulong)t >> 28);
    }";
    let items = 37usize;
    let u: Vec<u32> = (0..items as u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9) | if i % 2 == 1 { 0x8000_0000 } else { 0 })
        .collect();
    let x: Vec<f32> = (0..16).map(|i| i as f32 * 1.5).collect();
    for p in programs(src) {
        for l in LOCALS {
            let (mut u2, mut x2) = (u.clone(), x.clone());
            let mut wide = vec![0u64; items];
            let mut picked = vec![0f32; items];
            let mut twice = vec![0u32; items];
            run(
                &p,
                "k",
                &mut [
                    buf(&mut u2),
                    buf(&mut x2),
                    buf(&mut wide),
                    buf(&mut picked),
                    buf(&mut twice),
                ],
                &[items as u64],
                &[l],
            );
            for i in 0..items {
                assert_eq!(wide[i], u64::from(u[i]), "wide[{i}] local {l}");
                assert_eq!(picked[i], x[(u[i] & 15) as usize], "picked[{i}] local {l}");
                assert_eq!(
                    twice[i],
                    u[i].wrapping_add(u[i] >> 28),
                    "twice[{i}] local {l}"
                );
            }
        }
    }
}

#[test]
fn loop_exits_taken_with_inverted_conditions() {
    // Loops whose exit branches are turned (`hoist::exits_first`): a float
    // condition that is false for NaN (its inverse must be true then, or
    // the loop would run), an unsigned one that wraps, and a condition that
    // is a plain value (`while (n)`), inside a loop over the work-items,
    // with a loop-invariant product (`w * y`) the inner loop reads.
    let src = "kernel void k(global const float *lim, global uint *out, uint w) {
        uint i = get_global_id(0);
        uint y = i / 4, acc = 0;
        float x = 0.0f;
        while (x < lim[i]) {
            x += 1.0f;
            acc += 1;
        }
        for (uint d = 3; d < 7; d--)
            for (uint e = 0; e < 3; e++)
                acc += w * y + d * e;
        uint n = i % 5;
        while (n) {
            acc += 100;
            n--;
        }
        out[i] = acc;
    }";
    let items = 45usize;
    let w = 9u32;
    let lim: Vec<f32> = (0..items)
        .map(|i| match i % 4 {
            0 => f32::NAN,
            1 => -2.0,
            _ => (i % 7) as f32 + 0.5,
        })
        .collect();
    let want: Vec<u32> = (0..items)
        .map(|i| {
            let (mut x, mut acc) = (0.0f32, 0u32);
            while x < lim[i] {
                x += 1.0;
                acc += 1;
            }
            let y = i as u32 / 4;
            for d in (0..=3u32).rev() {
                for e in 0..3 {
                    acc += w * y + d * e;
                }
            }
            acc + 100 * (i as u32 % 5)
        })
        .collect();
    for p in programs(src) {
        for l in LOCALS {
            let mut lim2 = lim.clone();
            let mut out = vec![0u32; items];
            run(
                &p,
                "k",
                &mut [buf(&mut lim2), buf(&mut out), val(w)],
                &[items as u64],
                &[l],
            );
            assert_eq!(out, want, "local {l}");
        }
    }
}
