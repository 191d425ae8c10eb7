"""Running a page's python and pycon examples on real torch, host side: the sandbox (bubblewrap), the channel to
its supervisor, the units each example runs in, running and interpreting them, and matching their output."""
