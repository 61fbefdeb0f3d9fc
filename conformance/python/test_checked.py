"""Checked mode through pyopencl: every kernel of `conformance/checked/`
runs with `CRANECL_CHECK` set to the case's `@check`, and must yield exactly
the reports its `//! KIND` markers name (kind and line), all naming the
kernel, and a failed command; a case without markers must run cleanly.

Directives (one per line at the top of each file):
  // @check <CRANECL_CHECK value>
  // @options <build options>
  // @run <kernel> g=<x[,y]> l=<x[,y]> : <args>
  // @report <text>   (some report holds this text; several lines allowed)
args: buf(BYTES) (zero-filled), sub(PARENT,ORIGIN,BYTES) (a sub-buffer),
int(V), local(BYTES), null, images of CL_RGBA CL_FLOAT pixels (zeros):
image1d(W) image1darray(W,LAYERS) image2d(W,H) image2darray(W,H,LAYERS)
image3d(W,H,D), each with ",ro" or ",wo" last for CL_MEM_READ_ONLY or
CL_MEM_WRITE_ONLY (else READ_WRITE), and sampler(ADDRESSING[,norm][,linear])
(ADDRESSING: none, clamp_to_edge, clamp, repeat, mirrored_repeat;
unnormalized and nearest unless said).  Markers at the end of a line:
  //! invalid-read | invalid-write | index | divergence | race | uninit
  (several kinds, separated by spaces, where one line gives several reports)
  //! race-other   (the other access of a race: named in the report)
Reports are read from stderr (fd 2), where cranecl prints them.
"""
import os
import re
import tempfile
from pathlib import Path

import numpy as np
import pyopencl as cl
import pytest

pytestmark = pytest.mark.skipif(
    "cranecl" not in os.environ.get("CRANECL_PLATFORM", "cranecl"),
    reason="checked mode is cranecl's own",
)

CASES = sorted((Path(__file__).resolve().parents[1] / "checked").glob("*.cl"))
KINDS = {"invalid-read", "invalid-write", "index", "divergence", "race", "uninit"}


def parse(path):
    text = path.read_text()
    case = {"check": None, "options": "", "run": None, "expect": set(), "other": set(),
            "report": []}
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"//\s*@(\w+)\s*(.*)$", line)
        if m:
            key, val = m.group(1), m.group(2).strip()
            if key not in ("check", "options", "run", "report"):
                raise ValueError(f"{path.name}:{n}: unknown directive @{key}")
            if key == "report":
                case["report"].append(val)
            else:
                case[key] = val
        m = re.search(r"//!\s*([\w -]+?)\s*$", line)
        for kind in m.group(1).split() if m else []:
            if kind == "race-other":
                case["other"].add(n)
            elif kind in KINDS:
                case["expect"].add((kind, n))
            else:
                raise ValueError(f"{path.name}:{n}: unknown marker {kind}")
    assert case["check"] and case["run"], f"{path.name}: @check and @run are required"
    case["source"] = text
    return case


def kind_of(message):
    for prefix, kind in [
        ("invalid write", "invalid-write"),
        ("invalid read", "invalid-read"),
        ("index ", "index"),
        ("barrier divergence", "divergence"),
        ("data race", "race"),
        ("read of", "uninit"),
    ]:
        if message.startswith(prefix):
            return kind
    return "unknown: " + message


