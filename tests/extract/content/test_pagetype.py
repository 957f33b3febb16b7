"""Page kinds and the main content each keeps, on real pages (fixtures/pagetypes/PROVENANCE.md)."""

import gzip

import pytest
from selectolax.lexbor import LexborHTMLParser

from conftest import ROOT

from crawlforge.extract.content.pagetype import PAGE_TYPES, declared_type
from crawlforge.extract.markdown import page_content

FIXTURES = ROOT / "fixtures"


def load(name: str) -> str:
    return gzip.decompress((FIXTURES / "pagetypes" / name).read_bytes()).decode("utf-8")


def test_listing_keeps_item_names_and_prices():
    page = page_content(load("wcxb-0659.html.gz"), "https://jococups.com/shop/")
    assert page.page_type == "listing"
    assert "Joco Cup 4oz" in page.markdown and "Joco Cup 6oz" in page.markdown
    assert "$29.95" in page.markdown
    assert "Add to cart" not in page.markdown


def test_thread_keeps_the_replies_not_only_the_question():
    page = page_content(load("wcxb-4320.html.gz"), "https://festoolownersgroup.com/threads/"
                        "looking-for-beginner-woodworking-projects-that-reinforce-fundamentals.73409/")
    assert page.page_type == "forum"
    assert "TLDR - any beginner woodworking projects" in page.markdown  # the question
    assert "Take some risks, and forgive yourself if you fail." in page.markdown  # a reply
    assert "Search forums" not in page.markdown


def test_docs_page_keeps_body_and_code_without_site_navigation():
    page = page_content(load("wcxb-0684.html.gz"), "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html")
    assert page.page_type == "documentation"
    assert "The non-standard code 444 closes a connection" in page.markdown
    assert "```" in page.markdown and "limit_rate 10k;" in page.markdown
    assert "community forum (new)" not in page.markdown


def test_service_page_keeps_its_sections_without_the_footer():
    page = page_content(load("wcxb-4554.html.gz"), "https://cityofmarion.in.gov/government/departments/"
                        "building-department/home-repair-assistance-program")
    assert page.page_type == "service"
    assert "Real estate must be locat\xaded with\xadin the city of Marion" in page.markdown
    assert "Privacy Policy" not in page.markdown and "Like us on Facebook" not in page.markdown


def test_hub_page_keeps_its_link_lists():
    html = (FIXTURES / "demo" / "index.html").read_text(encoding="utf-8")
    page = page_content(html, "http://127.0.0.1:8000/")
    assert page.page_type == "hub"
    assert "- [IKEA: MÖCKELBY table](http://127.0.0.1:8000/products/ikea_gb_moeckelby_table_jsonld.html)" \
        in page.markdown
    assert "[anarc.at: a CDPATH replacement]" in page.markdown


def test_unclosed_aside_around_main_keeps_the_article():
    page = page_content(load("wcxb-4459.html.gz"), "https://www.fermyon.com/blog/startup-lessons-25-years")
    assert page.page_type == "article"
    assert "A harmonious team of 10 can outperform a dysfunctional team of 100" in page.markdown
    assert "Subscribe to Updates" not in page.markdown and "Contact Sales" not in page.markdown


def test_body_named_like_navigation_is_not_chrome():
    page = page_content(load("wcxb-0376.html.gz"), "https://www.synrgys.com/treadmill-repair-kankakee-il.html")
    assert "All repairs are warrantied for 90 days" in page.markdown
    assert "All Rights Reserved" not in page.markdown


def test_listing_of_linked_story_cards_keeps_every_card():
    page = page_content(load("wcxb-0729.html.gz"), "https://news.mit.edu/topic/software")
    assert page.page_type == "listing"
    assert "New AI agent learns to use CAD to create 3D objects from sketches" in page.markdown  # first cards
    assert "ChemXploreML makes advanced chemical predictions easier and faster" in page.markdown
    assert "Lincoln Laboratory is transitioning tools to the 618th Air Operations Center" in page.markdown
    assert "Subscribe to MIT Daily/Weekly" not in page.markdown and "Terms of Use" not in page.markdown


