/** receipt-gate CLI entry (bundled as dist/cli.js): a few lines around cli/run.ts `main`, which holds the logic. */
import { EXIT } from './cli/command.js';
import { main } from './cli/run.js';
import { inert } from './report/text.js';

async function run(): Promise<void> {
  try {
    const r = await main(process.argv.slice(2), process.env, Boolean(process.stdout.isTTY), process.cwd());
    // The table carries evidence text: made inert as stderr is (the JSON report escapes `##[` itself).
    for (const piece of typeof r.stdout === 'string' ? [inert(r.stdout)] : r.stdout) if (piece) process.stdout.write(piece);
    // Names from the evidence never start a line the runner reads as a workflow command.
    if (r.stderr) process.stderr.write(inert(r.stderr));
    process.exitCode = r.code;
  } catch (error) {
    // A bug, never an input problem: say so plainly and fail closed.
    process.stderr.write(`receipt-gate: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT.internal;
  }
}

// A reader that stops early (`| head`) is not an error of the gate: stop writing, keep the exit status.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
await run();
