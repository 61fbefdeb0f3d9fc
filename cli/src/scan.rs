//! Tokens of a simulation file (or of one `--arg '<...> values'`), as
//! Oclgrind reads them: whitespace-separated words across lines, `#` starts
//! a comment to the end of its line, and an argument header is everything
//! from a `<` to the last `>` of the same line. Every token keeps its
//! place ([`Loc`]) so an error points at it.

use crate::diag::{Diag, Loc};

/// One word and where it is.
#[derive(Clone, Debug)]
pub struct Tok {
    pub text: String,
    pub loc: Loc,
}

pub struct Scanner {
    file: String,
    /// Count lines (a file) or not (one option's value).
    numbered: bool,
    /// The lines as written (for display).
    lines: Vec<String>,
    /// The same lines with comments cut off.
    clean: Vec<String>,
    line: usize,
    col: usize,
}

impl Scanner {
    pub fn new(file: &str, text: &str, numbered: bool) -> Scanner {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let clean = lines
            .iter()
            .map(|l| l.split('#').next().unwrap_or("").to_string())
            .collect();
        Scanner {
            file: file.to_string(),
            numbered,
            lines,
            clean,
            line: 0,
            col: 0,
        }
    }

    fn loc(&self, line: usize, col: usize, width: usize) -> Loc {
        Loc {
            file: self.file.clone(),
            line: self.numbered.then_some(line + 1),
            col: col + 1,
            text: self.lines.get(line).cloned().unwrap_or_default(),
            width,
        }
    }

    /// Moves to the next non-blank byte; false at the end of the text.
    fn skip_space(&mut self) -> bool {
        while self.line < self.clean.len() {
            let l = self.clean[self.line].as_bytes();
            while self.col < l.len() && l[self.col].is_ascii_whitespace() {
                self.col += 1;
            }
            if self.col < l.len() {
                return true;
            }
            self.line += 1;
            self.col = 0;
        }
        false
    }

    /// The next word, or `None` at the end of the text.
    pub fn next(&mut self) -> Option<Tok> {
        if !self.skip_space() {
            return None;
        }
        let l = &self.clean[self.line];
        let start = self.col;
        let end = l[start..]
            .find(|c: char| c.is_ascii_whitespace())
            .map_or(l.len(), |n| start + n);
        self.col = end;
        Some(Tok {
            text: l[start..end].to_string(),
            loc: self.loc(self.line, start, end - start),
        })
    }

    /// The next word, or an error naming what was expected.
    pub fn expect(&mut self, what: &str) -> Result<Tok, Diag> {
        self.next().ok_or_else(|| {
            Diag::at(
                &self.end(),
                format!("unexpected end of file: expected {what}"),
            )
        })
    }

    /// The place just past the last word (for "unexpected end of file").
    pub fn end(&self) -> Loc {
        let last = self
            .clean
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .unwrap_or(0);
        let col = self.clean.get(last).map_or(0, |l| l.trim_end().len());
        self.loc(last, col, 1)
    }

    /// An argument header `<...>`: the `<` token and the words inside, or
    /// `None` at the end of the text.
    pub fn header(&mut self) -> Result<Option<(Tok, Vec<Tok>)>, Diag> {
        if !self.skip_space() {
            return Ok(None);
        }
        let line = self.line;
        let l = self.clean[line].clone();
        let start = self.col;
        if !l[start..].starts_with('<') {
            let t = self.next().expect("skip_space found a word");
            return Err(Diag::at(
                &t.loc,
                format!("expected an argument header <...>, found '{}'", t.text),
            ));
        }
        let open = Tok {
            text: "<".into(),
            loc: self.loc(line, start, 1),
        };
        let Some(close) = l.rfind('>').filter(|&c| c > start) else {
            return Err(Diag::at(
                &self.loc(line, start, l.len() - start),
                "missing '>' at the end of the argument header (a header is on one line)",
            ));
        };
        let mut words = Vec::new();
        let inner = &l[start + 1..close];
        let mut i = 0;
        while i < inner.len() {
            let rest = &inner[i..];
            let skip = rest.len() - rest.trim_start().len();
            i += skip;
            if i >= inner.len() {
                break;
            }
            let len = inner[i..]
                .find(|c: char| c.is_ascii_whitespace())
                .unwrap_or(inner.len() - i);
            words.push(Tok {
                text: inner[i..i + len].to_string(),
                loc: self.loc(line, start + 1 + i, len),
            });
            i += len;
        }
        self.col = close + 1;
        Ok(Some((open, words)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_skip_comments_and_keep_their_place() {
        let mut s = Scanner::new("t.sim", "a.cl # the source\n\n  k\n", true);
        let a = s.next().unwrap();
        assert_eq!(
            (a.text.as_str(), a.loc.line, a.loc.col),
            ("a.cl", Some(1), 1)
        );
        let k = s.next().unwrap();
        assert_eq!((k.text.as_str(), k.loc.line, k.loc.col), ("k", Some(3), 3));
        assert!(s.next().is_none());
    }

    #[test]
    fn a_header_is_read_to_the_last_angle_bracket_and_values_follow() {
        let mut s = Scanner::new("t.sim", "<size=4 int> 42 # x\n<local\n", true);
        let (open, words) = s.header().unwrap().unwrap();
        assert_eq!(open.loc.col, 1);
        let w: Vec<_> = words.iter().map(|t| (t.text.as_str(), t.loc.col)).collect();
        assert_eq!(w, [("size=4", 2), ("int", 9)]);
        assert_eq!(s.next().unwrap().text, "42");
        let e = s.header().unwrap_err();
        assert!(e.message.contains("missing '>'"), "{}", e.message);
        assert_eq!(e.loc.unwrap().line, Some(2));
    }
}
