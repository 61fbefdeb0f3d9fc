//! The parser over the whole corpus, after the real preprocessor: every
//! program the corpus says must build preprocesses and parses without an
//! error, and every program of the `parse` category that must fail gets a
//! parse error on the line its `ERROR` directive names, unless the error is
//! one sema gives (the directive's message is then not a parser message).
//! Programs whose `REQUIRES:` line this device does not meet are skipped, as
//! in the build corpus test.

#[path = "corpus/harness.rs"]
mod harness;

use cranecl_jit::diag::{Diagnostics, Level};
use cranecl_jit::options::BuildOptions;
use cranecl_jit::parse::{parse_with, ParseOptions};
use cranecl_jit::preprocess::{preprocess, PreprocessOptions};
use cranecl_jit::source::SourceMap;
use harness::{load_corpus, Program, Verdict};

/// Preprocess and parse a corpus program; the diagnostics with their lines.
fn front(program: &Program) -> Vec<(Level, u32, String)> {
    let opts = BuildOptions::parse(&program.options()).unwrap_or_default();
    let cl_std = opts.cl_std.unwrap_or_default();
    let pp = PreprocessOptions {
        defines: opts.defines.clone(),
        include_dirs: opts.include_dirs.clone(),
        cl_std,
        fast_relaxed_math: opts.fast_relaxed_math,
        single_precision_constant: opts.single_precision_constant,
        ..Default::default()
    };
    let mut sm = SourceMap::new();
    let file = sm.add(program.file_name.clone(), program.source.clone());
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, file, &pp, &mut diags);
    let popts = ParseOptions {
        opencl_c_version: cl_std.version(),
    };
    let _ = parse_with(&toks, popts, &mut diags);
    diags
        .items
        .iter()
        .map(|d| {
            let line = sm
                .get(d.span.file)
                .map(|f| f.line_col(d.span.lo).0)
                .unwrap_or(0);
            (d.level, line, d.message.clone())
        })
        .collect()
}

/// Messages the parser gives (prefixes), to tell its errors from sema's.
const PARSER_MESSAGES: &[&str] = &[
    "expected",
    "unknown type name",
    "extraneous",
    "invalid suffix",
    "invalid digit",
    "label at end",
    "declaration of anonymous",
    "nesting level",
    "integer literal is too large",
];

/// The extensions and OpenCL C features the device advertises (`REQUIRES:`).
fn advertised() -> Vec<&'static str> {
    use cranecl_jit::features::{EXTENSIONS, OPENCL_C_FEATURES};
    EXTENSIONS
        .iter()
        .chain(OPENCL_C_FEATURES)
        .map(|nv| nv.name)
        .collect()
}

#[test]
fn corpus_programs_parse() {
    let all = match load_corpus(&harness::corpus_root()) {
        Ok(p) => p,
        Err(problems) => panic!("corpus problems: {problems:?}"),
    };
    assert!(all.len() >= 100, "the corpus is there");
    let advertised = advertised();
    let programs: Vec<Program> = all.into_iter().filter(|p| p.runs_on(&advertised)).collect();
    let mut failures = Vec::new();
    let mut checked_errors = 0;
    for program in &programs {
        let diags = front(program);
        let errors: Vec<&(Level, u32, String)> =
            diags.iter().filter(|d| d.0 == Level::Error).collect();
        match program.directives.verdict {
            Verdict::Ok => {
                if !errors.is_empty() {
                    failures.push(format!("{}: {errors:?}", program.display));
                }
            }
            Verdict::Error => {
                for want in &program.directives.errors {
                    let syntactic = PARSER_MESSAGES.iter().any(|m| want.message.starts_with(m));
                    if !syntactic || want.file.is_some() {
                        continue;
                    }
                    checked_errors += 1;
                    let found = errors
                        .iter()
                        .any(|(_, line, msg)| *line == want.line && msg.contains(&want.message));
                    if !found {
                        failures.push(format!(
                            "{}: no error '{}' on line {}: {errors:?}",
                            program.display, want.message, want.line
                        ));
                    }
                }
            }
        }
    }
    assert!(checked_errors >= 5, "some syntax errors are checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
