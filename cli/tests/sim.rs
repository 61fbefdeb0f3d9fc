//! `cranecl run FILE.sim` on the simulation files of `tests/sim/`, which
//! between them use every argument form of Oclgrind's format (buffers from
//! a range, a fill, inline values over several lines, `noinit`, `null`,
//! `ro`/`wo`, `hex`, every element type, scalars, a vector, a local memory
//! size; and cranecl's `file=` and `sub=`). Each run's dumps are compared
//! with values computed here; where `oclgrind-kernel` is installed, its
//! output for the same file must be the same text. The command-line form
//! (`--kernel`, `--global`, `--arg`) must print what the file prints, and
//! `--expect`/`--dump-dir` are checked against the same launches.

mod common;
use common::*;

/// The files Oclgrind reads too (the rest use cranecl's additions).
const OCLGRIND_FILES: [&str; 5] = ["vecadd", "scalars", "types", "local", "null_flags"];

fn run_sim(name: &str) -> Out {
    let out = cranecl(&sim_dir(), &["run", &format!("{name}.sim")]);
    assert_eq!(out.code, 0, "{name}.sim: {out}");
    out
}

fn vecadd_reference() -> Vec<f64> {
    (0..16).map(|i| f64::from(i as f32 * 0.25 + 1.5)).collect()
}

#[test]
fn float_buffers_from_a_range_and_a_fill() {
    let d = dumps(&run_sim("vecadd").stdout);
    assert_eq!(
        d.keys().collect::<Vec<_>>(),
        ["c"],
        "only 'c' is marked dump"
    );
    assert_floats("c", &d["c"], &vecadd_reference());
}

fn scalars_reference() -> (Vec<f64>, Vec<i128>, Vec<f64>) {
    let (k, v, mask, dd, big) = (
        -3.0f32,
        [1.5f32, -2.0, 0.25, 8.0],
        0xffu32,
        0.125f64,
        -5_000_000_000i64,
    );
    let input = [1i32, 2, 3, 4, 16, -6, 7, 300];
    let out = (0..8)
        .map(|i| f64::from(v[i & 3] * k + input[i] as f32))
        .collect();
    let lout = input
        .iter()
        .map(|&x| i128::from(big + i64::from(x as u32 & mask)))
        .collect();
    let dout = input.iter().map(|&x| dd * f64::from(x)).collect();
    (out, lout, dout)
}

#[test]
fn scalars_a_vector_and_inline_values() {
    let d = dumps(&run_sim("scalars").stdout);
    let (out, lout, dout) = scalars_reference();
    assert_floats("out", &d["out"], &out);
    assert_ints("lout", &d["lout"], &lout, 64);
    assert_floats("dout", &d["dout"], &dout);
}

#[test]
fn every_element_type_and_hex() {
    let d = dumps(&run_sim("types").stdout);
    let twice = |start: i128, step: i128, bits: u32, signed: bool| -> Vec<i128> {
        (0..4)
            .map(|i| {
                let m = (1i128 << bits) - 1;
                let v = ((start + i * step) * 2 + 1) & m;
                if signed && v >> (bits - 1) == 1 {
                    v - (1 << bits)
                } else {
                    v
                }
            })
            .collect()
    };
    assert_ints("c", &d["c"], &twice(-2, 1, 8, true), 8);
    assert_ints("uc", &d["uc"], &twice(0xfa, 1, 8, false), 8);
    assert!(
        d["uc"].iter().all(|v| v.starts_with("0x") && v.len() == 4),
        "{:?}",
        d["uc"]
    );
    assert_ints("s", &d["s"], &twice(-300, 100, 16, true), 16);
    assert_ints("us", &d["us"], &twice(65530, 1, 16, false), 16);
    assert_ints("i", &d["i"], &twice(-1, 1, 32, true), 32);
    assert!(d["i"].iter().all(|v| v.len() == 10), "{:?}", d["i"]);
    assert_ints("ui", &d["ui"], &twice(4_000_000_000, 1, 32, false), 32);
    assert_ints("l", &d["l"], &twice(-4, 2, 64, true), 64);
    assert_ints("ul", &d["ul"], &twice(1, 1, 64, false), 64);
}

