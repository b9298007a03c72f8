export const id = 977;
export const ids = [977];
export const modules = {

/***/ 1977:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  importRunCommand: () => (/* binding */ importRunCommand)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
var external_node_path_default = /*#__PURE__*/__webpack_require__.n(external_node_path_);
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __webpack_require__(3491);
// EXTERNAL MODULE: ./src/gate/settings/paths.ts
var paths = __webpack_require__(1665);
// EXTERNAL MODULE: ./src/gate/settings/types.ts
var types = __webpack_require__(8324);
// EXTERNAL MODULE: ./src/core/classes.ts
var classes = __webpack_require__(5727);
// EXTERNAL MODULE: ./src/core/findings.ts
var findings = __webpack_require__(4637);
// EXTERNAL MODULE: ./src/core/glob.ts
var glob = __webpack_require__(6085);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __webpack_require__(6153);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __webpack_require__(2020);
// EXTERNAL MODULE: ./src/read/strict-yaml.ts
var strict_yaml = __webpack_require__(6599);
// EXTERNAL MODULE: ./src/read/validators.generated.js
var validators_generated = __webpack_require__(183);
;// CONCATENATED MODULE: ./src/read/mapping-file.ts
/**
 * The mapping file of `receipt-gate import-run otlp-json --map FILE` (docs/producers.md): which of a
 * producer's tools write, to which class and verb, and where each bound target field comes from (the
 * call's arguments, its result, a constant), hashed where the class table says. Read like the policy
 * file (read/strict-yaml.ts: YAML 1.2, every problem located), then what a schema cannot say: a
 * known class and one of its verbs, exactly the class's bound fields, one source per field, a hashed
 * field with its class's domain, a whole number for a numeric constant. Nothing here reads a file.
 */








const URL_PARTS = new Map(['owner', 'repo', 'number', 'comment_id'].map((p) => [p, p]));
const SCHEMA = { validate: validators_generated/* mappingFile */.BL, schema: validators_generated/* mappingSchema */.Cb };
/** A mapping file's text → its rules, or every problem located in it (`invalid_artifact`). */
function readMappingFile(source, file) {
    const read = (0,strict_yaml/* readYamlDocument */.HS)(source, { path: file, commit: null, noun: 'a mapping file', code: 'invalid_artifact' }, 'the mapping file is empty (it needs version: 1 and tools:)');
    if (!read.ok)
        return read;
    const { value, where, place } = read.value;
    const shape = (0,strict_yaml/* schemaProblems */.Ic)(value, SCHEMA, where, 'invalid_artifact');
    if (shape.length > 0 || !(0,json/* isObject */.Gv)(value))
        return {
            ok: false,
            reason: shape.length > 0 ? shape : [(0,findings/* finding */.gk)('invalid_artifact', place(1, 1), 'the mapping file is not a mapping')],
        };
    const problems = [];
    const bad = (pointer, message, key = false) => {
        problems.push((0,findings/* finding */.gk)('invalid_artifact', where(pointer, key), message));
    };
    const rules = [];
    const list = Array.isArray(value['tools']) ? value['tools'] : [];
    list.forEach((entry, i) => {
        if (!(0,json/* isObject */.Gv)(entry))
            return;
        const at = `/tools/${i}`;
        const toolName = (0,json/* str */.gx)(entry, 'tool') ?? '';
        const actionClass = (0,json/* str */.gx)(entry, 'class') ?? '';
        const verb = (0,json/* str */.gx)(entry, 'verb') ?? '';
        const row = (0,classes/* classRow */.FC)(actionClass);
        if (!row) {
            const near = (0,core_text/* nearestName */.qb)(actionClass, classes/* CLASSES */.Nv.keys());
            bad(`${at}/class`, `class ${JSON.stringify(actionClass)} is not in the class table${near ? ` (did you mean "${near}"?)` : ''}: known: ${[...classes/* CLASSES */.Nv.keys()].join(', ')}`);
            return;
        }
        if (!row.verbs.includes(verb))
            bad(`${at}/verb`, `${actionClass} has the verbs ${row.verbs.join(', ')}, not ${JSON.stringify(verb)}`);
        const target = (0,json/* isObject */.Gv)(entry['target']) ? entry['target'] : {};
        const hashedDomain = new Map([...row.hashed.values()].map((h) => [h.field, h.domain]));
        const sources = [];
        let resultAt = null;
        for (const field of Object.keys(target)) {
            const pointer = `${at}/target/${field}`;
            if (!row.fields.includes(field)) {
                const near = (0,core_text/* nearestName */.qb)(field, row.fields);
                bad(pointer, `${actionClass} binds ${row.fields.join(', ')}: not ${field}${near ? ` (did you mean "${near}"?)` : ''}`, true);
                continue;
            }
            const given = target[field];
            if (!(0,json/* isObject */.Gv)(given))
                continue;
            const kinds = ['arg', 'result', 'value'].filter((k) => Object.hasOwn(given, k));
            const [kind] = kinds;
            if (kind === undefined || kinds.length > 1) {
                bad(pointer, `${field}: give exactly one of arg, result or value${kinds.length > 1 ? ` (not ${kinds.join(' and ')})` : ''}`);
                continue;
            }
            const domain = hashedDomain.get(field) ?? null;
            const hash = (0,json/* str */.gx)(given, 'hash');
            if (domain !== null && hash !== domain) {
                bad(hash === null ? pointer : `${pointer}/hash`, `${field} is hashed in the domain ${domain}: write hash: ${domain} (the raw value is hashed as docs/target-hash.md says)`);
                continue;
            }
            if (domain === null && hash !== null) {
                bad(`${pointer}/hash`, `${field} is not a hashed field of ${actionClass}: its value is bound as given (remove hash)`);
                continue;
            }
            const urlPart = URL_PARTS.get(given['url-part']) ?? null;
            const cliOption = (0,json/* str */.gx)(given, 'cli-option');
            if (urlPart !== null && cliOption !== null) {
                bad(`${pointer}/cli-option`, `${field}: give url-part or cli-option, not both`);
                continue;
            }
            if (kind === 'value') {
                if (urlPart !== null || cliOption !== null) {
                    bad(`${pointer}/${urlPart !== null ? 'url-part' : 'cli-option'}`, `${field}: ${urlPart !== null ? 'url-part' : 'cli-option'} reads a value from the call (arg or result), not a constant`);
                    continue;
                }
                const constant = given['value'];
                if (typeof constant !== 'string' && typeof constant !== 'number' && constant !== null)
                    continue;
                if (constant === null && domain !== null) {
                    bad(`${pointer}/value`, `${field} is hashed: a hash of nothing binds nothing (give the raw value)`);
                    continue;
                }
                if (row.wholeNumbers.has(field) &&
                    constant !== null &&
                    !(typeof constant === 'number' && Number.isSafeInteger(constant) && constant > 0)) {
                    bad(`${pointer}/value`, `${field} is a whole number (GitHub's id): write it without quotes`);
                    continue;
                }
                sources.push([field, { from: 'value', value: constant, hash: domain }]);
                continue;
            }
            const path = (0,json/* str */.gx)(given, kind) ?? '';
            if (kind === 'result')
                resultAt ??= where(`${pointer}/result`);
            sources.push([field, { from: kind, path: path.split('.'), hash: domain, urlPart, cliOption }]);
        }
        const missing = row.fields.filter((f) => !Object.hasOwn(target, f));
        if (missing.length > 0)
            bad(`${at}/target`, `${actionClass} binds ${row.fields.join(', ')}: the target gives no ${missing.join(', ')}`, true);
        const when = (0,json/* isObject */.Gv)(entry['when']) ? entry['when'] : null;
        const prefix = when ? (0,json/* str */.gx)(when, 'prefix') : null;
        // An empty `equals` is a value like any other (str takes none).
        const equals = when && typeof when['equals'] === 'string' ? when['equals'] : null;
        if (when && (prefix === null) === (equals === null))
            bad(`${at}/when`, 'when: give exactly one of prefix or equals', true);
        // Records and coverage of a class are its provider's: a call naming another is bound by none and
        // covered by none (a red team: `provider: GitHub` turned every coverage statement off, green).
        const named = (0,json/* str */.gx)(entry, 'provider');
        if (named !== null && named !== row.provider)
            bad(`${at}/provider`, `${actionClass} is ${JSON.stringify(row.provider)}'s (its records and exports name it so): a call naming ${JSON.stringify(named)} would be bound by no record and covered by no export; leave provider out`);
        // Read where a result is captured; a source that carries none says the call failed itself (not an error of the mapping).
        const failed = (0,json/* isObject */.Gv)(entry['failed']) ? (0,json/* str */.gx)(entry['failed'], 'result') : null;
        const order = new Map(row.fields.map((f, k) => [f, k]));
        sources.sort(([a], [b]) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
        rules.push({
            name: `tools[${i}] (${toolName})`,
            at: where(at),
            tool: (0,glob/* compileGlob */.SO)(toolName),
            server: (0,json/* str */.gx)(entry, 'server'),
            actionClass,
            verb,
            provider: named ?? row.provider,
            when: when
                ? {
                    path: ((0,json/* str */.gx)(when, 'arg') ?? '').split('.'),
                    prefix,
                    equals,
                    unless: Array.isArray(when['unless']) ? when['unless'].filter((o) => typeof o === 'string') : [],
                }
                : null,
            failed: failed === null ? null : failed.split('.'),
            target: sources,
            resultAt,
        });
    });
    if (problems.length > 0)
        return { ok: false, reason: problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0)) };
    return { ok: true, value: { rules, sha256: (0,binding/* sha256Hex */.fg)(source) } };
}

// EXTERNAL MODULE: ./src/core/target-hash.ts
var target_hash = __webpack_require__(1811);
// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __webpack_require__(2334);
;// CONCATENATED MODULE: ./src/tools/import-run/github-url.ts
/**
 * A GitHub web URL of an issue, a pull request or a comment (`https://github.com/OWNER/REPO/issues/N`,
 * `…/pull/N`, `…#issuecomment-M`): what gh-aw's manifest and GitHub's MCP server give for a write
 * when they give no id of their own. github.com only: a subject names no host, so another host's
 * issue 12 must never bind github.com's (GitHub Enterprise Server's writes bind by their id fields).
 */
const URL_SHAPE = /^https:\/\/github\.com\/([^/\s#?]+)\/([^/\s#?]+)\/(issues|pull)\/([1-9]\d{0,14})(?:#issuecomment-([1-9]\d{0,14}))?$/;
const positive = (digits) => {
    const n = digits === undefined ? Number.NaN : Number(digits);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
};
function githubUrl(url) {
    const parts = URL_SHAPE.exec(url);
    if (!parts?.[1] || !parts[2])
        return null;
    return { owner: parts[1], repo: parts[2], issue: parts[3] === 'issues', number: positive(parts[4]), commentId: positive(parts[5]) };
}

// EXTERNAL MODULE: ./src/tools/import/exports.ts
var import_exports = __webpack_require__(6642);
;// CONCATENATED MODULE: ./src/tools/import-run/pull-heads.ts
/**
 * Pull requests as `gh api repos/OWNER/REPO/pulls/N` returns them (one object, a list, or one per
 * line), read offline: the branch each pull request's head is. gh-aw's manifest names the pull
 * request a `push_to_pull_request_branch` pushed to, never the branch; the branch is that pull
 * request's head ref, which the export job reads from GitHub and commits beside the manifest (the
 * gate never queries GitHub).
 */




const pullKey = (owner, repo, number) => (0,core_text/* asciiLower */.F)(`${owner}/${repo}#${number}`);
function readPullHeads(input, limits) {
    const heads = new Map();
    const problems = [];
    const read = (0,import_exports/* readExport */.J)(input.name, input.bytes, limits);
    for (const e of read.entries) {
        const number = (0,json/* wholeNumber */.rD)(e.value, 'number');
        const ref = (0,json/* str */.gx)((0,json/* obj */.WL)(e.value, 'head'), 'ref');
        const full = (0,json/* str */.gx)((0,json/* obj */.WL)((0,json/* obj */.WL)(e.value, 'base'), 'repo'), 'full_name');
        const parts = full?.split('/') ?? [];
        if (number === null || ref === null || parts.length !== 2 || !parts[0] || !parts[1]) {
            problems.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, 'not a pull request as GET /repos/OWNER/REPO/pulls/N returns it (number, head.ref, base.repo.full_name)'));
            continue;
        }
        // A pull request from a fork (or a deleted one: head.repo null): its head branch is not in this
        // repository, and no push to it is a push here. It gives no branch.
        const headRepo = (0,json/* str */.gx)((0,json/* obj */.WL)((0,json/* obj */.WL)(e.value, 'head'), 'repo'), 'full_name');
        if (headRepo === null || (0,core_text/* asciiLower */.F)(headRepo) !== (0,core_text/* asciiLower */.F)(full ?? ''))
            continue;
        const key = pullKey(parts[0], parts[1], number);
        const seen = heads.get(key);
        if (seen !== undefined && seen !== ref)
            problems.push((0,findings/* finding */.gk)('invalid_artifact', e.loc, `${full}#${number} is listed twice with different heads`));
        heads.set(key, ref);
    }
    problems.push(...read.findings);
    return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, value: heads };
}

