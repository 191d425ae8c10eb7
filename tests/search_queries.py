"""Query set for search: what a reader types, and the page(s) of which at least one must be in the top 3.

Covers Chinese compounds typed without spaces, the same words in another order, sub-words (系统 in 存储系统),
English inflections, version numbers and API names. Pages are site-relative URLs of the reader's language.
"""

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
    ("编译", ["releases/2.0/", "releases/2.1/", "releases/2.2/", "releases/2.5/", "topics/compiler/"]),
    ("量化", ["releases/1.3/", "topics/quantization/"]),
    ("1.6", ["releases/1.6/"]),
    ("2.0", ["releases/2.0/"]),
    ("torch.jit.fork", ["releases/1.6/"]),
    ("channels_last", ["releases/1.5/"]),
    ("特性生命周期", ["lifecycle/"]),
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
]

QUERIES = [("zh", q, pages) for q, pages in ZH] + [("en", q, pages) for q, pages in EN]
