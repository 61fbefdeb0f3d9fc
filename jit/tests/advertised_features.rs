//! Every extension and OpenCL C feature that `features.rs` advertises works
//! end to end: a kernel using it builds through `frontend::compile` with the
//! options the device's tables give (no feature forced on by the test), runs,
//! and computes the right result. One test per advertised name (or family),
//! so turning a name on in `features.rs` without the compiler behind it
//! fails here.

mod run_common;
use cranecl_jit::features;
use run_common::*;

fn advertises_extension(name: &str) -> bool {
    features::EXTENSIONS.iter().any(|e| e.name == name)
}

fn advertises_feature(name: &str) -> bool {
    features::OPENCL_C_FEATURES.iter().any(|f| f.name == name)
}

/// Every name this file tests is advertised (so the tests below exercise
/// the device as shipped, not a hypothetical one).
#[test]
fn the_tested_names_are_advertised() {
    for e in [
        "cl_khr_byte_addressable_store",
        "cl_khr_global_int32_base_atomics",
        "cl_khr_global_int32_extended_atomics",
        "cl_khr_local_int32_base_atomics",
        "cl_khr_local_int32_extended_atomics",
        "cl_khr_int64_base_atomics",
        "cl_khr_int64_extended_atomics",
        "cl_khr_fp64",
        "cl_khr_suggested_local_work_size",
        "cl_khr_extended_bit_ops",
        "cl_khr_integer_dot_product",
    ] {
        assert!(advertises_extension(e), "{e}");
    }
    for f in [
        "__opencl_c_int64",
        "__opencl_c_fp64",
        "__opencl_c_generic_address_space",
        "__opencl_c_program_scope_global_variables",
        "__opencl_c_atomic_order_acq_rel",
        "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device",
        "__opencl_c_atomic_scope_all_devices",
        "__opencl_c_work_group_collective_functions",
        "__opencl_c_integer_dot_product_input_4x8bit",
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
    ] {
        assert!(advertises_feature(f), "{f}");
    }
}

/// The advertised names are predefined macros (features only under 3.0).
#[test]
fn advertised_names_are_macros() {
    let mut checks = String::new();
    // The API-only extensions have no macro.
    let api_only = [
        "cl_khr_icd",
        "cl_khr_suggested_local_work_size",
        "cl_khr_command_buffer",
    ];
    for e in features::EXTENSIONS
        .iter()
        .filter(|e| !api_only.contains(&e.name))
    {
        checks += &format!("#ifndef {0}\n#error \"{0}\"\n#endif\n", e.name);
    }
    let mut cl30 = checks.clone();
    for f in features::OPENCL_C_FEATURES {
        cl30 += &format!("#ifndef {0}\n#error \"{0}\"\n#endif\n", f.name);
    }
    let kernel = "kernel void t(global int *o) { o[0] = 1; }\n";
    build_with(&(cl30 + kernel), "-cl-std=CL3.0");
    // OpenCL C 1.2 has no sub-groups: the sub-group extensions' macros are
    // left out there (as clang's header does below 2.0).
    let mut cl12 = String::new();
    for e in features::EXTENSIONS
        .iter()
        .filter(|e| !api_only.contains(&e.name))
    {
        if e.name.starts_with("cl_khr_subgroup_") {
            cl12 += &format!("#ifdef {0}\n#error \"{0} in 1.2\"\n#endif\n", e.name);
        } else {
            cl12 += &format!("#ifndef {0}\n#error \"{0}\"\n#endif\n", e.name);
        }
    }
    build_with(&(cl12 + kernel), "-cl-std=CL1.2");
}

const DOUBLES: &str = "
    double half_of(double x) { return x * 0.5; }
    kernel void t(global double *o, global const double *in) {
        double a = in[0], b = in[1];
        o[0] = a + b;
        o[1] = a / b;
        o[2] = sqrt(b);
        o[3] = half_of(a);
        o[4] = fma(a, b, 1.0);
        o[5] = (double)(float)0.1 - 0.1;
        o[6] = DBL_EPSILON;
        double2 v = (double2)(a, b) * 2.0;
        o[7] = v.y - v.x;
    }";

