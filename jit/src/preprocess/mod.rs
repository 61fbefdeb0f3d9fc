//! The C99 / OpenCL C preprocessor (C99 §6.10, OpenCL C 3.0 §6.12): source
//! files in, the token stream the parser reads out.
//!
//! How it works. Each open file (the program, then every `#include`d header)
//! has an on-demand [`lexer::Lexer`] on an include stack. Tokens are pulled
//! one at a time through `Preprocessor::next_expanded`:
//!
//! - a `#` that starts a line in a file is a directive (`directives.rs`); a
//!   false `#if` group is skipped by lexing it quietly, looking only at lines
//!   that start with `#`;
//! - an identifier naming a macro is replaced by its expansion (`macros.rs`),
//!   which is pushed back onto a *pending* stack and rescanned, so an
//!   expansion can call a function-like macro whose arguments come from the
//!   text that follows. Each token carries a *hideset*: the macros it came
//!   from; a macro is never expanded inside its own expansion (Prosser's
//!   algorithm, the one chibicc's `preprocess.c` explains);
//! - macro arguments are expanded in isolation before substitution: the
//!   pending stack is swapped for the argument's tokens and reading past them
//!   gives `Eof` instead of the file's next token. `#if` lines are expanded the
//!   same way, with `defined` handled on the way (`expr.rs` evaluates them).
//!
//! Locations: a token from a macro body keeps its span in the `#define` and
//! gets `expanded_from` = the span of the outermost invocation in the user's
//! text; a token from a macro argument keeps its own span (it is user text),
//! so diagnostics and `__LINE__` point at what the user wrote (`__LINE__` in a
//! macro body gives the line where the invocation ends, as GCC and clang do).
//! `#line` is recorded in the [`SourceMap`], so diagnostics name the presumed
//! file and line.
//!
//! Nothing here can loop forever or overflow the stack: includes nest at most
//! [`MAX_INCLUDE_DEPTH`] deep, argument pre-expansion at most
//! [`MAX_EXPANSION_DEPTH`], `#if` expressions have a nesting limit, and the
//! total number of tokens macro expansion may produce is bounded.
#![forbid(unsafe_code)]

mod directives;
mod expr;
pub mod lexer;
mod macros;
mod predefined;

use crate::diag::Diagnostics;
use crate::options::ClStd;
use crate::source::{FileId, SourceMap, Span};
use crate::token::{Punct, Token, TokenKind};
use directives::Cond;
use lexer::Lexer;
use macros::{FastMap, HideSet, HideSets, Macro};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

/// What the preprocessor needs from the build options.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-D name[=value]`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I dir`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// Headers given to `clCompileProgram` (`input_headers`), name → text;
    /// searched first by `#include`.
    pub embedded_headers: Vec<(String, String)>,
    pub cl_std: ClStd,
    pub fast_relaxed_math: bool,
    pub single_precision_constant: bool,
}

/// `#include` may nest this deep (clang's limit).
pub const MAX_INCLUDE_DEPTH: usize = 200;
/// Macro invocations may nest this deep inside macro arguments.
pub const MAX_EXPANSION_DEPTH: u32 = 200;
/// At most this many tokens may come out of macro expansion in one build.
pub const MAX_EXPANDED_TOKENS: u64 = 2_000_000;

/// Lexes one file without running directives; the last token is `Eof`.
pub fn lex(sm: &SourceMap, file: FileId, diags: &mut Diagnostics) -> Vec<Token> {
    let text: Rc<str> = Rc::from(sm.get(file).map_or("", |f| f.text.as_str()));
    lexer::lex_text(text, file, diags)
}

/// Preprocesses `main` into the tokens the parser reads; the last is `Eof`.
/// Included headers are added to `sm`.
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PreprocessOptions,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    preprocess_unit(sm, main, opts, diags).tokens
}

/// A preprocessed translation unit.
pub struct Unit {
    pub tokens: Vec<Token>,
    /// The advertised extensions `#pragma OPENCL EXTENSION` left enabled at
    /// the end of the unit (`all : enable` enables each advertised one).
    pub enabled_extensions: Vec<String>,
    /// Each `#pragma OPENCL FP_CONTRACT`: the index in `tokens` of the
    /// first token after it, and whether it turns contraction on (`ON`,
    /// `DEFAULT`) or off.
    pub fp_contract: Vec<(usize, bool)>,
}

