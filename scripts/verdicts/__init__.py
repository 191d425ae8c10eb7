"""The verdicts layer: one answer per version question, decided once per release from the catalog and the registry
evidence (`verdicts_of`, cached per build by `cached_verdicts`), held in typed, frozen records that the views
take. Pure decision functions in rules.py and install.py; the records in model.py. See ARCHITECTURE.md."""
