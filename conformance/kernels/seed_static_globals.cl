// @options -cl-std=CL2.0
// @buf out int 3 zero
// @run k g=8 : out
// @run k g=8 : out
// @check out static_globals
static global int bat = 5;
static int implicit_global;
int next(void) { static int n = 100; return ++n; }
kernel void k(global int *out) {
    if (get_global_id(0) == 0) {
        bat *= 2;
        implicit_global += 3;
        out[0] = bat;
        out[1] = implicit_global;
        out[2] = next();
    }
}
