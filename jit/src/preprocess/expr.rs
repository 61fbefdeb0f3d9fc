//! `#if` expressions (C99 §6.10.1): integer constant expressions evaluated
//! in `intmax_t` / `uintmax_t`, 128 bits wide as in clang (OpenCL C
//! reserves `long long` for a 128-bit type, and clang's `intmax_t` is it).
//!
//! The tokens arrive macro-expanded with `defined` already replaced. An
//! identifier left over is 0 (`true` is 1, `false` 0: OpenCL C has `bool`).
//! Precedence climbing over C's binary operators; `?:` and the comma operator
//! included. Values carry their signedness: if either operand of an
//! arithmetic operator is unsigned, both are (the usual arithmetic
//! conversions); a shift takes its left operand's type. Operands that are not
//! evaluated (`0 && 1/0`, the untaken arm of `?:`) report no division by zero
//! and no overflow. Every diagnostic points at the user's text; evaluation
//! stops at the first error and the condition counts as false.
#![forbid(unsafe_code)]

use super::PTok;
use crate::diag::Diagnostics;
use crate::source::Span;
use crate::token::{Punct, TokenKind};

/// Parentheses and unary operators may nest this deep.
const MAX_DEPTH: u32 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    bits: u128,
    unsigned: bool,
}

impl Value {
    fn signed(v: i128) -> Value {
        Value {
            bits: v as u128,
            unsigned: false,
        }
    }
    fn truth(b: bool) -> Value {
        Value::signed(i128::from(b))
    }
    fn is_true(self) -> bool {
        self.bits != 0
    }
    fn as_i128(self) -> i128 {
        self.bits as i128
    }
}

/// Evaluates an `#if` line; `None` after an error (already reported).
pub(super) fn evaluate(toks: &[PTok], end: Span, diags: &mut Diagnostics) -> Option<i128> {
    let mut e = Eval {
        toks,
        pos: 0,
        end,
        diags,
        depth: 0,
    };
    let v = e.expr(1, true).ok()?;
    if let Some(t) = toks.get(e.pos) {
        let msg = if t.is_punct(Punct::RParen) {
            "unexpected ')' in preprocessor expression"
        } else {
            "token is not a valid binary operator in a preprocessor subexpression"
        };
        e.diags.error(t.tok.loc(), msg);
        return None;
    }
    Some(v.as_i128())
}

struct Eval<'t, 'd> {
    toks: &'t [PTok],
    pos: usize,
    /// Just past the last token (for "expected value" at the end).
    end: Span,
    diags: &'d mut Diagnostics,
    depth: u32,
}

/// An error has been reported.
struct Reported;

type R = Result<Value, Reported>;

/// Binary operators and their precedence (higher binds tighter).
fn binary_op(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        Comma => 1,
        Question => 2,
        PipePipe => 3,
        AmpAmp => 4,
        Pipe => 5,
        Caret => 6,
        Amp => 7,
        EqEq | Ne => 8,
        Lt | Gt | Le | Ge => 9,
        Shl | Shr => 10,
        Plus | Minus => 11,
        Star | Slash | Percent => 12,
        _ => return None,
    })
}

