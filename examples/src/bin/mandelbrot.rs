//! Renders the Mandelbrot set on the cranecl device and writes it as a PNG.
//!
//! ```text
//! mandelbrot [out.png] [width height]     (default mandelbrot.png 1024 768)
//! ```
//!
//! Two kernels: `escape` computes each pixel's escape count (2D range, one
//! work-item per pixel), `colorize` turns counts into RGBA pixels through a
//! smooth palette. A sample of counts is checked against the same
//! computation on the host (near the set's boundary the count is chaotic, so
//! a few percent may differ by rounding). The PNG is written here, with no
//! image crate: the pixels are stored in an uncompressed ("stored") deflate
//! stream inside zlib, with the CRC-32 and Adler-32 checksums PNG requires.

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, cl_uint, CL_BLOCKING};
use std::process::ExitCode;
use std::time::Instant;

const SOURCE: &str = r#"
kernel void escape(global uint *count, float x0, float y0, float step, uint max_iter)
{
    uint px = get_global_id(0);
    uint py = get_global_id(1);
    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    uint n = 0;
    while (n < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    count[py * get_global_size(0) + px] = n;
}

kernel void colorize(global const uint *count, global uchar4 *rgba, uint max_iter)
{
    size_t i = get_global_id(0);
    uint n = count[i];
    if (n >= max_iter) {
        rgba[i] = (uchar4)(0, 0, 0, 255);
        return;
    }
    float t = sqrt((float)n / (float)max_iter);
    float4 c = (float4)(9.0f * (1.0f - t) * t * t * t,
                        15.0f * (1.0f - t) * (1.0f - t) * t * t,
                        8.5f * (1.0f - t) * (1.0f - t) * (1.0f - t) * t, 1.0f);
    float4 v = clamp(c, 0.0f, 1.0f) * 255.0f;
    rgba[i] = (uchar4)((uchar)v.x, (uchar)v.y, (uchar)v.z, 255);
}
"#;

const MAX_ITER: u32 = 512;

/// The first device of the platform whose name contains `cranecl`.
fn cranecl_device() -> Result<Device, String> {
    let platform = get_platforms()
        .map_err(|e| format!("no OpenCL platform: {e}"))?
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n.contains("cranecl")))
        .ok_or("the loader found no cranecl platform (is OCL_ICD_VENDORS set?)")?;
    let id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)
        .map_err(|e| format!("clGetDeviceIDs: {e}"))?
        .first()
        .ok_or("the cranecl platform has no device")?;
    Ok(Device::new(id))
}

/// The escape count of `c` on the host, with the kernel's operations.
fn host_escape(cr: f32, ci: f32) -> u32 {
    let (mut zr, mut zi, mut n) = (0.0f32, 0.0f32, 0);
    while n < MAX_ITER && zr * zr + zi * zi <= 4.0 {
        let t = zr * zr - zi * zi + cr;
        zi = 2.0 * zr * zi + ci;
        zr = t;
        n += 1;
    }
    n
}

