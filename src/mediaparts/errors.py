"""Every error and warning mediaparts raises, in one namespace: `mp.errors.InvalidConfig`.

The tree (drawn in full in the docs' errors page)::

    MediaError
    ├── UnsupportedMediaType      (CodecUnavailable)
    ├── NoDocumentedRule
    ├── InvalidMedia (ValueError) (BlockedPath, StreamError)
    ├── InvalidConfig (ValueError) (UnknownProvider, UnknownModel)
    ├── MediaTooLarge
    ├── ProviderLimitError        (BudgetExceeded)
    ├── ConversionError
    ├── FetchError                (BlockedURL, OfflineError)
    └── InternalError
    ConversionWarning, UnknownModelWarning (UserWarnings)

`MediaError` is also at the top level (`mp.MediaError`), and every class here keeps its
top-level spelling (`mp.InvalidConfig`), without a warning: the top level's `__all__` lists
only `MediaError` and this module.
"""

from mediaparts._errors import (
    BlockedPath,
    BlockedURL,
    BudgetExceeded,
    CodecUnavailable,
    ConversionError,
    ConversionWarning,
    FetchError,
    InternalError,
    InvalidConfig,
    InvalidMedia,
    MediaError,
    MediaTooLarge,
    NoDocumentedRule,
    OfflineError,
    ProviderLimitError,
    StreamError,
    UnknownModel,
    UnknownModelWarning,
    UnknownProvider,
    UnsupportedMediaType,
)

__all__ = [
    "BlockedPath",
    "BlockedURL",
    "BudgetExceeded",
    "CodecUnavailable",
    "ConversionError",
    "ConversionWarning",
    "FetchError",
    "InternalError",
    "InvalidConfig",
    "InvalidMedia",
    "MediaError",
    "MediaTooLarge",
    "NoDocumentedRule",
    "OfflineError",
    "ProviderLimitError",
    "StreamError",
    "UnknownModel",
    "UnknownModelWarning",
    "UnknownProvider",
    "UnsupportedMediaType",
]
