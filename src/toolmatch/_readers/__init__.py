"""Readers: the tool calls (and their results) in whatever a provider, SDK or framework
hands back, as ``ToolCall`` values (``to_calls``); one module per provider or framework."""
