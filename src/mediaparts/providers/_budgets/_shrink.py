"""Cheaper copies of a conversation's images, for `trim(shrink_images=True)`.

An image's cheapest form is a lower `detail` level the provider prices lower, else a copy
whose long side is `side` pixels (decoded and re-encoded; never enlarged), kept only when
`count_tokens` counts it lower. Copies are made lazily, message by message, as trim asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

from mediaparts._conversation._messages import Message
from mediaparts._conversation._parts import Detail, ImagePart
from mediaparts._errors import MediaError, UnsupportedMediaType, rewrap
from mediaparts.imaging import fit_image
from mediaparts.providers._budgets._count import TokenCount, count_tokens
from mediaparts.providers._fitting._image_spec import image_spec
from mediaparts.providers._registry import Provider

__all__ = ["Shrinker"]

_DETAILS: tuple[str, ...] = get_args(Detail)


class Shrinker:
    """Finds each message's images' cheaper copies, once, when first asked."""

    def __init__(
        self,
        messages: Sequence[Message],
        counted: TokenCount,
        provider: Provider,
        model: str | None,
        side: int,
    ) -> None:
        self._messages = messages
        self._counted = counted
        self._provider = provider
        self._model = model
        self._side = side
        self._found: dict[int, list[tuple[int, ImagePart, int]]] = {}

    def cheaper(self, index: int) -> list[tuple[int, ImagePart, int]]:
        """Message `index`'s images that have a cheaper form: (part index, copy, tokens saved)."""
        found = self._found.get(index)
        if found is None:
            counts = {p.index: p for p in self._counted.messages[index].parts}
            found = []
            for at, part in enumerate(self._messages[index].parts):
                known = counts.get(at)
                if (
                    not isinstance(part, ImagePart)
                    or part.file_id is not None  # in a file store: no pixels here to shrink
                    or known is None
                    or known.method == "unknown"
                    or known.tokens == 0  # not sent (another store's file): nothing to save
                ):
                    continue
                try:
                    smaller = self._cheapest(part, known.tokens)
                except MediaError as exc:
                    error = rewrap(exc, f"trim: cannot shrink message {index} part {at}: {exc}")
                    raise error from exc
                if smaller is not None:
                    found.append((at, smaller[0], known.tokens - smaller[1]))
            self._found[index] = found
        return found

    def saving(self, index: int) -> int:
        """The tokens message `index` saves with every image at its cheapest."""
        return sum(saved for _, _, saved in self.cheaper(index))

    def _cheapest(self, image: ImagePart, tokens: int) -> tuple[ImagePart, int] | None:
        """A lower detail level that costs less, else a smaller copy that does, else None."""
        best: tuple[ImagePart, int] | None = None
        for level in self._provider.rules.image.detail_levels:
            if level not in _DETAILS or level == image.detail:
                continue
            lower = image.model_copy(update={"detail": level})
            cost = self._tokens(lower)
            if cost is not None and cost < (tokens if best is None else best[1]):
                best = lower, cost
        if best is not None:
            return best
        smaller = self._smaller(image)
        cost = None if smaller is None else self._tokens(smaller)
        if smaller is None or cost is None or cost >= tokens:
            return None
        return smaller, cost

    def _smaller(self, image: ImagePart) -> ImagePart | None:
        """A copy whose long side is at most `side` pixels, or None if it is that small; made
        once per part, rules and side (a later trim of the same part decodes nothing)."""
        inputs = ((self._provider.rules.image,), ("smaller", self._side))
        found: tuple[ImagePart | None] | None = image._recall(*inputs)
        if found is None:
            found = (self._made_smaller(image),)
            image._keep(*inputs, found)
        return found[0]

    def _made_smaller(self, image: ImagePart) -> ImagePart | None:
        width, height = image.width, image.height
        if width is None or height is None or max(width, height) <= self._side:
            return None
        spec = image_spec(self._provider.rules.image, side=self._side)
        try:
            fitted = fit_image(image.data, image.effective_media_type or "", spec)
        except UnsupportedMediaType:
            return None  # a type this Pillow cannot decode (SVG): it stays as it is
        if fitted.unchanged:
            return None
        return ImagePart(
            data=fitted.data,
            media_type=fitted.media_type,
            filename=image.filename,
            detail=image.detail,
            cache=image.cache,
            metadata=image.metadata,
        )

    def _tokens(self, image: ImagePart) -> int | None:
        """The image's own tokens, as `count_tokens` counts it, or None if unknown."""
        counted = count_tokens(image, self._provider, model=self._model)
        own = next(p for p in counted.messages[0].parts if p.index == 0)
        return None if own.method == "unknown" else own.tokens
