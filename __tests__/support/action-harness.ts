/**
 * Runs the action as the Actions runner does: INPUT_* variables, GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, an event payload at GITHUB_EVENT_PATH, and GITHUB_API_URL pointing at
 * a real HTTP server on 127.0.0.1 that records every request. By default in this process, through
 * the action's exported `run()` with the real @actions/core (its stdout captured, the environment
 * swapped for the run's); with `spawn` (or a `bundle` or a `proxy`, which only a fresh process
 * reads), dist/index.js as a real process.
 */

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import path from 'node:path';
import { DEFAULTS } from '../../src/gate/settings/defaults.js';
import { distFile, TEST_NOW, tempDir } from './workspace.js';

interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
}

/** An answer: `body` as JSON, or `text` sent as it is (JSON that JSON.stringify cannot write, e.g. an int64 id). */
export type Responder = (req: Recorded, n: number) => { status: number; body: unknown; text?: string; headers?: Record<string, string> };

const okResponder: Responder = (req) =>
  req.method === 'POST'
    ? { status: 201, body: { id: 4242, html_url: 'https://github.com/acme/agents/runs/4242' } }
    : { status: 200, body: { id: Number(req.url.split('/').pop()) } };
export const forbidden: Responder = () => ({ status: 403, body: { message: 'Resource not accessible by integration' } });

export interface ActionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly requests: readonly Recorded[];
  /** Connections the forward proxy saw (with `proxy`). */
  readonly proxied: number;
  /** Requests to the contents API (the base's files). */
  readonly contentRequests: readonly Recorded[];
  readonly outputs: Record<string, string>;
  readonly summary: string;
}

function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

export interface RunOptions {
  readonly workspace: string;
  readonly inputs?: Record<string, string>;
  readonly event?: { name: string; payload: unknown };
  readonly responder?: Responder;
  readonly token?: string;
  readonly env?: Record<string, string>;
  /** Route the API through a forward proxy on loopback (HTTPS_PROXY / HTTP_PROXY); its hits are counted. */
  readonly proxy?: boolean;
  /** The action bundle to run (default: dist/index.js); spawns a process. */
  readonly bundle?: string;
  /** Run dist/index.js as a real process (as the runner does) rather than `run()` in this one. */
  readonly spawn?: boolean;
  /** Files at the pull request's base, for the contents API (path → text; absent: 404). */
  readonly base?: Record<string, string>;
  /** The contents API's answer instead (a status, e.g. 403 or 500). */
  readonly contentsStatus?: number;
  /** The contents API's answer for a file of the base, as GitHub might send it (default: the file, base64). */
  readonly contentsBody?: (file: string, text: string) => unknown;
  /** The answer to "does the base commit exist" (default 200; 404: no such commit, wrong repository, no access). */
  readonly commitStatus?: number;
  /** Paths of `base` that are symbolic links at the base (the contents API answers with the target). */
  readonly links?: readonly string[];
  readonly linkTargets?: Record<string, string>;
  /** The base tree's answer says GitHub cut it (a tree too large for one answer). */
  readonly treeTruncated?: boolean;
  /** The base tree's answer instead (a status, e.g. 500), whatever the commit's. */
  readonly treeStatus?: number;
  /** The answer to a folder listing at the base (the root, .github, .github/receipt-gate) instead of the files' (a status, e.g. 500). */
  readonly listingStatus?: number;
  /** The answer to each folder listing at the base, by folder ('' for the root), when `listingStatus` is not given. */
  readonly listing?: (folder: string) => { readonly status: number; readonly body: unknown };
  /** The clock of an in-process run (default: a fixed time, so reports compare byte for byte). */
  readonly now?: Date;
}

/** `run()` of src/action/main.ts in this process, with exactly `env` as its environment; its stdout and exit code. */
async function inProcess(env: Record<string, string>, cwd: string, now: Date): Promise<{ code: number; stdout: string }> {
  const { run } = await import('../../src/action/main.js');
  const core = await import('@actions/core');
  // The toolkit's job summary is one object per process that keeps the first run's file path: forget it.
  Object.assign(core.summary, { _filePath: undefined });
  core.summary.emptyBuffer();
  const saved = { ...process.env };
  const savedCode = process.exitCode;
  const write = process.stdout.write.bind(process.stdout);
  let stdout = '';
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  process.exitCode = undefined;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    await run(undefined, process.env, cwd, () => now);
    return { code: Number(process.exitCode ?? 0), stdout };
  } finally {
    process.stdout.write = write;
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
    process.exitCode = savedCode;
  }
}

/**
 * The workspace as actions/checkout leaves it: a clone at one commit holding every file in it. Its
 * commit id, for GITHUB_SHA (a verdict names that commit only when the checkout is it).
 */
export function checkout(ws: string): string {
  const git = (...args: string[]): string => {
    const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], {
      cwd: ws,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout.trim();
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'checkout', '--allow-empty');
  return git('rev-parse', 'HEAD');
}

export const HEAD_SHA = 'a'.repeat(40);
export const MERGE_SHA = 'b'.repeat(40);
export const BASE_SHA = 'c'.repeat(40);
const prEvent = { name: 'pull_request', payload: { pull_request: { number: 7, head: { sha: HEAD_SHA }, base: { sha: BASE_SHA } } } };

