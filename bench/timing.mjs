// What the bench scripts share: a Node process timed with what it used, and the median.
import { spawnSync } from 'node:child_process';

/**
 * Preloaded into each timed process: at its main thread's exit, what the whole process used, its
 * worker threads included (getrusage): peak RSS (KiB), user and system CPU time (µs) and minor page
 * faults. CPU time and faults say what work a change saved when wall time on a shared VM is noise,
 * and faults are dear on this project's VM (BENCHMARKS.md, "Issue 44, seventeenth stop: where the page faults go").
 */
const USAGE_HOOK =
  'data:text/javascript,import{isMainThread}from"node:worker_threads";if(isMainThread)process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nRUSAGE="+JSON.stringify([u.maxRSS,u.userCPUTime,u.systemCPUTime,u.minorPageFault])+"\\n")})';
export const MiB = 1024 * 1024;

/**
 * `node ARGS` in `cwd`: wall time (ms), peak RSS (bytes), CPU time of every thread (ms: user + system,
 * and system alone), minor page faults, status and output.
 */
export function timedNode(args, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--import', USAGE_HOOK, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * MiB });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const [rss = 0, user = 0, system = 0, faults = 0] = JSON.parse(/RUSAGE=(\[[^\n]*\])/.exec(r.stderr ?? '')?.[1] ?? '[]');
  return {
    ms,
    rss: rss * 1024,
    cpu: (user + system) / 1000,
    sys: system / 1000,
    faults,
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
