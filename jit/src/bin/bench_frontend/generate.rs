//! Deterministic synthetic OpenCL C programs for the front-end benchmark.
//!
//! A program is a prologue (shared macros, a conditional block, a helper
//! header's worth of utilities) followed by "units" stamped from one template,
//! each unit with its own suffix so every name is unique: macros (object- and
//! function-like), a struct, a union, an enum, a `constant` table, inline and
//! static helpers, and six kernels in the style of real ones (n-body step,
//! separable convolution, local-memory reduction, tone mapping with `uchar4`
//! conversions, a histogram with local atomics and a `switch`, a tiled
//! transpose with swizzles and `shuffle`). Units are appended until the
//! program reaches the line count asked for, so a 10,000-line program and a
//! typical ~200-line one come from the same text.

/// The program's opening: shared macros and helpers every unit may use.
const PROLOGUE: &str = r#"/* Synthetic benchmark program: generated, deterministic. */
#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable
#define WG_SIZE 64
#define TILE 16
#define PI_F 3.14159265358979f
#define SQR(x) ((x) * (x))
#define MIN3(a, b, c) min(min((a), (b)), (c))
#define LOG_DEBUG(fmt, ...) /* printf(fmt, __VA_ARGS__) */
#define CAT(a, b) a##b
#define STR(x) #x
#if defined(__OPENCL_VERSION__) && __OPENCL_VERSION__ >= 120
#define HAS_CL12 1
#else
#define HAS_CL12 0
#endif

typedef float real_t;
typedef float4 real4_t;

inline real_t lerp_r(real_t a, real_t b, real_t t) { return a + (b - a) * t; }

inline uint wang_hash(uint seed)
{
    seed = (seed ^ 61u) ^ (seed >> 16);
    seed *= 9u;
    seed = seed ^ (seed >> 4);
    seed *= 0x27d4eb2du;
    seed = seed ^ (seed >> 15);
    return seed;
}
"#;

/// One unit; every `@` becomes the unit's number.
const UNIT: &str = r#"
/* ---- unit @ ---- */
#define U@_SCALE (1.5f + (@ % 7) * 0.25f)
#define U@_CLAMP(x, lo, hi) ((x) < (lo) ? (lo) : ((x) > (hi) ? (hi) : (x)))
#define U@_IDX(r, c, w) ((r) * (w) + (c))

typedef struct {
    float4 pos;
    float4 vel;
    float mass;
    int flags;
} body@_t;

typedef struct {
    float dt;
    float damping;
    float4 gravity;
    uint count;
} params@_t;

union bits@ { float f; uint u; };
enum mode@ { MODE@_HASH, MODE@_MUL = 4, MODE@_RAW };

constant float weights@[5] = { 0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f };

inline float4 accel@(float4 a, float4 b, float soft)
{
    float4 d = b - a;
    float r2 = dot(d.xyz, d.xyz) + soft;
    float inv = rsqrt(r2);
    return (float4)(d.xyz * (b.w * inv * inv * inv), 0.0f);
}

static float luma@(float4 c) { return dot(c.xyz, (float3)(0.299f, 0.587f, 0.114f)); }

float smoothstep@(float x)
{
    x = U@_CLAMP(x, 0.0f, 1.0f);
    return x * x * (3.0f - 2.0f * x);
}

uint hash@(uint x)
{
    union bits@ b;
    b.u = x ^ (x >> 16);
    b.u *= 0x7feb352du;
    b.u ^= b.u >> 15;
    return (b.u * 0x846ca68bu) ^ (b.u >> 16) ^ wang_hash(@u);
}

kernel void integrate@(global body@_t *bodies, const params@_t p)
{
    size_t gid = get_global_id(0);
    if (gid >= p.count)
        return;
    global body@_t *b = &bodies[gid];
    float4 acc = p.gravity;
    for (uint j = 0; j < 8u && j < p.count; ++j)
        acc += accel@(b->pos, bodies[j].pos, 0.01f) * bodies[j].mass;
    b->vel = (b->vel + acc * p.dt) * p.damping;
    b->pos += b->vel * p.dt;
    if (b->pos.y < 0.0f) {
        b->pos.y = -b->pos.y;
        b->vel.y = -b->vel.y * 0.5f;
        b->flags |= 1;
    }
}

kernel void convolve@(global const float4 *in, global float4 *out, int width, int height)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float4 sum = (float4)(0.0f);
#pragma unroll
    for (int k = -2; k <= 2; k++) {
        int xx = U@_CLAMP(x + k, 0, width - 1);
        sum += in[U@_IDX(y, xx, width)] * weights@[k + 2];
    }
    out[U@_IDX(y, x, width)] = sum * U@_SCALE;
}

kernel void reduce_max@(global const float *in, global float *partial, local float *scratch, uint n)
{
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    scratch[lid] = gid < n ? in[gid] : -INFINITY;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

kernel void tonemap@(global uchar4 *pixels, float exposure, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    float4 c = convert_float4(pixels[i]) / 255.0f;
    float l = luma@(c);
    float m = smoothstep@(l * exposure);
    c.xyz = c.xyz * (m / fmax(l, 1e-4f));
    c.w = 1.0f;
    pixels[i] = convert_uchar4_sat_rte(c * 255.0f);
}

kernel void histogram@(global const uint *keys, volatile global uint *bins, uint n, int mode)
{
    local uint lbins[WG_SIZE];
    uint lid = get_local_id(0);
    for (uint b = lid; b < WG_SIZE; b += get_local_size(0))
        lbins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t gid = get_global_id(0);
    if (gid < n) {
        uint key = keys[gid];
        switch (mode) {
        case MODE@_HASH:
            key = hash@(key);
            break;
        case MODE@_MUL:
            key *= 2654435761u;
            break;
        default:
            break;
        }
        atomic_inc(&lbins[key % WG_SIZE]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < WG_SIZE; b += get_local_size(0))
        atomic_add(&bins[b], lbins[b]);
}

kernel void transpose@(global const float8 *in, global float8 *out, int w, int h)
{
    local float8 tile[TILE][TILE + 1];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    if (x < w && y < h) {
        float8 v = in[y * w + x];
        v.lo = v.hi.wzyx;
        v.s01 = v.s10 + (float2)(lerp_r(v.s2, v.s3, 0.5f), SQR(v.s4));
        tile[ly][lx] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int tx = get_group_id(1) * TILE + lx, ty = get_group_id(0) * TILE + ly;
    if (tx < h && ty < w) {
        float8 t = tile[lx][ly];
        uint8 mask = (uint8)(7, 6, 5, 4, 3, 2, 1, 0);
        int8 neg = isless(t, (float8)(0.0f));
        out[ty * h + tx] = select(shuffle(t, mask), fabs(t) * PI_F, neg);
    }
}
"#;

/// A program of about `lines` lines: the prologue and as many whole units
/// as bring it closest to that count (at least one).
pub fn program(lines: usize) -> String {
    let mut text = String::from(PROLOGUE);
    let mut count = PROLOGUE.lines().count();
    let unit_lines = UNIT.lines().count();
    let mut unit = 0usize;
    while unit == 0 || count + unit_lines / 2 < lines {
        let stamped = UNIT.replace('@', &unit.to_string());
        count += stamped.lines().count();
        text.push_str(&stamped);
        unit += 1;
    }
    text
}

/// The number of kernels `text` defines (for the report).
pub fn kernel_count(text: &str) -> usize {
    text.matches("kernel void ").count()
}
