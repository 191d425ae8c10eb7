"""Shared browser harness: Debian Chromium driven by Playwright, every non-local request aborted and counted.

Kept apart from the tests so search and offline tests (later issues) reuse the same fixture.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import shutil
import socketserver
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


def chromium_available() -> bool:
    return Path(CHROMIUM).exists() or shutil.which("chromium") is not None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature fixed by the base class
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):  # the browser left a page mid-transfer: not the test's error
            self.close_connection = True


class _WebHostHandler(_QuietHandler):
    """What a static host such as GitHub Pages adds: gzip for text when the browser accepts it, and a
    short cache lifetime (GitHub Pages sends max-age=600). For benchmarks that should not score the lack
    of compression of Python's http.server."""

    COMPRESSIBLE = {".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".map"}

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    # Each file is compressed once and then served from memory, as hosts and CDNs do: compressing on every
    # request took longer than a browser reading the search index, which benchmarks would then measure.
    _compressed: dict[tuple[str, float], bytes] = {}

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        if not (
            path.is_file() and path.suffix in self.COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            return super().do_GET()
        key = (str(path), path.stat().st_mtime)
        body = self._compressed.get(key) or self._compressed.setdefault(
            key, gzip.compress(path.read_bytes(), compresslevel=6)
        )
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def serve_directory(directory: Path, like_a_web_host: bool = False):
    """Serve `directory` over HTTP on a free loopback port; yields the base URL. like_a_web_host: gzip and
    cache headers, as the hosted site gets them."""
    handler = functools.partial(_WebHostHandler if like_a_web_host else _QuietHandler, directory=str(directory))
    socketserver.TCPServer.allow_reuse_address = True
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()


@dataclass
class BrowserLog:
    foreign_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.foreign_requests == [], f"requests to foreign hosts: {self.foreign_requests}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"
        assert self.page_errors == [], f"uncaught page errors: {self.page_errors}"


def is_local(url: str) -> bool:
    parsed = urlparse(url)
    if parsed.scheme in ("file", "data", "blob", "about"):
        return True
    return parsed.hostname in LOCAL_HOSTS


# One Chromium per Playwright instance (a test worker's session); each page gets a context of its own, which
# shares no cookies, storage, cache or service workers with any other. Starting Chromium per page cost ~0.6 s
# more, for ~150 pages a run. A browser that went away (a crash) is started again.
_browser: list[tuple[Any, Any]] = []  # (the Playwright instance, its Chromium)


def shared_browser(playwright):
    if _browser and _browser[0][0] is playwright and _browser[0][1].is_connected():
        return _browser[0][1]
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    _browser[:] = [(playwright, browser)]
    return browser


@contextmanager
def browser_page(playwright, **context_options):
    """A fresh Chromium page, in a context of its own, that aborts and records every request leaving this
    machine. context_options go to Playwright's new_context (e.g. color_scheme="dark", viewport=...)."""
    context = shared_browser(playwright).new_context(**context_options)
    log = BrowserLog()

    def route(route_, request):
        if is_local(request.url):
            route_.continue_()
        else:
            log.foreign_requests.append(request.url)
            route_.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on(
        "console",
        lambda msg: log.console_errors.append(f"{msg.text} @ {msg.location}") if msg.type == "error" else None,
    )
    page.on("pageerror", lambda exc: log.page_errors.append(str(exc)))
    page.on("requestfailed", lambda req: log.failed_requests.append(f"{req.url}: {req.failure}"))
    try:
        yield page, log
    finally:
        context.close()


def wait_until(page, condition, what: str, deadline_s: float = 60.0) -> None:
    """Let Playwright deliver its events (route handlers, requests) until `condition()` holds. A test that waits
    for something it controls waits here, never on a fixed timer; the deadline is a failure, not a pace."""
    end = time.monotonic() + deadline_s
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"still waiting after {deadline_s:.0f} s for {what}")
        page.wait_for_timeout(20)  # hands control to Playwright's event loop
