//! Macro expansion (C99 §6.10.3): object- and function-like macros, variadic
//! macros, `#` and `##`, rescanning, and the hideset rule.
//!
//! The algorithm is Prosser's (as in chibicc). Every token carries a hideset,
//! the names of the macros whose expansion produced it. An identifier is
//! expanded only if its own name is not in its hideset; a token that is not
//! expanded for that reason keeps the hideset, so it stays "painted blue" for
//! good. The expansion of an object-like macro `M` gets `hs(M) ∪ {M}`; that of
//! a function-like invocation `M(…)` gets `(hs(M) ∩ hs(')')) ∪ {M}`, which lets
//! `f(2)(9)` in the standard's §6.10.3.5 example call `f` again. The result is
//! pushed back onto the pending stack and rescanned with what follows.
//!
//! Substitution: a parameter next to `#` is replaced by the string of its
//! argument's spelling; next to `##` by the argument's tokens unexpanded (an
//! empty one is a placemarker); elsewhere by the argument fully expanded on its
//! own. `##` glues the spellings of its neighbours and relexes them; a result
//! that is not one token is an error and both tokens are kept. GNU's
//! `, ## __VA_ARGS__` drops the comma when the variable arguments are empty.
#![forbid(unsafe_code)]

use super::{lexer, PTok, Preprocessor, MAX_EXPANSION_DEPTH};
use crate::diag::Diagnostics;
use crate::source::Span;
use crate::token::{Punct, Token, TokenKind};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// A `HashMap` with a fast, non-cryptographic hash (the keys are the
/// program's own identifiers; nothing here needs DoS resistance).
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// The multiply-rotate hash rustc uses (FxHash).
#[derive(Default)]
pub(super) struct FastHasher(u64);

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A set of macro ids, interned: equal sets have equal handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct HideSet(u32);

impl HideSet {
    pub(super) const EMPTY: HideSet = HideSet(0);
}

/// The interning table of hidesets, with memoised set operations.
pub(super) struct HideSets {
    sets: Vec<Rc<[u32]>>,
    index: FastMap<Rc<[u32]>, u32>,
    unions: FastMap<(u32, u32), HideSet>,
    adds: FastMap<(u32, u32), HideSet>,
}

impl HideSets {
    pub(super) fn new() -> HideSets {
        let empty: Rc<[u32]> = Rc::from(Vec::new());
        let mut index = FastMap::default();
        index.insert(empty.clone(), 0);
        HideSets {
            sets: vec![empty],
            index,
            unions: FastMap::default(),
            adds: FastMap::default(),
        }
    }

    fn intern(&mut self, ids: Vec<u32>) -> HideSet {
        if let Some(&i) = self.index.get(ids.as_slice()) {
            return HideSet(i);
        }
        let rc: Rc<[u32]> = Rc::from(ids);
        let i = self.sets.len() as u32;
        self.sets.push(rc.clone());
        self.index.insert(rc, i);
        HideSet(i)
    }

    fn get(&self, hs: HideSet) -> &[u32] {
        self.sets.get(hs.0 as usize).map_or(&[], |s| s)
    }

    pub(super) fn contains(&self, hs: HideSet, id: u32) -> bool {
        self.get(hs).binary_search(&id).is_ok()
    }

    pub(super) fn add(&mut self, hs: HideSet, id: u32) -> HideSet {
        if let Some(&r) = self.adds.get(&(hs.0, id)) {
            return r;
        }
        let single = self.intern(vec![id]);
        let r = self.union(hs, single);
        self.adds.insert((hs.0, id), r);
        r
    }

    pub(super) fn union(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == b || b == HideSet::EMPTY {
            return a;
        }
        if a == HideSet::EMPTY {
            return b;
        }
        if let Some(&u) = self.unions.get(&(a.0, b.0)) {
            return u;
        }
        let mut ids: Vec<u32> = self.get(a).iter().chain(self.get(b)).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let u = self.intern(ids);
        self.unions.insert((a.0, b.0), u);
        u
    }

