//! Floating-point contraction: `a * b + c` computed as one fused
//! multiply-add, before code generation.
//!
//! OpenCL C lets an implementation contract a floating-point expression,
//! computing it with one rounding instead of two, while the state of
//! `#pragma OPENCL FP_CONTRACT` is on, and that state is on by default
//! (OpenCL C §"Preprocessor Directives and Macros", `FP_CONTRACT`; clang
//! contracts within an expression, so pocl's code runs `vfmadd`). Where the
//! host has fused multiply-add instructions (`codegen::host_has_fma`), each
//! `float` or `double` (scalar or vector) addition or subtraction whose
//! operand is a product of the same type, within one expression, becomes
//! the built-in `fma`:
//! - `a * b + c` and `c + a * b` → `fma(a, b, c)`;
//! - `a * b - c` → `fma(a, b, -c)`; `c - a * b` → `fma(-a, b, c)`;
//! - `x += a * b` → `x = fma(a, b, x)`, `x -= a * b` → `x = fma(-a, b, x)`,
//!   where `x` is a variable (read once either way).
//!
//! One instruction instead of two, and each step of a sum of products one
//! rounding, as on pocl. `half` keeps its two roundings. What it costs:
//! Cranelift's x86-64 lowering ties the result to a multiplicand
//! (`vfmadd213`/`vfmadd132`, never `vfmadd231`), so a sum carried around a
//! loop (`sum += a[k] * b[k]`) takes a register move per iteration, and in
//! a loop that tests at its bottom a jump more (the moved value needs its
//! own edge). Measured on Xeon-2: the 5x5 convolution 1.16x faster, n-body
//! 5% slower (its loop is bound by square roots and divisions, which share
//! a port with the fused operations), SGEMM 2% slower, CSR SpMV and CLBlast
//! unchanged. `#pragma OPENCL FP_CONTRACT OFF` keeps two roundings from
//! where it is to the next such pragma or to the end of the compound
//! statement it is in (at file scope, to the end of the unit), as C99
//! scopes it (`hir::FpContract`, from `preprocess::fp_contract_states`);
//! nothing is contracted where `CRANECL_FP_CONTRACT=0`. Every strategy and
//! step, and checked mode, compute the same contracted program, so their
//! values agree.

use crate::sema::builtins::{BuiltinFn, Family};
use crate::sema::hir::{BinOp, CastKind, Expr, ExprKind, FpContract, Program, UnOp};
use crate::sema::types::{Scalar, Type};

/// The program with its contractible expressions contracted, or `None`
/// when it has none.
pub(crate) fn rewrite(prog: &Program) -> Option<Program> {
    let fp = &prog.fp_contract;
    crate::lower::walk::rewrite_statements(prog, |s| {
        let mut changed = false;
        crate::lower::walk::stmt_exprs_mut(s, &mut |e| changed |= contract(e, fp));
        changed
    })
}

/// Contract `e` and its sub-expressions (inner ones first) where the
/// pragma's state lets them; whether any changed.
fn contract(e: &mut Expr, fp: &FpContract) -> bool {
    let mut changed = false;
    crate::lower::walk::children_mut(e, &mut |c| changed |= contract(c, fp));
    if !contractible(&e.ty) || !fp.on_at(e.span) {
        return changed;
    }
    let ty = e.ty.clone();
    let span = e.span;
    let fused = match &mut e.kind {
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), l, r) => {
            let (l, r) = (take(l), take(r));
            match (product(l, &ty), *op) {
                // a * b + c, a * b - c
                (Ok((a, b)), op) => {
                    let c = if op == BinOp::Sub { neg(r) } else { r };
                    Ok(fma(a, b, c, &ty, span))
                }
                (Err(l), BinOp::Add) => match product(r, &ty) {
                    // c + a * b
                    Ok((a, b)) => Ok(fma(a, b, l, &ty, span)),
                    Err(r) => Err((l, r)),
                },
                (Err(l), _) => match product(r, &ty) {
                    // c - a * b
                    Ok((a, b)) => Ok(fma(neg(a), b, l, &ty, span)),
                    Err(r) => Err((l, r)),
                },
            }
        }
        ExprKind::Assign {
            op: Some(op @ (BinOp::Add | BinOp::Sub)),
            op_ty,
            lhs,
            rhs,
        } if *op_ty == ty && lhs.ty == ty && is_variable(lhs) => {
            let sub = *op == BinOp::Sub;
            match product(take(rhs), &ty) {
                Ok((a, b)) => {
                    // x += a * b → x = fma(a, b, x)
                    let a = if sub { neg(a) } else { a };
                    let x = Expr::rvalue(
                        ExprKind::Cast(CastKind::LvalueToRvalue, Box::new((**lhs).clone())),
                        ty.clone(),
                        lhs.span,
                    );
                    **rhs = fma(a, b, x, &ty, span);
                    *op_ty = ty.clone();
                    e.kind = match std::mem::replace(&mut e.kind, ExprKind::IntConst(0)) {
                        ExprKind::Assign {
                            op_ty, lhs, rhs, ..
                        } => ExprKind::Assign {
                            op: None,
                            op_ty,
                            lhs,
                            rhs,
                        },
                        _ => unreachable!("matched as an assignment"),
                    };
                    return true;
                }
                Err(r) => {
                    **rhs = r;
                    return changed;
                }
            }
        }
        _ => return changed,
    };
    match fused {
        Ok(f) => {
            *e = f;
            true
        }
        Err((l, r)) => {
            // Put the operands back as they were.
            if let ExprKind::Binary(_, a, b) = &mut e.kind {
                **a = l;
                **b = r;
            }
            changed
        }
    }
}

/// `float` or `double`, scalar or vector (not `half`, whose operations are
/// rounded to `half` one by one).
fn contractible(ty: &Type) -> bool {
    matches!(
        ty,
        Type::Scalar(Scalar::Float | Scalar::Double)
            | Type::Vector(Scalar::Float | Scalar::Double, _)
    )
}

/// The factors of `e` when it is a product of type `ty` whose factors are
/// of type `ty` too; else `e` back.
fn product(e: Expr, ty: &Type) -> Result<(Expr, Expr), Expr> {
    match e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) if e.ty == *ty && a.ty == *ty && b.ty == *ty => {
            Ok((*a, *b))
        }
        kind => Err(Expr { kind, ..e }),
    }
}

/// A variable (local, parameter or program-scope), not `volatile`: read
/// and written again by the rewrite of `x += a * b` without a second
/// evaluation of anything.
fn is_variable(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Var(_)) && !e.quals.volatile
}

fn take(e: &mut Box<Expr>) -> Expr {
    let span = e.span;
    std::mem::replace(&mut **e, Expr::error(span))
}

fn neg(e: Expr) -> Expr {
    let (ty, span) = (e.ty.clone(), e.span);
    Expr::rvalue(ExprKind::Unary(UnOp::Neg, Box::new(e)), ty, span)
}

fn fma(a: Expr, b: Expr, c: Expr, ty: &Type, span: crate::source::Span) -> Expr {
    let f = BuiltinFn {
        name: "fma".to_string(),
        family: Family::Math,
        ret: ty.clone(),
        params: vec![ty.clone(); 3],
        variadic: false,
    };
    Expr::rvalue(
        ExprKind::Builtin(Box::new(f), vec![a, b, c]),
        ty.clone(),
        span,
    )
}
