//! Kernels with barriers, each run under both strategies (regions where they
//! apply, coroutines always) with the same results checked.

mod run_common;
use run_common::*;

#[test]
fn reduction_runs_as_regions_and_as_coroutines() {
    let src = "kernel void reduce(global const int *in, global int *out, local int *scratch) {
            local int total;
            size_t l = get_local_id(0), n = get_local_size(0);
            scratch[l] = in[get_global_id(0)];
            if (l == 0) total = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (size_t s = n / 2; s > 0; s >>= 1) {
                if (l < s) scratch[l] += scratch[l + s];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (l == 0) { total = scratch[0]; }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (l == n - 1) out[get_group_id(0)] = total;
        }";
    let [r, c] = build_both(src);
    assert_eq!(r.strategy(0), "regions");
    assert_eq!(c.strategy(0), "coroutines");
    for p in [&r, &c] {
        let n = 1024usize;
        let mut input: Vec<i32> = (0..n as i32).map(|i| i * 3 - 7).collect();
        let mut out = vec![0i32; n / 64];
        run(
            p,
            "reduce",
            &mut [buf(&mut input), buf(&mut out), Arg::Local(64 * 4)],
            &[n as u64],
            &[64],
        );
        for g in 0..n / 64 {
            let want: i32 = input[g * 64..(g + 1) * 64].iter().sum();
            assert_eq!(out[g], want, "{} group {g}", p.strategy(0));
        }
    }
}

#[test]
fn tiled_matrix_multiply_with_local_tiles() {
    let src = "#define TS 4
        kernel void mm(global const float *A, global const float *B, global float *C, int N) {
            local float As[TS][TS], Bs[TS][TS];
            int lx = get_local_id(0), ly = get_local_id(1);
            int col = get_global_id(0), row = get_global_id(1);
            float acc = 0.0f;
            int t = 0;
            while (t < N / TS) {
                As[ly][lx] = A[row * N + t * TS + lx];
                Bs[ly][lx] = B[(t * TS + ly) * N + col];
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < TS; k++) acc += As[ly][k] * Bs[k][lx];
                barrier(CLK_LOCAL_MEM_FENCE);
                t++;
            }
            C[row * N + col] = acc;
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let n = 12usize;
        let mut a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 - 2.0).collect();
        let mut b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32 * 0.5).collect();
        let mut c = vec![0f32; n * n];
        run(
            &p,
            "mm",
            &mut [buf(&mut a), buf(&mut b), buf(&mut c), val(n as i32)],
            &[n as u64, n as u64],
            &[4, 4],
        );
        for r in 0..n {
            for col in 0..n {
                let want: f32 = (0..n).map(|k| a[r * n + k] * b[k * n + col]).sum();
                assert_eq!(c[r * n + col], want, "{} C[{r}][{col}]", p.strategy(0));
            }
        }
    }
}

#[test]
fn values_live_across_barriers_in_uniform_ifs_and_do_loops() {
    let src = "typedef struct { int a; int b; } pair;
        kernel void k(global int *o, int rounds, int flag) {
            local int t[16];
            size_t l = get_local_id(0);
            int priv[3] = {1, 2, 3};
            pair p = {(int)l, 0};
            int4 v = (int4)(l);
            if (flag) {
                t[l] = (int)l * 10;
                barrier(CLK_LOCAL_MEM_FENCE);
                p.b = t[(l + 1) % 16];
            } else {
                p.b = -1;
            }
            do {
                priv[rounds % 3] += t[15 - l];
                barrier(CLK_LOCAL_MEM_FENCE);
                v += (int4)(1, 2, 3, 4);
                rounds--;
            } while (rounds > 0);
            o[get_global_id(0)] = p.a + p.b + priv[0] + priv[1] + priv[2] + v.x + v.w;
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let mut o = vec![0i32; 32];
        run(
            &p,
            "k",
            &mut [buf(&mut o), val(3i32), val(1i32)],
            &[32],
            &[16],
        );
        for (i, got) in o.iter().enumerate() {
            let l = (i % 16) as i32;
            let pb = ((l + 1) % 16) * 10;
            let privs = 6 + 3 * (15 - l) * 10;
            let v = (l + 3) + (l + 12);
            assert_eq!(*got, l + pb + privs + v, "{} item {i}", p.strategy(0));
        }
    }
}

