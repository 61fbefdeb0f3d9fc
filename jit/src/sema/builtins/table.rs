//! The declarations of the OpenCL C 3.0 built-in functions (spec 6.15), as
//! compact family tables: one [`Entry`] stands for every overload its
//! gentype domain expands to (`sin` over float, float2 … double16, half …).
//!
//! Signature letters ([`T`]): `G` the gentype, `S` its element (`sgentype`),
//! `U` the unsigned integer gentype of the same element size, `I` the signed
//! integer gentype of the same element size (relational results and `select`
//! masks), `N` `int` of the same width (`intn` of `ldexp`, `frexp`),
//! `W` the integer twice as wide (`upsample`), fixed types, and pointers whose
//! address space expands over a [`Spaces`] set.
#![forbid(unsafe_code)]

use super::Family;
use crate::sema::types::Scalar;

/// A parameter or return type pattern.
#[derive(Clone, Copy, Debug)]
pub enum T {
    /// The gentype itself.
    G,
    /// Its element type.
    S,
    /// Unsigned integer, same element size, same width.
    U,
    /// Signed integer of the same element size and width; for scalars `int`
    /// when `rel_int` (relational functions), else the same size.
    I,
    /// `int` with the gentype's width.
    N,
    /// The integer with twice the element size, same signedness and width.
    W,
    /// A fixed scalar type.
    X(Scalar),
    Void,
    SizeT,
    Event,
    /// Pointer to a pattern, in one of a set of spaces; `bool`: const.
    P(Spaces, Pt, bool),
    /// Pointer to `volatile` atomic of the element (`volatile atomic_int *`).
    Atomic(Spaces),
    /// `float` with the gentype's width (`vload_halfn` result, `vstore_halfn` data).
    FN,
    /// `double` with the gentype's width.
    DN,
    /// A fixed 4-component vector (`uchar4`, `char4` of the integer dot
    /// products).
    V4(Scalar),
}

/// What a pointer parameter points to.
#[derive(Clone, Copy, Debug)]
pub enum Pt {
    G,
    S,
    N,
    X(Scalar),
    Event,
    /// `volatile S` (legacy atomics).
    VolS,
}

/// The address spaces a pointer parameter's overloads cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spaces {
    /// global, local, private (+ generic where supported): out-pointers.
    Writable,
    /// Writable plus constant: pointers read from.
    Readable,
    Global,
    Local,
    /// global and local (legacy atomics).
    GlobalLocal,
    /// global, local, generic-where-supported (C11 atomics).
    AtomicSpaces,
    Private,
}

/// A set of element types (bit i = `Scalar::VECTOR_ELEMS[i]`) and widths.
#[derive(Clone, Copy, Debug)]
pub struct Dom {
    pub elems: u16,
    /// Bits for widths 1, 2, 3, 4, 8, 16.
    pub widths: u8,
}

pub const CHAR: u16 = 1 << 0;
pub const UCHAR: u16 = 1 << 1;
pub const SHORT: u16 = 1 << 2;
pub const USHORT: u16 = 1 << 3;
pub const INT: u16 = 1 << 4;
pub const UINT: u16 = 1 << 5;
pub const LONG: u16 = 1 << 6;
pub const ULONG: u16 = 1 << 7;
pub const HALF: u16 = 1 << 8;
pub const FLOAT: u16 = 1 << 9;
pub const DOUBLE: u16 = 1 << 10;
pub const INTS: u16 = 0xff;
pub const SINTS: u16 = CHAR | SHORT | INT | LONG;
pub const FLOATS: u16 = HALF | FLOAT | DOUBLE;
pub const ALL: u16 = INTS | FLOATS;

pub const W1: u8 = 1;
pub const WV: u8 = 0b11_1110;
pub const WALL: u8 = 0b11_1111;
pub const W1234: u8 = 0b1111;

pub const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

const fn d(elems: u16, widths: u8) -> Dom {
    Dom { elems, widths }
}

/// One line of the table: names sharing a signature over a domain.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub names: &'static [&'static str],
    pub family: Family,
    pub dom: Dom,
    pub ret: T,
    pub params: &'static [T],
    /// `I` means `int` for scalars (relational functions).
    pub rel_int: bool,
    pub gate: Gate,
}

/// Which language version or feature a built-in needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Always,
    /// OpenCL C 2.0, or 3.0 (atomics, `ctz`, `work_group_barrier`).
    Cl20,
    /// OpenCL C 2.0, or 3.0 with `__opencl_c_work_group_collective_functions`.
    WorkGroupCollective,
    /// OpenCL C 2.0, or 3.0 with `__opencl_c_generic_address_space`.
    Generic,
    /// An extension must be advertised (`atom_*`).
    Ext(&'static str),
    /// OpenCL C 2.0 or later with `cl_khr_subgroups`, or 3.0 with
    /// `__opencl_c_subgroups` (as clang's header declares them).
    SubGroups,
    /// Sub-groups (as [`Gate::SubGroups`]) and this sub-group extension
    /// advertised (`cl_khr_subgroup_shuffle`, ...).
    SubGroupExt(&'static str),
}

const fn e(
    names: &'static [&'static str],
    family: Family,
    dom: Dom,
    ret: T,
    params: &'static [T],
) -> Entry {
    Entry {
        names,
        family,
        dom,
        ret,
        params,
        rel_int: false,
        gate: Gate::Always,
    }
}

