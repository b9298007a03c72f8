// npm run bench [-- --sizes 10000,100000] [-- --million]
// End-to-end benchmark of the bundled CLI against a floor measured in the same run, plus cold
// start, bundle size and the strict reader against JSON.parse. Prints ratios, not absolute claims.
import { spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import ncc from '@vercel/ncc';
import { generate } from './corpus.mjs';
import { bundle, ndjsonLog, serverLog, sidecar } from './shapes.mjs';
import { MiB, median, timedNode } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
// A fixed verification time: the report holds it (verified_at), and reports are compared across --jobs.
const NOW = '2026-12-01T12:00:00Z';
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    million: { type: 'boolean', default: false },
    repeat: { type: 'string', default: '3' },
  },
});
const sizes = values.sizes.split(',').map(Number);
if (values.million) sizes.push(1_000_000);
const repeat = Number(values.repeat);
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-bench-'));
const timed = (args, cwd = root) => timedNode(args, cwd);
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const mb = (b) => `${(b / MiB).toFixed(1)} MiB`;

console.log(
  `receipt-gate benchmark — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB`,
);
console.log(
  `dist/index.js ${mb(statSync(path.join(root, 'dist/index.js')).size)}, dist/cli.js ${mb(statSync(path.join(root, 'dist/cli.js')).size)}\n`,
);

const rows = [];
const cores = availableParallelism();
for (const n of sizes) {
  const dir = path.join(tmp, `n${n}`);
  const c = generate(dir, n);
  // The gate with the default (auto) reading threads, on the main thread alone (--jobs 1), and from
  // 100 000 calls also with 2 threads and with every core: the report must be the same bytes.
  const modes = ['auto', '1', ...(n >= 100_000 ? ['2', ...(cores > 2 ? [String(cores)] : [])] : [])];
  const floor = [];
  const gate = new Map(modes.map((m) => [m, []]));
  const digests = new Map();
  for (let i = 0; i < repeat; i++) {
    const f = timed([path.join(root, 'bench/floor.mjs'), c.runs, c.audit]);
    if (f.status !== 0) throw new Error(`floor failed: ${f.stderr}`);
    // A floor that skipped work would flatter nothing and mislead everything: it hashes every call and record.
    if (Number(f.stdout.trim()) !== c.calls + c.records)
      throw new Error(`the floor hashed ${f.stdout.trim()} subjects, not ${c.calls + c.records}`);
    floor.push(f);
    for (const m of modes) {
      const out = path.join(tmp, `report-${m}.json`);
      const g = timed([
        path.join(root, 'dist/cli.js'),
        'verify',
        '--now',
        NOW,
        '-C',
        dir,
        '--runs',
        'runs',
        '--audit',
        'audit',
        '--format',
        'json',
        '--output',
        out,
        '--jobs',
        m,
      ]);
      if (g.status !== 1) throw new Error(`gate exited ${g.status} (expected 1: the corpus has mismatches): ${g.stderr}`);
      gate.get(m).push(g);
      digests.set(m, createHash('sha256').update(readFileSync(out)).digest('hex'));
    }
  }
  if (new Set(digests.values()).size !== 1) throw new Error(`the reports differ across --jobs: ${JSON.stringify([...digests])}`);
  // The report can pass V8's string limit at N = 1 000 000; its totals are on its fourth line.
  const head = Buffer.alloc(4096);
  const fd = openSync(path.join(tmp, 'report-auto.json'), 'r');
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const report = { totals: JSON.parse(/"totals": (\{[^\n]*\})/.exec(head.toString('utf8'))[1]) };
  const at = (m) => ({ ms: median(gate.get(m).map((x) => x.ms)), rss: median(gate.get(m).map((x) => x.rss)) });
  const row = {
    n: c.calls,
    records: c.records,
    files: c.files,
    bytes: c.bytes,
    floor: median(floor.map((x) => x.ms)),
    gate: at('auto').ms,
    floorRss: median(floor.map((x) => x.rss)),
    gateRss: at('auto').rss,
    verified: report.totals.verified,
    errors: report.totals.errors,
  };
  rows.push(row);
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `N=${row.n}: ${row.files} files, ${mb(row.bytes)} on disk, ${row.records} records → ${row.verified} verified, ${row.errors} errors`,
  );
  console.log(
    `  floor ${fmt(row.floor)} (RSS ${mb(row.floorRss)}) | gate ${fmt(row.gate)} (RSS ${mb(row.gateRss)}) | gate/floor ${(row.gate / row.floor).toFixed(2)}× | ${Math.round(row.n / (row.gate / 1000)).toLocaleString('en')} calls/s | RSS/corpus ${(row.gateRss / row.bytes).toFixed(2)}×`,
  );
  for (const m of modes.slice(1)) {
    const g = at(m);
    console.log(
      `  --jobs ${m.padEnd(4)} ${fmt(g.ms)} (RSS ${mb(g.rss)}) | gate/floor ${(g.ms / row.floor).toFixed(2)}× | RSS/corpus ${(g.rss / row.bytes).toFixed(2)}×${m === '1' ? '' : ` | ${(at('1').ms / g.ms).toFixed(2)}× the speed of --jobs 1`}`,
    );
  }
  console.log(`  reports byte-identical across --jobs ${modes.join(', ')}: sha256 ${[...digests.values()][0]}`);
}
const t10 = rows.find((r) => r.n === 10_000);
const t100 = rows.find((r) => r.n === 100_000);
if (t10 && t100)
  console.log(`\nscaling t(100k)/t(10k): gate ${(t100.gate / t10.gate).toFixed(2)}, floor ${(t100.floor / t10.floor).toFixed(2)}`);

