//! Kernel objects: one `__kernel` function of a built program, and the
//! argument values set on it.
//!
//! A kernel holds its program (`Arc`: the program lives while a kernel of it
//! does, and counts it as attached so that it cannot be rebuilt) and the
//! program's executable (`Arc`: the code it runs). Each argument is kept as
//! what `clSetKernelArg` gave, checked against the parameter's [`ArgKind`]:
//! bytes for a value, a memory object (held weakly: a kernel does not keep a
//! buffer the user released) or NULL for a global or constant pointer, an
//! address for an SVM pointer (`clSetKernelArgSVMPointer`), a size for a local
//! pointer; and the SVM pointers and fine-grain system flag of
//! `clSetKernelExecInfo`. [`Kernel::capture`] turns them into the argument
//! block the compiled kernel reads, at enqueue time, and takes strong
//! references to the buffers and SVM allocations for the command.

use super::context::Context;
use super::device::LOCAL_MEM_SIZE;
use super::handle::Obj;
use super::mem::Mem;
use super::program::{Executable, Program};
use super::svm::Svm;
use crate::error::{err, CLResult};
use cranecl_jit::launch::{ArgKind, KernelInfo};
use cranecl_jit::runtime::check::{Checks, ImageArg, LaunchCheck, LaunchObjects, Object, Space};
use opencl_sys::*;
use parking_lot::Mutex;
use std::sync::{Arc, Weak};

/// Alignment of each region of the local arena.
pub const LOCAL_ALIGN: u64 = 128;

/// One argument's value.
#[derive(Clone)]
pub enum ArgValue {
    Unset,
    /// A value passed by copy.
    Bytes(Vec<u8>),
    /// A global or constant pointer: a memory object, or NULL. Held weakly:
    /// a kernel does not keep its arguments alive (released by the user,
    /// a buffer goes and its destructor callbacks run); an enqueue takes
    /// strong references for its command (`Captured::keep`).
    Mem(Option<Weak<Obj<Mem>>>),
    /// A local pointer: the bytes to allocate.
    Local(u64),
    /// A global or constant pointer set by `clSetKernelArgSVMPointer`: an
    /// address in an SVM allocation, or (fine-grain system SVM) anywhere in
    /// the host's memory, or 0.
    Svm(usize),
}

/// What `clSetKernelExecInfo` set.
#[derive(Clone, Default)]
pub struct ExecInfo {
    /// `CL_KERNEL_EXEC_INFO_SVM_PTRS`: SVM pointers the kernel may reach
    /// besides its arguments.
    pub svm_ptrs: Vec<usize>,
    /// `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM`, if set (the spec's
    /// default is `CL_TRUE`; checked mode stops checking memory no
    /// allocation owns only when it was set to `CL_TRUE` explicitly).
    pub fine_grain_system: Option<bool>,
}

pub struct Kernel {
    program: Arc<Obj<Program>>,
    exe: Arc<Executable>,
    index: usize,
    args: Mutex<Vec<ArgValue>>,
    exec_info: Mutex<ExecInfo>,
    /// Checked mode: the objects of the last launch, with what they were
    /// made from (`Kernel::launch_objects`).
    last_objects: Mutex<Option<(ObjectsKey, Arc<LaunchObjects>)>>,
}
crate::cl_object!(Kernel, cl_kernel, CL_INVALID_KERNEL, "kernel", true);

/// What an enqueue captures: the argument block and the memory objects it
/// points into (kept alive until the command completes).
/// A launch's argument block: inline up to 128 bytes (no allocation per
/// launch for most kernels).
pub type ArgBlock = smallvec::SmallVec<[u8; 128]>;
/// The memory objects a launch keeps alive: inline up to four.
pub type KeptMems = smallvec::SmallVec<[Arc<Obj<Mem>>; 4]>;

