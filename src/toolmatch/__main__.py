"""``python -m toolmatch``: the ``toolmatch`` command."""

from toolmatch._cli import main

raise SystemExit(main())
