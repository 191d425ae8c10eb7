"""The site's search index, built at build time: two files per language, loaded by the search worker
(docs/assets/javascripts/search/engine.js) when the reader opens search or first types.

Why prebuilt: tokenizing every page in the browser took most of the first query's time (both languages'
documents, a third of a second on a desktop, over a second on a slow phone). Here the build does it once;
the worker parses one language's JSON and looks words up.

What the file holds (`build_index`):
 - every document (a section of a page: the text under one heading with an id; the text before the first
   is the page's own), as plain text: the worker scans it for Chinese and cuts result snippets from it;
 - for Latin words, postings: per token (sorted, so the worker binary-searches and walks prefixes), the
   documents holding it with its count there and whether it is in the title.
Chinese needs no postings: the worker finds a query's characters and character bigrams by scanning the
documents' text (a few milliseconds); bigram postings would have made the file half as large again.

The Latin tokenizer must be the engine's, token for token (the engine tokenizes the query the same way):
words are lower-cased and lightly stemmed (`stem`); versions and API names (1.6, torch.jit.fork,
channels_last) are kept whole as well as split into their parts; a three-part version (2.0.1) also gives its
minor version (2.0), and a range of minor versions (3.8–3.11) each version inside it.
tests/test_search_engine.py checks the two against each other.

Two parts per language (`split_index`), so that the first answer on a slow network does not wait for
the full text (a third of a megabyte gzipped per language, 2.3 s on Fast 3G):
 - the first part (`search/index.<lang>.json`, at most HEAD_BUDGET bytes gzipped): every document's
   location, title, keywords, flags and size, without its text; the postings of the Latin tokens of titles
   and keywords, and of the versions and API names (`is_head_token`: 3.12, torch.compile, channels_last)
   wherever they occur, with their counts. Chinese is scanned in titles and keywords only;
 - the text part (`search/index.<lang>.text.json`): every document's text and the postings of every Latin
   token, which replace the first part's. The worker loads it right after the first part.

Left out of the documents: elements marked `data-search-exclude` (the release fact box's feature table,
which repeats the sections below it; the footer), form controls (the compatibility page's filters list
every version), permalink signs and the snippet checker's badges under code blocks.
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache

FORMAT_VERSION = 2
# Where each part of a language's index lies in the built site: JSON on the hosted site, a script in the
# offline copy (file:// cannot fetch).
INDEX_FILE = "search/index.{lang}{suffix}.{ext}"
PARTS = ("head", "text")  # in the order the worker loads them
PART_SUFFIX = {"head": "", "text": ".text"}
# Gzipped bytes the first part of one language's index may take: the first answer on Fast 3G (1.44 Mbit/s,
# 562.5 ms round trip) within a second leaves about 0.4 s of transfer (issue 23). tests/test_search_index.py.
HEAD_BUDGET = 60 * 1024

HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
WORD = re.compile(r"[a-z0-9_]+(?:[.\-][a-z0-9_]+)*")
PART_SPLIT = re.compile(r"[.:\-_]")
THREE_PART_VERSION = re.compile(r"^(\d+\.\d+)\.\d+$")
# "3.8–3.11" (en or em dash, as the site writes ranges): the minor versions inside it.
VERSION_RANGE = re.compile(r"(?<![\d.])(\d+)\.(\d+)\s*[–—]\s*(\d+)\.(\d+)(?![\d.])")

# Flags of a document, read by the engine.
FLAG_INTRODUCES = 1  # the section of the release that first lists a feature: ranks above later mentions
FLAG_INSTALL = 2  # a release's install section: first for "how to install 1.8", "安装 1.8"
FLAG_SUPPORT = 4  # the pages that answer "which releases support Python X / CUDA Y" (support, matrix)
FLAG_RELEASE_ROW = 8  # a release's row of the compatibility matrix: first for "which python does 2.15 support"

# A posting's value: count in the text (capped) * 4 + 2 if in the keywords + 1 if in the title. The engine
# turns it into a weight with the document's token count (the 4th field of a document), as it does for the
# Chinese it finds by scanning.
MAX_COUNT = 63


def normalize(text: str) -> str:
    """As the engine: NFKC, lower case, no zero-width spaces."""
    return unicodedata.normalize("NFKC", text).lower().replace("\u200b", "")


def stem(word: str) -> str:
    """A light English stemmer; the engine's `stem`, line for line."""
    if re.search(r"[^a-z]", word) or len(word) < 4:
        return word
    w = word
    if len(w) > 5 and w.endswith("ing"):
        w = w[:-3]
    elif w.endswith("ies"):
        w = w[:-3] + "y"
    elif len(w) > 4 and re.search(r"(ss|x|ch|sh)es$", w):
        w = w[:-2]
    elif len(w) > 4 and w.endswith("ed"):
        w = w[:-2]
    elif re.search(r"[^su]s$", w):
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    if len(w) > 3 and re.search(r"([b-df-hj-np-tv-z])\1$", w) and not re.search(r"(ll|ss|zz)$", w):
        w = w[:-1]
    return w


