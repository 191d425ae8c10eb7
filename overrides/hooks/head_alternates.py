"""Let the page head carry hreflang and feed links without Material fetching a sitemap for each.

Material 9.7+ looks up every <link rel="alternate"> in the head and fetches "<its href>/../sitemap.xml"
to map pages between language versions for its "stay on page" switch. Our hreflang links are the page's
own URLs in each language (as search engines want them), so that lookup 404s twice per page view, and the
switch does not need it: static-i18n's header links already point at the same page in the other language.
The selector is narrowed, in the built bundle, to an attribute no link carries. Material is pinned; if its
bundle changes shape the build fails here instead of silently fetching again.
"""

from pathlib import Path

from mkdocs.plugins import event_priority

MATERIAL_SELECTOR = '"link[rel=alternate]"'
NARROWED_SELECTOR = '"link[rel=alternate][data-md-sitemap]"'


def narrow_alternate_lookup(bundle_js: str, where: str) -> str:
    if bundle_js.count(NARROWED_SELECTOR) == 1 and MATERIAL_SELECTOR not in bundle_js:
        return bundle_js  # static-i18n runs post_build once per language over the same site_dir
    count = bundle_js.count(MATERIAL_SELECTOR)
    if count != 1:
        raise RuntimeError(
            f"{where}: expected Material's alternate-link selector {MATERIAL_SELECTOR} once, found {count}"
        )
    return bundle_js.replace(MATERIAL_SELECTOR, NARROWED_SELECTOR)


@event_priority(-150)
def on_post_build(config):
    bundles = sorted((Path(config.site_dir) / "assets" / "javascripts").glob("bundle.*.min.js"))
    if len(bundles) != 1:
        raise RuntimeError(
            f"expected one Material bundle under {config.site_dir}/assets/javascripts, found {len(bundles)}"
        )
    bundle = bundles[0]
    bundle.write_text(narrow_alternate_lookup(bundle.read_text(encoding="utf-8"), str(bundle)), encoding="utf-8")
