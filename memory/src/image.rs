//! Images on the host: the image formats cranecl supports, the layout of an
//! image's data store ([`ImageDesc`], which generated code receives for an
//! image kernel argument), the conversions between texels and the values
//! kernels and commands see, and sampling (addressing and filtering).
//!
//! Everything follows the OpenCL C specification's words: "Conversion
//! Rules" for normalized integer, half and integer channels (round to
//! nearest even, saturation) and "Image Addressing and Filtering" for the
//! sampler's addressing modes and its nearest and linear filters. The host
//! commands (`clEnqueueFillImage`, format checks) and the kernel built-ins
//! (`read_image*`, `write_image*`) share this one module.
//!
//! The numbers are the spec's enumerant values (`CL_RGBA` = 0x10B5, ...):
//! this crate does not depend on the API headers.

/// `cl_channel_order` values.
pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
    pub const RX: u32 = 0x10BA;
    pub const RGX: u32 = 0x10BB;
    pub const RGBX: u32 = 0x10BC;
    pub const DEPTH: u32 = 0x10BD;
    pub const SRGBA: u32 = 0x10C1;
    pub const SBGRA: u32 = 0x10C2;
    pub const ABGR: u32 = 0x10C3;
}

/// `cl_channel_type` values.
pub mod data_type {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const UNORM_SHORT_565: u32 = 0x10D4;
    pub const UNORM_SHORT_555: u32 = 0x10D5;
    pub const UNORM_INT_101010: u32 = 0x10D6;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
}

/// `cl_mem_object_type` values of images.
pub mod image_type {
    pub const IMAGE2D: u32 = 0x10F1;
    pub const IMAGE3D: u32 = 0x10F2;
    pub const IMAGE2D_ARRAY: u32 = 0x10F3;
    pub const IMAGE1D: u32 = 0x10F4;
    pub const IMAGE1D_ARRAY: u32 = 0x10F5;
    pub const IMAGE1D_BUFFER: u32 = 0x10F6;
}

/// The sampler bits generated code carries (`CLK_*` of the OpenCL C header):
/// bit 0 normalized coordinates, bits 1–3 the addressing mode, 0x10/0x20
/// the filter.
pub mod sampler {
    pub const NORMALIZED_COORDS_TRUE: u32 = 1;
    pub const ADDRESS_MASK: u32 = 0xE;
    pub const ADDRESS_NONE: u32 = 0;
    pub const ADDRESS_CLAMP_TO_EDGE: u32 = 2;
    pub const ADDRESS_CLAMP: u32 = 4;
    pub const ADDRESS_REPEAT: u32 = 6;
    pub const ADDRESS_MIRRORED_REPEAT: u32 = 8;
    pub const FILTER_NEAREST: u32 = 0x10;
    pub const FILTER_LINEAR: u32 = 0x20;
}

/// The channel orders offered, with the data types each takes.
const NORMAL_TYPES: [u32; 12] = {
    use data_type::*;
    [
        SNORM_INT8,
        SNORM_INT16,
        UNORM_INT8,
        UNORM_INT16,
        SIGNED_INT8,
        SIGNED_INT16,
        SIGNED_INT32,
        UNSIGNED_INT8,
        UNSIGNED_INT16,
        UNSIGNED_INT32,
        HALF_FLOAT,
        FLOAT,
    ]
};

/// Every `(channel order, channel data type)` pair an image may have: the
/// OpenCL 3.0 full profile's minimum list (RGBA with every type, BGRA with
/// UNORM_INT8, R and RG for read-write images) and a few more. Rx and RGx
/// take R's and RG's types (they are stored as R and RG, see [`channels`]).
pub fn supported_formats() -> Vec<(u32, u32)> {
    use data_type::*;
    let mut v = Vec::new();
    for o in [
        order::R,
        order::A,
        order::RG,
        order::RA,
        order::RGBA,
        order::RX,
        order::RGX,
    ] {
        for t in NORMAL_TYPES {
            v.push((o, t));
        }
    }
    for t in [UNORM_INT8, SNORM_INT8, SIGNED_INT8, UNSIGNED_INT8] {
        v.push((order::BGRA, t));
        v.push((order::ARGB, t));
        v.push((order::ABGR, t));
    }
    for o in [order::INTENSITY, order::LUMINANCE] {
        for t in [
            UNORM_INT8,
            UNORM_INT16,
            SNORM_INT8,
            SNORM_INT16,
            HALF_FLOAT,
            FLOAT,
        ] {
            v.push((o, t));
        }
    }
    // Packed RGB (the order's x bits unused).
    for o in [order::RGB, order::RGBX] {
        for t in [UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010] {
            v.push((o, t));
        }
    }
    // sRGB, read and (cl_khr_srgb_image_writes) written.
    v.push((order::SRGBA, UNORM_INT8));
    v.push((order::SBGRA, UNORM_INT8));
    v
}

/// The formats an image of `image_type` may have: [`supported_formats`],
/// and for 2D images and 2D image arrays the depth formats of
/// `cl_khr_depth_images` (`CL_DEPTH` with `CL_UNORM_INT16` or `CL_FLOAT`,
/// which the extension requires; depth images are 2D or 2D arrays only).
pub fn supported_formats_for(image_type: u32) -> Vec<(u32, u32)> {
    let mut v = supported_formats();
    if matches!(image_type, image_type::IMAGE2D | image_type::IMAGE2D_ARRAY) {
        v.push((order::DEPTH, data_type::UNORM_INT16));
        v.push((order::DEPTH, data_type::FLOAT));
    }
    v
}

