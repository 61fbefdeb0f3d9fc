//! Predefined macros (C99 §6.10.8, OpenCL C 3.0 §6.12 "Preprocessor Directives
//! and Macros") and the `-D` definitions.
//!
//! The predefined macros are written as `#define` lines into a `<built-in>`
//! file and run through the ordinary directive code, so they have spans and
//! `#undef` works on them; `-D` options likewise become a `<command line>`
//! file. `__LINE__`, `__FILE__`, `__COUNTER__`, `__DATE__` and `__TIME__` are
//! computed at each use. The constants of OpenCL C's standard header
//! (`INT_MAX`, `FLT_MAX`, `M_PI_F`, ...) are defined here too, as clang's
//! default header does, so `#if` can test them. Extension and feature macros come from
//! [`crate::features`], the one list of what the device advertises.
#![forbid(unsafe_code)]

use super::macros::{Builtin, Macro};
use super::{PreprocessOptions, Preprocessor};
use crate::features;
use crate::options::ClStd;
use std::fmt::Write;
use std::rc::Rc;

/// Extensions that only concern the API, not OpenCL C: no macro, and
/// `#pragma OPENCL EXTENSION` does not know them.
const API_ONLY_EXTENSIONS: &[&str] = &[
    "cl_khr_icd",
    "cl_khr_extended_versioning",
    "cl_khr_il_program",
    "cl_khr_create_command_queue",
    "cl_khr_terminate_context",
    "cl_khr_priority_hints",
    "cl_khr_throttle_hints",
    "cl_khr_suggested_local_work_size",
    "cl_khr_pci_bus_info",
    "cl_khr_device_uuid",
    "cl_khr_spirv_no_integer_wrap_decoration",
];

/// Prefixes of API-only extension families (sharing, external memory, ...).
const API_ONLY_PREFIXES: &[&str] = &[
    "cl_khr_gl_",
    "cl_khr_egl_",
    "cl_khr_d3d",
    "cl_khr_dx9",
    "cl_khr_external_",
    "cl_khr_semaphore",
    "cl_khr_command_buffer",
];

/// OpenCL C extensions of the Khronos registry (and a few vendors' that
/// kernels enable): `#pragma OPENCL EXTENSION` calls one of these
/// "unsupported" when the device does not advertise it, any other name
/// "unknown" (clang's wording).
pub(super) const KNOWN_LANGUAGE_EXTENSIONS: &[&str] = &[
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_subgroups",
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_integer_dot_product",
    "cl_khr_extended_bit_ops",
    "cl_khr_select_fprounding_mode",
    "cl_ext_float_atomics",
    "cl_amd_fp64",
    "cl_amd_media_ops",
    "cl_amd_media_ops2",
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
];

/// The advertised extensions that are OpenCL C extensions.
pub(super) fn language_extensions() -> impl Iterator<Item = &'static str> {
    features::extensions().map(|e| e.name).filter(|n| {
        !API_ONLY_EXTENSIONS.contains(n) && !API_ONLY_PREFIXES.iter().any(|p| n.starts_with(p))
    })
}

