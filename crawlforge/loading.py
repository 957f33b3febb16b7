"""The one loader of the classes a setting names by path (extractors, LLM schemas)."""

from __future__ import annotations

from importlib import import_module


def load_object(path: str):
    """The object ``"module:name"`` names, or ``"module.name"`` as in Scrapy's settings; what a
    module lacks is an ``ImportError``, as ``from module import name`` raises."""
    module, sep, name = path.partition(":")
    if not sep:
        module, _, name = path.rpartition(".")
    try:
        return getattr(import_module(module), name)
    except AttributeError:
        raise ImportError(f"cannot import {name!r} from {module!r} ({path!r})") from None
