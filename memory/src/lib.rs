//! cranecl-memory: the four OpenCL address spaces on the host.
//!
//! Every arena is made of one aligned allocation type, [`Allocation`]
//! (`alloc`): heap blocks zeroed or not, a mapping of its own followed by
//! a guard region, or one in huge pages (checked mode's large shadows). On
//! top of it:
//! - `global`: buffers' data stores (guarded when large) and programs'
//!   program-scope variables (global and `constant` ones share that arena);
//! - `local`: the per-worker local arena (work-group local memory);
//! - `private`: the per-worker private arena (work-item frames);
//! - `svm`: shared virtual memory allocations (`clSVMAlloc`);
//! - `image`: image formats, texel conversions and sampling;
//! - `image_lanes`: image reads and writes of four work-items at once;
//! - `registry`: which allocation an address belongs to, for messages
//!   (and checked mode).

pub mod alloc;
pub mod global;
pub mod image;
pub mod image_lanes;
pub mod local;
pub mod private;
pub mod registry;
pub mod svm;

pub use alloc::Allocation;
pub use global::{live_allocations, live_bytes, HostAllocation, ProgramArena};
pub use svm::SvmAllocation;
