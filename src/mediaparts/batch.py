"""Batch files in one namespace: `mp.batch.write_batch`, `mp.batch.read_batch_results`.

Writing a provider's batch input file from conversations (`write_batch`, `batch_line`,
`BatchWriter`, `BatchFile`) and reading its result file back into messages
(`read_batch_results`, `BatchResult`, `BatchError`); see the docs' batch page. Each name keeps
its top-level spelling (`mp.write_batch`) without a warning.
"""

from mediaparts.providers import (
    BatchError,
    BatchFile,
    BatchResult,
    BatchWriter,
    batch_line,
    read_batch_results,
    write_batch,
)

__all__ = [
    "BatchError",
    "BatchFile",
    "BatchResult",
    "BatchWriter",
    "batch_line",
    "read_batch_results",
    "write_batch",
]
