//! The preprocessor, seen from outside: source text in, tokens and
//! diagnostics out. Expected outputs are written as C text and lexed, so a
//! test compares token spellings, not whitespace.

use cranecl_jit::diag::Diagnostics;
use cranecl_jit::options::ClStd;
use cranecl_jit::preprocess::{lex, preprocess, tokens_text, PreprocessOptions};
use cranecl_jit::source::SourceMap;
use cranecl_jit::token::{Token, TokenKind};

/// What one preprocessing run produced.
struct Run {
    sm: SourceMap,
    toks: Vec<Token>,
    diags: Diagnostics,
}

impl Run {
    fn text(&self) -> String {
        tokens_text(&self.toks)
    }
    fn log(&self) -> String {
        self.diags.render(&self.sm)
    }
    fn errors(&self) -> usize {
        self.diags.error_count()
    }
    fn warnings(&self) -> usize {
        self.diags
            .items
            .iter()
            .filter(|d| d.level == cranecl_jit::diag::Level::Warning)
            .count()
    }
    /// The source text a token's diagnostics would point at.
    fn loc_text(&self, i: usize) -> &str {
        self.sm.snippet(self.toks[i].loc())
    }
}

fn run_with(src: &str, opts: &PreprocessOptions) -> Run {
    let mut sm = SourceMap::new();
    let main = sm.add("prog.cl", src);
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, main, opts, &mut diags);
    Run { sm, toks, diags }
}

fn run(src: &str) -> Run {
    run_with(src, &PreprocessOptions::default())
}

/// C text normalised to its tokens joined by spaces.
fn norm(c: &str) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add("expected", c);
    let mut d = Diagnostics::new();
    let toks = lex(&sm, id, &mut d);
    assert!(d.items.is_empty(), "expected text does not lex: {c}");
    tokens_text(&toks)
}

/// Preprocesses `src`, which must give no diagnostic, and compares with `want`.
#[track_caller]
fn check(src: &str, want: &str) {
    let r = run(src);
    assert_eq!(
        r.diags.items.len(),
        0,
        "unexpected diagnostics:\n{}",
        r.log()
    );
    assert_eq!(r.text(), norm(want), "source:\n{src}");
}

/// Preprocesses `src`, which must give an error whose message contains `msg`.
#[track_caller]
fn check_error(src: &str, msg: &str) -> Run {
    let r = run(src);
    assert!(
        r.diags
            .items
            .iter()
            .any(|d| d.level == cranecl_jit::diag::Level::Error && d.message.contains(msg)),
        "no error containing {msg:?} for:\n{src}\nlog:\n{}",
        r.log()
    );
    r
}

/// Preprocesses `src`, which must give a warning containing `msg` and no error.
#[track_caller]
fn check_warning(src: &str, msg: &str) -> Run {
    let r = run(src);
    assert_eq!(r.errors(), 0, "unexpected errors:\n{}", r.log());
    assert!(
        r.diags
            .items
            .iter()
            .any(|d| d.level == cranecl_jit::diag::Level::Warning && d.message.contains(msg)),
        "no warning containing {msg:?} for:\n{src}\nlog:\n{}",
        r.log()
    );
    r
}

/// Whether `#if cond` takes its branch (the expression must be error-free).
#[track_caller]
fn if_taken(cond: &str) -> bool {
    let r = run(&format!("#if {cond}\nyes\n#else\nno\n#endif\n"));
    assert_eq!(r.errors(), 0, "#if {cond}:\n{}", r.log());
    match r.text().as_str() {
        "yes" => true,
        "no" => false,
        other => panic!("#if {cond} gave {other:?}"),
    }
}

// ---- macros ----

#[test]
fn object_like_macros_expand_and_rescan() {
    check(
        "#define N 4\n#define M (N * 2)\nint a[M];",
        "int a[(4 * 2)];",
    );
    check("#define E\nE x E", "x");
    check("#define A B\n#define B C\n#define C 42\nA", "42");
}

#[test]
fn function_like_macros_take_arguments() {
    check(
        "#define add(a, b) ((a) + (b))\nadd(1, 2*3)",
        "((1) + (2*3))",
    );
    check("#define f(x) [x]\nf((a, b))", "[(a, b)]");
    check("#define f() ok\nf()", "ok");
    check("#define one(x) <x>\none()", "< >");
    // A function-like name without `(` is an ordinary identifier.
    check("#define f(x) x\nint f; f\n(1)", "int f; 1");
    // Arguments are expanded before substitution.
    check("#define N 3\n#define sq(x) x*x\nsq(N)", "3*3");
}

