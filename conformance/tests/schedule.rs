//! Schedule fuzzing (`CRANECL_SCHEDULE`) through the loader: kernels whose
//! result depends on an order the spec does not give change with the seed,
//! and give the same result for the same seed.
//!
//! `CRANECL_SCHEDULE` is read when a context is created, so each run is a
//! child process of this test binary (`probe`, with `SCHEDULE_PROBE` set)
//! with the variable in its environment; it prints one `result NAME: ...`
//! line per kernel, and the parent compares the lines and reads the seed
//! line on stderr. Every comparison is made under each way a group runs:
//! the lanes (eight or four work-items per step) and regions, one work-item per step
//! (`CRANECL_LANES=0`), and coroutines (`CRANECL_REGIONS=0`). The kernel
//! suite under five seeds is in `kernels_suite.rs`.

use cranecl_conformance::{assert_code, call, cl, null};
use opencl_sys::*;
use std::collections::BTreeMap;
use std::ffi::c_void;

const SOURCE: &str = r#"
// A missing barrier: each work-item reads its neighbour's local value
// written in the same interval.
kernel void neighbour(global int *out, local int *tmp) {
    int l = get_local_id(0), n = get_local_size(0);
    tmp[l] = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] = l + 1;
    out[get_global_id(0)] = tmp[(l + 1) % n];
}
// A race between work-groups on global memory: each group reads the word
// the group before it (in time) wrote, then writes its own id there.
kernel void last_group(global int *word, global int *seen) {
    if (get_local_id(0) == 0) {
        seen[get_group_id(0)] = word[0];
        word[0] = get_group_id(0);
    }
}
// A race between the work-items of a group (no barrier at all): the last
// one to run wins.
kernel void last_item(global int *out) {
    out[get_group_id(0)] = get_local_id(0);
}
"#;

/// Work-items per group (not a multiple of four: the lanes' rows end with
/// single items) and groups per launch.
const LOCAL: usize = 18;
const GROUPS: usize = 6;

/// The child's work: run each kernel once in a new context, print its output.
#[test]
fn probe() {
    if std::env::var_os("SCHEDULE_PROBE").is_none() {
        return;
    }
    let t = cl();
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let mut e = 0;
    let mut src = SOURCE.as_ptr() as *const std::ffi::c_char;
    let len = SOURCE.len();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        call!(t; clBuildProgram(p, 1, &dev, null(), None, null())),
        CL_SUCCESS
    );
    let global = [LOCAL * GROUPS];
    let local = [LOCAL];
    let mut run = |name: &std::ffi::CStr,
                   args: &[Option<usize>],
                   sizes: &[usize]|
     -> Vec<Vec<i32>> {
        let k = call!(t; clCreateKernel(p, name.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS);
        let mut bufs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let r = match a {
                Some(n) => {
                    let init = vec![-7i32; *n];
                    let b = t.buffer(ctx, CL_MEM_READ_WRITE, 4 * n);
                    assert_code!(
                        call!(t; clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 4 * n, init.as_ptr().cast(), 0, null(), null())),
                        CL_SUCCESS
                    );
                    bufs.push((b, *n));
                    call!(t; clSetKernelArg(k, i as cl_uint, 8, (&bufs.last().unwrap().0 as *const cl_mem).cast::<c_void>()))
                }
                None => call!(t; clSetKernelArg(k, i as cl_uint, 4 * LOCAL, null())),
            };
            assert_code!(r, CL_SUCCESS);
        }
        assert_code!(
            call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), sizes.as_ptr(), local.as_ptr(), 0, null(), null())),
            CL_SUCCESS
        );
        let out = bufs
            .iter()
            .map(|(b, n)| {
                let mut v = vec![0i32; *n];
                assert_code!(
                    call!(t; clEnqueueReadBuffer(q, *b, CL_TRUE, 0, 4 * n, v.as_mut_ptr().cast(), 0, null(), null())),
                    CL_SUCCESS
                );
                call!(t; clReleaseMemObject(*b));
                v
            })
            .collect();
        call!(t; clReleaseKernel(k));
        out
    };
    let n = LOCAL * GROUPS;
    let neighbour = run(c"neighbour", &[Some(n), None], &global);
    println!("result neighbour: {:?}", neighbour[0]);
    let race = run(c"last_group", &[Some(1), Some(GROUPS)], &global);
    println!("result last_group: {:?}", race[1]);
    let items = run(c"last_item", &[Some(GROUPS)], &global);
    println!("result last_item: {:?}", items[0]);
    call!(t; clReleaseProgram(p));
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
    // A second context reads the variable again (and prints its value).
    let again = t.context();
    call!(t; clReleaseContext(again));
}

/// What a child run printed: each kernel's output, and its stderr.
struct Probe {
    results: BTreeMap<String, String>,
    stderr: String,
}

/// The ways a group runs, each compared on its own: the lanes (and regions
/// for the barrier), one work-item per step, coroutines for the barrier.
const STRATEGIES: [(&str, &[(&str, &str)]); 3] = [
    ("lanes", &[]),
    ("one per step", &[("CRANECL_LANES", "0")]),
    ("coroutines", &[("CRANECL_REGIONS", "0")]),
];

