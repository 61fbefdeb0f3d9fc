//! Checked mode through C: `conformance/c/checked.c`, built with gcc and
//! `-lOpenCL`, runs every kernel of `conformance/checked/` on cranecl through
//! ocl-icd with the case's `CRANECL_CHECK`, and prints what the context's
//! notify callback heard and the command's status. Each case must give
//! exactly the reports its `//! KIND` markers name (kind and line; a line
//! may name several kinds), each naming the kernel, and a negative status
//! (a clean case: status 0 and no report). The directives are those `conformance/python/test_checked.py`
//! reads; the same cases run there through pyopencl.

use cranecl_conformance::{profile_dir, vendors_cranecl, workspace_root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const KINDS: [&str; 6] = [
    "invalid-read",
    "invalid-write",
    "index",
    "divergence",
    "race",
    "uninit",
];

#[derive(Debug)]
struct Case {
    check: String,
    options: String,
    kernel: String,
    global: String,
    local: String,
    args: Vec<String>,
    expect: BTreeSet<(String, usize)>,
    other: Vec<usize>,
    /// `@report TEXT`: texts some report must hold.
    report: Vec<String>,
}

fn parse(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut c = Case {
        check: String::new(),
        options: String::new(),
        kernel: String::new(),
        global: String::new(),
        local: String::new(),
        args: Vec::new(),
        expect: BTreeSet::new(),
        other: Vec::new(),
        report: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(d) = line.trim().strip_prefix("// @") {
            let (key, val) = d.split_once(' ').unwrap_or((d, ""));
            match key {
                "check" => c.check = val.trim().to_string(),
                "options" => c.options = val.trim().to_string(),
                "report" => c.report.push(val.trim().to_string()),
                "run" => {
                    let (head, args) = val.split_once(':').ok_or("@run without ':'")?;
                    let mut words = head.split_whitespace();
                    c.kernel = words.next().ok_or("@run without a kernel")?.to_string();
                    for w in words {
                        match w.split_once('=') {
                            Some(("g", v)) => c.global = v.to_string(),
                            Some(("l", v)) => c.local = v.to_string(),
                            _ => return Err(format!("line {n}: unknown @run word {w}")),
                        }
                    }
                    c.args = args.split_whitespace().map(str::to_string).collect();
                }
                other => return Err(format!("line {n}: unknown directive @{other}")),
            }
        }
        if let Some((_, m)) = line.rsplit_once("//!") {
            for m in m.split_whitespace() {
                if m == "race-other" {
                    c.other.push(n);
                } else if KINDS.contains(&m) {
                    c.expect.insert((m.to_string(), n));
                } else {
                    return Err(format!("line {n}: unknown marker {m}"));
                }
            }
        }
    }
    if c.check.is_empty() || c.kernel.is_empty() || c.global.is_empty() {
        return Err("@check and @run are required".into());
    }
    Ok(c)
}

fn kind_of(message: &str) -> String {
    for (prefix, kind) in [
        ("invalid write", "invalid-write"),
        ("invalid read", "invalid-read"),
        ("index ", "index"),
        ("barrier divergence", "divergence"),
        ("data race", "race"),
        ("read of", "uninit"),
    ] {
        if message.starts_with(prefix) {
            return kind.to_string();
        }
    }
    format!("unknown: {message}")
}

/// The reports in the program's output: (kind, line) of each error header.
fn reports(out: &str) -> BTreeSet<(String, usize)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("<source>:")?;
            let (line, rest) = rest.split_once(':')?;
            let (_, msg) = rest.split_once(": error: ")?;
            Some((kind_of(msg), line.parse().ok()?))
        })
        .collect()
}

fn build_runner() -> PathBuf {
    let src = workspace_root().join("conformance/c/checked.c");
    let dir = profile_dir().join("conformance-c");
    std::fs::create_dir_all(&dir).expect("create the C build folder");
    let exe = dir.join("checked");
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

fn run(exe: &Path, path: &Path, c: &Case) -> Result<(), String> {
    let local = if c.local.is_empty() { "0" } else { &c.local };
    let out = Command::new(exe)
        .arg(&c.check)
        .arg(path)
        .arg(&c.options)
        .arg(&c.kernel)
        .arg(&c.global)
        .arg(local)
        .args(&c.args)
        .env("OCL_ICD_VENDORS", vendors_cranecl())
        .output()
        .map_err(|e| format!("cannot run the C program: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!(
            "the C program failed ({}):\n{text}{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let status: i32 = text
        .lines()
        .find_map(|l| l.strip_prefix("status: "))
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| format!("no status line:\n{text}"))?;
    let got = reports(&text);
    if c.expect.is_empty() {
        if status != 0 || !got.is_empty() {
            return Err(format!(
                "a clean kernel was reported (status {status}):\n{text}"
            ));
        }
        return Ok(());
    }
    if status >= 0 {
        return Err(format!(
            "the command did not fail (status {status}):\n{text}"
        ));
    }
    if got != c.expect {
        return Err(format!("expected {:?}, got {got:?}:\n{text}", c.expect));
    }
    if !text.contains(&format!("kernel '{}'", c.kernel)) {
        return Err(format!("the reports do not name the kernel:\n{text}"));
    }
    for n in &c.other {
        if !text.contains(&format!("<source>:{n}:")) {
            return Err(format!("the other access (line {n}) is not named:\n{text}"));
        }
    }
    for want in &c.report {
        if !text.contains(want.as_str()) {
            return Err(format!("no report says '{want}':\n{text}"));
        }
    }
    Ok(())
}

#[test]
fn buggy_kernels_are_reported_through_c() {
    let exe = build_runner();
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("conformance/checked"))
        .expect("conformance/checked")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut buggy = 0;
    for path in &files {
        let name = path.file_stem().unwrap_or_default().to_string_lossy();
        match parse(path).and_then(|c| {
            buggy += usize::from(!c.expect.is_empty());
            run(&exe, path, &c)
        }) {
            Ok(()) => println!("ok   {name}"),
            Err(e) => {
                println!("FAIL {name}: {e}");
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(buggy >= 40, "only {buggy} buggy kernels");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn directives_are_validated() {
    let dir = std::env::temp_dir().join(format!("cranecl-checked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.cl");
    std::fs::write(
        &bad,
        "// @check bounds\n// @run k g=1 : buf(4)\n// @nonsense\n",
    )
    .unwrap();
    assert!(parse(&bad).unwrap_err().contains("unknown directive"));
    std::fs::write(
        &bad,
        "// @check bounds\n// @run k g=1 : buf(4)\nx; //! typo\n",
    )
    .unwrap();
    assert!(parse(&bad).unwrap_err().contains("unknown marker"));
    assert_eq!(
        reports("<source>:4:5: error: invalid write of 4 bytes at offset 8\n"),
        BTreeSet::from([("invalid-write".to_string(), 4)])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
