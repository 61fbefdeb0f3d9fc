//! Independent forward progress: which loops may wait for another
//! work-item.
//!
//! A work-item that waits in a loop for another one to act can only learn
//! of that act through memory the other writes, and the memory model lets
//! it read such memory without a data race only through an atomic
//! operation (or, by custom, a `volatile` object). An expression
//! *observes* other work-items when it uses the result of an atomic
//! built-in, reads a `volatile` object, or calls a function of the program
//! that does; an atomic whose result is dropped (`atomic_inc(&n);`, a
//! histogram's counting) observes nothing. A loop *waits* when whether it
//! goes on depends on what it observed: its condition observes, or reads a
//! private variable (or memory the loop stored into) whose value (or whose
//! assignment: control dependence) depends on an observation in the loop,
//! or a `break`, `return` or `goto`
//! out of it is taken under such a condition. A loop that only uses what it
//! observed (an index taken with `atomic_inc` to append to a list, hashcat's
//! found-hash flags) ends as it would alone, and so does one that retries a
//! compare-and-exchange with an expectation it takes afresh on every pass
//! (`do old = *p; while (atomic_cmpxchg(p, old, f(old)) != old)`, a float
//! added atomically): it repeats only when another work-item's exchange
//! succeeded in between, which none of its group can while it runs
//! (lock-free, where a spin lock `while (atomic_cmpxchg(l, 0, 1) != 0)`
//! expects a constant and waits). A `goto` taken under such a condition may
//! close a loop that waits too.
//!
//! A kernel with such a loop runs as coroutines (`plan_strategy`), and the
//! loop lets the other work-items of its group run once in a while
//! (`codegen/stmt.rs`, `runtime::cranecl_progress`): a sub-group that waits
//! for another never keeps it from running, which is what
//! `CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS` promises (and
//! `cl_khr_subgroups` requires).

use super::walk;
use crate::sema::builtins::Family;
use crate::sema::hir::{
    BinOp, CastKind, Expr, ExprKind, FuncId, Function, Init, Program, Stmt, StmtKind, UnOp, VarRef,
};
use crate::sema::types::Type;
use crate::source::{SourceMap, Span};
use std::collections::{HashMap, HashSet};

/// Whether the loop `for (; c; step) body` (or a `while`/`do` loop, without
/// a step) of function `func` may wait for another work-item.
pub fn loop_waits(
    prog: &Program,
    func: &Function,
    c: Option<&Expr>,
    step: Option<&Expr>,
    body: &Stmt,
) -> bool {
    if c.is_some_and(|c| retries(c, body)) {
        return false;
    }
    let mut cx = Cx::new(prog, func);
    let step = step.map(|e| Stmt {
        kind: StmtKind::Expr(e.clone()),
        span: e.span,
    });
    let mut stmts: Vec<&Stmt> = vec![body];
    stmts.extend(step.as_ref());
    let (tainted, exits) = cx.taint(&stmts);
    !exits.is_empty() || c.is_some_and(|c| cx.tainted(c, &tainted))
}

/// The `goto`s of function `func` that may close a loop that waits: those
/// taken under a condition that depends on an observation.
pub fn waiting_gotos(prog: &Program, func: &Function) -> HashSet<*const Stmt> {
    let Some(body) = &func.body else {
        return HashSet::new();
    };
    let mut cx = Cx::new(prog, func);
    let stmts: Vec<&Stmt> = body.stmts.iter().collect();
    let (_, exits) = cx.taint(&stmts);
    exits
        .into_iter()
        .filter_map(|(s, goto)| goto.then_some(s))
        .collect()
}

/// Where the first loop (or `goto`) of kernel `f` and the functions it
/// calls that may wait for another work-item is.
pub fn waiting_loop(prog: &Program, f: FuncId) -> Option<Span> {
    walk::reachable(prog, f).into_iter().find_map(|func| {
        let body = func.body.as_ref()?;
        let gotos = waiting_gotos(prog, func);
        let mut found = None;
        for s in &body.stmts {
            each_stmt(s, &mut |s| {
                let waits = found.is_none()
                    && match &s.kind {
                        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                            loop_waits(prog, func, Some(c), None, b)
                        }
                        StmtKind::For(_, c, step, b) => {
                            loop_waits(prog, func, c.as_ref(), step.as_ref(), b)
                        }
                        StmtKind::Goto(_) => gotos.contains(&(s as *const Stmt)),
                        _ => false,
                    };
                if waits {
                    found = Some(s.span);
                }
            });
        }
        found
    })
}

/// Why a kernel whose loop at `at` may wait runs as coroutines, naming
/// the loop (`CRANECL_EXPLAIN`).
pub fn waiting_note(sources: Option<&SourceMap>, at: Span) -> String {
    super::explain::note_at(
        sources,
        at,
        "a loop may wait for another work-item (an atomic's result or a volatile read \
         decides it): coroutines that let the others run in it, so that sub-groups make \
         independent forward progress",
    )
}

