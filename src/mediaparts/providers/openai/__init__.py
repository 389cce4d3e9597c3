"""OpenAI Chat Completions: its media rules, `render` and `media_site`.

The shapes follow the openai SDK's `ChatCompletionMessageParam` (openai-python 3.54, read
2026-08): text, `image_url`, `input_audio` and `file` content parts; assistant `tool_calls`;
`tool` messages whose content is text only.
"""

from mediaparts.providers.openai._render import file_data_site, media_site, render
from mediaparts.providers.openai._tables import (
    COSTS,
    COSTS_SOURCE,
    OFFICE_TYPES,
    RULES,
    VISION,
    VISION_SOURCE,
)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "OFFICE_TYPES",
    "RULES",
    "VISION",
    "VISION_SOURCE",
    "file_data_site",
    "media_site",
    "render",
]
