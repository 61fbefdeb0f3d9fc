// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 7: conversion
typedef struct { int a; } s_t;
kernel void k(global int *out)
{
    s_t s = (s_t)1;
}
