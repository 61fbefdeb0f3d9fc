// RUN: -cl-std=CL1.2
// EXPECT: ok
/* comment with // inside and a "quote" */
// line comment with /* inside
kernel void k(global char *out)
{
    constant char *s = "string with /* not a comment */ and \"escapes\"\n";
    out[0] = s[0] + '\'' + '\\' + '\x41' + '\101';
}