pub struct Captured {
    pub block: ArgBlock,
    pub keep: KeptMems,
    /// The SVM allocations its SVM arguments and `CL_KERNEL_EXEC_INFO_SVM_PTRS`
    /// point into (kept alive until the command completes).
    pub keep_svm: Vec<Arc<Svm>>,
    /// Bytes of the local arena: kernel-scope locals, then local arguments.
    pub local_mem_size: u64,
    /// Checked mode: what the launch may touch (buffer arguments with their
    /// own bounds, program-scope variables; local regions as offsets).
    pub check: Option<Arc<LaunchCheck>>,
}

impl Kernel {
    pub fn new(program: Arc<Obj<Program>>, exe: Arc<Executable>, index: usize) -> Arc<Obj<Kernel>> {
        let n = exe.code.kernels().get(index).map_or(0, |k| k.args.len());
        Kernel::with_args(
            program,
            exe,
            index,
            vec![ArgValue::Unset; n],
            ExecInfo::default(),
        )
    }

    fn with_args(
        program: Arc<Obj<Program>>,
        exe: Arc<Executable>,
        index: usize,
        args: Vec<ArgValue>,
        exec_info: ExecInfo,
    ) -> Arc<Obj<Kernel>> {
        program.attach_kernel();
        Obj::new(Kernel {
            program,
            exe,
            index,
            args: Mutex::new(args),
            exec_info: Mutex::new(exec_info),
            last_objects: Mutex::new(None),
        })
    }

    /// `clCloneKernel`: same function, a copy of the argument values and
    /// of the execution information.
    pub fn clone_kernel(&self) -> Arc<Obj<Kernel>> {
        let args = self.args.lock().clone();
        let exec_info = self.exec_info.lock().clone();
        Kernel::with_args(
            self.program.clone(),
            self.exe.clone(),
            self.index,
            args,
            exec_info,
        )
    }

    /// `clSetKernelExecInfo` with `CL_KERNEL_EXEC_INFO_SVM_PTRS`.
    pub fn set_svm_ptrs(&self, ptrs: Vec<usize>) {
        self.exec_info.lock().svm_ptrs = ptrs;
    }

    /// `clSetKernelExecInfo` with `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM`.
    pub fn set_fine_grain_system(&self, on: bool) {
        self.exec_info.lock().fine_grain_system = Some(on);
    }

    pub fn program(&self) -> &Arc<Obj<Program>> {
        &self.program
    }
    pub fn context(&self) -> &Arc<Obj<Context>> {
        self.program.context()
    }
    pub fn executable(&self) -> &Arc<Executable> {
        &self.exe
    }
    pub fn index(&self) -> usize {
        self.index
    }

    /// The compiled kernel's description.
    pub fn info(&self) -> &KernelInfo {
        // `index` came from `kernel_index` / `kernels()` of this executable.
        &self.exe.code.kernels()[self.index]
    }

    /// `clSetKernelArg` after the entry point has read the user's bytes.
    pub fn set_arg(&self, index: usize, value: ArgValue) {
        if let Some(slot) = self.args.lock().get_mut(index) {
            *slot = value;
        }
    }

    /// Set a by-value argument, reusing the bytes it holds when their size
    /// is the same (a program that sets it before each launch allocates
    /// nothing).
    pub fn set_bytes(&self, index: usize, value: &[u8]) {
        if let Some(slot) = self.args.lock().get_mut(index) {
            match slot {
                ArgValue::Bytes(b) if b.len() == value.len() => b.copy_from_slice(value),
                _ => *slot = ArgValue::Bytes(value.to_vec()),
            }
        }
    }

    /// Bytes of local memory the kernel uses with the local arguments set
    /// now (`CL_KERNEL_LOCAL_MEM_SIZE`, and the enqueue check).
    pub fn local_mem_size(&self) -> u64 {
        let args = self.args.lock();
        local_layout(self.info(), &args).1
    }

