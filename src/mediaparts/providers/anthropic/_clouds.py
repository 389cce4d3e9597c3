"""The Messages API as Google Cloud (Vertex AI) and Amazon Bedrock serve it: the first-party
API's rules, changed where Anthropic's pages say those routes differ, its model tables in the
model ids of the route.

What the routes share, read on platform.claude.com/docs/en/build-with-claude/vision (read
2026-12): "On Amazon Bedrock and Google Cloud, only base64-encoded sources are currently
available" (no `url` source, no Files API `file` source); the page's platform notes for Amazon
Bedrock and Google Cloud (Google managed) add a limit of 5 MB of base64 an image and a smaller
request (read in its German and Indonesian editions: "Limit pro Bild 5 MB (Base64-codiert)",
2026-12). What the routes do not share (the request size, the model ids, the batch envelope)
each route's package gives.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from mediaparts._errors import InvalidConfig
from mediaparts.providers._batching._types import request_fields
from mediaparts.providers._budgets._model_rows import ModelRule
from mediaparts.providers._rules import Rules
from mediaparts.providers.anthropic._tables import RULES

__all__ = ["batch_body", "on_cloud", "respelled"]

T = TypeVar("T")

_VISION = "platform.claude.com/docs/en/build-with-claude/vision (read 2026-12)"


def respelled(
    table: tuple[ModelRule[T], ...], spell: Callable[[str], str]
) -> tuple[ModelRule[T], ...]:
    """Return a model table with each pattern written in a route's model ids (`spell`); the
    catch-all `*` stays as it is."""
    return tuple(
        dataclasses.replace(row, pattern=row.pattern if row.pattern == "*" else spell(row.pattern))
        for row in table
    )


def on_cloud(
    name: str,
    spell: Callable[[str], str],
    *,
    ids_source: str,
    max_request_bytes: int,
    prices_id: str,
    **fields: Any,
) -> Rules:
    """Return the Messages API's rules as a cloud serves them, under `name`.

    Args:
        name: The provider's name.
        spell: Writes one of Anthropic's model patterns (`claude-sonnet-4-6*`) as the route's
            model ids are spelled.
        ids_source: Where the route's model ids are read, and when.
        max_request_bytes: The route's request size limit.
        prices_id: The route's provider id in genai-prices' data.
        fields: Other `Rules` fields of the route (`source`, `batch_*`).
    """
    with_ids = f"; model ids as {ids_source}"
    # The first-party Message Batches are not the routes' (each route's package has its own
    # batch envelope and limits, given in `fields`).
    batch: dict[str, Any] = {"batch_max_requests": None, "batch_max_bytes": None}
    batch["batch_source"] = ""
    image = dataclasses.replace(
        RULES.image, url_types=(), max_bytes=5 * 2**20, source=f"{RULES.image.source}; {_VISION}"
    )
    file = dataclasses.replace(RULES.file, url_types=(), source=f"{RULES.file.source}; {_VISION}")
    return dataclasses.replace(
        RULES,
        provider=name,
        vision=respelled(RULES.vision, spell),
        vision_source=RULES.vision_source + with_ids,
        text=respelled(RULES.text, spell),
        text_source=RULES.text_source + with_ids,
        costs=respelled(RULES.costs, spell),
        costs_source=RULES.costs_source + with_ids,
        prices_id=prices_id,
        image=image,
        file=file,
        max_request_bytes=max_request_bytes,
        **{**batch, **fields},
    )


def batch_body(
    custom_id: str,
    payload: dict[str, Any],
    params: Mapping[str, Any],
    provider: str,
    version: str,
) -> dict[str, Any]:
    """The Messages body of one batch line of a cloud route: the conversation, the route's
    `anthropic_version` and the caller's `params`, with `max_tokens` and no model (the batch
    job names the model on both routes).

    Raises:
        InvalidConfig: No `max_tokens` in `params`, `params` names a model, or sets a field
            the conversation wrote.
    """
    if "max_tokens" not in params:
        raise InvalidConfig(
            f"a {provider} batch line needs max_tokens: pass params={{'max_tokens': ...}} "
            f"({custom_id})"
        )
    if "model" in params:
        raise InvalidConfig(
            f"a {provider} batch line names no model: the batch job does ({custom_id})"
        )
    return request_fields(payload, {"anthropic_version": version, **params}, provider)
