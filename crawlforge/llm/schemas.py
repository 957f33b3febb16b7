"""Example schemas for ``CRAWLFORGE_LLM_SCHEMA`` (``crawlforge.llm.schemas:ProductList``).

Write your own the same way: field descriptions go into the prompt, so say what a value
means on the page and what to do when it is absent."""

from __future__ import annotations

from pydantic import BaseModel, Field


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
    price: float | None = Field(None, description="The selling price as a number, without currency symbol; "
                                                  "not a size, weight, model number or other figure")
    currency: str | None = Field(None, description="ISO 4217 code of that price, e.g. GBP, EUR, USD")
