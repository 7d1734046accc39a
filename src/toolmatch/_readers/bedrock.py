"""AWS Bedrock Converse: ``toolUse`` and ``toolResult`` content items (told by their key)."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = ["CALL_FREE_KEYS", "read_tool_result", "read_tool_use"]

# Keys of content items that hold no call and no result.
CALL_FREE_KEYS = ("reasoningContent", "image", "document", "video", "cachePoint", "guardContent")


def read_tool_use(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``toolUse`` content item."""
    inner = f"{where}.toolUse"
    use = as_data(data["toolUse"])
    if not isinstance(use, Mapping):
        raise wrong_shape(inner, "an object", use)
    reading.call(use.get("name"), use.get("input"), use.get("toolUseId"), inner)


def read_tool_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``toolResult`` content item; its ``status`` says whether the tool failed."""
    result = as_data(data["toolResult"])
    if not isinstance(result, Mapping):
        raise wrong_shape(f"{where}.toolResult", "an object", result)
    status = result.get("status")
    failed = None if status is None else status == "error"
    reading.result(result.get("toolUseId"), result.get("content"), failed)