#[test]
fn self_reference_is_painted_blue() {
    check("#define foo foo + 1\nfoo", "foo + 1");
    check("#define a b\n#define b a\na b", "a b");
    check("#define f(x) f(x)\nf(1)", "f(1)");
    // The painted token stays unexpandable when it is passed on.
    check("#define g(x) x\n#define foo g(foo)\nfoo", "foo");
}

#[test]
fn variadic_macros() {
    check(
        "#define v(...) [__VA_ARGS__]\nv(1, 2, 3) v()",
        "[1, 2, 3] []",
    );
    check("#define v(a, ...) a|__VA_ARGS__\nv(1) v(1,2,3)", "1| 1|2,3");
    // GNU: `, ## __VA_ARGS__` drops the comma when there are no arguments.
    check(
        "#define p(fmt, ...) printf(fmt, ## __VA_ARGS__)\np(\"a\") p(\"b\", 1)",
        "printf(\"a\") printf(\"b\", 1)",
    );
    // GNU named variable arguments.
    check("#define n(args...) f(args)\nn(1, 2)", "f(1, 2)");
}

#[test]
fn stringizing() {
    check(
        "#define s(x) #x\ns(a  +   b) s( spaced ) s()",
        "\"a + b\" \"spaced\" \"\"",
    );
    check(
        r#"#define s(x) #x
s("a\n" 'b')"#,
        r#""\"a\\n\" 'b'""#,
    );
}

#[test]
fn token_pasting() {
    check(
        "#define cat(a, b) a ## b\ncat(x, y) cat(1, e5) cat(-, >) cat(, z) cat(w, )",
        "xy 1e5 -> z w",
    );
    check("#define V float ## 4\nV", "float4");
    let r = check_error("#define cat(a, b) a ## b\ncat(+, /)", "pasting formed '+/'");
    assert_eq!(r.text(), "+ /", "both tokens are kept");
    assert!(
        r.log()
            .contains("prog.cl:1:21: note: expanded from macro 'cat'"),
        "{}",
        r.log()
    );
}

#[test]
fn macro_invocation_errors() {
    check_error("#define f(a, b) a\nf(1)", "too few arguments");
    check_error("#define f(a) a\nf(1, 2)", "too many arguments");
    let r = check_error(
        "#define f(a) a\nf(1, 2",
        "unterminated function-like macro invocation",
    );
    assert!(
        r.log().contains("note: macro 'f' defined here"),
        "{}",
        r.log()
    );
}

#[test]
fn define_errors() {
    check_error("#define\n", "macro name missing");
    check_error("#define 3 x\n", "macro name must be an identifier");
    check_error(
        "#define defined 1\n",
        "'defined' cannot be used as a macro name",
    );
    check_error("#define f(a, a) a\n", "duplicate macro parameter name 'a'");
    check_error(
        "#define f(a b) a\n",
        "expected comma in macro parameter list",
    );
    check_error("#define f(a\n", "missing ')' in macro parameter list");
    check_error(
        "#define f(x) #y\n",
        "'#' is not followed by a macro parameter",
    );
    check_error(
        "#define f(x) ## x\n",
        "'##' cannot appear at start of macro expansion",
    );
    check_error(
        "#define g x ##\n",
        "'##' cannot appear at end of macro expansion",
    );
}

#[test]
fn redefinition_follows_c99_6_10_3p2() {
    // C99 §6.10.3.5 EXAMPLE 6: the first group is valid, each of the next four is not.
    let valid = "#define OBJ_LIKE (1-1)\n\
                 #define OBJ_LIKE /* white space */ (1-1) /* other */\n\
                 #define FUNC_LIKE(a) ( a )\n\
                 #define FUNC_LIKE( a )( /* note the white space */ \\\n a /* other stuff on this line\n */ )\n";
    let r = run(valid);
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    let invalid = "#define OBJ_LIKE (0)\n\
                   #define OBJ_LIKE (1 - 1)\n\
                   #define FUNC_LIKE(b) ( a )\n\
                   #define FUNC_LIKE(b) ( b )\n";
    let r = run(&format!("{valid}{invalid}"));
    assert_eq!(r.warnings(), 4, "{}", r.log());
    assert!(r.log().contains("warning: 'OBJ_LIKE' macro redefined"));
    assert!(r.log().contains("note: previous definition is here"));
}

#[test]
fn undef_removes_a_macro() {
    check("#define X 1\nX\n#undef X\nX", "1 X");
    check_warning(
        "#define X 1\n#undef X Y\n",
        "extra tokens at end of #undef directive",
    );
}

// ---- the C standard's examples (C99 §6.10.3.4 and §6.10.3.5) ----

#[test]
fn c99_6_10_3_4_example() {
    check("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)", "2*9*g");
}