/// The packed types: the widths and shifts of r, g, b, and the texel's
/// bytes.
fn packed(t: u32) -> Option<([u32; 3], [u32; 3], usize)> {
    use data_type::*;
    match t {
        UNORM_SHORT_565 => Some(([5, 6, 5], [11, 5, 0], 2)),
        UNORM_SHORT_555 => Some(([5, 5, 5], [10, 5, 0], 2)),
        UNORM_INT_101010 => Some(([10, 10, 10], [20, 10, 0], 4)),
        _ => None,
    }
}

/// sRGB to linear (the sRGB standard's curve, as the OpenCL spec gives it).
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear to sRGB (`cl_khr_srgb_image_writes`).
fn linear_to_srgb(c: f32) -> f32 {
    if c.is_nan() {
        0.0
    } else if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// Whether `(order, data_type)` is a supported format.
pub fn is_supported(order: u32, data_type: u32) -> bool {
    supported_formats().contains(&(order, data_type))
}

/// Whether `order` is a channel order the spec defines (so an unsupported
/// pair is `CL_IMAGE_FORMAT_NOT_SUPPORTED`, not `CL_INVALID_IMAGE_FORMAT_DESCRIPTOR`).
pub fn known_order(o: u32) -> bool {
    (0x10B0..=0x10BD).contains(&o) || (0x10BF..=0x10C3).contains(&o)
}

/// Whether `t` is a channel data type the spec defines.
pub fn known_data_type(t: u32) -> bool {
    (0x10D0..=0x10DF).contains(&t) || (0x10E0..=0x10E1).contains(&t)
}

/// Bytes of one channel of `data_type` (0 for types not supported here).
pub fn channel_size(t: u32) -> usize {
    use data_type::*;
    match t {
        SNORM_INT8 | UNORM_INT8 | SIGNED_INT8 | UNSIGNED_INT8 => 1,
        SNORM_INT16 | UNORM_INT16 | SIGNED_INT16 | UNSIGNED_INT16 | HALF_FLOAT => 2,
        SIGNED_INT32 | UNSIGNED_INT32 | FLOAT => 4,
        _ => 0,
    }
}

/// Which of r, g, b, a (0–3) each stored channel holds, in memory order.
///
/// `CL_Rx` is stored as `CL_R` and `CL_RGx` as `CL_RG`: the API spec's table
/// calls them two- and three-channel formats whose last channel is
/// ignored, but the Khronos CTS's reference (and the drivers it passes on)
/// lays them out with one and two channels; cranecl follows the CTS.
fn channels(o: u32) -> &'static [usize] {
    match o {
        order::R | order::RX | order::INTENSITY | order::LUMINANCE | order::DEPTH => &[0],
        order::A => &[3],
        order::RG | order::RGX => &[0, 1],
        order::RA => &[0, 3],
        order::BGRA => &[2, 1, 0, 3],
        order::ARGB => &[3, 0, 1, 2],
        order::ABGR => &[3, 2, 1, 0],
        order::SBGRA => &[2, 1, 0, 3],
        order::RGB | order::RGBX => &[0, 1, 2],
        _ => &[0, 1, 2, 3],
    }
}

/// The number of channels of `order`.
pub fn channel_count(o: u32) -> usize {
    channels(o).len()
}

/// Bytes of one texel (`CL_IMAGE_ELEMENT_SIZE`); 0 for an unsupported format.
pub fn element_size(o: u32, t: u32) -> usize {
    let rgb = matches!(o, order::RGB | order::RGBX);
    match packed(t) {
        Some((_, _, bytes)) if rgb => bytes,
        Some(_) => 0,
        None if rgb => 0,
        None => channel_count(o) * channel_size(t),
    }
}

/// Whether the data type holds signed integers (read with `read_imagei`).
pub fn is_signed_int(t: u32) -> bool {
    use data_type::*;
    matches!(t, SIGNED_INT8 | SIGNED_INT16 | SIGNED_INT32)
}

/// Whether the data type holds unsigned integers (read with `read_imageui`).
pub fn is_unsigned_int(t: u32) -> bool {
    use data_type::*;
    matches!(t, UNSIGNED_INT8 | UNSIGNED_INT16 | UNSIGNED_INT32)
}

/// Whether the order has an alpha channel that a border colour leaves 0
/// (the spec's border colour is (0,0,0,0) then, (0,0,0,1) otherwise).
///
/// `CL_RGBx`, `CL_RGx` and `CL_Rx` have none: their ignored channel is not
/// alpha, reads give alpha 1.0, and the border colour keeps that alpha.
/// The OpenCL C specification's border list names them among the
/// (0,0,0,0) orders, but the Khronos CTS (`test_image_streams`, whose
/// reference treats them as orders without alpha) requires (0,0,0,1), as a
/// texel read in range gives; cranecl follows the CTS.
fn has_alpha(o: u32) -> bool {
    matches!(
        o,
        order::A
            | order::RA
            | order::RGBA
            | order::BGRA
            | order::ARGB
            | order::ABGR
            | order::INTENSITY
            | order::SRGBA
            | order::SBGRA
    )
}

/// One image's data store as generated code and the commands see it: the
/// address of texel (x, y, z) is `data + z * slice_pitch + y * row_pitch +
/// x * elem_size`. A 1D image array keeps its layers in z (its row pitch
/// equals its slice pitch); a 2D image array keeps them in z too.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ImageDesc {
    pub data: *mut u8,
    pub width: u64,
    pub height: u64,
    pub depth: u64,
    pub array_size: u64,
    pub row_pitch: u64,
    pub slice_pitch: u64,
    pub elem_size: u32,
    pub order: u32,
    pub data_type: u32,
    pub image_type: u32,
}