const fn rel(names: &'static [&'static str], dom: Dom, params: &'static [T]) -> Entry {
    Entry {
        names,
        family: Family::Relational,
        dom,
        ret: T::I,
        params,
        rel_int: true,
        gate: Gate::Always,
    }
}

const fn gated(mut en: Entry, gate: Gate) -> Entry {
    en.gate = gate;
    en
}

use Family as F;
use T::*;

const FALL: Dom = d(FLOATS, WALL);
const FVEC: Dom = d(FLOATS, WV);
const IALL: Dom = d(INTS, WALL);
const IVEC: Dom = d(INTS, WV);
const FLT: Dom = d(FLOAT, WALL);
const ANY: Dom = d(ALL, WALL);
const ONE: Dom = d(INT, W1);
const WR: Spaces = Spaces::Writable;

/// Math functions (spec 6.15.2).
pub const MATH: &[Entry] = &[
    e(
        &[
            "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi",
            "cbrt", "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1",
            "fabs", "floor", "lgamma", "log", "log2", "log10", "log1p", "logb", "rint", "round",
            "rsqrt", "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
        ],
        F::Math,
        FALL,
        G,
        &[G],
    ),
    e(
        &[
            "atan2",
            "atan2pi",
            "copysign",
            "fdim",
            "fmax",
            "fmin",
            "fmod",
            "hypot",
            "maxmag",
            "minmag",
            "nextafter",
            "pow",
            "powr",
            "remainder",
        ],
        F::Math,
        FALL,
        G,
        &[G, G],
    ),
    e(&["fmax", "fmin"], F::Math, FVEC, G, &[G, S]),
    e(&["fma", "mad"], F::Math, FALL, G, &[G, G, G]),
    e(
        &["fract", "modf", "sincos"],
        F::Math,
        FALL,
        G,
        &[G, P(WR, Pt::G, false)],
    ),
    e(
        &["frexp", "lgamma_r"],
        F::Math,
        FALL,
        G,
        &[G, P(WR, Pt::N, false)],
    ),
    e(&["remquo"], F::Math, FALL, G, &[G, G, P(WR, Pt::N, false)]),
    e(&["ilogb"], F::Math, FALL, N, &[G]),
    e(&["ldexp", "pown", "rootn"], F::Math, FALL, G, &[G, N]),
    e(&["ldexp"], F::Math, FVEC, G, &[G, X(Scalar::Int)]),
    e(&["nan"], F::Math, FALL, G, &[U]),
    e(
        &[
            "half_cos",
            "half_exp",
            "half_exp2",
            "half_exp10",
            "half_log",
            "half_log2",
            "half_log10",
            "half_recip",
            "half_rsqrt",
            "half_sin",
            "half_sqrt",
            "half_tan",
            "native_cos",
            "native_exp",
            "native_exp2",
            "native_exp10",
            "native_log",
            "native_log2",
            "native_log10",
            "native_recip",
            "native_rsqrt",
            "native_sin",
            "native_sqrt",
            "native_tan",
        ],
        F::Math,
        FLT,
        G,
        &[G],
    ),
    e(
        &["half_divide", "half_powr", "native_divide", "native_powr"],
        F::Math,
        FLT,
        G,
        &[G, G],
    ),
];

/// Integer functions (spec 6.15.3).
pub const INTEGER: &[Entry] = &[
    e(&["abs"], F::Integer, IALL, U, &[G]),
    e(&["abs_diff"], F::Integer, IALL, U, &[G, G]),
    e(
        &[
            "add_sat", "hadd", "rhadd", "mul_hi", "rotate", "sub_sat", "max", "min",
        ],
        F::Integer,
        IALL,
        G,
        &[G, G],
    ),
    e(&["max", "min"], F::Integer, IVEC, G, &[G, S]),
    e(
        &["clamp", "mad_hi", "mad_sat"],
        F::Integer,
        IALL,
        G,
        &[G, G, G],
    ),
    e(&["clamp"], F::Integer, IVEC, G, &[G, S, S]),
    e(&["clz", "popcount"], F::Integer, IALL, G, &[G]),
    gated(e(&["ctz"], F::Integer, IALL, G, &[G]), Gate::Cl20),
    e(
        &["upsample"],
        F::Integer,
        d(CHAR | UCHAR | SHORT | USHORT | INT | UINT, WALL),
        W,
        &[G, U],
    ),
    e(&["mad24"], F::Integer, d(INT | UINT, WALL), G, &[G, G, G]),
    e(&["mul24"], F::Integer, d(INT | UINT, WALL), G, &[G, G]),
    // cl_khr_extended_bit_ops (OpenCL C 3.0 6.15.4 "Extended Bit Operations").
    gated(
        e(
            &["bitfield_insert"],
            F::Integer,
            IALL,
            G,
            &[G, G, X(Scalar::UInt), X(Scalar::UInt)],
        ),
        Gate::Ext("cl_khr_extended_bit_ops"),
    ),
    gated(
        e(
            &["bitfield_extract_signed"],
            F::Integer,
            IALL,
            I,
            &[G, X(Scalar::UInt), X(Scalar::UInt)],
        ),
        Gate::Ext("cl_khr_extended_bit_ops"),
    ),
    gated(
        e(
            &["bitfield_extract_unsigned"],
            F::Integer,
            IALL,
            U,
            &[G, X(Scalar::UInt), X(Scalar::UInt)],
        ),
        Gate::Ext("cl_khr_extended_bit_ops"),
    ),
    gated(
        e(&["bit_reverse"], F::Integer, IALL, G, &[G]),
        Gate::Ext("cl_khr_extended_bit_ops"),
    ),
];

