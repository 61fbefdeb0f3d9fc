//! cranecl: the OpenCL API.
