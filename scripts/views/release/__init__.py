"""A release page's generated parts: the header (title, quick facts, fact box, feature table), the install section,
the breaking changes, the footer; `page.render` puts them around the page's own Markdown."""
