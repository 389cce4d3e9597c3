"""`mp.configure`: the fetch settings (`fetching.configure`), how new messages are stamped
(`_stamps`), the default transforms and what an unknown model does, set in one call.

The fetching package is loaded only when a fetch setting is given, so that
`mp.configure(message_ids="uuid7")` does not import httpx.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from mediaparts import fetching
from mediaparts._conversation._stamps import UNSET, IdScheme, Unset, check_stamps, set_stamps
from mediaparts._errors import InvalidConfig
from mediaparts._models import check_unknown_models, set_unknown_models
from mediaparts.converting import TransformPolicy, set_default_transforms

if TYPE_CHECKING:
    import httpx

__all__ = ["configure"]


def configure(
    *,
    fetch: fetching.FetchPolicy | None = None,
    client: httpx.Client | None = None,
    async_client: httpx.AsyncClient | None = None,
    message_ids: IdScheme | Unset | None = UNSET,
    message_timestamps: bool | Unset = UNSET,
    transforms: TransformPolicy | None = None,
    unknown_models: Literal["warn", "error"] | None = None,
) -> None:
    """Set the default fetch policy, the httpx clients URL parts use, message stamping, and
    the default policy for converting audio, video, SVG and documents.

    An argument left out changes nothing: `configure()` alone is a no-op.

    Args:
        fetch: The policy every fetch uses unless a call passes its own.
        client: A client for synchronous loads (`part.data`, `part.load()`); the caller keeps
            ownership and closes it. Build it with `safe_client()` to keep the guarantee that
            connections go only to checked addresses.
        async_client: A client for `await part.aload()`; the caller keeps ownership
            (`safe_async_client()` keeps the guarantee).
        message_ids: Give every new message made without an id one: `"uuid4"` (random) or
            `"uuid7"` (time-ordered, RFC 9562); `None` turns it off (the default setting).
        message_timestamps: Give every new message made without a `created_at` the current
            time (UTC); `False` turns it off (the default setting).
        transforms: The `TransformPolicy` every `normalize` and `render` uses unless a call
            passes its own (`mp.using_transforms` sets one for a block of code).
        unknown_models: What a model that matches no row of a provider's model table does:
            `"warn"` (the default, also `MEDIAPARTS_UNKNOWN_MODELS`): the default rules are
            used, with an `mp.UnknownModelWarning` naming them; `"error"`: `mp.UnknownModel`.

    Raises:
        InvalidConfig: An argument is not of its type (checked before anything is set).
    """
    check_stamps(message_ids=message_ids, message_timestamps=message_timestamps)
    if unknown_models is not None:
        check_unknown_models(unknown_models)
    if transforms is not None and not isinstance(transforms, TransformPolicy):
        raise InvalidConfig(
            f"transforms must be a TransformPolicy, got {type(transforms).__name__}"
        )
    if fetch is not None or client is not None or async_client is not None:
        fetching.configure(fetch=fetch, client=client, async_client=async_client)
    set_stamps(message_ids=message_ids, message_timestamps=message_timestamps)
    if transforms is not None:
        set_default_transforms(transforms)
    if unknown_models is not None:
        set_unknown_models(unknown_models)
