"""The views layer: HTML (or Markdown with HTML blocks) for every generated part of the site, from the catalog and
the verdicts. Views never see the registry evidence; see ARCHITECTURE.md."""
