//! Kernels compiled through the front end and code generator and run
//! work-group by work-group, with their results checked on the host.

mod run_common;
use run_common::*;

#[test]
fn vector_add_runs() {
    let p = build(
        "kernel void add(global const float *a, global const float *b, global float *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }",
    );
    let mut a: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let mut b: Vec<f32> = (0..100).map(|i| (2 * i) as f32 + 0.5).collect();
    let mut c = vec![0f32; 100];
    run(
        &p,
        "add",
        &mut [buf(&mut a), buf(&mut b), buf(&mut c)],
        &[100],
        &[16],
    );
    for i in 0..100 {
        assert_eq!(c[i], a[i] + b[i], "c[{i}]");
    }
}

/// Run a one-work-item kernel `t(global T *out)` and return `out`.
fn outputs<T: Copy + Default>(src: &str, n: usize) -> Vec<T> {
    let p = build_full(src);
    let mut out = vec![T::default(); n];
    run(&p, "t", &mut [buf(&mut out)], &[1], &[1]);
    out
}

#[test]
fn integer_arithmetic_wraps_at_every_width() {
    let out: Vec<i64> = outputs(
        "kernel void t(global long *o) {
            char c = 127; c++; o[0] = c;
            uchar uc = 250; uc += 10; o[1] = uc;
            short s = -32768; s--; o[2] = s;
            ushort us = 0; us--; o[3] = us;
            int i = 2147483647; i += 1; o[4] = i;
            uint u = 0; u -= 1; o[5] = u;
            long l = 9223372036854775807L; l++; o[6] = l;
            ulong ul = 3; ul *= 0xffffffffffffffffUL; o[7] = (long)ul;
            o[8] = -7 / 2; o[9] = -7 % 2; o[10] = 7u / 2u;
            o[11] = (char)300; o[12] = (uchar)-1; o[13] = (short)70000;
            int m = 0x12345678; o[14] = m * m;
        }",
        15,
    );
    let m = 0x12345678i32;
    let want = [
        -128,
        4,
        32767,
        65535,
        i32::MIN as i64,
        u32::MAX as i64,
        i64::MIN,
        (3u64.wrapping_mul(u64::MAX)) as i64,
        -3,
        -1,
        3,
        300i32 as i8 as i64,
        255,
        70000i32 as i16 as i64,
        m.wrapping_mul(m) as i64,
    ];
    assert_eq!(out, want);
}

#[test]
fn shift_counts_are_masked_by_the_width() {
    let out: Vec<i64> = outputs(
        "kernel void t(global long *o) {
            int n = 33; int x = 1;
            o[0] = x << n;
            uint u = 0x80000000u; o[1] = u >> n;
            int s = -16; o[2] = s >> 2;
            uchar c = 1; o[3] = (uchar)(c << 9);
            long l = 1; int k = 65; o[4] = l << k;
            char ch = -128; o[5] = ch >> 1;
            uint big = 1; int neg = -1; o[6] = big << neg;
        }",
        7,
    );
    // OpenCL: the shift count is taken modulo the width of the (promoted) left operand.
    assert_eq!(
        out,
        vec![
            1 << 1,
            (0x80000000u32 >> 1) as i64,
            -4,
            0,
            2,
            -64,
            1i64 << 31
        ]
    );
}

#[test]
fn integer_division_by_zero_does_not_crash() {
    let p = build(
        "kernel void t(global int *o, int z) {
            o[0] = 7 / z; o[1] = 7 % z;
            int m = -2147483647 - 1; int mo = z - 1;
            o[2] = m / mo; o[3] = m % mo;
            o[4] = 42;
        }",
    );
    let mut out = vec![0i32; 5];
    run(&p, "t", &mut [buf(&mut out), val(0i32)], &[1], &[1]);
    assert_eq!(out[4], 42, "the kernel ran to its end");
}

