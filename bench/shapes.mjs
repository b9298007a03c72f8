// Shapes that were quadratic (issue 12): an NDJSON run log of N ordinary events (no backslash
// anywhere), the same with one withEscape per line, and an evidence bundle of N events, each measured
// end to end through dist/cli.js against a floor that parses the same lines in the same run, at N
// and 10 N (the scaling row: 10× the lines should cost ≤ 11× the time).

import { createHash, sign as cryptoSign } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import canonicalize from 'canonicalize';
import { hashAction } from './subject.mjs';

const sha = (s) => createHash('sha256').update(s).digest('hex');

function decision(i, withEscape) {
  return {
    tool: { name: withEscape ? 'github.add\\u005fdeploy_key' : 'github.add_deploy_key' },
    action: {
      verb: 'create',
      resource_type: 'github_deploy_key',
      target: { provider: 'github', owner: `org${i % 97}`, repo: `repo-${i}`, key_title_hash: `sha256:${sha(`k${i}`)}` },
    },
    decision: { effect: 'allow' },
    response: { status: 'success', side_effect_asserted: true },
  };
}

/** NDJSON log of n surface events, one decision each; with `withEscape`, one JSON withEscape per line. */
export function ndjsonLog(dir, n, withEscape) {
  mkdirSync(path.join(dir, 'runs'), { recursive: true });
  mkdirSync(path.join(dir, 'audit'), { recursive: true });
  const lines = [];
  for (let i = 0; i < n; i++) {
    const e = {
      type: 'assay.tool_decision_surface.v0',
      data: { schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: [decision(i, false)] },
    };
    const line = JSON.stringify(e);
    lines.push(withEscape ? line.replace('github.add_deploy_key', 'github.add\\u005fdeploy_key') : line);
  }
  writeFileSync(path.join(dir, 'runs', 'log.ndjson'), `${lines.join('\n')}\n`);
}

