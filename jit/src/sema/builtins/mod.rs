//! Built-in function declarations and overload resolution.
//!
//! The families of spec 6.15 are tables (`table.rs`) expanded on demand over
//! their gentype domains; names that carry a type (`convert_int4_sat_rte`,
//! `as_float4`, `vload8`, `vstore_half4_rtz`, `shuffle`, `to_global`,
//! `printf`) are recognised by pattern (`named.rs`). Resolution follows the
//! C++ rules clang applies to OpenCL's overloadable built-ins: each argument's
//! conversion is ranked (exact, promotion, conversion — a scalar may be
//! splatted to a vector parameter, a named-space pointer may become generic);
//! the best candidate must be at least as good for every argument and better
//! for one, otherwise the call is ambiguous. The result names one concrete
//! overload ([`BuiltinFn`]); codegen never resolves again.
#![forbid(unsafe_code)]

pub mod named;
pub mod table;

use super::addrspace::{implicit_conversion, AddrSpace};
use super::types::{Pointee, Quals, Scalar, Type};
use table::{Dom, Entry, Gate, Pt, Spaces, T};

/// The family an overload belongs to (codegen dispatches on it and the name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    WorkItem,
    Math,
    Integer,
    Common,
    Geometric,
    Relational,
    VectorLoadStore,
    Sync,
    AsyncCopy,
    /// 32/64-bit `atomic_*` / `atom_*` of OpenCL C 1.x.
    Atomic,
    /// C11-style atomics of OpenCL C 2.0.
    AtomicC11,
    WorkGroup,
    /// Sub-group barrier and collectives (`__opencl_c_subgroups`).
    SubGroup,
    /// `to_global`, `to_local`, `to_private`, `get_fence`.
    AddressSpace,
    /// `convert_<type>[_sat][_<rounding>]`.
    Convert {
        sat: bool,
        rounding: Rounding,
    },
    /// `as_<type>`.
    Reinterpret,
    /// `shuffle`, `shuffle2`.
    Shuffle,
    Printf,
    /// `read_image*`, `write_image*`, `get_image_*`.
    Image,
}

/// Rounding mode of a conversion or `vstore_half` (spec 6.4.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rounding {
    /// The default for the destination type (rtz to integers, rte to floats).
    #[default]
    Default,
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

impl Rounding {
    pub fn from_suffix(s: &str) -> Option<Rounding> {
        Some(match s {
            "rte" => Rounding::Rte,
            "rtz" => Rounding::Rtz,
            "rtp" => Rounding::Rtp,
            "rtn" => Rounding::Rtn,
            _ => return None,
        })
    }
}

/// One concrete overload of a built-in, as a call site resolved it.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinFn {
    /// The name as called (`sin`, `convert_uchar4_sat`, `vload4`).
    pub name: String,
    pub family: Family,
    pub ret: Type,
    /// Parameter types; arguments are converted to these.
    pub params: Vec<Type>,
    /// `printf`: arguments after `params` are passed as they are.
    pub variadic: bool,
}

/// What the compilation allows: language version and device capabilities.
#[derive(Clone, Debug, Default)]
pub struct BuiltinEnv {
    /// OpenCL C version times 10 (12, 20, 30).
    pub version: u32,
    pub fp64: bool,
    pub fp16: bool,
    pub generic: bool,
    pub wg_collective: bool,
    pub sub_groups: bool,
    pub extensions: Vec<String>,
}

impl BuiltinEnv {
    fn gate_ok(&self, g: Gate) -> bool {
        match g {
            Gate::Always => true,
            Gate::Cl20 => self.version >= 20,
            Gate::WorkGroupCollective => self.version == 20 || self.wg_collective,
            Gate::Generic => self.generic,
            Gate::Ext(name) => self.extensions.iter().any(|e| e == name),
            Gate::SubGroups => self.sub_groups,
            Gate::SubGroupExt(name) => self.sub_groups && self.extensions.iter().any(|e| e == name),
        }
    }
    /// The element type may be used (`double` needs fp64, `half` fp16).
    pub fn elem_ok(&self, s: Scalar) -> bool {
        match s {
            Scalar::Double => self.fp64,
            Scalar::Half => self.fp16,
            _ => true,
        }
    }
}

