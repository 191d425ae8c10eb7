"""C++ examples: tree-sitter parsing of each block, and g++ against libtorch's headers in a sandbox of its own."""