;// CONCATENATED MODULE: ./src/tools/import-run/gh-aw-manifest.ts
/**
 * GitHub Agentic Workflows' safe-outputs manifest (`safe-output-items.jsonl`, artifact
 * `safe-outputs-items`; docs/producers.md): one JSON object per GitHub write the privileged
 * safe_outputs job executed. gh-aw writes a line only after a write succeeded (never for a failed,
 * skipped or staged item), so every line asserts its write. The built-in mapping binds each on the
 * ids GitHub gave it (number, comment id, commit sha); an id the line does not carry, in its field
 * or its url, leaves the call without a subject. The manifest's fields grew over gh-aw's releases:
 * every field but `type` and `timestamp` is optional here.
 */






/** Types gh-aw never logs as writes (the agent said it did nothing, or what it missed): counted, never calls. */
const NOT_WRITES = new Set(['noop', 'missing_tool', 'missing_data', 'report_incomplete']);
/** No ids at all (what tells whether a line's type has a class, whatever its ids). */
const NO_IDS = { owner: null, repo: null, number: null, commentId: null, issueUrl: false };
/**
 * The ids a line gives: each from its field, else from the url. Two places that name two targets (the
 * repo field, target.repository and the url's repository; the number or id field and the url's), or
 * an id field that is present and not a whole number, leave the line without a subject: it does not
 * say which target was written.
 */
function idsOf(item) {
    const url = (0,json/* str */.gx)(item, 'url');
    const parts = url === null ? null : githubUrl(url);
    // A url that is no github.com issue, pull request or comment (another host, a look-alike, a path or query more) names a place that cannot be compared: no subject, never the other fields taken instead.
    if (url !== null && parts === null)
        return {
            conflict: 'the url is not a github.com issue, pull request or comment (https://github.com/OWNER/REPO/issues/N): its place cannot be compared with the other fields',
        };
    const repoField = (0,json/* str */.gx)(item, 'repo');
    const targetRepo = (0,json/* str */.gx)((0,json/* obj */.WL)(item, 'target'), 'repository');
    const names = [repoField, targetRepo, parts ? `${parts.owner}/${parts.repo}` : null].filter((n) => n !== null);
    if (new Set(names.map(core_text/* asciiLower */.F)).size > 1)
        return { conflict: 'the repo field, target.repository and the url name different repositories' };
    const full = names[0] ?? null;
    const split = full !== null && /^[^/\s]+\/[^/\s]+$/.test(full) ? full.split('/') : null;
    for (const field of ['number', 'id'])
        if (Object.hasOwn(item, field) && item[field] !== null && (0,json/* wholeNumber */.rD)(item, field) === null)
            return { conflict: `the ${field} field is not a whole number` };
    const number = (0,json/* wholeNumber */.rD)(item, 'number');
    if (parts?.number && number !== null && parts.number !== number)
        return { conflict: 'the number field and the url name different numbers' };
    const id = (0,json/* wholeNumber */.rD)(item, 'id');
    if (parts?.commentId && id !== null && parts.commentId !== id)
        return { conflict: 'the id field and the url name different comments' };
    return {
        owner: split?.[0] ?? null,
        repo: split?.[1] ?? null,
        number: number ?? parts?.number ?? null,
        commentId: id ?? parts?.commentId ?? null,
        issueUrl: parts?.issue ?? false,
    };
}
const SHA = /^[0-9a-f]{40}$/;
/**
 * The ref a push moved: a ref the line names (refs/… as given, a bare branch under refs/heads/), else
 * the head branch of the pull request it pushed to (gh-aw's manifest names the pull request only;
 * --pull-requests gives its head), else null.
 */
function refOf(item, ids, heads) {
    const meta = (0,json/* obj */.WL)(item, 'metadata');
    const named = [(0,json/* str */.gx)(meta, 'ref'), (0,json/* str */.gx)(meta, 'branch_name'), (0,json/* str */.gx)(item, 'branch_name')];
    const head = ids.owner !== null && ids.repo !== null && ids.number !== null ? (heads.get(pullKey(ids.owner, ids.repo, ids.number)) ?? null) : null;
    const asRef = (r) => (r === null ? null : r.startsWith('refs/') ? r : `refs/heads/${r}`);
    const given = oneOf([...named, head].map(asRef), "the branch the line names and its pull request's head differ");
    return typeof given === 'string' && /\s/.test(given) ? null : given;
}
/** The commit a push left the branch at: metadata.commit_sha, or the after-state's head (what gh-aw writes); a push that moved nothing is none. */
function shaOf(item) {
    const given = oneOf([(0,json/* str */.gx)((0,json/* obj */.WL)(item, 'metadata'), 'commit_sha'), (0,json/* str */.gx)((0,json/* obj */.WL)(item, 'after_state'), 'head_sha')].map((x) => (x === null ? null : x.toLowerCase())), 'metadata.commit_sha and after_state.head_sha name different commits');
    if (typeof given !== 'string')
        return given;
    if (!SHA.test(given))
        return null;
    const before = (0,json/* str */.gx)((0,json/* obj */.WL)(item, 'before_state'), 'head_sha');
    if (before !== null && before.toLowerCase() === given)
        return { conflict: 'nothing was pushed: before_state and after_state name the same commit' };
    return given;
}
function oneOf(values, conflict) {
    const distinct = new Set(values.filter((v) => v !== null));
    if (distinct.size > 1)
        return { conflict };
    const [only] = distinct;
    return only ?? null;
}
function github(actionClass, verb, ids, fields) {
    if (ids.owner === null || ids.repo === null)
        return { missing: 'no repository (repo, target.repository or the url)' };
    const target = [
        ['owner', ids.owner],
        ['repo', ids.repo],
    ];
    for (const [field, value, where] of fields) {
        if (value === null)
            return { missing: `no ${field} (${where})` };
        target.push([field, value]);
    }
    return { effect: { actionClass, verb, provider: 'github', target } };
}
const NUMBER = 'number or the url';
/** A line's subjects by its type (the built-in mapping of docs/producers.md); null: a type with no class. */
function subjectsOf(type, item, ids, heads) {
    switch (type) {
        case 'create_issue':
            return [github('github_issue', 'create', ids, [['number', ids.number, NUMBER]])];
        case 'close_issue':
            return [github('github_issue', 'close', ids, [['number', ids.number, NUMBER]])];
        case 'add_comment':
            return [github('github_issue_comment', 'create', ids, [['comment_id', ids.commentId, 'id or the url']])];
        case 'create_pull_request':
            // An item that fell back to an issue keeps its type; its url says /issues/N.
            return [github(ids.issueUrl ? 'github_issue' : 'github_pull_request', 'create', ids, [['number', ids.number, NUMBER]])];
        case 'close_pull_request':
            return [github('github_pull_request', 'close', ids, [['number', ids.number, NUMBER]])];
        case 'push_to_pull_request_branch':
            // A push refused for protected files falls back to an issue: nothing was pushed, an issue was opened.
            if (ids.issueUrl)
                return [github('github_issue', 'create', ids, [['number', ids.number, NUMBER]])];
            {
                // Places that disagree (a named branch and the pull request's head, two commits), or a push that moved nothing: no subject.
                const ref = refOf(item, ids, heads);
                const after = shaOf(item);
                for (const p of [ref, after])
                    if (p !== null && typeof p === 'object')
                        return [{ missing: p.conflict }];
                return [
                    github('github_branch_push', 'push', ids, [
                        [
                            'ref',
                            typeof ref === 'string' ? ref : null,
                            'the manifest names no branch: --pull-requests gives the head of a pull request in this repository',
                        ],
                        ['after', typeof after === 'string' ? after : null, 'metadata.commit_sha or after_state.head_sha'],
                    ]),
                ];
            }
        case 'add_labels': {
            const added = item['labelsAdded'];
            if (!Array.isArray(added))
                return [{ missing: 'no labelsAdded (an older gh-aw)' }];
            return added.map((name) => typeof name === 'string' && name.trim() !== ''
                ? github('github_label', 'add', ids, [
                    ['number', ids.number, NUMBER],
                    ['label_hash', (0,target_hash/* targetHash */.Gu)('github_label', name), ''],
                ])
                : { missing: 'a label that is not a name' });
        }
        default:
            return null;
    }
}
/** One manifest line → its calls. */
function manifestLine(item, line, heads) {
    const type = item['type'];
    if (typeof type !== 'string' || type === '')
        return { kind: 'error', message: 'a manifest line without a type' };
    const shown = (0,core_text/* quote */.hD)(type, 100);
    if (NOT_WRITES.has(type))
        return { kind: 'skip', reason: `${type} (not a write)` };
    const stamp = item['timestamp'];
    const time = typeof stamp === 'string' ? (0,core_time/* parseRfc3339 */.TM)(stamp) : null;
    if (!time?.ok)
        return {
            kind: 'error',
            message: `${JSON.stringify(shown)} item: timestamp ${time ? time.reason : 'is missing (gh-aw writes one on every line)'}`,
        };
    if (type === 'add_labels' && Array.isArray(item['labelsAdded']) && item['labelsAdded'].length === 0)
        return { kind: 'skip', reason: 'add_labels with no label added' };
    const provider = (0,json/* str */.gx)(item, 'provider');
    // Given, but not as text (`{"name": "jira"}`): never read as GitHub's (a red team).
    if (item['provider'] !== undefined && item['provider'] !== null && provider === null)
        return {
            kind: 'error',
            message: `${JSON.stringify(shown)} item: provider is given, but not as text: whose write it is cannot be said`,
        };
    const ids = idsOf(item);
    const noClass = [{ missing: `gh-aw type ${JSON.stringify(shown)} has no class` }];
    const subjects = provider !== null && provider !== 'github'
        ? [{ missing: `provider ${JSON.stringify((0,core_text/* quote */.hD)(provider, 40))} (not GitHub)` }]
        : 'conflict' in ids
            ? subjectsOf(type, item, NO_IDS, heads) === null
                ? noClass
                : [{ missing: ids.conflict }]
            : (subjectsOf(type, item, ids, heads) ?? noClass);
    const calls = subjects.map((bound) => ({
        tool: `gh-aw.${shown}`,
        server: null,
        callId: (0,json/* str */.gx)(item, 'temporaryId'),
        time: (0,core_time/* rfc3339 */.ag)(time.value),
        line,
        succeeded: true,
        asserts: true,
        effect: 'effect' in bound ? bound.effect : null,
        note: 'missing' in bound ? bound.missing : null,
    }));
    return { kind: 'calls', calls };
}

;// CONCATENATED MODULE: ./src/tools/import-run/mcp-jsonrpc.ts
/**
 * gh-aw's MCP gateway log (`rpc-messages.jsonl`; docs/producers.md): one JSON object per message the
 * gateway passed, v1 lines (`direction` OUT/IN, required: a tools/call goes OUT and its answer comes IN; `type` REQUEST/RESPONSE, `server_id`, `payload`) and
 * v2 lines (`"_schema": "rpc-message/v2"`, `event` rpc_request/rpc_response). The JSON-RPC message is
 * the `payload`. A `tools/call` request is paired with the next response of the same server and id;
 * the call succeeded when the response has a `result` that is not `isError`. Lines that are not
 * JSON-RPC messages of a tool call (other methods, filter events) are counted. What the calls do is
 * the mapping file's to say.
 */



