"""`Options`: the settings that render, normalize, count, trim, batch and Ray calls share.

One frozen value travels down the calls instead of a list of keywords, so two functions that
take the same settings cannot drift apart. Each function reads the fields that apply to it.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, TypeAlias, TypeVar, get_args

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.converting import TransformPolicy
from mediaparts.providers._budgets._vision import check_model
from mediaparts.providers._fitting._uploads import PartUploader, RenderUrls

__all__ = ["ForeignReasoning", "OnLoss", "Options", "check_losses", "renamed", "resolve"]

_P = ParamSpec("_P")
_R = TypeVar("_R")

OnLoss: TypeAlias = Literal["warn", "drop", "error"]
"""What `render` does with a part the provider cannot carry: warn, drop quietly, or raise."""

ForeignReasoning: TypeAlias = Literal["drop", "text"]
"""What `render` does with reasoning another provider produced: leave it out, or send its
readable text (and summary) as text."""

_URLS: tuple[str, ...] = get_args(RenderUrls)


def check_losses(on_loss: Any, foreign_reasoning: Any) -> None:
    """Refuse an `on_loss` or `foreign_reasoning` that is not one of its modes."""
    if on_loss not in get_args(OnLoss):
        raise InvalidConfig(f"on_loss must be 'warn', 'drop' or 'error', got {excerpt(on_loss)}")
    if foreign_reasoning not in get_args(ForeignReasoning):
        raise InvalidConfig(
            f"foreign_reasoning must be 'drop' or 'text', got {excerpt(foreign_reasoning)}"
        )


@dataclass(frozen=True, slots=True)
class Options:
    """The settings of a render, normalize, count or trim, checked once, given as one value.

    `mp.render(messages, "openai", options=opts)` and the other calls that take `options=`
    read the fields that apply to them (a count has no `on_loss`; `render` fits each image at
    its own `detail`). A keyword argument given to the call wins over the field: a keyword
    left at its default takes the field's value, so `render(..., urls="auto", options=opts)`
    uses `opts.urls`; to change a field back to its default, use `dataclasses.replace(opts,
    urls="auto")`.

    Attributes:
        model: The model, for model-dependent rules; None for each table's default row.
        detail: The image detail level (checked against the provider when used); None for
            each image's own `detail`.
        urls: `"auto"`, `"inline"`, `"pass"` or (render and batch) `"upload"`.
        transforms: A `TransformPolicy`; None for the one in force.
        on_loss: `"warn"`, `"drop"` or `"error"`: a part the provider cannot carry.
        foreign_reasoning: `"drop"` or `"text"`: another provider's reasoning.
        uploader: With `urls="upload"`, what sends media to the provider's file store.

    Raises:
        InvalidConfig: A field's value is not one it takes (the message names the field).
    """

    model: str | None = None
    detail: str | None = None
    urls: RenderUrls = "auto"
    transforms: TransformPolicy | None = None
    on_loss: OnLoss = "warn"
    foreign_reasoning: ForeignReasoning = "drop"
    uploader: PartUploader | None = None

    def __post_init__(self) -> None:
        check_model(self.model)
        if self.detail is not None and not isinstance(self.detail, str):
            raise InvalidConfig(
                f"detail must be a detail level name or None, got {type(self.detail).__name__}"
            )
        if self.urls not in _URLS:
            raise InvalidConfig(
                "urls must be 'auto', 'inline' or 'pass' (or 'upload', for render), got "
                f"{excerpt(self.urls)}"
            )
        if self.transforms is not None and not isinstance(self.transforms, TransformPolicy):
            raise InvalidConfig(
                f"transforms must be a TransformPolicy, got {type(self.transforms).__name__}"
            )
        check_losses(self.on_loss, self.foreign_reasoning)
        if self.uploader is not None and not isinstance(self.uploader, PartUploader):
            raise InvalidConfig(
                "uploader must be an mp.Uploader (or meet mediaparts.providers.PartUploader), "
                f"got {type(self.uploader).__name__}"
            )

    def given(self, **keywords: Any) -> Options:
        """Return these options with each keyword that was given (not its default) in place.

        This is how a call that takes both reads them: `render(..., urls="inline",
        options=opts)` renders with `opts.given(urls="inline")`.
        """
        # Given: not its default (the same object, or an equal string). Inline: on every render.
        changed = {
            k: v
            for k, v in keywords.items()
            if (d := _DEFAULTS[k]) is not v and not (isinstance(v, str) and v == d)
        }
        return dataclasses.replace(self, **changed) if changed else self


_DEFAULT = Options()
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Options)}


def resolve(options: Any, **keywords: Any) -> Options:
    """Return `options` (or the defaults) with each keyword that was given in its place.

    Raises:
        InvalidConfig: `options` is not an `Options`, or a keyword's value is not one it takes.
    """
    base: Options = _DEFAULT if options is None else options
    if not isinstance(base, Options):
        raise InvalidConfig(f"options must be an mp.Options, got {type(base).__name__}")
    return base.given(**keywords)


def renamed(old: str, new: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Keep a renamed keyword argument working, with a `DeprecationWarning` naming the new one."""

    def move(kwargs: dict[str, Any], name: str) -> None:
        if old in kwargs:
            warnings.warn(
                f"{name}({old}=...) is deprecated; the argument is now named {new!r}",
                DeprecationWarning,
                stacklevel=3,
            )
            kwargs[new] = kwargs.pop(old)

    def wrap(function: Callable[_P, _R]) -> Callable[_P, _R]:
        if inspect.iscoroutinefunction(function):

            @functools.wraps(function)
            async def awaited(*args: Any, **kwargs: Any) -> Any:
                move(kwargs, function.__name__)
                return await function(*args, **kwargs)

            return awaited  # type: ignore[return-value]  # the same coroutine function

        @functools.wraps(function)
        def called(*args: Any, **kwargs: Any) -> Any:
            move(kwargs, function.__name__)
            return function(*args, **kwargs)

        return called  # functools.wraps gives it the signature of `function`

    return wrap
