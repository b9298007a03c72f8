// Deterministic benchmark corpus: N calls in run files of realistic size (~200 decisions, pretty
// JSON, some NDJSON logs), audit records for about two thirds of the writes spread over many
// export files, 1% of them mismatched, and follow-up reads that confirm some writes.

import { createHash, createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';

const sha = (s) => createHash('sha256').update(s).digest('hex');
const th = (domain, v) => `sha256:${sha(`assay.tool_target.v0:${domain}:${v}`)}`;

function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CLASSES = [
  {
    rt: 'github_deploy_key',
    tool: 'github.add_deploy_key',
    read: 'github.get_deploy_key',
    verb: 'create',
    provider: 'github',
    target: (i) => ({
      provider: 'github',
      owner: `org${i % 97}`,
      repo: `repo-${i}`,
      key_title_hash: th('github_key_title', `key-${i}`),
      read_only: false,
    }),
    bound: ['owner', 'repo', 'key_title_hash'],
  },
  {
    rt: 'workspace_member',
    tool: 'slack.add_member',
    read: 'slack.list_members',
    verb: 'add',
    provider: 'slack',
    target: (i) => ({
      provider: 'slack',
      workspace_id_hash: th('slack_workspace', `T${i % 13}`),
      channel_id_hash: th('slack_channel', `C${i % 501}`),
      principal_hash: th('slack_principal', `U${i}`),
    }),
    bound: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
  },
  {
    rt: 'workspace_role',
    tool: 'workspace.grant_admin',
    read: 'workspace.get_role',
    verb: 'grant',
    provider: 'workspace',
    target: (i) => ({
      provider: 'workspace',
      workspace_id_hash: th('slack_workspace', `T${i % 13}`),
      principal_hash: th('slack_principal', `U${i}`),
      role: i % 2 ? 'admin' : 'owner',
    }),
    bound: ['workspace_id_hash', 'principal_hash', 'role'],
  },
];

function subjectOf(c, target, verb = c.verb) {
  const t = {};
  for (const f of c.bound) t[f] = target[f];
  return { action_class: c.rt, verb, target: t };
}

function decision(c, target, verb, tool, { asserted, level, digest }) {
  return {
    server: { id: c.provider, transport: 'mcp', declared_manifest_digest: `sha256:${'1'.repeat(64)}` },
    tool: { name: tool, category: c.rt },
    classification: 'classified',
    reason_code: `classified_${c.rt}`,
    action: { class: 'privileged_admin_action', verb, resource_type: c.rt, target, required_scope: `${c.rt}:write` },
    decision: { effect: 'allow', source: 'assay-mcp-server', rule_id: `tool.${tool}.allow`, enforced: true },
    response: {
      status: 'success',
      side_effect_asserted: asserted,
      side_effect_verified: level === 'verified',
      side_effect: {
        asserted,
        level,
        verification_source:
          level === 'verified' ? 'provider_audit_import' : level === 'observed_confirmed' ? 'observed_read_followup' : null,
        verification_subject_digest: digest,
      },
    },
    redaction: { arguments_redacted: true, credential_alias: `${c.provider}-prod`, secret_material_stored: false },
    correlation: { basis: 'none', traceparent: null, source_class: null },
  };
}

// Signed records (docs/records-provenance.md): Ed25519 over the DSSE PAE of JCS(record), with a
// deterministic key from a fixed seed, so the signed corpus is the same bytes every run.
const PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
function benchKey() {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.alloc(32, 0x5a)]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return {
    privateKey,
    pem: publicKey.export({ type: 'spki', format: 'pem' }),
    keyId: `sha256:${sha(publicKey.export({ type: 'spki', format: 'der' }))}`,
  };
}
function signRecord(rec, key) {
  const p = Buffer.from(canonicalize(rec), 'utf8');
  const t = Buffer.from(PAYLOAD_TYPE);
  const pae = Buffer.concat([Buffer.from(`DSSEv1 ${t.length} `), t, Buffer.from(` ${p.length} `), p]);
  rec.signature = {
    version: 1,
    algorithm: 'ed25519',
    payload_type: PAYLOAD_TYPE,
    signed_payload_digest: `sha256:${sha(p)}`,
    key_id: key.keyId,
    signature: sign(null, pae, key.privateKey).toString('base64'),
    signed_at: '2026-11-30T12:00:00Z',
  };
  return rec;
}

/**
 * Writes the corpus under dir; returns counts. `calls` counts every decision (writes and reads).
 * With `signed`, every record is signed and the public key is written to dir/trusted.pub.pem. With
 * `timed`, every run is NDJSON evidence events whose time falls on day (run index mod 365) of 2026,
 * so coverage statements have calls to cover. With `recorded`, every call that asserts a side
 * effect has its record (an export that logged everything). A call's target and record id follow
 * from its number, counted from `first`: a corpus made with `first` past another's calls holds none
 * of its subjects or records (new work, as a pull request adds).
 */
