#!/usr/bin/env node
// The news-feed consumer (deployable entry point). The code is TypeScript in src/consumer/,
// compiled by `npm run build` to dist/consumer/; this file only starts it.
import '../dist/consumer/news.js';
