//! What the `cranecl` command's tests share: running the built binary and
//! reading the dumps it prints.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The command's exit status and what it printed.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Display for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `cranecl ARGS` in `dir`, with no `CRANECL_*` variable inherited.
pub fn cranecl(dir: &Path, args: &[&str]) -> Out {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cranecl"));
    c.current_dir(dir).args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("CRANECL_") {
            c.env_remove(k);
        }
    }
    output(&mut c)
}

pub fn output(c: &mut Command) -> Out {
    let o = c.output().expect("the command runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The folder of the tests' simulation files.
pub fn sim_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sim")
}

/// A fresh folder for one test's files.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cranecl-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create a temporary folder");
    d
}

/// The dumps in the output: each argument's printed values, in order.
/// Panics (fails the test) on a line that is not part of a dump.
pub fn dumps(stdout: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in stdout.lines() {
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("Argument '") {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            out.insert(name.clone(), Vec::new());
            current = Some(name);
            continue;
        }
        let name = current.as_ref().expect("a value line follows a header");
        let prefix = format!("  {name}[{}] = ", out[name].len());
        let value = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("expected '{prefix}...', got '{line}'"));
        out.get_mut(name).unwrap().push(value.to_string());
    }
    out
}

/// Asserts the printed floating-point values are `want` (to the six
/// significant digits the dump prints).
#[track_caller]
pub fn assert_floats(name: &str, got: &[String], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{name}: {got:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let v: f64 = g.parse().unwrap_or_else(|_| panic!("{name}[{i}] = {g}"));
        assert!(
            (v - w).abs() <= 1e-5 * w.abs().max(1e-30),
            "{name}[{i}] = {g}, expected {w}"
        );
    }
}

/// Asserts the printed integers are `want` (decimal, or `0x` hexadecimal
/// of the value's bit pattern in `bits` bits).
#[track_caller]
pub fn assert_ints(name: &str, got: &[String], want: &[i128], bits: u32) {
    assert_eq!(got.len(), want.len(), "{name}: {got:?}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let v = match g.strip_prefix("0x") {
            Some(h) => {
                let u = i128::from_str_radix(h, 16).unwrap_or_else(|_| panic!("{name}[{i}] = {g}"));
                // Compare bit patterns of the type's width.
                let mask = (1i128 << bits) - 1;
                assert_eq!(u & mask, w & mask, "{name}[{i}] = {g}, expected {w}");
                continue;
            }
            None => g
                .parse::<i128>()
                .unwrap_or_else(|_| panic!("{name}[{i}] = {g}")),
        };
        assert_eq!(v, *w, "{name}[{i}] = {g}, expected {w}");
    }
}
