"""toolmatch's benchmarks: every figure measured side by side, in one run, as a ratio.

Run them all with ``python -m benchmarks`` (``--quick`` for a smoke run, ``--help`` for
options). Each figure lives in its own module (``b1_inline_equality``, ...) exposing
``TITLE`` and ``run(config) -> Section``; :mod:`benchmarks.run` lists the modules.
"""
