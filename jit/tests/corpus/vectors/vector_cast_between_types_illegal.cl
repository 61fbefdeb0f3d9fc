// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 8: conversion
// explicit casts between vector types are illegal too: use convert_float4
kernel void k(global float4 *out)
{
    int4 i = (int4)(1);
    out[0] = (float4)i;
}
