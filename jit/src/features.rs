//! What the device advertises: OpenCL C versions, extensions and optional
//! `__opencl_c_*` features — the one list both the API (`CL_DEVICE_EXTENSIONS`,
//! `CL_DEVICE_OPENCL_C_FEATURES`, ...) and the preprocessor (feature macros)
//! read, so the two can never disagree.
//!
//! Rule: a name is listed only once it works end to end. Later work adds to
//! these tables as language features land.
#![forbid(unsafe_code)]

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

/// Platform and device extensions (`CL_DEVICE_EXTENSIONS_WITH_VERSION`).
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
];

/// Optional OpenCL C 3.0 features (`CL_DEVICE_OPENCL_C_FEATURES`); each is
/// also a predefined macro when compiling for OpenCL C 3.0.
/// `__opencl_c_int64` is mandatory for a FULL_PROFILE device.
pub const OPENCL_C_FEATURES: &[NameVersion] = &[
    nv("__opencl_c_int64", 3, 0),
    nv("__opencl_c_fp64", 3, 0),
    nv("__opencl_c_generic_address_space", 3, 0),
    nv("__opencl_c_program_scope_global_variables", 3, 0),
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

/// The space-separated extension string (`CL_DEVICE_EXTENSIONS`).
pub fn extension_string() -> String {
    EXTENSIONS
        .iter()
        .map(|e| e.name)
        .collect::<Vec<_>>()
        .join(" ")
}
