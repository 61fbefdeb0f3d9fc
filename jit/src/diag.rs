//! Diagnostics: collected, never thrown.
//!
//! Every phase pushes [`Diagnostic`]s into one [`Diagnostics`] sink and carries
//! on (recovering at the next statement or declaration), so one build reports
//! several errors. Rendering follows clang:
//!
//! ```text
//! prog.cl:3:12: error: casting to a pointer in a different address space
//!     global int *p = (global int *)l;
//!                ^
//! ```
//! Warnings fail the build only under `-Werror`; `-w` silences them.
#![forbid(unsafe_code)]

use crate::source::{SourceMap, Span};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    fn as_str(self) -> &'static str {
        match self {
            Level::Note => "note",
            Level::Warning => "warning",
            Level::Error => "error",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub level: Level,
    pub span: Span,
    pub message: String,
    /// Follow-up notes (`note: previous definition is here`).
    pub notes: Vec<(Span, String)>,
}

/// The sink every phase writes to.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
    /// `-Werror`: warnings count as errors.
    pub warnings_as_errors: bool,
    /// `-w`: warnings are dropped.
    pub suppress_warnings: bool,
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Level::Error, span, message.into());
    }
    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        if !self.suppress_warnings {
            self.push(Level::Warning, span, message.into());
        }
    }
    /// Attach a note to the last diagnostic pushed.
    pub fn note(&mut self, span: Span, message: impl Into<String>) {
        if let Some(d) = self.items.last_mut() {
            d.notes.push((span, message.into()));
        }
    }
    fn push(&mut self, level: Level, span: Span, message: String) {
        self.items.push(Diagnostic {
            level,
            span,
            message,
            notes: Vec::new(),
        });
    }
    /// The build fails: an error, or a warning under `-Werror`.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| {
            d.level == Level::Error || (d.level == Level::Warning && self.warnings_as_errors)
        })
    }
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.level == Level::Error)
            .count()
    }
    /// Render all diagnostics, clang style, for the build log.
    pub fn render(&self, sm: &SourceMap) -> String {
        let mut out = String::new();
        for d in &self.items {
            let level = if d.level == Level::Warning && self.warnings_as_errors {
                "error"
            } else {
                d.level.as_str()
            };
            render_one(&mut out, sm, d.span, level, &d.message);
            for (span, note) in &d.notes {
                render_one(&mut out, sm, *span, "note", note);
            }
        }
        let (e, w) = (
            self.error_count(),
            self.items
                .iter()
                .filter(|d| d.level == Level::Warning)
                .count(),
        );
        if e + w > 0 {
            let plural = |n: usize, s: &str| format!("{n} {s}{}", if n == 1 { "" } else { "s" });
            let mut parts = vec![];
            if w > 0 {
                parts.push(plural(w, "warning"));
            }
            if e > 0 {
                parts.push(plural(e, "error"));
            }
            let _ = writeln!(out, "{} generated.", parts.join(" and "));
        }
        out
    }
}

fn render_one(out: &mut String, sm: &SourceMap, span: Span, level: &str, msg: &str) {
    let Some(file) = sm.get(span.file) else {
        let _ = writeln!(out, "<unknown>: {level}: {msg}");
        return;
    };
    let (line, col) = file.line_col(span.lo);
    let (name, presumed_line) = file.presumed(span.lo);
    let _ = writeln!(out, "{name}:{presumed_line}:{col}: {level}: {msg}");
    let text = file.line_text(line);
    let _ = writeln!(out, "{text}");
    // The caret goes under the span's first byte; tabs in the prefix are kept so
    // the caret lines up in a terminal.
    let prefix: String = text
        .bytes()
        .take(col as usize - 1)
        .map(|b| if b == b'\t' { '\t' } else { ' ' })
        .collect();
    let width = (span.hi.saturating_sub(span.lo) as usize)
        .clamp(1, text.len().saturating_sub(col as usize - 1).max(1));
    let tilde = if width > 1 {
        "~".repeat(width - 1)
    } else {
        String::new()
    };
    let _ = writeln!(out, "{prefix}^{tilde}");
}
