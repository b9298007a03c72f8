/**
 * Hostile input, as anyone who can open a pull request can write it: every case ends as a located
 * invalid_artifact on the offending file, through the bundled CLI as a real process, in bounded
 * memory, while the valid files beside them still verify.
 */

import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.js';
import { decision, deployKey, json, record, surface } from '../support/corpus.js';
import { cleanup, distFile, tempDir, writeFiles } from '../support/workspace.js';

const target = deployKey({ owner: 'acme', repo: 'api', title: 'k' });
const good = decision({ tool: 'github.add_deploy_key', verb: 'create', resourceType: 'github_deploy_key', target, claim: 'verified' });
const validSurface = json(surface([good]));
const MiB = 1024 * 1024;

function sparse(file: string, bytes: number): void {
  const fd = openSync(file, 'w');
  writeSync(fd, '{"schema":"assay.tool_decision_surface.v0","observed_tool_decisions":[');
  ftruncateSync(fd, bytes);
  closeSync(fd);
}

let ws: string;
let outside: string;
let report: Report;
let maxRssKiB: number;
let stderr: string;
let sameOnOneThread: boolean;

beforeAll(() => {
  const root = tempDir();
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.json'), validSurface);
  const r = (n: string) => `.assay/runs/${n}`;
  const deep = '{"schema":"assay.tool_decision_surface.v0","observed_tool_decisions":[' + '['.repeat(100_000);
  const manyKeys =
    '{"schema":"assay.tool_decision_surface.v0","x":{' +
    Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(',') +
    '},"observed_tool_decisions":[]}';
  const evilTool = decision({ tool: 'x'.repeat(10 * MiB), verb: 'create', resourceType: 'github_deploy_key', target });
  writeFiles(ws, {
    [r('ok.json')]: validSurface,
    [r('bad-utf8.json')]: Buffer.concat([
      Buffer.from('{\n  "schema": "assay.tool_decision_surface.v0",\n  "x": "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('",\n  "observed_tool_decisions": []\n}\n'),
    ]),
    [r('deep.json')]: deep,
    [r('many-keys.json')]: manyKeys,
    [r('huge-number.json')]: '{"schema":"assay.tool_decision_surface.v0","observed_tool_decisions":[],\n "n": 1e400}',
    [r('truncated.json')]: validSurface.slice(0, 200),
    [r('not-object.ndjson')]: `${JSON.stringify(surface([]))}\n[1,2,3]\n`,
    [r('dup.json')]: '{"schema":"assay.tool_decision_surface.v0","observed_tool_decisions":[],"\\u0073chema":"x"}',
    [r('lone.json')]: '{"schema":"assay.tool_decision_surface.v0","observed_tool_decisions":[],"s":"\\udead"}',
    [r('bom.json')]: '\ufeff' + validSurface,
    [r('tool-10mb.json')]: json(surface([evilTool])),
    [r('line-100mb.ndjson')]:
      `${JSON.stringify(surface([]))}\n{"schema":"assay.tool_decision_surface.v0","pad":"${'a'.repeat(100 * MiB)}","observed_tool_decisions":[]}\n`,
    '.assay/audit/a.json': json(record('github', '1', good)),
    // 1.6 million tiny decisions (60 MB, inside every file and line limit): past the per-run limit.
    [r('tiny-decisions.ndjson')]: Array.from({ length: 40 }, () =>
      JSON.stringify(surface(Array.from({ length: 40_000 }, () => ({ response: { side_effect_asserted: true } })))),
    ).join('\n'),
  });
  sparse(path.join(ws, r('huge-1gib.json')), 1024 * MiB);
  symlinkSync(path.join(outside, 'secret.json'), path.join(ws, r('link-out.json')));
  const gate = (jobs: string) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'data:text/javascript,process.on("exit",()=>process.stderr.write("MAXRSS="+process.resourceUsage().maxRSS+"\\n"))',
        distFile('cli.js'),
        'verify',
        '--now',
        '2026-12-01T12:00:00Z',
        '--format',
        'json',
        '--runs',
        '.assay/runs',
        '--runs',
        '../outside/*.json',
        '--runs',
        '/etc/passwd',
        '--max-file-size',
        '128MiB',
        '--jobs',
        jobs,
      ],
      { cwd: ws, encoding: 'utf8', maxBuffer: 512 * MiB, timeout: 120_000 },
    );
  // On worker threads (a reader per core, the main thread one of them) and on the main thread alone.
  const p = gate('3');
  const inline = gate('1');
  stderr = p.stderr;
  maxRssKiB = Number(/MAXRSS=(\d+)/.exec(p.stderr)?.[1]);
  expect(p.status, p.stderr).toBe(1);
  expect(inline.status, inline.stderr).toBe(1);
  report = JSON.parse(p.stdout) as Report;
  sameOnOneThread = inline.stdout === p.stdout;
}, 180_000);
afterAll(cleanup);

