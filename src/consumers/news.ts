/** The news-feed consumer: `node dist/consumers/news.js` (or consumers/news.js). */
import '../consumer/signals.js';
import { main } from '../consumer/main.js';

main('news');
