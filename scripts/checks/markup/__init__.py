"""What markup a page may publish: the HTML allowlist judged on the tree a browser builds (`html_policy`, with
`html_syntax` for namespaces and parse errors), and a page's own content held to the markup the site's code relies on
(`page_markup`, with the `reserved` ids, classes and attributes)."""
