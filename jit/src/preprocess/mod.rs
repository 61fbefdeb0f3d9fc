//! The C99 / OpenCL C preprocessor (C99 §6.10, OpenCL C 3.0 §6.12).
//!
//! (Work in progress: this first version only lexes; directives and macro
//! expansion follow.)
#![forbid(unsafe_code)]

pub mod lexer;

use crate::diag::Diagnostics;
use crate::options::ClStd;
use crate::source::{FileId, SourceMap};
use crate::token::Token;
use std::path::PathBuf;
use std::rc::Rc;

/// What the preprocessor needs from the build options.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-D name[=value]`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I dir`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Headers given to `clCompileProgram` (`input_headers`), name → text;
    /// searched first by `#include`.
    pub embedded_headers: Vec<(String, String)>,
    pub cl_std: ClStd,
    pub fast_relaxed_math: bool,
    pub single_precision_constant: bool,
}

/// Lexes one file without running directives; the last token is `Eof`.
pub fn lex(sm: &SourceMap, file: FileId, diags: &mut Diagnostics) -> Vec<Token> {
    let text: Rc<str> = Rc::from(sm.file(file).text.as_str());
    lexer::lex_text(text, file, diags)
}

/// Preprocesses `main` into the tokens the parser reads; the last is `Eof`.
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    _opts: &PreprocessOptions,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    lex(sm, main, diags)
}
