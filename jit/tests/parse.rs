//! Parser tests: real-looking OpenCL C kernels parse without diagnostics and
//! give the expected tree shape; precedence checked through S-expression
//! dumps; malformed programs give clang-worded errors at the right line:col,
//! several per build.

use cranecl_jit::diag::{Diagnostics, Level};
use cranecl_jit::parse::ast::*;
use cranecl_jit::parse::{dump, parse};
use cranecl_jit::preprocess::lex;
use cranecl_jit::source::SourceMap;

struct Parsed {
    tu: TranslationUnit,
    diags: Diagnostics,
    sm: SourceMap,
}

fn run(src: &str) -> Parsed {
    let mut sm = SourceMap::new();
    let file = sm.add("prog.cl", src);
    let mut diags = Diagnostics::new();
    let toks = lex(&sm, file, &mut diags);
    let tu = parse(&toks, &mut diags);
    Parsed { tu, diags, sm }
}

/// Parse, asserting no diagnostic at all.
fn ok(src: &str) -> TranslationUnit {
    let p = run(src);
    if !p.diags.items.is_empty() {
        let mut log = p.diags.render(&p.sm);
        log.truncate(log.floor_char_boundary(3000));
        panic!("unexpected diagnostics:\n{log}");
    }
    p.tu
}

/// Diagnostics as `line:col: level: message`.
fn diags(src: &str) -> Vec<String> {
    let p = run(src);
    p.diags
        .items
        .iter()
        .map(|d| {
            let (l, c) = p.sm.file(d.span.file).line_col(d.span.lo);
            let level = match d.level {
                Level::Error => "error",
                Level::Warning => "warning",
                Level::Note => "note",
            };
            format!("{l}:{c}: {level}: {}", d.message)
        })
        .collect()
}

/// Errors only, as `line:col: message`.
fn errors(src: &str) -> Vec<String> {
    diags(src)
        .into_iter()
        .filter_map(|d| d.split_once(": error: ").map(|(a, b)| format!("{a}: {b}")))
        .collect()
}

/// The function definitions of a unit.
fn functions(tu: &TranslationUnit) -> Vec<&FunctionDef> {
    tu.items
        .iter()
        .filter_map(|i| match i {
            ExternalDecl::Function(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// The expression statements of the last function, dumped.
fn body_exprs(tu: &TranslationUnit) -> Vec<String> {
    let f = functions(tu).pop().expect("a function");
    f.body
        .items
        .iter()
        .filter_map(|i| match i {
            BlockItem::Statement(Stmt {
                kind: StmtKind::Expr(e),
                ..
            }) => Some(dump::expr(e)),
            _ => None,
        })
        .collect()
}

/// Dump one expression written inside a function (after `prelude` at file
/// scope), checking it parses cleanly.
fn e(prelude: &str, expr: &str) -> String {
    let src = format!("{prelude}\nvoid f(void) {{ {expr}; }}\n");
    let tu = ok(&src);
    let mut v = body_exprs(&tu);
    assert_eq!(v.len(), 1, "one expression statement in {src}");
    v.remove(0)
}

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
    ];
    let prelude = format!("{DECLS} typedef float2 V; typedef int W;");
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
fn bad_literals_are_diagnosed() {
    let errs = errors("void f(void) {\n  int a = 08;\n  float b = 1.0ff;\n  int c = 12abc;\n  ulong d = 0x1ffffffffffffffff;\n  float e = 0x1.0;\n}\n");
    assert_eq!(
        errs,
        [
            "2:11: invalid digit '8' in octal constant",
            "3:13: invalid suffix 'ff' on floating constant",
            "4:11: invalid suffix 'abc' on integer constant",
            "5:13: integer literal is too large to be represented in any integer type",
            "6:13: hexadecimal floating constants require an exponent",
        ]
    );
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
}