/// The `#define` lines of the predefined macros.
fn predefined_text(opts: &PreprocessOptions) -> String {
    let mut s = String::new();
    let mut def = |name: &str, value: &str| {
        let _ = writeln!(s, "#define {name} {value}");
    };
    def("__OPENCL_VERSION__", "300");
    def("__OPENCL_C_VERSION__", &opts.cl_std.version().to_string());
    for (name, v) in [
        ("CL_VERSION_1_0", 100),
        ("CL_VERSION_1_1", 110),
        ("CL_VERSION_1_2", 120),
        ("CL_VERSION_2_0", 200),
        ("CL_VERSION_3_0", 300),
    ] {
        def(name, &v.to_string());
    }
    def("__ENDIAN_LITTLE__", "1");
    // As clang's opencl-c-base.h does for every OpenCL C version.
    def("NULL", "((void*)0)");
    if opts.cl_std.version() >= 200 {
        // Initialisers of atomic objects (OpenCL C 2.0 §6.13.11.1;
        // `ATOMIC_VAR_INIT` is deprecated by 3.0 but still defined there).
        def("ATOMIC_VAR_INIT(x)", "(x)");
        def("ATOMIC_FLAG_INIT", "0");
    }
    let exec = "__kernel __attribute__((work_group_size_hint(X, 1, 1))) \
                __attribute__((vec_type_hint(typen)))";
    def("__kernel_exec(X, typen)", exec);
    def("kernel_exec(X, typen)", exec);
    // fma is computed by the hardware (x86-64 FMA), as fast as a * b + c.
    def("FP_FAST_FMA", "1");
    def("FP_FAST_FMAF", "1");
    if opts.fast_relaxed_math {
        def("__FAST_RELAXED_MATH__", "1");
    }
    def("__STDC__", "1");
    def("__STDC_VERSION__", "199901L");
    def("__STDC_HOSTED__", "0");
    def("__CRANECL__", "1");
    // "__IMAGE_SUPPORT__ is defined to 1 if images are supported".
    if features::opencl_c_features().any(|f| f.name == "__opencl_c_images") {
        def("__IMAGE_SUPPORT__", "1");
    }
    // The sub-group extensions (`cl_khr_subgroup_ballot`, ...) build on
    // sub-groups: their macros only where the version has them (3.0 with
    // `__opencl_c_subgroups`, or 2.0 with `cl_khr_subgroups`), as clang's
    // header defines them from 2.0 only, so `#ifdef` never promises a
    // function the version does not declare.
    let version = opts.cl_std.version();
    let sub_groups = (version == 300
        && features::opencl_c_features().any(|f| f.name == "__opencl_c_subgroups"))
        || (version >= 200 && features::extensions().any(|e| e.name == "cl_khr_subgroups"));
    for ext in language_extensions() {
        if sub_groups || !ext.starts_with("cl_khr_subgroup_") {
            def(ext, "1");
        }
    }
    if opts.cl_std == ClStd::Cl30 {
        for f in features::opencl_c_features() {
            def(f.name, "1");
        }
    } else {
        for (ext, f) in features::EXTENSION_FEATURES {
            if features::extensions().any(|e| e.name == *ext) {
                def(f, "1");
            }
        }
    }
    s
}

