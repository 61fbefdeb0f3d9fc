//! Kernel arguments: an argument header of Oclgrind's simulation format
//! (`<size=16 float range=0:1:3 dump>`) turned into what the launch sets —
//! a buffer with its contents, a local size, a scalar's bytes or NULL — and
//! the command line's short forms (`buffer:float:1024:fill=1:dump`,
//! `int:42`, `local:256`, `null`) turned into the same header words, so one
//! set of rules serves both.
//!
//! The header's words (Oclgrind's): `size=N` (bytes, decimal), a type
//! (`char` … `double`; else from the kernel's argument type), `fill=V`,
//! `range=START:INC:END`, `noinit`, `null`, `dump`, `hex`, `ro`, `wo`.
//! cranecl adds `file=PATH` (the bytes of a file), `sub=ORIGIN:SIZE` (pass
//! a sub-buffer of the buffer), `range=START:INC` (the end implied by the
//! size), and a size left out where `file=` or a full `range=` gives it.
//! A buffer or scalar with no initialiser takes its values from the words
//! after the header (`<size=8 int> 1 2`).

use crate::diag::{Diag, Loc};
use crate::scan::{Scanner, Tok};
use opencl_sys::*;
use std::path::{Path, PathBuf};

/// The element types of Oclgrind's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Float,
    Double,
}

pub const ELEM_NAMES: &str = "char, uchar, short, ushort, int, uint, long, ulong, float, double";

impl Elem {
    const ALL: [(Elem, &'static str); 10] = [
        (Elem::Char, "char"),
        (Elem::UChar, "uchar"),
        (Elem::Short, "short"),
        (Elem::UShort, "ushort"),
        (Elem::Int, "int"),
        (Elem::UInt, "uint"),
        (Elem::Long, "long"),
        (Elem::ULong, "ulong"),
        (Elem::Float, "float"),
        (Elem::Double, "double"),
    ];

    pub fn from_name(s: &str) -> Option<Elem> {
        Self::ALL.iter().find(|(_, n)| *n == s).map(|(e, _)| *e)
    }

    /// The default for an argument of OpenCL C type `type_name` (`float*`,
    /// `uint4`): the element type it starts with; `void*` is bytes.
    pub fn for_type_name(type_name: &str) -> Option<Elem> {
        if type_name.starts_with("void*") {
            return Some(Elem::UChar);
        }
        Self::ALL
            .iter()
            .find(|(_, n)| {
                type_name.starts_with(n)
                    && !type_name[n.len()..]
                        .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            })
            .map(|(e, _)| *e)
    }

    pub fn size(self) -> usize {
        match self {
            Elem::Char | Elem::UChar => 1,
            Elem::Short | Elem::UShort => 2,
            Elem::Int | Elem::UInt | Elem::Float => 4,
            Elem::Long | Elem::ULong | Elem::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::Float | Elem::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Elem::Char | Elem::Short | Elem::Int | Elem::Long)
    }

    /// One value's bytes (little-endian). Integers are decimal, or
    /// hexadecimal under `hex` or with a `0x` prefix; a value must fit the
    /// type as signed or unsigned.
    pub fn parse(self, text: &str, hex: bool) -> Result<Vec<u8>, String> {
        let bad = || format!("invalid {} value '{text}'", self.name());
        if self.is_float() {
            return match self {
                Elem::Float => text.parse::<f32>().map(|v| v.to_le_bytes().to_vec()),
                _ => text.parse::<f64>().map(|v| v.to_le_bytes().to_vec()),
            }
            .map_err(|_| bad());
        }
        let v = parse_int(text, hex).ok_or_else(bad)?;
        let bits = 8 * self.size() as u32;
        let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
        if v < lo || v > hi {
            return Err(format!("{} value '{text}' out of range", self.name()));
        }
        Ok(v.to_le_bytes()[..self.size()].to_vec())
    }

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(e, _)| *e == self)
            .map_or("?", |(_, n)| n)
    }
}