/** A request id as JSON-RPC allows it (a string or a number), as text; null for anything else. */
const idOf = (payload) => {
    const id = payload['id'];
    return typeof id === 'string' ? `s:${id}` : typeof id === 'number' && Number.isFinite(id) ? `n:${id}` : null;
};
/**
 * Whether a line may carry a JSON-RPC message (a `payload` that is a batch, or an object with any
 * member of one: the v2 lines this reader takes need no `jsonrpc`): one it cannot place is refused,
 * never skipped (a red team: a batch, and a message without `jsonrpc`, under rpc-message/v3).
 */
const RPC_MEMBERS = ['jsonrpc', 'method', 'params', 'result', 'error', 'id'];
/** A `payload`: a batch, or an object with any member of a message. */
const payloadLike = (value) => Array.isArray(value) || ((0,json/* isObject */.Gv)(value) && RPC_MEMBERS.some((m) => value[m] !== undefined));
/**
 * A message under another name: `jsonrpc`, a `method` with its `params` or `id`, or an id with its
 * result or error. A `method` alone is not one (the gateway's own events give an HTTP method: a
 * `difc-event/v1` line `{"method": "GET", "path": …}` is no RPC message, a red team on the fix), nor
 * is an object with an id alone.
 */
const messageLike = (value) => Array.isArray(value)
    ? value.some(messageLike)
    : (0,json/* isObject */.Gv)(value) &&
        (value['jsonrpc'] !== undefined ||
            (typeof value['method'] === 'string' && (value['params'] !== undefined || value['id'] !== undefined)) ||
            (value['id'] !== undefined && (value['result'] !== undefined || value['error'] !== undefined)));
/** The words a line uses for an RPC message's direction (v1 `type`, v2 `event`). */
const RPC_KINDS = ['REQUEST', 'RESPONSE', 'rpc_request', 'rpc_response'];
/**
 * Any member of the line that is one (not only `payload`: a message under another name), the line
 * itself (`method` beside `_schema`), or a line that calls itself a request or a response (a red
 * team: a v3 line with its message under `message` was counted as "not an RPC message").
 */
const carriesRpc = (entry) => payloadLike(entry['payload']) ||
    RPC_KINDS.includes(entry['event']) ||
    RPC_KINDS.includes(entry['type']) ||
    messageLike(entry) ||
    Object.keys(entry).some((k) => messageLike(entry[k]));
const UNTOLD = 'tools/call requests whose answer cannot be told (an id used again before its answer)';
/** Requests and responses of one log file, paired as they come. */
class RpcPairs {
    pending = new Map();
    /** Ids used by two requests before an answer: the answers still owed, none of which can be paired (a red team: a failed create took a read's answer). */
    tangled = new Map();
    /** Requests of other methods (ping, resources/read) the client sent, by id, still owed an answer: a tools/call under the same id cannot be paired either. */
    others = new Map();
    /**
     * A request of another method than tools/call: never a call, but its id is owed an answer. Under
     * an id a tools/call waits on, which answer is whose cannot be told (a red team: a ping's error
     * answer was taken for the call's, and the call's own answer went to no request).
     */
    otherRequest(key) {
        const what = 'not a tools/call';
        if (key === null)
            return { kind: 'other', what };
        const owed = this.tangled.get(key);
        if (owed !== undefined)
            this.tangled.set(key, owed + 1);
        else if (this.pending.delete(key)) {
            this.tangled.set(key, 2);
            return { kind: 'other', what: UNTOLD };
        }
        else
            this.others.set(key, (this.others.get(key) ?? 0) + 1);
        return { kind: 'other', what };
    }
    line(entry, line) {
        const schema = entry['_schema'];
        const v2 = schema === 'rpc-message/v2';
        if (schema !== undefined && !v2)
            return carriesRpc(entry)
                ? {
                    kind: 'error',
                    message: `an RPC message of a log schema this reader does not know (_schema ${JSON.stringify((0,core_text/* quote */.hD)(String(schema), 60))}; it reads rpc-message/v2 and v1 lines)`,
                }
                : { kind: 'other', what: 'not an RPC message' };
        const kind = v2
            ? entry['event'] === 'rpc_request'
                ? 'request'
                : entry['event'] === 'rpc_response'
                    ? 'response'
                    : null
            : entry['type'] === 'REQUEST'
                ? 'request'
                : entry['type'] === 'RESPONSE'
                    ? 'response'
                    : null;
        if (kind === null) {
            if ((typeof entry['type'] === 'string' || typeof entry['event'] === 'string') && !carriesRpc(entry))
                return { kind: 'other', what: 'not an RPC message' };
            return { kind: 'error', message: 'not a gateway log line (v1 type REQUEST/RESPONSE, or v2 event rpc_request/rpc_response)' };
        }
        const server = entry['server_id'];
        const payload = entry['payload'];
        if (typeof server !== 'string' || server === '' || !(0,json/* isObject */.Gv)(payload))
            return { kind: 'error', message: `an RPC ${kind} without server_id or payload` };
        // The agent's client sends tools/call requests (OUT) and its servers answer them (IN); a request
        // a server sends (IN: ping, sampling) and the client's answer to it (OUT) are another exchange
        // with ids of their own, never a tools/call's answer. A line that says neither is refused.
        const direction = entry['direction'];
        if (direction !== 'OUT' && direction !== 'IN')
            return { kind: 'error', message: `an RPC ${kind} without direction OUT or IN: which side sent it cannot be said` };
        if (kind === 'request' && direction === 'IN')
            return { kind: 'other', what: 'requests a server sent' };
        if (kind === 'response' && direction === 'OUT')
            return { kind: 'other', what: 'answers the client sent' };
        const id = idOf(payload);
        if (kind === 'request') {
            if (payload['method'] !== 'tools/call')
                return this.otherRequest(id === null ? null : `${server}\u0000${id}`);
            const params = payload['params'];
            const name = (0,json/* isObject */.Gv)(params) ? params['name'] : undefined;
            if (typeof name !== 'string' || name === '')
                return { kind: 'error', message: 'a tools/call request without params.name' };
            if (id === null)
                return { kind: 'error', message: `the tools/call request of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} has no id` };
            const given = (0,json/* isObject */.Gv)(params) ? params['arguments'] : undefined;
            const args = (0,json/* isObject */.Gv)(given)
                ? { kind: 'object', value: given }
                : given === undefined
                    ? { kind: 'absent', why: 'no params.arguments' }
                    : { kind: 'unreadable', why: 'params.arguments is not an object' };
            // A request id used again before its answer: which answer is whose cannot be told (a reconnect, or
            // two requests in flight). Neither asserts anything, nor any later request under it until every answer owed came.
            const key = `${server}\u0000${id}`;
            const owed = this.tangled.get(key);
            if (owed !== undefined) {
                this.tangled.set(key, owed + 1);
                return { kind: 'other', what: UNTOLD };
            }
            if (this.pending.delete(key)) {
                this.tangled.set(key, 2);
                return { kind: 'other', what: UNTOLD, n: 2 };
            }
            // Another method's request still owed an answer under this id: the same.
            const others = this.others.get(key);
            if (others !== undefined) {
                this.others.delete(key);
                this.tangled.set(key, others + 1);
                return { kind: 'other', what: UNTOLD };
            }
            this.pending.set(key, { name, server, id, args, line });
            return { kind: 'waiting' };
        }
        if (id === null)
            return { kind: 'other', what: 'responses without an id' };
        const key = `${server}\u0000${id}`;
        const owed = this.tangled.get(key);
        if (owed !== undefined) {
            if (owed <= 1)
                this.tangled.delete(key);
            else
                this.tangled.set(key, owed - 1);
            return { kind: 'other', what: 'answers to an id two requests used' };
        }
        const others = this.others.get(key);
        if (others !== undefined) {
            if (others <= 1)
                this.others.delete(key);
            else
                this.others.set(key, others - 1);
            return { kind: 'other', what: 'answers to other requests' };
        }
        const request = this.pending.get(key);
        if (!request)
            return { kind: 'other', what: 'responses to no tools/call' };
        this.pending.delete(key);
        const stamp = entry['timestamp'];
        const time = typeof stamp === 'string' ? (0,core_time/* parseRfc3339 */.TM)(stamp) : null;
        if (!time?.ok)
            return { kind: 'error', message: `the response to ${JSON.stringify((0,core_text/* quote */.hD)(request.name, 80))} has no RFC 3339 timestamp` };
        const result = payload['result'];
        const failed = !(0,json/* isObject */.Gv)(result) || result['isError'] === true || payload['error'] !== undefined;
        return {
            kind: 'use',
            line: request.line,
            use: {
                name: request.name,
                server: request.server,
                callId: request.id.slice(2),
                time: time.value,
                succeeded: !failed,
                args: request.args,
                result: (0,json/* isObject */.Gv)(result) ? { kind: 'value', value: result } : { kind: 'absent' },
                source: 'mcp',
                key: null,
            },
        };
    }
    /** Requests the log never answered: their outcome is unknown (counted; no call asserts them). */
    unanswered() {
        return this.pending.size;
    }
}

// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __webpack_require__(755);
;// CONCATENATED MODULE: ./src/tools/import-run/otlp-json.ts
/**
 * Tool calls in OpenTelemetry files (docs/producers.md): a line of the OTLP file exporter
 * (`resourceSpans` / `resourceLogs`, OTLP JSON: hex ids, 64-bit integers as strings, attributes as
 * `[{key, value: {stringValue|intValue|boolValue|doubleValue|arrayValue|kvlistValue}}]`), or a line
 * of Copilot CLI's own file exporter (`{"type":"span", attributes: {…}, endTime: [s, ns]}`). A tool
 * call is a GenAI `execute_tool` span (semantic conventions v1.41.0: gen_ai.tool.name,
 * gen_ai.tool.call.id, .arguments and .result, opt-in content; failure: status code 2 or error.type)
 * or a Claude Code `tool_result` log event (tool_name, tool_use_id, success, tool_parameters,
 * tool_input). What the calls do is the mapping file's to say (tool-mapping.ts), never this file's.
 */




/**
 * A key given twice in one attribute list (or anywhere inside a value): which value is meant cannot
 * be said, so it gives nothing (docs/producers.md), never the first or the last. A symbol: no JSON
 * value can be it.
 */
const TWICE = Symbol('given twice');
/**
 * A value that is not an OTLP JSON AnyValue (a member OTLP JSON does not give, such as the proto's
 * `string_value`; a key-value item without its key): what it holds cannot be read, so the span or
 * record it is in is refused, never read as if the attribute were absent (a red team). A symbol: no
 * JSON value can be it.
 */
const ODD = Symbol('not an AnyValue');
/**
 * An OTLP AnyValue → a JSON value (a kvlist an object of own properties, an intValue a number when
 * it is exact); TWICE when a key inside it is given twice, ODD when it is not an AnyValue: a member
 * OTLP JSON does not give, two members (a oneof), or a member of the wrong type (`{"intValue":
 * "execute_tool"}`, `{"stringValue": [..]}`: each read as empty, and a tool call was passed over).
 * bytesValue is base64 text the gate never reads (null).
 */
