"""URL hygiene for markdown links: absolute, no fragment, no tracking parameters."""

from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.content.urls import TRACKING_PARAMS, base_url, clean_url

PAGE = "https://shop.example/blog/post.html?page=2#top"


def test_tracking_parameters_go_and_the_others_keep_their_order():
    href = "/p?b=2&utm_source=news&a=1&fbclid=XYZ&gclid=1&utm_campaign=x&c=3#section"
    assert clean_url(href, PAGE) == "https://shop.example/p?b=2&a=1&c=3"


def test_a_query_of_tracking_parameters_only_disappears():
    assert clean_url("https://x.example/a?utm_medium=email&mc_cid=1&mc_eid=2", PAGE) == \
        "https://x.example/a"


def test_relative_paths_resolve_against_the_page():
    assert clean_url("../img/a.png", PAGE) == "https://shop.example/img/a.png"
    assert clean_url("other.html", PAGE) == "https://shop.example/blog/other.html"
    assert clean_url("//cdn.example/x.js", PAGE) == "https://cdn.example/x.js"
    assert clean_url("?page=3", PAGE) == "https://shop.example/blog/post.html?page=3"


def test_links_that_lead_nowhere_give_none():
    for href in ("#comments", "javascript:void(0)", "data:image/png;base64,AAAA", "  "):
        assert clean_url(href, PAGE) is None
    assert clean_url("mailto:a@b.example", PAGE) == "mailto:a@b.example"


def test_the_parameter_list_can_be_replaced():
    assert clean_url("/p?ref=home&utm_source=x", PAGE, tracking_params=("ref",)) == \
        "https://shop.example/p?utm_source=x"
    assert "utm_*" in TRACKING_PARAMS and "igshid" in TRACKING_PARAMS


def test_base_href_wins_over_the_page_url():
    assert base_url(PAGE, "/static/") == "https://shop.example/static/"
    assert base_url(PAGE, None) == PAGE


def test_markdown_links_and_images_use_base_href_and_drop_tracking():
    html = ('<html><head><base href="https://cdn.example/root/"></head><body><article>'
            '<p>Read <a href="doc.html?utm_source=feed&amp;id=7#part">the doc</a> and '
            '<a href="#top">top</a>.</p><img alt="chart" data-src="img/c.png?fbclid=1" '
            'src="data:image/gif;base64,R0lGOD"></article></body></html>')
    markdown = html_to_markdown(html, "https://site.example/page")
    assert "[the doc](https://cdn.example/root/doc.html?id=7)" in markdown
    assert "and top." in markdown
    assert "![chart](https://cdn.example/root/img/c.png)" in markdown
    assert "base64" not in markdown
