//! Agreement with clang-14: every corpus program (but those marked
//! `// CLANG: skip <reason>`) goes through Debian's `clang-14 -x cl
//! -fsyntax-only` with the same build options and the same device features,
//! and cranecl must accept exactly what clang accepts.
//!
//! The features come from `cranecl_jit::features` (the list the device
//! advertises): clang gets `-cl-ext=-all,+<each extension>,+<each feature>`,
//! so adding a feature to that table changes both sides at once.
//!
//! Without clang-14 the tests are skipped, unless `CI=true`, where they fail
//! (`scripts/install-deps.sh` installs it).
#![forbid(unsafe_code)]

#[path = "corpus/harness.rs"]
mod harness;

use harness::{load_corpus, Program, Verdict};
use std::process::Command;

const CLANG: &str = "clang-14";

/// Whether clang-14 can run here; panics under `CI=true` when it cannot.
fn clang_available() -> bool {
    let found = Command::new(CLANG)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{CLANG} not found: it is the front end's oracle in CI; run scripts/install-deps.sh"
        );
    }
    if !found {
        eprintln!("skipped: {CLANG} not found (scripts/install-deps.sh installs it)");
    }
    found
}

/// `-cl-ext=-all,+...`: exactly the extensions and OpenCL C features cranecl advertises.
fn clang_cl_ext() -> String {
    use cranecl_jit::features::{EXTENSIONS, OPENCL_C_FEATURES};
    let mut ext = String::from("-cl-ext=-all");
    for nv in EXTENSIONS.iter().chain(OPENCL_C_FEATURES) {
        ext.push_str(",+");
        ext.push_str(nv.name);
    }
    ext
}

/// clang's arguments for a program's build options: `-cl-std` (CL1.2 when
/// absent, as OpenCL's default is the highest 1.x version), `-D`, `-I`, `-w`,
/// `-Werror` and the `-cl-*` flags pass through; clang's driver knows them all.
fn clang_args(options: &str) -> Vec<String> {
    let mut args = vec![
        "-x".to_string(),
        "cl".into(),
        "-target".into(),
        "spir64".into(),
        "-fsyntax-only".into(),
        "-ferror-limit=0".into(),
        "-Xclang".into(),
        "-finclude-default-header".into(),
        "-Xclang".into(),
        clang_cl_ext(),
    ];
    let mut std = "-cl-std=CL1.2".to_string();
    let mut tokens = options.split_whitespace();
    while let Some(t) = tokens.next() {
        if t.starts_with("-cl-std=") {
            std = t.to_string();
        } else if t == "-D" || t == "-I" {
            args.push(t.to_string());
            args.extend(tokens.next().map(str::to_string));
        } else {
            args.push(t.to_string());
        }
    }
    // clang-14's `-cl-ext` does not define this feature's macro, which its
    // header reads to declare the collectives: define it as the device
    // advertises it.
    let collectives = "__opencl_c_work_group_collective_functions";
    if std == "-cl-std=CL3.0"
        && cranecl_jit::features::OPENCL_C_FEATURES
            .iter()
            .any(|f| f.name == collectives)
    {
        args.push(format!("-D{collectives}=1"));
    }
    args.push(std);
    args
}

/// clang's verdict on a program and its diagnostics, or why clang could not run.
type ClangResult = Result<(Verdict, String), String>;

/// clang's verdict on one program, and its diagnostics.
fn clang_verdict(program: &Program) -> ClangResult {
    let out = Command::new(CLANG)
        .args(clang_args(&program.options()))
        .arg(&program.path)
        .output()
        .map_err(|e| format!("cannot run {CLANG}: {e}"))?;
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    let verdict = if out.status.success() {
        Verdict::Ok
    } else {
        Verdict::Error
    };
    Ok((verdict, log))
}

