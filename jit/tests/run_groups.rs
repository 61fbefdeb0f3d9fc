//! Runs of work-groups (`CompiledProgram::run_work_groups`, what the
//! executor hands each thread): every work-item of every group sees its
//! own ids, sizes and local memory, whatever the run's length, the number
//! of dimensions, the global offset and the groups' size (one item, or
//! smaller groups at the edges), and for every strategy (loop, lanes,
//! regions, coroutines — one-item groups of a barrier kernel run their item
//! entry once per group). A fault stops the run at its group, named in the
//! result (recovered) or in the report on stderr (a fault in a host
//! function, which the process does not survive).

mod run_common;
use run_common::*;

use cranecl_jit::codegen::{CodegenOptions, CompiledProgram};
use cranecl_jit::launch::{ArgKind, WorkGroupCtx};
use std::os::unix::process::ExitStatusExt;

/// Each work-item writes six values at its place in the global range: its
/// global ids, and its group id, local id and local size packed in decimal
/// (group ids below 1000, local sizes below 10).
const IDS: &str = "kernel void ids(global uint *out) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t i = 6 * ((z * get_global_size(1) + y) * get_global_size(0) + x);
    out[i] = get_global_id(0);
    out[i + 1] = get_global_id(1);
    out[i + 2] = get_global_id(2);
    out[i + 3] = get_group_id(0) + 1000 * get_group_id(1) + 1000000 * get_group_id(2);
    out[i + 4] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
    out[i + 5] = get_local_size(0) + 10 * get_local_size(1) + 100 * get_local_size(2);
}";

/// The same values, the group id passed through the group's local memory
/// across a barrier (each item reads the one its neighbour wrote).
const IDS_LOCAL: &str = "kernel void ids(global uint *out) {
    local uint mine[32];
    size_t l = get_local_linear_id();
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    mine[l] = get_group_id(0) + 1000 * get_group_id(1) + 1000000 * get_group_id(2);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t i = 6 * ((z * get_global_size(1) + y) * get_global_size(0) + x);
    out[i] = get_global_id(0);
    out[i + 1] = get_global_id(1);
    out[i + 2] = get_global_id(2);
    out[i + 3] = mine[(l + 1) % n];
    out[i + 4] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
    out[i + 5] = get_local_size(0) + 10 * get_local_size(1) + 100 * get_local_size(2);
}";

/// A launch's geometry: global size, local size, offset (unused
/// dimensions 1, 1, 0).
#[derive(Clone, Copy, Debug)]
struct Geometry {
    dims: u32,
    global: [u64; 3],
    local: [u64; 3],
    offset: [u64; 3],
}

impl Geometry {
    fn num_groups(&self) -> [u64; 3] {
        std::array::from_fn(|d| self.global[d].div_ceil(self.local[d]))
    }
    fn items(&self) -> usize {
        self.global.iter().product::<u64>() as usize
    }
}

/// What `IDS` writes, computed here.
fn expected(g: &Geometry) -> Vec<u32> {
    let mut want = Vec::with_capacity(6 * g.items());
    for z in 0..g.global[2] {
        for y in 0..g.global[1] {
            for x in 0..g.global[0] {
                let at = [x, y, z];
                let group: [u64; 3] = std::array::from_fn(|d| at[d] / g.local[d]);
                let size: [u64; 3] =
                    std::array::from_fn(|d| (g.global[d] - group[d] * g.local[d]).min(g.local[d]));
                let pack = |v: [u64; 3], base: u64| v[0] + base * v[1] + base * base * v[2];
                want.extend(
                    [
                        x + g.offset[0],
                        y + g.offset[1],
                        z + g.offset[2],
                        pack(group, 1000),
                        pack(std::array::from_fn(|d| at[d] % g.local[d]), 10),
                        pack(size, 10),
                    ]
                    .map(|v| v as u32),
                );
            }
        }
    }
    want
}

/// The context `run_work_groups` reads (its group id and size unread).
fn launch_ctx(g: &Geometry, local_mem: usize, local_mem_size: u64) -> WorkGroupCtx {
    WorkGroupCtx {
        work_dim: g.dims,
        global_size: g.global,
        global_offset: g.offset,
        local_size: g.local,
        enqueued_local_size: g.local,
        num_groups: g.num_groups(),
        group_id: [0; 3],
        local_mem,
        local_mem_size,
    }
}

/// The argument block of a kernel whose only argument is `out`.
fn block_of(p: &CompiledProgram, out: &mut [u32]) -> Vec<u8> {
    let info = &p.kernels()[0];
    assert!(matches!(info.args[0].kind, ArgKind::GlobalPtr));
    let mut block = vec![0u8; info.args_size as usize];
    let at = info.args[0].offset as usize;
    block[at..at + 8].copy_from_slice(&(out.as_mut_ptr() as u64).to_le_bytes());
    block
}

/// Run every group of `g`, in runs of `run` groups, and return `out`.
fn ids_in_runs(p: &CompiledProgram, g: &Geometry, run: u64) -> Vec<u32> {
    let mut out = vec![u32::MAX; 6 * g.items()];
    let d = g.dims as usize;
    let (global, local) = (&g.global[..d], &g.local[..d]);
    run_in_runs(
        p,
        "ids",
        &mut [buf(&mut out)],
        global,
        local,
        &g.offset,
        run,
    )
    .unwrap_or_else(|(id, f)| panic!("group {id:?}: {f}"));
    out
}

