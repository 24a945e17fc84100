/** The mail-stream consumer: `node dist/consumers/mail.js` (or consumers/mail.js). */
import '../consumer/signals.js';
import { main } from '../consumer/main.js';

main('mail');
