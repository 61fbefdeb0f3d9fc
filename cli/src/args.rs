//! Kernel arguments: an argument header of Oclgrind's simulation format
//! (`<size=16 float range=0:1:3 dump>`) turned into what the launch sets —
//! a buffer with its contents, a local size, a scalar's bytes or NULL. The
//! command line's short forms become the same header words (`short.rs`).
//!
//! The header's words (Oclgrind's): `size=N` (bytes, decimal), a type
//! (`char` … `double`; else from the kernel's argument type), `fill=V`,
//! `range=START:INC:END`, `noinit`, `null`, `dump`, `hex`, `ro`, `wo`.
//! cranecl adds `file=PATH` (the bytes of a file), `sub=ORIGIN:SIZE` (pass
//! a sub-buffer of the buffer), `range=START:INC` (the end implied by the
//! size), and a size left out where `file=` or a full `range=` gives it.
//! A buffer or scalar with no initialiser takes its values from the words
//! after the header (`<size=8 int> 1 2`).

use crate::cl::ArgInfo;
use crate::diag::{Diag, Loc};
use crate::elem::{parse_int, Elem, ELEM_NAMES};
use crate::scan::{Scanner, Tok};
use crate::short::Kind;
use opencl_sys::*;
use std::path::{Path, PathBuf};

/// What a kernel argument is set to.
#[derive(Debug)]
pub enum ArgValue {
    /// A buffer of `size` bytes holding `data` (`None`: left as the device
    /// makes it), passed whole or as the sub-buffer `sub` (origin, size).
    Buffer {
        size: usize,
        data: Option<Vec<u8>>,
        flags: cl_mem_flags,
        sub: Option<(usize, usize)>,
    },
    Local(usize),
    Scalar(Vec<u8>),
    Null,
}

/// One argument, ready to set: the header's place for errors, and how to
/// print the buffer afterwards.
#[derive(Debug)]
pub struct Arg {
    pub name: String,
    pub at: Loc,
    pub value: ArgValue,
    pub elem: Elem,
    pub hex: bool,
    pub dump: bool,
}

/// A header's words, checked for form but not yet against the kernel.
#[derive(Debug, Default)]
struct Header {
    size: Option<(usize, Loc)>,
    elem: Option<(Elem, Loc)>,
    fill: Option<Tok>,
    range: Option<Tok>,
    file: Option<Tok>,
    sub: Option<Tok>,
    noinit: Option<Loc>,
    null: Option<Loc>,
    dump: Option<Loc>,
    hex: bool,
    ro: Option<Loc>,
    wo: Option<Loc>,
}

fn header(words: &[Tok]) -> Result<Header, Diag> {
    let mut h = Header::default();
    for w in words {
        let t = w.text.as_str();
        let once = |seen: bool| {
            if seen {
                Err(Diag::at(
                    &w.loc,
                    format!("'{}' given twice", t.split('=').next().unwrap_or(t)),
                ))
            } else {
                Ok(())
            }
        };
        if let Some(e) = Elem::from_name(t) {
            if h.elem.is_some() {
                return Err(Diag::at(&w.loc, "argument type given twice"));
            }
            h.elem = Some((e, w.loc.clone()));
        } else if let Some(v) = t.strip_prefix("size=") {
            once(h.size.is_some())?;
            let n = v
                .parse::<usize>()
                .map_err(|_| Diag::at(&w.loc, format!("invalid size '{v}' (bytes, decimal)")))?;
            h.size = Some((n, w.loc.clone()));
        } else if t.starts_with("fill=") {
            once(h.fill.is_some())?;
            h.fill = Some(w.clone());
        } else if t.starts_with("range=") {
            once(h.range.is_some())?;
            h.range = Some(w.clone());
        } else if t.starts_with("file=") {
            once(h.file.is_some())?;
            h.file = Some(w.clone());
        } else if t.starts_with("sub=") {
            once(h.sub.is_some())?;
            h.sub = Some(w.clone());
        } else {
            let slot = match t {
                "noinit" => &mut h.noinit,
                "null" => &mut h.null,
                "dump" => &mut h.dump,
                "ro" => &mut h.ro,
                "wo" => &mut h.wo,
                "hex" => {
                    h.hex = true;
                    continue;
                }
                _ => {
                    return Err(Diag::at(&w.loc, format!("unknown header word '{t}'")).note(
                        format!(
                            "known: size=N, {ELEM_NAMES}, fill=V, range=START:INC:END, file=PATH, sub=ORIGIN:SIZE, noinit, null, dump, hex, ro, wo"
                        ),
                    ))
                }
            };
            *slot = Some(w.loc.clone());
        }
    }
    Ok(h)
}

