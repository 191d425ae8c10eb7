"""The checks: site page checks, the HTML safety net's policy, links, Nu HTML, pip's resolver on the install
commands, the catalog against PyPI, upstream news and the project's own shape. They sit on top of every layer."""
