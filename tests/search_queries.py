"""Query set for search: what a reader types, and the page(s) of which at least one must be in the top 3.

Covers Chinese compounds typed without spaces, the same words in another order, sub-words (系统 in 存储系统),
English inflections, version numbers and API names; questions in both languages (the question words are
ignored), "latest", a typo, and facts that live in generated sections (install commands, the compatibility
matrix, breaking changes); version questions answered by the end-of-support page and the compatibility
matrix, not by a feature that happens to name the version; install questions answered by the release's
install section; a question about one release's compatibility answered by its matrix row, and an install question
naming a compute platform by the install section with it chosen; features by the release that introduced them. Pages are site-relative URLs of the reader's language; `page/#section` asks for that
section's own entry, shown in one of the first three result groups (tests/search_ui.py hit_at_3).
"""

from pathlib import Path

RELEASE_PAGES = Path(__file__).resolve().parents[1] / "docs" / "releases"


def newest_release() -> str:
    """The highest version with a page (versions and dates rise together)."""
    versions = {p.name.split(".md")[0] for p in RELEASE_PAGES.glob("*.md") if not p.name.endswith(".en.md")}
    return max(versions, key=lambda v: tuple(int(x) for x in v.split(".")))


NEWEST = newest_release()
# Releases whose official binaries support Python 3.12 / ship CUDA 12.1 (the compatibility data).
PYTHON_3_12 = ["2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12", "2.13", "2.14"]
CUDA_12_1 = ["2.1", "2.2", "2.3", "2.4", "2.5"]
COMPILER = ["2.0", "2.1", "2.2", "2.5"]

