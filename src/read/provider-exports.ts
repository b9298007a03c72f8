/**
 * What a provider's own export entries look like (docs/importers.md), by kind: what tells an export
 * of the wrong kind to `import`, and a raw export committed where audit records belong to the gate.
 * A leaf: the importers (tools/import/) and the audit reader both ask it.
 */
import { hasOwn, isObject, type JsonObject } from '../core/json.js';

export const EXPORT_KINDS = {
  'github-audit-log': 'a GitHub audit-log export',
  'github-webhook': 'GitHub webhook deliveries',
  'slack-audit-log': 'a Slack audit-log page',
  'aws-cloudtrail': 'an AWS CloudTrail log file or lookup-events output',
  'k8s-audit': 'a Kubernetes audit log (audit.k8s.io/v1 events)',
  'okta-system-log': 'an Okta System Log page',
} as const;

export type ExportKind = keyof typeof EXPORT_KINDS;

/** Whether an entry has the shape of each kind's entries. */
export const EXPORT_SHAPES: { readonly [K in ExportKind]: (entry: JsonObject) => boolean } = {
  'github-audit-log': (e) =>
    typeof e['action'] === 'string' &&
    !isObject(e['entity']) &&
    (hasOwn(e, '_document_id') || hasOwn(e, '@timestamp') || hasOwn(e, 'created_at')),
  'github-webhook': (e) =>
    (typeof e['guid'] === 'string' && (isObject(e['request']) || hasOwn(e, 'delivered_at') || hasOwn(e, 'event'))) ||
    (isObject(e['key']) && isObject(e['repository'])),
  'slack-audit-log': (e) =>
    typeof e['action'] === 'string' && !hasOwn(e, '_document_id') && (isObject(e['entity']) || isObject(e['context'])),
  'aws-cloudtrail': (e) =>
    (typeof e['eventID'] === 'string' && typeof e['eventSource'] === 'string') || typeof e['CloudTrailEvent'] === 'string',
  'k8s-audit': (e) => e['kind'] === 'Event' && typeof e['auditID'] === 'string' && typeof e['apiVersion'] === 'string',
  'okta-system-log': (e) => typeof e['uuid'] === 'string' && typeof e['eventType'] === 'string' && hasOwn(e, 'published'),
};

/** The export kind a value (an entry, or a page object with a list of entries) looks like, or null. */
export function exportKindOf(value: unknown): ExportKind | null {
  if (!isObject(value)) return null;
  const list = Object.values(value).find((v): v is unknown[] => Array.isArray(v) && isObject(v[0]));
  const candidates = [value, ...(list && isObject(list[0]) ? [list[0]] : [])];
  for (const kind of Object.keys(EXPORT_SHAPES) as ExportKind[]) if (candidates.some((c) => EXPORT_SHAPES[kind](c))) return kind;
  return null;
}
