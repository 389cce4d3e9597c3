"""`sdk_kwargs`: the arguments of a provider's SDK call for a payload `render` returned."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mediaparts._boundary import Boundary
from mediaparts._errors import InvalidMedia, excerpt
from mediaparts.providers._registry import Provider, get

__all__ = ["sdk_kwargs"]

# Only MediaError leaves sdk_kwargs (see Boundary).
_CONVERTING = Boundary("converting a payload to SDK arguments")


def sdk_kwargs(payload: Mapping[str, Any], provider: str | Provider) -> dict[str, Any]:
    """Return the keyword arguments of the provider's SDK call for a payload.

    Most SDKs take what `render` returns as it is (`client.messages.create(model=...,
    **payload)`): for them this is a copy of the payload. Where the SDK's call differs from the
    request body (google-genai's `generate_content` takes `contents=` and `config=`), its wire
    says how (`sdk_kwargs`)::

        client.models.generate_content(model="gemini-2.5-flash", **mp.sdk_kwargs(payload, "gemini"))

    Args:
        payload: What `render` returned for the provider (or a body of that shape).
        provider: A provider name or `Provider`.

    Returns:
        New keyword arguments; the payload is left as it was.

    Raises:
        InvalidMedia: The payload is not of the wire's shape (the message names the path).
        InvalidConfig: A key of the payload has no place in the SDK's call.
        UnknownProvider: No provider has that name.
    """
    try:
        chosen = get(provider)
        if not isinstance(payload, Mapping):
            raise InvalidMedia(
                f"payload: expected a dict of keyword arguments, got {excerpt(payload)}"
            )
        convert = getattr(chosen.shape, "sdk_kwargs", None)
        if convert is None:
            return dict(payload)
        kwargs: dict[str, Any] = convert(payload, chosen)
        return kwargs
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _CONVERTING.reraise(exc)
