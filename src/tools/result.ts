/** What a tool returns: its output, or located findings (printed by the one formatter, report/text.ts `where`). */
import type { Finding } from '../core/findings.js';

export type ToolResult = { readonly ok: true; readonly message: string } | { readonly ok: false; readonly findings: readonly Finding[] };

/** A tool's input file, read whole by the entry. */
export interface ToolInput {
  readonly name: string;
  readonly bytes: Uint8Array;
}
