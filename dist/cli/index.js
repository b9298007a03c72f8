import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 6214:
/***/ ((__unused_webpack_module, exports) => {


Object.defineProperty(exports, "__esModule", ({ value: true }));
// https://mathiasbynens.be/notes/javascript-encoding
// https://github.com/bestiejs/punycode.js - punycode.ucs2.decode
function ucs2length(str) {
    const len = str.length;
    let length = 0;
    let pos = 0;
    let value;
    while (pos < len) {
        length++;
        value = str.charCodeAt(pos++);
        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
            // high surrogate, and there is a next character
            value = str.charCodeAt(pos);
            if ((value & 0xfc00) === 0xdc00)
                pos++; // low surrogate
        }
    }
    return length;
}
exports["default"] = ucs2length;
ucs2length.code = 'require("ajv/dist/runtime/ucs2length").default';
//# sourceMappingURL=ucs2length.js.map

/***/ }),

/***/ 4006:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const pico = __nccwpck_require__(8016);
const utils = __nccwpck_require__(4059);

function picomatch(glob, options, returnState = false) {
  // default to os.platform()
  if (options && (options.windows === null || options.windows === undefined)) {
    // don't mutate the original options object
    options = { ...options, windows: utils.isWindows() };
  }

  return pico(glob, options, returnState);
}

Object.assign(picomatch, pico);
module.exports = picomatch;


/***/ }),

/***/ 5595:
/***/ ((module) => {



const WIN_SLASH = '\\\\/';
const WIN_NO_SLASH = `[^${WIN_SLASH}]`;

const DEFAULT_MAX_EXTGLOB_RECURSION = 0;

/**
 * Posix glob regex
 */

const DOT_LITERAL = '\\.';
const PLUS_LITERAL = '\\+';
const QMARK_LITERAL = '\\?';
const SLASH_LITERAL = '\\/';
const ONE_CHAR = '(?=.)';
const QMARK = '[^/]';
const END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
const START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
const DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
const NO_DOT = `(?!${DOT_LITERAL})`;
const NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
const NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
const NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
const QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
const STAR = `${QMARK}*?`;
const SEP = '/';

const POSIX_CHARS = {
  DOT_LITERAL,
  PLUS_LITERAL,
  QMARK_LITERAL,
  SLASH_LITERAL,
  ONE_CHAR,
  QMARK,
  END_ANCHOR,
  DOTS_SLASH,
  NO_DOT,
  NO_DOTS,
  NO_DOT_SLASH,
  NO_DOTS_SLASH,
  QMARK_NO_DOT,
  STAR,
  START_ANCHOR,
  SEP
};

/**
 * Windows glob regex
 */

const WINDOWS_CHARS = {
  ...POSIX_CHARS,

  SLASH_LITERAL: `[${WIN_SLASH}]`,
  QMARK: WIN_NO_SLASH,
  STAR: `${WIN_NO_SLASH}*?`,
  DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
  NO_DOT: `(?!${DOT_LITERAL})`,
  NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
  NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
  NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
  QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
  START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
  END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
  SEP: '\\'
};

/**
 * POSIX Bracket Regex
 */

const POSIX_REGEX_SOURCE = {
  __proto__: null,
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '\\x21-\\x7E',
  lower: 'a-z',
  print: '\\x20-\\x7E ',
  punct: '\\-!"#$%&\'()\\*+,./:;<=>?@[\\]^_`{|}~',
  space: ' \\t\\r\\n\\v\\f',
  upper: 'A-Z',
  word: 'A-Za-z0-9_',
  xdigit: 'A-Fa-f0-9'
};

module.exports = {
  DEFAULT_MAX_EXTGLOB_RECURSION,
  MAX_LENGTH: 1024 * 64,
  POSIX_REGEX_SOURCE,

  // regular expressions
  REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
  REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
  REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
  REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
  REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
  REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,

  // Replace globs with equivalent patterns to reduce parsing time.
  REPLACEMENTS: {
    __proto__: null,
    '***': '*',
    '**/**': '**',
    '**/**/**': '**'
  },

  // Digits
  CHAR_0: 48, /* 0 */
  CHAR_9: 57, /* 9 */

  // Alphabet chars.
  CHAR_UPPERCASE_A: 65, /* A */
  CHAR_LOWERCASE_A: 97, /* a */
  CHAR_UPPERCASE_Z: 90, /* Z */
  CHAR_LOWERCASE_Z: 122, /* z */

  CHAR_LEFT_PARENTHESES: 40, /* ( */
  CHAR_RIGHT_PARENTHESES: 41, /* ) */

  CHAR_ASTERISK: 42, /* * */

  // Non-alphabetic chars.
  CHAR_AMPERSAND: 38, /* & */
  CHAR_AT: 64, /* @ */
  CHAR_BACKWARD_SLASH: 92, /* \ */
  CHAR_CARRIAGE_RETURN: 13, /* \r */
  CHAR_CIRCUMFLEX_ACCENT: 94, /* ^ */
  CHAR_COLON: 58, /* : */
  CHAR_COMMA: 44, /* , */
  CHAR_DOT: 46, /* . */
  CHAR_DOUBLE_QUOTE: 34, /* " */
  CHAR_EQUAL: 61, /* = */
  CHAR_EXCLAMATION_MARK: 33, /* ! */
  CHAR_FORM_FEED: 12, /* \f */
  CHAR_FORWARD_SLASH: 47, /* / */
  CHAR_GRAVE_ACCENT: 96, /* ` */
  CHAR_HASH: 35, /* # */
  CHAR_HYPHEN_MINUS: 45, /* - */
  CHAR_LEFT_ANGLE_BRACKET: 60, /* < */
  CHAR_LEFT_CURLY_BRACE: 123, /* { */
  CHAR_LEFT_SQUARE_BRACKET: 91, /* [ */
  CHAR_LINE_FEED: 10, /* \n */
  CHAR_NO_BREAK_SPACE: 160, /* \u00A0 */
  CHAR_PERCENT: 37, /* % */
  CHAR_PLUS: 43, /* + */
  CHAR_QUESTION_MARK: 63, /* ? */
  CHAR_RIGHT_ANGLE_BRACKET: 62, /* > */
  CHAR_RIGHT_CURLY_BRACE: 125, /* } */
  CHAR_RIGHT_SQUARE_BRACKET: 93, /* ] */
  CHAR_SEMICOLON: 59, /* ; */
  CHAR_SINGLE_QUOTE: 39, /* ' */
  CHAR_SPACE: 32, /*   */
  CHAR_TAB: 9, /* \t */
  CHAR_UNDERSCORE: 95, /* _ */
  CHAR_VERTICAL_LINE: 124, /* | */
  CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279, /* \uFEFF */

  /**
   * Create EXTGLOB_CHARS
   */

  extglobChars(chars) {
    return {
      '!': { type: 'negate', open: '(?:(?!(?:', close: `))${chars.STAR})` },
      '?': { type: 'qmark', open: '(?:', close: ')?' },
      '+': { type: 'plus', open: '(?:', close: ')+' },
      '*': { type: 'star', open: '(?:', close: ')*' },
      '@': { type: 'at', open: '(?:', close: ')' }
    };
  },

  /**
   * Create GLOB_CHARS
   */

  globChars(win32) {
    return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
  }
};


/***/ }),

/***/ 8265:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const constants = __nccwpck_require__(5595);
const utils = __nccwpck_require__(4059);

/**
 * Constants
 */

const {
  MAX_LENGTH,
  POSIX_REGEX_SOURCE,
  REGEX_NON_SPECIAL_CHARS,
  REGEX_SPECIAL_CHARS_BACKREF,
  REPLACEMENTS
} = constants;

/**
 * Helpers
 */

const expandRange = (args, options) => {
  if (typeof options.expandRange === 'function') {
    return options.expandRange(...args, options);
  }

  args.sort();
  const value = `[${args.join('-')}]`;

  try {
    /* eslint-disable-next-line no-new */
    new RegExp(value);
  } catch (ex) {
    return args.map(v => utils.escapeRegex(v)).join('..');
  }

  return value;
};

/**
 * Create the message for a syntax error
 */

const syntaxError = (type, char) => {
  return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
};

const splitTopLevel = input => {
  const parts = [];
  let bracket = 0;
  let paren = 0;
  let quote = 0;
  let value = '';
  let escaped = false;

  for (const ch of input) {
    if (escaped === true) {
      value += ch;
      escaped = false;
      continue;
    }

    if (ch === '\\') {
      value += ch;
      escaped = true;
      continue;
    }

    if (ch === '"') {
      quote = quote === 1 ? 0 : 1;
      value += ch;
      continue;
    }

    if (quote === 0) {
      if (ch === '[') {
        bracket++;
      } else if (ch === ']' && bracket > 0) {
        bracket--;
      } else if (bracket === 0) {
        if (ch === '(') {
          paren++;
        } else if (ch === ')' && paren > 0) {
          paren--;
        } else if (ch === '|' && paren === 0) {
          parts.push(value);
          value = '';
          continue;
        }
      }
    }

    value += ch;
  }

  parts.push(value);
  return parts;
};

const isPlainBranch = branch => {
  let escaped = false;

  for (const ch of branch) {
    if (escaped === true) {
      escaped = false;
      continue;
    }

    if (ch === '\\') {
      escaped = true;
      continue;
    }

    if (/[?*+@!()[\]{}]/.test(ch)) {
      return false;
    }
  }

  return true;
};

const normalizeSimpleBranch = branch => {
  let value = branch.trim();
  let changed = true;

  while (changed === true) {
    changed = false;

    if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
      value = value.slice(2, -1);
      changed = true;
    }
  }

  if (!isPlainBranch(value)) {
    return;
  }

  return value.replace(/\\(.)/g, '$1');
};

const hasRepeatedCharPrefixOverlap = branches => {
  const values = branches.map(normalizeSimpleBranch).filter(Boolean);

  for (let i = 0; i < values.length; i++) {
    for (let j = i + 1; j < values.length; j++) {
      const a = values[i];
      const b = values[j];
      const char = a[0];

      if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
        continue;
      }

      if (a === b || a.startsWith(b) || b.startsWith(a)) {
        return true;
      }
    }
  }

  return false;
};

const parseRepeatedExtglob = (pattern, requireEnd = true) => {
  if ((pattern[0] !== '+' && pattern[0] !== '*') || pattern[1] !== '(') {
    return;
  }

  let bracket = 0;
  let paren = 0;
  let quote = 0;
  let escaped = false;

  for (let i = 1; i < pattern.length; i++) {
    const ch = pattern[i];

    if (escaped === true) {
      escaped = false;
      continue;
    }

    if (ch === '\\') {
      escaped = true;
      continue;
    }

    if (ch === '"') {
      quote = quote === 1 ? 0 : 1;
      continue;
    }

    if (quote === 1) {
      continue;
    }

    if (ch === '[') {
      bracket++;
      continue;
    }

    if (ch === ']' && bracket > 0) {
      bracket--;
      continue;
    }

    if (bracket > 0) {
      continue;
    }

    if (ch === '(') {
      paren++;
      continue;
    }

    if (ch === ')') {
      paren--;

      if (paren === 0) {
        if (requireEnd === true && i !== pattern.length - 1) {
          return;
        }

        return {
          type: pattern[0],
          body: pattern.slice(2, i),
          end: i
        };
      }
    }
  }
};

const buildCharClassStar = chars => {
  const source = chars.length === 1
    ? utils.escapeRegex(chars[0])
    : `[${chars.map(ch => utils.escapeRegex(ch)).join('')}]`;

  return `${source}*`;
};

const getStarExtglobSequenceChars = pattern => {
  let index = 0;
  const chars = [];

  while (index < pattern.length) {
    const match = parseRepeatedExtglob(pattern.slice(index), false);

    if (!match || match.type !== '*') {
      return;
    }

    const branches = splitTopLevel(match.body).map(branch => branch.trim());
    if (branches.length !== 1) {
      return;
    }

    const branch = normalizeSimpleBranch(branches[0]);
    if (!branch || branch.length !== 1) {
      return;
    }

    chars.push(branch);
    index += match.end + 1;
  }

  if (chars.length < 1) {
    return;
  }

  return chars;
};

const repeatedExtglobRecursion = pattern => {
  let depth = 0;
  let value = pattern.trim();
  let match = parseRepeatedExtglob(value);

  while (match) {
    depth++;
    value = match.body.trim();
    match = parseRepeatedExtglob(value);
  }

  return depth;
};

const analyzeRepeatedExtglob = (body, options) => {
  if (options.maxExtglobRecursion === false) {
    return { risky: false };
  }

  const max =
    typeof options.maxExtglobRecursion === 'number'
      ? options.maxExtglobRecursion
      : constants.DEFAULT_MAX_EXTGLOB_RECURSION;

  const branches = splitTopLevel(body).map(branch => branch.trim());

  if (branches.length > 1) {
    if (
      branches.some(branch => branch === '') ||
      branches.some(branch => /^[*?]+$/.test(branch)) ||
      hasRepeatedCharPrefixOverlap(branches)
    ) {
      return { risky: true };
    }
  }

  // A repeated extglob is "risky" (prone to catastrophic backtracking) when a
  // branch is itself a `*(...)` sequence, since that nests an unbounded quantifier
  // inside the outer `+(...)`/`*(...)`. When *every* branch reduces to single
  // characters we can emit one flat, ReDoS-safe character class that preserves the
  // meaning of ALL branches (e.g. `+(*(a)|*(b))` -> `[ab]*`), rather than dropping
  // every branch but the first.
  const safeChars = [];
  let sawStarSequence = false;
  let combinable = true;

  for (const branch of branches) {
    const chars = getStarExtglobSequenceChars(branch);
    if (chars) {
      sawStarSequence = true;
      safeChars.push(...chars);
      continue;
    }

    const literal = normalizeSimpleBranch(branch);
    if (literal && literal.length === 1) {
      safeChars.push(literal);
      continue;
    }

    combinable = false;

    if (repeatedExtglobRecursion(branch) > max) {
      return { risky: true };
    }
  }

  if (sawStarSequence) {
    return combinable
      ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) }
      : { risky: true };
  }

  return { risky: false };
};

/**
 * Parse the given input string.
 * @param {String} input
 * @param {Object} options
 * @return {Object}
 */

const parse = (input, options) => {
  if (typeof input !== 'string') {
    throw new TypeError('Expected a string');
  }

  input = REPLACEMENTS[input] || input;

  const opts = { ...options };
  const max = typeof opts.maxLength === 'number' ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;

  let len = input.length;
  if (len > max) {
    throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
  }

  const bos = { type: 'bos', value: '', output: opts.prepend || '' };
  const tokens = [bos];

  const capture = opts.capture ? '' : '?:';

  // create constants based on platform, for windows or posix
  const PLATFORM_CHARS = constants.globChars(opts.windows);
  const EXTGLOB_CHARS = constants.extglobChars(PLATFORM_CHARS);

  const {
    DOT_LITERAL,
    PLUS_LITERAL,
    SLASH_LITERAL,
    ONE_CHAR,
    DOTS_SLASH,
    NO_DOT,
    NO_DOT_SLASH,
    NO_DOTS_SLASH,
    QMARK,
    QMARK_NO_DOT,
    STAR,
    START_ANCHOR
  } = PLATFORM_CHARS;

  const globstar = opts => {
    return `(${capture}(?:(?!${START_ANCHOR}${opts.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
  };

  const nodot = opts.dot ? '' : NO_DOT;
  const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
  let star = opts.bash === true ? globstar(opts) : STAR;

  if (opts.capture) {
    star = `(${star})`;
  }

  // minimatch options support
  if (typeof opts.noext === 'boolean') {
    opts.noextglob = opts.noext;
  }

  const state = {
    input,
    index: -1,
    start: 0,
    dot: opts.dot === true,
    consumed: '',
    output: '',
    prefix: '',
    backtrack: false,
    negated: false,
    brackets: 0,
    braces: 0,
    parens: 0,
    quotes: 0,
    globstar: false,
    tokens
  };

  input = utils.removePrefix(input, state);
  len = input.length;

  const extglobs = [];
  const braces = [];
  const stack = [];
  let prev = bos;
  let value;

  /**
   * Tokenizing helpers
   */

  const eos = () => state.index === len - 1;
  const peek = state.peek = (n = 1) => input[state.index + n];
  const advance = state.advance = () => input[++state.index] || '';
  const remaining = () => input.slice(state.index + 1);
  const consume = (value = '', num = 0) => {
    state.consumed += value;
    state.index += num;
  };

  const append = token => {
    state.output += token.output != null ? token.output : token.value;
    consume(token.value);
  };

  const negate = () => {
    let count = 1;

    while (peek() === '!' && (peek(2) !== '(' || peek(3) === '?')) {
      advance();
      state.start++;
      count++;
    }

    if (count % 2 === 0) {
      return false;
    }

    state.negated = true;
    state.start++;
    return true;
  };

  const increment = type => {
    state[type]++;
    stack.push(type);
  };

  const decrement = type => {
    state[type]--;
    stack.pop();
  };

  /**
   * Push tokens onto the tokens array. This helper speeds up
   * tokenizing by 1) helping us avoid backtracking as much as possible,
   * and 2) helping us avoid creating extra tokens when consecutive
   * characters are plain text. This improves performance and simplifies
   * lookbehinds.
   */

  const push = tok => {
    if (prev.type === 'globstar') {
      const isBrace = state.braces > 0 && (tok.type === 'comma' || tok.type === 'brace');
      const isExtglob = tok.extglob === true || (extglobs.length && (tok.type === 'pipe' || tok.type === 'paren'));

      if (tok.type !== 'slash' && tok.type !== 'paren' && !isBrace && !isExtglob) {
        state.output = state.output.slice(0, -prev.output.length);
        prev.type = 'star';
        prev.value = '*';
        prev.output = star;
        state.output += prev.output;
      }
    }

    if (extglobs.length && tok.type !== 'paren') {
      extglobs[extglobs.length - 1].inner += tok.value;
    }

    if (tok.value || tok.output) append(tok);
    if (prev && prev.type === 'text' && tok.type === 'text') {
      prev.output = (prev.output || prev.value) + tok.value;
      prev.value += tok.value;
      return;
    }

    tok.prev = prev;
    tokens.push(tok);
    prev = tok;
  };

  const extglobOpen = (type, value) => {
    const token = { ...EXTGLOB_CHARS[value], conditions: 1, inner: '' };

    token.prev = prev;
    token.parens = state.parens;
    token.output = state.output;
    token.startIndex = state.index;
    token.tokensIndex = tokens.length;
    const output = (opts.capture ? '(' : '') + token.open;

    increment('parens');
    push({ type, value, output: state.output ? '' : ONE_CHAR });
    push({ type: 'paren', extglob: true, value: advance(), output });
    extglobs.push(token);
  };

  const extglobClose = token => {
    const literal = input.slice(token.startIndex, state.index + 1);
    const body = input.slice(token.startIndex + 2, state.index);
    const analysis = analyzeRepeatedExtglob(body, opts);

    if ((token.type === 'plus' || token.type === 'star') && analysis.risky) {
      const safeOutput = analysis.safeOutput
        ? (token.output ? '' : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput)
        : undefined;
      const open = tokens[token.tokensIndex];

      open.type = 'text';
      open.value = literal;
      open.output = safeOutput || utils.escapeRegex(literal);

      for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
        tokens[i].value = '';
        tokens[i].output = '';
        delete tokens[i].suffix;
      }

      state.output = token.output + open.output;
      state.backtrack = true;

      push({ type: 'paren', extglob: true, value, output: '' });
      decrement('parens');
      return;
    }

    let output = token.close + (opts.capture ? ')' : '');
    let rest;

    if (token.type === 'negate') {
      let extglobStar = star;

      if (token.inner && token.inner.length > 1 && token.inner.includes('/')) {
        extglobStar = globstar(opts);
      }

      if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
        output = token.close = `)$))${extglobStar}`;
      }

      if (token.inner.includes('*') && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
        // Any non-magical string (`.ts`) or even nested expression (`.{ts,tsx}`) can follow after the closing parenthesis.
        // In this case, we need to parse the string and use it in the output of the original pattern.
        // Suitable patterns: `/!(*.d).ts`, `/!(*.d).{ts,tsx}`, `**/!(*-dbg).@(js)`.
        //
        // Disabling the `fastpaths` option due to a problem with parsing strings as `.ts` in the pattern like `**/!(*.d).ts`.
        const expression = parse(rest, { ...options, fastpaths: false }).output;

        output = token.close = `)${expression})${extglobStar})`;
      }

      if (token.prev.type === 'bos') {
        state.negatedExtglob = true;
      }
    }

    push({ type: 'paren', extglob: true, value, output });
    decrement('parens');
  };

  /**
   * Fast paths
   */

  if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
    let backslashes = false;

    let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
      if (first === '\\') {
        backslashes = true;
        return m;
      }

      if (first === '?') {
        if (esc) {
          return esc + first + (rest ? QMARK.repeat(rest.length) : '');
        }
        if (index === 0) {
          return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : '');
        }
        return QMARK.repeat(chars.length);
      }

      if (first === '.') {
        return DOT_LITERAL.repeat(chars.length);
      }

      if (first === '*') {
        if (esc) {
          return esc + first + (rest ? star : '');
        }
        return star;
      }
      return esc ? m : `\\${m}`;
    });

    if (backslashes === true) {
      if (opts.unescape === true) {
        output = output.replace(/\\/g, '');
      } else {
        output = output.replace(/\\+/g, m => {
          return m.length % 2 === 0 ? '\\\\' : (m ? '\\' : '');
        });
      }
    }

    if (output === input && opts.contains === true) {
      state.output = input;
      return state;
    }

    state.output = utils.wrapOutput(output, state, options);
    return state;
  }

  /**
   * Tokenize input until we reach end-of-string
   */

  while (!eos()) {
    value = advance();

    if (value === '\u0000') {
      continue;
    }

    /**
     * Escaped characters
     */

    if (value === '\\') {
      const next = peek();

      if (next === '/' && opts.bash !== true) {
        continue;
      }

      if (next === '.' || next === ';') {
        continue;
      }

      if (!next) {
        value += '\\';
        push({ type: 'text', value });
        continue;
      }

      // collapse slashes to reduce potential for exploits
      const match = /^\\+/.exec(remaining());
      let slashes = 0;

      if (match && match[0].length > 2) {
        slashes = match[0].length;
        state.index += slashes;
        if (slashes % 2 !== 0) {
          value += '\\';
        }
      }

      if (opts.unescape === true) {
        value = advance();
      } else {
        value += advance();
      }

      if (state.brackets === 0) {
        push({ type: 'text', value });
        continue;
      }
    }

    /**
     * If we're inside a regex character class, continue
     * until we reach the closing bracket.
     */

    if (state.brackets > 0 && (value !== ']' || prev.value === '[' || prev.value === '[^')) {
      if (opts.posix !== false && value === ':') {
        const inner = prev.value.slice(1);
        if (inner.includes('[')) {
          prev.posix = true;

          if (inner.includes(':')) {
            const idx = prev.value.lastIndexOf('[');
            const pre = prev.value.slice(0, idx);
            const rest = prev.value.slice(idx + 2);
            const posix = POSIX_REGEX_SOURCE[rest];
            if (posix) {
              prev.value = pre + posix;
              state.backtrack = true;
              advance();

              if (!bos.output && tokens.indexOf(prev) === 1) {
                bos.output = ONE_CHAR;
              }
              continue;
            }
          }
        }
      }

      if ((value === '[' && peek() !== ':') || (value === '-' && peek() === ']')) {
        value = `\\${value}`;
      }

      if (value === ']' && (prev.value === '[' || prev.value === '[^')) {
        value = `\\${value}`;
      }

      if (opts.posix === true && value === '!' && prev.value === '[') {
        value = '^';
      }

      prev.value += value;
      append({ value });
      continue;
    }

    /**
     * If we're inside a quoted string, continue
     * until we reach the closing double quote.
     */

    if (state.quotes === 1 && value !== '"') {
      value = utils.escapeRegex(value);
      prev.value += value;
      append({ value });
      continue;
    }

    /**
     * Double quotes
     */

    if (value === '"') {
      state.quotes = state.quotes === 1 ? 0 : 1;
      if (opts.keepQuotes === true) {
        push({ type: 'text', value });
      }
      continue;
    }

    /**
     * Parentheses
     */

    if (value === '(') {
      increment('parens');
      push({ type: 'paren', value });
      continue;
    }

    if (value === ')') {
      if (state.parens === 0 && opts.strictBrackets === true) {
        throw new SyntaxError(syntaxError('opening', '('));
      }

      const extglob = extglobs[extglobs.length - 1];
      if (extglob && state.parens === extglob.parens + 1) {
        extglobClose(extglobs.pop());
        continue;
      }

      push({ type: 'paren', value, output: state.parens ? ')' : '\\)' });
      decrement('parens');
      continue;
    }

    /**
     * Square brackets
     */

    if (value === '[') {
      if (opts.nobracket === true || !remaining().includes(']')) {
        if (opts.nobracket !== true && opts.strictBrackets === true) {
          throw new SyntaxError(syntaxError('closing', ']'));
        }

        value = `\\${value}`;
      } else {
        increment('brackets');
      }

      push({ type: 'bracket', value });
      continue;
    }

    if (value === ']') {
      if (opts.nobracket === true || (prev && prev.type === 'bracket' && prev.value.length === 1)) {
        push({ type: 'text', value, output: `\\${value}` });
        continue;
      }

      if (state.brackets === 0) {
        if (opts.strictBrackets === true) {
          throw new SyntaxError(syntaxError('opening', '['));
        }

        push({ type: 'text', value, output: `\\${value}` });
        continue;
      }

      decrement('brackets');

      const prevValue = prev.value.slice(1);
      if (prev.posix !== true && prevValue[0] === '^' && !prevValue.includes('/')) {
        value = `/${value}`;
      }

      prev.value += value;
      append({ value });

      // when literal brackets are explicitly disabled
      // assume we should match with a regex character class
      if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
        continue;
      }

      const escaped = utils.escapeRegex(prev.value);
      state.output = state.output.slice(0, -prev.value.length);

      // when literal brackets are explicitly enabled
      // assume we should escape the brackets to match literal characters
      if (opts.literalBrackets === true) {
        state.output += escaped;
        prev.value = escaped;
        continue;
      }

      // when the user specifies nothing, try to match both
      prev.value = `(${capture}${escaped}|${prev.value})`;
      state.output += prev.value;
      continue;
    }

    /**
     * Braces
     */

    if (value === '{' && opts.nobrace !== true) {
      increment('braces');

      const open = {
        type: 'brace',
        value,
        output: '(',
        outputIndex: state.output.length,
        tokensIndex: state.tokens.length
      };

      braces.push(open);
      push(open);
      continue;
    }

    if (value === '}') {
      const brace = braces[braces.length - 1];

      if (opts.nobrace === true || !brace) {
        push({ type: 'text', value, output: value });
        continue;
      }

      let output = ')';

      if (brace.dots === true) {
        const arr = tokens.slice();
        const range = [];

        for (let i = arr.length - 1; i >= 0; i--) {
          tokens.pop();
          if (arr[i].type === 'brace') {
            break;
          }
          if (arr[i].type !== 'dots') {
            range.unshift(arr[i].value);
          }
        }

        output = expandRange(range, opts);
        state.backtrack = true;
      }

      if (brace.comma !== true && brace.dots !== true) {
        const out = state.output.slice(0, brace.outputIndex);
        const toks = state.tokens.slice(brace.tokensIndex);
        brace.value = brace.output = '\\{';
        value = output = '\\}';
        state.output = out;
        for (const t of toks) {
          state.output += (t.output || t.value);
        }
      }

      push({ type: 'brace', value, output });
      decrement('braces');
      braces.pop();
      continue;
    }

    /**
     * Pipes
     */

    if (value === '|') {
      if (extglobs.length > 0) {
        extglobs[extglobs.length - 1].conditions++;
      }
      push({ type: 'text', value });
      continue;
    }

    /**
     * Commas
     */

    if (value === ',') {
      let output = value;

      const brace = braces[braces.length - 1];
      if (brace && stack[stack.length - 1] === 'braces') {
        brace.comma = true;
        output = '|';
      }

      push({ type: 'comma', value, output });
      continue;
    }

    /**
     * Slashes
     */

    if (value === '/') {
      // if the beginning of the glob is "./", advance the start
      // to the current index, and don't add the "./" characters
      // to the state. This greatly simplifies lookbehinds when
      // checking for BOS characters like "!" and "." (not "./")
      if (prev.type === 'dot' && state.index === state.start + 1) {
        state.start = state.index + 1;
        state.consumed = '';
        state.output = '';
        tokens.pop();
        prev = bos; // reset "prev" to the first token
        continue;
      }

      push({ type: 'slash', value, output: SLASH_LITERAL });
      continue;
    }

    /**
     * Dots
     */

    if (value === '.') {
      if (state.braces > 0 && prev.type === 'dot') {
        if (prev.value === '.') prev.output = DOT_LITERAL;
        const brace = braces[braces.length - 1];
        prev.type = 'dots';
        prev.output += value;
        prev.value += value;
        brace.dots = true;
        continue;
      }

      if ((state.braces + state.parens) === 0 && prev.type !== 'bos' && prev.type !== 'slash') {
        push({ type: 'text', value, output: DOT_LITERAL });
        continue;
      }

      push({ type: 'dot', value, output: DOT_LITERAL });
      continue;
    }

    /**
     * Question marks
     */

    if (value === '?') {
      const isGroup = prev && prev.value === '(';
      if (!isGroup && opts.noextglob !== true && peek() === '(' && peek(2) !== '?') {
        extglobOpen('qmark', value);
        continue;
      }

      if (prev && prev.type === 'paren') {
        const next = peek();
        let output = value;

        if ((prev.value === '(' && !/[!=<:]/.test(next)) || (next === '<' && !/<([!=]|\w+>)/.test(remaining()))) {
          output = `\\${value}`;
        }

        push({ type: 'text', value, output });
        continue;
      }

      if (opts.dot !== true && (prev.type === 'slash' || prev.type === 'bos')) {
        push({ type: 'qmark', value, output: QMARK_NO_DOT });
        continue;
      }

      push({ type: 'qmark', value, output: QMARK });
      continue;
    }

    /**
     * Exclamation
     */

    if (value === '!') {
      if (opts.noextglob !== true && peek() === '(') {
        if (peek(2) !== '?' || !/[!=<:]/.test(peek(3))) {
          extglobOpen('negate', value);
          continue;
        }
      }

      if (opts.nonegate !== true && state.index === 0) {
        negate();
        continue;
      }
    }

    /**
     * Plus
     */

    if (value === '+') {
      if (opts.noextglob !== true && peek() === '(' && peek(2) !== '?') {
        extglobOpen('plus', value);
        continue;
      }

      if ((prev && prev.value === '(') || opts.regex === false) {
        push({ type: 'plus', value, output: PLUS_LITERAL });
        continue;
      }

      if ((prev && (prev.type === 'bracket' || prev.type === 'paren' || prev.type === 'brace')) || state.parens > 0) {
        push({ type: 'plus', value });
        continue;
      }

      push({ type: 'plus', value: PLUS_LITERAL });
      continue;
    }

    /**
     * Plain text
     */

    if (value === '@') {
      if (opts.noextglob !== true && peek() === '(' && peek(2) !== '?') {
        push({ type: 'at', extglob: true, value, output: '' });
        continue;
      }

      push({ type: 'text', value });
      continue;
    }

    /**
     * Plain text
     */

    if (value !== '*') {
      if (value === '$' || value === '^') {
        value = `\\${value}`;
      }

      const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
      if (match) {
        value += match[0];
        state.index += match[0].length;
      }

      push({ type: 'text', value });
      continue;
    }

    /**
     * Stars
     */

    if (prev && (prev.type === 'globstar' || prev.star === true)) {
      prev.type = 'star';
      prev.star = true;
      prev.value += value;
      prev.output = star;
      state.backtrack = true;
      state.globstar = true;
      consume(value);
      continue;
    }

    let rest = remaining();
    if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
      extglobOpen('star', value);
      continue;
    }

    if (prev.type === 'star') {
      if (opts.noglobstar === true) {
        consume(value);
        continue;
      }

      const prior = prev.prev;
      const before = prior.prev;
      const isStart = prior.type === 'slash' || prior.type === 'bos';
      const afterStar = before && (before.type === 'star' || before.type === 'globstar');

      if (opts.bash === true && (!isStart || (rest[0] && rest[0] !== '/'))) {
        push({ type: 'star', value, output: '' });
        continue;
      }

      const isBrace = state.braces > 0 && (prior.type === 'comma' || prior.type === 'brace');
      const isExtglob = extglobs.length && (prior.type === 'pipe' || prior.type === 'paren');
      if (!isStart && prior.type !== 'paren' && !isBrace && !isExtglob) {
        push({ type: 'star', value, output: '' });
        continue;
      }

      // strip consecutive `/**/`
      while (rest.slice(0, 3) === '/**') {
        const after = input[state.index + 4];
        if (after && after !== '/') {
          break;
        }
        rest = rest.slice(3);
        consume('/**', 3);
      }

      // A globstar followed only by balanced closing parens is at the logical end of patterns like
      // `test(/utils/**)` and `test?(/utils/**)`. Treat it as EOS so the trailing `/**` can match its
      // parent path, except in negated extglobs where that would change the exclusion semantics.
      const isEnd = eos() || (
        state.parens > 0
        && rest === ')'.repeat(state.parens)
        && !extglobs.some(extglob => extglob.type === 'negate')
      );

      if (prior.type === 'bos' && eos()) {
        prev.type = 'globstar';
        prev.value += value;
        prev.output = globstar(opts);
        state.output = prev.output;
        state.globstar = true;
        consume(value);
        continue;
      }

      if (prior.type === 'slash' && prior.prev.type !== 'bos' && !afterStar && isEnd) {
        state.output = state.output.slice(0, -(prior.output + prev.output).length);
        prior.output = `(?:${prior.output}`;

        prev.type = 'globstar';
        prev.output = globstar(opts) + (opts.strictSlashes ? ')' : '|$)');
        prev.value += value;
        state.globstar = true;
        state.output += prior.output + prev.output;
        consume(value);
        continue;
      }

      if (prior.type === 'slash' && prior.prev.type !== 'bos' && rest[0] === '/') {
        const end = rest[1] !== void 0 ? '|$' : '';

        state.output = state.output.slice(0, -(prior.output + prev.output).length);
        prior.output = `(?:${prior.output}`;

        prev.type = 'globstar';
        prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
        prev.value += value;

        state.output += prior.output + prev.output;
        state.globstar = true;

        consume(value + advance());

        push({ type: 'slash', value: '/', output: '' });
        continue;
      }

      if (prior.type === 'bos' && rest[0] === '/') {
        prev.type = 'globstar';
        prev.value += value;
        prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
        state.output = prev.output;
        state.globstar = true;
        consume(value + advance());
        push({ type: 'slash', value: '/', output: '' });
        continue;
      }

      // remove single star from output
      state.output = state.output.slice(0, -prev.output.length);

      // reset previous token to globstar
      prev.type = 'globstar';
      prev.output = globstar(opts);
      prev.value += value;

      // reset output with globstar
      state.output += prev.output;
      state.globstar = true;
      consume(value);
      continue;
    }

    const token = { type: 'star', value, output: star };

    if (opts.bash === true) {
      token.output = '.*?';
      if (prev.type === 'bos' || prev.type === 'slash') {
        token.output = nodot + token.output;
      }
      push(token);
      continue;
    }

    if (prev && (prev.type === 'bracket' || prev.type === 'paren') && opts.regex === true) {
      token.output = value;
      push(token);
      continue;
    }

    if (state.index === state.start || prev.type === 'slash' || prev.type === 'dot') {
      if (prev.type === 'dot') {
        state.output += NO_DOT_SLASH;
        prev.output += NO_DOT_SLASH;

      } else if (opts.dot === true) {
        state.output += NO_DOTS_SLASH;
        prev.output += NO_DOTS_SLASH;

      } else {
        state.output += nodot;
        prev.output += nodot;
      }

      if (peek() !== '*') {
        state.output += ONE_CHAR;
        prev.output += ONE_CHAR;
      }
    }

    push(token);
  }

  while (state.brackets > 0) {
    if (opts.strictBrackets === true) throw new SyntaxError(syntaxError('closing', ']'));
    state.output = utils.escapeLast(state.output, '[');
    decrement('brackets');
  }

  while (state.parens > 0) {
    if (opts.strictBrackets === true) throw new SyntaxError(syntaxError('closing', ')'));
    state.output = utils.escapeLast(state.output, '(');
    decrement('parens');
  }

  while (state.braces > 0) {
    if (opts.strictBrackets === true) throw new SyntaxError(syntaxError('closing', '}'));
    state.output = utils.escapeLast(state.output, '{');
    decrement('braces');
  }

  if (opts.strictSlashes !== true && (prev.type === 'star' || prev.type === 'bracket')) {
    push({ type: 'maybe_slash', value: '', output: `${SLASH_LITERAL}?` });
  }

  // rebuild the output if we had to backtrack at any point
  if (state.backtrack === true) {
    state.output = '';

    for (const token of state.tokens) {
      state.output += token.output != null ? token.output : token.value;

      if (token.suffix) {
        state.output += token.suffix;
      }
    }
  }

  return state;
};

/**
 * Fast paths for creating regular expressions for common glob patterns.
 * This can significantly speed up processing and has very little downside
 * impact when none of the fast paths match.
 */

parse.fastpaths = (input, options) => {
  const opts = { ...options };
  const max = typeof opts.maxLength === 'number' ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
  const len = input.length;
  if (len > max) {
    throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
  }

  input = REPLACEMENTS[input] || input;

  // create constants based on platform, for windows or posix
  const {
    DOT_LITERAL,
    SLASH_LITERAL,
    ONE_CHAR,
    DOTS_SLASH,
    NO_DOT,
    NO_DOTS,
    NO_DOTS_SLASH,
    STAR,
    START_ANCHOR
  } = constants.globChars(opts.windows);

  const nodot = opts.dot ? NO_DOTS : NO_DOT;
  const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
  const capture = opts.capture ? '' : '?:';
  const state = { negated: false, prefix: '' };
  let star = opts.bash === true ? '.*?' : STAR;

  if (opts.capture) {
    star = `(${star})`;
  }

  const globstar = opts => {
    if (opts.noglobstar === true) return star;
    return `(${capture}(?:(?!${START_ANCHOR}${opts.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
  };

  const create = str => {
    switch (str) {
      case '*':
        return `${nodot}${ONE_CHAR}${star}`;

      case '.*':
        return `${DOT_LITERAL}${ONE_CHAR}${star}`;

      case '*.*':
        return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;

      case '*/*':
        return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;

      case '**':
        return nodot + globstar(opts);

      case '**/*':
        return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;

      case '**/*.*':
        return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;

      case '**/.*':
        return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;

      default: {
        const match = /^(.*?)\.(\w+)$/.exec(str);
        if (!match) return;

        const source = create(match[1]);
        if (!source) return;

        return source + DOT_LITERAL + match[2];
      }
    }
  };

  const output = utils.removePrefix(input, state);
  let source = create(output);

  if (source && opts.strictSlashes !== true) {
    source += `${SLASH_LITERAL}?`;
  }

  return source;
};

module.exports = parse;


/***/ }),

/***/ 8016:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const scan = __nccwpck_require__(1781);
const parse = __nccwpck_require__(8265);
const utils = __nccwpck_require__(4059);
const constants = __nccwpck_require__(5595);
const isObject = val => val && typeof val === 'object' && !Array.isArray(val);

/**
 * Creates a matcher function from one or more glob patterns. The
 * returned function takes a string to match as its first argument,
 * and returns true if the string is a match. The returned matcher
 * function also takes a boolean as the second argument that, when true,
 * returns an object with additional information.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch(glob[, options]);
 *
 * const isMatch = picomatch('*.!(*a)');
 * console.log(isMatch('a.a')); //=> false
 * console.log(isMatch('a.b')); //=> true
 *
 * // For environments without `node.js`, `picomatch/posix` provides you a dependency-free matcher, without automatic OS detection.
 * const picomatch = require('picomatch/posix');
 * // the same API, defaulting to posix paths
 * const isMatch = picomatch('a/*');
 * console.log(isMatch('a\\b')); //=> false
 * console.log(isMatch('a/b')); //=> true
 *
 * // you can still configure the matcher function to accept windows paths
 * const isMatch = picomatch('a/*', { options: windows });
 * console.log(isMatch('a\\b')); //=> true
 * console.log(isMatch('a/b')); //=> true
 * ```
 * @name picomatch
 * @param {String|Array} `globs` One or more glob patterns.
 * @param {Object=} `options`
 * @return {Function=} Returns a matcher function.
 * @api public
 */

const picomatch = (glob, options, returnState = false) => {
  if (Array.isArray(glob)) {
    const fns = glob.map(input => picomatch(input, options, returnState));
    const arrayMatcher = str => {
      for (const isMatch of fns) {
        const state = isMatch(str);
        if (state) return state;
      }
      return false;
    };
    return arrayMatcher;
  }

  const isState = isObject(glob) && glob.tokens && glob.input;

  if (glob === '' || (typeof glob !== 'string' && !isState)) {
    throw new TypeError('Expected pattern to be a non-empty string');
  }

  const opts = options || {};
  const posix = opts.windows;
  const regex = isState
    ? picomatch.compileRe(glob, options)
    : picomatch.makeRe(glob, options, false, true);

  const state = regex.state;
  delete regex.state;

  let isIgnored = () => false;
  if (opts.ignore) {
    const ignoreOpts = { ...options, ignore: null, onMatch: null, onResult: null };
    isIgnored = picomatch(opts.ignore, ignoreOpts, returnState);
  }

  const matcher = (input, returnObject = false) => {
    const { isMatch, match, output } = picomatch.test(input, regex, options, { glob, posix });
    const result = { glob, state, regex, posix, input, output, match, isMatch };

    if (typeof opts.onResult === 'function') {
      opts.onResult(result);
    }

    if (isMatch === false) {
      result.isMatch = false;
      return returnObject ? result : false;
    }

    if (isIgnored(input)) {
      if (typeof opts.onIgnore === 'function') {
        opts.onIgnore(result);
      }
      result.isMatch = false;
      return returnObject ? result : false;
    }

    if (typeof opts.onMatch === 'function') {
      opts.onMatch(result);
    }
    return returnObject ? result : true;
  };

  if (returnState) {
    matcher.state = state;
  }

  return matcher;
};

/**
 * Test `input` with the given `regex`. This is used by the main
 * `picomatch()` function to test the input string.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.test(input, regex[, options]);
 *
 * console.log(picomatch.test('foo/bar', /^(?:([^/]*?)\/([^/]*?))$/));
 * // { isMatch: true, match: [ 'foo/', 'foo', 'bar' ], output: 'foo/bar' }
 * ```
 * @param {String} `input` String to test.
 * @param {RegExp} `regex`
 * @return {Object} Returns an object with matching info.
 * @api public
 */

picomatch.test = (input, regex, options, { glob, posix } = {}) => {
  if (typeof input !== 'string') {
    throw new TypeError('Expected input to be a string');
  }

  if (input === '') {
    return { isMatch: false, output: '' };
  }

  const opts = options || {};
  const format = opts.format || (posix ? utils.toPosixSlashes : null);
  let match = input === glob;
  let output = (match && format) ? format(input) : input;

  if (match === false) {
    output = format ? format(input) : input;
    match = output === glob;
  }

  if (match === false || opts.capture === true) {
    if (opts.matchBase === true || opts.basename === true) {
      match = picomatch.matchBase(input, regex, options, posix);
    } else {
      match = regex.exec(output);
    }
  }

  return { isMatch: Boolean(match), match, output };
};

/**
 * Match the basename of a filepath.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.matchBase(input, glob[, options]);
 * console.log(picomatch.matchBase('foo/bar.js', '*.js'); // true
 * ```
 * @param {String} `input` String to test.
 * @param {RegExp|String} `glob` Glob pattern or regex created by [.makeRe](#makeRe).
 * @return {Boolean}
 * @api public
 */

picomatch.matchBase = (input, glob, options, posix = options && options.windows) => {
  const regex = glob instanceof RegExp ? glob : picomatch.makeRe(glob, options);
  return regex.test(utils.basename(input, { windows: posix }));
};

/**
 * Returns true if **any** of the given glob `patterns` match the specified `string`.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.isMatch(string, patterns[, options]);
 *
 * console.log(picomatch.isMatch('a.a', ['b.*', '*.a'])); //=> true
 * console.log(picomatch.isMatch('a.a', 'b.*')); //=> false
 * ```
 * @param {String|Array} str The string to test.
 * @param {String|Array} patterns One or more glob patterns to use for matching.
 * @param {Object} [options] See available [options](#options).
 * @return {Boolean} Returns true if any patterns match `str`
 * @api public
 */

picomatch.isMatch = (str, patterns, options) => picomatch(patterns, options)(str);

/**
 * Parse a glob pattern to create the source string for a regular
 * expression.
 *
 * ```js
 * const picomatch = require('picomatch');
 * const result = picomatch.parse(pattern[, options]);
 * ```
 * @param {String} `pattern`
 * @param {Object} `options`
 * @return {Object} Returns an object with useful properties and output to be used as a regex source string.
 * @api public
 */

picomatch.parse = (pattern, options) => {
  if (Array.isArray(pattern)) return pattern.map(p => picomatch.parse(p, options));
  return parse(pattern, { ...options, fastpaths: false });
};

/**
 * Scan a glob pattern to separate the pattern into segments.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.scan(input[, options]);
 *
 * const result = picomatch.scan('!./foo/*.js');
 * console.log(result);
 * { prefix: '!./',
 *   input: '!./foo/*.js',
 *   start: 3,
 *   base: 'foo',
 *   glob: '*.js',
 *   isBrace: false,
 *   isBracket: false,
 *   isGlob: true,
 *   isExtglob: false,
 *   isGlobstar: false,
 *   negated: true }
 * ```
 * @param {String} `input` Glob pattern to scan.
 * @param {Object} `options`
 * @return {Object} Returns an object with
 * @api public
 */

picomatch.scan = (input, options) => scan(input, options);

/**
 * Compile a regular expression from the `state` object returned by the
 * [parse()](#parse) method.
 *
 * ```js
 * const picomatch = require('picomatch');
 * const state = picomatch.parse('*.js');
 * // picomatch.compileRe(state[, options]);
 *
 * console.log(picomatch.compileRe(state));
 * //=> /^(?:(?!\.)(?=.)[^/]*?\.js)$/
 * ```
 * @param {Object} `state`
 * @param {Object} `options`
 * @param {Boolean} `returnOutput` Intended for implementors, this argument allows you to return the raw output from the parser.
 * @param {Boolean} `returnState` Adds the state to a `state` property on the returned regex. Useful for implementors and debugging.
 * @return {RegExp}
 * @api public
 */

picomatch.compileRe = (state, options, returnOutput = false, returnState = false) => {
  if (returnOutput === true) {
    return state.output;
  }

  const opts = options || {};
  const prepend = opts.contains ? '' : '^';
  const append = opts.contains ? '' : '$';

  let source = `${prepend}(?:${state.output})${append}`;
  if (state && state.negated === true) {
    source = `^(?!${source}).*$`;
  }

  const regex = picomatch.toRegex(source, options);
  if (returnState === true) {
    regex.state = state;
  }

  return regex;
};

/**
 * Create a regular expression from a parsed glob pattern.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.makeRe(state[, options]);
 *
 * const result = picomatch.makeRe('*.js');
 * console.log(result);
 * //=> /^(?:(?!\.)(?=.)[^/]*?\.js)$/
 * ```
 * @param {String} `state` The object returned from the `.parse` method.
 * @param {Object} `options`
 * @param {Boolean} `returnOutput` Implementors may use this argument to return the compiled output, instead of a regular expression. This is not exposed on the options to prevent end-users from mutating the result.
 * @param {Boolean} `returnState` Implementors may use this argument to return the state from the parsed glob with the returned regular expression.
 * @return {RegExp} Returns a regex created from the given pattern.
 * @api public
 */

picomatch.makeRe = (input, options = {}, returnOutput = false, returnState = false) => {
  if (!input || typeof input !== 'string') {
    throw new TypeError('Expected a non-empty string');
  }

  let parsed = { negated: false, fastpaths: true };

  if (options.fastpaths !== false && (input[0] === '.' || input[0] === '*')) {
    parsed.output = parse.fastpaths(input, options);
  }

  if (!parsed.output) {
    parsed = parse(input, options);
  }

  return picomatch.compileRe(parsed, options, returnOutput, returnState);
};

/**
 * Create a regular expression from the given regex source string.
 *
 * ```js
 * const picomatch = require('picomatch');
 * // picomatch.toRegex(source[, options]);
 *
 * const { output } = picomatch.parse('*.js');
 * console.log(picomatch.toRegex(output));
 * //=> /^(?:(?!\.)(?=.)[^/]*?\.js)$/
 * ```
 * @param {String} `source` Regular expression source string.
 * @param {Object} `options`
 * @return {RegExp}
 * @api public
 */

picomatch.toRegex = (source, options) => {
  try {
    const opts = options || {};
    return new RegExp(source, opts.flags || (opts.nocase ? 'i' : ''));
  } catch (err) {
    if (options && options.debug === true) throw err;
    return /$^/;
  }
};

/**
 * Picomatch constants.
 * @return {Object}
 */

picomatch.constants = constants;

/**
 * Expose "picomatch"
 */

module.exports = picomatch;


/***/ }),

/***/ 1781:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const utils = __nccwpck_require__(4059);
const {
  CHAR_ASTERISK,             /* * */
  CHAR_AT,                   /* @ */
  CHAR_BACKWARD_SLASH,       /* \ */
  CHAR_COMMA,                /* , */
  CHAR_DOT,                  /* . */
  CHAR_EXCLAMATION_MARK,     /* ! */
  CHAR_FORWARD_SLASH,        /* / */
  CHAR_LEFT_CURLY_BRACE,     /* { */
  CHAR_LEFT_PARENTHESES,     /* ( */
  CHAR_LEFT_SQUARE_BRACKET,  /* [ */
  CHAR_PLUS,                 /* + */
  CHAR_QUESTION_MARK,        /* ? */
  CHAR_RIGHT_CURLY_BRACE,    /* } */
  CHAR_RIGHT_PARENTHESES,    /* ) */
  CHAR_RIGHT_SQUARE_BRACKET  /* ] */
} = __nccwpck_require__(5595);

const isPathSeparator = code => {
  return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
};

const depth = token => {
  if (token.isPrefix !== true) {
    token.depth = token.isGlobstar ? Infinity : 1;
  }
};

/**
 * Quickly scans a glob pattern and returns an object with a handful of
 * useful properties, like `isGlob`, `path` (the leading non-glob, if it exists),
 * `glob` (the actual pattern), `negated` (true if the path starts with `!` but not
 * with `!(`) and `negatedExtglob` (true if the path starts with `!(`).
 *
 * ```js
 * const pm = require('picomatch');
 * console.log(pm.scan('foo/bar/*.js'));
 * { isGlob: true, input: 'foo/bar/*.js', base: 'foo/bar', glob: '*.js' }
 * ```
 * @param {String} `str`
 * @param {Object} `options`
 * @return {Object} Returns an object with tokens and regex source string.
 * @api public
 */

const scan = (input, options) => {
  const opts = options || {};

  const length = input.length - 1;
  const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
  const slashes = [];
  const tokens = [];
  const parts = [];

  let str = input;
  let index = -1;
  let start = 0;
  let lastIndex = 0;
  let isBrace = false;
  let isBracket = false;
  let isGlob = false;
  let isExtglob = false;
  let isGlobstar = false;
  let braceEscaped = false;
  let backslashes = false;
  let negated = false;
  let negatedExtglob = false;
  let finished = false;
  let braces = 0;
  let prev;
  let code;
  let token = { value: '', depth: 0, isGlob: false };

  const eos = () => index >= length;
  const peek = () => str.charCodeAt(index + 1);
  const advance = () => {
    prev = code;
    return str.charCodeAt(++index);
  };

  while (index < length) {
    code = advance();
    let next;

    if (code === CHAR_BACKWARD_SLASH) {
      backslashes = token.backslashes = true;
      code = advance();

      if (code === CHAR_LEFT_CURLY_BRACE) {
        braceEscaped = true;
      }
      continue;
    }

    if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
      braces++;

      while (eos() !== true && (code = advance())) {
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          advance();
          continue;
        }

        if (code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          continue;
        }

        if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
          isBrace = token.isBrace = true;
          isGlob = token.isGlob = true;
          finished = true;

          if (scanToEnd === true) {
            continue;
          }

          break;
        }

        if (braceEscaped !== true && code === CHAR_COMMA) {
          isBrace = token.isBrace = true;
          isGlob = token.isGlob = true;
          finished = true;

          if (scanToEnd === true) {
            continue;
          }

          break;
        }

        if (code === CHAR_RIGHT_CURLY_BRACE) {
          braces--;

          if (braces === 0) {
            braceEscaped = false;
            isBrace = token.isBrace = true;
            finished = true;
            break;
          }
        }
      }

      if (scanToEnd === true) {
        continue;
      }

      break;
    }

    if (code === CHAR_FORWARD_SLASH) {
      slashes.push(index);
      tokens.push(token);
      token = { value: '', depth: 0, isGlob: false };

      if (finished === true) continue;
      if (prev === CHAR_DOT && index === (start + 1)) {
        start += 2;
        continue;
      }

      lastIndex = index + 1;
      continue;
    }

    if (opts.noext !== true) {
      const isExtglobChar = code === CHAR_PLUS
        || code === CHAR_AT
        || code === CHAR_ASTERISK
        || code === CHAR_QUESTION_MARK
        || code === CHAR_EXCLAMATION_MARK;

      if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
        isGlob = token.isGlob = true;
        isExtglob = token.isExtglob = true;
        finished = true;
        if (code === CHAR_EXCLAMATION_MARK && index === start) {
          negatedExtglob = true;
        }

        if (scanToEnd === true) {
          let parens = 0;

          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }

            if (code === CHAR_LEFT_PARENTHESES) {
              parens++;
              continue;
            }

            if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
              finished = true;
              break;
            }
          }
          continue;
        }
        break;
      }
    }

    if (code === CHAR_ASTERISK) {
      if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
      isGlob = token.isGlob = true;
      finished = true;

      if (scanToEnd === true) {
        continue;
      }
      break;
    }

    if (code === CHAR_QUESTION_MARK) {
      isGlob = token.isGlob = true;
      finished = true;

      if (scanToEnd === true) {
        continue;
      }
      break;
    }

    if (code === CHAR_LEFT_SQUARE_BRACKET) {
      while (eos() !== true && (next = advance())) {
        if (next === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          advance();
          continue;
        }

        if (next === CHAR_RIGHT_SQUARE_BRACKET) {
          isBracket = token.isBracket = true;
          isGlob = token.isGlob = true;
          finished = true;
          break;
        }
      }

      if (scanToEnd === true) {
        continue;
      }

      break;
    }

    if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
      negated = token.negated = true;
      start++;
      continue;
    }

    if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
      isGlob = token.isGlob = true;

      if (scanToEnd === true) {
        let parens = 1;

        while (eos() !== true && (code = advance())) {
          if (code === CHAR_BACKWARD_SLASH) {
            backslashes = token.backslashes = true;
            advance();
            continue;
          }

          if (code === CHAR_LEFT_PARENTHESES) {
            parens++;
            continue;
          }

          if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
            finished = true;
            break;
          }
        }
        continue;
      }
      break;
    }

    if (isGlob === true) {
      finished = true;

      if (scanToEnd === true) {
        continue;
      }

      break;
    }
  }

  if (opts.noext === true) {
    isExtglob = false;
    isGlob = false;
  }

  let base = str;
  let prefix = '';
  let glob = '';

  if (start > 0) {
    prefix = str.slice(0, start);
    str = str.slice(start);
    lastIndex -= start;
  }

  if (base && isGlob === true && lastIndex > 0) {
    base = str.slice(0, lastIndex);
    glob = str.slice(lastIndex);
  } else if (isGlob === true) {
    base = '';
    glob = str;
  } else {
    base = str;
  }

  if (base && base !== '' && base !== '/' && base !== str) {
    if (isPathSeparator(base.charCodeAt(base.length - 1))) {
      base = base.slice(0, -1);
    }
  }

  if (opts.unescape === true) {
    if (glob) glob = utils.removeBackslashes(glob);

    if (base && backslashes === true) {
      base = utils.removeBackslashes(base);
    }
  }

  const state = {
    prefix,
    input,
    start,
    base,
    glob,
    isBrace,
    isBracket,
    isGlob,
    isExtglob,
    isGlobstar,
    negated,
    negatedExtglob
  };

  if (opts.tokens === true) {
    state.maxDepth = 0;
    if (!isPathSeparator(code)) {
      tokens.push(token);
    }
    state.tokens = tokens;
  }

  if (opts.parts === true || opts.tokens === true) {
    let prevIndex;

    for (let idx = 0; idx < slashes.length; idx++) {
      const n = prevIndex !== undefined ? prevIndex + 1 : start;
      const i = slashes[idx];
      const value = input.slice(n, i);
      if (opts.tokens) {
        if (idx === 0 && start !== 0) {
          tokens[idx].isPrefix = true;
          tokens[idx].value = prefix;
        } else {
          tokens[idx].value = value;
        }
        depth(tokens[idx]);
        state.maxDepth += tokens[idx].depth;
      }
      if (i >= start) {
        parts.push(value);
        prevIndex = i;
      }
    }

    const n = prevIndex !== undefined ? prevIndex + 1 : start;
    const value = input.slice(n);
    parts.push(value);

    if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
      tokens[tokens.length - 1].value = value;
      depth(tokens[tokens.length - 1]);
      state.maxDepth += tokens[tokens.length - 1].depth;
    }

    state.slashes = slashes;
    state.parts = parts;
  }

  return state;
};

module.exports = scan;


/***/ }),

/***/ 4059:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

/*global navigator*/


const {
  REGEX_BACKSLASH,
  REGEX_REMOVE_BACKSLASH,
  REGEX_SPECIAL_CHARS,
  REGEX_SPECIAL_CHARS_GLOBAL
} = __nccwpck_require__(5595);

exports.isObject = val => val !== null && typeof val === 'object' && !Array.isArray(val);
exports.hasRegexChars = str => REGEX_SPECIAL_CHARS.test(str);
exports.isRegexChar = str => str.length === 1 && exports.hasRegexChars(str);
exports.escapeRegex = str => str.replace(REGEX_SPECIAL_CHARS_GLOBAL, '\\$1');
exports.toPosixSlashes = str => str.replace(REGEX_BACKSLASH, '/');

exports.isWindows = () => {
  if (typeof navigator !== 'undefined' && navigator.platform) {
    const platform = navigator.platform.toLowerCase();
    return platform === 'win32' || platform === 'windows';
  }

  if (typeof process !== 'undefined' && process.platform) {
    return process.platform === 'win32';
  }

  return false;
};

exports.removeBackslashes = str => {
  return str.replace(REGEX_REMOVE_BACKSLASH, match => {
    return match === '\\' ? '' : match;
  });
};

exports.escapeLast = (input, char, lastIdx) => {
  const idx = input.lastIndexOf(char, lastIdx);
  if (idx === -1) return input;
  if (input[idx - 1] === '\\') return exports.escapeLast(input, char, idx - 1);
  return `${input.slice(0, idx)}\\${input.slice(idx)}`;
};

exports.removePrefix = (input, state = {}) => {
  let output = input;
  if (output.startsWith('./')) {
    output = output.slice(2);
    state.prefix = './';
  }
  return output;
};

exports.wrapOutput = (input, state = {}, options = {}) => {
  const prepend = options.contains ? '' : '^';
  const append = options.contains ? '' : '$';

  let output = `${prepend}(?:${input})${append}`;
  if (state.negated === true) {
    output = `(?:^(?!${output}).*$)`;
  }
  return output;
};

exports.basename = (path, { windows } = {}) => {
  const segs = path.split(windows ? /[\\/]/ : '/');
  const last = segs[segs.length - 1];

  if (last === '') {
    return segs[segs.length - 2];
  }

  return last;
};


/***/ }),

/***/ 5581:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var _cli_run_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(194);
/** receipt-gate CLI entry (bundled as dist/cli.js): a few lines around cli/run.ts `main`, which holds the logic. */

async function run() {
    try {
        const r = await (0,_cli_run_js__WEBPACK_IMPORTED_MODULE_0__/* .main */ .i)(process.argv.slice(2), process.env, Boolean(process.stdout.isTTY), process.cwd());
        if (r.stdout)
            process.stdout.write(r.stdout);
        if (r.stderr)
            process.stderr.write(r.stderr);
        process.exitCode = r.code;
    }
    catch (error) {
        // A bug, never an input problem: say so plainly and fail closed.
        process.stderr.write(`receipt-gate: internal error: ${error?.stack ?? String(error)}\n`);
        process.exitCode = 1;
    }
}
// A reader that stops early (`| head`) is not an error of the gate: stop writing, keep the exit status.
process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE')
        throw error;
});
await run();

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 194:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  i: () => (/* binding */ main)
});

;// CONCATENATED MODULE: ./src/gate/settings/types.ts
/**
 * The typed settings of a verification, and the one error the settings parsers throw: a mistake in
 * a flag or an input, with a code from a closed set. It is thrown only inside src/gate/settings/ and
 * the entries' parsers, and caught where they return (`usage`), as a `UsageProblem`.
 */
/** A mistake in the settings (a flag or an input); the message names the flag or input. */
class types_UsageError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
/** Run a settings parser: its value, or the usage problem it threw. */
function usage(parse) {
    try {
        const value = parse();
        return { ok: true, value };
    }
    catch (error) {
        if (error instanceof types_UsageError)
            return { ok: false, reason: { code: error.code, message: error.message } };
        throw error;
    }
}

;// CONCATENATED MODULE: ./src/version.ts
/** The version receipt-gate reports (SARIF, --version); package.json says the same (a test compares). */
const VERSION = '0.2.0';

// EXTERNAL MODULE: ./src/core/vocabulary.ts
var vocabulary = __nccwpck_require__(7063);
;// CONCATENATED MODULE: ./src/report/text.ts
/** Making untrusted text safe to print (control characters escaped, length bounded), and the sentences every reporter shares. */


/** "4 verified, 1 observed_confirmed, 4 asserted, 0 no_effect": the totals sentence of every reporter. */
const levelCounts = (t) => [...vocabulary/* LEVELS_DESCENDING */.lS.map((l) => `${t[l]} ${l}`), `${t.no_effect} no_effect`].join(', ');
/** "weakest rung: observed_confirmed" (§9), or that nothing asserts a side effect. */
const weakestRung = (t) => t.weakest_level === null ? 'weakest rung: none (no call asserts a side effect)' : `weakest rung: ${t.weakest_level}`;
/** A level for people: the rung, or "—" for a call that asserts no side effect. */
const text_rung = (l) => l ?? '—';
/** "4 bound, 0 unmatched, 0 inconsistent, 0 untrusted, 0 duplicate", from the outcome table. */
const recordCounts = (t) => vocabulary/* RECORD_OUTCOME_NAMES */.Kc.map((o) => `${t[o]} ${o}`).join(', ');
/**
 * Which runs a producer attested (§10), or null when no run names a producer and no trusted
 * producers are configured: "2 of 3 run(s) attested by a trusted producer; 1 signed, not checked".
 */
function producerLine(r) {
    const trusted = r.policy.trusted_producers.length > 0;
    const checked = r.runs.filter((x) => x.producer?.checked).length;
    const unchecked = r.runs.filter((x) => x.producer && !x.producer.checked).length;
    if (!trusted && unchecked === 0)
        return null;
    if (!trusted)
        return `${unchecked} of ${r.runs.length} run(s) carry a producer attestation, not checked: no trusted producers`;
    return `${checked} of ${r.runs.length} run(s) attested by a trusted producer`;
}
/** Each run's producer, for people: "attested by sha256:646d6be49d9f…", "signed by sha256:… (not checked)", "not attested". */
function runProducer(p) {
    if (!p)
        return 'not attested';
    const signer = p.identity ? `${p.identity.identity} (${p.identity.source_ref})` : `${(p.key_id ?? '').slice(0, 19)}…`;
    const who = `${signer}${p.name ? ` (${p.name}${p.version ? ` ${p.version}` : ''})` : ''}`;
    return p.checked ? `attested by ${who}` : `signed by ${who}, not checked`;
}
/** "0 error(s), 0 warning(s), 2 notice(s)" */
const findingCounts = (t) => `${t.errors} error(s), ${t.warnings} warning(s), ${t.notices} notice(s)`;
// C0/C1 controls, DEL, line/paragraph separators, bidi overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Escape control and bidi characters as \uXXXX so they are shown, never interpreted. */
function text_visible(text) {
    return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
/** Where a location points, for people: file:line:column, or file!member:line:column inside a bundle. */
function where(l) {
    const col = l.column !== undefined ? `:${l.column}` : '';
    return l.member ? `${l.file}!${l.member}:${l.line}${col}` : `${l.file}:${l.line}${col}`;
}
/** A finding on one line: where (file:line:column, or the input as given), then its message. */
const located = (f) => `${findingPlace(f)}: ${text_visible(f.message)}`;
/** Where a finding is, for people: file:line:column, or the input as given (never an invented place). */
const findingPlace = (f) => text_visible(f.input !== undefined ? f.input : where(f));
const MARKER = ' … [trimmed by receipt-gate]';
/** At most `max` UTF-8 bytes, cut on a character boundary with a visible marker. */
function text_clipBytes(text, max) {
    if (Buffer.byteLength(text) <= max)
        return text;
    const room = max - Buffer.byteLength(MARKER);
    let lo = 0;
    let hi = Math.min(text.length, room);
    while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (Buffer.byteLength(clip(text, mid, '')) <= room)
            lo = mid;
        else
            hi = mid - 1;
    }
    return clip(text, lo, '') + MARKER;
}
/** Calls in the order a reader needs them: below their required level first, then with other failures, then the rest (report order within each). */
function failingFirst(calls) {
    const rank = (c) => (c.below_required ? 0 : c.findings.some((f) => f.severity === 'error') ? 1 : 2);
    return calls
        .map((call, i) => ({ call, i, r: rank(call) }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map(({ call, r }) => ({ call, fails: r < 2 }));
}

;// CONCATENATED MODULE: ./src/cli/command.ts

const EXIT = { pass: 0, problem: 1, usage: 2 };
/** A usage error: exit 2, the problem, and where to read about the commands. */
const usageError = (message) => ({
    code: EXIT.usage,
    stdout: '',
    stderr: `receipt-gate: ${message}\nRun 'receipt-gate --help' for the commands and their options.\n`,
});
/** What a tool says on stderr, each line prefixed with its name. */
const say = (tool, ...lines) => lines.map((l) => `receipt-gate: ${tool}: ${l}\n`).join('');
/** A tool's findings as lines of stderr, at most 50 and a count of the rest. */
function findingLines(tool, findings) {
    const shown = findings.slice(0, 50).map((f) => located(f));
    if (findings.length > 50)
        shown.push(`… and ${findings.length - 50} more error(s)`);
    return say(tool, ...shown);
}
/** A tool that wrote nothing: the code (a problem in the evidence, or usage), what it says, and that nothing was written. */
const wroteNothing = (tool, code, text) => ({
    code,
    stdout: '',
    stderr: `${text}${say(tool, 'nothing written')}`,
});
/** An output a tool could not write: a configuration problem (exit 2), whatever the tool. */
const unwritable = (tool, what, file, e) => wroteNothing(tool, EXIT.usage, say(tool, `cannot write ${what} ${file}: ${e instanceof Error ? e.message : String(e)}`));

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_);
// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __nccwpck_require__(4006);
var picomatch_default = /*#__PURE__*/__nccwpck_require__.n(picomatch);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/read/discover.ts
var discover = __nccwpck_require__(5965);
;// CONCATENATED MODULE: ./src/gate/settings/paths.ts
/**
 * The paths a user gives, checked on disk: a working directory inside the workspace, an output that
 * does not leave the workspace through a committed link, an explicit input that exists (else the
 * nearest path that does is named).
 */






/**
 * A working directory: `value` resolved against `base`, which must be a directory and, when a
 * workspace is given, inside it. `name` is the flag or input named in the message.
 */
function directoryIn(workspace, base, value, name) {
    const dir = external_node_path_default().resolve(base, value);
    if (workspace !== null && !(0,discover/* inside */.n)(workspace, dir))
        throw new types_UsageError('path', `${name}: "${value}" is outside the workspace`);
    let isDir = false;
    try {
        isDir = (0,external_node_fs_.statSync)(dir).isDirectory();
    }
    catch {
        isDir = false;
    }
    if (!isDir)
        throw new types_UsageError('path', `${name}: "${value}" is not a directory`);
    return dir;
}
/**
 * An output file: `value` resolved against `base`. One that lies inside `workspace` must stay inside
 * it through every directory above it: a checkout can commit a directory link (`out -> /home/runner`),
 * and a write must not follow it out. A path outside the workspace was chosen by whoever wrote the
 * workflow and is taken as given. (The file itself is never written through a link: report/output.ts.)
 */
function outputIn(workspace, base, value, name) {
    const file = external_node_path_default().resolve(base, value);
    let isDirectory = false;
    try {
        isDirectory = (0,external_node_fs_.statSync)(file).isDirectory();
    }
    catch {
        // nothing there yet: the writer makes it
    }
    if (isDirectory)
        throw new types_UsageError('output', `${name}: "${value}" is a directory; name a file to write`);
    if (!(0,discover/* inside */.n)(workspace, file))
        return file;
    const realWorkspace = (0,external_node_fs_.realpathSync)(workspace);
    // The nearest directory above the file that exists, where it really is.
    for (let dir = external_node_path_default().dirname(file);; dir = external_node_path_default().dirname(dir)) {
        let real = null;
        try {
            real = (0,external_node_fs_.realpathSync)(dir);
        }
        catch {
            // not there yet: the writer creates it, below the nearest one that is
        }
        if (real !== null) {
            if ((0,discover/* inside */.n)(realWorkspace, real))
                return file;
            const via = external_node_path_default().relative(workspace, dir) || '.';
            throw new types_UsageError('output', `${name}: "${value}" leads out of the workspace through a symbolic link (${via} is ${real}); not written`);
        }
        if (external_node_path_default().dirname(dir) === dir)
            return file;
    }
}
/**
 * Every input given explicitly as a plain path (no glob characters) must exist: a missing one is a
 * usage error naming the nearest existing path (semantics §6). Directories and globs that hold no
 * artifact are the gate's `no_artifacts` / `no_match`, not this.
 */
function requireExistingPaths(inputs, cwd, name) {
    for (const raw of inputs) {
        const input = raw.trim();
        if (input === '' || input.startsWith('!') || picomatch_default().scan(input).isGlob)
            continue;
        const abs = external_node_path_default().resolve(cwd, input);
        if ((0,external_node_fs_.existsSync)(abs))
            continue;
        throw new types_UsageError('path', `${name}: "${input}" does not exist${nearestExisting(cwd, abs)}`);
    }
}
/** ` (did you mean "…"?)` or ` (the nearest existing path is "…")`, relative to `cwd`. */
function nearestExisting(cwd, abs) {
    let dir = abs;
    const missing = [];
    while (!(0,external_node_fs_.existsSync)(dir)) {
        missing.unshift(external_node_path_default().basename(dir));
        const up = external_node_path_default().dirname(dir);
        if (up === dir)
            return '';
        dir = up;
    }
    const rel = (p) => external_node_path_default().relative(cwd, p).split((external_node_path_default()).sep).join('/') || '.';
    let entries = [];
    try {
        entries = (0,external_node_fs_.readdirSync)(dir);
    }
    catch {
        /* not a directory: no suggestion */
    }
    const near = (0,core_text/* nearestName */.qb)(missing[0], entries);
    if (near !== null)
        return ` (did you mean "${rel(external_node_path_default().join(dir, near, ...missing.slice(1)))}"?)`;
    return ` (the nearest existing path is "${rel(dir)}")`;
}
/** Where a path really is: the nearest directory above it that exists, with its links resolved, and the rest as written. */
function canonical(file) {
    const rest = [];
    for (let dir = file;; dir = external_node_path_default().dirname(dir)) {
        try {
            return external_node_path_default().join((0,external_node_fs_.realpathSync)(dir), ...rest);
        }
        catch {
            rest.unshift(external_node_path_default().basename(dir));
            if (external_node_path_default().dirname(dir) === dir)
                return file;
        }
    }
}
/**
 * Every file a command writes, each named once: two flags naming one file (`--output r.json --vsa
 * r.json`, or through a directory link: `real/r.json` and `alias/r.json`) are a usage error.
 */
function distinctOutputs(named) {
    const seen = new Map();
    for (const [flag, file] of named) {
        if (file === null)
            continue;
        const where = canonical(file);
        const other = seen.get(where);
        if (other)
            throw new types_UsageError('conflict', `${flag}: names the same file as ${other} (${file}); each output needs its own file`);
        seen.set(where, flag);
    }
}

// EXTERNAL MODULE: ./src/read/formats.ts
var formats = __nccwpck_require__(7928);
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __nccwpck_require__(3491);
// EXTERNAL MODULE: ./src/core/findings.ts
var core_findings = __nccwpck_require__(4637);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/read/envelope.ts
var read_envelope = __nccwpck_require__(1210);
;// CONCATENATED MODULE: ./src/read/attestation.ts
/**
 * Producer attestations (docs/attestations.md §1): the Statement upstream's `assay evidence
 * attest` signs for a bundle, made from what the verified bundle says (one home: the tool that
 * makes it and the check that reads it both use `bundleStatement`), and the checks of a signed
 * payload against a bundle in upstream's order, each with its own reason. Pure: no keys here.
 */


const EVIDENCE_BUNDLE_V1 = 'https://docs.getassay.dev/attestation/evidence-bundle/v1';
const EVIDENCE_BUNDLE_V0 = 'https://assay.dev/attestation/evidence-bundle/v0';
/** The Statement for a bundle, or why this bundle cannot be attested (upstream refuses to parse its manifest). */
function bundleStatement(facts) {
    if (facts.producer.name === null || facts.producer.version === null) {
        return { ok: false, reason: 'the bundle cannot be attested: its manifest has no producer.name or producer.version' };
    }
    if (facts.window === null)
        return { ok: false, reason: 'the bundle cannot be attested: its events have no time window' };
    return {
        ok: true,
        value: {
            _type: read_envelope/* STATEMENT_TYPE */.zG,
            subject: [{ name: facts.bundleId, digest: { sha256: facts.archiveSha256 } }],
            predicateType: EVIDENCE_BUNDLE_V1,
            predicate: {
                schema_version: 1,
                semantic_equivalence: { algorithm: 'assay-run-root-v1', value: facts.runRoot },
                run: {
                    run_id: facts.runId,
                    event_count: facts.eventCount,
                    producer: { name: facts.producer.name, version: facts.producer.version, git: facts.producer.git ?? '' },
                    time_window: { start: facts.window.start, end: facts.window.end },
                },
            },
        },
    };
}
/** A member's name in a message: dotted when plain, quoted when it holds a dot (never confused with nesting). */
const member = (at, key) => {
    const name = /^[A-Za-z0-9_]+$/.test(key) ? key : JSON.stringify(key.slice(0, 80));
    return at ? `${at}.${name}` : name;
};
/** The first difference between the predicate upstream writes and the one given, compared as nested structures (never flattened names). */
function difference(want, got, at) {
    if (!(0,json/* isObject */.G)(want))
        return got === want ? null : `predicate field ${at} disagrees with the bundle`;
    if (!(0,json/* isObject */.G)(got))
        return `predicate field ${at} disagrees with the bundle`;
    for (const k of Object.keys(want)) {
        if (!(0,json/* hasOwn */.$)(got, k))
            return `predicate field ${member(at, k)} disagrees with the bundle`;
        const digest = difference(want[k], got[k], member(at, k));
        if (digest)
            return digest;
    }
    for (const k of Object.keys(got))
        if (!(0,json/* hasOwn */.$)(want, k))
            return `predicate field ${member(at, k)} is not one upstream writes`;
    return null;
}
/**
 * The checks after the signature, in upstream's order: Statement type, predicate type, exactly one
 * subject with exactly one digest (sha256), schema_version, the bundle verified (the caller has
 * facts only for a verified bundle), subject digest against the archive bytes, subject name against
 * the manifest's bundle_id, then every predicate field against what the bundle gives.
 */
function checkBundleStatement(value, facts) {
    if (!(0,json/* isObject */.G)(value) || value['_type'] !== read_envelope/* STATEMENT_TYPE */.zG)
        return { ok: false, reason: `_type is not ${read_envelope/* STATEMENT_TYPE */.zG}` };
    const type = value['predicateType'];
    if (type === EVIDENCE_BUNDLE_V0)
        return {
            ok: false,
            reason: `predicate type ${EVIDENCE_BUNDLE_V0} names a run root, not an archive: the attestation must be reissued as evidence-bundle/v1`,
        };
    if (type !== EVIDENCE_BUNDLE_V1)
        return {
            ok: false,
            reason: `predicate type is ${JSON.stringify(typeof type === 'string' ? type.slice(0, 120) : type)}, not ${EVIDENCE_BUNDLE_V1}`,
        };
    const subject = (0,read_envelope/* onlySubject */.Lh)(value);
    if (!subject.ok)
        return subject;
    const pred = value['predicate'];
    if (!(0,json/* isObject */.G)(pred) || pred['schema_version'] !== 1)
        return { ok: false, reason: 'predicate.schema_version is not 1' };
    if (!facts)
        return { ok: false, reason: 'the bundle does not verify' };
    if (subject.value.sha256 !== facts.archiveSha256)
        return { ok: false, reason: 'subject digest differs from the archive' };
    if (subject.value.name !== facts.bundleId)
        return { ok: false, reason: "subject name differs from the manifest's bundle_id" };
    return checkBundlePredicate(pred, facts);
}
/** Every predicate field against what the verified bundle gives (also for a keyless attestation of a bundle, docs/keyless.md). */
function checkBundlePredicate(pred, facts) {
    const expected = bundleStatement(facts);
    if (!expected.ok)
        return expected;
    const digest = difference(expected.value['predicate'], pred, '');
    return digest === null ? { ok: true } : { ok: false, reason: digest };
}

// EXTERNAL MODULE: ./src/read/bundle/archive.ts + 5 modules
var archive = __nccwpck_require__(2789);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/read/signature.ts
var signature = __nccwpck_require__(2826);
;// CONCATENATED MODULE: ./src/trust/keys.ts
/**
 * Trusted keys: the Ed25519 public keys (PEM SPKI blocks) whose signatures the gate accepts, each
 * parsed once, by key_id. Parsing returns a reason instead of throwing, so each entry can name the
 * input that was wrong. PEM text is scanned once, left to right (no backtracking pattern), and is
 * refused past MAX_KEY_TEXT_BYTES.
 */



/** key_id: sha256 of the public key's SubjectPublicKeyInfo DER. */
function keyIdOf(publicKey) {
    return `sha256:${(0,external_node_crypto_.createHash)('sha256')
        .update(publicKey.export({ type: 'spki', format: 'der' }))
        .digest('hex')}`;
}
/**
 * The PEM blocks of a text, in one left-to-right scan: every `-----BEGIN L-----` must be closed by
 * `-----END L-----`, and nothing but whitespace may stand between blocks.
 */
function pemBlocks(pem) {
    if (Buffer.byteLength(pem) > read_limits/* MAX_KEY_TEXT_BYTES */.ZG)
        return { ok: false, reason: `key text is over ${read_limits/* MAX_KEY_TEXT_BYTES */.ZG} bytes (a few keys are a few KiB)` };
    const blocks = [];
    let at = 0;
    for (;;) {
        const begin = pem.indexOf('-----BEGIN ', at);
        const gap = pem.slice(at, begin < 0 ? pem.length : begin);
        if (gap.trim() !== '')
            return { ok: false, reason: 'text outside the PEM blocks' };
        if (begin < 0)
            break;
        const labelEnd = pem.indexOf('-----', begin + 11);
        const label = labelEnd < 0 ? '' : pem.slice(begin + 11, labelEnd);
        if (!/^[A-Z ]+$/.test(label))
            return { ok: false, reason: 'a PEM BEGIN line without a label' };
        const endLine = `-----END ${label}-----`;
        const end = pem.indexOf(endLine, labelEnd + 5);
        if (end < 0)
            return { ok: false, reason: `a "${label}" block is never closed (no ${endLine})` };
        at = end + endLine.length;
        blocks.push({ label, text: pem.slice(begin, at) });
    }
    return { ok: true, value: blocks };
}
/** A key type as people name it, with its article: "an RSA key", "an EC (ECDSA) key". */
function keyKind(type) {
    const names = new Map([
        ['rsa', 'an RSA'],
        ['rsa-pss', 'an RSA-PSS'],
        ['dsa', 'a DSA'],
        ['ec', 'an EC (ECDSA)'],
        ['ed448', 'an Ed448'],
        ['x25519', 'an X25519'],
        ['x448', 'an X448'],
        ['dh', 'a Diffie-Hellman'],
    ]);
    return `${names.get(type ?? '') ?? `a ${type ?? 'unknown'}`} key`;
}
/** The label of the first PEM block of a text, or null when it holds none. */
const firstPemLabel = (pem) => /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1] ?? null;
/** Every `PUBLIC KEY` block of a PEM text, each an Ed25519 SPKI key; anything else is refused. */
function parsePublicKeys(pem) {
    if (!pem.includes('-----BEGIN '))
        return {
            ok: false,
            reason: 'no PEM "PUBLIC KEY" block (this takes the PEM text of a public key, -----BEGIN PUBLIC KEY-----, not a file name)',
        };
    const scanned = pemBlocks(pem);
    if (!scanned.ok)
        return scanned;
    const blocks = scanned.value;
    if (blocks.length === 0)
        return { ok: false, reason: 'no PEM "PUBLIC KEY" block' };
    const keys = [];
    for (const [i, block] of blocks.entries()) {
        const where = blocks.length > 1 ? `block ${i + 1}: ` : '';
        if (block.label !== 'PUBLIC KEY')
            return { ok: false, reason: `${where}not a "PUBLIC KEY" block (a private key must never be given as a trusted key)` };
        let key;
        try {
            key = (0,external_node_crypto_.createPublicKey)({ key: block.text, format: 'pem' });
        }
        catch (error) {
            return { ok: false, reason: `${where}does not parse (${(0,core_text/* messageOf */.bD)(error)})` };
        }
        if (key.asymmetricKeyType !== 'ed25519')
            return { ok: false, reason: `${where}is ${keyKind(key.asymmetricKeyType)}; only Ed25519 keys sign records` };
        keys.push(key);
    }
    return { ok: true, value: keys };
}
/** Trusted keys by key_id (a key given twice counts once). */
function trustedKeys(keys) {
    return new Map(keys.map((k) => [keyIdOf(k), k]));
}

;// CONCATENATED MODULE: ./src/tools/signing.ts
/**
 * Making signatures, for the tools that write signed files: the export job's private key, new key
 * pairs, the signature member of a record (docs/records-provenance.md) and a signed NDJSON line.
 * Checking signatures is the trust edge's (src/trust/); their shape is the reader's (read/signature.ts).
 */





/** An Ed25519 private key (PKCS#8 PEM) and its public key. */
function parsePrivateKey(pem) {
    const label = firstPemLabel(pem);
    if (label === null)
        return { ok: false, reason: 'holds no PEM block (an Ed25519 private key from keygen: -----BEGIN PRIVATE KEY-----)' };
    if (label === 'PUBLIC KEY')
        return {
            ok: false,
            reason: 'is a public key (PUBLIC KEY); signing needs the private key (PRIVATE KEY: the PREFIX.key.pem that keygen wrote)',
        };
    if (label === 'OPENSSH PRIVATE KEY')
        return { ok: false, reason: 'is an OpenSSH private key; give it as PKCS#8 PEM (ssh-keygen -p -m PKCS8 -f FILE, or a key from keygen)' };
    let privateKey;
    try {
        privateKey = (0,external_node_crypto_.createPrivateKey)({ key: pem, format: 'pem' });
    }
    catch (error) {
        return { ok: false, reason: `does not parse as a PEM private key (${(0,core_text/* messageOf */.bD)(error)})` };
    }
    if (privateKey.asymmetricKeyType !== 'ed25519')
        return { ok: false, reason: `is ${keyKind(privateKey.asymmetricKeyType)}; receipt-gate signs with Ed25519 (keygen makes one)` };
    return { ok: true, value: { privateKey, publicKey: (0,external_node_crypto_.createPublicKey)(privateKey) } };
}
/** A new Ed25519 key pair as PEM texts (private: PKCS#8, public: SPKI) and its key_id. */
function newKeyPair() {
    const { privateKey, publicKey } = (0,external_node_crypto_.generateKeyPairSync)('ed25519');
    return {
        privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }),
        publicPem: publicKey.export({ type: 'spki', format: 'pem' }),
        keyId: keyIdOf(publicKey),
    };
}
/** Now, as a `signed_at` value (whole seconds). */
const signedAtNow = (now) => (0,binding/* utcSeconds */.kk)(now);
/** The signature member for payload P, signed with an Ed25519 private key (`type`: a record's payload type, or a coverage statement's). */
function signPayload(payload, key, signedAt, type = signature/* PAYLOAD_TYPE */.Uc) {
    const bytes = Buffer.from(payload, 'utf8');
    return {
        version: 1,
        algorithm: 'ed25519',
        payload_type: type,
        signed_payload_digest: (0,binding/* sha256Digest */.sI)(bytes),
        key_id: keyIdOf(key.publicKey),
        signature: (0,external_node_crypto_.sign)(null, (0,signature/* pae */.Zg)(type, bytes), key.privateKey).toString('base64'),
        signed_at: signedAt,
    };
}
/**
 * A record as one NDJSON line with its signature: P is the canonical JSON of a non-empty object, so
 * the signature member goes in before its closing brace (the parsed record is never copied).
 */
function signedLine(payload, key, signedAt, type = signature/* PAYLOAD_TYPE */.Uc) {
    return `${payload.slice(0, -1)},"signature":${JSON.stringify(signPayload(payload, key, signedAt, type))}}`;
}
/** A DSSE envelope (one compact JSON line) over P with the given payload type, signed with the key. */
function envelopeLine(payloadType, payload, key) {
    const sig = (0,external_node_crypto_.sign)(null, (0,signature/* pae */.Zg)(payloadType, payload), key.privateKey).toString('base64');
    return JSON.stringify({
        payload: Buffer.from(payload).toString('base64'),
        payloadType,
        signatures: [{ keyid: keyIdOf(key.publicKey), sig }],
    });
}

;// CONCATENATED MODULE: ./src/tools/attest-bundle.ts
/**
 * `attest-bundle`: a producer's side, for tests, demos and users without the Rust CLI. Verifies the
 * bundle with the gate's reader, makes exactly the Statement upstream's `assay evidence attest`
 * makes (read/attestation.ts), and writes it as one compact DSSE envelope line (JCS payload,
 * Ed25519) to `<bundle>.intoto.jsonl`, never over an existing file.
 */







/** The signed sidecar line for a bundle, or (key null) upstream's predicate alone, for actions/attest's predicate-path; or the findings that stop it. */
async function attestBundle(bundle, key, limits) {
    const read = await (0,archive/* readBundle */.B)({ bytes: bundle.bytes }, bundle.name, (0,read_limits/* bundleLimits */.x0)(limits));
    const errors = read.findings.filter((f) => f.severity === 'error');
    if (errors.length > 0)
        return { ok: false, reason: errors };
    if (!read.bundle)
        return { ok: false, reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', bundle.name, 'not an evidence bundle (another kind of archive)')] };
    const statement = bundleStatement(read.bundle);
    if (!statement.ok)
        return { ok: false, reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', bundle.name, statement.reason)] };
    if (key === null)
        return { ok: true, value: `${JSON.stringify(statement.value['predicate'], null, 2)}\n` };
    const payload = (0,binding/* jcs */.vI)(statement.value);
    if (!payload.ok)
        return {
            ok: false,
            reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', bundle.name, `the Statement cannot be canonicalized: ${payload.reason}`)],
        };
    return { ok: true, value: `${envelopeLine(read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, Buffer.from(payload.text, 'utf8'), key)}\n` };
}

;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
;// CONCATENATED MODULE: ./src/report/output.ts
/**
 * Where an output file is written (the JSON report, SARIF, the verdict, a tool's output): never
 * through a symbolic link, since a link at an output path can be committed to the repository the gate
 * checks out, and a write through it would land on a file of the runner's (or a device). A link to a
 * file is replaced by the output; a FIFO or a character device named as such, and a link to the
 * process's own standard output or error (`/dev/stdout`), are written in place; anything else is
 * refused with its reason.
 */


/** A link to this process's own standard output or error (`/dev/stdout` → `/proc/self/fd/1`, `/dev/fd/2`). */
const OWN_OUTPUT = /^\/(?:proc\/self|dev)\/fd\/[12]$/;
/**
 * How an output reaches `file`: `replace` (nothing there, a file, or a directory, which fails when
 * written), `replace link` (a link to a file or to nothing: replaced, never written through) or
 * `in place` (a FIFO, a character device, the process's own output). Throws for what is refused.
 */
function outputPlace(file) {
    let st;
    try {
        st = (0,external_node_fs_.lstatSync)(file);
    }
    catch {
        return 'replace'; // nothing there yet
    }
    if (st.isFIFO() || st.isCharacterDevice())
        return 'in place';
    if (st.isFile() || st.isDirectory())
        return 'replace';
    if (st.isSymbolicLink()) {
        if (OWN_OUTPUT.test((0,external_node_fs_.readlinkSync)(file)))
            return 'in place';
        let to = null;
        try {
            to = (0,external_node_fs_.statSync)(file);
        }
        catch {
            // a broken link: replaced by the output
        }
        if (to === null || to.isFile())
            return 'replace link';
        throw new Error(`${file} is a symbolic link to something that is not a regular file; not written`);
    }
    throw new Error(`${file} is not a regular file, a FIFO or a character device; not written`);
}
/** `file` opened for writing from its start, by `outputPlace`'s rules: a link at it is removed first, never followed. */
async function openOutput(file) {
    if (outputPlace(file) === 'replace link')
        (0,external_node_fs_.unlinkSync)(file);
    return (0,promises_namespaceObject.open)(file, 'w');
}

;// CONCATENATED MODULE: ./src/tools/write.ts
/** How every tool writes a file: whole or not at all, never over a file it must not replace. */



/** `text` in a new temporary file beside `file`: its path. */
function writeTemp(file, text) {
    (0,external_node_fs_.mkdirSync)(external_node_path_default().dirname(file), { recursive: true });
    const tmp = external_node_path_default().join(external_node_path_default().dirname(file), `.${external_node_path_default().basename(file)}.${process.pid}.tmp`);
    const fd = (0,external_node_fs_.openSync)(tmp, 'wx', 0o644);
    try {
        (0,external_node_fs_.writeSync)(fd, text);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
    return tmp;
}
/**
 * Write `text` to `file` only whole: a temporary file beside it, then a rename (which replaces a link
 * at `file`, never writing through it). A FIFO, a character device or this process's own output
 * (`/dev/stdout`) is written to directly: nothing there can be replaced whole (report/output.ts).
 */
function writeWhole(file, text) {
    if (outputPlace(file) === 'in place') {
        (0,external_node_fs_.writeFileSync)(file, text);
        return;
    }
    const tmp = writeTemp(file, text);
    try {
        (0,external_node_fs_.renameSync)(tmp, file);
    }
    catch (error) {
        (0,external_node_fs_.rmSync)(tmp, { force: true });
        throw error;
    }
}
/** Write `text` to a new `file`, whole, never replacing one that exists (a hard link of a finished temporary file). */
function writeNew(file, text) {
    const tmp = writeTemp(file, text);
    try {
        (0,external_node_fs_.linkSync)(tmp, file);
    }
    finally {
        (0,external_node_fs_.rmSync)(tmp, { force: true });
    }
}

// EXTERNAL MODULE: ./src/read/files.ts
var read_files = __nccwpck_require__(1119);
;// CONCATENATED MODULE: ./src/cli/files.ts
/**
 * Files a flag or an argument names (keys, a tool's inputs), read whole within the limit and only as
 * regular files; one that cannot be used is a usage error naming the flag and the file (exit 2).
 */




/** The text of a PEM key file a flag names. */
function readKeyText(flag, file) {
    // Bounded, and a regular file at the moment it is read (trust/keys.ts then refuses past a few KiB).
    const got = (0,read_files/* readNamedFile */.wh)(file, read_limits/* DEFAULT_LIMITS */.dR);
    if (!got.ok)
        throw new types_UsageError('file', `${flag} ${file}: ${got.reason} (this flag takes the path of a PEM key file)`);
    return got.value.toString('utf8');
}
/** A private key a flag names (a key file from keygen). */
function readSigningKey(flag, file) {
    const result = parsePrivateKey(readKeyText(flag, file));
    if (!result.ok)
        throw new types_UsageError('file', `${flag} ${result.reason}`);
    return result.value;
}
/** The input files of a tool, read whole within the file limit; the first that cannot be read is a usage error naming it. */
function readInputs(files, limits) {
    return files.map((file) => {
        const got = (0,read_files/* readNamedFile */.wh)(file, limits);
        if (!got.ok)
            throw new types_UsageError('file', `${file}: ${got.reason}`);
        return { name: file, bytes: got.value };
    });
}
/** The text of a file a flag names (a trusted root), within the file limit. */
function readTextFile(flag, file, limits = read_limits/* DEFAULT_LIMITS */.dR) {
    const got = (0,read_files/* readNamedFile */.wh)(file, limits);
    if (!got.ok)
        throw new types_UsageError('file', `${flag} ${file}: ${got.reason}`);
    return got.value.toString('utf8');
}

;// CONCATENATED MODULE: external "node:util"
const external_node_util_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");
;// CONCATENATED MODULE: ./src/gate/settings/defaults.ts
/**
 * Every option's default in one table, as the text a user would write: the action's inputs by name
 * (`action.yml` declares the same defaults; a test compares them), and the CLI's flags of the same
 * meaning (cli/options.ts reads them here).
 */
const defaults_DEFAULTS = {
    runs: '.assay/runs',
    audit: '.assay/audit',
    'allow-unmatched-records': 'false',
    'strict-observed': 'false',
    annotations: 'auto',
    annotate: 'all',
    'check-run-id': '',
    'check-name': 'side-effect receipts',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the workflow expression action.yml declares, verbatim
    'github-token': '${{ github.token }}',
    summary: 'true',
    'sarif-file': '',
    'report-file': '',
    'working-directory': '.',
    'max-annotations': '1000',
    'max-file-size': '64MiB',
    'max-line-size': '8MiB',
    jobs: 'auto',
    require: '',
    'trusted-keys': '',
    'require-signed-records': 'false',
    'trusted-producers': '',
    'require-attested-runs': 'false',
    'vsa-predicate': '',
    vsa: '',
    'vsa-key': '',
    'trusted-signer-identities': '',
    'trusted-producer-identities': '',
    'source-refs': '',
    'certificate-oidc-issuer': 'https://token.actions.githubusercontent.com',
    'trusted-root': '',
    policy: '.github/receipt-gate.yml',
};

;// CONCATENATED MODULE: ./src/cli/options.ts
/**
 * What a command's option table is, and how argv is read through it. Each command declares its
 * table (cli/commands/<name>.ts) `as const`; `parseFlags` returns its values typed by that table, so
 * a flag read under a misspelt name does not compile. The usage text, the README's and action.yml's
 * checks read the same tables; nothing about an option is written twice.
 */




const HELP = { flag: 'help', short: 'h', kind: 'boolean', help: 'show this help' };
const VERSION_FLAG = { flag: 'version', short: 'V', kind: 'boolean', help: 'print the version' };
/** The option every command takes. */
const COMMON_OPTIONS = [HELP, VERSION_FLAG];
const LIMITS = [
    {
        flag: 'max-file-size',
        kind: 'string',
        arg: 'SIZE',
        input: 'max-file-size',
        help: 'largest file read (a gzipped export: what it decompresses to)',
    },
    { flag: 'max-line-size', kind: 'string', arg: 'SIZE', input: 'max-line-size', help: 'largest NDJSON line' },
];
const SIGNED_AT = {
    flag: 'signed-at',
    kind: 'string',
    arg: 'TIME',
    help: 'the signed_at of every signature (RFC 3339 UTC). Default: now',
};
/** The default an option shows: its input's (from the settings table), or its own. */
function optionDefault(option) {
    if (option.input)
        return option.kind === 'boolean' ? undefined : defaults_DEFAULTS[option.input] || undefined;
    return option.default;
}
/** The `parseArgs` options of a table (with --help). */
function parseArgsOptions(options) {
    const out = {};
    for (const o of [...options, HELP]) {
        out[o.flag] = {
            type: o.kind === 'boolean' ? 'boolean' : 'string',
            ...(o.kind === 'list' ? { multiple: true } : {}),
            ...(o.short ? { short: o.short } : {}),
        };
    }
    return out;
}
/** Every flag name of a table (for the nearest-name suggestion of a flag that is not in it). */
const flagNames = (options) => [...options, HELP].map((o) => o.flag);
/**
 * A command's argv (after the command's name) read through its table. An unknown flag is a usage
 * error naming the nearest flag of the table (`--trusted-keys`: did you mean `--trusted-key`?).
 */
function parseFlags(argv, options) {
    let parsed;
    try {
        parsed = (0,external_node_util_namespaceObject.parseArgs)({ args: [...argv], allowPositionals: true, strict: true, options: parseArgsOptions(options) });
    }
    catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const unknown = /Unknown option '(-{1,2})([^']+)'/.exec(message);
        if (unknown) {
            const guess = (0,core_text/* nearestName */.qb)(unknown[2] ?? '', flagNames(options));
            throw new types_UsageError('value', `unknown option ${unknown[1]}${unknown[2]}${guess ? ` (did you mean --${guess}?)` : ''}: see --help for this command's options`);
        }
        throw new types_UsageError('value', message);
    }
    const { help, ...rest } = parsed.values;
    // parseArgs types its values by the configuration it was given at run time; the table's types are the same by construction.
    return { flags: rest, rest: parsed.positionals, help: help === true };
}

// EXTERNAL MODULE: ./src/core/projection.ts
var core_projection = __nccwpck_require__(3890);
;// CONCATENATED MODULE: ./src/core/policy.ts
/**
 * Required levels (semantics §7, docs/policy.md): what evidence each kind of side effect must reach.
 * Two sources make the same `Policy`: the `require` input's rules (`SELECTOR=LEVEL`, the most
 * specific that matches applies) and a committed policy file (named rules matching by class, verb
 * and target, the first that matches applies, a default level, modes, signers, exceptions,
 * grandfathered runs, how long a call may wait for its export). Selectors are parsed, never
 * compared as text; target globs are matched by a parsed form too, and raw values of hashed fields
 * are hashed as the agent hashes them. A rule applies to calls that assert a side effect and were
 * not denied; with no rule at all the gate enforces honesty only.
 */



const policy_NO_POLICY = {
    kind: 'none',
    rules: [],
    defaultLevel: null,
    pendingSeconds: 0,
    exceptions: [],
    grandfathered: [],
    source: null,
};
const NAME = /^[A-Za-z0-9_.-]+$/;
/** A selector's class and verb (null: any), or null when it is not `*`, `CLASS` or `CLASS:VERB`. */
function selectorOf(text) {
    if (text === '*')
        return { actionClass: null, verb: null };
    const colon = text.indexOf(':');
    if (colon < 0)
        return NAME.test(text) ? { actionClass: text, verb: null } : null;
    const actionClass = text.slice(0, colon);
    const verb = text.slice(colon + 1);
    return NAME.test(actionClass) && NAME.test(verb) ? { actionClass, verb } : null;
}
/** The `require` input's rules; a malformed rule, an unknown level or two rules for one selector is refused by name. */
function parsePolicy(texts) {
    const rules = [];
    const seen = new Set();
    for (const text of texts) {
        const written = text.trim();
        const eq = written.indexOf('=');
        if (eq < 0)
            return { ok: false, reason: `"${written}" is not SELECTOR=LEVEL (e.g. github_deploy_key:create=verified)` };
        const selectorText = written.slice(0, eq).trim();
        const level = written.slice(eq + 1).trim();
        const selector = selectorOf(selectorText);
        if (!selector)
            return { ok: false, reason: `"${written}": the selector must be *, CLASS or CLASS:VERB` };
        if (!(0,vocabulary/* isLevel */.NW)(level))
            return { ok: false, reason: `"${written}": the level must be one of ${vocabulary/* LEVELS */.A_.join(', ')}` };
        if (seen.has(selectorText))
            return { ok: false, reason: `"${written}": a second rule for ${selectorText}` };
        seen.add(selectorText);
        rules.push({ name: selectorText, selector: selectorText, ...selector, target: [], level, mode: 'enforce', signedBy: null, at: null });
    }
    return { ok: true, value: rules.length === 0 ? policy_NO_POLICY : { ...policy_NO_POLICY, kind: 'require', rules } };
}
/** A glob as a pattern: `*` is any run of characters but `/`, the empty run included; nothing else is special. */
function globPattern(glob, caseless) {
    const parts = (caseless ? (0,core_text/* asciiLower */.F)(glob) : glob).split('*').map((p) => p.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'));
    return new RegExp(`^${parts.join('[^/]*')}$`, 's');
}
/** A plain field's test: one of these globs matches the field whole (without regard to ASCII case when `caseless`). */
function globTest(field, globs, caseless) {
    return { kind: 'glob', field, globs, caseless, patterns: globs.map((glob) => globPattern(glob, caseless)) };
}
function testHolds(test, target) {
    const value = target !== null && Object.hasOwn(target, test.field) ? target[test.field] : undefined;
    if (typeof value !== 'string')
        return false;
    if (test.kind === 'hash')
        return test.hashes.has(value);
    const text = test.caseless ? (0,core_text/* asciiLower */.F)(value) : value;
    return test.patterns.some((pattern) => pattern.test(text));
}
/** Whether a rule matches a call of this class, verb and target. */
function ruleMatches(rule, call) {
    if (rule.actionClass !== null && call.actionClass !== rule.actionClass)
        return false;
    if (rule.verb !== null && call.verb !== rule.verb)
        return false;
    for (const test of rule.target)
        if (!testHolds(test, call.target))
            return false;
    return true;
}
/** How specific a `require` rule's selector is: CLASS:VERB over CLASS over `*`. */
const specificity = (r) => (r.verb !== null ? 0 : r.actionClass !== null ? 1 : 2);
/** Per policy, per class, the rules that can match a call of that class, in file order (made once: every call asks). */
const byClass = new WeakMap();
function rulesOfClass(policy, actionClass) {
    let index = byClass.get(policy);
    if (!index)
        byClass.set(policy, (index = new Map()));
    let rules = index.get(actionClass);
    if (!rules)
        index.set(actionClass, (rules = policy.rules.filter((r) => r.actionClass === null || r.actionClass === actionClass)));
    return rules;
}
/** The rule for a call (null when none matches): a policy file's first match, else the most specific `require` rule. */
function ruleFor(policy, call) {
    const rules = rulesOfClass(policy, call.actionClass);
    if (policy.kind === 'file') {
        for (const r of rules)
            if (ruleMatches(r, call))
                return r;
        return null;
    }
    let best = null;
    for (const r of rules)
        if (ruleMatches(r, call) && (!best || specificity(r) < specificity(best)))
            best = r;
    return best;
}
/**
 * The rules no call uses, noted call by call as rules are found: in a file, a call uses its first
 * match only (a rule shadowed for every call is unused); of the `require` input, every rule that
 * matches it.
 */
class RuleUse {
    policy;
    unused;
    constructor(policy) {
        this.policy = policy;
        this.unused = new Set(policy.rules);
    }
    /** A call a rule could apply to, and the rule `ruleFor` gave it. */
    note(call, rule) {
        if (this.unused.size === 0)
            return;
        if (this.policy.kind === 'file') {
            if (rule)
                this.unused.delete(rule);
        }
        else
            for (const r of this.unused)
                if (ruleMatches(r, call))
                    this.unused.delete(r);
    }
    /** The rules no call used, in the policy's order. */
    rules() {
        return this.policy.rules.filter((r) => this.unused.has(r));
    }
}
/**
 * A typo must not silently turn a requirement off (§7): a rule whose class is neither a class of the
 * §2 table nor a class of the input, or whose verb is neither a verb the producer writes for that
 * class nor a verb of the input for it, is refused, with the nearest known name suggested.
 * @param seen every class of the input, with its verbs
 */
function checkRuleNames(policy, seen) {
    const classes = new Set([...core_projection/* KNOWN_CLASSES */.RD, ...seen.keys()]);
    for (const rule of policy.rules) {
        const written = rule.at === null ? `"${rule.selector}=${rule.level}"` : `rule ${rule.name}`;
        if (rule.actionClass === null)
            continue;
        if (!classes.has(rule.actionClass)) {
            const near = (0,core_text/* nearestName */.qb)(rule.actionClass, classes);
            return {
                ok: false,
                reason: {
                    rule,
                    message: `${written}: no action class ${JSON.stringify(rule.actionClass)} (neither a class the gate binds nor one in the input)${near ? `; did you mean ${JSON.stringify(near)}?` : `; classes: ${[...classes].sort(core_text/* cmp */.r2).join(', ')}`}`,
                },
            };
        }
        if (rule.verb !== null) {
            const verbs = new Set([...(core_projection/* PRODUCER_VERBS */.UW.get(rule.actionClass) ?? []), ...(seen.get(rule.actionClass) ?? [])]);
            if (!verbs.has(rule.verb)) {
                const near = (0,core_text/* nearestName */.qb)(rule.verb, verbs);
                return {
                    ok: false,
                    reason: {
                        rule,
                        message: `${written}: no verb ${JSON.stringify(rule.verb)} for ${rule.actionClass} (neither one the producer writes nor one in the input)${near ? `; did you mean ${JSON.stringify(`${rule.actionClass}:${near}`)}?` : verbs.size > 0 ? `; verbs: ${[...verbs].sort(core_text/* cmp */.r2).join(', ')}` : ''}`,
                    },
                };
            }
        }
    }
    return { ok: true };
}
/** A rule as the report's policy names it: a `require` rule as before, a file's rule with what it matches. */
function ruleJson(rule) {
    if (rule.at === null)
        return { selector: rule.selector, level: rule.level };
    const target = {};
    for (const test of rule.target)
        target[test.field] = test.kind === 'glob' ? test.globs : [...test.hashes].sort(core_text/* cmp */.r2);
    return {
        name: rule.name,
        selector: rule.selector,
        level: rule.level,
        mode: rule.mode,
        ...(rule.target.length > 0 ? { target } : {}),
        ...(rule.signedBy ? { signed_by: rule.signedBy } : {}),
    };
}

;// CONCATENATED MODULE: ./src/gate/settings/parsers.ts
/**
 * The settings parsers: user-supplied strings (CLI flags, action inputs) into typed values, one clear
 * message per mistake naming the flag or input. Pure but for the key parser (node:crypto).
 */






/** Size units; a Map, since the unit is text a user wrote (`1constructor` is no unit). */
const UNITS = new Map([
    ['', 1],
    ['b', 1],
    ['k', 1024],
    ['kb', 1024],
    ['kib', 1024],
    ['m', 1024 ** 2],
    ['mb', 1024 ** 2],
    ['mib', 1024 ** 2],
    ['g', 1024 ** 3],
    ['gb', 1024 ** 3],
    ['gib', 1024 ** 3],
]);
/** "64MiB", "512k", "1048576" → bytes. */
function parseSize(name, value) {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
    const unit = match ? UNITS.get(match[2].toLowerCase()) : undefined;
    if (!match || unit === undefined)
        throw new types_UsageError('value', `${name}: "${value}" is not a size (e.g. 64MiB, 512KiB, 1048576)`);
    const bytes = Math.floor(Number(match[1]) * unit);
    if (!Number.isSafeInteger(bytes) || bytes < 1)
        throw new types_UsageError('value', `${name}: "${value}" is out of range`);
    return bytes;
}
/** YAML 1.2 core booleans, as @actions/core reads them. */
function parseBool(name, value) {
    const given = value.trim();
    if (['true', 'True', 'TRUE'].includes(given))
        return true;
    if (['false', 'False', 'FALSE', ''].includes(given))
        return false;
    throw new types_UsageError('value', `${name}: "${value}" is not a boolean (true or false)`);
}
function parseChoice(name, value, choices) {
    const given = value.trim();
    if (choices.includes(given))
        return given;
    throw new types_UsageError('value', `${name}: "${value}" must be one of ${choices.join(', ')}`);
}
/** Newline- or comma-separated list, blanks dropped; a comma inside braces (a glob like `{runs,more}`) does not split. */
function parseList(value) {
    const out = [];
    let depth = 0;
    let cur = '';
    for (const ch of value) {
        if (ch === '{')
            depth++;
        else if (ch === '}' && depth > 0)
            depth--;
        if (ch === '\n' || (ch === ',' && depth === 0)) {
            out.push(cur);
            cur = '';
            depth = 0;
        }
        else
            cur += ch;
    }
    out.push(cur);
    return out.map((s) => s.trim()).filter((s) => s !== '');
}
/** A whole number ≥ 0. */
function parseCount(name, value) {
    const given = value.trim();
    if (!/^\d{1,9}$/.test(given))
        throw new UsageError('value', `${name}: "${value}" is not a whole number`);
    return Number(given);
}
/** The verification settings with every default, for a working directory (tests and entries start here). */
function defaultSettings(cwd, now = new Date()) {
    return {
        runs: parseList(DEFAULTS.runs),
        audit: parseList(DEFAULTS.audit),
        explicit: { runs: false, audit: false },
        cwd,
        workspace: cwd,
        allowUnmatchedRecords: parseBool('allow-unmatched-records', DEFAULTS['allow-unmatched-records']),
        strictObserved: parseBool('strict-observed', DEFAULTS['strict-observed']),
        limits: DEFAULT_LIMITS,
        policy: NO_POLICY,
        policyReview: null,
        now: instantOf(now),
        trustedKeys: null,
        trustedProducers: null,
        keyless: null,
        jobs: parseJobs('jobs', DEFAULTS.jobs),
    };
}
/** Most reading threads one gate starts. */
const MAX_JOBS = 256;
/** `auto` (the machine's cores: null) or a number of reading threads, 1 to MAX_JOBS. */
function parseJobs(name, value) {
    const given = value.trim();
    if (given === 'auto')
        return null;
    if (!/^\d{1,9}$/.test(given) || Number(given) < 1 || Number(given) > MAX_JOBS)
        throw new types_UsageError('value', `${name}: "${value}" is not a number of threads from 1 to ${MAX_JOBS}, or auto`);
    return Number(given);
}
/** The OIDC issuer of GitHub Actions' tokens: what a workflow certificate names by default. */
const GITHUB_ACTIONS_ISSUER = 'https://token.actions.githubusercontent.com';
const IDENTITY = /^https:\/\/[^\s@]+@refs\/\S+$/;
/** Identities, source repository, refs and issuer, checked (semantics "Keyless trust"); no identity at all: null. */
function readKeyless(k, names) {
    for (const [list, name] of [
        [k.signerIdentities, names.signerIdentities],
        [k.producerIdentities, names.producerIdentities],
    ]) {
        for (const id of list)
            if (!IDENTITY.test(id))
                throw new types_UsageError('value', `${name}: "${id}" is not a workflow identity (an https:// URI with @refs/, e.g. https://github.com/OWNER/REPO/.github/workflows/export.yml@refs/heads/main)`);
    }
    if (k.signerIdentities.length === 0 && k.producerIdentities.length === 0)
        return null;
    const repo = k.sourceRepository;
    if (repo === null || repo === '')
        throw new types_UsageError('missing', `${names.sourceRepository}: required with any trusted identity (the repository the workflows must have run for)`);
    if (!/^[^/\s]+\/[^/\s]+$/.test(repo))
        throw new types_UsageError('value', `${names.sourceRepository}: "${repo}" is not OWNER/NAME`);
    for (const r of k.sourceRefs)
        if (!/^refs\/\S+$/.test(r))
            throw new types_UsageError('value', `${names.sourceRefs}: "${r}" is not a ref (refs/heads/main, refs/tags/v1)`);
    const issuer = k.issuer ?? GITHUB_ACTIONS_ISSUER;
    if (!/^https:\/\/\S+$/.test(issuer))
        throw new types_UsageError('value', `${names.issuer}: "${issuer}" is not an https:// URL`);
    const policy = (ids) => ids.length === 0
        ? null
        : {
            identities: new Set(ids),
            sourceRepository: repo,
            sourceRefs: new Set(k.sourceRefs.length > 0 ? k.sourceRefs : [k.defaultRef]),
            issuer,
        };
    return { signers: policy(k.signerIdentities), producers: policy(k.producerIdentities), trustedRoot: k.trustedRoot };
}
/** Required-level rules, each a usage error naming the rule when it is wrong. */
function readPolicy(name, rules) {
    const result = parsePolicy(rules);
    if (!result.ok)
        throw new types_UsageError('value', `${name}: ${result.reason}`);
    return result.value;
}
/**
 * Trusted signers from PEM texts (each may hold several PUBLIC KEY blocks); `sources` name where
 * each text came from, for the message when one does not parse. None: null (no trust configured).
 */
function readTrustedKeys(sources) {
    if (sources.length === 0)
        return null;
    const keys = [];
    for (const s of sources) {
        const parsed = parsePublicKeys(s.pem);
        if (!parsed.ok)
            throw new types_UsageError('value', `${s.name}: ${parsed.reason}`);
        keys.push(...parsed.value);
    }
    return trustedKeys(keys);
}
/** Limits with the two that users set (each undefined: the default). */
function readLimits(maxFileSize, maxLineSize, prefix = '') {
    return {
        ...read_limits/* DEFAULT_LIMITS */.dR,
        maxFileBytes: maxFileSize ? parseSize(`${prefix}max-file-size`, maxFileSize) : read_limits/* DEFAULT_LIMITS */.dR.maxFileBytes,
        maxLineBytes: maxLineSize ? parseSize(`${prefix}max-line-size`, maxLineSize) : read_limits/* DEFAULT_LIMITS */.dR.maxLineBytes,
    };
}

;// CONCATENATED MODULE: ./src/cli/commands/shared.ts
/** What several commands read the same way: the read limits, a signing time. */



/** --max-file-size and --max-line-size, each the default when not given. */
const limitsOf = (flags) => readLimits(flags['max-file-size'], flags['max-line-size'], '--');
/** --signed-at as given (RFC 3339 UTC), or null (now). */
function signedAtOf(value) {
    if (value === undefined)
        return null;
    if (!(0,signature/* isSignedAt */.CY)(value))
        throw new types_UsageError('value', `--signed-at: "${value}" is not an RFC 3339 UTC time (e.g. 2026-11-30T12:00:00Z)`);
    return value;
}

;// CONCATENATED MODULE: ./src/cli/commands/attest-bundle.ts
/** `receipt-gate attest-bundle`: attest an evidence bundle as its producer (upstream's `assay evidence attest`). */











const OPTIONS = [
    { flag: 'key', kind: 'string', arg: 'FILE', help: "the producer's Ed25519 private key (PKCS#8 PEM)" },
    { flag: 'predicate-only', kind: 'boolean', help: "write upstream's evidence-bundle/v1 predicate alone (JSON), no key needed" },
    {
        flag: 'output',
        kind: 'string',
        arg: 'FILE',
        help: 'where it goes. Default: BUNDLE.intoto.jsonl (--predicate-only: standard output)',
    },
    ...LIMITS,
];
const TOOL = 'attest-bundle';
const attest_bundle_attestBundle = {
    spec: {
        name: 'attest-bundle',
        synopsis: '(--key FILE | --predicate-only) [--output FILE] BUNDLE',
        summary: "attest an evidence bundle as its producer (what upstream's assay evidence attest writes)",
        about: 'verifies BUNDLE, makes the evidence-bundle/v1 Statement for its exact bytes and writes it, signed (DSSE, Ed25519), as one line to BUNDLE.intoto.jsonl; never overwrites a file. With --predicate-only, writes the predicate alone (for actions/attest predicate-path) to --output or standard output',
        options: OPTIONS,
    },
    async run(ctx) {
        const { flags, rest, help } = parseFlags(ctx.argv, OPTIONS);
        if (help)
            return 'help';
        const predicateOnly = flags['predicate-only'] ?? false;
        if (predicateOnly && flags.key)
            throw new types_UsageError('conflict', 'attest-bundle: --predicate-only writes no signature: no --key');
        if (!predicateOnly && !flags.key)
            throw new types_UsageError('missing', 'attest-bundle: --key FILE is required (or --predicate-only for actions/attest)');
        const [name, ...more] = rest;
        if (name === undefined || more.length > 0)
            throw new types_UsageError('value', 'attest-bundle: exactly one BUNDLE (.tar.gz) is required');
        const bundle = external_node_path_default().resolve(ctx.cwd, name);
        const target = flags.output ?? (predicateOnly ? null : (0,formats/* sidecarOf */.hQ)(name));
        const output = target === null ? null : outputIn(ctx.cwd, ctx.cwd, target, flags.output ? '--output' : 'the sidecar');
        const limits = limitsOf(flags);
        const key = flags.key ? readSigningKey('--key', external_node_path_default().resolve(ctx.cwd, flags.key)) : null;
        if (output !== null && (0,external_node_fs_.existsSync)(output))
            return wroteNothing(TOOL, EXIT.usage, say(TOOL, `${output} exists; attest-bundle never overwrites (--output to choose another file)`));
        const [input] = readInputs([bundle], limits);
        if (!input)
            throw new types_UsageError('missing', 'attest-bundle: exactly one BUNDLE (.tar.gz) is required');
        const result = await attestBundle(input, key, limits);
        if (!result.ok)
            return wroteNothing(TOOL, EXIT.problem, findingLines(TOOL, result.reason));
        if (output === null)
            return { code: EXIT.pass, stdout: result.value, stderr: '' };
        try {
            writeNew(output, result.value);
        }
        catch (error) {
            return unwritable(TOOL, '--output', output, error);
        }
        return { code: EXIT.pass, stdout: '', stderr: say(TOOL, `wrote ${output}`) };
    },
};

;// CONCATENATED MODULE: ./src/core/target-hash.ts
/**
 * The target hash the agent side computes (docs/importers.md): H(domain, value) =
 * "sha256:" + hex(sha256(utf8("assay.tool_target.v0:" + domain + ":" + norm(value)))), norm = trim of
 * Unicode White_Space at both ends (an explicit class: not U+FEFF, which String.prototype.trim also
 * removes), then full lower-casing. Plain labels (owner, repo, role) are never hashed, trimmed or
 * lower-cased; their control characters other than tab, LF and CR become U+FFFD.
 */

const DOMAINS = [
    'github_key_title',
    'slack_workspace',
    'slack_channel',
    'slack_principal',
    'workspace',
    'workspace_principal',
];
const WS = '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g');
const normalize = (value) => value.replace(TRIM, '').toLowerCase();
const targetHash = (domain, value) => (0,binding/* sha256Digest */.sI)(`assay.tool_target.v0:${domain}:${normalize(value)}`);
/** A plain label as the agent side writes it. */
const label = (value) => value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '\ufffd');

;// CONCATENATED MODULE: ./src/cli/commands/hash.ts
/** `receipt-gate hash DOMAIN VALUE`: the target hash of a raw value, to see why a call and a record differ. */




const hash_OPTIONS = [];
/** The domain a user named, or null (looked up in a list: the name is text from argv). */
const domainOf = (name) => DOMAINS.find((d) => d === name) ?? null;
const hash = {
    spec: {
        name: 'hash',
        synopsis: 'DOMAIN VALUE',
        summary: 'print the target hash of a raw value',
        about: 'prints the target hash of a raw value (domains: github_key_title, slack_workspace, slack_channel, slack_principal, workspace, workspace_principal), to see why a call and a record differ',
        options: hash_OPTIONS,
    },
    run(ctx) {
        const { rest, help } = parseFlags(ctx.argv, hash_OPTIONS);
        if (help)
            return 'help';
        const [name, value, ...more] = rest;
        if (name === undefined || value === undefined || more.length > 0)
            throw new types_UsageError('value', 'hash: usage: receipt-gate hash DOMAIN VALUE');
        const domain = domainOf(name);
        if (domain === null)
            throw new types_UsageError('value', `hash: unknown domain "${name}" (one of ${DOMAINS.join(', ')})`);
        return { code: EXIT.pass, stdout: `${targetHash(domain, value)}\n`, stderr: '' };
    },
};

// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __nccwpck_require__(2334);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __nccwpck_require__(4146);
// EXTERNAL MODULE: ./src/read/documents.ts + 1 modules
var documents = __nccwpck_require__(1035);
// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
;// CONCATENATED MODULE: ./src/tools/import/exports.ts
/**
 * Provider export files → located JSON entries, through the gate's one document pipeline
 * (read/documents.ts): gzip (streaming exports) decompressed up to max-file-size, strict UTF-8 and
 * JSON, and every shape the export routes write: one array, pages written one after another
 * (`gh api --paginate`: `[…][…]`), an array of pages (`--slurp`: `[[…],[…]]`), one entry per line
 * (`--jq '.[]'`), one object, or an object with a list member (Slack's `{"entries": [...]}`). An
 * empty page is no entries. Every entry keeps its own file:line:column. Never a network call.
 */





/**
 * @param listKey the member of a top-level object that holds the entries (Slack: "entries")
 */
function readExport(name, raw, limits, listKey) {
    const sink = new documents/* LocatingSink */.Bz(name);
    const findings = sink.findings;
    const at = (offset) => sink.at(offset);
    const decoded = (0,documents/* decode */.D4)(raw, limits, sink, { gzip: true });
    if (!decoded)
        return { entries: [], findings };
    sink.lines = decoded.lines;
    const { text } = decoded;
    return { entries: pages(text, limits, listKey, at, sink, findings), findings };
}
function* pages(text, limits, listKey, at, sink, findings) {
    let entries = [];
    const take = (value, offset) => {
        if ((0,json/* isObject */.G)(value))
            entries.push({ value, loc: at(offset) });
        else
            findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at(offset), 'an entry is not a JSON object'));
    };
    const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: [[]] };
    /** The entries of one array (a page); a page of pages (--slurp) is read page by page. */
    const page = (list, offsets, nested) => {
        list.forEach((item, i) => {
            const offset = offsets[i] ?? 0;
            if (!nested || !Array.isArray(item)) {
                take(item, offset);
                return;
            }
            // An inner page: parse its own slice again for its elements' offsets.
            const end = (0,scanner/* firstValueEnd */.t1)(text, opts, offset);
            const inner = end.ok ? (0,strict/* parseStrict */.z)(text, opts, offset, end.value) : null;
            page(item, inner?.ok ? (inner.value.elements.get((0,scanner/* pathKey */.Pn)([])) ?? []) : [], false);
        });
    };
    const collect = [[], ...(listKey ? [[listKey]] : [])];
    for (const doc of (0,documents/* documents */.DB)(text, 'values', { limits, collect }, sink)) {
        const given = doc.value;
        if (Array.isArray(given))
            page(given, doc.elements.get((0,scanner/* pathKey */.Pn)([])) ?? [], given.some(Array.isArray));
        else if (listKey && (0,json/* isObject */.G)(given) && Array.isArray(given[listKey]))
            page(given[listKey], doc.elements.get((0,scanner/* pathKey */.Pn)([listKey])) ?? [], false);
        else
            take(given, doc.start);
        yield* entries;
        entries = [];
    }
}

;// CONCATENATED MODULE: ./src/tools/import/github-subject.ts
/**
 * The one subject GitHub's exports map to: a deploy key created (github_deploy_key/create, the
 * class upstream's verifier binds: owner, repo, key_title_hash), whichever export it came from.
 */

function deployKey(recordId, owner, repo, title, scope) {
    return {
        kind: 'record',
        provider: 'github',
        recordId,
        scope,
        subject: {
            action_class: 'github_deploy_key',
            verb: 'create',
            target: { owner: label(owner), repo: label(repo), key_title_hash: targetHash('github_key_title', title) },
        },
    };
}

;// CONCATENATED MODULE: ./src/tools/import/mapping.ts
/**
 * What every importer returns per export entry, and how a record is made from a subject: the one
 * record shape (assay.provider_audit_record.v0, binding recomputed here, non_claims naming the
 * export), whatever the provider.
 */




function makeRecord(m, source) {
    const bound = (0,binding/* binding */.Ch)(m.subject);
    if (!bound.ok)
        throw new Error(`subject cannot be canonicalized: ${bound.reason}`); // subjects here are strings and nulls only
    return {
        schema: model/* RECORD_SCHEMA */.ep,
        provider: m.provider,
        record_id: m.recordId,
        subject: m.subject,
        binding_digest: bound.digest,
        non_claims: [
            `imported from ${source}; receipt-gate queried nothing`,
            'binds an audit entry to a call; does not prove the entry is authentic beyond its signature',
        ],
    };
}
/** A string member, or null (absent, empty or not a string). */
const str = (value, key) => {
    const given = (0,json/* isObject */.G)(value) ? value[key] : undefined;
    return typeof given === 'string' && given !== '' ? given : null;
};
/** An object member, or null. */
const obj = (value, key) => {
    const given = (0,json/* isObject */.G)(value) ? value[key] : undefined;
    return (0,json/* isObject */.G)(given) ? given : null;
};
/** An id as quoted in a message: ids are not secrets, but are clipped. */
const idText = (s) => JSON.stringify((0,core_text/* quote */.hD)(s, 80));

;// CONCATENATED MODULE: ./src/tools/import/scope.ts


/** Why an entry is out of scope (the skip reason), or null when it is in scope. */
function outOfScope(f, s) {
    if (f.actors && !s.actors.some((a) => f.actors?.has(f.caseless ? (0,core_text/* asciiLower */.F)(a) : a)))
        return 'by another actor';
    if (f.repos && (s.repo === null || !f.repos.has((0,core_text/* asciiLower */.F)(s.repo))))
        return s.repo === null ? 'without a repository' : 'in another repository';
    if (f.owner !== null) {
        if (s.repo === null)
            return 'without a repository';
        if ((0,core_text/* asciiLower */.F)(s.repo.slice(0, s.repo.indexOf('/'))) !== f.owner)
            return 'in another organisation';
    }
    if (f.since !== null || f.until !== null) {
        if (s.time === null)
            return 'without a time (a window is set)';
        if ((f.since !== null && (0,core_time/* compareInstants */.QI)(s.time, f.since) < 0) || (f.until !== null && (0,core_time/* compareInstants */.QI)(s.time, f.until) >= 0))
            return 'outside the window';
    }
    return null;
}
/** `--since` / `--until`: RFC 3339 (any offset, any precision, read exactly), or YYYY-MM-DD for midnight UTC. */
function parseWindowTime(text) {
    const day = (0,core_time/* parseDay */.Iq)(text);
    if (day)
        return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
    const result = (0,core_time/* parseRfc3339 */.TM)(text);
    if (result.ok)
        return result;
    return { ok: false, reason: `"${text}" is not an RFC 3339 time or a YYYY-MM-DD date: it ${result.reason}` };
}
/** An entry time: a number of ms (GitHub's audit log) or s (Slack), or an RFC 3339 string; null otherwise. */
function entryTime(value, unit = 'ms') {
    if (typeof value === 'number')
        return (0,core_time/* fromEpochNumber */.n6)(value, unit === 's' ? 0 : 3);
    if (typeof value === 'string') {
        const result = (0,core_time/* parseRfc3339 */.TM)(value);
        return result.ok ? result.value : null;
    }
    return null;
}

;// CONCATENATED MODULE: ./src/tools/import/github-audit-log.ts



function githubAuditLog(entry) {
    if (entry['action'] !== 'public_key.create')
        return { kind: 'skip', reason: 'other action' };
    const id = str(entry, '_document_id');
    if (!id)
        return { kind: 'error', message: 'a public_key.create entry without a _document_id (its record would have no identity)' };
    const repo = str(entry, 'repo');
    if (!repo)
        return { kind: 'skip', reason: 'user key without repo' };
    const title = str(entry, 'title');
    if (!title)
        return { kind: 'skip', reason: 'no title' };
    const slash = repo.indexOf('/');
    if (slash <= 0 || slash === repo.length - 1)
        return { kind: 'error', message: `entry ${idText(id)}: repo is not "owner/name"` };
    const actor = str(entry, 'actor');
    const scope = { actors: actor ? [actor] : [], repo, time: entryTime(entry['@timestamp']) ?? entryTime(entry['created_at']) };
    return deployKey(`github-audit:${id}`, repo.slice(0, slash), repo.slice(slash + 1), title, scope);
}

;// CONCATENATED MODULE: ./src/tools/import/github-webhook.ts



/** Headers as the deliveries API returns them: names in any case. */
const header = (headers, name) => {
    if (!headers)
        return null;
    for (const k of Object.keys(headers))
        if (k.toLowerCase() === name)
            return str(headers, k);
    return null;
};
function githubWebhook(entry) {
    const request = obj(entry, 'request');
    const delivery = request !== null || str(entry, 'guid') !== null;
    const payload = delivery ? obj(request, 'payload') : entry;
    if (!payload)
        return { kind: 'error', message: `delivery ${idText(str(entry, 'guid') ?? '?')} has no request.payload object` };
    const event = delivery
        ? (str(entry, 'event') ?? header(obj(request, 'headers'), 'x-github-event'))
        : payload['key'] !== undefined
            ? 'deploy_key'
            : null;
    if (event !== 'deploy_key')
        return { kind: 'skip', reason: 'other event' };
    if (payload['action'] !== 'created')
        return { kind: 'skip', reason: 'other action' };
    const key = obj(payload, 'key');
    const repository = obj(payload, 'repository');
    const owner = str(obj(repository, 'owner'), 'login');
    const repo = str(repository, 'name');
    const title = str(key, 'title');
    if (!owner || !repo)
        return { kind: 'error', message: 'a deploy_key created payload without repository.owner.login and repository.name' };
    if (!title)
        return { kind: 'skip', reason: 'no title' };
    const sender = str(obj(payload, 'sender'), 'login');
    const scope = (time) => ({
        actors: sender ? [sender] : [],
        repo: str(repository, 'full_name') ?? `${owner}/${repo}`,
        time,
    });
    if (delivery) {
        const guid = str(entry, 'guid') ?? header(obj(request, 'headers'), 'x-github-delivery');
        if (!guid)
            return { kind: 'error', message: 'a delivery without guid or X-GitHub-Delivery header' };
        return deployKey(`github-delivery:${guid}`, owner, repo, title, scope(entryTime(entry['delivered_at'])));
    }
    const keyId = key?.['id'];
    if (typeof keyId !== 'number' && typeof keyId !== 'string')
        return { kind: 'error', message: 'a raw deploy_key payload without key.id (its record would have no identity)' };
    return deployKey(`github-deploy-key:${owner}/${repo}:${keyId}`, owner, repo, title, scope(entryTime(key?.['created_at'])));
}

;// CONCATENATED MODULE: ./src/tools/import/slack.ts



const DEFAULT_SLACK = {
    principal: 'id',
    workspace: 'context',
    roleVerbs: new Map([
        ['admin', 'grant'],
        ['owner', 'grant'],
        ['user', 'change_role'],
        ['guest', 'change_role'],
    ]),
    memberProvider: 'slack',
    roleProvider: 'workspace',
};
function slackAuditLog(o) {
    return (entry) => {
        const action = str(entry, 'action');
        const id = str(entry, 'id');
        if (!action)
            return { kind: 'error', message: 'an entry without an action' };
        const join = action === 'user_channel_join' || action === 'guest_channel_join';
        const role = /^role_change_to_([a-z_]+)$/.exec(action)?.[1];
        if (!join && !role)
            return { kind: 'skip', reason: 'other action' };
        if (!id)
            return { kind: 'error', message: `a ${action} entry without an id (its record would have no identity)` };
        const location = obj(obj(entry, 'context'), 'location');
        const actorUser = obj(obj(entry, 'actor'), 'user');
        const scope = {
            actors: [str(actorUser, 'id'), str(actorUser, 'email')].filter((a) => a !== null),
            repo: null,
            time: entryTime(entry['date_create'], 's'),
        };
        const principalOf = (who) => str(obj(who, 'user'), o.principal);
        if (join) {
            const channel = str(obj(obj(entry, 'entity'), 'channel'), 'id');
            const principal = principalOf(obj(entry, 'actor'));
            if (!channel)
                return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.channel.id` };
            if (!principal)
                return { kind: 'error', message: `entry ${idText(id)}: ${action} without actor.user.${o.principal} (--principal ${o.principal})` };
            const ws = o.workspace === 'context' && str(location, 'type') === 'workspace' ? str(location, 'id') : null;
            return {
                kind: 'record',
                provider: o.memberProvider,
                recordId: `slack-audit:${id}`,
                scope,
                subject: {
                    action_class: 'workspace_member',
                    verb: 'add',
                    target: {
                        workspace_id_hash: ws === null ? null : targetHash('slack_workspace', ws),
                        channel_id_hash: targetHash('slack_channel', channel),
                        principal_hash: targetHash('slack_principal', principal),
                    },
                },
            };
        }
        if (role === undefined)
            return { kind: 'skip', reason: 'other action' };
        const verb = o.roleVerbs.get(role);
        if (!verb)
            return { kind: 'skip', reason: `role change to ${role} (no verb mapped)` };
        const principal = principalOf(obj(entry, 'entity'));
        const ws = str(location, 'id');
        if (!principal)
            return { kind: 'error', message: `entry ${idText(id)}: ${action} without entity.user.${o.principal} (--principal ${o.principal})` };
        if (!ws)
            return { kind: 'error', message: `entry ${idText(id)}: ${action} without context.location.id` };
        return {
            kind: 'record',
            provider: o.roleProvider,
            recordId: `slack-audit:${id}`,
            scope,
            subject: {
                action_class: 'workspace_role',
                verb,
                target: {
                    workspace_id_hash: targetHash('workspace', ws),
                    principal_hash: targetHash('workspace_principal', principal),
                    role,
                },
            },
        };
    };
}

;// CONCATENATED MODULE: ./src/tools/import/run.ts
/**
 * `receipt-gate import <kind>`: export files → records, offline. Each file is read with the gate's
 * strict readers and limits; each entry becomes a record, a counted skip, or a located error.
 * Identical entries under one record id (at-least-once streaming) are one record; two different
 * entries under one id are an error naming it. Output: NDJSON, one record per line in record-id
 * order, canonical JSON, signed with --sign-key when given. Any error: nothing is written.
 */













const IMPORT_KINDS = {
    'github-audit-log': { source: 'a GitHub audit-log export', listKey: undefined, looks: 'a GitHub audit-log export' },
    'github-webhook': { source: 'GitHub deploy_key webhook deliveries', listKey: undefined, looks: 'GitHub webhook deliveries' },
    'slack-audit-log': { source: 'a Slack Audit Logs API export', listKey: 'entries', looks: 'a Slack audit-log page' },
};
/** Whether an entry has the shape of each kind's entries (what tells an export of the wrong kind). */
const SHAPES = {
    'github-audit-log': (e) => typeof e['action'] === 'string' &&
        !(0,json/* isObject */.G)(e['entity']) &&
        ((0,json/* hasOwn */.$)(e, '_document_id') || (0,json/* hasOwn */.$)(e, '@timestamp') || (0,json/* hasOwn */.$)(e, 'created_at')),
    'github-webhook': (e) => (typeof e['guid'] === 'string' && ((0,json/* isObject */.G)(e['request']) || (0,json/* hasOwn */.$)(e, 'delivered_at') || (0,json/* hasOwn */.$)(e, 'event'))) ||
        ((0,json/* isObject */.G)(e['key']) && (0,json/* isObject */.G)(e['repository'])),
    'slack-audit-log': (e) => typeof e['action'] === 'string' && !(0,json/* hasOwn */.$)(e, '_document_id') && ((0,json/* isObject */.G)(e['entity']) || (0,json/* isObject */.G)(e['context'])),
};
/** What an export whose entries are not of `kind` looks like, for the refusal. */
function wrongKind(kind, sample) {
    // The entry itself, or the first entry of a page object (`{"entries": [...]}`, read whole by a kind without a list member).
    const list = sample && Object.values(sample).find((v) => Array.isArray(v) && (0,json/* isObject */.G)(v[0]));
    const candidates = [sample, list ? list[0] : null].filter((c) => c !== null);
    const other = Object.keys(SHAPES).find((k) => k !== kind && candidates.some((c) => SHAPES[k](c)));
    return other
        ? `no entry has the shape of ${IMPORT_KINDS[kind].looks}: this looks like ${IMPORT_KINDS[other].looks}: try import ${other}`
        : `no entry has the shape of ${IMPORT_KINDS[kind].looks} (is this the right export for import ${kind}?)`;
}
const KIND_NAMES = new Map(Object.keys(IMPORT_KINDS).map((k) => [k, k]));
/** The export kind a user named, or null (looked up in a Map: the name is text from argv). */
const importKind = (name) => KIND_NAMES.get(name) ?? null;
/** The CLASS:VERB pairs an import maps, per provider it writes records for (every one gets a statement). */
function actionsOf(kind, slack) {
    if (kind !== 'slack-audit-log')
        return new Map([['github', ['github_deploy_key:create']]]);
    const out = new Map();
    const add = (provider, action) => {
        const list = out.get(provider) ?? [];
        if (!list.includes(action))
            list.push(action);
        out.set(provider, list);
    };
    add(slack.memberProvider, 'workspace_member:add');
    for (const verb of slack.roleVerbs.values())
        add(slack.roleProvider, `workspace_role:${verb}`);
    for (const list of out.values())
        list.sort();
    return out;
}
/** The statements of an import, one per provider, each its own line (signed like the records when they are). */
function statementLines(s, c, entries, perProvider) {
    return [...actionsOf(s.kind, s.slack)]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([provider, actions]) => {
        const statement = (0,binding/* jcs */.vI)({
            schema: model/* COVERAGE_SCHEMA */.Bh,
            provider,
            export: s.kind,
            actors: c.actors,
            repos: c.repos,
            owner: c.owner,
            actions,
            since: c.since,
            until: c.until,
            entries_read: entries,
            records: perProvider.get(provider) ?? 0,
        });
        if (!statement.ok)
            throw new Error(`a coverage statement cannot be canonicalized: ${statement.reason}`); // strings and numbers only
        return s.sign ? signedLine(statement.text, s.sign.key, s.sign.signedAt, signature/* COVERAGE_PAYLOAD_TYPE */.f4) : statement.text;
    });
}
function runImport(s) {
    const mapper = s.kind === 'github-audit-log' ? githubAuditLog : s.kind === 'github-webhook' ? githubWebhook : slackAuditLog(s.slack);
    const { source, listKey } = IMPORT_KINDS[s.kind];
    const errors = [];
    const skipped = new Map();
    const skip = (reason) => {
        skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    };
    const byId = new Map();
    let entries = 0;
    let merged = 0;
    let ofKind = 0;
    let sample = null;
    for (const input of s.inputs) {
        const file = external_node_path_default().basename(input.name);
        const read = readExport(input.name, input.bytes, s.limits, listKey);
        for (const e of read.entries) {
            entries++;
            if (SHAPES[s.kind](e.value))
                ofKind++;
            else
                sample ??= e;
            const m = mapper(e.value);
            if (m.kind === 'skip') {
                skip(m.reason);
                continue;
            }
            if (m.kind === 'error') {
                errors.push((0,core_findings/* finding */.gk)('invalid_artifact', e.loc, m.message));
                continue;
            }
            const out = outOfScope(s.scope, m.scope);
            if (out !== null) {
                skip(out);
                continue;
            }
            // Entries (or deliveries: one guid for every delivery of an event) under one id that map to
            // the same record are one record; only different mappings under one id are an error.
            const canon = (0,binding/* jcs */.vI)({ provider: m.provider, subject: m.subject });
            const mapping = canon.ok ? canon.text : '';
            const seen = byId.get(m.recordId);
            if (seen) {
                if (seen.mapping === mapping)
                    merged++;
                else {
                    const why = `two entries with record id ${idText(m.recordId)} map to different records (the other at ${(0,core_findings/* placeOf */.$t)(seen.loc, true)}): an id vouches for one entry only`;
                    errors.push((0,core_findings/* finding */.gk)('invalid_artifact', e.loc, why));
                }
                continue;
            }
            const record = makeRecord(m, `${source} (${file})`);
            const payload = (0,binding/* jcs */.vI)(record);
            if (!payload.ok) {
                errors.push((0,core_findings/* finding */.gk)('invalid_artifact', e.loc, `the record cannot be canonicalized (${payload.reason})`));
                continue;
            }
            const line = s.sign ? signedLine(payload.text, s.sign.key, s.sign.signedAt) : payload.text;
            byId.set(m.recordId, { line, mapping, loc: e.loc, provider: m.provider });
        }
        // Complete only now: the entries are read one page at a time.
        for (const f of read.findings)
            errors.push(f);
    }
    const skips = [...skipped.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const skipText = skips.length === 0 ? '0 skipped' : `${skips.reduce((n, [, k]) => n + k, 0)} skipped (${skips.map(([r, k]) => `${k} ${r}`).join(', ')})`;
    // An export of another kind maps to nothing, quietly, every night: refuse it (docs/importers.md).
    if (entries > 0 && ofKind === 0 && sample && errors.length === 0)
        errors.push((0,core_findings/* finding */.gk)('invalid_artifact', sample.loc, wrongKind(s.kind, sample.value)));
    const summary = `${entries} ${entries === 1 ? 'entry' : 'entries'} read, ${errors.length > 0 ? 0 : byId.size} record(s) written, ${skipText}, ${merged} duplicate(s) merged`;
    if (errors.length > 0)
        return { ok: false, reason: { findings: errors, summary } };
    const lines = [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v.line);
    const perProvider = new Map();
    for (const v of byId.values())
        perProvider.set(v.provider, (perProvider.get(v.provider) ?? 0) + 1);
    // The statements first: a reader sees what the export covered before what it found.
    const statements = s.coverage ? statementLines(s, s.coverage, entries, perProvider) : [];
    const all = [...statements, ...lines];
    return {
        ok: true,
        value: { ndjson: all.length > 0 ? `${all.join('\n')}\n` : '', records: lines.length, statements: statements.length, entries, summary },
    };
}

;// CONCATENATED MODULE: ./src/cli/commands/import.ts
/**
 * `receipt-gate import KIND`: a provider's audit export (files a user exported: nothing is queried)
 * turned into audit records, written only when the whole import succeeds.
 */















const import_OPTIONS = [
    { flag: 'output', kind: 'string', arg: 'FILE', help: 'the records (NDJSON; required)' },
    { flag: 'sign-key', kind: 'string', arg: 'FILE', help: 'sign every record with this Ed25519 private key' },
    {
        flag: 'predicate',
        kind: 'string',
        arg: 'FILE',
        help: 'also write the records predicate (kind, scope, entries read, records written) for actions/attest predicate-path',
    },
    {
        flag: 'actor',
        kind: 'list',
        arg: 'LOGIN',
        help: "the agent's identity: keep only entries by it (GitHub actor, a delivery's sender.login, Slack actor.user.id or email); repeatable",
    },
    {
        flag: 'repo',
        kind: 'list',
        arg: 'OWNER/NAME',
        help: 'GitHub: keep only entries of this repository (case-insensitive); repeatable',
    },
    {
        flag: 'owner',
        kind: 'string',
        arg: 'ORG',
        help: "GitHub: keep only entries of this organisation's repositories (case-insensitive); an organisation-wide export's scope",
    },
    {
        flag: 'since',
        kind: 'string',
        arg: 'TIME',
        help: "keep only entries at or after TIME (the entry's own time; RFC 3339, or YYYY-MM-DD for midnight UTC)",
    },
    {
        flag: 'until',
        kind: 'string',
        arg: 'TIME',
        help: 'keep only entries before TIME (the window is [since, until)); with both, the output starts with what the export covered (docs/coverage.md), and a quiet window still writes it',
    },
    SIGNED_AT,
    { flag: 'principal', kind: 'string', arg: 'id|email', default: 'id', help: 'Slack: what the agent passed as the user' },
    { flag: 'workspace', kind: 'string', arg: 'context|none', default: 'context', help: 'Slack: whether the agent passed the workspace' },
    {
        flag: 'role-verb',
        kind: 'list',
        arg: 'ROLE=VERB',
        default: 'admin=grant, owner=grant, user=change_role, guest=change_role',
        help: 'Slack: the verb of a role change; repeatable',
    },
    { flag: 'member-provider', kind: 'string', arg: 'NAME', default: 'slack', help: 'Slack: the provider of workspace_member records' },
    { flag: 'role-provider', kind: 'string', arg: 'NAME', default: 'workspace', help: 'Slack: the provider of workspace_role records' },
    ...LIMITS,
];
/** --since / --until: the window [since, until). */
function windowOf(flags) {
    const time = (flag) => {
        const value = flags[flag];
        if (value === undefined)
            return null;
        const result = parseWindowTime(value);
        if (!result.ok)
            throw new types_UsageError('value', `--${flag}: ${result.reason}`);
        return result.value;
    };
    const since = time('since');
    const until = time('until');
    if (since !== null && until !== null && (0,core_time/* compareInstants */.QI)(until, since) <= 0)
        throw new types_UsageError('value', '--until must be later than --since (the window is [since, until))');
    return { since, until };
}
/** With both bounds, what the statements name: the actors as given, the repositories (lower-cased for GitHub), the organisation, the window in UTC. */
function coverageScope(flags, kind, owner) {
    if (flags.since === undefined || flags.until === undefined)
        return null;
    const utc = (flag, text) => {
        const written = (0,core_time/* utcAsWritten */.es)(text);
        if (!written.ok)
            throw new types_UsageError('value', `--${flag}: ${written.reason}`);
        return written.value;
    };
    const repos = flags.repo && flags.repo.length > 0 ? flags.repo.map((r) => (kind === 'slack-audit-log' ? r : (0,core_text/* asciiLower */.F)(r))) : null;
    return { actors: flags.actor ?? [], repos, owner, since: utc('since', flags.since), until: utc('until', flags.until) };
}
function slackOptions(flags) {
    const roleVerbs = new Map(DEFAULT_SLACK.roleVerbs);
    for (const rv of flags['role-verb'] ?? []) {
        const match = /^([a-z_]+)=([a-z_]+)$/.exec(rv.trim());
        if (!match?.[1] || !match[2])
            throw new types_UsageError('value', `--role-verb: "${rv}" is not ROLE=VERB (e.g. admin=grant)`);
        roleVerbs.set(match[1], match[2]);
    }
    return {
        principal: parseChoice('--principal', flags.principal ?? DEFAULT_SLACK.principal, ['id', 'email']),
        workspace: parseChoice('--workspace', flags.workspace ?? DEFAULT_SLACK.workspace, ['context', 'none']),
        roleVerbs,
        memberProvider: flags['member-provider'] ?? DEFAULT_SLACK.memberProvider,
        roleProvider: flags['role-provider'] ?? DEFAULT_SLACK.roleProvider,
    };
}
/** The records predicate (docs/predicates/records-v1.md): the kind, the scope as given (absent members left out), the counts. */
function recordsPredicate(kind, flags, done) {
    const scope = {};
    if (flags.actor && flags.actor.length > 0)
        scope['actor'] = flags.actor;
    if (flags.repo && flags.repo.length > 0)
        scope['repo'] = flags.repo;
    if (flags.owner !== undefined)
        scope['owner'] = flags.owner;
    if (flags.since !== undefined)
        scope['since'] = flags.since;
    if (flags.until !== undefined)
        scope['until'] = flags.until;
    return `${JSON.stringify({ kind, scope, entries_read: done.entries, records_written: done.records }, null, 2)}\n`;
}
const importExports = {
    spec: {
        name: 'import',
        synopsis: 'github-audit-log|github-webhook|slack-audit-log --output FILE [options] INPUT...',
        summary: "turn a provider's audit export into audit records",
        about: 'turns provider audit exports (read from files: nothing is queried) into audit records, written as NDJSON only when the whole import succeeds',
        options: import_OPTIONS,
    },
    run(ctx) {
        const { flags: f, rest, help } = parseFlags(ctx.argv, import_OPTIONS);
        if (help)
            return 'help';
        const [kindName, ...files] = rest;
        const kind = kindName === undefined ? null : importKind(kindName);
        if (!kind)
            throw new types_UsageError('value', `import: the export kind comes first: ${Object.keys(IMPORT_KINDS).join(', ')}`);
        if (!f.output)
            throw new types_UsageError('missing', 'import: --output FILE is required');
        if (files.length === 0)
            throw new types_UsageError('missing', 'import: at least one INPUT export file is required');
        const output = outputIn(ctx.cwd, ctx.cwd, f.output, '--output');
        const predicate = f.predicate === undefined ? null : outputIn(ctx.cwd, ctx.cwd, f.predicate, '--predicate');
        distinctOutputs([
            ['--output', output],
            ['--predicate', predicate],
        ]);
        const slack = slackOptions(f);
        const { since, until } = windowOf(f);
        const repos = f.repo;
        if (repos && kind === 'slack-audit-log')
            throw new types_UsageError('value', '--repo: Slack audit entries name no repository');
        const owner = f.owner ?? null;
        if (owner !== null && kind === 'slack-audit-log')
            throw new types_UsageError('value', '--owner: Slack audit entries name no organisation');
        if (owner !== null && !/^[^/\s]+$/.test(owner))
            throw new types_UsageError('value', `--owner: "${owner}" is not an organisation name (OWNER, without a /)`);
        for (const r of repos ?? [])
            if (!/^[^/\s]+\/[^/\s]+$/.test(r))
                throw new types_UsageError('value', `--repo: "${r}" is not OWNER/NAME`);
        const actors = f.actor;
        for (const x of actors ?? [])
            if (x.trim() === '')
                throw new types_UsageError('value', '--actor: an empty identity');
        const limits = limitsOf(f);
        const signedAt = signedAtOf(f['signed-at']);
        const tool = `import ${kind}`;
        const sign = f['sign-key']
            ? { key: readSigningKey('--sign-key', external_node_path_default().resolve(ctx.cwd, f['sign-key'])), signedAt: signedAt ?? signedAtNow(ctx.now) }
            : null;
        const inputs = readInputs(files.map((x) => external_node_path_default().resolve(ctx.cwd, x)), limits);
        const scope = {
            actors: actors ? new Set(kind === 'slack-audit-log' ? actors : actors.map(core_text/* asciiLower */.F)) : null,
            caseless: kind !== 'slack-audit-log',
            repos: repos ? new Set(repos.map(core_text/* asciiLower */.F)) : null,
            owner: owner === null ? null : (0,core_text/* asciiLower */.F)(owner),
            since,
            until,
        };
        const coverage = coverageScope(f, kind, owner);
        const result = runImport({ kind, inputs, limits, slack, sign, scope, coverage });
        if (!result.ok)
            return wroteNothing(tool, EXIT.problem, `${findingLines(tool, result.reason.findings)}${say(tool, result.reason.summary)}`);
        const done = result.value;
        // A quiet night without a window: nothing to write, and no empty file for a job to commit. With
        // one, the statement alone is written: for that window and scope the provider logged nothing.
        if (done.records === 0 && done.statements === 0)
            return {
                code: EXIT.pass,
                stdout: '',
                stderr: say(tool, `${done.summary}; no records, so ${output} was not written (give --since and --until to record what was covered)`),
            };
        try {
            // The predicate first: when it cannot be written, no records file is left without it.
            if (predicate)
                writeWhole(predicate, recordsPredicate(kind, f, done));
            writeWhole(output, done.ndjson);
        }
        catch (error) {
            return unwritable(tool, 'the output', output, error);
        }
        const also = predicate ? ` (predicate → ${predicate})` : '';
        const covered = coverage ? `, ${done.statements} coverage statement(s) for [${coverage.since}, ${coverage.until})` : '';
        return { code: EXIT.pass, stdout: '', stderr: say(tool, `${done.summary}${covered}${sign ? ', signed' : ''} → ${output}${also}`) };
    },
};

;// CONCATENATED MODULE: ./src/tools/keygen.ts
/** `keygen`: a new Ed25519 key pair for an export job (or a producer); never overwrites a file. */




/** PREFIX.key.pem (PKCS#8, 0600) and PREFIX.pub.pem (SPKI); refuses when either exists. */
function keygen(prefix) {
    const keyFile = `${prefix}.key.pem`;
    const pubFile = `${prefix}.pub.pem`;
    for (const f of [keyFile, pubFile])
        if ((0,external_node_fs_.existsSync)(f))
            return { ok: false, reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', f, 'exists; keygen never overwrites a key')] };
    const pair = newKeyPair();
    try {
        // 'wx': fail if the file appeared meanwhile; mode 0600 from the first byte.
        (0,external_node_fs_.writeFileSync)(keyFile, pair.privatePem, { flag: 'wx', mode: 0o600 });
        (0,external_node_fs_.writeFileSync)(pubFile, pair.publicPem, { flag: 'wx', mode: 0o644 });
    }
    catch (error) {
        return { ok: false, reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', prefix, `cannot write the key pair: ${(0,core_text/* messageOf */.bD)(error)}`)] };
    }
    return { ok: true, value: `${pair.keyId}\n` };
}

;// CONCATENATED MODULE: ./src/cli/commands/keygen.ts
/** `receipt-gate keygen --out PREFIX`: a new Ed25519 key pair for an export job (or a producer). */






const keygen_OPTIONS = [
    { flag: 'out', kind: 'string', arg: 'PREFIX', help: 'where the two key files go (required)' },
];
const keygen_keygen = {
    spec: {
        name: 'keygen',
        synopsis: '--out PREFIX',
        summary: 'write a new Ed25519 key pair for signing audit records',
        about: 'writes PREFIX.key.pem (PKCS#8, mode 0600; never overwrites) and PREFIX.pub.pem (SPKI), and prints the key_id; the folder of PREFIX is made when it does not exist',
        options: keygen_OPTIONS,
    },
    run(ctx) {
        const { flags, rest, help } = parseFlags(ctx.argv, keygen_OPTIONS);
        if (help)
            return 'help';
        if (rest.length > 0)
            throw new types_UsageError('value', `keygen: unexpected argument "${rest[0]}"`);
        if (!flags.out)
            throw new types_UsageError('missing', 'keygen: --out PREFIX is required');
        // Both files stay inside the working directory through every directory above them.
        for (const suffix of ['.key.pem', '.pub.pem'])
            outputIn(ctx.cwd, ctx.cwd, `${flags.out}${suffix}`, '--out');
        const prefix = external_node_path_default().resolve(ctx.cwd, flags.out);
        const result = keygen(prefix);
        if (!result.ok)
            return { code: EXIT.usage, stdout: '', stderr: findingLines('keygen', result.reason) };
        return {
            code: EXIT.pass,
            stdout: result.value,
            stderr: `receipt-gate: wrote ${prefix}.key.pem (the private key: keep it secret, never commit it; *.key.pem belongs in .gitignore) and ${prefix}.pub.pem (the public key: what a gate trusts)\n`,
        };
    },
};

// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __nccwpck_require__(8815);
;// CONCATENATED MODULE: ./src/core/effect.ts

function statusOf(call) {
    if (call.grandfathered)
        return 'grandfathered';
    if (call.excepted !== null)
        return 'excepted';
    if (call.pending)
        return 'pending';
    if (call.below_required)
        return 'unmet';
    if (call.warned)
        return 'warned';
    return call.required_level === null ? 'not ruled' : 'met';
}
const DEFAULT = '(default)';
/** Per rule, how its calls measure (calls not ruled and grandfathered ones aside). */
function ruleEffects(report) {
    const by = new Map();
    for (const call of report.calls) {
        const status = statusOf(call);
        if (status === 'not ruled' || status === 'grandfathered')
            continue;
        const name = call.rule ?? DEFAULT;
        let counts = by.get(name);
        if (!counts)
            by.set(name, (counts = { matched: 0, met: 0, unmet: 0, warned: 0, pending: 0, excepted: 0 }));
        counts.matched++;
        counts[status]++;
    }
    // Every rule of a policy file is listed, those no call reaches too (0 calls says as much as a count).
    for (const rule of report.policy.rules) {
        const name = rule['name'];
        if (typeof name === 'string' && !by.has(name))
            by.set(name, { matched: 0, met: 0, unmet: 0, warned: 0, pending: 0, excepted: 0 });
    }
    return [...by].map(([rule, counts]) => ({ rule, ...counts })).sort((a, b) => (0,core_text/* cmp */.r2)(a.rule, b.rule));
}
const key = (c) => `${c.artifact}\u0000${c.index}`;
/** The calls whose verdict changes from `before` to `after` (two reports of the same evidence). */
function changes(before, after) {
    const was = new Map(before.calls.map((c) => [key(c), c]));
    const counted = new Map();
    for (const call of after.calls) {
        const old = was.get(key(call));
        const from = old ? statusOf(old) : 'not ruled';
        const to = statusOf(call);
        if (from === to)
            continue;
        const rule = call.rule ?? old?.rule ?? DEFAULT;
        const id = `${rule}\u0000${from}\u0000${to}`;
        const seen = counted.get(id);
        counted.set(id, { rule, from, to, calls: (seen?.calls ?? 0) + 1 });
    }
    return [...counted.values()].sort((a, b) => (0,core_text/* cmp */.r2)(a.rule, b.rule) || (0,core_text/* cmp */.r2)(a.from, b.from) || (0,core_text/* cmp */.r2)(a.to, b.to));
}
/** "12 call(s) of prod-deploy-keys go from met to unmet; …" (at most `max` changes named). */
function changesText(list, max = 6) {
    if (list.length === 0)
        return 'no call changes verdict';
    const shown = list.slice(0, max).map((c) => `${c.calls} call(s) of ${c.rule} go from ${c.from} to ${c.to}`);
    return `${shown.join('; ')}${list.length > max ? `; and ${list.length - max} more change(s)` : ''}`;
}

;// CONCATENATED MODULE: ./src/core/call.ts
/** Whether a call can be verified at all, and with what: decided once, before any record is seen. */
function eligibility(input, claim) {
    if (!claim.asserted)
        return { ok: false, reason: 'the call does not assert a side effect (side_effect_asserted is false)' };
    if (input.denied)
        return {
            ok: false,
            reason: input.denied === 'error' ? 'the call failed (decision.effect is "error")' : 'the call was denied (decision.effect is "deny")',
        };
    const projection = input.projection;
    if (projection.kind === 'none')
        return { ok: false, reason: `the call has no subject: ${projection.reason}` };
    if (input.provider !== null && typeof input.provider !== 'string')
        return { ok: false, reason: 'action.target.provider is neither a string nor null' };
    return { ok: true, digest: projection.digest, provider: input.provider };
}
/** A call that can be verified (its eligibility says with what). */
const isEligible = (call) => call.eligibility.ok;
/** A call that can never be verified (its eligibility says why). */
const isIneligible = (call) => !call.eligibility.ok;

;// CONCATENATED MODULE: ./src/core/lists.ts
/**
 * Reading what a module made itself: an element at an index it computed from the list, a value
 * under a key it stored. A miss is a bug, thrown where it happens, never an `undefined` carried on
 * (and never a type cast that would hide it).
 */
/** The element at `index` of `list`, which the caller knows is there. */
function item(list, index) {
    const value = list[index];
    if (value === undefined || value === null)
        throw new RangeError(`no element at ${index} of ${list.length}`);
    return value;
}
/** The value under `key` of `map`, which the caller stored. */
function stored(map, key) {
    const value = map.get(key);
    if (value === undefined || value === null)
        throw new RangeError('no value stored under that key');
    return value;
}

;// CONCATENATED MODULE: ./src/core/coverage.ts
/**
 * Export coverage (docs/coverage.md, semantics §13): what an audit export covered (provider, export
 * kind, actors, scope, actions, the window [since, until)), and what that says about each call. A
 * call with a time, in scope of a usable statement whose window holds it, is **covered**: with no
 * record binding it, the provider logged no such side effect (`effect_not_logged`). A call newer
 * than every statement of its scope and younger than the policy's `pending` is **pending**: its
 * export is not due yet and its requirement waits. Everything else is judged as before. Decided
 * here, per call, through one index per action and scope (a binary search per call, however many
 * nights of statements).
 */




/** A decision this long after the verification time or more is from the future (clocks differ by less). */
const FUTURE_GRACE_SECONDS = 300;
/** A statement's scope in words: its repositories, its organisation, or its provider's whole log. */
function scopeText(s) {
    if (s.repos !== null)
        return s.repos.length === 1 ? `repository ${s.repos[0]}` : `repositories ${s.repos.join(', ')}`;
    if (s.owner !== null)
        return `organisation ${s.owner}`;
    return s.provider === 'github' ? 'any repository' : 'the whole log';
}
/** The window in words, `[since, until)`. */
const windowText = (s) => `[${(0,core_time/* rfc3339 */.ag)(s.since)}, ${(0,core_time/* rfc3339 */.ag)(s.until)})`;
const plus = (t, seconds) => ({ seconds: t.seconds + seconds, fraction: t.fraction });
/** A call's owner and repository, and its provider, as a scope compares them. */
function whereOf(call) {
    const p = call.input.projection;
    if (p.kind !== 'subject')
        return null;
    const target = p.subject.target;
    const owner = typeof target['owner'] === 'string' ? (0,core_text/* asciiLower */.F)(target['owner']) : null;
    const repo = typeof target['repo'] === 'string' ? (0,core_text/* asciiLower */.F)(target['repo']) : null;
    const provider = typeof call.input.provider === 'string' ? call.input.provider : null;
    return { provider, owner, repo };
}
/** The usable statements, indexed; the calls' coverage is asked one by one. */
class Coverage {
    pendingSeconds;
    now;
    groups = new Map();
    /** The usable statements, each once (an export committed twice counts once). */
    usable;
    constructor(statements, pendingSeconds, 
    /** The verification time; null (a caller of the core that judges no time): nothing is pending or from the future. */
    now) {
        this.pendingSeconds = pendingSeconds;
        this.now = now;
        const seen = new Set();
        const usable = [];
        for (const s of statements) {
            if (s.trust.kind === 'untrusted')
                continue;
            const key = identity(s.statement);
            if (seen.has(key))
                continue;
            seen.add(key);
            usable.push(s);
        }
        this.usable = usable;
        const byKey = new Map();
        for (const s of usable) {
            const st = s.statement;
            if (st.actors.length === 0)
                continue;
            const repos = st.repos === null ? null : new Set(st.repos.map(core_text/* asciiLower */.F));
            const owner = st.owner === null ? null : (0,core_text/* asciiLower */.F)(st.owner);
            const scope = repos ? `r:${[...repos].sort(core_text/* cmp */.r2).join(',')}` : owner !== null ? `o:${owner}` : 'all';
            for (const action of st.actions) {
                const key = `${st.provider}\u0000${action}\u0000${scope}`;
                let group = byKey.get(key);
                if (!group) {
                    group = { provider: st.provider, action, repos, owner, statements: [], latestAt: [] };
                    byKey.set(key, group);
                    const list = this.groups.get(action) ?? [];
                    list.push(group);
                    this.groups.set(action, list);
                }
                group.statements.push(s);
            }
        }
        for (const group of byKey.values()) {
            group.statements.sort((a, b) => (0,core_time/* compareInstants */.QI)(a.statement.since, b.statement.since) || (0,core_text/* cmp */.r2)(a.loc.file, b.loc.file));
            let best = 0;
            group.latestAt = group.statements.map((s, i) => {
                if ((0,core_time/* compareInstants */.QI)(s.statement.until, item(group.statements, best).statement.until) > 0)
                    best = i;
                return best;
            });
        }
    }
    /** The groups whose scope holds this call. */
    groupsOf(call) {
        const p = call.input.projection;
        const where = whereOf(call);
        if (p.kind !== 'subject' || !where)
            return [];
        const list = this.groups.get(`${p.subject.action_class}:${p.subject.verb}`) ?? [];
        return list.filter((g) => {
            if (where.provider !== null && where.provider !== g.provider)
                return false;
            if (g.repos !== null)
                return where.owner !== null && where.repo !== null && g.repos.has(`${where.owner}/${where.repo}`);
            if (g.owner !== null)
                return where.owner === g.owner;
            return true;
        });
    }
    /** What coverage says about a call that asserts a side effect and was allowed (`time`: its decision's). */
    of(call, time) {
        if (time === null || !call.claim.asserted || call.input.denied)
            return { kind: 'none' };
        if (this.now !== null && (0,core_time/* compareInstants */.QI)(time, plus(this.now, FUTURE_GRACE_SECONDS)) > 0)
            return { kind: 'future' };
        const groups = this.groupsOf(call);
        let latest = null;
        for (const g of groups) {
            // The last statement that starts at or before the call; the one ending last among those up to it.
            let lo = 0;
            let hi = g.statements.length - 1;
            let at = -1;
            while (lo <= hi) {
                const mid = (lo + hi) >> 1;
                if ((0,core_time/* compareInstants */.QI)(item(g.statements, mid).statement.since, time) <= 0) {
                    at = mid;
                    lo = mid + 1;
                }
                else
                    hi = mid - 1;
            }
            if (at >= 0) {
                const best = item(g.statements, item(g.latestAt, at));
                if ((0,core_time/* compareInstants */.QI)(time, best.statement.until) < 0)
                    return { kind: 'covered', statement: best };
            }
            const last = item(g.statements, item(g.latestAt, g.statements.length - 1));
            if (!latest || (0,core_time/* compareInstants */.QI)(last.statement.until, latest.statement.until) > 0)
                latest = last;
        }
        const newest = latest === null || (0,core_time/* compareInstants */.QI)(time, latest.statement.until) >= 0;
        const until = plus(time, this.pendingSeconds);
        if (newest && this.now !== null && (0,core_time/* compareInstants */.QI)(this.now, until) < 0)
            return { kind: 'pending', latest, until };
        return { kind: 'uncovered', scoped: groups.length > 0 };
    }
    /** Stretches no usable statement covers between two that do, per provider, scope and action (the same stretch named once with its actions). */
    gaps() {
        const out = new Map();
        for (const list of this.groups.values())
            for (const g of list) {
                let end = null;
                for (const s of g.statements) {
                    if (end !== null && (0,core_time/* compareInstants */.QI)(s.statement.since, end) > 0) {
                        const scope = scopeText(s.statement);
                        const key = `${g.provider}\u0000${scope}\u0000${(0,core_time/* rfc3339 */.ag)(end)}\u0000${(0,core_time/* rfc3339 */.ag)(s.statement.since)}`;
                        const gap = out.get(key);
                        if (gap)
                            gap.actions.push(g.action);
                        else
                            out.set(key, { provider: g.provider, scope, actions: [g.action], from: end, to: s.statement.since });
                    }
                    if (end === null || (0,core_time/* compareInstants */.QI)(s.statement.until, end) > 0)
                        end = s.statement.until;
                }
            }
        return [...out.values()]
            .map((g) => ({ ...g, actions: [...new Set(g.actions)].sort(core_text/* cmp */.r2) }))
            .sort((a, b) => (0,core_text/* cmp */.r2)(a.provider, b.provider) || (0,core_text/* cmp */.r2)(a.scope, b.scope) || (0,core_time/* compareInstants */.QI)(a.from, b.from));
    }
}
/** Whether two statements say the same (an export committed twice). */
const sameExport = (a, b) => identity(a) === identity(b);
/** What makes two statements the same export (an export committed twice counts once). */
function identity(s) {
    const canonical = (0,binding/* jcs */.vI)({
        provider: s.provider,
        export: s.export,
        actors: s.actors,
        repos: s.repos,
        owner: s.owner,
        actions: s.actions,
        since: (0,core_time/* rfc3339 */.ag)(s.since),
        until: (0,core_time/* rfc3339 */.ag)(s.until),
        entries_read: s.entries_read,
        records: s.records,
    });
    return canonical.ok ? canonical.text : '';
}

;// CONCATENATED MODULE: ./src/core/records.ts
/**
 * Audit records before allocation (§3, §8), checked in this order: binding consistency, signer
 * trust (when trusted keys are configured), identity. Identity is taken only by records that passed
 * the earlier checks: an inconsistent or untrusted copy never makes a good one a duplicate. Copies
 * of one audit entry (one identity, one meaning: overlapping exports, at-least-once streaming, a
 * redelivery) count once; one identity with two meanings makes every record of it unusable. Each
 * record leaves here with an outcome that carries its reason; only a `UsableRecord`, which nothing
 * but this module can make, can ever bind a call.
 */


const isUsable = (r) => r.check.outcome === 'usable';
const isUnusable = (r) => r.check.outcome !== 'usable';
/** Consistency and trust, each record on its own. */
function precheck(input) {
    const { record } = input;
    const bound = (0,binding/* binding */.Ch)(record.subject);
    if (!bound.ok)
        return { outcome: 'inconsistent', recomputed: null, reason: `subject cannot be canonicalized: ${bound.reason}` };
    if (bound.digest !== record.binding_digest) {
        return {
            outcome: 'inconsistent',
            recomputed: bound.digest,
            reason: `subject recomputes to ${bound.digest} but binding_digest says ${record.binding_digest}: the subject or the digest was changed after the record was made`,
        };
    }
    if (input.trust.kind === 'untrusted')
        return { outcome: 'untrusted', recomputed: bound.digest, code: input.trust.code, reason: input.trust.reason };
    return { outcome: 'usable', recomputed: bound.digest };
}
function checkRecords(records) {
    const checks = records.map(precheck);
    // Identity, among the records that passed: the first of each identity, its digest, and the first that differs.
    const identity = (r) => JSON.stringify([r.record.provider, r.record.record_id]);
    const firstOf = new Map();
    const conflicted = new Map();
    // Each usable record's identity, made once (both passes read it); null for the others.
    const ids = checks.map((check, index) => (check.outcome === 'usable' ? identity(item(records, index)) : null));
    checks.forEach((check, index) => {
        const id = ids[index];
        if (check.outcome !== 'usable' || id == null)
            return;
        const first = firstOf.get(id);
        if (first === undefined)
            firstOf.set(id, { index, recomputed: check.recomputed });
        else if (first.recomputed !== check.recomputed && !conflicted.has(id))
            conflicted.set(id, index);
    });
    return records.map((input, index) => {
        const check = item(checks, index);
        if (check.outcome !== 'usable')
            return { input, check };
        const id = item(ids, index);
        const first = stored(firstOf, id);
        const clash = conflicted.get(id);
        if (clash !== undefined) {
            // Name the other meaning: for the first record the first that differs, for the others the first.
            const other = item(records, first.recomputed === check.recomputed ? clash : first.index);
            return { input, check: { outcome: 'duplicate', recomputed: check.recomputed, other } };
        }
        if (first.index !== index)
            return { input, check: { outcome: 'imported_twice', recomputed: check.recomputed, first: item(records, first.index) } };
        return usable(input, check);
    });
}
/** The one way a record becomes usable: every check passed (the brand is made here and nowhere else). */
const usable = (input, check) => ({ input, check });

;// CONCATENATED MODULE: ./src/core/allocation.ts
/**
 * The allocation of audit records to calls (§5): one to one, across all artifacts, a record only to
 * a call whose recomputed subject digest it binds and whose provider (when the call names one) it
 * carries. Two passes: first the calls that claim `verified` (a scarce record goes to the call that
 * claims it), then the rest; each pass in artifact then decision order, calls that name a provider
 * before calls that name none. A call that names a provider can take only that provider's records,
 * one that names none can take any: serving the constrained first makes each pass a maximum
 * matching (a call that could only take a `github` record is never starved by one that could take
 * any).
 */

/**
 * @param claimants in artifact then decision order (only calls that can be verified at all)
 * @returns the record allocated to each claimant that got one, by the claimant's position (a table,
 *   not a map keyed by claimant: 0.89× the time at 100 000 calls)
 */
function allocate(claimants, records) {
    // Records by recomputed digest, as positions in `records` (so "used" is one byte per record).
    const buckets = new Map();
    records.forEach((record, i) => {
        if (!isUsable(record))
            return;
        const b = buckets.get(record.check.recomputed);
        if (b)
            b.recs.push(i);
        else
            buckets.set(record.check.recomputed, { recs: [i], next: 0 });
    });
    const used = new Uint8Array(records.length);
    const out = new Array(claimants.length);
    const serve = (claimant, k) => {
        const bucket = buckets.get(claimant.digest);
        if (!bucket)
            return;
        const { recs } = bucket;
        // Records before `next` are all used: skip them once, not once per call.
        while (bucket.next < recs.length && used[recs[bucket.next]] === 1)
            bucket.next++;
        for (let j = bucket.next; j < recs.length; j++) {
            const i = recs[j];
            const record = records[i];
            if (used[i] === 1 || (claimant.provider !== null && record.input.record.provider !== claimant.provider))
                continue;
            used[i] = 1;
            out[k] = record;
            return;
        }
    };
    for (const claimsVerified of [true, false]) {
        for (const named of [true, false]) {
            claimants.forEach((claimant, k) => {
                if (claimant.claimsVerified === claimsVerified && (claimant.provider !== null) === named)
                    serve(claimant, k);
            });
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./src/core/nearest.ts



/** Add `v` to the list at `k`. */
function push(map, k, v) {
    const list = map.get(k);
    if (list)
        list.push(v);
    else
        map.set(k, [v]);
}
/** The target of a call that has a subject. */
const targetOf = (c) => (c.input.projection.kind === 'subject' ? c.input.projection.subject.target : {});
/**
 * The nearest call to a record's subject among the calls of its class and verb: the most bound
 * fields equal (absent on both counts as equal; a string equals only a string), ties to the first
 * in order. The record's whole narrowed subject never equals a call's here (that is an exact match,
 * found by digest first), so with k bound fields the best is k - 1 equal. The subjects that will be
 * asked about are given first: per class and verb, only their field values are interned (a call's
 * value that no query holds can equal none of them), and the first call holding each combination of
 * k - 1, …, 1 of those values is remembered, a level only when a query gets that far. A query is a
 * few lookups; a group is indexed only when a record asks about it; a target not given first is
 * answered by a scan.
 */
class NearestCalls {
    calls;
    groups = null;
    indexes = new Map();
    asked = new Map();
    constructor(calls, queries) {
        this.calls = calls;
        for (const q of queries)
            push(this.asked, `${q.actionClass}\u0000${q.verb}`, q.target);
    }
    find(actionClass, verb, target) {
        const fields = (0,core_projection/* boundFields */.EC)(actionClass);
        if (!fields)
            return null;
        if (!this.groups) {
            this.groups = new Map();
            for (const c of this.calls) {
                const projection = c.input.projection;
                if (projection.kind === 'subject')
                    push(this.groups, `${projection.subject.action_class}\u0000${projection.subject.verb}`, c);
            }
        }
        const key = `${actionClass}\u0000${verb}`;
        const members = this.groups.get(key);
        if (!members)
            return null;
        let index = this.indexes.get(key);
        if (!index)
            this.indexes.set(key, (index = new GroupIndex(fields, members, this.asked.get(key) ?? [])));
        return index.nearest(target);
    }
}
/** All subsets of {0 … n-1} of size `size`, in lexicographic order. */
function subsets(n, size) {
    if (size === 0)
        return [[]];
    const out = [];
    for (let first = 0; first <= n - size; first++)
        for (const rest of subsets(n - first - 1, size - 1))
            out.push([first, ...rest.map((x) => x + first + 1)]);
    return out;
}
/** Below this, two value ids fit one number exactly (2 × 26 bits < 2^53). */
const ID_LIMIT = 2 ** 26;
/** The key of a combination of field value ids: a number for one or two small ids (the common case, no string made), else their list. */
function comboKey(fields, ids) {
    const a = ids[fields[0] ?? 0] ?? 0;
    if (fields.length === 1)
        return a;
    const b = ids[fields[1] ?? 0] ?? 0;
    if (fields.length === 2 && a < ID_LIMIT && b < ID_LIMIT)
        return a * ID_LIMIT + b;
    return fields.map((i) => ids[i]).join(',');
}
/** A value's equality key within one field: a string by itself, anything else by its canonical text (as the binding and the ladder's target key compare it). */
const valueKey = (v) => typeof v === 'string' ? { isString: true, key: v } : { isString: false, key: (0,core_projection/* boundValueText */.zo)(v) };
/** Whether two targets agree on field `f` (both absent, or equal values by `valueKey`). */
function sameField(left, right, file) {
    const has = (0,json/* hasOwn */.$)(left, file);
    if (has !== (0,json/* hasOwn */.$)(right, file))
        return false;
    if (!has)
        return true;
    const x = valueKey(left[file]);
    const y = valueKey(right[file]);
    return x.isString === y.isString && x.key === y.key;
}
/** Length and five code units of a string (the last three, the middle and the first quarter's end): equal strings always share it. */
function fingerprint(text) {
    const n = text.length;
    const at = (i) => (i >= 0 ? text.charCodeAt(i) : 0);
    let h = Math.imul(n, 65599) + at(n - 1);
    h = Math.imul(h, 65599) + at(n - 2);
    h = Math.imul(h, 65599) + at(n - 3);
    h = Math.imul(h, 65599) + at(n >> 1);
    return (Math.imul(h, 65599) + at(n >> 2)) | 0;
}
/** A member's value that no query holds. */
const UNASKED = -1;
class GroupIndex {
    fields;
    members;
    /** Per bound field: the queries' string values → id, their other JSON values (by canonical text) → id; 0 is "absent". */
    strings;
    others;
    /** Every member's value ids, field by field (members × fields); UNASKED for a value no query holds. */
    memberIds;
    /**
     * From the largest combination (k - 1 fields) down to single fields: the ids joined → the first
     * member holding them. A level is indexed the first time a query gets that far (most stop at the first).
     */
    levels;
    constructor(fields, members, queries) {
        this.fields = fields;
        this.members = members;
        this.strings = fields.map(() => new Map());
        this.others = fields.map(() => new Map());
        this.levels = fields.slice(1).map(() => null);
        for (const q of queries)
            this.ids(q, true);
        // A cheap fingerprint of each string a query holds: most call values are told apart by it
        // without hashing the whole string (call values are mostly hashes, each distinct).
        const prints = fields.map((_, f) => new Set([...item(this.strings, f).keys()].map(fingerprint)));
        const k = fields.length;
        this.memberIds = new Int32Array(members.length * k);
        members.forEach((call, order) => {
            const target = targetOf(call);
            for (let f = 0; f < k; f++) {
                const name = item(fields, f);
                let id = 0; // absent
                if ((0,json/* hasOwn */.$)(target, name)) {
                    const value = target[name];
                    id = typeof value === 'string' && !item(prints, f).has(fingerprint(value)) ? UNASKED : (this.valueId(f, value, false) ?? UNASKED);
                }
                this.memberIds[order * k + f] = id;
            }
        });
    }
    /** Level `l` (0: combinations of k - 1 fields), indexed on first use; a combination holding an unasked value is left out. */
    level(l) {
        const built = this.levels[l];
        if (built)
            return built;
        const k = this.fields.length;
        const combos = subsets(k, k - 1 - l).map((fs) => ({ fields: fs, first: new Map() }));
        const ids = new Array(k).fill(0);
        for (let order = 0; order < this.members.length; order++) {
            for (let f = 0; f < k; f++)
                ids[f] = this.memberIds[order * k + f] ?? 0;
            for (const combo of combos) {
                if (combo.fields.some((i) => ids[i] === UNASKED))
                    continue;
                const key = comboKey(combo.fields, ids);
                if (!combo.first.has(key))
                    combo.first.set(key, order);
            }
        }
        this.levels[l] = combos;
        return combos;
    }
    /** The id of a value of field `i` (present), or undefined when it was never interned. */
    valueId(i, value, intern) {
        const { isString, key } = valueKey(value);
        const strings = item(this.strings, i);
        const others = item(this.others, i);
        const map = isString ? strings : others;
        let id = map.get(key);
        if (id === undefined && intern)
            map.set(key, (id = strings.size + others.size + 1));
        return id;
    }
    /** The id of each bound field's value: 0 when absent, undefined when never interned. */
    ids(target, intern) {
        return this.fields.map((f, i) => ((0,json/* hasOwn */.$)(target, f) ? this.valueId(i, target[f], intern) : 0));
    }
    nearest(target) {
        const known = this.ids(target, false);
        const ids = known.filter((id) => id !== undefined);
        if (ids.length < known.length)
            return this.scan(target);
        for (let l = 0; l < this.levels.length; l++) {
            let best = Number.POSITIVE_INFINITY;
            for (const combo of this.level(l)) {
                const hit = combo.first.get(comboKey(combo.fields, ids));
                if (hit !== undefined && hit < best)
                    best = hit;
            }
            if (best !== Number.POSITIVE_INFINITY)
                return this.members[best] ?? null;
        }
        return this.members[0] ?? null;
    }
    /** A target not given first, by a scan: the first member with the most fields equal (all k count as k - 1, as in the levels). */
    scan(target) {
        const k = this.fields.length;
        let best = null;
        let most = -1;
        for (const m of this.members) {
            const equal = Math.min(k - 1, this.fields.filter((f) => sameField(targetOf(m), target, f)).length);
            if (equal > most) {
                best = m;
                most = equal;
            }
        }
        return best;
    }
}

;// CONCATENATED MODULE: ./src/core/diagnose.ts
/**
 * Diagnoses: why an eligible call got no record, and why a usable record bound no call. Both are
 * decided once, from the allocation the ladder made, and carried as values (explain.ts puts them in
 * words). Reasons list at most SNAGS_LISTED records and count the rest, and the nearest call to an
 * unmatched record is found through one index per class and verb, built only for the groups an
 * unmatched record asks about, so no diagnosis grows quadratically with the input.
 */





/** Records a reason names before it counts the rest. */
const SNAGS_LISTED = 3;
const snagKind = (s) => (s.kind === 'unusable' ? s.record.check.outcome : s.kind);
function diagnoser(calls, records, allocated) {
    const holders = new Map();
    for (const call of calls) {
        const record = allocated[call.order];
        if (record)
            holders.set(record, call);
    }
    return {
        noRecord: snagIndex(records, holders),
        verdicts: () => {
            const unbound = records.filter((r) => isUsable(r) && !holders.has(r));
            const unmatched = unmatchedIndex(calls, allocated, unbound);
            return records.map((record) => {
                if (isUnusable(record))
                    return { outcome: record.check.outcome, record: record };
                const holder = holders.get(record);
                return holder
                    ? { outcome: 'bound', record: record, call: holder }
                    : { outcome: 'unmatched', record: record, why: unmatched(record) };
            });
        },
    };
}
/** The no-record reason when no record names the digest: nothing listed, nothing counted. */
const NO_SNAGS = Object.freeze([]);
const NO_MORE = new Map();
/**
 * Why no record served a call with this digest and provider: computed once per (digest, provider),
 * listing at most SNAGS_LISTED records and counting the rest, so reasons stay small when thousands
 * of calls share one subject.
 */
function snagIndex(records, holders) {
    const byDigest = new Map();
    for (const r of records) {
        push(byDigest, r.input.record.binding_digest, r);
        if (r.check.recomputed !== null && r.check.recomputed !== r.input.record.binding_digest)
            push(byDigest, r.check.recomputed, r);
    }
    const cache = new Map();
    return (digest, provider) => {
        // No record names this digest (the common case when a run has no exports): nothing to list or cache.
        if (!byDigest.has(digest))
            return { kind: 'no_record', digest, snags: NO_SNAGS, more: NO_MORE };
        const key = `${digest}\u0000${provider ?? ''}`;
        const hit = cache.get(key);
        if (hit)
            return hit;
        const listed = [];
        const more = new Map();
        for (const record of byDigest.get(digest) ?? []) {
            let snag;
            if (isUnusable(record))
                snag = { kind: 'unusable', record };
            else {
                const holder = holders.get(record);
                // An unused usable record of this digest was refused for its provider (the only other reason).
                snag = holder ? { kind: 'taken', record, holder } : { kind: 'other_provider', record, callProvider: provider ?? '' };
            }
            if (listed.length < SNAGS_LISTED)
                listed.push(snag);
            else
                more.set(snagKind(snag), (more.get(snagKind(snag)) ?? 0) + 1);
        }
        const out = { kind: 'no_record', digest, snags: listed, more };
        cache.set(key, out);
        return out;
    };
}
/** The digest of a record's subject narrowed to its class's bound fields (a record may carry more), or null. */
function narrowedDigest(record) {
    const { action_class, verb, target } = record.input.record.subject;
    const narrowed = (0,core_projection/* narrowTarget */.nw)(action_class, target);
    const bound = narrowed && Object.keys(narrowed).length > 0 ? (0,binding/* binding */.Ch)({ action_class, verb, target: narrowed }) : null;
    return bound?.ok ? bound.digest : null;
}
/**
 * Why a usable record bound no call (`unbound`: every such record). The calls are indexed by digest
 * only for the digests those records name, and the nearest-call index only when one needs it.
 */
function unmatchedIndex(calls, allocated, unbound) {
    const exact = new Map();
    const wanted = new Set();
    for (const r of unbound) {
        const hash = narrowedDigest(r);
        exact.set(r, hash);
        wanted.add(r.input.record.binding_digest);
        if (hash !== null)
            wanted.add(hash);
    }
    let byDigest = null;
    let nearest = null;
    /** The nearest-call index, asked about every unbound record that no call matches by digest. */
    const nearestFor = (index) => {
        const queries = [];
        for (const r of unbound) {
            const digest = exact.get(r) ?? null;
            if (index.has(r.input.record.binding_digest) || (digest !== null && index.has(digest)))
                continue;
            const { action_class, verb, target } = r.input.record.subject;
            queries.push({ actionClass: action_class, verb, target });
        }
        return new NearestCalls(calls, queries);
    };
    return (record) => {
        if (!byDigest) {
            byDigest = new Map();
            for (const c of calls)
                if (c.input.projection.kind === 'subject' && wanted.has(c.input.projection.digest))
                    push(byDigest, c.input.projection.digest, c);
        }
        const digest = record.input.record.binding_digest;
        const same = byDigest.get(digest);
        if (same) {
            let otherProvider = null;
            let ineligible = null;
            let verified = null;
            for (const c of same) {
                const holding = allocated[c.order];
                if (isIneligible(c))
                    ineligible ??= c;
                else if (holding)
                    verified ??= { call: c, record: holding };
                else if (isEligible(c) && c.eligibility.provider !== null && c.eligibility.provider !== record.input.record.provider)
                    otherProvider ??= c;
            }
            return { kind: 'same_subject', otherProvider, ineligible, verified };
        }
        const { action_class, verb, target } = record.input.record.subject;
        // A record whose target carries more than the bound fields may still equal a call on all of them.
        const hash = exact.get(record) ?? null;
        const near = (hash === null ? undefined : byDigest.get(hash)?.[0]) ?? (nearest ??= nearestFor(byDigest)).find(action_class, verb, target);
        if (!near)
            return { kind: 'no_call', actionClass: action_class, verb };
        const target2 = targetOf(near);
        const keys = [...new Set([...Object.keys(target2), ...Object.keys(target)])].sort();
        const differ = keys.filter((k) => !sameField(target2, target, k));
        return { kind: 'nearest', call: near, differ };
    };
}

;// CONCATENATED MODULE: ./src/core/ladder.ts
/**
 * The ladder (§5): what each call earns, as a value that carries its reason, decided here and only
 * here. A call that asserts no side effect has no rung at all (it may still confirm another call as
 * a read). Every call that asserts a side effect starts at `asserted`; `verified` is reachable only
 * with a `UsableRecord` the allocation gave it, `observed_confirmed` only with a later successful
 * read of the same target in the same run. Nothing else promotes a call. Why a call earned no more,
 * and why a record bound nothing, are diagnosed in diagnose.ts; nothing downstream searches again.
 */



const READ_VERBS = new Set(['get', 'list', 'read', 'describe', 'view', 'search', 'fetch']);
/** For each eligible call of one run, the first later successful read of the same target with another verb. */
function confirmations(run, out) {
    // A denied read never confirms anything (§5), whatever status it reports.
    const isRead = (c) => c.input.projection.kind === 'subject' && READ_VERBS.has(c.input.projection.subject.verb) && c.input.succeeded && !c.input.denied;
    if (!run.some(isRead))
        return;
    // Walk backwards, remembering every successful read seen so far (i.e. later in the run).
    const reads = new Map(); // target key → verb → earliest later read
    for (let i = run.length - 1; i >= 0; i--) {
        const call = run[i];
        const projection = call.input.projection;
        if (projection.kind !== 'subject')
            continue;
        const read = isRead(call);
        if (!read && (reads.size === 0 || !call.eligibility.ok))
            continue;
        const key = (0,core_projection/* targetKey */.hD)(projection.subject);
        if (call.eligibility.ok) {
            const verbs = reads.get(key);
            let best = null;
            if (verbs)
                for (const [verb, r] of verbs)
                    if (verb !== projection.subject.verb && (!best || r.index < best.index))
                        best = r;
            if (best)
                out[call.order] = best;
        }
        if (read) {
            let verbs = reads.get(key);
            if (!verbs)
                reads.set(key, (verbs = new Map()));
            verbs.set(projection.subject.verb, call.input);
        }
    }
}
/**
 * Allocate records, find confirming reads, and return what every call earned and what became of
 * every record, each with its reason.
 * @param runs the calls of each run, in artifact then decision order
 */
function climb(runs, records) {
    const calls = runs.flat();
    const eligible = [];
    for (const call of calls) {
        const eligibility = call.eligibility;
        if (eligibility.ok)
            eligible.push({ call, digest: eligibility.digest, provider: eligibility.provider, claimsVerified: call.claim.level === 'verified' });
    }
    // Tables by Call.order: one slot per call, no map keyed by call.
    const allocated = new Array(calls.length);
    allocate(eligible, records).forEach((record, k) => {
        if (record)
            allocated[eligible[k].call.order] = record;
    });
    const confirmed = new Array(calls.length);
    for (const run of runs)
        confirmations(run, confirmed);
    const diagnose = diagnoser(calls, records, allocated);
    const outcomes = calls.map((call) => outcomeOf(call, allocated[call.order], confirmed[call.order], diagnose.noRecord));
    return { outcomes, records: diagnose.verdicts() };
}
function outcomeOf(call, record, read, noRecord) {
    if (!call.claim.asserted)
        return { level: null };
    if (record)
        return { level: 'verified', record };
    const eligibility = call.eligibility;
    if (!eligibility.ok)
        return { level: 'asserted', why: { kind: 'ineligible', reason: eligibility.reason } };
    const notVerified = noRecord(eligibility.digest, eligibility.provider);
    return read ? { level: 'observed_confirmed', read, notVerified } : { level: 'asserted', why: notVerified };
}

;// CONCATENATED MODULE: ./src/core/report.ts
const REPORT_SCHEMA = 'receipt-gate.report.v1';

;// CONCATENATED MODULE: ./src/core/requirements.ts





/** An exception expires soon when this close to the verification time (seconds). */
const EXPIRING_SECONDS = 14 * 86_400;
const NOT_RULED = { rule: null, level: null, mode: null, grandfathered: false, shadow: null };
/** Who vouched for the record a verified outcome holds: a key id or an identity (null: nothing was checked). */
function voucherOf(outcome) {
    if (outcome.level !== 'verified')
        return null;
    const trust = outcome.record.input.trust;
    if (trust.kind !== 'trusted')
        return null;
    return trust.by.kind === 'key' ? trust.by.keyId : trust.by.signer.identity;
}
/** The facts a rule is matched against: the call's class and verb, its bound target (or, for a class outside the table, its string fields). */
function factsOf(call) {
    const p = call.input.projection;
    return {
        actionClass: call.input.actionClass,
        verb: call.input.verb,
        target: p.kind === 'subject' ? p.subject.target : call.input.labels,
    };
}
/** A call a rule can apply to: it asserts a side effect and was not denied (§7). */
const ruledCall = (call) => call.claim.asserted && !call.input.denied;
/** One verification's requirements: decided per call, with what the policy file's own entries earn once every call is judged. */
class Requirements {
    policy;
    now;
    /** Exceptions by the binding they excuse. */
    byBinding = new Map();
    /** Exceptions that excused a call, and expired ones that would have: the calls, by exception. */
    used = new Map();
    expiredUse = new Map();
    /** Grandfathered runs by artifact (their bytes matched), and every entry that matched nothing. */
    grandfatheredRuns = new Map();
    stale = [];
    use;
    constructor(policy, now, runs) {
        this.policy = policy;
        this.now = now;
        this.use = new RuleUse(policy);
        for (const e of policy.exceptions) {
            const list = this.byBinding.get(e.binding);
            if (list)
                list.push(e);
            else
                this.byBinding.set(e.binding, [e]);
        }
        const byArtifact = new Map(runs.map((r) => [r.artifact, r]));
        for (const entry of policy.grandfathered) {
            const run = byArtifact.get(entry.run);
            if (!run)
                this.stale.push({ entry, why: 'no run of that path was read' });
            else if (run.sha256 !== entry.sha256)
                this.stale.push({
                    entry,
                    why: `its bytes changed (sha256 ${run.sha256 ?? 'unknown'}, pinned ${entry.sha256}): it is judged in full`,
                });
            else
                this.grandfatheredRuns.set(run.artifact, entry);
        }
    }
    /** The rule for a call a rule could apply to, its use noted. */
    ruleOf(facts) {
        const rule = ruleFor(this.policy, facts);
        this.use.note(facts, rule);
        return rule;
    }
    /** What a call must reach. */
    of(call) {
        const entry = this.grandfatheredRuns.get(call.run.artifact);
        if (entry) {
            // Judged for honesty only; what it would have had to reach is kept, to report its shortfall
            // suppressed. A rule whose calls are all grandfathered is in use (not misspelt).
            const facts = ruledCall(call) ? factsOf(call) : null;
            const rule = facts ? this.ruleOf(facts) : null;
            const level = rule?.level ?? (facts ? this.policy.defaultLevel : null);
            return { ...NOT_RULED, grandfathered: true, shadow: level === null ? null : { rule, level, reason: entry.reason } };
        }
        if (!ruledCall(call))
            return NOT_RULED;
        const rule = this.ruleOf(factsOf(call));
        if (rule)
            return { rule, level: rule.level, mode: rule.mode, grandfathered: false, shadow: null };
        if (this.policy.defaultLevel === null)
            return NOT_RULED;
        return { rule: null, level: this.policy.defaultLevel, mode: 'enforce', grandfathered: false, shadow: null };
    }
    /** How a call earning `outcome` measures against its requirement (an exception used is counted). */
    measure(call, requirement, outcome) {
        const { rule, level: required } = requirement;
        if (required === null || outcome.level === null)
            return { kind: 'met' };
        let short = (0,vocabulary/* below */.Gz)(outcome.level, required);
        const voucher = voucherOf(outcome);
        // signed-by is a requirement, not a rung: a record another signer vouched for still verifies the call.
        if (!short && rule?.signedBy && required === 'verified' && (voucher === null || !rule.signedBy.includes(voucher)))
            short = true;
        if (!short)
            return { kind: 'met' };
        const p = call.input.projection;
        const candidates = rule && p.kind === 'subject' ? (this.byBinding.get(p.digest) ?? []).filter((e) => e.rule === rule.name) : [];
        const live = candidates.find((e) => (0,core_time/* compareInstants */.QI)(e.expires, this.now) > 0);
        if (live) {
            this.used.set(live, (this.used.get(live) ?? 0) + 1);
            return { kind: 'excused', exception: live };
        }
        for (const e of candidates) {
            const calls = this.expiredUse.get(e) ?? [];
            calls.push(call);
            this.expiredUse.set(e, calls);
        }
        return { kind: 'short', voucher };
    }
    /** The policy file's own findings, once every call is judged: expired, expiring and unused exceptions, stale grandfathered runs, unused rules. */
    findings(unusedRule) {
        const out = [];
        for (const e of this.policy.exceptions) {
            const who = `owner ${(0,core_text/* quote */.hD)(e.owner, 100)}, reason ${JSON.stringify((0,core_text/* quote */.hD)(e.reason, 200))}`;
            const expired = (0,core_time/* compareInstants */.QI)(e.expires, this.now) <= 0;
            const lapsed = this.expiredUse.get(e);
            if (expired && lapsed && !this.used.has(e)) {
                const first = lapsed[0];
                const where = first
                    ? ` (${first.run.artifact} decision ${first.input.index}${lapsed.length > 1 ? ` and ${lapsed.length - 1} more call(s)` : ''})`
                    : '';
                out.push((0,core_findings/* finding */.gk)('exception_expired', e.at, `the exception for rule ${e.rule} (${who}) expired on ${e.expiresText}: the call it excused${where} fails as usual; renew it with a new reason and expiry, or fix the call`));
            }
            else if (!this.used.has(e))
                out.push((0,core_findings/* finding */.gk)('exception_unused', e.at, `the exception for rule ${e.rule} (${who}) excused no call: prune it`));
            if (!expired && e.expires.seconds - this.now.seconds <= EXPIRING_SECONDS)
                out.push((0,core_findings/* finding */.gk)('exception_expiring', e.at, `the exception for rule ${e.rule} (${who}) expires on ${e.expiresText}, within 14 days: renew it or fix what it excuses`));
        }
        for (const { entry, why } of this.stale)
            out.push((0,core_findings/* finding */.gk)('grandfather_stale', entry.at, `grandfathered run ${(0,core_text/* quote */.hD)(entry.run)}: ${why}; this entry grandfathers nothing`));
        for (const rule of this.use.rules())
            out.push(unusedRule(rule));
        return out;
    }
}
/** `rule_unused` for a rule of the `require` input: an input finding naming the classes seen. */
function unusedRequireRule(rule, classesSeen) {
    const seen = classesSeen.length === 0
        ? 'no call asserts a side effect'
        : `classes seen: ${classesSeen
            .slice(0, 20)
            .map((c) => (0,core_text/* quote */.hD)(c, 100))
            .join(', ')}${classesSeen.length > 20 ? ` and ${classesSeen.length - 20} more` : ''}`;
    if (rule.at !== null)
        return (0,core_findings/* finding */.gk)('rule_unused', rule.at, `rule ${rule.name} applies to no call (${seen}): is its class, verb or target misspelt?`);
    return (0,core_findings/* inputFinding */.uY)('rule_unused', `require: ${rule.selector}=${rule.level}`, `the rule ${rule.selector}=${rule.level} applies to no call (${seen}): is the class or verb misspelt?`);
}
/** The classes of the calls a rule could apply to, sorted (what `rule_unused` names). */
const classesOf = (calls) => [
    ...new Set(calls
        .filter(ruledCall)
        .map((c) => c.input.actionClass)
        .filter((c) => c !== null)),
].sort(core_text/* cmp */.r2);

// EXTERNAL MODULE: ./src/core/severity.ts
var severity = __nccwpck_require__(432);
;// CONCATENATED MODULE: ./src/core/explain.ts
/**
 * Outcomes and verdicts in words. Everything here reads a reason the ladder made (core/ladder.ts);
 * nothing searches calls or records again. Untrusted text is quoted clipped (`quote`), and a reason
 * names at most a few records, so no message grows with the input.
 */





const at = (d) => `line ${d.loc.line}`;
const explain_short = (d) => (d.length > 20 ? `${d.slice(0, 15)}…${d.slice(-4)}` : d);
/** `record "id" (provider) at file:line` */
const recordName = (r) => `record ${JSON.stringify((0,core_text/* quote */.hD)(r.input.record.record_id))} (${(0,core_text/* quote */.hD)(r.input.record.provider)}) at ${(0,core_findings/* placeOf */.$t)(r.input.loc)}`;
/** Who signed a record, as far as the gate checked (§8); nothing for an unsigned record without trusted keys. */
function signedBy(record) {
    const { signer, trust } = record.input;
    if (trust.kind === 'trusted')
        return trust.by.kind === 'key'
            ? `, signed by trusted signer ${trust.by.keyId}`
            : `, attested by trusted identity ${(0,core_text/* quote */.hD)(trust.by.signer.identity)}`;
    return signer === null ? '' : `, signed by key_id ${signer}, not checked: no trusted keys`;
}
/** `artifact decision N (line L)` */
const callName = (c) => `${c.run.artifact} decision ${c.input.index} (${at(c.input)})`;
/** How a call is named in its own findings: its tool (or "decision") and its index. */
const callTitle = (c) => `${c.input.tool === null ? 'decision' : (0,core_text/* quote */.hD)(c.input.tool)} (decision ${c.input.index})`;
const NO_EFFECT = 'the call asserts no side effect (side_effect_asserted is false): it has no rung';
/** Why a call earned no observed_confirmed: the one wording, in reasons and in findings. */
const NO_READ = 'no later successful read of the same target in this run';
const NO_RECORD = 'no audit record binds its subject';
/** The most common reason, shared rather than rebuilt for every asserted call. */
const NO_EVIDENCE = `${NO_RECORD}; ${NO_READ}`;
function snagText(snag) {
    switch (snag.kind) {
        case 'unusable': {
            const check = snag.record.check;
            const words = vocabulary/* RECORD_OUTCOMES */.mG[check.outcome].snag;
            return `${recordName(snag.record)} ${words}${check.outcome === 'untrusted' ? ` (${check.reason})` : ''}`;
        }
        case 'taken':
            return `${recordName(snag.record)} already verifies ${callName(snag.holder)}`;
        case 'other_provider':
            return `${recordName(snag.record)} is from provider "${(0,core_text/* quote */.hD)(snag.record.input.record.provider)}", the call targets "${(0,core_text/* quote */.hD)(snag.callProvider)}"`;
    }
}
/** How the snags past the listed few are counted, by kind. */
const more = (k) => k === 'taken' ? vocabulary/* RECORD_OUTCOMES */.mG.bound.more : k === 'other_provider' ? 'from another provider' : vocabulary/* RECORD_OUTCOMES */.mG[k].more;
/** Why an eligible call got no record; with the digest in findings, where a reviewer compares it. */
function noRecordText(noRecord, showDigest) {
    const subject = showDigest ? `its subject ${noRecord.digest}` : 'its subject';
    if (noRecord.snags.length === 0)
        return `no audit record binds ${subject}`;
    const parts = noRecord.snags.map(snagText);
    const rest = [...noRecord.more.entries()];
    if (rest.length > 0) {
        const total = rest.reduce((a, [, k]) => a + k, 0);
        const kinds = rest.length === 1 ? `all ${more(rest[0][0])}` : rest.map(([k, v]) => `${v} ${more(k)}`).join(', ');
        parts.push(`… and ${total} more record(s) for this subject, ${kinds}`);
    }
    return `no unused audit record binds ${subject}: ${parts.join('; ')}`;
}
const notVerifiedText = (n, showDigest) => n.kind === 'ineligible' ? n.reason : noRecordText(n, showDigest);
/** Why a call earned exactly its level. */
function outcomeText(outcome) {
    switch (outcome.level) {
        case null:
            return NO_EFFECT;
        case 'verified':
            return `bound by ${recordName(outcome.record)}${signedBy(outcome.record)}`;
        case 'observed_confirmed':
            return `confirmed by a later read at ${at(outcome.read)}; not verified: ${noRecordText(outcome.notVerified, false)}`;
        case 'asserted':
            if (outcome.why.kind === 'ineligible')
                return outcome.why.reason;
            return outcome.why.snags.length === 0 ? NO_EVIDENCE : `${noRecordText(outcome.why, false)}; ${NO_READ}`;
    }
}
const fieldList = (fields) => {
    if (fields.length === 0)
        return 'field order or types';
    const shown = fields.slice(0, 10).map((k) => (0,core_text/* quote */.hD)(k, 60));
    return fields.length > 10 ? `${shown.join(', ')} and ${fields.length - 10} more field(s)` : shown.join(', ');
};
/** Whether the nearest call differs from the record only in the letter case of owner or repo. */
function caseOnly(u, record) {
    const projection = u.call.input.projection;
    if (projection.kind !== 'subject' || u.differ.length === 0)
        return false;
    const left = projection.subject.target;
    const right = record.input.record.subject.target;
    return u.differ.every((k) => (k === 'owner' || k === 'repo') &&
        typeof left[k] === 'string' &&
        typeof right[k] === 'string' &&
        left[k].toLowerCase() === right[k].toLowerCase());
}
/** Why a usable record bound no call. */
function unmatchedText(unmatched, record) {
    const provider = (0,core_text/* quote */.hD)(record.input.record.provider);
    switch (unmatched.kind) {
        case 'same_subject': {
            if (!unmatched.otherProvider && !unmatched.ineligible && unmatched.verified) {
                return `every call with its subject is already verified (${unmatched.verified.call.run.artifact} decision ${unmatched.verified.call.input.index} by ${recordName(unmatched.verified.record)}): one audit entry vouches for one call only`;
            }
            const parts = [];
            if (unmatched.otherProvider?.eligibility.ok) {
                parts.push(`its subject matches ${callName(unmatched.otherProvider)} but the call targets provider "${(0,core_text/* quote */.hD)(unmatched.otherProvider.eligibility.provider ?? '')}", not "${provider}"`);
            }
            if (unmatched.ineligible)
                parts.push(`its subject matches ${callName(unmatched.ineligible)}, which cannot be verified: ${unmatched.ineligible.eligibility.reason}`);
            if (unmatched.verified)
                parts.push(`${callName(unmatched.verified.call)} is already verified by ${recordName(unmatched.verified.record)} (one audit entry vouches for one call only)`);
            return parts.join('; ');
        }
        case 'nearest':
            return `no call has its subject ${explain_short(record.input.record.binding_digest)}; nearest is ${callName(unmatched.call)}, whose target differs in ${fieldList(unmatched.differ)}${caseOnly(unmatched, record) ? ': only in letter case (GitHub names are case-insensitive; the binding is not)' : ''}`;
        case 'no_call':
            return `no call has its subject ${explain_short(record.input.record.binding_digest)} (no ${JSON.stringify((0,core_text/* quote */.hD)(unmatched.actionClass))} call with verb ${JSON.stringify((0,core_text/* quote */.hD)(unmatched.verb))} at all)`;
    }
}
/** Where a call acted, in words: `on owner/repo` when its target names them. */
function targetWords(call) {
    const p = call.input.projection;
    if (p.kind !== 'subject')
        return '';
    const { owner, repo } = p.subject.target;
    return typeof owner === 'string' && typeof repo === 'string' ? ` on ${(0,core_text/* quote */.hD)(owner, 60)}/${(0,core_text/* quote */.hD)(repo, 100)}` : '';
}
/** The export a statement describes, in words: its kind, actors and window. */
function exportWords(s) {
    const st = s.statement;
    const actors = st.actors.map((a) => (0,core_text/* quote */.hD)(a, 60)).join(', ');
    return `the ${(0,core_text/* quote */.hD)(st.export, 40)} export for ${actors} (${scopeText(st)}), ${windowText(st)}`;
}
/** effect_not_logged (docs/coverage.md §3): an export covered the call and holds no entry for it. */
function effectNotLoggedText(call, s) {
    const at = call.input.time ? ` at ${(0,core_time/* rfc3339 */.ag)(call.input.time)}` : '';
    return `${callTitle(call)}${targetWords(call)}${at} claims a side effect; ${exportWords(s)} holds no entry for it (${(0,core_findings/* placeOf */.$t)(s.loc)}). Was it done under another identity?`;
}
/** pending: the call's export is not due yet. */
function pendingText(call, latest, until) {
    const at = call.input.time ? ` at ${(0,core_time/* rfc3339 */.ag)(call.input.time)}` : '';
    const last = latest
        ? `the latest export of its scope (${(0,core_findings/* placeOf */.$t)(latest.loc)}) ends ${(0,core_time/* rfc3339 */.ag)(latest.statement.until)}`
        : 'no export of its scope is committed yet';
    return `${callTitle(call)}${at}: its export is not due yet (${last}); its requirement waits until ${(0,core_time/* rfc3339 */.ag)(until)}, then an export must cover it`;
}

;// CONCATENATED MODULE: ./src/core/verdicts.ts
/**
 * Verdicts (§6, §7): what each call's claim, each call's required level and each record's fate mean
 * for the gate. A call's findings compare its claim (or its requirement) with its outcome and give
 * only the reasons that concern that claim; each call's report carries its own findings, so no
 * reporter re-derives them. A record that does not bind a call is always reported with its reason.
 */






/** What an unmatched record means when the export is scoped to the agent (README: "Catching what an agent did not report"). */
const UNDECLARED = 'With an export scoped to the agent (import --actor), this is a side effect the provider logged for the agent that no committed run declares, or one whose run is not committed yet';
/** Why a call that asserts a side effect earned no more than its level, in terms of the level it needed. */
function whyNotReached(outcome, needed) {
    switch (outcome.level) {
        case null:
        case 'verified':
            return outcomeText(outcome);
        case 'observed_confirmed':
            return noRecordText(outcome.notVerified, true);
        case 'asserted':
            if (outcome.why.kind === 'ineligible')
                return outcome.why.reason;
            return needed === 'verified' ? notVerifiedText(outcome.why, true) : NO_READ;
    }
}
/** How a requirement is named in a finding: a `require` rule by its selector, a file's rule by its name, else the default. */
function requirementName(requirement) {
    const rule = requirement.rule;
    if (rule === null)
        return "the policy's default";
    return rule.at === null ? rule.selector : `rule ${rule.name} (${rule.selector})`;
}
/** Whether no record of the call's subject exists at all (what an export's silence speaks to). */
const unrecorded = (outcome) => (outcome.level === 'asserted' && outcome.why.kind === 'no_record' && outcome.why.snags.length === 0) ||
    (outcome.level === 'observed_confirmed' && outcome.notVerified.snags.length === 0);
/** A call's coverage, judged against what it earned. */
function coverageVerdict(coverage, outcome) {
    switch (coverage.kind) {
        case 'covered':
            return unrecorded(outcome) ? { kind: 'not_logged', statement: coverage.statement } : coverage;
        case 'pending':
            return unrecorded(outcome) ? coverage : { kind: 'none' };
        case 'uncovered':
            return coverage.scoped && outcome.level !== 'verified' ? { kind: 'uncovered' } : { kind: 'none' };
        default:
            return coverage;
    }
}
/** The findings a call's claim and its required level earn. */
function callFindings(call, outcome, requirement, shortfall, options, subject, coverage) {
    const { claim, input } = call;
    const level = outcome.level;
    const out = [];
    const where = callTitle(call);
    if (coverage.kind === 'future')
        out.push((0,core_findings/* finding */.gk)('invalid_artifact', input.loc, `${where} was decided at ${input.time ? (0,core_time/* rfc3339 */.ag)(input.time) : '?'}, after the verification time ${options.now ? (0,core_time/* rfc3339 */.ag)(options.now) : '?'} (by more than ${FUTURE_GRACE_SECONDS / 60} minutes): a decision from the future`));
    if (level === null)
        return out;
    // One fact, one finding: a call claiming verified that an export covered without a record is verified_not_reproduced, with that reason.
    const notLogged = coverage.kind === 'not_logged' ? effectNotLoggedText(call, coverage.statement) : null;
    if (notLogged !== null && claim.level !== 'verified')
        out.push((0,core_findings/* finding */.gk)('effect_not_logged', input.loc, notLogged));
    if (coverage.kind === 'pending')
        out.push((0,core_findings/* finding */.gk)('pending', input.loc, pendingText(call, coverage.latest, coverage.until)));
    if (claim.level === 'verified') {
        if (level !== 'verified') {
            const why = notLogged ?? whyNotReached(outcome, 'verified');
            out.push((0,core_findings/* finding */.gk)('verified_not_reproduced', input.loc, `${where} claims verified, but ${why}`));
        }
        else if (!claim.legacy && claim.digest !== subject) {
            out.push((0,core_findings/* finding */.gk)('verified_not_reproduced', input.loc, `${where} claims verification_subject_digest ${claim.digest} but its subject recomputes to ${subject}`));
        }
    }
    else if (claim.level === 'observed_confirmed') {
        const severity = options.strictObserved ? 'error' : 'warning';
        if (level === 'asserted') {
            const why = whyNotReached(outcome, 'observed_confirmed');
            out.push((0,core_findings/* finding */.gk)('observed_confirmed_not_reproduced', input.loc, `${where} claims observed_confirmed, but ${why}`, severity));
        }
        else if (level === 'observed_confirmed' && claim.digest !== subject) {
            const why = `${where} claims verification_subject_digest ${claim.digest} but the write's subject recomputes to ${subject}`;
            out.push((0,core_findings/* finding */.gk)('observed_confirmed_not_reproduced', input.loc, why, severity));
        }
    }
    if ((0,vocabulary/* below */.Gz)(claim.level, level))
        out.push((0,core_findings/* finding */.gk)('under_claimed', input.loc, `${where} claims ${claim.level} but earned ${level}`));
    const required = requirement.level;
    if (required === null || shortfall.kind === 'met')
        return out;
    const name = requirementName(requirement);
    if (shortfall.kind === 'excused') {
        const e = shortfall.exception;
        out.push((0,core_findings/* finding */.gk)('policy_excepted', input.loc, `${where}: ${name} requires ${required}; earned ${level}; excused by the exception at ${(0,core_findings/* placeOf */.$t)(e.at)} (owner ${(0,core_text/* quote */.hD)(e.owner, 100)}, reason ${JSON.stringify((0,core_text/* quote */.hD)(e.reason, 200))}, until ${e.expiresText})`));
        return out;
    }
    let why;
    if (!(0,vocabulary/* below */.Gz)(level, required)) {
        const wants = (requirement.rule?.signedBy ?? []).join(', ');
        why = `the record that verified it was vouched for by ${shortfall.voucher ?? 'no checked signer'}; the rule wants one of ${wants}`;
    }
    else {
        // One fact, one finding (§6): when the claim's own finding already gives this reason, refer to it.
        const said = out.find((f) => (f.code === 'effect_not_logged' || ('shortfall' in core_findings/* FINDINGS */.TG[f.code] && claim.level === required)) && f.severity === 'error');
        why = said ? `see ${said.code} (the same reason)` : whyNotReached(outcome, required);
        if (!said && coverage.kind === 'uncovered')
            why = `${why}; no export covers this call's time`;
    }
    const severity = requirement.mode === 'warn' ? 'warning' : 'error';
    const warned = requirement.mode === 'warn' ? ' (mode warn: it would fail under enforce)' : '';
    out.push((0,core_findings/* finding */.gk)('policy_unmet', input.loc, `${where}: ${name} requires ${required}; earned ${level}: ${why}${warned}`, severity));
    return out;
}
/** A shortfall reported suppressed: one an exception excuses, or one of a grandfathered run. */
function suppressedOf(call, outcome, requirement, shortfall) {
    const level = outcome.level;
    if (level === null)
        return null;
    const where = callTitle(call);
    if (shortfall.kind === 'excused') {
        const e = shortfall.exception;
        return {
            message: `${where}: ${requirementName(requirement)} requires ${requirement.level}; earned ${level}`,
            severity: requirement.mode === 'warn' ? 'warning' : 'error',
            justification: `exception at ${(0,core_findings/* placeOf */.$t)(e.at)} (owner ${(0,core_text/* quote */.hD)(e.owner, 100)}, until ${e.expiresText}): ${(0,core_text/* quote */.hD)(e.reason, 300)}`,
        };
    }
    const shadow = requirement.shadow;
    if (!shadow || !(0,vocabulary/* below */.Gz)(level, shadow.level))
        return null;
    const name = shadow.rule ? requirementName({ ...requirement, rule: shadow.rule }) : "the policy's default";
    return {
        message: `${where}: ${name} requires ${shadow.level}; earned ${level}`,
        severity: shadow.rule?.mode === 'warn' ? 'warning' : 'error',
        justification: `grandfathered run: ${(0,core_text/* quote */.hD)(shadow.reason, 300)}`,
    };
}
/**
 * A call's report line with its findings.
 * @param read the findings its decision already has (its claim's shape and consistency)
 */
function judgeCall(call, outcome, requirement, shortfall, options, read, coverage) {
    const { claim, input } = call;
    const level = outcome.level;
    const subject = input.projection.kind === 'subject' ? input.projection.digest : null;
    const own = callFindings(call, outcome, requirement, shortfall, options, subject, coverage);
    const findings = read.length === 0 ? own : [...read, ...own];
    if (findings.length > 1)
        findings.sort(core_findings/* compareFindings */.Eg);
    const record = outcome.level === 'verified' ? outcome.record.input : null;
    return {
        artifact: call.run.artifact,
        index: input.index,
        line: input.loc.line,
        column: input.loc.column,
        member: input.loc.member ?? null,
        tool: input.tool,
        asserted: claim.asserted,
        claimed_level: level === null ? null : claim.level,
        level,
        required_level: requirement.level,
        subject_digest: subject,
        record: record
            ? { file: record.loc.file, line: record.loc.line, provider: record.record.provider, record_id: record.record.record_id }
            : null,
        reason: outcomeText(outcome),
        rule: requirement.rule?.name ?? null,
        mode: requirement.mode,
        excepted: shortfall.kind === 'excused' ? (0,core_findings/* placeOf */.$t)(shortfall.exception.at) : null,
        grandfathered: requirement.grandfathered,
        time: input.time === null ? null : (0,core_time/* rfc3339 */.ag)(input.time),
        coverage: coverage.kind === 'covered' || coverage.kind === 'not_logged'
            ? { status: 'covered', statement: { file: coverage.statement.loc.file, line: coverage.statement.loc.line } }
            : coverage.kind === 'pending'
                ? { status: 'pending', statement: coverage.latest ? { file: coverage.latest.loc.file, line: coverage.latest.loc.line } : null }
                : null,
        findings,
        below_required: shortfall.kind === 'short' && requirement.mode !== 'warn',
        warned: shortfall.kind === 'short' && requirement.mode === 'warn',
        pending: coverage.kind === 'pending',
        effect_not_logged: coverage.kind === 'not_logged',
        suppressed: suppressedOf(call, outcome, requirement, shortfall),
    };
}
/** The words of a record's finding (the code comes from the outcome table). */
function recordMessage(verdict, name) {
    if (verdict.outcome === 'bound')
        return null;
    if (verdict.outcome === 'unmatched')
        return `${name} binds no call: ${unmatchedText(verdict.why, verdict.record)}. ${UNDECLARED}`;
    const check = verdict.record.check;
    switch (check.outcome) {
        case 'inconsistent':
            return `${name}: ${check.reason}`;
        case 'untrusted':
            return `${name} is not from a trusted signer: ${check.reason}; it verifies no call`;
        case 'imported_twice':
            return `${name} is the same audit entry as the record at ${(0,core_findings/* placeOf */.$t)(check.first.loc)} (same identity, same subject and binding_digest): counted once`;
        case 'duplicate':
            return `${name} shares (provider, record_id) with the record at ${(0,core_findings/* placeOf */.$t)(check.other.loc)}, whose subject differs: one identity names one audit entry, so neither verifies a call`;
    }
}
/** A workflow identity as the report names it. */
const workflowTrust = (w) => ({
    identity: w.identity,
    source_repository: w.sourceRepository,
    source_ref: w.sourceRef,
    issuer: w.issuer,
    signed_at: w.signedAt,
});
/** A record's report line, and the finding of a record that does not bind a call. */
function judgeRecord(verdict, options) {
    const { record, loc, signer } = verdict.record.input;
    const name = `record ${JSON.stringify((0,core_text/* quote */.hD)(record.record_id))} (${(0,core_text/* quote */.hD)(record.provider)})`;
    const code = vocabulary/* RECORD_OUTCOMES */.mG[verdict.outcome].finding;
    const message = recordMessage(verdict, name);
    const severity = verdict.outcome === 'unmatched' && options.allowUnmatchedRecords ? 'warning' : undefined;
    const holder = verdict.outcome === 'bound' ? verdict.call : null;
    const trust = verdict.record.input.trust;
    const by = trust.kind === 'trusted' && trust.by.kind === 'identity' ? trust.by.signer : undefined;
    return {
        report: {
            file: loc.file,
            line: loc.line,
            column: loc.column,
            provider: record.provider,
            record_id: record.record_id,
            outcome: verdict.outcome,
            binding_digest: record.binding_digest,
            recomputed_digest: verdict.record.check.recomputed,
            signer,
            untrusted: verdict.record.check.outcome === 'untrusted' ? verdict.record.check.reason : null,
            untrusted_code: verdict.record.check.outcome === 'untrusted' ? verdict.record.check.code : null,
            call: holder ? { artifact: holder.run.artifact, index: holder.input.index, line: holder.input.loc.line } : null,
            ...(by ? { trusted_by: workflowTrust(by) } : {}),
        },
        finding: code !== null && message !== null ? (0,core_findings/* finding */.gk)(code, loc, message, severity) : null,
    };
}

;// CONCATENATED MODULE: ./src/core/verify.ts
/**
 * verify(evidence, options) → Report: the whole contract of docs/verification-semantics.md as one
 * pure function, and the only path from evidence to a verdict. No I/O: readers hand in located
 * values, reporters render the result. The rules live in their own modules: the binding
 * (binding.ts, projection.ts), claims (claims.ts), records (records.ts), the allocation
 * (allocation.ts), the ladder (ladder.ts), diagnoses (diagnose.ts), required levels (policy.ts) and
 * the verdicts (verdicts.ts); the counts come from the vocabularies (vocabulary.ts, findings.ts).
 */














/** The calls of one run, with the findings their claims make on their own (shape, consistency). */
function callsOf(run, first, read) {
    return run.decisions.map((input, i) => {
        const reading = input.claim;
        const order = first + i;
        if (reading.kind === 'invalid') {
            const claim = { asserted: false, level: 'asserted', digest: null, legacy: false };
            const call = { order, run, input, claim, eligibility: { ok: false, reason: reading.reason } };
            read.set(call, [(0,core_findings/* finding */.gk)('invalid_artifact', input.loc, `decision ${input.index}: ${reading.reason}`)]);
            return call;
        }
        const call = { order, run, input, claim: reading.claim, eligibility: eligibility(input, reading.claim) };
        if (reading.inconsistencies.length > 0) {
            read.set(call, reading.inconsistencies.map((why) => (0,core_findings/* finding */.gk)('inconsistent_claim', input.loc, `decision ${input.index}: ${why}`)));
        }
        return call;
    });
}
/** The weakest level among calls that assert a side effect (§9); null when none does. */
function weakest(calls) {
    let w = null;
    for (const c of calls)
        if (c.level !== null && (w === null || (0,vocabulary/* below */.Gz)(c.level, w)))
            w = c.level;
    return w;
}
function count(keys) {
    const map = new Map();
    for (const k of keys)
        map.set(k, (map.get(k) ?? 0) + 1);
    return map;
}
/** A record's report with the other places one entry exported twice was found. */
function withCopies(record, copies) {
    return {
        file: record.file,
        line: record.line,
        column: record.column,
        provider: record.provider,
        record_id: record.record_id,
        outcome: record.outcome,
        binding_digest: record.binding_digest,
        recomputed_digest: record.recomputed_digest,
        signer: record.signer,
        untrusted: record.untrusted,
        untrusted_code: record.untrusted_code,
        call: record.call,
        ...(record.trusted_by ? { trusted_by: record.trusted_by } : {}),
        also_at: copies.map((c) => ({ file: c.loc.file, line: c.loc.line, column: c.loc.column })),
    };
}
/** The totals, member by member in the JSON order; `copies`: second copies of one entry, counted once in `records` (§3.2). */
function tallyTotals(runs, calls, records, findings, copies) {
    const levels = count(calls.map((c) => c.level ?? 'no_effect'));
    const outcomes = count(records.map((r) => r.outcome));
    const severities = count(findings.map((f) => f.severity));
    const totals = { artifacts: runs, calls: calls.length };
    for (const l of vocabulary/* LEVELS_DESCENDING */.lS)
        totals[l] = levels.get(l) ?? 0;
    totals['no_effect'] = levels.get('no_effect') ?? 0;
    totals['weakest_level'] = weakest(calls);
    totals['policy_unmet'] = calls.filter((c) => c.below_required).length;
    totals['policy_warned'] = calls.filter((c) => c.warned).length;
    totals['excepted'] = calls.filter((c) => c.excepted !== null).length;
    totals['grandfathered'] = calls.filter((c) => c.grandfathered).length;
    totals['pending'] = calls.filter((c) => c.pending).length;
    totals['effect_not_logged'] = calls.filter((c) => c.effect_not_logged).length;
    totals['records'] = records.length;
    for (const o of vocabulary/* RECORD_OUTCOME_NAMES */.Kc)
        totals[o] = outcomes.get(o) ?? 0;
    totals['imported_twice'] = copies;
    for (const s of severity/* SEVERITIES */.oC)
        totals[severity/* SEVERITY_TABLE */.ps[s].total] = severities.get(s) ?? 0;
    return totals;
}
/** A run's producer as the report names it (§10). */
function producerOf(attestation) {
    if (!attestation || attestation.kind === 'none' || attestation.kind === 'unattested')
        return null;
    if (attestation.kind === 'unchecked')
        return { key_id: attestation.keyId, name: attestation.name, version: attestation.version, checked: false };
    if (attestation.by.kind === 'identity')
        return {
            key_id: null,
            name: attestation.name,
            version: attestation.version,
            checked: true,
            identity: workflowTrust(attestation.by.signer),
        };
    return { key_id: attestation.by.keyId, name: attestation.name, version: attestation.version, checked: true };
}
/** The statements as the report lists them, in file order: each usable one, an untrusted one with its code, a second copy naming the first. */
function statementReports(statements, coverage) {
    const usable = new Set(coverage.usable);
    const sorted = [...statements].sort((a, b) => (0,core_findings/* byLocation */.HC)(a.loc, b.loc));
    return sorted.map((s) => {
        const st = s.statement;
        const first = usable.has(s) || s.trust.kind === 'untrusted' ? null : coverage.usable.find((u) => sameExport(u.statement, st));
        return {
            file: s.loc.file,
            line: s.loc.line,
            column: s.loc.column,
            provider: st.provider,
            export: st.export,
            actors: st.actors,
            repos: st.repos,
            owner: st.owner,
            actions: st.actions,
            since: (0,core_time/* rfc3339 */.ag)(st.since),
            until: (0,core_time/* rfc3339 */.ag)(st.until),
            usable: usable.has(s),
            untrusted_code: s.trust.kind === 'untrusted' ? s.trust.code : null,
            ...(first ? { same_as: { file: first.loc.file, line: first.loc.line } } : {}),
        };
    });
}
/** The start of the epoch: the verification time of a caller that gave none (tests of the core that judge no time). */
const EPOCH = { seconds: 0, fraction: '' };
function verify(evidence, options) {
    const policy = options.policy ?? policy_NO_POLICY;
    const runs = [...evidence.runs].sort((a, b) => (0,core_text/* cmp */.r2)(a.artifact, b.artifact));
    const records = checkRecords([...evidence.records].sort((a, b) => (0,core_findings/* byLocation */.HC)(a.loc, b.loc)));
    const read = new Map();
    let first = 0;
    const perRun = runs.map((run) => {
        const calls = callsOf(run, first, read);
        first += calls.length;
        return calls;
    });
    const climbed = climb(perRun, records);
    const now = options.now ?? EPOCH;
    const requirements = new Requirements(policy, now, runs);
    const coverage = new Coverage(evidence.statements ?? [], policy.pendingSeconds, options.now ?? null);
    const NONE = [];
    const runReports = [];
    const callReports = [];
    for (const [i, own] of perRun.entries()) {
        const mine = own.map((call) => {
            const outcome = item(climbed.outcomes, call.order);
            const requirement = requirements.of(call);
            const covered = coverageVerdict(coverage.of(call, call.input.time), outcome);
            // A pending call's requirement waits for its export (docs/coverage.md §3): it is not measured yet.
            const shortfall = covered.kind === 'pending' ? { kind: 'met' } : requirements.measure(call, requirement, outcome);
            return judgeCall(call, outcome, requirement, shortfall, options, read.get(call) ?? NONE, covered);
        });
        const run = item(runs, i);
        const attestation = run.attestation;
        runReports.push({
            artifact: run.artifact,
            calls: mine.length,
            weakest_level: weakest(mine),
            producer: producerOf(attestation),
            unattested_code: attestation?.kind === 'unattested' ? attestation.code : null,
        });
        for (const c of mine)
            callReports.push(c);
    }
    const seen = classesOf(perRun.flat());
    const findings = [...evidence.findings, ...requirements.findings((rule) => unusedRequireRule(rule, seen))];
    for (const run of runs) {
        if (run.attestation?.kind === 'unattested') {
            const why = `run ${(0,core_text/* quote */.hD)(run.artifact)} is not attested by a trusted producer: ${run.attestation.reason}; its calls are judged, and the gate fails`;
            findings.push((0,core_findings/* finding */.gk)('run_unattested', { file: run.artifact, line: 1, column: 1 }, why));
        }
    }
    for (const c of callReports)
        for (const f of c.findings)
            findings.push(f);
    const statements = statementReports(evidence.statements ?? [], coverage);
    for (const s of evidence.statements ?? [])
        if (s.trust.kind === 'untrusted')
            findings.push((0,core_findings/* finding */.gk)('record_untrusted', s.loc, `coverage statement (${(0,core_text/* quote */.hD)(s.statement.export, 40)}, ${windowText(s.statement)}) is not from a trusted signer: ${s.trust.reason}; it covers nothing`));
    // One audit entry exported twice is one record (§3.2): each copy becomes another place of the first.
    const copies = new Map();
    for (const v of climbed.records) {
        const check = v.record.check;
        if (check.outcome !== 'imported_twice')
            continue;
        const list = copies.get(check.first) ?? [];
        list.push(v.record.input);
        copies.set(check.first, list);
    }
    const recordReports = [];
    for (const v of climbed.records) {
        const judged = judgeRecord(v, options);
        if (judged.finding)
            findings.push(judged.finding);
        if (v.record.check.outcome === 'imported_twice')
            continue;
        const also = copies.get(v.record.input);
        recordReports.push(also ? withCopies(judged.report, also) : judged.report);
    }
    findings.sort(core_findings/* compareFindings */.Eg);
    const totals = tallyTotals(runs.length, callReports, recordReports, findings, [...copies.values()].reduce((n, l) => n + l.length, 0));
    return {
        schema: REPORT_SCHEMA,
        ok: totals.errors === 0,
        verified_at: (0,core_time/* rfc3339 */.ag)(now),
        policy: {
            ...(policy.source ? { source: policy.source } : {}),
            rules: policy.rules.map(ruleJson),
            ...(policy.kind === 'file'
                ? {
                    default: policy.defaultLevel,
                    pending: policy.pendingSeconds,
                    exceptions: policy.exceptions.length,
                    grandfathered: policy.grandfathered.length,
                }
                : {}),
            trusted_signers: evidence.trustedSigners ?? [],
            trusted_producers: evidence.trustedProducers ?? [],
            allow_unmatched_records: options.allowUnmatchedRecords,
            strict_observed: options.strictObserved,
            ...(evidence.identities
                ? {
                    identities: {
                        trusted_signer_identities: evidence.identities.signers,
                        trusted_producer_identities: evidence.identities.producers,
                        source_repository: evidence.identities.sourceRepository,
                        source_refs: evidence.identities.sourceRefs,
                        certificate_oidc_issuer: evidence.identities.issuer,
                        ...(evidence.identities.roots ? { trusted_roots: evidence.identities.roots } : {}),
                    },
                }
                : {}),
        },
        runs: runReports,
        calls: callReports,
        records: recordReports,
        coverage: statements,
        coverage_gaps: coverage.gaps().map((g) => ({ ...g, from: (0,core_time/* rfc3339 */.ag)(g.from), to: (0,core_time/* rfc3339 */.ag)(g.to) })),
        findings,
        totals,
    };
}

// EXTERNAL MODULE: ./src/core/trust.ts
var core_trust = __nccwpck_require__(9597);
;// CONCATENATED MODULE: ./src/trust/checkers/identities.ts
/**
 * Signer and producer identities (docs/keyless.md): the `<file>.sigstore.json` beside an audit export
 * or a run, checked against the trust set's workflow identities with the Sigstore layer
 * (trust/sigstore.ts), which is loaded only when an identity is configured: the gate's cold start
 * does not pay for it. The trusted roots are parsed once per thread from the same bytes the gate read.
 */




/** The predicate types of keyless attestations (docs/predicates/). */
const RECORDS_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/records-v1.md';
const RUN_V1 = 'https://github.com/receipt-gate/receipt-gate/blob/main/docs/predicates/run-v1.md';
const isObjectPredicate = (p) => ((0,json/* isObject */.G)(p) ? { ok: true } : { ok: false, reason: 'the predicate is not an object' });
/** The roots of a set-up, parsed once per thread (the gate parses them first, so a root that cannot be used stops it before any file). */
const loaded = new WeakMap();
let publicGood = null;
function rootsOf(source, limits) {
    const load = async () => (await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434))).rootsFrom(source, limits);
    if (source === null)
        return (publicGood ??= load());
    let made = loaded.get(source);
    if (!made)
        loaded.set(source, (made = load()));
    return made;
}
/** What a file's Statement must name as its predicate type (and check of its predicate), by what the file is. */
function predicateFor(file) {
    if (file.role === 'audit')
        return { type: RECORDS_V1, check: isObjectPredicate };
    if ((0,formats/* formatOf */.be)(file.rel) !== 'bundle')
        return { type: RUN_V1, check: isObjectPredicate };
    const facts = file.read.bundle;
    if (!facts)
        return (0,core_trust/* refused */.J5)('statement_mismatch', 'the bundle does not verify');
    return { type: EVIDENCE_BUNDLE_V1, check: (p) => checkBundlePredicate(p, facts) };
}
async function decide(file, policy, source, limits) {
    const beside = file.sigstore;
    const name = (0,formats/* sigstoreOf */.MA)(file.rel);
    if (beside.kind === 'none')
        return (0,core_trust/* refused */.J5)('no_attestation', `no attestation (no ${(0,formats/* sigstoreOf */.MA)(file.rel.split('/').pop() ?? file.rel)} beside it)`);
    if (beside.kind === 'refused')
        return (0,core_trust/* refused */.J5)('attestation_malformed', `${name}: ${beside.reason}`);
    const predicate = predicateFor(file);
    if ('kind' in predicate)
        return predicate;
    const roots = await rootsOf(source, limits);
    // The gate loaded these same bytes before anything was read: if they fail here, so does the file.
    if (!roots.ok)
        return (0,core_trust/* refused */.J5)('attestation_malformed', `the trusted root cannot be used: ${roots.reason}`);
    const sigstore = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
    const sha256 = file.read.sha256 ?? '';
    const checked = sigstore.checkBundles(beside.file, { subject: { name: file.rel, sha256 }, policy, roots: roots.value, predicate }, limits);
    if (!checked.ok)
        return (0,core_trust/* refused */.J5)(checked.reason.code, checked.reason.detail);
    return { kind: 'trusted', by: { kind: 'identity', signer: checked.value } };
}
/** The identity checkers a set-up configures: the signers' (audit exports) and the producers' (runs). */
function identityCheckers(setup, limits) {
    const checker = (role, policy) => ({
        role,
        async check(file) {
            const decision = await decide(file, policy, setup.roots, limits);
            return role === 'audit' ? { kind: 'file', decision } : { kind: 'run', decision };
        },
    });
    return [...(setup.signers ? [checker('audit', setup.signers)] : []), ...(setup.producers ? [checker('runs', setup.producers)] : [])];
}

;// CONCATENATED MODULE: ./src/trust/check.ts
/**
 * The trust check of a signed record (§8, docs/records-provenance.md): with trusted keys, a record
 * is trusted only when its well-formed signature member names a trusted key, its signed payload
 * digest is sha256(P), and the Ed25519 signature over PAE(payload_type, P) verifies. Each refusal
 * has its code and its words. Verifications run on libuv's thread pool, at most WINDOW at once per
 * thread (memory stays bounded and file reads on the same pool are not starved), while the thread
 * goes on reading the next file.
 */




/** Most Ed25519 verifications queued on libuv's pool at once, per thread. */
const WINDOW = 4096;
let running = 0;
const waiting = [];
/** An Ed25519 verification on libuv's thread pool, when the window has room; false for a signature that cannot be one. */
async function verifyOnPool(data, key, signature) {
    if (running >= WINDOW)
        await new Promise((resolve) => waiting.push(resolve));
    running++;
    try {
        return await new Promise((resolve) => {
            try {
                (0,external_node_crypto_.verify)(null, data, key, signature, (err, ok) => resolve(!err && ok));
            }
            catch {
                resolve(false);
            }
        });
    }
    finally {
        running--;
        waiting.shift()?.();
    }
}
/** A signed entry's trust check (§8; a record or a coverage statement): its signer among the trusted keys, its payload digest, then its Ed25519 signature over PAE(its payload type, P). */
async function checkRecordSignature(member, payload, keys) {
    if (!member || payload === undefined)
        return (0,core_trust/* refused */.J5)('unsigned', 'unsigned');
    const key = keys.get(member.key_id);
    if (!key)
        return (0,core_trust/* refused */.J5)('unknown_signer', `unknown signer ${member.key_id}`);
    const bytes = Buffer.from(payload, 'utf8');
    if ((0,binding/* sha256Digest */.sI)(bytes) !== member.signed_payload_digest)
        return (0,core_trust/* refused */.J5)('payload_digest_differs', 'payload digest differs');
    const ok = await verifyOnPool((0,signature/* pae */.Zg)(member.payload_type, bytes), key, Buffer.from(member.signature, 'base64'));
    return ok ? { kind: 'trusted', by: { kind: 'key', keyId: member.key_id } } : (0,core_trust/* refused */.J5)('signature_invalid', 'signature does not verify');
}

// EXTERNAL MODULE: ./src/trust/refusal.ts
var refusal = __nccwpck_require__(2510);
;// CONCATENATED MODULE: ./src/trust/envelope.ts
/**
 * Checking a DSSE envelope against trusted keys, in the order docs/attestations.md gives: the
 * payload type first (a key that signed the same bytes under another type must not pass), then the
 * signatures: every signature against every trusted key, trusted when one pair verifies (keyid is
 * never relied on). Reasons: `payload type …`, `unknown … sha256:…` (no signature's keyid names a
 * trusted key), `signature does not verify`.
 */




/** The key_id of the trusted key that verified the envelope, or why none did; each Ed25519 verification on libuv's thread pool (the path record signatures take). */
async function checkEnvelopeAsync(envelope, payloadType, keys, who) {
    if (envelope.payloadType !== payloadType)
        return (0,refusal/* refuse */.T)('payload_type', `payload type is ${JSON.stringify(envelope.payloadType.slice(0, 100))}, not ${payloadType}`);
    const data = (0,signature/* pae */.Zg)(payloadType, envelope.payload);
    const tries = [];
    for (const s of envelope.signatures) {
        for (const [keyId, key] of keys) {
            tries.push(verifyOnPool(data, key, s.sig).then((ok) => (ok ? keyId : null)));
        }
    }
    const verified = (await Promise.all(tries)).find((k) => k !== null);
    if (verified)
        return { ok: true, value: verified };
    if (!envelope.signatures.some((s) => keys.has(s.keyid)))
        return (0,refusal/* refuse */.T)('unknown_signer', `unknown ${who} ${(0,core_text/* quote */.hD)(envelope.signatures[0]?.keyid || '(no keyid)')}`);
    return (0,refusal/* refuse */.T)('signature_invalid', 'signature does not verify');
}

;// CONCATENATED MODULE: ./src/trust/checkers/producer-keys.ts
/**
 * Producer keys (semantics §10, docs/attestations.md §1): with trusted producers, a run is attested
 * only when it is an evidence bundle whose `<bundle>.intoto.jsonl` holds an envelope that passes
 * every check with a trusted key, in upstream's order: payload type, signature, strict payload, then
 * the Statement against the verified bundle. Each refusal has its code.
 */





async function checkOne(envelope, facts, keys, limits) {
    const signed = await checkEnvelopeAsync(envelope, read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, keys, 'producer');
    if (!signed.ok)
        return (0,core_trust/* refused */.J5)(signed.reason.code, signed.reason.detail);
    const payload = (0,read_envelope/* strictPayload */.iv)(envelope.payload, limits);
    if (!payload.ok)
        return (0,core_trust/* refused */.J5)('statement_mismatch', payload.reason);
    const statement = checkBundleStatement(payload.value, facts);
    if (!statement.ok)
        return (0,core_trust/* refused */.J5)('statement_mismatch', statement.reason);
    return { kind: 'trusted', by: { kind: 'key', keyId: signed.value } };
}
const producerKeys = (keys, limits) => ({
    role: 'runs',
    async check(file) {
        const decision = async () => {
            if ((0,formats/* formatOf */.be)(file.rel) !== 'bundle')
                return (0,core_trust/* refused */.J5)('not_a_bundle', 'not an evidence bundle: JSON surfaces and server logs cannot be attested by a producer key');
            const sidecar = file.dsse;
            if (sidecar.kind === 'none')
                return (0,core_trust/* refused */.J5)('no_attestation', 'no attestation (no <bundle>.intoto.jsonl sidecar beside it)');
            if (sidecar.kind === 'empty')
                return (0,core_trust/* refused */.J5)('attestation_empty', 'no attestation: the sidecar holds no envelope');
            if (sidecar.kind === 'malformed')
                return (0,core_trust/* refused */.J5)('attestation_malformed', 'the attestation sidecar is malformed (see its invalid_artifact finding)');
            const envelopes = sidecar.envelopes;
            let first = null;
            for (const e of envelopes) {
                const decision = await checkOne(e, file.read.bundle ?? null, keys, limits);
                if (decision.kind === 'trusted')
                    return decision;
                if (decision.kind === 'untrusted')
                    first ??=
                        envelopes.length > 1
                            ? (0,core_trust/* refused */.J5)(decision.code, `${decision.detail} (envelope at line ${e.loc.line}; none of ${envelopes.length} passes)`)
                            : decision;
            }
            return first ?? (0,core_trust/* refused */.J5)('attestation_empty', 'no attestation: the sidecar holds no envelope');
        };
        return { kind: 'run', decision: await decision() };
    },
});

;// CONCATENATED MODULE: ./src/trust/checkers/record-keys.ts
/**
 * Record keys (§8, docs/records-provenance.md): every record of an audit export, and every coverage
 * statement among them, is trusted only when a trusted key signed it. One decision per record; the Ed25519 checks run on libuv's pool (check.ts).
 */

const recordKeys = (keys) => ({
    role: 'audit',
    async check(file) {
        const decisions = await Promise.all(file.read.entries.map((r) => checkRecordSignature(r.signature ?? null, r.payload, keys)));
        return { kind: 'records', decisions };
    },
});

;// CONCATENATED MODULE: ./src/trust/checkers/shape-only.ts
/**
 * Shape only: when no producer key is configured, a well-formed `<bundle>.intoto.jsonl` is reported
 * with the signer it names, not checked (the report's producer, `checked: false`). Its shape was
 * checked when it was read (gate/evidence.ts): garbage is never ignored.
 */

const shapeOnly = {
    role: 'runs',
    async check(file) {
        const first = file.dsse.kind === 'envelopes' ? file.dsse.envelopes[0]?.signatures[0] : undefined;
        return { kind: 'run', decision: first ? { kind: 'unchecked', keyId: first.keyid } : core_trust/* NONE */.x3 };
    },
};

;// CONCATENATED MODULE: ./src/gate/evidence.ts
/**
 * One input file, with everything beside it, is the unit of work. `readEvidence` runs on whichever
 * thread reads the file (gate/readers.ts): it reads and binds the file, finds its sidecars once (one
 * look, one refusal each: `<bundle>.intoto.jsonl`, `<file>.sigstore.json`, their shapes always
 * checked), runs every configured trust checker of its role (src/trust/checkers/), and returns core
 * input with trust decided. Signatures and payloads stay on this thread; what leaves is decisions.
 */











/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const failed = (rel, message) => ({
    run: null,
    records: [],
    statements: [],
    findings: [(0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
    digests: [],
});
/** Key material of trusted keys (what crosses to a worker). */
const keyMaterial = (keys) => keys === null ? null : [...keys].map(([keyId, key]) => ({ keyId, spki: key.export({ type: 'spki', format: 'der' }).toString('base64') }));
const keysOf = (material) => new Map(material.map((m) => [m.keyId, (0,external_node_crypto_.createPublicKey)({ key: Buffer.from(m.spki, 'base64'), format: 'der', type: 'spki' })]));
/** The checkers of a set-up, in the order their refusals are told: keys, then identities; made once per thread. */
const made = new WeakMap();
function checkersOf(setup) {
    let list = made.get(setup);
    if (list)
        return list;
    const { trust, limits } = setup;
    list = [
        ...(trust.recordKeys ? [recordKeys(keysOf(trust.recordKeys))] : []),
        ...(trust.producerKeys ? [producerKeys(keysOf(trust.producerKeys), limits)] : [shapeOnly]),
        ...(trust.identities ? identityCheckers(trust.identities, limits) : []),
    ];
    made.set(setup, list);
    return list;
}
/** Whether identities of this role are configured (then a file's sha256 is needed, and its bundle is checked, not only shaped). */
const identitiesFor = (setup, role) => setup.trust.identities !== null && (role === 'audit' ? setup.trust.identities.signers : setup.trust.identities.producers) !== null;
/** A bundle's `<bundle>.intoto.jsonl`, read once; its shape checked whatever is configured. */
function readDsse(task, setup, out) {
    if (task.role !== 'runs' || (0,formats/* formatOf */.be)(task.file.rel) !== 'bundle')
        return { kind: 'none' };
    const rel = (0,formats/* sidecarOf */.hQ)(task.file.rel);
    const got = (0,read_files/* readBeside */.ri)((0,formats/* sidecarOf */.hQ)(task.file.path), 'the attestation sidecar', setup.workspace, setup.limits);
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, got.reason));
        return { kind: 'malformed' };
    }
    if (setup.digest)
        out.digests.push([rel, (0,binding/* sha256Hex */.fg)(got.bytes)]);
    const read = (0,read_envelope/* readEnvelopeFile */.f_)(rel, got.bytes, setup.limits);
    for (const f of read.findings)
        out.findings.push(f);
    if (read.findings.length > 0)
        return { kind: 'malformed' };
    if (read.empty) {
        if (setup.trust.producerKeys === null)
            out.findings.push((0,core_findings/* finding */.gk)('skipped_object', { file: rel, line: 1, column: 1 }, 'the attestation sidecar holds no envelope: it attests nothing'));
        return { kind: 'empty' };
    }
    return { kind: 'envelopes', envelopes: read.envelopes };
}
/** A file's `<file>.sigstore.json`, read once; its shape checked always (garbage is never ignored), its bundles checked by identity when its role has identities. */
async function readSigstore(task, setup, out) {
    const rel = (0,formats/* sigstoreOf */.MA)(task.file.rel);
    const at = { file: rel, line: 1, column: 1 };
    const got = (0,read_files/* readBeside */.ri)((0,formats/* sigstoreOf */.MA)(task.file.path), 'the Sigstore bundle', setup.workspace, setup.limits);
    if (got.kind === 'none')
        return got;
    if (got.kind === 'refused') {
        out.findings.push((0,core_findings/* finding */.gk)('invalid_artifact', at, got.reason));
        return { kind: 'refused', reason: got.reason };
    }
    if (setup.digest)
        out.digests.push([rel, (0,binding/* sha256Hex */.fg)(got.bytes)]);
    const sigstore = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
    const file = sigstore.readSigstoreFile(rel, got.bytes, setup.limits);
    for (const f of file.findings)
        out.findings.push(f);
    if (file.findings.length === 0 && !identitiesFor(setup, task.role)) {
        const flag = task.role === 'audit' ? '--trusted-signer-identity' : '--trusted-producer-identity';
        out.findings.push((0,core_findings/* finding */.gk)('skipped_object', at, `${file.bundles.length} Sigstore bundle(s), not checked: no trusted identities for this file (${flag})`));
    }
    return { kind: 'read', file };
}
/** A record's trust from the combined decision of its role's checkers (none configured: unchecked). */
function trustOf(decision) {
    if (decision.kind === 'trusted')
        return { kind: 'trusted', by: decision.by };
    if (decision.kind === 'untrusted')
        return { kind: 'untrusted', code: decision.code, reason: decision.detail };
    return { kind: 'unchecked' };
}
/** A run's attestation from the combined decision of its role's checkers. */
function attestationOf(decision, read) {
    const named = { name: read.bundle?.producer.name ?? null, version: read.bundle?.producer.version ?? null };
    if (decision.kind === 'trusted')
        return { kind: 'attested', by: decision.by, ...named };
    if (decision.kind === 'untrusted')
        return { kind: 'unattested', code: decision.code, reason: decision.detail };
    if (decision.kind === 'unchecked' && decision.keyId !== null)
        return { kind: 'unchecked', keyId: decision.keyId, ...named };
    return { kind: 'none' };
}
/** The decision a checker made for the i-th record (a file's decision holds for each). */
const forRecord = (c, i) => c.kind === 'records' ? (c.decisions[i] ?? { kind: 'none' }) : c.decision;
/** One file and everything beside it → what it contributes, trust decided. */
async function evidence_readEvidence(task, setup) {
    const { file, role } = task;
    const read = await (0,read_files/* readOne */.JF)(file, role, setup.limits, setup.digest || identitiesFor(setup, role));
    const out = { findings: [...read.findings], digests: [] };
    if (read.sha256 !== undefined)
        out.digests.push([file.rel, read.sha256]);
    const dsse = readDsse(task, setup, out);
    const sigstore = await readSigstore(task, setup, out);
    const judged = role === 'runs' ? read.run !== null : read.entries.length > 0;
    const checkers = judged ? checkersOf(setup).filter((c) => c.role === role) : [];
    const under = { path: file.path, rel: file.rel, role, read, dsse, sigstore };
    const decisions = await Promise.all(checkers.map((c) => c.check(under)));
    // Records and coverage statements are trusted alike (docs/coverage.md §1); they leave as two lists.
    const records = [];
    const statements = [];
    read.entries.forEach((entry, i) => {
        const trust = trustOf((0,core_trust/* combine */.kg)(decisions.map((c) => forRecord(c, i))));
        if (entry.kind === 'record')
            records.push({ loc: entry.loc, record: entry.record, signer: entry.signer, trust });
        else
            statements.push({ loc: entry.loc, statement: entry.statement, signer: entry.signer, trust });
    });
    const run = read.run
        ? {
            artifact: read.run.artifact,
            decisions: read.run.decisions,
            attestation: attestationOf((0,core_trust/* combine */.kg)(decisions.map((c) => forRecord(c, 0))), read),
            ...(read.sha256 === undefined ? {} : { sha256: read.sha256 }),
        }
        : null;
    return { run, records, statements, findings: out.findings, digests: out.digests };
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./src/read/wire.ts

const loc = (l, rel) => [l.file === rel ? null : l.file, l.line, l.column, l.member ?? null];
const unloc = (tuple, rel) => {
    const [written, line, column, member] = tuple;
    const file = written ?? rel;
    return member === null ? { file, line, column } : { file, line, column, member };
};
/** A member equal to the subject's (sent once; the decoded call holds one string for both, as the reader's does). */
const SAME = 1;
const subjectOf = (p) => (p.kind === 'subject' ? p : null);
const same = (v, subject) => (v !== null && v === subject ? SAME : v);
const claimTuple = (c, p) => c.kind === 'invalid'
    ? [0, c.reason]
    : [1, c.claim.asserted, c.claim.level, same(c.claim.digest, subjectOf(p)?.digest), c.claim.legacy, [...c.inconsistencies]];
const projectionTuple = (p) => p.kind === 'none' ? [0, p.reason] : [1, p.subject.action_class, p.subject.verb, p.subject.target, p.digest];
/** provider: 0 absent or null, 2 invalid, else the string (1 is unused, so a string never collides). */
const providerTuple = (p) => (p === null ? 0 : typeof p === 'string' ? p : 2);
const decisionTuple = (d, rel) => [
    ...loc(d.loc, rel),
    d.index,
    d.tool,
    claimTuple(d.claim, d.projection),
    projectionTuple(d.projection),
    same(d.actionClass, subjectOf(d.projection)?.subject.action_class),
    same(d.verb, subjectOf(d.projection)?.subject.verb),
    d.denied,
    providerTuple(d.provider),
    d.succeeded,
    d.labels,
    d.time === null ? null : [d.time.seconds, d.time.fraction],
];
const recordTuple = (r, rel) => [
    ...loc(r.loc, rel),
    r.record.provider,
    r.record.record_id,
    r.record.subject,
    r.record.binding_digest,
    r.signer,
    r.trust,
];
/** What a reading thread sends for one file. */
function wire_encodeRead(evidence, rel) {
    const wire = {
        run: evidence.run
            ? {
                artifact: evidence.run.artifact,
                decisions: evidence.run.decisions.map((d) => decisionTuple(d, rel)),
                attestation: evidence.run.attestation ?? null,
                sha256: evidence.run.sha256 ?? null,
            }
            : null,
        records: evidence.records.map((x) => recordTuple(x, rel)),
        statements: evidence.statements,
        findings: evidence.findings,
        digests: evidence.digests,
    };
    return JSON.stringify(wire);
}
/** Consistent claims share one empty list, as the reader's do. */
const NONE = Object.freeze([]);
const INVALID_PROVIDER = Object.freeze({ invalid: true });
function claimOf(t, projection) {
    if (t[0] === 0)
        return { kind: 'invalid', reason: t[1] };
    const [, asserted, level, sent, legacy, inconsistencies] = t;
    const subject = subjectOf(projection);
    // SAME is written only for a claim whose digest is its subject's: a subject is there.
    const digest = sent === SAME ? (subject?.digest ?? null) : sent;
    return { kind: 'claim', claim: { asserted, level, digest, legacy }, inconsistencies: inconsistencies.length ? inconsistencies : NONE };
}
function projectionOf(t) {
    if (t[0] === 0)
        return { kind: 'none', reason: t[1] };
    return { kind: 'subject', subject: { action_class: t[1], verb: t[2], target: t[3] }, digest: t[4] };
}
function decisionOf(tuple, rel) {
    const [, , , , index, tool, claim, projected, actionClass, verb, denied, provider, succeeded, labels, time] = tuple;
    const projection = projectionOf(projected);
    // SAME is written only for a member equal to the subject's: a subject is there.
    const subject = subjectOf(projection)?.subject ?? null;
    return {
        loc: unloc(tuple, rel),
        index,
        tool,
        claim: claimOf(claim, projection),
        projection,
        actionClass: actionClass === SAME ? (subject?.action_class ?? null) : actionClass,
        verb: verb === SAME ? (subject?.verb ?? null) : verb,
        denied,
        provider: provider === 0 ? null : provider === 2 ? INVALID_PROVIDER : provider,
        succeeded,
        labels,
        time: time === null ? null : { seconds: time[0], fraction: time[1] },
    };
}
function recordOf(t, rel) {
    const record = { schema: model/* RECORD_SCHEMA */.ep, provider: t[4], record_id: t[5], subject: t[6], binding_digest: t[7] };
    return { loc: unloc(t, rel), record, signer: t[8], trust: t[9] };
}
/** What a reading thread sent for the file `rel` (as encodeRead wrote it). */
function decodeRead(text, rel) {
    const w = JSON.parse(text);
    let run = null;
    if (w.run) {
        const { artifact, attestation, sha256 } = w.run;
        const decisions = w.run.decisions.map((d) => decisionOf(d, rel));
        run = {
            artifact,
            decisions,
            ...(attestation === null ? {} : { attestation }),
            ...(sha256 === null ? {} : { sha256 }),
        };
    }
    return { run, records: w.records.map((r) => recordOf(r, rel)), statements: w.statements, findings: w.findings, digests: w.digests };
}

;// CONCATENATED MODULE: ./src/gate/pool.ts



/**
 * Tasks given to one worker at once. The main thread hands out files only between its own reads (a
 * file read there is synchronous), so a worker must hold enough not to go idle meanwhile
 * (BENCHMARKS.md, "Reading on every core").
 */
const DEPTH = 4;
function pending() {
    let done;
    const promise = new Promise((r) => {
        done = r;
    });
    const p = {
        settled: false,
        promise,
        resolve(evidence) {
            p.settled = true;
            done(evidence);
        },
    };
    return p;
}
/** A file whose reading thread failed: an error on the file, so it is never verified and never skipped. */
const stopped = (rel, why) => failed(rel, `the thread reading this file stopped (${why}); it is not verified`);
class WorkerReaders {
    tasks;
    setup;
    start;
    results;
    /** Task indices largest file first: the order workers are given them. */
    order;
    next = 0;
    /** The smallest task not yet looked at from the far end (this thread reads from there while it waits). */
    last;
    /** Tasks held by a worker that died before reading them: given out again first. */
    retry = [];
    /** 1: given to a worker or read here. */
    taken;
    /** Each live worker → the task ids it holds, oldest (the one it is reading) first. */
    held = new Map();
    /** Workers whose reader loaded (one that ends before it did never read a file). */
    online = new Set();
    /** A worker could not be started: no more are, and this thread reads what is left. */
    broken = false;
    /** Wakes read() when tasks come back from a worker that never started. */
    wake = null;
    closing = false;
    /** @param workers threads besides this one (which reads, in path order, the files no worker has been given yet) */
    constructor(tasks, sizes, setup, workers, 
    /** Starts one worker with the reading set-up. */
    start) {
        this.tasks = tasks;
        this.setup = setup;
        this.start = start;
        this.results = tasks.map(pending);
        this.taken = new Uint8Array(tasks.length);
        this.order = tasks.map((_, i) => i).sort((a, b) => item(sizes, b) - item(sizes, a) || a - b);
        this.last = this.order.length - 1;
        for (let k = 0; k < workers; k++)
            this.spawn();
    }
    /**
     * The i-th result. A file no worker has been given yet is read here; while a worker's file is
     * awaited, this thread reads the smallest files nobody has taken (their results wait for their
     * turn), yielding between files so the workers' results come in and they are given more.
     */
    async read(i) {
        // Let the workers' results in first (each gives its worker its next file).
        await new Promise((r) => setImmediate(r));
        if (this.taken[i] === 0) {
            this.taken[i] = 1;
            return this.readHere(i);
        }
        const wanted = item(this.results, i);
        while (!wanted.settled) {
            // Given back by a worker that never started: read it here.
            if (this.taken[i] === 0) {
                this.taken[i] = 1;
                return this.readHere(i);
            }
            const j = this.takeSmallest();
            if (j !== undefined) {
                item(this.results, j).resolve(await this.readHere(j));
                await new Promise((r) => setImmediate(r));
            }
            else
                await new Promise((r) => {
                    this.wake = r;
                    void wanted.promise.then(() => r());
                });
        }
        return wanted.promise;
    }
    readHere(i) {
        return evidence_readEvidence(item(this.tasks, i), this.setup);
    }
    /** The smallest task nobody has taken (the far end of the workers' order). */
    takeSmallest() {
        while (this.last >= this.next) {
            const id = item(this.order, this.last--);
            if (this.taken[id] === 0) {
                this.taken[id] = 1;
                return id;
            }
        }
        return undefined;
    }
    /** The next task for a worker, or undefined when every task is taken (or workers cannot start). */
    take() {
        if (this.broken)
            return undefined;
        for (;;) {
            const id = this.retry.length > 0 ? this.retry.shift() : this.order[this.next++];
            if (id === undefined)
                return undefined;
            if (this.taken[id] === 0) {
                this.taken[id] = 1;
                return id;
            }
        }
    }
    spawn() {
        let worker;
        try {
            worker = this.start(this.setup);
        }
        catch {
            this.broken = true; // this thread reads every file no worker holds
            return;
        }
        this.held.set(worker, []);
        worker.on('message', (m) => {
            if ('ready' in m)
                this.online.add(worker);
            else
                this.done(worker, m);
        });
        let why = 'it exited';
        worker.on('error', (e) => {
            why = e instanceof Error ? e.message : String(e);
        });
        worker.on('exit', (code) => this.exited(worker, code === 0 ? why : `${why}, code ${code}`));
        this.feed(worker);
    }
    feed(worker) {
        const held = stored(this.held, worker);
        while (held.length < DEPTH) {
            const id = this.take();
            if (id === undefined)
                return;
            const t = item(this.tasks, id);
            held.push(id);
            worker.postMessage({ id, path: t.file.path, rel: t.file.rel, role: t.role });
        }
    }
    done(worker, m) {
        const held = stored(this.held, worker);
        held.splice(held.indexOf(m.id), 1);
        this.feed(worker);
        const rel = item(this.tasks, m.id).file.rel;
        item(this.results, m.id).resolve('text' in m ? decodeRead(m.text, rel) : stopped(rel, m.thrown));
    }
    /**
     * A worker ended. One that had started fails the file it was reading, and the ones queued behind
     * it go to a new worker; one that never started read nothing: its files come back to this thread,
     * and no more workers are started.
     */
    exited(worker, why) {
        const held = stored(this.held, worker);
        this.held.delete(worker);
        if (this.closing)
            return;
        if (!this.online.has(worker)) {
            this.broken = true;
            for (const id of held)
                this.taken[id] = 0;
            this.wake?.();
            return;
        }
        this.online.delete(worker);
        const [reading, ...rest] = held;
        if (reading !== undefined)
            item(this.results, reading).resolve(stopped(item(this.tasks, reading).file.rel, why));
        for (const id of rest)
            this.taken[id] = 0;
        this.retry.push(...rest);
        this.wake?.();
        if (!this.broken && (this.retry.length > 0 || this.next < this.order.length))
            this.spawn();
    }
    async close() {
        this.closing = true;
        await Promise.all([...this.held.keys()].map((w) => w.terminate()));
    }
}
/**
 * The worker side: read each task in turn (one file's bytes at a time in this thread's buffer), and
 * send back its encoded result once its checks are done; a file's checks finish while the next is read.
 */
function serveReads(port, setup) {
    port.postMessage({ ready: true });
    let chain = Promise.resolve();
    const reply = (id, got, rel) => {
        got.then((r) => port.postMessage({ id, text: encodeRead(r, rel) }), (e) => port.postMessage({ id, thrown: e instanceof Error ? e.message : String(e) }));
    };
    port.on('message', (t) => {
        chain = chain.then(() => {
            reply(t.id, readEvidence({ file: { path: t.path, rel: t.rel }, role: t.role }, setup), t.rel);
            return new Promise((resolve) => setImmediate(resolve));
        });
    });
}

;// CONCATENATED MODULE: ./src/gate/readers.ts
/**
 * Where input files are read: on the main thread, or on worker threads too (gate/pool.ts) for a
 * large input. Each file is one unit of work (gate/evidence.ts) wherever it is read, and the gate
 * takes the results in path order (`read(i)`), so the report does not depend on which file finished
 * first. This module decides how many threads read (`jobs`, the input's weight).
 */







/**
 * Files read ahead of the one asked for on the main thread: a file's signature checks run on libuv's
 * pool (trust/check.ts) while the next files are read, so reading and checking overlap; the results
 * are held until they are asked for, which the gate does at once (it keeps every file's evidence for
 * the core anyway).
 */
const AHEAD = 64;
/** The main thread's reader: the files in path order, read ahead while earlier files' signatures are checked. */
function inlineReaders(tasks, setup) {
    const started = [];
    /** 1: the file's reading has begun (its result may already have been taken). */
    const begun = new Uint8Array(tasks.length);
    const start = (k) => {
        const task = tasks[k];
        if (task && begun[k] === 0) {
            begun[k] = 1;
            started[k] = evidence_readEvidence(task, setup);
        }
    };
    return {
        async read(i) {
            start(i);
            // Each file read ahead runs up to its first wait (its checks), letting those of earlier files finish meanwhile.
            for (let k = i + 1; k < Math.min(tasks.length, i + 1 + AHEAD) && begun[k] === 0; k++) {
                await new Promise((resolve) => setImmediate(resolve));
                start(k);
            }
            const got = started[i];
            if (!got)
                throw new Error(`file ${i} was never read`);
            delete started[i];
            return got;
        },
        close: async () => { },
    };
}
/**
 * Below this many bytes of input, reading on workers does not pay: a worker's start, its own JIT
 * warm-up and taking its results in are only won back on large inputs (the measurements:
 * BENCHMARKS.md, "Reading on every core"). The default reads on the main thread below it; an
 * explicit `jobs` is honoured whatever the size.
 */
const WORKER_THRESHOLD_BYTES = 64 * 1024 ** 2;
const sizeOf = (path) => {
    try {
        return (0,external_node_fs_.statSync)(path).size;
    }
    catch {
        return 0; // the reader says why it cannot be read
    }
};
/**
 * What checking a file's bundle by identity weighs, in bytes of reading, for the threshold and for
 * the order workers are given files: auto starts workers from 128 bundles (64 MiB / 512 KiB), well
 * past where they pay (the measurements: BENCHMARKS.md, "Keyless checks on every core").
 */
const KEYLESS_WEIGHT_BYTES = 512 * 1024;
/** A task's work: its file's bytes, and its bundle when one is beside it and will be checked by identity. */
const weightOf = (t, setup) => sizeOf(t.file.path) + (identitiesFor(setup, t.role) && sizeOf((0,formats/* sigstoreOf */.MA)(t.file.path)) > 0 ? KEYLESS_WEIGHT_BYTES : 0);
/** The bundled worker script beside the running bundle (dist/read-worker.js), or null when not built (tests of src/). */
function workerScript() {
    const here = external_node_path_default().dirname((0,external_node_url_namespaceObject.fileURLToPath)(import.meta.url));
    for (const dir of [here, external_node_path_default().dirname(here)]) {
        const where = external_node_path_default().join(dir, 'read-worker.js');
        if (sizeOf(where) > 0)
            return where;
    }
    return null;
}
/**
 * How many threads read this input: `jobs` (null: the machine's cores, when the files' weights add
 * up to at least WORKER_THRESHOLD_BYTES), never more than there are files; 1 means the main thread.
 */
function threadsFor(jobs, sizes, cores = (0,external_node_os_namespaceObject.availableParallelism)()) {
    const n = Math.min(jobs ?? cores, sizes.length);
    if (jobs === null && sizes.reduce((a, b) => a + b, 0) < WORKER_THRESHOLD_BYTES)
        return 1;
    return Math.max(n, 1);
}
/**
 * The readers for this input. `entry`: the worker's entry (default: the bundled one, looked up only
 * when workers may start; none when not built, as under tests of src/).
 */
async function openReaders(tasks, setup, jobs, entry) {
    if (jobs === 1 || tasks.length <= 1)
        return inlineReaders(tasks, setup);
    const sizes = tasks.map((t) => weightOf(t, setup));
    const n = threadsFor(jobs, sizes);
    const script = n <= 1 ? null : (entry ?? workerScript());
    if (script === null)
        return inlineReaders(tasks, setup);
    const { Worker } = await Promise.resolve(/* import() */).then(__nccwpck_require__.t.bind(__nccwpck_require__, 5919, 23));
    return new WorkerReaders(tasks, sizes, setup, n - 1, (data) => new Worker(script, { workerData: data }));
}

;// CONCATENATED MODULE: ./src/gate/gate.ts
/**
 * The seam both entries call: settings → files → readers → verify → Report.
 * All file I/O of a verification happens here and in read/; the core never touches a file.
 */












/**
 * discover → schedule → merge: every input file is one unit of work (gate/evidence.ts), read on the
 * main thread or on worker threads (`open`), and taken here in path order, so the evidence does not
 * depend on which file was read first.
 */
async function collect(settings, setup, roots, open) {
    const findings = [];
    const inputs = new Map();
    const runs = [];
    const records = [];
    const statements = [];
    const workspace = external_node_path_default().resolve(settings.workspace);
    const cwd = external_node_path_default().resolve(settings.cwd);
    const attestations = new Map();
    // Audit exports first: their signature checks overlap with reading the runs.
    const found = ['audit', 'runs'].map((role) => ({
        role,
        d: (0,discover/* discover */.k)(settings[role], cwd, workspace, settings.explicit[role], role),
    }));
    const readers = await open(found.flatMap(({ role, d }) => d.files.map((file) => ({ file, role }))), setup, settings.jobs);
    let next = 0;
    try {
        for (const { role, d } of found) {
            for (const f of d.findings)
                findings.push(f);
            for (const a of d.attestations)
                attestations.set(a.rel, a);
            if (role === 'runs' && d.files.length === 0) {
                findings.push((0,core_findings/* inputFinding */.uY)('no_artifacts', `runs: ${settings.runs.join(', ') || '(none)'}`, `the run-artifact inputs (${settings.runs.join(', ')}) matched no ${formats/* EXTENSION_LIST */.RV} file: a gate that sees nothing must not pass`));
            }
            for (const _ of d.files) {
                const evidence = await readers.read(next++);
                for (const [rel, sha256] of evidence.digests)
                    inputs.set(rel, sha256);
                for (const f of evidence.findings)
                    findings.push(f);
                if (evidence.run)
                    runs.push(evidence.run);
                for (const r of evidence.records)
                    records.push(r);
                for (const s of evidence.statements)
                    statements.push(s);
            }
        }
    }
    finally {
        await readers.close();
    }
    for (const f of orphans(attestations.values()))
        findings.push(f);
    for (const f of settings.policyReview?.findings ?? [])
        findings.push(f);
    const identities = settings.keyless ? identityTrust(settings.keyless, roots) : null;
    const keys = settings.trustedKeys;
    const producers = settings.trustedProducers;
    return {
        runs,
        records,
        statements,
        findings,
        trustedSigners: keys ? [...keys.keys()].sort() : [],
        trustedProducers: producers ? [...producers.keys()].sort() : [],
        ...(identities ? { identities } : {}),
        inputs,
    };
}
/** `orphan_attestation`: an attestation with no artifact beside it. */
function orphans(attestations) {
    const out = [];
    for (const a of attestations) {
        const artifact = (0,formats/* attestedBy */.W_)(a.path);
        if (!(0,external_node_fs_.existsSync)(artifact))
            out.push((0,core_findings/* finding */.gk)('orphan_attestation', { file: a.rel, line: 1, column: 1 }, `no ${external_node_path_default().basename(artifact)} beside this attestation: a renamed or removed artifact must not lose its attestation silently`));
    }
    return out;
}
/** The identity trust in effect, sorted, for the report's policy, with the sha256 of each trusted root in force. */
function identityTrust(k, roots) {
    const any = k.signers ?? k.producers;
    if (!any)
        return null;
    return {
        signers: [...(k.signers?.identities ?? [])].sort(core_text/* cmp */.r2),
        producers: [...(k.producers?.identities ?? [])].sort(core_text/* cmp */.r2),
        sourceRepository: any.sourceRepository,
        sourceRefs: [...any.sourceRefs].sort(core_text/* cmp */.r2),
        issuer: any.issuer,
        roots,
    };
}
/** What the core needs of the settings (nothing about files). */
const optionsOf = (s) => ({
    allowUnmatchedRecords: s.allowUnmatchedRecords,
    strictObserved: s.strictObserved,
    policy: s.policy,
    now: s.now,
});
/** Every class of the input with its verbs (what a rule may name besides the §2 table). */
function classesSeen(runs) {
    const seen = new Map();
    for (const r of runs)
        for (const d of r.decisions) {
            if (d.actionClass === null)
                continue;
            let verbs = seen.get(d.actionClass);
            if (!verbs)
                seen.set(d.actionClass, (verbs = new Set()));
            if (d.verb !== null)
                verbs.add(d.verb);
        }
    return seen;
}
/**
 * What every reading thread is told: the limits, whether to hash, and the trust configured. With
 * identities, the trusted roots are read once here and loaded, so a root that cannot be used is a
 * usage problem before anything is read.
 */
async function readSetup(settings, digests) {
    let identities = null;
    let roots = [];
    const k = settings.keyless;
    if (k) {
        const loaded = await rootsOf(k.trustedRoot, settings.limits);
        if (!loaded.ok)
            return { ok: false, reason: { code: 'file', message: loaded.reason } };
        identities = { signers: k.signers, producers: k.producers, roots: k.trustedRoot };
        roots = loaded.value.map((root) => root.sha256);
    }
    // Grandfathered runs are pinned by their bytes: every run is hashed then.
    const hash = digests || settings.policy.grandfathered.length > 0;
    return {
        ok: true,
        value: {
            roots,
            setup: {
                limits: settings.limits,
                digest: hash,
                workspace: external_node_path_default().resolve(settings.workspace),
                trust: { recordKeys: keyMaterial(settings.trustedKeys), producerKeys: keyMaterial(settings.trustedProducers), identities },
            },
        },
    };
}
/**
 * settings → read (+ sidecars, trust) → verify. A rule naming a class or verb that neither the gate
 * nor the input knows is a usage problem (semantics §7): it is known only once the input is read.
 * @param digests hash every input read (for a verdict attestation)
 */
async function runGate(settings, digests = false, open = openReaders, alsoUnder = null) {
    const prepared = await readSetup(settings, digests);
    if (!prepared.ok)
        return prepared;
    const evidence = await collect(settings, prepared.value.setup, prepared.value.roots, open);
    const seen = classesSeen(evidence.runs);
    const names = [settings.policy, ...(alsoUnder ? [alsoUnder] : [])].map((policy) => checkRuleNames(policy, seen)).find((checked) => !checked.ok) ??
        checkRuleNames(settings.policy, seen);
    if (!names.ok) {
        const { rule, message } = names.reason;
        // A rule of the policy file is located in it; a rule of the require input is named by it.
        if (rule.at !== null)
            return { ok: false, reason: { code: 'policy', message: `${(0,core_findings/* placeOf */.$t)(rule.at, true)}: ${message}` } };
        return { ok: false, reason: { code: 'value', message, input: 'require' } };
    }
    const report = verify(evidence, optionsOf(settings));
    const head = settings.policyReview?.head;
    return {
        ok: true,
        value: {
            report: head ? withEffect(report, verify(evidence, { ...optionsOf(settings), policy: head })) : report,
            inputs: evidence.inputs,
            ...(alsoUnder ? { alternative: verify(evidence, { ...optionsOf(settings), policy: alsoUnder }) } : {}),
        },
    };
}
/** A report with a pull request's policy change and its effect: the calls whose verdict the head's policy would change, named in its policy_changed finding. */
function withEffect(report, underHead) {
    const list = changes(report, underHead);
    const effect = `; its effect on this corpus: ${changesText(list)}`;
    const source = underHead.policy.source;
    return {
        ...report,
        findings: report.findings.map((f) => f.code === 'policy_changed' && f.file === source?.path ? { ...f, message: `${f.message}${effect}` } : f),
        ...(source ? { policy_change: { path: source.path, sha256: source.sha256, changes: list } } : {}),
    };
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./src/gate/repository.ts
/**
 * Repository files as they are at a commit, read with git (never a shell; the ref and the path are
 * arguments): the policy file and trust material at a pull request's base, or at the CLI's
 * `--policy-ref`. Nothing is fetched: a commit that is not in the local clone is said to be absent.
 */


/** Most bytes a file read from git may hold (a policy file or a trusted root is small). */
const MAX_BYTES = 16 * 1024 * 1024;
function git(cwd, args) {
    const r = (0,external_node_child_process_namespaceObject.spawnSync)('git', ['-C', cwd, ...args], {
        encoding: 'utf8',
        maxBuffer: MAX_BYTES,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
    });
    if (r.error)
        return { status: null, stdout: '', stderr: r.error.message };
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** The full commit id a ref names in the clone at `cwd`, or null when the clone does not have it. */
function resolveCommit(cwd, ref) {
    if (ref.startsWith('-'))
        return null;
    const r = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    const sha = r.stdout.trim();
    return r.status === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}
/**
 * A file as it is at a commit: its text, null when the commit has no such file, or why it cannot be
 * read (no git, not a repository, the commit absent).
 * @param file the file's path on disk (a path in the checkout), read at `commit` relative to `cwd`
 */
function readAtCommit(cwd, commit, file) {
    const sha = resolveCommit(cwd, commit);
    if (sha === null)
        return {
            ok: false,
            reason: `commit ${commit} is not in this clone (fetch it, e.g. actions/checkout with fetch-depth: 0, or give the API a token)`,
        };
    const rel = external_node_path_default().relative(cwd, external_node_path_default().resolve(cwd, file)).split((external_node_path_default()).sep).join('/');
    const r = git(cwd, ['cat-file', '-e', `${sha}:./${rel}`]);
    if (r.status !== 0)
        return { ok: true, value: null };
    const shown = git(cwd, ['show', `${sha}:./${rel}`]);
    if (shown.status !== 0)
        return { ok: false, reason: `git show ${sha.slice(0, 12)}:${rel} failed: ${shown.stderr.trim() || `status ${shown.status}`}` };
    return { ok: true, value: shown.stdout };
}

// EXTERNAL MODULE: ./src/read/validators.generated.js
var validators_generated = __nccwpck_require__(183);
;// CONCATENATED MODULE: ./src/read/policy-file.ts
/**
 * The policy file (docs/policy.md §2): YAML 1.2, one document, read strictly (duplicate keys, a tab
 * in indentation, an anchor or an alias, a second document: refused), its shape checked against
 * schemas/policy.schema.json (every problem, each located `file:line:column`, a misspelt key with
 * the nearest known one), then what a schema cannot say: unique rule names, globs only on plain
 * fields, fields the class binds, expiry at most 366 days after the verification time, signers
 * among those trusted, grandfathered paths named once. Nothing here reads a file: the text is given.
 */











/** Seconds in 366 days: the furthest an exception may expire. */
const MAX_EXPIRY_SECONDS = 366 * 86_400;
const HASHED = new Map([
    ['github_deploy_key', new Map([['key_title', { field: 'key_title_hash', domain: 'github_key_title' }]])],
    [
        'workspace_member',
        new Map([
            ['workspace_id', { field: 'workspace_id_hash', domain: 'slack_workspace' }],
            ['channel_id', { field: 'channel_id_hash', domain: 'slack_channel' }],
            ['principal', { field: 'principal_hash', domain: 'slack_principal' }],
        ]),
    ],
    [
        'workspace_role',
        new Map([
            ['workspace_id', { field: 'workspace_id_hash', domain: 'workspace' }],
            ['principal', { field: 'principal_hash', domain: 'workspace_principal' }],
        ]),
    ],
]);
/** Plain fields GitHub names compare without regard to ASCII case (a `prod-*` rule must not miss `PROD-api`). */
const CASELESS = new Set(['owner', 'repo']);
/** Every node's place by its JSON pointer (and a key's own place, `pointer#key`), for locating problems. */
function positions(contents, at) {
    const out = new Map();
    const walk = (node, pointer, keyAt) => {
        if (!(0,dist/* isNode */.Ll)(node))
            return;
        const start = node.range?.[0] ?? 0;
        // A problem with a value is at the value; with a map or a list, at the key that holds it.
        out.set(pointer, at((0,dist/* isScalar */.jn)(node) ? start : (keyAt ?? start)));
        if ((0,dist/* isMap */.jh)(node))
            for (const pair of node.items) {
                if (!(0,dist/* isPair */.tO)(pair) || !(0,dist/* isScalar */.jn)(pair.key))
                    continue;
                const name = String(pair.key.value).replace(/~/g, '~0').replace(/\//g, '~1');
                walk(pair.value, `${pointer}/${name}`, pair.key.range?.[0] ?? null);
                // A key's own place, for a problem with the key (an unknown key).
                out.set(`${pointer}/${name}#key`, at(pair.key.range?.[0] ?? start));
            }
        else if ((0,dist/* isSeq */.oP)(node))
            node.items.forEach((item, i) => {
                walk(item, `${pointer}/${i}`, null);
            });
    };
    walk(contents, '', null);
    return out;
}
/** The first anchor or alias in a document, with its offset (neither is allowed: what a reviewer reads must be what applies). */
function anchorOf(contents) {
    let found = null;
    const walk = (node) => {
        if (found !== null || !(0,dist/* isNode */.Ll)(node))
            return;
        if ((0,dist/* isAlias */.Vj)(node) || (node.anchor ?? '') !== '') {
            found = node.range?.[0] ?? 0;
            return;
        }
        if ((0,dist/* isMap */.jh)(node))
            for (const pair of node.items) {
                if ((0,dist/* isPair */.tO)(pair)) {
                    walk(pair.key);
                    walk(pair.value);
                }
            }
        else if ((0,dist/* isSeq */.oP)(node))
            for (const item of node.items)
                walk(item);
    };
    walk(contents);
    return found;
}
/** The schema node an instance path leads to (its $refs followed), for the known keys where one is misspelt. */
function schemaAt(segments) {
    const root = (0,json/* isObject */.G)(validators_generated/* policySchema */.wh) ? validators_generated/* policySchema */.wh : null;
    const resolve = (node) => {
        if (!(0,json/* isObject */.G)(node))
            return null;
        const ref = node['$ref'];
        if (typeof ref === 'string' && ref.startsWith('#/$defs/') && root && (0,json/* isObject */.G)(root['$defs']))
            return resolve(root['$defs'][ref.slice(8)]);
        return node;
    };
    let node = resolve(root);
    for (const segment of segments) {
        if (!node)
            return null;
        const props = node['properties'];
        if ((0,json/* isObject */.G)(props) && Object.hasOwn(props, segment))
            node = resolve(props[segment]);
        else if (node['items'] !== undefined && /^\d+$/.test(segment))
            node = resolve(node['items']);
        else
            node = resolve(node['additionalProperties']);
    }
    return node;
}
/** The schema's problems, located, in words a person reads (a misspelt key names the nearest known one). */
function shapeProblems(value, where) {
    if ((0,validators_generated/* policyFile */.Xd)(value))
        return [];
    const out = [];
    const seen = new Set();
    const errors = validators_generated/* policyFile */.Xd.errors ?? [];
    // A misspelt key is one mistake: the required key it was meant to be is not reported missing too.
    const meant = new Set();
    for (const e of errors) {
        const key = (0,json/* isObject */.G)(e.params) ? e.params['additionalProperty'] : undefined;
        if (e.keyword !== 'additionalProperties' || typeof key !== 'string')
            continue;
        const known = schemaAt(e.instancePath.split('/').slice(1));
        const near = (0,core_text/* nearestName */.qb)(key, known && (0,json/* isObject */.G)(known['properties']) ? Object.keys(known['properties']) : []);
        if (near)
            meant.add(`${e.instancePath}/${near}`);
    }
    for (const e of errors) {
        const segments = e.instancePath.split('/').slice(1);
        const name = segments.length === 0 ? 'the file' : segments.join('.');
        const params = (0,json/* isObject */.G)(e.params) ? e.params : {};
        let message;
        let at = where(e.instancePath);
        if (e.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
            const key = params['additionalProperty'];
            const known = schemaAt(segments);
            const props = known && (0,json/* isObject */.G)(known['properties']) ? Object.keys(known['properties']) : [];
            const near = (0,core_text/* nearestName */.qb)(key, props);
            message = `unknown key "${key}" in ${name}${near ? ` (did you mean "${near}"?)` : props.length > 0 ? ` (known: ${props.join(', ')})` : ''}`;
            at = where(`${e.instancePath}/${key}`, true);
        }
        else if (e.keyword === 'required' && typeof params['missingProperty'] === 'string') {
            if (meant.has(`${e.instancePath}/${params['missingProperty']}`))
                continue;
            message = `${name} has no "${params['missingProperty']}" (required)`;
        }
        else if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
            const allowed = params['allowedValues'].map(String);
            const got = valueAt(value, segments);
            const near = typeof got === 'string' ? (0,core_text/* nearestName */.qb)(got, allowed) : null;
            message = `${name} must be one of ${allowed.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`;
        }
        else if (e.keyword === 'const') {
            message = `${name} must be ${JSON.stringify(params['allowedValue'])}`;
        }
        else if (e.keyword === 'oneOf') {
            message = `${name} must be one glob (a string) or a list of them`;
        }
        else if (e.keyword === 'pattern' && segments[0] === 'pending') {
            message = 'pending must be a duration of whole units d, h, m in that order (72h, 3d, 1d12h, 90m) or 0';
        }
        else
            message = `${name} ${e.message ?? 'is invalid'}`;
        // oneOf reports each branch too: the oneOf line says it once.
        if (e.schemaPath.includes('/oneOf/'))
            continue;
        const key = `${at.line}:${at.column}:${message}`;
        if (seen.has(key))
            continue;
        seen.add(key);
        out.push((0,core_findings/* finding */.gk)('policy_invalid', at, message));
    }
    return out;
}
const valueAt = (value, segments) => {
    let node = value;
    for (const s of segments) {
        if (Array.isArray(node) && /^\d+$/.test(s))
            node = node[Number(s)];
        else if ((0,json/* isObject */.G)(node) && Object.hasOwn(node, s))
            node = node[s];
        else
            return undefined;
    }
    return node;
};
/** `72h`, `3d`, `1d12h`, `90m`, `0` → seconds (the schema has checked the form). */
function durationSeconds(text) {
    const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$/.exec(text);
    if (!match)
        return 0;
    return Number(match[1] ?? 0) * 86_400 + Number(match[2] ?? 0) * 3_600 + Number(match[3] ?? 0) * 60;
}
/** An expiry: an RFC 3339 date (00:00 UTC of that day) or date-time, through the one time parser. */
function expiryOf(text) {
    const day = (0,core_time/* parseDay */.Iq)(text);
    if (day)
        return day.ok ? day : { ok: false, reason: `"${text}" ${day.reason}` };
    const t = (0,core_time/* parseRfc3339 */.TM)(text);
    return t.ok ? t : { ok: false, reason: `"${text}" is not an RFC 3339 date or date-time: it ${t.reason}` };
}
const strings = (v) => typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];
const policy_file_text = (o, k) => (typeof o[k] === 'string' ? o[k] : '');
/**
 * A policy file's text → the policy, or every problem located in it (`policy_invalid`). Class and
 * verb names are checked once the input is read (core/policy.ts `checkRuleNames`): what the input
 * holds counts as known.
 */
function readPolicyFile(source, context) {
    const file = context.path;
    const lines = new dist/* LineCounter */.HN();
    const docs = (0,dist/* parseAllDocuments */.hR)(source, { lineCounter: lines, uniqueKeys: true, strict: true, prettyErrors: false, version: '1.2' });
    const list = Array.isArray(docs) ? docs : [docs];
    // A place in this file, with the commit it was read at when that is not the checkout.
    const place = (line, column) => context.commit === null ? { file, line, column } : { file, line, column, commit: context.commit };
    const atOffset = (offset) => {
        const pos = lines.linePos(offset);
        return place(pos.line, pos.col);
    };
    const problems = [];
    if (list.length > 1)
        problems.push((0,core_findings/* finding */.gk)('policy_invalid', atOffset(list[1]?.range?.[0] ?? 0), 'a second YAML document: a policy file holds one'));
    const doc = list[0];
    if (!doc || doc.contents === null)
        return {
            ok: false,
            reason: [(0,core_findings/* finding */.gk)('policy_invalid', place(1, 1), 'the policy file is empty (it needs at least version: 1)')],
        };
    for (const e of [...doc.errors, ...doc.warnings])
        problems.push((0,core_findings/* finding */.gk)('policy_invalid', atOffset(e.pos[0]), e.message.split('\n')[0] ?? e.code));
    const anchor = anchorOf(doc.contents);
    if (anchor !== null)
        problems.push((0,core_findings/* finding */.gk)('policy_invalid', atOffset(anchor), 'an anchor or alias: write each value out (what a reviewer reads must be what applies)'));
    if (problems.length > 0)
        return { ok: false, reason: problems };
    const value = doc.toJS({ maxAliasCount: 0 });
    const places = positions(doc.contents, atOffset);
    const where = (pointer, key = false) => (key ? places.get(`${pointer.slice(0, pointer.lastIndexOf('/'))}/${pointer.slice(pointer.lastIndexOf('/') + 1)}#key`) : undefined) ??
        places.get(pointer) ??
        place(1, 1);
    const shape = shapeProblems(value, where);
    if (shape.length > 0)
        return { ok: false, reason: shape };
    if (!(0,json/* isObject */.G)(value))
        return { ok: false, reason: [(0,core_findings/* finding */.gk)('policy_invalid', place(1, 1), 'the policy file is not a mapping')] };
    return meaning(value, context, where, (0,binding/* sha256Hex */.fg)(source));
}
/** What the schema cannot say, checked on a file of the right shape. */
function meaning(doc, context, where, sha256) {
    const problems = [];
    const bad = (pointer, message) => {
        problems.push((0,core_findings/* finding */.gk)('policy_invalid', where(pointer), message));
    };
    const trusted = new Set([...context.signers.keyIds, ...context.signers.identities]);
    const rules = [];
    const names = new Set();
    const ruleList = Array.isArray(doc['rules']) ? doc['rules'] : [];
    ruleList.forEach((entry, i) => {
        if (!(0,json/* isObject */.G)(entry) || !(0,json/* isObject */.G)(entry['match']))
            return;
        const at = `/rules/${i}`;
        const name = policy_file_text(entry, 'name');
        if (names.has(name))
            bad(`${at}/name`, `a second rule named ${name}: rule names are unique`);
        names.add(name);
        const match = entry['match'];
        const actionClass = policy_file_text(match, 'class');
        const verb = typeof match['verb'] === 'string' ? match['verb'] : null;
        const tests = [];
        const target = (0,json/* isObject */.G)(match['target']) ? match['target'] : {};
        const hashed = HASHED.get(actionClass);
        const bound = (0,core_projection/* boundFields */.EC)(actionClass);
        for (const field of Object.keys(target)) {
            const pointer = `${at}/match/target/${field}`;
            const given = target[field];
            const hash = hashed?.get(field);
            if (hash) {
                if (!Array.isArray(given)) {
                    bad(pointer, `${field} is hashed: give a list of raw values ([${JSON.stringify(given)}]), each hashed as the agent hashes it`);
                    continue;
                }
                const values = strings(given);
                if (values.some((v) => v.includes('*'))) {
                    bad(pointer, `${field} is hashed: a glob cannot match a hash; list the raw values`);
                    continue;
                }
                tests.push({ kind: 'hash', field: hash.field, hashes: new Set(values.map((v) => targetHash(hash.domain, v))) });
                continue;
            }
            if (bound && !bound.includes(field)) {
                const plain = bound.filter((f) => !f.endsWith('_hash'));
                const hashedNames = [...(hashed?.keys() ?? [])];
                const near = (0,core_text/* nearestName */.qb)(field, [...plain, ...hashedNames]);
                bad(pointer, `${actionClass} binds no field ${JSON.stringify(field)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}; its fields: ${[...plain, ...hashedNames].join(', ')}`);
                continue;
            }
            tests.push(globTest(field, strings(given), CASELESS.has(field)));
        }
        const signedBy = Array.isArray(entry['signed-by']) ? strings(entry['signed-by']) : null;
        if (signedBy) {
            if (trusted.size === 0)
                bad(`${at}/signed-by`, 'signed-by without any trusted signer configured (trusted-keys, trusted-signer-identities): it could never hold');
            else
                signedBy.forEach((s, k) => {
                    if (!trusted.has(s))
                        bad(`${at}/signed-by/${k}`, `${JSON.stringify(s)} is not among the trusted signers configured (a signed-by that names none of them could never hold)`);
                });
        }
        const require = policy_file_text(entry, 'require');
        const mode = entry['mode'] === 'warn' ? 'warn' : 'enforce';
        if (!(0,vocabulary/* isLevel */.NW)(require))
            return;
        rules.push({
            name,
            selector: verb === null ? actionClass : `${actionClass}:${verb}`,
            actionClass,
            verb,
            target: tests,
            level: require,
            mode,
            signedBy,
            at: where(at),
        });
    });
    const exceptions = [];
    const exceptionList = Array.isArray(doc['exceptions']) ? doc['exceptions'] : [];
    exceptionList.forEach((entry, i) => {
        if (!(0,json/* isObject */.G)(entry))
            return;
        const at = `/exceptions/${i}`;
        const rule = policy_file_text(entry, 'rule');
        if (!names.has(rule)) {
            const near = (0,core_text/* nearestName */.qb)(rule, names);
            bad(`${at}/rule`, `the exception names rule ${JSON.stringify(rule)}, which the file does not have${near ? ` (did you mean ${JSON.stringify(near)}?)` : ''}`);
        }
        const expiresText = policy_file_text(entry, 'expires');
        const expires = expiryOf(expiresText);
        if (!expires.ok) {
            bad(`${at}/expires`, `expires: ${expires.reason}`);
            return;
        }
        const latest = { seconds: context.now.seconds + MAX_EXPIRY_SECONDS, fraction: context.now.fraction };
        if ((0,core_time/* compareInstants */.QI)(expires.value, latest) > 0)
            bad(`${at}/expires`, `expires ${expiresText} is more than 366 days after the verification time: an exception is renewed, never forever`);
        exceptions.push({
            binding: policy_file_text(entry, 'binding'),
            rule,
            reason: policy_file_text(entry, 'reason'),
            owner: policy_file_text(entry, 'owner'),
            expires: expires.value,
            expiresText,
            at: where(at),
        });
    });
    const grandfathered = [];
    const runs = new Set();
    const grandList = Array.isArray(doc['grandfathered']) ? doc['grandfathered'] : [];
    grandList.forEach((entry, i) => {
        if (!(0,json/* isObject */.G)(entry))
            return;
        const run = policy_file_text(entry, 'run');
        if (runs.has(run))
            bad(`/grandfathered/${i}/run`, `a second entry for ${run}: each run is grandfathered once`);
        runs.add(run);
        grandfathered.push({ run, sha256: policy_file_text(entry, 'sha256'), reason: policy_file_text(entry, 'reason'), at: where(`/grandfathered/${i}`) });
    });
    if (problems.length > 0)
        return { ok: false, reason: problems };
    const given = doc['default'];
    const defaultLevel = typeof given === 'string' && (0,vocabulary/* isLevel */.NW)(given) ? given : 'asserted';
    return {
        ok: true,
        value: {
            kind: 'file',
            rules,
            defaultLevel,
            pendingSeconds: typeof doc['pending'] === 'string' ? durationSeconds(doc['pending']) : 0,
            exceptions,
            grandfathered,
            source: { path: context.path, commit: context.commit, sha256 },
        },
    };
}

;// CONCATENATED MODULE: ./src/gate/settings/policy.ts
/**
 * Which policy is in effect (docs/policy.md §1, §8). On a pull request or a merge queue the policy is
 * the base commit's, never the head's: the head's is read too and checked (a broken one fails the
 * pull request, a changed one is shown with its effect), and the one repair path is a base policy
 * that is invalid and a head that repairs it. Trust material named by a path (a trusted root) is
 * read the same way. Elsewhere the file on disk (or the CLI's `--policy-ref`) is the policy.
 */



/** Short commit ids in messages. */
const policy_short = (commit) => (commit === null ? 'the working tree' : `commit ${commit.slice(0, 12)}`);
/** A policy file's problems as one located configuration error (the policy in effect must be valid). */
function invalidInEffect(file, problems) {
    const lines = problems.slice(0, 10).map((f) => `${f.file === null ? file.path : (0,core_findings/* placeOf */.$t)(f, true)}: ${f.message}`);
    const more = problems.length > 10 ? `\n… and ${problems.length - 10} more problem(s)` : '';
    return new types_UsageError('policy', `the policy in effect (${file.path} at ${policy_short(file.commit)}) is invalid (policy_invalid):\n${lines.join('\n')}${more}`);
}
/** The head's problems as findings of the pull request, each naming the file it was read from. */
const headFindings = (problems) => problems.map((f) => f.file === null ? f : (0,core_findings/* finding */.gk)('policy_invalid', f, `${f.message} (this pull request's policy; it must be valid to merge)`));
/** The first line of a file as read: a file of another commit says which. */
const placeIn = (file) => file?.commit ? { file: file.path, line: 1, column: 1, commit: file.commit } : { file: file?.path ?? '', line: 1, column: 1 };
/** Whether two policy texts say the same (byte for byte). */
const policy_same = (a, b) => (a === null ? b === null : b !== null && a.text === b.text);
/**
 * The policy in effect, and what a pull request does to it.
 * @param context the verification time and the trusted signers (what a policy's own checks need)
 */
function settlePolicy(given, context) {
    const read = (file) => readPolicyFile(file.text, { ...context, path: file.path, commit: file.commit });
    if (given.kind === 'none')
        return { policy: null, review: null };
    if (given.kind === 'file') {
        const r = read(given.file);
        if (!r.ok)
            throw invalidInEffect(given.file, r.reason);
        return { policy: r.value, review: null };
    }
    const { base, head } = given;
    const baseRead = base ? read(base) : null;
    const headRead = head ? read(head) : null;
    if (baseRead && !baseRead.ok) {
        // The one repair path: an invalid base policy, and a head whose policy is valid.
        if (head && headRead?.ok) {
            const at = { file: head.path, line: 1, column: 1 };
            const why = `the base policy (${base?.path} at ${policy_short(base?.commit ?? null)}) is invalid; this pull request repairs it, and is judged under its own policy`;
            return { policy: headRead.value, review: { findings: [(0,core_findings/* finding */.gk)('policy_changed', at, why)], head: null } };
        }
        throw invalidInEffect(base ?? { path: '', commit: null, text: '' }, baseRead.reason);
    }
    const inEffect = baseRead?.ok ? baseRead.value : null;
    if (policy_same(base, head))
        return { policy: inEffect, review: null };
    const at = placeIn(head ?? base);
    if (headRead && !headRead.ok)
        return { policy: inEffect, review: { findings: headFindings(headRead.reason), head: null } };
    const what = head === null
        ? `this pull request deletes the policy file ${base?.path}; the change takes effect after merge (the base's policy applies here)`
        : base === null
            ? `this pull request adds the policy file ${head.path}; it takes effect after merge (the inputs apply here)`
            : `this pull request changes the policy file ${head.path}; the change takes effect after merge (the base's policy applies here)`;
    return { policy: inEffect, review: { findings: [(0,core_findings/* finding */.gk)('policy_changed', at, what)], head: headRead?.ok ? headRead.value : null } };
}
/** A trusted root the same way: the base's text in effect; a head that differs is named. */
function settleTrustFile(name, given) {
    if (given.kind === 'file')
        return { text: given.file, review: null };
    const { base, head } = given;
    if (!base)
        throw new types_UsageError('file', `${name}: ${head?.path ?? 'the file'} does not exist at the base commit; trust material is read at the base on pull requests (merge the file first)`);
    if (policy_same(base, head))
        return { text: base, review: null };
    const at = placeIn(head ?? base);
    return {
        text: base,
        review: (0,core_findings/* finding */.gk)('policy_changed', at, `this pull request changes ${name} (${base.path}): trust material is read at the base, so the change takes effect after merge`),
    };
}

;// CONCATENATED MODULE: ./src/gate/settings/build.ts





/** An input list as given: its entries, or the default's when it was not given (or given empty). */
const listOr = (given, fallback) => given !== null && given.length > 0 ? given : parseList(fallback);
/**
 * Trust is never turned off by an empty value (semantics §12): with its switch on, a trust set with
 * no key and no identity is a configuration error naming both.
 */
function mustTrust(on, configured, switchName, keysName, idsName) {
    if (on && !configured)
        throw new types_UsageError('missing', `${switchName} is on, but neither ${keysName} nor ${idsName} is given (an unset repository variable is an empty string: set it, or the gate would accept what nobody it trusts vouched for)`);
}
/** The verification's settings from what either entry was given; a mistake throws a UsageError naming it. */
function buildSettings(g) {
    const n = g.names;
    const runs = listOr(g.runs, defaults_DEFAULTS.runs);
    const audit = listOr(g.audit, defaults_DEFAULTS.audit);
    const explicit = { runs: g.runs !== null && g.runs.length > 0, audit: g.audit !== null && g.audit.length > 0 };
    if (explicit.runs)
        requireExistingPaths(runs, g.cwd, n.runs);
    if (explicit.audit)
        requireExistingPaths(audit, g.cwd, n.audit);
    const reviews = [];
    let trustedRoot = null;
    if (g.trustedRoot) {
        const settled = settleTrustFile(n.trustedRoot, g.trustedRoot);
        trustedRoot = {
            name: `${n.trustedRoot} ${settled.text.path}${settled.text.commit ? ` (at ${settled.text.commit.slice(0, 12)})` : ''}`,
            text: settled.text.text,
        };
        if (settled.review)
            reviews.push(settled.review);
    }
    const keyless = readKeyless({ ...g.identities, trustedRoot }, {
        signerIdentities: n.signerIdentities,
        producerIdentities: n.producerIdentities,
        sourceRepository: n.sourceRepository,
        sourceRefs: n.sourceRefs,
        issuer: n.issuer,
    });
    const trustedKeys = readTrustedKeys(g.trustedKeys);
    const trustedProducers = readTrustedKeys(g.trustedProducers);
    mustTrust(g.requireSignedRecords, trustedKeys !== null || keyless?.signers != null, n.requireSignedRecords, n.trustedKeys, n.signerIdentities);
    mustTrust(g.requireAttestedRuns, trustedProducers !== null || keyless?.producers != null, n.requireAttestedRuns, n.trustedProducers, n.producerIdentities);
    const now = g.now;
    const signers = {
        keyIds: trustedKeys ? [...trustedKeys.keys()] : [],
        identities: keyless?.signers ? [...keyless.signers.identities] : [],
    };
    const settled = settlePolicy(g.policy, { now, signers });
    const rules = g.require.flatMap(parseList);
    if (settled.policy && rules.length > 0)
        throw new types_UsageError('conflict', `${n.require}: the policy file ${settled.policy.source?.path ?? ''} is in effect: requirements have one place (move the rules into the file, or remove it)`);
    const review = settled.review ? [...reviews, ...settled.review.findings] : reviews;
    return {
        runs,
        audit,
        explicit,
        cwd: g.cwd,
        workspace: g.workspace,
        allowUnmatchedRecords: g.allowUnmatchedRecords ?? parseBool('allow-unmatched-records', defaults_DEFAULTS['allow-unmatched-records']),
        strictObserved: g.strictObserved ?? parseBool('strict-observed', defaults_DEFAULTS['strict-observed']),
        limits: readLimits(g.maxFileSize ?? undefined, g.maxLineSize ?? undefined, g.names.limitsPrefix),
        jobs: parseJobs(n.jobs, g.jobs ?? defaults_DEFAULTS.jobs),
        policy: settled.policy ?? readPolicy(n.require, rules),
        policyReview: review.length > 0 || settled.review?.head ? { findings: review, head: settled.review?.head ?? null } : null,
        now,
        trustedKeys,
        trustedProducers,
        keyless,
    };
}

;// CONCATENATED MODULE: ./src/report/json-report.ts
/**
 * The JSON report (schemas/report.schema.json), one call, record or finding per line: readable,
 * grep-able, half the size of fully indented JSON, and written in chunks (never one giant string)
 * with its digest computed on the way, so a release can attach both.
 */




const CHUNK = 1 << 20;
/** A call's JSON form: its members in schema order, without what only the reporters read. */
const callJson = (c) => ({
    artifact: c.artifact,
    index: c.index,
    line: c.line,
    column: c.column,
    member: c.member,
    tool: c.tool,
    asserted: c.asserted,
    claimed_level: c.claimed_level,
    level: c.level,
    required_level: c.required_level,
    subject_digest: c.subject_digest,
    record: c.record,
    reason: c.reason,
    rule: c.rule,
    mode: c.mode,
    excepted: c.excepted,
    grandfathered: c.grandfathered,
    time: c.time,
    coverage: c.coverage,
});
/** The report's text in pieces of about 1 MiB. */
function* jsonChunks(report) {
    // Pieces are collected in an array and joined (a flat string encodes faster than a long concatenation).
    let parts = [
        `{\n  "schema": ${JSON.stringify(report.schema)},\n  "ok": ${report.ok},\n  "verified_at": ${JSON.stringify(report.verified_at)},\n  "totals": ${JSON.stringify(report.totals)},\n  "policy": ${JSON.stringify(report.policy)}`,
    ];
    let size = 0;
    const lists = [
        ['runs', report.runs, (x) => x],
        ['calls', report.calls, callJson],
        ['records', report.records, (x) => x],
        ['coverage', report.coverage, (x) => x],
        ['coverage_gaps', report.coverage_gaps, (x) => x],
        ['findings', report.findings, (x) => x],
    ];
    for (const [name, items, form] of lists) {
        parts.push(`,\n  "${name}": [`);
        for (let i = 0; i < items.length; i++) {
            const line = `${i === 0 ? '' : ','}\n    ${JSON.stringify(form(items[i]))}`;
            parts.push(line);
            size += line.length;
            if (size >= CHUNK) {
                yield parts.join('');
                parts = [];
                size = 0;
            }
        }
        parts.push(items.length > 0 ? '\n  ]' : ']');
    }
    if (report.policy_change)
        parts.push(`,\n  "policy_change": ${JSON.stringify(report.policy_change)}`);
    parts.push('\n}\n');
    yield parts.join('');
}
function renderJson(report) {
    let text = '';
    for (const c of jsonChunks(report))
        text += c;
    return text;
}
/** Chunks being written at once: the next is rendered while the disk takes the last ones. */
const IN_FLIGHT = 4;
async function writeAt(fh, bytes, position) {
    let off = 0;
    while (off < bytes.length)
        off += (await fh.write(bytes, off, bytes.length - off, position + off)).bytesWritten;
}
/**
 * Write the report to `file` in chunks, each at its own offset while the next is rendered, never
 * through a link at `file` (report/output.ts); returns the sha256 digest of exactly the bytes written. A failed write rejects (after every write has
 * ended, so none is left running).
 */
async function writeJson(report, file) {
    (0,external_node_fs_.mkdirSync)(external_node_path_default().dirname(file), { recursive: true });
    const hash = (0,external_node_crypto_.createHash)('sha256');
    const fh = await openOutput(file);
    const writes = [];
    try {
        let position = 0;
        for (const chunk of jsonChunks(report)) {
            const bytes = Buffer.from(chunk, 'utf8');
            hash.update(bytes);
            const w = writeAt(fh, bytes, position);
            // Handled here so a failure is never an unhandled rejection while the next chunk is rendered; awaited below.
            w.catch(() => { });
            writes.push(w);
            position += bytes.length;
            if (writes.length >= IN_FLIGHT)
                await writes.shift();
        }
        await Promise.all(writes);
    }
    catch (error) {
        await Promise.allSettled(writes);
        throw error;
    }
    finally {
        await fh.close();
    }
    return `sha256:${hash.digest('hex')}`;
}

;// CONCATENATED MODULE: ./src/report/github-limits.ts
/**
 * GitHub's limits on what a step may report, in one place: every reporter that talks to GitHub
 * (Checks API, workflow commands, job summary) clips and counts against these.
 */
const CHECKS_API = {
    /** Annotations per create/update request. */
    annotationsPerRequest: 50,
    /** Annotation title, and check run output title, in characters. */
    title: 255,
    /** Annotation message, in bytes. */
    messageBytes: 64 * 1024,
    /** Check run output summary and text, in characters (bytes here: stricter). */
    summaryBytes: 65_535,
};
/** Workflow commands shown per level before the rest are counted in one notice. */
const WORKFLOW_COMMANDS_PER_LEVEL = 10;
/** GitHub's job summary limit is 1 MiB per step; keep a margin for the trimmed line. */
const STEP_SUMMARY_BYTES = (/* unused pure expression or super */ null && (1024 * 1024 - 16 * 1024));

;// CONCATENATED MODULE: ./src/report/annotations.ts
/**
 * Annotations: one per call at its decision line (earned level, claimed level, tool, and the reason
 * when something failed there), plus one per finding that is not about a call (records, invalid
 * artifacts). Shared by the Checks API reporter and the workflow-command reporter; most important first.
 */






/** The Checks API's limits, applied to every annotation whichever way it is sent. */
const TITLE_MAX = CHECKS_API.title;
const MESSAGE_MAX_BYTES = CHECKS_API.messageBytes;
const LEVEL = (s) => SEVERITY_TABLE[s].annotation;
/** A report path (relative to the working directory) as a repository path. */
function repoPath(prefix, file) {
    return external_node_path_default().posix.normalize(external_node_path_default().posix.join(prefix || '.', file)).replace(/^\.\//, '');
}
/**
 * @param prefix the working directory relative to the repository root ('' when they are the same)
 * @param scope `all`: every call that asserts a side effect, with its level; `failures`: only what
 *   has an error or a warning (the job summary lists every call either way)
 */
function buildAnnotations(report, prefix, scope = 'all') {
    // Each call carries its own findings; the rest are about records, artifacts and inputs.
    const own = new Set();
    for (const c of report.calls)
        for (const f of c.findings)
            own.add(f);
    const loose = report.findings.filter((f) => !own.has(f));
    const out = [];
    // A location inside a bundle cannot be shown on the binary file: point at line 1 and say where.
    const place = (file, line, column, member) => member
        ? { path: repoPath(prefix, file), line: 1, column: null, inside: `${member}:${line}:${column}: ` }
        : { path: repoPath(prefix, file), line, column, inside: '' };
    for (const c of report.calls) {
        const fs = c.findings;
        // A call that asserts no side effect has no rung: no annotation unless a finding is about it.
        if (c.level === null && fs.length === 0)
            continue;
        const worst = fs.reduce((acc, f) => (annotationRank(LEVEL(f.severity)) < annotationRank(acc) ? LEVEL(f.severity) : acc), 'notice');
        const p = place(c.artifact, c.line, c.column, c.member);
        const claimed = c.claimed_level === c.level ? '' : ` (claimed ${c.claimed_level})`;
        const required = c.required_level === null ? '' : `; required: ${c.required_level}`;
        const lines = [
            `${p.inside}Earned level: ${rung(c.level)}; claimed: ${rung(c.claimed_level)}${required}; tool: ${visible(clip(c.tool ?? '(none)', 1000))}.`,
        ];
        // A finding about the shortfall says why the level was not reached; the level's own reason
        // would repeat it and add what does not concern the claim.
        if (!fs.some((f) => 'shortfall' in FINDINGS[f.code]))
            lines.push(`Why: ${visible(c.reason)}`);
        for (const f of fs)
            lines.push(`${f.code}: ${visible(f.message)}`);
        out.push({
            path: p.path,
            line: p.line,
            column: p.column,
            level: worst,
            title: clip(`${c.level ?? 'no rung'}${c.level === null ? '' : claimed} · ${visible(c.tool ?? 'decision ' + c.index)}`, TITLE_MAX),
            message: clipBytes(lines.join('\n'), MESSAGE_MAX_BYTES),
        });
    }
    // A policy file read at another commit (a pull request's base) is not the file checked out: its
    // findings name their place in words, never as a line of the file the pull request shows.
    for (const f of loose) {
        if (f.input !== undefined || f.commit !== undefined) {
            const where = f.input !== undefined ? f.input : `${f.file}:${f.line}:${f.column} at commit ${f.commit?.slice(0, 12) ?? ''}`;
            out.push({
                path: null,
                line: 0,
                column: null,
                level: LEVEL(f.severity),
                title: f.code,
                message: clipBytes(`${visible(where)}: ${visible(f.message)}`, MESSAGE_MAX_BYTES),
            });
            continue;
        }
        const p = place(f.file, f.line, f.column, f.member);
        out.push({
            path: p.path,
            line: p.line,
            column: p.column,
            level: LEVEL(f.severity),
            title: f.code,
            message: clipBytes(p.inside + visible(f.message), MESSAGE_MAX_BYTES),
        });
    }
    const byPath = (a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
    const kept = scope === 'all' ? out : out.filter((a) => a.level !== 'notice');
    return kept.sort((a, b) => annotationRank(a.level) - annotationRank(b.level) || byPath(a.path, b.path) || a.line - b.line);
}

;// CONCATENATED MODULE: ./src/report/sarif.ts
/**
 * SARIF 2.1.0 for code scanning (github/codeql-action/upload-sarif): one rule per finding code,
 * one result per error or warning about a file (notices stay out: every result is an alert), findings
 * about inputs as tool configuration notifications, repository-relative locations, stable partial fingerprints.
 */




function renderSarif(report, prefix, version) {
    const alerting = report.findings.filter((f) => f.severity !== 'notice');
    // A policy file read at another commit (a pull request's base) is not the file scanned: its findings are notifications.
    const elsewhere = (f) => f.commit !== undefined;
    const located = alerting.filter((f) => f.input === undefined && !elsewhere(f));
    const inputs = alerting.filter((f) => f.input !== undefined);
    const atBase = alerting.filter((f) => f.input === undefined && elsewhere(f));
    // An excused or grandfathered shortfall stays visible to code scanning, suppressed: never counted open.
    const suppressed = report.calls.filter((c) => c.suppressed !== null);
    const codes = [...new Set([...located.map((f) => f.code), ...(suppressed.length > 0 ? ['policy_unmet'] : [])])].sort();
    const rules = codes.map((code) => ({
        id: code,
        name: code.replace(/(^|_)([a-z])/g, (_m, _u, c) => c.toUpperCase()),
        shortDescription: { text: core_findings/* FINDINGS */.TG[code].title },
        fullDescription: { text: core_findings/* FINDINGS */.TG[code].help },
        defaultConfiguration: { level: severity/* SEVERITY_TABLE */.ps[core_findings/* FINDINGS */.TG[code].severity].sarif },
        helpUri: 'https://github.com/receipt-gate/receipt-gate#findings',
    }));
    // Code scanning turns every result into an alert: notices (skipped objects, under-claims) stay in
    // the report and the summary. A finding about an input has no artifact: it is a tool configuration
    // notification, never a result at an invented location.
    const results = located.map((finding) => {
        const uri = repoPath(prefix, finding.file);
        return {
            ruleId: finding.code,
            ruleIndex: codes.indexOf(finding.code),
            level: severity/* SEVERITY_TABLE */.ps[finding.severity].sarif,
            message: { text: finding.member ? `${finding.member}:${finding.line}:${finding.column}: ${finding.message}` : finding.message },
            locations: [
                {
                    physicalLocation: {
                        artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
                        region: finding.member ? { startLine: 1 } : { startLine: finding.line, startColumn: finding.column },
                    },
                },
            ],
            partialFingerprints: {
                'receiptGate/v1': (0,binding/* sha256Hex */.fg)(`${finding.code}\0${uri}\0${finding.member ?? ''}\0${finding.line}\0${finding.column}\0${finding.message}`),
            },
        };
    });
    for (const call of suppressed) {
        const s = call.suppressed;
        if (!s)
            continue;
        const uri = repoPath(prefix, call.artifact);
        results.push({
            ruleId: 'policy_unmet',
            ruleIndex: codes.indexOf('policy_unmet'),
            level: severity/* SEVERITY_TABLE */.ps[s.severity].sarif,
            message: { text: call.member ? `${call.member}:${call.line}:${call.column}: ${s.message}` : s.message },
            locations: [
                {
                    physicalLocation: {
                        artifactLocation: { uri, uriBaseId: '%SRCROOT%' },
                        region: call.member ? { startLine: 1 } : { startLine: call.line, startColumn: call.column },
                    },
                },
            ],
            suppressions: [{ kind: 'external', status: 'accepted', justification: s.justification }],
            partialFingerprints: {
                'receiptGate/v1': (0,binding/* sha256Hex */.fg)(`policy_unmet\0${uri}\0${call.member ?? ''}\0${call.line}\0${call.column}\0${s.message}`),
            },
        });
    }
    const notifications = [
        ...inputs.map((f) => ({
            descriptor: { id: f.code },
            level: severity/* SEVERITY_TABLE */.ps[f.severity].sarif,
            message: { text: `${f.input}: ${f.message}` },
        })),
        ...atBase.map((f) => ({
            descriptor: { id: f.code },
            level: severity/* SEVERITY_TABLE */.ps[f.severity].sarif,
            message: { text: `${f.file}:${f.line}:${f.column} at commit ${f.commit ?? ''}: ${f.message}` },
        })),
    ];
    const sarif = {
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        version: '2.1.0',
        runs: [
            {
                tool: { driver: { name: 'receipt-gate', version, informationUri: 'https://github.com/receipt-gate/receipt-gate', rules } },
                ...(notifications.length > 0
                    ? { invocations: [{ executionSuccessful: true, toolConfigurationNotifications: notifications }] }
                    : {}),
                results,
            },
        ],
    };
    return JSON.stringify(sarif, null, 2) + '\n';
}

;// CONCATENATED MODULE: ./src/report/table.ts
/** The terminal report: one line per call, findings grouped by severity, totals. */





const pad = (s, n) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
/** The policy in effect in one phrase: a policy file by its path, `require` rules as written. */
function policyText(report) {
    const { rules, source } = report.policy;
    const totals = report.totals;
    const warned = `${totals.policy_warned > 0 ? `, ${totals.policy_warned} would fail under enforce` : ''}${totals.pending > 0 ? `, ${totals.pending} pending (export not due)` : ''}`;
    if (source)
        return `; policy ${text_visible(source.path)}: ${totals.policy_unmet} call(s) below it${warned}`;
    if (rules.length === 0)
        return '';
    return `; policy ${rules.map((r) => `${String(r['selector'])}=${String(r['level'])}`).join(', ')}: ${totals.policy_unmet} call(s) below it${warned}`;
}
function renderTable(report, style) {
    // The caller decided (a terminal, no NO_COLOR): Node's styleText paints without asking the stream again.
    const paint = style.color ? (n, s) => (0,external_node_util_namespaceObject.styleText)(n, s, { validateStream: false }) : (_n, s) => s;
    const out = [];
    const totals = report.totals;
    if (report.calls.length > 0) {
        // file:line, with the column only where calls share a line (an NDJSON surface line holds many).
        const lineKey = (c) => `${c.artifact}\u0000${c.member ?? ''}\u0000${c.line}`;
        const perLine = new Map();
        for (const c of report.calls)
            perLine.set(lineKey(c), (perLine.get(lineKey(c)) ?? 0) + 1);
        const rows = failingFirst(report.calls).map(({ call: c, fails }) => ({
            fails,
            level: c.level,
            claimed: text_rung(c.claimed_level),
            required: text_rung(c.required_level),
            tool: (0,core_text/* clip */.$Q)(text_visible(c.tool ?? '(no tool name)'), 40),
            loc: text_visible(where({
                file: c.artifact,
                line: c.line,
                member: c.member ?? undefined,
                ...((perLine.get(lineKey(c)) ?? 0) > 1 ? { column: c.column } : {}),
            })),
        }));
        const toolWidth = Math.max(4, ...rows.map((r) => r.tool.length));
        // The REQUIRED column only when a policy is in effect.
        const policy = report.policy.rules.length > 0;
        const req = (s) => (policy ? `${pad(s, 19)}  ` : '');
        // Failing calls first, each marked in its own column (✗), so a failure is never below the fold.
        out.push(paint('bold', `  ${pad('LEVEL', 19)}  ${pad('CLAIMED', 19)}  ${req('REQUIRED')}${pad('TOOL', toolWidth)}  LOCATION`));
        for (const r of rows) {
            const level = r.level === null ? pad(text_rung(null), 19) : paint(vocabulary/* LEVEL_TABLE */.iH[r.level].colour, pad(r.level, 19));
            const mark = r.fails ? paint('red', '✗ ') : '  ';
            out.push(`${mark}${level}  ${pad(r.claimed, 19)}  ${req(r.required)}${pad(r.tool, toolWidth)}  ${r.loc}`);
        }
    }
    else {
        out.push('No calls.');
    }
    for (const sev of severity/* SEVERITIES */.oC) {
        const fs = report.findings.filter((f) => f.severity === sev);
        if (fs.length === 0)
            continue;
        out.push('', paint(severity/* SEVERITY_TABLE */.ps[sev].colour, paint('bold', `${sev === 'error' ? 'Errors' : sev === 'warning' ? 'Warnings' : 'Notices'} (${fs.length})`)));
        for (const f of fs) {
            out.push(`  ${paint(severity/* SEVERITY_TABLE */.ps[sev].colour, f.code)}  ${findingPlace(f)}`);
            out.push(`    ${(0,core_text/* clip */.$Q)(text_visible(f.message), 2000)}`);
        }
    }
    out.push('');
    const verdict = report.ok ? paint('green', paint('bold', 'PASS')) : paint('red', paint('bold', 'FAIL'));
    out.push(`${verdict}  ${totals.calls} call(s) in ${totals.artifacts} run(s): ${levelCounts(totals)}`, `      ${totals.records} audit record(s): ${recordCounts(totals)}`, `      ${findingCounts(totals)}`, ...(producerLine(report)
        ? [
            `      ${producerLine(report)}`,
            ...report.runs.map((r) => `        ${text_visible((0,core_text/* clip */.$Q)(r.artifact, 200))}: ${text_visible(runProducer(r.producer))}`),
        ]
        : []), `      ${weakestRung(totals)}${policyText(report)}`);
    return out.join('\n') + '\n';
}

;// CONCATENATED MODULE: ./src/report/verification-summary.ts
/**
 * The verdict as an in-toto Statement with the SLSA Verification Summary predicate
 * (docs/attestations.md §2, semantics §11): the report file is the subject, the commit the bytes
 * were read from is `resourceUri`, the policy digest covers everything that decides a verdict
 * besides the inputs (the report carries that object as `policy`, so a consumer can recompute it),
 * and every input file is listed with its sha256. Pure: the caller hands in the report's digest,
 * the inputs' digests and the time; nothing here reads a file or a clock.
 */





const VERIFIER_ID = 'https://github.com/receipt-gate/receipt-gate';
/** The policy's name when nothing better names it: the report's own `policy` object is the policy. */
const DEFAULT_POLICY_URI = 'receipt-gate:report.policy';
/** sha256 of JCS(the policy object the report carries): what a consumer recomputes. */
function policyDigest(report) {
    const canonical = (0,binding/* jcs */.vI)(report.policy);
    if (!canonical.ok)
        throw new Error(`the report's policy cannot be canonicalized: ${canonical.reason}`); // built from strings and booleans only
    return (0,binding/* sha256Hex */.fg)(canonical.text);
}
/** The policy file in effect as a URI: `<path>@<commit>` when read at a commit, its path when read on disk; null: none. */
function policyFileUri(report) {
    const source = report.policy.source;
    if (!source)
        return null;
    return source.commit === null ? source.path : `${source.path}@${source.commit}`;
}
/** The RECEIPTS_* levels of a verdict (SLSA reserves SLSA_*). */
function verifiedLevels(report) {
    if (!report.ok)
        return [];
    const w = report.totals.weakest_level;
    const levels = [w === null ? 'RECEIPTS_NO_SIDE_EFFECTS' : `RECEIPTS_WEAKEST_${w.toUpperCase()}`];
    if (report.policy.rules.length > 0 && report.totals.policy_unmet === 0)
        levels.push('RECEIPTS_POLICY_MET');
    // Keys or identities: either set in force means every record (every run) had to be vouched for.
    const ids = report.policy.identities;
    if (report.policy.trusted_signers.length > 0 || (ids?.trusted_signer_identities.length ?? 0) > 0)
        levels.push('RECEIPTS_SIGNED_RECORDS');
    if (report.policy.trusted_producers.length > 0 || (ids?.trusted_producer_identities.length ?? 0) > 0)
        levels.push('RECEIPTS_ATTESTED_RUNS');
    return levels;
}
function vsaPredicate(report, ctx) {
    return {
        verifier: { id: VERIFIER_ID, version: { 'receipt-gate': ctx.version } },
        // The only member that is not deterministic.
        // The report's verification time: --now reproduces a verdict byte for byte.
        timeVerified: (0,binding/* utcSeconds */.kk)(new Date(report.verified_at)),
        resourceUri: ctx.resourceUri,
        policy: { uri: ctx.policyUri ?? policyFileUri(report) ?? DEFAULT_POLICY_URI, digest: { sha256: policyDigest(report) } },
        inputAttestations: [...ctx.inputs.entries()].sort(([a], [b]) => (0,core_text/* cmp */.r2)(a, b)).map(([uri, sha256]) => ({ uri, digest: { sha256 } })),
        verificationResult: report.ok ? 'PASSED' : 'FAILED',
        verifiedLevels: verifiedLevels(report),
    };
}
function vsaStatement(report, ctx) {
    return {
        _type: read_envelope/* STATEMENT_TYPE */.zG,
        subject: [{ name: ctx.reportName, digest: { sha256: ctx.reportSha256 } }],
        predicateType: read_envelope/* VSA_PREDICATE_TYPE */.cF,
        predicate: vsaPredicate(report, ctx),
    };
}
/** The subject's name: the report's path relative to the workspace (its file name when it lies outside). */
function reportName(workspace, reportFile) {
    return (0,discover/* inside */.n)(workspace, reportFile) ? external_node_path_default().relative(workspace, reportFile).split((external_node_path_default()).sep).join('/') : external_node_path_default().basename(reportFile);
}
/** `git+https://github.com/OWNER/REPO@SHA` from the runner's variables, or null when one is missing. */
function resourceUriFromEnv(env) {
    const server = env['GITHUB_SERVER_URL'];
    const repo = env['GITHUB_REPOSITORY'];
    const sha = env['GITHUB_SHA'];
    if (!server || !repo || !sha)
        return null;
    return `git+${server.replace(/\/+$/, '')}/${repo}@${sha}`;
}

;// CONCATENATED MODULE: ./src/tools/verdict.ts
/**
 * Writing the verdict attestation (docs/attestations.md §2): the predicate alone (for
 * `actions/attest`, which makes and signs the Statement around it) and/or the Statement in a DSSE
 * envelope signed with an Ed25519 key (for consumers outside GitHub: `verify-attestation`). The
 * payload is the UTF-8 of JCS(the Statement). Each file is written whole or not at all.
 */







/** Write the requested files; `message` lists what was written. */
function writeVerdict(report, origin, files) {
    const ctx = {
        reportName: reportName(origin.workspace, origin.reportFile),
        reportSha256: origin.reportDigest.replace(/^sha256:/, ''),
        resourceUri: origin.resourceUri,
        policyUri: origin.policyUri,
        inputs: origin.inputs,
        version: origin.version,
    };
    const statement = vsaStatement(report, ctx);
    const written = [];
    try {
        if (files.predicate) {
            writeWhole(files.predicate, `${JSON.stringify(statement.predicate, null, 2)}\n`);
            written.push(files.predicate);
        }
        if (files.envelope) {
            if (!files.key)
                return {
                    ok: false,
                    reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', files.envelope, 'a signed verdict needs a key (--vsa-key / vsa-key)')],
                };
            const payload = (0,binding/* jcs */.vI)(statement);
            if (!payload.ok)
                return {
                    ok: false,
                    reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', files.envelope, `the Statement cannot be canonicalized: ${payload.reason}`)],
                };
            writeWhole(files.envelope, `${envelopeLine(read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, Buffer.from(payload.text, 'utf8'), files.key)}\n`);
            written.push(files.envelope);
        }
    }
    catch (error) {
        return {
            ok: false,
            reason: [(0,core_findings/* inputFinding */.uY)('invalid_artifact', files.envelope ?? files.predicate ?? '', `cannot write the verdict: ${(0,core_text/* messageOf */.bD)(error)}`)],
        };
    }
    return { ok: true, value: written.join('\n') };
}

;// CONCATENATED MODULE: ./src/cli/commands/verify.ts
/**
 * `receipt-gate verify`: its options, its flags read into the one settings builder (the action's
 * inputs feed the same), the gate, and the report, SARIF and verdict written.
 */




















/** What selects, trusts and judges the evidence: the options `verify` and `policy` share. */
const GATE_OPTIONS = [
    {
        flag: 'runs',
        kind: 'list',
        arg: 'PATH|GLOB',
        input: 'runs',
        help: 'run artifacts (.json surfaces, .ndjson/.jsonl logs, .log server logs, .tar.gz evidence bundles); repeatable. A directory means every *.json, *.jsonl, *.ndjson, *.log and *.tar.gz beneath it',
    },
    {
        flag: 'audit',
        kind: 'list',
        arg: 'PATH|GLOB',
        input: 'audit',
        help: 'provider audit exports (.json, .ndjson, .jsonl); repeatable',
    },
    {
        flag: 'require',
        kind: 'list',
        arg: 'SELECTOR=LEVEL',
        input: 'require',
        help: 'required levels; SELECTOR is *, CLASS or CLASS:VERB, LEVEL asserted, observed_confirmed or verified (e.g. github_deploy_key:create=verified); one rule or several, comma- or newline-separated as in the action input; repeatable, the most specific rule applies',
    },
    {
        flag: 'trusted-key',
        kind: 'list',
        arg: 'FILE',
        input: 'trusted-keys',
        help: 'PEM public key(s) of trusted record signers (Ed25519, SPKI; relative to -C); repeatable. With any, every record must be signed by one of them',
    },
    {
        flag: 'trusted-producer',
        kind: 'list',
        arg: 'FILE',
        input: 'trusted-producers',
        help: 'PEM public key(s) of trusted run producers (Ed25519; relative to -C); repeatable. With any, every run must be an evidence bundle attested by one of them (a <bundle>.intoto.jsonl sidecar)',
    },
    {
        flag: 'trusted-signer-identity',
        kind: 'list',
        arg: 'URI',
        input: 'trusted-signer-identities',
        help: 'a workflow identity (the URI a certificate names: the workflow file at its ref) whose GitHub artifact attestations (a <file>.sigstore.json beside an audit export) trust its records; repeatable; needs --source-repository',
    },
    {
        flag: 'trusted-producer-identity',
        kind: 'list',
        arg: 'URI',
        input: 'trusted-producer-identities',
        help: 'a workflow identity whose attestations (a <run>.sigstore.json) attest runs; repeatable; needs --source-repository',
    },
    {
        flag: 'source-repository',
        kind: 'string',
        arg: 'OWNER/NAME',
        help: 'the repository an identity must have run for (its Source Repository URI extension); required with any identity',
    },
    {
        flag: 'source-ref',
        kind: 'list',
        arg: 'REF',
        input: 'source-refs',
        default: 'refs/heads/main',
        help: 'an allowed Source Repository Ref (repeatable; given values replace the default)',
    },
    {
        flag: 'certificate-oidc-issuer',
        kind: 'string',
        arg: 'URL',
        input: 'certificate-oidc-issuer',
        help: "the certificates' OIDC issuer",
    },
    {
        flag: 'trusted-root',
        kind: 'string',
        arg: 'FILE',
        input: 'trusted-root',
        help: 'a Sigstore trusted root, or JSON lines of them (gh attestation trusted-root; relative to -C). Default: the Sigstore public-good root shipped with receipt-gate',
    },
    {
        flag: 'policy',
        kind: 'string',
        arg: 'FILE',
        input: 'policy',
        help: 'the policy file (docs/policy.md; relative to -C); a missing default means none (the --require rules apply)',
    },
    {
        flag: 'policy-ref',
        kind: 'string',
        arg: 'REF',
        help: 'read the policy file as it is at REF (git), as the action reads it at a pull request base',
    },
    {
        flag: 'now',
        kind: 'string',
        arg: 'TIME',
        help: 'the verification time (RFC 3339), to reproduce a verdict: exceptions expire and exports fall due against it. Default: now',
    },
    {
        flag: 'require-signed-records',
        kind: 'boolean',
        input: 'require-signed-records',
        help: 'refuse to run without a trusted signer (--trusted-key): trust is never turned off by an empty list',
    },
    {
        flag: 'require-attested-runs',
        kind: 'boolean',
        input: 'require-attested-runs',
        help: 'refuse to run without a trusted producer (--trusted-producer)',
    },
    {
        flag: 'allow-unmatched-records',
        kind: 'boolean',
        input: 'allow-unmatched-records',
        help: 'an audit record bound to no call is a warning, not an error',
    },
    {
        flag: 'strict-observed',
        kind: 'boolean',
        input: 'strict-observed',
        help: 'an unreproduced observed_confirmed claim is an error, not a warning',
    },
    {
        flag: 'working-directory',
        short: 'C',
        kind: 'string',
        arg: 'DIR',
        input: 'working-directory',
        help: 'run as if started in DIR (inputs and reported paths are relative to it; nothing outside it is read)',
    },
    ...LIMITS,
    {
        flag: 'jobs',
        kind: 'string',
        arg: 'N',
        input: 'jobs',
        help: "threads that read the input files and check the Sigstore bundles beside them: a number, or auto (the machine's cores when the input is over 64 MiB or 128 files have a bundle checked by identity, else one); 1 reads on the main thread",
    },
];
/** What `verify` writes: the report, SARIF, the verdict. */
const REPORT_OPTIONS = [
    { flag: 'format', kind: 'string', arg: 'table|json', default: 'table on a terminal, json otherwise', help: 'output format' },
    {
        flag: 'output',
        kind: 'string',
        arg: 'FILE',
        input: 'report-file',
        help: 'write the report to FILE instead of stdout (relative to -C)',
    },
    {
        flag: 'sarif-file',
        kind: 'string',
        arg: 'FILE',
        input: 'sarif-file',
        help: 'also write SARIF 2.1.0 for code scanning to FILE (relative to -C)',
    },
    {
        flag: 'vsa-predicate',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa-predicate',
        help: 'write the verdict as a SLSA Verification Summary predicate (for actions/attest; relative to -C); needs --output',
    },
    {
        flag: 'vsa',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa',
        help: 'write the verdict as a signed in-toto Statement (a DSSE envelope line; relative to -C); needs --output and --vsa-key',
    },
    {
        flag: 'vsa-key',
        kind: 'string',
        arg: 'FILE',
        input: 'vsa-key',
        help: 'the Ed25519 private key that signs --vsa (a key file from keygen; relative to -C)',
    },
    {
        flag: 'resource-uri',
        kind: 'string',
        arg: 'URI',
        help: 'the commit the bytes were read from, named in the verdict. Default: git+ then $GITHUB_SERVER_URL/$GITHUB_REPOSITORY@$GITHUB_SHA',
    },
    {
        flag: 'policy-uri',
        kind: 'string',
        arg: 'URI',
        default: `the policy file's PATH@COMMIT (or PATH) when one is in effect, else ${DEFAULT_POLICY_URI}`,
        help: "a name for the policy, named in the verdict (its digest is the report's policy object's)",
    },
];
const verify_OPTIONS = [...GATE_OPTIONS, ...REPORT_OPTIONS];
/** --resource-uri as given: it must be a URI (a scheme, then what URL parsing accepts); undefined when not given. */
function resourceUriOf(value) {
    if (value === undefined)
        return undefined;
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) || !URL.canParse(value))
        throw new types_UsageError('value', `--resource-uri: "${value}" is not a URI (e.g. git+https://github.com/OWNER/REPO@<commit sha>)`);
    return value;
}
/** The verdict flags, checked together; a verdict key that cannot be used stops the run before anything is read or written. */
function verdictRequest(flags, at, out, env, output, format) {
    if (flags['vsa-predicate'] === undefined && flags.vsa === undefined) {
        if (flags['vsa-key'] !== undefined)
            throw new types_UsageError('conflict', '--vsa-key: only with --vsa FILE');
        return null;
    }
    const flag = flags.vsa !== undefined ? '--vsa' : '--vsa-predicate';
    if (output === null || format !== 'json')
        throw new types_UsageError('missing', `${flag}: the verdict is about the report file: also give --output REPORT (JSON)`);
    if (flags.vsa !== undefined && flags['vsa-key'] === undefined)
        throw new types_UsageError('missing', '--vsa: a signed verdict needs --vsa-key FILE');
    const resourceUri = resourceUriOf(flags['resource-uri']) ?? resourceUriFromEnv(env);
    if (!resourceUri)
        throw new types_UsageError('missing', `${flag}: SLSA requires resourceUri: give --resource-uri URI (or run where GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_SHA are set)`);
    const keyFile = at(flags['vsa-key']);
    return {
        predicate: out('vsa-predicate', flags['vsa-predicate']),
        envelope: out('vsa', flags.vsa),
        key: keyFile === null ? null : readSigningKey('--vsa-key', keyFile),
        resourceUri,
        policyUri: flags['policy-uri'] ?? null,
    };
}
/** PEM texts of the key files a repeatable flag names (relative to `dir`). */
function pemFiles(flag, files, dir) {
    return (files ?? []).map((file) => {
        if (file.trim() === '')
            throw new types_UsageError('value', `${flag}: an empty file name (an unset variable?)`);
        return { name: `${flag} ${file}`, pem: readKeyText(flag, external_node_path_default().resolve(dir, file)) };
    });
}
/** The flags as the one settings builder takes them. */
function gateInputs(flags, dir, ctxNow) {
    return {
        names: {
            runs: '--runs',
            audit: '--audit',
            require: '--require',
            jobs: '--jobs',
            trustedKeys: '--trusted-key',
            requireSignedRecords: '--require-signed-records',
            trustedProducers: '--trusted-producer',
            requireAttestedRuns: '--require-attested-runs',
            signerIdentities: '--trusted-signer-identity',
            producerIdentities: '--trusted-producer-identity',
            sourceRepository: '--source-repository',
            sourceRefs: '--source-ref',
            issuer: '--certificate-oidc-issuer',
            trustedRoot: '--trusted-root',
            limitsPrefix: '--',
        },
        cwd: dir,
        workspace: dir,
        runs: flags.runs ?? null,
        audit: flags.audit ?? null,
        allowUnmatchedRecords: flags['allow-unmatched-records'] ?? null,
        strictObserved: flags['strict-observed'] ?? null,
        maxFileSize: flags['max-file-size'] ?? null,
        maxLineSize: flags['max-line-size'] ?? null,
        jobs: flags.jobs ?? null,
        require: flags.require ?? [],
        trustedKeys: pemFiles('--trusted-key', flags['trusted-key'], dir),
        requireSignedRecords: flags['require-signed-records'] ?? false,
        trustedProducers: pemFiles('--trusted-producer', flags['trusted-producer'], dir),
        requireAttestedRuns: flags['require-attested-runs'] ?? false,
        identities: {
            signerIdentities: flags['trusted-signer-identity'] ?? [],
            producerIdentities: flags['trusted-producer-identity'] ?? [],
            sourceRepository: flags['source-repository'] ?? null,
            sourceRefs: flags['source-ref'] ?? [],
            defaultRef: 'refs/heads/main',
            issuer: flags['certificate-oidc-issuer'] ?? null,
        },
        trustedRoot: flags['trusted-root'] === undefined
            ? null
            : { kind: 'file', file: diskText('--trusted-root', dir, flags['trusted-root'], limitsOf(flags)) },
        policy: policyGiven(flags, dir),
        now: nowOf(flags.now, ctxNow),
    };
}
/** A file a flag names, its text as on disk, named relative to -C. */
function diskText(flag, dir, file, limits) {
    const abs = external_node_path_default().resolve(dir, file);
    return { path: external_node_path_default().relative(dir, abs).split((external_node_path_default()).sep).join('/'), commit: null, text: readTextFile(flag, abs, limits) };
}
/** --policy (default: .github/receipt-gate.yml, none when absent) read on disk, or at --policy-ref with git. */
function policyGiven(flags, dir) {
    const file = flags.policy ?? defaults_DEFAULTS.policy;
    const explicit = flags.policy !== undefined;
    const abs = external_node_path_default().resolve(dir, file);
    const rel = external_node_path_default().relative(dir, abs).split((external_node_path_default()).sep).join('/');
    const ref = flags['policy-ref'];
    if (ref !== undefined) {
        const commit = resolveCommit(dir, ref);
        if (commit === null)
            throw new types_UsageError('value', `--policy-ref: "${ref}" names no commit of the repository at ${dir}`);
        const text = readAtCommit(dir, commit, abs);
        if (!text.ok)
            throw new types_UsageError('file', `--policy-ref ${ref}: ${text.reason}`);
        if (text.value === null) {
            if (explicit)
                throw new types_UsageError('path', `--policy: ${rel} does not exist at ${ref} (${commit.slice(0, 12)})`);
            return { kind: 'none' };
        }
        return { kind: 'file', file: { path: rel, commit, text: text.value } };
    }
    if (!(0,external_node_fs_.existsSync)(abs)) {
        if (explicit)
            throw new types_UsageError('path', `--policy: "${file}" does not exist (a missing default means no policy file; an explicit one must exist)`);
        return { kind: 'none' };
    }
    return { kind: 'file', file: { path: rel, commit: null, text: readTextFile('--policy', abs) } };
}
/** --now (RFC 3339), or the time the command runs. */
function nowOf(given, now) {
    if (given === undefined)
        return (0,core_time/* instantOf */.B9)(now);
    const t = (0,core_time/* parseRfc3339 */.TM)(given);
    if (!t.ok)
        throw new types_UsageError('value', `--now: "${given}" ${t.reason}`);
    return t.value;
}
/** The flags → the request (settings through the one builder); a mistake throws a UsageError naming the flag. */
function verifyRequest(argv, ctx) {
    const { flags: f, rest, help } = parseFlags(argv, verify_OPTIONS);
    if (help)
        return 'help';
    if (rest.length > 0)
        throw new types_UsageError('value', `unexpected argument "${rest[0]}" (use --runs / --audit for paths)`);
    // -C works as git -C: every relative path the command takes (inputs, keys, outputs) is relative to it.
    const dir = directoryIn(null, ctx.cwd, f['working-directory'] ?? '.', '-C/--working-directory');
    const at = (v) => (v === undefined ? null : external_node_path_default().resolve(dir, v));
    /** A file the gate writes: never out of -C's directory through a link it holds. */
    const out = (flag, v) => (v === undefined ? null : outputIn(dir, dir, v, `--${flag}`));
    const output = out('output', f.output);
    const format = f.format !== undefined
        ? parseChoice('--format', f.format, ['table', 'json'])
        : ctx.isTTY && output === null
            ? 'table'
            : 'json';
    const sarif = out('sarif-file', f['sarif-file']);
    const vsa = verdictRequest(f, at, out, ctx.env, output, format);
    distinctOutputs([
        ['--output', output],
        ['--sarif-file', sarif],
        ['--vsa-predicate', vsa?.predicate ?? null],
        ['--vsa', vsa?.envelope ?? null],
        ['--vsa-key', at(f['vsa-key'])],
    ]);
    return { settings: buildSettings(gateInputs(f, dir, ctx.now ?? new Date())), format, output, sarif, vsa };
}
/** An output the gate could not write: a configuration problem (exit 2). */
const cannotWrite = (flag, file, e) => ({
    code: EXIT.usage,
    stdout: '',
    stderr: `receipt-gate: cannot write ${flag} ${file}: ${e instanceof Error ? e.message : String(e)}\n`,
});
async function run(ctx) {
    const req = verifyRequest(ctx.argv, ctx);
    if (req === 'help')
        return req;
    const gated = await runGate(req.settings, req.vsa !== null);
    if (!gated.ok)
        return usageError(gated.reason.input ? `--${gated.reason.input}: ${gated.reason.message}` : gated.reason.message);
    const { report, inputs } = gated.value;
    const code = report.ok ? EXIT.pass : EXIT.problem;
    if (req.sarif) {
        try {
            writeWhole(req.sarif, renderSarif(report, '', ctx.version));
        }
        catch (error) {
            return cannotWrite('--sarif-file', req.sarif, error);
        }
    }
    if (req.output === null) {
        const color = req.format === 'table' && ctx.isTTY && !ctx.env['NO_COLOR'];
        return { code, stdout: req.format === 'json' ? renderJson(report) : renderTable(report, { color }), stderr: '' };
    }
    let digest = '';
    try {
        if (req.format === 'json')
            digest = await writeJson(report, req.output);
        else
            writeWhole(req.output, renderTable(report, { color: false }));
    }
    catch (thrown) {
        return cannotWrite('--output', req.output, thrown);
    }
    let attested = '';
    if (req.vsa) {
        const v = req.vsa;
        const origin = {
            workspace: req.settings.workspace,
            reportFile: req.output,
            reportDigest: digest,
            resourceUri: v.resourceUri,
            policyUri: v.policyUri,
            inputs,
            version: ctx.version,
        };
        const result = writeVerdict(report, origin, { predicate: v.predicate, envelope: v.envelope, key: v.key });
        if (!result.ok)
            return { code: EXIT.usage, stdout: '', stderr: findingLines('verify', result.reason) };
        attested = `; verdict (${report.ok ? 'PASSED' : 'FAILED'}) written to ${result.value.split('\n').join(', ')}`;
    }
    return { code, stdout: '', stderr: `receipt-gate: ${report.ok ? 'PASS' : 'FAIL'}; report written to ${req.output}${attested}\n` };
}
const verify_verify = {
    spec: {
        name: 'verify',
        synopsis: '[options]',
        summary: 'recompute every side-effect receipt binding from committed bytes and fail when a record mismatches, a claim cannot be reproduced or a required level is not reached',
        options: verify_OPTIONS,
    },
    run,
};

;// CONCATENATED MODULE: ./src/cli/commands/policy.ts
/**
 * `receipt-gate policy check` and `receipt-gate policy baseline` (docs/policy.md §5, §6): validate a
 * policy file and show its effect on the committed corpus (with `--against`, the calls whose verdict
 * changes between two policies); or write a `grandfathered` entry for every run that falls short of
 * it, whole or not at all, keeping the file's comments and order. The corpus is read once, with the
 * same options as `verify`.
 */
















const policy_OPTIONS = [
    ...GATE_OPTIONS,
    {
        flag: 'against',
        kind: 'string',
        arg: 'FILE|REF',
        help: 'check: also judge the corpus under this policy (a file, or the policy file at a git ref) and list the calls whose verdict changes',
    },
    {
        flag: 'reason',
        kind: 'string',
        arg: 'TEXT',
        help: 'baseline: why the runs are grandfathered (required), written into each entry',
    },
];
/** The `--against` policy: a file of that path, else the policy file as it is at that git ref. */
function againstPolicy(flags, dir, settings) {
    const given = flags.against ?? '';
    const file = external_node_path_default().resolve(dir, given);
    const policyPath = external_node_path_default().relative(dir, external_node_path_default().resolve(dir, flags.policy ?? '.github/receipt-gate.yml'))
        .split((external_node_path_default()).sep)
        .join('/');
    let text;
    if ((0,external_node_fs_.existsSync)(file))
        text = { path: external_node_path_default().relative(dir, file).split((external_node_path_default()).sep).join('/'), commit: null, text: readTextFile('--against', file) };
    else {
        const commit = resolveCommit(dir, given);
        if (commit === null)
            throw new types_UsageError('value', `--against: "${given}" is neither a file nor a git ref of ${dir}`);
        const got = readAtCommit(dir, commit, external_node_path_default().resolve(dir, policyPath));
        if (!got.ok)
            throw new types_UsageError('file', `--against ${given}: ${got.reason}`);
        if (got.value === null)
            throw new types_UsageError('path', `--against ${given}: ${policyPath} does not exist at ${commit.slice(0, 12)}`);
        text = { path: policyPath, commit, text: got.value };
    }
    const signers = {
        keyIds: settings.trustedKeys ? [...settings.trustedKeys.keys()] : [],
        identities: settings.keyless?.signers ? [...settings.keyless.signers.identities] : [],
    };
    const settled = settlePolicy({ kind: 'file', file: text }, { now: settings.now, signers });
    if (!settled.policy)
        throw new types_UsageError('policy', `--against: ${text.path} holds no policy`);
    return settled.policy;
}
/** The policy's effect, in lines: per rule, then what the file's own entries earn. */
function effectLines(report) {
    const out = [];
    const source = report.policy.source;
    out.push(source
        ? `policy ${source.path}${source.commit ? ` at ${source.commit.slice(0, 12)}` : ''} (sha256 ${source.sha256.slice(0, 16)}…): valid`
        : 'no policy file: the require rules apply (honesty only when none)');
    for (const e of ruleEffects(report))
        out.push(`  ${e.rule}: ${e.matched} call(s), ${e.met} met, ${e.unmet} unmet, ${e.warned} warned, ${e.pending} pending, ${e.excepted} excepted`);
    const own = ['exception_expired', 'exception_expiring', 'exception_unused', 'grandfather_stale', 'rule_unused'];
    for (const f of report.findings)
        if (own.includes(f.code))
            out.push(`  ${f.code}: ${located(f)}`);
    if (report.totals.grandfathered > 0)
        out.push(`  ${report.totals.grandfathered} call(s) grandfathered`);
    return out;
}
async function check(flags, ctx, dir) {
    const settings = buildSettings(gateInputs(flags, dir, ctx.now));
    const alternative = flags.against === undefined ? null : againstPolicy(flags, dir, settings);
    const gated = await runGate(settings, false, undefined, alternative);
    if (!gated.ok)
        throw new types_UsageError(gated.reason.code, gated.reason.message);
    const lines = effectLines(gated.value.report);
    if (gated.value.alternative) {
        const list = changes(gated.value.report, gated.value.alternative);
        lines.push(`against ${flags.against}: ${changesText(list, 50)}`);
    }
    return { code: EXIT.pass, stdout: `${lines.join('\n')}\n`, stderr: '' };
}
/** Runs that fall short of the policy and are honest: what a baseline grandfathers; and how many were left for an honesty failure. */
function shortRuns(report) {
    const short = new Set(report.calls.filter((c) => c.below_required || c.warned).map((c) => c.artifact));
    const policyCodes = new Set([
        'policy_unmet',
        'exception_expired',
        'exception_expiring',
        'exception_unused',
        'grandfather_stale',
        'rule_unused',
    ]);
    const dishonest = new Set(report.findings.filter((f) => f.severity === 'error' && f.file !== null && !policyCodes.has(f.code)).map((f) => f.file));
    const runs = [...short].filter((r) => !dishonest.has(r)).sort();
    return { runs, dishonest: [...short].filter((r) => dishonest.has(r)).sort() };
}
async function baseline(flags, ctx, dir) {
    const reason = flags.reason?.trim() ?? '';
    if (reason === '')
        throw new types_UsageError('missing', 'policy baseline: --reason TEXT is required (why these runs are judged for honesty only)');
    if (flags['policy-ref'] !== undefined)
        throw new types_UsageError('conflict', 'policy baseline: --policy-ref reads a commit; baseline writes the file on disk');
    const settings = buildSettings(gateInputs(flags, dir, ctx.now));
    const source = settings.policy.source;
    if (settings.policy.kind !== 'file' || !source)
        throw new types_UsageError('missing', 'policy baseline: no policy file (give --policy FILE, or write .github/receipt-gate.yml first)');
    const gated = await runGate(settings, true);
    if (!gated.ok)
        throw new types_UsageError(gated.reason.code, gated.reason.message);
    const { runs, dishonest } = shortRuns(gated.value.report);
    const file = external_node_path_default().resolve(dir, source.path);
    const doc = (0,dist/* parseDocument */.Tp)(readTextFile('--policy', file), { keepSourceTokens: true });
    let list = doc.get('grandfathered', true);
    if (!(0,dist/* isSeq */.oP)(list)) {
        list = new dist/* YAMLSeq */.Rw();
        doc.set('grandfathered', list);
    }
    const pinned = new Set(((0,dist/* isSeq */.oP)(list) ? list.items : []).flatMap((item) => ((0,dist/* isMap */.jh)(item) && (0,dist/* isScalar */.jn)(item.get('run', true)) ? [String(item.get('run'))] : [])));
    let added = 0;
    for (const run of runs) {
        const sha256 = gated.value.inputs.get(run);
        if (pinned.has(run) || sha256 === undefined)
            continue;
        if ((0,dist/* isSeq */.oP)(list))
            list.add(doc.createNode({ run, sha256, reason }));
        added++;
    }
    const said = [];
    said.push(`${added} run(s) grandfathered${runs.length - added > 0 ? `, ${runs.length - added} already were` : ''}`);
    if (dishonest.length > 0)
        said.push(`${dishonest.length} run(s) left out: they fail on honesty (fix them, never baseline them): ${dishonest.slice(0, 10).join(', ')}${dishonest.length > 10 ? ' …' : ''}`);
    if (added === 0)
        return { code: EXIT.pass, stdout: '', stderr: say('policy baseline', ...said, `${source.path} not changed`) };
    try {
        writeWhole(file, doc.toString({ lineWidth: 0 }));
    }
    catch (error) {
        return unwritable('policy baseline', 'the policy file', file, error);
    }
    return {
        code: EXIT.pass,
        stdout: '',
        stderr: say('policy baseline', ...said, `written to ${source.path} (review the diff; it applies once merged)`),
    };
}
const policy = {
    spec: {
        name: 'policy',
        synopsis: 'check|baseline [--policy FILE] [--against FILE|REF] [--reason TEXT] [options]',
        summary: 'validate the policy file and show its effect on the corpus, or grandfather the runs that fall short of it',
        about: 'check: every problem of the policy file located (exit 2 when invalid), then per rule the calls matched, met, unmet, warned, pending and excepted, and the exceptions and grandfathered runs that need attention; with --against, the calls whose verdict changes. baseline: a grandfathered entry (path, sha256, --reason) for every run holding a call below its required level, written into the file keeping its comments, never for a run that fails on honesty. Takes the options of verify that select and judge the evidence',
        options: policy_OPTIONS,
    },
    async run(ctx) {
        const { flags, rest, help } = parseFlags(ctx.argv, policy_OPTIONS);
        if (help)
            return 'help';
        const [sub, ...more] = rest;
        if (more.length > 0)
            throw new types_UsageError('value', `policy: unexpected argument "${more[0]}"`);
        const dir = directoryIn(null, ctx.cwd, flags['working-directory'] ?? '.', '-C/--working-directory');
        if (sub === 'check')
            return check(flags, ctx, dir);
        if (sub === 'baseline')
            return baseline(flags, ctx, dir);
        throw new types_UsageError('value', `policy: check or baseline${sub === undefined ? ' is required' : `, not "${sub}"`}`);
    },
};

// EXTERNAL MODULE: ./src/read/artifacts.ts + 2 modules
var artifacts = __nccwpck_require__(1938);
;// CONCATENATED MODULE: ./src/tools/sign.ts
/**
 * `sign`: audit records (and the coverage statements among them), signed, as NDJSON. Fails closed:
 * nothing is written unless every input is valid and every record's binding recomputes, and the
 * output appears only whole (writeWhole).
 */







/**
 * Read records from the inputs with the gate's strict readers, refuse any problem, sign each record
 * and return the NDJSON text (one signed record per line, in input then record order).
 */
function signRecords(key, inputs, limits, signedAt) {
    const errors = [];
    const entries = [];
    for (const input of inputs) {
        const format = (0,formats/* formatOf */.be)(input.name);
        if (format !== 'json' && format !== 'ndjson') {
            errors.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', input.name, 'not an audit export (.json, .jsonl or .ndjson)'));
            continue;
        }
        const read = (0,artifacts/* readAuditFile */.q)(input.name, input.bytes, format, limits, { payloads: true });
        const bad = read.findings.filter((f) => f.severity === 'error');
        for (const f of bad)
            errors.push(f);
        if (read.entries.length === 0 && bad.length === 0)
            errors.push((0,core_findings/* inputFinding */.uY)('invalid_artifact', input.name, 'no audit record to sign'));
        for (const x of read.entries)
            entries.push(x);
    }
    const lines = [];
    for (const r of entries) {
        if (r.kind === 'statement') {
            // A coverage statement is signed as it is, under its own payload type (docs/coverage.md §5).
            if (r.payload !== undefined)
                lines.push(signedLine(r.payload, key, signedAt, signature/* COVERAGE_PAYLOAD_TYPE */.f4));
            continue;
        }
        const bound = (0,binding/* binding */.Ch)(r.record.subject);
        if (!bound.ok || bound.digest !== r.record.binding_digest || r.payload === undefined) {
            const why = `record ${JSON.stringify((0,core_text/* quote */.hD)(r.record.record_id))}: binding_digest does not recompute (${bound.ok ? bound.digest : bound.reason}); never sign a binding that does not recompute`;
            errors.push((0,core_findings/* finding */.gk)('invalid_artifact', r.loc, why));
            continue;
        }
        lines.push(signedLine(r.payload, key, signedAt));
    }
    if (errors.length > 0)
        return { ok: false, reason: errors };
    return { ok: true, value: lines.join('\n') + '\n' };
}

;// CONCATENATED MODULE: ./src/cli/commands/sign.ts
/** `receipt-gate sign`: audit records signed with an export job's private key, written whole or not at all. */










const sign_OPTIONS = [
    { flag: 'key', kind: 'string', arg: 'FILE', help: 'the Ed25519 private key (PKCS#8 PEM; required)' },
    { flag: 'output', kind: 'string', arg: 'FILE', help: 'the signed NDJSON (required)' },
    SIGNED_AT,
    ...LIMITS,
];
const sign = {
    spec: {
        name: 'sign',
        synopsis: '--key FILE --output FILE [--signed-at TIME] INPUT...',
        summary: "sign audit records with an export job's private key",
        about: 'reads audit records from INPUT files (.json, .ndjson, .jsonl), signs each with the Ed25519 private key and writes them as NDJSON to --output; refuses (exit 1, nothing written) any input that is invalid or a record whose binding does not recompute',
        options: sign_OPTIONS,
    },
    run(ctx) {
        const { flags, rest, help } = parseFlags(ctx.argv, sign_OPTIONS);
        if (help)
            return 'help';
        if (!flags.key)
            throw new types_UsageError('missing', 'sign: --key FILE is required');
        if (!flags.output)
            throw new types_UsageError('missing', 'sign: --output FILE is required');
        if (rest.length === 0)
            throw new types_UsageError('missing', 'sign: at least one INPUT file of audit records is required');
        const output = outputIn(ctx.cwd, ctx.cwd, flags.output, '--output');
        const limits = limitsOf(flags);
        const signedAt = signedAtOf(flags['signed-at']) ?? signedAtNow(ctx.now);
        const key = readSigningKey('--key', external_node_path_default().resolve(ctx.cwd, flags.key));
        const inputs = readInputs(rest.map((f) => external_node_path_default().resolve(ctx.cwd, f)), limits);
        const result = signRecords(key, inputs, limits, signedAt);
        if (!result.ok)
            return wroteNothing('sign', EXIT.problem, findingLines('sign', result.reason));
        try {
            writeWhole(output, result.value);
        }
        catch (error) {
            return unwritable('sign', '--output', output, error);
        }
        const n = result.value.split('\n').length - 1;
        return { code: EXIT.pass, stdout: '', stderr: `receipt-gate: signed ${n} record(s) into ${output}\n` };
    },
};

;// CONCATENATED MODULE: ./src/trust/verdict.ts
/**
 * `verify-attestation`: a signed verdict (docs/attestations.md §2) checked offline, in the doc's
 * order: payload type, signature by a trusted key, strict payload, Statement type, predicate type,
 * the subject digest against the report offered, `verificationResult == PASSED`. The first check
 * that fails is the reason; an envelope file may hold several envelopes, and one that passes
 * every check is enough.
 */





/** The predicate of a verdict: the resource it is about (when one is required) and PASSED; its summary line. */
function verdictOf(pred, resourceUri) {
    if (!(0,json/* isObject */.G)(pred))
        return { ok: false, reason: 'predicate is not an object' };
    if (resourceUri !== null && pred['resourceUri'] !== resourceUri)
        return {
            ok: false,
            reason: `resourceUri is ${JSON.stringify(typeof pred['resourceUri'] === 'string' ? pred['resourceUri'].slice(0, 200) : (pred['resourceUri'] ?? null))}, not ${resourceUri}: the verdict is about another commit or repository`,
        };
    if (pred['verificationResult'] !== 'PASSED')
        return { ok: false, reason: `verificationResult is ${JSON.stringify(pred['verificationResult'] ?? null)}: the gate did not pass` };
    const levels = Array.isArray(pred['verifiedLevels']) ? pred['verifiedLevels'].filter((l) => typeof l === 'string') : [];
    const policy = (0,json/* isObject */.G)(pred['policy']) && (0,json/* isObject */.G)(pred['policy']['digest']) ? pred['policy']['digest']['sha256'] : undefined;
    const resource = typeof pred['resourceUri'] === 'string' ? pred['resourceUri'] : '(no resourceUri)';
    return {
        ok: true,
        value: `PASSED ${resource} · ${levels.join(', ') || '(no levels)'} · policy sha256:${typeof policy === 'string' ? policy : '?'}`,
    };
}
async function verdict_checkOne(envelope, reportSha256, keys, limits, resourceUri) {
    const signed = await checkEnvelopeAsync(envelope, read_envelope/* IN_TOTO_PAYLOAD_TYPE */.T4, keys, 'signer');
    if (!signed.ok)
        return { ok: false, reason: signed.reason.detail };
    const result = (0,read_envelope/* strictPayload */.iv)(envelope.payload, limits);
    if (!result.ok)
        return result;
    const value = result.value;
    if (!(0,json/* isObject */.G)(value) || value['_type'] !== read_envelope/* STATEMENT_TYPE */.zG)
        return { ok: false, reason: `_type is not ${read_envelope/* STATEMENT_TYPE */.zG}` };
    if (value['predicateType'] !== read_envelope/* VSA_PREDICATE_TYPE */.cF)
        return { ok: false, reason: `predicateType is not ${read_envelope/* VSA_PREDICATE_TYPE */.cF}` };
    const subject = (0,read_envelope/* onlySubject */.Lh)(value);
    if (!subject.ok)
        return subject;
    if (subject.value.sha256 !== reportSha256)
        return { ok: false, reason: 'the subject digest differs from the report offered (the report was edited, or it is another report)' };
    const got = verdictOf(value['predicate'], resourceUri);
    return got.ok ? { ok: true, value: `${got.value} · signed by ${signed.value}` } : got;
}
/**
 * Whether an envelope file holds a valid, trusted, PASSED verdict about exactly these report bytes.
 * Its refusals are the verdict's, never the caller's (the keys were read before): `usage` is false.
 */
async function verifyVerdict(envelopeFile, envelopeBytes, report, keys, limits, resourceUri = null) {
    const result = await keySigned(envelopeFile, envelopeBytes, report, keys, limits, resourceUri);
    return result.ok ? result : { ok: false, reason: { usage: false, text: result.reason } };
}
async function keySigned(envelopeFile, envelopeBytes, report, keys, limits, resourceUri) {
    const read = (0,read_envelope/* readEnvelopeFile */.f_)(envelopeFile, envelopeBytes, limits);
    const first = read.findings[0];
    if (first)
        return { ok: false, reason: `${first.input ?? (0,core_findings/* placeOf */.$t)(first, true)}: ${first.message}` };
    if (read.empty)
        return { ok: false, reason: `${envelopeFile}: holds no DSSE envelope` };
    const sha = (0,binding/* sha256Hex */.fg)(report);
    let reason = '';
    for (const e of read.envelopes) {
        const result = await verdict_checkOne(e, sha, keys, limits, resourceUri);
        if (result.ok)
            return result;
        reason ||= read.envelopes.length > 1 ? `${e.loc.file}:${e.loc.line}: ${result.reason}` : result.reason;
    }
    return { ok: false, reason };
}
/**
 * A verdict attested with GitHub artifact attestations (a Sigstore bundle over the report, from
 * `actions/attest`): the keyless checks by workflow identity (docs/keyless.md), the subject the
 * report's bytes and base name, the Verification Summary predicate, then the verdict's own checks.
 * @param trustedRoot a trusted root file's text and name, or null for the shipped public-good root
 */
async function verifyVerdictKeyless(bundleFile, bundleBytes, reportFile, report, policy, trustedRoot, limits, resourceUri) {
    const sigstore = await Promise.all(/* import() */[__nccwpck_require__.e(168), __nccwpck_require__.e(434)]).then(__nccwpck_require__.bind(__nccwpck_require__, 2434));
    const roots = sigstore.rootsFrom(trustedRoot, limits);
    // A trusted root that cannot be used is the caller's mistake, not the verdict's.
    if (!roots.ok)
        return { ok: false, reason: { usage: true, text: roots.reason } };
    let summary = '';
    const predicate = {
        type: read_envelope/* VSA_PREDICATE_TYPE */.cF,
        check: (value) => {
            const result = verdictOf(value, resourceUri);
            if (result.ok)
                summary = result.value;
            return result.ok ? { ok: true } : result;
        },
    };
    const got = sigstore.checkBundleFile(bundleFile, bundleBytes, { subject: { name: reportFile, sha256: (0,binding/* sha256Hex */.fg)(report) }, policy, roots: roots.value, predicate }, limits);
    return got.ok
        ? { ok: true, value: `${summary} · signed by ${got.value.identity} (${got.value.sourceRef}, ${got.value.signedAt})` }
        : { ok: false, reason: { usage: false, text: got.reason } };
}

;// CONCATENATED MODULE: ./src/cli/commands/verify-attestation.ts
/** `receipt-gate verify-attestation`: check a signed verdict offline against the report it names. */










const verify_attestation_OPTIONS = [
    { flag: 'trusted-key', kind: 'list', arg: 'FILE', help: 'PEM public key(s) of the verdict signer (Ed25519); repeatable' },
    { flag: 'report', kind: 'string', arg: 'FILE', help: 'the report the verdict is about (required)' },
    {
        flag: 'certificate-identity',
        kind: 'string',
        arg: 'URI',
        help: 'check a Sigstore bundle (GitHub artifact attestation) instead of a key-signed envelope: the workflow identity that must have signed it; needs --source-repository',
    },
    { flag: 'source-repository', kind: 'string', arg: 'OWNER/NAME', help: 'the repository the workflow must have run for' },
    { flag: 'source-ref', kind: 'list', arg: 'REF', default: 'refs/heads/main', help: 'an allowed Source Repository Ref (repeatable)' },
    { flag: 'certificate-oidc-issuer', kind: 'string', arg: 'URL', help: "the certificate's OIDC issuer" },
    {
        flag: 'trusted-root',
        kind: 'string',
        arg: 'FILE',
        help: 'a Sigstore trusted root (or JSON lines of them). Default: the public-good root',
    },
    {
        flag: 'resource-uri',
        kind: 'string',
        arg: 'URI',
        help: "require the verdict's resourceUri to be exactly URI (a verdict for another commit or repository must not pass)",
    },
];
/**
 * What verify-attestation reads: a report is the gate's own output, as large as its input makes it
 * (0.7 GB for a million calls), so only Node's own bound on one read applies; still never a FIFO or a device.
 */
const VERDICT_INPUTS = { ...read_limits/* DEFAULT_LIMITS */.dR, maxFileBytes: 2 ** 31 - 1 };
const verifyAttestation = {
    spec: {
        name: 'verify-attestation',
        synopsis: '(--trusted-key PUB | --certificate-identity URI --source-repository OWNER/NAME) --report REPORT ENVELOPE',
        summary: "check a signed verdict offline: the report's digest, the signer, and PASSED",
        about: 'checks the envelope in order (payload type, a trusted signature, strict payload, Statement and predicate types, the subject digest against REPORT, verificationResult PASSED); exit 0 and one line when valid, 1 with the reason',
        options: verify_attestation_OPTIONS,
    },
    async run(ctx) {
        const { flags, rest, help } = parseFlags(ctx.argv, verify_attestation_OPTIONS);
        if (help)
            return 'help';
        const files = flags['trusted-key'] ?? [];
        const identity = flags['certificate-identity'];
        if (!flags.report)
            throw new types_UsageError('missing', 'verify-attestation: --report FILE is required');
        if (files.length === 0 && identity === undefined)
            throw new types_UsageError('missing', 'verify-attestation: --trusted-key FILE (a key-signed envelope) or --certificate-identity URI (a Sigstore bundle) is required');
        if (files.length > 0 && identity !== undefined)
            throw new types_UsageError('conflict', 'verify-attestation: --trusted-key or --certificate-identity, not both');
        const [envelopeName, ...more] = rest;
        if (envelopeName === undefined || more.length > 0)
            throw new types_UsageError('value', 'verify-attestation: exactly one ENVELOPE file is required');
        const resourceUri = resourceUriOf(flags['resource-uri']) ?? null;
        const reportFile = external_node_path_default().resolve(ctx.cwd, flags.report);
        const envelopeFile = external_node_path_default().resolve(ctx.cwd, envelopeName);
        const [report, envelope] = readInputs([reportFile, envelopeFile], VERDICT_INPUTS);
        if (!report || !envelope)
            throw new types_UsageError('missing', 'verify-attestation: --report FILE and one ENVELOPE are required');
        let checked;
        if (identity !== undefined) {
            const trustedRoot = flags['trusted-root'];
            const keyless = readKeyless({
                signerIdentities: [identity],
                producerIdentities: [],
                sourceRepository: flags['source-repository'] ?? null,
                sourceRefs: flags['source-ref'] ?? [],
                defaultRef: 'refs/heads/main',
                issuer: flags['certificate-oidc-issuer'] ?? null,
                trustedRoot: trustedRoot
                    ? { name: `--trusted-root ${trustedRoot}`, text: readTextFile('--trusted-root', external_node_path_default().resolve(ctx.cwd, trustedRoot)) }
                    : null,
            }, {
                signerIdentities: '--certificate-identity',
                producerIdentities: '--certificate-identity',
                sourceRepository: '--source-repository',
                sourceRefs: '--source-ref',
                issuer: '--certificate-oidc-issuer',
            });
            const signers = keyless?.signers;
            if (!keyless || !signers)
                throw new types_UsageError('missing', 'verify-attestation: --certificate-identity URI is required');
            checked = await verifyVerdictKeyless(envelopeFile, envelope.bytes, reportFile, report.bytes, signers, keyless.trustedRoot, read_limits/* DEFAULT_LIMITS */.dR, resourceUri);
        }
        else {
            const keys = readTrustedKeys(files.map((f) => ({ name: `--trusted-key ${f}`, pem: readKeyText('--trusted-key', external_node_path_default().resolve(ctx.cwd, f)) })));
            if (!keys)
                throw new types_UsageError('missing', 'verify-attestation: --trusted-key FILE is required');
            checked = await verifyVerdict(envelopeFile, envelope.bytes, report.bytes, keys, read_limits/* DEFAULT_LIMITS */.dR, resourceUri);
        }
        if (!checked.ok)
            return {
                code: checked.reason.usage ? EXIT.usage : EXIT.problem,
                stdout: '',
                stderr: `receipt-gate: verify-attestation: ${text_visible(checked.reason.text)}\n`,
            };
        return { code: EXIT.pass, stdout: `${text_visible(checked.value)}\n`, stderr: '' };
    },
};

;// CONCATENATED MODULE: ./src/cli/registry.ts








const COMMANDS = [verify_verify, policy, verifyAttestation, attest_bundle_attestBundle, keygen_keygen, sign, importExports, hash];
/** Every command's option table. */
const COMMAND_SPECS = COMMANDS.map((c) => c.spec);
/** The command of this name (looked up in a list: the name is text from argv). */
const commandNamed = (name) => COMMANDS.find((c) => c.spec.name === name);

;// CONCATENATED MODULE: ./src/cli/usage.ts
/** The usage text, from the option tables: every command, or (`receipt-gate COMMAND --help`) that command alone. */


const WIDTH = 80;
const COLUMN = 28;
/** Words filled into lines of at most `width` characters, each line indented. */
function fill(text, indent, width = WIDTH) {
    const lines = [];
    let cur = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
        if (cur !== '' && indent + cur.length + 1 + word.length > width) {
            lines.push(' '.repeat(indent) + cur);
            cur = word;
        }
        else
            cur = cur === '' ? word : `${cur} ${word}`;
    }
    if (cur !== '')
        lines.push(' '.repeat(indent) + cur);
    return lines;
}
function optionLines(option) {
    const name = `${option.short ? `-${option.short}, ` : ''}--${option.flag}${option.arg ? ` ${option.arg}` : ''}`;
    const shown = optionDefault(option);
    const help = fill(`${option.help}${shown !== undefined ? `. Default: ${shown}` : ''}`, COLUMN);
    const head = `  ${name}`;
    if (head.length + 1 < COLUMN && help[0])
        return [head.padEnd(COLUMN) + help[0].slice(COLUMN), ...help.slice(1)];
    return [head, ...help];
}
function usageText(only) {
    const specs = only === undefined ? COMMAND_SPECS : COMMAND_SPECS.filter((c) => c.name === only);
    const out = only === undefined ? ['Usage: receipt-gate <command> [options]', '', 'Commands:'] : [`Usage: receipt-gate ${only} [options]`];
    if (only === undefined)
        for (const c of COMMAND_SPECS) {
            const lines = fill(c.summary, 22);
            out.push(`  ${c.name.padEnd(20)}${(lines[0] ?? '').slice(22)}`, ...lines.slice(1));
        }
    for (const c of specs) {
        out.push('', ...fill(`receipt-gate ${c.name} ${c.synopsis}`, 0).map((l, i) => (i === 0 ? l : `${' '.repeat(20)}${l}`)));
        if (c.about)
            out.push(...fill(c.about, 2));
        for (const o of c.options)
            out.push(...optionLines(o));
    }
    out.push('', ...COMMON_OPTIONS.flatMap(optionLines), '', 'Exit status: 0 the gate passed (or the command succeeded), 1 the gate or', 'a tool found a problem in the evidence, 2 usage or configuration (an', 'output that cannot be written included). Colour only on a terminal; set', 'NO_COLOR to turn it off.', '');
    return out.join('\n');
}

;// CONCATENATED MODULE: ./src/cli/run.ts
/**
 * The CLI's logic, free of process globals so tests can call it: argv → the command named first →
 * its run (which reads its flags through its option table) → one outcome, its exit code from the one
 * table (command.ts). A usage error thrown anywhere in a command's parsing is exit 2, never a crash.
 */





/** The command names, from the option tables: "a, b or c". */
const COMMAND_NAMES = ((names) => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`)(COMMAND_SPECS.map((c) => c.name));
/**
 * @param now the time a signature is made at when --signed-at is not given, and the verification time
 */
async function main(argv, env, isTTY, cwd, now = new Date()) {
    // The command comes first, as in git: `receipt-gate verify --runs …`.
    const [name, ...rest] = argv;
    if (name === '--version' || name === '-V' || name === 'version')
        return { code: EXIT.pass, stdout: `receipt-gate ${VERSION}\n`, stderr: '' };
    if (name === 'help' || name === '-h' || name === '--help')
        return { code: EXIT.pass, stdout: usageText(), stderr: '' };
    if (name === undefined)
        return usageError(`missing command: ${COMMAND_NAMES}`);
    if (name.startsWith('-'))
        return usageError(`the command comes first (${COMMAND_NAMES}), before "${name}"`);
    const command = commandNamed(name);
    if (!command)
        return usageError(`unknown command "${name}" (one of ${COMMAND_NAMES})`);
    try {
        const r = await command.run({ argv: rest, env, isTTY, cwd, now, version: VERSION });
        return r === 'help' ? { code: EXIT.pass, stdout: usageText(command.spec.name), stderr: '' } : r;
    }
    catch (error) {
        if (error instanceof types_UsageError)
            return usageError(error.message);
        throw error;
    }
}


/***/ }),

/***/ 3491:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  WA: () => (/* binding */ DIGEST_PATTERN),
  Ch: () => (/* binding */ binding),
  vI: () => (/* binding */ jcs),
  sI: () => (/* binding */ sha256Digest),
  fg: () => (/* binding */ sha256Hex),
  kk: () => (/* binding */ utcSeconds)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
;// CONCATENATED MODULE: ./node_modules/canonicalize/lib/canonicalize.js
function serializeString (value) {
  if (!value.isWellFormed()) {
    throw new Error('Lone surrogate is not allowed');
  }
  return JSON.stringify(value);
}

function serializePrimitive (value) {
  switch (typeof value) {
    case 'number':
      if (isNaN(value)) {
        throw new Error('NaN is not allowed');
      }
      if (!isFinite(value)) {
        throw new Error('Infinity is not allowed');
      }
      // For finite numbers String(value) would give identical output, but
      // JSON.stringify benchmarks faster on V8.
      return JSON.stringify(value);
    case 'string':
      return serializeString(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      // null, or values JSON.stringify maps to undefined (undefined,
      // functions, symbols).
      return JSON.stringify(value);
  }
}

// Resolves a value to either its serialized primitive form (a string — or
// undefined, for values JSON.stringify drops) or a frame describing the
// container to descend into. Callers distinguish the two cases with
// `typeof result !== 'object'`.
//
// toJSON results are unwrapped here, and the wrapper objects stay in `seen`
// until the resolved subtree is fully serialized, so cycles introduced via
// toJSON are still detected.
function enterValue (value, seen) {
  let wrappers = null;
  while (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') {
    if (seen.has(value)) {
      throw new Error('Circular reference detected');
    }
    seen.add(value);
    (wrappers ??= []).push(value);
    value = value.toJSON();
  }

  // Boxed Number/String/Boolean objects serialize as their primitive values,
  // mirroring how JSON.stringify treats them.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    value = value.valueOf();
  }

  if (value === null || typeof value !== 'object') {
    if (wrappers !== null) {
      for (const wrapper of wrappers) seen.delete(wrapper);
    }
    return serializePrimitive(value);
  }

  if (seen.has(value)) {
    throw new Error('Circular reference detected');
  }
  seen.add(value);

  return {
    container: value,
    // null marks an array frame; object frames carry their sorted keys.
    // `sort()`'s default comparator orders by UTF-16 code unit, which is the
    // order JCS requires.
    keys: Array.isArray(value) ? null : Object.keys(value).sort(),
    // Next child to serialize; the frame resumes here after a nested
    // container's subtree completes.
    index: 0,
    // Whether no member has been emitted yet (controls comma placement).
    first: true,
    // toJSON wrappers to release from `seen` when this frame completes.
    wrappers
  };
}

function canonicalize (object) {
  if (object === null || typeof object !== 'object') {
    return serializePrimitive(object);
  }

  const seen = new Set();
  const root = enterValue(object, seen);
  if (typeof root !== 'object') {
    // A toJSON chain resolved the input to a primitive.
    return root;
  }

  let result = root.keys === null ? '[' : '{';
  const stack = [root];

  // Depth-first serialization with an explicit stack instead of recursion, so
  // nesting depth is bounded by heap size rather than call-stack size. The top
  // frame is the container currently being serialized: primitive children are
  // appended inline, while a nested container pushes a new frame and jumps
  // back to the outer loop. Because frame.index was already advanced, the
  // parent resumes at its next child once the subtree is done. Opening
  // brackets are emitted when a frame is pushed, closing brackets when it
  // completes.
  outer:
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const container = frame.container;

    // keys === null marks an array frame; otherwise keys holds the object's
    // sorted property names. Either way the iteration counter lives on the
    // frame itself (frame.index), so when a frame is resumed after a nested
    // container completes, the while condition continues at the first
    // unserialized child instead of restarting from the beginning.
    if (frame.keys === null) {
      while (frame.index < container.length) {
        const i = frame.index++;
        if (i > 0) {
          result += ',';
        }
        const element = container[i];
        // Inside arrays, JSON.stringify serializes values with no JSON
        // representation (undefined, symbols, functions) as null.
        const value = element === undefined || typeof element === 'symbol' || typeof element === 'function' ? null : element;
        if (value === null || typeof value !== 'object') {
          result += serializePrimitive(value);
          continue;
        }
        const child = enterValue(value, seen);
        if (typeof child !== 'object') {
          // A toJSON chain resolved the child to an already-serialized
          // primitive — or, when child is undefined, to a value with no JSON
          // representation, which becomes null inside arrays.
          result += child === undefined ? 'null' : child;
          continue;
        }
        result += child.keys === null ? '[' : '{';
        stack.push(child);
        continue outer;
      }
      result += ']';
    } else {
      const keys = frame.keys;
      while (frame.index < keys.length) {
        const key = keys[frame.index++];
        const value = container[key];
        // Inside objects, JSON.stringify omits properties whose value has no
        // JSON representation (undefined, symbols, functions).
        if (value === undefined || typeof value === 'symbol' || typeof value === 'function') {
          continue;
        }
        if (value === null || typeof value !== 'object') {
          // Commas are tracked with a flag rather than the key index: a
          // skipped key must not leave a stray comma behind.
          if (frame.first) {
            frame.first = false;
          } else {
            result += ',';
          }
          result += serializeString(key) + ':' + serializePrimitive(value);
          continue;
        }
        // The child must be resolved before the key is emitted: a toJSON
        // returning a value with no JSON representation drops the whole
        // property.
        const child = enterValue(value, seen);
        if (child === undefined) {
          continue;
        }
        if (frame.first) {
          frame.first = false;
        } else {
          result += ',';
        }
        result += serializeString(key) + ':';
        if (typeof child !== 'object') {
          result += child;
          continue;
        }
        result += child.keys === null ? '[' : '{';
        stack.push(child);
        continue outer;
      }
      result += '}';
    }

    // Frame complete. The container leaves `seen` so that a later, sibling
    // reference to the same object is not mistaken for a cycle.
    seen.delete(container);
    if (frame.wrappers !== null) {
      for (const wrapper of frame.wrappers) seen.delete(wrapper);
    }
    stack.pop();
  }

  return result;
}

// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
;// CONCATENATED MODULE: ./src/core/binding.ts
/**
 * The binding: "sha256:" + lowercase hex of sha256 over the UTF-8 bytes of the RFC 8785 (JCS)
 * canonical form. The one place in the gate where a subject digest is made and the one pattern a
 * digest must match; a binding is recomputed from committed bytes, never fetched.
 */



/** What every digest in an artifact must look like (binding_digest, run_root, key_id, …). */
const DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;
/**
 * RFC 8785 canonical text; lone surrogates and non-finite numbers are refused, not coerced. A value
 * as JSON.parse makes them is written out here (`jsonText`); canonicalize decides anything else.
 */
function jcs(value) {
    const written = jsonText(value, 0);
    if (written !== null)
        return { ok: true, text: written };
    try {
        const text = canonicalize(value);
        if (text === undefined)
            return { ok: false, reason: 'value has no JSON representation' };
        return { ok: true, text };
    }
    catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
}
function sha256Hex(text) {
    return (0,external_node_crypto_.hash)('sha256', text, 'hex');
}
/** "sha256:" + hex of sha256(bytes): the digest form every artifact uses. */
const sha256Digest = (text) => `sha256:${sha256Hex(text)}`;
/** RFC 3339 UTC in whole seconds (`…T12:00:00Z`): signed_at and timeVerified. */
const utcSeconds = (d) => d.toISOString().replace(/\.\d+Z$/, 'Z');
/** binding(subject) as the semantics document defines it. */
function binding(subject) {
    const text = subjectText(subject);
    if (text !== null)
        return { ok: true, digest: sha256Digest(text) };
    const canonical = jcs(subject);
    return canonical.ok ? { ok: true, digest: sha256Digest(canonical.text) } : canonical;
}
/**
 * The JCS text of a subject, `{action_class, target, verb}` (a call's or a record's), written out
 * here, or null for canonicalize to decide (any other shape, and whatever could fail): the three
 * keys sort as action_class < target < verb, the two strings are what JSON.stringify writes
 * (RFC 8785 §3.2.2.2), and the target is `jsonText`'s. A property test holds this equal to
 * canonicalize over arbitrary subjects. Per subject, it saves canonicalize's general walk (a frame,
 * a set of seen objects and a sort per object): binding() at N = 100 000 (160 000 subjects) 334 →
 * 258–277 ms in a CPU profile, and ~270 MiB of the run's 1.9 GiB allocated.
 */
function subjectText(subject) {
    if (!isPlainObject(subject) || typeof subject.toJSON === 'function')
        return null;
    if (Object.keys(subject).length !== 3 || !(0,json/* hasOwn */.$)(subject, 'action_class') || !(0,json/* hasOwn */.$)(subject, 'verb') || !(0,json/* hasOwn */.$)(subject, 'target'))
        return null;
    const actionClass = subject['action_class'];
    const verb = subject['verb'];
    if (typeof actionClass !== 'string' || typeof verb !== 'string' || !actionClass.isWellFormed() || !verb.isWellFormed())
        return null;
    const target = jsonText(subject['target'], 1);
    return target === null ? null : `{"action_class":${JSON.stringify(actionClass)},"target":${target},"verb":${JSON.stringify(verb)}}`;
}
/** Containers deeper than this are left to canonicalize (which walks with a stack of its own, not the call stack). */
const MAX_WRITTEN_DEPTH = 64;
/**
 * The JCS text of a JSON value as JSON.parse makes it, written out flat (each container's parts
 * joined), or null for canonicalize to decide: anything else (another prototype, a toJSON, a value
 * JSON has no form for) and whatever could fail (a lone surrogate, a non-finite number). An object's
 * members are sorted by key in UTF-16 code units (the order `sort()` gives, as canonicalize sorts),
 * strings and numbers are what JSON.stringify writes (as canonicalize writes them). Per value it
 * saves canonicalize's general walk, and its text is one flat string where canonicalize's is a tree
 * of concatenations that every later use flattens again (a signed record's payload, an event's
 * content hash). A property test holds it equal to canonicalize over arbitrary values.
 */
function jsonText(value, depth) {
    switch (typeof value) {
        case 'string':
            return value.isWellFormed() ? JSON.stringify(value) : null;
        case 'number':
            return Number.isFinite(value) ? JSON.stringify(value) : null;
        case 'boolean':
            return value ? 'true' : 'false';
        case 'object':
            break;
        default:
            return null;
    }
    if (value === null)
        return 'null';
    if (depth >= MAX_WRITTEN_DEPTH)
        return null;
    if (Array.isArray(value)) {
        if (Object.getPrototypeOf(value) !== Array.prototype)
            return null;
        const parts = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
            const given = value[i];
            // As JSON.stringify and canonicalize write them: an element with no JSON form (a hole, undefined, a function) is null.
            const t = given === undefined || typeof given === 'function' || typeof given === 'symbol' ? 'null' : jsonText(given, depth + 1);
            if (t === null)
                return null;
            parts[i] = t;
        }
        return `[${parts.join(',')}]`;
    }
    if (!isPlainObject(value) || typeof value.toJSON === 'function')
        return null;
    // Entries, not a lookup by key: a key is input text (`__proto__` included).
    const members = Object.entries(value);
    sortByKey(members);
    const parts = [];
    for (const [k, x] of members) {
        // As JSON.stringify and canonicalize leave them out: a member with no JSON form (undefined, a function).
        if (x === undefined || typeof x === 'function' || typeof x === 'symbol')
            continue;
        if (!k.isWellFormed())
            return null;
        const t = jsonText(x, depth + 1);
        if (t === null)
            return null;
        parts.push(`${JSON.stringify(k)}:${t}`);
    }
    return `{${parts.join(',')}}`;
}
/**
 * Members in key order (UTF-16 code units, as `<` compares strings). An object (a target, a record)
 * has a few keys: they are sorted in place, by insertion (Array.prototype.sort allocated 115 MiB of scratch for 160 000
 * subjects); past SMALL_TARGET keys, by sort, so an input with thousands of keys costs n log n.
 */
function sortByKey(members) {
    if (members.length > SMALL_TARGET) {
        members.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        return;
    }
    for (let i = 1; i < members.length; i++) {
        const m = members[i];
        let j = i - 1;
        while (j >= 0 && members[j][0] > m[0]) {
            members[j + 1] = members[j];
            j--;
        }
        members[j + 1] = m;
    }
}
const SMALL_TARGET = 8;
/** An object as JSON.parse makes them (canonicalize alone judges anything with another prototype: a toJSON, a boxed value). */
const isPlainObject = (v) => (0,json/* isObject */.G)(v) && Object.getPrototypeOf(v) === Object.prototype;


/***/ }),

/***/ 118:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  i: () => (/* binding */ prepareDecision)
});

// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/vocabulary.ts
var vocabulary = __nccwpck_require__(7063);
;// CONCATENATED MODULE: ./src/core/claims.ts
/**
 * What a decision claims about its side effect (§4 of the semantics). Claims are read, checked
 * for consistency and later compared with what the evidence earns; they never earn anything.
 */


const EXPECTED_SOURCE = {
    asserted: null,
    observed_confirmed: 'observed_read_followup',
    verified: 'provider_audit_import',
};
/** Most claims are consistent: share one empty list rather than keep one per call. */
const NONE = Object.freeze([]);
/** §4: the producer asserts exactly `effect == allow && status == success`; anything else asserted is a contradiction. */
function assertedAgainstOutcome(decision, response) {
    const value = decision['decision'];
    const effect = (0,json/* isObject */.G)(value) ? value['effect'] : undefined;
    if (effect === 'deny' || effect === 'error')
        return `side_effect_asserted is true while decision.effect is "${effect}": a call that was not allowed cannot have changed anything`;
    const status = response['status'];
    if (status !== 'success')
        return `side_effect_asserted is true while response.status is ${JSON.stringify(typeof status === 'string' ? status.slice(0, 60) : (status ?? null))}, not "success"`;
    return null;
}
function readClaim(decision) {
    const response = decision['response'];
    if (!(0,json/* isObject */.G)(response))
        return { kind: 'invalid', reason: 'response is not an object' };
    const asserted = response['side_effect_asserted'];
    if (typeof asserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect_asserted is not a boolean' };
    const legacyVerified = response['side_effect_verified'];
    if ((0,json/* hasOwn */.$)(response, 'side_effect_verified') && typeof legacyVerified !== 'boolean') {
        return { kind: 'invalid', reason: 'response.side_effect_verified is not a boolean' };
    }
    const problems = [];
    const contradiction = asserted ? assertedAgainstOutcome(decision, response) : null;
    if (contradiction)
        problems.push(contradiction);
    if (!(0,json/* hasOwn */.$)(response, 'side_effect')) {
        const level = legacyVerified === true ? 'verified' : 'asserted';
        if (level !== 'asserted' && !asserted)
            problems.push(`claims "${level}" while side_effect_asserted is false`);
        return {
            kind: 'claim',
            claim: { asserted, level, digest: null, legacy: level === 'verified' },
            inconsistencies: problems.length ? problems : NONE,
        };
    }
    const block = response['side_effect'];
    if (!(0,json/* isObject */.G)(block))
        return { kind: 'invalid', reason: 'response.side_effect is not an object' };
    const blockAsserted = block['asserted'];
    const level = block['level'];
    if (typeof blockAsserted !== 'boolean')
        return { kind: 'invalid', reason: 'response.side_effect.asserted is not a boolean' };
    if (typeof level !== 'string' || !vocabulary/* LEVELS */.A_.includes(level)) {
        return { kind: 'invalid', reason: `response.side_effect.level must be one of ${vocabulary/* LEVELS */.A_.join(', ')}` };
    }
    const claimed = level;
    const source = (0,json/* hasOwn */.$)(block, 'verification_source') ? block['verification_source'] : null;
    const digestValue = (0,json/* hasOwn */.$)(block, 'verification_subject_digest') ? block['verification_subject_digest'] : null;
    if (digestValue !== null && typeof digestValue !== 'string') {
        return { kind: 'invalid', reason: 'response.side_effect.verification_subject_digest is not a string or null' };
    }
    if (blockAsserted !== asserted) {
        problems.push(`side_effect.asserted (${blockAsserted}) differs from side_effect_asserted (${asserted})`);
    }
    const expected = EXPECTED_SOURCE[claimed];
    if (source !== expected) {
        problems.push(`verification_source ${JSON.stringify(source)} does not fit level "${claimed}" (expected ${JSON.stringify(expected)})`);
    }
    if (claimed === 'asserted' && digestValue !== null) {
        problems.push('an "asserted" claim carries a verification_subject_digest');
    }
    if ((0,json/* hasOwn */.$)(response, 'side_effect_verified') && legacyVerified !== (claimed === 'verified')) {
        problems.push(`side_effect_verified (${legacyVerified}) contradicts level "${claimed}"`);
    }
    if (claimed !== 'asserted' && !asserted) {
        problems.push(`claims "${claimed}" while side_effect_asserted is false`);
    }
    return {
        kind: 'claim',
        claim: { asserted, level: claimed, digest: digestValue, legacy: false },
        inconsistencies: problems.length ? problems : NONE,
    };
}

// EXTERNAL MODULE: ./src/core/projection.ts
var projection = __nccwpck_require__(3890);
;// CONCATENATED MODULE: ./src/core/decision.ts
/**
 * A parsed decision → the few facts verification reads (claim, subject, denial, provider, status).
 * Readers call this as each decision is read, so a run's parsed JSON is never held past its file.
 */



/** Labels: action.target's string members for a class outside the binding table (at most LABELS of them), else null. */
const LABELS = 32;
function labelsOf(actionClass, target) {
    if (typeof actionClass !== 'string' || (0,projection/* boundFields */.EC)(actionClass) || !(0,json/* isObject */.G)(target))
        return null;
    const out = {};
    let n = 0;
    for (const field of Object.keys(target)) {
        const value = target[field];
        if (typeof value !== 'string')
            continue;
        if (++n > LABELS)
            break;
        out[field] = value;
    }
    return out;
}
/**
 * @param time when the decision was made, where its format says (a server log line's timestamp, an
 *             evidence event's time); null for a decision surface, which has none
 */
function prepareDecision(loc, index, decision, time = null) {
    const tool = decision['tool'];
    const value = decision['decision'];
    const action = decision['action'];
    const target = (0,json/* isObject */.G)(action) ? action['target'] : undefined;
    const given = (0,json/* isObject */.G)(target) && (0,json/* hasOwn */.$)(target, 'provider') ? target['provider'] : null;
    const response = decision['response'];
    return {
        loc,
        index,
        tool: (0,json/* isObject */.G)(tool) && typeof tool['name'] === 'string' ? tool['name'] : null,
        claim: readClaim(decision),
        projection: (0,projection/* project */.Cv)(decision),
        actionClass: (0,json/* isObject */.G)(action) && typeof action['resource_type'] === 'string' ? action['resource_type'] : null,
        verb: (0,json/* isObject */.G)(action) && typeof action['verb'] === 'string' ? action['verb'] : null,
        denied: (0,json/* isObject */.G)(value) && (value['effect'] === 'deny' || value['effect'] === 'error') ? value['effect'] : false,
        provider: given === null || typeof given === 'string' ? given : { invalid: true },
        succeeded: (0,json/* isObject */.G)(response) && response['status'] === 'success',
        labels: labelsOf((0,json/* isObject */.G)(action) ? action['resource_type'] : undefined, target),
        time,
    };
}


/***/ }),

/***/ 4637:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $t: () => (/* binding */ placeOf),
/* harmony export */   Eg: () => (/* binding */ compareFindings),
/* harmony export */   HC: () => (/* binding */ byLocation),
/* harmony export */   TG: () => (/* binding */ FINDINGS),
/* harmony export */   gk: () => (/* binding */ finding),
/* harmony export */   uY: () => (/* binding */ inputFinding)
/* harmony export */ });
/* unused harmony export FINDING_CODES */
/* harmony import */ var _severity_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(432);
/* harmony import */ var _text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(2020);


const FINDINGS = {
    invalid_artifact: {
        severity: 'error',
        title: 'Invalid artifact',
        help: 'An artifact could not be read or breaks its shape, so nothing in it is trusted.',
        about: 'file',
    },
    record_inconsistent: {
        severity: 'error',
        title: 'Audit record inconsistent',
        help: "An audit record's subject does not hash to its binding_digest: it was edited after it was made.",
    },
    duplicate_record: {
        severity: 'error',
        title: 'Duplicate audit record',
        help: 'Two records share one (provider, record_id) but differ in subject or binding_digest: one identity names one audit entry, so neither verifies a call.',
    },
    record_unmatched: {
        severity: 'error',
        option: { when: 'with `allow-unmatched-records`', severity: 'warning' },
        title: 'Audit record binds no call',
        help: 'A consistent audit record binds no recorded call: with an agent-scoped export, a side effect the provider logged for the agent that no committed run declares.',
    },
    record_untrusted: {
        severity: 'error',
        title: 'Audit record not from a trusted signer',
        help: 'Trusted signers are configured and the record is unsigned, signed by another key, or its signature does not verify.',
    },
    policy_unmet: {
        severity: 'error',
        option: { when: 'under a rule of `mode: warn`', severity: 'warning' },
        title: 'Required level not reached',
        help: "A required level (the policy file's rule or default, or --require / require) is above the level the call earned, or the record that verified it is not from a signer the rule names.",
        shortfall: true,
    },
    policy_invalid: {
        severity: 'error',
        title: 'Policy file invalid',
        help: "The policy file does not parse or breaks its rules (docs/policy.md); located in the file. The policy in effect invalid stops the gate (a configuration error); a pull request's own invalid policy fails it.",
        about: 'file',
    },
    policy_excepted: {
        severity: 'notice',
        title: 'Shortfall excused by an exception',
        help: 'A call falls short of its rule and a live exception of the policy file excuses it (its reason and owner are named). It never excuses an honesty failure.',
    },
    exception_expired: {
        severity: 'error',
        title: 'Exception expired',
        help: 'An exception of the policy file would excuse a call but has expired: the call fails as usual. Renew it with a new reason, or fix the call.',
    },
    exception_expiring: {
        severity: 'warning',
        title: 'Exception expiring soon',
        help: 'An exception of the policy file expires within 14 days: renew it or fix what it excuses before it does.',
    },
    exception_unused: {
        severity: 'warning',
        title: 'Exception excuses nothing',
        help: 'An exception of the policy file excused no call: prune it.',
    },
    grandfather_stale: {
        severity: 'warning',
        title: 'Grandfathered run absent or changed',
        help: 'A grandfathered entry of the policy file names a run that is not among the runs, or whose bytes changed: it grandfathers nothing, and a changed run is judged in full.',
    },
    policy_changed: {
        severity: 'notice',
        title: 'Pull request changes the policy',
        help: 'This pull request changes the policy file (or trust material read at the base): the change takes effect after merge; its effect on the committed corpus is shown.',
    },
    verified_not_reproduced: {
        severity: 'error',
        title: 'verified claim not reproduced',
        help: 'A call claims verified, but no committed audit record reproduces its binding.',
        shortfall: true,
    },
    observed_confirmed_not_reproduced: {
        severity: 'warning',
        option: { when: 'with `strict-observed`', severity: 'error' },
        title: 'observed_confirmed claim not reproduced',
        help: 'A call claims observed_confirmed, but no later successful read of the same target is in the run.',
        shortfall: true,
    },
    inconsistent_claim: {
        severity: 'error',
        title: 'Inconsistent claim',
        help: "A call's claim contradicts itself (level, source, digest, asserted flags), or asserts a side effect of a call that was denied, failed or did not succeed.",
    },
    run_incomplete: {
        severity: 'error',
        title: 'Run incomplete',
        help: 'A server log shows a tool call started with no decision, or an event lost: a side effect may have happened that no decision records.',
        about: 'file',
    },
    run_unattested: {
        severity: 'error',
        title: 'Run not attested by a trusted producer',
        help: 'Trusted producers are configured and the run is not an evidence bundle whose attestation a trusted producer key signed and every check passes.',
        about: 'file',
    },
    orphan_attestation: {
        severity: 'warning',
        title: 'Attestation without its artifact',
        help: 'An attestation file (.intoto.jsonl, .sigstore.json) has no artifact of its base name beside it: a renamed artifact must not lose its attestation silently.',
        about: 'file',
    },
    no_artifacts: {
        severity: 'error',
        title: 'No run artifacts',
        help: 'The run-artifact inputs matched no file; a gate that sees nothing must not pass.',
    },
    rule_unused: {
        severity: 'warning',
        title: 'Required-level rule applies to no call',
        help: 'A required-level rule matches no call that asserts a side effect (a misspelt class or verb must not silently turn a requirement off).',
    },
    effect_not_logged: {
        severity: 'error',
        title: 'Side effect the provider never logged',
        help: "An export's coverage statement covers the call's time and scope and holds no record for it: the side effect the agent asserted is not in the provider's log (or was done under another identity). Never excused.",
    },
    pending: {
        severity: 'notice',
        title: 'Export not due yet',
        help: "The call is newer than every export that could cover it and younger than the policy's pending: its requirement waits for the next export.",
    },
    trusted_root_stale: {
        severity: 'warning',
        title: 'Shipped trusted root is old',
        help: 'The Sigstore trusted root shipped with receipt-gate was taken more than 180 days ago: update receipt-gate or pass a fresh trusted-root.',
    },
    imported_twice: {
        severity: 'notice',
        title: 'Audit entry imported twice',
        help: 'One audit entry is present twice with the same meaning (overlapping exports, at-least-once streaming, a redelivery): it is counted once.',
    },
    under_claimed: { severity: 'notice', title: 'Under-claimed', help: 'A call earned a higher level than it claims.' },
    skipped_object: { severity: 'notice', title: 'Skipped object', help: 'Objects of other artifact kinds were skipped.', about: 'file' },
    no_decisions: {
        severity: 'notice',
        title: 'No decisions',
        help: 'A run artifact (or a verified evidence bundle) holds no tool decisions.',
        about: 'file',
    },
    no_records: { severity: 'notice', title: 'No records', help: 'An audit export holds no audit record.', about: 'file' },
    no_match: {
        severity: 'notice',
        option: { when: 'for an input given explicitly', severity: 'error' },
        title: 'Input matched nothing',
        help: 'An input path or glob matched no file.',
    },
};
const FINDING_CODES = Object.keys(FINDINGS);
/** `file:line` (with `:column` when asked): how a message names a place; reporters have their own (report/text.ts). */
const placeOf = (l, column = false) => `${l.file}:${l.line}${column ? `:${l.column}` : ''}`;
/** A finding at a location; `severity` only for the codes whose severity an option changes. */
function finding(code, loc, message, severity = FINDINGS[code].severity) {
    const base = { severity, code, file: loc.file, line: loc.line, column: loc.column, message };
    if (loc.member !== undefined)
        return { ...base, member: loc.member };
    if (loc.commit !== undefined)
        return { ...base, commit: loc.commit };
    return base;
}
/** A finding about an input as the user gave it (a path or glob), not a place in a committed file. */
function inputFinding(code, input, message, severity = FINDINGS[code].severity) {
    return { severity, code, input, file: null, line: null, column: null, message };
}
/** Root causes first: findings about inputs, then about whole files, then about the records and calls in them. */
const groupOf = (f) => (f.input !== undefined ? 0 : 'about' in FINDINGS[f.code] ? 1 : 2);
const byLocation = (a, b) => (0,_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cmp */ .r2)(a.file, b.file) || a.line - b.line || a.column - b.column;
/** Where a finding is, for ordering: its input, or its file, line and column. */
const position = (a, b) => a.input !== undefined || b.input !== undefined ? (0,_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cmp */ .r2)(a.input ?? '', b.input ?? '') : byLocation(a, b);
/** Root causes first (semantics §6): by group, then in path and line order, then by severity, code and message. */
function compareFindings(left, right) {
    return (groupOf(left) - groupOf(right) ||
        position(left, right) ||
        _severity_js__WEBPACK_IMPORTED_MODULE_0__/* .SEVERITY_TABLE */ .ps[left.severity].rank - _severity_js__WEBPACK_IMPORTED_MODULE_0__/* .SEVERITY_TABLE */ .ps[right.severity].rank ||
        (0,_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cmp */ .r2)(left.code, right.code) ||
        (0,_text_js__WEBPACK_IMPORTED_MODULE_1__/* .cmp */ .r2)(left.message, right.message));
}


/***/ }),

/***/ 6153:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ hasOwn),
/* harmony export */   G: () => (/* binding */ isObject)
/* harmony export */ });
/**
 * Values from JSON.parse, read safely: an own-property test that `__proto__` cannot fool, and the one
 * object check every reader and the core use. Parsed objects are never copied or spread.
 */
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasOwn = (o, k) => Object.hasOwn(o, k);


/***/ }),

/***/ 4146:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Bh: () => (/* binding */ COVERAGE_SCHEMA),
/* harmony export */   SB: () => (/* binding */ SURFACE_SCHEMA),
/* harmony export */   ep: () => (/* binding */ RECORD_SCHEMA)
/* harmony export */ });
/**
 * The vocabulary of the gate, shared by readers, core and reporters.
 * Values here are plain data: locations travel with them from the reader to the finding.
 */
/** The artifact kinds this gate reads: the one place their names are written. */
const SURFACE_SCHEMA = 'assay.tool_decision_surface.v0';
const RECORD_SCHEMA = 'assay.provider_audit_record.v0';
/** What an audit export covered (docs/coverage.md). */
const COVERAGE_SCHEMA = 'receipt-gate.audit_coverage.v1';


/***/ }),

/***/ 3890:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Cv: () => (/* binding */ project),
/* harmony export */   EC: () => (/* binding */ boundFields),
/* harmony export */   RD: () => (/* binding */ KNOWN_CLASSES),
/* harmony export */   UW: () => (/* binding */ PRODUCER_VERBS),
/* harmony export */   hD: () => (/* binding */ targetKey),
/* harmony export */   nw: () => (/* binding */ narrowTarget),
/* harmony export */   zo: () => (/* binding */ boundValueText)
/* harmony export */ });
/* harmony import */ var _binding_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3491);
/* harmony import */ var _json_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6153);
/**
 * The call subject (action projection) of a decision: {action_class, verb, target} with the target
 * narrowed to the fields bound for its class. `provider` and `read_only` describe the request, not
 * the effect, and are never bound. The github_deploy_key row is byte-compatible with upstream Assay.
 */


/** Bound target fields per class; a Map, since the class is text from an artifact. */
const BOUND_TARGET_FIELDS = new Map([
    ['github_deploy_key', ['owner', 'repo', 'key_title_hash']],
    ['workspace_member', ['workspace_id_hash', 'channel_id_hash', 'principal_hash']],
    ['workspace_role', ['workspace_id_hash', 'principal_hash', 'role']],
]);
/** The verbs the producer writes for each class of the table (a rule naming another verb is a typo unless the input has it). */
const PRODUCER_VERBS = new Map([
    ['github_deploy_key', ['create']],
    ['workspace_member', ['add']],
    ['workspace_role', ['grant', 'change_role', 'invite', 'modify', 'create']],
]);
/** The action classes of the table. */
const KNOWN_CLASSES = [...BOUND_TARGET_FIELDS.keys()];
/** The bound fields of an action class, or undefined when the class has no binding rule. */
const boundFields = (actionClass) => BOUND_TARGET_FIELDS.get(actionClass);
/** Narrow a target to its class's bound fields, copying only those (never spreading the parsed object). */
function narrowTarget(actionClass, target) {
    const fields = boundFields(actionClass);
    if (!fields)
        return undefined;
    const out = {};
    for (const f of fields)
        if ((0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .hasOwn */ .$)(target, f))
            out[f] = target[f];
    return out;
}
function project(decision) {
    const action = decision['action'];
    if (!(0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .isObject */ .G)(action))
        return { kind: 'none', reason: 'action is not an object' };
    const actionClass = action['resource_type'];
    const verb = action['verb'];
    const target = action['target'];
    if (typeof actionClass !== 'string')
        return { kind: 'none', reason: 'action.resource_type is not a string' };
    if (typeof verb !== 'string')
        return { kind: 'none', reason: 'action.verb is not a string' };
    if (!(0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .isObject */ .G)(target))
        return { kind: 'none', reason: 'action.target is not an object' };
    const narrowed = narrowTarget(actionClass, target);
    if (!narrowed)
        return { kind: 'none', reason: `action class "${actionClass}" has no binding rule` };
    if (Object.keys(narrowed).length === 0) {
        return { kind: 'none', reason: `target has none of the bound fields (${(boundFields(actionClass) ?? []).join(', ')})` };
    }
    const subject = { action_class: actionClass, verb, target: narrowed };
    const bound = (0,_binding_js__WEBPACK_IMPORTED_MODULE_0__/* .binding */ .Ch)(subject);
    if (!bound.ok)
        return { kind: 'none', reason: `subject cannot be canonicalized: ${bound.reason}` };
    return { kind: 'subject', subject, digest: bound.digest };
}
/**
 * Two calls touch the same thing when canonical {action_class, target} are equal. A subject's target
 * holds only its class's bound fields, in the table's order, so that equality is: the same class and,
 * field by field, the same presence and canonically equal values. The key says exactly that: the
 * class, then each bound field's value by `boundValueText`, `\u0000`-separated (no JSON text holds
 * a raw U+0000), empty when absent (no JSON text is empty). No sorting or escaping of whole objects
 * per call.
 */
function targetKey(subject) {
    let key = subject.action_class;
    for (const f of boundFields(subject.action_class) ?? [])
        key += (0,_json_js__WEBPACK_IMPORTED_MODULE_1__/* .hasOwn */ .$)(subject.target, f) ? `\u0000${boundValueText(subject.target[f])}` : '\u0000';
    return key;
}
/**
 * A bound field's value as the binding sees it, for telling values equal: a string as
 * JSON.stringify writes it, anything else canonical (JCS), so `{"a":1,"b":2}` equals
 * `{"b":2,"a":1}` here as in their digests; a string's text starts with `"` and no other value's
 * does. U+0000 alone for a value JCS refuses (no JSON text is that); a subject's values were
 * canonicalized once already, so that cannot happen for a call.
 */
function boundValueText(value) {
    if (typeof value === 'string')
        return JSON.stringify(value);
    const canonical = (0,_binding_js__WEBPACK_IMPORTED_MODULE_0__/* .jcs */ .vI)(value);
    return canonical.ok ? canonical.text : '\u0000';
}


/***/ }),

/***/ 432:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   oC: () => (/* binding */ SEVERITIES),
/* harmony export */   ps: () => (/* binding */ SEVERITY_TABLE)
/* harmony export */ });
/* unused harmony export annotationRank */
/**
 * Severities, one table: their order and every reporter's word for each (the report's totals, the
 * Checks API's annotation level, SARIF's level, the summary's icon, the table's colour).
 */
/** How bad a finding is: the order is the rank (most severe first). */
const SEVERITIES = ['error', 'warning', 'notice'];
const SEVERITY_TABLE = {
    error: { rank: 0, total: 'errors', annotation: 'failure', sarif: 'error', icon: '❌', colour: 'red' },
    warning: { rank: 1, total: 'warnings', annotation: 'warning', sarif: 'warning', icon: '⚠️', colour: 'yellow' },
    notice: { rank: 2, total: 'notices', annotation: 'notice', sarif: 'note', icon: 'ℹ️', colour: 'dim' },
};
/** The rank of an annotation level: the rank of the severity it stands for. */
const annotationRank = (level) => SEVERITIES.findIndex((s) => SEVERITY_TABLE[s].annotation === level);


/***/ }),

/***/ 2020:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $Q: () => (/* binding */ clip),
/* harmony export */   F: () => (/* binding */ asciiLower),
/* harmony export */   bD: () => (/* binding */ messageOf),
/* harmony export */   hD: () => (/* binding */ quote),
/* harmony export */   qb: () => (/* binding */ nearestName),
/* harmony export */   r2: () => (/* binding */ cmp)
/* harmony export */ });
/** Text helpers every floor uses: one order for strings, one way to cut untrusted text. */
/** Plain string order (UTF-16 code units), the order of paths and ids everywhere. */
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/**
 * Untrusted text (names, ids, providers from artifacts) as quoted in a message: at most `max`
 * UTF-16 units, cut at a code-point boundary with a visible marker, so no message grows with it.
 */
const quote = (s, max = 200) => clip(s, max);
/** At most `max` UTF-16 units, cut with a visible marker and never inside a surrogate pair. */
function clip(text, max, marker = '…') {
    if (text.length <= max)
        return text;
    let cut = Math.max(0, max - marker.length);
    const c = text.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff)
        cut--;
    return text.slice(0, cut) + marker;
}
/** Edit distance (insertions, deletions, substitutions; case counts), for "did you mean" suggestions. */
function editDistance(left, right) {
    let prev = Array.from({ length: right.length + 1 }, (_, j) => j);
    for (let i = 1; i <= left.length; i++) {
        const cur = [i];
        for (let j = 1; j <= right.length; j++) {
            cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (left[i - 1] === right[j - 1] ? 0 : 1));
        }
        prev = cur;
    }
    return prev[right.length];
}
/** The candidate nearest to `word` (ties: the first in order), when it is near enough to be a likely typo; else null. */
function nearestName(word, candidates) {
    let best = null;
    let bestD = Number.POSITIVE_INFINITY;
    for (const c of candidates) {
        const d = editDistance(word.toLowerCase(), c.toLowerCase());
        if (d < bestD)
            [best, bestD] = [c, d];
    }
    return best !== null && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}
/** ASCII letters in lower case, nothing else changed (GitHub's case-insensitivity; never Unicode folding). */
const asciiLower = (s) => (/[A-Z]/.test(s) ? s.replace(/[A-Z]/g, (c) => c.toLowerCase()) : s);
/** What went wrong, in words, whatever was thrown (an Error's message, or the value as text). */
const messageOf = (thrown) => (thrown instanceof Error ? thrown.message : String(thrown));


/***/ }),

/***/ 2334:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B9: () => (/* binding */ instantOf),
/* harmony export */   Iq: () => (/* binding */ parseDay),
/* harmony export */   QI: () => (/* binding */ compareInstants),
/* harmony export */   Qs: () => (/* binding */ autoSi),
/* harmony export */   TM: () => (/* binding */ parseRfc3339),
/* harmony export */   ag: () => (/* binding */ rfc3339),
/* harmony export */   es: () => (/* binding */ utcAsWritten),
/* harmony export */   n6: () => (/* binding */ fromEpochNumber)
/* harmony export */ });
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const leap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysIn = (y, m) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] ?? 0;
const trimZeros = (digits) => digits.replace(/0+$/, '');
/** Why a calendar date is impossible, or null. */
function badDate(y, m, d) {
    if (m < 1 || m > 12)
        return `month ${m} does not exist`;
    if (d < 1 || d > daysIn(y, m))
        return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')} has no day ${d}`;
    return null;
}
/** An RFC 3339 date-time, or why it is not one. */
function parseRfc3339(text, options = {}) {
    const match = SHAPE.exec(text);
    if (!match)
        return { ok: false, reason: 'is not an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm))' };
    const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(match[i]));
    const date = badDate(y, mo, d);
    if (date)
        return { ok: false, reason: `is not a calendar date: ${date}` };
    if (h > 23)
        return { ok: false, reason: `hour ${h} does not exist (00 to 23)` };
    if (mi > 59)
        return { ok: false, reason: `minute ${mi} does not exist (00 to 59)` };
    if (s > 60 || (s === 60 && !(h === 23 && mi === 59)))
        return { ok: false, reason: `second ${s} does not exist (00 to 59; 60 only for a leap second at 23:59)` };
    if (options.utc && !match[8])
        return { ok: false, reason: 'is not a UTC time (it must end in Z)' };
    let offset = 0;
    if (!match[8]) {
        const [oh, om] = [Number(match[10]), Number(match[11])];
        if (oh > 23 || om > 59)
            return { ok: false, reason: `offset ${match[9]}${match[10]}:${match[11]} is beyond ±23:59` };
        offset = (match[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
    }
    // A leap second is the last second of its minute: 23:59:60 counts as the next day's 00:00:00.
    const seconds = daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset;
    return { ok: true, value: { seconds, fraction: trimZeros(match[7] ?? '') } };
}
/** Days since 1970-01-01 of a proleptic Gregorian date (any year; no Date object, no two-digit-year rule). */
function daysFromCivil(year, m, d) {
    const y = m <= 2 ? year - 1 : year;
    const era = Math.floor(y / 400);
    const yoe = y - era * 400;
    const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
    return era * 146_097 + doe - 719_468;
}
/** A calendar date (YYYY-MM-DD) as its midnight UTC, or why it is not one. */
function parseDay(text) {
    const match = DAY.exec(text);
    if (!match)
        return null;
    const [y, mo, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const bad = badDate(y, mo, d);
    if (bad)
        return { ok: false, reason: `is not a calendar date: ${bad}` };
    return parseRfc3339(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`);
}
/**
 * A number of seconds (scale 0) or milliseconds (scale 3) since the epoch, read exactly from its
 * decimal form; null for a value that is not finite or is written with an exponent.
 */
function fromEpochNumber(v, scale) {
    if (!Number.isFinite(v))
        return null;
    const text = String(v);
    const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
    if (!match)
        return null;
    const digits = `${match[2]}${match[3] ?? ''}`;
    const point = match[2].length - scale;
    const whole = point > 0 ? digits.slice(0, point) : '0';
    const frac = point > 0 ? digits.slice(point) : '0'.repeat(-point) + digits;
    const seconds = Number(whole);
    if (match[1] === '-') {
        const file = trimZeros(frac);
        if (file === '')
            return { seconds: -seconds, fraction: '' };
        // −s.f = −(s+1) + (1 − 0.f)
        const complement = (BigInt(`1${'0'.repeat(file.length)}`) - BigInt(file)).toString().padStart(file.length, '0');
        return { seconds: -seconds - 1, fraction: trimZeros(complement) };
    }
    return { seconds, fraction: trimZeros(frac) };
}
/** Order of two instants, exact at any precision. */
function compareInstants(left, right) {
    if (left.seconds !== right.seconds)
        return left.seconds < right.seconds ? -1 : 1;
    const n = Math.max(left.fraction.length, right.fraction.length);
    const fa = left.fraction.padEnd(n, '0');
    const fb = right.fraction.padEnd(n, '0');
    return fa < fb ? -1 : fa > fb ? 1 : 0;
}
/** UTC, RFC 3339 with Z and 0, 3, 6 or 9 fraction digits: the fewest that show every non-zero digit of the nanoseconds (chrono's AutoSi). */
function autoSi(instant) {
    const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
    const nanos = instant.fraction.slice(0, 9).padEnd(9, '0');
    if (/^0+$/.test(nanos))
        return `${base}Z`;
    const digits = nanos.endsWith('000000') ? 3 : nanos.endsWith('000') ? 6 : 9;
    return `${base}.${nanos.slice(0, digits)}Z`;
}
/**
 * A time as given (RFC 3339 at any offset, or YYYY-MM-DD for its midnight), written in UTC with the
 * fraction digits it was written with (`2026-11-30` → `2026-11-30T00:00:00Z`, `…T01:00:00.50+01:00`
 * → `…T00:00:00.50Z`): what a statement says its window was.
 */
function utcAsWritten(text) {
    const day = parseDay(text);
    if (day)
        return day.ok ? { ok: true, value: rfc3339(day.value) } : day;
    const parsed = parseRfc3339(text);
    if (!parsed.ok)
        return parsed;
    const digits = SHAPE.exec(text)?.[7];
    const base = new Date(parsed.value.seconds * 1000).toISOString().slice(0, 19);
    return { ok: true, value: digits === undefined ? `${base}Z` : `${base}.${digits}Z` };
}
/** An instant as RFC 3339 UTC, with its fraction when it has one. */
function rfc3339(instant) {
    const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
    return instant.fraction === '' ? `${base}Z` : `${base}.${instant.fraction}Z`;
}
/** The instant of a JavaScript Date (whole milliseconds). */
function instantOf(date) {
    const ms = date.getTime();
    const seconds = Math.floor(ms / 1000);
    return {
        seconds,
        fraction: String(ms - seconds * 1000)
            .padStart(3, '0')
            .replace(/0+$/, ''),
    };
}


/***/ }),

/***/ 9597:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   J5: () => (/* binding */ refused),
/* harmony export */   Kw: () => (/* binding */ refusalText),
/* harmony export */   kg: () => (/* binding */ combine),
/* harmony export */   x3: () => (/* binding */ NONE)
/* harmony export */ });
/* unused harmony export TRUST_CODE_NAMES */
/**
 * Trust as values: what one checker decided about a record or a run, and the one pure function that
 * combines the decisions of every checker configured (keys or identities: either trusts). Each
 * refusal carries a code from one table; its words are the detail. Nothing here checks anything:
 * the checkers are in src/trust/checkers/, and they run on the thread that read the file.
 */
/** Why a record or a run is not trusted: one table, read by the report, the docs and the tests. */
const TRUST_CODES = {
    unsigned: { means: 'the record carries no signature' },
    unknown_signer: { means: 'the signature names a key that is not trusted' },
    payload_digest_differs: { means: "the signature's payload digest is not the digest of the record" },
    signature_invalid: { means: 'a signature or a certificate does not verify' },
    no_attestation: { means: 'no attestation beside the file (no .intoto.jsonl sidecar, no .sigstore.json)' },
    attestation_empty: { means: 'the attestation file holds no envelope or bundle' },
    attestation_malformed: { means: 'the attestation file cannot be read or is malformed (see its invalid_artifact finding)' },
    not_a_bundle: { means: 'a producer key attests evidence bundles only; JSON surfaces and server logs cannot carry a sidecar' },
    payload_type: { means: 'the envelope signs another payload type' },
    statement_mismatch: { means: 'the Statement is not about this file (subject, digest, predicate type or predicate)' },
    bundle_unsupported: {
        means: 'a Sigstore bundle of an unsupported version or kind (a message signature, a key instead of a certificate)',
    },
    identity_untrusted: { means: "the certificate's identity or OIDC issuer is not trusted" },
    source_untrusted: { means: "the certificate's source repository or ref is not allowed" },
    chain_untrusted: {
        means: 'the certificate chains to no certificate authority of the trusted root (the root may be out of date)',
        configuration: true,
    },
    log_unknown: {
        means: 'the transparency log or timestamp authority is not in the trusted root (the root may be out of date)',
        configuration: true,
    },
};
const TRUST_CODE_NAMES = Object.keys(TRUST_CODES);
const NONE = { kind: 'none' };
/** A refusal, made where the check failed. */
const refused = (code, detail) => ({ kind: 'untrusted', code, detail });
/** A refusal's words, with how to refresh the root when the code says the root may be out of date. */
function refusalText(code, detail) {
    const entry = TRUST_CODES[code];
    return entry.configuration
        ? `${detail} (the trusted root may be out of date: refresh it with \`gh attestation trusted-root\`, or update receipt-gate)`
        : detail;
}
/**
 * The decisions of every configured checker, in checker order, as one: trusted when any trusts (the
 * first); else untrusted when any refused (the first refusal's code, every refusal's words);
 * else unchecked when an attestation was seen; else none.
 */
function combine(decisions) {
    let firstRefusal = null;
    const details = [];
    let unchecked = null;
    for (const d of decisions) {
        if (d.kind === 'trusted')
            return d;
        if (d.kind === 'untrusted') {
            firstRefusal ??= d;
            details.push(d.detail);
        }
        else if (d.kind === 'unchecked')
            unchecked ??= d;
    }
    if (firstRefusal)
        return details.length === 1 ? firstRefusal : refused(firstRefusal.code, details.join('; and '));
    return unchecked ?? NONE;
}


/***/ }),

/***/ 7063:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   A_: () => (/* binding */ LEVELS),
/* harmony export */   Gz: () => (/* binding */ below),
/* harmony export */   Kc: () => (/* binding */ RECORD_OUTCOME_NAMES),
/* harmony export */   NW: () => (/* binding */ isLevel),
/* harmony export */   iH: () => (/* binding */ LEVEL_TABLE),
/* harmony export */   lS: () => (/* binding */ LEVELS_DESCENDING),
/* harmony export */   mG: () => (/* binding */ RECORD_OUTCOMES)
/* harmony export */ });
/* unused harmony export levelRank */
/** The rungs, lowest first: the order is the rank. */
const LEVELS = ['asserted', 'observed_confirmed', 'verified'];
const LEVEL_TABLE = {
    asserted: { rank: 0, icon: '⚪', colour: 'yellow' },
    observed_confirmed: { rank: 1, icon: '🔵', colour: 'cyan' },
    verified: { rank: 2, icon: '🟢', colour: 'green' },
};
const levelRank = (l) => LEVEL_TABLE[l].rank;
/** Highest rung first, the order every tally and every reporter lists them in. */
const LEVELS_DESCENDING = [...LEVELS].sort((a, b) => levelRank(b) - levelRank(a));
const isLevel = (s) => LEVELS.includes(s);
/** `a` ranks below `b`. */
const below = (a, b) => levelRank(a) < levelRank(b);
/** In the order the totals and the reporters list them. */
const RECORD_OUTCOMES = {
    bound: { finding: null, unusable: false, snag: 'already verifies another call', more: 'already verify other calls' },
    unmatched: { finding: 'record_unmatched', unusable: false, snag: 'binds no call', more: 'unmatched' },
    inconsistent: { finding: 'record_inconsistent', unusable: true, snag: 'declares this binding but is inconsistent', more: 'inconsistent' },
    untrusted: { finding: 'record_untrusted', unusable: true, snag: 'is not from a trusted signer', more: 'not from a trusted signer' },
    imported_twice: {
        finding: 'imported_twice',
        unusable: true,
        snag: 'is a second copy of one audit entry (counted once)',
        more: 'second copies',
    },
    duplicate: {
        finding: 'duplicate_record',
        unusable: true,
        snag: 'shares its identity with a record of another meaning',
        more: 'duplicates',
    },
};
const RECORD_OUTCOME_NAMES = Object.keys(RECORD_OUTCOMES);


/***/ }),

/***/ 1938:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  q: () => (/* binding */ readAuditFile),
  m: () => (/* binding */ readRunFile)
});

// EXTERNAL MODULE: ./src/core/findings.ts
var findings = __nccwpck_require__(4637);
// EXTERNAL MODULE: ./src/core/json.ts
var core_json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __nccwpck_require__(4146);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __nccwpck_require__(2334);
// EXTERNAL MODULE: ./src/read/classify.ts
var classify = __nccwpck_require__(3440);
;// CONCATENATED MODULE: ./src/read/coverage-statement.ts
/**
 * A coverage statement's shape (docs/coverage.md §1): every member present with its type, nothing
 * else but a `signature`; times through the one RFC 3339 parser; `since` before `until`; actions
 * written CLASS:VERB. A statement that breaks it is `invalid_artifact`, never skipped.
 */




const MEMBERS = [
    'schema',
    'provider',
    'export',
    'actors',
    'repos',
    'owner',
    'actions',
    'since',
    'until',
    'entries_read',
    'records',
];
const ACTION = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;
const strings = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const count = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
/** A statement's members, checked; or why it is not a statement. */
function checkStatement(value) {
    const bad = (reason) => ({ ok: false, reason: `coverage statement: ${reason}` });
    for (const k of Object.keys(value))
        if (k !== 'signature' && !MEMBERS.includes(k))
            return bad(`unknown member ${JSON.stringify((0,core_text/* quote */.hD)(k, 60))}`);
    for (const k of MEMBERS)
        if (!(0,core_json/* hasOwn */.$)(value, k))
            return bad(`${k} is missing`);
    if (value['schema'] !== model/* COVERAGE_SCHEMA */.Bh)
        return bad(`schema must be ${model/* COVERAGE_SCHEMA */.Bh}`);
    const provider = value['provider'];
    const kind = value['export'];
    if (typeof provider !== 'string' || provider === '')
        return bad('provider must be a non-empty string');
    if (typeof kind !== 'string' || kind === '')
        return bad('export must be a non-empty string');
    const actors = value['actors'];
    if (!strings(actors))
        return bad('actors must be a list of strings (empty: the statement covers nothing)');
    const repos = value['repos'];
    if (repos !== null && !strings(repos))
        return bad('repos must be a list of OWNER/NAME strings, or null');
    if (repos !== null)
        for (const r of repos)
            if (!/^[^/\s]+\/[^/\s]+$/.test(r))
                return bad(`repos: ${JSON.stringify((0,core_text/* quote */.hD)(r, 80))} is not OWNER/NAME`);
    const owner = value['owner'];
    if (owner !== null && (typeof owner !== 'string' || owner === ''))
        return bad('owner must be a non-empty string, or null');
    const actions = value['actions'];
    if (!strings(actions) || actions.length === 0)
        return bad('actions must be a non-empty list of CLASS:VERB strings');
    for (const a of actions)
        if (!ACTION.test(a))
            return bad(`actions: ${JSON.stringify((0,core_text/* quote */.hD)(a, 80))} is not CLASS:VERB`);
    const times = [];
    for (const k of ['since', 'until']) {
        const given = value[k];
        if (typeof given !== 'string')
            return bad(`${k} must be an RFC 3339 time (a string)`);
        const t = (0,core_time/* parseRfc3339 */.TM)(given);
        if (!t.ok)
            return bad(`${k}: ${JSON.stringify((0,core_text/* quote */.hD)(given, 60))} ${t.reason}`);
        times.push(t.value);
    }
    const [since, until] = times;
    if ((0,core_time/* compareInstants */.QI)(since, until) >= 0)
        return bad('since must be before until (the window is [since, until))');
    const entries = value['entries_read'];
    const records = value['records'];
    if (!count(entries))
        return bad('entries_read must be a non-negative integer');
    if (!count(records))
        return bad('records must be a non-negative integer');
    return {
        ok: true,
        value: {
            provider,
            export: kind,
            actors: [...actors],
            repos: repos === null ? null : [...repos],
            owner,
            actions: [...actions],
            since,
            until,
            entries_read: entries,
            records,
        },
    };
}

// EXTERNAL MODULE: ./src/read/documents.ts + 1 modules
var documents = __nccwpck_require__(1035);
// EXTERNAL MODULE: ./src/read/file-read.ts
var file_read = __nccwpck_require__(7465);
// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: ./src/core/decision.ts + 1 modules
var decision = __nccwpck_require__(118);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
// EXTERNAL MODULE: ./src/read/shapes.ts
var shapes = __nccwpck_require__(6888);
;// CONCATENATED MODULE: ./src/read/server-log.ts
/**
 * Runs as Assay's server writes them (docs/assay-server-logs.md, semantics §1): the stderr of
 * `assay-mcp-server`, one tracing JSON line per event. Each `tool_decision` event contributes the
 * decision in its `fields.decision` string, in line order, located at the line and the column of
 * that value. Other events, text lines and JSON that is not a tracing event are skipped and
 * counted; everything the doc lists as an error is one. A call started with no decision in its
 * session, or an event tracing could not format, is `run_incomplete`: a side effect may have
 * happened that no decision records.
 */






/** The column (1-based) of the `decision` member's value on a raw line (after the `:` and any whitespace), or 1 when it cannot be found. */
function decisionColumn(text, start, end) {
    const key = /"decision"[ \t]*:[ \t]*/g;
    key.lastIndex = start;
    for (let m = key.exec(text); m !== null && m.index < end; m = key.exec(text)) {
        if (text.charCodeAt(m.index - 1) !== 0x5c)
            return m.index + m[0].length - start + 1;
    }
    return 1;
}
/** Whether a line of text mentions tool_decision in any case (the whole line is searched). */
const mentionsDecision = (line) => /tool_decision/i.test(line);
/**
 * Whether a JSON object carries a decision, whatever else it is: a `fields.decision` member, or a
 * `fields.event` that is tool_decision in any case. Such a line is read as a decision or is an
 * error, never skipped (docs/assay-server-logs.md, "Never skipped").
 */
function carriesDecision(value) {
    const fields = value['fields'];
    if (!(0,core_json/* isObject */.G)(fields))
        return false;
    const event = fields['event'];
    return (0,core_json/* hasOwn */.$)(fields, 'decision') || (typeof event === 'string' && event.toLowerCase() === 'tool_decision');
}
const newSession = () => ({ started: new Map(), decided: new Set() });
/** One server log being read: server sessions (a server_start each), calls started and decided, decisions. */
class ServerLog {
    run;
    sink;
    limits;
    session = newSession();
    constructor(run, sink, limits) {
        this.run = run;
        this.sink = sink;
        this.limits = limits;
    }
    /** A tracing line (classified as one), its location and the raw text it came from. */
    event(line, loc, text, start, end) {
        const fields = line['fields'];
        const event = fields['event'];
        const rid = typeof fields['rid'] === 'string' ? fields['rid'] : null;
        if (event === 'server_start') {
            this.endSession();
            this.sink.skip(loc, 'tracing event server_start');
            return;
        }
        if (event === 'tool_call_start') {
            if (rid === null)
                this.sink.error(loc, 'a tool_call_start event without a string fields.rid (its call cannot be paired with a decision)');
            else if (!this.session.started.has(rid))
                this.session.started.set(rid, loc);
            this.sink.skip(loc, 'tracing event tool_call_start');
            return;
        }
        if (event !== 'tool_decision') {
            if (carriesDecision(line)) {
                const what = (0,core_json/* hasOwn */.$)(fields, 'decision')
                    ? `a fields.decision member with fields.event ${JSON.stringify(typeof event === 'string' ? (0,core_text/* quote */.hD)(event, 60) : (event ?? null))}`
                    : `fields.event ${JSON.stringify((0,core_text/* quote */.hD)(String(event), 60))}`;
                this.sink.error(loc, `${what}: a decision that is not exactly a tool_decision event is never skipped`);
                return;
            }
            this.sink.skip(loc, typeof event === 'string' ? `tracing event ${(0,core_text/* quote */.hD)(event, 60)}` : 'tracing message');
            return;
        }
        const at = { file: loc.file, line: loc.line, column: decisionColumn(text, start, end) };
        const result = this.decision(rid, fields['decision']);
        if (!result.ok) {
            this.sink.error(at, result.reason);
            return;
        }
        if (!this.run.admit(1, () => at, (l, message) => this.sink.error(l, message)))
            return;
        const index = this.run.seen++;
        // The tracing line's timestamp is when the decision was made (docs/coverage.md §2).
        const stamp = typeof line['timestamp'] === 'string' ? line['timestamp'] : '';
        const time = (0,core_time/* parseRfc3339 */.TM)(stamp);
        if (!time.ok) {
            this.sink.error(at, `tool_decision ${rid}: the line's timestamp ${JSON.stringify((0,core_text/* quote */.hD)(stamp, 60))} ${time.reason}`);
            return;
        }
        const shape = (0,shapes/* checkDecision */.d)(result.value);
        if (shape.ok)
            this.run.decisions.push((0,decision/* prepareDecision */.i)(at, index, result.value, time.value));
        else
            this.sink.error(at, `decision ${index} (tool_decision ${rid}): ${shape.reason}`);
    }
    /** The decision a tool_decision event carries, or why it carries none (each an error, never a skip). */
    decision(rid, raw) {
        if (rid === null)
            return { ok: false, reason: 'a tool_decision event without a string fields.rid' };
        if (this.session.decided.has(rid))
            return {
                ok: false,
                reason: `a second tool_decision for rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))} in one server session: one call, one decision`,
            };
        this.session.decided.add(rid);
        if (typeof raw !== 'string')
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is ${raw === undefined ? 'missing' : 'not a string'}` };
        if (raw.trim() === '')
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is empty` };
        const parsed = (0,strict/* parseStrict */.z)(raw, { maxDepth: this.limits.maxDepth, maxKeys: this.limits.maxKeys });
        if (!parsed.ok)
            return {
                ok: false,
                reason: `tool_decision ${rid}: fields.decision is not strict JSON (at character ${parsed.reason.offset + 1} of it): ${parsed.reason.message}`,
            };
        const json = parsed.value.json;
        if (!(0,core_json/* isObject */.G)(json))
            return { ok: false, reason: `tool_decision ${rid}: fields.decision is not a JSON object` };
        return { ok: true, value: json };
    }
    /** A text line (not JSON; the whole line): skipped, unless it is a near miss of a decision or a lost event. */
    text(line, loc) {
        if (line.startsWith('Unable to format the following event')) {
            this.sink.incomplete(loc, 'tracing could not format an event here: it may have been a tool_decision, so the log may not hold every decision of the run');
        }
        else if (mentionsDecision(line)) {
            this.sink.error(loc, 'a text line that mentions tool_decision (a decision that is not a tracing JSON line is never skipped)');
        }
        else {
            this.sink.skip(loc, line.charCodeAt(0) === 0x1b ? 'text line (ANSI banner)' : 'text line');
        }
    }
    /** A JSON object on a log line that is not a tracing event (stdout mixed in, a startup_failure line). */
    other(loc, name) {
        this.sink.skip(loc, name);
    }
    endSession() {
        for (const [rid, loc] of this.session.started) {
            if (this.session.decided.has(rid))
                continue;
            this.sink.incomplete(loc, `rid ${JSON.stringify((0,core_text/* quote */.hD)(rid, 40))} started a tool call with no tool_decision in its session (the process was killed mid-call, or decisions were filtered out, e.g. ASSAY_LOG=warn): a side effect may have happened that no decision records`);
        }
        this.session = newSession();
    }
    /** The end of the file: calls still without a decision are incomplete. */
    close() {
        this.endSession();
    }
}

// EXTERNAL MODULE: ./src/read/signature.ts
var read_signature = __nccwpck_require__(2826);
// EXTERNAL MODULE: ./src/read/surface.ts
var read_surface = __nccwpck_require__(2835);
;// CONCATENATED MODULE: ./src/read/artifacts.ts
/**
 * Bytes of one run artifact or audit export → located decisions and records, plus findings.
 * Every document is strict JSON (see read/json/strict.ts); every decision and record keeps its line and
 * column. A run with any error contributes no calls (its sequence is what observed_confirmed reads,
 * so half a run is not a run); an audit export loses only the records that are broken.
 */















const SURFACE_PATHS = [['observed_tool_decisions'], ['data', 'observed_tool_decisions']];
const SURFACE_KEY = { schema: (0,scanner/* pathKey */.Pn)(SURFACE_PATHS[0]), event: (0,scanner/* pathKey */.Pn)(SURFACE_PATHS[1]) };
const ROOT_KEY = (0,scanner/* pathKey */.Pn)([]);
/** Collects findings for one file, capped, and turns offsets into locations. */
class FileReport extends documents/* LocatingSink */.Bz {
    limits;
    errors = 0;
    suppressed = 0;
    skipped = new Map();
    firstSkip = null;
    constructor(file, limits) {
        super(file);
        this.limits = limits;
    }
    /** A server log shows a call with no decision, or a lost event (the run still counts, and fails). */
    incomplete(loc, message) {
        this.listed((0,findings/* finding */.gk)('run_incomplete', loc, message));
    }
    get skippedAny() {
        return this.firstSkip !== null;
    }
    notice(code, message) {
        this.findings.push((0,findings/* finding */.gk)(code, { file: this.file, line: 1, column: 1 }, message));
    }
    get failed() {
        return this.errors > 0;
    }
    report(loc, message) {
        this.errors++;
        this.listed((0,findings/* finding */.gk)('invalid_artifact', loc, message));
    }
    /** Every finding of the file counts toward the per-file limit of listed findings; the rest are counted. */
    listed(finding) {
        if (this.findings.length >= this.limits.maxFindingsPerFile)
            this.suppressed++;
        else
            this.findings.push(finding);
    }
    skip(loc, name) {
        this.firstSkip ??= loc;
        this.skipped.set(name, (this.skipped.get(name) ?? 0) + 1);
    }
    close() {
        if (this.suppressed > 0) {
            this.findings.push((0,findings/* finding */.gk)(this.errors > 0 ? 'invalid_artifact' : 'run_incomplete', { file: this.file, line: 1, column: 1 }, `${this.suppressed} more problem(s) in this file not listed`));
        }
        if (this.firstSkip)
            this.findings.push((0,file_read/* skippedFinding */.E)(this.firstSkip, this.skipped));
        return this.findings;
    }
}
/** A file's decoded text and documents through the one pipeline, its problems into `fr`. */
function fileText(bytes, fr, limits) {
    const decoded = (0,documents/* decode */.D4)(bytes, limits, fr);
    if (!decoded)
        return null;
    fr.lines = decoded.lines;
    return decoded.text;
}
/** An audit export's documents; only a .json file's root array offsets are wanted (its records). */
function* auditDocuments(bytes, format, fr, limits) {
    const text = fileText(bytes, fr, limits);
    if (text === null)
        return;
    yield* (0,documents/* documents */.DB)(text, format, { limits, collect: format === 'json' ? [[]] : [] }, fr);
}
/** A signed entry's signature member and payload P (kept when signed, or when asked); null after an error reported at `loc`. */
function signedParts(payload, what, type, loc, fr, options) {
    const signed = (0,core_json/* hasOwn */.$)(payload, 'signature');
    const signature = signed ? (0,read_signature/* readSignatureMember */.lH)(payload['signature'], type) : null;
    // A malformed signature is garbage, never ignored: the entry is invalid, keys or not.
    if (signature && !signature.ok) {
        fr.error(loc, `${what}: ${signature.reason}`);
        return null;
    }
    if (!signed && !options.payloads)
        return { signature: null, payload: undefined };
    const canonical = (0,read_signature/* payloadOf */.Md)(payload);
    if (!canonical.ok) {
        fr.error(loc, `${what}: cannot be canonicalized (${canonical.reason})`);
        return null;
    }
    return { signature: signature?.ok ? signature.value : null, payload: canonical.text };
}
/** A coverage statement among the records (docs/coverage.md): its shape, then its signature like a record's. */
function readStatement(kind, loc, fr, out, options) {
    const shape = checkStatement(kind.payload);
    if (!shape.ok) {
        fr.error(loc, shape.reason);
        return;
    }
    const parts = signedParts(kind.payload, 'coverage statement', read_signature/* COVERAGE_PAYLOAD_TYPE */.f4, loc, fr, options);
    if (!parts)
        return;
    const { signature, payload } = parts;
    out.push(signature
        ? { kind: 'statement', loc, statement: shape.value, signer: signature.key_id, signature, payload }
        : { kind: 'statement', loc, statement: shape.value, signer: null, payload });
}
function readRecord(kind, loc, fr, out, options) {
    const shape = (0,shapes/* checkRecord */.E)(kind.payload);
    if (!shape.ok) {
        fr.error(loc, `audit record: ${shape.reason}`);
        return;
    }
    const parts = signedParts(kind.payload, 'audit record', read_signature/* PAYLOAD_TYPE */.Uc, loc, fr, options);
    if (!parts)
        return;
    const { signature, payload } = parts;
    // Keep only what verification reads (never a spread of the parsed object).
    // The shape check above makes every member below what AuditRecord says it is.
    const parsed = kind.payload;
    const record = {
        schema: model/* RECORD_SCHEMA */.ep,
        provider: parsed['provider'],
        record_id: parsed['record_id'],
        subject: parsed['subject'],
        binding_digest: parsed['binding_digest'],
    };
    const input = signature
        ? { kind: 'record', loc, record, signer: signature.key_id, signature, payload }
        : { kind: 'record', loc, record, signer: null, payload };
    out.push(input);
}
/** The end of the line that starts at `start` (its "\n", or the end of the text). */
const lineEnd = (text, start) => {
    const n = text.indexOf('\n', start);
    return n < 0 ? text.length : n;
};
/**
 * A run artifact: a .json surface; .ndjson/.jsonl of surfaces, surface events or server tracing
 * lines; or a server log (.log). One run per file, decisions in line order.
 */
function readRunFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR) {
    const fr = new FileReport(file, limits);
    const run = new read_surface/* RunDecisions */.N(limits.maxDecisions);
    const log = new ServerLog(run, fr, limits);
    let surfaces = 0;
    let tracing = 0;
    const text = fileText(bytes, fr, limits);
    const surface = (doc, k) => {
        surfaces++;
        const offsets = doc.elements.get(SURFACE_KEY[k.via]) ?? [];
        // An evidence event's decisions were made at its `time` (docs/coverage.md §2): present, it must be RFC 3339.
        let time = null;
        const given = k.via === 'event' && (0,core_json/* isObject */.G)(doc.value) && (0,core_json/* hasOwn */.$)(doc.value, 'time') ? doc.value['time'] : undefined;
        if (given !== undefined) {
            const parsed = typeof given === 'string' ? (0,core_time/* parseRfc3339 */.TM)(given) : null;
            if (!parsed?.ok) {
                const why = parsed ? parsed.reason : 'is not a string';
                fr.error(fr.at(doc.start), `the evidence event's time ${JSON.stringify(typeof given === 'string' ? (0,core_text/* quote */.hD)(given, 60) : given)} ${why}`);
                return;
            }
            time = parsed.value;
        }
        (0,read_surface/* readSurface */.U)(k.payload, k.via, (j) => fr.at(j === null ? doc.start : (offsets[j] ?? doc.start)), run, (at, message) => fr.error(at, message), time);
    };
    const json = (doc, inLog) => {
        const loc = fr.at(doc.start);
        const kind = (0,classify/* classify */.L)(doc.value);
        if (kind.kind === 'tracing') {
            // A .json run file must be a surface: one tracing line there is not a run (semantics §1).
            if (format === 'json')
                fr.error(loc, 'a server tracing line in a .json file: a .json run file must be a decision surface (a captured log is a .log)');
            else {
                tracing++;
                log.event(kind.line, loc, text, doc.start, lineEnd(text, doc.start));
            }
        }
        else if ((0,core_json/* isObject */.G)(doc.value) && carriesDecision(doc.value)) {
            // A decision is never skipped: a line that carries one but is not a tracing line is an error.
            fr.error(loc, kind.kind === 'error' && kind.named
                ? kind.reason
                : 'a line that carries a tool decision (fields.decision or fields.event tool_decision) but is not a tracing line');
        }
        else if (kind.kind === 'error' && inLog && !kind.named) {
            // In a server log, JSON that names no kind (stdout's JSON-RPC, a startup_failure line) is skipped.
            log.other(loc, (0,core_json/* isObject */.G)(doc.value) && typeof doc.value['jsonrpc'] === 'string'
                ? 'JSON-RPC message (stdout mixed in)'
                : 'JSON that is not a tracing event');
        }
        else if (kind.kind === 'error')
            fr.error(loc, kind.reason);
        else if (kind.kind === 'other')
            fr.skip(loc, kind.name);
        else if (kind.kind === 'record')
            fr.skip(loc, 'assay.provider_audit_record.v0 (an audit record among the runs)');
        else if (kind.kind === 'coverage')
            fr.skip(loc, `${model/* COVERAGE_SCHEMA */.Bh} (a coverage statement among the runs)`);
        else if (format === 'json' && kind.via === 'event')
            fr.error(loc, 'an evidence event in a .json file: a .json run file must be a decision surface (events go in .ndjson)');
        else
            surface(doc, kind);
    };
    if (text !== null) {
        const collect = format === 'json' ? [[], ...SURFACE_PATHS] : SURFACE_PATHS;
        if (format === 'log') {
            for (const l of (0,documents/* logLines */.OG)(text, { limits, collect }, fr)) {
                if (l.kind === 'json')
                    json(l.doc, true);
                else
                    log.text(text.slice(l.start, l.end), fr.at(l.start));
            }
        }
        else {
            for (const doc of (0,documents/* documents */.DB)(text, format, { limits, collect }, fr))
                json(doc, false);
        }
        log.close();
    }
    const firstError = fr.findings.findIndex((f) => f.code === 'invalid_artifact');
    const first = fr.findings[firstError];
    if (fr.failed && first) {
        fr.findings[firstError] = { ...first, message: `${first.message} (the run is rejected and contributes no calls)` };
    }
    const isRun = surfaces > 0 || tracing > 0;
    // Nothing is dropped silently: a readable file with nothing to verify says so.
    if (!fr.failed && !isRun && !fr.skippedAny)
        fr.notice('no_decisions', 'no decision surface in this file: it contributes no calls');
    if (!fr.failed && tracing > 0 && run.decisions.length === 0 && surfaces === 0) {
        fr.notice('no_decisions', 'the server log holds no tool_decision event: it contributes no calls');
    }
    const findings = fr.close();
    return { run: !fr.failed && isRun ? { artifact: file, decisions: run.decisions } : null, entries: [], findings };
}
/** An audit export (.json record or array of records, or .ndjson/.jsonl of records). */
function readAuditFile(file, bytes, format, limits = read_limits/* DEFAULT_LIMITS */.dR, options = {}) {
    const fr = new FileReport(file, limits);
    const entries = [];
    for (const doc of auditDocuments(bytes, format, fr, limits)) {
        const offsets = doc.elements.get(ROOT_KEY) ?? [];
        const items = Array.isArray(doc.value) && format === 'json'
            ? doc.value.map((v, j) => [v, offsets[j] ?? doc.start])
            : [[doc.value, doc.start]];
        for (const [value, offset] of items) {
            const loc = fr.at(offset);
            const kind = (0,classify/* classify */.L)(value);
            if (kind.kind === 'error')
                fr.error(loc, kind.reason);
            else if (kind.kind === 'other')
                fr.skip(loc, kind.name);
            else if (kind.kind === 'tracing')
                fr.skip(loc, 'a server tracing line (a run among the audit exports)');
            else if (kind.kind === 'surface')
                fr.skip(loc, 'assay.tool_decision_surface.v0 (a run among the audit exports)');
            else if (kind.kind === 'coverage')
                readStatement(kind, loc, fr, entries, options);
            else
                readRecord(kind, loc, fr, entries, options);
        }
    }
    if (!fr.failed && entries.length === 0 && !fr.skippedAny)
        fr.notice('no_records', 'no audit record in this file');
    return { run: null, entries, findings: fr.close() };
}


/***/ }),

/***/ 7753:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   P: () => (/* binding */ strictBase64)
/* harmony export */ });
/** Standard base64 (RFC 4648 §4, padded), strictly: the one decoder of signatures and envelopes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The bytes of strict standard base64 text, or null (wrong alphabet, length or padding). */
const strictBase64 = (s) => (s.length % 4 === 0 && BASE64.test(s) ? Buffer.from(s, 'base64') : null);


/***/ }),

/***/ 2789:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  B: () => (/* binding */ readBundle)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
;// CONCATENATED MODULE: external "node:stream"
const external_node_stream_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __nccwpck_require__(8522);
// EXTERNAL MODULE: ./src/core/binding.ts + 1 modules
var binding = __nccwpck_require__(3491);
// EXTERNAL MODULE: ./src/core/findings.ts
var core_findings = __nccwpck_require__(4637);
// EXTERNAL MODULE: ./src/core/model.ts
var model = __nccwpck_require__(4146);
// EXTERNAL MODULE: ./src/read/file-read.ts
var file_read = __nccwpck_require__(7465);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: ./src/read/read-error.ts
var read_error = __nccwpck_require__(9677);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/core/time.ts
var core_time = __nccwpck_require__(2334);
// EXTERNAL MODULE: ./src/read/classify.ts
var classify = __nccwpck_require__(3440);
// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
// EXTERNAL MODULE: ./src/read/lines.ts
var lines = __nccwpck_require__(771);
// EXTERNAL MODULE: ./src/read/surface.ts
var surface = __nccwpck_require__(2835);
// EXTERNAL MODULE: ./src/read/utf8.ts + 1 modules
var utf8 = __nccwpck_require__(8107);
;// CONCATENATED MODULE: ./src/read/bundle/events.ts
/**
 * The third job of the bundle reader: events.ndjson, every event's envelope, sequence and content
 * hash, the run root; the decisions of its surface events through the same classifier as plain files.
 */













const STRINGS = ['type', 'datacontenttype', 'assayproducer', 'assayproducerversion', 'assaygit'];
const fail = (message) => {
    throw new read_error/* ReadError */.F('events', message);
};
/** One event's CloudEvents envelope and Assay extensions (§ "Events"): its time and content hash, or a ReadError. */
function checkEnvelope(entry, where, manifest, seq, source) {
    if (entry['specversion'] !== '1.0')
        fail(`${where}: specversion must be "1.0"`);
    for (const k of STRINGS)
        if (typeof entry[k] !== 'string')
            fail(`${where}: ${k} must be a string`);
    const src = entry['source'];
    if (typeof src !== 'string' || !src.includes(':') || src.startsWith(':'))
        fail(`${where}: source must be a string containing ':' and not starting with it`);
    if (source !== undefined && src !== source)
        fail(`${where}: source differs from the first event's`);
    if (entry['assayrunid'] !== manifest.runId)
        fail(`${where}: assayrunid does not equal the manifest run_id`);
    if (entry['assayseq'] !== seq)
        fail(`${where}: assayseq must be ${seq} (sequence starts at 0 and increases by 1)`);
    if (entry['id'] !== `${manifest.runId}:${seq}`)
        fail(`${where}: id must be "${manifest.runId}:${seq}"`);
    const t = entry['time'];
    if (typeof t !== 'string')
        return fail(`${where}: time is not an RFC 3339 timestamp (not a string)`);
    const time = (0,core_time/* parseRfc3339 */.TM)(t);
    if (!time.ok)
        return fail(`${where}: time is not an RFC 3339 timestamp: ${JSON.stringify((0,core_text/* quote */.hD)(t, 40))} ${time.reason}`);
    if (typeof entry['assaypii'] !== 'boolean' || typeof entry['assaysecrets'] !== 'boolean')
        fail(`${where}: assaypii and assaysecrets must be booleans`);
    const subject = entry['subject'];
    if (subject !== undefined && subject !== null && typeof subject !== 'string')
        fail(`${where}: subject must be a string`);
    const covered = {
        specversion: entry['specversion'],
        type: entry['type'],
        datacontenttype: entry['datacontenttype'],
        data: entry['data'],
    };
    if (typeof subject === 'string')
        covered['subject'] = subject;
    const canonical = (0,binding/* jcs */.vI)(covered);
    if (!canonical.ok)
        return fail(`${where}: event cannot be canonicalized (${canonical.reason})`);
    const contentHash = (0,binding/* sha256Digest */.sI)(canonical.text);
    if (entry['assaycontenthash'] !== contentHash)
        fail(`${where}: assaycontenthash does not match the event content (recomputed ${contentHash})`);
    return { time: time.value, contentHash };
}
function readEvents(bytes, manifest, file, limits) {
    if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
        fail('events.ndjson starts with a byte-order mark');
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        return fail(`events.ndjson is not valid UTF-8 (byte ${decoded.reason})`);
    const text = decoded.value;
    const root = (0,external_node_crypto_.createHash)('sha256');
    const run = new surface/* RunDecisions */.N(limits.maxDecisions);
    const skipped = new Map();
    let seq = 0;
    let source;
    let earliest = null;
    let latest = null;
    const surfacePath = (0,scanner/* pathKey */.Pn)(['data', 'observed_tool_decisions']);
    const opts = { maxDepth: limits.maxDepth, collect: [['data', 'observed_tool_decisions']] };
    for (const { line, start, end } of (0,lines/* lines */.Mn)(text)) {
        const where = `events.ndjson line ${line}`;
        if (end === start)
            fail(`${where} is blank`);
        if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes))
            fail(`${where} is over the ${limits.maxLineBytes}-byte line limit`);
        if (seq >= limits.maxEvents)
            fail(`more than ${limits.maxEvents} events`);
        const parsed = (0,strict/* parseStrict */.z)(text, opts, start, end);
        if (!parsed.ok)
            return fail(`${where} is not strict JSON: ${parsed.reason.message}`);
        const thrown = parsed.value.json;
        if (!(0,json/* isObject */.G)(thrown))
            return fail(`${where} is not a JSON object`);
        const { time, contentHash } = checkEnvelope(thrown, where, manifest, seq, source);
        source = thrown['source'];
        if (!earliest || (0,core_time/* compareInstants */.QI)(time, earliest) < 0)
            earliest = time;
        if (!latest || (0,core_time/* compareInstants */.QI)(latest, time) < 0)
            latest = time;
        root.update(`${contentHash}\n`);
        // The same classifier as plain files and NDJSON logs: they cannot disagree about an event.
        const kind = (0,classify/* classify */.L)(thrown);
        if (kind.kind === 'error')
            fail(`${where}: ${kind.reason}`);
        else if (kind.kind === 'surface') {
            const offsets = parsed.value.elements.get(surfacePath) ?? [];
            const locate = (j) => ({
                file,
                line,
                column: (j === null ? start : (offsets[j] ?? start)) - start + 1,
                member: 'events.ndjson',
            });
            (0,surface/* readSurface */.U)(kind.payload, 'event', locate, run, (_at, message) => fail(`${where}: ${message}`), time);
        }
        else {
            const name = kind.kind === 'record'
                ? `${model/* RECORD_SCHEMA */.ep} (an audit record among the runs)`
                : kind.kind === 'other'
                    ? kind.name
                    : 'a server tracing line';
            skipped.set(name, (skipped.get(name) ?? 0) + 1);
        }
        seq++;
    }
    if (seq === 0)
        fail('events.ndjson holds no events (a bundle needs at least one)');
    if (seq !== manifest.eventCount)
        fail(`manifest event_count is ${manifest.eventCount} but events.ndjson holds ${seq} events`);
    const runRoot = `sha256:${root.digest('hex')}`;
    if (runRoot !== manifest.runRoot)
        fail(`run root recomputes to ${runRoot} but the manifest run_root says ${manifest.runRoot}`);
    if (manifest.bundleId !== manifest.runRoot)
        fail('manifest bundle_id does not equal the run root');
    return { decisions: run.decisions, skipped, window: earliest && latest ? { start: (0,core_time/* autoSi */.Qs)(earliest), end: (0,core_time/* autoSi */.Qs)(latest) } : null };
}

;// CONCATENATED MODULE: ./src/read/bundle/manifest.ts
/** The second job of the bundle reader: manifest.json, or the other kind of archive it announces. */







/** A manifest `schema` of another kind is a skip (its kind's name); a near miss of ours is an error, never a skip. */
function otherKind(schema) {
    const kind = (0,classify/* classify */.L)({ schema, observed_tool_decisions: [] });
    if (kind.kind === 'other')
        return kind.name;
    throw new read_error/* ReadError */.F('manifest', kind.kind === 'error'
        ? `the archive's manifest names ${JSON.stringify((0,core_text/* quote */.hD)(schema, 120))}: ${kind.reason}`
        : `the archive's manifest names ${schema}, which is not an archive`);
}
/** A first member that is JSON with a `schema` names the archive's kind (null: it names none, so it is not a bundle). */
function otherArchive(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        return null;
    const parsed = (0,strict/* parseStrict */.z)(decoded.value, { maxDepth: limits.maxDepth });
    const value = parsed.ok ? parsed.value.json : null;
    return (0,json/* isObject */.G)(value) && typeof value['schema'] === 'string' ? otherKind(value['schema']) : null;
}
/** The manifest, or the name of the other kind of archive it announces. */
function readManifest(bytes, limits) {
    const decoded = (0,utf8/* decodeUtf8 */._)(bytes);
    if (!decoded.ok)
        throw new read_error/* ReadError */.F('manifest', `manifest.json is not valid UTF-8 (byte ${decoded.reason})`);
    const parsed = (0,strict/* parseStrict */.z)(decoded.value, { maxDepth: limits.maxDepth });
    if (!parsed.ok)
        throw new read_error/* ReadError */.F('manifest', `manifest.json is not strict JSON: ${parsed.reason.message} (offset ${parsed.reason.offset})`);
    const m = parsed.value.json;
    if (!(0,json/* isObject */.G)(m))
        throw new read_error/* ReadError */.F('manifest', 'manifest.json is not a JSON object');
    if (typeof m['schema'] === 'string' && !('schema_version' in m))
        return { other: otherKind(m['schema']) };
    if (m['schema_version'] !== 1)
        throw new read_error/* ReadError */.F('manifest', `manifest schema_version must be 1, found ${JSON.stringify(m['schema_version'])}`);
    const runId = m['run_id'];
    const eventCount = m['event_count'];
    const runRoot = m['run_root'];
    const bundleId = m['bundle_id'];
    if (typeof runId !== 'string')
        throw new read_error/* ReadError */.F('manifest', 'manifest run_id is not a string');
    if (runId.includes(':'))
        throw new read_error/* ReadError */.F('manifest', 'manifest run_id contains ":" (event ids are run_id:seq)');
    if (typeof eventCount !== 'number' || !Number.isSafeInteger(eventCount) || eventCount < 0)
        throw new read_error/* ReadError */.F('manifest', 'manifest event_count is not a non-negative integer');
    if (typeof runRoot !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(runRoot))
        throw new read_error/* ReadError */.F('manifest', 'manifest run_root is not a sha256:<hex> digest');
    if (typeof bundleId !== 'string' || !binding/* DIGEST_PATTERN */.WA.test(bundleId))
        throw new read_error/* ReadError */.F('manifest', 'manifest bundle_id is not a sha256:<hex> digest');
    const files = m['files'];
    const ev = (0,json/* isObject */.G)(files) ? files['events.ndjson'] : undefined;
    if (!(0,json/* isObject */.G)(ev))
        throw new read_error/* ReadError */.F('manifest', 'manifest files["events.ndjson"] is missing or not an object');
    const sha = ev['sha256'];
    const size = ev['bytes'];
    if (typeof ev['path'] !== 'string')
        throw new read_error/* ReadError */.F('manifest', 'manifest files["events.ndjson"].path is not a string');
    if (typeof sha !== 'string')
        throw new read_error/* ReadError */.F('manifest', 'manifest files["events.ndjson"].sha256 is not a string');
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
        throw new read_error/* ReadError */.F('manifest', 'manifest files["events.ndjson"].bytes is not a non-negative integer');
    const eventsSha256 = (sha.startsWith('sha256:') ? sha : `sha256:${sha}`).toLowerCase();
    const parsed2 = (0,json/* isObject */.G)(m['producer']) ? m['producer'] : {};
    const text = (k) => (typeof parsed2[k] === 'string' ? parsed2[k] : null);
    return {
        producer: { name: text('name'), version: text('version'), git: text('git') },
        runId,
        eventCount,
        runRoot,
        bundleId,
        eventsSha256,
        eventsBytes: size,
    };
}

;// CONCATENATED MODULE: ./src/read/bundle/source.ts
/**
 * The first job of the bundle reader: the archive's bytes through gunzip, pulled by the tar reader,
 * with the decompression limits (size, ratio) enforced while streaming.
 */

const MiB = 1024 * 1024;
/** A pull source over the gunzip stream that enforces the decompression limits. */
class GunzipSource {
    compressed;
    limits;
    chunks = [];
    buffered = 0;
    total = 0;
    done = false;
    it;
    constructor(stream, compressed, limits) {
        this.compressed = compressed;
        this.limits = limits;
        this.it = stream[Symbol.asyncIterator]();
    }
    async fill() {
        if (this.done)
            return false;
        const r = await this.it.next();
        if (r.done) {
            this.done = true;
            return false;
        }
        this.total += r.value.length;
        if (this.total > this.limits.maxDecompressedBytes) {
            throw new read_error/* ReadError */.F('limit', `decompressed size exceeds the ${this.limits.maxDecompressedBytes}-byte limit (decompression bomb?)`);
        }
        if (this.total > MiB && this.total > this.compressed * this.limits.maxRatio) {
            throw new read_error/* ReadError */.F('limit', `decompression ratio exceeds ${this.limits.maxRatio}:1 (${this.compressed} compressed bytes expanded past ${this.total}; decompression bomb?)`);
        }
        this.chunks.push(r.value);
        this.buffered += r.value.length;
        return true;
    }
    async read(n) {
        while (this.buffered < n && (await this.fill()))
            ;
        const take = Math.min(n, this.buffered);
        const [only] = this.chunks;
        const all = this.chunks.length === 1 && only ? only : Buffer.concat(this.chunks);
        const out = all.subarray(0, take);
        const rest = all.subarray(take);
        this.chunks = rest.length > 0 ? [rest] : [];
        this.buffered = rest.length;
        return out;
    }
    /** Read to the end of the gzip stream (so its CRC32 and size trailer are checked); true when only zeros followed. */
    async drain() {
        let zeros = true;
        const check = (bytes) => {
            if (zeros)
                for (let i = 0; i < bytes.length; i++)
                    if (bytes[i] !== 0) {
                        zeros = false;
                        break;
                    }
        };
        for (const c of this.chunks)
            check(c);
        this.chunks = [];
        this.buffered = 0;
        while (await this.fill()) {
            for (const c of this.chunks)
                check(c);
            this.chunks = [];
            this.buffered = 0;
        }
        return zeros;
    }
}
function gzipReason(error) {
    const m = error.message ?? '';
    if (error.code === 'Z_BUF_ERROR' || /unexpected end/i.test(m))
        return 'gzip stream is truncated (it ends before its trailer)';
    if (/incorrect header check|unknown compression/i.test(m))
        return 'not a gzip stream (bad gzip header)';
    if (/incorrect data check/i.test(m))
        return 'gzip CRC32 trailer does not match the data';
    if (/incorrect length check/i.test(m))
        return 'gzip size trailer does not match the data';
    return `gzip stream is corrupt (${m})`;
}

;// CONCATENATED MODULE: ./src/read/bundle/tar.ts
/**
 * A minimal, strict ustar reader over a pull source. It yields members one at a time, consuming
 * local PAX and GNU long-name headers, and refuses everything an evidence bundle never contains:
 * links, devices, directories, global PAX headers, oversized metadata. Failures are ReadError('tar')
 * (or 'limit') whose message names the rule.
 */


const BLOCK = 512;
const isZero = (bytes) => {
    for (let i = 0; i < bytes.length; i++)
        if (bytes[i] !== 0)
            return false;
    return true;
};
const cstring = (bytes, start, len) => {
    const end = bytes.indexOf(0, start);
    return bytes.toString('utf8', start, end === -1 || end > start + len ? start + len : end);
};
function octal(bytes, start, len, what) {
    if (((bytes[start] ?? 0) & 0x80) !== 0) {
        // GNU base-256: only sizes that fit in a double are meaningful here.
        let v = 0;
        for (let i = start + 1; i < start + len; i++)
            v = v * 256 + (bytes[i] ?? 0);
        if (((bytes[start] ?? 0) & 0x7f) !== 0 || !Number.isSafeInteger(v))
            throw new read_error/* ReadError */.F('tar', `tar header ${what} field is out of range`);
        return v;
    }
    const text = bytes
        .toString('latin1', start, start + len)
        .replace(/[\0 ]+$/, '')
        .replace(/^ +/, '');
    if (text === '')
        return 0;
    if (!/^[0-7]+$/.test(text))
        throw new read_error/* ReadError */.F('tar', `tar header ${what} field is not octal`);
    return parseInt(text, 8);
}
function checksumOk(bytes) {
    const declared = octal(bytes, 148, 8, 'checksum');
    let sum = 0;
    for (let i = 0; i < BLOCK; i++)
        sum += i >= 148 && i < 156 ? 32 : (bytes[i] ?? 0);
    return sum === declared;
}
const padding = (size) => (BLOCK - (size % BLOCK)) % BLOCK;
/** Parse PAX records "len key=value\n" and return the `path` record if any. */
function paxPath(data) {
    let i = 0;
    let path;
    while (i < data.length) {
        const sp = data.indexOf(0x20, i);
        if (sp === -1)
            throw new read_error/* ReadError */.F('tar', 'malformed PAX header record');
        const len = Number(data.toString('latin1', i, sp));
        if (!Number.isSafeInteger(len) || len <= 0 || i + len > data.length)
            throw new read_error/* ReadError */.F('tar', 'malformed PAX header record length');
        const rec = data.toString('utf8', sp + 1, i + len - 1);
        const eq = rec.indexOf('=');
        if (eq === -1)
            throw new read_error/* ReadError */.F('tar', 'malformed PAX header record');
        const key = rec.slice(0, eq);
        if (key === 'path')
            path = rec.slice(eq + 1);
        if (key === 'linkpath')
            throw new read_error/* ReadError */.F('tar', 'PAX linkpath record: links are not allowed in a bundle');
        if (key === 'size')
            throw new read_error/* ReadError */.F('tar', 'PAX size record is not supported in a bundle');
        i += len;
    }
    return path;
}
async function* members(src, limits) {
    let longName;
    let consumed = true;
    for (;;) {
        if (!consumed)
            throw new read_error/* ReadError */.F('tar', 'internal: member data not consumed');
        const bytes = await src.read(BLOCK);
        if (bytes.length === 0) {
            if (longName !== undefined)
                throw new read_error/* ReadError */.F('tar', 'tar archive ends after an extended header (truncated)');
            return; // EOF at a header boundary: tolerated like the end marker
        }
        if (bytes.length < BLOCK)
            throw new read_error/* ReadError */.F('tar', 'tar archive is truncated inside a header');
        if (isZero(bytes)) {
            if (longName !== undefined)
                throw new read_error/* ReadError */.F('tar', 'tar archive ends after an extended header');
            return;
        }
        if (!checksumOk(bytes))
            throw new read_error/* ReadError */.F('tar', 'tar header checksum does not match (corrupt or not a tar archive)');
        const type = String.fromCharCode(bytes[156] ?? 0);
        const size = octal(bytes, 124, 12, 'size');
        const magic = bytes.toString('latin1', 257, 263);
        const ustar = magic === 'ustar\0' || magic === 'ustar ';
        let name = cstring(bytes, 0, 100);
        const prefix = ustar && magic === 'ustar\0' ? cstring(bytes, 345, 155) : '';
        if (prefix)
            name = `${prefix}/${name}`;
        if (type === 'x' || type === 'L') {
            if (size > limits.maxMetaBytes) {
                throw new read_error/* ReadError */.F('tar', `${type === 'x' ? 'PAX' : 'GNU long-name'} header of ${size} bytes is past the ${limits.maxMetaBytes}-byte decode ceiling`);
            }
            const data = await src.read(size + padding(size));
            if (data.length < size + padding(size))
                throw new read_error/* ReadError */.F('tar', 'tar archive is truncated inside an extended header');
            const body = data.subarray(0, size);
            longName = type === 'x' ? (paxPath(body) ?? longName) : cstring(body, 0, body.length);
            continue;
        }
        if (type === 'g')
            throw new read_error/* ReadError */.F('tar', 'global PAX header member is not allowed in a bundle');
        if (type === '1' || type === '2' || type === 'K')
            throw new read_error/* ReadError */.F('tar', `link member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '3' || type === '4' || type === '6')
            throw new read_error/* ReadError */.F('tar', `device or FIFO member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type === '5')
            throw new read_error/* ReadError */.F('tar', `directory member "${(0,core_text/* quote */.hD)(name)}" is not allowed in a bundle`);
        if (type !== '0' && type !== '\0' && type !== '7')
            throw new read_error/* ReadError */.F('tar', `tar member "${(0,core_text/* quote */.hD)(name)}" has unsupported type '${type}'`);
        const path = longName ?? name;
        longName = undefined;
        if (Buffer.byteLength(path) > limits.maxPathBytes)
            throw new read_error/* ReadError */.F('tar', `tar member path is longer than ${limits.maxPathBytes} bytes`);
        if (path.startsWith('/'))
            throw new read_error/* ReadError */.F('tar', `tar member path "${path}" is absolute`);
        if (path.split('/').includes('..'))
            throw new read_error/* ReadError */.F('tar', `tar member path "${path}" contains ".."`);
        consumed = false;
        yield {
            path,
            size,
            data: async (maxBytes, what) => {
                if (size > maxBytes)
                    throw new read_error/* ReadError */.F('limit', `${what} is ${size} bytes, over the ${maxBytes}-byte limit`);
                const buf = await src.read(size + padding(size));
                if (buf.length < size + padding(size))
                    throw new read_error/* ReadError */.F('tar', `tar archive is truncated inside ${what}`);
                consumed = true;
                return buf.subarray(0, size);
            },
        };
    }
}

;// CONCATENATED MODULE: ./src/read/bundle/archive.ts
/**
 * Assay evidence bundles (`docs/evidence-bundle.md`): gzip → tar (manifest.json, events.ndjson) →
 * manifest, envelope, sequence, content hashes, run root, bundle_id — every limit enforced while
 * streaming, so a decompression bomb stops at the limit. The bundle is one run; its decisions come
 * from `assay.tool_decision_surface.v0` events in sequence order. A bundle that fails any rule is
 * one `invalid_artifact` finding naming the rule, and contributes nothing.
 */














/** Verify a bundle: what the archive is, or the rule it broke (the reader's errors end here). */
async function verifyBundle(source, file, limits = read_limits/* DEFAULT_BUNDLE_LIMITS */.k$) {
    try {
        return { ok: true, value: await walk(source, file, limits) };
    }
    catch (error) {
        if (error instanceof read_error/* ReadError */.F)
            return { ok: false, reason: error };
        throw error;
    }
}
/** The archive's bytes as a stream, and its size (over the compressed limit: refused before reading). */
function archive_open(source, limits) {
    try {
        const size = 'path' in source ? (0,external_node_fs_.statSync)(source.path).size : source.bytes.length;
        if (size > limits.maxCompressedBytes)
            throw new read_error/* ReadError */.F('limit', `bundle is ${size} bytes, over the ${limits.maxCompressedBytes}-byte compressed limit (max-file-size, at most ${read_limits/* DEFAULT_BUNDLE_LIMITS */.k$.maxCompressedBytes})`);
        return { size, input: 'path' in source ? (0,external_node_fs_.createReadStream)(source.path) : external_node_stream_namespaceObject.Readable.from([Buffer.from(source.bytes)]) };
    }
    catch (error) {
        if (error instanceof read_error/* ReadError */.F)
            throw error;
        throw new read_error/* ReadError */.F('io', `cannot read file: ${(0,read_error/* ioReason */.N)(error)}`);
    }
}
const unexpected = (path) => `unexpected member "${path}" (a bundle holds manifest.json then events.ndjson)`;
/** The members in order: manifest.json, then events.ndjson, nothing else; or another kind of archive. */
async function contents(src, file, limits) {
    let manifest;
    let events;
    for await (const m of members(src, limits)) {
        if (!manifest) {
            if (m.path !== 'manifest.json' && m.path.endsWith('.json')) {
                // Another kind of Assay archive (a runner archive…) announces itself in its first JSON member.
                const other = otherArchive(await m.data(limits.maxManifestBytes, m.path), limits);
                if (other !== null)
                    return { other };
            }
            if (m.path !== 'manifest.json')
                throw new read_error/* ReadError */.F('bundle', m.path === 'events.ndjson' ? 'member order: events.ndjson comes before manifest.json' : unexpected(m.path));
            const read = readManifest(await m.data(limits.maxManifestBytes, 'manifest.json'), limits);
            if ('other' in read)
                return read;
            manifest = read;
        }
        else if (!events) {
            if (m.path !== 'events.ndjson')
                throw new read_error/* ReadError */.F('bundle', m.path === 'manifest.json' ? 'duplicate member "manifest.json"' : unexpected(m.path));
            if (m.size !== manifest.eventsBytes)
                throw new read_error/* ReadError */.F('bundle', `events.ndjson is ${m.size} bytes but the manifest says ${manifest.eventsBytes}`);
            const bytes = await m.data(limits.maxEventsBytes, 'events.ndjson');
            if ((0,binding/* sha256Digest */.sI)(bytes) !== manifest.eventsSha256)
                throw new read_error/* ReadError */.F('bundle', 'events.ndjson sha256 does not match the manifest');
            events = readEvents(bytes, manifest, file, limits);
        }
        else {
            throw new read_error/* ReadError */.F('bundle', m.path === 'events.ndjson' || m.path === 'manifest.json' ? `duplicate member "${m.path}"` : unexpected(m.path));
        }
    }
    if (!(await src.drain()))
        throw new read_error/* ReadError */.F('bundle', 'data after the end of the tar archive');
    if (!manifest)
        throw new read_error/* ReadError */.F('bundle', 'missing member manifest.json');
    if (!events)
        throw new read_error/* ReadError */.F('bundle', 'missing member events.ndjson');
    return { manifest, events };
}
/**
 * Bytes gunzip hands over at a time. Each chunk is a turn of the event loop while zlib inflates on
 * the thread pool: 16 KiB (the default) is ~5 000 turns for a 100 000-event bundle, 256 KiB ~300
 * (2.28 → 2.06 s for it; 1 MiB was no faster). The limits are checked per chunk, so a bomb is
 * stopped at most one chunk past them.
 */
const GUNZIP_CHUNK = 256 * 1024;
/** The three jobs in order (source → manifest → events); throws ReadError naming the broken rule. */
async function walk(source, file, limits) {
    const { size, input } = archive_open(source, limits);
    const gunzip = (0,external_node_zlib_.createGunzip)({ chunkSize: GUNZIP_CHUNK });
    const archiveHash = (0,external_node_crypto_.createHash)('sha256');
    input.on('data', (chunk) => archiveHash.update(chunk));
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
        const read = await contents(new GunzipSource(gunzip, size, limits), file, limits);
        if ('other' in read)
            return { kind: 'other', name: read.other };
        const { manifest, events } = read;
        // Every byte has been read (drain checked the end): the hash is of the whole archive.
        const facts = {
            archiveSha256: archiveHash.digest('hex'),
            bundleId: manifest.bundleId,
            runId: manifest.runId,
            eventCount: manifest.eventCount,
            runRoot: manifest.runRoot,
            producer: manifest.producer,
            window: events.window,
        };
        return { kind: 'bundle', events, facts };
    }
    catch (error) {
        if (error instanceof read_error/* ReadError */.F)
            throw error;
        const err = error;
        if (typeof err.code === 'string' && err.code.startsWith('Z_'))
            throw new read_error/* ReadError */.F('gzip', gzipReason(err));
        if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code))
            throw new read_error/* ReadError */.F('io', `cannot read file: ${err.code}`);
        throw error;
    }
    finally {
        input.destroy();
        gunzip.destroy();
    }
}
async function readBundle(source, file, limits = read_limits/* DEFAULT_BUNDLE_LIMITS */.k$) {
    const at = { file, line: 1, column: 1 };
    const verified = await verifyBundle(source, file, limits);
    if (!verified.ok)
        return { run: null, entries: [], findings: [(0,core_findings/* finding */.gk)('invalid_artifact', at, `evidence bundle rejected: ${verified.reason.message}`)] };
    const archive = verified.value;
    if (archive.kind === 'other') {
        const problem = (0,core_findings/* finding */.gk)('skipped_object', at, `skipped an archive of another kind: ${archive.name} (not an evidence bundle; it contributes no calls)`);
        return { run: null, entries: [], findings: [problem] };
    }
    const { decisions, skipped } = archive.events;
    const findings = [];
    if (skipped.size > 0)
        findings.push((0,file_read/* skippedFinding */.E)({ ...at, member: 'events.ndjson' }, skipped));
    if (decisions.length === 0)
        findings.push((0,core_findings/* finding */.gk)('no_decisions', at, `evidence bundle verified; it holds no ${model/* SURFACE_SCHEMA */.SB} events, so it contributes no calls`));
    return { run: { artifact: file, decisions }, entries: [], findings, bundle: archive.facts };
}


/***/ }),

/***/ 3440:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   L: () => (/* binding */ classify)
/* harmony export */ });
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6153);
/* harmony import */ var _core_model_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4146);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(2020);
/**
 * What a JSON object is (§1), for every reader (plain files, NDJSON logs, bundle events), so they can
 * never disagree. Export folders and run logs legitimately hold other Assay artifacts, which are
 * skipped with a notice; but a near miss of a kind the gate reads is an error, never a skip:
 * another version (`…v1`), another case (`…V0`), a suffix (`…v0.1`) or stray whitespace. An object
 * that names two kinds at once (an event's `type` and a top-level `schema`) is ambiguous: an error.
 */



const KNOWN = [
    [_core_model_js__WEBPACK_IMPORTED_MODULE_0__/* .SURFACE_SCHEMA */ .SB, 'surface'],
    [_core_model_js__WEBPACK_IMPORTED_MODULE_0__/* .RECORD_SCHEMA */ .ep, 'record'],
    [_core_model_js__WEBPACK_IMPORTED_MODULE_0__/* .COVERAGE_SCHEMA */ .Bh, 'coverage'],
];
/** The family of a kind we read that `name` is exact or a near miss of, if any. */
function familyOf(name) {
    const name2 = name.trim().toLowerCase();
    for (const k of KNOWN)
        if (name2.startsWith(k[0].replace(/\.v\d+$/, '')))
            return k;
    return null;
}
function byName(name, payload, via) {
    const k = familyOf(name);
    if (!k)
        return { kind: 'other', name: (0,_core_text_js__WEBPACK_IMPORTED_MODULE_1__/* .quote */ .hD)(name, 120) };
    const [known, kind] = k;
    if (name !== known) {
        const version = /\.v\d+$/.test(name) ? 'unsupported version' : 'not exactly the kind';
        return {
            kind: 'error',
            reason: `${version} ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_1__/* .quote */ .hD)(name, 120))} (this gate reads ${known}; a near miss is never skipped)`,
            named: true,
        };
    }
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .isObject */ .G)(payload))
        return { kind: 'error', reason: `the ${via === 'event' ? 'event data' : 'object'} of ${known} is not an object`, named: true };
    return { kind, payload, via };
}
/** A tracing line: a string `timestamp`, a string `level`, an object `fields` and a string `target`. */
const isTracing = (v) => typeof v['timestamp'] === 'string' && typeof v['level'] === 'string' && (0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .isObject */ .G)(v['fields']) && typeof v['target'] === 'string';
/** An object with a string `schema` is named by it; an evidence event (a string `type` and `data`) by its type. */
function classify(value) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .isObject */ .G)(value)) {
        return {
            kind: 'error',
            reason: `expected a JSON object with a "schema" string, found ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
            named: false,
        };
    }
    const schema = value['schema'];
    const type = value['type'];
    // The tracing shape is recognised first: a tracing line that also names a kind names two (an error, never a skip).
    if (isTracing(value)) {
        if (schema === undefined && type === undefined)
            return { kind: 'tracing', line: value };
        return {
            kind: 'error',
            reason: `ambiguous: a server tracing line that also carries a top-level ${schema !== undefined ? 'schema' : 'type'}`,
            named: true,
        };
    }
    const event = typeof type === 'string' && (0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .hasOwn */ .$)(value, 'data');
    if (schema !== undefined && typeof schema !== 'string')
        return { kind: 'error', reason: '"schema" is not a string', named: true };
    if (typeof schema === 'string' && event) {
        // Both named: fine only when they cannot disagree about whether this is something we read.
        if (familyOf(schema) || familyOf(type)) {
            return {
                kind: 'error',
                reason: `ambiguous: an evidence event of type ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_1__/* .quote */ .hD)(type, 120))} with a top-level schema ${JSON.stringify((0,_core_text_js__WEBPACK_IMPORTED_MODULE_1__/* .quote */ .hD)(schema, 120))}`,
                named: true,
            };
        }
        return { kind: 'other', name: (0,_core_text_js__WEBPACK_IMPORTED_MODULE_1__/* .quote */ .hD)(type, 120) };
    }
    if (typeof schema === 'string')
        return byName(schema, value, 'schema');
    if (event) {
        const kind = byName(type, value['data'], 'event');
        return kind;
    }
    return { kind: 'error', reason: 'object has no "schema" string (and is not an evidence event with "type" and "data")', named: false };
}


/***/ }),

/***/ 5965:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   k: () => (/* binding */ discover),
/* harmony export */   n: () => (/* binding */ inside)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(4006);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_6___default = /*#__PURE__*/__nccwpck_require__.n(picomatch__WEBPACK_IMPORTED_MODULE_6__);
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(4637);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(2020);
/* harmony import */ var _formats_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(7928);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(5826);
/**
 * Inputs (paths, directories, globs) → the artifact files they name, inside the workspace, sorted.
 * Nothing outside the workspace is read: a path or glob that escapes it, and a symbolic link that
 * resolves outside it, are errors; links to directories are not descended (no cycles).
 */







/** Directories a walk never enters unless named explicitly. */
const PRUNED = new Set(['.git', 'node_modules']);
const toPosix = (p) => p.split((node_path__WEBPACK_IMPORTED_MODULE_1___default().sep)).join('/');
/** What kind of special file a path is, for messages. */
function special(path) {
    try {
        const st = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(path);
        if (st.isFIFO())
            return 'a FIFO';
        if (st.isSocket())
            return 'a socket';
        if (st.isCharacterDevice() || st.isBlockDevice())
            return 'a device';
    }
    catch {
        return 'unreadable';
    }
    return 'a special file';
}
/** Whether `p` is `root` or below it, by their text (resolve links first to compare where they lead). */
const inside = (root, where) => {
    const rel = node_path__WEBPACK_IMPORTED_MODULE_1___default().relative(root, where);
    return rel === '' || (!rel.startsWith('..') && !node_path__WEBPACK_IMPORTED_MODULE_1___default().isAbsolute(rel));
};
const relOf = (w, abs) => toPosix(node_path__WEBPACK_IMPORTED_MODULE_1___default().relative(w.cwd, abs));
/** An input as a finding names it: its role and the value as given (`runs: .assay/run`). */
const named = (w, input) => `${w.role}: ${input}`;
const where = (rel) => ({ file: rel, line: 1, column: 1 });
/**
 * Every regular file under `dir` (and in-workspace links to one), into `take`; problems into
 * `findings`. `inScope` says whether an entry is named by the input at all (a glob's match): one it
 * does not name is never taken and never reported, whatever it is.
 */
function walk(state, dir, input, take, findings, inScope = () => true) {
    const stack = [dir];
    while (stack.length > 0) {
        const digest = stack.pop();
        let list;
        try {
            list = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readdirSync)(digest, { withFileTypes: true });
        }
        catch (error) {
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', where(relOf(state, digest) || '.'), `cannot read directory: ${(0,_core_text_js__WEBPACK_IMPORTED_MODULE_5__/* .messageOf */ .bD)(error)}`));
            continue;
        }
        for (const ent of list) {
            if (++state.entries > _limits_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_WALK_ENTRIES */ .MH) {
                findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('invalid_artifact', named(state, input), `more than ${_limits_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_WALK_ENTRIES */ .MH} entries under the inputs; narrow the paths`));
                return;
            }
            const abs = node_path__WEBPACK_IMPORTED_MODULE_1___default().join(digest, ent.name);
            if (ent.isDirectory()) {
                if (!PRUNED.has(ent.name))
                    stack.push(abs);
            }
            else if (!inScope(abs)) {
                // Not named by the input: neither read nor reported.
            }
            else if (ent.isFile()) {
                take(abs);
            }
            else if (ent.isSymbolicLink()) {
                link(state, abs, take, findings);
            }
            else if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(ent.name) === 'attestation') {
                take(abs); // refused once, beside its artifact (gate/evidence.ts), or an orphan
            }
            else if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(ent.name) !== null) {
                // A FIFO, socket or device with an artifact's name is never read, and never dropped silently.
                findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', where(relOf(state, abs)), `not a regular file (${special(abs)}); not read`));
            }
        }
    }
}
/**
 * A symbolic link met in a walk: followed to a regular file inside the workspace, never out of it,
 * never into a directory. An attestation's name is taken whatever it leads to: it is read beside
 * its artifact, which refuses it once (gate/evidence.ts), or it is an orphan.
 */
function link(walk, abs, take, findings) {
    const rel = relOf(walk, abs);
    if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(abs) === 'attestation') {
        take(abs);
        return;
    }
    let real;
    try {
        real = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.realpathSync)(abs);
    }
    catch {
        // A broken link with an artifact's name is never dropped silently; one with another name would not be read if it resolved.
        if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(abs) !== null)
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', where(rel), 'broken symbolic link'));
        return;
    }
    if (!inside(walk.realWorkspace, real)) {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', where(rel), 'symbolic link points outside the workspace; not followed'));
        return;
    }
    let st;
    try {
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(real);
    }
    catch {
        return;
    }
    if (st.isFile())
        take(abs);
    else if (st.isDirectory())
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('no_match', where(rel), 'symbolic link to a directory; not descended'));
    else if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(abs) !== null)
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', where(rel), `symbolic link to something that is not a regular file (${special(real)}); not read`));
}
/** One input (a path, a directory or a glob) → the files it names and what went wrong. */
function expand(state, input, noMatch) {
    const findings = [];
    const files = [];
    const attestations = [];
    const add = (abs) => {
        files.push({ path: abs, rel: relOf(state, abs) });
    };
    const attestation = (abs) => {
        if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(abs) === 'attestation')
            attestations.push({ path: abs, rel: relOf(state, abs) });
    };
    const scan = picomatch__WEBPACK_IMPORTED_MODULE_6___default().scan(input);
    const base = node_path__WEBPACK_IMPORTED_MODULE_1___default().resolve(state.cwd, scan.isGlob ? scan.base || '.' : input);
    if (!inside(state.workspace, base)) {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('invalid_artifact', named(state, input), `"${input}" is outside the workspace (${state.workspace}); not read`));
        return { files, findings, attestations };
    }
    let st;
    try {
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.lstatSync)(base);
    }
    catch {
        // A default that is absent is no input (a missing .assay/audit means no exports): only an input given explicitly says so.
        const why = scan.isGlob ? 'no such directory' : 'no such file or directory';
        if (noMatch === 'error')
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('no_match', named(state, input), `"${input}" matched no file (${why})`, noMatch));
        return { files, findings, attestations };
    }
    // Lexically inside is not enough: the input, or any directory above it, may be a link out.
    let real = '';
    try {
        real = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.realpathSync)(base);
    }
    catch {
        /* a broken link: reported below */
    }
    if (!real || !inside(state.realWorkspace, real)) {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('invalid_artifact', named(state, input), `"${input}" resolves (through a symbolic link) to outside the workspace; not followed`));
        return { files, findings, attestations };
    }
    if (st.isSymbolicLink())
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.statSync)(real);
    if (scan.isGlob) {
        const match = picomatch__WEBPACK_IMPORTED_MODULE_6___default()(relOf(state, node_path__WEBPACK_IMPORTED_MODULE_1___default().resolve(state.cwd, input)), { dot: true });
        let ignored = 0;
        walk(state, base, input, (abs) => {
            const rel = relOf(state, abs);
            if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .discoverable */ .ks)(rel, state.role))
                add(abs);
            else if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(rel) === 'attestation')
                attestation(abs);
            else
                ignored++;
        }, findings, (abs) => match(relOf(state, abs)));
        if (ignored > 0)
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('no_match', named(state, input), `"${input}" matched ${ignored} file(s) that are not ${_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .EXTENSION_LIST */ .RV}; not read`));
    }
    else if (st.isDirectory()) {
        walk(state, base, input, (abs) => ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .discoverable */ .ks)(abs, state.role) ? add(abs) : attestation(abs)), findings);
    }
    else if (st.isFile()) {
        if ((0,_formats_js__WEBPACK_IMPORTED_MODULE_3__/* .formatOf */ .be)(base) === 'attestation')
            attestation(base);
        else
            add(base);
    }
    else {
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('invalid_artifact', named(state, input), `"${input}" is not a regular file or directory`));
        return { files, findings, attestations };
    }
    if (files.length === 0)
        findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .inputFinding */ .uY)('no_match', named(state, input), `"${input}" matched no artifact file`, noMatch));
    return { files, findings, attestations };
}
/**
 * @param all       paths, directories or globs, relative to `cwd`; one that starts with `!` is a
 *                  glob that excludes what it matches from the others' files
 * @param cwd       the working directory (names in reports are relative to it)
 * @param workspace nothing outside this directory is read
 * @param explicit  the inputs were given explicitly: one that matches nothing is an error, not a notice
 */
function discover(all, cwd, workspace, explicit = false, role = 'runs') {
    const trimmed = all.map((i) => i.trim());
    const excludes = trimmed
        .filter((i) => i.startsWith('!'))
        .map((i) => picomatch__WEBPACK_IMPORTED_MODULE_6___default()(toPosix(node_path__WEBPACK_IMPORTED_MODULE_1___default().relative(cwd, node_path__WEBPACK_IMPORTED_MODULE_1___default().resolve(cwd, i.slice(1)))), { dot: true }));
    let realWorkspace;
    try {
        realWorkspace = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.realpathSync)(workspace);
    }
    catch {
        realWorkspace = node_path__WEBPACK_IMPORTED_MODULE_1___default().resolve(workspace);
    }
    const walk = { cwd, workspace, realWorkspace, role, entries: 0 };
    const findings = [];
    const found = new Map();
    const attestations = new Map();
    for (const input of trimmed) {
        if (input === '' || input.startsWith('!'))
            continue;
        const discovery = expand(walk, input, explicit ? 'error' : 'notice');
        for (const f of discovery.findings)
            findings.push(f);
        for (const f of discovery.files)
            if (!found.has(f.rel))
                found.set(f.rel, f);
        for (const f of discovery.attestations)
            attestations.set(f.rel, f);
    }
    const kept = (m) => [...m.values()].filter((f) => !excludes.some((x) => x(f.rel))).sort((a, b) => (0,_core_text_js__WEBPACK_IMPORTED_MODULE_5__/* .cmp */ .r2)(a.rel, b.rel));
    return { files: kept(found), findings, attestations: kept(attestations) };
}


/***/ }),

/***/ 1035:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Bz: () => (/* binding */ LocatingSink),
  D4: () => (/* binding */ decode),
  DB: () => (/* binding */ documents),
  OG: () => (/* binding */ logLines)
});

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __nccwpck_require__(8522);
// EXTERNAL MODULE: ./src/core/findings.ts
var findings = __nccwpck_require__(4637);
;// CONCATENATED MODULE: ./src/read/json/positions.ts
/** Where an offset of a decoded text is: its 1-based line and column. */
/**
 * 1-based line and column (in UTF-16 code units) of offsets in one text. Readers ask in increasing
 * order (a file's decisions, records and findings as they are read), so the index walks forward
 * from the last offset asked, counting newlines; an offset before it is found in a table of line
 * starts, built once, up to the furthest offset asked so far (not a table of every line of a file
 * for a few hundred offsets: 3.3 million lines for 100 000 calls).
 */
class LineIndex {
    text;
    /** The line (0-based) and the start of the line of the furthest offset asked. */
    at = 0;
    line = 0;
    lineStart = 0;
    /** The first newline at or after lineStart (-1: none; -2: not looked for yet), so offsets on one long line cost no search. */
    nextBreak = -2;
    /** Line starts up to `at`, built when an offset before it is asked. */
    starts = null;
    constructor(text) {
        this.text = text;
    }
    locate(offset) {
        if (offset >= this.at) {
            const text = this.text;
            const starts = this.starts;
            if (this.nextBreak === -2)
                this.nextBreak = text.indexOf('\n');
            while (this.nextBreak !== -1 && this.nextBreak < offset) {
                this.line++;
                this.lineStart = this.nextBreak + 1;
                starts?.push(this.lineStart);
                this.nextBreak = text.indexOf('\n', this.lineStart);
            }
            this.at = offset;
            return { line: this.line + 1, column: offset - this.lineStart + 1 };
        }
        const starts = this.behind();
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if ((starts[mid] ?? 0) <= offset)
                lo = mid;
            else
                hi = mid - 1;
        }
        return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
    }
    /** The line starts up to the furthest offset asked (then kept up to date as the index moves forward). */
    behind() {
        if (!this.starts) {
            const starts = [0];
            const text = this.text;
            for (let i = text.indexOf('\n'); i !== -1 && i < this.lineStart; i = text.indexOf('\n', i + 1))
                starts.push(i + 1);
            this.starts = starts;
        }
        return this.starts;
    }
}

// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
// EXTERNAL MODULE: ./src/read/json/strict.ts + 1 modules
var strict = __nccwpck_require__(755);
// EXTERNAL MODULE: ./src/read/limits.ts
var read_limits = __nccwpck_require__(5826);
// EXTERNAL MODULE: ./src/read/lines.ts
var lines = __nccwpck_require__(771);
// EXTERNAL MODULE: ./src/read/utf8.ts + 1 modules
var utf8 = __nccwpck_require__(8107);
;// CONCATENATED MODULE: ./src/read/documents.ts
/**
 * The one document pipeline: bytes → decoded text → strict-JSON documents, each with the offset it
 * starts at and the element offsets its reader asked for. Every input kind reads through here: run
 * artifacts and audit exports (`json`: the whole file; `ndjson`: one document per non-blank line),
 * bundle events, and the importers' exports (`values`: one or more JSON values one after another,
 * so one value, `[…][…]` pages and JSON lines are all read as written), attestations and trusted
 * roots (`oneOrLines`: one value, pretty-printed or not, or one compact value per line). Limits are
 * in bytes everywhere; problems go to the sink at their offset, never as exceptions.
 */








/**
 * The one locating sink: problems at offsets of one file become `invalid_artifact` findings at its
 * line and column (once the file's line index is known: before that, 1:1). Readers with more to
 * say (caps, skips) extend it.
 */
class LocatingSink {
    file;
    findings = [];
    lines = null;
    constructor(file) {
        this.file = file;
    }
    at(offset) {
        const { line, column } = this.lines ? this.lines.locate(offset) : { line: 1, column: 1 };
        return { file: this.file, line, column };
    }
    locate(where) {
        return 'offset' in where ? this.at(where.offset) : { file: this.file, line: where.line, column: where.column };
    }
    error(where, message) {
        this.report(this.locate(where), message);
    }
    /** Where a located problem goes: here, the findings. */
    report(loc, message) {
        this.findings.push((0,findings/* finding */.gk)('invalid_artifact', loc, message));
    }
}
/** What a file that is not UTF-8 is when it is UTF-16 (a byte-order mark, or NUL bytes between ASCII), so the message can say so. */
function utf16(bytes) {
    const le = bytes[0] === 0xff && bytes[1] === 0xfe;
    const be = bytes[0] === 0xfe && bytes[1] === 0xff;
    const nulls = bytes.length >= 4 && ((bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) || (bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0));
    if (!le && !be && !nulls)
        return null;
    const order = le || (!be && bytes[1] === 0) ? 'little-endian' : 'big-endian';
    return `the file is UTF-16 (${order}${le || be ? ', with a byte-order mark' : ''}), not UTF-8: save it as UTF-8 without a byte-order mark`;
}
const isGzip = (b) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;
/**
 * Bytes → text, within max-file-size, strict UTF-8. With `gzip`, a gzip stream (streaming exports)
 * is decompressed first, to at most max-file-size (a bomb stops there).
 */
function decode(bytes, limits, sink, options = {}) {
    let raw = bytes;
    if (options.gzip && isGzip(bytes)) {
        try {
            raw = (0,external_node_zlib_.gunzipSync)(bytes, { maxOutputLength: limits.maxFileBytes });
        }
        catch (error) {
            const tooLarge = error.code === 'ERR_BUFFER_TOO_LARGE';
            sink.error({ line: 1, column: 1 }, tooLarge ? `decompresses to more than ${limits.maxFileBytes} bytes (max-file-size; a gzip bomb?)` : 'is not a valid gzip stream');
            return null;
        }
    }
    if (raw.length > limits.maxFileBytes) {
        sink.error({ line: 1, column: 1 }, (0,read_limits/* fileTooLarge */.ME)(raw.length, limits));
        return null;
    }
    const decoded = (0,utf8/* decodeUtf8 */._)(raw);
    if (!decoded.ok) {
        sink.error((0,utf8/* byteLocation */.I)(raw, decoded.reason), utf16(raw) ?? `invalid UTF-8 at byte ${decoded.reason}`);
        return null;
    }
    return { text: decoded.value, lines: new LineIndex(decoded.value) };
}
/** The documents of a decoded text, one at a time (a generator: parsed lines are never all held at once). */
function* documents(text, mode, options, sink) {
    const { limits } = options;
    const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
    const parse = (start, end) => {
        const parsed = (0,strict/* parseStrict */.z)(text, opts, start, end);
        if (parsed.ok)
            return { value: parsed.value.json, start, elements: parsed.value.elements };
        sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
        return null;
    };
    if (mode === 'json') {
        const doc = parse(0, text.length);
        if (doc)
            yield doc;
        return;
    }
    if (text.charCodeAt(0) === 0xfeff) {
        sink.error({ offset: 0 }, 'byte-order mark (U+FEFF) is not allowed');
        return;
    }
    if (mode === 'ndjson') {
        for (const { start, end } of (0,lines/* lines */.Mn)(text)) {
            if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes)) {
                sink.error({ offset: start }, (0,read_limits/* lineTooLong */.ti)(limits));
            }
            else if (!(0,lines/* blank */.hQ)(text, start, end)) {
                // Anything but spaces and tabs is a document: a BOM, U+00A0 or U+2028 alone is an error, not a blank line.
                const doc = parse(start, end);
                if (doc)
                    yield doc;
            }
        }
        return;
    }
    if (mode === 'values') {
        for (const span of values(text, opts, limits, sink))
            yield span.doc;
        return;
    }
    yield* oneOrLines(text, opts, limits, sink);
}
/**
 * One value (pretty-printed or not), or one compact value per line: never two pretty-printed values
 * one after another, never two values on one line (what `gh attestation` and `actions/attest` write,
 * and nothing a reader could take two ways).
 */
function* oneOrLines(text, opts, limits, sink) {
    const spans = [...values(text, opts, limits, sink)];
    if (spans.length <= 1) {
        for (const span of spans)
            yield span.doc;
        return;
    }
    let lastEnd = 0;
    for (const { doc, end } of spans) {
        const sameLine = lastEnd > 0 && !text.slice(lastEnd, doc.start).includes('\n');
        lastEnd = end;
        if (text.slice(doc.start, end).includes('\n'))
            sink.error({ offset: doc.start }, 'a file of several values must hold one compact value per line (a pretty-printed value must be alone in its file)');
        else if (sameLine)
            sink.error({ offset: doc.start }, 'two values on one line: one compact value per line');
        else
            yield doc;
    }
}
/**
 * The lines of a server log (`.log`, docs/assay-server-logs.md): a line whose first character is `{`
 * must be one strict JSON document (a truncated last line is an error, never a skip); any other
 * non-blank line is text for the reader to judge; blank lines are nothing.
 */
function* logLines(text, options, sink) {
    const { limits } = options;
    const opts = { maxDepth: limits.maxDepth, maxKeys: limits.maxKeys, collect: options.collect };
    for (const { start, end } of (0,lines/* lines */.Mn)(text)) {
        if ((0,lines/* overBytes */.Q_)(text, start, end, limits.maxLineBytes)) {
            sink.error({ offset: start }, (0,read_limits/* lineTooLong */.ti)(limits));
            continue;
        }
        if ((0,lines/* blank */.hQ)(text, start, end))
            continue;
        if (text.charCodeAt(start) !== 0x7b) {
            yield { kind: 'text', start, end };
            continue;
        }
        const parsed = (0,strict/* parseStrict */.z)(text, opts, start, end);
        if (parsed.ok)
            yield { kind: 'json', doc: { value: parsed.value.json, start, elements: parsed.value.elements } };
        else
            sink.error({ offset: parsed.reason.offset }, `a line that starts with "{" is not strict JSON (a truncated line?): ${parsed.reason.message}`);
    }
}
const isSpace = (c) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Zero or more JSON values, whitespace between them (an empty export is no entries), each with where it ends; after a syntax error, reading resumes at the next line. */
function* values(text, opts, limits, sink) {
    let at = 0;
    for (;;) {
        while (at < text.length && isSpace(text.charCodeAt(at)))
            at++;
        if (at >= text.length)
            break;
        const end = (0,scanner/* firstValueEnd */.t1)(text, opts, at);
        if (!end.ok) {
            sink.error({ offset: end.reason.offset }, end.reason.message);
            const next = text.indexOf('\n', Math.max(end.reason.offset, at + 1));
            if (next < 0)
                break;
            at = next + 1;
            continue;
        }
        // A value on one line is held to the line limit, as a JSON line would be.
        if (end.value - at > limits.maxLineBytes / 3 &&
            text.lastIndexOf('\n', end.value - 1) < at &&
            (0,lines/* overBytes */.Q_)(text, at, end.value, limits.maxLineBytes)) {
            sink.error({ offset: at }, (0,read_limits/* lineTooLong */.ti)(limits));
        }
        else {
            const parsed = (0,strict/* parseStrict */.z)(text, opts, at, end.value);
            if (parsed.ok)
                yield { doc: { value: parsed.value.json, start: at, elements: parsed.value.elements }, end: end.value };
            else
                sink.error({ offset: parsed.reason.offset }, parsed.reason.message);
        }
        at = end.value;
    }
}


/***/ }),

/***/ 1210:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Lh: () => (/* binding */ onlySubject),
/* harmony export */   T4: () => (/* binding */ IN_TOTO_PAYLOAD_TYPE),
/* harmony export */   cF: () => (/* binding */ VSA_PREDICATE_TYPE),
/* harmony export */   f_: () => (/* binding */ readEnvelopeFile),
/* harmony export */   iv: () => (/* binding */ strictPayload),
/* harmony export */   zG: () => (/* binding */ STATEMENT_TYPE)
/* harmony export */ });
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4637);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(6153);
/* harmony import */ var _base64_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(7753);
/* harmony import */ var _documents_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1035);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(5826);
/**
 * DSSE envelopes (docs/attestations.md, "The DSSE envelope"): the shape only, no keys. An envelope
 * file holds one JSON value (possibly pretty-printed) or one compact envelope per line, read through
 * the one document pipeline (`oneOrLines`: never two pretty-printed values). PAE is the same as for signed records (signature.ts).
 */





const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
const VSA_PREDICATE_TYPE = 'https://slsa.dev/verification_summary/v1';
/** A Statement's only subject and its only digest (sha256): more would let another artifact match. */
function onlySubject(source) {
    const subject = source['subject'];
    if (!Array.isArray(subject) || subject.length !== 1)
        return { ok: false, reason: 'the Statement must have exactly one subject' };
    const only = subject[0];
    const digest = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .G)(only) ? only['digest'] : undefined;
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .G)(only) || !(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .G)(digest) || Object.keys(digest).length !== 1 || typeof digest['sha256'] !== 'string') {
        return { ok: false, reason: 'the subject must carry exactly one digest, sha256 (a second entry would let another artifact match)' };
    }
    return { ok: true, value: { name: only['name'], sha256: digest['sha256'] } };
}
/** What a JSON object given where an envelope belongs is instead, when it is something the gate knows. */
function notAnEnvelope(value) {
    if ((0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$)(value, 'verifier') && (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$)(value, 'verificationResult'))
        return 'a Verification Summary predicate (what --vsa-predicate writes for actions/attest; the signed verdict is what --vsa writes)';
    if (value['_type'] === STATEMENT_TYPE)
        return 'an unsigned in-toto Statement (its DSSE envelope carries it as the payload)';
    if (typeof value['mediaType'] === 'string' && value['mediaType'].startsWith('application/vnd.dev.sigstore.bundle'))
        return 'a Sigstore bundle (check it by identity: --certificate-identity)';
    return null;
}
/** One envelope's shape: payloadType and payload strings, payload standard base64, a non-empty signatures array of {keyid, sig}. */
function readEnvelope(value, loc) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .G)(value))
        return { ok: false, reason: 'an envelope is not a JSON object' };
    const what = notAnEnvelope(value);
    if (what)
        return { ok: false, reason: `this is ${what}, not a DSSE envelope` };
    for (const k of Object.keys(value)) {
        if (k !== 'payload' && k !== 'payloadType' && k !== 'signatures')
            return { ok: false, reason: `an envelope has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
    }
    const type = value['payloadType'];
    if (typeof type !== 'string' || type === '')
        return { ok: false, reason: 'payloadType is not a non-empty string' };
    const given = value['payload'];
    const payload = typeof given === 'string' ? (0,_base64_js__WEBPACK_IMPORTED_MODULE_4__/* .strictBase64 */ .P)(given) : null;
    if (!payload)
        return { ok: false, reason: 'payload is not standard base64 (with padding)' };
    const sigs = value['signatures'];
    if (!Array.isArray(sigs) || sigs.length === 0)
        return { ok: false, reason: 'signatures is not a non-empty array' };
    if (sigs.length > _limits_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_SIGNATURES */ .d4)
        return { ok: false, reason: `too many signatures (${sigs.length}; at most ${_limits_js__WEBPACK_IMPORTED_MODULE_2__/* .MAX_SIGNATURES */ .d4})` };
    const signatures = [];
    for (const [i, s] of sigs.entries()) {
        if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .isObject */ .G)(s))
            return { ok: false, reason: `signatures[${i}] is not an object` };
        const keyid = (0,_core_json_js__WEBPACK_IMPORTED_MODULE_3__/* .hasOwn */ .$)(s, 'keyid') ? s['keyid'] : '';
        if (typeof keyid !== 'string')
            return { ok: false, reason: `signatures[${i}].keyid is not a string` };
        const raw = s['sig'];
        const sig = typeof raw === 'string' ? (0,_base64_js__WEBPACK_IMPORTED_MODULE_4__/* .strictBase64 */ .P)(raw) : null;
        if (!sig || sig.length === 0)
            return { ok: false, reason: `signatures[${i}].sig is not standard base64` };
        signatures.push({ keyid, sig });
    }
    return { ok: true, value: { loc, payloadType: type, payload, signatures } };
}
/** The payload as one strict JSON value (duplicate members, lone surrogates, a BOM: refused). */
function strictPayload(payload, limits) {
    const problems = [];
    const sink = { error: (_at, message) => problems.push(message) };
    const decoded = (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(payload, limits, sink);
    if (!decoded)
        return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'unreadable'}` };
    let value;
    let count = 0;
    for (const doc of (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(decoded.text, 'json', { limits, collect: [] }, sink)) {
        value = doc.value;
        count++;
    }
    if (problems.length > 0 || count !== 1)
        return { ok: false, reason: `payload is not strict JSON: ${problems[0] ?? 'no value'}` };
    return { ok: true, value };
}
/** Every envelope of an envelope file (one value, or one per line), each located; problems as findings. */
function readEnvelopeFile(file, bytes, limits) {
    const sink = new _documents_js__WEBPACK_IMPORTED_MODULE_1__/* .LocatingSink */ .Bz(file);
    const findings = sink.findings;
    const decoded = (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .decode */ .D4)(bytes, limits, sink);
    if (!decoded)
        return { envelopes: [], findings, empty: false };
    sink.lines = decoded.lines;
    const at = (offset) => sink.at(offset);
    const envelopes = [];
    for (const doc of (0,_documents_js__WEBPACK_IMPORTED_MODULE_1__/* .documents */ .DB)(decoded.text, 'oneOrLines', { limits, collect: [] }, sink)) {
        const result = readEnvelope(doc.value, at(doc.start));
        if (result.ok)
            envelopes.push(result.value);
        else
            findings.push((0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('invalid_artifact', at(doc.start), `DSSE envelope: ${result.reason}`));
    }
    return { envelopes, findings, empty: envelopes.length === 0 && findings.length === 0 };
}


/***/ }),

/***/ 7465:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ skippedFinding)
/* harmony export */ });
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4637);
/**
 * What reading one input file yields, whatever its kind (a leaf: the file readers and the bundle
 * reader both return it; the gate merges them).
 */

/** One notice for the objects of other kinds a file holds, counted by kind (at most 20 kinds named). */
function skippedFinding(at, skipped) {
    const total = [...skipped.values()].reduce((a, b) => a + b, 0);
    const all = [...skipped.entries()].sort();
    const kinds = all
        .slice(0, 20)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') + (all.length > 20 ? `, and ${all.length - 20} more kind(s)` : '');
    return (0,_core_findings_js__WEBPACK_IMPORTED_MODULE_0__/* .finding */ .gk)('skipped_object', at, `skipped ${total} object(s) of other kinds: ${kinds}`);
}


/***/ }),

/***/ 1119:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   JF: () => (/* binding */ readOne),
/* harmony export */   ri: () => (/* binding */ readBeside),
/* harmony export */   wh: () => (/* binding */ readNamedFile)
/* harmony export */ });
/* unused harmony export readArtifact */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _core_findings_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(4637);
/* harmony import */ var _artifacts_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(1938);
/* harmony import */ var _bundle_archive_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(2789);
/* harmony import */ var _discover_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(5965);
/* harmony import */ var _formats_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(7928);
/* harmony import */ var _limits_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(5826);
/* harmony import */ var _read_error_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(9677);
/**
 * One artifact file → what it contributes (a run, records, findings), by its name and role. The
 * file is read once and nothing of it is kept but the prepared decisions and records.
 */









/** A file that contributes nothing but one invalid_artifact about itself (at 1:1). */
const failure = (rel, message) => ({
    run: null,
    entries: [],
    findings: [(0,_core_findings_js__WEBPACK_IMPORTED_MODULE_2__/* .finding */ .gk)('invalid_artifact', { file: rel, line: 1, column: 1 }, message)],
});
const isBundle = (rel) => (0,_formats_js__WEBPACK_IMPORTED_MODULE_6__/* .formatOf */ .be)(rel) === 'bundle';
/** One artifact's bytes (already in memory) → what it contributes. Used by fuzzing and by readOne. */
async function readArtifact(rel, role, bytes, limits) {
    if (isBundle(rel))
        return role === 'audit' ? failure(rel, BUNDLE_IN_AUDIT) : readBundle({ bytes }, rel, bundleLimits(limits));
    return readTextArtifact(rel, role, bytes, limits);
}
/**
 * Any artifact but an evidence bundle → what it contributes. Synchronous, and nothing it returns
 * refers to `bytes` (the text is decoded into strings), so `bytes` may be reused once it returns.
 */
function readTextArtifact(rel, role, bytes, limits) {
    const format = (0,_formats_js__WEBPACK_IMPORTED_MODULE_6__/* .formatOf */ .be)(rel);
    if (!format || format === 'bundle')
        return failure(rel, UNSUPPORTED);
    if (format === 'attestation')
        return failure(rel, ATTESTATION);
    if (role === 'runs')
        return (0,_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .readRunFile */ .m)(rel, bytes, format, limits);
    if (format === 'log')
        return failure(rel, LOG_IN_AUDIT);
    return (0,_artifacts_js__WEBPACK_IMPORTED_MODULE_3__/* .readAuditFile */ .q)(rel, bytes, format, limits);
}
const ATTESTATION = 'an attestation sidecar (.intoto.jsonl) is read beside its bundle, never as a run or an audit export';
const LOG_IN_AUDIT = 'server logs are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const BUNDLE_IN_AUDIT = 'evidence bundles are run artifacts; an audit export must be .json, .jsonl or .ndjson';
const UNSUPPORTED = `unsupported file type: expected ${_formats_js__WEBPACK_IMPORTED_MODULE_6__/* .EXTENSION_LIST */ .RV}`;
/**
 * The buffer this thread reads its inputs into, grown to the largest file read so far up to
 * SCRATCH_MAX (a larger file gets a buffer of its own). A fresh buffer per file is fresh memory
 * for the kernel to fault in, and reading large inputs spent most of `read` there (the profile and
 * the gain: BENCHMARKS.md, "Reading on every core").
 */
let scratch = null;
const SCRATCH_MAX = 64 * 1024 * 1024;
const GREW = (limits) => `file grew past the ${limits.maxFileBytes}-byte limit while it was read (max-file-size)`;
/**
 * A file's bytes within max-file-size, or why not, in this thread's read buffer: the one way an
 * input or a file beside it is read. The view is valid until the next call, so the caller consumes
 * it before it yields or copies it. Read to its end, not to the size stat gave: a file that grows
 * past the limit while it is read is refused all the same.
 */
function readTransient(path, limits) {
    let fd;
    try {
        fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.openSync)(path, 'r');
        const size = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.fstatSync)(fd).size;
        if (size > limits.maxFileBytes)
            return { ok: false, reason: (0,_limits_js__WEBPACK_IMPORTED_MODULE_7__/* .fileTooLarge */ .ME)(size, limits) };
        // One byte more than the limit allows, to see a file that grew past it.
        const want = Math.min(size, limits.maxFileBytes) + 1;
        let buf;
        if (want > SCRATCH_MAX)
            buf = Buffer.allocUnsafeSlow(want);
        else {
            if (!scratch || scratch.length < want)
                scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(want, 2 * (scratch?.length ?? 32768))));
            buf = scratch;
        }
        let got = 0;
        for (;;) {
            if (got === buf.length) {
                if (got > limits.maxFileBytes)
                    return { ok: false, reason: GREW(limits) };
                const bigger = Buffer.allocUnsafeSlow(Math.min(limits.maxFileBytes + 1, 2 * buf.length));
                buf.copy(bigger, 0, 0, got);
                buf = bigger;
            }
            const n = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readSync)(fd, buf, got, buf.length - got, null);
            if (n === 0)
                break;
            got += n;
        }
        if (got > limits.maxFileBytes)
            return { ok: false, reason: GREW(limits) };
        return { ok: true, value: buf.subarray(0, got) };
    }
    catch (error) {
        return { ok: false, reason: `cannot read file: ${(0,_read_error_js__WEBPACK_IMPORTED_MODULE_8__/* .ioReason */ .N)(error)}` };
    }
    finally {
        if (fd !== undefined)
            (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.closeSync)(fd);
    }
}
/**
 * The file beside an input (`what` names it in reasons, e.g. "the attestation sidecar"): a link to a
 * file inside the workspace is followed like every input, one that leaves it or is broken is
 * refused, and so is anything but a regular file.
 */
function readBeside(file, what, workspace, limits) {
    const refuse = (reason) => ({ kind: 'refused', reason });
    let st;
    try {
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.lstatSync)(file);
    }
    catch {
        return { kind: 'none' };
    }
    if (st.isSymbolicLink()) {
        let real;
        try {
            real = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.realpathSync)(file);
        }
        catch {
            return refuse(`${what} is a broken symbolic link`);
        }
        if (!(0,_discover_js__WEBPACK_IMPORTED_MODULE_5__/* .inside */ .n)((0,node_fs__WEBPACK_IMPORTED_MODULE_1__.realpathSync)(workspace), real))
            return refuse(`${what} is a symbolic link that points outside the workspace; not followed`);
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync)(real);
    }
    if (!st.isFile())
        return refuse(`${what} is not a regular file; not read`);
    const got = readTransient(file, limits);
    // A copy: the file beside is kept (its envelopes are checked later), the read buffer is not.
    return got.ok ? { kind: 'read', bytes: Buffer.from(got.value) } : refuse(got.reason);
}
/**
 * A file a flag or an input names (a key, a trusted root, an export to import), read whole within
 * the file limit. Only a regular file is read (a link to one is followed: the user named it): a
 * FIFO would block and a device never end (`--trusted-root /dev/zero`). The reason when not.
 */
function readNamedFile(file, limits) {
    let st;
    try {
        st = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.statSync)(file);
    }
    catch (error) {
        return { ok: false, reason: `cannot read (${(0,_read_error_js__WEBPACK_IMPORTED_MODULE_8__/* .ioReason */ .N)(error)})` };
    }
    if (!st.isFile())
        return { ok: false, reason: 'not a regular file; not read' };
    const got = readTransient(file, limits);
    // A copy: the read buffer is reused by the next read.
    return got.ok ? { ok: true, value: Buffer.from(got.value) } : got;
}
/** Hex sha256 of a file's bytes, streamed (a bundle is never held whole for it). */
async function fileSha256(path) {
    try {
        const hash = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256');
        for await (const chunk of (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.createReadStream)(path))
            hash.update(chunk);
        return hash.digest('hex');
    }
    catch {
        return undefined; // the reader reports why the file cannot be read
    }
}
/** @param digest also return the sha256 of the file's bytes (one more hash per input, nothing else) */
async function readOne(file, role, limits, digest = false) {
    const fail = (message) => failure(file.rel, message);
    if (isBundle(file.rel)) {
        // Streamed from disk: a bundle is never held whole beyond its events.
        const readResult = role === 'audit' ? fail(BUNDLE_IN_AUDIT) : await (0,_bundle_archive_js__WEBPACK_IMPORTED_MODULE_4__/* .readBundle */ .B)({ path: file.path }, file.rel, (0,_limits_js__WEBPACK_IMPORTED_MODULE_7__/* .bundleLimits */ .x0)(limits));
        const sha256 = digest ? (readResult.bundle?.archiveSha256 ?? (await fileSha256(file.path))) : undefined;
        return sha256 === undefined ? readResult : { ...readResult, sha256 };
    }
    if (!(0,_formats_js__WEBPACK_IMPORTED_MODULE_6__/* .formatOf */ .be)(file.rel))
        return fail(UNSUPPORTED);
    const read = readTransient(file.path, limits);
    if (!read.ok)
        return fail(read.reason);
    const bytes = read.value;
    // Both before anything yields: the buffer is this thread's, and the next file is read into it.
    const fileRead = readTextArtifact(file.rel, role, bytes, limits);
    return digest ? { ...fileRead, sha256: (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(bytes).digest('hex') } : fileRead;
}


/***/ }),

/***/ 7928:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   MA: () => (/* binding */ sigstoreOf),
/* harmony export */   RV: () => (/* binding */ EXTENSION_LIST),
/* harmony export */   W_: () => (/* binding */ attestedBy),
/* harmony export */   be: () => (/* binding */ formatOf),
/* harmony export */   hQ: () => (/* binding */ sidecarOf),
/* harmony export */   ks: () => (/* binding */ discoverable)
/* harmony export */ });
const EXTENSIONS = [
    // First: a DSSE sidecar also ends in .jsonl, a Sigstore bundle in .json.
    { ext: '.intoto.jsonl', format: 'attestation' },
    { ext: '.sigstore.json', format: 'attestation' },
    { ext: '.json', format: 'json' },
    { ext: '.jsonl', format: 'ndjson' },
    { ext: '.ndjson', format: 'ndjson' },
    { ext: '.log', format: 'log' },
    { ext: '.tar.gz', format: 'bundle' },
];
/** ".json, .jsonl, .ndjson, .log or .tar.gz" (what a run input may hold). */
const EXTENSION_LIST = '.json, .jsonl, .ndjson, .log or .tar.gz';
/** The format of a file by its name (case-insensitive), or null when the gate does not read it. */
function formatOf(file) {
    const lower = file.toLowerCase();
    for (const { ext, format } of EXTENSIONS)
        if (lower.endsWith(ext))
            return format;
    return null;
}
/** Whether a directory or glob input of this role picks the file up. */
function discoverable(file, role) {
    const format = formatOf(file);
    return format !== null && format !== 'attestation' && (format !== 'log' || role === 'runs');
}
/** The sidecar of a bundle: `<bundle file name>.intoto.jsonl` beside it. */
const sidecarOf = (bundle) => `${bundle}.intoto.jsonl`;
/** The Sigstore bundle file of an artifact: `<artifact file name>.sigstore.json` beside it. */
const sigstoreOf = (artifact) => `${artifact}.sigstore.json`;
/** The artifact an attestation file is about: its name without `.intoto.jsonl` / `.sigstore.json` (null: not an attestation). */
function attestedBy(attestation) {
    const match = /\.(intoto\.jsonl|sigstore\.json)$/i.exec(attestation);
    return match ? attestation.slice(0, match.index) : null;
}


/***/ }),

/***/ 3853:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Lp: () => (/* binding */ Scanner),
/* harmony export */   Pn: () => (/* binding */ pathKey),
/* harmony export */   SQ: () => (/* binding */ scan),
/* harmony export */   Sw: () => (/* binding */ runScanner),
/* harmony export */   t1: () => (/* binding */ firstValueEnd)
/* harmony export */ });
/** The key under which `elements` holds a path's offsets. */
const pathKey = (path) => JSON.stringify(path);
var C;
(function (C) {
    C[C["TAB"] = 9] = "TAB";
    C[C["LF"] = 10] = "LF";
    C[C["CR"] = 13] = "CR";
    C[C["SPACE"] = 32] = "SPACE";
    C[C["QUOTE"] = 34] = "QUOTE";
    C[C["PLUS"] = 43] = "PLUS";
    C[C["COMMA"] = 44] = "COMMA";
    C[C["MINUS"] = 45] = "MINUS";
    C[C["DOT"] = 46] = "DOT";
    C[C["ZERO"] = 48] = "ZERO";
    C[C["NINE"] = 57] = "NINE";
    C[C["COLON"] = 58] = "COLON";
    C[C["UPPER_E"] = 69] = "UPPER_E";
    C[C["LBRACKET"] = 91] = "LBRACKET";
    C[C["BACKSLASH"] = 92] = "BACKSLASH";
    C[C["RBRACKET"] = 93] = "RBRACKET";
    C[C["LOWER_E"] = 101] = "LOWER_E";
    C[C["LBRACE"] = 123] = "LBRACE";
    C[C["RBRACE"] = 125] = "RBRACE";
})(C || (C = {}));
class ScanError {
    offset;
    message;
    constructor(offset, message) {
        this.offset = offset;
        this.message = message;
    }
}
const describe = (text) => {
    const source = JSON.stringify(text);
    return source.length > 80 ? source.slice(0, 77) + '…"' : source;
};
/** Validate `text[start, end)` as one strict JSON value, checking the whole grammar. */
function scan(text, options, start = 0, end = text.length) {
    return runScanner(new Scanner(text, start, end, options, false));
}
/**
 * Where the first JSON value at or after `start` (after whitespace) ends: a full grammar scan of that
 * value alone, never of what follows it, so a file of many values is scanned once (`[…][…]`).
 */
function firstValueEnd(text, options, start, end = text.length) {
    const scanner = new Scanner(text, start, end, { maxDepth: options.maxDepth, ...(options.maxKeys !== undefined ? { maxKeys: options.maxKeys } : {}) }, false);
    try {
        scanner.run(true);
        return { ok: true, value: scanner.valueEnd };
    }
    catch (error) {
        if (error instanceof ScanError)
            return { ok: false, reason: { offset: error.offset, message: error.message } };
        throw error;
    }
}
function runScanner(scanner) {
    try {
        return { ok: true, value: scanner.run() };
    }
    catch (error) {
        if (error instanceof ScanError)
            return { ok: false, reason: { offset: error.offset, message: error.message } };
        throw error;
    }
}
/**
 * A cheap fingerprint of a key (length and three code units): equal keys always collide, and a
 * collision only costs a comparison of the two decoded keys.
 */
function keyHash(text, a, b) {
    const n = b - a;
    if (n === 0)
        return 0;
    return ((Math.imul(Math.imul(Math.imul(n, 65599) + text.charCodeAt(a), 65599) + text.charCodeAt(a + (n >> 1)), 31) + text.charCodeAt(b - 1)) | 0);
}
/** Members remembered per open object before switching to a Set of decoded keys. */
const SMALL = 16;
const NO_PATHS = [];
/** The keys and depth of the paths a reader collects, computed once per list (a reader passes the same list for every line). */
const plans = new WeakMap();
function collectPlan(collect) {
    let plan = plans.get(collect);
    if (!plan) {
        plan = { keys: new Set(collect.map(pathKey)), maxPath: Math.max(-1, ...collect.map((p) => p.length)) };
        plans.set(collect, plan);
    }
    return plan;
}
let shared = null;
function tables(depths) {
    if (!shared || shared.kinds.length < depths) {
        shared = {
            kinds: new Uint8Array(depths),
            counts: new Int32Array(depths),
            starts: new Int32Array(depths * SMALL),
            ends: new Int32Array(depths * SMALL),
            hashes: new Int32Array(depths * SMALL),
            escapes: new Uint8Array(depths * SMALL),
        };
    }
    return shared;
}
class Scanner {
    text;
    end;
    options;
    trusted;
    i;
    depth = 0;
    /** Per depth: 1 for an object, 2 for an array. */
    kinds;
    /**
     * Per depth, the members of the open object so far: for the first SMALL, the raw key's start,
     * end and hash (no string is made unless two hashes meet); past that, a Set of decoded keys.
     */
    counts;
    starts;
    ends;
    hashes;
    escapes;
    sets = [];
    /** Per depth: the path of the open container, or null when nobody asked for anything below it. */
    paths = [];
    collecting = [];
    /** The offsets found, by path key (a wanted path that holds no array is absent). */
    wanted = new Map();
    wantedKeys;
    maxPath;
    maxKeys;
    /** The last key read, decoded: only kept while path bookkeeping needs it. */
    lastKey = '';
    /** Set by string(): whether the last string had an escape, and its hash over raw code units. */
    escaped = false;
    hash = 0;
    /** Index of the next backslash at or after the scan position (-1: none); trusted mode only. */
    nextBackslash = -2;
    /** Index of the next `\\u` at or after the scan position (-1: none); trusted mode only. */
    nextUnicode = -2;
    /**
     * @param trusted JSON.parse accepted exactly this text and it is well-formed UTF-16: grammar,
     * control characters and raw surrogates need no checking, and strings can be skipped with indexOf.
     */
    constructor(text, start, end, options, trusted) {
        this.text = text;
        this.end = end;
        this.options = options;
        this.trusted = trusted;
        this.i = start;
        const lookup = tables(options.maxDepth + 2);
        this.kinds = lookup.kinds;
        this.counts = lookup.counts;
        this.starts = lookup.starts;
        this.ends = lookup.ends;
        this.hashes = lookup.hashes;
        this.escapes = lookup.escapes;
        const plan = collectPlan(options.collect ?? NO_PATHS);
        this.wantedKeys = plan.keys;
        this.maxPath = plan.maxPath;
        this.maxKeys = options.maxKeys ?? Number.MAX_SAFE_INTEGER;
    }
    /** With `firstOnly`, the scan stops after the first value and its end offset is here. */
    valueEnd = -1;
    run(firstOnly = false) {
        const { text: s, end } = this;
        if (this.i < end && s.charCodeAt(this.i) === 0xfeff)
            throw new ScanError(this.i, 'byte-order mark (U+FEFF) is not allowed');
        this.ws();
        if (this.i >= end)
            throw new ScanError(this.i, 'empty input: expected a JSON value');
        this.value();
        for (;;) {
            if (this.depth === 0) {
                this.valueEnd = this.i;
                if (firstOnly)
                    return this.wanted;
                this.ws();
                if (this.i < end)
                    throw new ScanError(this.i, `unexpected ${this.what()} after the JSON value`);
                return this.wanted;
            }
            this.ws();
            const c = this.i < end ? s.charCodeAt(this.i) : -1;
            const inObject = this.kinds[this.depth] === 1;
            if (c === C.COMMA) {
                this.i++;
                if (inObject)
                    this.key();
                else
                    this.element();
            }
            else if (c === (inObject ? C.RBRACE : C.RBRACKET)) {
                this.i++;
                this.depth--;
            }
            else {
                throw new ScanError(this.i, `expected ',' or '${inObject ? '}' : ']'}' but found ${this.what()}`);
            }
        }
    }
    what() {
        if (this.i >= this.end)
            return 'the end of the input (truncated?)';
        const ch = this.text.codePointAt(this.i) ?? 0;
        return ch < 0x20 || ch === 0x7f
            ? `control character U+${ch.toString(16).padStart(4, '0').toUpperCase()}`
            : `'${String.fromCodePoint(ch)}'`;
    }
    ws() {
        const { text: s, end } = this;
        let i = this.i;
        while (i < end) {
            const c = s.charCodeAt(i);
            if (c === C.SPACE || c === C.LF || c === C.CR || c === C.TAB)
                i++;
            else
                break;
        }
        this.i = i;
    }
    /** An array element starts here (after '[' or ','). */
    element() {
        this.ws();
        const col = this.collecting[this.depth];
        if (col)
            col.push(this.i);
        this.value();
    }
    /** A value starts here. Containers are closed by run(); recursion through open() is bounded by maxDepth. */
    value() {
        this.ws();
        const { text: s, end } = this;
        const i = this.i;
        if (i >= end)
            throw new ScanError(i, 'unexpected end of input: expected a value (truncated?)');
        const c = s.charCodeAt(i);
        if (c === C.QUOTE)
            this.skipString();
        else if (c === C.LBRACE)
            this.open(1);
        else if (c === C.LBRACKET)
            this.open(2);
        else if (c === C.MINUS || (c >= C.ZERO && c <= C.NINE))
            this.number();
        else if (c === 116 /* t */ && i + 4 <= end && s.startsWith('true', i))
            this.i = i + 4;
        else if (c === 102 /* f */ && i + 5 <= end && s.startsWith('false', i))
            this.i = i + 5;
        else if (c === 110 /* n */ && i + 4 <= end && s.startsWith('null', i))
            this.i = i + 4;
        else
            throw new ScanError(i, `unexpected ${this.what()}: expected a value`);
    }
    open(kind) {
        const parentDepth = this.depth;
        if (parentDepth >= this.options.maxDepth) {
            throw new ScanError(this.i, `nesting deeper than ${this.options.maxDepth} levels`);
        }
        const d = ++this.depth;
        this.kinds[d] = kind;
        this.i++;
        // Path bookkeeping only as deep as some requested path goes.
        if (d - 1 <= this.maxPath) {
            let path = null;
            if (d === 1)
                path = [];
            else {
                const parent = this.paths[d - 1];
                if (parent && this.kinds[d - 1] === 1)
                    path = [...parent, this.lastKey];
            }
            this.paths[d] = path;
            this.collecting[d] = kind === 2 && path ? this.collected(pathKey(path)) : null;
        }
        else {
            this.paths[d] = null;
            this.collecting[d] = null;
        }
        this.ws();
        const close = kind === 1 ? C.RBRACE : C.RBRACKET;
        if (this.i < this.end && this.text.charCodeAt(this.i) === close) {
            this.i++;
            this.depth--;
            return;
        }
        if (kind === 1) {
            this.counts[d] = 0;
            this.key();
        }
        else {
            this.element();
        }
    }
    /** Where the element offsets of the array at this path go, when it is wanted. */
    collected(key) {
        if (!this.wantedKeys.has(key))
            return null;
        let offsets = this.wanted.get(key);
        if (!offsets)
            this.wanted.set(key, (offsets = []));
        return offsets;
    }
    sameRaw(a, b, a2, b2) {
        if (b - a !== b2 - a2)
            return false;
        const { text: s } = this;
        for (let k = 0; k < b - a; k++)
            if (s.charCodeAt(a + k) !== s.charCodeAt(a2 + k))
                return false;
        return true;
    }
    /** The decoded text of a key whose raw string (quotes excluded) is s[a, b). */
    decoded(a, b) {
        const raw = this.text.slice(a - 1, b + 1);
        return raw.includes('\\') ? JSON.parse(raw) : raw.slice(1, -1);
    }
    /** An object member starts here: key, colon, then its value. */
    key() {
        this.ws();
        const { text: s } = this;
        if (this.i >= this.end || s.charCodeAt(this.i) !== C.QUOTE) {
            throw new ScanError(this.i, `expected a string key but found ${this.what()}`);
        }
        const at = this.i;
        this.string();
        const a = at + 1;
        const b = this.i - 1;
        const d = this.depth;
        const n = this.counts[d] ?? 0;
        // Escaped keys are compared decoded: {"a":1,"\u0061":2} is a duplicate. Hash the decoded text then.
        let key = null;
        let h = this.hash;
        if (this.escaped) {
            key = this.decoded(a, b);
            h = keyHash(key, 0, key.length);
        }
        if (n < SMALL) {
            const base = d * SMALL;
            for (let k = 0; k < n; k++) {
                if (this.hashes[base + k] !== h)
                    continue;
                const a2 = this.starts[base + k] ?? 0;
                const b2 = this.ends[base + k] ?? 0;
                // Unescaped keys are compared in place; an escaped one on either side is decoded.
                const same = key === null && this.escapes[base + k] === 0 ? this.sameRaw(a, b, a2, b2) : this.decoded(a2, b2) === (key ??= this.decoded(a, b));
                if (same)
                    throw new ScanError(at, `duplicate key ${describe(key ?? this.decoded(a, b))}`);
            }
            this.starts[base + n] = a;
            this.ends[base + n] = b;
            this.hashes[base + n] = h;
            this.escapes[base + n] = this.escaped ? 1 : 0;
        }
        else {
            let set = this.sets[d];
            if (n === SMALL || !set) {
                // Switch to a set: decode the first SMALL keys once.
                if (set)
                    set.clear();
                else
                    this.sets[d] = set = new Set();
                const base = d * SMALL;
                for (let k = 0; k < SMALL; k++)
                    set.add(this.decoded(this.starts[base + k] ?? 0, this.ends[base + k] ?? 0));
            }
            key ??= this.decoded(a, b);
            if (set.has(key))
                throw new ScanError(at, `duplicate key ${describe(key)}`);
            set.add(key);
        }
        if (n + 1 > this.maxKeys)
            throw new ScanError(at, `object has more than ${this.maxKeys} members`);
        this.counts[d] = n + 1;
        if (d <= this.maxPath)
            this.lastKey = key ?? this.decoded(a, b);
        this.ws();
        if (this.i >= this.end || s.charCodeAt(this.i) !== C.COLON) {
            throw new ScanError(this.i, `expected ':' after key ${describe(key ?? this.decoded(a, b))} but found ${this.what()}`);
        }
        this.i++;
        this.value();
    }
    /** Trusted mode: the closing quote of the string at `start` if no backslash comes before it, else -1. */
    quickEnd(start) {
        const q = this.text.indexOf('"', start + 1);
        if (this.nextBackslash !== -1 && this.nextBackslash < start)
            this.nextBackslash = this.text.indexOf('\\', start);
        return this.nextBackslash === -1 || this.nextBackslash > q ? q : -1;
    }
    /**
     * Trusted mode: the closing quote of a string at `start` that holds escapes, found from quote to
     * quote (a quote preceded by an odd run of backslashes is escaped), or -1 when the string may hold
     * a `\u` escape: those are left to the exact loop, which refuses lone surrogates (JSON.parse
     * accepts them). A JSON text inside a string (a server log's decision) is skipped in a few hops
     * instead of character by character.
     */
    escapedEnd(start) {
        const { text: s } = this;
        let q = s.indexOf('"', start + 1);
        for (;;) {
            if (q === -1)
                return -1;
            let k = q - 1;
            while (s.charCodeAt(k) === C.BACKSLASH)
                k--;
            if ((q - 1 - k) % 2 === 0)
                break;
            q = s.indexOf('"', q + 1);
        }
        if (this.nextUnicode !== -1 && this.nextUnicode < start)
            this.nextUnicode = s.indexOf('\\u', start);
        return this.nextUnicode !== -1 && this.nextUnicode < q ? -1 : q;
    }
    /** A string starts at the quote; moves past it and says whether it held an escape. */
    skipString() {
        const { text: s, end } = this;
        const start = this.i;
        if (this.trusted) {
            const q = this.quickEnd(start);
            if (q !== -1) {
                this.i = q + 1;
                return false;
            }
            const e = this.escapedEnd(start);
            if (e !== -1) {
                this.i = e + 1;
                return true;
            }
        }
        let i = start + 1;
        let escaped = false;
        for (;;) {
            if (i >= end)
                throw new ScanError(start, 'unterminated string (truncated?)');
            const c = s.charCodeAt(i);
            if (c === C.QUOTE)
                break;
            if (c >= 0x20 && c !== C.BACKSLASH && (c & 0xf800) !== 0xd800) {
                i++;
                continue;
            }
            if (c === C.BACKSLASH) {
                escaped = true;
                i = this.escape(i);
            }
            else if (c < 0x20)
                throw new ScanError(i, `control character U+${c.toString(16).padStart(4, '0').toUpperCase()} must be escaped inside a string`);
            else {
                const n = i + 1 < end ? s.charCodeAt(i + 1) : 0;
                if (c > 0xdbff || n < 0xdc00 || n > 0xdfff)
                    throw new ScanError(i, 'lone UTF-16 surrogate in a string');
                i += 2;
            }
        }
        this.i = i + 1;
        return escaped;
    }
    /** A key string starts at the quote; leaves `escaped` and the `hash` of the raw key for key(). */
    string() {
        const start = this.i;
        this.escaped = this.skipString();
        this.hash = this.escaped ? 0 : keyHash(this.text, start + 1, this.i - 1);
    }
    /** The escape at `i` (the backslash); returns the index after it. Lone surrogates are refused here. */
    escape(i) {
        const { text: s, end } = this;
        if (i + 1 >= end)
            throw new ScanError(i, 'unterminated escape (truncated?)');
        const e = s.charCodeAt(i + 1);
        if (e !== 117 /* u */) {
            if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)
                return i + 2;
            throw new ScanError(i, `invalid escape '\\${String.fromCharCode(e)}'`);
        }
        const u = this.hex4(i + 2);
        if (u >= 0xdc00 && u <= 0xdfff)
            throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a low surrogate without a high one)`);
        if (u >= 0xd800 && u <= 0xdbff) {
            if (i + 12 > end || s.charCodeAt(i + 6) !== C.BACKSLASH || s.charCodeAt(i + 7) !== 117) {
                throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
            }
            const low = this.hex4(i + 8);
            if (low < 0xdc00 || low > 0xdfff)
                throw new ScanError(i, `lone UTF-16 surrogate \\u${u.toString(16)} (a high surrogate not followed by a low one)`);
            return i + 12;
        }
        return i + 6;
    }
    hex4(at) {
        if (at + 4 > this.end)
            throw new ScanError(at - 2, 'truncated \\u escape');
        let v = 0;
        for (let k = 0; k < 4; k++) {
            const c = this.text.charCodeAt(at + k);
            const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
            if (d < 0)
                throw new ScanError(at - 2, 'invalid \\u escape: expected four hex digits');
            v = v * 16 + d;
        }
        return v;
    }
    number() {
        const { text: s, end } = this;
        const start = this.i;
        let i = start;
        if (s.charCodeAt(i) === C.MINUS)
            i++;
        const digits = () => {
            const from = i;
            while (i < end) {
                const c = s.charCodeAt(i);
                if (c < C.ZERO || c > C.NINE)
                    break;
                i++;
            }
            return i - from;
        };
        if (i < end && s.charCodeAt(i) === C.ZERO) {
            i++;
            if (i < end && s.charCodeAt(i) >= C.ZERO && s.charCodeAt(i) <= C.NINE)
                throw new ScanError(start, 'numbers must not have leading zeros');
        }
        else if (digits() === 0) {
            throw new ScanError(start, 'invalid number: expected a digit');
        }
        let exp = false;
        if (i < end && s.charCodeAt(i) === C.DOT) {
            i++;
            if (digits() === 0)
                throw new ScanError(i, 'invalid number: expected a digit after the decimal point');
        }
        const e = i < end ? s.charCodeAt(i) : 0;
        if (e === C.LOWER_E || e === C.UPPER_E) {
            exp = true;
            i++;
            const sign = i < end ? s.charCodeAt(i) : 0;
            if (sign === C.PLUS || sign === C.MINUS)
                i++;
            if (digits() === 0)
                throw new ScanError(i, 'invalid number: expected a digit in the exponent');
        }
        this.i = i;
        if ((exp || i - start > 308) && !Number.isFinite(Number(s.slice(start, i)))) {
            throw new ScanError(start, `number ${s.slice(start, Math.min(i, start + 40))} is out of range (not a finite double)`);
        }
    }
}


/***/ }),

/***/ 755:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  z: () => (/* binding */ parseStrict)
});

// EXTERNAL MODULE: ./src/core/text.ts
var core_text = __nccwpck_require__(2020);
// EXTERNAL MODULE: ./src/core/json.ts
var json = __nccwpck_require__(6153);
;// CONCATENATED MODULE: ./src/read/json/proof.ts
/**
 * The proof that text JSON.parse accepted is strict JSON without a scan (read/json/strict.ts): from
 * the parsed value alone, when nothing is to be collected.
 */

/**
 * Whether text JSON.parse accepted, well-formed and without a `\u` escape, is exactly its parsed
 * value, within the limits, with nothing to collect — proved without a scan, from the value:
 *
 * Every `:` of valid JSON outside a string separates a member, and without `\u` every string's
 * decoded text holds as many `:` as its raw text. So the text's colons are its members plus the
 * colons in its strings. The parsed value holds every string and member of the text except those a
 * duplicate key overwrote (at least one member, with its key): it counts the same total exactly when
 * no key repeats, and fewer when one does. Depth, members per object and finite numbers are read off
 * the value. False is not an error: the scan then decides, and says where.
 */
function provablyClean(text, value, options) {
    if (text.includes('\\u'))
        return false;
    if (options.collect)
        for (const p of options.collect)
            if (holdsArray(value, p))
                return false;
    walkState.colons = 0;
    walkState.bad = false;
    walk(value, 1, options.maxDepth, options.maxKeys ?? Number.MAX_SAFE_INTEGER);
    return !walkState.bad && colonsIn(text) === walkState.colons;
}
/** Whether the value at a path (the reader's own keys, never input text) is an array: then its elements' offsets are wanted. */
function holdsArray(value, path) {
    let given = value;
    for (const k of path) {
        if (!(0,json/* isObject */.G)(given) || !(0,json/* hasOwn */.$)(given, k))
            return false;
        given = given[k];
    }
    return Array.isArray(given);
}
const colonsIn = (text) => {
    let n = 0;
    for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1))
        n++;
    return n;
};
/** Members plus colons in strings, counted by walk (synchronous, never nested: one state serves every call). */
const walkState = { colons: 0, bad: false };
function walk(value, depth, maxDepth, maxKeys) {
    if (typeof value === 'string') {
        if (value.includes(':'))
            walkState.colons += colonsIn(value);
        return;
    }
    if (typeof value === 'number') {
        if (!Number.isFinite(value))
            walkState.bad = true;
        return;
    }
    if (typeof value !== 'object' || value === null)
        return;
    if (depth > maxDepth) {
        walkState.bad = true;
        return;
    }
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length && !walkState.bad; i++)
            walk(value[i], depth + 1, maxDepth, maxKeys);
        return;
    }
    // Own keys and values only (an enumerable key someone put on Object.prototype is not the text's),
    // never a lookup by a key read from the input.
    const keys = Object.keys(value);
    if (keys.length > maxKeys)
        walkState.bad = true;
    walkState.colons += keys.length;
    for (const k of keys)
        if (k.includes(':'))
            walkState.colons += colonsIn(k);
    for (const x of Object.values(value)) {
        if (walkState.bad)
            return;
        walk(x, depth + 1, maxDepth, maxKeys);
    }
}

// EXTERNAL MODULE: ./src/read/json/scanner.ts
var scanner = __nccwpck_require__(3853);
;// CONCATENATED MODULE: ./src/read/json/strict.ts
/**
 * Strict JSON: JSON.parse for the values (`__proto__` is an ordinary own key there), and the checks
 * it cannot make, with positions. JSON.parse sees the text first: when it accepts, the text is
 * trusted grammar, and the value is either proved clean from itself (read/json/proof.ts: nothing to
 * collect) or scanned in trusted mode; when it refuses, the full scan (read/json/scanner.ts) says
 * where and why.
 */



const wellFormed = (s) => s.isWellFormed();
/**
 * JSON.parse, then the strict checks. When JSON.parse accepts the text (the common case), the grammar
 * is known good and the scan runs in trusted mode: strings are skipped with indexOf instead of
 * character by character. When it rejects, the full scan finds and locates the error.
 *
 * Both scans run on the document's own slice, never on the text around it: a search (for the next
 * quote or backslash) can then never run past the document, so reading an NDJSON file is linear in
 * its size whatever its lines hold. Offsets are moved back to the whole text's.
 */
function parseStrict(text, options, start = 0, end = text.length) {
    const slice = start === 0 && end === text.length ? text : text.slice(start, end);
    let value;
    try {
        value = JSON.parse(slice);
    }
    catch (error) {
        const scanned = (0,scanner/* scan */.SQ)(slice, options);
        // The full scan rejects everything JSON.parse does; if not, fail closed with JSON.parse's words.
        return {
            ok: false,
            reason: scanned.ok
                ? { offset: start, message: (0,core_text/* messageOf */.bD)(error) }
                : { offset: scanned.reason.offset + start, message: scanned.reason.message },
        };
    }
    const trusted = wellFormed(slice);
    if (trusted && provablyClean(slice, value, options))
        return { ok: true, value: { json: value, elements: NO_ELEMENTS } };
    const scanned2 = (0,scanner/* runScanner */.Sw)(new scanner/* Scanner */.Lp(slice, 0, slice.length, options, trusted));
    if (!scanned2.ok)
        return { ok: false, reason: { offset: scanned2.reason.offset + start, message: scanned2.reason.message } };
    return { ok: true, value: { json: value, elements: start === 0 ? scanned2.value : shifted(scanned2.value, start) } };
}
const NO_ELEMENTS = new Map();
function shifted(elements, by) {
    const out = new Map();
    for (const [k, v] of elements)
        out.set(k, v.map((o) => o + by));
    return out;
}


/***/ }),

/***/ 5826:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   ME: () => (/* binding */ fileTooLarge),
/* harmony export */   MH: () => (/* binding */ MAX_WALK_ENTRIES),
/* harmony export */   ZG: () => (/* binding */ MAX_KEY_TEXT_BYTES),
/* harmony export */   d4: () => (/* binding */ MAX_SIGNATURES),
/* harmony export */   dR: () => (/* binding */ DEFAULT_LIMITS),
/* harmony export */   k$: () => (/* binding */ DEFAULT_BUNDLE_LIMITS),
/* harmony export */   ti: () => (/* binding */ lineTooLong),
/* harmony export */   x0: () => (/* binding */ bundleLimits)
/* harmony export */ });
const DEFAULT_LIMITS = {
    maxFileBytes: 64 * 1024 ** 2,
    maxLineBytes: 8 * 1024 ** 2,
    maxDepth: 64,
    maxKeys: 10_000,
    maxFindingsPerFile: 20,
    maxDecisions: 100_000,
};
/** The messages a broken limit gives, the same wherever it is checked. */
const fileTooLarge = (size, limits) => `file is ${size} bytes, over the ${limits.maxFileBytes}-byte limit (max-file-size)`;
const lineTooLong = (limits) => `line is over the ${limits.maxLineBytes}-byte limit (max-line-size)`;
/** Largest key file (PEM text) read from a flag or an action input: a few keys are a few KiB. */
const MAX_KEY_TEXT_BYTES = 64 * 1024;
/** Most signatures one DSSE envelope may carry (each is checked against every trusted key). */
const MAX_SIGNATURES = 16;
/** Most directory entries one discovery walks before it stops (narrow the inputs). */
const MAX_WALK_ENTRIES = 500_000;
const MiB = 1024 * 1024;
const DEFAULT_BUNDLE_LIMITS = {
    maxCompressedBytes: 100 * MiB,
    maxDecompressedBytes: 1024 * MiB,
    maxRatio: 200,
    maxManifestBytes: 10 * MiB,
    maxEventsBytes: 500 * MiB,
    maxEvents: 100_000,
    maxLineBytes: 1 * MiB,
    maxPathBytes: 256,
    maxMetaBytes: 64 * 1024,
    maxDepth: 64,
    maxDecisions: DEFAULT_LIMITS.maxDecisions,
};
/** The bundle limits under the user's read limits: a bundle's compressed size honours max-file-size. */
function bundleLimits(read) {
    return {
        ...DEFAULT_BUNDLE_LIMITS,
        maxCompressedBytes: Math.min(DEFAULT_BUNDLE_LIMITS.maxCompressedBytes, read.maxFileBytes),
        maxDecisions: read.maxDecisions,
    };
}


/***/ }),

/***/ 771:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Mn: () => (/* binding */ lines),
/* harmony export */   Q_: () => (/* binding */ overBytes),
/* harmony export */   hQ: () => (/* binding */ blank)
/* harmony export */ });
/**
 * NDJSON lines of a decoded text, as the readers and the bundle reader both need them: split on
 * "\n", one trailing "\r" tolerated, a final line without "\n" still a line. Offsets, not slices.
 */
function* lines(text) {
    for (let start = 0, line = 1; start < text.length; line++) {
        let end = text.indexOf('\n', start);
        const next = end === -1 ? text.length : end + 1;
        if (end === -1)
            end = text.length;
        if (end > start && text.charCodeAt(end - 1) === 13)
            end--;
        yield { line, start, end };
        start = next;
    }
}
/** Whether text[start, end) is over `maxBytes` in UTF-8; only slices when the length says it might be. */
function overBytes(text, start, end, maxBytes) {
    return end - start > maxBytes / 3 && Buffer.byteLength(text.slice(start, end)) > maxBytes;
}
/** A blank NDJSON line (§1): empty, or only spaces and tabs (a final CR is already cut). */
function blank(text, start, end) {
    for (let i = start; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c !== 0x20 && c !== 0x09)
            return false;
    }
    return true;
}


/***/ }),

/***/ 9677:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ ReadError),
/* harmony export */   N: () => (/* binding */ ioReason)
/* harmony export */ });
class ReadError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
/** Why a file system call failed, in the words every "cannot read" message uses: the errno code (ENOENT, EACCES …), else the message. */
const IO_WORDS = new Map([
    ['ENOENT', 'no such file or directory'],
    ['EACCES', 'permission denied'],
    ['EPERM', 'operation not permitted'],
    ['EISDIR', 'is a directory'],
    ['ENOTDIR', 'a path component is not a directory'],
    ['ELOOP', 'too many symbolic links'],
]);
/** Why a file cannot be read or written, in words with the system's code (`no such file or directory (ENOENT)`). */
const ioReason = (thrown) => {
    const code = thrown instanceof Error && 'code' in thrown && typeof thrown.code === 'string' ? thrown.code : null;
    if (code === null)
        return thrown instanceof Error ? thrown.message : String(thrown);
    const words = IO_WORDS.get(code);
    return words ? `${words} (${code})` : code;
};


/***/ }),

/***/ 6888:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   E: () => (/* binding */ checkRecord),
/* harmony export */   d: () => (/* binding */ checkDecision)
/* harmony export */ });
/* harmony import */ var _validators_generated_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(183);

function describe(errors) {
    const e = errors?.[0];
    if (!e)
        return 'does not match its schema';
    const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'the object';
    if (e.keyword === 'const' || e.keyword === 'enum') {
        return `${where} must be ${JSON.stringify(e.params.allowedValue ?? e.params.allowedValues)}`;
    }
    return `${where} ${e.message ?? 'is invalid'}`;
}
const checker = (fn) => (value) => fn(value) ? { ok: true } : { ok: false, reason: describe(fn.errors) };
const checkDecision = checker(_validators_generated_js__WEBPACK_IMPORTED_MODULE_0__/* .decision */ .xR);
const checkRecord = checker(_validators_generated_js__WEBPACK_IMPORTED_MODULE_0__/* .record */ .g1);


/***/ }),

/***/ 2826:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   CY: () => (/* binding */ isSignedAt),
/* harmony export */   Md: () => (/* binding */ payloadOf),
/* harmony export */   Uc: () => (/* binding */ PAYLOAD_TYPE),
/* harmony export */   Zg: () => (/* binding */ pae),
/* harmony export */   f4: () => (/* binding */ COVERAGE_PAYLOAD_TYPE),
/* harmony export */   lH: () => (/* binding */ readSignatureMember)
/* harmony export */ });
/* harmony import */ var _core_binding_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3491);
/* harmony import */ var _core_json_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6153);
/* harmony import */ var _core_time_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(2334);
/* harmony import */ var _base64_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(7753);
/**
 * Signed audit records (docs/records-provenance.md): the `signature` member's shape, byte for byte,
 * read as a pure reader (no keys here). The signed payload P is the UTF-8 of JCS(the record without
 * its `signature` member), so every other member is covered; the Ed25519 signature is over the DSSE
 * v1 pre-authentication encoding PAE(payload_type, P). Checking a signature is the trust edge's
 * (src/trust/); making one is the tools' (src/tools/signing.ts).
 */




const PAYLOAD_TYPE = 'application/vnd.assay.provider-audit-record+json;v=0';
/** A coverage statement's (docs/coverage.md §5): signed with the same key and envelope, under its own type. */
const COVERAGE_PAYLOAD_TYPE = 'application/vnd.receipt-gate.audit-coverage+json;v=1';
const MEMBERS = ['version', 'algorithm', 'payload_type', 'signed_payload_digest', 'key_id', 'signature', 'signed_at'];
/** Whether a `signed_at` value is an RFC 3339 UTC time (…T…Z, at most nanoseconds). */
const isSignedAt = (v) => /^[^tz]*T[^z]*Z$/.test(v) && !/\.\d{10,}/.test(v) && (0,_core_time_js__WEBPACK_IMPORTED_MODULE_1__/* .parseRfc3339 */ .TM)(v, { utc: true }).ok;
/** The `signature` member's shape: the seven members with their types and values, nothing else; `type` the payload type of the entry it signs. */
function readSignatureMember(value, type = PAYLOAD_TYPE) {
    if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .isObject */ .G)(value))
        return { ok: false, reason: 'signature is not an object' };
    for (const k of Object.keys(value))
        if (!MEMBERS.includes(k))
            return { ok: false, reason: `signature has an unknown member ${JSON.stringify(k.slice(0, 60))}` };
    for (const k of MEMBERS)
        if (!(0,_core_json_js__WEBPACK_IMPORTED_MODULE_2__/* .hasOwn */ .$)(value, k))
            return { ok: false, reason: `signature.${k} is missing` };
    if (value['version'] !== 1)
        return { ok: false, reason: 'signature.version must be 1' };
    if (value['algorithm'] !== 'ed25519')
        return { ok: false, reason: 'signature.algorithm must be "ed25519"' };
    if (value['payload_type'] !== type)
        return { ok: false, reason: `signature.payload_type must be "${type}"` };
    for (const k of ['signed_payload_digest', 'key_id']) {
        const given = value[k];
        if (typeof given !== 'string' || !_core_binding_js__WEBPACK_IMPORTED_MODULE_0__/* .DIGEST_PATTERN */ .WA.test(given))
            return { ok: false, reason: `signature.${k} must be sha256:<64 lowercase hex>` };
    }
    const sig = value['signature'];
    if (typeof sig !== 'string' || sig.length !== 88 || (0,_base64_js__WEBPACK_IMPORTED_MODULE_3__/* .strictBase64 */ .P)(sig)?.length !== 64) {
        return { ok: false, reason: 'signature.signature must be the base64 of a 64-byte Ed25519 signature' };
    }
    const at = value['signed_at'];
    if (typeof at !== 'string' || !isSignedAt(at))
        return { ok: false, reason: 'signature.signed_at must be an RFC 3339 UTC time (…Z)' };
    const member = {
        version: 1,
        algorithm: 'ed25519',
        payload_type: type,
        signed_payload_digest: value['signed_payload_digest'],
        key_id: value['key_id'],
        signature: sig,
        signed_at: at,
    };
    return { ok: true, value: member };
}
/**
 * P: the canonical text of the record without its `signature` member. Members are defined one by
 * one (never assigned or spread), so a `__proto__` member stays an ordinary member.
 */
function payloadOf(record) {
    const unsigned = {};
    for (const k of Object.keys(record)) {
        if (k !== 'signature')
            Object.defineProperty(unsigned, k, { value: record[k], enumerable: true, writable: true, configurable: true });
    }
    return (0,_core_binding_js__WEBPACK_IMPORTED_MODULE_0__/* .jcs */ .vI)(unsigned);
}
/** DSSE v1: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in bytes. */
function pae(type, body) {
    const bytes = Buffer.from(type, 'utf8');
    return Buffer.concat([Buffer.from(`DSSEv1 ${bytes.length} `, 'utf8'), bytes, Buffer.from(` ${body.length} `, 'utf8'), body]);
}


/***/ }),

/***/ 2835:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   N: () => (/* binding */ RunDecisions),
/* harmony export */   U: () => (/* binding */ readSurface)
/* harmony export */ });
/* harmony import */ var _core_decision_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(118);
/* harmony import */ var _core_model_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(4146);
/* harmony import */ var _core_text_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(2020);
/* harmony import */ var _shapes_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6888);
/**
 * The decisions of one decision surface, for every reader that meets one (a .json file, an NDJSON
 * line, an evidence event in a log or a bundle): the array check, the event-data schema rule, and
 * each decision's shape, location and index. Problems go to `fail`; valid decisions are prepared
 * (reduced to what verification reads) as they are read.
 */




/** A run's decisions as they are read: the valid ones, and how many were seen (valid or not). */
class RunDecisions {
    max;
    decisions = [];
    seen = 0;
    /** Past the limit: the run is rejected (one error said), and no further decision is read. */
    full = false;
    /** @param max the most decisions one run may hold (ReadLimits.maxDecisions) */
    constructor(max) {
        this.max = max;
    }
    /** Room for `count` more decisions; past the limit, once, the located error that rejects the run. */
    admit(count, at, fail) {
        if (this.full)
            return false;
        if (this.seen + count <= this.max)
            return true;
        // One located error, and nothing more is prepared: memory stays bounded by the limit.
        this.full = true;
        fail(at(), `the run holds more than ${this.max} decisions (the limit per run); it is not read`);
        return false;
    }
}
/**
 * @param payload  the surface object (the document itself, or an event's `data`)
 * @param via      how the surface was named: its own `schema`, or an evidence event's `type`
 * @param locate   the location of decision j of this surface (null: the surface's own location)
 * @param run      the run's decisions so far: valid ones are appended; every decision, valid or
 *                 not, takes the next index
 * @param time     the event's time, for a surface an evidence event carries (its decisions' time); null otherwise
 * @returns false when the surface itself is unusable (then nothing was appended)
 */
function readSurface(payload, via, locate, run, fail, time = null) {
    if (via === 'event' && payload['schema'] !== undefined && payload['schema'] !== _core_model_js__WEBPACK_IMPORTED_MODULE_2__/* .SURFACE_SCHEMA */ .SB) {
        const found = JSON.stringify(typeof payload['schema'] === 'string' ? (0,_core_text_js__WEBPACK_IMPORTED_MODULE_3__/* .quote */ .hD)(payload['schema'], 120) : payload['schema']);
        const version = typeof payload['schema'] === 'string' && payload['schema'].trim().toLowerCase().startsWith('assay.tool_decision_surface');
        fail(locate(null), version
            ? `event data has schema ${found}: unsupported version (this gate reads ${_core_model_js__WEBPACK_IMPORTED_MODULE_2__/* .SURFACE_SCHEMA */ .SB})`
            : `event data has schema ${found}, expected ${_core_model_js__WEBPACK_IMPORTED_MODULE_2__/* .SURFACE_SCHEMA */ .SB}`);
        return false;
    }
    const list = payload['observed_tool_decisions'];
    if (!Array.isArray(list)) {
        fail(locate(null), via === 'event' ? `${_core_model_js__WEBPACK_IMPORTED_MODULE_2__/* .SURFACE_SCHEMA */ .SB} event data has no observed_tool_decisions array` : 'observed_tool_decisions is not an array');
        return false;
    }
    if (!run.admit(list.length, () => locate(Math.max(0, run.max - run.seen)), fail))
        return false;
    list.forEach((decision, j) => {
        const loc = locate(j);
        const index = run.seen++;
        const shape = (0,_shapes_js__WEBPACK_IMPORTED_MODULE_1__/* .checkDecision */ .d)(decision);
        // A decision that breaks its shape rejects the run; the rest are still checked and reported.
        if (!shape.ok)
            fail(loc, `decision ${index}: ${shape.reason}`);
        else
            run.decisions.push((0,_core_decision_js__WEBPACK_IMPORTED_MODULE_0__/* .prepareDecision */ .i)(loc, index, decision, time));
    });
    return true;
}


/***/ }),

/***/ 8107:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  I: () => (/* binding */ byteLocation),
  _: () => (/* binding */ decodeUtf8)
});

;// CONCATENATED MODULE: external "node:buffer"
const external_node_buffer_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");
;// CONCATENATED MODULE: ./src/read/utf8.ts
/** UTF-8 decoding that refuses invalid bytes and says where the first one is. */

/** Validate (simdutf), then decode; a byte-order mark is kept so that it can be refused with a location. */
function decodeUtf8(bytes) {
    if (!(0,external_node_buffer_namespaceObject.isUtf8)(bytes))
        return { ok: false, reason: firstInvalidUtf8(bytes) };
    return { ok: true, value: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
}
/** Byte offset of the first byte that does not start or continue a well-formed UTF-8 sequence. */
function firstInvalidUtf8(bytes) {
    let i = 0;
    while (i < bytes.length) {
        const c = bytes[i] ?? 0;
        if (c < 0x80) {
            i++;
            continue;
        }
        let n;
        let min;
        let cp;
        if (c >= 0xc2 && c <= 0xdf)
            [n, min, cp] = [1, 0x80, c & 0x1f];
        else if (c >= 0xe0 && c <= 0xef)
            [n, min, cp] = [2, 0x800, c & 0x0f];
        else if (c >= 0xf0 && c <= 0xf4)
            [n, min, cp] = [3, 0x10000, c & 0x07];
        else
            return i;
        if (i + n >= bytes.length)
            return i;
        for (let k = 1; k <= n; k++) {
            const cc = bytes[i + k] ?? 0;
            if ((cc & 0xc0) !== 0x80)
                return i;
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += n + 1;
    }
    return bytes.length;
}
/** 1-based line and column (in bytes) of a byte offset. */
function byteLocation(bytes, offset) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < offset && i < bytes.length; i++) {
        if (bytes[i] === 0x0a) {
            line++;
            lineStart = i + 1;
        }
    }
    return { line, column: offset - lineStart + 1 };
}


/***/ }),

/***/ 2510:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ refuse)
/* harmony export */ });
const refuse = (code, detail) => ({
    ok: false,
    reason: { code, detail },
});


/***/ }),

/***/ 181:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("buffer");

/***/ }),

/***/ 6982:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 932:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("process");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 7349:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveBlockMap = __nccwpck_require__(7103);
var resolveBlockSeq = __nccwpck_require__(334);
var resolveFlowCollection = __nccwpck_require__(3142);

function resolveCollection(CN, ctx, token, onError, tagName, tag) {
    const coll = token.type === 'block-map'
        ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag)
        : token.type === 'block-seq'
            ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag)
            : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
    const Coll = coll.constructor;
    // If we got a tagName matching the class, or the tag name is '!',
    // then use the tagName from the node class used to create it.
    if (tagName === '!' || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
    }
    if (tagName)
        coll.tag = tagName;
    return coll;
}
function composeCollection(CN, ctx, token, props, onError) {
    const tagToken = props.tag;
    const tagName = !tagToken
        ? null
        : ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg));
    if (token.type === 'block-seq') {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken
            ? anchor.offset > tagToken.offset
                ? anchor
                : tagToken
            : (anchor ?? tagToken);
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
            const message = 'Missing newline after block sequence props';
            onError(lastProp, 'MISSING_CHAR', message);
        }
    }
    const expType = token.type === 'block-map'
        ? 'map'
        : token.type === 'block-seq'
            ? 'seq'
            : token.start.source === '{'
                ? 'map'
                : 'seq';
    // shortcut: check if it's a generic YAMLMap or YAMLSeq
    // before jumping into the custom tag logic.
    if (!tagToken ||
        !tagName ||
        tagName === '!' ||
        (tagName === YAMLMap.YAMLMap.tagName && expType === 'map') ||
        (tagName === YAMLSeq.YAMLSeq.tagName && expType === 'seq')) {
        return resolveCollection(CN, ctx, token, onError, tagName);
    }
    let tag = ctx.schema.tags.find(t => t.tag === tagName && t.collection === expType);
    if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
            ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
            tag = kt;
        }
        else {
            if (kt) {
                onError(tagToken, 'BAD_COLLECTION_TYPE', `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? 'scalar'}`, true);
            }
            else {
                onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, true);
            }
            return resolveCollection(CN, ctx, token, onError, tagName);
        }
    }
    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
    const res = tag.resolve?.(coll, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg), ctx.options) ?? coll;
    const node = identity.isNode(res)
        ? res
        : new Scalar.Scalar(res);
    node.range = coll.range;
    node.tag = tagName;
    if (tag?.format)
        node.format = tag.format;
    return node;
}

exports.composeCollection = composeCollection;


/***/ }),

/***/ 3683:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Document = __nccwpck_require__(3021);
var composeNode = __nccwpck_require__(5937);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);

function composeDoc(options, directives, { offset, start, value, end }, onError) {
    const opts = Object.assign({ _directives: directives }, options);
    const doc = new Document.Document(undefined, opts);
    const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
    };
    const props = resolveProps.resolveProps(start, {
        indicator: 'doc-start',
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
    });
    if (props.found) {
        doc.directives.docStart = true;
        if (value &&
            (value.type === 'block-map' || value.type === 'block-seq') &&
            !props.hasNewline)
            onError(props.end, 'MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker');
    }
    // @ts-expect-error If Contents is set, let's trust the user
    doc.contents = value
        ? composeNode.composeNode(ctx, value, props, onError)
        : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
    const contentEnd = doc.contents.range[2];
    const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
    if (re.comment)
        doc.comment = re.comment;
    doc.range = [offset, contentEnd, re.offset];
    return doc;
}

exports.composeDoc = composeDoc;


/***/ }),

/***/ 5937:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var composeCollection = __nccwpck_require__(7349);
var composeScalar = __nccwpck_require__(5413);
var resolveEnd = __nccwpck_require__(7788);
var utilEmptyScalarPosition = __nccwpck_require__(2599);

const CN = { composeNode, composeEmptyNode };
function composeNode(ctx, token, props, onError) {
    const atKey = ctx.atKey;
    const { spaceBefore, comment, anchor, tag } = props;
    let node;
    let isSrcToken = true;
    switch (token.type) {
        case 'alias':
            node = composeAlias(ctx, token, onError);
            if (anchor || tag)
                onError(token, 'ALIAS_PROPS', 'An alias node must not specify any properties');
            break;
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'block-scalar':
            node = composeScalar.composeScalar(ctx, token, tag, onError);
            if (anchor)
                node.anchor = anchor.source.substring(1);
            break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection':
            try {
                node = composeCollection.composeCollection(CN, ctx, token, props, onError);
                if (anchor)
                    node.anchor = anchor.source.substring(1);
            }
            catch (error) {
                // Almost certainly here due to a stack overflow
                const message = error instanceof Error ? error.message : String(error);
                onError(token, 'RESOURCE_EXHAUSTION', message);
            }
            break;
        default: {
            const message = token.type === 'error'
                ? token.message
                : `Unsupported token (type: ${token.type})`;
            onError(token, 'UNEXPECTED_TOKEN', message);
            isSrcToken = false;
        }
    }
    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
    if (anchor && node.anchor === '')
        onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    if (atKey &&
        ctx.options.stringKeys &&
        (!identity.isScalar(node) ||
            typeof node.value !== 'string' ||
            (node.tag && node.tag !== 'tag:yaml.org,2002:str'))) {
        const msg = 'With stringKeys, all keys must be strings';
        onError(tag ?? token, 'NON_STRING_KEY', msg);
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        if (token.type === 'scalar' && token.source === '')
            node.comment = comment;
        else
            node.commentBefore = comment;
    }
    // @ts-expect-error Type checking misses meaning of isSrcToken
    if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
    return node;
}
function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
    const token = {
        type: 'scalar',
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ''
    };
    const node = composeScalar.composeScalar(ctx, token, tag, onError);
    if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === '')
            onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        node.comment = comment;
        node.range[2] = end;
    }
    return node;
}
function composeAlias({ options }, { offset, source, end }, onError) {
    const alias = new Alias.Alias(source.substring(1));
    if (alias.source === '')
        onError(offset, 'BAD_ALIAS', 'Alias cannot be an empty string');
    if (alias.source.endsWith(':'))
        onError(offset + source.length - 1, 'BAD_ALIAS', 'Alias ending in : is ambiguous', true);
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
    alias.range = [offset, valueEnd, re.offset];
    if (re.comment)
        alias.comment = re.comment;
    return alias;
}

exports.composeEmptyNode = composeEmptyNode;
exports.composeNode = composeNode;


/***/ }),

/***/ 5413:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);

function composeScalar(ctx, token, tagToken, onError) {
    const { value, type, comment, range } = token.type === 'block-scalar'
        ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError)
        : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
    const tagName = tagToken
        ? ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg))
        : null;
    let tag;
    if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
    }
    else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
    else if (token.type === 'scalar')
        tag = findScalarTagByTest(ctx, value, token, onError);
    else
        tag = ctx.schema[identity.SCALAR];
    let scalar;
    try {
        const res = tag.resolve(value, msg => onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
    }
    catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg);
        scalar = new Scalar.Scalar(value);
    }
    scalar.range = range;
    scalar.source = value;
    if (type)
        scalar.type = type;
    if (tagName)
        scalar.tag = tagName;
    if (tag.format)
        scalar.format = tag.format;
    if (comment)
        scalar.comment = comment;
    return scalar;
}
function findScalarTagByName(schema, value, tagName, tagToken, onError) {
    if (tagName === '!')
        return schema[identity.SCALAR]; // non-specific tag
    const matchWithTest = [];
    for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
            if (tag.default && tag.test)
                matchWithTest.push(tag);
            else
                return tag;
        }
    }
    for (const tag of matchWithTest)
        if (tag.test?.test(value))
            return tag;
    const kt = schema.knownTags[tagName];
    if (kt && !kt.collection) {
        // Ensure that the known tag is available for stringifying,
        // but does not get used by default.
        schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
        return kt;
    }
    onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, tagName !== 'tag:yaml.org,2002:str');
    return schema[identity.SCALAR];
}
function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
    const tag = schema.tags.find(tag => (tag.default === true || (atKey && tag.default === 'key')) &&
        tag.test?.test(value)) || schema[identity.SCALAR];
    if (schema.compat) {
        const compat = schema.compat.find(tag => tag.default && tag.test?.test(value)) ??
            schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
            const ts = directives.tagString(tag.tag);
            const cs = directives.tagString(compat.tag);
            const msg = `Value may be parsed as either ${ts} or ${cs}`;
            onError(token, 'TAG_RESOLVE_FAILED', msg, true);
        }
    }
    return tag;
}

exports.composeScalar = composeScalar;


/***/ }),

/***/ 9984:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var directives = __nccwpck_require__(1342);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var identity = __nccwpck_require__(1127);
var composeDoc = __nccwpck_require__(3683);
var resolveEnd = __nccwpck_require__(7788);

function getErrorPos(src) {
    if (typeof src === 'number')
        return [src, src + 1];
    if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
    const { offset, source } = src;
    return [offset, offset + (typeof source === 'string' ? source.length : 1)];
}
function parsePrelude(prelude) {
    let comment = '';
    let atComment = false;
    let afterEmptyLine = false;
    for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
            case '#':
                comment +=
                    (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') +
                        (source.substring(1) || ' ');
                atComment = true;
                afterEmptyLine = false;
                break;
            case '%':
                if (prelude[i + 1]?.[0] !== '#')
                    i += 1;
                atComment = false;
                break;
            default:
                // This may be wrong after doc-end, but in that case it doesn't matter
                if (!atComment)
                    afterEmptyLine = true;
                atComment = false;
        }
    }
    return { comment, afterEmptyLine };
}
/**
 * Compose a stream of CST nodes into a stream of YAML Documents.
 *
 * ```ts
 * import { Composer, Parser } from 'yaml'
 *
 * const src: string = ...
 * const tokens = new Parser().parse(src)
 * const docs = new Composer().compose(tokens)
 * ```
 */
class Composer {
    constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
            const pos = getErrorPos(source);
            if (warning)
                this.warnings.push(new errors.YAMLWarning(pos, code, message));
            else
                this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        this.directives = new directives.Directives({ version: options.version || '1.2' });
        this.options = options;
    }
    decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        //console.log({ dc: doc.comment, prelude, comment })
        if (comment) {
            const dc = doc.contents;
            if (afterDoc) {
                doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
            }
            else if (afterEmptyLine || doc.directives.docStart || !dc) {
                doc.commentBefore = comment;
            }
            else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
                let it = dc.items[0];
                if (identity.isPair(it))
                    it = it.key;
                const cb = it.commentBefore;
                it.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
            else {
                const cb = dc.commentBefore;
                dc.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
        }
        if (afterDoc) {
            for (let i = 0; i < this.errors.length; ++i)
                doc.errors.push(this.errors[i]);
            for (let i = 0; i < this.warnings.length; ++i)
                doc.warnings.push(this.warnings[i]);
        }
        else {
            doc.errors = this.errors;
            doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
    }
    /**
     * Current stream status information.
     *
     * Mostly useful at the end of input for an empty stream.
     */
    streamInfo() {
        return {
            comment: parsePrelude(this.prelude).comment,
            directives: this.directives,
            errors: this.errors,
            warnings: this.warnings
        };
    }
    /**
     * Compose tokens into documents.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
            yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
    }
    /** Advance the composer by one CST token. */
    *next(token) {
        if (node_process.env.LOG_STREAM)
            console.dir(token, { depth: null });
        switch (token.type) {
            case 'directive':
                this.directives.add(token.source, (offset, message, warning) => {
                    const pos = getErrorPos(token);
                    pos[0] += offset;
                    this.onError(pos, 'BAD_DIRECTIVE', message, warning);
                });
                this.prelude.push(token.source);
                this.atDirectives = true;
                break;
            case 'document': {
                const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
                if (this.atDirectives && !doc.directives.docStart)
                    this.onError(token, 'MISSING_CHAR', 'Missing directives-end/doc-start indicator line');
                this.decorate(doc, false);
                if (this.doc)
                    yield this.doc;
                this.doc = doc;
                this.atDirectives = false;
                break;
            }
            case 'byte-order-mark':
            case 'space':
                break;
            case 'comment':
            case 'newline':
                this.prelude.push(token.source);
                break;
            case 'error': {
                const msg = token.source
                    ? `${token.message}: ${JSON.stringify(token.source)}`
                    : token.message;
                const error = new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg);
                if (this.atDirectives || !this.doc)
                    this.errors.push(error);
                else
                    this.doc.errors.push(error);
                break;
            }
            case 'doc-end': {
                if (!this.doc) {
                    const msg = 'Unexpected doc-end without preceding document';
                    this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg));
                    break;
                }
                this.doc.directives.docEnd = true;
                const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
                this.decorate(this.doc, true);
                if (end.comment) {
                    const dc = this.doc.comment;
                    this.doc.comment = dc ? `${dc}\n${end.comment}` : end.comment;
                }
                this.doc.range[2] = end.offset;
                break;
            }
            default:
                this.errors.push(new errors.YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', `Unsupported token ${token.type}`));
        }
    }
    /**
     * Call at end of input to yield any remaining document.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
            this.decorate(this.doc, true);
            yield this.doc;
            this.doc = null;
        }
        else if (forceDoc) {
            const opts = Object.assign({ _directives: this.directives }, this.options);
            const doc = new Document.Document(undefined, opts);
            if (this.atDirectives)
                this.onError(endOffset, 'MISSING_CHAR', 'Missing directives-end indicator line');
            doc.range = [0, endOffset, endOffset];
            this.decorate(doc, false);
            yield doc;
        }
    }
}

exports.Composer = Composer;


/***/ }),

/***/ 7103:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilFlowIndentCheck = __nccwpck_require__(4051);
var utilMapIncludes = __nccwpck_require__(1187);

const startColMsg = 'All mapping items must start at the same column';
function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
    const map = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    let offset = bm.offset;
    let commentEnd = null;
    for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        // key properties
        const keyProps = resolveProps.resolveProps(start, {
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: bm.indent,
            startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
            if (key) {
                if (key.type === 'block-seq')
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key');
                else if ('indent' in key && key.indent !== bm.indent)
                    onError(offset, 'BAD_INDENT', startColMsg);
            }
            if (!keyProps.anchor && !keyProps.tag && !sep) {
                commentEnd = keyProps.end;
                if (keyProps.comment) {
                    if (map.comment)
                        map.comment += '\n' + keyProps.comment;
                    else
                        map.comment = keyProps.comment;
                }
                continue;
            }
            if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
                onError(key ?? start[start.length - 1], 'MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line');
            }
        }
        else if (keyProps.found?.indent !== bm.indent) {
            onError(offset, 'BAD_INDENT', startColMsg);
        }
        // key value
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key
            ? composeNode(ctx, key, keyProps, onError)
            : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
            onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
        // value properties
        const valueProps = resolveProps.resolveProps(sep ?? [], {
            indicator: 'map-value-ind',
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: bm.indent,
            startOnNewline: !key || key.type === 'block-scalar'
        });
        offset = valueProps.end;
        if (valueProps.found) {
            if (implicitKey) {
                if (value?.type === 'block-map' && !valueProps.hasNewline)
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings');
                if (ctx.options.strict &&
                    keyProps.start < valueProps.found.offset - 1024)
                    onError(keyNode.range, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key');
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
            if (ctx.schema.compat)
                utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
            offset = valueNode.range[2];
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
        else {
            // key with no value
            if (implicitKey)
                onError(keyNode.range, 'MISSING_CHAR', 'Implicit map keys need to be followed by map values');
            if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
    }
    if (commentEnd && commentEnd < offset)
        onError(commentEnd, 'IMPOSSIBLE', 'Map comment with trailing content');
    map.range = [bm.offset, offset, commentEnd ?? offset];
    return map;
}

exports.resolveBlockMap = resolveBlockMap;


/***/ }),

/***/ 8913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function resolveBlockScalar(ctx, scalar, onError) {
    const start = scalar.offset;
    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
    if (!header)
        return { value: '', type: null, comment: '', range: [start, start, start] };
    const type = header.mode === '>' ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
    const lines = scalar.source ? splitLines(scalar.source) : [];
    // determine the end of content & start of chomping
    let chompStart = lines.length;
    for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === '' || content === '\r')
            chompStart = i;
        else
            break;
    }
    // shortcut for empty contents
    if (chompStart === 0) {
        const value = header.chomp === '+' && lines.length > 0
            ? '\n'.repeat(Math.max(1, lines.length - 1))
            : '';
        let end = start + header.length;
        if (scalar.source)
            end += scalar.source.length;
        return { value, type, comment: header.comment, range: [start, end, end] };
    }
    // find the indentation level to trim from start
    let trimIndent = scalar.indent + header.indent;
    let offset = scalar.offset + header.length;
    let contentStart = 0;
    for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === '' || content === '\r') {
            if (header.indent === 0 && indent.length > trimIndent)
                trimIndent = indent.length;
        }
        else {
            if (indent.length < trimIndent) {
                const message = 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator';
                onError(offset + indent.length, 'MISSING_CHAR', message);
            }
            if (header.indent === 0)
                trimIndent = indent.length;
            contentStart = i;
            if (trimIndent === 0 && !ctx.atRoot) {
                const message = 'Block scalar values in collections must be indented';
                onError(offset, 'BAD_INDENT', message);
            }
            break;
        }
        offset += indent.length + content.length + 1;
    }
    // include trailing more-indented empty lines in content
    for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
            chompStart = i + 1;
    }
    let value = '';
    let sep = '';
    let prevMoreIndented = false;
    // leading whitespace is kept intact
    for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + '\n';
    for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === '\r';
        if (crlf)
            content = content.slice(0, -1);
        /* istanbul ignore if already caught in lexer */
        if (content && indent.length < trimIndent) {
            const src = header.indent
                ? 'explicit indentation indicator'
                : 'first line';
            const message = `Block scalar lines must not be less indented than their ${src}`;
            onError(offset - content.length - (crlf ? 2 : 1), 'BAD_INDENT', message);
            indent = '';
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
        }
        else if (indent.length > trimIndent || content[0] === '\t') {
            // more-indented content within a folded block
            if (sep === ' ')
                sep = '\n';
            else if (!prevMoreIndented && sep === '\n')
                sep = '\n\n';
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
            prevMoreIndented = true;
        }
        else if (content === '') {
            // empty line
            if (sep === '\n')
                value += '\n';
            else
                sep = '\n';
        }
        else {
            value += sep + content;
            sep = ' ';
            prevMoreIndented = false;
        }
    }
    switch (header.chomp) {
        case '-':
            break;
        case '+':
            for (let i = chompStart; i < lines.length; ++i)
                value += '\n' + lines[i][0].slice(trimIndent);
            if (value[value.length - 1] !== '\n')
                value += '\n';
            break;
        default:
            value += '\n';
    }
    const end = start + header.length + scalar.source.length;
    return { value, type, comment: header.comment, range: [start, end, end] };
}
function parseBlockScalarHeader({ offset, props }, strict, onError) {
    /* istanbul ignore if should not happen */
    if (props[0].type !== 'block-scalar-header') {
        onError(props[0], 'IMPOSSIBLE', 'Block scalar header not found');
        return null;
    }
    const { source } = props[0];
    const mode = source[0];
    let indent = 0;
    let chomp = '';
    let error = -1;
    for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === '-' || ch === '+'))
            chomp = ch;
        else {
            const n = Number(ch);
            if (!indent && n)
                indent = n;
            else if (error === -1)
                error = offset + i;
        }
    }
    if (error !== -1)
        onError(error, 'UNEXPECTED_TOKEN', `Block scalar header includes extra characters: ${source}`);
    let hasSpace = false;
    let comment = '';
    let length = source.length;
    for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
            case 'space':
                hasSpace = true;
            // fallthrough
            case 'newline':
                length += token.source.length;
                break;
            case 'comment':
                if (strict && !hasSpace) {
                    const message = 'Comments must be separated from other tokens by white space characters';
                    onError(token, 'MISSING_CHAR', message);
                }
                length += token.source.length;
                comment = token.source.substring(1);
                break;
            case 'error':
                onError(token, 'UNEXPECTED_TOKEN', token.message);
                length += token.source.length;
                break;
            /* istanbul ignore next should not happen */
            default: {
                const message = `Unexpected token in block scalar header: ${token.type}`;
                onError(token, 'UNEXPECTED_TOKEN', message);
                const ts = token.source;
                if (ts && typeof ts === 'string')
                    length += ts.length;
            }
        }
    }
    return { mode, indent, chomp, comment, length };
}
/** @returns Array of lines split up as `[indent, content]` */
function splitLines(source) {
    const split = source.split(/\n( *)/);
    const first = split[0];
    const m = first.match(/^( *)/);
    const line0 = m?.[1]
        ? [m[1], first.slice(m[1].length)]
        : ['', first];
    const lines = [line0];
    for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
    return lines;
}

exports.resolveBlockScalar = resolveBlockScalar;


/***/ }),

/***/ 334:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var YAMLSeq = __nccwpck_require__(2223);
var resolveProps = __nccwpck_require__(4631);
var utilFlowIndentCheck = __nccwpck_require__(4051);

function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
    const seq = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = bs.offset;
    let commentEnd = null;
    for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
            indicator: 'seq-item-ind',
            next: value,
            offset,
            onError,
            parentIndent: bs.indent,
            startOnNewline: true
        });
        if (!props.found) {
            if (props.anchor || props.tag || value) {
                if (value?.type === 'block-seq')
                    onError(props.end, 'BAD_INDENT', 'All sequence items must start at the same column');
                else
                    onError(offset, 'MISSING_CHAR', 'Sequence item without - indicator');
            }
            else {
                commentEnd = props.end;
                if (props.comment)
                    seq.comment = props.comment;
                continue;
            }
        }
        const node = value
            ? composeNode(ctx, value, props, onError)
            : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
    }
    seq.range = [bs.offset, offset, commentEnd ?? offset];
    return seq;
}

exports.resolveBlockSeq = resolveBlockSeq;


/***/ }),

/***/ 7788:
/***/ ((__unused_webpack_module, exports) => {



function resolveEnd(end, offset, reqSpace, onError) {
    let comment = '';
    if (end) {
        let hasSpace = false;
        let sep = '';
        for (const token of end) {
            const { source, type } = token;
            switch (type) {
                case 'space':
                    hasSpace = true;
                    break;
                case 'comment': {
                    if (reqSpace && !hasSpace)
                        onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                    const cb = source.substring(1) || ' ';
                    if (!comment)
                        comment = cb;
                    else
                        comment += sep + cb;
                    sep = '';
                    break;
                }
                case 'newline':
                    if (comment)
                        sep += source;
                    hasSpace = true;
                    break;
                default:
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${type} at node end`);
            }
            offset += source.length;
        }
    }
    return { comment, offset };
}

exports.resolveEnd = resolveEnd;


/***/ }),

/***/ 3142:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var resolveEnd = __nccwpck_require__(7788);
var resolveProps = __nccwpck_require__(4631);
var utilContainsNewline = __nccwpck_require__(9499);
var utilMapIncludes = __nccwpck_require__(1187);

const blockMsg = 'Block collections are not allowed within flow collections';
const isBlock = (token) => token && (token.type === 'block-map' || token.type === 'block-seq');
function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
    const isMap = fc.start.source === '{';
    const fcName = isMap ? 'flow map' : 'flow sequence';
    const NodeClass = (tag?.nodeClass ?? (isMap ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq));
    const coll = new NodeClass(ctx.schema);
    coll.flow = true;
    const atRoot = ctx.atRoot;
    if (atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = fc.offset + fc.start.source.length;
    for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps.resolveProps(start, {
            flow: fcName,
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
        });
        if (!props.found) {
            if (!props.anchor && !props.tag && !sep && !value) {
                if (i === 0 && props.comma)
                    onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
                else if (i < fc.items.length - 1)
                    onError(props.start, 'UNEXPECTED_TOKEN', `Unexpected empty item in ${fcName}`);
                if (props.comment) {
                    if (coll.comment)
                        coll.comment += '\n' + props.comment;
                    else
                        coll.comment = props.comment;
                }
                offset = props.end;
                continue;
            }
            if (!isMap && ctx.options.strict && utilContainsNewline.containsNewline(key))
                onError(key, // checked by containsNewline()
                'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
        }
        if (i === 0) {
            if (props.comma)
                onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
        }
        else {
            if (!props.comma)
                onError(props.start, 'MISSING_CHAR', `Missing , between ${fcName} items`);
            if (props.comment) {
                let prevItemComment = '';
                loop: for (const st of start) {
                    switch (st.type) {
                        case 'comma':
                        case 'space':
                            break;
                        case 'comment':
                            prevItemComment = st.source.substring(1);
                            break loop;
                        default:
                            break loop;
                    }
                }
                if (prevItemComment) {
                    let prev = coll.items[coll.items.length - 1];
                    if (identity.isPair(prev))
                        prev = prev.value ?? prev.key;
                    if (prev.comment)
                        prev.comment += '\n' + prevItemComment;
                    else
                        prev.comment = prevItemComment;
                    props.comment = props.comment.substring(prevItemComment.length + 1);
                }
            }
        }
        if (!isMap && !sep && !props.found) {
            // item is a value in a seq
            // → key & sep are empty, start does not include ? or :
            const valueNode = value
                ? composeNode(ctx, value, props, onError)
                : composeEmptyNode(ctx, props.end, sep, null, props, onError);
            coll.items.push(valueNode);
            offset = valueNode.range[2];
            if (isBlock(value))
                onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
        }
        else {
            // item is a key+value pair
            // key value
            ctx.atKey = true;
            const keyStart = props.end;
            const keyNode = key
                ? composeNode(ctx, key, props, onError)
                : composeEmptyNode(ctx, keyStart, start, null, props, onError);
            if (isBlock(key))
                onError(keyNode.range, 'BLOCK_IN_FLOW', blockMsg);
            ctx.atKey = false;
            // value properties
            const valueProps = resolveProps.resolveProps(sep ?? [], {
                flow: fcName,
                indicator: 'map-value-ind',
                next: value,
                offset: keyNode.range[2],
                onError,
                parentIndent: fc.indent,
                startOnNewline: false
            });
            if (valueProps.found) {
                if (!isMap && !props.found && ctx.options.strict) {
                    if (sep)
                        for (const st of sep) {
                            if (st === valueProps.found)
                                break;
                            if (st.type === 'newline') {
                                onError(st, 'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
                                break;
                            }
                        }
                    if (props.start < valueProps.found.offset - 1024)
                        onError(valueProps.found, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key');
                }
            }
            else if (value) {
                if ('source' in value && value.source?.[0] === ':')
                    onError(value, 'MISSING_CHAR', `Missing space after : in ${fcName}`);
                else
                    onError(valueProps.start, 'MISSING_CHAR', `Missing , or : between ${fcName} items`);
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : valueProps.found
                    ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError)
                    : null;
            if (valueNode) {
                if (isBlock(value))
                    onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
            }
            else if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair.Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            if (isMap) {
                const map = coll;
                if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
                    onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
                map.items.push(pair);
            }
            else {
                const map = new YAMLMap.YAMLMap(ctx.schema);
                map.flow = true;
                map.items.push(pair);
                const endRange = (valueNode ?? keyNode).range;
                map.range = [keyNode.range[0], endRange[1], endRange[2]];
                coll.items.push(map);
            }
            offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
    }
    const expectedEnd = isMap ? '}' : ']';
    const [ce, ...ee] = fc.end;
    let cePos = offset;
    if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
    else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot
            ? `${name} must end with a ${expectedEnd}`
            : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? 'MISSING_CHAR' : 'BAD_INDENT', msg);
        if (ce && ce.source.length !== 1)
            ee.unshift(ce);
    }
    if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
            if (coll.comment)
                coll.comment += '\n' + end.comment;
            else
                coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
    }
    else {
        coll.range = [fc.offset, cePos, cePos];
    }
    return coll;
}

exports.resolveFlowCollection = resolveFlowCollection;


/***/ }),

/***/ 6842:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var resolveEnd = __nccwpck_require__(7788);

function resolveFlowScalar(scalar, strict, onError) {
    const { offset, type, source, end } = scalar;
    let _type;
    let value;
    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
    switch (type) {
        case 'scalar':
            _type = Scalar.Scalar.PLAIN;
            value = plainValue(source, _onError);
            break;
        case 'single-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_SINGLE;
            value = singleQuotedValue(source, _onError);
            break;
        case 'double-quoted-scalar':
            _type = Scalar.Scalar.QUOTE_DOUBLE;
            value = doubleQuotedValue(source, _onError);
            break;
        /* istanbul ignore next should not happen */
        default:
            onError(scalar, 'UNEXPECTED_TOKEN', `Expected a flow scalar value, but found: ${type}`);
            return {
                value: '',
                type: null,
                comment: '',
                range: [offset, offset + source.length, offset + source.length]
            };
    }
    const valueEnd = offset + source.length;
    const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
    return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
    };
}
function plainValue(source, onError) {
    let badChar = '';
    switch (source[0]) {
        /* istanbul ignore next should not happen */
        case '\t':
            badChar = 'a tab character';
            break;
        case ',':
            badChar = 'flow indicator character ,';
            break;
        case '%':
            badChar = 'directive indicator character %';
            break;
        case '|':
        case '>': {
            badChar = `block scalar indicator ${source[0]}`;
            break;
        }
        case '@':
        case '`': {
            badChar = `reserved character ${source[0]}`;
            break;
        }
    }
    if (badChar)
        onError(0, 'BAD_SCALAR_START', `Plain value cannot start with ${badChar}`);
    return unfoldLines(source);
}
function singleQuotedValue(source, onError) {
    if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, 'MISSING_CHAR', "Missing closing 'quote");
    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
}
function unfoldLines(source) {
    const line = /(.*?)\r?\n/sy;
    let match = line.exec(source);
    if (!match)
        return source;
    /**
     * The negative lookbehinds in these RegExps are to
     * prevent causing a polynomial search time in certain cases.
     *
     * The try-catch is for Safari < 16.4 and other old browsers:
     * https://caniuse.com/js-regexp-lookbehind
     */
    let trimEnd, trimBoth;
    try {
        trimEnd = new RegExp('(?<![ \t])[ \t]+$');
        trimBoth = new RegExp('^[ \t]+|(?<![ \t])[ \t]+$', 'g');
    }
    catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
    }
    let res = match[1].replace(trimEnd, '');
    let sep = ' ';
    let pos = line.lastIndex;
    while ((match = line.exec(source))) {
        const lm = match[1].replace(trimBoth, '');
        if (lm === '') {
            if (sep === '\n')
                res += sep;
            else
                sep = '\n';
        }
        else {
            res += sep + lm;
            sep = ' ';
        }
        pos = line.lastIndex;
    }
    const last = /[ \t]*(.*)/sy;
    last.lastIndex = pos;
    match = last.exec(source);
    return res + sep + (match?.[1] ?? '');
}
function doubleQuotedValue(source, onError) {
    let res = '';
    for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === '\r' && source[i + 1] === '\n')
            continue;
        if (ch === '\n') {
            const { fold, offset } = foldNewline(source, i);
            res += fold;
            i = offset;
        }
        else if (ch === '\\') {
            let next = source[++i];
            const cc = escapeCodes[next];
            if (cc)
                res += cc;
            else if (next === '\n') {
                // skip escaped newlines, but still trim the following line
                next = source[i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === '\r' && source[i + 1] === '\n') {
                // skip escaped CRLF newlines, but still trim the following line
                next = source[++i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === 'x' || next === 'u' || next === 'U') {
                const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
                res += parseCharCode(source, i + 1, length, onError);
                i += length;
            }
            else {
                const raw = source.substr(i - 1, 2);
                onError(i - 1, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
                res += raw;
            }
        }
        else if (ch === ' ' || ch === '\t') {
            // trim trailing whitespace
            const wsStart = i;
            let next = source[i + 1];
            while (next === ' ' || next === '\t')
                next = source[++i + 1];
            if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n'))
                res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        }
        else {
            res += ch;
        }
    }
    if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, 'MISSING_CHAR', 'Missing closing "quote');
    return res;
}
/**
 * Fold a single newline into a space, multiple newlines to N - 1 newlines.
 * Presumes `source[offset] === '\n'`
 */
function foldNewline(source, offset) {
    let fold = '';
    let ch = source[offset + 1];
    while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        if (ch === '\r' && source[offset + 2] !== '\n')
            break;
        if (ch === '\n')
            fold += '\n';
        offset += 1;
        ch = source[offset + 1];
    }
    if (!fold)
        fold = ' ';
    return { fold, offset };
}
const escapeCodes = {
    '0': '\0', // null character
    a: '\x07', // bell character
    b: '\b', // backspace
    e: '\x1b', // escape character
    f: '\f', // form feed
    n: '\n', // line feed
    r: '\r', // carriage return
    t: '\t', // horizontal tab
    v: '\v', // vertical tab
    N: '\u0085', // Unicode next line
    _: '\u00a0', // Unicode non-breaking space
    L: '\u2028', // Unicode line separator
    P: '\u2029', // Unicode paragraph separator
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    '\t': '\t'
};
function parseCharCode(source, offset, length, onError) {
    const cc = source.substr(offset, length);
    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
    const code = ok ? parseInt(cc, 16) : NaN;
    try {
        return String.fromCodePoint(code);
    }
    catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
        return raw;
    }
}

exports.resolveFlowScalar = resolveFlowScalar;


/***/ }),

/***/ 4631:
/***/ ((__unused_webpack_module, exports) => {



function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
    let spaceBefore = false;
    let atNewline = startOnNewline;
    let hasSpace = startOnNewline;
    let comment = '';
    let commentSep = '';
    let hasNewline = false;
    let reqSpace = false;
    let tab = null;
    let anchor = null;
    let tag = null;
    let newlineAfterProp = null;
    let comma = null;
    let found = null;
    let start = null;
    for (const token of tokens) {
        if (reqSpace) {
            if (token.type !== 'space' &&
                token.type !== 'newline' &&
                token.type !== 'comma')
                onError(token.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
            reqSpace = false;
        }
        if (tab) {
            if (atNewline && token.type !== 'comment' && token.type !== 'newline') {
                onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
            }
            tab = null;
        }
        switch (token.type) {
            case 'space':
                // At the doc level, tabs at line start may be parsed
                // as leading white space rather than indentation.
                // In a flow collection, only the parser handles indent.
                if (!flow &&
                    (indicator !== 'doc-start' || next?.type !== 'flow-collection') &&
                    token.source.includes('\t')) {
                    tab = token;
                }
                hasSpace = true;
                break;
            case 'comment': {
                if (!hasSpace)
                    onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                const cb = token.source.substring(1) || ' ';
                if (!comment)
                    comment = cb;
                else
                    comment += commentSep + cb;
                commentSep = '';
                atNewline = false;
                break;
            }
            case 'newline':
                if (atNewline) {
                    if (comment)
                        comment += token.source;
                    else if (!found || indicator !== 'seq-item-ind')
                        spaceBefore = true;
                }
                else
                    commentSep += token.source;
                atNewline = true;
                hasNewline = true;
                if (anchor || tag)
                    newlineAfterProp = token;
                hasSpace = true;
                break;
            case 'anchor':
                if (anchor)
                    onError(token, 'MULTIPLE_ANCHORS', 'A node can have at most one anchor');
                if (token.source.endsWith(':'))
                    onError(token.offset + token.source.length - 1, 'BAD_ALIAS', 'Anchor ending in : is ambiguous', true);
                anchor = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            case 'tag': {
                if (tag)
                    onError(token, 'MULTIPLE_TAGS', 'A node can have at most one tag');
                tag = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            }
            case indicator:
                // Could here handle preceding comments differently
                if (anchor || tag)
                    onError(token, 'BAD_PROP_ORDER', `Anchors and tags must be after the ${token.source} indicator`);
                if (found)
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.source} in ${flow ?? 'collection'}`);
                found = token;
                atNewline =
                    indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
                hasSpace = false;
                break;
            case 'comma':
                if (flow) {
                    if (comma)
                        onError(token, 'UNEXPECTED_TOKEN', `Unexpected , in ${flow}`);
                    comma = token;
                    atNewline = false;
                    hasSpace = false;
                    break;
                }
            // else fallthrough
            default:
                onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.type} token`);
                atNewline = false;
                hasSpace = false;
        }
    }
    const last = tokens[tokens.length - 1];
    const end = last ? last.offset + last.source.length : offset;
    if (reqSpace &&
        next &&
        next.type !== 'space' &&
        next.type !== 'newline' &&
        next.type !== 'comma' &&
        (next.type !== 'scalar' || next.source !== '')) {
        onError(next.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
    }
    if (tab &&
        ((atNewline && tab.indent <= parentIndent) ||
            next?.type === 'block-map' ||
            next?.type === 'block-seq'))
        onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
    return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
    };
}

exports.resolveProps = resolveProps;


/***/ }),

/***/ 9499:
/***/ ((__unused_webpack_module, exports) => {



function containsNewline(key) {
    if (!key)
        return null;
    switch (key.type) {
        case 'alias':
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            if (key.source.includes('\n'))
                return true;
            if (key.end)
                for (const st of key.end)
                    if (st.type === 'newline')
                        return true;
            return false;
        case 'flow-collection':
            for (const it of key.items) {
                for (const st of it.start)
                    if (st.type === 'newline')
                        return true;
                if (it.sep)
                    for (const st of it.sep)
                        if (st.type === 'newline')
                            return true;
                if (containsNewline(it.key) || containsNewline(it.value))
                    return true;
            }
            return false;
        default:
            return true;
    }
}

exports.containsNewline = containsNewline;


/***/ }),

/***/ 2599:
/***/ ((__unused_webpack_module, exports) => {



function emptyScalarPosition(offset, before, pos) {
    if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
            let st = before[i];
            switch (st.type) {
                case 'space':
                case 'comment':
                case 'newline':
                    offset -= st.source.length;
                    continue;
            }
            // Technically, an empty scalar is immediately after the last non-empty
            // node, but it's more useful to place it after any whitespace.
            st = before[++i];
            while (st?.type === 'space') {
                offset += st.source.length;
                st = before[++i];
            }
            break;
        }
    }
    return offset;
}

exports.emptyScalarPosition = emptyScalarPosition;


/***/ }),

/***/ 4051:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var utilContainsNewline = __nccwpck_require__(9499);

function flowIndentCheck(indent, fc, onError) {
    if (fc?.type === 'flow-collection') {
        const end = fc.end[0];
        if (end.indent === indent &&
            (end.source === ']' || end.source === '}') &&
            utilContainsNewline.containsNewline(fc)) {
            const msg = 'Flow end indicator should be more indented than parent';
            onError(end, 'BAD_INDENT', msg, true);
        }
    }
}

exports.flowIndentCheck = flowIndentCheck;


/***/ }),

/***/ 1187:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

function mapIncludes(ctx, items, search) {
    const { uniqueKeys } = ctx.options;
    if (uniqueKeys === false)
        return false;
    const isEqual = typeof uniqueKeys === 'function'
        ? uniqueKeys
        : (a, b) => a === b || (identity.isScalar(a) && identity.isScalar(b) && a.value === b.value);
    return items.some(pair => isEqual(pair.key, search));
}

exports.mapIncludes = mapIncludes;


/***/ }),

/***/ 3021:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var toJS = __nccwpck_require__(4043);
var Schema = __nccwpck_require__(5840);
var stringifyDocument = __nccwpck_require__(6829);
var anchors = __nccwpck_require__(1596);
var applyReviver = __nccwpck_require__(3661);
var createNode = __nccwpck_require__(2404);
var directives = __nccwpck_require__(1342);

class Document {
    constructor(value, replacer, options) {
        /** A comment before this Document */
        this.commentBefore = null;
        /** A comment immediately after this Document */
        this.comment = null;
        /** Errors encountered during parsing. */
        this.errors = [];
        /** Warnings encountered during parsing. */
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === 'function' || Array.isArray(replacer)) {
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const opt = Object.assign({
            intAsBigInt: false,
            keepSourceTokens: false,
            logLevel: 'warn',
            prettyErrors: true,
            strict: true,
            stringKeys: false,
            uniqueKeys: true,
            version: '1.2'
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
            this.directives = options._directives.atDocument();
            if (this.directives.yaml.explicit)
                version = this.directives.yaml.version;
        }
        else
            this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        // @ts-expect-error We can't really know that this matches Contents.
        this.contents =
            value === undefined ? null : this.createNode(value, _replacer, options);
    }
    /**
     * Create a deep copy of this Document and its contents.
     *
     * Custom Node values that inherit from `Object` still refer to their original instances.
     */
    clone() {
        const copy = Object.create(Document.prototype, {
            [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
            copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        // @ts-expect-error We can't really know that this matches Contents.
        copy.contents = identity.isNode(this.contents)
            ? this.contents.clone(copy.schema)
            : this.contents;
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** Adds a value to the document. */
    add(value) {
        if (assertCollection(this.contents))
            this.contents.add(value);
    }
    /** Adds a value to the document. */
    addIn(path, value) {
        if (assertCollection(this.contents))
            this.contents.addIn(path, value);
    }
    /**
     * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
     *
     * If `node` already has an anchor, `name` is ignored.
     * Otherwise, the `node.anchor` value will be set to `name`,
     * or if an anchor with that name is already present in the document,
     * `name` will be used as a prefix for a new unique anchor.
     * If `name` is undefined, the generated anchor will use 'a' as a prefix.
     */
    createAlias(node, name) {
        if (!node.anchor) {
            const prev = anchors.anchorNames(this);
            node.anchor =
                // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
                !name || prev.has(name) ? anchors.findNewAnchor(name || 'a', prev) : name;
        }
        return new Alias.Alias(node.anchor);
    }
    createNode(value, replacer, options) {
        let _replacer = undefined;
        if (typeof replacer === 'function') {
            value = replacer.call({ '': value }, '', value);
            _replacer = replacer;
        }
        else if (Array.isArray(replacer)) {
            const keyToStr = (v) => typeof v === 'number' || v instanceof String || v instanceof Number;
            const asStr = replacer.filter(keyToStr).map(String);
            if (asStr.length > 0)
                replacer = replacer.concat(asStr);
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(this, 
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        anchorPrefix || 'a');
        const ctx = {
            aliasDuplicateObjects: aliasDuplicateObjects ?? true,
            keepUndefined: keepUndefined ?? false,
            onAnchor,
            onTagObj,
            replacer: _replacer,
            schema: this.schema,
            sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
            node.flow = true;
        setAnchors();
        return node;
    }
    /**
     * Convert a key and a value into a `Pair` using the current schema,
     * recursively wrapping all values as `Scalar` or `Collection` nodes.
     */
    createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
            if (this.contents == null)
                return false;
            // @ts-expect-error Presumed impossible if Strict extends false
            this.contents = null;
            return true;
        }
        return assertCollection(this.contents)
            ? this.contents.deleteIn(path)
            : false;
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    get(key, keepScalar) {
        return identity.isCollection(this.contents)
            ? this.contents.get(key, keepScalar)
            : undefined;
    }
    /**
     * Returns item at `path`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
            return !keepScalar && identity.isScalar(this.contents)
                ? this.contents.value
                : this.contents;
        return identity.isCollection(this.contents)
            ? this.contents.getIn(path, keepScalar)
            : undefined;
    }
    /**
     * Checks if the document includes a value with the key `key`.
     */
    has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
    }
    /**
     * Checks if the document includes a value at `path`.
     */
    hasIn(path) {
        if (Collection.isEmptyPath(path))
            return this.contents !== undefined;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    set(key, value) {
        if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, [key], value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.set(key, value);
        }
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = value;
        }
        else if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.setIn(path, value);
        }
    }
    /**
     * Change the YAML version and schema used by the document.
     * A `null` version disables support for directives, explicit tags, anchors, and aliases.
     * It also requires the `schema` option to be given as a `Schema` instance value.
     *
     * Overrides all previously set schema options.
     */
    setSchema(version, options = {}) {
        if (typeof version === 'number')
            version = String(version);
        let opt;
        switch (version) {
            case '1.1':
                if (this.directives)
                    this.directives.yaml.version = '1.1';
                else
                    this.directives = new directives.Directives({ version: '1.1' });
                opt = { resolveKnownTags: false, schema: 'yaml-1.1' };
                break;
            case '1.2':
            case 'next':
                if (this.directives)
                    this.directives.yaml.version = version;
                else
                    this.directives = new directives.Directives({ version });
                opt = { resolveKnownTags: true, schema: 'core' };
                break;
            case null:
                if (this.directives)
                    delete this.directives;
                opt = null;
                break;
            default: {
                const sv = JSON.stringify(version);
                throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
            }
        }
        // Not using `instanceof Schema` to allow for duck typing
        if (options.schema instanceof Object)
            this.schema = options.schema;
        else if (opt)
            this.schema = new Schema.Schema(Object.assign(opt, options));
        else
            throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
    }
    // json & jsonArg are only used from toJSON()
    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
            anchors: new Map(),
            doc: this,
            keep: !json,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
    /**
     * A JSON representation of the document `contents`.
     *
     * @param jsonArg Used by `JSON.stringify` to indicate the array index or
     *   property name.
     */
    toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
    }
    /** A YAML representation of the document. */
    toString(options = {}) {
        if (this.errors.length > 0)
            throw new Error('Document with errors cannot be stringified');
        if ('indent' in options &&
            (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
            const s = JSON.stringify(options.indent);
            throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
    }
}
function assertCollection(contents) {
    if (identity.isCollection(contents))
        return true;
    throw new Error('Expected a YAML collection as document contents');
}

exports.Document = Document;


/***/ }),

/***/ 1596:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

/**
 * Verify that the input string is a valid anchor.
 *
 * Will throw on errors.
 */
function anchorIsValid(anchor) {
    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
    }
    return true;
}
function anchorNames(root) {
    const anchors = new Set();
    visit.visit(root, {
        Value(_key, node) {
            if (node.anchor)
                anchors.add(node.anchor);
        }
    });
    return anchors;
}
/** Find a new anchor name with the given `prefix` and a one-indexed suffix. */
function findNewAnchor(prefix, exclude) {
    for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
            return name;
    }
}
function createNodeAnchors(doc, prefix) {
    const aliasObjects = [];
    const sourceObjects = new Map();
    let prevAnchors = null;
    return {
        onAnchor: (source) => {
            aliasObjects.push(source);
            prevAnchors ?? (prevAnchors = anchorNames(doc));
            const anchor = findNewAnchor(prefix, prevAnchors);
            prevAnchors.add(anchor);
            return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
            for (const source of aliasObjects) {
                const ref = sourceObjects.get(source);
                if (typeof ref === 'object' &&
                    ref.anchor &&
                    (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
                    ref.node.anchor = ref.anchor;
                }
                else {
                    const error = new Error('Failed to resolve repeated object (this should not happen)');
                    error.source = source;
                    throw error;
                }
            }
        },
        sourceObjects
    };
}

exports.anchorIsValid = anchorIsValid;
exports.anchorNames = anchorNames;
exports.createNodeAnchors = createNodeAnchors;
exports.findNewAnchor = findNewAnchor;


/***/ }),

/***/ 3661:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Applies the JSON.parse reviver algorithm as defined in the ECMA-262 spec,
 * in section 24.5.1.1 "Runtime Semantics: InternalizeJSONProperty" of the
 * 2021 edition: https://tc39.es/ecma262/#sec-json.parse
 *
 * Includes extensions for handling Map and Set objects.
 */
function applyReviver(reviver, obj, key, val) {
    if (val && typeof val === 'object') {
        if (Array.isArray(val)) {
            for (let i = 0, len = val.length; i < len; ++i) {
                const v0 = val[i];
                const v1 = applyReviver(reviver, val, String(i), v0);
                // eslint-disable-next-line @typescript-eslint/no-array-delete
                if (v1 === undefined)
                    delete val[i];
                else if (v1 !== v0)
                    val[i] = v1;
            }
        }
        else if (val instanceof Map) {
            for (const k of Array.from(val.keys())) {
                const v0 = val.get(k);
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    val.delete(k);
                else if (v1 !== v0)
                    val.set(k, v1);
            }
        }
        else if (val instanceof Set) {
            for (const v0 of Array.from(val)) {
                const v1 = applyReviver(reviver, val, v0, v0);
                if (v1 === undefined)
                    val.delete(v0);
                else if (v1 !== v0) {
                    val.delete(v0);
                    val.add(v1);
                }
            }
        }
        else {
            for (const [k, v0] of Object.entries(val)) {
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    delete val[k];
                else if (v1 !== v0)
                    val[k] = v1;
            }
        }
    }
    return reviver.call(obj, key, val);
}

exports.applyReviver = applyReviver;


/***/ }),

/***/ 2404:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

const defaultTagPrefix = 'tag:yaml.org,2002:';
function findTagObject(value, tagName, tags) {
    if (tagName) {
        const match = tags.filter(t => t.tag === tagName);
        const tagObj = match.find(t => !t.format) ?? match[0];
        if (!tagObj)
            throw new Error(`Tag ${tagName} not found`);
        return tagObj;
    }
    return tags.find(t => t.identify?.(value) && !t.format);
}
function createNode(value, tagName, ctx) {
    if (identity.isDocument(value))
        value = value.contents;
    if (identity.isNode(value))
        return value;
    if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
    }
    if (value instanceof String ||
        value instanceof Number ||
        value instanceof Boolean ||
        (typeof BigInt !== 'undefined' && value instanceof BigInt) // not supported everywhere
    ) {
        // https://tc39.es/ecma262/#sec-serializejsonproperty
        value = value.valueOf();
    }
    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
    // Detect duplicate references to the same object & use Alias nodes for all
    // after first. The `ref` wrapper allows for circular references to resolve.
    let ref = undefined;
    if (aliasDuplicateObjects && value && typeof value === 'object') {
        ref = sourceObjects.get(value);
        if (ref) {
            ref.anchor ?? (ref.anchor = onAnchor(value));
            return new Alias.Alias(ref.anchor);
        }
        else {
            ref = { anchor: null, node: null };
            sourceObjects.set(value, ref);
        }
    }
    if (tagName?.startsWith('!!'))
        tagName = defaultTagPrefix + tagName.slice(2);
    let tagObj = findTagObject(value, tagName, schema.tags);
    if (!tagObj) {
        if (value && typeof value.toJSON === 'function') {
            // eslint-disable-next-line @typescript-eslint/no-unsafe-call
            value = value.toJSON();
        }
        if (!value || typeof value !== 'object') {
            const node = new Scalar.Scalar(value);
            if (ref)
                ref.node = node;
            return node;
        }
        tagObj =
            value instanceof Map
                ? schema[identity.MAP]
                : Symbol.iterator in Object(value)
                    ? schema[identity.SEQ]
                    : schema[identity.MAP];
    }
    if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
    }
    const node = tagObj?.createNode
        ? tagObj.createNode(ctx.schema, value, ctx)
        : typeof tagObj?.nodeClass?.from === 'function'
            ? tagObj.nodeClass.from(ctx.schema, value, ctx)
            : new Scalar.Scalar(value);
    if (tagName)
        node.tag = tagName;
    else if (!tagObj.default)
        node.tag = tagObj.tag;
    if (ref)
        ref.node = node;
    return node;
}

exports.createNode = createNode;


/***/ }),

/***/ 1342:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var visit = __nccwpck_require__(204);

const escapeChars = {
    '!': '%21',
    ',': '%2C',
    '[': '%5B',
    ']': '%5D',
    '{': '%7B',
    '}': '%7D'
};
const escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, ch => escapeChars[ch]);
class Directives {
    constructor(yaml, tags) {
        /**
         * The directives-end/doc-start marker `---`. If `null`, a marker may still be
         * included in the document's stringified representation.
         */
        this.docStart = null;
        /** The doc-end marker `...`.  */
        this.docEnd = false;
        this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, Directives.defaultTags, tags);
    }
    clone() {
        const copy = new Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
    }
    /**
     * During parsing, get a Directives instance for the current document and
     * update the stream state according to the current version's spec.
     */
    atDocument() {
        const res = new Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
            case '1.1':
                this.atNextDocument = true;
                break;
            case '1.2':
                this.atNextDocument = false;
                this.yaml = {
                    explicit: Directives.defaultYaml.explicit,
                    version: '1.2'
                };
                this.tags = Object.assign({}, Directives.defaultTags);
                break;
        }
        return res;
    }
    /**
     * @param onError - May be called even if the action was successful
     * @returns `true` on success
     */
    add(line, onError) {
        if (this.atNextDocument) {
            this.yaml = { explicit: Directives.defaultYaml.explicit, version: '1.1' };
            this.tags = Object.assign({}, Directives.defaultTags);
            this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
            case '%TAG': {
                if (parts.length !== 2) {
                    onError(0, '%TAG directive should contain exactly two parts');
                    if (parts.length < 2)
                        return false;
                }
                const [handle, prefix] = parts;
                this.tags[handle] = prefix;
                return true;
            }
            case '%YAML': {
                this.yaml.explicit = true;
                if (parts.length !== 1) {
                    onError(0, '%YAML directive should contain exactly one part');
                    return false;
                }
                const [version] = parts;
                if (version === '1.1' || version === '1.2') {
                    this.yaml.version = version;
                    return true;
                }
                else {
                    const isValid = /^\d+\.\d+$/.test(version);
                    onError(6, `Unsupported YAML version ${version}`, isValid);
                    return false;
                }
            }
            default:
                onError(0, `Unknown directive ${name}`, true);
                return false;
        }
    }
    /**
     * Resolves a tag, matching handles to those defined in %TAG directives.
     *
     * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
     *   `'!local'` tag, or `null` if unresolvable.
     */
    tagName(source, onError) {
        if (source === '!')
            return '!'; // non-specific tag
        if (source[0] !== '!') {
            onError(`Not a valid tag: ${source}`);
            return null;
        }
        if (source[1] === '<') {
            const verbatim = source.slice(2, -1);
            if (verbatim === '!' || verbatim === '!!') {
                onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
                return null;
            }
            if (source[source.length - 1] !== '>')
                onError('Verbatim tags must end with a >');
            return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
            onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
            try {
                return prefix + decodeURIComponent(suffix);
            }
            catch (error) {
                onError(String(error));
                return null;
            }
        }
        if (handle === '!')
            return source; // local tag
        onError(`Could not resolve tag: ${source}`);
        return null;
    }
    /**
     * Given a fully resolved tag, returns its printable string form,
     * taking into account current tag prefixes and defaults.
     */
    tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
            if (tag.startsWith(prefix))
                return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === '!' ? tag : `!<${tag}>`;
    }
    toString(doc) {
        const lines = this.yaml.explicit
            ? [`%YAML ${this.yaml.version || '1.2'}`]
            : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
            const tags = {};
            visit.visit(doc.contents, (_key, node) => {
                if (identity.isNode(node) && node.tag)
                    tags[node.tag] = true;
            });
            tagNames = Object.keys(tags);
        }
        else
            tagNames = [];
        for (const [handle, prefix] of tagEntries) {
            if (handle === '!!' && prefix === 'tag:yaml.org,2002:')
                continue;
            if (!doc || tagNames.some(tn => tn.startsWith(prefix)))
                lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join('\n');
    }
}
Directives.defaultYaml = { explicit: false, version: '1.2' };
Directives.defaultTags = { '!!': 'tag:yaml.org,2002:' };

exports.Directives = Directives;


/***/ }),

/***/ 1464:
/***/ ((__unused_webpack_module, exports) => {



class YAMLError extends Error {
    constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
    }
}
class YAMLParseError extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLParseError', pos, code, message);
    }
}
class YAMLWarning extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLWarning', pos, code, message);
    }
}
const prettifyError = (src, lc) => (error) => {
    if (error.pos[0] === -1)
        return;
    error.linePos = error.pos.map(pos => lc.linePos(pos));
    const { line, col } = error.linePos[0];
    error.message += ` at line ${line}, column ${col}`;
    let ci = col - 1;
    let lineStr = src
        .substring(lc.lineStarts[line - 1], lc.lineStarts[line])
        .replace(/[\n\r]+$/, '');
    // Trim to max 80 chars, keeping col position near the middle
    if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = '…' + lineStr.substring(trimStart);
        ci -= trimStart - 1;
    }
    if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + '…';
    // Include previous line in context if pointing at line start
    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        // Regexp won't match if start is trimmed
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
            prev = prev.substring(0, 79) + '…\n';
        lineStr = prev + lineStr;
    }
    if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
            count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = ' '.repeat(ci) + '^'.repeat(count);
        error.message += `:\n\n${lineStr}\n${pointer}\n`;
    }
};

exports.YAMLError = YAMLError;
exports.YAMLParseError = YAMLParseError;
exports.YAMLWarning = YAMLWarning;
exports.prettifyError = prettifyError;


/***/ }),

/***/ 8815:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

var __webpack_unused_export__;


var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var Schema = __nccwpck_require__(5840);
var errors = __nccwpck_require__(1464);
var Alias = __nccwpck_require__(4065);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);
var publicApi = __nccwpck_require__(4047);
var visit = __nccwpck_require__(204);



__webpack_unused_export__ = composer.Composer;
__webpack_unused_export__ = Document.Document;
__webpack_unused_export__ = Schema.Schema;
__webpack_unused_export__ = errors.YAMLError;
__webpack_unused_export__ = errors.YAMLParseError;
__webpack_unused_export__ = errors.YAMLWarning;
__webpack_unused_export__ = Alias.Alias;
exports.Vj = identity.isAlias;
__webpack_unused_export__ = identity.isCollection;
__webpack_unused_export__ = identity.isDocument;
exports.jh = identity.isMap;
exports.Ll = identity.isNode;
exports.tO = identity.isPair;
exports.jn = identity.isScalar;
exports.oP = identity.isSeq;
__webpack_unused_export__ = Pair.Pair;
__webpack_unused_export__ = Scalar.Scalar;
__webpack_unused_export__ = YAMLMap.YAMLMap;
exports.Rw = YAMLSeq.YAMLSeq;
__webpack_unused_export__ = cst;
__webpack_unused_export__ = lexer.Lexer;
exports.HN = lineCounter.LineCounter;
__webpack_unused_export__ = parser.Parser;
__webpack_unused_export__ = publicApi.parse;
exports.hR = publicApi.parseAllDocuments;
exports.Tp = publicApi.parseDocument;
__webpack_unused_export__ = publicApi.stringify;
__webpack_unused_export__ = visit.visit;
__webpack_unused_export__ = visit.visitAsync;


/***/ }),

/***/ 7249:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);

function debug(logLevel, ...messages) {
    if (logLevel === 'debug')
        console.log(...messages);
}
function warn(logLevel, warning) {
    if (logLevel === 'debug' || logLevel === 'warn') {
        if (typeof node_process.emitWarning === 'function')
            node_process.emitWarning(warning);
        else
            console.warn(warning);
    }
}

exports.debug = debug;
exports.warn = warn;


/***/ }),

/***/ 4065:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var visit = __nccwpck_require__(204);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

class Alias extends Node.NodeBase {
    constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, 'tag', {
            set() {
                throw new Error('Alias nodes cannot have tags');
            }
        });
    }
    /**
     * Resolve the value of this alias within `doc`, finding the last
     * instance of the `source` anchor before this node.
     */
    resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
            throw new ReferenceError('Alias resolution is disabled');
        let nodes;
        if (ctx?.aliasResolveCache) {
            nodes = ctx.aliasResolveCache;
        }
        else {
            nodes = [];
            visit.visit(doc, {
                Node: (_key, node) => {
                    if (identity.isAlias(node) || identity.hasAnchor(node))
                        nodes.push(node);
                }
            });
            if (ctx)
                ctx.aliasResolveCache = nodes;
        }
        let found = undefined;
        for (const node of nodes) {
            if (node === this)
                break;
            if (node.anchor === this.source)
                found = node;
        }
        if (found && ctx) {
            const { anchors, doc, maxAliasCount } = ctx;
            let data = anchors.get(found);
            if (!data) {
                // Resolve anchors for Node.prototype.toJS()
                toJS.toJS(found, null, ctx);
                data = anchors.get(found);
            }
            /* istanbul ignore if */
            if (data?.res === undefined) {
                const msg = 'This should not happen: Alias anchor was not resolved?';
                throw new ReferenceError(msg);
            }
            if (maxAliasCount >= 0) {
                data.count += 1;
                if (data.aliasCount === 0)
                    data.aliasCount = getAliasCount(doc, found, anchors);
                if (data.count * data.aliasCount > maxAliasCount) {
                    const msg = 'Excessive alias count indicates a resource exhaustion attack';
                    throw new ReferenceError(msg);
                }
            }
        }
        return found;
    }
    toJSON(_arg, ctx) {
        if (!ctx)
            return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
    }
    toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
            anchors.anchorIsValid(this.source);
            if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
                const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
                throw new Error(msg);
            }
            if (ctx.implicitKey)
                return `${src} `;
        }
        return src;
    }
}
function getAliasCount(doc, node, anchors) {
    if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors && source && anchors.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
    }
    else if (identity.isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
            const c = getAliasCount(doc, item, anchors);
            if (c > count)
                count = c;
        }
        return count;
    }
    else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors);
        const vc = getAliasCount(doc, node.value, anchors);
        return Math.max(kc, vc);
    }
    return 1;
}

exports.Alias = Alias;


/***/ }),

/***/ 101:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);

function collectionFromPath(schema, path, value) {
    let v = value;
    for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === 'number' && Number.isInteger(k) && k >= 0) {
            const a = [];
            a[k] = v;
            v = a;
        }
        else {
            v = new Map([[k, v]]);
        }
    }
    return createNode.createNode(v, undefined, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
            throw new Error('This should not happen, please report a bug.');
        },
        schema,
        sourceObjects: new Map()
    });
}
// Type guard is intentionally a little wrong so as to be more useful,
// as it does not cover untypable empty non-string iterables (e.g. []).
const isEmptyPath = (path) => path == null ||
    (typeof path === 'object' && !!path[Symbol.iterator]().next().done);
class Collection extends Node.NodeBase {
    constructor(type, schema) {
        super(type);
        Object.defineProperty(this, 'schema', {
            value: schema,
            configurable: true,
            enumerable: false,
            writable: true
        });
    }
    /**
     * Create a copy of this collection.
     *
     * @param schema - If defined, overwrites the original's schema
     */
    clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
            copy.schema = schema;
        copy.items = copy.items.map(it => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /**
     * Adds a value to the collection. For `!!map` and `!!omap` the value must
     * be a Pair instance or a `{ key, value }` object, which may not have a key
     * that already exists in the map.
     */
    addIn(path, value) {
        if (isEmptyPath(path))
            this.add(value);
        else {
            const [key, ...rest] = path;
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.addIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
    /**
     * Removes a value from the collection.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
            return node.deleteIn(rest);
        else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
            return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
            return identity.isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
    }
    hasAllNullValues(allowScalar) {
        return this.items.every(node => {
            if (!identity.isPair(node))
                return false;
            const n = node.value;
            return (n == null ||
                (allowScalar &&
                    identity.isScalar(n) &&
                    n.value == null &&
                    !n.commentBefore &&
                    !n.comment &&
                    !n.tag));
        });
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     */
    hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
            this.set(key, value);
        }
        else {
            const node = this.get(key, true);
            if (identity.isCollection(node))
                node.setIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
}

exports.Collection = Collection;
exports.collectionFromPath = collectionFromPath;
exports.isEmptyPath = isEmptyPath;


/***/ }),

/***/ 6673:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var applyReviver = __nccwpck_require__(3661);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

class NodeBase {
    constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
    }
    /** Create a copy of this node.  */
    clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** A plain JavaScript representation of this node. */
    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
            throw new TypeError('A document argument is required');
        const ctx = {
            anchors: new Map(),
            doc,
            keep: true,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver.applyReviver(reviver, { '': res }, '', res)
            : res;
    }
}

exports.NodeBase = NodeBase;


/***/ }),

/***/ 7165:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyPair = __nccwpck_require__(9748);
var addPairToJSMap = __nccwpck_require__(7104);
var identity = __nccwpck_require__(1127);

function createPair(key, value, ctx) {
    const k = createNode.createNode(key, undefined, ctx);
    const v = createNode.createNode(value, undefined, ctx);
    return new Pair(k, v);
}
class Pair {
    constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
    }
    clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
            key = key.clone(schema);
        if (identity.isNode(value))
            value = value.clone(schema);
        return new Pair(key, value);
    }
    toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
    }
    toString(ctx, onComment, onChompKeep) {
        return ctx?.doc
            ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep)
            : JSON.stringify(this);
    }
}

exports.Pair = Pair;
exports.createPair = createPair;


/***/ }),

/***/ 3301:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Node = __nccwpck_require__(6673);
var toJS = __nccwpck_require__(4043);

const isScalarValue = (value) => !value || (typeof value !== 'function' && typeof value !== 'object');
class Scalar extends Node.NodeBase {
    constructor(value) {
        super(identity.SCALAR);
        this.value = value;
    }
    toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
    }
    toString() {
        return String(this.value);
    }
}
Scalar.BLOCK_FOLDED = 'BLOCK_FOLDED';
Scalar.BLOCK_LITERAL = 'BLOCK_LITERAL';
Scalar.PLAIN = 'PLAIN';
Scalar.QUOTE_DOUBLE = 'QUOTE_DOUBLE';
Scalar.QUOTE_SINGLE = 'QUOTE_SINGLE';

exports.Scalar = Scalar;
exports.isScalarValue = isScalarValue;


/***/ }),

/***/ 4454:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyCollection = __nccwpck_require__(1212);
var addPairToJSMap = __nccwpck_require__(7104);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);

function findPair(items, key) {
    const k = identity.isScalar(key) ? key.value : key;
    for (const it of items) {
        if (identity.isPair(it)) {
            if (it.key === key || it.key === k)
                return it;
            if (identity.isScalar(it.key) && it.key.value === k)
                return it;
        }
    }
    return undefined;
}
class YAMLMap extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:map';
    }
    constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
    }
    /**
     * A generic collection parsing method that can be extended
     * to other node classes that inherit from YAMLMap
     */
    static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
            if (typeof replacer === 'function')
                value = replacer.call(obj, key, value);
            else if (Array.isArray(replacer) && !replacer.includes(key))
                return;
            if (value !== undefined || keepUndefined)
                map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
            for (const [key, value] of obj)
                add(key, value);
        }
        else if (obj && typeof obj === 'object') {
            for (const key of Object.keys(obj))
                add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === 'function') {
            map.items.sort(schema.sortMapEntries);
        }
        return map;
    }
    /**
     * Adds a value to the collection.
     *
     * @param overwrite - If not set `true`, using a key that is already in the
     *   collection will throw. Otherwise, overwrites the previous value.
     */
    add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
            _pair = pair;
        else if (!pair || typeof pair !== 'object' || !('key' in pair)) {
            // In TypeScript, this never happens.
            _pair = new Pair.Pair(pair, pair?.value);
        }
        else
            _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
            if (!overwrite)
                throw new Error(`Key ${_pair.key} already set`);
            // For scalars, keep the old node & its comments and anchors
            if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
                prev.value.value = _pair.value;
            else
                prev.value = _pair.value;
        }
        else if (sortEntries) {
            const i = this.items.findIndex(item => sortEntries(_pair, item) < 0);
            if (i === -1)
                this.items.push(_pair);
            else
                this.items.splice(i, 0, _pair);
        }
        else {
            this.items.push(_pair);
        }
    }
    delete(key) {
        const it = findPair(this.items, key);
        if (!it)
            return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? undefined;
    }
    has(key) {
        return !!findPair(this.items, key);
    }
    set(key, value) {
        this.add(new Pair.Pair(key, value), true);
    }
    /**
     * @param ctx - Conversion context, originally set in Document#toJS()
     * @param {Class} Type - If set, forces the returned collection type
     * @returns Instance of Type, Map, or Object
     */
    toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? new Map() : {};
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const item of this.items)
            addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        for (const item of this.items) {
            if (!identity.isPair(item))
                throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
            ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '',
            flowChars: { start: '{', end: '}' },
            itemIndent: ctx.indent || '',
            onChompKeep,
            onComment
        });
    }
}

exports.YAMLMap = YAMLMap;
exports.findPair = findPair;


/***/ }),

/***/ 2223:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var createNode = __nccwpck_require__(2404);
var stringifyCollection = __nccwpck_require__(1212);
var Collection = __nccwpck_require__(101);
var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var toJS = __nccwpck_require__(4043);

class YAMLSeq extends Collection.Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:seq';
    }
    constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
    }
    add(value) {
        this.items.push(value);
    }
    /**
     * Removes a value from the collection.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     *
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return undefined;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     */
    has(key) {
        const idx = asItemIndex(key);
        return typeof idx === 'number' && idx < this.items.length;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     *
     * If `key` does not contain a representation of an integer, this will throw.
     * It may be wrapped in a `Scalar`.
     */
    set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
            prev.value = value;
        else
            this.items[idx] = value;
    }
    toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
            ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
            seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
            blockItemPrefix: '- ',
            flowChars: { start: '[', end: ']' },
            itemIndent: (ctx.indent || '') + '  ',
            onChompKeep,
            onComment
        });
    }
    static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
            let i = 0;
            for (let it of obj) {
                if (typeof replacer === 'function') {
                    const key = obj instanceof Set ? it : String(i++);
                    it = replacer.call(obj, key, it);
                }
                seq.items.push(createNode.createNode(it, undefined, ctx));
            }
        }
        return seq;
    }
}
function asItemIndex(key) {
    let idx = identity.isScalar(key) ? key.value : key;
    if (idx && typeof idx === 'string')
        idx = Number(idx);
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0
        ? idx
        : null;
}

exports.YAMLSeq = YAMLSeq;


/***/ }),

/***/ 7104:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var log = __nccwpck_require__(7249);
var merge = __nccwpck_require__(452);
var stringify = __nccwpck_require__(2148);
var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);

function addPairToJSMap(ctx, map, { key, value }) {
    if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
    // TODO: Should drop this special case for bare << handling
    else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
    else {
        const jsKey = toJS.toJS(key, '', ctx);
        if (map instanceof Map) {
            map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        }
        else if (map instanceof Set) {
            map.add(jsKey);
        }
        else {
            const stringKey = stringifyKey(key, jsKey, ctx);
            const jsValue = toJS.toJS(value, stringKey, ctx);
            if (stringKey in map)
                Object.defineProperty(map, stringKey, {
                    value: jsValue,
                    writable: true,
                    enumerable: true,
                    configurable: true
                });
            else
                map[stringKey] = jsValue;
        }
    }
    return map;
}
function stringifyKey(key, jsKey, ctx) {
    if (jsKey === null)
        return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (typeof jsKey !== 'object')
        return String(jsKey);
    if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify.createStringifyContext(ctx.doc, {});
        strCtx.anchors = new Set();
        for (const node of ctx.anchors.keys())
            strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
            let jsonStr = JSON.stringify(strKey);
            if (jsonStr.length > 40)
                jsonStr = jsonStr.substring(0, 36) + '..."';
            log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
            ctx.mapKeyWarned = true;
        }
        return strKey;
    }
    return JSON.stringify(jsKey);
}

exports.addPairToJSMap = addPairToJSMap;


/***/ }),

/***/ 1127:
/***/ ((__unused_webpack_module, exports) => {



const ALIAS = Symbol.for('yaml.alias');
const DOC = Symbol.for('yaml.document');
const MAP = Symbol.for('yaml.map');
const PAIR = Symbol.for('yaml.pair');
const SCALAR = Symbol.for('yaml.scalar');
const SEQ = Symbol.for('yaml.seq');
const NODE_TYPE = Symbol.for('yaml.node.type');
const isAlias = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === ALIAS;
const isDocument = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === DOC;
const isMap = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === MAP;
const isPair = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === PAIR;
const isScalar = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SCALAR;
const isSeq = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SEQ;
function isCollection(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case MAP:
            case SEQ:
                return true;
        }
    return false;
}
function isNode(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case ALIAS:
            case MAP:
            case SCALAR:
            case SEQ:
                return true;
        }
    return false;
}
const hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;

exports.ALIAS = ALIAS;
exports.DOC = DOC;
exports.MAP = MAP;
exports.NODE_TYPE = NODE_TYPE;
exports.PAIR = PAIR;
exports.SCALAR = SCALAR;
exports.SEQ = SEQ;
exports.hasAnchor = hasAnchor;
exports.isAlias = isAlias;
exports.isCollection = isCollection;
exports.isDocument = isDocument;
exports.isMap = isMap;
exports.isNode = isNode;
exports.isPair = isPair;
exports.isScalar = isScalar;
exports.isSeq = isSeq;


/***/ }),

/***/ 4043:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

/**
 * Recursively convert any node or its contents to native JavaScript
 *
 * @param value - The input value
 * @param arg - If `value` defines a `toJSON()` method, use this
 *   as its first argument
 * @param ctx - Conversion context, originally set in Document#toJS(). If
 *   `{ keep: true }` is not set, output should be suitable for JSON
 *   stringification.
 */
function toJS(value, arg, ctx) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return
    if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
    if (value && typeof value.toJSON === 'function') {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-call
        if (!ctx || !identity.hasAnchor(value))
            return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: undefined };
        ctx.anchors.set(value, data);
        ctx.onCreate = res => {
            data.res = res;
            delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
            ctx.onCreate(res);
        return res;
    }
    if (typeof value === 'bigint' && !ctx?.keep)
        return Number(value);
    return value;
}

exports.toJS = toJS;


/***/ }),

/***/ 110:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var resolveBlockScalar = __nccwpck_require__(8913);
var resolveFlowScalar = __nccwpck_require__(6842);
var errors = __nccwpck_require__(1464);
var stringifyString = __nccwpck_require__(3069);

function resolveAsScalar(token, strict = true, onError) {
    if (token) {
        const _onError = (pos, code, message) => {
            const offset = typeof pos === 'number' ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
            if (onError)
                onError(offset, code, message);
            else
                throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
            case 'block-scalar':
                return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
    }
    return null;
}
/**
 * Create a new scalar token with `value`
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.end Comments and whitespace after the end of the value, or after the block scalar header. If undefined, a newline will be added.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.indent The indent level of the token.
 * @param context.inFlow Is this scalar within a flow collection? This may affect the resolved type of the token's value.
 * @param context.offset The offset position of the token.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function createScalarToken(value, context) {
    const { implicitKey = false, indent, inFlow = false, offset = -1, type = 'PLAIN' } = context;
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    const end = context.end ?? [
        { type: 'newline', offset: -1, indent, source: '\n' }
    ];
    switch (source[0]) {
        case '|':
        case '>': {
            const he = source.indexOf('\n');
            const head = source.substring(0, he);
            const body = source.substring(he + 1) + '\n';
            const props = [
                { type: 'block-scalar-header', offset, indent, source: head }
            ];
            if (!addEndtoBlockProps(props, end))
                props.push({ type: 'newline', offset: -1, indent, source: '\n' });
            return { type: 'block-scalar', offset, indent, props, source: body };
        }
        case '"':
            return { type: 'double-quoted-scalar', offset, indent, source, end };
        case "'":
            return { type: 'single-quoted-scalar', offset, indent, source, end };
        default:
            return { type: 'scalar', offset, indent, source, end };
    }
}
/**
 * Set the value of `token` to the given string `value`, overwriting any previous contents and type that it may have.
 *
 * Best efforts are made to retain any comments previously associated with the `token`,
 * though all contents within a collection's `items` will be overwritten.
 *
 * Values that represent an actual string but may be parsed as a different type should use a `type` other than `'PLAIN'`,
 * as this function does not support any schema operations and won't check for such conflicts.
 *
 * @param token Any token. If it does not include an `indent` value, the value will be stringified as if it were an implicit key.
 * @param value The string representation of the value, which will have its content properly indented.
 * @param context.afterKey In most cases, values after a key should have an additional level of indentation.
 * @param context.implicitKey Being within an implicit key may affect the resolved type of the token's value.
 * @param context.inFlow Being within a flow collection may affect the resolved type of the token's value.
 * @param context.type The preferred type of the scalar token. If undefined, the previous type of the `token` will be used, defaulting to `'PLAIN'`.
 */
function setScalarValue(token, value, context = {}) {
    let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
    let indent = 'indent' in token ? token.indent : null;
    if (afterKey && typeof indent === 'number')
        indent += 2;
    if (!type)
        switch (token.type) {
            case 'single-quoted-scalar':
                type = 'QUOTE_SINGLE';
                break;
            case 'double-quoted-scalar':
                type = 'QUOTE_DOUBLE';
                break;
            case 'block-scalar': {
                const header = token.props[0];
                if (header.type !== 'block-scalar-header')
                    throw new Error('Invalid block scalar header');
                type = header.source[0] === '>' ? 'BLOCK_FOLDED' : 'BLOCK_LITERAL';
                break;
            }
            default:
                type = 'PLAIN';
        }
    const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? ' '.repeat(indent) : '',
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
    });
    switch (source[0]) {
        case '|':
        case '>':
            setBlockScalarValue(token, source);
            break;
        case '"':
            setFlowScalarValue(token, source, 'double-quoted-scalar');
            break;
        case "'":
            setFlowScalarValue(token, source, 'single-quoted-scalar');
            break;
        default:
            setFlowScalarValue(token, source, 'scalar');
    }
}
function setBlockScalarValue(token, source) {
    const he = source.indexOf('\n');
    const head = source.substring(0, he);
    const body = source.substring(he + 1) + '\n';
    if (token.type === 'block-scalar') {
        const header = token.props[0];
        if (header.type !== 'block-scalar-header')
            throw new Error('Invalid block scalar header');
        header.source = head;
        token.source = body;
    }
    else {
        const { offset } = token;
        const indent = 'indent' in token ? token.indent : -1;
        const props = [
            { type: 'block-scalar-header', offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, 'end' in token ? token.end : undefined))
            props.push({ type: 'newline', offset: -1, indent, source: '\n' });
        for (const key of Object.keys(token))
            if (key !== 'type' && key !== 'offset')
                delete token[key];
        Object.assign(token, { type: 'block-scalar', indent, props, source: body });
    }
}
/** @returns `true` if last token is a newline */
function addEndtoBlockProps(props, end) {
    if (end)
        for (const st of end)
            switch (st.type) {
                case 'space':
                case 'comment':
                    props.push(st);
                    break;
                case 'newline':
                    props.push(st);
                    return true;
            }
    return false;
}
function setFlowScalarValue(token, source, type) {
    switch (token.type) {
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            token.type = type;
            token.source = source;
            break;
        case 'block-scalar': {
            const end = token.props.slice(1);
            let oa = source.length;
            if (token.props[0].type === 'block-scalar-header')
                oa -= token.props[0].source.length;
            for (const tok of end)
                tok.offset += oa;
            delete token.props;
            Object.assign(token, { type, source, end });
            break;
        }
        case 'block-map':
        case 'block-seq': {
            const offset = token.offset + source.length;
            const nl = { type: 'newline', offset, indent: token.indent, source: '\n' };
            delete token.items;
            Object.assign(token, { type, source, end: [nl] });
            break;
        }
        default: {
            const indent = 'indent' in token ? token.indent : -1;
            const end = 'end' in token && Array.isArray(token.end)
                ? token.end.filter(st => st.type === 'space' ||
                    st.type === 'comment' ||
                    st.type === 'newline')
                : [];
            for (const key of Object.keys(token))
                if (key !== 'type' && key !== 'offset')
                    delete token[key];
            Object.assign(token, { type, indent, source, end });
        }
    }
}

exports.createScalarToken = createScalarToken;
exports.resolveAsScalar = resolveAsScalar;
exports.setScalarValue = setScalarValue;


/***/ }),

/***/ 1733:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringify a CST document, token, or collection item
 *
 * Fair warning: This applies no validation whatsoever, and
 * simply concatenates the sources in their logical order.
 */
const stringify = (cst) => 'type' in cst ? stringifyToken(cst) : stringifyItem(cst);
function stringifyToken(token) {
    switch (token.type) {
        case 'block-scalar': {
            let res = '';
            for (const tok of token.props)
                res += stringifyToken(tok);
            return res + token.source;
        }
        case 'block-map':
        case 'block-seq': {
            let res = '';
            for (const item of token.items)
                res += stringifyItem(item);
            return res;
        }
        case 'flow-collection': {
            let res = token.start.source;
            for (const item of token.items)
                res += stringifyItem(item);
            for (const st of token.end)
                res += st.source;
            return res;
        }
        case 'document': {
            let res = stringifyItem(token);
            if (token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
        default: {
            let res = token.source;
            if ('end' in token && token.end)
                for (const st of token.end)
                    res += st.source;
            return res;
        }
    }
}
function stringifyItem({ start, key, sep, value }) {
    let res = '';
    for (const st of start)
        res += st.source;
    if (key)
        res += stringifyToken(key);
    if (sep)
        for (const st of sep)
            res += st.source;
    if (value)
        res += stringifyToken(value);
    return res;
}

exports.stringify = stringify;


/***/ }),

/***/ 7715:
/***/ ((__unused_webpack_module, exports) => {



const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove item');
/**
 * Apply a visitor to a CST document or item.
 *
 * Walks through the tree (depth-first) starting from the root, calling a
 * `visitor` function with two arguments when entering each item:
 *   - `item`: The current item, which included the following members:
 *     - `start: SourceToken[]` – Source tokens before the key or value,
 *       possibly including its anchor or tag.
 *     - `key?: Token | null` – Set for pair values. May then be `null`, if
 *       the key before the `:` separator is empty.
 *     - `sep?: SourceToken[]` – Source tokens between the key and the value,
 *       which should include the `:` map value indicator if `value` is set.
 *     - `value?: Token` – The value of a sequence item, or of a map pair.
 *   - `path`: The steps from the root to the current node, as an array of
 *     `['key' | 'value', number]` tuples.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this token, continue with
 *      next sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current item, then continue with the next one
 *   - `number`: Set the index of the next step. This is useful especially if
 *     the index of the current token has changed.
 *   - `function`: Define the next visitor for this item. After the original
 *     visitor is called on item entry, next visitors are called after handling
 *     a non-empty `key` and when exiting the item.
 */
function visit(cst, visitor) {
    if ('type' in cst && cst.type === 'document')
        cst = { start: cst.start, value: cst.value };
    _visit(Object.freeze([]), cst, visitor);
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current item */
visit.SKIP = SKIP;
/** Remove the current item */
visit.REMOVE = REMOVE;
/** Find the item at `path` from `cst` as the root */
visit.itemAtPath = (cst, path) => {
    let item = cst;
    for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && 'items' in tok) {
            item = tok.items[index];
        }
        else
            return undefined;
    }
    return item;
};
/**
 * Get the immediate parent collection of the item at `path` from `cst` as the root.
 *
 * Throws an error if the collection is not found, which should never happen if the item itself exists.
 */
visit.parentCollection = (cst, path) => {
    const parent = visit.itemAtPath(cst, path.slice(0, -1));
    const field = path[path.length - 1][0];
    const coll = parent?.[field];
    if (coll && 'items' in coll)
        return coll;
    throw new Error('Parent collection not found');
};
function _visit(path, item, visitor) {
    let ctrl = visitor(item, path);
    if (typeof ctrl === 'symbol')
        return ctrl;
    for (const field of ['key', 'value']) {
        const token = item[field];
        if (token && 'items' in token) {
            for (let i = 0; i < token.items.length; ++i) {
                const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    token.items.splice(i, 1);
                    i -= 1;
                }
            }
            if (typeof ctrl === 'function' && field === 'key')
                ctrl = ctrl(item, path);
        }
    }
    return typeof ctrl === 'function' ? ctrl(item, path) : ctrl;
}

exports.visit = visit;


/***/ }),

/***/ 3461:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cstScalar = __nccwpck_require__(110);
var cstStringify = __nccwpck_require__(1733);
var cstVisit = __nccwpck_require__(7715);

/** The byte order mark */
const BOM = '\u{FEFF}';
/** Start of doc-mode */
const DOCUMENT = '\x02'; // C0: Start of Text
/** Unexpected end of flow-mode */
const FLOW_END = '\x18'; // C0: Cancel
/** Next token is a scalar value */
const SCALAR = '\x1f'; // C0: Unit Separator
/** @returns `true` if `token` is a flow or block collection */
const isCollection = (token) => !!token && 'items' in token;
/** @returns `true` if `token` is a flow or block scalar; not an alias */
const isScalar = (token) => !!token &&
    (token.type === 'scalar' ||
        token.type === 'single-quoted-scalar' ||
        token.type === 'double-quoted-scalar' ||
        token.type === 'block-scalar');
/* istanbul ignore next */
/** Get a printable representation of a lexer token */
function prettyToken(token) {
    switch (token) {
        case BOM:
            return '<BOM>';
        case DOCUMENT:
            return '<DOC>';
        case FLOW_END:
            return '<FLOW_END>';
        case SCALAR:
            return '<SCALAR>';
        default:
            return JSON.stringify(token);
    }
}
/** Identify the type of a lexer token. May return `null` for unknown tokens. */
function tokenType(source) {
    switch (source) {
        case BOM:
            return 'byte-order-mark';
        case DOCUMENT:
            return 'doc-mode';
        case FLOW_END:
            return 'flow-error-end';
        case SCALAR:
            return 'scalar';
        case '---':
            return 'doc-start';
        case '...':
            return 'doc-end';
        case '':
        case '\n':
        case '\r\n':
            return 'newline';
        case '-':
            return 'seq-item-ind';
        case '?':
            return 'explicit-key-ind';
        case ':':
            return 'map-value-ind';
        case '{':
            return 'flow-map-start';
        case '}':
            return 'flow-map-end';
        case '[':
            return 'flow-seq-start';
        case ']':
            return 'flow-seq-end';
        case ',':
            return 'comma';
    }
    switch (source[0]) {
        case ' ':
        case '\t':
            return 'space';
        case '#':
            return 'comment';
        case '%':
            return 'directive-line';
        case '*':
            return 'alias';
        case '&':
            return 'anchor';
        case '!':
            return 'tag';
        case "'":
            return 'single-quoted-scalar';
        case '"':
            return 'double-quoted-scalar';
        case '|':
        case '>':
            return 'block-scalar-header';
    }
    return null;
}

exports.createScalarToken = cstScalar.createScalarToken;
exports.resolveAsScalar = cstScalar.resolveAsScalar;
exports.setScalarValue = cstScalar.setScalarValue;
exports.stringify = cstStringify.stringify;
exports.visit = cstVisit.visit;
exports.BOM = BOM;
exports.DOCUMENT = DOCUMENT;
exports.FLOW_END = FLOW_END;
exports.SCALAR = SCALAR;
exports.isCollection = isCollection;
exports.isScalar = isScalar;
exports.prettyToken = prettyToken;
exports.tokenType = tokenType;


/***/ }),

/***/ 361:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var cst = __nccwpck_require__(3461);

/*
START -> stream

stream
  directive -> line-end -> stream
  indent + line-end -> stream
  [else] -> line-start

line-end
  comment -> line-end
  newline -> .
  input-end -> END

line-start
  doc-start -> doc
  doc-end -> stream
  [else] -> indent -> block-start

block-start
  seq-item-start -> block-start
  explicit-key-start -> block-start
  map-value-start -> block-start
  [else] -> doc

doc
  line-end -> line-start
  spaces -> doc
  anchor -> doc
  tag -> doc
  flow-start -> flow -> doc
  flow-end -> error -> doc
  seq-item-start -> error -> doc
  explicit-key-start -> error -> doc
  map-value-start -> doc
  alias -> doc
  quote-start -> quoted-scalar -> doc
  block-scalar-header -> line-end -> block-scalar(min) -> line-start
  [else] -> plain-scalar(false, min) -> doc

flow
  line-end -> flow
  spaces -> flow
  anchor -> flow
  tag -> flow
  flow-start -> flow -> flow
  flow-end -> .
  seq-item-start -> error -> flow
  explicit-key-start -> flow
  map-value-start -> flow
  alias -> flow
  quote-start -> quoted-scalar -> flow
  comma -> flow
  [else] -> plain-scalar(true, 0) -> flow

quoted-scalar
  quote-end -> .
  [else] -> quoted-scalar

block-scalar(min)
  newline + peek(indent < min) -> .
  [else] -> block-scalar(min)

plain-scalar(is-flow, min)
  scalar-end(is-flow) -> .
  peek(newline + (indent < min)) -> .
  [else] -> plain-scalar(min)
*/
function isEmpty(ch) {
    switch (ch) {
        case undefined:
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            return true;
        default:
            return false;
    }
}
const hexDigits = new Set('0123456789ABCDEFabcdef');
const tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
const flowIndicatorChars = new Set(',[]{}');
const invalidAnchorChars = new Set(' ,[]{}\n\r\t');
const isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
/**
 * Splits an input string into lexical tokens, i.e. smaller strings that are
 * easily identifiable by `tokens.tokenType()`.
 *
 * Lexing starts always in a "stream" context. Incomplete input may be buffered
 * until a complete token can be emitted.
 *
 * In addition to slices of the original input, the following control characters
 * may also be emitted:
 *
 * - `\x02` (Start of Text): A document starts with the next token
 * - `\x18` (Cancel): Unexpected end of flow-mode (indicates an error)
 * - `\x1f` (Unit Separator): Next token is a scalar value
 * - `\u{FEFF}` (Byte order mark): Emitted separately outside documents
 */
class Lexer {
    constructor() {
        /**
         * Flag indicating whether the end of the current buffer marks the end of
         * all input
         */
        this.atEnd = false;
        /**
         * Explicit indent set in block scalar header, as an offset from the current
         * minimum indent, so e.g. set to 1 from a header `|2+`. Set to -1 if not
         * explicitly set.
         */
        this.blockScalarIndent = -1;
        /**
         * Block scalars that include a + (keep) chomping indicator in their header
         * include trailing empty lines, which are otherwise excluded from the
         * scalar's contents.
         */
        this.blockScalarKeep = false;
        /** Current input */
        this.buffer = '';
        /**
         * Flag noting whether the map value indicator : can immediately follow this
         * node within a flow context.
         */
        this.flowKey = false;
        /** Count of surrounding flow collection levels. */
        this.flowLevel = 0;
        /**
         * Minimum level of indentation required for next lines to be parsed as a
         * part of the current scalar value.
         */
        this.indentNext = 0;
        /** Indentation level of the current line. */
        this.indentValue = 0;
        /** Position of the next \n character. */
        this.lineEndPos = null;
        /** Stores the state of the lexer if reaching the end of incpomplete input */
        this.next = null;
        /** A pointer to `buffer`; the current position of the lexer. */
        this.pos = 0;
    }
    /**
     * Generate YAML tokens from the `source` string. If `incomplete`,
     * a part of the last line may be left as a buffer for the next call.
     *
     * @returns A generator of lexical tokens
     */
    *lex(source, incomplete = false) {
        if (source) {
            if (typeof source !== 'string')
                throw TypeError('source is not a string');
            this.buffer = this.buffer ? this.buffer + source : source;
            this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? 'stream';
        while (next && (incomplete || this.hasChars(1)))
            next = yield* this.parseNext(next);
    }
    atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === ' ' || ch === '\t')
            ch = this.buffer[++i];
        if (!ch || ch === '#' || ch === '\n')
            return true;
        if (ch === '\r')
            return this.buffer[i + 1] === '\n';
        return false;
    }
    charAt(n) {
        return this.buffer[this.pos + n];
    }
    continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
            let indent = 0;
            while (ch === ' ')
                ch = this.buffer[++indent + offset];
            if (ch === '\r') {
                const next = this.buffer[indent + offset + 1];
                if (next === '\n' || (!next && !this.atEnd))
                    return offset + indent + 1;
            }
            return ch === '\n' || indent >= this.indentNext || (!ch && !this.atEnd)
                ? offset + indent
                : -1;
        }
        if (ch === '-' || ch === '.') {
            const dt = this.buffer.substr(offset, 3);
            if ((dt === '---' || dt === '...') && isEmpty(this.buffer[offset + 3]))
                return -1;
        }
        return offset;
    }
    getLine() {
        let end = this.lineEndPos;
        if (typeof end !== 'number' || (end !== -1 && end < this.pos)) {
            end = this.buffer.indexOf('\n', this.pos);
            this.lineEndPos = end;
        }
        if (end === -1)
            return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === '\r')
            end -= 1;
        return this.buffer.substring(this.pos, end);
    }
    hasChars(n) {
        return this.pos + n <= this.buffer.length;
    }
    setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
    }
    peek(n) {
        return this.buffer.substr(this.pos, n);
    }
    *parseNext(next) {
        switch (next) {
            case 'stream':
                return yield* this.parseStream();
            case 'line-start':
                return yield* this.parseLineStart();
            case 'block-start':
                return yield* this.parseBlockStart();
            case 'doc':
                return yield* this.parseDocument();
            case 'flow':
                return yield* this.parseFlowCollection();
            case 'quoted-scalar':
                return yield* this.parseQuotedScalar();
            case 'block-scalar':
                return yield* this.parseBlockScalar();
            case 'plain-scalar':
                return yield* this.parsePlainScalar();
        }
    }
    *parseStream() {
        let line = this.getLine();
        if (line === null)
            return this.setNext('stream');
        if (line[0] === cst.BOM) {
            yield* this.pushCount(1);
            line = line.substring(1);
        }
        if (line[0] === '%') {
            let dirEnd = line.length;
            let cs = line.indexOf('#');
            while (cs !== -1) {
                const ch = line[cs - 1];
                if (ch === ' ' || ch === '\t') {
                    dirEnd = cs - 1;
                    break;
                }
                else {
                    cs = line.indexOf('#', cs + 1);
                }
            }
            while (true) {
                const ch = line[dirEnd - 1];
                if (ch === ' ' || ch === '\t')
                    dirEnd -= 1;
                else
                    break;
            }
            const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
            yield* this.pushCount(line.length - n); // possible comment
            this.pushNewline();
            return 'stream';
        }
        if (this.atLineEnd()) {
            const sp = yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - sp);
            yield* this.pushNewline();
            return 'stream';
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
    }
    *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
            return this.setNext('line-start');
        if (ch === '-' || ch === '.') {
            if (!this.atEnd && !this.hasChars(4))
                return this.setNext('line-start');
            const s = this.peek(3);
            if ((s === '---' || s === '...') && isEmpty(this.charAt(3))) {
                yield* this.pushCount(3);
                this.indentValue = 0;
                this.indentNext = 0;
                return s === '---' ? 'doc' : 'stream';
            }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
            this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
    }
    *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
            return this.setNext('block-start');
        if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(ch1)) {
            const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
            this.indentNext = this.indentValue + 1;
            this.indentValue += n;
            return 'block-start';
        }
        return 'doc';
    }
    *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
            return this.setNext('doc');
        let n = yield* this.pushIndicators();
        switch (line[n]) {
            case '#':
                yield* this.pushCount(line.length - n);
            // fallthrough
            case undefined:
                yield* this.pushNewline();
                return yield* this.parseLineStart();
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel = 1;
                return 'flow';
            case '}':
            case ']':
                // this is an error
                yield* this.pushCount(1);
                return 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'doc';
            case '"':
            case "'":
                return yield* this.parseQuotedScalar();
            case '|':
            case '>':
                n += yield* this.parseBlockScalarHeader();
                n += yield* this.pushSpaces(true);
                yield* this.pushCount(line.length - n);
                yield* this.pushNewline();
                return yield* this.parseBlockScalar();
            default:
                return yield* this.parsePlainScalar();
        }
    }
    *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
            nl = yield* this.pushNewline();
            if (nl > 0) {
                sp = yield* this.pushSpaces(false);
                this.indentValue = indent = sp;
            }
            else {
                sp = 0;
            }
            sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
            return this.setNext('flow');
        if ((indent !== -1 && indent < this.indentNext && line[0] !== '#') ||
            (indent === 0 &&
                (line.startsWith('---') || line.startsWith('...')) &&
                isEmpty(line[3]))) {
            // Allowing for the terminal ] or } at the same (rather than greater)
            // indent level as the initial [ or { is technically invalid, but
            // failing here would be surprising to users.
            const atFlowEndMarker = indent === this.indentNext - 1 &&
                this.flowLevel === 1 &&
                (line[0] === ']' || line[0] === '}');
            if (!atFlowEndMarker) {
                // this is an error
                this.flowLevel = 0;
                yield cst.FLOW_END;
                return yield* this.parseLineStart();
            }
        }
        let n = 0;
        while (line[n] === ',') {
            n += yield* this.pushCount(1);
            n += yield* this.pushSpaces(true);
            this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
            case undefined:
                return 'flow';
            case '#':
                yield* this.pushCount(line.length - n);
                return 'flow';
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel += 1;
                return 'flow';
            case '}':
            case ']':
                yield* this.pushCount(1);
                this.flowKey = true;
                this.flowLevel -= 1;
                return this.flowLevel ? 'flow' : 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'flow';
            case '"':
            case "'":
                this.flowKey = true;
                return yield* this.parseQuotedScalar();
            case ':': {
                const next = this.charAt(1);
                if (this.flowKey || isEmpty(next) || next === ',') {
                    this.flowKey = false;
                    yield* this.pushCount(1);
                    yield* this.pushSpaces(true);
                    return 'flow';
                }
            }
            // fallthrough
            default:
                this.flowKey = false;
                return yield* this.parsePlainScalar();
        }
    }
    *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
            while (end !== -1 && this.buffer[end + 1] === "'")
                end = this.buffer.indexOf("'", end + 2);
        }
        else {
            // double-quote
            while (end !== -1) {
                let n = 0;
                while (this.buffer[end - 1 - n] === '\\')
                    n += 1;
                if (n % 2 === 0)
                    break;
                end = this.buffer.indexOf('"', end + 1);
            }
        }
        // Only looking for newlines within the quotes
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf('\n', this.pos);
        if (nl !== -1) {
            while (nl !== -1) {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = qb.indexOf('\n', cs);
            }
            if (nl !== -1) {
                // this is an error caused by an unexpected unindent
                end = nl - (qb[nl - 1] === '\r' ? 2 : 1);
            }
        }
        if (end === -1) {
            if (!this.atEnd)
                return this.setNext('quoted-scalar');
            end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? 'flow' : 'doc';
    }
    *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
            const ch = this.buffer[++i];
            if (ch === '+')
                this.blockScalarKeep = true;
            else if (ch > '0' && ch <= '9')
                this.blockScalarIndent = Number(ch) - 1;
            else if (ch !== '-')
                break;
        }
        return yield* this.pushUntil(ch => isEmpty(ch) || ch === '#');
    }
    *parseBlockScalar() {
        let nl = this.pos - 1; // may be -1 if this.pos === 0
        let indent = 0;
        let ch;
        loop: for (let i = this.pos; (ch = this.buffer[i]); ++i) {
            switch (ch) {
                case ' ':
                    indent += 1;
                    break;
                case '\n':
                    nl = i;
                    indent = 0;
                    break;
                case '\r': {
                    const next = this.buffer[i + 1];
                    if (!next && !this.atEnd)
                        return this.setNext('block-scalar');
                    if (next === '\n')
                        break;
                } // fallthrough
                default:
                    break loop;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('block-scalar');
        if (indent >= this.indentNext) {
            if (this.blockScalarIndent === -1)
                this.indentNext = indent;
            else {
                this.indentNext =
                    this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
            }
            do {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = this.buffer.indexOf('\n', cs);
            } while (nl !== -1);
            if (nl === -1) {
                if (!this.atEnd)
                    return this.setNext('block-scalar');
                nl = this.buffer.length;
            }
        }
        // Trailing insufficiently indented tabs are invalid.
        // To catch that during parsing, we include them in the block scalar value.
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === ' ')
            ch = this.buffer[++i];
        if (ch === '\t') {
            while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n')
                ch = this.buffer[++i];
            nl = i - 1;
        }
        else if (!this.blockScalarKeep) {
            do {
                let i = nl - 1;
                let ch = this.buffer[i];
                if (ch === '\r')
                    ch = this.buffer[--i];
                const lastChar = i; // Drop the line if last char not more indented
                while (ch === ' ')
                    ch = this.buffer[--i];
                if (ch === '\n' && i >= this.pos && i + 1 + indent > lastChar)
                    nl = i;
                else
                    break;
            } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
    }
    *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while ((ch = this.buffer[++i])) {
            if (ch === ':') {
                const next = this.buffer[i + 1];
                if (isEmpty(next) || (inFlow && flowIndicatorChars.has(next)))
                    break;
                end = i;
            }
            else if (isEmpty(ch)) {
                let next = this.buffer[i + 1];
                if (ch === '\r') {
                    if (next === '\n') {
                        i += 1;
                        ch = '\n';
                        next = this.buffer[i + 1];
                    }
                    else
                        end = i;
                }
                if (next === '#' || (inFlow && flowIndicatorChars.has(next)))
                    break;
                if (ch === '\n') {
                    const cs = this.continueScalar(i + 1);
                    if (cs === -1)
                        break;
                    i = Math.max(i, cs - 2); // to advance, but still account for ' #'
                }
            }
            else {
                if (inFlow && flowIndicatorChars.has(ch))
                    break;
                end = i;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('plain-scalar');
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? 'flow' : 'doc';
    }
    *pushCount(n) {
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos += n;
            return n;
        }
        return 0;
    }
    *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
            yield s;
            this.pos += s.length;
            return s.length;
        }
        else if (allowEmpty)
            yield '';
        return 0;
    }
    *pushIndicators() {
        let n = 0;
        loop: while (true) {
            switch (this.charAt(0)) {
                case '!':
                    n += yield* this.pushTag();
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '&':
                    n += yield* this.pushUntil(isNotAnchorChar);
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '-': // this is an error
                case '?': // this is an error outside flow collections
                case ':': {
                    const inFlow = this.flowLevel > 0;
                    const ch1 = this.charAt(1);
                    if (isEmpty(ch1) || (inFlow && flowIndicatorChars.has(ch1))) {
                        if (!inFlow)
                            this.indentNext = this.indentValue + 1;
                        else if (this.flowKey)
                            this.flowKey = false;
                        n += yield* this.pushCount(1);
                        n += yield* this.pushSpaces(true);
                        continue loop;
                    }
                }
            }
            break loop;
        }
        return n;
    }
    *pushTag() {
        if (this.charAt(1) === '<') {
            let i = this.pos + 2;
            let ch = this.buffer[i];
            while (!isEmpty(ch) && ch !== '>')
                ch = this.buffer[++i];
            return yield* this.pushToIndex(ch === '>' ? i + 1 : i, false);
        }
        else {
            let i = this.pos + 1;
            let ch = this.buffer[i];
            while (ch) {
                if (tagChars.has(ch))
                    ch = this.buffer[++i];
                else if (ch === '%' &&
                    hexDigits.has(this.buffer[i + 1]) &&
                    hexDigits.has(this.buffer[i + 2])) {
                    ch = this.buffer[(i += 3)];
                }
                else
                    break;
            }
            return yield* this.pushToIndex(i, false);
        }
    }
    *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === '\n')
            return yield* this.pushCount(1);
        else if (ch === '\r' && this.charAt(1) === '\n')
            return yield* this.pushCount(2);
        else
            return 0;
    }
    *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
            ch = this.buffer[++i];
        } while (ch === ' ' || (allowTabs && ch === '\t'));
        const n = i - this.pos;
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos = i;
        }
        return n;
    }
    *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
            ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
    }
}

exports.Lexer = Lexer;


/***/ }),

/***/ 6628:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Tracks newlines during parsing in order to provide an efficient API for
 * determining the one-indexed `{ line, col }` position for any offset
 * within the input.
 */
class LineCounter {
    constructor() {
        this.lineStarts = [];
        /**
         * Should be called in ascending order. Otherwise, call
         * `lineCounter.lineStarts.sort()` before calling `linePos()`.
         */
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        /**
         * Performs a binary search and returns the 1-indexed { line, col }
         * position of `offset`. If `line === 0`, `addNewLine` has never been
         * called or `offset` is before the first known newline.
         */
        this.linePos = (offset) => {
            let low = 0;
            let high = this.lineStarts.length;
            while (low < high) {
                const mid = (low + high) >> 1; // Math.floor((low + high) / 2)
                if (this.lineStarts[mid] < offset)
                    low = mid + 1;
                else
                    high = mid;
            }
            if (this.lineStarts[low] === offset)
                return { line: low + 1, col: 1 };
            if (low === 0)
                return { line: 0, col: offset };
            const start = this.lineStarts[low - 1];
            return { line: low, col: offset - start + 1 };
        };
    }
}

exports.LineCounter = LineCounter;


/***/ }),

/***/ 3456:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_process = __nccwpck_require__(932);
var cst = __nccwpck_require__(3461);
var lexer = __nccwpck_require__(361);

function includesToken(list, type) {
    for (let i = 0; i < list.length; ++i)
        if (list[i].type === type)
            return true;
    return false;
}
function findNonEmptyIndex(list) {
    for (let i = 0; i < list.length; ++i) {
        switch (list[i].type) {
            case 'space':
            case 'comment':
            case 'newline':
                break;
            default:
                return i;
        }
    }
    return -1;
}
function isFlowToken(token) {
    switch (token?.type) {
        case 'alias':
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'flow-collection':
            return true;
        default:
            return false;
    }
}
function getPrevProps(parent) {
    switch (parent.type) {
        case 'document':
            return parent.start;
        case 'block-map': {
            const it = parent.items[parent.items.length - 1];
            return it.sep ?? it.start;
        }
        case 'block-seq':
            return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
            return [];
    }
}
/** Note: May modify input array */
function getFirstKeyStartProps(prev) {
    if (prev.length === 0)
        return [];
    let i = prev.length;
    loop: while (--i >= 0) {
        switch (prev[i].type) {
            case 'doc-start':
            case 'explicit-key-ind':
            case 'map-value-ind':
            case 'seq-item-ind':
            case 'newline':
                break loop;
        }
    }
    while (prev[++i]?.type === 'space') {
        /* loop */
    }
    return prev.splice(i, prev.length);
}
function arrayPushArray(target, source) {
    // May exhaust call stack with large `source` array
    if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
    else
        for (let i = 0; i < source.length; ++i)
            target.push(source[i]);
}
function fixFlowSeqItems(fc) {
    if (fc.start.type === 'flow-seq-start') {
        for (const it of fc.items) {
            if (it.sep &&
                !it.value &&
                !includesToken(it.start, 'explicit-key-ind') &&
                !includesToken(it.sep, 'map-value-ind')) {
                if (it.key)
                    it.value = it.key;
                delete it.key;
                if (isFlowToken(it.value)) {
                    if (it.value.end)
                        arrayPushArray(it.value.end, it.sep);
                    else
                        it.value.end = it.sep;
                }
                else
                    arrayPushArray(it.start, it.sep);
                delete it.sep;
            }
        }
    }
}
/**
 * A YAML concrete syntax tree (CST) parser
 *
 * ```ts
 * const src: string = ...
 * for (const token of new Parser().parse(src)) {
 *   // token: Token
 * }
 * ```
 *
 * To use the parser with a user-provided lexer:
 *
 * ```ts
 * function* parse(source: string, lexer: Lexer) {
 *   const parser = new Parser()
 *   for (const lexeme of lexer.lex(source))
 *     yield* parser.next(lexeme)
 *   yield* parser.end()
 * }
 *
 * const src: string = ...
 * const lexer = new Lexer()
 * for (const token of parse(src, lexer)) {
 *   // token: Token
 * }
 * ```
 */
class Parser {
    /**
     * @param onNewLine - If defined, called separately with the start position of
     *   each new line (in `parse()`, including the start of input).
     */
    constructor(onNewLine) {
        /** If true, space and sequence indicators count as indentation */
        this.atNewLine = true;
        /** If true, next token is a scalar value */
        this.atScalar = false;
        /** Current indentation level */
        this.indent = 0;
        /** Current offset since the start of parsing */
        this.offset = 0;
        /** On the same line with a block map key */
        this.onKeyLine = false;
        /** Top indicates the node that's currently being built */
        this.stack = [];
        /** The source of the current token, set in parse() */
        this.source = '';
        /** The type of the current token, set in parse() */
        this.type = '';
        // Must be defined after `next()`
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
    }
    /**
     * Parse `source` as a YAML stream.
     * If `incomplete`, a part of the last line may be left as a buffer for the next call.
     *
     * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
     *
     * @returns A generator of tokens representing each directive, document, and other structure.
     */
    *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
            this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
            yield* this.next(lexeme);
        if (!incomplete)
            yield* this.end();
    }
    /**
     * Advance the parser by the `source` of one lexical token.
     */
    *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
            console.log('|', cst.prettyToken(source));
        if (this.atScalar) {
            this.atScalar = false;
            yield* this.step();
            this.offset += source.length;
            return;
        }
        const type = cst.tokenType(source);
        if (!type) {
            const message = `Not a YAML token: ${source}`;
            yield* this.pop({ type: 'error', offset: this.offset, message, source });
            this.offset += source.length;
        }
        else if (type === 'scalar') {
            this.atNewLine = false;
            this.atScalar = true;
            this.type = 'scalar';
        }
        else {
            this.type = type;
            yield* this.step();
            switch (type) {
                case 'newline':
                    this.atNewLine = true;
                    this.indent = 0;
                    if (this.onNewLine)
                        this.onNewLine(this.offset + source.length);
                    break;
                case 'space':
                    if (this.atNewLine && source[0] === ' ')
                        this.indent += source.length;
                    break;
                case 'explicit-key-ind':
                case 'map-value-ind':
                case 'seq-item-ind':
                    if (this.atNewLine)
                        this.indent += source.length;
                    break;
                case 'doc-mode':
                case 'flow-error-end':
                    return;
                default:
                    this.atNewLine = false;
            }
            this.offset += source.length;
        }
    }
    /** Call at end of input to push out any remaining constructions */
    *end() {
        while (this.stack.length > 0)
            yield* this.pop();
    }
    get sourceToken() {
        const st = {
            type: this.type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
        return st;
    }
    *step() {
        const top = this.peek(1);
        if (this.type === 'doc-end' && top?.type !== 'doc-end') {
            while (this.stack.length > 0)
                yield* this.pop();
            this.stack.push({
                type: 'doc-end',
                offset: this.offset,
                source: this.source
            });
            return;
        }
        if (!top)
            return yield* this.stream();
        switch (top.type) {
            case 'document':
                return yield* this.document(top);
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return yield* this.scalar(top);
            case 'block-scalar':
                return yield* this.blockScalar(top);
            case 'block-map':
                return yield* this.blockMap(top);
            case 'block-seq':
                return yield* this.blockSequence(top);
            case 'flow-collection':
                return yield* this.flowCollection(top);
            case 'doc-end':
                return yield* this.documentEnd(top);
        }
        /* istanbul ignore next should not happen */
        yield* this.pop();
    }
    peek(n) {
        return this.stack[this.stack.length - n];
    }
    *pop(error) {
        const token = error ?? this.stack.pop();
        /* istanbul ignore if should not happen */
        if (!token) {
            const message = 'Tried to pop an empty stack';
            yield { type: 'error', offset: this.offset, source: '', message };
        }
        else if (this.stack.length === 0) {
            yield token;
        }
        else {
            const top = this.peek(1);
            if (token.type === 'block-scalar') {
                // Block scalars use their parent rather than header indent
                token.indent = 'indent' in top ? top.indent : 0;
            }
            else if (token.type === 'flow-collection' && top.type === 'document') {
                // Ignore all indent for top-level flow collections
                token.indent = 0;
            }
            if (token.type === 'flow-collection')
                fixFlowSeqItems(token);
            switch (top.type) {
                case 'document':
                    top.value = token;
                    break;
                case 'block-scalar':
                    top.props.push(token); // error
                    break;
                case 'block-map': {
                    const it = top.items[top.items.length - 1];
                    if (it.value) {
                        top.items.push({ start: [], key: token, sep: [] });
                        this.onKeyLine = true;
                        return;
                    }
                    else if (it.sep) {
                        it.value = token;
                    }
                    else {
                        Object.assign(it, { key: token, sep: [] });
                        this.onKeyLine = !it.explicitKey;
                        return;
                    }
                    break;
                }
                case 'block-seq': {
                    const it = top.items[top.items.length - 1];
                    if (it.value)
                        top.items.push({ start: [], value: token });
                    else
                        it.value = token;
                    break;
                }
                case 'flow-collection': {
                    const it = top.items[top.items.length - 1];
                    if (!it || it.value)
                        top.items.push({ start: [], key: token, sep: [] });
                    else if (it.sep)
                        it.value = token;
                    else
                        Object.assign(it, { key: token, sep: [] });
                    return;
                }
                /* istanbul ignore next should not happen */
                default:
                    yield* this.pop();
                    yield* this.pop(token);
            }
            if ((top.type === 'document' ||
                top.type === 'block-map' ||
                top.type === 'block-seq') &&
                (token.type === 'block-map' || token.type === 'block-seq')) {
                const last = token.items[token.items.length - 1];
                if (last &&
                    !last.sep &&
                    !last.value &&
                    last.start.length > 0 &&
                    findNonEmptyIndex(last.start) === -1 &&
                    (token.indent === 0 ||
                        last.start.every(st => st.type !== 'comment' || st.indent < token.indent))) {
                    if (top.type === 'document')
                        top.end = last.start;
                    else
                        top.items.push({ start: last.start });
                    token.items.splice(-1, 1);
                }
            }
        }
    }
    *stream() {
        switch (this.type) {
            case 'directive-line':
                yield { type: 'directive', offset: this.offset, source: this.source };
                return;
            case 'byte-order-mark':
            case 'space':
            case 'comment':
            case 'newline':
                yield this.sourceToken;
                return;
            case 'doc-mode':
            case 'doc-start': {
                const doc = {
                    type: 'document',
                    offset: this.offset,
                    start: []
                };
                if (this.type === 'doc-start')
                    doc.start.push(this.sourceToken);
                this.stack.push(doc);
                return;
            }
        }
        yield {
            type: 'error',
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML stream`,
            source: this.source
        };
    }
    *document(doc) {
        if (doc.value)
            return yield* this.lineEnd(doc);
        switch (this.type) {
            case 'doc-start': {
                if (findNonEmptyIndex(doc.start) !== -1) {
                    yield* this.pop();
                    yield* this.step();
                }
                else
                    doc.start.push(this.sourceToken);
                return;
            }
            case 'anchor':
            case 'tag':
            case 'space':
            case 'comment':
            case 'newline':
                doc.start.push(this.sourceToken);
                return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
            this.stack.push(bv);
        else {
            yield {
                type: 'error',
                offset: this.offset,
                message: `Unexpected ${this.type} token in YAML document`,
                source: this.source
            };
        }
    }
    *scalar(scalar) {
        if (this.type === 'map-value-ind') {
            const prev = getPrevProps(this.peek(2));
            const start = getFirstKeyStartProps(prev);
            let sep;
            if (scalar.end) {
                sep = scalar.end;
                sep.push(this.sourceToken);
                delete scalar.end;
            }
            else
                sep = [this.sourceToken];
            const map = {
                type: 'block-map',
                offset: scalar.offset,
                indent: scalar.indent,
                items: [{ start, key: scalar, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
        }
        else
            yield* this.lineEnd(scalar);
    }
    *blockScalar(scalar) {
        switch (this.type) {
            case 'space':
            case 'comment':
            case 'newline':
                scalar.props.push(this.sourceToken);
                return;
            case 'scalar':
                scalar.source = this.source;
                // block-scalar source includes trailing newline
                this.atNewLine = true;
                this.indent = 0;
                if (this.onNewLine) {
                    let nl = this.source.indexOf('\n') + 1;
                    while (nl !== 0) {
                        this.onNewLine(this.offset + nl);
                        nl = this.source.indexOf('\n', nl) + 1;
                    }
                }
                yield* this.pop();
                break;
            /* istanbul ignore next should not happen */
            default:
                yield* this.pop();
                yield* this.step();
        }
    }
    *blockMap(map) {
        const it = map.items[map.items.length - 1];
        // it.sep is true-ish if pair already has key or : separator
        switch (this.type) {
            case 'newline':
                this.onKeyLine = false;
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    it.start.push(this.sourceToken);
                }
                return;
            case 'space':
            case 'comment':
                if (it.value) {
                    map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    if (this.atIndentedComment(it.start, map.indent)) {
                        const prev = map.items[map.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            map.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
        }
        if (this.indent >= map.indent) {
            const atMapIndent = !this.onKeyLine && this.indent === map.indent;
            const atNextItem = atMapIndent &&
                (it.sep || it.explicitKey) &&
                this.type !== 'seq-item-ind';
            // For empty nodes, assign newline-separated not indented empty tokens to following node
            let start = [];
            if (atNextItem && it.sep && !it.value) {
                const nl = [];
                for (let i = 0; i < it.sep.length; ++i) {
                    const st = it.sep[i];
                    switch (st.type) {
                        case 'newline':
                            nl.push(i);
                            break;
                        case 'space':
                            break;
                        case 'comment':
                            if (st.indent > map.indent)
                                nl.length = 0;
                            break;
                        default:
                            nl.length = 0;
                    }
                }
                if (nl.length >= 2)
                    start = it.sep.splice(nl[1]);
            }
            switch (this.type) {
                case 'anchor':
                case 'tag':
                    if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        it.sep.push(this.sourceToken);
                    }
                    else {
                        it.start.push(this.sourceToken);
                    }
                    return;
                case 'explicit-key-ind':
                    if (!it.sep && !it.explicitKey) {
                        it.start.push(this.sourceToken);
                        it.explicitKey = true;
                    }
                    else if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start, explicitKey: true });
                    }
                    else {
                        this.stack.push({
                            type: 'block-map',
                            offset: this.offset,
                            indent: this.indent,
                            items: [{ start: [this.sourceToken], explicitKey: true }]
                        });
                    }
                    this.onKeyLine = true;
                    return;
                case 'map-value-ind':
                    if (it.explicitKey) {
                        if (!it.sep) {
                            if (includesToken(it.start, 'newline')) {
                                Object.assign(it, { key: null, sep: [this.sourceToken] });
                            }
                            else {
                                const start = getFirstKeyStartProps(it.start);
                                this.stack.push({
                                    type: 'block-map',
                                    offset: this.offset,
                                    indent: this.indent,
                                    items: [{ start, key: null, sep: [this.sourceToken] }]
                                });
                            }
                        }
                        else if (it.value) {
                            map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else if (isFlowToken(it.key) &&
                            !includesToken(it.sep, 'newline')) {
                            const start = getFirstKeyStartProps(it.start);
                            const key = it.key;
                            const sep = it.sep;
                            sep.push(this.sourceToken);
                            // @ts-expect-error type guard is wrong here
                            delete it.key;
                            // @ts-expect-error type guard is wrong here
                            delete it.sep;
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key, sep }]
                            });
                        }
                        else if (start.length > 0) {
                            // Not actually at next item
                            it.sep = it.sep.concat(start, this.sourceToken);
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    else {
                        if (!it.sep) {
                            Object.assign(it, { key: null, sep: [this.sourceToken] });
                        }
                        else if (it.value || atNextItem) {
                            map.items.push({ start, key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start: [], key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    this.onKeyLine = true;
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (atNextItem || it.value) {
                        map.items.push({ start, key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        this.stack.push(fs);
                    }
                    else {
                        Object.assign(it, { key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    return;
                }
                default: {
                    const bv = this.startBlockValue(map);
                    if (bv) {
                        if (bv.type === 'block-seq') {
                            if (!it.explicitKey &&
                                it.sep &&
                                !includesToken(it.sep, 'newline')) {
                                yield* this.pop({
                                    type: 'error',
                                    offset: this.offset,
                                    message: 'Unexpected block-seq-ind on same line with key',
                                    source: this.source
                                });
                                return;
                            }
                        }
                        else if (atMapIndent) {
                            map.items.push({ start });
                        }
                        this.stack.push(bv);
                        return;
                    }
                }
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
            case 'newline':
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        seq.items.push({ start: [this.sourceToken] });
                }
                else
                    it.start.push(this.sourceToken);
                return;
            case 'space':
            case 'comment':
                if (it.value)
                    seq.items.push({ start: [this.sourceToken] });
                else {
                    if (this.atIndentedComment(it.start, seq.indent)) {
                        const prev = seq.items[seq.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            seq.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
            case 'anchor':
            case 'tag':
                if (it.value || this.indent <= seq.indent)
                    break;
                it.start.push(this.sourceToken);
                return;
            case 'seq-item-ind':
                if (this.indent !== seq.indent)
                    break;
                if (it.value || includesToken(it.start, 'seq-item-ind'))
                    seq.items.push({ start: [this.sourceToken] });
                else
                    it.start.push(this.sourceToken);
                return;
        }
        if (this.indent > seq.indent) {
            const bv = this.startBlockValue(seq);
            if (bv) {
                this.stack.push(bv);
                return;
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === 'flow-error-end') {
            let top;
            do {
                yield* this.pop();
                top = this.peek(1);
            } while (top?.type === 'flow-collection');
        }
        else if (fc.end.length === 0) {
            switch (this.type) {
                case 'comma':
                case 'explicit-key-ind':
                    if (!it || it.sep)
                        fc.items.push({ start: [this.sourceToken] });
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'map-value-ind':
                    if (!it || it.value)
                        fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        Object.assign(it, { key: null, sep: [this.sourceToken] });
                    return;
                case 'space':
                case 'comment':
                case 'newline':
                case 'anchor':
                case 'tag':
                    if (!it || it.value)
                        fc.items.push({ start: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (!it || it.value)
                        fc.items.push({ start: [], key: fs, sep: [] });
                    else if (it.sep)
                        this.stack.push(fs);
                    else
                        Object.assign(it, { key: fs, sep: [] });
                    return;
                }
                case 'flow-map-end':
                case 'flow-seq-end':
                    fc.end.push(this.sourceToken);
                    return;
            }
            const bv = this.startBlockValue(fc);
            /* istanbul ignore else should not happen */
            if (bv)
                this.stack.push(bv);
            else {
                yield* this.pop();
                yield* this.step();
            }
        }
        else {
            const parent = this.peek(2);
            if (parent.type === 'block-map' &&
                ((this.type === 'map-value-ind' && parent.indent === fc.indent) ||
                    (this.type === 'newline' &&
                        !parent.items[parent.items.length - 1].sep))) {
                yield* this.pop();
                yield* this.step();
            }
            else if (this.type === 'map-value-ind' &&
                parent.type !== 'flow-collection') {
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                fixFlowSeqItems(fc);
                const sep = fc.end.splice(1, fc.end.length);
                sep.push(this.sourceToken);
                const map = {
                    type: 'block-map',
                    offset: fc.offset,
                    indent: fc.indent,
                    items: [{ start, key: fc, sep }]
                };
                this.onKeyLine = true;
                this.stack[this.stack.length - 1] = map;
            }
            else {
                yield* this.lineEnd(fc);
            }
        }
    }
    flowScalar(type) {
        if (this.onNewLine) {
            let nl = this.source.indexOf('\n') + 1;
            while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf('\n', nl) + 1;
            }
        }
        return {
            type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
    }
    startBlockValue(parent) {
        switch (this.type) {
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return this.flowScalar(this.type);
            case 'block-scalar-header':
                return {
                    type: 'block-scalar',
                    offset: this.offset,
                    indent: this.indent,
                    props: [this.sourceToken],
                    source: ''
                };
            case 'flow-map-start':
            case 'flow-seq-start':
                return {
                    type: 'flow-collection',
                    offset: this.offset,
                    indent: this.indent,
                    start: this.sourceToken,
                    items: [],
                    end: []
                };
            case 'seq-item-ind':
                return {
                    type: 'block-seq',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [this.sourceToken] }]
                };
            case 'explicit-key-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                start.push(this.sourceToken);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, explicitKey: true }]
                };
            }
            case 'map-value-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                };
            }
        }
        return null;
    }
    atIndentedComment(start, indent) {
        if (this.type !== 'comment')
            return false;
        if (this.indent <= indent)
            return false;
        return start.every(st => st.type === 'newline' || st.type === 'space');
    }
    *documentEnd(docEnd) {
        if (this.type !== 'doc-mode') {
            if (docEnd.end)
                docEnd.end.push(this.sourceToken);
            else
                docEnd.end = [this.sourceToken];
            if (this.type === 'newline')
                yield* this.pop();
        }
    }
    *lineEnd(token) {
        switch (this.type) {
            case 'comma':
            case 'doc-start':
            case 'doc-end':
            case 'flow-seq-end':
            case 'flow-map-end':
            case 'map-value-ind':
                yield* this.pop();
                yield* this.step();
                break;
            case 'newline':
                this.onKeyLine = false;
            // fallthrough
            case 'space':
            case 'comment':
            default:
                // all other values are errors
                if (token.end)
                    token.end.push(this.sourceToken);
                else
                    token.end = [this.sourceToken];
                if (this.type === 'newline')
                    yield* this.pop();
        }
    }
}

exports.Parser = Parser;


/***/ }),

/***/ 4047:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var composer = __nccwpck_require__(9984);
var Document = __nccwpck_require__(3021);
var errors = __nccwpck_require__(1464);
var log = __nccwpck_require__(7249);
var identity = __nccwpck_require__(1127);
var lineCounter = __nccwpck_require__(6628);
var parser = __nccwpck_require__(3456);

function parseOptions(options) {
    const prettyErrors = options.prettyErrors !== false;
    const lineCounter$1 = options.lineCounter || (prettyErrors && new lineCounter.LineCounter()) || null;
    return { lineCounter: lineCounter$1, prettyErrors };
}
/**
 * Parse the input as a stream of YAML documents.
 *
 * Documents should be separated from each other by `...` or `---` marker lines.
 *
 * @returns If an empty `docs` array is returned, it will be of type
 *   EmptyStream and contain additional stream information. In
 *   TypeScript, you should use `'empty' in docs` as a type guard for it.
 */
function parseAllDocuments(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    const docs = Array.from(composer$1.compose(parser$1.parse(source)));
    if (prettyErrors && lineCounter)
        for (const doc of docs) {
            doc.errors.forEach(errors.prettifyError(source, lineCounter));
            doc.warnings.forEach(errors.prettifyError(source, lineCounter));
        }
    if (docs.length > 0)
        return docs;
    return Object.assign([], { empty: true }, composer$1.streamInfo());
}
/** Parse an input string into a single YAML.Document */
function parseDocument(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser$1 = new parser.Parser(lineCounter?.addNewLine);
    const composer$1 = new composer.Composer(options);
    // `doc` is always set by compose.end(true) at the very latest
    let doc = null;
    for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
            doc = _doc;
        else if (doc.options.logLevel !== 'silent') {
            doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
            break;
        }
    }
    if (prettyErrors && lineCounter) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter));
    }
    return doc;
}
function parse(src, reviver, options) {
    let _reviver = undefined;
    if (typeof reviver === 'function') {
        _reviver = reviver;
    }
    else if (options === undefined && reviver && typeof reviver === 'object') {
        options = reviver;
    }
    const doc = parseDocument(src, options);
    if (!doc)
        return null;
    doc.warnings.forEach(warning => log.warn(doc.options.logLevel, warning));
    if (doc.errors.length > 0) {
        if (doc.options.logLevel !== 'silent')
            throw doc.errors[0];
        else
            doc.errors = [];
    }
    return doc.toJS(Object.assign({ reviver: _reviver }, options));
}
function stringify(value, replacer, options) {
    let _replacer = null;
    if (typeof replacer === 'function' || Array.isArray(replacer)) {
        _replacer = replacer;
    }
    else if (options === undefined && replacer) {
        options = replacer;
    }
    if (typeof options === 'string')
        options = options.length;
    if (typeof options === 'number') {
        const indent = Math.round(options);
        options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
    }
    if (value === undefined) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
            return undefined;
    }
    if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
    return new Document.Document(value, _replacer, options).toString(options);
}

exports.parse = parse;
exports.parseAllDocuments = parseAllDocuments;
exports.parseDocument = parseDocument;
exports.stringify = stringify;


/***/ }),

/***/ 5840:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var tags = __nccwpck_require__(18);

const sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
class Schema {
    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat)
            ? tags.getTags(compat, 'compat')
            : compat
                ? tags.getTags(null, compat)
                : null;
        this.name = (typeof schema === 'string' && schema) || 'core';
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        // Used by createMap()
        this.sortMapEntries =
            typeof sortMapEntries === 'function'
                ? sortMapEntries
                : sortMapEntries === true
                    ? sortMapEntriesByKey
                    : null;
    }
    clone() {
        const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
    }
}

exports.Schema = Schema;


/***/ }),

/***/ 7451:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLMap = __nccwpck_require__(4454);

const map = {
    collection: 'map',
    default: true,
    nodeClass: YAMLMap.YAMLMap,
    tag: 'tag:yaml.org,2002:map',
    resolve(map, onError) {
        if (!identity.isMap(map))
            onError('Expected a mapping for this tag');
        return map;
    },
    createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
};

exports.map = map;


/***/ }),

/***/ 3632:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const nullTag = {
    identify: value => value == null,
    createNode: () => new Scalar.Scalar(null),
    default: true,
    tag: 'tag:yaml.org,2002:null',
    test: /^(?:~|[Nn]ull|NULL)?$/,
    resolve: () => new Scalar.Scalar(null),
    stringify: ({ source }, ctx) => typeof source === 'string' && nullTag.test.test(source)
        ? source
        : ctx.options.nullStr
};

exports.nullTag = nullTag;


/***/ }),

/***/ 1706:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var YAMLSeq = __nccwpck_require__(2223);

const seq = {
    collection: 'seq',
    default: true,
    nodeClass: YAMLSeq.YAMLSeq,
    tag: 'tag:yaml.org,2002:seq',
    resolve(seq, onError) {
        if (!identity.isSeq(seq))
            onError('Expected a sequence for this tag');
        return seq;
    },
    createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
};

exports.seq = seq;


/***/ }),

/***/ 6464:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyString = __nccwpck_require__(3069);

const string = {
    identify: value => typeof value === 'string',
    default: true,
    tag: 'tag:yaml.org,2002:str',
    resolve: str => str,
    stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
    }
};

exports.string = string;


/***/ }),

/***/ 3959:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

const boolTag = {
    identify: value => typeof value === 'boolean',
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
    resolve: str => new Scalar.Scalar(str[0] === 't' || str[0] === 'T'),
    stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
            const sv = source[0] === 't' || source[0] === 'T';
            if (value === sv)
                return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
};

exports.boolTag = boolTag;


/***/ }),

/***/ 8405:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: str => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
    resolve: str => parseFloat(str),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf('.');
        if (dot !== -1 && str[str.length - 1] === '0')
            node.minFractionDigits = str.length - dot - 1;
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 9874:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
const intResolve = (str, offset, radix, { intAsBigInt }) => (intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix));
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
    return stringifyNumber.stringifyNumber(node);
}
const intOct = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^0o[0-7]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
    stringify: node => intStringify(node, 8, '0o')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: value => intIdentify(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^0x[0-9a-fA-F]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 896:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.boolTag,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float
];

exports.schema = schema;


/***/ }),

/***/ 3559:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var map = __nccwpck_require__(7451);
var seq = __nccwpck_require__(1706);

function intIdentify(value) {
    return typeof value === 'bigint' || Number.isInteger(value);
}
const stringifyJSON = ({ value }) => JSON.stringify(value);
const jsonScalars = [
    {
        identify: value => typeof value === 'string',
        default: true,
        tag: 'tag:yaml.org,2002:str',
        resolve: str => str,
        stringify: stringifyJSON
    },
    {
        identify: value => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: 'tag:yaml.org,2002:null',
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
    },
    {
        identify: value => typeof value === 'boolean',
        default: true,
        tag: 'tag:yaml.org,2002:bool',
        test: /^true$|^false$/,
        resolve: str => str === 'true',
        stringify: stringifyJSON
    },
    {
        identify: intIdentify,
        default: true,
        tag: 'tag:yaml.org,2002:int',
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
    },
    {
        identify: value => typeof value === 'number',
        default: true,
        tag: 'tag:yaml.org,2002:float',
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: str => parseFloat(str),
        stringify: stringifyJSON
    }
];
const jsonError = {
    default: true,
    tag: '',
    test: /^/,
    resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
    }
};
const schema = [map.map, seq.seq].concat(jsonScalars, jsonError);

exports.schema = schema;


/***/ }),

/***/ 18:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var bool = __nccwpck_require__(3959);
var float = __nccwpck_require__(8405);
var int = __nccwpck_require__(9874);
var schema = __nccwpck_require__(896);
var schema$1 = __nccwpck_require__(3559);
var binary = __nccwpck_require__(6083);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var schema$2 = __nccwpck_require__(5913);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schemas = new Map([
    ['core', schema.schema],
    ['failsafe', [map.map, seq.seq, string.string]],
    ['json', schema$1.schema],
    ['yaml11', schema$2.schema],
    ['yaml-1.1', schema$2.schema]
]);
const tagsByName = {
    binary: binary.binary,
    bool: bool.boolTag,
    float: float.float,
    floatExp: float.floatExp,
    floatNaN: float.floatNaN,
    floatTime: timestamp.floatTime,
    int: int.int,
    intHex: int.intHex,
    intOct: int.intOct,
    intTime: timestamp.intTime,
    map: map.map,
    merge: merge.merge,
    null: _null.nullTag,
    omap: omap.omap,
    pairs: pairs.pairs,
    seq: seq.seq,
    set: set.set,
    timestamp: timestamp.timestamp
};
const coreKnownTags = {
    'tag:yaml.org,2002:binary': binary.binary,
    'tag:yaml.org,2002:merge': merge.merge,
    'tag:yaml.org,2002:omap': omap.omap,
    'tag:yaml.org,2002:pairs': pairs.pairs,
    'tag:yaml.org,2002:set': set.set,
    'tag:yaml.org,2002:timestamp': timestamp.timestamp
};
function getTags(customTags, schemaName, addMergeTag) {
    const schemaTags = schemas.get(schemaName);
    if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge)
            ? schemaTags.concat(merge.merge)
            : schemaTags.slice();
    }
    let tags = schemaTags;
    if (!tags) {
        if (Array.isArray(customTags))
            tags = [];
        else {
            const keys = Array.from(schemas.keys())
                .filter(key => key !== 'yaml11')
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
    }
    if (Array.isArray(customTags)) {
        for (const tag of customTags)
            tags = tags.concat(tag);
    }
    else if (typeof customTags === 'function') {
        tags = customTags(tags.slice());
    }
    if (addMergeTag)
        tags = tags.concat(merge.merge);
    return tags.reduce((tags, tag) => {
        const tagObj = typeof tag === 'string' ? tagsByName[tag] : tag;
        if (!tagObj) {
            const tagName = JSON.stringify(tag);
            const keys = Object.keys(tagsByName)
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags.includes(tagObj))
            tags.push(tagObj);
        return tags;
    }, []);
}

exports.coreKnownTags = coreKnownTags;
exports.getTags = getTags;


/***/ }),

/***/ 6083:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var node_buffer = __nccwpck_require__(181);
var Scalar = __nccwpck_require__(3301);
var stringifyString = __nccwpck_require__(3069);

const binary = {
    identify: value => value instanceof Uint8Array, // Buffer inherits from Uint8Array
    default: false,
    tag: 'tag:yaml.org,2002:binary',
    /**
     * Returns a Buffer in node and an Uint8Array in browsers
     *
     * To use the resulting buffer as an image, you'll want to do something like:
     *
     *   const blob = new Blob([buffer], { type: 'image/jpeg' })
     *   document.querySelector('#photo').src = URL.createObjectURL(blob)
     */
    resolve(src, onError) {
        if (typeof node_buffer.Buffer === 'function') {
            return node_buffer.Buffer.from(src, 'base64');
        }
        else if (typeof atob === 'function') {
            // On IE 11, atob() can't handle newlines
            const str = atob(src.replace(/[\n\r]/g, ''));
            const buffer = new Uint8Array(str.length);
            for (let i = 0; i < str.length; ++i)
                buffer[i] = str.charCodeAt(i);
            return buffer;
        }
        else {
            onError('This environment does not support reading binary tags; either Buffer or atob is required');
            return src;
        }
    },
    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
            return '';
        const buf = value; // checked earlier by binary.identify()
        let str;
        if (typeof node_buffer.Buffer === 'function') {
            str =
                buf instanceof node_buffer.Buffer
                    ? buf.toString('base64')
                    : node_buffer.Buffer.from(buf.buffer).toString('base64');
        }
        else if (typeof btoa === 'function') {
            let s = '';
            for (let i = 0; i < buf.length; ++i)
                s += String.fromCharCode(buf[i]);
            str = btoa(s);
        }
        else {
            throw new Error('This environment does not support writing binary tags; either Buffer or btoa is required');
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
            const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
            const n = Math.ceil(str.length / lineWidth);
            const lines = new Array(n);
            for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
                lines[i] = str.substr(o, lineWidth);
            }
            str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? '\n' : ' ');
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
    }
};

exports.binary = binary;


/***/ }),

/***/ 8398:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);

function boolStringify({ value, source }, ctx) {
    const boolObj = value ? trueTag : falseTag;
    if (source && boolObj.test.test(source))
        return source;
    return value ? ctx.options.trueStr : ctx.options.falseStr;
}
const trueTag = {
    identify: value => value === true,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => new Scalar.Scalar(true),
    stringify: boolStringify
};
const falseTag = {
    identify: value => value === false,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => new Scalar.Scalar(false),
    stringify: boolStringify
};

exports.falseTag = falseTag;
exports.trueTag = trueTag;


/***/ }),

/***/ 5782:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var stringifyNumber = __nccwpck_require__(8689);

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber.stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str.replace(/_/g, '')),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
    resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, '')));
        const dot = str.indexOf('.');
        if (dot !== -1) {
            const f = str.substring(dot + 1).replace(/_/g, '');
            if (f[f.length - 1] === '0')
                node.minFractionDigits = f.length;
        }
        return node;
    },
    stringify: stringifyNumber.stringifyNumber
};

exports.float = float;
exports.floatExp = floatExp;
exports.floatNaN = floatNaN;


/***/ }),

/***/ 873:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
function intResolve(str, offset, radix, { intAsBigInt }) {
    const sign = str[0];
    if (sign === '-' || sign === '+')
        offset += 1;
    str = str.substring(offset).replace(/_/g, '');
    if (intAsBigInt) {
        switch (radix) {
            case 2:
                str = `0b${str}`;
                break;
            case 8:
                str = `0o${str}`;
                break;
            case 16:
                str = `0x${str}`;
                break;
        }
        const n = BigInt(str);
        return sign === '-' ? BigInt(-1) * n : n;
    }
    const n = parseInt(str, radix);
    return sign === '-' ? -1 * n : n;
}
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? '-' + prefix + str.substr(1) : prefix + str;
    }
    return stringifyNumber.stringifyNumber(node);
}
const intBin = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'BIN',
    test: /^[-+]?0b[0-1_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
    stringify: node => intStringify(node, 2, '0b')
};
const intOct = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^[-+]?0[0-7_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
    stringify: node => intStringify(node, 8, '0')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9][0-9_]*$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber.stringifyNumber
};
const intHex = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^[-+]?0x[0-9a-fA-F_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

exports.int = int;
exports.intBin = intBin;
exports.intHex = intHex;
exports.intOct = intOct;


/***/ }),

/***/ 452:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);

// If the value associated with a merge key is a single mapping node, each of
// its key/value pairs is inserted into the current mapping, unless the key
// already exists in it. If the value associated with the merge key is a
// sequence, then this sequence is expected to contain mapping nodes and each
// of these nodes is merged in turn according to its order in the sequence.
// Keys in mapping nodes earlier in the sequence override keys specified in
// later mapping nodes. -- http://yaml.org/type/merge.html
const MERGE_KEY = '<<';
const merge = {
    identify: value => value === MERGE_KEY ||
        (typeof value === 'symbol' && value.description === MERGE_KEY),
    default: 'key',
    tag: 'tag:yaml.org,2002:merge',
    test: /^<<$/,
    resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
    }),
    stringify: () => MERGE_KEY
};
const isMergeKey = (ctx, key) => (merge.identify(key) ||
    (identity.isScalar(key) &&
        (!key.type || key.type === Scalar.Scalar.PLAIN) &&
        merge.identify(key.value))) &&
    ctx?.doc.schema.tags.some(tag => tag.tag === merge.tag && tag.default);
function addMergeToJSMap(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (identity.isSeq(source))
        for (const it of source.items)
            mergeValue(ctx, map, it);
    else if (Array.isArray(source))
        for (const it of source)
            mergeValue(ctx, map, it);
    else
        mergeValue(ctx, map, source);
}
function mergeValue(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (!identity.isMap(source))
        throw new Error('Merge sources must be maps or map aliases');
    const srcMap = source.toJSON(null, ctx, Map);
    for (const [key, value] of srcMap) {
        if (map instanceof Map) {
            if (!map.has(key))
                map.set(key, value);
        }
        else if (map instanceof Set) {
            map.add(key);
        }
        else if (!Object.prototype.hasOwnProperty.call(map, key)) {
            Object.defineProperty(map, key, {
                value,
                writable: true,
                enumerable: true,
                configurable: true
            });
        }
    }
    return map;
}
function resolveAliasValue(ctx, value) {
    return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
}

exports.addMergeToJSMap = addMergeToJSMap;
exports.isMergeKey = isMergeKey;
exports.merge = merge;


/***/ }),

/***/ 303:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var toJS = __nccwpck_require__(4043);
var YAMLMap = __nccwpck_require__(4454);
var YAMLSeq = __nccwpck_require__(2223);
var pairs = __nccwpck_require__(8385);

class YAMLOMap extends YAMLSeq.YAMLSeq {
    constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = YAMLOMap.tag;
    }
    /**
     * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
     * but TypeScript won't allow widening the signature of a child method.
     */
    toJSON(_, ctx) {
        if (!ctx)
            return super.toJSON(_);
        const map = new Map();
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const pair of this.items) {
            let key, value;
            if (identity.isPair(pair)) {
                key = toJS.toJS(pair.key, '', ctx);
                value = toJS.toJS(pair.value, key, ctx);
            }
            else {
                key = toJS.toJS(pair, '', ctx);
            }
            if (map.has(key))
                throw new Error('Ordered maps must not include duplicate keys');
            map.set(key, value);
        }
        return map;
    }
    static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap = new this();
        omap.items = pairs$1.items;
        return omap;
    }
}
YAMLOMap.tag = 'tag:yaml.org,2002:omap';
const omap = {
    collection: 'seq',
    identify: value => value instanceof Map,
    nodeClass: YAMLOMap,
    default: false,
    tag: 'tag:yaml.org,2002:omap',
    resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
            if (identity.isScalar(key)) {
                if (seenKeys.includes(key.value)) {
                    onError(`Ordered maps must not include duplicate keys: ${key.value}`);
                }
                else {
                    seenKeys.push(key.value);
                }
            }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
    },
    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
};

exports.YAMLOMap = YAMLOMap;
exports.omap = omap;


/***/ }),

/***/ 8385:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var Scalar = __nccwpck_require__(3301);
var YAMLSeq = __nccwpck_require__(2223);

function resolvePairs(seq, onError) {
    if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
            let item = seq.items[i];
            if (identity.isPair(item))
                continue;
            else if (identity.isMap(item)) {
                if (item.items.length > 1)
                    onError('Each pair must have its own sequence indicator');
                const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
                if (item.commentBefore)
                    pair.key.commentBefore = pair.key.commentBefore
                        ? `${item.commentBefore}\n${pair.key.commentBefore}`
                        : item.commentBefore;
                if (item.comment) {
                    const cn = pair.value ?? pair.key;
                    cn.comment = cn.comment
                        ? `${item.comment}\n${cn.comment}`
                        : item.comment;
                }
                item = pair;
            }
            seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
    }
    else
        onError('Expected a sequence for this tag');
    return seq;
}
function createPairs(schema, iterable, ctx) {
    const { replacer } = ctx;
    const pairs = new YAMLSeq.YAMLSeq(schema);
    pairs.tag = 'tag:yaml.org,2002:pairs';
    let i = 0;
    if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
            if (typeof replacer === 'function')
                it = replacer.call(iterable, String(i++), it);
            let key, value;
            if (Array.isArray(it)) {
                if (it.length === 2) {
                    key = it[0];
                    value = it[1];
                }
                else
                    throw new TypeError(`Expected [key, value] tuple: ${it}`);
            }
            else if (it && it instanceof Object) {
                const keys = Object.keys(it);
                if (keys.length === 1) {
                    key = keys[0];
                    value = it[key];
                }
                else {
                    throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
                }
            }
            else {
                key = it;
            }
            pairs.items.push(Pair.createPair(key, value, ctx));
        }
    return pairs;
}
const pairs = {
    collection: 'seq',
    default: false,
    tag: 'tag:yaml.org,2002:pairs',
    resolve: resolvePairs,
    createNode: createPairs
};

exports.createPairs = createPairs;
exports.pairs = pairs;
exports.resolvePairs = resolvePairs;


/***/ }),

/***/ 5913:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var map = __nccwpck_require__(7451);
var _null = __nccwpck_require__(3632);
var seq = __nccwpck_require__(1706);
var string = __nccwpck_require__(6464);
var binary = __nccwpck_require__(6083);
var bool = __nccwpck_require__(8398);
var float = __nccwpck_require__(5782);
var int = __nccwpck_require__(873);
var merge = __nccwpck_require__(452);
var omap = __nccwpck_require__(303);
var pairs = __nccwpck_require__(8385);
var set = __nccwpck_require__(1528);
var timestamp = __nccwpck_require__(6752);

const schema = [
    map.map,
    seq.seq,
    string.string,
    _null.nullTag,
    bool.trueTag,
    bool.falseTag,
    int.intBin,
    int.intOct,
    int.int,
    int.intHex,
    float.floatNaN,
    float.floatExp,
    float.float,
    binary.binary,
    merge.merge,
    omap.omap,
    pairs.pairs,
    set.set,
    timestamp.intTime,
    timestamp.floatTime,
    timestamp.timestamp
];

exports.schema = schema;


/***/ }),

/***/ 1528:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Pair = __nccwpck_require__(7165);
var YAMLMap = __nccwpck_require__(4454);

class YAMLSet extends YAMLMap.YAMLMap {
    constructor(schema) {
        super(schema);
        this.tag = YAMLSet.tag;
    }
    add(key) {
        let pair;
        if (identity.isPair(key))
            pair = key;
        else if (key &&
            typeof key === 'object' &&
            'key' in key &&
            'value' in key &&
            key.value === null)
            pair = new Pair.Pair(key.key, null);
        else
            pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
            this.items.push(pair);
    }
    /**
     * If `keepPair` is `true`, returns the Pair matching `key`.
     * Otherwise, returns the value of that Pair's key.
     */
    get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair)
            ? identity.isScalar(pair.key)
                ? pair.key.value
                : pair.key
            : pair;
    }
    set(key, value) {
        if (typeof value !== 'boolean')
            throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
            this.items.splice(this.items.indexOf(prev), 1);
        }
        else if (!prev && value) {
            this.items.push(new Pair.Pair(key));
        }
    }
    toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        if (this.hasAllNullValues(true))
            return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
            throw new Error('Set items must all have null values');
    }
    static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
            for (let value of iterable) {
                if (typeof replacer === 'function')
                    value = replacer.call(iterable, value, value);
                set.items.push(Pair.createPair(value, null, ctx));
            }
        return set;
    }
}
YAMLSet.tag = 'tag:yaml.org,2002:set';
const set = {
    collection: 'map',
    identify: value => value instanceof Set,
    nodeClass: YAMLSet,
    default: false,
    tag: 'tag:yaml.org,2002:set',
    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
    resolve(map, onError) {
        if (identity.isMap(map)) {
            if (map.hasAllNullValues(true))
                return Object.assign(new YAMLSet(), map);
            else
                onError('Set items must all have null values');
        }
        else
            onError('Expected a mapping for this tag');
        return map;
    }
};

exports.YAMLSet = YAMLSet;
exports.set = set;


/***/ }),

/***/ 6752:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var stringifyNumber = __nccwpck_require__(8689);

/** Internal types handle bigint as number, because TS can't figure it out. */
function parseSexagesimal(str, asBigInt) {
    const sign = str[0];
    const parts = sign === '-' || sign === '+' ? str.substring(1) : str;
    const num = (n) => asBigInt ? BigInt(n) : Number(n);
    const res = parts
        .replace(/_/g, '')
        .split(':')
        .reduce((res, p) => res * num(60) + num(p), num(0));
    return (sign === '-' ? num(-1) * res : res);
}
/**
 * hhhh:mm:ss.sss
 *
 * Internal types handle bigint as number, because TS can't figure it out.
 */
function stringifySexagesimal(node) {
    let { value } = node;
    let num = (n) => n;
    if (typeof value === 'bigint')
        num = n => BigInt(n);
    else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
    let sign = '';
    if (value < 0) {
        sign = '-';
        value *= num(-1);
    }
    const _60 = num(60);
    const parts = [value % _60]; // seconds, including ms
    if (value < 60) {
        parts.unshift(0); // at least one : is required
    }
    else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60); // minutes
        if (value >= 60) {
            value = (value - parts[0]) / _60;
            parts.unshift(value); // hours
        }
    }
    return (sign +
        parts
            .map(n => String(n).padStart(2, '0'))
            .join(':')
            .replace(/000000\d*$/, '') // % 60 may introduce error
    );
}
const intTime = {
    identify: value => typeof value === 'bigint' || Number.isInteger(value),
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
    stringify: stringifySexagesimal
};
const floatTime = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
    resolve: str => parseSexagesimal(str, false),
    stringify: stringifySexagesimal
};
const timestamp = {
    identify: value => value instanceof Date,
    default: true,
    tag: 'tag:yaml.org,2002:timestamp',
    // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
    // may be omitted altogether, resulting in a date format. In such a case, the time part is
    // assumed to be 00:00:00Z (start of day, UTC).
    test: RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})' + // YYYY-Mm-Dd
        '(?:' + // time is optional
        '(?:t|T|[ \\t]+)' + // t | T | whitespace
        '([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)' + // Hh:Mm:Ss(.ss)?
        '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?' + // Z | +5 | -03:30
        ')?$'),
    resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
            throw new Error('!!timestamp expects a date, starting with yyyy-mm-dd');
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== 'Z') {
            let d = parseSexagesimal(tz, false);
            if (Math.abs(d) < 30)
                d *= 60;
            date -= 60000 * d;
        }
        return new Date(date);
    },
    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, '') ?? ''
};

exports.floatTime = floatTime;
exports.intTime = intTime;
exports.timestamp = timestamp;


/***/ }),

/***/ 4475:
/***/ ((__unused_webpack_module, exports) => {



const FOLD_FLOW = 'flow';
const FOLD_BLOCK = 'block';
const FOLD_QUOTED = 'quoted';
/**
 * Tries to keep input at up to `lineWidth` characters, splitting only on spaces
 * not followed by newlines or spaces unless `mode` is `'quoted'`. Lines are
 * terminated with `\n` and started with `indent`.
 */
function foldFlowLines(text, indent, mode = 'flow', { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
    if (!lineWidth || lineWidth < 0)
        return text;
    if (lineWidth < minContentWidth)
        minContentWidth = 0;
    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
    if (text.length <= endStep)
        return text;
    const folds = [];
    const escapedFolds = {};
    let end = lineWidth - indent.length;
    if (typeof indentAtStart === 'number') {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
            folds.push(0);
        else
            end = lineWidth - indentAtStart;
    }
    let split = undefined;
    let prev = undefined;
    let overflow = false;
    let i = -1;
    let escStart = -1;
    let escEnd = -1;
    if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
            end = i + endStep;
    }
    for (let ch; (ch = text[(i += 1)]);) {
        if (mode === FOLD_QUOTED && ch === '\\') {
            escStart = i;
            switch (text[i + 1]) {
                case 'x':
                    i += 3;
                    break;
                case 'u':
                    i += 5;
                    break;
                case 'U':
                    i += 9;
                    break;
                default:
                    i += 1;
            }
            escEnd = i;
        }
        if (ch === '\n') {
            if (mode === FOLD_BLOCK)
                i = consumeMoreIndentedLines(text, i, indent.length);
            end = i + indent.length + endStep;
            split = undefined;
        }
        else {
            if (ch === ' ' &&
                prev &&
                prev !== ' ' &&
                prev !== '\n' &&
                prev !== '\t') {
                // space surrounded by non-space can be replaced with newline + indent
                const next = text[i + 1];
                if (next && next !== ' ' && next !== '\n' && next !== '\t')
                    split = i;
            }
            if (i >= end) {
                if (split) {
                    folds.push(split);
                    end = split + endStep;
                    split = undefined;
                }
                else if (mode === FOLD_QUOTED) {
                    // white-space collected at end may stretch past lineWidth
                    while (prev === ' ' || prev === '\t') {
                        prev = ch;
                        ch = text[(i += 1)];
                        overflow = true;
                    }
                    // Account for newline escape, but don't break preceding escape
                    const j = i > escEnd + 1 ? i - 2 : escStart - 1;
                    // Bail out if lineWidth & minContentWidth are shorter than an escape string
                    if (escapedFolds[j])
                        return text;
                    folds.push(j);
                    escapedFolds[j] = true;
                    end = j + endStep;
                    split = undefined;
                }
                else {
                    overflow = true;
                }
            }
        }
        prev = ch;
    }
    if (overflow && onOverflow)
        onOverflow();
    if (folds.length === 0)
        return text;
    if (onFold)
        onFold();
    let res = text.slice(0, folds[0]);
    for (let i = 0; i < folds.length; ++i) {
        const fold = folds[i];
        const end = folds[i + 1] || text.length;
        if (fold === 0)
            res = `\n${indent}${text.slice(0, end)}`;
        else {
            if (mode === FOLD_QUOTED && escapedFolds[fold])
                res += `${text[fold]}\\`;
            res += `\n${indent}${text.slice(fold + 1, end)}`;
        }
    }
    return res;
}
/**
 * Presumes `i + 1` is at the start of a line
 * @returns index of last newline in more-indented block
 */
function consumeMoreIndentedLines(text, i, indent) {
    let end = i;
    let start = i + 1;
    let ch = text[start];
    while (ch === ' ' || ch === '\t') {
        if (i < start + indent) {
            ch = text[++i];
        }
        else {
            do {
                ch = text[++i];
            } while (ch && ch !== '\n');
            end = i;
            start = i + 1;
            ch = text[start];
        }
    }
    return end;
}

exports.FOLD_BLOCK = FOLD_BLOCK;
exports.FOLD_FLOW = FOLD_FLOW;
exports.FOLD_QUOTED = FOLD_QUOTED;
exports.foldFlowLines = foldFlowLines;


/***/ }),

/***/ 2148:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var anchors = __nccwpck_require__(1596);
var identity = __nccwpck_require__(1127);
var stringifyComment = __nccwpck_require__(9799);
var stringifyString = __nccwpck_require__(3069);

function createStringifyContext(doc, options) {
    const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: 'PLAIN',
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: 'false',
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: 'null',
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: 'true',
        verifyAliasOrder: true
    }, doc.schema.toStringOptions, options);
    let inFlow;
    switch (opt.collectionStyle) {
        case 'block':
            inFlow = false;
            break;
        case 'flow':
            inFlow = true;
            break;
        default:
            inFlow = null;
    }
    return {
        anchors: new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? ' ' : '',
        indent: '',
        indentStep: typeof opt.indent === 'number' ? ' '.repeat(opt.indent) : '  ',
        inFlow,
        options: opt
    };
}
function getTagObject(tags, item) {
    if (item.tag) {
        const match = tags.filter(t => t.tag === item.tag);
        if (match.length > 0)
            return match.find(t => t.format === item.format) ?? match[0];
    }
    let tagObj = undefined;
    let obj;
    if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter(t => t.identify?.(obj));
        if (match.length > 1) {
            const testMatch = match.filter(t => t.test);
            if (testMatch.length > 0)
                match = testMatch;
        }
        tagObj =
            match.find(t => t.format === item.format) ?? match.find(t => !t.format);
    }
    else {
        obj = item;
        tagObj = tags.find(t => t.nodeClass && obj instanceof t.nodeClass);
    }
    if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? 'null' : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
    }
    return tagObj;
}
// needs to be called before value stringifier to allow for circular anchor refs
function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
    if (!doc.directives)
        return '';
    const props = [];
    const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
    if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
    }
    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
    if (tag)
        props.push(doc.directives.tagString(tag));
    return props.join(' ');
}
function stringify(item, ctx, onComment, onChompKeep) {
    if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
    if (identity.isAlias(item)) {
        if (ctx.doc.directives)
            return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
            throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        }
        else {
            if (ctx.resolvedAliases)
                ctx.resolvedAliases.add(item);
            else
                ctx.resolvedAliases = new Set([item]);
            item = item.resolve(ctx.doc);
        }
    }
    let tagObj = undefined;
    const node = identity.isNode(item)
        ? item
        : ctx.doc.createNode(item, { onTagObj: o => (tagObj = o) });
    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
    const props = stringifyProps(node, tagObj, ctx);
    if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
    const str = typeof tagObj.stringify === 'function'
        ? tagObj.stringify(node, ctx, onComment, onChompKeep)
        : identity.isScalar(node)
            ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep)
            : node.toString(ctx, onComment, onChompKeep);
    if (!props)
        return str;
    return identity.isScalar(node) || str[0] === '{' || str[0] === '['
        ? `${props} ${str}`
        : `${props}\n${ctx.indent}${str}`;
}

exports.createStringifyContext = createStringifyContext;
exports.stringify = stringify;


/***/ }),

/***/ 1212:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyCollection(collection, ctx, options) {
    const flow = ctx.inFlow ?? collection.flow;
    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
    return stringify(collection, ctx, options);
}
function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
    const { indent, options: { commentString } } = ctx;
    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
    let chompKeep = false; // flag for the preceding node's status
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (!chompKeep && item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (!chompKeep && ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
            }
        }
        chompKeep = false;
        let str = stringify.stringify(item, itemCtx, () => (comment = null), () => (chompKeep = true));
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        if (chompKeep && comment)
            chompKeep = false;
        lines.push(blockItemPrefix + str);
    }
    let str;
    if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
    }
    else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
            const line = lines[i];
            str += line ? `\n${indent}${line}` : '\n';
        }
    }
    if (comment) {
        str += '\n' + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
            onComment();
    }
    else if (chompKeep && onChompKeep)
        onChompKeep();
    return str;
}
function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
    itemIndent += indentStep;
    const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
    });
    let reqNewline = false;
    let linesAtValue = 0;
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
            if (item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, false);
            if (item.comment)
                comment = item.comment;
        }
        else if (identity.isPair(item)) {
            const ik = identity.isNode(item.key) ? item.key : null;
            if (ik) {
                if (ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, false);
                if (ik.comment)
                    reqNewline = true;
            }
            const iv = identity.isNode(item.value) ? item.value : null;
            if (iv) {
                if (iv.comment)
                    comment = iv.comment;
                if (iv.commentBefore)
                    reqNewline = true;
            }
            else if (item.value == null && ik?.comment) {
                comment = ik.comment;
            }
        }
        if (comment)
            reqNewline = true;
        let str = stringify.stringify(item, itemCtx, () => (comment = null));
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes('\n'));
        if (i < items.length - 1) {
            str += ',';
        }
        else if (ctx.options.trailingComma) {
            if (ctx.options.lineWidth > 0) {
                reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) +
                    (str.length + 2) >
                    ctx.options.lineWidth);
            }
            if (reqNewline) {
                str += ',';
            }
        }
        if (comment)
            str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
    }
    const { start, end } = flowChars;
    if (lines.length === 0) {
        return start + end;
    }
    else {
        if (!reqNewline) {
            const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
            reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
            let str = start;
            for (const line of lines)
                str += line ? `\n${indentStep}${indent}${line}` : '\n';
            return `${str}\n${indent}${end}`;
        }
        else {
            return `${start}${fcPadding}${lines.join(' ')}${fcPadding}${end}`;
        }
    }
}
function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
    if (comment && chompKeep)
        comment = comment.replace(/^\n+/, '');
    if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart()); // Avoid double indent on first line
    }
}

exports.stringifyCollection = stringifyCollection;


/***/ }),

/***/ 9799:
/***/ ((__unused_webpack_module, exports) => {



/**
 * Stringifies a comment.
 *
 * Empty comment lines are left empty,
 * lines consisting of a single space are replaced by `#`,
 * and all other lines are prefixed with a `#`.
 */
const stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, '#');
function indentComment(comment, indent) {
    if (/^\n+$/.test(comment))
        return comment.substring(1);
    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
}
const lineComment = (str, indent, comment) => str.endsWith('\n')
    ? indentComment(comment, indent)
    : comment.includes('\n')
        ? '\n' + indentComment(comment, indent)
        : (str.endsWith(' ') ? '' : ' ') + comment;

exports.indentComment = indentComment;
exports.lineComment = lineComment;
exports.stringifyComment = stringifyComment;


/***/ }),

/***/ 6829:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyDocument(doc, options) {
    const lines = [];
    let hasDirectives = options.directives === true;
    if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
            lines.push(dir);
            hasDirectives = true;
        }
        else if (doc.directives.docStart)
            hasDirectives = true;
    }
    if (hasDirectives)
        lines.push('---');
    const ctx = stringify.createStringifyContext(doc, options);
    const { commentString } = ctx.options;
    if (doc.commentBefore) {
        if (lines.length !== 1)
            lines.unshift('');
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ''));
    }
    let chompKeep = false;
    let contentComment = null;
    if (doc.contents) {
        if (identity.isNode(doc.contents)) {
            if (doc.contents.spaceBefore && hasDirectives)
                lines.push('');
            if (doc.contents.commentBefore) {
                const cs = commentString(doc.contents.commentBefore);
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            // top-level block scalars need to be indented if followed by a comment
            ctx.forceBlockIndent = !!doc.comment;
            contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? undefined : () => (chompKeep = true);
        let body = stringify.stringify(doc.contents, ctx, () => (contentComment = null), onChompKeep);
        if (contentComment)
            body += stringifyComment.lineComment(body, '', commentString(contentComment));
        if ((body[0] === '|' || body[0] === '>') &&
            lines[lines.length - 1] === '---') {
            // Top-level block scalars with a preceding doc marker ought to use the
            // same line for their header.
            lines[lines.length - 1] = `--- ${body}`;
        }
        else
            lines.push(body);
    }
    else {
        lines.push(stringify.stringify(doc.contents, ctx));
    }
    if (doc.directives?.docEnd) {
        if (doc.comment) {
            const cs = commentString(doc.comment);
            if (cs.includes('\n')) {
                lines.push('...');
                lines.push(stringifyComment.indentComment(cs, ''));
            }
            else {
                lines.push(`... ${cs}`);
            }
        }
        else {
            lines.push('...');
        }
    }
    else {
        let dc = doc.comment;
        if (dc && chompKeep)
            dc = dc.replace(/^\n+/, '');
        if (dc) {
            if ((!chompKeep || contentComment) && lines[lines.length - 1] !== '')
                lines.push('');
            lines.push(stringifyComment.indentComment(commentString(dc), ''));
        }
    }
    return lines.join('\n') + '\n';
}

exports.stringifyDocument = stringifyDocument;


/***/ }),

/***/ 8689:
/***/ ((__unused_webpack_module, exports) => {



function stringifyNumber({ format, minFractionDigits, tag, value }) {
    if (typeof value === 'bigint')
        return String(value);
    const num = typeof value === 'number' ? value : Number(value);
    if (!isFinite(num))
        return isNaN(num) ? '.nan' : num < 0 ? '-.inf' : '.inf';
    let n = Object.is(value, -0) ? '-0' : JSON.stringify(value);
    if (!format &&
        minFractionDigits &&
        (!tag || tag === 'tag:yaml.org,2002:float') &&
        /^-?\d/.test(n) &&
        !n.includes('e')) {
        let i = n.indexOf('.');
        if (i < 0) {
            i = n.length;
            n += '.';
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
            n += '0';
    }
    return n;
}

exports.stringifyNumber = stringifyNumber;


/***/ }),

/***/ 9748:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);
var Scalar = __nccwpck_require__(3301);
var stringify = __nccwpck_require__(2148);
var stringifyComment = __nccwpck_require__(9799);

function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
    let keyComment = (identity.isNode(key) && key.comment) || null;
    if (simpleKeys) {
        if (keyComment) {
            throw new Error('With simple keys, key nodes cannot have comments');
        }
        if (identity.isCollection(key) || (!identity.isNode(key) && typeof key === 'object')) {
            const msg = 'With simple keys, collection cannot be used as a key value';
            throw new Error(msg);
        }
    }
    let explicitKey = !simpleKeys &&
        (!key ||
            (keyComment && value == null && !ctx.inFlow) ||
            identity.isCollection(key) ||
            (identity.isScalar(key)
                ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL
                : typeof key === 'object'));
    ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
    });
    let keyCommentDone = false;
    let chompKeep = false;
    let str = stringify.stringify(key, ctx, () => (keyCommentDone = true), () => (chompKeep = true));
    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
            throw new Error('With simple keys, single line scalar must not span more than 1024 characters');
        explicitKey = true;
    }
    if (ctx.inFlow) {
        if (allNullValues || value == null) {
            if (keyCommentDone && onComment)
                onComment();
            return str === '' ? '?' : explicitKey ? `? ${str}` : str;
        }
    }
    else if ((allNullValues && !simpleKeys) || (value == null && explicitKey)) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        }
        else if (chompKeep && onChompKeep)
            onChompKeep();
        return str;
    }
    if (keyCommentDone)
        keyComment = null;
    if (explicitKey) {
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}\n${indent}:`;
    }
    else {
        str = `${str}:`;
        if (keyComment)
            str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
    }
    let vsb, vcb, valueComment;
    if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
    }
    else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === 'object')
            value = doc.createNode(value);
    }
    ctx.implicitKey = false;
    if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
    chompKeep = false;
    if (!indentSeq &&
        indentStep.length >= 2 &&
        !ctx.inFlow &&
        !explicitKey &&
        identity.isSeq(value) &&
        !value.flow &&
        !value.tag &&
        !value.anchor) {
        // If indentSeq === false, consider '- ' as part of indentation where possible
        ctx.indent = ctx.indent.substring(2);
    }
    let valueCommentDone = false;
    const valueStr = stringify.stringify(value, ctx, () => (valueCommentDone = true), () => (chompKeep = true));
    let ws = ' ';
    if (keyComment || vsb || vcb) {
        ws = vsb ? '\n' : '';
        if (vcb) {
            const cs = commentString(vcb);
            ws += `\n${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === '' && !ctx.inFlow) {
            if (ws === '\n' && valueComment)
                ws = '\n\n';
        }
        else {
            ws += `\n${ctx.indent}`;
        }
    }
    else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf('\n');
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
            let hasPropsLine = false;
            if (hasNewline && (vs0 === '&' || vs0 === '!')) {
                let sp0 = valueStr.indexOf(' ');
                if (vs0 === '&' &&
                    sp0 !== -1 &&
                    sp0 < nl0 &&
                    valueStr[sp0 + 1] === '!') {
                    sp0 = valueStr.indexOf(' ', sp0 + 1);
                }
                if (sp0 === -1 || nl0 < sp0)
                    hasPropsLine = true;
            }
            if (!hasPropsLine)
                ws = `\n${ctx.indent}`;
        }
    }
    else if (valueStr === '' || valueStr[0] === '\n') {
        ws = '';
    }
    str += ws + valueStr;
    if (ctx.inFlow) {
        if (valueCommentDone && onComment)
            onComment();
    }
    else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
    }
    else if (chompKeep && onChompKeep) {
        onChompKeep();
    }
    return str;
}

exports.stringifyPair = stringifyPair;


/***/ }),

/***/ 3069:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var Scalar = __nccwpck_require__(3301);
var foldFlowLines = __nccwpck_require__(4475);

const getFoldOptions = (ctx, isBlock) => ({
    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
    lineWidth: ctx.options.lineWidth,
    minContentWidth: ctx.options.minContentWidth
});
// Also checks for lines starting with %, as parsing the output as YAML 1.1 will
// presume that's starting a new document.
const containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
function lineLengthOverLimit(str, lineWidth, indentLength) {
    if (!lineWidth || lineWidth < 0)
        return false;
    const limit = lineWidth - indentLength;
    const strLen = str.length;
    if (strLen <= limit)
        return false;
    for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === '\n') {
            if (i - start > limit)
                return true;
            start = i + 1;
            if (strLen - start <= limit)
                return false;
        }
    }
    return true;
}
function doubleQuotedString(value, ctx) {
    const json = JSON.stringify(value);
    if (ctx.options.doubleQuotedAsJSON)
        return json;
    const { implicitKey } = ctx;
    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    let str = '';
    let start = 0;
    for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
            // space before newline needs to be escaped to not be folded
            str += json.slice(start, i) + '\\ ';
            i += 1;
            start = i;
            ch = '\\';
        }
        if (ch === '\\')
            switch (json[i + 1]) {
                case 'u':
                    {
                        str += json.slice(start, i);
                        const code = json.substr(i + 2, 4);
                        switch (code) {
                            case '0000':
                                str += '\\0';
                                break;
                            case '0007':
                                str += '\\a';
                                break;
                            case '000b':
                                str += '\\v';
                                break;
                            case '001b':
                                str += '\\e';
                                break;
                            case '0085':
                                str += '\\N';
                                break;
                            case '00a0':
                                str += '\\_';
                                break;
                            case '2028':
                                str += '\\L';
                                break;
                            case '2029':
                                str += '\\P';
                                break;
                            default:
                                if (code.substr(0, 2) === '00')
                                    str += '\\x' + code.substr(2);
                                else
                                    str += json.substr(i, 6);
                        }
                        i += 5;
                        start = i + 1;
                    }
                    break;
                case 'n':
                    if (implicitKey ||
                        json[i + 2] === '"' ||
                        json.length < minMultiLineLength) {
                        i += 1;
                    }
                    else {
                        // folding will eat first newline
                        str += json.slice(start, i) + '\n\n';
                        while (json[i + 2] === '\\' &&
                            json[i + 3] === 'n' &&
                            json[i + 4] !== '"') {
                            str += '\n';
                            i += 2;
                        }
                        str += indent;
                        // space after newline needs to be escaped to not be folded
                        if (json[i + 2] === ' ')
                            str += '\\';
                        i += 1;
                        start = i + 1;
                    }
                    break;
                default:
                    i += 1;
            }
    }
    str = start ? str + json.slice(start) : json;
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
}
function singleQuotedString(value, ctx) {
    if (ctx.options.singleQuote === false ||
        (ctx.implicitKey && value.includes('\n')) ||
        /[ \t]\n|\n[ \t]/.test(value) // single quoted string can't have leading or trailing whitespace around newline
    )
        return doubleQuotedString(value, ctx);
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`) + "'";
    return ctx.implicitKey
        ? res
        : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function quotedString(value, ctx) {
    const { singleQuote } = ctx.options;
    let qs;
    if (singleQuote === false)
        qs = doubleQuotedString;
    else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
            qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
            qs = doubleQuotedString;
        else
            qs = singleQuote ? singleQuotedString : doubleQuotedString;
    }
    return qs(value, ctx);
}
// The negative lookbehind avoids a polynomial search,
// but isn't supported yet on Safari: https://caniuse.com/js-regexp-lookbehind
let blockEndNewlines;
try {
    blockEndNewlines = new RegExp('(^|(?<!\n))\n+(?!\n|$)', 'g');
}
catch {
    blockEndNewlines = /\n+(?!\n|$)/g;
}
function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
    const { blockQuote, commentString, lineWidth } = ctx.options;
    // 1. Block can't end in whitespace unless the last line is non-empty.
    // 2. Strings consisting of only whitespace are best rendered explicitly.
    if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
    }
    const indent = ctx.indent ||
        (ctx.forceBlockIndent || containsDocumentMarker(value) ? '  ' : '');
    const literal = blockQuote === 'literal'
        ? true
        : blockQuote === 'folded' || type === Scalar.Scalar.BLOCK_FOLDED
            ? false
            : type === Scalar.Scalar.BLOCK_LITERAL
                ? true
                : !lineLengthOverLimit(value, lineWidth, indent.length);
    if (!value)
        return literal ? '|\n' : '>\n';
    // determine chomping from whitespace at value end
    let chomp;
    let endStart;
    for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== '\n' && ch !== '\t' && ch !== ' ')
            break;
    }
    let end = value.substring(endStart);
    const endNlPos = end.indexOf('\n');
    if (endNlPos === -1) {
        chomp = '-'; // strip
    }
    else if (value === end || endNlPos !== end.length - 1) {
        chomp = '+'; // keep
        if (onChompKeep)
            onChompKeep();
    }
    else {
        chomp = ''; // clip
    }
    if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === '\n')
            end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
    }
    // determine indent indicator from whitespace at value start
    let startWithSpace = false;
    let startEnd;
    let startNlPos = -1;
    for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === ' ')
            startWithSpace = true;
        else if (ch === '\n')
            startNlPos = startEnd;
        else
            break;
    }
    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
    if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
    }
    const indentSize = indent ? '2' : '1'; // root is at -1
    // Leading | or > is added later
    let header = (startWithSpace ? indentSize : '') + chomp;
    if (comment) {
        header += ' ' + commentString(comment.replace(/ ?[\r\n]+/g, ' '));
        if (onComment)
            onComment();
    }
    if (!literal) {
        const foldedValue = value
            .replace(/\n+/g, '\n$&')
            .replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, '$1$2') // more-indented lines aren't folded
            //                ^ more-ind. ^ empty     ^ capture next empty lines only at end of indent
            .replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== 'folded' && type !== Scalar.Scalar.BLOCK_FOLDED) {
            foldOptions.onOverflow = () => {
                literalFallback = true;
            };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
            return `>${header}\n${indent}${body}`;
    }
    value = value.replace(/\n+/g, `$&${indent}`);
    return `|${header}\n${indent}${start}${value}${end}`;
}
function plainString(item, ctx, onComment, onChompKeep) {
    const { type, value } = item;
    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
    if ((implicitKey && value.includes('\n')) ||
        (inFlow && /[[\]{},]/.test(value))) {
        return quotedString(value, ctx);
    }
    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        // not allowed:
        // - '-' or '?'
        // - start with an indicator character (except [?:-]) or /[?-] /
        // - '\n ', ': ' or ' \n' anywhere
        // - '#' not preceded by a non-space char
        // - end with ' ' or ':'
        return implicitKey || inFlow || !value.includes('\n')
            ? quotedString(value, ctx)
            : blockString(item, ctx, onComment, onChompKeep);
    }
    if (!implicitKey &&
        !inFlow &&
        type !== Scalar.Scalar.PLAIN &&
        value.includes('\n')) {
        // Where allowed & type not set explicitly, prefer block style for multiline strings
        return blockString(item, ctx, onComment, onChompKeep);
    }
    if (containsDocumentMarker(value)) {
        if (indent === '') {
            ctx.forceBlockIndent = true;
            return blockString(item, ctx, onComment, onChompKeep);
        }
        else if (implicitKey && indent === indentStep) {
            return quotedString(value, ctx);
        }
    }
    const str = value.replace(/\n+/g, `$&\n${indent}`);
    // Verify that output will be parsed as a string, as e.g. plain numbers and
    // booleans get parsed with those types in v1.2 (e.g. '42', 'true' & '0.9e-3'),
    // and others in v1.1.
    if (actualString) {
        const test = (tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
            return quotedString(value, ctx);
    }
    return implicitKey
        ? str
        : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
}
function stringifyString(item, ctx, onComment, onChompKeep) {
    const { implicitKey, inFlow } = ctx;
    const ss = typeof item.value === 'string'
        ? item
        : Object.assign({}, item, { value: String(item.value) });
    let { type } = item;
    if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        // force double quotes on control characters & unpaired surrogates
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
            type = Scalar.Scalar.QUOTE_DOUBLE;
    }
    const _stringify = (_type) => {
        switch (_type) {
            case Scalar.Scalar.BLOCK_FOLDED:
            case Scalar.Scalar.BLOCK_LITERAL:
                return implicitKey || inFlow
                    ? quotedString(ss.value, ctx) // blocks are not valid inside flow containers
                    : blockString(ss, ctx, onComment, onChompKeep);
            case Scalar.Scalar.QUOTE_DOUBLE:
                return doubleQuotedString(ss.value, ctx);
            case Scalar.Scalar.QUOTE_SINGLE:
                return singleQuotedString(ss.value, ctx);
            case Scalar.Scalar.PLAIN:
                return plainString(ss, ctx, onComment, onChompKeep);
            default:
                return null;
        }
    };
    let res = _stringify(type);
    if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = (implicitKey && defaultKeyType) || defaultStringType;
        res = _stringify(t);
        if (res === null)
            throw new Error(`Unsupported default string type ${t}`);
    }
    return res;
}

exports.stringifyString = stringifyString;


/***/ }),

/***/ 204:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {



var identity = __nccwpck_require__(1127);

const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove node');
/**
 * Apply a visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
function visit(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        visit_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current node */
visit.SKIP = SKIP;
/** Remove the current node */
visit.REMOVE = REMOVE;
function visit_(key, node, visitor, path) {
    const ctrl = callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = visit_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = visit_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = visit_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
/**
 * Apply an async visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `Promise`: Must resolve to one of the following values
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
async function visitAsync(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visitAsync.BREAK = BREAK;
/** Do not visit the children of the current node */
visitAsync.SKIP = SKIP;
/** Remove the current node */
visitAsync.REMOVE = REMOVE;
async function visitAsync_(key, node, visitor, path) {
    const ctrl = await callVisitor(key, node, visitor, path);
    if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (identity.isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = await visitAsync_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (identity.isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = await visitAsync_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = await visitAsync_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
function initVisitor(visitor) {
    if (typeof visitor === 'object' &&
        (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
            Alias: visitor.Node,
            Map: visitor.Node,
            Scalar: visitor.Node,
            Seq: visitor.Node
        }, visitor.Value && {
            Map: visitor.Value,
            Scalar: visitor.Value,
            Seq: visitor.Value
        }, visitor.Collection && {
            Map: visitor.Collection,
            Seq: visitor.Collection
        }, visitor);
    }
    return visitor;
}
function callVisitor(key, node, visitor, path) {
    if (typeof visitor === 'function')
        return visitor(key, node, path);
    if (identity.isMap(node))
        return visitor.Map?.(key, node, path);
    if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path);
    if (identity.isPair(node))
        return visitor.Pair?.(key, node, path);
    if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path);
    if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path);
    return undefined;
}
function replaceNode(key, path, node) {
    const parent = path[path.length - 1];
    if (identity.isCollection(parent)) {
        parent.items[key] = node;
    }
    else if (identity.isPair(parent)) {
        if (key === 'key')
            parent.key = node;
        else
            parent.value = node;
    }
    else if (identity.isDocument(parent)) {
        parent.contents = node;
    }
    else {
        const pt = identity.isAlias(parent) ? 'alias' : 'scalar';
        throw new Error(`Cannot replace node with ${pt} parent`);
    }
}

exports.visit = visit;
exports.visitAsync = visitAsync;


/***/ }),

/***/ 183:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Xd: () => (/* binding */ policyFile),
/* harmony export */   g1: () => (/* binding */ record),
/* harmony export */   wh: () => (/* binding */ policySchema),
/* harmony export */   xR: () => (/* binding */ decision)
/* harmony export */ });
/* harmony import */ var ajv_dist_runtime_ucs2length_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6214);
// Generated by scripts/gen-validators.mjs from schemas/; do not edit.
const decision = validate1;
const schema1 = {"description":"One recorded tool call. A call can only be verified when action.resource_type, action.verb and action.target yield a subject (see the semantics document, section 2).","type":"object","required":["response"],"properties":{"tool":{"type":"object","properties":{"name":{"type":["string","null"],"maxLength":1024,"description":"The MCP tool name; longer than 1024 characters is refused (it is printed in annotations and summaries)."},"category":{"type":["string","null"]}}},"action":{"description":"What the call does. Missing or non-string resource_type/verb, or a non-object target, leave the call without a subject (never verified) rather than invalid.","type":["object","null"],"properties":{"resource_type":{"description":"The action class: github_deploy_key, workspace_member or workspace_role bind; other classes cannot be verified."},"verb":{},"target":{"description":"Only the fields bound for the class are hashed; provider selects which audit records may bind; read_only is never bound.","properties":{"provider":{"type":["string","null"]}}}}},"decision":{"type":"object","properties":{"effect":{"enum":["allow","deny","error"],"description":"Exactly allow, deny or error when present (upstream's server writes error for a call that failed): a denied or failed call is never promoted and never confirms another."}}},"response":{"type":"object","required":["side_effect_asserted"],"properties":{"status":{"description":"\"success\" on a read makes it able to confirm an earlier write."},"side_effect_asserted":{"type":"boolean"},"side_effect_verified":{"type":"boolean","description":"Legacy claim: true without a side_effect block claims verified (no digest)."},"side_effect":{"type":"object","required":["asserted","level"],"properties":{"asserted":{"type":"boolean"},"level":{"enum":["asserted","observed_confirmed","verified"]},"verification_source":{"type":["string","null"],"description":"null for asserted, observed_read_followup for observed_confirmed, provider_audit_import for verified."},"verification_subject_digest":{"type":["string","null"],"description":"The claimed binding of the call subject (sha256:<64 hex>); null for asserted."}}}}}}};

const func0 = ajv_dist_runtime_ucs2length_js__WEBPACK_IMPORTED_MODULE_0__["default"] ?? ajv_dist_runtime_ucs2length_js__WEBPACK_IMPORTED_MODULE_0__;

function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((data.response === undefined) && (missing0 = "response")){
validate1.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.tool !== undefined){
let data0 = data.tool;
const _errs1 = errors;
if(errors === _errs1){
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(data0.name !== undefined){
let data1 = data0.name;
const _errs3 = errors;
if((typeof data1 !== "string") && (data1 !== null)){
validate1.errors = [{instancePath:instancePath+"/tool/name",schemaPath:"#/properties/tool/properties/name/type",keyword:"type",params:{type: schema1.properties.tool.properties.name.type},message:"must be string,null"}];
return false;
}
if(errors === _errs3){
if(typeof data1 === "string"){
if(func0(data1) > 1024){
validate1.errors = [{instancePath:instancePath+"/tool/name",schemaPath:"#/properties/tool/properties/name/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"}];
return false;
}
}
}
var valid1 = _errs3 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data0.category !== undefined){
let data2 = data0.category;
const _errs5 = errors;
if((typeof data2 !== "string") && (data2 !== null)){
validate1.errors = [{instancePath:instancePath+"/tool/category",schemaPath:"#/properties/tool/properties/category/type",keyword:"type",params:{type: schema1.properties.tool.properties.category.type},message:"must be string,null"}];
return false;
}
var valid1 = _errs5 === errors;
}
else {
var valid1 = true;
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/tool",schemaPath:"#/properties/tool/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.action !== undefined){
let data3 = data.action;
const _errs7 = errors;
if((!(data3 && typeof data3 == "object" && !Array.isArray(data3))) && (data3 !== null)){
validate1.errors = [{instancePath:instancePath+"/action",schemaPath:"#/properties/action/type",keyword:"type",params:{type: schema1.properties.action.type},message:"must be object,null"}];
return false;
}
if(errors === _errs7){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.target !== undefined){
let data4 = data3.target;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.provider !== undefined){
let data5 = data4.provider;
if((typeof data5 !== "string") && (data5 !== null)){
validate1.errors = [{instancePath:instancePath+"/action/target/provider",schemaPath:"#/properties/action/properties/target/properties/provider/type",keyword:"type",params:{type: schema1.properties.action.properties.target.properties.provider.type},message:"must be string,null"}];
return false;
}
}
}
}
}
}
var valid0 = _errs7 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.decision !== undefined){
let data6 = data.decision;
const _errs12 = errors;
if(errors === _errs12){
if(data6 && typeof data6 == "object" && !Array.isArray(data6)){
if(data6.effect !== undefined){
let data7 = data6.effect;
if(!(((data7 === "allow") || (data7 === "deny")) || (data7 === "error"))){
validate1.errors = [{instancePath:instancePath+"/decision/effect",schemaPath:"#/properties/decision/properties/effect/enum",keyword:"enum",params:{allowedValues: schema1.properties.decision.properties.effect.enum},message:"must be equal to one of the allowed values"}];
return false;
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/decision",schemaPath:"#/properties/decision/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs12 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.response !== undefined){
let data8 = data.response;
const _errs15 = errors;
if(errors === _errs15){
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
let missing1;
if((data8.side_effect_asserted === undefined) && (missing1 = "side_effect_asserted")){
validate1.errors = [{instancePath:instancePath+"/response",schemaPath:"#/properties/response/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data8.side_effect_asserted !== undefined){
const _errs17 = errors;
if(typeof data8.side_effect_asserted !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect_asserted",schemaPath:"#/properties/response/properties/side_effect_asserted/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid5 = _errs17 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data8.side_effect_verified !== undefined){
const _errs19 = errors;
if(typeof data8.side_effect_verified !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect_verified",schemaPath:"#/properties/response/properties/side_effect_verified/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid5 = _errs19 === errors;
}
else {
var valid5 = true;
}
if(valid5){
if(data8.side_effect !== undefined){
let data11 = data8.side_effect;
const _errs21 = errors;
if(errors === _errs21){
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
let missing2;
if(((data11.asserted === undefined) && (missing2 = "asserted")) || ((data11.level === undefined) && (missing2 = "level"))){
validate1.errors = [{instancePath:instancePath+"/response/side_effect",schemaPath:"#/properties/response/properties/side_effect/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
if(data11.asserted !== undefined){
const _errs23 = errors;
if(typeof data11.asserted !== "boolean"){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/asserted",schemaPath:"#/properties/response/properties/side_effect/properties/asserted/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"}];
return false;
}
var valid6 = _errs23 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.level !== undefined){
let data13 = data11.level;
const _errs25 = errors;
if(!(((data13 === "asserted") || (data13 === "observed_confirmed")) || (data13 === "verified"))){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/level",schemaPath:"#/properties/response/properties/side_effect/properties/level/enum",keyword:"enum",params:{allowedValues: schema1.properties.response.properties.side_effect.properties.level.enum},message:"must be equal to one of the allowed values"}];
return false;
}
var valid6 = _errs25 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.verification_source !== undefined){
let data14 = data11.verification_source;
const _errs26 = errors;
if((typeof data14 !== "string") && (data14 !== null)){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/verification_source",schemaPath:"#/properties/response/properties/side_effect/properties/verification_source/type",keyword:"type",params:{type: schema1.properties.response.properties.side_effect.properties.verification_source.type},message:"must be string,null"}];
return false;
}
var valid6 = _errs26 === errors;
}
else {
var valid6 = true;
}
if(valid6){
if(data11.verification_subject_digest !== undefined){
let data15 = data11.verification_subject_digest;
const _errs28 = errors;
if((typeof data15 !== "string") && (data15 !== null)){
validate1.errors = [{instancePath:instancePath+"/response/side_effect/verification_subject_digest",schemaPath:"#/properties/response/properties/side_effect/properties/verification_subject_digest/type",keyword:"type",params:{type: schema1.properties.response.properties.side_effect.properties.verification_subject_digest.type},message:"must be string,null"}];
return false;
}
var valid6 = _errs28 === errors;
}
else {
var valid6 = true;
}
}
}
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/response/side_effect",schemaPath:"#/properties/response/properties/side_effect/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid5 = _errs21 === errors;
}
else {
var valid5 = true;
}
}
}
}
}
else {
validate1.errors = [{instancePath:instancePath+"/response",schemaPath:"#/properties/response/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs15 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
else {
validate1.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate1.errors = vErrors;
return errors === 0;
}

const record = validate2;
const schema3 = {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://receipt-gate.dev/schemas/provider-audit-record.schema.json","title":"assay.provider_audit_record.v0","description":"An audit record exported independently from a provider's own audit log. binding_digest must equal sha256(JCS(subject)); receipt-gate recomputes it and never queries the provider.","type":"object","required":["schema","provider","record_id","subject","binding_digest"],"properties":{"schema":{"const":"assay.provider_audit_record.v0"},"provider":{"type":"string","description":"Must equal action.target.provider of the call it verifies, when the call names one."},"record_id":{"type":"string","description":"With provider, the record's identity: one record verifies one call."},"subject":{"type":"object","required":["action_class","verb","target"],"properties":{"action_class":{"type":"string"},"verb":{"type":"string"},"target":{"type":"object"}}},"binding_digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"non_claims":{"type":"array","items":{"type":"string"}},"signature":{"type":"object","description":"Optional: an Ed25519 signature by the export job over the DSSE PAE of JCS(this record without signature); see docs/records-provenance.md.","required":["version","algorithm","payload_type","signed_payload_digest","key_id","signature","signed_at"],"additionalProperties":false,"properties":{"version":{"const":1},"algorithm":{"const":"ed25519"},"payload_type":{"const":"application/vnd.assay.provider-audit-record+json;v=0"},"signed_payload_digest":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"key_id":{"type":"string","pattern":"^sha256:[0-9a-f]{64}$","description":"sha256 of the signer's public key (SubjectPublicKeyInfo DER)."},"signature":{"type":"string","description":"base64 of the 64-byte Ed25519 signature"},"signed_at":{"type":"string","description":"RFC 3339 UTC time"}}}}};
const pattern0 = new RegExp("^sha256:[0-9a-f]{64}$", "u");

function validate2(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://receipt-gate.dev/schemas/provider-audit-record.schema.json" */;
let vErrors = null;
let errors = 0;
if(errors === 0){
if(data && typeof data == "object" && !Array.isArray(data)){
let missing0;
if((((((data.schema === undefined) && (missing0 = "schema")) || ((data.provider === undefined) && (missing0 = "provider"))) || ((data.record_id === undefined) && (missing0 = "record_id"))) || ((data.subject === undefined) && (missing0 = "subject"))) || ((data.binding_digest === undefined) && (missing0 = "binding_digest"))){
validate2.errors = [{instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: missing0},message:"must have required property '"+missing0+"'"}];
return false;
}
else {
if(data.schema !== undefined){
const _errs1 = errors;
if("assay.provider_audit_record.v0" !== data.schema){
validate2.errors = [{instancePath:instancePath+"/schema",schemaPath:"#/properties/schema/const",keyword:"const",params:{allowedValue: "assay.provider_audit_record.v0"},message:"must be equal to constant"}];
return false;
}
var valid0 = _errs1 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.provider !== undefined){
const _errs2 = errors;
if(typeof data.provider !== "string"){
validate2.errors = [{instancePath:instancePath+"/provider",schemaPath:"#/properties/provider/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs2 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.record_id !== undefined){
const _errs4 = errors;
if(typeof data.record_id !== "string"){
validate2.errors = [{instancePath:instancePath+"/record_id",schemaPath:"#/properties/record_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid0 = _errs4 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.subject !== undefined){
let data3 = data.subject;
const _errs6 = errors;
if(errors === _errs6){
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
let missing1;
if((((data3.action_class === undefined) && (missing1 = "action_class")) || ((data3.verb === undefined) && (missing1 = "verb"))) || ((data3.target === undefined) && (missing1 = "target"))){
validate2.errors = [{instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/required",keyword:"required",params:{missingProperty: missing1},message:"must have required property '"+missing1+"'"}];
return false;
}
else {
if(data3.action_class !== undefined){
const _errs8 = errors;
if(typeof data3.action_class !== "string"){
validate2.errors = [{instancePath:instancePath+"/subject/action_class",schemaPath:"#/properties/subject/properties/action_class/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs8 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data3.verb !== undefined){
const _errs10 = errors;
if(typeof data3.verb !== "string"){
validate2.errors = [{instancePath:instancePath+"/subject/verb",schemaPath:"#/properties/subject/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid1 = _errs10 === errors;
}
else {
var valid1 = true;
}
if(valid1){
if(data3.target !== undefined){
let data6 = data3.target;
const _errs12 = errors;
if(!(data6 && typeof data6 == "object" && !Array.isArray(data6))){
validate2.errors = [{instancePath:instancePath+"/subject/target",schemaPath:"#/properties/subject/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
var valid1 = _errs12 === errors;
}
else {
var valid1 = true;
}
}
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/subject",schemaPath:"#/properties/subject/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs6 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.binding_digest !== undefined){
let data7 = data.binding_digest;
const _errs14 = errors;
if(errors === _errs14){
if(typeof data7 === "string"){
if(!pattern0.test(data7)){
validate2.errors = [{instancePath:instancePath+"/binding_digest",schemaPath:"#/properties/binding_digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/binding_digest",schemaPath:"#/properties/binding_digest/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid0 = _errs14 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.non_claims !== undefined){
let data8 = data.non_claims;
const _errs16 = errors;
if(errors === _errs16){
if(Array.isArray(data8)){
var valid2 = true;
const len0 = data8.length;
for(let i0=0; i0<len0; i0++){
const _errs18 = errors;
if(typeof data8[i0] !== "string"){
validate2.errors = [{instancePath:instancePath+"/non_claims/" + i0,schemaPath:"#/properties/non_claims/items/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid2 = _errs18 === errors;
if(!valid2){
break;
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/non_claims",schemaPath:"#/properties/non_claims/type",keyword:"type",params:{type: "array"},message:"must be array"}];
return false;
}
}
var valid0 = _errs16 === errors;
}
else {
var valid0 = true;
}
if(valid0){
if(data.signature !== undefined){
let data10 = data.signature;
const _errs20 = errors;
if(errors === _errs20){
if(data10 && typeof data10 == "object" && !Array.isArray(data10)){
let missing2;
if((((((((data10.version === undefined) && (missing2 = "version")) || ((data10.algorithm === undefined) && (missing2 = "algorithm"))) || ((data10.payload_type === undefined) && (missing2 = "payload_type"))) || ((data10.signed_payload_digest === undefined) && (missing2 = "signed_payload_digest"))) || ((data10.key_id === undefined) && (missing2 = "key_id"))) || ((data10.signature === undefined) && (missing2 = "signature"))) || ((data10.signed_at === undefined) && (missing2 = "signed_at"))){
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/required",keyword:"required",params:{missingProperty: missing2},message:"must have required property '"+missing2+"'"}];
return false;
}
else {
const _errs22 = errors;
for(const key0 in data10){
if(!(((((((key0 === "version") || (key0 === "algorithm")) || (key0 === "payload_type")) || (key0 === "signed_payload_digest")) || (key0 === "key_id")) || (key0 === "signature")) || (key0 === "signed_at"))){
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"}];
return false;
break;
}
}
if(_errs22 === errors){
if(data10.version !== undefined){
const _errs23 = errors;
if(1 !== data10.version){
validate2.errors = [{instancePath:instancePath+"/signature/version",schemaPath:"#/properties/signature/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs23 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.algorithm !== undefined){
const _errs24 = errors;
if("ed25519" !== data10.algorithm){
validate2.errors = [{instancePath:instancePath+"/signature/algorithm",schemaPath:"#/properties/signature/properties/algorithm/const",keyword:"const",params:{allowedValue: "ed25519"},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs24 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.payload_type !== undefined){
const _errs25 = errors;
if("application/vnd.assay.provider-audit-record+json;v=0" !== data10.payload_type){
validate2.errors = [{instancePath:instancePath+"/signature/payload_type",schemaPath:"#/properties/signature/properties/payload_type/const",keyword:"const",params:{allowedValue: "application/vnd.assay.provider-audit-record+json;v=0"},message:"must be equal to constant"}];
return false;
}
var valid3 = _errs25 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signed_payload_digest !== undefined){
let data14 = data10.signed_payload_digest;
const _errs26 = errors;
if(errors === _errs26){
if(typeof data14 === "string"){
if(!pattern0.test(data14)){
validate2.errors = [{instancePath:instancePath+"/signature/signed_payload_digest",schemaPath:"#/properties/signature/properties/signed_payload_digest/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature/signed_payload_digest",schemaPath:"#/properties/signature/properties/signed_payload_digest/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs26 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.key_id !== undefined){
let data15 = data10.key_id;
const _errs28 = errors;
if(errors === _errs28){
if(typeof data15 === "string"){
if(!pattern0.test(data15)){
validate2.errors = [{instancePath:instancePath+"/signature/key_id",schemaPath:"#/properties/signature/properties/key_id/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""}];
return false;
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature/key_id",schemaPath:"#/properties/signature/properties/key_id/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
}
var valid3 = _errs28 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signature !== undefined){
const _errs30 = errors;
if(typeof data10.signature !== "string"){
validate2.errors = [{instancePath:instancePath+"/signature/signature",schemaPath:"#/properties/signature/properties/signature/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs30 === errors;
}
else {
var valid3 = true;
}
if(valid3){
if(data10.signed_at !== undefined){
const _errs32 = errors;
if(typeof data10.signed_at !== "string"){
validate2.errors = [{instancePath:instancePath+"/signature/signed_at",schemaPath:"#/properties/signature/properties/signed_at/type",keyword:"type",params:{type: "string"},message:"must be string"}];
return false;
}
var valid3 = _errs32 === errors;
}
else {
var valid3 = true;
}
}
}
}
}
}
}
}
}
}
else {
validate2.errors = [{instancePath:instancePath+"/signature",schemaPath:"#/properties/signature/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
var valid0 = _errs20 === errors;
}
else {
var valid0 = true;
}
}
}
}
}
}
}
}
}
else {
validate2.errors = [{instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"}];
return false;
}
}
validate2.errors = vErrors;
return errors === 0;
}

const policyFile = policyValidate0;
const policySchema0 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call may wait for the export that covers it (docs/coverage.md): whole units d, h, m in that order (72h, 3d, 1d12h, 90m); 0 (the default): nothing is ever pending.","type":"string","pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["run","sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the run file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}}}};
const policySchema1 = {"enum":["asserted","observed_confirmed","verified"]};
const policySchema9 = {"type":"object","additionalProperties":false,"required":["run","sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the run file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}};
const policyPattern0 = new RegExp("^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$", "u");
const policyPattern5 = new RegExp("^[0-9a-f]{64}$", "u");
const policySchema2 = {"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}};
const policySchema3 = {"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"};
const policySchema4 = {"type":"string","minLength":1};
const policyPattern1 = new RegExp("^[a-z0-9][a-z0-9-]{0,63}$", "u");
const policyPattern2 = new RegExp("^(https://\\S+|sha256:[0-9a-f]{64})$", "u");
const policyFunc0 = ajv_dist_runtime_ucs2length_js__WEBPACK_IMPORTED_MODULE_0__["default"] ?? ajv_dist_runtime_ucs2length_js__WEBPACK_IMPORTED_MODULE_0__;

function policyValidate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.match === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "match"},message:"must have required property '"+"match"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.require === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "require"},message:"must have required property '"+"require"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "name") || (key0 === "match")) || (key0 === "require")) || (key0 === "mode")) || (key0 === "signed-by"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!policyPattern1.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9-]{0,63}$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9-]{0,63}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.match !== undefined){
let data1 = data.match;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.class === undefined){
const err6 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/required",keyword:"required",params:{missingProperty: "class"},message:"must have required property '"+"class"+"'"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
for(const key1 in data1){
if(!(((key1 === "class") || (key1 === "verb")) || (key1 === "target"))){
const err7 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.class !== undefined){
let data2 = data1.class;
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err8 = {instancePath:instancePath+"/match/class",schemaPath:"#/properties/match/properties/class/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/match/class",schemaPath:"#/properties/match/properties/class/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.verb !== undefined){
let data3 = data1.verb;
if(typeof data3 === "string"){
if(policyFunc0(data3) < 1){
const err10 = {instancePath:instancePath+"/match/verb",schemaPath:"#/properties/match/properties/verb/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/match/verb",schemaPath:"#/properties/match/properties/verb/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data1.target !== undefined){
let data4 = data1.target;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(Object.keys(data4).length < 1){
const err12 = {instancePath:instancePath+"/match/target",schemaPath:"#/properties/match/properties/target/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
for(const key2 in data4){
let data5 = data4[key2];
const _errs16 = errors;
let valid4 = false;
let passing0 = null;
const _errs17 = errors;
if(typeof data5 === "string"){
if(policyFunc0(data5) < 1){
const err13 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/glob/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/glob/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
var _valid0 = _errs17 === errors;
if(_valid0){
valid4 = true;
passing0 = 0;
}
const _errs20 = errors;
if(Array.isArray(data5)){
if(data5.length < 1){
const err15 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf/1/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 === "string"){
if(policyFunc0(data6) < 1){
const err16 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/$defs/glob/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i0,schemaPath:"#/$defs/glob/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf/1/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
var _valid0 = _errs20 === errors;
if(_valid0 && valid4){
valid4 = false;
passing0 = [passing0, 1];
}
else {
if(_valid0){
valid4 = true;
passing0 = 1;
}
}
if(!valid4){
const err19 = {instancePath:instancePath+"/match/target/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/match/properties/target/additionalProperties/oneOf",keyword:"oneOf",params:{passingSchemas: passing0},message:"must match exactly one schema in oneOf"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
else {
errors = _errs16;
if(vErrors !== null){
if(_errs16){
vErrors.length = _errs16;
}
else {
vErrors = null;
}
}
}
}
}
else {
const err20 = {instancePath:instancePath+"/match/target",schemaPath:"#/properties/match/properties/target/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/match",schemaPath:"#/properties/match/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.require !== undefined){
let data7 = data.require;
if(!(((data7 === "asserted") || (data7 === "observed_confirmed")) || (data7 === "verified"))){
const err22 = {instancePath:instancePath+"/require",schemaPath:"#/$defs/level/enum",keyword:"enum",params:{allowedValues: policySchema1.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.mode !== undefined){
let data8 = data.mode;
if(!((data8 === "enforce") || (data8 === "warn"))){
const err23 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/enum",keyword:"enum",params:{allowedValues: policySchema2.properties.mode.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data["signed-by"] !== undefined){
let data9 = data["signed-by"];
if(Array.isArray(data9)){
if(data9.length < 1){
const err24 = {instancePath:instancePath+"/signed-by",schemaPath:"#/properties/signed-by/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
const len1 = data9.length;
for(let i1=0; i1<len1; i1++){
let data10 = data9[i1];
if(typeof data10 === "string"){
if(!policyPattern2.test(data10)){
const err25 = {instancePath:instancePath+"/signed-by/" + i1,schemaPath:"#/properties/signed-by/items/pattern",keyword:"pattern",params:{pattern: "^(https://\\S+|sha256:[0-9a-f]{64})$"},message:"must match pattern \""+"^(https://\\S+|sha256:[0-9a-f]{64})$"+"\""};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
else {
const err26 = {instancePath:instancePath+"/signed-by/" + i1,schemaPath:"#/properties/signed-by/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
}
else {
const err27 = {instancePath:instancePath+"/signed-by",schemaPath:"#/properties/signed-by/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
}
else {
const err28 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
policyValidate1.errors = vErrors;
return errors === 0;
}

const policySchema7 = {"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}};
const policyPattern3 = new RegExp("^sha256:[0-9a-f]{64}$", "u");

function policyValidate3(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.binding === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "binding"},message:"must have required property '"+"binding"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.rule === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "rule"},message:"must have required property '"+"rule"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.reason === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.owner === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "owner"},message:"must have required property '"+"owner"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.expires === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "expires"},message:"must have required property '"+"expires"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "binding") || (key0 === "rule")) || (key0 === "reason")) || (key0 === "owner")) || (key0 === "expires"))){
const err5 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.binding !== undefined){
let data0 = data.binding;
if(typeof data0 === "string"){
if(!policyPattern3.test(data0)){
const err6 = {instancePath:instancePath+"/binding",schemaPath:"#/properties/binding/pattern",keyword:"pattern",params:{pattern: "^sha256:[0-9a-f]{64}$"},message:"must match pattern \""+"^sha256:[0-9a-f]{64}$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/binding",schemaPath:"#/properties/binding/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.rule !== undefined){
let data1 = data.rule;
if(typeof data1 === "string"){
if(!policyPattern1.test(data1)){
const err8 = {instancePath:instancePath+"/rule",schemaPath:"#/$defs/name/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9][a-z0-9-]{0,63}$"},message:"must match pattern \""+"^[a-z0-9][a-z0-9-]{0,63}$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/rule",schemaPath:"#/$defs/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.reason !== undefined){
let data2 = data.reason;
if(typeof data2 === "string"){
if(policyFunc0(data2) < 1){
const err10 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/reason",schemaPath:"#/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.owner !== undefined){
let data3 = data.owner;
if(typeof data3 === "string"){
if(policyFunc0(data3) < 1){
const err12 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/owner",schemaPath:"#/properties/owner/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.expires !== undefined){
let data4 = data.expires;
if(typeof data4 === "string"){
if(policyFunc0(data4) < 1){
const err14 = {instancePath:instancePath+"/expires",schemaPath:"#/properties/expires/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/expires",schemaPath:"#/properties/expires/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
policyValidate3.errors = vErrors;
return errors === 0;
}


function policyValidate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
/*# sourceURL="https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json" */;
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.version === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "version") || (key0 === "default")) || (key0 === "pending")) || (key0 === "rules")) || (key0 === "exceptions")) || (key0 === "grandfathered"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.version !== undefined){
if(1 !== data.version){
const err2 = {instancePath:instancePath+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.default !== undefined){
let data1 = data.default;
if(!(((data1 === "asserted") || (data1 === "observed_confirmed")) || (data1 === "verified"))){
const err3 = {instancePath:instancePath+"/default",schemaPath:"#/$defs/level/enum",keyword:"enum",params:{allowedValues: policySchema1.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.pending !== undefined){
let data2 = data.pending;
if(typeof data2 === "string"){
if(!policyPattern0.test(data2)){
const err4 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/pattern",keyword:"pattern",params:{pattern: "^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},message:"must match pattern \""+"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/pending",schemaPath:"#/properties/pending/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.rules !== undefined){
let data3 = data.rules;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
if(!(policyValidate1(data3[i0], {instancePath:instancePath+"/rules/" + i0,parentData:data3,parentDataProperty:i0,rootData}))){
vErrors = vErrors === null ? policyValidate1.errors : vErrors.concat(policyValidate1.errors);
errors = vErrors.length;
}
}
}
else {
const err6 = {instancePath:instancePath+"/rules",schemaPath:"#/properties/rules/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.exceptions !== undefined){
let data5 = data.exceptions;
if(Array.isArray(data5)){
const len1 = data5.length;
for(let i1=0; i1<len1; i1++){
if(!(policyValidate3(data5[i1], {instancePath:instancePath+"/exceptions/" + i1,parentData:data5,parentDataProperty:i1,rootData}))){
vErrors = vErrors === null ? policyValidate3.errors : vErrors.concat(policyValidate3.errors);
errors = vErrors.length;
}
}
}
else {
const err7 = {instancePath:instancePath+"/exceptions",schemaPath:"#/properties/exceptions/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.grandfathered !== undefined){
let data7 = data.grandfathered;
if(Array.isArray(data7)){
const len2 = data7.length;
for(let i2=0; i2<len2; i2++){
let data8 = data7[i2];
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.run === undefined){
const err8 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "run"},message:"must have required property '"+"run"+"'"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(data8.sha256 === undefined){
const err9 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "sha256"},message:"must have required property '"+"sha256"+"'"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data8.reason === undefined){
const err10 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/required",keyword:"required",params:{missingProperty: "reason"},message:"must have required property '"+"reason"+"'"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
for(const key1 in data8){
if(!(((key1 === "run") || (key1 === "sha256")) || (key1 === "reason"))){
const err11 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data8.run !== undefined){
let data9 = data8.run;
if(typeof data9 === "string"){
if(policyFunc0(data9) < 1){
const err12 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/grandfathered/" + i2+"/run",schemaPath:"#/$defs/grandfathered/properties/run/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data8.sha256 !== undefined){
let data10 = data8.sha256;
if(typeof data10 === "string"){
if(!policyPattern5.test(data10)){
const err14 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{64}$"},message:"must match pattern \""+"^[0-9a-f]{64}$"+"\""};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/grandfathered/" + i2+"/sha256",schemaPath:"#/$defs/grandfathered/properties/sha256/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data8.reason !== undefined){
let data11 = data8.reason;
if(typeof data11 === "string"){
if(policyFunc0(data11) < 1){
const err16 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/grandfathered/" + i2+"/reason",schemaPath:"#/$defs/grandfathered/properties/reason/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath:instancePath+"/grandfathered/" + i2,schemaPath:"#/$defs/grandfathered/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/grandfathered",schemaPath:"#/properties/grandfathered/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
policyValidate0.errors = vErrors;
return errors === 0;
}

const policySchema = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/receipt-gate/receipt-gate/blob/main/schemas/policy.schema.json","title":"receipt-gate policy file (.github/receipt-gate.yml)","description":"What each side effect must reach, read from the base commit on pull requests and merge queues (docs/policy.md). YAML 1.2, one document; this schema is its shape (what the gate checks besides: unique rule names, globs only on plain fields, fields the class binds, expiry at most 366 days out, signers among those trusted, class and verb names).","type":"object","additionalProperties":false,"required":["version"],"properties":{"version":{"description":"The policy file's version: 1.","const":1},"default":{"description":"The level required of a call that asserts a side effect, was not denied and no rule matches (default: asserted, honesty only).","$ref":"#/$defs/level"},"pending":{"description":"How long a call may wait for the export that covers it (docs/coverage.md): whole units d, h, m in that order (72h, 3d, 1d12h, 90m); 0 (the default): nothing is ever pending.","type":"string","pattern":"^(0|(?=\\d)(\\d+d)?(\\d+h)?(\\d+m)?)$"},"rules":{"description":"Rules, first match wins in file order.","type":"array","items":{"$ref":"#/$defs/rule"}},"exceptions":{"description":"Shortfalls excused, each keyed by a call's binding, with a reason, an owner and an expiry.","type":"array","items":{"$ref":"#/$defs/exception"}},"grandfathered":{"description":"Runs judged for honesty only, pinned by their bytes.","type":"array","items":{"$ref":"#/$defs/grandfathered"}}},"$defs":{"level":{"enum":["asserted","observed_confirmed","verified"]},"name":{"type":"string","pattern":"^[a-z0-9][a-z0-9-]{0,63}$"},"glob":{"type":"string","minLength":1},"rule":{"type":"object","additionalProperties":false,"required":["name","match","require"],"properties":{"name":{"description":"Unique; [a-z0-9][a-z0-9-]*, at most 64 characters.","$ref":"#/$defs/name"},"match":{"type":"object","additionalProperties":false,"required":["class"],"properties":{"class":{"description":"An action class (action.resource_type).","type":"string","minLength":1},"verb":{"description":"A verb (action.verb).","type":"string","minLength":1},"target":{"description":"Every field given must match: a plain field, one anchored glob or a list of them (* = any run of characters but /); a hashed field named without _hash, a list of raw values hashed as the agent hashes.","type":"object","minProperties":1,"additionalProperties":{"oneOf":[{"$ref":"#/$defs/glob"},{"type":"array","minItems":1,"items":{"$ref":"#/$defs/glob"}}]}}}},"require":{"$ref":"#/$defs/level"},"mode":{"description":"enforce (default): a shortfall fails the gate; warn: it is a warning.","enum":["enforce","warn"]},"signed-by":{"description":"Who must vouch for the record that verifies a call of this rule: trusted signer identities (https URIs) or key ids (sha256:…).","type":"array","minItems":1,"items":{"type":"string","pattern":"^(https://\\S+|sha256:[0-9a-f]{64})$"}}}},"exception":{"type":"object","additionalProperties":false,"required":["binding","rule","reason","owner","expires"],"properties":{"binding":{"description":"The call subject's binding.","type":"string","pattern":"^sha256:[0-9a-f]{64}$"},"rule":{"description":"The rule it excuses.","$ref":"#/$defs/name"},"reason":{"type":"string","minLength":1},"owner":{"type":"string","minLength":1},"expires":{"description":"An RFC 3339 date (00:00 UTC) or date-time; at most 366 days after the verification time.","type":"string","minLength":1}}},"grandfathered":{"type":"object","additionalProperties":false,"required":["run","sha256","reason"],"properties":{"run":{"description":"The run's path, as the report names it.","type":"string","minLength":1},"sha256":{"description":"Hex sha256 of the run file's bytes.","type":"string","pattern":"^[0-9a-f]{64}$"},"reason":{"type":"string","minLength":1}}}}};


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(5581);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
