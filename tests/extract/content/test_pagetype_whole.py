"""Main content of card and section pages on real WCXB pages (fixtures/pagetypes/PROVENANCE.md)."""

import gzip
import re

from conftest import ROOT

from crawlforge.extract.markdown import page_content

FIXTURES = ROOT / "fixtures" / "pagetypes"


def load(name: str) -> str:
    return gzip.decompress((FIXTURES / name).read_bytes()).decode("utf-8")


def test_a_card_written_as_one_link_keeps_its_picture_a_picture():
    page = page_content(load("wcxb-2974.html.gz"), "https://www.seriouseats.com/tomato-sauce-recipes-5117879")
    assert "Easy Slow-Cooker Pork Ragù](https://www.seriouseats.com/slow-cooker-pork-ragu-recipe-11917949)" in page.markdown
    assert "[![A plate of pasta topped with pork ragu served on a green surface](" in page.markdown
    assert not re.search(r"(?<!!)\[A plate of pasta topped", page.markdown)  # the alt text as the link's words
    assert "Recipes by Course" not in page.markdown


def test_item_cards_in_one_link_keep_titles_and_prices_not_photo_descriptions():
    page = page_content(load("wcxb-4204.html.gz"), "https://www.etsy.com/market/handmade_wallet")
    assert page.page_type == "listing"
    assert "Fully Customizable Leather Cash Wallet, Handmade and Minimalist" in page.markdown
    assert not re.search(r"(?<!!)\[May include:", page.markdown) and "[![May include:" in page.markdown
    assert "Please enter a valid email address." not in page.markdown


def test_page_of_no_kind_whose_best_block_is_a_small_part_keeps_the_page():
    page = page_content(load("wcxb-0135.html.gz"), "https://onehealthohio.org/dental-care/")
    assert "Dental services are available for adults and children" in page.markdown  # the best block
    assert "Screening Exams" in page.markdown and "Root Canals on Select Teeth" in page.markdown  # its sections
    assert "Youngstown Community Health Center" in page.markdown
    assert "Do you have a dental emergency?" in page.markdown
    assert "Patient Information" not in page.markdown and "Contact Us" not in page.markdown


def test_panels_a_folded_control_opens_are_content():
    page = page_content(load("wcxb-1056.html.gz"), "https://rsmus.com/services/digital-transformation/data-analytics.html")
    assert "Our experienced team delivers consulting services and solutions to help develop your AI strategy" in page.markdown
    assert "Optimize your data strategy and overcome data quality challenges" in page.markdown
    assert "Information has never been a more valuable commodity" in page.markdown
    assert "High Contrast" not in page.markdown and "About RSM" not in page.markdown


def test_menu_tree_goes_from_a_page_kept_whole():
    page = page_content(load("wcxb-4509.html.gz"), "https://www.peacetarget.com/product-category/electronics-and-gadgets/")
    assert "Power Banks" in page.markdown and "Bluetooth Speakers" in page.markdown  # the cards
    assert "Computer Accessories" in page.markdown
    assert "Outdoor items" not in page.markdown and "Camp Kitchen" not in page.markdown  # the category tree


def test_a_page_made_of_many_link_lists_keeps_them():
    page = page_content(load("wcxb-2904.html.gz"), "https://en.wikipedia.org/wiki/List_of_programming_languages")
    assert "This is an index to notable [programming languages](" in page.markdown
    assert not page.markdown.startswith("-")  # no empty items of a menu emptied
    assert "[ALGOL 68](" in page.markdown and "[Fortran](https://en.wikipedia.org/wiki/Fortran) – ISO/IEC 1539" in page.markdown
    assert "[Python](" in page.markdown and "[Haskell](" in page.markdown
    assert "Random article" not in page.markdown and "Privacy policy" not in page.markdown


def test_chrome_named_cards_sharing_their_leading_class_words_are_the_page():
    page = page_content(load("wcxb-0709.html.gz"), "https://www.deloitte.com/us/en/services.html")
    assert "At Deloitte, we see every challenge as an opportunity for growth." in page.markdown
    assert "Leverage engineering-led design, deep industry knowledge" in page.markdown  # a card
    assert "Deloitte’s Assurance business leverages our professional accounting" in page.markdown  # another
    assert "Select your location" not in page.markdown and "Skip to main content" not in page.markdown


def test_sections_sharing_a_weak_chrome_name_that_hold_the_article_stay():
    page = page_content(load("wcxb-4233.html.gz"), "https://www.netgear.com/hub/technology/what-is-mesh-wifi/")
    assert "Mesh WiFi systems are wireless networks that combine a WiFi router" in page.markdown  # first section
    assert "## How to set up Mesh WiFi" in page.markdown  # a later one
    assert "Mesh WiFi coverage varies by home layout" in page.markdown  # the FAQ's last answer
    assert page.page_type == "article"
    assert "Share Article" not in page.markdown and "Copy link" not in page.markdown


def test_category_page_tagged_only_as_a_product_is_a_listing_of_its_cards():
    page = page_content(load("wcxb-4112.html.gz"), "https://www.whiteflowerfarm.com/indoor-pottery")
    assert page.page_type == "listing"  # `og:type` says product, no product data does
    assert "Gray Cathedral Pot and Saucer" in page.markdown and "Persephone Ceramic Planter" in page.markdown
    assert "French Harvest Pot, Medium](https://www.whiteflowerfarm.com/french-harvest-pot-and-saucer-medium)" in page.markdown
    assert "$59.00 $29.50" in page.markdown  # a card's price and its sale price