fn local_reference() -> Vec<i128> {
    (0..32)
        .map(|g: i128| (g / 8) * 8 + 7 - g % 8 + (g / 8) * 1000)
        .collect()
}

#[test]
fn a_local_memory_argument() {
    let d = dumps(&run_sim("local").stdout);
    assert_ints("out", &d["out"], &local_reference(), 32);
}

fn null_flags_reference() -> Vec<f64> {
    let table = [3.0f32, -1.0];
    (0..8)
        .map(|i| f64::from(100.0 + i as f32 * table[i / 4]))
        .collect()
}

#[test]
fn null_read_only_write_only_and_two_dimensions() {
    let d = dumps(&run_sim("null_flags").stdout);
    assert_floats("out", &d["out"], &null_flags_reference());
}

#[test]
fn a_buffer_from_a_file_and_a_sub_buffer() {
    let d = dumps(&run_sim("file_sub").stdout);
    let text = std::fs::read(sim_dir().join("file_sub.txt")).unwrap();
    assert_eq!(
        text.len(),
        8,
        "file_sub.txt holds the 8 bytes the launch reads"
    );
    let upper: Vec<i128> = text
        .iter()
        .map(|c| i128::from(c.to_ascii_uppercase()))
        .collect();
    assert_ints("upper", &d["upper"], &upper, 8);
    let part: Vec<i128> = (32..40).map(|i| i * 10).collect();
    assert_ints("part", &d["part"], &part, 32);
}

fn oclgrind_installed() -> bool {
    std::process::Command::new("oclgrind-kernel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn oclgrind_kernel_prints_the_same_dumps() {
    if !oclgrind_installed() {
        println!("skipped: oclgrind-kernel is not installed (Debian package oclgrind)");
        return;
    }
    for name in OCLGRIND_FILES {
        let ours = run_sim(name);
        let theirs = output(
            std::process::Command::new("oclgrind-kernel")
                .current_dir(sim_dir())
                .arg(format!("{name}.sim")),
        );
        assert_eq!(theirs.code, 0, "oclgrind-kernel {name}.sim: {theirs}");
        assert!(!ours.stdout.is_empty());
        assert_eq!(
            ours.stdout, theirs.stdout,
            "{name}.sim: cranecl, then oclgrind-kernel"
        );
    }
}

#[test]
fn the_command_line_form_prints_what_the_file_prints() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "vecadd",
            &[
                "vecadd.cl",
                "--kernel",
                "vecadd",
                "--global",
                "16",
                "--local",
                "4",
                "--arg",
                "buffer:float:16:range=0,0.25",
                "--arg",
                "buffer:float:16:fill=1.5",
                "--arg",
                "buffer:float:16:noinit:dump",
            ],
        ),
        (
            "scalars",
            &[
                "scalars.cl",
                "--kernel",
                "scalars",
                "--global",
                "8",
                "--local",
                "8",
                "--arg",
                "int:-3",
                "--arg",
                "float4:1.5,-2,0.25,8",
                "--arg",
                "uint:0xff",
                "--arg",
                "double:0.125",
                "--arg",
                "long:-5000000000",
                "--arg",
                "<size=32> 1 2 3 4 16 -6 7 300",
                "--arg",
                "buffer:float:8:noinit:dump",
                "--arg",
                "buffer:long:8:dump",
                "--arg",
                "buffer:double:8:dump",
            ],
        ),
        (
            "local",
            &[
                "local.cl",
                "--kernel",
                "reverse",
                "--global",
                "32",
                "--local",
                "8",
                "--arg",
                "buffer:int:32:range=0,1",
                "--arg",
                "buffer:int:32:dump",
                "--arg",
                "local:32",
            ],
        ),
        (
            "null_flags",
            &[
                "null_flags.cl",
                "--kernel",
                "null_flags",
                "--global",
                "4,2",
                "--local",
                "2,2",
                "--arg",
                "null",
                "--arg",
                "buffer:float:8:ro:range=0,1",
                "--arg",
                "buffer:float:8:wo:noinit:dump",
                "--arg",
                "<size=8> 3 -1",
            ],
        ),
    ];
    for (name, args) in cases {
        let file = run_sim(name);
        let mut argv = vec!["run"];
        argv.extend_from_slice(args);
        let line = cranecl(&sim_dir(), &argv);
        assert_eq!(line.code, 0, "{name} from the command line: {line}");
        assert_eq!(
            line.stdout, file.stdout,
            "{name}: the command line, then the file"
        );
    }
}

