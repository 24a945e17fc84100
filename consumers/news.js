#!/usr/bin/env node
// The news consumer (deployable entry point). The code is TypeScript in src/kafka/ (this process:
// src/kafka/entry/news.ts), compiled by `npm run build` to dist/; this file only starts it.
import '../dist/kafka/entry/news.js';
