//! Statements and blocks (C99 6.8), with statement attributes
//! (`__attribute__((opencl_unroll_hint(n)))` before a loop).
//!
//! ```text
//! block      = "{" (static-assert | declaration | statement)* "}"
//! statement  = attribute* ( ident ":" statement | "case" const-expr ":" statement
//!            | "default" ":" statement | block | "if" "(" expr ")" statement ("else" statement)?
//!            | "switch" "(" expr ")" statement | "while" "(" expr ")" statement
//!            | "do" statement "while" "(" expr ")" ";"
//!            | "for" "(" (declaration | expr? ";") expr? ";" expr? ")" statement
//!            | "goto" ident ";" | "continue" ";" | "break" ";" | "return" expr? ";"
//!            | expr? ";" )
//! ```
//!
//! A block item that fails to parse is skipped up to the next `;` or the
//! block's `}`, and the block goes on: this is where most recovery happens.
#![forbid(unsafe_code)]

use super::ast::*;
use super::decl::FOR_SEMI;
use super::{Fail, PResult, Parser};
use crate::source::{Span, Spanned};
use crate::token::{Punct, TokenKind};

impl<'a> Parser<'a> {
    /// `"{" block-item* "}"` in a new scope.
    pub(crate) fn block(&mut self) -> PResult<Block> {
        self.nested(|p| {
            p.push_scope();
            let r = p.block_inner();
            p.pop_scope();
            r
        })
    }

    fn block_inner(&mut self) -> PResult<Block> {
        let open = self.expect(Punct::LBrace)?;
        let mut items = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() {
            let before = self.pos;
            match self.block_item() {
                Ok(item) => items.push(item),
                Err(Fail) => self.skip_to_stmt_end(),
            }
            if self.pos == before && !self.is(Punct::RBrace) {
                self.bump();
            }
        }
        let close = self.expect_close(Punct::RBrace, Punct::LBrace, open)?;
        Ok(Block {
            items,
            span: open.to(close),
        })
    }

    /// A declaration, `_Static_assert` or statement.
    fn block_item(&mut self) -> PResult<BlockItem> {
        if self.is_kw("_Static_assert") {
            return Ok(BlockItem::StaticAssert(self.static_assert()?));
        }
        let start = self.loc();
        let attrs = self.attributes()?;
        if self.is_label() {
            return Ok(BlockItem::Statement(
                self.statement_after_attrs(attrs, start)?,
            ));
        }
        if self.starts_declaration() || self.unknown_type_then_ident() {
            let mut d = self.declaration(attrs)?;
            d.span = start.to(d.span);
            return Ok(BlockItem::Declaration(d));
        }
        Ok(BlockItem::Statement(
            self.statement_after_attrs(attrs, start)?,
        ))
    }

    /// `ident ":"` (not `default:`, which is a keyword).
    fn is_label(&self) -> bool {
        self.ident().is_some_and(|s| !self.is_keyword(s)) && self.is_at(1, Punct::Colon)
    }

    pub(crate) fn statement(&mut self) -> PResult<Stmt> {
        let start = self.loc();
        let attrs = self.attributes()?;
        self.statement_after_attrs(attrs, start)
    }

    fn statement_after_attrs(&mut self, attributes: Vec<Attribute>, start: Span) -> PResult<Stmt> {
        let kind = self.deeper(|p| p.statement_kind())?;
        Ok(Stmt {
            kind,
            attributes,
            span: start.to(self.prev_loc()),
        })
    }

