# focus — build, try, test, install.
#   make start   install what is missing, build a release binary, start a focus session
#   make test    run every test (unit, CLI, end to end under tmux and a private D-Bus bus)
#   make test-unit   the unit test targets alone, for the edit-test loop: builds no FocusCLI,
#                    ArgumentParser or executable, and runs no CLI or end-to-end test
#   make install PREFIX=/usr/local   (DESTDIR too; make uninstall)
#   make install-files BIN=path      install an already-built binary, with what it generates
#   make deb     focus_VERSION_amd64.deb from the release binary (dpkg-deb, offline)

PREFIX   ?= /usr/local
SWIFT    ?= swift
TASK     ?= Getting started/Try focus
DURATION ?= 25m
# Debian packages. To build and run: SQLite (linked; its headers and pkg-config to build), the
# zone database, and the libraries focus loads when it needs them (libnotify for desktop
# notifications, libcurl for calendars on the network). `make start` and `make build` ask
# for these alone.
RUN_PACKAGES = libsqlite3-dev pkg-config tzdata libnotify4 libcurl4
# What the tests drive besides: tmux for the countdown, dbus + python3-dbus/gi for
# notifications, timewarrior for a real `timew export` to import, man-db + groff-base to render
# the manual, the shells for completions, openssl and curl for the test servers, sqlite3 to
# inspect databases. `make test` installs them too.
TEST_PACKAGES = openssl tmux dbus python3-dbus python3-gi python3-venv sqlite3 curl timewarrior man-db groff-base zsh fish bash-completion
# The CalDAV servers the tests run, Radicale and Xandikos, come from PyPI, at the versions pinned
# in scripts/ci/test-python.txt (CI uses the same), into a virtual environment of Debian's python3
# under the build folder: Debian's own Python refuses `pip install` outside one (PEP 668).
# `make -s print-TEST_PYTHON` names it; `make test` passes it to the tests as FOCUS_TEST_PYTHON.
TEST_VENV = .build/test-python
TEST_PYTHON = $(abspath $(TEST_VENV))/bin/python3
TEST_REQUIREMENTS = scripts/ci/test-python.txt

# The same flags whatever stdout is: SwiftPM colours diagnostics only on a terminal, and the
# changed compiler flag made every switch between a terminal and a pipe rebuild everything.
SWIFT_FLAGS = --no-color-diagnostics

# The release binary's one name. Scripts ask for it through scripts/lib/focus-bin (this value,
# `make -s print-RELEASE_BIN`, unless FOCUS_BIN names another binary); the end-to-end tests take
# FOCUS_BIN or the binary beside their test bundle.
RELEASE_BIN = .build/release/focus
# The binary install-files installs (and runs, for completions and the manual).
BIN ?= $(RELEASE_BIN)
# PREFIX as an absolute path: zsh, fish and sh pass `PREFIX=~/.local` with the tilde unexpanded,
# and the unit's ExecStart must be absolute (systemd.service(5)).
PREFIX_ABS = $(abspath $(patsubst ~%,$(HOME)%,$(PREFIX)))
# Where systemd looks for user units (systemd.unit(5), "User Unit Search Path"): under
# $XDG_DATA_HOME for a home install, lib/systemd/user for /usr and /usr/local.
HOME_PREFIX = $(if $(filter-out / ,$(HOME)),$(filter $(HOME)/%,$(PREFIX_ABS)))
ifneq ($(HOME_PREFIX),)
SYSTEMD_USER_DIR ?= $(PREFIX_ABS)/share/systemd/user
else
SYSTEMD_USER_DIR ?= $(PREFIX_ABS)/lib/systemd/user
endif
# Every file install-files writes, relative to PREFIX: uninstall removes exactly these and never
# a folder (for PREFIX=~/.local, share/focus is where the database and its backups live).
# Icons go where the icon theme specification puts an application's icon.
ICON_SVG = share/icons/hicolor/scalable/apps/focus.svg
ICON_PNG = share/icons/hicolor/128x128/apps/focus.png
COMPLETION_BASH = share/bash-completion/completions/focus
COMPLETION_ZSH = share/zsh/site-functions/_focus
COMPLETION_FISH = share/fish/vendor_completions.d/focus.fish
MANUAL = share/man/man1/focus.1
INSTALLED = bin/focus $(ICON_SVG) $(ICON_PNG) $(COMPLETION_BASH) $(COMPLETION_ZSH) $(COMPLETION_FISH) $(MANUAL)
# Files earlier versions installed into share/focus, removed by uninstall one by one.
LEGACY = share/focus/focus.svg share/focus/focus.png share/focus/focus.service
# The commit `focus --version` prints: written before each build, read by FocusVersion.swift.
COMMIT_FILE = Sources/FocusCLI/Generated/FocusBuild+Commit.swift

