#!/bin/sh
# Benchmarks of issue 14's goals, on two generated workspaces of about 2,000
# and 11,000 output pages (every wiki page with a Go and a Python fence):
#
#   cold      tracewiki build --frozen, nothing built before (no output
#             folder, empty cache)
#   floor     bench/floor on the workspace (goldmark + chroma, the yardstick),
#             then the same folders and files as the cold build's site
#             written again from memory (what writing that site costs here)
#   warm      the same build again, nothing changed
#   edit      the same build after one wiki page was edited
#   default   a cold build without --frozen (it captures, then builds)
#   serve     bench/latency: from the write of an edited page to the first
#             HTTP response of tracewiki serve that shows it (median)
#
# Each build line gives wall seconds, CPU seconds (user+system) and peak
# RSS (/usr/bin/time -f %M). When tracewiki build has --cache, cold, warm and
# edit use a cache folder of their own (emptied before cold), and one more
# line builds with --no-cache; without it, warm and edit are plain rebuilds.
# Then every package's Go benchmarks run, the serve rebuild benchmark on
# the 11,000-page workspace.
#
#   bench/run.sh [2k] [11k]   (default both)
#   GOBENCH=false             leaves out the Go benchmarks
#   EDITS=N                   serve edits to time (default 7)
#   FENCES=false              workspaces without fences (the corpus before issue 11)
#   WORK=DIR                  keep the workspaces in DIR (default: a temporary folder, removed)
set -eu
cd "$(dirname "$0")/.."
if [ -n "${WORK:-}" ]; then
	work=$WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
sizes=${*:-2k 11k}
go build -o "$work/tracewiki" ./cmd/tracewiki
go build -o "$work/floor" ./bench/floor
go build -o "$work/latency" ./bench/latency
tw=$work/tracewiki
cache=
if "$tw" build --help 2>&1 | grep -q -- '-cache'; then
	cache=yes
fi
echo "machine: $(nproc) cores, GOMAXPROCS ${GOMAXPROCS:-$(nproc)}, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tracewiki: $(git rev-parse --short HEAD), build cache flag: ${cache:-none}"

# timed LABEL CMD...: runs CMD in the workspace, prints one line.
timed() {
	label=$1
	shift
	/usr/bin/time -o "$work/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$work/err" || {
		cat "$work/err" >&2
		exit 1
	}
	awk -v l="$label" '{ printf "%-14s %7.2f s wall %7.2f s cpu %8d KiB peak RSS\n", l, $1, $2 + $3, $4 }' "$work/time"
}

for size in $sizes; do
	ws=$work/w$size
	if [ ! -d "$ws" ]; then
		case $size in
		2k) go run ./bench/gen -out "$ws" -pages 1000 -claims 10 -reqs 400 -decisions 100 -files 140 -fences="${FENCES:-true}" ;;
		11k) go run ./bench/gen -out "$ws" -pages 5000 -claims 10 -fences="${FENCES:-true}" ;;
		*)
			echo "run.sh: unknown size $size (2k or 11k)" >&2
			exit 2
			;;
		esac
		(cd "$ws" && "$tw" capture --by bench >/dev/null)
	fi
	echo "== $size: $(find "$ws/content" -name '*.md' | wc -l) Markdown files, $(find "$ws" -name '*.go' | wc -l) Go files"
	out=$work/out$size
	page=$ws/content/area00/page00000.md
	cp "$page" "$work/page.orig"
	(
		cd "$ws"
		flags="--frozen --out $out"
		rm -rf "$out"
		if [ -n "$cache" ]; then
			rm -rf "$work/cache$size"
			flags="$flags --cache $work/cache$size"
		fi
		sync
		# shellcheck disable=SC2086
		timed "cold" "$tw" build $flags
		echo "built $(find "$out" -name index.html | wc -l) pages"
		sync
		timed "floor" "$work/floor" .
		sync
		"$work/floor" -site "$out" . | sed -n 's/^floor with the site: /floor + site   /p'
		# shellcheck disable=SC2086
		timed "warm" "$tw" build $flags
		printf '\nAn edited sentence, %s.\n' "$(date +%s%N)" >>"$page"
		# shellcheck disable=SC2086
		timed "edit" "$tw" build $flags
		cp "$work/page.orig" "$page"
		if [ -n "$cache" ]; then
			timed "no-cache" "$tw" build --frozen --no-cache --out "$out"
		fi
		timed "default" "$tw" build --out "$out"
	)
	serveflags=
	if "$tw" serve --help 2>&1 | grep -q -- '-cache'; then
		serveflags="--cache $work/cache$size"
	fi
	"$work/latency" -tracewiki "$tw" -edits "${EDITS:-7}" -args "$serveflags" "$ws" | grep -E 'median|first'
	cp "$work/page.orig" "$page"
done

if [ "${GOBENCH:-true}" != false ]; then
	site=
	[ -d "$work/w11k" ] && site=$work/w11k
	TRACEWIKI_SERVE_SITE="$site" go test -run '^$' -bench . -benchtime "${BENCHTIME:-1s}" ./... | grep -E '^(Benchmark|ok|pkg)'
fi
