//! The fast barrier strategy: a kernel body cut into regions at its
//! barriers, each region a loop over the work-items of the group.
//!
//! Applies when every barrier is a statement of the kernel body itself, or of
//! `if`/`for`/`while`/`do` statements (and blocks) that contain barriers —
//! whose conditions are uniform across the work-group by the spec's rule —
//! and the body has no `goto` or label and no call of a function that
//! reaches a barrier. A `break`/`continue` of a loop around barriers (and the
//! `if`s around it) is a uniform jump between regions. A `return` marks the
//! work-item done in its frame; done items skip every later piece, and a
//! decision no live item took is false (loops end).
//! Anything else takes the coroutine strategy of `runtime/`.
//!
//! Every barrier-free stretch of statements, every condition, loop
//! initialiser and step is a *piece*, run by all work-items in turn (the
//! group entry's loop nest). A control statement around barriers runs its
//! condition piece, then branches on the value the last work-item computed
//! (they all agree). A private variable used in two pieces or more lives in
//! the work-item's *frame* in the private arena (`ItemState::arena`, one
//! frame per work-item); inside a piece it is loaded into Cranelift
//! variables at the start of each work-item's turn and stored back at the
//! end (unless its address is taken, then it is used in place). Kernel
//! parameters that are never written stay shared by the whole group.
//! A local whose value is the same in every work-item (built from constants,
//! unwritten parameters, group-wide queries and other such locals, and
//! written only by such pieces or a top-level declaration — the loop
//! variable of a tree reduction) has one copy, in the first work-item's
//! frame, and a condition, loop initialiser or step touching only such
//! values runs once per group instead of once per work-item.

use super::fx::{define, FunctionCx};
use super::group::{finish_entry, start_entry, Geometry};
use super::value::{clif_scalar, clif_type, flags, CPlace, CValue};
use super::{abi, ProgramCx};
use crate::launch::ArgInfo;
use crate::lower::walk;
use crate::runtime::check::{self, SiteKind};
use crate::runtime::offsets as o;
use crate::sema::hir::{Expr, ExprKind, Function, Program, Stmt, StmtKind, VarRef};
use crate::sema::types::Type;
use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use std::collections::{HashMap, HashSet};

/// A kernel body cut at its barriers.
enum Node<'a> {
    /// `break` / `continue` of the innermost loop around barriers (uniform,
    /// as the barriers in that loop require).
    Break,
    Continue,
    /// A barrier statement (checked mode counts epochs and sees divergence
    /// here; otherwise nothing is emitted).
    Barrier(&'a Stmt),
    /// Barrier-free statements (piece id).
    Region(usize, Vec<&'a Stmt>),
    /// `if (c)` around barriers (condition piece id).
    If(usize, &'a Expr, Vec<Node<'a>>, Vec<Node<'a>>),
    /// A loop around barriers.
    Loop {
        init: Option<(usize, &'a Stmt)>,
        cond: Option<(usize, &'a Expr)>,
        step: Option<(usize, &'a Expr)>,
        body: Vec<Node<'a>>,
        post_test: bool,
    },
}

/// How a kernel runs under the region strategy.
pub(crate) struct Plan<'a> {
    nodes: Vec<Node<'a>>,
    /// Locals each piece refers to.
    uses: Vec<HashSet<u32>>,
    /// Locals each piece may write (declares, assigns, increments): only
    /// those are stored back to the frame after a work-item's turn.
    writes: Vec<HashSet<u32>>,
    /// Locals each piece declares with a value among its own statements
    /// (not nested): their frame copy is not loaded at the piece's start,
    /// the declaration gives them their value before any read.
    inits: Vec<HashSet<u32>>,
    /// Offset of each frame-resident local in the work-item's frame.
    frame: HashMap<u32, u64>,
    pub frame_size: u64,
    /// Locals whose address is taken (used in place, never promoted).
    addressed: HashSet<u32>,
    /// Where a work-item's "has returned" flag lives in its frame, when the
    /// body has a `return` (a returned item skips every later piece).
    done_offset: Option<u64>,
    /// Locals holding `get_local_id(0)` (declared with it, never written).
    local_id0: HashSet<u32>,
    /// Parameters the body never writes (the same for every work-item).
    shared_params: HashSet<u32>,
    /// Checked uninit: where each followed frame local's "written" flags
    /// (a byte per lane) are in the frame.
    uninit_flags: HashMap<u32, u64>,
    /// Frame locals whose value is the same in every work-item (see
    /// [`uniform_locals`]): one copy, in the first work-item's frame.
    uniform: HashSet<u32>,
    /// Pieces run once per group instead of once per work-item: conditions,
    /// loop initialisers and steps that read and write only uniform values.
    once: Vec<bool>,
}

fn has_return(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_return),
        StmtKind::If(_, t, e) => has_return(t) || e.as_deref().is_some_and(has_return),
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => has_return(b),
        _ => false,
    }
}

struct Planner<'a> {
    prog: &'a Program,
    uses: Vec<HashSet<u32>>,
    writes: Vec<HashSet<u32>>,
    inits: Vec<HashSet<u32>>,
    /// Loops around barriers the statements being planned are in.
    loop_depth: usize,
}

fn is_barrier_stmt(s: &Stmt) -> bool {
    let StmtKind::Expr(e) = &s.kind else {
        return false;
    };
    let e = match &e.kind {
        ExprKind::Cast(_, inner) => inner,
        _ => e,
    };
    // `wait_group_events` synchronises like a barrier (the copies it waits
    // for complete when they are issued).
    matches!(&e.kind, ExprKind::Builtin(b, _)
        if matches!(b.name.as_str(), "barrier" | "work_group_barrier" | "wait_group_events"))
}

/// Statements whose control flow leaves them (`return`, `goto`, labels).
fn has_nonlocal_flow(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Goto(_) | StmtKind::Label(..) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_nonlocal_flow),
        StmtKind::If(_, t, e) => {
            has_nonlocal_flow(t) || e.as_deref().is_some_and(has_nonlocal_flow)
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::For(_, _, _, b) => has_nonlocal_flow(b),
        StmtKind::Case(_, b) | StmtKind::Default(b) => has_nonlocal_flow(b),
        _ => false,
    }
}

/// A `break` or `continue` that would leave `s` (one not inside a loop or
/// switch of its own).
fn has_free_jump(s: &Stmt, in_loop: bool, in_switch: bool) -> bool {
    match &s.kind {
        StmtKind::Break => !in_loop && !in_switch,
        StmtKind::Continue => !in_loop,
        StmtKind::Block(b) => b.stmts.iter().any(|s| has_free_jump(s, in_loop, in_switch)),
        StmtKind::If(_, t, e) => {
            has_free_jump(t, in_loop, in_switch)
                || e.as_deref()
                    .is_some_and(|e| has_free_jump(e, in_loop, in_switch))
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) => {
            has_free_jump(b, true, in_switch)
        }
        StmtKind::Switch(_, b) => has_free_jump(b, in_loop, true),
        StmtKind::Case(_, b) | StmtKind::Default(b) | StmtKind::Label(_, b) => {
            has_free_jump(b, in_loop, in_switch)
        }
        _ => false,
    }
}

fn decls(s: &Stmt, out: &mut HashSet<u32>) {
    match &s.kind {
        StmtKind::Decl(l, _) => {
            out.insert(l.0);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| decls(s, out)),
        StmtKind::If(_, t, e) => {
            decls(t, out);
            if let Some(e) = e {
                decls(e, out);
            }
        }
        StmtKind::For(i, _, _, b) => {
            if let Some(i) = i {
                decls(i, out);
            }
            decls(b, out);
        }
        StmtKind::While(_, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => decls(b, out),
        _ => {}
    }
}

/// The local an assignment, increment or `&` writes (or may write).
fn written_root(e: &Expr, out: &mut HashSet<u32>) {
    fn root(e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Var(VarRef::Local(l)) => Some(l.0),
            ExprKind::Member(a, _) | ExprKind::Swizzle(a, _) => root(a),
            _ => None,
        }
    }
    if let ExprKind::Assign { lhs: a, .. }
    | ExprKind::IncDec { operand: a, .. }
    | ExprKind::AddrOf(a) = &e.kind
    {
        if let Some(l) = root(a) {
            out.insert(l);
        }
    }
}

