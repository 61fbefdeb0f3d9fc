//! The `extern "C"` entry points, one file per chapter of the API spec. Each is
//! a thin stub: validate in the order the spec lists errors, call `core`, map
//! the error (see `entry`).

pub mod command_buffer;
pub mod context;
pub mod device;
pub mod enqueue;
pub mod entry;
pub mod event;
pub mod image;
mod image_commands;
pub mod info;
pub mod interop;
pub mod kernel;
pub mod mem;
mod mem_commands;
pub mod ndrange;
pub mod platform;
pub mod prelude;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod svm;

pub use command_buffer::*;
pub use context::*;
pub use device::*;
pub use enqueue::*;
pub use event::*;
pub use image::*;
pub use interop::*;
pub use kernel::*;
pub use mem::*;
pub use ndrange::*;
pub use platform::*;
pub use program::*;
pub use queue::*;
pub use sampler::*;
pub use svm::*;
