kernel void types(global char *c, global uchar *uc, global short *s,
                  global ushort *us, global int *i, global uint *ui,
                  global long *l, global ulong *ul)
{
    size_t g = get_global_id(0);
    c[g] = c[g] * 2 + 1;
    uc[g] = uc[g] * 2 + 1;
    s[g] = s[g] * 2 + 1;
    us[g] = us[g] * 2 + 1;
    i[g] = i[g] * 2 + 1;
    ui[g] = ui[g] * 2 + 1;
    l[g] = l[g] * 2 + 1;
    ul[g] = ul[g] * 2 + 1;
}
