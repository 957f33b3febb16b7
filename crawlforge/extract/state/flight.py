"""React Server Components ("flight") streams: rows, references, data rows.

The stream comes from `self.__next_f.push([1,"..."])` chunks, i.e. page content an
attacker controls, so every walk is iterative and resolution is size-bounded.
Rows keep JS object key order (integer-like ids first), as upstream's do.
"""

import re

import orjson

from crawlforge.extract.state.jsjson import byte_size, js_key_order, loads, serialized_size, sized_text, string_text

_ROW_HEAD = re.compile(rb"([0-9a-fA-F]+):")
_TEXT_HEAD = re.compile(rb"T([0-9a-fA-F]+),")
_REF = re.compile(r"\$@?([0-9a-f]+)((?::[^:]*)*)")
# Where a ``_REF`` string may stand in orjson's text of a row (a key, or inside a string, too).
_REF_TEXT = re.compile(rb'"\$@?([0-9a-f]+)[":]')
# What follows the "$" of a ``_REF`` or of a "$$" escape: no other "$" string (an element's "$",
# "$L1", "$undefined") is one ``resolve_row`` changes.
_REFERENCE_SECOND = frozenset("0123456789abcdef@$")
_ELEMENT_FIELDS = {"type": 1, "key": 2, "props": 3}
_ON_STACK, _DONE = 1, 2


def parse_flight_rows(stream):
    """Split `<hexId>:<payload>` lines into {id: value}, in linear time.

    A `T<hex>,` row is a text blob whose length is in UTF-8 bytes and includes
    its own terminating newline, so the cursor moves exactly that far (one more
    would turn row "14" into "4"). `I[...]`/`HL[...]` rows stay strings.
    """
    data = stream.encode("utf-8", "surrogatepass")
    rows, cursor, size = {}, 0, len(data)
    while cursor < size:
        newline = data.find(b"\n", cursor)
        line_end = size if newline < 0 else newline
        head = _ROW_HEAD.match(data, cursor, line_end)
        if not head:
            cursor = line_end + 1
            continue
        row_id = head.group(1).decode("ascii")
        text_head = _TEXT_HEAD.match(data, head.end(), line_end)
        if text_head:
            blob_start = text_head.end()
            blob_end = min(size, blob_start + int(text_head.group(1), 16))
            rows[row_id] = data[blob_start:blob_end].decode("utf-8", "replace")
            cursor = blob_end
            continue
        rows[row_id] = _row_value(data[head.end():line_end].decode("utf-8", "surrogatepass"))
        cursor = line_end + 1
    return js_key_order(rows)


def _row_value(payload):
    if payload.startswith("E"):
        try:
            return {"$error": loads(payload[1:])}
        except ValueError:
            return payload
    try:
        return loads(payload)
    except ValueError:
        return payload


def _is_element(value):
    return isinstance(value, list) and len(value) >= 4 and value[0] == "$"


def _is_container(value):
    return isinstance(value, (dict, list))