/// The values of `range=` or `sub=`: separated by `:` (as Oclgrind writes
/// them) or `,` (on the command line, where `:` separates fields).
fn parts(tok: &Tok, key: &str) -> Vec<String> {
    tok.text[key.len() + 1..]
        .split([':', ','])
        .map(str::to_string)
        .collect()
}

/// The bytes of `range=START:INC[:END]` for `elem`, and how many values.
fn range_bytes(tok: &Tok, elem: Elem, hex: bool, size: Option<usize>) -> Result<Vec<u8>, Diag> {
    let p = parts(tok, "range");
    if !(2..=3).contains(&p.len()) {
        return Err(Diag::at(&tok.loc, "expected range=START:INC:END"));
    }
    let err = |m: String| Diag::at(&tok.loc, m);
    let count = |start: f64, inc: f64, end: Option<f64>| -> Result<usize, Diag> {
        match (end, size) {
            (Some(end), _) => {
                let n = (end - start + inc) / inc;
                if !(n.is_finite() && n >= 1.0 && n.fract() == 0.0) {
                    return Err(err("the range does not reach its end in whole steps".into()));
                }
                let n = n as usize;
                match size {
                    Some(s) if s != n * elem.size() => Err(err(format!(
                        "the range gives {n} values ({} bytes), the size is {s} bytes",
                        n * elem.size()
                    ))),
                    _ => Ok(n),
                }
            }
            (None, Some(s)) => Ok(s / elem.size()),
            (None, None) => Err(err("range=START:INC needs a size (or give END)".into())),
        }
    };
    let mut out = Vec::new();
    if elem.is_float() {
        let v: Vec<f64> = p
            .iter()
            .map(|s| s.parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| err(format!("invalid {} in the range", elem.name())))?;
        let n = count(v[0], v[1], v.get(2).copied())?;
        if elem == Elem::Float {
            let (mut x, inc) = (v[0] as f32, v[1] as f32);
            for _ in 0..n {
                out.extend(x.to_le_bytes());
                x += inc;
            }
        } else {
            let mut x = v[0];
            for _ in 0..n {
                out.extend(x.to_le_bytes());
                x += v[1];
            }
        }
    } else {
        let v: Vec<i128> = p
            .iter()
            .map(|s| parse_int(s, hex))
            .collect::<Option<_>>()
            .ok_or_else(|| err(format!("invalid {} in the range", elem.name())))?;
        if v[1] == 0 {
            return Err(err("the range's increment is 0".into()));
        }
        let n = count(v[0] as f64, v[1] as f64, v.get(2).map(|&e| e as f64))?;
        let mut x = v[0];
        for _ in 0..n {
            out.extend(&x.to_le_bytes()[..elem.size()]);
            x += v[1];
        }
    }
    Ok(out)
}

/// Where an argument's values come from when the header names no
/// initialiser: the words after it.
pub trait Values {
    /// The next value word, or an error naming what was expected.
    fn value(&mut self, what: &str) -> Result<Tok, Diag>;
}

impl Values for Scanner {
    fn value(&mut self, what: &str) -> Result<Tok, Diag> {
        self.expect(what)
    }
}

/// The rules between a header's words and the parameter: which words a
/// buffer alone takes, `null` alone, one initialiser at most.
fn check_words(h: &Header, info: &ArgInfo) -> Result<(), Diag> {
    let is_mem = Kind::of(info) == Kind::Buffer;
    let sub = h.sub.as_ref().map(|t| t.loc.clone());
    for (l, word) in [
        (&h.null, "null"),
        (&h.noinit, "noinit"),
        (&h.dump, "dump"),
        (&sub, "sub"),
    ] {
        if let (Some(l), false) = (l, is_mem) {
            return Err(Diag::at(
                l,
                format!(
                    "'{word}' is for buffer arguments; '{}' is not a buffer",
                    info.name
                ),
            ));
        }
    }
    for (l, w) in [(&h.ro, "ro"), (&h.wo, "wo")] {
        if let (Some(l), false) = (l, info.address == CL_KERNEL_ARG_ADDRESS_GLOBAL) {
            return Err(Diag::at(l, format!("'{w}' is for global buffers only")));
        }
    }
    if let (Some(_), Some(l)) = (&h.ro, &h.wo) {
        return Err(Diag::at(l, "'ro' and 'wo' exclude each other"));
    }
    let inits = [
        h.fill.as_ref().map(|t| &t.loc),
        h.range.as_ref().map(|t| &t.loc),
        h.file.as_ref().map(|t| &t.loc),
        h.noinit.as_ref(),
    ];
    if let Some(l) = &h.null {
        let others = inits.iter().flatten().count()
            + usize::from(h.size.is_some())
            + usize::from(h.dump.is_some())
            + usize::from(h.sub.is_some());
        if others > 0 {
            return Err(Diag::at(l, "'null' goes with no other word"));
        }
    }
    if let Some(second) = inits.iter().flatten().nth(1) {
        return Err(Diag::at(
            second,
            "more than one initialiser (fill, range, file, noinit)",
        ));
    }
    Ok(())
}

