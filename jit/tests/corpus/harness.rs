//! The corpus format and its checker, shared by `tests/corpus.rs` (cranecl's
//! verdicts) and `tests/clang_agreement.rs` (clang-14's verdicts).
//!
//! The corpus is directory-driven: `tests/corpus/<category>/<name>.cl`. Each
//! program opens with a block of `//` comment lines; in that block a line of the
//! form `// WORD: ...` (WORD in capitals) is a directive, and an unknown WORD is
//! an error, so a typo cannot silently disable a check:
//!
//! ```text
//! // RUN: -cl-std=CL2.0 -D N=4       build options (%S = the program's folder); once
//! // EXPECT: ok | error                the build succeeds or fails; once
//! // ERROR: 12: address space          an error at line 12 whose message contains ...
//! // ERROR: inc.h:3: undeclared        the same, in an included file (end of its path)
//! // WARNING: 7: unknown attribute     a warning at line 7 whose message contains ...
//! // CLANG: skip <reason>              clang-14 is not the oracle for this program
//! // REQUIRES: cl_khr_fp64, !__opencl_c_generic_address_space
//! //                                   run only if the device advertises (or, with
//! //                                   `!`, does not advertise) each extension/feature
//! ```
//!
//! An `error` program names at least one `ERROR`; an `ok` program names none.
//! [`check_build`] compares a build log with the expectations, looking for
//! clang-style lines `<file>:<line>:<col>: error: <message>`.
#![forbid(unsafe_code)]
#![allow(dead_code)] // each test crate uses its own part of this module

use std::fmt;
use std::path::{Path, PathBuf};

/// Whether a program must build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    Error,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Ok => "ok",
            Verdict::Error => "error",
        })
    }
}

/// One expected diagnostic: its file (the program's own when `None`; else a
/// header, matched by the end of its path), line, and a substring of its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    pub file: Option<String>,
    pub line: u32,
    pub message: String,
}

/// The directives of one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directives {
    /// Build options as written after `RUN:` (before `%S` expansion).
    pub run: String,
    pub verdict: Verdict,
    pub errors: Vec<Expected>,
    pub warnings: Vec<Expected>,
    /// `CLANG: skip <reason>`: why clang is not the oracle here.
    pub clang_skip: Option<String>,
    /// `REQUIRES:` names: (wanted, name); `!name` means must be absent.
    pub requires: Vec<(bool, String)>,
}

/// A corpus program: where it lives, its text and its directives.
#[derive(Clone, Debug)]
pub struct Program {
    pub path: PathBuf,
    /// `<category>/<name>.cl`, for messages.
    pub display: String,
    /// The file name handed to the compiler (and expected in the log).
    pub file_name: String,
    pub source: String,
    pub directives: Directives,
}

impl Program {
    /// Whether the device's advertised extensions and features (`advertised`)
    /// meet this program's `REQUIRES:` line.
    pub fn runs_on(&self, advertised: &[&str]) -> bool {
        self.directives
            .requires
            .iter()
            .all(|(wanted, name)| advertised.contains(&name.as_str()) == *wanted)
    }

    /// The build options with `%S` replaced by the program's folder.
    pub fn options(&self) -> String {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        self.directives
            .run
            .replace("%S", &dir.display().to_string())
    }
}

/// `[<file>:]<line>: <message substring>` of an `ERROR`/`WARNING` directive.
fn parse_expected(kind: &str, value: &str) -> Result<Expected, String> {
    let malformed =
        || format!("malformed {kind} directive `{value}`: want `[<file>:]<line>: <message>`");
    let (first, rest) = value.split_once(':').ok_or_else(malformed)?;
    let (file, line, message) = match first.trim().parse::<u32>() {
        Ok(line) => (None, line, rest),
        Err(_) => {
            let (line, message) = rest.split_once(':').ok_or_else(malformed)?;
            let line = line.trim().parse::<u32>().map_err(|_| malformed())?;
            (Some(first.trim()), line, message)
        }
    };
    let message = message.trim();
    let file_ok = file.is_none_or(|f| !f.is_empty() && !f.contains(char::is_whitespace));
    if line == 0 || message.is_empty() || !file_ok {
        return Err(malformed());
    }
    Ok(Expected {
        file: file.map(str::to_string),
        line,
        message: message.to_string(),
    })
}

