//! S-expression dumps of expressions, types and statements, for tests and
//! debugging: `a + b * c` is `(+ a (* b c))`, `(float4)(x, 1)` is
//! `(vec float4 x 1)`, `v.xy` is `(. v xy)`, `int *` is `int *`.
#![forbid(unsafe_code)]

use super::ast::*;
use std::fmt::Write;

/// An expression as an S-expression.
pub fn expr(e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, e);
    s
}

fn write_expr(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Ident(n) => out.push_str(n),
        ExprKind::IntLit(l) => out.push_str(&l.spelling),
        ExprKind::FloatLit(l) => out.push_str(&l.spelling),
        ExprKind::CharLit(l) => out.push_str(&l.spelling),
        ExprKind::StringLit(s) => {
            let _ = write!(out, "{s:?}");
        }
        ExprKind::Unary { op, operand } => {
            let name = match op {
                UnaryOp::PostInc => "post++",
                UnaryOp::PostDec => "post--",
                UnaryOp::PreInc => "pre++",
                UnaryOp::PreDec => "pre--",
                o => o.as_str(),
            };
            list(out, name, &[operand]);
        }
        ExprKind::Binary { op, lhs, rhs } => list(out, op.as_str(), &[lhs, rhs]),
        ExprKind::Assign { op, lhs, rhs } => {
            let name = match op {
                None => "=".to_string(),
                Some(o) => format!("{}=", o.as_str()),
            };
            list(out, &name, &[lhs, rhs]);
        }
        ExprKind::Conditional { cond, then, else_ } => list(out, "?", &[cond, then, else_]),
        ExprKind::Cast { ty, expr } => {
            let _ = write!(out, "(cast {} ", type_name(ty));
            write_expr(out, expr);
            out.push(')');
        }
        ExprKind::VectorLiteral { ty, elems } => {
            let _ = write!(out, "(vec {}", type_name(ty));
            for el in elems {
                out.push(' ');
                write_expr(out, el);
            }
            out.push(')');
        }
        ExprKind::CompoundLiteral { ty, init } => {
            let _ = write!(out, "(compound {} ", type_name(ty));
            write_init_list(out, init);
            out.push(')');
        }
        ExprKind::SizeofExpr(x) => list(out, "sizeof", &[x]),
        ExprKind::SizeofType(t) => {
            let _ = write!(out, "(sizeof-type {})", type_name(t));
        }
        ExprKind::AlignofType(t) => {
            let _ = write!(out, "(alignof-type {})", type_name(t));
        }
        ExprKind::AlignofExpr(x) => list(out, "alignof", &[x]),
        ExprKind::VecStepExpr(x) => list(out, "vec_step", &[x]),
        ExprKind::VecStepType(t) => {
            let _ = write!(out, "(vec_step-type {})", type_name(t));
        }
        ExprKind::Call { callee, args } => {
            out.push_str("(call ");
            write_expr(out, callee);
            for a in args {
                out.push(' ');
                write_expr(out, a);
            }
            out.push(')');
        }
        ExprKind::Index { base, index } => list(out, "[]", &[base, index]),
        ExprKind::Member {
            base,
            member,
            arrow,
        } => {
            let _ = write!(out, "({} ", if *arrow { "->" } else { "." });
            write_expr(out, base);
            let _ = write!(out, " {})", member.node);
        }
    }
}

fn list(out: &mut String, head: &str, args: &[&Expr]) {
    let _ = write!(out, "({head}");
    for a in args {
        out.push(' ');
        write_expr(out, a);
    }
    out.push(')');
}

fn write_init_list(out: &mut String, items: &[InitItem]) {
    out.push('{');
    for (i, it) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        for d in &it.designators {
            match d {
                Designator::Member(m) => {
                    let _ = write!(out, ".{}", m.node);
                }
                Designator::Index(e) => {
                    out.push('[');
                    write_expr(out, e);
                    out.push(']');
                }
            }
        }
        if !it.designators.is_empty() {
            out.push_str(" = ");
        }
        write_init(out, &it.init);
    }
    out.push('}');
}

fn write_init(out: &mut String, init: &Initializer) {
    match init {
        Initializer::Expr(e) => write_expr(out, e),
        Initializer::List(items, _) => write_init_list(out, items),
    }
}

/// An initializer: `{1, .x = 2, {3}}`.
pub fn initializer(init: &Initializer) -> String {
    let mut s = String::new();
    write_init(&mut s, init);
    s
}

