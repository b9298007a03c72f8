/** GitHub Action entry (bundled as dist/index.js). All logic is in action-main.ts. */
import { runAction } from './action-main.js';
import { Runner } from './runner.js';

const runner = new Runner();
try {
  await runAction(runner);
} catch (e) {
  // A bug, never an input problem: fail closed with a plain message; the stack goes to the debug log.
  runner.debug((e as Error)?.stack ?? String(e));
  runner.setFailed(`receipt-gate: internal error: ${(e as Error)?.message ?? String(e)}`);
}
