"""Wires: the API shapes mediaparts speaks, each one package that never names a provider.

| Wire | Also called | The API shape | Package |
|---|---|---|---|
| `openai` | `chat-completions` | OpenAI Chat Completions | `chat_completions` |
| `openai-responses` | `responses` | OpenAI Responses | `responses` |
| `anthropic` | `messages` | Anthropic Messages | `messages` |
| `gemini` | `generate-content` | Gemini `generateContent` | `generate_content` |
| `bedrock` | `converse` | Bedrock Converse | `converse` |

A wire's name is the name of the first provider that spoke it (CONTRACT §4b: a provider on
Chat Completions says `provider.wire == "openai"`); the second column is accepted too. Each
package meets `mediaparts.providers.Wire`: `render`, `media_site`, and the readers, every one
taking the provider it serves. `get` imports a built-in wire on first use.
"""

from mediaparts._lazy import publish as _publish
from mediaparts.providers.wires._table import canonical, get, names, resolve

__all__ = ["canonical", "get", "names", "resolve"]

_publish(__name__, globals(), __all__)