#[test]
fn float_and_double_follow_ieee() {
    let out: Vec<f64> = outputs(
        "kernel void t(global double *o) {
            float a = 1.0f / 3.0f; o[0] = a;
            double d = 1.0 / 3.0; o[1] = d;
            float z = 0.0f; o[2] = 1.0f / z; o[3] = -1.0 / (double)z;
            o[4] = (float)16777217; o[5] = (int)-3.7f; o[6] = (uint)3.9;
            float nan = z / z; o[7] = nan != nan; o[8] = nan < 1.0f;
            o[9] = (double)(float)0.1; o[10] = 2.5f * 4 - 1;
        }",
        11,
    );
    let a = 1.0f32 / 3.0;
    let want = [
        a as f64,
        1.0 / 3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        16777216.0,
        -3.0,
        3.0,
        1.0,
        0.0,
        0.1f32 as f64,
        9.0,
    ];
    assert_eq!(out, want);
}

#[test]
fn vectors_and_swizzles() {
    let out: Vec<i32> = outputs(
        "kernel void t(global int *o) {
            int4 v = (int4)(1, 2, 3, 4);
            int4 w = v.wzyx;
            o[0] = w.x; o[1] = w.s1; o[2] = w.z; o[3] = w.w;
            v.xy = v.yx;
            o[4] = v.x; o[5] = v.y;
            int2 h = v.hi; o[6] = h.x + h.y * 10;
            int8 e = (int8)(v, w);
            o[7] = e.s7; o[8] = e.odd.s3;
            int4 s = v * 2 + 1; o[9] = s.w;
            int4 c = v > (int4)(1); o[10] = c.x; o[11] = c.y;
            float3 f = (float3)(1.5f, 2.0f, 3.0f); f.z += 1.0f; o[12] = (int)(f.x * f.z);
            uchar16 u = (uchar16)(250); u += (uchar16)(10); o[13] = u.sF;
            int3 t3 = (int3)(7, 8, 9); o[14] = t3.z - t3.x;
            int4 q = v; q.even = (int2)(100, 300); o[15] = q.x + q.z;
        }",
        16,
    );
    assert_eq!(
        out,
        vec![4, 3, 2, 1, 2, 1, 43, 1, 1, 9, -1, 0, 6, 4, 2, 400]
    );
}

#[test]
fn structs_unions_and_arrays() {
    let out: Vec<i32> = outputs(
        "typedef struct { int a; float b; int arr[3]; } S;
        typedef union { float f; uint u; } U;
        S make(int x) { S s; s.a = x; s.b = 0.5f; s.arr[0] = x; s.arr[1] = 2 * x; s.arr[2] = 3 * x; return s; }
        int sum(S s) { return s.a + s.arr[0] + s.arr[1] + s.arr[2]; }
        void bump(S *s) { s->a += 100; }
        kernel void t(global int *o) {
            S s = make(5);
            o[0] = sum(s);
            bump(&s); o[1] = s.a;
            S t = s; t.a = 1; o[2] = s.a; o[3] = t.a;
            U u; u.f = 1.0f; o[4] = (int)(u.u >> 23);
            int arr[5] = {1, 2, 3};
            o[5] = arr[0] + arr[1] + arr[2] + arr[3] + arr[4];
            S ss[2] = {{1, 2.0f, {3, 4, 5}}, {6}};
            o[6] = ss[0].arr[2] + ss[1].a + ss[1].arr[2];
            int *p = &arr[1]; p[1] = 40; o[7] = arr[2] + *(p - 1);
            o[8] = (int)(sizeof(S));
        }",
        9,
    );
    assert_eq!(out, vec![35, 105, 105, 1, 127, 6, 11, 41, 20]);
}

