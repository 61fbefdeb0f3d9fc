//! Declarations (C99 6.7, OpenCL C 6.5–6.11): specifiers, declarators,
//! struct/union/enum bodies and function definitions (attributes are in
//! `attr`, initializers in `init`).
//!
//! ```text
//! external-decl = static-assert | decl-specs (";" | declarator (body | init-decls ";"))
//! decl-specs    = (storage | qualifier | address-space | access | "kernel" | "inline"
//!                 | attribute | type-specifier)+
//! declarator    = attribute* ("*" (qualifier | attribute)*)* direct
//!                 ("[" .. "]" | "(" params ")")* attribute*
//! direct        = ident | "(" declarator ")" | ε (abstract)
//! ```
//!
//! A declarator's derivations are collected in reading order from the name
//! (see `ast::Declarator::derived`): the nested declarator's, then the
//! suffixes left to right, then the pointers right to left.
#![forbid(unsafe_code)]

use super::ast::*;
use super::attr::is_attribute_kw;
use super::keywords;
use super::{Fail, Ordinary, PResult, Parser};
use crate::source::{Span, Spanned};
use crate::token::{Punct, TokenKind};

/// What a declarator may be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum DeclMode {
    /// Must declare a name (variables, fields, functions).
    Named,
    /// Must not (type names in casts, `sizeof`).
    Abstract,
    /// Either (parameters).
    Either,
}

impl<'a> Parser<'a> {
    // ----- lookahead -----

    /// Whether the token `n` ahead starts a type name: a type specifier or
    /// qualifier keyword, `struct`/`union`/`enum`, an attribute, or a typedef
    /// name.
    pub(crate) fn starts_type_name_at(&self, n: usize) -> bool {
        let Some(s) = self.ident_at(n) else {
            return false;
        };
        let v = self.opts.opencl_c_version;
        keywords::keyword_type_specifier(s).is_some()
            || keywords::type_qualifier(s, v).is_some()
            // `(__attribute__((packed)) float4)(...)`: no expression starts
            // with an attribute, so it can only open a type name.
            || is_attribute_kw(s)
            || (s == "pipe" && v >= 200)
            || matches!(s, "struct" | "union" | "enum")
            || self.is_typedef_name(s)
    }

    /// Whether the cursor starts a declaration (or a `_Static_assert`).
    pub(crate) fn starts_declaration(&self) -> bool {
        let Some(s) = self.ident() else {
            return false;
        };
        self.starts_type_name_at(0)
            || keywords::storage_class(s).is_some()
            || keywords::function_specifier(s).is_some()
            || is_attribute_kw(s)
            || s == "_Static_assert"
    }

    /// An identifier that names nothing known, followed by another identifier
    /// (`foo_t x`): a declaration with an unknown type name.
    pub(crate) fn unknown_type_then_ident(&self) -> bool {
        match (self.ident(), self.ident_at(1)) {
            (Some(a), Some(b)) => {
                !self.is_keyword(a)
                    && self.lookup(a).is_none()
                    && !matches!(self.peek_at(1).kind, TokenKind::Punct(_))
                    && !is_attribute_kw(b)
            }
            _ => false,
        }
    }

    // ----- specifiers -----

