import pytest

from crawlforge.args import as_flag


@pytest.mark.parametrize("value", ["1", "true", "Yes", " on ", True])
def test_yes_values(value):
    assert as_flag(value) is True


@pytest.mark.parametrize("value", ["0", "False", "no", "OFF", False])
def test_no_values(value):
    assert as_flag(value) is False


def test_anything_else_is_a_clear_error_naming_the_argument():
    with pytest.raises(ValueError, match="follow must be one of"):
        as_flag("maybe", "follow")
