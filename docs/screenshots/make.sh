#!/bin/sh
# Makes the screenshots of this folder from headless Chromium: the browser
# test (site/browser_test.go, testUI) builds tracewiki's own wiki and a small
# stale fixture, opens the matrix, a requirement page, a file page and the
# drift page in the light theme, the dark theme and a 390 px phone
# viewport, checks them, and saves each view here as NAME-THEME.png.
# Needs Debian's chromium.
set -eu
cd "$(dirname "$0")/../.."
TRACEWIKI_SCREENSHOTS="$(pwd)/docs/screenshots" go test -tags conformance ./site -run 'TestBrowser$' -count=1
