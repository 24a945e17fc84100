/** The news-feed consumer: `node consumers/news.js` (the published entry) starts this module. */
import '../signals.js';
import { main } from '../main.js';

main('news');
