/**
 * The evidence cache (issue 44 item 5; src/gate/cache.ts): a file's evidence is stored under the
 * sha256 of its bytes, the bytes beside it, its path, the read set-up and the version. A hit gives
 * the same report bytes as reading every file; any changed byte, trust setting or version misses; an
 * entry that fails its checks is ignored and the file read; a verdict never reads an entry.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildOf, type CacheTally } from '../../src/gate/cache.js';
import { runGate } from '../../src/gate/gate.js';
import { defaultSettings } from '../../src/gate/settings/parsers.js';
import type { Settings } from '../../src/gate/settings/types.js';
import { addKey, demoCorpus, event, getKey, json, ndjson, surface, testSigner } from '../support/corpus.js';
import { cleanup, cli, TEST_NOW, tempDir, writeFiles } from '../support/workspace.js';

afterEach(cleanup);

/** The demo (a surface, an event log, an evidence bundle, two exports) in a fresh repository, with a cache folder outside it (as $RUNNER_TEMP is). */
function repo(): { dir: string; cache: string } {
  const dir = writeFiles(tempDir(), demoCorpus());
  return { dir, cache: path.join(tempDir(), 'cache') };
}

async function gated(dir: string, cache: string | null, over: Partial<Settings> = {}, version = '1.0.0', read = true) {
  const r = await runGate({
    ...defaultSettings(dir, TEST_NOW),
    cache: cache === null ? null : { dir: cache, read, build: buildOf(version).key },
    ...over,
  });
  if (!r.ok) throw new Error(r.reason.message);
  return { json: JSON.stringify(r.value.report), cache: r.value.cache as CacheTally };
}

const entries = (cache: string): string[] => readdirSync(cache).filter((f) => f.endsWith('.json'));

/** The entry stored for a file: the one whose body names one of its records or its run. */
function entryHolding(cache: string, text: string): string {
  const found = entries(cache).filter((f) => readFileSync(path.join(cache, f), 'utf8').includes(text));
  expect(found).toHaveLength(1);
  return path.join(cache, found[0] as string);
}

/** Rewrite an entry's body and give it a header that matches it (what someone who can write the cache can do). */
function rewriteBody(entry: string, edit: (body: string) => string): void {
  const text = readFileSync(entry, 'utf8');
  const newline = text.indexOf('\n');
  const header = JSON.parse(text.slice(0, newline)) as { schema: string; key: string; sha256: string };
  const body = edit(text.slice(newline + 1));
  const sha256 = createHash('sha256').update(body).digest('hex');
  writeFileSync(entry, `${JSON.stringify({ ...header, sha256 })}\n${body}`);
}

