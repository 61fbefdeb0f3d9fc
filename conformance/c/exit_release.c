/* Objects released by an atexit handler, after the C library has run this
 * thread's thread-local destructors (as a library's static destructors do
 * at exit: CLBlast's program cache). Every release must succeed and the
 * process must exit normally. Prints "released" from the handler. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

static cl_context ctx;
static cl_command_queue queue;
static cl_program program;
static cl_kernel kernel;
static cl_mem buf;

static void release_all(void)
{
    cl_int e[5] = {
        clReleaseKernel(kernel), clReleaseProgram(program), clReleaseMemObject(buf),
        clReleaseCommandQueue(queue), clReleaseContext(ctx),
    };
    for (int i = 0; i < 5; i++) {
        if (e[i] != CL_SUCCESS) {
            printf("release %d failed: %d\n", i, e[i]);
            fflush(stdout);
            _Exit(1);
        }
    }
    printf("released\n");
    fflush(stdout);
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        printf("no device\n");
        return 1;
    }
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    const char *src = "kernel void k(global int *a) { a[get_global_id(0)] = 7; }";
    program = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(program, 1, &device, "", NULL, NULL) != CL_SUCCESS) {
        printf("build failed\n");
        return 1;
    }
    kernel = clCreateKernel(program, "k", &err);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    clSetKernelArg(kernel, 0, sizeof(buf), &buf);
    size_t global = 64;
    int out[64];
    if (clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, NULL, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL) != CL_SUCCESS ||
        out[63] != 7) {
        printf("kernel failed\n");
        return 1;
    }
    atexit(release_all);
    return 0;
}
