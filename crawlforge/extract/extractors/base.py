"""The extractor interface: one small class per source of page data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from extruct.utils import parse_html

CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def parse_tree(html: str):
    """The lxml tree extruct expects. Bytes, so an XML declaration is no error; None
    for a blank page. Raises what lxml raises on input it cannot take."""
    if not html.strip():
        return None
    return parse_html(html.encode("utf-8", "surrogatepass"), encoding="utf-8")


@dataclass
class Page:
    """One page, parsed once and shared by every extractor.

    ``tree`` is an lxml HTML tree (None when lxml could not parse the text), so the
    extruct extractors can run on it without parsing again; ``html`` stays available
    for extractors that read inline scripts with patterns.
    """

    html: str
    url: str
    tree: Any = None


@dataclass
class Finding:
    """What one extractor read: values for each frontmatter section, plus warnings."""

    meta: dict = field(default_factory=dict)
    structured_data: dict = field(default_factory=dict)
    platform_data: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.meta or self.structured_data or self.platform_data)


class Extractor:
    """Base class: ``name`` is the provenance label, ``priority`` decides conflicts
    (higher wins; ties keep the registry order). ``extract`` may raise: the
    orchestrator isolates each extractor and records the failure."""

    name = "extractor"
    priority = 0

    def extract(self, page: Page) -> Finding | None:
        raise NotImplementedError