def test_thread_keeps_posts_its_markup_names_comments():
    page = page_content(load("wcxb-0545.html.gz"), "https://discussion.evernote.com/forums/topic/150745-new-ui-2024/")
    assert page.page_type == "forum"
    assert "the previous UI was much more sophisticated and beautiful" in page.markdown  # the first post
    assert "We can only speculate about the inner workings at EN" in page.markdown  # a reply
    assert "Posted March 10, 2024" in page.markdown  # a post's date line
    assert "Create an account or sign in to comment" not in page.markdown


def test_product_cards_keep_names_prices_and_pictures_as_pictures():
    page = page_content(load("wcxb-2952.html.gz"), "https://www.rei.com/c/backpacking-packs")
    assert page.page_type == "listing"
    assert "[Gregory Paragon 68 Pack](https://www.rei.com/product/C03321/gregory-paragon-68-pack)" in page.markdown
    assert "$158.73" in page.markdown and "$370.00" in page.markdown and "65 to 68 liters" in page.markdown
    # the card's gallery sits in its link: pictures, not their alt texts as the link's text
    assert "![Gregory Paragon 68 Pack 1](https://www.rei.com/media/" in page.markdown
    assert "[- Gregory Paragon 68 Pack 0" not in page.markdown
    assert "Skip to main content" not in page.markdown and "Filter by Brand" not in page.markdown


def test_box_named_navigation_holding_the_page_is_not_chrome():
    page = page_content(load("wcxb-0702.html.gz"), "https://azure.microsoft.com/en-us/products/functions")
    assert "Simplify complex orchestration needs with built-in fault tolerance" in page.markdown
    assert "Request a demo" not in page.markdown


def test_thread_by_its_shape_keeps_comments_when_nothing_declares_a_forum():
    page = page_content(load("wcxb-0575.html.gz"), "https://lobste.rs/s/dwip3v/rust_project_goals_for_2024")
    assert page.page_type == "forum"
    assert "I work with a lot of async tasks, so I'm cloning `Arc`s everywhere." in page.markdown  # a post
    assert "So do I, and I really find that eliding clones would not especially improve ergonomics." \
        in page.markdown  # its reply
    assert "[kkiri](https://lobste.rs/~kkiri)" in page.markdown  # the author line
    assert "Login" not in page.markdown.replace("/login)", "")


def test_filter_form_around_a_listing_is_not_a_search_form():
    page = page_content(load("wcxb-0651.html.gz"), "https://www.ifixit.com/Parts")
    assert "81,539 results" in page.markdown
    assert "Genuine Steam Deck Part Lifetime Guarantee" in page.markdown and "$34.99" in page.markdown
    assert "Add to cart" not in page.markdown


def test_product_page_keeps_the_product_not_its_reviews():
    page = page_content(load("wcxb-0622.html.gz"), "https://www.ikea.com/us/en/p/kallax-shelf-unit-white-80275887/")
    assert page.page_type == "product"
    assert "At first glance, KALLAX is a simple shelving unit, but it’s based on a love for details." in page.markdown
    assert "Customer reviews" not in page.markdown
    assert "My sister introduced me to Kallax." not in page.markdown  # a review


def test_letters_after_a_digit_in_an_obfuscated_class_name_are_no_chrome_word():
    page = page_content(load("wcxb-4246.html.gz"), "https://www.getlocal.agency/")  # `jXK9ad`: no `ad`
    assert "## Our AI-Powered Platform: Empowering Small Businesses to Thrive with AI" in page.markdown
    assert "a suite of AI-infused tools designed to streamline" in page.markdown
    assert "All Rights Reserved" not in page.markdown


def test_links_with_nothing_to_read_go():
    page = page_content(load("wcxb-3013.html.gz"), "https://news.ycombinator.com/newest")
    assert "1. [What happened when humans and Neanderthals hooked up](https://www.cnn.com/" in page.markdown
    assert "vote?id=" not in page.markdown  # each item's vote arrow: a link around an icon


def test_drawing_left_open_around_the_page_is_not_stripped_with_it():
    page = page_content(load("wcxb-2875.html.gz"), "https://www.sqlite.org/lang_select.html")
    assert "The SELECT statement is used to query the database." in page.markdown  # inside an unclosed <svg>
    assert "SQLite is actually very flexible in how you specify a join operator." in " ".join(page.markdown.split())
    assert "Search Documentation" not in page.markdown and "Choose any three" not in page.markdown