fn render(width: usize, height: usize) -> Result<Vec<u8>, String> {
    let device = cranecl_device()?;
    println!("device: {}", device.name().unwrap_or_default());
    let context = Context::from_device(&device).map_err(|e| format!("clCreateContext: {e}"))?;
    let queue = CommandQueue::create_default_with_properties(&context, 0, 0)
        .map_err(|e| format!("clCreateCommandQueueWithProperties: {e}"))?;
    let program = Program::create_and_build_from_source(&context, SOURCE, "")
        .map_err(|e| format!("clBuildProgram: {e}"))?;
    let kernel =
        |name| Kernel::create(&program, name).map_err(|e| format!("clCreateKernel({name}): {e}"));
    let (escape, colorize) = (kernel("escape")?, kernel("colorize")?);

    // The view: centred on -0.6 + 0i, 3.2 units wide.
    let step = 3.2 / width as f32;
    let (x0, y0) = (
        -0.6 - step * width as f32 / 2.0,
        -step * height as f32 / 2.0,
    );
    let pixels = width * height;
    // SAFETY (the unsafe calls below): each kernel's arguments match its
    // parameters' types and sizes; the host vectors outlive the blocking
    // reads that fill them, and the in-order queue runs `colorize` after
    // `escape`.
    let count = unsafe {
        Buffer::<cl_uint>::create(&context, CL_MEM_READ_WRITE, pixels, std::ptr::null_mut())
    }
    .map_err(|e| format!("clCreateBuffer: {e}"))?;
    let rgba = unsafe {
        Buffer::<u8>::create(
            &context,
            CL_MEM_READ_WRITE,
            4 * pixels,
            std::ptr::null_mut(),
        )
    }
    .map_err(|e| format!("clCreateBuffer: {e}"))?;
    let start = Instant::now();
    unsafe {
        let args: [(&str, cl_uint, opencl3::Result<()>); 7] = [
            ("escape", 0, escape.set_arg(0, &count)),
            ("escape", 1, escape.set_arg(1, &(x0 as cl_float))),
            ("escape", 2, escape.set_arg(2, &(y0 as cl_float))),
            ("escape", 3, escape.set_arg(3, &(step as cl_float))),
            ("escape", 4, escape.set_arg(4, &MAX_ITER)),
            ("colorize", 0, colorize.set_arg(0, &count)),
            ("colorize", 1, colorize.set_arg(1, &rgba)),
        ];
        for (k, i, r) in args {
            r.map_err(|e| format!("clSetKernelArg({k}, {i}): {e}"))?;
        }
        colorize
            .set_arg(2, &MAX_ITER)
            .map_err(|e| format!("clSetKernelArg(colorize, 2): {e}"))?;
        let global = [width, height];
        queue
            .enqueue_nd_range_kernel(
                escape.get(),
                2,
                std::ptr::null(),
                global.as_ptr(),
                std::ptr::null(),
                &[],
            )
            .map_err(|e| format!("clEnqueueNDRangeKernel(escape): {e}"))?;
        queue
            .enqueue_nd_range_kernel(
                colorize.get(),
                1,
                std::ptr::null(),
                [pixels].as_ptr(),
                std::ptr::null(),
                &[],
            )
            .map_err(|e| format!("clEnqueueNDRangeKernel(colorize): {e}"))?;
    }
    let mut image = vec![0u8; 4 * pixels];
    unsafe { queue.enqueue_read_buffer(&rgba, CL_BLOCKING, 0, &mut image, &[]) }
        .map_err(|e| format!("clEnqueueReadBuffer: {e}"))?;
    let elapsed = start.elapsed();
    let mut counts = vec![0 as cl_uint; pixels];
    unsafe { queue.enqueue_read_buffer(&count, CL_BLOCKING, 0, &mut counts, &[]) }
        .map_err(|e| format!("clEnqueueReadBuffer: {e}"))?;

    // Check a spread of pixels (a prime stride visits every part).
    let sample: Vec<usize> = (0..pixels).step_by(pixels / 997 + 1).collect();
    let wrong: Vec<usize> = sample
        .iter()
        .copied()
        .filter(|&i| {
            let (px, py) = ((i % width) as f32, (i / width) as f32);
            counts[i] != host_escape(x0 + px * step, y0 + py * step)
        })
        .collect();
    if wrong.len() * 20 > sample.len() {
        let i = wrong[0];
        let (px, py) = (i % width, i / width);
        return Err(format!(
            "{} of {} sampled pixels disagree with the host; first ({px}, {py}): count {}, host {}",
            wrong.len(),
            sample.len(),
            counts[i],
            host_escape(x0 + px as f32 * step, y0 + py as f32 * step)
        ));
    }
    let inside = counts.iter().filter(|&&n| n >= MAX_ITER).count();
    println!(
        "rendered {width}x{height} ({MAX_ITER} iterations) in {:.1} ms; {:.1}% of pixels in the set; {} of {} sampled pixels match the host",
        elapsed.as_secs_f64() * 1e3,
        100.0 * inside as f64 / pixels as f64,
        sample.len() - wrong.len(),
        sample.len()
    );
    Ok(image)
}

// ------------------------------------------------------------------ PNG

/// CRC-32 (ISO 3309, as PNG uses it) of `bytes`.
fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, entry) in table.iter_mut().enumerate() {
        let mut c = n as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *entry = c;
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

/// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
fn zlib_stored(raw: &[u8]) -> Vec<u8> {
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
    for (i, block) in blocks.iter().enumerate() {
        z.push(u8::from(i + 1 == blocks.len())); // BFINAL on the last, BTYPE 00
        let len = block.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(block);
    }
    z.extend_from_slice(&adler32(raw).to_be_bytes());
    z
}

/// An 8-bit RGBA PNG of `rgba` (rows top to bottom).
fn png(width: usize, height: usize, rgba: &[u8]) -> Vec<u8> {
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
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]); // 8 bits, RGBA, deflate, no filter, no interlace
                                              // Each row: filter type 0 (none), then the row's pixels.
    let mut raw = Vec::with_capacity(height * (1 + 4 * width));
    for row in rgba.chunks(4 * width) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .first()
        .cloned()
        .unwrap_or_else(|| "mandelbrot.png".to_string());
    let (width, height) = match (args.get(1), args.get(2)) {
        (Some(w), Some(h)) => (
            w.parse().map_err(|_| format!("width {w}: not a number"))?,
            h.parse().map_err(|_| format!("height {h}: not a number"))?,
        ),
        (None, None) => (1024, 768),
        _ => return Err("usage: mandelbrot [out.png] [width height]".to_string()),
    };
    if width == 0 || height == 0 || width > 16384 || height > 16384 {
        return Err(format!(
            "{width}x{height}: width and height must be 1 to 16384"
        ));
    }
    let image = render(width, height)?;
    std::fs::write(&path, png(width, height, &image)).map_err(|e| format!("write {path}: {e}"))?;
    println!("wrote {path}");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mandelbrot: {e}");
            ExitCode::FAILURE
        }
    }
}
