//! Statements (C99 6.8): blocks with their scopes, control flow, `switch`
//! with folded `case` values, labels and `goto`, `return` converted to the
//! function's type.
#![forbid(unsafe_code)]

use super::conv::{promote, Ctx};
use super::hir::{self, Block, StmtKind};
use super::types::{Scalar, Type};
use super::Checker;
use crate::parse::ast;
use crate::source::Span;

fn stmt(kind: StmtKind, span: Span) -> hir::Stmt {
    hir::Stmt { kind, span }
}

impl Checker<'_> {
    /// The items of a block; `scoped`: open a new scope (a function body
    /// shares its parameters' scope).
    pub fn block_items(&mut self, b: &ast::Block, scoped: bool) -> Block {
        if scoped {
            self.scopes.push();
        }
        let mut out = Vec::new();
        for item in &b.items {
            match item {
                ast::BlockItem::Declaration(d) => out.extend(self.local_declaration(d)),
                ast::BlockItem::Statement(s) => out.push(self.stmt(s)),
                ast::BlockItem::StaticAssert(s) => self.static_assert(s),
            }
        }
        if scoped {
            self.scopes.pop();
        }
        Block { stmts: out }
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        if let Some(fx) = self.fx.as_mut() {
            fx.block_depth += 1;
        }
        let r = f(self);
        if let Some(fx) = self.fx.as_mut() {
            fx.block_depth -= 1;
        }
        r
    }

    fn in_loop<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        if let Some(fx) = self.fx.as_mut() {
            fx.loop_depth += 1;
        }
        let r = f(self);
        if let Some(fx) = self.fx.as_mut() {
            fx.loop_depth -= 1;
        }
        r
    }

    fn sub(&mut self, s: &ast::Stmt) -> Box<hir::Stmt> {
        // A sub-statement is its own block scope (C99 6.8.4p3).
        self.scopes.push();
        let r = self.nested(|c| c.stmt(s));
        self.scopes.pop();
        Box::new(r)
    }

    fn cond_expr(&mut self, e: &ast::Expr, stmt_span: Span) -> hir::Expr {
        let x = self.expr(e);
        self.condition_at(x, stmt_span)
    }

    pub fn stmt(&mut self, s: &ast::Stmt) -> hir::Stmt {
        let span = s.span;
        match &s.kind {
            // { ... }
            ast::StmtKind::Compound(b) => {
                let blk = self.nested(|c| c.block_items(b, true));
                stmt(StmtKind::Block(blk), span)
            }
            // e;
            ast::StmtKind::Expr(e) => {
                let x = self.expr(e);
                let x = if x.ty.is_array() { x } else { self.rvalue(x) };
                stmt(StmtKind::Expr(x), span)
            }
            ast::StmtKind::Null => stmt(StmtKind::Empty, span),
            // if (c) a else b
            ast::StmtKind::If { cond, then, else_ } => {
                let c = self.cond_expr(cond, span);
                let t = self.sub(then);
                let e = else_.as_ref().map(|e| self.sub(e));
                stmt(StmtKind::If(c, t, e), span)
            }
            // while (c) body
            ast::StmtKind::While { cond, body } => {
                let c = self.cond_expr(cond, span);
                let b = self.in_loop(|me| me.sub(body));
                stmt(StmtKind::While(c, b), span)
            }
            // do body while (c);
            ast::StmtKind::DoWhile { body, cond } => {
                let b = self.in_loop(|me| me.sub(body));
                let c = self.cond_expr(cond, span);
                stmt(StmtKind::DoWhile(b, c), span)
            }
            // for (init; cond; step) body
            ast::StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push();
                let r = self.nested(|me| {
                    let init = init.as_ref().map(|i| match i {
                        ast::ForInit::Expr(e) => {
                            let x = me.value(e);
                            Box::new(stmt(StmtKind::Expr(x), e.span))
                        }
                        ast::ForInit::Declaration(d) => {
                            let stmts = me.local_declaration(d);
                            Box::new(stmt(StmtKind::Block(Block { stmts }), d.span))
                        }
                    });
                    let cond = cond.as_ref().map(|c| me.cond_expr(c, span));
                    let step = step.as_ref().map(|e| me.value(e));
                    let body = me.in_loop(|me| me.sub(body));
                    stmt(StmtKind::For(init, cond, step, body), span)
                });
                self.scopes.pop();
                r
            }
            // switch (c) body
            ast::StmtKind::Switch { cond, body } => {
                let c = self.value(cond);
                let unpromoted = c.ty.elem().unwrap_or(Scalar::Int);
                let c = match &c.ty {
                    Type::Scalar(s) if s.is_integer() => {
                        let t = Type::Scalar(promote(*s));
                        self.arith_convert(c, &t)
                    }
                    Type::Error => c,
                    _ => {
                        let msg = format!(
                            "statement requires expression of integer type ({} invalid)",
                            self.ty_str(&c.ty)
                        );
                        self.error(span, msg);
                        hir::Expr::error(cond.span)
                    }
                };
                if let Some(fx) = self.fx.as_mut() {
                    fx.switch_depth += 1;
                    fx.cases.push(Vec::new());
                    fx.switch_types
                        .push((c.ty.elem().unwrap_or(Scalar::Int), unpromoted));
                    fx.loop_depth += 1000; // `break` is allowed; `continue` checked below
                }
                let b = self.sub(body);
                if let Some(fx) = self.fx.as_mut() {
                    fx.switch_depth -= 1;
                    fx.cases.pop();
                    fx.switch_types.pop();
                    fx.loop_depth -= 1000;
                }
                stmt(StmtKind::Switch(c, b), span)
            }
            // case V: s
            ast::StmtKind::Case { value, stmt: s } => {
                let in_switch = self.fx.as_ref().is_some_and(|f| f.switch_depth > 0);
                if !in_switch {
                    self.error(span, "'case' statement not in switch statement");
                }
                let x = self.value(value);
                let v = match self.const_ice(&x) {
                    // The value converted to the controlling expression's type (C99 6.8.4.2p5).
                    Some(v) => match self.fx.as_ref().and_then(|f| f.switch_types.last()) {
                        Some(&(promoted, unpromoted)) => {
                            // clang's -Wswitch: a value the condition's own
                            // (unpromoted) type cannot hold.
                            let seen = super::consteval::wrap(v, unpromoted);
                            if seen != v && unpromoted.is_integer() {
                                self.warning(
                                    value.span,
                                    format!("overflow converting case value to switch condition type ({v} to {seen})"),
                                );
                            }
                            super::consteval::wrap(v, promoted)
                        }
                        None => v,
                    },
                    None => {
                        if !x.ty.is_error() {
                            self.error(
                                value.span,
                                "expression is not an integer constant expression",
                            );
                        }
                        0
                    }
                };
                let prev = self.fx.as_mut().and_then(|fx| {
                    let list = fx.cases.last_mut()?;
                    let prev = list.iter().find(|(x, _)| *x == v).map(|(_, s)| *s);
                    list.push((v, value.span));
                    prev
                });
                if let (Some(prev), false) = (prev, x.ty.is_error()) {
                    self.error(value.span, format!("duplicate case value '{v}'"));
                    self.note(prev, "previous case defined here");
                }
                let inner = Box::new(self.stmt(s));
                stmt(StmtKind::Case(v, inner), span)
            }
            ast::StmtKind::Default(s) => {
                if self.fx.as_ref().is_none_or(|f| f.switch_depth == 0) {
                    self.error(span, "'default' statement not in switch statement");
                }
                // A second `default:` in one switch (the sentinel i128::MIN
                // marks the default in the case list).
                let dup = self.fx.as_mut().and_then(|fx| {
                    let list = fx.cases.last_mut()?;
                    let prev = list.iter().find(|(v, _)| *v == i128::MIN).map(|(_, s)| *s);
                    list.push((i128::MIN, span));
                    prev
                });
                if let Some(prev) = dup {
                    self.error(span, "multiple default labels in one switch");
                    self.note(prev, "previous case defined here");
                }
                let inner = Box::new(self.stmt(s));
                stmt(StmtKind::Default(inner), span)
            }
            ast::StmtKind::Labeled { label, stmt: s } => {
                if let Some(fx) = self.fx.as_mut() {
                    if let Some(prev) = fx.labels.insert(label.node.clone(), label.span) {
                        let _ = prev;
                        self.error(
                            label.span,
                            format!("redefinition of label '{}'", label.node),
                        );
                    }
                }
                let inner = Box::new(self.stmt(s));
                stmt(StmtKind::Label(label.node.clone(), inner), span)
            }
            ast::StmtKind::Goto(l) => {
                if let Some(fx) = self.fx.as_mut() {
                    fx.gotos.push((l.node.clone(), l.span));
                }
                stmt(StmtKind::Goto(l.node.clone()), span)
            }
            ast::StmtKind::Break => {
                if self.fx.as_ref().is_none_or(|f| f.loop_depth == 0) {
                    self.error(span, "'break' statement not in loop or switch statement");
                }
                stmt(StmtKind::Break, span)
            }
            ast::StmtKind::Continue => {
                if self.fx.as_ref().is_none_or(|f| f.loop_depth % 1000 == 0) {
                    self.error(span, "'continue' statement not in loop statement");
                }
                stmt(StmtKind::Continue, span)
            }
            // return e;
            ast::StmtKind::Return(e) => {
                let (ret, fname) = match &self.fx {
                    Some(fx) => (fx.ret.clone(), fx.func.name.clone()),
                    None => (Type::Void, String::new()),
                };
                let x = match e {
                    Some(e) => {
                        let x = self.value(e);
                        if ret.is_void() {
                            if !x.ty.is_void() && !x.ty.is_error() {
                                self.error(
                                    span,
                                    format!("void function '{fname}' should not return a value"),
                                );
                            }
                            Some(x)
                        } else if x.ty.is_void() {
                            self.error(
                                e.span,
                                "returning 'void' from a function with incompatible result type",
                            );
                            None
                        } else {
                            Some(self.assign_convert(x, &ret, Ctx::Return))
                        }
                    }
                    None => {
                        if !ret.is_void() && !ret.is_error() {
                            self.error(
                                span,
                                format!("non-void function '{fname}' should return a value"),
                            );
                        }
                        None
                    }
                };
                stmt(StmtKind::Return(x), span)
            }
        }
    }
}

