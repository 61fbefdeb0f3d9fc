//! Helpers shared by the parser tests: lex and parse a string, collect
//! diagnostics as `line:col: message`, pick functions and declarations out of
//! a unit, dump expression statements.
#![allow(dead_code)] // each test crate uses its own part

use cranecl_jit::diag::{Diagnostics, Level};
use cranecl_jit::parse::ast::*;
use cranecl_jit::parse::{dump, parse};
use cranecl_jit::preprocess::lex;
use cranecl_jit::source::SourceMap;

pub struct Parsed {
    pub tu: TranslationUnit,
    pub diags: Diagnostics,
    pub sm: SourceMap,
}

pub fn run(src: &str) -> Parsed {
    let mut sm = SourceMap::new();
    let file = sm.add("prog.cl", src);
    let mut diags = Diagnostics::new();
    let toks = lex(&sm, file, &mut diags);
    let tu = parse(&toks, &mut diags);
    Parsed { tu, diags, sm }
}

/// Parse, asserting no diagnostic at all.
pub fn ok(src: &str) -> TranslationUnit {
    let p = run(src);
    if !p.diags.items.is_empty() {
        let mut log = p.diags.render(&p.sm);
        log.truncate(log.floor_char_boundary(3000));
        panic!("unexpected diagnostics:\n{log}");
    }
    p.tu
}

/// Diagnostics as `line:col: level: message`.
pub fn diags(src: &str) -> Vec<String> {
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
pub fn errors(src: &str) -> Vec<String> {
    diags(src)
        .into_iter()
        .filter_map(|d| d.split_once(": error: ").map(|(a, b)| format!("{a}: {b}")))
        .collect()
}

/// The function definitions of a unit.
pub fn functions(tu: &TranslationUnit) -> Vec<&FunctionDef> {
    tu.items
        .iter()
        .filter_map(|i| match i {
            ExternalDecl::Function(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// The expression statements of the last function, dumped.
pub fn body_exprs(tu: &TranslationUnit) -> Vec<String> {
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
pub fn e(prelude: &str, expr: &str) -> String {
    let src = format!("{prelude}\nvoid f(void) {{ {expr}; }}\n");
    let tu = ok(&src);
    let mut v = body_exprs(&tu);
    assert_eq!(v.len(), 1, "one expression statement in {src}");
    v.remove(0)
}

/// The declarations at file scope.
pub fn file_decls(tu: &TranslationUnit) -> Vec<&Declaration> {
    tu.items
        .iter()
        .filter_map(|i| match i {
            ExternalDecl::Declaration(d) => Some(d),
            _ => None,
        })
        .collect()
}
