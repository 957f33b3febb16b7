"""Upstream conformance: the table-driven TemplateRegistry.run cases of
tests/unit/tools/templates/scrapeTemplate.test.js in the sibling repository
mysleekdesigns/crawlforge-mcp (newest stored version, 29,233 characters), which runs the
crawlforge-extractors templates on one representative body per page template.

Only the registry part is ported; the ScrapeTemplateTool cases (its fetch, robots gate and
credential plumbing) belong to the MCP server, whose crawlforge counterpart is the template
spiders. Where that version predates an extractors change the spec follows, the case asserts
the spec's value and its docstring names the spec section.
"""

import json

import pytest

from crawlforge.templates import TEMPLATES, TemplateRegistry

REGISTRY = TemplateRegistry()


def run(template_id: str, body: str, url: str) -> dict:
    result = REGISTRY.run(template_id, body, url)
    assert result["template"] == template_id
    assert result["url"] == url
    assert result["data"]
    return result["data"]


def test_every_page_template_is_covered_by_the_table():
    page_templates = sorted(
        t.id for t in TEMPLATES if not callable(getattr(t, "extract_list", None)) and not callable(getattr(t, "list_url", None))
    )
    assert page_templates == sorted({
        "shopify-product", "amazon-product", "github-repo", "youtube-video", "reddit-thread",
        "hacker-news-front-page", "producthunt-launch", "stackoverflow-question", "npm-package",
    })  # fmt: skip


def test_shopify_product():
    body = json.dumps({"product": {
        "id": 1, "title": "Test Product", "vendor": "Acme", "handle": "some-handle",
        "body_html": "<p>Copy.</p>", "tags": ["a"], "options": [{"name": "Size"}],
        "images": [{"src": "https://cdn.example/1.jpg"}],
        "variants": [{
            "id": 11, "title": "S", "price": "19.99", "compare_at_price": "29.99", "sku": "S-1",
            "option1": "S", "inventory_management": "shopify", "inventory_policy": "deny",
            "inventory_quantity": 3, "price_currency": "USD",
        }],
    }})  # fmt: skip
    data = run("shopify-product", body, "https://shop.example.com/products/some-handle")
    assert (data["title"], data["price"], data["compare_at_price"]) == ("Test Product", "19.99", "29.99")
    assert data["on_sale"] is True and data["available"] is True


def test_amazon_product():
    html = """<html><body>
      <span id="productTitle">  Wireless Mouse  </span>
      <span class="a-price"><span class="a-offscreen">$19.99</span></span>
      <input type="hidden" name="items[0.base][customerVisiblePrice][currencyCode]" value="USD">
      <span id="acrPopover" title="4.5 out of 5 stars"><span>4.5</span></span>
      <span id="acrCustomerReviewText">(1,234)</span>
      <input id="ASIN" name="ASIN" value="B000000000">
      <a id="bylineInfo">Visit the Acme Store</a>
      <div id="feature-bullets"><ul>
        <li><span class="a-list-item">Ergonomic shape.</span></li>
        <li><span class="a-list-item">USB receiver included.</span></li>
      </ul></div>
      <div id="imgTagWrapperId"><img id="landingImage" src="https://m.media-amazon.com/images/I/61ABCDEFGH._AC_SY300_SX300_.jpg"></div>
      <div id="altImages">
        <img src="https://m.media-amazon.com/images/I/31IJKLMNOP._AC_SR40,60_.jpg">
        <img src="https://images-na.ssl-images-amazon.com/images/G/01/x-locale/common/transparent-pixel._V192234675_.gif">
      </div>
      <div id="availability"><span>In Stock</span></div>
      <div id="wayfinding-breadcrumbs_feature_div"><a href="#">Electronics</a><a href="#">Accessories</a></div>
    </body></html>"""
    data = run("amazon-product", html, "https://amazon.com/dp/B000000000")
    assert (data["title"], data["price"], data["currency"]) == ("Wireless Mouse", "$19.99", "USD")
    assert (data["rating"], data["review_count"], data["asin"], data["brand"]) == (4.5, 1234, "B000000000", "Acme")
    assert data["description"] == "Ergonomic shape. USB receiver included."
    assert data["images"] == ["https://m.media-amazon.com/images/I/61ABCDEFGH.jpg", "https://m.media-amazon.com/images/I/31IJKLMNOP.jpg"]
    assert data["category_breadcrumb"] == ["Electronics", "Accessories"]


def test_github_repo_classic_layout():
    html = """<html><head><meta property="og:description" content="A widget factory."></head><body>
      <strong itemprop="name"><a href="/acme/widget">widget</a></strong>
      <span itemprop="programmingLanguage">TypeScript</span>
      <a class="topic-tag" href="#">cli</a><a class="topic-tag" href="#">tooling</a>
      <relative-time datetime="2024-05-01T00:00:00Z"></relative-time>
    </body></html>"""
    data = run("github-repo", html, "https://github.com/acme/widget")
    assert (data["name"], data["description"], data["language"]) == ("widget", "A widget factory.", "TypeScript")
    assert data["topics"] == ["cli", "tooling"]
    assert data["last_updated"] == "2024-05-01T00:00:00Z"