/// A directive's keyword and value, if the comment line has the `// WORD: value` shape.
fn split_directive(comment: &str) -> Option<(&str, &str)> {
    let (word, value) = comment.trim_start().split_once(':')?;
    let is_keyword = !word.is_empty()
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-' || c == '_');
    is_keyword.then(|| (word, value.trim()))
}

/// Reads the directives of the leading comment block of `source`.
pub fn parse_directives(source: &str) -> Result<Directives, String> {
    let mut run = None;
    let mut verdict = None;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut clang_skip = None;
    let mut requires = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let Some(comment) = line.strip_prefix("//") else {
            break;
        };
        let Some((word, value)) = split_directive(comment) else {
            continue;
        };
        let at = |msg: String| format!("line {}: {msg}", index + 1);
        match word {
            "RUN" => {
                if run.replace(value.to_string()).is_some() {
                    return Err(at("RUN given twice".into()));
                }
            }
            "EXPECT" => {
                let v = match value {
                    "ok" => Verdict::Ok,
                    "error" => Verdict::Error,
                    _ => return Err(at(format!("EXPECT must be `ok` or `error`, not `{value}`"))),
                };
                if verdict.replace(v).is_some() {
                    return Err(at("EXPECT given twice".into()));
                }
            }
            "ERROR" => errors.push(parse_expected(word, value).map_err(at)?),
            "WARNING" => warnings.push(parse_expected(word, value).map_err(at)?),
            "CLANG" => {
                let reason = value.strip_prefix("skip").map(str::trim).unwrap_or("");
                if !value.starts_with("skip") || reason.is_empty() {
                    return Err(at(format!("CLANG must be `skip <reason>`, not `{value}`")));
                }
                clang_skip = Some(reason.to_string());
            }
            "REQUIRES" => {
                for item in value.split([',', ' ']).filter(|s| !s.is_empty()) {
                    let (wanted, name) = match item.strip_prefix('!') {
                        Some(name) => (false, name),
                        None => (true, item),
                    };
                    if !(name.starts_with("cl_") || name.starts_with("__opencl_c_")) {
                        return Err(at(format!("REQUIRES names an extension (cl_*) or a feature (__opencl_c_*), not `{item}`")));
                    }
                    requires.push((wanted, name.to_string()));
                }
                if requires.is_empty() {
                    return Err(at("REQUIRES without a name".into()));
                }
            }
            _ => return Err(at(format!("unknown directive `{word}`"))),
        }
    }
    let run = run.ok_or("no `// RUN:` directive")?;
    let verdict = verdict.ok_or("no `// EXPECT:` directive")?;
    match (verdict, errors.is_empty()) {
        (Verdict::Error, true) => return Err("EXPECT: error without any ERROR line".into()),
        (Verdict::Ok, false) => return Err("EXPECT: ok with ERROR lines".into()),
        _ => {}
    }
    Ok(Directives {
        run,
        verdict,
        errors,
        warnings,
        clang_skip,
        requires,
    })
}

/// The corpus root: `jit/tests/corpus`.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

/// Loads every `<category>/<name>.cl` under `root`, sorted by path. Every
/// malformed program is reported, not just the first.
pub fn load_corpus(root: &Path) -> Result<Vec<Program>, Vec<String>> {
    let mut paths = Vec::new();
    let mut problems = Vec::new();
    collect_cl_files(root, &mut paths, &mut problems);
    paths.sort();
    let mut programs = Vec::new();
    for path in paths {
        let display = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let source = match std::fs::read_to_string(&path) {
            Ok(s) => s,
            Err(e) => {
                problems.push(format!("{display}: cannot read: {e}"));
                continue;
            }
        };
        match parse_directives(&source) {
            Ok(directives) => programs.push(Program {
                path,
                display,
                file_name,
                source,
                directives,
            }),
            Err(e) => problems.push(format!("{display}: {e}")),
        }
    }
    if programs.is_empty() && problems.is_empty() {
        problems.push(format!("no programs under {}", root.display()));
    }
    if problems.is_empty() {
        Ok(programs)
    } else {
        Err(problems)
    }
}

