"""Batch input files: `batch_line` (one request, one JSON line) and `BatchWriter` (lines into
as many files as the provider's per-file limits require).

The shape of a line is the provider's (`batch_request`); the limits are its rules
(`batch_max_requests`, `batch_max_bytes`). Nothing here names a provider.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from array import array
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO

from mediaparts._boundary import Boundary
from mediaparts._errors import InvalidConfig, InvalidMedia, ProviderLimitError, excerpt
from mediaparts._surrogates import lone_surrogate
from mediaparts.converting import TransformPolicy
from mediaparts.providers._batching._types import BatchFile, json_line
from mediaparts.providers._fitting._normalize import UrlMode
from mediaparts.providers._options import ForeignReasoning, OnLoss, Options, resolve
from mediaparts.providers._registry import Provider, get
from mediaparts.providers._render import render

__all__ = ["BatchWriter", "batch_line", "batch_provider", "check_id", "check_params"]

# Only MediaError leaves add (see Boundary).
_BATCH_ADD = Boundary("adding a batch line")

# Only MediaError leaves batch_line (see Boundary).
_BATCH_LINE = Boundary("making a batch line")

# A buffered file: lines are written in large writes, never held beyond this.
_BUFFER = 1 << 20


def batch_provider(provider: str | Provider) -> Provider:
    """Return the provider, which must have a batch API.

    Raises:
        UnknownProvider: No provider has that name.
        InvalidConfig: The provider has no batch format (`batch_request`, `batch_result`).
    """
    chosen = get(provider)
    if chosen.batch_request is None or chosen.batch_result is None:
        raise InvalidConfig(
            f"provider {excerpt(chosen.name)} has no batch format (its module defines no "
            "batch_request and batch_result)"
        )
    return chosen


def check_id(custom_id: Any) -> str:
    """Return the caller's id of a request, a non-empty string.

    Raises:
        InvalidMedia: It is not one, or it holds a lone surrogate (no UTF-8 line can carry it).
    """
    if not isinstance(custom_id, str) or not custom_id:
        raise InvalidMedia(f"a batch request's id is a non-empty string, got {excerpt(custom_id)}")
    if lone_surrogate(custom_id):  # cleaning it would file the results under another id
        raise InvalidMedia(
            f"batch request id {excerpt(custom_id)} holds a lone surrogate, which cannot be "
            "encoded as UTF-8; decode the text it came from correctly"
        )
    return custom_id


def check_params(params: Any) -> dict[str, Any]:
    """Return the extra request fields as a new dict (None: none).

    Raises:
        InvalidConfig: Not a mapping with string keys, or a key holds a lone surrogate.
    """
    if params is None:
        return {}
    if not isinstance(params, Mapping) or not all(isinstance(k, str) for k in params):
        raise InvalidConfig(
            f"params must be a dict of request fields (name -> JSON value), got "
            f"{type(params).__name__}"
        )
    for key in params:
        if lone_surrogate(key):
            raise InvalidConfig(
                f"params key {excerpt(key)} holds a lone surrogate, which cannot be encoded as "
                "UTF-8; decode the text it came from correctly"
            )
    return dict(params)


def batch_line(
    custom_id: str,
    conversation: Any,
    provider: str | Provider,
    *,
    model: str | None = None,
    params: Mapping[str, Any] | None = None,
    urls: UrlMode = "auto",
    transforms: TransformPolicy | None = None,
    on_loss: OnLoss = "warn",
    foreign_reasoning: ForeignReasoning = "drop",
    options: Options | None = None,
) -> bytes:
    """Render one conversation as one request of the provider's batch input file.

    The conversation is rendered with `mp.render` (so every media part is fitted to the
    provider), then wrapped in the provider's batch line with the id, the model (where the
    line names it) and `params`, the request's other fields (`max_tokens`, which Anthropic
    requires; `generationConfig` for Gemini; `inferenceConfig` for Bedrock).

    Args:
        custom_id: The caller's id of the request, unique in the batch; results come back
            under it.
        conversation: Messages, or anything `mp.render` takes.
        provider: A provider name or `Provider` with a batch format.
        model: The model (in the line for OpenAI and Anthropic; for the rules elsewhere).
        params: Extra request fields, JSON values; they may not set what the conversation
            rendered (`messages`, `system`, `contents`, ...).
        urls, transforms, on_loss, foreign_reasoning, options: As for `mp.render` (a
            keyword that is given wins over its field of `options`).

    Returns:
        One compact JSON line ending in `b"\\n"`; the same inputs give the same bytes.

    Raises:
        InvalidMedia: The id is not a non-empty string, or holds a lone surrogate.
        ProviderLimitError: The provider refuses the id (Anthropic: 1-64 of `[a-zA-Z0-9_-]`).
        InvalidConfig: The provider has no batch format, a required field is missing (the
            model; Anthropic's `max_tokens`), or `params` is not a dict of JSON values, or
            the model or a params key or value holds a lone surrogate.
        MediaError: Whatever `mp.render` raises for the conversation.
    """
    try:
        chosen = batch_provider(provider)
        check_id(custom_id)
        opts = resolve(
            options,
            model=model,
            urls=urls,
            transforms=transforms,
            on_loss=on_loss,
            foreign_reasoning=foreign_reasoning,
        )
        fields = check_params(params)
        assert chosen.batch_request is not None
        payload = render(conversation, chosen, options=opts)
        return json_line(chosen.batch_request(custom_id, payload, opts.model, fields))
    except Exception as exc:  # only MediaError leaves (see Boundary)
        _BATCH_LINE.reraise(exc)


def _digest(custom_id: str) -> int:
    """The id's 64-bit digest, never 0 (0 marks an empty slot)."""
    digest = hashlib.blake2b(custom_id.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") | 1


class _Ids:
    """The ids seen, each remembered as a 64-bit digest in one flat open-addressing table: 16
    bytes per id rather than a string and a set slot (about 100), so a writer's memory barely
    grows with the requests. Two different ids share a digest with odds of about n²/2⁶⁵ (1 in
    3·10⁹ for 100,000 ids), so a digest seen before is only a suspect: the ids themselves go,
    one JSON string a line, to an anonymous temporary file, read back to tell a repeat from a
    collision (a repeat ends the writing, so that read happens about once)."""

    def __init__(self) -> None:
        self._table = array("Q", bytes(8 * 1024))
        self._count = 0
        self._spill: IO[bytes] | None = None

    def add(self, custom_id: str) -> bool:
        """Remember the id; False when it was there already."""
        entry = json.dumps(custom_id).encode() + b"\n"
        if self._spill is None:
            self._spill = tempfile.TemporaryFile(buffering=_BUFFER)  # noqa: SIM115 - close()
        key = _digest(custom_id)
        if not self._put(self._table, key) and self._seen(entry):
            return False
        self._spill.write(entry)
        self._count += 1
        if self._count * 2 > len(self._table):  # at most half full: probes stay short
            bigger = array("Q", bytes(16 * len(self._table)))
            for old in self._table:
                if old:
                    self._put(bigger, old)
            self._table = bigger
        return True

    def _seen(self, entry: bytes) -> bool:
        """Whether the id (its line in the spill) was added before: the exact check."""
        assert self._spill is not None
        self._spill.flush()
        self._spill.seek(0)
        try:
            return any(line == entry for line in self._spill)
        finally:
            self._spill.seek(0, os.SEEK_END)

    def close(self) -> None:
        """Delete the spilled ids."""
        if self._spill is not None:
            self._spill.close()

    @staticmethod
    def _put(table: array[int], key: int) -> bool:
        mask = len(table) - 1
        slot = key & mask
        while table[slot]:
            if table[slot] == key:
                return False
            slot = (slot + 1) & mask
        table[slot] = key
        return True


def _limit(given: Any, documented: int | None, name: str, provider: str) -> int | None:
    """The limit in force: the one given (no larger than the documented one), else that."""
    if given is None:
        return documented
    if not isinstance(given, int) or isinstance(given, bool) or given < 1:
        raise InvalidConfig(f"{name} must be a positive whole number, got {excerpt(given)}")
    if documented is not None and given > documented:
        raise InvalidConfig(
            f"{name}={given} is over {provider}'s documented {documented}; for a raised quota "
            f"use mp.providers.get({provider!r}).with_rules(batch_{name}=...)"
        )
    return given


class BatchWriter:
    """Write batch request lines into files, a new file exactly when the next line would
    break the per-file limits.

    A context manager: `with mp.BatchWriter("openai", "out") as writer: writer.add(id, line)`;
    leaving the block closes it. Files are `<out_dir>/<prefix>-00001.jsonl`, `-00002`, ...,
    created new (an existing file is never overwritten). Each line is written through a
    buffered file and not kept; of each id, a 64-bit digest is kept in memory and the id in a
    temporary file, to refuse a repeat (and only a repeat: not an id whose digest collides).

    Args:
        provider: A provider name or `Provider` with a batch format; its rules give the
            documented limits (`batch_max_requests`, `batch_max_bytes`).
        out_dir: The folder for the files (created if missing).
        prefix: The files' name prefix.
        max_requests: Fewer requests per file than the documented limit.
        max_bytes: Fewer bytes per file than the documented limit.

    Raises:
        InvalidConfig: A limit is not a positive whole number, or is over the documented one
            (raise that with `with_rules(batch_max_requests=...)` for a raised quota), or the
            prefix is not a plain file name, or the folder or prefix cannot be encoded as a
            file name.
    """

    def __init__(
        self,
        provider: str | Provider,
        out_dir: str | os.PathLike[str],
        *,
        prefix: str = "batch",
        max_requests: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        chosen = batch_provider(provider)
        rules = chosen.rules
        self.provider = chosen.name
        self.max_requests = _limit(
            max_requests, rules.batch_max_requests, "max_requests", self.provider
        )
        self.max_bytes = _limit(max_bytes, rules.batch_max_bytes, "max_bytes", self.provider)
        if not isinstance(prefix, str) or not prefix or Path(prefix).name != prefix:
            raise InvalidConfig(f"prefix must be a plain file name, got {excerpt(prefix)}")
        self.out_dir = Path(out_dir)
        try:  # checked now, not at the first line: the OS takes only what encodes
            os.fsencode(self.out_dir / prefix)
        except UnicodeEncodeError as exc:
            raise InvalidConfig(
                f"out_dir {excerpt(str(self.out_dir), ends=True)} or prefix {excerpt(prefix)} "
                "cannot be encoded as a file name on this system (a lone surrogate?)"
            ) from exc
        self.prefix = prefix
        self._files: list[BatchFile] = []
        self._ids = _Ids()
        self._file: BinaryIO | None = None
        self._path: Path | None = None
        self._requests = 0
        self._bytes = 0
        self._closed = False

    def __enter__(self) -> BatchWriter:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @property
    def files(self) -> list[BatchFile]:
        """The files finished so far (the one being written is not among them)."""
        return list(self._files)

    def add(self, custom_id: str, line: bytes) -> None:
        """Append one request line (what `batch_line` returns) under its id.

        Raises:
            InvalidMedia: The id is not a non-empty string, or the line is not one line of
                bytes ending in a newline.
            ProviderLimitError: The id was added before, or the line alone is over the
                per-file byte limit.
            InvalidConfig: The writer is closed.
        """
        try:
            if self._closed:
                raise InvalidConfig("this BatchWriter is closed; make a new one")
            check_id(custom_id)
            if not isinstance(line, bytes) or not line.endswith(b"\n") or b"\n" in line[:-1]:
                raise InvalidMedia(
                    f"a batch line is bytes ending in one newline (what mp.batch_line returns); "
                    f"got {type(line).__name__} for {excerpt(custom_id)}"
                )
            size = len(line)
            if self.max_bytes is not None and size > self.max_bytes:
                raise ProviderLimitError(
                    f"batch request {excerpt(custom_id)} is {size:,} bytes, over the "
                    f"{self.max_bytes:,} bytes one {self.provider} batch file may hold; make its "
                    "media smaller or send it on its own",
                    provider=self.provider,
                )
            if not self._ids.add(custom_id):
                raise ProviderLimitError(
                    f"batch request id {excerpt(custom_id)} was given twice; each request of a "
                    f"{self.provider} batch needs its own id",
                    provider=self.provider,
                )
            full = self.max_requests is not None and self._requests >= self.max_requests
            over = self.max_bytes is not None and self._bytes + size > self.max_bytes
            if self._file is None or full or over:
                self._next()
            assert self._file is not None
            self._file.write(line)
            self._requests += 1
            self._bytes += size
        except Exception as exc:  # only MediaError leaves (see Boundary)
            _BATCH_ADD.reraise(exc)

    def _next(self) -> None:
        """Finish the current file (if any) and open the next one."""
        self._finish()
        path = self.out_dir / f"{self.prefix}-{len(self._files) + 1:05d}.jsonl"
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            self._file = open(path, "xb", buffering=_BUFFER)  # noqa: SIM115 - closed in _finish
        except FileExistsError as exc:
            raise InvalidConfig(
                f"batch file {path.name} already exists in {excerpt(str(self.out_dir))}; "
                "choose an empty folder or another prefix"
            ) from exc
        except OSError as exc:
            raise InvalidConfig(
                f"cannot create batch file {path.name} in {excerpt(str(self.out_dir))}: "
                f"{exc.strerror}"
            ) from exc
        self._path = path
        self._requests = 0
        self._bytes = 0

    def _finish(self) -> None:
        if self._file is None:
            return
        self._file.close()
        assert self._path is not None
        self._files.append(BatchFile(self._path, self._requests, self._bytes))
        self._file = None

    def close(self) -> list[BatchFile]:
        """Finish the last file and return every file written, in order (again if closed)."""
        if not self._closed:
            self._closed = True
            self._ids.close()
            self._finish()
        return list(self._files)