fn expr_locals(e: &Expr, out: &mut HashSet<u32>) {
    walk::expr_tree(e, &mut |e| {
        if let ExprKind::Var(VarRef::Local(l)) = &e.kind {
            out.insert(l.0);
        }
    });
}

impl<'a> Planner<'a> {
    fn contains_barrier(&self, s: &Stmt) -> bool {
        let mut found = false;
        walk::stmt_exprs(s, &mut |e| match &e.kind {
            ExprKind::Builtin(b, _) if walk::is_barrier(&b.name, b.family) => found = true,
            ExprKind::Call(f, _) if walk::uses_barrier(self.prog, *f) => found = true,
            _ => {}
        });
        found
    }

    fn piece(&mut self, stmts: &[&Stmt], exprs: &[&Expr]) -> usize {
        let mut set = HashSet::new();
        for s in stmts {
            decls(s, &mut set);
            walk::stmt_exprs(s, &mut |e| {
                if let ExprKind::Var(VarRef::Local(l)) = &e.kind {
                    set.insert(l.0);
                }
            });
        }
        for e in exprs {
            expr_locals(e, &mut set);
        }
        let mut writes = HashSet::new();
        for s in stmts {
            decls(s, &mut writes);
            walk::stmt_exprs(s, &mut |e| written_root(e, &mut writes));
        }
        for e in exprs {
            walk::expr_tree(e, &mut |e| written_root(e, &mut writes));
        }
        let inits = stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Decl(l, Some(_)) => Some(l.0),
                _ => None,
            })
            .collect();
        self.uses.push(set);
        self.writes.push(writes);
        self.inits.push(inits);
        self.uses.len() - 1
    }

    fn flush(&mut self, cur: &mut Vec<&'a Stmt>, out: &mut Vec<Node<'a>>) -> Result<(), String> {
        if cur.is_empty() {
            return Ok(());
        }
        if cur.iter().any(|s| has_free_jump(s, false, false)) {
            return Err("a break or continue leaves a stretch between barriers".into());
        }
        let stmts = std::mem::take(cur);
        let id = self.piece(&stmts, &[]);
        out.push(Node::Region(id, stmts));
        Ok(())
    }

    fn loop_body(&mut self, body: &'a Stmt) -> Result<Vec<Node<'a>>, String> {
        self.loop_depth += 1;
        let r = self.nodes(std::slice::from_ref(body));
        self.loop_depth -= 1;
        r
    }

    fn nodes(&mut self, stmts: &'a [Stmt]) -> Result<Vec<Node<'a>>, String> {
        let mut out = Vec::new();
        let mut cur: Vec<&'a Stmt> = Vec::new();
        for s in stmts {
            // A break or continue of a loop around barriers is a node of its
            // own (so is an `if` or block around one).
            let jumps = self.loop_depth > 0 && has_free_jump(s, false, false);
            if !jumps && !self.contains_barrier(s) {
                cur.push(s);
                continue;
            }
            self.flush(&mut cur, &mut out)?;
            if is_barrier_stmt(s) {
                out.push(Node::Barrier(s));
                continue;
            }
            match &s.kind {
                StmtKind::Break if self.loop_depth > 0 => out.push(Node::Break),
                StmtKind::Continue if self.loop_depth > 0 => out.push(Node::Continue),
                StmtKind::Block(b) => out.extend(self.nodes(&b.stmts)?),
                StmtKind::If(c, t, e) => {
                    let cid = self.piece(&[], &[c]);
                    let t = self.nodes(std::slice::from_ref(t.as_ref()))?;
                    let e = match e {
                        Some(e) => self.nodes(std::slice::from_ref(e.as_ref()))?,
                        None => Vec::new(),
                    };
                    out.push(Node::If(cid, c, t, e));
                }
                StmtKind::For(init, c, step, body) => {
                    let init = match init {
                        Some(i) if self.contains_barrier(i) => {
                            return Err("a barrier in a for loop's initialiser".into())
                        }
                        Some(i) => Some((self.piece(&[i.as_ref()], &[]), i.as_ref())),
                        None => None,
                    };
                    let cond = c.as_ref().map(|c| (self.piece(&[], &[c]), c));
                    let step = step.as_ref().map(|st| (self.piece(&[], &[st]), st));
                    let body = self.loop_body(body)?;
                    out.push(Node::Loop {
                        init,
                        cond,
                        step,
                        body,
                        post_test: false,
                    });
                }
                StmtKind::While(c, body) => {
                    let cond = Some((self.piece(&[], &[c]), c));
                    let body = self.loop_body(body)?;
                    out.push(Node::Loop {
                        init: None,
                        cond,
                        step: None,
                        body,
                        post_test: false,
                    });
                }
                StmtKind::DoWhile(body, c) => {
                    let body = self.loop_body(body)?;
                    let cond = Some((self.piece(&[], &[c]), c));
                    out.push(Node::Loop {
                        init: None,
                        cond,
                        step: None,
                        body,
                        post_test: true,
                    });
                }
                StmtKind::Switch(..) => {
                    return Err(
                        "a barrier inside a switch (only if, loops and blocks are cut)".into(),
                    )
                }
                StmtKind::Label(..) | StmtKind::Case(..) | StmtKind::Default(..) => {
                    return Err("a barrier in a labelled statement".into())
                }
                _ => {
                    return Err(
                        "a barrier inside a called function that is not inlined \
                         (`hir_inline.rs`: a call inside an expression, a return before the \
                         callee's end, a goto, a label or a local variable in it, or checked mode)"
                            .into(),
                    )
                }
            }
        }
        self.flush(&mut cur, &mut out)?;
        Ok(out)
    }
}

/// Whether `e` has the same value (and effect) in every work-item of the
/// group when the locals in `uni` do: constants, those locals, operators and
/// the group-wide work-item queries; no memory reads and no calls.
fn uniform_expr(e: &Expr, uni: &HashSet<u32>) -> bool {
    let mut ok = true;
    walk::expr_tree(e, &mut |e| match &e.kind {
        ExprKind::IntConst(_)
        | ExprKind::FloatConst(_)
        | ExprKind::Unary(..)
        | ExprKind::Binary(..)
        | ExprKind::Assign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Cond(..)
        | ExprKind::Comma(..)
        | ExprKind::Cast(..) => {}
        ExprKind::Var(VarRef::Local(l)) if uni.contains(&l.0) => {}
        ExprKind::Builtin(b, _)
            if matches!(
                b.name.as_str(),
                "get_work_dim"
                    | "get_global_size"
                    | "get_global_offset"
                    | "get_local_size"
                    | "get_enqueued_local_size"
                    | "get_num_groups"
                    | "get_group_id"
            ) => {}
        _ => ok = false,
    });
    ok
}

/// Whether `stmts` may write local memory: a store or increment through a
/// `local` or generic pointer or to a kernel-scope `local` variable, a call
/// of a function, a built-in given a `local` or generic pointer (but
/// `vload`s).
fn writes_local_memory(f: &Function, stmts: &[&Stmt]) -> bool {
    use crate::sema::addrspace::AddrSpace;
    fn may_be_local(f: &Function, lhs: &Expr) -> bool {
        match &lhs.kind {
            ExprKind::Var(VarRef::Local(l)) => f
                .locals
                .get(l.0 as usize)
                .is_none_or(|v| v.space == AddrSpace::Local),
            ExprKind::Var(VarRef::Global(_)) => false,
            ExprKind::Member(x, _) | ExprKind::Swizzle(x, _) => {
                !x.is_lvalue() || may_be_local(f, x)
            }
            ExprKind::Deref(p) => {
                p.ty.pointee()
                    .is_none_or(|t| matches!(t.space, AddrSpace::Local | AddrSpace::Generic))
            }
            _ => true,
        }
    }
    let local_ptr = |a: &Expr| {
        a.ty.pointee()
            .is_some_and(|t| matches!(t.space, AddrSpace::Local | AddrSpace::Generic))
    };
    let mut writes = false;
    for s in stmts {
        walk::stmt_exprs(s, &mut |e| match &e.kind {
            ExprKind::Assign { lhs: a, .. } | ExprKind::IncDec { operand: a, .. } => {
                writes |= may_be_local(f, a)
            }
            ExprKind::Call(..) => writes = true,
            ExprKind::Builtin(b, args) if !b.name.starts_with("vload") => {
                writes |= args.iter().any(local_ptr)
            }
            _ => {}
        });
    }
    writes
}

/// The locals declared as `get_local_id(0)` (through integer conversions,
/// which keep its value: local ids are small) and never written again.
fn local_id0_copies(
    f: &Function,
    written: &HashSet<u32>,
    addressed: &HashSet<u32>,
) -> HashSet<u32> {
    let mut out = HashSet::new();
    if let Some(b) = &f.body {
        for s in &b.stmts {
            collect_local_id0(s, written, addressed, &mut out);
        }
    }
    out
}

fn collect_local_id0(
    s: &Stmt,
    written: &HashSet<u32>,
    addressed: &HashSet<u32>,
    out: &mut HashSet<u32>,
) {
    match &s.kind {
        StmtKind::Decl(l, Some(crate::sema::hir::Init::Expr(e)))
            if is_local_id0(e, &HashSet::new())
                && !written.contains(&l.0)
                && !addressed.contains(&l.0) =>
        {
            out.insert(l.0);
        }
        StmtKind::Block(b) => b
            .stmts
            .iter()
            .for_each(|s| collect_local_id0(s, written, addressed, out)),
        _ => {}
    }
}

/// `e` is `get_local_id(0)`, or one of `copies` read.
fn is_local_id0(e: &Expr, copies: &HashSet<u32>) -> bool {
    match &e.kind {
        ExprKind::Cast(
            crate::sema::hir::CastKind::IntToInt | crate::sema::hir::CastKind::LvalueToRvalue,
            a,
        ) => is_local_id0(a, copies),
        ExprKind::Var(VarRef::Local(l)) => copies.contains(&l.0),
        ExprKind::Builtin(b, args) if b.name == "get_local_id" => {
            matches!(args.first().map(|a| &a.kind), Some(ExprKind::IntConst(0)))
                || matches!(args.first().map(|a| &a.kind),
            Some(ExprKind::Cast(_, inner)) if matches!(inner.kind, ExprKind::IntConst(0)))
        }
        _ => false,
    }
}

/// A piece that is one `if (lid < bound) stmt` (or `bound > lid`) with
/// `lid` the local id in dimension 0 and `bound` uniform and free of
/// effects: the bound and the statement. Only items with `lid < bound` do
/// anything, so the piece's rows can end there.
fn guarded_by_local_id0<'s>(stmts: &[&'s Stmt], plan: &Plan<'_>) -> Option<(&'s Expr, &'s Stmt)> {
    let [s] = stmts else { return None };
    let StmtKind::If(c, t, None) = &s.kind else {
        return None;
    };
    let (lid, bound) = match &c.kind {
        ExprKind::Binary(crate::sema::hir::BinOp::Lt, a, b) => (a, b),
        ExprKind::Binary(crate::sema::hir::BinOp::Gt, a, b) => (b, a),
        _ => return None,
    };
    let mut pure = true;
    walk::expr_tree(bound, &mut |e| {
        if matches!(e.kind, ExprKind::Assign { .. } | ExprKind::IncDec { .. }) {
            pure = false;
        }
    });
    let uniform = plan.uniform_or_shared();
    (pure
        && bound.ty.is_integer()
        && is_local_id0(lid, &plan.local_id0)
        && uniform_expr(bound, &uniform))
    .then_some((&**bound, &**t))
}

