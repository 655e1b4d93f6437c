"""What already holds, proved through the command line (issue 15, "keep what already holds"):
convert's output does not depend on --jobs, and convert and split need no network."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
SAMPLES = REPO_ROOT / "samples"


def chunkcli(*args: str | Path, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """`chunkcli ARGS` in a child process running this checkout's package."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    command = [*prefix, sys.executable, "-m", "chunkcli", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))}


def test_convert_output_is_byte_identical_with_one_or_two_jobs(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        shutil.copy(pdf, folder / pdf.name)
    for jobs in ("1", "2"):
        done = chunkcli("convert", folder, "-o", f"{tmp_path / jobs}/", "--jobs", jobs, "-q")
        assert (done.returncode, done.stderr) == (0, "")
    one, two = files_of(tmp_path / "1"), files_of(tmp_path / "2")
    assert sorted(one) == sorted(p.stem + ".md" for p in SAMPLES.glob("*.pdf"))
    assert one == two


def _network_namespace() -> tuple[str, ...] | None:
    """A command prefix that runs a child without network (`unshare -rn`: a new user and
    network namespace, only loopback inside), or None where the kernel or tool does not allow it."""
    if shutil.which("unshare") is None:
        return None
    for prefix in (("unshare", "-rn"), ("unshare", "-n")):
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=30)
        if probe.returncode == 0:
            return prefix
    return None


NO_NETWORK = _network_namespace()


@pytest.mark.skipif(
    NO_NETWORK is None,
    reason="no network namespace here: `unshare -rn` and `unshare -n` both fail "
    "(no unshare binary, or user/network namespaces not permitted)",
)
def test_convert_and_split_run_without_network(tmp_path: Path) -> None:
    assert NO_NETWORK is not None
    probe = [*NO_NETWORK, sys.executable, "-c", "import socket; print(socket.if_nameindex())"]
    inside = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    assert inside.stdout.strip() == "[(1, 'lo')]"  # the namespace has loopback only
    outputs = []
    for where, prefix in (("inside", NO_NETWORK), ("outside", ())):
        markdown, chunks = tmp_path / where / "outline.md", tmp_path / where / "outline.jsonl"
        markdown.parent.mkdir()
        converted = chunkcli("convert", SAMPLES / "outline.pdf", "-o", markdown, prefix=prefix)
        assert (converted.returncode, converted.stderr) == (0, "")
        split = chunkcli("split", markdown, "-o", chunks, prefix=prefix)
        assert split.returncode == 0, split.stderr
        outputs.append((markdown.read_bytes(), chunks.read_bytes()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0].startswith(b"<!-- chunkcli ") and outputs[0][1].count(b"\n") >= 1