#[test]
fn barriers_reached_through_calls_and_returns() {
    // The call is inlined (`hir_inline.rs`) and the regions cut at its
    // barrier; without the regions it runs as coroutines.
    let src = "void sync(void) { barrier(CLK_LOCAL_MEM_FENCE); }
        kernel void k(global int *o) {
            local int t[8];
            t[get_local_id(0)] = get_local_id(0);
            sync();
            if (get_local_id(0) == 9) return;
            o[get_global_id(0)] = t[7 - get_local_id(0)];
        }";
    let [r, c] = build_both(src);
    assert_eq!(r.strategy(0), "regions");
    assert_eq!(c.strategy(0), "coroutines");
    for p in [&r, &c] {
        let mut o = vec![0i32; 16];
        run(p, "k", &mut [buf(&mut o)], &[16], &[8]);
        for (i, v) in o.iter().enumerate() {
            assert_eq!(*v, 7 - (i % 8) as i32, "{} o[{i}]", p.strategy(0));
        }
    }
}

#[test]
fn prefix_sum_with_a_barrier_in_a_loop_and_a_written_parameter() {
    let src = "kernel void scan(global int *data, local int *tmp, int n) {
            int l = get_local_id(0);
            tmp[l] = data[get_global_id(0)];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int off = 1; off < n; off *= 2) {
                int x = l >= off ? tmp[l - off] : 0;
                barrier(CLK_LOCAL_MEM_FENCE);
                tmp[l] += x;
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            n = tmp[l];
            data[get_global_id(0)] = n;
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let mut d: Vec<i32> = (0..64).map(|i| (i * 7) % 11).collect();
        let orig = d.clone();
        run(
            &p,
            "scan",
            &mut [buf(&mut d), Arg::Local(32 * 4), val(32i32)],
            &[64],
            &[32],
        );
        for g in 0..2 {
            let mut acc = 0;
            for i in 0..32 {
                acc += orig[g * 32 + i];
                assert_eq!(
                    d[g * 32 + i],
                    acc,
                    "{} element {}",
                    p.strategy(0),
                    g * 32 + i
                );
            }
        }
    }
}

