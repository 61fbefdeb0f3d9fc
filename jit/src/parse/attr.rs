//! GNU attributes, `__attribute__((name(args), ...))`, as OpenCL C uses them
//! (`reqd_work_group_size`, `vec_type_hint`, `aligned`, `packed`, `endian`,
//! `nosvm`, `opencl_unroll_hint`, ...). Names lose GNU's optional `__`
//! around them; arguments are expressions or, where a type name starts, type
//! names; names outside [`keywords::KNOWN_ATTRIBUTES`] warn and are kept.
//!
//! ```text
//! attribute = "__attribute__" "(" "(" (name ("(" args ")")?)? ("," ...)* ")" ")"
//! ```
#![forbid(unsafe_code)]

use super::ast::*;
use super::keywords;
use super::{Fail, PResult, Parser};
use crate::source::Spanned;
use crate::token::Punct;

impl<'a> Parser<'a> {
    /// Zero or more `__attribute__((...))`.
    pub(crate) fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut out = Vec::new();
        while self.ident().is_some_and(is_attribute_kw) {
            self.bump();
            let open1 = self.expect(Punct::LParen)?;
            let open2 = self.expect(Punct::LParen)?;
            loop {
                if self.is(Punct::RParen) {
                    break;
                }
                if self.eat(Punct::Comma) {
                    continue;
                }
                out.push(self.attribute()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            // clang reports these just after the previous token.
            for _ in [open2, open1] {
                if !self.eat(Punct::RParen) {
                    self.error(self.after_prev(), "expected ')'");
                    return Err(Fail);
                }
            }
        }
        Ok(out)
    }

    /// `name ("(" (type-name | assign) ("," ...)* ")")?`
    fn attribute(&mut self) -> PResult<Attribute> {
        let Some(raw) = self.ident() else {
            self.error(self.loc(), "expected identifier");
            return Err(Fail);
        };
        let loc = self.bump().loc();
        let name = raw
            .strip_prefix("__")
            .and_then(|s| s.strip_suffix("__"))
            .filter(|s| !s.is_empty())
            .unwrap_or(raw)
            .to_string();
        let mut args = Vec::new();
        let mut end = loc;
        if self.is(Punct::LParen) {
            let open = self.bump().loc();
            if !self.is(Punct::RParen) {
                loop {
                    if self.starts_type_name_at(0) {
                        args.push(AttributeArg::Type(self.type_name()?));
                    } else {
                        args.push(AttributeArg::Expr(self.nested(|p| p.assign())?));
                    }
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
            }
            end = self.expect_close(Punct::RParen, Punct::LParen, open)?;
        }
        if !keywords::KNOWN_ATTRIBUTES.contains(&name.as_str()) {
            self.warning(loc, format!("unknown attribute '{name}' ignored"));
        }
        Ok(Attribute {
            name: Spanned::new(name, loc),
            args,
            span: loc.to(end),
        })
    }
}

/// `__attribute__` or `__attribute`.
pub(crate) fn is_attribute_kw(s: &str) -> bool {
    s == "__attribute__" || s == "__attribute"
}
