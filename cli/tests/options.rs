//! `--profile` and `--schedule`: the command sets `CRANECL_PROFILE` and
//! `CRANECL_SCHEDULE` before its first OpenCL call, so a kernel is held to
//! a GPU profile's limits and run in a fuzzed order.

mod common;

use common::{assert_floats, cranecl, dumps, temp_dir};

/// A kernel that needs 64 KiB of local memory (16,384 floats) and writes
/// each work-item's neighbour's value read back from it.
const BIG_LOCAL: &str = "kernel void k(global float *out)
{
    local float tile[16384];
    size_t i = get_local_id(0);
    tile[i] = i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[get_local_size(0) - 1 - i];
}
";

#[test]
fn a_profile_limit_fails_the_launch_with_the_devices_error() {
    let dir = temp_dir("profile");
    std::fs::write(dir.join("big_local.cl"), BIG_LOCAL).unwrap();
    let args = [
        "run",
        "big_local.cl",
        "--kernel",
        "k",
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        "buffer:float:64:dump",
    ];
    // Without a profile: 256 KiB of local memory, the kernel runs.
    let out = cranecl(&dir, &args);
    assert_eq!(out.code, 0, "{out}");
    let want: Vec<f64> = (0..64).rev().map(f64::from).collect();
    assert_floats("out", &dumps(&out.stdout)["out"], &want);
    // Under a 48 KiB profile: CL_OUT_OF_RESOURCES with the ICD's reason.
    let mut with = args.to_vec();
    with.extend(["--profile", "nvidia-rtx4090"]);
    let out = cranecl(&dir, &with);
    assert_eq!(out.code, 2, "{out}");
    assert!(out.stderr.contains("CL_OUT_OF_RESOURCES"), "{out}");
    assert!(
        out.stderr
            .contains("needs 65536 bytes of local memory; the device has 49152"),
        "{out}"
    );
    // A misspelt profile: the ICD's line and no device, exit 2.
    let mut wrong = args.to_vec();
    wrong.extend(["--profile", "nvidia-rtx409"]);
    let out = cranecl(&dir, &wrong);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains("CRANECL_PROFILE: unknown profile 'nvidia-rtx409'"),
        "{out}"
    );
}

/// A missing barrier: each work-item reads its neighbour's `local` value
/// in the interval that neighbour writes it.
const MISSING_BARRIER: &str = "kernel void k(global int *out)
{
    local int tmp[64];
    size_t l = get_local_id(0);
    tmp[l] = (int)get_global_id(0);
    out[get_global_id(0)] = tmp[(l + 1) % get_local_size(0)];
}
";

#[test]
fn schedule_fuzzing_shows_a_missing_barrier_and_repeats_a_seed() {
    let dir = temp_dir("schedule");
    std::fs::write(dir.join("missing_barrier.cl"), MISSING_BARRIER).unwrap();
    let run = |schedule: &str| {
        let out = cranecl(
            &dir,
            &[
                "run",
                "missing_barrier.cl",
                "--kernel",
                "k",
                "--global",
                "256",
                "--local",
                "64",
                "--arg",
                "buffer:int:256:dump",
                "--schedule",
                schedule,
            ],
        );
        assert_eq!(out.code, 0, "{out}");
        assert!(
            out.stderr.contains(&format!("CRANECL_SCHEDULE={schedule}")),
            "the seed line: {out}"
        );
        dumps(&out.stdout)["out"].clone()
    };
    let first = run("shuffle:1");
    assert_eq!(first, run("shuffle:1"), "the same seed, the same result");
    let mut results = vec![first];
    for seed in 2..=4 {
        results.push(run(&format!("shuffle:{seed}")));
    }
    results.sort();
    results.dedup();
    assert!(
        results.len() >= 2,
        "four seeds gave one result: the schedule changed nothing"
    );
}