// Signed records: the same corpus with every record signed, verified with its key trusted, against
// the unsigned corpus, alternately in the same run (the signature checks run in worker threads).
{
  const n = Math.min(100_000, Math.max(...sizes));
  const plain = generate(path.join(tmp, 'plain'), n);
  const sig = generate(path.join(tmp, 'signed'), n, 42, { signed: true });
  const args = (c, extra) => [
    path.join(root, 'dist/cli.js'),
    'verify',
    '--now',
    NOW,
    '-C',
    path.dirname(c.runs),
    '--runs',
    'runs',
    '--audit',
    'audit',
    ...extra,
    '--format',
    'json',
    '--output',
    path.join(tmp, 'sreport.json'),
  ];
  const u = [];
  const sgn = [];
  for (let i = 0; i < repeat; i++) {
    const a = timed(args(plain, []));
    const b = timed(args(sig, ['--trusted-key', sig.trustedKey]));
    if (a.status !== 1 || b.status !== 1) throw new Error(`signed bench: exits ${a.status}/${b.status}: ${b.stderr}`);
    u.push(a);
    sgn.push(b);
  }
  const um = median(u.map((x) => x.ms));
  const sm = median(sgn.map((x) => x.ms));
  console.log(
    `\nsigned records, N=${n} (${sig.records} records, each signed; median of ${repeat}): unsigned ${fmt(um)} | signed, key trusted ${fmt(sm)} | signed/unsigned ${(sm / um).toFixed(2)}× | RSS ${mb(median(u.map((x) => x.rss)))} → ${mb(median(sgn.map((x) => x.rss)))}`,
  );
  rmSync(path.join(tmp, 'plain'), { recursive: true, force: true });
  rmSync(path.join(tmp, 'signed'), { recursive: true, force: true });
}

