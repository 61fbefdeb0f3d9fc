//! A separable Gaussian blur of a PNG with OpenCL images and a sampler.
//!
//! ```text
//! blur [in.png [out.png [sigma]]]     (default: a test pattern, blur.png, 2.0)
//! ```
//!
//! The picture goes into an `RGBA UNORM_INT8` image; `blur_x` reads it
//! through a program-scope sampler (unnormalized coordinates, clamp to
//! edge, nearest) and writes the horizontal pass into an `RGBA FLOAT`
//! image, which `blur_y` reads the same way and writes, converted back to
//! 8 bits by `write_imagef`, into the result. Every pixel is checked
//! against the same blur computed on the host from the OpenCL C
//! specification's conversion rules (c / 255 on read, round to nearest even
//! and saturate on write): at most one step of 255 apart (the sums are
//! added in the same order, but the device may fuse a multiply and an add).
//!
//! PNG is read and written here with no image crate: 8-bit RGB or RGBA,
//! not interlaced, any filter, deflate decoded by a small inflater;
//! written uncompressed ("stored" deflate blocks), as `mandelbrot` does.

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{
    Buffer, ClMem, Image, CL_FLOAT, CL_MEM_COPY_HOST_PTR, CL_MEM_OBJECT_IMAGE2D, CL_MEM_READ_ONLY,
    CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_RGBA, CL_UNORM_INT8,
};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, cl_image_desc, cl_image_format, cl_int, CL_BLOCKING};
use std::process::ExitCode;
use std::ptr;

const SOURCE: &str = r#"
constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void blur_x(read_only image2d_t src, write_only image2d_t dst, constant float *w, int r)
{
    int x = get_global_id(0), y = get_global_id(1);
    float4 s = (float4)(0.0f);
    for (int k = -r; k <= r; k++)
        s += w[k + r] * read_imagef(src, edge, (float2)(x + k + 0.5f, y + 0.5f));
    write_imagef(dst, (int2)(x, y), s);
}

kernel void blur_y(read_only image2d_t src, write_only image2d_t dst, constant float *w, int r)
{
    int x = get_global_id(0), y = get_global_id(1);
    float4 s = (float4)(0.0f);
    for (int k = -r; k <= r; k++)
        s += w[k + r] * read_imagef(src, edge, (float2)(x + 0.5f, y + k + 0.5f));
    write_imagef(dst, (int2)(x, y), s);
}
"#;

// ------------------------------------------------------------ the blur

/// Normalized Gaussian weights for `sigma`, radius ⌈3σ⌉.
fn weights(sigma: f32) -> Vec<f32> {
    let r = (3.0 * sigma).ceil() as i32;
    let w: Vec<f32> = (-r..=r)
        .map(|k| (-(k * k) as f32 / (2.0 * sigma * sigma)).exp())
        .collect();
    let sum: f32 = w.iter().sum();
    w.iter().map(|v| v / sum).collect()
}

/// The spec's float → UNORM_INT8 conversion: convert_uchar_sat_rte(f * 255).
fn unorm8(f: f32) -> u8 {
    if f.is_nan() {
        return 0;
    }
    (f * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

/// The blur on the host, as the kernels compute it.
fn host_blur(w: usize, h: usize, rgba: &[u8], wt: &[f32]) -> Vec<u8> {
    let r = (wt.len() / 2) as i64;
    let at = |x: i64, y: i64| {
        let x = x.clamp(0, w as i64 - 1) as usize;
        let y = y.clamp(0, h as i64 - 1) as usize;
        (y * w + x) * 4
    };
    let mut pass = vec![0f32; w * h * 4];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            for c in 0..4 {
                let mut s = 0f32;
                for k in -r..=r {
                    s += wt[(k + r) as usize] * (rgba[at(x + k, y) + c] as f32 / 255.0);
                }
                pass[at(x, y) + c] = s;
            }
        }
    }
    let mut out = vec![0u8; w * h * 4];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            for c in 0..4 {
                let mut s = 0f32;
                for k in -r..=r {
                    s += wt[(k + r) as usize] * pass[at(x, y + k) + c];
                }
                out[at(x, y) + c] = unorm8(s);
            }
        }
    }
    out
}

fn desc(w: usize, h: usize) -> cl_image_desc {
    // SAFETY: cl_image_desc is plain data; all-zero is a valid value.
    let mut d: cl_image_desc = unsafe { std::mem::zeroed() };
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    d
}

