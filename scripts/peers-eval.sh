#!/usr/bin/env bash
# Quality of the peers (datasketch MinHashLSH, rensa RMinHashLSH) on the sets eval:shared
# generates, with the same canonical words doppel signs and the same metrics (scripts/peers-eval.py).
# Needs a build, the evaluation corpus (DOPPEL_SHARED_DATA) and `pip install --user datasketch rensa`. Output: a markdown table
# (docs/quality.md records a run). Speed is bench:peers' job, not this one's.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DOPPEL_SHARED_DATA:-eval-data}
if [ ! -f "$DATA/README.md" ]; then
  echo "eval:peers needs the evaluation corpus (looked in $DATA); set DOPPEL_SHARED_DATA" >&2
  exit 2
fi
if ! python3 -c 'import datasketch, rensa' 2>/dev/null; then
  echo "eval:peers needs datasketch and rensa: pip install --user datasketch rensa" >&2
  exit 2
fi
OUT=${EVAL_OUT:-.tmp/eval}
mkdir -p "$OUT"
doppel() { node bin/doppel.js "$@"; }
gen() { # set, generate arguments...
  local set=$1
  shift
  [ -s "$OUT/$set.jsonl" ] || doppel generate "$@" > "$OUT/$set.jsonl"
}
gen news-ruen-s42 --seed 42 --variants 4 --story-pairs "$DATA/story-pairs.jsonl" "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl"
gen news-ruen-s7 --seed 7 --variants 4 --story-pairs "$DATA/story-pairs.jsonl" "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl"
gen news-uk-s7 --seed 7 --variants 4 "$DATA/news-uk.jsonl"
gen news-fa-s7 --seed 7 --variants 4 "$DATA/news-fa.jsonl"
gen mail-en-s7 --seed 7 --variants 4 "$DATA/mail-en.jsonl"
if [ ! -s "$OUT/spam-hb-s7.jsonl" ]; then
  node -e 'const fs=require("fs");process.stdout.write(fs.readFileSync(process.argv[1],"utf8").split("\n").filter((l)=>l.trim()!==""&&JSON.parse(l).spam===true).join("\n")+"\n")' "$DATA/mail-en.jsonl" > "$OUT/spam-en.jsonl"
  doppel generate --seed 7 --variants 4 --kinds hash-buster,mail-template "$OUT/spam-en.jsonl" > "$OUT/spam-hb-s7.jsonl"
fi
# shellcheck source=scripts/messy-sets.sh
source scripts/messy-sets.sh
messy_sets
echo "| set | method | shingle words | Jaccard threshold | permutations | dup P | dup R | dup F1 | story P | story R | story F1 |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# The shingle sizes of doppel's profiles: news 4-word shingles, mail word sets.
for spec in news-ruen-s42:news:4 news-ruen-s7:news:4 news-uk-s7:news:4 news-fa-s7:news:4 mail-en-s7:mail:1 spam-hb-s7:mail:1 $MESSY_SETS; do
  IFS=: read -r set profile w <<< "$spec"
  node scripts/canonical-words.mjs "$OUT/$set.jsonl" "$profile" > "$OUT/$set.words.jsonl"
  python3 scripts/peers-eval.py "$OUT/$set.words.jsonl" "$w" 0.5 128
done