function anyValue(value, depth = 0) {
    // No value at all (proto3 JSON leaves an unset one out) is an empty value.
    if (depth > 32 || value === undefined)
        return null;
    if (!(0,json/* isObject */.Gv)(value))
        return ODD;
    const keys = Object.keys(value);
    if (keys.length === 0)
        return null;
    if (keys.length > 1)
        return ODD;
    const v = value[keys[0]];
    switch (keys[0]) {
        case 'stringValue':
            return typeof v === 'string' ? v : ODD;
        case 'boolValue':
            return typeof v === 'boolean' ? v : ODD;
        case 'intValue':
            if (typeof v === 'number' && Number.isInteger(v))
                return v;
            if (typeof v === 'string' && /^-?\d{1,20}$/.test(v))
                return Number.isSafeInteger(Number(v)) ? Number(v) : v;
            return ODD;
        case 'doubleValue':
            return typeof v === 'number' ? v : v === 'NaN' || v === 'Infinity' || v === '-Infinity' ? null : ODD;
        case 'bytesValue':
            return typeof v === 'string' ? null : ODD;
        case 'arrayValue': {
            if (!(0,json/* isObject */.Gv)(v) || Object.keys(v).some((k) => k !== 'values'))
                return ODD;
            const given = v['values'];
            if (given !== undefined && !Array.isArray(given))
                return ODD;
            const items = (given ?? []).map((x) => anyValue(x, depth + 1));
            return items.includes(TWICE) ? TWICE : items.includes(ODD) ? ODD : items;
        }
        case 'kvlistValue': {
            if (!(0,json/* isObject */.Gv)(v) || Object.keys(v).some((k) => k !== 'values'))
                return ODD;
            const kv = pairs(v['values'], depth + 1);
            if (kv === ODD)
                return ODD;
            return kv.some(([, x]) => x === TWICE) ? TWICE : kv.some(([, x]) => x === ODD) ? ODD : Object.fromEntries(kv);
        }
        default:
            return ODD;
    }
}
/** `[{key, value}]` → [key, value] pairs; a key given twice is TWICE (Object.fromEntries defines own properties: no key reaches a prototype). */
function pairs(list, depth) {
    if (list === undefined)
        return [];
    // A flat object or anything else where OTLP JSON gives a list of {key, value}: not read as none.
    if (!Array.isArray(list))
        return ODD;
    const at = new Map();
    const out = [];
    for (const kv of list) {
        if (!(0,json/* isObject */.Gv)(kv) || typeof kv['key'] !== 'string' || Object.keys(kv).some((k) => k !== 'key' && k !== 'value'))
            return ODD;
        const key = kv['key'];
        const i = at.get(key);
        if (i !== undefined) {
            out[i] = [key, TWICE];
            continue;
        }
        at.set(key, out.length);
        out.push([key, anyValue(kv['value'], depth)]);
    }
    return out;
}
/** The first of these attributes given twice, or null. */
const givenTwice = (attrs, keys) => keys.find((k) => attrs.get(k) === TWICE) ?? null;
const otlp_json_text = (attrs, key) => {
    const v = attrs.get(key);
    return typeof v === 'string' && v !== '' ? v : null;
};
/** The first of `keys` given as something other than text (a number, an OTLP value object), or null: never read as absent. */
const notText = (attrs, keys) => keys.find((k) => {
    const v = attrs.get(k);
    return v !== undefined && v !== null && typeof v !== 'string';
}) ?? null;
/** A JSON text or a structured value → the object it is, or why not. */
function objectOf(given, what) {
    if (given === TWICE)
        return { kind: 'unreadable', why: `${what} (or a key inside it) is given twice` };
    if (given === undefined || given === null)
        return { kind: 'absent', why: `no ${what}` };
    if ((0,json/* isObject */.Gv)(given))
        return { kind: 'object', value: given };
    if (typeof given !== 'string')
        return { kind: 'unreadable', why: `${what} is not an object` };
    const parsed = (0,strict/* jsonOrText */.BG)(given);
    if (parsed.kind === 'text')
        return { kind: 'unreadable', why: `${what} is not JSON (cut short by the producer?)` };
    if (parsed.kind === 'refused')
        return { kind: 'unreadable', why: `${what} is not strict JSON (${parsed.reason})` };
    return (0,json/* isObject */.Gv)(parsed.value)
        ? { kind: 'object', value: parsed.value }
        : { kind: 'unreadable', why: `${what} is JSON but not an object` };
}
/** A tool's result: structured, JSON text read strictly, other text as it is; JSON the strict reader refuses is unreadable, never a value. */
function resultOf(given) {
    if (given === TWICE)
        return { kind: 'unreadable', why: 'gen_ai.tool.call.result (or a key inside it) is given twice' };
    if (given === undefined || given === null)
        return { kind: 'absent' };
    if (typeof given !== 'string')
        return { kind: 'value', value: given };
    const parsed = (0,strict/* jsonOrText */.BG)(given);
    if (parsed.kind === 'refused')
        return { kind: 'unreadable', why: `gen_ai.tool.call.result is not strict JSON (${parsed.reason})` };
    return { kind: 'value', value: parsed.kind === 'json' ? parsed.value : given };
}
/** A status that is not `{code, message}` (a string, `{"Code": 2}`): what it says cannot be read, so neither failed nor not. */
const UNREADABLE_STATUS = Symbol('unreadable status');
/**
 * A span's status code: absent (unset), or an object of `code` and `message` (proto3 JSON leaves the
 * unset code out). Any other shape is unreadable, never "unset" (a red team: `"STATUS_CODE_ERROR"` as
 * a string and `{"Code": 2}` were read as a success).
 */
function statusCode(given) {
    if (given === undefined || given === null)
        return undefined;
    if ((0,json/* isObject */.Gv)(given) && Object.keys(given).every((k) => k === 'code' || k === 'message'))
        return given['code'];
    return UNREADABLE_STATUS;
}
/** A span's status code as OTLP JSON (a number, or its name) and OpenTelemetry JS write it: failed or not; null for a code that is neither. */
function statusFailed(code) {
    if (code === undefined || code === null || code === 0 || code === 1 || code === '0' || code === '1')
        return false;
    if (code === 'STATUS_CODE_UNSET' || code === 'STATUS_CODE_OK')
        return false;
    if (code === 2 || code === '2' || code === 'STATUS_CODE_ERROR')
        return true;
    return null;
}
/** A result that says the tool failed (an MCP CallToolResult with isError). */
const resultFailed = (result) => result.kind === 'value' && (0,json/* isObject */.Gv)(result.value) && result.value['isError'] === true;
/** A span's tool call, or null when the span is not one: `execute_tool` (or an MCP tools/call span that says it is one). */
function spanUse(attrs, spanName, time, status, key) {
    const operation = otlp_json_text(attrs, 'gen_ai.operation.name');
    const given = attrs.get('gen_ai.operation.name');
    if (given === TWICE)
        return 'a span gives gen_ai.operation.name twice: whether it is a tool call cannot be said';
    // Given, but not as text (a number, an object such as an OTLP value in Copilot CLI's flat attributes): never read as absent.
    if (given !== undefined && given !== null && typeof given !== 'string')
        return 'a span gives gen_ai.operation.name, but not as text: whether it is a tool call cannot be said';
    if (operation !== 'execute_tool')
        return null;
    const twice = givenTwice(attrs, ['gen_ai.tool.name', 'gen_ai.tool.call.id', 'error.type']);
    if (twice !== null)
        return `an execute_tool span gives ${twice} twice: which one is meant cannot be said`;
    // A red team's: a tool name given as a number fell back to the span's name.
    const odd = notText(attrs, ['gen_ai.tool.name', 'gen_ai.tool.call.id']);
    if (odd !== null)
        return `an execute_tool span gives ${odd}, but not as text: which call it is cannot be said`;
    const name = otlp_json_text(attrs, 'gen_ai.tool.name') ?? (spanName.startsWith('execute_tool ') ? spanName.slice(13).trim() : '');
    if (name === '')
        return 'an execute_tool span without gen_ai.tool.name';
    if (time === null)
        return `the execute_tool span of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} has no end time`;
    if (status === UNREADABLE_STATUS)
        return `the execute_tool span of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} has a status that is not an object of code and message: whether it failed cannot be said`;
    const failed = statusFailed(status);
    if (failed === null)
        return `the execute_tool span of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} has status.code ${JSON.stringify(status)}, not an OpenTelemetry status`;
    const result = resultOf(attrs.get('gen_ai.tool.call.result'));
    return {
        name,
        server: null,
        callId: otlp_json_text(attrs, 'gen_ai.tool.call.id'),
        time,
        succeeded: !failed && !attrs.has('error.type') && !resultFailed(result),
        args: objectOf(attrs.get('gen_ai.tool.call.arguments'), 'gen_ai.tool.call.arguments'),
        result,
        source: 'span',
        key,
    };
}
/** A Claude Code log event's tool call, or null when the record is another event. */
function claudeUse(record, attrs) {
    const body = anyValue(record['body']);
    const names = [record['eventName'], body, attrs.get('event.name')];
    if (attrs.get('event.name') === TWICE)
        return 'an event gives event.name twice: whether it is a tool result cannot be said';
    if (!names.some((n) => n === 'tool_result' || n === 'claude_code.tool_result'))
        return null;
    const twice = givenTwice(attrs, ['tool_name', 'name', 'success', 'tool_use_id']);
    if (twice !== null)
        return `a tool_result event gives ${twice} twice: which one is meant cannot be said`;
    const odd = notText(attrs, ['tool_name', 'name', 'tool_use_id']);
    if (odd !== null)
        return `a tool_result event gives ${odd}, but not as text: which call it is cannot be said`;
    const params = objectOf(attrs.get('tool_parameters'), 'tool_parameters');
    const given = otlp_json_text(attrs, 'tool_name') ?? otlp_json_text(attrs, 'name') ?? '';
    let name = given;
    let server = null;
    const mcpTool = params.kind === 'object' && typeof params.value['mcp_tool_name'] === 'string' ? params.value['mcp_tool_name'] : null;
    const mcpServer = params.kind === 'object' && typeof params.value['mcp_server_name'] === 'string' ? params.value['mcp_server_name'] : null;
    if (mcpTool !== null && mcpTool !== '') {
        // tool_name is the redacted `mcp_tool`, or the same tool as mcp__SERVER__TOOL: anything else names another tool.
        if (given !== '' && given !== 'mcp_tool' && given !== `mcp__${mcpServer ?? ''}__${mcpTool}`)
            return `a tool_result event whose tool_name ${JSON.stringify((0,core_text/* quote */.hD)(given, 80))} and tool_parameters (${JSON.stringify((0,core_text/* quote */.hD)(mcpTool, 80))}) name different tools`;
        name = mcpTool;
        server = mcpServer;
    }
    else {
        // mcp__SERVER__TOOL, Claude Code's own name for an MCP tool.
        const split = /^mcp__(.+?)__(.+)$/.exec(given);
        if (split?.[1] && split[2]) {
            server = split[1];
            name = split[2];
        }
    }
    if (name === '')
        return 'a tool_result event without tool_name';
    const time = (0,core_time/* fromEpochNanos */.Bi)(record['timeUnixNano']) ?? (0,core_time/* fromEpochNanos */.Bi)(record['observedTimeUnixNano']);
    if (time === null)
        return `the tool_result event of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} has no time`;
    const success = attrs.get('success');
    const said = typeof success === 'string' ? success.toLowerCase() : success;
    if (said !== true && said !== false && said !== 'true' && said !== 'false')
        return `the tool_result event of ${JSON.stringify((0,core_text/* quote */.hD)(name, 80))} says neither true nor false in success`;
    const id = otlp_json_text(attrs, 'tool_use_id');
    return {
        name,
        server,
        callId: id,
        time,
        succeeded: said === true || said === 'true',
        args: objectOf(attrs.get('tool_input'), 'tool_input'),
        result: { kind: 'never', source: "Claude Code's tool_result events" },
        source: 'claude-code',
        key: id === null ? null : `claude:${id}`,
    };
}
/** A span's identity (trace and span id, hex, non-empty), for telling a repeat; null: the span cannot be told from another. */
function spanKey(span) {
    const trace = span['traceId'];
    const id = span['spanId'];
    return typeof trace === 'string' && typeof id === 'string' && /^[0-9a-fA-F]+$/.test(trace) && /^[0-9a-fA-F]+$/.test(id)
        ? `span:${trace}/${id}`.toLowerCase()
        : null;
}
/** `[s, ns]` (OpenTelemetry JS's HrTime, Copilot CLI's file) → an instant. */
function hrTime(given) {
    if (!Array.isArray(given) || given.length !== 2)
        return null;
    const [s, ns] = given;
    if (!Number.isSafeInteger(s) || !Number.isSafeInteger(ns) || ns < 0 || ns >= 1e9)
        return null;
    return (0,core_time/* fromEpochNanos */.Bi)(`${s}${String(ns).padStart(9, '0')}`);
}
/** What OTLP JSON gives beside its list in a resource's and a scope's object (the proto's fields, in JSON's lowerCamelCase). */
const LINE_KEYS = ['resourceSpans', 'resourceLogs', 'resourceMetrics'];
const RESOURCE_KEYS = ['resource', 'schemaUrl'];
const SCOPE_KEYS = ['scope', 'schemaUrl'];
/** One line of an OTLP JSON file (or of Copilot CLI's file) → its tool calls. */
function telemetryLine(line) {
    const uses = [];
    const errors = [];
    let other = 0;
    const take = (got) => {
        if (got === null)
            other++;
        else if (typeof got === 'string')
            errors.push(got);
        else
            uses.push(got);
    };
    const known = ['resourceSpans', 'resourceLogs', 'resourceMetrics'].some((k) => Array.isArray(line[k])) || typeof line['type'] === 'string';
    if (!known)
        return { uses, other, errors: ['not an OTLP JSON line (resourceSpans, resourceLogs) nor a Copilot CLI span line ("type": "span")'] };
    // A level holding a key OTLP JSON does not give there (`resource_spans` beside the line's lists, an
    // older collector's `instrumentationLibrarySpans`, a `scope_spans` spelled as in the proto) is
    // refused: its spans would be passed over (a red team).
    const unread = (value, known, where, why) => {
        const keys = Object.keys(value).filter((k) => !known.includes(k));
        if (keys.length > 0)
            errors.push(`${where} holds ${keys.map((k) => JSON.stringify((0,core_text/* quote */.hD)(k, 60))).join(', ')}${why}: refused, never passed over`);
    };
    if (typeof line['type'] !== 'string')
        unread(line, LINE_KEYS, 'the line', ' beside its lists, which OTLP JSON does not give (resourceSpans, resourceLogs, resourceMetrics)');
    else {
        // A Copilot CLI line ("type") that holds OTLP lists too, in any spelling: which it is cannot be said (a red team: its spans were passed over).
        const lists = Object.keys(line).filter((k) => /^resource_?(spans|logs|metrics)$/i.test(k));
        if (lists.length > 0)
            errors.push(`the line gives "type" (a Copilot CLI line) and ${lists.map((k) => JSON.stringify((0,core_text/* quote */.hD)(k, 60))).join(', ')} (OTLP JSON): which it is cannot be said; refused, never passed over`);
    }
    // Every level of the structure is a list of objects: anything else is said, never skipped.
    const each = (value, key, where, known = null) => {
        if (known !== null && (0,json/* isObject */.Gv)(value))
            unread(value, [key, ...known], where, `, which OTLP JSON does not give there (its list is ${key})`);
        const got = (0,json/* isObject */.Gv)(value) ? value[key] : undefined;
        if (got === undefined)
            return [];
        if (!Array.isArray(got)) {
            errors.push(`${where}.${key} is not a list`);
            return [];
        }
        const objects = got.filter(json/* isObject */.Gv);
        if (objects.length < got.length)
            errors.push(`${where}.${key} holds ${got.length - objects.length} item(s) that are not objects`);
        return objects;
    };
    // Attributes as OTLP JSON gives them, or why they cannot be read (their span or record refused).
    const attributes = (value, where) => {
        const kv = pairs(value, 0);
        if (kv === ODD)
            return `${where}'s attributes are not a list of OTLP key-value pairs ({key, value}): refused, never read as none`;
        const odd = kv.find(([, v]) => v === ODD);
        if (odd)
            return `${where} attribute ${JSON.stringify((0,core_text/* quote */.hD)(odd[0], 60))} is not an OTLP JSON value (stringValue, intValue, …): refused, never read as absent`;
        return new Map(kv);
    };
    for (const resource of each(line, 'resourceSpans', 'the line'))
        for (const scope of each(resource, 'scopeSpans', 'resourceSpans[]', RESOURCE_KEYS))
            for (const span of each(scope, 'spans', 'scopeSpans[]', SCOPE_KEYS)) {
                const attrs = attributes(span['attributes'], 'a span');
                if (typeof attrs === 'string') {
                    take(attrs);
                    continue;
                }
                const status = statusCode(span['status']);
                take(spanUse(attrs, typeof span['name'] === 'string' ? span['name'] : '', (0,core_time/* fromEpochNanos */.Bi)(span['endTimeUnixNano']), status, spanKey(span)));
            }
    for (const resource of each(line, 'resourceLogs', 'the line'))
        for (const scope of each(resource, 'scopeLogs', 'resourceLogs[]', RESOURCE_KEYS))
            for (const record of each(scope, 'logRecords', 'scopeLogs[]', SCOPE_KEYS)) {
                const attrs = attributes(record['attributes'], 'a log record');
                take(typeof attrs === 'string' ? attrs : claudeUse(record, attrs));
            }
    other += each(line, 'resourceMetrics', 'the line').length;
    const type = line['type'];
    if (typeof type === 'string' && type !== 'span' && (0,core_text/* asciiLower */.F)(type) === 'span')
        errors.push(`the line's type is ${JSON.stringify((0,core_text/* quote */.hD)(type, 20))}: Copilot CLI writes "span"; refused, never passed over`);
    else if (type === 'span' && line['attributes'] !== undefined && !(0,json/* isObject */.Gv)(line['attributes']))
        errors.push("a Copilot CLI span line's attributes are not an object of values: refused, never read as none");
    else if (type === 'span') {
        // Copilot CLI's file: attributes a flat object of JSON values, times [s, ns], status code 2 an error.
        const flat = (0,json/* isObject */.Gv)(line['attributes']) ? line['attributes'] : {};
        const attrs = new Map(Object.keys(flat).map((k) => [k, flat[k]]));
        const status = statusCode(line['status']);
        take(spanUse(attrs, typeof line['name'] === 'string' ? line['name'] : '', hrTime(line['endTime']), status, spanKey(line)));
    }
    else if (typeof line['type'] === 'string')
        other++;
    return { uses, other, errors };
}

