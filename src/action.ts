/** GitHub Action entry (bundled as dist/index.js). All logic is in action-main.ts. */
import * as core from '@actions/core';
import { runAction } from './action/run.js';

try {
  await runAction(core);
} catch (e) {
  // A bug, never an input problem: fail closed with a plain message; the stack goes to the debug log.
  core.debug((e as Error)?.stack ?? String(e));
  try {
    core.setOutput('result', 'error');
  } catch {
    // The outputs file is what failed (a runner without GITHUB_OUTPUT's file): the failure below still says why.
  }
  core.setFailed(`receipt-gate: internal error: ${(e as Error)?.message ?? String(e)}`);
}