/// cl_khr_integer_dot_product (OpenCL C 3.0 6.15.5 "Integer Dot Product
/// Functions"): `dot` and `dot_acc_sat` of two 4-vectors of 8-bit
/// integers, and their forms on four 8-bit integers packed in a `uint`.
/// Each overload once (the domain is one `int`; the types are fixed).
pub const DOT_PRODUCT: &[Entry] = &[
    dot(
        &["dot"],
        X(Scalar::UInt),
        &[V4(Scalar::UChar), V4(Scalar::UChar)],
    ),
    dot(
        &["dot"],
        X(Scalar::Int),
        &[V4(Scalar::Char), V4(Scalar::Char)],
    ),
    dot(
        &["dot"],
        X(Scalar::Int),
        &[V4(Scalar::UChar), V4(Scalar::Char)],
    ),
    dot(
        &["dot"],
        X(Scalar::Int),
        &[V4(Scalar::Char), V4(Scalar::UChar)],
    ),
    dot(
        &["dot_acc_sat"],
        X(Scalar::UInt),
        &[V4(Scalar::UChar), V4(Scalar::UChar), X(Scalar::UInt)],
    ),
    dot(
        &["dot_acc_sat"],
        X(Scalar::Int),
        &[V4(Scalar::Char), V4(Scalar::Char), X(Scalar::Int)],
    ),
    dot(
        &["dot_acc_sat"],
        X(Scalar::Int),
        &[V4(Scalar::UChar), V4(Scalar::Char), X(Scalar::Int)],
    ),
    dot(
        &["dot_acc_sat"],
        X(Scalar::Int),
        &[V4(Scalar::Char), V4(Scalar::UChar), X(Scalar::Int)],
    ),
    dot(
        &["dot_4x8packed_uu_uint"],
        X(Scalar::UInt),
        &[X(Scalar::UInt), X(Scalar::UInt)],
    ),
    dot(
        &[
            "dot_4x8packed_ss_int",
            "dot_4x8packed_us_int",
            "dot_4x8packed_su_int",
        ],
        X(Scalar::Int),
        &[X(Scalar::UInt), X(Scalar::UInt)],
    ),
    dot(
        &["dot_acc_sat_4x8packed_uu_uint"],
        X(Scalar::UInt),
        &[X(Scalar::UInt), X(Scalar::UInt), X(Scalar::UInt)],
    ),
    dot(
        &[
            "dot_acc_sat_4x8packed_ss_int",
            "dot_acc_sat_4x8packed_us_int",
            "dot_acc_sat_4x8packed_su_int",
        ],
        X(Scalar::Int),
        &[X(Scalar::UInt), X(Scalar::UInt), X(Scalar::Int)],
    ),
];

const fn dot(names: &'static [&'static str], ret: T, params: &'static [T]) -> Entry {
    gated(
        e(names, F::Integer, d(INT, W1), ret, params),
        Gate::Ext("cl_khr_integer_dot_product"),
    )
}

/// Common functions (spec 6.15.4).
pub const COMMON: &[Entry] = &[
    e(
        &["clamp", "mix", "smoothstep"],
        F::Common,
        FALL,
        G,
        &[G, G, G],
    ),
    e(&["clamp"], F::Common, FVEC, G, &[G, S, S]),
    e(&["mix"], F::Common, FVEC, G, &[G, G, S]),
    e(&["smoothstep"], F::Common, FVEC, G, &[S, S, G]),
    e(&["degrees", "radians", "sign"], F::Common, FALL, G, &[G]),
    e(&["max", "min", "step"], F::Common, FALL, G, &[G, G]),
    e(&["max", "min"], F::Common, FVEC, G, &[G, S]),
    e(&["step"], F::Common, FVEC, G, &[S, G]),
];

