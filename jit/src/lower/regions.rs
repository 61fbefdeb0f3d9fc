//! The region strategy's analysis: a kernel body cut into regions at its
//! barriers ([`plan`]), each region to run as a loop over the work-items
//! of the group (`codegen/regions.rs` emits the region entry).
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
//! initialiser and step is a *piece* ([`Node`]), run by all work-items in
//! turn. A control statement around barriers runs its condition piece,
//! then branches on the value the last work-item computed (they all agree).
//! The [`Plan`] records the locals each piece uses, writes and declares; a
//! private variable used in two pieces or more lives in the work-item's
//! *frame* in the private arena (one frame per work-item, its offset in
//! `Plan::frame`). Kernel parameters that are never written stay shared by
//! the whole group.
//! A local whose value is the same in every work-item (built from constants,
//! unwritten parameters, group-wide queries and other such locals, and
//! written only by such pieces or a top-level declaration — the loop
//! variable of a tree reduction) has one copy, in the first work-item's
//! frame, and a condition, loop initialiser or step touching only such
//! values runs once per group instead of once per work-item
//! ([`uniform_locals`]).

use super::walk;
use crate::codegen::clif_type;
use crate::sema::hir::{Expr, ExprKind, Function, Program, Stmt, StmtKind, VarRef};
use crate::sema::types::Type;
use std::collections::{HashMap, HashSet};

/// A kernel body cut at its barriers.
pub(crate) enum Node<'a> {
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
    pub(crate) nodes: Vec<Node<'a>>,
    /// Locals each piece refers to.
    pub(crate) uses: Vec<HashSet<u32>>,
    /// Locals each piece may write (declares, assigns, increments): only
    /// those are stored back to the frame after a work-item's turn.
    pub(crate) writes: Vec<HashSet<u32>>,
    /// Locals each piece declares with a value among its own statements
    /// (not nested): their frame copy is not loaded at the piece's start,
    /// the declaration gives them their value before any read.
    inits: Vec<HashSet<u32>>,
    /// Offset of each frame-resident local in the work-item's frame.
    pub(crate) frame: HashMap<u32, u64>,
    pub(crate) frame_size: u64,
    /// Locals whose address is taken (used in place, never promoted).
    pub(crate) addressed: HashSet<u32>,
    /// Where a work-item's "has returned" flag lives in its frame, when the
    /// body has a `return` (a returned item skips every later piece).
    pub(crate) done_offset: Option<u64>,
    /// Locals holding `get_local_id(0)` (declared with it, never written).
    pub(crate) local_id0: HashSet<u32>,
    /// Parameters the body never writes (the same for every work-item).
    shared_params: HashSet<u32>,
    /// Checked uninit: where each followed frame local's "written" flags
    /// (a byte per lane) are in the frame.
    pub(crate) uninit_flags: HashMap<u32, u64>,
    /// Frame locals whose value is the same in every work-item (see
    /// [`uniform_locals`]): one copy, in the first work-item's frame.
    pub(crate) uniform: HashSet<u32>,
    /// Pieces run once per group instead of once per work-item: conditions,
    /// loop initialisers and steps that read and write only uniform values.
    pub(crate) once: Vec<bool>,
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
pub(crate) fn writes_local_memory(f: &Function, stmts: &[&Stmt]) -> bool {
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
pub(crate) fn guarded_by_local_id0<'s>(
    stmts: &[&'s Stmt],
    plan: &Plan<'_>,
) -> Option<(&'s Expr, &'s Stmt)> {
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
    pub(crate) fn declares(&self, piece: usize, l: u32) -> bool {
        self.inits[piece].contains(&l) && !self.uninit_flags.contains_key(&l)
    }

    /// The locals holding one value for the whole group: the uniform ones
    /// and the parameters no work-item writes (what `uniform_locals` ended
    /// with).
    pub(crate) fn uniform_or_shared(&self) -> HashSet<u32> {
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
pub(crate) fn group_updates(stmts: &[&Stmt], uni: &HashSet<u32>) -> (usize, usize) {
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

/// Whether a decision among `nodes` that leads to a barrier is made per
/// work-item (not once for the group): checked `barriers` compares those
/// across work-items one at a time.
pub(crate) fn varying_decisions(nodes: &[Node<'_>], once: &[bool]) -> bool {
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
pub(crate) fn first_barrier(nodes: &[Node<'_>]) -> Option<crate::source::Span> {
    nodes.iter().find_map(|n| match n {
        Node::Barrier(s) => Some(barrier_span(s)),
        Node::If(_, _, t, e) => first_barrier(t).or_else(|| first_barrier(e)),
        Node::Loop { body, .. } => first_barrier(body),
        _ => None,
    })
}

/// Where a barrier statement's report points: its call.
pub(crate) fn barrier_span(s: &Stmt) -> crate::source::Span {
    match &s.kind {
        StmtKind::Expr(e) => e.span,
        _ => s.span,
    }
}
