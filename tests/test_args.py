from datetime import date

import pytest
from scrapy.exceptions import UsageError
from scrapy.settings import Settings

from crawlforge.args import ArgumentError, apply_arguments, as_date, as_flag, as_folder, as_regex


@pytest.mark.parametrize("value", ["1", "true", "Yes", " on ", True])
def test_yes_values(value):
    assert as_flag(value) is True


@pytest.mark.parametrize("value", ["0", "False", "no", "OFF", False])
def test_no_values(value):
    assert as_flag(value) is False


def test_anything_else_is_a_clear_error_naming_the_argument():
    with pytest.raises(ValueError, match="follow must be one of"):
        as_flag("maybe", "follow")


def test_dates_read_iso_days_and_days_ago():
    today = date(2026, 12, 4)
    assert [as_date(v, "d", today) for v in ("2026-01-31", "2026-01-31T10:00:00Z", "today", "yesterday", "7d",
                                             "3 days ago")] == [
        "2026-01-31", "2026-01-31", "2026-12-04", "2026-12-03", "2026-11-27", "2026-12-01"]
    with pytest.raises(ArgumentError, match="lastmod_after must be a date such as 2026-01-31"):
        as_date("last tuesday", "lastmod_after", today)


def test_a_bad_argument_is_a_usage_error_and_a_bug_is_not():
    """The crawl command exits 2 in one line for an ArgumentError only (issue 38)."""
    with pytest.raises(UsageError):
        as_regex("(", "-a allow")
    assert not issubclass(ValueError, UsageError)


def test_a_folder_that_cannot_be_made_is_refused_and_a_remote_prefix_is_left_alone(tmp_path):
    assert as_folder(tmp_path / "docs", "-a documents_dir") == str(tmp_path / "docs")
    assert (tmp_path / "docs").is_dir()
    assert as_folder("s3://bucket/docs", "-a documents_dir") == "s3://bucket/docs"
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(ArgumentError, match="-a documents_dir: cannot write into"):
        as_folder(tmp_path / "a-file" / "docs", "-a documents_dir")


def test_a_setting_given_with_s_is_read_as_its_default_is():
    settings = Settings({"ROBOTSTXT_OBEY": "no", "DOWNLOAD_DELAY": "0.5", "CRAWLFORGE_LLM_JSON_MODE": "schema"},
                        priority="cmdline")
    apply_arguments({}, settings)
    assert settings.getbool("ROBOTSTXT_OBEY") is False and settings.getfloat("DOWNLOAD_DELAY") == 0.5
    assert settings["CRAWLFORGE_LLM_JSON_MODE"] == "schema"
    with pytest.raises(ArgumentError, match="CRAWLFORGE_PROGRESS_INTERVAL must be a number, not 'abc'"):
        apply_arguments({}, Settings({"CRAWLFORGE_PROGRESS_INTERVAL": "abc"}, priority="cmdline"))