/// What a piece runs: a stretch of statements every work-item runs
/// unconditionally, or a control statement's condition, initialiser or step.
enum PieceKind<'a> {
    Region(&'a [&'a Stmt]),
    Control(Option<&'a Stmt>, Option<&'a Expr>),
}

fn piece_kinds<'a>(nodes: &'a [Node<'a>], out: &mut Vec<Option<PieceKind<'a>>>) {
    let put = |id: usize, k: PieceKind<'a>, out: &mut Vec<Option<PieceKind<'a>>>| {
        if out.len() <= id {
            out.resize_with(id + 1, || None);
        }
        out[id] = Some(k);
    };
    for n in nodes {
        match n {
            Node::Break | Node::Continue | Node::Barrier(_) => {}
            Node::Region(id, stmts) => put(*id, PieceKind::Region(stmts), out),
            Node::If(id, c, t, e) => {
                put(*id, PieceKind::Control(None, Some(c)), out);
                piece_kinds(t, out);
                piece_kinds(e, out);
            }
            Node::Loop {
                init,
                cond,
                step,
                body,
                ..
            } => {
                if let Some((id, s)) = init {
                    put(*id, PieceKind::Control(Some(s), None), out);
                }
                for (id, c) in cond.iter().chain(step) {
                    put(*id, PieceKind::Control(None, Some(c)), out);
                }
                piece_kinds(body, out);
            }
        }
    }
}

impl Plan<'_> {
    /// Whether `piece` gives local `l` its value before any read (a
    /// declaration with a value among its statements): its frame copy is
    /// not loaded. (Checked `uninit` loads it anyway, with its flags.)
    fn declares(&self, piece: usize, l: u32) -> bool {
        self.inits[piece].contains(&l) && !self.uninit_flags.contains_key(&l)
    }

    /// The locals holding one value for the whole group: the uniform ones
    /// and the parameters no work-item writes (what `uniform_locals` ended
    /// with).
    fn uniform_or_shared(&self) -> HashSet<u32> {
        self.uniform.union(&self.shared_params).copied().collect()
    }
}

/// Whether a control piece can run once for the whole group: everything it
/// reads and writes is uniform.
fn once_piece(k: &PieceKind<'_>, writes: &HashSet<u32>, uni: &HashSet<u32>) -> bool {
    let PieceKind::Control(s, e) = k else {
        return false;
    };
    if !writes.iter().all(|l| uni.contains(l)) {
        return false;
    }
    fn stmt_ok(s: &Stmt, uni: &HashSet<u32>) -> bool {
        match &s.kind {
            StmtKind::Decl(_, Some(crate::sema::hir::Init::Expr(e))) | StmtKind::Expr(e) => {
                uniform_expr(e, uni)
            }
            StmtKind::Block(b) => b.stmts.iter().all(|s| stmt_ok(s, uni)),
            _ => false,
        }
    }
    s.is_none_or(|s| stmt_ok(s, uni)) && e.is_none_or(|e| uniform_expr(e, uni))
}

