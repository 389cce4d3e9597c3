"""Shared fixtures: the testdata folder, the shared corpus, a real local HTTP server, and a
Pillow that fails the test when asked for pixels; bytecode for the Python processes the tests
start, and a guard for rewriting golden files."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from PIL import Image, ImageFile

from tests._builders import ROOT, TESTDATA

# CI runs the property tests with a fixed seed, so a run is repeatable; locally they explore.
# MEDIAPARTS_HYPOTHESIS=long searches much harder (run it before a release).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("long", max_examples=5000)
if os.environ.get("MEDIAPARTS_HYPOTHESIS"):
    settings.load_profile(os.environ["MEDIAPARTS_HYPOTHESIS"])
elif os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_cmdline_main(config: pytest.Config) -> None:
    """Refuse to rewrite golden files with parallel workers (`-n`): a test reads a page, changes
    its part and writes the page back (docs/cli.md has one part per command), so two processes
    doing it at once would lose each other's edits."""
    if os.environ.get("MEDIAPARTS_UPDATE_GOLDEN") == "1" and config.getoption("tx", None):
        raise pytest.UsageError(
            "MEDIAPARTS_UPDATE_GOLDEN=1 rewrites files that several tests share: run it in one "
            "process, without -n (or with -n 0)"
        )


@pytest.fixture(scope="session", autouse=True)
def _children(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Give the Python processes the tests start cached bytecode, outside the clone, and no
    coverage measurement.

    Bytecode: CI sets PYTHONDONTWRITEBYTECODE, so that a run writes nothing into the clone;
    then each child Python the tests start (the CLI, import checks, pytest runs of the plugin,
    the limits harness) compiled mediaparts again. Those children write and read their bytecode
    in one folder of the run's temporary files instead (PYTHONPYCACHEPREFIX), shared by the
    workers of a parallel run. This process and the workers keep the setting they were given:
    a folder of their own would make each compile its dependencies too.

    Coverage: CI measures this process and the workers of a parallel run (coverage's
    COVERAGE_PROCESS_START or COVERAGE_PROCESS_CONFIG); the children the tests start are not
    measured, as in a run in one process: the limits harness bounds their CPU and memory.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("COVERAGE_PROCESS_START", raising=False)
        patch.delenv("COVERAGE_PROCESS_CONFIG", raising=False)
        if sys.dont_write_bytecode and not os.environ.get("PYTHONPYCACHEPREFIX"):
            run = tmp_path_factory.getbasetemp()
            if os.environ.get("PYTEST_XDIST_WORKER"):
                run = run.parent  # each worker's folder is in the run's
            patch.setenv("PYTHONPYCACHEPREFIX", str(run / "pycache"))
            patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield


def corpus_dir() -> Path | None:
    """Return the shared corpus folder, or None when this checkout has none beside it."""
    configured = os.environ.get("MEDIAPARTS_CORPUS")
    candidate = Path(configured) if configured else ROOT.parent / "shared" / "corpus"
    return candidate if (candidate / "manifest.tsv").is_file() else None


@pytest.fixture(autouse=True)
def _no_stamping_leaks() -> Iterator[None]:
    """Put message stamping back as it was after every test (a doc example may turn it on)."""
    from mediaparts._conversation._stamps import set_stamps, stamps

    ids, timestamps = stamps()
    yield
    set_stamps(message_ids=ids, message_timestamps=timestamps)


@pytest.fixture
def testdata() -> Path:
    """The folder of files made by testdata/make.py."""
    return TESTDATA


@pytest.fixture
def corpus() -> Path:
    """The shared corpus of real files; skips the test when it is absent."""
    found = corpus_dir()
    if found is None:
        pytest.skip("the shared corpus is absent (set MEDIAPARTS_CORPUS to its folder)")
    return found


class PixelsDecoded(BaseException):
    """Pillow was asked for pixels (a BaseException, so no `except Exception` hides it)."""


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every Pillow `load()` (base classes and each plugin's own) fail the test."""
    import pillow_heif

    pillow_heif.register_heif_opener()
    Image.init()

    def refuse(self: Image.Image, *args: Any, **kwargs: Any) -> None:
        raise PixelsDecoded(f"{type(self).__name__}.load() was called")

    classes = {Image.Image, ImageFile.ImageFile}
    classes |= {factory for factory, _ in Image.OPEN.values() if isinstance(factory, type)}
    for cls in classes:
        if "load" in vars(cls):
            monkeypatch.setattr(cls, "load", refuse)


@dataclass
class Route:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    stall_after: int | None = None  # send this many body bytes, then stop sending
    delay: float = 0.0


@dataclass
class LocalServer:
    """A real HTTP server on 127.0.0.1 whose routes a test sets."""

    base: str
    routes: dict[str, Route]
    hits: dict[str, int]
    cookies: list[str | None] = field(default_factory=list)  # each request's Cookie header

    def add(self, path: str, body: bytes = b"", **options: object) -> str:
        self.routes[path] = Route(body=body, **options)  # type: ignore[arg-type]
        return self.base + path


def _handler(server_state: LocalServer, stop: threading.Event) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path
            server_state.hits[path] = server_state.hits.get(path, 0) + 1
            server_state.cookies.append(self.headers.get("Cookie"))
            route = server_state.routes.get(path)
            if route is None:
                self.send_error(404)
                return
            if route.delay:
                time.sleep(route.delay)
            self.send_response(route.status)
            for name, value in route.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            if route.stall_after is None:
                self.wfile.write(route.body)
                return
            self.wfile.write(route.body[: route.stall_after])
            self.wfile.flush()
            stop.wait(10)  # hold the connection open without sending more

    return Handler


@pytest.fixture
def local_server() -> Iterator[LocalServer]:
    """Serve test-defined routes from a real server on 127.0.0.1."""
    stop = threading.Event()
    state = LocalServer(base="", routes={}, hits={})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state, stop))
    server.daemon_threads = True
    state.base = f"http://127.0.0.1:{server.server_address[1]}"
    # Polled every 50 ms, as tests/fetching/servers.py's: shutdown() waits for the next poll
    # (0.5 s by default, on every test that uses the server).
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield state
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