#[test]
fn three_dimensional_non_uniform_groups_with_barriers() {
    let src = "kernel void k(global int *o) {
            local int t[64];
            size_t l = get_local_linear_id();
            size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
            t[l] = (int)(get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2));
            barrier(CLK_LOCAL_MEM_FENCE);
            size_t gx = get_global_size(0), gy = get_global_size(1);
            o[get_global_id(0) + gx * (get_global_id(1) + gy * get_global_id(2))] = t[n - 1 - l];
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let (gx, gy, gz) = (5u64, 3u64, 2u64);
        let mut o = vec![-1i32; (gx * gy * gz) as usize];
        run(&p, "k", &mut [buf(&mut o)], &[gx, gy, gz], &[2, 2, 2]);
        // Each group reverses its own items; check group by group.
        for z0 in (0..gz).step_by(2) {
            for y0 in (0..gy).step_by(2) {
                for x0 in (0..gx).step_by(2) {
                    let items: Vec<(u64, u64, u64)> = (z0..(z0 + 2).min(gz))
                        .flat_map(|z| {
                            (y0..(y0 + 2).min(gy))
                                .flat_map(move |y| (x0..(x0 + 2).min(gx)).map(move |x| (x, y, z)))
                        })
                        .collect();
                    for (k, &(x, y, z)) in items.iter().enumerate() {
                        let (rx, ry, rz) = items[items.len() - 1 - k];
                        let got = o[(x + gx * (y + gy * z)) as usize];
                        assert_eq!(
                            got,
                            (rx + 10 * ry + 100 * rz) as i32,
                            "{} item {x},{y},{z}",
                            p.strategy(0)
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn divergent_barriers_do_not_hang_or_crash() {
    // Undefined behaviour in OpenCL; the host must survive it.
    let src = "kernel void k(global int *o) {
            if (get_local_id(0) < 2) barrier(CLK_LOCAL_MEM_FENCE);
            o[get_global_id(0)] = 1;
        }";
    for p in build_both(src) {
        let mut o = vec![0i32; 8];
        run(&p, "k", &mut [buf(&mut o)], &[8], &[4]);
    }
    let src = "kernel void k(global int *o) {
            if (get_local_id(0) == 0) return;
            barrier(CLK_LOCAL_MEM_FENCE);
            o[get_global_id(0)] = 1;
        }";
    let [p, _] = build_both(src);
    let mut o = vec![0i32; 8];
    run(&p, "k", &mut [buf(&mut o)], &[8], &[4]);
    assert_eq!(o, vec![0, 1, 1, 1, 0, 1, 1, 1]);
}

#[test]
fn generic_pointers_classify_under_every_strategy() {
    // With and without a barrier (loop, regions, coroutines): to_global,
    // to_local and to_private answer NULL for the other spaces.
    for barrier in ["", "barrier(CLK_LOCAL_MEM_FENCE);"] {
        let src = format!(
            "int kind(generic int *p) {{
                return (to_global(p) != 0) * 1 + (to_local(p) != 0) * 2 + (to_private(p) != 0) * 4;
            }}
            kernel void k(global int *o) {{
                local int l[4];
                int priv[2] = {{1, 2}};
                int x = 5;
                size_t i = get_global_id(0);
                {barrier}
                o[i * 4 + 0] = kind(&o[i]);
                o[i * 4 + 1] = kind(&l[1]);
                o[i * 4 + 2] = kind(&priv[1]);
                o[i * 4 + 3] = kind(&x) + priv[0] + x - 6;
            }}"
        );
        for cg in [true, false] {
            let opts = cranecl_jit::codegen::CodegenOptions {
                barrier_regions: cg,
                ..Default::default()
            };
            let p = build_cg_with(&src, "-cl-std=CL2.0", &opts);
            let mut o = vec![0i32; 16];
            run(&p, "k", &mut [buf(&mut o)], &[4], &[2]);
            for i in 0..4 {
                assert_eq!(
                    &o[i * 4..i * 4 + 4],
                    &[1, 2, 4, 4],
                    "{} item {i}",
                    p.strategy(0)
                );
            }
        }
    }
}

#[test]
fn pyopencl_style_reduction_runs_as_regions() {
    // The shape of pyopencl's ReductionKernel (group size 8, unrolled tree).
    let src = "#define PCL_GROUP_SIZE 8
        #define PCL_READ_AND_MAP(i) (in[i] * in[i])
        #define PCL_REDUCE(a, b) (a + b)
        typedef long pcl_out_type;
        kernel void reduce(global pcl_out_type *pcl_out__base, long pcl_out__offset, global const int *in,
                           long pcl_start, long pcl_step, long pcl_stop, unsigned int pcl_seq_count, long n) {
            global pcl_out_type *pcl_out = (global pcl_out_type *)((global char *)pcl_out__base + pcl_out__offset);
            local pcl_out_type pcl_ldata[PCL_GROUP_SIZE];
            unsigned int pcl_lid = get_local_id(0);
            const long pcl_base_idx = get_group_id(0) * PCL_GROUP_SIZE * pcl_seq_count + pcl_lid;
            long i = pcl_start + pcl_base_idx * pcl_step;
            pcl_out_type pcl_acc = 0;
            for (unsigned pcl_s = 0; pcl_s < pcl_seq_count; ++pcl_s) {
                if (i >= pcl_stop)
                    break;
                pcl_acc = PCL_REDUCE(pcl_acc, PCL_READ_AND_MAP(i));
                i += PCL_GROUP_SIZE * pcl_step;
            }
            pcl_ldata[pcl_lid] = pcl_acc;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (pcl_lid < 4) { pcl_ldata[pcl_lid] = PCL_REDUCE(pcl_ldata[pcl_lid], pcl_ldata[pcl_lid + 4]); }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (pcl_lid < 2) { pcl_ldata[pcl_lid] = PCL_REDUCE(pcl_ldata[pcl_lid], pcl_ldata[pcl_lid + 2]); }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (pcl_lid < 1) { pcl_ldata[pcl_lid] = PCL_REDUCE(pcl_ldata[pcl_lid], pcl_ldata[pcl_lid + 1]); }
            if (pcl_lid == 0) pcl_out[get_group_id(0)] = pcl_ldata[0];
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let n = 1000i64;
        let mut input: Vec<i32> = (0..n as i32).map(|x| x - 500).collect();
        let (groups, seq) = (4u64, 32u32);
        let mut out = vec![0i64; groups as usize];
        let args = &mut [
            buf(&mut out),
            val(0i64),
            buf(&mut input),
            val(0i64),
            val(1i64),
            val(n),
            val(seq),
            val(n),
        ];
        run(&p, "reduce", args, &[groups * 8], &[8]);
        let total: i64 = out.iter().sum();
        let want: i64 = (0..n).map(|x| (x - 500) * (x - 500)).sum();
        assert_eq!(total, want, "{}", p.strategy(0));
    }
}

#[test]
fn uniform_break_and_continue_in_loops_with_barriers() {
    let src = "kernel void k(global int *o, int limit) {
            local int t[8];
            int l = get_local_id(0);
            int acc = 0;
            for (int r = 0; r < 100; r++) {
                if (r % 3 == 1) continue;
                t[l] = r + l;
                barrier(CLK_LOCAL_MEM_FENCE);
                acc += t[7 - l];
                barrier(CLK_LOCAL_MEM_FENCE);
                if (r >= limit) { acc += 1000; break; }
            }
            o[get_global_id(0)] = acc;
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        let mut o = vec![0i32; 16];
        run(&p, "k", &mut [buf(&mut o), val(10i32)], &[16], &[8]);
        for (i, v) in o.iter().enumerate() {
            let l = (i % 8) as i32;
            let mut acc = 0;
            for r in 0..100 {
                if r % 3 == 1 {
                    continue;
                }
                acc += r + 7 - l;
                if r >= 10 {
                    acc += 1000;
                    break;
                }
            }
            assert_eq!(*v, acc, "{} item {i}", p.strategy(0));
        }
    }
}

