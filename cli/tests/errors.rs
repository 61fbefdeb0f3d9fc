//! Exit status 2 — bad input or a build error — and how each is printed:
//! at `file:line:col` with the line and a caret where the input has a
//! place. Also `cranecl build` (with and without `-Werror`) and `cranecl
//! info`.

mod common;
use common::*;
use std::path::Path;

const VECADD: &str = "kernel void vecadd(global const float *a, global const float *b, global float *c)\n{\n    size_t i = get_global_id(0);\n    c[i] = a[i] + b[i];\n}\n";

/// A folder holding vecadd.cl and `sim` as t.sim.
fn with_sim(name: &str, sim: &str) -> std::path::PathBuf {
    let d = temp_dir(name);
    std::fs::write(d.join("vecadd.cl"), VECADD).unwrap();
    std::fs::write(d.join("t.sim"), sim).unwrap();
    d
}

const HEAD: &str = "vecadd.cl\nvecadd\n4 1 1\n4 1 1\n";

#[track_caller]
fn bad(dir: &Path, args: &[&str], wants: &[&str]) {
    let out = cranecl(dir, args);
    assert_eq!(out.code, 2, "{out}");
    for w in wants {
        assert!(out.stderr.contains(w), "expected\n{w}\nin\n{out}");
    }
}

#[test]
fn simulation_file_errors_point_at_the_file() {
    let d = with_sim(
        "simsyntax",
        &format!("{HEAD}<size=16 fill=1>\n<size=16 flaot fill=2>\n<size=16 noinit dump>\n"),
    );
    bad(&d, &["run", "t.sim"], &["t.sim:6:10: error: unknown header word 'flaot'\n<size=16 flaot fill=2>\n         ^~~~~\n"]);

    let d = with_sim(
        "simmissing",
        &format!("{HEAD}<size=16 fill=1>\n<size=16 fill=1>\n"),
    );
    bad(&d, &["run", "t.sim"], &["t.sim:6:17: error: unexpected end of file: expected argument 2 'c' of kernel 'vecadd' (3 arguments)"]);

    let d = with_sim(
        "simextra",
        &format!("{HEAD}<size=16 fill=1>\n<size=16 fill=1>\n<size=16 fill=0>\n<size=4 fill=0>\n"),
    );
    bad(&d, &["run", "t.sim"], &["t.sim:8:1: error: unexpected '<size=4' after the last argument (kernel 'vecadd' has 3 arguments)"]);

    let d = with_sim("simvalues", &format!("{HEAD}<size=16> 1 2 3 x\n"));
    bad(
        &d,
        &["run", "t.sim"],
        &["t.sim:5:17: error: invalid float value 'x'"],
    );

    let d = with_sim("simsize", "vecadd.cl\nvecadd\n4 1\n");
    bad(
        &d,
        &["run", "t.sim"],
        &["t.sim:3:4: error: unexpected end of file: expected global size z"],
    );

    let d = with_sim("simheader", &format!("{HEAD}size=16\n"));
    bad(
        &d,
        &["run", "t.sim"],
        &["t.sim:5:1: error: expected an argument header <...>, found 'size=16'"],
    );
}

