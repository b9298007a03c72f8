/** Evidence bundles: the upstream reader corpus, the pinned determinism values, and our writer. */

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/binding.js';
import { readBundle } from '../../src/read/bundle/archive.js';
import { ArchiveTail } from '../../src/read/bundle/source.js';
import { DEFAULT_BUNDLE_LIMITS } from '../../src/read/limits.js';
import { buildBundle, bundleParts, gzip, tar } from '../support/bundle-writer.js';
import { addKey, decision, deployKey, json, record, surface } from '../support/corpus.js';
import { cleanup, gate, tempDir, UPSTREAM, writeFiles } from '../support/workspace.js';

afterEach(cleanup);
const corpus = (name: string) => path.join(UPSTREAM, 'bundles/reader-corpus', name);
const read = (p: string, limits = DEFAULT_BUNDLE_LIMITS) => readBundle({ path: p }, path.basename(p), limits);
async function reject(p: string, limits = DEFAULT_BUNDLE_LIMITS): Promise<string> {
  const r = await read(p, limits);
  expect(r.run).toBeNull();
  expect(r.findings).toHaveLength(1);
  expect(r.findings[0]).toMatchObject({ severity: 'error', code: 'invalid_artifact', line: 1, column: 1 });
  return r.findings[0]!.message;
}

describe('upstream bundles', () => {
  it.each(['test-bundle.tar.gz', 'demo-bundle.tar.gz'])(
    '%s verifies and contributes no calls (with notices: its other events, and no decisions)',
    async (name) => {
      const r = await read(path.join(UPSTREAM, 'bundles', name));
      expect(r.run).toMatchObject({ decisions: [] });
      expect(r.findings.map((f) => f.code)).toEqual(['skipped_object', 'no_decisions']);
      expect(r.findings[0]).toMatchObject({
        member: 'events.ndjson',
        message: expect.stringMatching(/^skipped \d+ object\(s\) of other kinds: /),
      });
    },
  );
  it.each(['valid-single-event.tar.gz', 'valid-three-events.tar.gz'])('%s verifies', async (name) => {
    expect((await read(corpus(name))).run).not.toBeNull();
  });
  it.each([
    ['digest-mutated.tar.gz', /events\.ndjson sha256 does not match the manifest/],
    ['payload-mutated.tar.gz', /events\.ndjson sha256 does not match the manifest/],
    ['run-root-mutated.tar.gz', /run root recomputes to sha256:[0-9a-f]{64} but the manifest run_root says/],
    ['duplicate-member.tar.gz', /duplicate member "events\.ndjson"/],
    ['unexpected-member.tar.gz', /unexpected member "extra\.txt"/],
    ['manifest-only.tar.gz', /missing member events\.ndjson/],
    ['wrong-member-order.tar.gz', /member order: events\.ndjson comes before manifest\.json/],
    ['oversize-line.tar.gz', /line 4 is not strict JSON/],
    ['truncated-gzip-header.tar.gz', /gzip stream is truncated/],
    ['truncated-half.tar.gz', /truncated/],
    ['high-ratio-gzip.tar.gz', /decompression ratio exceeds/],
    ['pax-header-past-decode-ceiling.tar.gz', /PAX header of 5242880 bytes is past the 65536-byte decode ceiling/],
  ])('%s is rejected, naming the rule', async (name, why) => {
    expect(await reject(corpus(name))).toMatch(why);
  });
  it("oversize-line.tar.gz names the line limit when the limit is the fixture generator's (8 KiB)", async () => {
    expect(await reject(corpus('oversize-line.tar.gz'), { ...DEFAULT_BUNDLE_LIMITS, maxLineBytes: 8192 })).toMatch(
      /line 4 is over the 8192-byte line limit/,
    );
  });
});

