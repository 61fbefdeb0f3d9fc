//! Device queries: `clGetDeviceIDs`, `clGetDeviceInfo` (every OpenCL 3.0 query,
//! answered with true values, for the root device and its sub-devices),
//! `clCreateSubDevices` (the schemes and their errors are `core::partition`'s)
//! and device retain/release (counted for sub-devices only).

#![allow(non_snake_case, clippy::missing_safety_doc)]

use super::platform::{name_version, platform_or_default};
use super::prelude::*;
use crate::core::device::{self as dev, device, Device};
use crate::core::image as img;
use crate::core::partition::{self, Topology};
use crate::core::platform::{self as plat, platform};
use cranecl_jit::features;

/// Every bit of `cl_device_type`.
const ALL_TYPES: cl_device_type = CL_DEVICE_TYPE_DEFAULT
    | CL_DEVICE_TYPE_CPU
    | CL_DEVICE_TYPE_GPU
    | CL_DEVICE_TYPE_ACCELERATOR
    | CL_DEVICE_TYPE_CUSTOM;

/// `CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR`
/// under a name a pattern may use (upper case).
const DOT_PRODUCT_ACCELERATION_PROPERTIES_4X8BIT_PACKED: cl_device_info =
    CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR;

/// Every memory order of `cl_device_atomic_capabilities`.
const ATOMIC_ORDERS: cl_device_atomic_capabilities = CL_DEVICE_ATOMIC_ORDER_RELAXED
    | CL_DEVICE_ATOMIC_ORDER_ACQ_REL
    | CL_DEVICE_ATOMIC_ORDER_SEQ_CST;

/// The memory scopes of atomic operations (the work-item scope is a
/// fence's only).
const ATOMIC_SCOPES: cl_device_atomic_capabilities = CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP
    | CL_DEVICE_ATOMIC_SCOPE_DEVICE
    | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;

/// CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
pub(crate) fn check_device_type(device_type: cl_device_type) -> CLResult<()> {
    check(
        device_type == CL_DEVICE_TYPE_ALL || (device_type != 0 && device_type & !ALL_TYPES == 0),
        CL_INVALID_DEVICE_TYPE,
        "invalid device_type",
    )
}

/// CL_DEVICE_NOT_FOUND if no device matches device_type: ours is the
/// default device, of the type `CRANECL_DEVICE_TYPE` chose (CPU unless
/// asked), and there is none when a configuration variable was bad.
pub(crate) fn check_device_found(device_type: cl_device_type) -> CLResult<()> {
    let config = dev::config();
    if let Some(why) = &config.unavailable {
        return err(CL_DEVICE_NOT_FOUND, why.clone());
    }
    check(
        device_type == CL_DEVICE_TYPE_ALL
            || device_type & (config.device_type | CL_DEVICE_TYPE_DEFAULT) != 0,
        CL_DEVICE_NOT_FOUND,
        "no device of that type",
    )
}

