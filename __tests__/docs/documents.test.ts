/**
 * The documents cannot drift from the code: what they derive from it (the README's usage block from
 * action.yml, docs/cli.md from the option tables, docs/findings.md from the findings table, the
 * target-hash vectors) is generated here and compared (`UPDATE_DOCS=1` rewrites them), and every
 * `docs/` path a source file or a document cites exists.
 */

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { usageText } from '../../src/cli/usage.js';
import { FINDINGS } from '../../src/core/findings.js';
import { DOMAINS, type Domain, targetHash } from '../../src/core/target-hash.js';
import { ROOT } from '../support/workspace.js';

const UPDATE = process.env['UPDATE_DOCS'] === '1';
const read = (rel: string): string => readFileSync(path.join(ROOT, rel), 'utf8');

/** `text` with what lies between `start` and `end` (markers kept) replaced by `body`. */
function between(text: string, start: string, end: string, body: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end, a + start.length);
  if (a < 0 || b < 0) throw new Error(`markers ${start} … ${end} not found`);
  return `${text.slice(0, a + start.length)}\n${body}${text.slice(b)}`;
}

/** Compare a generated document with the committed one, or write it with UPDATE_DOCS=1. */
function same(rel: string, generated: string): void {
  if (UPDATE) writeFileSync(path.join(ROOT, rel), generated);
  expect(read(rel), `${rel} differs from what the code gives: UPDATE_DOCS=1 npm run test:one -- __tests__/docs`).toBe(generated);
}

/** The first clause of an input's description: up to the first ". ", " (", ": " or "; ". */
function firstClause(text: string): string {
  const cut = text.search(/\.\s|\s\(|:\s|;\s|\.$/);
  return (cut < 0 ? text : text.slice(0, cut)).trim();
}

function usageBlock(): string {
  const action = parseYaml(read('action.yml')) as { inputs: Record<string, { description: string; default?: string }> };
  const lines = ['```yaml', '- uses: receipt-gate/receipt-gate@v0', '  with:'];
  for (const [name, input] of Object.entries(action.inputs)) {
    const value =
      input.default === undefined || input.default === '' ? "''" : /[:#{}]/.test(input.default) ? `'${input.default}'` : input.default;
    lines.push(`    ${`${name}: ${value}`.padEnd(34)} # ${firstClause(input.description)}`);
  }
  lines.push('```');
  return `${lines.join('\n')}\n`;
}

function findingsTable(): string {
  const rows = Object.entries(FINDINGS).map(([code, e]) => {
    const severity = 'option' in e ? `${e.severity} (${e.option.severity} ${e.option.when})` : e.severity;
    return `| \`${code}\` | ${severity} | ${e.help} |`;
  });
  return `| code | severity | meaning |\n|---|---|---|\n${rows.join('\n')}\n`;
}

const VECTORS: readonly (readonly [Domain, string])[] = [
  ['github_key_title', 'deploy-2026-11'],
  ['github_key_title', '  Deploy-2026-11\u00a0'],
  ['github_key_title', '\ufeffdeploy-2026-11'],
  ['github_label', 'needs-review'],
  ['github_label', ' Needs-Review '],
  ['github_user', 'Octocat'],
  ['aws_iam_user', 'Deploy-Bot'],
  ['slack_workspace', 'T024BE7LD'],
  ['slack_channel', 'C02ONBOARD'],
  ['slack_principal', 'U0ADA'],
  ['slack_principal', 'Ada@Example.COM'],
  ['workspace', 'T024BE7LD'],
  ['workspace_principal', 'İSTANBUL-ÉQUIPE'],
];

function vectorTable(): string {
  const rows = VECTORS.map(([d, v]) => `| \`${d}\` | \`${JSON.stringify(v)}\` | \`${targetHash(d, v)}\` |`);
  return `| domain | value | hash |\n|---|---|---|\n${rows.join('\n')}\n`;
}

describe('documents generated from the code', () => {
  it("the README's usage block is action.yml's inputs, each one line: its default and what it is", () => {
    same('README.md', between(read('README.md'), '<!-- usage: generated from action.yml -->', '<!-- end usage -->', usageBlock()));
  });

  it('docs/cli.md is every command and flag as --help prints them', () => {
    const head = read('docs/cli.md').split('<!-- generated from the option tables -->')[0];
    same('docs/cli.md', `${head}<!-- generated from the option tables -->\n\`\`\`\n${usageText()}\`\`\`\n`);
  });

  it('docs/findings.md is the findings table', () => {
    same('docs/findings.md', between(read('docs/findings.md'), '<!-- findings: generated -->', '<!-- end findings -->', findingsTable()));
  });

  it('docs/target-hash.md: every vector recomputes, every domain has one', () => {
    same('docs/target-hash.md', between(read('docs/target-hash.md'), '<!-- target-hash vectors -->', '<!-- end -->', vectorTable()));
    expect(new Set(VECTORS.map(([d]) => d))).toEqual(new Set(DOMAINS));
    // Trimmed and lower-cased to one hash; U+FEFF is not white space.
    expect(targetHash('github_key_title', '  Deploy-2026-11\u00a0')).toBe(targetHash('github_key_title', 'deploy-2026-11'));
    expect(targetHash('github_key_title', '\ufeffdeploy-2026-11')).not.toBe(targetHash('github_key_title', 'deploy-2026-11'));
  });
});

/** Every file under `dir` (relative to ROOT) whose name ends with one of `exts`. */
function files(dir: string, exts: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(ROOT, rel))) {
      const child = path.posix.join(rel, name);
      if (statSync(path.join(ROOT, child)).isDirectory()) walk(child);
      else if (exts.some((e) => name.endsWith(e))) out.push(child);
    }
  };
  walk(dir);
  return out;
}