/// Specifiers as written, space separated (`global const float`).
pub fn specifiers(specs: &DeclSpecifiers) -> String {
    let mut words: Vec<String> = Vec::new();
    for s in &specs.storage {
        words.push(format!("{:?}", s.node).to_lowercase());
    }
    for f in &specs.functions {
        words.push(format!("{:?}", f.node).to_lowercase());
    }
    for q in &specs.qualifiers {
        words.push(qualifier(q.node).to_string());
    }
    for t in &specs.type_specs {
        words.push(type_specifier(&t.node));
    }
    words.join(" ")
}

fn qualifier(q: TypeQualifier) -> &'static str {
    match q {
        TypeQualifier::Const => "const",
        TypeQualifier::Volatile => "volatile",
        TypeQualifier::Restrict => "restrict",
        TypeQualifier::AddressSpace(a) => match a {
            AddressSpace::Global => "global",
            AddressSpace::Local => "local",
            AddressSpace::Constant => "constant",
            AddressSpace::Private => "private",
            AddressSpace::Generic => "generic",
        },
        TypeQualifier::Access(a) => match a {
            AccessQualifier::ReadOnly => "read_only",
            AccessQualifier::WriteOnly => "write_only",
            AccessQualifier::ReadWrite => "read_write",
        },
        TypeQualifier::Pipe => "pipe",
    }
}

/// One type specifier's spelling (`uint`, `float4`, `struct S`).
pub fn type_specifier(t: &TypeSpecifier) -> String {
    use TypeSpecifier::*;
    match t {
        Void => "void".into(),
        Char => "char".into(),
        Short => "short".into(),
        Int => "int".into(),
        Long => "long".into(),
        Float => "float".into(),
        Double => "double".into(),
        Half => "half".into(),
        Bool => "bool".into(),
        Signed => "signed".into(),
        Unsigned => "unsigned".into(),
        Scalar(s) => s.name().into(),
        Vector(s, n) => format!("{}{n}", s.name()),
        Opaque(o) => o.name().into(),
        Atomic(s) => format!("atomic_{}", s.name()),
        Struct(s) => {
            let kw = match s.kind {
                StructKind::Struct => "struct",
                StructKind::Union => "union",
            };
            match &s.name {
                Some(n) => format!("{kw} {}", n.node),
                None => format!("{kw} <anonymous>"),
            }
        }
        Enum(e) => match &e.name {
            Some(n) => format!("enum {}", n.node),
            None => "enum <anonymous>".into(),
        },
        TypedefName(n) => n.clone(),
        Invalid => "<invalid>".into(),
    }
}

/// A declarator's shape around its name: `*p`, `a[4]`, `(*f)(int, float)`.
pub fn declarator(d: &Declarator) -> String {
    let mut s = d.name_str().unwrap_or("").to_string();
    // Walk from the name outward, adding parentheses where a pointer is
    // followed by an array or function.
    let mut prev_ptr = false;
    for part in &d.derived {
        match part {
            DerivedDeclarator::Pointer(p) => {
                let quals: Vec<&str> = p.qualifiers.iter().map(|q| qualifier(q.node)).collect();
                if quals.is_empty() {
                    s = format!("*{s}");
                } else {
                    s = format!("* {} {s}", quals.join(" "));
                }
                prev_ptr = true;
                continue;
            }
            DerivedDeclarator::Array(a) => {
                if prev_ptr {
                    s = format!("({s})");
                }
                match &a.size {
                    Some(e) => s = format!("{s}[{}]", expr(e)),
                    None => s.push_str("[]"),
                }
            }
            DerivedDeclarator::Function(f) => {
                if prev_ptr {
                    s = format!("({s})");
                }
                let mut ps: Vec<String> = f
                    .params
                    .iter()
                    .map(|p| {
                        let d = declarator(&p.declarator);
                        let sp = specifiers(&p.specs);
                        if d.is_empty() {
                            sp
                        } else {
                            format!("{sp} {d}")
                        }
                    })
                    .collect();
                if f.variadic {
                    ps.push("...".into());
                }
                s = format!("{s}({})", ps.join(", "));
            }
        }
        prev_ptr = false;
    }
    s.trim().to_string()
}

/// A type name: `global float *`, `float4`, `int (*)(int)`.
pub fn type_name(t: &TypeName) -> String {
    let d = declarator(&t.declarator);
    let s = specifiers(&t.specs);
    if d.is_empty() {
        s
    } else {
        format!("{s} {d}")
    }
}
