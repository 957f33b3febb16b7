"""The page's own data (JSON-LD, platform scripts, microdata, OpenGraph, meta tags),
read before cleaning and merged by extractor priority, with provenance.

Merge rule: for each field the highest-priority extractor that has a value wins;
every other extractor with a different value is recorded in ``conflicts``. One exception: a
page that shows the product for sale is in stock whatever its markup says (``_shown_stock``).
An extractor that raises becomes an ``errors`` entry; the others still run.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from crawlforge.extract.dom import ParsedPage, as_page
from crawlforge.extract.extractors import Finding, Page, load_extractors
from crawlforge.extract.extractors.values import NOT_FOR_SALE, as_decimal, same

SECTIONS = ("meta", "structured_data", "platform_data")
_NO_CONFLICT_FIELDS = {"variants"}  # lists: the winner's list is kept whole


@dataclass
class StructuredData:
    meta: dict = field(default_factory=dict)
    structured_data: dict = field(default_factory=dict)
    platform_data: dict = field(default_factory=dict)
    provenance: dict = field(default_factory=dict)  # "structured_data.price" -> "json-ld"
    conflicts: list = field(default_factory=list)
    sources_found: list = field(default_factory=list)
    warnings: list = field(default_factory=list)  # {"extractor", "message"}
    errors: list = field(default_factory=list)  # {"extractor", "message"}

    def is_empty(self) -> bool:
        return not (self.meta or self.structured_data or self.platform_data)

    def to_frontmatter(self) -> dict:
        return {name: getattr(self, name) for name in SECTIONS if getattr(self, name)}

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def extract_structured_data(html: str, url: str, extractors=None) -> StructuredData:
    """``extractors``: classes, instances or "module:Class" paths (default: the registry). The
    str form of ``page_structured_data`` (``html`` may be the page itself)."""
    return page_structured_data(as_page(html), url, extractors)


def page_structured_data(page: ParsedPage, url: str, extractors=None) -> StructuredData:
    """The structured data of a page. With the default registry it is made once and kept on the
    page (``page.shared``): the product record and the markdown's header read this same result,
    which no reader changes."""
    url = url if isinstance(url, str) else ""
    if extractors is None:
        return page.shared(structured_data, url)
    return _extract(Page(page, url), extractors)


def structured_data(page: ParsedPage, url: str) -> StructuredData:
    """The default registry's merge, for ``page.shared(structured_data, url)``."""
    return _extract(Page(page, url), None)


def _extract(page: Page, extractors) -> StructuredData:
    result = StructuredData()
    page.found = result.structured_data  # the readers see what the ones ranked above them found
    for extractor in load_extractors(extractors):
        finding = _run(extractor, page, result)
        if finding is not None and not finding.is_empty():
            source = finding.source or extractor.name
            if source not in result.sources_found:  # two readers may share a name ("visible")
                result.sources_found.append(source)
            _merge(result, finding, source)
    result.warnings.extend({"extractor": "parser", "message": message} for message in page.warnings)
    _pair_list_price(result)
    _shown_stock(result)
    return result


def _shown_stock(result: StructuredData) -> None:
    """A page that offers the product for sale (an enabled buy button, no out-of-stock notice:
    the visible reader's InStock) is in stock whatever its markup says: markup that says out of
    stock next to a live buy button is a cached or default variant's state. Any other
    disagreement keeps the markup (a notice may be one size's)."""
    found, provenance = result.structured_data, result.provenance
    if found.get("availability") not in NOT_FOR_SALE:
        return
    shown = next((c for c in result.conflicts if c["field"] == "availability" and c["source"] == "visible"
                  and c["value"] == "InStock"), None)
    if shown is not None:
        shown.update(source=shown["kept_source"], value=shown["kept_value"], kept_source="visible", kept_value="InStock")
        found["availability"], provenance["structured_data.availability"] = "InStock", "visible"


def _pair_list_price(result: StructuredData) -> None:
    """A list price belongs to the price it was read with: it goes when that source's price
    lost to a different one, or when it is no higher than the selling price."""
    found, provenance = result.structured_data, result.provenance
    if "list_price" not in found:
        return
    source = provenance["structured_data.list_price"]
    lost = any(c["field"] == "price" and c["source"] == source for c in result.conflicts)
    price, listed = as_decimal(found.get("price")), as_decimal(found["list_price"])
    if lost or price is None or listed is None or listed <= price:
        del found["list_price"], provenance["structured_data.list_price"]


def _run(extractor, page: Page, result: StructuredData) -> Finding | None:
    name = extractor.name
    try:
        finding = extractor.extract(page)
    except Exception as exc:  # noqa: BLE001 - isolation is the point
        result.errors.append({"extractor": name, "message": f"{type(exc).__name__}: {exc}"[:500]})
        return None
    if finding is not None:
        result.warnings.extend({"extractor": name, "message": m} for m in finding.warnings)
    return finding


def _merge(result: StructuredData, finding: Finding, source: str) -> None:
    result.meta.update(_new_fields(result, "meta", finding.meta, source, conflicts=False))
    result.structured_data.update(_new_fields(result, "structured_data", finding.structured_data, source))
    for platform, data in finding.platform_data.items():
        if platform not in result.platform_data:
            result.platform_data[platform] = data
            result.provenance[f"platform_data.{platform}"] = source


def _new_fields(result: StructuredData, section: str, fields: dict, source: str, conflicts: bool = True) -> dict:
    kept = getattr(result, section)
    new = {}
    for name, value in fields.items():
        if name not in kept:
            new[name] = value
            result.provenance[f"{section}.{name}"] = source
        elif conflicts and name not in _NO_CONFLICT_FIELDS and not same(kept[name], value):
            result.conflicts.append({
                "field": name, "source": source, "value": value,
                "kept_source": result.provenance[f"{section}.{name}"], "kept_value": kept[name],
            })
    return new