function tarEntry(name, data) {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([h, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** An Assay evidence bundle of n surface events (valid: hashes, run root, manifest). */
export function bundle(dir, n, { name = 'run.tar.gz', runId = 'run_bench', producer = null } = {}) {
  mkdirSync(path.join(dir, 'runs'), { recursive: true });
  mkdirSync(path.join(dir, 'audit'), { recursive: true });
  const lines = [];
  const root = createHash('sha256');
  for (let i = 0; i < n; i++) {
    const covered = {
      specversion: '1.0',
      type: 'assay.tool_decision_surface.v0',
      datacontenttype: 'application/json',
      data: { schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: [decision(i, false)] },
    };
    const contentHash = `sha256:${sha(canonicalize(covered))}`;
    root.update(`${contentHash}\n`);
    lines.push(
      canonicalize({
        ...covered,
        source: 'urn:assay:bench',
        id: `${runId}:${i}`,
        time: '2026-11-01T00:00:00Z',
        assayrunid: runId,
        assayseq: i,
        assayproducer: 'bench',
        assayproducerversion: '1',
        assaygit: 'abc',
        assaypii: false,
        assaysecrets: false,
        assaycontenthash: contentHash,
      }),
    );
  }
  const events = Buffer.from(`${lines.join('\n')}\n`);
  const runRoot = `sha256:${root.digest('hex')}`;
  const manifest = Buffer.from(
    canonicalize({
      schema_version: 1,
      run_id: runId,
      event_count: n,
      run_root: runRoot,
      bundle_id: runRoot,
      files: { 'events.ndjson': { path: 'events.ndjson', sha256: `sha256:${sha(events)}`, bytes: events.length } },
      ...(producer ? { producer } : {}),
    }),
  );
  const archive = gzipSync(Buffer.concat([tarEntry('manifest.json', manifest), tarEntry('events.ndjson', events), Buffer.alloc(1024)]));
  writeFileSync(path.join(dir, 'runs', name), archive);
  return { archive, runId, runRoot, eventCount: n, time: '2026-11-01T00:00:00Z' };
}

/**
 * The sidecar upstream's `assay evidence attest` would write for a bundle made by `bundle()`
 * (docs/attestations.md §1), signed with an Ed25519 private KeyObject; `keyId` names it.
 */
export function sidecar(b, producer, privateKey, keyId) {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: b.runRoot, digest: { sha256: sha(b.archive) } }],
    predicateType: 'https://docs.getassay.dev/attestation/evidence-bundle/v1',
    predicate: {
      schema_version: 1,
      semantic_equivalence: { algorithm: 'assay-run-root-v1', value: b.runRoot },
      run: { run_id: b.runId, event_count: b.eventCount, producer: { git: '', ...producer }, time_window: { start: b.time, end: b.time } },
    },
  };
  const payload = Buffer.from(canonicalize(statement));
  const type = 'application/vnd.in-toto+json';
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} ${type} ${payload.length} `), payload]);
  return `${JSON.stringify({ payload: payload.toString('base64'), payloadType: type, signatures: [{ keyid: keyId, sig: cryptoSign(null, pae, privateKey).toString('base64') }] })}\n`;
}

/** A server log of n lines as assay-mcp-server's JSON formatter writes them: tool_call_start, then tool_decision. */
export function serverLog(dir, n) {
  mkdirSync(path.join(dir, 'runs'), { recursive: true });
  mkdirSync(path.join(dir, 'audit'), { recursive: true });
  const lines = [
    '{"timestamp":"2026-05-14T10:02:41.90731102Z","level":"INFO","fields":{"event":"server_start","timeout_ms":2000},"target":"assay_mcp_server"}',
  ];
  let decisions = 0;
  for (let i = 1; lines.length < n - 1; i++, decisions++) {
    const rid = `r-${String(i).padStart(6, '0')}`;
    lines.push(
      `{"timestamp":"2026-05-14T10:02:42.238015777Z","level":"INFO","fields":{"event":"tool_call_start","rid":"${rid}","rpc_id":"Some(Number(${i}))","bytes_in":336,"args_bytes":240},"target":"assay_mcp_server::server"}`,
    );
    const d = { ...decision(i, false), server: { id: 'mcp', transport: 'mcp' } };
    lines.push(
      JSON.stringify({
        timestamp: '2026-05-14T10:02:42.650815769Z',
        level: 'INFO',
        fields: { event: 'tool_decision', rid, rpc_id: `Some(Number(${i}))`, decision: JSON.stringify(d) },
        target: 'assay_mcp_server::server',
      }),
    );
  }
  while (lines.length < n)
    lines.push(
      '{"timestamp":"2026-05-14T10:02:43Z","level":"INFO","fields":{"event":"initialized","rid":"r-000002"},"target":"assay_mcp_server::server"}',
    );
  writeFileSync(path.join(dir, 'runs', 'server.log'), `${lines.join('\n')}\n`);
  return decisions;
}

/**
 * The floor for a server log: JSON.parse every line and every decision string, and (with `bind`)
 * JCS + sha256 of every decision's subject, as the corpus floor (floor.mjs) binds every call. Until
 * 2026-12-01 it bound nothing; the bench prints both, the binding one as the row's floor.
 */
export function serverLogFloor(text, bind = true) {
  let n = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.fields.event !== 'tool_decision') continue;
    const d = JSON.parse(o.fields.decision);
    if (bind && d.action) hashAction(d.action);
    n += d.response ? 1 : 0;
  }
  return n;
}

/**
 * The floor for a bundle: gunzip, split, JSON.parse every line and recompute its content hash.
 * The archive is manifest.json then events.ndjson (as `bundle` writes it): the events' tar header
 * follows the manifest's padded content. Returns the number of events, which the bench checks (until
 * 2026-12-01 the size was read from inside the manifest, so the floor parsed nothing).
 */
export function bundleFloor(file, read) {
  const raw = gunzipSync(read(file));
  const octal = (at) => Number.parseInt(raw.subarray(at + 124, at + 135).toString(), 8);
  const header = 512 + Math.ceil(octal(0) / 512) * 512;
  const name = raw
    .subarray(header, header + 100)
    .toString()
    .replace(/\0[\s\S]*$/, '');
  const size = octal(header);
  if (name !== 'events.ndjson' || !Number.isSafeInteger(size)) throw new Error(`bundle floor: no events.ndjson entry at ${header}`);
  let n = 0;
  for (const line of raw
    .subarray(header + 512, header + 512 + size)
    .toString('utf8')
    .split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line);
    sha(canonicalize({ specversion: e.specversion, type: e.type, datacontenttype: e.datacontenttype, data: e.data }));
    n++;
  }
  return n;
}
