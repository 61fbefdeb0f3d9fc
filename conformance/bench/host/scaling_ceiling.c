// What a machine gives N-way compute-bound work at all, without OpenCL:
// each of N threads runs the same number of passes of eight independent
// fused multiply-add chains kept in registers (no memory traffic, nothing
// shared), so with perfect scaling N threads take as long as one, and
// N * t(1) / t(N) is the most any program, cranecl's kernels included, can
// gain from N threads there. Build and run (order 1, 16, 1, 16 to see the
// noise of a virtual machine):
//   gcc -O2 -mfma -pthread -o scaling_ceiling scaling_ceiling.c
//   for t in 1 16 1 16; do ./scaling_ceiling 1000000000 $t; done
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long passes;
static float results[256];

static void *work(void *arg)
{
    long id = (long)arg;
    float a0 = 1.0f, a1 = 1.1f, a2 = 1.2f, a3 = 1.3f, a4 = 1.4f, a5 = 1.5f, a6 = 1.6f, a7 = 1.7f;
    const float m = 0.9999f, c = 0.0001f;
    for (long i = 0; i < passes; i++) {
        a0 = a0 * m + c; a1 = a1 * m + c; a2 = a2 * m + c; a3 = a3 * m + c;
        a4 = a4 * m + c; a5 = a5 * m + c; a6 = a6 * m + c; a7 = a7 * m + c;
        // Keep the chains in registers and the loop from being folded away.
        __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5),
                         "+x"(a6), "+x"(a7));
    }
    results[id] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    return NULL;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PASSES THREADS\n", argv[0]);
        return 2;
    }
    passes = atol(argv[1]);
    int n = atoi(argv[2]);
    if (n < 1 || n > 256) {
        fprintf(stderr, "THREADS must be 1 to 256\n");
        return 2;
    }
    pthread_t t[256];
    double t0 = now();
    for (long i = 0; i < n; i++)
        pthread_create(&t[i], NULL, work, (void *)i);
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    printf("threads %d: %.3f s (the same work per thread: ideal is one thread's time)\n", n,
           now() - t0);
    return 0;
}