#[test]
fn control_flow_loops_switch_goto() {
    let out: Vec<i32> = outputs(
        "int classify(int x) {
            switch (x) {
            case 0: return 10;
            case 1:
            case 2: x += 100;
            case 3: return x;
            default: break;
            }
            return -1;
        }
        kernel void t(global int *o) {
            int s = 0;
            for (int i = 0; i < 10; i++) { if (i == 3) continue; if (i == 8) break; s += i; }
            o[0] = s;
            int n = 0, i = 0;
            while (1) { for (int j = 0; j < 5; j++) { if (j == 2) break; n++; } if (++i == 3) break; }
            o[1] = n;
            int k = 0; do { k += 2; } while (k < 7); o[2] = k;
            o[3] = classify(0); o[4] = classify(2); o[5] = classify(3); o[6] = classify(9);
            int g = 0;
        again:
            g++;
            if (g < 5) goto again;
            o[7] = g;
            int a = 0, b = 0;
            int r = (a++ && b++) || (b += 5);
            o[8] = a * 100 + b * 10 + r;
            o[9] = a > 0 ? 7 : 8;
            long big = 5000000000L;
            switch (big) { case 5000000000L: o[10] = 1; break; default: o[10] = 2; }
            switch (-1) { case -1: o[11] = 3; break; case 255: o[11] = 4; }
        }",
        12,
    );
    assert_eq!(
        out,
        vec![1 + 2 + 4 + 5 + 6 + 7, 6, 8, 10, 102, 3, -1, 5, 151, 7, 1, 3]
    );
}

#[test]
fn recursive_style_calls_and_private_arrays() {
    let out: Vec<u32> = outputs(
        "uint fib(uint n) { uint a = 0, b = 1; for (uint i = 0; i < n; i++) { uint t = a + b; a = b; b = t; } return a; }
        float4 scale(float4 v, float k) { return v * k; }
        void fill(private int *a, int n) { for (int i = 0; i < n; i++) a[i] = i * i; }
        kernel void t(global uint *o) {
            o[0] = fib(10);
            float4 s = scale((float4)(1, 2, 3, 4), 2.0f);
            o[1] = (uint)(s.x + s.y + s.z + s.w);
            int a[16]; fill(a, 16);
            int acc = 0; for (int i = 0; i < 16; i++) acc += a[i];
            o[2] = acc;
        }",
        3,
    );
    assert_eq!(out, vec![55, 20, (0..16).map(|i| i * i).sum::<u32>()]);
}

#[test]
fn local_memory_reduction_with_barriers() {
    let p = build(
        "kernel void reduce(global const int *in, global int *out, local int *scratch) {
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
        }",
    );
    assert!(p.kernels()[0].uses_barriers);
    let n = 1024usize;
    let mut input: Vec<i32> = (0..n as i32).map(|i| i * 3 - 7).collect();
    let mut out = vec![0i32; n / 64];
    run(
        &p,
        "reduce",
        &mut [buf(&mut input), buf(&mut out), Arg::Local(64 * 4)],
        &[n as u64],
        &[64],
    );
    for g in 0..n / 64 {
        let want: i32 = input[g * 64..(g + 1) * 64].iter().sum();
        assert_eq!(out[g], want, "group {g}");
    }
}

#[test]
fn barrier_inside_a_called_function() {
    let p = build(
        "void sync_shift(local int *t, int *v) {
            size_t l = get_local_id(0), n = get_local_size(0);
            t[l] = *v;
            barrier(CLK_LOCAL_MEM_FENCE);
            *v = t[(l + 1) % n];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        kernel void rot(global int *io) {
            local int t[32];
            int v = io[get_global_id(0)];
            for (int k = 0; k < 3; k++) sync_shift(t, &v);
            io[get_global_id(0)] = v;
        }",
    );
    let mut io: Vec<i32> = (0..64).collect();
    run(&p, "rot", &mut [buf(&mut io)], &[64], &[32]);
    for (i, v) in io.iter().enumerate() {
        let g = i / 32 * 32;
        assert_eq!(*v, (g + (i - g + 3) % 32) as i32, "io[{i}]");
    }
}

