//! cranecl: a software OpenCL 3.0 platform for the CPU.
//!
//! This crate is the installable client driver (ICD): `libcranecl.so` exports
//! every OpenCL entry point plus `clIcdGetPlatformIDsKHR`, and every object it
//! hands out starts with a pointer to the dispatch table the loader calls
//! through. `api/` holds the thin `extern "C"` layer, `core/` the object model,
//! `exec/` command scheduling and kernel launch. Loading the library starts no
//! thread and does no work: everything starts lazily on first use.

pub mod api;
pub mod core;
pub mod dispatch;
pub mod error;
pub mod exec;