/// The outcome of resolving a call by name.
#[derive(Clone, Debug)]
pub enum Resolution {
    /// No built-in has this name.
    NotBuiltin,
    Found(BuiltinFn),
    /// The name is a built-in but no overload accepts these arguments;
    /// the strings are a few candidate signatures for notes.
    NoMatch(Vec<String>),
    Ambiguous(Vec<String>),
    /// A specific message (`invalid reinterpretation: sizes ... must match`).
    Invalid(String),
}

/// How good an argument's conversion to a parameter is (lower is better).
pub type Rank = u8;
pub const EXACT: Rank = 0;
pub const PROMOTION: Rank = 1;
pub const CONVERSION: Rank = 2;
/// Scalar to vector (splat): worse than any scalar conversion, so
/// `sqrt(4)` picks `float`, while `pow(float4, 2.0f)` still resolves.
pub const SPLAT: Rank = 3;
/// Pointer to a different type (or dropping qualifiers): C's incompatible
/// pointer conversion, accepted with a warning.
pub const INCOMPATIBLE: Rank = 4;

/// Rank the implicit conversion of an argument of type `from` to `to`.
pub fn conversion_rank(from: &Type, to: &Type) -> Option<Rank> {
    if from == to {
        return Some(EXACT);
    }
    match (from, to) {
        (Type::Scalar(a), Type::Scalar(b)) => {
            let promo = (a.rank() < Scalar::Int.rank() && a.is_integer() && *b == Scalar::Int)
                || (*a == Scalar::Float && *b == Scalar::Double);
            Some(if promo { PROMOTION } else { CONVERSION })
        }
        (Type::Scalar(_), Type::Vector(..)) => Some(SPLAT),
        // `0` for an `event_t` argument (no event).
        (Type::Scalar(s), Type::Event) if s.is_integer() => Some(CONVERSION),
        (Type::Pointer(p), Type::Pointer(q)) => {
            implicit_conversion(p.space, q.space).ok()?;
            if p.ty != q.ty || !q.quals.contains(p.quals) {
                // C allows it with a warning; clang ranks it last.
                return Some(INCOMPATIBLE);
            }
            Some(if p.space == q.space {
                EXACT
            } else {
                CONVERSION
            })
        }
        _ => None,
    }
}

/// Resolve a call of `name` with arguments of the given (rvalue) types.
pub fn resolve(name: &str, args: &[Type], env: &BuiltinEnv) -> Resolution {
    if let Some(r) = named::resolve_named(name, args, env) {
        return r;
    }
    let Some(entries) = index().get(name) else {
        return Resolution::NotBuiltin;
    };
    resolve_entries(name, entries.iter().map(|e| **e), args, env)
}