/// An integer in decimal, or hexadecimal (`hex`, or a `0x` prefix).
pub fn parse_int(text: &str, hex: bool) -> Option<i128> {
    let (neg, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (radix, digits) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(d) => (16, d),
        None if hex => (16, t),
        None => (10, t),
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    let v = i128::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}

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

/// Turns a header into the argument it describes, for kernel argument
/// `info`, taking inline values from `values`. `base` is the folder
/// relative paths of `file=` start from.
pub fn resolve(
    open: &Tok,
    words: &[Tok],
    info: &crate::cl::ArgInfo,
    values: &mut dyn Values,
    base: &Path,
) -> Result<Arg, Diag> {
    let h = header(words)?;
    let addr = info.address;
    let is_mem = addr == CL_KERNEL_ARG_ADDRESS_GLOBAL || addr == CL_KERNEL_ARG_ADDRESS_CONSTANT;
    let local = addr == CL_KERNEL_ARG_ADDRESS_LOCAL;
    let mk = |value, elem, dump: bool| Arg {
        name: info.name.clone(),
        at: open.loc.clone(),
        value,
        elem,
        hex: h.hex,
        dump,
    };
    let only_mem = |l: &Option<Loc>, word: &str| match l {
        Some(l) if !is_mem => Err(Diag::at(
            l,
            format!(
                "'{word}' is for buffer arguments; '{}' is not a buffer",
                info.name
            ),
        )),
        _ => Ok(()),
    };
    only_mem(&h.null, "null")?;
    only_mem(&h.noinit, "noinit")?;
    only_mem(&h.dump, "dump")?;
    only_mem(&h.sub.as_ref().map(|t| t.loc.clone()), "sub")?;
    for (l, w) in [(&h.ro, "ro"), (&h.wo, "wo")] {
        if let Some(l) = l {
            if addr != CL_KERNEL_ARG_ADDRESS_GLOBAL {
                return Err(Diag::at(l, format!("'{w}' is for global buffers only")));
            }
        }
    }
    if let (Some(_), Some(l)) = (&h.ro, &h.wo) {
        return Err(Diag::at(l, "'ro' and 'wo' exclude each other"));
    }
    if let Some(l) = &h.null {
        if h.size.is_some()
            || h.fill.is_some()
            || h.range.is_some()
            || h.file.is_some()
            || h.noinit.is_some()
            || h.dump.is_some()
            || h.sub.is_some()
        {
            return Err(Diag::at(l, "'null' goes with no other word"));
        }
        return Ok(mk(ArgValue::Null, Elem::UChar, false));
    }
    let inits = [
        h.fill.as_ref().map(|t| &t.loc),
        h.range.as_ref().map(|t| &t.loc),
        h.file.as_ref().map(|t| &t.loc),
        h.noinit.as_ref(),
    ];
    if let Some(second) = inits.iter().flatten().nth(1) {
        return Err(Diag::at(
            second,
            "more than one initialiser (fill, range, file, noinit)",
        ));
    }
    let elem = match &h.elem {
        Some((e, _)) => *e,
        None => Elem::for_type_name(&info.type_name).ok_or_else(|| {
            Diag::at(
                &open.loc,
                format!(
                    "no element type for argument '{}' of type '{}': name one ({ELEM_NAMES})",
                    info.name, info.type_name
                ),
            )
        })?,
    };
    if local {
        let (size, _) = h.size.clone().ok_or_else(|| {
            Diag::at(
                &open.loc,
                format!("local argument '{}' needs size=BYTES", info.name),
            )
        })?;
        return Ok(mk(ArgValue::Local(size), elem, false));
    }
    let size = h.size.as_ref().map(|(s, _)| *s);
    if let (Some(s), Some((_, l))) = (size, &h.size) {
        if s % elem.size() != 0 {
            return Err(Diag::at(
                l,
                format!("{s} bytes is not a whole number of {}s", elem.name()),
            ));
        }
    }
    let need_size = || {
        size.ok_or_else(|| {
            Diag::at(
                &open.loc,
                format!("argument '{}' needs size=BYTES", info.name),
            )
        })
    };
    let data: Option<Vec<u8>> = if let Some(t) = &h.fill {
        let one = elem
            .parse(&t.text[5..], h.hex)
            .map_err(|m| Diag::at(&t.loc, m))?;
        Some(one.repeat(need_size()? / elem.size()))
    } else if let Some(t) = &h.range {
        Some(range_bytes(t, elem, h.hex, size)?)
    } else if let Some(t) = &h.file {
        let path = base.join(&t.text[5..]);
        let bytes = std::fs::read(&path)
            .map_err(|e| Diag::at(&t.loc, format!("cannot read {}: {e}", path.display())))?;
        if let Some(s) = size {
            if s != bytes.len() {
                return Err(Diag::at(
                    &t.loc,
                    format!(
                        "{} holds {} bytes, the size is {s}",
                        path.display(),
                        bytes.len()
                    ),
                ));
            }
        }
        Some(bytes)
    } else if h.noinit.is_some() {
        None
    } else {
        let n = need_size()? / elem.size();
        let mut out = Vec::with_capacity(n * elem.size());
        for i in 0..n {
            let t = values.value(&format!(
                "value {i} of argument '{}' ({n} {}s)",
                info.name,
                elem.name()
            ))?;
            out.extend(
                elem.parse(&t.text, h.hex)
                    .map_err(|m| Diag::at(&t.loc, m))?,
            );
        }
        Some(out)
    };
    let size = data.as_ref().map_or_else(need_size, |d| Ok(d.len()))?;
    if !is_mem {
        return Ok(mk(ArgValue::Scalar(data.unwrap_or_default()), elem, false));
    }
    let sub = match &h.sub {
        None => None,
        Some(t) => {
            let p = parts(t, "sub");
            let nums: Option<Vec<usize>> = p.iter().map(|s| s.parse().ok()).collect();
            match nums.as_deref() {
                Some(&[o, s]) if o.checked_add(s).is_some_and(|e| e <= size) && s > 0 => {
                    Some((o, s))
                }
                _ => {
                    return Err(Diag::at(
                        &t.loc,
                        format!("expected sub=ORIGIN:SIZE inside the buffer's {size} bytes"),
                    ))
                }
            }
        }
    };
    let flags = if h.ro.is_some() {
        CL_MEM_READ_ONLY
    } else if h.wo.is_some() {
        CL_MEM_WRITE_ONLY
    } else {
        CL_MEM_READ_WRITE
    };
    Ok(mk(
        ArgValue::Buffer {
            size,
            data,
            flags,
            sub,
        },
        elem,
        h.dump.is_some(),
    ))
}

/// Values of a command-line argument that came with it (`int:42`).
pub struct Given(pub std::vec::IntoIter<Tok>, pub Loc);

impl Values for Given {
    fn value(&mut self, what: &str) -> Result<Tok, Diag> {
        self.0
            .next()
            .ok_or_else(|| Diag::at(&self.1, format!("too few values: expected {what}")))
    }
}

/// What a short form says an argument is (the `<...>` form says nothing:
/// its header is read against the kernel's parameter, as in a file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Buffer,
    Local,
    Scalar,
}

