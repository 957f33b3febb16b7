"""`scrapy templates`: the registry as a one-line-per-template table."""

from crawlforge.commands.templates import clip, templates_table
from crawlforge.templates import TemplateRegistry


def test_clip_marks_a_cut_with_an_ellipsis_within_the_width():
    assert clip("abcdef", 6) == "abcdef"
    assert clip("abcdefg", 6) == "abcde…"


def test_table_lists_every_template_with_optional_params_marked():
    summaries = TemplateRegistry().list()
    lines = templates_table(summaries).splitlines()
    assert len(lines) == len(summaries) + 1
    collection = next(line for line in lines if line.startswith("shopify-collection "))
    assert "store, collection, limit?, page?" in collection
    assert all(len(line) <= 200 for line in lines)
