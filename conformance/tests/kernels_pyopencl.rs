//! pyopencl's kernel generators on cranecl: `ElementwiseKernel`,
//! `ReductionKernel`, `GenericScanKernel` (through `InclusiveScanKernel`)
//! and `pyopencl.array` arithmetic, each compared with numpy. Run with the
//! venv's Python (`scripts/install-deps.sh`; the generators need Mako) and a
//! loader that sees only cranecl. The second run in one test reloads the
//! programs from pyopencl's binary cache (`clCreateProgramWithBinary`).

use cranecl_conformance::{vendors_cranecl, venv_python, workspace_root};
use std::process::Command;

const SCRIPT: &str = r#"
import sys
import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import InclusiveScanKernel

plat = [p for p in cl.get_platforms() if "cranecl" in p.name][0]
ctx = cl.Context(plat.get_devices())
q = cl.CommandQueue(ctx)
rng = np.random.default_rng(7)
n = 100003
a = rng.random(n, dtype=np.float32)
b = rng.random(n, dtype=np.float32)
ag, bg = cla.to_device(q, a), cla.to_device(q, b)
checks = {}
lin = ElementwiseKernel(ctx, "float k, float *x, float *y, float *z", "z[i] = k * x[i] + y[i]", "lin")
zg = cla.empty_like(ag)
lin(np.float32(2.5), ag, bg, zg)
checks["elementwise"] = np.array_equal(zg.get(), np.float32(2.5) * a + b)
checks["array arithmetic"] = np.allclose((ag * bg + 3).get(), a * b + 3) and np.allclose((ag / (bg + 1)).get(), a / (b + 1))
dot = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]", arguments="float *x, float *y")
checks["reduction"] = bool(np.isclose(dot(ag, bg).get(), np.dot(a.astype(np.float64), b), rtol=1e-4))
checks["array sum"] = bool(np.isclose(cla.sum(ag).get(), a.sum(dtype=np.float64), rtol=1e-4))
checks["array max"] = float(cla.max(ag).get()) == float(a.max())
ints = (np.arange(n) % 7).astype(np.int32)
scan = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
checks["scan"] = np.array_equal(scan(cla.to_device(q, ints)).get(), np.cumsum(ints).astype(np.int32))
for k, v in checks.items():
    print(("ok   " if v else "FAIL ") + k)
sys.exit(0 if all(checks.values()) else 1)
"#;

#[test]
fn pyopencl_generators_agree_with_numpy() {
    let python = venv_python();
    assert!(
        python.exists(),
        "{} missing: run scripts/install-deps.sh (makes the venv with pyopencl, numpy, mako)",
        python.display()
    );
    let vendors = vendors_cranecl();
    for round in ["first run", "second run (binary cache)"] {
        let out = Command::new(&python)
            .current_dir(workspace_root())
            .args(["-c", SCRIPT])
            .env("OCL_ICD_VENDORS", &vendors)
            .output()
            .expect("run python");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        println!("{round}:\n{text}");
        assert!(
            out.status.success(),
            "{round} failed ({}):\n{text}",
            out.status
        );
        assert_eq!(text.matches("ok   ").count(), 6, "{round}:\n{text}");
    }
}
