# Two commands set up everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Debian packages crawlforge drives for real: the browser (demo and tests) and Redis (tests);
# poppler-utils' pdftotext is bench/bench_pdf.py's reference text layer.
DEBIAN_PACKAGES := chromium redis-server poppler-utils

.PHONY: install system-deps demo test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all]'
	touch $(STAMP)

install: $(STAMP)

system-deps:
	@missing=""; for pkg in $(DEBIAN_PACKAGES); do dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

demo: install system-deps
	$(PY) -m crawlforge.testing.demo

# pytest starts the fixture server, redis-server, moto_server and Chromium itself, on 127.0.0.1.
test: install system-deps
	$(PY) -m pytest -q -p no:cacheprovider

bench: install
	$(PY) bench/bench_pipeline.py

clean:
	rm -rf output build *.egg-info .pytest_cache