/// Name the first wrong value: which item, which field.
fn assert_ids(got: &[u32], g: &Geometry, what: &str) {
    let want = expected(g);
    let fields = [
        "global id 0",
        "global id 1",
        "global id 2",
        "group id",
        "local id",
        "local size",
    ];
    if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what} {g:?}: work-item {} (linear, offset removed): {} is {}, want {}",
            i / 6,
            fields[i % 6],
            got[i],
            want[i]
        );
    }
}

fn geometries() -> Vec<Geometry> {
    let g = |dims, global, local, offset| Geometry {
        dims,
        global,
        local,
        offset,
    };
    vec![
        // One-item groups, with an offset, in 1D, 2D, 3D.
        g(1, [300, 1, 1], [1, 1, 1], [5, 0, 0]),
        g(2, [13, 11, 1], [1, 1, 1], [2, 7, 0]),
        g(3, [7, 5, 6], [1, 1, 1], [3, 7, 11]),
        // Larger groups, smaller at the edges of each dimension.
        g(1, [301, 1, 1], [4, 1, 1], [9, 0, 0]),
        g(2, [13, 11, 1], [4, 3, 1], [0, 1, 0]),
        g(3, [11, 7, 5], [4, 3, 2], [1, 2, 3]),
    ]
}

#[test]
fn runs_of_groups_see_their_own_ids_in_every_strategy() {
    let plain = CodegenOptions {
        lanes: false,
        ..Default::default()
    };
    let coroutines = CodegenOptions {
        barrier_regions: false,
        ..Default::default()
    };
    let programs = [
        (build(IDS), "lanes"),
        (build_cg(IDS, &plain), "loop"),
        (build(IDS_LOCAL), "regions"),
        (build_cg(IDS_LOCAL, &coroutines), "coroutines"),
    ];
    for (p, strategy) in &programs {
        assert_eq!(p.strategy(0), *strategy);
        for g in geometries() {
            let total = g.num_groups().iter().product::<u64>();
            // Runs of one group, of a few (the odometer wraps inside a
            // run), and all the groups in one run.
            for run in [1, 7, total] {
                let got = ids_in_runs(p, &g, run);
                assert_ids(&got, &g, &format!("{strategy}, runs of {run}"));
            }
        }
    }
}

/// One-item groups; the group (3, 2) writes through `bad`.
const BAD_IN_GROUP: &str = "kernel void scribble(global uint *out, ulong bad) {
    if (get_group_id(0) == 3 && get_group_id(1) == 2) *(global int *)bad = 1;
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = 1;
}";

#[test]
fn a_fault_stops_the_run_at_its_group() {
    let p = build(BAD_IN_GROUP);
    let g = Geometry {
        dims: 2,
        global: [5, 4, 1],
        local: [1, 1, 1],
        offset: [0, 0, 0],
    };
    for bad in [0x10u64, 0] {
        let mut out = vec![0u32; g.items()];
        let info = &p.kernels()[0];
        let mut block = block_of(&p, &mut out);
        let at = info.args[1].offset as usize;
        let mut scratch = 0u32;
        let addr = if bad == 0 {
            &mut scratch as *mut u32 as u64
        } else {
            bad
        };
        block[at..at + 8].copy_from_slice(&addr.to_le_bytes());
        let r = p.run_work_groups(0, &block, &launch_ctx(&g, 0, 0), 0..20, None);
        if bad == 0 {
            assert_eq!(r, Ok(()));
            assert_eq!(out, vec![1; 20], "with a good address every group ran");
            continue;
        }
        let (id, fault) = r.expect_err("the bad store fails the run");
        assert_eq!(id, [3, 2, 0], "the faulting group is named");
        assert_eq!(
            fault.message,
            "invalid write at 0x10 in generated code; the work-group was abandoned"
        );
        // The groups before it (linear 0..13) ran; it and those after did not.
        assert_eq!(out[..13], [1; 13]);
        assert_eq!(out[13..], [0; 7]);
    }
}

/// An aggregate copy from `bad` in group 5: the copy is a call of the
/// runtime's `memmove`, where a fault is reported, not recovered.
const BAD_COPY: &str = "typedef struct { int a[64]; } S;
kernel void copy(global S *out, ulong bad) {
    if (get_group_id(0) == 5) out[0] = *(global S *)bad;
}";

#[test]
fn a_fault_reported_in_a_run_names_its_group() {
    const CASE: &str = "CRANECL_RUN_GROUPS_CASE";
    let test = "a_fault_reported_in_a_run_names_its_group";
    if std::env::var(CASE).as_deref() == Ok(test) {
        let p = build(BAD_COPY);
        let mut out = vec![0u32; 64];
        let mut block = block_of(&p, &mut out);
        let at = p.kernels()[0].args[1].offset as usize;
        block[at..at + 8].copy_from_slice(&0x18u64.to_le_bytes());
        let g = Geometry {
            dims: 1,
            global: [8, 1, 1],
            local: [1, 1, 1],
            offset: [0, 0, 0],
        };
        let r = p.run_work_groups(0, &block, &launch_ctx(&g, 0, 0), 0..8, None);
        eprintln!("child survived: {r:?}");
        std::process::exit(0);
    }
    let (stderr, status) = run_child(test, CASE);
    assert!(
        stderr.contains("cranecl: kernel 'copy' crashed: invalid memory access at 0x18")
            && stderr.contains("(work-group (5,0,0)); the host program is stopped"),
        "{stderr}"
    );
    assert_eq!(status.signal(), Some(libc::SIGSEGV), "{stderr}");
}
