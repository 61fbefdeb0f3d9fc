//! Parser diagnostics: malformed programs give clang-worded errors at the
//! same line:col as clang-14, several per build, with recovery at the next
//! statement or declaration.

mod parse_support;

use cranecl_jit::parse::ast::*;
use cranecl_jit::parse::dump;
use parse_support::*;

#[test]
fn bad_literals_are_diagnosed() {
    let errs = errors("void f(void) {\n  int a = 08;\n  float b = 1.0ff;\n  int c = 12abc;\n  ulong d = 0x1ffffffffffffffff;\n  float e = 0x1.0;\n  float f = 1.0.0;\n  float g = 1e+;\n}\n");
    assert_eq!(
        errs,
        [
            "2:12: invalid digit '8' in octal constant",
            "3:16: invalid suffix 'ff' on floating constant",
            "4:13: invalid suffix 'abc' on integer constant",
            "5:13: integer literal is too large to be represented in any integer type",
            "6:18: hexadecimal floating constant requires an exponent",
            "7:16: invalid suffix '.0' on floating constant",
            "8:14: exponent has no digits",
        ]
    );
}

#[test]
fn missing_semicolons_point_after_the_previous_token() {
    let errs = errors("int a\nint b;\nvoid f(void) {\n    int x = 1\n    x = 2\n    return\n}\n");
    assert_eq!(
        errs,
        [
            "1:6: expected ';' after top level declarator",
            "4:14: expected ';' at end of declaration",
            "5:10: expected ';' after expression",
            "7:1: expected expression",
        ]
    );
}

#[test]
fn several_errors_in_one_build() {
    let src = r#"kernel void k(global int *out) {
    int a = ;
    out[0] = (1 + 2;
    out[1] = 3 +;
    if a > 0) out[2] = 1;
    out[3] = 4;
}
void g(void) { return 1 }
int h(void) { int x = 1 return x; }
"#;
    let errs = errors(src);
    assert_eq!(
        errs,
        [
            "2:13: expected expression",
            "3:20: expected ')'",
            "4:17: expected expression",
            "5:8: expected '(' after 'if'",
            "8:24: expected ';' after return statement",
            "9:24: expected ';' at end of declaration",
        ]
    );
    // The note points at the opening parenthesis.
    let d = diags("void f(void) { int a = (1 + 2; }");
    let p = run("void f(void) { int a = (1 + 2; }");
    assert_eq!(d.len(), 1);
    let notes = &p.diags.items[0].notes;
    assert_eq!(notes[0].1, "to match this '('");
    assert_eq!(p.sm.file(notes[0].0.file).line_col(notes[0].0.lo), (1, 24));
    // The statements after the errors were still parsed.
    let tu = run(src).tu;
    let k = functions(&tu)[0];
    assert!(k.body.items.iter().any(|i| matches!(i,
        BlockItem::Statement(Stmt { kind: StmtKind::Expr(e), .. }) if dump::expr(e) == "(= ([] out 3) 4)")));
    assert_eq!(functions(&tu).len(), 3);
}

/// Each message and position is clang-14's for the same input (except
/// `foo_t x;` in a block, where clang says "use of undeclared identifier").
#[test]
fn syntax_error_messages() {
    let cases: &[(&str, &str)] = &[
        ("int 3x;", "1:5: expected identifier or '('"),
        ("int global = 1;", "1:12: expected identifier or '('"),
        ("void f(void) { }\n}", "2:1: extraneous closing brace ('}')"),
        ("void f(void) {\n  int x;\n", "2:9: expected '}'"),
        (
            "void f(void) { foo_t x; }",
            "1:16: unknown type name 'foo_t'",
        ),
        ("void f(foo_t *p);", "1:8: unknown type name 'foo_t'"),
        (
            "void f(void) { do { } (1); }",
            "1:23: expected 'while' in do/while loop",
        ),
        (
            "void f(int a) { switch (a) { case 1 break; } }",
            "1:36: expected ':' after 'case'",
        ),
        ("void f(void) { goto 3; }", "1:21: expected identifier"),
        ("void f(int a) { a = a ? 1; }", "1:26: expected ':'"),
        ("void f(int *a) { a[1; }", "1:21: expected ']'"),
        ("void f(void) { lbl: }", "1:21: expected statement"),
        (
            "struct { int x; } ; struct;",
            "1:21: declaration of anonymous struct must be a definition",
        ),
        ("void f(void) { int x = sizeof(int; }", "1:34: expected ')'"),
        (
            "void f(void) { for (int i = 0; i < 1 i++) {} }",
            "1:38: expected ';' in 'for' statement specifier",
        ),
        ("void f(int a) { a.; }", "1:19: expected identifier"),
        ("int x = 'ab' + '';", "1:16: empty character constant"),
        ("void f(void) { (float4)(1, 2; }", "1:29: expected ')'"),
        (
            "struct { int x; } a = { .x 2 };",
            "1:28: expected '=' or another designator",
        ),
        (
            "void f(void) __attribute__((aligned(4)) { }",
            "1:40: expected ')'",
        ),
        (
            "struct S { int x; } void f(void) {}",
            "1:20: expected ';' after struct",
        ),
        (
            "struct S { int x; int };",
            "1:23: expected member name or ';' after declaration specifiers",
        ),
        (
            "enum E { A, B C };",
            "1:14: missing ',' between enumerators",
        ),
        ("enum E { 1 };", "1:10: expected identifier"),
        ("void f(void) { while (1) }", "1:26: expected statement"),
        (
            "int f(int a, ) { return a; }",
            "1:14: expected parameter declarator",
        ),
        ("int f(int a b) { return a; }", "1:13: expected ')'"),
        ("void f(int a) { f(a ; }", "1:21: expected ')'"),
        (
            "void f(void) { do ; while (1) }",
            "1:30: expected ';' after do/while statement",
        ),
        (
            "void f(void) { goto l }",
            "1:22: expected ';' after goto statement",
        ),
        ("int *;", "1:6: expected identifier or '('"),
        ("void f(void) { ) ; }", "1:16: expected expression"),
        (
            "kernel void k(global , global float *out) {}",
            "1:15: expected parameter declarator",
        ),
    ];
    for (src, want) in cases {
        let errs = errors(src);
        assert_eq!(
            errs.first().map(String::as_str),
            Some(*want),
            "{src}: {errs:?}"
        );
    }
}

