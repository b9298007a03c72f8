/**
 * GitHub's Actions cache service (v2: Twirp JSON at ACTIONS_RESULTS_URL, archives uploaded as Azure
 * block blobs to a signed URL and downloaded from another), on 127.0.0.1, matching keys as GitHub
 * documents it (own scope first, exact then prefix); and the REST list of a repository's caches (`GET /repos/O/R/actions/caches`), answered from
 * the same store. Each saved archive is kept with the ref of the run that saved it (`ref`), as GitHub
 * scopes caches.
 */

import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Responder } from './action-harness.js';
import { tempDir } from './workspace.js';

interface Saved {
  readonly key: string;
  readonly version: string;
  readonly ref: string;
  bytes: Buffer | null;
  readonly created: number;
}

export interface CacheServer {
  /** ACTIONS_RESULTS_URL for a run, and the rest of the environment @actions/cache needs. */
  env(ref: string): Record<string, string>;
  /** Every archive saved, oldest first. */
  readonly saved: Saved[];
  /** Answers GitHub's list of caches (the action's check of where a restored key was saved); anything else: 404. */
  readonly listing: Responder;
  /** Called when an archive is asked for (a test plants another meanwhile). */
  onRestore: (() => void) | null;
  close(): Promise<void>;
}

const TWIRP = '/twirp/github.actions.results.api.v1.CacheService/';

export async function cacheServer(): Promise<CacheServer> {
  const saved: Saved[] = [];
  // One runner temp folder for every run, as on a hosted runner: the cache's version names the paths it holds.
  const runnerTemp = mkdirSync(path.join(tempDir(), 'runner-temp'), { recursive: true }) ?? '';
  let ref = 'refs/heads/main';
  let port = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const json = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && url.pathname.startsWith(TWIRP)) {
        const body = JSON.parse(raw.toString('utf8')) as { key: string; version: string; restore_keys?: string[] };
        const method = url.pathname.slice(TWIRP.length);
        if (method === 'GetCacheEntryDownloadURL') {
          self.onRestore?.();
          // As GitHub restores: the run's own scope first, then the default branch's; in each, the
          // primary key exactly, then any key it begins (newest first), then the restore keys.
          const scopes = [ref, 'refs/heads/main'];
          const newest = [...saved].reverse().filter((s) => s.version === body.version && s.bytes !== null);
          for (const scope of scopes) {
            const here = newest.filter((s) => s.ref === scope);
            const hit =
              here.find((s) => s.key === body.key) ??
              here.find((s) => s.key.startsWith(body.key)) ??
              (body.restore_keys ?? []).map((k) => here.find((s) => s.key.startsWith(k))).find((s) => s !== undefined);
            if (hit)
              return json(200, {
                ok: true,
                signed_download_url: `http://127.0.0.1:${port}/download/${saved.indexOf(hit)}`,
                matched_key: hit.key,
              });
          }
          return json(200, { ok: false, signed_download_url: '', matched_key: '' });
        }
        if (method === 'CreateCacheEntry') {
          if (saved.some((s) => s.key === body.key && s.ref === ref))
            return json(409, { code: 'already_exists', msg: 'cache entry already exists' });
          saved.push({ key: body.key, version: body.version, ref, bytes: null, created: saved.length });
          return json(200, {
            ok: true,
            signed_upload_url: `http://127.0.0.1:${port}/devstoreaccount1/actions-cache/${saved.length - 1}?sig=test`,
          });
        }
        if (method === 'FinalizeCacheEntryUpload') return json(200, { ok: true, entry_id: String(saved.length) });
        return json(404, { code: 'bad_route', msg: method });
      }
      const upload = /^\/devstoreaccount1\/actions-cache\/(\d+)$/.exec(url.pathname);
      if (req.method === 'PUT' && upload) {
        const entry = saved[Number(upload[1])];
        if (!entry) return json(404, {});
        entry.bytes = raw;
        res.writeHead(201, {
          etag: '"0x1"',
          'last-modified': new Date(0).toUTCString(),
          'x-ms-request-id': 'test',
          'x-ms-version': '2025-05-05',
          'x-ms-request-server-encrypted': 'true',
        });
        return res.end();
      }
      const download = /^\/download\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && download) {
        const bytes = saved[Number(download[1])]?.bytes;
        if (!bytes) return json(404, {});
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) });
        return res.end(bytes);
      }
      return json(404, { message: `no route ${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const self: CacheServer = {
    onRestore: null,
    saved,
    env(runRef) {
      ref = runRef;
      return {
        ACTIONS_RESULTS_URL: `http://127.0.0.1:${port}/`,
        ACTIONS_CACHE_SERVICE_V2: 'True',
        GITHUB_WORKFLOW_REF: 'acme/agents/.github/workflows/receipts.yml@' + runRef,
        GITHUB_JOB: 'receipts',
        RUNNER_OS: 'Linux',
        ACTIONS_RUNTIME_TOKEN: 'test-runtime-token',
        GITHUB_REF: runRef,
        RUNNER_TEMP: runnerTemp,
      };
    },
    listing: (req) => {
      const url = new URL(req.url, 'http://127.0.0.1');
      const key = url.searchParams.get('key');
      if (req.method !== 'GET' || url.pathname !== '/repos/acme/agents/actions/caches' || key === null)
        return { status: 404, body: { message: 'Not Found' } };
      const onRef = url.searchParams.get('ref');
      // Newest first, as sort=created_at&direction=desc asks.
      const list = [...saved].reverse().filter((s) => s.bytes !== null && s.key.startsWith(key) && (onRef === null || s.ref === onRef));
      return {
        status: 200,
        body: { total_count: list.length, actions_caches: list.map((s, id) => ({ id, ref: s.ref, key: s.key, version: s.version })) },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return self;
}