/// The frame locals that hold the same value in every work-item, and the
/// pieces that may run once per group. A candidate (a promotable scalar
/// frame local, not a parameter) stays uniform while every piece writing it
/// is a once piece, or a region piece that writes it only by a top-level
/// declaration with a uniform initialiser (each work-item stores the same
/// value); unwritten parameters are uniform. Nothing is uniform in a body
/// with `return` (returned work-items change what "every item" means).
fn uniform_locals(
    f: &Function,
    plan: &Plan<'_>,
    shared_params: &HashSet<u32>,
) -> (HashSet<u32>, Vec<bool>) {
    let n = plan.uses.len();
    let mut kinds = Vec::new();
    piece_kinds(&plan.nodes, &mut kinds);
    if plan.done_offset.is_some() || kinds.len() != n || kinds.iter().any(Option::is_none) {
        return (HashSet::new(), vec![false; n]);
    }
    let kinds: Vec<PieceKind<'_>> = kinds.into_iter().flatten().collect();
    let mut uni: HashSet<u32> = plan
        .frame
        .keys()
        .copied()
        .filter(|l| {
            let ty = &f.locals[*l as usize].ty;
            !plan.addressed.contains(l)
                && !ty.is_vector()
                && !ty.is_array()
                && clif_type(ty).is_some()
                && !f.params.iter().any(|p| p.local.0 == *l)
        })
        .collect();
    let candidates = uni.clone();
    uni.extend(shared_params);
    loop {
        let once: Vec<bool> = (0..n)
            .map(|p| once_piece(&kinds[p], &plan.writes[p], &uni))
            .collect();
        let bad: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|l| uni.contains(l))
            .filter(|l| {
                (0..n).any(|p| {
                    plan.writes[p].contains(l)
                        && match &kinds[p] {
                            PieceKind::Control(..) => !once[p],
                            PieceKind::Region(stmts) => {
                                !region_decl_only(stmts, *l, &uni)
                                    && !region_updates_only(stmts, *l, &uni)
                            }
                        }
                })
            })
            .collect();
        if bad.is_empty() {
            uni.retain(|l| candidates.contains(l));
            return (uni, once);
        }
        for l in bad {
            uni.remove(&l);
        }
    }
}

/// The statements at the start and at the end of a region piece that only
/// update locals in `uni` from values uniform by `uni` (a scan's
/// `offset <<= 1;` after its `if (lid < d)`): how many at the start, how
/// many at the end. The piece runs them once for the group, before and
/// after its work-items run the rest (`FunctionCx::piece_loop_inner`):
/// every work-item would read the same value in the rest either way, and a
/// local written only so stays uniform ([`region_updates_only`]).
fn group_updates(stmts: &[&Stmt], uni: &HashSet<u32>) -> (usize, usize) {
    let update = |s: &Stmt| match &s.kind {
        StmtKind::Expr(e) => {
            matches!(e.kind, ExprKind::Assign { .. } | ExprKind::IncDec { .. })
                && uniform_expr(e, uni)
        }
        _ => false,
    };
    let pre = stmts.iter().take_while(|s| update(s)).count();
    let post = stmts[pre..].iter().rev().take_while(|s| update(s)).count();
    (pre, post)
}

/// Whether `stmts` write local `l` only in their [`group_updates`].
fn region_updates_only(stmts: &[&Stmt], l: u32, uni: &HashSet<u32>) -> bool {
    let (pre, post) = group_updates(stmts, uni);
    let mut w = HashSet::new();
    for s in &stmts[pre..stmts.len() - post] {
        decls(s, &mut w);
        walk::stmt_exprs(s, &mut |e| written_root(e, &mut w));
    }
    pre + post > 0 && !w.contains(&l)
}

/// Whether `stmts` write local `l` only by one top-level declaration (or one
/// in a nested block) with a
/// uniform initialiser.
fn region_decl_only(stmts: &[&Stmt], l: u32, uni: &HashSet<u32>) -> bool {
    // Statements of nested blocks run unconditionally too.
    fn flatten<'s>(s: &'s Stmt, out: &mut Vec<&'s Stmt>) {
        match &s.kind {
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| flatten(s, out)),
            _ => out.push(s),
        }
    }
    let mut flat = Vec::new();
    for s in stmts {
        flatten(s, &mut flat);
    }
    let mut decl = 0;
    for s in flat {
        if let StmtKind::Decl(d, init) = &s.kind {
            if d.0 == l {
                match init {
                    Some(crate::sema::hir::Init::Expr(e)) if uniform_expr(e, uni) => decl += 1,
                    _ => return false,
                }
                continue;
            }
        }
        let mut w = HashSet::new();
        decls(s, &mut w);
        walk::stmt_exprs(s, &mut |e| written_root(e, &mut w));
        if w.contains(&l) {
            return false;
        }
    }
    decl == 1
}

/// Cut `f` at its barriers, or `Err(why)` if the region strategy does not
/// apply.
/// `follow_uninit`: checked `uninit`, whose flags of frame locals live in
/// the frame too.
pub(crate) fn plan<'a>(
    prog: &'a Program,
    f: &'a Function,
    follow_uninit: bool,
) -> Result<Plan<'a>, String> {
    let body = f.body.as_ref().ok_or("the kernel has no body")?;
    if body.stmts.iter().any(has_nonlocal_flow) {
        return Err("the kernel uses goto".into());
    }
    let mut p = Planner {
        prog,
        uses: Vec::new(),
        writes: Vec::new(),
        inits: Vec::new(),
        loop_depth: 0,
    };
    let nodes = p.nodes(&body.stmts)?;
    let mut count: HashMap<u32, usize> = HashMap::new();
    for set in &p.uses {
        for l in set {
            *count.entry(*l).or_default() += 1;
        }
    }
    let written = walk::written_locals(f);
    let params: HashSet<u32> = f.params.iter().map(|p| p.local.0).collect();
    let mut frame = HashMap::new();
    let mut size = 0u64;
    let mut align = 16u64;
    for (i, l) in f.locals.iter().enumerate() {
        let i = i as u32;
        if l.space != crate::sema::addrspace::AddrSpace::Private {
            continue;
        }
        let shared_param = params.contains(&i) && !written.contains(&i);
        let per_item = if params.contains(&i) {
            written.contains(&i)
        } else {
            count.get(&i).copied().unwrap_or(0) >= 2
        };
        if shared_param || !per_item {
            continue;
        }
        let a = prog.records.align_of(&l.ty).max(1);
        align = align.max(a);
        size = size.next_multiple_of(a);
        frame.insert(i, size);
        size += prog.records.size_of(&l.ty).unwrap_or(0);
    }
    let mut addressed = walk::address_taken_locals(f);
    addressed.extend(
        f.locals
            .iter()
            .enumerate()
            .filter(|(_, l)| l.address_taken)
            .map(|(i, _)| i as u32),
    );
    // Checked uninit: a byte per lane of each frame local declared without
    // an initialiser and kept in registers in its pieces.
    let mut uninit_flags = HashMap::new();
    if follow_uninit {
        let declared = walk::uninitialised_locals(f);
        let mut ids: Vec<u32> = frame
            .keys()
            .copied()
            .filter(|l| declared.contains(l))
            .collect();
        ids.sort_unstable();
        for l in ids {
            let ty = &f.locals[l as usize].ty;
            if addressed.contains(&l)
                || ty.is_array()
                || !(ty.is_vector() || clif_type(ty).is_some())
            {
                continue;
            }
            let n = match ty {
                Type::Vector(_, n) => u64::from(*n),
                _ => 1,
            };
            uninit_flags.insert(l, size);
            size += n;
        }
    }
    let done_offset = if body.stmts.iter().any(has_return) {
        size = size.next_multiple_of(8);
        let at = size;
        size += 8;
        Some(at)
    } else {
        None
    };
    let shared_params: HashSet<u32> = params.difference(&written).copied().collect();
    let local_id0 = local_id0_copies(f, &written, &addressed);
    let mut plan = Plan {
        nodes,
        uses: p.uses,
        writes: p.writes,
        inits: p.inits,
        frame,
        frame_size: size.next_multiple_of(align).max(16),
        addressed,
        uninit_flags,
        done_offset,
        local_id0,
        shared_params: shared_params.clone(),
        uniform: HashSet::new(),
        once: Vec::new(),
    };
    let (uniform, once) = uniform_locals(f, &plan, &shared_params);
    plan.uniform = uniform;
    plan.once = once;
    Ok(plan)
}

