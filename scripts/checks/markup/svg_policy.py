"""What an SVG file published as it is may hold: parsed as the XML a browser reads (expat, what the browser uses
for an SVG document) and held to the SVG allowlist of scripts/checks/markup/html_policy.py; a DOCTYPE (its
entities would be expanded into markup) and processing instructions (xml-stylesheet) are refused."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from scripts.checks.markup.html_policy import Finding, _element_needles, _tree_findings
from scripts.checks.markup.html_syntax import SVG_NS, local_name, xml_elements

__all__ = ["svg_findings"]


def svg_findings(text: str) -> list[Finding]:
    """Every Finding of an SVG file, parsed as the XML a browser reads: the same SVG allowlist as inline SVG,
    and no DOCTYPE (its entities would be expanded into markup) or processing instruction (xml-stylesheet)."""
    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.IGNORECASE):
        return [
            Finding("<!DOCTYPE>", "an SVG file may not declare a DOCTYPE or entities", _element_needles("!doctype"))
        ]
    # A pull parser reports processing instructions before the root element too (a tree holds none of them).
    parser: ET.XMLPullParser = ET.XMLPullParser(events=("start", "pi"))
    try:
        parser.feed(text)
        parser.close()
    except ET.ParseError as exc:
        return [Finding("not well-formed XML", str(exc))]
    found: list[Finding] = []
    root: ET.Element | None = None
    events: Iterable[tuple[str, object]] = parser.read_events()  # type: ignore[assignment]  # typeshed's union of shapes
    for event, node in events:
        if not isinstance(node, ET.Element):
            continue  # "start" and "pi" events carry elements (a processing instruction is an Element of its own)
        if event == "pi":
            found.append(
                Finding(
                    f"<?{(node.text or '').split(' ')[0]} …?>",
                    "processing instructions can load style sheets from other hosts",
                    (r"<\?",),
                )
            )
        elif root is None:
            root = node
    if root is None:
        return found + [Finding("no root element", "an SVG file holds one <svg> element")]
    if local_name(root.tag) != (SVG_NS, "svg"):
        found.append(
            Finding(
                f"<{local_name(root.tag)[1]}>", 'an SVG file\'s root must be <svg xmlns="http://www.w3.org/2000/svg">'
            )
        )
    return found + _tree_findings(xml_elements(root), html_allowed=False)
