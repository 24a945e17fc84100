"""bench:peers' Python side: MinHash LSH dedup with rensa and datasketch on the same stream.

Streaming query-then-insert, as doppel runs: each message is checked against the index of the
earlier ones and then inserted. Word 3-gram shingles of the lowercased text, 128 permutations,
LSH at threshold 0.5 (rensa: 16 bands of 8 rows); a message is flagged when a candidate's
estimated Jaccard is at least 0.5. Input: JSON Lines {"id", "text"} (text already decoded by
doppel's decoder, so the peers do less work than doppel, which decodes HTML and legacy charsets
itself). Output: one JSON object per tool on stdout.
"""
import json
import re
import sys
import time

WORD = re.compile(r"\w+", re.UNICODE)
THRESHOLD = 0.5
PERMS = 128


def shingles(text):
    words = WORD.findall(text.lower())
    if len(words) < 3:
        return [" ".join(words)] if words else [""]
    return [" ".join(words[i : i + 3]) for i in range(len(words) - 2)]


def run_rensa(messages):
    from rensa import RMinHash, RMinHashLSH

    lsh = RMinHashLSH(threshold=THRESHOLD, num_perm=PERMS, num_bands=16)
    kept = {}
    flagged = []
    started = time.perf_counter()
    for i, (mid, text) in enumerate(messages):
        m = RMinHash(num_perm=PERMS, seed=42)
        m.update(shingles(text))
        if any(m.jaccard(kept[c]) >= THRESHOLD for c in lsh.query(m)):
            flagged.append(mid)
        lsh.insert(i, m)
        kept[i] = m
    return time.perf_counter() - started, flagged


def run_datasketch(messages):
    from datasketch import MinHash, MinHashLSH

    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=PERMS)
    kept = {}
    flagged = []
    started = time.perf_counter()
    for i, (mid, text) in enumerate(messages):
        m = MinHash(num_perm=PERMS, seed=42)
        for s in shingles(text):
            m.update(s.encode("utf8"))
        if any(m.jaccard(kept[c]) >= THRESHOLD for c in lsh.query(m)):
            flagged.append(mid)
        lsh.insert(i, m)
        kept[i] = m
    return time.perf_counter() - started, flagged


def main():
    path, tools = sys.argv[1], sys.argv[2].split(",")
    messages = []
    with open(path, encoding="utf8") as f:
        for line in f:
            if line.strip():
                o = json.loads(line)
                messages.append((o["id"], o.get("text") or ""))
    for tool in tools:
        seconds, flagged = (run_rensa if tool == "rensa" else run_datasketch)(messages)
        print(json.dumps({"tool": tool, "messages": len(messages), "seconds": seconds, "flagged": flagged}))
        sys.stdout.flush()


main()
