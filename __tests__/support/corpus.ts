/**
 * Builders for realistic artifacts (decisions, surfaces, audit records, bundles) and the two demo
 * corpora under fixtures/. The fixtures test regenerates the corpora and compares them byte for
 * byte with the committed files (UPDATE_FIXTURES=1 rewrites them).
 */

import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { binding, sha256Hex } from '../../src/core/binding.js';
import type { JsonObject } from '../../src/core/json.js';
import { project } from '../../src/core/projection.js';
import type { Level } from '../../src/core/vocabulary.js';
import { payloadOf } from '../../src/read/signature.js';
import { signPayload } from '../../src/tools/signing.js';
import { buildBundle, gzip, tar } from './bundle-writer.js';

/** Target hashes as upstream makes them: sha256("assay.tool_target.v0:<domain>:" + lowercase(trim(value))). */
export const targetHash = (domain: string, value: string): string =>
  `sha256:${sha256Hex(`assay.tool_target.v0:${domain}:${value.trim().toLowerCase()}`)}`;

export interface DecisionSpec {
  readonly tool: string;
  readonly verb: string | null;
  readonly resourceType: string | null;
  readonly target: Record<string, unknown> | null;
  readonly status?: string;
  readonly asserted?: boolean;
  readonly effect?: 'allow' | 'deny';
  /** The claimed level; `legacy` writes only side_effect_verified (no block). */
  readonly claim?: Level | 'legacy-verified' | 'none';
  /** Override the claimed digest (default: the recomputed subject digest for claims above asserted). */
  readonly digest?: string | null;
}

export function subjectDigest(d: JsonObject): string {
  const p = project(d);
  if (p.kind !== 'subject') throw new Error(`no subject: ${p.reason}`);
  return p.digest;
}

export function decision(s: DecisionSpec): JsonObject {
  const asserted = s.asserted ?? true;
  const claim = s.claim ?? 'asserted';
  const base: Record<string, unknown> = {
    server: { id: s.tool.split('.')[0], transport: 'mcp', declared_manifest_digest: `sha256:${'1'.repeat(64)}` },
    tool: { name: s.tool, category: s.resourceType },
    classification: s.resourceType ? 'classified' : 'unclassified',
    action: {
      class: s.resourceType ? 'privileged_admin_action' : 'unclassified',
      verb: s.verb,
      resource_type: s.resourceType,
      target: s.target,
    },
    decision: { effect: s.effect ?? 'allow', source: 'assay-mcp-server', rule_id: `tool.${s.tool}.${s.effect ?? 'allow'}`, enforced: true },
  };
  const response: Record<string, unknown> = {
    status: s.status ?? (s.effect === 'deny' ? 'blocked' : 'success'),
    side_effect_asserted: asserted,
    side_effect_verified: claim === 'verified' || claim === 'legacy-verified',
  };
  if (claim !== 'legacy-verified' && claim !== 'none') {
    const digest = s.digest !== undefined ? s.digest : claim === 'asserted' ? null : subjectDigest(base as JsonObject);
    response['side_effect'] = {
      asserted,
      level: claim,
      verification_source:
        claim === 'asserted' ? null : claim === 'observed_confirmed' ? 'observed_read_followup' : 'provider_audit_import',
      verification_subject_digest: digest,
    };
  }
  base['response'] = response;
  base['redaction'] = { arguments_redacted: true, secret_material_stored: false };
  return base as JsonObject;
}

/** A github_deploy_key target: owner, repo and the key title's hash, with the request's provider (null: none). */
export interface KeySpec {
  readonly owner?: string;
  readonly repo?: string;
  readonly title?: string;
  readonly provider?: string | null;
  readonly readOnly?: boolean;
}

