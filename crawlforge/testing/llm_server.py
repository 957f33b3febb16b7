"""A local OpenAI-compatible chat-completions server for the LLM path's fault modes: what a real
model server never does on purpose (500s, hangs, garbage bodies, cut connections, refusing
``response_format``). Extraction itself is tested against the real local model
(``crawlforge.testing.local_model``).

``fault``: ``"500"`` answers every request with a server error, ``"hang"`` holds it
``hang_seconds`` without answering, ``"garbage"`` answers 200 with a body that is not JSON,
``"cut"`` closes the connection halfway through the answer's body.

A recording is a JSON file: ``{"match": {"contains": [...]}, "response": {...}}`` where
``response`` is a whole ``chat.completion`` body. A request gets the recording whose
``contains`` strings all occur in its messages, the most specific (most strings) first;
none matching → 404 in OpenAI's error shape. ``json_mode=False`` makes the server reject
``response_format`` with a 400, as servers without JSON mode do.

Run by hand: ``python -m crawlforge.testing.llm_server --recordings fixtures/llm --port 8001``
and point ``CRAWLFORGE_LLM_BASE_URL`` at ``http://127.0.0.1:8001/v1``.
"""

from __future__ import annotations

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def load_recordings(folder: Path | str, pattern: str = "*recording_*.json") -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(Path(folder).glob(pattern))]


class ReplayHandler(BaseHTTPRequestHandler):
    server: ReplayServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self.answer(404, _error(f"no route {self.path}"))
        try:
            request = json.loads(body)
        except ValueError:
            return self.answer(400, _error("request body is not JSON"))
        self.server.requests.append(request)
        self.server.authorizations.append(self.headers.get("Authorization"))
        if fault := self.server.fault:
            return self.fail(fault)
        if "response_format" in request and not self.server.json_mode:
            return self.answer(400, _error("response_format is not supported by this server"))
        recording = self.server.find(request)
        if recording is None:
            return self.answer(404, _error("no recorded response matches this request"))
        self.answer(recording.get("status", 200), recording["response"])

    def fail(self, fault: str):
        if fault == "500":
            return self.answer(500, {"error": {"message": "internal error", "type": "server_error", "code": None}})
        if fault == "hang":
            self.server.released.wait(self.server.hang_seconds)
            self.close_connection = True
            return None
        body = b"<html>502 Bad Gateway</html>" if fault == "garbage" else b'{"id": "chatcmpl-1", "choices": [{"mess'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body) * (1 if fault == "garbage" else 3)))
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True
        return None

    def answer(self, status: int, payload: dict):
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _error(message: str) -> dict:
    return {"error": {"message": message, "type": "invalid_request_error", "code": None}}


class ReplayServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, recordings: list[dict], port: int = 0, json_mode: bool = True,
                 fault: str | None = None, hang_seconds: float = 60):
        super().__init__(("127.0.0.1", port), ReplayHandler)
        self.recordings = recordings
        self.json_mode = json_mode
        self.fault = fault
        self.hang_seconds = hang_seconds
        self.released = threading.Event()  # set on stop: hung requests end
        self.requests: list[dict] = []  # request bodies, in arrival order
        self.authorizations: list[str | None] = []  # their Authorization headers
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The ``base_url`` to give the client."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def find(self, request: dict) -> dict | None:
        text = "\n".join(_content_text(m.get("content")) for m in request.get("messages") or [])
        matching = [r for r in self.recordings if all(s in text for s in r["match"]["contains"])]
        return max(matching, key=lambda r: len(r["match"]["contains"]), default=None)

    def start(self) -> ReplayServer:
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.shutdown()
        self.server_close()


def _content_text(content) -> str:
    """Message content is a string or a list of parts with ``text``."""
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recordings", required=True, help="folder of *recording_*.json files (a recorded exchange: request match + model answer)")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--no-json-mode", action="store_true", help="reject response_format with 400")
    parser.add_argument("--fault", choices=["500", "hang", "garbage", "cut"])
    args = parser.parse_args()
    server = ReplayServer(load_recordings(args.recordings), args.port, json_mode=not args.no_json_mode,
                          fault=args.fault)
    print(f"replaying {len(server.recordings)} recordings at {server.url}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
