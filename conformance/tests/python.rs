//! The Python client: runs `conformance/python` with pytest from the venv that
//! `scripts/install-deps.sh` makes (`target/venv`), with the loader seeing only
//! cranecl. The same tests on pocl check the tests themselves.

use cranecl_conformance::{vendors_cranecl, vendors_pocl, venv_python, workspace_root};
use std::path::Path;
use std::process::Command;

fn pytest(vendors: &Path, platform: &str) {
    let python = venv_python();
    assert!(
        python.exists(),
        "{} missing: run scripts/install-deps.sh (makes the venv with pyopencl, numpy, pytest)",
        python.display()
    );
    let out = Command::new(&python)
        .current_dir(workspace_root())
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "conformance/python",
        ])
        .env("OCL_ICD_VENDORS", vendors)
        .env("CRANECL_PLATFORM", platform)
        .output()
        .expect("run pytest");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(
        out.status.success(),
        "pytest on {platform} failed ({}):\n{text}",
        out.status
    );
    assert!(text.contains(" passed"), "pytest ran no test:\n{text}");
}

#[test]
fn pyopencl_buffers_on_cranecl() {
    pytest(&vendors_cranecl(), "cranecl");
}

#[test]
fn pyopencl_buffers_tests_hold_on_pocl() {
    let pocl = vendors_pocl().expect("pocl is installed (scripts/install-deps.sh)");
    pytest(&pocl, "Portable Computing Language");
}
