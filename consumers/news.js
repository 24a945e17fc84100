#!/usr/bin/env node
// The news-feed consumer (deployable entry point). The code is TypeScript in src/consumer/ and
// src/consumers/, compiled by `npm run build` to dist/; this file only starts it.
import '../dist/consumers/news.js';
