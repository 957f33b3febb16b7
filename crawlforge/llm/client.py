"""One client for every OpenAI-compatible chat-completions server: hosted APIs, Ollama,
vLLM, llama.cpp's server, LM Studio. Only ``base_url``, the model and the key differ."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass, field

import openai

# Sent when no key is configured: local servers ignore it, the SDK refuses an empty one.
_NO_KEY = "no-key"


class BadResponse(openai.OpenAIError):
    """A 200 answer whose body is not JSON (a proxy's error page, a server bug): the SDK
    lets ``json.JSONDecodeError`` through, this names it."""


@dataclass
class Completion:
    """The text of one answer and its token counts (0 when the server reports none)."""

    text: str
    usage: dict = field(default_factory=dict)


class Client:
    """Any OpenAI-compatible chat-completions server (vLLM, Ollama, OpenAI), through the openai SDK.

    Options: ``api_key_env`` (read the key from this environment variable when
    ``api_key`` is None); ``json_mode``: True (default) asks for a JSON object,
    ``"schema"`` for structured output against the schema (vLLM, Ollama, OpenAI), False
    for neither; a server that rejects the request format gets the next weaker one, and
    the client remembers. ``temperature`` (default 0), ``max_tokens``, ``timeout``
    (seconds, default 120), ``max_retries`` (the SDK's, default 2).
    """

    def __init__(self, base_url: str, model: str, api_key: str | None = None, **options):
        api_key_env = options.pop("api_key_env", None)
        if api_key is None and api_key_env:
            api_key = os.environ.get(api_key_env)
        self.model = model
        json_mode = options.pop("json_mode", True)
        self.json_mode: str | None = "schema" if json_mode == "schema" else ("object" if json_mode else None)
        self.temperature = options.pop("temperature", 0)
        self.max_tokens = options.pop("max_tokens", None)
        timeout = options.pop("timeout", 120)
        max_retries = options.pop("max_retries", 2)
        if options:
            raise TypeError(f"unknown Client options: {', '.join(sorted(options))}")
        self.timeout = timeout
        self.sdk = openai.OpenAI(base_url=base_url, api_key=api_key or _NO_KEY,
                                 timeout=timeout, max_retries=max_retries)
        # llama.cpp serves /props, /tokenize and /apply-template beside /v1; None: not asked yet,
        # False: this server has no such endpoint (asked once, then the estimate is used)
        self._root = base_url.rstrip("/").removesuffix("/v1")
        self._api_key = api_key
        self._context: int | bool | None = None
        self._tokenizes: bool | None = None

    def context_tokens(self) -> int | None:
        """The context size the server reports (llama.cpp's ``/props``), asked once; None when
        the server does not say."""
        if self._context is None:
            props = self._server_json("GET", "/props")
            if props is None:  # not reachable now: ask again next time
                return None
            n_ctx = (props.get("default_generation_settings") or {}).get("n_ctx")
            self._context = n_ctx if isinstance(n_ctx, int) and n_ctx > 0 else False
        return self._context or None

    def count_tokens(self, text: str) -> int | None:
        """Exact token count of ``text`` for the loaded model (llama.cpp's ``/tokenize``), or
        None when the server cannot count."""
        if self._tokenizes is False:
            return None
        answer = self._server_json("POST", "/tokenize", {"content": text})
        if answer is None:
            return None
        tokens = answer.get("tokens")
        self._tokenizes = isinstance(tokens, list)
        return len(tokens) if self._tokenizes else None

    def count_prompt(self, messages: list[dict]) -> int | None:
        """Exact tokens of ``messages`` as the server's chat template lays them out
        (llama.cpp's ``/apply-template``), or None."""
        if self._tokenizes is False:
            return None
        answer = self._server_json("POST", "/apply-template", {"messages": messages})
        prompt = (answer or {}).get("prompt")
        return self.count_tokens(prompt) if isinstance(prompt, str) else None

    def _server_json(self, method: str, path: str, body: dict | None = None) -> dict | None:
        """One request to the server's root: its JSON object, ``{}`` when the server answers
        without one (no such endpoint), None when it cannot be reached. Never raises: these
        endpoints only sharpen the budget, the chat call says whether the server is there."""
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self._root + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=min(self.timeout, 30)) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError:
            return {}
        except OSError:
            return None
        except ValueError:
            return {}
        return answer if isinstance(answer, dict) else {}

    def complete(self, messages: list[dict], json_schema: dict | None = None,
                 timeout: float | None = None, max_tokens: int | None = None) -> Completion:
        """One chat completion; raises ``openai.OpenAIError`` on transport or API errors.
        ``timeout`` (seconds) shortens the client's own for this call, e.g. to what is left of a
        page's deadline; such a call is not retried, as a retry would overrun the deadline.
        ``max_tokens`` caps the answer when the client sets no cap of its own."""
        kwargs = {"model": self.model, "messages": messages, "temperature": self.temperature}
        sdk = self.sdk
        if timeout is not None and timeout < self.timeout:
            sdk = sdk.with_options(timeout=timeout, max_retries=0)
        if self.max_tokens or max_tokens:
            kwargs["max_tokens"] = self.max_tokens or max_tokens
        while (response_format := self._response_format(json_schema)) is not None:
            try:
                return self._create(sdk, **kwargs, response_format=response_format)
            except openai.BadRequestError:
                self.json_mode = "object" if self.json_mode == "schema" else None
        return self._create(sdk, **kwargs)

    def _response_format(self, json_schema: dict | None) -> dict | None:
        if self.json_mode == "schema" and json_schema:
            return {"type": "json_schema", "json_schema": {"name": "extraction", "schema": json_schema}}
        return {"type": "json_object"} if self.json_mode else None

    @staticmethod
    def _create(sdk, **kwargs) -> Completion:
        try:
            response = sdk.chat.completions.create(**kwargs)
        except json.JSONDecodeError as error:
            raise BadResponse(f"the server's answer is not JSON ({error})") from None
        text = response.choices[0].message.content if response.choices else None
        usage = response.usage
        return Completion(
            text=text or "",
            usage={
                "prompt_tokens": getattr(usage, "prompt_tokens", 0) or 0,
                "completion_tokens": getattr(usage, "completion_tokens", 0) or 0,
            },
        )