/// Preprocesses a translation unit, and says which extensions its pragmas
/// enabled.
pub fn preprocess_unit(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PreprocessOptions,
    diags: &mut Diagnostics,
) -> Unit {
    let mut pp = Preprocessor::new(sm, opts, diags);
    pp.define_predefined();
    pp.push_file(main, None);
    let mut out = Vec::new();
    loop {
        pp.emitted = out.len();
        let t = pp.next_expanded();
        let eof = t.tok.kind == TokenKind::Eof;
        out.push(t.tok);
        if eof {
            return Unit {
                tokens: out,
                enabled_extensions: pp.enabled,
                fp_contract: pp.fp_contract,
            };
        }
    }
}

/// The state of `#pragma OPENCL FP_CONTRACT` at each token of a unit, keyed
/// by the token's place in the user's text ([`Token::loc`]), into `at`:
/// each pragma sets the state; a `{` keeps the state it finds and the
/// matching `}` restores it, so a pragma inside a compound statement lasts
/// to the end of that statement (C99 §7.12.2). Nothing is recorded for a
/// unit without such pragmas (on throughout).
pub fn fp_contract_states(unit: &Unit, at: &mut HashMap<(FileId, u32), bool>) {
    if unit.fp_contract.is_empty() {
        return;
    }
    let mut pragmas = unit.fp_contract.iter().peekable();
    let (mut on, mut saved) = (true, Vec::new());
    for (i, t) in unit.tokens.iter().enumerate() {
        while let Some(&(_, state)) = pragmas.next_if(|(at, _)| *at <= i) {
            on = state;
        }
        if t.is_punct(Punct::LBrace) {
            saved.push(on);
        }
        let loc = t.loc();
        at.entry((loc.file, loc.lo)).or_insert(on);
        if t.is_punct(Punct::RBrace) {
            on = saved.pop().unwrap_or(on);
        }
    }
}

/// A token's text as it could be written back (`-E`-style output, tests):
/// a string literal is re-quoted from its value.
pub fn token_text(t: &Token) -> String {
    match &t.kind {
        TokenKind::Ident(s) | TokenKind::Number(s) | TokenKind::Char(s) => s.clone(),
        TokenKind::Str(v) => macros::quote(v),
        TokenKind::Punct(p) => p.as_str().to_string(),
        TokenKind::Eof => String::new(),
    }
}

/// The tokens' text joined by single spaces, `Eof` left out.
pub fn tokens_text(toks: &[Token]) -> String {
    let words: Vec<String> = toks
        .iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(token_text)
        .collect();
    words.join(" ")
}

/// A token on its way through macro expansion: the token and its hideset.
#[derive(Clone, Debug)]
struct PTok {
    tok: Token,
    hs: HideSet,
}

