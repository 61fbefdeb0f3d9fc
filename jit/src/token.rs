//! Tokens: what the preprocessor hands the parser.
//!
//! The preprocessor lexes each file into preprocessing tokens, runs directives and
//! macro expansion, and yields [`Token`]s. Identifiers and keywords are both
//! `Ident` here: the parser decides what is a keyword (OpenCL C's keyword set
//! depends on `-cl-std`). Numeric literals keep their spelling; the parser or sema
//! interprets suffixes (`1.0f`, `0x10u`, `1h`).
#![forbid(unsafe_code)]

use crate::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier or keyword.
    Ident(String),
    /// A pp-number as written (`42`, `0x1Fu`, `1.5e3f`, `.5`).
    Number(String),
    /// A character constant as written, quotes included (`'a'`, `'\n'`).
    Char(String),
    /// A string literal's value after escape processing (adjacent literals
    /// are concatenated by the parser).
    Str(String),
    /// A punctuator (`+`, `<<=`, `...`, `[` ...).
    Punct(Punct),
    /// End of the translation unit.
    Eof,
}

/// C99 punctuators (digraphs are mapped to these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Eq,
    StarEq,
    SlashEq,
    PercentEq,
    PlusEq,
    MinusEq,
    ShlEq,
    ShrEq,
    AmpEq,
    CaretEq,
    PipeEq,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LBracket => "[",
            RBracket => "]",
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Eq => "=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            PlusEq => "+=",
            MinusEq => "-=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            CaretEq => "^=",
            PipeEq => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    /// Where the token's text is (for a token from a macro body: in the
    /// `#define`; see `expanded_from`).
    pub span: Span,
    /// For a token produced by macro expansion: the span of the outermost macro
    /// invocation in the user's text. Diagnostics point here.
    pub expanded_from: Option<Span>,
    /// A space or newline came before this token (for `#` stringizing and
    /// for the preprocessor's own output).
    pub leading_space: bool,
    /// The token is the first on its line.
    pub at_line_start: bool,
}

impl Token {
    /// The span diagnostics should point at: the user's text.
    pub fn loc(&self) -> Span {
        self.expanded_from.unwrap_or(self.span)
    }
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }
    pub fn is_ident(&self, s: &str) -> bool {
        matches!(&self.kind, TokenKind::Ident(i) if i == s)
    }
}
