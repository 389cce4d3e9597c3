"""Google Gemini API: its media rules and `render` to a `generateContent` request body."""

from mediaparts.providers.gemini._render import media_site, render
from mediaparts.providers.gemini._tables import (
    COSTS,
    COSTS_SOURCE,
    RULES,
    VISION,
    VISION_SOURCE,
)

__all__ = ["COSTS", "COSTS_SOURCE", "RULES", "VISION", "VISION_SOURCE", "media_site", "render"]