.PHONY: deps deps-test test-python apt-install stamp build start path-hint test test-unit deb install install-files uninstall clean

deps:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(RUN_PACKAGES)"

deps-test:
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(RUN_PACKAGES) $(TEST_PACKAGES)"
	@$(MAKE) --no-print-directory test-python

# The virtual environment of TEST_PYTHON, made again only when the pinned list changed or a
# server cannot be imported. Debian's python3 (python3-venv) when there is one, else python3.
test-python:
	@if cmp -s $(TEST_REQUIREMENTS) $(TEST_VENV)/requirements.txt && $(TEST_PYTHON) -c "import radicale, xandikos" 2>/dev/null; then exit 0; fi; \
	base=/usr/bin/python3; [ -x $$base ] || base=python3; \
	echo "Installing Radicale and Xandikos for the tests into $(TEST_VENV) ($(TEST_REQUIREMENTS))"; \
	rm -rf $(TEST_VENV) && $$base -m venv $(TEST_VENV) && \
	$(TEST_VENV)/bin/python3 -m pip install -q --disable-pip-version-check --no-input -r $(TEST_REQUIREMENTS) && \
	$(TEST_PYTHON) -c "import radicale, xandikos" && cp $(TEST_REQUIREMENTS) $(TEST_VENV)/requirements.txt || { \
	  echo "Could not install the test servers from PyPI into $(TEST_VENV) (see above). The CalDAV tests need them."; exit 1; }

# Installs the missing ones of PACKAGES when root; otherwise prints the line to run.
apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -qE "ok (installed|triggers-pending|triggers-awaited)" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	  echo "Installing:$$missing"; \
	  apt-get -o DPkg::Lock::Timeout=300 update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends $$missing; \
	else \
	  echo "focus needs these Debian packages. Run:"; echo "  sudo apt-get install -y$$missing"; exit 1; \
	fi

# The commit from git when this is a clone, else from data/commit (filled in by `git archive`,
# see data/.gitattributes), else "unknown". Rewritten only when it changes, so it costs no rebuild.
stamp:
	@c=""; \
	if [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ]; then c=$$(git rev-parse --short=7 HEAD 2>/dev/null); fi; \
	if [ -z "$$c" ] && [ -f data/commit ]; then c=$$(grep -xE '[0-9a-f]{7,40}' data/commit); fi; \
	[ -n "$$c" ] || c=unknown; \
	new="// Generated by make (git ignores it). The commit of this build, for focus --version.\nextension FocusBuild {\n    static var commit: String { \"$$c\" }\n}"; \
	mkdir -p $(dir $(COMMIT_FILE)); \
	if [ "$$(cat $(COMMIT_FILE) 2>/dev/null)" != "$$(printf "$$new")" ]; then printf "$$new\n" > $(COMMIT_FILE); fi

# The Swift runtime linked statically: about 5 ms less start-up for every command. No debug
# information (-gnone): the installed binary is stripped of it anyway, and leaving it out makes
# the first build about 9 % shorter (scripts/bench/build-times). Each Swift function in a section of
# its own (-function-sections), so that lld can lay out what `focus status` runs side by side
# (Sources/focus/link-order.txt; docs/PERFORMANCE.md). The scripts build through this target,
# so every release build has the same flags and none recompiles another's work.
# Concrete generic types' metadata through their accessors rather than by mangled name
# (-disable-concrete-type-metadata-mangled-name-accessors): the runtime resolving a name such as
# `Set<Name>` checks `Name: Hashable` by scanning every conformance record of the binary, once
# per type, at every start (docs/PERFORMANCE.md).
# No $$ORIGIN run path (--disable-local-rpath): focus loads only system libraries, and the loader
# looked for each of them first in 20 hardware-capability folders beside the binary.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -gnone -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
build: deps stamp
	$(SWIFT) build $(SWIFT_FLAGS) $(RELEASE_FLAGS) --product focus

# Ctrl-C stops the countdown as `q` does and the PATH hint still follows (the shell's INT trap
# outlives the signal the terminal sends the whole group; focus gets the default action back at
# exec). make itself then exits 130, as any interrupted make does.
start: build
	@$(RELEASE_BIN) task show "$(TASK)" >/dev/null 2>&1 || $(RELEASE_BIN) task add "$(TASK)"
	@trap : INT; status=0; $(RELEASE_BIN) start "$(TASK)" --duration $(DURATION) || status=$$?; \
	echo; $(MAKE) -s --no-print-directory path-hint; exit $$status

# The end of `make start`: where `focus` is on the PATH, or how to put it there.
path-hint:
	@if command -v focus >/dev/null 2>&1; then echo "focus is on your PATH: $$(command -v focus)"; else \
	echo "focus is built at $(RELEASE_BIN) but not on your PATH yet. To run \`focus\` anywhere:"; \
	echo "  make install PREFIX=~/.local   # then have ~/.local/bin on your PATH"; \
	echo "or build and install the Debian package: make deb && sudo apt-get install ./focus_*_amd64.deb"; fi