export function deployKey(k: KeySpec = {}): Record<string, unknown> {
  const t: Record<string, unknown> = {};
  if (k.provider !== null) t['provider'] = k.provider ?? 'github';
  t['owner'] = k.owner ?? 'org';
  t['repo'] = k.repo ?? 'prod-repo';
  t['key_title_hash'] = targetHash('github_key_title', k.title ?? 'ci-key');
  if (k.readOnly !== undefined) t['read_only'] = k.readOnly;
  return t;
}

/** A github.add_deploy_key call (create), asserting its side effect. */
export const addKey = (over: Partial<DecisionSpec> = {}): JsonObject =>
  decision({ tool: 'github.add_deploy_key', verb: 'create', resourceType: 'github_deploy_key', target: deployKey(), ...over });

/** A github.get_deploy_key read (get), asserting nothing. */
export const getKey = (over: Partial<DecisionSpec> = {}): JsonObject =>
  decision({
    tool: 'github.get_deploy_key',
    verb: 'get',
    resourceType: 'github_deploy_key',
    target: deployKey(),
    asserted: false,
    ...over,
  });

export function surface(decisions: readonly JsonObject[]): JsonObject {
  return {
    schema: 'assay.tool_decision_surface.v0',
    observed_tool_decisions: decisions,
    non_claims: ['does not prove SaaS-side persistence without external audit evidence'],
  };
}

/** An audit record that binds `d` (or another subject), with a correct digest unless told otherwise. */
export function record(
  provider: string,
  recordId: string,
  d: JsonObject,
  opts: { digest?: string; editTarget?: Record<string, unknown> } = {},
): JsonObject {
  const p = project(d);
  if (p.kind !== 'subject') throw new Error(`no subject: ${p.reason}`);
  const subject = { action_class: p.subject.action_class, verb: p.subject.verb, target: { ...p.subject.target } };
  const b = binding(subject);
  if (!b.ok) throw new Error(b.reason);
  if (opts.editTarget) Object.assign(subject.target, opts.editTarget); // tampering after the digest was made
  return {
    schema: 'assay.provider_audit_record.v0',
    provider,
    record_id: recordId,
    subject,
    binding_digest: opts.digest ?? b.digest,
    non_claims: ['imported from a provider audit export; Assay did not query the provider'],
  };
}

export const event = (type: string, data: unknown, seq: number, runId = 'run_demo'): JsonObject => ({
  specversion: '1.0',
  type,
  source: 'urn:assay:mcp-proxy',
  id: `${runId}:${seq}`,
  time: '2026-11-12T09:00:00Z',
  datacontenttype: 'application/json',
  data,
});

export const json = (v: unknown): string => JSON.stringify(v, null, 2) + '\n';
export const ndjson = (vs: readonly unknown[]): string => vs.map((v) => JSON.stringify(v)).join('\n') + '\n';

// ── the demo corpora ───────────────────────────────────────────────────────────────────────────

const gh = (repo: string, title: string) => deployKey({ owner: 'acme', repo, title, readOnly: false });
const ws = 'T024BE7LD';
const slackTarget = (principal: string, channel = 'C02ONBOARD') => ({
  provider: 'slack',
  workspace_id_hash: targetHash('slack_workspace', ws),
  channel_id_hash: targetHash('slack_channel', channel),
  principal_hash: targetHash('slack_principal', principal),
});
const roleTarget = (principal: string, role: string) => ({
  provider: 'workspace',
  workspace_id_hash: targetHash('slack_workspace', ws),
  principal_hash: targetHash('slack_principal', principal),
  role,
});

