//! The object model: platform, device, context, queue, memory objects,
//! programs, kernels, events, shared virtual memory, command-buffers, and the byte movers of the buffer commands.
//! Handles are validated in `api/` before they get here. A raw user pointer
//! reaches this layer only as an address the API layer has checked (a host
//! pointer of a buffer or transfer, taken by `unsafe` functions that say what
//! they need) or as callback user data, which is never dereferenced.

pub mod command_buffer;
pub mod context;
pub mod device;
pub mod event;
pub mod handle;
pub mod image;
pub mod kernel;
pub mod mem;
pub mod objects;
pub mod partition;
pub mod platform;
pub mod profile;
pub mod program;
pub mod queue;
pub mod svm;
pub mod sysinfo;
pub mod transfer;