/// clang's verdicts for all programs not marked `CLANG: skip`, in parallel.
fn clang_verdicts(programs: &[Program]) -> Vec<(&Program, ClangResult)> {
    let checked: Vec<&Program> = programs
        .iter()
        .filter(|p| p.directives.clang_skip.is_none())
        .collect();
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(1);
    let chunk = checked.len().div_ceil(workers).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = checked
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|p| (*p, clang_verdict(p)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The corpus programs that run on this device (`REQUIRES:` met).
fn corpus() -> Vec<Program> {
    use cranecl_jit::features::{EXTENSIONS, OPENCL_C_FEATURES};
    let advertised: Vec<&str> = EXTENSIONS
        .iter()
        .chain(OPENCL_C_FEATURES)
        .map(|nv| nv.name)
        .collect();
    load_corpus(&harness::corpus_root())
        .unwrap_or_else(|problems| panic!("malformed corpus:\n{}", problems.join("\n")))
        .into_iter()
        .filter(|p| p.runs_on(&advertised))
        .collect()
}

/// The corpus's own expectations agree with clang: a program expected to
/// build is one clang accepts. (This keeps the corpus honest before and
/// independently of cranecl's verdicts.)
#[test]
fn corpus_expectations_agree_with_clang() {
    if !clang_available() {
        return;
    }
    let programs = corpus();
    let verdicts = clang_verdicts(&programs);
    let mut failures = Vec::new();
    for (program, result) in &verdicts {
        match result {
            Ok((clang, _)) if *clang == program.directives.verdict => {}
            Ok((clang, log)) => failures.push(format!(
                "{}: corpus expects {}, clang says {clang}\n    {}",
                program.display,
                program.directives.verdict,
                harness::excerpt(log, 600)
            )),
            Err(e) => failures.push(format!("{}: {e}", program.display)),
        }
    }
    eprintln!(
        "clang agrees with {} of {} corpus expectations",
        verdicts.len() - failures.len(),
        verdicts.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Builds one program with `frontend::compile`, in a child process (see
/// `harness::child_main`); does nothing when run as an ordinary test.
#[test]
fn cranecl_child() {
    use cranecl_jit::{frontend, options::BuildOptions};
    harness::child_main(|program| {
        let options = BuildOptions::parse(&program.options())
            .map_err(|e| format!("options rejected: {e}"))?;
        let out = frontend::compile(&program.source, &program.file_name, &options, &[]);
        Ok((out.success, out.log))
    });
}

/// cranecl accepts exactly the programs clang accepts. Each cranecl build
/// runs in its own process: a crash there is a disagreement, not a lost run.
#[test]
fn cranecl_accepts_exactly_what_clang_accepts() {
    if !clang_available() {
        return;
    }
    let programs: Vec<Program> = corpus()
        .into_iter()
        .filter(|p| p.directives.clang_skip.is_none())
        .collect();
    let ours = harness::build_in_children(&programs, "cranecl_child");
    let verdicts = clang_verdicts(&programs);
    let mut failures = Vec::new();
    for ((program, clang), (same, cranecl)) in verdicts.iter().zip(&ours) {
        assert_eq!(program.path, same.path, "results out of order");
        let (clang, clang_log) = match clang {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{}: {e}", program.display));
                continue;
            }
        };
        let (ours, our_log) = match cranecl {
            Ok((v, log)) => (v.to_string(), log.as_str()),
            Err(e) => ("a crash".to_string(), e.as_str()),
        };
        if ours != clang.to_string() {
            failures.push(format!(
                "{}: clang says {clang}, cranecl says {ours}\n    clang: {}\n    cranecl: {}",
                program.display,
                harness::excerpt(clang_log, 400),
                harness::excerpt(our_log, 400)
            ));
        }
    }
    eprintln!(
        "cranecl agrees with clang on {} of {} programs",
        verdicts.len() - failures.len(),
        verdicts.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn clang_args_mirror_build_options() {
    let args = clang_args("-cl-std=CL2.0 -D N=4 -DM -I /inc -w -cl-mad-enable");
    let tail: Vec<&str> = args.iter().map(String::as_str).skip(10).collect();
    assert_eq!(
        tail,
        [
            "-D",
            "N=4",
            "-DM",
            "-I",
            "/inc",
            "-w",
            "-cl-mad-enable",
            "-cl-std=CL2.0"
        ]
    );
    assert!(clang_args("").contains(&"-cl-std=CL1.2".to_string()));
}
