// Writes each message of a labelled eval set as the content words doppel signs (decoded,
// canonical, stop words out), with its gold cluster and story labels, one JSON line each: the
// input of scripts/peers-eval.py, so that datasketch and rensa see exactly the text doppel sees
// and the comparison is of the algorithms, not of decoding. Needs a build (dist/).
// usage: node scripts/canonical-words.mjs SET.jsonl PROFILE > SET.words.jsonl

import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { resolveDedupConfig } from '../dist/config/profiles.js';
import { initHashing } from '../dist/hash/xxhash.js';
import { decodeMessage } from '../dist/input/decode-message.js';
import { parseMessageLine } from '../dist/input/message.js';
import { canonicalize, stopMask } from '../dist/text/canonical.js';

const [file, profile = 'news'] = process.argv.slice(2);
await initHashing();
const config = resolveDedupConfig(profile);
const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const message = parseMessageLine(line);
  let words = [];
  try {
    const doc = canonicalize(await decodeMessage(message), config.signatures.canonical, message.lang);
    const mask = stopMask(doc);
    words = doc.words.filter((_, i) => mask[i] === 0);
    if (words.length === 0) words = doc.words;
  } catch {
    // An invalid message (doppel: an `invalid` verdict) has no words; peers skip it too.
  }
  const { cluster, story } = message.fields;
  process.stdout.write(`${JSON.stringify({ id: message.id, cluster, story: story ?? cluster, words })}\n`);
}