    /// Whether every argument has been set.
    pub fn first_unset_arg(&self) -> Option<usize> {
        self.args
            .lock()
            .iter()
            .position(|a| matches!(a, ArgValue::Unset))
    }

    /// The buffers set as `global` or `constant` pointer arguments now, and
    /// the images: each with its argument's name and whether the kernel may
    /// write it (a `global` pointer to non-`const`, an image not `read_only`).
    pub fn buffer_args(&self) -> Vec<(Arc<Obj<Mem>>, String, bool)> {
        let info = self.info();
        let args = self.args.lock();
        args.iter()
            .zip(&info.args)
            .filter_map(|(a, ai)| match a {
                ArgValue::Mem(Some(m)) => {
                    let m = m.upgrade()?;
                    let writes = match ai.kind {
                        ArgKind::GlobalPtr => {
                            ai.type_qualifier & u64::from(CL_KERNEL_ARG_TYPE_CONST) == 0
                        }
                        ArgKind::Image => ai.access_qualifier != CL_KERNEL_ARG_ACCESS_READ_ONLY,
                        _ => false,
                    };
                    Some((m, ai.name.clone(), writes))
                }
                _ => None,
            })
            .collect()
    }

    /// A device profile's constant-memory limits (OpenCL C 6.7.3: each
    /// `constant` pointer argument counts towards `CL_DEVICE_MAX_CONSTANT_ARGS`;
    /// a constant buffer holds at most `CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE`
    /// bytes): `CL_OUT_OF_RESOURCES` for more `constant` arguments than the
    /// device has, a buffer bound to one that is larger than a constant
    /// buffer, or program-scope `constant` data larger than one.
    pub fn check_constant_limits(&self, max_args: u32, max_size: u64) -> CLResult<()> {
        let info = self.info();
        let declared = info
            .args
            .iter()
            .filter(|a| a.kind == ArgKind::ConstantPtr)
            .count();
        if declared > max_args as usize {
            return err(
                CL_OUT_OF_RESOURCES,
                format!(
                    "kernel '{}' has {declared} constant arguments; the device has {max_args} (CL_DEVICE_MAX_CONSTANT_ARGS)",
                    info.name
                ),
            );
        }
        for (a, ai) in self.args.lock().iter().zip(&info.args) {
            if let (ArgValue::Mem(Some(w)), ArgKind::ConstantPtr) = (a, ai.kind) {
                let size = w.upgrade().map_or(0, |m| m.size() as u64);
                if size > max_size {
                    return err(
                        CL_OUT_OF_RESOURCES,
                        format!(
                            "constant argument '{}' of kernel '{}' is a buffer of {size} bytes; the device's constant buffers hold {max_size} (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)",
                            ai.name, info.name
                        ),
                    );
                }
            }
        }
        let program_constants: u64 = self
            .exe
            .code
            .program_variables()
            .iter()
            .filter(|v| v.3)
            .map(|v| v.1)
            .sum();
        if program_constants > max_size {
            return err(
                CL_OUT_OF_RESOURCES,
                format!(
                    "the program of kernel '{}' has {program_constants} bytes of constant data; the device's constant buffers hold {max_size} (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)",
                    info.name
                ),
            );
        }
        Ok(())
    }