/// `s` and every statement nested in it.
fn each_stmt(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    f(s);
    walk::sub_stmts(s, &mut |t| each_stmt(t, f));
}

/// The analysis of one loop or function: which functions of the program
/// observe (computed once each).
struct Cx<'p> {
    prog: &'p Program,
    funcs: HashMap<FuncId, bool>,
    /// The variables of the function whose address is taken: a store
    /// through a pointer may write them.
    aliased: HashSet<u32>,
}

/// Stands in the taint sets for everything stored through a pointer
/// (private arrays, local and global memory), as one place: a loop that
/// keeps what it observed there and tests it again waits as if it kept it
/// in a variable.
const MEMORY: u32 = u32::MAX;

/// The exits taken under a condition that depends on an observation, each
/// with whether it is a `goto`.
type Exits = Vec<(*const Stmt, bool)>;

/// Where a statement is, for the taint walk: under a condition that
/// depends on an observation, and inside a loop or `switch` nested in the
/// one analysed (whose `break`s stay inside).
#[derive(Clone, Copy)]
struct At {
    tainted: bool,
    nested: bool,
}

impl<'p> Cx<'p> {
    fn new(prog: &'p Program, func: &Function) -> Self {
        Cx {
            prog,
            funcs: HashMap::new(),
            aliased: walk::address_taken_locals(func),
        }
    }

    /// The private variables whose values depend on an observation in
    /// `stmts` (their values or their assignments), and the exits (`break`
    /// of the analysed loop, `return`, `goto`) taken under a condition that
    /// does: repeated until no more variables are found.
    fn taint(&mut self, stmts: &[&Stmt]) -> (HashSet<u32>, Exits) {
        let mut tainted = HashSet::new();
        loop {
            let before = tainted.len();
            let mut exits = Exits::new();
            let at = At {
                tainted: false,
                nested: false,
            };
            for s in stmts {
                self.taint_stmt(s, at, &mut tainted, &mut exits);
            }
            if tainted.len() == before {
                return (tainted, exits);
            }
        }
    }

