/**
 * A tool call and the mapping file → what the call asserts (docs/producers.md §"The mapping file").
 * The first rule whose tool (and server, and guard) match decides: a successful call it names asserts
 * its side effect, bound on the fields the rule says where to find; a call no rule names asserts
 * nothing. A field the call does not carry (content capture off, a result without the id) leaves the
 * call without a subject, with the reason said: the importer never guesses a target.
 */

import { jcs } from '../../core/binding.js';
import { classRow } from '../../core/classes.js';
import { compileGlob, globMatches } from '../../core/glob.js';
import { isObject, type JsonObject, memberAt } from '../../core/json.js';
import type { Location } from '../../core/location.js';
import type { Result } from '../../core/result.js';
import { targetHash } from '../../core/target-hash.js';
import { asciiLower, editDistance, quote } from '../../core/text.js';
import { rfc3339 } from '../../core/time.js';
import { jsonOrText } from '../../read/json/strict.js';
import type { FieldSource, ToolMapping, ToolRule, UrlPart } from '../../read/mapping-file.js';
import type { FieldValue, ProducerCall } from './call.js';
import { type GithubUrl, githubUrl } from './github-url.js';
import type { ToolUse } from './otlp-json.js';

/** A call mapped: the call, and the count it adds to (`not in the mapping`, `no arguments`); or a problem of the mapping, located in it. */
export type Mapped =
  | { readonly kind: 'call'; readonly call: ProducerCall; readonly count: string | null; readonly hint: string | null }
  | { readonly kind: 'mapping'; readonly at: Location; readonly message: string };

/**
 * A tool's result as fields are read from it: the value itself, its MCP `structuredContent`, and its
 * text contents that are JSON (what MCP servers return), each read once and strictly. A text content
 * the strict reader refuses (a key given twice) makes the whole result unreadable: no field is read
 * from it, not even from another content (which one another reader would take is not known).
 */
interface ResultView {
  readonly value: unknown;
  readonly texts: readonly unknown[];
}

function resultView(use: ToolUse): Result<ResultView | null> {
  if (use.result.kind === 'unreadable') return { ok: false, reason: use.result.why };
  if (use.result.kind !== 'value') return { ok: true, value: null };
  const value = use.result.value;
  const texts: unknown[] = [];
  const content = isObject(value) ? value['content'] : undefined;
  if (Array.isArray(content))
    for (const item of content) {
      if (!isObject(item) || typeof item['text'] !== 'string') continue;
      const read = jsonOrText(item['text']);
      if (read.kind === 'refused') return { ok: false, reason: `the result's text content is not strict JSON (${read.reason})` };
      if (read.kind === 'json') texts.push(read.value);
    }
  return { ok: true, value: { value, texts } };
}

/** Places of one result that give one field differently: which one is meant cannot be said. */
const DISAGREE: unique symbol = Symbol('places disagree');

/** The canonical text of a value (how two places' values are compared). */
const canonical = (v: unknown): string | null => {
  const c = jcs(v);
  return c.ok ? c.text : null;
};

/**
 * A result's value at a path, from every place a result gives it: the result itself, its
 * `structuredContent`, its JSON text contents. One value (however many places give it), undefined
 * when none does, DISAGREE when two places give two values (never the first taken).
 */
function inResult(view: ResultView, path: readonly string[]): unknown {
  const found: unknown[] = [];
  const direct = memberAt(view.value, path);
  if (direct !== undefined) found.push(direct);
  if (isObject(view.value)) {
    const structured = memberAt(view.value['structuredContent'], path);
    if (structured !== undefined) found.push(structured);
  }
  for (const text of view.texts) {
    const at = memberAt(text, path);
    if (at !== undefined) found.push(at);
  }
  const [first] = found;
  if (found.length <= 1) return first;
  const text = canonical(first);
  return text !== null && found.every((x) => canonical(x) === text) ? first : DISAGREE;
}

/** A member at a path where every array on the way holds exactly one element (one operation's answer, never a batch's). */
function onlyAt(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const segment of path) {
    if (Array.isArray(node) && node.length !== 1) return undefined;
    node = memberAt(node, [segment]);
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Whether a result says its call failed by the rule's `failed` member: `yes` when a place (the value,
 * its structuredContent, a JSON text content) gives `true` or a non-empty string and none gives
 * another value; `disagree` when one does and another gives something else; else `no` (absent, null,
 * false, empty: a write as the source says). A batch's answer (an array of more than one) says no.
 */
