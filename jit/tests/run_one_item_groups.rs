//! Launches in work-groups of one work-item (hashcat's and OpenMM's on a
//! CPU device) run a row of groups eight per step (`codegen/one_item_groups.rs`):
//! every work-item still answers the work-item functions as the only
//! work-item of its group, whatever the run's cut, the offset and the
//! dimensions; kernels the rewrite cannot serve say why and run one group
//! per step; a fault names the group, or the step's eight.

mod run_common;
use cranecl_jit::codegen::{CodegenOptions, CompiledProgram};
use run_common::*;

/// Each work-item writes twelve answers at its place in the global range;
/// a barrier statement (nobody to wait for in a group of one) in between.
const ANSWERS: &str = "kernel void answers(global ulong *out) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t i = 12 * (y * get_global_size(0) + x);
    out[i] = get_global_id(0) + 1000 * get_global_id(1);
    out[i + 1] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[i + 2] = get_local_size(0) + 10 * get_local_size(1) + 100 * get_local_size(2);
    out[i + 3] = get_enqueued_local_size(0) + 10 * get_enqueued_local_size(1);
    out[i + 4] = get_group_id(0);
    out[i + 5] = get_group_id(1);
    out[i + 6] = get_num_groups(0) + 1000 * get_num_groups(1) + 1000000 * get_num_groups(2);
    out[i + 7] = get_local_linear_id();
    out[i + 8] = get_global_linear_id();
    out[i + 9] = get_work_dim();
    out[i + 10] = get_global_size(0) + 1000 * get_global_size(1);
    out[i + 11] = get_global_offset(0) + 1000 * get_global_offset(1);
}";

/// What `ANSWERS` writes in groups of one work-item, from the spec.
fn expected(global: [u64; 2], offset: [u64; 2]) -> Vec<u64> {
    let mut want = Vec::new();
    for y in 0..global[1] {
        for x in 0..global[0] {
            want.extend([
                x + offset[0] + 1000 * (y + offset[1]),
                0,
                111,
                11,
                x,
                y,
                global[0] + 1000 * global[1] + 1_000_000,
                0,
                y * global[0] + x,
                2,
                global[0] + 1000 * global[1],
                offset[0] + 1000 * offset[1],
            ]);
        }
    }
    want
}

/// `src` built with the lanes on (default options) and off.
fn on_off(src: &str) -> [CompiledProgram; 2] {
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    [build(src), build_cg(src, &off)]
}

#[test]
fn groups_of_one_answer_as_their_own_group() {
    let [on, off] = on_off(ANSWERS);
    assert!(on.groups_of_one_in_lanes(0), "{}", on.explanations()[0]);
    assert!(!off.groups_of_one_in_lanes(0));
    let (global, offset) = ([37u64, 3], [5u64, 2]);
    let want = expected(global, offset);
    for p in [&on, &off] {
        // Runs of one group, of a few (cut inside rows: the odometer wraps
        // between calls), of a row and a bit, and the whole launch.
        for run in [1, 6, 40, 111] {
            let mut out = vec![u64::MAX; want.len()];
            run_in_runs(
                p,
                "answers",
                &mut [buf(&mut out)],
                &global,
                &[1, 1],
                &[offset[0], offset[1], 0],
                run,
            )
            .expect("no fault");
            if let Some(i) = (0..want.len()).find(|&i| out[i] != want[i]) {
                panic!(
                    "lanes {}, runs of {run}: work-item {} answer {}: {} (want {})",
                    p.groups_of_one_in_lanes(0),
                    i / 12,
                    i % 12,
                    out[i],
                    want[i]
                );
            }
        }
    }
}

/// A function called from two places, too big to inline: it asks for the
/// local id, which the row would answer wrongly, so the kernel keeps one
/// group per step (and its answers).
fn big_callee_source(query: &str) -> String {
    let mut body = String::new();
    for i in 0..150 {
        body.push_str(&format!("    acc = acc * 3u + (uint){i} + (acc >> 7);\n"));
    }
    format!(
        "uint mix(uint acc) {{
{body}    return acc + (uint){query};
}}
kernel void k(global uint *out) {{
    size_t i = get_global_id(0);
    out[i] = mix((uint)i) ^ mix((uint)i + 1u);
}}"
    )
}

#[test]
fn a_callee_asking_for_its_group_keeps_one_group_per_step() {
    let mut results = Vec::new();
    for query in ["get_local_id(0)", "get_global_id(0)"] {
        let p = build(&big_callee_source(query));
        let e = &p.explanations()[0];
        if query == "get_local_id(0)" {
            assert!(!p.groups_of_one_in_lanes(0), "{e}");
            assert!(
                e.to_string().contains(
                    "in work-groups of one work-item: one group per step because function 'mix' \
                     asks for the group's geometry or synchronises it"
                ),
                "{e}"
            );
        } else {
            assert!(p.groups_of_one_in_lanes(0), "{e}");
        }
        let n = 23;
        let mut out = vec![0u32; n];
        run_in_runs(&p, "k", &mut [buf(&mut out)], &[n as u64], &[1], &[0; 3], 9)
            .expect("no fault");
        results.push(out);
    }
    // The host's answer: `mix` with the local id 0, and with the global id.
    let mix = |mut acc: u32, q: u32| {
        for i in 0..150u32 {
            acc = acc.wrapping_mul(3).wrapping_add(i).wrapping_add(acc >> 7);
        }
        acc.wrapping_add(q)
    };
    for (k, out) in results.iter().enumerate() {
        for (i, &v) in out.iter().enumerate() {
            let q = if k == 0 { 0 } else { i as u32 };
            let want = mix(i as u32, q) ^ mix(i as u32 + 1, q);
            assert_eq!(v, want, "query {k}, work-item {i}");
        }
    }
}

