/* A header with an error, to check that diagnostics point into the header. */
int broken_function(void) { return undeclared_in_header; }
