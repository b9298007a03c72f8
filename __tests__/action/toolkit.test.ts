/**
 * The lazy toolkit (src/action/toolkit.ts) speaks the runner protocol byte for byte as
 * @actions/core does: each call's stdout, the outputs file (the random delimiter aside) and the job
 * summary, for the same calls, compared with @actions/core's own; and it loads no HTTP stack.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as actionsCore from '@actions/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type Core, lazyCore } from '../../src/action/toolkit.js';
import { ROOT } from '../support/workspace.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** What a sequence of calls writes through `core`: stdout, the outputs file (delimiters made one), the summary file, the exit code. */
async function written(
  core: Core,
  calls: (core: Core) => Promise<void> | void,
): Promise<{ stdout: string; output: string; summary: string; exitCode: unknown }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolkit-'));
  dirs.push(dir);
  const output = path.join(dir, 'output');
  const summary = path.join(dir, 'summary');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const saved = {
    out: process.env['GITHUB_OUTPUT'],
    sum: process.env['GITHUB_STEP_SUMMARY'],
    input: process.env['INPUT_SOME_INPUT'],
    code: process.exitCode,
  };
  process.env['GITHUB_OUTPUT'] = output;
  process.env['GITHUB_STEP_SUMMARY'] = summary;
  process.env['INPUT_SOME_INPUT'] = '  spaced value  ';
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  let exitCode: unknown;
  try {
    await calls(core);
    exitCode = process.exitCode;
  } finally {
    process.stdout.write = write;
    process.exitCode = saved.code;
    for (const [k, v] of [
      ['GITHUB_OUTPUT', saved.out],
      ['GITHUB_STEP_SUMMARY', saved.sum],
      ['INPUT_SOME_INPUT', saved.input],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  return {
    stdout: chunks.join(''),
    output: readFileSync(output, 'utf8').replace(/ghadelimiter_[0-9a-f-]+/g, 'ghadelimiter_X'),
    summary: readFileSync(summary, 'utf8'),
    exitCode,
  };
}

describe('the lazy toolkit writes what @actions/core writes', () => {
  it('inputs, outputs, annotations with every property, escaping, info, debug, the summary and a failure', async () => {
    const calls = async (core: Core) => {
      core.info(
        `input: [${core.getInput('some input')}] [${core.getInput('some input', { trimWhitespace: false })}] [${core.getInput('absent')}]`,
      );
      core.setOutput('result', 'pass');
      core.setOutput('calls', 12);
      core.setOutput('multi', 'a\nb\r\n%');
      core.error('a 100% error\nsecond line', {
        title: 'T: a, b',
        file: 'runs/a,b.json',
        startLine: 3,
        endLine: 4,
        startColumn: 5,
        endColumn: 6,
      });
      core.warning(new Error('an error object'));
      core.notice('plain', { file: 'x.json' });
      core.debug('debug %0A literal');
      await core.summary.addRaw('## Summary\n').addRaw('line', true).write();
      core.setFailed('receipt-gate: the gate failed');
    };
    const ours = await written(lazyCore(), calls);
    const theirs = await written(actionsCore, calls);
    expect(ours).toEqual(theirs);
    expect(ours.exitCode).toBe(1);
    expect(ours.stdout).toContain(
      '::error title=T%3A a%2C b,file=runs/a%2Cb.json,line=3,endLine=4,col=5,endColumn=6::a 100%25 error%0Asecond line',
    );
  });

  it('info makes runner commands in evidence text inert (where @actions/core would pass them on: a red team)', async () => {
    const ours = await written(lazyCore(), async (core) => core.info('read runs/x ##[add-mask]acme.json\n::error::forged'));
    expect(ours.stdout).toBe('read runs/x \\u0023#[add-mask]acme.json\n\\u003a:error::forged\n');
  });

  it('a missing outputs file and a missing summary fail with @actions/core’s words', async () => {
    const core = lazyCore();
    const saved = process.env['GITHUB_OUTPUT'];
    process.env['GITHUB_OUTPUT'] = '/nonexistent/receipt-gate/output';
    try {
      expect(() => core.setOutput('a', 'b')).toThrow('Missing file at path: /nonexistent/receipt-gate/output');
      expect(() => actionsCore.setOutput('a', 'b')).toThrow('Missing file at path: /nonexistent/receipt-gate/output');
    } finally {
      if (saved === undefined) delete process.env['GITHUB_OUTPUT'];
      else process.env['GITHUB_OUTPUT'] = saved;
    }
  });

  it('the bundled action loads no HTTP client without a token: @actions/core is not in dist/index.js’s first chunk', () => {
    const bundle = readFileSync(path.join(ROOT, 'dist/index.js'), 'utf8');
    // @actions/core's own functions and its HTTP client's classes (all in the bundle before the lazy toolkit).
    expect(bundle).not.toMatch(/function issueFileCommand|class HttpClient\b|HttpClientError/);
  });
});
