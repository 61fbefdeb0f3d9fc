//! The safe object model: platform, device, context, queue, memory objects,
//! programs, kernels, events. No raw pointer from the user reaches here.

pub mod device;
pub mod handle;
pub mod objects;
pub mod platform;
pub mod sysinfo;
