/* Checked mode through the C API: runs one kernel of conformance/checked/
 * with CRANECL_CHECK set before the context is made, and prints what a CI
 * job sees: every message the context's notify callback receives, then the
 * command's execution status.
 *
 * usage: checked CHECK FILE.cl OPTIONS KERNEL GLOBAL LOCAL [ARG...]
 *   GLOBAL, LOCAL: "x" or "x,y"; ARG: buf(BYTES) sub(PARENT,ORIGIN,BYTES)
 *   int(V) local(BYTES) null
 * exit status: 0 when the program ran (whatever the kernel did), 2 on a
 * setup error. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void CL_CALLBACK notify(const char *msg, const void *info, size_t cb, void *user)
{
    (void)info; (void)cb; (void)user;
    printf("notify: %s\n", msg);
    fflush(stdout);
}

static int die(const char *what, cl_int rc)
{
    fprintf(stderr, "checked: %s failed (%d)\n", what, rc);
    return 2;
}

static size_t parse_sizes(const char *s, size_t *out)
{
    size_t n = 0;
    char *end;
    while (n < 3) {
        out[n++] = strtoul(s, &end, 10);
        if (*end != ',')
            break;
        s = end + 1;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: checked CHECK FILE OPTIONS KERNEL GLOBAL LOCAL [ARG...]\n");
        return 2;
    }
    setenv("CRANECL_CHECK", argv[1], 1);
    FILE *f = fopen(argv[2], "rb");
    if (!f)
        return die("fopen", 0);
    static char src[1 << 16];
    size_t len = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[len] = 0;

    cl_platform_id platforms[8];
    cl_uint np = 0;
    cl_int rc = clGetPlatformIDs(8, platforms, &np);
    if (rc != CL_SUCCESS || np == 0)
        return die("clGetPlatformIDs", rc);
    cl_device_id dev;
    rc = clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    if (rc != CL_SUCCESS)
        return die("clGetDeviceIDs", rc);
    cl_context ctx = clCreateContext(NULL, 1, &dev, notify, NULL, &rc);
    if (rc != CL_SUCCESS)
        return die("clCreateContext", rc);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &rc);
    if (rc != CL_SUCCESS)
        return die("clCreateCommandQueueWithProperties", rc);
    const char *text = src;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, NULL, &rc);
    if (rc != CL_SUCCESS)
        return die("clCreateProgramWithSource", rc);
    rc = clBuildProgram(prog, 1, &dev, argv[3], NULL, NULL);
    if (rc != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        fprintf(stderr, "%s\n", log);
        return die("clBuildProgram", rc);
    }
    cl_kernel k = clCreateKernel(prog, argv[4], &rc);
    if (rc != CL_SUCCESS)
        return die("clCreateKernel", rc);
    size_t global[3], local[3];
    cl_uint dims = (cl_uint)parse_sizes(argv[5], global);
    parse_sizes(argv[6], local);
    cl_mem mems[32];
    int nm = 0;
    for (int i = 7; i < argc && nm < 30; i++) {
        cl_uint a = (cl_uint)(i - 7);
        unsigned long x = 0, y = 0, z = 0;
        if (sscanf(argv[i], "buf(%lu)", &x) == 1) {
            void *zero = calloc(1, x);
            mems[nm] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, x, zero, &rc);
            free(zero);
            if (rc != CL_SUCCESS)
                return die("clCreateBuffer", rc);
            rc = clSetKernelArg(k, a, sizeof(cl_mem), &mems[nm++]);
        } else if (sscanf(argv[i], "sub(%lu,%lu,%lu)", &x, &y, &z) == 3) {
            void *zero = calloc(1, x);
            mems[nm] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, x, zero, &rc);
            free(zero);
            if (rc != CL_SUCCESS)
                return die("clCreateBuffer", rc);
            cl_buffer_region region = {y, z};
            mems[nm + 1] = clCreateSubBuffer(mems[nm], CL_MEM_READ_WRITE,
                                             CL_BUFFER_CREATE_TYPE_REGION, &region, &rc);
            if (rc != CL_SUCCESS)
                return die("clCreateSubBuffer", rc);
            rc = clSetKernelArg(k, a, sizeof(cl_mem), &mems[nm + 1]);
            nm += 2;
        } else if (sscanf(argv[i], "int(%lu)", &x) == 1) {
            cl_int v = (cl_int)x;
            rc = clSetKernelArg(k, a, sizeof v, &v);
        } else if (sscanf(argv[i], "local(%lu)", &x) == 1) {
            rc = clSetKernelArg(k, a, x, NULL);
        } else if (strcmp(argv[i], "null") == 0) {
            rc = clSetKernelArg(k, a, sizeof(cl_mem), NULL);
        } else {
            fprintf(stderr, "checked: unknown argument %s\n", argv[i]);
            return 2;
        }
        if (rc != CL_SUCCESS)
            return die("clSetKernelArg", rc);
    }
    cl_event ev;
    rc = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, &ev);
    if (rc != CL_SUCCESS)
        return die("clEnqueueNDRangeKernel", rc);
    cl_int waited = clWaitForEvents(1, &ev);
    cl_int status = 0;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    printf("wait: %d\nstatus: %d\n", waited, status);
    clReleaseEvent(ev);
    for (int i = nm - 1; i >= 0; i--)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
