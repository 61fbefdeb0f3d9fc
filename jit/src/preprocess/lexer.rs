//! The lexer: source text to preprocessing tokens (C99 §6.4, translation phases 1–3).
//!
//! A [`Lexer`] walks one file's bytes on demand, so the preprocessor can lex a
//! skipped `#if 0` group quietly (no literal errors there) and can ask for a
//! header name (`<stdio.h>`) right after `#include`. Line splices
//! (backslash-newline) are invisible to every token: the cursor steps over them
//! wherever they fall, even inside an identifier. Comments count as whitespace.
//! Each token records whether whitespace came before it and whether it is the
//! first on its line; the preprocessor needs both (directives, `#` stringizing).
//!
//! Literal values: a character constant keeps its spelling (quotes included),
//! after its escapes were checked; a string literal carries its value after
//! escape processing. A source character is kept as is; an escape names a byte,
//! and a byte of 0x80 or more becomes the char U+0080..U+00FF of that number
//! (a Rust `String` cannot hold a lone byte).
#![forbid(unsafe_code)]

use crate::diag::Diagnostics;
use crate::source::{FileId, Span};
use crate::token::{Punct, Token, TokenKind};
use std::rc::Rc;

/// On-demand lexer over one file's text.
pub struct Lexer {
    text: Rc<str>,
    file: FileId,
    pos: usize,
    /// The next token starts a line.
    at_line_start: bool,
    /// Skipped-group mode: literal and character errors are not reported.
    pub quiet: bool,
    /// `at_line_end` skipped whitespace the next token should know of.
    space_skipped: bool,
}

/// A `#include` operand written directly: `<name>` (angled) or `"name"`.
pub struct HeaderName {
    pub name: String,
    pub angled: bool,
    pub span: Span,
}

impl Lexer {
    pub fn new(text: Rc<str>, file: FileId) -> Lexer {
        Lexer {
            text,
            file,
            pos: 0,
            at_line_start: true,
            quiet: false,
            space_skipped: false,
        }
    }

