export const id = 391;
export const ids = [391];
export const modules = {

/***/ 391:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   actionsCacheService: () => (/* binding */ actionsCacheService),
/* harmony export */   packEntries: () => (/* binding */ packEntries),
/* harmony export */   unpackEntries: () => (/* binding */ unpackEntries)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8522);
/* harmony import */ var node_zlib__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_zlib__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var _core_binding_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(3491);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(6153);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(2020);
/* harmony import */ var _gate_cache_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2837);
/* harmony import */ var _report_output_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(9045);
/**
 * The evidence cache's archive and GitHub's Actions cache service (v2: Twirp JSON at
 * ACTIONS_RESULTS_URL with the job's runtime token; archives uploaded to and downloaded from signed
 * blob URLs), spoken here rather than through @actions/cache: that package unpacks archives with
 * `tar -P` relative to the workspace and matches a primary key by prefix, so an archive a pull
 * request saved in its own scope could write anywhere the runner can (docs/cache.md). Here nothing
 * is unpacked: an archive is one gzipped NDJSON text (a header, then one line per entry: its file
 * name and its text), read whole within limits, and its digest must be the one its key names
 * before a single entry is written, each to a name of 64 hex digits in a folder made for it.
 */









const ARCHIVE_SCHEMA = 'receipt-gate.evidence-archive.v1';
/** The service's `version` of every archive this action saves (its own format: only this action reads it). */
const VERSION = (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(ARCHIVE_SCHEMA);
/** Largest archive downloaded, and largest text it may unpack to. */
const MAX_ARCHIVE_BYTES = 512 * 1024 * 1024;
const MAX_TEXT_BYTES = 1024 * 1024 * 1024;
const TWIRP = 'twirp/github.actions.results.api.v1.CacheService/';
/** An entry's part of the digest that names an archive's entries: its name and its bytes' sha256, a line each. */
const entryLine = (name, bytes) => `${name}\n${(0,_core_binding_js__WEBPACK_IMPORTED_MODULE_4__/* .sha256Hex */ .fg)(bytes)}\n`;
/** The entries of a folder as one archive, and the digest that names them (sha256 over each name and its bytes' sha256, sorted by name). */
function packEntries(dir) {
    const names = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readdirSync)(dir)
        .filter((n) => _gate_cache_js__WEBPACK_IMPORTED_MODULE_5__/* .ENTRY_NAME */ .rs.test(n))
        .sort();
    const lines = [];
    const digest = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256');
    for (const name of names) {
        const bytes = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync)(node_path__WEBPACK_IMPORTED_MODULE_2___default().join(dir, name));
        digest.update(entryLine(name, bytes));
        lines.push(JSON.stringify({ name, text: bytes.toString('utf8') }));
    }
    const hex = digest.digest('hex');
    const header = JSON.stringify({ schema: ARCHIVE_SCHEMA, entries: names.length, digest: hex });
    return { bytes: (0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.gzipSync)(`${header}\n${lines.join('\n')}\n`), digest: hex, entries: names.length };
}
/**
 * An archive's entries written into `dir` (made here), only when its text parses, every name is an
 * entry's and its digest is `digest`; else why not, and nothing is written.
 */
