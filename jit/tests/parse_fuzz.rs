//! The parser never panics and always ends, whatever the tokens: every corpus
//! program is mutated token by token (deleted, duplicated, swapped, a
//! punctuator or keyword inserted) and parsed, and random byte strings are
//! lexed and parsed. A deterministic generator keeps failures reproducible;
//! a failing input is printed so it can become a regression test.

use cranecl_jit::diag::Diagnostics;
use cranecl_jit::parse::{parse, ERROR_LIMIT};
use cranecl_jit::preprocess::lex;
use cranecl_jit::source::SourceMap;
use cranecl_jit::token::{Punct, Token, TokenKind};
use std::path::Path;

/// xorshift64*: small, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus_programs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut out = Vec::new();
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return out;
    };
    for d in dirs.flatten() {
        let Ok(files) = std::fs::read_dir(d.path()) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            if p.extension().is_some_and(|e| e == "cl") {
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.push((p.display().to_string(), text));
                }
            }
        }
    }
    out.sort();
    out
}

const ROUNDS: usize = 25;

const INSERTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "*",
    "=",
    "?",
    ":",
    ".",
    "->",
    "int",
    "struct",
    "typedef",
    "__attribute__",
    "if",
    "else",
    "for",
    "case",
    "default",
    "sizeof",
    "float4",
    "global",
    "kernel",
    "enum",
    "...",
    "_Static_assert",
    "goto",
    "return",
];

fn mutate(toks: &[Token], rng: &mut Rng, extra: &[Token]) -> Vec<Token> {
    let mut v: Vec<Token> = toks.to_vec();
    let body = v.len().saturating_sub(1); // keep the final Eof
    for _ in 0..1 + rng.below(3) {
        if body == 0 {
            break;
        }
        let i = rng.below(body.min(v.len() - 1));
        match rng.below(4) {
            0 => {
                v.remove(i);
            }
            1 => {
                let t = v[i].clone();
                v.insert(i, t);
            }
            2 => {
                let j = rng.below(v.len() - 1);
                v.swap(i, j);
            }
            _ => {
                let t = extra[rng.below(extra.len())].clone();
                v.insert(i, t);
            }
        }
    }
    v
}

fn parse_tokens(toks: &[Token]) -> Diagnostics {
    let mut d = Diagnostics::new();
    let _ = parse(toks, &mut d);
    d
}

#[test]
fn mutated_corpus_programs_never_crash_the_parser() {
    let programs = corpus_programs();
    assert!(programs.len() > 50, "the corpus is there");
    let mut sm = SourceMap::new();
    let extra_file = sm.add("extra", INSERTS.join(" "));
    let mut d = Diagnostics::new();
    let extra = lex(&sm, extra_file, &mut d);
    let extra = &extra[..extra.len() - 1];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut parsed = 0;
    for (name, text) in &programs {
        let file = sm.add(name.clone(), text.clone());
        let toks = lex(&sm, file, &mut Diagnostics::new());
        for _ in 0..ROUNDS {
            let m = mutate(&toks, &mut rng, extra);
            let d = parse_tokens(&m);
            // Parser errors stop at the limit; literal errors are one per
            // token at most.
            assert!(
                d.error_count() <= ERROR_LIMIT + 1 + m.len(),
                "{name}: {} errors",
                d.error_count()
            );
            parsed += 1;
        }
    }
    assert!(parsed > 1000);
}

#[test]
fn token_soup_never_crashes_the_parser() {
    // Random sequences of tokens drawn from every punctuator and keyword.
    let mut sm = SourceMap::new();
    let all: Vec<String> = INSERTS
        .iter()
        .map(|s| s.to_string())
        .chain(["x", "T", "1", "1.5f", "'c'", "\"s\"", "++", "<<=", "&&"].map(String::from))
        .collect();
    let file = sm.add("soup", all.join(" "));
    let toks = lex(&sm, file, &mut Diagnostics::new());
    let pool = &toks[..toks.len() - 1];
    let eof = toks[toks.len() - 1].clone();
    let mut rng = Rng(42);
    for _ in 0..3000 {
        let n = rng.below(60);
        let mut v: Vec<Token> = (0..n)
            .map(|_| pool[rng.below(pool.len())].clone())
            .collect();
        v.push(eof.clone());
        parse_tokens(&v);
    }
    // Token slices without a final Eof are fine too.
    parse_tokens(&pool[..3]);
    parse_tokens(&[]);
}

#[test]
fn random_bytes_never_crash_lexer_and_parser() {
    let mut rng = Rng(7);
    let alphabet = b"(){}[];,.*&=+-<>?:!~^|%/#'\"\\ \n\tabcxyzTint0123456789_fFuUlLeEpPxX";
    for _ in 0..2000 {
        let n = rng.below(120);
        let text: String = (0..n)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        let mut sm = SourceMap::new();
        let file = sm.add("bytes", text);
        let mut d = Diagnostics::new();
        let toks = lex(&sm, file, &mut d);
        let _ = parse(&toks, &mut d);
    }
}

#[test]
fn a_punctuator_only_program_reports_and_ends() {
    let mut sm = SourceMap::new();
    let file = sm.add("p.cl", ")))]]]}}};;;");
    let toks = lex(&sm, file, &mut Diagnostics::new());
    assert!(toks
        .iter()
        .any(|t| t.kind == TokenKind::Punct(Punct::RParen)));
    let d = parse_tokens(&toks);
    assert!(d.error_count() >= 1);
}
