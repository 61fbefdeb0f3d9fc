//! Calls: user functions (arguments converted as by assignment, address
//! spaces checked) and built-ins (resolved to one overload by `builtins/`).
#![forbid(unsafe_code)]

use super::builtins::{self, Resolution};
use super::conv::Ctx;
use super::hir::{Expr, ExprKind, FuncId};
use super::scope::Symbol;
use super::types::Type;
use super::Checker;
use crate::parse::ast;
use crate::source::Span;

impl Checker<'_> {
    // f(a, b)
    pub fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Expr {
        let ast::ExprKind::Ident(name) = &callee.kind else {
            let c = self.expr(callee);
            if !c.ty.is_error() {
                self.error(
                    callee.span,
                    "called object is not a function (function pointers are not allowed in OpenCL)",
                );
            }
            return Expr::error(span);
        };
        let argv: Vec<Expr> = args.iter().map(|a| self.value(a)).collect();
        match self.scopes.lookup(name).cloned() {
            Some(Symbol::Func(id)) => {
                let id = match self.overloads.get(name.as_str()) {
                    Some(ids) if ids.len() > 1 => {
                        let ids = ids.clone();
                        match self.pick_overload(name, &ids, &argv, callee.span) {
                            Some(id) => id,
                            None => return Expr::error(span),
                        }
                    }
                    _ => id,
                };
                self.user_call(name, id, argv, span, callee.span)
            }
            Some(Symbol::Var { ty, .. }) => {
                if !ty.is_error() {
                    let msg = format!(
                        "called object type {} is not a function or function pointer",
                        self.ty_str(&ty)
                    );
                    self.error(callee.span, msg);
                }
                Expr::error(span)
            }
            Some(_) => {
                self.error(callee.span, format!("'{name}' is not a function"));
                Expr::error(span)
            }
            None => self.builtin_call(name, argv, span, callee.span),
        }
    }

    /// Choose among `__attribute__((overloadable))` functions with the
    /// ranking built-ins use.
    fn pick_overload(
        &mut self,
        name: &str,
        ids: &[FuncId],
        argv: &[Expr],
        at: Span,
    ) -> Option<FuncId> {
        if argv.iter().any(|a| a.ty.is_error()) {
            return None;
        }
        let mut cands: Vec<(Vec<builtins::Rank>, FuncId)> = Vec::new();
        for &id in ids {
            let sig = self.signature_of(id);
            if sig.params.len() != argv.len() {
                continue;
            }
            let ranks: Option<Vec<_>> = argv
                .iter()
                .zip(&sig.params)
                .map(|(a, p)| builtins::conversion_rank(&a.ty, p))
                .collect();
            if let Some(r) = ranks {
                cands.push((r, id));
            }
        }
        builtins::drop_incompatible(&mut cands);
        let better_eq =
            |a: &[builtins::Rank], b: &[builtins::Rank]| a.iter().zip(b).all(|(x, y)| x <= y);
        let best: Vec<FuncId> = cands
            .iter()
            .filter(|(r, id)| cands.iter().all(|(o, j)| j == id || better_eq(r, o)))
            .map(|(_, id)| *id)
            .collect();
        match best.as_slice() {
            [id] => Some(*id),
            _ => {
                let msg = if cands.is_empty() {
                    format!("no matching function for call to '{name}'")
                } else {
                    format!("call to '{name}' is ambiguous")
                };
                self.error(at, msg);
                for &id in ids {
                    let sig = Type::Function(std::sync::Arc::new(self.signature_of(id)));
                    let s = self.prog.function(id).span;
                    let text = format!("candidate function {}", self.ty_str(&sig));
                    self.note(s, text);
                }
                None
            }
        }
    }

    fn user_call(
        &mut self,
        name: &str,
        id: super::hir::FuncId,
        argv: Vec<Expr>,
        span: Span,
        name_span: Span,
    ) -> Expr {
        let f = self.prog.function(id);
        let params: Vec<Type> = f.params.iter().map(|p| p.ty.clone()).collect();
        let ret = f.ret.clone();
        let decl_span = f.span;
        if f.kernel.is_some() {
            // Calling a kernel from a kernel is allowed (spec 6.9), as an ordinary call.
        }
        if argv.len() != params.len() {
            let msg = format!(
                "too {} arguments to function call, expected {}, have {}",
                if argv.len() < params.len() {
                    "few"
                } else {
                    "many"
                },
                params.len(),
                argv.len()
            );
            // clang points at the closing parenthesis.
            let close = Span::new(span.file, span.hi.saturating_sub(1), span.hi);
            self.error(
                if close.file == name_span.file {
                    close
                } else {
                    name_span
                },
                msg,
            );
            self.note(decl_span, format!("'{name}' declared here"));
            return Expr::error(span);
        }
        let mut args = Vec::with_capacity(argv.len());
        let mut failed = false;
        for (i, (a, p)) in argv.into_iter().zip(&params).enumerate() {
            if a.ty.is_error() {
                failed = true;
                continue;
            }
            let a = self.assign_convert(a, p, Ctx::Arg(name, i));
            failed |= a.ty.is_error();
            args.push(a);
        }
        if let Some(fx) = self.fx.as_mut() {
            if !fx.func.callees.contains(&id) {
                fx.func.callees.push(id);
            }
        }
        if failed {
            return Expr::error(span);
        }
        Expr::rvalue(ExprKind::Call(id, args), ret, span)
    }

    fn builtin_call(&mut self, name: &str, argv: Vec<Expr>, span: Span, name_span: Span) -> Expr {
        if argv.iter().any(|a| a.ty.is_error()) {
            return Expr::error(span);
        }
        let tys: Vec<Type> = argv.iter().map(|a| a.ty.clone()).collect();
        match builtins::resolve(name, &tys, &self.env) {
            Resolution::NotBuiltin => {
                self.error(
                    name_span,
                    format!("implicit declaration of function '{name}' is invalid in OpenCL"),
                );
                Expr::error(span)
            }
            Resolution::Found(f) => {
                let mut args = Vec::with_capacity(argv.len());
                for (i, a) in argv.into_iter().enumerate() {
                    match f.params.get(i) {
                        Some(p) => args.push(self.assign_convert(a, p, Ctx::Arg(name, i))),
                        None => args.push(a),
                    }
                }
                if f.ret.elem() == Some(super::types::Scalar::Half) && !self.opts.fp16 {
                    self.half_ok(&f.ret, span);
                }
                let ret = f.ret.clone();
                Expr::rvalue(ExprKind::Builtin(Box::new(f), args), ret, span)
            }
            Resolution::NoMatch(cands) => {
                self.error(
                    name_span,
                    format!("no matching function for call to '{name}'"),
                );
                for c in cands {
                    self.note(name_span, format!("candidate function not viable: {c}"));
                }
                Expr::error(span)
            }
            Resolution::Ambiguous(cands) => {
                self.error(name_span, format!("call to '{name}' is ambiguous"));
                for c in cands {
                    self.note(name_span, format!("candidate function: {c}"));
                }
                Expr::error(span)
            }
            Resolution::Invalid(msg) => {
                self.error(span, msg);
                Expr::error(span)
            }
        }
    }
}
