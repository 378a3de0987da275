# Two commands for a fresh machine:
#   make run    installs what is missing, builds and starts Kiste
#   make check  installs what is missing, builds and runs every test suite
BUILDDIR ?= build
MESON_OPTIONS ?=
MESON_TEST_OPTIONS ?=

.PHONY: all deps setup build run check check-fast bench screenshots flatpak clean

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

bench: build
	meson test -C $(BUILDDIR) --benchmark --verbose

# The README's screenshots, taken by the UI tests from the real widgets
screenshots: build
	meson test -C $(BUILDDIR) --suite ui box-list create-dialog
	cp $(BUILDDIR)/screenshots/readme-main-window.png data/screenshots/main-window.png
	if [ -f $(BUILDDIR)/screenshots/create-dialog-form.png ]; then \
	  cp $(BUILDDIR)/screenshots/create-dialog-form.png data/screenshots/create-dialog.png; \
	  cp $(BUILDDIR)/screenshots/create-dialog-isolation.png data/screenshots/create-dialog-isolation.png; \
	fi

flatpak:
	flatpak-builder --user --install --force-clean $(BUILDDIR)-flatpak flatpak/io.github.kiste.Kiste.json

clean:
	rm -rf $(BUILDDIR)