    /// `decl-specs`. In a parameter list (`params`), an unknown identifier
    /// where a type must be is reported as an unknown type name.
    pub(crate) fn decl_specifiers(&mut self, params: bool) -> PResult<DeclSpecifiers> {
        let start = self.loc();
        let first_pos = self.pos;
        let mut specs = DeclSpecifiers::default();
        self.implicit_semi = false;
        let v = self.opts.opencl_c_version;
        while let Some(s) = self.ident() {
            let loc = self.loc();
            if let Some(sc) = keywords::storage_class(s) {
                self.bump();
                specs.storage.push(Spanned::new(sc, loc));
            } else if let Some(q) = keywords::type_qualifier(s, v) {
                self.bump();
                specs.qualifiers.push(Spanned::new(q, loc));
            } else if s == "pipe" && v >= 200 {
                self.bump();
                specs
                    .qualifiers
                    .push(Spanned::new(TypeQualifier::Pipe, loc));
            } else if let Some(f) = keywords::function_specifier(s) {
                self.bump();
                specs.functions.push(Spanned::new(f, loc));
            } else if is_attribute_kw(s) {
                let attrs = self.attributes()?;
                specs.attributes.extend(attrs);
            } else if let Some(ts) = keywords::keyword_type_specifier(s) {
                self.bump();
                specs.type_specs.push(Spanned::new(ts, loc));
            } else if s == "struct" || s == "union" {
                let st = self.struct_spec()?;
                let span = st.span;
                let body = st.fields.is_some();
                specs
                    .type_specs
                    .push(Spanned::new(TypeSpecifier::Struct(st), span));
                if body && self.missing_semi_after_tag(s) {
                    break;
                }
            } else if s == "enum" {
                let en = self.enum_spec()?;
                let span = en.span;
                let body = en.enumerators.is_some();
                specs
                    .type_specs
                    .push(Spanned::new(TypeSpecifier::Enum(en), span));
                if body && self.missing_semi_after_tag(s) {
                    break;
                }
            } else if specs.type_specs.is_empty() && !self.is_keyword(s) {
                // A typedef name is a type only where no type specifier was
                // written yet (`typedef int T; { unsigned T; }` declares T).
                if self.is_typedef_name(s) {
                    self.bump();
                    let ts = keywords::builtin_type_name(s)
                        .filter(|_| self.scopes.iter().all(|sc| !sc.contains_key(s)))
                        .unwrap_or_else(|| TypeSpecifier::TypedefName(s.to_string()));
                    specs.type_specs.push(Spanned::new(ts, loc));
                } else if self.lookup(s).is_none()
                    && (params
                        || matches!(self.peek_at(1).kind, TokenKind::Ident(_))
                        || self.is_at(1, Punct::Star))
                {
                    self.error(loc, format!("unknown type name '{s}'"));
                    self.bump();
                    specs
                        .type_specs
                        .push(Spanned::new(TypeSpecifier::Invalid, loc));
                } else {
                    break;
                }
            } else {
                break;
            }
        }
        specs.span = if self.pos > first_pos {
            start.to(self.prev_loc())
        } else {
            Span::new(start.file, start.lo, start.lo)
        };
        Ok(specs)
    }

    /// After `struct S { ... }`, a type specifier cannot follow: report
    /// `expected ';' after struct` and end the declaration there (as if the
    /// `;` had been written; the caller sees `implicit_semi`).
    fn missing_semi_after_tag(&mut self, kw: &str) -> bool {
        let Some(next) = self.ident() else {
            return false;
        };
        let is_type = keywords::keyword_type_specifier(next).is_some()
            || matches!(next, "struct" | "union" | "enum")
            || (keywords::builtin_type_name(next).is_some() && self.is_typedef_name(next));
        if is_type {
            self.error(self.after_prev(), format!("expected ';' after {kw}"));
            self.implicit_semi = true;
        }
        is_type
    }

    /// `struct-or-union attribute* ident? ("{" field* "}" attribute*)?`
    fn struct_spec(&mut self) -> PResult<StructSpec> {
        let kw = self.bump();
        let start = kw.loc();
        let kind = if kw.is_ident("union") {
            StructKind::Union
        } else {
            StructKind::Struct
        };
        let mut attributes = self.attributes()?;
        let name = self.tag_name();
        let mut fields = None;
        if self.is(Punct::LBrace) {
            let open = self.bump().loc();
            let mut list = Vec::new();
            while !self.is(Punct::RBrace) && !self.at_eof() {
                let before = self.pos;
                if self.eat(Punct::Semi) {
                    continue;
                }
                match self.nested(|p| p.field_decl()) {
                    Ok(Some(f)) => list.push(f),
                    Ok(None) => {}
                    Err(Fail) => self.skip_to_stmt_end(),
                }
                if self.pos == before && !self.is(Punct::RBrace) {
                    self.bump();
                }
            }
            self.expect_close(Punct::RBrace, Punct::LBrace, open)?;
            fields = Some(list);
            attributes.extend(self.attributes()?);
        }
        if name.is_none() && fields.is_none() {
            let what = if kind == StructKind::Union {
                "union"
            } else {
                "struct"
            };
            self.error(
                start,
                format!("declaration of anonymous {what} must be a definition"),
            );
            return Err(Fail);
        }
        Ok(StructSpec {
            kind,
            name,
            fields,
            attributes,
            span: start.to(self.prev_loc()),
        })
    }

    /// A struct, union or enum tag.
    fn tag_name(&mut self) -> Option<Spanned<String>> {
        let s = self.ident()?;
        if self.is_keyword(s) {
            return None;
        }
        let loc = self.bump().loc();
        Some(Spanned::new(s.to_string(), loc))
    }

