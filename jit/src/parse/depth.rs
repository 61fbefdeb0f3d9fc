//! How deep a parsed item's tree is, measured without recursion.
//!
//! The parser bounds its own recursion, but a left-associative chain
//! (`a + b + c ...`, `x.a.b.c`, `f()()()`) makes the tree one level deeper
//! per operator without recursing, and chains nest inside parentheses. Every
//! later phase recurses over the tree, and dropping it recurses too, so after
//! each file-scope item the parser measures the item's depth here with an
//! explicit stack and drops (on its own large stack) an item deeper than
//! [`MAX_TREE_DEPTH`], with a diagnostic.
#![forbid(unsafe_code)]

use super::ast::*;

/// The deepest tree (in nodes, expressions and statements together) the
/// parser hands on.
pub const MAX_TREE_DEPTH: u32 = 4096;

/// A node to visit and its depth.
enum Node<'t> {
    Expr(&'t Expr),
    Stmt(&'t Stmt),
    Block(&'t Block),
    Init(&'t Initializer),
    Decl(&'t Declaration),
    Specs(&'t DeclSpecifiers),
    Declarator(&'t Declarator),
    TypeName(&'t TypeName),
    Attrs(&'t [Attribute]),
}

/// The depth of an external declaration's tree, and the span of its deepest
/// expression or statement (for the diagnostic).
pub(crate) fn item_depth(item: &ExternalDecl) -> (u32, crate::source::Span) {
    let mut stack: Vec<(Node, u32)> = Vec::new();
    match item {
        ExternalDecl::Function(f) => {
            stack.push((Node::Specs(&f.specs), 1));
            stack.push((Node::Declarator(&f.declarator), 1));
            stack.push((Node::Block(&f.body), 1));
        }
        ExternalDecl::Declaration(d) => stack.push((Node::Decl(d), 1)),
        ExternalDecl::StaticAssert(s) => stack.push((Node::Expr(&s.cond), 1)),
    }
    let mut max = 0;
    let mut at = crate::source::Span::default();
    while let Some((node, d)) = stack.pop() {
        if d > max {
            max = d;
            match &node {
                Node::Expr(e) => at = e.span,
                Node::Stmt(s) => at = s.span,
                _ => {}
            }
        }
        let c = d + 1;
        match node {
            Node::Expr(e) => push_expr_children(&mut stack, e, c),
            Node::Stmt(s) => {
                stack.push((Node::Attrs(&s.attributes), c));
                push_stmt_children(&mut stack, s, c);
            }
            Node::Block(b) => {
                for item in &b.items {
                    match item {
                        BlockItem::Declaration(d) => stack.push((Node::Decl(d), c)),
                        BlockItem::Statement(s) => stack.push((Node::Stmt(s), c)),
                        BlockItem::StaticAssert(s) => stack.push((Node::Expr(&s.cond), c)),
                    }
                }
            }
            Node::Init(Initializer::Expr(e)) => stack.push((Node::Expr(e), c)),
            Node::Init(Initializer::List(items, _)) => {
                for it in items {
                    for des in &it.designators {
                        if let Designator::Index(e) = des {
                            stack.push((Node::Expr(e), c));
                        }
                    }
                    stack.push((Node::Init(&it.init), c));
                }
            }
            Node::Decl(d) => {
                stack.push((Node::Specs(&d.specs), c));
                for id in &d.declarators {
                    stack.push((Node::Declarator(&id.declarator), c));
                    if let Some(init) = &id.init {
                        stack.push((Node::Init(init), c));
                    }
                }
            }
            Node::Specs(s) => {
                stack.push((Node::Attrs(&s.attributes), c));
                for t in &s.type_specs {
                    push_type_spec_children(&mut stack, &t.node, c);
                }
            }
            Node::Declarator(d) => {
                stack.push((Node::Attrs(&d.attributes), c));
                for der in &d.derived {
                    match der {
                        DerivedDeclarator::Pointer(p) => {
                            stack.push((Node::Attrs(&p.attributes), c))
                        }
                        DerivedDeclarator::Array(a) => {
                            if let Some(e) = &a.size {
                                stack.push((Node::Expr(e), c));
                            }
                        }
                        DerivedDeclarator::Function(f) => {
                            for p in &f.params {
                                stack.push((Node::Specs(&p.specs), c));
                                stack.push((Node::Declarator(&p.declarator), c));
                            }
                        }
                    }
                }
            }
            Node::TypeName(t) => {
                stack.push((Node::Specs(&t.specs), c));
                stack.push((Node::Declarator(&t.declarator), c));
            }
            Node::Attrs(attrs) => {
                for a in attrs {
                    for arg in &a.args {
                        match arg {
                            AttributeArg::Expr(e) => stack.push((Node::Expr(e), c)),
                            AttributeArg::Type(t) => stack.push((Node::TypeName(t), c)),
                        }
                    }
                }
            }
        }
    }
    (max, at)
}

fn push_type_spec_children<'t>(stack: &mut Vec<(Node<'t>, u32)>, t: &'t TypeSpecifier, c: u32) {
    match t {
        TypeSpecifier::Struct(s) => {
            stack.push((Node::Attrs(&s.attributes), c));
            for f in s.fields.iter().flatten() {
                stack.push((Node::Specs(&f.specs), c));
                for fd in &f.declarators {
                    if let Some(d) = &fd.declarator {
                        stack.push((Node::Declarator(d), c));
                    }
                    if let Some(w) = &fd.bit_width {
                        stack.push((Node::Expr(w), c));
                    }
                }
            }
        }
        TypeSpecifier::Enum(e) => {
            stack.push((Node::Attrs(&e.attributes), c));
            for en in e.enumerators.iter().flatten() {
                stack.push((Node::Attrs(&en.attributes), c));
                if let Some(v) = &en.value {
                    stack.push((Node::Expr(v), c));
                }
            }
        }
        _ => {}
    }
}

fn push_stmt_children<'t>(stack: &mut Vec<(Node<'t>, u32)>, s: &'t Stmt, c: u32) {
    let e = |x: &'t Expr, stack: &mut Vec<(Node<'t>, u32)>| stack.push((Node::Expr(x), c));
    match &s.kind {
        StmtKind::Labeled { stmt, .. } | StmtKind::Default(stmt) => {
            stack.push((Node::Stmt(stmt), c))
        }
        StmtKind::Case { value, stmt } => {
            e(value, stack);
            stack.push((Node::Stmt(stmt), c));
        }
        StmtKind::Compound(b) => stack.push((Node::Block(b), c)),
        StmtKind::If { cond, then, else_ } => {
            e(cond, stack);
            stack.push((Node::Stmt(then), c));
            if let Some(x) = else_ {
                stack.push((Node::Stmt(x), c));
            }
        }
        StmtKind::Switch { cond, body }
        | StmtKind::While { cond, body }
        | StmtKind::DoWhile { body, cond } => {
            e(cond, stack);
            stack.push((Node::Stmt(body), c));
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            match init {
                Some(ForInit::Expr(x)) => e(x, stack),
                Some(ForInit::Declaration(d)) => stack.push((Node::Decl(d), c)),
                None => {}
            }
            for x in [cond, step].into_iter().flatten() {
                e(x, stack);
            }
            stack.push((Node::Stmt(body), c));
        }
        StmtKind::Return(Some(x)) | StmtKind::Expr(x) => e(x, stack),
        StmtKind::Return(None)
        | StmtKind::Goto(_)
        | StmtKind::Continue
        | StmtKind::Break
        | StmtKind::Null => {}
    }
}

fn push_expr_children<'t>(stack: &mut Vec<(Node<'t>, u32)>, e: &'t Expr, c: u32) {
    let mut push = |x: &'t Expr| stack.push((Node::Expr(x), c));
    match &e.kind {
        ExprKind::Ident(_)
        | ExprKind::IntLit(_)
        | ExprKind::FloatLit(_)
        | ExprKind::CharLit(_)
        | ExprKind::StringLit(_) => {}
        ExprKind::Unary { operand: x, .. }
        | ExprKind::SizeofExpr(x)
        | ExprKind::AlignofExpr(x)
        | ExprKind::VecStepExpr(x) => push(x),
        ExprKind::Binary { lhs, rhs, .. } | ExprKind::Assign { lhs, rhs, .. } => {
            push(lhs);
            push(rhs);
        }
        ExprKind::Index { base, index } => {
            push(base);
            push(index);
        }
        ExprKind::Conditional { cond, then, else_ } => {
            push(cond);
            push(then);
            push(else_);
        }
        ExprKind::Member { base, .. } => push(base),
        ExprKind::Call { callee, args } => {
            push(callee);
            args.iter().for_each(push);
        }
        ExprKind::Cast { ty, expr } => {
            push(expr);
            stack.push((Node::TypeName(ty), c));
        }
        ExprKind::VectorLiteral { ty, elems } => {
            elems.iter().for_each(&mut push);
            stack.push((Node::TypeName(ty), c));
        }
        ExprKind::CompoundLiteral { ty, init } => {
            for it in init {
                for des in &it.designators {
                    if let Designator::Index(x) = des {
                        stack.push((Node::Expr(x), c));
                    }
                }
                stack.push((Node::Init(&it.init), c));
            }
            stack.push((Node::TypeName(ty), c));
        }
        ExprKind::SizeofType(t) | ExprKind::AlignofType(t) | ExprKind::VecStepType(t) => {
            stack.push((Node::TypeName(t), c))
        }
    }
}