class _Resolver:
    """One resolution pass: DFS state, the byte budget and the counters."""

    def __init__(self, rows, budget_bytes):
        self.rows = rows
        self.sizes = {}
        self.out = dict.fromkeys(rows)
        self.copied = {}  # row id -> ids of the containers resolve_row copies (``dependencies``)
        self.state = {}
        self.resolved = self.cycles = self.over_budget = 0
        # Each container row's text as orjson writes it (None: one it cannot write), each
        # row's size (``byte_size``) and whether orjson wrote it, and so the size of all the
        # rows (``byte_size(rows)``: its rows' sizes, their keys, the commas).
        self.texts, self.row_sizes, size = {}, {}, 2 + max(0, len(rows) - 1)
        for row_id, value in rows.items():
            text, value_size = sized_text(value)
            if _is_container(value):
                self.texts[row_id] = text
            self.row_sizes[row_id] = (value_size, text is not None)
            size += _key_size(row_id) + value_size
        valid_budget = isinstance(budget_bytes, (int, float)) and not isinstance(budget_bytes, bool)
        self.budget = budget_bytes if valid_budget and budget_bytes >= 0 else size
        self.unwritten = 2 * size  # what orjson may still write to size inlined values (``_size``)

    def target(self, string):
        match = _REF.fullmatch(string)
        return match if match and match.group(1) in self.rows else None

    def dependencies(self, row_id):
        """Rows this row references, in document order, de-duplicated. Also the containers of
        the row that ``resolve_row`` copies (``copied``): those holding a string it may change,
        or met twice (shared, or a cycle), and every container around them. The others hold no
        reference: the result keeps the input's own, unchanged (most of a big stream's rows). A row
        orjson wrote with no such string in its text (``_may_refer``) holds no cycle either: it is
        not walked, and kept whole (a container it holds twice stays shared, as in the input)."""
        found = {}
        value = self.rows[row_id]
        copied = self.copied[row_id] = set()
        text = self.texts.get(row_id)
        if text is not None and not self._may_refer(text):  # nothing to change in it, and no cycle (it was written)
            return []
        marked = [(value, None)] if isinstance(value, str) and value.startswith("$") else []
        stack, parents = ([value], {id(value): None}) if _is_container(value) else ([], {})
        # A container that ``_holds`` nothing to change is left out of the walk; the last one of a node
        # is walked without being written when nothing else in the node holds such a string (the
        # node's text did: most likely it is in that one).
        self.unwritten_walk = -1 if text is None else 4 * len(text)
        while stack:  # the "$" strings in the order the walk meets them, then their targets
            node = stack.pop()
            children = node.values() if isinstance(node, dict) else node
            last = None if self.unwritten_walk < 0 else next(
                (child for child in reversed(children) if isinstance(child, (dict, list))), None)
            marks, held, deferred = len(marked), False, False
            for child in children:
                if isinstance(child, str):
                    if child.startswith("$") and child[1:2] in _REFERENCE_SECOND:
                        marked.append((child, node))
                elif isinstance(child, (dict, list)):
                    if id(child) in parents:
                        _mark(copied, parents, child)
                        _mark(copied, parents, node)
                    elif child is last:
                        deferred = True
                    elif self._holds(child):
                        held = True
                        parents[id(child)] = node
                        stack.append(child)
            if deferred and (not (held or len(marked) > marks) or self._holds(last)):
                parents[id(last)] = node
                stack.append(last)
        for string, node in marked:
            match = self.target(string)
            if match and match.group(1) != row_id:
                found.setdefault(match.group(1))
            if node is not None and (match or string.startswith("$$")):
                _mark(copied, parents, node)
        return list(found)

    def _holds(self, container):
        """Whether the walk of a row goes into one of its containers: orjson's text of it may hold
        a string ``resolve_row`` changes, it cannot write it, or what it wrote for the row's walk
        reached four times the row's text (the walk is ten times slower than orjson)."""
        if self.unwritten_walk < 0:
            return True
        try:
            text = orjson.dumps(container)
        except orjson.JSONEncodeError:
            return True
        self.unwritten_walk -= len(text)
        return self._may_refer(text)

    def _may_refer(self, text):
        """Whether orjson's text of a row can hold a string ``resolve_row`` changes (a "$$" escape,
        or a reference to a row): an element's "$" and "$L1" strings do not make it walked."""
        return b'"$$' in text or any(
            match.group(1).decode() in self.rows for match in _REF_TEXT.finditer(text))

    def resolve_string(self, string, row):
        if not string.startswith("$"):
            return string
        if row is not None and string.startswith("$$"):
            return string[1:]
        match = self.target(string)
        if not match:
            return string
        target_id = match.group(1)
        if isinstance(self.rows[target_id], str):
            return string  # markup (T/I/HL rows) stays a reference
        if row is not None and target_id == row["id"]:
            value = row["root"]
        elif self.state.get(target_id) == _DONE:
            value = self.out[target_id]
        else:
            self.cycles += 1
            return {"$ref": target_id}
        value = self._walk(value, match.group(2))
        if value is _MISSING:
            return string
        if row is not None and id(value) in row["open"]:
            self.cycles += 1
            return {"$ref": target_id}
        return self._inline(value, string)

    @staticmethod
    def _walk(value, path):
        for prop in path[1:].split(":") if path else ():
            if isinstance(value, list):
                key = _ELEMENT_FIELDS.get(prop, prop) if _is_element(value) else prop
                index = key if isinstance(key, int) else _list_index(key)
                if index is None or index >= len(value):
                    return _MISSING
                value = value[index]
            elif isinstance(value, dict) and prop in value:
                value = value[prop]
            else:
                return _MISSING
        return value

    def _size(self, value):
        """``serialized_size(value, self.sizes)``; a container met first is sized from orjson's text,
        ten times sooner than by the walk, while what orjson wrote for it stays under twice the rows'
        size (bounding the work on many references into one big row)."""
        if not _is_container(value) or id(value) in self.sizes or self.unwritten < 0:
            return serialized_size(value, self.sizes)
        text, size = sized_text(value, self.sizes)
        if text is not None:
            self.unwritten -= len(text)
            self.sizes[id(value)] = size
        return size

    def _inline(self, value, string):
        added = self._size(value) - len(string_text(string).encode("utf-8", "surrogatepass"))
        if added > self.budget:
            self.over_budget += 1
            return string
        if added > 0:
            self.budget -= added
        self.resolved += 1
        return value

    def resolve_row(self, row_id):
        """Copy a row in document order, resolving references as they are met."""
        raw = self.rows[row_id]
        if isinstance(raw, str):
            return self.resolve_string(raw, None)
        copied = self.copied.pop(row_id)
        if id(raw) not in copied:  # not a container, or one without a reference
            return raw
        root = [] if isinstance(raw, list) else {}
        row = {"id": row_id, "root": root, "open": {id(root)}}
        copies = {id(raw): root}
        stack = [("close", root)]
        _push_children(stack, raw, root)
        while stack:
            entry = stack.pop()
            if entry[0] == "close":
                row["open"].discard(id(entry[1]))
                continue
            _, src, dst, key = entry
            if isinstance(src, str):
                value = self.resolve_string(src, row) if src.startswith("$") else src
            elif id(src) not in copied:  # not a container, or one without a reference
                value = src
            else:
                value = copies.get(id(src))
                if value is None:
                    value = [] if isinstance(src, list) else {}
                    copies[id(src)] = value
                    row["open"].add(id(value))
                    stack.append(("close", value))
                    _push_children(stack, src, value)
                elif id(value) in row["open"]:
                    self.cycles += 1
                    value = {"$ref": row_id}
            dst[key] = value
        return root

    def run(self):
        for start in self.rows:
            if start in self.state:
                continue
            self.state[start] = _ON_STACK
            stack = [[start, self.dependencies(start), 0]]
            while stack:
                frame = stack[-1]
                if frame[2] < len(frame[1]):
                    dep = frame[1][frame[2]]
                    frame[2] += 1
                    if dep not in self.state:
                        self.state[dep] = _ON_STACK
                        stack.append([dep, self.dependencies(dep), 0])
                    continue
                stack.pop()
                self.out[frame[0]] = self.resolve_row(frame[0])
                self.state[frame[0]] = _DONE
        return {"rows": self.out, "resolved": self.resolved, "cycles": self.cycles,
                "over_budget": self.over_budget}


