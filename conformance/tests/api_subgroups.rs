//! Sub-groups through the API (OpenCL 3.0's optional sub-groups; the
//! `cl_khr_subgroups` extension is not advertised): the device queries, `clGetKernelSubGroupInfo` (and `clGetKernelSubGroupInfoKHR`
//! found by name) with every query and the spec's errors, a kernel
//! whose sub-group built-ins agree with what the API said for its launch,
//! and the sub-group extensions (`cl_khr_subgroup_ballot`, ...): listed
//! with their versions, and their functions built and run through the API.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;

const SRC: &str = "
kernel void sg(global uint *o) {
    size_t i = get_global_linear_id();
    o[i * 4 + 0] = get_sub_group_size();
    o[i * 4 + 1] = get_num_sub_groups();
    o[i * 4 + 2] = get_max_sub_group_size();
    o[i * 4 + 3] = sub_group_reduce_add(1u);
}";

fn device_usize(t: &Cl, dev: cl_device_id, q: cl_device_info) -> usize {
    let mut v = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, q, 8, (&mut v as *mut usize).cast(), null())),
        CL_SUCCESS
    );
    v
}

fn device_text(t: &Cl, dev: cl_device_id, q: cl_device_info) -> Vec<u8> {
    let mut n = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, q, 0, null(), &mut n)),
        CL_SUCCESS
    );
    let mut v = vec![0u8; n];
    assert_code!(
        call!(t; clGetDeviceInfo(dev, q, n, v.as_mut_ptr().cast(), null())),
        CL_SUCCESS
    );
    v
}

