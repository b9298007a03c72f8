/**
 * The text a reading thread sends (read/wire.ts) rebuilds exactly what the reader prepared: on every
 * committed fixture, in both roles (so rejected files and their findings too), and on random byte
 * mutations of the demo corpus.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RecordInput, RunInput } from '../../src/core/model.js';
import { type ReadSetup, readEvidence } from '../../src/gate/evidence.js';
import type { FileEvidence } from '../../src/read/file-read.js';
import { readArtifact } from '../../src/read/files.js';
import { DEFAULT_LIMITS } from '../../src/read/limits.js';
import { decodeRead, encodeRead } from '../../src/read/wire.js';
import { artifactFiles } from '../support/artifact-files.js';
import { addKey, demoCorpus, getKey } from '../support/corpus.js';
import { uncheckedRecords, uncheckedStatements } from '../support/evidence.js';
import { arbByteOps, mutateBytes } from '../support/fuzz.js';
import { ROOT } from '../support/workspace.js';

const FIXTURES = artifactFiles(path.join(ROOT, 'fixtures'));
const SETUP: ReadSetup = {
  limits: DEFAULT_LIMITS,
  digest: true,
  workspace: ROOT,
  trust: { recordKeys: null, producerKeys: null, identities: null },
  cache: null,
  signatures: 'pool',
};
const evidenceOf = async (p: string, rel: string, role: 'runs' | 'audit', setup = SETUP): Promise<FileEvidence> => {
  const { value } = await readEvidence({ file: { path: p, rel }, role }, setup);
  if (value === null) throw new Error(`${rel} came back kept, and no task kept it`);
  return value;
};
/** What a reading thread of no trust makes of an artifact's bytes. */
const asEvidence = (r: Awaited<ReturnType<typeof readArtifact>>): FileEvidence => ({
  run: r.run,
  records: uncheckedRecords(r.entries),
  statements: uncheckedStatements(r.entries),
  findings: r.findings,
  digests: [],
});

describe('the wire between a reading thread and the gate', () => {
  it('covers the fixtures', () => {
    expect(FIXTURES.length).toBeGreaterThan(50);
  });

  it('decode(encode(evidence)) equals the evidence, for every fixture in both roles, with its digests', async () => {
    let calls = 0;
    let records = 0;
    for (const p of FIXTURES) {
      const rel = path.relative(ROOT, p).split(path.sep).join('/');
      for (const role of ['runs', 'audit'] as const) {
        const r = await evidenceOf(p, rel, role);
        expect(decodeRead(encodeRead(r, rel), rel), `${rel} as ${role}`).toEqual(r);
        calls += r.run?.decisions.length ?? 0;
        records += r.records.length;
      }
    }
    // The fixtures exercise both halves of the wire.
    expect(calls).toBeGreaterThan(40);
    expect(records).toBeGreaterThan(10);
  });

  it("keeps each decision's server session (a log of two server processes: a read of one confirms no write of the other)", async () => {
    const line = (timestamp: string, fields: Record<string, unknown>) =>
      JSON.stringify({ timestamp, level: 'INFO', fields, target: 'assay_mcp_server::server' });
    const process = (day: string, d: unknown) => [
      line(`2026-11-${day}T10:00:00Z`, { event: 'server_start', policy_root: '"policies"' }),
      line(`2026-11-${day}T10:00:02Z`, { event: 'tool_decision', rid: 'r-000004', decision: JSON.stringify(d) }),
    ];
    const rel = 'runs/appended.log';
    const text = `${[...process('02', addKey()), ...process('04', getKey()), ...process('05', getKey({ verb: 'list' }))].join('\n')}\n`;
    const r = asEvidence(await readArtifact(rel, 'runs', Buffer.from(text), DEFAULT_LIMITS));
    expect(r.run?.decisions.map((d) => d.session)).toEqual([1, 2, 3]);
    const back = decodeRead(encodeRead(r, rel), rel);
    expect(back).toEqual(r);
    expect(back.run?.decisions.map((d) => d.session)).toEqual([1, 2, 3]);
  });

  it('keeps a location inside a bundle (its member) and a location in another file', async () => {
    const bundle = path.join(ROOT, 'fixtures/demo/.assay/runs/2026-11-20-release.tar.gz');
    const rel = '.assay/runs/2026-11-20-release.tar.gz';
    const r = await evidenceOf(bundle, rel, 'runs');
    const back = decodeRead(encodeRead(r, rel), rel);
    expect(back.run?.decisions[0]?.loc.member).toBe('events.ndjson');
    expect(back).toEqual(r);
    // A location whose file is not the file read survives as written.
    const moved = { ...r, findings: [{ ...r.findings[0], file: 'elsewhere.json', line: 3, column: 4 }] };
    if (r.findings.length > 0)
      expect(decodeRead(encodeRead(moved as never, rel), rel).findings[0]).toMatchObject({ file: 'elsewhere.json' });
  });

  it('carries trust as the thread that checked it decided: a key, an identity, a refusal with its code, an attestation', async () => {
    const p = path.join(ROOT, 'fixtures/demo/.assay/audit/github/2026-11.json');
    const rel = '.assay/audit/github/2026-11.json';
    const r = await evidenceOf(p, rel, 'audit');
    const signer = {
      identity: 'https://github.com/acme/agents/.github/workflows/export.yml@refs/heads/main',
      sourceRepository: 'acme/agents',
      sourceRef: 'refs/heads/main',
      issuer: 'https://token.actions.githubusercontent.com',
      signedAt: '2026-12-01T12:00:00Z',
    };
    const trusts: RecordInput['trust'][] = [
      { kind: 'trusted', by: { kind: 'identity', signer } },
      { kind: 'trusted', by: { kind: 'key', keyId: `sha256:${'a'.repeat(64)}` } },
      { kind: 'untrusted', code: 'source_untrusted', reason: 'source ref "refs/pull/7/merge" is not allowed' },
    ];
    expect(r.records.length).toBeGreaterThan(0);
    for (const trust of trusts) {
      const decided = { ...r, records: r.records.map((x) => ({ ...x, trust })) };
      expect(decodeRead(encodeRead(decided, rel), rel)).toEqual(decided);
    }
    const run = await evidenceOf(
      path.join(ROOT, 'fixtures/demo/.assay/runs/2026-11-20-release.tar.gz'),
      '.assay/runs/2026-11-20-release.tar.gz',
      'runs',
    );
    const attestations: NonNullable<RunInput['attestation']>[] = [
      { kind: 'attested', by: { kind: 'identity', signer }, name: 'assay', version: '1' },
      { kind: 'unattested', code: 'no_attestation', reason: 'no attestation' },
      { kind: 'unchecked', keyId: 'sha256:x', name: null, version: null },
    ];
    for (const attestation of attestations) {
      const decided = { ...run, run: run.run ? { ...run.run, attestation } : null };
      expect(decodeRead(encodeRead(decided, rel), rel)).toEqual(decided);
    }
  });

  it('round-trips whatever a mutated artifact reads as (property)', async () => {
    const corpus = [...demoCorpus().entries()].map(([k, v]) => [k, Buffer.from(v)] as const);
    await fc.assert(
      fc.asyncProperty(fc.nat(), arbByteOps, async (i, ops) => {
        const [rel, bytes] = corpus[i % corpus.length] as (typeof corpus)[number];
        const role = rel.includes('/audit/') ? 'audit' : 'runs';
        const r = asEvidence(await readArtifact(rel, role, mutateBytes(bytes, ops), DEFAULT_LIMITS));
        expect(decodeRead(encodeRead(r, rel), rel)).toEqual(r);
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });
});
