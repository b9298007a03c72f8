/**
 * Reading on every core, through the bundled CLI as a real process: the report is byte-identical
 * whatever the number of reading threads, a reading thread that dies fails closed naming each file
 * it could not read, and a wrong --jobs is a usage error.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs benchmark module, no types
import { generate } from '../../bench/corpus.mjs';
import type { Report } from '../../src/core/report.js';
import { KEYLESS_WEIGHT_BYTES, WORKER_THRESHOLD_BYTES } from '../../src/gate/readers.js';
import { EXPORT_IDENTITY, ISSUER, mockSigstore, OID, RECORDS_V1, REPO, RUN_V1, statementFor } from '../support/sigstore.js';
import { cleanup, DYING_READER, distFile, ROOT, spawnCli, TEST_NOW, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

/** One verification time for every run compared. */
const NOW = TEST_NOW.toISOString();

afterEach(cleanup);

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('--jobs', () => {
  it('the report of a 20 MB corpus is byte-identical with 1, 2, 3 threads and auto', () => {
    const dir = tempDir();
    const c = generate(path.join(dir, 'corpus'), 10_000) as { bytes: number; calls: number };
    // Under the threshold: auto reads on the main thread, 2 and 3 on workers as asked.
    expect(c.bytes).toBeLessThan(WORKER_THRESHOLD_BYTES);
    const digests = new Map<string, string>();
    for (const jobs of ['1', '2', '3', 'auto']) {
      const out = path.join(dir, `report-${jobs}.json`);
      const r = spawnCli(
        ['verify', '-C', path.join(dir, 'corpus'), '--now', NOW, '--runs', 'runs', '--audit', 'audit', '--output', out, '--jobs', jobs],
        dir,
      );
      // The corpus holds mismatched records on purpose: the gate fails, and says so the same way each time.
      expect(r.code, r.stderr).toBe(1);
      digests.set(jobs, sha(out));
    }
    expect(new Set(digests.values()).size).toBe(1);
    const report = JSON.parse(readFileSync(path.join(dir, 'report-2.json'), 'utf8')) as Report;
    expect(report.totals.calls).toBe(c.calls);
    expect(report.findings.filter((f) => f.code === 'invalid_artifact')).toEqual([]);
  });

  it('the evidence cache through reading threads: stored cold, found hot, the same report bytes as no cache on 1 and 2 threads', () => {
    const dir = tempDir();
    const c = generate(path.join(dir, 'corpus'), 2_000, 11, { signed: true }) as { trustedKey: string; files: number };
    const run = (name: string, jobs: string, cache: boolean): { stderr: string; sha: string } => {
      const out = path.join(dir, `${name}.json`);
      const r = spawnCli(
        [
          'verify',
          '-C',
          path.join(dir, 'corpus'),
          '--now',
          NOW,
          '--runs',
          'runs',
          '--audit',
          'audit',
          '--trusted-key',
          c.trustedKey,
          '--output',
          out,
          '--jobs',
          jobs,
          ...(cache ? ['--cache', path.join(dir, 'cache')] : []),
        ],
        dir,
      );
      expect(r.code, r.stderr).toBe(1);
      return { stderr: r.stderr, sha: sha(out) };
    };
    const plain = run('plain', '1', false);
    const cold = run('cold', '2', true);
    expect(cold.stderr).toContain(`0 of ${c.files} file(s) from the cache; ${c.files} read and stored`);
    const hot = run('hot', '2', true);
    expect(hot.stderr).toContain(`${c.files} of ${c.files} file(s) from the cache; 0 read and stored`);
    const main = run('main', '1', true);
    expect(main.stderr).toContain(`${c.files} of ${c.files} file(s) from the cache`);
    expect([cold.sha, hot.sha, main.sha]).toEqual([plain.sha, plain.sha, plain.sha]);
  });

  it("the cache's keys name the build: a gate built from other sources under the same version reads none of another's entries", () => {
    const dir = tempDir();
    const corpus = writeFiles(path.join(dir, 'corpus'), {
      'runs/a.json': readFileSync(path.join(UPSTREAM, 'tool_decisions/github_deploy_key_allow.json'), 'utf8'),
    });
    const other = path.join(dir, 'dist');
    cpSync(path.dirname(distFile('cli.js')), other, { recursive: true });
    writeFileSync(path.join(other, 'build-inputs.sha256'), `sha256:${'0'.repeat(64)}\n`);
    const run = (cli: string) =>
      spawnCli(['verify', '-C', corpus, '--now', NOW, '--runs', 'runs', '--cache', path.join(dir, 'cache')], dir, {}, cli);
    expect(run(distFile('cli.js')).stderr).toContain('0 of 1 file(s) from the cache; 1 read and stored');
    expect(run(distFile('cli.js')).stderr).toContain('1 of 1 file(s) from the cache');
    expect(run(path.join(other, 'cli.js')).stderr).toContain('0 of 1 file(s) from the cache; 1 read and stored');
  });

  it('signed records checked against a trusted key (on the thread pool with one thread, on each thread with one on every core), and the byte limits: the same report on 1 and 2 threads', () => {
    const dir = tempDir();
    const c = generate(path.join(dir, 'corpus'), 2_000, 7, { signed: true }) as { trustedKey: string; files: number };
    // Two records that must fail their check wherever it runs: a signature changed in its first byte, a signature by no trusted key.
    const exports = readdirSync(path.join(dir, 'corpus/audit')).filter((f) => f.endsWith('.json'));
    const [tampered, unknown] = exports.map((f) => path.join(dir, 'corpus/audit', f));
    if (!tampered || !unknown) throw new Error('the corpus has fewer than two JSON exports');
    const edit = (file: string, change: (signature: { signature: string; key_id: string }) => void): void => {
      const records = JSON.parse(readFileSync(file, 'utf8')) as { signature: { signature: string; key_id: string } }[];
      const first = records[0];
      if (!first) throw new Error(`${file} holds no record`);
      change(first.signature);
      writeFileSync(file, JSON.stringify(records, null, 2));
    };
    edit(tampered, (s) => {
      s.signature = `${s.signature.startsWith('A') ? 'B' : 'A'}${s.signature.slice(1)}`;
    });
    edit(unknown, (s) => {
      s.key_id = `sha256:${'0'.repeat(64)}`;
    });
    const run = (jobs: string, extra: readonly string[]): string => {
      const out = path.join(dir, `r-${jobs}-${extra.length}.json`);
      const r = spawnCli(
        [
          'verify',
          '-C',
          path.join(dir, 'corpus'),
          '--now',
          NOW,
          '--runs',
          'runs',
          '--audit',
          'audit',
          '--output',
          out,
          '--jobs',
          jobs,
          ...extra,
        ],
        dir,
      );
      expect(r.code, r.stderr).toBe(1);
      return readFileSync(out, 'utf8');
    };
    const key = ['--trusted-key', c.trustedKey];
    const signed = run('1', key);
    // A reading thread on every core: each checks its own records' signatures (with fewer threads than cores they go to the pool).
    const every = String(Math.max(2, availableParallelism()));
    expect(run(every, key)).toBe(signed);
    expect(run('2', key)).toBe(signed);
    const report = JSON.parse(signed) as Report;
    expect(report.records.length).toBeGreaterThan(1000);
    expect(report.records.every((r) => r.signer !== null)).toBe(true);
    const untrusted = report.records.filter((r) => r.untrusted !== null);
    expect(untrusted.map((r) => [r.file, r.untrusted_code])).toEqual([
      [path.relative(path.join(dir, 'corpus'), tampered), 'signature_invalid'],
      [path.relative(path.join(dir, 'corpus'), unknown), 'unknown_signer'],
    ]);
    // A limit every run file breaks: each is the same located error on a worker as on the main thread.
    const limited = ['--max-file-size', '20KiB'];
    const one = run('1', limited);
    expect(run('2', limited)).toBe(one);
    const tooLarge = (JSON.parse(one) as Report).findings.filter((f) => f.code === 'invalid_artifact' && /max-file-size/.test(f.message));
    expect(tooLarge.length).toBe(c.files);
  });

  it('a reading thread that dies: every file it could not read is an error naming it, never a skipped file', () => {
    const dir = tempDir();
    // A copy of dist/ whose reading thread starts, then dies on its first file.
    cpSync(path.dirname(distFile('read-worker.js')), path.join(dir, 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/read-worker.js'), DYING_READER);
    const cli = path.join(dir, 'dist/cli.js');
    const demo = path.join(ROOT, 'fixtures/demo');
    const run = (jobs: string): { code: number | null; report: Report } => {
      const out = path.join(dir, `r-${jobs}.json`);
      const r = spawnCli(['verify', '-C', demo, '--now', NOW, '--output', out, '--jobs', jobs], dir, {}, cli);
      return { code: r.code, report: JSON.parse(readFileSync(out, 'utf8')) as Report };
    };
    const threads = run('2');
    expect(threads.code).toBe(1);
    expect(threads.report.ok).toBe(false);
    // The worker is given the largest file first and dies on it; the main thread reads files too, so
    // which others fail depends on timing, but every file is either read or an error naming it.
    const failed = threads.report.findings.filter((f) => f.code === 'invalid_artifact');
    expect(failed.map((f) => f.file)).toContain('.assay/runs/2026-11-03-rotate-deploy-keys.json');
    for (const f of failed) expect(f.message).toMatch(/^the thread reading this file stopped \(.*code 9\); it is not verified$/);
    const all = [
      '.assay/audit/github/2026-11.json',
      '.assay/audit/slack/2026-11.ndjson',
      '.assay/runs/2026-11-03-rotate-deploy-keys.json',
      '.assay/runs/2026-11-12-onboarding.ndjson',
      '.assay/runs/2026-11-20-release.tar.gz',
    ];
    const read = new Set([...threads.report.runs.map((r) => r.artifact), ...threads.report.records.map((r) => r.file)]);
    for (const file of all) expect(read.has(file) !== failed.some((f) => f.file === file), file).toBe(true);
    // One thread reads on the main thread: the same copy passes.
    const inline = run('1');
    expect(inline.code).toBe(0);
    expect(inline.report.totals.calls).toBe(9);
  });

  it('bundles checked by identity on every thread: the same report on 1 and 2 threads and auto, every refusal included; auto starts workers from 128 of them', async () => {
    const world = await mockSigstore();
    const log = readFileSync(path.join(UPSTREAM, 'server-logs/02_deploy_key_create_then_get.stderr.log'), 'utf8');
    const records = readFileSync(path.join(UPSTREAM, 'side_effect/audit_record_github_deploy_key.json'), 'utf8');
    const agent = `https://github.com/${REPO}/.github/workflows/agent.yml@refs/heads/main`;
    const files: Record<string, string> = { 'root.json': JSON.stringify(world.trustedRoot), 'audit/a.json': records };
    files['audit/a.json.sigstore.json'] = JSON.stringify(await world.attest(statementFor('a.json', Buffer.from(records), RECORDS_V1, {})));
    for (let i = 0; i < 150; i++) {
      const name = `run-${String(i).padStart(3, '0')}.log`;
      // Distinct bytes per log, so that each bundle binds one file.
      const bytes = log.replace(/"timestamp":"[^"]*"/, `"timestamp":"2026-05-14T10:02:41.${String(i).padStart(6, '0')}Z"`);
      files[`runs/${name}`] = bytes;
      const pr = {
        san: agent,
        extensions: [
          { oid: OID.issuer, value: ISSUER },
          { oid: OID.repo, value: `https://github.com/${REPO}` },
          { oid: OID.ref, value: 'refs/pull/7/merge' },
        ],
      };
      // Most attested by the agent's workflow; some edited after signing, some from a pull request, some never attested.
      if (i % 10 === 3) continue;
      const attested = await world.attest(
        statementFor(name, Buffer.from(i % 10 === 5 ? `${bytes} ` : bytes), RUN_V1, {}),
        i % 10 === 7 ? pr : { san: agent },
      );
      files[`runs/${name}.sigstore.json`] = JSON.stringify(attested);
    }
    const dir = writeFiles(tempDir(), files);
    const base = ['--runs', 'runs', '--audit', 'audit', '--source-repository', REPO, '--trusted-root', 'root.json'];
    const ids = ['--trusted-producer-identity', agent, '--trusted-signer-identity', EXPORT_IDENTITY];
    const run = (jobs: string, cli?: string): { code: number | null; text: string } => {
      const out = path.join(dir, `r-${jobs}.json`);
      const r = spawnCli(['verify', '-C', dir, '--now', NOW, ...base, ...ids, '--output', out, '--jobs', jobs], dir, {}, cli);
      return { code: r.code, text: readFileSync(out, 'utf8') };
    };
    const one = run('1');
    expect(run('2').text).toBe(one.text);
    expect(run('auto').text).toBe(one.text);
    const report = JSON.parse(one.text) as Report;
    expect(report.records.every((r) => r.trusted_by?.identity === EXPORT_IDENTITY)).toBe(true);
    expect(report.runs.filter((r) => r.producer?.identity?.identity === agent).length).toBe(105);
    const reasons = report.findings.filter((f) => f.code === 'run_unattested').map((f) => f.message);
    expect(reasons.length).toBe(45);
    expect(reasons.filter((r) => /no attestation \(no run-\d+\.log\.sigstore\.json beside it\)/.test(r)).length).toBe(15);
    expect(reasons.filter((r) => /digest/.test(r)).length).toBe(15);
    expect(reasons.filter((r) => /refs\/pull\/7\/merge/.test(r)).length).toBe(15);

    // auto: workers from 128 attested files (a reading thread that dies on its first file shows it ran), none for fewer.
    // Here 136 files have a bundle (135 runs and the export), then 91.
    expect(WORKER_THRESHOLD_BYTES / KEYLESS_WEIGHT_BYTES).toBe(128);
    const copy = path.join(dir, 'dying');
    cpSync(path.dirname(distFile('read-worker.js')), copy, { recursive: true });
    writeFileSync(path.join(copy, 'read-worker.js'), DYING_READER);
    const dying = run('auto', path.join(copy, 'cli.js'));
    expect(dying.code).toBe(1);
    expect((JSON.parse(dying.text) as Report).findings.some((f) => /^the thread reading this file stopped/.test(f.message))).toBe(true);
    // A reading thread whose Sigstore code is missing fails every file it was given, each named; nothing is trusted by default.
    const broken = path.join(dir, 'broken');
    cpSync(path.dirname(distFile('read-worker.js')), broken, { recursive: true });
    for (const f of readdirSync(path.join(broken, 'read-worker')))
      if (f !== 'index.js' && f !== 'package.json') rmSync(path.join(broken, 'read-worker', f));
    const chunkless = run('2', path.join(broken, 'cli.js'));
    expect(chunkless.code).toBe(1);
    const stopped = (JSON.parse(chunkless.text) as Report).findings.filter((f) => /^the thread reading this file stopped/.test(f.message));
    expect(stopped.length).toBeGreaterThan(0);
    expect(new Set(stopped.map((f) => f.file)).size).toBe(stopped.length);

    for (let i = 100; i < 150; i++) rmSync(path.join(dir, `runs/run-${i}.log.sigstore.json`), { force: true });
    const fewer = run('auto', path.join(copy, 'cli.js'));
    expect((JSON.parse(fewer.text) as Report).findings.some((f) => /^the thread reading this file stopped/.test(f.message))).toBe(false);
  });

  it.each([['0'], ['-1'], ['two'], ['257'], ['']])('--jobs %j is a usage error', (jobs) => {
    const r = spawnCli(['verify', '-C', path.join(ROOT, 'fixtures/demo'), `--jobs=${jobs}`], ROOT);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      jobs === '' ? '--jobs: an empty value (an unset variable?)' : `--jobs: "${jobs}" is not a number of threads from 1 to 256, or auto`,
    );
  });
});