/// Resolve among the overloads a set of entries expands to.
pub fn resolve_entries(
    name: &str,
    entries: impl Iterator<Item = Entry>,
    args: &[Type],
    env: &BuiltinEnv,
) -> Resolution {
    let mut cands: Vec<(Vec<Rank>, BuiltinFn)> = Vec::new();
    // The first few overloads, for the notes of a failed call (formatted
    // only when the call fails).
    let mut shown: Vec<BuiltinFn> = Vec::new();
    let mut any_gate_ok = false;
    for en in entries {
        if !env.gate_ok(en.gate) {
            continue;
        }
        any_gate_ok = true;
        for elem in Scalar::VECTOR_ELEMS
            .iter()
            .enumerate()
            .filter(|(i, _)| en.dom.elems & (1 << i) != 0)
        {
            let elem = *elem.1;
            if !env.elem_ok(elem) {
                continue;
            }
            for (wi, &w) in table::WIDTHS.iter().enumerate() {
                if en.dom.widths & (1 << wi) == 0 {
                    continue;
                }
                // Only the shown candidates need other arities or widths.
                let fits = en.params.len() == args.len() && width_fits(&en, w, args);
                if !fits && shown.len() >= 4 {
                    continue;
                }
                let Some(sig) = instantiate(&en, elem, w, args, env) else {
                    continue;
                };
                let f = BuiltinFn {
                    name: name.to_string(),
                    family: en.family,
                    ret: sig.0,
                    params: sig.1,
                    variadic: false,
                };
                if shown.len() < 4 {
                    shown.push(f.clone());
                }
                if f.params.len() != args.len() || cands.iter().any(|(_, c)| c.params == f.params) {
                    continue;
                }
                let ranks: Option<Vec<Rank>> = args
                    .iter()
                    .zip(&f.params)
                    .map(|(a, p)| conversion_rank(a, p))
                    .collect();
                if let Some(r) = ranks {
                    cands.push((r, f));
                }
            }
        }
    }
    if !any_gate_ok {
        return Resolution::NotBuiltin;
    }
    if cands.is_empty() {
        return Resolution::NoMatch(shown.iter().map(signature).collect());
    }
    pick_best(cands, Vec::new())
}

/// The table entries by name, built once.
fn index() -> &'static std::collections::HashMap<&'static str, Vec<&'static Entry>> {
    static INDEX: std::sync::OnceLock<
        std::collections::HashMap<&'static str, Vec<&'static Entry>>,
    > = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let mut m: std::collections::HashMap<&'static str, Vec<&'static Entry>> =
            std::collections::HashMap::new();
        for e in table::TABLES.iter().flat_map(|t| t.iter()) {
            for n in e.names {
                m.entry(*n).or_default().push(e);
            }
        }
        m
    })
}

/// A vector argument only matches a gentype-shaped parameter of its own
/// width (vectors never convert to other widths), so other widths are skipped.
fn width_fits(en: &Entry, w: u8, args: &[Type]) -> bool {
    en.params.iter().zip(args).all(|(p, a)| match (p, a) {
        (T::G | T::U | T::I | T::N | T::W | T::FN | T::DN, Type::Vector(_, n)) => *n == w,
        _ => true,
    })
}

/// The candidate at least as good as every other for each argument.
pub fn pick_best(mut cands: Vec<(Vec<Rank>, BuiltinFn)>, shown: Vec<String>) -> Resolution {
    if cands.is_empty() {
        return Resolution::NoMatch(shown);
    }
    drop_incompatible(&mut cands);
    let better_eq = |a: &[Rank], b: &[Rank]| a.iter().zip(b).all(|(x, y)| x <= y);
    let best: Vec<usize> = (0..cands.len())
        .filter(|&i| (0..cands.len()).all(|j| i == j || better_eq(&cands[i].0, &cands[j].0)))
        .collect();
    match best.as_slice() {
        [i] => Resolution::Found(cands[*i].1.clone()),
        _ => Resolution::Ambiguous(
            cands
                .iter()
                .filter(|(r, _)| !cands.iter().any(|(o, _)| o != r && better_eq(o, r)))
                .take(4)
                .map(|(_, f)| signature(f))
                .collect(),
        ),
    }
}

/// C's incompatible pointer conversions are a last resort: a candidate that
/// needs one is dropped when another needs none (clang: `atomic_add(int *,
/// 1u)` is the `int` overload, not the `uint` one).
pub fn drop_incompatible<T>(cands: &mut Vec<(Vec<Rank>, T)>) {
    if cands.iter().any(|(r, _)| !r.contains(&INCOMPATIBLE)) {
        cands.retain(|(r, _)| !r.contains(&INCOMPATIBLE));
    }
}

/// `float sin(float)` for candidate notes.
pub fn signature(f: &BuiltinFn) -> String {
    let r = super::types::Records::default();
    let ps: Vec<String> = f.params.iter().map(|p| p.display(&r).to_string()).collect();
    format!("{} {}({})", f.ret.display(&r), f.name, ps.join(", "))
}