fn check_doubles(options: &str, pragma: bool) {
    let src = if pragma {
        format!("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n{DOUBLES}")
    } else {
        DOUBLES.to_string()
    };
    let p = build_with(&src, options);
    let mut o = vec![0f64; 8];
    let mut i = vec![1.0f64 / 3.0, 2.0];
    run(&p, "t", &mut [buf(&mut o), buf(&mut i)], &[1], &[1]);
    let (a, b) = (i[0], i[1]);
    assert_eq!(o[0], a + b, "{options}: add");
    assert_eq!(o[1], a / b, "{options}: div");
    assert_eq!(o[2], b.sqrt(), "{options}: sqrt");
    assert_eq!(o[3], a * 0.5, "{options}: call");
    assert_eq!(o[4], a.mul_add(b, 1.0), "{options}: fma");
    assert_eq!(o[5], f64::from(0.1f32) - 0.1, "{options}: double constant");
    assert_eq!(o[6], f64::EPSILON, "{options}: DBL_EPSILON");
    assert_eq!(o[7], 2.0 * b - 2.0 * a, "{options}: double2");
}

/// cl_khr_fp64 and __opencl_c_fp64: double arithmetic at full precision.
#[test]
fn fp64_doubles_compute_at_double_precision() {
    check_doubles("-cl-std=CL3.0", false);
    check_doubles("-cl-std=CL1.2", false);
    // OpenCL C 1.0 and 1.1 want the extension enabled before doubles are used.
    check_doubles("-cl-std=CL1.1", true);
    check_doubles("-cl-std=CL1.0", true);
}

/// __opencl_c_int64: 64-bit integers under OpenCL C 3.0.
#[test]
fn int64_longs_wrap_at_64_bits() {
    let p = build(
        "kernel void t(global long *o, global ulong *u) {
            long x = 0x7fffffffffffffffL;
            o[0] = x + 1;
            o[1] = (long)3000000000u * 4;
            u[0] = (ulong)-1 >> 1;
            u[1] = mul_hi((ulong)-1, (ulong)-1);
        }",
    );
    let mut o = vec![0i64; 2];
    let mut u = vec![0u64; 2];
    run(&p, "t", &mut [buf(&mut o), buf(&mut u)], &[1], &[1]);
    assert_eq!(o, vec![i64::MIN, 12_000_000_000]);
    assert_eq!(u, vec![u64::MAX >> 1, u64::MAX - 1]);
}

/// cl_khr_byte_addressable_store: writes to char and short elements touch
/// only their own bytes, from many work-items.
#[test]
fn byte_addressable_stores_touch_only_their_bytes() {
    let p = build(
        "kernel void t(global uchar *c, global short *s) {
            size_t i = get_global_id(0);
            c[i] = (uchar)(i * 3);
            s[i] = (short)(-(int)i);
        }",
    );
    let mut c = vec![0xAAu8; 67];
    let mut s = vec![0x5555i16; 67];
    run(&p, "t", &mut [buf(&mut c), buf(&mut s)], &[66], &[11]);
    for i in 0..66 {
        assert_eq!(c[i], (i * 3) as u8, "c[{i}]");
        assert_eq!(s[i], -(i as i16), "s[{i}]");
    }
    assert_eq!((c[66], s[66]), (0xAA, 0x5555), "past the range: untouched");
}

