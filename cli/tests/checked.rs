//! `cranecl run` on every kernel of `conformance/checked/`, with the
//! case's `// @check` as `--check`, its `// @options` as
//! `--build-options` and its `// @run` translated to `--kernel`,
//! `--global`, `--local` and `--arg` (the directives
//! `conformance/tests/checked_c.rs` reads): a buggy kernel (one with
//! `//! KIND` markers) must exit 1 with a report at each marked line on
//! stderr (and each `// @report` text in a report), a clean one
//! (`clean_*`) must exit 0 with none. A case whose
//! kernel takes an image or a sampler is left to the C and Python runners
//! (`cranecl run` takes neither argument yet), and counted as such.

mod common;
use common::*;
use std::path::{Path, PathBuf};

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
    argv: Vec<String>,
    /// Lines with a report marker.
    marked: Vec<usize>,
    /// An `image…(…)` or `sampler(…)` argument (`cranecl run` takes none).
    images: bool,
    /// `@report TEXT`: texts some report must hold.
    report: Vec<String>,
}

/// `buf(N)`, `sub(P,O,B)`, `int(V)`, `local(N)`, `null` as `--arg` values.
fn arg(a: &str) -> Result<String, String> {
    let (name, inner) = match a.split_once('(') {
        Some((n, rest)) => (
            n,
            rest.strip_suffix(')').ok_or(format!("bad argument {a}"))?,
        ),
        None => (a, ""),
    };
    let nums: Vec<&str> = inner.split(',').collect();
    Ok(match (name, nums.as_slice()) {
        ("buf", [n]) => format!("buffer:uchar:{n}"),
        ("sub", [p, o, b]) => format!("buffer:uchar:{p}:sub={o},{b}"),
        ("int", [v]) => format!("int:{v}"),
        ("local", [n]) => format!("local:{n}"),
        ("null", _) => "null".to_string(),
        _ => return Err(format!("unknown argument {a}")),
    })
}

fn parse(path: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut c = Case {
        check: String::new(),
        options: String::new(),
        argv: vec!["run".into(), path.display().to_string()],
        marked: Vec::new(),
        images: false,
        report: Vec::new(),
    };
    let mut ran = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(d) = line.trim().strip_prefix("// @") {
            let (key, val) = d.split_once(' ').unwrap_or((d, ""));
            match key {
                "check" => c.check = val.trim().to_string(),
                "options" => c.options = val.trim().to_string(),
                "report" => c.report.push(val.trim().to_string()),
                "run" => {
                    let (head, args) = val.split_once(':').ok_or("@run without ':'")?;
                    let mut words = head.split_whitespace();
                    let kernel = words.next().ok_or("@run without a kernel")?;
                    c.argv.extend(["--kernel".into(), kernel.to_string()]);
                    for w in words {
                        match w.split_once('=') {
                            Some(("g", v)) => c.argv.extend(["--global".into(), v.to_string()]),
                            Some(("l", v)) => c.argv.extend(["--local".into(), v.to_string()]),
                            _ => return Err(format!("unknown @run word {w}")),
                        }
                    }
                    for a in args.split_whitespace() {
                        if a.starts_with("image") || a.starts_with("sampler(") {
                            c.images = true;
                            continue;
                        }
                        c.argv.extend(["--arg".into(), arg(a)?]);
                    }
                    ran = true;
                }
                other => return Err(format!("unknown directive @{other}")),
            }
        }
        if let Some((_, m)) = line.rsplit_once("//!") {
            for m in m.split_whitespace() {
                if KINDS.contains(&m) {
                    c.marked.push(i + 1);
                } else if m != "race-other" {
                    return Err(format!("line {}: unknown marker {m}", i + 1));
                }
            }
        }
    }
    if c.check.is_empty() || !ran {
        return Err("@check and @run are required".into());
    }
    c.argv.extend(["--check".into(), c.check.clone()]);
    if !c.options.is_empty() {
        c.argv.extend(["--build-options".into(), c.options.clone()]);
    }
    Ok(c)
}