/// The element type: the header's, else the parameter type's.
fn element(h: &Header, info: &ArgInfo, open: &Tok) -> Result<Elem, Diag> {
    if let Some((e, _)) = &h.elem {
        return Ok(*e);
    }
    Elem::for_type_name(&info.type_name).ok_or_else(|| {
        Diag::at(
            &open.loc,
            format!(
                "no element type for argument '{}' of type '{}': name one ({ELEM_NAMES})",
                info.name, info.type_name
            ),
        )
    })
}

/// The argument's bytes from its initialiser or the values after the
/// header; `None` for `noinit`.
fn contents(
    h: &Header,
    elem: Elem,
    need_size: &dyn Fn() -> Result<usize, Diag>,
    info: &ArgInfo,
    values: &mut dyn Values,
    base: &Path,
) -> Result<Option<Vec<u8>>, Diag> {
    let size = h.size.as_ref().map(|(s, _)| *s);
    if let Some(t) = &h.fill {
        let one = elem
            .parse(&t.text[5..], h.hex)
            .map_err(|m| Diag::at(&t.loc, m))?;
        return Ok(Some(one.repeat(need_size()? / elem.size())));
    }
    if let Some(t) = &h.range {
        return range_bytes(t, elem, h.hex, size).map(Some);
    }
    if let Some(t) = &h.file {
        let path = base.join(&t.text[5..]);
        let bytes = std::fs::read(&path)
            .map_err(|e| Diag::at(&t.loc, format!("cannot read {}: {e}", path.display())))?;
        return match size {
            Some(s) if s != bytes.len() => Err(Diag::at(
                &t.loc,
                format!(
                    "{} holds {} bytes, the size is {s}",
                    path.display(),
                    bytes.len()
                ),
            )),
            _ => Ok(Some(bytes)),
        };
    }
    if h.noinit.is_some() {
        return Ok(None);
    }
    let n = need_size()? / elem.size();
    let mut out = Vec::with_capacity(n * elem.size());
    for i in 0..n {
        let what = format!(
            "value {i} of argument '{}' ({n} {}s)",
            info.name,
            elem.name()
        );
        let t = values.value(&what)?;
        out.extend(
            elem.parse(&t.text, h.hex)
                .map_err(|m| Diag::at(&t.loc, m))?,
        );
    }
    Ok(Some(out))
}

/// `sub=ORIGIN:SIZE` inside a buffer of `size` bytes.
fn sub_region(t: &Tok, size: usize) -> Result<(usize, usize), Diag> {
    let nums: Option<Vec<usize>> = parts(t, "sub").iter().map(|s| s.parse().ok()).collect();
    match nums.as_deref() {
        Some(&[o, s]) if s > 0 && o.checked_add(s).is_some_and(|e| e <= size) => Ok((o, s)),
        _ => Err(Diag::at(
            &t.loc,
            format!("expected sub=ORIGIN:SIZE inside the buffer's {size} bytes"),
        )),
    }
}

/// Turns a header into the argument it describes, for kernel argument
/// `info`, taking inline values from `values`. `base` is the folder
/// relative paths of `file=` start from.
pub fn resolve(
    open: &Tok,
    words: &[Tok],
    info: &ArgInfo,
    values: &mut dyn Values,
    base: &Path,
) -> Result<Arg, Diag> {
    let h = header(words)?;
    check_words(&h, info)?;
    let arg = |value, elem, dump: bool| Arg {
        name: info.name.clone(),
        at: open.loc.clone(),
        value,
        elem,
        hex: h.hex,
        dump,
    };
    if h.null.is_some() {
        return Ok(arg(ArgValue::Null, Elem::UChar, false));
    }
    let elem = element(&h, info, open)?;
    let need_size = || {
        h.size.as_ref().map(|(s, _)| *s).ok_or_else(|| {
            Diag::at(
                &open.loc,
                format!("argument '{}' needs size=BYTES", info.name),
            )
        })
    };
    match Kind::of(info) {
        Kind::Local => return Ok(arg(ArgValue::Local(need_size()?), elem, false)),
        _ => {
            if let Some((s, l)) = &h.size {
                if s % elem.size() != 0 {
                    return Err(Diag::at(
                        l,
                        format!("{s} bytes is not a whole number of {}s", elem.name()),
                    ));
                }
            }
        }
    }
    let data = contents(&h, elem, &need_size, info, values, base)?;
    let size = data.as_ref().map_or_else(need_size, |d| Ok(d.len()))?;
    if Kind::of(info) == Kind::Scalar {
        return Ok(arg(ArgValue::Scalar(data.unwrap_or_default()), elem, false));
    }
    let sub = h.sub.as_ref().map(|t| sub_region(t, size)).transpose()?;
    let flags = match (&h.ro, &h.wo) {
        (Some(_), _) => CL_MEM_READ_ONLY,
        (_, Some(_)) => CL_MEM_WRITE_ONLY,
        _ => CL_MEM_READ_WRITE,
    };
    let value = ArgValue::Buffer {
        size,
        data,
        flags,
        sub,
    };
    Ok(arg(value, elem, h.dump.is_some()))
}

