//! Parser tests: real-looking OpenCL C kernels parse without diagnostics and
//! give the expected tree shape; precedence checked through S-expression
//! dumps; deep nesting is a diagnostic. Error messages: `parse_errors.rs`.

mod parse_support;

use cranecl_jit::diag::Diagnostics;
use cranecl_jit::parse::ast::*;
use cranecl_jit::parse::dump;
use cranecl_jit::preprocess::lex;
use cranecl_jit::source::SourceMap;
use parse_support::*;

const DECLS: &str = "int a, b, c, d, i, n; int *p; float4 v; struct S { int x; } s, *ps;";

#[test]
fn precedence_and_associativity() {
    let cases = [
        ("a + b * c", "(+ a (* b c))"),
        ("a * b + c", "(+ (* a b) c)"),
        ("a - b - c", "(- (- a b) c)"),
        ("a = b = c", "(= a (= b c))"),
        ("a += b -= c", "(+= a (-= b c))"),
        ("a << b + c", "(<< a (+ b c))"),
        ("a < b == c > d", "(== (< a b) (> c d))"),
        ("a & b ^ c | d", "(| (^ (& a b) c) d)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a ? b : c ? d : i", "(? a b (? c d i))"),
        ("a ? b = c : d", "(? a (= b c) d)"),
        ("a, b = c, d", "(, (, a (= b c)) d)"),
        ("-a * b", "(* (- a) b)"),
        ("!a && ~b", "(&& (! a) (~ b))"),
        ("*p++", "(* (post++ p))"),
        ("++*p", "(pre++ (* p))"),
        ("&s.x", "(& (. s x))"),
        ("ps->x[i]", "([] (-> ps x) i)"),
        ("(a + b) * c", "(* (+ a b) c)"),
        ("a % b / c", "(/ (% a b) c)"),
        ("a >>= 2", "(>>= a 2)"),
        ("a-- - --b", "(- (post-- a) (pre-- b))"),
        ("sizeof a + b", "(+ (sizeof a) b)"),
        ("sizeof(int) * n", "(* (sizeof-type int) n)"),
        ("(int)a + b", "(+ (cast int a) b)"),
        ("(float)-a", "(cast float (- a))"),
        ("(uint)(a) >> 1", "(>> (cast uint a) 1)"),
    ];
    for (src, want) in cases {
        assert_eq!(e(DECLS, src), want, "{src}");
    }
}

#[test]
fn calls_indexing_members_and_swizzles() {
    let cases = [
        ("get_global_id(0)", "(call get_global_id 0)"),
        ("f(a, b + 1, g())", "(call f a (+ b 1) (call g))"),
        ("v.xyzw", "(. v xyzw)"),
        ("v.s01", "(. v s01)"),
        ("v.hi.lo", "(. (. v hi) lo)"),
        ("v.xy = v.zw", "(= (. v xy) (. v zw))"),
        ("ps->x++", "(post++ (-> ps x))"),
        ("p[i][a]", "([] ([] p i) a)"),
        ("(*ps).x", "(. (* ps) x)"),
    ];
    for (src, want) in cases {
        assert_eq!(e(DECLS, src), want, "{src}");
    }
}

#[test]
fn casts_vector_literals_and_compound_literals() {
    let cases = [
        (
            "(float4)(1.0f, 2.0f, 3.0f, 4.0f)",
            "(vec float4 1.0f 2.0f 3.0f 4.0f)",
        ),
        ("(float4)(a)", "(vec float4 a)"),
        ("(int8)(v.xy, 1, 2, v)", "(vec int8 (. v xy) 1 2 v)"),
        ("(float4)(1.0f).x", "(. (vec float4 1.0f) x)"),
        ("(V)(a, b)", "(vec V a b)"),
        ("(W)(a, b)", "(cast W (, a b))"),
        ("(X)(a, b)", "(vec X a b)"),
        ("(int)(a, b)", "(cast int (, a b))"),
        ("(global float *)p", "(cast global float * p)"),
        (
            "(const __global uchar4 *)p",
            "(cast const global uchar4 * p)",
        ),
        ("(struct S){ .x = 1 }", "(compound struct S {.x = 1})"),
        ("(int[2]){1, 2}[0]", "([] (compound int [2] {1, 2}) 0)"),
        ("sizeof(float4)", "(sizeof-type float4)"),
        ("vec_step(float3)", "(vec_step-type float3)"),
        ("vec_step v", "(vec_step v)"),
        ("_Alignof(double)", "(alignof-type double)"),
        ("(int (*)(int))p", "(cast int (*)(int) p)"),
        ("(size_t)a * 4", "(* (cast size_t a) 4)"),
        ("(__attribute__((packed)) float4)(a)", "(vec float4 a)"),
    ];
    let prelude = format!(
        "{DECLS} typedef float2 V; typedef int W; \
         typedef float X __attribute__((ext_vector_type(2)));"
    );
    for (src, want) in cases {
        assert_eq!(e(&prelude, src), want, "{src}");
    }
}

