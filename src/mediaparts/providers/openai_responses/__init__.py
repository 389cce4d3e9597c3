"""OpenAI Responses API: its media rules and `render` to `responses.create` arguments."""

from mediaparts.providers.openai_responses._render import COSTS, RULES, media_site, render

__all__ = ["COSTS", "RULES", "media_site", "render"]
