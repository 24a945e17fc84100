#!/usr/bin/env bash
# Quality on real text: generates the near-duplicate benchmarks from the evaluation corpus
# (DOPPEL_SHARED_DATA) with fixed seeds and runs doppel eval on each (the profile's combined rule
# and single-method baselines).
# Output: markdown tables (docs/quality.md records a run). Needs a build (npm run build).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DOPPEL_SHARED_DATA:-eval-data}
if [ ! -f "$DATA/README.md" ]; then
  echo "eval:shared needs the evaluation corpus (looked in $DATA); set DOPPEL_SHARED_DATA" >&2
  exit 2
fi
OUT=${EVAL_OUT:-.tmp/eval}
mkdir -p "$OUT"
doppel() { node bin/doppel.js "$@"; }

doppel generate --seed 42 --variants 4 --story-pairs "$DATA/story-pairs.jsonl" "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" > "$OUT/news-ruen-s42.jsonl"
doppel generate --seed 7 --variants 4 --story-pairs "$DATA/story-pairs.jsonl" "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" > "$OUT/news-ruen-s7.jsonl"
doppel generate --seed 7 --variants 4 "$DATA/news-fa.jsonl" > "$OUT/news-fa-s7.jsonl"
doppel generate --seed 7 --variants 4 "$DATA/mail-en.jsonl" > "$OUT/mail-en-s7.jsonl"
doppel generate --seed 7 --variants 4 "$DATA/news-uk.jsonl" > "$OUT/news-uk-s7.jsonl"
# Spam campaigns with hash-busters: the spam mails only, template and hash-buster copies.
node -e 'const fs=require("fs");process.stdout.write(fs.readFileSync(process.argv[1],"utf8").split("\n").filter((l)=>l.trim()!==""&&JSON.parse(l).spam===true).join("\n")+"\n")' "$DATA/mail-en.jsonl" > "$OUT/spam-en.jsonl"
doppel generate --seed 7 --variants 4 --kinds hash-buster,mail-template "$OUT/spam-en.jsonl" > "$OUT/spam-hb-s7.jsonl"
# shellcheck source=scripts/messy-sets.sh
source scripts/messy-sets.sh
messy_sets

echo "### Russian + English news, seed 42 (thresholds were tuned on this set), with story-pair hard negatives"
doppel eval --profile news --input "$OUT/news-ruen-s42.jsonl"
echo
echo "### Russian + English news, seed 7 (held out), with story-pair hard negatives"
doppel eval --profile news --input "$OUT/news-ruen-s7.jsonl"
echo
echo "### Persian news, seed 7"
doppel eval --profile news --input "$OUT/news-fa-s7.jsonl"
echo
echo "### English mail (SpamAssassin), mail profile, seed 7"
doppel eval --profile mail --input "$OUT/mail-en-s7.jsonl"
echo
echo "### Ukrainian news, seed 7"
doppel eval --profile news --input "$OUT/news-uk-s7.jsonl"
echo
echo "### Spam with hash-busters (template and hash-buster copies), mail profile, seed 7"
doppel eval --profile mail --input "$OUT/spam-hb-s7.jsonl"
echo
echo "### The same spam through the news profile (story precision on mail)"
doppel eval --profile news --input "$OUT/spam-hb-s7.jsonl" --variants combined
echo
echo "### Story level: judged same-story pairs (news profile)"
doppel eval --profile news --pairs "$DATA/story-pairs.jsonl"
echo
echo "## Messy input (duplicate P/R per kind: one set per kind; story P/R on the site pages)"
echo
echo "### Invisible characters in ~10% of the words (news ru+en+uk), seed 21"
doppel eval --profile news --input "$OUT/obf-invisible-s21.jsonl" --variants combined
echo
echo "### Look-alike letters (Cyrillic in English words, Latin in Russian and Ukrainian ones), seed 21"
doppel eval --profile news --input "$OUT/obf-lookalike-s21.jsonl" --variants combined
echo
echo "### Persian: tatweel and invisible characters (200 articles), seed 21"
doppel eval --profile news --input "$OUT/obf-fa-s21.jsonl" --variants combined
echo
echo "### Spam with invisible characters and look-alike letters, mail profile, seed 21"
doppel eval --profile mail --input "$OUT/spam-obf-s21.jsonl" --variants combined
echo
echo "### Lead-only copies (the first 2-5 sentences; half of them published before the article), seed 21"
doppel eval --profile news --input "$OUT/lead-s21.jsonl" --variants combined
echo
echo "### Reordered sentences: whole texts and reordered parts (40-70% of the sentences), seed 21"
doppel eval --profile news --input "$OUT/reorder-s21.jsonl" --variants combined
echo
echo "### Site pages: originals as whole pages of their home site, copies on other sites (news ru+en, story labels with the judged story pairs), seed 21"
doppel eval --profile news --input "$OUT/pages-sp-s21.jsonl" --variants combined
