/** Every artifact file under a directory (by extension, in sorted order): what the reader tests walk. */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function artifactFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...artifactFiles(p));
    else if (/\.(json|jsonl|ndjson|log|tar\.gz)$/.test(name)) out.push(p);
  }
  return out;
}
