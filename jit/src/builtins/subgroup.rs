//! Sub-group functions: `sub_group_barrier` and the collectives of
//! `__opencl_c_subgroups` (`sub_group_all`/`any`/`broadcast`/`reduce_<op>`/
//! `scan_*_<op>`), and those of the sub-group extensions:
//! `cl_khr_subgroup_extended_types` (8- and 16-bit operands, vector
//! broadcasts), `_non_uniform_vote` (`sub_group_elect`,
//! `sub_group_non_uniform_all`/`any`/`all_equal`), `_non_uniform_arithmetic`
//! (`sub_group_non_uniform_{reduce,scan_*}_<op>`, `<op>` also `mul`,
//! `and`, `or`, `xor`, `logical_*`), `_clustered_reduce`, `_shuffle`,
//! `_shuffle_relative`, `_rotate` and `_ballot`.
//!
//! A sub-group is `SUB_GROUP_SIZE` consecutive local linear ids (the last
//! one of a group may be partial). A collective works like a work-group
//! one (`workgroup.rs`): each work-item stores its operand in its 8-byte
//! slot of the group scratch and, in a second table after the slots
//! (`GROUP_SCRATCH_SIZE` bytes in, 4 bytes per work-item), a 32-bit tag
//! naming the call (its site's number, unique in the process, mixed with
//! the work-item's path of calls, `ItemState::sub_group_path`, which each
//! call of a function that reaches a collective updates), waits
//! at a sub-group barrier (`cranecl_sub_group_barrier`), computes its
//! answer on the host (`cranecl_sg_get`) from the slots of its sub-group
//! whose tag is its own, waits again, and clears its tag. The work-items
//! with that tag are the call's *active* work-items: those of the
//! sub-group that reached this call in this round of the coroutine
//! scheduler, which releases a sub-group barrier once every unfinished
//! work-item of the sub-group waits at one. So a non-uniform function
//! called in a branch combines only the work-items that took the branch,
//! and two branches calling collectives in the same round do not mix.
//! Kernels that reach these functions run as coroutines
//! (`walk::uses_sub_group_sync`). Values are combined in sub-group-local-id
//! order, so float results are the same on every run. A vector operand
//! (the broadcasts) is one collective per component.
//!
//! The ballot bit operations and the `get_sub_group_*_mask` functions read
//! no other work-item and are computed by `cranecl_sg_ballot` alone.

use super::workgroup::{from_slot, group_size, op_code, to_slot, workitem, Kind};
use super::{elem, unsupported};
use crate::codegen::{CValue, FunctionCx, GROUP_SCRATCH_SIZE};
use crate::runtime::offsets::ITEM_SUB_GROUP_PATH;
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::Type;
use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, Value};
use std::sync::atomic::{AtomicU32, Ordering};

/// What `cranecl_sg_get` computes.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
enum What {
    Reduce,
    ScanInclusive,
    ScanExclusive,
    All,
    Any,
    /// The value of the work-item whose sub-group local id is the argument.
    Broadcast,
    AllEqual,
    /// The value of the active work-item with the lowest id.
    BroadcastFirst,
    Elect,
    Ballot,
    Shuffle,
    ShuffleXor,
    ShuffleUp,
    ShuffleDown,
    /// Reduce over the cluster (of the argument's size) holding the item.
    ClusteredReduce,
    /// `(id + delta) mod size` within the cluster (the argument, or the
    /// maximum sub-group size).
    Rotate,
}

impl What {
    const ALL: [What; 16] = [
        What::Reduce,
        What::ScanInclusive,
        What::ScanExclusive,
        What::All,
        What::Any,
        What::Broadcast,
        What::AllEqual,
        What::BroadcastFirst,
        What::Elect,
        What::Ballot,
        What::Shuffle,
        What::ShuffleXor,
        What::ShuffleUp,
        What::ShuffleDown,
        What::ClusteredReduce,
        What::Rotate,
    ];
}

/// The ballot operations `cranecl_sg_ballot` computes.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
enum Bits {
    InverseBallot,
    BitExtract,
    BitCount,
    InclusiveScan,
    ExclusiveScan,
    FindLsb,
    FindMsb,
    EqMask,
    GeMask,
    GtMask,
    LeMask,
    LtMask,
}