    /// One member declaration, `;` included. `_Static_assert` in a member
    /// list is checked for syntax and dropped (`Ok(None)`).
    fn field_decl(&mut self) -> PResult<Option<FieldDecl>> {
        if self.is_kw("_Static_assert") {
            self.static_assert()?;
            return Ok(None);
        }
        let start = self.loc();
        if !self.starts_declaration() && !self.unknown_type_then_ident() {
            self.error(start, "type name requires a specifier or qualifier");
            return Err(Fail);
        }
        let specs = self.decl_specifiers(false)?;
        let mut declarators = Vec::new();
        if !self.is(Punct::Semi) && !self.starts_field_declarator() {
            self.error(
                self.loc(),
                "expected member name or ';' after declaration specifiers",
            );
            return Err(Fail);
        }
        if !self.is(Punct::Semi) {
            loop {
                let d_start = self.loc();
                let mut declarator = if self.is(Punct::Colon) {
                    None
                } else {
                    Some(self.declarator(DeclMode::Named)?)
                };
                let bit_width = if self.eat(Punct::Colon) {
                    Some(self.const_expr()?)
                } else {
                    None
                };
                let attrs = self.attributes()?;
                if let Some(d) = declarator.as_mut() {
                    d.attributes.extend(attrs);
                }
                declarators.push(FieldDeclarator {
                    declarator,
                    bit_width,
                    span: d_start.to(self.prev_loc()),
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        if !self.eat(Punct::Semi) {
            // Before the closing brace clang only warns.
            if self.is(Punct::RBrace) {
                self.warning(self.after_prev(), "expected ';' at end of declaration list");
            } else {
                self.error(self.after_prev(), "expected ';' at end of declaration list");
                return Err(Fail);
            }
        }
        Ok(Some(FieldDecl {
            specs,
            declarators,
            span: start.to(self.prev_loc()),
        }))
    }

    /// Whether a member declarator (or a bit-field's `:`) can start here.
    fn starts_field_declarator(&self) -> bool {
        match &self.peek().kind {
            TokenKind::Punct(Punct::Star | Punct::LParen | Punct::Colon) => true,
            TokenKind::Ident(s) => !self.is_keyword(s) || is_attribute_kw(s),
            _ => false,
        }
    }

    /// `enum attribute* ident? ("{" enumerator ("," enumerator)* ","? "}")?`
    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let start = self.bump().loc();
        let mut attributes = self.attributes()?;
        let name = self.tag_name();
        let mut enumerators = None;
        if self.is(Punct::LBrace) {
            let open = self.bump().loc();
            let mut list = Vec::new();
            while !self.is(Punct::RBrace) {
                let Some(n) = self.ident().filter(|s| !self.is_keyword(s)) else {
                    self.error(self.loc(), "expected identifier");
                    return Err(Fail);
                };
                let e_start = self.bump().loc();
                let attrs = self.attributes()?;
                let value = if self.eat(Punct::Eq) {
                    Some(self.const_expr()?)
                } else {
                    None
                };
                self.declare(n, Ordinary::Object);
                list.push(Enumerator {
                    name: Spanned::new(n.to_string(), e_start),
                    value,
                    attributes: attrs,
                    span: e_start.to(self.prev_loc()),
                });
                if !self.eat(Punct::Comma) {
                    if matches!(self.peek().kind, TokenKind::Ident(_)) {
                        self.error(self.after_prev(), "missing ',' between enumerators");
                        continue;
                    }
                    break;
                }
            }
            self.expect_close(Punct::RBrace, Punct::LBrace, open)?;
            enumerators = Some(list);
            attributes.extend(self.attributes()?);
        }
        if name.is_none() && enumerators.is_none() {
            self.error(start, "declaration of anonymous enum must be a definition");
            return Err(Fail);
        }
        Ok(EnumSpec {
            name,
            enumerators,
            attributes,
            span: start.to(self.prev_loc()),
        })
    }

    // ----- declarators -----

    pub(crate) fn declarator(&mut self, mode: DeclMode) -> PResult<Declarator> {
        self.nested(|p| p.declarator_inner(mode))
    }

    fn declarator_inner(&mut self, mode: DeclMode) -> PResult<Declarator> {
        let start = self.loc();
        let first_pos = self.pos;
        // GNU: attributes may open a declarator (`int a, __attribute__((x)) b;`).
        let leading = self.attributes()?;
        let mut pointers = Vec::new();
        while self.is(Punct::Star) {
            let star = self.bump().loc();
            let mut qualifiers = Vec::new();
            let mut attributes = Vec::new();
            while let Some(s) = self.ident() {
                if let Some(q) = keywords::type_qualifier(s, self.opts.opencl_c_version) {
                    let loc = self.bump().loc();
                    qualifiers.push(Spanned::new(q, loc));
                } else if is_attribute_kw(s) {
                    attributes.extend(self.attributes()?);
                } else {
                    break;
                }
            }
            pointers.push(PointerDeclarator {
                qualifiers,
                attributes,
                span: star.to(self.prev_loc()),
            });
        }
        let mut name = None;
        let mut derived = Vec::new();
        let mut attributes = Vec::new();
        match self.ident() {
            Some(s) if mode != DeclMode::Abstract && !self.is_keyword(s) => {
                let loc = self.bump().loc();
                name = Some(Spanned::new(s.to_string(), loc));
            }
            _ if self.is(Punct::LParen) && self.paren_is_nested_declarator(mode) => {
                let open = self.bump().loc();
                let inner = self.declarator(mode)?;
                self.expect_close(Punct::RParen, Punct::LParen, open)?;
                name = inner.name;
                derived = inner.derived;
                attributes = inner.attributes;
            }
            _ if mode == DeclMode::Named => {
                self.error(self.loc(), "expected identifier or '('");
                return Err(Fail);
            }
            _ => {}
        }
        loop {
            if self.is(Punct::LBracket) {
                derived.push(DerivedDeclarator::Array(self.array_suffix()?));
            } else if self.is(Punct::LParen) {
                derived.push(DerivedDeclarator::Function(self.params()?));
            } else {
                break;
            }
        }
        derived.extend(pointers.into_iter().rev().map(DerivedDeclarator::Pointer));
        attributes.splice(0..0, leading);
        attributes.extend(self.attributes()?);
        let span = if self.pos > first_pos {
            start.to(self.prev_loc())
        } else {
            Span::new(start.file, start.lo, start.lo)
        };
        Ok(Declarator {
            name,
            derived,
            attributes,
            span,
        })
    }

    /// After a declarator's pointers, whether `(` opens a nested declarator
    /// (`(*fp)(int)`) rather than a parameter list (`(int)`).
    fn paren_is_nested_declarator(&self, mode: DeclMode) -> bool {
        let t = self.peek_at(1);
        match &t.kind {
            TokenKind::Punct(Punct::Star | Punct::LParen) => true,
            TokenKind::Punct(Punct::LBracket) => mode == DeclMode::Abstract,
            TokenKind::Ident(s) if is_attribute_kw(s) => true,
            TokenKind::Ident(s) => match mode {
                DeclMode::Named => !self.is_keyword(s),
                DeclMode::Either => !self.is_keyword(s) && !self.is_typedef_name(s),
                DeclMode::Abstract => false,
            },
            _ => false,
        }
    }

    /// `"[" ("static" | qualifier)* assign? "]"`
    fn array_suffix(&mut self) -> PResult<ArrayDeclarator> {
        let open = self.bump().loc();
        let mut qualifiers = Vec::new();
        let mut is_static = false;
        while let Some(s) = self.ident() {
            if s == "static" {
                self.bump();
                is_static = true;
            } else if let Some(q) = keywords::type_qualifier(s, self.opts.opencl_c_version) {
                let loc = self.bump().loc();
                qualifiers.push(Spanned::new(q, loc));
            } else {
                break;
            }
        }
        let size = if self.is(Punct::RBracket) {
            None
        } else {
            Some(Box::new(self.nested(|p| p.assign())?))
        };
        let close = self.expect_close(Punct::RBracket, Punct::LBracket, open)?;
        Ok(ArrayDeclarator {
            size,
            qualifiers,
            is_static,
            span: open.to(close),
        })
    }

    /// `"(" (")" | "void" ")" | param ("," param)* ("," "...")? ")")`, in a
    /// prototype scope of its own.
    fn params(&mut self) -> PResult<FunctionDeclarator> {
        let open = self.bump().loc();
        self.push_scope();
        let r = self.params_inner(open);
        self.pop_scope();
        r
    }

    fn params_inner(&mut self, open: Span) -> PResult<FunctionDeclarator> {
        let mut f = FunctionDeclarator {
            params: Vec::new(),
            variadic: false,
            no_prototype: false,
            span: open,
        };
        if self.is(Punct::RParen) {
            f.no_prototype = true;
        } else if self.is_kw("void") && self.is_at(1, Punct::RParen) {
            self.bump();
        } else {
            loop {
                if self.eat(Punct::Ellipsis) {
                    f.variadic = true;
                    break;
                }
                let start = self.loc();
                let unknown = self
                    .ident()
                    .is_some_and(|s| !self.is_keyword(s) && self.lookup(s).is_none());
                if !self.starts_declaration() && !unknown {
                    self.error(start, "expected parameter declarator");
                    return Err(Fail);
                }
                let specs = self.decl_specifiers(true)?;
                let declarator = self.declarator(DeclMode::Either)?;
                // Like clang: an address space alone (`f(global, int y)`) does
                // not make a parameter; `const` alone is an implicit int.
                let only_space = specs.storage.is_empty()
                    && specs.type_specs.is_empty()
                    && specs.functions.is_empty()
                    && specs
                        .qualifiers
                        .iter()
                        .all(|q| matches!(q.node, TypeQualifier::AddressSpace(_)));
                if only_space && declarator.name.is_none() && declarator.derived.is_empty() {
                    self.error(start, "expected parameter declarator");
                    return Err(Fail);
                }
                if let Some(n) = &declarator.name {
                    self.declare(&n.node, Ordinary::Object);
                }
                f.params.push(ParamDecl {
                    specs,
                    declarator,
                    span: start.to(self.prev_loc()),
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        let close = self.expect_close(Punct::RParen, Punct::LParen, open)?;
        f.span = open.to(close);
        Ok(f)
    }

    /// `type-name = decl-specs abstract-declarator`
    pub(crate) fn type_name(&mut self) -> PResult<TypeName> {
        let start = self.loc();
        let specs = self.decl_specifiers(false)?;
        if specs.type_specs.is_empty() && specs.qualifiers.is_empty() {
            self.error(start, "expected a type");
            return Err(Fail);
        }
        let declarator = self.declarator(DeclMode::Abstract)?;
        Ok(TypeName {
            specs,
            declarator,
            span: start.to(self.prev_loc()),
        })
    }

    // ----- declarations -----

    /// `_Static_assert "(" const-expr ("," string)? ")" ";"`
    pub(crate) fn static_assert(&mut self) -> PResult<StaticAssert> {
        let start = self.bump().loc();
        let open = self.expect(Punct::LParen)?;
        let cond = self.const_expr()?;
        let mut message = None;
        if self.eat(Punct::Comma) {
            let loc = self.loc();
            let mut text = String::new();
            let mut any = false;
            while let TokenKind::Str(s) = &self.peek().kind {
                text.push_str(s);
                any = true;
                self.bump();
            }
            if !any {
                self.error(loc, "expected string literal");
                return Err(Fail);
            }
            message = Some(Spanned::new(text, loc.to(self.prev_loc())));
        }
        self.expect_close(Punct::RParen, Punct::LParen, open)?;
        self.expect_semi("expected ';' after static_assert");
        Ok(StaticAssert {
            cond,
            message,
            span: start.to(self.prev_loc()),
        })
    }

    /// A declaration at block scope, `;` included.
    pub(crate) fn declaration(&mut self, leading: Vec<Attribute>) -> PResult<Declaration> {
        self.declaration_in(leading, "expected ';' at end of declaration")
    }

    /// The declaration of a `for` statement's first clause, `;` included.
    pub(crate) fn for_declaration(&mut self) -> PResult<Declaration> {
        self.declaration_in(Vec::new(), FOR_SEMI)
    }

    fn declaration_in(
        &mut self,
        leading: Vec<Attribute>,
        missing_semi: &str,
    ) -> PResult<Declaration> {
        let start = self.loc();
        let mut specs = self.decl_specifiers(false)?;
        specs.attributes.splice(0..0, leading);
        if self.eat(Punct::Semi) || std::mem::take(&mut self.implicit_semi) {
            return Ok(Declaration {
                specs,
                declarators: Vec::new(),
                span: start.to(self.prev_loc()),
            });
        }
        let first = self.declarator(DeclMode::Named)?;
        self.finish_declaration(specs, first, start, missing_semi)
    }

    /// The init-declarator list after the first declarator, and the `;`.
    fn finish_declaration(
        &mut self,
        specs: DeclSpecifiers,
        first: Declarator,
        start: Span,
        missing_semi: &str,
    ) -> PResult<Declaration> {
        let mut declarators = Vec::new();
        let mut d = first;
        loop {
            self.declare_declarator(&specs, &d);
            let init = if self.eat(Punct::Eq) {
                Some(self.initializer()?)
            } else {
                None
            };
            let span = d.span.to(self.prev_loc());
            declarators.push(InitDeclarator {
                declarator: d,
                init,
                span,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
            d = self.declarator(DeclMode::Named)?;
        }
        if !self.eat(Punct::Semi) {
            if missing_semi == FOR_SEMI {
                // clang points at the token found, and the `for` is dropped.
                self.error(self.loc(), missing_semi);
                return Err(Fail);
            }
            self.error(self.after_prev(), missing_semi);
            // Something else on the same line: skip the rest of it.
            if !self.peek().at_line_start && !self.is(Punct::RBrace) {
                self.skip_to_stmt_end();
            }
        }
        Ok(Declaration {
            specs,
            declarators,
            span: start.to(self.prev_loc()),
        })
    }

    /// Enter a declared name in the current scope as a typedef or object.
    fn declare_declarator(&mut self, specs: &DeclSpecifiers, d: &Declarator) {
        let Some(name) = &d.name else { return };
        let what = if specs.is_typedef() {
            // clang's `__attribute__((ext_vector_type(N)))` makes a vector too.
            let ext_vector = specs
                .attributes
                .iter()
                .chain(&d.attributes)
                .any(|a| a.name.node == "ext_vector_type");
            let vector = d.derived.is_empty()
                && (ext_vector
                    || specs.type_specs.iter().any(|t| match &t.node {
                        TypeSpecifier::Vector(..) => true,
                        TypeSpecifier::TypedefName(n) => {
                            matches!(self.lookup(n), Some(Ordinary::Typedef { vector: true }))
                        }
                        _ => false,
                    }));
            Ordinary::Typedef { vector }
        } else {
            Ordinary::Object
        };
        self.declare(&name.node, what);
    }

    /// A file-scope declaration or function definition.
    pub(crate) fn external_decl(&mut self) -> PResult<Option<ExternalDecl>> {
        if self.is_kw("_Static_assert") {
            return Ok(Some(ExternalDecl::StaticAssert(self.static_assert()?)));
        }
        let start = self.loc();
        let unknown = self
            .ident()
            .is_some_and(|s| !self.is_keyword(s) && self.lookup(s).is_none());
        let unknown_type =
            unknown && (self.unknown_type_then_ident() || self.is_at(1, Punct::Star));
        // `f(int x) { ... }`, `x = 1;`, `*p;`: C89's implicit `int`. clang
        // accepts any declarator here; sema warns about the missing type.
        let implicit_int = unknown || self.is(Punct::Star) || self.is(Punct::LParen);
        if !self.starts_declaration() && !unknown_type && !implicit_int {
            self.error(start, "expected identifier or '('");
            return Err(Fail);
        }
        let specs = self.decl_specifiers(false)?;
        if self.eat(Punct::Semi) || std::mem::take(&mut self.implicit_semi) {
            return Ok(Some(ExternalDecl::Declaration(Declaration {
                specs,
                declarators: Vec::new(),
                span: start.to(self.prev_loc()),
            })));
        }
        let first = self.declarator(DeclMode::Named)?;
        let is_function = matches!(first.derived.first(), Some(DerivedDeclarator::Function(_)));
        if is_function && self.is(Punct::LBrace) {
            return Ok(Some(ExternalDecl::Function(
                self.function_body(specs, first, start)?,
            )));
        }
        if is_function && self.starts_declaration() {
            // Old-style (K&R) parameter declarations.
            self.error(
                self.loc(),
                "old-style parameter declarations are not supported in OpenCL C",
            );
            return Err(Fail);
        }
        let d = self.finish_declaration(
            specs,
            first,
            start,
            "expected ';' after top level declarator",
        )?;
        Ok(Some(ExternalDecl::Declaration(d)))
    }

    /// The body of a function definition, with its parameters in scope.
    fn function_body(
        &mut self,
        specs: DeclSpecifiers,
        declarator: Declarator,
        start: Span,
    ) -> PResult<FunctionDef> {
        self.declare_declarator(&specs, &declarator);
        self.push_scope();
        if let Some(DerivedDeclarator::Function(f)) = declarator.derived.first() {
            for p in &f.params {
                if let Some(n) = &p.declarator.name {
                    self.declare(&n.node, Ordinary::Object);
                }
            }
        }
        let body = self.block();
        self.pop_scope();
        let body = body?;
        let span = start.to(body.span);
        Ok(FunctionDef {
            specs,
            declarator,
            body,
            span,
        })
    }
}

/// The message for a `for` clause missing its `;`.
pub(crate) const FOR_SEMI: &str = "expected ';' in 'for' statement specifier";