describe('the evidence cache', () => {
  it('a second run reads no file and gives the same report bytes as a run without the cache', async () => {
    const { dir, cache } = repo();
    const none = await gated(dir, null);
    const cold = await gated(dir, cache);
    expect(cold.cache).toMatchObject({ files: 5, hits: 0, stored: 5, ignored: 0, unstored: 0 });
    expect(entries(cache)).toHaveLength(5);
    const hot = await gated(dir, cache);
    expect(hot.cache).toMatchObject({ files: 5, hits: 5, stored: 0, ignored: 0 });
    expect(cold.json).toBe(none.json);
    expect(hot.json).toBe(none.json);
  });

  it('a changed byte misses (that file only); another path is another key', async () => {
    const { dir, cache } = repo();
    await gated(dir, cache);
    appendFileSync(path.join(dir, '.assay/audit/slack/2026-11.ndjson'), '\n');
    const changed = await gated(dir, cache);
    expect(changed.cache).toMatchObject({ hits: 4, stored: 1 });
    expect(changed.json).toBe((await gated(dir, null)).json);
    // The bundle is streamed and hashed before it is read: its bytes are its key too.
    const bundle = path.join(dir, '.assay/runs/2026-11-20-release.tar.gz');
    const bytes = readFileSync(bundle);
    writeFileSync(bundle, Buffer.concat([bytes, Buffer.from([0])]));
    expect((await gated(dir, cache)).cache).toMatchObject({ hits: 4, stored: 1 });
  });

  it('a changed trust setting, another version and another limit each miss every file', async () => {
    const { dir, cache } = repo();
    await gated(dir, cache);
    const signer = testSigner();
    const keys = new Map([['test-key', signer.publicKey]]);
    expect((await gated(dir, cache, { trustedKeys: keys })).cache).toMatchObject({ hits: 0, stored: 5 });
    expect((await gated(dir, cache, {}, '1.0.1')).cache).toMatchObject({ hits: 0, stored: 5 });
    const limits = { ...defaultSettings(dir, TEST_NOW).limits, maxLineBytes: 1024 * 1024 };
    expect((await gated(dir, cache, { limits })).cache).toMatchObject({ hits: 0, stored: 5 });
    // Each set-up has its own entries: going back to the first finds them all.
    expect((await gated(dir, cache)).cache).toMatchObject({ hits: 5 });
    // What judges, not what is read, may change freely: the policy is not in the key.
    expect((await gated(dir, cache, { strictObserved: true })).cache).toMatchObject({ hits: 5 });
  });

  it('a file beside an input (a Sigstore bundle) is part of its key', async () => {
    const { dir, cache } = repo();
    await gated(dir, cache);
    writeFileSync(path.join(dir, '.assay/runs/2026-11-03-rotate-deploy-keys.json.sigstore.json'), '{"not":"a bundle"}\n');
    const withSidecar = await gated(dir, cache);
    expect(withSidecar.cache).toMatchObject({ hits: 4, stored: 1 });
    expect(withSidecar.json).toBe((await gated(dir, null)).json);
    expect(withSidecar.json).toMatch(/sigstore\.json/);
  });

  it('a truncated, altered, misshapen or misnamed entry, or a link, is ignored and said; the file is read and its entry written again', async () => {
    const { dir, cache } = repo();
    const none = await gated(dir, null);
    await gated(dir, cache);
    const audit = entryHolding(cache, 'github-audit-8842211');
    const truncated = readFileSync(audit);
    writeFileSync(audit, truncated.subarray(0, truncated.length >> 1));
    let r = await gated(dir, cache);
    expect(r.cache).toMatchObject({ hits: 4, stored: 1, ignored: 1 });
    expect(r.cache.firstIgnored).toMatch(/^\.assay\/audit\/github\/2026-11\.json: its body's sha256 is not the one its header names/);
    expect(r.json).toBe(none.json);
    expect((await gated(dir, cache)).cache).toMatchObject({ hits: 5, ignored: 0 });

    // A body with a header that matches it, but not the shape of evidence.
    rewriteBody(audit, () => '{"run":null,"records":"all verified"}');
    r = await gated(dir, cache);
    expect(r.cache).toMatchObject({ hits: 4, ignored: 1 });
    expect(r.cache.firstIgnored).toMatch(/its body fails its check: its shape/);
    expect(r.json).toBe(none.json);

    // A finding code no table names.
    rewriteBody(entryHolding(cache, 'github-audit-8842211'), (body) =>
      body.replace(
        /"findings":\[(\]?)/,
        (_, end: string) =>
          `"findings":[{"severity":"notice","code":"all_good","file":"x","line":1,"column":1,"message":"m"}${end === ']' ? ']' : ','}`,
      ),
    );
    r = await gated(dir, cache);
    expect(r.cache.firstIgnored).toMatch(/a finding's code or severity \(all_good/);
    expect(r.json).toBe(none.json);

    // An entry copied under another key's name.
    const [a, b] = entries(cache).map((f) => path.join(cache, f));
    writeFileSync(b as string, readFileSync(a as string));
    r = await gated(dir, cache);
    expect(r.cache).toMatchObject({ hits: 4, ignored: 1 });
    expect(r.cache.firstIgnored).toMatch(/its header names another key/);
    expect(r.json).toBe(none.json);

    if (process.platform !== 'win32') {
      const [first] = entries(cache).map((f) => path.join(cache, f));
      const elsewhere = path.join(tempDir(), 'entry.json');
      writeFileSync(elsewhere, readFileSync(first as string));
      unlinkSync(first as string);
      symlinkSync(elsewhere, first as string);
      r = await gated(dir, cache);
      expect(r.cache.firstIgnored).toMatch(/it is a symbolic link/);
      expect(r.json).toBe(none.json);
    }
  });

  it('an entry that is well formed but says something else is believed by a pull request run: that is why a verdict never reads one', async () => {
    const { dir, cache } = repo();
    const none = await cli(['verify', '--format', 'json'], dir);
    expect((await cli(['verify', '--format', 'json', '--cache', cache], dir)).stderr).toMatch(
      /0 of 5 file\(s\) from the cache; 5 read and stored/,
    );
    rewriteBody(entryHolding(cache, 'github-audit-8842211'), (body) => body.replace('github-audit-8842211', 'forged-8842211'));
    const believed = await cli(['verify', '--format', 'json', '--cache', cache], dir);
    expect(believed.stderr).toMatch(/5 of 5 file\(s\) from the cache/);
    expect(believed.stdout).toMatch(/forged-8842211/);
    // The verdict reads every byte: no forged record, the report of a run without the cache, and every entry written again.
    const verdict = await cli(
      [
        'verify',
        '--format',
        'json',
        '--cache',
        cache,
        '--output',
        'report.json',
        '--vsa-predicate',
        'vsa.json',
        '--resource-uri',
        'git+https://example.test/r@abc',
      ],
      dir,
    );
    expect(verdict.stderr).toMatch(/0 of 5 file\(s\) from the cache; 5 read and stored/);
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe(none.stdout);
    expect(readFileSync(path.join(dir, 'vsa.json'), 'utf8')).not.toMatch(/forged/);
    // A verdict hashes every input (its set-up is another key): a second one reads every byte again.
    const again = await cli(
      [
        'verify',
        '--format',
        'json',
        '--cache',
        cache,
        '--output',
        'report.json',
        '--vsa-predicate',
        'vsa.json',
        '--resource-uri',
        'git+https://example.test/r@abc',
      ],
      dir,
    );
    expect(again.stderr).toMatch(/0 of 5 file\(s\) from the cache; 5 read and stored/);
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe(none.stdout);
  });

  it('a cache folder among the inputs is a usage error: an input there would be hidden (a red team, this stop: a failing run named among the entries passed), or an entry read as evidence', async () => {
    const { dir, cache } = repo();
    const plain = await cli(['verify', '--format', 'json'], dir);
    // Outside the checkout, it is a cache.
    expect((await cli(['verify', '--format', 'json', '--cache', cache], dir)).stdout).toBe(plain.stdout);
    const inside = await cli(['verify', '--format', 'json', '--cache', '.assay/audit/.cache'], dir);
    expect(inside.code).toBe(2);
    // The demo holds files under .assay/runs: a cache folder there holds an input, named.
    const holding = await cli(['verify', '--format', 'json', '--cache', '.assay/runs'], dir);
    expect(holding.code).toBe(2);
    expect(holding.stderr).toMatch(
      /--cache: the cache's folder holds an input \(\.assay\/runs\/[^)]+\): give the cache a folder of its own/,
    );
    // Entries written there by an earlier gate are inputs of this one: still refused, never skipped.
    writeFiles(dir, { '.assay/audit/.cache/0000000000000000000000000000000000000000000000000000000000000000.json': '{}\n' });
    expect((await cli(['verify', '--format', 'json', '--cache', '.assay/audit/.cache'], dir)).code).toBe(2);
    // Reached through a link, the runs folder is still the runs folder (a red team: clink → .assay/runs took entries among the runs).
    symlinkSync(path.join(dir, '.assay/runs'), path.join(dir, 'clink'));
    const linked = await cli(['verify', '--format', 'json', '--cache', 'clink'], dir);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/--cache: the cache's folder holds an input \(\.assay\/runs\//);
  });

  it('a cache folder inside the checkout is a usage error: a pull request can commit entries there, and an entry is believed (a red team: forged entries passed a failing run)', async () => {
    const failing = writeFiles(tempDir(), { '.assay/runs/r.json': json(surface([addKey({ claim: 'verified' })])) });
    const plain = await cli(['verify', '--format', 'json'], failing);
    expect(plain.code).toBe(1);
    // A name that only begins with two dots is in the checkout too (a red team: `--cache ..cache` took a pull request's forged entries).
    for (const at of ['.receipt-gate-cache', 'sub/cache', path.join(failing, 'x'), '..cache', path.join(failing, '..x')]) {
      const r = await cli(['verify', '--format', 'json', '--cache', at], failing);
      expect(r.code, at).toBe(2);
      expect(r.stderr).toMatch(/--cache: the cache's folder lies inside the checkout \(.+\): a pull request can commit entries there/);
      expect(existsSync(path.join(failing, '.receipt-gate-cache'))).toBe(false);
      expect(existsSync(path.join(failing, '..cache'))).toBe(false);
    }
    // A checkout is the folder holding .git above the workspace too: a sibling of -C inside the repository is inside it.
    const root = writeFiles(tempDir(), { '.git/HEAD': 'ref: refs/heads/main\n', 'agents/.assay/runs/r.json': json(surface([addKey()])) });
    const sibling = await cli(['verify', '-C', path.join(root, 'agents'), '--format', 'json', '--cache', path.join(root, 'cache')], root);
    expect(sibling.code).toBe(2);
    expect(sibling.stderr).toMatch(/lies inside the checkout/);
  });

  it('an entry whose times no RFC 3339 text can hold is ignored, never a crash', async () => {
    const { dir, cache } = repo();
    const none = await gated(dir, null);
    await gated(dir, cache);
    rewriteBody(entryHolding(cache, 'slack.add_member'), (body) => body.replace(/\[(\d{10}),"(\d*)"\]/g, '[1e20,"$2"]'));
    const r = await gated(dir, cache);
    expect(r.cache.firstIgnored).toMatch(/its body fails its check: its shape/);
    expect(r.json).toBe(none.json);
  });

  it('times in a leap second and with more than nine fraction digits are kept by an entry: a hit, the same report bytes (the order of a read and a write around 23:59:60 too)', async () => {
    const { dir, cache } = repo();
    const at = (d: ReturnType<typeof addKey>, seq: number, time: string) => ({
      ...event('assay.tool_decision_surface.v0', surface([d]), seq, 'run_leap'),
      time,
    });
    writeFiles(dir, {
      // The read is later in the file and earlier in time: it confirms nothing.
      '.assay/runs/leap-a.ndjson': ndjson([
        at(addKey({ claim: 'observed_confirmed' }), 0, '2016-12-31T23:59:60Z'),
        at(getKey(), 1, '2016-12-31T23:59:59.9999999992Z'),
      ]),
      '.assay/runs/leap-b.ndjson': ndjson([
        at(addKey({ claim: 'observed_confirmed' }), 0, '2016-12-31T23:59:60.25Z'),
        at(getKey(), 1, '2016-12-31T23:59:60.5Z'),
      ]),
    });
    const none = await gated(dir, null);
    const levels = (JSON.parse(none.json) as { calls: { artifact: string; level: string | null }[] }).calls
      .filter((c) => c.artifact.includes('leap-'))
      .map((c) => c.level);
    expect(levels).toEqual(['asserted', null, 'observed_confirmed', null]);
    await gated(dir, cache);
    const hot = await gated(dir, cache);
    expect(hot.cache).toMatchObject({ files: 7, hits: 7, ignored: 0 });
    expect(hot.json).toBe(none.json);
  });

  it("a server log's sessions are kept by an entry: a hit, the same report bytes (a read of one server process confirms no write of another)", async () => {
    const { dir, cache } = repo();
    const line = (timestamp: string, fields: Record<string, unknown>) =>
      JSON.stringify({ timestamp, level: 'INFO', fields, target: 'assay_mcp_server::server' });
    const process = (day: string, d: ReturnType<typeof addKey>) => [
      line(`2026-11-${day}T10:00:00Z`, { event: 'server_start', policy_root: '"policies"' }),
      line(`2026-11-${day}T10:00:01Z`, { event: 'tool_call_start', rid: 'r-000004', rpc_id: 'Some(Number(2))' }),
      line(`2026-11-${day}T10:00:02Z`, { event: 'tool_decision', rid: 'r-000004', rpc_id: 'Some(Number(2))', decision: JSON.stringify(d) }),
    ];
    writeFiles(dir, {
      '.assay/runs/appended.log': `${[...process('02', addKey({ claim: 'observed_confirmed' })), ...process('04', getKey())].join('\n')}\n`,
    });
    const none = await gated(dir, null);
    const calls = (JSON.parse(none.json) as { calls: { artifact: string; level: string | null }[] }).calls;
    expect(calls.filter((c) => c.artifact.endsWith('appended.log')).map((c) => c.level)).toEqual(['asserted', null]);
    await gated(dir, cache);
    const hot = await gated(dir, cache);
    expect(hot.cache).toMatchObject({ files: 6, hits: 6, ignored: 0 });
    expect(hot.json).toBe(none.json);
  });

  it.skipIf(process.platform === 'win32')(
    'an entry that is a FIFO is ignored (never waited on); a bundle over the size limit is refused before it is hashed',
    async () => {
      const { dir, cache } = repo();
      const none = await gated(dir, null);
      await gated(dir, cache);
      const entry = entryHolding(cache, 'github-audit-8842211');
      unlinkSync(entry);
      execFileSync('mkfifo', [entry]);
      const r = await gated(dir, cache);
      expect(r.cache.firstIgnored).toMatch(/it is not a regular file/);
      expect(r.json).toBe(none.json);
      // 8 GiB of holes: hashing it first would take this machine half a minute.
      const huge = path.join(dir, '.assay/runs/huge.tar.gz');
      writeFileSync(huge, '');
      truncateSync(huge, 8 * 1024 ** 3);
      const started = Date.now();
      const big = await gated(dir, cache);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(big.cache.firstUnstored).toMatch(/^\.assay\/runs\/huge\.tar\.gz: a bundle its reader refused is read again each run/);
      expect(big.json).toMatch(/huge\.tar\.gz/);
    },
  );

  it('a file refused for its size is said as such, not stored, and tried again', async () => {
    const { dir, cache } = repo();
    await gated(dir, cache, { limits: { ...defaultSettings(dir, TEST_NOW).limits, maxFileBytes: 1000 } });
    const r = await gated(dir, cache, { limits: { ...defaultSettings(dir, TEST_NOW).limits, maxFileBytes: 1000 } });
    expect(r.cache.firstUnstored).toMatch(/a file that cannot be read is tried again each run/);
  });

  it('--no-cache reads every file and keeps nothing; without --cache nothing is said', async () => {
    const { dir, cache } = repo();
    const off = await cli(['verify', '--format', 'json', '--cache', cache, '--no-cache'], dir);
    expect(existsSync(cache)).toBe(false);
    expect(off.stderr).toBe('');
    const plain = await cli(['verify', '--format', 'json'], dir);
    expect(plain.stderr).toBe('');
    expect(off.stdout).toBe(plain.stdout);
  });
});