function failedBy(view: ResultView, path: readonly string[]): 'yes' | 'no' | 'disagree' {
  const places = [view.value, isObject(view.value) ? view.value['structuredContent'] : undefined, ...view.texts];
  const given = places.map((p) => onlyAt(p, path)).filter((v) => v !== undefined);
  const failed = (v: unknown): boolean => v === true || (typeof v === 'string' && v !== '');
  if (!given.some(failed)) return 'no';
  return given.every(failed) ? 'yes' : 'disagree';
}

/** A command line's words as a POSIX shell splits them (single and double quotes, backslashes), or null when a quote is not closed. */
function words(line: string): string[] | null {
  const out: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  const add = (text: string): void => {
    word = (word ?? '') + text;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    const next = line.charAt(i + 1);
    if (quote === "'") {
      if (c === "'") quote = null;
      else add(c);
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && next !== '' && '"\\$`'.includes(next)) {
        add(next);
        i++;
      } else add(c);
    } else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      add('');
    } else if (c === '\\' && next !== '') {
      add(next);
      i++;
    } else add(c);
  }
  if (quote !== null) return null;
  if (word !== null) out.push(word);
  return out;
}

/** Whether a command's word names `option`: whole, or abbreviated as argparse takes it (`--user` for `--user-name`). */
const namesOption = (word: string, option: string): boolean =>
  word === option || (word.length > 3 && word.startsWith('--') && option.startsWith(word));

/** The value of `--option VALUE` or `--option=VALUE` (or an abbreviation of it) in a command line, or null. */
function optionValue(line: string, option: string): string | null {
  const list = words(line);
  if (list === null) return null;
  const found: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const w = list[i] ?? '';
    const eq = w.indexOf('=');
    const key = eq < 0 ? w : w.slice(0, eq);
    if (!namesOption(key, option)) continue;
    found.push(eq < 0 ? (list[i + 1] ?? '') : w.slice(eq + 1));
  }
  // Given twice, a CLI takes the last: which one the command meant is not the mapping's to guess.
  return found.length === 1 && found[0] !== '' ? (found[0] ?? null) : null;
}

/** A part of a GitHub URL, by its name in the mapping. */
const URL_PART: Readonly<Record<UrlPart, (url: GithubUrl) => string | number | null>> = {
  owner: (url) => url.owner,
  repo: (url) => url.repo,
  number: (url) => url.number,
  comment_id: (url) => url.commentId,
};

/** How to turn content capture on, per source (the import's summary says it once). */
const CAPTURE_HINT: Readonly<Record<ToolUse['source'], string>> = {
  span: 'turn content capture on: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (Copilot CLI and most GenAI instrumentations)',
  'claude-code': 'turn tool details on: OTEL_LOG_TOOL_DETAILS=1 (Claude Code)',
  mcp: 'the gateway logged the request without its arguments',
};

/** Whether a rule takes a call of this tool on this server (its guard aside): the tool's name exactly (or its glob), and its server when the rule names one. */
const matches = (rule: ToolRule, name: string, server: string | null): boolean =>
  globMatches(rule.tool, name) && (rule.server === null || rule.server === server);

/**
 * Whether the guard holds: `yes` when the argument is text whose words (as a shell splits them)
 * begin with the prefix's words, or equals the value; `loose` when it holds the prefix's words in
 * order with others before or between them (`aws --profile prod iam create-access-key`, a quote
 * left open): the command is this write, in a shape the mapping does not read (asserted, with no
 * subject); `no` otherwise.
 */
function guarded(rule: ToolRule, args: JsonObject | null): 'yes' | 'loose' | 'no' {
  if (rule.when === null) return 'yes';
  const given = args === null ? undefined : memberAt(args, rule.when.path);
  if (typeof given !== 'string') return 'no';
  if (rule.when.prefix === null) return given === rule.when.equals ? 'yes' : 'no';
  const want = words(rule.when.prefix) ?? [rule.when.prefix];
  const got = words(given);
  if (got === null) return given.includes(want[0] ?? '') ? 'loose' : 'no';
  if (want.every((w, i) => got[i] === w)) return 'yes';
  let at = 0;
  for (const w of got) if (w === want[at]) at++;
  return at === want.length ? 'loose' : 'no';
}

/** The first option of `unless` the command gives (whole, `--opt=…`, or as an abbreviation a CLI would take), or null. */
function givenOption(line: string, options: readonly string[]): string | null {
  const list = words(line) ?? line.split(/\s+/);
  for (const o of options) if (list.some((w) => namesOption(w.split('=')[0] ?? w, o))) return o;
  return null;
}