/// The blur on the cranecl device.
fn device_blur(w: usize, h: usize, rgba: &[u8], wt: &[f32]) -> Result<Vec<u8>, String> {
    fn e(what: &str) -> impl Fn(opencl3::error_codes::ClError) -> String + '_ {
        move |err| format!("{what}: {err}")
    }
    let platform = get_platforms()
        .map_err(e("platforms"))?
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("cranecl")))
        .ok_or("no cranecl platform (is OCL_ICD_VENDORS set?)")?;
    let id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)
        .map_err(e("devices"))?
        .first()
        .ok_or("no device")?;
    let device = Device::new(id);
    let context = Context::from_device(&device).map_err(e("context"))?;
    #[allow(deprecated)]
    let queue = CommandQueue::create_default(&context, 0).map_err(e("queue"))?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .map_err(|log| format!("build: {log}"))?;
    let u8fmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    let ffmt = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_FLOAT,
    };
    let d = desc(w, h);
    let mut pixels = rgba.to_vec();
    // SAFETY: the formats and descriptor are valid; COPY_HOST_PTR reads
    // w × h × 4 bytes of `pixels`.
    let (src, tmp, dst) = unsafe {
        (
            Image::create(
                &context,
                CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                &u8fmt,
                &d,
                pixels.as_mut_ptr().cast(),
            )
            .map_err(e("source image"))?,
            Image::create(&context, CL_MEM_READ_WRITE, &ffmt, &d, ptr::null_mut())
                .map_err(e("intermediate image"))?,
            Image::create(&context, CL_MEM_WRITE_ONLY, &u8fmt, &d, ptr::null_mut())
                .map_err(e("result image"))?,
        )
    };
    let mut weights = wt.to_vec();
    // SAFETY: COPY_HOST_PTR reads the weights.
    let wbuf = unsafe {
        Buffer::<cl_float>::create(
            &context,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            weights.len(),
            weights.as_mut_ptr().cast(),
        )
    }
    .map_err(e("weights"))?;
    let r = (wt.len() / 2) as cl_int;
    for (name, from, to) in [("blur_x", &src, &tmp), ("blur_y", &tmp, &dst)] {
        let k = Kernel::create(&program, name).map_err(e(name))?;
        // SAFETY: the arguments match the kernel's parameters.
        unsafe {
            k.set_arg(0, &from.get()).map_err(e("arg 0"))?;
            k.set_arg(1, &to.get()).map_err(e("arg 1"))?;
            k.set_arg(2, &wbuf.get()).map_err(e("arg 2"))?;
            k.set_arg(3, &r).map_err(e("arg 3"))?;
            let global = [w, h];
            queue
                .enqueue_nd_range_kernel(k.get(), 2, ptr::null(), global.as_ptr(), ptr::null(), &[])
                .map_err(e(name))?;
        }
    }
    let mut out = vec![0u8; w * h * 4];
    let (origin, region) = ([0usize; 3], [w, h, 1]);
    // SAFETY: `out` holds the whole image, tightly packed.
    unsafe {
        queue
            .enqueue_read_image(
                &dst,
                CL_BLOCKING,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                &[],
            )
            .map_err(e("read result"))?;
    }
    Ok(out)
}

// ------------------------------------------------------------ PNG

/// Bits of a deflate stream, least significant first.
struct Bits<'a> {
    data: &'a [u8],
    pos: usize,
    acc: u64,
    n: u32,
}

impl Bits<'_> {
    fn take(&mut self, n: u32) -> Result<u32, String> {
        while self.n < n {
            let b = *self.data.get(self.pos).ok_or("deflate: truncated")?;
            self.pos += 1;
            self.acc |= u64::from(b) << self.n;
            self.n += 8;
        }
        let v = (self.acc & ((1u64 << n) - 1)) as u32;
        self.acc >>= n;
        self.n -= n;
        Ok(v)
    }

    /// Drop the bits left in the current byte.
    fn align(&mut self) {
        let drop = self.n % 8;
        self.acc >>= drop;
        self.n -= drop;
    }
}