impl Kind {
    /// The kind a kernel parameter takes.
    pub fn of(info: &crate::cl::ArgInfo) -> Kind {
        match info.address {
            CL_KERNEL_ARG_ADDRESS_GLOBAL | CL_KERNEL_ARG_ADDRESS_CONSTANT => Kind::Buffer,
            CL_KERNEL_ARG_ADDRESS_LOCAL => Kind::Local,
            _ => Kind::Scalar,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Kind::Buffer => "a buffer (buffer:..., null)",
            Kind::Local => "local memory (local:BYTES)",
            Kind::Scalar => "a value (TYPE:V, TYPEn:V,...)",
        }
    }
}

/// A parameter as the kernel declares it: `global float* out`.
pub fn declaration(info: &crate::cl::ArgInfo) -> String {
    let space = match info.address {
        CL_KERNEL_ARG_ADDRESS_GLOBAL => "global ",
        CL_KERNEL_ARG_ADDRESS_CONSTANT => "constant ",
        CL_KERNEL_ARG_ADDRESS_LOCAL => "local ",
        _ => "",
    };
    format!("{space}{} {}", info.type_name, info.name)
}

/// One `--arg` value: the header and values it stands for.
pub struct CliArg {
    pub open: Tok,
    pub words: Vec<Tok>,
    pub values: Given,
    pub kind: Option<Kind>,
}

