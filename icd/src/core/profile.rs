//! Device profiles: the limits the device reports and enforces, either
//! cranecl's own (a CPU's) or those of a class of GPU (`CRANECL_PROFILE`).
//!
//! A profile is a small text file of `key = value` lines; `#` starts a
//! comment, blank lines are ignored, every key is optional (a missing one
//! keeps cranecl's own figure) and an unknown key or a bad value is an
//! error naming the line, so a typo never passes silently. The shipped
//! profiles live in `icd/profiles/<name>.profile` and are compiled in
//! ([`SHIPPED`]); `CRANECL_PROFILE` names one of them or gives the path of
//! such a file. The figures of the shipped ones come from public `clinfo`
//! outputs of real devices (each file names its source).
//!
//! What the device does with a profile (see `api/ndrange.rs`,
//! `api/kernel.rs`, `api/device.rs`): every query answers the profile's
//! figure; a work-group larger than `max_work_group_size` is
//! `CL_INVALID_WORK_GROUP_SIZE`, a dimension above `max_work_item_sizes`
//! `CL_INVALID_WORK_ITEM_SIZE`, local memory above `local_mem_size`,
//! more `constant` arguments than `max_constant_args` or a constant buffer
//! above `max_constant_buffer_size` `CL_OUT_OF_RESOURCES`, all at enqueue;
//! `fp64 = no` takes `cl_khr_fp64`/`__opencl_c_fp64` away from the compiler
//! (`cranecl_jit::features::set_fp64`), `fp16 = no` likewise
//! `cl_khr_fp16`/`__opencl_c_fp16` (`set_fp16`). Figures the device cannot
//! honour are kept and documented but not reported: image limits (the
//! device's own are reported), sub-group sizes (no sub-groups), compute units (the
//! host's threads run the work-groups and are reported).

use super::device::{LOCAL_MEM_SIZE, MAX_CONSTANT_ARGS, MAX_CONSTANT_BUFFER_SIZE};
use super::device::{MAX_PARAMETER_SIZE, MAX_WORK_GROUP_SIZE};

/// The shipped profiles: name and text.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "nvidia-rtx4090",
        include_str!("../../profiles/nvidia-rtx4090.profile"),
    ),
    (
        "amd-rx7900xt",
        include_str!("../../profiles/amd-rx7900xt.profile"),
    ),
    (
        "intel-arc-a770",
        include_str!("../../profiles/intel-arc-a770.profile"),
    ),
    (
        "arm-mali-g610",
        include_str!("../../profiles/arm-mali-g610.profile"),
    ),
];

/// The limits the device reports and enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_work_group_size: usize,
    pub max_work_item_sizes: [usize; 3],
    /// `CL_DEVICE_LOCAL_MEM_SIZE` (at most the arena, [`LOCAL_MEM_SIZE`]).
    pub local_mem_size: u64,
    pub max_constant_buffer_size: u64,
    pub max_constant_args: u32,
    pub preferred_work_group_size_multiple: usize,
    pub max_parameter_size: usize,
    pub fp64: bool,
    /// `half` arithmetic (`cl_khr_fp16`).
    pub fp16: bool,
    /// Caps on `CL_DEVICE_MAX_MEM_ALLOC_SIZE` and `CL_DEVICE_GLOBAL_MEM_SIZE`
    /// (the host's own figures when smaller).
    pub max_mem_alloc_size: Option<u64>,
    pub global_mem_size: Option<u64>,
}

impl Default for Limits {
    /// cranecl's own device: what the runtime supports.
    fn default() -> Limits {
        Limits {
            max_work_group_size: MAX_WORK_GROUP_SIZE,
            max_work_item_sizes: [MAX_WORK_GROUP_SIZE; 3],
            local_mem_size: LOCAL_MEM_SIZE,
            max_constant_buffer_size: MAX_CONSTANT_BUFFER_SIZE,
            max_constant_args: MAX_CONSTANT_ARGS,
            preferred_work_group_size_multiple: 8,
            max_parameter_size: MAX_PARAMETER_SIZE,
            fp64: true,
            fp16: true,
            max_mem_alloc_size: None,
            global_mem_size: None,
        }
    }
}

