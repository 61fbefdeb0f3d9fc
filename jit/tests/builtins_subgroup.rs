//! Sub-group functions (`cl_khr_subgroups`): the work-item queries under
//! every strategy (lanes, one work-item per step, regions, coroutines), and
//! the barrier and collectives for each element type, with group sizes that
//! are not multiples of the sub-group size, non-uniform groups, 2-D and 3-D
//! groups, sub-groups taking different paths, and a shuffled schedule —
//! each value checked against a reference computed here from the
//! definition (a sub-group is four consecutive local linear ids).

mod run_common;
use cranecl_jit::codegen::CodegenOptions;
use cranecl_jit::runtime::schedule::Schedule;
use run_common::*;

const WIDTH: usize = 4;

/// The geometry of one launch, for the references.
struct Geometry {
    global: Vec<u64>,
    local: Vec<u64>,
}

impl Geometry {
    fn new(global: &[u64], local: &[u64]) -> Geometry {
        Geometry {
            global: global.to_vec(),
            local: local.to_vec(),
        }
    }
    fn dims(&self, v: &[u64]) -> [usize; 3] {
        let mut out = [1; 3];
        for (o, x) in out.iter_mut().zip(v) {
            *o = *x as usize;
        }
        out
    }
    fn total(&self) -> usize {
        self.dims(&self.global).iter().product()
    }
    /// For each global linear id: (local linear id, items in its group,
    /// enqueued items per group, the group's first global linear ids by
    /// local linear id).
    fn items(&self) -> Vec<(usize, usize, usize, Vec<usize>)> {
        let g = self.dims(&self.global);
        let l = self.dims(&self.local);
        let enq = l.iter().product();
        let mut out = vec![(0, 0, 0, vec![]); self.total()];
        let groups: Vec<usize> = (0..3).map(|d| g[d].div_ceil(l[d])).collect();
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    let gid = [gx, gy, gz];
                    let ls: Vec<usize> = (0..3).map(|d| (g[d] - gid[d] * l[d]).min(l[d])).collect();
                    let n = ls.iter().product();
                    let mut members = Vec::with_capacity(n);
                    for z in 0..ls[2] {
                        for y in 0..ls[1] {
                            for x in 0..ls[0] {
                                let gx = gid[0] * l[0] + x;
                                let gy = gid[1] * l[1] + y;
                                let gz = gid[2] * l[2] + z;
                                members.push((gz * g[1] + gy) * g[0] + gx);
                            }
                        }
                    }
                    for (lin, gl) in members.iter().enumerate() {
                        out[*gl] = (lin, n, enq, members.clone());
                    }
                }
            }
        }
        out
    }
}

/// The work-item functions, written per work-item at its global linear id.
const QUERIES: &str = "
    kernel void q(global uint *o, global int *sink) {
        size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1))
                   * get_global_size(0) + get_global_id(0);
        BARRIER_BEFORE
        o[i * 6 + 0] = get_sub_group_size();
        o[i * 6 + 1] = get_max_sub_group_size();
        o[i * 6 + 2] = get_num_sub_groups();
        o[i * 6 + 3] = get_enqueued_num_sub_groups();
        o[i * 6 + 4] = get_sub_group_id();
        o[i * 6 + 5] = get_sub_group_local_id();
        BARRIER_AFTER
    }";

fn check_queries(g: &Geometry, o: &[u32], how: &str) {
    for (i, (lin, n, enq, _)) in g.items().into_iter().enumerate() {
        let sg = lin / WIDTH;
        let want = [
            (n - sg * WIDTH).min(WIDTH),
            enq.min(WIDTH),
            n.div_ceil(WIDTH),
            enq.div_ceil(WIDTH),
            sg,
            lin % WIDTH,
        ]
        .map(|v| v as u32);
        assert_eq!(
            &o[i * 6..i * 6 + 6],
            &want,
            "{how}: item {i} (local linear id {lin} of {n})"
        );
    }
}

