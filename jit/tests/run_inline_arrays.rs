//! A kernel's private array passed to a big function called once
//! (`codegen/hir_inline.rs`), and guarded `continue`s
//! (`codegen/continues.rs`): kernels shaped as password-hash kernels
//! are (a message block `uint w[16]` filled with constant subscripts, the
//! whole unrolled hash in one function reading `w[1]`..`w[15]` through its
//! pointer parameter, a loop over candidates that skips the rest of its body
//! when the first test fails). Each kernel is checked for the step it gets,
//! and for its results against the host, with the rewrites and with the
//! program as written.

mod run_common;
use cranecl_jit::codegen::CompiledProgram;
use run_common::*;

/// The step `kernel` got, and why not faster.
fn step(p: &CompiledProgram, kernel: &str) -> (&'static str, Vec<String>) {
    let k = p.kernel_index(kernel).expect("kernel");
    (p.strategy(k), p.explanations()[k].refused.clone())
}

/// A hash-like mixing function: sixteen unrolled rounds over a message
/// `w[8]` read through a pointer parameter (about 700 expressions: more
/// than a small callee), rotations by one-`return` helpers, and a loop
/// over `n` candidates whose digest is tested first on one word.
const MIX: &str = "
    uint rotl(const uint a, const int n) { return (a << n) | (a >> (32 - n)); }
    uint pick(const uint x, const uint y, const uint z) { return z ^ (x & (y ^ z)); }
    #define ROUND(a, b, c, d, k, r) \\
        a += pick(b, c, d) + w[k] + 0x5a827999u + (uint)(k) * 0x9e3779b9u; \\
        a = rotl(a, r) + b;
    void mix(const uint *w, uint n, uint target, global uint *out, global uint *hits) {
        for (uint il = 0; il < n; il++) {
            uint a = 0x67452301u ^ il, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
            ROUND(a, b, c, d, 0, 7)  ROUND(d, a, b, c, 1, 12) ROUND(c, d, a, b, 2, 17) ROUND(b, c, d, a, 3, 22)
            ROUND(a, b, c, d, 4, 7)  ROUND(d, a, b, c, 5, 12) ROUND(c, d, a, b, 6, 17) ROUND(b, c, d, a, 7, 22)
            ROUND(a, b, c, d, 1, 5)  ROUND(d, a, b, c, 6, 9)  ROUND(c, d, a, b, 3, 14) ROUND(b, c, d, a, 0, 20)
            ROUND(a, b, c, d, 5, 5)  ROUND(d, a, b, c, 2, 9)  ROUND(c, d, a, b, 7, 14) ROUND(b, c, d, a, 4, 20)
            out[get_global_id(0) * 8 + il] = a ^ b ^ c ^ d;
            if ((a & 7u) != target) continue;
            atomic_inc(hits);
            out[get_global_id(0) * 8 + il] += 1u;
        }
    }";

/// The kernel of [`MIX`]: the message from the input, `mix` called once.
const MIX_ONCE: &str = "
    kernel void once(global const uint *in, global uint *out, global uint *hits) {
        size_t g = get_global_id(0);
        uint w[8];
        w[0] = in[g * 4 + 0];
        w[1] = in[g * 4 + 1];
        w[2] = in[g * 4 + 2];
        w[3] = in[g * 4 + 3];
        w[4] = 0x80u;
        w[5] = 0;
        w[6] = 0;
        w[7] = 128u;
        mix(w, 8, 3, out, hits);
    }";

