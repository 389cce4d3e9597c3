"""`python -m mediaparts` runs the command line."""

from mediaparts.cli import main

raise SystemExit(main())