    /// Build the argument block from the values set now.
    pub fn capture(&self) -> CLResult<Captured> {
        let info = self.info();
        let args = self.args.lock();
        let mut block = ArgBlock::from_elem(0, info.args_size as usize);
        let mut keep = KeptMems::new();
        let (offsets, local_mem_size) = local_layout(info, &args);
        let (keep_svm, system) = self.svm_in_use(&args);
        let checks = self.exe.code.checks();
        let check = checks.any_code().then(|| {
            let of = self.launch_objects(checks, &args, &offsets, system);
            Arc::new(LaunchCheck::new(checks, of))
        });
        for (i, (a, ai)) in args.iter().zip(&info.args).enumerate() {
            let at = ai.offset as usize;
            let word;
            let bytes: &[u8] = match a {
                ArgValue::Unset => {
                    return err(
                        CL_INVALID_KERNEL_ARGS,
                        format!(
                            "argument {i} ('{}') of kernel '{}' is not set",
                            ai.name, info.name
                        ),
                    )
                }
                ArgValue::Bytes(b) => b,
                ArgValue::Mem(None) => {
                    word = 0u64.to_le_bytes();
                    &word
                }
                ArgValue::Mem(Some(w)) => {
                    // CL_INVALID_KERNEL_ARGS if the kernel argument values
                    // have not been specified: a released buffer's no longer is.
                    let Some(m) = w.upgrade() else {
                        return err(
                            CL_INVALID_KERNEL_ARGS,
                            format!(
                                "argument {i} ('{}') of kernel '{}' is a memory object that was released",
                                ai.name, info.name
                            ),
                        );
                    };
                    // An image argument passes its descriptor's address
                    // (the memory object owns it; `keep` holds it).
                    let at = match m.image() {
                        Some(im) if ai.kind == ArgKind::Image => {
                            &im.desc as *const cranecl_memory::image::ImageDesc as u64
                        }
                        _ => m.base() as u64,
                    };
                    word = at.to_le_bytes();
                    keep.push(m);
                    &word
                }
                ArgValue::Local(_) => {
                    word = offsets.get(i).copied().unwrap_or(0).to_le_bytes();
                    &word
                }
                ArgValue::Svm(p) => {
                    word = (*p as u64).to_le_bytes();
                    &word
                }
            };
            let Some(dst) = block.get_mut(at..at + bytes.len()) else {
                return err(
                    CL_OUT_OF_RESOURCES,
                    format!(
                        "argument {i} of kernel '{}' lies outside its block",
                        info.name
                    ),
                );
            };
            dst.copy_from_slice(bytes);
        }
        Ok(Captured {
            block,
            keep,
            keep_svm,
            local_mem_size,
            check,
        })
    }

    /// The SVM allocations the launch reaches through its SVM arguments and
    /// `CL_KERNEL_EXEC_INFO_SVM_PTRS` (each once), and whether it uses the
    /// host's memory beyond them (fine-grain system SVM): an SVM argument
    /// outside every allocation, or `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM`
    /// set to `CL_TRUE`.
    fn svm_in_use(&self, args: &[ArgValue]) -> (Vec<Arc<Svm>>, bool) {
        let table = self.context().svm();
        let info = self.exec_info.lock();
        let mut system = info.fine_grain_system == Some(true);
        let mut found: Vec<Arc<Svm>> = Vec::new();
        let svm_args = args.iter().filter_map(|a| match a {
            ArgValue::Svm(p) if *p != 0 => Some(*p),
            _ => None,
        });
        for (p, is_arg) in svm_args
            .map(|p| (p, true))
            .chain(info.svm_ptrs.iter().map(|&p| (p, false)))
        {
            match table.find(p) {
                Some(s) => {
                    if !found.iter().any(|f| Arc::ptr_eq(f, &s)) {
                        found.push(s);
                    }
                }
                None => system |= is_arg,
            }
        }
        (found, system)
    }

    /// Checked mode's objects for a launch with these arguments: those of
    /// the last launch when they were made from the same (a launch stream
    /// formats no names), else new ones. Objects with a race shadow are not
    /// kept (a released buffer's shadow would live on in the kernel).
    fn launch_objects(
        &self,
        checks: Checks,
        args: &[ArgValue],
        offsets: &[u64],
        system: bool,
    ) -> Arc<LaunchObjects> {
        let key = ObjectsKey {
            args: args
                .iter()
                .map(|a| match a {
                    ArgValue::Mem(Some(w)) => KeyArg::Mem(w.clone()),
                    ArgValue::Local(n) => KeyArg::Local(*n),
                    ArgValue::Svm(p) => KeyArg::Svm(*p),
                    _ => KeyArg::Other,
                })
                .collect(),
            svm: self.context().svm().generation(),
            system,
        };
        let mut last = self.last_objects.lock();
        if let Some((k, of)) = last.as_ref() {
            if *k == key {
                return of.clone();
            }
        }
        let mems: Vec<_> = args
            .iter()
            .map(|a| match a {
                ArgValue::Mem(Some(w)) => w.upgrade(),
                _ => None,
            })
            .collect();
        let of = Arc::new(self.check_objects(checks, args, &mems, offsets, system));
        let shadowed = of.objects.iter().any(|o| o.shadow.is_some());
        *last = (!shadowed).then(|| (key, of.clone()));
        of
    }

