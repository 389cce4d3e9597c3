"""Fitted results remembered on the part: `normalize` of a part it has fitted before, with the
same inputs, returns what it worked out then, without decoding or converting again.

What a fitted result depends on, and so what it is remembered by: the part itself (it is
frozen, and its bytes, once loaded, never change; a copy remembers nothing), the provider record
(`with_rules`, `with_deployments` and each model's rules make new records, compared by
identity), the model, the detail level asked for, the transform policy (by identity) and
whether a count is estimating (video frames are then stand-ins). A result worked out for a model
some table does not know is not remembered: fitting it warns (or raises) every time.

The result kept does not refer to the part (that would keep the part alive in a reference
cycle): the references are put back on the copy returned.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import TypeAlias

from mediaparts._conversation._parts import MediaPart, TextPart
from mediaparts.converting import TransformPolicy
from mediaparts.providers._fitting._convert import is_estimating
from mediaparts.providers._fitting._normalized import NormalizedPart
from mediaparts.providers._registry import Provider

__all__ = ["Inputs", "fitting_inputs", "keep", "recall"]

Inputs: TypeAlias = "tuple[tuple[object, ...], tuple[Hashable, ...]] | None"
"""What a fitted result is remembered by: objects (by identity) and values (by equality), or
None when it must not be remembered."""

# `_guessed` of a provider record and model: matching the tables' patterns takes up to 35 µs,
# on every render of every part. Each entry holds its record, so the id in its key is that
# record's as long as the entry lives.
_GUESSED: dict[tuple[int, str], tuple[Provider, bool]] = {}
_GUESSED_KEPT = 512

# Pieces (by index) that are the part itself: a converted part's last media piece carries it.
_Kept: TypeAlias = tuple[NormalizedPart, tuple[int, ...]]


def fitting_inputs(
    provider: Provider,
    model: str | None,
    detail: str | None,
    policy: TransformPolicy,
    use: str = "normalize",
) -> Inputs:
    """Return what a result of `use` (`normalize`'s, or a count's of the same part) for these
    settings is remembered by, or None when it must not be."""
    if model is not None and _guessed(provider, model):
        return None
    return (provider, policy), (use, model, detail, is_estimating())


def _guessed(provider: Provider, model: str) -> bool:
    """Whether a table fitting reads (image sizes, media rates) has no row for the model: it
    then takes the default row with an `UnknownModelWarning` (or `UnknownModel`) each time."""
    key = (id(provider), model)
    found = _GUESSED.get(key)
    if found is not None and found[0] is provider:
        return found[1]
    rules = provider.rules
    guessed = any(
        table and not any(row.matches(model) for row in table)
        for table in (rules.vision, rules.costs)
    )
    if len(_GUESSED) >= _GUESSED_KEPT:  # model names come from callers: bounded
        _GUESSED.clear()
    _GUESSED[key] = (provider, guessed)
    return guessed


def recall(media: MediaPart, inputs: Inputs) -> NormalizedPart | None:
    """Return the result remembered for these inputs, made the part's again; None if none."""
    found: _Kept | None = None if inputs is None else media._recall(*inputs)
    if found is None:
        return None
    kept, own = found
    return dataclasses.replace(kept, part=media, pieces=_pieces(kept, own, media))


def keep(media: MediaPart, inputs: Inputs, made: NormalizedPart) -> NormalizedPart:
    """Remember `made` (worked out from `media` with these inputs) on the part; return it."""
    if inputs is None or made.part is not media:
        return made
    own = _own(made, media)
    kept = dataclasses.replace(made, part=None, pieces=_pieces(made, own, None))
    if not _refers(kept, media):  # a deeper piece that is the part: not worth a cycle
        media._keep(*inputs, (kept, own))
    return made


def _own(made: NormalizedPart, media: MediaPart) -> tuple[int, ...]:
    """The indexes of `made`'s pieces that are pieces of `media` itself."""
    if not made.pieces:
        return ()
    return tuple(
        i for i, p in enumerate(made.pieces) if isinstance(p, NormalizedPart) and p.part is media
    )


def _pieces(
    made: NormalizedPart, own: tuple[int, ...], part: MediaPart | None
) -> tuple[NormalizedPart | TextPart, ...]:
    """`made`'s pieces, those at `own` made pieces of `part` (None: of no part)."""
    if not own:
        return made.pieces
    return tuple(
        dataclasses.replace(p, part=part) if i in own and isinstance(p, NormalizedPart) else p
        for i, p in enumerate(made.pieces)
    )


def _refers(made: NormalizedPart, media: MediaPart) -> bool:
    return made.part is media or any(
        isinstance(p, NormalizedPart) and _refers(p, media) for p in made.pieces
    )