function unpackEntries(bytes, digest, dir) {
    let text;
    try {
        text = (0,node_zlib__WEBPACK_IMPORTED_MODULE_3__.gunzipSync)(bytes, { maxOutputLength: MAX_TEXT_BYTES }).toString('utf8');
    }
    catch (error) {
        return { ok: false, reason: `it does not decompress (${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_7__/* .messageOf */ .bD)(error)})` };
    }
    const lines = text.split('\n');
    if (lines.at(-1) === '')
        lines.pop();
    const [head, ...rest] = lines;
    let header;
    try {
        header = JSON.parse(head ?? '');
    }
    catch {
        return { ok: false, reason: 'its header is not JSON' };
    }
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .str */ .gx)(header, 'schema') !== ARCHIVE_SCHEMA || !(0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .isObject */ .Gv)(header) || header['entries'] !== rest.length)
        return { ok: false, reason: `its header is not ${ARCHIVE_SCHEMA} with ${rest.length} entries` };
    const files = [];
    const sum = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256');
    let last = '';
    for (const line of rest) {
        let v;
        try {
            v = JSON.parse(line);
        }
        catch {
            return { ok: false, reason: 'an entry line is not JSON' };
        }
        const name = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .str */ .gx)(v, 'name');
        const body = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .isObject */ .Gv)(v) ? v['text'] : undefined;
        if (name === null || !_gate_cache_js__WEBPACK_IMPORTED_MODULE_5__/* .ENTRY_NAME */ .rs.test(name) || name <= last || typeof body !== 'string')
            return { ok: false, reason: 'an entry line is not a name of 64 hex digits (in order) and a text' };
        last = name;
        sum.update(entryLine(name, body));
        files.push({ name, text: body });
    }
    if (sum.digest('hex') !== digest || (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .str */ .gx)(header, 'digest') !== digest)
        return { ok: false, reason: 'its entries are not the ones its key names' };
    (0,_report_output_js__WEBPACK_IMPORTED_MODULE_6__/* .makeDirs */ .X2)(dir);
    for (const f of files)
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.writeFileSync)(node_path__WEBPACK_IMPORTED_MODULE_2___default().join(dir, f.name), f.text, { flag: 'wx' });
    return { ok: true, entries: files.length };
}
/** A string member of a Twirp answer by its JSON name or its proto name (the service writes either). */
const member = (o, json, proto) => (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .str */ .gx)(o, json) ?? (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .str */ .gx)(o, proto);
/** The cache service of this job (ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN), or null when the job has none. */
function actionsCacheService(env) {
    const base = env['ACTIONS_RESULTS_URL'];
    const token = env['ACTIONS_RUNTIME_TOKEN'];
    if (!base || !token)
        return null;
    const call = async (method, body) => {
        const r = await fetch(new URL(`${TWIRP}${method}`, base.endsWith('/') ? base : `${base}/`), {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'user-agent': 'receipt-gate' },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(60_000),
        });
        const text = await r.text();
        if (r.status !== 200)
            return { ok: false, reason: `${method} answered ${r.status}` };
        try {
            const v = JSON.parse(text);
            return (0,_core_json_js__WEBPACK_IMPORTED_MODULE_8__/* .isObject */ .Gv)(v) ? { ok: true, value: v } : { ok: false, reason: `${method} answered no object` };
        }
        catch {
            return { ok: false, reason: `${method} answered no JSON` };
        }
    };
    return {
        async downloadUrl(key) {
            const a = await call('GetCacheEntryDownloadURL', { key, restore_keys: [], version: VERSION });
            if (!a.ok)
                throw new Error(a.reason);
            // The service matches a primary key by prefix too: only exactly this key is an answer.
            if (a.value['ok'] !== true || member(a.value, 'matchedKey', 'matched_key') !== key)
                return null;
            return member(a.value, 'signedDownloadUrl', 'signed_download_url');
        },
        async download(url) {
            const r = await fetch(url, { signal: AbortSignal.timeout(300_000) });
            if (r.status !== 200 || r.body === null)
                throw new Error(`the archive's download answered ${r.status}`);
            // Read within the limit, whatever the length the answer announces.
            const chunks = [];
            let size = 0;
            for await (const chunk of r.body) {
                size += chunk.length;
                if (size > MAX_ARCHIVE_BYTES)
                    throw new Error(`the archive is larger than ${MAX_ARCHIVE_BYTES} bytes`);
                chunks.push(Buffer.from(chunk));
            }
            return Buffer.concat(chunks);
        },
        async upload(key, bytes) {
            const created = await call('CreateCacheEntry', { key, version: VERSION });
            if (!created.ok)
                throw new Error(created.reason);
            const url = member(created.value, 'signedUploadUrl', 'signed_upload_url');
            if (created.value['ok'] !== true || url === null)
                throw new Error(`the cache service refused the key ${key}`);
            const put = await fetch(url, {
                method: 'PUT',
                headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/octet-stream' },
                body: bytes,
                signal: AbortSignal.timeout(300_000),
            });
            if (put.status < 200 || put.status >= 300)
                throw new Error(`the archive's upload answered ${put.status}`);
            const done = await call('FinalizeCacheEntryUpload', { key, size_bytes: String(bytes.length), version: VERSION });
            if (!done.ok || done.value['ok'] !== true)
                throw new Error(`the cache service did not finalize ${key}`);
        },
    };
}


/***/ })

};