/** Files of the passing demo (paths relative to fixtures/demo). */
export function demoCorpus(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  // Run 1: rotate deploy keys. One verified by the GitHub audit log, one confirmed by a later read.
  const addPayments = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('payments-api', 'deploy-2026-11'),
    claim: 'verified',
  });
  const addBilling = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('billing-worker', 'deploy-2026-11'),
    claim: 'observed_confirmed',
  });
  const readBilling = decision({
    tool: 'github.get_deploy_key',
    verb: 'get',
    resourceType: 'github_deploy_key',
    target: { ...gh('billing-worker', 'deploy-2026-11'), read_only: true },
    asserted: false,
  });
  const denied = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('infra-secrets', 'deploy-2026-11'),
    asserted: false,
    effect: 'deny',
  });
  files.set('.assay/runs/2026-11-03-rotate-deploy-keys.json', json(surface([addPayments, addBilling, readBilling, denied])));

  // Run 2: onboarding, an Assay event log (NDJSON). Other event kinds are skipped with a notice.
  const addAda = decision({
    tool: 'slack.add_member',
    verb: 'add',
    resourceType: 'workspace_member',
    target: slackTarget('U0ADA'),
    claim: 'none',
  });
  const grantAda = decision({
    tool: 'workspace.grant_admin',
    verb: 'grant',
    resourceType: 'workspace_role',
    target: roleTarget('U0ADA', 'admin'),
    claim: 'verified',
  });
  const addGrace = decision({ tool: 'slack.add_member', verb: 'add', resourceType: 'workspace_member', target: slackTarget('U0GRACE') });
  files.set(
    '.assay/runs/2026-11-12-onboarding.ndjson',
    ndjson([
      event('assay.enforcement_decision.v0', { rule_id: 'tool.slack.add_member.allow', effect: 'allow' }, 0, 'run_onboarding'),
      event('assay.tool_decision_surface.v0', surface([addAda, grantAda]), 1, 'run_onboarding'),
      event('assay.tool_decision_surface.v0', surface([addGrace]), 2, 'run_onboarding'),
    ]),
  );

  // Run 3: a release run recorded as an Assay evidence bundle.
  const addRelease = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('release-bot', 'release-2026-11'),
    claim: 'verified',
  });
  const unknown = decision({ tool: 'misc.do_thing', verb: null, resourceType: null, target: null });
  files.set(
    '.assay/runs/2026-11-20-release.tar.gz',
    buildBundle({
      runId: 'run_release_2026_11_20',
      source: 'urn:assay:mcp-proxy',
      time: '2026-11-20T16:30:00Z',
      events: [
        { type: 'assay.session.started', data: { agent: 'release-bot' } },
        { type: 'assay.tool_decision_surface.v0', data: surface([addRelease, unknown]) },
      ],
    }).gz,
  );

  files.set(
    '.assay/audit/github/2026-11.json',
    json([record('github', 'github-audit-8842211', addPayments), record('github', 'github-audit-8842957', addRelease)]),
  );
  files.set(
    '.assay/audit/slack/2026-11.ndjson',
    ndjson([record('slack', 'slack-audit-Ev0A1', addAda), record('workspace', 'slack-admin-Ev0A2', grantAda)]),
  );
  return files;
}

/** Files of the failing demo: one tampered record, one claimed `verified` without its record. */
export function failingCorpus(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  const tampered = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('payments-api', 'hotfix-key'),
    claim: 'verified',
  });
  const unbacked = decision({
    tool: 'workspace.grant_admin',
    verb: 'grant',
    resourceType: 'workspace_role',
    target: roleTarget('U0MALLORY', 'owner'),
    claim: 'verified',
  });
  const fine = decision({ tool: 'slack.add_member', verb: 'add', resourceType: 'workspace_member', target: slackTarget('U0GRACE') });
  files.set('.assay/runs/2026-11-25-incident.json', json(surface([tampered, unbacked, fine])));
  files.set(
    '.assay/audit/github/2026-11.json',
    json([
      // The repo was edited after the provider's digest was computed.
      record('github', 'github-audit-9001', tampered, { editTarget: { repo: 'payments-api-shadow' } }),
    ]),
  );
  return files;
}

/**
 * Evidence bundles that carry decision surfaces (fixtures/bundles): one whose call the audit export
 * verifies, the same with a record for another target, and one whose events were edited after the
 * manifest hashed them.
 */