/** One field's value from its source, or why the call does not give it. */
function fieldValue(
  field: string,
  source: FieldSource,
  use: ToolUse,
  result: ResultView | null,
  whole: boolean,
  urls: string[],
): Result<FieldValue> {
  const missing = (why: string): Result<FieldValue> => ({ ok: false, reason: `${field}: ${why}` });
  let given: unknown;
  let where: string;
  if (source.from === 'value') {
    // A constant as the mapping gives it (null: a field the class leaves empty).
    if (source.value === null || source.hash === null) return { ok: true, value: source.value };
    given = source.value;
    where = 'the mapping';
  } else if (source.from === 'arg') {
    if (use.args.kind !== 'object') return missing(use.args.why);
    given = memberAt(use.args.value, source.path);
    where = `arguments.${source.path.join('.')}`;
  } else {
    if (result === null) return missing('no result captured');
    given = inResult(result, source.path);
    where = `result.${source.path.join('.')}`;
    if (given === DISAGREE)
      return missing(`${where} is given differently by the result's places (its value, structuredContent, text contents)`);
  }
  if (given === undefined || given === null) return missing(`nothing at ${where}`);
  if (source.from !== 'value' && source.cliOption !== null) {
    const option = typeof given === 'string' ? optionValue(given, source.cliOption) : null;
    if (option === null) return missing(`${where} is not a command line with ${source.cliOption} given once`);
    given = option;
  }
  if (source.from !== 'value' && source.urlPart !== null) {
    const url = typeof given === 'string' ? githubUrl(given) : null;
    const part = url === null ? null : URL_PART[source.urlPart](url);
    if (part === null) return missing(`${where} is not a GitHub URL with its ${source.urlPart}`);
    if (url) urls.push(asciiLower(`${url.owner}/${url.repo}`));
    given = part;
  }
  if (source.hash !== null)
    return typeof given === 'string' && given.trim() !== ''
      ? { ok: true, value: targetHash(source.hash, given) }
      : missing(`${where} is not text to hash`);
  if (whole) {
    const n = typeof given === 'string' && /^[1-9]\d{0,15}$/.test(given) ? Number(given) : given;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? { ok: true, value: n } : missing(`${where} is not a whole number`);
  }
  return typeof given === 'string' && given !== '' ? { ok: true, value: given } : missing(`${where} is not text`);
}