#[test]
fn c99_6_10_3_5_example_3() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let want = r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };
"#;
    check(src, want);
}

#[test]
fn c99_6_10_3_5_example_4() {
    // The standard's `str(: @\n)` is left out: `@` and a lone `\` are not
    // OpenCL C tokens, so this lexer rejects them.
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0), s);
#include xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let want = r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0", s);
included_vers2
"hello";
"hello" ", world"
"#;
    let opts = PreprocessOptions {
        embedded_headers: vec![("vers2.h".into(), "included_vers2\n".into())],
        ..Default::default()
    };
    let r = run_with(src, &opts);
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    assert_eq!(r.text(), norm(want));
}

#[test]
fn c99_6_10_3_5_example_5() {
    check(
        "#define t(x,y,z) x ## y ## z\n\
         int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n t(10,,), t(,11,), t(,,12), t(,,) };",
        "int j[] = { 123, 45, 67, 89,\n 10, 11, 12, };",
    );
}

#[test]
fn c99_6_10_3_5_example_7() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let want = r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));
"#;
    check(src, want);
}

// ---- conditional inclusion ----

#[test]
fn if_evaluates_integer_constant_expressions() {
    let cases: &[(&str, bool)] = &[
        ("1", true),
        ("0", false),
        ("1 + 2 * 3 == 7", true),
        ("(1 + 2) * 3 == 9", true),
        ("0x10 == 16 && 017 == 15", true),
        ("'a' == 97 && '\\n' == 10 && '\\x41' == 65", true),
        ("'\\377' < 0", true), // char is signed
        ("-1 < 0", true),
        ("-1 > 0u", true),                   // unsigned arithmetic
        ("0xFFFFFFFFFFFFFFFF == -1", false), // 128-bit intmax_t, as clang
        ("0xFFFFFFFFFFFFFFFF == 18446744073709551615", true),
        (
            "ULONG_MAX == 0xffffffffffffffff && LONG_MAX == 9223372036854775807",
            true,
        ),
        ("18446744073709551615u / 2 == 9223372036854775807", true),
        ("-7 / 2 == -3 && -7 % 2 == -1", true),
        ("1 << 4 == 16 && -16 >> 2 == -4", true),
        ("(~0u >> 127) == 1", true),
        ("1 ? 2 : 0", true),
        ("0 ? 1 : 0", false),
        ("(0 ? 1u : -1) > 0", true), // ?: converts both arms
        ("0 && 1 / 0", false),       // not evaluated: no error
        ("1 || 1 / 0", true),
        ("1 ? 1 : 1 / 0", true),
        ("!0 && !!5 && ~0 == -1", true),
        ("(2, 0)", false),
        ("undefined_name", false),
        ("undefined_name == 0", true),
        ("10L + 3ULL == 13", true),
        (
            "1 != 2 && 3 >= 3 && 2 <= 1 == 0 && (5 & 3) == 1 && (5 ^ 3) == 6 && (5 | 3) == 7",
            true,
        ),
    ];
    for &(expr, want) in cases {
        assert_eq!(if_taken(expr), want, "#if {expr}");
    }
}

#[test]
fn if_expands_macros_and_defined() {
    assert!(if_taken("defined __OPENCL_VERSION__"));
    assert!(if_taken("defined(CL_VERSION_1_2) && !defined(NOPE)"));
    check("#define V 3\n#if V > 2\nbig\n#endif", "big");
    check(
        "#define ISDEF defined(V)\n#define V\n#if ISDEF\nyes\n#endif",
        "yes",
    );
    check("#define F(x) (x * 2)\n#if F(3) == 6\nsix\n#endif", "six");
}

#[test]
fn if_expression_errors() {
    check_error(
        "#if 1 / 0\n#endif",
        "division by zero in preprocessor expression",
    );
    check_error(
        "#if 1 % 0\n#endif",
        "remainder by zero in preprocessor expression",
    );
    let r = check_error("#if\n#endif", "expected value in expression");
    assert!(r.log().starts_with("prog.cl:1:4: error"), "{}", r.log());
    check_error(
        "#if 1 +/\n#endif",
        "invalid token at start of a preprocessor expression",
    );
    check_error("#if )\n#endif", "expected value in expression");
    check_error("#if 0x\n#endif", "invalid suffix 'x' on integer constant");
    check_error("#if 1 +\n#endif", "expected value in expression");
    check_error("#if (1\n#endif", "expected ')' in preprocessor expression");
    check_error("#if 1 2\n#endif", "token is not a valid binary operator");
    check_error(
        "#if 1.0\n#endif",
        "floating point literal in preprocessor expression",
    );
    check_error(
        "#if \"s\"\n#endif",
        "invalid token at start of a preprocessor expression",
    );
    check_error("#if 1 ? 2\n#endif", "expected ':'");
    check_error("#if defined\n#endif", "macro name missing");
    // The end of the line is where the `)` is missing.
    let r = check_error("#if defined(X\n#endif", "missing ')' after 'defined'");
    assert!(r.log().starts_with("prog.cl:1:14: error"), "{}", r.log());
    // The failed condition counts as false.
    let r = check_error("#if 1/0\nyes\n#else\nno\n#endif", "division by zero");
    assert_eq!(r.text(), "no");
}

