"""Parts and messages: the typed conversation, how it is made from what callers hand us, checked,
shown, filtered and merged.

A private folder of its package: its modules are imported by their own paths.
"""