/** A tool call → what it asserts under the mapping. */
export function mapUse(use: ToolUse, mapping: ToolMapping, line: number): Mapped {
  const args = use.args.kind === 'object' ? use.args.value : null;
  // The first rule whose tool matches and whose guard holds, however loosely (first match wins).
  let found: ToolRule | undefined;
  let guard: 'yes' | 'loose' | 'no' = 'no';
  for (const r of mapping.rules) {
    guard = matches(r, use.name, use.server) ? guarded(r, args) : 'no';
    if (guard !== 'no') {
      found = r;
      break;
    }
  }
  const rule = guard === 'yes' ? found : undefined;
  const base = { tool: use.name, server: use.server, callId: use.callId, time: rfc3339(use.time), line, succeeded: use.succeeded };
  /** The write asserted with no subject: the call names a write whose target cannot be read (`note`: why). */
  const unbound = (note: string, count = 'named without its target', hint: string | null = null): Mapped => ({
    kind: 'call',
    call: { ...base, asserts: true, effect: null, note },
    count,
    hint,
  });
  // Guards on arguments the call does not give as text (none carried, or every guard's argument
  // absent: a manifest given instead of a resource type): the mapping names the tool, the call cannot
  // say which rule, nor that it is none of them (a red team: kubectl_create with a manifest asserted nothing).
  const guardedRules = found ? [] : mapping.rules.filter((r) => matches(r, use.name, use.server) && r.when !== null);
  const unreadable =
    guardedRules.length > 0 &&
    guardedRules.every((r) => args === null || (r.when !== null && typeof memberAt(args, r.when.path) !== 'string'));
  const named = found ?? (unreadable ? guardedRules[0] : undefined);
  if (!named) {
    // Claude Code names every MCP tool `mcp_tool` unless tool details are on: a write may hide behind it.
    const hidden = use.source === 'claude-code' && use.name === 'mcp_tool';
    return {
      kind: 'call',
      call: {
        ...base,
        asserts: false,
        effect: null,
        note: hidden ? `an MCP tool the event does not name; ${CAPTURE_HINT[use.source]}` : null,
      },
      count: hidden ? 'MCP tools not named' : UNMAPPED,
      hint: hidden ? CAPTURE_HINT[use.source] : null,
    };
  }
  if (named.resultAt !== null && use.result.kind === 'never')
    return {
      kind: 'mapping',
      at: named.resultAt,
      message: `${named.name} reads the tool's result, but ${use.result.source} carry none: bind an argument, or import spans (gen_ai.tool.call.result)`,
    };
  if (!use.succeeded)
    return { kind: 'call', call: { ...base, asserts: false, effect: null, note: 'the call failed' }, count: 'failed', hint: null };
  // A result the strict reader refuses may say the call failed (isError) or name another target: the
  // write is asserted with no subject, never verified, whatever the rule binds.
  const result = resultView(use);
  if (!result.ok) return unbound(result.reason);
  if (found && !rule)
    return unbound(
      `${found.name}: the command holds its guard's words with others before or between them (a global option, a quote): its target cannot be read`,
    );
  // An option the rule names in `unless` (another profile's account): the rule's constants may not hold.
  const said = rule?.when?.unless.length ? givenOption(String(memberAt(args ?? {}, rule.when.path)), rule.when.unless) : null;
  if (rule && said !== null) return unbound(`${rule.name}: the command gives ${said}: the target's constants may not hold`);
  if (!rule) {
    if (use.args.kind === 'object') {
      const paths = [...new Set(guardedRules.map((r) => `arguments.${r.when?.path.join('.') ?? ''}`))].join(', ');
      return unbound(
        `${named.name}: its guard reads ${paths}, which the call does not give as text: which write it is, if any, cannot be said`,
      );
    }
    return unbound(
      `the guard of ${named.name} reads arguments: ${use.args.why}; ${CAPTURE_HINT[use.source]}`,
      'named without arguments',
      CAPTURE_HINT[use.source],
    );
  }
  // A server that answers an operation the provider refused as a result (the AWS API MCP server's
  // error_code): the call failed, decided only once its rule is known (a red team).
  const failure = rule.failed && result.value ? failedBy(result.value, rule.failed) : 'no';
  if (failure === 'disagree')
    return unbound(`result.${rule.failed?.join('.')} is given differently by the result's places: whether the call failed cannot be said`);
  if (failure === 'yes')
    return {
      kind: 'call',
      call: { ...base, asserts: false, effect: null, note: `the call failed (its result gives ${rule.failed?.join('.')})` },
      count: 'failed',
      hint: null,
    };
  const whole = classRow(rule.actionClass)?.wholeNumbers ?? new Set<string>();
  const target: [string, FieldValue][] = [];
  const urls: string[] = [];
  for (const [field, source] of rule.target) {
    const value = fieldValue(field, source, use, result.value, whole.has(field), urls);
    if (!value.ok) {
      const noArgs = source.from === 'arg' && use.args.kind === 'absent';
      return noArgs
        ? unbound(`${value.reason}; ${CAPTURE_HINT[use.source]}`, 'named without arguments', CAPTURE_HINT[use.source])
        : unbound(value.reason);
    }
    target.push([field, value.value]);
  }
  // A number from a URL names a repository too: one other than the target's is another target.
  const fields = new Map(target);
  const owner = fields.get('owner');
  const repo = fields.get('repo');
  if (typeof owner === 'string' && typeof repo === 'string' && urls.some((u) => u !== asciiLower(`${owner}/${repo}`)))
    return unbound(`the URL names another repository than ${owner}/${repo}`);
  return {
    kind: 'call',
    call: {
      ...base,
      asserts: true,
      effect: { actionClass: rule.actionClass, verb: rule.verb, provider: rule.provider, target },
      note: null,
    },
    count: null,
    hint: null,
  };
}

/** Two names the same but for two neighbouring letters swapped (`craete_issue`): one slip of the fingers, two edits. */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** One slip of the fingers between two names, letter case aside: one edit, or two neighbours swapped. */
const slip = (a: string, b: string): boolean => {
  const [x, y] = [asciiLower(a), asciiLower(b)];
  return editDistance(x, y) <= 1 || swapped(x, y);
};

/** What an import counted as not in the mapping: the names no rule took. */
export const UNMAPPED = 'not in the mapping (asserting nothing)';

/** One tool on one server as an import's calls name it, and how many of those calls no rule took. */
export interface CalledTool {
  readonly tool: string;
  readonly server: string | null;
  readonly unmapped: number;
}

/** A qualifier before a tool's own name (`github.`, `mcp__github__`, `github/`, `github:`): what a glob naming the server in the tool's name begins with. */
const QUALIFIER = /^[^*]*(?:\.|__|\/|:)/;

/**
 * How a rule's tool nearly names a call's: null when it names it, undefined when it is another tool;
 * else the difference: letter case only (`Create_Issue`), one letter off (`create_isue`,
 * `craete_issue`: a name, never a glob), or the tool's own name behind a qualifier the calls do not
 * write (`github.create_*` for `create_issue`).
 */
