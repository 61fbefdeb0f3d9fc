//! Image reads and writes of four work-items at once: the lanes' packed
//! `read_image*`/`write_image*` calls. Coordinates, results and colours
//! travel component by component (`[component][lane]`), as the lanes keep
//! vectors in registers.
//!
//! The common cases are done for the four lanes together with SSE2 (the
//! x86-64 baseline): reads as float of 2D images of RGBA or BGRA
//! `UNORM_INT8` or RGBA `FLOAT` with float coordinates (nearest or linear
//! filter, every addressing mode, normalized or not) or integer ones, and
//! float writes to those formats. The format, sampler and filter are
//! decided once per call; the filter's coordinates and indices (addressing
//! none, clamp-to-edge and clamp, coordinates below 2^22; the others lane by
//! lane with `image::nearest`/`linear`), its weights and the `UNORM_INT8`
//! conversions are computed in SIMD, and the result is the same bits as
//! [`image::read`]/[`image::write`] give lane by lane (the same operations
//! in the same order; `c / 255` and `convert_uchar_sat_rte(f * 255)` are
//! each one correctly rounded operation either way). Anything else — other
//! formats, image types, writes outside the image — goes lane by lane
//! through [`image::read`]/[`image::write`].

use crate::image::{self, ImageDesc, Texel};

/// Four lanes' words, component by component: `v[c][lane]`.
pub type Lanes4 = [[u32; 4]; 4];

/// `read_image{f,i,ui,h}` for four work-items: `coord[c][lane]` holds the
/// coordinate words (floats if `float_coords`, else ints); the result is
/// `[channel][lane]`. The same values as [`image::read`] of each lane.
///
/// # Safety
/// `d` describes a live data store.
pub unsafe fn read_lanes(
    d: &ImageDesc,
    sampler_bits: u32,
    kind: Texel,
    float_coords: bool,
    coord: &Lanes4,
) -> Lanes4 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the caller's contract.
        if let Some(r) = unsafe { sse::read(d, sampler_bits, kind, float_coords, coord) } {
            return r;
        }
    }
    let mut out = [[0u32; 4]; 4];
    for k in 0..4 {
        let c = [coord[0][k], coord[1][k], coord[2][k], coord[3][k]];
        // SAFETY: the caller's contract.
        let r = unsafe { image::read(d, sampler_bits, kind, float_coords, c) };
        for (o, v) in out.iter_mut().zip(r) {
            o[k] = v;
        }
    }
    out
}