ZH = [
    ("分布式训练", ["releases/1.7/", "releases/1.8/", "releases/1.9/", "topics/distributed/"]),
    ("训练分布式", ["releases/1.7/", "releases/1.8/", "releases/1.9/", "topics/distributed/"]),
    ("混合精度", ["releases/1.6/"]),
    ("精度混合", ["releases/1.6/"]),
    ("自动混合精度", ["releases/1.6/"]),
    ("复数张量", ["releases/1.6/"]),
    ("复数自动微分", ["releases/1.8/", "releases/1.9/"]),
    ("内存分析器", ["releases/1.6/"]),
    ("分析器内存", ["releases/1.6/"]),
    ("图模式量化", ["releases/1.6/", "releases/1.8/"]),
    ("模块冻结", ["releases/1.6/", "releases/1.9/"]),
    ("确定性算法", ["releases/1.7/", "releases/1.9/"]),
    ("分布式 RPC", ["releases/1.4/", "releases/1.5/"]),
    ("张量并行", ["releases/2.3/"]),
    ("并行", ["releases/1.8/", "releases/2.3/", "releases/2.4/", "releases/1.6/", "topics/distributed/"]),
    ("编译", [f"releases/{v}/" for v in COMPILER] + ["topics/compiler/"]),
    ("量化", ["releases/1.3/", "topics/quantization/"]),
    ("1.6", ["releases/1.6/"]),
    ("2.0", ["releases/2.0/"]),
    ("torch.jit.fork", ["releases/1.6/"]),
    ("channels_last", ["releases/1.5/"]),
    ("特性生命周期", ["lifecycle/"]),
    # Questions, "latest", a typo.
    ("哪个版本加入了 AMP", ["releases/1.6/"]),
    ("torch.compile 是哪个版本加入的", ["releases/2.0/"]),
    ("什么时候引入了量化", ["releases/1.3/", "topics/quantization/"]),
    ("最新版本", [f"releases/{NEWEST}/"]),
    ("complie", [f"releases/{v}/" for v in COMPILER] + ["topics/compiler/"]),
    # Facts in generated sections: install commands, the compatibility matrix, breaking changes.
    ("Python 3.12", [f"releases/{v}/" for v in PYTHON_3_12] + ["compatibility/"]),
    ("CUDA 12.1", [f"releases/{v}/" for v in CUDA_12_1] + ["compatibility/"]),
    ("torchvision 0.15", ["releases/2.0/", "compatibility/"]),
    ("weights_only", ["releases/2.6/", "releases/2.4/"]),
    ("autocast 弃用", ["releases/2.4/"]),
    ("Python 3.7", ["releases/2.0/"]),
    ("torch.compile", ["releases/2.0/"]),
    ("从 1.13 升级到 2.0", ["compare/"]),
    ("python 3.8 停止支持", ["support/", "releases/2.5/"]),  # 2.5 dropped it
    # Version and install questions: the answer, not a feature that names the version (2.4's "torch.compile
    # 支持 Python 3.12").
    ("哪个版本支持 Python 3.12", ["support/#python", "compatibility/"]),
    ("哪些版本支持 CUDA 12.1", ["support/#cuda", "compatibility/"]),
    ("安装 1.8", ["releases/1.8/#install"]),
    # "Right today": the newest release (provisional 2.15) and what is supported now.
    (
        "PyTorch 2.15 支持 Python 3.10 吗",
        ["releases/2.15/", "support/#python", "support/#today-title", "compatibility/"],
    ),
    ("今天支持哪些 Python 版本", ["support/", "support/#today-title", "support/#python"]),
    # "What's new": the release's own page, not an older page that names the version in passing.
    ("2.14 有什么新特性", ["releases/2.14/"]),
    # 现在/目前 ask the same (现在 also holds the question character 在).
    ("现在支持哪些 Python 版本", ["support/", "support/#today-title", "support/#python"]),
    ("目前支持哪些 CUDA 版本", ["support/", "support/#today-title", "support/#cuda"]),
    ("怎么安装 2.0", ["releases/2.0/#install"]),
    # One release and a compatibility word: its row of the matrix (opened at the row); an install question naming a
    # compute platform: the release's install section with that choice (?compute=cpu#install).
    ("2.15 支持哪些 python", ["compatibility/#compat-2-15"]),
    ("1.12 支持哪些 python", ["compatibility/#compat-1-12"]),
    ("1.12 配套的 torchvision 是哪个版本", ["compatibility/#compat-1-12"]),
    ("怎么安装 1.12 的 CPU 版本", ["releases/1.12/#install"]),
    ("2.14 用 ROCm 怎么安装", ["releases/2.14/#install"]),
    # Features: the release that introduced them, an API name glossed in Chinese included.
    ("inference_mode 推理模式", ["releases/1.9/"]),
    ("PyTorch Hub", ["releases/1.1/"]),
    ("torch.fx 是哪个版本加入的", ["releases/1.8/"]),
    ("命名张量", ["releases/1.3/"]),
    ("FSDP 哪个版本加入", ["releases/1.12/"]),
    ("torch.export 什么时候引入", ["releases/2.1/"]),
    ("前向模式自动微分", ["releases/1.12/"]),
    ("torch.package 模型打包", ["releases/1.9/"]),
    # "My machine": the machine page (docs/machine.md), or the release the question ends at.
    ("GTX 1080 能用的最新 PyTorch", ["machine/"]),
    ("驱动 470 能用哪个 PyTorch", ["machine/"]),
    ("GLIBC_2.28 not found torch", ["machine/", "releases/2.7/"]),
    ("Intel Mac 能装的最新 PyTorch", ["machine/", "releases/2.2/"]),
    ("no kernel image is available for execution on the device", ["machine/"]),
    ("conda 频道最后一个版本", ["machine/", "releases/2.5/"]),
]

