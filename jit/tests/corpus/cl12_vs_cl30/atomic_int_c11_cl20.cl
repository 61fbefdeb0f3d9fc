// RUN: -cl-std=CL2.0
// EXPECT: ok
// C11 atomics: 2.0 core (CL2.0: allowed)
kernel void k(global atomic_int *counter)
{
    atomic_fetch_add(counter, 1);
}
