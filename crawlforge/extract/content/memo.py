"""Speed caches, apart from the rules they serve: each remembers what a rule worked out from a
string or a node it will meet again, never a page or a result between pages."""


class Hints(dict):
    """`make(hint, thread)` of class (or id) strings, each worked out once and found by a
    plain dict lookup (cheaper per call than an ``lru_cache``); emptied when full."""

    def __init__(self, make, size: int, thread: bool):
        super().__init__()
        self.make, self.size, self.thread = make, size, thread

    def __missing__(self, hint: str) -> tuple:
        if len(self) >= self.size:
            self.clear()
        found = self[hint] = self.make(hint, self.thread)
        return found


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
