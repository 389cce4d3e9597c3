"""Budgets: tokens (counting, estimating, tokenizers, text and vision rules, media token rates),
trimming to a budget, and prices.

A private folder of its package: its modules are imported by their own paths.
"""
