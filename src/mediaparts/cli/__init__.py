"""The `mediaparts` command line (also `python -m mediaparts`): `main` runs it.

Each command group is its own module: `_main` (parsing, `inspect`, `normalize`, `render`),
`_conversations` (`convert`, `show`), `_batch` (`batch write`, `batch read`), `_files` (file
names in and out) and `_urls` (URL settings and refusals).
"""

from mediaparts.cli._main import main

__all__ = ["main"]
