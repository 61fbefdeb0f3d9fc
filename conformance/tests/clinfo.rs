//! `clinfo` through ocl-icd against cranecl: it lists our platform and device,
//! no query answers an error, the NULL-platform section behaves, and every
//! query clinfo answers for pocl (the peer) is answered by us too.

use cranecl_conformance::{call, cl, code_name, setup, vendors_cranecl, vendors_pocl};
use opencl_sys::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// Runs clinfo with the loader seeing only the given vendors folder.
fn clinfo(vendors: &Path, args: &[&str]) -> String {
    let out = Command::new("clinfo")
        .args(args)
        .env("OCL_ICD_VENDORS", vendors)
        .output()
        .expect("clinfo is installed (scripts/install-deps.sh)");
    assert!(
        out.status.success(),
        "clinfo {args:?} exited with {}",
        out.status
    );
    let mut s = String::from_utf8_lossy(&out.stdout).into_owned();
    s.push_str(&String::from_utf8_lossy(&out.stderr));
    s
}

/// clinfo's error markers: `<where: what : error -NN>` and friends. A marker
/// is any `<...>` whose text names an error or an invalid value.
fn error_markers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(open) = rest.find('<') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('>') else { break };
            let inner = after[..close].to_ascii_lowercase();
            if inner.contains("error") || inner.contains("invalid") {
                found.push(line.trim().to_string());
            }
            rest = &after[close + 1..];
        }
        if line.to_ascii_lowercase().contains("invalid") && !found.iter().any(|f| f == line.trim())
        {
            found.push(line.trim().to_string());
        }
    }
    found
}

/// The value column of the first line whose label is `label`.
fn row<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let t = l.trim_start();
        t.strip_prefix(label)
            .filter(|rest| rest.starts_with("  "))
            .map(str::trim)
    })
}

#[test]
fn clinfo_lists_cranecl_platform_and_device() {
    let v = vendors_cranecl();
    let list = clinfo(&v, &["-l"]);
    assert!(list.contains("Platform #0: cranecl"), "clinfo -l:\n{list}");
    assert!(list.contains("Device #0: cranecl"), "clinfo -l:\n{list}");
    let full = clinfo(&v, &[]);
    assert_eq!(row(&full, "Number of platforms"), Some("1"), "{full}");
    assert_eq!(row(&full, "Platform Name"), Some("cranecl"));
    assert_eq!(row(&full, "Number of devices"), Some("1"));
    assert_eq!(row(&full, "Device Type"), Some("CPU"));
    assert_eq!(
        row(&full, "Platform Version").map(|v| v.starts_with("OpenCL 3.0")),
        Some(true)
    );
    assert_eq!(
        row(&full, "Device Version").map(|v| v.starts_with("OpenCL 3.0")),
        Some(true)
    );
    assert!(
        row(&full, "Platform Extensions").is_some_and(|e| e.split(' ').any(|x| x == "cl_khr_icd"))
    );
}

#[test]
fn clinfo_platform_and_device_queries_answer_no_error() {
    let v = vendors_cranecl();
    let full = clinfo(&v, &[]);
    let device_part = full.split("NULL platform behavior").next().unwrap_or(&full);
    let errs = error_markers(device_part);
    assert!(
        errs.is_empty(),
        "clinfo reports errors for cranecl queries:\n{}",
        errs.join("\n")
    );
    let raw = clinfo(&v, &["--raw"]);
    let errs = error_markers(&raw);
    assert!(
        errs.is_empty(),
        "clinfo --raw reports errors:\n{}",
        errs.join("\n")
    );
}

/// With a NULL platform, ocl-icd picks the default one (ours): contexts on the
/// default, CPU and ALL types succeed; GPU, ACCELERATOR and CUSTOM find no
/// device (clinfo prints "No devices found" for CL_DEVICE_NOT_FOUND).
#[test]
fn clinfo_null_platform_behavior() {
    let v = vendors_cranecl();
    let full = clinfo(&v, &[]);
    let null_part = full
        .split("NULL platform behavior")
        .nth(1)
        .and_then(|s| s.split("ICD loader properties").next())
        .expect("clinfo prints a NULL platform behavior section");
    let errs = error_markers(null_part);
    assert!(
        errs.is_empty(),
        "NULL-platform calls answer errors:\n{}",
        errs.join("\n")
    );
    // ocl-icd picks a default platform for NULL; the Khronos loader picks
    // none and answers "No platform" itself (scripts/test-khronos-loader.sh).
    if row(&full, "ICD loader Name") == Some("Khronos OpenCL ICD Loader") {
        for label in [
            "clGetPlatformInfo(NULL, CL_PLATFORM_NAME, ...)",
            "clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, ...)",
            "clCreateContext(NULL, ...) [default]",
        ] {
            assert_eq!(row(null_part, label), Some("No platform"), "{label}");
        }
        assert!(row(null_part, "clCreateContext(NULL, ...) [other]")
            .is_some_and(|r| r.starts_with("Success")));
    } else {
        assert_eq!(
            row(null_part, "clGetPlatformInfo(NULL, CL_PLATFORM_NAME, ...)"),
            Some("cranecl")
        );
        assert!(row(null_part, "clCreateContext(NULL, ...) [default]")
            .is_some_and(|r| r.starts_with("Success")));
    }
    for ty in ["DEFAULT", "CPU", "ALL"] {
        let label = format!("clCreateContextFromType(NULL, CL_DEVICE_TYPE_{ty})");
        assert!(
            row(null_part, &label).is_some_and(|r| r.starts_with("Success (1)")),
            "{label}: {:?}",
            row(null_part, &label)
        );
    }
    for ty in ["GPU", "ACCELERATOR", "CUSTOM"] {
        let label = format!("clCreateContextFromType(NULL, CL_DEVICE_TYPE_{ty})");
        assert_eq!(
            row(null_part, &label),
            Some("No devices found in platform"),
            "{label}"
        );
    }
}

