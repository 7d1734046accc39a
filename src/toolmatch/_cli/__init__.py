"""The ``toolmatch`` command: its subcommands, ``--update`` and its reports."""
