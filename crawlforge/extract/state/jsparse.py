"""A JavaScript expression parser that reports where the expression ends.

Pages ship state as JS, not JSON (`window.__NUXT__=(function(a){return {...}}(1))`).
This parser reads ONE expression starting at an offset, like acorn's
`parseExpressionAt`, and returns ESTree-shaped dict nodes (`type`, `start`,
`end` plus the fields jsliteral needs). Nothing is executed. Function and class
bodies other than a single `return <expr>` are skipped by matching braces,
since the evaluator refuses them anyway. Nesting past MAX_NESTING is a
ParseError, not a crash.
"""

import re
import sys
import threading
from contextlib import contextmanager

MAX_NESTING = 1000

_SPACE = re.compile(r"(?:[\s\ufeff]+|//[^\n\r\u2028\u2029]*|/\*[\s\S]*?\*/)*")
_IDENT_ESCAPE = r"\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]+\}"
_PLAIN_IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$\u200c\u200d]*")
_IDENT = re.compile(rf"(?:[^\W\d]|\$|{_IDENT_ESCAPE})(?:[\w$\u200c\u200d]|{_IDENT_ESCAPE})*")
_NUMBER = re.compile(
    r"0[xX][0-9a-fA-F_]+n?|0[oO][0-7_]+n?|0[bB][01_]+n?"
    r"|\d[\d_]*n|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?"
)
_STRING = re.compile(r""""[^"\\\n\r]*(?:\\[\s\S][^"\\\n\r]*)*"|'[^'\\\n\r]*(?:\\[\s\S][^'\\\n\r]*)*'""")
_TEMPLATE_CHUNK = re.compile(r"[^`\\$]*(?:(?:\\[\s\S]|\$(?!\{))[^`\\$]*)*(`|\$\{)")
_REGEX = re.compile(r"/(?:[^/\\\[\n\r]|\\.|\[(?:[^\]\\\n\r]|\\.)*\])+/[\w$]*")
_PUNCT = re.compile(
    r">>>=|\.\.\.|===|!==|\*\*=|<<=|>>=|>>>|&&=|\|\|=|\?\?=|=>|==|!=|<=|>=|&&|\|\||\?\?"
    r"|\?\.(?!\d)|\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|\*\*|<<|>>|[{}()\[\];,<>+\-*/%&|^!~?:=.@#]"
)
_ESCAPE = re.compile(
    r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-3][0-7]{0,2}|[4-7][0-7]?"
    r"|\r\n|[\s\S])"
)
_SURROGATE = re.compile("[\ud800-\udfff]")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}
_LINE_BREAKS = {"\n", "\r", "\r\n", "\u2028", "\u2029"}

_BINARY_PRECEDENCE = {
    "??": 1, "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5,
    "==": 6, "!=": 6, "===": 6, "!==": 6,
    "<": 7, ">": 7, "<=": 7, ">=": 7, "instanceof": 7, "in": 7,
    "<<": 8, ">>": 8, ">>>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "**": 11,
}
_ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "**=", "<<=", ">>=", ">>>=",
               "&=", "|=", "^=", "&&=", "||=", "??="}
_UNARY_WORDS = {"typeof", "void", "delete"}  # `await` is a name in script code
_ASSIGN_TARGETS = {"Identifier", "MemberExpression"}
_PATTERN_TARGETS = {"ObjectExpression", "ArrayExpression"}  # destructuring, with `=` only
_REGEX_AFTER_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "void", "delete", "instanceof", "new"}
_RESERVED = {
    "break", "case", "catch", "const", "continue", "debugger", "default", "do", "else",
    "enum", "export", "extends", "finally", "for", "if", "return", "switch", "throw",
    "try", "var", "while", "with", "in", "instanceof",
}


class ParseError(ValueError):
    """The text at that offset is not a JavaScript expression."""


_recursion_lock = threading.Lock()
_recursion_users = [0, 0]  # [active callers, limit to restore]


