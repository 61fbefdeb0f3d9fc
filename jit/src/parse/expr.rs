//! Expressions (C99 6.5), by precedence climbing for the binary operators
//! and recursive descent for the rest.
//!
//! ```text
//! expr        = assign ("," assign)*
//! assign      = cond (assign-op assign)?
//! cond        = binary(||) ("?" expr ":" cond)?
//! binary(p)   = cast (op-of-precedence>=p binary(p+1))*
//! cast        = "(" type-name ")" ( "{" init-list "}" postfix*
//!                                 | "(" assign ("," assign)* ")" postfix*   -- vector literal
//!                                 | cast )
//!             | unary
//! unary       = ("++" | "--") unary | ("&" | "*" | "+" | "-" | "~" | "!") cast
//!             | ("sizeof" | "vec_step" | "__alignof__") (unary | "(" type-name ")")
//!             | "_Alignof" "(" type-name ")" | postfix
//! postfix     = primary ("[" expr "]" | "(" args ")" | "." ident | "->" ident | "++" | "--")*
//! primary     = ident | number | char | string+ | "(" expr ")"
//! ```
#![forbid(unsafe_code)]

use super::ast::*;
use super::literal;
use super::{Fail, PResult, Parser};
use crate::source::Spanned;
use crate::token::{Punct, TokenKind};

/// Binary operators by precedence (higher binds tighter).
fn binary_op(p: Punct) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match p {
        Punct::PipePipe => (LogOr, 1),
        Punct::AmpAmp => (LogAnd, 2),
        Punct::Pipe => (BitOr, 3),
        Punct::Caret => (BitXor, 4),
        Punct::Amp => (BitAnd, 5),
        Punct::EqEq => (Eq, 6),
        Punct::Ne => (Ne, 6),
        Punct::Lt => (Lt, 7),
        Punct::Gt => (Gt, 7),
        Punct::Le => (Le, 7),
        Punct::Ge => (Ge, 7),
        Punct::Shl => (Shl, 8),
        Punct::Shr => (Shr, 8),
        Punct::Plus => (Add, 9),
        Punct::Minus => (Sub, 9),
        Punct::Star => (Mul, 10),
        Punct::Slash => (Div, 10),
        Punct::Percent => (Rem, 10),
        _ => return None,
    })
}

