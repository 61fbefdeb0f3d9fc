//! Every program of the front end's corpus that builds is also compiled to
//! native code: code generation must never panic, and may refuse a program
//! only for a built-in function the library does not implement yet (or a
//! documented limitation), never with an internal error.

#[path = "corpus/harness.rs"]
mod harness;

use cranecl_jit::codegen::{self, CodegenOptions};
use cranecl_jit::options::BuildOptions;

#[test]
fn every_accepted_corpus_program_compiles_to_native_code() {
    let programs = harness::load_corpus(&harness::corpus_root())
        .unwrap_or_else(|p| panic!("corpus: {}", p.join("\n")));
    let mut compiled = 0;
    let mut unsupported = 0;
    let mut limited = 0;
    let mut failures = Vec::new();
    for p in &programs {
        let Ok(opts) = BuildOptions::parse(&p.options()) else {
            continue;
        };
        let out = cranecl_jit::frontend::compile(&p.source, &p.file_name, &opts, &[]);
        let Some(prog) = out.program else { continue };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            codegen::compile(&prog, &CodegenOptions::default())
        }));
        match r {
            Ok(Ok(_)) => compiled += 1,
            Ok(Err(e)) if e.contains("is not supported yet") => unsupported += 1,
            // Resource limits of the device are build errors with a message.
            Ok(Err(e)) if e.contains("are supported") || e.contains("bytes supported") => {
                limited += 1
            }
            Ok(Err(e)) => failures.push(format!("{}: {e}", p.display)),
            Err(_) => failures.push(format!("{}: code generation panicked", p.display)),
        }
    }
    eprintln!(
        "codegen corpus: {compiled} compiled, {unsupported} need built-ins not implemented yet, \
         {limited} exceed a device limit"
    );
    assert!(
        failures.is_empty(),
        "{} programs failed code generation:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        compiled > 50,
        "only {compiled} corpus programs reached code generation"
    );
}