#[test]
fn missing_files_unknown_kernels_and_wrong_arguments() {
    let d = with_sim("missing", "nothere.cl\nvecadd\n4 1 1\n4 1 1\n");
    bad(
        &d,
        &["run", "none.sim"],
        &["cranecl: error: cannot read none.sim"],
    );
    bad(
        &d,
        &["run", "t.sim"],
        &["t.sim:1:1: error: cannot read ", "nothere.cl"],
    );

    std::fs::write(d.join("spir.bc"), b"BC\xc0\xde").unwrap();
    std::fs::write(d.join("spir.sim"), "spir.bc\nk\n1 1 1\n1 1 1\n").unwrap();
    bad(
        &d,
        &["run", "spir.sim"],
        &["spir.sim:1:1: error: spir.bc is LLVM bitcode (SPIR)"],
    );

    // Usage errors (clap's) are bad input too.
    bad(&d, &["run"], &["Usage: cranecl run"]);
    bad(&d, &["frobnicate"], &["unrecognized subcommand"]);
    bad(
        &d,
        &["run", "t.sim", "--arg", "null"],
        &["--global, --local and --arg go with --kernel"],
    );

    let d = with_sim("unknown", "vecadd.cl\nvecad\n4 1 1\n4 1 1\n");
    bad(
        &d,
        &["run", "t.sim"],
        &[
            "t.sim:2:1: error: no kernel 'vecad' in ",
            "note: kernels: vecadd",
        ],
    );

    let run = |args: &[&str]| {
        let mut a = vec!["run", "vecadd.cl", "--kernel", "vecadd", "--global", "4"];
        a.extend_from_slice(args);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let call = |args: &[&str], wants: &[&str]| {
        let a = run(args);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        bad(&d, &a, wants);
    };
    call(
        &["--arg", "null"],
        &["kernel 'vecadd' has 3 arguments, 1 --arg given"],
    );
    call(
        &["--arg", "buffer:float:4", "--arg", "local:16", "--arg", "buffer:float:4"],
        &["--arg 2: error: this is local memory (local:BYTES), but parameter 1 of kernel 'vecadd' is 'global float* b'"],
    );
    call(
        &[
            "--arg",
            "buffer:float:4",
            "--arg",
            "buffer:flot:4",
            "--arg",
            "buffer:float:4",
        ],
        &[
            "--arg 2: error: unknown type 'flot' (known: char, ",
            "\nbuffer:flot:4\n       ^~~~\n",
        ],
    );
    call(
        &[
            "--arg",
            "null",
            "--arg",
            "null",
            "--arg",
            "null",
            "--check",
            "bounds,sizes",
        ],
        &["cranecl: error: --check: unknown check 'sizes'"],
    );
    call(
        &[
            "--local", "4,1", "--arg", "null", "--arg", "null", "--arg", "null",
        ],
        &["the local size has 2 dimensions, the global size 1"],
    );

    // A value of the wrong size: the ICD's code and reason.
    std::fs::write(
        d.join("scale.cl"),
        "kernel void scale(global float *x, int k) { x[get_global_id(0)] *= k; }\n",
    )
    .unwrap();
    bad(
        &d,
        &[
            "run",
            "scale.cl",
            "--kernel",
            "scale",
            "--global",
            "4",
            "--arg",
            "buffer:float:4",
            "--arg",
            "long:3",
        ],
        &[
            "--arg 2: error: argument 1 'k': clSetKernelArg failed: CL_INVALID_ARG_SIZE (-51)",
            "note: ",
        ],
    );
}

const BROKEN: &str = "kernel void k(global int *p)\n{\n    p[0] = undeclared_thing;\n}\n";
const WARNS: &str = "kernel void k(global short *p)\n{\n    p[0] = 0xD54EL;\n}\n";

/// The `file:line:col: SEVERITY:` line for `needle` in `source`.
fn place(file: &str, source: &str, needle: &str, severity: &str) -> String {
    let (n, line) = source
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(needle))
        .expect("the needle is in the source");
    format!(
        "{file}:{}:{}: {severity}: ",
        n + 1,
        line.find(needle).unwrap() + 1
    )
}

#[test]
fn build_errors_exit_2_with_the_build_log() {
    let d = temp_dir("build");
    std::fs::write(d.join("broken.cl"), BROKEN).unwrap();
    let at = place("broken.cl", BROKEN, "undeclared_thing", "error");
    bad(
        &d,
        &[
            "run",
            "broken.cl",
            "--kernel",
            "k",
            "--global",
            "1",
            "--arg",
            "buffer:int:1",
        ],
        &[&at, "use of undeclared identifier 'undeclared_thing'"],
    );
    bad(
        &d,
        &["build", "broken.cl"],
        &[&at, "cranecl: error: broken.cl did not build"],
    );
    std::fs::write(
        d.join("t.sim"),
        "broken.cl\nk\n1 1 1\n1 1 1\n<size=4 fill=0>\n",
    )
    .unwrap();
    bad(&d, &["run", "t.sim"], &[&at]);

    // -D reaches the program: the name is declared now.
    let out = cranecl(&d, &["build", "broken.cl", "-D", "undeclared_thing=7"]);
    assert_eq!(out.code, 0, "{out}");
    let out = cranecl(
        &d,
        &[
            "run",
            "broken.cl",
            "-Dundeclared_thing=7",
            "--kernel",
            "k",
            "--global",
            "1",
            "--arg",
            "buffer:int:1:dump",
        ],
    );
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(dumps(&out.stdout)["p"], ["7"]);
}

