//! API behaviour of the platform and device chapter: `clGetPlatformIDs`,
//! `clGetPlatformInfo`, `clGetDeviceIDs`, `clGetDeviceInfo`,
//! `clCreateSubDevices`, `clRetainDevice`/`clReleaseDevice`,
//! `clGetDeviceAndHostTimer`, `clGetHostTimer`, `clUnloadPlatformCompiler`,
//! `clGetExtensionFunctionAddressForPlatform`: a bad handle (a handle of the
//! wrong type) and bad arguments, each with the code the spec lists. Every
//! case runs through the loader and directly against the ICD.

use cranecl_conformance::{assert_code, both_ways, call, null, Cl};
use opencl_sys::*;
use std::ffi::c_void;

fn get_platform_ids(t: &Cl) {
    let mut n: cl_uint = 0;
    let mut p: cl_platform_id = null();
    assert_code!(
        call!(t; clGetPlatformIDs(0, null(), null())),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetPlatformIDs(0, &mut p, &mut n)),
        CL_INVALID_VALUE
    );
    assert_code!(call!(t; clGetPlatformIDs(0, null(), &mut n)), CL_SUCCESS);
    assert!(n >= 1);
    assert_code!(call!(t; clGetPlatformIDs(1, &mut p, null())), CL_SUCCESS);
    assert!(!p.is_null());
}

fn get_platform_info(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let mut size = 0usize;
    // A device handle is not a platform.
    assert_code!(
        call!(t; clGetPlatformInfo(dev as cl_platform_id, CL_PLATFORM_NAME, 0, null(), &mut size)),
        CL_INVALID_PLATFORM
    );
    assert_code!(
        call!(t; clGetPlatformInfo(p, 0x7fff_ffff, 0, null(), &mut size)),
        CL_INVALID_VALUE
    );
    let mut small = [0u8; 2];
    assert_code!(
        call!(t; clGetPlatformInfo(p, CL_PLATFORM_NAME, small.len(), small.as_mut_ptr().cast(), null())),
        CL_INVALID_VALUE
    );
    let mut res: u32 = 0;
    assert_code!(
        call!(t; clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, 4, (&mut res as *mut u32).cast(), null())),
        CL_INVALID_VALUE,
        "a cl_ulong query into 4 bytes"
    );
    // The size query alone succeeds and names the terminating NUL.
    assert_code!(
        call!(t; clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, null(), &mut size)),
        CL_SUCCESS
    );
    assert_eq!(size, "cranecl".len() + 1);
    let mut v: cl_version = 0;
    assert_code!(
        call!(t; clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, 4, (&mut v as *mut cl_version).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(v, (3 << 22), "CL_PLATFORM_NUMERIC_VERSION is 3.0.0");
}

fn get_device_ids(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let mut n: cl_uint = 0;
    let mut d: cl_device_id = null();
    assert_code!(
        call!(t; clGetDeviceIDs(dev as cl_platform_id, CL_DEVICE_TYPE_ALL, 1, &mut d, &mut n)),
        CL_INVALID_PLATFORM
    );
    assert_code!(
        call!(t; clGetDeviceIDs(p, 1 << 40, 1, &mut d, &mut n)),
        CL_INVALID_DEVICE_TYPE
    );
    assert_code!(
        call!(t; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &mut d, &mut n)),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, null(), null())),
        CL_INVALID_VALUE
    );
    for ty in [
        CL_DEVICE_TYPE_GPU,
        CL_DEVICE_TYPE_ACCELERATOR,
        CL_DEVICE_TYPE_CUSTOM,
    ] {
        n = 99;
        assert_code!(
            call!(t; clGetDeviceIDs(p, ty, 0, null(), &mut n)),
            CL_DEVICE_NOT_FOUND,
            "type {ty:#x}"
        );
    }
    for ty in [
        CL_DEVICE_TYPE_CPU,
        CL_DEVICE_TYPE_DEFAULT,
        CL_DEVICE_TYPE_ALL,
    ] {
        n = 0;
        d = null();
        assert_code!(
            call!(t; clGetDeviceIDs(p, ty, 1, &mut d, &mut n)),
            CL_SUCCESS,
            "type {ty:#x}"
        );
        assert_eq!((n, d), (1, dev), "type {ty:#x} finds our one device");
    }
}