/// A canonical Huffman code: how many codes of each length, and the
/// symbols in code order.
struct Huffman {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Huffman {
    fn new(lengths: &[u8]) -> Huffman {
        let mut counts = [0u16; 16];
        for &l in lengths {
            counts[l as usize] += 1;
        }
        counts[0] = 0;
        let mut offs = [0u16; 16];
        for l in 1..16 {
            offs[l] = offs[l - 1] + counts[l - 1];
        }
        let mut symbols = vec![0u16; lengths.len()];
        for (s, &l) in lengths.iter().enumerate() {
            if l != 0 {
                symbols[offs[l as usize] as usize] = s as u16;
                offs[l as usize] += 1;
            }
        }
        Huffman { counts, symbols }
    }

    /// Read one symbol: the code grows a bit at a time until it falls in
    /// the range of codes of its length.
    fn decode(&self, bits: &mut Bits) -> Result<u16, String> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= bits.take(1)? as i32;
            let count = i32::from(self.counts[len]);
            if code - first < count {
                return Ok(self.symbols[(index + code - first) as usize]);
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        Err("deflate: bad code".into())
    }
}

const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Decode a zlib stream (RFC 1950/1951).
fn inflate(z: &[u8]) -> Result<Vec<u8>, String> {
    if z.len() < 2 || z[0] & 0x0f != 8 {
        return Err("zlib: not deflate".into());
    }
    let mut bits = Bits {
        data: &z[2..],
        pos: 0,
        acc: 0,
        n: 0,
    };
    let mut out = Vec::new();
    loop {
        let last = bits.take(1)?;
        match bits.take(2)? {
            0 => {
                bits.align();
                let len = bits.take(16)? as usize;
                let _nlen = bits.take(16)?;
                for _ in 0..len {
                    out.push(bits.take(8)? as u8);
                }
            }
            t @ (1 | 2) => {
                let (lit, dist) = if t == 1 {
                    let mut l = [8u8; 288];
                    l[144..256].fill(9);
                    l[256..280].fill(7);
                    (Huffman::new(&l), Huffman::new(&[5u8; 30]))
                } else {
                    let hlit = bits.take(5)? as usize + 257;
                    let hdist = bits.take(5)? as usize + 1;
                    let hclen = bits.take(4)? as usize + 4;
                    const ORDER: [usize; 19] = [
                        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
                    ];
                    let mut cl = [0u8; 19];
                    for &i in &ORDER[..hclen] {
                        cl[i] = bits.take(3)? as u8;
                    }
                    let clh = Huffman::new(&cl);
                    let mut lengths = Vec::with_capacity(hlit + hdist);
                    while lengths.len() < hlit + hdist {
                        let (value, repeat) = match clh.decode(&mut bits)? {
                            s @ 0..=15 => (s as u8, 1),
                            16 => {
                                let prev = *lengths.last().ok_or("deflate: repeat of nothing")?;
                                (prev, 3 + bits.take(2)?)
                            }
                            17 => (0, 3 + bits.take(3)?),
                            _ => (0, 11 + bits.take(7)?),
                        };
                        lengths.extend(std::iter::repeat_n(value, repeat as usize));
                    }
                    if lengths.len() > hlit + hdist {
                        return Err("deflate: code lengths overrun".into());
                    }
                    (
                        Huffman::new(&lengths[..hlit]),
                        Huffman::new(&lengths[hlit..]),
                    )
                };
                loop {
                    let s = lit.decode(&mut bits)? as usize;
                    if s < 256 {
                        out.push(s as u8);
                    } else if s == 256 {
                        break;
                    } else {
                        let i = s - 257;
                        let len = *LEN_BASE.get(i).ok_or("deflate: bad length")? as usize
                            + bits.take(u32::from(LEN_EXTRA[i]))? as usize;
                        let d = dist.decode(&mut bits)? as usize;
                        let back = *DIST_BASE.get(d).ok_or("deflate: bad distance")? as usize
                            + bits.take(u32::from(DIST_EXTRA[d]))? as usize;
                        if back > out.len() {
                            return Err("deflate: distance too far back".into());
                        }
                        let from = out.len() - back;
                        for k in 0..len {
                            out.push(out[from + k]);
                        }
                    }
                }
            }
            _ => return Err("deflate: bad block type".into()),
        }
        if last == 1 {
            return Ok(out);
        }
    }
}

/// An 8-bit RGB or RGBA, non-interlaced PNG as (width, height, RGBA).
fn read_png(bytes: &[u8]) -> Result<(usize, usize, Vec<u8>), String> {
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Err("not a PNG".into());
    }
    let (mut w, mut h, mut channels) = (0usize, 0usize, 0usize);
    let mut idat = Vec::new();
    let mut at = 8;
    while at + 8 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = bytes
            .get(at + 8..at + 8 + len)
            .ok_or("PNG: truncated chunk")?;
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                h = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                channels = match (data[8], data[9], data[12]) {
                    (8, 6, 0) => 4,
                    (8, 2, 0) => 3,
                    _ => return Err("PNG: only 8-bit RGB or RGBA, not interlaced".into()),
                };
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        at += 12 + len;
    }
    if w == 0 || h == 0 || w > 16384 || h > 16384 {
        return Err(format!("PNG: {w}x{h} is not 1 to 16384 on each side"));
    }
    let raw = inflate(&idat)?;
    let stride = w * channels;
    if raw.len() < h * (stride + 1) {
        return Err("PNG: too little image data".into());
    }
    let mut px = vec![0u8; h * stride];
    for y in 0..h {
        let filter = raw[y * (stride + 1)];
        let line = &raw[y * (stride + 1) + 1..(y + 1) * (stride + 1)];
        for x in 0..stride {
            let a = if x >= channels {
                px[y * stride + x - channels]
            } else {
                0
            };
            let b = if y > 0 { px[(y - 1) * stride + x] } else { 0 };
            let c = if x >= channels && y > 0 {
                px[(y - 1) * stride + x - channels]
            } else {
                0
            };
            let pred = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                f => return Err(format!("PNG: unknown filter {f}")),
            };
            px[y * stride + x] = line[x].wrapping_add(pred);
        }
    }
    let rgba = if channels == 4 {
        px
    } else {
        px.chunks(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect()
    };
    Ok((w, h, rgba))
}

