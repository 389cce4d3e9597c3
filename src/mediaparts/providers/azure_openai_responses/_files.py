"""Uploads for Azure's Responses API: the resource's store (`azure_openai.FILES`)."""

from __future__ import annotations

from mediaparts.providers import azure_openai

__all__ = ["FILES"]

FILES = azure_openai.FILES
