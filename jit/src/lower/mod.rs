//! Lowering's analyses and choices: what the compiler learns about a
//! kernel's HIR before any Cranelift IR is emitted, and how each kernel's
//! work-group strategy and step are named and explained.
//!
//! `codegen/` emits the code; this module only reads the HIR:
//! - `walk.rs`, the HIR visitor every analysis and pass uses (expressions
//!   of a statement, sub-expressions, which locals are written or have
//!   their address taken, which functions reach a barrier, loops' ranges);
//! - `explain.rs`, the [`Strategy`] and [`Step`] a kernel runs with and the
//!   [`Explanation`] of why (`CRANECL_EXPLAIN`).

pub mod explain;
pub(crate) mod walk;

pub use explain::{Explanation, Step, Strategy};