// SAFETY: the descriptor is an address and numbers; the memory object that
// owns it keeps `data` valid, and programs order accesses with events.
unsafe impl Send for ImageDesc {}
// SAFETY: as above; the descriptor is never written after creation.
unsafe impl Sync for ImageDesc {}

impl ImageDesc {
    /// Width, height and depth in texels along x, y, z of the store (an
    /// array's layers count as z).
    pub fn extent(&self) -> [u64; 3] {
        use image_type::*;
        match self.image_type {
            IMAGE1D | IMAGE1D_BUFFER => [self.width, 1, 1],
            IMAGE1D_ARRAY => [self.width, 1, self.array_size],
            IMAGE2D => [self.width, self.height, 1],
            IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            _ => [self.width, self.height, self.depth],
        }
    }

    /// Address of texel `p` (in range).
    fn texel(&self, p: [u64; 3]) -> *mut u8 {
        let off = p[2] * self.slice_pitch + p[1] * self.row_pitch + p[0] * self.elem_size as u64;
        self.data.wrapping_add(off as usize)
    }

    /// Texel `p` given as signed store coordinates, `None` when outside.
    fn at(&self, p: [i64; 3]) -> Option<*mut u8> {
        let e = self.extent();
        let inside = (0..3).all(|k| p[k] >= 0 && (p[k] as u64) < e[k]);
        inside.then(|| self.texel([p[0] as u64, p[1] as u64, p[2] as u64]))
    }
}

// ------------------------------------------------------------ conversions

/// `half` bits to `float` (exact).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match exp {
        0 if man == 0 => sign,
        0 => {
            // Subnormal: man * 2^-24, exact in f32.
            let v = man as f32 * f32::from_bits(0x3380_0000);
            return if sign != 0 { -v } else { v };
        }
        0x1f => sign | 0x7f80_0000 | (man << 13),
        _ => sign | ((exp + 112) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

/// `float` to `half` bits, rounded to nearest even (overflow gives infinity).
pub fn f32_to_half(f: f32) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xff) as i32;
    let man = x & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | 0x7c00
            | if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
    }
    let e = exp - 112;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // A half subnormal: k units of 2^-24, k = m * 2^(exp - 126).
        let m = man | 0x80_0000;
        let shift = (126 - exp) as u32;
        if shift >= 32 {
            return sign;
        }
        let mut k = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        if rem > half || (rem == half && k & 1 == 1) {
            k += 1;
        }
        return sign | k as u16;
    }
    let mut h = ((e as u32) << 10) | (man >> 13);
    let rem = man & 0x1fff;
    if rem > 0x1000 || (rem == 0x1000 && h & 1 == 1) {
        h += 1;
    }
    sign | h as u16
}

/// A finite `f64` in [-1, 1] to `half` bits, rounded to nearest even (the
/// normalized integer reads of `read_imageh`: `c / 255` in `f64` is
/// within half an `f64` unit of the exact quotient, and a quotient of
/// that kind is never a `half` tie, so this rounds it once).
pub fn f64_to_half(v: f64) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000u16 } else { 0 };
    let a = v.abs();
    if a == 0.0 || a.is_nan() {
        return sign;
    }
    let exp = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    // The unit in the last place: 2^(e - 10) for normal halves, 2^-24 below.
    let unit = exp.max(-14) - 10;
    let k = (a * f64::powi(2.0, -unit)).round_ties_even();
    let r = k * f64::powi(2.0, unit);
    if r >= 65520.0 {
        return sign | 0x7c00;
    }
    if unit == -24 {
        // Subnormal (k = 1024 is the smallest normal's bits).
        return sign | k as u16;
    }
    let e = ((r.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let man = ((r * f64::powi(2.0, -e) - 1.0) * 1024.0) as u16;
    sign | (((e + 15) as u16) << 10) | man
}

/// `convert_<int>_sat_rte(v)` into `lo..=hi` (NaN gives 0).
fn sat_rte(v: f32, lo: f32, hi: f32) -> i64 {
    if v.is_nan() {
        return 0;
    }
    v.round_ties_even().clamp(lo, hi) as i64
}

/// Read one channel of type `t` at `p` as the spec's float value.
///
/// # Safety
/// `p` readable for the channel's size.
unsafe fn channel_f(t: u32, p: *const u8) -> f32 {
    use data_type::*;
    // SAFETY: the caller's contract; reads unaligned.
    unsafe {
        match t {
            UNORM_INT8 => UNORM8[*p as usize],
            UNORM_INT16 => f32::from((p as *const u16).read_unaligned()) / 65535.0,
            SNORM_INT8 => (f32::from(*p as i8) / 127.0).max(-1.0),
            SNORM_INT16 => (f32::from((p as *const i16).read_unaligned()) / 32767.0).max(-1.0),
            HALF_FLOAT => half_to_f32((p as *const u16).read_unaligned()),
            FLOAT => (p as *const f32).read_unaligned(),
            // read_imagef of an integer format is undefined: the value.
            _ => channel_i(t, p) as f32,
        }
    }
}

/// Read one channel of type `t` at `p` as a 32-bit integer (sign- or
/// zero-extended as the type says).
///
/// # Safety
/// `p` readable for the channel's size.
unsafe fn channel_i(t: u32, p: *const u8) -> i32 {
    use data_type::*;
    // SAFETY: the caller's contract; reads unaligned.
    unsafe {
        match t {
            SIGNED_INT8 | SNORM_INT8 => i32::from(*p as i8),
            UNSIGNED_INT8 | UNORM_INT8 => i32::from(*p),
            SIGNED_INT16 | SNORM_INT16 => i32::from((p as *const i16).read_unaligned()),
            UNSIGNED_INT16 | UNORM_INT16 | HALF_FLOAT => {
                i32::from((p as *const u16).read_unaligned())
            }
            _ => (p as *const i32).read_unaligned(),
        }
    }
}

/// Read one channel of type `t` at `p` as `read_imageh` returns it.
///
/// # Safety
/// `p` readable for the channel's size.
unsafe fn channel_h(t: u32, p: *const u8) -> u16 {
    use data_type::*;
    // SAFETY: the caller's contract; reads unaligned.
    unsafe {
        match t {
            UNORM_INT8 => f64_to_half(f64::from(*p) / 255.0),
            UNORM_INT16 => f64_to_half(f64::from((p as *const u16).read_unaligned()) / 65535.0),
            SNORM_INT8 => f64_to_half((f64::from(*p as i8) / 127.0).max(-1.0)),
            SNORM_INT16 => {
                f64_to_half((f64::from((p as *const i16).read_unaligned()) / 32767.0).max(-1.0))
            }
            HALF_FLOAT => (p as *const u16).read_unaligned(),
            _ => f32_to_half(channel_f(t, p)),
        }
    }
}

/// What a read returns: `float4`, `int4` or `uint4`, as four 32-bit words;
/// or `half4` (`read_imageh`), each `half` in the low 16 bits of its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Texel {
    Float,
    Int,
    UInt,
    /// Reads only: normalized integers rounded once, from the integer, to
    /// the nearest `half` (`round_to_half(c / 255)`, not through a `float`,
    /// which would round twice), `HALF_FLOAT` as stored, `FLOAT` rounded
    /// to nearest even.
    Half,
}

