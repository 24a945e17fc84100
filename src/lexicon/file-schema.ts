import { z } from 'zod';
import { defineLexiconFileSchema } from './lexicon.js';

/** The lexicon file's schema (lexicon.ts), for the lexicon builder and the library's users. */
export const lexiconFileSchema = defineLexiconFileSchema(z);
