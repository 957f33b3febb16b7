"""Main content of product and collection pages, on real pages (fixtures/pagetypes/PROVENANCE.md).

One row per principle: the page, its kind (None: not asserted), phrases that must be in its
markdown and phrases that must not."""

import gzip

import pytest

from conftest import ROOT

from crawlforge.extract.markdown import page_content

FIXTURES = ROOT / "fixtures" / "pagetypes"

PAGES = {
    "product streamed in hidden chunks is shown": (
        "wcxb-0589.html.gz", "https://huel.com/products/huel-black-edition", "product",
        ["40g of protein, up to 11g of fiber, no artificial sweeteners",
         "Huel is tested by a range of independent ISO 17025-accredited laboratories"],
        ["Add to cart"]),
    "listing streamed in display:none chunks is shown": (
        "wcxb-0658.html.gz", "https://ebay.com/b/Collectibles-Art/bn_7000259855", None,
        ["GABBIE CARTER #50 - 8.5x11 Art Print", "$12.95", "Looking Fresh - Set 12"], []),
    "a hidden note is not taken for the content": (
        "wcxb-4264.html.gz", "https://www.projectorscreenstore.com/native-4k-projectors", None,
        ["Samsung LSP9T Premiere 4K Ultra Short Throw Laser Projector",
         "Optoma UHZ35ST Compact 4K Short Throw Laser Projector"],
        ["Manufacturer’s Pricing Policy"]),
    "item cards written as figures are no captions": (
        "wcxb-0656.html.gz", "https://www.nike.com/w/mens-running-shoes-37v7jznik1zy7ok", "listing",
        ["Nike Vomero Premium", "Track & Field Sprinting Spikes", "$305"],
        ["Order Cancellation"]),  # the footer
    "streamed chunks are read in their placeholders": (
        "wcxb-2923.html.gz", "https://www.wayfair.com/furniture/sb0/sofas-c413892.html", "listing",
        ["Orndorff Sofa", "Caterina Power Inclining Sofa",
         "Sincere in its styling, this sofa marries classic function with modern design elements"],
        ["Open Verified Menu Dropdown", "New Arrivals"]),
    "hex-numbered chunks and folded specifications": (
        "wcxb-0620.html.gz",
        "https://www.wayfair.com/lighting/pdp/bread-stone-x-beaded-cut-16-row-woodland-bop1026.html", None,
        ["Hand-applied individual antique brass head nail trim", "Overall Product Weight",
         "43'' H X 27'' W X 28'' D"],
        ["Add to Cart"]),
    "the description its data states is kept from a sheet": (
        "wcxb-0581.html.gz", "https://www.gymshark.com", "product",
        ["REDEFINING YOUR POTENTIAL", "sweat-wicking technology and a lightweight material",
         "Physique-accentuating flatlock seam lines", "100% Polyester"],
        ["Add to bag", "Unlock Access to Exclusive Rewards"]),
    "a card's text box named a caption is no caption": (
        "wcxb-4544.html.gz", "https://thebushcompanyusa.com/product-category/outdoor-gear/", "listing",
        ["4WD Gear Bag-Large", "$21.00", "The MSA 4X4 Dash Organiser is another innovative MSA 4X4…"],
        ["Shop By Category", "Quick view"]),
    "one product beside other items is a product page, without its reviews": (
        "wcxb-0628.html.gz", "https://www.rei.com/product/227955/rei-co-op-trail-25-pack", "product",
        ["Keep your day's gear within easy reach in the REI Co-op Trail 25 pack.",
         "Recycled oxford nylon bottom is highly abrasion resistant"],
        ["Write a Review", "Most Helpful Favorable Review"]),
    "an article whose data reads as one product stays an article": (
        "wcxb-0010.html.gz", "https://www.reviewed.com/dishwashers/features/best-year-2025-appliances", None,
        ["This year, we’re pleased to award LG as the overall most reliable appliance brand.",
         "The Bosch 800 Series dishwasher delivers high-tech cleaning performance"], []),
    "other items' cards inside a product's content go": (
        "wcxb-0601.html.gz", "https://mybirdbuddy.eu/product/smart-bird-feeder-pro/", "product",
        ["Our award-winning Smart Bird Feeder, reimagined.",
         "The larger camera sensor balances bright and shadowy areas in high-contrast scenes"],
        ["Upgrade and add a detachable solar panel!", "Perch Extender"]),  # an add-on's card
    "a card's teaser linked again, kept from screen readers, is on screen": (
        "wcxb-1310.html.gz", "https://appleinsider.com/topic/headphones", "listing",
        ["Walmart now has the Beats Solo 4 and Beats Solo Buds available in new retailer-exclusive colorways",
         "as the iPhone 7 accessory appears to be discontinued."],
        ["Follow us on Social Media", "Get our Mobile App"]),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_product_and_collection_pages_keep_what_a_shopper_reads(name):
    fixture, url, kind, present, absent = PAGES[name]
    page = page_content(gzip.decompress((FIXTURES / fixture).read_bytes()).decode("utf-8"), url)
    if kind is not None:
        assert page.page_type == kind
    assert [phrase for phrase in present if phrase not in page.markdown] == []
    assert [phrase for phrase in absent if phrase in page.markdown] == []
