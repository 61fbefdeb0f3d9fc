//! pyopencl's bundled Random123 Threefry generator (real-world integer code:
//! structs of arrays, static inline functions, rotations, key schedules),
//! compiled and run, checked against a Rust implementation of Threefry-4x32-20
//! and Random123's known-answer vector for a zero counter and key.

mod run_common;
use run_common::*;

/// pyopencl's `cl/` folder in the venv `scripts/install-deps.sh` creates.
fn pyopencl_cl_dir() -> Option<std::path::PathBuf> {
    let lib = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/venv/lib");
    let dir = std::fs::read_dir(lib)
        .ok()?
        .flatten()
        .map(|e| e.path().join("site-packages/pyopencl/cl"))
        .find(|p| p.join("pyopencl-random123/threefry.cl").is_file());
    if dir.is_none() && std::env::var("CI").as_deref() == Ok("true") {
        panic!("pyopencl's headers are missing under target/venv: run scripts/install-deps.sh");
    }
    dir
}

/// Threefry-4x32 with 20 rounds (Salmon et al., SC'11; Random123).
fn threefry4x32(ctr: [u32; 4], key: [u32; 4]) -> [u32; 4] {
    const R: [[u32; 2]; 8] = [
        [10, 26],
        [11, 21],
        [13, 27],
        [23, 5],
        [6, 20],
        [17, 11],
        [25, 10],
        [18, 20],
    ];
    let mut ks = [0u32; 5];
    ks[..4].copy_from_slice(&key);
    ks[4] = key.iter().fold(0x1BD1_1BDA, |p, k| p ^ k);
    let mut x = [0u32; 4];
    for i in 0..4 {
        x[i] = ctr[i].wrapping_add(ks[i]);
    }
    for r in 0..20 {
        let [r0, r1] = R[r % 8];
        if r % 2 == 0 {
            x[0] = x[0].wrapping_add(x[1]);
            x[1] = x[1].rotate_left(r0) ^ x[0];
            x[2] = x[2].wrapping_add(x[3]);
            x[3] = x[3].rotate_left(r1) ^ x[2];
        } else {
            x[0] = x[0].wrapping_add(x[3]);
            x[3] = x[3].rotate_left(r0) ^ x[0];
            x[2] = x[2].wrapping_add(x[1]);
            x[1] = x[1].rotate_left(r1) ^ x[2];
        }
        if r % 4 == 3 {
            let i = (r + 1) / 4;
            for (j, v) in x.iter_mut().enumerate() {
                *v = v.wrapping_add(ks[(i + j) % 5]);
            }
            x[3] = x[3].wrapping_add(i as u32);
        }
    }
    x
}

#[test]
fn threefry_matches_the_reference() {
    let Some(dir) = pyopencl_cl_dir() else {
        eprintln!("skipped: no pyopencl venv (run scripts/install-deps.sh)");
        return;
    };
    let src = "#include <pyopencl-random123/threefry.cl>
        kernel void k(global uint4 *out, uint key0, uint key1) {
            threefry4x32_ctr_t c = {{get_global_id(0), 0x9e3779b9u, 0, 7}};
            threefry4x32_key_t k = {{key0, key1, 0, 0}};
            threefry4x32_ctr_t r = threefry4x32(c, k);
            out[get_global_id(0)] = (uint4)(r.v[0], r.v[1], r.v[2], r.v[3]);
        }";
    let p = build_with(src, &format!("-cl-std=CL1.2 -I {}", dir.display()));
    let n = 64;
    let mut out = vec![[0u32; 4]; n];
    run(
        &p,
        "k",
        &mut [buf(&mut out), val(0xdead_beefu32), val(42u32)],
        &[n as u64],
        &[16],
    );
    for (i, got) in out.iter().enumerate() {
        let want = threefry4x32([i as u32, 0x9e37_79b9, 0, 7], [0xdead_beef, 42, 0, 0]);
        assert_eq!(*got, want, "counter {i}");
    }
    // Random123's known answer for a zero counter and key.
    assert_eq!(
        threefry4x32([0; 4], [0; 4]),
        [0x9c6c_a96a, 0xe17e_ae66, 0xfc10_ecd4, 0x5256_a7d8]
    );
}