/// The folder relative paths in a file start from.
pub fn folder_of(path: &Path) -> PathBuf {
    path.parent()
        .map(Path::to_path_buf)
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cl::ArgInfo;

    fn info(addr: cl_kernel_arg_address_qualifier, ty: &str) -> ArgInfo {
        ArgInfo {
            name: "a".into(),
            type_name: ty.into(),
            address: addr,
        }
    }

    fn sim(text: &str, info: &ArgInfo) -> Result<Arg, Diag> {
        let mut s = Scanner::new("t.sim", text, true);
        let (open, words) = s.header()?.unwrap();
        resolve(&open, &words, info, &mut s, Path::new("."))
    }

    fn bytes(a: &Arg) -> Vec<u8> {
        match &a.value {
            ArgValue::Buffer { data, .. } => data.clone().unwrap_or_default(),
            ArgValue::Scalar(b) => b.clone(),
            other => panic!("not data: {other:?}"),
        }
    }

    #[test]
    fn every_initialiser_gives_its_bytes() {
        let g = info(CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*");
        let ints = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        assert_eq!(
            bytes(&sim("<size=12 fill=7>", &g).unwrap()),
            ints(&[7, 7, 7])
        );
        assert_eq!(
            bytes(&sim("<size=12 range=5:-2:1>", &g).unwrap()),
            ints(&[5, 3, 1])
        );
        assert_eq!(
            bytes(&sim("<size=8>\n 1\n 0x10", &g).unwrap()),
            ints(&[1, 16])
        );
        assert_eq!(
            bytes(&sim("<size=8 hex> ff 10", &g).unwrap()),
            ints(&[255, 16])
        );
        let c = sim("<size=2 char> -1 200", &g).unwrap();
        assert_eq!(bytes(&c), [255, 200]);
        assert!(sim("<size=2 char> 1 300", &g)
            .unwrap_err()
            .message
            .contains("out of range"));
        let f = info(CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*");
        let floats = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        assert_eq!(
            bytes(&sim("<size=12 range=0:0.5:1>", &f).unwrap()),
            floats(&[0.0, 0.5, 1.0])
        );
        assert_eq!(
            bytes(&sim("<range=0:0.5:1>", &f).unwrap()),
            floats(&[0.0, 0.5, 1.0])
        );
        let p = info(CL_KERNEL_ARG_ADDRESS_PRIVATE, "float4");
        assert_eq!(
            bytes(&sim("<size=16> 1 2 3 4", &p).unwrap()),
            floats(&[1.0, 2.0, 3.0, 4.0])
        );
    }

    #[test]
    fn header_rules_follow_the_format() {
        let g = info(CL_KERNEL_ARG_ADDRESS_GLOBAL, "float*");
        let p = info(CL_KERNEL_ARG_ADDRESS_PRIVATE, "int");
        let l = info(CL_KERNEL_ARG_ADDRESS_LOCAL, "float*");
        let err = |t: &str, i: &ArgInfo| sim(t, i).unwrap_err().message;
        assert!(err("<fill=1>", &g).contains("needs size"));
        assert!(err("<size=6>", &g).contains("whole number"));
        assert!(err("<size=8 fill=1 range=0:1:1>", &g).contains("more than one"));
        assert!(err("<size=4 dump> 1", &p).contains("for buffer"));
        assert!(err("<size=4 ro wo fill=0>", &g).contains("exclude"));
        assert!(err("<size=4 null>", &g).contains("no other word"));
        assert!(err("<size=8 range=0:1:5>", &g).contains("range gives 6"));
        assert!(err("<size=4 flaot>", &g).contains("unknown header word"));
        assert!(err("<size=8> 1", &g).contains("end of file"));
        assert!(matches!(sim("<null>", &g).unwrap().value, ArgValue::Null));
        assert!(matches!(
            sim("<size=64>", &l).unwrap().value,
            ArgValue::Local(64)
        ));
        let s = info(CL_KERNEL_ARG_ADDRESS_PRIVATE, "struct S");
        assert!(err("<size=4> 1", &s).contains("no element type"));
    }
}
