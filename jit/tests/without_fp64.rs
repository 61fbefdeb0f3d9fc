//! `features::set_fp64(false)` (a device profile without double precision)
//! takes `double` away from every part of the front end at once: the
//! extension and feature lists, the predefined macros, the header's `DBL_*`
//! constants, `#pragma OPENCL EXTENSION cl_khr_fp64`, and the semantic
//! check, which gives clang-14's diagnostic. Its own test binary: the switch
//! is process-wide.

use cranecl_jit::features;
use cranecl_jit::frontend::compile;
use cranecl_jit::options::BuildOptions;

fn build(source: &str, options: &str) -> (bool, String) {
    let opts = BuildOptions::parse(options).expect("valid options");
    let out = compile(source, "<source>", &opts, &[]);
    (out.success, out.log)
}

#[test]
fn without_fp64_double_is_refused_everywhere() {
    features::set_fp64(false);
    assert!(!features::fp64());
    let names: Vec<&str> = features::extensions().map(|e| e.name).collect();
    assert!(!names.contains(&"cl_khr_fp64"), "{names:?}");
    assert!(names.contains(&"cl_khr_int64_base_atomics"), "{names:?}");
    assert!(!features::extension_string().contains("fp64"));
    assert!(!features::opencl_c_features().any(|f| f.name == "__opencl_c_fp64"));

    let double = "kernel void k(global double *o) { o[0] = 2.0; }\n";
    let (ok, log) = build(double, "");
    assert!(!ok);
    assert!(
        log.contains("<source>:1:22: error: use of type 'double' requires cl_khr_fp64 support"),
        "{log}"
    );
    let (ok, log) = build(double, "-cl-std=CL3.0");
    assert!(!ok);
    assert!(
        log.contains(
            "error: use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"
        ),
        "{log}"
    );
    // No macro, no DBL_MAX; the pragma names an unsupported extension.
    let macros = "#if defined(cl_khr_fp64) || defined(__opencl_c_fp64) || defined(DBL_MAX)\n\
                  #error fp64 macros\n#endif\n\
                  #pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
                  kernel void k(global float *o) { o[0] = 1.0f; }\n";
    let (ok, log) = build(macros, "-cl-std=CL3.0");
    assert!(ok, "{log}");
    assert!(
        log.contains("warning: unsupported OpenCL extension 'cl_khr_fp64' - ignoring"),
        "{log}"
    );

    // Turned back on, the same kernel builds.
    features::set_fp64(true);
    let (ok, log) = build(double, "");
    assert!(ok, "{log}");
}
