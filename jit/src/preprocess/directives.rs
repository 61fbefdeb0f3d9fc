//! Preprocessing directives (C99 §6.10, OpenCL C 3.0 §6.12): `#define`,
//! `#undef`, the conditional family, `#include`, `#line`, `#error`,
//! `#warning`, `#pragma` (and the `_Pragma` operator).
//!
//! A directive is a line whose first token is `#`; its tokens are read raw up
//! to the next token that starts a line. Conditionals keep a stack per file:
//! each open group records whether one of its branches was taken and whether
//! `#else` was seen. A group that is not taken is skipped by lexing quietly,
//! counting nested `#if`s, until its `#elif`, `#else` or `#endif`.
#![forbid(unsafe_code)]

use super::macros::Macro;
use super::{lexer, predefined, PTok, Preprocessor, MAX_INCLUDE_DEPTH};
use crate::diag::Diagnostics;
use crate::source::{LineMark, Span};
use crate::token::{Punct, Token, TokenKind};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// An open `#if` group.
#[derive(Debug)]
pub(super) struct Cond {
    /// The `#if` (for "unterminated conditional directive").
    pub span: Span,
    /// One of the group's branches was (or is being) taken.
    pub taken: bool,
    pub else_seen: bool,
}

/// Where an `#include` found its file.
struct Found {
    name: String,
    text: String,
    /// Identity for `#pragma once`.
    key: String,
    dir: Option<PathBuf>,
}

/// The names `#if` knows as operators besides `defined`.
const HAS_INCLUDE: &str = "__has_include";
const HAS_INCLUDE_NEXT: &str = "__has_include_next";

/// Larger files are not read by `#include`.
const MAX_HEADER_BYTES: u64 = 64 << 20;

fn ident(t: &Token) -> Option<&str> {
    match &t.kind {
        TokenKind::Ident(s) => Some(s),
        _ => None,
    }
}

