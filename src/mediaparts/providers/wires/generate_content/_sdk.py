"""google-genai's arguments for a generateContent body: `contents=` and `config=`.

`render` returns the REST body (`contents`, `systemInstruction`, `tools`, `generationConfig`,
...), which the REST API takes as it is. google-genai's `client.models.generate_content(model=...,
contents=..., config=...)` takes everything beside `contents` in one `config`
(`GenerateContentConfig`: `system_instruction`, `tools`, `tool_config`, `safety_settings`,
`cached_content`, `labels`, and the fields of `generationConfig` themselves). The content
itself goes as it is: the SDK's types take camelCase and snake_case keys alike, and base64 text
for their bytes fields (`Blob.data`, `Part.thought_signature`), as the REST body holds them
(google-genai 3.6 `_common.BaseModel` and types.py, read 2026-12; tested by sending through the
SDK on a mock transport).
"""

from __future__ import annotations

from typing import Any

from mediaparts._errors import InvalidConfig, excerpt
from mediaparts.providers._wire._reading import as_dict, as_list
from mediaparts.providers._wire._rendering import Served

__all__ = ["sdk_kwargs"]

# Body key -> its `GenerateContentConfig` field.
_CONFIG = {
    "systemInstruction": "system_instruction",
    "system_instruction": "system_instruction",
    "tools": "tools",
    "toolConfig": "tool_config",
    "tool_config": "tool_config",
    "safetySettings": "safety_settings",
    "safety_settings": "safety_settings",
    "cachedContent": "cached_content",
    "cached_content": "cached_content",
    "labels": "labels",
}
# Body keys whose fields are `GenerateContentConfig`'s own.
_SPREAD = ("generationConfig", "generation_config", "config")


def sdk_kwargs(payload: Any, served: Served) -> dict[str, Any]:
    """Return `generate_content`'s keyword arguments for a generateContent body.

    Raises:
        InvalidMedia: `contents` is neither text nor a list, or a config is not an object.
        InvalidConfig: A body key has no place in the SDK's call, or two keys set one field.
    """
    out: dict[str, Any] = {}
    config: dict[str, Any] = {}
    for key, value in as_dict(payload, "payload").items():
        if key == "contents":
            out["contents"] = value if isinstance(value, str) else list(as_list(value, key))
        elif key == "model":
            out["model"] = value
        elif key in _SPREAD:
            for field, item in as_dict(value, key).items():
                _set(config, _CONFIG.get(field, field), item, served)
        elif key in _CONFIG:
            _set(config, _CONFIG[key], value, served)
        else:
            raise InvalidConfig(
                f"{served.name} payload key {excerpt(key)} has no place in the SDK's "
                "generate_content call (it takes model, contents and config)"
            )
    if config:
        out["config"] = config
    return out


def _set(config: dict[str, Any], field: str, value: Any, served: Served) -> None:
    """Set one config field, refusing a field that two keys of the body set."""
    if field in config:
        raise InvalidConfig(
            f"{served.name} payload sets {field} twice (as camelCase and snake_case, or beside "
            "config); the SDK takes one"
        )
    config[field] = value
