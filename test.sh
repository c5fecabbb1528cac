#!/bin/sh
# test.sh installs what the tests need and then runs every test:
#
#	./test.sh [go test flags]
#
# The tests compare tracewiki with each language's own parser and drive a
# real browser, so they need programs beside Go. Each is installed here from
# Debian's packages when missing (with sudo when not root); npm references
# (typescript, prettier, ...) are installed by the tests themselves into the
# user cache folder, at pinned versions, the first time. Nothing is skipped:
# a test whose tool is missing fails and says so. .ci/run calls exactly this.
#
# Those tests (conformance, formatter, corpus, real-repository and browser)
# build only with the conformance tag, which this script always sets: a
# plain "go test ./..." runs the rest, with nothing but Go and git, in
# under a minute (cmd/tracewiki's TestToolsNeedTheConformanceTag keeps it
# so).
set -eu
cd "$(dirname "$0")"

# command:package pairs, one per tool a test runs; a command that is an
# absolute path is a file the package installs (a corpus of real code).
tools="chromium:chromium pdftoppm:poppler-utils python3:python3 node:nodejs npm:npm git:git"
tools="$tools javac:openjdk-17-jdk-headless /usr/lib/jvm/openjdk-17/src.zip:openjdk-17-source"
# Rust: Debian's toolchain by absolute path (a rustup one may come first in
# PATH), the standard library's sources and the syn crate the reference uses.
tools="$tools /usr/bin/rustc:rustc /usr/bin/cargo:cargo /usr/bin/rustfmt:rustfmt"
tools="$tools /usr/lib/rustlib/src/rust/library/core/src/lib.rs:rust-src"
tools="$tools /usr/share/cargo/registry/syn-1.0.107/Cargo.toml:librust-syn-dev"
tools="$tools /usr/share/cargo/registry/proc-macro2-1.0.47/Cargo.toml:librust-proc-macro2-dev"
tools="$tools astyle:astyle uncrustify:uncrustify"
# C and C++: clang's AST is the conformance reference, clang-format the
# formatter; the corpora are system headers and GoogleTest's sources.
tools="$tools clang:clang clang-format:clang-format /usr/src/googletest/googletest/src/gtest-all.cc:googletest"
tools="$tools /usr/include/stdio.h:libc6-dev /usr/include/zlib.h:zlib1g-dev /usr/include/expat.h:libexpat1-dev"
# PHP: real code for the conformance and prettier tests (Symfony Console,
# League CommonMark and what they depend on, under /usr/share/php).
tools="$tools /usr/share/php/Symfony/Component/Console/Application.php:php-symfony-console"
tools="$tools /usr/share/php/League/CommonMark/CommonMarkConverter.php:php-league-commonmark"
# Ruby: the standard library and the gems rubocop brings are the corpus of
# the conformance test; rubocop is the formatter of the stability test.
tools="$tools ruby:ruby rubocop:rubocop"

# apt_lock_wait is how long, in seconds, to wait for another apt-get.
apt_lock_wait=600

missing=
for pair in $tools; do
	cmd=${pair%%:*}
	command -v "$cmd" >/dev/null 2>&1 || [ -e "$cmd" ] || missing="$missing ${pair#*:}"
done
if [ -n "$missing" ]; then
	sudo=
	if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then sudo=sudo; fi
	echo "test.sh: installing$missing" >&2
	# Another apt-get (unattended-upgrades, a parallel run) may hold apt's
	# locks: wait for it rather than fail. apt-get install waits for the
	# dpkg lock with DPkg::Lock::Timeout; apt-get update ignores that option
	# for its lists lock (apt 2.6, Debian 12), so it is tried again.
	tries=0
	until out=$($sudo apt-get update -qq 2>&1); do
		case $out in
		*"Could not get lock"*) ;;
		*) printf '%s\n' "$out" >&2; exit 1 ;;
		esac
		tries=$((tries + 1))
		if [ "$tries" -ge $((apt_lock_wait / 5)) ]; then
			printf '%s\n' "$out" >&2
			exit 1
		fi
		[ "$tries" -gt 1 ] || echo "test.sh: another apt-get holds its lists lock; waiting up to ${apt_lock_wait}s" >&2
		sleep 5
	done
	[ -z "$out" ] || printf '%s\n' "$out" >&2
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-o DPkg::Lock::Timeout="$apt_lock_wait" $missing
fi

go test -tags conformance "$@" ./...
