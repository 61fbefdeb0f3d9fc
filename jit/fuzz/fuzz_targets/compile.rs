//! Fuzz target: arbitrary bytes through the whole front end
//! (`frontend::compile`: preprocess, parse, sema). The first byte picks the
//! OpenCL C version and a few build options, so every gate is reached; the
//! rest is the program text (invalid UTF-8 is replaced, as a user's file
//! read lossily would be). Any panic is a crash; a build error is fine.
#![no_main]

use cranecl_jit::{frontend, options::BuildOptions};
use libfuzzer_sys::fuzz_target;

/// Build options selected by the low bits of the first byte.
const OPTIONS: [&str; 8] = [
    "-cl-std=CL1.2",
    "-cl-std=CL2.0",
    "-cl-std=CL3.0",
    "-cl-std=CL1.1 -D N=4",
    "-cl-std=CL1.2 -Werror",
    "-cl-std=CL2.0 -cl-fast-relaxed-math -cl-single-precision-constant",
    "-cl-std=CL3.0 -w -D FOO=bar(1)",
    "",
];

/// Headers the program may `#include "a.h"` / `<b.h>` without touching disk.
fn headers() -> Vec<(String, String)> {
    vec![
        (
            "a.h".into(),
            "#define A 1\nint a_fn(int x) { return x + A; }\n".into(),
        ),
        (
            "b.h".into(),
            "#include \"a.h\"\n#define B(x) ((x) * A)\n".into(),
        ),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, text)) = data.split_first() else {
        return;
    };
    let source = String::from_utf8_lossy(text);
    let opts = OPTIONS[usize::from(selector) % OPTIONS.len()];
    let Ok(options) = BuildOptions::parse(opts) else {
        return;
    };
    let out = frontend::compile(&source, "fuzz.cl", &options, &headers());
    // A failed build must say why.
    assert!(
        out.success || !out.log.is_empty(),
        "failed build with an empty log"
    );
});
