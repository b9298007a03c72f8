/** The reading thread's entry (dist/read-worker.js): files in, compact results out (gate/pool.ts). */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { ReadSetup } from './evidence.js';
import { serveReads } from './pool.js';

serveReads(parentPort as MessagePort, workerData as ReadSetup);
