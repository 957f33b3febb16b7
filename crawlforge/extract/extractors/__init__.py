"""Registry of structured-data extractors.

An extractor is a class (or instance) with ``name``, ``priority`` and
``extract(page) -> Finding``; it can be named as a class object or a
``"module:Class"`` path, which is what the ``CRAWLFORGE_STRUCTURED_EXTRACTORS``
setting holds.
"""

from __future__ import annotations

import importlib

from crawlforge.extract.extractors.base import Extractor, Finding, Page

DEFAULT_EXTRACTORS = (
    "crawlforge.extract.extractors.jsonld:JsonLdExtractor",
    "crawlforge.extract.extractors.shopify:ShopifyExtractor",
    "crawlforge.extract.extractors.woocommerce:WooCommerceExtractor",
    "crawlforge.extract.extractors.shopware:ShopwareExtractor",
    "crawlforge.extract.extractors.microdata:MicrodataExtractor",
    "crawlforge.extract.extractors.opengraph:OpenGraphExtractor",
    "crawlforge.extract.extractors.meta:MetaTagsExtractor",
)

__all__ = ["DEFAULT_EXTRACTORS", "Extractor", "Finding", "Page", "load_extractors"]


def _resolve(spec):
    if not isinstance(spec, str):
        return spec
    module_name, sep, attr = spec.partition(":")
    if not sep:
        module_name, _, attr = spec.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


def load_extractors(specs=None) -> list:
    """Instances sorted by priority, highest first (stable, so ties keep the given
    order). A bad spec raises: it is a configuration error, not a page error."""
    resolved = [_resolve(spec) for spec in (DEFAULT_EXTRACTORS if specs is None else specs)]
    instances = [obj() if isinstance(obj, type) else obj for obj in resolved]
    return sorted(instances, key=lambda ext: -ext.priority)
