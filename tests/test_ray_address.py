"""--ray-address that no cluster answers on: one line naming the address and what to do, exit
1, in seconds (Ray itself retries such an address for minutes). Real sockets, real Ray: a
closed port, and a port that accepts connections but is not a Ray cluster."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "outline.pdf"
# Far above the seconds these take (2-8 s at load 5): a guard against Ray's minutes of retries.
HANG_S = 90


def chunkcli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("RAY_ADDRESS", None)
    command = [sys.executable, "-m", "chunkcli", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=HANG_S)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def not_a_cluster() -> Iterator[int]:
    """A port that accepts connections and closes them at once."""
    server = socket.create_server(("0.0.0.0", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            connection.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield int(server.getsockname()[1])
    stop.set()
    thread.join()
    server.close()


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_closed_port_is_one_line_naming_the_address_and_what_to_do(
    tmp_path: Path, scheme: str
) -> None:
    address = f"{scheme}127.0.0.1:{closed_port()}"
    done = chunkcli("convert", str(SAMPLE), "-o", f"{tmp_path}/md/", "--engine", "ray",
                    "--ray-address", address)  # fmt: skip
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"error: --ray-address {address}: no Ray cluster answers at ")
    assert line.endswith(
        ":" + address.rsplit(":", 1)[1] + " (Connection refused): start one there "
        "(ray start --head) or leave out --ray-address for a local cluster"
    )
    assert not (tmp_path / "md").exists()


def test_a_port_that_is_not_a_ray_cluster_is_one_line(tmp_path: Path, not_a_cluster: int) -> None:
    # The node's address, as Ray would turn 127.0.0.1 into it, is where the server listens too.
    address = f"127.0.0.1:{not_a_cluster}"
    done = chunkcli("split", str(SAMPLE), "-o", str(tmp_path / "chunks.jsonl"), "--engine", "ray",
                    "--ray-address", address)  # fmt: skip
    assert done.returncode == 1
    [line] = done.stderr.splitlines()
    assert line.startswith(f"error: --ray-address {address}: ")
    assert f":{not_a_cluster} does not answer as a Ray cluster: " in line
    assert not (tmp_path / "chunks.jsonl").exists()
