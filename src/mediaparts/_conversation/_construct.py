"""Building parts and messages: their constructor arguments checked, pydantic's errors explained.

Every part and message is built through `construct`, so what holds for all their fields lives
here once: field types checked before detection, text that cannot be encoded as UTF-8
cleaned (or refused where cleaning would change meaning), and pydantic's errors turned into
`InvalidMedia` with one line of explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from mediaparts._errors import InvalidMedia, excerpt
from mediaparts._surrogates import SURROGATE

__all__ = [
    "article",
    "check_fields",
    "check_limit",
    "construct",
    "explain",
    "extra_fields",
    "keyword_only",
    "model_hash",
    "public_name",
]


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def extra_fields(where: str, fields: Mapping[str, Any], allowed: tuple[str, ...] = ()) -> None:
    """Refuse keyword fields that a constructor sets itself (data, url, kind)."""
    clash = sorted(set(fields) - {"metadata", "detail", "cache", "native", *allowed})
    if clash:
        raise InvalidMedia(
            f"{where}() sets {', '.join(clash)} itself; it also takes metadata=, cache=, "
            "native= (and detail= for images)"
        )


def keyword_only(
    cls: type[BaseModel], given: tuple[Any, ...], *, use: str = "", takes: str = ""
) -> InvalidMedia:
    """Say that a part or message class was given positional arguments it does not take.

    Python's own `TypeError` ("takes 1 positional argument but 2 were given") names neither
    the fields nor the constructor to use; this message names both.

    Args:
        cls: The class called.
        given: The positional arguments it was given (the first is shown, bounded).
        use: What to call instead, ending the message (`{cls}` stands for the class as the
            caller writes it, `public_name`).
        takes: What the class takes positionally, if anything ("one text").
    """
    # The class's own fields first; those every part shares (cache, native, metadata) last.
    names = sorted(cls.model_fields, key=lambda name: name in ("cache", "native", "metadata"))
    shown = ", ".join(f"{cls.model_fields[n].alias or n}=" for n in names if n != "kind")
    what = f"{takes} and keyword fields" if takes else "keyword fields only"
    count = f"{len(given)} positional argument{'s' * (len(given) > 1)}"
    message = f"{cls.__name__} takes {what} ({shown}), got {count} ({excerpt(given[0])})"
    return InvalidMedia(f"{message}; {use.replace('{cls}', public_name(cls))}" if use else message)


def public_name(cls: type) -> str:
    """Name a class as the caller writes it: `mp.ImagePart` for one of ours (every public class
    mediaparts defines is exported from `mediaparts`, which tests/test_public_api.py pins),
    else its own name: a subclass the caller made is not `mp.<name>`."""
    ours = cls.__module__.partition(".")[0] == _PACKAGE and not cls.__name__.startswith("_")
    return f"mp.{cls.__name__}" if ours else cls.__name__


_PACKAGE = __name__.partition(".")[0]


def check_limit(max_bytes: Any) -> None:
    if max_bytes is not None and (not isinstance(max_bytes, int) or isinstance(max_bytes, bool)):
        raise InvalidMedia(f"max_bytes must be a whole number, got {type(max_bytes).__name__}")
    if max_bytes is not None and max_bytes < 0:
        raise InvalidMedia(f"max_bytes must be 0 or more, got {max_bytes}")


_TEXT_FIELDS = ("media_type", "filename", "url", "detail")


def check_fields(values: Mapping[str, Any]) -> None:
    """Refuse field values of the wrong type before they reach detection.

    Raises:
        InvalidMedia: `media_type`, `filename`, `url` or `detail` is not a string, or
            `metadata` is not a dict; `media_type`, `url` or `detail` holds a lone
            surrogate (text that cannot be encoded as UTF-8; a file name is cleaned instead,
            by `clean_filename`).
    """
    for name in _TEXT_FIELDS:
        value = values.get(name)
        if value is not None and not isinstance(value, str):
            raise InvalidMedia(f"{name} must be a string, got {type(value).__name__}")
        if name != "filename" and value is not None and SURROGATE.search(value):
            raise InvalidMedia(
                f"{name} {excerpt(value)} holds a lone surrogate, which cannot be encoded as "
                "UTF-8; decode the text it came from correctly"
            )
    metadata = values.get("metadata")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise InvalidMedia(f"metadata must be a dict, got {type(metadata).__name__}")


# Fields whose lone surrogates are refused by `check_fields` instead of cleaned: changing a
# URL or a media type would silently name something else.
_STRICT_TEXT = frozenset({"url", "media_type", "detail"})


def construct(model: BaseModel, init: Callable[..., None], values: dict[str, Any]) -> None:
    """Run a pydantic model's __init__, turning its ValidationError into InvalidMedia.

    Every part and message is built here, so this is where text that cannot be encoded as
    UTF-8 is cleaned, for every string field at once (text, names, ids, tool-call arguments):
    a lone surrogate becomes U+FFFD, as in file names, or a payload would fail to encode later.
    """
    for name, value in values.items():
        if isinstance(value, str) and name not in _STRICT_TEXT and SURROGATE.search(value):
            values[name] = SURROGATE.sub("\ufffd", value)
    try:
        init(**values)
    except ValidationError as exc:
        raise InvalidMedia(explain(type(model).__name__, exc)) from exc
    except TypeError as exc:  # pydantic calls a nested model's __init__ with a dict's keys
        raise InvalidMedia(f"invalid {type(model).__name__}: {exc}") from exc


def model_hash(model: BaseModel) -> int:
    """Hash a frozen model by its hashable fields, leaving out dicts (`native`, a provider's
    data, `output`): equal models agree on every field, so they still hash alike."""
    values = []
    for value in model.__dict__.values():
        try:
            values.append(hash(value))
        except TypeError:
            continue
    return hash((type(model), *values))


def explain(name: str, exc: ValidationError) -> str:
    """Say what was wrong, in one line, from pydantic's list of errors."""
    problems = []
    for err in exc.errors(include_url=False):
        cause = err.get("ctx", {}).get("error")
        if isinstance(cause, InvalidMedia):  # our own message, raised inside a validator
            problems.append(str(cause))
            continue
        # A location holds the caller's keys (an unknown field's name): each is bounded.
        where = ".".join(str(p) if len(str(p)) <= 80 else excerpt(p) for p in err["loc"])
        problems.append(f"{where or 'value'}: {err['msg']}")
    return f"invalid {name}: " + "; ".join(problems[:5])
