"""mediaparts: typed media parts for LLM prompts, detected from their bytes.

import mediaparts as mp

photo = mp.part("photo.jpg")                 # ImagePart, typed by its bytes
msg = mp.User("Describe this", files=[photo, {"url": "https://example.com/a.pdf"}])
"""

from mediaparts import providers
from mediaparts._build import part
from mediaparts._errors import (
    BlockedURL,
    FetchError,
    InvalidMedia,
    MediaError,
    MediaTooLarge,
    OfflineError,
    ProviderLimitError,
    UnsupportedMediaType,
)
from mediaparts._fetch import FetchPolicy, configure, offline, safe_async_client, safe_client
from mediaparts._messages import (
    Assistant,
    Message,
    System,
    Tool,
    ToolCall,
    Usage,
    User,
    merge_runs,
    message_from_dict,
)
from mediaparts._parts import AudioPart, FilePart, ImagePart, MediaPart, TextPart, VideoPart
from mediaparts._upload import afrom_upload, from_upload
from mediaparts.detection import Detection, canonical_media_type, detect, detect_media_type
from mediaparts.providers import NormalizedPart, Provider
from mediaparts.providers._check import Violation, check
from mediaparts.providers._estimate import estimate_tokens
from mediaparts.providers._normalize import anormalize, normalize, normalize_many
from mediaparts.providers._render import arender, render

__version__ = "0.1.0.dev0"

__all__ = [
    "Assistant",
    "AudioPart",
    "BlockedURL",
    "Detection",
    "FetchError",
    "FetchPolicy",
    "FilePart",
    "ImagePart",
    "InvalidMedia",
    "MediaError",
    "MediaPart",
    "MediaTooLarge",
    "Message",
    "NormalizedPart",
    "OfflineError",
    "Provider",
    "ProviderLimitError",
    "System",
    "TextPart",
    "Tool",
    "ToolCall",
    "UnsupportedMediaType",
    "Usage",
    "User",
    "VideoPart",
    "Violation",
    "afrom_upload",
    "anormalize",
    "arender",
    "canonical_media_type",
    "check",
    "configure",
    "detect",
    "detect_media_type",
    "estimate_tokens",
    "from_upload",
    "merge_runs",
    "message_from_dict",
    "normalize",
    "normalize_many",
    "offline",
    "part",
    "providers",
    "render",
    "safe_async_client",
    "safe_client",
]
