/**
 * The slice of the Actions runner protocol this action needs: inputs from INPUT_* variables,
 * outputs through the GITHUB_OUTPUT file, workflow commands on stdout, the exit code. Written out
 * (about what @actions/core does) to keep dist/index.js small and its cold start short.
 */
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { EOL } from 'node:os';

import type { AnnotationProperties } from './report/workflow-commands.js';

/** Escaping of workflow-command data: nothing in it can end the command or start another. */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export class Runner {
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly out: (line: string) => void = (l) => process.stdout.write(l + EOL),
  ) {}

  /** As @actions/core: INPUT_<NAME> with spaces as underscores, upper-cased, trimmed. */
  input(name: string): string {
    return (this.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
  }

  setOutput(name: string, value: string | number): void {
    const file = this.env['GITHUB_OUTPUT'];
    const v = String(value);
    if (file) {
      const delimiter = `ghadelimiter_${randomUUID()}`;
      if (name.includes(delimiter) || v.includes(delimiter)) throw new Error('output delimiter collision');
      appendFileSync(file, `${name}<<${delimiter}${EOL}${v}${EOL}${delimiter}${EOL}`);
    } else {
      this.out(`${EOL}::set-output name=${escapeProperty(name)}::${escapeData(v)}`);
    }
  }

  command(kind: 'error' | 'warning' | 'notice' | 'debug', message: string, props: AnnotationProperties = {}): void {
    const p: string[] = [];
    if (props.title !== undefined) p.push(`title=${escapeProperty(props.title)}`);
    if (props.file !== undefined) p.push(`file=${escapeProperty(props.file)}`);
    if (props.startLine !== undefined) p.push(`line=${props.startLine}`);
    if (props.startColumn !== undefined) p.push(`col=${props.startColumn}`);
    this.out(`::${kind}${p.length ? ' ' + p.join(',') : ''}::${escapeData(message)}`);
  }

  error(message: string, props?: AnnotationProperties): void {
    this.command('error', message, props);
  }
  warning(message: string, props?: AnnotationProperties): void {
    this.command('warning', message, props);
  }
  notice(message: string, props?: AnnotationProperties): void {
    this.command('notice', message, props);
  }
  debug(message: string): void {
    this.command('debug', message);
  }
  info(message: string): void {
    this.out(escapeData(message).replace(/^::/, ':\u200b:'));
  }

  setFailed(message: string): void {
    process.exitCode = 1;
    this.error(message);
  }
}
