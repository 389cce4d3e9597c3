"""Azure OpenAI on Chat Completions: the provider record (`PROVIDER`) and its rules (`RULES`).

OpenAI's models as an Azure OpenAI resource serves them: OpenAI's model tables, Azure's own
limits (`_tables`, each value sourced and dated) and file store, on the wire
`mediaparts.providers.wires.chat_completions`. The Responses API of the same resource is the
provider `azure-openai-responses`. A request's `model` is a deployment's name; map yours to
their models with `PROVIDER.with_deployments({"my-prod": "gpt-4o"})`.

Internal exports, for `azure_openai_responses` (not in `__all__`): `IMAGE_RULES`, `MODELS` and
`MODELS_SOURCE` (the image rules and per-model rows both APIs share), `STORE`,
`AZURE_FILE_STORE` and `FILES` (the resource's file store and its upload calls, which the
Responses API reads: Chat Completions on Azure takes no file by id, so this record has none).
"""

from mediaparts.providers import _record
from mediaparts.providers.azure_openai import _batch, _tables
from mediaparts.providers.azure_openai._files import FILES as FILES
from mediaparts.providers.azure_openai._tables import AZURE_FILE_STORE as AZURE_FILE_STORE
from mediaparts.providers.azure_openai._tables import IMAGE_RULES as IMAGE_RULES
from mediaparts.providers.azure_openai._tables import MODELS as MODELS
from mediaparts.providers.azure_openai._tables import MODELS_SOURCE as MODELS_SOURCE
from mediaparts.providers.azure_openai._tables import STORE as STORE

PROVIDER = _record.Provider(
    _tables.PROVIDER,
    _tables.RULES,
    "openai",
    batch_request=_batch.batch_request,
    batch_result=_batch.batch_result,
)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
