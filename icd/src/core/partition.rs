//! Sub-devices: how `clCreateSubDevices` splits a device's compute units.
//! The partition properties are parsed into a [`Scheme`] (equally, by
//! counts, by affinity domain) and the device's units into [`Share`]s, with
//! the spec's errors; the affinity domains come from the host's
//! [`Topology`] (the CPUs this process may run on, their NUMA nodes and the
//! caches they share, read once from the OS), and [`pin_current_thread`]
//! keeps a sub-device's threads on its CPUs.

use crate::error::{check, err, CLResult};
use opencl_sys::*;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The affinity domains in the order `NEXT_PARTITIONABLE` walks them
/// (outermost first).
pub const DOMAINS: [cl_device_affinity_domain; 5] = [
    CL_DEVICE_AFFINITY_DOMAIN_NUMA,
    CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
];

/// A partitioning scheme, as `clCreateSubDevices`' properties name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scheme {
    /// `CL_DEVICE_PARTITION_EQUALLY`: sub-devices of `n` units each.
    Equally(u32),
    /// `CL_DEVICE_PARTITION_BY_COUNTS`: one sub-device per count.
    ByCounts(Vec<u32>),
    /// `CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN` with one domain bit.
    ByAffinityDomain(cl_device_affinity_domain),
}

/// One sub-device's part of its parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    pub compute_units: u32,
    /// Its host CPUs, when the parent's are known.
    pub cpus: Option<Vec<usize>>,
}

/// The properties a device was partitioned with (`CL_DEVICE_PARTITION_TYPE`)
/// and its shares.
pub struct Partition {
    pub shares: Vec<Share>,
    pub partition_type: Vec<cl_device_partition_property>,
}

/// A property list's values are `cl_device_partition_property`s; counts
/// and domains are read from them.
fn count(v: cl_device_partition_property) -> CLResult<u32> {
    // CL_INVALID_DEVICE_PARTITION_COUNT if the number of compute units
    // requested for one or more sub-devices is less than zero (or more than
    // any device has).
    u32::try_from(v).or_else(|_| {
        err(
            CL_INVALID_DEVICE_PARTITION_COUNT,
            format!("{v} compute units requested"),
        )
    })
}

/// Parse a property list: the scheme, and the list as given (with its
/// terminators), for `CL_DEVICE_PARTITION_TYPE`.
///
/// # Safety
/// `properties` is NULL or a list terminated as the spec says (the API's
/// contract with its caller); it is read up to its terminator only.
pub unsafe fn parse(
    properties: *const cl_device_partition_property,
) -> CLResult<(Scheme, Vec<cl_device_partition_property>)> {
    // CL_INVALID_VALUE if values specified in properties are not valid.
    check(
        !properties.is_null(),
        CL_INVALID_VALUE,
        "properties is NULL",
    )?;
    // SAFETY: the caller's list, read one entry at a time up to the
    // terminators the scheme defines.
    let at = |i: usize| unsafe { properties.add(i).read() };
    let mut list = vec![at(0)];
    let scheme = match at(0) {
        CL_DEVICE_PARTITION_EQUALLY => {
            list.push(at(1));
            let n = count(at(1))?;
            check(
                n > 0,
                CL_INVALID_VALUE,
                "CL_DEVICE_PARTITION_EQUALLY with 0 compute units",
            )?;
            Scheme::Equally(n)
        }
        CL_DEVICE_PARTITION_BY_COUNTS => {
            let mut counts = Vec::new();
            loop {
                let v = at(list.len());
                list.push(v);
                if v == CL_DEVICE_PARTITION_BY_COUNTS_LIST_END {
                    break;
                }
                counts.push(count(v)?);
            }
            check(
                !counts.is_empty(),
                CL_INVALID_VALUE,
                "CL_DEVICE_PARTITION_BY_COUNTS with no count",
            )?;
            Scheme::ByCounts(counts)
        }
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN => {
            let v = at(1);
            list.push(v);
            let domain = v as cl_device_affinity_domain;
            check(
                v > 0
                    && domain.is_power_of_two()
                    && (DOMAINS.contains(&domain)
                        || domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE),
                CL_INVALID_VALUE,
                &format!("0x{v:x} is not one affinity domain"),
            )?;
            Scheme::ByAffinityDomain(domain)
        }
        0 => return err(CL_INVALID_VALUE, "properties names no partition scheme"),
        p => {
            return err(
                CL_INVALID_VALUE,
                format!("unknown partition property 0x{p:x}"),
            )
        }
    };
    // Only one of the listed partitioning schemes can be specified.
    let next = at(list.len());
    check(
        next == 0,
        CL_INVALID_VALUE,
        &format!("properties go on after the scheme (0x{next:x}): only one scheme may be given"),
    )?;
    list.push(0);
    Ok((scheme, list))
}