/// The default of missing channels and the border colour's alpha, in the
/// result's representation.
fn one(kind: Texel) -> u32 {
    match kind {
        Texel::Float => 1.0f32.to_bits(),
        Texel::Half => 0x3c00,
        _ => 1,
    }
}

/// `c / 255` for every UNORM_INT8 value (the same division, done once).
static UNORM8: [f32; 256] = {
    let mut t = [0f32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as f32 / 255.0;
        i += 1;
    }
    t
};

/// The common formats' float reads without the general per-channel path:
/// RGBA and BGRA UNORM_INT8, RGBA FLOAT. `None` for the others.
///
/// # Safety
/// `p` readable for one texel of the format.
#[inline]
unsafe fn load_float_fast(o: u32, t: u32, p: *const u8) -> Option<[u32; 4]> {
    Some(match (o, t) {
        (order::RGBA, data_type::UNORM_INT8) => {
            // SAFETY: a texel of four bytes (the caller's contract).
            let b = unsafe { (p as *const [u8; 4]).read_unaligned() };
            let f = |c: u8| UNORM8[c as usize].to_bits();
            [f(b[0]), f(b[1]), f(b[2]), f(b[3])]
        }
        (order::BGRA, data_type::UNORM_INT8) => {
            // SAFETY: as above.
            let b = unsafe { (p as *const [u8; 4]).read_unaligned() };
            [b[2], b[1], b[0], b[3]].map(|c| UNORM8[c as usize].to_bits())
        }
        // SAFETY: a texel of sixteen bytes.
        (order::RGBA, data_type::FLOAT) => unsafe { (p as *const [u32; 4]).read_unaligned() },
        _ => return None,
    })
}

/// Read the texel at `p` of format `(o, t)` as four words of `kind`, missing
/// channels filled as the spec says ((0, 0, 0, 1), INTENSITY replicated,
/// LUMINANCE in r, g, b).
///
/// # Safety
/// `p` readable for one texel of the format.
pub unsafe fn load(o: u32, t: u32, kind: Texel, p: *const u8) -> [u32; 4] {
    if kind == Texel::Float {
        // SAFETY: the caller's contract.
        if let Some(v) = unsafe { load_float_fast(o, t, p) } {
            return v;
        }
    }
    if let Some((widths, shifts, bytes)) = packed(t) {
        // SAFETY: a texel of `bytes` bytes (the caller's contract).
        let v = unsafe {
            if bytes == 2 {
                u32::from((p as *const u16).read_unaligned())
            } else {
                (p as *const u32).read_unaligned()
            }
        };
        let mut out = [0, 0, 0, one(kind)];
        for k in 0..3 {
            let max = (1u32 << widths[k]) - 1;
            let c = (v >> shifts[k]) & max;
            out[k] = match kind {
                Texel::Float => (c as f32 / max as f32).to_bits(),
                Texel::Half => u32::from(f64_to_half(f64::from(c) / f64::from(max))),
                _ => c,
            };
        }
        return out;
    }
    let mut out = [0, 0, 0, one(kind)];
    let size = channel_size(t);
    for (k, &c) in channels(o).iter().enumerate() {
        let q = p.wrapping_add(k * size);
        // SAFETY: inside the texel (the caller's contract).
        out[c] = unsafe {
            match kind {
                Texel::Float => channel_f(t, q).to_bits(),
                // sRGB: the curve in float first (below).
                Texel::Half if !matches!(o, order::SRGBA | order::SBGRA) => {
                    u32::from(channel_h(t, q))
                }
                Texel::Half => channel_f(t, q).to_bits(),
                _ => channel_i(t, q) as u32,
            }
        };
    }
    match o {
        order::SRGBA | order::SBGRA if kind == Texel::Float => {
            for c in &mut out[..3] {
                *c = srgb_to_linear(f32::from_bits(*c)).to_bits();
            }
        }
        order::SRGBA | order::SBGRA if kind == Texel::Half => {
            for c in &mut out[..3] {
                *c = u32::from(f32_to_half(srgb_to_linear(f32::from_bits(*c))));
            }
            out[3] = u32::from(f32_to_half(f32::from_bits(out[3])));
        }
        order::INTENSITY => out = [out[0]; 4],
        order::LUMINANCE => {
            out[1] = out[0];
            out[2] = out[0];
        }
        _ => {}
    }
    out
}

