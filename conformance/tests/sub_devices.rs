//! Sub-devices through ocl-icd: `clCreateSubDevices` equally, by counts and
//! by affinity domain, with the spec's errors; the partition queries of the
//! root device and of sub-devices (and of sub-devices of sub-devices);
//! `clRetainDevice`/`clReleaseDevice` counting for sub-devices only;
//! contexts, programs, kernels and queues on sub-devices and on a root
//! device mixed with its sub-devices; and a sub-device's launch running no
//! more work-groups at once than its compute units (counted by the kernel
//! itself with atomics).
//!
//! The process runs with `CRANECL_THREADS=4` (set before the first OpenCL
//! call), so the root device has four compute units on any machine. The
//! affinity domains depend on the host, so their test runs in a child
//! process without the variable and compares with `/sys`.

use cranecl_conformance::{assert_code, call, cl, direct, null, Cl};
use opencl_sys::*;
use std::collections::BTreeSet;
use std::ffi::CString;
use std::process::Command;
use std::sync::Once;

/// Set by the parent for the affinity child: keep the host's own units.
const CHILD: &str = "CRANECL_SUB_DEVICES_CHILD";

fn t() -> &'static Cl {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        if std::env::var_os(CHILD).is_none() {
            std::env::set_var("CRANECL_THREADS", "4");
        }
    });
    cl()
}

fn t_direct() -> &'static Cl {
    t();
    direct()
}

fn uint(t: &Cl, d: cl_device_id, q: cl_device_info) -> cl_uint {
    let mut v: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(d, q, 4, (&mut v as *mut cl_uint).cast(), null())),
        CL_SUCCESS,
        "query {q:#x}"
    );
    v
}

fn domain(t: &Cl, d: cl_device_id) -> cl_device_affinity_domain {
    let mut v: cl_device_affinity_domain = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(d, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, 8, (&mut v as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    v
}

fn parent(t: &Cl, d: cl_device_id) -> cl_device_id {
    let mut v: cl_device_id = null();
    assert_code!(
        call!(t; clGetDeviceInfo(d, CL_DEVICE_PARENT_DEVICE, 8, (&mut v as *mut cl_device_id).cast(), null())),
        CL_SUCCESS
    );
    v
}

fn props(t: &Cl, d: cl_device_id, q: cl_device_info) -> Vec<cl_device_partition_property> {
    let mut n = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(d, q, 0, null(), &mut n)),
        CL_SUCCESS
    );
    let mut v = vec![0 as cl_device_partition_property; n / 8];
    if n > 0 {
        assert_code!(
            call!(t; clGetDeviceInfo(d, q, n, v.as_mut_ptr().cast(), null())),
            CL_SUCCESS
        );
    }
    v
}

/// `clCreateSubDevices` with `p`: the code, and the sub-devices made.
fn split(
    t: &Cl,
    d: cl_device_id,
    p: &[cl_device_partition_property],
) -> (cl_int, Vec<cl_device_id>) {
    let mut n: cl_uint = 0;
    let r = call!(t; clCreateSubDevices(d, p.as_ptr(), 0, null(), &mut n));
    if r != CL_SUCCESS {
        return (r, Vec::new());
    }
    let mut out = vec![null(); n as usize];
    let mut n2: cl_uint = 0;
    let r = call!(t; clCreateSubDevices(d, p.as_ptr(), n, out.as_mut_ptr(), &mut n2));
    assert_eq!(n2, n, "the count asked first is the count made");
    (r, out)
}

#[track_caller]
fn split_ok(t: &Cl, d: cl_device_id, p: &[cl_device_partition_property]) -> Vec<cl_device_id> {
    let (r, v) = split(t, d, p);
    assert_code!(r, CL_SUCCESS, "clCreateSubDevices({p:?})");
    v
}

fn release_all(t: &Cl, devs: &[cl_device_id]) {
    for &d in devs {
        assert_code!(call!(t; clReleaseDevice(d)), CL_SUCCESS);
    }
}

