//! Built-ins whose name carries a type or width, recognised by pattern
//! rather than listed: `convert_<type>[_sat][_rte|_rtz|_rtp|_rtn]`,
//! `as_<type>`, `vload<n>`, `vstore<n>`, `vload[a]_half<n>`,
//! `vstore[a]_half<n>[_<rounding>]`, `shuffle`, `shuffle2`, the address-space
//! functions `to_global`/`to_local`/`to_private`/`get_fence`, and `printf`.
#![forbid(unsafe_code)]

use super::table::{self, Entry, Gate, Pt, Spaces, T};
use super::{
    dom, pick_best, resolve_entries, width_bit, BuiltinEnv, BuiltinFn, Family, Resolution, Rounding,
};
use crate::sema::addrspace::AddrSpace;
use crate::sema::types::{Access, ImageKind, Pointee, Quals, Records, Scalar, Type};
use std::sync::Arc;

/// `Some` when `name` is one of the patterned built-ins.
pub fn resolve_named(name: &str, args: &[Type], env: &BuiltinEnv) -> Option<Resolution> {
    if let Some(rest) = name.strip_prefix("convert_") {
        return convert(name, rest, args, env);
    }
    if let Some(rest) = name.strip_prefix("as_") {
        let (elem, n) = Scalar::parse_gentype(rest)?;
        return Some(reinterpret(name, elem, n, args, env));
    }
    if name.starts_with("vload") || name.starts_with("vstore") {
        return vload_store(name, args, env);
    }
    match name {
        "shuffle" | "shuffle2" => Some(shuffle(name, args, env)),
        "to_global" | "to_local" | "to_private" | "get_fence" => {
            Some(address_space_fn(name, args, env))
        }
        "printf" if env.version >= 12 => Some(printf(args)),
        "atomic_flag_test_and_set"
        | "atomic_flag_test_and_set_explicit"
        | "atomic_flag_clear"
        | "atomic_flag_clear_explicit"
            if env.version >= 20 =>
        {
            Some(atomic_flag(name, args, env))
        }
        _ if name.starts_with("read_image")
            || name.starts_with("write_image")
            || name.starts_with("get_image_") =>
        {
            image_fn(name, args, env.fp16)
        }
        _ => None,
    }
}

fn one(name: &str, family: Family, ret: Type, params: Vec<Type>) -> Resolution {
    Resolution::Found(BuiltinFn {
        name: name.to_string(),
        family,
        ret,
        params,
        variadic: false,
    })
}

fn arity(name: &str, want: usize, args: &[Type]) -> Option<Resolution> {
    (args.len() != want).then(|| {
        Resolution::Invalid(format!(
            "too {} arguments to function call '{name}', expected {want}, have {}",
            if args.len() < want { "few" } else { "many" },
            args.len()
        ))
    })
}

// convert_int4_sat_rte(x): spec 6.4.3. The source must be a scalar or vector
// of the same width (not bool); `_sat` only converts to integer types.
fn convert(name: &str, rest: &str, args: &[Type], env: &BuiltinEnv) -> Option<Resolution> {
    let mut parts = rest.split('_');
    let (elem, n) = Scalar::parse_gentype(parts.next()?)?;
    let (mut sat, mut rounding) = (false, Rounding::Default);
    for p in parts {
        if p == "sat" && !sat && rounding == Rounding::Default {
            sat = true;
        } else if let Some(r) = Rounding::from_suffix(p).filter(|_| rounding == Rounding::Default) {
            rounding = r;
        } else {
            return None;
        }
    }
    if elem == Scalar::Bool || !env.elem_ok(elem) || (sat && elem.is_float()) {
        return None;
    }
    if let Some(r) = arity(name, 1, args) {
        return Some(r);
    }
    let ret = Type::vec_or_scalar(elem, n);
    let ok = match &args[0] {
        Type::Scalar(s) => n == 1 && *s != Scalar::Bool,
        Type::Vector(_, m) => *m == n,
        Type::Error => true,
        _ => false,
    };
    if !ok {
        let r = Records::default();
        return Some(Resolution::NoMatch(vec![format!(
            "{} {name}({})",
            ret.display(&r),
            if n == 1 {
                "scalar".to_string()
            } else {
                format!("vector of {n} elements")
            }
        )]));
    }
    Some(one(
        name,
        Family::Convert { sat, rounding },
        ret,
        args.to_vec(),
    ))
}

