"""`make serve` (scripts/tools/serve.py) serves the built site as a static host does: the site's own bilingual
404 page with status 404 for anything missing, in either language's tree, and never a folder listing."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from scripts.tools.serve import main, make_server


@contextmanager
def serving(site):
    with make_server(site, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/"
        finally:
            server.shutdown()
            thread.join()


def fetch(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


@pytest.mark.parametrize("missing", ["missing/", "en/missing/", "en/releases/2.16/", "releases/9.9/", "nothing.html"])
def test_a_missing_url_gets_the_sites_own_404_page(built_site, missing):
    page = (built_site / "404.html").read_bytes()
    with serving(built_site) as base:
        status, kind, body = fetch(base + missing)
        assert (status, kind, body) == (404, "text/html; charset=utf-8", page)
        text = body.decode("utf-8")
        assert "data-not-found" in text and "页面不存在" in text and "Page not found" in text
        assert "Error response" not in text
        status, _, body = fetch(base + missing, method="HEAD")
        assert (status, body) == (404, b"")


def test_pages_and_assets_are_served_and_folders_are_not_listed(built_site):
    with serving(built_site) as base:
        status, kind, body = fetch(base + "en/releases/1.6/")
        assert status == 200 and kind.startswith("text/html") and b"PyTorch 1.6" in body
        assert fetch(base + "assets/javascripts/install.js")[0] == 200
        status, _, body = fetch(base + "assets/")  # a folder without index.html
        assert status == 404 and b"Directory listing" not in body and b"data-not-found" in body


def test_serving_a_folder_that_is_not_a_built_site_says_so(tmp_path, capsys):
    assert main(["--directory", str(tmp_path), "--port", "0"]) == 1
    assert "no 404.html; build the site first" in capsys.readouterr().err
