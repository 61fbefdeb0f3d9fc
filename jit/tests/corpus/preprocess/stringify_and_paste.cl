// RUN: -cl-std=CL1.2
// EXPECT: ok
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define MAKE_FN(name) int CAT(get_, name)(void) { return sizeof(STR(name)); }
MAKE_FN(width)
MAKE_FN(height)
kernel void k(global int *out)
{
    constant char *s = XSTR(CAT(fo, o));
    out[0] = get_width() + get_height() + s[0];
}
