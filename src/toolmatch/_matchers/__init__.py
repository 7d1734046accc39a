"""Matchers: the ``Matcher`` base, literal equality and every matcher class, composition
and ``explain``. Imports nothing of toolmatch but ``_core``."""