describe('bundle writer', () => {
  it('reproduces the upstream determinism pins (events bytes, manifest bytes, run root)', () => {
    const parts = bundleParts({
      runId: 'run_golden_test_12345',
      source: 'urn:assay:determinism-test',
      time: '2023-11-14T22:13:20Z',
      producer: { name: 'assay-evidence-test', version: '0.1.0-test', git: 'abc1234' },
      events: [
        {
          type: 'assay.determinism.test',
          data: { seq: 0, message: 'This is a deterministic test event', nested: { z_field: 3, a_field: 1, m_field: 2 } },
        },
      ],
    });
    expect(sha256Hex(parts.events)).toBe('2c338577727ae79d1e4e0c64fb7f924951da3264ac3667caa0476e56c51e5917');
    expect(parts.runRoot).toBe('sha256:736ad83b9382697228ab6d7ef6e2821f96d9a29ff7ac2adeacbec076d10c5535');
    expect(sha256Hex(parts.manifest)).toBe('1412325ee64c94de98d21ed26750d23c26f71c47c4d156d70dfd6110da7541fa');
  });

  const target = deployKey();
  const write = decision({ tool: 'github.add_deploy_key', verb: 'create', resourceType: 'github_deploy_key', target, claim: 'verified' });
  const spec = {
    runId: 'run_x',
    events: [
      { type: 'assay.session.started', data: {} },
      { type: 'assay.tool_decision_surface.v0', data: surface([write]) },
    ],
  };

  it('a bundle with decision events is one run, verified through the gate', async () => {
    const dir = writeFiles(tempDir(), {
      '.assay/runs/b.tar.gz': buildBundle(spec).gz,
      '.assay/audit/a.json': json(record('github', '1', write)),
    });
    const r = await gate(dir);
    expect(r.ok).toBe(true);
    expect(r.calls).toMatchObject([{ artifact: '.assay/runs/b.tar.gz', member: 'events.ndjson', line: 2, level: 'verified' }]);
  });

  it('an audit record or a coverage statement inside a bundle rejects it: no audit input reads a bundle, so it would be judged by no one (a red team)', async () => {
    const recordData = record('github', '1', write);
    for (const [type, data] of [
      ['assay.provider_audit_record.v0', recordData],
      ['receipt-gate.audit_coverage.v1', { schema: 'receipt-gate.audit_coverage.v1' }],
    ] as const) {
      const inside = { ...spec, events: [...spec.events, { type, data }] };
      const r = await gate(writeFiles(tempDir(), { '.assay/runs/b.tar.gz': buildBundle(inside).gz }));
      expect(r.ok).toBe(false);
      expect(r.calls).toEqual([]);
      const errors = r.findings.filter((f) => f.severity === 'error');
      expect(errors.map((f) => f.code)).toContain('invalid_artifact');
      expect(errors.map((f) => f.message).join('\n')).toMatch(
        /events\.ndjson line 3: an? (audit record|coverage statement) .* in a bundle, where no audit input reads it/,
      );
    }
  });

  it('a bundled decision whose subject holds an integer beyond ±(2^53−1) is refused with the bundle, never bound', async () => {
    const issue = decision({
      tool: 'github.create_issue',
      verb: 'create',
      resourceType: 'github_issue',
      target: { owner: 'o', repo: 'r', number: 2 ** 60 },
      claim: 'verified',
      digest: `sha256:${'0'.repeat(64)}`,
    });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/b.tar.gz': buildBundle({ runId: 'run_x', events: [{ type: 'assay.tool_decision_surface.v0', data: surface([issue]) }] })
        .gz,
    });
    const r = await gate(dir);
    expect(r.calls).toEqual([]);
    expect(r.findings.find((f) => f.code === 'invalid_artifact')?.message).toMatch(
      /events\.ndjson line 1: decision 0: action\.target\.number is an integer beyond ±\(2\^53−1\) \(read as 1152921504606847000\)/,
    );
  });

  it('a mismatched record does not verify a bundled call', async () => {
    const other = decision({ tool: 'x', verb: 'create', resourceType: 'github_deploy_key', target: { ...target, repo: 'other' } });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/b.tar.gz': buildBundle(spec).gz,
      '.assay/audit/a.json': json(record('github', '1', other)),
    });
    const r = await gate(dir);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => f.code)).toEqual(['record_unmatched', 'verified_not_reproduced']);
  });

  it('a bundle tampered after hashing is rejected and contributes no calls; other files still verify', async () => {
    const b = buildBundle(spec);
    const tampered = b.events.replace('"prod-repo"', '"prod-rep0"');
    const gz = gzip(
      tar([
        { name: 'manifest.json', data: b.manifest },
        { name: 'events.ndjson', data: tampered },
      ]),
    );
    const dir = writeFiles(tempDir(), {
      '.assay/runs/b.tar.gz': gz,
      '.assay/runs/ok.json': json(surface([write])),
      '.assay/audit/a.json': json(record('github', '1', write)),
    });
    const r = await gate(dir);
    expect(r.findings.filter((f) => f.severity === 'error')).toMatchObject([
      { code: 'invalid_artifact', file: '.assay/runs/b.tar.gz', message: expect.stringMatching(/sha256 does not match the manifest/) },
    ]);
    expect(r.calls).toMatchObject([{ artifact: '.assay/runs/ok.json', level: 'verified' }]);
  });

  it.each([
    ['a link member', [{ name: 'manifest.json', data: '', type: '2', linkname: '/etc/passwd' }], /link member/],
    ['a device member', [{ name: 'manifest.json', data: '', type: '3' }], /device/],
    ['a directory member', [{ name: 'dir/', data: '', type: '5' }], /directory member/],
    ['an absolute path', [{ name: '/manifest.json', data: '{}' }], /absolute/],
    ['a path with ..', [{ name: '../manifest.json', data: '{}' }], /contains "\.\."/],
    ['a global PAX header', [{ name: 'pax', data: '11 path=x\n', type: 'g' }], /global PAX/],
  ])('rejects %s', async (_n, entries, why) => {
    const p = path.join(tempDir(), 'b.tar.gz');
    writeFileSync(p, gzip(tar(entries)));
    expect(await reject(p)).toMatch(why);
  });

  it('rejects a bad gzip trailer, trailing garbage, bad checksums and event-level rule breaks', async () => {
    const dir = tempDir();
    const good = buildBundle(spec).gz;
    const crc = Buffer.from(good);
    crc[crc.length - 6]! ^= 0xff;
    writeFileSync(path.join(dir, 'crc.tar.gz'), crc);
    expect(await reject(path.join(dir, 'crc.tar.gz'))).toMatch(/CRC32|corrupt/);
    const raw = tar([
      { name: 'manifest.json', data: buildBundle(spec).manifest },
      { name: 'events.ndjson', data: buildBundle(spec).events },
    ]);
    raw[148] = 0x39; // break the first header's checksum
    writeFileSync(path.join(dir, 'sum.tar.gz'), gzipSync(raw));
    expect(await reject(path.join(dir, 'sum.tar.gz'))).toMatch(/checksum/);
    const seqBroken = buildBundle(spec);
    const events = seqBroken.events.replace('"assayseq":1', '"assayseq":2');
    const manifest = JSON.parse(seqBroken.manifest);
    manifest.files['events.ndjson'] = { path: 'events.ndjson', bytes: Buffer.byteLength(events), sha256: sha256Hex(events) };
    writeFileSync(
      path.join(dir, 'seq.tar.gz'),
      gzip(
        tar([
          { name: 'manifest.json', data: JSON.stringify(manifest) },
          { name: 'events.ndjson', data: events },
        ]),
      ),
    );
    expect(await reject(path.join(dir, 'seq.tar.gz'))).toMatch(/assayseq must be 1/);
  });

  it('stops a gzip bomb at the decompressed limit', async () => {
    const p = path.join(tempDir(), 'bomb.tar.gz');
    const b = buildBundle(spec);
    const body = tar([
      { name: 'manifest.json', data: b.manifest },
      { name: 'events.ndjson', data: b.events },
    ]);
    writeFileSync(p, gzipSync(Buffer.concat([body, Buffer.alloc(64 * 1024 * 1024)]), { level: 9 }));
    expect(await reject(p, { ...DEFAULT_BUNDLE_LIMITS, maxRatio: 1e9, maxDecompressedBytes: 8 * 1024 * 1024 })).toMatch(
      /decompressed size exceeds/,
    );
    expect(await reject(p)).toMatch(/decompression ratio exceeds/);
  });
});

