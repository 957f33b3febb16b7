"""Main content of product and collection pages, on real pages (fixtures/pagetypes/PROVENANCE.md)."""

import gzip
from pathlib import Path

from crawlforge.extract.markdown import page_content

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "pagetypes"


def load(name: str) -> str:
    return gzip.decompress((FIXTURES / name).read_bytes()).decode("utf-8")


def test_product_streamed_in_hidden_chunks_is_shown():
    page = page_content(load("wcxb-0589.html.gz"), "https://huel.com/products/huel-black-edition")
    assert page.page_type == "product"
    assert "40g of protein, up to 11g of fiber, no artificial sweeteners" in page.markdown
    assert "Huel is tested by a range of independent ISO 17025-accredited laboratories" in page.markdown
    assert "Add to cart" not in page.markdown


def test_listing_streamed_in_display_none_chunks_is_shown():
    page = page_content(load("wcxb-0658.html.gz"), "https://ebay.com/b/Collectibles-Art/bn_7000259855")
    assert "GABBIE CARTER #50 - 8.5x11 Art Print" in page.markdown and "$12.95" in page.markdown
    assert "Looking Fresh - Set 12" in page.markdown


def test_hidden_note_is_not_taken_for_the_content():
    page = page_content(load("wcxb-4264.html.gz"), "https://www.projectorscreenstore.com/native-4k-projectors")
    assert "Samsung LSP9T Premiere 4K Ultra Short Throw Laser Projector" in page.markdown
    assert "Optoma UHZ35ST Compact 4K Short Throw Laser Projector" in page.markdown
    assert "Manufacturer’s Pricing Policy" not in page.markdown


def test_item_cards_written_as_figures_are_no_captions():
    page = page_content(load("wcxb-0656.html.gz"), "https://www.nike.com/w/mens-running-shoes-37v7jznik1zy7ok")
    assert page.page_type == "listing"
    assert "Nike Vomero Premium" in page.markdown and "Track & Field Sprinting Spikes" in page.markdown
    assert "$305" in page.markdown
    assert "Order Cancellation" not in page.markdown  # the footer


def test_streamed_chunks_are_read_in_their_placeholders():
    page = page_content(load("wcxb-2923.html.gz"), "https://www.wayfair.com/furniture/sb0/sofas-c413892.html")
    assert page.page_type == "listing"
    assert "Orndorff Sofa" in page.markdown and "Caterina Power Inclining Sofa" in page.markdown
    assert "Sincere in its styling, this sofa marries classic function with modern design elements" in page.markdown
    assert "Open Verified Menu Dropdown" not in page.markdown and "New Arrivals" not in page.markdown


def test_product_streamed_with_hex_numbers_keeps_its_folded_specifications():
    page = page_content(load("wcxb-0620.html.gz"),
                        "https://www.wayfair.com/lighting/pdp/bread-stone-x-beaded-cut-16-row-woodland-bop1026.html")
    assert "Hand-applied individual antique brass head nail trim" in page.markdown
    assert "Overall Product Weight" in page.markdown and "43'' H X 27'' W X 28'' D" in page.markdown
    assert "Add to Cart" not in page.markdown


def test_product_description_its_data_states_is_kept_from_a_sheet():
    page = page_content(load("wcxb-0581.html.gz"), "https://www.gymshark.com")
    assert page.page_type == "product"
    assert "REDEFINING YOUR POTENTIAL" in page.markdown
    assert "sweat-wicking technology and a lightweight material" in page.markdown
    assert "Physique-accentuating flatlock seam lines" in page.markdown and "100% Polyester" in page.markdown
    assert "Add to bag" not in page.markdown and "Unlock Access to Exclusive Rewards" not in page.markdown


def test_card_text_box_named_a_caption_is_no_caption():
    page = page_content(load("wcxb-4544.html.gz"), "https://thebushcompanyusa.com/product-category/outdoor-gear/")
    assert page.page_type == "listing"
    assert "4WD Gear Bag-Large" in page.markdown and "$21.00" in page.markdown
    assert "The MSA 4X4 Dash Organiser is another innovative MSA 4X4…" in page.markdown
    assert "Shop By Category" not in page.markdown and "Quick view" not in page.markdown


def test_one_product_shown_beside_other_items_is_a_product_page_without_its_reviews():
    page = page_content(load("wcxb-0628.html.gz"), "https://www.rei.com/product/227955/rei-co-op-trail-25-pack")
    assert page.page_type == "product"
    assert "Keep your day's gear within easy reach in the REI Co-op Trail 25 pack." in page.markdown
    assert "Recycled oxford nylon bottom is highly abrasion resistant" in page.markdown
    assert "Write a Review" not in page.markdown and "Most Helpful Favorable Review" not in page.markdown


def test_article_whose_data_reads_as_one_product_stays_an_article():
    page = page_content(load("wcxb-0010.html.gz"), "https://www.reviewed.com/dishwashers/features/best-year-2025-appliances")
    assert "This year, we’re pleased to award LG as the overall most reliable appliance brand." in page.markdown
    assert "The Bosch 800 Series dishwasher delivers high-tech cleaning performance" in page.markdown


def test_product_page_drops_the_cards_of_other_items_inside_its_content():
    page = page_content(load("wcxb-0601.html.gz"), "https://mybirdbuddy.eu/product/smart-bird-feeder-pro/")
    assert page.page_type == "product"
    assert "Our award-winning Smart Bird Feeder, reimagined." in page.markdown
    assert "The larger camera sensor balances bright and shadowy areas in high-contrast scenes" in page.markdown
    assert "Upgrade and add a detachable solar panel!" not in page.markdown  # an add-on's card
    assert "Perch Extender" not in page.markdown
