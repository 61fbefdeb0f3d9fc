//! What the host machine is: CPU model and vendor, cores, memory, caches and
//! ISA features, read once from the OS (`/proc`, `/sys`) for `clGetDeviceInfo`.
//! Every reader has a safe fallback so a sandbox without `/sys` still answers.

use std::fs;

#[derive(Debug, Clone)]
pub struct HostInfo {
    pub cpu_name: String,
    pub cpu_vendor: String,
    /// PCI vendor ID of the CPU maker (Intel 0x8086, AMD 0x1022), 0 if unknown.
    pub vendor_id: u32,
    pub cores: u32,
    pub max_mhz: u32,
    pub total_memory: u64,
    pub cacheline: u32,
    /// Per-core L1 data, L2 and last-level cache sizes in bytes.
    pub l1d: u64,
    pub l2: u64,
    pub llc: u64,
    pub has_fma: bool,
    pub has_avx2: bool,
}

fn cpuinfo_field(text: &str, key: &str) -> Option<String> {
    text.lines()
        .find(|l| l.split(':').next().map(str::trim) == Some(key))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string())
}

/// Parse a sysfs cache size like `32K` or `8192K` or `16M`.
fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'K' => (&s[..s.len() - 1], 1024),
        'M' => (&s[..s.len() - 1], 1024 * 1024),
        'G' => (&s[..s.len() - 1], 1024 * 1024 * 1024),
        _ => (s, 1),
    };
    num.parse::<u64>().ok().map(|n| n * mult)
}

fn read_caches() -> (u64, u64, u64, u32) {
    let (mut l1d, mut l2, mut llc, mut line) = (32 << 10, 256 << 10, 0u64, 64u32);
    for i in 0..8 {
        let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
        let read = |f: &str| fs::read_to_string(format!("{dir}/{f}")).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
        else {
            continue;
        };
        let Some(size) = parse_size(&size) else {
            continue;
        };
        if let Some(l) = read("coherency_line_size").and_then(|s| s.trim().parse().ok()) {
            line = l;
        }
        match (level.trim(), kind.trim()) {
            ("1", "Data") => l1d = size,
            ("2", _) => l2 = size,
            _ => {}
        }
        llc = llc.max(size);
    }
    (l1d, l2, llc.max(l2), line)
}

fn total_memory() -> u64 {
    fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| cpuinfo_field(&t, "MemTotal"))
        .and_then(|v| {
            v.split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        })
        .map(|kb| kb * 1024)
        .unwrap_or(4 << 30)
}

impl HostInfo {
    pub fn read() -> HostInfo {
        let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_name = cpuinfo_field(&cpuinfo, "model name").unwrap_or_else(|| "CPU".into());
        let cpu_vendor = cpuinfo_field(&cpuinfo, "vendor_id").unwrap_or_default();
        let vendor_id = match cpu_vendor.as_str() {
            "GenuineIntel" => 0x8086,
            "AuthenticAMD" => 0x1022,
            _ => 0,
        };
        let flags = cpuinfo_field(&cpuinfo, "flags").unwrap_or_default();
        let has = |f: &str| flags.split_whitespace().any(|x| x == f);
        let max_mhz = fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map(|khz| (khz / 1000) as u32)
            .or_else(|| {
                cpuinfo_field(&cpuinfo, "cpu MHz")
                    .and_then(|m| m.parse::<f64>().ok())
                    .map(|m| m as u32)
            })
            .unwrap_or(0);
        let (l1d, l2, llc, cacheline) = read_caches();
        HostInfo {
            cpu_name,
            cpu_vendor,
            vendor_id,
            cores: crate::core::device::compute_units(),
            max_mhz,
            total_memory: total_memory(),
            cacheline,
            l1d,
            l2,
            llc,
            has_fma: has("fma"),
            has_avx2: has("avx2"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_units() {
        assert_eq!(parse_size("32K"), Some(32 * 1024));
        assert_eq!(parse_size("16M\n"), Some(16 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("x"), None);
    }

    #[test]
    fn host_has_memory_and_cores() {
        let h = HostInfo::read();
        assert!(h.total_memory > 0 && h.cores >= 1 && h.cacheline >= 16);
    }
}