/// What a device is, for partitioning: its units and, when known, its CPUs
/// (one per unit).
pub struct Units<'a> {
    pub compute_units: u32,
    pub cpus: Option<&'a [usize]>,
}

impl Units<'_> {
    /// A device of one unit cannot be split into two sub-devices.
    pub fn partitionable(&self) -> bool {
        self.compute_units >= 2
    }

    /// `CL_DEVICE_PARTITION_AFFINITY_DOMAIN`: the domains the host's
    /// topology names for every CPU of the device and that split it into
    /// two or more sub-devices (and `NEXT_PARTITIONABLE` with them); none
    /// when its CPUs are not known. A domain all its units share (one NUMA
    /// node, one L3 cache) is not listed: partitioning along it could only
    /// fail, and programs (the Khronos CTS's buffer migration tests) take
    /// every listed domain as one they can partition along.
    pub fn affinity_domains(&self, topology: &Topology) -> cl_device_affinity_domain {
        let Some(cpus) = self.cpus.filter(|_| self.partitionable()) else {
            return 0;
        };
        let found = DOMAINS
            .iter()
            .filter(|&&d| topology.covers(d, cpus) && topology.groups(d, cpus).len() >= 2)
            .fold(0, |acc, d| acc | d);
        if found == 0 {
            0
        } else {
            found | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE
        }
    }

    /// The shares `scheme` splits the device into, or the spec's error.
    pub fn split(
        &self,
        scheme: &Scheme,
        list: &[cl_device_partition_property],
        topology: &Topology,
    ) -> CLResult<Partition> {
        let units = self.compute_units;
        let mut partition_type = list.to_vec();
        // CL_DEVICE_PARTITION_FAILED if the partition name is supported by
        // the implementation but in_device could not be further partitioned.
        check(
            self.partitionable(),
            CL_DEVICE_PARTITION_FAILED,
            "a device of one compute unit cannot be partitioned",
        )?;
        let counts = match scheme {
            Scheme::Equally(n) => {
                // CL_INVALID_DEVICE_PARTITION_COUNT if the total number of
                // compute units requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS.
                check(
                    *n <= units,
                    CL_INVALID_DEVICE_PARTITION_COUNT,
                    &format!("{n} compute units requested; the device has {units}"),
                )?;
                // "As many smaller aggregate devices as can be created": n
                // equal to the device's units makes none smaller (the
                // Khronos CTS, test_api negative_create_sub_devices, expects
                // CL_DEVICE_PARTITION_FAILED).
                check(
                    *n < units,
                    CL_DEVICE_PARTITION_FAILED,
                    &format!(
                        "{n} compute units each: no sub-device smaller than the device's {units}"
                    ),
                )?;
                vec![*n; (units / n) as usize]
            }
            Scheme::ByCounts(counts) => {
                // CL_INVALID_DEVICE_PARTITION_COUNT if the number of
                // sub-devices requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES.
                check(
                    counts.iter().filter(|&&c| c > 0).count() <= units as usize,
                    CL_INVALID_DEVICE_PARTITION_COUNT,
                    &format!(
                        "{} sub-devices requested; at most {units} (CL_DEVICE_PARTITION_MAX_SUB_DEVICES)",
                        counts.len()
                    ),
                )?;
                // CL_INVALID_DEVICE_PARTITION_COUNT if the total number of
                // compute units requested exceeds CL_DEVICE_MAX_COMPUTE_UNITS.
                let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
                check(
                    total <= u64::from(units),
                    CL_INVALID_DEVICE_PARTITION_COUNT,
                    &format!("{total} compute units requested; the device has {units}"),
                )?;
                // For each non-zero count m, a sub-device with m units.
                counts.iter().copied().filter(|&c| c > 0).collect()
            }
            Scheme::ByAffinityDomain(domain) => {
                // CL_INVALID_VALUE if values specified in properties are
                // valid but not supported by in_device.
                check(
                    self.affinity_domains(topology) & domain != 0,
                    CL_INVALID_VALUE,
                    &format!("the device does not support affinity domain 0x{domain:x}"),
                )?;
                let cpus = self.cpus.unwrap_or(&[]);
                let (used, groups) = if *domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE {
                    DOMAINS
                        .iter()
                        .filter(|&&d| topology.covers(d, cpus))
                        .map(|&d| (d, topology.groups(d, cpus)))
                        .find(|(_, g)| g.len() >= 2)
                        .unwrap_or((0, Vec::new()))
                } else {
                    (*domain, topology.groups(*domain, cpus))
                };
                check(
                    groups.len() >= 2,
                    CL_DEVICE_PARTITION_FAILED,
                    "the device's compute units all share that affinity domain",
                )?;
                // NEXT_PARTITIONABLE: the domain used is what the
                // sub-devices report.
                partition_type[1] = used as cl_device_partition_property;
                let shares = groups
                    .into_iter()
                    .map(|g| Share {
                        compute_units: g.len() as u32,
                        cpus: Some(g),
                    })
                    .collect();
                return Ok(Partition {
                    shares,
                    partition_type,
                });
            }
        };
        // Equally and by counts: consecutive units (and their CPUs).
        let mut first = 0usize;
        let shares = counts
            .into_iter()
            .map(|n| {
                let n = n as usize;
                let cpus = self.cpus.map(|c| c[first..first + n].to_vec());
                first += n;
                Share {
                    compute_units: n as u32,
                    cpus,
                }
            })
            .collect();
        Ok(Partition {
            shares,
            partition_type,
        })
    }
}

