// What the bench scripts share: a Node process timed with its peak RSS, and the median.
import { spawnSync } from 'node:child_process';

const RSS_HOOK = 'data:text/javascript,process.on("exit",()=>process.stderr.write("\\nMAXRSS="+process.resourceUsage().maxRSS+"\\n"))';
export const MiB = 1024 * 1024;

/** `node ARGS` in `cwd`: wall time (ms), peak RSS (bytes), status and output. */
export function timedNode(args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', RSS_HOOK, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * MiB });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const rss = Number(/MAXRSS=(\d+)/.exec(r.stderr)?.[1] ?? 0) * 1024;
  return { ms, rss, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