    fn taint_stmt(&mut self, s: &Stmt, at: At, t: &mut HashSet<u32>, exits: &mut Exits) {
        let under = |cx: &mut Self, c: &Expr, t: &HashSet<u32>, nested: bool| At {
            tainted: at.tainted || cx.tainted(c, t),
            nested: at.nested || nested,
        };
        match &s.kind {
            StmtKind::Decl(l, Some(init)) => {
                let mut dep = at.tainted;
                init_exprs(init, &mut |e| {
                    self.taint_expr(e, at, t);
                    dep = dep || self.tainted(e, t);
                });
                if dep {
                    t.insert(l.0);
                }
            }
            StmtKind::Decl(_, None) | StmtKind::Empty | StmtKind::Continue => {}
            StmtKind::Expr(e) => self.taint_expr(e, at, t),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.taint_expr(e, at, t);
                }
                if at.tainted {
                    exits.push((s, false));
                }
            }
            StmtKind::Goto(_) => {
                if at.tainted {
                    exits.push((s, true));
                }
            }
            StmtKind::Break => {
                if at.tainted && !at.nested {
                    exits.push((s, false));
                }
            }
            StmtKind::Block(b) => b
                .stmts
                .iter()
                .for_each(|s| self.taint_stmt(s, at, t, exits)),
            StmtKind::If(c, th, el) => {
                self.taint_expr(c, at, t);
                let inner = under(self, c, t, false);
                self.taint_stmt(th, inner, t, exits);
                if let Some(el) = el {
                    self.taint_stmt(el, inner, t, exits);
                }
            }
            StmtKind::Switch(c, body) => {
                self.taint_expr(c, at, t);
                let inner = under(self, c, t, true);
                self.taint_stmt(body, inner, t, exits);
            }
            StmtKind::While(c, body) | StmtKind::DoWhile(body, c) => {
                self.taint_expr(c, at, t);
                let inner = under(self, c, t, true);
                self.taint_stmt(body, inner, t, exits);
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.taint_stmt(i, at, t, exits);
                }
                let inner = match c {
                    Some(c) => {
                        self.taint_expr(c, at, t);
                        under(self, c, t, true)
                    }
                    None => At {
                        tainted: at.tainted,
                        nested: true,
                    },
                };
                if let Some(st) = step {
                    self.taint_expr(st, inner, t);
                }
                self.taint_stmt(body, inner, t, exits);
            }
            StmtKind::Case(_, s) | StmtKind::Default(s) | StmtKind::Label(_, s) => {
                self.taint_stmt(s, at, t, exits)
            }
        }
    }

    /// The variables `e` assigns that come to depend on an observation: by
    /// the value assigned, by the place (`at`), or written through their
    /// address by an atomic built-in (a C11 compare-and-exchange's
    /// expectation) or by a function that observes.
    fn taint_expr(&mut self, e: &Expr, at: At, t: &mut HashSet<u32>) {
        let (mut found, mut calls) = (Vec::new(), Vec::new());
        walk::expr_tree(e, &mut |x| match &x.kind {
            ExprKind::Assign { op, lhs, rhs, .. } => {
                let l = place(lhs).map_or(MEMORY, |p| p.0);
                found.push((l, &**lhs, Some((&**rhs, op.is_some()))));
            }
            ExprKind::IncDec { operand, .. } => {
                let l = place(operand).map_or(MEMORY, |p| p.0);
                found.push((l, &**operand, None));
            }
            ExprKind::Builtin(b, args)
                if matches!(b.family, Family::Atomic | Family::AtomicC11) =>
            {
                t.extend(args.iter().filter_map(address_of_local));
            }
            ExprKind::Call(f, args) => calls.push((*f, args)),
            _ => {}
        });
        // A function that observes may write what it observed through the
        // address of a variable it is given.
        for (f, args) in calls {
            if self.func_observes(f) {
                t.extend(args.iter().filter_map(address_of_local));
            }
        }
        for (l, lhs, rhs) in found {
            let dep = at.tainted
                || match rhs {
                    Some((r, compound)) => self.tainted(r, t) || (compound && t.contains(&l)),
                    None => t.contains(&l),
                }
                // A store through a pointer to a place that depends on one.
                || (l == MEMORY && self.tainted(lhs, t));
            if dep {
                t.insert(l);
            }
        }
    }

    /// Whether `e`'s value depends on an observation: it observes, or reads
    /// a variable of `t` (or memory through a pointer, when `t` holds
    /// [`MEMORY`]).
    fn tainted(&mut self, e: &Expr, t: &HashSet<u32>) -> bool {
        let mut reads = false;
        walk::expr_tree(e, &mut |x| match &x.kind {
            // A read, and the reads of an increment or a compound assignment.
            ExprKind::Cast(CastKind::LvalueToRvalue, a)
            | ExprKind::IncDec { operand: a, .. }
            | ExprKind::Assign {
                op: Some(_),
                lhs: a,
                ..
            } => {
                reads = reads
                    || match place(a) {
                        Some((l, _)) => {
                            t.contains(&l) || (self.aliased.contains(&l) && t.contains(&MEMORY))
                        }
                        None => t.contains(&MEMORY),
                    }
            }
            _ => {}
        });
        reads || self.observes(e, true)
    }

    /// Whether function `f` observes other work-items anywhere (outside
    /// retry loops).
    fn func_observes(&mut self, f: FuncId) -> bool {
        if let Some(&v) = self.funcs.get(&f) {
            return v;
        }
        // A call back into a function being looked at adds nothing.
        self.funcs.insert(f, false);
        let prog = self.prog;
        let v = prog
            .functions
            .get(f.0 as usize)
            .and_then(|f| f.body.as_ref())
            .is_some_and(|b| b.stmts.iter().any(|s| self.stmt_observes(s)));
        self.funcs.insert(f, v);
        v
    }

    /// Whether `s` (with its nested statements) observes other work-items.
    fn stmt_observes(&mut self, s: &Stmt) -> bool {
        let mut found = false;
        match &s.kind {
            // A retry loop ends without waiting (a loop nested in it is
            // judged on its own).
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) if retries(c, b) => return false,
            StmtKind::For(_, Some(c), _, b) if retries(c, b) => return false,
            // An expression statement's value is dropped, and so is a
            // `for`'s step.
            StmtKind::Expr(e) => found = self.observes(e, false),
            StmtKind::For(_, c, step, _) => {
                found = c.as_ref().is_some_and(|c| self.observes(c, true))
                    || step.as_ref().is_some_and(|e| self.observes(e, false))
            }
            _ => walk::own_exprs(s, &mut |e| found = found || self.observes(e, true)),
        }
        walk::sub_stmts(s, &mut |t| found = found || self.stmt_observes(t));
        found
    }

    /// Whether evaluating `e` observes other work-items; `used`: whether
    /// its value is used (an atomic's result that is dropped observes
    /// nothing).
    fn observes(&mut self, e: &Expr, used: bool) -> bool {
        let here = match &e.kind {
            ExprKind::Builtin(b, _) => {
                used && matches!(b.family, Family::Atomic | Family::AtomicC11) && e.ty != Type::Void
            }
            ExprKind::Cast(CastKind::LvalueToRvalue, a) => a.quals.volatile,
            // A compound assignment or an increment reads its object first.
            ExprKind::Assign {
                op: Some(_), lhs, ..
            } => lhs.quals.volatile,
            ExprKind::IncDec { operand, .. } => operand.quals.volatile,
            ExprKind::Call(f, _) => self.func_observes(*f),
            _ => false,
        };
        if here {
            return true;
        }
        match &e.kind {
            ExprKind::Cast(CastKind::ToVoid, a) => self.observes(a, false),
            ExprKind::Comma(a, b) => self.observes(a, false) || self.observes(b, used),
            _ => {
                let mut found = false;
                walk::children(e, &mut |c| found = found || self.observes(c, true));
                found
            }
        }
    }
}

