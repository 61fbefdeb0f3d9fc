//! Link the cdylib with `-Bsymbolic`: the dispatch table points at our own
//! exported `cl*` functions, and without it those references bind to the
//! loader's same-named exports, so the loader would call itself forever.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
}