impl Preprocessor<'_> {
    /// Runs the directive whose `#` is `hash`.
    pub(super) fn directive(&mut self, hash: Token) {
        let Some(name_tok) = self.raw_token() else {
            return;
        };
        if name_tok.at_line_start || name_tok.kind == TokenKind::Eof {
            self.unread(name_tok); // the null directive: `#` alone
            return;
        }
        let name = match &name_tok.kind {
            TokenKind::Ident(s) => s.clone(),
            // GNU line marker `# 33 "file"`: the same as #line.
            TokenKind::Number(_) => return self.line_directive(&hash, Some(name_tok)),
            _ => String::new(),
        };
        let span = name_tok.span;
        match name.as_str() {
            "define" => self.define_directive(span),
            "undef" => self.undef_directive(span),
            "include" | "include_next" => self.include_directive(span),
            "if" => {
                let v = self.eval_if_line(span);
                self.open_group(span, v);
            }
            "ifdef" | "ifndef" => {
                let v = self.ifdef_value(span, &name) == (name == "ifdef");
                self.open_group(span, v);
            }
            "elif" | "else" => self.else_in_taken_group(span, &name),
            "endif" => self.endif_directive(span),
            "line" => self.line_directive(&hash, None),
            "error" | "warning" => self.message_directive(span, &name),
            "pragma" => {
                let toks = self.line_tokens();
                self.pragma(&toks, span);
            }
            "ident" | "sccs" => {
                self.line_tokens();
            }
            _ => {
                self.diags.error(span, "invalid preprocessing directive");
                self.line_tokens();
            }
        }
    }

    /// Warns about tokens after a directive's operands.
    fn extra_tokens(&mut self, directive: &str) {
        let rest = self.line_tokens();
        if let Some(t) = rest.first() {
            self.diags.warning(
                t.span,
                format!("extra tokens at end of #{directive} directive"),
            );
        }
    }

    // #define name replacement-list
    // #define name( identifier-list[opt] ) replacement-list
    // #define name( ... ) / ( identifier-list , ... ) replacement-list
    fn define_directive(&mut self, directive: Span) {
        let toks = self.line_tokens();
        let Some(name) = self.macro_name(toks.first(), directive) else {
            return;
        };
        let name_span = toks[0].span;
        let mut params = None;
        let mut variadic = false;
        let mut i = 1;
        if toks
            .get(1)
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.leading_space)
        {
            let Some((p, v, next)) = self.macro_params(&toks, directive) else {
                return;
            };
            params = Some(p);
            variadic = v;
            i = next;
        }
        let body: Vec<Token> = toks[i..].to_vec();
        let m = Macro {
            id: self.macro_id(&name),
            name: name.clone(),
            params,
            variadic,
            body,
            def_span: Some(name_span),
            builtin: None,
        };
        if !self.check_body(&m) {
            return;
        }
        if let Some(old) = self.macros.get(&name) {
            if !old.same_definition(&m) {
                let old_span = old.def_span;
                self.diags
                    .warning(name_span, format!("'{name}' macro redefined"));
                if let Some(s) = old_span {
                    self.diags.note(s, "previous definition is here");
                }
            }
        }
        self.macros.insert(name, Rc::new(m));
    }

    /// The macro name operand of `#define`, `#undef`, `#ifdef`.
    fn macro_name(&mut self, t: Option<&Token>, directive: Span) -> Option<String> {
        let Some(t) = t else {
            self.diags.error(end_of(directive), "macro name missing");
            return None;
        };
        match ident(t) {
            Some("defined") => {
                self.diags
                    .error(t.span, "'defined' cannot be used as a macro name");
                None
            }
            Some(s) => Some(s.to_string()),
            None => {
                self.diags.error(t.span, "macro name must be an identifier");
                None
            }
        }
    }

    /// The parameter list from `toks[1] == '('`: names, variadic, index after `)`.
    fn macro_params(
        &mut self,
        toks: &[Token],
        directive: Span,
    ) -> Option<(Vec<String>, bool, usize)> {
        let mut params: Vec<String> = Vec::new();
        let mut i = 2;
        let mut want_name = true;
        loop {
            let Some(t) = toks.get(i) else {
                let at = toks.last().map_or(directive, |t| t.span);
                self.diags.error(at, "missing ')' in macro parameter list");
                return None;
            };
            i += 1;
            match &t.kind {
                TokenKind::Punct(Punct::RParen) if !want_name || params.is_empty() => {
                    return Some((params, false, i));
                }
                TokenKind::Punct(Punct::Ellipsis) if want_name => {
                    params.push("__VA_ARGS__".into());
                    return self.close_params(toks, i, params);
                }
                TokenKind::Ident(name) if want_name => {
                    if params.contains(name) {
                        self.diags
                            .error(t.span, format!("duplicate macro parameter name '{name}'"));
                        return None;
                    }
                    params.push(name.clone());
                    want_name = false;
                    // GNU named variable arguments: `args...`
                    if toks.get(i).is_some_and(|n| n.is_punct(Punct::Ellipsis)) {
                        return self.close_params(toks, i + 1, params);
                    }
                }
                TokenKind::Punct(Punct::Comma) if !want_name => want_name = true,
                _ if want_name => {
                    self.diags
                        .error(t.span, "invalid token in macro parameter list");
                    return None;
                }
                _ => {
                    self.diags
                        .error(t.span, "expected comma in macro parameter list");
                    return None;
                }
            }
        }
    }

    /// After `...`: the `)` that must end a variadic parameter list.
    fn close_params(
        &mut self,
        toks: &[Token],
        i: usize,
        params: Vec<String>,
    ) -> Option<(Vec<String>, bool, usize)> {
        match toks.get(i) {
            Some(t) if t.is_punct(Punct::RParen) => Some((params, true, i + 1)),
            Some(t) => {
                self.diags
                    .error(t.span, "missing ')' in macro parameter list");
                None
            }
            None => {
                let at = toks.get(i - 1).map_or(Span::default(), |t| t.span);
                self.diags.error(at, "missing ')' in macro parameter list");
                None
            }
        }
    }

    /// `#` must name a parameter; `##` cannot start or end the body.
    fn check_body(&mut self, m: &Macro) -> bool {
        let body = &m.body;
        for (end, which) in [(body.first(), "start"), (body.last(), "end")] {
            if let Some(t) = end.filter(|t| t.is_punct(Punct::HashHash)) {
                let msg = format!("'##' cannot appear at {which} of macro expansion");
                self.diags.error(t.span, msg);
                return false;
            }
        }
        let Some(params) = &m.params else {
            return true;
        };
        for (k, t) in body.iter().enumerate() {
            if !t.is_punct(Punct::Hash) {
                continue;
            }
            let names_param = body
                .get(k + 1)
                .and_then(ident)
                .is_some_and(|n| params.iter().any(|p| p == n));
            if !names_param {
                let at = body.get(k + 1).map_or(t.span, |n| n.span);
                self.diags
                    .error(at, "'#' is not followed by a macro parameter");
                return false;
            }
        }
        true
    }

    // #undef name
    fn undef_directive(&mut self, directive: Span) {
        let toks = self.line_tokens();
        if let Some(name) = self.macro_name(toks.first(), directive) {
            self.macros.remove(&name);
            if let Some(t) = toks.get(1) {
                self.diags
                    .warning(t.span, "extra tokens at end of #undef directive");
            }
        }
    }

    // #ifdef name / #ifndef name: whether `name` is defined.
    fn ifdef_value(&mut self, directive: Span, which: &str) -> bool {
        let toks = self.line_tokens();
        let Some(name) = self.macro_name(toks.first(), directive) else {
            return false;
        };
        if let Some(t) = toks.get(1) {
            self.diags
                .warning(t.span, format!("extra tokens at end of #{which} directive"));
        }
        self.macros.contains_key(&name)
    }

    // #if constant-expression
    pub(super) fn eval_if_line(&mut self, directive: Span) -> bool {
        let toks = self.line_tokens();
        let Some(last) = toks.last().map(|t| t.span) else {
            self.diags
                .error(end_of(directive), "expected value in expression");
            return false;
        };
        let toks = self.expand_if_line(toks);
        let end = Span::new(last.file, last.hi, last.hi);
        super::expr::evaluate(&toks, end, self.diags).is_some_and(|v| v != 0)
    }

    /// Expands an `#if` line, replacing `defined X` and `defined(X)` by 1 or 0
    /// (also where a macro's expansion produced `defined`).
    fn expand_if_line(&mut self, toks: Vec<Token>) -> Vec<PTok> {
        let toks = toks.into_iter().map(PTok::new).collect();
        self.with_isolated(toks, |pp| {
            let mut out = Vec::new();
            loop {
                let t = pp.next_tok();
                if t.is_eof() {
                    return out;
                }
                if t.ident() == Some("defined") {
                    out.push(pp.defined_operator(t));
                } else if matches!(t.ident(), Some(HAS_INCLUDE | HAS_INCLUDE_NEXT)) {
                    out.push(pp.has_include_operator(t));
                } else if let Some(t) = pp.expand_ident(t) {
                    out.push(t);
                }
            }
        })
    }

    /// `defined X` / `defined ( X )` → `1` or `0`.
    fn defined_operator(&mut self, t: PTok) -> PTok {
        let mut next = self.next_tok();
        let paren = next.is_punct(Punct::LParen);
        if paren {
            next = self.next_tok();
        }
        let value = match next.ident() {
            Some(name) => {
                self.macros.contains_key(name) || matches!(name, HAS_INCLUDE | HAS_INCLUDE_NEXT)
            }
            None => {
                self.diags.error(next.tok.loc(), "macro name missing");
                self.pending.push(next);
                false
            }
        };
        if paren {
            let close = self.next_tok();
            if !close.is_punct(Punct::RParen) {
                self.diags
                    .error(close.tok.loc(), "missing ')' after 'defined'");
                self.pending.push(close);
            }
        }
        let mut tok = t.tok;
        tok.kind = TokenKind::Number(if value { "1" } else { "0" }.into());
        PTok::new(tok)
    }

    /// `__has_include("file")` / `__has_include(<file>)` (C23, clang) → `1`
    /// when `#include` would find the file, else `0`.
    fn has_include_operator(&mut self, t: PTok) -> PTok {
        let name = t.ident().unwrap_or_default().to_string();
        let mut value = false;
        let open = self.next_tok();
        if open.is_punct(Punct::LParen) {
            let mut toks = Vec::new();
            let mut depth = 0u32;
            loop {
                let a = self.next_tok();
                if a.is_eof() {
                    self.diags
                        .error(t.tok.loc(), format!("missing ')' after '{name}'"));
                    self.pending.push(a);
                    break;
                }
                if a.is_punct(Punct::RParen) && depth == 0 {
                    let toks = self.expand_isolated(toks);
                    if let Some((file, angled, _)) = self.header_from_tokens(&toks, t.tok.loc()) {
                        value = self.find_include(&file, angled).is_some();
                    }
                    break;
                }
                if a.is_punct(Punct::LParen) {
                    depth += 1;
                } else if a.is_punct(Punct::RParen) {
                    depth -= 1;
                }
                toks.push(a);
            }
        } else {
            self.diags
                .error(t.tok.loc(), format!("missing '(' after '{name}'"));
            self.pending.push(open);
        }
        let mut tok = t.tok;
        tok.kind = TokenKind::Number(if value { "1" } else { "0" }.into());
        PTok::new(tok)
    }

    /// Opens an `#if` group; skips it when its condition is false.
    fn open_group(&mut self, span: Span, taken: bool) {
        if let Some(f) = self.files.last_mut() {
            f.conds.push(Cond {
                span,
                taken,
                else_seen: false,
            });
        }
        if !taken {
            self.skip_group();
        }
    }

    /// `#elif` / `#else` reached while reading a taken branch: the rest of
    /// the group is skipped.
    fn else_in_taken_group(&mut self, span: Span, name: &str) {
        let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) else {
            self.diags.error(span, format!("#{name} without #if"));
            self.line_tokens();
            return;
        };
        let after_else = c.else_seen;
        c.else_seen |= name == "else";
        if after_else {
            self.diags.error(span, format!("#{name} after #else"));
        }
        if name == "else" {
            self.extra_tokens("else");
        } else {
            self.line_tokens();
        }
        self.skip_group();
    }

    fn endif_directive(&mut self, span: Span) {
        match self.files.last_mut().and_then(|f| f.conds.pop()) {
            Some(_) => self.extra_tokens("endif"),
            None => {
                self.diags.error(span, "#endif without #if");
                self.line_tokens();
            }
        }
    }

    /// Skips lines until the current group takes a branch or ends.
    fn skip_group(&mut self) {
        self.set_quiet(true);
        let mut depth = 0u32;
        while let Some(t) = self.raw_token() {
            if t.kind == TokenKind::Eof {
                self.unread(t);
                break;
            }
            if !(t.at_line_start && t.is_punct(Punct::Hash)) {
                continue;
            }
            let Some(n) = self.raw_token() else {
                break;
            };
            if n.at_line_start || n.kind == TokenKind::Eof {
                self.unread(n);
                continue;
            }
            match ident(&n) {
                Some("if" | "ifdef" | "ifndef") => depth += 1,
                Some("endif") if depth > 0 => depth -= 1,
                Some("endif") => {
                    self.set_quiet(false);
                    self.endif_directive(n.span);
                    return;
                }
                Some(name @ ("else" | "elif")) if depth == 0 => {
                    self.set_quiet(false);
                    if self.branch_in_skipped_group(n.span, name == "else") {
                        return;
                    }
                    self.set_quiet(true);
                }
                _ => {}
            }
        }
        self.set_quiet(false);
    }

    /// `#else` / `#elif` met while skipping: whether this branch is taken.
    fn branch_in_skipped_group(&mut self, span: Span, is_else: bool) -> bool {
        let name = if is_else { "else" } else { "elif" };
        let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) else {
            return false;
        };
        let (taken, after_else) = (c.taken, c.else_seen);
        c.else_seen |= is_else;
        if after_else {
            self.diags.error(span, format!("#{name} after #else"));
        }
        let take = if taken {
            self.line_tokens();
            false
        } else if is_else {
            self.extra_tokens("else");
            true
        } else {
            self.eval_if_line(span)
        };
        if take {
            if let Some(c) = self.files.last_mut().and_then(|f| f.conds.last_mut()) {
                c.taken = true;
            }
        }
        take
    }

    fn set_quiet(&mut self, quiet: bool) {
        if let Some(f) = self.files.last_mut() {
            f.lexer.quiet = quiet;
        }
    }

    /// At the end of a file: every group still open is an error.
    pub(super) fn close_conditionals(&mut self) {
        let conds = self
            .files
            .last_mut()
            .map(|f| std::mem::take(&mut f.conds))
            .unwrap_or_default();
        for c in conds {
            self.diags
                .error(c.span, "unterminated conditional directive");
        }
    }

    // #error text / #warning text
    fn message_directive(&mut self, span: Span, name: &str) {
        let (text, _) = match self.files.last_mut() {
            Some(f) => f.lexer.rest_of_line(self.diags),
            None => return,
        };
        let msg = if text.is_empty() {
            format!("#{name}")
        } else {
            text
        };
        if name == "error" {
            self.diags.error(span, msg);
        } else {
            self.diags.warning(span, msg);
        }
    }

    // #line digit-sequence "s-char-sequence"[opt]   (also `# 33 "file"`)
    fn line_directive(&mut self, hash: &Token, first: Option<Token>) {
        let mut toks: Vec<Token> = first.into_iter().collect();
        toks.extend(self.line_tokens());
        let toks = self.expand_isolated(toks.into_iter().map(PTok::new).collect());
        let Some(num) = toks.first() else {
            let msg = "#line directive requires a positive integer argument";
            self.diags.error(hash.span, msg);
            return;
        };
        let value = match &num.tok.kind {
            TokenKind::Number(s) if s.bytes().all(|b| b.is_ascii_digit()) => {
                s.parse::<u32>().ok().filter(|&v| v <= 2_147_483_647)
            }
            _ => None,
        };
        let Some(value) = value else {
            let msg = match num.tok.kind {
                TokenKind::Number(_) => "#line directive requires a simple digit sequence",
                _ => "#line directive requires a positive integer argument",
            };
            self.diags.error(num.tok.loc(), msg);
            return;
        };
        let name = match toks.get(1).map(|t| &t.tok.kind) {
            None => None,
            Some(TokenKind::Str(s)) => Some(s.clone()),
            Some(_) => {
                self.diags
                    .error(toks[1].tok.loc(), "invalid filename for #line directive");
                return;
            }
        };
        let Some(file) = self.sm.get_mut(hash.span.file) else {
            return;
        };
        let (line, _) = file.line_col(hash.span.lo);
        file.line_marks.push(LineMark {
            from_line: line + 1,
            line: value,
            name,
        });
    }

    // #include "name" / <name> / pp-tokens
    fn include_directive(&mut self, directive: Span) {
        let direct = match self.files.last_mut() {
            Some(f) => f.lexer.header_name(self.diags),
            None => return,
        };
        let (name, angled, span) = match direct {
            Some(h) => {
                self.extra_tokens("include");
                (h.name, h.angled, h.span)
            }
            None => match self.computed_include(directive) {
                Some(x) => x,
                None => return,
            },
        };
        if name.is_empty() {
            self.diags.error(span, "empty filename");
            return;
        }
        if self.files.len() >= MAX_INCLUDE_DEPTH {
            self.diags.error(span, "#include nested too deeply");
            return;
        }
        let Some(found) = self.find_include(&name, angled) else {
            self.diags.error(span, format!("'{name}' file not found"));
            return;
        };
        if self.once.contains(&found.key) {
            return;
        }
        let id = self.sm.add(found.name, found.text);
        self.file_keys.insert(id, found.key);
        self.push_file(id, found.dir);
    }

    /// `#include MACRO`: the operand after expansion, a string or `<…>`.
    fn computed_include(&mut self, directive: Span) -> Option<(String, bool, Span)> {
        let toks = self.line_tokens();
        let toks = self.expand_isolated(toks.into_iter().map(PTok::new).collect());
        self.header_from_tokens(&toks, directive)
    }

    /// A header name spelled by tokens: a string literal, or `<` … `>`.
    fn header_from_tokens(
        &mut self,
        toks: &[PTok],
        directive: Span,
    ) -> Option<(String, bool, Span)> {
        let bad = |pp: &mut Self, at: Span| {
            pp.diags.error(at, "expected \"FILENAME\" or <FILENAME>");
            None
        };
        let Some(first) = toks.first() else {
            return bad(self, end_of(directive));
        };
        let span = first.tok.loc();
        match &first.tok.kind {
            TokenKind::Str(s) => Some((s.clone(), false, span)),
            TokenKind::Punct(Punct::Lt) => {
                let mut name = String::new();
                for (k, t) in toks.iter().enumerate().skip(1) {
                    if t.is_punct(Punct::Gt) {
                        return Some((name, true, span.to(t.tok.loc())));
                    }
                    if k > 1 && t.tok.leading_space {
                        name.push(' ');
                    }
                    name.push_str(&self.spelling(&t.tok));
                }
                bad(self, span)
            }
            _ => bad(self, span),
        }
    }

    /// Searches the embedded headers, the including file's folder (for
    /// `"…"`), then the `-I` folders.
    fn find_include(&self, name: &str, angled: bool) -> Option<Found> {
        let dir = self.files.last().and_then(|f| f.dir.clone());
        let mut embedded_names = vec![name.to_string()];
        if let (false, Some(d)) = (angled, &dir) {
            if !d.as_os_str().is_empty() {
                embedded_names.push(d.join(name).to_string_lossy().into_owned());
            }
        }
        for want in &embedded_names {
            if let Some((n, text)) = self.opts.embedded_headers.iter().find(|(n, _)| n == want) {
                return Some(Found {
                    name: n.clone(),
                    text: text.clone(),
                    key: format!("embedded:{n}"),
                    dir: Path::new(n).parent().map(Path::to_path_buf),
                });
            }
        }
        let mut candidates = Vec::new();
        if Path::new(name).is_absolute() {
            candidates.push(PathBuf::from(name));
        } else {
            if let (false, Some(d)) = (angled, dir) {
                candidates.push(d.join(name));
            }
            candidates.extend(self.opts.include_dirs.iter().map(|d| d.join(name)));
        }
        candidates.into_iter().find_map(|path| {
            let text = read_source_file(&path)?;
            let key = std::fs::canonicalize(&path)
                .unwrap_or_else(|_| path.clone())
                .to_string_lossy()
                .into_owned();
            Some(Found {
                name: path.to_string_lossy().into_owned(),
                text,
                key,
                dir: path.parent().map(Path::to_path_buf),
            })
        })
    }

    /// `#pragma` (C99 §6.10.6; OpenCL C §6.12.x `EXTENSION`, `FP_CONTRACT`).
    /// Unknown pragmas are ignored.
    pub(super) fn pragma(&mut self, toks: &[Token], directive: Span) {
        match toks.first().and_then(ident) {
            Some("once") => {
                let key = self.current_file_key();
                self.once.insert(key);
            }
            Some("OPENCL") => {
                match toks.get(1).and_then(ident) {
                    Some("EXTENSION") => self.pragma_extension(&toks[2..], directive),
                    Some("FP_CONTRACT") => {
                        let state = toks.get(2).and_then(ident);
                        let ok = state.is_some_and(|s| matches!(s, "ON" | "OFF" | "DEFAULT"));
                        if ok {
                            self.fp_contract.push((self.emitted, state != Some("OFF")));
                        } else {
                            let at = toks.get(2).map_or(directive, |t| t.span);
                            self.diags
                                .warning(at, "expected 'ON' or 'OFF' or 'DEFAULT' in pragma");
                        }
                    }
                    _ => {
                        let at = toks.get(1).map_or(directive, |t| t.span);
                        self.diags
                        .warning(at, "expected 'EXTENSION' or 'FP_CONTRACT' after '#pragma OPENCL' - ignoring");
                    }
                }
            }
            _ => {} // `unroll [N]`, `nounroll`, `STDC …` and the rest: accepted, ignored
        }
    }

    // #pragma OPENCL EXTENSION name : enable|disable
    fn pragma_extension(&mut self, toks: &[Token], directive: Span) {
        let at = |i: usize| toks.get(i).map_or(directive, |t| t.span);
        let Some(name) = toks.first().and_then(ident) else {
            self.diags.warning(
                at(0),
                "expected an extension name in '#pragma OPENCL EXTENSION' - ignoring",
            );
            return;
        };
        if !toks.get(1).is_some_and(|t| t.is_punct(Punct::Colon)) {
            self.diags.warning(
                at(1),
                "expected ':' in '#pragma OPENCL EXTENSION' - ignoring",
            );
            return;
        }
        let behaviour = toks.get(2).and_then(ident);
        if !matches!(behaviour, Some("enable" | "disable")) {
            self.diags.warning(
                at(2),
                "expected 'enable' or 'disable' in '#pragma OPENCL EXTENSION' - ignoring",
            );
            return;
        }
        if name != "all" && !predefined::language_extensions().any(|e| e == name) {
            let what = if predefined::KNOWN_LANGUAGE_EXTENSIONS.contains(&name) {
                "unsupported"
            } else {
                "unknown"
            };
            self.diags.warning(
                at(0),
                format!("{what} OpenCL extension '{name}' - ignoring"),
            );
            return;
        }
        // Only `cl_khr_fp16` changes what sema accepts (its `half`
        // arithmetic needs the pragma in every OpenCL C version); the state
        // is kept for every advertised extension.
        let names: Vec<String> = if name == "all" {
            predefined::language_extensions()
                .map(str::to_string)
                .collect()
        } else {
            vec![name.to_string()]
        };
        for n in names {
            self.enabled.retain(|e| *e != n);
            if behaviour == Some("enable") {
                self.enabled.push(n);
            }
        }
    }

    fn current_file_key(&self) -> String {
        let id = self.files.last().map(|f| f.lexer.file());
        id.and_then(|id| self.file_keys.get(&id).cloned())
            .unwrap_or_else(|| format!("file:{}", id.map_or(0, |i| i.0)))
    }

    /// `_Pragma ( string-literal )` (C99 §6.10.9): runs the string as a pragma.
    pub(super) fn pragma_operator(&mut self, t: &PTok) {
        let lp = self.next_tok();
        if !lp.is_punct(Punct::LParen) {
            self.diags
                .error(t.tok.loc(), "_Pragma takes a parenthesized string literal");
            self.pending.push(lp);
            return;
        }
        let s = self.next_tok();
        let TokenKind::Str(text) = &s.tok.kind else {
            self.diags
                .error(t.tok.loc(), "_Pragma takes a parenthesized string literal");
            self.pending.push(s);
            return;
        };
        let text = text.clone();
        let rp = self.next_tok();
        if !rp.is_punct(Punct::RParen) {
            self.diags
                .error(t.tok.loc(), "_Pragma takes a parenthesized string literal");
            self.pending.push(rp);
            return;
        }
        let loc = t.tok.loc();
        let mut quiet = Diagnostics::new();
        let mut toks = lexer::lex_text(Rc::from(text.as_str()), loc.file, &mut quiet);
        toks.pop(); // Eof
        for tok in &mut toks {
            tok.span = loc;
        }
        self.pragma(&toks, loc);
    }
}

/// The empty span just past `s` (where a missing operand would be).
fn end_of(s: Span) -> Span {
    Span::new(s.file, s.hi, s.hi)
}

/// A header's text, if `path` is a regular file of reasonable size.
fn read_source_file(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_HEADER_BYTES {
        return None;
    }
    // The size check again while reading: some files (under /proc) say 0.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_HEADER_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_HEADER_BYTES {
        return None;
    }
    Some(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}