;// CONCATENATED MODULE: ./src/tools/import-run/tool-mapping.ts
/**
 * A tool call and the mapping file → what the call asserts (docs/producers.md §"The mapping file").
 * The first rule whose tool (and server, and guard) match decides: a successful call it names asserts
 * its side effect, bound on the fields the rule says where to find; a call no rule names asserts
 * nothing. A field the call does not carry (content capture off, a result without the id) leaves the
 * call without a subject, with the reason said: the importer never guesses a target.
 */









function resultView(use) {
    if (use.result.kind === 'unreadable')
        return { ok: false, reason: use.result.why };
    if (use.result.kind !== 'value')
        return { ok: true, value: null };
    const value = use.result.value;
    const texts = [];
    const content = (0,json/* isObject */.Gv)(value) ? value['content'] : undefined;
    if (Array.isArray(content))
        for (const item of content) {
            if (!(0,json/* isObject */.Gv)(item) || typeof item['text'] !== 'string')
                continue;
            const read = (0,strict/* jsonOrText */.BG)(item['text']);
            if (read.kind === 'refused')
                return { ok: false, reason: `the result's text content is not strict JSON (${read.reason})` };
            if (read.kind === 'json')
                texts.push(read.value);
        }
    return { ok: true, value: { value, texts } };
}
/** Places of one result that give one field differently: which one is meant cannot be said. */
const DISAGREE = Symbol('places disagree');
/** The canonical text of a value (how two places' values are compared). */
const canonical = (v) => {
    const c = (0,binding/* jcs */.vI)(v);
    return c.ok ? c.text : null;
};
/**
 * A result's value at a path, from every place a result gives it: the result itself, its
 * `structuredContent`, its JSON text contents. One value (however many places give it), undefined
 * when none does, DISAGREE when two places give two values (never the first taken).
 */
function inResult(view, path) {
    const found = [];
    const direct = (0,json/* memberAt */.mz)(view.value, path);
    if (direct !== undefined)
        found.push(direct);
    if ((0,json/* isObject */.Gv)(view.value)) {
        const structured = (0,json/* memberAt */.mz)(view.value['structuredContent'], path);
        if (structured !== undefined)
            found.push(structured);
    }
    for (const text of view.texts) {
        const at = (0,json/* memberAt */.mz)(text, path);
        if (at !== undefined)
            found.push(at);
    }
    const [first] = found;
    if (found.length <= 1)
        return first;
    const text = canonical(first);
    return text !== null && found.every((x) => canonical(x) === text) ? first : DISAGREE;
}
/** A member at a path where every array on the way holds exactly one element (one operation's answer, never a batch's). */
function onlyAt(value, path) {
    let node = value;
    for (const segment of path) {
        if (Array.isArray(node) && node.length !== 1)
            return undefined;
        node = (0,json/* memberAt */.mz)(node, [segment]);
        if (node === undefined)
            return undefined;
    }
    return node;
}
/**
 * Whether a result says its call failed by the rule's `failed` member: `yes` when a place (the value,
 * its structuredContent, a JSON text content) gives `true` or a non-empty string and none gives
 * another value; `disagree` when one does and another gives something else; else `no` (absent, null,
 * false, empty: a write as the source says). A batch's answer (an array of more than one) says no.
 */
function failedBy(view, path) {
    const places = [view.value, (0,json/* isObject */.Gv)(view.value) ? view.value['structuredContent'] : undefined, ...view.texts];
    const given = places.map((p) => onlyAt(p, path)).filter((v) => v !== undefined);
    const failed = (v) => v === true || (typeof v === 'string' && v !== '');
    if (!given.some(failed))
        return 'no';
    return given.every(failed) ? 'yes' : 'disagree';
}
/** A command line's words as a POSIX shell splits them (single and double quotes, backslashes), or null when a quote is not closed. */
function words(line) {
    const out = [];
    let word = null;
    let quote = null;
    const add = (text) => {
        word = (word ?? '') + text;
    };
    for (let i = 0; i < line.length; i++) {
        const c = line.charAt(i);
        const next = line.charAt(i + 1);
        if (quote === "'") {
            if (c === "'")
                quote = null;
            else
                add(c);
        }
        else if (quote === '"') {
            if (c === '"')
                quote = null;
            else if (c === '\\' && next !== '' && '"\\$`'.includes(next)) {
                add(next);
                i++;
            }
            else
                add(c);
        }
        else if (/\s/.test(c)) {
            if (word !== null)
                out.push(word);
            word = null;
        }
        else if (c === "'" || c === '"') {
            quote = c;
            add('');
        }
        else if (c === '\\' && next !== '') {
            add(next);
            i++;
        }
        else
            add(c);
    }
    if (quote !== null)
        return null;
    if (word !== null)
        out.push(word);
    return out;
}
/** Whether a command's word names `option`: whole, or abbreviated as argparse takes it (`--user` for `--user-name`). */
const namesOption = (word, option) => word === option || (word.length > 3 && word.startsWith('--') && option.startsWith(word));
/** The value of `--option VALUE` or `--option=VALUE` (or an abbreviation of it) in a command line, or null. */
function optionValue(line, option) {
    const list = words(line);
    if (list === null)
        return null;
    const found = [];
    for (let i = 0; i < list.length; i++) {
        const w = list[i] ?? '';
        const eq = w.indexOf('=');
        const key = eq < 0 ? w : w.slice(0, eq);
        if (!namesOption(key, option))
            continue;
        found.push(eq < 0 ? (list[i + 1] ?? '') : w.slice(eq + 1));
    }
    // Given twice, a CLI takes the last: which one the command meant is not the mapping's to guess.
    return found.length === 1 && found[0] !== '' ? (found[0] ?? null) : null;
}
/** A part of a GitHub URL, by its name in the mapping. */
const URL_PART = {
    owner: (url) => url.owner,
    repo: (url) => url.repo,
    number: (url) => url.number,
    comment_id: (url) => url.commentId,
};
/** How to turn content capture on, per source (the import's summary says it once). */
const CAPTURE_HINT = {
    span: 'turn content capture on: OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true (Copilot CLI and most GenAI instrumentations)',
    'claude-code': 'turn tool details on: OTEL_LOG_TOOL_DETAILS=1 (Claude Code)',
    mcp: 'the gateway logged the request without its arguments',
};
/** Whether a rule takes a call of this tool on this server (its guard aside): the tool's name exactly (or its glob), and its server when the rule names one. */
const matches = (rule, name, server) => (0,glob/* globMatches */.mw)(rule.tool, name) && (rule.server === null || rule.server === server);
/**
 * Whether the guard holds: `yes` when the argument is text whose words (as a shell splits them)
 * begin with the prefix's words, or equals the value; `loose` when it holds the prefix's words in
 * order with others before or between them (`aws --profile prod iam create-access-key`, a quote
 * left open): the command is this write, in a shape the mapping does not read (asserted, with no
 * subject); `no` otherwise.
 */