    pub(super) fn intersect(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == b || a == HideSet::EMPTY {
            return a;
        }
        if b == HideSet::EMPTY {
            return b;
        }
        let sb = self.get(b);
        let ids: Vec<u32> = self
            .get(a)
            .iter()
            .filter(|x| sb.binary_search(x).is_ok())
            .copied()
            .collect();
        self.intern(ids)
    }
}

/// Macros the preprocessor computes rather than reads from a `#define`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    Line,
    File,
    Counter,
    Date,
    Time,
}

/// One macro definition.
#[derive(Debug)]
pub(super) struct Macro {
    pub name: String,
    pub id: u32,
    /// `None` for an object-like macro.
    pub params: Option<Vec<String>>,
    /// The last parameter takes the variable arguments (`...` or `name...`).
    pub variadic: bool,
    pub body: Vec<Token>,
    /// The macro's name in its `#define` (none for built-ins).
    pub def_span: Option<Span>,
    pub builtin: Option<Builtin>,
}

impl Macro {
    fn param_index(&self, t: &Token) -> Option<usize> {
        let TokenKind::Ident(name) = &t.kind else {
            return None;
        };
        self.params.as_ref()?.iter().position(|p| p == name)
    }

    /// Two definitions are the same (C99 §6.10.3p2): same parameters, same
    /// tokens, same whitespace separation.
    pub(super) fn same_definition(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.kind == b.kind && (i == 0 || a.leading_space == b.leading_space)
                })
    }
}