#[test]
fn returns_after_barriers_and_uniform_returns_run_as_regions() {
    let src = "kernel void k(global int *o, int n, int stop) {
            local int t[8];
            int l = get_local_id(0);
            int acc = 0;
            for (int r = 0; r < 10; r++) {
                t[l] = r * l;
                barrier(CLK_LOCAL_MEM_FENCE);
                acc += t[(l + 1) % 8];
                barrier(CLK_LOCAL_MEM_FENCE);
                if (r == stop) { o[get_global_id(0)] = -acc; return; }
            }
            if (get_global_id(0) >= n) return;
            o[get_global_id(0)] = acc;
        }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in both {
        for stop in [3, 100] {
            let mut o = vec![7i32; 16];
            run(
                &p,
                "k",
                &mut [buf(&mut o), val(12i32), val(stop)],
                &[16],
                &[8],
            );
            for (i, v) in o.iter().enumerate() {
                let l = (i % 8) as i32;
                let rounds = if stop < 10 { stop + 1 } else { 10 };
                let acc: i32 = (0..rounds).map(|r| r * ((l + 1) % 8)).sum();
                let want = if stop < 10 {
                    -acc
                } else if i >= 12 {
                    7
                } else {
                    acc
                };
                assert_eq!(*v, want, "{} stop {stop} item {i}", p.strategy(0));
            }
        }
    }
}

#[test]
fn group_uniform_and_per_item_locals_across_barriers() {
    // `n`, `h`, `k` and `m` hold one value for the whole group (kept once
    // per group); `v` is declared uniform but reassigned by some work-items,
    // `w` takes a per-item value in a loop step, `q` is uniform in one piece
    // and per-item in another: all three must stay per work-item.
    let src = "kernel void mix(global int *out, local int *s) {
            size_t l = get_local_id(0);
            size_t n = get_local_size(0);
            int v = (int)get_group_id(0);
            if (l % 3 == 0) v += 100;
            int q = 7;
            s[l] = (int)l;
            barrier(CLK_LOCAL_MEM_FENCE);
            int w = 0;
            for (size_t h = n / 2; h > 0; h >>= 1) {
                int k = (int)h * 2;
                if (l < h) s[l] += s[l + h] + k - 2 * (int)h;
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            for (int i = 0; i < 4; i++, w += (int)l)
                barrier(CLK_LOCAL_MEM_FENCE);
            q += (int)l;
            barrier(CLK_LOCAL_MEM_FENCE);
            int m = (int)(n * get_num_groups(0));
            out[get_global_id(0)] = s[0] * 1000000 + v * 10000 + w * 10 + q + m;
        }";
    let [r, c] = build_both(src);
    assert_eq!(r.strategy(0), "regions");
    let wg = 16usize;
    let groups = 4usize;
    let n = wg * groups;
    let mut want = vec![0i32; n];
    for g in 0..groups {
        for l in 0..wg {
            let sum: i32 = (0..wg as i32).sum();
            let v = g as i32 + if l % 3 == 0 { 100 } else { 0 };
            let w = 4 * l as i32;
            let q = 7 + l as i32;
            want[g * wg + l] = sum * 1000000 + v * 10000 + w * 10 + q + n as i32;
        }
    }
    for p in [&r, &c] {
        let mut out = vec![0i32; n];
        run(
            p,
            "mix",
            &mut [buf(&mut out), Arg::Local(4 * wg as u64)],
            &[n as u64],
            &[wg as u64],
        );
        assert_eq!(out, want, "{}", p.strategy(0));
    }
}