REACT_LAYOUT = """<html><head><meta property="og:description" content="React layout repo."></head><body>
      <strong itemprop="name"><a href="/acme/react-layout">react-layout</a></strong>
      <h3 class="sr-only"><span>Watchers</span></h3>
      <div class="mt-2"><span><svg class="octicon octicon-eye mr-2"></svg><strong>635</strong> watching</span></div>
      <a href="/topics/mcp">mcp</a><a href="/topics/scraping">scraping</a>
      <h2><span>Languages</span></h2><div class="prc-SkeletonText-SkeletonText--DvUT"></div>
    </body></html>"""


def test_github_repo_react_layout():
    data = run("github-repo", REACT_LAYOUT, "https://github.com/acme/react-layout")
    assert data["name"] == "react-layout"
    assert data["topics"] == ["mcp", "scraping"]
    assert data["language"] is None


def test_github_repo_react_layout_watchers_as_an_integer():
    """That version expected the text '635'; templates.md §3.4 (github-repo.test.js R24,
    00b1a5b5) makes counts exact integers."""
    assert run("github-repo", REACT_LAYOUT, "https://github.com/acme/react-layout")["watchers"] == 635


def test_youtube_video():
    html = """<html><head>
      <meta name="title" content="How CrawlForge Works">
      <link itemprop="name" content="CrawlForge Channel">
      <meta itemprop="uploadDate" content="2024-02-02">
      <meta property="og:description" content="A walkthrough video.">
      <meta property="og:image" content="https://img.example.com/thumb.jpg">
      <meta itemprop="duration" content="PT8M30S">
      <link rel="canonical" href="/watch?v=abc123">
    </head><body>
      <div itemprop="interactionStatistic" itemscope itemtype="https://schema.org/InteractionCounter">
        <meta itemprop="interactionType" content="https://schema.org/LikeAction">
        <meta itemprop="userInteractionCount" content="4321">
      </div>
      <div itemprop="interactionStatistic" itemscope itemtype="https://schema.org/InteractionCounter">
        <meta itemprop="interactionType" content="https://schema.org/WatchAction">
        <meta itemprop="userInteractionCount" content="98765">
      </div>
    </body></html>"""
    data = run("youtube-video", html, "https://youtube.com/watch?v=abc123")
    assert (data["title"], data["channel"]) == ("How CrawlForge Works", "CrawlForge Channel")
    assert (data["views"], data["likes"]) == (98765, 4321)
    assert data["duration"] == "PT8M30S"
    assert data["video_id"] is None  # a relative canonical URL degrades to null, not a crash


def test_reddit_thread():
    body = json.dumps({"data": [{
        "id": "abc", "title": "My Post Title", "subreddit": "programming", "author": "alice",
        "created_utc": 1709424000, "score": 12, "upvote_ratio": 0.9, "num_comments": 3,
        "is_self": True, "selftext": "Post body text here.", "link_flair_text": None, "over_18": False,
        "permalink": "/r/programming/comments/abc/title/",
    }]})  # fmt: skip
    data = run("reddit-thread", body, "https://reddit.com/r/programming/comments/abc/title/")
    assert (data["title"], data["subreddit"]) == ("My Post Title", "programming")
    assert data["posted"] == "2024-03-03T00:00:00.000Z"
    assert data["body"] == "Post body text here."
    assert data["url"] == "https://www.reddit.com/r/programming/comments/abc/title/"


HN_PAGE = """<html><body><table>
      <tr class="athing" id="111">
        <td class="title"><span class="titleline"><a href="https://example.com/story-one">Story One</a></span></td>
      </tr>
      <tr><td class="subtext">
        <span class="score">120 points</span> by <a class="hnuser" href="user?id=alice">alice</a>
        <span class="age"><a href="item?id=111">3 hours ago</a></span> |
        <a href="item?id=111">42&nbsp;comments</a>
      </td></tr>
      <tr class="athing" id="222">
        <td class="title"><span class="titleline"><a href="https://example.com/job-post">Acme (YC S26) Is Hiring</a></span></td>
      </tr>
      <tr><td class="subtext">
        <span class="age"><a href="item?id=222">1 hour ago</a></span> | <a href="hide?id=222">hide</a>
      </td></tr>
    </table></body></html>"""


def test_hacker_news_front_page():
    data = run("hacker-news-front-page", HN_PAGE, "https://news.ycombinator.com/")
    assert len(data["stories"]) == 2
    story, job = data["stories"]
    assert (story["id"], story["title"], story["url"]) == ("111", "Story One", "https://example.com/story-one")
    assert (story["score"], story["author"], story["posted"]) == ("120", "alice", "3 hours ago")
    assert (job["id"], job["score"], job["author"], job["posted"], job["comments"]) == ("222", None, None, "1 hour ago", None)