/// Programs live one folder deep (`<category>/*.cl`); helper headers beside
/// them (`*.h`, `*.clh`) and files at the root (this module) are not programs.
fn collect_cl_files(root: &Path, out: &mut Vec<PathBuf>, problems: &mut Vec<String>) {
    let entries = match std::fs::read_dir(root) {
        Ok(e) => e,
        Err(e) => return problems.push(format!("{}: {e}", root.display())),
    };
    for entry in entries.flatten() {
        let category = entry.path();
        if !category.is_dir() {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&category) else {
            problems.push(format!("{}: unreadable", category.display()));
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "cl") {
                out.push(path);
            }
        }
    }
}

/// The number of programs per category, sorted by category.
pub fn count_by_category(programs: &[Program]) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::new();
    for p in programs {
        let category = p.display.split('/').next().unwrap_or("").to_string();
        *counts.entry(category).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

/// Whether `log` holds a `<file>:<line>:<col>: <level>: <message>` line
/// whose message contains `expected.message`. `file_name` is the program's
/// name; an expectation naming a header matches any path ending in `/<header>`.
pub fn log_has(log: &str, file_name: &str, level: &str, expected: &Expected) -> bool {
    let marker = format!(": {level}: ");
    log.lines().any(|line| {
        let Some(at) = line.find(&marker) else {
            return false;
        };
        let message = &line[at + marker.len()..];
        let mut location = line[..at].rsplitn(3, ':');
        let (Some(col), Some(line_no), Some(path)) =
            (location.next(), location.next(), location.next())
        else {
            return false;
        };
        let file_ok = match &expected.file {
            None => path == file_name,
            Some(header) => path == header || path.ends_with(&format!("/{header}")),
        };
        file_ok
            && !col.is_empty()
            && col.chars().all(|c| c.is_ascii_digit())
            && line_no == expected.line.to_string()
            && message.contains(&expected.message)
    })
}

/// Compares one build (its success flag and log) with the program's
/// expectations; each difference is one line of the returned list.
pub fn check_build(program: &Program, success: bool, log: &str) -> Vec<String> {
    let d = &program.directives;
    let mut problems = Vec::new();
    let got = if success { Verdict::Ok } else { Verdict::Error };
    if got != d.verdict {
        problems.push(format!("expected {}, got {got}", d.verdict));
    }
    for e in &d.errors {
        if !log_has(log, &program.file_name, "error", e) {
            problems.push(format!("missing error at line {}: `{}`", e.line, e.message));
        }
    }
    for w in &d.warnings {
        if !log_has(log, &program.file_name, "warning", w) {
            problems.push(format!(
                "missing warning at line {}: `{}`",
                w.line, w.message
            ));
        }
    }
    problems
}

/// The first `max` characters of a log, for failure reports.
pub fn excerpt(log: &str, max: usize) -> String {
    let mut s: String = log.chars().take(max).collect();
    if s.len() < log.len() {
        s.push_str("\n    [...]");
    }
    s.replace('\n', "\n    ")
}

// ---- running each build in its own process ----
//
// A front-end bug may abort the process (a failed allocation, a stack
// overflow) or hang, which no `catch_unwind` survives. So each program is
// built by a child: the test binary itself, re-run with `CHILD_ENV` naming the
// program and a filter selecting the test that calls [`child_main`]. The child
// prints the verdict and log between markers; the parent reads them, and
// reports a child that died or ran past [`CHILD_TIMEOUT`] as a failure.

/// Names the program a child process builds.
pub const CHILD_ENV: &str = "CRANECL_CORPUS_CHILD";
/// How long one build may take before it counts as a hang.
pub const CHILD_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
const VERDICT_MARK: &str = "@@cranecl-verdict ";
const LOG_MARK: &str = "@@cranecl-log\n";
const END_MARK: &str = "@@cranecl-end\n";

/// What building one program in a child gave: its verdict and log, or how
/// the child failed (a panic, an abort, a hang).
pub type ChildResult = Result<(Verdict, String), String>;

/// In the child: if `CHILD_ENV` names a program, build it with `build`
/// (success flag and log) and print the result for the parent.
pub fn child_main(build: impl FnOnce(&Program) -> Result<(bool, String), String>) {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return; // Not a child: nothing to do.
    };
    let path = PathBuf::from(path);
    let source =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let directives =
        parse_directives(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let program = Program {
        display: file_name.clone(),
        path,
        file_name,
        source,
        directives,
    };
    match build(&program) {
        Ok((success, log)) => {
            let verdict = if success { Verdict::Ok } else { Verdict::Error };
            println!("{VERDICT_MARK}{verdict}\n{LOG_MARK}{log}{END_MARK}");
        }
        Err(e) => panic!("{e}"),
    }
}

/// In the parent: builds every program in a child process of the test
/// binary, `child_test` being the test that calls [`child_main`]; as many
/// children at once as there are cores.
pub fn build_in_children<'p>(
    programs: &'p [Program],
    child_test: &str,
) -> Vec<(&'p Program, ChildResult)> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(program) = programs.get(i) else {
                    break;
                };
                let result = build_in_child(program, child_test);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, result));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results
        .into_iter()
        .map(|(i, r)| (&programs[i], r))
        .collect()
}