impl Bits {
    const ALL: [Bits; 12] = [
        Bits::InverseBallot,
        Bits::BitExtract,
        Bits::BitCount,
        Bits::InclusiveScan,
        Bits::ExclusiveScan,
        Bits::FindLsb,
        Bits::FindMsb,
        Bits::EqMask,
        Bits::GeMask,
        Bits::GtMask,
        Bits::LeMask,
        Bits::LtMask,
    ];
    fn from_name(name: &str) -> Option<Bits> {
        Some(match name {
            "sub_group_inverse_ballot" => Bits::InverseBallot,
            "sub_group_ballot_bit_extract" => Bits::BitExtract,
            "sub_group_ballot_bit_count" => Bits::BitCount,
            "sub_group_ballot_inclusive_scan" => Bits::InclusiveScan,
            "sub_group_ballot_exclusive_scan" => Bits::ExclusiveScan,
            "sub_group_ballot_find_lsb" => Bits::FindLsb,
            "sub_group_ballot_find_msb" => Bits::FindMsb,
            "get_sub_group_eq_mask" => Bits::EqMask,
            "get_sub_group_ge_mask" => Bits::GeMask,
            "get_sub_group_gt_mask" => Bits::GtMask,
            "get_sub_group_le_mask" => Bits::LeMask,
            "get_sub_group_lt_mask" => Bits::LtMask,
            _ => return None,
        })
    }
}

/// One sub-group function call, parsed from its name.
enum Call {
    Barrier,
    Collective { what: What, op: u32 },
    Bits(Bits),
}

fn parse(name: &str) -> Option<Call> {
    if let Some(b) = Bits::from_name(name) {
        return Some(Call::Bits(b));
    }
    let rest = name.strip_prefix("sub_group_")?;
    let what = |what| Some(Call::Collective { what, op: 0 });
    match rest {
        "barrier" => return Some(Call::Barrier),
        "all" | "non_uniform_all" => return what(What::All),
        "any" | "non_uniform_any" => return what(What::Any),
        "broadcast" | "non_uniform_broadcast" => return what(What::Broadcast),
        "broadcast_first" => return what(What::BroadcastFirst),
        "non_uniform_all_equal" => return what(What::AllEqual),
        "elect" => return what(What::Elect),
        "ballot" => return what(What::Ballot),
        "shuffle" => return what(What::Shuffle),
        "shuffle_xor" => return what(What::ShuffleXor),
        "shuffle_up" => return what(What::ShuffleUp),
        "shuffle_down" => return what(What::ShuffleDown),
        "rotate" | "clustered_rotate" => return what(What::Rotate),
        _ => {}
    }
    let rest = rest.strip_prefix("non_uniform_").unwrap_or(rest);
    let (what, op) = [
        ("reduce_", What::Reduce),
        ("scan_inclusive_", What::ScanInclusive),
        ("scan_exclusive_", What::ScanExclusive),
        ("clustered_reduce_", What::ClusteredReduce),
    ]
    .into_iter()
    .find_map(|(p, w)| rest.strip_prefix(p).map(|op| (w, op)))?;
    Some(Call::Collective {
        what,
        op: op_code(op)?,
    })
}

/// `cranecl_sg_get`: the answer of work-item `me` of a sub-group of
/// `count` work-items whose slots are `table` and tags `tags`; the active
/// ones carry `tag`. `arg`: the index, delta, mask or cluster size;
/// `arg2`: the rotation's cluster size (the maximum sub-group size for
/// `sub_group_rotate`).
#[allow(clippy::too_many_arguments)]
extern "C" fn sg_get(
    table: *const u64,
    tags: *const u32,
    count: u64,
    me: u64,
    tag: u32,
    what: u32,
    op: u32,
    kind: u32,
    arg: u64,
    arg2: u64,
) -> u64 {
    let kind = Kind::from_code(kind);
    let Some(what) = What::ALL.get(what as usize).copied() else {
        return 0;
    };
    let (n, me) = (count as usize, me as usize);
    // SAFETY: generated code passes its sub-group's slots and tags in the
    // group scratch: `count` of each, written by the sub-group's items
    // (a slot whose tag is not `tag` is not read).
    let (v, t) = unsafe {
        (
            std::slice::from_raw_parts(table, n),
            std::slice::from_raw_parts(tags, n),
        )
    };
    let active = |i: &usize| *i < n && t[*i] == tag;
    // An index outside the sub-group is undefined: 0.
    let at = |i: usize| v.get(i).copied().unwrap_or(0);
    let fold = |ids: std::ops::Range<usize>| {
        ids.filter(active)
            .fold(kind.identity(op), |acc, i| kind.combine(op, acc, v[i]))
    };
    let first = (0..n).find(active);
    match what {
        What::Reduce => fold(0..n),
        What::ScanInclusive => fold(0..me + 1),
        What::ScanExclusive => fold(0..me),
        What::All => u64::from((0..n).filter(active).all(|i| v[i] as u32 != 0)),
        What::Any => u64::from((0..n).filter(active).any(|i| v[i] as u32 != 0)),
        What::AllEqual => u64::from((0..n).filter(active).all(|i| kind.equal(v[i], at(me)))),
        What::Broadcast | What::Shuffle => at(arg as usize),
        What::BroadcastFirst => first.map_or(0, at),
        What::Elect => u64::from(first == Some(me)),
        What::Ballot => (0..n)
            .filter(active)
            .filter(|i| v[*i] as u32 != 0)
            .fold(0, |m, i| m | 1 << i),
        What::ShuffleXor => at(me ^ arg as usize),
        What::ShuffleUp => me.checked_sub(arg as usize).map_or(0, at),
        What::ShuffleDown => me.checked_add(arg as usize).map_or(0, at),
        What::ClusteredReduce => {
            let c = (arg as usize).max(1);
            let base = me / c * c;
            fold(base..(base + c).min(n))
        }
        What::Rotate => {
            let c = (arg2 as usize).max(1);
            let base = me / c * c;
            let k = ((me - base) as i64 + arg as i64).rem_euclid(c as i64) as usize;
            at(base + k)
        }
    }
}