    pub fn file(&self) -> FileId {
        self.file
    }

    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// Index of the next real character at or after `i`, stepping over splices.
    fn skip_splices(&self, mut i: usize) -> usize {
        let b = self.bytes();
        while i < b.len() && b[i] == b'\\' {
            match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'\n'), _) => i += 2,
                (Some(b'\r'), Some(b'\n')) => i += 3,
                _ => break,
            }
        }
        i
    }

    /// The `k`-th character ahead (0 = next), splices skipped.
    fn peek_at(&self, k: usize) -> Option<u8> {
        let mut i = self.skip_splices(self.pos);
        for _ in 0..k {
            if i >= self.bytes().len() {
                return None;
            }
            i = self.skip_splices(i + 1);
        }
        self.bytes().get(i).copied()
    }

    fn peek(&self) -> Option<u8> {
        self.peek_at(0)
    }

    fn bump(&mut self) -> Option<u8> {
        let i = self.skip_splices(self.pos);
        let c = self.bytes().get(i).copied();
        if c.is_some() {
            self.pos = i + 1;
        } else {
            self.pos = i;
        }
        c
    }

    /// Offset where the next character really is (after any splices).
    fn here(&self) -> u32 {
        self.skip_splices(self.pos) as u32
    }

    fn span(&self, lo: u32) -> Span {
        Span::new(self.file, lo, self.pos as u32)
    }

    fn error(&self, diags: &mut Diagnostics, span: Span, msg: impl Into<String>) {
        if !self.quiet {
            diags.error(span, msg);
        }
    }

    fn warning(&self, diags: &mut Diagnostics, span: Span, msg: impl Into<String>) {
        if !self.quiet {
            diags.warning(span, msg);
        }
    }

    /// Skips whitespace and comments; returns whether any was skipped.
    /// With `stop_at_newline`, a newline is not consumed.
    fn skip_space(&mut self, diags: &mut Diagnostics, stop_at_newline: bool) -> bool {
        let mut skipped = false;
        loop {
            match self.peek() {
                Some(b'\n') if stop_at_newline => return skipped,
                Some(b'\n') => {
                    self.bump();
                    self.at_line_start = true;
                }
                Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c) => {
                    self.bump();
                }
                Some(0) => {
                    let lo = self.here();
                    self.bump();
                    self.warning(diags, self.span(lo), "null character ignored");
                }
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while !matches!(self.peek(), Some(b'\n') | None) {
                        self.bump();
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let lo = self.here();
                    self.bump();
                    self.bump();
                    self.block_comment(diags, lo);
                }
                _ => return skipped,
            }
            skipped = true;
        }
    }

    /// The rest of a `/* ... */` comment; an unterminated one is always an error.
    fn block_comment(&mut self, diags: &mut Diagnostics, lo: u32) {
        loop {
            match self.bump() {
                None => {
                    diags.error(Span::new(self.file, lo, lo + 2), "unterminated /* comment");
                    return;
                }
                Some(b'*') if self.peek() == Some(b'/') => {
                    self.bump();
                    return;
                }
                // A comment is one space (C99 §5.1.1.2 phase 3): its
                // newlines do not end a directive's line.
                _ => {}
            }
        }
    }

    /// Whether the current line has no more tokens (only spaces and
    /// comments before the newline or the end). Lexes nothing of the next
    /// line, so a directive can end without reading into a skipped group.
    pub fn at_line_end(&mut self, diags: &mut Diagnostics) -> bool {
        self.space_skipped |= self.skip_space(diags, true);
        matches!(self.peek(), None | Some(b'\n'))
    }

    /// The next token; `Eof` at the end (and on every call after).
    pub fn next_token(&mut self, diags: &mut Diagnostics) -> Token {
        loop {
            let space = self.skip_space(diags, false) | std::mem::take(&mut self.space_skipped);
            let line_start = self.at_line_start;
            let lo = self.here();
            let Some(kind) = self.token_kind(diags) else {
                continue; // a stray character, already reported
            };
            self.at_line_start = false;
            return Token {
                kind,
                span: self.span(lo),
                expanded_from: None,
                leading_space: space || line_start,
                at_line_start: line_start,
            };
        }
    }

    /// Lexes one token's kind at the cursor; `None` after a stray character.
    fn token_kind(&mut self, diags: &mut Diagnostics) -> Option<TokenKind> {
        let lo = self.here();
        let Some(c) = self.peek() else {
            self.pos = self.bytes().len();
            return Some(TokenKind::Eof);
        };
        match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' => Some(self.identifier()),
            b'0'..=b'9' => Some(self.number()),
            b'.' if matches!(self.peek_at(1), Some(b'0'..=b'9')) => Some(self.number()),
            b'\'' => Some(self.char_constant(diags)),
            b'"' => Some(self.string_literal(diags)),
            _ => {
                if let Some(p) = self.punct() {
                    return Some(TokenKind::Punct(p));
                }
                // Not a token: report it and skip one (UTF-8) character.
                self.bump();
                while matches!(self.peek(), Some(0x80..=0xbf)) {
                    self.bump();
                }
                let span = self.span(lo);
                let what = if c == b'\\' {
                    "stray '\\' in program".to_string()
                } else {
                    let text = String::from_utf8_lossy(&self.bytes()[lo as usize..self.pos]);
                    format!("unexpected character '{}'", text.trim())
                };
                self.error(diags, span, what);
                None
            }
        }
    }

    fn identifier(&mut self) -> TokenKind {
        let mut s = String::new();
        while let Some(c @ (b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' | b'0'..=b'9')) = self.peek() {
            self.bump();
            s.push(c as char);
        }
        TokenKind::Ident(s)
    }

    /// pp-number: `digit | . digit`, then identifier characters, `.`, and
    /// `e+ e- E+ E- p+ p- P+ P-` (C99 §6.4.8).
    fn number(&mut self) -> TokenKind {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            match c {
                b'e' | b'E' | b'p' | b'P' if matches!(self.peek_at(1), Some(b'+' | b'-')) => {
                    self.bump();
                    s.push(c as char);
                    if let Some(sign) = self.bump() {
                        s.push(sign as char);
                    }
                }
                b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'.' => {
                    self.bump();
                    s.push(c as char);
                }
                _ => break,
            }
        }
        TokenKind::Number(s)
    }

    /// `'c'`: the spelling is kept; escapes are checked here.
    fn char_constant(&mut self, diags: &mut Diagnostics) -> TokenKind {
        let lo = self.here();
        self.bump();
        let mut spelling = String::from("'");
        let mut count = 0;
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    self.error(
                        diags,
                        Span::new(self.file, lo, lo + 1),
                        "missing terminating ' character",
                    );
                    break;
                }
                Some(b'\'') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    let start = self.pos;
                    self.escape(diags);
                    spelling.push_str(&self.spelled(start));
                    count += 1;
                }
                Some(_) => {
                    let start = self.pos;
                    self.bump_utf8();
                    spelling.push_str(&self.spelled(start));
                    count += 1;
                }
            }
        }
        if count == 0 {
            self.error(diags, self.span(lo), "empty character constant");
            spelling.push_str("\\0");
        }
        spelling.push('\'');
        TokenKind::Char(spelling)
    }

    /// `"..."`: the token carries the value, escapes processed.
    fn string_literal(&mut self, diags: &mut Diagnostics) -> TokenKind {
        let lo = self.here();
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    self.error(
                        diags,
                        Span::new(self.file, lo, lo + 1),
                        "missing terminating '\"' character",
                    );
                    break;
                }
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    if let Some(ch) = self.escape(diags) {
                        value.push(ch);
                    }
                }
                Some(_) => {
                    let start = self.pos;
                    self.bump_utf8();
                    value.push_str(&self.spelled(start));
                }
            }
        }
        TokenKind::Str(value)
    }

    /// Source text from `start` to the cursor, splices removed.
    fn spelled(&self, start: usize) -> String {
        let raw = &self.text[start..self.pos];
        if raw.contains('\\') {
            raw.replace("\\\r\n", "").replace("\\\n", "")
        } else {
            raw.to_string()
        }
    }

    /// Steps over one UTF-8 character (lead byte and continuation bytes).
    fn bump_utf8(&mut self) {
        self.bump();
        while matches!(self.peek(), Some(0x80..=0xbf)) {
            self.bump();
        }
    }

    /// One escape sequence at the cursor (C99 §6.4.4.4); its value as a char.
    fn escape(&mut self, diags: &mut Diagnostics) -> Option<char> {
        let lo = self.here();
        self.bump(); // the backslash
        let c = self.peek()?;
        let simple = match c {
            b'n' => Some('\n'),
            b't' => Some('\t'),
            b'r' => Some('\r'),
            b'a' => Some('\x07'),
            b'b' => Some('\x08'),
            b'f' => Some('\x0c'),
            b'v' => Some('\x0b'),
            b'\\' | b'\'' | b'"' | b'?' => Some(c as char),
            _ => None,
        };
        if let Some(ch) = simple {
            self.bump();
            return Some(ch);
        }
        match c {
            b'0'..=b'7' => {
                let mut v = 0u32;
                for _ in 0..3 {
                    match self.peek() {
                        Some(d @ b'0'..=b'7') => {
                            self.bump();
                            v = v * 8 + u32::from(d - b'0');
                        }
                        _ => break,
                    }
                }
                if v > 0xff {
                    self.error(diags, self.span(lo), "octal escape sequence out of range");
                }
                Some(byte_char(v))
            }
            b'x' => {
                self.bump();
                let mut v = 0u32;
                let mut digits = 0;
                let mut overflow = false;
                while let Some(d) = self.peek().and_then(|d| (d as char).to_digit(16)) {
                    self.bump();
                    digits += 1;
                    v = v.saturating_mul(16).saturating_add(d);
                    overflow |= v > 0xff;
                }
                if digits == 0 {
                    self.error(
                        diags,
                        self.span(lo),
                        "\\x used with no following hex digits",
                    );
                } else if overflow {
                    self.error(diags, self.span(lo), "hex escape sequence out of range");
                }
                Some(byte_char(v))
            }
            b'u' | b'U' => {
                self.bump();
                let want = if c == b'u' { 4 } else { 8 };
                let mut v = 0u32;
                for _ in 0..want {
                    match self.peek().and_then(|d| (d as char).to_digit(16)) {
                        Some(d) => {
                            self.bump();
                            v = v.wrapping_mul(16).wrapping_add(d);
                        }
                        None => {
                            self.error(diags, self.span(lo), "incomplete universal character name");
                            return None;
                        }
                    }
                }
                let ch = char::from_u32(v);
                if ch.is_none() {
                    self.error(diags, self.span(lo), "invalid universal character");
                }
                ch
            }
            _ => {
                let start = self.pos;
                self.bump_utf8();
                let text = self.spelled(start);
                self.warning(
                    diags,
                    self.span(lo),
                    format!("unknown escape sequence '\\{text}'"),
                );
                text.chars().next()
            }
        }
    }

    /// The longest punctuator at the cursor (C99 §6.4.6), digraphs included.
    fn punct(&mut self) -> Option<Punct> {
        use Punct::*;
        let c0 = self.peek()?;
        let c1 = self.peek_at(1);
        let c2 = self.peek_at(2);
        let (p, len) = match (c0, c1, c2) {
            (b'.', Some(b'.'), Some(b'.')) => (Ellipsis, 3),
            (b'<', Some(b'<'), Some(b'=')) => (ShlEq, 3),
            (b'>', Some(b'>'), Some(b'=')) => (ShrEq, 3),
            (b'%', Some(b':'), Some(b'%')) if self.peek_at(3) == Some(b':') => (HashHash, 4),
            (b'-', Some(b'>'), _) => (Arrow, 2),
            (b'+', Some(b'+'), _) => (PlusPlus, 2),
            (b'-', Some(b'-'), _) => (MinusMinus, 2),
            (b'<', Some(b'<'), _) => (Shl, 2),
            (b'>', Some(b'>'), _) => (Shr, 2),
            (b'<', Some(b'='), _) => (Le, 2),
            (b'>', Some(b'='), _) => (Ge, 2),
            (b'=', Some(b'='), _) => (EqEq, 2),
            (b'!', Some(b'='), _) => (Ne, 2),
            (b'&', Some(b'&'), _) => (AmpAmp, 2),
            (b'|', Some(b'|'), _) => (PipePipe, 2),
            (b'*', Some(b'='), _) => (StarEq, 2),
            (b'/', Some(b'='), _) => (SlashEq, 2),
            (b'%', Some(b'='), _) => (PercentEq, 2),
            (b'+', Some(b'='), _) => (PlusEq, 2),
            (b'-', Some(b'='), _) => (MinusEq, 2),
            (b'&', Some(b'='), _) => (AmpEq, 2),
            (b'^', Some(b'='), _) => (CaretEq, 2),
            (b'|', Some(b'='), _) => (PipeEq, 2),
            (b'#', Some(b'#'), _) => (HashHash, 2),
            (b'<', Some(b':'), _) => (LBracket, 2),
            (b':', Some(b'>'), _) => (RBracket, 2),
            (b'<', Some(b'%'), _) => (LBrace, 2),
            (b'%', Some(b'>'), _) => (RBrace, 2),
            (b'%', Some(b':'), _) => (Hash, 2),
            (b'[', ..) => (LBracket, 1),
            (b']', ..) => (RBracket, 1),
            (b'(', ..) => (LParen, 1),
            (b')', ..) => (RParen, 1),
            (b'{', ..) => (LBrace, 1),
            (b'}', ..) => (RBrace, 1),
            (b'.', ..) => (Dot, 1),
            (b'&', ..) => (Amp, 1),
            (b'*', ..) => (Star, 1),
            (b'+', ..) => (Plus, 1),
            (b'-', ..) => (Minus, 1),
            (b'~', ..) => (Tilde, 1),
            (b'!', ..) => (Bang, 1),
            (b'/', ..) => (Slash, 1),
            (b'%', ..) => (Percent, 1),
            (b'<', ..) => (Lt, 1),
            (b'>', ..) => (Gt, 1),
            (b'^', ..) => (Caret, 1),
            (b'|', ..) => (Pipe, 1),
            (b'?', ..) => (Question, 1),
            (b':', ..) => (Colon, 1),
            (b';', ..) => (Semi, 1),
            (b'=', ..) => (Eq, 1),
            (b',', ..) => (Comma, 1),
            (b'#', ..) => (Hash, 1),
            _ => return None,
        };
        for _ in 0..len {
            self.bump();
        }
        Some(p)
    }

    /// After `#include`: a header name written directly (`<a/b.h>` or
    /// `"a.h"`), or `None` (cursor unchanged) when the operand is something else.
    pub fn header_name(&mut self, diags: &mut Diagnostics) -> Option<HeaderName> {
        self.skip_space(diags, true);
        let (close, angled) = match self.peek() {
            Some(b'<') => (b'>', true),
            Some(b'"') => (b'"', false),
            _ => return None,
        };
        let save = self.pos;
        let lo = self.here();
        self.bump();
        let start = self.pos;
        loop {
            match self.peek() {
                None | Some(b'\n') => {
                    self.pos = save;
                    return None;
                }
                Some(c) if c == close => break,
                Some(_) => {
                    self.bump();
                }
            }
        }
        let name = self.spelled(start);
        self.bump();
        Some(HeaderName {
            name,
            angled,
            span: self.span(lo),
        })
    }

    /// The raw text up to the end of the line (for `#error` and `#warning`),
    /// as clang shows it: verbatim, comments included, splices joined, outer
    /// whitespace trimmed. The newline is not consumed.
    pub fn rest_of_line(&mut self, diags: &mut Diagnostics) -> (String, Span) {
        self.skip_horizontal_space();
        let lo = self.here();
        let start = self.pos;
        loop {
            match self.peek() {
                None | Some(b'\n') => break,
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let at = self.here();
                    self.bump();
                    self.bump();
                    self.block_comment(diags, at);
                }
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while !matches!(self.peek(), Some(b'\n') | None) {
                        self.bump();
                    }
                }
                Some(quote @ (b'\'' | b'"')) => {
                    // A quote hides comment openers; unterminated is fine here.
                    self.bump();
                    while !matches!(self.peek(), None | Some(b'\n')) && self.peek() != Some(quote) {
                        if self.peek() == Some(b'\\') {
                            self.bump();
                        }
                        self.bump();
                    }
                    if self.peek() == Some(quote) {
                        self.bump();
                    }
                }
                Some(_) => self.bump_utf8(),
            }
        }
        let text = self.spelled(start).trim_end().to_string();
        (text, self.span(lo))
    }

    fn skip_horizontal_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | 0x0b | 0x0c)) {
            self.bump();
        }
    }
}