#[test]
fn local_memory_keeps_one_group_per_step() {
    let src = "kernel void k(global uint *out) {
        local uint mine[1];
        mine[0] = (uint)get_global_id(0) * 3u;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = mine[0] + 1u;
    }";
    let p = build(src);
    let e = &p.explanations()[0];
    assert!(!p.groups_of_one_in_lanes(0), "{e}");
    assert!(
        e.to_string()
            .contains("one group per step because it uses local memory (each group's own)"),
        "{e}"
    );
    let mut out = vec![0u32; 30];
    run_in_runs(&p, "k", &mut [buf(&mut out)], &[30], &[1], &[0; 3], 30).expect("no fault");
    let want: Vec<u32> = (0..30).map(|i| i * 3 + 1).collect();
    assert_eq!(out, want);
}

/// Every work-item of the launch writes through `bad + 4 * id`.
const BAD_STORE: &str = "kernel void scribble(ulong bad) {
    *((global int *)bad + get_global_id(0)) = 1;
}";

#[test]
fn a_fault_in_a_step_of_eight_names_the_step() {
    let p = build(BAD_STORE);
    assert!(p.groups_of_one_in_lanes(0), "{}", p.explanations()[0]);
    // Runs of 12 from linear id 0: the fault is in the first step (groups
    // 0 to 7), run together.
    let (id, message) = run_in_runs(
        &p,
        "scribble",
        &mut [val(0x10u64)],
        &[24],
        &[1],
        &[0; 3],
        12,
    )
    .expect_err("the bad store fails the run");
    assert_eq!(id, [0, 0, 0]);
    assert!(
        message.ends_with(
            "the work-group was abandoned (or in one of the 7 work-groups after it, run in the same step)"
        ),
        "{message}"
    );
    // A launch of two groups has no step of eight: each group runs alone.
    let off = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    let plain = build_cg(BAD_STORE, &off);
    for p in [&p, &plain] {
        let (id, message) = run_in_runs(p, "scribble", &mut [val(0x10u64)], &[2], &[1], &[0; 3], 2)
            .expect_err("the bad store fails the run");
        assert_eq!(id, [0, 0, 0]);
        assert!(
            message.ends_with("the work-group was abandoned"),
            "{message}"
        );
    }
}

/// The work-items from 8 on copy a struct from `bad`: the copy is a call
/// of the runtime's `memmove`, where a fault is reported (the process
/// stops), not recovered.
const BAD_COPY: &str = "typedef struct { int a[64]; } S;
kernel void copy(global S *out, ulong bad) {
    if (get_global_id(0) >= 8) out[get_global_id(0)] = *(global S *)bad;
}";

#[test]
fn a_reported_fault_in_a_step_of_eight_names_the_step() {
    const CASE: &str = "CRANECL_ONE_ITEM_GROUPS_CASE";
    let test = "a_reported_fault_in_a_step_of_eight_names_the_step";
    if std::env::var(CASE).as_deref() == Ok(test) {
        let p = build(BAD_COPY);
        assert!(p.groups_of_one_in_lanes(0), "{}", p.explanations()[0]);
        let mut out = vec![0u32; 64 * 12];
        // One run: its second step (groups 8 to 15) faults.
        let r = run_in_runs(
            &p,
            "copy",
            &mut [buf(&mut out), val(0x18u64)],
            &[16],
            &[1],
            &[0; 3],
            16,
        );
        eprintln!("child survived: {r:?}");
        std::process::exit(0);
    }
    let (stderr, status) = run_child(test, CASE);
    assert!(
        stderr.contains("cranecl: kernel 'copy' crashed: invalid memory access at 0x18")
            && stderr.contains(
                "(work-group (8,0,0) or one of the 7 after it, run in the same step); \
                 the host program is stopped"
            ),
        "{stderr}"
    );
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{stderr}");
}

#[test]
fn groups_of_one_can_be_turned_off() {
    // `CRANECL_GROUPS_OF_ONE=0` sets this option.
    let off = CodegenOptions {
        groups_of_one: false,
        ..Default::default()
    };
    let p = build_cg(ANSWERS, &off);
    assert!(!p.groups_of_one_in_lanes(0));
    assert!(
        p.explanations()[0]
            .to_string()
            .contains("one group per step because CRANECL_GROUPS_OF_ONE=0"),
        "{}",
        p.explanations()[0]
    );
    let (global, offset) = ([37u64, 3], [5u64, 2]);
    let mut out = vec![u64::MAX; 12 * 37 * 3];
    run_in_runs(
        &p,
        "answers",
        &mut [buf(&mut out)],
        &global,
        &[1, 1],
        &[5, 2, 0],
        40,
    )
    .expect("no fault");
    assert_eq!(out, expected(global, offset));
}