#[test]
fn work_item_functions_in_three_dimensions() {
    let p = build(
        "kernel void ids(global ulong *o) {
            size_t i = get_global_linear_id();
            o[i * 8 + 0] = get_global_id(0) + 10 * get_global_id(1) + 100 * get_global_id(2);
            o[i * 8 + 1] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
            o[i * 8 + 2] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);
            o[i * 8 + 3] = get_work_dim();
            o[i * 8 + 4] = get_global_size(3) * 1000 + get_global_id(7);
            o[i * 8 + 5] = get_local_linear_id();
            o[i * 8 + 6] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
            o[i * 8 + 7] = get_global_offset(1);
        }",
    );
    let (gx, gy, gz) = (4u64, 3u64, 2u64);
    let mut o = vec![0u64; (gx * gy * gz * 8) as usize];
    let k = &mut [buf(&mut o)];
    try_run(&p, "ids", k, &[gx, gy, gz], &[2, 3, 1], &[0, 5, 0]).unwrap();
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                let i = ((z * gy + y) * gx + x) as usize;
                let gyo = y + 5;
                assert_eq!(o[i * 8], x + 10 * gyo + 100 * z, "global id of {x},{y},{z}");
                assert_eq!(o[i * 8 + 1], x % 2 + 10 * (y % 3), "local id");
                assert_eq!(o[i * 8 + 2], x / 2 + 100 * z, "group id");
                assert_eq!(o[i * 8 + 3], 3);
                assert_eq!(o[i * 8 + 4], 1000);
                assert_eq!(o[i * 8 + 5], x % 2 + 2 * (y % 3));
                assert_eq!(o[i * 8 + 6], 2 * 2, "groups: 2 x 1 x 2");
                assert_eq!(o[i * 8 + 7], 5);
            }
        }
    }
}

#[test]
fn program_scope_globals_persist_between_runs() {
    let p = build_full(
        "global int counter = 5;
        global int table[4] = {1, 2, 3, 4};
        global int *ptr = &table[2];
        constant int k[3] = {10, 20, 30};
        kernel void step(global int *o) {
            counter += 1;
            *ptr += 100;
            o[0] = counter; o[1] = table[2]; o[2] = k[1] + *ptr;
        }",
    );
    assert_eq!(p.global_variable_total_size(), 4 + 16 + 8);
    let mut o = vec![0i32; 3];
    run(&p, "step", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, vec![6, 103, 123]);
    run(&p, "step", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, vec![7, 203, 223]);
}

#[test]
fn pointer_arithmetic_across_address_spaces() {
    let p = build(
        "constant char msg[] = \"hello\";
        int count(constant char *s) { int n = 0; while (*s++) n++; return n; }
        kernel void t(global long *o, global int *buf) {
            global int *a = buf + 3, *b = buf + 10;
            o[0] = b - a;
            o[1] = a < b;
            o[2] = count(msg);
            o[3] = count(\"four\");
            local int l[4]; local int *lp = &l[3]; o[4] = lp - l;
            int priv[3]; int *pp = priv; pp += 2; *pp = 9; o[5] = priv[2];
            global int *q = 0; o[6] = q == 0;
        }",
    );
    let mut o = vec![0i64; 7];
    let mut b = vec![0i32; 16];
    run(&p, "t", &mut [buf(&mut o), buf(&mut b)], &[1], &[1]);
    assert_eq!(o, vec![7, 1, 5, 4, 3, 9, 1]);
}

#[test]
fn groups_run_concurrently_on_many_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<cranecl_jit::codegen::CompiledProgram>();
    for regions in [true, false] {
        let cg = cranecl_jit::codegen::CodegenOptions {
            barrier_regions: regions,
            ..Default::default()
        };
        let p = build_cg(
            "kernel void sq(global int *io) {
            local int t[64];
            size_t l = get_local_id(0);
            t[l] = io[get_global_id(0)];
            barrier(CLK_LOCAL_MEM_FENCE);
            io[get_global_id(0)] = t[63 - l] * 2;
        }",
            &cg,
        );
        let groups = 64usize;
        let mut io: Vec<i32> = (0..(groups * 64) as i32).collect();
        let k = p.kernel_index("sq").unwrap();
        let base = io.as_mut_ptr() as u64;
        std::thread::scope(|s| {
            for t in 0..4 {
                let p = &p;
                s.spawn(move || {
                    let mut local = vec![0u64; 64];
                    for g in (t..groups).step_by(4) {
                        let ctx = cranecl_jit::launch::WorkGroupCtx {
                            work_dim: 1,
                            global_size: [(groups * 64) as u64, 1, 1],
                            global_offset: [0; 3],
                            local_size: [64, 1, 1],
                            enqueued_local_size: [64, 1, 1],
                            num_groups: [groups as u64, 1, 1],
                            group_id: [g as u64, 0, 0],
                            local_mem: local.as_mut_ptr() as usize,
                            local_mem_size: 512,
                        };
                        p.run_work_group(k, &base.to_le_bytes(), &ctx).unwrap();
                    }
                });
            }
        });
        for (i, v) in io.iter().enumerate() {
            let g = i / 64 * 64;
            assert_eq!(*v, (g + 63 - (i - g)) as i32 * 2, "io[{i}]");
        }
    }
}

