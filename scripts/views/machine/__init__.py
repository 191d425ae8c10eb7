"""The "your machine" page (docs/machine.md): the form, the answer's place and the facts its script decides from
(page.py), the tables it shows without JavaScript (tables.py), the words of both languages (words.py)."""
