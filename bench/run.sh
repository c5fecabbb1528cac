#!/bin/sh
# Benchmarks: a generated site of about 11,000 pages and 50,000 claims is
# built (wall time, peak memory), then every package's Go benchmarks run,
# the serve rebuild benchmark on that generated site. FENCES=false leaves
# out the fenced blocks of every wiki page (the corpus before issue 11).
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/tracewiki" ./cmd/tracewiki
go run ./bench/gen -out "$work/site" -pages 5000 -claims 10 -fences="${FENCES:-true}"
(
	cd "$work/site"
	"$work/tracewiki" capture --by bench >/dev/null
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f 'build: %e s wall, %M KiB peak RSS' "$work/tracewiki" build --frozen --out "$work/out"
	else
		time "$work/tracewiki" build --frozen --out "$work/out"
	fi
)
TRACEWIKI_SERVE_SITE="$work/site" go test -run '^$' -bench . -benchtime "${BENCHTIME:-1s}" ./... | grep -E '^(Benchmark|ok|pkg)'
