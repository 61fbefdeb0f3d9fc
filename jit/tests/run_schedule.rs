//! Schedule fuzzing in the code generator and the group runtime, with no
//! OpenCL API: kernels built with a schedule (`CodegenOptions::schedule`)
//! and run with a `GroupOrder` record the order their work-items ran in
//! (an atomic counter), under every way a group runs: a loop with and
//! without the lanes, regions with and without the lanes, coroutines.

mod run_common;
use cranecl_jit::codegen::{CodegenOptions, Step, Strategy};
use cranecl_jit::runtime::schedule::Schedule;
use run_common::*;

/// Each work-item takes a ticket: the position it ran at.
const NO_BARRIER: &str = "kernel void order(global uint *ticket, global uint *out) {
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    out[get_group_id(0) * 64 + l] = atomic_inc(ticket);
}";

/// The same, after a barrier (tickets taken in the second interval).
const AFTER_BARRIER: &str = "kernel void order(global uint *ticket, global uint *out) {
    size_t l = get_local_id(1) * get_local_size(0) + get_local_id(0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_group_id(0) * 64 + l] = atomic_inc(ticket);
}";

/// Every way a group may run: (name, lanes, regions, source); the name
/// is checked against the build's explanation.
const WAYS: [(&str, bool, bool, &str); 5] = [
    ("loop, lanes", true, true, NO_BARRIER),
    ("loop, one per step", false, true, NO_BARRIER),
    ("regions, lanes", true, true, AFTER_BARRIER),
    ("regions, one per step", false, true, AFTER_BARRIER),
    ("coroutines", false, false, AFTER_BARRIER),
];

fn ran_as(e: &cranecl_jit::codegen::Explanation) -> String {
    let strategy = match e.strategy {
        Strategy::Loop => "loop",
        Strategy::Regions => "regions",
        Strategy::Coroutines => "coroutines",
    };
    match (e.strategy, e.step) {
        (Strategy::Coroutines, _) => strategy.into(),
        (_, Step::One) => format!("{strategy}, one per step"),
        (_, Step::Lanes | Step::Masked) => format!("{strategy}, lanes"),
    }
}

/// Local size 10 x 3 (rows of a step of eight and a tail of two), 2
/// groups along x.
const LOCAL: [u64; 2] = [10, 3];
const ITEMS: usize = 30;

/// The tickets of each group's work-items (by local linear id), as the
/// group's own positions.
fn tickets(value: &str, lanes: bool, regions: bool, src: &str) -> Vec<Vec<u32>> {
    let schedule = Schedule::parse(value).unwrap().unwrap();
    let cg = CodegenOptions {
        lanes,
        barrier_regions: regions,
        schedule: Some(schedule),
        ..Default::default()
    };
    let p = build_cg(src, &cg);
    let how = ran_as(&p.explanations()[0]);
    let want = WAYS
        .iter()
        .find(|w| (w.1, w.2, w.3) == (lanes, regions, src));
    assert_eq!(Some(how.as_str()), want.map(|w| w.0), "ran as {how}");
    let mut ticket = [0u32];
    let mut out = vec![u32::MAX; 128];
    run_scheduled(
        &p,
        "order",
        &mut [buf(&mut ticket), buf(&mut out)],
        &[20, 3],
        &LOCAL,
        schedule,
    );
    (0..2)
        .map(|g| {
            out[g * 64..g * 64 + ITEMS]
                .iter()
                .map(|t| t - (g * ITEMS) as u32)
                .collect()
        })
        .collect()
}

#[test]
fn reverse_runs_every_work_item_last_first() {
    let last_first: Vec<u32> = (0..ITEMS as u32).rev().collect();
    for (how, lanes, regions, src) in WAYS {
        for group in tickets("reverse", lanes, regions, src) {
            assert_eq!(group, last_first, "{how}");
        }
    }
}

/// `interleave` (0, n-1, 1, n-2, ...) of `n` things.
fn interleave(n: usize) -> Vec<usize> {
    (0..n)
        .map(|k| if k % 2 == 0 { k / 2 } else { n - 1 - k / 2 })
        .collect()
}

#[test]
fn interleave_alternates_from_both_ends() {
    // One per step: the work-items alternate from both ends. In the lanes
    // the units alternate (per row of 10: a step of eight, then two single
    // items), and the eight lanes of a step run in the interleaved order of
    // eight too.
    let mut units: Vec<Vec<usize>> = Vec::new();
    for row in 0..3 {
        units.push((0..8).map(|x| row * 10 + x).collect());
        units.push(vec![row * 10 + 8]);
        units.push(vec![row * 10 + 9]);
    }
    let orders = [
        interleave(ITEMS),
        interleave(units.len())
            .into_iter()
            .flat_map(|u| match units[u].len() {
                8 => interleave(8).into_iter().map(|l| units[u][l]).collect(),
                _ => units[u].clone(),
            })
            .collect(),
    ];
    for (how, lanes, regions, src) in WAYS {
        let mut want = vec![0u32; ITEMS];
        for (k, item) in orders[usize::from(lanes)].iter().enumerate() {
            want[*item] = k as u32;
        }
        let got = tickets("interleave", lanes, regions, src);
        assert_eq!(got, [want.clone(), want], "{how}");
    }
}

#[test]
fn shuffle_is_a_permutation_that_the_seed_repeats() {
    let in_order: Vec<u32> = (0..ITEMS as u32).collect();
    for (how, lanes, regions, src) in WAYS {
        let a = tickets("shuffle:5", lanes, regions, src);
        assert_eq!(a, tickets("shuffle:5", lanes, regions, src), "{how}");
        assert_ne!(a, tickets("shuffle:6", lanes, regions, src), "{how}");
        assert_ne!(a[0], a[1], "{how}: each group draws its own order");
        for group in &a {
            let mut v = group.clone();
            v.sort_unstable();
            assert_eq!(v, in_order, "{how}: every work-item ran once");
            assert_ne!(*group, in_order, "{how}");
        }
    }
}