// Shapes that were quadratic before (issue 12): each against a same-run parse floor, at N and 10 N.
{
  const base = values.million ? 25_000 : 10_000;
  const cases = [
    ['NDJSON log, no escapes', (d, n) => ndjsonLog(d, n, false)],
    ['NDJSON log, one escape per line', (d, n) => ndjsonLog(d, n, true)],
    ['evidence bundle', (d, n) => bundle(d, n)],
  ];
  console.log('\nshapes (median of 3; floor = JSON.parse of every line, and content hashes for the bundle):');
  for (const [name, make] of cases) {
    const t = {};
    for (const n of [base, base * 10]) {
      const dir = path.join(tmp, `shape-${n}`);
      make(dir, n);
      const floorArgs =
        name === 'evidence bundle'
          ? [
              '-e',
              `import('${path.join(root, 'bench/shapes.mjs').replace(/\\/g, '/')}').then((m) => { const got = m.bundleFloor(${JSON.stringify(path.join(dir, 'runs/run.tar.gz'))}, (f) => require('node:fs').readFileSync(f)); if (got !== ${n}) throw new Error('bundle floor read ' + got + ' of ${n} events'); })`,
            ]
          : [path.join(root, 'bench/floor.mjs'), path.join(dir, 'runs'), path.join(dir, 'audit')];
      const f = [];
      const g = [];
      for (let i = 0; i < 3; i++) {
        const fr = timed(floorArgs);
        if (fr.status !== 0) throw new Error(`shape floor failed: ${fr.stderr}`);
        f.push(fr.ms);
        const gr = timed([
          path.join(root, 'dist/cli.js'),
          'verify',
          '--now',
          NOW,
          '-C',
          dir,
          '--runs',
          'runs',
          '--format',
          'json',
          '--output',
          path.join(tmp, 'shape.json'),
        ]);
        if (gr.status !== 0) throw new Error(`shape gate exited ${gr.status}: ${gr.stderr}`);
        g.push(gr.ms);
      }
      t[n] = { floor: median(f), gate: median(g) };
      rmSync(dir, { recursive: true, force: true });
      console.log(
        `  ${name}, ${n.toLocaleString('en')} lines: floor ${fmt(t[n].floor)} | gate ${fmt(t[n].gate)} | gate/floor ${(t[n].gate / t[n].floor).toFixed(2)}×`,
      );
    }
    console.log(
      `  ${name}: t(${(base * 10).toLocaleString('en')})/t(${base.toLocaleString('en')}) gate ${(t[base * 10].gate / t[base].gate).toFixed(2)}, floor ${(t[base * 10].floor / t[base].floor).toFixed(2)}`,
    );
  }
}

// A 100 000-line server log (tool_call_start, tool_decision, …) against a same-run floor that
// JSON-parses every line and every decision string and binds every subject (the corpus floor's
// definition); the parse-only floor it was measured against until 2026-12-01 is printed beside it.
{
  const dir = path.join(tmp, 'serverlog');
  const decisions = serverLog(dir, 100_000);
  const file = path.join(dir, 'runs/server.log');
  const floor = [];
  const parseOnly = [];
  const gate = [];
  const floorOf = (bind) => {
    const fl = timed([
      '-e',
      `import('${path.join(root, 'bench/shapes.mjs').replace(/\\/g, '/')}').then((m) => { const n = m.serverLogFloor(require('node:fs').readFileSync(${JSON.stringify(file)}, 'utf8'), ${bind}); if (n !== ${decisions}) throw new Error('the server-log floor parsed ' + n + ' decisions, not ${decisions}'); })`,
    ]);
    if (fl.status !== 0) throw new Error(`the server-log floor failed: ${fl.stderr}`);
    return fl.ms;
  };
  for (let i = 0; i < repeat; i++) {
    floor.push(floorOf(true));
    parseOnly.push(floorOf(false));
    const g = timed([
      path.join(root, 'dist/cli.js'),
      'verify',
      '--now',
      NOW,
      '-C',
      dir,
      '--runs',
      'runs',
      '--format',
      'json',
      '--output',
      path.join(dir, 'r.json'),
    ]);
    if (g.status !== 0) throw new Error(`gate failed on the server log: ${g.stderr}`);
    gate.push(g.ms);
  }
  console.log(
    `\nserver log, 100,000 lines (${mb(statSync(file).size)}; ${decisions.toLocaleString('en')} decisions), median of ${repeat}: floor ${fmt(median(floor))} | gate ${fmt(median(gate))} | gate/floor ${(median(gate) / median(floor)).toFixed(2)}× | against the parse-only floor (${fmt(median(parseOnly))}) ${(median(gate) / median(parseOnly)).toFixed(2)}×`,
  );
}