impl Eval<'_, '_> {
    fn peek_punct(&self) -> Option<Punct> {
        match self.toks.get(self.pos).map(|t| &t.tok.kind) {
            Some(TokenKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn here(&self) -> Span {
        self.toks.get(self.pos).map_or(self.end, |t| t.tok.loc())
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) -> Reported {
        self.diags.error(span, msg);
        Reported
    }

    // expr = unary (binop expr)*, by precedence climbing; `live` is false in
    // operands that are not evaluated.
    fn expr(&mut self, min_prec: u8, live: bool) -> R {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let at = self.here();
            return Err(self.error(at, "preprocessor expression nested too deeply"));
        }
        let r = self.expr_inner(min_prec, live);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, min_prec: u8, live: bool) -> R {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.peek_punct() {
            let Some(prec) = binary_op(op) else { break };
            if prec < min_prec {
                break;
            }
            let op_span = self.here();
            self.pos += 1;
            lhs = match op {
                // cond ? expr : conditional
                Punct::Question => {
                    let c = lhs.is_true();
                    let a = self.expr(1, live && c)?;
                    if self.peek_punct() != Some(Punct::Colon) {
                        let at = self.here();
                        return Err(self.error(at, "expected ':' in preprocessor expression"));
                    }
                    self.pos += 1;
                    let b = self.expr(2, live && !c)?;
                    let unsigned = a.unsigned || b.unsigned;
                    let bits = if c { a.bits } else { b.bits };
                    Value { bits, unsigned }
                }
                Punct::PipePipe => {
                    let rhs = self.expr(prec + 1, live && !lhs.is_true())?;
                    Value::truth(lhs.is_true() || rhs.is_true())
                }
                Punct::AmpAmp => {
                    let rhs = self.expr(prec + 1, live && lhs.is_true())?;
                    Value::truth(lhs.is_true() && rhs.is_true())
                }
                _ => {
                    let rhs = self.expr(prec + 1, live)?;
                    self.binary(op, lhs, rhs, live, op_span)?
                }
            };
        }
        Ok(lhs)
    }

    // unary = ("+" | "-" | "~" | "!") unary | primary
    fn unary(&mut self, live: bool) -> R {
        let op = self.peek_punct();
        if !matches!(
            op,
            Some(Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang)
        ) {
            return self.primary(live);
        }
        let span = self.here();
        self.pos += 1;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(span, "preprocessor expression nested too deeply"));
        }
        let v = self.unary(live);
        self.depth -= 1;
        let v = v?;
        Ok(match op {
            Some(Punct::Minus) => {
                if live && !v.unsigned && v.as_i128() == i128::MIN {
                    self.diags
                        .warning(span, "integer overflow in preprocessor expression");
                }
                Value {
                    bits: v.bits.wrapping_neg(),
                    unsigned: v.unsigned,
                }
            }
            Some(Punct::Tilde) => Value {
                bits: !v.bits,
                unsigned: v.unsigned,
            },
            Some(Punct::Bang) => Value::truth(!v.is_true()),
            _ => v,
        })
    }

    // primary = "(" expr ")" | number | char | identifier
    fn primary(&mut self, live: bool) -> R {
        let Some(t) = self.toks.get(self.pos) else {
            let end = self.end;
            return Err(self.error(end, "expected value in expression"));
        };
        let span = t.tok.loc();
        self.pos += 1;
        match &t.tok.kind {
            TokenKind::Punct(Punct::LParen) => {
                let v = self.expr(1, live)?;
                if self.peek_punct() != Some(Punct::RParen) {
                    let at = self.here();
                    self.error(at, "expected ')' in preprocessor expression");
                    self.diags.note(span, "to match this '('");
                    return Err(Reported);
                }
                self.pos += 1;
                Ok(v)
            }
            TokenKind::Number(s) => {
                parse_integer(s)
                    .map_err(|m| self.error(span, m))
                    .map(|(v, warning)| {
                        if let Some(w) = warning {
                            self.diags.warning(span, w);
                        }
                        v
                    })
            }
            TokenKind::Char(s) => {
                let (v, multi) = char_value(s);
                if multi {
                    self.diags
                        .warning(span, "multi-character character constant");
                }
                Ok(Value::signed(i128::from(v)))
            }
            TokenKind::Ident(name) => Ok(Value::truth(name == "true")),
            // clang's wording: a missing operand is "expected value"; any
            // other token where a value should start is an "invalid token".
            TokenKind::Eof | TokenKind::Punct(Punct::RParen) => {
                Err(self.error(span, "expected value in expression"))
            }
            _ => Err(self.error(span, "invalid token at start of a preprocessor expression")),
        }
    }

