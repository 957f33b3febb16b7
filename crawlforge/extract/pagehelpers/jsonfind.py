"""Find where a key lives in a large JSON payload (`find_json_paths(state, "price")`).

Embedded state is often megabytes; this returns the paths (usable with
select_json_path) and a short preview of each match instead of the payload.
Iterative and bounded, since the payload is page content.
"""

from crawlforge.extract.state.jsjson import iter_chunks


def find_json_paths(root, key, limit=50, preview_chars=200, max_nodes=5_000_000):
    """Paths of values reached through a dict key equal to `key` (case-insensitive).

    Returns {matches: [{path, preview[, addressable: False]}], total, truncated}.
    Each container's contents are walked once (first path wins), in document order;
    a key reaching an already-walked container still counts as a match.
    """
    empty = {"matches": [], "total": 0, "truncated": False}
    if not isinstance(key, str) or not isinstance(root, (dict, list)):
        return empty
    wanted = key.lower()
    matches, total, popped, truncated = [], 0, 0, False
    seen = set()
    stack = [(root, None)]  # (value, link) with link = (parent_link, step, addressable)
    while stack:
        value, link = stack.pop()
        popped += 1
        if popped > max_nodes:
            truncated = True
            break
        if link is not None and isinstance(link[1], str) and link[1].lower() == wanted:
            total += 1
            if len(matches) < limit:
                matches.append(_match(value, link, preview_chars))
        if not isinstance(value, (dict, list)) or id(value) in seen:
            continue
        seen.add(id(value))
        children = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
        for step, child in reversed(children):
            addressable = link is None or link[2]
            if isinstance(step, str) and (not step or "." in step or "[" in step):
                addressable = False
            stack.append((child, (link, step, addressable)))
    return {"matches": matches, "total": total, "truncated": truncated or total > len(matches)}


def _match(value, link, preview_chars):
    steps = []
    node = link
    while node is not None:
        steps.append(str(node[1]))
        node = node[0]
    match = {"path": ".".join(reversed(steps)), "preview": preview(value, preview_chars)}
    if not link[2]:
        match["addressable"] = False
    return match


def preview(value, max_chars=200):
    """The first `max_chars` UTF-16 units of the value's compact JSON."""
    text, units = [], 0
    for chunk in iter_chunks(value):
        text.append(chunk)
        units += _utf16_len(chunk)
        if units >= max_chars:
            break
    joined = "".join(text)
    if _utf16_len(joined) <= max_chars:
        return joined
    return joined.encode("utf-16-le", "surrogatepass")[: 2 * max_chars].decode("utf-16-le", "surrogatepass")


def _utf16_len(text):
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2
