//! Scopes: ordinary identifiers (variables, functions, typedefs, enumerators)
//! and tags (`struct S`, `union U`, `enum E`), each a stack of maps from the
//! file scope inward (C99 6.2.1).
#![forbid(unsafe_code)]

use super::hir::{FuncId, VarRef};
use super::types::{AddrSpace, Quals, RecordId, Scalar, Type};
use crate::source::Span;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub enum Symbol {
    Var {
        var: VarRef,
        ty: Type,
        space: AddrSpace,
        quals: Quals,
    },
    Func(FuncId),
    /// An enumeration constant: its value and type (`int` when the value
    /// fits, else the enumeration's type, as clang does).
    EnumConst(i128, Scalar),
    Typedef {
        ty: Type,
        space: Option<AddrSpace>,
        quals: Quals,
    },
}

#[derive(Clone, Copy, Debug)]
pub enum Tag {
    Record(RecordId),
    /// An enumeration and its underlying integer type.
    Enum(Scalar),
}

#[derive(Default)]
pub struct Scopes {
    ordinary: Vec<HashMap<String, (Symbol, Span)>>,
    tags: Vec<HashMap<String, Tag>>,
}

impl Scopes {
    pub fn new() -> Scopes {
        Scopes {
            ordinary: vec![HashMap::new()],
            tags: vec![HashMap::new()],
        }
    }
    pub fn push(&mut self) {
        self.ordinary.push(HashMap::new());
        self.tags.push(HashMap::new());
    }
    pub fn pop(&mut self) {
        if self.ordinary.len() > 1 {
            self.ordinary.pop();
            self.tags.pop();
        }
    }
    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.ordinary
            .iter()
            .rev()
            .find_map(|m| m.get(name))
            .map(|(s, _)| s)
    }
    /// The symbol declared with this name in the innermost scope, and where.
    pub fn lookup_current(&self, name: &str) -> Option<&(Symbol, Span)> {
        self.ordinary.last().and_then(|m| m.get(name))
    }
    pub fn insert(&mut self, name: &str, sym: Symbol, span: Span) {
        if let Some(m) = self.ordinary.last_mut() {
            m.insert(name.to_string(), (sym, span));
        }
    }
    /// Insert at file scope (function declarations met inside blocks).
    pub fn insert_global(&mut self, name: &str, sym: Symbol, span: Span) {
        // `ordinary` always holds the file scope: `new` creates it and `pop`
        // never removes the last one.
        self.ordinary[0].insert(name.to_string(), (sym, span));
    }
    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.tags.iter().rev().find_map(|m| m.get(name)).copied()
    }
    pub fn lookup_tag_current(&self, name: &str) -> Option<Tag> {
        self.tags.last().and_then(|m| m.get(name)).copied()
    }
    pub fn insert_tag(&mut self, name: &str, tag: Tag) {
        if let Some(m) = self.tags.last_mut() {
            m.insert(name.to_string(), tag);
        }
    }
}
