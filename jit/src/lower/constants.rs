//! Locals that hold one integer constant, read as that constant, before
//! code generation.
//!
//! An inlined function's parameter becomes a local initialised with the
//! argument (`hir_inline.rs`). CLBlast's direct GEMM kernels pass literals
//! for the layout, `XgemmDirect(..., alm, blm, 1, 0, ...)`, and every
//! subscript of local memory in the inner loop is
//! `a_transpose ? mg*(WGD + PADA) + kg : kg*(WGD + PADA) + mg`. Read as a
//! variable, the condition is a value the code generator cannot see
//! through, and the lanes, given two arms whose lanes are spaced
//! differently, select between them lane by lane and read each lane's
//! element on its own. Read as the literal, the lanes take the one arm
//! (`lanes/expr.rs`), whose spacing they know.
//!
//! A local qualifies when it is a non-volatile private scalar integer,
//! declared once with an integer constant as its initialiser, and never
//! assigned, incremented or has its address taken after that; every read
//! of its value then becomes the constant. Each execution of the
//! declaration stores the same value, so a declaration inside a loop
//! qualifies too. Checked mode keeps the program as written.

use crate::lower::walk;
use crate::sema::hir::{CastKind, Expr, ExprKind, Function, Init, Program, Stmt, StmtKind, VarRef};
use crate::sema::types::{AddrSpace, Type};
use std::collections::HashMap;

/// The program with such locals' reads replaced by their constants, or
/// `None` when no function has one.
pub(crate) fn propagate(prog: &Program) -> Option<Program> {
    walk::rewrite_functions(prog, |_, f| {
        let consts = constant_locals(f);
        if consts.is_empty() {
            return None;
        }
        let mut body = f.body.clone()?;
        let mut changed = false;
        for s in &mut body.stmts {
            walk::stmt_exprs_mut(s, &mut |e| changed |= substitute(e, &consts));
        }
        changed.then(|| Function {
            body: Some(body),
            ..f.clone()
        })
    })
}

/// The locals of `f` that qualify (module doc), with their values.
fn constant_locals(f: &Function) -> HashMap<u32, i128> {
    let Some(body) = &f.body else {
        return HashMap::new();
    };
    // Each local's declarations: its constant, or `None` when one is not.
    let mut decls: HashMap<u32, Option<i128>> = HashMap::new();
    fn visit(s: &Stmt, decls: &mut HashMap<u32, Option<i128>>) {
        if let StmtKind::Decl(l, init) = &s.kind {
            let v = match init {
                Some(Init::Expr(e)) => walk::int_value(e),
                _ => None,
            };
            decls.entry(l.0).and_modify(|d| *d = None).or_insert(v);
        }
        walk::sub_stmts(s, &mut |t| visit(t, decls));
    }
    for s in &body.stmts {
        visit(s, &mut decls);
    }
    let written = walk::written_locals(f);
    decls
        .into_iter()
        .filter_map(|(l, v)| {
            let local = f.locals.get(l as usize)?;
            let scalar_int = matches!(&local.ty, Type::Scalar(s) if s.is_integer());
            (scalar_int
                && local.space == AddrSpace::Private
                && !local.quals.volatile
                && !local.address_taken
                && !written.contains(&l))
            .then_some((l, v?))
        })
        .collect()
}

/// Replace in `e` each read of a local of `consts` by its value; whether
/// one was.
fn substitute(e: &mut Expr, consts: &HashMap<u32, i128>) -> bool {
    if let ExprKind::Cast(CastKind::LvalueToRvalue, a) = &e.kind {
        if let ExprKind::Var(VarRef::Local(l)) = &a.kind {
            if let Some(&v) = consts.get(&l.0) {
                *e = Expr::int(v, e.ty.clone(), e.span);
                return true;
            }
        }
    }
    let mut changed = false;
    walk::children_mut(e, &mut |c| changed |= substitute(c, consts));
    changed
}
