"""`irlint explore` as a server for the Model Explorer tests: started on a free port, awaited until it
prints the URL it serves (Model Explorer prints it once the extensions are loaded), always stopped."""

from __future__ import annotations

import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

HOST = "127.0.0.1"


@dataclass
class Served:
    base: str  # http://127.0.0.1:PORT
    url: str  # the page with the model and its node data, as the server printed it
    output: list[str]  # what the server printed so far


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@contextmanager
def explore(model: Path, *args: str, startup: float = 90) -> Iterator[Served]:
    """`irlint explore MODEL ARGS --no-open` on a free port; yields once it serves, stops it after."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "irlint", "explore", str(model), *args, "--no-open",
                             "--host", HOST, "--port", str(port)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:  # a reader thread: a silent server cannot block the test past its deadline
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + startup
        url = None
        while url is None:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"irlint explore did not start in {startup}s:\n" + "".join(seen)) from None
            if line is None:
                raise AssertionError(f"irlint explore exited ({proc.wait()}):\n" + "".join(seen))
            seen.append(line)
            if line.startswith(f"http://{HOST}:"):
                url = line.strip()
        yield Served(url.split("/?")[0].rstrip("/"), url, seen)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