#[test]
fn queries_under_every_strategy() {
    let geometries = [
        Geometry::new(&[30], &[7]),            // groups of 7, the last of 2
        Geometry::new(&[16], &[16]),           // a multiple of four
        Geometry::new(&[3], &[3]),             // one sub-group smaller than four
        Geometry::new(&[10, 6], &[5, 3]),      // 2-D, 15 items
        Geometry::new(&[6, 4, 3], &[3, 2, 3]), // 3-D, 18 items
        Geometry::new(&[7, 3, 2], &[6, 2, 2]), // 3-D, non-uniform along x
    ];
    // (strategy expected, lanes, regions, barrier text)
    let ways = [
        ("lanes", true, true, ("", "")),
        ("loop", false, true, ("", "")),
        (
            "regions",
            true,
            true,
            ("barrier(CLK_GLOBAL_MEM_FENCE);", ""),
        ),
        (
            "regions",
            true,
            true,
            ("", "barrier(CLK_GLOBAL_MEM_FENCE); sink[0] = 1;"),
        ),
        (
            "coroutines",
            true,
            false,
            ("barrier(CLK_GLOBAL_MEM_FENCE);", ""),
        ),
    ];
    // Each way also built for a scheduled context (a table of units in
    // place of the loop nest) and run in a shuffled order.
    let shuffle = Schedule::parse("shuffle:11").unwrap();
    for (strategy, lanes, regions, (before, after)) in ways {
        for schedule in [None, shuffle] {
            let src = QUERIES
                .replace("BARRIER_BEFORE", before)
                .replace("BARRIER_AFTER", after);
            let cg = CodegenOptions {
                lanes,
                barrier_regions: regions,
                schedule,
                ..Default::default()
            };
            let p = build_cg(&src, &cg);
            assert_eq!(p.strategy(0), strategy, "{src}");
            for g in &geometries {
                let mut o = vec![u32::MAX; g.total() * 6];
                let mut sink = [0i32];
                let args = &mut [buf(&mut o), buf(&mut sink)];
                match schedule {
                    Some(s) => run_scheduled(&p, "q", args, &g.global, &g.local, s),
                    None => run(&p, "q", args, &g.global, &g.local),
                }
                let how = format!("{strategy} {schedule:?} {:?}/{:?}", g.global, g.local);
                check_queries(g, &o, &how);
            }
        }
    }
}

/// An element type of the collectives, with its reference operations.
trait Elem: Copy + PartialOrd + std::fmt::Debug + Default {
    const CL: &'static str;
    const LOWEST: Self;
    const HIGHEST: Self;
    /// The test's values: `i` for integers, `i / 4` for floats.
    fn from_i(i: i32) -> Self;
    /// The literal `(T)v`.
    fn lit(v: i32) -> Self;
    fn add(self, o: Self) -> Self;
}

macro_rules! int_elem {
    ($t:ty, $cl:expr) => {
        impl Elem for $t {
            const CL: &'static str = $cl;
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            fn from_i(i: i32) -> Self {
                i as $t
            }
            fn lit(v: i32) -> Self {
                v as $t
            }
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
        }
    };
}
int_elem!(i32, "int");
int_elem!(u32, "uint");
int_elem!(i64, "long");
int_elem!(u64, "ulong");

macro_rules! float_elem {
    ($t:ty, $cl:expr) => {
        impl Elem for $t {
            const CL: &'static str = $cl;
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            fn from_i(i: i32) -> Self {
                i as $t * 0.25
            }
            fn lit(v: i32) -> Self {
                v as $t
            }
            fn add(self, o: Self) -> Self {
                self + o
            }
        }
    };
}
float_elem!(f32, "float");
float_elem!(f64, "double");

const COLLECTIVES: &str = "
    kernel void c(global const T *x, global T *o, global int *flags) {
        size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1))
                   * get_global_size(0) + get_global_id(0);
        T v = x[i];
        o[i * 11 + 0] = sub_group_reduce_add(v);
        o[i * 11 + 1] = sub_group_reduce_min(v);
        o[i * 11 + 2] = sub_group_reduce_max(v);
        o[i * 11 + 3] = sub_group_scan_inclusive_add(v);
        o[i * 11 + 4] = sub_group_scan_inclusive_min(v);
        o[i * 11 + 5] = sub_group_scan_inclusive_max(v);
        o[i * 11 + 6] = sub_group_scan_exclusive_add(v);
        o[i * 11 + 7] = sub_group_scan_exclusive_min(v);
        o[i * 11 + 8] = sub_group_scan_exclusive_max(v);
        o[i * 11 + 9] = sub_group_broadcast(v, 0);
        o[i * 11 + 10] = sub_group_broadcast(v, get_sub_group_size() - 1);
        flags[i * 3 + 0] = sub_group_all(v > (T)0);
        flags[i * 3 + 1] = sub_group_any(v == (T)4);
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
        flags[i * 3 + 2] = sub_group_any(0);
    }";