#[test]
fn error_limit_stops_parsing() {
    let src = "void f(void) {\n".to_string() + &"  a = ;\n".repeat(100) + "}\n";
    let errs = errors(&src);
    assert_eq!(errs.len(), 21);
    assert!(errs[20].ends_with("too many errors emitted, stopping now"));
}

#[test]
fn unsupported_gnu_extensions_say_so() {
    // `a ?: b` is `a ? a : b` when `a` has no side effects.
    assert_eq!(
        errors("int f(int a, int b) { return a++ ?: b; }"),
        ["1:34: the GNU '?:' operator with an omitted middle operand is not supported here"]
    );
    let tu = run("int f(int a, int b) { return a ?: b; }").tu;
    let f = functions(&tu)[0];
    let BlockItem::Statement(Stmt {
        kind: StmtKind::Return(Some(e)),
        ..
    }) = &f.body.items[0]
    else {
        panic!("{:?}", f.body.items)
    };
    assert_eq!(dump::expr(e), "(? a a b)");
    assert_eq!(
        errors("void f(int a) { switch (a) { case 1 ... 3: break; } }"),
        ["1:37: case ranges ('case A ... B:') are not supported"]
    );
}

/// Found by the fuzzer: a `\x` escape with many digits overflowed. The lexer
/// reports the escape (once); the parser only computes the value.
#[test]
fn long_hex_escape_is_out_of_range_not_a_crash() {
    assert_eq!(
        errors("int c = '\\x1111111111111111';"),
        ["1:10: hex escape sequence out of range"]
    );
}

/// Recovery keeps every function and reports each mistake once; the lines
/// and columns are clang-14's except line 9, where clang says "expected
/// statement" at 10:1 after its own recovery of the `for`.
#[test]
fn recovery_across_functions() {
    let src = r#"kernel void a(global float *x) {
    float y = sin(x[0];
    x[1] = y * 2.0f;
}
kernel void b(global float *x) {
    for (int i = 0; i < 4; i++ {
        x[i] = i;
    }
    x[5] = 1.0f
}
kernel void c(global float *x) {
    struct { int a; } s = { .a = 1 };
    x[0] = s.a +;
    if (x[0] > 1) { x[1] = 2; } else { x[1] = 3 }
}
kernel void d(global float *x) { x[0] = 1.0f; }
"#;
    assert_eq!(
        errors(src),
        [
            "2:23: expected ')'",
            "6:32: expected ')'",
            "9:16: expected ';' after expression",
            "13:17: expected expression",
            "14:48: expected ';' after expression",
        ]
    );
    let tu = run(src).tu;
    let names: Vec<&str> = functions(&tu).iter().map(|f| f.name()).collect();
    assert_eq!(names, ["a", "b", "c", "d"]);
    // The `for` with the missing `)` kept its body.
    let b = functions(&tu)[1];
    assert!(matches!(
        &b.body.items[0],
        BlockItem::Statement(Stmt {
            kind: StmtKind::For { body, .. },
            ..
        }) if matches!(body.kind, StmtKind::Compound(_))
    ));
}
