//! Host references for the kernel suite: the element types buffers hold,
//! the inputs a reference reads (each buffer's initial contents, by name),
//! what it answers ([`Want`]), the comparison, and the table of references
//! by name (one module per topic).

mod basic;
mod classic;
mod numeric;
mod sha512;
mod spaces;
mod vectors;

/// Element type of a buffer (OpenCL C scalar types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Ty {
    pub fn parse(s: &str) -> Result<Ty, String> {
        Ok(match s {
            "char" => Ty::I8,
            "uchar" => Ty::U8,
            "short" => Ty::I16,
            "ushort" => Ty::U16,
            "int" => Ty::I32,
            "uint" => Ty::U32,
            "long" => Ty::I64,
            "ulong" => Ty::U64,
            "float" => Ty::F32,
            "double" => Ty::F64,
            _ => return Err(format!("unknown type '{s}'")),
        })
    }
    pub fn size(self) -> usize {
        match self {
            Ty::I8 | Ty::U8 => 1,
            Ty::I16 | Ty::U16 => 2,
            Ty::I32 | Ty::U32 | Ty::F32 => 4,
            Ty::I64 | Ty::U64 | Ty::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
    /// A number as this type's bytes (integers wrap).
    pub fn encode(self, x: f64) -> Vec<u8> {
        match self {
            Ty::F32 => (x as f32).to_le_bytes().to_vec(),
            Ty::F64 => x.to_le_bytes().to_vec(),
            _ => (x as i128).to_le_bytes()[..self.size()].to_vec(),
        }
    }
    /// One element as an integer (by the type's signedness).
    fn int(self, b: &[u8]) -> i128 {
        let mut a = [0u8; 16];
        a[..b.len()].copy_from_slice(b);
        let u = u128::from_le_bytes(a);
        let bits = 8 * b.len() as u32;
        if self.is_signed() && u >> (bits - 1) & 1 == 1 {
            (u as i128) - (1i128 << bits)
        } else {
            u as i128
        }
    }
    fn float(self, b: &[u8]) -> f64 {
        match self {
            Ty::F32 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            _ => {
                let mut a = [0u8; 8];
                a.copy_from_slice(b);
                f64::from_le_bytes(a)
            }
        }
    }
}

/// The buffers' initial contents, by name.
pub struct Inputs {
    bufs: std::collections::HashMap<String, (Ty, Vec<u8>)>,
}

macro_rules! typed {
    ($($name:ident: $t:ty),*) => {$(
        pub fn $name(&self, buf: &str) -> Vec<$t> {
            let bytes = self.bytes(buf);
            bytes
                .chunks_exact(std::mem::size_of::<$t>())
                .map(|c| <$t>::from_le_bytes(c.try_into().expect("chunk of the type's size")))
                .collect()
        }
    )*};
}

// Every element type has an accessor, whether or not a reference uses it yet.
#[allow(dead_code)]
impl Inputs {
    pub fn new(bufs: std::collections::HashMap<String, (Ty, Vec<u8>)>) -> Inputs {
        Inputs { bufs }
    }
    fn bytes(&self, buf: &str) -> &[u8] {
        self.bufs
            .get(buf)
            .map(|b| b.1.as_slice())
            .unwrap_or_else(|| panic!("the reference reads buffer '{buf}', which the case lacks"))
    }
    typed!(i8: i8, u8: u8, i16: i16, u16: u16, i32: i32, u32: u32, i64: i64, u64: u64, f32: f32, f64: f64);
}

/// What a reference expects a buffer to hold (a prefix of it).
pub enum Want {
    I(Vec<i128>),
    F(Vec<f64>),
}

impl Want {
    pub fn ints<T: Into<i128>>(v: impl IntoIterator<Item = T>) -> Want {
        Want::I(v.into_iter().map(Into::into).collect())
    }
    pub fn f32s(v: impl IntoIterator<Item = f32>) -> Want {
        Want::F(v.into_iter().map(f64::from).collect())
    }
    pub fn f64s(v: impl IntoIterator<Item = f64>) -> Want {
        Want::F(v.into_iter().collect())
    }
}

/// Compare a buffer's bytes with what the reference wants.
pub fn compare(ty: Ty, got: &[u8], want: &Want, tol: f64) -> Result<(), String> {
    let n = got.len() / ty.size();
    let elems = got.chunks_exact(ty.size());
    let mut bad = Vec::new();
    let mut count = 0;
    match want {
        Want::I(w) => {
            if ty.is_float() || w.len() > n {
                return Err(format!(
                    "reference gives {} integers for a {n}-element {ty:?} buffer",
                    w.len()
                ));
            }
            for (i, (g, &w)) in elems.zip(w).enumerate() {
                let g = ty.int(g);
                if g != w {
                    count += 1;
                    if bad.len() < 6 {
                        bad.push(format!("[{i}] got {g} want {w}"));
                    }
                }
            }
        }
        Want::F(w) => {
            if !ty.is_float() || w.len() > n {
                return Err(format!(
                    "reference gives {} floats for a {n}-element {ty:?} buffer",
                    w.len()
                ));
            }
            for (i, (g, &w)) in elems.zip(w).enumerate() {
                let g = ty.float(g);
                let ok = (g.is_nan() && w.is_nan())
                    || g == w
                    || (tol > 0.0 && (g - w).abs() <= tol * w.abs().max(1.0));
                if !ok {
                    count += 1;
                    if bad.len() < 6 {
                        bad.push(format!("[{i}] got {g} want {w}"));
                    }
                }
            }
        }
    }
    if count == 0 {
        Ok(())
    } else {
        Err(format!("{count} elements differ: {}", bad.join(", ")))
    }
}

pub type RefFn = fn(&Inputs) -> Want;

/// Whether the host has fused multiply-add instructions: cranecl then
/// computes `a * b + c` in one expression with one rounding (OpenCL C's
/// `FP_CONTRACT`, on by default; `jit/src/lower/contract.rs`).
fn host_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        cfg!(target_arch = "aarch64")
    }
}

/// `a * b + c` as a kernel computes it in one expression (float).
pub fn contracted32(a: f32, b: f32, c: f32) -> f32 {
    if host_fma() {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `a * b + c` as a kernel computes it in one expression (double).
pub fn contracted64(a: f64, b: f64, c: f64) -> f64 {
    if host_fma() {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// The reference named `name`.
pub fn reference(name: &str) -> Option<RefFn> {
    [
        basic::REFS,
        numeric::REFS,
        vectors::REFS,
        classic::REFS,
        spaces::REFS,
    ]
    .iter()
    .flat_map(|t| t.iter())
    .find(|(n, _)| *n == name)
    .map(|(_, f)| *f)
}

#[test]
fn reference_names_are_unique() {
    let mut names: Vec<&str> = [
        basic::REFS,
        numeric::REFS,
        vectors::REFS,
        classic::REFS,
        spaces::REFS,
    ]
    .iter()
    .flat_map(|t| t.iter().map(|(n, _)| *n))
    .collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), n, "duplicate reference names");
}

#[test]
fn compare_reports_mismatches() {
    let got: Vec<u8> = [1i32, -2, 3].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert!(compare(Ty::I32, &got, &Want::ints([1, -2, 3]), 0.0).is_ok());
    assert!(compare(Ty::I32, &got, &Want::ints([1, 2, 3]), 0.0).is_err());
    let got: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    assert!(compare(Ty::F32, &got, &Want::f32s([1.0, 2.000001]), 1e-5).is_ok());
    assert!(compare(Ty::F32, &got, &Want::f32s([1.0, 2.1]), 1e-5).is_err());
}