/// `write_image{f,i,ui}` for four work-items: `coord[c][lane]`, the colour
/// `color[channel][lane]`. The same stores as [`image::write`] of each lane,
/// lane 0 first (a write outside the image is dropped).
///
/// # Safety
/// `d` describes a live data store.
pub unsafe fn write_lanes(d: &ImageDesc, kind: Texel, coord: &[[i32; 4]; 4], color: &Lanes4) {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the caller's contract.
        if unsafe { sse::write(d, kind, coord, color) } {
            return;
        }
    }
    for k in 0..4 {
        let c = [coord[0][k], coord[1][k], coord[2][k], coord[3][k]];
        let v = [color[0][k], color[1][k], color[2][k], color[3][k]];
        // SAFETY: the caller's contract.
        unsafe { image::write(d, kind, c, v) };
    }
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use super::Lanes4;
    use crate::image::{self, data_type, image_type, order, sampler, ImageDesc, Texel};
    use core::arch::x86_64::*;

    /// `a.map(f)`, inline (`map` of an array was a call in profiles).
    #[inline(always)]
    fn each<T: Copy, U>(a: [T; 4], f: impl Fn(T) -> U) -> [U; 4] {
        [f(a[0]), f(a[1]), f(a[2]), f(a[3])]
    }

    /// The formats done here.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Fmt {
        Rgba8,
        Bgra8,
        RgbaF32,
    }

    fn format(d: &ImageDesc) -> Option<Fmt> {
        if d.image_type != image_type::IMAGE2D {
            return None;
        }
        match (d.order, d.data_type) {
            (order::RGBA, data_type::UNORM_INT8) => Some(Fmt::Rgba8),
            (order::BGRA, data_type::UNORM_INT8) => Some(Fmt::Bgra8),
            (order::RGBA, data_type::FLOAT) => Some(Fmt::RgbaF32),
            _ => None,
        }
    }

    /// r, g, b, a from b, g, r, a (and back: the same permutation).
    const SWAP_RB: i32 = 0b11_00_01_10;

    /// The address of texel (i, j), in range.
    #[inline(always)]
    fn at(d: &ImageDesc, i: i64, j: i64) -> *mut u8 {
        let off = j as u64 * d.row_pitch + i as u64 * u64::from(d.elem_size);
        d.data.wrapping_add(off as usize)
    }

    /// Texel (i, j) as float r, g, b, a; the border colour (0, 0, 0, 0:
    /// each format here has alpha) outside.
    ///
    /// # Safety
    /// `d` describes a live data store of format `f`.
    #[inline(always)]
    unsafe fn texel(d: &ImageDesc, f: Fmt, i: i64, j: i64) -> __m128 {
        if !inside(d, i, j) {
            // SAFETY: SSE2 is part of x86-64.
            return unsafe { _mm_setzero_ps() };
        }
        let p = at(d, i, j);
        // SAFETY: (i, j) is inside the image; SSE2 is part of x86-64.
        unsafe {
            match f {
                Fmt::RgbaF32 => _mm_loadu_ps(p as *const f32),
                Fmt::Rgba8 | Fmt::Bgra8 => {
                    let v = _mm_cvtsi32_si128((p as *const i32).read_unaligned());
                    let z = _mm_setzero_si128();
                    unorm8(f, _mm_unpacklo_epi16(_mm_unpacklo_epi8(v, z), z))
                }
            }
        }
    }

    /// Texels (i, j) and (i + 1, j), both inside, as [`texel`] gives them.
    ///
    /// # Safety
    /// `d` describes a live data store of format `f`; both texels are
    /// inside it.
    #[inline(always)]
    unsafe fn texel_pair(d: &ImageDesc, f: Fmt, i: i64, j: i64) -> [__m128; 2] {
        let p = at(d, i, j);
        // SAFETY: the caller's contract; SSE2 is part of x86-64.
        unsafe {
            match f {
                Fmt::RgbaF32 => [
                    _mm_loadu_ps(p as *const f32),
                    _mm_loadu_ps((p as *const f32).add(4)),
                ],
                Fmt::Rgba8 | Fmt::Bgra8 => {
                    let v = _mm_loadl_epi64(p as *const __m128i);
                    let z = _mm_setzero_si128();
                    let w = _mm_unpacklo_epi8(v, z);
                    [
                        unorm8(f, _mm_unpacklo_epi16(w, z)),
                        unorm8(f, _mm_unpackhi_epi16(w, z)),
                    ]
                }
            }
        }
    }

    /// Four UNORM_INT8 channels (as ints) to r, g, b, a: `c / 255` each,
    /// correctly rounded as the scalar path's division: `c * (1 / 255)`
    /// in double, rounded once to float, is that quotient for every `c`
    /// (its binary expansion repeats every 8 bits, so it never lies within
    /// a double's error of a float halfway point; the tests compare all
    /// 256).
    #[inline(always)]
    unsafe fn unorm8(f: Fmt, v: __m128i) -> __m128 {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let r = _mm_set1_pd(1.0 / 255.0);
            let lo = _mm_cvtpd_ps(_mm_mul_pd(_mm_cvtepi32_pd(v), r));
            let hi = _mm_cvtpd_ps(_mm_mul_pd(_mm_cvtepi32_pd(_mm_unpackhi_epi64(v, v)), r));
            let x = _mm_movelh_ps(lo, hi);
            if f == Fmt::Bgra8 {
                _mm_shuffle_ps::<SWAP_RB>(x, x)
            } else {
                x
            }
        }
    }

    /// `image::floor` of four floats of magnitude below 2^22 (which the
    /// caller checked): the truncation, one less where it lies above; `x`
    /// itself where equal (so -0.0 stays -0.0, as there).
    #[inline(always)]
    unsafe fn floor4(x: __m128) -> __m128 {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let t = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
            let down = _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, x), _mm_set1_ps(1.0)));
            let eq = _mm_cmpeq_ps(t, x);
            _mm_or_ps(_mm_and_ps(eq, x), _mm_andnot_ps(eq, down))
        }
    }

    /// Whether every element is a number of magnitude below 2^22.
    #[inline(always)]
    unsafe fn small(x: __m128) -> bool {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let abs = _mm_andnot_ps(_mm_set1_ps(-0.0), x);
            _mm_movemask_ps(_mm_cmplt_ps(abs, _mm_set1_ps(4_194_304.0))) == 0xF
        }
    }

    #[inline(always)]
    fn words(x: __m128i) -> [i32; 4] {
        // SAFETY: SSE2 is part of x86-64; `[i32; 4]` and `__m128i` have
        // the same size.
        unsafe { std::mem::transmute::<__m128i, [i32; 4]>(x) }
    }

    #[inline(always)]
    fn floats(x: __m128) -> [f32; 4] {
        // SAFETY: as in `words`.
        unsafe { std::mem::transmute::<__m128, [f32; 4]>(x) }
    }

    /// `image::clamp_index` (none: unchanged).
    #[inline(always)]
    fn clamp_index(i: i64, size: i64, addr: u32) -> i64 {
        match addr {
            sampler::ADDRESS_CLAMP_TO_EDGE => i.clamp(0, size - 1),
            sampler::ADDRESS_CLAMP => i.clamp(-1, size),
            _ => i,
        }
    }

    /// The linear filter's two indices from `floor(u - 0.5)`, clamped.
    #[inline(always)]
    fn pair(i: i32, size: i64, addr: u32) -> (i64, i64) {
        let i = i64::from(i);
        (clamp_index(i, size, addr), clamp_index(i + 1, size, addr))
    }

    /// Whether texel (i, j) is inside the image.
    #[inline(always)]
    fn inside(d: &ImageDesc, i: i64, j: i64) -> bool {
        (i as u64) < d.width && (j as u64) < d.height
    }

    /// Four lane vectors (r, g, b, a each) as `[channel][lane]`.
    #[inline(always)]
    fn transpose(v: [__m128; 4]) -> Lanes4 {
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            let t0 = _mm_unpacklo_ps(v[0], v[1]);
            let t1 = _mm_unpacklo_ps(v[2], v[3]);
            let t2 = _mm_unpackhi_ps(v[0], v[1]);
            let t3 = _mm_unpackhi_ps(v[2], v[3]);
            let r = [
                _mm_movelh_ps(t0, t1),
                _mm_movehl_ps(t1, t0),
                _mm_movelh_ps(t2, t3),
                _mm_movehl_ps(t3, t2),
            ];
            each(r, |x| each(floats(x), f32::to_bits))
        }
    }

    /// The image coordinate `u` of each lane along an axis of `size`
    /// texels (`s * size` when normalized, as `image::nearest`/`linear`).
    #[inline(always)]
    unsafe fn axis(words: [u32; 4], size: u64, norm: bool) -> __m128 {
        // SAFETY: SSE2 is part of x86-64; the words are floats' bits.
        unsafe {
            let s = _mm_castsi128_ps(std::mem::transmute::<[u32; 4], __m128i>(words));
            if norm {
                _mm_mul_ps(s, _mm_set1_ps(size as i64 as f32))
            } else {
                s
            }
        }
    }

    /// Each lane's nearest texel by `image::nearest` (the repeating
    /// addressing modes, huge coordinates).
    #[cold]
    #[inline(never)]
    fn scalar_nearest(c: &Lanes4, w: i64, h: i64, norm: bool, addr: u32) -> ([i64; 4], [i64; 4]) {
        let s = |axis: usize, k: usize| f32::from_bits(c[axis][k]);
        (
            [0, 1, 2, 3].map(|k| image::nearest(s(0, k), w, norm, addr)),
            [0, 1, 2, 3].map(|k| image::nearest(s(1, k), h, norm, addr)),
        )
    }

    /// The linear filter's indices and weights along x and y of each lane
    /// by `image::linear` (the repeating addressing modes, huge
    /// coordinates).
    #[cold]
    #[inline(never)]
    #[allow(clippy::type_complexity)]
    fn scalar_linear(
        c: &Lanes4,
        w: i64,
        h: i64,
        norm: bool,
        addr: u32,
    ) -> ([(i64, i64, f32); 4], [(i64, i64, f32); 4]) {
        let s = |axis: usize, k: usize| f32::from_bits(c[axis][k]);
        (
            [0, 1, 2, 3].map(|k| image::linear(s(0, k), w, norm, addr)),
            [0, 1, 2, 3].map(|k| image::linear(s(1, k), h, norm, addr)),
        )
    }

    /// The four-lane read, or `None` where the caller goes lane by lane.
    ///
    /// # Safety
    /// `d` describes a live data store.
    pub(super) unsafe fn read(
        d: &ImageDesc,
        sampler_bits: u32,
        kind: Texel,
        float_coords: bool,
        coord: &Lanes4,
    ) -> Option<Lanes4> {
        if kind != Texel::Float {
            return None;
        }
        let f = format(d)?;
        let norm = sampler_bits & sampler::NORMALIZED_COORDS_TRUE != 0;
        let addr = sampler_bits & sampler::ADDRESS_MASK;
        // The addressing modes whose indices are computed here in SIMD; the
        // repeating ones by `image::nearest`/`linear`, lane by lane.
        let clamps = matches!(
            addr,
            sampler::ADDRESS_NONE | sampler::ADDRESS_CLAMP_TO_EDGE | sampler::ADDRESS_CLAMP
        );
        let linear = sampler_bits & sampler::FILTER_LINEAR != 0;
        let (w, h) = (d.width as i64, d.height as i64);
        // SAFETY: SSE2 is part of x86-64.
        let mut px = [unsafe { _mm_setzero_ps() }; 4];
        if !float_coords {
            if linear {
                // Undefined by the spec; the scalar path filters the
                // integers as floats.
                return None;
            }
            // Integer coordinates: the texel itself, clamped as the
            // addressing says.
            for (k, p) in px.iter_mut().enumerate() {
                let i = clamp_index(i64::from(coord[0][k] as i32), w, addr);
                let j = clamp_index(i64::from(coord[1][k] as i32), h, addr);
                // SAFETY: the caller's contract.
                *p = unsafe { texel(d, f, i, j) };
            }
            return Some(transpose(px));
        }
        // SAFETY: SSE2 is part of x86-64; the caller's contract.
        unsafe {
            let u = axis(coord[0], d.width, norm);
            let v = axis(coord[1], d.height, norm);
            if !linear {
                let (i, j) = if clamps && small(u) && small(v) {
                    let i = words(_mm_cvttps_epi32(floor4(u)));
                    let j = words(_mm_cvttps_epi32(floor4(v)));
                    let (mut ci, mut cj) = ([0; 4], [0; 4]);
                    for k in 0..4 {
                        ci[k] = clamp_index(i64::from(i[k]), w, addr);
                        cj[k] = clamp_index(i64::from(j[k]), h, addr);
                    }
                    (ci, cj)
                } else {
                    scalar_nearest(coord, w, h, norm, addr)
                };
                for (k, p) in px.iter_mut().enumerate() {
                    *p = texel(d, f, i[k], j[k]);
                }
                return Some(transpose(px));
            }
            let half = _mm_set1_ps(0.5);
            let (u, v) = (_mm_sub_ps(u, half), _mm_sub_ps(v, half));
            // Each lane's (i0, i1) and (j0, j1), and the weights a and b.
            let (ii, jj, a, b) = if clamps && small(u) && small(v) {
                let (fu, fv) = (floor4(u), floor4(v));
                let i0 = words(_mm_cvttps_epi32(fu));
                let j0 = words(_mm_cvttps_epi32(fv));
                let (mut ii, mut jj) = ([(0, 0); 4], [(0, 0); 4]);
                for k in 0..4 {
                    ii[k] = pair(i0[k], w, addr);
                    jj[k] = pair(j0[k], h, addr);
                }
                (ii, jj, _mm_sub_ps(u, fu), _mm_sub_ps(v, fv))
            } else {
                let (x, y) = scalar_linear(coord, w, h, norm, addr);
                let weight = |t: [(i64, i64, f32); 4]| _mm_setr_ps(t[0].2, t[1].2, t[2].2, t[3].2);
                (
                    each(x, |(i0, i1, _)| (i0, i1)),
                    each(y, |(j0, j1, _)| (j0, j1)),
                    weight(x),
                    weight(y),
                )
            };
            let one = _mm_set1_ps(1.0);
            let (na, nb) = (_mm_sub_ps(one, a), _mm_sub_ps(one, b));
            // The weights of (i0, j0), (i1, j0), (i0, j1), (i1, j1).
            let wt = [
                floats(_mm_mul_ps(na, nb)),
                floats(_mm_mul_ps(a, nb)),
                floats(_mm_mul_ps(na, b)),
                floats(_mm_mul_ps(a, b)),
            ];
            for (k, p) in px.iter_mut().enumerate() {
                let ((i0, i1), (j0, j1)) = (ii[k], jj[k]);
                let t = if i1.wrapping_sub(i0) == 1 && inside(d, i0, j0) && inside(d, i1, j1) {
                    // Two pairs of neighbours in memory.
                    let [t00, t10] = texel_pair(d, f, i0, j0);
                    let [t01, t11] = texel_pair(d, f, i0, j1);
                    [t00, t10, t01, t11]
                } else {
                    [
                        texel(d, f, i0, j0),
                        texel(d, f, i1, j0),
                        texel(d, f, i0, j1),
                        texel(d, f, i1, j1),
                    ]
                };
                // 0 + w0 t0 + w1 t1 + w2 t2 + w3 t3, left to right.
                let mut acc = _mm_setzero_ps();
                for (t, w) in t.iter().zip(&wt) {
                    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(w[k]), *t));
                }
                *p = acc;
            }
            Some(transpose(px))
        }
    }

    /// The four-lane write; false where the caller goes lane by lane.
    ///
    /// # Safety
    /// `d` describes a live data store.
    pub(super) unsafe fn write(
        d: &ImageDesc,
        kind: Texel,
        coord: &[[i32; 4]; 4],
        color: &Lanes4,
    ) -> bool {
        if kind != Texel::Float {
            return false;
        }
        let Some(f) = format(d) else { return false };
        let inside = |k: usize| (coord[0][k] as u64) < d.width && (coord[1][k] as u64) < d.height;
        if !(0..4).all(inside) {
            return false;
        }
        // SAFETY: SSE2 is part of x86-64; each lane's texel is inside the
        // image (checked above).
        unsafe {
            let c = each(*color, |ch| {
                _mm_castsi128_ps(std::mem::transmute::<[u32; 4], __m128i>(ch))
            });
            // Lane k's r, g, b, a.
            let t0 = _mm_unpacklo_ps(c[0], c[1]);
            let t1 = _mm_unpacklo_ps(c[2], c[3]);
            let t2 = _mm_unpackhi_ps(c[0], c[1]);
            let t3 = _mm_unpackhi_ps(c[2], c[3]);
            let px = [
                _mm_movelh_ps(t0, t1),
                _mm_movehl_ps(t1, t0),
                _mm_movelh_ps(t2, t3),
                _mm_movehl_ps(t3, t2),
            ];
            for (k, x) in px.into_iter().enumerate() {
                let p = at(d, i64::from(coord[0][k]), i64::from(coord[1][k]));
                match f {
                    Fmt::RgbaF32 => _mm_storeu_ps(p as *mut f32, x),
                    Fmt::Rgba8 | Fmt::Bgra8 => {
                        let x = if f == Fmt::Bgra8 {
                            _mm_shuffle_ps::<SWAP_RB>(x, x)
                        } else {
                            x
                        };
                        // convert_uchar_sat_rte(x * 255): NaN gives 0
                        // (maxps answers its second operand), then the
                        // clamp, then round to nearest even (the default
                        // rounding of cvtps2dq).
                        let y = _mm_mul_ps(x, _mm_set1_ps(255.0));
                        let y = _mm_min_ps(_mm_max_ps(y, _mm_setzero_ps()), _mm_set1_ps(255.0));
                        let n = _mm_cvtps_epi32(y);
                        let n = _mm_packus_epi16(_mm_packs_epi32(n, n), n);
                        (p as *mut i32).write_unaligned(_mm_cvtsi128_si32(n));
                    }
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{data_type, image_type, order, sampler};

    /// xorshift64: reproducible data without a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick<T: Copy>(&mut self, v: &[T]) -> T {
            v[(self.next() % v.len() as u64) as usize]
        }
    }

    /// A 2D (or other type's) image of `w` x `h` texels of `(o, t)` in
    /// `store`, rows padded by 12 bytes, filled with random bytes (FLOAT
    /// channels: random small floats, signed zeros among them).
    fn image(
        o: u32,
        t: u32,
        ty: u32,
        w: u64,
        h: u64,
        rng: &mut Rng,
        store: &mut Vec<u8>,
    ) -> ImageDesc {
        let elem = image::element_size(o, t) as u64;
        let row = w * elem + 12;
        store.clear();
        for _ in 0..row * h {
            store.push(rng.next() as u8);
        }
        if t == data_type::FLOAT {
            let vals = [0.0f32, -0.0, 1.0, -2.5, 0.25, 1e-3, 7.0, -0.75];
            for c in store.chunks_exact_mut(4) {
                c.copy_from_slice(&rng.pick(&vals).to_bits().to_ne_bytes());
            }
        }
        ImageDesc {
            data: store.as_mut_ptr(),
            width: w,
            height: h,
            depth: 1,
            array_size: if ty == image_type::IMAGE1D_ARRAY {
                h
            } else {
                0
            },
            row_pitch: row,
            // A 1D array's layers are its rows.
            slice_pitch: if ty == image_type::IMAGE1D_ARRAY {
                row
            } else {
                row * h
            },
            elem_size: elem as u32,
            order: o,
            data_type: t,
            image_type: ty,
        }
    }

    /// Coordinates along an axis of `n` texels: inside, on centres and
    /// edges, outside on both sides, huge, and not numbers.
    fn positions(n: f32) -> Vec<f32> {
        vec![
            -2.3,
            -0.6,
            -0.5,
            -0.1,
            -0.0,
            0.0,
            0.3,
            0.5,
            0.8,
            1.25,
            1.5,
            1.9,
            2.6,
            n - 1.4,
            n - 0.5,
            n - 0.2,
            n,
            n + 0.4,
            2.0 * n + 0.3,
            1e7,
            -3e9,
            f32::INFINITY,
            f32::NAN,
        ]
    }

    const FORMATS: [(u32, u32); 5] = [
        (order::RGBA, data_type::UNORM_INT8),
        (order::BGRA, data_type::UNORM_INT8),
        (order::RGBA, data_type::FLOAT),
        // Lane by lane: not a format of the SIMD paths.
        (order::RGBA, data_type::UNORM_INT16),
        (order::R, data_type::FLOAT),
    ];

    /// Every four-lane read is, bit for bit, the four scalar reads: each
    /// format, image type, normalized or not, addressing mode, filter,
    /// float and integer coordinates.
    #[test]
    fn four_lane_reads_are_the_scalar_reads() {
        use sampler::*;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut store = Vec::new();
        let mut checked = 0;
        for (o, t) in FORMATS {
            for ty in [image_type::IMAGE2D, image_type::IMAGE1D_ARRAY] {
                let d = image(o, t, ty, 7, 5, &mut rng, &mut store);
                for norm in [0, NORMALIZED_COORDS_TRUE] {
                    for addr in [
                        ADDRESS_NONE,
                        ADDRESS_CLAMP_TO_EDGE,
                        ADDRESS_CLAMP,
                        ADDRESS_REPEAT,
                        ADDRESS_MIRRORED_REPEAT,
                    ] {
                        for filter in [FILTER_NEAREST, FILTER_LINEAR] {
                            let bits = norm | addr | filter;
                            for float_coords in [true, false] {
                                for _ in 0..60 {
                                    let mut coord = [[0u32; 4]; 4];
                                    for (axis, c) in coord.iter_mut().enumerate().take(2) {
                                        let n = [7.0f32, 5.0][axis];
                                        for v in c.iter_mut() {
                                            let mut x = rng.pick(&positions(n));
                                            if norm != 0 && x.is_finite() {
                                                x /= n;
                                            }
                                            *v = if float_coords {
                                                x.to_bits()
                                            } else {
                                                ((rng.next() % 13) as i32 - 3) as u32
                                            };
                                        }
                                    }
                                    // SAFETY: `d` describes `store`.
                                    let got = unsafe {
                                        read_lanes(&d, bits, Texel::Float, float_coords, &coord)
                                    };
                                    for k in 0..4 {
                                        let c = [coord[0][k], coord[1][k], 0, 0];
                                        // SAFETY: as above.
                                        let want = unsafe {
                                            image::read(&d, bits, Texel::Float, float_coords, c)
                                        };
                                        let got = [got[0][k], got[1][k], got[2][k], got[3][k]];
                                        // The same bits, but a NaN's sign
                                        // and payload: Rust leaves those
                                        // unspecified (an optimised build
                                        // may swap an operation's operands),
                                        // and so does the spec for a read
                                        // at NaN or infinite coordinates.
                                        let nan = |b: u32| f32::from_bits(b).is_nan();
                                        let same = (0..4).all(|c| {
                                            got[c] == want[c] || nan(got[c]) && nan(want[c])
                                        });
                                        assert!(
                                            same,
                                            "format {o:#x} {t:#x} type {ty:#x} sampler {bits:#x} coords {c:x?}: {got:x?} != {want:x?}"
                                        );
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 0);
    }

    /// Every UNORM_INT8 value reads as `c / 255` (in each channel, RGBA
    /// and BGRA, nearest and linear on texel centres), as the scalar path.
    #[test]
    fn every_unorm8_value_reads_as_c_over_255() {
        use sampler::*;
        for o in [order::RGBA, order::BGRA] {
            let mut store: Vec<u8> = (0..256u32)
                .flat_map(|c| [c, 255 - c, c ^ 0x55, c.wrapping_mul(7)].map(|v| v as u8))
                .collect();
            let d = ImageDesc {
                data: store.as_mut_ptr(),
                width: 256,
                height: 1,
                depth: 1,
                array_size: 0,
                row_pitch: 1024,
                slice_pitch: 1024,
                elem_size: 4,
                order: o,
                data_type: data_type::UNORM_INT8,
                image_type: image_type::IMAGE2D,
            };
            for filter in [FILTER_NEAREST, FILTER_LINEAR] {
                for x in (0..256).step_by(4) {
                    let mut coord = [[0u32; 4]; 4];
                    coord[0] = [0, 1, 2, 3].map(|k| (x as f32 + k as f32 + 0.5).to_bits());
                    coord[1] = [0.5f32.to_bits(); 4];
                    // SAFETY: `d` describes `store`.
                    let got = unsafe {
                        read_lanes(
                            &d,
                            ADDRESS_CLAMP_TO_EDGE | filter,
                            Texel::Float,
                            true,
                            &coord,
                        )
                    };
                    for k in 0..4 {
                        let bytes = &store[(x + k) * 4..(x + k) * 4 + 4];
                        let mut want = bytes.iter().map(|&c| c as f32 / 255.0).collect::<Vec<_>>();
                        if o == order::BGRA {
                            want.swap(0, 2);
                        }
                        for ch in 0..4 {
                            assert_eq!(
                                got[ch][k],
                                want[ch].to_bits(),
                                "order {o:#x} filter {filter:#x} texel {} channel {ch}",
                                x + k
                            );
                        }
                    }
                }
            }
        }
    }

    /// Four-lane writes store what four scalar writes store: each format,
    /// colours that round to even, saturate or are NaN, coordinates inside
    /// and outside.
    #[test]
    fn four_lane_writes_are_the_scalar_writes() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let colours = [
            0.0f32,
            -0.0,
            0.5,
            1.0,
            2.0,
            -1.0,
            0.3,
            0.998,
            1.5 / 255.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut a = Vec::new();
        for (o, t) in FORMATS {
            let da = image(o, t, image_type::IMAGE2D, 7, 5, &mut rng, &mut a);
            let mut b = a.clone();
            let db = ImageDesc {
                data: b.as_mut_ptr(),
                ..da
            };
            for round in 0..400 {
                // Mostly inside; now and then lane 2 outside.
                let mut coord = [[0i32; 4]; 4];
                coord[0] = [0, 1, 2, 3].map(|k| match k {
                    2 if round % 7 == 0 => -1,
                    _ => (rng.next() % 7) as i32,
                });
                coord[1] = [0; 4].map(|_| (rng.next() % 5) as i32);
                let mut colour = [[0u32; 4]; 4];
                for v in colour.iter_mut().flatten() {
                    let c = if rng.next().is_multiple_of(3) {
                        (rng.next() % 1000) as f32 / 997.0
                    } else {
                        rng.pick(&colours)
                    };
                    *v = c.to_bits();
                }
                // SAFETY: `da` and `db` describe `a` and `b`.
                unsafe {
                    write_lanes(&da, Texel::Float, &coord, &colour);
                    for k in 0..4 {
                        let c = [coord[0][k], coord[1][k], 0, 0];
                        let v = [colour[0][k], colour[1][k], colour[2][k], colour[3][k]];
                        image::write(&db, Texel::Float, c, v);
                    }
                }
                assert_eq!(
                    a, b,
                    "format {o:#x} {t:#x} coords {coord:?} colour {colour:x?}"
                );
            }
        }
    }
}
