#define NIL(xxx) xxx
#define G_0(arg) NIL(G_1)(arg)
#define G_1(arg) NIL(arg)
G_0(42)
#define foo() bar
#define bar() foo
foo()()()
#define f(x) g(x
#define g(x) x)
f(1)
#define AND &
#define CAT(a,b) a##b
#define XCAT(a,b) CAT(a,b)
XCAT(AND, AND) CAT(AND, AND)
#define m1(x) x
#define m2 m1(m2
m2))
#define obj(x) x obj
obj(obj)(1)
#define q(x) x
#define r(x) q(x) r
r(r)(2)
#define LINE __LINE__
#define ML(a, b) a b __LINE__
ML(__LINE__,
 LINE)
ML(1,
2
)
__LINE__
#define EMPTY
#define DEFER(id) id EMPTY
#define EXPAND(...) __VA_ARGS__
#define A() 123
DEFER(A)() EXPAND(DEFER(A)())
#define STR(x) #x
#define XSTR(x) STR(x)
XSTR(__LINE__) STR(  leading   and    trailing  ) STR(a/**/b) STR('"' "\\" '\'')
#define PASTE(a,b) a##b
PASTE(1,.5e) PASTE(.,5) PASTE(0x,1p) PASTE(L, 'a') PASTE(u8, x)
#define VA(a, ...) a __VA_ARGS__ #__VA_ARGS__
VA(1) VA(1,) VA(1, 2) VA((1,2),(3,4))