impl PTok {
    fn new(tok: Token) -> PTok {
        PTok {
            tok,
            hs: HideSet::EMPTY,
        }
    }
    fn is_punct(&self, p: Punct) -> bool {
        self.tok.is_punct(p)
    }
    fn is_eof(&self) -> bool {
        self.tok.kind == TokenKind::Eof
    }
    fn ident(&self) -> Option<&str> {
        match &self.tok.kind {
            TokenKind::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// One file being read.
struct FileState {
    lexer: Lexer,
    /// A token read ahead (the first of the next line, after a directive).
    lookahead: Option<Token>,
    /// Open `#if` groups of this file.
    conds: Vec<Cond>,
    /// Folder searched first by `#include "…"`.
    dir: Option<PathBuf>,
}

struct Preprocessor<'a> {
    sm: &'a mut SourceMap,
    diags: &'a mut Diagnostics,
    opts: &'a PreprocessOptions,
    macros: FastMap<String, Rc<Macro>>,
    /// Macro name → small id, for hidesets.
    macro_ids: FastMap<String, u32>,
    hidesets: HideSets,
    files: Vec<FileState>,
    /// Tokens to read before the file's (top = next).
    pending: Vec<PTok>,
    /// Reading past `pending` gives `Eof` (argument pre-expansion, `#if`),
    /// placed at this span (just past the isolated tokens).
    isolated: Option<Span>,
    /// Nesting of argument pre-expansion.
    depth: u32,
    /// Tokens macro expansion may still produce.
    budget: u64,
    budget_reported: bool,
    counter: u64,
    /// Files with `#pragma once` (by path or embedded name).
    once: HashSet<String>,
    /// The include key of each open file (for `#pragma once`).
    file_keys: HashMap<FileId, String>,
    /// Extensions `#pragma OPENCL EXTENSION name : enable` turned on (and
    /// `disable` has not turned off since).
    enabled: Vec<String>,
    /// The `#pragma OPENCL FP_CONTRACT`s seen (see [`Unit::fp_contract`]).
    fp_contract: Vec<(usize, bool)>,
    /// Tokens the unit has produced so far (where a pragma sits among them).
    emitted: usize,
}

impl<'a> Preprocessor<'a> {
    fn new(sm: &'a mut SourceMap, opts: &'a PreprocessOptions, diags: &'a mut Diagnostics) -> Self {
        Preprocessor {
            sm,
            diags,
            opts,
            macros: FastMap::default(),
            macro_ids: FastMap::default(),
            hidesets: HideSets::new(),
            files: Vec::new(),
            pending: Vec::new(),
            isolated: None,
            depth: 0,
            budget: MAX_EXPANDED_TOKENS,
            budget_reported: false,
            enabled: Vec::new(),
            fp_contract: Vec::new(),
            emitted: 0,
            counter: 0,
            once: HashSet::new(),
            file_keys: HashMap::new(),
        }
    }

    /// Starts reading `file` (the program, or a header being included).
    fn push_file(&mut self, file: FileId, dir: Option<PathBuf>) {
        let Some(f) = self.sm.get(file) else {
            return;
        };
        let text: Rc<str> = Rc::from(f.text.as_str());
        let dir = dir.or_else(|| {
            std::path::Path::new(&f.name)
                .parent()
                .map(|p| p.to_path_buf())
        });
        self.files.push(FileState {
            lexer: Lexer::new(text, file),
            lookahead: None,
            conds: Vec::new(),
            dir,
        });
    }

    /// The next token before macro expansion: pending first, then the file
    /// (running directives on the way).
    fn next_tok(&mut self) -> PTok {
        if let Some(t) = self.pending.pop() {
            return t;
        }
        if let Some(end) = self.isolated {
            let mut eof = self.eof_token();
            eof.span = end;
            return PTok::new(eof);
        }
        self.next_file_token()
    }

    /// An `Eof` token at the end of the innermost open file.
    fn eof_token(&self) -> Token {
        let span = match self.files.last() {
            Some(f) => {
                let id = f.lexer.file();
                let end = self.sm.get(id).map_or(0, |f| f.text.len() as u32);
                Span::new(id, end, end)
            }
            None => Span::default(),
        };
        Token {
            kind: TokenKind::Eof,
            span,
            expanded_from: None,
            leading_space: true,
            at_line_start: true,
        }
    }

    /// A raw token of the current file (lookahead first).
    fn raw_token(&mut self) -> Option<Token> {
        let f = self.files.last_mut()?;
        Some(match f.lookahead.take() {
            Some(t) => t,
            None => f.lexer.next_token(self.diags),
        })
    }

    fn unread(&mut self, t: Token) {
        if let Some(f) = self.files.last_mut() {
            f.lookahead = Some(t);
        }
    }

    /// The next token from the files, directives run; `Eof` at the end of the
    /// program (and on every call after).
    fn next_file_token(&mut self) -> PTok {
        loop {
            let Some(t) = self.raw_token() else {
                return PTok::new(self.eof_token());
            };
            if t.kind == TokenKind::Eof {
                self.close_conditionals();
                if self.files.len() > 1 {
                    self.files.pop();
                    continue;
                }
                self.unread(t.clone());
                return PTok::new(t);
            }
            if t.at_line_start && t.is_punct(Punct::Hash) {
                self.directive(t);
                continue;
            }
            return PTok::new(t);
        }
    }

    /// The rest of the current directive's line, unexpanded. The next
    /// line's first token is not lexed (it may be in a skipped group).
    fn line_tokens(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        while let Some(f) = self.files.last_mut() {
            if let Some(t) = f.lookahead.take() {
                if t.at_line_start || t.kind == TokenKind::Eof {
                    f.lookahead = Some(t);
                    break;
                }
                out.push(t);
                continue;
            }
            if f.lexer.at_line_end(self.diags) {
                break;
            }
            out.push(f.lexer.next_token(self.diags));
        }
        out
    }

    /// The line `__LINE__` gives at a location: the physical line, moved
    /// by `#line`.
    fn presumed_line(&self, span: Span) -> u32 {
        self.sm.get(span.file).map_or(0, |f| f.presumed(span.lo).1)
    }

    /// The file name `__FILE__` gives at a location.
    fn presumed_file(&self, span: Span) -> String {
        self.sm
            .get(span.file)
            .map_or_else(String::new, |f| f.presumed(span.lo).0.to_string())
    }
}
