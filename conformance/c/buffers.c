/* A chain of buffer commands across two queues (one in-order, one
 * out-of-order) tied by events, run on the platform named "cranecl" through
 * the system's OpenCL loader. Every byte of every buffer is checked against a
 * model computed on the host. Exit status 0 only if everything matched; any
 * error code or mismatch is printed and gives status 1.
 *
 * Built by conformance/tests/c_program.rs: gcc buffers.c -lOpenCL.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N (64 * 1024) /* bytes per buffer */
#define ROW 256       /* row pitch of the rect views */

#define CHECK(call)                                                          \
    do {                                                                     \
        cl_int err_ = (call);                                                \
        if (err_ != CL_SUCCESS) {                                            \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call,  \
                    err_);                                                   \
            return 1;                                                        \
        }                                                                    \
    } while (0)

#define CHECK_ERR(what)                                                      \
    do {                                                                     \
        if (err != CL_SUCCESS) {                                             \
            fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, what,   \
                    err);                                                    \
            return 1;                                                        \
        }                                                                    \
    } while (0)

static int compare(const char *what, const unsigned char *got,
                   const unsigned char *want, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (got[i] != want[i]) {
            fprintf(stderr, "%s: byte %zu is 0x%02x, expected 0x%02x\n", what,
                    i, got[i], want[i]);
            return 1;
        }
    }
    return 0;
}

static int status_of(cl_event e, cl_int *status) {
    return clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status,
                          status, NULL);
}

/* The model of a rect copy, as the spec defines the offsets. */
static void rect_copy(unsigned char *dst, const unsigned char *src,
                      const size_t so[3], const size_t dor[3],
                      const size_t region[3], size_t srp, size_t ssp,
                      size_t drp, size_t dsp) {
    for (size_t z = 0; z < region[2]; z++)
        for (size_t y = 0; y < region[1]; y++)
            memcpy(dst + (dor[2] + z) * dsp + (dor[1] + y) * drp + dor[0],
                   src + (so[2] + z) * ssp + (so[1] + y) * srp + so[0],
                   region[0]);
}

