"""Example schemas for ``CRAWLFORGE_LLM_SCHEMA`` (``crawlforge.llm.schemas:ProductList``).

Write your own the same way: field descriptions go into the prompt, so say what a value
means on the page and what to do when it is absent."""

from __future__ import annotations

from typing import Annotated

from price_parser import Price
from pydantic import BaseModel, BeforeValidator, Field


def amount_as_shown(value):
    """A price a model copied as the page shows it ("Rs 23,450", "1.299,00 €") is its amount."""
    if isinstance(value, str):
        amount = Price.fromstring(value).amount
        return float(amount) if amount is not None else value
    return value


# A number field that also takes the price as a page shows it: small models copy the shown text.
Amount = Annotated[float, BeforeValidator(amount_as_shown)]


class Product(BaseModel):
    name: str = Field(description="Product name exactly as shown, e.g. the brand line of a listing card")
    description: str | None = Field(None, description="The short type/size line shown under the name")
    price: float = Field(description="Current price as a number, without currency symbol")
    currency: str | None = Field(None, description="ISO 4217 code of the price, e.g. GBP; null if not shown")


class ProductList(BaseModel):
    """Every product offered or listed on a page, the main one and any related listings."""

    products: list[Product] = Field(description="All products on the page, in page order")


class PageProduct(BaseModel):
    """The one product a product page offers (what ``CRAWLFORGE_LLM_FILL_MISSING`` can complete
    from the page's own data: same field names as its structured data)."""

    name: str | None = Field(None, description="Product name as the page's main heading shows it")
    price: Amount | None = Field(None, description="The selling price as a number, without currency symbol; "
                                                  "not a size, weight, model number or other figure")
    currency: str | None = Field(None, description="ISO 4217 code of that price, e.g. GBP, EUR, USD")
