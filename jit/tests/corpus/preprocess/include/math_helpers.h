/* A header for the corpus's #include tests: guarded, defines a macro and an inline helper. */
#ifndef MATH_HELPERS_H
#define MATH_HELPERS_H
#define SQUARE(x) ((x) * (x))
inline float lerp1(float a, float b, float t) { return a + (b - a) * t; }
#endif
