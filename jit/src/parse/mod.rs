//! The parser: preprocessed tokens in, an [`ast::TranslationUnit`] out.
#![forbid(unsafe_code)]

pub mod ast;