/// All of a child's pipe, read to its end (lossy: a log is text).
fn read_all(pipe: Option<impl std::io::Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(mut p) = pipe {
        let _ = p.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs one child and waits for it (polling, so a hang can be killed).
fn build_in_child(program: &Program, child_test: &str) -> ChildResult {
    use std::process::{Command, Stdio};
    // `/proc/self/exe` still runs this binary after a concurrent `cargo test`
    // has replaced the file on disk (the shared target folder); elsewhere, its path.
    let proc_self = Path::new("/proc/self/exe");
    let exe = if proc_self.exists() {
        proc_self.to_path_buf()
    } else {
        std::env::current_exe().map_err(|e| format!("no test binary path: {e}"))?
    };
    let mut child = Command::new(exe)
        .args([child_test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, &program.path)
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the child: {e}"))?;
    // Drain both pipes on threads, so a large log cannot block the child.
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let (out, err, status) = std::thread::scope(|scope| {
        let out = scope.spawn(|| read_all(stdout));
        let err = scope.spawn(|| read_all(stderr));
        let start = std::time::Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if start.elapsed() > CHILD_TIMEOUT => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(format!(
                        "hung: no result after {} s",
                        CHILD_TIMEOUT.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(std::time::Duration::from_millis(2)),
                Err(e) => break Err(format!("cannot wait for the child: {e}")),
            }
        };
        (
            out.join().unwrap_or_default(),
            err.join().unwrap_or_default(),
            status,
        )
    });
    let status = status?;
    let parsed = out.split_once(VERDICT_MARK).and_then(|(_, rest)| {
        let (verdict, rest) = rest.split_once('\n')?;
        let (log, _) = rest.strip_prefix(LOG_MARK)?.split_once(END_MARK)?;
        let verdict = match verdict {
            "ok" => Verdict::Ok,
            "error" => Verdict::Error,
            _ => return None,
        };
        Some((verdict, log.to_string()))
    });
    match parsed {
        Some(result) if status.success() => Ok(result),
        _ => {
            let why = err
                .lines()
                .filter(|l| !l.trim().is_empty() && !l.starts_with("note: run with"))
                .take(6)
                .collect::<Vec<_>>()
                .join("\n    ");
            Err(format!("crashed ({status}): {why}"))
        }
    }
}
