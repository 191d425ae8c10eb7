"""Facts transcribed from ../shared/reference (releases.md, releases-0.x.md, releases-2.10-plus.md,
compatibility.md, breaking-changes.md), and traps an audit found.

The tests hold their own copy so a page cannot drift from the reference unnoticed.
"""

# Release date as the site must show it (YYYY-MM when only the month is known) and the source it cites.
OFFICIAL = {
    # 0.x: no release post for 0.1 and 0.3; the "a year in" retrospective, the GitHub releases, the 0.4 guide.
    "0.1": ("2017-01", "https://pytorch.org/blog/a-year-in/"),
    "0.2": ("2017-08-05", "https://github.com/pytorch/pytorch/releases/tag/v0.2.0"),
    "0.3": ("2017-12", "https://github.com/pytorch/pytorch/releases/tag/v0.3.0"),
    "0.4": ("2018-04", "https://pytorch.org/blog/pytorch-0_4_0-migration-guide/"),
    # 1.0 has no pytorch.org release post: the page cites the official roadmap post and says so.
    "1.0": ("2018-12-07", "https://pytorch.org/blog/the-road-to-1_0/"),
    "1.1": ("2019-05-01", "https://pytorch.org/blog/pytorch-adds-new-dev-tools/"),
    "1.2": ("2019-08-08", "https://pytorch.org/blog/pytorch-1.2-and-domain-api-release/"),
    "1.3": (
        "2019-10-10",
        "https://pytorch.org/blog/pytorch-1-dot-3-adds-mobile-privacy-quantization-and-named-tensors/",
    ),
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
    # 2.10-2.14: known from faithful copies of the official posts; the pages say so.
    "2.10": ("2026-01-21", "https://pytorch.org/blog/pytorch-2-10-release-blog/"),
    "2.11": ("2026-03-23", "https://pytorch.org/blog/pytorch-2-11-release-blog/"),
    "2.12": ("2026-05-13", "https://pytorch.org/blog/pytorch-2-12-release-blog/"),
    "2.13": ("2026-07-08", "https://pytorch.org/blog/pytorch-2-13-release-blog/"),
    "2.14": ("2026-09-02", "https://pytorch.org/blog/pytorch-2-14-release-blog/"),
}
# Releases PyPI lists whose official post is not in the reference yet (compatibility.md: "exists on PyPI (torch
# 2.15.0) ✅ … no post found"): provisional pages, dated by PyPI's first upload day, sourced to their PyPI page.
PROVISIONAL = {
    "2.15": ("2026-10-28", "https://pypi.org/project/torch/2.15.0/"),
}
# The LTS line (compatibility.md, 1.8 row: "1.8.2 LTS … [P]"): release -> (LTS patch releases, source).
LTS = {"1.8": (("1.8.2",), "https://pytorch.org/get-started/previous-versions/")}
MONTH_ONLY = ("0.1", "0.3", "0.4")

FOUNDING = ("1.0", "1.4", "1.5", "1.6", "1.9")

# Lifecycle transitions stated by the official posts (releases.md section 3): version -> label.
LIFECYCLE_SAMPLES = {
    "distributed-rpc": {"1.4": "Experimental", "1.5": "Stable"},
    "complex-autograd": {"1.8": "unlabeled", "1.9": "Stable"},
    "torch-fft": {"1.7": "Beta", "1.8": "Stable"},
    "torch-linalg": {"1.8": "Beta", "1.9": "Stable"},
    "torch-fx": {"1.8": "Beta", "1.10": "Stable"},
    "memory-profiler": {"1.6": "Beta", "1.7": "Stable"},
    "torch-compile": {"2.0": "Beta"},
    "native-amp": {"1.6": "Stable"},
}

