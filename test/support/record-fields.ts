/** The signature fields of a stored record, which every encoding of it (bytes, packed) must keep. */
export const RECORD_SIGNATURE_FIELDS = [
  'lang',
  'tokens',
  'exact',
  'simhash',
  'minhash',
  'imatch',
  'lexical',
  'longest',
  'heaviest',
  'terms',
] as const;

/** Those and the fields added later: the story facts and the containment count. */
export const RECORD_FIELDS = [...RECORD_SIGNATURE_FIELDS, 'dates', 'shingles'] as const;
