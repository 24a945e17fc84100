# Messy-input sets (sourced by eval-shared.sh and peers-eval.sh): obfuscated copies (invisible
# characters, look-alike letters, tatweel), partial copies (lead-only teasers, reordered
# sentences, reordered parts) and whole site pages, each from real articles and mails with its
# own seed. Needs DATA, OUT and a doppel function; writes $OUT/<set>.jsonl once.
# MESSY_SETS lists set:profile:shingle-words for the peers.
MESSY_SETS="obf-invisible-s21:news:4 obf-lookalike-s21:news:4 obf-fa-s21:news:4 spam-obf-s21:mail:1 lead-s21:news:4 reorder-s21:news:4 pages-sp-s21:news:4"
messy_gen() { # set, generate arguments...
  local set=$1
  shift
  [ -s "$OUT/$set.jsonl" ] || doppel generate "$@" > "$OUT/$set.jsonl"
}
messy_sets() {
  if [ ! -s "$OUT/spam-en.jsonl" ]; then
    node -e 'const fs=require("fs");process.stdout.write(fs.readFileSync(process.argv[1],"utf8").split("\n").filter((l)=>l.trim()!==""&&JSON.parse(l).spam===true).join("\n")+"\n")' "$DATA/mail-en.jsonl" > "$OUT/spam-en.jsonl"
  fi
  messy_gen obf-invisible-s21 --seed 21 --variants 2 --kinds invisible "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" "$DATA/news-uk.jsonl"
  messy_gen obf-lookalike-s21 --seed 21 --variants 2 --kinds lookalike "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" "$DATA/news-uk.jsonl"
  messy_gen obf-fa-s21 --seed 21 --variants 2 --sample 200 --kinds tatweel,invisible "$DATA/news-fa.jsonl"
  messy_gen spam-obf-s21 --seed 21 --variants 2 --kinds invisible,lookalike "$OUT/spam-en.jsonl"
  messy_gen lead-s21 --seed 21 --variants 1 --kinds lead-only "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" "$DATA/news-uk.jsonl"
  messy_gen reorder-s21 --seed 21 --variants 2 --kinds reordered,reordered-part "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl" "$DATA/news-uk.jsonl"
  # The story label joins the articles people judged to report one story (story-pairs.jsonl), as the
  # news sets do: without it, 21 of the 28 story joins on these pages counted as false were pairs
  # judged "same story".
  messy_gen pages-sp-s21 --seed 21 --variants 3 --site-pages --kinds site-page --story-pairs "$DATA/story-pairs.jsonl" "$DATA/news-ru.jsonl" "$DATA/news-en.jsonl"
}