/// The sub-group of item `lin` in a group whose members are `members`.
fn sub_group<T: Copy>(x: &[T], members: &[usize], lin: usize) -> Vec<T> {
    let first = lin / WIDTH * WIDTH;
    members[first..(first + WIDTH).min(members.len())]
        .iter()
        .map(|g| x[*g])
        .collect()
}

fn fold<T: Elem>(v: &[T], id: T, f: impl Fn(T, T) -> T) -> T {
    v.iter().fold(id, |a, b| f(a, *b))
}

fn min<T: Elem>(a: T, b: T) -> T {
    if b < a {
        b
    } else {
        a
    }
}

fn max<T: Elem>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

fn check_collectives<T: Elem>(schedule: Option<Schedule>) {
    let src = format!("#define T {}\n{COLLECTIVES}", T::CL);
    let p = build_full(&src);
    assert_eq!(p.strategy(0), "coroutines");
    let geometries = [
        Geometry::new(&[30], &[7]),
        Geometry::new(&[9], &[9]),
        Geometry::new(&[5], &[1]), // groups of one work-item
        Geometry::new(&[10, 6], &[5, 3]),
        Geometry::new(&[6, 4, 3], &[3, 2, 3]),
    ];
    for g in &geometries {
        let n = g.total();
        let mut x: Vec<T> = (0..n as i32)
            .map(|i| T::from_i((i * 37) % 23 - 3))
            .collect();
        if T::LOWEST == T::default() {
            // unsigned: small values, and one large one so that the sums wrap
            x = (0..n as i32).map(|i| T::from_i((i * 37) % 23)).collect();
            x[n / 2] = T::HIGHEST;
        }
        let mut o = vec![T::default(); n * 11];
        let mut flags = vec![-1i32; n * 3];
        let args = &mut [buf(&mut x), buf(&mut o), buf(&mut flags)];
        match schedule {
            Some(s) => run_scheduled(&p, "c", args, &g.global, &g.local, s),
            None => run(&p, "c", args, &g.global, &g.local),
        }
        for (i, (lin, _, _, members)) in g.items().into_iter().enumerate() {
            let sg = sub_group(&x, &members, lin);
            let k = lin % WIDTH;
            let want = [
                fold(&sg, T::default(), T::add),
                fold(&sg, T::HIGHEST, min),
                fold(&sg, T::LOWEST, max),
                fold(&sg[..=k], T::default(), T::add),
                fold(&sg[..=k], T::HIGHEST, min),
                fold(&sg[..=k], T::LOWEST, max),
                fold(&sg[..k], T::default(), T::add),
                fold(&sg[..k], T::HIGHEST, min),
                fold(&sg[..k], T::LOWEST, max),
                sg[0],
                sg[sg.len() - 1],
            ];
            let how = format!("{} {:?}/{:?} item {i}", T::CL, g.global, g.local);
            assert_eq!(&o[i * 11..i * 11 + 11], &want, "{how}");
            let want_flags = [
                i32::from(sg.iter().all(|v| *v > T::lit(0))),
                i32::from(sg.contains(&T::lit(4))),
                0,
            ];
            assert_eq!(&flags[i * 3..i * 3 + 3], &want_flags, "{how}: all, any");
        }
    }
}

#[test]
fn collectives_int() {
    check_collectives::<i32>(None);
}

#[test]
fn collectives_uint() {
    check_collectives::<u32>(None);
}

#[test]
fn collectives_long() {
    check_collectives::<i64>(None);
}

#[test]
fn collectives_ulong() {
    check_collectives::<u64>(None);
}

#[test]
fn collectives_float() {
    check_collectives::<f32>(None);
}

#[test]
fn collectives_double() {
    check_collectives::<f64>(None);
}

#[test]
fn collectives_in_shuffled_and_reversed_orders() {
    for s in ["shuffle:7", "reverse", "interleave"] {
        let s = Schedule::parse(s).unwrap().unwrap();
        check_collectives::<i32>(Some(s));
        check_collectives::<f64>(Some(s));
    }
}

