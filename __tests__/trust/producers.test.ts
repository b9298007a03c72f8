/**
 * Producer attestations(docs/attestations.md §1, semantics §10): the shared vector
 * attested by the test key, attest-bundle reproducing it byte for byte, and every check in
 * upstream's order refusing with its own reason.
 */

import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliJson, ROOT, tempDir } from '../support/workspace.js';

afterAll(cleanup);

const ATT = path.join(ROOT, 'fixtures/upstream/attestations');
const KEY = path.join(ROOT, 'fixtures/signed/test-signer.key.pem');
const PUB = path.join(ROOT, 'fixtures/signed/test-signer.pub.pem');
const RECORD = path.join(ROOT, 'fixtures/upstream/side_effect/audit_record_github_deploy_key.json');
const KEY_ID = 'sha256:646d6be49d9f0048f94f67749eca35156eed4f7a7be18e4fc4a94bfd44e300b0';
const vector = readFileSync(path.join(ATT, 'attested-run.tar.gz.intoto.jsonl'), 'utf8');
const statement = JSON.parse(Buffer.from(JSON.parse(vector).payload, 'base64').toString('utf8'));

const pae = (type: string, body: Buffer) => Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body]);
function envelope(
  s: unknown,
  {
    type = 'application/vnd.in-toto+json',
    key = readFileSync(KEY, 'utf8'),
    keyid = KEY_ID,
    text,
  }: { type?: string; key?: string; keyid?: string; text?: string } = {},
) {
  const body = Buffer.from(text ?? (canonicalize(s) as string), 'utf8');
  const sig = sign(null, pae(type, body), createPrivateKey(key)).toString('base64');
  return JSON.stringify({ payload: body.toString('base64'), payloadType: type, signatures: [{ keyid, sig }] });
}

/** A workspace with the bundle, its sidecar (as given) and the upstream record; the gate run on it. */
async function gate(sidecar: string | null, trusted = true, archive?: Buffer) {
  const dir = tempDir();
  const bundle = path.join(dir, 'run.tar.gz');
  if (archive) writeFileSync(bundle, archive);
  else copyFileSync(path.join(ATT, 'attested-run.tar.gz'), bundle);
  if (sidecar !== null) writeFileSync(`${bundle}.intoto.jsonl`, sidecar);
  copyFileSync(RECORD, path.join(dir, 'record.json'));
  copyFileSync(PUB, path.join(dir, 'producer.pub.pem'));
  return await cliJson(
    ['--runs', 'run.tar.gz', '--audit', 'record.json', ...(trusted ? ['--trusted-producer', 'producer.pub.pem'] : [])],
    dir,
  );
}
/** A private key no trusted producer holds. */
const OTHER_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const unattested = (r: Awaited<ReturnType<typeof gate>>) => r.report.findings.find((f) => f.code === 'run_unattested')?.message ?? '';
const edit = (f: (s: typeof statement) => void) => {
  const s = JSON.parse(JSON.stringify(statement));
  f(s);
  return s;
};

describe('the shared vector', () => {
  it('with the test key as trusted producer: attested, and the call verified by the upstream record', async () => {
    const r = await gate(vector);
    expect(r.code).toBe(0);
    expect(r.report.runs[0]!.producer).toEqual({ key_id: KEY_ID, name: 'assay-cli', version: '3.36.0', checked: true });
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified']);
  });

  it('without trusted producers: passes, the sidecar reported with its signer, not checked', async () => {
    const r = await gate(vector, false);
    expect(r.code).toBe(0);
    expect(r.report.runs[0]!.producer).toEqual({ key_id: KEY_ID, name: 'assay-cli', version: '3.36.0', checked: false });
  });

  it('attest-bundle reproduces the sidecar byte for byte (Ed25519 is deterministic)', async () => {
    const dir = tempDir();
    copyFileSync(path.join(ATT, 'attested-run.tar.gz'), path.join(dir, 'b.tar.gz'));
    const r = await cli(['attest-bundle', '--key', KEY, 'b.tar.gz'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'b.tar.gz.intoto.jsonl'), 'utf8')).toBe(vector);
    // Run again: the same attestation is already there and kept; another one is never written over it (exit 2).
    expect(await cli(['attest-bundle', '--key', KEY, 'b.tar.gz'], dir)).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('already holds this attestation: kept'),
    });
    writeFileSync(path.join(dir, 'b.tar.gz.intoto.jsonl'), '{}\n');
    expect((await cli(['attest-bundle', '--key', KEY, 'b.tar.gz'], dir)).code).toBe(2);
    expect(readFileSync(path.join(dir, 'b.tar.gz.intoto.jsonl'), 'utf8')).toBe('{}\n');
  });
});