EN = [
    ("training", ["en/releases/1.7/", "en/releases/1.8/", "en/releases/1.12/", "en/releases/1.6/"]),
    ("distributed training", ["en/releases/1.7/", "en/releases/1.8/", "en/releases/1.9/", "en/topics/distributed/"]),
    ("training distributed", ["en/releases/1.7/", "en/releases/1.8/", "en/releases/1.9/", "en/topics/distributed/"]),
    ("mixed precision", ["en/releases/1.6/"]),
    ("precision mixed", ["en/releases/1.6/"]),
    ("complex tensors", ["en/releases/1.6/"]),
    ("memory profiler", ["en/releases/1.6/"]),
    ("profiling memory", ["en/releases/1.6/"]),
    ("dynamic quantization", ["en/releases/1.3/", "en/topics/quantization/"]),
    ("freezing", ["en/releases/1.6/", "en/releases/1.9/"]),
    ("deterministic algorithms", ["en/releases/1.7/", "en/releases/1.9/"]),
    ("deprecated", ["en/releases/2.2/", "en/releases/1.8/", "en/releases/1.9/", "en/releases/2.6/"]),
    ("releases", ["en/", "en/compare/"]),
    ("tensor parallelism", ["en/releases/2.3/"]),
    ("compiled", ["en/releases/2.0/", "en/topics/compiler/", "en/releases/2.5/", "en/releases/2.6/"]),
    ("torch.compile", ["en/releases/2.0/"]),
    ("1.6", ["en/releases/1.6/"]),
    ("2.0", ["en/releases/2.0/"]),
    ("torch.jit.fork", ["en/releases/1.6/"]),
    ("channels_last", ["en/releases/1.5/"]),
    ("feature lifecycle", ["en/lifecycle/"]),
    ("compare releases", ["en/compare/"]),
    # Questions, "latest", typos.
    ("which version added AMP", ["en/releases/1.6/"]),
    ("when was quantization introduced", ["en/releases/1.3/", "en/topics/quantization/"]),
    ("latest release", [f"en/releases/{NEWEST}/"]),
    (
        "does PyTorch 2.15 support Python 3.10",
        ["en/releases/2.15/", "en/support/#python", "en/support/#today-title", "en/compatibility/"],
    ),
    ("which Python versions are supported today", ["en/support/", "en/support/#today-title", "en/support/#python"]),
    ("what is new in 2.14", ["en/releases/2.14/"]),
    ("which Python versions are supported now", ["en/support/", "en/support/#today-title", "en/support/#python"]),
    ("which CUDA versions are currently supported", ["en/support/", "en/support/#today-title", "en/support/#cuda"]),
    ("newest version", [f"en/releases/{NEWEST}/"]),
    ("complie", [f"en/releases/{v}/" for v in COMPILER] + ["en/topics/compiler/"]),
    ("quantisation", ["en/releases/1.3/", "en/topics/quantization/"]),
    # Facts in generated sections: install commands, the compatibility matrix, breaking changes.
    ("Python 3.12", [f"en/releases/{v}/" for v in PYTHON_3_12] + ["en/compatibility/"]),
    ("CUDA 12.1", [f"en/releases/{v}/" for v in CUDA_12_1] + ["en/compatibility/"]),
    ("torchvision 0.15", ["en/releases/2.0/", "en/compatibility/"]),
    ("weights_only", ["en/releases/2.6/", "en/releases/2.4/"]),
    ("autocast deprecated", ["en/releases/2.4/"]),
    ("Python 3.7", ["en/releases/2.0/"]),
    ("upgrade from 1.13 to 2.0", ["en/compare/"]),
    ("when was python 3.8 dropped", ["en/support/", "en/releases/2.5/"]),
    # Version and install questions (see ZH).
    ("which version supports Python 3.12", ["en/support/#python", "en/compatibility/"]),
    ("which releases support CUDA 12.1", ["en/support/#cuda", "en/compatibility/"]),
    ("how to install pytorch 1.8", ["en/releases/1.8/#install"]),
    ("install 2.0", ["en/releases/2.0/#install"]),
    # One release and a compatibility word; an install question naming a compute platform (see ZH).
    ("which python does 2.15 support", ["en/compatibility/#compat-2-15"]),
    ("which python does 1.12 support", ["en/compatibility/#compat-1-12"]),
    ("which torchvision goes with 1.12", ["en/compatibility/#compat-1-12"]),
    ("how to install 1.12 CPU version", ["en/releases/1.12/#install"]),
    ("install 2.14 with ROCm", ["en/releases/2.14/#install"]),
    # Features (see ZH).
    ("inference_mode", ["en/releases/1.9/"]),
    ("PyTorch Hub", ["en/releases/1.1/"]),
    ("which version added torch.fx", ["en/releases/1.8/"]),
    ("named tensors", ["en/releases/1.3/"]),
    ("when was FSDP added", ["en/releases/1.12/"]),
    ("torch.export", ["en/releases/2.1/"]),
    ("forward-mode AD", ["en/releases/1.12/"]),
    ("CUDA graphs", ["en/releases/1.10/"]),
    # "My machine" (see ZH).
    ("latest pytorch for GTX 1080", ["en/machine/"]),
    ("which pytorch for nvidia driver 470", ["en/machine/"]),
    ("GLIBC_2.28 not found torch", ["en/machine/", "en/releases/2.7/"]),
    ("latest pytorch for intel mac", ["en/machine/", "en/releases/2.2/"]),
    ("no kernel image is available for execution on the device", ["en/machine/"]),
    ("pytorch conda channel last version", ["en/machine/", "en/releases/2.5/"]),
]

QUERIES = [("zh", q, pages) for q, pages in ZH] + [("en", q, pages) for q, pages in EN]
