import { z } from 'zod';
import { defineMessageSchema } from './message.js';

/** The message format's schema (message.ts), for the API's OpenAPI document and the library's users. */
export const messageSchema = defineMessageSchema(z);