/// The macros of OpenCL C's standard header (OpenCL C 3.0 §6.15.2.1 "Macros
/// and Limits", §6.15.2.2 math constants, §6.1.3 integer limits), which clang
/// defines in its default header: limits of the integer and floating types,
/// `MAXFLOAT`, `HUGE_VALF`, `INFINITY`, `NAN` and the `M_*_F` constants. The
/// double ones only when `cl_khr_fp64` is advertised, the `HALF_*` and
/// `M_*_H` ones only with `cl_khr_fp16`. `INFINITY`, `HUGE_VALF`
/// and `NAN` are written as constant divisions (IEEE 754: 1/0 is +inf, 0/0 a
/// quiet NaN), which the compiler folds; no compiler built-in is needed.
fn header_text() -> String {
    const INTEGER_AND_FLOAT: &[(&str, &str)] = &[
        ("CHAR_BIT", "8"),
        ("SCHAR_MAX", "127"),
        ("SCHAR_MIN", "(-127-1)"),
        ("CHAR_MAX", "SCHAR_MAX"),
        ("CHAR_MIN", "SCHAR_MIN"),
        ("UCHAR_MAX", "255"),
        ("SHRT_MAX", "32767"),
        ("SHRT_MIN", "(-32767-1)"),
        ("USHRT_MAX", "65535"),
        ("INT_MAX", "2147483647"),
        ("INT_MIN", "(-2147483647-1)"),
        // What ilogb returns for 0 and NaN.
        ("FP_ILOGB0", "INT_MIN"),
        ("FP_ILOGBNAN", "INT_MAX"),
        ("UINT_MAX", "0xffffffffU"),
        ("LONG_MAX", "0x7fffffffffffffffL"),
        ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
        ("ULONG_MAX", "0xffffffffffffffffUL"),
        ("FLT_DIG", "6"),
        ("FLT_MANT_DIG", "24"),
        ("FLT_MAX_10_EXP", "+38"),
        ("FLT_MAX_EXP", "+128"),
        ("FLT_MIN_10_EXP", "-37"),
        ("FLT_MIN_EXP", "-125"),
        ("FLT_RADIX", "2"),
        ("FLT_MAX", "0x1.fffffep127f"),
        ("FLT_MIN", "0x1.0p-126f"),
        ("FLT_EPSILON", "0x1.0p-23f"),
        ("MAXFLOAT", "0x1.fffffep127f"),
        ("HUGE_VALF", "(1.0f / 0.0f)"),
        ("INFINITY", "(1.0f / 0.0f)"),
        ("NAN", "(0.0f / 0.0f)"),
        ("M_E_F", "2.71828182845904523536f"),
        ("M_LOG2E_F", "1.44269504088896340736f"),
        ("M_LOG10E_F", "0.434294481903251827651f"),
        ("M_LN2_F", "0.693147180559945309417f"),
        ("M_LN10_F", "2.30258509299404568402f"),
        ("M_PI_F", "3.14159265358979323846f"),
        ("M_PI_2_F", "1.57079632679489661923f"),
        ("M_PI_4_F", "0.785398163397448309616f"),
        ("M_1_PI_F", "0.318309886183790671538f"),
        ("M_2_PI_F", "0.636619772367581343076f"),
        ("M_2_SQRTPI_F", "1.12837916709551257390f"),
        ("M_SQRT2_F", "1.41421356237309504880f"),
        ("M_SQRT1_2_F", "0.707106781186547524401f"),
    ];
    const DOUBLE: &[(&str, &str)] = &[
        ("DBL_DIG", "15"),
        ("DBL_RADIX", "2"),
        ("DBL_MANT_DIG", "53"),
        ("DBL_MAX_10_EXP", "+308"),
        ("DBL_MAX_EXP", "+1024"),
        ("DBL_MIN_10_EXP", "-307"),
        ("DBL_MIN_EXP", "-1021"),
        ("DBL_MAX", "0x1.fffffffffffffp1023"),
        ("DBL_MIN", "0x1.0p-1022"),
        ("DBL_EPSILON", "0x1.0p-52"),
        ("HUGE_VAL", "(1.0 / 0.0)"),
        ("M_E", "2.71828182845904523536"),
        ("M_LOG2E", "1.44269504088896340736"),
        ("M_LOG10E", "0.434294481903251827651"),
        ("M_LN2", "0.693147180559945309417"),
        ("M_LN10", "2.30258509299404568402"),
        ("M_PI", "3.14159265358979323846"),
        ("M_PI_2", "1.57079632679489661923"),
        ("M_PI_4", "0.785398163397448309616"),
        ("M_1_PI", "0.318309886183790671538"),
        ("M_2_PI", "0.636619772367581343076"),
        ("M_2_SQRTPI", "1.12837916709551257390"),
        ("M_SQRT2", "1.41421356237309504880"),
        ("M_SQRT1_2", "0.707106781186547524401"),
    ];
    // cl_khr_fp16's limits and constants (its `h` constants need the
    // extension enabled where they are used, as clang's header has them).
    const HALF: &[(&str, &str)] = &[
        ("HALF_DIG", "3"),
        ("HALF_MANT_DIG", "11"),
        ("HALF_MAX_10_EXP", "+4"),
        ("HALF_MAX_EXP", "+16"),
        ("HALF_MIN_10_EXP", "-4"),
        ("HALF_MIN_EXP", "-13"),
        ("HALF_RADIX", "2"),
        ("HALF_MAX", "0x1.ffcp15h"),
        ("HALF_MIN", "0x1.0p-14h"),
        ("HALF_EPSILON", "0x1.0p-10h"),
        ("M_E_H", "2.71828182845904523536h"),
        ("M_LOG2E_H", "1.44269504088896340736h"),
        ("M_LOG10E_H", "0.434294481903251827651h"),
        ("M_LN2_H", "0.693147180559945309417h"),
        ("M_LN10_H", "2.30258509299404568402h"),
        ("M_PI_H", "3.14159265358979323846h"),
        ("M_PI_2_H", "1.57079632679489661923h"),
        ("M_PI_4_H", "0.785398163397448309616h"),
        ("M_1_PI_H", "0.318309886183790671538h"),
        ("M_2_PI_H", "0.636619772367581343076h"),
        ("M_2_SQRTPI_H", "1.12837916709551257390h"),
        ("M_SQRT2_H", "1.41421356237309504880h"),
        ("M_SQRT1_2_H", "0.707106781186547524401h"),
    ];
    let fp64 = language_extensions().any(|e| e == "cl_khr_fp64");
    let fp16 = language_extensions().any(|e| e == "cl_khr_fp16");
    let mut s = String::new();
    let extra = if fp64 { DOUBLE } else { &[] };
    let half = if fp16 { HALF } else { &[] };
    for (name, value) in INTEGER_AND_FLOAT.iter().chain(extra).chain(half) {
        let _ = writeln!(s, "#define {name} {value}");
    }
    s
}