#[test]
fn warnings_pass_unless_werror() {
    let d = temp_dir("werror");
    std::fs::write(d.join("warns.cl"), WARNS).unwrap();
    let out = cranecl(&d, &["build", "warns.cl"]);
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stderr
            .contains(&place("warns.cl", WARNS, "0xD54EL", "warning")),
        "{out}"
    );
    for werror in [
        &["-Werror"][..],
        &["--Werror"],
        &["--build-options", "-Werror"],
    ] {
        let mut argv = vec!["build", "warns.cl"];
        argv.extend_from_slice(werror);
        let out = cranecl(&d, &argv);
        assert_eq!(out.code, 2, "{werror:?}: {out}");
        assert!(
            out.stderr
                .contains(&place("warns.cl", WARNS, "0xD54EL", "error")),
            "{out}"
        );
    }
    // -I: an included header found in another folder.
    std::fs::create_dir_all(d.join("inc")).unwrap();
    std::fs::write(d.join("inc/value.h"), "#define VALUE 3\n").unwrap();
    std::fs::write(
        d.join("inc.cl"),
        "#include \"value.h\"\nkernel void k(global int *p) { p[0] = VALUE; }\n",
    )
    .unwrap();
    assert_eq!(cranecl(&d, &["build", "inc.cl"]).code, 2);
    let out = cranecl(&d, &["build", "inc.cl", "-I", "inc"]);
    assert_eq!(out.code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The device's name, asked of the linked ICD directly.
fn device_name() -> String {
    use opencl_sys::*;
    // SAFETY: the table is a static of the linked ICD; every call below
    // passes pointers valid for the sizes given.
    unsafe {
        let t = &*cranecl::dispatch::table();
        let mut p = std::ptr::null_mut();
        assert_eq!(
            t.clGetPlatformIDs.unwrap()(1, &mut p, std::ptr::null_mut()),
            CL_SUCCESS
        );
        let mut dev = std::ptr::null_mut();
        let all = CL_DEVICE_TYPE_ALL;
        assert_eq!(
            t.clGetDeviceIDs.unwrap()(p, all, 1, &mut dev, std::ptr::null_mut()),
            CL_SUCCESS
        );
        let mut buf = vec![0u8; 1024];
        let mut n = 0;
        let get = t.clGetDeviceInfo.unwrap();
        assert_eq!(
            get(
                dev,
                CL_DEVICE_NAME,
                buf.len(),
                buf.as_mut_ptr().cast(),
                &mut n
            ),
            CL_SUCCESS
        );
        String::from_utf8_lossy(&buf[..n.saturating_sub(1)]).into_owned()
    }
}

#[test]
fn info_names_the_device_and_the_checks() {
    let out = cranecl(Path::new("."), &["info"]);
    assert_eq!(out.code, 0, "{out}");
    let name = device_name();
    assert!(!name.is_empty());
    assert!(
        out.stdout
            .lines()
            .any(|l| l.starts_with("device") && l.ends_with(&name)),
        "{name}: {out}"
    );
    assert!(out.stdout.contains("races-strict"), "{out}");
    let out = cranecl(
        Path::new("."),
        &["info", "--check", "bounds", "--schedule", "shuffle:7"],
    );
    assert_eq!(out.code, 0, "{out}");
    assert!(
        out.stdout
            .contains("CRANECL_CHECK=bounds CRANECL_SCHEDULE=shuffle:7"),
        "{out}"
    );
}