#[test]
fn too_little_local_memory_is_a_fault_not_a_crash() {
    let p = build(
        "kernel void k(global int *o) { local int t[256]; t[get_local_id(0)] = 1; o[0] = t[0]; }",
    );
    assert_eq!(p.kernels()[0].local_mem_size, 1024);
    let mut o = vec![0i32; 1];
    let ctx = cranecl_jit::launch::WorkGroupCtx {
        work_dim: 1,
        global_size: [1, 1, 1],
        local_size: [1, 1, 1],
        enqueued_local_size: [1, 1, 1],
        num_groups: [1, 1, 1],
        local_mem_size: 16,
        local_mem: 8,
        ..Default::default()
    };
    let args = (o.as_mut_ptr() as u64).to_le_bytes();
    let err = p.run_work_group(0, &args, &ctx).unwrap_err();
    assert!(err.message.contains("local memory"), "{}", err.message);
}

#[test]
fn work_item_functions_in_called_functions_and_runtime_dimensions() {
    let p = build(
        "size_t gid(uint d) { return get_global_id(d); }
        size_t lsz(uint d) { return get_local_size(d); }
        kernel void k(global ulong *o, uint d) {
            size_t i = gid(0);
            o[i * 4 + 0] = gid(d);
            o[i * 4 + 1] = get_local_id(d) + 100 * lsz(d);
            o[i * 4 + 2] = get_global_size(d + 5);
            o[i * 4 + 3] = get_group_id(d);
        }",
    );
    let mut o = vec![0u64; 40];
    run(&p, "k", &mut [buf(&mut o), val(0u32)], &[10], &[4]);
    for i in 0..10u64 {
        let ls = if i < 8 { 4 } else { 2 };
        let at = i as usize * 4;
        assert_eq!(&o[at..at + 4], &[i, i % 4 + 100 * ls, 1, i / 4], "item {i}");
    }
}

#[test]
fn functions_over_the_budget_use_the_single_pass_allocator_and_still_compute() {
    let src = "int f(int x) { int s = 0; for (int i = 0; i < x; i++) { if (i % 3 == 0) s += i; else s -= 1; } return s; }
        kernel void k(global int *o) { o[get_global_id(0)] = f(get_global_id(0)); }";
    let opts = cranecl_jit::options::BuildOptions::parse("").unwrap();
    let prog = cranecl_jit::frontend::compile(src, "t.cl", &opts, &[])
        .program
        .expect("front end");
    let cg = cranecl_jit::codegen::CodegenOptions {
        regalloc_budget: 0,
        ..Default::default()
    };
    let p = cranecl_jit::codegen::compile(&prog, &cg).expect("codegen");
    let mut o = vec![0i32; 20];
    run(&p, "k", &mut [buf(&mut o)], &[20], &[5]);
    for (x, v) in o.iter().enumerate() {
        let want: i32 = (0..x as i32).map(|i| if i % 3 == 0 { i } else { -1 }).sum();
        assert_eq!(*v, want, "f({x})");
    }
}

