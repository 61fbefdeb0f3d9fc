//! The preprocessor agrees with clang-14's (`clang -E`): every file in
//! `tests/preprocess_clang/` gives the same tokens through both, and both or
//! neither report an error. Without clang-14 the test is skipped, unless
//! `CI=true`, where it fails (`scripts/install-deps.sh` installs it).

use cranecl_jit::diag::Diagnostics;
use cranecl_jit::preprocess::{lex, preprocess, tokens_text, PreprocessOptions};
use cranecl_jit::source::SourceMap;
use std::path::Path;
use std::process::Command;

const CLANG: &str = "clang-14";

fn clang_available() -> bool {
    let found = Command::new(CLANG)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found && std::env::var("CI").as_deref() == Ok("true") {
        panic!("{CLANG} not found: run scripts/install-deps.sh");
    }
    if !found {
        eprintln!("skipped: {CLANG} not found");
    }
    found
}

/// cranecl's tokens and whether it reported an error.
fn cranecl(path: &Path) -> (String, bool, String) {
    let text = std::fs::read_to_string(path).expect("read input");
    let mut sm = SourceMap::new();
    let main = sm.add(path.to_string_lossy(), text);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, main, &PreprocessOptions::default(), &mut diags);
    (
        tokens_text(&toks),
        diags.error_count() > 0,
        diags.render(&sm),
    )
}

/// clang's tokens (its `-E` output lexed by cranecl's lexer) and whether it failed.
fn clang(path: &Path) -> (String, bool, String) {
    let out = Command::new(CLANG)
        .args(["-E", "-P", "-x", "cl", "-cl-std=CL1.2", "-cl-no-stdinc"])
        .arg(path)
        .output()
        .expect("run clang");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut sm = SourceMap::new();
    let id = sm.add("clang-output", text);
    let mut d = Diagnostics::new();
    let toks = lex(&sm, id, &mut d);
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    (tokens_text(&toks), !out.status.success(), log)
}

#[test]
fn preprocessor_agrees_with_clang() {
    if !clang_available() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/preprocess_clang");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("inputs folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "inputs missing in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let (ours, our_err, our_log) = cranecl(f);
        let (theirs, their_err, their_log) = clang(f);
        if ours != theirs || our_err != their_err {
            failures.push(format!(
                "{}:\n  cranecl: {ours}\n  clang:   {theirs}\n  cranecl log:\n{our_log}\n  clang log:\n{their_log}",
                f.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
