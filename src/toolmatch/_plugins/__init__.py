"""toolmatch inside other tools: the pytest assertion plugin and inline-snapshot."""