/// cl_khr_{global,local}_int32_{base,extended}_atomics: atom_* and atomic_*
/// on int and uint in global and local memory, every work-item of a group
/// contending.
#[test]
fn int32_atomics_on_global_and_local_memory() {
    let p = build(
        "kernel void t(global int *g, global uint *r, local int *l) {
            int i = (int)get_local_id(0);
            if (i == 0) { l[0] = 0; l[1] = 1000; l[2] = -1000; l[3] = 0; l[4] = 0; }
            barrier(CLK_LOCAL_MEM_FENCE);
            atom_add(&g[0], i);
            atomic_sub(&g[1], 2);
            atom_inc(&g[2]);
            atom_dec(&g[3]);
            atom_min(&g[4], 100 - i);
            atom_max(&g[5], i * 7);
            atom_or(&g[6], 1 << (i % 31));
            atom_and(&g[7], ~(1 << (i % 31)));
            atom_xor(&g[8], 1 << (i % 4));
            atom_cmpxchg(&g[9], i, i + 1);
            atomic_xchg(&g[10], 42);
            atom_add(&l[0], i);
            atom_min(&l[1], i);
            atom_max(&l[2], i - 1000);
            atom_inc(&l[3]);
            atom_or(&l[4], 1 << (i % 31));
            atom_max(&r[0], (uint)i * 3u);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (i == 0) { g[11] = l[0]; g[12] = l[1]; g[13] = l[2]; g[14] = l[3]; g[15] = l[4]; }
        }",
    );
    let n = 64i32;
    let mut g = vec![0i32; 16];
    g[4] = 1000;
    g[7] = -1;
    let mut r = vec![0u32; 1];
    run(
        &p,
        "t",
        &mut [buf(&mut g), buf(&mut r), Arg::Local(20)],
        &[n as u64],
        &[n as u64],
    );
    let sum: i32 = (0..n).sum();
    let mask = (0..n).fold(0i32, |m, i| m | 1 << (i % 31));
    // Each of the 4 bits is flipped 16 times: back to 0.
    assert_eq!(g[0], sum, "atom_add");
    assert_eq!(g[1], -2 * n, "atomic_sub");
    assert_eq!(g[2], n, "atom_inc");
    assert_eq!(g[3], -n, "atom_dec");
    assert_eq!(g[4], 100 - (n - 1), "atom_min");
    assert_eq!(g[5], (n - 1) * 7, "atom_max");
    assert_eq!(g[6], mask, "atom_or");
    assert_eq!(g[7], !mask, "atom_and");
    assert_eq!(g[8], 0, "atom_xor");
    assert_eq!(g[9], n, "atom_cmpxchg chains 0 -> 1 -> ... -> n");
    assert_eq!(g[10], 42, "atomic_xchg");
    assert_eq!(g[11], sum, "local atom_add");
    assert_eq!(g[12], 0, "local atom_min");
    assert_eq!(g[13], n - 1 - 1000, "local atom_max");
    assert_eq!(g[14], n, "local atom_inc");
    assert_eq!(g[15], mask, "local atom_or");
    assert_eq!(r[0], (n as u32 - 1) * 3, "uint atom_max");
}

/// cl_khr_int64_{base,extended}_atomics: atom_* on long and ulong in global
/// and local memory, with values that need all 64 bits.
#[test]
fn int64_atomics_on_global_and_local_memory() {
    let p = build(
        "kernel void t(global long *g, global ulong *u, local long *l) {
            long i = (long)get_local_id(0);
            long big = 1L << 40;
            if (i == 0) { l[0] = 0; l[1] = 0; }
            barrier(CLK_LOCAL_MEM_FENCE);
            atom_add(&g[0], big + i);
            atom_sub(&g[1], big);
            atom_inc(&g[2]);
            atom_dec(&g[3]);
            atom_min(&g[4], -big * i);
            atom_max(&g[5], big * i);
            atom_or(&g[6], 1L << (i % 63));
            atom_xor(&g[7], 1L << 50);
            atom_cmpxchg(&g[8], big + i, big + i + 1);
            atom_xchg(&g[9], big);
            atom_and(&u[0], ~(1UL << (ulong)(i % 63)));
            atom_max(&u[1], (ulong)i << 60);
            atom_add(&l[0], big);
            atom_or(&l[1], 1L << (i + 10));
            barrier(CLK_LOCAL_MEM_FENCE);
            if (i == 0) { g[10] = l[0]; g[11] = l[1]; }
        }",
    );
    let n = 16i64;
    let big = 1i64 << 40;
    let mut g = vec![0i64; 12];
    g[8] = big;
    let mut u = vec![u64::MAX, 0];
    run(
        &p,
        "t",
        &mut [buf(&mut g), buf(&mut u), Arg::Local(16)],
        &[n as u64],
        &[n as u64],
    );
    let mask = (0..n).fold(0i64, |m, i| m | 1 << (i % 63));
    assert_eq!(g[0], n * big + (0..n).sum::<i64>(), "atom_add");
    assert_eq!(g[1], -n * big, "atom_sub");
    assert_eq!(g[2], n, "atom_inc");
    assert_eq!(g[3], -n, "atom_dec");
    assert_eq!(g[4], -big * (n - 1), "atom_min");
    assert_eq!(g[5], big * (n - 1), "atom_max");
    assert_eq!(g[6], mask, "atom_or");
    assert_eq!(g[7], 0, "atom_xor: an even number of flips");
    assert_eq!(g[8], big + n, "atom_cmpxchg chain");
    assert_eq!(g[9], big, "atom_xchg");
    assert_eq!(g[10], n * big, "local atom_add");
    assert_eq!(g[11], ((1i64 << n) - 1) << 10, "local atom_or");
    assert_eq!(u[0], !(mask as u64), "ulong atom_and");
    assert_eq!(u[1], ((n - 1) as u64) << 60, "ulong atom_max");
}

