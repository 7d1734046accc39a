"""Spec files: matchers and test cases loaded from YAML or JSON, their errors, schema,
writing and editing, and the importers of benchmarks' ground truth."""
