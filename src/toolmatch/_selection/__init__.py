"""Selection: expectations applied to a turn's calls, and the results that explain them."""