/// Concrete (return, params) of an entry for one element type and width;
/// pointer parameters take the address space of the argument passed when the
/// entry's space set allows it (else generic, where that is allowed).
fn instantiate(
    en: &Entry,
    elem: Scalar,
    w: u8,
    args: &[Type],
    env: &BuiltinEnv,
) -> Option<(Type, Vec<Type>)> {
    let ret = concrete(en.ret, elem, w, en.rel_int, None, env)?;
    let mut params = Vec::with_capacity(en.params.len());
    for (i, p) in en.params.iter().enumerate() {
        params.push(concrete(*p, elem, w, en.rel_int, args.get(i), env)?);
    }
    Some((ret, params))
}

fn same_size_int(elem: Scalar, signed: bool) -> Scalar {
    let s = match elem.size() {
        1 => Scalar::Char,
        2 => Scalar::Short,
        4 => Scalar::Int,
        _ => Scalar::Long,
    };
    if signed {
        s
    } else {
        s.to_unsigned()
    }
}

fn wider(elem: Scalar) -> Option<Scalar> {
    use Scalar::*;
    Some(match elem {
        Char => Short,
        UChar => UShort,
        Short => Int,
        UShort => UInt,
        Int => Long,
        UInt => ULong,
        _ => return None,
    })
}

fn concrete(
    t: T,
    elem: Scalar,
    w: u8,
    rel_int: bool,
    arg: Option<&Type>,
    env: &BuiltinEnv,
) -> Option<Type> {
    let g = |s: Scalar| Type::vec_or_scalar(s, w);
    Some(match t {
        T::G => g(elem),
        T::S => Type::Scalar(elem),
        T::U => g(same_size_int(elem, false)),
        T::I if rel_int && w == 1 => Type::INT,
        T::I => g(same_size_int(elem, true)),
        T::N => g(Scalar::Int),
        T::W => g(wider(elem)?),
        T::X(s) => Type::Scalar(s),
        T::Void => Type::Void,
        T::SizeT => Type::SIZE_T,
        T::Event => Type::Event,
        T::FN => g(Scalar::Float),
        T::DN => g(Scalar::Double),
        T::V4(s) => Type::Vector(s, 4),
        T::P(spaces, pt, konst) => {
            let ty = match pt {
                Pt::G => g(elem),
                Pt::S | Pt::VolS => Type::Scalar(elem),
                Pt::N => g(Scalar::Int),
                Pt::X(s) => Type::Scalar(s),
                Pt::Event => Type::Event,
            };
            let quals = Quals {
                konst,
                volatile: matches!(pt, Pt::VolS),
                restrict: false,
            };
            Type::Pointer(std::sync::Arc::new(Pointee {
                ty,
                space: pick_space(spaces, arg, env),
                quals,
            }))
        }
        T::Atomic(spaces) => Type::Pointer(std::sync::Arc::new(Pointee {
            ty: Type::Atomic(elem),
            space: pick_space(spaces, arg, env),
            quals: Quals {
                konst: false,
                volatile: true,
                restrict: false,
            },
        })),
    })
}

fn space_set(spaces: Spaces, env: &BuiltinEnv) -> Vec<AddrSpace> {
    use AddrSpace::*;
    let mut v = match spaces {
        Spaces::Writable => vec![Global, Local, Private],
        Spaces::Readable => vec![Global, Local, Private, Constant],
        Spaces::Global => vec![Global],
        Spaces::Local => vec![Local],
        Spaces::GlobalLocal => vec![Global, Local],
        Spaces::AtomicSpaces => vec![Global, Local],
        Spaces::Private => vec![Private],
    };
    if env.generic
        && matches!(
            spaces,
            Spaces::Writable | Spaces::Readable | Spaces::AtomicSpaces | Spaces::Private
        )
    {
        v.push(Generic);
    }
    v
}