// as_float4(x): spec 6.4.4.2, a reinterpretation between types of equal size.
fn reinterpret(name: &str, elem: Scalar, n: u8, args: &[Type], env: &BuiltinEnv) -> Resolution {
    if elem == Scalar::Bool || !env.elem_ok(elem) {
        return Resolution::NotBuiltin;
    }
    if let Some(r) = arity(name, 1, args) {
        return r;
    }
    let ret = Type::vec_or_scalar(elem, n);
    let r = Records::default();
    let from = &args[0];
    if from.is_error() {
        return one(name, Family::Reinterpret, ret, args.to_vec());
    }
    if !from.is_arithmetic() && !from.is_pointer() {
        return Resolution::Invalid(format!(
            "invalid reinterpretation: '{}' is not a scalar or vector type",
            from.display(&r)
        ));
    }
    if r.size_of(from) != r.size_of(&ret) {
        return Resolution::Invalid(format!(
            "invalid reinterpretation: sizes of '{}' and '{}' must match",
            ret.display(&r),
            from.display(&r)
        ));
    }
    one(name, Family::Reinterpret, ret, args.to_vec())
}

// vload4(offset, p), vstore4(data, offset, p), vload_half4, vloada_half4,
// vstore_half4_rte, vstorea_half4_rtz: spec 6.15.7.
fn vload_store(name: &str, args: &[Type], env: &BuiltinEnv) -> Option<Resolution> {
    let (load, rest) = match name.strip_prefix("vload") {
        Some(r) => (true, r),
        None => (false, name.strip_prefix("vstore")?),
    };
    let (half, rest) = if let Some(r) = rest.strip_prefix("a_half") {
        (true, r)
    } else if let Some(r) = rest.strip_prefix("_half") {
        (true, r)
    } else {
        (false, rest)
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &rest[digits.len()..];
    let n: u8 = if digits.is_empty() {
        1
    } else {
        digits.parse().ok()?
    };
    let wbit = width_bit(n)?;
    if !suffix.is_empty() {
        let r = suffix.strip_prefix('_')?;
        if load || !half || Rounding::from_suffix(r).is_none() {
            return None;
        }
    }
    if !half && n == 1 {
        return None;
    }
    let entry = match (load, half) {
        (true, false) => Entry {
            names: &[],
            family: Family::VectorLoadStore,
            dom: dom(table::ALL, wbit),
            ret: T::G,
            params: &[T::SizeT, T::P(Spaces::Readable, Pt::S, true)],
            rel_int: false,
            gate: Gate::Always,
        },
        (false, false) => Entry {
            names: &[],
            family: Family::VectorLoadStore,
            dom: dom(table::ALL, wbit),
            ret: T::Void,
            params: &[T::G, T::SizeT, T::P(Spaces::Writable, Pt::S, false)],
            rel_int: false,
            gate: Gate::Always,
        },
        (true, true) => Entry {
            names: &[],
            family: Family::VectorLoadStore,
            dom: dom(table::FLOAT, wbit),
            ret: T::G,
            params: &[T::SizeT, T::P(Spaces::Readable, Pt::X(Scalar::Half), true)],
            rel_int: false,
            gate: Gate::Always,
        },
        (false, true) => Entry {
            names: &[],
            family: Family::VectorLoadStore,
            dom: dom(table::FLOAT | table::DOUBLE, wbit),
            ret: T::Void,
            params: &[
                T::G,
                T::SizeT,
                T::P(Spaces::Writable, Pt::X(Scalar::Half), false),
            ],
            rel_int: false,
            gate: Gate::Always,
        },
    };
    Some(resolve_entries(name, std::iter::once(entry), args, env))
}

// shuffle(x, mask), shuffle2(x, y, mask): spec 6.15.10. x is a vector of
// 2, 4, 8 or 16 elements; mask an unsigned integer vector of the same
// element size; the result has the mask's width and x's element type.
fn shuffle(name: &str, args: &[Type], env: &BuiltinEnv) -> Resolution {
    let want = if name == "shuffle" { 2 } else { 3 };
    if let Some(r) = arity(name, want, args) {
        return r;
    }
    if args.iter().any(Type::is_error) {
        return one(name, Family::Shuffle, Type::Error, args.to_vec());
    }
    let ok_width = |n: u8| matches!(n, 2 | 4 | 8 | 16);
    let (Type::Vector(e, m), Type::Vector(me, n)) = (&args[0], &args[want - 1]) else {
        return Resolution::NoMatch(vec![format!("gentypen {name}(gentypem x, ugentypen mask)")]);
    };
    let data_ok = want == 2 || args[1] == args[0];
    if !ok_width(*m)
        || !ok_width(*n)
        || !env.elem_ok(*e)
        || me.is_signed()
        || me.is_float()
        || me.size() != e.size()
        || !data_ok
    {
        return Resolution::NoMatch(vec![format!("gentypen {name}(gentypem x, ugentypen mask)")]);
    }
    one(name, Family::Shuffle, Type::Vector(*e, *n), args.to_vec())
}

// to_global(p), to_local(p), to_private(p), get_fence(p): spec 6.15.13,
// for pointers to the generic space (OpenCL C 2.0, or 3.0 with the
// generic address space feature).
fn address_space_fn(name: &str, args: &[Type], env: &BuiltinEnv) -> Resolution {
    if !env.generic {
        return Resolution::NotBuiltin;
    }
    if let Some(r) = arity(name, 1, args) {
        return r;
    }
    let Type::Pointer(p) = &args[0] else {
        if args[0].is_error() {
            return one(name, Family::AddressSpace, Type::Error, args.to_vec());
        }
        return Resolution::Invalid(format!(
            "invalid argument '{}' to function: '{name}', expecting a generic pointer argument",
            args[0].display(&Records::default())
        ));
    };
    if p.space == AddrSpace::Constant {
        return Resolution::Invalid(format!(
            "invalid argument '{}' to function: '{name}', expecting a generic pointer argument",
            args[0].display(&Records::default())
        ));
    }
    let param = Type::Pointer(Arc::new(Pointee {
        ty: p.ty.clone(),
        space: AddrSpace::Generic,
        quals: p.quals,
    }));
    let ret = match name {
        "get_fence" => Type::UINT,
        _ => {
            let space = match name {
                "to_global" => AddrSpace::Global,
                "to_local" => AddrSpace::Local,
                _ => AddrSpace::Private,
            };
            Type::Pointer(Arc::new(Pointee {
                ty: p.ty.clone(),
                space,
                quals: p.quals,
            }))
        }
    };
    one(name, Family::AddressSpace, ret, vec![param])
}

/// Coordinate lanes an image kind is addressed with (1d: 1, 2d: 2, 3d and arrays of 2d: 4).
fn coord_width(k: ImageKind) -> u8 {
    use ImageKind::*;
    match k {
        Image1d | Image1dBuffer => 1,
        Image2d | Image2dDepth | Image1dArray => 2,
        Image3d | Image2dArray | Image2dArrayDepth => 4,
    }
}

// read_imagef(img, sampler, coord), read_imagei(img, coord), write_imageui(img,
// coord, color), get_image_width(img)...: spec 6.15.15. The first argument
// must be an image; coordinates are int (or float with a sampler) with the
// image's dimension.
fn image_fn(name: &str, args: &[Type], fp16: bool) -> Option<Resolution> {
    let Some(Type::Image(kind, access)) = args.first() else {
        if args.first().is_some_and(Type::is_error) {
            return Some(one(name, Family::Image, Type::Error, args.to_vec()));
        }
        return Some(Resolution::NoMatch(vec![format!("{name}(image, ...)")]));
    };
    let kind = *kind;
    let cw = coord_width(kind);
    let coord_ok = |t: &Type, float_ok: bool| match t {
        Type::Scalar(s) | Type::Vector(s, _) => {
            t.width() == cw && (*s == Scalar::Int || (float_ok && *s == Scalar::Float))
        }
        _ => false,
    };
    let depth = matches!(kind, ImageKind::Image2dDepth | ImageKind::Image2dArrayDepth);
    let texel = |suffix: &str| -> Option<Scalar> {
        Some(match suffix {
            "f" => Scalar::Float,
            "i" => Scalar::Int,
            "ui" => Scalar::UInt,
            "h" if fp16 => Scalar::Half,
            _ => return None,
        })
    };
    let ret = if let Some(sfx) = name.strip_prefix("read_image") {
        let s = texel(sfx)?;
        if *access == Access::WriteOnly {
            return Some(Resolution::Invalid(format!(
                "cannot call '{name}' on a write_only image: read_image functions need a read_only or read_write image"
            )));
        }
        // Reads through a sampler are for read_only images only ("a
        // compilation error" on read_write ones: OpenCL C 6.13.14.1).
        if args.len() == 3 && *access == Access::ReadWrite {
            return Some(Resolution::NoMatch(vec![format!(
                "{name}(read_only image, sampler, coordinates)"
            )]));
        }
        // The sampler may be a literal: an integer constant of `CLK_*` bits.
        let int_sampler = |t: &Type| matches!(t, Type::Scalar(Scalar::Int | Scalar::UInt));
        let ok = match args {
            [_, Type::Sampler, c] => coord_ok(c, true),
            [_, smp, c] if int_sampler(smp) => coord_ok(c, true),
            [_, c] => coord_ok(c, false),
            _ => false,
        };
        if !ok {
            return Some(Resolution::NoMatch(vec![format!(
                "{name}(image, [sampler,] coordinates of {cw} lanes)"
            )]));
        }
        if depth {
            Type::Scalar(s)
        } else {
            Type::Vector(s, 4)
        }
    } else if let Some(sfx) = name.strip_prefix("write_image") {
        let s = texel(sfx)?;
        if *access == Access::ReadOnly {
            return Some(Resolution::Invalid(format!("cannot call '{name}' on a read_only image: write_image functions need a write_only or read_write image")));
        }
        let color_ok = |t: &Type| {
            if depth {
                *t == Type::Scalar(s)
            } else {
                *t == Type::Vector(s, 4)
            }
        };
        if !matches!(args, [_, c, col] if coord_ok(c, false) && color_ok(col)) {
            return Some(Resolution::NoMatch(vec![format!(
                "void {name}(image, int coordinates, color)"
            )]));
        }
        Type::Void
    } else {
        let ret = match name.strip_prefix("get_image_")? {
            "width" | "channel_data_type" | "channel_order" => Type::INT,
            // height and dim: 2D and 3D images and 2D arrays, not 1D arrays.
            "height" if cw >= 2 && kind != ImageKind::Image1dArray => Type::INT,
            "depth" if kind == ImageKind::Image3d => Type::INT,
            "dim" if kind == ImageKind::Image3d => Type::Vector(Scalar::Int, 4),
            "dim" if cw >= 2 && kind != ImageKind::Image1dArray => Type::Vector(Scalar::Int, 2),
            "array_size"
                if matches!(
                    kind,
                    ImageKind::Image1dArray
                        | ImageKind::Image2dArray
                        | ImageKind::Image2dArrayDepth
                ) =>
            {
                Type::SIZE_T
            }
            _ => return Some(Resolution::NoMatch(vec![format!("{name}(image)")])),
        };
        if args.len() != 1 {
            return arity(name, 1, args);
        }
        ret
    };
    let mut params = args.to_vec();
    if name.starts_with("read_image") && params.len() == 3 {
        params[1] = Type::Sampler;
    }
    Some(one(name, Family::Image, ret, params))
}

// atomic_flag_test_and_set(volatile atomic_flag *p[, order[, scope]]) and
// atomic_flag_clear: spec 6.15.12.8.
fn atomic_flag(name: &str, args: &[Type], env: &BuiltinEnv) -> Resolution {
    let explicit = name.ends_with("_explicit");
    let ret = if name.contains("test_and_set") {
        Type::BOOL
    } else {
        Type::Void
    };
    let space = match args.first() {
        Some(Type::Pointer(p)) if p.ty == Type::AtomicFlag => p.space,
        Some(Type::Error) => return one(name, Family::AtomicC11, ret, args.to_vec()),
        _ => {
            return Resolution::NoMatch(vec![format!("{name}(volatile atomic_flag *object, ...)")])
        }
    };
    let spaces_ok = matches!(space, AddrSpace::Global | AddrSpace::Local)
        || (env.generic && space != AddrSpace::Constant);
    let counts: &[usize] = if explicit { &[2, 3] } else { &[1] };
    if !spaces_ok || !counts.contains(&args.len()) || !args[1..].iter().all(|a| a.is_integer()) {
        return Resolution::NoMatch(vec![format!("{name}(volatile atomic_flag *object, ...)")]);
    }
    let mut params = vec![Type::ptr(
        Type::AtomicFlag,
        space,
        Quals {
            konst: false,
            volatile: true,
            restrict: false,
        },
    )];
    params.extend(args[1..].iter().map(|_| Type::INT));
    one(name, Family::AtomicC11, ret, params)
}

// printf(constant char *restrict format, ...): spec 6.15.14.
fn printf(args: &[Type]) -> Resolution {
    let fmt = Type::ptr(Type::CHAR, AddrSpace::Constant, Quals::CONST);
    let Some(first) = args.first() else {
        return Resolution::Invalid(
            "too few arguments to function call, at least argument 'format' must be specified"
                .into(),
        );
    };
    let ok = first.is_error()
        || matches!(first, Type::Pointer(p) if p.space == AddrSpace::Constant && p.ty == Type::CHAR);
    if !ok {
        return pick_best(
            Vec::new(),
            vec!["int printf(__constant char *restrict format, ...)".into()],
        );
    }
    Resolution::Found(BuiltinFn {
        name: "printf".into(),
        family: Family::Printf,
        ret: Type::INT,
        params: vec![fmt],
        variadic: true,
    })
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
    fn convert_names_parse() {
        let r = resolve_named(
            "convert_uchar4_sat_rte",
            &[Type::Vector(Scalar::Float, 4)],
            &env(),
        );
        let Some(Resolution::Found(f)) = r else {
            panic!("convert_uchar4_sat_rte")
        };
        assert_eq!(f.ret, Type::Vector(Scalar::UChar, 4));
        assert_eq!(
            f.family,
            Family::Convert {
                sat: true,
                rounding: Rounding::Rte
            }
        );
        assert!(resolve_named("convert_float_sat", &[Type::INT], &env()).is_none());
        assert!(matches!(
            resolve_named("convert_int4", &[Type::Vector(Scalar::Float, 2)], &env()),
            Some(Resolution::NoMatch(_))
        ));
    }

    #[test]
    fn as_type_checks_sizes() {
        assert!(matches!(
            resolve_named("as_int", &[Type::FLOAT], &env()),
            Some(Resolution::Found(_))
        ));
        assert!(matches!(
            resolve_named("as_int", &[Type::CHAR], &env()),
            Some(Resolution::Invalid(_))
        ));
        // A 3-vector has the size of a 4-vector.
        assert!(matches!(
            resolve_named("as_int4", &[Type::Vector(Scalar::Float, 3)], &env()),
            Some(Resolution::Found(_))
        ));
    }

    #[test]
    fn vload4_takes_the_pointer_space() {
        let p = Type::ptr(Type::FLOAT, AddrSpace::Constant, Quals::CONST);
        let Some(Resolution::Found(f)) =
            resolve_named("vload4", &[Type::SIZE_T, p.clone()], &env())
        else {
            panic!("vload4 from constant")
        };
        assert_eq!(f.ret, Type::Vector(Scalar::Float, 4));
        assert_eq!(f.params[1], p);
        let Some(Resolution::Found(f)) = resolve_named(
            "vstore_half4_rtz",
            &[
                Type::Vector(Scalar::Float, 4),
                Type::SIZE_T,
                Type::ptr(Type::Scalar(Scalar::Half), AddrSpace::Global, Quals::NONE),
            ],
            &env(),
        ) else {
            panic!("vstore_half4_rtz")
        };
        assert_eq!(f.ret, Type::Void);
    }
}