/// CRC-32 (PNG's chunk checksum) of `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, t) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8)
    })
}

/// Adler-32 (the zlib stream's checksum) of `bytes`.
fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in bytes.chunks(5552) {
        for &x in chunk {
            a += x as u32;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    (b << 16) | a
}

/// An 8-bit RGBA PNG of `rgba`, its pixels in stored deflate blocks.
fn write_png(width: usize, height: usize, rgba: &[u8]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(width as u32).to_be_bytes());
    ihdr.extend_from_slice(&(height as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut raw = Vec::with_capacity(height * (1 + 4 * width));
    for row in rgba.chunks(4 * width) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, block) in blocks.iter().enumerate() {
        z.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    z.extend_from_slice(&adler32(&raw).to_be_bytes());
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A test pattern: a checkerboard over colour gradients.
fn pattern(w: usize, h: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            let check = if (x / 32 + y / 32) % 2 == 0 { 255 } else { 40 };
            v.extend_from_slice(&[(x * 255 / w) as u8, (y * 255 / h) as u8, check, 255]);
        }
    }
    v
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (w, h, rgba) = match args.first() {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(|e| format!("read {p}: {e}"))?;
            read_png(&bytes).map_err(|e| format!("{p}: {e}"))?
        }
        None => (640, 480, pattern(640, 480)),
    };
    let out_path = args.get(1).cloned().unwrap_or_else(|| "blur.png".into());
    let sigma: f32 = match args.get(2) {
        Some(s) => s.parse().map_err(|_| format!("sigma {s}: not a number"))?,
        None => 2.0,
    };
    if !(0.1..=20.0).contains(&sigma) {
        return Err(format!("sigma {sigma}: must be 0.1 to 20"));
    }
    let wt = weights(sigma);
    let got = device_blur(w, h, &rgba, &wt)?;
    let want = host_blur(w, h, &rgba, &wt);
    let worst = got
        .iter()
        .zip(&want)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(0);
    if worst > 1 {
        return Err(format!(
            "the device's blur differs from the host's by {worst} / 255"
        ));
    }
    std::fs::write(&out_path, write_png(w, h, &got))
        .map_err(|e| format!("write {out_path}: {e}"))?;
    println!(
        "blurred {w}x{h} (sigma {sigma}, {} taps per pass): every pixel within {worst}/255 of the host's; wrote {out_path}",
        wt.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("blur: {e}");
            ExitCode::FAILURE
        }
    }
}
