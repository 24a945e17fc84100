#!/usr/bin/env bash
# Rebuilds the shipped default lexicons data/lexicons/{ru,uk,en,fa}.json from wordfreq's
# frequency lists through the doppel CLI (provenance, license and model: data/lexicons/README.md).
#
#   pip install wordfreq==3.1.1 && npm run build && scripts/lexicons/build-defaults.sh [LANG...]
#
# Environment: PYTHON (default python3), DOPPEL (the CLI, default "node bin/doppel.js"),
# TOP (words exported per language, default 60000), MAX_WORDS (words kept, default 40000).
# The same wordfreq version gives byte-identical files: no dates or paths go into them.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

WORDFREQ_VERSION=3.1.1
PYTHON="${PYTHON:-python3}"
DOPPEL="${DOPPEL:-node bin/doppel.js}"
TOP="${TOP:-60000}"
MAX_WORDS="${MAX_WORDS:-40000}"
if [ "$#" -gt 0 ]; then langs=("$@"); else langs=(ru uk en fa); fi

installed="$("$PYTHON" -c 'from importlib.metadata import version; print(version("wordfreq"))' 2>/dev/null || true)"
if [ -z "$installed" ]; then
  echo "build-defaults: wordfreq is not installed: pip install wordfreq==$WORDFREQ_VERSION" >&2
  exit 1
fi
if [ "$installed" != "$WORDFREQ_VERSION" ]; then
  # Another version has other numbers; the README and the version names would then be wrong.
  echo "build-defaults: wordfreq $installed installed, expected $WORDFREQ_VERSION (pip install wordfreq==$WORDFREQ_VERSION)" >&2
  exit 1
fi
if [ "$DOPPEL" = "node bin/doppel.js" ] && [ ! -f dist/cli/main.js ]; then
  echo "build-defaults: dist/ is missing: run npm run build first" >&2
  exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p data/lexicons

for lang in "${langs[@]}"; do
  "$PYTHON" scripts/lexicons/export-wordfreq.py "$lang" --top "$TOP" --out "$tmp/$lang.tsv"
  $DOPPEL lexicon import-frequencies --input "$tmp/$lang.tsv" --lang "$lang" --name "wordfreq.$WORDFREQ_VERSION" \
    --max-words "$MAX_WORDS" --output "data/lexicons/$lang.json"
done

for lang in "${langs[@]}"; do
  echo "== data/lexicons/$lang.json ($(wc -c <"data/lexicons/$lang.json") bytes)"
  $DOPPEL lexicon info "data/lexicons/$lang.json"
done
