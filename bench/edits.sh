#!/bin/sh
# The cost of one edited page, per kind of edit (issue 28's goal table), on
# the generated workspaces of bench/run.sh: for each kind, RUNS times, the
# page is edited (a new text each time), built with the build cache, and
# restored and built again; the line gives the median CPU seconds
# (user+system) of the edited builds and their share of the median cold
# build's.
#
#   top       a paragraph added at the top of the page (above every claim)
#   claim     the text of the page's first claim changed
#   heading   a heading added between the page's claims
#   end       a sentence appended at the end of the page
#   title     the page's title changed (its front matter): the pages that
#             link to it and the indexes show it too
#   code      a statement added to a function's body in a code file (a
#             test no claim anchors), so the functions below it move down
#             a line: every page that shows their lines changes
#   warm      nothing changed
#
#   bench/edits.sh [2k] [11k]   (default 2k)
#   RUNS=N                      runs per kind (default 5)
#   WORK=DIR                    keep the workspaces in DIR (tmpfs: /dev/shm)
#   TW=BINARY                   the tracewiki to time (default: built here)
set -eu
cd "$(dirname "$0")/.."
if [ -n "${WORK:-}" ]; then
	work=$WORK
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
runs=${RUNS:-5}
tw=${TW:-}
if [ -z "$tw" ]; then
	go build -o "$work/tracewiki" ./cmd/tracewiki
	tw=$work/tracewiki
fi
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tracewiki: $tw"

# cpu CMD...: runs CMD, prints its CPU seconds (user+system).
cpu() {
	/usr/bin/time -o "$work/time" -f '%U %S' "$@" >/dev/null 2>"$work/err" || {
		cat "$work/err" >&2
		exit 1
	}
	awk '{ printf "%.3f\n", $1 + $2 }' "$work/time"
}

# median: the median of the numbers on stdin, one per line.
median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# edit KIND N FILE: edits FILE the KIND way, with a text of its own (N).
edit() {
	case $1 in
	title) awk -v n="$2" '/^title: / && !done { print "title: Page retitled " n; done = 1; next } { print }' "$3" ;;
	code) awk -v n="$2" '{ print } /^func TestF0000_1\(/ && !done { print "\t_ = \"" n "\""; done = 1 }' "$3" ;;
	top) awk -v n="$2" '{ print } /^# / && !done { print ""; print "An added paragraph, " n "."; done = 1 }' "$3" ;;
	claim) awk -v n="$2" '/^Claim 0: / && !done { sub(/^Claim 0: /, "Claim 0: edited " n " "); done = 1 } { print }' "$3" ;;
	heading) awk -v n="$2" '/^Claim 5: / && !done { print "## Added heading " n; print ""; done = 1 } { print }' "$3" ;;
	end) awk -v n="$2" '{ print } END { print ""; print "An appended sentence, " n "." }' "$3" ;;
	esac >"$work/page.new"
	cp "$work/page.new" "$3"
}

for size in ${*:-2k}; do
	ws=$work/w$size
	if [ ! -d "$ws" ]; then
		case $size in
		2k) go run ./bench/gen -out "$ws" -pages 1000 -claims 10 -reqs 400 -decisions 100 -files 140 ;;
		11k) go run ./bench/gen -out "$ws" -pages 5000 -claims 10 ;;
		*)
			echo "edits.sh: unknown size $size (2k or 11k)" >&2
			exit 2
			;;
		esac
		(cd "$ws" && "$tw" capture --by bench >/dev/null)
	fi
	out=$work/edits-out$size
	cache=$work/edits-cache$size
	page=$ws/content/area00/page00000.md
	cp "$page" "$work/page.orig"
	code=$ws/pkg000/f0000_test.go # its TestF0000_1 is anchored by no claim
	cp "$code" "$work/code.orig"
	echo "== $size"
	(
		cd "$ws"
		build() { cpu "$tw" build --frozen --out "$out" --cache "$cache"; }
		for i in $(seq "$runs"); do
			rm -rf "$out" "$cache"
			build
		done | median >"$work/cold"
		cold=$(cat "$work/cold")
		printf '%-8s %7.3f s cpu\n' cold "$cold"
		for kind in warm top claim heading end title code; do
			file=$page orig=$work/page.orig
			[ "$kind" = code ] && file=$code orig=$work/code.orig
			for i in $(seq "$runs"); do
				[ "$kind" = warm ] || edit "$kind" "$i-$(date +%s%N)" "$file"
				build
				cp "$orig" "$file"
				build >/dev/null
			done | median | awk -v k="$kind" -v c="$cold" '{ printf "%-8s %7.3f s cpu %6.2fx cold\n", k, $1, $1 / c }'
		done
	)
	cp "$work/page.orig" "$page"
	cp "$work/code.orig" "$code"
done
