//! The README's "Testing kernels in CI" job, run on this machine as written:
//! `conformance/python/readme_ci_job.py` runs every `run:` command of the
//! workflow in the README (the example project `examples/ci/` as the job's
//! checkout, this working tree as cranecl's), so the job users copy is the
//! job that passes here. It builds and installs cranecl's release ICD and
//! command into a temporary `HOME`, makes a venv with pyopencl, runs the
//! project's tests checked and shuffled, a `.sim` file and the linter.

use cranecl_conformance::{venv_python, workspace_root};
use std::process::Command;

#[test]
fn readme_ci_job_passes_as_written() {
    let python = venv_python();
    assert!(
        python.exists(),
        "{} missing: run scripts/install-deps.sh",
        python.display()
    );
    let out = Command::new(&python)
        .current_dir(workspace_root())
        .arg("conformance/python/readme_ci_job.py")
        .output()
        .expect("run readme_ci_job.py");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "the README's CI job failed:\n{text}");
    // Each step of the README's job ran, the checked, shuffled tests among them.
    for line in [
        "== step 5: Build and install cranecl",
        "2 passed",
        "== job 'kernels' passed",
    ] {
        assert!(
            text.contains(line),
            "no '{line}' in the job's output:\n{text}"
        );
    }
}