@contextmanager
def deep_recursion(frames=12 * MAX_NESTING):
    """Allow the recursive parser/evaluator to reach their own nesting caps.

    The limit is process-wide: the first caller raises it and the last one out
    restores it, so concurrent threads do not undo each other.
    """
    with _recursion_lock:
        if _recursion_users[0] == 0:
            _recursion_users[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(_recursion_users[1] + frames)
        _recursion_users[0] += 1
    try:
        yield
    finally:
        with _recursion_lock:
            _recursion_users[0] -= 1
            if _recursion_users[0] == 0:
                sys.setrecursionlimit(_recursion_users[1])


def cook_string(body):
    """Decode JS escapes in a string or template body (surrogate pairs joined)."""
    if "\\" not in body:
        return body
    text = _ESCAPE.sub(_cook_escape, body)
    if _SURROGATE.search(text):
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return text


def _cook_escape(match):
    esc = match.group(1)
    head = esc[0]
    if esc in _LINE_BREAKS:
        return ""
    if head in "ux" and len(esc) == 1:
        raise ParseError("Invalid escape sequence")
    if head == "u":
        code = int(esc[2:-1] if esc[1] == "{" else esc[1:], 16)
        if code > 0x10FFFF:
            raise ParseError("Code point out of bounds")
        return chr(code)
    if head == "x":
        return chr(int(esc[1:], 16))
    if head.isdigit() and head < "8":
        return chr(int(esc, 8))
    return _SIMPLE_ESCAPES.get(esc, esc)


def parse_number(raw):
    """JS numeric literal text -> int/float (bigint -> ('bigint', decimal str))."""
    text = raw.replace("_", "")
    bigint = text.endswith("n")
    if bigint:
        text = text[:-1]
    lower = text.lower()
    if lower.startswith(("0x", "0o", "0b")):
        value = int(text[2:], {"x": 16, "o": 8, "b": 2}[lower[1]])
    elif len(text) > 1 and text[0] == "0" and text.isdigit():
        value = int(text, 8) if set(text) <= set("01234567") else int(text)
    elif text.isdigit():
        value = int(text)
    else:
        value = float(text)
    if bigint:
        return ("bigint", str(value))
    if isinstance(value, int) and abs(value) > 2**53:
        return float(value)
    return value


class _Token:
    __slots__ = ("kind", "value", "start", "end")

    def __init__(self, kind, value, start, end):
        self.kind, self.value, self.start, self.end = kind, value, start, end


class _Parser:
    def __init__(self, text, start, literal_only=False):
        self.text = text
        self.literal_only = literal_only
        self.depth = 0
        self.tok = None
        self.last = None
        self.arrow_at = -1  # where an arrow function may start (as acorn's potentialArrowAt)
        self.prev_end = start
        self._advance_from(start)

    # ---- lexing -------------------------------------------------------------
    def _advance_from(self, pos):
        """Read the token at `pos` (after spaces and comments) into self.tok."""
        text = self.text
        pos = _SPACE.match(text, pos).end()
        if pos >= len(text):
            self.tok = _Token("eof", None, pos, pos)
            return
        char = text[pos]
        is_number = char.isdigit() or (char == "." and text[pos + 1:pos + 2].isdigit())
        word = ("number", _NUMBER) if is_number else ("name", _IDENT)
        for kind, pattern in (("string", _STRING), word):
            match = pattern.match(text, pos)
            if match:
                self._check_token(kind, match)
                self.tok = _Token(kind, match.group(), pos, match.end())
                return
        if char == "`":
            self.tok = _Token("template", "`", pos, pos + 1)
            return
        match = _PUNCT.match(text, pos)
        if not match:
            raise self.error("Unexpected character", pos)
        self.tok = _Token("punct", match.group(), pos, match.end())

    def _check_token(self, kind, match):
        """The lexer's early errors: `3in`, and escaped names that are not names."""
        if kind == "number" and _IDENT.match(self.text, match.end()):
            raise self.error("Identifier directly after number", match.end())
        if kind == "name" and "\\" in match.group() and not _PLAIN_IDENT.fullmatch(cook_string(match.group())):
            raise self.error("Invalid Unicode escape", match.start())

    def next(self):
        tok = self.tok
        self.last = tok
        self.prev_end = tok.end
        self._advance_from(tok.end)
        return tok

    def error(self, message, pos=None):
        pos = self.tok.start if pos is None else pos
        line = self.text.count("\n", 0, pos) + 1
        col = pos - (self.text.rfind("\n", 0, pos) + 1)
        return ParseError(f"{message} ({line}:{col})")

    def is_(self, value, kind="punct"):
        return self.tok.kind == kind and self.tok.value == value

    def eat(self, value, kind="punct"):
        if self.is_(value, kind):
            return self.next()
        return None

    def expect(self, value):
        if not self.is_(value):
            raise self.error("Unexpected token")
        return self.next()

    def node(self, node_type, start, **fields):
        fields.update(type=node_type, start=start, end=self.prev_end)
        return fields

    # ---- expressions --------------------------------------------------------
    def expression(self):
        start = self.tok.start
        first = self.assign()
        if not self.is_(","):
            return first
        items = [first]
        while self.eat(","):
            items.append(self.assign())
        return self.node("SequenceExpression", start, expressions=items)

    def assign(self):
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error("Expression nested too deeply")
        try:
            return self._assign()
        finally:
            self.depth -= 1

    def _assign(self):
        start = self.arrow_at = self.tok.start
        if self.is_("async", "name"):
            arrow = self._async_arrow(start)
            if arrow is not None:
                return arrow
        left = self.conditional()
        if self.tok.kind == "punct" and self.tok.value in _ASSIGN_OPS:
            allowed = _ASSIGN_TARGETS | (_PATTERN_TARGETS if self.tok.value == "=" else set())
            if left["type"] not in allowed:
                raise self.error("Assigning to rvalue")
            operator = self.next().value
            right = self.assign()
            return self.node("AssignmentExpression", start, operator=operator, left=left, right=right)
        if self.is_("=>") and (left["type"] == "Identifier" or _is_async_call(left)):
            return self.arrow_body(start)
        return left

    def _async_arrow(self, start):
        """`async x => ...`; other uses of `async` parse as usual."""
        after = _SPACE.match(self.text, self.tok.end).end()
        name = _IDENT.match(self.text, after)
        if not name or name.group() in _RESERVED or name.group() == "function":
            return None
        if not self.text.startswith("=>", _SPACE.match(self.text, name.end()).end()):
            return None
        self.next()
        self.next()
        return self.arrow_body(start)

    def arrow_body(self, start):
        self.expect("=>")
        if self.is_("{"):
            self.skip_braces()
        else:
            self.assign()
        return self.node("ArrowFunctionExpression", start)

    def conditional(self):
        start = self.tok.start
        test = self.binary(0)
        if test["type"] == "ArrowFunctionExpression" and test["start"] == start:
            return test
        if not self.eat("?"):
            return test
        consequent = self.assign()
        self.expect(":")
        alternate = self.assign()
        return self.node("ConditionalExpression", start, test=test, consequent=consequent, alternate=alternate)

    def _binary_op(self):
        tok = self.tok
        if tok.kind == "punct" or (tok.kind == "name" and tok.value in ("in", "instanceof")):
            return tok.value if tok.value in _BINARY_PRECEDENCE else None
        return None

    def binary(self, min_prec):
        start = self.tok.start
        left = self.unary()
        if left["type"] == "ArrowFunctionExpression" and left["start"] == start:
            return left  # no operators after a bare arrow function
        while True:
            operator = self._binary_op()
            prec = _BINARY_PRECEDENCE.get(operator, 0)
            if not operator or prec <= min_prec:
                return left
            self.next()
            right = self.binary(prec - 1 if operator == "**" else prec)
            kind = "LogicalExpression" if operator in ("||", "&&", "??") else "BinaryExpression"
            left = self.node(kind, start, operator=operator, left=left, right=right)

    def unary(self):
        start = self.tok.start
        tok = self.tok
        if (tok.kind == "punct" and tok.value in ("!", "~", "+", "-")) or (
            tok.kind == "name" and tok.value in _UNARY_WORDS
        ):
            self.next()
            argument = self.unary()
            return self.node("UnaryExpression", start, operator=tok.value, argument=argument)
        if tok.kind == "punct" and tok.value in ("++", "--"):
            self.next()
            self.unary()
            return self.node("UpdateExpression", start)
        expr = self.primary()
        if expr["type"] == "ArrowFunctionExpression" and self.last.value != ")":
            return expr  # `() => {}(1)` is not a call; `(() => {})(1)` is
        expr = self.call_chain(expr, start)
        same_line = "\n" not in self.text[self.prev_end:self.tok.start]
        if self.tok.kind == "punct" and self.tok.value in ("++", "--") and same_line:
            self.next()
            return self.node("UpdateExpression", start)
        return expr

    def call_chain(self, expr, start, allow_calls=True):
        chained = False
        while True:
            if self.is_("?."):
                self.next()
                chained = True
                if self.tok.kind == "name":
                    self.next()
                    expr = self.node("MemberExpression", start, object=expr)
                    continue
                if not (self.is_("(") or self.is_("[")):
                    raise self.error("Unexpected token")
            if self.eat("."):
                self.eat("#")
                if self.tok.kind != "name":
                    raise self.error("Unexpected token")
                self.next()
                expr = self.node("MemberExpression", start, object=expr)
            elif self.eat("["):
                self.expression()
                self.expect("]")
                expr = self.node("MemberExpression", start, object=expr)
            elif self.tok.kind == "template":
                self.template()
                expr = self.node("TaggedTemplateExpression", start)
            elif allow_calls and self.is_("("):
                self.next()
                args = self.arguments(")")
                expr = self.node("CallExpression", start, callee=expr, arguments=args)
            else:
                break
        return self.node("ChainExpression", start, expression=expr) if chained else expr

    def arguments(self, close):
        args = []
        while not self.eat(close):
            start = self.tok.start
            if self.eat("..."):
                args.append(self.node("SpreadElement", start, argument=self.assign()))
                args[-1]["end"] = self.prev_end
            else:
                args.append(self.assign())
            if not self.is_(close):
                self.expect(",")
        return args

    # ---- primaries ----------------------------------------------------------
    def primary(self):
        tok = self.tok
        start = tok.start
        if tok.kind == "string":
            self.next()
            return self.node("Literal", start, value=cook_string(tok.value[1:-1]))
        if tok.kind == "number":
            self.next()
            return self.node("Literal", start, value=parse_number(tok.value))
        if tok.kind == "template":
            return self.template()
        if tok.kind == "name":
            return self.word(tok, start)
        if tok.value == "[":
            self.next()
            return self.array(start)
        if tok.value == "{":
            self.next()
            return self.object(start)
        if tok.value == "(":
            return self.parenthesised(start)
        if tok.value in ("/", "/="):
            return self.regex(start)
        raise self.error("Unexpected token")

    def word(self, tok, start):
        name = tok.value
        if name in _RESERVED:
            raise self.error("Unexpected keyword '%s'" % name)
        self.next()
        if name in ("true", "false"):
            return self.node("Literal", start, value=name == "true")
        if name == "null":
            return self.node("Literal", start, value=None)
        if name == "function":
            return self.function(start, is_async=False)
        if name == "async" and self.is_("function", "name"):
            self.next()
            return self.function(start, is_async=True)
        if name == "class":
            return self.class_(start)
        if name == "new":
            return self.new(start)
        if name in ("this", "super"):
            return self.node("ThisExpression" if name == "this" else "Super", start)
        if name == "import":
            return self.import_(start)
        return self.node("Identifier", start, name=cook_string(name))

    def regex(self, start):
        match = _REGEX.match(self.text, start)
        if not match:
            raise self.error("Unterminated regular expression")
        self.tok = _Token("regex", match.group(), start, match.end())
        self.next()
        return self.node("Literal", start, value=None, regex=match.group())

    def template(self):
        """Read a template literal; the lexer resumes after its closing backtick."""
        start = self.tok.start
        pos = self.tok.end
        quasis, expressions = [], []
        while True:
            match = _TEMPLATE_CHUNK.match(self.text, pos)
            if not match:
                raise self.error("Unterminated template", pos)
            quasis.append(self.text[pos:match.start(1)])
            if match.group(1) == "`":
                self.tok = _Token("template-end", "`", match.start(1), match.end())
                self.next()
                break
            self._advance_from(match.end())
            expressions.append(self.expression())
            if not self.is_("}"):
                raise self.error("Unexpected token")
            pos = self.tok.end
        cooked = cook_string(quasis[0].replace("\r\n", "\n")) if not expressions else None
        return self.node("TemplateLiteral", start, cooked=cooked, expressions=expressions)

    def array(self, start):
        elements = []
        while not self.eat("]"):
            if self.is_(","):
                self.next()
                elements.append(None)
                continue
            item_start = self.tok.start
            if self.eat("..."):
                elements.append(self.node("SpreadElement", item_start, argument=self.assign()))
            else:
                elements.append(self.assign())
            if not self.is_("]"):
                self.expect(",")
        return self.node("ArrayExpression", start, elements=elements)

    def object(self, start):
        properties = []
        while not self.eat("}"):
            properties.append(self.property())
            if not self.is_("}"):
                self.expect(",")
        return self.node("ObjectExpression", start, properties=properties)

    def property(self):
        start = self.tok.start
        if self.eat("..."):
            return self.node("SpreadElement", start, argument=self.assign())
        kind = "init"
        modifier = self.tok.value if self.tok.kind == "name" else None
        if modifier in ("get", "set", "async") or self.is_("*"):
            after = _SPACE.match(self.text, self.tok.end).end()
            if self.text[after:after + 1] not in (":", "(", ",", "}", "="):
                self.next()
                kind = modifier if modifier in ("get", "set") else "method"
                self.eat("*")
        key, computed = self.property_key()
        if kind != "init" or self.is_("("):
            self.function_rest(start)
            return self.node("Property", start, key=key, computed=computed, kind=kind,
                             method=True, shorthand=False, value=None)
        if self.eat(":"):
            value = self.assign()
            return self.node("Property", start, key=key, computed=computed, kind="init",
                             method=False, shorthand=False, value=value)
        if key["type"] != "Identifier" or computed:
            raise self.error("Unexpected token")
        if self.eat("="):
            self.assign()
        return self.node("Property", start, key=key, computed=False, kind="init",
                         method=False, shorthand=True, value=key)

    def property_key(self):
        start = self.tok.start
        if self.eat("["):
            key = self.assign()
            self.expect("]")
            return key, True
        tok = self.next()
        if tok.kind == "name":
            return self.node("Identifier", start, name=tok.value), False
        if tok.kind == "string":
            return self.node("Literal", start, value=cook_string(tok.value[1:-1])), False
        if tok.kind == "number":
            return self.node("Literal", start, value=parse_number(tok.value)), False
        if tok.kind == "punct" and tok.value == "#" and self.tok.kind == "name":
            self.next()
            return self.node("PrivateIdentifier", start), False
        raise self.error("Unexpected token", tok.start)

    def import_(self, start):
        """`import(x)` or `import.meta` (both refused by the evaluator)."""
        if self.eat("."):
            self.next()
            return self.node("MetaProperty", start)
        self.expect("(")
        self.arguments(")")
        return self.node("ImportExpression", start)

    def parenthesised(self, start):
        can_be_arrow = start == self.arrow_at
        self.next()
        if self.eat(")"):
            if not can_be_arrow:
                raise self.error("Unexpected token")
            return self.arrow_body(start)
        items, spread = [], False
        while True:
            if self.eat("..."):
                spread = True
                self.assign()
            else:
                items.append(self.assign())
            if not self.eat(","):
                break
            if self.is_(")"):
                spread = True  # a trailing comma is only valid in arrow params
                break
        self.expect(")")
        if self.is_("=>") and can_be_arrow:
            return self.arrow_body(start)
        if spread:
            raise self.error("Unexpected token")
        if len(items) == 1:
            return items[0]
        return {"type": "SequenceExpression", "expressions": items,
                "start": items[0]["start"], "end": items[-1]["end"]}

    def new(self, start):
        if self.eat("."):
            self.next()
            return self.node("MetaProperty", start)
        callee_start = self.tok.start
        if self.is_("new", "name"):
            self.next()
            callee = self.new(callee_start)
        else:
            callee = self.call_chain(self.primary(), callee_start, allow_calls=False)
        args = []
        if self.eat("("):
            args = self.arguments(")")
        return self.node("NewExpression", start, callee=callee, arguments=args)

    def function(self, start, is_async):
        """A function expression; `function` itself is already consumed."""
        generator = bool(self.eat("*"))
        if self.tok.kind == "name" and not self.is_("("):
            self.next()
        params, body = self.function_rest(start)
        return self.node("FunctionExpression", start, params=params, body_return=body,
                         is_async=is_async, generator=generator)

    def function_rest(self, start):
        """Parameters and body; the body is kept only when it is `{ return <expr> }`."""
        self.expect("(")
        params = []
        while not self.eat(")"):
            param_start = self.tok.start
            if self.eat("..."):
                params.append(self.node("RestElement", param_start, argument=self.assign()))
            else:
                params.append(self.assign())
            if not self.is_(")"):
                self.expect(",")
        if not self.is_("{"):
            raise self.error("Unexpected token")
        return params, self.function_body()

    def function_body(self):
        open_at = self.tok.start
        self.next()
        if self.is_("return", "name"):
            self.next()
            if not self.is_("}") and not self.is_(";"):
                argument = self.expression()
                self.eat(";")
                if self.eat("}"):
                    return argument
        self._advance_from(open_at)
        self.skip_braces()
        return None

    def class_(self, start):
        if self.tok.kind == "name" and self.tok.value != "extends":
            self.next()
        if self.eat("extends", "name"):
            self.call_chain(self.primary(), self.tok.start)
        if not self.is_("{"):
            raise self.error("Unexpected token")
        self.skip_braces()
        return self.node("ClassExpression", start)

    def skip_braces(self):
        """Skip a `{...}` block token by token (strings, templates, regexes aware); with
        ``literal_only``, refuse it at once."""
        if self.literal_only:
            raise self.error("A block the literal reader refuses")
        depth = 0
        while True:
            tok = self.tok
            if tok.kind == "eof":
                raise self.error("Unexpected end of input")
            if tok.kind == "template":
                self.template()
                continue
            if tok.kind == "punct" and tok.value in ("/", "/=") and self._regex_allowed():
                self.regex(tok.start)
                continue
            self.next()
            if tok.kind == "punct" and tok.value == "{":
                depth += 1
            elif tok.kind == "punct" and tok.value == "}":
                depth -= 1
                if depth == 0:
                    return

    def _regex_allowed(self):
        """After a value (name, literal, `)`, `]`, `}`) a slash divides."""
        last = self.last
        if last is None:
            return True
        if last.kind == "punct":
            return last.value not in (")", "]", "}")
        return last.kind == "name" and last.value in _REGEX_AFTER_WORDS

def _is_async_call(node):
    """`async (a, b)` read as a call, which `=>` turns into an async arrow."""
    return node["type"] == "CallExpression" and node["callee"].get("name") == "async"


def parse_expression_at(text, start=0, literal_only=False):
    """Parse one JS expression at `start`; raise ParseError when it is not one. ``literal_only``:
    also at the first block it would skip (a function body other than ``{ return <expr> }``, an
    arrow's block, a class), which no expression that ``jsliteral`` evaluates can hold."""
    try:
        with deep_recursion():
            return _Parser(text, start, literal_only).expression()
    except ParseError:
        raise
    except RecursionError:
        raise ParseError("Maximum call stack size exceeded") from None
    except (ValueError, IndexError) as error:  # e.g. `0b_`: a malformed literal
        raise ParseError(f"Invalid token: {error}") from None
