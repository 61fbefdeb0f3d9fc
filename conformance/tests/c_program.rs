//! The C client: `conformance/c/buffers.c`, built with gcc and `-lOpenCL`,
//! runs its chain of buffer commands on cranecl through ocl-icd and verifies
//! every byte. The same program on pocl checks the program's own model.

use cranecl_conformance::{profile_dir, vendors_cranecl, vendors_pocl, workspace_root};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Builds the program once per test process (both tests share the binary).
fn build_buffers_c() -> PathBuf {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build("buffers")).clone()
}

/// `conformance/c/NAME.c` built with gcc and `-lOpenCL`.
fn build(name: &str) -> PathBuf {
    let src = workspace_root().join(format!("conformance/c/{name}.c"));
    let dir = profile_dir().join("conformance-c");
    std::fs::create_dir_all(&dir).expect("create the C build folder");
    let exe = dir.join(name);
    let out = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lOpenCL")
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "gcc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn report(out: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn c_buffers_chain_on_cranecl() {
    let exe = build_buffers_c();
    let out = Command::new(&exe)
        .env("OCL_ICD_VENDORS", vendors_cranecl())
        .output()
        .expect("run buffers");
    assert!(
        out.status.success(),
        "buffers.c on cranecl failed: {}",
        report(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified"));
}

/// The program's expectations are right: pocl passes it too.
#[test]
fn c_buffers_chain_model_holds_on_pocl() {
    let exe = build_buffers_c();
    let pocl = vendors_pocl().expect("pocl is installed (scripts/install-deps.sh)");
    let out = Command::new(&exe)
        .env("OCL_ICD_VENDORS", pocl)
        .env("BUFFERS_PLATFORM", "Portable Computing Language")
        .output()
        .expect("run buffers");
    assert!(
        out.status.success(),
        "buffers.c on pocl failed: {}",
        report(&out)
    );
}

/// `conformance/c/exit_release.c`: objects released by an `atexit` handler,
/// after the C library has destroyed the thread's locals (a library's static
/// destructors at exit do this): each release succeeds and the process
/// exits normally (it aborted on a thread-local read once).
#[test]
fn releases_at_exit_succeed() {
    let exe = build("exit_release");
    let out = Command::new(&exe)
        .env("OCL_ICD_VENDORS", vendors_cranecl())
        .output()
        .expect("run exit_release");
    assert!(
        out.status.success(),
        "exit_release failed: {}",
        report(&out)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "released\n",
        "{}",
        report(&out)
    );
}
