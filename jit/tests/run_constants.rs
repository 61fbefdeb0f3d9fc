//! Locals that hold one integer constant (`lower/constants.rs`): an
//! inlined function's parameter given a literal is read as the literal, so
//! the subscripts it builds are constants once loops are unrolled (a
//! register tile, in the lanes) and a condition on it picks its arm when
//! the kernel is built (CLBlast's direct GEMM passes `a_transpose` so);
//! locals written after their declaration keep their reads. Each kernel's
//! results are checked against the host, with the rewrites and with the
//! program as written.

mod run_common;
use cranecl_jit::lower::Step;
use run_common::*;

/// A tile whose leading dimension and layout are the literal arguments of
/// a function called once; the layout picks between two subscripts of
/// local memory whose lanes are spaced differently.
const LITERAL_ARGUMENTS: &str = "
    void store_tile(global float *out, const float *t, int ld, int transpose, size_t i) {
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
                out[16 * i + r * 4 + c] = transpose ? t[c * ld + r] : t[r * ld + c];
    }
    float pick(local const float *s, int transpose, int lid, int k) {
        return s[transpose ? lid * 5 + k : k * 64 + lid];
    }
    kernel void k(global float *out, global const float *in, global float *picked) {
        size_t i = get_global_id(0);
        int lid = get_local_id(0);
        local float s[5 * 64];
        for (int k = 0; k < 5; k++) s[lid * 5 + k] = in[i] + k;
        barrier(CLK_LOCAL_MEM_FENCE);
        float t[16];
        for (int r = 0; r < 16; r++) t[r] = in[i] * r;
        store_tile(out, t, 4, 1, i);
        picked[2 * i] = pick(s, 1, lid, 3);
        picked[2 * i + 1] = pick(s, 0, lid, 0);
    }";

#[test]
fn literal_arguments_are_constants() {
    let [fast, written] = rewritten_and_written(LITERAL_ARGUMENTS);
    let k = fast.kernel_index("k").expect("kernel");
    // Read as a variable, `ld` leaves `t`'s subscripts unknown: the array
    // would need a copy per work-item in memory, one work-item per step.
    let e = &fast.explanations()[k];
    assert_ne!(e.step, Step::One, "{e:?}");
    assert_eq!(e.items_per_step, 8, "{e:?}");
    for p in [&fast, &written] {
        let n = 128usize;
        let local = 64u64;
        let mut input: Vec<f32> = (0..n).map(|x| (x % 11) as f32 - 3.0).collect();
        let mut out = vec![f32::NAN; 16 * n];
        let mut picked = vec![f32::NAN; 2 * n];
        run(
            p,
            "k",
            &mut [buf(&mut out), buf(&mut input), buf(&mut picked)],
            &[n as u64],
            &[local],
        );
        for i in 0..n {
            for r in 0..4 {
                for c in 0..4 {
                    assert_eq!(
                        out[16 * i + r * 4 + c],
                        input[i] * (c * 4 + r) as f32,
                        "item {i}, ({r}, {c}), {}",
                        p.strategy(k)
                    );
                }
            }
            let lid = i % local as usize;
            let g = i - lid;
            // s[lid * 5 + 3] is the work-item's own; s[lid] is element
            // lid % 5 of work-item lid / 5 of the group.
            assert_eq!(picked[2 * i], input[i] + 3.0, "item {i}");
            assert_eq!(
                picked[2 * i + 1],
                input[g + lid / 5] + (lid % 5) as f32,
                "item {i}"
            );
        }
    }
}

#[test]
fn locals_written_after_their_declaration_keep_their_reads() {
    // Each local starts as a constant and changes: assigned under a
    // condition, through a pointer, incremented, compound-assigned in a
    // loop that declares it again at each trip.
    let src = "
        kernel void k(global int *out, global const int *in) {
            size_t i = get_global_id(0);
            int a = 3;
            if (in[i] > 5) a = 7;
            int b = 2;
            int *p = &b;
            *p += in[i];
            int c = 5;
            c++;
            int e = 0;
            for (int k = 0; k < 3; k++) {
                int d = 4;
                d += k;
                e += d;
            }
            out[4 * i] = a;
            out[4 * i + 1] = b;
            out[4 * i + 2] = c;
            out[4 * i + 3] = e;
        }";
    for p in rewritten_and_written(src) {
        let n = 24usize;
        let mut input: Vec<i32> = (0..n as i32).map(|x| x % 9).collect();
        let mut out = vec![-1i32; 4 * n];
        run(
            &p,
            "k",
            &mut [buf(&mut out), buf(&mut input)],
            &[n as u64],
            &[8],
        );
        for i in 0..n {
            let a = if input[i] > 5 { 7 } else { 3 };
            assert_eq!(
                out[4 * i..4 * i + 4],
                [a, 2 + input[i], 6, 15],
                "item {i} ({})",
                p.strategy(0)
            );
        }
    }
}
