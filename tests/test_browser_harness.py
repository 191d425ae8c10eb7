"""The browser tests' own harness (tests/browser.py): its loopback server says nothing when a browser leaves a
page before a file has arrived (a test's log holds the test's errors, not the server's)."""

from __future__ import annotations

import socket
import struct

from browser import serve_directory


def test_a_reader_leaving_mid_transfer_prints_no_traceback(tmp_path, capsys):
    (tmp_path / "big.bin").write_bytes(b"x" * (32 << 20))  # more than the socket buffers hold
    with serve_directory(tmp_path) as base:
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as reader:
            reader.sendall(b"GET /big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert reader.recv(64).startswith(b"HTTP/1.0 200")
            # Close with a reset, as a browser leaving a page does: the server's next write fails.
            reader.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    # Leaving serve_directory joined the server's request threads: whatever they print has been printed.
    assert capsys.readouterr().err == ""
