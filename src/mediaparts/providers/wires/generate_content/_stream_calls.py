"""Function calls whose arguments stream in pieces (`FunctionCall.partialArgs`).

With `toolConfig.functionCallingConfig.streamFunctionCallArguments` (Vertex AI only; "not
supported in Gemini API", google-genai 3.6 types.FunctionCallingConfig, PartialArg and
FunctionCall, read 2026-12-05), a function call arrives over several chunks: a part
`{"functionCall": {"name", "willContinue": true}}`, then parts whose `functionCall` holds
`partialArgs` — each `{"jsonPath": "$.a.b[0]", "stringValue" | "numberValue" | "boolValue" |
"nullValue", "willContinue"}`, a string value continued by the next piece of the same path
while `willContinue` is true — until a piece whose `willContinue` is not true. The pieces are
put together into the `args` the non-streamed response holds.

Paths are read in RFC 9535's plain forms: `$`, then `.name`, `['name']` or `["name"]` (no
escapes inside), and `[index]`; at most 64 steps, an index no greater than the list's length.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from mediaparts._errors import InvalidMedia
from mediaparts.providers._wire._reading import as_dict, as_list, json_arguments, shown
from mediaparts.providers._wire._streaming import Fragments
from mediaparts.providers.wires.generate_content._spelling import absent

__all__ = ["StreamedCall", "streamed"]

_MAX_STEPS = 64
_VALUES = ("stringValue", "numberValue", "boolValue", "nullValue")
# The fields of a streamed FunctionCall that say how it streams, not what it is.
_STREAMING = ("name", "id", "args", "partialArgs", "willContinue")

Path = tuple[str | int, ...]


class StreamedCall:
    """A function call whose arguments arrive in pieces, at `index` of the reply's parts."""

    __slots__ = ("_continuing", "_extra", "_inner", "_tree", "done", "id", "index", "name")

    def __init__(self, index: int, call_id: str | None, name: str) -> None:
        self.index = index
        self.id = call_id
        self.name = name
        self.done = False
        self._tree: dict[str, Any] | None = None  # the arguments so far (strings as Fragments)
        self._continuing: Path | None = None  # the path whose string the next piece continues
        self._extra: dict[str, Any] = {}  # the part's other fields (its thoughtSignature)
        self._inner: dict[str, Any] = {}  # the call's other fields

    def whole(self) -> dict[str, Any]:
        """Return the part as the non-streamed response holds it."""
        call: dict[str, Any] = {"name": self.name, **self._inner}
        if self.id is not None:
            call["id"] = self.id
        if self._tree is not None:
            call["args"] = _plain(self._tree)
        return {**self._extra, "functionCall": call}

    def arguments(self) -> str:
        """Return the arguments' JSON text, as the reader keeps them."""
        tree = {} if self._tree is None else _plain(self._tree)
        return json_arguments(tree, "functionCall.args")

    def add(self, node: dict[str, Any], call: dict[str, Any], at: str) -> None:
        for key, value in node.items():
            if key != "functionCall":
                self._extra[key] = value
        for key, value in call.items():
            if key not in _STREAMING:
                self._inner[key] = value
        if call.get("args") is not None:
            whole = as_dict(call["args"], f"{at}.args")
            self._tree = {**(self._tree or {}), **whole}
            self._continuing = None
        pieces = as_list(absent(call.get("partialArgs"), []), f"{at}.partialArgs")
        for i, item in enumerate(pieces):
            self._piece(as_dict(item, f"{at}.partialArgs[{i}]"), f"{at}.partialArgs[{i}]")
        self.done = call.get("willContinue") is not True

    def _piece(self, piece: dict[str, Any], at: str) -> None:
        path = _path(piece.get("jsonPath"), f"{at}.jsonPath")
        given = [name for name in _VALUES if piece.get(name) is not None]
        if len(given) > 1:
            raise InvalidMedia(f"{at}: a partial argument holds one value, got {', '.join(given)}")
        if self._tree is None:
            self._tree = {}
        if given:
            value = _value(given[0], piece[given[0]], f"{at}.{given[0]}")
            parent, key = _parent(self._tree, path, at)
            held = parent.get(key) if isinstance(parent, dict) else _item(parent, key)
            if isinstance(value, str) and path == self._continuing and isinstance(held, Fragments):
                held.add(value)
            else:
                _put(parent, key, Fragments(value) if isinstance(value, str) else value, at)
        self._continuing = path if piece.get("willContinue") is True else None