/// Geometric functions (spec 6.15.5), on widths 1–4.
pub const GEOMETRIC: &[Entry] = &[
    e(
        &["dot", "distance"],
        F::Geometric,
        d(FLOATS, W1234),
        S,
        &[G, G],
    ),
    e(&["length"], F::Geometric, d(FLOATS, W1234), S, &[G]),
    e(&["normalize"], F::Geometric, d(FLOATS, W1234), G, &[G]),
    e(&["cross"], F::Geometric, d(FLOATS, 0b1100), G, &[G, G]),
    e(
        &["fast_distance"],
        F::Geometric,
        d(FLOAT, W1234),
        S,
        &[G, G],
    ),
    e(&["fast_length"], F::Geometric, d(FLOAT, W1234), S, &[G]),
    e(&["fast_normalize"], F::Geometric, d(FLOAT, W1234), G, &[G]),
];

/// Relational functions (spec 6.15.6).
pub const RELATIONAL: &[Entry] = &[
    rel(
        &[
            "isequal",
            "isnotequal",
            "isgreater",
            "isgreaterequal",
            "isless",
            "islessequal",
            "islessgreater",
            "isordered",
            "isunordered",
        ],
        FALL,
        &[G, G],
    ),
    rel(
        &["isfinite", "isinf", "isnan", "isnormal", "signbit"],
        FALL,
        &[G],
    ),
    e(
        &["any", "all"],
        F::Relational,
        d(SINTS, WALL),
        X(Scalar::Int),
        &[G],
    ),
    e(&["bitselect"], F::Relational, ANY, G, &[G, G, G]),
    e(&["select"], F::Relational, ANY, G, &[G, G, I]),
    e(&["select"], F::Relational, ANY, G, &[G, G, U]),
];

/// Synchronization and fences (spec 6.15.8, 6.15.9); `cl_mem_fence_flags` is `uint`.
pub const SYNC: &[Entry] = &[
    e(
        &["barrier", "mem_fence", "read_mem_fence", "write_mem_fence"],
        F::Sync,
        ONE,
        Void,
        &[X(Scalar::UInt)],
    ),
    gated(
        e(
            &["get_enqueued_local_size"],
            F::WorkItem,
            ONE,
            SizeT,
            &[X(Scalar::UInt)],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["work_group_barrier"],
            F::Sync,
            ONE,
            Void,
            &[X(Scalar::UInt)],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["work_group_barrier"],
            F::Sync,
            ONE,
            Void,
            &[X(Scalar::UInt), X(Scalar::Int)],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_work_item_fence"],
            F::Sync,
            ONE,
            Void,
            &[X(Scalar::UInt), X(Scalar::Int), X(Scalar::Int)],
        ),
        Gate::Cl20,
    ),
];

/// Work-item functions (spec 6.15.1).
pub const WORK_ITEM: &[Entry] = &[
    e(&["get_work_dim"], F::WorkItem, ONE, X(Scalar::UInt), &[]),
    e(
        &[
            "get_global_size",
            "get_global_id",
            "get_local_size",
            "get_local_id",
            "get_num_groups",
            "get_group_id",
            "get_global_offset",
        ],
        F::WorkItem,
        ONE,
        SizeT,
        &[X(Scalar::UInt)],
    ),
    gated(
        e(
            &["get_global_linear_id", "get_local_linear_id"],
            F::WorkItem,
            ONE,
            SizeT,
            &[],
        ),
        Gate::Cl20,
    ),
];

/// Async copies and prefetch (spec 6.15.11).
pub const ASYNC: &[Entry] = &[
    e(
        &["async_work_group_copy"],
        F::AsyncCopy,
        ANY,
        Event,
        &[
            P(Spaces::Local, Pt::G, false),
            P(Spaces::Global, Pt::G, true),
            SizeT,
            Event,
        ],
    ),
    e(
        &["async_work_group_copy"],
        F::AsyncCopy,
        ANY,
        Event,
        &[
            P(Spaces::Global, Pt::G, false),
            P(Spaces::Local, Pt::G, true),
            SizeT,
            Event,
        ],
    ),
    e(
        &["async_work_group_strided_copy"],
        F::AsyncCopy,
        ANY,
        Event,
        &[
            P(Spaces::Local, Pt::G, false),
            P(Spaces::Global, Pt::G, true),
            SizeT,
            SizeT,
            Event,
        ],
    ),
    e(
        &["async_work_group_strided_copy"],
        F::AsyncCopy,
        ANY,
        Event,
        &[
            P(Spaces::Global, Pt::G, false),
            P(Spaces::Local, Pt::G, true),
            SizeT,
            SizeT,
            Event,
        ],
    ),
    e(
        &["wait_group_events"],
        F::AsyncCopy,
        ONE,
        Void,
        &[X(Scalar::Int), P(Spaces::Private, Pt::Event, false)],
    ),
    e(
        &["prefetch"],
        F::AsyncCopy,
        ANY,
        Void,
        &[P(Spaces::Global, Pt::G, true), SizeT],
    ),
];

