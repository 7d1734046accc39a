"""``python -m toolmatch``: the ``toolmatch`` command."""

from toolmatch._cli.main import main

raise SystemExit(main())