/// `cranecl_sg_ballot`: a ballot bit operation on the 128 bits `lo`, `hi`
/// (`uint4` x, y in `lo`, z, w in `hi`) for work-item `me` of a sub-group
/// of at most `max` items; `index` for `sub_group_ballot_bit_extract`.
/// The masks answer their low 64 bits (the sub-group has at most four items).
extern "C" fn sg_ballot(what: u32, lo: u64, hi: u64, me: u32, max: u32, index: u32) -> u64 {
    let Some(what) = Bits::ALL.get(what as usize).copied() else {
        return 0;
    };
    let value = u128::from(lo) | u128::from(hi) << 64;
    let below = |k: u32| {
        if k >= 128 {
            u128::MAX
        } else {
            (1u128 << k) - 1
        }
    };
    let bit = |k: u32| if k >= 128 { 0 } else { 1u128 << k };
    let group = value & below(max);
    let r = match what {
        Bits::InverseBallot => (value >> me.min(127)) & u128::from(me < 128),
        Bits::BitExtract => (value >> index.min(127)) & u128::from(index < 128),
        Bits::BitCount => u128::from(group.count_ones()),
        Bits::InclusiveScan => u128::from((value & below(me + 1)).count_ones()),
        Bits::ExclusiveScan => u128::from((value & below(me)).count_ones()),
        // No bit set: undefined, all ones (as `-1`).
        Bits::FindLsb => match group {
            0 => u128::from(u32::MAX),
            g => u128::from(g.trailing_zeros()),
        },
        Bits::FindMsb => match group {
            0 => u128::from(u32::MAX),
            g => u128::from(127 - g.leading_zeros()),
        },
        Bits::EqMask => bit(me),
        Bits::GeMask => below(max) & !below(me),
        Bits::GtMask => below(max) & !below(me + 1),
        Bits::LeMask => below(me + 1),
        Bits::LtMask => below(me),
    };
    r as u64
}

/// The host functions of this module.
pub(super) fn symbols() -> Vec<(&'static str, *const u8)> {
    vec![
        ("cranecl_sg_get", sg_get as *const u8),
        ("cranecl_sg_ballot", sg_ballot as *const u8),
    ]
}

/// The next call's tag (0 is never one: it marks a cleared slot).
static NEXT_TAG: AtomicU32 = AtomicU32::new(1);

/// Before a call of a user function that reaches a sub-group collective:
/// the item's call path (`ItemState::sub_group_path`) takes this call site
/// in; the old path is returned for [`leave_sub_group_call`].
pub fn enter_sub_group_call(fx: &mut FunctionCx<'_, '_>) -> Value {
    let site = NEXT_TAG.fetch_add(1, Ordering::Relaxed);
    let item = fx.item;
    let old =
        fx.b.ins()
            .load(types::I64, super::mem(), item, ITEM_SUB_GROUP_PATH);
    let mixed = fx.b.ins().imul_imm_s(old, PATH_MULTIPLIER);
    let new = fx.b.ins().iadd_imm_s(mixed, i64::from(site));
    fx.b.ins()
        .store(super::mem(), new, item, ITEM_SUB_GROUP_PATH);
    old
}

/// After the call: the item's call path as it was.
pub fn leave_sub_group_call(fx: &mut FunctionCx<'_, '_>, old: Value) {
    let item = fx.item;
    fx.b.ins()
        .store(super::mem(), old, item, ITEM_SUB_GROUP_PATH);
}

