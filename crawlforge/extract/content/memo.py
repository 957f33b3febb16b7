"""Speed memos, apart from the rules they serve: what a rule worked out from a string or a node
it meets again on the same page, kept for that page's run and dropped with it. The rules are
plain functions; this module says which are memoised and how, and nothing outlives a page."""

from functools import partial

from crawlforge.extract.content.chrome import starts_a_word, string_hints, word_hints
from crawlforge.extract.content.score import names_body
from crawlforge.extract.content.widen import lead_class


class Memo(dict):
    """`rule(key)` of each key asked, worked out once and found again by a plain dict lookup."""

    def __init__(self, rule):
        super().__init__()
        self.rule = rule

    def __missing__(self, key):
        found = self[key] = self.rule(key)
        return found


class PageMemo:
    """One page's memos of the rules that read its class and id strings: a page's thousands of
    nodes share a few hundred of them. Made where a page's content is sought
    (`maincontent.main_content`) and passed to the steps as an argument."""

    __slots__ = ("hints", "thread_hints", "body", "lead", "named")

    def __init__(self):
        self.hints = Memo(partial(string_hints, words=Memo(partial(word_hints, thread=False))))
        """`chrome.string_hints` of a class or an id."""
        self.thread_hints = Memo(partial(string_hints, words=Memo(partial(word_hints, thread=True))))
        """...on a thread, whose comments are its content."""
        self.body = Memo(names_body)
        """`score.names_body` of a class or an id."""
        self.lead = Memo(lead_class)
        """`widen.lead_class` of a class."""
        self.named = Memo(lambda prefixes: Memo(partial(starts_a_word, prefixes=prefixes)))
        """`chrome.starts_a_word` of a class and id, by the prefixes looked for."""


def text_memo():
    """`node.text(deep=True, strip=True)`, each node's read once: for a pass that reads the same
    blocks' text again and again on a tree it does not change (the cleanup's line, section and
    excerpt tests)."""
    memo = {}

    def text(node) -> str:
        found = memo.get(node.mem_id)
        if found is None:
            found = memo[node.mem_id] = node.text(deep=True, strip=True, skip_empty=True)
        return found
    return text