# Labels the release's own post does not print, which a page once showed (the label came from a later post,
# or prose was read as a label): (version, feature id) -> the label that post gives, None = not in that post.
LABEL_TRAPS = {
    ("1.8", "complex-autograd"): "unlabeled",  # the Beta is from the 1.9 post
    ("1.11", "fsdp"): None,  # the 1.11 post never mentions FSDP; the 1.12 post says a prototype shipped in 1.11
    ("2.12", "*"): "unlabeled",  # the 2.12 post prints no label at all
    ("0.1", "*"): "unlabeled",  # no maturity scheme before 1.0
    ("0.2", "*"): "unlabeled",
    ("0.3", "*"): "unlabeled",
    ("0.4", "*"): "unlabeled",
}

# How a post attaches a label, applied the same way in every release: its own classification (a tag, a
# heading, a column of its summary table) decides; a sentence decides only for a feature the post files
# nowhere else. (version, feature id) -> label.
LABELS_BY_RULE = {
    (
        "1.7",
        "custom-cpp-classes",
    ): "Stable",  # no heading; "several features moved to stable including custom C++ Classes"
    ("1.7", "memory-profiler"): "Stable",  # the same sentence
    ("1.8", "nccl-async-error-handling"): "Stable",  # no heading; "Stable level async error/timeout handling"
    ("1.8", "rpc-profiling"): "Stable",  # no heading; "stable support for RPC based profiling"
    ("1.7", "rpc-profiling"): "Beta",  # heading "[Beta] Enhancements to RPC-based Profiling"
    # the summary table files it under "Performance Improvements", not its Beta column; the prose's "beta BF16
    # symbolic shape support" is an adjective, shown in the row's note
    ("2.4", "inductor-cpu-bf16-dynamic-shapes"): "unlabeled",
    ("2.4", "aarch64-performance"): "unlabeled",  # the same column
}

# One id, one feature: ids an audit found naming two different things, and where each thing lives now.
ID_TRAPS = {
    # 1.13's "mps-backend" was the native Apple silicon builds; the MPS backend itself became Beta in 2.0.
    ("1.13", "mps-backend"): None,
    ("1.13", "apple-silicon-native-builds"): "Beta",
    ("2.0", "mps-backend"): "Beta",
    # one line of Arm work, one id
    ("2.9", "arm-performance"): None,
    # 2.10's "torch.compile respects the determinism switch" is compiler work, not the 1.7/1.9 switch itself:
    # under one id the switch's journey read Stable 1.9 -> API-Unstable 2.10, a relabel that never happened.
    ("2.10", "deterministic-algorithms"): None,
    ("2.10", "compile-deterministic-mode"): "API-Unstable",
    ("1.9", "deterministic-algorithms"): "Stable",
    # 1.7's Stable item was TorchElastic in the Docker image; 1.9's Beta one is TorchElastic moved into core.
    ("1.7", "torchelastic"): None,
    ("1.7", "torchelastic-docker-image"): "Stable",
    ("1.9", "torchelastic"): "Beta",
}
UNIFIED_IDS = {"aarch64-performance": "Hardware", "mps-backend": "Hardware", "flex-attention": "Compiler"}

# Pairings checked against the wheels' own Requires-Dist on PyPI (docs/.pypi-evidence.json):
# torch patch -> (torchvision, torchaudio).
PAIRINGS = {
    "1.3.0": ("0.4.1", "0.3.1"),
    "1.5.1": ("0.6.1", "0.5.1"),
    "1.7.1": ("0.8.2", "0.7.2"),
    "1.8.1": ("0.9.1", "0.8.1"),
    "1.12.1": ("0.13.1", "0.12.1"),
    "2.0.0": ("0.15.1", "2.0.1"),
    "2.0.1": ("0.15.2", "2.0.2"),
    "2.9.1": ("0.24.1", "2.9.1"),
    "2.14.0": ("0.29.0", "2.11.0"),
}

# The upgrade view 1.13 -> 2.6 must list these, each once, in this order (breaking-changes.md).
UPGRADE_1_13_TO_2_6 = [
    ("2.0", "python-3-7-dropped"),
    ("2.4", "device-specific-amp-deprecated"),
    ("2.6", "weights-only-default"),
]