/// Every root expression of an initialiser.
fn init_exprs<'e>(i: &'e Init, f: &mut dyn FnMut(&'e Expr)) {
    match i {
        Init::Expr(e) => f(e),
        Init::Array(v) | Init::Struct(v) => v.iter().for_each(|i| init_exprs(i, f)),
        Init::Union(_, i) => init_exprs(i, f),
        Init::Zero => {}
    }
}

/// Whether a loop with condition `c` retries a compare-and-exchange until
/// it succeeds, with an expectation `e` it takes afresh on every pass:
/// `atomic_cmpxchg(p, e, d) != e` (either side; `atom_cmpxchg` too) where
/// the body assigns `e`, and never a constant; or
/// `!atomic_compare_exchange_*(p, &e, ...)`, which writes the value it
/// found into `e`, where the body assigns `e` no constant.
fn retries(c: &Expr, body: &Stmt) -> bool {
    let c = bare(c);
    let (e, found_writes) = match &c.kind {
        ExprKind::Binary(BinOp::Ne, a, b) => {
            let (a, b) = (bare(a), bare(b));
            let (cas, other) = if is_cmpxchg(a) { (a, b) } else { (b, a) };
            let ExprKind::Builtin(f, args) = &cas.kind else {
                return false;
            };
            if !matches!(f.name.as_str(), "atomic_cmpxchg" | "atom_cmpxchg") || args.len() != 3 {
                return false;
            }
            match (place(&args[1]), place(other)) {
                (Some(x), Some(y)) if x == y => (x, false),
                _ => return false,
            }
        }
        ExprKind::Unary(UnOp::LogNot, a) => {
            let ExprKind::Builtin(f, args) = &bare(a).kind else {
                return false;
            };
            if !f.name.starts_with("atomic_compare_exchange_") || args.len() < 3 {
                return false;
            }
            match &bare(&args[1]).kind {
                ExprKind::AddrOf(x) => match place(x) {
                    Some(x) => (x, true),
                    None => return false,
                },
                _ => return false,
            }
        }
        _ => return false,
    };
    // The assignments of the body to `e`'s variable (any part of it).
    let (mut fresh, mut constant) = (found_writes, false);
    walk::stmt_exprs(body, &mut |x| match &x.kind {
        ExprKind::Assign { lhs, rhs, .. } if place(lhs).is_some_and(|p| p.0 == e.0) => {
            let r = bare(rhs);
            if walk::int_value(r).is_some() || matches!(r.kind, ExprKind::FloatConst(_)) {
                constant = true;
            } else {
                fresh = true;
            }
        }
        ExprKind::IncDec { operand, .. } if place(operand).is_some_and(|p| p.0 == e.0) => {
            fresh = true
        }
        _ => {}
    });
    fresh && !constant
}

/// Whether `e` is a call of `atomic_cmpxchg`/`atom_cmpxchg`.
fn is_cmpxchg(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Builtin(f, _) if f.name.ends_with("_cmpxchg"))
}

/// The private variable whose address (or whose array, decayed) `e` is.
fn address_of_local(e: &Expr) -> Option<u32> {
    match &bare(e).kind {
        ExprKind::AddrOf(p) | ExprKind::Cast(CastKind::ArrayToPointer, p) => place(p).map(|p| p.0),
        _ => None,
    }
}

/// `e` without the conversions around it (reads, integer and pointer
/// casts).
fn bare(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(
            CastKind::LvalueToRvalue
            | CastKind::IntToInt
            | CastKind::NoOp
            | CastKind::Bitcast
            | CastKind::ToGeneric,
            a,
        ) => bare(a),
        _ => e,
    }
}

/// A private variable or a member of one, as (the variable, the members
/// from it outwards).
fn place(e: &Expr) -> Option<(u32, Vec<usize>)> {
    match &bare(e).kind {
        ExprKind::Var(VarRef::Local(l)) => Some((l.0, Vec::new())),
        ExprKind::Member(a, m) => place(a).map(|(l, mut path)| {
            path.push(*m);
            (l, path)
        }),
        _ => None,
    }
}