impl Preprocessor<'_> {
    /// The small id of a macro name, for hidesets.
    pub(super) fn macro_id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.macro_ids.get(name) {
            return id;
        }
        let id = self.macro_ids.len() as u32;
        self.macro_ids.insert(name.to_string(), id);
        id
    }

    /// The next token after macro expansion.
    pub(super) fn next_expanded(&mut self) -> PTok {
        loop {
            let t = self.next_tok();
            if let Some(t) = self.expand_ident(t) {
                return t;
            }
        }
    }

    /// If `t` names a macro that may expand here, expands it (the result is
    /// pushed back for rescanning) and gives `None`; otherwise gives `t` back.
    pub(super) fn expand_ident(&mut self, t: PTok) -> Option<PTok> {
        let Some(name) = t.ident() else {
            return Some(t);
        };
        let Some(m) = self.macros.get(name).cloned() else {
            if name == "_Pragma" {
                self.pragma_operator(&t);
                return None;
            }
            return Some(t);
        };
        if self.hidesets.contains(t.hs, m.id) {
            return Some(t);
        }
        if self.budget == 0 {
            self.report_budget(&t.tok);
            return Some(t);
        }
        if let Some(b) = m.builtin {
            let tok = self.builtin_token(b, &t.tok);
            self.pending.push(PTok { tok, hs: t.hs });
            return None;
        }
        if m.params.is_none() {
            let hs = self.hidesets.add(t.hs, m.id);
            let origin = t.tok.loc();
            let out = self.subst(&m, &[], hs, origin);
            self.push_expansion(out, &t.tok);
            return None;
        }
        self.expand_function_like(t, &m)
    }

    /// `f(args)`: an invocation only when `(` follows the name.
    fn expand_function_like(&mut self, t: PTok, m: &Macro) -> Option<PTok> {
        let next = self.next_tok();
        if !next.is_punct(Punct::LParen) {
            self.pending.push(next);
            return Some(t);
        }
        let (args, rparen) = self.collect_args(&t, m)?;
        let origin = match t.tok.expanded_from {
            Some(s) => s,
            None => t.tok.span.to(rparen.tok.loc()),
        };
        let args = self.check_arg_count(&rparen, m, args)?;
        let hs = self.hidesets.intersect(t.hs, rparen.hs);
        let hs = self.hidesets.add(hs, m.id);
        let out = self.subst(m, &args, hs, origin);
        self.push_expansion(out, &t.tok);
        None
    }

    /// Reads the arguments up to the matching `)`; `None` (after an error)
    /// if the file ends first.
    fn collect_args(&mut self, t: &PTok, m: &Macro) -> Option<(Vec<Vec<PTok>>, PTok)> {
        let nparams = m.params.as_ref().map_or(0, Vec::len);
        let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
        let mut depth = 0u32;
        loop {
            let a = self.next_tok();
            match &a.tok.kind {
                TokenKind::Eof => {
                    self.diags
                        .error(t.tok.loc(), "unterminated function-like macro invocation");
                    self.note_defined_here(m);
                    self.pending.push(a);
                    return None;
                }
                TokenKind::Punct(Punct::LParen) => depth += 1,
                TokenKind::Punct(Punct::RParen) if depth == 0 => return Some((args, a)),
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                TokenKind::Punct(Punct::Comma)
                    if depth == 0 && !(m.variadic && args.len() == nparams) =>
                {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(a);
            }
        }
    }

    fn check_arg_count(
        &mut self,
        rparen: &PTok,
        m: &Macro,
        mut args: Vec<Vec<PTok>>,
    ) -> Option<Vec<Vec<PTok>>> {
        let nparams = m.params.as_ref().map_or(0, Vec::len);
        // `f()` passes one empty argument, which a macro of no parameters takes as none.
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            return Some(Vec::new());
        }
        // The variable arguments may be left out entirely: `f(a)` for `f(a, ...)`.
        if m.variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        if args.len() == nparams {
            return Some(args);
        }
        // As clang: "too many" at the first extra argument, "too few" at `)`.
        let (msg, at) = if args.len() > nparams {
            let first_extra = args.get(nparams).and_then(|a| a.first());
            let at = first_extra.map_or(rparen.tok.loc(), |t| t.tok.loc());
            (
                "too many arguments provided to function-like macro invocation",
                at,
            )
        } else {
            (
                "too few arguments provided to function-like macro invocation",
                rparen.tok.loc(),
            )
        };
        self.diags.error(at, msg);
        self.note_defined_here(m);
        None
    }

    fn note_defined_here(&mut self, m: &Macro) {
        if let Some(span) = m.def_span {
            self.diags
                .note(span, format!("macro '{}' defined here", m.name));
        }
    }

    /// Pushes an expansion back for rescanning; its first token takes the
    /// invocation's place in the line (leading space, line start).
    fn push_expansion(&mut self, mut out: Vec<PTok>, name: &Token) {
        let n = out.len() as u64;
        if n > self.budget {
            self.budget = 0;
            self.report_budget(name);
            return;
        }
        self.budget -= n;
        if let Some(first) = out.first_mut() {
            first.tok.leading_space = name.leading_space;
            first.tok.at_line_start = name.at_line_start;
        }
        self.pending.extend(out.into_iter().rev());
    }

    fn report_budget(&mut self, at: &Token) {
        if !self.budget_reported {
            self.budget_reported = true;
            self.diags.error(
                at.loc(),
                "macro expansion produces too many tokens; expansion stopped",
            );
        }
    }

    /// The replacement list with arguments substituted (C99 §6.10.3.1–3).
    fn subst(&mut self, m: &Macro, args: &[Vec<PTok>], hs: HideSet, origin: Span) -> Vec<PTok> {
        let body = &m.body;
        let function_like = m.params.is_some();
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
        let mut out: Vec<PTok> = Vec::new();
        // The last operand was an empty argument (a placemarker for `##`).
        let mut placemarker = false;
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            let before_paste = body.get(i + 1).is_some_and(|n| n.is_punct(Punct::HashHash));
            // lhs ## rhs
            if b.is_punct(Punct::HashHash) && i + 1 < body.len() {
                let (rhs, used) = self.paste_operand(m, args, i + 1, origin);
                let vararg_rhs =
                    m.variadic && m.param_index(&body[i + 1]) == Some(args.len().wrapping_sub(1));
                i += 1 + used;
                if vararg_rhs
                    && out.last().is_some_and(|l| l.is_punct(Punct::Comma))
                    && !placemarker
                {
                    // GNU: `, ## __VA_ARGS__` drops the comma when there are none.
                    if rhs.is_empty() {
                        out.pop();
                    }
                    out.extend(rhs);
                    placemarker = false;
                    continue;
                }
                if rhs.is_empty() {
                    continue; // lhs ## placemarker = lhs
                }
                if placemarker {
                    out.extend(rhs); // placemarker ## rhs = rhs
                    placemarker = false;
                    continue;
                }
                let mut rest = rhs.into_iter();
                match (out.pop(), rest.next()) {
                    (Some(lhs), Some(first)) => {
                        let pasted = self.paste(lhs, first, origin);
                        if pasted.len() == 2 {
                            // Failed: show where in the macro the `##` is.
                            let note = format!("expanded from macro '{}'", m.name);
                            self.diags.note(b.span, note);
                        }
                        out.extend(pasted);
                    }
                    (lhs, first) => out.extend(lhs.into_iter().chain(first)),
                }
                out.extend(rest);
                continue;
            }
            // # param
            if function_like && b.is_punct(Punct::Hash) {
                if let Some(p) = body.get(i + 1).and_then(|n| m.param_index(n)) {
                    let span = b.span.to(body[i + 1].span);
                    let s = self.stringize(&args[p], span, origin, b.leading_space);
                    out.push(s);
                    placemarker = false;
                    i += 2;
                    continue;
                }
            }
            // param
            if let Some(p) = m.param_index(b) {
                let mut toks = if before_paste {
                    args[p].clone()
                } else {
                    if expanded[p].is_none() {
                        expanded[p] = Some(self.expand_isolated(args[p].clone()));
                    }
                    expanded[p].clone().unwrap_or_default()
                };
                if let Some(first) = toks.first_mut() {
                    first.tok.leading_space = b.leading_space;
                }
                placemarker = toks.is_empty();
                out.extend(toks);
                i += 1;
                continue;
            }
            out.push(body_token(b, origin));
            placemarker = false;
            i += 1;
        }
        for t in &mut out {
            t.hs = self.hidesets.union(t.hs, hs);
        }
        out
    }

    /// The right operand of `##` at `body[i]`: an argument unexpanded, a
    /// stringized argument, or a body token; and how many body tokens it used.
    fn paste_operand(
        &mut self,
        m: &Macro,
        args: &[Vec<PTok>],
        i: usize,
        origin: Span,
    ) -> (Vec<PTok>, usize) {
        let b = &m.body[i];
        if let Some(p) = m.param_index(b) {
            return (args[p].clone(), 1);
        }
        if m.params.is_some() && b.is_punct(Punct::Hash) {
            if let Some(p) = m.body.get(i + 1).and_then(|n| m.param_index(n)) {
                let span = b.span.to(m.body[i + 1].span);
                return (
                    vec![self.stringize(&args[p], span, origin, b.leading_space)],
                    2,
                );
            }
        }
        (vec![body_token(b, origin)], 1)
    }

    /// Fully expands a token list on its own (a macro argument).
    pub(super) fn expand_isolated(&mut self, toks: Vec<PTok>) -> Vec<PTok> {
        if self.depth >= MAX_EXPANSION_DEPTH {
            if let Some(t) = toks.first() {
                if !self.budget_reported {
                    self.budget_reported = true;
                    self.diags
                        .error(t.tok.loc(), "macro invocations nested too deeply");
                }
            }
            return toks;
        }
        self.with_isolated(toks, |pp| {
            let mut out = Vec::new();
            loop {
                let t = pp.next_expanded();
                if t.is_eof() {
                    return out;
                }
                out.push(t);
            }
        })
    }

    /// Runs `f` reading only `toks` (then `Eof`), restoring the stream after.
    pub(super) fn with_isolated<R>(
        &mut self,
        toks: Vec<PTok>,
        f: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let end = match (toks.last(), self.isolated) {
            (Some(t), _) => {
                let l = t.tok.loc();
                Span::new(l.file, l.hi, l.hi)
            }
            (None, Some(e)) => e,
            (None, None) => self.eof_token().span,
        };
        let saved = std::mem::replace(&mut self.pending, toks.into_iter().rev().collect());
        let was_isolated = self.isolated.replace(end);
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        self.isolated = was_isolated;
        self.pending = saved;
        r
    }

    /// `#x`: the argument's spelling as a string literal (C99 §6.10.3.2).
    fn stringize(&self, arg: &[PTok], span: Span, origin: Span, leading_space: bool) -> PTok {
        let mut s = String::new();
        for (k, t) in arg.iter().enumerate() {
            if k > 0 && t.tok.leading_space {
                s.push(' ');
            }
            // The literal's spelling would escape `"` and `\` inside string and
            // character literals; its value is the spelling itself.
            s.push_str(&self.spelling(&t.tok));
        }
        PTok::new(Token {
            kind: TokenKind::Str(s),
            span,
            expanded_from: Some(origin),
            leading_space,
            at_line_start: false,
        })
    }

    /// `lhs ## rhs` (C99 §6.10.3.3): one token, or an error and both kept.
    fn paste(&mut self, lhs: PTok, rhs: PTok, origin: Span) -> Vec<PTok> {
        let text = self.spelling(&lhs.tok) + &self.spelling(&rhs.tok);
        let mut d = Diagnostics::new();
        let toks = lexer::lex_text(Rc::from(text.as_str()), lhs.tok.span.file, &mut d);
        if toks.len() == 2 && d.items.is_empty() {
            if let Some(first) = toks.into_iter().next() {
                let tok = Token {
                    kind: first.kind,
                    span: lhs.tok.span.to(rhs.tok.span),
                    expanded_from: Some(origin),
                    leading_space: lhs.tok.leading_space,
                    at_line_start: false,
                };
                let hs = self.hidesets.union(lhs.hs, rhs.hs);
                return vec![PTok { tok, hs }];
            }
        }
        self.diags.error(
            origin,
            format!("pasting formed '{text}', an invalid preprocessing token"),
        );
        vec![lhs, rhs]
    }

    /// A token's spelling as the source wrote it (string literals re-escaped
    /// when they were not read from a file).
    pub(super) fn spelling(&self, t: &Token) -> String {
        match &t.kind {
            TokenKind::Ident(s) | TokenKind::Number(s) | TokenKind::Char(s) => s.clone(),
            TokenKind::Punct(p) => p.as_str().to_string(),
            TokenKind::Eof => String::new(),
            TokenKind::Str(v) => {
                let snip = self
                    .sm
                    .get(t.span.file)
                    .map_or("", |_| self.sm.snippet(t.span));
                if snip.len() >= 2 && snip.starts_with('"') && snip.ends_with('"') {
                    snip.replace("\\\r\n", "").replace("\\\n", "")
                } else {
                    quote(v)
                }
            }
        }
    }

    /// The value of `__LINE__`, `__FILE__`, ... at token `t`.
    fn builtin_token(&mut self, b: Builtin, t: &Token) -> Token {
        let loc = t.loc();
        let kind = match b {
            // In a macro body: the line where the invocation ends (its `)`),
            // as GCC and clang do.
            Builtin::Line => {
                let end = Span::new(loc.file, loc.hi.saturating_sub(1).max(loc.lo), loc.hi);
                TokenKind::Number(self.presumed_line(end).to_string())
            }
            Builtin::File => TokenKind::Str(self.presumed_file(loc)),
            Builtin::Counter => {
                self.counter += 1;
                TokenKind::Number((self.counter - 1).to_string())
            }
            Builtin::Date => TokenKind::Str(super::predefined::date_time().0),
            Builtin::Time => TokenKind::Str(super::predefined::date_time().1),
        };
        Token {
            kind,
            span: t.span,
            expanded_from: Some(loc),
            leading_space: t.leading_space,
            at_line_start: t.at_line_start,
        }
    }
}

/// A macro body token as it appears in an expansion.
fn body_token(b: &Token, origin: Span) -> PTok {
    let mut tok = b.clone();
    tok.expanded_from = Some(origin);
    PTok::new(tok)
}

/// A string value spelled as a literal, escaping what must be.
pub(super) fn quote(v: &str) -> String {
    let mut s = String::from("\"");
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            '\r' => s.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                s.push_str(&format!("\\{:03o}", c as u32));
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}
