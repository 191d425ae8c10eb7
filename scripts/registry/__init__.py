"""The registry layer: what PyPI says about torch, torchvision and torchaudio (asked over the network only when
told to, read from the committed evidence file otherwise). It imports only the catalog's low-level helpers."""
