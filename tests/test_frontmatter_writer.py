"""The frontmatter's own YAML writer writes what yaml.dump writes, byte for byte."""

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from crawlforge.extract import frontmatter
from crawlforge.extract.frontmatter import dump_yaml, plain

# Text that exercises the plain/quoted choice: indicators, resolvable words, spaces, non-ASCII.
PIECES = list(" -?:#,[]{}&*!|>'\"%@`.~=<+0123456789aeEnNoOtTyYx_/é中\t\n") + [
    "---", "...", ": ", " #", "null", "true", "yes", "No", "0x1f", "1_000", "2026-12-02 03:29:34", "12:30", "<<", ".inf", "1e3"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
SCALARS = TEXT | st.none() | st.booleans() | st.integers() | st.floats()
DATA = st.dictionaries(TEXT, st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                                          | st.dictionaries(TEXT, inner, max_size=3), max_leaves=12),
                       min_size=1, max_size=4)


def yaml_dump(data: dict) -> str:
    data = plain(data)
    dumper = frontmatter._CDumper if frontmatter._alike(data) else frontmatter._Dumper
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, default_flow_style=False,
                     width=2**31 - 1)


@settings(max_examples=400, deadline=None)
@given(DATA)
def test_the_writer_writes_what_yaml_dump_writes(data):
    assert dump_yaml(data) == yaml_dump(data)


def test_the_writer_quotes_what_would_read_back_as_another_type():
    assert dump_yaml({"a": "2026-12-02 03:29:34", "b": "yes", "c": "x: y", "d": "it's", "e": 1.5, "f": [{}, []]}) == (
        "a: '2026-12-02 03:29:34'\nb: 'yes'\nc: 'x: y'\nd: it's\ne: 1.5\nf:\n- {}\n- []\n")