function guarded(rule, args) {
    if (rule.when === null)
        return 'yes';
    const given = args === null ? undefined : (0,json/* memberAt */.mz)(args, rule.when.path);
    if (typeof given !== 'string')
        return 'no';
    if (rule.when.prefix === null)
        return given === rule.when.equals ? 'yes' : 'no';
    const want = words(rule.when.prefix) ?? [rule.when.prefix];
    const got = words(given);
    if (got === null)
        return given.includes(want[0] ?? '') ? 'loose' : 'no';
    if (want.every((w, i) => got[i] === w))
        return 'yes';
    let at = 0;
    for (const w of got)
        if (w === want[at])
            at++;
    return at === want.length ? 'loose' : 'no';
}
/** The first option of `unless` the command gives (whole, `--opt=…`, or as an abbreviation a CLI would take), or null. */
function givenOption(line, options) {
    const list = words(line) ?? line.split(/\s+/);
    for (const o of options)
        if (list.some((w) => namesOption(w.split('=')[0] ?? w, o)))
            return o;
    return null;
}
/** One field's value from its source, or why the call does not give it. */
function fieldValue(field, source, use, result, whole, urls) {
    const missing = (why) => ({ ok: false, reason: `${field}: ${why}` });
    let given;
    let where;
    if (source.from === 'value') {
        // A constant as the mapping gives it (null: a field the class leaves empty).
        if (source.value === null || source.hash === null)
            return { ok: true, value: source.value };
        given = source.value;
        where = 'the mapping';
    }
    else if (source.from === 'arg') {
        if (use.args.kind !== 'object')
            return missing(use.args.why);
        given = (0,json/* memberAt */.mz)(use.args.value, source.path);
        where = `arguments.${source.path.join('.')}`;
    }
    else {
        if (result === null)
            return missing('no result captured');
        given = inResult(result, source.path);
        where = `result.${source.path.join('.')}`;
        if (given === DISAGREE)
            return missing(`${where} is given differently by the result's places (its value, structuredContent, text contents)`);
    }
    if (given === undefined || given === null)
        return missing(`nothing at ${where}`);
    if (source.from !== 'value' && source.cliOption !== null) {
        const option = typeof given === 'string' ? optionValue(given, source.cliOption) : null;
        if (option === null)
            return missing(`${where} is not a command line with ${source.cliOption} given once`);
        given = option;
    }
    if (source.from !== 'value' && source.urlPart !== null) {
        const url = typeof given === 'string' ? githubUrl(given) : null;
        const part = url === null ? null : URL_PART[source.urlPart](url);
        if (part === null)
            return missing(`${where} is not a GitHub URL with its ${source.urlPart}`);
        if (url)
            urls.push((0,core_text/* asciiLower */.F)(`${url.owner}/${url.repo}`));
        given = part;
    }
    if (source.hash !== null)
        return typeof given === 'string' && given.trim() !== ''
            ? { ok: true, value: (0,target_hash/* targetHash */.Gu)(source.hash, given) }
            : missing(`${where} is not text to hash`);
    if (whole) {
        const n = typeof given === 'string' && /^[1-9]\d{0,15}$/.test(given) ? Number(given) : given;
        return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? { ok: true, value: n } : missing(`${where} is not a whole number`);
    }
    return typeof given === 'string' && given !== '' ? { ok: true, value: given } : missing(`${where} is not text`);
}
/** A tool call → what it asserts under the mapping. */
function mapUse(use, mapping, line) {
    const args = use.args.kind === 'object' ? use.args.value : null;
    // The first rule whose tool matches and whose guard holds, however loosely (first match wins).
    let found;
    let guard = 'no';
    for (const r of mapping.rules) {
        guard = matches(r, use.name, use.server) ? guarded(r, args) : 'no';
        if (guard !== 'no') {
            found = r;
            break;
        }
    }
    const rule = guard === 'yes' ? found : undefined;
    const base = { tool: use.name, server: use.server, callId: use.callId, time: (0,core_time/* rfc3339 */.ag)(use.time), line, succeeded: use.succeeded };
    /** The write asserted with no subject: the call names a write whose target cannot be read (`note`: why). */
    const unbound = (note, count = 'named without its target', hint = null) => ({
        kind: 'call',
        call: { ...base, asserts: true, effect: null, note },
        count,
        hint,
    });
    // Guards on arguments the call does not give as text (none carried, or every guard's argument
    // absent: a manifest given instead of a resource type): the mapping names the tool, the call cannot
    // say which rule, nor that it is none of them (a red team: kubectl_create with a manifest asserted nothing).
    const guardedRules = found ? [] : mapping.rules.filter((r) => matches(r, use.name, use.server) && r.when !== null);
    const unreadable = guardedRules.length > 0 &&
        guardedRules.every((r) => args === null || (r.when !== null && typeof (0,json/* memberAt */.mz)(args, r.when.path) !== 'string'));
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
    if (!result.ok)
        return unbound(result.reason);
    if (found && !rule)
        return unbound(`${found.name}: the command holds its guard's words with others before or between them (a global option, a quote): its target cannot be read`);
    // An option the rule names in `unless` (another profile's account): the rule's constants may not hold.
    const said = rule?.when?.unless.length ? givenOption(String((0,json/* memberAt */.mz)(args ?? {}, rule.when.path)), rule.when.unless) : null;
    if (rule && said !== null)
        return unbound(`${rule.name}: the command gives ${said}: the target's constants may not hold`);
    if (!rule) {
        if (use.args.kind === 'object') {
            const paths = [...new Set(guardedRules.map((r) => `arguments.${r.when?.path.join('.') ?? ''}`))].join(', ');
            return unbound(`${named.name}: its guard reads ${paths}, which the call does not give as text: which write it is, if any, cannot be said`);
        }
        return unbound(`the guard of ${named.name} reads arguments: ${use.args.why}; ${CAPTURE_HINT[use.source]}`, 'named without arguments', CAPTURE_HINT[use.source]);
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
    const whole = (0,classes/* classRow */.FC)(rule.actionClass)?.wholeNumbers ?? new Set();
    const target = [];
    const urls = [];
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
    if (typeof owner === 'string' && typeof repo === 'string' && urls.some((u) => u !== (0,core_text/* asciiLower */.F)(`${owner}/${repo}`)))
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
function swapped(a, b) {
    if (a.length !== b.length)
        return false;
    let i = 0;
    while (i < a.length && a[i] === b[i])
        i++;
    return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}
/** One slip of the fingers between two names, letter case aside: one edit, or two neighbours swapped. */
const slip = (a, b) => {
    const [x, y] = [(0,core_text/* asciiLower */.F)(a), (0,core_text/* asciiLower */.F)(b)];
    return (0,core_text/* editDistance */.YC)(x, y) <= 1 || swapped(x, y);
};
/** What an import counted as not in the mapping: the names no rule took. */
const UNMAPPED = 'not in the mapping (asserting nothing)';
/** A qualifier before a tool's own name (`github.`, `mcp__github__`, `github/`, `github:`): what a glob naming the server in the tool's name begins with. */
const QUALIFIER = /^[^*]*(?:\.|__|\/|:)/;
/**
 * How a rule's tool nearly names a call's: null when it names it, undefined when it is another tool;
 * else the difference: letter case only (`Create_Issue`), one letter off (`create_isue`,
 * `craete_issue`: a name, never a glob), or the tool's own name behind a qualifier the calls do not
 * write (`github.create_*` for `create_issue`).
 */
function nearTool(rule, tool) {
    if ((0,glob/* globMatches */.mw)(rule.tool, tool))
        return null;
    const text = rule.tool.pieces.join('*');
    const lower = (0,core_text/* asciiLower */.F)(tool);
    const caseless = (0,glob/* compileGlob */.SO)((0,core_text/* asciiLower */.F)(text));
    if ((0,glob/* globMatches */.mw)(caseless, lower))
        return 'the tool differs in letter case only';
    if (rule.tool.pieces.length === 1 && slip(text, tool))
        return 'a misspelt tool name';
    const bare = (0,core_text/* asciiLower */.F)(text).replace(QUALIFIER, '');
    if (bare !== (0,core_text/* asciiLower */.F)(text) && bare !== '' && (0,glob/* globMatches */.mw)((0,glob/* compileGlob */.SO)(bare), lower))
        return `the calls name the tool without ${(0,core_text/* quote */.hD)(text.slice(0, text.length - bare.length), 80)}`;
    // The call's name behind its server's (`mcp__github__create_issue`, `github.create_issue`,
    // `github-mcp-server-create_issue`, `mcp_github_create_issue`, `github_create_issue`; red teams): a
    // one-letter join only after the rule's provider's name, so `bulk_create_issue` is another tool.
    const provider = new RegExp(`^(?:mcp[-_])?(?:${[rule.provider, rule.actionClass.split('_')[0] ?? ''].filter((p) => /^[a-z0-9]+$/.test(p)).join('|') || '(?!)'})[-_]`);
    for (const own of [lower.replace(QUALIFIER, '').replace(MCP_PREFIX, ''), lower.replace(provider, '')])
        if (own !== lower && own !== '' && (0,glob/* globMatches */.mw)(caseless, own))
            return `the calls name the tool with ${(0,core_text/* quote */.hD)(tool.slice(0, tool.length - own.length), 80)} before it`;
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
function nearServer(rule, server, carried) {
    if (rule.server === null || rule.server === server)
        return null;
    if (carried.has(rule.server))
        return undefined;
    return server === null
        ? 'the calls name no server: this source does not; leave server: out'
        : `no call carries server ${(0,core_text/* quote */.hD)(rule.server, 80)}`;
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
function mistakenRules(mapping, called) {
    const carried = new Set(called.map((c) => c.server));
    const out = [];
    for (const r of mapping.rules) {
        if (called.some((c) => matches(r, c.tool, c.server)))
            continue;
        for (const c of called) {
            if (c.unmapped === 0)
                continue;
            const tool = nearTool(r, c.tool);
            const server = nearServer(r, c.server, carried);
            if (tool === undefined || server === undefined)
                continue;
            const named = `named ${(0,core_text/* quote */.hD)(r.tool.pieces.join('*'), 80)}${r.server === null ? '' : ` on server ${(0,core_text/* quote */.hD)(r.server, 80)}`}`;
            const calls = `named ${(0,core_text/* quote */.hD)(c.tool, 80)}${r.server === null ? '' : c.server === null ? ' with no server' : ` on server ${(0,core_text/* quote */.hD)(c.server, 80)}`}`;
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

;// CONCATENATED MODULE: ./src/tools/import-run/kinds.ts
/**
 * The run kinds of `receipt-gate import-run` (docs/producers.md), one module each, in one registry:
 * what the producer's file is, whether it needs a mapping file, and how one of its lines becomes
 * calls. The engine (run.ts) and the CLI read a kind only through its row: a new producer is a
 * reader module and a row here (and, when its tools are not built in, a mapping file the user
 * writes); a kind without a row does not compile.
 */




const EMPTY = { calls: [], skips: [], errors: [], mapping: [], hints: [] };
/** A reader whose lines stand alone. */
const eachLine = (read) => ({ line: read, end: () => EMPTY });
/** Tool calls through the mapping file: each a call (counted by why it asserts less), or a problem of the mapping. */
function mapped(uses, mapping) {
    const calls = [];
    const problems = [];
    const hints = new Set();
    for (const { use, line } of uses) {
        if (mapping === null)
            break;
        const got = mapUse(use, mapping, line);
        if (got.kind === 'mapping')
            problems.push({ at: got.at, message: got.message });
        else {
            if (got.hint !== null)
                hints.add(got.hint);
            calls.push({ call: got.call, key: use.key, count: got.count });
        }
    }
    return { calls, mapping: problems, hints: [...hints] };
}
const RUN_KINDS = {
    'gh-aw-manifest': {
        source: 'a GitHub Agentic Workflows safe-outputs manifest (safe-output-items.jsonl)',
        map: 'built-in',
        pullRequests: true,
        order: 'file',
        reader: (context) => eachLine((entry, line) => {
            const got = manifestLine(entry, line, context.heads);
            if (got.kind === 'skip')
                return { ...EMPTY, skips: [[got.reason, 1]] };
            if (got.kind === 'error')
                return { ...EMPTY, errors: [got.message] };
            return {
                ...EMPTY,
                calls: got.calls.map((call) => ({ call, key: null, count: call.note === null ? null : `${call.tool} without a subject` })),
            };
        }),
    },
    'otlp-json': {
        source: 'OpenTelemetry JSON lines (the OTLP file exporter, Copilot CLI)',
        map: 'required',
        pullRequests: false,
        order: 'time',
        reader: ({ mapping }) => eachLine((entry, line) => {
            const got = telemetryLine(entry);
            return {
                ...mapped(got.uses.map((use) => ({ use, line })), mapping),
                skips: got.other > 0 ? [['not a tool call', got.other]] : [],
                errors: got.errors,
            };
        }),
    },
    'mcp-jsonrpc': {
        source: "an MCP gateway's JSON-RPC log (gh-aw's rpc-messages.jsonl, v1 and v2)",
        map: 'required',
        pullRequests: false,
        order: 'time',
        reader: ({ mapping }) => {
            const pairs = new RpcPairs();
            return {
                line: (entry, line) => {
                    const got = pairs.line(entry, line);
                    if (got.kind === 'use')
                        return { ...EMPTY, ...mapped([got], mapping) };
                    if (got.kind === 'other')
                        return { ...EMPTY, skips: [[got.what, got.n ?? 1]] };
                    if (got.kind === 'error')
                        return { ...EMPTY, errors: [got.message] };
                    return EMPTY;
                },
                end: () => {
                    const left = pairs.unanswered();
                    return left > 0 ? { ...EMPTY, skips: [['tools/call requests never answered', left]] } : EMPTY;
                },
            };
        },
    },
};
/** A kind's module. */
const runImporter = (kind) => RUN_KINDS[kind];

// EXTERNAL MODULE: ./src/tools/import-run/names.ts
var names = __webpack_require__(8466);
// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __webpack_require__(3853);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __webpack_require__(4146);
;// CONCATENATED MODULE: ./src/tools/import-run/call.ts
/**
 * What a producer's line says a tool call did (docs/producers.md), and the run the gate already
 * reads that it becomes: one NDJSON evidence event per call (evidence-bundle.md's envelope), its data
 * a decision surface holding that one decision, in the Assay decision shape. An imported call asserts
 * exactly what its source says happened: a write the source says succeeded asserts its side effect;
 * a call the source says nothing more of asserts nothing; a target the source does not give is no
 * subject, never a guess.
 */


/** A string's JSON text as RFC 8785 writes it (JSON.stringify's; a lone surrogate, which the strict reader never lets through, replaced). */
const str = (value) => JSON.stringify(value.isWellFormed() ? value : value.toWellFormed());
/** A value of ours (a string, a whole number) as JCS writes it. */
const scalar = (value) => (value === null ? 'null' : typeof value === 'number' ? JSON.stringify(value) : str(value));
/** Members in JCS order (keys compared in UTF-16 code units), written `"key":text`. */
const members = (pairs) => `{${[...pairs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${str(k)}:${v}`)
    .join(',')}}`;
/**
 * A call → the Assay decision the gate reads (tool, action, decision, response, and where it came
 * from), as its canonical text: written member by member in JCS's key order (a test holds every
 * line equal to its JCS), not built as an object and canonicalized.
 */
function decisionText(call, source, first) {
    const effect = call.effect;
    const action = effect
        ? `{"resource_type":${str(effect.actionClass)},"target":${members([['provider', str(effect.provider)], ...effect.target.map(([f, v]) => [f, scalar(v)])])},"verb":${str(effect.verb)}}`
        : '{"resource_type":null,"target":null,"verb":null}';
    const origin = [
        ['kind', str(source.kind)],
        ['file', str(source.file)],
        ['line', String(call.line)],
    ];
    if (first)
        origin.push(['source_sha256', str(source.sha256)]);
    if (call.callId !== null)
        origin.push(['call_id', str(call.callId)]);
    if (call.note !== null)
        origin.push(['note', str(call.note)]);
    const asserted = call.asserts ? 'true' : 'false';
    return (`{"action":${action},"decision":{"effect":"allow","source":${str(`receipt-gate import-run ${source.kind}`)}},"import":${members(origin)},` +
        `"response":{"side_effect":{"asserted":${asserted},"level":"asserted"},"side_effect_asserted":${asserted},"status":${call.succeeded ? '"success"' : '"error"'}},` +
        `${call.server !== null ? `"server":{"id":${str(call.server)}},` : ''}"tool":{"name":${str(call.tool)}}}`);
}
const NON_CLAIMS = [
    "imported from the producer's own file by receipt-gate import-run; asserts only what that file says happened",
    'does not prove the side effect: a provider record binds it, or it stays asserted',
];
/** A value's canonical text, for the few this module writes itself (strings and decisions of strings, numbers, booleans and null). */
function call_canonical(value) {
    const text = (0,binding/* jcs */.vI)(value);
    if (!text.ok)
        throw new Error(`an imported call cannot be canonicalized: ${text.reason}`); // strings, whole numbers and booleans only
    return text.text;
}
/**
 * The run, in chunks of lines: one evidence event per call, in the order given, canonical JSON (RFC
 * 8785), `\n` after each. The run id is the inputs' digest (the same inputs give the same bytes); `assaycontenthash`
 * as evidence-bundle.md says (JCS of specversion, type, datacontenttype, subject, data). Each event is
 * written member by member in JCS's key order with only the decision canonicalized per call: the
 * event and its content hash share the data's text (a test holds every line equal to its JCS).
 */
function* eventLines(calls, runId, version) {
    const type = call_canonical(model/* SURFACE_SCHEMA */.SB);
    const nonClaims = call_canonical(NON_CLAIMS);
    const constant = `"assayproducer":"receipt-gate","assayproducerversion":${call_canonical(version)},"assayrunid":${call_canonical(runId)}`;
    // Chunks of CHUNK lines: the run is written as it is made, never held whole (100 000 calls: ~150 MB).
    let out = [];
    for (const [seq, { call, source, first }] of calls.entries()) {
        // Keys in JCS order: data {non_claims, observed_tool_decisions, schema}; the event's members below.
        const data = `{"non_claims":${nonClaims},"observed_tool_decisions":[${decisionText(call, source, first)}],"schema":${type}}`;
        const subject = call_canonical(source.file);
        const hash = (0,binding/* sha256Digest */.sI)(`{"data":${data},"datacontenttype":"application/json","specversion":"1.0","subject":${subject},"type":${type}}`);
        out.push(`{"assaycontenthash":"${hash}",${constant},"assayseq":${seq},"data":${data},"datacontenttype":"application/json",` +
            `"id":${call_canonical(`${runId}:${seq}`)},"source":${call_canonical(`urn:receipt-gate:import-run:${source.kind}`)},"specversion":"1.0",` +
            `"subject":${subject},"time":${call_canonical(call.time)},"type":${type}}\n`);
        if (out.length === CHUNK) {
            yield out.join('');
            out = [];
        }
    }
    if (out.length > 0)
        yield out.join('');
}
const CHUNK = 1000;

;// CONCATENATED MODULE: ./src/tools/import-run/run.ts
/**
 * `receipt-gate import-run KIND`: a producer's own file → a run the gate already reads (NDJSON
 * evidence events, call.ts), offline. Each file is read with the gate's strict readers and limits;
 * each line becomes calls, a counted skip, or a located error; the same call written twice (an
 * exporter's retry: one span id, one tool_use_id) is one call. Any error: nothing is written.
 */









/** An RFC 3339 UTC time that sorts as text: the fraction padded to nine digits (`…:00Z` before `…:00.5Z`). */
const timeKey = (time) => `${time.slice(0, 19)}${(time.length > 20 ? time.slice(20, -1) : '').padEnd(9, '0')}`;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
/** `3 a, 1 b` from counts, in name order. */
const listed = (counts) => [...counts.entries()]
    .sort(([a], [b]) => (0,core_text/* cmp */.r2)(a, b))
    .map(([what, n]) => `${n} ${what}`)
    .join(', ');
function runImportRun(s) {
    const kind = runImporter(s.kind);
    const errors = [];
    const mappingProblems = new Map();
    const skipped = new Map();
    const counted = new Map();
    const hints = new Set();
    /** Each call's key → what it said (and where), for telling a repeat from two calls under one id. */
    const keys = new Map();
    const inputsSeen = new Map();
    const placed = [];
    let lines = 0;
    let repeats = 0;
    s.inputs.forEach((input, index) => {
        const file = external_node_path_default().basename(input.name);
        const source = { kind: s.kind, file, sha256: (0,binding/* sha256Hex */.fg)(input.bytes) };
        // The same bytes twice would be every call twice.
        const twin = inputsSeen.get(source.sha256);
        if (twin !== undefined) {
            errors.push((0,findings/* finding */.gk)('invalid_artifact', { file: input.name, line: 1, column: 1 }, `the same bytes as ${twin}: a file given twice would import its calls twice`));
            return;
        }
        inputsSeen.set(source.sha256, input.name);
        // gh-aw writes an empty manifest for a run that wrote nothing: no calls, not a failed download.
        if (input.bytes.every(scanner/* isJsonSpace */.RB))
            return;
        const read = (0,import_exports/* readExport */.J)(input.name, input.bytes, s.limits);
        const reader = kind.reader(s.context);
        const take = (got, loc) => {
            const here = loc ? `${external_node_path_default().basename(loc.file ?? input.name)}:${loc.line ?? 0}` : file;
            for (const message of got.errors)
                if (loc)
                    errors.push((0,findings/* finding */.gk)('invalid_artifact', loc, message));
            for (const m of got.mapping)
                mappingProblems.set(`${m.at.line}:${m.at.column}:${m.message}`, (0,findings/* finding */.gk)('invalid_artifact', m.at, m.message));
            for (const [reason, n] of got.skips)
                skipped.set(reason, (skipped.get(reason) ?? 0) + n);
            for (const h of got.hints)
                hints.add(h);
            for (const { call, key, count } of got.calls) {
                if (key !== null) {
                    // What a repeat must say again: everything but where it was read.
                    const said = JSON.stringify([
                        call.tool,
                        call.server,
                        call.callId,
                        call.time,
                        call.succeeded,
                        call.asserts,
                        call.effect,
                        call.note,
                    ]);
                    const before = keys.get(key);
                    if (before?.said === said) {
                        repeats++;
                        continue;
                    }
                    if (before) {
                        if (loc)
                            errors.push((0,findings/* finding */.gk)('invalid_artifact', loc, `a span or event with the id of one at ${before.at} says something else: one id, two calls`));
                        continue;
                    }
                    keys.set(key, { said, at: here });
                }
                if (count !== null)
                    counted.set(count, (counted.get(count) ?? 0) + 1);
                placed.push({ call, source, input: index, count });
            }
        };
        for (const e of read.entries) {
            lines++;
            take(reader.line(e.value, e.loc.line ?? 0), e.loc);
        }
        take(reader.end(), null);
        for (const f of read.findings)
            errors.push(f);
    });
    // A rule that takes no call while calls it nearly names went unmapped: a problem of the mapping, never a count.
    const mapping = s.context.mapping;
    if (mapping) {
        const called = new Map();
        for (const p of placed) {
            const key = JSON.stringify([p.call.tool, p.call.server]);
            const c = called.get(key) ?? { tool: p.call.tool, server: p.call.server, unmapped: 0 };
            if (p.count === UNMAPPED)
                c.unmapped++;
            called.set(key, c);
        }
        for (const m of mistakenRules(mapping, [...called.values()]))
            mappingProblems.set(`${m.at.line}:${m.at.column}:${m.message}`, (0,findings/* finding */.gk)('invalid_artifact', m.at, m.message));
    }
    if (kind.order === 'time')
        placed.sort((a, b) => (0,core_text/* cmp */.r2)(timeKey(a.call.time), timeKey(b.call.time)) || a.input - b.input || a.call.line - b.call.line);
    const asserting = placed.filter((p) => p.call.asserts);
    const bound = asserting.filter((p) => p.call.effect !== null).length;
    const skipText = skipped.size === 0 ? '' : `; skipped: ${listed(skipped)}`;
    const countText = counted.size === 0 ? '' : `; ${listed(counted)}`;
    const failing = errors.length > 0 || mappingProblems.size > 0;
    const summary = `${plural(lines, 'line', 'lines')} read, ${plural(placed.length, 'call', 'calls')} ${failing ? 'found (none written)' : 'written'} ` +
        `(${bound} asserting with a subject, ${asserting.length - bound} asserting without one, ${placed.length - asserting.length} asserting nothing)` +
        `${countText}${skipText}, ${plural(repeats, 'repeat', 'repeats')} merged${[...hints].map((h) => `; ${h}`).join('')}`;
    if (failing)
        return { ok: false, reason: { findings: errors, mapping: [...mappingProblems.values()], summary } };
    const seen = new Set();
    const events = placed.map((p) => {
        const first = !seen.has(p.input);
        seen.add(p.input);
        return { call: p.call, source: p.source, first };
    });
    const runId = `import-${(0,binding/* sha256Hex */.fg)(`${s.kind}\n${s.inputs.map((i) => (0,binding/* sha256Hex */.fg)(i.bytes)).join('\n')}\n${s.context.mapping?.sha256 ?? ''}\n${s.context.headsSha256 ?? ''}`).slice(0, 16)}`;
    return { ok: true, value: { ndjson: eventLines(events, runId, s.version), calls: placed.length, summary } };
}

// EXTERNAL MODULE: ./src/tools/write.ts
var write = __webpack_require__(376);
// EXTERNAL MODULE: ./src/cli/command.ts
var command = __webpack_require__(3567);
// EXTERNAL MODULE: ./src/cli/files.ts
var cli_files = __webpack_require__(9141);
// EXTERNAL MODULE: ./src/cli/commands/shared.ts
var shared = __webpack_require__(9764);
;// CONCATENATED MODULE: ./src/cli/commands/run-import-run.ts
/**
 * `receipt-gate import-run KIND`, run: a producer's own file turned into a run the gate reads,
 * offline, written only when the whole import succeeds and never over a different file
 * (docs/producers.md). Loaded when the command runs (import-run.ts): no other command loads a reader of a producer's file.
 */













/** The command's run, its flags parsed (import-run.ts): the run written, or why nothing was. */
async function importRunCommand(ctx, f, rest) {
    const [kindName, ...files] = rest;
    const kind = kindName === undefined ? null : (0,names/* runKind */.I)(kindName);
    if (!kind)
        throw new types/* UsageError */.eb('value', `import-run: the producer kind comes first: ${names/* RUN_KIND_NAMES */.c.join(', ')}`);
    if (!f.output)
        throw new types/* UsageError */.eb('missing', 'import-run: --output FILE is required');
    if (files.length === 0)
        throw new types/* UsageError */.eb('missing', 'import-run: at least one INPUT file is required');
    const module = runImporter(kind);
    if (module.map === 'required' && f.map === undefined)
        throw new types/* UsageError */.eb('missing', `import-run ${kind}: --map FILE is required: which tools write, and what they write to, is the mapping's to say`);
    if (module.map === 'built-in' && f.map !== undefined)
        throw new types/* UsageError */.eb('value', `import-run ${kind}: --map: the mapping of ${kind} is built in (docs/producers.md)`);
    if (!module.pullRequests && f['pull-requests'] !== undefined)
        throw new types/* UsageError */.eb('value', `import-run ${kind}: --pull-requests is for gh-aw-manifest (its pushes name a pull request, not a branch)`);
    const output = (0,paths/* outputIn */.D_)(ctx.cwd, ctx.cwd, f.output, '--output');
    (0,paths/* distinctOutputs */.VS)([['--output', output]], [...files, ...(f.map === undefined ? [] : [f.map]), ...(f['pull-requests'] === undefined ? [] : [f['pull-requests']])].map((x) => external_node_path_default().resolve(ctx.cwd, x)));
    const tool = `import-run ${kind}`;
    const limits = (0,shared/* limitsOf */.Af)(f);
    let mapping = null;
    if (f.map !== undefined) {
        const file = external_node_path_default().resolve(ctx.cwd, f.map);
        const read = readMappingFile((0,cli_files/* readTextFile */.Gu)('--map', file, limits), f.map);
        if (!read.ok)
            return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.usage, (0,command/* findingLines */.hq)(tool, read.reason));
        mapping = read.value;
    }
    let heads = new Map();
    let headsSha256 = null;
    if (f['pull-requests'] !== undefined) {
        const [given] = (0,cli_files/* readInputs */.Ko)([external_node_path_default().resolve(ctx.cwd, f['pull-requests'])], limits);
        const read = given ? readPullHeads(given, limits) : null;
        if (read && !read.ok)
            return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.problem, (0,command/* findingLines */.hq)(tool, read.reason));
        if (read)
            heads = read.value;
        if (given)
            headsSha256 = (0,binding/* sha256Hex */.fg)(given.bytes);
    }
    const inputs = (0,cli_files/* readInputs */.Ko)(files.map((x) => external_node_path_default().resolve(ctx.cwd, x)), limits);
    const result = runImportRun({ kind, inputs, limits, context: { mapping, heads, headsSha256 }, version: ctx.version });
    if (!result.ok) {
        const { findings, mapping: problems, summary } = result.reason;
        // A mapping that cannot say what a call did is configuration (exit 2) before any problem of the inputs.
        const code = problems.length > 0 ? command/* EXIT */.dc.usage : command/* EXIT */.dc.problem;
        return (0,command/* wroteNothing */.bc)(tool, code, `${(0,command/* findingLines */.hq)(tool, [...problems, ...findings])}${(0,command/* say */.cv)(tool, summary)}`);
    }
    const done = result.value;
    if (done.calls === 0)
        return { code: command/* EXIT */.dc.pass, stdout: '', stderr: (0,command/* say */.cv)(tool, `${done.summary}; no calls, so ${output} was not written`) };
    let wrote;
    try {
        wrote = (0,write/* writeNewOrSame */.Zi)(output, done.ndjson);
    }
    catch (error) {
        return (0,command/* unwritable */.mP)(tool, 'the output', output, error);
    }
    if (wrote === 'different')
        return (0,command/* wroteNothing */.bc)(tool, command/* EXIT */.dc.usage, (0,command/* say */.cv)(tool, `${output} exists and holds another run: a run is evidence, never replaced (write to a new file, or remove it first)`));
    return {
        code: command/* EXIT */.dc.pass,
        stdout: '',
        stderr: (0,command/* say */.cv)(tool, `${done.summary} → ${output}${wrote === 'same' ? ' (already there, the same bytes)' : ''}`),
    };
}


/***/ }),