    /// `lhs op rhs` for the arithmetic, bitwise, shift and comparison operators.
    fn binary(&mut self, op: Punct, lhs: Value, rhs: Value, live: bool, span: Span) -> R {
        use Punct::*;
        if matches!(op, Shl | Shr) {
            return Ok(self.shift(op, lhs, rhs, live, span));
        }
        let unsigned = lhs.unsigned || rhs.unsigned;
        let (a, b) = (lhs.bits, rhs.bits);
        let (sa, sb) = (a as i128, b as i128);
        let mut overflow = false;
        let bits = match op {
            Comma => return Ok(rhs),
            Star | Plus | Minus => {
                let (s, o) = match op {
                    Star => sa.overflowing_mul(sb),
                    Plus => sa.overflowing_add(sb),
                    _ => sa.overflowing_sub(sb),
                };
                overflow = o && !unsigned;
                s as u128
            }
            Slash | Percent => {
                if b == 0 {
                    if !live {
                        return Ok(Value { bits: 0, unsigned });
                    }
                    let what = if op == Slash { "division" } else { "remainder" };
                    return Err(
                        self.error(span, format!("{what} by zero in preprocessor expression"))
                    );
                }
                match (unsigned, op) {
                    (true, Slash) => a / b,
                    (true, _) => a % b,
                    (false, Slash) => {
                        overflow = sa == i128::MIN && sb == -1;
                        sa.wrapping_div(sb) as u128
                    }
                    (false, _) => sa.wrapping_rem(sb) as u128,
                }
            }
            Lt | Gt | Le | Ge | EqEq | Ne => {
                let ord = if unsigned { a.cmp(&b) } else { sa.cmp(&sb) };
                let r = match op {
                    Lt => ord.is_lt(),
                    Gt => ord.is_gt(),
                    Le => ord.is_le(),
                    Ge => ord.is_ge(),
                    EqEq => ord.is_eq(),
                    _ => ord.is_ne(),
                };
                return Ok(Value::truth(r));
            }
            Amp => a & b,
            Caret => a ^ b,
            Pipe => a | b,
            _ => 0, // binary_op lists no other operator
        };
        if overflow && live {
            self.diags
                .warning(span, "integer overflow in preprocessor expression");
        }
        Ok(Value { bits, unsigned })
    }

    /// `<<` and `>>`: the result has the left operand's type; a count that is
    /// negative or not below 128 is reported (as overflow) and clamped.
    fn shift(&mut self, op: Punct, lhs: Value, rhs: Value, live: bool, span: Span) -> Value {
        let count = if rhs.unsigned {
            rhs.bits.min(128)
        } else {
            rhs.as_i128().clamp(0, 128) as u128
        };
        let bad = count >= 128 || (!rhs.unsigned && rhs.as_i128() < 0);
        if bad && live {
            self.diags
                .warning(span, "integer overflow in preprocessor expression");
        }
        let c = count.min(127) as u32;
        let bits = match (op, lhs.unsigned) {
            (Punct::Shl, _) if count >= 128 => 0,
            (Punct::Shl, _) => lhs.bits << c,
            (_, true) if count >= 128 => 0,
            (_, true) => lhs.bits >> c,
            (_, false) => (lhs.as_i128() >> c) as u128,
        };
        Value {
            bits,
            unsigned: lhs.unsigned,
        }
    }
}

