"""Token counts in one namespace: what `count_tokens` and `estimate_tokens` return.

`TokenCount` (a conversation's count, with `messages`), `MessageTokens` (one message's, with
`parts`) and `PartTokens` (one part's: tokens, how they were counted, and why); the two
functions are here too and keep their top-level spelling (`mp.count_tokens`). Money is in
`mediaparts.pricing`.
"""

from mediaparts.providers import (
    MessageTokens,
    PartTokens,
    TokenCount,
    count_tokens,
    estimate_tokens,
)

__all__ = [
    "MessageTokens",
    "PartTokens",
    "TokenCount",
    "count_tokens",
    "estimate_tokens",
]
