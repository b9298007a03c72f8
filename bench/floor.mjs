// The floor: read the same files, JSON.parse them (NDJSON line by line), and compute JCS + sha256
// of every record subject and every call projection. Nothing else: no checks, no report.

import { hash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';

const BOUND = {
  github_deploy_key: ['owner', 'repo', 'key_title_hash'],
  workspace_member: ['workspace_id_hash', 'channel_id_hash', 'principal_hash'],
  workspace_role: ['workspace_id_hash', 'principal_hash', 'role'],
};
const [runsDir, auditDir] = process.argv.slice(2);
let digests = 0;
const docs = (file) => {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json')
    ? [JSON.parse(text)]
    : text
        .split('\n')
        .filter((l) => l)
        .map((l) => JSON.parse(l));
};
for (const f of readdirSync(runsDir).sort()) {
  for (const doc of docs(path.join(runsDir, f))) {
    const s = doc.schema ? doc : doc.data;
    for (const d of s.observed_tool_decisions) {
      const a = d.action;
      const t = {};
      for (const k of BOUND[a.resource_type]) if (k in a.target) t[k] = a.target[k];
      hash('sha256', canonicalize({ action_class: a.resource_type, verb: a.verb, target: t }));
      digests++;
    }
  }
}
for (const f of readdirSync(auditDir).sort()) {
  for (const doc of docs(path.join(auditDir, f)))
    for (const r of Array.isArray(doc) ? doc : [doc]) {
      hash('sha256', canonicalize(r.subject));
      digests++;
    }
}
process.stdout.write(`${digests}\n`);
