#!/usr/bin/env python3
"""Quality of the peers (datasketch MinHashLSH, rensa RMinHashLSH) on doppel's eval sets.

Reads SET.words.jsonl (scripts/canonical-words.mjs: the content words doppel signs, with gold
cluster and story labels) and runs each peer as a streaming deduplicator, in file order: a
message queries the LSH index for earlier messages, links to the earliest candidate whose
estimated Jaccard of word shingles is >= THRESHOLD (its duplicateOf), then is inserted. Clusters
are the connected components of the links. Scores are computed as src/eval/metrics.ts does:
dup P/R/F1 over the duplicateOf links (a link inside the gold cluster is a true positive; a
message with an earlier member of its gold cluster and no true link is a false negative), and
story P/R/F1 pairwise over the final clusters against the gold story labels.

usage: peers-eval.py SET.words.jsonl SHINGLE_SIZE [THRESHOLD] [NUM_PERM]
"""
import json
import sys
from collections import Counter, defaultdict

from datasketch import MinHash, MinHashLSH
from rensa import RMinHash, RMinHashLSH


def shingles(words, w):
    w = max(1, min(w, len(words)))
    return sorted({" ".join(words[i : i + w]) for i in range(len(words) - w + 1)})


def run(items, make, w):
    index, sigs, links = make["index"](), {}, {}
    for n, it in enumerate(items):
        sh = shingles(it["words"], w)
        if not sh:
            continue
        m = make["sig"](sh)
        best = None
        for key in index_query(make, index, m):
            j = make["jaccard"](m, sigs[key])
            if j >= make["threshold"] and (best is None or key < best):
                best = key
        if best is not None:
            links[n] = best
        make["insert"](index, n, m)
        sigs[n] = m
    return links


def index_query(make, index, m):
    return make["query"](index, m)


def scores(tp, fp, fn):
    p = 1.0 if tp + fp == 0 else tp / (tp + fp)
    r = 1.0 if tp + fn == 0 else tp / (tp + fn)
    f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return p, r, f


def dup_scores(items, links):
    seen, tp, fp, fn = set(), 0, 0, 0
    for n, it in enumerate(items):
        g = it["cluster"]
        if n in links:
            if items[links[n]]["cluster"] == g:
                tp += 1
            else:
                fp += 1
        elif g in seen:
            fn += 1
        seen.add(g)
    return scores(tp, fp, fn)


def story_scores(items, links):
    parent = list(range(len(items)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links.items():
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    pairs = lambda c: c * (c - 1) // 2  # noqa: E731
    cells = Counter((it["story"], find(n)) for n, it in enumerate(items))
    gold = Counter(it["story"] for it in items)
    pred = Counter(find(n) for n in range(len(items)))
    together = sum(pairs(c) for c in cells.values())
    return scores(together, sum(pairs(c) for c in pred.values()) - together, sum(pairs(c) for c in gold.values()) - together)


def main():
    path, w = sys.argv[1], int(sys.argv[2])
    threshold = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    perm = int(sys.argv[4]) if len(sys.argv) > 4 else 128
    items = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    for it in items:
        it["cluster"], it["story"] = str(it["cluster"]), str(it["story"])

    def ds_sig(sh):
        m = MinHash(num_perm=perm, seed=1)
        m.update_batch([s.encode("utf-8") for s in sh])
        return m

    def rs_sig(sh):
        m = RMinHash(num_perm=perm, seed=1)
        m.update(sh)
        return m

    peers = {
        "datasketch MinHashLSH": {
            "index": lambda: MinHashLSH(threshold=threshold, num_perm=perm),
            "sig": ds_sig,
            "jaccard": lambda a, b: a.jaccard(b),
            "query": lambda idx, m: idx.query(m),
            "insert": lambda idx, n, m: idx.insert(n, m),
            "threshold": threshold,
        },
        "rensa RMinHashLSH": {
            # 32 bands of 4 rows (S-curve midpoint (1/32)^(1/4) ~ 0.42); every candidate is verified.
            "index": lambda: RMinHashLSH(threshold=threshold, num_perm=perm, num_bands=32),
            "sig": rs_sig,
            "jaccard": lambda a, b: a.jaccard(b),
            "query": lambda idx, m: idx.query(m),
            "insert": lambda idx, n, m: idx.insert(n, m),
            "threshold": threshold,
        },
    }
    for name, make in peers.items():
        links = run(items, make, w)
        dp, dr, df = dup_scores(items, links)
        sp, sr, sf = story_scores(items, links)
        print(f"| {path.split('/')[-1].replace('.words.jsonl', '')} | {name} | {w} | {threshold} | {perm} | "
              f"{dp:.3f} | {dr:.3f} | {df:.3f} | {sp:.3f} | {sr:.3f} | {sf:.3f} |")


if __name__ == "__main__":
    main()
