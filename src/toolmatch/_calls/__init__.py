"""The tool-call model: ``ToolCall``, tool definitions, and calls checked against them."""
