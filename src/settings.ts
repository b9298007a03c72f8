/** Turning user-supplied strings (CLI flags, action inputs) into typed settings, with one clear message per mistake. */

export class UsageError extends Error {}

const UNITS: { readonly [u: string]: number } = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };

/** "64MiB", "512k", "1048576" → bytes. */
export function parseSize(name: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new UsageError(`${name}: "${value}" is not a size (e.g. 64MiB, 512KiB, 1048576)`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`${name}: "${value}" is out of range`);
  return bytes;
}

/** YAML 1.2 core booleans, as @actions/core reads them. */
export function parseBool(name: string, value: string): boolean {
  const v = value.trim();
  if (['true', 'True', 'TRUE'].includes(v)) return true;
  if (['false', 'False', 'FALSE', ''].includes(v)) return false;
  throw new UsageError(`${name}: "${value}" is not a boolean (true or false)`);
}

export function parseChoice<T extends string>(name: string, value: string, choices: readonly T[]): T {
  const v = value.trim();
  if ((choices as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`${name}: "${value}" must be one of ${choices.join(', ')}`);
}

/** Newline- or comma-separated list, blanks dropped. */
export function parseList(value: string): string[] {
  return value.split(/[\n,]/).map((s) => s.trim()).filter((s) => s !== '');
}

/** A whole number ≥ 0. */
export function parseCount(name: string, value: string): number {
  const v = value.trim();
  if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${name}: "${value}" is not a whole number`);
  return Number(v);
}