/// Reads one `--arg` (the `index`th, 1-based), either a simulation-file
/// argument (`<size=16 float> 1 2 3 4`) or a short form:
/// `buffer:TYPE:COUNT[:WORD]...`, `TYPE[N]:V[,V]...`, `local:BYTES`, `null`.
pub fn cli_arg(index: usize, text: &str) -> Result<CliArg, Diag> {
    let label = format!("--arg {index}");
    let tok = |start: usize, t: &str| Tok {
        text: t.to_string(),
        loc: Loc {
            file: label.clone(),
            line: None,
            col: start + 1,
            text: text.to_string(),
            width: t.len().max(1),
        },
    };
    if text.trim_start().starts_with('<') {
        let mut s = Scanner::new(&label, text, false);
        let (open, words) = s.header()?.expect("the text starts with a header");
        let mut rest = Vec::new();
        while let Some(t) = s.next() {
            rest.push(t);
        }
        return Ok(CliArg {
            open: open.clone(),
            words,
            values: Given(rest.into_iter(), open.loc),
            kind: None,
        });
    }
    // Fields split at ':', each with its byte offset.
    let mut fields = Vec::new();
    let mut at = 0;
    for f in text.split(':') {
        fields.push(tok(at, f));
        at += f.len() + 1;
    }
    let whole = tok(0, text);
    let head = fields[0].text.as_str();
    let word = |t: &Tok, w: String| Tok {
        text: w,
        loc: t.loc.clone(),
    };
    let mut words = Vec::new();
    let mut values = Vec::new();
    let kind = match head {
        "null" | "buffer" => Kind::Buffer,
        "local" => Kind::Local,
        _ => Kind::Scalar,
    };
    match head {
        "null" if fields.len() == 1 => words.push(word(&fields[0], "null".into())),
        "local" if fields.len() == 2 => words.push(word(&fields[1], format!("size={}", fields[1].text))),
        "buffer" if fields.len() >= 3 => {
            let elem = Elem::from_name(&fields[1].text).ok_or_else(|| {
                Diag::at(&fields[1].loc, format!("unknown type '{}' (known: {ELEM_NAMES})", fields[1].text))
            })?;
            let count: usize = fields[2].text.parse().map_err(|_| {
                Diag::at(&fields[2].loc, format!("invalid element count '{}'", fields[2].text))
            })?;
            words.push(word(&fields[1], elem.name().into()));
            words.push(word(&fields[2], format!("size={}", count * elem.size())));
            let mut init = false;
            for f in &fields[3..] {
                init |= ["fill=", "range=", "file=", "noinit"].iter().any(|p| f.text.starts_with(p));
                words.push(f.clone());
            }
            if !init {
                words.push(word(&whole, "fill=0".into()));
            }
        }
        _ if fields.len() == 2 => {
            // TYPE or TYPEn (a vector: 3 is stored as 4) and its values.
            let digits = head.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let name = &head[..head.len() - digits.len()];
            let elem = Elem::from_name(name).ok_or_else(|| {
                Diag::at(&fields[0].loc, format!("unknown argument form '{head}'")).note(
                    "forms: buffer:TYPE:COUNT[:WORD]..., TYPE:V, TYPEn:V,V,..., local:BYTES, null, or '<HEADER> [VALUES]'",
                )
            })?;
            let n: usize = match digits {
                "" => 1,
                "2" | "3" | "4" | "8" | "16" => digits.parse().unwrap_or(1),
                _ => return Err(Diag::at(&fields[0].loc, format!("no vector type '{head}'"))),
            };
            let stored = if n == 3 { 4 } else { n };
            words.push(word(&fields[0], elem.name().into()));
            words.push(word(&fields[0], format!("size={}", stored * elem.size())));
            let mut start = fields[1].loc.col - 1;
            for v in fields[1].text.split(',') {
                values.push(tok(start, v));
                start += v.len() + 1;
            }
            if values.len() != n {
                return Err(Diag::at(&fields[1].loc, format!("{head} takes {n} values, {} given", values.len())));
            }
            if n == 3 {
                values.push(word(&fields[1], "0".into()));
            }
        }
        _ => {
            return Err(Diag::at(&whole.loc, format!("unknown argument form '{text}'")).note(
                "forms: buffer:TYPE:COUNT[:WORD]..., TYPE:V, TYPEn:V,V,..., local:BYTES, null, or '<HEADER> [VALUES]'",
            ))
        }
    }
    Ok(CliArg {
        open: word(&whole, "<".into()),
        words,
        values: Given(values.into_iter(), whole.loc.clone()),
        kind: Some(kind),
    })
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

    #[test]
    fn short_forms_become_headers() {
        let words = |t: &str| -> Vec<String> {
            cli_arg(1, t)
                .unwrap()
                .words
                .iter()
                .map(|w| w.text.clone())
                .collect()
        };
        assert_eq!(
            words("buffer:float:4:dump"),
            ["float", "size=16", "dump", "fill=0"]
        );
        assert_eq!(
            words("buffer:int:4:range=0,1:dump"),
            ["int", "size=16", "range=0,1", "dump"]
        );
        assert_eq!(words("local:256"), ["size=256"]);
        assert_eq!(words("null"), ["null"]);
        let a = cli_arg(1, "float3:1,2,3").unwrap();
        assert_eq!(
            a.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>(),
            ["float", "size=16"]
        );
        let v: Vec<String> = a.values.0.map(|t| t.text).collect();
        assert_eq!(v, ["1", "2", "3", "0"]);
        let e = cli_arg(2, "buffer:flot:4").err().unwrap();
        assert_eq!(e.loc.as_ref().unwrap().col, 8);
        assert!(e
            .render("error")
            .starts_with("--arg 2: error: unknown type 'flot'"));
        assert!(cli_arg(1, "int:1,2").is_err());
        assert!(cli_arg(1, "<size=4> 5").is_ok());
    }
}