describe('every check, in upstream order, with its reason (run_unattested)', () => {
  const other = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const cases: [string, string | null, RegExp][] = [
    ['no sidecar', null, /no attestation/],
    [
      'another payload type',
      envelope(statement, { type: 'application/json' }),
      /payload type is "application\/json", not application\/vnd\.in-toto\+json/,
    ],
    ['an unknown producer key', envelope(statement, { key: other, keyid: 'sha256:' + '0'.repeat(64) }), /unknown producer sha256:0{64}/],
    ['a signature by another key under the trusted keyid', envelope(statement, { key: other }), /signature does not verify/],
    [
      'a non-strict payload',
      envelope(null, { text: canonicalize(statement)!.replace('{"_type":', '{"_type":"x","_type":') }),
      /payload is not strict JSON: duplicate key "_type"/,
    ],
    [
      'another Statement type',
      envelope(edit((s) => (s._type = 'https://in-toto.io/Statement/v0.1'))),
      /_type is not https:\/\/in-toto\.io\/Statement\/v1/,
    ],
    [
      'the old v0 predicate',
      envelope(edit((s) => (s.predicateType = 'https://assay.dev/attestation/evidence-bundle/v0'))),
      /must be reissued/,
    ],
    ['two subjects', envelope(edit((s) => s.subject.push(s.subject[0]))), /exactly one subject/],
    ['a second digest entry', envelope(edit((s) => (s.subject[0].digest.sha512 = 'aa'))), /exactly one digest, sha256/],
    ['schema_version 2', envelope(edit((s) => (s.predicate.schema_version = 2))), /schema_version is not 1/],
    [
      'another archive digest',
      envelope(edit((s) => (s.subject[0].digest.sha256 = '0'.repeat(64)))),
      /subject digest differs from the archive/,
    ],
    [
      'another subject name',
      envelope(edit((s) => (s.subject[0].name = `sha256:${'1'.repeat(64)}`))),
      /subject name differs from the manifest's bundle_id/,
    ],
    [
      'another event count',
      envelope(edit((s) => (s.predicate.run.event_count = 3))),
      /predicate field run\.event_count disagrees with the bundle/,
    ],
    [
      'another run root',
      envelope(edit((s) => (s.predicate.semantic_equivalence.value = `sha256:${'2'.repeat(64)}`))),
      /predicate field semantic_equivalence\.value disagrees/,
    ],
    [
      'another producer version',
      envelope(edit((s) => (s.predicate.run.producer.version = '9.9.9'))),
      /predicate field run\.producer\.version disagrees/,
    ],
    [
      'a time window written another way',
      envelope(edit((s) => (s.predicate.run.time_window.end = '2026-11-20T09:00:00.12Z'))),
      /predicate field run\.time_window\.end disagrees/,
    ],
    ['a malformed sidecar', '{"payload": 1}\n', /the attestation sidecar is malformed/],
    [
      // Compared as the nested structure upstream writes, never through flattened names: this member shadowed run.run_id.
      'a predicate member literally named "run.run_id"',
      envelope(edit((s) => (s.predicate['run.run_id'] = s.predicate.run.run_id))),
      /predicate field "run\.run_id" is not one upstream writes/,
    ],
    ['an empty sidecar (no envelope at all)', '\n\n', /no attestation: the sidecar holds no envelope/],
  ];
  for (const [name, sidecar, why] of cases) {
    it(name, async () => {
      const r = await gate(sidecar);
      expect(r.code).toBe(1);
      expect(unattested(r)).toMatch(why);
      expect(r.report.runs[0]!.producer).toBeNull();
    });
  }

  it('a tampered archive: the bundle does not verify (invalid_artifact), so no run and no attestation', async () => {
    const bytes = readFileSync(path.join(ATT, 'attested-run.tar.gz'));
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0xff;
    const r = await gate(vector, true, bytes);
    expect(r.code).toBe(1);
    expect(r.report.findings.map((f) => f.code)).toContain('invalid_artifact');
    expect(r.report.runs).toEqual([]);
  });

  it('a sidecar with two envelopes: trusted when one of them passes every check', async () => {
    const bad = envelope(edit((s) => (s.predicate.run.event_count = 3)));
    expect((await gate(`${bad}\n${vector}`)).code).toBe(0);
    expect(unattested(await gate(`${bad}\n${bad}\n`))).toMatch(/none of 2 passes/);
  });

  it('a JSON surface or a server log with trusted producers configured: run_unattested, its calls still judged', async () => {
    const dir = tempDir();
    copyFileSync(path.join(ROOT, 'fixtures/upstream/side_effect/verified.json'), path.join(dir, 'run.json'));
    copyFileSync(RECORD, path.join(dir, 'record.json'));
    copyFileSync(PUB, path.join(dir, 'p.pem'));
    const r = await cliJson(['--runs', 'run.json', '--audit', 'record.json', '--trusted-producer', 'p.pem'], dir);
    expect(r.code).toBe(1);
    expect(unattested(r)).toMatch(/not an evidence bundle: JSON surfaces and server logs cannot be attested/);
    expect(r.report.calls.map((c) => c.level)).toEqual(['verified']);
  });

  it('an empty sidecar without trusted producers is a notice, never invalid_artifact', async () => {
    const r = await gate('', false);
    expect(r.code).toBe(0);
    expect(r.report.findings).toContainEqual(
      expect.objectContaining({
        code: 'skipped_object',
        severity: 'notice',
        file: 'run.tar.gz.intoto.jsonl',
        message: expect.stringMatching(/holds no envelope/),
      }),
    );
  });

  it('an envelope with more than 16 signatures is refused; a 5 000-character keyid is quoted short', async () => {
    const one = JSON.parse(vector);
    const many = JSON.stringify({ ...one, signatures: Array.from({ length: 17 }, () => one.signatures[0]) });
    const r = await gate(many);
    expect(r.report.findings).toContainEqual(
      expect.objectContaining({ code: 'invalid_artifact', message: expect.stringMatching(/too many signatures \(17; at most 16\)/) }),
    );
    expect(unattested(r)).toMatch(/malformed/);
    const long = await gate(envelope(statement, { keyid: `sha256:${'e'.repeat(5000)}`, key: OTHER_KEY }));
    expect(unattested(long)).toMatch(/unknown producer sha256:e{100,}…;/);
    expect(unattested(long).length).toBeLessThan(400);
  });

  it('a sidecar that is a symbolic link inside the workspace is followed; one that leaves it is refused', async () => {
    const dir = tempDir();
    copyFileSync(path.join(ATT, 'attested-run.tar.gz'), path.join(dir, 'run.tar.gz'));
    mkdirSync(path.join(dir, 'sidecars'));
    writeFileSync(path.join(dir, 'sidecars/run.intoto.jsonl'), vector);
    symlinkSync('sidecars/run.intoto.jsonl', path.join(dir, 'run.tar.gz.intoto.jsonl'));
    copyFileSync(RECORD, path.join(dir, 'record.json'));
    copyFileSync(PUB, path.join(dir, 'producer.pub.pem'));
    const args = ['--runs', 'run.tar.gz', '--audit', 'record.json', '--trusted-producer', 'producer.pub.pem'];
    const inside = await cliJson(args, dir);
    expect(inside.code, JSON.stringify(inside.report.findings)).toBe(0);
    expect(inside.report.runs[0]!.producer).toMatchObject({ key_id: KEY_ID, checked: true });
    const outside = tempDir();
    writeFileSync(path.join(outside, 'run.intoto.jsonl'), vector);
    rmSync(path.join(dir, 'run.tar.gz.intoto.jsonl'));
    symlinkSync(path.join(outside, 'run.intoto.jsonl'), path.join(dir, 'run.tar.gz.intoto.jsonl'));
    const out = await cliJson(args, dir);
    expect(out.code).toBe(1);
    expect(out.report.findings).toContainEqual(
      expect.objectContaining({ code: 'invalid_artifact', message: expect.stringMatching(/points outside the workspace/) }),
    );
  });

  it('an attestation with no artifact of its base name beside it is orphan_attestation (a warning)', async () => {
    const dir = tempDir();
    copyFileSync(path.join(ATT, 'attested-run.tar.gz'), path.join(dir, 'renamed.tar.gz'));
    writeFileSync(path.join(dir, 'attested-run.tar.gz.intoto.jsonl'), vector);
    const r = await cliJson(['--runs', '.', '--audit', 'none/*.json'], dir);
    expect(r.report.findings).toContainEqual(
      expect.objectContaining({ code: 'orphan_attestation', severity: 'warning', file: 'attested-run.tar.gz.intoto.jsonl' }),
    );
  });

  it('a sidecar is never read as a run, even under a runs directory', async () => {
    const dir = tempDir();
    copyFileSync(path.join(ATT, 'attested-run.tar.gz'), path.join(dir, 'a.tar.gz'));
    writeFileSync(path.join(dir, 'a.tar.gz.intoto.jsonl'), vector);
    const r = await cliJson(['--runs', '.', '--audit', 'none/*.json'], dir);
    expect(r.report.runs.map((x) => x.artifact)).toEqual(['a.tar.gz']);
  });
});