const EQUALLY: cl_device_partition_property = CL_DEVICE_PARTITION_EQUALLY;
const BY_COUNTS: cl_device_partition_property = CL_DEVICE_PARTITION_BY_COUNTS;
const BY_DOMAIN: cl_device_partition_property = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
const END: cl_device_partition_property = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;

#[test]
fn the_root_device_says_how_it_partitions() {
    let t = t();
    let root = t.device();
    assert_eq!(uint(t, root, CL_DEVICE_MAX_COMPUTE_UNITS), 4);
    assert_eq!(uint(t, root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 4);
    let p = props(t, root, CL_DEVICE_PARTITION_PROPERTIES);
    assert!(p.contains(&EQUALLY) && p.contains(&BY_COUNTS), "{p:?}");
    assert_eq!(
        p.contains(&BY_DOMAIN),
        domain(t, root) != 0,
        "by affinity domain is listed when a domain is"
    );
    assert!(props(t, root, CL_DEVICE_PARTITION_TYPE).is_empty());
    assert!(parent(t, root).is_null());
    assert_eq!(uint(t, root, CL_DEVICE_REFERENCE_COUNT), 1);
}

#[test]
fn equally_and_by_counts_split_the_compute_units() {
    let t = t();
    let root = t.device();
    // Equally by 2: two sub-devices of two units.
    let mut n: cl_uint = 0;
    let p = [EQUALLY, 2, 0];
    assert_code!(
        call!(t; clCreateSubDevices(root, p.as_ptr(), 0, null(), &mut n)),
        CL_SUCCESS
    );
    assert_eq!(n, 2);
    let halves = split_ok(t, root, &p);
    for &h in &halves {
        assert_eq!(uint(t, h, CL_DEVICE_MAX_COMPUTE_UNITS), 2);
        assert_eq!(uint(t, h, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 2);
        assert_eq!(parent(t, h), root);
        assert_eq!(props(t, h, CL_DEVICE_PARTITION_TYPE), p.to_vec());
        assert_eq!(uint(t, h, CL_DEVICE_REFERENCE_COUNT), 1);
        let mut ty: cl_device_type = 0;
        assert_code!(
            call!(t; clGetDeviceInfo(h, CL_DEVICE_TYPE, 8, (&mut ty as *mut u64).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(ty, CL_DEVICE_TYPE_CPU);
    }
    assert_ne!(halves[0], halves[1]);
    // A sub-device of a sub-device.
    let quarters = split_ok(t, halves[1], &[EQUALLY, 1, 0]);
    assert_eq!(quarters.len(), 2);
    for &q in &quarters {
        assert_eq!(uint(t, q, CL_DEVICE_MAX_COMPUTE_UNITS), 1);
        assert_eq!(parent(t, q), halves[1]);
        // One unit: it cannot be split.
        assert_eq!(props(t, q, CL_DEVICE_PARTITION_PROPERTIES), vec![0]);
        assert_eq!(uint(t, q, CL_DEVICE_PARTITION_MAX_SUB_DEVICES), 0);
        assert_eq!(domain(t, q), 0);
        assert_code!(split(t, q, &[EQUALLY, 1, 0]).0, CL_DEVICE_PARTITION_FAILED);
    }
    // Equally by 3: one sub-device, the fourth unit unused.
    let three = split_ok(t, root, &[EQUALLY, 3, 0]);
    assert_eq!(three.len(), 1);
    assert_eq!(uint(t, three[0], CL_DEVICE_MAX_COMPUTE_UNITS), 3);
    // Equally by all four units: no smaller sub-device can be made.
    assert_code!(
        split(t, root, &[EQUALLY, 4, 0]).0,
        CL_DEVICE_PARTITION_FAILED
    );
    // By counts, with either terminator.
    for p in [[BY_COUNTS, 1, 3, END, 0], [BY_COUNTS, 3, 0, 0, 0]] {
        let subs = split_ok(t, root, &p);
        let units: Vec<_> = subs
            .iter()
            .map(|&s| uint(t, s, CL_DEVICE_MAX_COMPUTE_UNITS))
            .collect();
        let counts: Vec<_> = p[1..]
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u32)
            .collect();
        assert_eq!(units, counts);
        let ty = props(t, subs[0], CL_DEVICE_PARTITION_TYPE);
        assert_eq!(&ty[..], &p[..ty.len()]);
        assert_eq!(*ty.last().unwrap(), 0);
        release_all(t, &subs);
    }
    release_all(t, &quarters);
    release_all(t, &three);
    release_all(t, &halves);
}

#[test]
fn partition_errors_have_the_spec_codes() {
    let t = t();
    let root = t.device();
    let bad = |p: &[cl_device_partition_property]| split(t, root, p).0;
    // CL_INVALID_DEVICE if in_device is not a valid device.
    let plat = t.platform() as cl_device_id;
    let mut n: cl_uint = 0;
    let p = [EQUALLY, 1, 0];
    assert_code!(
        call!(t; clCreateSubDevices(plat, p.as_ptr(), 0, null(), &mut n)),
        CL_INVALID_DEVICE
    );
    // CL_INVALID_VALUE: properties not valid or not supported.
    assert_code!(
        call!(t; clCreateSubDevices(root, null(), 0, null(), &mut n)),
        CL_INVALID_VALUE
    );
    assert_code!(bad(&[0]), CL_INVALID_VALUE, "an empty list");
    assert_code!(bad(&[0x7777, 1, 0]), CL_INVALID_VALUE, "an unknown scheme");
    assert_code!(bad(&[EQUALLY, 0, 0]), CL_INVALID_VALUE, "equally by 0");
    assert_code!(bad(&[BY_COUNTS, END, 0]), CL_INVALID_VALUE, "no count");
    assert_code!(
        bad(&[EQUALLY, 1, BY_COUNTS, 1, END, 0]),
        CL_INVALID_VALUE,
        "two schemes"
    );
    let two_domains =
        (CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE) as isize;
    assert_code!(bad(&[BY_DOMAIN, two_domains, 0]), CL_INVALID_VALUE);
    assert_code!(bad(&[BY_DOMAIN, 1 << 20, 0]), CL_INVALID_VALUE);
    // CL_INVALID_DEVICE_PARTITION_COUNT.
    assert_code!(bad(&[EQUALLY, 5, 0]), CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_code!(bad(&[EQUALLY, -1, 0]), CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_code!(
        bad(&[BY_COUNTS, 2, 3, END, 0]),
        CL_INVALID_DEVICE_PARTITION_COUNT,
        "five units of four"
    );
    assert_code!(
        bad(&[BY_COUNTS, 1, 1, 1, 1, 1, END, 0]),
        CL_INVALID_DEVICE_PARTITION_COUNT,
        "five sub-devices, CL_DEVICE_PARTITION_MAX_SUB_DEVICES 4"
    );
    assert_code!(
        bad(&[BY_COUNTS, 1, -1, END, 0]),
        CL_INVALID_DEVICE_PARTITION_COUNT,
        "a negative count"
    );
    // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
    // than the number of sub-devices.
    let mut out = [null(); 4];
    let p = [EQUALLY, 1, 0];
    assert_code!(
        call!(t; clCreateSubDevices(root, p.as_ptr(), 3, out.as_mut_ptr(), &mut n)),
        CL_INVALID_VALUE
    );
    assert!(out.iter().all(|d| d.is_null()), "nothing made");
}

#[test]
fn sub_devices_are_reference_counted_and_root_devices_are_not() {
    // The direct table: a released handle reaches the ICD's validation.
    let t = t_direct();
    let root = t.device();
    let subs = split_ok(t, root, &[EQUALLY, 2, 0]);
    let s = subs[0];
    assert_code!(call!(t; clRetainDevice(s)), CL_SUCCESS);
    assert_eq!(uint(t, s, CL_DEVICE_REFERENCE_COUNT), 2);
    assert_code!(call!(t; clReleaseDevice(s)), CL_SUCCESS);
    assert_eq!(uint(t, s, CL_DEVICE_REFERENCE_COUNT), 1);
    assert_code!(call!(t; clReleaseDevice(s)), CL_SUCCESS);
    // Gone: the handle is no device any more.
    let mut v: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(s, CL_DEVICE_MAX_COMPUTE_UNITS, 4, (&mut v as *mut u32).cast(), null())),
        CL_INVALID_DEVICE
    );
    assert_code!(call!(t; clRetainDevice(s)), CL_INVALID_DEVICE);
    // A context keeps its sub-device after the user's last release.
    let s = subs[1];
    let mut e = 0;
    let ctx = call!(t; clCreateContext(null(), 1, &s, None, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(call!(t; clReleaseDevice(s)), CL_SUCCESS);
    assert_eq!(uint(t, s, CL_DEVICE_MAX_COMPUTE_UNITS), 2);
    assert_code!(call!(t; clReleaseContext(ctx)), CL_SUCCESS);
    assert_code!(call!(t; clRetainDevice(s)), CL_INVALID_DEVICE);
    // The root device: retain and release change nothing.
    assert_code!(call!(t; clReleaseDevice(root)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseDevice(root)), CL_SUCCESS);
    assert_code!(call!(t; clRetainDevice(root)), CL_SUCCESS);
    assert_eq!(uint(t, root, CL_DEVICE_REFERENCE_COUNT), 1);
}

const SRC: &str = "
kernel void triple(global int *a) { a[get_global_id(0)] *= 3; }

/* One work-item per group: counts the groups running at once. Its local
   variable keeps one group per step: the lanes would interleave four groups
   of one work-item on one thread, which this count cannot tell from four
   threads. */
kernel void busy(global int *state, global int *ran) {
    local int first;
    first = atomic_inc(&state[0]);
    int now = first + 1;
    atomic_max(&state[1], now);
    for (int i = 0; i < 20000; i++)
        atomic_add(&state[2], 1);
    ran[get_group_id(0)] = 1;
    atomic_dec(&state[0]);
}
";

struct Program {
    ctx: cl_context,
    prog: cl_program,
}

/// A context on `devs` and the program built for `build_for` (all of the
/// context's devices when empty).
fn program(t: &Cl, devs: &[cl_device_id], build_for: &[cl_device_id]) -> Program {
    let mut e = 0;
    let ctx =
        call!(t; clCreateContext(null(), devs.len() as u32, devs.as_ptr(), None, null(), &mut e));
    assert_code!(e, CL_SUCCESS, "clCreateContext");
    let src = CString::new(SRC).unwrap();
    let mut ptr = src.as_ptr();
    let prog = call!(t; clCreateProgramWithSource(ctx, 1, &mut ptr, null(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let list = if build_for.is_empty() {
        null()
    } else {
        build_for.as_ptr()
    };
    assert_code!(
        call!(t; clBuildProgram(prog, build_for.len() as u32, list, null(), None, null())),
        CL_SUCCESS
    );
    Program { ctx, prog }
}

impl Program {
    fn kernel(&self, t: &Cl, name: &str) -> cl_kernel {
        let mut e = 0;
        let name = CString::new(name).unwrap();
        let k = call!(t; clCreateKernel(self.prog, name.as_ptr(), &mut e));
        assert_code!(e, CL_SUCCESS);
        k
    }

    fn queue(&self, t: &Cl, d: cl_device_id) -> cl_command_queue {
        let mut e = 0;
        let q = call!(t; clCreateCommandQueueWithProperties(self.ctx, d, null(), &mut e));
        assert_code!(e, CL_SUCCESS);
        q
    }

    fn buffer(&self, t: &Cl, data: &mut [i32]) -> cl_mem {
        let mut e = 0;
        let m = call!(t; clCreateBuffer(self.ctx, CL_MEM_COPY_HOST_PTR, data.len() * 4, data.as_mut_ptr().cast(), &mut e));
        assert_code!(e, CL_SUCCESS);
        m
    }

    fn release(self, t: &Cl) {
        assert_code!(call!(t; clReleaseProgram(self.prog)), CL_SUCCESS);
        assert_code!(call!(t; clReleaseContext(self.ctx)), CL_SUCCESS);
    }
}

fn read(t: &Cl, q: cl_command_queue, m: cl_mem, n: usize) -> Vec<i32> {
    let mut v = vec![0i32; n];
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * 4, v.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    v
}

/// Runs `triple` over `m` (n items) on `q`.
fn triple(t: &Cl, q: cl_command_queue, k: cl_kernel, m: cl_mem, n: usize) {
    assert_code!(
        call!(t; clSetKernelArg(k, 0, 8, (&m as *const cl_mem).cast())),
        CL_SUCCESS
    );
    let g = n;
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &g, null(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(call!(t; clFinish(q)), CL_SUCCESS);
}

#[test]
fn programs_and_kernels_run_on_sub_devices_and_beside_their_root() {
    let t = t();
    let root = t.device();
    let subs = split_ok(t, root, &[BY_COUNTS, 1, 3, END, 0]);
    let n = 1000;
    // A context of the sub-devices and the root, the program built for the
    // root only: its binary serves the sub-devices (the spec's note).
    let mut all = subs.clone();
    all.push(root);
    let p = program(t, &all, &[root]);
    for &d in &all {
        let mut status: cl_build_status = CL_BUILD_NONE;
        assert_code!(
            call!(t; clGetProgramBuildInfo(p.prog, d, CL_PROGRAM_BUILD_STATUS, 4, (&mut status as *mut i32).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(status, CL_BUILD_SUCCESS);
    }
    let k = p.kernel(t, "triple");
    let mut wg = 0usize;
    assert_code!(
        call!(t; clGetKernelWorkGroupInfo(k, subs[0], CL_KERNEL_WORK_GROUP_SIZE, 8, (&mut wg as *mut usize).cast(), null())),
        CL_SUCCESS
    );
    assert!(wg >= 1);
    let mut data: Vec<i32> = (0..n as i32).collect();
    let m = p.buffer(t, &mut data);
    // Each queue's device in turn triples the same buffer.
    let queues: Vec<_> = all.iter().map(|&d| p.queue(t, d)).collect();
    for &q in &queues {
        let mut qd: cl_device_id = null();
        assert_code!(
            call!(t; clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, 8, (&mut qd as *mut cl_device_id).cast(), null())),
            CL_SUCCESS
        );
        assert!(all.contains(&qd));
        triple(t, q, k, m, n);
    }
    let want: Vec<i32> = (0..n as i32).map(|i| i * 27).collect();
    assert_eq!(read(t, queues[0], m, n), want);
    for q in queues {
        assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    p.release(t);
    // A context of one sub-device, built with a NULL device list.
    let p = program(t, &subs[1..2], &[]);
    let k = p.kernel(t, "triple");
    let q = p.queue(t, subs[1]);
    let mut data: Vec<i32> = (0..n as i32).collect();
    let m = p.buffer(t, &mut data);
    triple(t, q, k, m, n);
    let want: Vec<i32> = (0..n as i32).map(|i| i * 3).collect();
    assert_eq!(read(t, q, m, n), want);
    // A queue on the root device in the sub-device's context: not its device.
    let mut e = 0;
    let none = call!(t; clCreateCommandQueueWithProperties(p.ctx, root, null(), &mut e));
    assert!(none.is_null());
    assert_code!(e, CL_INVALID_DEVICE);
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    p.release(t);
    release_all(t, &subs);
}

/// The most groups of `busy` that ran at once on `d`, after checking every
/// group ran.
fn peak_groups(t: &Cl, p: &Program, d: cl_device_id, groups: usize) -> i32 {
    let k = p.kernel(t, "busy");
    let q = p.queue(t, d);
    let mut state = [0i32; 3];
    let mut ran = vec![0i32; groups];
    let ms = p.buffer(t, &mut state);
    let mr = p.buffer(t, &mut ran);
    assert_code!(
        call!(t; clSetKernelArg(k, 0, 8, (&ms as *const cl_mem).cast())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clSetKernelArg(k, 1, 8, (&mr as *const cl_mem).cast())),
        CL_SUCCESS
    );
    let (g, l) = (groups, 1usize);
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &g, &l, 0, null(), null())),
        CL_SUCCESS
    );
    let state = read(t, q, ms, 3);
    assert_eq!(read(t, q, mr, groups), vec![1; groups], "every group ran");
    assert_eq!(state[0], 0, "every group finished");
    assert_eq!(state[2], 20000 * groups as i32);
    for m in [ms, mr] {
        assert_code!(call!(t; clReleaseMemObject(m)), CL_SUCCESS);
    }
    assert_code!(call!(t; clReleaseCommandQueue(q)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseKernel(k)), CL_SUCCESS);
    state[1]
}

#[test]
fn a_sub_device_runs_at_most_its_compute_units_groups_at_once() {
    let t = t();
    let root = t.device();
    let subs = split_ok(t, root, &[BY_COUNTS, 1, 2, END, 0]);
    let p = program(t, &subs, &[]);
    for (&d, units) in subs.iter().zip([1, 2]) {
        // Twice: the second launch finds the pool started.
        for _ in 0..2 {
            let peak = peak_groups(t, &p, d, 64);
            assert!(
                (1..=units).contains(&peak),
                "a sub-device of {units} compute units ran {peak} groups at once"
            );
        }
    }
    p.release(t);
    release_all(t, &subs);
}

// ---------------------------------------------------------------------------
// Affinity domains, against the host's topology as /sys describes it.

/// The CPUs this process may run on (`Cpus_allowed_list`).
fn allowed_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let list = status
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .unwrap_or("");
    cpu_list(list)
}

fn cpu_list(s: &str) -> Vec<usize> {
    let mut v = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        v.extend(a.trim().parse::<usize>().unwrap()..=b.trim().parse::<usize>().unwrap());
    }
    v
}

/// For an affinity domain, the group of each allowed CPU (the text that
/// names its node or the CPUs sharing its cache), if /sys names one for
/// every CPU.
fn groups_of(domain: cl_device_affinity_domain, cpus: &[usize]) -> Option<BTreeSet<String>> {
    let mut groups = BTreeSet::new();
    for &c in cpus {
        let g = if domain == CL_DEVICE_AFFINITY_DOMAIN_NUMA {
            std::fs::read_dir("/sys/devices/system/node")
                .ok()?
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("node"))
                .find(|e| {
                    cpu_list(&std::fs::read_to_string(e.path().join("cpulist")).unwrap_or_default())
                        .contains(&c)
                })
                .map(|e| e.file_name().to_string_lossy().into_owned())?
        } else {
            let level = match domain {
                CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE => "4",
                CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE => "3",
                CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE => "2",
                _ => "1",
            };
            std::fs::read_dir(format!("/sys/devices/system/cpu/cpu{c}/cache"))
                .ok()?
                .flatten()
                .filter(|e| {
                    let r = |f: &str| std::fs::read_to_string(e.path().join(f)).unwrap_or_default();
                    r("level").trim() == level && r("type").trim() != "Instruction"
                })
                .map(|e| {
                    let list = std::fs::read_to_string(e.path().join("shared_cpu_list"))
                        .unwrap_or_default();
                    format!("{:?}", cpu_list(&list))
                })
                .next()?
        };
        groups.insert(g);
    }
    Some(groups)
}

#[test]
#[ignore = "run by affinity_domains_follow_the_host_topology in a child process"]
fn affinity_child() {
    let t = t();
    let root = t.device();
    let cpus = allowed_cpus();
    let units = uint(t, root, CL_DEVICE_MAX_COMPUTE_UNITS);
    let supported = domain(t, root);
    let order = [
        CL_DEVICE_AFFINITY_DOMAIN_NUMA,
        CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
    ];
    if units as usize != cpus.len() || units < 2 {
        // The units are not one per CPU: no affinity domain is offered.
        assert_eq!(supported, 0);
        let r = split(
            t,
            root,
            &[
                BY_DOMAIN,
                CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize,
                0,
            ],
        )
        .0;
        assert_code!(
            r,
            if units < 2 {
                CL_DEVICE_PARTITION_FAILED
            } else {
                CL_INVALID_VALUE
            }
        );
        println!("affinity: none offered");
        return;
    }
    let mut next = None;
    for d in order {
        let groups = groups_of(d, &cpus);
        assert_eq!(
            supported & d != 0,
            groups.as_ref().is_some_and(|g| g.len() >= 2),
            "domain {d:#x} is offered exactly when /sys names it for every CPU \
             and the CPUs are in two or more of its groups"
        );
        let Some(groups) = groups else { continue };
        let (r, subs) = split(t, root, &[BY_DOMAIN, d as isize, 0]);
        if groups.len() < 2 {
            // All the units share it: not offered, so not a valid value.
            assert_code!(r, CL_INVALID_VALUE, "domain {d:#x}: one group");
            continue;
        }
        assert_code!(r, CL_SUCCESS);
        next.get_or_insert((d, groups.len()));
        assert_eq!(subs.len(), groups.len(), "domain {d:#x}");
        let total: u32 = subs
            .iter()
            .map(|&s| uint(t, s, CL_DEVICE_MAX_COMPUTE_UNITS))
            .sum();
        assert_eq!(total, units, "the sub-devices cover the device");
        assert_eq!(
            props(t, subs[0], CL_DEVICE_PARTITION_TYPE),
            vec![BY_DOMAIN, d as isize, 0]
        );
        release_all(t, &subs);
    }
    assert_eq!(
        supported != 0,
        supported & CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE != 0
    );
    if supported != 0 {
        let (r, subs) = split(
            t,
            root,
            &[
                BY_DOMAIN,
                CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE as isize,
                0,
            ],
        );
        match next {
            None => assert_code!(r, CL_DEVICE_PARTITION_FAILED),
            Some((d, n)) => {
                assert_code!(r, CL_SUCCESS);
                assert_eq!(subs.len(), n);
                // The domain used is reported.
                assert_eq!(
                    props(t, subs[0], CL_DEVICE_PARTITION_TYPE),
                    vec![BY_DOMAIN, d as isize, 0]
                );
                // Its threads are kept on its CPUs, and still at most one
                // group per compute unit runs at once.
                let p = program(t, &subs, &[]);
                for &s in &subs {
                    let cu = uint(t, s, CL_DEVICE_MAX_COMPUTE_UNITS) as i32;
                    let peak = peak_groups(t, &p, s, 32);
                    assert!(
                        (1..=cu).contains(&peak),
                        "{peak} groups at once on {cu} units"
                    );
                }
                p.release(t);
                release_all(t, &subs);
            }
        }
    }
    println!("affinity: checked {supported:#x} on {} CPUs", cpus.len());
}

#[test]
fn affinity_domains_follow_the_host_topology() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "affinity_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env_remove("CRANECL_THREADS")
        .output()
        .expect("run the child");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains("affinity: "),
        "{text}"
    );
}