/// The space a pointer parameter takes: the argument's own if allowed, else
/// generic if allowed, else the first of the set (the call will not match).
fn pick_space(spaces: Spaces, arg: Option<&Type>, env: &BuiltinEnv) -> AddrSpace {
    let set = space_set(spaces, env);
    if let Some(Type::Pointer(p)) = arg {
        if set.contains(&p.space) {
            return p.space;
        }
        if set.contains(&AddrSpace::Generic)
            && implicit_conversion(p.space, AddrSpace::Generic).is_ok()
        {
            return AddrSpace::Generic;
        }
    }
    // Every space set names at least one space (see `space_set`).
    set[0]
}

/// The width bit of `n` in a [`Dom`].
pub fn width_bit(n: u8) -> Option<u8> {
    table::WIDTHS.iter().position(|&w| w == n).map(|i| 1 << i)
}

pub(crate) fn dom(elems: u16, widths: u8) -> Dom {
    Dom { elems, widths }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> BuiltinEnv {
        BuiltinEnv {
            version: 30,
            ..Default::default()
        }
    }

    #[test]
    fn atom_min_needs_the_extended_atomics_extension() {
        let p = Type::ptr(
            Type::INT,
            AddrSpace::Global,
            Quals {
                volatile: true,
                ..Default::default()
            },
        );
        let base_only = BuiltinEnv {
            extensions: vec!["cl_khr_global_int32_base_atomics".into()],
            ..env()
        };
        let found = |name: &str, args: &[Type], e: &BuiltinEnv| {
            matches!(resolve(name, args, e), Resolution::Found(_))
        };
        assert!(found("atom_add", &[p.clone(), Type::INT], &base_only));
        assert!(found(
            "atom_cmpxchg",
            &[p.clone(), Type::INT, Type::INT],
            &base_only
        ));
        assert!(!found("atom_min", &[p.clone(), Type::INT], &base_only));
        let both = BuiltinEnv {
            extensions: vec![
                "cl_khr_global_int32_base_atomics".into(),
                "cl_khr_global_int32_extended_atomics".into(),
            ],
            ..env()
        };
        assert!(found("atom_min", &[p.clone(), Type::INT], &both));
        assert!(found("atom_xor", &[p, Type::INT], &both));
    }

    #[test]
    fn sin_of_float4_is_exact() {
        let Resolution::Found(f) = resolve("sin", &[Type::Vector(Scalar::Float, 4)], &env()) else {
            panic!("sin(float4) must resolve")
        };
        assert_eq!(f.ret, Type::Vector(Scalar::Float, 4));
    }

    #[test]
    fn sqrt_of_int_picks_float_without_fp64() {
        let Resolution::Found(f) = resolve("sqrt", &[Type::INT], &env()) else {
            panic!("sqrt(int) resolves to float when double is off")
        };
        assert_eq!(f.params, vec![Type::FLOAT]);
        let e = BuiltinEnv {
            fp64: true,
            ..env()
        };
        assert!(matches!(
            resolve("sqrt", &[Type::INT], &e),
            Resolution::Ambiguous(_)
        ));
    }

    #[test]
    fn pow_splats_scalar_exponent() {
        let f4 = Type::Vector(Scalar::Float, 4);
        let Resolution::Found(f) = resolve("pow", &[f4.clone(), Type::FLOAT], &env()) else {
            panic!("pow(float4, float)")
        };
        assert_eq!(f.params, vec![f4.clone(), f4]);
    }

    #[test]
    fn double_needs_fp64() {
        assert!(matches!(
            resolve("sin", &[Type::DOUBLE], &env()),
            Resolution::Found(f) if f.params == vec![Type::FLOAT]
        ));
    }

    #[test]
    fn unknown_name_is_not_builtin() {
        assert!(matches!(
            resolve("frobnicate", &[], &env()),
            Resolution::NotBuiltin
        ));
    }
}
