"""Batch files: lines and writers, writing many conversations in worker processes, reading
results.

A private folder of its package: its modules are imported by their own paths.
"""
