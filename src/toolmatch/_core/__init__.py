"""What every layer uses: the typing shim, short value descriptions, immutable records,
notebook tables, the assignment algorithms and the ``public`` marker of exports."""