const A32: Dom = d(INT | UINT, W1);
const A64: Dom = d(LONG | ULONG, W1);
const GL: Spaces = Spaces::GlobalLocal;

/// The `atom_*` functions of one extension pair (spec 9.5/9.6 and the
/// int64 atomics): add, sub, xchg, inc, dec and cmpxchg belong to the
/// `*_base_atomics` extension; min, max, and, or and xor to
/// `*_extended_atomics`.
macro_rules! atom {
    ($spaces:expr, $dom:expr, $base:literal, $extended:literal) => {
        [
            gated(
                e(
                    &["atom_add", "atom_sub", "atom_xchg"],
                    F::Atomic,
                    $dom,
                    S,
                    &[P($spaces, Pt::VolS, false), S],
                ),
                Gate::Ext($base),
            ),
            gated(
                e(
                    &["atom_inc", "atom_dec"],
                    F::Atomic,
                    $dom,
                    S,
                    &[P($spaces, Pt::VolS, false)],
                ),
                Gate::Ext($base),
            ),
            gated(
                e(
                    &["atom_cmpxchg"],
                    F::Atomic,
                    $dom,
                    S,
                    &[P($spaces, Pt::VolS, false), S, S],
                ),
                Gate::Ext($base),
            ),
            gated(
                e(
                    &["atom_min", "atom_max", "atom_and", "atom_or", "atom_xor"],
                    F::Atomic,
                    $dom,
                    S,
                    &[P($spaces, Pt::VolS, false), S],
                ),
                Gate::Ext($extended),
            ),
        ]
    };
}

/// 32-bit atomic functions of OpenCL C 1.1+ (spec 6.15.12.7, `atomic_*` on
/// `volatile global/local int/uint *`).
pub const ATOMIC_LEGACY: &[Entry] = &[
    e(
        &[
            "atomic_add",
            "atomic_sub",
            "atomic_xchg",
            "atomic_min",
            "atomic_max",
            "atomic_and",
            "atomic_or",
            "atomic_xor",
        ],
        F::Atomic,
        A32,
        S,
        &[P(GL, Pt::VolS, false), S],
    ),
    e(
        &["atomic_xchg"],
        F::Atomic,
        d(FLOAT, W1),
        S,
        &[P(GL, Pt::VolS, false), S],
    ),
    e(
        &["atomic_inc", "atomic_dec"],
        F::Atomic,
        A32,
        S,
        &[P(GL, Pt::VolS, false)],
    ),
    e(
        &["atomic_cmpxchg"],
        F::Atomic,
        A32,
        S,
        &[P(GL, Pt::VolS, false), S, S],
    ),
];

/// `atom_*` on 32-bit global, 32-bit local, and 64-bit global/local integers.
pub const ATOM_GLOBAL32: &[Entry] = &atom!(
    Spaces::Global,
    A32,
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics"
);
pub const ATOM_LOCAL32: &[Entry] = &atom!(
    Spaces::Local,
    A32,
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics"
);
pub const ATOM_64: &[Entry] = &atom!(
    GL,
    A64,
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics"
);

const AINT: Dom = d(INT | UINT | LONG | ULONG, W1);
const AALL: Dom = d(INT | UINT | LONG | ULONG | FLOAT | DOUBLE, W1);
const AS: Spaces = Spaces::AtomicSpaces;
const MO: T = X(Scalar::Int);

