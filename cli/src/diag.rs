//! The command's errors, printed the way the build log prints a diagnostic:
//! `file:line:col: error: message`, the line, and a caret under the place
//! (with `~` under the rest of the token). A [`Loc`] is a place in a
//! simulation file, an expectation file or one `--arg` value; an error
//! without one prints as `cranecl: error: message`.

use std::fmt::Write;

/// A place in a text the user wrote.
#[derive(Clone, Debug)]
pub struct Loc {
    /// The file's path, or the option the text came from (`--arg 2`).
    pub file: String,
    /// 1-based; `None` for a one-line text with no lines to count.
    pub line: Option<usize>,
    /// 1-based byte column.
    pub col: usize,
    /// The whole line, for display.
    pub text: String,
    /// Bytes to underline (at least one caret).
    pub width: usize,
}

/// One error: where, what, and notes that follow it (the ICD's own words
/// on a failed call, for one).
#[derive(Debug)]
pub struct Diag {
    pub loc: Option<Box<Loc>>,
    pub message: String,
    pub notes: Vec<String>,
}

impl Diag {
    pub fn new(message: impl Into<String>) -> Diag {
        Diag {
            loc: None,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    pub fn at(loc: &Loc, message: impl Into<String>) -> Diag {
        Diag {
            loc: Some(Box::new(loc.clone())),
            message: message.into(),
            notes: Vec::new(),
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> Diag {
        self.notes.push(note.into());
        self
    }

    /// The text printed on stderr.
    pub fn render(&self, level: &str) -> String {
        let mut out = String::new();
        match &self.loc {
            None => {
                let _ = writeln!(out, "cranecl: {level}: {}", self.message);
            }
            Some(l) => {
                match l.line {
                    Some(n) => {
                        let _ = write!(out, "{}:{n}:{}: ", l.file, l.col);
                    }
                    None => {
                        let _ = write!(out, "{}: ", l.file);
                    }
                }
                let _ = writeln!(out, "{level}: {}", self.message);
                let _ = writeln!(out, "{}", l.text);
                let prefix: String = l
                    .text
                    .bytes()
                    .take(l.col.saturating_sub(1))
                    .map(|b| if b == b'\t' { '\t' } else { ' ' })
                    .collect();
                let tilde = "~".repeat(l.width.saturating_sub(1));
                let _ = writeln!(out, "{prefix}^{tilde}");
            }
        }
        for n in &self.notes {
            let _ = writeln!(out, "note: {n}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_located_error_shows_the_line_and_a_caret_under_the_token() {
        let loc = Loc {
            file: "a.sim".into(),
            line: Some(7),
            col: 10,
            text: "<size=16 flaot dump>".into(),
            width: 5,
        };
        let d = Diag::at(&loc, "unknown token 'flaot'").note("known: float");
        assert_eq!(
            d.render("error"),
            "a.sim:7:10: error: unknown token 'flaot'\n<size=16 flaot dump>\n         ^~~~~\nnote: known: float\n"
        );
        assert_eq!(
            Diag::new("no such file").render("error"),
            "cranecl: error: no such file\n"
        );
    }
}