/// Figures a profile keeps that the device cannot offer (documentation of
/// the real device; not reported).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unreported {
    pub max_compute_units: Option<u32>,
    pub sub_group_sizes: Vec<u32>,
    pub image_support: bool,
    pub image2d_max_size: Option<[u64; 2]>,
    pub image3d_max_size: Option<[u64; 3]>,
    pub max_read_image_args: Option<u32>,
    pub max_write_image_args: Option<u32>,
    pub max_samplers: Option<u32>,
}

/// A parsed profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The shipped name, or the file's name without `.profile`.
    pub name: String,
    /// The real device the figures come from (`device_name`).
    pub device_name: Option<String>,
    pub limits: Limits,
    pub unreported: Unreported,
}

impl Profile {
    /// `CL_DEVICE_NAME` under this profile.
    pub fn device_name_shown(&self) -> String {
        match &self.device_name {
            Some(real) => format!("cranecl (profile {}: {real})", self.name),
            None => format!("cranecl (profile {})", self.name),
        }
    }
}

/// `CRANECL_PROFILE`'s value: a shipped name, or a path to a profile file
/// (anything with a `/` or ending in `.profile`). `Err` is the message's
/// text after `CRANECL_PROFILE: `.
pub fn load(value: &str) -> Result<Profile, String> {
    let value = value.trim();
    if let Some((name, text)) = SHIPPED.iter().find(|(n, _)| *n == value) {
        return parse(name, text).map_err(|e| format!("shipped profile '{name}': {e}"));
    }
    if !(value.contains('/') || value.ends_with(".profile")) {
        let names: Vec<&str> = SHIPPED.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "unknown profile '{value}' (shipped: {}; or the path of a .profile file)",
            names.join(", ")
        ));
    }
    let path = std::path::Path::new(value);
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{value}': {e}"))?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.strip_suffix(".profile").unwrap_or(n))
        .unwrap_or(value);
    parse(name, &text).map_err(|e| format!("{value}:{e}"))
}

/// Parses a profile's text; `Err` is `LINE: what`.
pub fn parse(name: &str, text: &str) -> Result<Profile, String> {
    let mut p = Profile {
        name: name.to_string(),
        device_name: None,
        limits: Limits::default(),
        unreported: Unreported::default(),
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(format!("{}: expected 'key = value', got '{line}'", i + 1));
        };
        set(&mut p, key.trim(), value.trim()).map_err(|e| format!("{}: {e}", i + 1))?;
    }
    Ok(p)
}

/// One `key = value` line.
fn set(p: &mut Profile, key: &str, v: &str) -> Result<(), String> {
    let l = &mut p.limits;
    let u = &mut p.unreported;
    match key {
        "device_name" => p.device_name = Some(v.to_string()),
        "max_compute_units" => u.max_compute_units = Some(number(key, v)?),
        "max_work_group_size" => l.max_work_group_size = runtime_size(key, v)?,
        "max_work_item_sizes" => {
            let s: [u64; 3] = numbers(key, v)?;
            for x in s {
                runtime_size(key, &x.to_string())?;
            }
            l.max_work_item_sizes = s.map(|x| x as usize);
        }
        "local_mem_size" => {
            l.local_mem_size = number(key, v)?;
            if l.local_mem_size > LOCAL_MEM_SIZE {
                return Err(format!(
                    "local_mem_size {} is above cranecl's local arena ({LOCAL_MEM_SIZE} bytes)",
                    l.local_mem_size
                ));
            }
        }
        "max_constant_buffer_size" => l.max_constant_buffer_size = number(key, v)?,
        "max_constant_args" => l.max_constant_args = number(key, v)?,
        "preferred_work_group_size_multiple" => {
            l.preferred_work_group_size_multiple = number(key, v)?
        }
        "max_parameter_size" => l.max_parameter_size = number(key, v)?,
        "max_mem_alloc_size" => l.max_mem_alloc_size = Some(number(key, v)?),
        "global_mem_size" => l.global_mem_size = Some(number(key, v)?),
        "fp64" => l.fp64 = yes_no(key, v)?,
        "fp16" => l.fp16 = yes_no(key, v)?,
        "sub_group_sizes" => {
            u.sub_group_sizes = v
                .split_whitespace()
                .map(|x| number(key, x))
                .collect::<Result<_, _>>()?
        }
        "image_support" => u.image_support = yes_no(key, v)?,
        "image2d_max_size" => u.image2d_max_size = Some(numbers(key, v)?),
        "image3d_max_size" => u.image3d_max_size = Some(numbers(key, v)?),
        "max_read_image_args" => u.max_read_image_args = Some(number(key, v)?),
        "max_write_image_args" => u.max_write_image_args = Some(number(key, v)?),
        "max_samplers" => u.max_samplers = Some(number(key, v)?),
        _ => return Err(format!("unknown key '{key}'")),
    }
    Ok(())
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{key}: '{v}' is not a number of the right size"))
}