    fn statement_kind(&mut self) -> PResult<StmtKind> {
        if self.is(Punct::RBrace) {
            self.error(self.loc(), "expected statement");
            return Err(Fail);
        }
        if self.is(Punct::LBrace) {
            return Ok(StmtKind::Compound(self.block()?));
        }
        if self.eat(Punct::Semi) {
            return Ok(StmtKind::Null);
        }
        if self.is_label() {
            let t = self.bump();
            let label = Spanned::new(self.ident_text(t), t.loc());
            self.bump(); // ':'
            let stmt = Box::new(self.labeled_body()?);
            return Ok(StmtKind::Labeled { label, stmt });
        }
        let kw = match self.ident() {
            Some(s) if self.is_keyword(s) => s,
            _ => return self.expr_statement(),
        };
        match kw {
            "case" => self.case_stmt(),
            "default" => self.default_stmt(),
            "if" => self.if_stmt(),
            "switch" | "while" => self.switch_or_while(kw),
            "do" => self.do_stmt(),
            "for" => {
                self.bump();
                self.push_scope();
                let r = self.for_rest();
                self.pop_scope();
                r
            }
            "goto" => self.goto_stmt(),
            "continue" | "break" => {
                self.bump();
                self.expect_semi(&format!("expected ';' after {kw} statement"));
                Ok(if kw == "break" {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                })
            }
            "return" => self.return_stmt(),
            _ => self.expr_statement(),
        }
    }

    // Each statement form is its own function: the recursive path through
    // `statement_kind` then keeps a small stack frame.