@cache  # the same words recur all over the site
def word_tokens(word: str) -> tuple[str, ...]:
    """Index tokens of one Latin word (as WORD matches it in normalized text)."""
    out = []
    parts = [p for p in PART_SPLIT.split(word) if p]
    if len(parts) > 1:
        out.append(word)
    if "_" in word and re.search(r"[.:\-]", word):
        out += [p for p in re.split(r"[.:\-]", word) if "_" in p]
    version = THREE_PART_VERSION.match(word)
    if version:
        out.append(version.group(1))
    out += [stem(p) for p in parts]
    return tuple(out)


def latin_tokens(text: str) -> list[str]:
    """The Latin tokens of a text, repeats included (they count)."""
    return _latin_tokens(normalize(text))


def _latin_tokens(norm: str) -> list[str]:
    out: list[str] = []
    for match in WORD.finditer(HAN.sub(" ", norm)):
        out += word_tokens(match.group(0))
    for match in VERSION_RANGE.finditer(norm):
        major, low, major_end, high = (int(g) for g in match.groups())
        if major == major_end and 0 <= high - low <= 20:
            out += [f"{major}.{minor}" for minor in range(low + 1, high)]
    return out


def han_token_count(text: str) -> int:
    """How many Chinese tokens (characters and bigrams) the engine sees in a text."""
    return sum(2 * len(run) - 1 for run in HAN.findall(text))


# --- sections of a page ------------------------------------------------------------------------------

