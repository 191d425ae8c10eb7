"""Check every internal link and #anchor of a built site; list external links without fetching them.

    python -m scripts.checks.links SITE_DIR [--site-url URL] [--report FILE]

Reads every HTML file under SITE_DIR and follows each URL a page links to or loads (a/area/link href,
script/img/source/iframe/video/audio src, srcset): the target file must exist (a folder URL means its
index.html) and a #fragment must name an id (or <a name>) in the target page. URLs under --site-url (the
canonical, hreflang and Open Graph URLs of the hosted build) are checked against SITE_DIR too; without it
(the offline copy) they count as external. External links are never fetched: they are listed with the pages
that hold them, in --report or on stdout. Exits 1 and prints `page:line: ...` for each broken link.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

# Attributes that link to or load another resource, by tag.
LINK_ATTRS = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "script": ("src",),
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "iframe": ("src",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "embed": ("src",),
}
NOT_A_LOCATION = ("mailto:", "tel:", "javascript:", "data:", "blob:", "about:")
# A page-local base for resolving relative URLs; never fetched.
LOCAL = "http://site.invalid/"


@dataclass(frozen=True)
class Link:
    page: str  # site-relative path of the page holding it
    line: int
    url: str


@dataclass
class ParsedPage:
    ids: set[str] = field(default_factory=set)
    links: list[Link] = field(default_factory=list)


@dataclass
class LinkReport:
    pages: int = 0
    checked: int = 0
    broken: list[str] = field(default_factory=list)
    external: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))

    def external_listing(self) -> str:
        lines = [f"{len(self.external)} external URLs (not fetched), with the pages that link to them:"]
        for url in sorted(self.external):
            lines.append(url)
            lines.extend(f"    {page}" for page in sorted(self.external[url]))
        return "\n".join(lines) + "\n"


class _PageParser(HTMLParser):
    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.result = ParsedPage()

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if values.get("id"):
            self.result.ids.add(values["id"])
        if tag == "a" and values.get("name"):
            self.result.ids.add(values["name"])
        line = self.getpos()[0]
        for attr in LINK_ATTRS.get(tag, ()):
            value = values.get(attr)
            if not value:
                continue
            urls = (
                [part.strip().split()[0] for part in value.split(",") if part.strip()]
                if attr == "srcset"
                else [value.strip()]
            )
            self.result.links.extend(Link(self.page, line, url) for url in urls)

    handle_startendtag = handle_starttag


def parse_page(path: Path, site: Path) -> ParsedPage:
    parser = _PageParser(path.relative_to(site).as_posix())
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser.result


def target_file(site: Path, path: str) -> Path | None:
    """The file a site-relative URL path serves, the way a static host (or a browser on file://) does."""
    candidate = site / unquote(path)
    if path == "" or path.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def site_path(url: str, page: str, site_url: str | None) -> str | None:
    """The site-relative path a URL points at, or None when it leaves the site."""
    if site_url and url.startswith(site_url):
        return urlsplit(url[len(site_url) :]).path.lstrip("/")
    prefix = urlsplit(site_url).path if site_url else "/"
    if url.startswith(prefix) and not url.startswith("//"):
        # Root-relative (the 404 page's links): relative to where the site is hosted, e.g. /repo/.
        return urlsplit(url[len(prefix) :]).path
    absolute = urljoin(LOCAL + page, url)
    if not absolute.startswith(LOCAL):
        return None
    return urlsplit(absolute).path[len("/") :]


def check_site(site: Path, site_url: str | None = None) -> LinkReport:
    site = site.resolve()
    if site_url and not site_url.endswith("/"):
        site_url += "/"
    pages = {p.relative_to(site).as_posix(): parse_page(p, site) for p in sorted(site.rglob("*.html"))}
    report = LinkReport(pages=len(pages))
    for parsed in pages.values():
        for link in parsed.links:
            if link.url.lower().startswith(NOT_A_LOCATION):
                continue
            report.checked += 1
            path = site_path(link.url, link.page, site_url)
            if path is None:
                report.external[link.url].add(link.page)
                continue
            problem = broken_because(site, pages, path, urlsplit(link.url).fragment, link)
            if problem:
                report.broken.append(f"{link.page}:{link.line}: {link.url!r} {problem}")
    return report


def broken_because(site: Path, pages: dict[str, ParsedPage], path: str, fragment: str, link: Link) -> str | None:
    target = target_file(site, path)
    if target is None:
        return f"points at {path or '/'}, which is not in the build"
    if not fragment:
        return None
    key = target.relative_to(site).as_posix()
    if key not in pages:
        return f"has a #fragment but {key} is not an HTML page"
    if unquote(fragment) not in pages[key].ids:
        return f"names #{unquote(fragment)}, which {key} has no element with that id for"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.checks.links", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "site_dir", type=Path, help="a built site (mkdocs build --site-dir ...) or an unpacked offline copy"
    )
    parser.add_argument("--site-url", help="the hosted site's URL: absolute links under it are checked as internal")
    parser.add_argument("--report", type=Path, help="write the external-link listing here instead of stdout")
    args = parser.parse_args(argv)
    if not args.site_dir.is_dir():
        parser.error(f"{args.site_dir} is not a directory")
    report = check_site(args.site_dir, args.site_url)
    listing = report.external_listing()
    if args.report:
        args.report.write_text(listing, encoding="utf-8")
    else:
        print(listing, end="")
    for problem in report.broken:
        print(problem, file=sys.stderr)
    print(
        f"{report.pages} pages, {report.checked} links checked, {len(report.broken)} broken, {len(report.external)} external URLs listed",
        file=sys.stderr,
    )
    return 1 if report.broken else 0


if __name__ == "__main__":
    sys.exit(main())
