/** GitHub Action entry (bundled as dist/index.js): it only calls action/main.ts `run()`, which holds the logic. */
import { run } from './action/main.js';
import { lazyCore } from './action/toolkit.js';

// The runner protocol without @actions/core's HTTP stack (loaded only when a token is used: github-client.ts).
const core = lazyCore();

try {
  await run(core);
} catch (error) {
  // A bug, never an input problem: fail closed with a plain message; the stack goes to the debug log.
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
  try {
    core.setOutput('result', 'error');
  } catch {
    // The outputs file is what failed (a runner without GITHUB_OUTPUT's file): the failure below still says why.
  }
  core.setFailed(`receipt-gate: internal error: ${error instanceof Error ? error.message : String(error)}`);
}