fn mix_host(w: [u32; 8], n: u32, target: u32, out: &mut [u32], hits: &mut u32) {
    let pick = |x: u32, y: u32, z: u32| z ^ (x & (y ^ z));
    let round = |a: &mut u32, b: u32, c: u32, d: u32, k: usize, r: u32| {
        *a = a
            .wrapping_add(pick(b, c, d))
            .wrapping_add(w[k])
            .wrapping_add(0x5a827999)
            .wrapping_add((k as u32).wrapping_mul(0x9e3779b9));
        *a = a.rotate_left(r).wrapping_add(b);
    };
    for il in 0..n {
        let (mut a, mut b, mut c, mut d) =
            (0x67452301u32 ^ il, 0xefcdab89u32, 0x98badcfe, 0x10325476);
        for (ks, rs) in [
            ([0, 1, 2, 3], [7, 12, 17, 22]),
            ([4, 5, 6, 7], [7, 12, 17, 22]),
            ([1, 6, 3, 0], [5, 9, 14, 20]),
            ([5, 2, 7, 4], [5, 9, 14, 20]),
        ] {
            round(&mut a, b, c, d, ks[0], rs[0]);
            round(&mut d, a, b, c, ks[1], rs[1]);
            round(&mut c, d, a, b, ks[2], rs[2]);
            round(&mut b, c, d, a, ks[3], rs[3]);
        }
        out[il as usize] = a ^ b ^ c ^ d;
        if a & 7 == target {
            *hits += 1;
            out[il as usize] += 1;
        }
    }
}

/// Run `kernel` of `p` over `n` work-items in groups of `local` and
/// compare with [`mix_host`] (message words 4..8 as `tail`).
fn check_mix(p: &CompiledProgram, kernel: &str, n: usize, local: u64, tail: [u32; 4]) {
    let mut input: Vec<u32> = (0..4 * n as u32)
        .map(|x| x.wrapping_mul(0x01000193) ^ 0x811c9dc5)
        .collect();
    let mut out = vec![0u32; 8 * n];
    let mut hits = [0u32];
    run(
        p,
        kernel,
        &mut [buf(&mut input), buf(&mut out), buf(&mut hits)],
        &[n as u64],
        &[local],
    );
    let mut want_hits = 0;
    for g in 0..n {
        let w = std::array::from_fn(|k| if k < 4 { input[4 * g + k] } else { tail[k - 4] });
        let mut want = [0u32; 8];
        mix_host(w, 8, 3, &mut want, &mut want_hits);
        assert_eq!(
            out[8 * g..8 * g + 8],
            want,
            "{kernel}: work-item {g} local {local}"
        );
    }
    assert_eq!(hits[0], want_hits, "{kernel}: hits, local {local}");
}

#[test]
fn a_big_function_called_once_with_a_private_array_runs_in_the_lanes() {
    // Inlined (called once), `w` bound to the kernel's array: every
    // subscript constant, the array one variable per element; the
    // `continue` an `if`, so the loop's trips are the same for all lanes.
    let [fast, written] = rewritten_and_written(&format!("{MIX}{MIX_ONCE}"));
    assert_eq!(
        step(&fast, "once").0,
        "lanes",
        "{:?}",
        step(&fast, "once").1
    );
    assert_eq!(step(&written, "once").0, "loop");
    for p in [&fast, &written] {
        for local in [1u64, 4, 7, 32] {
            check_mix(p, "once", 64, local, [0x80, 0, 0, 128]);
        }
    }
}

#[test]
fn a_big_function_called_twice_stays_a_call() {
    // Two calls: inlining would double the code; the array stays in
    // memory, one work-item per step, the same results.
    let src = format!(
        "{MIX}
        kernel void twice(global const uint *in, global uint *out, global uint *hits) {{
            size_t g = get_global_id(0);
            uint w[8] = {{in[g * 4], in[g * 4 + 1], in[g * 4 + 2], in[g * 4 + 3], 0x80u, 0, 0, 128u}};
            if (g % 2) mix(w, 8, 3, out, hits);
            else mix(w, 8, 3, out, hits);
        }}"
    );
    let [fast, written] = rewritten_and_written(&src);
    let (strategy, refused) = step(&fast, "twice");
    assert_eq!(strategy, "loop");
    assert!(
        refused.iter().any(|r| r.contains("private array 'w'")),
        "{refused:?}"
    );
    for p in [&fast, &written] {
        check_mix(p, "twice", 32, 8, [0x80, 0, 0, 128]);
    }
}