describe('findings inside bundles', () => {
  it('name the member and line, and ride on the call annotation', async () => {
    const { buildAnnotations } = await import('../../src/report/annotations.js');
    const target = deployKey({ repo: 'r', title: 'k' });
    const w = decision({ tool: 'github.add_deploy_key', verb: 'create', resourceType: 'github_deploy_key', target, claim: 'verified' });
    const dir = writeFiles(tempDir(), {
      '.assay/runs/b.tar.gz': buildBundle({ runId: 'r1', events: [{ type: 'assay.tool_decision_surface.v0', data: surface([w]) }] }).gz,
    });
    const r = await gate(dir);
    const f = r.findings.find((x) => x.code === 'verified_not_reproduced')!;
    expect(f).toMatchObject({ file: '.assay/runs/b.tar.gz', member: 'events.ndjson', line: 1 });
    const anns = buildAnnotations(r, '');
    expect(anns.filter((a) => a.level === 'failure')).toMatchObject([
      {
        path: '.assay/runs/b.tar.gz',
        line: 1,
        message: expect.stringMatching(/^events\.ndjson:1:\d+: Earned level: asserted[\s\S]*verified_not_reproduced/),
      },
    ]);
  });
});

describe('event times go through the one RFC 3339 parser', () => {
  it.each([
    ['2026-02-30T12:00:00Z', /not a calendar date: 2026-02 has no day 30/],
    ['2026-11-01T24:00:00Z', /has hour 24, which does not exist/],
    ['2026-11-01T12:60:00Z', /has minute 60, which does not exist/],
    ['2026-11-01T12:00:00+25:00', /has offset \+25:00, beyond ±23:59/],
  ])('an event at %s is refused, never rolled over into another time window', async (time, why) => {
    const b = buildBundle({ runId: 'run_t', time, events: [{ type: 'assay.tool_decision_surface.v0', data: surface([addKey()]) }] });
    const p = path.join(tempDir(), 't.tar.gz');
    writeFileSync(p, b.gz);
    expect(await reject(p)).toMatch(why);
  });
});

