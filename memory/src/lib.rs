//! cranecl-memory: the four OpenCL address spaces on the host.
//!
//! `global` holds the host allocations behind buffers (the global arena).
//! The constant, local and private arenas come with kernel execution.

pub mod global;

pub use global::{live_allocations, live_bytes, HostAllocation};