#[test]
fn literals_keep_spelling_and_value() {
    let tu = ok("void f(void) { 42; 0x1Fu; 017; 10ul; 3LL; 1.5f; 0x1.8p1; .5; 2e-3h; 'a'; '\\n'; '\\xff'; 1.; }");
    let f = functions(&tu).pop().unwrap();
    let lits: Vec<&ExprKind> = f
        .body
        .items
        .iter()
        .map(|i| match i {
            BlockItem::Statement(Stmt {
                kind: StmtKind::Expr(e),
                ..
            }) => &e.kind,
            other => panic!("not an expression statement: {other:?}"),
        })
        .collect();
    let int = |k: &ExprKind| match k {
        ExprKind::IntLit(l) => (l.value, l.radix, l.unsigned, l.long),
        other => panic!("not an integer literal: {other:?}"),
    };
    let float = |k: &ExprKind| match k {
        ExprKind::FloatLit(l) => (l.value, l.suffix),
        other => panic!("not a float literal: {other:?}"),
    };
    let chr = |k: &ExprKind| match k {
        ExprKind::CharLit(l) => l.value,
        other => panic!("not a char literal: {other:?}"),
    };
    assert_eq!(int(lits[0]), (42, 10, false, 0));
    assert_eq!(int(lits[1]), (31, 16, true, 0));
    assert_eq!(int(lits[2]), (15, 8, false, 0));
    assert_eq!(int(lits[3]), (10, 10, true, 1));
    assert_eq!(int(lits[4]), (3, 10, false, 2));
    assert_eq!(float(lits[5]), (1.5, FloatSuffix::F));
    assert_eq!(float(lits[6]), (3.0, FloatSuffix::None));
    assert_eq!(float(lits[7]), (0.5, FloatSuffix::None));
    assert_eq!(float(lits[8]), (2e-3, FloatSuffix::H));
    assert_eq!(chr(lits[9]), 97);
    assert_eq!(chr(lits[10]), 10);
    assert_eq!(chr(lits[11]), -1);
    assert_eq!(float(lits[12]), (1.0, FloatSuffix::None));
    match lits[5] {
        ExprKind::FloatLit(l) => {
            assert_eq!(l.spelling, "1.5f");
            assert_eq!(l.value_f32, 1.5f32);
        }
        _ => unreachable!(),
    }
}

