//! Private objects the lanes keep interleaved: an array or struct of a
//! kernel (its elements and fields all 4-byte `int`, `uint` or `float`)
//! that each lane of a step needs a copy of, laid out so that the lanes'
//! copies of one element lie side by side (`codegen/lanes/mem.rs`,
//! `lane_mem_addr`). An element every lane reads at the same subscript
//! (`acc[k]` in a loop all lanes run alike) is then one vector access for
//! the step, not one access per lane.
//!
//! Such a layout is only the lanes': a copy is no contiguous object, so
//! the object may only be reached through subscripts and members ending at
//! one of its 4-byte scalars, read, assigned (also compound) or stepped
//! (`++`). [`interleavable`] finds the objects whose every use is such an
//! access: no initialiser, no address or decayed pointer used otherwise, no
//! whole-object copy, no vector or smaller element. The lanes refuse the
//! rest of the job at code generation: a statement they run once per lane
//! with the ordinary code (which would see a contiguous object) makes the
//! kernel run one work-item per step.

use crate::lower::walk;
use crate::sema::addrspace::AddrSpace;
use crate::sema::hir::{CastKind, Expr, ExprKind, Function, Program, StmtKind, VarRef};
use crate::sema::types::{Scalar, Type};

/// The object an access path designates: `x`, `x.f`, `x[i]`, and any
/// nesting of those (`p[j].c[1]`), with the subscripts of the way.
pub(crate) fn path_root(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Var(VarRef::Local(l)) => Some(l.0),
        ExprKind::Member(b, _) => path_root(b),
        ExprKind::Deref(p) => walk::array_subscript(p).and_then(|(a, _)| path_root(a)),
        _ => None,
    }
}

/// A type made only of 4-byte `int`, `uint` and `float` (through arrays
/// and structs, no bit-field).
fn four_byte_leaves(prog: &Program, ty: &Type) -> bool {
    match ty {
        Type::Scalar(Scalar::Int | Scalar::UInt | Scalar::Float) => true,
        Type::Array(elem, Some(n)) => *n > 0 && four_byte_leaves(prog, elem),
        Type::Record(id) => {
            let def = prog.records.get(*id);
            !def.is_union
                && !def.fields.is_empty()
                && def
                    .fields
                    .iter()
                    .all(|f| f.bits.is_none() && four_byte_leaves(prog, &f.ty))
        }
        _ => false,
    }
}

/// The most bytes of a step's copies of one object (eight lanes' copies);
/// a larger object keeps its kernel at one work-item per step.
const COPIES_MAX: u64 = 64 << 10;

/// By local of `f`: a private array or struct (not a parameter, its eight
/// copies at most [`COPIES_MAX`] bytes) whose every use is an access of one
/// of its 4-byte scalars (module comment).
pub(crate) fn interleavable(prog: &Program, f: &Function) -> Vec<bool> {
    let lanes = crate::codegen::MAX_LANES as u64;
    let mut ok: Vec<bool> = f
        .locals
        .iter()
        .enumerate()
        .map(|(i, l)| {
            i >= f.params.len()
                && l.space == AddrSpace::Private
                && matches!(l.ty, Type::Array(..) | Type::Record(_))
                && four_byte_leaves(prog, &l.ty)
                && prog
                    .records
                    .size_of(&l.ty)
                    .is_some_and(|n| n * lanes <= COPIES_MAX)
        })
        .collect();
    let Some(body) = &f.body else {
        return vec![false; ok.len()];
    };
    for s in &body.stmts {
        visit_stmt(s, &mut ok);
    }
    ok
}

fn visit_stmt(s: &crate::sema::hir::Stmt, ok: &mut [bool]) {
    if let StmtKind::Decl(l, Some(_)) = &s.kind {
        // An initialiser writes the object whole.
        if let Some(x) = ok.get_mut(l.0 as usize) {
            *x = false;
        }
    }
    walk::own_exprs(s, &mut |e| visit(e, ok));
    walk::sub_stmts(s, &mut |t| visit_stmt(t, ok));
}

/// Check the uses in `e` of the candidate objects (`ok`), clearing those
/// used otherwise than by an access of a 4-byte scalar.
fn visit(e: &Expr, ok: &mut [bool]) {
    let access = |p: &Expr| path_root(p).filter(|_| is_leaf(&p.ty));
    match &e.kind {
        ExprKind::Cast(CastKind::LvalueToRvalue, p) if access(p).is_some() => {
            return visit_subscripts(p, ok);
        }
        ExprKind::Assign { lhs, rhs, .. } if access(lhs).is_some() => {
            visit_subscripts(lhs, ok);
            return visit(rhs, ok);
        }
        ExprKind::IncDec { operand, .. } if access(operand).is_some() => {
            return visit_subscripts(operand, ok);
        }
        ExprKind::Var(VarRef::Local(l)) => {
            // Any other use: the object whole, or its address.
            if let Some(x) = ok.get_mut(l.0 as usize) {
                *x = false;
            }
        }
        _ => {}
    }
    walk::children(e, &mut |c| visit(c, ok));
}

/// The subscripts along access path `p` (they are ordinary expressions).
fn visit_subscripts(p: &Expr, ok: &mut [bool]) {
    match &p.kind {
        ExprKind::Member(b, _) => visit_subscripts(b, ok),
        ExprKind::Deref(a) => {
            if let Some((arr, idx)) = walk::array_subscript(a) {
                visit_subscripts(arr, ok);
                visit(idx, ok);
            }
        }
        _ => {}
    }
}

fn is_leaf(ty: &Type) -> bool {
    matches!(ty, Type::Scalar(Scalar::Int | Scalar::UInt | Scalar::Float))
}
