//! cranecl-memory: the four OpenCL address spaces on the host.
