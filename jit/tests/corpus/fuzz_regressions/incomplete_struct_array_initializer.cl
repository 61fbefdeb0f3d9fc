// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: undeclared
// Found by fuzzing: an initialised program-scope array of an incomplete struct type with an
// undeclared bound made sema's initializer walk grow without end (memory exhausted).
constant struct nnt kx[3][s] = { 1 };
kernel void k(void) { }
