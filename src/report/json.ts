/** The JSON report (schemas/report.schema.json) and its digest, which a release can attach. */
import type { Report } from '../core/report.js';
import { sha256Hex } from '../core/binding.js';

export function renderJson(report: Report): string {
  return JSON.stringify(report, null, 2) + '\n';
}

export function reportDigest(json: string): string {
  return `sha256:${sha256Hex(json)}`;
}