describe('the documents the code cites exist', () => {
  const sources = [
    ...files('src', ['.ts']),
    ...files('scripts', ['.mjs']),
    ...files('examples', ['.yml']),
    ...files('docs', ['.md']),
    ...files('schemas', ['.json']),
    'action.yml',
    'README.md',
    'CONTRIBUTING.md',
    'ARCHITECTURE.md',
    'CHANGELOG.md',
    'BENCHMARKS.md',
  ];

  it('every docs/… path in a source file, a workflow, a schema or a document is a file of this repository', () => {
    const missing: string[] = [];
    let cited = 0;
    for (const rel of sources) {
      const text = read(rel);
      for (const m of text.matchAll(/(\S*?)\bdocs\/([\w./-]+?\.md)\b/g)) {
        const before = m[1] ?? '';
        // Another project's docs (a URL to another repository) are not ours to hold.
        if (/https?:\/\//.test(before) && !before.includes('github.com/receipt-gate/receipt-gate/')) continue;
        cited++;
        const target = `docs/${m[2]}`;
        try {
          statSync(path.join(ROOT, target));
        } catch {
          missing.push(`${rel} cites ${target}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(cited).toBeGreaterThan(50);
  });

  it('every relative Markdown link in the README and docs/ resolves', () => {
    const broken: string[] = [];
    for (const rel of [...files('docs', ['.md']), 'README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', 'CHANGELOG.md']) {
      for (const m of read(rel).matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        try {
          statSync(path.join(ROOT, path.dirname(rel), target));
        } catch {
          broken.push(`${rel} → ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every src/ path a document names exists (a document that names code keeps up with it)', () => {
    const missing: string[] = [];
    for (const rel of [...files('docs', ['.md']), 'README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md']) {
      for (const m of read(rel).matchAll(/`(src\/[\w./-]+?\.(?:ts|mjs))`/g)) {
        try {
          statSync(path.join(ROOT, m[1] as string));
        } catch {
          missing.push(`${rel} names ${m[1]}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
