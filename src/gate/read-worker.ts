/** The reading thread's entry (dist/read-worker.js): files in, compact results out (gate/readers.ts). */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { ReadSetup } from './evidence.js';
import { serveReads } from './readers.js';

serveReads(parentPort as MessagePort, workerData as ReadSetup);
