//! The command line's `--arg` values: the short forms
//! (`buffer:float:1024:fill=1:dump`, `int:42`, `float4:1,2,3,4`,
//! `local:256`, `null`) become the words of a simulation-file header, so
//! `args::resolve` applies one set of rules to both; a short form also says
//! which kind of parameter it is for, and `--arg '<...> values'` is a
//! simulation-file argument as written.

use crate::args::Values;
use crate::diag::{Diag, Loc};
use crate::elem::{Elem, ELEM_NAMES};
use crate::scan::{Scanner, Tok};
use opencl_sys::*;

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

#[cfg(test)]
mod tests {
    use super::*;

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