// 1 000 attested bundles: the gate with their producer trusted (every sidecar checked) against the
// same corpus without trusted producers, alternately in the same run.
{
  const dir = path.join(tmp, 'attested');
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const keyId = `sha256:${createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')}`;
  writeFileSync(path.join(dir.replace(/attested$/, ''), 'producer.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const producer = { name: 'assay-cli', version: '3.36.0' };
  for (let i = 0; i < 1000; i++) {
    const name = `run-${String(i).padStart(4, '0')}.tar.gz`;
    const b = bundle(dir, 5, { name, runId: `run_${i}`, producer });
    writeFileSync(path.join(dir, 'runs', `${name}.intoto.jsonl`), sidecar(b, producer, privateKey, keyId));
  }
  const base = [
    path.join(root, 'dist/cli.js'),
    'verify',
    '--now',
    NOW,
    '-C',
    dir,
    '--runs',
    'runs',
    '--format',
    'json',
    '--output',
    path.join(dir, 'r.json'),
  ];
  const plain = [];
  const attested = [];
  for (let i = 0; i < repeat; i++) {
    const p = timed(base);
    const a = timed([...base, '--trusted-producer', path.join(dir.replace(/attested$/, ''), 'producer.pub.pem')]);
    if (p.status !== 0 || a.status !== 0) throw new Error(`attested corpus: ${p.stderr}${a.stderr}`);
    const report = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8'));
    if (report.runs.some((r) => !r.producer?.checked)) throw new Error('a bench bundle was not attested');
    plain.push(p.ms);
    attested.push(a.ms);
  }
  console.log(
    `1,000 attested bundles (5 events each), median of ${repeat}: no trusted producers ${fmt(median(plain))} | every sidecar checked ${fmt(median(attested))} | attested/unattested ${(median(attested) / median(plain)).toFixed(2)}×`,
  );
}

// The importer on a 100 000-entry export as `gh api --paginate` writes it (pages of 100, one after
// another), scoped to the agent (half the entries are a human's): entries/s and peak RSS.
{
  const dir = path.join(tmp, 'import');
  mkdirSync(dir, { recursive: true });
  const N = 100_000;
  const pages = [];
  for (let p = 0; p < N / 100; p++) {
    const page = [];
    for (let i = 0; i < 100; i++) {
      const n = p * 100 + i;
      page.push({
        '@timestamp': 1764460800000 + n,
        _document_id: `doc-${n}`,
        action: n % 10 === 9 ? 'repo.create' : 'public_key.create',
        actor: n % 2 ? 'alice' : 'deploy-agent[bot]',
        repo: `acme/repo-${n % 50}`,
        title: `key-${n}`,
        fingerprint: 'SHA256:x',
      });
    }
    pages.push(JSON.stringify(page));
  }
  const file = path.join(dir, 'export.json');
  writeFileSync(file, pages.join(''));
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    rmSync(path.join(dir, 'out.ndjson'), { force: true });
    const r = timed([
      path.join(root, 'dist/cli.js'),
      'import',
      'github-audit-log',
      '--actor',
      'deploy-agent[bot]',
      '--output',
      path.join(dir, 'out.ndjson'),
      file,
    ]);
    if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
    runs.push(r);
  }
  const m = median(runs.map((r) => r.ms));
  console.log(
    `\nimport github-audit-log, ${N.toLocaleString('en')} entries in ${N / 100} concatenated pages (${mb(statSync(file).size)}), --actor (median of ${repeat}): ${fmt(m)} | ${Math.round(N / (m / 1000)).toLocaleString('en')} entries/s | peak RSS ${mb(Math.max(...runs.map((r) => r.rss)))}`,
  );
}

// import-run (gh-aw manifests, OTLP spans) and the provider importers (CloudTrail with and without
// digests, Kubernetes, Okta) at 100 000 entries: bench/import-run.mjs, bench/providers.mjs, on this Node.
for (const script of ['bench/import-run.mjs', 'bench/providers.mjs']) {
  const r = spawnSync(process.execPath, [path.join(root, script), '--repeat', String(repeat)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stderr}`);
  process.stdout.write(r.stdout);
}

// A pull request with the evidence cache (docs/cache.md): 200 calls on the 100 000-call history, the
// default branch's entries restored, against reading every byte: bench/cache.mjs.
{
  const r = spawnSync(process.execPath, [path.join(root, 'bench/cache.mjs'), '--pairs', String(repeat)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/cache.mjs failed: ${r.stderr}`);
  process.stdout.write(r.stdout);
}

// Keyless: 1 000 server logs, each with a <log>.sigstore.json made by mock Sigstore services (a CA,
// a CT log, a transparency log; the trusted root from their keys), the gate with a trusted producer
// identity (every bundle checked against the root) against the same corpus without identities.
// The mocks are bundled here with ncc, as the strict reader is below; the timing is the CLI's.
const keyless = path.join(tmp, 'keyless');
{
  const { code } = await ncc(path.join(root, '__tests__/support/sigstore.ts'), { quiet: true, minify: false });
  mkdirSync(keyless, { recursive: true });
  const mod = path.join(keyless, 'sigstore-mock.mjs');
  writeFileSync(mod, code);
  const { mockSigstore, statementFor } = await import(mod);
  const world = await mockSigstore();
  const runs = path.join(keyless, 'runs');
  mkdirSync(runs, { recursive: true });
  const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';
  serverLog(path.join(keyless, 'gen'), 20);
  const text = readFileSync(path.join(keyless, 'gen/runs/server.log'), 'utf8');
  for (let i = 0; i < 1000; i++) {
    const name = `run-${String(i).padStart(4, '0')}.log`;
    // Distinct bytes per log (its own server_start time), so each bundle binds one file.
    const bytes = Buffer.from(text.replace('10:02:41.90731102Z', `10:02:41.${String(i).padStart(8, '0')}Z`));
    writeFileSync(path.join(runs, name), bytes);
    writeFileSync(path.join(runs, `${name}.sigstore.json`), JSON.stringify(await world.attest(statementFor(name, bytes, RUN_V1, {}))));
  }
  writeFileSync(path.join(keyless, 'root.json'), JSON.stringify(world.trustedRoot));
  const base = [
    path.join(root, 'dist/cli.js'),
    'verify',
    '--now',
    NOW,
    '-C',
    keyless,
    '--runs',
    'runs',
    '--format',
    'json',
    '--output',
    path.join(keyless, 'r.json'),
  ];
  const id = [
    '--trusted-producer-identity',
    'https://github.com/acme/agents/.github/workflows/export.yml@refs/heads/main',
    '--source-repository',
    'acme/agents',
    '--trusted-root',
    'root.json',
  ];
  const plain = [];
  const attested = [];
  for (let i = 0; i < repeat; i++) {
    const p = timed(base);
    const a = timed([...base, ...id]);
    if (a.status !== 0) throw new Error(`keyless corpus: ${a.stderr}`);
    const report = JSON.parse(readFileSync(path.join(keyless, 'r.json'), 'utf8'));
    if (report.runs.some((r) => !r.producer?.identity)) throw new Error('a bench log was not attested by identity');
    plain.push(p.ms);
    attested.push(a.ms);
  }
  console.log(
    `1,000 server logs with keyless attestations (20 lines each), median of ${repeat}: no identities ${fmt(median(plain))} | every bundle checked by identity ${fmt(median(attested))} | attested/unattested ${(median(attested) / median(plain)).toFixed(2)}×`,
  );
}

// Cold start on a one-call corpus.
const one = path.join(tmp, 'one');
mkdirSync(path.join(one, '.assay/runs'), { recursive: true });
copyFileSync(path.join(root, 'fixtures/upstream/side_effect/asserted.json'), path.join(one, '.assay/runs/asserted.json'));
const env = { ...process.env, GITHUB_WORKSPACE: one, RUNNER_TEMP: tmp, GITHUB_OUTPUT: path.join(tmp, 'out'), 'INPUT_GITHUB-TOKEN': '' };
writeFileSync(env.GITHUB_OUTPUT, '');
const cold = (args, e) => {
  const xs = [];
  for (let i = 0; i < 11; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, args, { cwd: one, env: e, encoding: 'utf8' });
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
};
const bare = cold(['-e', '0'], process.env);
console.log(
  `\ncold start, one-call corpus (median of 11): node -e 0 ${fmt(bare)} | dist/cli.js ${fmt(cold([path.join(root, 'dist/cli.js'), 'verify'], process.env))} | dist/index.js ${fmt(cold([path.join(root, 'dist/index.js')], env))}`,
);
// With an identity configured the Sigstore code and the trusted root are loaded (a one-call corpus, the public-good root).
const identity = [
  '--trusted-producer-identity',
  'https://github.com/acme/agents/.github/workflows/x.yml@refs/heads/main',
  '--source-repository',
  'acme/agents',
];
console.log(
  `cold start with a trusted identity (median of 11): dist/cli.js ${fmt(cold([path.join(root, 'dist/cli.js'), 'verify', ...identity], process.env))} (without: the line above)`,
);

// The whole action against a minimal @actions/core + @actions/github action: bench/cold-start.mjs.
{
  const r = spawnSync(process.execPath, [path.join(root, 'bench/cold-start.mjs')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/cold-start.mjs failed: ${r.stderr}`);
  process.stdout.write(r.stdout);
}

// The strict reader against JSON.parse on the same bytes (and jsonc-parser's visit()).
const out = path.join(tmp, 'strict');
// The strict reader is two modules (read/json/strict.ts, read/json/scanner.ts): one entry bundles both.
const entry = path.join(root, 'bench', '.strict-entry.ts');
writeFileSync(entry, "export { parseStrict } from '../src/read/json/strict.js';\nexport { scan } from '../src/read/json/scanner.js';\n");
let code;
try {
  ({ code } = await ncc(entry, { quiet: true, minify: false }));
} finally {
  rmSync(entry, { force: true });
}
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'strict.mjs'), code);
const big = path.join(tmp, 'big');
generate(big, 8000, 7);
const decisions = readdirSync(path.join(big, 'runs'))
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => JSON.parse(readFileSync(path.join(big, 'runs', f), 'utf8')).observed_tool_decisions);
const sample = path.join(tmp, 'sample.json');
writeFileSync(sample, JSON.stringify({ schema: 'assay.tool_decision_surface.v0', observed_tool_decisions: decisions }, null, 2));
const sr = spawnSync(process.execPath, [path.join(root, 'bench/strict.mjs'), path.join(out, 'strict.mjs'), sample], {
  cwd: root,
  encoding: 'utf8',
});
if (sr.status !== 0) throw new Error(sr.stderr);
const t = JSON.parse(sr.stdout);
console.log(
  `\nstrict reader on ${mb(statSync(sample).size)} of pretty JSON (fresh process, median of 21): JSON.parse ${t.parse.toFixed(1)} ms | strict reader (JSON.parse + trusted scan) ${t.strict.toFixed(1)} ms = ${(t.strict / t.parse).toFixed(2)}× JSON.parse | full validating scan alone (error path) ${(t.full / t.parse).toFixed(2)}× | jsonc-parser visit() alone ${(t.jsonc / t.parse).toFixed(2)}×`,
);
rmSync(tmp, { recursive: true, force: true });