/// A kernel whose array goes through `f`'s pointer parameter `p`, called
/// once; `f`'s body is given.
fn through(f_body: &str) -> String {
    format!(
        "{f_body}
        kernel void k(global const int *in, global int *out) {{
            size_t g = get_global_id(0);
            int a[4];
            a[0] = in[g];
            a[1] = in[g] * 2;
            a[2] = 7;
            a[3] = -in[g];
            out[g * 2] = f(a, in[g]);
            out[g * 2 + 1] = a[0] + 10 * a[1] + 100 * a[2] + 1000 * a[3];
        }}"
    )
}

/// The host's `f(a, x)`: its value and the array after it.
type Host = dyn Fn(i32) -> (i32, [i32; 4]);

/// Run the kernel of [`through`] and compare with `host(x)`.
fn check_through(p: &CompiledProgram, host: &Host) {
    let n = 48usize;
    let mut input: Vec<i32> = (0..n as i32).map(|x| x * 3 - 40).collect();
    let mut out = vec![0i32; 2 * n];
    run(
        p,
        "k",
        &mut [buf(&mut input), buf(&mut out)],
        &[n as u64],
        &[8],
    );
    for g in 0..n {
        let (ret, a) = host(input[g]);
        let packed = a[0] + 10 * a[1] + 100 * a[2] + 1000 * a[3];
        assert_eq!(out[2 * g], ret, "f's value, work-item {g}");
        assert_eq!(out[2 * g + 1], packed, "the array after f, work-item {g}");
    }
}

fn start(x: i32) -> [i32; 4] {
    [x, 2 * x, 7, -x]
}

#[test]
fn an_array_parameter_read_and_written_by_subscripts_becomes_the_array() {
    // Reads and writes `p[k]`, a second parameter bound to the same array
    // (`const`): both are the array, and the writes reach the caller.
    let src = "
        int g(int *p, const int *q, int x) {
            p[1] += x;
            p[3] = q[1] + q[2];
            return q[0] + p[1];
        }
        int f(int *p, int x) { return g(p, p, x); }";
    let [fast, written] = rewritten_and_written(&through(src));
    assert_eq!(step(&fast, "k").0, "lanes", "{:?}", step(&fast, "k").1);
    let host = |x: i32| {
        let mut a = start(x);
        a[1] += x;
        a[3] = a[1] + a[2];
        (a[0] + a[1], a)
    };
    for p in [&fast, &written] {
        check_through(p, &host);
    }
}

#[test]
fn an_array_parameter_used_otherwise_keeps_the_array_in_memory() {
    // Arithmetic on `p`, `p` passed to a function that is not inlined (its
    // early return), `p` assigned: the array needs memory (one work-item
    // per step) and the results are the program's.
    let cases: [(&str, &Host); 3] = [
        (
            "int f(int *p, int x) { int *q = p + 2; q[1] = x; return *q + p[1]; }",
            &|x| {
                let mut a = start(x);
                a[3] = x;
                (a[2] + a[1], a)
            },
        ),
        (
            "void set(int *p, int x) { if (x < 0) return; p[0] = x * 5; }
             int f(int *p, int x) { set(p, x); return p[0] + p[2]; }",
            &|x| {
                let mut a = start(x);
                if x >= 0 {
                    a[0] = x * 5;
                }
                (a[0] + a[2], a)
            },
        ),
        (
            "int f(int *p, int x) { p++; p[0] = x + 1; return p[1]; }",
            &|x| {
                let mut a = start(x);
                a[1] = x + 1;
                (a[2], a)
            },
        ),
    ];
    for (f, host) in cases {
        let [fast, written] = rewritten_and_written(&through(f));
        let (strategy, refused) = step(&fast, "k");
        assert_eq!(strategy, "loop", "{f}");
        assert!(
            refused.iter().any(|r| r.contains("private array 'a'")),
            "{f}: {refused:?}"
        );
        for p in [&fast, &written] {
            check_through(p, host);
        }
    }
}

