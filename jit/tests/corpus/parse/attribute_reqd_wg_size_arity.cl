// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: reqd_work_group_size
__attribute__((reqd_work_group_size(16, 16)))
kernel void k(void) { }
