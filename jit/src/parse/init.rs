//! Initializers (C99 6.7.8): an expression, or a braced list whose items
//! may carry designators (`.field`, `[index]`, chained: `.a[2].b = 1`).
//! Compound literals use the same list.
//!
//! ```text
//! initializer = assign | "{" (designator* "="? initializer ("," ...)*)? ","? "}"
//! ```
#![forbid(unsafe_code)]

use super::ast::*;
use super::{Fail, PResult, Parser};
use crate::source::{Span, Spanned};
use crate::token::Punct;

impl<'a> Parser<'a> {
    /// `initializer = "{" ... "}" | assign`
    pub(crate) fn initializer(&mut self) -> PResult<Initializer> {
        if self.is(Punct::LBrace) {
            let (items, span) = self.init_list()?;
            Ok(Initializer::List(items, span))
        } else {
            Ok(Initializer::Expr(Box::new(self.assign()?)))
        }
    }

    /// `"{" (designator* "=" initializer | initializer) ("," ...)* ","? "}"`
    pub(crate) fn init_list(&mut self) -> PResult<(Vec<InitItem>, Span)> {
        self.nested(|p| p.init_list_inner())
    }

    fn init_list_inner(&mut self) -> PResult<(Vec<InitItem>, Span)> {
        let open = self.bump().loc();
        let mut items = Vec::new();
        while !self.is(Punct::RBrace) {
            let start = self.loc();
            let mut designators = Vec::new();
            loop {
                if self.eat(Punct::Dot) {
                    let Some(n) = self.ident() else {
                        self.error(
                            self.loc(),
                            "expected a field designator, such as '.field = 4'",
                        );
                        return Err(Fail);
                    };
                    let loc = self.bump().loc();
                    designators.push(Designator::Member(Spanned::new(n.to_string(), loc)));
                } else if self.is(Punct::LBracket) {
                    let lb = self.bump().loc();
                    let index = self.const_expr()?;
                    self.expect_close(Punct::RBracket, Punct::LBracket, lb)?;
                    designators.push(Designator::Index(index));
                } else {
                    break;
                }
            }
            // `[2] 3` without `=` is an old GNU form clang accepts.
            let gnu = matches!(designators.as_slice(), [Designator::Index(_)]);
            if !designators.is_empty() && !self.eat(Punct::Eq) && !gnu {
                self.error(self.loc(), "expected '=' or another designator");
                return Err(Fail);
            }
            let init = self.initializer()?;
            items.push(InitItem {
                designators,
                init,
                span: start.to(self.prev_loc()),
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        let close = self.expect_close(Punct::RBrace, Punct::LBrace, open)?;
        Ok((items, open.to(close)))
    }
}