/// Convert one value to channel type `t` by the spec's rules and store it.
///
/// # Safety
/// `p` writable for the channel's size.
unsafe fn store_channel(t: u32, kind: Texel, v: u32, p: *mut u8) {
    use data_type::*;
    let f = f32::from_bits(v);
    // SAFETY: the caller's contract; writes unaligned.
    unsafe {
        match (kind, t) {
            (Texel::Float, UNORM_INT8) => *p = sat_rte(f * 255.0, 0.0, 255.0) as u8,
            (Texel::Float, SNORM_INT8) => *p = sat_rte(f * 127.0, -128.0, 127.0) as i8 as u8,
            (Texel::Float, UNORM_INT16) => {
                (p as *mut u16).write_unaligned(sat_rte(f * 65535.0, 0.0, 65535.0) as u16)
            }
            (Texel::Float, SNORM_INT16) => {
                (p as *mut i16).write_unaligned(sat_rte(f * 32767.0, -32768.0, 32767.0) as i16)
            }
            (Texel::Float, HALF_FLOAT) => (p as *mut u16).write_unaligned(f32_to_half(f)),
            (Texel::Float, FLOAT) => (p as *mut f32).write_unaligned(f),
            // Integers: saturated to the channel's range.
            (Texel::Int, SIGNED_INT8) => *p = (v as i32).clamp(-128, 127) as i8 as u8,
            (Texel::Int, SIGNED_INT16) => {
                (p as *mut i16).write_unaligned((v as i32).clamp(-32768, 32767) as i16)
            }
            (Texel::UInt, UNSIGNED_INT8) => *p = v.min(255) as u8,
            (Texel::UInt, UNSIGNED_INT16) => (p as *mut u16).write_unaligned(v.min(65535) as u16),
            // A mismatched write is undefined: the bits, truncated.
            _ => match channel_size(t) {
                1 => *p = v as u8,
                2 => (p as *mut u16).write_unaligned(v as u16),
                _ => (p as *mut u32).write_unaligned(v),
            },
        }
    }
}

/// Store `color` (four words of `kind`) as a texel of format `(o, t)` at `p`.
///
/// # Safety
/// `p` writable for one texel of the format.
pub unsafe fn store(o: u32, t: u32, kind: Texel, color: [u32; 4], p: *mut u8) {
    if (o, t, kind) == (order::RGBA, data_type::FLOAT, Texel::Float) {
        // SAFETY: a texel of sixteen bytes (the caller's contract).
        unsafe { (p as *mut [u32; 4]).write_unaligned(color) };
        return;
    }
    if let Some((widths, shifts, bytes)) = packed(t) {
        let mut v = 0u32;
        for k in 0..3 {
            let max = (1u32 << widths[k]) - 1;
            let c = match kind {
                Texel::Float => {
                    sat_rte(f32::from_bits(color[k]) * max as f32, 0.0, max as f32) as u32
                }
                _ => color[k].min(max),
            };
            v |= c << shifts[k];
        }
        // SAFETY: a texel of `bytes` bytes (the caller's contract).
        unsafe {
            if bytes == 2 {
                (p as *mut u16).write_unaligned(v as u16)
            } else {
                (p as *mut u32).write_unaligned(v)
            }
        }
        return;
    }
    let mut color = color;
    if matches!(o, order::SRGBA | order::SBGRA) && kind == Texel::Float {
        for c in &mut color[..3] {
            *c = linear_to_srgb(f32::from_bits(*c)).to_bits();
        }
    }
    let size = channel_size(t);
    for (k, &c) in channels(o).iter().enumerate() {
        // INTENSITY and LUMINANCE store the colour's x.
        let c = if matches!(o, order::INTENSITY | order::LUMINANCE) {
            0
        } else {
            c
        };
        // SAFETY: inside the texel (the caller's contract).
        unsafe { store_channel(t, kind, color[c], p.wrapping_add(k * size)) };
    }
}

// ------------------------------------------------------------ sampling

/// `x.floor()` inline (x86-64's baseline has no `roundss`, and the libm
/// call showed in profiles of filtered reads); the same value for every
/// `f32`, signed zeros, infinities and NaN included.
#[inline]
fn floor(x: f32) -> f32 {
    // NaN, the infinities and |x| >= 2^23 are their own floor.
    if x.is_nan() || x.abs() >= 8_388_608.0 {
        return x;
    }
    let t = x as i32 as f32;
    if t > x {
        t - 1.0
    } else if t == x {
        x
    } else {
        t
    }
}

/// The nearest filter's texel index along one axis of `size` texels (the
/// spec's formulas; `CLAMP` may give -1 or `size`, `NONE` anything).
pub(crate) fn nearest(s: f32, size: i64, norm: bool, addr: u32) -> i64 {
    use sampler::*;
    let w = size as f32;
    match addr {
        ADDRESS_REPEAT if norm => {
            let u = (s - floor(s)) * w;
            let i = floor(u) as i64;
            if i > size - 1 {
                i - size
            } else {
                i
            }
        }
        ADDRESS_MIRRORED_REPEAT if norm => {
            let sp = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - sp).abs() * w;
            (floor(u) as i64).min(size - 1)
        }
        _ => {
            let u = if norm { s * w } else { s };
            let i = floor(u) as i64;
            clamp_index(i, size, addr)
        }
    }
}