#[test]
fn pieces_guarded_by_the_local_id_end_their_rows_at_the_bound() {
    // `if (lid < s)` and `if (s > lid)` pieces run only the items below the
    // bound (regions); bounds below zero, inside and past the row, in a 2D
    // group whose frames are found from the ids.
    let src = "kernel void k(global int *out, int s1, int s2) {
        int lid = get_local_id(0);
        local int t[8][2];
        size_t y = get_local_id(1);
        t[lid][y] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s1) t[lid][y] += 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (s2 > lid) t[lid][y] += 10 + (int)y;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(1) * 16 + get_global_id(0)] = t[lid][y] + 100 * lid;
    }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in &both {
        for (s1, s2) in [(-3, 100), (5, 0), (8, 3), (100, -1)] {
            let mut out = vec![0i32; 16 * 4];
            run(
                p,
                "k",
                &mut [buf(&mut out), val(s1), val(s2)],
                &[16, 4],
                &[8, 2],
            );
            for gy in 0..4i32 {
                for gx in 0..16i32 {
                    let (lid, y) = (gx % 8, gy % 2);
                    let mut want = 100 * lid;
                    if lid < s1 {
                        want += 1;
                    }
                    if s2 > lid {
                        want += 10 + y;
                    }
                    assert_eq!(
                        out[(gy * 16 + gx) as usize],
                        want,
                        "{} s1 {s1} s2 {s2} ({gx},{gy})",
                        p.strategy(0)
                    );
                }
            }
        }
    }
}

#[test]
fn uniform_updates_around_a_piece_run_once_for_the_group() {
    // A work-efficient scan's `offset`: updated at the end of the up-sweep's
    // piece (after the items read it) and alone before the down-sweep's
    // barrier; `a` updated at the start of a piece whose items then read the
    // new value; `b` updated with a per-item value in one piece (it stays
    // per work-item). Regions run each uniform update once for the group;
    // a per-item run of one would shift `offset` once per work-item.
    let src = "kernel void scan(global uint *out, global uint *info, local uint *tmp) {
        uint lid = get_local_id(0);
        uint m = get_local_size(0) * 2;
        size_t base = get_group_id(0) * m;
        tmp[2 * lid] = (uint)(base + 2 * lid) % 7;
        tmp[2 * lid + 1] = (uint)(base + 2 * lid + 1) % 7;
        uint offset = 1;
        int a = 3;
        int b = 5;
        for (uint d = m >> 1; d > 0; d >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                uint ai = offset * (2 * lid + 1) - 1;
                uint bi = offset * (2 * lid + 2) - 1;
                tmp[bi] += tmp[ai];
            }
            offset <<= 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        a += 4;
        info[get_global_id(0)] = (uint)a * 1000 + offset;
        b += (int)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) tmp[m - 1] = 0;
        for (uint d = 1; d < m; d <<= 1) {
            offset >>= 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                uint ai = offset * (2 * lid + 1) - 1;
                uint bi = offset * (2 * lid + 2) - 1;
                uint t = tmp[ai];
                tmp[ai] = tmp[bi];
                tmp[bi] += t;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        out[base + 2 * lid] = tmp[2 * lid] + (uint)b * 100000;
        out[base + 2 * lid + 1] = tmp[2 * lid + 1] + (uint)b * 100000;
    }";
    let both = build_both(src);
    assert_eq!(both[0].strategy(0), "regions");
    for p in &both {
        for wg in [1usize, 4, 8, 64] {
            let groups = 3usize;
            let m = 2 * wg;
            let mut out = vec![0u32; m * groups];
            let mut info = vec![0u32; wg * groups];
            run(
                p,
                "scan",
                &mut [buf(&mut out), buf(&mut info), Arg::Local(4 * m as u64)],
                &[(wg * groups) as u64],
                &[wg as u64],
            );
            for g in 0..groups {
                let mut sum = 0u32;
                for i in 0..m {
                    let lid = (i / 2) as u32;
                    let want = sum + (5 + lid) * 100000;
                    assert_eq!(
                        out[g * m + i],
                        want,
                        "out[{}] local {wg} {}",
                        g * m + i,
                        p.strategy(0)
                    );
                    sum += ((g * m + i) % 7) as u32;
                }
                for l in 0..wg {
                    assert_eq!(info[g * wg + l], 7000 + m as u32, "info local {wg}");
                }
            }
        }
    }
}