/// A byte value as a char (0x80..=0xFF become U+0080..U+00FF).
fn byte_char(v: u32) -> char {
    char::from_u32(v & 0xff).unwrap_or('\0') // v & 0xff is always a valid char
}

/// Lexes a whole file into tokens, no directives run; the last token is `Eof`.
pub fn lex_text(text: Rc<str>, file: FileId, diags: &mut Diagnostics) -> Vec<Token> {
    let mut lexer = Lexer::new(text, file);
    let mut out = Vec::new();
    loop {
        let t = lexer.next_token(diags);
        let eof = t.kind == TokenKind::Eof;
        out.push(t);
        if eof {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex_str(s: &str) -> (Vec<Token>, Diagnostics) {
        let mut d = Diagnostics::new();
        let toks = lex_text(Rc::from(s), FileId(0), &mut d);
        (toks, d)
    }

    #[test]
    fn spans_cover_the_token_text() {
        let (toks, d) = lex_str("ab  +=\n 0x1F");
        assert!(d.items.is_empty());
        let spans: Vec<(u32, u32)> = toks.iter().map(|t| (t.span.lo, t.span.hi)).collect();
        assert_eq!(spans, [(0, 2), (4, 6), (8, 12), (12, 12)]);
    }

    #[test]
    fn line_start_and_leading_space() {
        let (toks, _) = lex_str("a b\n  c/**/d\n/* x\n */ e");
        let flags: Vec<(bool, bool)> = toks
            .iter()
            .map(|t| (t.at_line_start, t.leading_space))
            .collect();
        // a: first in file; b: after a space; c: first on its line; d: after a
        // comment; e: after a comment that began its line.
        assert_eq!(
            flags[..5],
            [
                (true, true),
                (false, true),
                (true, true),
                (false, true),
                (true, true)
            ]
        );
    }

    #[test]
    fn splices_join_everything() {
        let (toks, d) = lex_str("id\\\nent \"st\\\nr\" 1\\\n2 +\\\r\n=");
        assert!(d.items.is_empty());
        let kinds: Vec<TokenKind> = toks.into_iter().map(|t| t.kind).collect();
        assert_eq!(
            kinds,
            [
                TokenKind::Ident("ident".into()),
                TokenKind::Str("str".into()),
                TokenKind::Number("12".into()),
                TokenKind::Punct(Punct::PlusEq),
                TokenKind::Eof,
            ]
        );
    }

    #[test]
    fn header_names_and_rest_of_line() {
        let mut d = Diagnostics::new();
        let mut lx = Lexer::new(
            Rc::from("  <a/b.h> x\n\"q.h\"\n  text more   'st  r' // c\nz"),
            FileId(0),
        );
        let h = lx
            .header_name(&mut d)
            .map(|h| (h.name, h.angled, h.span.lo));
        assert_eq!(h, Some(("a/b.h".to_string(), true, 2)));
        assert_eq!(lx.next_token(&mut d).kind, TokenKind::Ident("x".into()));
        let h = lx.header_name(&mut d).map(|h| (h.name, h.angled));
        assert_eq!(h, None, "a header name does not cross a newline");
        lx.next_token(&mut d);
        let (text, _) = lx.rest_of_line(&mut d);
        assert_eq!(text, "");
        let t = lx.next_token(&mut d);
        assert_eq!(t.kind, TokenKind::Ident("text".into()));
        let (text, _) = lx.rest_of_line(&mut d);
        assert_eq!(text, "more   'st  r' // c");
        assert!(d.items.is_empty());
    }

    #[test]
    fn quiet_mode_reports_no_literal_errors() {
        let mut d = Diagnostics::new();
        let mut lx = Lexer::new(Rc::from("it's @ fine\n/* but this is not"), FileId(0));
        lx.quiet = true;
        while lx.next_token(&mut d).kind != TokenKind::Eof {}
        let msgs: Vec<&str> = d.items.iter().map(|x| x.message.as_str()).collect();
        assert_eq!(msgs, ["unterminated /* comment"]);
    }
}
