//! cranecl-jit: OpenCL C to machine code.
//!
//! The pipeline, one module per phase (see ARCHITECTURE.md, "The house"):
//! `source` (files and spans) → `preprocess` (C99 preprocessor producing tokens)
//! → `parse` (recursive descent to an AST with spans) → `sema` (types, address
//! spaces, built-in overloads → typed HIR) → `lower` (the analyses of the HIR
//! and the work-group strategies and steps they lead to, ARCHITECTURE.md
//! section 3) → `codegen` (Cranelift) → `runtime` (one work-group).
//! Diagnostics from every phase are collected in a [`diag::Diagnostics`] sink
//! and rendered like clang: `file:line:col: error: message`, source line, caret.
//! This crate knows nothing of the OpenCL API.

pub mod builtins;
pub mod codegen;
pub mod diag;
pub mod features;
pub mod frontend;
pub mod launch;
pub mod lower;
pub mod options;
pub mod parse;
pub mod preprocess;
pub mod runtime;
pub mod sema;
pub mod source;
pub mod token;