export function generate(dir, calls, seed = 42, { signed = false, timed = false, recorded = false, first = 0 } = {}) {
  rmSync(dir, { recursive: true, force: true });
  const runsDir = path.join(dir, 'runs');
  const auditDir = path.join(dir, 'audit');
  mkdirSync(runsDir, { recursive: true });
  mkdirSync(auditDir, { recursive: true });
  const key = signed ? benchKey() : null;
  if (key) writeFileSync(path.join(dir, 'trusted.pub.pem'), key.pem);
  const rand = rng(seed);
  const PER_RUN = 200;
  const PER_EXPORT = 500;
  let made = 0;
  let runIndex = 0;
  const pending = [];
  let exportIndex = 0;
  let bytes = 0;
  let files = 0;
  const flushRecords = (force) => {
    while (pending.length >= PER_EXPORT || (force && pending.length > 0)) {
      const chunk = pending.splice(0, PER_EXPORT);
      const ndjson = exportIndex % 2 === 1;
      const text = ndjson ? chunk.map((r) => JSON.stringify(r)).join('\n') + '\n' : JSON.stringify(chunk, null, 2) + '\n';
      writeFileSync(path.join(auditDir, `export-${String(exportIndex++).padStart(5, '0')}.${ndjson ? 'ndjson' : 'json'}`), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  };
  let records = 0;
  while (made < calls) {
    const decisions = [];
    const n = Math.min(PER_RUN, calls - made);
    while (decisions.length < n) {
      const i = first + made + decisions.length;
      const c = CLASSES[i % 3];
      const target = c.target(i);
      const subject = subjectOf(c, target);
      const digest = `sha256:${sha(canonicalize(subject))}`;
      const r = recorded ? 0 : rand();
      if (r < 0.66) {
        decisions.push(decision(c, target, c.verb, c.tool, { asserted: true, level: 'verified', digest }));
        const mismatch = !recorded && rand() < 0.01;
        const recSubject = mismatch
          ? subjectOf(c, { ...target, repo: 'elsewhere', role: 'viewer', principal_hash: th('slack_principal', 'nobody') })
          : subject;
        const rec = {
          schema: 'assay.provider_audit_record.v0',
          provider: c.provider,
          record_id: `rec-${i}`,
          subject: recSubject,
          binding_digest: `sha256:${sha(canonicalize(recSubject))}`,
          non_claims: ['imported from a provider audit export'],
        };
        pending.push(key ? signRecord(rec, key) : rec);
        records++;
      } else if (r < 0.76 && decisions.length + 1 < n) {
        decisions.push(decision(c, target, c.verb, c.tool, { asserted: true, level: 'observed_confirmed', digest }));
        decisions.push(decision(c, { ...target, read_only: true }, 'get', c.read, { asserted: false, level: 'asserted', digest: null }));
      } else {
        decisions.push(decision(c, target, c.verb, c.tool, { asserted: true, level: 'asserted', digest: null }));
      }
    }
    made += decisions.length;
    const surface = {
      schema: 'assay.tool_decision_surface.v0',
      observed_tool_decisions: decisions,
      non_claims: ['does not prove SaaS-side persistence without external audit evidence'],
    };
    const ndjson = timed || runIndex % 4 === 3;
    const day = new Date(Date.UTC(2026, 0, 1) + (runIndex % 365) * 86_400_000);
    const text = ndjson
      ? decisions
          .map((d, k) =>
            JSON.stringify({
              specversion: '1.0',
              type: 'assay.tool_decision_surface.v0',
              source: 'urn:assay:bench',
              id: `run${runIndex}:${k}`,
              // One second apart, as a proxy writes them: a read confirms a write only when decided after it (§5).
              time: new Date((timed ? day.getTime() : Date.UTC(2026, 10, 1)) + k * 1000).toISOString().replace('.000Z', 'Z'),
              datacontenttype: 'application/json',
              data: { schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: [d] },
            }),
          )
          .join('\n') + '\n'
      : JSON.stringify(surface, null, 2) + '\n';
    writeFileSync(path.join(runsDir, `run-${String(runIndex++).padStart(6, '0')}.${ndjson ? 'ndjson' : 'json'}`), text);
    bytes += Buffer.byteLength(text);
    files++;
    flushRecords(false);
  }
  flushRecords(true);
  return {
    calls: made,
    records,
    files,
    bytes,
    runs: path.join(dir, 'runs'),
    audit: path.join(dir, 'audit'),
    trustedKey: key ? path.join(dir, 'trusted.pub.pem') : null,
  };
}