/// Per-entry state of the region emitter.
struct Emitter<'p, 'a> {
    plan: &'p Plan<'a>,
    /// Pieces run four work-items per step (`lanes/`) when the kernel
    /// allows it.
    lanes: Option<super::lanes::Plan>,
    geo: Geometry,
    arena: Value,
    /// (break, continue) targets of the loops around barriers, innermost last.
    targets: std::cell::RefCell<Vec<(cranelift_codegen::ir::Block, cranelift_codegen::ir::Block)>>,
}

impl FunctionCx<'_, '_> {
    /// Start a work-item's turn in `piece`: point its frame locals at its
    /// frame, loading promotable ones into fresh variables.
    fn enter_piece(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        lin: Option<Value>,
    ) -> (Vec<(u32, Value)>, Value) {
        let base = match lin {
            Some(lin) => {
                let off = self.b.ins().imul_imm_s(lin, em.plan.frame_size as i64);
                self.b.ins().iadd(em.arena, off)
            }
            None => em.arena,
        };
        let mut promoted = Vec::new();
        self.region_flags.clear();
        let mut used: Vec<u32> = em.plan.uses[piece]
            .iter()
            .copied()
            .filter(|l| em.plan.frame.contains_key(l))
            .collect();
        used.sort_unstable();
        for l in used {
            // A uniform local has one copy, in the first work-item's frame.
            let at = if em.plan.uniform.contains(&l) {
                em.arena
            } else {
                base
            };
            let addr = self.b.ins().iadd_imm_s(at, em.plan.frame[&l] as i64);
            let ty = self.func.locals[l as usize].ty.clone();
            let promotable = !em.plan.addressed.contains(&l)
                && (ty.is_vector() || clif_type(&ty).is_some())
                && !ty.is_array();
            if !promotable {
                self.locals[l as usize] = CPlace::Addr(addr);
                continue;
            }
            let (t, n) = match &ty {
                Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
                t => (clif_type(t).unwrap_or(types::I64), 1),
            };
            let vars: Vec<Variable> = (0..n).map(|_| self.b.declare_var(t)).collect();
            let place = CPlace::Var(vars.clone());
            if !em.plan.declares(piece, l) {
                if let Ok(v) = self.load_frame(addr, &ty) {
                    let _ = self.write_place(&place, &ty, &v);
                }
            }
            if let Some(&off) = em
                .plan
                .uninit_flags
                .get(&l)
                .filter(|_| !em.plan.uniform.contains(&l))
            {
                for (k, var) in vars.iter().enumerate() {
                    let fa = self.b.ins().iadd_imm_s(at, (off + k as u64) as i64);
                    let w = self.b.ins().load(types::I8, flags(), fa, 0);
                    if let Some(flag) = self.uninit_follow_lane(*var, l, w) {
                        self.region_flags.push((flag, fa));
                    }
                }
            }
            self.locals[l as usize] = place;
            if em.plan.writes[piece].contains(&l) {
                promoted.push((l, addr));
            }
        }
        (promoted, base)
    }

    /// End a work-item's turn: store promoted locals back to its frame.
    fn leave_piece(&mut self, promoted: &[(u32, Value)]) -> Result<(), String> {
        for (flag, at) in std::mem::take(&mut self.region_flags) {
            let w = self.b.use_var(flag);
            self.b.ins().store(flags(), w, at, 0);
        }
        for &(l, addr) in promoted {
            let ty = self.func.locals[l as usize].ty.clone();
            let place = self.locals[l as usize].clone();
            let v = match &place {
                // Saved as it is (not a read of the program's: checked
                // uninit tests nothing here).
                CPlace::Var(vars) => {
                    let lanes: Vec<Value> = vars.iter().map(|v| self.b.use_var(*v)).collect();
                    if ty.is_vector() {
                        CValue::Lanes(lanes)
                    } else {
                        CValue::from_lanes(lanes)
                    }
                }
                _ => self.unchecked(|fx| fx.read_place(&place, &ty))?,
            };
            self.unchecked(|fx| fx.store(addr, &ty, &v))?;
        }
        Ok(())
    }

    /// Run `stmts` (and `cond`, whose truth is returned as the last work-item
    /// saw it) for every work-item.
    fn piece_loop(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        // Checked mode: the group's state, its site cache, serial and first
        // serial do not change inside a piece (no barrier in it): loaded
        // once here for all its work-items.
        let saved = self.check_state.take();
        if self.checks_memory() {
            self.check_state = Some(self.load_check_state());
        }
        let r = self.piece_loop_inner(em, piece, stmts, cond);
        self.check_state = saved;
        r
    }

    /// Run `stmts` of `piece` once for the group (in the first work-item's
    /// frame, where uniform locals live).
    fn group_once(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
    ) -> Result<(), String> {
        if stmts.is_empty() {
            return Ok(());
        }
        let (promoted, _) = self.enter_piece(em, piece, None);
        for s in stmts {
            self.stmt(s)?;
        }
        self.leave_piece(&promoted)
    }

    fn piece_loop_inner(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        // The decision defaults to false: when every work-item has returned,
        // loops end and conditional barriers are skipped.
        if em.plan.once.get(piece).copied().unwrap_or(false) {
            // Every work-item would compute (and store) the same values.
            let (promoted, _) = self.enter_piece(em, piece, None);
            for s in stmts {
                self.stmt(s)?;
            }
            let d = match cond {
                Some(c) => {
                    let v = self.expr(c)?;
                    Some(self.truth(&v, &c.ty)?)
                }
                None => None,
            };
            self.leave_piece(&promoted)?;
            return Ok(d);
        }
        let (pre, post) = group_updates(stmts, &em.plan.uniform_or_shared());
        if cond.is_none() && pre + post > 0 {
            // Updates of uniform locals once for the group, around the
            // work-items' loop over the rest.
            let (first, rest) = stmts.split_at(pre);
            let (middle, last) = rest.split_at(rest.len() - post);
            self.group_once(em, piece, first)?;
            if !middle.is_empty() {
                self.piece_loop_inner(em, piece, middle, None)?;
            }
            self.group_once(em, piece, last)?;
            return Ok(None);
        }
        if let (None, None, Some((bound, then))) = (
            cond,
            em.plan.done_offset,
            guarded_by_local_id0(stmts, em.plan),
        ) {
            // Rows end at the bound: the items past it would only test it.
            let (_, _) = self.enter_piece(em, piece, None);
            let v = self.expr(bound)?.scalar()?;
            let t = self.b.func.dfg.value_type(v);
            let signed = bound.ty.elem().is_some_and(|s| s.is_signed());
            let v = self.int_resize(v, t, types::I64, signed);
            let v = if signed {
                let zero = self.b.ins().iconst(types::I64, 0);
                self.b.ins().smax(v, zero)
            } else {
                v
            };
            let end = self.b.ins().umin(v, em.geo.sizes[0]);
            match &em.lanes {
                // Four at a time while four are below the bound: the
                // condition holds for every lane, so `then` runs unmasked.
                Some(lanes) if self.pcx.schedule.is_none() => {
                    self.lanes_item_loop_to(
                        em.geo,
                        Some(end),
                        lanes.clone(),
                        |fx, lc, lin0| {
                            let back = fx.enter_piece_lanes(em, piece, lc, lin0)?;
                            lc.stmts(fx, &[then])?;
                            fx.leave_piece_lanes(lc, &back)
                        },
                        |fx, _, lin| {
                            let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                            fx.stmt(then)?;
                            fx.leave_piece(&promoted)
                        },
                    )?;
                }
                _ => self.item_loop_to(em.geo, Some(end), |fx, _, lin, _| {
                    let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                    fx.stmt(then)?;
                    fx.leave_piece(&promoted)
                })?,
            }
            return Ok(None);
        }
        if let Some(lanes) = &em.lanes {
            return self.piece_loop_lanes(em, lanes, piece, stmts, cond);
        }
        let decision = cond.map(|_| self.b.declare_var(types::I8));
        if let Some(d) = decision {
            let no = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(d, no);
        }
        let (diverge, agree) = self.decision_agreement(cond.is_some());
        self.item_loop(em.geo, |fx, _, lin, next| {
            fx.uninit_clear();
            let (promoted, base) = fx.enter_piece(em, piece, Some(lin));
            if let Some(off) = em.plan.done_offset {
                // A work-item that returned skips the rest of the kernel.
                let done = fx.b.ins().load(types::I8, flags(), base, off as i32);
                let go = fx.b.create_block();
                fx.b.ins().brif(done, next, &[], go, &[]);
                fx.terminated();
                fx.enter(go);
                fx.region_done = Some(fx.b.ins().iadd_imm_s(base, off as i64));
                fx.return_to = Some(next);
            }
            for s in stmts {
                fx.stmt(s)?;
            }
            fx.region_done = None;
            fx.return_to = None;
            if let (Some(c), Some(d)) = (cond, decision) {
                let v = fx.expr(c)?;
                let t = fx.truth(&v, &c.ty)?;
                fx.b.def_var(d, t);
                if let Some(vars) = agree {
                    fx.note_decision(vars, t, lin);
                }
            }
            fx.leave_piece(&promoted)
        })?;
        if let (Some(vars), Some(sites)) = (agree, diverge) {
            self.check_decisions(vars, sites);
        }
        Ok(decision.map(|d| self.b.use_var(d)))
    }

