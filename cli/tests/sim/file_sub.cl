kernel void file_sub(global const uchar *text, global int *part, global uchar *upper)
{
    size_t i = get_global_id(0);
    uchar c = text[i];
    upper[i] = c >= 'a' && c <= 'z' ? c - 32 : c;
    part[i] = part[i] * 10;
}
