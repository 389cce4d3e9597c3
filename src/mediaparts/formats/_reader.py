"""The bounded view of the input that every container walker and detection rule reads through."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["EXTRA_BUDGET", "PREFIX_SIZE", "ByteWindow", "ReadAt"]

PREFIX_SIZE = 65536
"""How many bytes from the start are read once and shared by every rule."""

EXTRA_BUDGET = 196608
"""How many bytes beyond the prefix all rules together may read (64 KiB + 192 KiB = 256 KiB)."""

ReadAt = Callable[[int, int], bytes]
"""`read_at(offset, length)`: up to `length` bytes at `offset` of the input (fewer at its end)."""


class ByteWindow:
    """The bytes one detection may look at: the prefix, plus a few bounded reads elsewhere.

    Rules ask for bytes with `at(offset, length)`. Requests inside the prefix cost nothing;
    anything else is read through `read_at` and counted against one shared budget, so a rule
    that walks a container (an ID3 tag larger than the prefix, a ZIP central directory at the
    end, an MP4 `moov` box after the media data) can never make one detection read a large
    file. Once the budget is spent, `at` returns only what the prefix holds.

    Attributes:
        head: The first `PREFIX_SIZE` bytes (or fewer, for a shorter input).
        size: The total size of the input in bytes, or None when it is unknown (a stream).
    """

    __slots__ = ("_budget", "_read_at", "head", "size")

    def __init__(self, head: bytes, size: int | None, read_at: ReadAt | None = None) -> None:
        self.head = head
        self.size = size
        self._read_at = read_at
        self._budget = EXTRA_BUDGET

    @property
    def truncated(self) -> bool:
        """Tell whether the input may continue beyond `head`."""
        if self.size is None:
            return len(self.head) >= PREFIX_SIZE
        return self.size > len(self.head)

    def at(self, offset: int, length: int) -> bytes:
        """Return up to `length` bytes at `offset`.

        Fewer come back at the end of the input, or once the shared read budget is spent.
        """
        if offset < 0 or length <= 0:
            return b""
        end = offset + length
        head = self.head
        if end <= len(head) or self._read_at is None or not self.truncated:
            return head[offset:end]
        if self.size is not None:
            if offset >= self.size:
                return b""
            length = min(length, self.size - offset)
        length = min(length, self._budget)
        if length <= 0:
            return head[offset:end]
        data = self._read_at(offset, length)
        self._budget -= len(data)
        return data