    /// Checked barriers: the work-items must agree on a decision that leads
    /// to a barrier. The barriers the next decision leads to, and the
    /// variables [`Self::note_decision`] keeps.
    #[allow(clippy::type_complexity)]
    fn decision_agreement(
        &mut self,
        decides: bool,
    ) -> (
        Option<(Option<crate::source::Span>, Option<crate::source::Span>)>,
        Option<[Variable; 3]>,
    ) {
        let diverge = self
            .diverge
            .take()
            .filter(|_| self.pcx.check.barriers && decides);
        let agree = diverge.map(|_| {
            let vars: [Variable; 3] = std::array::from_fn(|_| self.b.declare_var(types::I64));
            let none = self.b.ins().iconst(types::I64, -1);
            for v in vars {
                self.b.def_var(v, none);
            }
            vars
        });
        (diverge, agree)
    }

    /// Checked barriers: remember the first live work-item's decision `t`
    /// (`vars[0]`, its linear id in `vars[1]`) and the first that differs
    /// (`vars[2]`).
    fn note_decision(&mut self, vars: [Variable; 3], t: Value, lin: Value) {
        let t = self.b.ins().uextend(types::I64, t);
        let first = self.b.use_var(vars[0]);
        let first_lin = self.b.use_var(vars[1]);
        let other = self.b.use_var(vars[2]);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, first, -1);
        let first2 = self.b.ins().select(none, t, first);
        let first_lin2 = self.b.ins().select(none, lin, first_lin);
        let differs = self.b.ins().icmp(IntCC::NotEqual, t, first);
        let unset = self.b.ins().icmp_imm_s(IntCC::Equal, other, -1);
        let take = self.b.ins().band(differs, unset);
        let not_none = self.b.ins().bnot(none);
        let take = self.b.ins().band(take, not_none);
        let other2 = self.b.ins().select(take, lin, other);
        self.b.def_var(vars[0], first2);
        self.b.def_var(vars[1], first_lin2);
        self.b.def_var(vars[2], other2);
    }

    /// Checked barriers, after a decision's piece: when two work-items
    /// decided differently, report the divergence at the barrier the first
    /// one goes to (`sites`: the first barrier where the decision is true,
    /// and where it is false).
    fn check_decisions(
        &mut self,
        vars: [Variable; 3],
        sites: (Option<crate::source::Span>, Option<crate::source::Span>),
    ) {
        let site_of = |fx: &mut Self, s: Option<crate::source::Span>| -> i64 {
            match s {
                Some(span) => {
                    let saved = fx.cur_span;
                    fx.cur_span = span;
                    let id = fx.site(SiteKind::Barrier, 0, 0, false);
                    fx.cur_span = saved;
                    i64::from(id)
                }
                None => -1,
            }
        };
        let (on_true, on_false) = (site_of(self, sites.0), site_of(self, sites.1));
        let other = self.b.use_var(vars[2]);
        let mixed = self.b.ins().icmp_imm_s(IntCC::NotEqual, other, -1);
        let report = self.b.create_block();
        let after = self.b.create_block();
        self.b.ins().brif(mixed, report, &[], after, &[]);
        self.b.seal_block(report);
        self.b.switch_to_block(report);
        self.b.set_cold_block(report);
        let first = self.b.use_var(vars[0]);
        let first_lin = self.b.use_var(vars[1]);
        let st = self.b.ins().iconst(types::I64, on_true);
        let sf = self.b.ins().iconst(types::I64, on_false);
        let item = self.item;
        let f = check::cranecl_check_region_divergence as *const u8;
        self.call_host(
            f,
            &[types::I64; 6],
            &[],
            &[item, first, first_lin, other, st, sf],
        );
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
    }

    /// A barrier of the region strategy, checked: a new epoch (`races`,
    /// `uninit`), and with `barriers` every work-item must be live here.
    fn checked_region_barrier(&mut self, em: &Emitter<'_, '_>, s: &Stmt) {
        let c = self.pcx.check;
        if !(c.barriers || c.tracks()) {
            return;
        }
        let saved = self.cur_span;
        self.cur_span = barrier_span(s);
        let site = if c.barriers {
            i64::from(self.site(SiteKind::Barrier, 0, 0, false))
        } else {
            -1
        };
        self.cur_span = saved;
        let done = match em.plan.done_offset {
            Some(off) if c.barriers => off as i64,
            _ => -1,
        };
        let item = self.item;
        let site = self.b.ins().iconst(types::I64, site);
        let frame = self.b.ins().iconst(types::I64, em.plan.frame_size as i64);
        let done = self.b.ins().iconst(types::I64, done);
        let f = check::cranecl_check_region_barrier as *const u8;
        self.call_host(f, &[types::I64; 4], &[], &[item, site, frame, done]);
    }

    /// [`Self::piece_loop`] four work-items per step (`lanes/`): each
    /// lane's frame locals are loaded at the start of the step and stored
    /// back at its end; the rest of a row runs one item at a time.
    fn piece_loop_lanes(
        &mut self,
        em: &Emitter<'_, '_>,
        lanes: &super::lanes::Plan,
        piece: usize,
        stmts: &[&Stmt],
        cond: Option<&Expr>,
    ) -> Result<Option<Value>, String> {
        let decision = cond.map(|_| self.b.declare_var(types::I8));
        if let Some(d) = decision {
            let no = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(d, no);
        }
        let (diverge, agree) = self.decision_agreement(cond.is_some());
        self.lanes_item_loop(
            em.geo,
            lanes.clone(),
            |fx, lc, lin0| {
                let back = fx.enter_piece_lanes(em, piece, lc, lin0)?;
                lc.stmts(fx, stmts)?;
                if let (Some(c), Some(d)) = (cond, decision) {
                    let t = match agree {
                        Some(vars) => {
                            let ts = lc.truths(fx, c)?;
                            for (k, t) in ts.iter().enumerate() {
                                let lin = fx.b.ins().iadd_imm_s(lin0, k as i64);
                                fx.note_decision(vars, *t, lin);
                            }
                            *ts.last().ok_or("internal: no lanes")?
                        }
                        None => lc.last_truth(fx, c)?,
                    };
                    fx.b.def_var(d, t);
                }
                fx.leave_piece_lanes(lc, &back)
            },
            |fx, _, lin| {
                let (promoted, _) = fx.enter_piece(em, piece, Some(lin));
                for s in stmts {
                    fx.stmt(s)?;
                }
                if let (Some(c), Some(d)) = (cond, decision) {
                    let v = fx.expr(c)?;
                    let t = fx.truth(&v, &c.ty)?;
                    fx.b.def_var(d, t);
                    if let Some(vars) = agree {
                        fx.note_decision(vars, t, lin);
                    }
                }
                fx.leave_piece(&promoted)
            },
        )?;
        if let (Some(vars), Some(sites)) = (agree, diverge) {
            self.check_decisions(vars, sites);
        }
        Ok(decision.map(|d| self.b.use_var(d)))
    }

    /// Load the frame locals of `piece` for the four lanes of a step whose
    /// first work-item has linear index `lin0`: a local varying between the
    /// lanes gets one value per lane, any other one value (from the group's
    /// copy for a group-uniform local, else from the first lane's frame).
    /// Returns what to store back afterwards.
    fn enter_piece_lanes(
        &mut self,
        em: &Emitter<'_, '_>,
        piece: usize,
        lc: &mut super::lanes::LaneCx,
        lin0: Value,
    ) -> Result<Vec<(u32, bool, Vec<Value>)>, String> {
        use super::lanes::{packed_type, Slot, LANES};
        let fs = em.plan.frame_size as i64;
        let bases: Vec<Value> = (0..LANES as i64)
            .map(|k| {
                let lin = self.b.ins().iadd_imm_s(lin0, k);
                let off = self.b.ins().imul_imm_s(lin, fs);
                self.b.ins().iadd(em.arena, off)
            })
            .collect();
        let mut used: Vec<u32> = em.plan.uses[piece]
            .union(&em.plan.writes[piece])
            .copied()
            .filter(|l| em.plan.frame.contains_key(l))
            .collect();
        used.sort_unstable();
        used.dedup();
        let mut back = Vec::new();
        for l in used {
            let off = em.plan.frame[&l] as i64;
            let ty = self.func.locals[l as usize].ty.clone();
            let written = em.plan.writes[piece].contains(&l);
            let scalar_place = |fx: &mut Self, ty: &Type| -> CPlace {
                let (t, n) = match ty {
                    Type::Vector(s, n) => (clif_scalar(*s), *n as usize),
                    t => (clif_type(t).unwrap_or(types::I64), 1),
                };
                CPlace::Var((0..n).map(|_| fx.b.declare_var(t)).collect())
            };
            if em.plan.uniform.contains(&l) || !lc.varies_local(l) {
                // One value: the group's copy, or the first lane's (the
                // lanes of a step agree on it).
                let group_copy = em.plan.uniform.contains(&l);
                let at = if group_copy { em.arena } else { bases[0] };
                let addr = self.b.ins().iadd_imm_s(at, off);
                let place = scalar_place(self, &ty);
                if !em.plan.declares(piece, l) {
                    let v = self.load_frame(addr, &ty)?;
                    self.write_place(&place, &ty, &v)?;
                }
                self.locals[l as usize] = place;
                if written {
                    let addrs = if group_copy {
                        vec![addr]
                    } else {
                        bases
                            .iter()
                            .map(|b| self.b.ins().iadd_imm_s(*b, off))
                            .collect()
                    };
                    back.push((l, false, addrs));
                }
                continue;
            }
            if em.plan.local_id0.contains(&l) && !written {
                // A copy of `get_local_id(0)`: the lanes of a step are
                // consecutive work-items of a row, so lane k's value is
                // lane 0's + k (an affine value: packed accesses).
                let addr = self.b.ins().iadd_imm_s(bases[0], off);
                let v = self.load_frame(addr, &ty)?.scalar()?;
                lc.preset_value(l, super::lanes::LVal::Aff { base: v, step: 1 });
                continue;
            }
            let addrs: Vec<Value> = bases
                .iter()
                .map(|b| self.b.ins().iadd_imm_s(*b, off))
                .collect();
            if em.plan.declares(piece, l) {
                // Its declaration makes its storage (`LaneCx::decl`).
                back.push((l, true, addrs));
                continue;
            }
            let mut vals = Vec::with_capacity(LANES);
            for a in &addrs {
                vals.push(self.load_frame(*a, &ty)?);
            }
            let slot = match (packed_type(&ty), super::lanes::packed_components(&ty)) {
                (None, Some((vt, n))) => {
                    // One packed register per component.
                    let mut vars = Vec::with_capacity(n);
                    for c in 0..n {
                        let mut v = None;
                        for (k, val) in vals.iter().enumerate() {
                            let x = *val.lanes()?.get(c).ok_or("internal: vector lanes")?;
                            v = Some(match v {
                                None => self.b.ins().splat(vt, x),
                                Some(v) => self.b.ins().insertlane(v, x, k as u8),
                            });
                        }
                        let var = self.b.declare_var(vt);
                        self.b.def_var(var, v.ok_or("internal: no lanes")?);
                        vars.push(var);
                    }
                    Slot::PackedN(vars)
                }
                (Some(vt), _) => {
                    let xs: Vec<Value> =
                        vals.iter().map(|v| v.scalar()).collect::<Result<_, _>>()?;
                    let mut v = self.b.ins().splat(vt, xs[0]);
                    for (k, x) in xs.iter().enumerate().skip(1) {
                        v = self.b.ins().insertlane(v, *x, k as u8);
                    }
                    let var = self.b.declare_var(vt);
                    self.b.def_var(var, v);
                    Slot::Packed(var)
                }
                (None, None) => {
                    let mut places = Vec::with_capacity(LANES);
                    for v in &vals {
                        let p = scalar_place(self, &ty);
                        self.write_place(&p, &ty, v)?;
                        places.push(p);
                    }
                    Slot::Lanes(places)
                }
            };
            lc.preset(l, slot);
            if written {
                back.push((l, true, addrs));
            }
        }
        Ok(back)
    }

    /// Store what a step's piece wrote to its frame locals.
    fn leave_piece_lanes(
        &mut self,
        lc: &mut super::lanes::LaneCx,
        back: &[(u32, bool, Vec<Value>)],
    ) -> Result<(), String> {
        for (l, per_lane, addrs) in back {
            let ty = self.func.locals[*l as usize].ty.clone();
            if *per_lane {
                let vals = lc.local_lanes(self, *l)?;
                for (a, v) in addrs.iter().zip(&vals) {
                    self.unchecked(|fx| fx.store(*a, &ty, v))?;
                }
            } else {
                let place = self.locals[*l as usize].clone();
                let v = self.unchecked(|fx| fx.read_place(&place, &ty))?;
                for a in addrs {
                    self.unchecked(|fx| fx.store(*a, &ty, &v))?;
                }
            }
        }
        Ok(())
    }

    fn emit_nodes(&mut self, em: &Emitter<'_, '_>, nodes: &[Node<'_>]) -> Result<(), String> {
        for (i, n) in nodes.iter().enumerate() {
            match n {
                Node::Break | Node::Continue => {
                    let (brk, cont) = *em
                        .targets
                        .borrow()
                        .last()
                        .ok_or("internal: break outside a loop")?;
                    self.jump(if matches!(n, Node::Break) { brk } else { cont });
                }
                Node::Barrier(s) => self.checked_region_barrier(em, s),
                Node::Region(id, stmts) => {
                    // Checked races/uninit: a piece that is the whole of
                    // its barrier interval and writes no local memory
                    // reads local memory no other work-item writes then.
                    let alone = i > 0
                        && matches!(nodes[i - 1], Node::Barrier(_))
                        && matches!(nodes.get(i + 1), Some(Node::Barrier(_)));
                    self.local_read_only =
                        alone && self.pcx.check.tracks() && !writes_local_memory(self.func, stmts);
                    let r = self.piece_loop(em, *id, stmts, None);
                    self.local_read_only = false;
                    r?;
                }
                Node::If(id, c, t, e) => {
                    self.diverge = Some((first_barrier(t), first_barrier(e)));
                    let d = self
                        .piece_loop(em, *id, &[], Some(c))?
                        .ok_or("internal: no decision")?;
                    let (tb, eb, end) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().brif(d, tb, &[], eb, &[]);
                    self.terminated();
                    self.enter(tb);
                    self.emit_nodes(em, t)?;
                    self.jump(end);
                    self.enter(eb);
                    self.emit_nodes(em, e)?;
                    self.enter(end);
                }
                Node::Loop {
                    init,
                    cond,
                    step,
                    body,
                    post_test,
                } => {
                    if let Some((id, s)) = init {
                        self.piece_loop(em, *id, &[*s], None)?;
                    }
                    let (head, body_b, cont, end) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    let test = |fx: &mut Self| -> Result<(), String> {
                        match cond {
                            Some((id, c)) => {
                                fx.diverge = Some((first_barrier(body), None));
                                let d = fx
                                    .piece_loop(em, *id, &[], Some(c))?
                                    .ok_or("internal: no decision")?;
                                fx.b.ins().brif(d, body_b, &[], end, &[]);
                                fx.terminated();
                            }
                            None => fx.jump(body_b),
                        }
                        Ok(())
                    };
                    if *post_test {
                        self.enter(body_b);
                    } else {
                        self.enter(head);
                        test(self)?;
                        self.enter(body_b);
                    }
                    em.targets.borrow_mut().push((end, cont));
                    let r = self.emit_nodes(em, body);
                    em.targets.borrow_mut().pop();
                    r?;
                    self.enter(cont);
                    if let Some((id, st)) = step {
                        let st: &Expr = st;
                        let s = Stmt {
                            kind: StmtKind::Expr(st.clone()),
                            span: st.span,
                        };
                        self.piece_loop(em, *id, &[&s], None)?;
                    }
                    if *post_test {
                        test(self)?;
                    } else {
                        self.jump(head);
                    }
                    self.enter(end);
                }
            }
        }
        Ok(())
    }
}