/// `name -> value` rows of one device in `clinfo --raw` output.
fn raw_rows(raw: &str) -> BTreeMap<String, String> {
    let mut rows = BTreeMap::new();
    for line in raw.lines() {
        let t = line.trim_start();
        let t = match t.strip_prefix('[') {
            Some(rest) => match rest.split_once(']') {
                Some((tag, after)) if tag.ends_with("/0") || tag.ends_with("/*") => {
                    after.trim_start()
                }
                _ => continue,
            },
            None => t,
        };
        let (name, value) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        if name.starts_with("CL_") {
            rows.insert(name.to_string(), value.trim().to_string());
        }
    }
    rows
}

/// Core device queries clinfo asks only when a capability is on (images,
/// doubles): for these we ask the device ourselves.
fn core_device_query(name: &str) -> Option<cl_device_info> {
    macro_rules! table {
        ($($c:ident),* $(,)?) => {
            $( if name == stringify!($c) { return Some($c as cl_device_info); } )*
        };
    }
    table!(
        CL_DEVICE_DOUBLE_FP_CONFIG,
        CL_DEVICE_HALF_FP_CONFIG,
        CL_DEVICE_IMAGE2D_MAX_HEIGHT,
        CL_DEVICE_IMAGE2D_MAX_WIDTH,
        CL_DEVICE_IMAGE3D_MAX_DEPTH,
        CL_DEVICE_IMAGE3D_MAX_HEIGHT,
        CL_DEVICE_IMAGE3D_MAX_WIDTH,
        CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT,
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE,
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE,
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT,
        CL_DEVICE_MAX_READ_IMAGE_ARGS,
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
        CL_DEVICE_MAX_SAMPLERS,
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS,
        CL_DEVICE_MAX_NUM_SUB_GROUPS,
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS,
        CL_DEVICE_PIPE_MAX_PACKET_SIZE,
        CL_DEVICE_MAX_PIPE_ARGS,
        CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE,
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE,
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
        CL_DEVICE_MAX_ON_DEVICE_QUEUES,
        CL_DEVICE_MAX_ON_DEVICE_EVENTS,
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE,
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
    );
    None
}

/// Extension queries: the extension that defines each.
fn extension_of(name: &str) -> Option<&'static str> {
    match name {
        "CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR"
        | "CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR" => Some("cl_khr_command_buffer"),
        "CL_DEVICE_SPIR_VERSIONS" => Some("cl_khr_spir"),
        "CL_DEVICE_HALF_FP_CONFIG" => Some("cl_khr_fp16"),
        _ => None,
    }
}

#[test]
fn clinfo_answers_every_query_pocl_answers() {
    let Some(pocl) = vendors_pocl() else {
        panic!("pocl is not installed (/etc/OpenCL/vendors/pocl.icd): scripts/install-deps.sh installs it");
    };
    let ours = raw_rows(&clinfo(&vendors_cranecl(), &["--raw"]));
    let theirs = raw_rows(&clinfo(&pocl, &["--raw"]));
    assert!(
        theirs.len() > 50,
        "pocl's clinfo --raw looks empty: {} rows",
        theirs.len()
    );
    let our_extensions: Vec<String> = ours
        .get("CL_DEVICE_EXTENSIONS")
        .map(|e| e.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let compiler = ours.get("CL_DEVICE_COMPILER_AVAILABLE").map(String::as_str) == Some("CL_TRUE");

    setup();
    let dev = cranecl_conformance::device();
    let _ = cl();
    let mut missing = Vec::new();
    let mut explained = Vec::new();
    for name in theirs.keys().filter(|n| !ours.contains_key(*n)) {
        if let Some(ext) = extension_of(name) {
            if !our_extensions.iter().any(|e| e == ext) {
                explained.push(format!("{name}: extension {ext} not advertised"));
                continue;
            }
        }
        if name.starts_with("CL_KERNEL_") && !compiler {
            explained.push(format!(
                "{name}: needs a built kernel; CL_DEVICE_COMPILER_AVAILABLE is false"
            ));
            continue;
        }
        if let Some(q) = core_device_query(name) {
            let mut size = 0usize;
            let r = call!(clGetDeviceInfo(dev, q, 0, std::ptr::null_mut(), &mut size));
            if r == CL_SUCCESS && size > 0 {
                explained.push(format!(
                    "{name}: clinfo skipped it; clGetDeviceInfo answers ({size} bytes)"
                ));
                continue;
            }
            missing.push(format!(
                "{name}: clGetDeviceInfo answers {r} ({}) size {size}",
                code_name(r)
            ));
            continue;
        }
        missing.push(format!(
            "{name}: pocl answers it, cranecl's clinfo output lacks it"
        ));
    }
    let extra: Vec<&String> = ours.keys().filter(|n| !theirs.contains_key(*n)).collect();
    println!("rows pocl answers that clinfo did not print for cranecl:");
    for e in &explained {
        println!("  ok      {e}");
    }
    for m in &missing {
        println!("  MISSING {m}");
    }
    println!("rows cranecl answers that pocl does not: {extra:?}");
    assert!(
        missing.is_empty(),
        "queries pocl answers and cranecl does not:\n{}",
        missing.join("\n")
    );
}
