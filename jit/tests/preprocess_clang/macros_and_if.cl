#define str(s) # s
#define xstr(s) str(s)
#define f(x, y) x + y
#define g(...) [__VA_ARGS__] #__VA_ARGS__
#define h(a, b) a ## b ## a
#define EMPTY
#define LPAREN (
#define RPAREN )
#define F(x, y) x + y
#define ELLIP_FUNC(...) __VA_ARGS__
xstr(f(1, 2)) str( a  "b\n"  'c' ) g() g(1,  2 ,3) h(x, y) h(,) h(1,)
f LPAREN 1, 2 RPAREN
ELLIP_FUNC(F, LPAREN, 'a', 'b', RPAREN);
#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);
#define OBJ(x) x EMPTY
OBJ(1)2
#define t(x,y,z) x ## y ## z
t(+,+,=) t(<,<,=) t(-,>,)
#define AA BB
#define BB AA
AA BB
#define foo() bar
foo()baz
#define recur(x) x recur(x)
recur(recur(1))
#if (2 || 1/0) && -1 < 0u
unsigned_ok
#endif
#if 'z' - 'a' == 25 && '\377' < 0
char_ok
#endif
#if 0x7fffffffffffffff + 0 > 0 && (1 ? -1 : 0u) > 0
cond_ok
#endif
