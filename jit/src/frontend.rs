//! The front end's entry point: source text and build options in, a checked
//! translation unit or a build log out.
//!
//! [`compile`] runs preprocess → parse → sema and renders every diagnostic.
//! The OpenCL API layer (`clBuildProgram`, `clCompileProgram`) and the corpus
//! tests call this; code generation takes the typed HIR it returns.
#![forbid(unsafe_code)]

use crate::diag::Diagnostics;
use crate::options::BuildOptions;
use crate::parse::{self, ParseOptions};
use crate::preprocess::{self, PreprocessOptions};
use crate::sema::{self, SemaOptions};
use crate::source::SourceMap;

/// What a front-end run produced.
#[derive(Debug)]
pub struct FrontendOutput {
    /// The checked program; `None` if there were errors (or warnings under `-Werror`).
    pub program: Option<sema::hir::Program>,
    /// The rendered diagnostics (the build log).
    pub log: String,
    pub success: bool,
    /// The sources read (checked mode names lines from them).
    pub sources: SourceMap,
}

/// Compile OpenCL C source to the typed HIR.
pub fn compile(
    source: &str,
    file_name: &str,
    options: &BuildOptions,
    embedded_headers: &[(String, String)],
) -> FrontendOutput {
    compile_units(&[source], file_name, options, embedded_headers)
}

/// Compile several translation units (each preprocessed and parsed on its
/// own, all under `file_name`) into one program, as `clLinkProgram` joins
/// compiled units: see [`sema::check_units`].
pub fn compile_units(
    sources: &[&str],
    file_name: &str,
    options: &BuildOptions,
    embedded_headers: &[(String, String)],
) -> FrontendOutput {
    let std = options.cl_std.unwrap_or_default();
    let mut sm = SourceMap::new();
    let mut diags = Diagnostics::new();
    diags.warnings_as_errors = options.werror;
    diags.suppress_warnings = options.no_warnings;
    let pp = PreprocessOptions {
        defines: options.defines.clone(),
        include_dirs: options.include_dirs.clone(),
        embedded_headers: embedded_headers.to_vec(),
        cl_std: std,
        fast_relaxed_math: options.fast_relaxed_math,
        single_precision_constant: options.single_precision_constant,
    };
    // `half` arithmetic needs `#pragma OPENCL EXTENSION cl_khr_fp16 : enable`
    // (the extension's own rule, in every OpenCL C version, as clang does);
    // a unit that enables it enables it for the program.
    let mut fp16_enabled = false;
    let mut fp_contract = crate::sema::hir::FpContract::default();
    let tus: Vec<_> = sources
        .iter()
        .map(|source| {
            let main = sm.add(file_name, *source);
            let unit = preprocess::preprocess_unit(&mut sm, main, &pp, &mut diags);
            fp16_enabled |= unit.enabled_extensions.iter().any(|e| e == "cl_khr_fp16");
            fp_contract.any_off |= unit.fp_contract.iter().any(|&(_, on)| !on);
            preprocess::fp_contract_states(&unit, &mut fp_contract.at);
            let tokens = unit.tokens;
            parse::parse_with(
                &tokens,
                ParseOptions {
                    opencl_c_version: std.version(),
                },
                &mut diags,
            )
        })
        .collect();
    // Sema runs after parse errors too (the parser drops only what it could
    // not parse), so one build reports the errors of every function.
    let program = {
        let mut so = SemaOptions::for_std(std);
        so.single_precision_constant = options.single_precision_constant;
        so.fp16 &= fp16_enabled;
        let mut p = sema::check_units(&tus, &so, &mut diags, Some(&sm));
        p.fp_contract = fp_contract;
        (!diags.has_errors()).then_some(p)
    };
    let success = program.is_some();
    FrontendOutput {
        program,
        log: diags.render(&sm),
        success,
        sources: sm,
    }
}