/// __opencl_c_generic_address_space: one function taking an unqualified
/// pointer, called with global, local and private pointers; to_global,
/// to_local and to_private answer NULL for the other spaces.
#[test]
fn generic_pointers_reach_every_space() {
    let p = build(
        "void bump(int *p, int by) { *p += by; }
        int which(int *p) {
            return (to_global(p) != NULL) + 2 * (to_local(p) != NULL) + 4 * (to_private(p) != NULL);
        }
        kernel void t(global int *g, local int *l) {
            int x = 5;
            l[0] = 10;
            bump(g, 1); bump(l, 2); bump(&x, 3);
            int *pick = get_global_id(0) == 0 ? (int *)l : (int *)g;
            bump(pick, 100);
            g[1] = l[0];
            g[2] = x;
            g[3] = which(g); g[4] = which(l); g[5] = which(&x);
        }",
    );
    let mut g = vec![0i32; 6];
    run(&p, "t", &mut [buf(&mut g), Arg::Local(4)], &[1], &[1]);
    assert_eq!(g, vec![1, 112, 8, 1, 2, 4]);
}

/// __opencl_c_program_scope_global_variables: program-scope and `static`
/// globals persist between launches, with pointers between them set at build.
#[test]
fn program_scope_globals_persist() {
    let p = build(
        "global int counter = 5;
        global int table[3] = {1, 2, 3};
        global int *at = &table[1];
        kernel void t(global int *o) {
            static global int calls;
            calls += 1;
            counter += 10;
            *at *= 2;
            o[0] = calls; o[1] = counter; o[2] = table[1];
        }",
    );
    let mut o = vec![0i32; 3];
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, vec![1, 15, 4]);
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, vec![2, 25, 8]);
}

/// cl_khr_int64_{base,extended}_atomics also make the OpenCL C 2.0 atomic
/// types atomic_long and atomic_ulong available, with the C11-style functions.
#[test]
fn int64_atomic_types_under_cl20() {
    let p = build_with(
        "kernel void t(global atomic_long *a, global long *o) {
            long i = (long)get_global_id(0);
            atomic_fetch_add(&a[0], (1L << 40) + i);
            atomic_fetch_max(&a[1], i << 35);
            if (i == 0) { atomic_store(&a[2], -5L); o[0] = atomic_load(&a[2]); }
        }",
        "-cl-std=CL2.0",
    );
    let mut a = vec![0i64; 3];
    let mut o = vec![0i64; 1];
    run(&p, "t", &mut [buf(&mut a), buf(&mut o)], &[32], &[8]);
    assert_eq!(a[0], 32 * (1i64 << 40) + (0..32).sum::<i64>());
    assert_eq!(a[1], 31i64 << 35);
    assert_eq!(o[0], -5);
}