/// C11-style atomics of OpenCL C 2.0 (spec 6.15.12); `memory_order` and
/// `memory_scope` are `int` enums.
pub const ATOMIC_C11: &[Entry] = &[
    gated(
        e(
            &["atomic_init", "atomic_store"],
            F::AtomicC11,
            AALL,
            Void,
            &[Atomic(AS), S],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_store_explicit"],
            F::AtomicC11,
            AALL,
            Void,
            &[Atomic(AS), S, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_store_explicit"],
            F::AtomicC11,
            AALL,
            Void,
            &[Atomic(AS), S, MO, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(&["atomic_load"], F::AtomicC11, AALL, S, &[Atomic(AS)]),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_load_explicit"],
            F::AtomicC11,
            AALL,
            S,
            &[Atomic(AS), MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_load_explicit"],
            F::AtomicC11,
            AALL,
            S,
            &[Atomic(AS), MO, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_exchange"],
            F::AtomicC11,
            AALL,
            S,
            &[Atomic(AS), S],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_exchange_explicit"],
            F::AtomicC11,
            AALL,
            S,
            &[Atomic(AS), S, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &["atomic_exchange_explicit"],
            F::AtomicC11,
            AALL,
            S,
            &[Atomic(AS), S, MO, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_compare_exchange_strong",
                "atomic_compare_exchange_weak",
            ],
            F::AtomicC11,
            AALL,
            X(Scalar::Bool),
            &[Atomic(AS), P(WR, Pt::S, false), S],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_compare_exchange_strong_explicit",
                "atomic_compare_exchange_weak_explicit",
            ],
            F::AtomicC11,
            AALL,
            X(Scalar::Bool),
            &[Atomic(AS), P(WR, Pt::S, false), S, MO, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_compare_exchange_strong_explicit",
                "atomic_compare_exchange_weak_explicit",
            ],
            F::AtomicC11,
            AALL,
            X(Scalar::Bool),
            &[Atomic(AS), P(WR, Pt::S, false), S, MO, MO, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_fetch_add",
                "atomic_fetch_sub",
                "atomic_fetch_or",
                "atomic_fetch_xor",
                "atomic_fetch_and",
                "atomic_fetch_min",
                "atomic_fetch_max",
            ],
            F::AtomicC11,
            AINT,
            S,
            &[Atomic(AS), S],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_fetch_add_explicit",
                "atomic_fetch_sub_explicit",
                "atomic_fetch_or_explicit",
                "atomic_fetch_xor_explicit",
                "atomic_fetch_and_explicit",
                "atomic_fetch_min_explicit",
                "atomic_fetch_max_explicit",
            ],
            F::AtomicC11,
            AINT,
            S,
            &[Atomic(AS), S, MO],
        ),
        Gate::Cl20,
    ),
    gated(
        e(
            &[
                "atomic_fetch_add_explicit",
                "atomic_fetch_sub_explicit",
                "atomic_fetch_or_explicit",
                "atomic_fetch_xor_explicit",
                "atomic_fetch_and_explicit",
                "atomic_fetch_min_explicit",
                "atomic_fetch_max_explicit",
            ],
            F::AtomicC11,
            AINT,
            S,
            &[Atomic(AS), S, MO, MO],
        ),
        Gate::Cl20,
    ),
];

/// Work-group collective functions (spec 6.15.16).
pub const WORK_GROUP: &[Entry] = &[
    gated(
        e(
            &["work_group_all", "work_group_any"],
            F::WorkGroup,
            ONE,
            X(Scalar::Int),
            &[X(Scalar::Int)],
        ),
        Gate::WorkGroupCollective,
    ),
    gated(
        e(
            &[
                "work_group_reduce_add",
                "work_group_reduce_min",
                "work_group_reduce_max",
                "work_group_scan_inclusive_add",
                "work_group_scan_inclusive_min",
                "work_group_scan_inclusive_max",
                "work_group_scan_exclusive_add",
                "work_group_scan_exclusive_min",
                "work_group_scan_exclusive_max",
            ],
            F::WorkGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G],
        ),
        Gate::WorkGroupCollective,
    ),
    gated(
        e(
            &["work_group_broadcast"],
            F::WorkGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G, SizeT],
        ),
        Gate::WorkGroupCollective,
    ),
    gated(
        e(
            &["work_group_broadcast"],
            F::WorkGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G, SizeT, SizeT],
        ),
        Gate::WorkGroupCollective,
    ),
    gated(
        e(
            &["work_group_broadcast"],
            F::WorkGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G, SizeT, SizeT, SizeT],
        ),
        Gate::WorkGroupCollective,
    ),
];

/// Sub-group functions (`cl_khr_subgroups`, 6.15.19 of OpenCL C 3.0,
/// the `__opencl_c_subgroups` feature): the work-item queries, the barrier
/// and the collectives over the work-items of one sub-group.
pub const SUB_GROUP: &[Entry] = &[
    gated(
        e(
            &[
                "get_sub_group_size",
                "get_max_sub_group_size",
                "get_num_sub_groups",
                "get_enqueued_num_sub_groups",
                "get_sub_group_id",
                "get_sub_group_local_id",
            ],
            F::WorkItem,
            ONE,
            X(Scalar::UInt),
            &[],
        ),
        Gate::SubGroups,
    ),
    gated(
        e(
            &["sub_group_barrier"],
            F::SubGroup,
            ONE,
            Void,
            &[X(Scalar::UInt)],
        ),
        Gate::SubGroups,
    ),
    gated(
        e(
            &["sub_group_barrier"],
            F::SubGroup,
            ONE,
            Void,
            &[X(Scalar::UInt), X(Scalar::Int)],
        ),
        Gate::SubGroups,
    ),
    gated(
        e(
            &["sub_group_all", "sub_group_any"],
            F::SubGroup,
            ONE,
            X(Scalar::Int),
            &[X(Scalar::Int)],
        ),
        Gate::SubGroups,
    ),
    gated(
        e(
            &[
                "sub_group_reduce_add",
                "sub_group_reduce_min",
                "sub_group_reduce_max",
                "sub_group_scan_inclusive_add",
                "sub_group_scan_inclusive_min",
                "sub_group_scan_inclusive_max",
                "sub_group_scan_exclusive_add",
                "sub_group_scan_exclusive_min",
                "sub_group_scan_exclusive_max",
            ],
            F::SubGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G],
        ),
        Gate::SubGroups,
    ),
    gated(
        e(
            &["sub_group_broadcast"],
            F::SubGroup,
            d(INT | UINT | LONG | ULONG | HALF | FLOAT | DOUBLE, W1),
            G,
            &[G, X(Scalar::UInt)],
        ),
        Gate::SubGroups,
    ),
];