#[test]
fn conditional_groups() {
    check("#ifdef __ENDIAN_LITTLE__\nle\n#else\nbe\n#endif", "le");
    check("#ifndef __IMAGE_SUPPORT__\nno_images\n#endif", "");
    check(
        "#if 0\na\n#elif 0\nb\n#elif 1\nc\n#elif 1\nd\n#else\ne\n#endif",
        "c",
    );
    check("#if 1\na\n#elif 1/0\nb\n#else\nc\n#endif", "a"); // later #elif not evaluated
                                                            // Nested groups inside a skipped group, and text that would not lex.
    check(
        "#if 0\n#if 1\nx\n#else\ny\n#endif\nit's skipped ` @\n#elif 1\nz\n#endif",
        "z",
    );
    // Even the first token after the directive is lexed quietly.
    check("#if 0\n'unterminated\n#else\nok\n#endif", "ok");
    check("#ifdef NOPE\n\"unterminated\n#elif 0\n@\n#endif", "");
    check("#if 1\nok\n#else\n'unterminated\n#endif", "ok");
}

#[test]
fn conditional_errors() {
    check_error("#if 1\nx\n", "unterminated conditional directive");
    check_error("#endif\n", "#endif without #if");
    check_error("#else\n", "#else without #if");
    check_error("#elif 1\n", "#elif without #if");
    check_error("#if 1\n#else\n#else\n#endif\n", "#else after #else");
    check_error("#if 0\n#else\n#elif 1\n#endif\n", "#elif after #else");
    check_warning(
        "#ifdef X Y\n#endif\n",
        "extra tokens at end of #ifdef directive",
    );
    check_warning(
        "#if 1\n#endif X\n",
        "extra tokens at end of #endif directive",
    );
}

// ---- other directives ----

#[test]
fn error_and_warning_directives() {
    // The text as written (clang shows comments too).
    let r = check_error(
        "#error this is   bad // really\n",
        "this is   bad // really",
    );
    assert!(
        r.log()
            .starts_with("prog.cl:1:2: error: this is   bad // really\n"),
        "{}",
        r.log()
    );
    check_warning("#warning careful \"quoted\"\n", "careful \"quoted\"");
    check("#if 0\n#error not reached\n#endif", "");
}

#[test]
fn line_directive_and_builtin_macros() {
    check("a __LINE__\nb __LINE__", "a 1 b 2");
    check("#line 100\n__LINE__\n__LINE__", "100 101");
    check("#line 7 \"other.cl\"\n__FILE__ __LINE__", "\"other.cl\" 7");
    check("__FILE__", "\"prog.cl\"");
    check("__COUNTER__ __COUNTER__", "0 1");
    check("#define L __LINE__\n\nL", "3");
    // __LINE__ written in a macro argument is the line the user wrote it on.
    check("#define pair(a, b) a b\npair(__LINE__,\n__LINE__)", "2 3");
    // In a macro body it is the line where the invocation ends (as GCC and clang).
    check("#define ML(a, b) a __LINE__\nML(1\n,\n)", "1 4");
    check("#define ML(a, b) a __LINE__\nML(__LINE__,\n)", "2 3");
    check_error(
        "#line x\n",
        "#line directive requires a positive integer argument",
    );
    check_error(
        "#line 0x10\n",
        "#line directive requires a simple digit sequence",
    );
    check_error("#line 3 x\n", "invalid filename for #line directive");
    check_error("#frobnicate\n", "invalid preprocessing directive");
    check("#\n# /* null directive */\nok", "ok");
}