fn clamp_index(i: i64, size: i64, addr: u32) -> i64 {
    match addr {
        sampler::ADDRESS_CLAMP_TO_EDGE => i.clamp(0, size - 1),
        sampler::ADDRESS_CLAMP => i.clamp(-1, size),
        _ => i,
    }
}

/// The linear filter's two indices and weight along one axis.
pub(crate) fn linear(s: f32, size: i64, norm: bool, addr: u32) -> (i64, i64, f32) {
    use sampler::*;
    let w = size as f32;
    let frac = |x: f32| x - floor(x);
    match addr {
        ADDRESS_REPEAT if norm => {
            let u = (s - floor(s)) * w;
            let mut i0 = floor(u - 0.5) as i64;
            let mut i1 = i0.saturating_add(1);
            if i0 < 0 {
                i0 += size;
            }
            if i1 > size - 1 {
                i1 -= size;
            }
            (i0, i1, frac(u - 0.5))
        }
        ADDRESS_MIRRORED_REPEAT if norm => {
            let sp = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - sp).abs() * w;
            let i0 = floor(u - 0.5) as i64;
            (
                (i0).max(0),
                i0.saturating_add(1).min(size - 1),
                frac(u - 0.5),
            )
        }
        _ => {
            let u = if norm { s * w } else { s };
            let t = floor(u - 0.5) as i64;
            (
                clamp_index(t, size, addr),
                clamp_index(t.saturating_add(1), size, addr),
                frac(u - 0.5),
            )
        }
    }
}

/// How many coordinates address texels (1, 2 or 3), and which coordinate
/// (if any) is an array layer.
fn axes(d: &ImageDesc) -> (usize, Option<usize>) {
    use image_type::*;
    match d.image_type {
        IMAGE1D | IMAGE1D_BUFFER => (1, None),
        IMAGE1D_ARRAY => (1, Some(1)),
        IMAGE2D => (2, None),
        IMAGE2D_ARRAY => (2, Some(2)),
        _ => (3, None),
    }
}

/// The texel words at store position `p`, or the border colour outside.
///
/// # Safety
/// `d` describes a live data store.
#[inline(always)]
unsafe fn fetch(d: &ImageDesc, e: [u64; 3], kind: Texel, p: [i64; 3]) -> [u32; 4] {
    let inside = (0..3).all(|k| (p[k] as u64) < e[k]); // negative: huge
    if inside {
        let q = d.texel([p[0] as u64, p[1] as u64, p[2] as u64]);
        if kind == Texel::Float {
            // SAFETY: the position is inside the extent.
            if let Some(v) = unsafe { load_float_fast(d.order, d.data_type, q) } {
                return v;
            }
        }
        // SAFETY: the position is inside the extent.
        unsafe { load(d.order, d.data_type, kind, q) }
    } else if has_alpha(d.order) {
        [0; 4]
    } else {
        [0, 0, 0, one(kind)]
    }
}

/// `read_image{f,i,ui}(image, [sampler,] coord)`. `coord` holds the
/// coordinate words (floats if `float_coords`, else ints), x first; a read
/// without a sampler is one with unnormalized coordinates, no addressing
/// and the nearest filter. Positions outside the image (where the spec
/// leaves the result undefined) read the border colour, never memory.
///
/// # Safety
/// `d` describes a live data store.
pub unsafe fn read(
    d: &ImageDesc,
    sampler_bits: u32,
    kind: Texel,
    float_coords: bool,
    coord: [u32; 4],
) -> [u32; 4] {
    let c: [f32; 4] = if float_coords {
        coord.map(f32::from_bits)
    } else {
        coord.map(|v| v as i32 as f32)
    };
    let norm = sampler_bits & sampler::NORMALIZED_COORDS_TRUE != 0;
    let addr = sampler_bits & sampler::ADDRESS_MASK;
    // Linear filtering applies to float reads only (the spec requires the
    // nearest filter for read_image{i,ui}).
    let linear_filter =
        sampler_bits & sampler::FILTER_LINEAR != 0 && matches!(kind, Texel::Float | Texel::Half);
    let (n, layer_at) = axes(d);
    let e = d.extent();
    let mut base = [0i64; 3];
    if let Some(l) = layer_at {
        // layer = clamp(rint(v), 0, array_size - 1)
        let v = if float_coords {
            c[l].round_ties_even() as i64
        } else {
            coord[l] as i32 as i64
        };
        base[2] = v.clamp(0, e[2] as i64 - 1);
    }
    if !linear_filter {
        let mut p = base;
        for k in 0..n {
            p[k] = if float_coords {
                nearest(c[k], e[k] as i64, norm, addr)
            } else {
                clamp_index(coord[k] as i32 as i64, e[k] as i64, addr)
            };
        }
        // SAFETY: the caller's contract.
        return unsafe { fetch(d, e, kind, p) };
    }
    let mut ax = [(0i64, 0i64, 0f32); 3];
    for (k, a) in ax.iter_mut().enumerate().take(n) {
        *a = linear(c[k], e[k] as i64, norm, addr);
    }
    if n == 2 {
        // The loop below for a 2D image, unrolled: the same products and
        // sums in the same order (the same bits).
        let ((i0, i1, a), (j0, j1, b), z) = (ax[0], ax[1], base[2]);
        // SAFETY: the caller's contract.
        let t = unsafe {
            [
                fetch(d, e, Texel::Float, [i0, j0, z]),
                fetch(d, e, Texel::Float, [i1, j0, z]),
                fetch(d, e, Texel::Float, [i0, j1, z]),
                fetch(d, e, Texel::Float, [i1, j1, z]),
            ]
        };
        let w = [(1.0 - a) * (1.0 - b), a * (1.0 - b), (1.0 - a) * b, a * b];
        let acc: [f32; 4] = std::array::from_fn(|ch| {
            let mut v = 0f32;
            for k in 0..4 {
                v += w[k] * f32::from_bits(t[k][ch]);
            }
            v
        });
        return match kind {
            Texel::Half => acc.map(|v| u32::from(f32_to_half(v))),
            _ => acc.map(f32::to_bits),
        };
    }
    let mut acc = [0f32; 4];
    for corner in 0..(1usize << n) {
        let mut p = base;
        let mut weight = 1f32;
        for (k, &(i0, i1, a)) in ax.iter().enumerate().take(n) {
            if corner >> k & 1 == 1 {
                p[k] = i1;
                weight *= a;
            } else {
                p[k] = i0;
                weight *= 1.0 - a;
            }
        }
        // SAFETY: the caller's contract (filtered in float, also for
        // `read_imageh`).
        let t = unsafe { fetch(d, e, Texel::Float, p) };
        for (s, w) in acc.iter_mut().zip(t) {
            *s += weight * f32::from_bits(w);
        }
    }
    match kind {
        Texel::Half => acc.map(|v| u32::from(f32_to_half(v))),
        _ => acc.map(f32::to_bits),
    }
}

