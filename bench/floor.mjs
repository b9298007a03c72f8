// The floor: read the same files, JSON.parse them (NDJSON line by line), and compute JCS + sha256
// of every record subject and every call projection. Nothing else: no checks, no report.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { hashAction, hashSubject } from './subject.mjs';

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
      hashAction(d.action);
      digests++;
    }
  }
}
for (const f of readdirSync(auditDir).sort()) {
  for (const doc of docs(path.join(auditDir, f)))
    for (const r of Array.isArray(doc) ? doc : [doc]) {
      hashSubject(r.subject);
      digests++;
    }
}
process.stdout.write(`${digests}\n`);
