"""Upstream conformance: tests/producthunt-launch.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 163bb5e75fcf71d55709a6c518a4d8bd3e2ebf81 (the stored version): the
producthunt-launch template on the upstream's condensed product page (Apollo SSR transport).
"""

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
PRODUCT_RECORD = """{
  "rehydrate": {
    "_R_1": { "data": undefined, "loading": true },
    "_R_2": {
      "data": {
        "product": {
          "__typename": "Product",
          "id": "526756",
          "slug": "chatgpt",
          "name": "ChatGPT by OpenAI",
          "tagline": "Get answers. Find inspiration. Be more productive.",
          "description": "An LLM to get instant answers.",
          "websiteUrl": "https://openai.com/chatgpt",
          "followersCount": 11496,
          "reviewsCount": 707,
          "reviewsRating": 4.85,
          "categories": [
            { "__typename": "ProductCategory", "id": "126", "name": "LLMs", "slug": "llms" },
            { "__typename": "ProductCategory", "id": "127", "name": "AI Chatbots", "slug": "ai-chatbots" }
          ],
          "latestLaunch": {
            "__typename": "Post",
            "id": "1140101",
            "product": { "__typename": "Product", "id": "526756", "slug": "chatgpt", "websiteUrl": "https://openai.com/chatgpt" }
          }
        }
      }
    }
  }
}"""
HEAD = """
  <meta property="og:title" content="ChatGPT by OpenAI: Get answers. Find inspiration. Be more productive. | Product Hunt"/>
  <meta property="og:description" content="An LLM to get instant answers, find creative inspiration, and learn something new."/>
  <meta property="og:image" content="https://ph-files.imgix.net/fc5ba01c.png?auto=format"/>
  <meta property="og:url" content="https://www.producthunt.com/products/chatgpt"/>"""
BUTTON = (
    '<a href="https://openai.com/chatgpt?ref=producthunt" target="_blank" rel="noreferrer noopener ugc" '
    'data-test="visit-website-button">Visit website</a>'
)
PAGE = f"""<!DOCTYPE html><html><head>{HEAD}</head><body>
  {BUTTON}
  <script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({PRODUCT_RECORD})</script>
</body></html>"""
PAGE_NO_TRANSPORT = f"""<!DOCTYPE html><html><head>{HEAD}</head><body>
  {BUTTON}
</body></html>"""
URL = "https://www.producthunt.com/products/chatgpt"


def test_reads_the_product_record_from_the_apollo_transport():
    data = REGISTRY.run("producthunt-launch", PAGE, URL)["data"]
    assert data["name"] == "ChatGPT by OpenAI"
    assert data["tagline"] == "Get answers. Find inspiration. Be more productive."
    assert data["description"] == "An LLM to get instant answers."
    assert data["website"] == "https://openai.com/chatgpt"
    assert data["topics"] == ["LLMs", "AI Chatbots"]
    assert (data["followers"], data["reviews_count"], data["reviews_rating"]) == (11496, 707, 4.85)
    assert data["url"] == "https://www.producthunt.com/products/chatgpt"


def test_picks_the_page_level_product_not_a_nested_stub():
    assert REGISTRY.run("producthunt-launch", PAGE, URL)["data"]["followers"] == 11496


def test_falls_back_to_meta_tags_without_the_transport():
    data = REGISTRY.run("producthunt-launch", PAGE_NO_TRANSPORT, URL)["data"]
    assert data["name"] == "ChatGPT by OpenAI: Get answers. Find inspiration. Be more productive."
    assert data["website"] == "https://openai.com/chatgpt"
    assert data["topics"] is None
    assert data["followers"] is None


def test_detects_products_and_posts_urls():
    assert REGISTRY.detect("https://www.producthunt.com/products/chatgpt").id == "producthunt-launch"
    assert REGISTRY.detect("https://www.producthunt.com/posts/chatgpt").id == "producthunt-launch"
