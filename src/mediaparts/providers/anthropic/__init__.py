"""Anthropic Messages API: its media rules and `render` to `messages.create` arguments."""

from mediaparts.providers.anthropic._render import (
    COSTS,
    COSTS_SOURCE,
    RULES,
    VISION,
    VISION_SOURCE,
    media_site,
    render,
)

__all__ = ["COSTS", "COSTS_SOURCE", "RULES", "VISION", "VISION_SOURCE", "media_site", "render"]
