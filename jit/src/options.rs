//! Build options: the `options` string of `clBuildProgram` / `clCompileProgram`
//! (OpenCL 3.0 API §5.8.6, "Compiler Options").
//!
//! [`BuildOptions::parse`] splits the string into words like a shell does
//! (whitespace separates; `"…"` and `'…'` quote; a backslash escapes the next
//! character outside single quotes), then reads each word as an option. An
//! unknown or malformed option is an `Err` whose message names it; the API
//! layer turns that into `CL_INVALID_BUILD_OPTIONS` and writes the message to
//! the build log.
#![forbid(unsafe_code)]

use std::path::PathBuf;

/// The OpenCL C language version chosen with `-cl-std=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClStd {
    Cl10,
    Cl11,
    Cl12,
    Cl20,
    Cl30,
}

impl ClStd {
    /// The version number as `__OPENCL_C_VERSION__` spells it (100 … 300).
    pub fn version(self) -> u32 {
        match self {
            ClStd::Cl10 => 100,
            ClStd::Cl11 => 110,
            ClStd::Cl12 => 120,
            ClStd::Cl20 => 200,
            ClStd::Cl30 => 300,
        }
    }

    /// The value after `-cl-std=` (`CL1.2`; the `CL` prefix in any case).
    pub fn from_option(value: &str) -> Option<ClStd> {
        let rest = value
            .strip_prefix("CL")
            .or_else(|| value.strip_prefix("cl"))?;
        match rest {
            "1.0" => Some(ClStd::Cl10),
            "1.1" => Some(ClStd::Cl11),
            "1.2" => Some(ClStd::Cl12),
            "2.0" => Some(ClStd::Cl20),
            "3.0" => Some(ClStd::Cl30),
            _ => None,
        }
    }
}

/// Without `-cl-std=`, a program is compiled as OpenCL C 1.2 (the API spec:
/// "the highest OpenCL C 1.x language version supported by the device").
impl Default for ClStd {
    fn default() -> ClStd {
        ClStd::Cl12
    }
}

/// Everything the options string asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D name` or `-D name=value`, in order (`None`: no `=`, the macro is 1).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I dir`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-cl-std=`; `None` when absent (see [`ClStd::default`]).
    pub cl_std: Option<ClStd>,
    /// `-Werror`
    pub werror: bool,
    /// `-w`
    pub no_warnings: bool,
    /// `-cl-opt-disable`
    pub opt_disable: bool,
    /// `-cl-mad-enable`
    pub mad_enable: bool,
    /// `-cl-no-signed-zeros`
    pub no_signed_zeros: bool,
    /// `-cl-unsafe-math-optimizations`
    pub unsafe_math: bool,
    /// `-cl-finite-math-only`
    pub finite_math_only: bool,
    /// `-cl-fast-relaxed-math` (also defines `__FAST_RELAXED_MATH__`)
    pub fast_relaxed_math: bool,
    /// `-cl-denorms-are-zero`
    pub denorms_are_zero: bool,
    /// `-cl-single-precision-constant`
    pub single_precision_constant: bool,
    /// `-cl-kernel-arg-info`
    pub kernel_arg_info: bool,
    /// `-cl-uniform-work-group-size`
    pub uniform_work_group_size: bool,
    /// `-g`
    pub debug_info: bool,
    /// `-create-library` (clLinkProgram)
    pub create_library: bool,
    /// `-enable-link-options` (clLinkProgram)
    pub enable_link_options: bool,
    /// `-cl-fp32-correctly-rounded-divide-sqrt`
    pub fp32_correctly_rounded_divide_sqrt: bool,
}

