"""Fitting media to a provider's rules: `normalize`, conversions for what it cannot take,
documents and text files, what it accepts, uploads by reference.

A private folder of its package: its modules are imported by their own paths.
"""
