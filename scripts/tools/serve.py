"""Serve a built site the way a static host does (`make serve`): files and folders' index.html as they are, and for
anything else the site's own bilingual 404 page with status 404, never a folder listing or Python's bare error page.
Bound to one address only (loopback by default); it reaches nothing else.

    python -m scripts.tools.serve [--directory site] [--bind 127.0.0.1] [--port 8000]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
from pathlib import Path

NOT_FOUND_PAGE = "404.html"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's file handler, answering a missing path (or a folder without index.html) with the site's 404."""

    def list_directory(self, path):
        return self.send_not_found()

    def send_error(self, code, message=None, explain=None):
        if code == http.HTTPStatus.NOT_FOUND and self.command in ("GET", "HEAD"):
            self.send_not_found()
            return
        super().send_error(code, message, explain)

    def send_not_found(self):
        """The site's 404.html with status 404; the body only for GET (send_head's contract: a file or None)."""
        page = Path(self.directory) / NOT_FOUND_PAGE
        if not page.is_file():
            super().send_error(http.HTTPStatus.NOT_FOUND)
            return None
        body = page.read_bytes()
        self.send_response(http.HTTPStatus.NOT_FOUND)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command == "GET":
            self.wfile.write(body)
        return None


def make_server(directory: Path, bind: str = "127.0.0.1", port: int = 8000) -> http.server.ThreadingHTTPServer:
    """A server for `directory` on (bind, port); port 0 picks a free one (server.server_address says which)."""
    handler = functools.partial(SiteHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer((bind, port), handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--directory", type=Path, default=Path("site"), help="the built site (default: site)")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    args = parser.parse_args(argv)
    if not (args.directory / NOT_FOUND_PAGE).is_file():
        print(f"{args.directory}: no {NOT_FOUND_PAGE}; build the site first (make build)", file=sys.stderr)
        return 1
    with make_server(args.directory, args.bind, args.port) as server:
        print(f"Serving {args.directory}/ at http://{args.bind}:{server.server_address[1]}/  (Ctrl-C to stop)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