/// The host CPUs and what they share.
#[derive(Debug, Default)]
pub struct Topology {
    /// The CPUs this process may run on (its affinity mask), ascending.
    pub cpus: Vec<usize>,
    /// Per domain of [`DOMAINS`], each CPU's group: the lowest CPU in it
    /// (the NUMA node's number for `NUMA`), where the OS names it.
    groups: HashMap<cl_device_affinity_domain, HashMap<usize, usize>>,
}

impl Topology {
    /// The host's, read once.
    pub fn host() -> &'static Topology {
        static TOPOLOGY: OnceLock<Topology> = OnceLock::new();
        TOPOLOGY.get_or_init(Topology::read)
    }

    /// Whether the OS names the `domain` of every CPU in `cpus`.
    fn covers(&self, domain: cl_device_affinity_domain, cpus: &[usize]) -> bool {
        self.groups
            .get(&domain)
            .is_some_and(|g| cpus.iter().all(|c| g.contains_key(c)))
    }

    /// `cpus` grouped by `domain`, each group in the order of `cpus`, the
    /// groups in the order of their first CPU.
    fn groups(&self, domain: cl_device_affinity_domain, cpus: &[usize]) -> Vec<Vec<usize>> {
        let Some(of) = self.groups.get(&domain) else {
            return Vec::new();
        };
        let mut keys: Vec<usize> = Vec::new();
        let mut out: Vec<Vec<usize>> = Vec::new();
        for &c in cpus {
            let Some(&k) = of.get(&c) else { continue };
            match keys.iter().position(|&x| x == k) {
                Some(i) => out[i].push(c),
                None => {
                    keys.push(k);
                    out.push(vec![c]);
                }
            }
        }
        out
    }

    /// A topology from given facts (tests).
    pub fn from_parts(
        cpus: Vec<usize>,
        groups: &[(cl_device_affinity_domain, &[(usize, usize)])],
    ) -> Topology {
        Topology {
            cpus,
            groups: groups
                .iter()
                .map(|(d, g)| (*d, g.iter().copied().collect()))
                .collect(),
        }
    }

    fn read() -> Topology {
        let cpus = allowed_cpus();
        let mut groups: HashMap<cl_device_affinity_domain, HashMap<usize, usize>> = HashMap::new();
        // NUMA nodes: /sys/devices/system/node/nodeN/cpulist.
        if let Ok(dir) = std::fs::read_dir("/sys/devices/system/node") {
            let numa = groups.entry(CL_DEVICE_AFFINITY_DOMAIN_NUMA).or_default();
            for e in dir.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(node) = name.strip_prefix("node").and_then(|n| n.parse().ok()) else {
                    continue;
                };
                let list = std::fs::read_to_string(e.path().join("cpulist")).unwrap_or_default();
                for c in parse_cpu_list(&list) {
                    numa.insert(c, node);
                }
            }
        }
        // Data and unified caches: cpuN/cache/indexK/{level,type,shared_cpu_list}.
        for &c in &cpus {
            let Ok(dir) = std::fs::read_dir(format!("/sys/devices/system/cpu/cpu{c}/cache")) else {
                continue;
            };
            for e in dir.flatten() {
                let read = |f: &str| std::fs::read_to_string(e.path().join(f)).unwrap_or_default();
                if read("type").trim() == "Instruction" {
                    continue;
                }
                let domain = match read("level").trim() {
                    "1" => CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
                    "2" => CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
                    "3" => CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE,
                    "4" => CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
                    _ => continue,
                };
                if let Some(&first) = parse_cpu_list(&read("shared_cpu_list")).iter().min() {
                    groups.entry(domain).or_default().insert(c, first);
                }
            }
        }
        groups.retain(|_, g| !g.is_empty());
        Topology { cpus, groups }
    }
}