/***/ 6642:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   J: () => (/* binding */ readExport)
/* harmony export */ });
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4637);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6153);
/* harmony import */ var _read_documents_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8238);
/* harmony import */ var _read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3853);
/* harmony import */ var _read_json_strict_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(755);
/**
 * Provider export files → located JSON entries, through the gate's one document pipeline
 * (read/documents.ts): gzip (streaming exports) decompressed up to max-file-size, strict UTF-8 and
 * JSON, and every shape the export routes write: one array, pages written one after another
 * (`gh api --paginate`: `[…][…]`), an array of pages (`--slurp`: `[[…],[…]]`, or page objects such as
 * CloudTrail's `[{"Records": […]}, …]`, each page's cursor read), one entry per line
 * (`--jq '.[]'`), one object, or an object with a list member (Slack's `{"entries": [...]}`). An
 * empty page is no entries. Every entry keeps its own file:line:column. Never a network call.
 */





/** Whether a page object says more pages follow (a cursor that is not empty, or not text). */
function continues(page) {
    const meta = page['response_metadata'];
    const cursor = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(meta) ? meta['next_cursor'] : undefined;
    return [cursor, page['NextToken']].some((x) => x !== undefined && x !== null && x !== '');
}
/**
 * @param listKeys the members of a top-level object that may hold the entries (Slack: "entries"; CloudTrail: "Records", "Events")
 */
