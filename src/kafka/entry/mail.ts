/** The mail-stream consumer: `node consumers/mail.js` (the published entry) starts this module. */
import '../signals.js';
import { main } from '../main.js';

main('mail');
