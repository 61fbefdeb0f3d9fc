//! Image built-ins (spec 6.15.15): `read_image{f,i,ui}` with and without a
//! sampler, `write_image{f,i,ui}` and the `get_image_*` queries.
//!
//! An image argument is the address of its [`ImageDesc`] (the memory
//! object owns it); a sampler is its `CLK_*` bits (an `int`). The queries
//! are loads from the descriptor. A read or write is a call of a host
//! function per work-item, which converts and samples with
//! `cranecl_memory::image` — the same code the host commands use — through
//! two small stack buffers for the coordinates and the texel. In the lanes
//! ([`emit_lanes`]) one call serves the four work-items of a step: the
//! coordinates, colours and results pass through 64-byte stack buffers
//! component by component (`[component][lane]`, as the lanes keep vectors)
//! to `cranecl_memory::image_lanes`, which decides format, sampler and
//! filter once per call and does the common formats in SIMD.
//! `read_imageh` (offered by sema only with `cl_khr_fp16`) reads
//! `Texel::Half` words (normalized integers rounded once to `half`);
//! `write_imageh` goes through the float path, its colour widened exactly.
//!
//! Under checked `bounds` each read and write has a site and calls the
//! checked host functions instead, which also pass the work-item and the
//! site to `runtime::check::cranecl_check_image` (coordinates where the
//! spec leaves the access undefined, images the kernel may not read or
//! write); unchecked code calls the plain ones, unchanged. In the lanes
//! the checked call also serves four work-items: it checks each lane, then
//! reads or writes the four at once when none reported.

use crate::codegen::{CValue, FunctionCx, LVal, LaneCx, Pk};
use crate::runtime::check::{self, SiteKind};
use crate::sema::builtins::BuiltinFn;
use crate::sema::types::{ImageKind, Scalar, Type};
use cranecl_memory::image::{self, ImageDesc, Texel};
use cranecl_memory::image_lanes::{self, Lanes4};
use cranelift_codegen::ir::{types, InstBuilder};
use std::mem::offset_of;

/// Flags of the read and write host functions: the result kind in bits 0–1,
/// bit 2 float coordinates, bit 3 `half` colours (`read_imageh`,
/// `write_imageh`: in the low 16 bits of each word).
const FLOAT_COORDS: u32 = 4;
const HALF: u32 = 8;
/// The read has a sampler (checked mode tells sampler-less reads apart).
const SAMPLER: u32 = 16;

fn texel_kind(bits: u32) -> Texel {
    match bits & 3 {
        0 => Texel::Float,
        1 => Texel::Int,
        _ => Texel::UInt,
    }
}

/// `read_image*`: four words at `out` from the coordinates at `coord`.
extern "C" fn read_image(
    img: *const ImageDesc,
    sampler: u32,
    flags: u32,
    coord: *const [u32; 4],
    out: *mut [u32; 4],
) {
    if img.is_null() {
        return;
    }
    // SAFETY: generated code passes the descriptor of an image argument
    // (kept alive by the launch) and two 16-byte stack buffers.
    unsafe {
        let d = &*img;
        // read_imageh: rounded to `half` once, from the texel (`Texel::Half`).
        let kind = if flags & HALF != 0 {
            Texel::Half
        } else {
            texel_kind(flags)
        };
        let r = image::read(d, sampler, kind, flags & FLOAT_COORDS != 0, coord.read());
        out.write(r);
    }
}

/// Checked `read_image*`: as [`read_image`] after `cranecl_check_image`
/// (zeros when it reports).
extern "C" fn read_image_checked(
    img: *const ImageDesc,
    sampler: u32,
    flags: u32,
    coord: *const [u32; 4],
    out: *mut [u32; 4],
    item: *mut crate::runtime::ItemState,
    site: u32,
    me: u64,
) {
    if img.is_null() {
        return;
    }
    let mut access = 0;
    if flags & SAMPLER != 0 {
        access |= check::IMAGE_SAMPLER;
    }
    if flags & FLOAT_COORDS != 0 {
        access |= check::IMAGE_FLOAT_COORDS;
    }
    // SAFETY: generated code passes an image argument's descriptor, its
    // item and a site of its program, and two 16-byte stack buffers.
    let go =
        unsafe { check::cranecl_check_image(item, site, me, &*img, access, sampler, coord.read()) };
    if go {
        read_image(img, sampler, flags, coord, out);
    } else {
        // SAFETY: a 16-byte stack buffer.
        unsafe { out.write([0; 4]) };
    }
}