    /// Checked mode's objects for a launch with these arguments. Every SVM
    /// allocation of the context is an object (a kernel may follow pointers
    /// stored in memory into any of them); with fine-grain system SVM in use
    /// (`system`), memory that no allocation of the registry owns is not
    /// checked.
    fn check_objects(
        &self,
        checks: Checks,
        args: &[ArgValue],
        mems: &[Option<Arc<Obj<Mem>>>],
        offsets: &[u64],
        system: bool,
    ) -> LaunchObjects {
        let info = self.info();
        let mut objects = Vec::new();
        let mut local = Vec::new();
        if info.local_mem_size > 0 {
            local.push(Object {
                lo: 0,
                hi: info.local_mem_size,
                space: Space::Local,
                name: "kernel-scope local variables".into(),
                shadow: None,
            });
        }
        let mut images = Vec::new();
        for (i, (a, ai)) in args.iter().zip(&info.args).enumerate() {
            match (a, &mems[i], ai.kind) {
                // An image: `bounds` checks its accesses' coordinates and
                // the kernel's right to read or write it.
                (_, Some(m), ArgKind::Image) if m.image().is_some() => {
                    if let Some(im) = m.image() {
                        images.push(ImageArg {
                            desc: &im.desc as *const cranecl_memory::image::ImageDesc as u64,
                            name: format!("image argument '{}'", ai.name),
                            write_only: m.flags() & CL_MEM_WRITE_ONLY != 0,
                            read_only: m.flags() & CL_MEM_READ_ONLY != 0,
                        });
                    }
                }
                (_, Some(m), kind) => {
                    let lo = m.base() as u64;
                    let name = match m.parent() {
                        Some(p) => format!(
                            "sub-buffer argument '{}' ({} bytes at offset {} of a buffer of {} bytes)",
                            ai.name,
                            m.size(),
                            m.offset(),
                            p.size()
                        ),
                        None => format!("buffer argument '{}' ({} bytes)", ai.name, m.size()),
                    };
                    let space = if kind == ArgKind::ConstantPtr {
                        Space::Constant
                    } else {
                        Space::Global
                    };
                    // Followed for races unless every argument it is bound
                    // to is a pointer to const (a kernel cannot write it).
                    let written = mems.iter().zip(&info.args).any(|(b, bi)| {
                        matches!(b, Some(o) if o.same_store(m))
                            && bi.kind != ArgKind::ConstantPtr
                            && bi.type_qualifier & u64::from(CL_KERNEL_ARG_TYPE_CONST) == 0
                    });
                    let shadow = (checks.races && space == Space::Global && written)
                        .then(|| m.race_shadow());
                    objects.push(Object {
                        lo,
                        hi: lo + m.size() as u64,
                        space,
                        name,
                        shadow,
                    });
                }
                (ArgValue::Local(n), _, ArgKind::LocalPtr) => local.push(Object {
                    lo: offsets[i],
                    hi: offsets[i] + n,
                    space: Space::Local,
                    name: format!("local argument '{}' ({n} bytes)", ai.name),
                    shadow: None,
                }),
                _ => {}
            }
        }
        for svm in self.context().svm().all() {
            let (lo, hi) = (svm.base() as u64, (svm.base() + svm.size()) as u64);
            let named: Vec<_> = args
                .iter()
                .zip(&info.args)
                .filter(|(a, _)| matches!(a, ArgValue::Svm(p) if svm.holds(*p, 1)))
                .map(|(_, ai)| format!("'{}'", ai.name))
                .collect();
            let name = if named.is_empty() {
                format!("SVM allocation ({} bytes)", svm.size())
            } else {
                format!(
                    "SVM allocation ({} bytes) of argument {}",
                    svm.size(),
                    named.join(", ")
                )
            };
            objects.push(Object {
                lo,
                hi,
                space: Space::Global,
                name,
                shadow: checks.races.then(|| svm.race_shadow()),
            });
        }
        for (addr, size, name, constant) in self.exe.code.program_variables() {
            if size == 0 {
                continue;
            }
            let (space, what) = if constant {
                (Space::Constant, "program-scope constant")
            } else {
                (Space::Global, "program-scope variable")
            };
            objects.push(Object {
                lo: addr,
                hi: addr + size,
                space,
                name: format!("{what} '{name}' ({size} bytes)"),
                shadow: (checks.races && !constant).then(|| self.exe.code.variable_shadow()),
            });
        }
        LaunchObjects {
            kernel: info.name.clone(),
            objects,
            local_objects: local,
            system_memory: system,
            images,
        }
    }
}