/// The coordinates an access of `d` uses: how many address texels (x,
/// then y, then z), and the index of the array layer's, if any.
pub fn coord_layout(d: &ImageDesc) -> (usize, Option<usize>) {
    axes(d)
}

/// Checked mode: the first coordinate (its index in the coordinate
/// vector) of a `read_image*` that leaves the result undefined, `None`
/// when the spec defines it. `sampler` tells a read with a sampler
/// (`sampler_bits`) from a sampler-less one. The spec's words:
/// - a sampler-less read behaves as one with `CLK_ADDRESS_NONE`
///   ("Built-in Image Sampler-less Read Functions"), whose coordinates the
///   programmer guarantees to be inside the image, "otherwise the results
///   are undefined" (the sampler's addressing modes); its array layer must
///   be one of 0 … layers − 1 ("Selecting an Image From an Image Array");
/// - with a sampler, `CLK_ADDRESS_NONE` likewise: the texel axes' image
///   coordinates (normalized ones multiplied by the size) must lie in
///   `[0, size)`; the other addressing modes define every finite
///   coordinate, and the layer is clamped;
/// - float coordinates that are INF or NaN are undefined whatever the
///   addressing ("Addressing and Filter Modes").
pub fn read_outside(
    d: &ImageDesc,
    sampler: bool,
    sampler_bits: u32,
    float_coords: bool,
    coord: [u32; 4],
) -> Option<usize> {
    let (n, layer_at) = axes(d);
    let e = d.extent();
    let norm = sampler && sampler_bits & sampler::NORMALIZED_COORDS_TRUE != 0;
    let none = !sampler || sampler_bits & sampler::ADDRESS_MASK == sampler::ADDRESS_NONE;
    let used = (0..n).chain(layer_at);
    if float_coords {
        if let Some(k) = used
            .clone()
            .find(|&k| !f32::from_bits(coord[k]).is_finite())
        {
            return Some(k);
        }
    }
    // A clamping or repeating sampler defines every finite coordinate.
    let tested = if none { n } else { 0 };
    for k in 0..tested {
        let size = e[k] as f64;
        let inside = if float_coords {
            let s = f64::from(f32::from_bits(coord[k]));
            let u = if norm { s * size } else { s };
            (0.0..size).contains(&u)
        } else {
            (0..e[k] as i64).contains(&i64::from(coord[k] as i32))
        };
        if !inside {
            return Some(k);
        }
    }
    match layer_at {
        // Without a sampler the layer is an int that must name a layer.
        Some(l) if !sampler && !(0..e[2] as i64).contains(&i64::from(coord[l] as i32)) => Some(l),
        _ => None,
    }
}

/// Checked mode: the first coordinate of a `write_image*` outside the
/// image (every texel axis and the array layer must be in range; the
/// spec leaves any other write undefined).
pub fn write_outside(d: &ImageDesc, coord: [i32; 4]) -> Option<usize> {
    let (n, layer_at) = axes(d);
    let e = d.extent();
    let size = |k: usize| if Some(k) == layer_at { e[2] } else { e[k] };
    (0..n)
        .chain(layer_at)
        .find(|&k| !(0..size(k) as i64).contains(&i64::from(coord[k])))
}