/// Checked `write_image*`: as [`write_image`] after `cranecl_check_image`
/// (dropped when it reports).
extern "C" fn write_image_checked(
    img: *const ImageDesc,
    flags: u32,
    coord: *const [i32; 4],
    color: *const [u32; 4],
    item: *mut crate::runtime::ItemState,
    site: u32,
    me: u64,
) {
    if img.is_null() {
        return;
    }
    // SAFETY: as in `read_image_checked`.
    let go = unsafe {
        let c = coord.read().map(|v| v as u32);
        check::cranecl_check_image(item, site, me, &*img, check::IMAGE_WRITE, 0, c)
    };
    if go {
        write_image(img, flags, coord, color);
    }
}

/// `write_image*`: the colour at `color` to the texel at `coord`.
extern "C" fn write_image(
    img: *const ImageDesc,
    flags: u32,
    coord: *const [i32; 4],
    color: *const [u32; 4],
) {
    if img.is_null() {
        return;
    }
    // SAFETY: as in `read_image`.
    unsafe {
        let c = color.read();
        let c = if flags & HALF != 0 {
            c.map(|w| image::half_to_f32(w as u16).to_bits())
        } else {
            c
        };
        image::write(&*img, texel_kind(flags), coord.read(), c)
    }
}

/// `read_image{f,i,ui}` of the four work-items of a lanes step:
/// `coord[c][lane]` in, `[channel][lane]` out.
extern "C" fn read_image_lanes(
    img: *const ImageDesc,
    sampler: u32,
    flags: u32,
    coord: *const Lanes4,
    out: *mut Lanes4,
) {
    if img.is_null() {
        return;
    }
    // SAFETY: generated code passes the descriptor of an image argument
    // (kept alive by the launch) and two 64-byte stack buffers.
    unsafe {
        let r = image_lanes::read_lanes(
            &*img,
            sampler,
            texel_kind(flags),
            flags & FLOAT_COORDS != 0,
            &*coord,
        );
        out.write(r);
    }
}

/// The checked access bits of a read with `flags`.
fn read_access(flags: u32) -> u32 {
    let mut access = 0;
    if flags & SAMPLER != 0 {
        access |= check::IMAGE_SAMPLER;
    }
    if flags & FLOAT_COORDS != 0 {
        access |= check::IMAGE_FLOAT_COORDS;
    }
    access
}

/// Lane `k` of words given component by component.
fn lane_of<T: Copy>(v: &[[T; 4]; 4], k: usize) -> [T; 4] {
    [v[0][k], v[1][k], v[2][k], v[3][k]]
}

/// Checked mode's view of the four work-items of a lanes step: the item,
/// the site, lane 0's work-item and the step between the lanes' (lane `k`
/// is work-item `me + k * me_step`, as the lanes name their work-items).
struct Checked {
    item: *mut crate::runtime::ItemState,
    site: u32,
    me: u64,
    me_step: u64,
}

impl Checked {
    /// `None` when the four accesses (lane `k`'s coordinates `words[c][k]`)
    /// all pass, tested together and silently; else which lanes pass, each
    /// lane checked by `cranecl_check_image` as its work-item (which
    /// reports), lane 0 first.
    ///
    /// # Safety
    /// As `cranecl_check_image`.
    unsafe fn verdict(
        &self,
        d: &ImageDesc,
        access: u32,
        sampler: u32,
        words: &Lanes4,
    ) -> Option<[bool; 4]> {
        // SAFETY: the caller's contract.
        if unsafe { check::image_lanes_clean(self.item, d, access, sampler, words) } {
            return None;
        }
        let go: [bool; 4] = std::array::from_fn(|k| {
            let me = self.me.wrapping_add(k as u64 * self.me_step);
            // SAFETY: the caller's contract.
            unsafe {
                check::cranecl_check_image(
                    self.item,
                    self.site,
                    me,
                    d,
                    access,
                    sampler,
                    lane_of(words, k),
                )
            }
        });
        (go != [true; 4]).then_some(go)
    }
}