def make_args(ctx, spec):
    mf = cl.mem_flags
    args, keep = [], []
    for a in spec.split():
        m = re.match(r"(\w+)(?:\((.*)\))?$", a)
        name, inner = m.group(1), m.group(2)
        nums = [int(x) for x in inner.split(",") if x.isdigit()] if inner else []
        if name == "buf":
            b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(nums[0], np.uint8))
            args.append(b)
        elif name == "sub":
            parent = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(nums[0], np.uint8))
            keep.append(parent)
            args.append(parent.get_sub_region(nums[1], nums[2]))
        elif name == "int":
            args.append(np.int32(nums[0]))
        elif name == "local":
            args.append(cl.LocalMemory(nums[0]))
        elif name == "null":
            args.append(None)
        elif name.startswith("image"):
            parts = inner.split(",")
            flags = {"ro": mf.READ_ONLY, "wo": mf.WRITE_ONLY}.get(parts[-1], mf.READ_WRITE)
            dims = [int(x) for x in parts if x not in ("ro", "wo")]
            types = {
                "image1d": cl.mem_object_type.IMAGE1D,
                "image1darray": cl.mem_object_type.IMAGE1D_ARRAY,
                "image2d": cl.mem_object_type.IMAGE2D,
                "image2darray": cl.mem_object_type.IMAGE2D_ARRAY,
                "image3d": cl.mem_object_type.IMAGE3D,
            }
            desc = cl.ImageDescriptor()
            desc.image_type = types[name]
            desc.shape = tuple(dims + [0] * (3 - len(dims)))  # also sets array_size
            if name.endswith("array"):
                desc.array_size = dims[-1]
            zeros = np.zeros(int(np.prod(dims)) * 4, np.float32)
            fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
            args.append(cl.Image(ctx, flags | mf.COPY_HOST_PTR, fmt, desc=desc, hostbuf=zeros))
        elif name == "sampler":
            parts = inner.split(",")
            mode = getattr(cl.addressing_mode, parts[0].upper())
            filt = cl.filter_mode.LINEAR if "linear" in parts else cl.filter_mode.NEAREST
            args.append(cl.Sampler(ctx, "norm" in parts, mode, filt))
        else:
            raise ValueError(f"unknown argument {a}")
    return args, keep


def run_case(case):
    """Run one case; returns (failed, reports as (kind, line, text))."""
    os.environ["CRANECL_CHECK"] = case["check"]
    try:
        platform = next(p for p in cl.get_platforms() if "cranecl" in p.name)
        ctx = cl.Context(platform.get_devices())
    finally:
        del os.environ["CRANECL_CHECK"]
    q = cl.CommandQueue(ctx)
    head, args_spec = case["run"].split(":", 1)
    kname, *geom = head.split()
    sizes = dict(g.split("=") for g in geom)
    gsize = tuple(int(x) for x in sizes["g"].split(","))
    lsize = tuple(int(x) for x in sizes["l"].split(",")) if "l" in sizes else None
    prg = cl.Program(ctx, case["source"]).build(options=case["options"])
    args, keep = make_args(ctx, args_spec)
    failed = False
    with tempfile.TemporaryFile() as err:
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            ev = getattr(prg, kname)(q, gsize, lsize, *args)
            try:
                ev.wait()
            except cl.RuntimeError:
                failed = True
            status = ev.command_execution_status
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        text = err.read().decode(errors="replace")
    q.finish()
    reports = []
    blocks = re.split(r"(?m)^(?=<source>:\d+:\d+: error: )", text)
    for block in blocks:
        m = re.match(r"<source>:(\d+):(\d+): error: (.*)", block)
        if m:
            reports.append((kind_of(m.group(3)), int(m.group(1)), block))
    return failed or status < 0, status, reports, text


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_checked_case(path):
    case = parse(path)
    failed, status, reports, text = run_case(case)
    got = {(k, line) for k, line, _ in reports}
    if not case["expect"]:
        assert not failed and not reports, f"a clean kernel was reported:\n{text}"
        return
    assert failed and status < 0, f"the command did not fail (status {status}):\n{text}"
    assert got == case["expect"], f"expected {sorted(case['expect'])}, got {sorted(got)}:\n{text}"
    for _, _, block in reports:
        assert "kernel 'k'" in block, f"a report without the kernel's name:\n{block}"
    for n in case["other"]:
        assert any(f"<source>:{n}:" in b for _, _, b in reports), f"the other access (line {n}) is not named:\n{text}"
    for want in case["report"]:
        assert any(want in b for _, _, b in reports), f"no report says '{want}':\n{text}"


def test_at_least_forty_buggy_kernels():
    buggy = [p for p in CASES if parse(p)["expect"]]
    assert len(buggy) >= 40, len(buggy)
