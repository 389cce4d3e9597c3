"""What every wire shares: the `Wire` and `Served` protocols, the `Prepare` seam and rendering
helpers, typed reading of hostile JSON, and media sites for `check`.

A private folder of its package: its modules are imported by their own paths.
"""