/// Sub-groups on different paths: even sub-groups reduce, odd ones scan and
/// exchange values through local memory at a sub-group barrier, inside a
/// loop with work-group barriers and an exchange across the group around
/// them.
#[test]
fn sub_groups_on_different_paths_between_work_group_barriers() {
    let src = "
    kernel void d(global const int *x, global int *o, local int *tmp) {
        size_t i = get_global_id(0);
        uint lin = get_local_id(0);
        int v = x[i];
        int acc = 0;
        for (int round = 0; round < 3; round++) {
            if (get_sub_group_id() % 2 == 0) {
                acc += sub_group_reduce_add(v + round);
            } else {
                tmp[lin] = v * 10 + round;
                sub_group_barrier(CLK_LOCAL_MEM_FENCE);
                uint mate = lin ^ 1;
                if (mate / 4 == lin / 4 && mate < get_local_size(0))
                    acc += tmp[mate];
                sub_group_barrier(CLK_LOCAL_MEM_FENCE);
                acc += sub_group_scan_inclusive_max(v - round);
            }
            work_group_barrier(CLK_LOCAL_MEM_FENCE);
            tmp[lin] = v + round;
            work_group_barrier(CLK_LOCAL_MEM_FENCE);
            acc += tmp[(lin + 5) % get_local_size(0)];
            work_group_barrier(CLK_LOCAL_MEM_FENCE);
        }
        o[i] = acc;
    }";
    let p = build(src);
    assert_eq!(p.strategy(0), "coroutines");
    let (n, l) = (46usize, 11usize);
    let x: Vec<i32> = (0..n as i32).map(|i| (i * 29) % 17 - 8).collect();
    let mut o = vec![0i32; n];
    for schedule in [None, Some("shuffle:3"), Some("reverse")] {
        let mut xs = x.clone();
        let args = &mut [buf(&mut xs), buf(&mut o), Arg::Local(4 * l as u64)];
        match schedule {
            Some(s) => {
                let s = Schedule::parse(s).unwrap().unwrap();
                run_scheduled(&p, "d", args, &[n as u64], &[l as u64], s)
            }
            None => run(&p, "d", args, &[n as u64], &[l as u64]),
        }
        for (i, got) in o.iter().enumerate() {
            let (lo, hi) = (i / l * l, (i / l * l + l).min(n));
            let lin = i - lo;
            let first = lo + lin / 4 * 4;
            let sg = &x[first..(first + 4).min(hi)];
            let mut acc = 0i32;
            for round in 0..3 {
                if (lin / 4) % 2 == 0 {
                    acc += sg.iter().map(|v| v + round).sum::<i32>();
                } else {
                    let mate = lin ^ 1;
                    if mate / 4 == lin / 4 && lo + mate < hi {
                        acc += x[lo + mate] * 10 + round;
                    }
                    acc += sg[..=lin % 4].iter().map(|v| v - round).max().unwrap();
                }
                acc += x[lo + (lin + 5) % (hi - lo)] + round;
            }
            assert_eq!(*got, acc, "{schedule:?}: item {i}");
        }
    }
}

/// OpenCL C 3.0 has the functions with `__opencl_c_subgroups` and
/// `cl_khr_subgroups`; OpenCL C 2.0 has them through `cl_khr_subgroups`
/// (the device promises independent forward progress); OpenCL C 1.2 has
/// neither.
#[test]
fn declared_for_opencl_c_2_0_and_3_0_with_their_macros() {
    let src = "
    #if !defined(__opencl_c_subgroups) || !defined(cl_khr_subgroups)
    #error wrong macros
    #endif
    kernel void k(global uint *o) {
        o[get_global_id(0)] = sub_group_reduce_add(get_sub_group_local_id());
    }";
    let p = build(src);
    let mut o = vec![0u32; 6];
    run(&p, "k", &mut [buf(&mut o)], &[6], &[6]);
    assert_eq!(o, [6, 6, 6, 6, 1, 1]);
    let src20 = "
    #pragma OPENCL EXTENSION cl_khr_subgroups : enable
    #if !defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
    #error wrong macros
    #endif
    kernel void k(global uint *o) {
        o[get_global_id(0)] = sub_group_reduce_add(get_sub_group_local_id()) * 10 + get_sub_group_size();
    }";
    let p = build_with(src20, "-cl-std=CL2.0");
    let mut o = vec![0u32; 6];
    run(&p, "k", &mut [buf(&mut o)], &[6], &[6]);
    assert_eq!(o, [64, 64, 64, 64, 12, 12]);
    let opts = cranecl_jit::options::BuildOptions::parse("-cl-std=CL1.2").unwrap();
    let src12 = "kernel void k(global uint *o) { o[0] = get_sub_group_size(); }";
    let out = cranecl_jit::frontend::compile(src12, "test.cl", &opts, &[]);
    assert!(!out.success, "OpenCL C 1.2 has no sub-groups");
    assert!(out.log.contains("get_sub_group_size"), "{}", out.log);
}
