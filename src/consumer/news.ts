/** The news-feed consumer: `node dist/consumer/news.js` (or consumers/news.js). */
import './signals.js';
import { main } from './main.js';

main('news');