int main(void) {
    cl_int err;
    cl_uint np = 0;
    CHECK(clGetPlatformIDs(0, NULL, &np));
    cl_platform_id plats[16];
    if (np > 16) np = 16;
    CHECK(clGetPlatformIDs(np, plats, NULL));
    cl_platform_id plat = NULL;
    /* BUFFERS_PLATFORM=<name substring> runs the chain on another platform
     * (pocl, to check the model itself). */
    const char *want = getenv("BUFFERS_PLATFORM") ? getenv("BUFFERS_PLATFORM")
                                                  : "cranecl";
    for (cl_uint i = 0; i < np; i++) {
        char name[256] = {0};
        CHECK(clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name - 1,
                                name, NULL));
        if (strstr(name, want)) plat = plats[i];
    }
    if (!plat) {
        fprintf(stderr, "no platform named %s among %u\n", want, np);
        return 1;
    }
    cl_device_id dev;
    CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));

    cl_context_properties cprops[] = {CL_CONTEXT_PLATFORM,
                                      (cl_context_properties)plat, 0};
    cl_context ctx = clCreateContext(cprops, 1, &dev, NULL, NULL, &err);
    CHECK_ERR("clCreateContext");
    cl_queue_properties inorder[] = {CL_QUEUE_PROPERTIES,
                                     CL_QUEUE_PROFILING_ENABLE, 0};
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q1 =
        clCreateCommandQueueWithProperties(ctx, dev, inorder, &err);
    CHECK_ERR("clCreateCommandQueueWithProperties(in-order)");
    cl_command_queue q2 =
        clCreateCommandQueueWithProperties(ctx, dev, ooo, &err);
    CHECK_ERR("clCreateCommandQueueWithProperties(out-of-order)");

    unsigned char *src = malloc(N), *mA = malloc(N), *mB = malloc(N),
                  *mC = malloc(N), *mD = malloc(N), *out = malloc(N),
                  *hostD = malloc(N);
    if (!src || !mA || !mB || !mC || !mD || !out || !hostD) return 1;
    for (size_t i = 0; i < N; i++) {
        src[i] = (unsigned char)(i * 7 + 3);
        hostD[i] = (unsigned char)(i * 13 + 1);
    }

    cl_mem A = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
    CHECK_ERR("clCreateBuffer A");
    cl_mem B = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
    CHECK_ERR("clCreateBuffer B");
    cl_mem C = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N, NULL, &err);
    CHECK_ERR("clCreateBuffer C");
    /* D starts as a copy of hostD. */
    cl_mem D = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              N, hostD, &err);
    CHECK_ERR("clCreateBuffer D");

    /* A user event gates the whole chain: nothing may complete before it. */
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK_ERR("clCreateUserEvent");

    /* e1: q1 writes src into A (non-blocking), after the gate. */
    cl_event e1, e2, e3, e4, e5, e6, e7, e8, e9;
    CHECK(clEnqueueWriteBuffer(q1, A, CL_FALSE, 0, N, src, 1, &gate, &e1));
    /* e2: q2 copies A to B after e1 (cross-queue). */
    CHECK(clEnqueueCopyBuffer(q2, A, B, 0, 0, N, 1, &e1, &e2));
    /* e3: q2 fills C with a 4-byte pattern; independent (out-of-order). */
    const unsigned char pat[4] = {0xde, 0xad, 0xbe, 0xef};
    CHECK(clEnqueueFillBuffer(q2, C, pat, sizeof pat, 0, N, 0, NULL, &e3));

    cl_int st;
    CHECK(status_of(e1, &st));
    if (st == CL_COMPLETE) {
        fprintf(stderr, "write completed before its user event was set\n");
        return 1;
    }
    CHECK(status_of(e2, &st));
    if (st == CL_COMPLETE) {
        fprintf(stderr, "copy completed before the write it waits on\n");
        return 1;
    }
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));

    /* e4: q1 rect-copies a 64x8 block of B into C, after e2 and e3. */
    size_t so[3] = {16, 2, 0}, dor[3] = {40, 5, 0}, region[3] = {64, 8, 1};
    cl_event deps4[2] = {e2, e3};
    CHECK(clEnqueueCopyBufferRect(q1, B, C, so, dor, region, ROW, 0, 2 * ROW,
                                  0, 2, deps4, &e4));
    /* e5: q2 writes a host rect into D (non-blocking), no dependency. */
    size_t hbo[3] = {8, 1, 0}, bbo[3] = {100, 3, 1}, region5[3] = {30, 4, 2};
    CHECK(clEnqueueWriteBufferRect(q2, D, CL_FALSE, bbo, hbo, region5, ROW,
                                   ROW * 16, 128, 128 * 8, src, 0, NULL,
                                   &e5));
    /* e6: q2 maps part of C for read+write after the rect copy. */
    size_t map_off = 1000, map_len = 4096;
    unsigned char *p = clEnqueueMapBuffer(q2, C, CL_FALSE,
                                          CL_MAP_READ | CL_MAP_WRITE, map_off,
                                          map_len, 1, &e4, &e6, &err);
    CHECK_ERR("clEnqueueMapBuffer");
    CHECK(clWaitForEvents(1, &e6));

    /* The model so far. */
    memcpy(mA, src, N);
    memcpy(mB, mA, N);
    for (size_t i = 0; i < N; i++) mC[i] = pat[i % 4];
    rect_copy(mC, mB, so, dor, region, ROW, ROW * 8, 2 * ROW, 2 * ROW * 8);
    /* host rect -> buffer: the source is the host at hbo with the host
     * pitches, the destination the buffer at bbo with the buffer pitches. */
    memcpy(mD, hostD, N);
    rect_copy(mD, src, hbo, bbo, region5, 128, 128 * 8, ROW, ROW * 16);

    if (compare("mapped C", p, mC + map_off, map_len)) return 1;
    for (size_t i = 0; i < map_len; i += 3) {
        p[i] ^= 0xff;
        mC[map_off + i] ^= 0xff;
    }
    /* e7: q1 unmaps; e8: q2 reads all of C after the unmap. */
    CHECK(clEnqueueUnmapMemObject(q1, C, p, 0, NULL, &e7));
    CHECK(clEnqueueReadBuffer(q2, C, CL_FALSE, 0, N, out, 1, &e7, &e8));
    CHECK(clWaitForEvents(1, &e8));
    if (compare("C", out, mC, N)) return 1;

    /* D after the rect write: read it whole, blocking, after e5. */
    CHECK(clEnqueueReadBuffer(q1, D, CL_TRUE, 0, N, out, 1, &e5, NULL));
    if (compare("D", out, mD, N)) return 1;
    /* B through a rect read into a host image of the same layout. */
    memset(out, 0, N);
    size_t zero[3] = {0, 0, 0}, whole[3] = {ROW, N / ROW, 1};
    CHECK(clEnqueueReadBufferRect(q1, B, CL_FALSE, zero, zero, whole, ROW, 0,
                                  ROW, 0, out, 0, NULL, &e9));
    CHECK(clWaitForEvents(1, &e9));
    if (compare("B", out, mB, N)) return 1;
    CHECK(clEnqueueReadBuffer(q2, A, CL_TRUE, 0, N, out, 0, NULL, NULL));
    if (compare("A", out, mA, N)) return 1;

    CHECK(clFinish(q1));
    CHECK(clFinish(q2));
    cl_event all[] = {gate, e1, e2, e3, e4, e5, e6, e7, e8, e9};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        CHECK(status_of(all[i], &st));
        if (st != CL_COMPLETE) {
            fprintf(stderr, "event %zu has status %d after clFinish\n", i, st);
            return 1;
        }
    }
    cl_command_type ty;
    CHECK(clGetEventInfo(e4, CL_EVENT_COMMAND_TYPE, sizeof ty, &ty, NULL));
    if (ty != CL_COMMAND_COPY_BUFFER_RECT) {
        fprintf(stderr, "e4 has command type 0x%x\n", ty);
        return 1;
    }
    /* q1 has profiling: the write's timestamps are ordered. */
    cl_ulong t[4];
    cl_profiling_info pi[4] = {CL_PROFILING_COMMAND_QUEUED,
                               CL_PROFILING_COMMAND_SUBMIT,
                               CL_PROFILING_COMMAND_START,
                               CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++)
        CHECK(clGetEventProfilingInfo(e1, pi[i], sizeof t[i], &t[i], NULL));
    if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3])) {
        fprintf(stderr, "profiling out of order: %llu %llu %llu %llu\n",
                (unsigned long long)t[0], (unsigned long long)t[1],
                (unsigned long long)t[2], (unsigned long long)t[3]);
        return 1;
    }

    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK(clReleaseEvent(all[i]));
    CHECK(clReleaseMemObject(A));
    CHECK(clReleaseMemObject(B));
    CHECK(clReleaseMemObject(C));
    CHECK(clReleaseMemObject(D));
    CHECK(clReleaseCommandQueue(q1));
    CHECK(clReleaseCommandQueue(q2));
    CHECK(clReleaseContext(ctx));
    free(src); free(mA); free(mB); free(mC); free(mD); free(out); free(hostD);
    printf("buffers: all %d bytes of 4 buffers verified\n", N);
    return 0;
}
