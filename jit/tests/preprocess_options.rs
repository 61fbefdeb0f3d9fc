//! Build-option parsing (`clBuildProgram`'s options string).

use cranecl_jit::options::{BuildOptions, ClStd};
use std::path::PathBuf;

#[track_caller]
fn parse(s: &str) -> BuildOptions {
    match BuildOptions::parse(s) {
        Ok(o) => o,
        Err(e) => panic!("{s:?} rejected: {e}"),
    }
}

#[track_caller]
fn reject(s: &str, names: &str) {
    match BuildOptions::parse(s) {
        Ok(o) => panic!("{s:?} accepted: {o:?}"),
        Err(e) => assert!(
            e.contains(names),
            "{s:?}: message {e:?} does not name {names:?}"
        ),
    }
}

#[test]
fn empty_options_are_the_defaults() {
    assert_eq!(parse(""), BuildOptions::default());
    assert_eq!(parse("   \t\n "), BuildOptions::default());
    assert_eq!(BuildOptions::default().cl_std, None);
    assert_eq!(ClStd::default(), ClStd::Cl12);
}

#[test]
fn defines_in_every_form_keep_their_order() {
    let o = parse("-D A -DB -D C=3 -DD=x+y -D 'E=a b' -D\"F=\\\"s\\\"\" -D sq(x)=x*x");
    let want: Vec<(String, Option<String>)> = vec![
        ("A".into(), None),
        ("B".into(), None),
        ("C".into(), Some("3".into())),
        ("D".into(), Some("x+y".into())),
        ("E".into(), Some("a b".into())),
        ("F".into(), Some("\"s\"".into())),
        ("sq(x)".into(), Some("x*x".into())),
    ];
    assert_eq!(o.defines, want);
    assert_eq!(
        parse("-DEMPTY=").defines,
        [("EMPTY".to_string(), Some(String::new()))]
    );
}

#[test]
fn include_dirs_in_both_forms() {
    let o = parse("-I /usr/include/cl -I./local -I \"with space/dir\"");
    let want: Vec<PathBuf> = ["/usr/include/cl", "./local", "with space/dir"]
        .iter()
        .map(PathBuf::from)
        .collect();
    assert_eq!(o.include_dirs, want);
}

#[test]
fn cl_std_values() {
    for (v, std) in [
        ("CL1.0", ClStd::Cl10),
        ("CL1.1", ClStd::Cl11),
        ("CL1.2", ClStd::Cl12),
        ("CL2.0", ClStd::Cl20),
        ("CL3.0", ClStd::Cl30),
    ] {
        assert_eq!(parse(&format!("-cl-std={v}")).cl_std, Some(std), "{v}");
    }
    assert_eq!(ClStd::Cl10.version(), 100);
    assert_eq!(ClStd::Cl30.version(), 300);
    reject("-cl-std=CL2.1", "CL2.1");
    reject("-cl-std=CL4.0", "-cl-std=CL4.0");
    reject("-cl-std=", "-cl-std=");
    reject("-cl-std", "-cl-std");
}

/// A flag and how to read its field.
type FlagCase = (&'static str, fn(&BuildOptions) -> bool);

#[test]
fn every_flag_sets_its_field() {
    let cases: &[FlagCase] = &[
        ("-w", |o| o.no_warnings),
        ("-Werror", |o| o.werror),
        ("-cl-opt-disable", |o| o.opt_disable),
        ("-cl-mad-enable", |o| o.mad_enable),
        ("-cl-no-signed-zeros", |o| o.no_signed_zeros),
        ("-cl-unsafe-math-optimizations", |o| o.unsafe_math),
        ("-cl-finite-math-only", |o| o.finite_math_only),
        ("-cl-fast-relaxed-math", |o| o.fast_relaxed_math),
        ("-cl-denorms-are-zero", |o| o.denorms_are_zero),
        ("-cl-single-precision-constant", |o| {
            o.single_precision_constant
        }),
        ("-cl-kernel-arg-info", |o| o.kernel_arg_info),
        ("-cl-uniform-work-group-size", |o| o.uniform_work_group_size),
        ("-g", |o| o.debug_info),
        ("-create-library", |o| o.create_library),
        ("-enable-link-options", |o| o.enable_link_options),
        ("-cl-fp32-correctly-rounded-divide-sqrt", |o| {
            o.fp32_correctly_rounded_divide_sqrt
        }),
    ];
    for (flag, field) in cases {
        assert!(field(&parse(flag)), "{flag}");
        // Only that flag (and what it implies) is set.
        let others = cases
            .iter()
            .filter(|(f, get)| f != flag && get(&parse(flag)))
            .count();
        let implied = match *flag {
            "-cl-fast-relaxed-math" => 4, // finite-math-only, unsafe-math, no-signed-zeros, mad-enable
            "-cl-unsafe-math-optimizations" => 2, // no-signed-zeros, mad-enable
            _ => 0,
        };
        assert_eq!(others, implied, "{flag} sets other flags");
    }
    // Accepted, no effect on the result.
    assert_eq!(
        parse("-cl-strict-aliasing -cl-no-subgroup-ifp"),
        BuildOptions::default()
    );
}

#[test]
fn a_real_options_string() {
    let o = parse("-cl-std=CL3.0 -Werror -cl-mad-enable -DN=64 -I include -cl-kernel-arg-info");
    assert_eq!(o.cl_std, Some(ClStd::Cl30));
    assert!(o.werror && o.mad_enable && o.kernel_arg_info);
    assert!(!o.fast_relaxed_math);
    assert_eq!(o.defines, [("N".to_string(), Some("64".to_string()))]);
    assert_eq!(o.include_dirs, [PathBuf::from("include")]);
}

#[test]
fn unknown_and_malformed_options_are_named() {
    reject("-foo", "unknown build option '-foo'");
    reject("-cl-mad-enable -cl-fast", "'-cl-fast'");
    reject("-Wall", "'-Wall'");
    reject("stray", "'stray'");
    reject("-D", "missing argument to '-D'");
    reject("-I", "missing argument to '-I'");
    reject("-D 1X", "1X");
    reject("-D \"\"", "-D");
    reject("-D A=\"unterminated", "unterminated");
}
