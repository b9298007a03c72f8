// The npm package of the CLI, staged from the committed build: `npm run package [-- DIR]` writes
// DIR/receipt-gate-<version>.tgz (default: the repository root) and prints its path.
//
// Why a staged package and not the repository's own package.json: the repository is a development
// workspace. Its dependencies are all bundled into dist/ by ncc, and its optional dependencies are
// the Node 22 and 24 binaries the test suite runs on (about 100 MB): neither may reach a user who
// installs the CLI. The staged package.json has the same name, version, licence and engines, the
// `receipt-gate` bin, an explicit `files` list and no dependencies at all, so `npm install
// receipt-gate` (or `npx receipt-gate`) downloads the bundle, its licences and nothing else. The
// release recipe publishes this tarball with npm provenance.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.resolve(process.argv[2] ?? root);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

/** What the package holds: the CLI bundle and its reading thread, its licences, the report schema, the docs a user reads. */
const FILES = [
  'dist/cli.js',
  'dist/cli',
  'dist/read-worker.js',
  'dist/read-worker',
  'dist/package.json',
  'dist/licenses.txt',
  'schemas/report.schema.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
];

const stage = mkdtempSync(path.join(tmpdir(), 'receipt-gate-package-'));
try {
  for (const f of FILES) {
    mkdirSync(path.dirname(path.join(stage, f)), { recursive: true });
    cpSync(path.join(root, f), path.join(stage, f), { recursive: true });
  }
  // npm pack leaves out a folder that holds its own package.json; dist/package.json ({"type":"module"}) covers both folders too.
  for (const dir of ['dist/cli', 'dist/read-worker']) rmSync(path.join(stage, dir, 'package.json'), { force: true });
  const manifest = {
    name: pkg.name,
    version: pkg.version,
    description: pkg.description,
    type: pkg.type,
    license: pkg.license,
    engines: pkg.engines,
    bin: { 'receipt-gate': 'dist/cli.js' },
    files: FILES,
    repository: pkg.repository,
    keywords: pkg.keywords,
  };
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const r = spawnSync('npm', ['pack', '--silent', '--pack-destination', out], {
    cwd: stage,
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) {
    process.stderr.write(`npm pack failed: ${r.stderr}`);
    process.exit(1);
  }
  process.stdout.write(`${path.join(out, r.stdout.trim().split('\n').pop())}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