export function bundleCorpus(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  const write = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('payments-api', 'bundle-key'),
    claim: 'verified',
  });
  const read = decision({
    tool: 'github.get_deploy_key',
    verb: 'get',
    resourceType: 'github_deploy_key',
    target: { ...gh('payments-api', 'bundle-key'), read_only: true },
    asserted: false,
  });
  const spec = {
    runId: 'run_bundle_fixture',
    source: 'urn:assay:mcp-proxy',
    time: '2026-11-21T08:00:00Z',
    events: [
      { type: 'assay.session.started', data: { agent: 'deploy-bot' } },
      { type: 'assay.tool_decision_surface.v0', data: surface([write, read]) },
    ],
  };
  const bundle = buildBundle(spec);
  files.set('verified-call.tar.gz', bundle.gz);
  files.set('verified-call.audit.json', json(record('github', 'github-audit-bundle-1', write)));
  const other = decision({ tool: 'x', verb: 'create', resourceType: 'github_deploy_key', target: gh('payments-api-old', 'bundle-key') });
  files.set('mismatched-record.audit.json', json(record('github', 'github-audit-bundle-2', other)));
  const edited = bundle.events.replace('"payments-api"', '"payments-apj"'); // same length: only the hash can tell
  files.set(
    'tampered-after-hashing.tar.gz',
    gzip(
      tar([
        { name: 'manifest.json', data: bundle.manifest },
        { name: 'events.ndjson', data: edited },
      ]),
    ),
  );
  return files;
}

// ── signed records ─────────────────────────────────────────────────────────────────────────────

const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

/** A deterministic Ed25519 key from a 32-byte seed (PKCS#8 DER prefix + seed). */
export function seededKey(seed: number): { privateKey: KeyObject; publicKey: KeyObject; pem: string } {
  const der = Buffer.concat([
    Buffer.from('302e020100300506032b657004220420', 'hex'),
    Buffer.from(Array.from({ length: 32 }, (_, i) => (seed + i) & 0xff)),
  ]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, pem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

/** The throwaway test signer of docs/records-provenance.md (seed 0x01 … 0x20), as committed under fixtures/signed/. */
export function testSigner(): { privateKey: KeyObject; publicKey: KeyObject; pem: string } {
  const privateKey = createPrivateKey(readFileSync(path.join(FIXTURES, 'signed/test-signer.key.pem'), 'utf8'));
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, pem: publicKey.export({ type: 'spki', format: 'pem' }) as string };
}

/** `rec` with a signature member over its payload (the record is ours: built by these builders); `type`: a coverage statement's payload type. */
export function signed(
  rec: JsonObject,
  key: { privateKey: KeyObject; publicKey: KeyObject },
  signedAt = '2026-11-30T12:00:00Z',
  type?: Parameters<typeof signPayload>[3],
): JsonObject {
  const p = payloadOf(rec);
  if (!p.ok) throw new Error(p.reason);
  return { ...rec, signature: signPayload(p.text, key, signedAt, type) };
}

/** The policy both signed demos are checked with (README: "deploy keys must be verified, Slack admin changes at least observed"). */
export const SIGNED_DEMO_POLICY = ['github_deploy_key:create=verified', 'workspace_role=observed_confirmed'] as const;

/**
 * A signed, policy-checked demo that passes: every deploy key added is verified by a record the
 * trusted export job signed; the admin grant is confirmed by a later read.
 */
export function signedCorpus(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  const key = testSigner();
  const addKeyCall = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('payments-api', 'deploy-2026-12'),
    claim: 'verified',
  });
  const readKey = decision({
    tool: 'github.get_deploy_key',
    verb: 'get',
    resourceType: 'github_deploy_key',
    target: { ...gh('payments-api', 'deploy-2026-12'), read_only: true },
    asserted: false,
  });
  const grant = decision({
    tool: 'workspace.grant_admin',
    verb: 'grant',
    resourceType: 'workspace_role',
    target: roleTarget('U0ADA', 'admin'),
    claim: 'observed_confirmed',
  });
  const readRole = decision({
    tool: 'workspace.get_role',
    verb: 'get',
    resourceType: 'workspace_role',
    target: roleTarget('U0ADA', 'admin'),
    asserted: false,
  });
  const invite = decision({ tool: 'slack.add_member', verb: 'add', resourceType: 'workspace_member', target: slackTarget('U0ADA') });
  files.set('.assay/runs/2026-12-01-rotate.json', json(surface([addKeyCall, readKey, grant, readRole, invite])));
  files.set('.assay/audit/github/2026-12.ndjson', ndjson([signed(record('github', 'github-audit:Qm9ndXNEb2NJZDEyMw', addKeyCall), key)]));
  files.set('trusted-signer.pub.pem', key.pem);
  return files;
}

