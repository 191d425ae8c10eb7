"""Official dates and source URLs per release, transcribed from shared/reference/releases.md (section 1).

The tests hold their own copy so a page cannot drift from the reference unnoticed.
"""

OFFICIAL = {
    # 1.0 has no pytorch.org release post: the page cites the official roadmap post and says so.
    "1.0": ("2018-12-07", "https://pytorch.org/blog/the-road-to-1_0/"),
    "1.1": ("2019-05-01", "https://pytorch.org/blog/pytorch-adds-new-dev-tools/"),
    "1.2": ("2019-08-08", "https://pytorch.org/blog/pytorch-1.2-and-domain-api-release/"),
    "1.3": ("2019-10-10", "https://pytorch.org/blog/pytorch-1-dot-3-adds-mobile-privacy-quantization-and-named-tensors/"),
    "1.4": ("2020-01-15", "https://pytorch.org/blog/pytorch-1-dot-4-released-and-domain-libraries-updated/"),
    "1.5": ("2020-04-21", "https://pytorch.org/blog/pytorch-1-dot-5-released-with-new-and-updated-apis/"),
    "1.6": ("2020-07-28", "https://pytorch.org/blog/pytorch-1.6-released/"),
    "1.7": ("2020-10-27", "https://pytorch.org/blog/pytorch-1.7-released/"),
    "1.8": ("2021-03-04", "https://pytorch.org/blog/pytorch-1.8-released/"),
    "1.9": ("2021-06-15", "https://pytorch.org/blog/pytorch-1.9-released/"),
    "1.10": ("2021-10-21", "https://pytorch.org/blog/pytorch-1.10-released/"),
    "1.11": ("2022-03-10", "https://pytorch.org/blog/pytorch-1.11-released/"),
    "1.12": ("2022-06-28", "https://pytorch.org/blog/pytorch-1.12-released/"),
    "1.13": ("2022-10-28", "https://pytorch.org/blog/PyTorch-1.13-release/"),
    "2.0": ("2023-03-15", "https://pytorch.org/blog/pytorch-2.0-release/"),
    "2.1": ("2023-10-04", "https://pytorch.org/blog/pytorch-2-1/"),
    "2.2": ("2024-01-30", "https://pytorch.org/blog/pytorch2-2/"),
    "2.3": ("2024-04-24", "https://pytorch.org/blog/pytorch2-3/"),
    "2.4": ("2024-07-24", "https://pytorch.org/blog/pytorch2-4/"),
    "2.5": ("2024-10-17", "https://pytorch.org/blog/pytorch2-5/"),
    "2.6": ("2025-01-29", "https://pytorch.org/blog/pytorch2-6/"),
    "2.7": ("2025-04-23", "https://pytorch.org/blog/pytorch-2-7/"),
    # 2.8: date and URL known only from mirrors of the official blog; the page says so.
    "2.8": ("2025-08-06", "https://pytorch.org/blog/pytorch-2-8/"),
    "2.9": ("2025-10-15", "https://pytorch.org/blog/pytorch-2-9/"),
}

FOUNDING = ("1.0", "1.4", "1.5", "1.6", "1.9")

# Lifecycle transitions stated by the official posts (releases.md section 3): version -> label.
LIFECYCLE_SAMPLES = {
    "distributed-rpc": {"1.4": "Experimental", "1.5": "Stable"},
    "complex-autograd": {"1.8": "Beta", "1.9": "Stable"},
    "torch-fft": {"1.7": "Beta", "1.8": "Stable"},
    "torch-linalg": {"1.8": "Beta", "1.9": "Stable"},
    "torch-fx": {"1.8": "Beta", "1.10": "Stable"},
    "memory-profiler": {"1.6": "Beta", "1.7": "Stable"},
    "torch-compile": {"2.0": "Beta"},
    "native-amp": {"1.6": "Stable"},
}