/// `write_image{f,i,ui}(image, coord, color)`: a write outside the image
/// (undefined by the spec) is dropped.
///
/// # Safety
/// `d` describes a live data store.
pub unsafe fn write(d: &ImageDesc, kind: Texel, coord: [i32; 4], color: [u32; 4]) {
    let (n, layer_at) = axes(d);
    let mut p = [0i64; 3];
    for (k, q) in p.iter_mut().enumerate().take(n) {
        *q = i64::from(coord[k]);
    }
    if let Some(l) = layer_at {
        p[2] = i64::from(coord[l]);
    }
    if let Some(q) = d.at(p) {
        // SAFETY: `at` checked the position against the extent.
        unsafe { store(d.order, d.data_type, kind, color, q) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_round_trip_and_rounding() {
        assert_eq!(f32_to_half(1.0), 0x3c00);
        assert_eq!(f32_to_half(65504.0), 0x7bff);
        assert_eq!(f32_to_half(65520.0), 0x7c00);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f32_to_half(1.0 + f32::powi(2.0, -11)), 0x3c00);
        assert_eq!(f32_to_half(f32::powi(2.0, -24)), 1);
        assert_eq!(f32_to_half(f32::powi(2.0, -25)), 0);
        assert_eq!(f32_to_half(1.5 * f32::powi(2.0, -25)), 1);
        for h in 0..0x7c00u16 {
            assert_eq!(f32_to_half(half_to_f32(h)), h);
            assert_eq!(f64_to_half(f64::from(half_to_f32(h))), h);
            assert_eq!(f64_to_half(-f64::from(half_to_f32(h))), h | 0x8000);
        }
        // 65455 / 65535 lies just below a half tie that its float rounds
        // to: rounded once it goes down.
        assert_eq!(f64_to_half(65455.0 / 65535.0), 0x3bfd);
        assert_eq!(f32_to_half(65455.0f32 / 65535.0), 0x3bfe);
        assert_eq!(f64_to_half(65520.0), 0x7c00);
        assert_eq!(f64_to_half(f64::powi(2.0, -25)), 0);
        assert_eq!(f64_to_half(1.5 * f64::powi(2.0, -24)), 2);
    }

    fn desc(image_type: u32, w: u64, h: u64, d: u64, a: u64) -> ImageDesc {
        ImageDesc {
            data: std::ptr::null_mut(),
            width: w,
            height: h,
            depth: d,
            array_size: a,
            row_pitch: 0,
            slice_pitch: 0,
            elem_size: 16,
            order: order::RGBA,
            data_type: data_type::FLOAT,
            image_type,
        }
    }

    #[test]
    fn undefined_coordinates_by_the_spec() {
        use sampler::*;
        let d2 = desc(image_type::IMAGE2D, 16, 8, 1, 0);
        let ints = |x: i32, y: i32| [x as u32, y as u32, 0, 0];
        let floats = |x: f32, y: f32| [x.to_bits(), y.to_bits(), 0, 0];
        // Sampler-less reads and CLK_ADDRESS_NONE: inside only.
        assert_eq!(read_outside(&d2, false, 0, false, ints(15, 7)), None);
        assert_eq!(read_outside(&d2, false, 0, false, ints(16, 7)), Some(0));
        assert_eq!(read_outside(&d2, false, 0, false, ints(0, -1)), Some(1));
        let none = NORMALIZED_COORDS_TRUE | ADDRESS_NONE | FILTER_LINEAR;
        assert_eq!(read_outside(&d2, true, none, true, floats(0.99, 0.5)), None);
        assert_eq!(
            read_outside(&d2, true, none, true, floats(1.0, 0.5)),
            Some(0)
        );
        assert_eq!(
            read_outside(&d2, true, FILTER_NEAREST, true, floats(15.9, -0.1)),
            Some(1)
        );
        // Clamping and repeating samplers define every finite coordinate.
        for addr in [ADDRESS_CLAMP, ADDRESS_CLAMP_TO_EDGE] {
            assert_eq!(read_outside(&d2, true, addr, false, ints(-5, 100)), None);
        }
        let rep = NORMALIZED_COORDS_TRUE | ADDRESS_REPEAT;
        assert_eq!(read_outside(&d2, true, rep, true, floats(7.25, -3.0)), None);
        assert_eq!(
            read_outside(&d2, true, rep, true, floats(f32::NAN, 0.0)),
            Some(0)
        );
        // A layer: clamped with a sampler, in range without one.
        let a1 = desc(image_type::IMAGE1D_ARRAY, 8, 0, 0, 4);
        assert_eq!(
            read_outside(&a1, true, ADDRESS_NONE, false, ints(3, 9)),
            None
        );
        assert_eq!(read_outside(&a1, false, 0, false, ints(3, 4)), Some(1));
        assert_eq!(read_outside(&a1, false, 0, false, ints(3, 3)), None);
        // Writes: every axis and the layer.
        let a2 = desc(image_type::IMAGE2D_ARRAY, 4, 4, 0, 2);
        assert_eq!(write_outside(&a2, [3, 3, 1, 0]), None);
        assert_eq!(write_outside(&a2, [3, 3, 2, 0]), Some(2));
        assert_eq!(write_outside(&a2, [4, 0, 0, 0]), Some(0));
        let d3 = desc(image_type::IMAGE3D, 4, 4, 4, 0);
        assert_eq!(write_outside(&d3, [0, 0, -1, 0]), Some(2));
        assert_eq!(read_outside(&d3, false, 0, false, [1, 2, 4, 9]), Some(2));
    }

    #[test]
    fn inline_floor_is_floor() {
        let mut xs = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            -1.0,
            1.0,
            -1.5,
            8_388_607.5,
            -8_388_607.5,
            8_388_608.0,
            1e20,
            -1e20,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut x = 1.0e-3f32;
        while x < 1.0e9 {
            xs.extend([x, -x, x + 0.5, -x - 0.5]);
            x *= 1.37;
        }
        for x in xs {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "floor({x})");
        }
        assert!(floor(f32::NAN).is_nan());
    }

    #[test]
    fn unorm8_write_rounds_to_even_and_saturates() {
        let mut b = [0u8; 4];
        let c = [0.5f32, 2.0, -1.0, 0.0].map(f32::to_bits);
        // SAFETY: `b` holds one RGBA UNORM_INT8 texel.
        unsafe {
            store(
                order::RGBA,
                data_type::UNORM_INT8,
                Texel::Float,
                c,
                b.as_mut_ptr(),
            )
        };
        assert_eq!(b, [128, 255, 0, 0]);
    }
}
