"""The main-content cleanup's phrase files (crawlforge/extract/words/) as its patterns read them."""

import pytest

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