impl BuildOptions {
    /// Parses an options string; `Err` names the first bad option.
    pub fn parse(options: &str) -> Result<BuildOptions, String> {
        let words = split_words(options)?;
        let mut opts = BuildOptions::default();
        let mut it = words.into_iter();
        while let Some(word) = it.next() {
            // -D and -I take their argument joined or as the next word.
            if let Some(rest) = word.strip_prefix("-D") {
                let arg = joined_or_next(rest, &mut it, "-D")?;
                opts.defines.push(parse_define(&arg)?);
                continue;
            }
            if let Some(rest) = word.strip_prefix("-I") {
                let arg = joined_or_next(rest, &mut it, "-I")?;
                opts.include_dirs.push(PathBuf::from(arg));
                continue;
            }
            if let Some(value) = word.strip_prefix("-cl-std=") {
                let std = ClStd::from_option(value)
                    .ok_or_else(|| format!("invalid value '{value}' in '{word}'"))?;
                opts.cl_std = Some(std);
                continue;
            }
            let flag: &mut bool = match word.as_str() {
                "-w" => &mut opts.no_warnings,
                "-Werror" => &mut opts.werror,
                "-cl-opt-disable" => &mut opts.opt_disable,
                "-cl-mad-enable" => &mut opts.mad_enable,
                "-cl-no-signed-zeros" => &mut opts.no_signed_zeros,
                "-cl-unsafe-math-optimizations" => &mut opts.unsafe_math,
                "-cl-finite-math-only" => &mut opts.finite_math_only,
                "-cl-fast-relaxed-math" => &mut opts.fast_relaxed_math,
                "-cl-denorms-are-zero" => &mut opts.denorms_are_zero,
                "-cl-single-precision-constant" => &mut opts.single_precision_constant,
                "-cl-kernel-arg-info" => &mut opts.kernel_arg_info,
                "-cl-uniform-work-group-size" => &mut opts.uniform_work_group_size,
                "-g" => &mut opts.debug_info,
                "-create-library" => &mut opts.create_library,
                "-enable-link-options" => &mut opts.enable_link_options,
                "-cl-fp32-correctly-rounded-divide-sqrt" => {
                    &mut opts.fp32_correctly_rounded_divide_sqrt
                }
                // Accepted and without effect here: -cl-strict-aliasing is
                // deprecated (1.1), -cl-no-subgroup-ifp only permits a choice.
                "-cl-strict-aliasing" | "-cl-no-subgroup-ifp" => continue,
                _ => return Err(format!("unknown build option '{word}'")),
            };
            *flag = true;
        }
        // -cl-fast-relaxed-math implies -cl-finite-math-only and
        // -cl-unsafe-math-optimizations, which imply -cl-no-signed-zeros and
        // -cl-mad-enable.
        if opts.fast_relaxed_math {
            opts.finite_math_only = true;
            opts.unsafe_math = true;
        }
        if opts.unsafe_math {
            opts.no_signed_zeros = true;
            opts.mad_enable = true;
        }
        Ok(opts)
    }
}

/// The argument of `-D`/`-I`: the rest of the word, or the next word.
fn joined_or_next(
    rest: &str,
    it: &mut impl Iterator<Item = String>,
    flag: &str,
) -> Result<String, String> {
    if !rest.is_empty() {
        return Ok(rest.to_string());
    }
    match it.next() {
        Some(next) if !next.is_empty() => Ok(next),
        _ => Err(format!("missing argument to '{flag}'")),
    }
}

/// `name` or `name=value`; the name must be an identifier, optionally with a
/// parameter list (`-D'f(x)=x'`).
fn parse_define(arg: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match arg.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (arg, None),
    };
    let ident_end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    let (ident, params) = name.split_at(ident_end);
    let ident_ok = ident
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let params_ok = params.is_empty() || (params.starts_with('(') && params.ends_with(')'));
    if !ident_ok || !params_ok {
        return Err(format!("invalid macro name in '-D {arg}'"));
    }
    Ok((name.to_string(), value))
}

/// Splits like a shell: whitespace separates words, quotes group, a
/// backslash escapes the next character (not inside single quotes).
fn split_words(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("unterminated ' in build options".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err("unterminated \" in build options".into()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("unterminated \" in build options".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        let w = split_words(r#" -D A="a b"  'c d' e\ f "q\"x" "#).unwrap();
        assert_eq!(w, ["-D", "A=a b", "c d", "e f", "q\"x"]);
    }

    #[test]
    fn define_names_are_checked() {
        assert_eq!(parse_define("X=1").unwrap(), ("X".into(), Some("1".into())));
        assert_eq!(parse_define("f(a,b)=a+b").unwrap().0, "f(a,b)");
        assert!(parse_define("1X").is_err());
        assert!(parse_define("").is_err());
        assert!(parse_define("X-Y").is_err());
    }
}
