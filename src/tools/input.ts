/** A tool's input file, read whole by the entry. Tools return `Result<string, readonly Finding[]>`: their output, or located findings (printed by the one formatter, report/text.ts `located`). */
export interface ToolInput {
  readonly name: string;
  readonly bytes: Uint8Array;
}