/// Whether control may reach the end of a block (C99 6.9.1p12: falling off
/// a non-void function). Conservative where C is: loops with a constant true
/// condition and no `break` do not complete; `goto` does not.
pub fn block_may_complete(b: &Block) -> bool {
    b.stmts.iter().all(may_complete)
}

fn may_complete(s: &hir::Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Goto(_) => false,
        StmtKind::Block(b) => block_may_complete(b),
        StmtKind::If(_, t, Some(e)) => may_complete(t) || may_complete(e),
        StmtKind::While(c, body) => !is_true(c) || has_break(body),
        StmtKind::For(_, c, _, body) => c.as_ref().is_some_and(|c| !is_true(c)) || has_break(body),
        StmtKind::DoWhile(body, c) => (may_complete(body) && !is_true(c)) || has_break(body),
        StmtKind::Label(_, s) | StmtKind::Case(_, s) | StmtKind::Default(s) => may_complete(s),
        StmtKind::Switch(_, body) => !has_default(body) || may_complete(body) || has_break(body),
        _ => true,
    }
}

fn has_default(s: &hir::Stmt) -> bool {
    match &s.kind {
        StmtKind::Default(_) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_default),
        StmtKind::Case(_, s) | StmtKind::Label(_, s) => has_default(s),
        _ => false,
    }
}

fn is_true(e: &hir::Expr) -> bool {
    match &e.kind {
        hir::ExprKind::IntConst(v) => *v != 0,
        hir::ExprKind::Cast(_, inner) => is_true(inner),
        _ => false,
    }
}

/// A `break` that leaves this loop (not one inside a nested loop or switch).
fn has_break(s: &hir::Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_break),
        StmtKind::If(_, t, e) => has_break(t) || e.as_ref().is_some_and(|e| has_break(e)),
        StmtKind::Label(_, s) | StmtKind::Case(_, s) | StmtKind::Default(s) => has_break(s),
        _ => false,
    }
}
