"""Site templates: exact fields from the data a site ships, found by URL and run on a fetched body.

``TEMPLATES`` is the shipped set in registration order (the order breaks ties in ``detect``):
the ten page templates, then the job-board and government API connectors.
"""

from .base import MissingApiKeyError, Template, TemplateError, TemplateRejectedError
from .registry import TemplateRegistry
from .retired import RETIRED_TEMPLATES, retired_template
from .shopify import ShopifyCollection, ShopifyProduct

PAGE_TEMPLATES = [ShopifyProduct(), ShopifyCollection()]


def _connectors(module: str, name: str) -> list:
    """A connector list from a sibling module; empty only while that module does not exist yet."""
    from importlib import import_module

    try:
        return list(getattr(import_module(f".{module}", __name__), name))
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{module}":
            raise
        return []


TEMPLATES = PAGE_TEMPLATES + _connectors("ats", "ATS_TEMPLATES") + _connectors("gov", "GOV_TEMPLATES")

__all__ = [
    "MissingApiKeyError",
    "RETIRED_TEMPLATES",
    "TEMPLATES",
    "Template",
    "TemplateError",
    "TemplateRegistry",
    "TemplateRejectedError",
    "retired_template",
]
