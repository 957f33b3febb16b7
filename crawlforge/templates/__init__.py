"""Site templates: exact fields from the data a site ships, found by URL and run on a fetched body."""

from .base import MissingApiKeyError, Template, TemplateError, TemplateRejectedError
from .catalog import PAGE_TEMPLATES, TEMPLATES
from .registry import TemplateRegistry
from .retired import RETIRED_TEMPLATES, retired_template

__all__ = [
    "MissingApiKeyError",
    "PAGE_TEMPLATES",
    "RETIRED_TEMPLATES",
    "TEMPLATES",
    "Template",
    "TemplateError",
    "TemplateRegistry",
    "TemplateRejectedError",
    "retired_template",
]
