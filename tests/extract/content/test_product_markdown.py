"""The markdown's product header follows the product record itself (``is_product``), not a
markup gate: a real product page stripped of its markup (fixtures/product/visible) opens with
its name and the price it shows; a listing, an article with product cards and a blog whose
app state holds a priced object get none (fixtures/product/PROVENANCE.md)."""

import gzip

import pytest

from conftest import ROOT

from crawlforge.extract.markdown import html_to_markdown

PRODUCT = ROOT / "fixtures" / "product"


def markdown_of(name: str, url: str) -> str:
    return html_to_markdown(gzip.decompress((PRODUCT / name).read_bytes()).decode("utf-8"), url)


@pytest.mark.parametrize("name, url, header", [
    ("visible/ikea-0666abeb.html.gz", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/",
     "# MÖCKELBY Table, oak 235x100 cm\n\nPrice: 450 GBP"),
    ("visible/ikea-f94bb87d.html.gz",
     "https://www.ikea.com/gb/en/p/vallentuna-sofa-bed-module-with-backrests-murum-black-s99277508/",
     "# VALLENTUNA Sofa-bed module with backrests, Murum black\n\nPrice: 515 GBP"),
])
def test_a_product_shown_without_markup_opens_its_markdown_with_name_and_price(name, url, header):
    markdown = markdown_of(name, url)
    assert markdown.startswith(header)
    assert markdown.count(header.partition("\n")[0] + "\n") == 1  # the page's own heading is not repeated


@pytest.mark.parametrize("name, url", [
    ("wcxb-0659.html.gz", "https://jococups.com/shop/"),  # a shop's grid of priced cups, each with a button
    ("wcxb-4810.html.gz", "https://us.3itech.com/blogs/news/how-does-robot-vacuum-mapping-work"),  # product cards
    ("wcxb-2972.html.gz", "https://netflixtechblog.com/"),  # a priced gift membership in its app state
])
def test_a_listing_or_an_article_quoting_prices_gets_no_product_header(name, url):
    markdown = markdown_of(name, url)
    assert "Price: " not in markdown  # the header's line; an article may open on its own title