/// Assignment operators: `=` is `None`, `+=` is `Some(Add)`.
fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Eq => None,
        Punct::StarEq => Some(Mul),
        Punct::SlashEq => Some(Div),
        Punct::PercentEq => Some(Rem),
        Punct::PlusEq => Some(Add),
        Punct::MinusEq => Some(Sub),
        Punct::ShlEq => Some(Shl),
        Punct::ShrEq => Some(Shr),
        Punct::AmpEq => Some(BitAnd),
        Punct::CaretEq => Some(BitXor),
        Punct::PipeEq => Some(BitOr),
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// `expr = assign ("," assign)*`
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assign()?;
        let mut chain = 0;
        while self.eat(Punct::Comma) {
            self.chain_step(&mut chain)?;
            let rhs = self.assign()?;
            let span = e.span.to(rhs.span);
            e = Expr {
                kind: ExprKind::Binary {
                    op: BinaryOp::Comma,
                    lhs: Box::new(e),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        Ok(e)
    }

    /// A constant expression (C99 6.6: syntactically a conditional).
    pub(crate) fn const_expr(&mut self) -> PResult<Expr> {
        self.cond()
    }

    /// `assign = cond (assign-op assign)?`
    pub(crate) fn assign(&mut self) -> PResult<Expr> {
        let lhs = self.cond()?;
        let TokenKind::Punct(p) = self.peek().kind else {
            return Ok(lhs);
        };
        let Some(op) = assign_op(p) else {
            return Ok(lhs);
        };
        self.bump();
        let rhs = self.deeper(|p| p.assign())?;
        let span = lhs.span.to(rhs.span);
        Ok(Expr {
            kind: ExprKind::Assign {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        })
    }

    /// `cond = binary ("?" expr ":" cond)?`
    fn cond(&mut self) -> PResult<Expr> {
        let c = self.binary(1)?;
        if !self.is(Punct::Question) {
            return Ok(c);
        }
        let q = self.bump().loc();
        if self.is(Punct::Colon) {
            // GNU `a ?: b` is `a ? a : b` with `a` evaluated once: the tree
            // has no node for that, so it is accepted only where evaluating
            // `a` twice cannot be told apart (no side effects).
            if has_side_effects(&c) {
                self.error(
                    q,
                    "the GNU '?:' operator with an omitted middle operand is not supported here",
                );
                return Err(Fail);
            }
            self.bump();
            let else_ = self.deeper(|p| p.cond())?;
            let span = c.span.to(else_.span);
            let then = Box::new(c.clone());
            return Ok(Expr {
                kind: ExprKind::Conditional {
                    cond: Box::new(c),
                    then,
                    else_: Box::new(else_),
                },
                span,
            });
        }
        let then = self.deeper(|p| p.expr())?;
        self.expect_close(Punct::Colon, Punct::Question, q)?;
        let else_ = self.deeper(|p| p.cond())?;
        let span = c.span.to(else_.span);
        Ok(Expr {
            kind: ExprKind::Conditional {
                cond: Box::new(c),
                then: Box::new(then),
                else_: Box::new(else_),
            },
            span,
        })
    }

    /// `binary(p) = cast (op binary(prec+1))*` for operators of precedence
    /// at least `min`.
    fn binary(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.cast()?;
        let mut chain = 0;
        loop {
            let TokenKind::Punct(p) = self.peek().kind else {
                return Ok(lhs);
            };
            let Some((op, prec)) = binary_op(p) else {
                return Ok(lhs);
            };
            if prec < min {
                return Ok(lhs);
            }
            self.chain_step(&mut chain)?;
            self.bump();
            let rhs = self.deeper(|p| p.binary(prec + 1))?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
    }

    /// Whether a `(` at the cursor opens a type name (a cast, compound
    /// literal or vector literal) rather than a parenthesised expression.
    fn paren_type_follows(&self) -> bool {
        self.is(Punct::LParen) && self.starts_type_name_at(1)
    }

    /// `cast = "(" type-name ")" cast | compound literal | vector literal | unary`
    pub(crate) fn cast(&mut self) -> PResult<Expr> {
        if !self.paren_type_follows() {
            return self.unary();
        }
        let open = self.bump().loc();
        let ty = self.type_name()?;
        self.expect_close(Punct::RParen, Punct::LParen, open)?;
        let ty = Box::new(ty);
        // (T){ ... }: compound literal, then postfix operators.
        if self.is(Punct::LBrace) {
            let (init, span) = self.init_list()?;
            let e = Expr {
                kind: ExprKind::CompoundLiteral { ty, init },
                span: open.to(span),
            };
            return self.postfix_ops(e);
        }
        // (float4)(a, b, c, d): vector literal; but (char2)(char)x is a
        // cast of a cast.
        if self.is(Punct::LParen) && self.is_vector_type(&ty) && !self.paren_type_follows() {
            let lp = self.bump().loc();
            let mut elems = Vec::new();
            loop {
                elems.push(self.nested(|p| p.assign())?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            let rp = self.expect_close(Punct::RParen, Punct::LParen, lp)?;
            let e = Expr {
                kind: ExprKind::VectorLiteral { ty, elems },
                span: open.to(rp),
            };
            return self.postfix_ops(e);
        }
        let operand = self.deeper(|p| p.cast())?;
        let span = open.to(operand.span);
        Ok(Expr {
            kind: ExprKind::Cast {
                ty,
                expr: Box::new(operand),
            },
            span,
        })
    }

    /// Whether a type name is syntactically a vector type: a vector type name
    /// or a typedef of one, with no pointer, array or function derivation.
    fn is_vector_type(&self, ty: &TypeName) -> bool {
        if !ty.declarator.derived.is_empty() {
            return false;
        }
        ty.specs.type_specs.iter().any(|s| match &s.node {
            TypeSpecifier::Vector(..) => true,
            TypeSpecifier::TypedefName(n) => {
                matches!(
                    self.lookup(n),
                    Some(super::Ordinary::Typedef { vector: true })
                )
            }
            _ => false,
        })
    }

    /// `unary`: prefix operators, `sizeof`, `vec_step`, `_Alignof`, postfix.
    fn unary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let start = t.loc();
        if let TokenKind::Punct(p) = t.kind {
            let op = match p {
                Punct::PlusPlus => Some(UnaryOp::PreInc),
                Punct::MinusMinus => Some(UnaryOp::PreDec),
                Punct::Amp => Some(UnaryOp::AddrOf),
                Punct::Star => Some(UnaryOp::Deref),
                Punct::Plus => Some(UnaryOp::Plus),
                Punct::Minus => Some(UnaryOp::Minus),
                Punct::Tilde => Some(UnaryOp::BitNot),
                Punct::Bang => Some(UnaryOp::Not),
                _ => None,
            };
            if let Some(op) = op {
                self.bump();
                let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                    self.deeper(|p| p.unary())?
                } else {
                    self.deeper(|p| p.cast())?
                };
                let span = start.to(operand.span);
                return Ok(Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(operand),
                    },
                    span,
                });
            }
        }
        match self.ident() {
            Some("sizeof") => self.sizeof_like(ExprKind::SizeofType, ExprKind::SizeofExpr),
            Some("vec_step") => self.sizeof_like(ExprKind::VecStepType, ExprKind::VecStepExpr),
            Some("__alignof__" | "__alignof") => {
                self.sizeof_like(ExprKind::AlignofType, ExprKind::AlignofExpr)
            }
            Some("_Alignof") => {
                self.bump();
                let open = self.expect(Punct::LParen)?;
                let ty = self.type_name()?;
                let close = self.expect_close(Punct::RParen, Punct::LParen, open)?;
                Ok(Expr {
                    kind: ExprKind::AlignofType(Box::new(ty)),
                    span: start.to(close),
                })
            }
            _ => {
                let e = self.primary()?;
                self.postfix_ops(e)
            }
        }
    }

    /// `sizeof unary | sizeof "(" type-name ")"` and the same shape for
    /// `vec_step` and `__alignof__`.
    fn sizeof_like(
        &mut self,
        of_type: fn(Box<TypeName>) -> ExprKind,
        of_expr: fn(Box<Expr>) -> ExprKind,
    ) -> PResult<Expr> {
        let start = self.bump().loc();
        if self.paren_type_follows() {
            let open = self.bump().loc();
            let ty = self.type_name()?;
            let close = self.expect_close(Punct::RParen, Punct::LParen, open)?;
            // `sizeof (T){...}` is the size of a compound literal.
            if self.is(Punct::LBrace) {
                let (init, span) = self.init_list()?;
                let lit = Expr {
                    kind: ExprKind::CompoundLiteral {
                        ty: Box::new(ty),
                        init,
                    },
                    span: open.to(span),
                };
                let lit = self.postfix_ops(lit)?;
                let span = start.to(lit.span);
                return Ok(Expr {
                    kind: of_expr(Box::new(lit)),
                    span,
                });
            }
            return Ok(Expr {
                kind: of_type(Box::new(ty)),
                span: start.to(close),
            });
        }
        let operand = self.deeper(|p| p.unary())?;
        let span = start.to(operand.span);
        Ok(Expr {
            kind: of_expr(Box::new(operand)),
            span,
        })
    }

    /// `postfix*` after a primary expression.
    fn postfix_ops(&mut self, mut e: Expr) -> PResult<Expr> {
        let mut chain = 0;
        loop {
            let Some(p) = (match self.peek().kind {
                TokenKind::Punct(p) => Some(p),
                _ => None,
            }) else {
                return Ok(e);
            };
            if matches!(
                p,
                Punct::LBracket
                    | Punct::LParen
                    | Punct::Dot
                    | Punct::Arrow
                    | Punct::PlusPlus
                    | Punct::MinusMinus
            ) {
                self.chain_step(&mut chain)?;
            }
            e = match p {
                Punct::LBracket => {
                    let open = self.bump().loc();
                    let index = self.nested(|p| p.expr())?;
                    let close = self.expect_close(Punct::RBracket, Punct::LBracket, open)?;
                    let span = e.span.to(close);
                    Expr {
                        kind: ExprKind::Index {
                            base: Box::new(e),
                            index: Box::new(index),
                        },
                        span,
                    }
                }
                Punct::LParen => {
                    let open = self.bump().loc();
                    let mut args = Vec::new();
                    if !self.is(Punct::RParen) {
                        loop {
                            args.push(self.nested(|p| p.assign())?);
                            if !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                    }
                    let close = self.expect_close(Punct::RParen, Punct::LParen, open)?;
                    let span = e.span.to(close);
                    Expr {
                        kind: ExprKind::Call {
                            callee: Box::new(e),
                            args,
                        },
                        span,
                    }
                }
                Punct::Dot | Punct::Arrow => {
                    self.bump();
                    let member = self.member_name()?;
                    let span = e.span.to(member.span);
                    Expr {
                        kind: ExprKind::Member {
                            base: Box::new(e),
                            member,
                            arrow: p == Punct::Arrow,
                        },
                        span,
                    }
                }
                Punct::PlusPlus | Punct::MinusMinus => {
                    let end = self.bump().loc();
                    let op = if p == Punct::PlusPlus {
                        UnaryOp::PostInc
                    } else {
                        UnaryOp::PostDec
                    };
                    let span = e.span.to(end);
                    Expr {
                        kind: ExprKind::Unary {
                            op,
                            operand: Box::new(e),
                        },
                        span,
                    }
                }
                _ => return Ok(e),
            };
        }
    }

    /// A member name after `.` or `->`. Swizzles like `s0` and `lo` are plain
    /// identifiers; a pp-number such as `.s01` arrives as an identifier too.
    fn member_name(&mut self) -> PResult<Spanned<String>> {
        let t = self.peek();
        match &t.kind {
            TokenKind::Ident(s) => {
                self.bump();
                Ok(Spanned::new(s.clone(), t.loc()))
            }
            _ => {
                self.error(self.loc(), "expected identifier");
                Err(Fail)
            }
        }
    }

    /// `primary = ident | number | char | string+ | "(" expr ")"`
    fn primary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let span = t.loc();
        let kind = match &t.kind {
            TokenKind::Ident(s) if !self.is_keyword(s) && !self.is_typedef_name(s) => {
                self.bump();
                ExprKind::Ident(s.clone())
            }
            TokenKind::Number(s) => {
                self.bump();
                literal::number(s, span, self.diags)
            }
            TokenKind::Char(s) => {
                self.bump();
                ExprKind::CharLit(literal::character(s, span, self.diags))
            }
            TokenKind::Str(_) => return Ok(self.strings()),
            TokenKind::Punct(Punct::LParen) => {
                let open = self.bump().loc();
                let inner = self.nested(|p| p.expr())?;
                let close = self.expect_close(Punct::RParen, Punct::LParen, open)?;
                // Keep the parentheses in the span (for carets), not as a node.
                return Ok(Expr {
                    kind: inner.kind,
                    span: open.to(close),
                });
            }
            _ => {
                self.error(span, "expected expression");
                return Err(Fail);
            }
        };
        Ok(Expr { kind, span })
    }

    /// Adjacent string literals, concatenated.
    fn strings(&mut self) -> Expr {
        let mut text = String::new();
        let mut span = self.loc();
        while let TokenKind::Str(s) = &self.peek().kind {
            span = span.to(self.loc());
            text.push_str(s);
            self.bump();
        }
        Expr {
            kind: ExprKind::StringLit(text),
            span,
        }
    }
}

/// Whether evaluating `e` may change state (assignments, `++`/`--`, calls).
/// Recursion is bounded by the parser's nesting limits.
fn has_side_effects(e: &Expr) -> bool {
    use ExprKind::*;
    match &e.kind {
        Ident(_) | IntLit(_) | FloatLit(_) | CharLit(_) | StringLit(_) => false,
        SizeofExpr(_) | SizeofType(_) | AlignofType(_) | AlignofExpr(_) | VecStepExpr(_)
        | VecStepType(_) => false,
        Assign { .. } | Call { .. } | CompoundLiteral { .. } => true,
        Unary { op, operand } => {
            matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            ) || has_side_effects(operand)
        }
        Binary { lhs, rhs, .. }
        | Index {
            base: lhs,
            index: rhs,
        } => has_side_effects(lhs) || has_side_effects(rhs),
        Conditional { cond, then, else_ } => {
            has_side_effects(cond) || has_side_effects(then) || has_side_effects(else_)
        }
        Cast { expr, .. } | Member { base: expr, .. } => has_side_effects(expr),
        VectorLiteral { elems, .. } => elems.iter().any(has_side_effects),
    }
}