#[test]
fn adjacent_strings_concatenate() {
    let s = e("", r#"printf("a" "b" "c")"#);
    assert_eq!(s, r#"(call printf "abc")"#);
}

#[test]
fn deep_nesting_is_a_diagnostic_not_a_crash() {
    // Brackets: clang's limit of 256.
    for (open, close) in [("(", ")"), ("!(", ")"), ("f(", ")"), ("p[", "]")] {
        let src = format!(
            "int a, *p; int f(int); void g(void) {{ a = {}1{}; }}\n",
            open.repeat(5000),
            close.repeat(5000)
        );
        let errs = errors(&src);
        assert_eq!(errs.len(), 1, "{open}: {errs:?}");
        assert!(
            errs[0].ends_with(": nesting level exceeded maximum of 256"),
            "{open}: {errs:?}"
        );
    }
    let src = format!("void g(void) {}{}\n", "{".repeat(5000), "}".repeat(5000));
    assert_eq!(
        errors(&src),
        ["1:270: nesting level exceeded maximum of 256"]
    );
    // Just under the limit is fine.
    let src = format!(
        "int a; void f(void) {{ a = {}1{}; }}\n",
        "(".repeat(250),
        ")".repeat(250)
    );
    ok(&src);
    // Other recursion (operands, statements) stops at 4096 levels.
    for (open, close) in [("- ", ""), ("a = ", ""), ("(int)", ""), ("if (a) ", "")] {
        let src = format!(
            "int a; void g(void) {{ {}a{}; }}\n",
            open.repeat(6000),
            close.repeat(6000)
        );
        let errs = errors(&src);
        assert_eq!(errs.len(), 1, "{open}: {errs:?}");
        assert!(errs[0].contains("nested too deeply"), "{open}: {errs:?}");
        let src = format!(
            "int a; void g(void) {{ {}a{}; }}\n",
            open.repeat(3000),
            close.repeat(3000)
        );
        ok(&src);
    }
    // Long left-associative chains are bounded too.
    let src = format!("int a; void g(void) {{ a = 1{}; }}\n", " + 1".repeat(5000));
    let errs = errors(&src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].contains("more than 4096 chained operators"),
        "{errs:?}"
    );
    ok(&format!(
        "int a; void g(void) {{ a = 1{}; }}\n",
        " + 1".repeat(4000)
    ));
    // Chains nested in parentheses make the tree deeper than either limit
    // alone: the tree's depth is bounded as a whole, and the item dropped.
    let chain = " + 1".repeat(3000);
    let src = format!("int a; void g(void) {{ a = ((1{chain}){chain}); }}\nint b;\n");
    let p = run(&src);
    let errs: Vec<&str> = p.diags.items.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        errs,
        ["expression is nested too deeply (more than 4096 levels)"]
    );
    assert_eq!(
        p.tu.items.len(),
        2,
        "the variable a and b remain, g is dropped"
    );
}