/// An integer literal (C99 §6.4.4.1): its value, and a warning if any.
fn parse_integer(s: &str) -> Result<(Value, Option<&'static str>), String> {
    let lower = s.to_ascii_lowercase();
    let (radix, digits_start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let body = &lower[digits_start..];
    let digits_end = body
        .find(|c: char| !c.is_ascii_hexdigit() || (radix != 16 && c.is_ascii_alphabetic()))
        .unwrap_or(body.len());
    let (digits, suffix) = body.split_at(digits_end);
    let is_float = suffix.starts_with('.')
        || (radix == 16 && suffix.starts_with('p'))
        || (radix != 16 && suffix.starts_with('e'))
        || (radix == 8 && digits.contains(['8', '9']) && suffix.starts_with(['.', 'e']));
    if is_float {
        return Err("floating point literal in preprocessor expression".into());
    }
    if !matches!(suffix, "" | "u" | "l" | "ul" | "lu" | "ll" | "ull" | "llu") {
        return Err(format!(
            "invalid suffix '{}' on integer constant",
            &s[s.len() - suffix.len()..]
        ));
    }
    if digits.is_empty() && digits_start > 0 {
        // `0x` alone: clang reads the `x` as a suffix of `0`.
        return Err(format!("invalid suffix '{}' on integer constant", &s[1..]));
    }
    let mut v: u128 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(radix) else {
            return Err(format!(
                "invalid digit '{c}' in {} constant",
                radix_name(radix)
            ));
        };
        v = v
            .checked_mul(u128::from(radix))
            .and_then(|v| v.checked_add(u128::from(d)))
            .ok_or("integer literal is too large to be represented in any integer type")?;
    }
    let mut unsigned = suffix.contains('u');
    let mut warning = None;
    if v > i128::MAX as u128 && !unsigned {
        unsigned = true;
        if radix == 10 {
            warning = Some(
                "integer literal is too large to be represented in a signed integer type, interpreting as unsigned",
            );
        }
    }
    Ok((Value { bits: v, unsigned }, warning))
}

fn radix_name(radix: u32) -> &'static str {
    match radix {
        16 => "hexadecimal",
        8 => "octal",
        2 => "binary",
        _ => "decimal",
    }
}

/// The value of a character constant's spelling (`'a'`, `'\n'`, `'\377'`):
/// `char` is signed in OpenCL C; several characters make an `int` (with a
/// warning). Escapes were checked by the lexer.
fn char_value(spelling: &str) -> (i64, bool) {
    let inner = spelling
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .unwrap_or("");
    let bytes = inner.as_bytes();
    let mut vals: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            vals.push(u32::from(bytes[i]));
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = bytes.get(i) else { break };
        i += 1;
        let v = match c {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = u32::from(c - b'0');
                for _ in 0..2 {
                    match bytes.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                        }
                        _ => break,
                    }
                }
                v
            }
            b'x' | b'u' | b'U' => {
                let mut v: u32 = 0;
                while let Some(d) = bytes.get(i).and_then(|d| (*d as char).to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    i += 1;
                }
                v
            }
            other => u32::from(other),
        };
        vals.push(v);
    }
    match vals.as_slice() {
        [] => (0, false),
        [v] => (i64::from(*v as u8 as i8), false),
        many => {
            let v = many
                .iter()
                .fold(0u32, |acc, v| acc.wrapping_shl(8) | (v & 0xff));
            (i64::from(v as i32), true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_literals() {
        let v = |s: &str| parse_integer(s).map(|(v, _)| (v.bits, v.unsigned));
        assert_eq!(v("42"), Ok((42, false)));
        assert_eq!(v("0x1F"), Ok((31, false)));
        assert_eq!(v("017"), Ok((15, false)));
        assert_eq!(v("0"), Ok((0, false)));
        assert_eq!(v("10u"), Ok((10, true)));
        assert_eq!(v("10ULL"), Ok((10, true)));
        assert_eq!(v("0xFFFFFFFFFFFFFFFF"), Ok((u128::from(u64::MAX), false)));
        assert_eq!(
            v("0xffffffffffffffffffffffffffffffff"),
            Ok((u128::MAX, true))
        );
        assert!(v("08").unwrap_err().contains("invalid digit '8' in octal"));
        assert!(v("1.5").unwrap_err().contains("floating point"));
        assert!(v("1e3").unwrap_err().contains("floating point"));
        assert!(v("0x1p3").unwrap_err().contains("floating point"));
        assert!(v("12abc").unwrap_err().contains("invalid suffix 'abc'"));
        assert!(v("999999999999999999999999999999999999999999")
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn character_constants() {
        assert_eq!(char_value("'a'"), (97, false));
        assert_eq!(char_value("'\\n'"), (10, false));
        assert_eq!(char_value("'\\377'"), (-1, false));
        assert_eq!(char_value("'\\x41'"), (65, false));
        assert_eq!(char_value("'\\0'"), (0, false));
        assert_eq!(char_value("'ab'"), (0x6162, true));
    }
}