/// `N` numbers separated by spaces or `x` (`1024 1024 64`, `1024x1024x64`).
fn numbers<const N: usize>(key: &str, v: &str) -> Result<[u64; N], String> {
    let parts: Vec<&str> = v
        .split(|c: char| c.is_whitespace() || c == 'x')
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() != N {
        return Err(format!("{key}: expected {N} numbers, got '{v}'"));
    }
    let mut out = [0u64; N];
    for (o, s) in out.iter_mut().zip(parts) {
        *o = number(key, s)?;
    }
    Ok(out)
}

/// A work-group size: 1 to what the runtime runs.
fn runtime_size(key: &str, v: &str) -> Result<usize, String> {
    let n: usize = number(key, v)?;
    if n == 0 || n > MAX_WORK_GROUP_SIZE {
        return Err(format!(
            "{key}: {n} is outside 1..={MAX_WORK_GROUP_SIZE} (what cranecl's work-groups run)"
        ));
    }
    Ok(n)
}

fn yes_no(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "yes" | "true" | "1" => Ok(true),
        "no" | "false" | "0" => Ok(false),
        _ => Err(format!("{key}: expected 'yes' or 'no', got '{v}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_profile_parses_and_names_its_device() {
        for (name, text) in SHIPPED {
            let p = parse(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(p.device_name.is_some(), "{name} names its device");
            assert!(text.contains("https://"), "{name} cites its source");
            assert_ne!(p.limits, Limits::default(), "{name} changes something");
        }
    }

    #[test]
    fn a_bad_line_is_an_error_naming_it() {
        let e = parse("t", "# c\nmax_work_group_size = 256\nlocal_mem = 3\n").unwrap_err();
        assert_eq!(e, "3: unknown key 'local_mem'");
        let e = parse("t", "max_work_group_size = 4096").unwrap_err();
        assert!(
            e.starts_with("1: max_work_group_size: 4096 is outside"),
            "{e}"
        );
        let e = parse("t", "fp64 = maybe").unwrap_err();
        assert_eq!(e, "1: fp64: expected 'yes' or 'no', got 'maybe'");
        let e = parse("t", "max_work_item_sizes = 1 2").unwrap_err();
        assert_eq!(e, "1: max_work_item_sizes: expected 3 numbers, got '1 2'");
    }

    #[test]
    fn missing_keys_keep_the_cpu_figures() {
        let p = parse("t", "local_mem_size = 16384 # small\n\nfp64 = no").unwrap();
        assert_eq!(p.limits.local_mem_size, 16384);
        assert!(!p.limits.fp64);
        assert!(p.limits.fp16, "a key left out keeps cranecl's own figure");
        let p = parse("t", "fp16 = no").unwrap();
        assert!(!p.limits.fp16);
        assert_eq!(p.limits.max_work_group_size, MAX_WORK_GROUP_SIZE);
        assert_eq!(p.device_name_shown(), "cranecl (profile t)");
    }

    #[test]
    fn an_unknown_name_lists_the_shipped_ones() {
        let e = load("nvidia-rtx4909").unwrap_err();
        assert!(
            e.starts_with("unknown profile 'nvidia-rtx4909' (shipped: nvidia-rtx4090"),
            "{e}"
        );
    }
}
