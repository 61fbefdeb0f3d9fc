//! The parser: preprocessed tokens in, an [`ast::TranslationUnit`] out.
//!
//! A hand-written recursive-descent parser for C99 with OpenCL C 3.0's
//! additions (address-space and access qualifiers, `kernel`, vector types and
//! literals, `__attribute__((...))`). It is split by concern:
//! [`keywords`] (which identifiers are keywords or built-in type names),
//! `decl` (specifiers, declarators, struct/enum, declarations), `attr`
//! (`__attribute__`), `init` (initializers),
//! `stmt` (statements and blocks), `expr` (expressions by precedence
//! climbing), [`literal`] (numbers and characters), `depth` (the finished
//! tree's depth, measured without recursion) and [`dump`] (S-expressions, for
//! tests and debugging).
//!
//! **Typedef names.** C's grammar is ambiguous without knowing which
//! identifiers name types (`T * x;`). The parser keeps a stack of scopes
//! mapping each declared ordinary identifier to "typedef" or "object";
//! OpenCL's built-in type names (`uint`, `float4`, `image2d_t`, ...) act as
//! typedefs declared outside the outermost scope, so a local variable may
//! shadow them. For typedefs the parser also remembers whether the type is a
//! vector, which decides `(T)(a, b)` between a vector literal and a cast of a
//! comma expression.
//!
//! **Errors.** Every syntax error is a clang-worded diagnostic in the sink.
//! A grammar function that cannot go on returns `Err(Fail)` after reporting;
//! the nearest statement, declaration or member list then skips to the next
//! `;` or unmatched `}` (tracking bracket nesting) and continues, so one build
//! reports several errors. Every loop consumes at least one token per turn,
//! bracket nesting is bounded by [`MAX_NESTING`] (clang's 256), other
//! recursion by [`MAX_RECURSION`] and a stack budget, operator chains by
//! [`MAX_CHAIN`], and each item's finished tree by [`MAX_TREE_DEPTH`] (deep
//! input gives a diagnostic, not a stack overflow, here or in the phases that
//! recurse over the tree later); after [`ERROR_LIMIT`] errors parsing stops.
//! The parser runs on a thread of its own with a large stack.
#![forbid(unsafe_code)]

pub mod ast;
mod attr;
mod decl;
mod depth;
pub mod dump;
mod expr;
mod init;
pub mod keywords;
pub mod literal;
mod stmt;

use crate::diag::Diagnostics;
use crate::source::Span;
use crate::token::{Punct, Token, TokenKind};
use std::collections::HashMap;

/// How deeply brackets may nest (parentheses, `[]`, braces of blocks,
/// initializers and struct bodies, nested declarators) before the parser
/// gives up on the construct, like clang's `-fbracket-depth`.
pub const MAX_NESTING: u32 = 256;

/// How deeply statements and operands may nest in all (`if ... else if`
/// chains, `- - - x`, `a = b = c`, brackets included), bounding the tree's
/// depth for the phases that recurse over it.
pub const MAX_RECURSION: u32 = 4096;

/// How many operators one left-associative chain may hold
/// (`a + b + ... `), bounding the depth of the tree later phases recurse over.
pub const MAX_CHAIN: u32 = 4096;

pub use depth::MAX_TREE_DEPTH;

/// The stack the parser runs on (a thread of its own; see [`parse_with`]).
const PARSER_STACK: usize = 64 << 20;

/// How much of it the parser may use before reporting "nested too deeply"
/// (a safety net: bracket nesting stops at [`MAX_NESTING`] well before).
const PARSER_STACK_BUDGET: usize = 48 << 20;

/// The budget when no thread could be started and the parser runs on the
/// caller's stack, whose size is unknown.
const INLINE_STACK_BUDGET: usize = 512 << 10;

/// Errors after which the parser stops (like clang's `-ferror-limit=20`).
pub const ERROR_LIMIT: usize = 20;

/// Options that change what the parser accepts.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    /// The OpenCL C version as in `__OPENCL_C_VERSION__` (100, 110, 120, 200,
    /// 300). From 200 on, `generic`/`__generic` are address-space qualifiers
    /// and `pipe` a type qualifier; before, they are ordinary identifiers.
    pub opencl_c_version: u32,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            opencl_c_version: 300,
        }
    }
}

/// Parse a translation unit with the default options (OpenCL C 3.0).
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> ast::TranslationUnit {
    parse_with(tokens, ParseOptions::default(), diags)
}

