import { describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';

describe('signMessage with the shipped lexicons', () => {
  it('reads leetspeak and spaced-out words of an English text as the words they disguise', async () => {
    const signer = await createSigner();
    const original = await signMessage(
      parseMessageObject({
        id: 'sign-leet-original',
        text: 'Save money on your order today and get a free gift',
      }),
      signer,
    );
    const copy = await signMessage(
      parseMessageObject({
        id: 'sign-leet-copy',
        text: '$4ve m0ney on your 0rder t0d4y and get a f r e e gift',
      }),
      signer,
    );
    expect(copy.doc.canonical).toBe(original.doc.canonical);
    expect(copy.signatures.exact).toBe(original.signatures.exact);
  });
  it('keeps tokens the lexicon knows as written', async () => {
    const signer = await createSigner();
    const signed = await signMessage(
      parseMessageObject({
        id: 'sign-leet-news',
        text: 'The H1N1 and COVID-19 cases rose, the G7 said on the 10th at 10am',
      }),
      signer,
    );
    expect(signed.doc.words).toEqual(expect.arrayContaining(['h1n1', 'g7', '10th', '10am']));
  });
});