#[test]
fn huge_private_arrays_are_a_fault_not_a_stack_overflow() {
    let p = build(
        "kernel void k(global int *o) {
            int big[1 << 20];
            big[get_global_id(0)] = 1;
            barrier(CLK_GLOBAL_MEM_FENCE);
            o[0] = big[0];
        }",
    );
    assert!(p.kernels()[0].private_mem_size >= 4 << 20);
    let mut o = vec![0i32; 1];
    let err = try_run(&p, "k", &mut [buf(&mut o)], &[4], &[4], &[0; 3]).unwrap_err();
    assert!(err.contains("private memory"), "{err}");
}

#[test]
fn struct_and_vector_arguments_by_value() {
    let p = build(
        "typedef struct { int a; float b; char c; } P;
        kernel void k(global float *o, P p, float4 v, int3 w, constant float *c) {
            o[0] = p.a + p.b + p.c;
            o[1] = v.x + v.y * 10 + v.z * 100 + v.w * 1000;
            o[2] = w.x + w.y + w.z;
            o[3] = c[1];
            p.a = 0;
            o[4] = p.a;
        }",
    );
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct P {
        a: i32,
        b: f32,
        c: i8,
    }
    let mut o = vec![0f32; 5];
    let mut c = vec![0.5f32, 7.25];
    let info = &p.kernels()[0];
    assert_eq!(info.args.len(), 5);
    run(
        &p,
        "k",
        &mut [
            buf(&mut o),
            val(P { a: 3, b: 0.5, c: 2 }),
            val([1f32, 2.0, 3.0, 4.0]),
            val([1i32, 2, 3, 0]),
            buf(&mut c),
        ],
        &[1],
        &[1],
    );
    assert_eq!(o, vec![5.5, 4321.0, 6.0, 7.25, 0.0]);
}

#[test]
fn every_vector_width_and_element_type() {
    let out: Vec<i64> = outputs(
        "kernel void t(global long *o) {
            char2 c2 = (char2)(100, -100); c2 += (char2)(100); o[0] = c2.x; o[1] = c2.y;
            uchar3 u3 = (uchar3)(1, 2, 255); u3 = u3 + (uchar3)(1); o[2] = u3.z; o[3] = u3.s2 + u3.s0;
            short8 s8 = (short8)(1, 2, 3, 4, 5, 6, 7, 8); s8 *= (short8)(1000); o[4] = s8.s7; o[5] = s8.hi.lo.y;
            ushort16 u16 = (ushort16)(65535); u16 += (ushort16)(2); o[6] = u16.sF;
            int16 i16 = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            o[7] = i16.sA + i16.odd.s7 + i16.even.hi.s3;
            uint4 shl = (uint4)(1) << (uint4)(0, 31, 32, 33); o[8] = shl.y; o[9] = shl.z; o[10] = shl.w;
            long2 l2 = (long2)(-1, 5) >> (long2)(1, 65); o[11] = l2.x; o[12] = l2.y;
            ulong8 ul8 = (ulong8)(3); ul8 = ul8 / (ulong8)(0, 1, 2, 3, 4, 5, 6, 7); o[13] = ul8.s1 + ul8.s3;
            double4 d4 = (double4)(0.5, 1.5, 2.5, 3.5); d4 = d4 * 2.0; o[14] = (long)(d4.x + d4.w);
            float8 f8 = (float8)(1.0f); int8 cmp = f8 < (float8)(0.0f, 2.0f, 0.0f, 2.0f, 0.0f, 2.0f, 0.0f, 2.0f);
            o[15] = cmp.s0; o[16] = cmp.s1;
            int4 ia = (int4)(1, 2, 3, 4), ib = (int4)(4, 3, 2, 1);
            int4 sel = ia > ib ? ia : ib; o[17] = sel.x * 1000 + sel.y * 100 + sel.z * 10 + sel.w;
            int4 lnot = !ia; o[18] = lnot.x; int4 neg = -ia; o[19] = neg.w; int4 inv = ~ia; o[20] = inv.x;
            long4 and4 = (long4)(1, 0, 1, 0) && (long4)(1, 1, 0, 0); o[21] = and4.x; o[22] = and4.y;
        }",
        23,
    );
    let want = vec![
        -56,
        -100 + 100,
        0,
        2,
        8000,
        6000,
        1,
        10 + 15 + 14,
        1 << 31,
        1,
        2,
        -1,
        2,
        3 + 1,
        8,
        0,
        -1,
        4000 + 300 + 30 + 4,
        0,
        -4,
        -2,
        -1,
        0,
    ];
    assert_eq!(out, want);
}