/// Checked [`read_image_lanes`]: the four-lane read when the lanes'
/// accesses all pass ([`Checked::verdict`]), else lane by lane with zeros
/// where a lane reported.
#[allow(clippy::too_many_arguments)]
extern "C" fn read_image_lanes_checked(
    img: *const ImageDesc,
    sampler: u32,
    flags: u32,
    coord: *const Lanes4,
    out: *mut Lanes4,
    item: *mut crate::runtime::ItemState,
    site: u32,
    me: u64,
    me_step: u64,
) {
    if img.is_null() {
        return;
    }
    // SAFETY: generated code passes an image argument's descriptor, its
    // item and a site of its program, and two 64-byte stack buffers.
    let (d, c) = unsafe { (&*img, &*coord) };
    let lanes = Checked {
        item,
        site,
        me,
        me_step,
    };
    // SAFETY: as above.
    let Some(go) = (unsafe { lanes.verdict(d, read_access(flags), sampler, c) }) else {
        read_image_lanes(img, sampler, flags, coord, out);
        return;
    };
    let mut r = [[0u32; 4]; 4];
    for (k, _) in go.iter().enumerate().filter(|(_, &g)| g) {
        let mut v = [0u32; 4];
        read_image(img, sampler, flags, &lane_of(c, k), &mut v);
        for (ch, w) in v.into_iter().enumerate() {
            r[ch][k] = w;
        }
    }
    // SAFETY: a 64-byte stack buffer.
    unsafe { out.write(r) };
}

/// Checked [`write_image_lanes`]: as [`read_image_lanes_checked`]; a lane
/// that reports is dropped.
#[allow(clippy::too_many_arguments)]
extern "C" fn write_image_lanes_checked(
    img: *const ImageDesc,
    flags: u32,
    coord: *const [[i32; 4]; 4],
    color: *const Lanes4,
    item: *mut crate::runtime::ItemState,
    site: u32,
    me: u64,
    me_step: u64,
) {
    if img.is_null() {
        return;
    }
    // SAFETY: as in `read_image_lanes_checked`.
    let (d, c, col) = unsafe { (&*img, &*coord, &*color) };
    let words = c.map(|comp| comp.map(|v| v as u32));
    let lanes = Checked {
        item,
        site,
        me,
        me_step,
    };
    // SAFETY: as above.
    let Some(go) = (unsafe { lanes.verdict(d, check::IMAGE_WRITE, 0, &words) }) else {
        write_image_lanes(img, flags, coord, color);
        return;
    };
    for (k, _) in go.iter().enumerate().filter(|(_, &g)| g) {
        write_image(img, flags, &lane_of(c, k), &lane_of(col, k));
    }
}

/// `write_image{f,i,ui}` of the four work-items of a lanes step.
extern "C" fn write_image_lanes(
    img: *const ImageDesc,
    flags: u32,
    coord: *const [[i32; 4]; 4],
    color: *const Lanes4,
) {
    if img.is_null() {
        return;
    }
    // SAFETY: as in `read_image_lanes`.
    unsafe { image_lanes::write_lanes(&*img, texel_kind(flags), &*coord, &*color) }
}

fn kind_bits(s: Scalar) -> Option<u32> {
    match s {
        Scalar::Float => Some(0),
        Scalar::Half => Some(HALF),
        Scalar::Int => Some(1),
        Scalar::UInt => Some(2),
        _ => None,
    }
}

/// Store up to four lanes at a fresh 16-byte stack buffer.
fn spill(fx: &mut FunctionCx<'_, '_>, v: &CValue) -> Result<cranelift_codegen::ir::Value, String> {
    let at = fx.stack_temp(16, 16);
    let zero = fx.b.ins().iconst(types::I32, 0);
    let lanes = v.lanes()?;
    for k in 0..4 {
        let x = lanes.get(k).copied().unwrap_or(zero);
        fx.b.ins().store(super::mem(), x, at, (k * 4) as i32);
    }
    Ok(at)
}