/// __opencl_c_atomic_order_acq_rel, _seq_cst, __opencl_c_atomic_scope_device,
/// _all_devices: the orders and scopes they name, and the implicit forms
/// (seq_cst, device scope), count under OpenCL C 3.0 (every pair is run in
/// builtins_atomics.rs).
#[test]
fn atomic_orders_and_scopes() {
    let p = build(
        "kernel void t(global atomic_int *a, global int *o) {
            atomic_fetch_add_explicit(&a[0], 1, memory_order_acq_rel, memory_scope_device);
            atomic_fetch_add_explicit(&a[0], 1, memory_order_seq_cst, memory_scope_all_devices);
            atomic_fetch_add(&a[0], 1);
            atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
            o[get_global_id(0)] = atomic_load_explicit(&a[1], memory_order_acquire, memory_scope_all_devices);
        }",
    );
    let mut a = vec![0i32, 42];
    let mut o = vec![0i32; 16];
    run(&p, "t", &mut [buf(&mut a), buf(&mut o)], &[16], &[8]);
    assert_eq!(a[0], 48, "three increments by 16 work-items");
    assert_eq!(o, vec![42; 16], "acquire loads");
}

/// __opencl_c_work_group_collective_functions: the collectives under
/// OpenCL C 3.0 with no option (every type in builtins_workgroup.rs).
#[test]
fn work_group_collectives_under_cl30() {
    let p = build(
        "kernel void t(global const int *x, global int *o) {
            size_t i = get_global_id(0);
            o[i] = work_group_reduce_add(x[i]) * 1000 + work_group_scan_inclusive_max(x[i]);
        }",
    );
    let mut x: Vec<i32> = (0..16).map(|i| (i * 7) % 5).collect();
    let mut o = vec![0i32; 16];
    run(&p, "t", &mut [buf(&mut x), buf(&mut o)], &[16], &[8]);
    for g in 0..2 {
        let xs = &x[g * 8..g * 8 + 8];
        let sum: i32 = xs.iter().sum();
        for k in 0..8 {
            let max = *xs[..=k].iter().max().unwrap_or(&0);
            assert_eq!(o[g * 8 + k], sum * 1000 + max, "item {}", g * 8 + k);
        }
    }
}

/// cl_khr_extended_bit_ops: the four functions (every type and width in
/// builtins_bit_ops.rs), under OpenCL C 1.2 and 3.0.
#[test]
fn extended_bit_ops() {
    for std in ["-cl-std=CL1.2", "-cl-std=CL3.0"] {
        let p = build_with(
            "kernel void t(global uint *o, global int *s) {
                o[0] = bitfield_insert(0xffff0000u, 0x5u, 4, 3);
                o[1] = bitfield_extract_unsigned(0xabcd1234u, 8, 12);
                o[2] = bit_reverse(0x1u);
                s[0] = bitfield_extract_signed(0x00000f00u, 8, 4);
            }",
            std,
        );
        let mut o = vec![0u32; 3];
        let mut s = vec![0i32; 1];
        run(&p, "t", &mut [buf(&mut o), buf(&mut s)], &[1], &[1]);
        assert_eq!(o, vec![0xffff_0050, 0xd12, 0x8000_0000], "{std}");
        assert_eq!(s, vec![-1], "{std}: the field 0xf sign-extended");
    }
}

/// cl_khr_integer_dot_product with __opencl_c_integer_dot_product_input_4x8bit
/// and _packed: both forms (every one in builtins_dot_product.rs).
#[test]
fn integer_dot_product() {
    let p = build(
        "kernel void t(global int *o) {
            o[0] = dot((char4)(1, -2, 3, -4), (uchar4)(5, 6, 7, 8));
            o[1] = dot_4x8packed_ss_int(0xfffefdfcu, 0x01010101u);
            o[2] = dot_acc_sat((char4)(127), (char4)(127), 0x7fffffff);
        }",
    );
    let mut o = vec![0i32; 3];
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o, vec![5 - 12 + 21 - 32, -4 - 3 - 2 - 1, i32::MAX]);
}
