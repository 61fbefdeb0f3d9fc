//! The front end's entry point: source text and build options in, a checked
//! translation unit or a build log out.
//!
//! `check` runs preprocess → parse → sema and renders every diagnostic. The
//! OpenCL API layer (`clBuildProgram`, `clCompileProgram`) and the corpus tests
//! call this; code generation takes the typed HIR it returns.