fn get_device_ids(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> CLResult<()> {
    // CL_INVALID_PLATFORM if platform is not a valid platform.
    platform_or_default(platform)?;
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    check_device_type(device_type)?;
    // CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL
    // or if both num_devices and devices are NULL.
    let out = ListOut::new(num_entries, devices, num_devices)?;
    // CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found.
    check_device_found(device_type)?;
    out.one(Obj::handle(device()));
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clGetDeviceIDs(
    platform: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    api_call(|| get_device_ids(platform, device_type, num_entries, devices, num_devices))
}

/// Preferred and native vector widths: 1 for each type the device has (0
/// for the others). A work-item's own vector is computed one component at a
/// time (the value model keeps one register per component); the SIMD
/// registers hold the same variable of several work-items instead (the
/// lanes). So a kernel's vector types gain nothing over scalars and cost
/// registers: hashcat, which sizes its candidates per work-item by the
/// native int and long widths, runs SHA-256 three times and SHA-512 almost
/// four times faster at width 1 than at the 4 and 2 of a 128-bit register.
fn vector_width(supported: bool) -> cl_uint {
    cl_uint::from(supported)
}

fn has_extension(name: &str) -> bool {
    features::extensions().any(|e| e.name == name)
}

fn has_c_feature(name: &str) -> bool {
    features::opencl_c_features().any(|e| e.name == name)
}

fn device_info(device: cl_device_id, param: cl_device_info, out: InfoOut) -> CLResult<()> {
    // CL_INVALID_DEVICE if device is not a valid device.
    let d = Obj::<Device>::get(device)?;
    let h = d.host();
    let config = dev::config();
    let limits = &config.limits;
    let fp64 = has_extension("cl_khr_fp64");
    let fp16 = has_extension("cl_khr_fp16");
    // Denormals, IEEE fma, and division and sqrt correctly rounded (one
    // instruction each). Arithmetic rounds to nearest (OpenCL C has no way to choose another
    // default mode); round to zero and to ±infinity are what a program asks
    // for through the rounding modifiers of the conversions and of
    // vstore_half (`convert_float_rtz(double)`, `convert_int_rtp(float)`,
    // `vstore_half_rtn`), each computed exactly in that mode. OpenCL 1.x's
    // fp64 minimum, which test_bruteforce requires, has all three.
    let rounding = CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF;
    let single_fp =
        CL_FP_DENORM | CL_FP_INF_NAN | rounding | CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
    let double_fp = CL_FP_DENORM | CL_FP_INF_NAN | rounding | CL_FP_FMA;
    // `half` arithmetic rounds each operation to nearest even (computed in
    // float, or in double for fma, and rounded once more: exact, see
    // jit/src/codegen/half.rs), keeps denormals, and has infinities and NaNs;
    // the rounding modifiers of the conversions to half are exact too, but
    // no other default mode exists, so only round to nearest is claimed. The
    // CPU has no half arithmetic: each operation is a sequence of float and
    // integer instructions, which is what CL_FP_SOFT_FLOAT says.
    let half_fp =
        CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA | CL_FP_SOFT_FLOAT;
    let name_versions =
        |list: &[features::NameVersion]| list.iter().map(name_version).collect::<Vec<_>>();
    let c_features: Vec<_> = features::opencl_c_features().map(name_version).collect();
    let program_globals = has_c_feature("__opencl_c_program_scope_global_variables");
    // The host's topology is read only for the queries that need it.
    let partitionable = d.compute_units() >= 2;
    let domains = match param {
        CL_DEVICE_PARTITION_PROPERTIES | CL_DEVICE_PARTITION_AFFINITY_DOMAIN => {
            d.units().affinity_domains(Topology::host())
        }
        _ => 0,
    };
    // An image limit, or 0 when the device offers no images.
    let images = |v: u32| if d.image_support() { v } else { 0 };
    match param {
        CL_DEVICE_TYPE => out.value::<cl_device_type>(config.device_type),
        CL_DEVICE_VENDOR_ID => out.value::<cl_uint>(h.vendor_id),
        CL_DEVICE_MAX_COMPUTE_UNITS => out.value::<cl_uint>(d.compute_units()),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => out.value::<cl_uint>(3),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => out.slice(&limits.max_work_item_sizes),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => out.value(limits.max_work_group_size),
        // Sub-groups of four consecutive work-items (`cl_khr_subgroups`).
        CL_DEVICE_MAX_NUM_SUB_GROUPS => out.value::<cl_uint>(
            limits
                .max_work_group_size
                .div_ceil(cranecl_jit::launch::SUB_GROUP_SIZE as usize) as cl_uint,
        ),
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR => {
            out.value(vector_width(true))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT => {
            out.value(vector_width(true))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT => {
            out.value(vector_width(true))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG => {
            out.value(vector_width(true))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => {
            out.value(vector_width(true))
        }
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
            out.value(vector_width(fp64))
        }
        // Half values are computed one at a time (widened to float and
        // rounded back), never in SIMD registers: a vector gains nothing.
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
            out.value::<cl_uint>(u32::from(fp16))
        }
        CL_DEVICE_MAX_CLOCK_FREQUENCY => out.value::<cl_uint>(h.max_mhz),
        CL_DEVICE_ADDRESS_BITS => out.value::<cl_uint>(64),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => out.value::<cl_ulong>(d.max_mem_alloc_size()),
        CL_DEVICE_IMAGE_SUPPORT => out.boolean(d.image_support()),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => out.value::<cl_uint>(images(img::MAX_READ_IMAGE_ARGS)),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => out.value::<cl_uint>(images(img::MAX_WRITE_IMAGE_ARGS)),
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => {
            out.value::<cl_uint>(images(img::MAX_READ_WRITE_IMAGE_ARGS))
        }
        CL_DEVICE_MAX_SAMPLERS => out.value::<cl_uint>(images(img::MAX_SAMPLERS)),
        CL_DEVICE_IMAGE2D_MAX_WIDTH | CL_DEVICE_IMAGE2D_MAX_HEIGHT => {
            out.value::<usize>(images(img::IMAGE2D_MAX as u32) as usize)
        }
        CL_DEVICE_IMAGE3D_MAX_WIDTH
        | CL_DEVICE_IMAGE3D_MAX_HEIGHT
        | CL_DEVICE_IMAGE3D_MAX_DEPTH => {
            out.value::<usize>(images(img::IMAGE3D_MAX as u32) as usize)
        }
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => {
            out.value::<usize>(images(img::IMAGE_MAX_BUFFER_SIZE as u32) as usize)
        }
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => {
            out.value::<usize>(images(img::IMAGE_MAX_ARRAY_SIZE as u32) as usize)
        }
        // cl_khr_image2d_from_buffer: any row pitch and base address that
        // is a whole number of pixels.
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT | CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => {
            out.value::<cl_uint>(images(1))
        }
        CL_DEVICE_MAX_PIPE_ARGS
        | CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS
        | CL_DEVICE_PIPE_MAX_PACKET_SIZE
        | CL_DEVICE_MAX_ON_DEVICE_QUEUES
        | CL_DEVICE_MAX_ON_DEVICE_EVENTS
        | CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE
        | CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
        | CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => out.value::<cl_uint>(0),
        CL_DEVICE_MAX_PARAMETER_SIZE => out.value(limits.max_parameter_size),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => {
            out.value::<cl_uint>(dev::MEM_BASE_ADDR_ALIGN as cl_uint * 8)
        }
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => {
            out.value::<cl_uint>(dev::MEM_BASE_ADDR_ALIGN as cl_uint)
        }
        CL_DEVICE_SINGLE_FP_CONFIG => out.value::<cl_device_fp_config>(single_fp),
        CL_DEVICE_DOUBLE_FP_CONFIG => {
            out.value::<cl_device_fp_config>(if fp64 { double_fp } else { 0 })
        }
        CL_DEVICE_HALF_FP_CONFIG => {
            out.value::<cl_device_fp_config>(if fp16 { half_fp } else { 0 })
        }
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => {
            out.value::<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE)
        }
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => out.value::<cl_uint>(h.cacheline),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => out.value::<cl_ulong>(h.llc),
        CL_DEVICE_GLOBAL_MEM_SIZE => out.value::<cl_ulong>(d.global_mem_size()),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => {
            out.value::<cl_ulong>(limits.max_constant_buffer_size)
        }
        CL_DEVICE_MAX_CONSTANT_ARGS => out.value::<cl_uint>(limits.max_constant_args),
        // What code generation places (one variable of the arena).
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => out.value::<usize>(if program_globals {
            d.max_mem_alloc_size()
                .min(cranecl_jit::codegen::MAX_PROGRAM_VARIABLE_SIZE) as usize
        } else {
            0
        }),
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            out.value::<usize>(if program_globals { h.llc as usize } else { 0 })
        }
        // Local memory is ordinary host memory on a CPU.
        CL_DEVICE_LOCAL_MEM_TYPE => out.value::<cl_device_local_mem_type>(CL_GLOBAL),
        CL_DEVICE_LOCAL_MEM_SIZE => out.value::<cl_ulong>(limits.local_mem_size),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => out.boolean(false),
        CL_DEVICE_HOST_UNIFIED_MEMORY => out.boolean(true),
        // Nanoseconds per profiling tick.
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => out.value::<usize>(1),
        CL_DEVICE_ENDIAN_LITTLE => out.boolean(cfg!(target_endian = "little")),
        CL_DEVICE_AVAILABLE => out.boolean(true),
        CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            out.boolean(features::COMPILER_AVAILABLE)
        }
        CL_DEVICE_EXECUTION_CAPABILITIES => {
            out.value::<cl_device_exec_capabilities>(CL_EXEC_KERNEL)
        }
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => out.value::<cl_command_queue_properties>(
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE,
        ),
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => out.value::<cl_command_queue_properties>(0),
        CL_DEVICE_PLATFORM => out.value(Obj::handle(platform())),
        CL_DEVICE_NAME => out.string(&match &config.profile {
            Some(p) => p.device_name_shown(),
            None => format!("cranecl CPU ({})", h.cpu_name),
        }),
        CL_DEVICE_VENDOR => out.string(if h.cpu_vendor.is_empty() {
            plat::VENDOR
        } else {
            &h.cpu_vendor
        }),
        CL_DRIVER_VERSION => out.string(env!("CARGO_PKG_VERSION")),
        CL_DEVICE_PROFILE => out.string(plat::PROFILE),
        CL_DEVICE_VERSION => out.string(plat::VERSION_STRING),
        CL_DEVICE_NUMERIC_VERSION => out.value::<cl_version>(features::cl_make_version(3, 0, 0)),
        // For an OpenCL 3.0 device: the highest OpenCL C 1.x version supported.
        CL_DEVICE_OPENCL_C_VERSION => out.string("OpenCL C 1.2 cranecl"),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => out.slice(&name_versions(features::OPENCL_C_VERSIONS)),
        CL_DEVICE_OPENCL_C_FEATURES => out.slice(&c_features),
        CL_DEVICE_EXTENSIONS => out.string(&features::extension_string()),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => {
            out.slice(&features::extensions().map(name_version).collect::<Vec<_>>())
        }
        CL_DEVICE_ILS_WITH_VERSION | CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => {
            out.slice::<cl_name_version>(&[])
        }
        CL_DEVICE_IL_VERSION | CL_DEVICE_BUILT_IN_KERNELS => out.string(""),
        CL_DEVICE_PRINTF_BUFFER_SIZE => out.value(dev::PRINTF_BUFFER_SIZE),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => out.boolean(true),
        CL_DEVICE_PARENT_DEVICE => {
            out.value::<cl_device_id>(d.parent().map_or(ptr::null_mut(), Obj::handle))
        }
        // One sub-device per compute unit at most (0: it cannot be split).
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => {
            out.value::<cl_uint>(if partitionable { d.compute_units() } else { 0 })
        }
        // Equally and by counts while it has two units; by affinity domain
        // when its host CPUs are known and the OS names a domain of them.
        // A device that cannot be split: a single 0.
        CL_DEVICE_PARTITION_PROPERTIES => {
            let mut list = Vec::new();
            if partitionable {
                list.extend([CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS]);
            }
            if domains != 0 {
                list.push(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
            }
            if list.is_empty() {
                list.push(0);
            }
            out.slice::<cl_device_partition_property>(&list)
        }
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => out.value::<cl_device_affinity_domain>(domains),
        // The root device: no partition type (a size of 0).
        CL_DEVICE_PARTITION_TYPE => out.slice::<cl_device_partition_property>(d.partition_type()),
        // A root device is not counted: 1.
        CL_DEVICE_REFERENCE_COUNT => {
            out.value::<cl_uint>(if d.is_root() { 1 } else { d.ref_count() })
        }
        CL_DEVICE_SVM_CAPABILITIES => {
            out.value::<cl_device_svm_capabilities>(crate::core::svm::CAPABILITIES)
        }
        // A loop that may wait for another work-item lets the others of its
        // group run (`cranecl_jit::lower::progress`), so one sub-group that
        // waits for another never keeps it from running.
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => out.boolean(true),
        CL_DEVICE_PIPE_SUPPORT => out.boolean(false),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => {
            out.boolean(has_c_feature("__opencl_c_work_group_collective_functions"))
        }
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => out.boolean(features::COMPILER_AVAILABLE),
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => {
            out.boolean(has_c_feature("__opencl_c_generic_address_space"))
        }
        // Every order and scope is true: each atomic operation is one
        // sequentially consistent instruction and each fence an `mfence`
        // (jit/src/builtins/atomic.rs), and there is one device. The
        // work-item scope exists only for fences.
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => {
            out.value::<cl_device_atomic_capabilities>(ATOMIC_ORDERS | ATOMIC_SCOPES)
        }
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => out.value::<cl_device_atomic_capabilities>(
            ATOMIC_ORDERS | ATOMIC_SCOPES | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM,
        ),
        // cl_khr_integer_dot_product: both input forms, computed with
        // scalar instructions (no dot-product instruction: not accelerated).
        CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR => {
            out.value::<cl_device_integer_dot_product_capabilities_khr>(
                CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR
                    | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR,
            )
        }
        // cl_device_integer_dot_product_acceleration_properties_khr: six
        // cl_bool, each CL_FALSE.
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR
        | DOT_PRODUCT_ACCELERATION_PROPERTIES_4X8BIT_PACKED => out.slice::<cl_bool>(&[CL_FALSE; 6]),
        // cl_khr_command_buffer.
        CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR => out
            .value::<cl_device_command_buffer_capabilities_khr>(
                super::command_buffer::CAPABILITIES,
            ),
        CL_DEVICE_COMMAND_BUFFER_SUPPORTED_QUEUE_PROPERTIES_KHR => out
            .value::<cl_command_queue_properties>(
                super::command_buffer::SUPPORTED_QUEUE_PROPERTIES,
            ),
        CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR => out
            .value::<cl_command_queue_properties>(super::command_buffer::REQUIRED_QUEUE_PROPERTIES),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => {
            out.value::<cl_device_device_enqueue_capabilities>(0)
        }
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => {
            out.value::<usize>(limits.preferred_work_group_size_multiple)
        }
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => out.string("v0000-01-01-00"),
        _ => err(CL_INVALID_VALUE, format!("unknown device info 0x{param:x}")),
    }
}

info_entry_points! {
    fn clGetDeviceInfo(device: cl_device_id, param_name: cl_device_info) = device_info;
}

fn create_sub_devices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> CLResult<()> {
    // CL_INVALID_DEVICE if in_device is not a valid device.
    let d = Obj::<Device>::get(in_device)?;
    // CL_INVALID_VALUE if values specified in properties are not valid or if
    // values specified in properties are valid but not supported by the device.
    // SAFETY: the caller's terminated list (the API's contract).
    let (scheme, list) = unsafe { partition::parse(properties) }?;
    // CL_DEVICE_PARTITION_FAILED, CL_INVALID_DEVICE_PARTITION_COUNT and the
    // unsupported values: `Units::split`.
    let split = d.units().split(&scheme, &list, Topology::host())?;
    // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
    // than the number of sub-devices created by the partition scheme.
    let n = split.shares.len();
    check(
        out_devices.is_null() || num_devices as usize >= n,
        CL_INVALID_VALUE,
        &format!("num_devices is {num_devices}; the partition makes {n} sub-devices"),
    )?;
    if !out_devices.is_null() {
        for (i, share) in split.shares.into_iter().enumerate() {
            let sub = Device::new_sub_device(&d, share, split.partition_type.clone());
            // SAFETY: out_devices has room for num_devices ≥ n handles (the
            // API's contract, checked above).
            unsafe { out_devices.add(i).write(Obj::into_handle(sub)) };
        }
    }
    if !num_devices_ret.is_null() {
        // SAFETY: a cl_uint the caller gave.
        unsafe { num_devices_ret.write(n as cl_uint) };
    }
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubDevices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> cl_int {
    api_call(|| {
        create_sub_devices(
            in_device,
            properties,
            num_devices,
            out_devices,
            num_devices_ret,
        )
    })
}

#[no_mangle]
pub unsafe extern "C" fn clCreateSubDevicesEXT(
    in_device: cl_device_id,
    _properties: *const cl_device_partition_property_ext,
    _num_entries: cl_uint,
    _out_devices: *mut cl_device_id,
    _num_devices: *mut cl_uint,
) -> cl_int {
    // cl_ext_device_fission is not offered: the root device cannot be split.
    api_call(|| {
        Obj::<Device>::get(in_device)?;
        err(CL_INVALID_VALUE, "cl_ext_device_fission is not supported")
    })
}

/// `clRetainDevice`: counted for a sub-device; a root device is only
/// validated.
fn retain_device(device: cl_device_id) -> cl_int {
    // CL_INVALID_DEVICE if device is not a valid device.
    api_call(|| match Obj::<Device>::get(device)?.is_root() {
        true => Ok(()),
        false => Obj::<Device>::retain(device),
    })
}

/// `clReleaseDevice`: counted for a sub-device (it goes when the count
/// reaches zero and no context, queue or program holds it); a root device
/// is only validated.
fn release_device(device: cl_device_id) -> cl_int {
    // CL_INVALID_DEVICE if device is not a valid device.
    api_call(|| match Obj::<Device>::get(device)?.is_root() {
        true => Ok(()),
        false => Obj::<Device>::release(device).map(drop),
    })
}

entry_family! {
    (device: cl_device_id) -> cl_int;
    clRetainDevice => retain_device(device);
    clReleaseDevice => release_device(device);
    clRetainDeviceEXT => retain_device(device);
    clReleaseDeviceEXT => release_device(device);
}
