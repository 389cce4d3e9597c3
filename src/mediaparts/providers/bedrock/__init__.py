"""AWS Bedrock Converse: its media rules and `render` to `client.converse` arguments."""

from mediaparts.providers.bedrock._render import media_site, render
from mediaparts.providers.bedrock._tables import (
    COSTS,
    COSTS_SOURCE,
    RULES,
    VALID_NAME,
    VISION,
    VISION_SOURCE,
)

__all__ = [
    "COSTS",
    "COSTS_SOURCE",
    "RULES",
    "VALID_NAME",
    "VISION",
    "VISION_SOURCE",
    "media_site",
    "render",
]
