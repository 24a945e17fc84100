/** The mail-stream consumer: `node dist/consumer/mail.js` (or consumers/mail.js). */
import './signals.js';
import { main } from './main.js';

main('mail');