/// An odd 64-bit constant (2^64 / the golden ratio) mixing a call path.
const PATH_MULTIPLIER: i64 = 0x9e37_79b9_7f4a_7c15_u64 as i64;

/// A collective's 32-bit tag: its call site's number mixed with the item's
/// call path (never 0).
fn call_tag(fx: &mut FunctionCx<'_, '_>, site: u32) -> Value {
    let item = fx.item;
    let path =
        fx.b.ins()
            .load(types::I64, super::mem(), item, ITEM_SUB_GROUP_PATH);
    let mixed = fx.b.ins().imul_imm_s(path, PATH_MULTIPLIER);
    let x = fx.b.ins().iadd_imm_s(mixed, i64::from(site));
    let high = fx.b.ins().ushr_imm_u(x, 32);
    let folded = fx.b.ins().bxor(x, high);
    let tag = fx.b.ins().ireduce(types::I32, folded);
    // 0 marks a cleared slot: a tag that folds to 0 becomes 1.
    let zero = fx.b.ins().icmp_imm_s(IntCC::Equal, tag, 0);
    let zero = fx.b.ins().uextend(types::I32, zero);
    fx.b.ins().bor(tag, zero)
}

/// `sub_group_barrier`, the sub-group collectives and the ballot bit
/// operations.
pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
) -> Option<Result<CValue, String>> {
    Some(match parse(&f.name)? {
        Call::Barrier => {
            fx.b.ins().fence();
            fx.emit_sub_group_barrier();
            fx.b.ins().fence();
            Ok(CValue::Void)
        }
        Call::Collective { what, op } => collective(fx, f, args, what, op),
        Call::Bits(b) => ballot_bits(fx, args, b),
    })
}

/// A collective: one per component of a vector operand.
fn collective(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    what: What,
    op: u32,
) -> Result<CValue, String> {
    // The operand's type: `sub_group_elect` has none (an `int` 0 stands in).
    let ty = f.params.first().cloned().unwrap_or(Type::INT);
    let s = elem(&ty)?;
    let kind = Kind::code_of(s).ok_or_else(|| unsupported(f))?;
    let operand = match args.first() {
        Some(a) => a.clone(),
        None => CValue::Scalar(fx.b.ins().iconst(types::I32, 0)),
    };
    // The second and third arguments: an index, delta, mask or cluster size.
    let extra = |fx: &mut FunctionCx<'_, '_>, k: usize| -> Result<Value, String> {
        match args.get(k) {
            Some(a) => {
                let v = a.scalar()?;
                // `sub_group_rotate`'s delta is an `int`: keep its sign.
                Ok(if what == What::Rotate && k == 1 {
                    fx.b.ins().sextend(types::I64, v)
                } else {
                    fx.b.ins().uextend(types::I64, v)
                })
            }
            None => Ok(fx.b.ins().iconst(types::I64, 0)),
        }
    };
    let arg = extra(fx, 1)?;
    let arg2 = match (what, args.len()) {
        // sub_group_rotate: "by the maximum sub-group size".
        (What::Rotate, 2) => {
            let max = workitem(fx, "get_max_sub_group_size", None)?;
            fx.b.ins().uextend(types::I64, max)
        }
        _ => extra(fx, 2)?,
    };
    let one = |fx: &mut FunctionCx<'_, '_>, x: Value| -> Result<Value, String> {
        let bits = to_slot(fx, s, x);
        one_collective(fx, bits, what, op, kind, arg, arg2)
    };
    match (&operand, what) {
        (CValue::Lanes(xs), _) => {
            let mut out = Vec::with_capacity(xs.len());
            for x in xs.clone() {
                let r = one(fx, x)?;
                out.push(from_slot(fx, s, r));
            }
            Ok(CValue::Lanes(out))
        }
        (_, What::Ballot) => {
            let r = one(fx, operand.scalar()?)?;
            let x = fx.b.ins().ireduce(types::I32, r);
            let zero = fx.b.ins().iconst(types::I32, 0);
            Ok(CValue::Lanes(vec![x, zero, zero, zero]))
        }
        (_, What::All | What::Any | What::AllEqual | What::Elect) => {
            let r = one(fx, operand.scalar()?)?;
            Ok(CValue::Scalar(fx.b.ins().ireduce(types::I32, r)))
        }
        _ => {
            let r = one(fx, operand.scalar()?)?;
            Ok(CValue::Scalar(from_slot(fx, s, r)))
        }
    }
}