def streamed(
    node: dict[str, Any], at: str, open_call: StreamedCall | None, index: int
) -> StreamedCall | None:
    """Return the streamed call a part adds to (`open_call`, or a new one at `index`), or None
    when the part is not a piece of one.

    A function call part continues the open call while that call said `willContinue` and the
    part names no other function (or id); a part with `partialArgs` or `willContinue` starts one.
    """
    if node.get("functionCall") is None:
        return None
    where = f"{at}.functionCall"
    call = as_dict(node["functionCall"], where)
    name, call_id = call.get("name"), call.get("id")
    if name is not None and (not isinstance(name, str) or not name):
        raise InvalidMedia(f"{where}.name: expected the function's name, got {shown(name)}")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidMedia(f"{where}.id: expected a string, got {shown(call_id)}")
    if (
        open_call is not None
        and not open_call.done
        and name in (None, open_call.name)
        and call_id in (None, open_call.id)
    ):
        open_call.add(node, call, where)
        return open_call
    if call.get("partialArgs") is None and call.get("willContinue") is not True:
        return None
    if name is None:
        raise InvalidMedia(f"{where}.name: a streamed function call starts with its name")
    new = StreamedCall(index, call_id, name)
    new.add(node, call, where)
    return new


def _path(text: Any, at: str) -> Path:
    """Read an RFC 9535 path in its plain forms: `$.a`, `$['a']`, `$[0]`."""
    if not isinstance(text, str) or not text.startswith("$"):
        raise InvalidMedia(f"{at}: expected a JSON path starting with '$', got {shown(text)}")
    steps: list[str | int] = []
    i = 1
    while i < len(text):
        if len(steps) >= _MAX_STEPS:
            raise InvalidMedia(f"{at}: a path of more than {_MAX_STEPS} steps")
        if text[i] == ".":
            end = i + 1
            while end < len(text) and text[end] not in ".[":
                end += 1
            if end == i + 1:
                raise InvalidMedia(f"{at}: an empty name at character {i} of {shown(text)}")
            steps.append(text[i + 1 : end])
            i = end
        elif text.startswith(("['", '["'), i):
            end = text.find(text[i + 1] + "]", i + 2)
            if end < 0:
                raise InvalidMedia(f"{at}: an unclosed name at character {i} of {shown(text)}")
            steps.append(text[i + 2 : end])
            i = end + 2
        elif text[i] == "[":
            end = text.find("]", i)
            digits = text[i + 1 : end] if end > 0 else ""
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
                raise InvalidMedia(f"{at}: expected an index at character {i} of {shown(text)}")
            steps.append(int(digits))
            i = end + 1
        else:
            raise InvalidMedia(f"{at}: unexpected {shown(text[i])} at character {i}")
    if not steps:
        raise InvalidMedia(f"{at}: the path names no argument")
    return tuple(steps)


def _value(name: str, value: Any, at: str) -> Any:
    if name == "stringValue" and isinstance(value, str):
        return value
    if name == "boolValue" and isinstance(value, bool):
        return value
    if name == "nullValue":
        return None
    if name == "numberValue" and isinstance(value, int | float) and not isinstance(value, bool):
        # A Struct's numbers are doubles; its JSON writes a whole one without a fraction.
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    raise InvalidMedia(f"{at}: expected a {name[: -len('Value')]}, got {shown(value)}")


def _parent(tree: dict[str, Any], path: Path, at: str) -> tuple[Any, str | int]:
    """Return the container that holds the path's last step (made as needed), and that step."""
    node: Any = tree
    for step, following in pairwise(path):
        empty: Any = [] if isinstance(following, int) else {}
        held = node.get(step) if isinstance(node, dict) else _item(node, step)
        if not isinstance(held, dict | list):
            _put(node, step, empty, at)
            held = empty
        node = held
    return node, path[-1]


def _item(node: Any, step: str | int) -> Any:
    if isinstance(node, list) and isinstance(step, int) and step < len(node):
        return node[step]
    return None


def _put(node: Any, step: str | int, value: Any, at: str) -> None:
    if isinstance(node, dict) and isinstance(step, str):
        node[step] = value
    elif isinstance(node, list) and isinstance(step, int) and step <= len(node):
        if step == len(node):
            node.append(value)
        else:
            node[step] = value
    else:
        raise InvalidMedia(f"{at}.jsonPath: step {shown(step)} does not fit the arguments so far")


def _plain(value: Any) -> Any:
    """Return the arguments with their streamed strings joined."""
    if isinstance(value, Fragments):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