/// What a kernel's checked objects were made from: each argument (memory
/// objects held weakly, compared by identity: a held `Weak` keeps its
/// allocation's address from being reused), the context's SVM allocations
/// (their generation) and whether the host's memory is in use.
struct ObjectsKey {
    args: Vec<KeyArg>,
    svm: u64,
    system: bool,
}

enum KeyArg {
    Mem(Weak<Obj<Mem>>),
    Local(u64),
    Svm(usize),
    /// A value, or NULL: no object.
    Other,
}

impl PartialEq for ObjectsKey {
    fn eq(&self, other: &ObjectsKey) -> bool {
        let same = |a: &KeyArg, b: &KeyArg| match (a, b) {
            (KeyArg::Mem(x), KeyArg::Mem(y)) => Weak::ptr_eq(x, y),
            (KeyArg::Local(x), KeyArg::Local(y)) => x == y,
            (KeyArg::Svm(x), KeyArg::Svm(y)) => x == y,
            (KeyArg::Other, KeyArg::Other) => true,
            _ => false,
        };
        self.svm == other.svm
            && self.system == other.system
            && self.args.len() == other.args.len()
            && self.args.iter().zip(&other.args).all(|(a, b)| same(a, b))
    }
}

/// Where each local argument's region starts in the arena, and the arena's
/// size: kernel-scope locals first, then each local argument, every region
/// aligned to [`LOCAL_ALIGN`]. No offsets (empty) when no argument is local.
fn local_layout(info: &KernelInfo, args: &[ArgValue]) -> (Vec<u64>, u64) {
    let mut at = info.local_mem_size.next_multiple_of(LOCAL_ALIGN);
    if !args.iter().any(|a| matches!(a, ArgValue::Local(_))) {
        // No local arguments: no offsets (and no allocation per launch).
        return (Vec::new(), at);
    }
    let offsets = args
        .iter()
        .zip(&info.args)
        .map(|(a, ai)| match (a, ai.kind) {
            (ArgValue::Local(n), ArgKind::LocalPtr) => {
                let here = at;
                at = at.saturating_add(n.checked_next_multiple_of(LOCAL_ALIGN).unwrap_or(u64::MAX));
                here
            }
            _ => 0,
        })
        .collect();
    (offsets, at)
}

/// Whether a launch's local memory fits the device.
pub fn local_fits(size: u64) -> bool {
    size <= LOCAL_MEM_SIZE
}

impl Drop for Kernel {
    fn drop(&mut self) {
        self.program.detach_kernel();
    }
}
