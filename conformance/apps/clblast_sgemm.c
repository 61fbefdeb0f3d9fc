/* CLBlastSgemm on the first OpenCL device the loader offers (choose the
 * platform with OCL_ICD_VENDORS): C = A * B, row-major, n x n, for each n on
 * the command line. Per n: one warm-up call (CLBlast builds its kernels on
 * first use), then REPS timed calls, each CLBlastSgemm then clWaitForEvents
 * on its event; prints the best as "sgemm N SECONDS GFLOPS", after checking
 * 4096 sampled elements of C against a double-precision dot product.
 * Exit status 1 on any OpenCL/CLBlast error or wrong element.
 *
 *   clblast_sgemm REPS N...
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <clblast_c.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        long rc_ = (long)(call);                                               \
        if (rc_ != 0) {                                                        \
            fprintf(stderr, "%s:%d: %s returned %ld\n", __FILE__, __LINE__,    \
                    #call, rc_);                                               \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift32: the inputs are reproducible without libc's rand. */
static unsigned rng_state = 2463534242u;
static float uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return (float)(rng_state >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
}

/* One n: returns 0 if every sampled element is right. */
static int run(cl_context ctx, cl_command_queue q, size_t n, int reps)
{
    size_t bytes = n * n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    for (size_t i = 0; i < n * n; i++) {
        a[i] = uniform();
        b[i] = uniform();
    }
    cl_int err;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);

    double best = INFINITY;
    for (int r = -1; r < reps; r++) { /* r == -1: the warm-up call */
        cl_event ev;
        double t0 = now();
        CHECK(CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo,
                           n, n, n, 1.0f, da, 0, n, db, 0, n, 0.0f, dc, 0, n, &q, &ev));
        CHECK(clWaitForEvents(1, &ev));
        double t = now() - t0;
        CHECK(clReleaseEvent(ev));
        if (r >= 0 && t < best)
            best = t;
    }
    CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));

    int bad = 0;
    for (int s = 0; s < 4096; s++) { /* random (i, j) */
        size_t i = (size_t)((uniform() * 0.5f + 0.5f) * n) % n;
        size_t j = (size_t)((uniform() * 0.5f + 0.5f) * n) % n;
        double want = 0, scale = 0;
        for (size_t k = 0; k < n; k++) {
            double t = (double)a[i * n + k] * b[k * n + j];
            want += t;
            scale += fabs(t);
        }
        if (fabs(c[i * n + j] - want) > 1e-5 * scale + 1e-6) {
            if (bad++ < 3)
                fprintf(stderr, "n=%zu C[%zu][%zu] = %g, expected %g\n", n, i, j, c[i * n + j], want);
        }
    }
    if (bad)
        fprintf(stderr, "n=%zu: %d of 4096 sampled elements wrong\n", n, bad);
    else
        printf("sgemm %zu %.6f %.3f\n", n, best, 2.0 * n * n * n / best * 1e-9);
    fflush(stdout);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    free(a);
    free(b);
    free(c);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s REPS N...\n", argv[0]);
        return 2;
    }
    int reps = atoi(argv[1]);
    cl_platform_id platform;
    cl_device_id device;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    char name[256];
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL));
    fprintf(stderr, "platform: %s\n", name);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err);
    int failed = 0;
    for (int i = 2; i < argc; i++)
        failed |= run(ctx, q, (size_t)atol(argv[i]), reps);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return failed;
}
