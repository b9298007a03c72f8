/**
 * The runner protocol the action speaks, without @actions/core's HTTP stack (undici and
 * http-client, which it loads at import even with no token): inputs from `INPUT_*`, outputs appended
 * to `GITHUB_OUTPUT` as @actions/core writes them (`name<<ghadelimiter_UUID`), the job summary
 * appended to `GITHUB_STEP_SUMMARY`, and the workflow commands (`::error file=…,line=…::message`)
 * with @actions/core's escaping. The same `Core` slice tests and `@github/local-action` pass their
 * own of; the Octokit client is still @actions/github's, loaded only when a token is used
 * (github-client.ts). A test holds every call's bytes equal to @actions/core's.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, constants, existsSync } from 'node:fs';
import { access, appendFile, writeFile } from 'node:fs/promises';
import { EOL } from 'node:os';
import type * as actionsCore from '@actions/core';
import type { AnnotationProperties, InputOptions } from '@actions/core';
import { inert } from '../report/text.js';

/** The job summary as the action writes it: raw markdown, then written out. */
interface SummaryWriter {
  addRaw(text: string, addEOL?: boolean): SummaryWriter;
  write(options?: { readonly overwrite?: boolean }): Promise<unknown>;
}

/** The slice of @actions/core the action uses (tests and `@github/local-action` may pass @actions/core itself, or their own). */
export type Core = Pick<typeof actionsCore, 'getInput' | 'setOutput' | 'setFailed' | 'error' | 'warning' | 'notice' | 'info' | 'debug'> & {
  readonly summary: SummaryWriter;
};

/** As @actions/core writes a value: a string as it is, nothing as '', anything else as JSON. */
const commandValue = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

const escapeData = (s: unknown): string => commandValue(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: unknown): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::command key=value,…::message`, as @actions/core's issueCommand writes it. */
function issue(command: string, properties: { readonly [key: string]: unknown }, message: unknown): void {
  const given = Object.entries(properties).filter(([, v]) => v !== undefined && v !== null && v !== '');
  const props = given.length > 0 ? ` ${given.map(([k, v]) => `${k}=${escapeProperty(v)}`).join(',')}` : '';
  process.stdout.write(`::${command}${props}::${escapeData(message)}${EOL}`);
}

/** An annotation's properties as @actions/core names them in the command. */
const annotation = (p: AnnotationProperties = {}): { readonly [key: string]: unknown } => ({
  title: p.title,
  file: p.file,
  line: p.startLine,
  endLine: p.endLine,
  col: p.startColumn,
  endColumn: p.endColumn,
});

const messageText = (m: string | Error): string => (m instanceof Error ? m.toString() : m);

/** The job summary: a buffer appended to GITHUB_STEP_SUMMARY's file on write, as @actions/core's does. */
class Summary {
  private buffer = '';

  addRaw(text: string, addEOL = false): this {
    this.buffer += text + (addEOL ? EOL : '');
    return this;
  }

  async write(options: { readonly overwrite?: boolean } = {}): Promise<this> {
    const file = process.env['GITHUB_STEP_SUMMARY'];
    if (!file)
      throw new Error(
        'Unable to find environment variable for $GITHUB_STEP_SUMMARY. Check if your runtime environment supports job summaries.',
      );
    try {
      await access(file, constants.R_OK | constants.W_OK);
    } catch {
      throw new Error(`Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`);
    }
    await (options.overwrite ? writeFile : appendFile)(file, this.buffer, { encoding: 'utf8' });
    this.buffer = '';
    return this;
  }
}

/** The runner protocol, lazily: nothing but node's own modules until a token is used. */
export function lazyCore(): Core {
  const summary = new Summary();
  return {
    getInput(name: string, options?: InputOptions): string {
      const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '';
      if (options?.required && !value) throw new Error(`Input required and not supplied: ${name}`);
      return options?.trimWhitespace === false ? value : value.trim();
    },
    setOutput(name: string, value: unknown): void {
      const file = process.env['GITHUB_OUTPUT'];
      if (file) {
        const delimiter = `ghadelimiter_${randomUUID()}`;
        const text = commandValue(value);
        if (name.includes(delimiter)) throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
        if (text.includes(delimiter)) throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
        if (!existsSync(file)) throw new Error(`Missing file at path: ${file}`);
        appendFileSync(file, `${name}<<${delimiter}${EOL}${text}${EOL}${delimiter}${EOL}`, { encoding: 'utf8' });
        return;
      }
      process.stdout.write(EOL);
      issue('set-output', { name }, commandValue(value));
    },
    setFailed(message: string | Error): void {
      process.exitCode = 1;
      issue('error', {}, messageText(message));
    },
    error: (message, properties) => issue('error', annotation(properties), messageText(message)),
    warning: (message, properties) => issue('warning', annotation(properties), messageText(message)),
    notice: (message, properties) => issue('notice', annotation(properties), messageText(message)),
    // A plain line can carry evidence text (a path, a tool): runner commands in it are made inert.
    info: (message) => {
      process.stdout.write(inert(message) + EOL);
    },
    debug: (message) => issue('debug', {}, message),
    summary,
  };
}