# Markdown's HTML is regular (attributes quoted, `<` and `>` escaped inside them), so a tag pattern splits
# it, several times faster than html.parser on the site's 100+ pages.
TAG = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>", re.S)
ATTRIBUTE = re.compile(r"""([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
HEADINGS = {f"h{i}" for i in range(1, 7)}
# Whole subtrees that are not text a reader searches for.
SKIP_TAGS = {"script", "style", "object", "template", "svg", "select", "option", "button", "textarea"}
# Furniture that tools add around the content: permalink signs (¶) and the snippet checker's badges
# ("✓ runs on PyTorch 2.13" under every code block would make every section match "2.13").
SKIP_CLASSES = {"headerlink", "snippet-badge"}
# Tags whose text must not run into the next element's.
BLOCKS = HEADINGS | {
    "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "pre", "table", "tr", "td", "th", "caption", "thead", "tbody",
    "blockquote", "section", "article", "aside", "nav", "details", "summary", "figure", "figcaption", "br", "hr",
    "label", "header", "footer", "main", "form", "fieldset", "legend",
}  # fmt: skip


def _attributes(source: str) -> dict[str, str]:
    return {
        m.group(1).lower(): html.unescape(m.group(2) or m.group(3) or m.group(4) or "")
        for m in ATTRIBUTE.finditer(source)
    }


class _Section:
    def __init__(self, section_id: str | None, depth: int):
        self.id, self.depth = section_id, depth
        self.title: list[str] = []
        self.text: list[str] = []


# Code blocks are most of a page's tags (one span per highlighted token) and hold no headings: their
# markup goes in one substitution instead of one loop turn per tag.
CODE_BLOCK = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)


def _flatten_code(match: re.Match) -> str:
    return match.group(1) + TAG.sub("", match.group(2)) + match.group(3)


def _text(chunk: str) -> str:
    return html.unescape(chunk) if "&" in chunk else chunk


def _wanted_attributes(tag: str, source: str) -> dict[str, str]:
    """The attributes that matter here (id of a heading, exclusion markers); most tags (code highlighting
    spans) have none of them, and parsing every attribute list would double the time."""
    if (
        tag in HEADINGS
        or "data-search-exclude" in source
        or "data-search-section" in source
        or any(name in source for name in SKIP_CLASSES)
    ):
        return _attributes(source)
    return {}


def page_sections(page_html: str) -> list[tuple[str | None, str, str]]:
    """(heading id, or None for the page's own section; title; text) of every section of a page's HTML.

    As Material's search parser: a heading with an id starts a section, which ends with the element holding
    the heading (the home page's timeline entries wrap theirs in a div), the text after it going back to the
    section around it. An H1 before any text titles the page's own section."""
    page = _Section(None, 0)
    sections = [page]
    current = [page]  # sections still open, innermost last
    stack: list[tuple[str, bool]] = []  # open elements: (tag, starts a skipped subtree)
    open_tags: Counter[str] = Counter()
    skipping = 0
    heading: _Section | None = None

    def add(text: str) -> None:
        (heading.title if heading is not None else current[-1].text).append(text)

    page_html = CODE_BLOCK.sub(_flatten_code, page_html)
    position = 0
    for match in TAG.finditer(page_html):
        if not skipping and match.start() > position:
            add(_text(page_html[position : match.start()]))
        position = match.end()
        closing, tag = match.group(1), (match.group(2) or "").lower()
        if not tag:
            continue  # a comment
        if closing:
            if not open_tags[tag]:
                continue
            while stack:
                open_tag, skip = stack.pop()
                open_tags[open_tag] -= 1
                skipping -= skip
                if not skipping:
                    if open_tag in HEADINGS:
                        heading = None
                    if open_tag in BLOCKS:
                        add(" ")
                while len(current) > 1 and current[-1].depth > len(stack) + 1:
                    current.pop()
                if open_tag == tag:
                    break
            continue
        if tag in VOID:
            if tag in BLOCKS and not skipping:
                add(" ")
            continue
        attributes = _wanted_attributes(tag, match.group(3))
        skip = (
            tag in SKIP_TAGS
            or "data-search-exclude" in attributes
            or bool(SKIP_CLASSES & set(attributes.get("class", "").split()))
        )
        stack.append((tag, skip))
        open_tags[tag] += 1
        skipping += skip
        if skipping:
            continue
        if tag == "h1" and len(sections) == 1 and not page.title and not "".join(page.text).strip():
            heading = page  # the page's first heading, before any text, titles the page (id or not)
        elif "data-search-section" in attributes and attributes.get("id"):
            # An element that is a section by itself (a matrix row): titled by the attribute, ending with the element.
            section = _Section(attributes["id"], len(stack) + 1)
            section.title.append(attributes["data-search-section"])
            sections.append(section)
            current.append(section)
        elif tag in HEADINGS and attributes.get("id"):
            heading = _Section(attributes["id"], len(stack))
            sections.append(heading)
            current.append(heading)
        if tag in BLOCKS:
            add(" ")
    if not skipping and position < len(page_html):
        add(_text(page_html[position:]))
    return [(s.id, _clean(s.title), _clean(s.text)) for s in sections]


def _clean(parts: list[str]) -> str:
    return re.sub(r"\s+", " ", "".join(parts).replace("\u200b", "")).strip()


# --- the index ----------------------------------------------------------------------------------------


@dataclass
class Document:
    location: str
    title: str
    text: str
    flags: int = 0
    keywords: str = ""  # words the document answers to without saying them (e.g. "latest")


def page_documents(
    page_html: str,
    url: str,
    page_title: str,
    introduces: frozenset[str] | set[str] = frozenset(),
    keywords: str = "",
    section_flags: dict[str, int] | None = None,
    page_flags: int = 0,
) -> list[Document]:
    """A page's search documents: its own (titled by its H1, else `page_title`) and one per section with text
    or a title. `introduces`: ids of the features this release lists first (their sections get
    FLAG_INTRODUCES); `keywords` go to the page's own document; `section_flags`: flags of the sections with
    those ids; `page_flags`: flags of every document of the page."""
    docs = []
    for section_id, title, text in page_sections(page_html):
        if section_id is None:
            docs.append(Document(url, title or page_title, text, page_flags, keywords=keywords))
        elif title or text:
            flags = (
                page_flags
                | (FLAG_INTRODUCES if section_id in introduces else 0)
                | (section_flags or {}).get(section_id, 0)
            )
            docs.append(Document(f"{url}#{section_id}", title, text, flags))
    return docs


def _to36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def encode_postings(postings: list[tuple[int, int]]) -> str:
    """[(doc, value)] in doc order as "gap,value,gap,value" in base 36 (gap from the previous doc): one
    string per token parses at memory speed, and the engine decodes only the tokens a query looks up."""
    out: list[str] = []
    previous = 0
    for doc, value in postings:
        out += (_to36(doc - previous), _to36(value))
        previous = doc
    return ",".join(out)


def build_index(
    docs: list[Document],
    lang: str,
    upgrade: dict | None = None,
    releases: list[str] | None = None,
    install: dict[str, list[str]] | None = None,
) -> dict:
    """One language's index: its documents ([location, title, text, token count, flags, keywords]) and the
    postings of every Latin token. `upgrade`: the upgrade view's {location, title, text, versions}, offered
    first for a query that names two of `versions` and an upgrade ({from} and {to} in title and text).
    `releases`: the release versions, which a question such as "which python does 2.15 support" names (its
    answer is the release's matrix row, FLAG_RELEASE_ROW); `install`: per release, the compute platforms of its
    install picker (the picker's `compute` values: default, cpu, cuda-11.8, rocm-6.2 …), so that "install 1.12
    CPU" opens the install section with that choice (`?compute=cpu#install`)."""
    postings: dict[str, list[tuple[int, int]]] = {}
    entries = []
    for i, doc in enumerate(docs):
        norm = normalize(doc.text)
        text_tokens = _latin_tokens(norm)
        counts = Counter(text_tokens)
        in_title = set(latin_tokens(doc.title))
        in_keywords = set(latin_tokens(doc.keywords))
        for token in counts.keys() | in_title | in_keywords:
            value = min(counts.get(token, 0), MAX_COUNT) * 4 + 2 * (token in in_keywords) + (token in in_title)
            postings.setdefault(token, []).append((i, value))
        size = len(text_tokens) + han_token_count(norm)
        entries.append([doc.location, doc.title, doc.text, size, doc.flags] + ([doc.keywords] if doc.keywords else []))
    # Sorted as JavaScript compares strings (UTF-16 code units): the same as by code point here, where
    # every token is ASCII.
    tokens = sorted(postings)
    index = {
        "version": FORMAT_VERSION,
        "lang": lang,
        "docs": entries,
        "tokens": tokens,
        "postings": [encode_postings(postings[t]) for t in tokens],
    }
    if upgrade:
        index["upgrade"] = upgrade
    if releases:
        index["releases"] = releases
    if install:
        index["install"] = install
    return index


def decode_postings(encoded: str) -> list[tuple[int, int]]:
    """The inverse of `encode_postings`."""
    numbers = [int(n, 36) for n in encoded.split(",")] if encoded else []
    out, doc = [], 0
    for gap, value in zip(numbers[::2], numbers[1::2], strict=False):
        doc += gap
        out.append((doc, value))
    return out


VERSION_TOKEN = re.compile(r"\d+(?:\.\d+)+")
# What versions are versions of: "Python 3.12", "CUDA 12.1", "torchvision 0.15" find the same sections in
# the first part as in the whole index.
VERSIONED_NAMES = frozenset({"python", "cuda", "rocm", "torchvision", "torchaudio", "cudnn"})


def is_head_token(token: str) -> bool:
    """A version (3.12, 2.0.1), what it is a version of (VERSIONED_NAMES) or an API name (torch.compile,
    torchvision.io, channels_last): what a reader types to find a release or a feature, kept in the first
    part wherever it occurs. Other dotted names (x.shape, pytorch.org) are mostly the code examples' and
    stay in the text part: they would cost the first part a sixth more."""
    return (
        bool(VERSION_TOKEN.fullmatch(token))
        or token in VERSIONED_NAMES
        or (token.startswith("torch") and "." in token)
        or "_" in token
    )


def _head_postings(tokens: list[str], postings: list[str]) -> tuple[list[str], list[str]]:
    """The first part's postings: a version or API name as in the text part; any other token only where
    it is in a title or the keywords, with its count left out (the text is not in the first part)."""
    head_tokens, head_postings = [], []
    for token, encoded in zip(tokens, postings, strict=True):
        keep = [(doc, value if is_head_token(token) else value & 3) for doc, value in decode_postings(encoded)]
        keep = [(doc, value) for doc, value in keep if value]
        if keep:
            head_tokens.append(token)
            head_postings.append(encode_postings(keep))
    return head_tokens, head_postings


def split_index(index: dict) -> dict[str, dict]:
    """A whole index (`build_index`) as the parts the worker loads one after the other: {"head", "text"}
    (see the module's docstring). The text part's `texts` and postings complete the head's documents."""
    head_tokens, head_postings = _head_postings(index["tokens"], index["postings"])
    head = {
        "version": index["version"],
        "lang": index["lang"],
        "part": "head",
        "docs": [[doc[0], doc[1], ""] + doc[3:] for doc in index["docs"]],
        "tokens": head_tokens,
        "postings": head_postings,
    }
    for key in ("upgrade", "releases", "install"):
        if key in index:
            head[key] = index[key]
    text = {
        "version": index["version"],
        "lang": index["lang"],
        "part": "text",
        "count": len(index["docs"]),
        "texts": [doc[2] for doc in index["docs"]],
        "tokens": index["tokens"],
        "postings": index["postings"],
    }
    return {"head": head, "text": text}


INPUT = re.compile(r"<input\b((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>")


def install_choices(page_html: str) -> list[str]:
    """The compute platforms a release page's install picker offers (its radio buttons' values), in order."""
    choices = []
    for match in INPUT.finditer(page_html):
        attributes = _attributes(match.group(1))
        if attributes.get("name") == "compute" and attributes.get("value"):
            choices.append(attributes["value"])
    return list(dict.fromkeys(choices))


def index_file(lang: str, offline: bool, part: str = "head") -> str:
    return INDEX_FILE.format(lang=lang, suffix=PART_SUFFIX[part], ext="js" if offline else "json")


def index_json(index: dict) -> str:
    return json.dumps(index, ensure_ascii=False, separators=(",", ":"))


def script_key(lang: str, part: str = "head") -> str:
    """Where an index script registers its part: TIMELINE_SEARCH_INDEX["zh"], ["zh.text"]."""
    return lang + PART_SUFFIX[part]


def index_script(index: dict, key: str) -> str:
    """An index (part) as a script, for the offline copy (file:// cannot fetch). It registers itself on the
    global object under `key` (`script_key`); the data stays a JSON string, which parses faster than the
    same data as an object literal."""
    literal = json.dumps(index_json(index), ensure_ascii=False)
    return f"(self.TIMELINE_SEARCH_INDEX = self.TIMELINE_SEARCH_INDEX || {{}})[{json.dumps(key)}] = JSON.parse({literal});\n"


def read_index_script(script: str) -> dict:
    """The index inside a script written by `index_script`."""
    literal = re.search(r"JSON\.parse\((\".*\")\);\s*$", script, re.S)
    if not literal:
        raise ValueError("not a search index script")
    return json.loads(json.loads(literal.group(1)))


def unescape_title(title: str) -> str:
    """Page titles reach hooks HTML-escaped (overrides/hooks/page_meta_text.py); the index holds text."""
    return html.unescape(title or "")
