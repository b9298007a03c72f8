/**
 * Running a recipe of examples/ as a runner would: its `run:` steps, exactly as committed, with
 * `${{ … }}` expressions replaced by values the test gives (an expression it does not give fails the
 * test), GITHUB_ENV carried from step to step, in a git repository with an `origin`, the CLI the
 * recipe checks out beside it, and `gh` replaced by a script that answers from recorded outputs and
 * logs every call. Linux only: the recipes run on ubuntu-latest (bash, GNU date).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { distFile, ROOT, tempDir } from './workspace.js';

export interface Step {
  readonly name?: string;
  readonly if?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, string>;
}

/** A recipe's parsed workflow. */
export function workflowOf(file: string): {
  readonly on: unknown;
  readonly permissions?: Record<string, string>;
  readonly jobs: Record<string, { readonly steps: readonly Step[]; readonly permissions?: Record<string, string> }>;
} {
  return parseYaml(readFileSync(path.join(ROOT, file), 'utf8'));
}

/** The steps of one job of a recipe. */
export function stepsOf(file: string, job: string): readonly Step[] {
  const steps = workflowOf(file).jobs[job]?.steps;
  if (!steps) throw new Error(`${file} has no job ${job}`);
  return steps;
}

const sh = (cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string => {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
export const git = (repo: string, ...args: string[]): string =>
  sh('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], repo).trim();

/** Commit everything in the repository and push it to origin's main. */
export function commitAll(repo: string, message: string): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', message);
  git(repo, 'push', '-q', 'origin', 'HEAD:main');
}

export interface World {
  readonly root: string;
  /** The checkout the steps run in (branch main, origin a bare repository beside it). */
  readonly repo: string;
  readonly temp: string;
  readonly bin: string;
  /** Every `gh` call, one line each. */
  readonly ghLog: string;
  /** Branches of pull requests opened and not merged, one per line. */
  readonly ghOpen: string;
}

/**
 * A world: the repository with origin, RUNNER_TEMP, the CLI at .receipt-gate/dist, and a fake `gh`:
 * `gh api … PATH` prints $FAKE_GH_ROUTES/<PATH with / ? & = as _> when that directory is set, else
 * $FAKE_GH_OUTPUT; `gh pr create --head B` and `gh pr view B` keep B open until merged; `gh pr
 * merge` is logged; `gh attestation download FILE` writes `<digest>.jsonl` from $FAKE_GH_BUNDLE, `gh attestation trusted-root` prints $FAKE_GH_ROOT. A
 * fake `curl` prints $FAKE_CURL_DIR/<cursor>.json for a URL with `cursor=<cursor>`, else
 * $FAKE_CURL_DIR/first.json. Anything else exits 3 (a call the recipe makes that the test does not know).
 */
export function world(): World {
  const root = tempDir();
  const origin = path.join(root, 'origin.git');
  const repo = path.join(root, 'repo');
  const temp = path.join(root, 'runner-temp');
  const bin = path.join(root, 'bin');
  for (const d of [repo, temp, bin]) mkdirSync(d, { recursive: true });
  sh('git', ['init', '-q', '--bare', '-b', 'main', origin], root);
  sh('git', ['init', '-q', '-b', 'main', repo], root);
  sh('git', ['remote', 'add', 'origin', origin], repo);
  mkdirSync(path.join(repo, '.receipt-gate'));
  symlinkSync(path.dirname(distFile('cli.js')), path.join(repo, '.receipt-gate', 'dist'));
  writeFileSync(path.join(repo, '.gitignore'), '.receipt-gate/\n');
  const ghLog = path.join(root, 'gh.log');
  const ghOpen = path.join(root, 'open-pull-requests');
  writeFileSync(ghLog, '');
  writeFileSync(ghOpen, '');
  writeFileSync(
    path.join(bin, 'gh'),
    [
      '#!/usr/bin/env bash',
      'printf "%s\\n" "$*" >> "$FAKE_GH_LOG"',
      'if [ "$1" = api ]; then path="${@: -1}"; if [ -n "${FAKE_GH_ROUTES:-}" ]; then cat "$FAKE_GH_ROUTES/$(printf "%s" "$path" | tr "/?&=" "____")"; else cat "$FAKE_GH_OUTPUT"; fi; exit $?; fi',
      'if [ "$1 $2" = "pr merge" ]; then exit 0; fi',
      'if [ "$1 $2" = "pr view" ]; then if grep -qx -- "$3" "$FAKE_GH_OPEN" 2>/dev/null; then echo OPEN; exit 0; fi; echo "no pull requests found for branch $3" >&2; exit 1; fi',
      'if [ "$1 $2" = "pr create" ]; then printf "%s\\n" "$4" >> "$FAKE_GH_OPEN"; exit 0; fi',
      'if [ "$1 $2" = "attestation download" ]; then cp "$FAKE_GH_BUNDLE" "sha256:$(sha256sum "$3" | cut -d" " -f1).jsonl"; exit 0; fi',
      'if [ "$1 $2" = "attestation trusted-root" ]; then cat "$FAKE_GH_ROOT"; exit 0; fi',
      'if [ "$1 $2" = "run download" ]; then while [ $# -gt 0 ]; do if [ "$1" = --dir ]; then dir="$2"; fi; shift; done; if [ -z "${FAKE_GH_ARTIFACT:-}" ]; then echo "no artifact found" >&2; exit 1; fi; mkdir -p "$dir"; cp -R "$FAKE_GH_ARTIFACT"/. "$dir"; exit 0; fi',
      'exit 3',
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'gh'), 0o755);
  writeFileSync(
    path.join(bin, 'curl'),
    [
      '#!/usr/bin/env bash',
      'url="${@: -1}"',
      'printf "curl %s\\n" "$url" >> "$FAKE_GH_LOG"',
      'case "$url" in *cursor=*) c="${url##*cursor=}"; cat "$FAKE_CURL_DIR/${c%%&*}.json";; *) cat "$FAKE_CURL_DIR/first.json";; esac',
    ].join('\n'),
  );
  chmodSync(path.join(bin, 'curl'), 0o755);
  return { root, repo, temp, bin, ghLog, ghOpen };
}

/** `${{ name }}` → the test's value; one the test does not give fails it. */
function expressions(values: Readonly<Record<string, string>>): (text: string) => string {
  return (text) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`the recipe uses \${{ ${name} }}, which this test does not provide`);
      return value;
    });
}