fn device_queries(t: &Cl) {
    let dev = t.device();
    let max_wg = device_usize(t, dev, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    let mut n: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, 4, (&mut n as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(n as usize, max_wg.div_ceil(4), "sub-groups of four");
    let mut b: cl_bool = CL_FALSE;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, 4, (&mut b as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(b, CL_TRUE);
    // "This query must return CL_TRUE for devices that support the
    // cl_khr_subgroups extension": a loop that may wait for another
    // work-item lets the others run, so the extension is offered.
    let ext = String::from_utf8(device_text(t, dev, CL_DEVICE_EXTENSIONS)).unwrap();
    assert!(
        ext.split_whitespace()
            .any(|e| e.trim_end_matches('\0') == "cl_khr_subgroups"),
        "{ext}"
    );
    // cl_name_version: a 64-byte name after a cl_version.
    let feats = device_text(t, dev, CL_DEVICE_OPENCL_C_FEATURES);
    let names: Vec<String> = feats
        .chunks(68)
        .map(|c| {
            let name = &c[4..];
            let end = name.iter().position(|b| *b == 0).unwrap_or(64);
            String::from_utf8_lossy(&name[..end]).into_owned()
        })
        .collect();
    assert!(
        names.iter().any(|n| n == "__opencl_c_subgroups"),
        "{names:?}"
    );
    // The sub-group extensions, in both lists, each at version 1.0.0.
    let with_version = device_text(t, dev, CL_DEVICE_EXTENSIONS_WITH_VERSION);
    let versions: Vec<(String, u32)> = with_version
        .chunks(68)
        .map(|c| {
            let name = &c[4..];
            let end = name.iter().position(|b| *b == 0).unwrap_or(64);
            let version = u32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
            (String::from_utf8_lossy(&name[..end]).into_owned(), version)
        })
        .collect();
    for name in SUB_GROUP_EXTENSIONS {
        assert!(
            ext.split_whitespace()
                .any(|e| e.trim_end_matches('\0') == name),
            "{name} not in {ext}"
        );
        assert!(
            versions.iter().any(|(n, v)| n == name && *v == 1 << 22),
            "{name} 1.0.0 not in {versions:?}"
        );
    }
}

/// The sub-group extensions cranecl advertises.
const SUB_GROUP_EXTENSIONS: [&str; 8] = [
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
];

/// A kernel of the extensions' functions, with the odd sub-group local ids
/// inactive: each active item's ballot of `v > 1`, its inclusive scan, the
/// sum over the active items, and a shuffle down by one (taken by every item).
const EXT_SRC: &str = "
#if !defined(cl_khr_subgroup_ballot) || !defined(cl_khr_subgroup_non_uniform_arithmetic) || !defined(cl_khr_subgroup_shuffle_relative)
#error the extensions' macros
#endif
kernel void ext(global const uchar *x, global uint *o) {
    size_t i = get_global_id(0);
    uchar v = x[i];
    o[i * 4 + 3] = sub_group_shuffle_down(v, 1u);
    if (get_sub_group_local_id() % 2 == 0) {
        uint4 b = sub_group_ballot(v > 1);
        o[i * 4 + 0] = b.x;
        o[i * 4 + 1] = sub_group_ballot_inclusive_scan(b);
        o[i * 4 + 2] = sub_group_non_uniform_reduce_add(v);
    }
}";

fn build_ext(
    t: &Cl,
    ctx: cl_context,
    dev: cl_device_id,
    options: &std::ffi::CStr,
) -> (cl_program, cl_int) {
    let mut e = 0;
    let mut src = EXT_SRC.as_ptr() as *const std::ffi::c_char;
    let len = EXT_SRC.len();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    let r = call!(t; clBuildProgram(p, 1, &dev, options.as_ptr(), None, null()));
    (p, r)
}

/// The extensions' functions through the API: groups of 6 (sub-groups of
/// four and two), 12 work-items; OpenCL C 1.2 has no sub-groups, so the
/// same program fails to build there.
fn extension_functions(t: &Cl) {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let (p12, r) = build_ext(t, ctx, dev, c"-cl-std=CL1.2");
    assert_code!(r, CL_BUILD_PROGRAM_FAILURE);
    call!(t; clReleaseProgram(p12));
    let (p, r) = build_ext(t, ctx, dev, c"-cl-std=CL3.0");
    assert_code!(r, CL_SUCCESS);
    let mut e = 0;
    let k = call!(t; clCreateKernel(p, c"ext".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let (n, l) = (12usize, 6usize);
    let x: Vec<u8> = (0..n).map(|i| (i * 7 % 5) as u8 * 60).collect();
    let xb = t.buffer(ctx, CL_MEM_READ_WRITE, n);
    let ob = t.buffer(ctx, CL_MEM_READ_WRITE, n * 16);
    let mut o = vec![u32::MAX; n * 4];
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, xb, CL_TRUE, 0, n, x.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueWriteBuffer(q, ob, CL_TRUE, 0, n * 16, o.as_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    for (i, b) in [xb, ob].iter().enumerate() {
        assert_code!(
            call!(t; clSetKernelArg(k, i as u32, 8, (b as *const cl_mem).cast::<c_void>())),
            CL_SUCCESS
        );
    }
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &n, &l, 0, null(), null())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, ob, CL_TRUE, 0, n * 16, o.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    for i in 0..n {
        let first = i / l * l + i % l / 4 * 4;
        let last = (first + 4).min(i / l * l + l);
        let me = i - first;
        // sub_group_shuffle_down(v, 1): the next item's value, where there is one.
        if i + 1 < last {
            assert_eq!(
                o[i * 4 + 3],
                u32::from(x[i + 1]),
                "shuffle_down at item {i}"
            );
        }
        if me % 2 == 1 {
            assert_eq!(&o[i * 4..i * 4 + 3], &[u32::MAX; 3], "inactive item {i}");
            continue;
        }
        let active: Vec<usize> = (first..last).step_by(2).collect();
        let ballot = active
            .iter()
            .filter(|g| x[**g] > 1)
            .fold(0u32, |m, g| m | 1 << (g - first));
        let scan = (ballot & ((2u32 << me) - 1)).count_ones();
        // uchar sums wrap at 8 bits.
        let sum = active.iter().fold(0u8, |a, g| a.wrapping_add(x[*g]));
        assert_eq!(
            &o[i * 4..i * 4 + 3],
            &[ballot, scan, u32::from(sum)],
            "ballot, inclusive scan, reduce_add at item {i}"
        );
    }
    for m in [xb, ob] {
        call!(t; clReleaseMemObject(m));
    }
    call!(t; clReleaseKernel(k));
    call!(t; clReleaseProgram(p));
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
}

type SubGroupInfoFn = unsafe extern "C" fn(
    cl_kernel,
    cl_device_id,
    cl_kernel_sub_group_info,
    usize,
    *const c_void,
    usize,
    *mut c_void,
    *mut usize,
) -> cl_int;

struct Fixture {
    ctx: cl_context,
    q: cl_command_queue,
    k: cl_kernel,
    dev: cl_device_id,
}

fn fixture(t: &Cl) -> Fixture {
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let dev = t.device();
    let mut e = 0;
    let mut src = SRC.as_ptr() as *const std::ffi::c_char;
    let len = SRC.len();
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut src, &len, &mut e));
    assert_code!(e, CL_SUCCESS);
    assert_code!(
        call!(t; clBuildProgram(p, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null())),
        CL_SUCCESS
    );
    let k = call!(t; clCreateKernel(p, c"sg".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    Fixture { ctx, q, k, dev }
}

/// One `size_t` answer of `f` for `param` with `input`.
fn ask(f: SubGroupInfoFn, k: &Fixture, param: cl_kernel_sub_group_info, input: &[usize]) -> usize {
    let mut v = usize::MAX;
    let mut ret = 0usize;
    let inp = if input.is_empty() {
        std::ptr::null()
    } else {
        input.as_ptr().cast()
    };
    // SAFETY: the arguments follow the spec's contract.
    let code = unsafe {
        f(
            k.k,
            k.dev,
            param,
            std::mem::size_of_val(input),
            inp,
            8,
            (&mut v as *mut usize).cast(),
            &mut ret,
        )
    };
    assert_code!(code, CL_SUCCESS, "param 0x{param:x} input {input:?}");
    assert_eq!(ret, 8);
    v
}

fn kernel_queries_with(t: &Cl, f: SubGroupInfoFn, fx: &Fixture) {
    let mut wg = 0usize;
    assert_code!(
        call!(t; clGetKernelWorkGroupInfo(fx.k, fx.dev, CL_KERNEL_WORK_GROUP_SIZE, 8, (&mut wg as *mut usize).cast(), null())),
        CL_SUCCESS
    );
    for (local, size, count) in [
        (&[6usize][..], 4, 2),
        (&[3], 3, 1),
        (&[8, 2], 4, 4),
        (&[3, 3, 3], 4, 7),
        (&[1, 1, 1], 1, 1),
    ] {
        assert_eq!(
            ask(f, fx, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local),
            size,
            "{local:?}"
        );
        assert_eq!(
            ask(f, fx, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, local),
            count,
            "{local:?}"
        );
    }
    let max = wg.div_ceil(4);
    assert_eq!(ask(f, fx, CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]), max);
    assert_eq!(ask(f, fx, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[]), 0);
    // The local size for a count: one dimension, the others 1; zeros when
    // no work-group of the kernel holds that many sub-groups.
    for (count, want) in [
        (3usize, [12usize, 1, 1]),
        (1, [4, 1, 1]),
        (max, [max * 4, 1, 1]),
        (max + 1, [0, 0, 0]),
        (0, [0, 0, 0]),
    ] {
        let mut v = [usize::MAX; 3];
        let mut ret = 0;
        // SAFETY: the spec's contract.
        let code = unsafe {
            f(
                fx.k,
                fx.dev,
                CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                8,
                (&count as *const usize).cast(),
                24,
                v.as_mut_ptr().cast(),
                &mut ret,
            )
        };
        assert_code!(code, CL_SUCCESS);
        assert_eq!((v, ret), (want, 24), "count {count}");
        if want[0] != 0 && want[0] <= wg {
            assert_eq!(
                ask(f, fx, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &want),
                count,
                "the local size answered gives the count asked"
            );
        }
    }
    // Errors.
    let mut v = [0usize; 3];
    let vp: *mut c_void = v.as_mut_ptr().cast();
    let local = [4usize, 4, 4, 4];
    let one = 1usize;
    let call = |k: cl_kernel, d: cl_device_id, p, isz, ip: *const c_void, psz| {
        // SAFETY: `vp` has 24 bytes and no call writes more than `psz`.
        unsafe { f(k, d, p, isz, ip, psz, vp, null()) }
    };
    let lp: *const c_void = local.as_ptr().cast();
    for p in [
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
    ] {
        assert_code!(
            call(fx.k, fx.dev, p, 8, null(), 8),
            CL_INVALID_VALUE,
            "input NULL"
        );
        assert_code!(
            call(fx.k, fx.dev, p, 0, lp, 8),
            CL_INVALID_VALUE,
            "no dimension"
        );
        assert_code!(
            call(fx.k, fx.dev, p, 32, lp, 8),
            CL_INVALID_VALUE,
            "four dimensions"
        );
        assert_code!(
            call(fx.k, fx.dev, p, 12, lp, 8),
            CL_INVALID_VALUE,
            "not whole size_t"
        );
        assert_code!(
            call(fx.k, fx.dev, p, 8, lp, 4),
            CL_INVALID_VALUE,
            "param_value too small"
        );
    }
    let p = CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT;
    let op: *const c_void = (&one as *const usize).cast();
    assert_code!(
        call(fx.k, fx.dev, p, 8, null(), 24),
        CL_INVALID_VALUE,
        "input NULL"
    );
    assert_code!(
        call(fx.k, fx.dev, p, 16, op, 24),
        CL_INVALID_VALUE,
        "two size_t in"
    );
    assert_code!(
        call(fx.k, fx.dev, p, 8, op, 4),
        CL_INVALID_VALUE,
        "param_value too small"
    );
    assert_code!(
        call(fx.k, fx.dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, null(), 4),
        CL_INVALID_VALUE,
        "param_value too small"
    );
    assert_code!(
        call(fx.k, fx.dev, CL_KERNEL_WORK_GROUP_SIZE, 0, null(), 8),
        CL_INVALID_VALUE,
        "not a sub-group query"
    );
    assert_code!(
        call(
            fx.ctx as cl_kernel,
            fx.dev,
            CL_KERNEL_MAX_NUM_SUB_GROUPS,
            0,
            null(),
            8
        ),
        CL_INVALID_KERNEL
    );
    assert_code!(
        call(
            fx.k,
            fx.ctx as cl_device_id,
            CL_KERNEL_MAX_NUM_SUB_GROUPS,
            0,
            null(),
            8
        ),
        CL_INVALID_DEVICE
    );
    // A NULL device names the kernel's only device.
    assert_code!(
        call(fx.k, null(), CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, null(), 8),
        CL_SUCCESS
    );
    assert_eq!(v[0], max);
}

fn kernel_sub_group_info(t: &Cl) {
    let fx = fixture(t);
    let core =
        t.f.clGetKernelSubGroupInfo
            .expect("clGetKernelSubGroupInfo");
    kernel_queries_with(t, core, &fx);
    // The extension's name, found through the extension function lookup.
    let plat = t.platform();
    let addr = call!(t; clGetExtensionFunctionAddressForPlatform(plat, c"clGetKernelSubGroupInfoKHR".as_ptr()));
    assert!(
        !addr.is_null(),
        "clGetKernelSubGroupInfoKHR is found by name"
    );
    // SAFETY: the address of clGetKernelSubGroupInfoKHR, whose signature is this.
    let khr: SubGroupInfoFn = unsafe { std::mem::transmute(addr) };
    kernel_queries_with(t, khr, &fx);
}

/// What the kernel's built-ins see matches what the API answers for the
/// same local size: 2-D groups of 5 x 3 (15 work-items: three sub-groups of
/// four and one of three).
fn kernel_agrees_with_the_queries(t: &Cl) {
    let fx = fixture(t);
    let f =
        t.f.clGetKernelSubGroupInfo
            .expect("clGetKernelSubGroupInfo");
    let local = [5usize, 3];
    let global = [10usize, 6];
    let n = global[0] * global[1];
    let count = ask(f, &fx, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &local);
    let max = ask(f, &fx, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, &local);
    assert_eq!((count, max), (4, 4));
    let buf = t.buffer(fx.ctx, CL_MEM_READ_WRITE, n * 16);
    assert_code!(
        call!(t; clSetKernelArg(fx.k, 0, 8, (&buf as *const cl_mem).cast::<c_void>())),
        CL_SUCCESS
    );
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(fx.q, fx.k, 2, null(), global.as_ptr(), local.as_ptr(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut o = vec![0u32; n * 4];
    assert_code!(
        call!(t; clEnqueueReadBuffer(fx.q, buf, CL_TRUE, 0, n * 16, o.as_mut_ptr().cast(), 0, null(), null())),
        CL_SUCCESS
    );
    for gy in 0..global[1] {
        for gx in 0..global[0] {
            let i = gy * global[0] + gx;
            let lin = (gy % local[1]) * local[0] + gx % local[0];
            let size = if lin >= 12 { 3 } else { 4 };
            assert_eq!(
                &o[i * 4..i * 4 + 4],
                &[size, count as u32, max as u32, size],
                "item ({gx}, {gy})"
            );
        }
    }
}

both_ways!(
    device_queries,
    kernel_sub_group_info,
    kernel_agrees_with_the_queries,
    extension_functions
);
