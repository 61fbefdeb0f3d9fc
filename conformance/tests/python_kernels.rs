//! pyopencl's binary cache on cranecl: `conformance/python/test_kernels.py`
//! (ElementwiseKernel, ReductionKernel, GenericScanKernel, pyopencl.array,
//! clmath, clrandom) runs twice over one fresh pyopencl cache folder. The
//! first run builds every program from source and stores its binary; the
//! second must take every program from the cache, reloaded with
//! `clCreateProgramWithBinary` (`CRANECL_PYOPENCL_EXPECT_CACHED=1` makes the
//! file fail any build that was not a cache hit, including a cached binary
//! that failed and was silently rebuilt from source).
//!
//! `tests/python.rs` runs the same file once, on cranecl and on pocl.

use cranecl_conformance::{profile_dir, vendors_cranecl, venv_python, workspace_root};
use std::path::Path;
use std::process::Command;

fn pytest(vendors: &Path, cache: &Path, expect_cached: bool) -> String {
    pytest_with(vendors, cache, expect_cached, None)
}

fn pytest_with(vendors: &Path, cache: &Path, expect_cached: bool, check: Option<&str>) -> String {
    let python = venv_python();
    assert!(
        python.exists(),
        "{} missing: run scripts/install-deps.sh (makes the venv with pyopencl, numpy, pytest)",
        python.display()
    );
    let mut cmd = Command::new(&python);
    if let Some(c) = check {
        cmd.env("CRANECL_CHECK", c);
    }
    let out = cmd
        .current_dir(workspace_root())
        .args([
            "-m",
            "pytest",
            "-q",
            "-rxXs",
            "-p",
            "no:cacheprovider",
            "conformance/python/test_kernels.py",
        ])
        .env("OCL_ICD_VENDORS", vendors)
        .env("CRANECL_PLATFORM", "cranecl")
        // pyopencl keeps its cache under platformdirs' user cache folder.
        .env("XDG_CACHE_HOME", cache)
        .env(
            "CRANECL_PYOPENCL_EXPECT_CACHED",
            if expect_cached { "1" } else { "0" },
        )
        .output()
        .expect("run pytest");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    let run = if expect_cached {
        "second run (binaries from the cache)"
    } else {
        "first run (fresh cache)"
    };
    assert!(
        out.status.success(),
        "pytest {run} failed ({}):\n{text}",
        out.status
    );
    assert!(text.contains(" passed"), "pytest ran no test:\n{text}");
    text
}

#[test]
fn pyopencl_kernels_reload_from_the_binary_cache() {
    let vendors = vendors_cranecl();
    let cache = profile_dir().join(format!("pyopencl-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).expect("create the cache folder");
    pytest(&vendors, &cache, false);
    let stored = std::fs::read_dir(cache.join("pyopencl"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert!(
        stored > 0,
        "the first run stored nothing in {}",
        cache.display()
    );
    pytest(&vendors, &cache, true);
    let _ = std::fs::remove_dir_all(&cache);
}

/// No false positives: ElementwiseKernel, ReductionKernel, GenericScanKernel
/// and the rest of the file under `CRANECL_CHECK=all` (a report would fail
/// its command, and so the test that launched it).
#[test]
fn pyopencl_kernels_run_clean_under_checked_mode() {
    let cache = profile_dir().join(format!("pyopencl-cache-checked-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).expect("create the cache folder");
    let text = pytest_with(&vendors_cranecl(), &cache, false, Some("all"));
    assert!(!text.contains("failed checked mode"), "a report:\n{text}");
    let _ = std::fs::remove_dir_all(&cache);
}