def test_hacker_news_comments_label_reads_as_the_count():
    """That version kept the label '42\u00a0comments'; templates.md §3.7
    (hacker-news-front-page.test.js R15, 3a289f49) reads it as the count '42'."""
    assert run("hacker-news-front-page", HN_PAGE, "https://news.ycombinator.com/")["stories"][0]["comments"] == "42"


def test_producthunt_launch():
    html = """<html><head>
      <meta property="og:title" content="Acme Widget: The best widget yet. | Product Hunt">
      <meta property="og:description" content="The best widget yet.">
      <meta property="og:image" content="https://img.example.com/ph.jpg">
      <meta property="og:url" content="https://www.producthunt.com/products/acme-widget">
    </head><body>
      <a href="https://acme.example.com?ref=producthunt" data-test="visit-website-button">Visit website</a>
      <script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({"rehydrate":{"_R_1":{"data":{"product":{"__typename":"Product","id":"1","slug":"acme-widget","name":"Acme Widget","tagline":"The best widget yet.","description":"A widget.","websiteUrl":"https://acme.example.com","followersCount":42,"reviewsCount":7,"reviewsRating":4.5,"categories":[{"__typename":"ProductCategory","name":"Productivity","slug":"productivity"}]}}}}})</script>
    </body></html>"""  # noqa: E501
    data = run("producthunt-launch", html, "https://www.producthunt.com/products/acme-widget")
    assert (data["name"], data["tagline"]) == ("Acme Widget", "The best widget yet.")
    assert data["topics"] == ["Productivity"]
    assert data["website"] == "https://acme.example.com"
    assert (data["followers"], data["reviews_rating"]) == (42, 4.5)


def test_stackoverflow_question():
    body = json.dumps({
        "items": [{
            "question_id": 123,
            "title": "How do I center a &quot;div&quot;?",
            "body": "<p>Use flexbox with <code>justify-content: center</code>.</p>",
            "score": 15, "view_count": 4200, "tags": ["css", "flexbox"],
            "owner": {"display_name": "alice", "reputation": 900},
            "creation_date": 1712188800, "last_activity_date": 1712275200,
            "link": "https://stackoverflow.com/questions/123/how-do-i",
            "is_answered": True, "accepted_answer_id": 456, "answer_count": 2,
            "answers": [
                {"answer_id": 789, "score": 40, "is_accepted": False, "owner": {"display_name": "carol"},
                 "creation_date": 1712190000, "body": "<p>Or use grid.</p>"},
                {"answer_id": 456, "score": 30, "is_accepted": True, "owner": {"display_name": "bob"},
                 "creation_date": 1712189000, "body": "<p>Here's the accepted answer body.</p>"},
            ],
        }],
        "has_more": False, "quota_max": 300, "quota_remaining": 299,
    })  # fmt: skip
    data = run("stackoverflow-question", body, "https://stackoverflow.com/questions/123/how-do-i")
    assert data["title"] == 'How do I center a "div"?'
    assert data["body"] == "Use flexbox with justify-content: center."
    assert (data["votes"], data["views"], data["tags"], data["author"]) == (15, 4200, ["css", "flexbox"], "alice")
    assert data["asked"] == "2024-04-04T00:00:00.000Z"
    assert (data["answered"], data["answer_count"], len(data["answers"])) == (True, 2, 2)
    assert data["answers"][0]["accepted"] is True
    assert data["answers"][0]["body"] == "Here's the accepted answer body."
    assert data["answers"][1]["votes"] == 40


def test_npm_package():
    body = json.dumps({
        "name": "crawlforge-mcp-server",
        "dist-tags": {"latest": "4.10.0"},
        "maintainers": [{"name": "someuser"}],
        "time": {"4.10.0": "2026-05-01T00:00:00.000Z"},
        "versions": {"4.10.0": {
            "description": "MCP server for web scraping.", "license": "MIT",
            "repository": {"type": "git", "url": "git+https://github.com/acme/crawlforge-mcp-server.git"},
            "dependencies": {"cheerio": "^1.0.0"},
        }},
    })  # fmt: skip
    data = run("npm-package", body, "https://npmjs.com/package/crawlforge-mcp-server")
    assert (data["name"], data["version"], data["description"]) == ("crawlforge-mcp-server", "4.10.0", "MCP server for web scraping.")
    assert (data["license"], data["install_command"]) == ("MIT", "npm install crawlforge-mcp-server")
    assert data["repository"] == "https://github.com/acme/crawlforge-mcp-server"
    assert data["maintainers"] == ["someuser"]
    assert (data["dependency_count"], data["deprecated"]) == (1, False)


def test_unknown_template_id_names_the_available_list():
    with pytest.raises(ValueError, match="Unknown template"):
        REGISTRY.run("not-a-real-template", "<html></html>", "https://example.com")
