// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 4: reqd_work_group_size
__attribute__((reqd_work_group_size(8, 8, 1))) void helper(void) { }
kernel void k(void) { helper(); }
