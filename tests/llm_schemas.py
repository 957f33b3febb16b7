"""Schemas the real-model tests crawl with (``-a schema=tests.llm_schemas:...``)."""

from pydantic import BaseModel, Field

from crawlforge.llm.schemas import Amount


class Listing(BaseModel):
    """A classified ad: the page's own data gives name, price and currency, not the place."""

    name: str | None = Field(None, description="Product name as the page's main heading shows it")
    price: float | None = Field(None, description="The selling price as a number, without currency symbol")
    currency: str | None = Field(None, description="ISO 4217 code of that price")
    location: str | None = Field(None, description="Where the seller is: the city, region and country line")


class RequiredProduct(BaseModel):
    """The three fields of a product page, each required: a missing one fails validation."""

    name: str = Field(description="Product name as the page's main heading shows it")
    price: Amount = Field(description="The selling price as a number, without currency symbol")
    currency: str = Field(description="ISO 4217 code of that price, e.g. GBP, EUR, USD")


class ProductWithBarcode(RequiredProduct):
    """A field most pages do not show, required and checked: a page without a barcode cannot
    give a valid one, whatever the model answers."""

    gtin: str = Field(description="The product's GTIN / EAN barcode: 8, 12, 13 or 14 digits",
                      pattern=r"^(?:[0-9]{8}|[0-9]{12,14})$")
