//! The floating-point environment a kernel runs in.
//!
//! `-cl-denorms-are-zero` lets the compiler flush denormalised `float`s (and
//! `double`s, where fp64 is supported) to zero; the spec calls it a
//! performance hint, which an implementation whose device supports
//! denormals may ignore. On x86-64 we honour it the way the hardware does:
//! while a work-group of such a program runs, the thread's MXCSR has DAZ
//! (denormal inputs read as zero) and FTZ (denormal results written as
//! zero) set, which also makes arithmetic on denormals as fast as on normal
//! numbers. The host's own setting is put back when the group ends, also
//! after a fault (the guard drops). Elsewhere, and without the option,
//! nothing changes: denormals are kept, as `CL_FP_DENORM` promises.

/// MXCSR's denormals-are-zero bit.
#[cfg(target_arch = "x86_64")]
const DAZ: u32 = 1 << 6;
/// MXCSR's flush-to-zero bit.
#[cfg(target_arch = "x86_64")]
const FTZ: u32 = 1 << 15;

/// Denormals flushed on this thread until the guard drops (see the module).
pub struct FlushDenormals {
    /// The MXCSR to put back, when it was changed.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    saved: Option<u32>,
}

impl FlushDenormals {
    /// Flush denormals on this thread when `on` (the program was built with
    /// `-cl-denorms-are-zero`); otherwise a guard that does nothing.
    pub fn new(on: bool) -> FlushDenormals {
        #[cfg(target_arch = "x86_64")]
        if on {
            let saved = mxcsr();
            set_mxcsr(saved | DAZ | FTZ);
            return FlushDenormals { saved: Some(saved) };
        }
        let _ = on;
        FlushDenormals { saved: None }
    }
}

impl Drop for FlushDenormals {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Some(saved) = self.saved {
            set_mxcsr(saved);
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn mxcsr() -> u32 {
    let mut v: u32 = 0;
    // SAFETY: `stmxcsr` stores the 4-byte MXCSR at a valid, writable address.
    unsafe {
        std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags));
    }
    v
}

#[cfg(target_arch = "x86_64")]
fn set_mxcsr(v: u32) {
    // SAFETY: `ldmxcsr` loads a value read from MXCSR with only the DAZ and
    // FTZ bits changed (both defined on every x86-64 with SSE2 and DAZ,
    // which all x86-64 processors have), or the value saved before.
    unsafe {
        std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack, preserves_flags, readonly));
    }
}