#[test]
fn vector_add_kernel() {
    let tu = ok(r#"
__kernel void vadd(__global const float *a,
                   __global const float *b,
                   __global float *restrict c,
                   const unsigned int n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
"#);
    let f = functions(&tu)[0];
    assert_eq!(f.name(), "vadd");
    assert!(f.specs.is_kernel());
    assert_eq!(dump::specifiers(&f.specs), "kernel void");
    let params = f.params().expect("a function declarator");
    let shown: Vec<String> = params
        .params
        .iter()
        .map(|p| {
            format!(
                "{} | {}",
                dump::specifiers(&p.specs),
                dump::declarator(&p.declarator)
            )
        })
        .collect();
    assert_eq!(
        shown,
        [
            "global const float | *a",
            "global const float | *b",
            "global float | * restrict c",
            "const unsigned int | n",
        ]
    );
    assert_eq!(f.body.items.len(), 2);
}

#[test]
fn reduction_with_local_memory_and_barriers() {
    let tu = ok(r#"
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce(__global const float4 *in, __global float *out, __local float *scratch)
{
    uint lid = get_local_id(0);
    __local float tile[64];
    float4 v = in[get_global_id(0)];
    scratch[lid] = v.x + v.y + v.z + v.w;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) out[get_group_id(0)] = scratch[0];
    tile[lid] = 0.0f;
}
"#);
    let f = functions(&tu)[0];
    let attr = &f.specs.attributes[0];
    assert_eq!(attr.name.node, "reqd_work_group_size");
    let args: Vec<String> = attr
        .args
        .iter()
        .map(|a| match a {
            AttributeArg::Expr(e) => dump::expr(e),
            AttributeArg::Type(t) => dump::type_name(t),
        })
        .collect();
    assert_eq!(args, ["64", "1", "1"]);
    // `__local float tile[64];` is a declaration with an address space.
    let BlockItem::Declaration(d) = &f.body.items[1] else {
        panic!("not a declaration: {:?}", f.body.items[1]);
    };
    assert_eq!(dump::specifiers(&d.specs), "local float");
    assert_eq!(dump::declarator(&d.declarators[0].declarator), "tile[64]");
    // The `for` holds a declaration.
    let BlockItem::Statement(Stmt {
        kind: StmtKind::For {
            init, cond, step, ..
        },
        ..
    }) = &f.body.items[5]
    else {
        panic!("not a for: {:?}", f.body.items[5]);
    };
    assert!(matches!(init, Some(ForInit::Declaration(_))));
    assert_eq!(dump::expr(cond.as_ref().unwrap()), "(> s 0)");
    assert_eq!(dump::expr(step.as_ref().unwrap()), "(>>= s 1)");
}

#[test]
fn structs_unions_enums_bitfields_typedefs() {
    let tu = ok(r#"
typedef struct __attribute__((packed)) Particle {
    float4 pos;
    float4 vel;
    unsigned int alive : 1, kind : 7;
    int : 0;
    union { int i; float f; } u;
    struct { short a, b; };
} Particle;
typedef enum Color { RED, GREEN = 5, BLUE, } Color;
struct Node { struct Node *next; int value; } __attribute__((aligned(16)));
typedef float4 vec;
typedef global Particle *PP;

kernel void step(global Particle *ps, float dt, Color c) {
    Particle p = ps[get_global_id(0)];
    PP q = ps;
    vec d = p.vel * dt;
    p.pos += d;
    p.u.i = c == GREEN ? 1 : 0;
    p.a = (short)BLUE;
    q->alive = 1;
    ps[get_global_id(0)] = p;
}
"#);
    let decls = file_decls(&tu);
    assert_eq!(decls.len(), 5);
    // The struct definition with its fields and the packed attribute.
    let TypeSpecifier::Struct(st) = &decls[0].specs.type_specs[0].node else {
        panic!("not a struct: {:?}", decls[0].specs);
    };
    assert_eq!(st.name.as_ref().unwrap().node, "Particle");
    assert_eq!(st.attributes[0].name.node, "packed");
    let fields = st.fields.as_ref().unwrap();
    assert_eq!(fields.len(), 6);
    let bits: Vec<(Option<&str>, String)> = fields[2]
        .declarators
        .iter()
        .map(|d| {
            (
                d.declarator.as_ref().and_then(|d| d.name_str()),
                dump::expr(d.bit_width.as_ref().unwrap()),
            )
        })
        .collect();
    assert_eq!(
        bits,
        [(Some("alive"), "1".into()), (Some("kind"), "7".into())]
    );
    assert!(fields[3].declarators[0].declarator.is_none());
    assert!(fields[5].declarators.is_empty(), "anonymous struct member");
    // The enum.
    let TypeSpecifier::Enum(en) = &decls[1].specs.type_specs[0].node else {
        panic!("not an enum");
    };
    let names: Vec<(&str, Option<String>)> = en
        .enumerators
        .as_ref()
        .unwrap()
        .iter()
        .map(|e| (e.name.node.as_str(), e.value.as_ref().map(dump::expr)))
        .collect();
    assert_eq!(
        names,
        [("RED", None), ("GREEN", Some("5".into())), ("BLUE", None)]
    );
    // Attributes after the closing brace belong to the struct.
    let TypeSpecifier::Struct(node) = &decls[2].specs.type_specs[0].node else {
        panic!("not a struct");
    };
    assert_eq!(node.attributes[0].name.node, "aligned");
    // The typedef names parse as types in the kernel.
    let f = functions(&tu)[0];
    let kinds: Vec<&str> = f
        .body
        .items
        .iter()
        .map(|i| match i {
            BlockItem::Declaration(_) => "decl",
            BlockItem::Statement(_) => "stmt",
            BlockItem::StaticAssert(_) => "assert",
        })
        .collect();
    assert_eq!(
        kinds,
        ["decl", "decl", "decl", "stmt", "stmt", "stmt", "stmt", "stmt"]
    );
}

#[test]
fn typedef_names_decide_declaration_or_expression() {
    // `T * x;` declares x when T is a typedef, multiplies otherwise; a local
    // variable hides a typedef (and a built-in type name) in its scope.
    let tu = ok(r#"
typedef int T;
int y;
void f(void) {
    T * x;
    {
        int T = 2;
        T * y;
    }
    T * z;
    {
        float uint = 1.0f;
        uint * y;
    }
    uint * w;
}
"#);
    let f = functions(&tu)[0];
    let kinds: Vec<String> = f
        .body
        .items
        .iter()
        .map(|i| match i {
            BlockItem::Declaration(d) => {
                format!("decl {}", dump::declarator(&d.declarators[0].declarator))
            }
            BlockItem::Statement(Stmt {
                kind: StmtKind::Compound(b),
                ..
            }) => match &b.items[1] {
                BlockItem::Statement(Stmt {
                    kind: StmtKind::Expr(e),
                    ..
                }) => format!("inner expr {}", dump::expr(e)),
                other => format!("inner {other:?}"),
            },
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "decl *x",
            "inner expr (* T y)",
            "decl *z",
            "inner expr (* uint y)",
            "decl *w"
        ]
    );
}

#[test]
fn typedef_scopes_end_with_parameters_and_ignore_members() {
    // A parameter hides a typedef in the body only; a struct member named
    // like a typedef hides nothing; an enumerator does.
    let tu = ok(r#"
typedef int T;
int y;
void f(int T) { T * y; }
struct S { float T; };
void g(void) { T * p; }
void h(void) { enum { T = 3 }; T * y; }
"#);
    let shapes: Vec<&str> = functions(&tu)
        .iter()
        .map(|f| match &f.body.items.last().unwrap() {
            BlockItem::Declaration(_) => "decl",
            BlockItem::Statement(_) => "expr",
            BlockItem::StaticAssert(_) => "assert",
        })
        .collect();
    assert_eq!(shapes, ["expr", "decl", "expr"]);
}

#[test]
fn declarators_read_from_the_name_outward() {
    let tu = ok(r#"
int *a[3];
int (*b)[3];
int (*fp)(int, float);
int *f(void);
int * const * volatile pp;
global float * local * q;
void g(int n, float v[], const global int *restrict in, ...);
char **argv;
"#);
    let shapes: Vec<String> = file_decls(&tu)
        .iter()
        .map(|d| {
            let d = &d.declarators[0].declarator;
            let derived: Vec<&str> = d
                .derived
                .iter()
                .map(|x| match x {
                    DerivedDeclarator::Pointer(_) => "ptr",
                    DerivedDeclarator::Array(_) => "array",
                    DerivedDeclarator::Function(_) => "fn",
                })
                .collect();
            format!("{}: {}", dump::declarator(d), derived.join(" "))
        })
        .collect();
    assert_eq!(
        shapes,
        [
            "*a[3]: array ptr",
            "(*b)[3]: ptr array",
            "(*fp)(int, float): ptr fn",
            "*f(): fn ptr",
            "* const * volatile pp: ptr ptr",
            "* local *q: ptr ptr",
            "g(int n, float v[], const global int * restrict in, ...): fn",
            "**argv: ptr ptr",
        ]
    );
    // Qualifiers stay with their pointer: the first pointer (nearest the
    // name) is the volatile one.
    let d = &file_decls(&tu)[4].declarators[0].declarator;
    let DerivedDeclarator::Pointer(p) = &d.derived[0] else {
        panic!()
    };
    assert_eq!(p.qualifiers[0].node, TypeQualifier::Volatile);
    // `(void)` is an empty prototype; `()` has none.
    let tu = ok("void a(void); void b();");
    let fns: Vec<(usize, bool)> = file_decls(&tu)
        .iter()
        .map(|d| match &d.declarators[0].declarator.derived[0] {
            DerivedDeclarator::Function(f) => (f.params.len(), f.no_prototype),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(fns, [(0, false), (0, true)]);
}

#[test]
fn initializers_with_designators() {
    let tu = ok(r#"
typedef struct { int a; float b[4]; struct { int x, y; } p; } S;
constant S s = { .a = 1, .b = { [2] = 3.0f, 4.0f }, .p.y = 7, };
constant int arr[] = { 1, 2, [7] = 8 };
constant float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
void f(void) { S t = {}; int z[2][2] = {{1, 2}, {3, 4}}; }
"#);
    let inits: Vec<String> = file_decls(&tu)[1..]
        .iter()
        .map(|d| dump::initializer(d.declarators[0].init.as_ref().unwrap()))
        .collect();
    assert_eq!(
        inits,
        [
            "{.a = 1, .b = {[2] = 3.0f, 4.0f}, .p.y = 7}",
            "{1, 2, [7] = 8}",
            "(vec float4 1.0f 2.0f 3.0f 4.0f)",
        ]
    );
}

#[test]
fn every_statement_form() {
    let tu = ok(r#"
kernel void k(global int *out, int n) {
    int acc = 0;
    for (;;) { break; }
    for (int i = 0, j = n; i < j; ++i, --j) continue;
    while (n--) acc++;
    do acc <<= 1; while (acc < 100);
    switch (n) {
    case 0: case 1 + 1: acc = 1; break;
    default: ;
    }
    if (acc) goto end; else acc = -1;
    ;
    { }
end:
    out[0] = acc;
    return;
}
int g(int x) { return x * 2; }
"#);
    let f = functions(&tu)[0];
    let forms: Vec<&str> = f
        .body
        .items
        .iter()
        .map(|i| match i {
            BlockItem::Declaration(_) => "decl",
            BlockItem::StaticAssert(_) => "static_assert",
            BlockItem::Statement(s) => match &s.kind {
                StmtKind::Labeled { .. } => "label",
                StmtKind::Case { .. } => "case",
                StmtKind::Default(_) => "default",
                StmtKind::Compound(_) => "block",
                StmtKind::If { .. } => "if",
                StmtKind::Switch { .. } => "switch",
                StmtKind::While { .. } => "while",
                StmtKind::DoWhile { .. } => "do",
                StmtKind::For { .. } => "for",
                StmtKind::Goto(_) => "goto",
                StmtKind::Continue => "continue",
                StmtKind::Break => "break",
                StmtKind::Return(_) => "return",
                StmtKind::Expr(_) => "expr",
                StmtKind::Null => "null",
            },
        })
        .collect();
    assert_eq!(
        forms,
        ["decl", "for", "for", "while", "do", "switch", "if", "null", "block", "label", "return"]
    );
}

#[test]
fn attributes_everywhere_gcc_allows_them() {
    let tu = ok(r#"
__kernel __attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(8, 8, 1)))
void k(global int *p) {
    __attribute__((opencl_unroll_hint(4)))
    for (int i = 0; i < 4; i++) p[i] = i;
    __attribute__((opencl_unroll_hint)) while (0) {}
    int x __attribute__((aligned(16))) = 0;
    p[0] = x;
}
typedef struct { char c; int i; } __attribute__((packed, aligned(8))) T;
constant int big __attribute__((endian(host))) = 1;
void f(void) __attribute__((overloadable));
void h(global int * __attribute__((nosvm)) q);
int two, __attribute__((aligned(8))) three;
"#);
    let f = functions(&tu)[0];
    let names: Vec<&str> = f
        .specs
        .attributes
        .iter()
        .map(|a| a.name.node.as_str())
        .collect();
    assert_eq!(names, ["vec_type_hint", "work_group_size_hint"]);
    match &f.specs.attributes[0].args[0] {
        AttributeArg::Type(t) => assert_eq!(dump::type_name(t), "float4"),
        other => panic!("vec_type_hint's argument is a type: {other:?}"),
    }
    let stmt_attrs: Vec<String> = f
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            BlockItem::Statement(s) if !s.attributes.is_empty() => Some(format!(
                "{}({})",
                s.attributes[0].name.node,
                s.attributes[0].args.len()
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        stmt_attrs,
        ["opencl_unroll_hint(1)", "opencl_unroll_hint(0)"]
    );
    let BlockItem::Declaration(x) = &f.body.items[2] else {
        panic!()
    };
    assert_eq!(
        x.declarators[0].declarator.attributes[0].name.node,
        "aligned"
    );
    let decls = file_decls(&tu);
    let TypeSpecifier::Struct(st) = &decls[0].specs.type_specs[0].node else {
        panic!()
    };
    let names: Vec<&str> = st.attributes.iter().map(|a| a.name.node.as_str()).collect();
    assert_eq!(names, ["packed", "aligned"]);
    let endian = &decls[1].declarators[0].declarator.attributes[0];
    assert_eq!(endian.name.node, "endian");
    match &endian.args[0] {
        AttributeArg::Expr(e) => assert_eq!(dump::expr(e), "host"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        decls[2].declarators[0].declarator.attributes[0].name.node,
        "overloadable"
    );
    assert_eq!(
        decls[4].declarators[1].declarator.attributes[0].name.node,
        "aligned"
    );
}

#[test]
fn unknown_attributes_warn_and_are_kept() {
    let d = diags(
        "void f(void) __attribute__((frobnicate(1)));\nint x __attribute__((__aligned__(4)));\n",
    );
    assert_eq!(d, ["1:29: warning: unknown attribute 'frobnicate' ignored"]);
}

#[test]
fn opencl_type_names_and_qualifiers() {
    let tu = ok(r#"
kernel void k(read_only image2d_t img, __write_only image3d_t out, sampler_t s,
              global uchar16 *u, local half8 *h, constant double2 *d,
              global atomic_int *a, private ulong x, __private ptrdiff_t y, event_t e,
              global bool *b) {
    float4 px = read_imagef(img, s, (int2)(0, 0));
    intptr_t ip; uintptr_t up; size_t sz;
}
"#);
    let f = functions(&tu)[0];
    let types: Vec<String> = f
        .params()
        .unwrap()
        .params
        .iter()
        .map(|p| dump::specifiers(&p.specs))
        .collect();
    assert_eq!(
        types,
        [
            "read_only image2d_t",
            "write_only image3d_t",
            "sampler_t",
            "global uchar16",
            "local half8",
            "constant double2",
            "global atomic_int",
            "private ulong",
            "private ptrdiff_t",
            "event_t",
            "global bool",
        ]
    );
    let p = &f.params().unwrap().params[3];
    assert_eq!(
        p.specs.type_specs[0].node,
        TypeSpecifier::Vector(ScalarType::UChar, 16)
    );
    // Under OpenCL C 1.2, `generic` and `pipe` are ordinary identifiers.
    let mut sm = SourceMap::new();
    let file = sm.add("p.cl", "int generic = 1; int pipe(int x) { return x; }");
    let mut d = Diagnostics::new();
    let toks = lex(&sm, file, &mut d);
    let opts = cranecl_jit::parse::ParseOptions {
        opencl_c_version: 120,
    };
    let tu = cranecl_jit::parse::parse_with(&toks, opts, &mut d);
    assert!(d.items.is_empty(), "{}", d.render(&sm));
    assert_eq!(tu.items.len(), 2);
    // Under 2.0, they are qualifiers.
    let tu = ok("void f(generic int *p, read_only pipe int q);");
    let ps = &file_decls(&tu)[0].declarators[0].declarator.derived[0];
    let DerivedDeclarator::Function(fd) = ps else {
        panic!()
    };
    assert_eq!(dump::specifiers(&fd.params[0].specs), "generic int");
    assert_eq!(dump::specifiers(&fd.params[1].specs), "read_only pipe int");
}

#[test]
fn implicit_int_at_file_scope() {
    // clang accepts C89's implicit int here; sema warns about it.
    let tu = ok("inc(int *p) { *p += 1; return *p; }");
    let f = functions(&tu)[0];
    assert_eq!(f.name(), "inc");
    assert!(f.specs.type_specs.is_empty());
    // Any declarator, as clang takes it (with a warning from sema).
    let tu = ok("x = 1; *p; y[3], z;");
    let shapes: Vec<String> = file_decls(&tu)
        .iter()
        .flat_map(|d| {
            d.declarators
                .iter()
                .map(|i| dump::declarator(&i.declarator))
        })
        .collect();
    assert_eq!(shapes, ["x", "*p", "y[3]", "z"]);
}

#[test]
fn static_assert_and_spans() {
    let src = "_Static_assert(sizeof(int) == 4, \"int\" \" size\");\nkernel void k(global int *p) {\n    p[0] = 1 + 2;\n}\n";
    let p = run(src);
    assert!(p.diags.items.is_empty());
    let ExternalDecl::StaticAssert(sa) = &p.tu.items[0] else {
        panic!()
    };
    assert_eq!(sa.message.as_ref().unwrap().node, "int size");
    let f = functions(&p.tu)[0];
    assert_eq!(p.sm.snippet(f.declarator.name.as_ref().unwrap().span), "k");
    let BlockItem::Statement(s) = &f.body.items[0] else {
        panic!()
    };
    assert_eq!(p.sm.snippet(s.span), "p[0] = 1 + 2;");
    let StmtKind::Expr(e) = &s.kind else { panic!() };
    assert_eq!(p.sm.snippet(e.span), "p[0] = 1 + 2");
    let ExprKind::Assign { rhs, .. } = &e.kind else {
        panic!()
    };
    assert_eq!(p.sm.snippet(rhs.span), "1 + 2");
    assert_eq!(p.sm.snippet(f.body.span), "{\n    p[0] = 1 + 2;\n}");
    let param = &f.params().unwrap().params[0];
    assert_eq!(p.sm.snippet(param.span), "global int *p");
    assert_eq!(p.sm.snippet(param.specs.span), "global int");
}