/// `-D name[=value]` as `#define` lines (`-D name` defines it as 1).
fn command_line_text(defines: &[(String, Option<String>)]) -> String {
    let mut s = String::new();
    for (name, value) in defines {
        let value = value.as_deref().unwrap_or("1").replace(['\n', '\r'], " ");
        let _ = writeln!(s, "#define {name} {value}");
    }
    s
}

impl Preprocessor<'_> {
    /// Defines the built-in, predefined and command-line macros.
    pub(super) fn define_predefined(&mut self) {
        for (name, b) in [
            ("__LINE__", Builtin::Line),
            ("__FILE__", Builtin::File),
            ("__COUNTER__", Builtin::Counter),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
        ] {
            let m = Macro {
                name: name.to_string(),
                id: self.macro_id(name),
                params: None,
                variadic: false,
                body: Vec::new(),
                def_span: None,
                builtin: Some(b),
            };
            self.macros.insert(name.to_string(), Rc::new(m));
        }
        let builtin = predefined_text(self.opts) + &header_text();
        let id = self.sm.add("<built-in>", builtin);
        self.run_definitions(id);
        if !self.opts.defines.is_empty() {
            let text = command_line_text(&self.opts.defines);
            let id = self.sm.add("<command line>", text);
            self.run_definitions(id);
        }
    }

    /// Runs a file of directives; anything else in it is dropped.
    fn run_definitions(&mut self, file: crate::source::FileId) {
        self.push_file(file, None);
        while !self.next_file_token().is_eof() {}
        self.files.pop();
    }
}

/// `__DATE__` ("Mmm dd yyyy") and `__TIME__` ("hh:mm:ss"), UTC.
pub(super) fn date_time() -> (String, String) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let name = MONTHS.get((month - 1) as usize).copied().unwrap_or("Jan");
    let date = format!("{name} {day:2} {year}");
    let time = format!("{:02}:{:02}:{:02}", rem / 3600, rem / 60 % 60, rem % 60);
    (date, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_only_extensions_have_no_macro() {
        assert!(!language_extensions().any(|e| e == "cl_khr_icd"));
    }

    #[test]
    fn date_has_the_c_format() {
        let (date, time) = date_time();
        assert_eq!(date.len(), 11, "{date}");
        assert_eq!(time.len(), 8, "{time}");
        assert_eq!(&time[2..3], ":");
    }
}
