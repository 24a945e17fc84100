#!/usr/bin/env node
// The mail consumer (deployable entry point). The code is TypeScript in src/kafka/ (this process:
// src/kafka/entry/mail.ts), compiled by `npm run build` to dist/; this file only starts it.
import '../dist/kafka/entry/mail.js';
