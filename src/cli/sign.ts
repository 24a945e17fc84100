import { isDoppelError, toDoppelError } from '../errors.js';
import { parseMessageLine, salvageId } from '../input/message.js';
import { signErrorRecord, signRecord } from '../output/sign-record.js';
import { signMessage } from '../pipeline/sign.js';
import { createSigner } from '../signatures/create.js';
import { IO_OPTIONS, parseCommandArgs, parseLexiconFlags, signatureSection } from './common.js';
import { LineWriter, readLines } from './jsonl.js';

export const SIGN_USAGE = `usage: doppel sign [--input FILE|-] [--output FILE|-] [--config FILE] [--lexicon LANG=FILE ...]

Reads JSON Lines messages {"id", "text"?, "title"?, "html"?, "raw"? (base64), "lang"?} and writes one
line per input line, in order: the signatures, or {"id", "line", "error": {"code", "message"}}.
A bad line never stops the run.

examples:
  doppel sign --input demo/feed.jsonl | head -1
  doppel sign --lexicon ru=ru-lexicon.json --input news-ru.jsonl --output signatures.jsonl`;

export async function signCommand(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, IO_OPTIONS);
  if (values.help) {
    process.stdout.write(`${SIGN_USAGE}\n`);
    return 0;
  }
  const signer = await createSigner({
    signatures: signatureSection(values.config),
    lexicons: parseLexiconFlags(values.lexicon),
  });
  const out = new LineWriter(values.output);
  let lineNo = 0;
  let signed = 0;
  let failed = 0;
  for await (const line of readLines(values.input)) {
    lineNo++;
    if (typeof line !== 'string') {
      await out.write(JSON.stringify(signErrorRecord(salvageId(line.head), lineNo, line.error())));
      failed++;
      continue;
    }
    if (line.trim() === '') continue;
    try {
      const message = parseMessageLine(line);
      try {
        await out.write(JSON.stringify(signRecord(await signMessage(message, signer))));
        signed++;
      } catch (error) {
        if (!isDoppelError(error)) throw error;
        await out.write(JSON.stringify(signErrorRecord(message.id, lineNo, error)));
        failed++;
      }
    } catch (error) {
      const e = toDoppelError(error);
      await out.write(JSON.stringify(signErrorRecord(salvageId(line), lineNo, e)));
      failed++;
    }
  }
  await out.close();
  process.stderr.write(`doppel sign: ${signed} signed, ${failed} invalid\n`);
  return 0;
}