#[test]
fn lvalue_swizzles_pointers_to_vectors_and_compound_forms() {
    let out: Vec<i32> = outputs(
        "typedef struct { int4 v; int n[2]; } S;
        kernel void t(global int *o) {
            int4 v = (int4)(1, 2, 3, 4);
            v.xy += (int2)(10, 20); o[0] = v.x; o[1] = v.y;
            v.s3++; o[2] = v.w;
            v.wz = v.xy; o[3] = v.z; o[4] = v.w;
            int4 arr[3] = {(int4)(0), (int4)(1), (int4)(2)};
            int4 *p = arr; p[1].y = 7; (*(p + 2)).z = 9; o[5] = arr[1].y; o[6] = arr[2].z;
            p++; o[7] = (*p).y;
            S s; s.v = (int4)(5); s.v.x = 6; s.n[1] = 8; S *sp = &s; sp->n[0] = sp->v.x + sp->v.y;
            o[8] = s.n[0]; o[9] = s.n[1];
            int i = 0; i = (i++, i + 5); o[10] = i;
            int a = 3; a <<= 2; a |= 1; a ^= 3; a %= 7; o[11] = a;
            uchar bytes[4] = {1, 2, 3, 4}; int *ip = (int *)bytes; o[12] = *ip;
            o[13] = (int)sizeof(S) + vec_step(int4);
            int x = 5; int *xp = &x; *xp += 1; o[14] = x;
            int3 t3 = (int3)(1, 2, 3); t3.zyx = t3; o[15] = t3.x * 100 + t3.y * 10 + t3.z;
            float f = 2.5f; f *= 2; f -= 1; o[16] = (int)f;
            int cc = 1 ? 2 ? 3 : 4 : 5; o[17] = cc;
        }",
        18,
    );
    assert_eq!(
        out,
        vec![
            11,
            22,
            5,
            22,
            11,
            7,
            9,
            7,
            11,
            8,
            6,
            0,
            0x04030201,
            32 + 4,
            6,
            321,
            4,
            3
        ]
    );
}

#[test]
fn parameters_written_by_one_work_item_are_fresh_for_the_next() {
    let p = build(
        "typedef struct { int base; int scale; } cfg;
        kernel void k(global int *o, int n, cfg c) {
            size_t i = get_global_id(0);
            n += (int)i;
            o[i] = n * c.scale + c.base;
            if (i == 3) return;
            o[i] += 1000;
        }",
    );
    let mut o = vec![0i32; 8];
    run(
        &p,
        "k",
        &mut [buf(&mut o), val(10i32), val([7i32, 2])],
        &[8],
        &[4],
    );
    for (i, v) in o.iter().enumerate() {
        let want = (10 + i as i32) * 2 + 7 + if i == 3 { 0 } else { 1000 };
        assert_eq!(*v, want, "item {i}");
    }
}