def test_docs_index_keeps_its_link_cards():
    page = page_content(load("wcxb-4407.html.gz"), "https://docs.github.com/en/actions/how-tos/write-workflows")
    assert "## [Using workflow templates](https://docs.github.com/en/actions/how-tos/write-workflows/" \
           "use-workflow-templates)" in page.markdown
    assert "You can specify the compute environment your jobs and workflows run in." in page.markdown
    assert "Continuous integration" not in page.markdown and "Understand GitHub Actions" not in page.markdown


def test_box_opening_with_a_byline_keeps_the_description_after_it():
    page = page_content(load("wcxb-2893.html.gz"), "https://www.sweetwater.com/store/detail/Scarlett4i4G4--"
                        "focusrite-scarlett-4i4-4th-gen-usb-audio-interface")
    assert page.page_type == "product"
    assert "## The Scarlett Gets a Serious Overhaul" in page.markdown  # after "This article was Written By"
    assert "Talk to an expert!" not in page.markdown and "(800) 222-4700" not in page.markdown


def test_folded_accordion_sections_are_content_not_hidden_chrome():
    page = page_content(load("wcxb-4911.html.gz"), "https://www.progressive.com/pet-insurance/")
    assert "Unlike with health insurance for humans, there are no networks or copays for pet insurance." \
        in page.markdown  # an accordion section, aria-hidden until opened
    assert "Vehicle insurance" not in page.markdown


def test_advanced_heading_blocks_are_no_ads():
    page = page_content(load("wcxb-0377.html.gz"), "https://www.mccollisters.com/services/"
                        "mccollisters-fitness-equipment-repair/")  # `kt-adv-heading`: `adv` is no ad
    assert "## Full-Service Exercise Equipment Repair" in page.markdown
    assert "Our full-service fitness equipment repairs can be utilized by commercial gyms" in page.markdown
    assert "Toggle Menu" not in page.markdown and "Driver Login" not in page.markdown


def test_docs_page_keeps_its_index_of_sub_pages_beside_its_prose():
    page = page_content(load("wcxb-0669.html.gz"), "https://www.typescriptlang.org/docs/handbook/2/"
                        "types-from-types.html")
    assert page.page_type == "documentation"
    assert "By combining various type operators, we can express complex operations" in page.markdown
    assert "- [Generics](https://www.typescriptlang.org/docs/handbook/2/generics.html) - Types which take " \
           "parameters" in page.markdown
    assert "Get Started" not in page.markdown


@pytest.mark.parametrize(("html", "expected"), [
    # a category page carrying several products' JSON is a listing, not a product page
    ('<script type="application/ld+json">{"@type": "ItemList", "itemListElement": [{"@type": "Product"},'
     '{"@type": "Product"}]}</script>', "listing"),
    ('<script type="application/ld+json">{"@type": "Product", "name": "x"}</script>', "product"),
    ('<meta property="og:type" content="product">', "product"),
    ('<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>', "forum"),
    ('<script type="application/ld+json">{"@type": ["NewsArticle"]}</script>', "article"),
    ("<p>no data</p>", None),
])
def test_declared_type_reads_the_pages_own_data(html, expected):
    assert declared_type(LexborHTMLParser(f"<html><head>{html}</head><body></body></html>")) == expected


def test_every_kind_is_documented():
    assert set(PAGE_TYPES) == {"article", "product", "listing", "documentation", "forum", "service", "hub",
                               "other"}


def test_streamed_segments_are_put_in_place_of_their_placeholders():
    page = page_content(load("wcxb-0384.html.gz"), "https://www.lesswrong.com/posts/qkhwh4AdG7kXgELCD/"
                        "scalable-end-to-end-interpretability")  # the post arrives in `<div hidden id="S:0">`
    assert "There is currently somewhat of a debate in the interpretability community" in page.markdown
    assert "let's train specialized, superhuman interpretability assistants!" in page.markdown
    assert "Login" not in page.markdown


