"""Real product pages as the pipelines leave them for the LLM step: markdown and document."""

import gzip
from pathlib import Path

from itemadapter import ItemAdapter

from crawlforge.extract.frontmatter import render_document
from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.structured import extract_structured_data
from crawlforge.pipelines.frontmatter import build_frontmatter

PAGES = Path(__file__).resolve().parent.parent / "fixtures" / "llm" / "pages"
# the same prompt on every run: at temperature 0 the model's answer is then the same too
PROCESSED_AT = "2026-12-01 00:00:00"
# 1.66 MB of HTML (fixtures/llm/PROVENANCE.md)
SOFA = ("cocorepublic_au_atelier_sofa.html.gz", "https://www.cocorepublic.com.au/345808-atelier-sofa.html")
OLX = ("olx_pk_infinix_hot10.html",
       "https://www.olx.com.pk/item/infinix-hot-10-6128-wala-box-pack-warranty-wala-iid-1021493409")


def page_html(name: str) -> str:
    data = (PAGES / name).read_bytes()
    return (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")


def page_item(page: tuple[str, str], **markdown_options) -> ItemAdapter:
    """``markdown`` and ``document`` of a page; ``main_content=False`` keeps the whole page."""
    name, url = page
    html = page_html(name)
    markdown = html_to_markdown(html, url, **markdown_options)
    structured = extract_structured_data(html, url).to_frontmatter()
    frontmatter = build_frontmatter(ItemAdapter({"url": url, "html": html, "structured_data": structured}), False)
    frontmatter["processed_at"] = PROCESSED_AT
    return ItemAdapter({"markdown": markdown, "document": render_document(frontmatter, markdown)})