# `make -s print-RUN_PACKAGES`: a variable's value, for the tests and scripts.
print-%:
	@echo $($*)

# Every test, after deps-test has installed what they drive. A test whose tool is still missing
# (not root, no network; chromium and lintian, which only CI installs) is skipped, never failed.
# scripts/ci/test-summary reads swift test's output and ends with the failed tests, the skipped ones
# with the reason, the compiler warnings, and one line: `N of M tests failed` or `M tests
# passed`, and how many were skipped. With NO_SKIPS=1 (CI, .ci/run) a skip or a warning fails.
TEST_LOG = .build/test-output.txt
test: deps-test stamp
	@mkdir -p .build; \
	{ FOCUS_TEST_PYTHON=$(TEST_PYTHON) $(SWIFT) test $(SWIFT_FLAGS) 2>&1; echo $$? > $(TEST_LOG).status; } | tee $(TEST_LOG); \
	status=$$(cat $(TEST_LOG).status); \
	scripts/ci/test-summary $(TEST_LOG) $(if $(NO_SKIPS),--no-skips) || status=1; exit $$status

# The Debian package: the release binary and what install-files writes, in Debian's places,
# with Depends computed from what the binary links (scripts/deb/make-deb).
VERSION = $(shell sed -n 's/.*static let number = "\(.*\)"/\1/p' Sources/FocusCLI/FocusVersion.swift)
deb: build
	scripts/deb/make-deb $(RELEASE_BIN) $(VERSION)

# Package.swift leaves FocusCLITests and EndToEndTests out when FOCUS_UNIT_TESTS=1: they are most
# of what a test build compiles. FILTER=NAME runs only the tests matching NAME.
test-unit: deps stamp
	FOCUS_UNIT_TESTS=1 $(SWIFT) test $(SWIFT_FLAGS) $(if $(FILTER),--filter '$(FILTER)')

install: build install-files

# Everything but the build: the binary, shell completions and the manual page (both generated
# by running it), the icon and the systemd user unit. Only files are written; no folder that
# exists is touched (its mode stays as it is).
install-files:
	@test -x $(BIN) || { echo "No binary at $(BIN): run \`make build\` first, or pass BIN=path."; exit 1; }
	@d='$(DESTDIR)$(PREFIX_ABS)'; for f in $(INSTALLED); do \
	  dir=$$(dirname "$$d/$$f"); [ -d "$$dir" ] || install -d -m 0755 "$$dir" || exit 1; done; \
	  [ -d '$(DESTDIR)$(SYSTEMD_USER_DIR)' ] || install -d -m 0755 '$(DESTDIR)$(SYSTEMD_USER_DIR)'
	install -m 0755 -s $(BIN) '$(DESTDIR)$(PREFIX_ABS)/bin/focus'
	$(BIN) --generate-completion-script bash > '$(DESTDIR)$(PREFIX_ABS)/$(COMPLETION_BASH)'
	$(BIN) --generate-completion-script zsh > '$(DESTDIR)$(PREFIX_ABS)/$(COMPLETION_ZSH)'
	$(BIN) --generate-completion-script fish > '$(DESTDIR)$(PREFIX_ABS)/$(COMPLETION_FISH)'
	$(BIN) generate-man > '$(DESTDIR)$(PREFIX_ABS)/$(MANUAL)'
	cd '$(DESTDIR)$(PREFIX_ABS)' && chmod 0644 $(COMPLETION_BASH) $(COMPLETION_ZSH) $(COMPLETION_FISH) $(MANUAL)
	install -m 0644 data/focus.svg '$(DESTDIR)$(PREFIX_ABS)/$(ICON_SVG)'
	install -m 0644 data/focus.png '$(DESTDIR)$(PREFIX_ABS)/$(ICON_PNG)'
	sed 's|^ExecStart=.*|ExecStart=$(PREFIX_ABS)/bin/focus daemon|' data/focus.service > '$(DESTDIR)$(SYSTEMD_USER_DIR)/focus.service'
	chmod 0644 '$(DESTDIR)$(SYSTEMD_USER_DIR)/focus.service'

# Exactly the files install-files wrote (and those earlier versions wrote), never a folder:
# with PREFIX=~/.local, share/focus holds the person's database.
uninstall:
	cd '$(DESTDIR)$(PREFIX_ABS)' 2>/dev/null && rm -f $(INSTALLED) $(LEGACY) || true
	rm -f '$(DESTDIR)$(SYSTEMD_USER_DIR)/focus.service'

clean:
	rm -rf .build
