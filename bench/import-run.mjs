// `receipt-gate import-run` at 100 000 lines (issue 43's bench row): a gh-aw safe-outputs manifest of
// 100 000 items (every type the built-in mapping knows, a label line adding two labels) and an OTLP
// file of 100 000 execute_tool spans (1 000 exporter batches of 100, through the GitHub MCP server
// mapping). Lines (spans) per second and peak RSS, median of --repeat; the target is ≥ 30 000/s.
// Runs alone (`node bench/import-run.mjs`) or from bench/bench.mjs.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MiB, median, timedNode } from './timing.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const repeat = Number(values.repeat);
const tmp = mkdtempSync(path.join(tmpdir(), 'receipt-gate-bench-import-run-'));
const N = 100_000;

function timed(args) {
  const r = timedNode(args, tmp);
  if (r.status !== 0) throw new Error(`import-run failed: ${r.stderr}`);
  return r;
}

function row(name, args, what, file) {
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    rmSync(path.join(tmp, 'out.ndjson'), { force: true });
    runs.push(timed([path.join(root, 'dist/cli.js'), 'import-run', name, ...args, '--output', path.join(tmp, 'out.ndjson'), file]));
  }
  const ms = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rss));
  console.log(
    `import-run ${name}, ${N.toLocaleString('en')} ${what} (${(statSync(file).size / MiB).toFixed(1)} MiB), median of ${repeat}: ${(ms / 1000).toFixed(2)} s | ${Math.round(N / (ms / 1000)).toLocaleString('en')} ${what}/s | peak RSS ${(rss / MiB).toFixed(1)} MiB`,
  );
}

try {
  mkdirSync(tmp, { recursive: true });
  const stamp = (n) => new Date(Date.UTC(2026, 10, 30) + n * 1000).toISOString();
  const types = [
    (n) => ({
      type: 'create_issue',
      url: `https://github.com/acme/api/issues/${n}`,
      number: n,
      repo: 'acme/api',
      provider: 'github',
      id: 2e9 + n,
    }),
    (n) => ({
      type: 'add_comment',
      url: `https://github.com/acme/api/issues/${n}#issuecomment-${3e9 + n}`,
      number: n,
      repo: 'acme/api',
      id: 3e9 + n,
    }),
    (n) => ({ type: 'add_labels', number: n, repo: 'acme/api', labelsAdded: ['bug', 'triage'] }),
    (n) => ({ type: 'create_pull_request', url: `https://github.com/acme/api/pull/${n}`, number: n, repo: 'acme/api' }),
    (n) => ({ type: 'close_issue', url: `https://github.com/acme/api/issues/${n}`, number: n }),
  ];
  const manifest = [];
  for (let n = 1; n <= N; n++) manifest.push(JSON.stringify({ ...types[n % types.length](n), timestamp: stamp(n) }));
  const items = path.join(tmp, 'safe-output-items.jsonl');
  writeFileSync(items, `${manifest.join('\n')}\n`);
  row('gh-aw-manifest', [], 'lines', items);

  const attr = (key, v) => ({ key, value: { stringValue: v } });
  const lines = [];
  for (let b = 0; b < N / 100; b++) {
    const spans = [];
    for (let i = 0; i < 100; i++) {
      const n = b * 100 + i + 1;
      const end = BigInt(Date.UTC(2026, 10, 30)) * 1_000_000n + BigInt(n) * 1_000_000_000n;
      spans.push({
        traceId: n.toString(16).padStart(32, '0'),
        spanId: n.toString(16).padStart(16, '0'),
        name: 'execute_tool create_issue',
        kind: 1,
        startTimeUnixNano: String(end - 250_000_000n),
        endTimeUnixNano: String(end),
        attributes: [
          attr('gen_ai.operation.name', 'execute_tool'),
          attr('gen_ai.tool.name', n % 4 === 0 ? 'get_issue' : 'create_issue'),
          attr('gen_ai.tool.call.id', `call_${n}`),
          attr('gen_ai.tool.call.arguments', JSON.stringify({ owner: 'acme', repo: 'web', title: `Issue ${n}` })),
          attr('gen_ai.tool.call.result', JSON.stringify({ id: String(3e9 + n), url: `https://github.com/acme/web/issues/${n}` })),
        ],
        status: {},
      });
    }
    lines.push(
      JSON.stringify({
        resourceSpans: [{ resource: { attributes: [attr('service.name', 'agent')] }, scopeSpans: [{ scope: { name: 'agent' }, spans }] }],
      }),
    );
  }
  const spans = path.join(tmp, 'spans.jsonl');
  writeFileSync(spans, `${lines.join('\n')}\n`);
  row('otlp-json', ['--map', path.join(root, 'examples/mappings/github-mcp-server.yml'), '--max-file-size', '128MiB'], 'spans', spans);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
