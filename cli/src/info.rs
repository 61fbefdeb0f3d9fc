//! `cranecl info`: the platform and device as the OpenCL queries answer
//! them (so a device profile's figures show), a short clinfo, plus the
//! checked-mode words and the `CRANECL_*` variables in effect.

use crate::cl::{Cl, ClResult};
use opencl_sys::*;

/// The words `--check` and `CRANECL_CHECK` accept.
pub const CHECK_WORDS: [&str; 7] = [
    "bounds",
    "barriers",
    "races",
    "races-strict",
    "uninit",
    "api",
    "all",
];

/// The variables the command sets from its options, and the others it shows.
const VARIABLES: [&str; 6] = [
    "CRANECL_CHECK",
    "CRANECL_SCHEDULE",
    "CRANECL_PROFILE",
    "CRANECL_DEVICE_TYPE",
    "CRANECL_THREADS",
    "CRANECL_LANES",
];

fn bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    match UNITS.iter().find(|(u, _)| n >= *u) {
        Some((u, name)) if n.is_multiple_of(*u) => format!("{} {name} ({n} bytes)", n / u),
        Some((u, name)) => format!("{:.1} {name} ({n} bytes)", n as f64 / *u as f64),
        None => format!("{n} bytes"),
    }
}

fn device_type(t: u64) -> String {
    let mut v = Vec::new();
    for (bit, name) in [
        (CL_DEVICE_TYPE_CPU, "CPU"),
        (CL_DEVICE_TYPE_GPU, "GPU"),
        (CL_DEVICE_TYPE_ACCELERATOR, "accelerator"),
        (CL_DEVICE_TYPE_DEFAULT, "default"),
    ] {
        if t & bit != 0 {
            v.push(name);
        }
    }
    v.join(", ")
}

/// The text `cranecl info` prints.
pub fn describe(cl: &Cl) -> ClResult<String> {
    let mut rows: Vec<(&str, String)> = Vec::new();
    let ds = |p| cl.device_string(p);
    let du = |p| cl.device_uint(p);
    rows.push((
        "platform",
        format!(
            "{} ({})",
            cl.platform_string(CL_PLATFORM_NAME)?,
            cl.platform_string(CL_PLATFORM_VERSION)?
        ),
    ));
    rows.push(("vendor", cl.platform_string(CL_PLATFORM_VENDOR)?));
    rows.push(("device", ds(CL_DEVICE_NAME)?));
    rows.push(("type", device_type(du(CL_DEVICE_TYPE)?)));
    rows.push(("version", ds(CL_DEVICE_VERSION)?));
    rows.push(("OpenCL C", ds(CL_DEVICE_OPENCL_C_VERSION)?));
    rows.push(("driver", ds(CL_DRIVER_VERSION)?));
    rows.push((
        "compute units",
        du(CL_DEVICE_MAX_COMPUTE_UNITS)?.to_string(),
    ));
    rows.push(("global memory", bytes(du(CL_DEVICE_GLOBAL_MEM_SIZE)?)));
    rows.push(("max allocation", bytes(du(CL_DEVICE_MAX_MEM_ALLOC_SIZE)?)));
    rows.push(("local memory", bytes(du(CL_DEVICE_LOCAL_MEM_SIZE)?)));
    rows.push((
        "constant memory",
        format!(
            "{}, {} constant arguments",
            bytes(du(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)?),
            du(CL_DEVICE_MAX_CONSTANT_ARGS)?
        ),
    ));
    let items = cl.device_sizes(CL_DEVICE_MAX_WORK_ITEM_SIZES)?;
    rows.push((
        "work-group size",
        format!(
            "at most {} work-items; per dimension {}",
            du(CL_DEVICE_MAX_WORK_GROUP_SIZE)?,
            items
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" x ")
        ),
    ));
    rows.push((
        "work-item dimensions",
        du(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS)?.to_string(),
    ));
    rows.push(("parameter size", bytes(du(CL_DEVICE_MAX_PARAMETER_SIZE)?)));
    let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
    rows.push(("fp64", yes(du(CL_DEVICE_DOUBLE_FP_CONFIG)? != 0)));
    rows.push(("fp16", yes(du(CL_DEVICE_HALF_FP_CONFIG).unwrap_or(0) != 0)));
    rows.push(("images", yes(du(CL_DEVICE_IMAGE_SUPPORT)? != 0)));
    rows.push(("extensions", ds(CL_DEVICE_EXTENSIONS)?.trim().to_string()));
    rows.push(("checked mode", CHECK_WORDS.join(", ")));
    let set: Vec<String> = VARIABLES
        .iter()
        .filter_map(|v| std::env::var(v).ok().map(|x| format!("{v}={x}")))
        .collect();
    rows.push((
        "environment",
        if set.is_empty() {
            "no CRANECL_* variable set".into()
        } else {
            set.join(" ")
        },
    ));
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    Ok(rows
        .iter()
        .map(|(k, v)| format!("{k:<width$}  {v}\n"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_word_shown_is_one_checked_mode_accepts() {
        for w in CHECK_WORDS {
            assert!(
                cranecl_jit::runtime::check::Checks::parse(w).is_ok_and(|c| c.any_code() || c.api),
                "{w}"
            );
        }
    }

    #[test]
    fn sizes_read_in_their_unit() {
        assert_eq!(bytes(65536), "64 KiB (65536 bytes)");
        assert_eq!(bytes(1 << 30), "1 GiB (1073741824 bytes)");
        assert_eq!(bytes(100), "100 bytes");
        assert_eq!(bytes(3 << 29), "1.5 GiB (1610612736 bytes)");
    }
}
