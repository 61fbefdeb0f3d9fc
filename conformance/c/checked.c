/* Checked mode through the C API: runs one kernel of conformance/checked/
 * with CRANECL_CHECK set before the context is made, and prints what a CI
 * job sees: every message the context's notify callback receives, then the
 * command's execution status.
 *
 * usage: checked CHECK FILE.cl OPTIONS KERNEL GLOBAL LOCAL [ARG...]
 *   GLOBAL, LOCAL: "x" or "x,y"; ARG: buf(BYTES) sub(PARENT,ORIGIN,BYTES)
 *   int(V) local(BYTES) null, an image of CL_RGBA CL_FLOAT pixels (zeros)
 *   image1d(W) image1darray(W,LAYERS) image2d(W,H) image2darray(W,H,LAYERS)
 *   image3d(W,H,D), each with ",ro" or ",wo" last for CL_MEM_READ_ONLY or
 *   CL_MEM_WRITE_ONLY (else CL_MEM_READ_WRITE), and
 *   sampler(ADDRESSING[,norm][,linear]) (ADDRESSING: none, clamp_to_edge,
 *   clamp, repeat, mirrored_repeat; unnormalized and nearest unless said)
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

/* An image argument ("image2d(16,8,ro)"): its type, sizes and flags;
 * 0 when `arg` is not one. */
static int parse_image(const char *arg, cl_image_desc *d, cl_mem_flags *flags)
{
    static const struct { const char *name; cl_mem_object_type type; int dims; } kinds[] = {
        {"image1darray(", CL_MEM_OBJECT_IMAGE1D_ARRAY, 2},
        {"image2darray(", CL_MEM_OBJECT_IMAGE2D_ARRAY, 3},
        {"image1d(", CL_MEM_OBJECT_IMAGE1D, 1},
        {"image2d(", CL_MEM_OBJECT_IMAGE2D, 2},
        {"image3d(", CL_MEM_OBJECT_IMAGE3D, 3},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t len = strlen(kinds[i].name);
        if (strncmp(arg, kinds[i].name, len) != 0)
            continue;
        size_t n[3] = {1, 1, 1};
        const char *s = arg + len;
        char *end;
        for (int k = 0; k < kinds[i].dims; k++) {
            n[k] = strtoul(s, &end, 10);
            s = *end == ',' ? end + 1 : end;
        }
        *flags = strncmp(s, "ro", 2) == 0   ? CL_MEM_READ_ONLY
                 : strncmp(s, "wo", 2) == 0 ? CL_MEM_WRITE_ONLY
                                            : CL_MEM_READ_WRITE;
        memset(d, 0, sizeof *d);
        d->image_type = kinds[i].type;
        d->image_width = n[0];
        switch (kinds[i].type) {
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: d->image_array_size = n[1]; break;
        case CL_MEM_OBJECT_IMAGE2D: d->image_height = n[1]; break;
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: d->image_height = n[1]; d->image_array_size = n[2]; break;
        case CL_MEM_OBJECT_IMAGE3D: d->image_height = n[1]; d->image_depth = n[2]; break;
        default: break;
        }
        return 1;
    }
    return 0;
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
    cl_sampler samplers[32];
    int ns = 0;
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
        } else if (parse_image(argv[i], &(cl_image_desc){0}, &(cl_mem_flags){0})) {
            cl_image_desc d;
            cl_mem_flags fl;
            parse_image(argv[i], &d, &fl);
            cl_image_format fmt = {CL_RGBA, CL_FLOAT};
            size_t texels = d.image_width * (d.image_height ? d.image_height : 1) *
                            (d.image_depth ? d.image_depth : 1) *
                            (d.image_array_size ? d.image_array_size : 1);
            void *zero = calloc(texels, 16);
            mems[nm] = clCreateImage(ctx, fl | CL_MEM_COPY_HOST_PTR, &fmt, &d, zero, &rc);
            free(zero);
            if (rc != CL_SUCCESS)
                return die("clCreateImage", rc);
            rc = clSetKernelArg(k, a, sizeof(cl_mem), &mems[nm++]);
        } else if (strncmp(argv[i], "sampler(", 8) == 0) {
            static const struct { const char *name; cl_addressing_mode mode; } modes[] = {
                {"none", CL_ADDRESS_NONE}, {"clamp_to_edge", CL_ADDRESS_CLAMP_TO_EDGE},
                {"clamp", CL_ADDRESS_CLAMP}, {"repeat", CL_ADDRESS_REPEAT},
                {"mirrored_repeat", CL_ADDRESS_MIRRORED_REPEAT},
            };
            const char *s = argv[i] + 8;
            size_t w = strcspn(s, ",)");
            cl_addressing_mode mode = (cl_addressing_mode)-1;
            for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
                if (strlen(modes[m].name) == w && strncmp(s, modes[m].name, w) == 0)
                    mode = modes[m].mode;
            if (mode == (cl_addressing_mode)-1) {
                fprintf(stderr, "checked: unknown addressing in %s\n", argv[i]);
                return 2;
            }
            cl_bool norm = strstr(s, ",norm") != NULL;
            cl_filter_mode filter = strstr(s, ",linear") ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
            cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, norm,
                                             CL_SAMPLER_ADDRESSING_MODE, mode,
                                             CL_SAMPLER_FILTER_MODE, filter, 0};
            samplers[ns] = clCreateSamplerWithProperties(ctx, props, &rc);
            if (rc != CL_SUCCESS)
                return die("clCreateSamplerWithProperties", rc);
            rc = clSetKernelArg(k, a, sizeof(cl_sampler), &samplers[ns++]);
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
    for (int i = 0; i < ns; i++)
        clReleaseSampler(samplers[i]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