#[test]
fn pragmas() {
    // Known and ignored pragmas give nothing.
    let ok = "#pragma OPENCL FP_CONTRACT ON\n\
              #pragma OPENCL FP_CONTRACT DEFAULT\n\
              #pragma OPENCL EXTENSION all : disable\n\
              #pragma unroll\n#pragma unroll 4\n#pragma nounroll\n#pragma weird stuff\n\
              _Pragma(\"unroll\") x";
    check(ok, "x");
    check_warning(
        "#pragma OPENCL EXTENSION cl_nonsense_ext : enable\n",
        "unknown OpenCL extension 'cl_nonsense_ext' - ignoring",
    );
    if !cranecl_jit::features::EXTENSIONS
        .iter()
        .any(|e| e.name == "cl_khr_fp64")
    {
        check_warning(
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
            "unsupported OpenCL extension 'cl_khr_fp64' - ignoring",
        );
    }
    check_warning("#pragma OPENCL EXTENSION all enable\n", "expected ':'");
    check_warning(
        "#pragma OPENCL EXTENSION all : maybe\n",
        "expected 'enable' or 'disable'",
    );
    check_warning(
        "#pragma OPENCL FP_CONTRACT SOMETIMES\n",
        "expected 'ON' or 'OFF' or 'DEFAULT'",
    );
    check_warning(
        "_Pragma(\"OPENCL FP_CONTRACT X\")\n",
        "expected 'ON' or 'OFF' or 'DEFAULT'",
    );
    check_error(
        "_Pragma(1)\n",
        "_Pragma takes a parenthesized string literal",
    );
}

// ---- #include ----

/// A fresh folder under the system temp folder for one test.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("cranecl-pp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create temp dir");
    d
}

fn write(path: &std::path::Path, text: &str) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).expect("create dir");
    }
    std::fs::write(path, text).expect("write file");
}

