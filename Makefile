# Two commands for a fresh machine:
#   make run    installs what is missing, builds and starts Kiste
#   make check  installs what is missing, builds and runs every test suite
BUILDDIR ?= build
ASAN_BUILDDIR ?= build-asan
FUZZ_BUILDDIR ?= build-fuzz
# Seconds each fuzz target runs in `make fuzz`
FUZZ_SECONDS ?= 30
MESON_OPTIONS ?=
MESON_TEST_OPTIONS ?=

.PHONY: all deps setup build run check check-fast check-asan fuzz bench screenshots flatpak flatpak-check clean

all: build

deps:
	@build-aux/install-deps

setup: deps
	@if [ ! -f $(BUILDDIR)/build.ninja ]; then \
	  meson setup $(BUILDDIR) $(MESON_OPTIONS); \
	fi

build: setup
	meson compile -C $(BUILDDIR)

run: build
	GSETTINGS_SCHEMA_DIR=$(CURDIR)/$(BUILDDIR)/data $(BUILDDIR)/src/kiste

# Every suite: core, data, ui (under Xvfb) and e2e (real podman + distrobox
# as an ordinary test user; needs root or sudo to prepare that user).
check: build
	meson test -C $(BUILDDIR) --print-errorlogs $(MESON_TEST_OPTIONS)

# Without the real-container suite
check-fast: build
	meson test -C $(BUILDDIR) --print-errorlogs --no-suite e2e $(MESON_TEST_OPTIONS)

# The core and UI suites built with AddressSanitizer and
# UndefinedBehaviorSanitizer: memory errors, undefined behaviour and leaks
# fail the test (suppressions for system libraries: tests/sanitizers/).
check-asan: deps
	@if [ ! -f $(ASAN_BUILDDIR)/build.ninja ]; then \
	  meson setup $(ASAN_BUILDDIR) -Dbuildtype=debug -Db_sanitize=address,undefined $(MESON_OPTIONS); \
	fi
	meson compile -C $(ASAN_BUILDDIR)
	meson test -C $(ASAN_BUILDDIR) --print-errorlogs --suite core --suite ui --timeout-multiplier 3 \
	  $(MESON_TEST_OPTIONS)

# Each libFuzzer target for FUZZ_SECONDS, from the seeds in tests/fixtures;
# needs clang. Crashing inputs land in $(FUZZ_BUILDDIR)/tests/fuzz/NAME/crashes.
fuzz: deps
	@if [ ! -f $(FUZZ_BUILDDIR)/build.ninja ]; then \
	  CC=clang meson setup $(FUZZ_BUILDDIR) -Dbuildtype=debug -Dfuzzing=true \
	    -Db_sanitize=address,undefined $(MESON_OPTIONS); \
	fi
	meson compile -C $(FUZZ_BUILDDIR) fuzzers
	KISTE_FUZZ_SECONDS=$(FUZZ_SECONDS) meson test -C $(FUZZ_BUILDDIR) --no-rebuild --print-errorlogs \
	  --suite fuzz

# Benchmarks (not part of check): ratios against the bare commands measured
# in the same run, each result line also appended to $(BUILDDIR)/bench-results.txt
bench: build
	meson test -C $(BUILDDIR) --benchmark --verbose
	@echo "Results: $(BUILDDIR)/bench-results.txt"

# The screenshots of the README and the store page, taken from the real
# widgets by the `screenshots` UI test (tests/ui/test-screenshots.c, boxes
# from fixtures, light and dark), copied into data/screenshots/
screenshots: build
	rm -f $(BUILDDIR)/screenshots/showcase-*.png
	meson test -C $(BUILDDIR) --print-errorlogs --suite screenshots
	for f in $(BUILDDIR)/screenshots/showcase-*.png; do \
	  cp "$$f" "data/screenshots/$${f##*/showcase-}"; \
	done

flatpak:
	flatpak-builder --user --install --force-clean $(BUILDDIR)-flatpak flatpak/io.github.kiste.Kiste.json

# The real Flatpak without network: a stand-in GNOME 48 runtime and SDK made
# from this machine's packages, the manifests built by flatpak-builder, and
# the main flows through `flatpak run` as a test user (docs/flatpak.md)
flatpak-check: deps
	build-aux/flatpak-check

clean:
	rm -rf $(BUILDDIR) $(ASAN_BUILDDIR) $(FUZZ_BUILDDIR)
