"""The main-content cleanup's phrase files (crawlforge/extract/words/) as its patterns read them."""

import importlib
import pkgutil

import pytest

import crawlforge.extract.content as content
from crawlforge.extract.content.chrome import AD_LABEL, BOILERPLATE_LINE, UI_LINE
from crawlforge.extract.content.lines import is_dateline
from crawlforge.extract.words import pattern


@pytest.mark.parametrize(("line", "boilerplate"), [
    ("Read more", True),
    ("» Read more about the author", True),
    ("Read moreover this", False),  # `read more>`: ends at a word's end
    ("Tags : climate, energy", True),  # `tags:`: a colon after, blanks allowed
    ("Tagesschau heute", False),
    ("Follow Anna Smith on X", True),  # `follow * * on`: any two words
    ("Follow the old river on foot", False),  # three words between
    ("Sommaire", True),  # `sommaire$`: nothing after
    ("Sommaire des travaux de la commission", False),
    ("Subscribers get the full archive", True),  # a phrase may end mid-word (`subscribe`)
    ("Weitere Informationen unter www.example.de", True),
    ("Weitere Informationen zur Studie finden sich im Anhang", False),
])
def test_boilerplate_lines(line, boilerplate):
    assert bool(BOILERPLATE_LINE.match(line)) is boilerplate


def test_ad_labels_button_lines_and_datelines():
    assert AD_LABEL.match("*Anzeige*") and AD_LABEL.match("Advertisement:")
    assert not AD_LABEL.match("Anzeigenblätter verlieren Leser")
    assert UI_LINE.fullmatch("Teilen Twittern E-Mail") and not UI_LINE.fullmatch("Teilen Sie Ihre Meinung")
    assert is_dateline("Erstellt am Dienstag 6. Mai 2014") and not is_dateline("Am 6. Mai 2014 begann es")


def test_blanks_match_any_run_of_blanks():
    assert pattern("boilerplate_lines").match("related\n  articles")


def test_content_rules_keep_nothing_between_pages():
    """The rules are plain functions: what they memoise lives in the page's own memo
    (`memo.PageMemo`), made for one page and dropped with it, never in a module (the loaders
    of `words/` data files, imported, may keep what they read)."""
    for info in pkgutil.iter_modules(content.__path__):
        module = importlib.import_module(f"{content.__name__}.{info.name}")
        for name, value in vars(module).items():
            assert not (hasattr(value, "cache_info") and value.__module__ == module.__name__), \
                f"{info.name}.{name} caches results between pages"
            assert not (isinstance(value, dict) and hasattr(type(value), "__missing__")), \
                f"{info.name}.{name} is a memo kept between pages"
