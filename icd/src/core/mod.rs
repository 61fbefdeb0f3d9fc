//! The safe object model: platform, device, context, queue, memory objects,
//! programs, kernels, events. No raw pointer from the user reaches here.

pub mod context;
pub mod device;
pub mod event;
pub mod handle;
pub mod kernel;
pub mod mem;
pub mod objects;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sysinfo;
pub mod transfer;
