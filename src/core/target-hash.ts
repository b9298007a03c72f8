/**
 * The target hash the agent side computes (docs/target-hash.md, with its vectors): H(domain, value) =
 * "sha256:" + hex(sha256(utf8("assay.tool_target.v0:" + domain + ":" + norm(value)))), norm = trim of
 * Unicode White_Space at both ends (an explicit class: not U+FEFF, which String.prototype.trim also
 * removes), then full lower-casing. Plain labels (owner, repo, role) are never hashed, trimmed or
 * lower-cased; their control characters other than tab, LF and CR become U+FFFD.
 */
import { sha256Digest } from './binding.js';

export const DOMAINS = [
  'github_key_title',
  'github_label',
  'github_user',
  'slack_workspace',
  'slack_channel',
  'slack_principal',
  'workspace',
  'workspace_principal',
  'aws_iam_user',
] as const;
export type Domain = (typeof DOMAINS)[number];

const WS = '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');

export const normalize = (value: string): string => value.replace(TRIM, '').toLowerCase();

export const targetHash = (domain: Domain, value: string): string => sha256Digest(`assay.tool_target.v0:${domain}:${normalize(value)}`);

/** A plain label as the agent side writes it. */
export const label = (value: string): string => value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd');