fn get_device_info(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(p as cl_device_id, CL_DEVICE_NAME, 0, null(), &mut size)),
        CL_INVALID_DEVICE
    );
    assert_code!(
        call!(t; clGetDeviceInfo(dev, 0x7fff_ffff, 0, null(), &mut size)),
        CL_INVALID_VALUE
    );
    let mut small: u16 = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, 2, (&mut small as *mut u16).cast(), null())),
        CL_INVALID_VALUE
    );
    let mut plat: cl_platform_id = null();
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, std::mem::size_of::<cl_platform_id>(), (&mut plat as *mut cl_platform_id).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(plat, p, "CL_DEVICE_PLATFORM");
    let mut ty: cl_device_type = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_TYPE, 8, (&mut ty as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(ty, CL_DEVICE_TYPE_CPU);
    let mut rc: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_REFERENCE_COUNT, 4, (&mut rc as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(rc, 1, "a root device's reference count is 1");
    let mut parent: cl_device_id = dev;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, 8, (&mut parent as *mut cl_device_id).cast(), null())),
        CL_SUCCESS
    );
    assert!(parent.is_null(), "a root device has no parent");
    // Floating-point capabilities: what the spec requires of a full-profile
    // device, and for fp64 OpenCL 1.x's minimum (FMA, INF/NaN, denormals and
    // all three rounding modes, which programs reach through the rounding
    // modifiers of the conversions; `builtins_convert` checks those).
    let rounding = CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF;
    for (param, required) in [
        (CL_DEVICE_SINGLE_FP_CONFIG, rounding | CL_FP_INF_NAN),
        (
            CL_DEVICE_DOUBLE_FP_CONFIG,
            CL_FP_FMA | rounding | CL_FP_INF_NAN | CL_FP_DENORM,
        ),
    ] {
        let mut fp: cl_device_fp_config = 0;
        assert_code!(
            call!(t; clGetDeviceInfo(dev, param, 8, (&mut fp as *mut u64).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(fp & required, required, "fp config {param:#x}: {fp:#x}");
    }
}

fn create_sub_devices(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let mut out: [cl_device_id; 4] = [null(); 4];
    let mut n: cl_uint = 0;
    let props: [cl_device_partition_property; 3] = [CL_DEVICE_PARTITION_EQUALLY as _, 1, 0];
    assert_code!(
        call!(t; clCreateSubDevices(p as cl_device_id, props.as_ptr(), 4, out.as_mut_ptr(), &mut n)),
        CL_INVALID_DEVICE
    );
    let bogus: [cl_device_partition_property; 3] = [0x7777, 1, 0];
    assert_code!(
        call!(t; clCreateSubDevices(dev, bogus.as_ptr(), 4, out.as_mut_ptr(), &mut n)),
        CL_INVALID_VALUE,
        "an unknown partition property"
    );
    // A device of one compute unit cannot be split: "the partition name is
    // supported by the implementation but in_device could not be further
    // partitioned". (The partitions themselves: tests/sub_devices.rs.)
    let mut max_sub: cl_uint = 99;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, 4, (&mut max_sub as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    if max_sub == 0 {
        assert_code!(
            call!(t; clCreateSubDevices(dev, props.as_ptr(), 4, out.as_mut_ptr(), &mut n)),
            CL_DEVICE_PARTITION_FAILED,
            "partition of a device with CL_DEVICE_PARTITION_MAX_SUB_DEVICES 0"
        );
    }
}

fn retain_release_device(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    assert_code!(
        call!(t; clRetainDevice(p as cl_device_id)),
        CL_INVALID_DEVICE
    );
    assert_code!(
        call!(t; clReleaseDevice(p as cl_device_id)),
        CL_INVALID_DEVICE
    );
    // A root device: retain and release succeed and change nothing.
    assert_code!(call!(t; clRetainDevice(dev)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseDevice(dev)), CL_SUCCESS);
    assert_code!(call!(t; clReleaseDevice(dev)), CL_SUCCESS);
    let mut rc: cl_uint = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_REFERENCE_COUNT, 4, (&mut rc as *mut u32).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(rc, 1);
}

fn timers(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    let (mut d, mut h) = (0u64, 0u64);
    assert_code!(
        call!(t; clGetDeviceAndHostTimer(p as cl_device_id, &mut d, &mut h)),
        CL_INVALID_DEVICE
    );
    assert_code!(
        call!(t; clGetHostTimer(p as cl_device_id, &mut h)),
        CL_INVALID_DEVICE
    );
    let mut res: cl_ulong = 0;
    assert_code!(
        call!(t; clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, 8, (&mut res as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    if res == 0 {
        // No timer synchronisation: CL_INVALID_OPERATION.
        assert_code!(call!(t; clGetHostTimer(dev, &mut h)), CL_INVALID_OPERATION);
        return;
    }
    assert_code!(
        call!(t; clGetDeviceAndHostTimer(dev, null(), &mut h)),
        CL_INVALID_VALUE
    );
    assert_code!(
        call!(t; clGetDeviceAndHostTimer(dev, &mut d, null())),
        CL_INVALID_VALUE
    );
    assert_code!(call!(t; clGetHostTimer(dev, null())), CL_INVALID_VALUE);
    assert_code!(
        call!(t; clGetDeviceAndHostTimer(dev, &mut d, &mut h)),
        CL_SUCCESS
    );
    let (d0, h0) = (d, h);
    std::thread::sleep(std::time::Duration::from_millis(2));
    assert_code!(
        call!(t; clGetDeviceAndHostTimer(dev, &mut d, &mut h)),
        CL_SUCCESS
    );
    assert!(
        d > d0 && h > h0,
        "timers advance: device {d0}->{d}, host {h0}->{h}"
    );
    assert!(
        d - d0 >= 1_000_000,
        "2 ms pass on the device timer (ns): {}",
        d - d0
    );
    let h1 = h;
    assert_code!(call!(t; clGetHostTimer(dev, &mut h)), CL_SUCCESS);
    assert!(h >= h1);
}

fn unload_compiler_and_extensions(t: &Cl) {
    let p = t.platform();
    let dev = t.device();
    assert_code!(
        call!(t; clUnloadPlatformCompiler(dev as cl_platform_id)),
        CL_INVALID_PLATFORM
    );
    assert_code!(call!(t; clUnloadPlatformCompiler(p)), CL_SUCCESS);
    let f =
        t.f.clGetExtensionFunctionAddressForPlatform
            .expect("exported");
    // SAFETY: a valid platform and a NUL-terminated name.
    let addr: *mut c_void = unsafe { f(p, c"clNoSuchFunctionCRANECL".as_ptr()) };
    assert!(
        addr.is_null(),
        "an unknown extension function has no address"
    );
    // A known one: found for the platform; called directly, NULL for no
    // platform or another object (through ocl-icd, a NULL platform is
    // replaced by the loader's default platform before we see it, which is
    // why piglit's test of this fails through it, for pocl too; other
    // handles are the loader's to dereference).
    let name = c"clIcdGetPlatformIDsKHR".as_ptr();
    // SAFETY: as above; NULL and a device handle are not platforms.
    unsafe {
        assert!(!f(p, name).is_null());
        if t.direct {
            assert!(f(std::ptr::null_mut(), name).is_null());
            assert!(f(dev as cl_platform_id, name).is_null());
        }
    }
}

/// `CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE` is what a program can have: a
/// variable of exactly that size builds and its last byte is written and
/// read back (test_basic progvar_prog_scope_misc; it once said 11.8 GiB
/// while code generation stopped at 1 GiB).
fn largest_global_variable_builds(t: &Cl) {
    let dev = t.device();
    let mut n: usize = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, 8, (&mut n as *mut usize).cast(), null())),
        CL_SUCCESS
    );
    assert!(n >= 64 << 10, "{n}");
    let ctx = t.context();
    let q = t.queue(ctx, 0);
    let src = format!(
        "global char big[{n}]; kernel void t(global int *o) {{ big[{last}] = 3; o[0] = big[{last}] + big[0]; }}",
        last = n - 1
    );
    let text = std::ffi::CString::new(src).unwrap();
    let mut sp = text.as_ptr();
    let mut e = 0;
    let p = call!(t; clCreateProgramWithSource(ctx, 1, &mut sp, null(), &mut e));
    assert_code!(
        call!(t; clBuildProgram(p, 1, &dev, c"-cl-std=CL3.0".as_ptr(), None, null())),
        CL_SUCCESS
    );
    let k = call!(t; clCreateKernel(p, c"t".as_ptr(), &mut e));
    assert_code!(e, CL_SUCCESS);
    let buf = call!(t; clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, null(), &mut e));
    assert_code!(
        call!(t; clSetKernelArg(k, 0, std::mem::size_of::<cl_mem>(), (&buf as *const cl_mem).cast())),
        CL_SUCCESS
    );
    let one = 1usize;
    assert_code!(
        call!(t; clEnqueueNDRangeKernel(q, k, 1, null(), &one, null(), 0, null(), null())),
        CL_SUCCESS
    );
    let mut out = 0i32;
    assert_code!(
        call!(t; clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 4, (&mut out as *mut i32).cast(), 0, null(), null())),
        CL_SUCCESS
    );
    assert_eq!(out, 3);
    call!(t; clReleaseMemObject(buf));
    call!(t; clReleaseKernel(k));
    call!(t; clReleaseProgram(p));
    call!(t; clReleaseCommandQueue(q));
    call!(t; clReleaseContext(ctx));
}

/// OpenCL 3.0 atomics and collectives: every memory order and scope is
/// advertised for atomic operations and fences (the work-item scope only
/// for fences), the work-group collective functions are supported, and the
/// OpenCL C features that name them are listed.
fn atomic_and_collective_capabilities(t: &Cl) {
    let dev = t.device();
    let orders = CL_DEVICE_ATOMIC_ORDER_RELAXED
        | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
        | CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
    let scopes = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
        | CL_DEVICE_ATOMIC_SCOPE_DEVICE
        | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
    for (param, want, what) in [
        (
            CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
            orders | scopes,
            "memory",
        ),
        (
            CL_DEVICE_ATOMIC_FENCE_CAPABILITIES,
            orders | scopes | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM,
            "fence",
        ),
    ] {
        let mut caps: cl_device_atomic_capabilities = 0;
        assert_code!(
            call!(t; clGetDeviceInfo(dev, param, 8, (&mut caps as *mut u64).cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(caps, want, "atomic {what} capabilities: {caps:#x}");
    }
    let mut wg: cl_bool = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, 4, (&mut wg as *mut cl_bool).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        wg, CL_TRUE,
        "CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT"
    );
    let mut size = 0usize;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, null(), &mut size)),
        CL_SUCCESS
    );
    let n = size / std::mem::size_of::<cl_name_version>();
    let mut features: Vec<cl_name_version> = (0..n)
        .map(|_| cl_name_version {
            version: 0,
            name: [0; CL_NAME_VERSION_MAX_NAME_SIZE],
        })
        .collect();
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, size, features.as_mut_ptr().cast(), null())),
        CL_SUCCESS
    );
    let names: Vec<String> = features
        .iter()
        .map(|f| {
            let bytes: Vec<u8> = f.name.iter().take_while(|&&c| c != 0).copied().collect();
            String::from_utf8_lossy(&bytes).into_owned()
        })
        .collect();
    for want in [
        "__opencl_c_atomic_order_acq_rel",
        "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_device",
        "__opencl_c_atomic_scope_all_devices",
        "__opencl_c_work_group_collective_functions",
        "__opencl_c_integer_dot_product_input_4x8bit",
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
    }
}

