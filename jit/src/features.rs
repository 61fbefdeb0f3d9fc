//! What the device advertises: OpenCL C versions, extensions and optional
//! `__opencl_c_*` features — the one list both the API (`CL_DEVICE_EXTENSIONS`,
//! `CL_DEVICE_OPENCL_C_FEATURES`, ...) and the preprocessor (feature macros)
//! read, so the two can never disagree.
//!
//! Rule: a name is listed only once it works end to end. Later work adds to
//! these tables as language features land.
//!
//! A device profile (`CRANECL_PROFILE`, in the `cranecl` crate) may take
//! double or half precision away: [`set_fp64`] and [`set_fp16`], once per
//! process before the first build, and every reader goes through
//! [`extensions`] and [`opencl_c_features`], which leave `cl_khr_fp64` and
//! `__opencl_c_fp64` (or `cl_khr_fp16` and `__opencl_c_fp16`) out then — so
//! the API's lists, the macros and the semantic checks still agree.
#![forbid(unsafe_code)]

use std::sync::atomic::{AtomicBool, Ordering};

/// `CL_MAKE_VERSION(major, minor, patch)`.
pub const fn cl_make_version(major: u32, minor: u32, patch: u32) -> u32 {
    (major << 22) | (minor << 12) | patch
}

/// A named thing with a version (`cl_name_version`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameVersion {
    pub name: &'static str,
    pub version: u32,
}

const fn nv(name: &'static str, major: u32, minor: u32) -> NameVersion {
    NameVersion {
        name,
        version: cl_make_version(major, minor, 0),
    }
}

/// Everything the compiler supports, before a profile takes fp64 or fp16 away: read
/// [`extensions`] instead.
pub const EXTENSIONS: &[NameVersion] = &[
    nv("cl_khr_icd", 1, 0),
    nv("cl_khr_byte_addressable_store", 1, 0),
    nv("cl_khr_global_int32_base_atomics", 1, 0),
    nv("cl_khr_global_int32_extended_atomics", 1, 0),
    nv("cl_khr_local_int32_base_atomics", 1, 0),
    nv("cl_khr_local_int32_extended_atomics", 1, 0),
    nv("cl_khr_int64_base_atomics", 1, 0),
    nv("cl_khr_int64_extended_atomics", 1, 0),
    nv("cl_khr_fp64", 1, 0),
    nv("cl_khr_fp16", 1, 0),
    nv("cl_khr_suggested_local_work_size", 1, 0),
    nv("cl_khr_extended_bit_ops", 1, 0),
    nv("cl_khr_integer_dot_product", 2, 0),
    // The provisional version the Khronos CTS tests (and the headers name).
    NameVersion {
        name: "cl_khr_command_buffer",
        version: cl_make_version(0, 9, 8),
    },
    nv("cl_khr_3d_image_writes", 1, 0),
    nv("cl_khr_image2d_from_buffer", 1, 0),
    nv("cl_khr_srgb_image_writes", 1, 0),
    // CL_DEPTH images (image2d_depth_t, image2d_array_depth_t).
    nv("cl_khr_depth_images", 1, 0),
    // Sub-groups (`builtins/subgroup.rs`), in OpenCL C 2.0 too; the
    // extension requires independent forward progress
    // (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS true, the API
    // spec's words): a loop that may wait for another work-item lets the
    // others run (`lower/progress.rs`).
    nv("cl_khr_subgroups", 1, 0),
    // The sub-group extensions over them, implemented in the same file.
    nv("cl_khr_subgroup_extended_types", 1, 0),
    nv("cl_khr_subgroup_non_uniform_vote", 1, 0),
    nv("cl_khr_subgroup_ballot", 1, 0),
    nv("cl_khr_subgroup_non_uniform_arithmetic", 1, 0),
    nv("cl_khr_subgroup_shuffle", 1, 0),
    nv("cl_khr_subgroup_shuffle_relative", 1, 0),
    nv("cl_khr_subgroup_clustered_reduce", 1, 0),
    nv("cl_khr_subgroup_rotate", 1, 0),
];

