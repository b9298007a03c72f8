/**
 * Shape validation against the JSON Schemas committed under `schemas/` (the same files users point
 * their editors at), compiled at build time into plain functions (scripts/gen-validators.mjs, ajv
 * standalone), so nothing is compiled at start-up. Returns the first problem as "path: message".
 */
import type { Result } from '../core/result.js';
import { decision, type GeneratedValidator, record } from './validators.generated.js';

type ErrorObject = NonNullable<GeneratedValidator['errors']>[number];
type ValidateFunction = GeneratedValidator;

export type ShapeCheck = Result;

function describe(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'does not match its schema';
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the object';
  if (e.keyword === 'const' || e.keyword === 'enum') {
    return `${where} must be ${JSON.stringify((e.params as { allowedValue?: unknown; allowedValues?: unknown }).allowedValue ?? (e.params as { allowedValues?: unknown }).allowedValues)}`;
  }
  return `${where} ${e.message ?? 'is invalid'}`;
}

const checker =
  (fn: ValidateFunction) =>
  (value: unknown): ShapeCheck =>
    fn(value) ? { ok: true } : { ok: false, reason: describe(fn.errors) };

export const checkDecision = checker(decision);
export const checkRecord = checker(record);