#[test]
fn recursion_is_refused_at_build_time() {
    let opts = cranecl_jit::options::BuildOptions::parse("").unwrap();
    let src = "int f(int n) { return n <= 0 ? 0 : 1 + f(n - 1); }
        kernel void k(global int *o) { o[0] = f(o[0]); }";
    let out = cranecl_jit::frontend::compile(src, "t.cl", &opts, &[]);
    // The front end may already reject it; if not, code generation must.
    if let Some(prog) = out.program {
        let err = cranecl_jit::codegen::compile(&prog, &Default::default()).unwrap_err();
        assert!(err.contains("recursion"), "{err}");
    } else {
        assert!(out.log.contains("recursi"), "{}", out.log);
    }
}

#[test]
fn programs_are_freed_and_rebuilt_many_times() {
    for round in 0..40 {
        let p = build(&format!(
            "constant int k = {round};
            kernel void add(global int *o) {{ o[get_global_id(0)] += k; }}"
        ));
        let mut o = vec![1i32; 4];
        run(&p, "add", &mut [buf(&mut o)], &[4], &[2]);
        assert_eq!(o, vec![1 + round; 4], "round {round}");
        drop(p);
    }
}

#[test]
fn conditions_short_circuit_with_side_effects() {
    let out: Vec<i32> = outputs(
        "kernel void t(global int *o) {
            int a = 0, b = 0, n = 0;
            if (a++ && b++) n += 1;
            if (!(a++ || b++)) n += 10;
            if (a > 1 && !(b != 1) || n++) n += 100;
            float f = 0.5f;
            while (f < 4.0f && n < 1000) { f *= 2.0f; n += 1000; }
            int *p = 0;
            if (!p) n += 20000;
            o[0] = a; o[1] = b; o[2] = n;
        }",
        3,
    );
    // a++ && .. : a 0 -> false, b untouched; !(a++ || b++): a 1 -> true, !true = false;
    // (a > 1 && !(b != 1)) is false (b == 0), so n++ runs (0 -> false).
    assert_eq!(out, vec![2, 0, 1 + 1000 + 20000]);
}

#[test]
fn absurd_group_geometry_is_a_fault() {
    let p = build("kernel void k(global int *o) { o[get_global_id(0)] = 1; }");
    let mut o = vec![0i32; 1];
    let args = (o.as_mut_ptr() as u64).to_le_bytes();
    let base = cranecl_jit::launch::WorkGroupCtx {
        work_dim: 3,
        global_size: [1, 1, 1],
        local_size: [1 << 40, 1 << 40, 1 << 40],
        enqueued_local_size: [1, 1, 1],
        num_groups: [1, 1, 1],
        ..Default::default()
    };
    assert!(
        p.run_work_group(0, &args, &base).is_err(),
        "overflowing group size"
    );
    let zero = cranecl_jit::launch::WorkGroupCtx {
        local_size: [0, 1, 1],
        ..base
    };
    assert!(p.run_work_group(0, &args, &zero).is_err(), "empty group");
    let dims = cranecl_jit::launch::WorkGroupCtx {
        work_dim: 4,
        local_size: [1, 1, 1],
        ..base
    };
    assert!(p.run_work_group(0, &args, &dims).is_err(), "work_dim 4");
    assert!(p.run_work_group(7, &args, &dims).is_err(), "no kernel 7");
    assert!(
        p.run_work_group(0, &[], &base).is_err(),
        "short argument block"
    );
    assert_eq!(o[0], 0, "nothing ran");
}

#[test]
fn vector_conversions_through_the_library() {
    let out: Vec<f32> = outputs(
        "kernel void t(global float *o) {
            uint4 u = (uint4)(1, 2, 3, 0xffffffffu);
            float4 f = convert_float4(u) * 0.5f;
            o[0] = f.x; o[1] = f.y; o[2] = f.z; o[3] = f.w;
        }",
        4,
    );
    assert_eq!(out, vec![0.5, 1.0, 1.5, 4294967295.0f32 * 0.5]);
}
