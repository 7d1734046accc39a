"""toolmatch's checks inside the eval frameworks people already run (docs/integrations.md).

One module per framework, each importing its framework only when one of its names is used:
``toolmatch.integrations.pydantic_evals``, ``.inspect_ai``, ``.langsmith``, ``.mlflow``,
``.deepeval`` and the others the page lists. Importing this package imports no framework.
"""
