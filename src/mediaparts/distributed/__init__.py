"""Normalize, render and write batch files over a Ray Dataset, on one machine or a cluster.

The distributed twin of `mp.normalize_many` and `mp.write_batch`: the same work for each row,
done in Ray tasks, with the same result, byte for byte. Ray is an optional extra
(`pip install 'mediaparts[ray]'`); it is imported when a function here is first called, so
importing this module costs nothing, and a call without Ray raises `CodecUnavailable` naming
the extra.

```python
import ray
from mediaparts.distributed import normalize_dataset

ds = ray.data.read_binary_files("s3://bucket/photos/", include_paths=True)
out = normalize_dataset(ds, "anthropic", column="bytes", errors="keep")
```
"""

from mediaparts._lazy import publish as _publish
from mediaparts.distributed._ray import normalize_dataset, render_dataset, write_batch_dataset

__all__ = ["normalize_dataset", "render_dataset", "write_batch_dataset"]

_publish(__name__, globals(), __all__)
