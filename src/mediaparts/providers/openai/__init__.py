"""OpenAI Chat Completions: its media rules, `render` and `media_site` (see `_render`)."""

from mediaparts.providers.openai._render import (
    COSTS,
    COSTS_SOURCE,
    OFFICE_TYPES,
    RULES,
    VISION,
    VISION_SOURCE,
    file_data_site,
    media_site,
    render,
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
