/** The reading thread's entry (dist/read-worker.js): files in, compact results out (gate/readers.ts). */
import { serveReads } from './gate/readers.js';

serveReads();