/**
 * The same run with what a forger can commit: a deploy key whose "verified" record was signed by
 * a key the gate does not trust, an unsigned record, and a deploy key added with no evidence at all.
 */
export function signedFailingCorpus(): Map<string, string | Buffer> {
  const files = new Map<string, string | Buffer>();
  const key = testSigner();
  const forger = seededKey(0x21);
  const genuine = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('payments-api', 'deploy-2026-12'),
    claim: 'verified',
  });
  const forged = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('infra-secrets', 'backdoor'),
    claim: 'verified',
  });
  const unsignedCall = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('billing-worker', 'deploy-2026-12'),
    claim: 'verified',
  });
  const bare = decision({
    tool: 'github.add_deploy_key',
    verb: 'create',
    resourceType: 'github_deploy_key',
    target: gh('release-bot', 'deploy-2026-12'),
  });
  const grant = decision({
    tool: 'workspace.grant_admin',
    verb: 'grant',
    resourceType: 'workspace_role',
    target: roleTarget('U0MALLORY', 'owner'),
  });
  files.set('.assay/runs/2026-12-02-incident.json', json(surface([genuine, forged, unsignedCall, bare, grant])));
  files.set(
    '.assay/audit/github/2026-12.ndjson',
    ndjson([
      signed(record('github', 'github-audit:Z2VudWluZQ', genuine), key),
      signed(record('github', 'github-audit:Zm9yZ2Vk', forged), forger),
      record('github', 'github-audit:dW5zaWduZWQ', unsignedCall),
    ]),
  );
  files.set('trusted-signer.pub.pem', key.pem);
  return files;
}

/** A server log (docs/assay-server-logs.md) of these decisions, each on its tracing line at its time. */
export function serverLog(calls: readonly (readonly [string, JsonObject])[]): string {
  const lines = [
    JSON.stringify({
      timestamp: calls[0]?.[0] ?? '2026-11-30T00:00:00Z',
      level: 'INFO',
      fields: { event: 'server_start' },
      target: 'assay_mcp_server',
    }),
  ];
  calls.forEach(([timestamp, d], i) => {
    const rid = `r-${String(i + 1).padStart(6, '0')}`;
    lines.push(JSON.stringify({ timestamp, level: 'INFO', fields: { event: 'tool_call_start', rid }, target: 'assay_mcp_server::server' }));
    lines.push(
      JSON.stringify({
        timestamp,
        level: 'INFO',
        fields: { event: 'tool_decision', rid, decision: JSON.stringify(d) },
        target: 'assay_mcp_server::server',
      }),
    );
  });
  return `${lines.join('\n')}\n`;
}

/** A coverage statement (docs/coverage.md §1) of a GitHub audit-log export for the agent, over one UTC day. */
export function coverageStatement(day: string, next: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: 'receipt-gate.audit_coverage.v1',
    provider: 'github',
    export: 'github-audit-log',
    actors: ['deploy-agent[bot]'],
    repos: null,
    owner: 'org',
    actions: ['github_deploy_key:create'],
    since: `${day}T00:00:00Z`,
    until: `${next}T00:00:00Z`,
    entries_read: 10,
    records: 0,
    ...over,
  };
}