/// A kernel CPU list: `0-3,8,10-11`.
pub fn parse_cpu_list(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        if let (Ok(a), Ok(b)) = (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
            out.extend(a..=b);
        }
    }
    out
}

/// The CPUs this process may run on (its affinity mask); the first
/// `available_parallelism` CPUs if the mask cannot be read.
fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is the empty set; sched_getaffinity writes
    // at most its size, and CPU_ISSET reads within it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0 {
            let cpus: Vec<usize> = (0..libc::CPU_SETSIZE as usize)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .collect();
            if !cpus.is_empty() {
                return cpus;
            }
        }
    }
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    (0..n).collect()
}

/// Keep the calling thread on `cpus` (a sub-device's pool threads); a
/// failure leaves it where it may run now.
pub fn pin_current_thread(cpus: &[usize]) {
    // SAFETY: as in `allowed_cpus`; CPU_SET writes within the set for CPUs
    // below CPU_SETSIZE (others are skipped).
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        for &c in cpus.iter().filter(|&&c| c < libc::CPU_SETSIZE as usize) {
            libc::CPU_SET(c, &mut set);
        }
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const L2: cl_device_affinity_domain = CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE;
    const L3: cl_device_affinity_domain = CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE;
    const NUMA: cl_device_affinity_domain = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
    const NEXT: cl_device_affinity_domain = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;

    /// Four CPUs, one NUMA node, two L3s of two CPUs, an L2 each.
    fn four() -> Topology {
        Topology::from_parts(
            vec![0, 1, 2, 3],
            &[
                (NUMA, &[(0, 0), (1, 0), (2, 0), (3, 0)]),
                (L3, &[(0, 0), (1, 0), (2, 2), (3, 2)]),
                (L2, &[(0, 0), (1, 1), (2, 2), (3, 3)]),
            ],
        )
    }

    fn split(units: &Units, props: &[cl_device_partition_property]) -> CLResult<Partition> {
        // SAFETY: a terminated list.
        let (scheme, list) = unsafe { parse(props.as_ptr()) }?;
        units.split(&scheme, &list, &four())
    }

    fn code<T>(r: CLResult<T>) -> cl_int {
        r.err().map_or(CL_SUCCESS, |e| e.code)
    }

    #[test]
    fn cpu_lists_parse() {
        assert_eq!(parse_cpu_list("0-2,5,7-8\n"), vec![0, 1, 2, 5, 7, 8]);
        assert_eq!(parse_cpu_list(""), Vec::<usize>::new());
    }

    #[test]
    fn next_partitionable_takes_the_outermost_domain_that_splits() {
        let cpus = [0, 1, 2, 3];
        let u = Units {
            compute_units: 4,
            cpus: Some(&cpus),
        };
        // One NUMA node for all four: not a domain to split along.
        assert_eq!(u.affinity_domains(&four()), L3 | L2 | NEXT);
        let p = split(
            &u,
            &[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, NEXT as isize, 0],
        )
        .unwrap();
        assert_eq!(p.shares.len(), 2);
        assert_eq!(p.shares[1].cpus.as_deref(), Some(&[2, 3][..]));
        assert_eq!(p.partition_type[1], L3 as isize);
        // One NUMA node: a domain the device does not list.
        let r = split(
            &u,
            &[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, NUMA as isize, 0],
        );
        assert_eq!(code(r), CL_INVALID_VALUE);
        // A sub-device of the L3 {2, 3} splits along L2 next.
        let sub = [2, 3];
        let u = Units {
            compute_units: 2,
            cpus: Some(&sub),
        };
        let p = split(
            &u,
            &[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, NEXT as isize, 0],
        )
        .unwrap();
        assert_eq!(p.partition_type[1], L2 as isize);
        assert_eq!(p.shares[0].cpus.as_deref(), Some(&[2][..]));
    }

    #[test]
    fn counts_and_equal_shares_take_consecutive_cpus() {
        let cpus = [0, 1, 2, 3];
        let u = Units {
            compute_units: 4,
            cpus: Some(&cpus),
        };
        let p = split(&u, &[CL_DEVICE_PARTITION_BY_COUNTS, 1, 3, 0, 0]).unwrap();
        assert_eq!(p.shares[1].cpus.as_deref(), Some(&[1, 2, 3][..]));
        assert_eq!(
            p.partition_type,
            vec![CL_DEVICE_PARTITION_BY_COUNTS, 1, 3, 0, 0]
        );
        let p = split(&u, &[CL_DEVICE_PARTITION_EQUALLY, 3, 0]).unwrap();
        assert_eq!(p.shares.len(), 1);
        // No CPUs known: no affinity domain, the counts still split.
        let u = Units {
            compute_units: 4,
            cpus: None,
        };
        assert_eq!(u.affinity_domains(&four()), 0);
        let r = split(
            &u,
            &[CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, L2 as isize, 0],
        );
        assert_eq!(code(r), CL_INVALID_VALUE);
        assert_eq!(
            split(&u, &[CL_DEVICE_PARTITION_EQUALLY, 2, 0])
                .unwrap()
                .shares
                .len(),
            2
        );
    }

    #[test]
    fn bad_lists_get_the_spec_codes() {
        let u = Units {
            compute_units: 4,
            cpus: None,
        };
        let bad = |p: &[isize]| code(split(&u, p));
        assert_eq!(bad(&[0]), CL_INVALID_VALUE);
        assert_eq!(bad(&[0x4242, 1, 0]), CL_INVALID_VALUE);
        assert_eq!(bad(&[CL_DEVICE_PARTITION_EQUALLY, 0, 0]), CL_INVALID_VALUE);
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_EQUALLY, 4, 0]),
            CL_DEVICE_PARTITION_FAILED
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_EQUALLY, 5, 0]),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_EQUALLY, -1, 0]),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            bad(&[
                CL_DEVICE_PARTITION_EQUALLY,
                2,
                CL_DEVICE_PARTITION_BY_COUNTS,
                1,
                0,
                0
            ]),
            CL_INVALID_VALUE
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_BY_COUNTS, 0, 0]),
            CL_INVALID_VALUE
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_BY_COUNTS, 2, 3, 0, 0]),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_BY_COUNTS, 1, 1, 1, 1, 1, 0, 0]),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            bad(&[CL_DEVICE_PARTITION_BY_COUNTS, 1, -2, 0, 0]),
            CL_INVALID_DEVICE_PARTITION_COUNT
        );
        assert_eq!(
            bad(&[
                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                (L2 | L3) as isize,
                0
            ]),
            CL_INVALID_VALUE
        );
        let one = Units {
            compute_units: 1,
            cpus: None,
        };
        let r = split(&one, &[CL_DEVICE_PARTITION_EQUALLY, 1, 0]);
        assert_eq!(code(r), CL_DEVICE_PARTITION_FAILED);
    }
}
