"""Azure OpenAI on Chat Completions: the provider record (`PROVIDER`) and its rules (`RULES`).

OpenAI's models as an Azure OpenAI resource serves them: OpenAI's model tables, Azure's own
limits (`_tables`, each value sourced and dated) and file store, on the wire
`mediaparts.providers.wires.chat_completions`. The Responses API of the same resource is the
provider `azure-openai-responses`. A request's `model` is a deployment's name; map yours to
their models with `PROVIDER.with_deployments({"my-prod": "gpt-4o"})`.
"""

from mediaparts.providers import _record
from mediaparts.providers.azure_openai import _batch, _files, _tables

PROVIDER = _record.built_in(_tables.RULES, "openai", _files.FILES, _batch)
RULES = PROVIDER.rules

__all__ = ["PROVIDER", "RULES"]