def test_streamed_segment_without_boundary_comments_keeps_what_follows_its_placeholder():
    page = page_content(load("wcxb-4053.html.gz"), "https://recharged.com/articles/full-ev-cars-guide")
    assert "runs 100% on electricity stored in a battery pack" in page.markdown  # a capture with no comments
    assert "Understand the original battery warranty" in page.markdown
    assert "Buy an EV" not in page.markdown and "All Rights Reserved" not in page.markdown


def test_a_passage_shown_twice_is_kept_once():
    page = page_content(load("wcxb-0552.html.gz"), "https://forum.qt.io/topic/156087/which-qt6-version-for-ubuntu-24-04")
    assert page.page_type == "forum"  # the question twice (teaser and post), then quoted in replies
    assert page.markdown.count("Has anybody tried perhaps a beta of Ubuntu 24.04?") == 1
    assert "From this, I assume it's gonna be Qt6.4.2, for now" in page.markdown  # the replies stay
    assert "Yup, 24.10 h" in page.markdown
    assert "Log in to reply" not in page.markdown


def test_thread_kept_whole_is_cleaned_around_its_posts():
    page = page_content(load("wcxb-0518.html.gz"), "https://forums.studentdoctor.net/threads/"
                        "official-2024-2025-infectious-disease-application-thread.1498484/")
    assert page.page_type == "forum"
    assert "I heard that Cincinnati has already sent out interview invitations" in page.markdown
    assert "Thanks man! I was surprised there were in person options." in page.markdown
    assert "[pnomes](" in page.markdown  # a post's author line stays
    assert "Reaction score" not in page.markdown and "Joined" not in page.markdown  # the posters' figures go


def test_hidden_tab_panels_kept_as_content_are_shown():
    page = page_content(load("wcxb-0681.html.gz"), "https://www.twilio.com/docs/messaging/quickstart")
    assert page.page_type == "documentation"  # one tab per language, all but one `hidden` + display:none
    assert "pip install flask twilio" in page.markdown
    assert "npm install twilio" in page.markdown and "composer require twilio/sdk" in page.markdown
    assert "View as Markdown" not in page.markdown and "Looking for more inspiration?" not in page.markdown


def test_cards_whose_shared_chrome_name_marks_most_of_the_page_stay():
    page = page_content(load("wcxb-2971.html.gz"), "https://www.wired.com/category/science/")
    # each story card's class ends in `hide-read-more-ad`: one card is small, all of them are the page
    assert "The CDC Has a Leadership Crisis" in page.markdown
    assert "AI Digital Twins Are Helping People Manage Diabetes and Obesity" in page.markdown
    assert "Newsletters" not in page.markdown and "THE BIG STORY" not in page.markdown


def test_docs_paragraphs_that_link_much_are_prose():
    page = page_content(load("wcxb-2873.html.gz"), "https://react.dev/reference/react/useState")
    assert page.page_type == "documentation"  # a pitfall box and a list whose lines link to API names
    assert "It only affects what `useState` will return starting from the *next* render." in page.markdown
    assert "remove that redundant state altogether." in page.markdown
    assert "useDeferredValue" not in page.markdown and "useDebugValue" not in page.markdown  # the API sidebar


def test_page_swallowed_by_a_self_closed_iframe_is_parsed_again():
    page = page_content(load("wcxb-2838.html.gz"), "https://render.com/")  # <noscript><iframe ... /></noscript>
    assert "Intuitive infrastructure to scale any app or agent from your first user to your billionth." \
        in page.markdown
    assert "Just connect your repo. Render deploys on the right runtime for your framework." in page.markdown
    assert "Platform Overview" not in page.markdown and "Sign In" not in page.markdown


def test_teasers_inside_their_links_stay_on_a_page_of_links():
    page = page_content(load("wcxb-0259.html.gz"), "https://www.hospitalitynet.org/list/1-10/all-latest-news.html")
    assert page.page_type == "hub"  # each story's excerpt is a paragraph inside its link
    assert "The history of all-inclusive travel dates back nearly 100 years" in page.markdown
    assert "Montage Plans for 62-key Montage Valle De Guadalupe In Baja California" in page.markdown
    assert "About Hospitality Net" not in page.markdown and "Privacy" not in page.markdown