function readExport(name, raw, given, listKeys = []) {
    // A .json export is one document, often on one line (the UI's export, gh api without --jq): the
    // line limit is for JSON lines, so it is held to the file limit only. NDJSON keeps the line limit.
    const lines = /\.(ndjson|jsonl)(\.gz)?$/i.test(name);
    const limits = lines ? given : { ...given, maxLineBytes: Math.max(given.maxLineBytes, given.maxFileBytes) };
    const sink = new _read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .LocatingSink */ .Bz(name);
    const findings = sink.findings;
    const at = (offset) => sink.at(offset);
    const paging = { open: null };
    const decoded = (0,_read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(raw, limits, sink, { gzip: true });
    if (!decoded)
        return { entries: [], findings, paging };
    sink.lines = decoded.lines;
    const { text } = decoded;
    // A failed download must not become "the provider logged nothing" (docs/coverage.md §6): `[]` is a quiet page, nothing at all is not.
    if (text.trim() === '') {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(0), `the export is empty (${raw.length === 0 ? '0 bytes' : 'white space only'}): an empty download is not an empty log; export again (a quiet window is [] or a page with no entries)`));
        return { entries: [], findings, paging };
    }
    if (looksLikeCsv(name, text)) {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(0), 'this is a CSV export: the importer reads the JSON export (GitHub: the audit log\'s "Export JSON" or GET /orgs/ORG/audit-log; Slack: the Audit Logs API), which carries every field a record needs'));
        return { entries: [], findings, paging };
    }
    return { entries: pages(text, limits, listKeys, at, sink, findings, paging), findings, paging };
}
/** A .csv name, or a first line of comma-separated bare words (a header row) where JSON would start with [ or {. */
function looksLikeCsv(name, text) {
    if (/\.csv(\.gz)?$/i.test(name))
        return true;
    const first = (text.split('\n', 1)[0] ?? '').trim();
    return /^[A-Za-z_@"][\w.@" -]*(,[\w.@" -]*)+$/.test(first);
}
function* pages(text, limits, listKeys, at, sink, findings, paging) {
    let entries = [];
    const take = (value, offset) => {
        if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(value))
            entries.push({ value, loc: at(offset) });
        else
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(offset), 'an entry is not a JSON object'));
    };
    /** The offsets of the elements at `path` in the value that starts at `offset` (its own slice parsed again). */
    const elementsAt = (offset, path) => {
        const o = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: [path] };
        const end = (0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .firstValueEnd */ .t1)(text, o, offset);
        const inner = end.ok ? (0,_read_json_strict_js__WEBPACK_IMPORTED_MODULE_3__/* .parseStrict */ .z3)(text, o, offset, end.value) : null;
        return inner?.ok ? (inner.value.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)(path)) ?? []) : [];
    };
    /** A page object's entries (its one list member) and its word on the pages that follow. */
    const pageObject = (given, offset, offsets) => {
        // The list member that holds the entries: a page has one; two (CloudTrail's Records and Events) are refused, never one of them read.
        const keys = listKeys.filter((k) => Array.isArray(given[k]));
        const [key] = keys;
        if (keys.length > 1 || key === undefined)
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(offset), `a page holding entries under ${keys.join(' and ')}: which list is the export cannot be said`));
        else
            page(given[key], offsets(key), false);
        // A page that says no more follow, or names no cursor at all (CloudTrail leaves NextToken out of
        // its last page, and so may a Slack page), ends the listing; one that says more follow is
        // continued only by a page after it in this file.
        paging.open = continues(given) ? at(offset) : null;
    };
    const isPage = (value) => (0,_core_json_js__WEBPACK_IMPORTED_MODULE_4__/* .isObject */ .Gv)(value) && listKeys.some((k) => Array.isArray(value[k]));
    /** The entries of one array (a page); a page of pages (--slurp: arrays, or page objects such as CloudTrail's) is read page by page. */
    const page = (list, offsets, nested) => {
        list.forEach((item, i) => {
            const offset = offsets[i] ?? 0;
            if (nested && Array.isArray(item))
                page(item, elementsAt(offset, []), false);
            else if (nested && isPage(item))
                pageObject(item, offset, (key) => elementsAt(offset, [key]));
            else
                take(item, offset);
        });
    };
    const collect = [[], ...listKeys.map((k) => [k])];
    for (const doc of (0,_read_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(text, 'values', { limits, collect }, sink)) {
        const given = doc.value;
        if (Array.isArray(given))
            page(given, doc.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)([])) ?? [], given.some((x) => Array.isArray(x) || isPage(x)));
        else if (isPage(given))
            pageObject(given, doc.start, (key) => doc.elements.get((0,_read_json_scanner_js__WEBPACK_IMPORTED_MODULE_2__/* .pathKey */ .Pn)([key])) ?? []);
        else
            take(given, doc.start);
        yield* entries;
        entries = [];
    }
}


/***/ })

};
