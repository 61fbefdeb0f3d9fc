/* Included through another header, by a path relative to the including file. */
#include "../math_helpers.h"
#define NESTED_VALUE 42
