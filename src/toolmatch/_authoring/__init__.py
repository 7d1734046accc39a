"""Spec authoring: specs written and widened from recorded runs, and fixed by them."""
