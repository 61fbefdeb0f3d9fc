#define ZERO 0
#define ONE 1
#if ZERO
#error not taken
#elif ONE && defined ONE && defined(ZERO) && !defined(NOPE)
taken_1
# if 1 ? 0 : 1/0
#  error not taken
# else
taken_2
# endif
#else
it's not lexed: ' "
#endif
#if -1 > 0u && 0xffffffffffffffff == -1 && 010 == 8 && 'A' == 65 && '\0' == 0
taken_3
#endif
#if (1 << 126) * 2 < 0 && ~0u == 0xffffffffffffffffffffffffffffffff
taken_4
#endif
#ifdef __OPENCL_C_VERSION__
#if __OPENCL_C_VERSION__ == 120 && CL_VERSION_1_2 == 120
taken_5
#endif
#endif
#if defined(__ENDIAN_LITTLE__) && !defined(NEVER_DEFINED) == 0
never_defined_is_defined
#endif
#if 0xffffffffffffffff == -1
not_taken_128_bit_intmax
#endif
#if defined(__has_include) && !__has_include("no_such_header_for_sure.h")
has_include_works
#endif