#[test]
fn a_guarded_continue_keeps_the_loop_in_the_lanes() {
    // `if (v != t) continue;` under a condition the work-items disagree on,
    // in a loop whose rest writes at their own addresses: as written the
    // lanes would leave the loop at different times (one work-item per
    // step); as `if (!(v != t)) { rest }` every lane makes the same trips.
    let src = "
        kernel void k(global const int *in, global int *out, int n) {
            size_t g = get_global_id(0);
            out[g] = 0;
            for (int i = 0; i < n; i++) {
                int v = in[g] + i;
                if ((v & 3) != 1) continue;
                out[g] += v;
                if (v > 40) continue;
                out[g] += 1000;
            }
        }";
    let [fast, written] = rewritten_and_written(src);
    assert_eq!(step(&fast, "k").0, "lanes", "{:?}", step(&fast, "k").1);
    for p in [&fast, &written] {
        let n = 40usize;
        let mut input: Vec<i32> = (0..n as i32).map(|x| x * 5 % 17).collect();
        let mut out = vec![0i32; n];
        let trips = 12;
        run(
            p,
            "k",
            &mut [buf(&mut input), buf(&mut out), val(trips)],
            &[n as u64],
            &[8],
        );
        for g in 0..n {
            let mut want = 0;
            for i in 0..trips {
                let v = input[g] + i;
                if v & 3 != 1 {
                    continue;
                }
                want += v;
                if v > 40 {
                    continue;
                }
                want += 1000;
            }
            assert_eq!(out[g], want, "out[{g}]");
        }
    }
}

#[test]
fn one_return_helpers_in_expressions_run_packed() {
    // `rotl` and `pick` inside expressions become their `return`'s
    // expression (a parameter read twice, its argument a variable): no
    // call runs once per lane. An argument with an effect (`v++`) or a load
    // read twice keeps its call, and the results are the program's.
    let src = "
        uint rotl(const uint a, const int n) { return (a << n) | (a >> (32 - n)); }
        uint pick(const uint x, const uint y, const uint z) { return z ^ (x & (y ^ z)); }
        kernel void pure(global const uint *in, global uint *out) {
            size_t i = get_global_id(0);
            uint v = in[i], w = in[i + 1];
            out[i] = rotl(v, 5) ^ pick(v, 3u, w) + rotl(v * 3u, 27);
        }
        kernel void effects(global const uint *in, global uint *out) {
            size_t i = get_global_id(0);
            uint v = in[i];
            out[i] = rotl(v++, 5) + rotl(in[i + 1], 9) + v;
        }";
    let [fast, written] = rewritten_and_written(src);
    let k = fast.kernel_index("pure").expect("kernel");
    assert_eq!(fast.strategy(k), "lanes");
    assert_eq!(fast.explanations()[k].notes, Vec::<String>::new());
    let pick = |x: u32, y: u32, z: u32| z ^ (x & (y ^ z));
    for p in [&fast, &written] {
        let n = 36usize;
        let mut input: Vec<u32> = (0..n as u32 + 1)
            .map(|x| x.wrapping_mul(0x9e3779b9))
            .collect();
        for kernel in ["pure", "effects"] {
            let mut out = vec![0u32; n];
            run(
                p,
                kernel,
                &mut [buf(&mut input), buf(&mut out)],
                &[n as u64],
                &[4],
            );
            for i in 0..n {
                let v = input[i];
                let want = if kernel == "pure" {
                    v.rotate_left(5)
                        ^ pick(v, 3, input[i + 1]).wrapping_add(v.wrapping_mul(3).rotate_left(27))
                } else {
                    v.rotate_left(5)
                        .wrapping_add(input[i + 1].rotate_left(9))
                        .wrapping_add(v + 1)
                };
                assert_eq!(out[i], want, "{kernel}: out[{i}]");
            }
        }
    }
}
