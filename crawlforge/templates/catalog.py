"""The shipped template set, in registration order (the order breaks ties in ``detect``):
the ten page templates, then the job-board and government API connectors."""

from .amazon import AmazonProduct
from .ats import ATS_TEMPLATES
from .github import GithubRepo
from .gov import GOV_TEMPLATES
from .hackernews import HackerNewsFrontPage
from .npm import NpmPackage
from .producthunt import ProducthuntLaunch
from .reddit import RedditThread
from .shopify import ShopifyCollection, ShopifyProduct
from .stackoverflow import StackoverflowQuestion
from .youtube import YoutubeVideo

PAGE_TEMPLATES = [
    ShopifyProduct(),
    ShopifyCollection(),
    AmazonProduct(),
    GithubRepo(),
    YoutubeVideo(),
    RedditThread(),
    HackerNewsFrontPage(),
    ProducthuntLaunch(),
    StackoverflowQuestion(),
    NpmPackage(),
]
TEMPLATES = PAGE_TEMPLATES + list(ATS_TEMPLATES) + list(GOV_TEMPLATES)