const errorFor = (file: string) => report.findings.find((f) => (f.file === file || f.input === `runs: ${file}`) && f.severity === 'error');

describe('hostile input through dist/cli.js', () => {
  it('still verifies the valid file', () => {
    expect(report.calls.filter((c) => c.level === 'verified')).toMatchObject([{ artifact: '.assay/runs/ok.json' }]);
    expect(report.records).toMatchObject([{ outcome: 'bound' }]);
  });

  it.each([
    ['bad-utf8.json', 3, 9, /invalid UTF-8 at byte/],
    ['deep.json', 1, 133, /nesting deeper than 64 levels/],
    ['many-keys.json', 1, expect.any(Number), /object has more than 10000 members/],
    ['huge-number.json', 2, 7, /number 1e400 is out of range/],
    ['truncated.json', expect.any(Number), expect.any(Number), /truncated/],
    ['not-object.ndjson', 2, 1, /expected a JSON object with a "schema" string, found an array/],
    ['dup.json', 1, 73, /duplicate key "schema"/],
    ['lone.json', 1, 78, /lone UTF-16 surrogate/],
    ['bom.json', 1, 1, /byte-order mark/],
    ['tool-10mb.json', 4, 5, /tool\.name must NOT have more than 1024 characters/],
    ['huge-1gib.json', 1, 1, /over the 134217728-byte limit/],
    ['line-100mb.ndjson', 2, 1, /line is over the 8388608-byte limit/],
    ['link-out.json', 1, 1, /symbolic link points outside the workspace; not followed/],
    ['tiny-decisions.ndjson', 3, expect.any(Number), /the run holds more than 100000 decisions \(the limit per run\)/],
  ])('%s → invalid_artifact at %s:%s', (name, line, column, why) => {
    const f = errorFor(`.assay/runs/${name}`);
    expect(f, name).toMatchObject({ code: 'invalid_artifact', line, column });
    expect(f!.message).toMatch(why);
    expect(f!.message.length).toBeLessThan(2000);
  });

  it('refuses inputs that escape the workspace', () => {
    expect(errorFor('../outside/*.json')!.message).toMatch(/outside the workspace/);
    expect(errorFor('/etc/passwd')!.message).toMatch(/outside the workspace/);
    expect(report.calls.some((c) => c.artifact.includes('outside'))).toBe(false);
  });

  it('reads to the same report on reading threads as on the main thread alone', () => {
    expect(sameOnOneThread).toBe(true);
  });

  it('never promotes, never crashes, stays in bounded memory', () => {
    expect(report.totals.verified).toBe(1);
    expect(stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(maxRssKiB).toBeGreaterThan(0);
    expect(maxRssKiB * 1024).toBeLessThan(1.5 * 1024 * MiB);
  });
});

describe('symbolic links above the inputs', () => {
  it('a working directory or input reached through a link that leaves the workspace is refused', async () => {
    const { gate } = await import('../support/workspace.js');
    const root = tempDir();
    const ws = path.join(root, 'ws');
    mkdirSync(path.join(root, 'elsewhere/.assay/runs'), { recursive: true });
    writeFileSync(path.join(root, 'elsewhere/.assay/runs/a.json'), validSurface);
    mkdirSync(ws);
    symlinkSync(path.join(root, 'elsewhere'), path.join(ws, 'link'));
    const r = await gate(path.join(ws, 'link'), { workspace: ws });
    expect(r.calls).toEqual([]);
    expect(r.findings.find((f) => f.severity === 'error' && f.code === 'invalid_artifact')!.message).toMatch(
      /resolves \(through a symbolic link\) to outside the workspace/,
    );
    expect(r.ok).toBe(false);
  });
});