/// Run `probe` in a child with `CRANECL_SCHEDULE` = `schedule` (unset if
/// `None`) and the variables `env`.
fn probe_with(schedule: Option<&str>, env: &[(&str, &str)]) -> Probe {
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["--exact", "probe", "--nocapture", "--test-threads=1"])
        .env("SCHEDULE_PROBE", "1")
        .env_remove("CRANECL_SCHEDULE")
        .env_remove("CRANECL_LANES")
        .env_remove("CRANECL_REGIONS")
        .envs(env.iter().copied());
    if let Some(s) = schedule {
        cmd.env("CRANECL_SCHEDULE", s);
    }
    let out = cmd.output().expect("run the probe");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "probe under {schedule:?} failed:\n{stdout}{stderr}"
    );
    let results: BTreeMap<String, String> = stdout
        .lines()
        .filter_map(|l| l.split_once("result ")?.1.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(results.len(), 3, "the probe printed:\n{stdout}{stderr}");
    Probe { results, stderr }
}

fn result(p: &Probe, kernel: &str) -> String {
    p.results[kernel].clone()
}

/// Under seeds 1..=4, a kernel gives at least two different results, and
/// seed 1 run again gives its first result exactly.
fn differs_by_seed_and_repeats(kernel: &str) {
    for (how, env) in STRATEGIES {
        let runs: Vec<Probe> = (1..=4)
            .map(|s| probe_with(Some(&format!("shuffle:{s}")), env))
            .collect();
        for (s, p) in (1..=4).zip(&runs) {
            let line = format!("cranecl: CRANECL_SCHEDULE=shuffle:{s}\n");
            assert!(p.stderr.contains(&line), "no seed line:\n{}", p.stderr);
        }
        let mut distinct: Vec<String> = runs.iter().map(|p| result(p, kernel)).collect();
        distinct.sort();
        distinct.dedup();
        assert!(
            distinct.len() >= 2,
            "{kernel} ({how}) gave one result under four seeds: {distinct:?}"
        );
        let again = probe_with(Some("shuffle:1"), env);
        assert_eq!(
            result(&again, kernel),
            result(&runs[0], kernel),
            "{kernel} ({how}): shuffle:1 twice"
        );
    }
}

#[test]
fn a_missing_barrier_changes_with_the_seed() {
    differs_by_seed_and_repeats("neighbour");
}

#[test]
fn a_race_between_groups_changes_with_the_seed() {
    differs_by_seed_and_repeats("last_group");
}

#[test]
fn a_race_between_items_changes_with_the_seed() {
    differs_by_seed_and_repeats("last_item");
}

/// `reverse` and `interleave` change the missing barrier's result from the
/// default order's (which runs a group's work-items in order, so every
/// work-item but the last reads -1).
#[test]
fn reverse_and_interleave_differ_from_the_default_order() {
    for (how, env) in STRATEGIES {
        let default = probe_with(None, env);
        assert!(!default.stderr.contains("CRANECL_SCHEDULE"));
        for s in ["reverse", "interleave"] {
            let p = probe_with(Some(s), env);
            assert!(
                p.stderr
                    .contains(&format!("cranecl: CRANECL_SCHEDULE={s}\n")),
                "{}",
                p.stderr
            );
            assert_ne!(
                result(&p, "neighbour"),
                result(&default, "neighbour"),
                "{s} ({how})"
            );
            assert_eq!(
                result(&p, "neighbour"),
                result(&probe_with(Some(s), env), "neighbour"),
                "{s} twice ({how})"
            );
        }
    }
}

/// `reverse` runs everything last first: each group sees the word written
/// by the group after it (the last sees the initial -7), and work-item 0 is
/// the last to write, also in the lanes (its step runs last, and the four
/// lanes of that store run last first too).
#[test]
fn reverse_runs_groups_and_items_last_first() {
    let seen: Vec<i32> = (1..=GROUPS as i32)
        .map(|g| if g < GROUPS as i32 { g } else { -7 })
        .collect();
    for (how, env) in STRATEGIES {
        let p = probe_with(Some("reverse"), env);
        assert_eq!(result(&p, "last_group"), format!("{seen:?}"), "{how}");
        assert_eq!(
            result(&p, "last_item"),
            format!("{:?}", [0; GROUPS]),
            "{how}"
        );
    }
}

/// Without a seed one is taken from the clock, once per process, and each
/// context prints it; that value reproduces the run.
#[test]
fn a_clock_seed_is_printed_and_reproduces_the_run() {
    let p = probe_with(Some("shuffle"), &[]);
    let values: Vec<&str> = p
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("cranecl: CRANECL_SCHEDULE="))
        .collect();
    assert_eq!(values.len(), 2, "one line per context:\n{}", p.stderr);
    assert_eq!(values[0], values[1], "one seed per process");
    let value = values[0].to_string();
    assert!(value.starts_with("shuffle:"), "{value}");
    let again = probe_with(Some(&value), &[]);
    assert_eq!(again.results, p.results);
}

/// `off` and an unknown value change nothing (the unknown one is named on
/// stderr); the default order's results are the same every run.
#[test]
fn off_and_unknown_values_keep_the_default_order() {
    let default = probe_with(None, &[]);
    let off = probe_with(Some("off"), &[]);
    assert!(!off.stderr.contains("CRANECL_SCHEDULE"), "{}", off.stderr);
    assert_eq!(result(&off, "neighbour"), result(&default, "neighbour"));
    let bad = probe_with(Some("sideways"), &[]);
    let lines: Vec<&str> = bad
        .stderr
        .lines()
        .filter(|l| l.contains("CRANECL_SCHEDULE"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", bad.stderr);
    assert!(
        lines[0].contains("unknown schedule 'sideways'"),
        "{}",
        lines[0]
    );
    assert_eq!(result(&bad, "neighbour"), result(&default, "neighbour"));
}