describe('the one-member rule sees the end of the archive however it streams in', () => {
  it('one gzip member with any NUL padding passes, a second member fails, for every split into chunks (property)', () => {
    // The empty member on its own: eight zero bytes of trailer, read as padding or as the trailer.
    const empty = new ArchiveTail();
    empty.push(gzipSync(Buffer.alloc(0)));
    expect(empty.oneMember(0, 0)).toBe(true);
    fc.assert(
      fc.property(
        // A first member with no data is the rule's blind spot: its trailer is eight zeros, and the
        // second member's trailer is then that of all the data (see ArchiveTail in source.ts).
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.array(fc.nat(400), { maxLength: 6 }),
        fc.nat(40),
        fc.boolean(),
        (data, cuts, padding, second) => {
          const body = Buffer.from(data);
          const bytes = Buffer.concat([gzipSync(body), ...(second ? [gzipSync(Buffer.from('x'))] : []), Buffer.alloc(padding)]);
          const tail = new ArchiveTail();
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const end = Math.min(cut, bytes.length);
            if (end > at) tail.push(bytes.subarray(at, end));
            at = Math.max(at, end);
          }
          tail.push(bytes.subarray(at));
          // What gunzip yields: every member's data, one after the other.
          const all = second ? Buffer.concat([body, Buffer.from('x')]) : body;
          expect(tail.oneMember(crc32(all), all.length)).toBe(!second);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('an archive of another kind: every member read, never skipped by its name (docs/evidence-bundle.md)', () => {
  const RUNNER = JSON.stringify({ schema: 'assay.runner.archive_manifest.v0', run_id: 'r', files: {} });
  const failing = addKey({ claim: 'verified', digest: `sha256:${'0'.repeat(64)}` });
  const serverLog = `${JSON.stringify({ timestamp: '2026-11-30T10:00:00Z', level: 'INFO', fields: { event: 'server_start' }, target: 'assay_mcp_server' })}\n`;
  const evidenceBundle = buildBundle({ runId: 'inner', events: [{ type: 'assay.tool_decision_surface.v0', data: surface([failing]) }] }).gz;
  const runner = (members: { name: string; data: Buffer | string }[]) => gzip(tar([{ name: 'manifest.json', data: RUNNER }, ...members]));
  const refusal = async (gz: Buffer): Promise<string> => {
    const r = await readBundle({ bytes: gz }, 'a.tar.gz');
    expect(r.run).toBeNull();
    expect(r.findings).toEqual([
      expect.objectContaining({ code: 'invalid_artifact', severity: 'error', file: 'a.tar.gz', line: 1, column: 1 }),
    ]);
    return r.findings[0]!.message;
  };

  it.each([
    ['a server log', serverLog],
    ['a .log of plain text (a .log is a run, whatever it holds)', 'runner started\nrunner done\n'],
  ])('a .log member (%s) is refused naming the archive and the member', async (_what, data) => {
    const message = await refusal(
      runner([
        { name: 'README.txt', data: 'hello' },
        { name: 'logs/server.log', data },
      ]),
    );
    expect(message).toBe(
      'evidence bundle rejected: an archive of another kind (assay.runner.archive_manifest.v0) whose member "logs/server.log" is a server log (a .log is a run: the stderr of assay-mcp-server, read only as a file of its own): evidence in an archive is read from an evidence bundle only, and never skipped; extract the member and commit it under the runs (a server log as .log, events as .ndjson, a bundle as its own .tar.gz)',
    );
  });

  it.each([
    ['inner.tgz', evidenceBundle, 'inner.tgz!events.ndjson'],
    ['nested/inner.tar.gz', evidenceBundle, 'nested/inner.tar.gz!events.ndjson'],
    // A runner archive inside a runner archive, its server log inside.
    ['more.tar.gz', runner([{ name: 'server.log', data: serverLog }]), 'more.tar.gz!server.log'],
    // Gzip bytes under a name that does not say so are opened all the same.
    ['layer.bin', evidenceBundle, 'layer.bin!events.ndjson'],
  ])('a nested archive %s is opened: the member that holds evidence is named through it', async (name, data, path) => {
    const message = await refusal(runner([{ name, data }]));
    expect(message).toContain(`whose member ${JSON.stringify(path)} `);
  });

  it('a nested archive that cannot be opened, or is nested too deep, is refused by name: its members cannot be checked', async () => {
    expect(await refusal(runner([{ name: 'broken.tgz', data: 'not gzip at all' }]))).toMatch(
      /whose member "broken\.tgz" is an archive this reader cannot open to check its members \(/,
    );
    let deep = runner([{ name: 'README.txt', data: 'nothing here' }]);
    for (let i = 0; i < 4; i++) deep = runner([{ name: `level${i}.tgz`, data: deep }]);
    expect(await refusal(deep)).toMatch(
      /whose member "level3\.tgz!level2\.tgz!level1\.tgz!level0\.tgz" is an archive nested more than 3 deep/,
    );
  });

  it('an archive whose members (nested ones too) hold nothing the gate reads is still skipped with its notice', async () => {
    const inner = gzip(tar([{ name: 'src/main.rs', data: 'fn main() {}\n' }]));
    const r = await readBundle(
      {
        bytes: runner([
          { name: 'README.txt', data: 'tool_decision is explained in the docs' },
          { name: 'cache.tgz', data: inner },
        ]),
      },
      'a.tar.gz',
    );
    expect(r.findings).toEqual([
      expect.objectContaining({
        code: 'skipped_object',
        message: 'skipped an archive of another kind: assay.runner.archive_manifest.v0 (not an evidence bundle; it contributes no calls)',
      }),
    ]);
  });

  it('through the gate: a runner archive with a server log beside a passing run fails the gate (it passed with a notice)', async () => {
    const r = await gate(
      writeFiles(tempDir(), {
        '.assay/runs/ok.json': json(surface([addKey()])),
        '.assay/runs/runner.tar.gz': runner([{ name: 'server.log', data: serverLog }]),
      }),
    );
    expect(r.ok).toBe(false);
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => [f.file, f.code])).toEqual([
      ['.assay/runs/runner.tar.gz', 'invalid_artifact'],
    ]);
  });
});
