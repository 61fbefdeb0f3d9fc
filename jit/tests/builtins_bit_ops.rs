//! cl_khr_extended_bit_ops: `bitfield_insert`, `bitfield_extract_signed`,
//! `bitfield_extract_unsigned` and `bit_reverse` for every integer type,
//! scalar and vector (2, 3, 4, 8, 16), built with the device's own
//! extension list, against Rust references on the lane's bits; offsets and
//! counts include 0, the whole lane and its last bit.

mod run_common;
use run_common::*;

/// (OpenCL type, bits, signed)
const TYPES: [(&str, u32, bool); 8] = [
    ("char", 8, true),
    ("uchar", 8, false),
    ("short", 16, true),
    ("ushort", 16, false),
    ("int", 32, true),
    ("uint", 32, false),
    ("long", 64, true),
    ("ulong", 64, false),
];

const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];

/// Work-items per launch.
const N: usize = 40;

/// A value of `bits` bits read as signed (sign-extended) or not, as the
/// kernel's `convert_long` gives it.
fn as_long(v: u64, bits: u32, signed: bool) -> i64 {
    let v = if bits == 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    };
    if signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
        (v | !((1u64 << bits) - 1)) as i64
    } else {
        v as i64
    }
}

fn mask(count: u32) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1u64 << count) - 1
    }
}

/// The four results for one lane: insert, extract_signed,
/// extract_unsigned, reverse (as `long`).
fn reference(a: u64, b: u64, off: u32, cnt: u32, bits: u32, signed: bool) -> [i64; 4] {
    let m = mask(cnt);
    let insert = if cnt == 0 {
        a
    } else {
        (a & !(m << off)) | ((b & m) << off)
    };
    let field = if cnt == 0 { 0 } else { (a >> off) & m };
    let reversed = a.reverse_bits() >> (64 - bits);
    [
        as_long(insert, bits, signed),
        if cnt == 0 {
            0
        } else {
            as_long(field, cnt, true)
        },
        field as i64,
        as_long(reversed, bits, signed),
    ]
}

/// A pseudo-random sequence (an LCG's high bits).
fn random(seed: u64) -> impl Iterator<Item = u64> {
    let mut s = seed;
    std::iter::repeat_with(move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s ^ (s >> 29)
    })
}

fn kernel_text(ty: &str, w: usize) -> String {
    let (vt, load, store) = if w == 1 {
        (ty.to_string(), "a[i]".to_string(), None)
    } else {
        (format!("{ty}{w}"), format!("vload{w}(i, a)"), Some(w))
    };
    let loadb = load.replace("a[i]", "b[i]").replace(", a)", ", b)");
    let put = |k: usize, e: &str| match store {
        None => format!("o[i * 4 + {k}] = (long)({e});"),
        Some(w) => format!("vstore{w}(convert_long{w}({e}), i * 4 + {k}, o);"),
    };
    format!(
        "kernel void t(global const {ty} *a, global const {ty} *b, global const uint *oc, global long *o) {{
            size_t i = get_global_id(0);
            {vt} x = {load};
            {vt} y = {loadb};
            uint off = oc[2 * i], cnt = oc[2 * i + 1];
            {}
            {}
            {}
            {}
        }}",
        put(0, "bitfield_insert(x, y, off, cnt)"),
        put(1, "bitfield_extract_signed(x, off, cnt)"),
        put(2, "bitfield_extract_unsigned(x, off, cnt)"),
        put(3, "bit_reverse(x)"),
    )
}

/// Fill a buffer of `bits`-bit lanes from 64-bit values (little endian).
fn lanes_bytes(values: &[u64], bits: u32) -> Vec<u8> {
    let bytes = (bits / 8) as usize;
    values
        .iter()
        .flat_map(|v| v.to_le_bytes().into_iter().take(bytes))
        .collect()
}

#[test]
fn every_integer_type_and_width() {
    const NAMES: [&str; 4] = [
        "bitfield_insert",
        "bitfield_extract_signed",
        "bitfield_extract_unsigned",
        "bit_reverse",
    ];
    for (ti, (ty, bits, signed)) in TYPES.iter().enumerate() {
        for (wi, &w) in WIDTHS.iter().enumerate() {
            let p = build(&kernel_text(ty, w));
            let mut rng = random((ti * 16 + wi) as u64 + 1);
            let lane_mask = mask(*bits);
            let av: Vec<u64> = (0..N * w)
                .map(|_| rng.next().unwrap_or(0) & lane_mask)
                .collect();
            let bv: Vec<u64> = (0..N * w)
                .map(|_| rng.next().unwrap_or(0) & lane_mask)
                .collect();
            // Offsets and counts: the edges first, then random fields.
            let mut oc: Vec<u32> = vec![0, 0, 0, *bits, bits - 1, 1, 3, 0, 1, bits - 1];
            while oc.len() < 2 * N {
                let off = (rng.next().unwrap_or(0) % u64::from(*bits)) as u32;
                let cnt = (rng.next().unwrap_or(0) % u64::from(bits - off + 1)) as u32;
                oc.extend([off, cnt]);
            }
            let mut a = lanes_bytes(&av, *bits);
            let mut b = lanes_bytes(&bv, *bits);
            let mut o = vec![0i64; N * w * 4];
            run(
                &p,
                "t",
                &mut [buf(&mut a), buf(&mut b), buf(&mut oc), buf(&mut o)],
                &[N as u64],
                &[8],
            );
            for i in 0..N {
                let (off, cnt) = (oc[2 * i], oc[2 * i + 1]);
                for l in 0..w {
                    let want = reference(av[i * w + l], bv[i * w + l], off, cnt, *bits, *signed);
                    for (k, name) in NAMES.iter().enumerate() {
                        // Results are stored per function as `w` longs.
                        let got = o[(i * 4 + k) * w + l];
                        assert_eq!(
                            got,
                            want[k],
                            "{name}({ty}{}, offset {off}, count {cnt}) item {i} lane {l}: a = {:#x}, b = {:#x}",
                            if w == 1 { String::new() } else { w.to_string() },
                            av[i * w + l],
                            bv[i * w + l]
                        );
                    }
                }
            }
        }
    }
}

/// The extension's macro is defined and `#pragma OPENCL EXTENSION` knows it.
#[test]
fn the_extension_macro_is_defined() {
    let p = build(
        "#ifndef cl_khr_extended_bit_ops
         #error cl_khr_extended_bit_ops
         #endif
         #pragma OPENCL EXTENSION cl_khr_extended_bit_ops : enable
         kernel void t(global uint *o) { o[0] = bit_reverse(1u); }",
    );
    let mut o = vec![0u32];
    run(&p, "t", &mut [buf(&mut o)], &[1], &[1]);
    assert_eq!(o[0], 0x8000_0000);
}