/// Parse a translation unit.
///
/// The parser runs on a thread of its own with a large stack, so deeply
/// nested input meets the parser's limits (a diagnostic) long before the
/// stack's end, whatever thread the caller is on. If no thread can be
/// started it runs here with a small stack budget.
pub fn parse_with(
    tokens: &[Token],
    options: ParseOptions,
    diags: &mut Diagnostics,
) -> ast::TranslationUnit {
    let mut sink = Some(diags);
    let mut result = None;
    let spawned = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("cranecl-parse".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || {
                if let Some(d) = sink.take() {
                    result = Some(run(tokens, options, d, PARSER_STACK_BUDGET));
                }
            })
            .is_ok()
    });
    match (result, sink) {
        (Some(tu), _) => tu,
        (None, Some(d)) => run(tokens, options, d, INLINE_STACK_BUDGET),
        // The thread started but produced nothing: it can only have
        // panicked, which `scope` re-raises before we get here.
        (None, None) => {
            debug_assert!(!spawned);
            ast::TranslationUnit::default()
        }
    }
}

fn run(
    tokens: &[Token],
    options: ParseOptions,
    diags: &mut Diagnostics,
    stack_budget: usize,
) -> ast::TranslationUnit {
    let marker = 0u8;
    let mut p = Parser::new(tokens, options, diags);
    p.stack_base = &marker as *const u8 as usize;
    p.stack_budget = stack_budget;
    p.translation_unit()
}

/// A grammar function gave up; the diagnostic is already in the sink.
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

/// What an ordinary identifier names in a scope.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ordinary {
    /// A typedef name; `vector` when it names a vector type.
    Typedef { vector: bool },
    /// A variable, function, parameter or enumerator.
    Object,
}

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    diags: &'a mut Diagnostics,
    opts: ParseOptions,
    scopes: Vec<HashMap<String, Ordinary>>,
    depth: u32,
    /// Errors this parser reported (the sink may hold others').
    errors: usize,
    /// The error limit was hit: the cursor reports end of input from now on.
    stopped: bool,
    /// Returned by `peek` at and past the end.
    eof: Token,
    /// Address of a local in the parser's entry frame, and how far below it
    /// the parser may go.
    stack_base: usize,
    stack_budget: usize,
    stack_exhausted: bool,
    /// Current recursion depth through [`Parser::deeper`].
    recursion: u32,
    /// The last specifiers ended at a missing `;` after a struct, union or
    /// enum body (already reported): the declaration ends there.
    implicit_semi: bool,
}

impl<'a> Parser<'a> {
    fn new(toks: &'a [Token], opts: ParseOptions, diags: &'a mut Diagnostics) -> Self {
        let end = toks.last().map(|t| t.loc()).unwrap_or_default();
        let eof = Token {
            kind: TokenKind::Eof,
            span: Span::new(end.file, end.hi, end.hi),
            expanded_from: None,
            leading_space: false,
            at_line_start: false,
        };
        Parser {
            toks,
            pos: 0,
            diags,
            opts,
            scopes: vec![HashMap::new()],
            depth: 0,
            errors: 0,
            stopped: false,
            eof,
            stack_base: 0,
            stack_budget: usize::MAX,
            stack_exhausted: false,
            recursion: 0,
            implicit_semi: false,
        }
    }

    // ----- cursor -----

    fn peek(&self) -> &'a Token {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &'a Token {
        if self.stopped {
            // `eof` lives in self, not in 'a: fall back on a slice token when
            // possible. The only 'a token we can return for "end" is the
            // final Eof of the input, if present.
            return self.end_token();
        }
        match self.toks.get(self.pos + n) {
            Some(t) => t,
            None => self.end_token(),
        }
    }