export async function runAction(o: RunOptions): Promise<ActionRun> {
  const requests: Recorded[] = [];
  const contentRequests: Recorded[] = [];
  const responder = o.responder ?? okResponder;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : null };
      // The contents API (the base's policy and trust files) answers from `base`; the rest is the test's responder.
      const contents = /^\/repos\/[^/]+\/[^/]+\/contents\/([^?]+)\?ref=([0-9a-f]+)$/.exec(rec.url);
      // The base read's other questions: does the commit exist (after a 404), and the commit's tree (near-miss policy paths).
      const commit = /^\/repos\/[^/]+\/[^/]+\/git\/commits\/([0-9a-f]+)$/.exec(rec.url);
      const tree = /^\/repos\/[^/]+\/[^/]+\/git\/trees\/([0-9a-f]+)\?recursive=1$/.exec(rec.url);
      const listing = /^\/repos\/[^/]+\/[^/]+\/contents\/(|\.github|\.github\/receipt-gate)\?ref=([0-9a-f]+)$/.exec(rec.url);
      if (listing && o.listingStatus !== undefined) {
        contentRequests.push(rec);
        res.writeHead(o.listingStatus, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'Server Error' }));
        return;
      }
      if (listing && o.listing) {
        contentRequests.push(rec);
        const answer = o.listing(listing[1] ?? '');
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
        return;
      }
      if (commit || tree) {
        contentRequests.push(rec);
        const status = (tree ? o.treeStatus : undefined) ?? o.commitStatus ?? o.contentsStatus ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            status !== 200
              ? { message: status === 404 ? `No commit found for SHA: ${(commit ?? tree)?.[1]}` : 'Resource not accessible by integration' }
              : commit
                ? { sha: commit[1] }
                : {
                    sha: tree?.[1],
                    truncated: o.treeTruncated ?? false,
                    tree: Object.entries(o.base ?? {}).map(([p, text]) => ({
                      path: p,
                      mode: o.links?.includes(p) ? '120000' : '100644',
                      type: 'blob',
                      sha: createHash('sha1')
                        .update(`blob ${Buffer.byteLength(text)}\0`)
                        .update(text)
                        .digest('hex'),
                      size: Buffer.byteLength(text),
                    })),
                  },
          ),
        );
        return;
      }
      if (contents) {
        contentRequests.push(rec);
        const file = decodeURIComponent(contents[1] ?? '');
        // A link whose target is a file: GitHub answers with the target's content and path.
        const target = o.links?.includes(file) ? (o.linkTargets?.[file] ?? `${file}.target`) : file;
        const text = o.base?.[file];
        const status = o.contentsStatus ?? (text === undefined ? 404 : 200);
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            status === 200 && text !== undefined
              ? (o.contentsBody?.(file, text) ?? {
                  type: 'file',
                  encoding: 'base64',
                  path: target,
                  content: Buffer.from(text).toString('base64'),
                })
              : { message: status === 404 ? 'Not Found' : 'Resource not accessible by integration' },
          ),
        );
        return;
      }
      requests.push(rec);
      const r = responder(rec, requests.length);
      res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
      res.end(r.text ?? JSON.stringify(r.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // A forward proxy on loopback: CONNECT tunnels and absolute-form requests both go to the API server,
  // whatever host the client asked for (it never resolves a name itself).
  let proxied = 0;
  const proxy = createServer((req, res) => {
    proxied++;
    const up = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: new URL(req.url ?? '/', 'http://x').pathname, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  proxy.on('connect', (_req, socket, head) => {
    proxied++;
    const up = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  if (o.proxy) await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = o.proxy ? `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` : '';
  const tmp = tempDir();
  const files = { output: path.join(tmp, 'output'), summary: path.join(tmp, 'summary.md'), event: path.join(tmp, 'event.json') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  const event = o.event ?? prEvent;
  // GitHub's payloads name the repository (its default branch) on every event but a schedule: a payload a test gives without one gets it.
  const payload =
    event.name !== 'schedule' && typeof event.payload === 'object' && event.payload !== null && !('repository' in event.payload)
      ? { ...event.payload, repository: { default_branch: 'main' } }
      : event.payload;
  writeFileSync(files.event, JSON.stringify(payload));
  mkdirSync(path.join(tmp, 'runner-temp'));
  // What the runner does: every input gets action.yml's default (the settings table, which a test
  // keeps equal to action.yml) unless the workflow sets it.
  const inputs: Record<string, string> = {
    ...DEFAULTS,
    'github-token': o.token ?? 'ghs_test_token',
    ...o.inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_REPOSITORY: 'acme/agents',
    GITHUB_SHA: MERGE_SHA,
    GITHUB_EVENT_NAME: event.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_API_URL: o.proxy ? `http://api.github.test:${port}` : `http://127.0.0.1:${port}`,
    ...(o.proxy ? { HTTPS_PROXY: proxyUrl, HTTP_PROXY: proxyUrl, https_proxy: proxyUrl, http_proxy: proxyUrl } : {}),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    RUNNER_TEMP: path.join(tmp, 'runner-temp'),
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...o.env,
  };
  let stdout = '';
  let stderr = '';
  let code: number | null;
  if (o.spawn || o.bundle || o.proxy) {
    const child = spawn(process.execPath, [o.bundle ?? distFile('index.js')], { cwd: o.workspace, env });
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  } else {
    ({ code, stdout } = await inProcess(env, o.workspace, o.now ?? TEST_NOW));
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (o.proxy) await new Promise<void>((resolve) => proxy.close(() => resolve()));
  return {
    code,
    stdout,
    stderr,
    requests,
    contentRequests,
    proxied,
    outputs: parseOutputs(readFileSync(files.output, 'utf8')),
    summary: existsSync(files.summary) ? readFileSync(files.summary, 'utf8') : '',
  };
}
