#!/bin/sh
# changelog-strictdoc.sh: the changelog between two StrictDoc releases'
# own documents (issue 27's "done when"). It builds a git repository in a
# temporary folder with two tagged commits, each holding `tracewiki import
# strictdoc` of one release's docs (read where they are, never copied into
# this repository), and prints the changelog between the tags.
#
#	sh bench/changelog-strictdoc.sh [DATA] [FORMAT]
#
# DATA defaults to ../shared/data (strictdoc-0.24.0/docs, strictdoc-0.26.0/docs).
set -eu
data=${1:-$(cd "$(dirname "$0")/../.." && pwd)/shared/data}
format=${2:-text}
tw=$(mktemp -d)/tracewiki
go build -o "$tw" ./cmd/tracewiki
repo=$(mktemp -d)
cd "$repo"
git init -q
commit() {
	git add -A
	git -c user.email=bench@example.com -c user.name=bench commit -q -m "$1"
	git tag "$1"
}
"$tw" import strictdoc "$data/strictdoc-0.24.0/docs" >/dev/null
commit v0.24.0
"$tw" import strictdoc "$data/strictdoc-0.26.0/docs" >/dev/null
commit v0.26.0
start=$(date +%s.%N)
"$tw" changelog --base v0.24.0 --head v0.26.0 --format "$format"
end=$(date +%s.%N)
echo "changelog took $(echo "$end - $start" | bc) s" >&2
rm -rf "$repo" "$(dirname "$tw")"