/// cl_khr_integer_dot_product: both input forms are capabilities, and the
/// two acceleration properties are six `cl_bool`s, all false (the products
/// are computed with scalar instructions).
fn integer_dot_product_queries(t: &Cl) {
    let dev = t.device();
    let mut caps: cl_device_integer_dot_product_capabilities_khr = 0;
    assert_code!(
        call!(t; clGetDeviceInfo(dev, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, 8, (&mut caps as *mut u64).cast(), null())),
        CL_SUCCESS
    );
    assert_eq!(
        caps,
        CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR
            | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR
    );
    for param in [
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
    ] {
        let mut size = 0usize;
        assert_code!(
            call!(t; clGetDeviceInfo(dev, param, 0, null(), &mut size)),
            CL_SUCCESS
        );
        assert_eq!(
            size,
            std::mem::size_of::<cl_device_integer_dot_product_acceleration_properties_khr>()
        );
        let mut props = [CL_TRUE; 6];
        assert_code!(
            call!(t; clGetDeviceInfo(dev, param, size, props.as_mut_ptr().cast(), null())),
            CL_SUCCESS
        );
        assert_eq!(props, [CL_FALSE; 6], "acceleration properties {param:#x}");
        let mut small = [0u8; 8];
        assert_code!(
            call!(t; clGetDeviceInfo(dev, param, 8, small.as_mut_ptr().cast(), null())),
            CL_INVALID_VALUE
        );
    }
    let ext = cranecl_conformance::info_string(
        |sz, v, r| call!(t; clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sz, v, r)),
    )
    .expect("CL_DEVICE_EXTENSIONS");
    for name in [
        "cl_khr_integer_dot_product",
        "cl_khr_extended_bit_ops",
        "cl_khr_suggested_local_work_size",
    ] {
        assert!(ext.split(' ').any(|e| e == name), "{name} not in {ext}");
    }
}

both_ways!(
    atomic_and_collective_capabilities,
    integer_dot_product_queries,
    largest_global_variable_builds,
    get_platform_ids,
    get_platform_info,
    get_device_ids,
    get_device_info,
    create_sub_devices,
    retain_release_device,
    timers,
    unload_compiler_and_extensions,
);

/// Which libOpenCL.so.1 this process loaded (`/proc/self/maps`). With
/// `CRANECL_EXPECT_LOADER=<path>` (scripts/test-khronos-loader.sh sets it)
/// it must be that one, so a run meant for another loader cannot silently
/// use the system's.
#[test]
fn loader_in_use() {
    let _ = cranecl_conformance::cl().platform();
    let maps = std::fs::read_to_string("/proc/self/maps").expect("read /proc/self/maps");
    let path = maps
        .lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| p.contains("libOpenCL.so"))
        .expect("libOpenCL.so.1 is mapped")
        .to_string();
    println!("loader: {path}");
    if let Some(want) = std::env::var_os("CRANECL_EXPECT_LOADER") {
        let canon = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        assert_eq!(
            canon(path.as_ref()),
            canon(std::path::Path::new(&want)),
            "the loader in use"
        );
    }
}