    /// `"case" const-expr ":" statement`
    fn case_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let value = self.const_expr()?;
        if self.is(Punct::Ellipsis) {
            self.error(
                self.loc(),
                "case ranges ('case A ... B:') are not supported",
            );
            return Err(Fail);
        }
        if !self.eat(Punct::Colon) {
            self.error(self.after_prev(), "expected ':' after 'case'");
            return Err(Fail);
        }
        let stmt = Box::new(self.labeled_body()?);
        Ok(StmtKind::Case { value, stmt })
    }

    /// `"default" ":" statement`
    fn default_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        if !self.eat(Punct::Colon) {
            self.error(self.after_prev(), "expected ':' after 'default'");
            return Err(Fail);
        }
        Ok(StmtKind::Default(Box::new(self.labeled_body()?)))
    }

    /// `"if" "(" expr ")" statement ("else" statement)?`
    fn if_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let cond = self.paren_cond("if")?;
        let then = Box::new(self.statement()?);
        let else_ = if self.is_kw("else") {
            self.bump();
            Some(Box::new(self.statement()?))
        } else {
            None
        };
        Ok(StmtKind::If { cond, then, else_ })
    }

    /// `("switch" | "while") "(" expr ")" statement`
    fn switch_or_while(&mut self, kw: &str) -> PResult<StmtKind> {
        self.bump();
        let cond = self.paren_cond(kw)?;
        let body = Box::new(self.statement()?);
        Ok(if kw == "switch" {
            StmtKind::Switch { cond, body }
        } else {
            StmtKind::While { cond, body }
        })
    }

    /// `"do" statement "while" "(" expr ")" ";"`
    fn do_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let body = Box::new(self.statement()?);
        if !self.is_kw("while") {
            self.error(self.loc(), "expected 'while' in do/while loop");
            return Err(Fail);
        }
        self.bump();
        let cond = self.paren_cond("while")?;
        self.expect_semi("expected ';' after do/while statement");
        Ok(StmtKind::DoWhile { body, cond })
    }

    /// `"goto" ident ";"`
    fn goto_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let Some(label) = self.ident().filter(|s| !self.is_keyword(s)) else {
            self.error(self.loc(), "expected identifier");
            return Err(Fail);
        };
        let loc = self.bump().loc();
        self.expect_semi("expected ';' after goto statement");
        Ok(StmtKind::Goto(Spanned::new(label.to_string(), loc)))
    }

    /// `"return" expr? ";"`
    fn return_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let value = if self.is(Punct::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_semi("expected ';' after return statement");
        Ok(StmtKind::Return(value))
    }

    /// The statement after a label (C99 has no label at the end of a block:
    /// `done: }` is "expected statement").
    fn labeled_body(&mut self) -> PResult<Stmt> {
        self.statement()
    }

    fn ident_text(&self, t: &crate::token::Token) -> String {
        match &t.kind {
            crate::token::TokenKind::Ident(s) => s.clone(),
            _ => String::new(),
        }
    }

    /// `"(" expr ")"` after `if`, `switch`, `while`.
    fn paren_cond(&mut self, kw: &str) -> PResult<Expr> {
        if !self.is(Punct::LParen) {
            self.error(self.loc(), format!("expected '(' after '{kw}'"));
            return Err(Fail);
        }
        let open_idx = self.pos;
        let open = self.bump().loc();
        let r = self.expr().and_then(|e| {
            self.close_paren_before_body(open)?;
            Ok(e)
        });
        match r {
            Ok(e) => Ok(e),
            // Recover past the `)` so the body still parses (one error, not
            // a cascade); the condition, already reported, becomes `0`.
            Err(Fail) if self.jump_past_matching_paren(open_idx) => {
                Ok(placeholder(open.to(self.prev_loc())))
            }
            Err(Fail) => Err(Fail),
        }
    }

    /// The `)` closing a condition or `for` header. Missing before a `{`
    /// (`if (a > 0 {`), it is reported and taken as written, so the body
    /// still parses.
    fn close_paren_before_body(&mut self, open: Span) -> PResult<()> {
        let r = self.expect_close(Punct::RParen, Punct::LParen, open);
        if r.is_err() && self.is(Punct::LBrace) {
            return Ok(());
        }
        r.map(|_| ())
    }

    /// After an error inside the parentheses opened at token `open_idx`:
    /// move past their matching `)` if it is ahead, before any brace.
    fn jump_past_matching_paren(&mut self, open_idx: usize) -> bool {
        let mut depth = 0i32;
        for (i, t) in self.toks.iter().enumerate().skip(open_idx) {
            match t.kind {
                TokenKind::Punct(Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => {
                    depth -= 1;
                    if depth == 0 {
                        if !t.is_punct(Punct::RParen) || i < self.pos {
                            return false;
                        }
                        self.pos = i + 1;
                        return true;
                    }
                }
                TokenKind::Punct(Punct::LBrace | Punct::RBrace) | TokenKind::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// `"(" init cond? ";" step? ")" statement` after `for`.
    fn for_rest(&mut self) -> PResult<StmtKind> {
        if !self.is(Punct::LParen) {
            self.error(self.loc(), "expected '(' after 'for'");
            return Err(Fail);
        }
        let open_idx = self.pos;
        let open = self.bump().loc();
        let (init, cond, step) = match self.for_header(open) {
            Ok(h) => h,
            // As for `if`: skip the broken header, keep the body.
            Err(Fail) if self.jump_past_matching_paren(open_idx) => (None, None, None),
            Err(Fail) => return Err(Fail),
        };
        let body = Box::new(self.statement()?);
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }

    /// The three clauses of a `for` and its `)`.
    #[allow(clippy::type_complexity)]
    fn for_header(&mut self, open: Span) -> PResult<(Option<ForInit>, Option<Expr>, Option<Expr>)> {
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.starts_declaration() || self.unknown_type_then_ident() {
            Some(ForInit::Declaration(self.for_declaration()?))
        } else {
            let e = self.expr()?;
            if !self.eat(Punct::Semi) {
                self.error(self.loc(), FOR_SEMI);
                return Err(Fail);
            }
            Some(ForInit::Expr(e))
        };
        let cond = if self.is(Punct::Semi) {
            None
        } else {
            Some(self.expr()?)
        };
        if !self.eat(Punct::Semi) {
            self.error(self.loc(), FOR_SEMI);
            return Err(Fail);
        }
        let step = if self.is(Punct::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.close_paren_before_body(open)?;
        Ok((init, cond, step))
    }

    /// `expr ";"`
    fn expr_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect_semi("expected ';' after expression");
        Ok(StmtKind::Expr(e))
    }
}

/// The stand-in for a condition that failed to parse (already reported):
/// the literal `0` spanning the parentheses.
fn placeholder(span: Span) -> Expr {
    Expr {
        kind: ExprKind::IntLit(IntLiteral {
            spelling: "0".into(),
            value: 0,
            radix: 10,
            unsigned: false,
            long: 0,
        }),
        span,
    }
}
