// RUN: -cl-std=CL1.2
// EXPECT: error
// ERROR: 6: continue
kernel void k(void)
{
    switch (1) { case 1: continue; }
}