fn run(path: &Path, c: &Case) -> Result<(), String> {
    let argv: Vec<&str> = c.argv.iter().map(String::as_str).collect();
    let out = cranecl(Path::new(env!("CARGO_MANIFEST_DIR")), &argv);
    if c.marked.is_empty() {
        if out.code != 0 || out.stderr.contains("error:") {
            return Err(format!(
                "a clean kernel was reported: {}\n{out}",
                c.argv.join(" ")
            ));
        }
        return Ok(());
    }
    if out.code != 1 {
        return Err(format!("expected exit 1: {}\n{out}", c.argv.join(" ")));
    }
    for n in &c.marked {
        if !out.stderr.contains(&format!("<source>:{n}:")) {
            return Err(format!(
                "no report at line {n} of {}:\n{out}",
                path.display()
            ));
        }
    }
    for want in &c.report {
        if !out.stderr.contains(want.as_str()) {
            return Err(format!("no report says '{want}':\n{out}"));
        }
    }
    Ok(())
}

#[test]
fn buggy_kernels_exit_1_and_clean_ones_0() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/checked");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/checked")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let (mut buggy, mut clean, mut images) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let result = parse(path).and_then(|c| {
            if c.images {
                images += 1;
                println!("skip {name}: image or sampler arguments (not taken by `cranecl run`)");
                return Ok(false);
            }
            if c.marked.is_empty() {
                clean += 1;
                if !name.starts_with("clean_") {
                    return Err("a case with no marker must be named clean_*".into());
                }
            } else {
                buggy += 1;
            }
            run(path, &c).map(|()| true)
        });
        match result {
            Ok(false) => {}
            Ok(true) => println!("ok   {name}"),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(
        buggy >= 40 && clean >= 3,
        "{buggy} buggy and {clean} clean kernels ({images} with images left out)"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn directives_translate_to_arguments() {
    assert_eq!(arg("buf(4096)").unwrap(), "buffer:uchar:4096");
    assert_eq!(
        arg("sub(4096,1024,128)").unwrap(),
        "buffer:uchar:4096:sub=1024,128"
    );
    assert_eq!(arg("int(-3)").unwrap(), "int:-3");
    assert_eq!(arg("local(256)").unwrap(), "local:256");
    assert_eq!(arg("null").unwrap(), "null");
    assert!(arg("image(4)").is_err());
    let dir = temp_dir("directives");
    let p = dir.join("k.cl");
    std::fs::write(
        &p,
        "// @check bounds\n// @run k g=8,2 l=4 : buf(32) int(2)\nx; //! race\n",
    )
    .unwrap();
    let c = parse(&p).unwrap();
    assert_eq!(c.marked, [3]);
    assert_eq!(
        c.argv[2..],
        [
            "--kernel",
            "k",
            "--global",
            "8,2",
            "--local",
            "4",
            "--arg",
            "buffer:uchar:32",
            "--arg",
            "int:2",
            "--check",
            "bounds"
        ]
    );
    std::fs::write(
        &p,
        "// @check bounds\n// @run k g=1 : buf(4)\nx; //! typo\n",
    )
    .unwrap();
    assert!(parse(&p).unwrap_err().contains("unknown marker"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_command_still_dumps_and_exits_1() {
    let dir = temp_dir("faildump");
    std::fs::write(
        dir.join("past.cl"),
        "kernel void past(global int *p)\n{\n    p[get_global_id(0) + 1] = 1;\n}\n",
    )
    .unwrap();
    // An expectation that would not hold: a failed command is 1 either way.
    std::fs::write(dir.join("expect.txt"), "p[0] = 5\n").unwrap();
    let out = cranecl(
        &dir,
        &[
            "run",
            "past.cl",
            "--kernel",
            "past",
            "--global",
            "4",
            "--check",
            "bounds",
            "--arg",
            "buffer:int:4:dump",
            "--expect",
            "expect.txt",
        ],
    );
    assert_eq!(out.code, 1, "{out}");
    assert!(out.stderr.contains("<source>:3:"), "{out}");
    assert!(
        out.stderr
            .contains("kernel 'past' failed: CL_OUT_OF_RESOURCES (-5)"),
        "{out}"
    );
    assert!(
        !out.stderr.contains("expected 5"),
        "expectations are not compared: {out}"
    );
    // The buffer is printed as the kernel left it (the bad write, here
    // one vector store for four work-items, went to a scratch block).
    assert_eq!(dumps(&out.stdout)["p"].len(), 4, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