def test_story_teasers_sharing_a_weak_chrome_name_that_are_the_page_stay():
    page = page_content(load("wcxb-1795.html.gz"), "https://kval.com/topic/Car%20Rental")
    assert "[Thanksgiving travel hits new record with 82 million travelers, AAA reports](" in page.markdown
    assert "Thanksgiving is the busiest travel holiday of the year" in page.markdown  # its summary
    assert "[NRA faces corporate backlash after latest school shooting](" in page.markdown  # the last one
    assert "Please ensure Javascript is enabled" not in page.markdown


def test_hidden_panels_a_button_controls_are_folded_content():
    page = page_content(load("wcxb-4287.html.gz"), "https://www.insight.com/en_US/what-we-do/expertise/cybersecurity.html")
    # the FAQ's answers: `display: none` panels named by their button's aria-controls
    assert "AI can push you to modernize detection, response, and governance" in page.markdown


def test_hidden_box_after_a_question_is_its_folded_answer():
    page = page_content(load("wcxb-0132.html.gz"), "https://alison.com/certificate-courses")
    assert "What is an Online Certificate Program?\n\nAn online certificate program is considered postsecondary" \
        in page.markdown  # a `display: none` answer after its question, no ARIA to link them


def test_link_list_a_line_of_the_article_announces_is_the_article():
    page = page_content(load("wcxb-0068.html.gz"), "https://fieldedge.com/blog/51-must-have-electrician-tools/")
    # `Top Expert Recommendations:` over a list of product links, all of it links
    assert "[Fluke 117](https://www.amazon.com/" in page.markdown and "[Klein Tools 11061](" in page.markdown
    assert "[Knipex Tools 09 02 240 Lineman’s Pliers](" in page.markdown
    assert "A multimeter is the backbone of every electrician’s toolkit." in page.markdown
    assert "Why FieldEdge?" not in page.markdown and "HVAC Software" not in page.markdown


def test_a_line_every_card_says_the_same_is_a_label_not_content():
    page = page_content(load("wcxb-0847.html.gz"), "https://www.topadvisor.com/categories/machine-learning-ml/rankings")
    assert page.page_type == "listing"
    assert "[Automation Anywhere](https://www.topadvisor.com/products/automationanywhere)" in page.markdown
    assert "[ChatGPT](" in page.markdown and "[Claude](" in page.markdown  # the ranked items stay
    assert not re.search(r"(?m)^Compare$", page.markdown)  # each card's checkbox label, 40 times


def test_post_cards_numbered_by_their_first_class_whose_titles_sit_in_their_headers_are_a_listing():
    page = page_content(load("wcxb-4632.html.gz"),
                        "https://confessionsofafitfoodie.com/category/recipes/cooking-method/airfryer/")
    # each card: `<article class="post-25966 post ..."><header><h2><a>title</a></h2></header>`
    assert page.page_type == "listing"
    assert "[Sticky Air Fryer Salmon Bites (Stovetop Option)](" in page.markdown
    assert "Air Fryer Zucchini With Parmesan (no breading)" in page.markdown
    assert "Weekly Dinner Plans" not in page.markdown and "Featured On" not in page.markdown


def test_the_header_of_an_article_in_the_content_is_its_title_not_the_site_header():
    page = page_content(load("wcxb-4609.html.gz"), "https://www.goingzerowaste.com/blog-posts-for-beginners/")
    assert "Going zero waste, might mean you’re incorporating more cooking or more DIY" in page.markdown
    assert "Here’s a road map for how you will transform through your zero waste journey" in page.markdown
    assert "Like me on Facebook" not in page.markdown and "Follow me on Pinterest" not in page.markdown


def test_link_lists_under_the_headings_of_a_docs_page_are_its_sections():
    page = page_content(load("wcxb-4415.html.gz"), "https://wiki.postgresql.org/wiki/Performance_Optimization")
    assert "## Critical maintenance for performance" in page.markdown
    assert "[Planner Statistics](https://wiki.postgresql.org/wiki/Planner_Statistics)" in page.markdown
    assert "[Limiting and prioritizing user/query/database resource usage](" in page.markdown
    assert "[Reliable Writes](" in page.markdown
    assert "Personal tools" not in page.markdown and "Page actions" not in page.markdown


def test_a_list_whose_items_each_say_something_beside_their_link_is_the_articles():
    page = page_content(load("wcxb-0189.html.gz"), "https://theluxurytravelexpert.com/best-luxury-hotel-brands/")
    # `<li><strong>Official website</strong>: <a>Park Hyatt</a></li>`, the link most of each item
    assert "- **Official website**: [Park Hyatt](http://www.park.hyatt.com/en/parkhyatt.html)" in page.markdown
    assert "- **Flagship hotel**: [Park Hyatt New York](" in page.markdown
    assert "Share this:" not in page.markdown and "Related Articles" not in page.markdown


def test_a_heading_linked_to_itself_over_its_sections_prose_stays():
    page = page_content(load("wcxb-0091.html.gz"),
                        "https://www.craft-music.com/resources/articles/beginners-guide-to-starting-music-lessons/")
    # `<h3 id="cognitive-benefits"><a href="#cognitive-benefits">Cognitive Benefits</a></h3><p>...`
    assert re.search(r"(?m)^### \[?Cognitive Benefits", page.markdown)
    assert re.search(r"(?m)^## \[?Finding the Right Teacher", page.markdown)
    assert "Learning to play an instrument" in page.markdown
    assert "© Copyright 2025 Craft Music" not in page.markdown and "← All Articles" not in page.markdown