def test_thread_by_its_permalinked_dated_posts_keeps_every_post():
    page = page_content(load("wcxb-0541.html.gz"), "https://bbs.archlinux.org/viewtopic.php?id=309936")
    assert page.page_type == "forum"
    assert "why did the ISO size increase so rapidly from 2024 to 2025" in page.markdown  # the question
    assert "The rest of the size increase is just *general bloat accumulation*" in page.markdown  # the reply
    assert "nl6720" in page.markdown  # the reply's author line
    assert "You are not logged in." not in page.markdown and "Powered by" not in page.markdown


def test_product_page_drops_a_section_its_title_says_is_other_items():
    page = page_content(load("wcxb-2990.html.gz"), "https://www.headphones.com/products/hifiman-sundara")
    assert page.page_type == "product"
    assert "Hifiman Sundara Planar Magnetic Headphones are an engineering marvel" in page.markdown
    assert "Frequency Response: 6Hz - 75kHz" in page.markdown
    assert "Frequently bought together" not in page.markdown and "Etched Headphone Cable" not in page.markdown


def test_qa_page_keeps_its_answers_not_the_remarks_nested_in_them():
    page = page_content(load("wcxb-0566.html.gz"), "https://serverfault.com/questions/2888/why-is-raid-not-a-backup")
    assert page.page_type == "forum"
    assert "RAID guards against one kind of hardware failure." in page.markdown  # an answer
    assert "Redundancy protects you against your hardware failing." in page.markdown  # another
    assert "Man, I had to read the first answer three times" not in page.markdown  # a comment on one
    assert "backup applications have a setting for this" not in page.markdown


def test_section_scoring_close_to_the_one_named_the_body_is_kept_with_it():
    page = page_content(load("wcxb-4552.html.gz"), "https://www.austintexas.gov/department/go-repair-grant-program")
    assert "GO REPAIR! addresses substandard housing conditions" in page.markdown  # the named body
    assert "Who is Eligible?" in page.markdown and "Annual income at 80% MFI or less" in page.markdown  # the next section
    assert "Funding is provided by the City of Austin" in page.markdown
    assert "Give feedback on our website" not in page.markdown and "City Council Message Board" not in page.markdown


def test_a_card_repeating_its_name_and_price_shows_each_once():
    page = page_content(load("wcxb-0638.html.gz"), "https://www.deathwishcoffee.com/collections/coffee")
    assert page.page_type == "listing"
    assert page.markdown.count("[Dark Roast Coffee](") == 1
    assert page.markdown.count("[Chocolate Hazelnut Single-Serve Pods](") == 1
    assert "$19.99" in page.markdown and "$15.99" in page.markdown
    assert "$19.99\n\n  $19.99" not in page.markdown


def test_button_lines_go_from_a_listing_kept_whole():
    page = page_content(load("wcxb-0638.html.gz"), "https://www.deathwishcoffee.com/collections/coffee")
    assert "Quick Shop" not in page.markdown
    assert "[Dark Roast Coffee](" in page.markdown and "$19.99" in page.markdown


def test_collapse_box_around_a_folded_panel_is_shown_with_it():
    page = page_content(load("wcxb-0607.html.gz"), "https://www.solostove.com/eu/en-bg/p/solo-stove-summit?sku=SS24-SD-3.0")
    assert page.page_type == "product"
    assert "comes our most advanced design yet" in page.markdown  # the description's panel
    assert "Height: 39.1 cm (15.4 in)" in page.markdown  # the specifications' panel
    assert "Skip to Content" not in page.markdown


def test_posters_signatures_are_no_part_of_their_posts():
    page = page_content(load("wcxb-0558.html.gz"), "https://community.mybb.com/thread-222085.html")
    assert page.page_type == "forum"
    assert "As of right now, I run a SMF website and have been thinking of converting to MyBB." in page.markdown
    assert "MyBB enables you to put permissions for each admin" in page.markdown
    assert "Send me a DM or PM if you want to sponsor any update" not in page.markdown  # a signature
    assert "Hello There, Guest!" not in page.markdown


def test_every_page_kind_has_one_row_in_the_policy_table():
    from crawlforge.extract.content.policy import KINDS
    assert list(KINDS) == list(PAGE_TYPES)