/// Whether a decision among `nodes` that leads to a barrier is made per
/// work-item (not once for the group): checked `barriers` compares those
/// across work-items one at a time.
fn varying_decisions(nodes: &[Node<'_>], once: &[bool]) -> bool {
    let varies = |id: usize| !once.get(id).copied().unwrap_or(false);
    nodes.iter().any(|n| match n {
        Node::If(id, _, t, e) => {
            varies(*id) || varying_decisions(t, once) || varying_decisions(e, once)
        }
        Node::Loop { cond, body, .. } => {
            cond.as_ref().is_some_and(|(id, _)| varies(*id)) || varying_decisions(body, once)
        }
        _ => false,
    })
}

/// The first barrier statement among `nodes` (depth first, in order).
fn first_barrier(nodes: &[Node<'_>]) -> Option<crate::source::Span> {
    nodes.iter().find_map(|n| match n {
        Node::Barrier(s) => Some(barrier_span(s)),
        Node::If(_, _, t, e) => first_barrier(t).or_else(|| first_barrier(e)),
        Node::Loop { body, .. } => first_barrier(body),
        _ => None,
    })
}

/// Where a barrier statement's report points: its call.
fn barrier_span(s: &Stmt) -> crate::source::Span {
    match &s.kind {
        StmtKind::Expr(e) => e.span,
        _ => s.span,
    }
}

/// Compile the region entry of a kernel with barriers.
#[allow(clippy::too_many_arguments)]
pub(crate) fn compile_region_entry(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    index: usize,
    args: &[ArgInfo],
    plan: &Plan<'_>,
) -> Result<(cranelift_module::FuncId, super::lanes::Choice), String> {
    let id = abi::declare_entry(module, f, index, "regions")?;
    let refuse = if plan.done_offset.is_some() {
        Some(
            "a return in the kernel's body (pieces follow finished work-items one at a time)"
                .into(),
        )
    } else if pcx.check.barriers && varying_decisions(&plan.nodes, &plan.once) {
        Some("checked barriers compare decisions that differ between work-items".into())
    } else {
        None
    };
    // Pieces four work-items per step; anything the lanes cannot express
    // falls back to one work-item per step.
    let choice = super::lanes::choose(pcx, f, refuse, |lanes| {
        let mut lanes_fbc = FunctionBuilderContext::new();
        region_entry_body(
            module,
            pcx,
            ctx,
            &mut lanes_fbc,
            f,
            id,
            args,
            plan,
            Some(lanes),
        )
    })?;
    if choice.used == super::lanes::Use::None {
        region_entry_body(module, pcx, ctx, fbc, f, id, args, plan, None)?;
    }
    define(module, pcx, ctx, &f.name, id)?;
    Ok((id, choice))
}

/// The body of a region entry (declared as `id`).
#[allow(clippy::too_many_arguments)]
fn region_entry_body(
    module: &mut JITModule,
    pcx: &ProgramCx<'_>,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    f: &Function,
    id: cranelift_module::FuncId,
    args: &[ArgInfo],
    plan: &Plan<'_>,
    lanes: Option<super::lanes::Plan>,
) -> Result<(), String> {
    let (mut fx, vals) = start_entry(module, pcx, ctx, fbc, f, id, args)?;
    let geo = fx.load_geometry();
    let item = fx.item;
    let arena = fx.b.ins().load(types::I64, flags(), item, o::ITEM_ARENA);
    let em = Emitter {
        plan,
        lanes,
        geo,
        arena,
        targets: Default::default(),
    };
    // Shared parameters once; written ones into every work-item's frame.
    let mut next = 0;
    let mut per_item = Vec::new();
    for p in &f.params {
        let n = abi::param_count(&p.ty);
        let vs = vals
            .get(next..next + n)
            .ok_or("internal: parameter count")?
            .to_vec();
        next += n;
        let v = if super::value::is_aggregate(&p.ty) {
            CValue::Ref(vs[0])
        } else if p.ty.is_vector() {
            CValue::Lanes(vs)
        } else {
            CValue::Scalar(vs[0])
        };
        if let Some(off) = plan.frame.get(&p.local.0) {
            per_item.push((*off, p.ty.clone(), v));
        } else {
            let place = fx.locals[p.local.0 as usize].clone();
            fx.write_place(&place, &p.ty, &v)?;
        }
    }
    if !per_item.is_empty() || plan.done_offset.is_some() || !plan.uninit_flags.is_empty() {
        let frame_size = plan.frame_size as i64;
        fx.item_loop(geo, |fx, _, lin, _| {
            let off = fx.b.ins().imul_imm_s(lin, frame_size);
            let base = fx.b.ins().iadd(arena, off);
            for (l, off) in &plan.uninit_flags {
                let n = match &f.locals[*l as usize].ty {
                    Type::Vector(_, n) => u64::from(*n),
                    _ => 1,
                };
                let zero = fx.b.ins().iconst(types::I8, 0);
                for k in 0..n {
                    fx.b.ins().store(flags(), zero, base, (off + k) as i32);
                }
            }
            if let Some(off) = plan.done_offset {
                let zero = fx.b.ins().iconst(types::I8, 0);
                fx.b.ins().store(flags(), zero, base, off as i32);
            }
            for (o, ty, v) in &per_item {
                let a = fx.b.ins().iadd_imm_s(base, *o as i64);
                fx.unchecked(|fx| fx.store(a, ty, v))?;
            }
            Ok(())
        })?;
    }
    fx.emit_nodes(&em, &plan.nodes)?;
    finish_entry(fx)
}
