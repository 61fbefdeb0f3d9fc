"""Runs the GitHub Actions job of the README's "Testing kernels in CI"
section on this machine, as written: every `run:` command of every step,
in order, with bash, in a fresh workspace holding the example project
(`examples/ci/`, the job's own checkout) and a copy of this working tree
(the checkout of cranecl's repository the job names).

What a hosted runner does and this machine cannot is emulated, nothing
more: `actions/checkout` copies the trees above; steps that set up a
toolchain or a cache (`dtolnay/rust-toolchain`, `actions/setup-python`,
`actions/cache`) are skipped, the toolchain being installed here;
`$GITHUB_ENV` and `$GITHUB_PATH` are honoured between steps. `HOME` is a
fresh folder (so `install-user.sh` installs into it), and Cargo builds into
this tree's `target/` (`CARGO_TARGET_DIR`), reusing what is built.

Usage: readme_ci_job.py [README]  (exit 0 when every step passed)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = ("dtolnay/rust-toolchain", "actions/setup-python", "actions/cache", "Swatinem/rust-cache")


def job_from_readme(readme):
    text = readme.read_text()
    section = text.split("## Testing kernels in CI", 1)
    if len(section) != 2:
        sys.exit(f"{readme}: no '## Testing kernels in CI' section")
    m = re.search(r"```yaml\n(.*?)```", section[1], re.S)
    if not m:
        sys.exit(f"{readme}: the CI section holds no ```yaml block")
    workflow = yaml.safe_load(m.group(1))
    jobs = workflow["jobs"]
    if len(jobs) != 1:
        sys.exit("the README's workflow must hold one job")
    (name, job), = jobs.items()
    return name, job


def copy_tree(files_from, dest):
    """Copy the files git knows in `files_from` (tracked and untracked, not
    ignored: what a checkout of the working tree would hold) into `dest`."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "."],
        cwd=files_from, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = files_from / rel
        if not src.is_file():
            continue  # deleted in the working tree
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, out)


def main():
    readme = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "README.md"
    name, job = job_from_readme(readme)
    work = Path(tempfile.mkdtemp(prefix="cranecl-ci-job-"))
    home = work / "home"
    workspace = work / "workspace"
    home.mkdir()
    workspace.mkdir()
    real_home = Path(os.environ.get("HOME", "/root"))
    env = dict(os.environ)
    # The workflow's own variables only: nothing of the caller's OpenCL
    # setup leaks into the job.
    for k in list(env):
        if k.startswith(("CRANECL_", "OCL_ICD_", "PYOPENCL_", "GITHUB_")) or k == "VIRTUAL_ENV":
            del env[k]
    env.update(
        HOME=str(home),
        CARGO_HOME=os.environ.get("CARGO_HOME", str(real_home / ".cargo")),
        RUSTUP_HOME=os.environ.get("RUSTUP_HOME", str(real_home / ".rustup")),
        CARGO_TARGET_DIR=os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target")),
        PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR", str(real_home / ".cache" / "pip")),
        CI="true",
        GITHUB_WORKSPACE=str(workspace),
    )
    env["PATH"] = f"{env['CARGO_HOME']}/bin:{env['PATH']}"
    env.update({k: str(v) for k, v in (job.get("env") or {}).items()})
    github_env = work / "github_env"
    github_path = work / "github_path"
    print(f"== job '{name}' in {workspace}", flush=True)
    for n, step in enumerate(job["steps"], 1):
        title = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout"):
            with_ = step.get("with") or {}
            dest = workspace / with_.get("path", ".")
            if "repository" in with_:
                print(f"== step {n}: {title}: this working tree -> {dest}", flush=True)
                copy_tree(ROOT, dest)
            else:
                print(f"== step {n}: {title}: examples/ci -> {dest}", flush=True)
                copy_tree(ROOT / "examples" / "ci", dest)
            continue
        if uses:
            if not uses.startswith(SKIPPED):
                sys.exit(f"step {n}: no local stand-in for '{uses}'")
            print(f"== step {n}: {title}: skipped (set up on this machine)", flush=True)
            continue
        github_env.write_text("")
        github_path.write_text("")
        step_env = dict(env)
        step_env.update({k: str(v) for k, v in (step.get("env") or {}).items()})
        step_env.update(GITHUB_ENV=str(github_env), GITHUB_PATH=str(github_path))
        cwd = workspace / step.get("working-directory", ".")
        print(f"== step {n}: {title}", flush=True)
        r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", step["run"]], cwd=cwd, env=step_env)
        if r.returncode != 0:
            print(f"== step {n} failed with exit status {r.returncode}", flush=True)
            return 1
        for line in github_env.read_text().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                env[k] = v
        for line in github_path.read_text().splitlines():
            if line.strip():
                env["PATH"] = f"{line.strip()}:{env['PATH']}"
    print(f"== job '{name}' passed", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