pub(super) fn emit(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[CValue],
    arg_tys: &[Type],
) -> Option<Result<CValue, String>> {
    let kind = match arg_tys.first() {
        Some(Type::Image(k, _)) => *k,
        _ => return None,
    };
    // Depth images (cl_khr_depth_images) read and write one float: the
    // texel's first word (a CL_DEPTH texel loads as (d, 0, 0, 1), its
    // border as 0.0), and a written depth is that word.
    let depth = matches!(kind, ImageKind::Image2dDepth | ImageKind::Image2dArrayDepth);
    let img = match args[0].scalar() {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    if let Some(sfx) = f.name.strip_prefix("read_image") {
        let s = match sfx {
            "f" => Scalar::Float,
            "i" => Scalar::Int,
            "ui" => Scalar::UInt,
            // With cl_khr_fp16 (sema offers them only then).
            "h" => Scalar::Half,
            _ => return None,
        };
        let r = read(fx, s, img, args, arg_tys);
        if depth {
            return Some(r.and_then(|v| Ok(CValue::Scalar(v.lanes()?[0]))));
        }
        return Some(r);
    }
    if let Some(sfx) = f.name.strip_prefix("write_image") {
        let s = match sfx {
            "f" => Scalar::Float,
            "i" => Scalar::Int,
            "ui" => Scalar::UInt,
            // With cl_khr_fp16 (sema offers them only then).
            "h" => Scalar::Half,
            _ => return None,
        };
        return Some(write(fx, s, img, args));
    }
    let query = f.name.strip_prefix("get_image_")?;
    if query == "dim" && f.ret.width() == 4 {
        return Some(Ok(dim3(fx, img)));
    }
    Some(self::query(fx, query, img))
}

fn read(
    fx: &mut FunctionCx<'_, '_>,
    s: Scalar,
    img: cranelift_codegen::ir::Value,
    args: &[CValue],
    arg_tys: &[Type],
) -> Result<CValue, String> {
    let mut flags = kind_bits(s).ok_or("internal: read_image kind")?;
    let (sampler, coord, coord_ty) = match (args, arg_tys) {
        ([_, smp, c], [_, _, ct]) => {
            flags |= SAMPLER;
            (smp.scalar()?, c, ct)
        }
        ([_, c], [_, ct]) => (fx.b.ins().iconst(types::I32, 0), c, ct),
        _ => return Err("internal: read_image arguments".into()),
    };
    if coord_ty.elem() == Some(Scalar::Float) {
        flags |= FLOAT_COORDS;
    }
    let at = spill(fx, coord)?;
    let out = fx.stack_temp(16, 16);
    let flags = fx.b.ins().iconst(types::I32, i64::from(flags));
    let params = [types::I64, types::I32, types::I32, types::I64, types::I64];
    if fx.pcx.check.bounds {
        let (item, site, me) = checked_args(fx);
        fx.call_host(
            read_image_checked as *const u8,
            &[&params[..], &[types::I64, types::I32, types::I64]].concat(),
            &[],
            &[img, sampler, flags, at, out, item, site, me],
        );
    } else {
        fx.call_host(
            read_image as *const u8,
            &params,
            &[],
            &[img, sampler, flags, at, out],
        );
    }
    let t = super::clif(s);
    let lanes = (0..4)
        .map(|k| fx.b.ins().load(t, super::mem(), out, k * 4))
        .collect();
    Ok(CValue::Lanes(lanes))
}

fn write(
    fx: &mut FunctionCx<'_, '_>,
    s: Scalar,
    img: cranelift_codegen::ir::Value,
    args: &[CValue],
) -> Result<CValue, String> {
    let [_, coord, color] = args else {
        return Err("internal: write_image arguments".into());
    };
    let flags = kind_bits(s).ok_or("internal: write_image kind")?;
    let at = spill(fx, coord)?;
    let col = spill(fx, color)?;
    let flags = fx.b.ins().iconst(types::I32, i64::from(flags));
    let params = [types::I64, types::I32, types::I64, types::I64];
    if fx.pcx.check.bounds {
        let (item, site, me) = checked_args(fx);
        fx.call_host(
            write_image_checked as *const u8,
            &[&params[..], &[types::I64, types::I32, types::I64]].concat(),
            &[],
            &[img, flags, at, col, item, site, me],
        );
    } else {
        fx.call_host(
            write_image as *const u8,
            &params,
            &[],
            &[img, flags, at, col],
        );
    }
    Ok(CValue::Void)
}

/// Store the first four components of lanes `4 r..4 r + 4` of `v` at a
/// fresh 64-byte stack buffer, component `c` of the group's lane `k` at
/// `16 c + 4 k` (zeros for components `v` lacks).
fn spill_lanes(
    fx: &mut FunctionCx<'_, '_>,
    v: &LVal,
    r: usize,
) -> Result<cranelift_codegen::ir::Value, String> {
    let at = fx.stack_temp(64, 16);
    let is_vec = |fx: &FunctionCx<'_, '_>, x: cranelift_codegen::ir::Value| {
        let t = fx.b.func.dfg.value_type(x);
        t.is_vector() && t.bits() == 128 && t.lane_bits() == 32
    };
    let packed: Option<Vec<cranelift_codegen::ir::Value>> = match v {
        LVal::Vec(x) => Some(vec![x.regs()[r]]),
        LVal::VecN(c) => Some(c.iter().map(|x| x.regs()[r]).collect()),
        _ => None,
    };
    let stored = match packed {
        Some(c) if c.len() <= 4 && c.iter().all(|x| is_vec(fx, *x)) => {
            for (k, x) in c.iter().enumerate() {
                fx.b.ins().store(super::mem(), *x, at, (k * 16) as i32);
            }
            c.len()
        }
        _ => {
            let mut n = 0;
            for k in 0..4 {
                let lane = LaneCx::lane(fx, v, 4 * r + k).lanes()?;
                if lane.len() > 4 {
                    return Err("internal: image coordinate of more than 4 components".into());
                }
                for (c, x) in lane.iter().enumerate() {
                    if fx.b.func.dfg.value_type(*x).bits() != 32 {
                        return Err("internal: image lane value not of 32 bits".into());
                    }
                    fx.b.ins()
                        .store(super::mem(), *x, at, (c * 16 + k * 4) as i32);
                }
                n = lane.len();
            }
            n
        }
    };
    if stored < 4 {
        let zero = fx.b.ins().iconst(types::I32, 0);
        let zero = fx.b.ins().splat(types::I32X4, zero);
        for c in stored..4 {
            fx.b.ins().store(super::mem(), zero, at, (c * 16) as i32);
        }
    }
    Ok(at)
}

/// Whether [`spill_lanes`] takes `v`: at most four components of 32 bits
/// in every lane.
fn spillable(fx: &FunctionCx<'_, '_>, v: &LVal) -> bool {
    let ty = |x: &cranelift_codegen::ir::Value| fx.b.func.dfg.value_type(*x);
    let word = |x: &cranelift_codegen::ir::Value| ty(x).bits() == 32 && !ty(x).is_vector();
    let cvalue = |c: &CValue| match c {
        CValue::Scalar(x) => word(x),
        CValue::Lanes(l) => l.len() <= 4 && l.iter().all(word),
        _ => false,
    };
    match v {
        LVal::Uni(c) => cvalue(c),
        LVal::Aff { base, .. } => word(base),
        LVal::Lanes(l) => l.len() == fx.step_lanes() && l.iter().all(cvalue),
        LVal::Vec(x) => ty(&x.regs()[0]).bits() == 128 && ty(&x.regs()[0]).lane_bits() == 32,
        LVal::VecN(c) => {
            c.len() <= 4
                && c.iter()
                    .all(|x| ty(&x.regs()[0]).bits() == 128 && ty(&x.regs()[0]).lane_bits() == 32)
        }
    }
}

/// The lanes' `read_image{f,i,ui}` and `write_image{f,i,ui}`: one host
/// call for each four work-items of a step (`args` the lanes' values of
/// the arguments, of types `arg_tys`). `None` where the caller calls once
/// per lane instead: depth images and `half` colours, an image or sampler that
/// is not the same in every lane, coordinates or colours of other shapes.
pub(crate) fn emit_lanes(
    fx: &mut FunctionCx<'_, '_>,
    f: &BuiltinFn,
    args: &[LVal],
    arg_tys: &[Type],
) -> Option<Result<LVal, String>> {
    let Some(Type::Image(kind, _)) = arg_tys.first() else {
        return None;
    };
    if matches!(kind, ImageKind::Image2dDepth | ImageKind::Image2dArrayDepth) {
        return None;
    }
    let LVal::Uni(CValue::Scalar(img)) = args.first()? else {
        return None;
    };
    let img = *img;
    let kind_of = |sfx: &str| match sfx {
        "f" => Some(Scalar::Float),
        "i" => Some(Scalar::Int),
        "ui" => Some(Scalar::UInt),
        _ => None,
    };
    let packed = |s: Scalar| {
        if s == Scalar::Float {
            types::F32X4
        } else {
            types::I32X4
        }
    };
    if let Some(s) = f.name.strip_prefix("read_image").and_then(kind_of) {
        let mut flags = kind_bits(s)?;
        let (sampler, coord, coord_ty) = match (args, arg_tys) {
            ([_, LVal::Uni(CValue::Scalar(smp)), c], [_, _, ct]) => {
                flags |= SAMPLER;
                (*smp, c, ct)
            }
            ([_, c], [_, ct]) => (fx.b.ins().iconst(types::I32, 0), c, ct),
            _ => return None,
        };
        if coord_ty.elem() == Some(Scalar::Float) {
            flags |= FLOAT_COORDS;
        }
        if !spillable(fx, coord) {
            return None;
        }
        let r = (|| {
            let flags = fx.b.ins().iconst(types::I32, i64::from(flags));
            let t = packed(s);
            let mut comps: [Vec<cranelift_codegen::ir::Value>; 4] = Default::default();
            for r in 0..fx.regs {
                let at = spill_lanes(fx, coord, r)?;
                let out = fx.stack_temp(64, 16);
                let params = [types::I64, types::I32, types::I32, types::I64, types::I64];
                call_lanes(
                    fx,
                    [
                        read_image_lanes as *const u8,
                        read_image_lanes_checked as *const u8,
                    ],
                    &params,
                    &[img, sampler, flags, at, out],
                    4 * r,
                );
                for (c, comp) in comps.iter_mut().enumerate() {
                    comp.push(fx.b.ins().load(t, super::mem(), out, c as i32 * 16));
                }
            }
            Ok(LVal::VecN(comps.iter().map(|c| Pk::of(c)).collect()))
        })();
        return Some(r);
    }
    let s = f.name.strip_prefix("write_image").and_then(kind_of)?;
    let [_, coord, color] = args else {
        return None;
    };
    let flags = kind_bits(s)?;
    if !(spillable(fx, coord) && spillable(fx, color)) {
        return None;
    }
    let r = (|| {
        let flags = fx.b.ins().iconst(types::I32, i64::from(flags));
        for r in 0..fx.regs {
            let at = spill_lanes(fx, coord, r)?;
            let col = spill_lanes(fx, color, r)?;
            let params = [types::I64, types::I32, types::I64, types::I64];
            call_lanes(
                fx,
                [
                    write_image_lanes as *const u8,
                    write_image_lanes_checked as *const u8,
                ],
                &params,
                &[img, flags, at, col],
                4 * r,
            );
        }
        Ok(LVal::Lanes(vec![CValue::Void; fx.step_lanes()]))
    })();
    Some(r)
}

/// Call `f[0]` with `args` (typed `params`), or under checked `bounds`
/// `f[1]` with the work-item, the site, lane `first`'s work-item and the
/// lanes' step after them (`checked_lanes_args`).
fn call_lanes(
    fx: &mut FunctionCx<'_, '_>,
    f: [*const u8; 2],
    params: &[types::Type],
    args: &[cranelift_codegen::ir::Value],
    first: usize,
) {
    if fx.pcx.check.bounds {
        let (item, site, me, step) = checked_lanes_args(fx, first);
        let params = [params, &[types::I64, types::I32, types::I64, types::I64]].concat();
        let args = [args, &[item, site, me, step]].concat();
        fx.call_host(f[1], &params, &[], &args);
    } else {
        fx.call_host(f[0], params, &[], args);
    }
}

/// Checked mode's extra arguments of a lanes image access of lanes
/// `first..first + 4`: the item, a new site at the call, lane `first`'s
/// work-item and the step from one lane's to the next (1 where the lanes
/// name their own work-items, `lanes_me0`; 0 where they share one, as
/// their one-lane calls would).
fn checked_lanes_args(
    fx: &mut FunctionCx<'_, '_>,
    first: usize,
) -> (
    cranelift_codegen::ir::Value,
    cranelift_codegen::ir::Value,
    cranelift_codegen::ir::Value,
    cranelift_codegen::ir::Value,
) {
    let site = fx.site(SiteKind::Image, 0, 0, false);
    let site = fx.b.ins().iconst(types::I32, i64::from(site));
    let (me, step) = match fx.lanes_me0 {
        Some(me0) => (fx.b.ins().iadd_imm_s(me0, first as i64), 1),
        None => (fx.current_me(), 0),
    };
    let step = fx.b.ins().iconst(types::I64, step);
    (fx.item, site, me, step)
}

/// Checked mode's extra arguments of an image access: the item, a new
/// site at the call and the work-item (as loads and stores pass it).
fn checked_args(
    fx: &mut FunctionCx<'_, '_>,
) -> (
    cranelift_codegen::ir::Value,
    cranelift_codegen::ir::Value,
    cranelift_codegen::ir::Value,
) {
    let site = fx.site(SiteKind::Image, 0, 0, false);
    let site = fx.b.ins().iconst(types::I32, i64::from(site));
    let me = fx.current_me();
    (fx.item, site, me)
}

/// `get_image_*`: loads from the descriptor.
fn query(
    fx: &mut FunctionCx<'_, '_>,
    what: &str,
    img: cranelift_codegen::ir::Value,
) -> Result<CValue, String> {
    let field64 = |fx: &mut FunctionCx<'_, '_>, off: usize| {
        fx.b.ins().load(types::I64, super::mem(), img, off as i32)
    };
    let int = |fx: &mut FunctionCx<'_, '_>, off: usize| {
        let v = field64(fx, off);
        fx.b.ins().ireduce(types::I32, v)
    };
    let word = |fx: &mut FunctionCx<'_, '_>, off: usize| {
        fx.b.ins().load(types::I32, super::mem(), img, off as i32)
    };
    Ok(match what {
        "width" => CValue::Scalar(int(fx, offset_of!(ImageDesc, width))),
        "height" => CValue::Scalar(int(fx, offset_of!(ImageDesc, height))),
        "depth" => CValue::Scalar(int(fx, offset_of!(ImageDesc, depth))),
        "array_size" => CValue::Scalar(field64(fx, offset_of!(ImageDesc, array_size))),
        "channel_order" => CValue::Scalar(word(fx, offset_of!(ImageDesc, order))),
        "channel_data_type" => CValue::Scalar(word(fx, offset_of!(ImageDesc, data_type))),
        "dim" => {
            let w = int(fx, offset_of!(ImageDesc, width));
            let h = int(fx, offset_of!(ImageDesc, height));
            // int2 for 2D images and 2D arrays (3D: `dim3`).
            CValue::Lanes(vec![w, h])
        }
        _ => {
            return Err(format!(
                "the built-in function 'get_image_{what}' is not supported yet"
            ))
        }
    })
}

/// `get_image_dim` of a 3D image: (width, height, depth, 0).
fn dim3(fx: &mut FunctionCx<'_, '_>, img: cranelift_codegen::ir::Value) -> CValue {
    let load = |fx: &mut FunctionCx<'_, '_>, off: usize| {
        let v = fx.b.ins().load(types::I64, super::mem(), img, off as i32);
        fx.b.ins().ireduce(types::I32, v)
    };
    let w = load(fx, offset_of!(ImageDesc, width));
    let h = load(fx, offset_of!(ImageDesc, height));
    let d = load(fx, offset_of!(ImageDesc, depth));
    let z = fx.b.ins().iconst(types::I32, 0);
    CValue::Lanes(vec![w, h, d, z])
}
