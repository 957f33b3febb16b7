"""The microdata reader's raw items, called plainly on captured pages: the values the page
writes, and the very items extruct's own walk makes of the same tree."""

from pathlib import Path

import pytest
from extruct.w3cmicrodata import MicrodataExtractor as ExtructMicrodata

from conftest import ROOT

from crawlforge.extract.extractors.base import parse_tree
from crawlforge.extract.extractors.microdata import _TextContentMicrodata

FIXTURES = ROOT / "fixtures"
URL = "https://www.otto.de/p/kaercher-hochdruckreiniger-k-3-full-control-848068924/"


class ExtructWalk(_TextContentMicrodata):
    """The reader with extruct's own walk of the items and their properties."""

    extract_items = ExtructMicrodata.extract_items
    _extract_properties = ExtructMicrodata._extract_properties


def read(path: Path, url: str = URL) -> list:
    return _TextContentMicrodata().extract_items(parse_tree(path.read_text(encoding="utf-8")), url)


def test_product_item_holds_the_pages_values():
    items = read(FIXTURES / "structured/product/otto_de_kaercher_k3_microdata.html")
    assert items == [{
        "type": "http://schema.org/Product",
        "properties": {
            "additionalProperty": {"type": "http://schema.org/PropertyValue",
                                   "properties": {"name": "variationId", "value": "836232854"}},
            "sku": "2800395267",
            "name": "KÄRCHER Hochdruckreiniger »K 3 Full Control«",
            "brand": "KÄRCHER",
            "productID": "sku:2800395267",
            "aggregateRating": {"type": "http://schema.org/AggregateRating",
                                "properties": {"ratingValue": "4.5", "reviewCount": "68"}},
            "offers": {"type": "http://schema.org/Offer",
                       "properties": {"availability": "http://schema.org/InStock", "priceCurrency": "EUR",
                                      "price": "119.01", "itemCondition": "http://schema.org/NewCondition"}},
            "gtin13": "4054278533728",
        },
    }]
    properties = items[0]["properties"]  # in the page's order
    assert list(properties) == ["gtin13", "sku", "additionalProperty", "brand", "name", "offers", "productID",
                                "aggregateRating"]
    assert list(properties["offers"]["properties"]) == ["itemCondition", "availability", "priceCurrency", "price"]


@pytest.mark.parametrize("path", sorted(
    path for path in FIXTURES.rglob("*.html") if "itemscope" in path.read_text(encoding="utf-8", errors="replace")),
    ids=lambda path: path.name)
def test_items_are_extructs(path):
    tree = parse_tree(path.read_text(encoding="utf-8", errors="replace"))
    assert repr(_TextContentMicrodata().extract_items(tree, URL)) == repr(ExtructWalk().extract_items(tree, URL))
