//! Source files and spans.
//!
//! Every piece of text the compiler reads (the program source, each `#include`d
//! header, each `-D` definition) is a [`SourceFile`] in one [`SourceMap`]; a
//! [`Span`] names a byte range of one file. Tokens produced by macro expansion
//! keep the span of the user's text they came from (see `token::Token::expanded_from`).
#![forbid(unsafe_code)]

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range `[lo, hi)` in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span { file, lo, hi }
    }
    /// The smallest span covering both (same file assumed; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// A value with the span it was written at (saltwater's `Locatable`).
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// One file's name and text, with the byte offset of each line start.
#[derive(Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
    /// `#line` directives met in this file, in order (the preprocessor adds them).
    pub line_marks: Vec<LineMark>,
}

/// A `#line` directive's effect: from physical line `from_line` on, lines are
/// numbered from `line`, and the file is called `name` when one was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineMark {
    pub from_line: u32,
    pub line: u32,
    pub name: Option<String>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name: name.into(),
            text,
            line_starts,
            line_marks: Vec::new(),
        }
    }

    /// The file name and line a diagnostic names for a byte offset: the
    /// physical line as moved by `#line` (C99 §6.10.4).
    pub fn presumed(&self, offset: u32) -> (&str, u32) {
        let (line, _) = self.line_col(offset);
        let mut name = self.name.as_str();
        let mut presumed = line;
        for m in self.line_marks.iter().filter(|m| m.from_line <= line) {
            presumed = m.line.saturating_add(line - m.from_line);
            if let Some(n) = &m.name {
                name = n;
            }
        }
        (name, presumed)
    }

    /// 1-based line and column (in bytes) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }

    /// Text of a 1-based line, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }
}

/// All files of one compilation.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(SourceFile::new(name, text));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }
    pub fn get_mut(&mut self, id: FileId) -> Option<&mut SourceFile> {
        self.files.get_mut(id.0 as usize)
    }
    /// The source text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text.get(span.lo as usize..span.hi as usize).unwrap_or("")
    }
}