function nearTool(rule: ToolRule, tool: string): string | null | undefined {
  if (globMatches(rule.tool, tool)) return null;
  const text = rule.tool.pieces.join('*');
  const lower = asciiLower(tool);
  const caseless = compileGlob(asciiLower(text));
  if (globMatches(caseless, lower)) return 'the tool differs in letter case only';
  if (rule.tool.pieces.length === 1 && slip(text, tool)) return 'a misspelt tool name';
  const bare = asciiLower(text).replace(QUALIFIER, '');
  if (bare !== asciiLower(text) && bare !== '' && globMatches(compileGlob(bare), lower))
    return `the calls name the tool without ${quote(text.slice(0, text.length - bare.length), 80)}`;
  // The call's name behind its server's (`mcp__github__create_issue`, `github.create_issue`,
  // `github-mcp-server-create_issue`, `mcp_github_create_issue`, `github_create_issue`; red teams): a
  // one-letter join only after the rule's provider's name, so `bulk_create_issue` is another tool.
  const provider = new RegExp(
    `^(?:mcp[-_])?(?:${[rule.provider, rule.actionClass.split('_')[0] ?? ''].filter((p) => /^[a-z0-9]+$/.test(p)).join('|') || '(?!)'})[-_]`,
  );
  for (const own of [lower.replace(QUALIFIER, '').replace(MCP_PREFIX, ''), lower.replace(provider, '')])
    if (own !== lower && own !== '' && globMatches(caseless, own))
      return `the calls name the tool with ${quote(tool.slice(0, tool.length - own.length), 80)} before it`;
  return undefined;
}

/** A server's name joined to its tool's by a hyphen or underscore (`github-mcp-server-`, `slack_mcp_`). */
const MCP_PREFIX = /^[a-z0-9_-]*?mcp(?:[-_]server)?[-_]/;

/**
 * How a rule's server nearly names a call's: null when it is the call's (or the rule names none),
 * undefined when it is another server some call carries; else the difference. A server no call
 * carries names no call at all: a misspelling (`githb`), the docs' `server: github` on a source that
 * names no server (spans), a name the gateway does not give its server. Calls of the rule's tool on
 * another server then went unmapped because of it (a run that called only another server's tool of
 * that name and never the rule's server is refused too: which one the rule meant cannot be told).
 */
function nearServer(rule: ToolRule, server: string | null, carried: ReadonlySet<string | null>): string | null | undefined {
  if (rule.server === null || rule.server === server) return null;
  if (carried.has(rule.server)) return undefined;
  return server === null
    ? 'the calls name no server: this source does not; leave server: out'
    : `no call carries server ${quote(rule.server, 80)}`;
}

/**
 * Rules that take no call while calls they nearly name went unmapped: a mistake of the mapping,
 * never a count. A rule matching nothing leaves every write of the tool it meant asserting nothing,
 * and the import passed with a count (red teams: `create_isue`, `Create_Issue`, `server: githb`,
 * the docs' `server: github` on spans that carry none, `github.create_*` for `create_issue`). A
 * rule whose tool no call names, with no call near it, is a tool the run did not use: fine (a
 * mapping covering many tools is shared by runs that call a few); so is a rule near calls another
 * rule took, and one naming a server some call carries (its tool is one the run did not call there).
 * @param called every tool and server the calls name, with how many of them no rule took
 */
export function mistakenRules(mapping: ToolMapping, called: readonly CalledTool[]): { readonly at: Location; readonly message: string }[] {
  const carried = new Set(called.map((c) => c.server));
  const out: { at: Location; message: string }[] = [];
  for (const r of mapping.rules) {
    if (called.some((c) => matches(r, c.tool, c.server))) continue;
    for (const c of called) {
      if (c.unmapped === 0) continue;
      const tool = nearTool(r, c.tool);
      const server = nearServer(r, c.server, carried);
      if (tool === undefined || server === undefined) continue;
      const named = `named ${quote(r.tool.pieces.join('*'), 80)}${r.server === null ? '' : ` on server ${quote(r.server, 80)}`}`;
      const calls = `named ${quote(c.tool, 80)}${r.server === null ? '' : c.server === null ? ' with no server' : ` on server ${quote(c.server, 80)}`}`;
      const why = [tool, server].filter((w) => w !== null).join('; ');
      out.push({
        at: r.at,
        message: `${r.name}: no call is ${named}, but ${c.unmapped} call(s) ${calls} are not in the mapping (${why}): a rule that matches no call leaves their writes asserting nothing (name the tool${r.server === null ? '' : ' and its server'} exactly as the calls do)`,
      });
      break;
    }
  }
  return out;
}
