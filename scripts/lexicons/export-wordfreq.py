#!/usr/bin/env python3
"""Export a wordfreq frequency list as TSV (word<TAB>frequency) for `doppel lexicon import-frequencies`.

The shipped default lexicons (data/lexicons/*.json) are built from these exports; see
data/lexicons/README.md for provenance and the CC BY-SA 4.0 notice that comes with wordfreq's data.

Usage: export-wordfreq.py LANG [--top N] [--out FILE]

Rows are ordered by frequency descending, then by word (code point order), so the export is
byte-identical for the same wordfreq version. Frequencies are wordfreq's own: the share of a
language's tokens that are this word, quantized by wordfreq to centibels.
"""

import argparse
import sys

import wordfreq

# The exact version is part of the lexicon's provenance: another version can give other numbers.
EXPECTED_VERSION = "3.1.1"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", help="wordfreq language code, e.g. ru, uk, en, fa")
    parser.add_argument("--top", type=int, default=60000, help="most frequent words to export (default 60000)")
    parser.add_argument("--out", default="-", help="output file, - for stdout (default)")
    parser.add_argument("--wordlist", default="best", help="wordfreq wordlist: best, large or small (default best)")
    args = parser.parse_args()

    version = getattr(wordfreq, "__version__", None)
    if version is None:
        from importlib.metadata import version as dist_version

        version = dist_version("wordfreq")
    if version != EXPECTED_VERSION:
        print(f"warning: wordfreq {version} installed, the shipped lexicons were built with {EXPECTED_VERSION}", file=sys.stderr)

    freqs = wordfreq.get_frequency_dict(args.lang, wordlist=args.wordlist)
    rows = sorted(freqs.items(), key=lambda item: (-item[1], item[0]))[: args.top]

    written = 0
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8", newline="\n")
    try:
        for word, freq in rows:
            # A tab or line break inside a word would break the TSV; wordfreq tokens never hold one.
            if "\t" in word or "\n" in word or word.strip() == "":
                continue
            out.write(f"{word}\t{freq:.6e}\n")
            written += 1
    finally:
        if out is not sys.stdout:
            out.close()
    print(
        f"{args.lang}: exported {written} of {len(freqs)} words (wordfreq {version}, wordlist {args.wordlist})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
