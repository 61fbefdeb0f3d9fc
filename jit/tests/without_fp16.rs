//! `features::set_fp16(false)` (a device profile without half precision)
//! takes `half` arithmetic away from every part of the front end at once:
//! the extension and feature lists, the predefined macros, the header's
//! `HALF_*` constants, and `#pragma OPENCL EXTENSION cl_khr_fp16`, which
//! then names an unsupported extension and enables nothing. `vload_half` and
//! `vstore_half` stay (they are core). Its own test binary: the switch is
//! process-wide.

use cranecl_jit::features;
use cranecl_jit::frontend::compile;
use cranecl_jit::options::BuildOptions;

fn build(source: &str, options: &str) -> (bool, String) {
    let opts = BuildOptions::parse(options).expect("valid options");
    let out = compile(source, "<source>", &opts, &[]);
    (out.success, out.log)
}

#[test]
fn without_fp16_half_arithmetic_is_refused_everywhere() {
    let half = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
                kernel void k(global half *p) { half x = p[0]; p[1] = x * 2.0h; }\n";
    assert!(build(half, "-cl-std=CL3.0").0, "advertised, it builds");

    features::set_fp16(false);
    assert!(!features::fp16());
    let names: Vec<&str> = features::extensions().map(|e| e.name).collect();
    assert!(!names.contains(&"cl_khr_fp16"), "{names:?}");
    assert!(names.contains(&"cl_khr_fp64"), "{names:?}");
    assert!(!features::opencl_c_features().any(|f| f.name == "__opencl_c_fp16"));

    for std in ["-cl-std=CL1.2", "-cl-std=CL3.0"] {
        let (ok, log) = build(half, std);
        assert!(!ok, "{std}: built without fp16");
        assert!(
            log.contains("warning: unsupported OpenCL extension 'cl_khr_fp16' - ignoring"),
            "{std}:\n{log}"
        );
        assert!(
            log.contains("declaring variable of type 'half' is not allowed"),
            "{std}:\n{log}"
        );
        let macros = "#if defined(cl_khr_fp16) || defined(__opencl_c_fp16) || defined(HALF_MAX)\n\
                      #error fp16 macros\n#endif\n\
                      kernel void k(global half *h, global float *f) {\n\
                        vstore_half(vload_half(0, h) * 2.0f, 1, h);\n}\n";
        let (ok, log) = build(macros, std);
        assert!(ok, "{std}:\n{log}");
    }

    features::set_fp16(true);
    assert!(build(half, "-cl-std=CL3.0").0, "turned back on, it builds");
}