/// One scalar collective on the 64-bit slot `bits`; its answer's 64 bits.
fn one_collective(
    fx: &mut FunctionCx<'_, '_>,
    bits: Value,
    what: What,
    op: u32,
    kind: u32,
    arg: Value,
    arg2: Value,
) -> Result<Value, String> {
    // Tags are 32 bits: one per call site compiled in this process, mixed
    // with the item's call path (the same for every item that came the
    // same way).
    let site = NEXT_TAG.fetch_add(1, Ordering::Relaxed);
    let tag = call_tag(fx, site);
    let scratch = fx.group_scratch();
    let lid = workitem(fx, "get_local_linear_id", None)?;
    let [_, _, n] = group_size(fx)?;
    let width = i64::from(crate::launch::SUB_GROUP_SIZE);
    let me = fx.b.ins().urem_imm_u(lid, width);
    let first = fx.b.ins().isub(lid, me);
    let first_off = fx.b.ins().imul_imm_s(first, 8);
    let table = fx.b.ins().iadd(scratch, first_off);
    let tag_area = fx.b.ins().iadd_imm_s(scratch, GROUP_SCRATCH_SIZE as i64);
    let first_tag_off = fx.b.ins().imul_imm_s(first, 4);
    let tags = fx.b.ins().iadd(tag_area, first_tag_off);
    let left = fx.b.ins().isub(n, first);
    let w = fx.b.ins().iconst(types::I64, width);
    let count = fx.b.ins().umin(left, w);
    let off = fx.b.ins().imul_imm_s(lid, 8);
    let slot = fx.b.ins().iadd(scratch, off);
    let tag_off = fx.b.ins().imul_imm_s(lid, 4);
    let tag_slot = fx.b.ins().iadd(tag_area, tag_off);
    fx.b.ins().store(super::mem(), bits, slot, 0);
    fx.b.ins().store(super::mem(), tag, tag_slot, 0);
    fx.emit_sub_group_barrier();
    let what = fx.b.ins().iconst(types::I32, what as i64);
    let op = fx.b.ins().iconst(types::I32, i64::from(op));
    let kind = fx.b.ins().iconst(types::I32, i64::from(kind));
    let r = super::math::host(
        fx,
        "cranecl_sg_get",
        &[
            types::I64,
            types::I64,
            types::I64,
            types::I64,
            types::I32,
            types::I32,
            types::I32,
            types::I32,
            types::I64,
            types::I64,
        ],
        types::I64,
        &[table, tags, count, me, tag, what, op, kind, arg, arg2],
    )?;
    fx.emit_sub_group_barrier();
    let zero = fx.b.ins().iconst(types::I32, 0);
    fx.b.ins().store(super::mem(), zero, tag_slot, 0);
    Ok(r)
}

/// The ballot bit operations and the sub-group masks.
fn ballot_bits(fx: &mut FunctionCx<'_, '_>, args: &[CValue], b: Bits) -> Result<CValue, String> {
    let (lo, hi) = match args.first() {
        Some(CValue::Lanes(l)) if l.len() == 4 => {
            let half = |fx: &mut FunctionCx<'_, '_>, a: Value, b: Value| {
                let a = fx.b.ins().uextend(types::I64, a);
                let b = fx.b.ins().uextend(types::I64, b);
                let b = fx.b.ins().ishl_imm_u(b, 32);
                fx.b.ins().bor(a, b)
            };
            (half(fx, l[0], l[1]), half(fx, l[2], l[3]))
        }
        _ => {
            let z = fx.b.ins().iconst(types::I64, 0);
            (z, z)
        }
    };
    let index = match args.get(1) {
        Some(a) => a.scalar()?,
        None => fx.b.ins().iconst(types::I32, 0),
    };
    let me = workitem(fx, "get_sub_group_local_id", None)?;
    let max = workitem(fx, "get_max_sub_group_size", None)?;
    let what = fx.b.ins().iconst(types::I32, b as i64);
    let r = super::math::host(
        fx,
        "cranecl_sg_ballot",
        &[
            types::I32,
            types::I64,
            types::I64,
            types::I32,
            types::I32,
            types::I32,
        ],
        types::I64,
        &[what, lo, hi, me, max, index],
    )?;
    let x = fx.b.ins().ireduce(types::I32, r);
    Ok(match b {
        Bits::EqMask | Bits::GeMask | Bits::GtMask | Bits::LeMask | Bits::LtMask => {
            let zero = fx.b.ins().iconst(types::I32, 0);
            CValue::Lanes(vec![x, zero, zero, zero])
        }
        _ => CValue::Scalar(x),
    })
}