#[test]
fn include_searches_the_including_folder_then_include_dirs() {
    let d = temp_dir("search");
    write(
        &d.join("src/main.cl"),
        "#include \"local.h\"\n#include <lib.h>\n#include \"sub/deep.h\"\nend",
    );
    write(&d.join("src/local.h"), "local");
    write(&d.join("src/sub/deep.h"), "#include \"sibling.h\"\n");
    write(&d.join("src/sub/sibling.h"), "sibling");
    write(&d.join("inc/lib.h"), "lib");
    write(&d.join("src/lib.h"), "wrong_lib"); // <> does not search the including folder
    let main_path = d.join("src/main.cl");
    let mut sm = SourceMap::new();
    let text = std::fs::read_to_string(&main_path).expect("read");
    let main = sm.add(main_path.to_string_lossy(), text);
    let opts = PreprocessOptions {
        include_dirs: vec![d.join("inc")],
        ..Default::default()
    };
    let mut diags = Diagnostics::new();
    let toks = preprocess(&mut sm, main, &opts, &mut diags);
    assert_eq!(diags.items.len(), 0, "{}", diags.render(&sm));
    assert_eq!(tokens_text(&toks), "local lib sibling end");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn include_uses_embedded_headers_first() {
    let opts = PreprocessOptions {
        embedded_headers: vec![
            (
                "my/hdr.h".into(),
                "#include \"other.h\"\nfrom_embedded".into(),
            ),
            ("my/other.h".into(), "other".into()),
        ],
        ..Default::default()
    };
    let r = run_with(
        "#include <my/hdr.h>\n#define H \"my/other.h\"\n#include H\n",
        &opts,
    );
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    assert_eq!(r.text(), "other from_embedded other");
}

#[test]
fn include_errors_and_limits() {
    let r = check_error(
        "#include \"no_such_header_xyz.h\"\n",
        "'no_such_header_xyz.h' file not found",
    );
    assert!(r.log().contains("prog.cl:1:10: error"), "{}", r.log());
    check_error("#include\n", "expected \"FILENAME\" or <FILENAME>");
    check_error("#include <>\n", "empty filename");
    let opts = PreprocessOptions {
        embedded_headers: vec![("x.h".into(), "x".into())],
        ..Default::default()
    };
    let r = run_with("#include \"x.h\" junk\n", &opts);
    assert!(
        r.log()
            .contains("1:16: warning: extra tokens at end of #include directive"),
        "{}",
        r.log()
    );
    // A header that includes itself stops at the depth limit with an error.
    let opts = PreprocessOptions {
        embedded_headers: vec![("self.h".into(), "#include \"self.h\"\nx".into())],
        ..Default::default()
    };
    let r = run_with("#include \"self.h\"\n", &opts);
    assert_eq!(r.errors(), 1, "{}", r.log());
    assert!(r.log().contains("#include nested too deeply"));
    // Errors in a header name the header's file.
    let opts = PreprocessOptions {
        embedded_headers: vec![("bad.h".into(), "\n#error in header".into())],
        ..Default::default()
    };
    let r = run_with("#include \"bad.h\"\n", &opts);
    assert!(
        r.log().starts_with("bad.h:2:2: error: in header"),
        "{}",
        r.log()
    );
}

#[test]
fn has_include_checks_the_search_path() {
    let opts = PreprocessOptions {
        embedded_headers: vec![("there.h".into(), "".into())],
        ..Default::default()
    };
    let src =
        "#if defined(__has_include) && __has_include(\"there.h\") && __has_include(<there.h>)\n\
               yes\n#endif\n\
               #define H \"missing_header_xyz.h\"\n\
               #if __has_include(H) || __has_include(<missing_header_xyz.h>)\nno\n#endif\n";
    let r = run_with(src, &opts);
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    assert_eq!(r.text(), "yes");
    check_error(
        "#if __has_include\n#endif",
        "missing '(' after '__has_include'",
    );
    check_error(
        "#if __has_include(\n#endif",
        "missing ')' after '__has_include'",
    );
}

#[test]
fn pragma_once_and_include_guards() {
    let opts = PreprocessOptions {
        embedded_headers: vec![
            ("once.h".into(), "#pragma once\nonce".into()),
            (
                "guard.h".into(),
                "#ifndef G\n#define G\nguarded\n#endif".into(),
            ),
        ],
        ..Default::default()
    };
    let r = run_with(
        "#include \"once.h\"\n#include \"once.h\"\n#include \"guard.h\"\n#include \"guard.h\"\n",
        &opts,
    );
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    assert_eq!(r.text(), "once guarded");
}

// ---- predefined macros and options ----

#[test]
fn predefined_macros_for_opencl_c_1_2() {
    check(
        "__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 \
         CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0 __ENDIAN_LITTLE__ __CRANECL__",
        "300 120 100 110 120 200 300 1 1",
    );
    assert!(if_taken("defined(FP_FAST_FMA) && defined(FP_FAST_FMAF)"));
    // The device has images: "__IMAGE_SUPPORT__ is defined to 1".
    assert!(if_taken("__IMAGE_SUPPORT__ == 1"));
    assert!(!if_taken("defined(__FAST_RELAXED_MATH__)"));
    assert!(!if_taken("defined(__SPIR__) || defined(__SPIR64__)"));
    assert!(!if_taken("defined(cl_khr_icd)"), "API-only extension");
}

#[test]
fn standard_header_constants_are_macros() {
    assert!(if_taken(
        "CHAR_BIT == 8 && INT_MAX == 2147483647 && INT_MIN == -INT_MAX - 1"
    ));
    assert!(if_taken(
        "UINT_MAX == 4294967295 && ULONG_MAX == 0xffffffffffffffff"
    ));
    assert!(if_taken(
        "LONG_MIN < 0 && SCHAR_MIN == -128 && USHRT_MAX == 65535"
    ));
    assert!(if_taken("FLT_MANT_DIG == 24 && FLT_RADIX == 2"));
    check("FLT_MAX M_PI_F", "0x1.fffffep127f 3.14159265358979323846f");
    check("-INFINITY NAN", "-(1.0f / 0.0f) (0.0f / 0.0f)");
    // The double constants exist exactly when the device advertises cl_khr_fp64.
    let fp64 = cranecl_jit::features::EXTENSIONS
        .iter()
        .any(|e| e.name == "cl_khr_fp64");
    assert_eq!(
        if_taken("defined(DBL_MAX) && defined(M_PI)"),
        fp64,
        "DBL_* and M_* follow cl_khr_fp64"
    );
    if fp64 {
        assert!(if_taken(
            "DBL_MANT_DIG == 53 && DBL_DIG == 15 && DBL_MAX_EXP == 1024 && DBL_MIN_EXP == -1021"
        ));
        check(
            "DBL_MAX DBL_MIN DBL_EPSILON M_PI",
            "0x1.fffffffffffffp1023 0x1.0p-1022 0x1.0p-52 3.14159265358979323846",
        );
    }
}

#[test]
fn opencl_c_version_follows_cl_std() {
    for (std, v) in [
        (ClStd::Cl10, "100"),
        (ClStd::Cl11, "110"),
        (ClStd::Cl12, "120"),
        (ClStd::Cl20, "200"),
        (ClStd::Cl30, "300"),
    ] {
        let opts = PreprocessOptions {
            cl_std: std,
            ..Default::default()
        };
        let r = run_with("__OPENCL_C_VERSION__", &opts);
        assert_eq!(r.text(), v, "{std:?}");
    }
}

#[test]
fn feature_and_extension_macros_come_from_the_features_table() {
    let opts = PreprocessOptions {
        cl_std: ClStd::Cl30,
        ..Default::default()
    };
    for f in cranecl_jit::features::OPENCL_C_FEATURES {
        let r = run_with(&format!("#ifdef {0}\nyes\n#endif", f.name), &opts);
        assert_eq!(r.text(), "yes", "{} under CL3.0", f.name);
        // Under 1.2 only the features an advertised extension brings.
        let by_extension = cranecl_jit::features::EXTENSION_FEATURES
            .iter()
            .any(|(_, name)| *name == f.name);
        let r = run(&format!("#ifdef {0}\nyes\n#endif", f.name));
        let want = if by_extension { "yes" } else { "" };
        assert_eq!(r.text(), want, "{} under CL1.2", f.name);
    }
    // The API-only extensions have no macro.
    let api_only = [
        "cl_khr_icd",
        "cl_khr_suggested_local_work_size",
        "cl_khr_command_buffer",
    ];
    for e in cranecl_jit::features::EXTENSIONS {
        let text = format!("#ifdef {0}\nyes\n#endif", e.name);
        let want = if api_only.contains(&e.name) {
            ""
        } else {
            "yes"
        };
        // The sub-group extensions need sub-groups: OpenCL C 3.0 here,
        // not 1.2 (`run`'s default).
        if e.name.starts_with("cl_khr_subgroup_") {
            assert_eq!(run(&text).text(), "", "{} under CL1.2", e.name);
            assert_eq!(
                run_with(&text, &opts).text(),
                want,
                "{} under CL3.0",
                e.name
            );
            continue;
        }
        assert_eq!(run(&text).text(), want, "{}", e.name);
    }
}

#[test]
fn fast_relaxed_math_and_defines() {
    let opts = PreprocessOptions {
        fast_relaxed_math: true,
        defines: vec![
            ("N".into(), Some("16".into())),
            ("FLAG".into(), None),
            ("sq(x)".into(), Some("((x)*(x))".into())),
        ],
        ..Default::default()
    };
    let r = run_with("__FAST_RELAXED_MATH__ N FLAG sq(3)", &opts);
    assert_eq!(r.diags.items.len(), 0, "{}", r.log());
    assert_eq!(r.text(), norm("1 16 1 ((3)*(3))"));
}

#[test]
fn kernel_exec_expands_to_attributes() {
    check(
        "__kernel_exec(64, float4) void k(void) {}",
        "__kernel __attribute__((work_group_size_hint(64, 1, 1))) \
         __attribute__((vec_type_hint(float4))) void k(void) {}",
    );
    check(
        "kernel_exec(8, int)",
        "__kernel __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(int)))",
    );
}

// ---- lexing ----

#[test]
fn splices_comments_and_digraphs() {
    check("in\\\nt x; // comment \\\n still comment\ny", "int x; y");
    check("a /* multi\nline */ b", "a b");
    check("<: :> <% %> %:%: %:", "[ ] { } ## #");
    check("%:define D 1\nD", "1");
    check_error("a /* never closed", "unterminated /* comment");
}

#[test]
fn all_punctuators() {
    let p = "[ ] ( ) { } . -> ++ -- & * + - ~ ! / % << >> < > <= >= == != ^ | && || ? : ; ... \
             = *= /= %= += -= <<= >>= &= ^= |= , # ##";
    let r = run(p);
    assert_eq!(r.errors(), 0, "{}", r.log());
    assert_eq!(r.text(), p);
    // Longest match: `a+++b` is `a ++ + b`, `x...y` has an ellipsis, `..` does not.
    check("a+++b x...y .. .5", "a ++ + b x ... y . . .5");
}

#[test]
fn literals_and_escapes() {
    let r = run(r#""\n\t\\\'\"\a\b\f\v\r\0\?\x41\101" 'x' '\n' 1.5e+3f 0x1p-2 .5f 10u"#);
    assert_eq!(r.errors(), 0, "{}", r.log());
    assert_eq!(
        r.toks[0].kind,
        TokenKind::Str("\n\t\\'\"\x07\x08\x0c\x0b\r\0?AA".into())
    );
    assert_eq!(r.toks[1].kind, TokenKind::Char("'x'".into()));
    assert_eq!(r.toks[2].kind, TokenKind::Char("'\\n'".into()));
    let numbers: Vec<_> = r.toks[3..7].iter().map(|t| t.kind.clone()).collect();
    assert_eq!(
        numbers,
        ["1.5e+3f", "0x1p-2", ".5f", "10u"].map(|s| TokenKind::Number(s.into()))
    );
}

#[test]
fn literal_errors() {
    check_error("\"abc\n", "missing terminating '\"' character");
    check_error("'a\n", "missing terminating ' character");
    check_error("''", "empty character constant");
    check_error("\"\\x\"", "\\x used with no following hex digits");
    check_error("\"\\x100\"", "hex escape sequence out of range");
    check_warning("\"\\q\"", "unknown escape sequence '\\q'");
    check_error("a @ b", "unexpected character '@'");
}

// ---- locations ----

#[test]
fn expanded_tokens_point_at_the_invocation() {
    let r = run("#define X (a+b)\nint y = X;\n#define F(p, q) p + q\nF(one,\n  two);");
    assert_eq!(r.errors(), 0, "{}", r.log());
    // `(` of X's body points at the `X` the user wrote.
    let open = r
        .toks
        .iter()
        .position(|t| t.is_punct(cranecl_jit::token::Punct::LParen))
        .unwrap_or(0);
    assert_eq!(r.loc_text(open), "X");
    assert_eq!(
        r.sm.snippet(r.toks[open].span),
        "(",
        "the body token's own span is in the #define"
    );
    // `+` from F's body points at the whole invocation; arguments at themselves.
    let plus = r
        .toks
        .iter()
        .rposition(|t| t.is_punct(cranecl_jit::token::Punct::Plus))
        .unwrap_or(0);
    assert_eq!(r.loc_text(plus), "F(one,\n  two)");
    assert_eq!(r.loc_text(plus - 1), "one");
    assert_eq!(r.loc_text(plus + 1), "two");
    // Nested expansions point at the outermost invocation.
    let r = run("#define IN 1\n#define OUT (IN)\nOUT");
    assert!((0..3).all(|i| r.loc_text(i) == "OUT"), "{}", r.text());
}

#[test]
fn diagnostics_render_file_line_col_and_caret() {
    let r = run("int a;\n  #error stop here\n");
    assert_eq!(
        r.log(),
        "prog.cl:2:4: error: stop here\n  #error stop here\n   ^~~~~\n1 error generated.\n"
    );
    // As clang: "too many" points at the first extra argument, "too few" at `)`.
    let r = run("#define f(a) a\nint x = f(1,\n   2);\n");
    assert_eq!(
        r.log(),
        "prog.cl:3:4: error: too many arguments provided to function-like macro invocation\n\
         \x20  2);\n   ^\n\
         prog.cl:1:9: note: macro 'f' defined here\n#define f(a) a\n        ^\n\
         1 error generated.\n"
    );
    let r = run("#define g(a, b) a\nint y = g(1);\n");
    assert!(
        r.log().starts_with(
            "prog.cl:2:12: error: too few arguments provided to function-like macro invocation\n\
             int y = g(1);\n           ^\n"
        ),
        "{}",
        r.log()
    );
}

// ---- robustness ----

#[test]
fn pathological_inputs_terminate_with_errors() {
    // Deep parentheses in #if.
    let deep = format!("#if {}1{}\n#endif", "(".repeat(5000), ")".repeat(5000));
    check_error(&deep, "nested too deeply");
    let deep = format!("#if {}1\n#endif", "!".repeat(5000));
    check_error(&deep, "nested too deeply");
    // Exponential expansion is cut off.
    let mut src = String::from("#define m0 x x\n");
    for i in 1..40 {
        src.push_str(&format!("#define m{i} m{} m{}\n", i - 1, i - 1));
    }
    src.push_str("m39\n");
    let r = check_error(&src, "too many tokens");
    assert!(r.toks.len() <= 2_000_001);
    // Deeply nested invocations in arguments.
    let nest = format!("#define f(x) x\n{}1{}", "f(".repeat(1000), ")".repeat(1000));
    let r = run(&nest);
    assert!(r.errors() <= 1, "{}", r.log());
}

#[test]
fn random_and_mutated_inputs_never_panic() {
    let seeds = [
        "#define f(a, ...) a ## __VA_ARGS__ #a\n#if f(1,2) > 0\nf(x)\n#endif\n",
        "#include <x.h>\n#pragma OPENCL EXTENSION all : enable\n'a' \"s\\x41\" /* c */",
        "#define str(s) # s\n#define xstr(s) str(s)\nxstr(__LINE__) _Pragma(\"once\")",
        "#if 1 ? 2 : (3, 4) << 70 >> -1\n#elif defined(X\n#else\n#endif",
    ];
    let alphabet: &[u8] = b"#()\"',\\\n /*<>%:.?+-01azAZ_";
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    // CRANECL_PP_FUZZ_ITERS runs longer (the default keeps CI quick).
    let iters: usize = std::env::var("CRANECL_PP_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    for i in 0..iters {
        let mut bytes: Vec<u8> = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..(rand() % 8) {
            let pos = (rand() as usize) % (bytes.len() + 1);
            match rand() % 3 {
                0 if pos < bytes.len() => {
                    bytes.remove(pos);
                }
                _ => bytes.insert(pos, alphabet[(rand() as usize) % alphabet.len()]),
            }
        }
        let src = String::from_utf8_lossy(&bytes).into_owned();
        let r = run(&src);
        assert!(
            r.toks.last().is_some_and(|t| t.kind == TokenKind::Eof),
            "{src:?}"
        );
        let _ = r.log(); // rendering must not panic either
    }
}