/// An expectation file for vecadd's `c`, one value changed by `edit`.
fn vecadd_expect(dir: &std::path::Path, edit: impl Fn(usize, f64) -> f64) -> std::path::PathBuf {
    let text: String = vecadd_reference()
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("c[{i}] = {}\n", edit(i, v)))
        .collect();
    let p = dir.join("expect.txt");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn expectations_hold_or_name_the_value_that_differs() {
    let dir = temp_dir("expect");
    let sim = sim_dir().join("vecadd.sim");
    let sim = sim.to_str().unwrap();
    let run = |expect: &std::path::Path, extra: &[&str]| {
        let mut a = vec!["run", sim, "--expect", expect.to_str().unwrap()];
        a.extend_from_slice(extra);
        cranecl(&dir, &a)
    };
    let exact = vecadd_expect(&dir, |_, v| v);
    let out = run(&exact, &[]);
    assert_eq!(out.code, 0, "{out}");

    // Off by one part in 10^7: within the default tolerance, not within 0.
    let close = vecadd_expect(&dir, |i, v| if i == 3 { v * (1.0 + 1e-7) } else { v });
    assert_eq!(run(&close, &[]).code, 0);
    let out = run(&close, &["--tolerance", "0"]);
    assert_eq!(out.code, 1, "{out}");

    let wrong = vecadd_expect(&dir, |i, v| if i == 5 { v + 1.0 } else { v });
    let out = run(&wrong, &[]);
    assert_eq!(out.code, 1, "{out}");
    let want = vecadd_reference()[5];
    let head = format!(
        "{}:6:8: error: c[5] = {want}, expected {}\nc[5] = {}\n       ^",
        wrong.display(),
        want + 1.0,
        want + 1.0
    );
    assert!(out.stderr.contains(&head), "expected\n{head}\nin\n{out}");
    assert!(
        out.stderr.contains("1 of 16 expected values differ"),
        "{out}"
    );

    // An expectation naming no buffer is bad input.
    let p = dir.join("other.txt");
    std::fs::write(&p, "c[0] = 1.5\nd[0] = 1\n").unwrap();
    let out = run(&p, &[]);
    assert_eq!(out.code, 2, "{out}");
    assert!(
        out.stderr
            .contains(":2:1: error: no buffer argument named 'd'"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dumps_go_to_files_that_are_expectations() {
    let dir = temp_dir("dumpdir");
    let sim = sim_dir().join("vecadd.sim");
    let sim = sim.to_str().unwrap();
    let out = cranecl(&dir, &["run", sim, "--dump-dir", "dumps"]);
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(out.stdout, "", "with --dump-dir nothing goes to stdout");
    let bytes = std::fs::read(dir.join("dumps/c.bin")).unwrap();
    let want: Vec<u8> = vecadd_reference()
        .iter()
        .flat_map(|&v| (v as f32).to_le_bytes())
        .collect();
    assert_eq!(bytes, want, "c.bin holds the buffer's bytes");
    let out = cranecl(
        &dir,
        &[
            "run",
            sim,
            "--expect",
            "dumps/c.txt",
            "--dump",
            "--dump-dir",
            "again",
        ],
    );
    assert_eq!(out.code, 0, "{out}");
    assert_eq!(
        dumps(&out.stdout)["c"].len(),
        16,
        "--dump prints as well: {out}"
    );
    assert!(dir.join("again/c.txt").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