/// The arithmetic operations of the non-uniform and clustered reductions
/// and scans, by the element types they take: `add`, `min`, `max`, `mul`
/// on every scalar type; `and`, `or`, `xor` on the integers; the
/// `logical_*` ones on `int` predicates.
macro_rules! sub_group_ops {
    ($ext:expr, $params:expr, [$($arith:expr),*], [$($bits:expr),*], [$($logical:expr),*]) => {
        [
            gated(e(&[$($arith),*], F::SubGroup, d(ALL, W1), G, $params), Gate::SubGroupExt($ext)),
            gated(e(&[$($bits),*], F::SubGroup, d(INTS, W1), G, $params), Gate::SubGroupExt($ext)),
            gated(e(&[$($logical),*], F::SubGroup, ONE, G, $params), Gate::SubGroupExt($ext)),
        ]
    };
}

/// The sub-group extensions over the sub-group functions (OpenCL
/// Extension Specification, "Extended Subgroup Functions"): each entry
/// needs sub-groups and its own extension.
pub const SUB_GROUP_EXT: &[Entry] = &{
    const SMALL: u16 = CHAR | UCHAR | SHORT | USHORT;
    const EXTENDED: &str = "cl_khr_subgroup_extended_types";
    const VOTE: &str = "cl_khr_subgroup_non_uniform_vote";
    const ARITH: &str = "cl_khr_subgroup_non_uniform_arithmetic";
    const CLUSTERED: &str = "cl_khr_subgroup_clustered_reduce";
    const SHUFFLE: &str = "cl_khr_subgroup_shuffle";
    const RELATIVE: &str = "cl_khr_subgroup_shuffle_relative";
    const ROTATE: &str = "cl_khr_subgroup_rotate";
    const BALLOT: &str = "cl_khr_subgroup_ballot";
    const UINT4: T = V4(Scalar::UInt);
    let head = [
        // cl_khr_subgroup_extended_types: 8- and 16-bit reductions and
        // scans, and broadcasts of every type, vectors included.
        gated(
            e(
                &[
                    "sub_group_reduce_add",
                    "sub_group_reduce_min",
                    "sub_group_reduce_max",
                    "sub_group_scan_inclusive_add",
                    "sub_group_scan_inclusive_min",
                    "sub_group_scan_inclusive_max",
                    "sub_group_scan_exclusive_add",
                    "sub_group_scan_exclusive_min",
                    "sub_group_scan_exclusive_max",
                ],
                F::SubGroup,
                d(SMALL, W1),
                G,
                &[G],
            ),
            Gate::SubGroupExt(EXTENDED),
        ),
        gated(
            e(
                &["sub_group_broadcast"],
                F::SubGroup,
                d(SMALL, W1),
                G,
                &[G, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(EXTENDED),
        ),
        gated(
            e(
                &["sub_group_broadcast"],
                F::SubGroup,
                d(ALL, WV),
                G,
                &[G, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(EXTENDED),
        ),
        // cl_khr_subgroup_non_uniform_vote.
        gated(
            e(&["sub_group_elect"], F::SubGroup, ONE, X(Scalar::Int), &[]),
            Gate::SubGroupExt(VOTE),
        ),
        gated(
            e(
                &["sub_group_non_uniform_all", "sub_group_non_uniform_any"],
                F::SubGroup,
                ONE,
                X(Scalar::Int),
                &[X(Scalar::Int)],
            ),
            Gate::SubGroupExt(VOTE),
        ),
        gated(
            e(
                &["sub_group_non_uniform_all_equal"],
                F::SubGroup,
                d(ALL, W1),
                X(Scalar::Int),
                &[G],
            ),
            Gate::SubGroupExt(VOTE),
        ),
        // cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_relative,
        // cl_khr_subgroup_rotate.
        gated(
            e(
                &["sub_group_shuffle", "sub_group_shuffle_xor"],
                F::SubGroup,
                d(ALL, W1),
                G,
                &[G, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(SHUFFLE),
        ),
        gated(
            e(
                &["sub_group_shuffle_up", "sub_group_shuffle_down"],
                F::SubGroup,
                d(ALL, W1),
                G,
                &[G, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(RELATIVE),
        ),
        gated(
            e(
                &["sub_group_rotate"],
                F::SubGroup,
                d(ALL, W1),
                G,
                &[G, X(Scalar::Int)],
            ),
            Gate::SubGroupExt(ROTATE),
        ),
        gated(
            e(
                &["sub_group_clustered_rotate"],
                F::SubGroup,
                d(ALL, W1),
                G,
                &[G, X(Scalar::Int), X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(ROTATE),
        ),
        // cl_khr_subgroup_ballot.
        gated(
            e(
                &["sub_group_non_uniform_broadcast"],
                F::SubGroup,
                ANY,
                G,
                &[G, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(&["sub_group_broadcast_first"], F::SubGroup, ANY, G, &[G]),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(
                &["sub_group_ballot"],
                F::SubGroup,
                ONE,
                UINT4,
                &[X(Scalar::Int)],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(
                &["sub_group_inverse_ballot"],
                F::SubGroup,
                ONE,
                X(Scalar::Int),
                &[UINT4],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(
                &["sub_group_ballot_bit_extract"],
                F::SubGroup,
                ONE,
                X(Scalar::Int),
                &[UINT4, X(Scalar::UInt)],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(
                &[
                    "sub_group_ballot_bit_count",
                    "sub_group_ballot_inclusive_scan",
                    "sub_group_ballot_exclusive_scan",
                    "sub_group_ballot_find_lsb",
                    "sub_group_ballot_find_msb",
                ],
                F::SubGroup,
                ONE,
                X(Scalar::UInt),
                &[UINT4],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
        gated(
            e(
                &[
                    "get_sub_group_eq_mask",
                    "get_sub_group_ge_mask",
                    "get_sub_group_gt_mask",
                    "get_sub_group_le_mask",
                    "get_sub_group_lt_mask",
                ],
                F::SubGroup,
                ONE,
                UINT4,
                &[],
            ),
            Gate::SubGroupExt(BALLOT),
        ),
    ];
    let arith = sub_group_ops!(
        ARITH,
        &[G],
        [
            "sub_group_non_uniform_reduce_add",
            "sub_group_non_uniform_reduce_min",
            "sub_group_non_uniform_reduce_max",
            "sub_group_non_uniform_reduce_mul",
            "sub_group_non_uniform_scan_inclusive_add",
            "sub_group_non_uniform_scan_inclusive_min",
            "sub_group_non_uniform_scan_inclusive_max",
            "sub_group_non_uniform_scan_inclusive_mul",
            "sub_group_non_uniform_scan_exclusive_add",
            "sub_group_non_uniform_scan_exclusive_min",
            "sub_group_non_uniform_scan_exclusive_max",
            "sub_group_non_uniform_scan_exclusive_mul"
        ],
        [
            "sub_group_non_uniform_reduce_and",
            "sub_group_non_uniform_reduce_or",
            "sub_group_non_uniform_reduce_xor",
            "sub_group_non_uniform_scan_inclusive_and",
            "sub_group_non_uniform_scan_inclusive_or",
            "sub_group_non_uniform_scan_inclusive_xor",
            "sub_group_non_uniform_scan_exclusive_and",
            "sub_group_non_uniform_scan_exclusive_or",
            "sub_group_non_uniform_scan_exclusive_xor"
        ],
        [
            "sub_group_non_uniform_reduce_logical_and",
            "sub_group_non_uniform_reduce_logical_or",
            "sub_group_non_uniform_reduce_logical_xor",
            "sub_group_non_uniform_scan_inclusive_logical_and",
            "sub_group_non_uniform_scan_inclusive_logical_or",
            "sub_group_non_uniform_scan_inclusive_logical_xor",
            "sub_group_non_uniform_scan_exclusive_logical_and",
            "sub_group_non_uniform_scan_exclusive_logical_or",
            "sub_group_non_uniform_scan_exclusive_logical_xor"
        ]
    );
    let clustered = sub_group_ops!(
        CLUSTERED,
        &[G, X(Scalar::UInt)],
        [
            "sub_group_clustered_reduce_add",
            "sub_group_clustered_reduce_min",
            "sub_group_clustered_reduce_max",
            "sub_group_clustered_reduce_mul"
        ],
        [
            "sub_group_clustered_reduce_and",
            "sub_group_clustered_reduce_or",
            "sub_group_clustered_reduce_xor"
        ],
        [
            "sub_group_clustered_reduce_logical_and",
            "sub_group_clustered_reduce_logical_or",
            "sub_group_clustered_reduce_logical_xor"
        ]
    );
    // head, then the arithmetic and clustered lines.
    let mut out = [head[0]; 17 + 3 + 3];
    assert!(out.len() == head.len() + arith.len() + clustered.len());
    let mut i = 0;
    while i < head.len() {
        out[i] = head[i];
        i += 1;
    }
    let mut j = 0;
    while j < 3 {
        out[head.len() + j] = arith[j];
        out[head.len() + 3 + j] = clustered[j];
        j += 1;
    }
    out
};

/// Every table, searched in this order.
pub const TABLES: &[&[Entry]] = &[
    MATH,
    INTEGER,
    DOT_PRODUCT,
    COMMON,
    GEOMETRIC,
    RELATIONAL,
    SYNC,
    WORK_ITEM,
    ASYNC,
    ATOMIC_LEGACY,
    ATOM_GLOBAL32,
    ATOM_LOCAL32,
    ATOM_64,
    ATOMIC_C11,
    WORK_GROUP,
    SUB_GROUP,
    SUB_GROUP_EXT,
];