_MISSING = object()


def _mark(copied, parents, node):
    """Marks ``node`` and the containers around it (up to one marked already) to be copied."""
    while node is not None and id(node) not in copied:
        copied.add(id(node))
        node = parents[id(node)]


def _list_index(key):
    """JS own-index test for a path segment on an array ("0", "12"; not "01")."""
    if key.isascii() and key.isdigit() and (key == "0" or key[0] != "0"):
        return int(key)
    return None


def _push_children(stack, src, dst):
    """Queue children in reverse so they pop in document order; lists pre-size."""
    if isinstance(src, list):
        dst.extend([None] * len(src))
        stack.extend([("copy", src[index], dst, index) for index in range(len(src) - 1, -1, -1)])
    else:
        stack.extend([("copy", src[key], dst, key) for key in reversed(list(src))])


def resolve_flight_rows(rows, budget_bytes=None):
    """Replace `$<id>[:path]` references between rows by the rows they name.

    Returns {rows, resolved, cycles, over_budget}; the input is not mutated (what
    holds no reference is the input's own). Inlined values are shared, and inlining may add at most `budget_bytes` to
    the serialised size (default: the input's own size), which stops a
    `row n = [$n-1, $n-1]` chain from doubling at every step.
    """
    if not isinstance(rows, dict):
        return {"rows": {}, "resolved": 0, "cycles": 0, "over_budget": 0}
    return _Resolver(rows, budget_bytes).run()


def sized_flight_rows(rows):
    """(``resolve_flight_rows(rows)``, the ``byte_size`` of each of its rows, of all of them): a row the
    resolution kept as it was is not sized again (most of a big stream's rows), and the whole is
    the sum of its rows when orjson wrote each (it writes the whole as their concatenation)."""
    resolver = _Resolver(rows, None)
    resolved = resolver.run()
    sizes, total, written = {}, 2 + max(0, len(rows) - 1), True
    for row_id, value in resolved["rows"].items():
        size, by_encoder = resolver.row_sizes[row_id] if value is rows[row_id] else _sized(value)
        sizes[row_id] = size
        written = written and by_encoder and isinstance(row_id, str)
        total += _key_size(row_id) + size
    return resolved, sizes, (total if written else byte_size(resolved["rows"]))


def _sized(value):
    text, size = sized_text(value)
    return size, text is not None


def _key_size(row_id):
    """The bytes of a row's key in the JSON of the rows, with its colon."""
    return len(string_text(str(row_id)).encode("utf-8", "surrogatepass")) + 1


def flight_data_rows(rows, sizes=None):
    """Index of the rows that carry data rather than markup, largest first. Sizes are
    ``byte_size``'s (``sizes``: by row id, made already): resolved rows share what they
    inline, but hold no cycle."""
    if not isinstance(rows, dict):
        return []
    out = []
    for row_id, value in rows.items():
        if isinstance(value, list):
            if _is_element(value) or _is_children(value):
                continue
            size = byte_size(value) if sizes is None else sizes[row_id]
            out.append({"id": row_id, "bytes": size, "keys": None, "length": len(value)})
        elif isinstance(value, dict):
            size = byte_size(value) if sizes is None else sizes[row_id]
            out.append({"id": row_id, "bytes": size, "keys": list(value)[:20], "length": None})
    return sorted(out, key=lambda entry: -entry["bytes"])


def _is_children(items):
    """A fragment's children: elements and primitives only, at least one element."""
    elements = 0
    for item in items:
        if _is_element(item):
            elements += 1
        elif _is_container(item):
            return False
    return elements > 0