/// Optional OpenCL C 3.0 features the compiler supports (read
/// [`opencl_c_features`]); each advertised one is also a predefined macro
/// when compiling for OpenCL C 3.0. `__opencl_c_int64` is mandatory for a
/// FULL_PROFILE device.
pub const OPENCL_C_FEATURES: &[NameVersion] = &[
    nv("__opencl_c_int64", 3, 0),
    nv("__opencl_c_fp64", 3, 0),
    nv("__opencl_c_fp16", 3, 0),
    nv("__opencl_c_generic_address_space", 3, 0),
    nv("__opencl_c_program_scope_global_variables", 3, 0),
    // Sub-groups as OpenCL 3.0 offers them (and `cl_khr_subgroups` above).
    nv("__opencl_c_subgroups", 3, 0),
    nv("__opencl_c_atomic_order_acq_rel", 3, 0),
    nv("__opencl_c_atomic_order_seq_cst", 3, 0),
    nv("__opencl_c_atomic_scope_device", 3, 0),
    nv("__opencl_c_atomic_scope_all_devices", 3, 0),
    nv("__opencl_c_work_group_collective_functions", 3, 0),
    nv("__opencl_c_integer_dot_product_input_4x8bit", 2, 0),
    nv("__opencl_c_integer_dot_product_input_4x8bit_packed", 2, 0),
    // Images: the built-ins call `cranecl_memory::image` (builtins/image.rs).
    nv("__opencl_c_images", 3, 0),
    nv("__opencl_c_read_write_images", 3, 0),
    nv("__opencl_c_3d_image_writes", 3, 0),
];

/// Feature macros an extension brings in every OpenCL C version (under
/// 3.0 they are in [`OPENCL_C_FEATURES`] too): (extension, feature).
pub const EXTENSION_FEATURES: &[(&str, &str)] = &[
    (
        "cl_khr_integer_dot_product",
        "__opencl_c_integer_dot_product_input_4x8bit",
    ),
    (
        "cl_khr_integer_dot_product",
        "__opencl_c_integer_dot_product_input_4x8bit_packed",
    ),
];

/// OpenCL C versions the compiler accepts (`CL_DEVICE_OPENCL_C_ALL_VERSIONS`).
pub const OPENCL_C_VERSIONS: &[NameVersion] = &[
    nv("OpenCL C", 1, 0),
    nv("OpenCL C", 1, 1),
    nv("OpenCL C", 1, 2),
    nv("OpenCL C", 3, 0),
];

/// Whether the compiler is complete enough to build programs
/// (`CL_DEVICE_COMPILER_AVAILABLE`, `CL_DEVICE_LINKER_AVAILABLE`).
pub const COMPILER_AVAILABLE: bool = true;

/// Whether double precision is taken away (a device profile without fp64).
static NO_FP64: AtomicBool = AtomicBool::new(false);

/// The names that only exist with double precision.
const FP64_NAMES: &[&str] = &["cl_khr_fp64", "__opencl_c_fp64"];

/// Offer double precision (the default) or not: called by the API layer
/// when it reads the device profile, before any program is built.
pub fn set_fp64(on: bool) {
    NO_FP64.store(!on, Ordering::Relaxed);
}

/// Whether `double` is advertised.
pub fn fp64() -> bool {
    !NO_FP64.load(Ordering::Relaxed)
}

/// Whether half precision is taken away (a device profile without fp16).
static NO_FP16: AtomicBool = AtomicBool::new(false);

/// The names that only exist with half precision.
const FP16_NAMES: &[&str] = &["cl_khr_fp16", "__opencl_c_fp16"];

/// Offer half precision (the default) or not: called by the API layer
/// when it reads the device profile, before any program is built.
pub fn set_fp16(on: bool) {
    NO_FP16.store(!on, Ordering::Relaxed);
}

/// Whether `half` arithmetic is advertised.
pub fn fp16() -> bool {
    !NO_FP16.load(Ordering::Relaxed)
}

fn advertised(list: &'static [NameVersion]) -> impl Iterator<Item = &'static NameVersion> {
    let (fp64, fp16) = (fp64(), fp16());
    list.iter().filter(move |e| {
        (fp64 || !FP64_NAMES.contains(&e.name)) && (fp16 || !FP16_NAMES.contains(&e.name))
    })
}

/// Platform and device extensions (`CL_DEVICE_EXTENSIONS_WITH_VERSION`).
pub fn extensions() -> impl Iterator<Item = &'static NameVersion> {
    advertised(EXTENSIONS)
}

/// Optional OpenCL C 3.0 features (`CL_DEVICE_OPENCL_C_FEATURES`).
pub fn opencl_c_features() -> impl Iterator<Item = &'static NameVersion> {
    advertised(OPENCL_C_FEATURES)
}

/// The space-separated extension string (`CL_DEVICE_EXTENSIONS`).
pub fn extension_string() -> String {
    extensions().map(|e| e.name).collect::<Vec<_>>().join(" ")
}