export interface StepsRun {
  /** GITHUB_ENV as the last step left it. */
  readonly carried: Record<string, string>;
  /** Each step's output, by name. */
  readonly outputs: ReadonlyMap<string, string>;
}

/**
 * The run steps in order, as the runner runs them: `bash -e -c`, in the checkout, the step's env
 * (expressions replaced), GITHUB_ENV carried. A step whose `if` the test's `holds` says false is skipped.
 */
export function runSteps(
  w: World,
  steps: readonly Step[],
  values: Readonly<Record<string, string>>,
  options: { readonly env?: NodeJS.ProcessEnv; readonly holds?: (condition: string, carried: Record<string, string>) => boolean } = {},
): StepsRun {
  const expr = expressions(values);
  const githubEnv = path.join(w.temp, `github-env-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  writeFileSync(githubEnv, '');
  let carried: Record<string, string> = {};
  const outputs = new Map<string, string>();
  for (const step of steps) {
    if (step.run === undefined) continue;
    if (step.if !== undefined) {
      if (!options.holds) throw new Error(`the recipe's condition ${step.if} is not one this test evaluates`);
      if (!options.holds(step.if, carried)) continue;
    }
    const env: NodeJS.ProcessEnv = {
      PATH: `${w.bin}:${process.env['PATH'] ?? ''}`,
      HOME: w.root,
      RUNNER_TEMP: w.temp,
      GITHUB_ENV: githubEnv,
      GITHUB_REPOSITORY: 'acme/agents',
      GITHUB_REF_NAME: 'main',
      GIT_CONFIG_NOSYSTEM: '1',
      FAKE_GH_LOG: w.ghLog,
      FAKE_GH_OPEN: w.ghOpen,
      ...options.env,
      ...carried,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(String(v))])),
    };
    const r = spawnSync('bash', ['-e', '-c', expr(step.run)], { cwd: w.repo, env, encoding: 'utf8' });
    expect(r.status, `${step.name ?? 'a step'}: ${r.stderr}${r.stdout}`).toBe(0);
    outputs.set(step.name ?? '', `${r.stdout}${r.stderr}`);
    carried = Object.fromEntries(
      readFileSync(githubEnv, 'utf8')
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
  }
  return { carried, outputs };
}

/** "Merge" an opened pull request's branch into main (fast-forward or a merge commit), and close it. */
export function merge(w: World, branch: string): void {
  git(w.repo, 'switch', '-q', 'main');
  git(w.repo, 'merge', '-q', '--no-edit', branch);
  git(w.repo, 'push', '-q', 'origin', 'main');
  writeFileSync(w.ghOpen, readFileSync(w.ghOpen, 'utf8').replace(`${branch}\n`, ''));
}

/** The CLI (dist/cli.js) as a process: its exit code and output. */
export function receiptGate(args: readonly string[], cwd: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [distFile('cli.js'), ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
