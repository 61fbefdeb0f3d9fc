//! `CRANECL_PERF_MAP`: the JIT's machine code named for `perf` in
//! `/tmp/perf-PID.map` (address, size, `cranecl:NAME`), and with `code`
//! its bytes beside it, so that samples in kernels get their names.

mod common;
use common::*;
use std::process::Command;

const KERNEL: &str = "float twice(float v) { return 2.0f * v; }\n\
kernel void scale_by_two(global float *x) { size_t i = get_global_id(0); x[i] = twice(x[i]); }\n";

/// Runs the kernel with `CRANECL_PERF_MAP=value`; the map's lines that
/// name cranecl's functions, and the process id.
fn run_with(value: &str, name: &str) -> (Vec<String>, u32) {
    let dir = temp_dir(name);
    std::fs::write(dir.join("k.cl"), KERNEL).unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_cranecl"));
    c.current_dir(&dir)
        .args(["run", "k.cl", "--kernel", "scale_by_two", "--global", "64"])
        .args(["--arg", "buffer:float:64:dump"])
        .env("CRANECL_PERF_MAP", value);
    let child = c
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cranecl runs");
    let pid = child.id();
    let o = child.wait_with_output().expect("cranecl ends");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let map = std::path::PathBuf::from(format!("/tmp/perf-{pid}.map"));
    let text = std::fs::read_to_string(&map).expect("the perf map was written");
    let _ = std::fs::remove_file(&map);
    let lines = text
        .lines()
        .filter(|l| l.contains(" cranecl:"))
        .map(str::to_string)
        .collect();
    (lines, pid)
}

#[test]
fn the_perf_map_names_each_kernel_and_function() {
    let (lines, pid) = run_with("1", "perf-map");
    for name in ["scale_by_two", "twice"] {
        let line = lines
            .iter()
            .find(|l| l.ends_with(&format!(" cranecl:{name}")))
            .unwrap_or_else(|| panic!("no line names {name}: {lines:?}"));
        let mut f = line.split(' ');
        let at = u64::from_str_radix(f.next().unwrap(), 16).expect("a hex address");
        let size = u64::from_str_radix(f.next().unwrap(), 16).expect("a hex size");
        assert!(at != 0 && size > 0, "{line}");
    }
    // Without `code`, no machine code is written.
    let bins = std::fs::read_dir("/tmp")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("cranecl-{pid}-"))
        })
        .count();
    assert_eq!(bins, 0);
}

#[test]
fn with_code_each_function_s_bytes_are_written_beside_the_map() {
    let (lines, pid) = run_with("code", "perf-map-code");
    assert!(!lines.is_empty());
    for line in &lines {
        let mut f = line.split(' ');
        let at = f.next().unwrap();
        let size = usize::from_str_radix(f.next().unwrap(), 16).unwrap();
        let file = format!("/tmp/cranecl-{pid}-{at}.bin");
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let _ = std::fs::remove_file(&file);
        assert_eq!(bytes.len(), size, "{line}");
    }
}