    /// A token meaning "end of input" borrowed for 'a.
    fn end_token(&self) -> &'a Token {
        match self.toks.last() {
            Some(t) if t.kind == TokenKind::Eof => t,
            _ => {
                // No Eof token in the input: synthesize one with 'a lifetime
                // by leaking nothing — use a static instead.
                &STATIC_EOF
            }
        }
    }

    fn at_eof(&self) -> bool {
        self.peek().kind == TokenKind::Eof
    }

    /// The current token's location (the user's text).
    fn loc(&self) -> Span {
        let t = self.peek();
        if t.kind == TokenKind::Eof {
            return self.eof_loc(t);
        }
        t.loc()
    }

    /// Where "end of file" errors point. Like clang: at the file's final
    /// newline when there is text after the last token (so a missing `}`
    /// is reported on the last line, not on a line past the end).
    fn eof_loc(&self, t: &Token) -> Span {
        if t.span == Span::default() {
            return self.eof.span;
        }
        let s = t.loc();
        let last = self.toks.iter().rev().find(|t| t.kind != TokenKind::Eof);
        match last.map(|l| l.loc()) {
            Some(l) if l.file == s.file && l.hi < s.lo => Span::new(s.file, s.lo - 1, s.lo - 1),
            _ => s,
        }
    }

    /// An empty span just after the previous token (where a missing `;` goes).
    fn after_prev(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => {
                let s = t.loc();
                Span::new(s.file, s.hi, s.hi)
            }
            None => self.loc(),
        }
    }

    /// The location of the previous token.
    fn prev_loc(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.loc(),
            None => self.loc(),
        }
    }

    /// Move past the current token (never past the end).
    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.kind != TokenKind::Eof && !self.stopped {
            self.pos += 1;
        }
        t
    }

    fn is(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    fn is_at(&self, n: usize, p: Punct) -> bool {
        self.peek_at(n).is_punct(p)
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// The current token's identifier text, if it is an identifier.
    fn ident(&self) -> Option<&'a str> {
        self.ident_at(0)
    }

    fn ident_at(&self, n: usize) -> Option<&'a str> {
        match &self.peek_at(n).kind {
            TokenKind::Ident(s) => Some(s.as_str()),
            _ => None,
        }
    }

    fn is_kw(&self, kw: &str) -> bool {
        self.ident() == Some(kw)
    }

    /// Expect a punctuator; report `expected 'X'` at the current token.
    fn expect(&mut self, p: Punct) -> PResult<Span> {
        if self.is(p) {
            Ok(self.bump().loc())
        } else {
            self.error(self.loc(), format!("expected '{}'", p.as_str()));
            Err(Fail)
        }
    }

    /// Expect the closing bracket of `open` (at `open_span`): `expected ')'`
    /// with a note `to match this '('`.
    fn expect_close(&mut self, close: Punct, open: Punct, open_span: Span) -> PResult<Span> {
        if self.is(close) {
            return Ok(self.bump().loc());
        }
        self.error(self.loc(), format!("expected '{}'", close.as_str()));
        if !self.stopped {
            self.diags
                .note(open_span, format!("to match this '{}'", open.as_str()));
        }
        Err(Fail)
    }

    /// Expect a `;`; when missing, report `message` just after the previous
    /// token and go on as if it had been there (clang's recovery).
    fn expect_semi(&mut self, message: &str) {
        if !self.eat(Punct::Semi) {
            self.error(self.after_prev(), message);
        }
    }

    // ----- diagnostics -----

    fn error(&mut self, span: Span, message: impl Into<String>) {
        if self.stopped {
            return;
        }
        self.errors += 1;
        if self.errors > ERROR_LIMIT {
            self.diags
                .error(span, "too many errors emitted, stopping now");
            self.stopped = true;
            return;
        }
        self.diags.error(span, message);
    }

    fn warning(&mut self, span: Span, message: impl Into<String>) {
        if !self.stopped {
            self.diags.warning(span, message);
        }
    }

    /// Run `f` one nesting level deeper; past [`MAX_NESTING`] report once and
    /// fail.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_NESTING {
            self.error(
                self.loc(),
                format!("nesting level exceeded maximum of {MAX_NESTING}"),
            );
            return Err(Fail);
        }
        self.depth += 1;
        let r = self.deeper(f);
        self.depth -= 1;
        r
    }

    /// Run `f`, a recursion that is not a bracket (a statement, an operand);
    /// fail with a diagnostic if the parser's stack budget is spent.
    fn deeper<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let marker = 0u8;
        let here = &marker as *const u8 as usize;
        if self.recursion >= MAX_RECURSION || here.abs_diff(self.stack_base) > self.stack_budget {
            if !self.stack_exhausted {
                self.stack_exhausted = true;
                self.error(
                    self.loc(),
                    format!(
                        "program is nested too deeply to parse (more than {MAX_RECURSION} levels)"
                    ),
                );
            }
            return Err(Fail);
        }
        self.recursion += 1;
        let r = f(self);
        self.recursion -= 1;
        r
    }

    /// One more operator in a left-associative chain (`a + b + c`, `a.b.c`,
    /// `a, b, c`): each makes the tree one level deeper without recursion
    /// here, but later phases recurse over it, so chains are bounded.
    fn chain_step(&mut self, chain: &mut u32) -> PResult<()> {
        *chain += 1;
        if *chain > MAX_CHAIN {
            self.error(
                self.loc(),
                format!("expression has more than {MAX_CHAIN} chained operators"),
            );
            return Err(Fail);
        }
        Ok(())
    }

    // ----- recovery -----

    /// Skip to the end of the current statement or declaration: past the next
    /// `;` at this nesting level, or up to (not past) an unmatched `}`.
    fn skip_to_stmt_end(&mut self) {
        let mut nest: i32 = 0;
        loop {
            let t = self.peek();
            match &t.kind {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) if nest == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => nest += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    if nest == 0 {
                        return;
                    }
                    nest -= 1;
                }
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => nest = (nest - 1).max(0),
                _ => {}
            }
            self.bump();
        }
    }

    /// File-scope recovery: like [`Self::skip_to_stmt_end`], but a `{ ... }`
    /// block at the outer level (a function body) ends the skip too, and a
    /// stray `}` is consumed.
    fn skip_external(&mut self) {
        let mut nest: i32 = 0;
        loop {
            let t = self.peek();
            match &t.kind {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) if nest == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::Punct(Punct::LParen | Punct::LBracket | Punct::LBrace) => nest += 1,
                TokenKind::Punct(Punct::RBrace) => {
                    self.bump();
                    if nest <= 1 {
                        self.eat(Punct::Semi);
                        return;
                    }
                    nest -= 1;
                    continue;
                }
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => nest = (nest - 1).max(0),
                _ => {}
            }
            self.bump();
        }
    }

    // ----- scopes -----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    fn declare(&mut self, name: &str, what: Ordinary) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), what);
        }
    }

    /// What `name` means here: a user declaration in the innermost scope that
    /// has one, else a built-in type name, else nothing.
    fn lookup(&self, name: &str) -> Option<Ordinary> {
        for s in self.scopes.iter().rev() {
            if let Some(o) = s.get(name) {
                return Some(*o);
            }
        }
        if let Some(spec) = keywords::builtin_type_name(name) {
            return Some(Ordinary::Typedef {
                vector: matches!(spec, ast::TypeSpecifier::Vector(..)),
            });
        }
        if ast::PREDEFINED_TYPEDEFS.contains(&name) {
            return Some(Ordinary::Typedef { vector: false });
        }
        None
    }

    /// Whether identifier `name` names a type here (typedef or built-in).
    fn is_typedef_name(&self, name: &str) -> bool {
        !self.is_keyword(name) && matches!(self.lookup(name), Some(Ordinary::Typedef { .. }))
    }

    /// Whether `name` is a reserved word under the current options.
    fn is_keyword(&self, name: &str) -> bool {
        keywords::is_keyword(name, self.opts.opencl_c_version)
    }

    // ----- translation unit -----

    fn translation_unit(&mut self) -> ast::TranslationUnit {
        let mut items = Vec::new();
        while !self.at_eof() {
            let start = self.pos;
            if self.eat(Punct::Semi) {
                continue; // an empty declaration at file scope
            }
            if self.is(Punct::RBrace) {
                self.error(self.loc(), "extraneous closing brace ('}')");
                self.bump();
                continue;
            }
            match self.external_decl() {
                Ok(Some(d)) => {
                    // Later phases recurse over the tree: bound its depth
                    // (a too-deep item is dropped here, on the parser's
                    // large stack).
                    let (depth, at) = depth::item_depth(&d);
                    if depth > depth::MAX_TREE_DEPTH {
                        self.error(
                            at,
                            format!(
                                "expression is nested too deeply (more than {} levels)",
                                depth::MAX_TREE_DEPTH
                            ),
                        );
                    } else {
                        items.push(d);
                    }
                }
                Ok(None) => {}
                Err(Fail) => self.skip_external(),
            }
            if self.pos == start {
                self.bump();
            }
        }
        ast::TranslationUnit { items }
    }
}

/// End of input for token slices that lack a final `Eof`.
static STATIC_EOF: Token = Token {
    kind: TokenKind::Eof,
    span: Span {
        file: crate::source::FileId(0),
        lo: 0,
        hi: 0,
    },
    expanded_from: None,
    leading_space: false,
    at_line_start: false,
};
