"""Registry of structured-data extractors.

An extractor is a class (or instance) with ``name``, ``priority`` and
``extract(page) -> Finding``; it can be named as a class object or a
``"module:Class"`` path, which is what the ``CRAWLFORGE_STRUCTURED_EXTRACTORS``
setting holds.
"""

from __future__ import annotations

import functools

from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.loading import load_object

DEFAULT_EXTRACTORS = (
    "crawlforge.extract.extractors.visible:VisibleLabelsExtractor",
    "crawlforge.extract.extractors.jsonld:JsonLdExtractor",
    "crawlforge.extract.extractors.shopify_scripts:ShopifyExtractor",
    "crawlforge.extract.extractors.woocommerce:WooCommerceExtractor",
    "crawlforge.extract.extractors.shopware:ShopwareExtractor",
    "crawlforge.extract.extractors.magento:MagentoExtractor",
    "crawlforge.extract.extractors.microdata:MicrodataExtractor",
    "crawlforge.extract.extractors.opengraph:OpenGraphExtractor",
    "crawlforge.extract.extractors.meta:MetaTagsExtractor",
    "crawlforge.templates.extractor:TemplateExtractor",  # the site templates, above extract/
    "crawlforge.extract.extractors.appstate:AppStateExtractor",
    "crawlforge.extract.extractors.visible:VisiblePriceExtractor",
    "crawlforge.extract.extractors.urlid:UrlIdExtractor",
)

__all__ = ["DEFAULT_EXTRACTORS", "Extractor", "Finding", "Page", "load_extractors"]


def load_extractors(specs=None) -> tuple:
    """Instances sorted by priority, highest first (stable, so ties keep the given
    order). Loaded once per distinct spec list. A bad spec raises: it is a
    configuration error, not a page error."""
    specs = tuple(DEFAULT_EXTRACTORS if specs is None else specs)
    try:
        return _load(specs)
    except TypeError:  # an unhashable extractor instance: load without the cache
        return _load.__wrapped__(specs)


@functools.lru_cache(maxsize=32)
def _load(specs: tuple) -> tuple:
    instances = [_instance(spec) for spec in specs]
    return tuple(sorted(instances, key=lambda ext: -ext.priority))


def _instance(spec):
    obj = load_object(spec) if isinstance(spec, str) else spec
    obj = obj() if isinstance(obj, type) else obj
    if not (isinstance(getattr(obj, "name", None), str) and isinstance(getattr(obj, "priority", None), int)
            and callable(getattr(obj, "extract", None))):
        raise TypeError(f"{spec!r} is not a structured-data extractor (needs name, priority and extract(page))")
    return obj
